/* tv-timeline.h: every thread's samples and states over time, binned
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A TvTimeline is what the timeline draws from: one lane per thread (a
 * TvThread, that is one thread of one interpreter), plus an overview of
 * all threads, each binned at several resolutions so that any time window
 * at any width costs about as much as the columns drawn, never a pass over
 * the samples.  It is built once, from TvProfileData alone, on any thread
 * (a worker, right after loading), and is immutable and safe to read from
 * any thread once made.  It knows nothing of drawing (see
 * tv-timeline-renderer.h) and nothing of GTK.
 *
 * Times.  The timeline's origin is the earliest sample of the profile.
 * Windows to draw are given in microseconds since the origin, as doubles
 * (a zoom goes well below a microsecond per pixel); ranges of samples, as
 * in TvQuery, are absolute timestamps [start, end) in whole microseconds.
 * tv_timeline_time_to_timestamp() goes from one to the other.
 *
 * Counts.  Every bin and column counts its samples and, among them, those
 * with each thread state (TvTimelineCount): these are plain counts of
 * status bits, plus "idle" (none of holding the GIL, on CPU, waiting for
 * the GIL) and "native" (on CPU, neither holding nor waiting for the GIL),
 * from which the states a legend shows (TvTimelineState) follow.  CPython
 * reports a thread that waits for the GIL as on CPU too: waiting comes
 * before on CPU.
 *
 * Bins.  A lane's bins are aligned on the origin and a power of two of
 * microseconds wide; each level is four times coarser than the one
 * before.  The finest width is picked per lane from its samples (8 to 16
 * samples to a bin on average, and at most 2^20 bins), so the bins take a
 * few bytes per sample (about 27 MB for 5M samples in 64 threads).  A
 * window whose columns are narrower than a lane's finest bins is counted
 * from the samples themselves, which are then few per column.  A lane
 * whose samples are not in time order (a clock that went backwards) keeps
 * a sorted copy of its timestamps and statuses, so every lane is searched
 * by bisection.
 */
#pragma once

#include "tv-call-tree.h"

G_BEGIN_DECLS

/* The lane that stands for all threads: the overview row. */
#define TV_TIMELINE_ALL G_MAXUINT

/* What a bin or a column counts, besides its samples. */
typedef enum
{
  TV_TIMELINE_COUNT_HAS_GIL,        /* TACH_STATUS_HAS_GIL set */
  TV_TIMELINE_COUNT_ON_CPU,         /* TACH_STATUS_ON_CPU set */
  TV_TIMELINE_COUNT_GIL_REQUESTED,  /* TACH_STATUS_GIL_REQUESTED set */
  TV_TIMELINE_COUNT_EXCEPTION,      /* TACH_STATUS_HAS_EXCEPTION set */
  TV_TIMELINE_COUNT_UNKNOWN,        /* TACH_STATUS_UNKNOWN set */
  TV_TIMELINE_COUNT_IDLE,           /* none of HAS_GIL, ON_CPU, GIL_REQUESTED */
  TV_TIMELINE_COUNT_NATIVE,         /* ON_CPU, neither HAS_GIL nor GIL_REQUESTED */
  TV_TIMELINE_N_COUNTS
} TvTimelineCount;

/* The states a timeline shows and a legend lists.  Running, native,
 * waiting, unknown and idle split a lane's samples (a sample is in exactly
 * one of them); exception is drawn over them. */
typedef enum
{
  TV_TIMELINE_STATE_RUNNING,    /* holding the GIL */
  TV_TIMELINE_STATE_NATIVE,     /* on CPU, neither holding nor waiting for the GIL */
  TV_TIMELINE_STATE_WAITING,    /* waiting for the GIL, not holding it */
  TV_TIMELINE_STATE_EXCEPTION,  /* an exception is being handled */
  TV_TIMELINE_STATE_IDLE,       /* none of the above, state known */
  TV_TIMELINE_STATE_UNKNOWN,    /* none of the above, the unknown bit set */
  TV_TIMELINE_N_STATES
} TvTimelineState;

/* One bin as stored: 32 bytes. */
typedef struct
{
  guint32 samples;
  guint32 counts[TV_TIMELINE_N_COUNTS];
} TvTimelineBin;

