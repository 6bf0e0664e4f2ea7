/* tv-timeline-renderer.c: the timeline renderer, its geometry and hit tests
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A 1920x1080 timeline of 64 lanes has some 120,000 column-bands of up to
 * six colours each: as cairo rectangles that is far more than a frame's
 * budget.  So the bands are written pixel by pixel into one image, at the
 * surface's resolution, and painted once with the nearest filter; only the
 * text, the grid, the selection and the legend are cairo drawing.  Lane
 * labels are shaped once per timeline and font; other texts (axis labels,
 * the legend) are kept by their text.
 *
 * This file holds the renderer's life, its lane labels, where everything
 * goes (the rows are laid out only when the lanes change) and what is
 * where for hit tests; the pixels of the bands are in
 * tv-timeline-bands.c, the axis, labels, selection and legend in
 * tv-timeline-axis.c, the heatmap in tv-heatmap-renderer.c.
 */
#include "tv-timeline-renderer.h"

#include <math.h>
#include <string.h>

#include "tv-timeline-private.h"

#define DEFAULT_LANE_HEIGHT      18.0
#define DEFAULT_COLLAPSED_HEIGHT 4.0
#define DEFAULT_OVERVIEW_HEIGHT  40.0
#define MIN_LABEL_WIDTH          56.0
#define MAX_LABEL_WIDTH          220.0

/* ------------------------------------------------------------------------ */
/* Colours and style                                                         */
/* ------------------------------------------------------------------------ */

TvTimelineColor
tv_timeline_background_color (gboolean dark)
{
  return tv_palette_background (dark);
}

TvTimelineColor
tv_timeline_state_color (TvTimelineState state,
                         gboolean        dark)
{
  /* The flame graph's thread-state colours are these too (state_color ()
   * in tv-flame-renderer.c); the test checks that they stay so. */
  static const TvPaletteState states[TV_TIMELINE_N_STATES] = {
    [TV_TIMELINE_STATE_RUNNING] = TV_PALETTE_STATE_RUNNING,
    [TV_TIMELINE_STATE_NATIVE] = TV_PALETTE_STATE_NATIVE,
    [TV_TIMELINE_STATE_WAITING] = TV_PALETTE_STATE_WAITING,
    [TV_TIMELINE_STATE_EXCEPTION] = TV_PALETTE_STATE_EXCEPTION,
    [TV_TIMELINE_STATE_IDLE] = TV_PALETTE_STATE_IDLE,
    [TV_TIMELINE_STATE_UNKNOWN] = TV_PALETTE_STATE_UNKNOWN,
  };

  g_return_val_if_fail (state < TV_TIMELINE_N_STATES, tv_timeline_background_color (dark));
  return tv_palette_state (states[state], dark);
}

void
tv_timeline_style_init (TvTimelineStyle *style,
                        TvTimeline      *timeline,
                        double           width,
                        double           height)
{
  g_return_if_fail (style != NULL);
  g_return_if_fail (timeline != NULL);

  memset (style, 0, sizeof *style);
  style->width = width;
  style->height = height;
  style->t0 = 0;
  style->t1 = MAX (tv_timeline_get_duration (timeline), 1);
  style->cursor_time = NAN;
  style->selected_state = -1;
}

/* ------------------------------------------------------------------------ */
/* Text                                                                      */
/* ------------------------------------------------------------------------ */

static void
clear_lane_labels (TvTimelineRenderer *self)
{
  if (self->lane_labels != NULL)
    {
      guint n = tv_timeline_get_n_lanes (self->label_timeline);

      for (guint i = 0; i < n; i++)
        g_clear_object (&self->lane_labels[i]);
    }
  g_clear_pointer (&self->lane_labels, g_free);
  g_clear_pointer (&self->label_timeline, tv_timeline_unref);
  g_clear_pointer (&self->label_main, g_free);
  self->labels_width = -1;
  self->busy_lanes = G_MAXUINT;
}

