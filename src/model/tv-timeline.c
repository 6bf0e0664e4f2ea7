/* tv-timeline.c: per-thread bins at several resolutions, and a heatmap
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Building is one pass over the samples, in blocks of time across the
 * threads, which fills the finest level of each lane and of the overview;
 * every coarser level is then four bins of the level below added up.  A
 * status byte is counted through a table of what it adds to each count, a
 * byte per count in one word, so that a bin's consecutive samples cost one
 * addition each and their word goes into the bin when the bin changes.
 * Windows counted from samples do the same per column.
 *
 * Queries never walk more than the columns asked for plus the bins or
 * samples inside the window: a window's bins are found by arithmetic, its
 * samples by bisection.
 */
#include "tv-timeline.h"
#include "tachyon-format.h"

#include <math.h>
#include <string.h>

/* At most this many samples to a bin of the finest level, on average
 * (so between half this and this): fewer and the bins would take more
 * memory than the samples they count (32 bytes against 9) and save little,
 * since a window narrower than them has few samples per column to count;
 * more and such a window of every lane would cost more than a frame. */
#define SAMPLES_PER_BIN   16
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
  /* The samples in time order: the thread's own arrays, or sorted copies
   * (owned) when the thread's are not in order. */
  const guint64 *timestamps;
  const guint8  *statuses;
  guint64       *sorted_timestamps;
  guint8        *sorted_statuses;
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

/* ------------------------------------------------------------------------ */
/* Counting statuses                                                         */
/* ------------------------------------------------------------------------ */

/* What a status byte adds to each count: samples first, then the
 * TvTimelineCount order.  Only the low six bits are status bits. */
typedef struct
{
  guint32 add[64][TV_TIMELINE_N_COUNTS + 1];
  /* The same, a byte each: adding these to a word counts up to 255
   * samples with one addition each. */
  guint64 packed[64];
} StatusTable;

static void
status_counts (guint8   status,
               guint32 *add)
{
  gboolean gil = (status & TACH_STATUS_HAS_GIL) != 0;
  gboolean cpu = (status & TACH_STATUS_ON_CPU) != 0;
  gboolean wait = (status & TACH_STATUS_GIL_REQUESTED) != 0;

  add[0] = 1;
  add[1 + TV_TIMELINE_COUNT_HAS_GIL] = gil;
  add[1 + TV_TIMELINE_COUNT_ON_CPU] = cpu;
  add[1 + TV_TIMELINE_COUNT_GIL_REQUESTED] = wait;
  add[1 + TV_TIMELINE_COUNT_EXCEPTION] = (status & TACH_STATUS_HAS_EXCEPTION) != 0;
  add[1 + TV_TIMELINE_COUNT_UNKNOWN] = (status & TACH_STATUS_UNKNOWN) != 0;
  add[1 + TV_TIMELINE_COUNT_IDLE] = !gil && !cpu && !wait;
  add[1 + TV_TIMELINE_COUNT_NATIVE] = cpu && !gil && !wait;
}

static const StatusTable *
status_table (void)
{
  static StatusTable table;
  static gsize ready = 0;

  if (g_once_init_enter (&ready))
    {
      for (guint s = 0; s < 64; s++)
        {
          status_counts (s, table.add[s]);
          table.packed[s] = 0;
          for (guint k = 0; k <= TV_TIMELINE_N_COUNTS; k++)
            table.packed[s] |= (guint64) table.add[s][k] << (8 * k);
        }
      g_once_init_leave (&ready, 1);
    }
  return &table;
}

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

/* Adds the statuses ST[START..END) to COLUMN, eight bytes at a time: each
 * count is a bit (or a combination of bits) masked out of every byte of a
 * word, the words added with every byte counting up to 255. */
