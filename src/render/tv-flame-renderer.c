/* tv-flame-renderer.c: boxes, labels and highlights with cairo
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A full redraw of a 1920x1080 flame graph must take a few milliseconds.
 * So each frame's label is shaped once (a TvDrawLabel, tv-draw.h) and
 * kept per frame until the font or the profile changes; boxes are sorted
 * by colour, so that cairo fills all of a colour in one go, and from a
 * few thousand on they are written into an image painted once.
 */
#include "tv-flame-renderer-private.h"

#include <math.h>
#include <string.h>

#include "tv-draw.h"
#include "tv-palette.h"
#include "tv-text.h"

#define LABEL_PADDING       4.0      /* pixels left and right of a label */
/* Shaped labels kept before the cache starts over. */
#define MAX_CACHED_LABELS   16384
/* From this many boxes on, boxes are drawn as an image (see paint_raster). */
#define RASTER_MIN_BOXES    2048

/* ------------------------------------------------------------------------ */
/* Labels                                                                    */
/* ------------------------------------------------------------------------ */

/* Appends TEXT as a name is shown (see tv-text.h): its control and
 * bidirectional characters shown, not obeyed, and a long one cut, so
 * that a label never shapes more than a screen could show. */
static void
append_label_text (GString    *out,
                   const char *text)
{
  tv_text_append_shown (out, text, -1);
}

/* The file part of a label: the file's name, with its directory for a
 * package's __init__.py or __main__.py, which say little alone. */
static void
append_file_name (GString    *out,
                  const char *path)
{
  const char *base = path, *dir = path;

  for (const char *p = path; *p != '\0'; p++)
    if (*p == '/' || *p == '\\')
      {
        dir = base;
        base = p + 1;
      }
  if (path[0] != '<' && (strcmp (base, "__init__.py") == 0 || strcmp (base, "__main__.py") == 0))
    base = dir;
  append_label_text (out, base[0] != '\0' ? base : path);
}

static TvDrawLabel *
make_frame_label (TvFlameRenderer *self,
                  TvProfileData   *data,
                  TvMergeKey       merge,
                  guint32          frame)
{
  TvFrameLocation f;
  gboolean has_frame = tv_profile_data_get_frame_location (data, frame, &f);
  g_autoptr(GString) name = g_string_new (NULL);
  g_autoptr(GString) location = g_string_new ("  ");
  TvDrawLabel *label = tv_draw_label_new ();

  append_label_text (name, tv_profile_data_get_funcname (data, frame));
  append_file_name (location, tv_profile_data_get_filename (data, frame));
  /* Merged by function, a node has many lines: its frame's would mislead. */
  if (merge != TV_MERGE_FUNCTION && has_frame && f.line != TV_LOCATION_NONE)
    g_string_append_printf (location, ":%d", f.line);

  tv_draw_label_append (label, &self->text, name->str, name->len, FALSE);
  /* Without a name, the location starts the label; it is drawn fainter. */
  if (name->len == 0)
    g_string_erase (location, 0, 2);
  tv_draw_label_append (label, &self->text, location->str, location->len, TRUE);
  return label;
}

static TvDrawLabel *
make_text_label (TvFlameRenderer *self,
                 const char      *text)
{
  g_autoptr(GString) s = g_string_new (NULL);
  TvDrawLabel *label = tv_draw_label_new ();

  append_label_text (s, text);
  tv_draw_label_append (label, &self->text, s->str, s->len, FALSE);
  return label;
}

static void
clear_labels (TvFlameRenderer *self)
{
  g_hash_table_remove_all (self->labels);
  g_clear_pointer (&self->label_data, tv_profile_data_unref);
  g_clear_pointer (&self->root_label, tv_draw_label_free);
  g_clear_pointer (&self->root_text, g_free);
}

/* Shaping state for STYLE's font and the layout's profile and merge key;
 * labels shaped with anything else are dropped. */
static void
ensure_fonts (TvFlameRenderer    *self,
              TvCallTree         *tree,
              const TvFlameStyle *style)
{
  TvProfileData *data = tv_call_tree_get_data (tree);
  TvMergeKey merge = tv_call_tree_get_merge (tree);

  if (tv_draw_text_set_font (&self->text, style->font))
    clear_labels (self);

  if (self->label_data != data || self->label_merge != merge)
    {
      clear_labels (self);
      self->label_data = tv_profile_data_ref (data);
      self->label_merge = merge;
    }
  if (g_hash_table_size (self->labels) > MAX_CACHED_LABELS)
    g_hash_table_remove_all (self->labels);
}