/* FONT, or the default for NULL, and its metrics. */
void
tv_timeline_renderer_ensure_font (TvTimelineRenderer         *self,
                                  const PangoFontDescription *font)
{
  if (tv_draw_text_set_font (&self->text, font))
    clear_lane_labels (self);
}

static void
ensure_fonts (TvTimelineRenderer    *self,
              TvTimeline            *timeline,
              const TvTimelineStyle *style)
{
  tv_timeline_renderer_ensure_font (self, style->font);
  if (self->label_timeline != timeline || g_strcmp0 (self->label_main, style->main_label) != 0)
    {
      clear_lane_labels (self);
      self->label_timeline = tv_timeline_ref (timeline);
      self->label_main = g_strdup (style->main_label);
      self->lane_labels = g_new0 (PangoLayout *, MAX (tv_timeline_get_n_lanes (timeline), 1));
    }
}

PangoLayout *
tv_timeline_renderer_lane_label (TvTimelineRenderer *self,
                                 TvTimeline         *timeline,
                                 guint               lane)
{
  if (self->lane_labels[lane] == NULL)
    {
      const TvTimelineLane *info = tv_timeline_get_lane (timeline, lane);
      g_autofree char *text = tv_timeline_dup_lane_label (timeline, lane, self->label_main);
      PangoLayout *layout = tv_draw_text_new_layout (&self->text, text, FALSE);

      if (info->main_thread && self->label_main != NULL && self->label_main[0] != '\0')
        {
          PangoAttrList *attrs = pango_attr_list_new ();

          pango_attr_list_insert (attrs, pango_attr_weight_new (PANGO_WEIGHT_BOLD));
          pango_layout_set_attributes (layout, attrs);
          pango_attr_list_unref (attrs);
        }
      /* Too long (a long translation of "main"): cut at the end. */
      pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_END);
      self->lane_labels[lane] = layout;
    }
  return self->lane_labels[lane];
}

/* ------------------------------------------------------------------------ */
/* Geometry                                                                  */
/* ------------------------------------------------------------------------ */

static double
lane_label_width (TvTimelineRenderer *self,
                  TvTimeline         *timeline,
                  guint               lane)
{
  return tv_draw_layout_width (tv_timeline_renderer_lane_label (self, timeline, lane));
}

static double
labels_width (TvTimelineRenderer    *self,
              TvTimeline            *timeline,
              const TvTimelineStyle *style)
{
  if (style->label_width > 0)
    return style->label_width;
  if (self->labels_width < 0)
    {
      double widest = 0;
      guint last = G_MAXUINT;

      /* The labels are "T" and a place in the display order, but for the
       * main threads': the last place has the most digits, and digits are
       * as wide as each other in nearly every font.  The main threads'
       * labels are measured. */
      for (guint i = 0; i < tv_timeline_get_n_lanes (timeline); i++)
        {
          const TvTimelineLane *info = tv_timeline_get_lane (timeline, i);

          if (info->main_thread)
            widest = MAX (widest, lane_label_width (self, timeline, i));
          else if (last == G_MAXUINT
                   || info->position > tv_timeline_get_lane (timeline, last)->position)
            last = i;
        }
      if (last != G_MAXUINT)
        widest = MAX (widest, lane_label_width (self, timeline, last));
      self->labels_width = widest;
    }
  {
    double widest = self->labels_width;

    if (style->overview_label != NULL)
      widest = MAX (widest, text_width (self, style->overview_label));
    return round (CLAMP (widest + 2 * LABEL_PADDING, MIN_LABEL_WIDTH, MAX_LABEL_WIDTH));
  }
}

static guint8
lane_flags (const TvTimelineStyle *style,
            guint                  lane)
{
  return style->lane_flags != NULL ? style->lane_flags[lane] : 0;
}

static void
add_row (TvTimelineRenderer *self,
         const Row          *row)
{
  if (self->n_rows == self->rows_capacity)
    {
      self->rows_capacity = MAX (64, self->rows_capacity * 2);
      self->rows = g_renew (Row, self->rows, self->rows_capacity);
    }
  self->rows[self->n_rows++] = *row;
}