static void
column_add_statuses (TvTimelineColumn *column,
                     const guint8     *st,
                     guint64           start,
                     guint64           end)
{
  const guint64 ones = G_GUINT64_CONSTANT (0x0101010101010101);
  const StatusTable *table = status_table ();
  guint64 s = start;

  while (end - s >= 8)
    {
      guint64 n = MIN ((end - s) / 8, 255);
      guint64 gil = 0, cpu = 0, wait = 0, exception = 0, unknown = 0, busy = 0, native = 0;

      for (guint64 i = 0; i < n; i++, s += 8)
        {
          guint64 x;

          memcpy (&x, st + s, sizeof x);
          gil += x & ones;
          cpu += (x >> 1) & ones;
          unknown += (x >> 2) & ones;
          wait += (x >> 3) & ones;
          exception += (x >> 4) & ones;
          busy += (x | (x >> 1) | (x >> 3)) & ones;
          native += (x >> 1) & ~x & ~(x >> 3) & ones;
        }
      column->samples += n * 8;
      column->counts[TV_TIMELINE_COUNT_HAS_GIL] += sum_bytes (gil);
      column->counts[TV_TIMELINE_COUNT_ON_CPU] += sum_bytes (cpu);
      column->counts[TV_TIMELINE_COUNT_GIL_REQUESTED] += sum_bytes (wait);
      column->counts[TV_TIMELINE_COUNT_EXCEPTION] += sum_bytes (exception);
      column->counts[TV_TIMELINE_COUNT_UNKNOWN] += sum_bytes (unknown);
      column->counts[TV_TIMELINE_COUNT_IDLE] += n * 8 - sum_bytes (busy);
      column->counts[TV_TIMELINE_COUNT_NATIVE] += sum_bytes (native);
    }
  for (; s < end; s++)
    column_add_status (column, table, st[s]);
}

/* ------------------------------------------------------------------------ */
/* Searching                                                                 */
/* ------------------------------------------------------------------------ */

/* The first index of the N sorted TS with a value >= VALUE. */
static guint64
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
static guint64
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

/* ------------------------------------------------------------------------ */
/* Building                                                                  */
/* ------------------------------------------------------------------------ */

typedef struct
{
  guint64 timestamp;
  guint8  status;
} TimedStatus;

static int
compare_timed (gconstpointer a,
               gconstpointer b,
               gpointer      user_data)
{
  guint64 x = ((const TimedStatus *) a)->timestamp;
  guint64 y = ((const TimedStatus *) b)->timestamp;

  return (x > y) - (x < y);
}

/* Sorted copies of a thread's samples whose clock went backwards.  The
 * sort is stable, so samples of one timestamp keep their file order. */
static void
sort_samples (LaneData       *lane,
              const TvThread *t)
{
  TimedStatus *pairs = g_new (TimedStatus, t->n_samples);

  for (guint64 i = 0; i < t->n_samples; i++)
    {
      pairs[i].timestamp = t->timestamps[i];
      pairs[i].status = t->statuses[i];
    }
  g_qsort_with_data (pairs, t->n_samples, sizeof (TimedStatus), compare_timed, NULL);
  lane->sorted_timestamps = g_new (guint64, t->n_samples);
  lane->sorted_statuses = g_new (guint8, t->n_samples);
  for (guint64 i = 0; i < t->n_samples; i++)
    {
      lane->sorted_timestamps[i] = pairs[i].timestamp;
      lane->sorted_statuses[i] = pairs[i].status;
    }
  g_free (pairs);
  lane->timestamps = lane->sorted_timestamps;
  lane->statuses = lane->sorted_statuses;
}

/* The finest shift for N samples from FIRST to LAST (since the origin):
 * the widest bins that hold at most SAMPLES_PER_BIN samples on average,
 * as long as there are at most MAX_BINS of them. */
static guint
pick_shift (guint64 n,
            guint64 first,
            guint64 last)
{
  guint shift = 0;

  while (shift < 62)
    {
      guint64 n_bins = (last >> (shift + 1)) - (first >> (shift + 1)) + 1;
      /* Twice as wide, in floating point: samples times width can pass
       * 2^64. */
      double wider = ldexp (1.0, shift + 1);

      if (n_bins <= MAX_BINS && wider * (double) n > SAMPLES_PER_BIN * (double) (last - first + 1))
        break;
      shift++;
    }
  /* Still too many bins (a span of hours of a busy thread): wider. */
  while (shift < 62 && (last >> shift) - (first >> shift) + 1 > MAX_BINS)
    shift++;
  return shift;
}

/* The geometry of the level above BELOW; FALSE when BELOW is the last
 * (one bin holds everything). */
static gboolean
level_above (const Level *below,
             Level       *up)
{
  if (below->n_bins <= 1 || below->shift + LEVEL_STEP >= 64)
    return FALSE;
  up->shift = below->shift + LEVEL_STEP;
  up->first_bin = below->first_bin >> LEVEL_STEP;
  up->n_bins = ((below->first_bin + below->n_bins - 1) >> LEVEL_STEP) - up->first_bin + 1;
  up->bins = NULL;
  return TRUE;
}

/* The levels above level 0, each summing groups of 1 << LEVEL_STEP bins
 * of the one below, until one bin holds everything.  Their bins are one
 * block (level 1's), and the levels one array: a hundred thousand lanes
 * of a few samples make as few allocations as there are lanes. */
