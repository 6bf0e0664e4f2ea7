/* tv-timeline-build.c: the timeline's bins, built once
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One pass over the samples, in blocks of time across the threads, fills
 * the finest level of each lane and of the overview; every coarser level
 * is then four bins of the level below added up.
 */
#include "tv-timeline-private.h"
#include "tachyon-format.h"

#include <math.h>
#include <string.h>

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
  guint64 *sorted;

  for (guint64 i = 0; i < t->n_samples; i++)
    {
      pairs[i].timestamp = tv_times_get (&t->times, i);
      pairs[i].status = tv_statuses_get (&t->statuses, i);
    }
  g_qsort_with_data (pairs, t->n_samples, sizeof (TimedStatus), compare_timed, NULL);
  sorted = g_new (guint64, t->n_samples);
  lane->sorted_statuses.bytes = g_new (guint8, t->n_samples);
  lane->sorted_statuses.wide = TRUE;
  for (guint64 i = 0; i < t->n_samples; i++)
    {
      sorted[i] = pairs[i].timestamp;
      lane->sorted_statuses.bytes[i] = pairs[i].status;
    }
  g_free (pairs);
  tv_times_init_from (&lane->sorted_times, sorted, t->n_samples);
  g_free (sorted);
  lane->times = &lane->sorted_times;
  lane->statuses = &lane->sorted_statuses;
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

/* Where a pass puts one level's counts: the bin being counted, and its
 * consecutive samples a byte each in one word, which goes to the bin
 * when the bin changes or a byte could overflow. */
typedef struct
{
  Level   *level;
  guint64  bin;
  guint64  acc;
  guint    n;
} BinAcc;

static inline void
bin_acc_add (BinAcc  *a,
             guint64  offset,
             guint64  packed)
{
  guint64 b = offset >> a->level->shift;

  if (b != a->bin || a->n == 255)
    {
      if (a->n > 0)
        bin_add_packed (&a->level->bins[a->bin - a->level->first_bin], a->acc);
      a->bin = b;
      a->acc = 0;
      a->n = 0;
    }
  a->acc += packed;
  a->n++;
}

static inline void
bin_acc_flush (BinAcc *a)
{
  if (a->n > 0)
    bin_add_packed (&a->level->bins[a->bin - a->level->first_bin], a->acc);
}

/* The overview's counts of one block of time (see fill_levels()).  A
 * lane's next sample is seldom in the overview's bin of its last, which
 * holds every lane's samples: a BinAcc would go to the bin at every
 * sample.  Here a bin is two words of 16-bit counts in an array of the
 * block's bins, small enough to stay in the cache, and goes to the
 * overview when the block ends, or before a count could pass 65,535. */
#define BLOCK_BINS_SHIFT 12
#define BLOCK_BINS       (1u << BLOCK_BINS_SHIFT)

typedef struct
{
  Level   *level;
  guint64  first;               /* the block's first bin */
  guint32  n_bins;              /* of those, the bins of the level */
  guint32  pending;             /* samples added since the last flush */
  guint64  words[2 * BLOCK_BINS];
  /* What a status adds: samples and counts 0 to 2, counts 3 to 6. */
  guint64  add[64][2];
} BlockAcc;

static void
block_acc_init (BlockAcc          *o,
                Level             *level,
                const StatusTable *table)
{
  o->level = level;
  o->first = level->first_bin;
  o->n_bins = 0;
  o->pending = 0;
  memset (o->words, 0, sizeof o->words);
  for (guint s = 0; s < 64; s++)
    {
      o->add[s][0] = o->add[s][1] = 0;
      for (guint k = 0; k < 4; k++)
        {
          o->add[s][0] |= (guint64) table->add[s][k] << (16 * k);
          o->add[s][1] |= (guint64) table->add[s][k + 4] << (16 * k);
        }
    }
}

static void
block_acc_flush (BlockAcc *o)
{
  for (guint32 i = 0; i < o->n_bins; i++)
    {
      guint64 lo = o->words[2 * i], hi = o->words[2 * i + 1];
      TvTimelineBin *bin;

      if (lo == 0)
        continue;
      bin = &o->level->bins[o->first + i - o->level->first_bin];
      bin->samples += lo & 0xffff;
      for (guint k = 0; k < 3; k++)
        bin->counts[k] += (lo >> (16 * (k + 1))) & 0xffff;
      for (guint k = 0; k < 4; k++)
        bin->counts[k + 3] += (hi >> (16 * k)) & 0xffff;
      o->words[2 * i] = o->words[2 * i + 1] = 0;
    }
  o->pending = 0;
}

/* Flushes O, and makes it the block of bins from FIRST on. */
static void
block_acc_start (BlockAcc *o,
                 guint64   first)
{
  const Level *level = o->level;

  block_acc_flush (o);
  o->first = first;
  o->n_bins = first >= level->first_bin + level->n_bins ? 0
              : (guint32) MIN (BLOCK_BINS, level->first_bin + level->n_bins - first);
}

/* Adds a sample at OFFSET to O, what ADD (one of O's) says.  The caller
 * keeps O's count of samples since its flush (see fill_bins()). */
static inline void
block_acc_add (BlockAcc      *o,
               guint64        offset,
               const guint64 *add)
{
  guint64 i = (offset >> o->level->shift) - o->first;

  g_assert (i < o->n_bins);
  o->words[2 * i] += add[0];
  o->words[2 * i + 1] += add[1];
}

/* Counts samples START to END (in time order) into LANE's finest bins and
 * the block of the overview's ALL (either may be NULL), reading each
 * sample once, a block of timestamps at a time. */