/* Where everything goes, for STYLE; the rows go to self->rows. */
void
tv_timeline_renderer_compute_geometry (TvTimelineRenderer    *self,
                                       TvTimeline            *timeline,
                                       const TvTimelineStyle *style,
                                       Geometry              *g)
{
  double lane_height = style->lane_height > 0 ? style->lane_height : DEFAULT_LANE_HEIGHT;
  double collapsed_height = style->collapsed_height > 0 ? style->collapsed_height
                                                         : DEFAULT_COLLAPSED_HEIGHT;
  double header_height;
  guint n_order, n_interpreters;
  const guint32 *order = tv_timeline_get_order (timeline, &n_order);
  gboolean headers;
  double y, x;
  gboolean have_group = FALSE;
  guint32 group = 0;

  ensure_fonts (self, timeline, style);
  tv_timeline_get_interpreters (timeline, &n_interpreters);
  headers = n_interpreters > 1 && style->interpreter_format != NULL;

  memset (g, 0, sizeof *g);
  g->text_height = ceil (self->text.ascent + self->text.descent);
  header_height = g->text_height + 6;
  g->plot_x = MIN (labels_width (self, timeline, style), MAX (style->width - 1, 0));
  g->plot_width = MAX (style->width - g->plot_x, 1);
  g->axis_height = g->text_height + 10;
  g->overview_y = g->axis_height;
  g->overview_height = style->overview_height > 0 ? style->overview_height
                                                  : DEFAULT_OVERVIEW_HEIGHT;
  g->lanes_y = g->overview_y + g->overview_height + OVERVIEW_GAP;
  g->legend_height = g->text_height + 12;
  g->legend_y = MAX (style->height - g->legend_height, g->lanes_y);
  g->lanes_height = MAX (g->legend_y - g->lanes_y - 1, 0);

  /* Every lane shows its label. */
  lane_height = MAX (lane_height, g->text_height + 3);
  g->rows_y = g->lanes_y - style->scroll_y;
  if (style->lanes_serial == 0 || style->lanes_serial != self->rows_serial
      || timeline != self->rows_timeline || lane_height != self->rows_heights[0]
      || collapsed_height != self->rows_heights[1] || header_height != self->rows_heights[2]
      || headers != self->rows_headers)
    {
      /* A row per lane that shows: made again only when the lanes change,
       * not at every frame, pointer motion or scroll. */
      self->n_rows = 0;
      self->n_folded = 0;
      y = 0;
      for (guint p = 0; p < n_order; p++)
        {
          guint lane = order[p];
          const TvTimelineLane *info = tv_timeline_get_lane (timeline, lane);
          guint8 flags = lane_flags (style, lane);
          Row row = { 0 };

          if (flags & TV_TIMELINE_LANE_HIDDEN)
            continue;
          if (flags & TV_TIMELINE_LANE_FOLDED)
            {
              self->n_folded++;
              continue;
            }
          if (headers && (!have_group || info->interpreter_id != group))
            {
              row.y = y;
              row.height = header_height;
              row.kind = ROW_GROUP;
              row.lane = G_MAXUINT;
              row.interpreter = info->interpreter_id;
              add_row (self, &row);
              y += header_height;
            }
          have_group = TRUE;
          group = info->interpreter_id;
          row.y = y;
          row.height = (flags & TV_TIMELINE_LANE_COLLAPSED) ? collapsed_height : lane_height;
          row.kind = ROW_LANE;
          row.lane = lane;
          row.interpreter = info->interpreter_id;
          row.flags = flags;
          add_row (self, &row);
          y += row.height;
        }
      if (self->n_folded > 0)
        {
          Row row = { 0 };

          row.y = y;
          row.height = lane_height;
          row.kind = ROW_FOLDED;
          row.lane = G_MAXUINT;
          add_row (self, &row);
          y += row.height;
        }
      if (self->rows_timeline != timeline)
        {
          g_clear_pointer (&self->rows_timeline, tv_timeline_unref);
          self->rows_timeline = tv_timeline_ref (timeline);
        }
      self->rows_serial = style->lanes_serial;
      self->rows_heights[0] = lane_height;
      self->rows_heights[1] = collapsed_height;
      self->rows_heights[2] = header_height;
      self->rows_headers = headers;
      self->rows_height = y;
      self->n_layouts++;
    }
  g->content_height = self->rows_height;

  x = LABEL_PADDING;
  for (guint s = 0; s < TV_TIMELINE_N_STATES; s++)
    {
      const char *text = style->state_labels[s];

      g->legend_x[s] = x;
      g->legend_width[s] = SWATCH_SIZE;
      if (text != NULL && text[0] != '\0')
        g->legend_width[s] += 5 + ceil (text_width (self, text));
      x += g->legend_width[s] + LEGEND_SPACING;
    }
}