static void
build_levels (LaneData *lane)
{
  guint n_levels = 1;
  guint64 n_bins = 0;
  TvTimelineBin *block;
  Level probe = lane->levels[0], up;

  while (level_above (&probe, &up))
    {
      n_levels++;
      n_bins += up.n_bins;
      probe = up;
    }
  if (n_levels == 1)
    return;
  lane->levels = g_renew (Level, lane->levels, n_levels);
  block = g_new0 (TvTimelineBin, n_bins);
  for (guint l = 1; l < n_levels; l++)
    {
      const Level *below = &lane->levels[l - 1];
      Level *level = &lane->levels[l];

      level_above (below, level);
      level->bins = block;
      block += level->n_bins;
      for (guint64 i = 0; i < below->n_bins; i++)
        {
          const TvTimelineBin *from = &below->bins[i];
          TvTimelineBin *to = &level->bins[((below->first_bin + i) >> LEVEL_STEP)
                                           - level->first_bin];

          to->samples += from->samples;
          for (guint k = 0; k < TV_TIMELINE_N_COUNTS; k++)
            to->counts[k] += from->counts[k];
        }
    }
  lane->n_levels = n_levels;
}

/* Level 0 of LANE, empty, for N samples from FIRST to LAST since the
 * origin; none when the counts could overflow 32 bits (such a lane is
 * always counted from its samples). */
static void
init_level0 (LaneData *lane,
             guint64   n,
             guint64   first,
             guint64   last)
{
  Level *level;

  if (n == 0 || n > G_MAXUINT32)
    return;
  level = lane->levels = g_new0 (Level, 1);
  lane->n_levels = 1;
  level->shift = pick_shift (n, first, last);
  level->first_bin = first >> level->shift;
  level->n_bins = (last >> level->shift) - level->first_bin + 1;
  level->bins = g_new0 (TvTimelineBin, level->n_bins);
}

/* Counts samples START to END (in time order) into LEVEL's bins.  A bin's
 * consecutive samples are counted a byte each in one word, which goes to
 * the bin when the bin changes or a byte could overflow. */
static void
fill_bins (Level             *level,
           const guint64     *timestamps,
           const guint8      *statuses,
           guint64            start,
           guint64            end,
           guint64            origin,
           const StatusTable *table)
{
  guint shift = level->shift;
  guint64 first = level->first_bin;
  guint64 bin = G_MAXUINT64, acc = 0;
  guint n = 0;

  for (guint64 s = start; s < end; s++)
    {
      guint64 b = (timestamps[s] - origin) >> shift;

      if (b != bin || n == 255)
        {
          if (n > 0)
            bin_add_packed (&level->bins[bin - first], acc);
          bin = b;
          acc = 0;
          n = 0;
        }
      acc += table->packed[statuses[s] & 0x3f];
      n++;
    }
  if (n > 0)
    bin_add_packed (&level->bins[bin - first], acc);
}

static int
compare_first_sample (gconstpointer a,
                      gconstpointer b,
                      gpointer      user_data)
{
  const LaneData *lanes = user_data;
  guint64 x = lanes[*(const guint32 *) a].timestamps[0];
  guint64 y = lanes[*(const guint32 *) b].timestamps[0];

  return (x > y) - (x < y);
}

/* The one pass over the samples, in blocks of time: each lane's samples
 * of a block go into its finest bins and the overview's, so that the bins
 * being filled, a block's worth, stay in the cache while every thread
 * walks the whole profile.  A block visits only the lanes with samples
 * left that started before its end: of many threads, few live at once,
 * and a block per lane per block of the profile would cost a hundred
 * thousand lanes times 4096 blocks.  FALSE if cancelled. */