static void
fill_bins (Level             *lane,
           BlockAcc          *all,
           const TvTimes     *times,
           const TvStatuses  *statuses,
           guint64            start,
           guint64            end,
           guint64            origin,
           const StatusTable *table)
{
  BinAcc a = { lane, G_MAXUINT64, 0, 0 };
  guint64 ts[TV_TIMES_BLOCK];
  guint8 st[TV_TIMES_BLOCK];
  /* The statuses as kept (see TvStatuses) are read as they are: a
   * palette's indices (through one whose index is its entry), or the
   * status itself.  What each adds to the lane's bins (StatusTable.packed)
   * and to the overview's (BlockAcc.add): */
  TvStatuses indices = *statuses;
  guint n_kinds = statuses->wide ? 64 : TV_STATUSES_PALETTE;
  guint8 mask = (guint8) (n_kinds - 1);
  guint64 lane_add[64];
  const guint64 *all_add[64];

  for (guint k = 0; k < n_kinds; k++)
    {
      guint s = statuses->wide ? k : statuses->palette[k] & 0x3f;

      lane_add[k] = table->packed[s];
      all_add[k] = all != NULL ? all->add[s] : NULL;
      if (!statuses->wide)
        indices.palette[k] = (guint8) k;
    }

  for (guint64 s = start; s < end;)
    {
      guint n = (guint) MIN (end - s, TV_TIMES_BLOCK - s % TV_TIMES_BLOCK);

      tv_times_read (times, s, n, ts);
      tv_statuses_read (&indices, s, n, st);
      /* The overview's 16-bit counts have room for this block. */
      if (all != NULL && all->pending + n >= G_MAXUINT16)
        block_acc_flush (all);
      if (lane != NULL && all != NULL)
        for (guint i = 0; i < n; i++)
          {
            guint64 offset = ts[i] - origin;
            guint k = st[i] & mask;

            bin_acc_add (&a, offset, lane_add[k]);
            block_acc_add (all, offset, all_add[k]);
          }
      else if (lane != NULL)
        for (guint i = 0; i < n; i++)
          bin_acc_add (&a, ts[i] - origin, lane_add[st[i] & mask]);
      else if (all != NULL)
        for (guint i = 0; i < n; i++)
          block_acc_add (all, ts[i] - origin, all_add[st[i] & mask]);
      if (all != NULL)
        all->pending += n;
      s += n;
    }
  if (lane != NULL)
    bin_acc_flush (&a);
}

static int
compare_first_sample (gconstpointer a,
                      gconstpointer b,
                      gpointer      user_data)
{
  const LaneData *lanes = user_data;
  guint64 x = tv_times_get (lanes[*(const guint32 *) a].times, 0);
  guint64 y = tv_times_get (lanes[*(const guint32 *) b].times, 0);

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
  const StatusTable *table = tv_timeline_status_table ();
  Level *all0 = self->all.levels;
  g_autofree BlockAcc *block = NULL;
  guint64 span = self->last - self->origin;
  g_autofree guint64 *done = g_new0 (guint64, MAX (self->n_lanes, 1));
  g_autofree guint32 *by_start = g_new (guint32, MAX (self->n_lanes, 1));
  g_autofree guint32 *active = g_new (guint32, MAX (self->n_lanes, 1));
  guint n_started = 0, n_waiting = 0, n_active = 0;
  guint block_shift, n_blocks;

  /* Blocks of 4096 of the overview's bins (128 KiB), and at most 4096:
   * the overview has at most MAX_BINS, so they are, and it takes them a
   * block at a time (BlockAcc). */
  G_STATIC_ASSERT (MAX_BINS <= (G_GUINT64_CONSTANT (1) << (2 * BLOCK_BINS_SHIFT)));
  block_shift = all0 != NULL ? all0->shift + BLOCK_BINS_SHIFT : 0;
  while (block_shift < 63 && (span >> block_shift) >= 4096)
    block_shift++;
  n_blocks = (guint) (span >> block_shift) + 1;
  if (all0 != NULL)
    {
      g_assert (block_shift == all0->shift + BLOCK_BINS_SHIFT);
      block = g_new (BlockAcc, 1);
      block_acc_init (block, all0, table);
    }

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
                 || tv_times_get (self->lane_data[by_start[n_started]].times, 0) < block_end))
        active[n_active++] = by_start[n_started++];
      if (block != NULL)
        block_acc_start (block, (guint64) b << BLOCK_BINS_SHIFT);
      for (guint a = 0; a < n_active;)
        {
          guint i = active[a];
          LaneData *lane = &self->lane_data[i];
          guint64 end;

          end = last_block ? lane->n_samples
                : tv_times_gallop (lane->times, done[i], block_end);
          fill_bins (lane->levels, block, lane->times, lane->statuses, done[i], end,
                     self->origin, table);
          done[i] = end;
          if (end == lane->n_samples)
            active[a] = active[--n_active];
          else
            a++;
        }
      if (g_cancellable_is_cancelled (cancellable))
        return FALSE;
    }
  if (block != NULL)
    block_acc_flush (block);
  return TRUE;
}

static void
lane_data_clear (LaneData *lane)
{
  /* Level 0's bins, and the block of all the others (build_levels ()). */
  for (guint l = 0; l < MIN (lane->n_levels, 2); l++)
    g_free (lane->levels[l].bins);
  g_clear_pointer (&lane->levels, g_free);
  tv_times_clear (&lane->sorted_times);
  g_clear_pointer (&lane->sorted_statuses.bytes, g_free);
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
          lane->times = &t->times;
          lane->statuses = &t->statuses;
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