/* The first row that ends below Y (in the rows' pixels), by bisection
 * (rows are sorted by y); n_rows when there is none. */
guint
tv_timeline_renderer_first_row_below (TvTimelineRenderer *self,
                                      double              y)
{
  guint lo = 0, hi = self->n_rows;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (self->rows[mid].y + self->rows[mid].height <= y)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

/* The row at Y (in the rows' pixels), by bisection, or NULL. */
static const Row *
find_row (TvTimelineRenderer *self,
          double              y)
{
  guint lo = 0, hi = self->n_rows;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (self->rows[mid].y <= y)
        lo = mid + 1;
      else
        hi = mid;
    }
  if (lo == 0)
    return NULL;
  if (y < self->rows[lo - 1].y + self->rows[lo - 1].height)
    return &self->rows[lo - 1];
  return NULL;
}

/* LANE's row, or NULL when it has none (it is hidden or folded). */
static const Row *
lookup_lane_row (TvTimelineRenderer *self,
                 guint               lane)
{
  for (guint i = 0; i < self->n_rows; i++)
    if (self->rows[i].kind == ROW_LANE && self->rows[i].lane == lane)
      return &self->rows[i];
  return NULL;
}

/* ------------------------------------------------------------------------ */
/* Drawing                                                                  */
/* ------------------------------------------------------------------------ */

void
tv_timeline_renderer_draw (TvTimelineRenderer    *self,
                           cairo_t               *cr,
                           TvTimeline            *timeline,
                           const TvTimelineStyle *style)
{
  Geometry g;

  g_return_if_fail (self != NULL);
  g_return_if_fail (cr != NULL);
  g_return_if_fail (timeline != NULL);
  g_return_if_fail (style != NULL);

  if (!style_valid (style))
    return;
  tv_timeline_renderer_compute_geometry (self, timeline, style, &g);

  cairo_save (cr);
  cairo_rectangle (cr, 0, 0, style->width, style->height);
  cairo_clip (cr);
  /* The background around the bands, whose image covers its own. */
  if (style->draw_background)
    {
      tv_draw_set_source (cr, tv_timeline_background_color (style->dark), 1.0);
      cairo_save (cr);
      cairo_set_fill_rule (cr, CAIRO_FILL_RULE_EVEN_ODD);
      cairo_rectangle (cr, 0, 0, style->width, style->height);
      cairo_rectangle (cr, g.plot_x, g.overview_y, g.plot_width,
                       g.lanes_y + g.lanes_height - g.overview_y);
      cairo_fill (cr);
      cairo_restore (cr);
    }
  if (!tv_timeline_renderer_paint_bands (self, cr, timeline, style, &g) && style->draw_background)
    {
      cairo_rectangle (cr, g.plot_x, g.overview_y, g.plot_width,
                       g.lanes_y + g.lanes_height - g.overview_y);
      cairo_fill (cr);
    }
  tv_timeline_renderer_draw_highlight (self, cr, timeline, style, &g);
  tv_timeline_renderer_draw_axis (self, cr, style, &g);
  tv_timeline_renderer_draw_labels (self, cr, timeline, style, &g);
  tv_timeline_renderer_draw_selection (self, cr, timeline, style, &g);
  tv_timeline_renderer_draw_legend (self, cr, style, &g);
  cairo_restore (cr);
}