static gboolean
fill_levels (TvTimeline   *self,
             GCancellable *cancellable)
{
  const StatusTable *table = status_table ();
  Level *all0 = self->all.levels;
  guint64 span = self->last - self->origin;
  g_autofree guint64 *done = g_new0 (guint64, MAX (self->n_lanes, 1));
  g_autofree guint32 *by_start = g_new (guint32, MAX (self->n_lanes, 1));
  g_autofree guint32 *active = g_new (guint32, MAX (self->n_lanes, 1));
  guint n_started = 0, n_waiting = 0, n_active = 0;
  guint block_shift, n_blocks;

  /* Blocks of 4096 of the overview's bins (128 KiB), and at most 4096. */
  block_shift = all0 != NULL ? all0->shift + 12 : 0;
  while (block_shift < 63 && (span >> block_shift) >= 4096)
    block_shift++;
  n_blocks = (guint) (span >> block_shift) + 1;

  /* The lanes with samples, by their first one in time order. */
  for (guint i = 0; i < self->n_lanes; i++)
    if (self->lane_data[i].n_samples > 0)
      by_start[n_waiting++] = i;
  g_qsort_with_data (by_start, n_waiting, sizeof (guint32), compare_first_sample,
                     self->lane_data);

  for (guint b = 0; b < n_blocks; b++)
    {
      gboolean last_block = b + 1 == n_blocks;
      guint64 block_end = self->origin + ((guint64) (b + 1) << block_shift);

      while (n_started < n_waiting
             && (last_block
                 || self->lane_data[by_start[n_started]].timestamps[0] < block_end))
        active[n_active++] = by_start[n_started++];
      for (guint a = 0; a < n_active;)
        {
          guint i = active[a];
          LaneData *lane = &self->lane_data[i];
          guint64 end;

          end = last_block ? lane->n_samples
                : gallop (lane->timestamps, lane->n_samples, done[i], block_end);
          if (lane->levels != NULL)
            fill_bins (lane->levels, lane->timestamps, lane->statuses, done[i], end,
                       self->origin, table);
          if (all0 != NULL)
            fill_bins (all0, lane->timestamps, lane->statuses, done[i], end, self->origin, table);
          done[i] = end;
          if (end == lane->n_samples)
            active[a] = active[--n_active];
          else
            a++;
        }
      if (g_cancellable_is_cancelled (cancellable))
        return FALSE;
    }
  return TRUE;
}

static void
lane_data_clear (LaneData *lane)
{
  /* Level 0's bins, and the block of all the others (build_levels ()). */
  for (guint l = 0; l < MIN (lane->n_levels, 2); l++)
    g_free (lane->levels[l].bins);
  g_clear_pointer (&lane->levels, g_free);
  g_clear_pointer (&lane->sorted_timestamps, g_free);
  g_clear_pointer (&lane->sorted_statuses, g_free);
  lane->n_levels = 0;
}

/**
 * tv_timeline_new:
 *
 * Bins every thread of @data.  Safe on any thread.
 *
 * Returns: (transfer full) (nullable): the timeline, or %NULL if
 *   @cancellable was cancelled
 */
TvTimeline *
tv_timeline_new (TvProfileData *data,
                 GCancellable  *cancellable)
{
  g_autoptr(TvTimeline) self = NULL;

  g_return_val_if_fail (data != NULL, NULL);

  self = g_new0 (TvTimeline, 1);
  g_atomic_ref_count_init (&self->ref_count);
  self->data = tv_profile_data_ref (data);
  self->has_samples = tv_profile_data_get_time_span (data, &self->origin, &self->last);
  if (!self->has_samples)
    self->origin = self->last = 0;
  self->n_samples = tv_profile_data_get_n_samples (data);
  self->interval = tv_profile_data_get_seconds_per_sample (data, NULL) * 1e6;
  if (!isfinite (self->interval) || self->interval <= 0)
    self->interval = 1000;

  self->n_lanes = tv_profile_data_get_n_threads (data);
  self->lanes = g_new0 (TvTimelineLane, MAX (self->n_lanes, 1));
  self->lane_data = g_new0 (LaneData, MAX (self->n_lanes, 1));
  self->order = g_new (guint32, MAX (self->n_lanes, 1));

  if (self->has_samples)
    init_level0 (&self->all, self->n_samples, 0, self->last - self->origin);

  for (guint i = 0; i < self->n_lanes; i++)
    {
      const TvThread *t = tv_profile_data_get_thread (data, i);
      TvTimelineLane *info = &self->lanes[i];
      LaneData *lane = &self->lane_data[i];

      info->thread_index = t->index;
      info->interpreter_id = t->interpreter_id;
      info->thread_id = t->thread_id;
      info->n_samples = t->n_samples;
      info->main_thread = t->status_counts[g_bit_nth_lsf (TACH_STATUS_MAIN_THREAD, -1)] > 0;
      info->first_timestamp = t->n_samples > 0 ? t->first_timestamp : 0;
      info->last_timestamp = t->n_samples > 0 ? t->last_timestamp : 0;

      lane->n_samples = t->n_samples;
      if (t->n_samples == 0)
        continue;
      if (g_cancellable_is_cancelled (cancellable))
        return NULL;
      if (t->time_ordered)
        {
          lane->timestamps = t->timestamps;
          lane->statuses = t->statuses;
        }
      else
        sort_samples (lane, t);
      init_level0 (lane, t->n_samples, t->first_timestamp - self->origin,
                   t->last_timestamp - self->origin);
    }

  if (self->has_samples && !fill_levels (self, cancellable))
    return NULL;
  for (guint i = 0; i < self->n_lanes; i++)
    if (self->lane_data[i].levels != NULL)
      build_levels (&self->lane_data[i]);
  if (self->all.levels != NULL)
    build_levels (&self->all);

  /* The data's order of threads is the lanes'. */
  memcpy (self->order, tv_profile_data_get_thread_order (data),
          self->n_lanes * sizeof (guint32));
  for (guint p = 0; p < self->n_lanes; p++)
    self->lanes[self->order[p]].position = p;

  /* The interpreters, in the display order of their lanes. */
  self->interpreters = g_new (guint32, MAX (self->n_lanes, 1));
  for (guint p = 0; p < self->n_lanes; p++)
    {
      guint32 interp = self->lanes[self->order[p]].interpreter_id;

      if (self->n_interpreters == 0 || self->interpreters[self->n_interpreters - 1] != interp)
        self->interpreters[self->n_interpreters++] = interp;
    }
  return g_steal_pointer (&self);
}

