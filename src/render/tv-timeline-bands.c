/* tv-timeline-bands.c: the lanes' and the overview's pixels
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Nothing is drawn per sample, nor per column with cairo: each band is
 * filled pixel by pixel, from tv_timeline_get_bins() columns, into one
 * image of the overview and the lanes at the surface's resolution, which
 * is painted once with the nearest filter.  A column without samples
 * holds the state of the last sample before it for a few sampling
 * intervals, so that a deep zoom shows states, not needles.
 */
#include "tv-timeline-private.h"

#include <math.h>
#include <string.h>

/* The exception strip along a lane's top, in pixels. */
#define EXCEPTION_STRIP          3
/* How high idle (and unknown) samples stand, against busy ones: a lane's
 * idle stretches are a low floor, its busy ones stand out. */
#define IDLE_WEIGHT              0.4
/* A sample's state holds for this many sampling intervals at most when
 * no sample follows: a sampler that misses a tick or two (CPython's
 * often does) leaves no holes. */
#define HOLD_INTERVALS           4.0

/* ------------------------------------------------------------------------ */
/* Bands                                                                     */
/* ------------------------------------------------------------------------ */

/* The states a band stacks, from the bottom, and what is shown for them. */
enum
{
  STACK_RUNNING,
  STACK_NATIVE,
  STACK_WAITING,
  STACK_UNKNOWN,
  STACK_IDLE,
  N_STACK
};

static const TvTimelineState stack_states[N_STACK] = {
  TV_TIMELINE_STATE_RUNNING,
  TV_TIMELINE_STATE_NATIVE,
  TV_TIMELINE_STATE_WAITING,
  TV_TIMELINE_STATE_UNKNOWN,
  TV_TIMELINE_STATE_IDLE,
};

/* The image the bands are painted into, and how the window maps onto
 * its columns. */
typedef struct
{
  guint32 *pixels;
  int      stride;          /* in pixels */
  int      width;
  int      height;
  int      clip_top;
  int      clip_bottom;
  double   scale_x;         /* image pixels per viewport pixel */
  double   scale_y;
  double   top;             /* the viewport's y of the image's top */
  double   column_us;       /* microseconds a column */
  double   expected;        /* samples of one thread in a column */
  double   hold;            /* columns a sample's state holds for */
  guint32  stack[N_STACK];
  guint32  track;
  TvTimelineColor track_color;
  TvTimelineColor exception_color;
  TvTimelineColor stack_colors[N_STACK];
} Raster;

/* The stacked states of a column, as tv_timeline_column_get_state ()
 * counts them. */
static inline void
column_stack (const TvTimelineColumn *c,
              guint64                *s)
{
  guint64 idle = c->counts[TV_TIMELINE_COUNT_IDLE];
  guint64 unknown = MIN (c->counts[TV_TIMELINE_COUNT_UNKNOWN], idle);

  s[STACK_RUNNING] = c->counts[TV_TIMELINE_COUNT_HAS_GIL];
  s[STACK_NATIVE] = c->counts[TV_TIMELINE_COUNT_NATIVE];
  s[STACK_WAITING] = c->samples - s[STACK_RUNNING] - s[STACK_NATIVE] - idle;
  s[STACK_UNKNOWN] = unknown;
  s[STACK_IDLE] = idle - unknown;
}

static inline void
fill_column (const Raster *r,
             int           x,
             int           top,
             int           bottom,
             guint32       argb)
{
  guint32 *p;

  top = MAX (top, r->clip_top);
  bottom = MIN (bottom, r->clip_bottom);
  p = r->pixels + (gsize) MAX (top, 0) * r->stride + x;
  for (int y = top; y < bottom; y++, p += r->stride)
    *p = argb;
}

/* Which column each pixel column shows: its own, or when it has no
 * samples, the last one with samples if that is less than one sampling
 * interval (HOLD columns) before it; before the first, BEFORE (the
 * samples before the window) for its first BEFORE_COLUMNS columns. */
static void
hold_columns (const TvTimelineColumn  *columns,
              const TvTimelineColumn **shown,
              guint                    n,
              double                   hold,
              const TvTimelineColumn  *before,
              double                   before_columns)
{
  int last = -1;

  for (guint x = 0; x < n; x++)
    {
      if (columns[x].samples > 0)
        {
          shown[x] = &columns[x];
          last = x;
        }
      else if (last >= 0 && (double) (x - last) < hold)
        shown[x] = &columns[last];
      else if (last < 0 && before != NULL && (double) x < before_columns)
        shown[x] = before;
      else
        shown[x] = NULL;
    }
}

