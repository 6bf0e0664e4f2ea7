/* tv-heatmap-renderer.c: the sub-second heatmap with cairo
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The heatmap (TvTimelineHeatmap) drawn FlameScope style by the timeline
 * renderer, with its fonts: the cells as one image, a pixel a cell,
 * scaled; the selection dimmed around, a dragged rectangle outlined, the
 * seconds and offsets labelled and the scale's legend on the right.
 */
#include "tv-timeline-private.h"

#include <math.h>
#include <string.h>

#define HEATMAP_PADDING    6.0
#define HEATMAP_BAR_WIDTH  10.0
#define USEC_PER_SECOND    G_GUINT64_CONSTANT (1000000)

typedef struct
{
  double text_height;
  double plot_x;
  double plot_y;
  double plot_width;
  double plot_height;
  double column_width;
  double row_height;
  double legend_x;
} HeatmapGeometry;

void
tv_heatmap_style_init (TvHeatmapStyle *style,
                       double          width,
                       double          height)
{
  g_return_if_fail (style != NULL);

  memset (style, 0, sizeof *style);
  style->width = width;
  style->height = height;
}

TvTimelineColor
tv_timeline_heatmap_color (guint64  count,
                           guint64  max,
                           gboolean dark)
{
  if (count == 0 || max == 0)
    return tv_palette_track (dark);
  return tv_palette_heatmap (MIN ((double) count / (double) max, 1.0), dark);
}

static gboolean
heatmap_style_valid (const TvHeatmapStyle *style)
{
  return style->width >= 1 && style->height >= 1 && isfinite (style->width)
         && isfinite (style->height);
}

static char *
heatmap_count_label (guint64 count)
{
  g_autofree char *number = g_strdup_printf ("%" G_GUINT64_FORMAT, count);
  GString *out = g_string_new (NULL);

  tv_timeline_append_grouped (out, number);
  return g_string_free (out, FALSE);
}

/* Where column C starts: "3 s" with columns of seconds, else with as
 * many decimals as the columns' duration has ("1.25 s"). */
static char *
column_label (guint   column,
              guint64 duration)
{
  guint64 start = column * duration;

  if (duration % USEC_PER_SECOND == 0)
    return g_strdup_printf ("%" G_GUINT64_FORMAT " s", start / USEC_PER_SECOND);
  return g_strdup_printf ("%.*f s", duration % 100000 == 0 ? 1 : duration % 10000 == 0 ? 2 : 3,
                          start / 1e6);
}

/* An offset within a column, in ms (or µs below a millisecond). */
static char *
offset_label (guint64 offset,
              guint64 step)
{
  if (step >= 1000)
    return g_strdup_printf ("%" G_GUINT64_FORMAT " ms", offset / 1000);
  return g_strdup_printf ("%" G_GUINT64_FORMAT " \xc2\xb5s", offset);
}

static void
heatmap_geometry (TvTimelineRenderer   *self,
                  TvTimelineHeatmap    *heatmap,
                  const TvHeatmapStyle *style,
                  HeatmapGeometry      *g)
{
  guint n_columns = tv_timeline_heatmap_get_n_columns (heatmap);
  guint n_rows = tv_timeline_heatmap_get_n_rows (heatmap);
  g_autofree char *longest = offset_label (tv_timeline_heatmap_get_column_duration (heatmap) - 1,
                                           tv_timeline_heatmap_get_row_duration (heatmap));
  g_autofree char *max = heatmap_count_label (tv_timeline_heatmap_get_max_count (heatmap));
  double label_width, legend_width;

  tv_timeline_renderer_ensure_font (self, style->font);
  g->text_height = ceil (self->text.ascent + self->text.descent);
  label_width = ceil (text_width (self, longest));
  legend_width = HEATMAP_BAR_WIDTH + 4 + ceil (text_width (self, max));
  if (style->legend_label != NULL)
    legend_width = MAX (legend_width,
                        ceil (text_width (self, style->legend_label)));

  g->plot_x = label_width + 2 * HEATMAP_PADDING;
  g->plot_y = ceil (g->text_height / 2) + 2;
  g->plot_width = MAX (style->width - g->plot_x - legend_width - 3 * HEATMAP_PADDING, 1);
  g->plot_height = MAX (style->height - g->plot_y - g->text_height - 6, 1);
  g->legend_x = g->plot_x + g->plot_width + 2 * HEATMAP_PADDING;
  g->column_width = g->plot_width / MAX (n_columns, 1);
  g->row_height = g->plot_height / MAX (n_rows, 1);
}