static TvDrawLabel *
lookup_label (TvFlameRenderer    *self,
              TvCallTree         *tree,
              const TvFlameBox   *box,
              const TvFlameStyle *style)
{
  guint32 frame;
  TvDrawLabel *label;

  if (box->node == TV_ROOT_NODE)
    {
      if (style->root_label == NULL)
        return NULL;
      if (g_strcmp0 (self->root_text, style->root_label) != 0)
        {
          g_clear_pointer (&self->root_label, tv_draw_label_free);
          g_free (self->root_text);
          self->root_text = g_strdup (style->root_label);
          self->root_label = make_text_label (self, style->root_label);
        }
      return self->root_label;
    }

  frame = tv_call_tree_get_frame (tree, box->node);
  label = g_hash_table_lookup (self->labels, GUINT_TO_POINTER (frame));
  if (label == NULL)
    {
      label = make_frame_label (self, tv_call_tree_get_data (tree), tv_call_tree_get_merge (tree),
                                frame);
      g_hash_table_insert (self->labels, GUINT_TO_POINTER (frame), label);
    }
  return label;
}

/* ------------------------------------------------------------------------ */
/* Drawing                                                                   */
/* ------------------------------------------------------------------------ */

/* Sorts KEYS (a colour in bits 32 to 55, a box below) by colour, keeping
 * the boxes' order within a colour: three passes of a radix sort.  Cairo
 * then fills all the boxes of a colour in one go, which costs a fraction
 * of a fill per box, and a flame graph has far fewer colours than boxes. */
static void
sort_by_color (guint64 *keys,
               guint64 *tmp,
               guint    n)
{
  if (n == 0)
    return;
  for (guint shift = 32; shift < 56; shift += 8)
    {
      guint count[257] = { 0 };

      for (guint i = 0; i < n; i++)
        count[((keys[i] >> shift) & 0xff) + 1]++;
      for (guint b = 0; b < 256; b++)
        count[b + 1] += count[b];
      for (guint i = 0; i < n; i++)
        tmp[count[(keys[i] >> shift) & 0xff]++] = keys[i];
      memcpy (keys, tmp, n * sizeof (guint64));
    }
}

/* Fills the N painted boxes listed in order[], a cairo fill each: a
 * colour at a time, as setting the source costs as much as a fill. */
static void
fill_boxes (TvFlameRenderer *self,
            cairo_t         *cr,
            guint            n)
{
  sort_by_color (self->order, self->order_tmp, n);

  cairo_save (cr);
  /* Crisp edges: every box is snapped to whole pixels. */
  cairo_set_antialias (cr, CAIRO_ANTIALIAS_NONE);
  for (guint k = 0; k < n;)
    {
      guint32 rgb = self->order[k] >> 32;

      tv_draw_set_source (cr, tv_color_unpack (rgb), 1.0);
      for (; k < n && self->order[k] >> 32 == rgb; k++)
        {
          const Painted *p = &self->painted[(guint32) self->order[k]];

          cairo_rectangle (cr, p->left, p->top, p->right - p->left, p->bottom - p->top);
          cairo_fill (cr);
        }
    }
  cairo_restore (cr);
}

/* Whether boxes may be drawn as an image: not on vector surfaces (an
 * export keeps its rectangles), and not under a rotation or shear. */
static gboolean
can_rasterize (cairo_t *cr)
{
  cairo_matrix_t m;

  switch (cairo_surface_get_type (cairo_get_target (cr)))
    {
    case CAIRO_SURFACE_TYPE_PDF:
    case CAIRO_SURFACE_TYPE_PS:
    case CAIRO_SURFACE_TYPE_SVG:
    case CAIRO_SURFACE_TYPE_SCRIPT:
      return FALSE;
    default:
      break;
    }
  cairo_get_matrix (cr, &m);
  return m.xy == 0 && m.yx == 0 && m.xx > 0 && m.yy > 0;
}