/* The samples a lane (or the overview) shows at the left edge of a window
 * it is zoomed into: those of the lane's last timestamp before the window
 * (of the overview's last interval), and for how many columns they hold.
 * FALSE when nothing holds. */
static gboolean
held_before (TvTimeline            *timeline,
             guint                  lane,
             const TvTimelineStyle *style,
             double                 column_us,
             TvTimelineColumn      *held,
             double                *n_columns)
{
  double interval = HOLD_INTERVALS * tv_timeline_get_interval (timeline);
  guint64 start = tv_timeline_time_to_timestamp (timeline, style->t0);
  guint64 previous, from;

  if (interval <= column_us || !tv_timeline_find_previous (timeline, lane, start, &previous)
      || (double) (start - previous) >= interval)
    return FALSE;
  from = lane == TV_TIMELINE_ALL ? start - MIN ((guint64) interval, start) : previous;
  if (tv_timeline_count_range (timeline, lane, from, start, held) == 0)
    return FALSE;
  *n_columns = ((double) (previous - tv_timeline_get_origin (timeline)) + interval - style->t0)
               / column_us;
  return TRUE;
}

/* How full a lane's column is: its samples against what one thread gives
 * in a column (EXPECTED), counting whole samples only, so that the jitter
 * of the sampling clock does not make a busy lane ragged. */
static inline double
column_density (const TvTimelineColumn *c,
                double                  expected)
{
  if (expected < 1)
    return 1;
  return MIN (1.0, (double) c->samples / floor (expected));
}

static void
paint_exception (const Raster           *r,
                 int                     x,
                 int                     top,
                 int                     bottom,
                 const TvTimelineColumn *c)
{
  double share;
  int strip;

  if (c->counts[TV_TIMELINE_COUNT_EXCEPTION] == 0)
    return;
  share = (double) c->counts[TV_TIMELINE_COUNT_EXCEPTION] / c->samples;
  strip = MAX (1, MIN (round_up_half (EXCEPTION_STRIP * r->scale_y), (bottom - top) / 3));
  fill_column (r, x, top, top + strip,
               pack_color (tv_color_mix (r->track_color, r->exception_color, 0.45 + 0.55 * share)));
}

/* The weights of a column's stacked states: busy ones count whole, idle
 * and unknown ones IDLE_WEIGHT; returns their sum. */
static inline double
stack_weights (const guint64 *s,
               double        *w)
{
  w[STACK_RUNNING] = (double) s[STACK_RUNNING];
  w[STACK_NATIVE] = (double) s[STACK_NATIVE];
  w[STACK_WAITING] = (double) s[STACK_WAITING];
  w[STACK_UNKNOWN] = IDLE_WEIGHT * (double) s[STACK_UNKNOWN];
  w[STACK_IDLE] = IDLE_WEIGHT * (double) s[STACK_IDLE];
  return w[STACK_RUNNING] + w[STACK_NATIVE] + w[STACK_WAITING] + w[STACK_UNKNOWN]
         + w[STACK_IDLE];
}

/* Stacks the first N_STATES weights W from BOTTOM up, BAR pixels high in
 * all, in proportion to TOTAL. */
static void
paint_stack (const Raster *r,
             int           x,
             int           bottom,
             int           bar,
             const double *w,
             guint         n_states,
             double        total)
{
  double sum = 0, scale = total > 0 ? bar / total : 0;
  int y = bottom;

  for (guint k = 0; k < n_states && total > 0; k++)
    {
      int next;

      sum += w[k];
      next = bottom - round_up_half (sum * scale);
      if (next < y)
        fill_column (r, x, next, y, r->stack[k]);
      y = next;
    }
}

static void
paint_lane (const Raster            *r,
            const TvTimelineColumn **shown,
            guint                    n,
            double                   expected,
            int                      top,
            int                      bottom)
{
  int height = bottom - top;

  if (height <= 0)
    return;
  for (guint x = 0; x < n; x++)
    {
      const TvTimelineColumn *c = shown[x];
      guint64 s[N_STACK];
      double w[N_STACK], total;
      int bar;

      if (c == NULL)
        {
          fill_column (r, x, top, bottom, r->track);
          continue;
        }
      column_stack (c, s);
      total = stack_weights (s, w);
      bar = MAX (1, round_up_half (column_density (c, expected) * height * total / c->samples));
      fill_column (r, x, top, bottom - bar, r->track);
      paint_stack (r, x, bottom, bar, w, N_STACK, total);
      paint_exception (r, x, top, bottom, c);
    }
}