/* The y of an offset within a column: rows are drawn alike, the last one
 * too, however much shorter it is. */
static double
offset_to_y (TvTimelineHeatmap     *heatmap,
             const HeatmapGeometry *g,
             guint64                offset)
{
  guint64 duration = tv_timeline_heatmap_get_row_duration (heatmap);
  guint n_rows = tv_timeline_heatmap_get_n_rows (heatmap);
  guint64 row = offset / duration;
  guint64 row_end;

  if (row >= n_rows)
    return g->plot_y + g->plot_height;
  row_end = MIN ((row + 1) * duration, tv_timeline_heatmap_get_column_duration (heatmap));
  return g->plot_y + (row + (double) (offset - row * duration) / (row_end - row * duration))
                     * g->row_height;
}

/* *IMAGE made anew, N_COLUMNS x N_ROWS pixels of FORMAT (a pixel a cell),
 * flushed for writing; FALSE, and *IMAGE NULL, when cairo cannot make it. */
static gboolean
remake_cell_image (cairo_surface_t **image,
                   cairo_format_t    format,
                   guint             n_columns,
                   guint             n_rows)
{
  g_clear_pointer (image, cairo_surface_destroy);
  *image = cairo_image_surface_create (format, n_columns, n_rows);
  if (cairo_surface_status (*image) != CAIRO_STATUS_SUCCESS)
    {
      g_clear_pointer (image, cairo_surface_destroy);
      return FALSE;
    }
  cairo_surface_flush (*image);
  return TRUE;
}

static cairo_surface_t *
ensure_cells (TvTimelineRenderer *self,
              TvTimelineHeatmap  *heatmap,
              gboolean            dark)
{
  guint n_columns = tv_timeline_heatmap_get_n_columns (heatmap);
  guint n_rows = tv_timeline_heatmap_get_n_rows (heatmap);
  guint64 max = tv_timeline_heatmap_get_max_count (heatmap);
  guint8 *pixels;
  int stride;

  if (self->cells != NULL && self->cells_heatmap == heatmap && self->cells_dark == dark)
    return self->cells;
  g_clear_pointer (&self->cells_heatmap, tv_timeline_heatmap_unref);
  /* Each cell once: the heatmap has at most 2^24. */
  if (!remake_cell_image (&self->cells, CAIRO_FORMAT_RGB24, n_columns, n_rows))
    return NULL;
  pixels = cairo_image_surface_get_data (self->cells);
  stride = cairo_image_surface_get_stride (self->cells);
  for (guint r = 0; r < n_rows; r++)
    {
      guint32 *line = (guint32 *) (gpointer) (pixels + (gsize) r * stride);

      for (guint c = 0; c < n_columns; c++)
        line[c] = pack_color (tv_timeline_heatmap_color (
                                tv_timeline_heatmap_get_count (heatmap, c, r), max, dark));
    }
  cairo_surface_mark_dirty (self->cells);
  self->cells_heatmap = tv_timeline_heatmap_ref (heatmap);
  self->cells_dark = dark;
  return self->cells;
}

/* SURFACE, a pixel a cell, scaled over the plot of G: sharp cells when
 * they are wider than a pixel, averaged when not. */