/* Draws the N painted boxes listed in order[] by writing their pixels
 * into an image of the viewport and painting that once.  Thousands of
 * cairo fills cost more than a frame's budget; this costs a clear and a
 * composite.  Boxes are whole user-space pixels, so with the nearest
 * filter the result is the same as filling them, at any scale.  With a
 * BACKGROUND, the image is painted on that, opaque, with no blending. */
static void
paint_raster (TvFlameRenderer    *self,
              cairo_t            *cr,
              guint               n,
              double              view_width,
              const TvFlameColor *background,
              double              view_height)
{
  int width = (int) ceil (view_width), height = 0, top = G_MAXINT, bottom = 0, stride = 0;
  guchar *pixels = NULL;

  for (guint k = 0; k < n; k++)
    {
      const Painted *p = &self->painted[(guint32) self->order[k]];

      top = MIN (top, (int) MAX (p->top, 0));
      bottom = MAX (bottom, (int) p->bottom);
    }
  height = bottom;
  if (width <= 0 || bottom <= top)
    {
      if (background != NULL)
        {
          tv_draw_set_source (cr, *background, 1.0);
          cairo_rectangle (cr, 0, 0, view_width, view_height);
          cairo_fill (cr);
        }
      return;
    }

  if (tv_draw_ensure_image (&self->raster, width, height) != NULL)
    {
      cairo_surface_flush (self->raster);
      pixels = cairo_image_surface_get_data (self->raster);
      stride = cairo_image_surface_get_stride (self->raster);
    }
  if (pixels == NULL)
    {
      if (background != NULL)
        {
          tv_draw_set_source (cr, *background, 1.0);
          cairo_rectangle (cr, 0, 0, view_width, view_height);
          cairo_fill (cr);
        }
      fill_boxes (self, cr, n);
      return;
    }

  if (background != NULL)
    {
      guint32 argb = 0xff000000u | tv_color_pack (*background);

      for (int y = top; y < bottom; y++)
        {
          guint32 *row = (guint32 *) (pixels + (gsize) y * stride);

          for (int x = 0; x < width; x++)
            row[x] = argb;
        }
      /* The rest of the background, above and below the boxes. */
      tv_draw_set_source (cr, *background, 1.0);
      cairo_rectangle (cr, 0, 0, view_width, top);
      cairo_rectangle (cr, 0, bottom, view_width, MAX (view_height - bottom, 0));
      cairo_fill (cr);
    }
  else
    for (int y = top; y < bottom; y++)
      memset (pixels + (gsize) y * stride, 0, (gsize) width * 4);
  for (guint k = 0; k < n; k++)
    {
      const Painted *p = &self->painted[(guint32) self->order[k]];
      int l = (int) CLAMP (p->left, 0, width), r = (int) CLAMP (p->right, 0, width);
      int t = (int) CLAMP (p->top, 0, height), b = (int) CLAMP (p->bottom, 0, height);
      guint32 argb = 0xff000000u | p->rgb;

      for (int y = t; y < b; y++)
        {
          guint32 *row = (guint32 *) (pixels + (gsize) y * stride);

          for (int x = l; x < r; x++)
            row[x] = argb;
        }
    }
  cairo_surface_mark_dirty_rectangle (self->raster, 0, top, width, bottom - top);

  cairo_save (cr);
  cairo_rectangle (cr, 0, top, width, bottom - top);
  cairo_clip (cr);
  cairo_set_source_surface (cr, self->raster, 0, 0);
  cairo_pattern_set_filter (cairo_get_source (cr), CAIRO_FILTER_NEAREST);
  if (background != NULL)
    cairo_set_operator (cr, CAIRO_OPERATOR_SOURCE);
  cairo_paint (cr);
  cairo_restore (cr);
}

void
tv_flame_style_init (TvFlameStyle *style)
{
  g_return_if_fail (style != NULL);

  memset (style, 0, sizeof *style);
  style->scheme = TV_FLAME_COLORS_MODULE;
  style->hovered = TV_NODE_NONE;
  style->hovered_first = 0;
  style->selected = TV_NODE_NONE;
}

TvFlameRenderer *
tv_flame_renderer_new (PangoFontMap *font_map)
{
  TvFlameRenderer *self = g_new0 (TvFlameRenderer, 1);

  tv_draw_text_init (&self->text, font_map);
  self->labels = g_hash_table_new_full (NULL, NULL, NULL,
                                        (GDestroyNotify) tv_draw_label_free);
  return self;
}