/* A thin lane: the colour of the state most of the column's samples are
 * in, faded by density. */
static void
paint_collapsed (const Raster            *r,
                 const TvTimelineColumn **shown,
                 guint                    n,
                 double                   expected,
                 int                      top,
                 int                      bottom)
{
  for (guint x = 0; x < n; x++)
    {
      const TvTimelineColumn *c = shown[x];
      guint64 s[N_STACK];
      guint best = 0;
      double density;

      if (c == NULL)
        {
          fill_column (r, x, top, bottom, r->track);
          continue;
        }
      column_stack (c, s);
      for (guint k = 1; k < N_STACK; k++)
        if (s[k] > s[best])
          best = k;
      density = column_density (c, expected);
      /* Idle is paler, as it is lower in a full lane. */
      if (best == STACK_IDLE || best == STACK_UNKNOWN)
        density *= 0.5;
      fill_column (r, x, top, bottom,
                   density >= 1 ? r->stack[best]
                   : pack_color (tv_color_mix (r->track_color, r->stack_colors[best],
                                      0.3 + 0.7 * density)));
    }
}

/* The share of a column's samples that are not idle (unknown counts as
 * not idle: it may be anything). */
static inline double
busy_share (const TvTimelineColumn *c)
{
  guint64 idle = c->counts[TV_TIMELINE_COUNT_IDLE];
  guint64 unknown = MIN (c->counts[TV_TIMELINE_COUNT_UNKNOWN], idle);

  return (double) (c->samples - idle + unknown) / c->samples;
}

/* The share of busy threads that fills the overview's height: that of the
 * busiest columns of the window, leaving out the busiest 3 %, which would
 * flatten the rest (they are cut at the top); at least MIN_SHARE.  A
 * histogram of the shares finds it in one pass. */
static double
overview_scale (const TvTimelineColumn **shown,
                guint                    n,
                double                   min_share)
{
  guint histogram[101] = { 0 };
  guint n_shown = 0, above = 0;

  for (guint x = 0; x < n; x++)
    if (shown[x] != NULL)
      {
        histogram[round_up_half (busy_share (shown[x]) * 100)]++;
        n_shown++;
      }
  for (guint b = 100; b > 0; b--)
    {
      above += histogram[b];
      if (above > n_shown * 0.03)
        return MAX (b / 100.0, min_share);
    }
  return min_share;
}

/* The overview: the share of threads that were not idle, by state, scaled
 * by overview_scale (). */
static void
paint_overview (const Raster            *r,
                const TvTimelineColumn **shown,
                guint                    n,
                double                   min_share,
                int                      top,
                int                      bottom)
{
  int height = bottom - top;
  double busiest = overview_scale (shown, n, min_share);

  if (height <= 0)
    return;
  for (guint x = 0; x < n; x++)
    {
      const TvTimelineColumn *c = shown[x];
      guint64 s[N_STACK];
      double w[N_STACK], share;

      fill_column (r, x, top, bottom, r->track);
      if (c == NULL || busiest <= 0)
        continue;
      column_stack (c, s);
      for (guint k = 0; k < N_STACK; k++)
        w[k] = (double) s[k];
      share = busy_share (c);
      if (share > 0)
        paint_stack (r, x, bottom,
                     CLAMP (round_up_half (share / busiest * height), 1, height), w,
                     STACK_IDLE, w[STACK_RUNNING] + w[STACK_NATIVE] + w[STACK_WAITING]
                                 + w[STACK_UNKNOWN]);
    }
}

/* Lanes with samples, counted once per timeline. */
static guint
n_busy_lanes (TvTimelineRenderer *self,
              TvTimeline         *timeline)
{
  if (self->busy_lanes == G_MAXUINT)
    {
      guint n = 0;

      for (guint i = 0; i < tv_timeline_get_n_lanes (timeline); i++)
        n += tv_timeline_get_lane (timeline, i)->n_samples > 0;
      self->busy_lanes = n;
    }
  return self->busy_lanes;
}

static void
ensure_columns (TvTimelineRenderer *self,
                guint               n)
{
  if (n <= self->columns_capacity)
    return;
  self->columns_capacity = MAX (n, self->columns_capacity * 2);
  self->columns = g_renew (TvTimelineColumn, self->columns, self->columns_capacity);
  self->shown = g_renew (const TvTimelineColumn *, self->shown, self->columns_capacity);
}

