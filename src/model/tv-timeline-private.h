/* tv-timeline-private.h: what the timeline's files share
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The lanes' levels of bins, the status table, and the small functions
 * the building and counting loops inline.
 */
#pragma once

#include "tv-timeline.h"

G_BEGIN_DECLS

/* At most this many samples to a bin of the finest level, on average
 * (so between half this and this).  Fewer and the bins cost more than
 * they save: at 16, the default 5M shape's bins took 30 MB (a third of
 * what its samples keep) and half of the timeline's build, faulting them
 * in; a window narrower than them has few samples per column to count
 * anyway.  More and such a window of every lane costs more: at 32 the
 * worst of tachyon-bench --timeline's draws stays near 11-15 ms, at 64
 * it comes close to a frame. */
#define SAMPLES_PER_BIN   32
/* At most this many bins in a lane's finest level. */
#define MAX_BINS          (G_GUINT64_CONSTANT (1) << 20)
/* Each level is 1 << LEVEL_STEP times coarser than the one before. */
#define LEVEL_STEP        2
/* A heatmap holds at most this many cells. */
#define MAX_HEATMAP_CELLS (1u << 24)
#define MAX_HEATMAP_COLUMNS 32767
#define USEC_PER_SECOND   G_GUINT64_CONSTANT (1000000)

typedef struct
{
  guint          shift;
  guint64        first_bin;
  guint64        n_bins;
  TvTimelineBin *bins;
} Level;

typedef struct
{
  /* The samples in time order: the thread's own, or sorted copies (owned)
   * when the thread's are not in order. */
  const TvTimes *times;
  const TvStatuses *statuses;
  TvTimes        sorted_times;
  TvStatuses     sorted_statuses;  /* whole bytes, or none */
  guint64        n_samples;
  Level         *levels;
  guint          n_levels;
} LaneData;

struct _TvTimeline
{
  gatomicrefcount  ref_count;
  TvProfileData   *data;
  gboolean         has_samples;
  guint64          origin;
  guint64          last;
  guint64          n_samples;
  double           interval;

  guint            n_lanes;
  TvTimelineLane  *lanes;
  LaneData        *lane_data;
  guint32         *order;
  guint32         *interpreters;
  guint            n_interpreters;
  /* The overview's bins; it has no samples of its own. */
  LaneData         all;
};

struct _TvTimelineHeatmap
{
  gatomicrefcount  ref_count;
  TvTimeline      *timeline;
  guint            n_columns;
  guint            n_rows;
  guint64          column_duration;
  guint64          row_duration;
  guint64         *cells;           /* column * n_rows + row */
  guint64          max_count;
};

/* What a status byte adds to each count: samples first, then the
 * TvTimelineCount order.  Only the low six bits are status bits. */
typedef struct
{
  guint32 add[64][TV_TIMELINE_N_COUNTS + 1];
  /* The same, a byte each: adding these to a word counts up to 255
   * samples with one addition each. */
  guint64 packed[64];
} StatusTable;

static inline void
column_add_status (TvTimelineColumn  *column,
                   const StatusTable *table,
                   guint8             status)
{
  const guint32 *add = table->add[status & 0x3f];

  column->samples += add[0];
  for (guint k = 0; k < TV_TIMELINE_N_COUNTS; k++)
    column->counts[k] += add[k + 1];
}

G_STATIC_ASSERT (TV_TIMELINE_N_COUNTS == 7);

/* Adds a word of byte counts (see StatusTable.packed) to a bin.  Written
 * out: it runs for every run of samples in a bin. */
static inline void
bin_add_packed (TvTimelineBin *bin,
                guint64        packed)
{
  bin->samples += packed & 0xff;
  bin->counts[0] += (packed >> 8) & 0xff;
  bin->counts[1] += (packed >> 16) & 0xff;
  bin->counts[2] += (packed >> 24) & 0xff;
  bin->counts[3] += (packed >> 32) & 0xff;
  bin->counts[4] += (packed >> 40) & 0xff;
  bin->counts[5] += (packed >> 48) & 0xff;
  bin->counts[6] += packed >> 56;
}

static inline void
column_add_packed (TvTimelineColumn *column,
                   guint64           packed)
{
  column->samples += packed & 0xff;
  column->counts[0] += (packed >> 8) & 0xff;
  column->counts[1] += (packed >> 16) & 0xff;
  column->counts[2] += (packed >> 24) & 0xff;
  column->counts[3] += (packed >> 32) & 0xff;
  column->counts[4] += (packed >> 40) & 0xff;
  column->counts[5] += (packed >> 48) & 0xff;
  column->counts[6] += packed >> 56;
}

static inline void
column_add_bin (TvTimelineColumn    *column,
                const TvTimelineBin *bin)
{
  column->samples += bin->samples;
  for (guint k = 0; k < TV_TIMELINE_N_COUNTS; k++)
    column->counts[k] += bin->counts[k];
}

/* The sum of the eight bytes of X, each at most 255. */
static inline guint64
sum_bytes (guint64 x)
{
  x = (x & G_GUINT64_CONSTANT (0x00ff00ff00ff00ff))
      + ((x >> 8) & G_GUINT64_CONSTANT (0x00ff00ff00ff00ff));
  return (x * G_GUINT64_CONSTANT (0x0001000100010001)) >> 48;
}

/* The first index of the N sorted TS with a value >= VALUE. */
static inline guint64
lower_bound (const guint64 *ts,
             guint64        n,
             guint64        value)
{
  guint64 lo = 0, hi = n;

  while (lo < hi)
    {
      guint64 mid = lo + (hi - lo) / 2;

      if (ts[mid] < value)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

/* The first index at or after FROM of the N sorted TS with a value >=
 * VALUE: a gallop from FROM, then a bisection, so that walking a lane's
 * cells in order costs the log of each cell's samples, not of the lane's. */
static inline guint64
gallop (const guint64 *ts,
        guint64        n,
        guint64        from,
        guint64        value)
{
  guint64 step = 1, lo = from, hi;

  if (from >= n || ts[from] >= value)
    return from;
  /* ts[lo] < value throughout. */
  while (lo + step < n && ts[lo + step] < value)
    {
      lo += step;
      step *= 2;
    }
  hi = MIN (lo + step, n);
  return lo + 1 + lower_bound (ts + lo + 1, hi - lo - 1, value);
}

const StatusTable *tv_timeline_status_table (void);

guint64 tv_timeline_time_edge (double time);

G_END_DECLS
