/* tv-draw.c: fonts, kept layouts and shaped labels for the renderers
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A full redraw of a 1920x1080 flame graph must take a few milliseconds,
 * and a PangoLayout per label costs tens of microseconds.  So a label is
 * itemized and shaped once, into glyph strings that its renderer keeps;
 * eliding is then adding glyph widths until the box is full and drawing
 * that prefix of the glyph strings, followed by a shaped ellipsis.
 * Glyphs are drawn with pango_cairo_show_glyph_string(), so font
 * fallback, hex boxes for missing glyphs and vector output all work as
 * for any Pango text.
 *
 * Right-to-left runs are drawn in the order Pango itemizes them and
 * elided from their visual end; function and file names are nearly
 * always left-to-right, and a label is a hint, the tooltip has the text.
 */
#include "tv-draw.h"

#include <string.h>

#include <pango/pangocairo.h>

#define DEFAULT_FONT      "Sans 9"
/* Layouts kept before the cache starts over. */
#define MAX_KEPT_LAYOUTS  512
/* The opacity of a label's secondary parts against its main text. */
#define SECONDARY_ALPHA   0.68

typedef struct
{
  PangoFont        *font;
  PangoGlyphString *glyphs;
  int               width;         /* Pango units */
  gboolean          secondary;
} LabelRun;

struct _TvDrawLabel
{
  GArray *runs;                    /* LabelRun */
  int     width;                   /* Pango units */
};

/* ------------------------------------------------------------------------ */
/* Fonts                                                                     */
/* ------------------------------------------------------------------------ */

static void
drop_shaped (TvDrawText *self)
{
  g_hash_table_remove_all (self->layouts);
  g_clear_pointer (&self->ellipsis, tv_draw_label_free);
  self->ascent = 0;
}

void
tv_draw_text_init (TvDrawText   *self,
                   PangoFontMap *font_map)
{
  g_return_if_fail (self != NULL);

  memset (self, 0, sizeof *self);
  self->font_map = font_map != NULL ? g_object_ref (font_map)
                                    : g_object_ref (pango_cairo_font_map_get_default ());
  self->context = pango_font_map_create_context (self->font_map);
  pango_context_set_base_dir (self->context, PANGO_DIRECTION_LTR);
  self->font = pango_font_description_from_string (DEFAULT_FONT);
  self->default_font = TRUE;
  self->dpi = 96.0;
  self->font_options = cairo_font_options_create ();
  pango_cairo_context_set_resolution (self->context, self->dpi);
  pango_cairo_context_set_font_options (self->context, self->font_options);
  self->layouts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_object_unref);
}

void
tv_draw_text_clear (TvDrawText *self)
{
  g_return_if_fail (self != NULL);

  if (self->context == NULL)
    return;
  g_clear_pointer (&self->layouts, g_hash_table_unref);
  g_clear_pointer (&self->ellipsis, tv_draw_label_free);
  g_clear_pointer (&self->font, pango_font_description_free);
  g_clear_pointer (&self->font_options, cairo_font_options_destroy);
  g_clear_object (&self->context);
  g_clear_object (&self->font_map);
}

gboolean
tv_draw_text_set_font (TvDrawText                 *self,
                       const PangoFontDescription *font)
{
  gboolean changed = FALSE;

  g_return_val_if_fail (self != NULL, FALSE);

  if (font != NULL ? !pango_font_description_equal (font, self->font) : !self->default_font)
    {
      drop_shaped (self);
      pango_font_description_free (self->font);
      self->default_font = font == NULL;
      self->font = font != NULL ? pango_font_description_copy (font)
                                : pango_font_description_from_string (DEFAULT_FONT);
      changed = TRUE;
    }
  if (g_hash_table_size (self->layouts) > MAX_KEPT_LAYOUTS)
    g_hash_table_remove_all (self->layouts);
  if (self->ascent == 0)
    {
      PangoFontMetrics *metrics;

      /* Labels are itemized in the context's font. */
      pango_context_set_font_description (self->context, self->font);
      metrics = pango_context_get_metrics (self->context, self->font, NULL);
      self->ascent = (double) pango_font_metrics_get_ascent (metrics) / PANGO_SCALE;
      self->descent = (double) pango_font_metrics_get_descent (metrics) / PANGO_SCALE;
      pango_font_metrics_unref (metrics);
    }
  return changed;
}

gboolean
tv_draw_text_set_font_options (TvDrawText                 *self,
                               const cairo_font_options_t *options)
{
  g_return_val_if_fail (self != NULL, FALSE);

  if (options == NULL || cairo_font_options_equal (options, self->font_options))
    return FALSE;
  cairo_font_options_destroy (self->font_options);
  self->font_options = cairo_font_options_copy (options);
  pango_cairo_context_set_font_options (self->context, self->font_options);
  drop_shaped (self);
  return TRUE;
}