/* Device pixels per user-space pixel across and down; 1 under a rotation
 * or a shear, where the image is painted as it is. */
void
tv_timeline_device_scale (cairo_t *cr,
                          double  *sx,
                          double  *sy)
{
  cairo_matrix_t m;
  double dx = 1, dy = 1;

  cairo_get_matrix (cr, &m);
  cairo_surface_get_device_scale (cairo_get_target (cr), &dx, &dy);
  if (m.xy != 0 || m.yx != 0 || !(m.xx > 0) || !(m.yy > 0))
    {
      *sx = *sy = 1;
      return;
    }
  *sx = CLAMP (m.xx * dx, 0.25, 8.0);
  *sy = CLAMP (m.yy * dy, 0.25, 8.0);
}

/* Marks rows TOP to BOTTOM of the raster as painted. */
static void
cover_rows (TvTimelineRenderer *self,
            const Raster       *r,
            int                 top,
            int                 bottom)
{
  for (int y = MAX (top, r->clip_top); y < MIN (bottom, r->clip_bottom); y++)
    self->covered[y] = 1;
}

/* The image of the bands for G, at CR's resolution: its size, rows not
 * yet covered and the state colours in R; FALSE when there is nothing
 * to paint into. */
static gboolean
begin_raster (TvTimelineRenderer    *self,
              cairo_t               *cr,
              const TvTimelineStyle *style,
              const Geometry        *g,
              Raster                *r)
{
  double top = g->overview_y, bottom = g->lanes_y + g->lanes_height;
  double sx, sy;
  int width, height;
  guchar *data;

  memset (r, 0, sizeof *r);
  tv_timeline_device_scale (cr, &sx, &sy);
  /* An image of at most 2^26 pixels, whatever the scale. */
  while ((g->plot_width * sx) * ((bottom - top) * sy) > (double) (1 << 26) && sx > 0.25)
    {
      sx /= 2;
      sy /= 2;
    }
  width = (int) ceil (g->plot_width * sx - 1e-6);
  height = (int) ceil ((bottom - top) * sy - 1e-6);
  if (width <= 0 || height <= 0)
    return FALSE;

  if (tv_draw_ensure_image (&self->raster, MAX (width, 64), MAX (height, 64)) == NULL)
    return FALSE;
  cairo_surface_flush (self->raster);
  data = cairo_image_surface_get_data (self->raster);
  if (data == NULL)
    return FALSE;
  if ((guint) height > self->covered_capacity)
    {
      self->covered_capacity = MAX ((guint) height, self->covered_capacity * 2);
      self->covered = g_renew (guint8, self->covered, self->covered_capacity);
    }
  memset (self->covered, 0, height);

  r->pixels = (guint32 *) data;
  r->stride = cairo_image_surface_get_stride (self->raster) / 4;
  r->width = width;
  r->height = height;
  r->scale_x = sx;
  r->scale_y = sy;
  r->top = top;
  r->track_color = tv_palette_track (style->dark);
  r->track = pack_color (r->track_color);
  r->exception_color = tv_timeline_state_color (TV_TIMELINE_STATE_EXCEPTION, style->dark);
  for (guint k = 0; k < N_STACK; k++)
    {
      r->stack_colors[k] = tv_timeline_state_color (stack_states[k], style->dark);
      r->stack[k] = pack_color (r->stack_colors[k]);
    }
  return TRUE;
}

/* LANE's columns across the window into self->shown, with the states
 * that hold over columns without samples. */
static void
shown_columns (TvTimelineRenderer    *self,
               TvTimeline            *timeline,
               guint                  lane,
               const TvTimelineStyle *style,
               const Raster          *r)
{
  double held_columns = 0;
  gboolean has_held;

  tv_timeline_get_bins (timeline, lane, style->t0, style->t1, r->width, self->columns);
  has_held = held_before (timeline, lane, style, r->column_us, &self->held, &held_columns);
  hold_columns (self->columns, self->shown, r->width, r->hold, has_held ? &self->held : NULL,
                held_columns);
}