/* ------------------------------------------------------------------------ */
/* Geometry and hit testing                                                  */
/* ------------------------------------------------------------------------ */

/* Hands a rectangle out through those of X, Y, WIDTH and HEIGHT that are
 * not NULL. */
static void
set_rect (double *x,
          double *y,
          double *width,
          double *height,
          double  rect_x,
          double  rect_y,
          double  rect_width,
          double  rect_height)
{
  if (x != NULL)
    *x = rect_x;
  if (y != NULL)
    *y = rect_y;
  if (width != NULL)
    *width = rect_width;
  if (height != NULL)
    *height = rect_height;
}

gboolean
tv_timeline_renderer_hit_test (TvTimelineRenderer    *self,
                               TvTimeline            *timeline,
                               const TvTimelineStyle *style,
                               double                 x,
                               double                 y,
                               TvTimelineHit         *hit)
{
  Geometry g;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (timeline != NULL, FALSE);
  g_return_val_if_fail (style != NULL, FALSE);
  g_return_val_if_fail (hit != NULL, FALSE);

  memset (hit, 0, sizeof *hit);
  hit->kind = TV_TIMELINE_HIT_NONE;
  hit->time = NAN;
  if (!style_valid (style) || !(x >= 0 && x < style->width && y >= 0 && y < style->height))
    return FALSE;
  tv_timeline_renderer_compute_geometry (self, timeline, style, &g);

  hit->in_labels = x < g.plot_x;
  if (!hit->in_labels)
    hit->time = x_to_time (style, &g, x);

  if (y < g.axis_height)
    hit->kind = TV_TIMELINE_HIT_AXIS;
  else if (y >= g.overview_y && y < g.overview_y + g.overview_height)
    hit->kind = TV_TIMELINE_HIT_OVERVIEW;
  else if (y >= g.lanes_y && y < g.lanes_y + g.lanes_height)
    {
      const Row *row = find_row (self, y - g.rows_y);

      if (row != NULL)
        {
          hit->kind = row->kind == ROW_GROUP ? TV_TIMELINE_HIT_GROUP
                      : row->kind == ROW_FOLDED ? TV_TIMELINE_HIT_FOLDED
                      : TV_TIMELINE_HIT_LANE;
          hit->lane = row->lane;
          hit->interpreter = row->interpreter;
        }
    }
  else if (y >= g.legend_y)
    {
      hit->time = NAN;
      hit->in_labels = FALSE;
      for (guint s = 0; s < TV_TIMELINE_N_STATES; s++)
        {
          double rx, ry, rw, rh;

          tv_timeline_legend_rect (&g, s, &rx, &ry, &rw, &rh);
          if (x >= rx && x < rx + rw && y >= ry && y < ry + rh)
            {
              hit->kind = TV_TIMELINE_HIT_LEGEND;
              hit->state = s;
            }
        }
    }
  return hit->kind != TV_TIMELINE_HIT_NONE;
}

void
tv_timeline_renderer_get_plot_area (TvTimelineRenderer    *self,
                                    TvTimeline            *timeline,
                                    const TvTimelineStyle *style,
                                    double                *x,
                                    double                *width)
{
  Geometry g;

  g_return_if_fail (self != NULL && timeline != NULL && style != NULL);

  tv_timeline_renderer_compute_geometry (self, timeline, style, &g);
  if (x != NULL)
    *x = g.plot_x;
  if (width != NULL)
    *width = g.plot_width;
}

