/* tv-timeline-bins.c: the timeline's columns of a window, and the heatmap
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A window's columns are counted from the level whose bins are no wider
 * than a column, or from the samples where none is; the heatmap counts
 * each lane's samples into cells of a column of time and a row of the
 * time within it.
 */
#include "tv-timeline-private.h"

#include <math.h>
#include <string.h>

/* ------------------------------------------------------------------------ */
/* Windows                                                                   */
/* ------------------------------------------------------------------------ */

static gboolean
window_valid (double t0,
              double t1,
              guint  n_columns)
{
  return n_columns > 0 && isfinite (t0) && isfinite (t1) && t1 > t0;
}

/* The coarsest level of LANE no wider than a column of the window, or -1
 * when even the finest is wider (or the lane has none). */
static int
pick_level (const LaneData *lane,
            double          t0,
            double          t1,
            guint           n_columns)
{
  double column = (t1 - t0) / n_columns;
  int best = -1;

  for (guint l = 0; l < lane->n_levels; l++)
    if (ldexp (1.0, lane->levels[l].shift) <= column)
      best = l;
  return best;
}

/* EDGES[c] = ceil (t0 + c (t1 - t0) / n), clamped (see tv_timeline_time_edge). */
static void
column_edges (double   t0,
              double   t1,
              guint    n_columns,
              guint64 *edges)
{
  for (guint c = 0; c <= n_columns; c++)
    edges[c] = tv_timeline_time_edge (c == n_columns ? t1 : t0 + (t1 - t0) * c / n_columns);
}

/* The column of the window that holds TIME (since the origin), which is
 * in the window. */
static guint
column_at (const guint64 *edges,
           guint          n_columns,
           guint64        time)
{
  guint lo = 0, hi = n_columns;

  /* The last column whose left edge is at or before TIME. */
  while (hi - lo > 1)
    {
      guint mid = lo + (hi - lo) / 2;

      if (edges[mid] <= time)
        lo = mid;
      else
        hi = mid;
    }
  return lo;
}

/* Adds the samples of LANE from FROM to TO (microseconds since the
 * origin, within the window) to the columns that hold them.  A column's
 * samples are counted a byte each in one word (255 at most at a time). */
static void
add_samples (const LaneData   *lane,
             guint64           origin,
             const guint64    *edges,
             guint             n_columns,
             guint64           from,
             guint64           to,
             TvTimelineColumn *columns)
{
  const StatusTable *table = tv_timeline_status_table ();
  guint64 i;
  guint c;

  from = MAX (from, edges[0]);
  to = MIN (to, edges[n_columns]);
  if (lane->n_samples == 0 || from >= to || from > G_MAXUINT64 - origin)
    return;
  i = tv_times_lower_bound (lane->times, 0, lane->n_samples, origin + from);
  c = column_at (edges, n_columns, from);
  while (i < lane->n_samples)
    {
      guint64 r = tv_times_get (lane->times, i) - origin, next;
      guint64 acc = 0;
      guint k = 0;

      if (r >= to)
        break;
      while (r >= edges[c + 1])
        c++;
      next = MIN (edges[c + 1], to);
      for (; i < lane->n_samples && k < 255 && tv_times_get (lane->times, i) - origin < next;
           i++, k++)
        acc += table->packed[tv_statuses_get (lane->statuses, i) & 0x3f];
      column_add_packed (&columns[c], acc);
    }
}

/* The samples of LANE (or of every lane) from FROM to TO. */
static void
add_lane_samples (TvTimeline       *self,
                  guint             lane,
                  const guint64    *edges,
                  guint             n_columns,
                  guint64           from,
                  guint64           to,
                  TvTimelineColumn *columns)
{
  guint64 lo = MAX (from, edges[0]), hi = MIN (to, edges[n_columns]);

  if (lane != TV_TIMELINE_ALL)
    add_samples (&self->lane_data[lane], self->origin, edges, n_columns, from, to, columns);
  else
    for (guint i = 0; i < self->n_lanes; i++)
      {
        const TvTimelineLane *info = &self->lanes[i];

        /* Two comparisons, not two bisections, for a lane with nothing
         * in the window: of many threads, few live at any one time. */
        if (info->n_samples == 0 || info->last_timestamp - self->origin < lo
            || info->first_timestamp - self->origin >= hi)
          continue;
        add_samples (&self->lane_data[i], self->origin, edges, n_columns, from, to, columns);
      }
}

/* Adds the window of LANE from LEVEL: the bins wholly inside the window,
 * each to the column that holds its middle, and the samples of the bins
 * its edges cut, one by one, so that the window's total is exact. */