TvTimeline *
tv_timeline_ref (TvTimeline *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_atomic_ref_count_inc (&self->ref_count);
  return self;
}

void
tv_timeline_unref (TvTimeline *self)
{
  if (self == NULL || !g_atomic_ref_count_dec (&self->ref_count))
    return;
  if (self->lane_data != NULL)
    for (guint i = 0; i < self->n_lanes; i++)
      lane_data_clear (&self->lane_data[i]);
  lane_data_clear (&self->all);
  g_free (self->lane_data);
  g_free (self->lanes);
  g_free (self->order);
  g_free (self->interpreters);
  g_clear_pointer (&self->data, tv_profile_data_unref);
  g_free (self);
}

/* ------------------------------------------------------------------------ */
/* Lanes and times                                                           */
/* ------------------------------------------------------------------------ */

TvProfileData *
tv_timeline_get_data (TvTimeline *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->data;
}

guint
tv_timeline_get_n_lanes (TvTimeline *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->n_lanes;
}

const TvTimelineLane *
tv_timeline_get_lane (TvTimeline *self,
                      guint       lane)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (lane < self->n_lanes, NULL);
  return &self->lanes[lane];
}

const guint32 *
tv_timeline_get_order (TvTimeline *self,
                       guint      *n_lanes)
{
  g_return_val_if_fail (self != NULL, NULL);
  if (n_lanes != NULL)
    *n_lanes = self->n_lanes;
  return self->order;
}

const guint32 *
tv_timeline_get_interpreters (TvTimeline *self,
                              guint      *n_interpreters)
{
  g_return_val_if_fail (self != NULL, NULL);
  if (n_interpreters != NULL)
    *n_interpreters = self->n_interpreters;
  return self->interpreters;
}

gboolean
tv_timeline_get_span (TvTimeline *self,
                      guint64    *first,
                      guint64    *last)
{
  g_return_val_if_fail (self != NULL, FALSE);
  if (first != NULL)
    *first = self->origin;
  if (last != NULL)
    *last = self->last;
  return self->has_samples;
}

guint64
tv_timeline_get_origin (TvTimeline *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->origin;
}

guint64
tv_timeline_get_duration (TvTimeline *self)
{
  g_return_val_if_fail (self != NULL, 0);
  if (!self->has_samples)
    return 0;
  /* A span of every timestamp would be 2^64: one short of it will do. */
  return self->last - self->origin == G_MAXUINT64 ? G_MAXUINT64 : self->last - self->origin + 1;
}

double
tv_timeline_get_interval (TvTimeline *self)
{
  g_return_val_if_fail (self != NULL, 1000);
  return self->interval;
}

/* Microseconds since the origin of the first whole microsecond at or
 * after TIME, clamped to [0, 2^63]. */
static inline guint64
time_edge (double time)
{
  guint64 whole;

  if (!(time > 0))
    return 0;
  if (time >= 9223372036854775808.0)
    return G_GUINT64_CONSTANT (1) << 63;
  /* ceil (), without a call into libm: it runs for every column. */
  whole = (guint64) time;
  return (double) whole < time ? whole + 1 : whole;
}

guint64
tv_timeline_time_to_timestamp (TvTimeline *self,
                               double      time)
{
  guint64 edge;

  g_return_val_if_fail (self != NULL, 0);
  edge = time_edge (time);
  return edge > G_MAXUINT64 - self->origin ? G_MAXUINT64 : self->origin + edge;
}