double
tv_timeline_renderer_time_to_x (TvTimelineRenderer    *self,
                                TvTimeline            *timeline,
                                const TvTimelineStyle *style,
                                double                 time)
{
  Geometry g;

  g_return_val_if_fail (self != NULL && timeline != NULL && style != NULL, 0);

  tv_timeline_renderer_compute_geometry (self, timeline, style, &g);
  return time_to_x (style, &g, time);
}

double
tv_timeline_renderer_x_to_time (TvTimelineRenderer    *self,
                                TvTimeline            *timeline,
                                const TvTimelineStyle *style,
                                double                 x)
{
  Geometry g;

  g_return_val_if_fail (self != NULL && timeline != NULL && style != NULL, 0);

  tv_timeline_renderer_compute_geometry (self, timeline, style, &g);
  return x_to_time (style, &g, x);
}

void
tv_timeline_renderer_get_lanes_area (TvTimelineRenderer    *self,
                                     TvTimeline            *timeline,
                                     const TvTimelineStyle *style,
                                     double                *y,
                                     double                *height,
                                     double                *content_height)
{
  Geometry g;

  g_return_if_fail (self != NULL && timeline != NULL && style != NULL);

  tv_timeline_renderer_compute_geometry (self, timeline, style, &g);
  if (y != NULL)
    *y = g.lanes_y;
  if (height != NULL)
    *height = g.lanes_height;
  if (content_height != NULL)
    *content_height = g.content_height;
}

gboolean
tv_timeline_renderer_get_lane_rect (TvTimelineRenderer    *self,
                                    TvTimeline            *timeline,
                                    const TvTimelineStyle *style,
                                    guint                  lane,
                                    double                *x,
                                    double                *y,
                                    double                *width,
                                    double                *height)
{
  Geometry g;
  const Row *row;

  g_return_val_if_fail (self != NULL && timeline != NULL && style != NULL, FALSE);
  g_return_val_if_fail (lane < tv_timeline_get_n_lanes (timeline), FALSE);

  tv_timeline_renderer_compute_geometry (self, timeline, style, &g);
  row = lookup_lane_row (self, lane);
  if (row == NULL)
    return FALSE;
  set_rect (x, y, width, height, g.plot_x, row->y + g.rows_y, g.plot_width, row->height - 1);
  return TRUE;
}

char *
tv_timeline_renderer_dup_lane_label (TvTimelineRenderer    *self,
                                     TvTimeline            *timeline,
                                     const TvTimelineStyle *style,
                                     guint                  lane)
{
  Geometry g;
  const Row *row;

  g_return_val_if_fail (self != NULL && timeline != NULL && style != NULL, NULL);
  g_return_val_if_fail (lane < tv_timeline_get_n_lanes (timeline), NULL);

  tv_timeline_renderer_compute_geometry (self, timeline, style, &g);
  row = lookup_lane_row (self, lane);
  if (row == NULL || !tv_timeline_row_shows_label (row, &g))
    return NULL;
  return g_strdup (pango_layout_get_text (tv_timeline_renderer_lane_label (self, timeline, lane)));
}

double
tv_timeline_renderer_get_height_for_lanes (TvTimelineRenderer    *self,
                                           TvTimeline            *timeline,
                                           const TvTimelineStyle *style,
                                           guint                  n_rows)
{
  double lane_height = style->lane_height > 0 ? style->lane_height : DEFAULT_LANE_HEIGHT;
  Geometry g;

  g_return_val_if_fail (self != NULL && timeline != NULL && style != NULL, 0);

  tv_timeline_renderer_compute_geometry (self, timeline, style, &g);
  lane_height = MAX (lane_height, g.text_height + 3);
  /* The lanes' area ends a pixel above the legend. */
  return ceil (g.lanes_y + n_rows * lane_height + 1 + g.legend_height);
}