/* One column of a window, as tv_timeline_get_bins() fills it. */
typedef struct
{
  guint64 samples;
  guint64 counts[TV_TIMELINE_N_COUNTS];
} TvTimelineColumn;

typedef struct
{
  guint32  thread_index;       /* TvThread.index: the lane's number */
  guint32  interpreter_id;
  guint64  thread_id;
  guint64  n_samples;
  guint64  first_timestamp;    /* absolute; meaningless without samples */
  guint64  last_timestamp;
  gboolean main_thread;        /* a sample has TACH_STATUS_MAIN_THREAD */
  guint    position;           /* in the display order */
} TvTimelineLane;

typedef struct _TvTimeline TvTimeline;

/* Bins every thread of DATA.  Safe on any thread; NULL if CANCELLABLE was
 * cancelled. */
TvTimeline           *tv_timeline_new            (TvProfileData *data,
                                                  GCancellable  *cancellable);
TvTimeline           *tv_timeline_ref            (TvTimeline    *timeline);
void                  tv_timeline_unref          (TvTimeline    *timeline);

TvProfileData        *tv_timeline_get_data       (TvTimeline    *timeline);
/* One lane per thread of the data: lane I is thread I. */
guint                 tv_timeline_get_n_lanes    (TvTimeline    *timeline);
const TvTimelineLane *tv_timeline_get_lane       (TvTimeline    *timeline,
                                                  guint          lane);
/* The lanes in display order: by interpreter, then the main thread, then
 * by samples (most first), then by thread id (the data's thread order). */
const guint32        *tv_timeline_get_order      (TvTimeline    *timeline,
                                                  guint         *n_lanes);
/* Distinct interpreters, in display order (ascending). */
const guint32        *tv_timeline_get_interpreters (TvTimeline  *timeline,
                                                    guint       *n_interpreters);

/* The earliest and the latest timestamp; FALSE without samples. */
gboolean              tv_timeline_get_span       (TvTimeline    *timeline,
                                                  guint64       *first,
                                                  guint64       *last);
/* The earliest timestamp (0 without samples): where times count from. */
guint64               tv_timeline_get_origin     (TvTimeline    *timeline);
/* Microseconds from the origin to just after the last sample (last -
 * first + 1), 0 without samples: the window that shows everything. */
guint64               tv_timeline_get_duration   (TvTimeline    *timeline);
/* Microseconds between two samples of a thread (the sampling interval,
 * measured or declared): what one sample stands for. */
double                tv_timeline_get_interval   (TvTimeline    *timeline);
/* The first absolute timestamp at or after TIME (microseconds since the
 * origin): a window [t0, t1) holds the samples of [ts (t0), ts (t1)). */
guint64               tv_timeline_time_to_timestamp (TvTimeline *timeline,
                                                     double      time);

/* Samples of LANE (or TV_TIMELINE_ALL) with START <= timestamp < END,
 * exactly, by bisection.  COUNTS, if not NULL, receives the states too. */
guint64               tv_timeline_count_range    (TvTimeline       *timeline,
                                                  guint             lane,
                                                  guint64           start,
                                                  guint64           end,
                                                  TvTimelineColumn *counts);

/* The latest timestamp of LANE (or TV_TIMELINE_ALL) before BEFORE, in
 * TIMESTAMP; FALSE when there is none.  A view zoomed in far shows the
 * state of the sample before its window at its left edge. */
gboolean              tv_timeline_find_previous  (TvTimeline       *timeline,
                                                  guint             lane,
                                                  guint64           before,
                                                  guint64          *timestamp);

/* Fills N_COLUMNS columns for the window [T0, T1) (microseconds since the
 * origin) of LANE (or TV_TIMELINE_ALL).  Column c holds the samples whose
 * time since the origin, a whole number of microseconds, is in
 * [ceil (e (c)), ceil (e (c + 1))), where e (c) = T0 + c (T1 - T0) /
 * N_COLUMNS.
 *
 * When the columns are narrower than the lane's finest bins, the samples
 * are counted one by one and the columns are exact.  Otherwise the
 * coarsest level whose bins are no wider than a column is summed: each
 * bin wholly inside the window into the column that holds its middle
 * microsecond, and the samples of the (at most two) bins the window's
 * edges cut one by one.  So the columns always add up to the window's
 * samples exactly, and each column is exact when the columns' edges fall
 * on the level's bin edges (a whole number of bins to a column); otherwise
 * a column may gain or lose the samples of part of a bin at each of its
 * edges, never more.  Returns FALSE (and zeroes) on bad arguments. */
