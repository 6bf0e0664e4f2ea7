/* tv-timeline-axis.c: the timeline's axis, labels, selection and legend
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Everything of the timeline drawn with cairo over the bands' image: the
 * time axis and its grid, the lanes' labels and the interpreters'
 * headers, the selected range or ranges and the pointer's time, and the
 * legend of the states.  The ticks' labels are kept as layouts by their
 * text (TvDrawText).
 */
#include "tv-timeline-private.h"

#include <math.h>
#include <string.h>

/* Pixels at least between two ticks of the axis. */
#define MIN_TICK_SPACING         80.0

/* ------------------------------------------------------------------------ */
/* Axis                                                                      */
/* ------------------------------------------------------------------------ */

/* Groups the digits of the integer part of NUMBER by three, with narrow
 * no-break spaces, from five digits on. */
void
tv_timeline_append_grouped (GString    *out,
                            const char *number)
{
  const char *digits = number[0] == '-' ? number + 1 : number;
  gsize n = strspn (digits, "0123456789");

  if (digits != number)
    g_string_append (out, "\xe2\x88\x92");   /* minus sign */
  for (gsize i = 0; i < n; i++)
    {
      if (n >= 5 && i > 0 && (n - i) % 3 == 0)
        g_string_append (out, "\xe2\x80\xaf");
      g_string_append_c (out, digits[i]);
    }
  g_string_append (out, digits + n);
}

/* The label of a tick at TIME for ticks STEP apart: seconds from steps of
 * 100 ms, milliseconds from steps of 100 µs, microseconds below. */
static char *
tick_label (double time,
            double step)
{
  char buffer[G_ASCII_DTOSTR_BUF_SIZE];
  double divisor;
  const char *unit;
  GString *out = g_string_new (NULL);

  if (step >= 100000)
    divisor = 1e6, unit = "s";
  else if (step >= 100)
    divisor = 1e3, unit = "ms";
  else
    divisor = 1, unit = "\xc2\xb5s";
  /* Steps are 1, 2 or 5 times a power of ten, at least a tenth of the
   * unit: one decimal at most. */
  if (fabs (time) < step / 2)
    g_strlcpy (buffer, "0", sizeof buffer);
  else
    g_ascii_formatd (buffer, sizeof buffer, step / divisor < 0.999 ? "%.1f" : "%.0f",
                     time / divisor);
  tv_timeline_append_grouped (out, buffer);
  g_string_append_printf (out, " %s", unit);
  return g_string_free (out, FALSE);
}

/* Ticks of the axis: a step of 1, 2 or 5 times a power of ten of
 * microseconds, the smallest that keeps the labels apart. */
static guint
compute_ticks (TvTimelineRenderer    *self,
               const TvTimelineStyle *style,
               const Geometry        *g,
               double                *step_out,
               GArray                *times,
               GPtrArray             *labels)
{
  double per_pixel = (style->t1 - style->t0) / g->plot_width;
  double spacing = MIN_TICK_SPACING;
  double step = 1;

  for (guint attempt = 0; attempt < 4; attempt++)
    {
      double widest = 0;
      double first;

      step = tv_draw_nice_step (spacing, per_pixel);
      g_array_set_size (times, 0);
      g_ptr_array_set_size (labels, 0);
      first = ceil (style->t0 / step);
      for (double k = first; k * step < style->t1 && times->len < 1000; k++)
        {
          double t = k * step;
          char *label = tick_label (t, step);

          g_array_append_val (times, t);
          g_ptr_array_add (labels, label);
          widest = MAX (widest, text_width (self, label));
        }
      if (widest + 12 <= step / per_pixel)
        break;
      spacing = widest + 12;
    }
  *step_out = step;
  return times->len;
}