static void
add_bins (TvTimeline       *self,
          guint             lane,
          const Level      *level,
          const guint64    *edges,
          guint             n_columns,
          TvTimelineColumn *columns)
{
  guint shift = level->shift;
  guint64 half = shift > 0 ? G_GUINT64_CONSTANT (1) << (shift - 1) : 0;
  guint64 start = edges[0], end = edges[n_columns];
  guint64 first, stop;
  guint c = 0;

  if (start >= end)
    return;
  /* Bins first .. stop - 1 are wholly inside [start, end). */
  first = (start >> shift) + ((start & ((G_GUINT64_CONSTANT (1) << shift) - 1)) != 0);
  stop = end >> shift;
  if (first >= stop)
    {
      add_lane_samples (self, lane, edges, n_columns, start, end, columns);
      return;
    }
  add_lane_samples (self, lane, edges, n_columns, start, first << shift, columns);
  add_lane_samples (self, lane, edges, n_columns, stop << shift, end, columns);

  for (guint64 j = MAX (first, level->first_bin); j < MIN (stop, level->first_bin + level->n_bins);
       j++)
    {
      guint64 middle = (j << shift) | half;

      while (middle >= edges[c + 1])
        c++;
      column_add_bin (&columns[c], &level->bins[j - level->first_bin]);
    }
}

gboolean
tv_timeline_get_bins (TvTimeline       *self,
                      guint             lane,
                      double            t0,
                      double            t1,
                      guint             n_columns,
                      TvTimelineColumn *columns)
{
  g_autofree guint64 *edges = NULL;
  const LaneData *data;
  int level;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (lane < self->n_lanes || lane == TV_TIMELINE_ALL, FALSE);
  g_return_val_if_fail (columns != NULL || n_columns == 0, FALSE);

  if (n_columns > 0)
    memset (columns, 0, n_columns * sizeof (TvTimelineColumn));
  if (!window_valid (t0, t1, n_columns))
    return FALSE;

  edges = g_new (guint64, n_columns + 1);
  column_edges (t0, t1, n_columns, edges);
  data = lane == TV_TIMELINE_ALL ? &self->all : &self->lane_data[lane];
  level = pick_level (data, t0, t1, n_columns);
  if (level >= 0)
    add_bins (self, lane, &data->levels[level], edges, n_columns, columns);
  else
    /* Narrower columns than the bins: the window holds few samples per
     * column (for the overview, few per column of each lane). */
    add_lane_samples (self, lane, edges, n_columns, edges[0], edges[n_columns], columns);
  return TRUE;
}

int
tv_timeline_pick_level (TvTimeline *self,
                        guint       lane,
                        double      t0,
                        double      t1,
                        guint       n_columns)
{
  g_return_val_if_fail (self != NULL, -1);
  g_return_val_if_fail (lane < self->n_lanes || lane == TV_TIMELINE_ALL, -1);

  if (!window_valid (t0, t1, n_columns))
    return -1;
  return pick_level (lane == TV_TIMELINE_ALL ? &self->all : &self->lane_data[lane], t0, t1,
                     n_columns);
}

guint
tv_timeline_get_n_levels (TvTimeline *self,
                          guint       lane)
{
  g_return_val_if_fail (self != NULL, 0);
  g_return_val_if_fail (lane < self->n_lanes || lane == TV_TIMELINE_ALL, 0);
  return (lane == TV_TIMELINE_ALL ? &self->all : &self->lane_data[lane])->n_levels;
}

const TvTimelineBin *
tv_timeline_get_level (TvTimeline *self,
                       guint       lane,
                       guint       level,
                       guint      *shift,
                       guint64    *first_bin,
                       guint64    *n_bins)
{
  const LaneData *data;
  const Level *l;

  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (lane < self->n_lanes || lane == TV_TIMELINE_ALL, NULL);
  data = lane == TV_TIMELINE_ALL ? &self->all : &self->lane_data[lane];
  g_return_val_if_fail (level < data->n_levels, NULL);

  l = &data->levels[level];
  if (shift != NULL)
    *shift = l->shift;
  if (first_bin != NULL)
    *first_bin = l->first_bin;
  if (n_bins != NULL)
    *n_bins = l->n_bins;
  return l->bins;
}

char *
tv_timeline_dup_lane_label (TvTimeline *self,
                            guint       lane,
                            const char *main_label)
{
  const TvTimelineLane *info;

  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (lane < self->n_lanes, NULL);

  info = &self->lanes[lane];
  if (info->main_thread && main_label != NULL && main_label[0] != '\0')
    return g_utf8_make_valid (main_label, -1);
  return g_strdup_printf ("T%u", info->position + 1);
}