static void
paint_cell_surface (cairo_t               *cr,
                    cairo_surface_t       *surface,
                    const HeatmapGeometry *g)
{
  double sx, sy;

  tv_timeline_device_scale (cr, &sx, &sy);
  cairo_save (cr);
  cairo_rectangle (cr, g->plot_x, g->plot_y, g->plot_width, g->plot_height);
  cairo_clip (cr);
  cairo_translate (cr, g->plot_x, g->plot_y);
  cairo_scale (cr, g->column_width, g->row_height);
  cairo_set_source_surface (cr, surface, 0, 0);
  cairo_pattern_set_filter (cairo_get_source (cr),
                            g->column_width * sx >= 1 && g->row_height * sy >= 1
                            ? CAIRO_FILTER_NEAREST : CAIRO_FILTER_GOOD);
  cairo_paint (cr);
  cairo_restore (cr);
}

static void
paint_cells (TvTimelineRenderer    *self,
             cairo_t               *cr,
             TvTimelineHeatmap     *heatmap,
             const TvHeatmapStyle  *style,
             const HeatmapGeometry *g)
{
  cairo_surface_t *cells = ensure_cells (self, heatmap, style->dark);

  if (cells == NULL)
    return;
  paint_cell_surface (cr, cells, g);
}

/* The highlight's share of each cell: the accent over the background,
 * the stronger the more of the cell's samples it holds, or the
 * background's veil over a cell with samples but none highlighted.
 * Premultiplied, a pixel a cell. */
static cairo_surface_t *
ensure_marks (TvTimelineRenderer  *self,
              TvTimelineHeatmap   *heatmap,
              TvTimelineHighlight *highlight,
              gboolean             dark)
{
  guint n_columns = tv_timeline_heatmap_get_n_columns (heatmap);
  guint n_rows = tv_timeline_heatmap_get_n_rows (heatmap);
  TvTimelineColor accent = tv_palette_accent (dark);
  TvTimelineColor veil = tv_timeline_background_color (dark);
  g_autofree guint64 *edges = NULL;
  g_autofree guint64 *marks = NULL;
  guint8 *pixels;
  int stride;

  if (self->marks != NULL && self->marks_heatmap == heatmap && self->marks_highlight == highlight
      && self->marks_dark == dark)
    return self->marks;
  g_clear_pointer (&self->marks_heatmap, tv_timeline_heatmap_unref);
  g_clear_pointer (&self->marks_highlight, tv_timeline_highlight_unref);
  if (!remake_cell_image (&self->marks, CAIRO_FORMAT_ARGB32, n_columns, n_rows))
    return NULL;
  pixels = cairo_image_surface_get_data (self->marks);
  stride = cairo_image_surface_get_stride (self->marks);
  edges = g_new (guint64, n_rows + 1);
  marks = g_new (guint64, n_rows);
  /* A column's cells follow each other in time: counted in one pass. */
  for (guint c = 0; c < n_columns; c++)
    {
      for (guint r = 0; r < n_rows; r++)
        tv_timeline_heatmap_get_cell_range (heatmap, c, r, &edges[r], &edges[r + 1]);
      tv_timeline_highlight_count_edges (highlight, TV_TIMELINE_ALL, edges, n_rows, marks);
      for (guint r = 0; r < n_rows; r++)
        {
          guint32 *line = (guint32 *) (gpointer) (pixels + (gsize) r * stride);
          guint64 count = tv_timeline_heatmap_get_count (heatmap, c, r);
          guint64 marked = marks[r];
          TvTimelineColor color = veil;
          double alpha = 0;

          if (count > 0)
            {
              if (marked > 0)
                {
                  /* Opaque: the accent's strength is the share alone. */
                  color = tv_color_mix (veil, accent,
                                        0.35 + 0.65 * MIN ((double) marked / count, 1.0));
                  alpha = 1.0;
                }
              else
                alpha = TV_PALETTE_VEIL_ALPHA;
            }
          line[c] = ((guint32) round (alpha * 255) << 24)
                    | ((guint32) round (color.red * alpha * 255) << 16)
                    | ((guint32) round (color.green * alpha * 255) << 8)
                    | (guint32) round (color.blue * alpha * 255);
        }
    }
  cairo_surface_mark_dirty (self->marks);
  self->marks_heatmap = tv_timeline_heatmap_ref (heatmap);
  self->marks_highlight = tv_timeline_highlight_ref (highlight);
  self->marks_dark = dark;
  return self->marks;
}