gsize
tv_timeline_get_memory_size (TvTimeline *self)
{
  gsize size = 0;

  g_return_val_if_fail (self != NULL, 0);
  for (guint i = 0; i <= self->n_lanes; i++)
    {
      const LaneData *lane = i < self->n_lanes ? &self->lane_data[i] : &self->all;

      for (guint l = 0; l < lane->n_levels; l++)
        size += lane->levels[l].n_bins * sizeof (TvTimelineBin);
      if (lane->sorted_timestamps != NULL)
        size += lane->n_samples * (sizeof (guint64) + 1);
    }
  return size;
}

/* A lane filter's text, folded once for all lanes; matcher_init()
 * returns FALSE when it matches every lane. */
typedef struct
{
  char    *needle;
  char    *main_label;          /* folded, or NULL */
  GString *haystack;
} LaneMatcher;

static gboolean
matcher_init (LaneMatcher *m,
              const char  *text,
              const char  *main_label)
{
  g_autofree char *stripped = NULL;

  memset (m, 0, sizeof *m);
  if (text == NULL)
    return FALSE;
  stripped = g_strstrip (g_strdup (text));
  if (stripped[0] == '\0')
    return FALSE;
  m->needle = g_utf8_casefold (stripped, -1);
  m->main_label = main_label != NULL ? g_utf8_casefold (main_label, -1) : NULL;
  m->haystack = g_string_new (NULL);
  return TRUE;
}

static void
matcher_clear (LaneMatcher *m)
{
  g_free (m->needle);
  g_free (m->main_label);
  if (m->haystack != NULL)
    g_string_free (m->haystack, TRUE);
}

/* The lane's id in decimal and in hexadecimal (already lower case), and
 * the main thread's label, a line each. */
static gboolean
matcher_matches (LaneMatcher          *m,
                 const TvTimelineLane *info)
{
  g_string_truncate (m->haystack, 0);
  g_string_append_printf (m->haystack, "%" G_GUINT64_FORMAT "\n0x%" G_GINT64_MODIFIER "x\n",
                          info->thread_id, info->thread_id);
  if (info->main_thread && m->main_label != NULL)
    {
      g_string_append (m->haystack, m->main_label);
      g_string_append_c (m->haystack, '\n');
    }
  else if (m->needle[0] == 't' && g_ascii_isdigit (m->needle[1]))
    {
      /* The short label, whole: "t1" is not a part of "T12". */
      char *end = NULL;
      guint64 number = g_ascii_strtoull (m->needle + 1, &end, 10);

      if (end != NULL && *end == '\0' && number == (guint64) info->position + 1)
        return TRUE;
    }
  return strstr (m->haystack->str, m->needle) != NULL;
}

gboolean
tv_timeline_lane_matches (TvTimeline *self,
                          guint       lane,
                          const char *text,
                          const char *main_label)
{
  LaneMatcher m;
  gboolean matches;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (lane < self->n_lanes, FALSE);

  if (!matcher_init (&m, text, main_label))
    return TRUE;
  matches = matcher_matches (&m, &self->lanes[lane]);
  matcher_clear (&m);
  return matches;
}

guint
tv_timeline_match_lanes (TvTimeline *self,
                         const char *text,
                         const char *main_label,
                         guint8     *matches)
{
  LaneMatcher m;
  guint n = 0;

  g_return_val_if_fail (self != NULL, 0);
  g_return_val_if_fail (matches != NULL || self->n_lanes == 0, 0);

  if (!matcher_init (&m, text, main_label))
    {
      memset (matches, 1, self->n_lanes);
      return self->n_lanes;
    }
  for (guint i = 0; i < self->n_lanes; i++)
    n += matches[i] = matcher_matches (&m, &self->lanes[i]);
  matcher_clear (&m);
  return n;
}

guint64
tv_timeline_column_get_state (const TvTimelineColumn *column,
                              TvTimelineState         state)
{
  guint64 unknown;

  g_return_val_if_fail (column != NULL, 0);

  /* Idle samples with the unknown bit are unknown; the bit nearly always
   * comes alone, and TACH_STATUS_UNKNOWN with another state bit is that
   * state. */
  unknown = MIN (column->counts[TV_TIMELINE_COUNT_UNKNOWN], column->counts[TV_TIMELINE_COUNT_IDLE]);
  switch (state)
    {
    case TV_TIMELINE_STATE_RUNNING:
      return column->counts[TV_TIMELINE_COUNT_HAS_GIL];
    case TV_TIMELINE_STATE_NATIVE:
      return column->counts[TV_TIMELINE_COUNT_NATIVE];
    case TV_TIMELINE_STATE_WAITING:
      return column->samples - column->counts[TV_TIMELINE_COUNT_HAS_GIL]
             - column->counts[TV_TIMELINE_COUNT_NATIVE] - column->counts[TV_TIMELINE_COUNT_IDLE];
    case TV_TIMELINE_STATE_EXCEPTION:
      return column->counts[TV_TIMELINE_COUNT_EXCEPTION];
    case TV_TIMELINE_STATE_IDLE:
      return column->counts[TV_TIMELINE_COUNT_IDLE] - unknown;
    case TV_TIMELINE_STATE_UNKNOWN:
      return unknown;
    case TV_TIMELINE_N_STATES:
    default:
      g_return_val_if_reached (0);
    }
}