char *
tv_timeline_format_time (double us)
{
  if (fabs (us) >= 1e6)
    return g_strdup_printf ("%.3f s", us / 1e6);
  if (fabs (us) >= 1e3)
    return g_strdup_printf ("%.3f ms", us / 1e3);
  return g_strdup_printf ("%.0f \xc2\xb5s", us);
}

/* ------------------------------------------------------------------------ */
/* Heatmap                                                                   */
/* ------------------------------------------------------------------------ */

/* The offset of row ROW's start within a column. */
static guint64
row_offset (const TvTimelineHeatmap *self,
            guint                    row)
{
  return MIN ((guint64) row * self->row_duration, self->column_duration);
}

static void
heatmap_add_lane (TvTimelineHeatmap *self,
                  const LaneData    *lane,
                  guint64            origin,
                  guint8             mask,
                  guint8             value)
{
  guint64 n_cells = (guint64) self->n_columns * self->n_rows;

  if (lane->n_samples == 0)
    return;
  if (lane->n_samples < n_cells || mask != 0)
    {
      /* Fewer samples than cells, or a status to check: place each. */
      for (guint64 i = 0; i < lane->n_samples; i++)
        {
          guint64 r = tv_times_get (lane->times, i) - origin;
          guint64 column = r / self->column_duration;
          guint64 row = (r % self->column_duration) / self->row_duration;

          if (column < self->n_columns
              && (tv_statuses_get (lane->statuses, i) & mask) == value)
            self->cells[column * self->n_rows + row]++;
        }
    }
  else
    {
      /* Where each cell ends, found from where the last one did. */
      guint64 i = tv_times_lower_bound (lane->times, 0, lane->n_samples, origin);

      for (guint column = 0; column < self->n_columns && i < lane->n_samples; column++)
        for (guint row = 0; row < self->n_rows; row++)
          {
            guint64 end = origin + column * self->column_duration + row_offset (self, row + 1);
            guint64 next = tv_times_gallop (lane->times, i, end);

            self->cells[(guint64) column * self->n_rows + row] += next - i;
            i = next;
          }
    }
}

TvTimelineHeatmap *
tv_timeline_heatmap_new (TvTimeline    *timeline,
                         const guint32 *lanes,
                         guint          n_lanes,
                         guint8         status_mask,
                         guint8         status_value,
                         guint64        row_duration,
                         GCancellable  *cancellable)
{
  return tv_timeline_heatmap_new_full (timeline, lanes, n_lanes, status_mask, status_value,
                                       USEC_PER_SECOND, row_duration, cancellable);
}

guint64
tv_timeline_heatmap_pick_column_duration (TvTimeline *timeline)
{
  /* Nice durations, longest first: each divides a second. */
  static const guint64 durations[] = { 1000000, 500000, 200000, 100000, 50000, 20000, 10000 };
  double duration, interval;
  guint64 picked = durations[0];

  g_return_val_if_fail (timeline != NULL, USEC_PER_SECOND);

  duration = (double) tv_timeline_get_duration (timeline);
  interval = tv_timeline_get_interval (timeline);
  for (guint i = 0; i < G_N_ELEMENTS (durations); i++)
    {
      /* A row (a fiftieth of a column) shorter than the sampling
       * interval would hold a sample or none. */
      if (isfinite (interval) && interval > 0
          && (double) durations[i] / (1000000.0 / TV_HEATMAP_ROW_DURATION) < interval)
        break;
      picked = durations[i];
      if (duration / (double) durations[i] >= TV_HEATMAP_MIN_COLUMNS)
        break;
    }
  return picked;
}