static void
paint_marks (TvTimelineRenderer    *self,
             cairo_t               *cr,
             TvTimelineHeatmap     *heatmap,
             const TvHeatmapStyle  *style,
             const HeatmapGeometry *g)
{
  cairo_surface_t *marks;

  if (style->highlight == NULL
      || tv_timeline_highlight_get_timeline (style->highlight)
         != tv_timeline_heatmap_get_timeline (heatmap))
    return;
  marks = ensure_marks (self, heatmap, style->highlight, style->dark);
  if (marks == NULL)
    return;
  paint_cell_surface (cr, marks, g);
}

/* Adds the part of RANGE that the cells show, a rectangle per column. */
static void
add_range_path (cairo_t               *cr,
                TvTimelineHeatmap     *heatmap,
                const HeatmapGeometry *g,
                guint64                origin,
                TvTimeRange            range)
{
  guint n_columns = tv_timeline_heatmap_get_n_columns (heatmap);
  guint64 second = tv_timeline_heatmap_get_column_duration (heatmap);
  guint64 start, end;

  if (range.end <= origin || range.start >= range.end)
    return;
  start = MAX (range.start, origin) - origin;
  end = range.end - origin;
  for (guint64 c = start / second; c < n_columns && c * second < end; c++)
    {
      guint64 a = MAX (start, c * second) - c * second;
      guint64 b = MIN (end, (c + 1) * second) - c * second;
      double top = offset_to_y (heatmap, g, a), bottom = offset_to_y (heatmap, g, b);

      cairo_rectangle (cr, g->plot_x + c * g->column_width, top, g->column_width, bottom - top);
    }
}

static void
draw_heatmap_selection (cairo_t               *cr,
                        TvTimelineHeatmap     *heatmap,
                        const TvHeatmapStyle  *style,
                        const HeatmapGeometry *g)
{
  guint64 origin = tv_timeline_get_origin (tv_timeline_heatmap_get_timeline (heatmap));

  if (style->n_selection > 0 && style->selection != NULL)
    {
      /* The plot less the selection (the ranges are disjoint), dimmed. */
      cairo_save (cr);
      cairo_set_fill_rule (cr, CAIRO_FILL_RULE_EVEN_ODD);
      cairo_rectangle (cr, g->plot_x, g->plot_y, g->plot_width, g->plot_height);
      for (guint i = 0; i < style->n_selection; i++)
        add_range_path (cr, heatmap, g, origin, style->selection[i]);
      tv_draw_set_source (cr, tv_timeline_background_color (style->dark), TV_PALETTE_VEIL_ALPHA);
      cairo_fill (cr);
      cairo_restore (cr);
    }
  if (style->has_drag)
    {
      guint n_columns = tv_timeline_heatmap_get_n_columns (heatmap);
      guint n_rows = tv_timeline_heatmap_get_n_rows (heatmap);
      guint c0 = MIN (MIN (style->drag_column0, style->drag_column1), n_columns - 1);
      guint c1 = MIN (MAX (style->drag_column0, style->drag_column1), n_columns - 1);
      guint r0 = MIN (MIN (style->drag_row0, style->drag_row1), n_rows - 1);
      guint r1 = MIN (MAX (style->drag_row0, style->drag_row1), n_rows - 1);
      double x = round (g->plot_x + c0 * g->column_width);
      double y = round (g->plot_y + r0 * g->row_height);
      double w = round (g->plot_x + (c1 + 1) * g->column_width) - x;
      double h = round (g->plot_y + (r1 + 1) * g->row_height) - y;

      tv_draw_set_source (cr, tv_palette_accent (style->dark), 0.2);
      cairo_rectangle (cr, x, y, w, h);
      cairo_fill (cr);
      tv_draw_inner_outline (cr, tv_palette_accent (style->dark), x, y, w, h);
    }
}

/* The smallest of 1, 2, 5, 10, 20, 50, ... at least MIN, 1e9 at most. */
static guint
nice_step (double min)
{
  return (guint) MIN (tv_draw_nice_step (min, 1), 1e9);
}