/* The lanes' rows that show, each into its band of R. */
static void
paint_rows (TvTimelineRenderer    *self,
            TvTimeline            *timeline,
            const TvTimelineStyle *style,
            const Geometry        *g,
            Raster                *r)
{
  r->clip_top = (int) round ((g->lanes_y - r->top) * r->scale_y);
  r->clip_bottom = r->height;
  for (guint i = tv_timeline_renderer_first_row_below (self, g->lanes_y - g->rows_y);
       i < self->n_rows && self->rows[i].y + g->rows_y < g->lanes_y + g->lanes_height; i++)
    {
      const Row *row = &self->rows[i];
      double row_y = row->y + g->rows_y;
      int band_top, band_bottom;

      if (row->kind != ROW_LANE)
        continue;
      band_top = (int) round ((row_y - r->top) * r->scale_y);
      band_bottom = (int) round ((row_y + row->height - 1 - r->top) * r->scale_y);
      if (band_bottom <= band_top)
        band_bottom = band_top + 1;
      shown_columns (self, timeline, row->lane, style, r);
      if (row->flags & TV_TIMELINE_LANE_COLLAPSED)
        paint_collapsed (r, self->shown, r->width, r->expected, band_top, band_bottom);
      else
        paint_lane (r, self->shown, r->width, r->expected, band_top, band_bottom);
      cover_rows (self, r, band_top, band_bottom);
    }
}

/* The bands of the overview and the lanes, as one image over the time
 * axis from the overview's top to the lanes' bottom.  With a background,
 * the image is opaque (the gaps between bands get the background) and is
 * copied, not blended.  FALSE when nothing was painted. */
gboolean
tv_timeline_renderer_paint_bands (TvTimelineRenderer    *self,
                                  cairo_t               *cr,
                                  TvTimeline            *timeline,
                                  const TvTimelineStyle *style,
                                  const Geometry        *g)
{
  double bottom = g->lanes_y + g->lanes_height;
  int overview_bottom;
  guint32 clear = style->draw_background ? pack_color (tv_timeline_background_color (style->dark))
                                         : 0;
  Raster r;

  if (!begin_raster (self, cr, style, g, &r))
    return FALSE;
  ensure_columns (self, r.width);
  r.column_us = (style->t1 - style->t0) / r.width;
  r.expected = r.column_us / tv_timeline_get_interval (timeline);
  r.hold = HOLD_INTERVALS * tv_timeline_get_interval (timeline) / r.column_us;

  /* The overview. */
  r.clip_top = 0;
  r.clip_bottom = MIN ((int) round ((g->overview_y + g->overview_height - r.top) * r.scale_y),
                       r.height);
  overview_bottom = (int) round ((g->overview_y + g->overview_height - 1 - r.top) * r.scale_y);
  shown_columns (self, timeline, TV_TIMELINE_ALL, style, &r);
  paint_overview (&r, self->shown, r.width, 1.0 / MAX (n_busy_lanes (self, timeline), 1), 0,
                  overview_bottom);
  cover_rows (self, &r, 0, overview_bottom);

  paint_rows (self, timeline, style, g, &r);

  /* The rest: gaps between bands, below the last lane. */
  for (int y = 0; y < r.height; y++)
    if (!self->covered[y])
      {
        guint32 *row = r.pixels + (gsize) y * r.stride;

        for (int x = 0; x < r.width; x++)
          row[x] = clear;
      }
  cairo_surface_mark_dirty_rectangle (self->raster, 0, 0, r.width, r.height);

  cairo_save (cr);
  cairo_rectangle (cr, g->plot_x, r.top, g->plot_width, bottom - r.top);
  cairo_clip (cr);
  cairo_translate (cr, g->plot_x, r.top);
  cairo_scale (cr, 1 / r.scale_x, 1 / r.scale_y);
  cairo_set_source_surface (cr, self->raster, 0, 0);
  cairo_pattern_set_filter (cairo_get_source (cr), CAIRO_FILTER_NEAREST);
  if (style->draw_background)
    cairo_set_operator (cr, CAIRO_OPERATOR_SOURCE);
  cairo_rectangle (cr, 0, 0, r.width, r.height);
  cairo_fill (cr);
  cairo_restore (cr);
  return TRUE;
}


/* ------------------------------------------------------------------------ */
/* The highlight                                                             */
/* ------------------------------------------------------------------------ */

/* One band of HEIGHT pixels at Y: dimmed, then an accent bar in every
 * pixel column with highlighted samples, as high as their share of the
 * column's samples (two pixels at least, so that one sample shows). */