gboolean              tv_timeline_get_bins       (TvTimeline       *timeline,
                                                  guint             lane,
                                                  double            t0,
                                                  double            t1,
                                                  guint             n_columns,
                                                  TvTimelineColumn *columns);
/* The level tv_timeline_get_bins() sums for that window, or -1 when it
 * counts the samples. */
int                   tv_timeline_pick_level     (TvTimeline    *timeline,
                                                  guint          lane,
                                                  double         t0,
                                                  double         t1,
                                                  guint          n_columns);
/* The levels of LANE's bins, 0 the finest; 0 when it has none. */
guint                 tv_timeline_get_n_levels   (TvTimeline    *timeline,
                                                  guint          lane);
/* The bins of one level: bin i covers [(FIRST_BIN + i) << SHIFT, (FIRST_BIN
 * + i + 1) << SHIFT) microseconds since the origin.  Every sample of the
 * lane is in one of the N_BINS bins. */
const TvTimelineBin  *tv_timeline_get_level      (TvTimeline    *timeline,
                                                  guint          lane,
                                                  guint          level,
                                                  guint         *shift,
                                                  guint64       *first_bin,
                                                  guint64       *n_bins);
/* Bytes the bins and sorted copies take. */
gsize                 tv_timeline_get_memory_size (TvTimeline   *timeline);

/* Whether LANE matches a filter TEXT typed by the user: a part of its
 * thread id (decimal or 0x-hexadecimal), or of MAIN_LABEL (say, "main")
 * for the main thread, or all of its short label ("T3"), ignoring case.  Empty or NULL text matches all. */
gboolean              tv_timeline_lane_matches   (TvTimeline    *timeline,
                                                  guint          lane,
                                                  const char    *text,
                                                  const char    *main_label);
/* The same for every lane: MATCHES[lane] gets 1 or 0 (one byte a lane);
 * returns how many match.  The text is folded once, so this is the way
 * to filter many lanes (on a worker when they are very many). */
guint                 tv_timeline_match_lanes    (TvTimeline    *timeline,
                                                  const char    *text,
                                                  const char    *main_label,
                                                  guint8        *matches);

/* LANE's short label, as the lanes and every list of them show it:
 * MAIN_LABEL (say, "main") for a main thread, "T" and its place in the
 * display order (from 1) for the others, "T2", "T3"...  Thread ids are
 * long and the format records no thread names.  Free with g_free(). */
char                 *tv_timeline_dup_lane_label (TvTimeline    *timeline,
                                                  guint          lane,
                                                  const char    *main_label);

/* A time or a duration in microseconds, as the timeline writes it:
 * "1.250 s", "12.500 ms", "80 µs".  Free with g_free(). */
char                 *tv_timeline_format_time    (double         us);

/* The state's samples out of a column. */
guint64               tv_timeline_column_get_state (const TvTimelineColumn *column,
                                                    TvTimelineState         state);
/* The TvQuery status filter (status & MASK) == VALUE that keeps STATE's
 * samples, for a click on the legend. */
void                  tv_timeline_state_get_filter (TvTimelineState  state,
                                                    guint8          *mask,
                                                    guint8          *value);

/* A sub-second heatmap in the style of FlameScope: column k is the k-th
 * second from the origin, row r the offsets [r * row, (r + 1) * row)
 * microseconds within it (the last row may be shorter), and each cell
 * counts the samples of some lanes. */
typedef struct _TvTimelineHeatmap TvTimelineHeatmap;

/* The heatmap view's rows, in microseconds: 50 to a second (or to a
 * column, of a shorter column). */
#define TV_HEATMAP_ROW_DURATION 20000
/* The columns tv_timeline_heatmap_pick_column_duration() aims for. */
#define TV_HEATMAP_MIN_COLUMNS  12