void
tv_flame_renderer_free (TvFlameRenderer *self)
{
  if (self == NULL)
    return;
  clear_labels (self);
  tv_flame_renderer_clear_frame_cache (self);
  g_clear_pointer (&self->heat_tree, tv_call_tree_unref);
  g_hash_table_unref (self->labels);
  g_free (self->painted);
  g_free (self->order);
  g_free (self->order_tmp);
  g_clear_pointer (&self->raster, cairo_surface_destroy);
  tv_draw_text_clear (&self->text);
  g_free (self);
}

void
tv_flame_renderer_set_font_options (TvFlameRenderer            *self,
                                    const cairo_font_options_t *options)
{
  g_return_if_fail (self != NULL);

  if (tv_draw_text_set_font_options (&self->text, options))
    clear_labels (self);
}

void
tv_flame_renderer_set_resolution (TvFlameRenderer *self,
                                  double           dpi)
{
  g_return_if_fail (self != NULL);

  if (tv_draw_text_set_resolution (&self->text, dpi))
    clear_labels (self);
}

/* The box's pixels, snapped to whole pixels and cut to the viewport,
 * with a pixel of gap at its right (when wide enough) and bottom so that
 * neighbours stay apart.  FALSE when nothing of it shows. */
static gboolean
box_pixels (TvFlameLayout    *layout,
            const TvFlameBox *box,
            double            view_width,
            double           *left,
            double           *top,
            double           *right,
            double           *bottom)
{
  double x, y, h, l, r;

  tv_flame_layout_get_box_rect (layout, box, &x, &y, NULL, &h);
  l = round (MAX (x, -1.0));
  r = round (MIN (tv_flame_layout_get_x (layout, box->start + box->samples), view_width + 1.0));
  if (r <= l)
    r = l + 1;
  if (r - l > 2)
    r -= 1;
  *left = l;
  *right = r;
  *top = round (y);
  *bottom = round (y + h) - (h >= 4 ? 1 : 0);
  return r > 0 && l < view_width;
}

/* BOX's label in its pixels L, T, R, B, on FILL, if it has one and there
 * is room for about three characters and the ellipsis: one letter and an
 * ellipsis says nothing and clutters the narrow frames. */
static void
draw_box_label (TvFlameRenderer    *self,
                cairo_t            *cr,
                TvFlameLayout      *layout,
                const TvFlameBox   *box,
                const TvFlameStyle *style,
                double              l,
                double              t,
                double              r,
                double              b,
                TvFlameColor        fill,
                double              alpha)
{
  double text_height = self->text.ascent + self->text.descent;
  double min_width = 2 * LABEL_PADDING
                     + (double) tv_draw_label_get_width (tv_draw_text_get_ellipsis (&self->text))
                       / PANGO_SCALE
                     + text_height * 1.6;
  const TvDrawLabel *label;

  if ((box->flags & TV_FLAME_BOX_MERGED) || r - l < min_width
      || text_height > tv_flame_layout_get_viewport (layout)->row_height + 2)
    return;
  label = lookup_label (self, tv_flame_layout_get_tree (layout), box, style);
  if (label != NULL)
    tv_draw_label_show (cr, &self->text, label, l + LABEL_PADDING,
                        t + round ((b - t - text_height) / 2 + self->text.ascent),
                        r - l - 2 * LABEL_PADDING, tv_palette_text_on (fill), alpha);
}

static const TvFlameBox *
find_hovered (TvFlameLayout      *layout,
              const TvFlameStyle *style)
{
  const TvFlameBox *box;

  if (style->hovered == TV_NODE_NONE)
    return NULL;
  if (!style->hovered_merged)
    {
      box = tv_flame_layout_lookup_node (layout, style->hovered);
      return box != NULL && box->node == style->hovered
             && !(box->flags & TV_FLAME_BOX_MERGED) ? box : NULL;
    }
  /* A merged box is found by its first child. */
  {
    TvCallTree *tree = tv_flame_layout_get_tree (layout);
    guint n;
    const guint32 *children;

    if (style->hovered >= tv_call_tree_get_n_nodes (tree))
      return NULL;
    children = tv_call_tree_get_children (tree, style->hovered, &n);
    if (style->hovered_first >= n)
      return NULL;
    box = tv_flame_layout_lookup_node (layout, children[style->hovered_first]);
    return box != NULL && (box->flags & TV_FLAME_BOX_MERGED)
           && box->first == style->hovered_first ? box : NULL;
  }
}