gboolean
tv_timeline_renderer_get_folded_rect (TvTimelineRenderer    *self,
                                      TvTimeline            *timeline,
                                      const TvTimelineStyle *style,
                                      double                *x,
                                      double                *y,
                                      double                *width,
                                      double                *height)
{
  Geometry g;
  const Row *row;

  g_return_val_if_fail (self != NULL && timeline != NULL && style != NULL, FALSE);

  tv_timeline_renderer_compute_geometry (self, timeline, style, &g);
  if (self->n_rows == 0 || self->rows[self->n_rows - 1].kind != ROW_FOLDED)
    return FALSE;
  row = &self->rows[self->n_rows - 1];
  set_rect (x, y, width, height, 0, row->y + g.rows_y, style->width, row->height - 1);
  return TRUE;
}

void
tv_timeline_renderer_get_overview_rect (TvTimelineRenderer    *self,
                                        TvTimeline            *timeline,
                                        const TvTimelineStyle *style,
                                        double                *x,
                                        double                *y,
                                        double                *width,
                                        double                *height)
{
  Geometry g;

  g_return_if_fail (self != NULL && timeline != NULL && style != NULL);

  tv_timeline_renderer_compute_geometry (self, timeline, style, &g);
  set_rect (x, y, width, height, g.plot_x, g.overview_y, g.plot_width, g.overview_height - 1);
}

void
tv_timeline_renderer_get_legend_rect (TvTimelineRenderer    *self,
                                      TvTimeline            *timeline,
                                      const TvTimelineStyle *style,
                                      TvTimelineState        state,
                                      double                *x,
                                      double                *y,
                                      double                *width,
                                      double                *height)
{
  Geometry g;
  double rx, ry, rw, rh;

  g_return_if_fail (self != NULL && timeline != NULL && style != NULL);
  g_return_if_fail (state < TV_TIMELINE_N_STATES);

  tv_timeline_renderer_compute_geometry (self, timeline, style, &g);
  tv_timeline_legend_rect (&g, state, &rx, &ry, &rw, &rh);
  set_rect (x, y, width, height, rx, ry, rw, rh);
}

/* ------------------------------------------------------------------------ */
/* Life                                                                      */
/* ------------------------------------------------------------------------ */

TvTimelineRenderer *
tv_timeline_renderer_new (PangoFontMap *font_map)
{
  TvTimelineRenderer *self = g_new0 (TvTimelineRenderer, 1);

  tv_draw_text_init (&self->text, font_map);
  self->labels_width = -1;
  self->busy_lanes = G_MAXUINT;
  self->spans = g_array_new (FALSE, FALSE, sizeof (Span));
  return self;
}

guint
tv_timeline_renderer_get_n_layouts (TvTimelineRenderer *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->n_layouts;
}

void
tv_timeline_renderer_free (TvTimelineRenderer *self)
{
  if (self == NULL)
    return;
  clear_lane_labels (self);
  g_free (self->rows);
  g_clear_pointer (&self->rows_timeline, tv_timeline_unref);
  g_free (self->columns);
  g_free (self->shown);
  g_free (self->covered);
  g_array_unref (self->spans);
  g_clear_pointer (&self->raster, cairo_surface_destroy);
  g_clear_pointer (&self->cells, cairo_surface_destroy);
  g_clear_pointer (&self->cells_heatmap, tv_timeline_heatmap_unref);
  g_clear_pointer (&self->marks, cairo_surface_destroy);
  g_clear_pointer (&self->marks_heatmap, tv_timeline_heatmap_unref);
  g_clear_pointer (&self->marks_highlight, tv_timeline_highlight_unref);
  tv_draw_text_clear (&self->text);
  g_free (self);
}

void
tv_timeline_renderer_set_font_options (TvTimelineRenderer         *self,
                                       const cairo_font_options_t *options)
{
  g_return_if_fail (self != NULL);

  if (tv_draw_text_set_font_options (&self->text, options))
    clear_lane_labels (self);
}

void
tv_timeline_renderer_set_resolution (TvTimelineRenderer *self,
                                     double              dpi)
{
  g_return_if_fail (self != NULL);

  if (tv_draw_text_set_resolution (&self->text, dpi))
    clear_lane_labels (self);
}