/* LANES: N_LANES lane numbers, or NULL for all.  Only samples whose
 * (status & STATUS_MASK) == STATUS_VALUE count (a mask of 0 counts all),
 * as in TvQuery.  ROW_DURATION: in microseconds, 1 to 1000000 (20000
 * gives 50 rows).  Exact; NULL if CANCELLABLE was cancelled.  A heatmap
 * has at most 32767 columns and 2^24 cells: a profile of more seconds
 * than that (over nine hours) shows its first ones. */
TvTimelineHeatmap *tv_timeline_heatmap_new        (TvTimeline        *timeline,
                                                   const guint32     *lanes,
                                                   guint              n_lanes,
                                                   guint8             status_mask,
                                                   guint8             status_value,
                                                   guint64            row_duration,
                                                   GCancellable      *cancellable);
/* The same with columns of COLUMN_DURATION microseconds (1 to 1000000;
 * ROW_DURATION at most), column k starting k * COLUMN_DURATION after the
 * origin. */
TvTimelineHeatmap *tv_timeline_heatmap_new_full   (TvTimeline        *timeline,
                                                   const guint32     *lanes,
                                                   guint              n_lanes,
                                                   guint8             status_mask,
                                                   guint8             status_value,
                                                   guint64            column_duration,
                                                   guint64            row_duration,
                                                   GCancellable      *cancellable);
/* A column per second, but for a profile of fewer than
 * TV_HEATMAP_MIN_COLUMNS seconds: the longest of 500, 200, 100, 50, 20
 * and 10 ms that makes that many columns, as long as a fiftieth of it
 * (a row) is no shorter than the sampling interval.  A 1.3 s profile
 * is two columns of seconds, or 13 of 100 ms. */
guint64            tv_timeline_heatmap_pick_column_duration (TvTimeline *timeline);
TvTimelineHeatmap *tv_timeline_heatmap_ref        (TvTimelineHeatmap *heatmap);
void               tv_timeline_heatmap_unref      (TvTimelineHeatmap *heatmap);

TvTimeline        *tv_timeline_heatmap_get_timeline (TvTimelineHeatmap *heatmap);
guint              tv_timeline_heatmap_get_n_columns (TvTimelineHeatmap *heatmap);
guint              tv_timeline_heatmap_get_n_rows    (TvTimelineHeatmap *heatmap);
guint64            tv_timeline_heatmap_get_column_duration (TvTimelineHeatmap *heatmap);
guint64            tv_timeline_heatmap_get_row_duration (TvTimelineHeatmap *heatmap);
guint64            tv_timeline_heatmap_get_count     (TvTimelineHeatmap *heatmap,
                                                      guint              column,
                                                      guint              row);
guint64            tv_timeline_heatmap_get_max_count (TvTimelineHeatmap *heatmap);
/* The absolute timestamps a cell covers, [START, END). */
void               tv_timeline_heatmap_get_cell_range (TvTimelineHeatmap *heatmap,
                                                       guint              column,
                                                       guint              row,
                                                       guint64           *start,
                                                       guint64           *end);
/* The time ranges of the cells in columns COLUMN0..COLUMN1 and rows
 * ROW0..ROW1 (inclusive, in any order): sorted, disjoint, and merged
 * where they touch (a rectangle of every row is one range).  Free with
 * g_free().  Sets N_RANGES; NULL when it is 0. */
TvTimeRange       *tv_timeline_heatmap_select     (TvTimelineHeatmap *heatmap,
                                                   guint              column0,
                                                   guint              row0,
                                                   guint              column1,
                                                   guint              row1,
                                                   guint             *n_ranges);

/* Samples of LANE (or TV_TIMELINE_ALL) in the N sorted, disjoint RANGES;
 * COUNTS, if not NULL, receives the states too. */
guint64            tv_timeline_count_ranges       (TvTimeline        *timeline,
                                                   guint              lane,
                                                   const TvTimeRange *ranges,
                                                   guint              n,
                                                   TvTimelineColumn  *counts);
/* How long the N disjoint RANGES last in all, in microseconds. */
guint64            tv_time_ranges_get_duration    (const TvTimeRange *ranges,
                                                   guint              n);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TvTimeline, tv_timeline_unref)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TvTimelineHeatmap, tv_timeline_heatmap_unref)

G_END_DECLS