static void
draw_heatmap_axes (TvTimelineRenderer    *self,
                   cairo_t               *cr,
                   TvTimelineHeatmap     *heatmap,
                   const TvHeatmapStyle  *style,
                   const HeatmapGeometry *g)
{
  TvTimelineColor fg = tv_palette_foreground (style->dark);
  guint n_columns = tv_timeline_heatmap_get_n_columns (heatmap);
  guint n_rows = tv_timeline_heatmap_get_n_rows (heatmap);
  guint64 duration = tv_timeline_heatmap_get_row_duration (heatmap);
  guint64 column_duration = tv_timeline_heatmap_get_column_duration (heatmap);
  g_autofree char *widest = column_label (n_columns, column_duration);
  guint column_step = nice_step ((text_width (self, widest) + 12) / g->column_width);
  guint row_step = nice_step ((g->text_height + 2) / g->row_height);
  double bottom = g->plot_y + g->plot_height;

  cairo_save (cr);
  cairo_set_line_width (cr, 1.0);
  /* Where the columns start, below, at their left edge. */
  for (guint c = 0; c < n_columns; c += column_step)
    {
      g_autofree char *text = column_label (c, column_duration);
      double x = round (g->plot_x + c * g->column_width);

      tv_draw_set_source (cr, fg, 0.3);
      cairo_move_to (cr, x + 0.5, bottom);
      cairo_line_to (cr, x + 0.5, bottom + 4);
      cairo_stroke (cr);
      tv_draw_set_source (cr, fg, 0.7);
      tv_draw_show_layout (cr, text_layout (self, text), x + 3, bottom + 2);
    }
  /* Offsets within the column, on the left, centred on their row's top. */
  for (guint r = 0; r < n_rows; r += row_step)
    {
      g_autofree char *text = offset_label (r * duration, duration * row_step);
      PangoLayout *layout = text_layout (self, text);
      double y = round (g->plot_y + r * g->row_height);

      tv_draw_set_source (cr, fg, 0.3);
      cairo_move_to (cr, g->plot_x - 4, y + 0.5);
      cairo_line_to (cr, g->plot_x, y + 0.5);
      cairo_stroke (cr);
      tv_draw_set_source (cr, fg, 0.7);
      tv_draw_show_layout (cr, layout, g->plot_x - 6 - tv_draw_layout_width (layout),
                           y - round (g->text_height / 2));
    }
  cairo_restore (cr);
}

static void
draw_heatmap_legend (TvTimelineRenderer    *self,
                     cairo_t               *cr,
                     TvTimelineHeatmap     *heatmap,
                     const TvHeatmapStyle  *style,
                     const HeatmapGeometry *g)
{
  TvTimelineColor fg = tv_palette_foreground (style->dark);
  guint64 max = tv_timeline_heatmap_get_max_count (heatmap);
  g_autofree char *max_text = heatmap_count_label (max);
  double x = g->legend_x, top = g->plot_y;
  double height = g->plot_height - (style->legend_label != NULL ? g->text_height + 4 : 0);
  cairo_pattern_t *gradient;

  if (height < 2 * g->text_height)
    return;
  /* The scale from the top (the fullest cell) down to one sample. */
  gradient = cairo_pattern_create_linear (0, top, 0, top + height);
  for (guint i = 0; i <= 8; i++)
    {
      TvTimelineColor c = tv_timeline_heatmap_color (MAX (max * (8 - i) / 8, 1), MAX (max, 1),
                                                     style->dark);

      cairo_pattern_add_color_stop_rgb (gradient, i / 8.0, c.red, c.green, c.blue);
    }
  cairo_set_source (cr, gradient);
  cairo_pattern_destroy (gradient);
  cairo_rectangle (cr, x, top, HEATMAP_BAR_WIDTH, height);
  cairo_fill (cr);
  tv_draw_set_source (cr, fg, 0.3);
  cairo_set_line_width (cr, 1.0);
  cairo_rectangle (cr, x + 0.5, top + 0.5, HEATMAP_BAR_WIDTH - 1, height - 1);
  cairo_stroke (cr);

  tv_draw_set_source (cr, fg, 0.7);
  tv_draw_show_layout (cr, text_layout (self, max_text), x + HEATMAP_BAR_WIDTH + 4, top);
  tv_draw_show_layout (cr, text_layout (self, max > 0 ? "1" : "0"), x + HEATMAP_BAR_WIDTH + 4,
                       top + height - g->text_height);
  if (style->legend_label != NULL)
    tv_draw_show_layout (cr, text_layout (self, style->legend_label), x,
                         top + height + 4);
}