guint
tv_timeline_renderer_get_ticks (TvTimelineRenderer    *self,
                                TvTimeline            *timeline,
                                const TvTimelineStyle *style,
                                double               **times_out,
                                char                ***labels_out)
{
  g_autoptr(GArray) times = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GPtrArray) labels = g_ptr_array_new_with_free_func (g_free);
  Geometry g;
  double step;
  guint n;

  g_return_val_if_fail (self != NULL, 0);
  g_return_val_if_fail (timeline != NULL, 0);
  g_return_val_if_fail (style != NULL, 0);

  if (!style_valid (style))
    n = 0;
  else
    {
      tv_timeline_renderer_compute_geometry (self, timeline, style, &g);
      n = compute_ticks (self, style, &g, &step, times, labels);
    }
  if (times_out != NULL)
    *times_out = (double *) g_array_free (g_steal_pointer (&times), FALSE);
  if (labels_out != NULL)
    {
      g_ptr_array_add (labels, NULL);
      g_ptr_array_set_free_func (labels, NULL);
      *labels_out = (char **) g_ptr_array_free (g_steal_pointer (&labels), FALSE);
    }
  return n;
}

/* ------------------------------------------------------------------------ */
/* Labels, selection, legend                                                 */
/* ------------------------------------------------------------------------ */

/* A header's text: FORMAT must hold one "%u" and no other conversion (it
 * comes from a translation); otherwise the number alone. */
static char *
format_interpreter (const char *format,
                    guint32     interpreter)
{
  const char *conversion = NULL;

  for (const char *p = format; *p != '\0'; p++)
    if (p[0] == '%')
      {
        if (p[1] == '%')
          p++;
        else if (p[1] == 'u' && conversion == NULL)
          conversion = p;
        else
          return g_strdup_printf ("%u", interpreter);
      }
  if (conversion == NULL)
    return g_strdup_printf ("%u", interpreter);
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
  return g_strdup_printf (format, interpreter);
#pragma GCC diagnostic pop
}

void
tv_timeline_renderer_draw_axis (TvTimelineRenderer    *self,
                                cairo_t               *cr,
                                const TvTimelineStyle *style,
                                const Geometry        *g)
{
  g_autoptr(GArray) times = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GPtrArray) labels = g_ptr_array_new_with_free_func (g_free);
  TvTimelineColor fg = tv_palette_foreground (style->dark);
  double step, bottom = g->lanes_y + g->lanes_height;
  guint n = compute_ticks (self, style, g, &step, times, labels);

  cairo_save (cr);
  cairo_set_antialias (cr, CAIRO_ANTIALIAS_NONE);
  cairo_set_line_width (cr, 1.0);

  /* The grid, faint, over the bands. */
  tv_draw_set_source (cr, fg, style->dark ? 0.10 : 0.08);
  for (guint i = 0; i < n; i++)
    {
      double x = floor (time_to_x (style, g, g_array_index (times, double, i))) + 0.5;

      cairo_move_to (cr, x, g->overview_y);
      cairo_line_to (cr, x, bottom);
    }
  cairo_stroke (cr);

  /* The axis line and its ticks. */
  tv_draw_set_source (cr, fg, 0.35);
  cairo_move_to (cr, g->plot_x, g->axis_height - 0.5);
  cairo_line_to (cr, style->width, g->axis_height - 0.5);
  for (guint i = 0; i < n; i++)
    {
      double x = floor (time_to_x (style, g, g_array_index (times, double, i))) + 0.5;

      cairo_move_to (cr, x, g->axis_height - 6);
      cairo_line_to (cr, x, g->axis_height);
    }
  cairo_stroke (cr);
  cairo_restore (cr);

  tv_draw_set_source (cr, fg, 0.75);
  for (guint i = 0; i < n; i++)
    {
      PangoLayout *layout = tv_draw_text_lookup (&self->text, g_ptr_array_index (labels, i), FALSE);
      double x = floor (time_to_x (style, g, g_array_index (times, double, i))) + 3;

      if (x + tv_draw_layout_width (layout) > style->width)
        continue;
      tv_draw_show_layout (cr, layout, x, round ((g->axis_height - 6 - g->text_height) / 2) + 1);
    }
}