void
tv_timeline_state_get_filter (TvTimelineState  state,
                              guint8          *mask,
                              guint8          *value)
{
  const guint8 busy = TACH_STATUS_HAS_GIL | TACH_STATUS_ON_CPU | TACH_STATUS_GIL_REQUESTED;
  guint8 m = 0, v = 0;

  switch (state)
    {
    case TV_TIMELINE_STATE_RUNNING:
      m = v = TACH_STATUS_HAS_GIL;
      break;
    case TV_TIMELINE_STATE_NATIVE:
      m = busy;
      v = TACH_STATUS_ON_CPU;
      break;
    case TV_TIMELINE_STATE_WAITING:
      m = TACH_STATUS_HAS_GIL | TACH_STATUS_GIL_REQUESTED;
      v = TACH_STATUS_GIL_REQUESTED;
      break;
    case TV_TIMELINE_STATE_EXCEPTION:
      m = v = TACH_STATUS_HAS_EXCEPTION;
      break;
    case TV_TIMELINE_STATE_IDLE:
      m = busy | TACH_STATUS_UNKNOWN;
      v = 0;
      break;
    case TV_TIMELINE_STATE_UNKNOWN:
      m = busy | TACH_STATUS_UNKNOWN;
      v = TACH_STATUS_UNKNOWN;
      break;
    case TV_TIMELINE_N_STATES:
    default:
      g_return_if_reached ();
    }
  if (mask != NULL)
    *mask = m;
  if (value != NULL)
    *value = v;
}

/* ------------------------------------------------------------------------ */
/* Counting ranges                                                           */
/* ------------------------------------------------------------------------ */

static guint64
lane_count_range (const LaneData   *lane,
                  guint64           start,
                  guint64           end,
                  TvTimelineColumn *counts)
{
  guint64 lo, hi;

  if (lane->n_samples == 0 || start >= end)
    return 0;
  lo = lower_bound (lane->timestamps, lane->n_samples, start);
  hi = lo + lower_bound (lane->timestamps + lo, lane->n_samples - lo, end);
  if (counts != NULL)
    column_add_statuses (counts, lane->statuses, lo, hi);
  return hi - lo;
}

/* lane_count_range () of lane I as a part of every lane: a lane with no
 * sample in the range costs two comparisons and one with all of them in
 * it adds its coarsest bin, so that the overview's counts cost a bisection
 * only for the lanes the range's edges cut, whatever the threads. */
static guint64
count_lane_range (TvTimeline       *self,
                  guint             i,
                  guint64           start,
                  guint64           end,
                  TvTimelineColumn *counts)
{
  const TvTimelineLane *info = &self->lanes[i];
  const LaneData *lane = &self->lane_data[i];

  if (lane->n_samples == 0 || start >= end || info->last_timestamp < start
      || info->first_timestamp >= end)
    return 0;
  if (info->first_timestamp >= start && info->last_timestamp < end)
    {
      const Level *top = lane->n_levels > 0 ? &lane->levels[lane->n_levels - 1] : NULL;

      if (counts == NULL)
        return lane->n_samples;
      if (top != NULL && top->n_bins == 1)
        column_add_bin (counts, &top->bins[0]);
      else
        column_add_statuses (counts, lane->statuses, 0, lane->n_samples);
      return lane->n_samples;
    }
  return lane_count_range (lane, start, end, counts);
}

guint64
tv_timeline_count_range (TvTimeline       *self,
                         guint             lane,
                         guint64           start,
                         guint64           end,
                         TvTimelineColumn *counts)
{
  guint64 n = 0;

  if (counts != NULL)
    memset (counts, 0, sizeof *counts);
  g_return_val_if_fail (self != NULL, 0);
  g_return_val_if_fail (lane < self->n_lanes || lane == TV_TIMELINE_ALL, 0);

  if (lane != TV_TIMELINE_ALL)
    return lane_count_range (&self->lane_data[lane], start, end, counts);
  for (guint i = 0; i < self->n_lanes; i++)
    n += count_lane_range (self, i, start, end, counts);
  return n;
}