TvTimelineHeatmap *
tv_timeline_heatmap_new_full (TvTimeline    *timeline,
                              const guint32 *lanes,
                              guint          n_lanes,
                              guint8         status_mask,
                              guint8         status_value,
                              guint64        column_duration,
                              guint64        row_duration,
                              GCancellable  *cancellable)
{
  g_autoptr(TvTimelineHeatmap) self = NULL;
  guint64 n_columns, n_cells;

  g_return_val_if_fail (timeline != NULL, NULL);
  g_return_val_if_fail (lanes != NULL || n_lanes == 0, NULL);
  g_return_val_if_fail (column_duration >= 1 && column_duration <= USEC_PER_SECOND, NULL);
  g_return_val_if_fail (row_duration >= 1 && row_duration <= column_duration, NULL);

  self = g_new0 (TvTimelineHeatmap, 1);
  g_atomic_ref_count_init (&self->ref_count);
  self->timeline = tv_timeline_ref (timeline);
  self->column_duration = column_duration;
  self->row_duration = row_duration;
  self->n_rows = (column_duration + row_duration - 1) / row_duration;
  n_columns = timeline->has_samples ? (timeline->last - timeline->origin) / column_duration + 1
                                    : 0;
  /* A profile of days, say, would make a heatmap no one can read: its
   * first hours are shown, as many columns as an image can be wide (the
   * renderer paints a pixel per cell, and cairo's images are at most
   * 32767 pixels wide). */
  n_columns = MIN (n_columns, MIN (MAX_HEATMAP_CELLS / self->n_rows, MAX_HEATMAP_COLUMNS));
  self->n_columns = n_columns;
  n_cells = n_columns * self->n_rows;
  self->cells = g_new0 (guint64, MAX (n_cells, 1));

  for (guint i = 0; i < (lanes != NULL ? n_lanes : timeline->n_lanes); i++)
    {
      guint lane = lanes != NULL ? lanes[i] : i;

      g_return_val_if_fail (lane < timeline->n_lanes, NULL);
      if (g_cancellable_is_cancelled (cancellable))
        return NULL;
      heatmap_add_lane (self, &timeline->lane_data[lane], timeline->origin, status_mask,
                        status_value);
    }
  for (guint64 c = 0; c < n_cells; c++)
    self->max_count = MAX (self->max_count, self->cells[c]);
  return g_steal_pointer (&self);
}

TvTimelineHeatmap *
tv_timeline_heatmap_ref (TvTimelineHeatmap *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_atomic_ref_count_inc (&self->ref_count);
  return self;
}

void
tv_timeline_heatmap_unref (TvTimelineHeatmap *self)
{
  if (self == NULL || !g_atomic_ref_count_dec (&self->ref_count))
    return;
  g_clear_pointer (&self->timeline, tv_timeline_unref);
  g_free (self->cells);
  g_free (self);
}

TvTimeline *
tv_timeline_heatmap_get_timeline (TvTimelineHeatmap *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->timeline;
}

guint
tv_timeline_heatmap_get_n_columns (TvTimelineHeatmap *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->n_columns;
}

guint
tv_timeline_heatmap_get_n_rows (TvTimelineHeatmap *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->n_rows;
}

guint64
tv_timeline_heatmap_get_column_duration (TvTimelineHeatmap *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->column_duration;
}

guint64
tv_timeline_heatmap_get_row_duration (TvTimelineHeatmap *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->row_duration;
}

guint64
tv_timeline_heatmap_get_count (TvTimelineHeatmap *self,
                               guint              column,
                               guint              row)
{
  g_return_val_if_fail (self != NULL, 0);
  g_return_val_if_fail (column < self->n_columns && row < self->n_rows, 0);
  return self->cells[(guint64) column * self->n_rows + row];
}

guint64
tv_timeline_heatmap_get_max_count (TvTimelineHeatmap *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->max_count;
}

void
tv_timeline_heatmap_get_cell_range (TvTimelineHeatmap *self,
                                    guint              column,
                                    guint              row,
                                    guint64           *start,
                                    guint64           *end)
{
  guint64 second;

  g_return_if_fail (self != NULL);
  g_return_if_fail (column < self->n_columns && row < self->n_rows);

  second = self->timeline->origin + column * self->column_duration;
  if (start != NULL)
    *start = second + row_offset (self, row);
  if (end != NULL)
    *end = second + row_offset (self, row + 1);
}

TvTimeRange *
tv_timeline_heatmap_select (TvTimelineHeatmap *self,
                            guint              column0,
                            guint              row0,
                            guint              column1,
                            guint              row1,
                            guint             *n_ranges)
{
  guint c0, c1, r0, r1, n = 0;
  TvTimeRange *ranges;

  g_return_val_if_fail (n_ranges != NULL, NULL);
  *n_ranges = 0;
  g_return_val_if_fail (self != NULL, NULL);

  if (self->n_columns == 0)
    return NULL;
  c0 = MIN (MIN (column0, column1), self->n_columns - 1);
  c1 = MIN (MAX (column0, column1), self->n_columns - 1);
  r0 = MIN (MIN (row0, row1), self->n_rows - 1);
  r1 = MIN (MAX (row0, row1), self->n_rows - 1);

  ranges = g_new (TvTimeRange, c1 - c0 + 1);
  for (guint c = c0; c <= c1; c++)
    {
      guint64 start, end;

      tv_timeline_heatmap_get_cell_range (self, c, r0, &start, NULL);
      tv_timeline_heatmap_get_cell_range (self, c, r1, NULL, &end);
      if (n > 0 && ranges[n - 1].end == start)
        ranges[n - 1].end = end;
      else
        ranges[n++] = (TvTimeRange) { start, end };
    }
  *n_ranges = n;
  return ranges;
}