void
tv_timeline_renderer_draw_labels (TvTimelineRenderer    *self,
                                  cairo_t               *cr,
                                  TvTimeline            *timeline,
                                  const TvTimelineStyle *style,
                                  const Geometry        *g)
{
  TvTimelineColor fg = tv_palette_foreground (style->dark);
  TvTimelineColor accent = tv_palette_accent (style->dark);
  double available = g->plot_x - 2 * LABEL_PADDING;

  /* The overview's label. */
  if (style->overview_label != NULL && available > 0)
    {
      PangoLayout *layout = text_layout (self, style->overview_label);

      cairo_save (cr);
      cairo_rectangle (cr, 0, g->overview_y, g->plot_x, g->overview_height);
      cairo_clip (cr);
      tv_draw_set_source (cr, fg, 0.7);
      tv_draw_show_layout (cr, layout, LABEL_PADDING,
                           g->overview_y + round ((g->overview_height - g->text_height) / 2));
      cairo_restore (cr);
    }

  /* Separators: below the overview, above the legend. */
  cairo_save (cr);
  cairo_set_antialias (cr, CAIRO_ANTIALIAS_NONE);
  cairo_set_line_width (cr, 1.0);
  tv_draw_set_source (cr, fg, 0.14);
  cairo_move_to (cr, 0, g->lanes_y - OVERVIEW_GAP / 2 - 0.5);
  cairo_line_to (cr, style->width, g->lanes_y - OVERVIEW_GAP / 2 - 0.5);
  cairo_move_to (cr, 0, g->legend_y + 0.5);
  cairo_line_to (cr, style->width, g->legend_y + 0.5);
  cairo_stroke (cr);
  cairo_restore (cr);

  cairo_save (cr);
  cairo_rectangle (cr, 0, g->lanes_y, style->width, g->lanes_height);
  cairo_clip (cr);
  for (guint i = tv_timeline_renderer_first_row_below (self, g->lanes_y - g->rows_y);
       i < self->n_rows && self->rows[i].y + g->rows_y < g->lanes_y + g->lanes_height; i++)
    {
      const Row *row = &self->rows[i];
      double band = row->height - 1;
      double row_y = row->y + g->rows_y;

      if (row->kind == ROW_GROUP)
        {
          g_autofree char *text = format_interpreter (style->interpreter_format,
                                                      row->interpreter);
          PangoLayout *layout = tv_draw_text_lookup (&self->text, text, TRUE);

          tv_draw_set_source (cr, fg, 0.06);
          cairo_rectangle (cr, 0, row_y, style->width, band);
          cairo_fill (cr);
          tv_draw_set_source (cr, fg, 0.8);
          tv_draw_show_layout (cr, layout, LABEL_PADDING,
                               row_y + round ((band - g->text_height) / 2));
          continue;
        }
      if (row->kind == ROW_FOLDED)
        {
          /* No band: the label spans the row. */
          tv_draw_set_source (cr, fg, 0.06);
          cairo_rectangle (cr, 0, row_y, style->width, band);
          cairo_fill (cr);
          if (style->folded_label != NULL)
            {
              PangoLayout *layout = tv_draw_text_lookup (&self->text, style->folded_label, FALSE);

              tv_draw_set_source (cr, fg, 0.7);
              tv_draw_show_layout (cr, layout, LABEL_PADDING,
                                   row_y + round ((band - g->text_height) / 2));
            }
          continue;
        }
      if (row->flags & TV_TIMELINE_LANE_SELECTED)
        {
          tv_draw_set_source (cr, accent, 0.18);
          cairo_rectangle (cr, 0, row_y, g->plot_x, band);
          cairo_fill (cr);
          tv_draw_set_source (cr, accent, 1.0);
          cairo_rectangle (cr, 0, row_y, 3, band);
          cairo_fill (cr);
        }
      if (tv_timeline_row_shows_label (row, g))
        {
          PangoLayout *layout = tv_timeline_renderer_lane_label (self, timeline, row->lane);

          pango_layout_set_width (layout, (int) (available * PANGO_SCALE));
          tv_draw_set_source (cr, fg, 0.8);
          tv_draw_show_layout (cr, layout, LABEL_PADDING,
                               row_y + round ((band - g->text_height) / 2));
        }
    }
  cairo_restore (cr);
}