void
tv_timeline_renderer_draw_heatmap (TvTimelineRenderer   *self,
                                   cairo_t              *cr,
                                   TvTimelineHeatmap    *heatmap,
                                   const TvHeatmapStyle *style)
{
  HeatmapGeometry g;

  g_return_if_fail (self != NULL);
  g_return_if_fail (cr != NULL);
  g_return_if_fail (heatmap != NULL);
  g_return_if_fail (style != NULL);

  if (!heatmap_style_valid (style))
    return;
  heatmap_geometry (self, heatmap, style, &g);
  cairo_save (cr);
  cairo_rectangle (cr, 0, 0, style->width, style->height);
  cairo_clip (cr);
  if (style->draw_background)
    {
      tv_draw_set_source (cr, tv_timeline_background_color (style->dark), 1.0);
      cairo_paint (cr);
    }
  if (tv_timeline_heatmap_get_n_columns (heatmap) > 0)
    {
      paint_cells (self, cr, heatmap, style, &g);
      paint_marks (self, cr, heatmap, style, &g);
      draw_heatmap_selection (cr, heatmap, style, &g);
      draw_heatmap_axes (self, cr, heatmap, style, &g);
      draw_heatmap_legend (self, cr, heatmap, style, &g);
    }
  cairo_restore (cr);
}

gboolean
tv_timeline_renderer_heatmap_hit_test (TvTimelineRenderer   *self,
                                       TvTimelineHeatmap    *heatmap,
                                       const TvHeatmapStyle *style,
                                       double                x,
                                       double                y,
                                       gboolean              clamp,
                                       guint                *column,
                                       guint                *row)
{
  guint n_columns, n_rows;
  HeatmapGeometry g;
  double c, r;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (heatmap != NULL, FALSE);
  g_return_val_if_fail (style != NULL, FALSE);

  n_columns = tv_timeline_heatmap_get_n_columns (heatmap);
  n_rows = tv_timeline_heatmap_get_n_rows (heatmap);
  if (!heatmap_style_valid (style) || n_columns == 0 || isnan (x) || isnan (y))
    return FALSE;
  heatmap_geometry (self, heatmap, style, &g);
  c = floor ((x - g.plot_x) / g.column_width);
  r = floor ((y - g.plot_y) / g.row_height);
  if (!clamp && (c < 0 || c >= n_columns || r < 0 || r >= n_rows))
    return FALSE;
  if (column != NULL)
    *column = (guint) CLAMP (c, 0, n_columns - 1);
  if (row != NULL)
    *row = (guint) CLAMP (r, 0, n_rows - 1);
  return TRUE;
}

gboolean
tv_timeline_renderer_get_heatmap_cell (TvTimelineRenderer   *self,
                                       TvTimelineHeatmap    *heatmap,
                                       const TvHeatmapStyle *style,
                                       guint                 column,
                                       guint                 row,
                                       double               *x,
                                       double               *y,
                                       double               *width,
                                       double               *height)
{
  HeatmapGeometry g;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (heatmap != NULL, FALSE);
  g_return_val_if_fail (style != NULL, FALSE);

  if (!heatmap_style_valid (style) || column >= tv_timeline_heatmap_get_n_columns (heatmap)
      || row >= tv_timeline_heatmap_get_n_rows (heatmap))
    return FALSE;
  heatmap_geometry (self, heatmap, style, &g);
  *x = g.plot_x + column * g.column_width;
  *y = g.plot_y + row * g.row_height;
  *width = g.column_width;
  *height = g.row_height;
  return TRUE;
}