gboolean
tv_timeline_find_previous (TvTimeline *self,
                           guint       lane,
                           guint64     before,
                           guint64    *timestamp)
{
  gboolean found = FALSE;
  guint64 latest = 0;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (lane < self->n_lanes || lane == TV_TIMELINE_ALL, FALSE);

  for (guint i = lane == TV_TIMELINE_ALL ? 0 : lane;
       i < (lane == TV_TIMELINE_ALL ? self->n_lanes : lane + 1); i++)
    {
      const LaneData *data = &self->lane_data[i];
      const TvTimelineLane *info = &self->lanes[i];
      guint64 at;

      /* No bisection for a lane wholly before or after BEFORE. */
      if (data->n_samples == 0 || info->first_timestamp >= before)
        continue;
      at = info->last_timestamp < before ? data->n_samples
           : lower_bound (data->timestamps, data->n_samples, before);
      if (at > 0 && (!found || data->timestamps[at - 1] > latest))
        {
          latest = data->timestamps[at - 1];
          found = TRUE;
        }
    }
  if (timestamp != NULL)
    *timestamp = latest;
  return found;
}

guint64
tv_timeline_count_ranges (TvTimeline        *self,
                          guint              lane,
                          const TvTimeRange *ranges,
                          guint              n,
                          TvTimelineColumn  *counts)
{
  guint64 total = 0;

  if (counts != NULL)
    memset (counts, 0, sizeof *counts);
  g_return_val_if_fail (self != NULL, 0);
  g_return_val_if_fail (lane < self->n_lanes || lane == TV_TIMELINE_ALL, 0);
  g_return_val_if_fail (ranges != NULL || n == 0, 0);

  for (guint l = lane == TV_TIMELINE_ALL ? 0 : lane;
       l < (lane == TV_TIMELINE_ALL ? self->n_lanes : lane + 1); l++)
    for (guint i = 0; i < n; i++)
      total += count_lane_range (self, l, ranges[i].start, ranges[i].end, counts);
  return total;
}

guint64
tv_time_ranges_get_duration (const TvTimeRange *ranges,
                             guint              n)
{
  guint64 total = 0;

  g_return_val_if_fail (ranges != NULL || n == 0, 0);

  for (guint i = 0; i < n; i++)
    total += ranges[i].end > ranges[i].start ? ranges[i].end - ranges[i].start : 0;
  return total;
}

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

/* EDGES[c] = ceil (t0 + c (t1 - t0) / n), clamped (see time_edge). */
static void
column_edges (double   t0,
              double   t1,
              guint    n_columns,
              guint64 *edges)
{
  for (guint c = 0; c <= n_columns; c++)
    edges[c] = time_edge (c == n_columns ? t1 : t0 + (t1 - t0) * c / n_columns);
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
  const StatusTable *table = status_table ();
  guint64 i;
  guint c;

  from = MAX (from, edges[0]);
  to = MIN (to, edges[n_columns]);
  if (lane->n_samples == 0 || from >= to || from > G_MAXUINT64 - origin)
    return;
  i = lower_bound (lane->timestamps, lane->n_samples, origin + from);
  c = column_at (edges, n_columns, from);
  while (i < lane->n_samples)
    {
      guint64 r = lane->timestamps[i] - origin, next;
      guint64 acc = 0;
      guint k = 0;

      if (r >= to)
        break;
      while (r >= edges[c + 1])
        c++;
      next = MIN (edges[c + 1], to);
      for (; i < lane->n_samples && k < 255 && lane->timestamps[i] - origin < next; i++, k++)
        acc += table->packed[lane->statuses[i] & 0x3f];
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
          guint64 r = lane->timestamps[i] - origin;
          guint64 column = r / self->column_duration;
          guint64 row = (r % self->column_duration) / self->row_duration;

          if (column < self->n_columns && (lane->statuses[i] & mask) == value)
            self->cells[column * self->n_rows + row]++;
        }
    }
  else
    {
      /* Where each cell ends, found from where the last one did. */
      guint64 i = lower_bound (lane->timestamps, lane->n_samples, origin);

      for (guint column = 0; column < self->n_columns && i < lane->n_samples; column++)
        for (guint row = 0; row < self->n_rows; row++)
          {
            guint64 end = origin + column * self->column_duration + row_offset (self, row + 1);
            guint64 next = gallop (lane->timestamps, lane->n_samples, i, end);

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