/* The pixel columns of STYLE's ranges in the window, into self->spans:
 * sorted, merged where they meet, and a pixel wide at least, so that a
 * cell far narrower than a pixel still shows. */
static void
range_spans (TvTimelineRenderer    *self,
             TvTimeline            *timeline,
             const TvTimelineStyle *style,
             const Geometry        *g)
{
  double origin = (double) tv_timeline_get_origin (timeline);
  double right = g->plot_x + g->plot_width;
  guint lo = 0, hi = style->n_ranges;

  g_array_set_size (self->spans, 0);
  /* The first range that ends after the window starts, by bisection. */
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if ((double) style->ranges[mid].end - origin <= style->t0)
        lo = mid + 1;
      else
        hi = mid;
    }
  for (guint i = lo; i < style->n_ranges && (double) style->ranges[i].start - origin < style->t1;
       i++)
    {
      double a = time_to_x (style, g, (double) style->ranges[i].start - origin);
      double b = time_to_x (style, g, (double) style->ranges[i].end - origin);
      Span span = { round (CLAMP (a, g->plot_x, right)), round (CLAMP (b, g->plot_x, right)) };
      Span *last = self->spans->len > 0 ? &g_array_index (self->spans, Span,
                                                          self->spans->len - 1) : NULL;

      if (span.right - span.left < 1)
        {
          span.left = MIN (span.left, right - 1);
          span.right = span.left + 1;
        }
      if (last != NULL && span.left <= last->right)
        last->right = MAX (last->right, span.right);
      else
        g_array_append_val (self->spans, span);
    }
}

/* The ranges tinted over the axis, the overview and the lanes, marked
 * along the axis, and the time between them dimmed as the heatmap dims
 * the cells outside its selection. */
static void
draw_ranges (TvTimelineRenderer    *self,
             cairo_t               *cr,
             TvTimeline            *timeline,
             const TvTimelineStyle *style,
             const Geometry        *g)
{
  double bottom = g->lanes_y + g->lanes_height;
  double done = g->plot_x;

  if (style->ranges == NULL || style->n_ranges == 0)
    return;
  range_spans (self, timeline, style, g);
  for (guint i = 0; i < self->spans->len; i++)
    {
      const Span *span = &g_array_index (self->spans, Span, i);

      if (span->left > done)
        cairo_rectangle (cr, done, g->overview_y, span->left - done, bottom - g->overview_y);
      done = span->right;
    }
  if (done < g->plot_x + g->plot_width)
    cairo_rectangle (cr, done, g->overview_y, g->plot_x + g->plot_width - done,
                     bottom - g->overview_y);
  tv_draw_set_source (cr, tv_timeline_background_color (style->dark), TV_PALETTE_VEIL_ALPHA);
  cairo_fill (cr);

  for (guint i = 0; i < self->spans->len; i++)
    {
      const Span *span = &g_array_index (self->spans, Span, i);

      cairo_rectangle (cr, span->left, 0, span->right - span->left, bottom);
    }
  tv_draw_set_source (cr, tv_palette_accent (style->dark),
                      tv_palette_selection_alpha (style->dark));
  cairo_fill (cr);
  for (guint i = 0; i < self->spans->len; i++)
    {
      const Span *span = &g_array_index (self->spans, Span, i);

      cairo_rectangle (cr, span->left, g->overview_y - 3, span->right - span->left, 3);
    }
  tv_draw_set_source (cr, tv_palette_accent (style->dark), 0.9);
  cairo_fill (cr);
}