gboolean
tv_draw_text_set_resolution (TvDrawText *self,
                             double      dpi)
{
  g_return_val_if_fail (self != NULL, FALSE);

  if (!(dpi > 0) || dpi == self->dpi)
    return FALSE;
  self->dpi = dpi;
  pango_cairo_context_set_resolution (self->context, dpi);
  drop_shaped (self);
  return TRUE;
}

/* ------------------------------------------------------------------------ */
/* Layouts                                                                   */
/* ------------------------------------------------------------------------ */

PangoLayout *
tv_draw_text_new_layout (TvDrawText *self,
                         const char *string,
                         gboolean    bold)
{
  PangoLayout *layout = pango_layout_new (self->context);
  g_autofree char *valid = g_utf8_make_valid (string, -1);

  if (bold)
    {
      g_autoptr(PangoFontDescription) font = pango_font_description_copy (self->font);

      pango_font_description_set_weight (font, PANGO_WEIGHT_BOLD);
      pango_layout_set_font_description (layout, font);
    }
  else
    pango_layout_set_font_description (layout, self->font);
  pango_layout_set_text (layout, valid, -1);
  return layout;
}

PangoLayout *
tv_draw_text_lookup (TvDrawText *self,
                     const char *string,
                     gboolean    bold)
{
  g_autofree char *key = g_strconcat (bold ? "b" : "r", string, NULL);
  PangoLayout *layout = g_hash_table_lookup (self->layouts, key);

  if (layout == NULL)
    {
      layout = tv_draw_text_new_layout (self, string, bold);
      g_hash_table_insert (self->layouts, g_steal_pointer (&key), layout);
    }
  return layout;
}

double
tv_draw_layout_width (PangoLayout *layout)
{
  int w, h;

  pango_layout_get_size (layout, &w, &h);
  return (double) w / PANGO_SCALE;
}

void
tv_draw_show_layout (cairo_t     *cr,
                     PangoLayout *layout,
                     double       x,
                     double       y)
{
  cairo_move_to (cr, x, y);
  pango_cairo_show_layout (cr, layout);
}

void
tv_draw_set_source (cairo_t *cr,
                    TvColor  c,
                    double   alpha)
{
  if (alpha >= 1.0)
    cairo_set_source_rgb (cr, c.red, c.green, c.blue);
  else
    cairo_set_source_rgba (cr, c.red, c.green, c.blue, alpha);
}

void
tv_draw_inner_outline (cairo_t *cr,
                       TvColor  color,
                       double   x,
                       double   y,
                       double   width,
                       double   height)
{
  tv_draw_set_source (cr, color, 1.0);
  cairo_set_line_width (cr, 2.0);
  cairo_rectangle (cr, x + 1, y + 1, MAX (width - 2, 0), MAX (height - 2, 0));
  cairo_stroke (cr);
}

double
tv_draw_nice_step (double min,
                   double per_unit)
{
  static const double multiples[] = { 1, 2, 5 };

  for (double decade = 1; decade < 1e19; decade *= 10)
    for (guint m = 0; m < G_N_ELEMENTS (multiples); m++)
      if (multiples[m] * decade / per_unit >= min)
        return multiples[m] * decade;
  return 1e19;
}

cairo_surface_t *
tv_draw_ensure_image (cairo_surface_t **image,
                      int               width,
                      int               height)
{
  if (*image == NULL || cairo_image_surface_get_width (*image) < width
      || cairo_image_surface_get_height (*image) < height)
    {
      g_clear_pointer (image, cairo_surface_destroy);
      *image = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width, height);
    }
  if (cairo_surface_status (*image) != CAIRO_STATUS_SUCCESS)
    return NULL;
  return *image;
}

/* ------------------------------------------------------------------------ */
/* Labels                                                                    */
/* ------------------------------------------------------------------------ */

TvDrawLabel *
tv_draw_label_new (void)
{
  TvDrawLabel *label = g_new0 (TvDrawLabel, 1);

  label->runs = g_array_new (FALSE, TRUE, sizeof (LabelRun));
  return label;
}

void
tv_draw_label_free (TvDrawLabel *label)
{
  if (label == NULL)
    return;
  for (guint i = 0; i < label->runs->len; i++)
    {
      LabelRun *run = &g_array_index (label->runs, LabelRun, i);

      g_object_unref (run->font);
      pango_glyph_string_free (run->glyphs);
    }
  g_array_unref (label->runs);
  g_free (label);
}