/* The selection's outline goes under the labels, the hover's veil and
 * outline over everything. */
static void
draw_highlights (TvFlameRenderer    *self,
                 cairo_t            *cr,
                 TvFlameLayout      *layout,
                 const TvFlameStyle *style,
                 gboolean            selection,
                 gboolean            hover)
{
  const TvFlameViewport *vp = tv_flame_layout_get_viewport (layout);
  const TvFlameBox *hovered = hover ? find_hovered (layout, style) : NULL;
  double l, t, r, b;

  cairo_save (cr);
  cairo_set_antialias (cr, CAIRO_ANTIALIAS_NONE);
  if (selection && style->selected != TV_NODE_NONE)
    {
      const TvFlameBox *box = tv_flame_layout_lookup_node (layout, style->selected);

      if (box != NULL && box->node == style->selected
          && box_pixels (layout, box, vp->width, &l, &t, &r, &b))
        {
          gboolean dimmed = FALSE;
          TvFlameColor fill = { 0 };

          /* On top of a drawing with labels (hover too: the widget's
           * overlay), the box is drawn again, so that its label can go
           * over the outline as in a whole drawing. */
          if (hover)
            {
              fill = tv_flame_renderer_box_fill (self, tv_flame_layout_get_tree (layout), box,
                                                 style, &dimmed);
              tv_draw_set_source (cr, fill, 1.0);
              cairo_rectangle (cr, l, t, r - l, b - t);
              cairo_fill (cr);
            }
          tv_draw_inner_outline (cr, tv_palette_accent (style->dark), l, t, r - l, b - t);
          if (hover)
            draw_box_label (self, cr, layout, box, style, l, t, r, b, fill, dimmed ? 0.55 : 1.0);
        }
    }
  /* The hovered box is drawn again, lighter, with its label at full
   * strength (a veil over the label would wash it out), and outlined. */
  if (hovered != NULL && box_pixels (layout, hovered, vp->width, &l, &t, &r, &b))
    {
      TvFlameColor fill;
      gboolean dimmed;

      fill = tv_flame_renderer_box_fill (self, tv_flame_layout_get_tree (layout), hovered, style,
                                         &dimmed);
      fill = tv_palette_hover (fill, style->dark);
      tv_draw_set_source (cr, fill, 1.0);
      cairo_rectangle (cr, l, t, r - l, b - t);
      cairo_fill (cr);
      draw_box_label (self, cr, layout, hovered, style, l, t, r, b, fill, 1.0);
      tv_draw_set_source (cr, tv_palette_foreground (style->dark), 0.75);
      cairo_set_line_width (cr, 1.0);
      cairo_rectangle (cr, l + 0.5, t + 0.5, MAX (r - l - 1, 0), MAX (b - t - 1, 0));
      cairo_stroke (cr);
    }
  cairo_restore (cr);
}

static void draw_diff_outlines (TvFlameRenderer    *self,
                                cairo_t            *cr,
                                TvFlameLayout      *layout,
                                const TvFlameStyle *style,
                                guint               n_boxes);