void
tv_timeline_renderer_draw_selection (TvTimelineRenderer    *self,
                                     cairo_t               *cr,
                                     TvTimeline            *timeline,
                                     const TvTimelineStyle *style,
                                     const Geometry        *g)
{
  TvTimelineColor accent = tv_palette_accent (style->dark);
  double bottom = g->lanes_y + g->lanes_height;

  cairo_save (cr);
  cairo_rectangle (cr, g->plot_x, 0, g->plot_width, bottom);
  cairo_clip (cr);
  cairo_set_antialias (cr, CAIRO_ANTIALIAS_NONE);
  draw_ranges (self, cr, timeline, style, g);
  if (style->has_selection && isfinite (style->selection_start)
      && isfinite (style->selection_end))
    {
      double a = time_to_x (style, g, MIN (style->selection_start, style->selection_end));
      double b = time_to_x (style, g, MAX (style->selection_start, style->selection_end));
      double l = round (CLAMP (a, g->plot_x - 2, style->width + 2));
      double r = round (CLAMP (b, g->plot_x - 2, style->width + 2));

      if (r - l < 1)
        r = l + 1;
      tv_draw_set_source (cr, accent, tv_palette_selection_alpha (style->dark));
      cairo_rectangle (cr, l, 0, r - l, bottom);
      cairo_fill (cr);
      tv_draw_set_source (cr, accent, 0.9);
      cairo_rectangle (cr, l, 0, 1, bottom);
      cairo_rectangle (cr, r - 1, 0, 1, bottom);
      cairo_fill (cr);
    }
  if (isfinite (style->cursor_time))
    {
      double x = floor (time_to_x (style, g, style->cursor_time));

      tv_draw_set_source (cr, tv_palette_foreground (style->dark), 0.55);
      cairo_rectangle (cr, x, 0, 1, bottom);
      cairo_fill (cr);
    }
  cairo_restore (cr);
}

void
tv_timeline_legend_rect (const Geometry  *g,
                         TvTimelineState  state,
                         double          *x,
                         double          *y,
                         double          *width,
                         double          *height)
{
  *x = g->legend_x[state] - 3;
  *y = g->legend_y + 3;
  *width = g->legend_width[state] + 6;
  *height = MAX (g->legend_height - 6, 1);
}

void
tv_timeline_renderer_draw_legend (TvTimelineRenderer    *self,
                                  cairo_t               *cr,
                                  const TvTimelineStyle *style,
                                  const Geometry        *g)
{
  TvTimelineColor fg = tv_palette_foreground (style->dark);
  double middle = g->legend_y + g->legend_height / 2;

  for (guint s = 0; s < TV_TIMELINE_N_STATES; s++)
    {
      double x = g->legend_x[s], top = round (middle - SWATCH_SIZE / 2);
      const char *text = style->state_labels[s];

      if (style->selected_state == (int) s)
        {
          double rx, ry, rw, rh;

          tv_timeline_legend_rect (g, s, &rx, &ry, &rw, &rh);
          tv_draw_set_source (cr, tv_palette_accent (style->dark), 0.2);
          cairo_rectangle (cr, rx, ry, rw, rh);
          cairo_fill (cr);
          tv_draw_set_source (cr, tv_palette_accent (style->dark), 1.0);
          cairo_set_line_width (cr, 1.0);
          cairo_rectangle (cr, rx + 0.5, ry + 0.5, rw - 1, rh - 1);
          cairo_stroke (cr);
        }
      tv_draw_set_source (cr, tv_timeline_state_color (s, style->dark), 1.0);
      cairo_rectangle (cr, x, top, SWATCH_SIZE, SWATCH_SIZE);
      cairo_fill (cr);
      tv_draw_set_source (cr, fg, 0.3);
      cairo_set_line_width (cr, 1.0);
      cairo_rectangle (cr, x + 0.5, top + 0.5, SWATCH_SIZE - 1, SWATCH_SIZE - 1);
      cairo_stroke (cr);
      if (text != NULL && text[0] != '\0')
        {
          tv_draw_set_source (cr, fg, 0.8);
          tv_draw_show_layout (cr, text_layout (self, text), x + SWATCH_SIZE + 5,
                               round (middle - g->text_height / 2));
        }
    }
}