void
tv_draw_label_append (TvDrawLabel *label,
                      TvDrawText  *text,
                      const char  *string,
                      int          len,
                      gboolean     secondary)
{
  GList *items;

  if (len <= 0)
    return;
  items = pango_itemize (text->context, string, 0, len, NULL, NULL);
  for (GList *l = items; l != NULL; l = l->next)
    {
      PangoItem *item = l->data;
      LabelRun run = { 0 };

      if (item->analysis.font == NULL)
        {
          pango_item_free (item);
          continue;
        }
      run.font = g_object_ref (item->analysis.font);
      run.glyphs = pango_glyph_string_new ();
      run.secondary = secondary;
      pango_shape_with_flags (string + item->offset, item->length, string, len,
                              &item->analysis, run.glyphs, PANGO_SHAPE_NONE);
      run.width = pango_glyph_string_get_width (run.glyphs);
      label->width += run.width;
      g_array_append_val (label->runs, run);
      pango_item_free (item);
    }
  g_list_free (items);
}

int
tv_draw_label_get_width (const TvDrawLabel *label)
{
  return label->width;
}

const TvDrawLabel *
tv_draw_text_get_ellipsis (TvDrawText *self)
{
  if (self->ellipsis == NULL)
    {
      self->ellipsis = tv_draw_label_new ();
      tv_draw_label_append (self->ellipsis, self, "\xe2\x80\xa6", 3, FALSE);
    }
  return self->ellipsis;
}

/* Draws GLYPHS' first N glyphs at X, BASELINE; returns their width. */
static int
show_glyphs (cairo_t          *cr,
             PangoFont        *font,
             PangoGlyphString *glyphs,
             int               n,
             double            x,
             double            baseline)
{
  PangoGlyphString part = *glyphs;
  int width = 0;

  part.num_glyphs = n;
  for (int i = 0; i < n; i++)
    width += glyphs->glyphs[i].geometry.width;
  cairo_move_to (cr, x, baseline);
  pango_cairo_show_glyph_string (cr, font, &part);
  return width;
}

/* Where to cut RUNS to fit ROOM Pango units: whole runs before *LAST_RUN,
 * then *LAST_GLYPHS glyphs of it, before the last cluster that starts
 * where the glyphs before it still fit. */
static void
find_cut (const GArray *runs,
          int           room,
          guint        *last_run,
          int          *last_glyphs)
{
  int used = 0;
  guint r;

  *last_glyphs = 0;
  for (r = 0; r < runs->len && used + g_array_index (runs, LabelRun, r).width <= room; r++)
    used += g_array_index (runs, LabelRun, r).width;
  if (r < runs->len)
    {
      const PangoGlyphString *glyphs = g_array_index (runs, LabelRun, r).glyphs;

      for (int i = 0; i < glyphs->num_glyphs; i++)
        {
          if (glyphs->glyphs[i].attr.is_cluster_start)
            *last_glyphs = i;
          if (used + glyphs->glyphs[i].geometry.width > room)
            break;
          used += glyphs->glyphs[i].geometry.width;
        }
    }
  *last_run = r;
}

void
tv_draw_label_show (cairo_t           *cr,
                    TvDrawText        *text,
                    const TvDrawLabel *label,
                    double             x,
                    double             baseline,
                    double             available,
                    TvColor            color,
                    double             alpha)
{
  const TvDrawLabel *ellipsis = tv_draw_text_get_ellipsis (text);
  int limit = (int) (available * PANGO_SCALE);
  gboolean elide = label->width > limit;
  guint last_run = label->runs->len;
  int last_glyphs = 0;
  gboolean secondary = FALSE;

  if (label->runs->len == 0)
    return;

  if (elide)
    {
      find_cut (label->runs, limit - ellipsis->width, &last_run, &last_glyphs);
      if (last_run == 0 && last_glyphs == 0)
        return;
    }

  tv_draw_set_source (cr, color, alpha);
  for (guint r = 0; r <= last_run && r < label->runs->len; r++)
    {
      const LabelRun *run = &g_array_index (label->runs, LabelRun, r);
      int n = r < last_run ? run->glyphs->num_glyphs : last_glyphs;

      if (run->secondary != secondary)
        {
          secondary = run->secondary;
          tv_draw_set_source (cr, color, secondary ? alpha * SECONDARY_ALPHA : alpha);
        }
      if (n > 0)
        x += (double) show_glyphs (cr, run->font, run->glyphs, n, x, baseline) / PANGO_SCALE;
    }
  if (elide && ellipsis->runs->len > 0)
    {
      const LabelRun *dots = &g_array_index (ellipsis->runs, LabelRun, 0);

      show_glyphs (cr, dots->font, dots->glyphs, dots->glyphs->num_glyphs, x, baseline);
    }
}