static void
highlight_band (cairo_t               *cr,
                TvTimeline            *timeline,
                const TvTimelineStyle *style,
                const Geometry        *g,
                guint                  lane,
                double                 y,
                double                 height,
                guint                  n,
                guint64               *marked,
                TvTimelineColumn      *columns)
{
  if (height < 1)
    return;
  tv_timeline_highlight_get_bins (style->highlight, lane, style->t0, style->t1, n, marked);
  tv_timeline_get_bins (timeline, lane, style->t0, style->t1, n, columns);
  tv_draw_set_source (cr, tv_timeline_background_color (style->dark), TV_PALETTE_VEIL_ALPHA);
  cairo_rectangle (cr, g->plot_x, y, g->plot_width, height);
  cairo_fill (cr);
  tv_draw_set_source (cr, tv_palette_accent (style->dark), 1.0);
  for (guint c = 0; c < n; c++)
    if (marked[c] > 0)
      {
        double share = columns[c].samples > marked[c] ? (double) marked[c] / columns[c].samples
                                                      : 1.0;
        double h = MIN (MAX (round (share * height), 2), height);
        double x0 = g->plot_x + g->plot_width * c / n;
        double x1 = g->plot_x + g->plot_width * (c + 1) / n;

        cairo_rectangle (cr, x0, y + height - h, MAX (x1 - x0, 1), h);
      }
  cairo_fill (cr);
}

/* The folded row has no band, and its label runs over the time axis:
 * ticks along its bottom where its lanes have highlighted samples. */
static void
highlight_ticks (cairo_t               *cr,
                 const TvTimelineStyle *style,
                 const Geometry        *g,
                 double                 y,
                 double                 height,
                 guint                  n,
                 guint64               *marked)
{
  double h = MIN (3, height);

  if (h < 1)
    return;
  tv_timeline_highlight_get_bins (style->highlight, TV_TIMELINE_HIGHLIGHT_GROUP, style->t0,
                                  style->t1, n, marked);
  tv_draw_set_source (cr, tv_palette_accent (style->dark), 1.0);
  for (guint c = 0; c < n; c++)
    if (marked[c] > 0)
      {
        double x0 = g->plot_x + g->plot_width * c / n;
        double x1 = g->plot_x + g->plot_width * (c + 1) / n;

        cairo_rectangle (cr, x0, y + height - h, MAX (x1 - x0, 1), h);
      }
  cairo_fill (cr);
}

/* Over the overview and every lane's row that shows, the samples of
 * STYLE's highlight, by pixel column, counted exactly; and ticks under
 * the folded row (the highlight's group). */
void
tv_timeline_renderer_draw_highlight (TvTimelineRenderer    *self,
                                     cairo_t               *cr,
                                     TvTimeline            *timeline,
                                     const TvTimelineStyle *style,
                                     const Geometry        *g)
{
  g_autofree guint64 *marked = NULL;
  g_autofree TvTimelineColumn *columns = NULL;
  guint n;

  if (style->highlight == NULL
      || tv_timeline_highlight_get_timeline (style->highlight) != timeline
      || g->plot_width < 1)
    return;
  n = (guint) MIN (ceil (g->plot_width), 1 << 16);
  marked = g_new (guint64, n);
  columns = g_new (TvTimelineColumn, n);

  cairo_save (cr);
  cairo_set_antialias (cr, CAIRO_ANTIALIAS_NONE);
  cairo_rectangle (cr, g->plot_x, g->overview_y, g->plot_width, g->overview_height);
  cairo_clip (cr);
  highlight_band (cr, timeline, style, g, TV_TIMELINE_ALL, g->overview_y,
                  g->overview_height - 1, n, marked, columns);
  cairo_restore (cr);

  cairo_save (cr);
  cairo_set_antialias (cr, CAIRO_ANTIALIAS_NONE);
  cairo_rectangle (cr, g->plot_x, g->lanes_y, g->plot_width, g->lanes_height);
  cairo_clip (cr);
  for (guint i = tv_timeline_renderer_first_row_below (self, g->lanes_y - g->rows_y);
       i < self->n_rows && self->rows[i].y + g->rows_y < g->lanes_y + g->lanes_height; i++)
    {
      const Row *row = &self->rows[i];

      if (row->kind == ROW_FOLDED)
        highlight_ticks (cr, style, g, row->y + g->rows_y, row->height - 1, n, marked);
      if (row->kind != ROW_LANE)
        continue;
      highlight_band (cr, timeline, style, g, row->lane, row->y + g->rows_y, row->height - 1,
                      n, marked, columns);
    }
  cairo_restore (cr);
}