void
tv_flame_renderer_draw (TvFlameRenderer    *self,
                        cairo_t            *cr,
                        TvFlameLayout      *layout,
                        const TvFlameStyle *style)
{
  const TvFlameViewport *vp;
  TvCallTree *tree;
  const TvFlameBox *boxes;
  guint n_boxes, n_painted = 0;
  double view_height;
  TvFlameColor background;

  g_return_if_fail (self != NULL);
  g_return_if_fail (cr != NULL);
  g_return_if_fail (layout != NULL);
  g_return_if_fail (style != NULL);

  vp = tv_flame_layout_get_viewport (layout);
  tree = tv_flame_layout_get_tree (layout);
  boxes = tv_flame_layout_get_boxes (layout, &n_boxes);
  tv_flame_renderer_ensure_frame_cache (self, tv_call_tree_get_data (tree), style);
  ensure_fonts (self, tree, style);

  background = tv_flame_background_color (style->dark);
  view_height = vp->height > 0 ? vp->height
                : tv_flame_layout_get_content_rows (layout) * vp->row_height;

  cairo_save (cr);

  /* Where each box goes and its colour, then the boxes by colour. */
  if (n_boxes > self->capacity)
    {
      self->capacity = MAX (n_boxes, self->capacity * 2);
      self->painted = g_renew (Painted, self->painted, self->capacity);
      self->order = g_renew (guint64, self->order, self->capacity);
      self->order_tmp = g_renew (guint64, self->order_tmp, self->capacity);
    }
  for (guint i = 0; i < n_boxes; i++)
    {
      Painted *p = &self->painted[i];
      double l, t, r, b;
      gboolean dimmed;

      p->visible = box_pixels (layout, &boxes[i], vp->width, &l, &t, &r, &b);
      if (!p->visible)
        continue;
      p->left = l;
      p->top = t;
      p->right = r;
      p->bottom = b;
      p->rgb = tv_color_pack (tv_flame_renderer_box_fill (self, tree, &boxes[i], style, &dimmed));
      p->dimmed = dimmed;
      self->order[n_painted++] = (guint64) p->rgb << 32 | i;
    }
  if (n_painted >= RASTER_MIN_BOXES && can_rasterize (cr))
    paint_raster (self, cr, n_painted, vp->width,
                  style->draw_background ? &background : NULL, view_height);
  else
    {
      if (style->draw_background)
        {
          tv_draw_set_source (cr, background, 1.0);
          cairo_rectangle (cr, 0, 0, vp->width, view_height);
          cairo_fill (cr);
        }
      fill_boxes (self, cr, n_painted);
    }

  if (style->scheme == TV_FLAME_COLORS_DIFF && style->diff_keeps_modules)
    draw_diff_outlines (self, cr, layout, style, n_boxes);
  draw_highlights (self, cr, layout, style, TRUE, FALSE);

  for (guint i = 0; i < n_boxes; i++)
    {
      const Painted *p = &self->painted[i];

      if (p->visible)
        draw_box_label (self, cr, layout, &boxes[i], style, p->left, p->top, p->right,
                        p->bottom, tv_color_unpack (p->rgb), p->dimmed ? 0.55 : 1.0);
    }
  cairo_restore (cr);

  draw_highlights (self, cr, layout, style, FALSE, TRUE);
}

/* Frames in module colours (diff_keeps_modules) show a change beyond
 * noise as an outline in the change's colour. */
static void
draw_diff_outlines (TvFlameRenderer    *self,
                    cairo_t            *cr,
                    TvFlameLayout      *layout,
                    const TvFlameStyle *style,
                    guint               n_boxes)
{
  TvCallTree *tree = tv_flame_layout_get_tree (layout);
  guint n_all;
  const TvFlameBox *boxes = tv_flame_layout_get_boxes (layout, &n_all);

  if (style->diff == NULL || tv_diff_get_tree (style->diff, style->diff_side) != tree)
    return;
  cairo_save (cr);
  cairo_set_antialias (cr, CAIRO_ANTIALIAS_NONE);
  cairo_set_line_width (cr, 2);
  for (guint i = 0; i < n_boxes; i++)
    {
      const Painted *p = &self->painted[i];
      guint32 node = boxes[i].node;

      if (!p->visible || (boxes[i].flags & TV_FLAME_BOX_MERGED) || node == TV_ROOT_NODE
          || p->right - p->left < 4 || tv_flame_renderer_diff_within_noise (style, tree, node))
        continue;
      tv_draw_set_source (cr, tv_flame_renderer_diff_fill (style, tree, node), 1.0);
      cairo_rectangle (cr, p->left + 1, p->top + 1, p->right - p->left - 2,
                       p->bottom - p->top - 2);
      cairo_stroke (cr);
    }
  cairo_restore (cr);
}

void
tv_flame_renderer_draw_highlight (TvFlameRenderer    *self,
                                  cairo_t            *cr,
                                  TvFlameLayout      *layout,
                                  const TvFlameStyle *style)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (cr != NULL);
  g_return_if_fail (layout != NULL);
  g_return_if_fail (style != NULL);

  tv_flame_renderer_ensure_frame_cache (self,
                                        tv_call_tree_get_data (tv_flame_layout_get_tree (layout)),
                                        style);
  ensure_fonts (self, tv_flame_layout_get_tree (layout), style);
  draw_highlights (self, cr, layout, style, TRUE, TRUE);
}
