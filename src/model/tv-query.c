/* tv-query.c: what a query selects, and step 1 of a call tree
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A query's predicates over threads, states and time ranges, and the
 * weighing of the exact tree's nodes by the samples it selects, walking
 * each selected thread's leaf runs (a time range is a binary search, a
 * list of ranges one per range).
 */
#include "tv-call-tree-private.h"
#include "tachyon-format.h"
#include "tv-huge-pages.h"

#include <stdlib.h>

void
tv_query_init (TvQuery    *query,
               TvMergeKey  merge)
{
  memset (query, 0, sizeof *query);
  query->merge = merge;
  query->interpreter = -1;
  query->focus_function = TV_NODE_NONE;
  query->callers_of = TV_NODE_NONE;
}

gboolean
tv_time_ranges_are_sorted (const TvTimeRange *ranges,
                           guint              n)
{
  g_return_val_if_fail (ranges != NULL || n == 0, FALSE);

  for (guint i = 0; i < n; i++)
    if (ranges[i].start > ranges[i].end || (i > 0 && ranges[i - 1].end > ranges[i].start))
      return FALSE;
  return TRUE;
}

static int
compare_ranges (gconstpointer a,
                gconstpointer b)
{
  const TvTimeRange *x = a;
  const TvTimeRange *y = b;

  return (x->start > y->start) - (x->start < y->start);
}

guint
tv_time_ranges_normalize (TvTimeRange *ranges,
                          guint        n)
{
  guint kept = 0;

  g_return_val_if_fail (ranges != NULL || n == 0, 0);

  if (n > 1)
    qsort (ranges, n, sizeof *ranges, compare_ranges);
  for (guint i = 0; i < n; i++)
    {
      if (ranges[i].start >= ranges[i].end)
        continue;
      if (kept > 0 && ranges[kept - 1].end >= ranges[i].start)
        ranges[kept - 1].end = MAX (ranges[kept - 1].end, ranges[i].end);
      else
        ranges[kept++] = ranges[i];
    }
  return kept;
}

/* The first of the N RANGES that ends after TS. */
static guint
first_range_after (const TvTimeRange *ranges,
                   guint              n,
                   guint64            ts)
{
  guint lo = 0, hi = n;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (ranges[mid].end <= ts)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

gboolean
tv_time_ranges_contain (const TvTimeRange *ranges,
                        guint              n,
                        guint64            timestamp)
{
  guint k;

  g_return_val_if_fail (ranges != NULL || n == 0, FALSE);

  /* Only the first range that ends after TIMESTAMP may hold it. */
  k = first_range_after (ranges, n, timestamp);
  return k < n && ranges[k].start <= timestamp;
}

G_STATIC_ASSERT (TV_N_RUN_STATES == TV_N_STATUS_COUNTS);

/* The sum of the eight bytes of X, each at most 255. */
static inline guint64
sum_bytes (guint64 x)
{
  x = (x & G_GUINT64_CONSTANT (0x00ff00ff00ff00ff))
      + ((x >> 8) & G_GUINT64_CONSTANT (0x00ff00ff00ff00ff));
  return (x * G_GUINT64_CONSTANT (0x0001000100010001)) >> 48;
}

/* Adds the states of samples START to END of ST to COUNTS.  This runs
 * over every selected sample, so eight status bytes are counted at a
 * time: each state bit is masked out of every byte of a word and the
 * words are added, every byte lane counting up to 255 samples. */
static inline void
count_states (const guint8 *st,
              guint64       start,
              guint64       end,
              guint64      *counts)
{
  const guint64 ones = G_GUINT64_CONSTANT (0x0101010101010101);
  guint64 gil = 0, cpu = 0, requested = 0, exception = 0;
  guint64 s = start;

  while (end - s >= 8)
    {
      guint64 lanes[4] = { 0 };
      guint64 n = MIN ((end - s) / 8, 255);

      for (guint64 i = 0; i < n; i++, s += 8)
        {
          guint64 x;

          memcpy (&x, st + s, sizeof x);
          lanes[0] += x & ones;
          lanes[1] += (x >> 1) & ones;
          lanes[2] += (x >> 3) & ones;
          lanes[3] += (x >> 4) & ones;
        }
      gil += sum_bytes (lanes[0]);
      cpu += sum_bytes (lanes[1]);
      requested += sum_bytes (lanes[2]);
      exception += sum_bytes (lanes[3]);
    }
  for (; s < end; s++)
    {
      guint8 v = st[s];

      gil += v & TACH_STATUS_HAS_GIL;
      cpu += (v & TACH_STATUS_ON_CPU) >> 1;
      requested += (v & TACH_STATUS_GIL_REQUESTED) >> 3;
      exception += (v & TACH_STATUS_HAS_EXCEPTION) >> 4;
    }
  counts[TV_STATUS_COUNT_HAS_GIL] += gil;
  counts[TV_STATUS_COUNT_ON_CPU] += cpu;
  counts[TV_STATUS_COUNT_GIL_REQUESTED] += requested;
  counts[TV_STATUS_COUNT_HAS_EXCEPTION] += exception;
}

/* A thread's statuses as step 1 reads them (see TvStatuses): of each
 * palette index, whether its status passes the query's filter, and the
 * states it has, a 16-bit lane each. */
typedef struct
{
  const TvStatuses *st;
  guint32           match;
  guint64           add[TV_STATUSES_PALETTE];
  /* Of a byte's two samples, made for the first long stretch. */
  gboolean          has_pairs;
  guint64           pairs[256];
} StatusReader;

static void
status_reader_init (StatusReader     *r,
                    const TvStatuses *st,
                    guint8            mask,
                    guint8            value)
{
  r->st = st;
  r->match = 0;
  r->has_pairs = FALSE;
  for (guint k = 0; k < st->n_palette && !st->wide; k++)
    {
      guint8 v = st->palette[k];

      r->match |= (guint32) ((v & mask) == value) << k;
      r->add[k] = (guint64) ((v & TACH_STATUS_HAS_GIL) != 0)
                  | (guint64) ((v & TACH_STATUS_ON_CPU) != 0) << 16
                  | (guint64) ((v & TACH_STATUS_GIL_REQUESTED) != 0) << 32
                  | (guint64) ((v & TACH_STATUS_HAS_EXCEPTION) != 0) << 48;
    }
}

static inline guint
status_index (const guint8 *bytes,
              guint64       s)
{
  return (bytes[s / 2] >> (4 * (s % 2))) & 0xf;
}

/* count_states() of samples START to END of R's thread. */
static inline void
status_reader_count_states (StatusReader *r,
                            guint64       start,
                            guint64       end,
                            guint64      *counts)
{
  const guint8 *bytes = r->st->bytes;

  if (r->st->wide)
    {
      count_states (bytes, start, end, counts);
      return;
    }
  if (!r->has_pairs && end - start >= 256)
    {
      for (guint b = 0; b < 256; b++)
        r->pairs[b] = r->add[b & 0xf] + r->add[b >> 4];
      r->has_pairs = TRUE;
    }
  while (start < end)
    {
      guint64 stop = MIN (end, start + G_MAXUINT16 - 1), acc = 0;

      /* Two samples a byte, the earlier in its low half. */
      if (start % 2 == 1)
        acc += r->add[bytes[start++ / 2] >> 4];
      if (r->has_pairs)
        for (; start + 1 < stop; start += 2)
          acc += r->pairs[bytes[start / 2]];
      else
        for (; start + 1 < stop; start += 2)
          {
            guint8 b = bytes[start / 2];

            acc += r->add[b & 0xf] + r->add[b >> 4];
          }
      if (start < stop)
        acc += r->add[bytes[start++ / 2] & 0xf];
      counts[TV_STATUS_COUNT_HAS_GIL] += acc & 0xffff;
      counts[TV_STATUS_COUNT_ON_CPU] += (acc >> 16) & 0xffff;
      counts[TV_STATUS_COUNT_GIL_REQUESTED] += (acc >> 32) & 0xffff;
      counts[TV_STATUS_COUNT_HAS_EXCEPTION] += acc >> 48;
    }
}

/* Of samples START to END of R's thread, those that pass the status
 * filter. */
static inline guint64
status_reader_count_matching (const StatusReader *r,
                              guint64             start,
                              guint64             end,
                              guint8              mask,
                              guint8              value)
{
  const guint8 *bytes = r->st->bytes;
  guint32 match = r->match;
  guint64 count = 0, s = start;

  if (r->st->wide)
    {
      for (; s < end; s++)
        count += (bytes[s] & mask) == value;
      return count;
    }
  if (s < end && s % 2 == 1)
    count += (match >> (bytes[s++ / 2] >> 4)) & 1;
  for (; s + 1 < end; s += 2)
    {
      guint8 b = bytes[s / 2];

      count += ((match >> (b & 0xf)) & 1) + ((match >> (b >> 4)) & 1);
    }
  if (s < end)
    count += (match >> (bytes[s / 2] & 0xf)) & 1;
  return count;
}

/* Whether sample S of R's thread passes the status filter. */
static inline gboolean
status_reader_matches (const StatusReader *r,
                       guint64             s,
                       guint8              mask,
                       guint8              value)
{
  if (r->st->wide)
    return (r->st->bytes[s] & mask) == value;
  return (r->match >> status_index (r->st->bytes, s)) & 1;
}

static gboolean
thread_selected (const TvQuery  *query,
                 const TvThread *t)
{
  if (query->interpreter >= 0 && t->interpreter_id != (guint64) query->interpreter)
    return FALSE;
  if (query->threads == NULL)
    return TRUE;
  for (guint i = 0; i < query->n_threads; i++)
    if (query->threads[i] == t->index)
      return TRUE;
  return FALSE;
}

guint64
tv_thread_lower_bound (const TvThread *t,
                       guint64         from,
                       guint64         ts)
{
  return tv_times_lower_bound (&t->times, from, t->n_samples, ts);
}

static inline gboolean
time_selected (const TvQuery *query,
               guint64        ts)
{
  if (query->has_range && (ts < query->range_start || ts >= query->range_end))
    return FALSE;
  return query->ranges == NULL || tv_time_ranges_contain (query->ranges, query->n_ranges, ts);
}

gboolean
tv_query_selects_thread (const TvQuery  *query,
                         const TvThread *t)
{
  g_return_val_if_fail (query != NULL, FALSE);
  g_return_val_if_fail (t != NULL, FALSE);

  return thread_selected (query, t);
}

gboolean
tv_query_selects_sample (const TvQuery *query,
                         guint8         status,
                         guint64        timestamp)
{
  g_return_val_if_fail (query != NULL, FALSE);

  return (status & query->status_mask) == query->status_value
         && time_selected (query, timestamp);
}

/* What step 1 fills, and where: by each run's leaf, or by RANKS (the
 * thread's runs', or NULL). */
typedef struct
{
  const TvQuery *query;
  TvWeight      *weights;
  guint64       *states;
  GArray        *hits;
  Touched       *touched;
  const guint32 *ranks;
} Weigh;

/* How many runs ahead weigh_samples() asks for a leaf's weight. */
#define WEIGH_AHEAD 16

/* Step 1 for the samples LO to HI of thread T (number I): their weight on
 * the leaves of their runs.  CHECK_TIME: the samples are not in time
 * order, and each is checked against the query's time filters. */
static void
weigh_samples (Weigh          *w,
               guint           i,
               const TvThread *t,
               guint64         lo,
               guint64         hi,
               gboolean        check_time)
{
  const TvQuery *query = w->query;
  gboolean by_status = query->status_mask != 0;
  guint8 mask = query->status_mask, value = query->status_value;
  StatusReader sr;
  guint64 r;
  /* What the weights are by. */
  const guint32 *run_leaf = w->ranks != NULL ? w->ranks : t->run_leaf;

  if (lo >= hi)
    return;
  status_reader_init (&sr, &t->statuses, mask, value);

  /* The runs that overlap [lo, hi). */
  {
    guint64 a = 0, b = t->n_runs;
    while (a < b)
      {
        guint64 mid = a + (b - a) / 2;
        if (t->run_start[mid] <= lo)
          a = mid + 1;
        else
          b = mid;
      }
    r = a > 0 ? a - 1 : 0;
  }

  for (; r < t->n_runs && t->run_start[r] < hi; r++)
    {
      guint64 start = MAX (t->run_start[r], lo);
      guint64 end = r + 1 < t->n_runs ? MIN (t->run_start[r + 1], hi) : hi;
      guint32 leaf = run_leaf[r];
      guint64 *leaf_states = w->states ? w->states + (gsize) leaf * N_STATES : NULL;
      guint64 count = 0;

      /* A run's leaf is anywhere in the tree: its weight is asked for
       * WEIGH_AHEAD runs before it is added to. */
      if (r + WEIGH_AHEAD < t->n_runs)
        {
          __builtin_prefetch (&w->weights[run_leaf[r + WEIGH_AHEAD]]);
          if (w->states != NULL)
            __builtin_prefetch (&w->states[(gsize) run_leaf[r + WEIGH_AHEAD] * N_STATES]);
        }

      if (!by_status && !check_time)
        {
          count = end - start;
          if (leaf_states != NULL && t->statuses.bytes != NULL)
            status_reader_count_states (&sr, start, end, leaf_states);
          else if (leaf_states != NULL)
            {
              /* A load of counts counted each run's states, and selects
               * by thread only: a run is taken whole. */
              g_assert (start == t->run_start[r] && t->run_states != NULL);
              add_states (leaf_states, t->run_states + r * TV_N_RUN_STATES);
            }
        }
      else if (!check_time && leaf_states == NULL)
        count = status_reader_count_matching (&sr, start, end, mask, value);
      else
        for (guint64 s = start; s < end; s++)
          {
            if (by_status && !status_reader_matches (&sr, s, mask, value))
              continue;
            if (check_time && !time_selected (query, tv_times_get (&t->times, s)))
              continue;
            count++;
            if (leaf_states != NULL)
              status_reader_count_states (&sr, s, s + 1, leaf_states);
          }
      if (count > 0 && w->touched != NULL && !w->touched->overflowed
          && w->weights[leaf] == 0)
        {
          if (w->touched->leaves->len < w->touched->max)
            g_array_append_val (w->touched->leaves, leaf);
          else
            w->touched->overflowed = TRUE;
        }
      w->weights[leaf] += count;
      /* Which thread reached which leaf, thread by thread. */
      if (w->hits != NULL && count > 0)
        {
          ThreadHit hit = { i, leaf, count };

          g_array_append_val (w->hits, hit);
        }
    }
}

/* Step 1 for a time-ordered thread with time ranges: the samples of each
 * range that overlaps [LO, HI), found by bisection from where the last
 * range's ended, so a thread costs its selected samples plus a search per
 * range. */
static void
weigh_ranges (Weigh          *w,
              guint           i,
              const TvThread *t,
              guint64         lo,
              guint64         hi)
{
  const TvQuery *query = w->query;
  guint64 from = lo;
  guint64 last;

  if (lo >= hi)
    return;
  last = tv_times_get (&t->times, hi - 1);
  for (guint k = first_range_after (query->ranges, query->n_ranges,
                                    tv_times_get (&t->times, lo));
       k < query->n_ranges && from < hi && query->ranges[k].start <= last;
       k++)
    {
      guint64 a = tv_thread_lower_bound (t, from, query->ranges[k].start);
      guint64 b = tv_thread_lower_bound (t, a, query->ranges[k].end);

      weigh_samples (w, i, t, a, MIN (b, hi), FALSE);
      from = b;
    }
}

/* Step 1: the selected samples' weight on each exact node, and how many
 * of them were in each state (STATES, N_STATES per node, if not NULL).
 * PROGRESS hears of it a thread at a time, by their samples. */
gboolean
tv_call_tree_weigh (TvProfileData   *data,
                    const TvQuery   *query,
                    TvWeight        *weights,
                    guint64         *states,
                    GArray          *hits,
                    Touched         *touched,
                    const RunLeaves *by_rank,
                    Progress        *progress)
{
  guint n_threads = tv_profile_data_get_n_threads (data);
  Weigh w = { query, weights, states, hits, touched, NULL };
  guint64 total = 0, done = 0, runs_before = 0;

  for (guint i = 0; i < n_threads; i++)
    total += tv_profile_data_get_thread (data, i)->n_run_samples;
  for (guint i = 0; i < n_threads; i++)
    {
      const TvThread *t = tv_profile_data_get_thread (data, i);
      guint64 lo = 0, hi = t->n_run_samples;

      if (!progress_report (progress, done, total))
        return FALSE;
      done += t->n_run_samples;
      if (by_rank != NULL)
        w.ranks = by_rank->ranks + runs_before;
      runs_before += t->n_runs;
      if (t->n_run_samples == 0 || !thread_selected (query, t))
        continue;

      if (query->has_range)
        {
          /* An empty or backwards range selects nothing (and would make
           * the bounds below cross). */
          if (query->range_start >= query->range_end
              || t->last_timestamp < query->range_start
              || t->first_timestamp >= query->range_end)
            continue;
          if (t->time_ordered)
            {
              lo = tv_thread_lower_bound (t, 0, query->range_start);
              hi = tv_thread_lower_bound (t, lo, query->range_end);
            }
        }
      if ((query->has_range || query->ranges != NULL) && !t->time_ordered)
        weigh_samples (&w, i, t, 0, t->n_run_samples, TRUE);
      else if (query->ranges != NULL)
        weigh_ranges (&w, i, t, lo, hi);
      else
        weigh_samples (&w, i, t, lo, hi, FALSE);
    }
  return TRUE;
}

/* The bitmap of the nodes whose subtree has a weight, from the few
 * LEAVES that may have one: nodes are taken from the highest number down
 * (a parent's is smaller than its children's), each reached one adding
 * its parent, which costs a step per node reached.  Without LEAVES, one
 * pass over every node.  With SUM, WEIGHTS become those of each subtree
 * in the same pass: a node is taken after all its children. */
static guint64 *
mark_reached (const TvExactTree *exact,
              TvWeight          *weights,
              const GArray      *leaves,
              gboolean           sum)
{
  gsize n_words = (exact->n_nodes + 63) / 64;
  guint64 *reached = g_new0 (guint64, MAX (n_words, 1));

  if (leaves == NULL)
    {
      for (guint32 n = exact->n_nodes; n-- > 1;)
        if (weights[n] > 0 || TV_BIT_TEST (reached, n))
          {
            guint32 p = tv_exact_tree_parent (exact, n);

            TV_BIT_SET (reached, n);
            TV_BIT_SET (reached, p);
            if (sum)
              weights[p] += weights[n];
          }
      if (exact->n_nodes > 0 && weights[0] > 0)
        TV_BIT_SET (reached, 0);
      return reached;
    }

  for (guint i = 0; i < leaves->len; i++)
    {
      guint32 n = g_array_index (leaves, guint32, i);

      if (weights[n] > 0)
        TV_BIT_SET (reached, n);
    }
  for (gsize w = n_words; w-- > 0;)
    {
      guint64 word = reached[w];

      while (word != 0)
        {
          guint bit = 63 - __builtin_clzll (word);
          guint32 n = (guint32) (w * 64 + bit);
          guint32 p;

          word &= ~(G_GUINT64_CONSTANT (1) << bit);
          if (n == TV_ROOT_NODE)
            continue;
          p = tv_exact_tree_parent (exact, n);
          /* Below N, so not taken yet, even in this word. */
          if (p / 64 == w)
            word |= G_GUINT64_CONSTANT (1) << (p % 64);
          TV_BIT_SET (reached, p);
          if (sum)
            weights[p] += weights[n];
        }
    }
  return reached;
}

/* WEIGHTS, each node's own, become those of its subtree, in place, in one
 * pass over every node.  Down a chain of calls a node's parent is the
 * node before it, whose sum waits on it: carried in a register, not
 * stored and loaded again. */
static void
sum_subtrees (const TvExactTree *exact,
              TvWeight          *weights)
{
  guint64 carry = 0;

  for (guint32 n = exact->n_nodes; n-- > 1;)
    {
      guint64 w = weights[n] + carry;
      guint32 p = tv_exact_tree_parent (exact, n);

      carry = 0;
      if (p == n - 1)
        carry = w;
      else
        weights[p] += w;
      weights[n] = w;
    }
  /* Node 1's, when the root is its parent. */
  if (exact->n_nodes > 0)
    weights[TV_ROOT_NODE] += carry;
}

/* What step 1 kept (see Weighed), one set a tree: the arrays of a deep
 * tree are hundreds of megabytes, and one set a tree is enough for the
 * clicks that keep the selection.  There are two: the views by function
 * of a big profile read its tree merged by function, and those by line,
 * address or frame its exact tree, so that going from one to the other
 * and back, one set would weigh the whole exact tree at every click
 * (deepgen 3M: 55.7 million nodes, 60 of a view's 105 ms), as it would
 * going from one profile to the other in a comparison.  The one used
 * longest ago goes for a third tree, and all go back to the system when
 * the user has not asked for a tree for a while, as the blocks
 * tv_huge_free() keeps do. */
#define KEPT_SETS 2

static GMutex kept_lock;
static Weighed *kept_weighed[KEPT_SETS];
static gint64 kept_last_used[KEPT_SETS];
static GSource *kept_expiry;
static guint kept_taken, kept_made;

void
tv_weighed_unref (Weighed *weighed)
{
  if (weighed == NULL || !g_atomic_ref_count_dec (&weighed->ref_count))
    return;
  g_free (weighed->threads);
  g_free (weighed->ranges);
  tv_huge_free (weighed->weights);
  g_free (weighed->states);
  g_free (weighed->reached);
  if (weighed->hits != NULL)
    g_array_unref (weighed->hits);
  g_free (weighed);
}

void
tv_weighed_done_with_nodes (Weighed *weighed)
{
  if (weighed->kept)
    return;
  g_clear_pointer (&weighed->weights, tv_huge_free);
  g_clear_pointer (&weighed->states, g_free);
  g_clear_pointer (&weighed->reached, g_free);
}

void
tv_call_tree_forget_weights (TvProfileData *data)
{
  Weighed *old[KEPT_SETS] = { NULL };
  gboolean holding = FALSE;

  /* A profile's weights are those of its tree merged by function too. */
  TvProfileData *merged = data != NULL ? tv_profile_data_get_merged (data) : NULL;

  g_mutex_lock (&kept_lock);
  for (guint k = 0; k < KEPT_SETS; k++)
    {
      if (kept_weighed[k] != NULL
          && (data == NULL || kept_weighed[k]->data == data || kept_weighed[k]->data == merged))
        old[k] = g_steal_pointer (&kept_weighed[k]);
      holding |= kept_weighed[k] != NULL;
    }
  if (!holding && kept_expiry != NULL)
    {
      g_source_destroy (kept_expiry);
      g_clear_pointer (&kept_expiry, g_source_unref);
    }
  g_mutex_unlock (&kept_lock);
  for (guint k = 0; k < KEPT_SETS; k++)
    tv_weighed_unref (old[k]);
}

void
tv_call_tree_get_kept_stats (guint    *taken,
                             guint    *made,
                             gboolean *holding)
{
  g_mutex_lock (&kept_lock);
  if (taken != NULL)
    *taken = kept_taken;
  if (made != NULL)
    *made = kept_made;
  if (holding != NULL)
    {
      *holding = FALSE;
      for (guint k = 0; k < KEPT_SETS; k++)
        *holding |= kept_weighed[k] != NULL;
    }
  g_mutex_unlock (&kept_lock);
}

static gboolean expire_kept (gpointer user_data);

/* With KEPT_LOCK held. */
static void
schedule_expiry (guint seconds)
{
  kept_expiry = g_timeout_source_new_seconds (seconds);
  g_source_set_callback (kept_expiry, expire_kept, NULL, NULL);
  g_source_set_static_name (kept_expiry, "[tachyon] forget kept weights");
  g_source_attach (kept_expiry, NULL);
}

static gboolean
expire_kept (gpointer user_data)
{
  guint delay_s = tv_huge_get_trim_delay ();
  Weighed *old[KEPT_SETS] = { NULL };
  gint64 now = g_get_monotonic_time ();
  gint64 idle_s, least_idle_s = G_MAXINT64;

  g_mutex_lock (&kept_lock);
  /* One that tv_call_tree_forget_weights() destroyed as it ran. */
  if (kept_expiry != g_main_current_source ())
    {
      g_mutex_unlock (&kept_lock);
      return G_SOURCE_REMOVE;
    }
  /* The context holds the source while it runs. */
  g_clear_pointer (&kept_expiry, g_source_unref);
  for (guint k = 0; k < KEPT_SETS; k++)
    {
      if (kept_weighed[k] == NULL)
        continue;
      idle_s = (now - kept_last_used[k]) / G_USEC_PER_SEC;
      if (idle_s >= delay_s)
        old[k] = g_steal_pointer (&kept_weighed[k]);
      else
        least_idle_s = MIN (least_idle_s, idle_s);
    }
  if (least_idle_s != G_MAXINT64)
    schedule_expiry (delay_s - (guint) least_idle_s);
  g_mutex_unlock (&kept_lock);
  for (guint k = 0; k < KEPT_SETS; k++)
    tv_weighed_unref (old[k]);
  return G_SOURCE_REMOVE;
}

/* Whether W, which is kept, weighed the samples QUERY selects, with what
 * it asks for: never their states, which are not kept. */
static gboolean
weighed_fits (const Weighed *w,
              TvProfileData *data,
              const TvQuery *query,
              gboolean       with_hits)
{
  return w->data == data && (w->hits != NULL || !with_hits) && !query->count_states
         && w->interpreter == query->interpreter
         && w->status_mask == query->status_mask && w->status_value == query->status_value
         && w->has_range == query->has_range
         && (!query->has_range
             || (w->range_start == query->range_start && w->range_end == query->range_end))
         && (w->threads == NULL) == (query->threads == NULL)
         && (query->threads == NULL
             || (w->n_threads == query->n_threads
                 && memcmp (w->threads, query->threads,
                            query->n_threads * sizeof (guint32)) == 0))
         && (w->ranges == NULL) == (query->ranges == NULL)
         && (query->ranges == NULL
             || (w->n_ranges == query->n_ranges
                 && memcmp (w->ranges, query->ranges,
                            query->n_ranges * sizeof (TvTimeRange)) == 0));
}

/* Where a set of DATA's goes: the one of DATA's, else an empty one, else
 * the one used longest ago.  With KEPT_LOCK held. */
static guint
kept_slot (TvProfileData *data)
{
  guint slot = 0;

  for (guint k = 0; k < KEPT_SETS; k++)
    if (kept_weighed[k] != NULL && kept_weighed[k]->data == data)
      return k;
  for (guint k = 0; k < KEPT_SETS; k++)
    {
      if (kept_weighed[k] == NULL)
        return k;
      if (kept_last_used[k] < kept_last_used[slot])
        slot = k;
    }
  return slot;
}

/* The set kept that fits QUERY, with a reference, or NULL; the one kept
 * of DATA's tree that does not fit is let go, before the next is made,
 * and so is the one used longest ago when another tree's is in the way. */
static Weighed *
take_kept (TvProfileData *data,
           const TvQuery *query,
           gboolean       with_hits)
{
  Weighed *found = NULL, *old = NULL;
  guint k;

  g_mutex_lock (&kept_lock);
  k = kept_slot (data);
  if (kept_weighed[k] != NULL && weighed_fits (kept_weighed[k], data, query, with_hits))
    {
      found = kept_weighed[k];
      g_atomic_ref_count_inc (&found->ref_count);
      kept_last_used[k] = g_get_monotonic_time ();
      kept_taken++;
    }
  else
    {
      old = g_steal_pointer (&kept_weighed[k]);
      kept_made++;
    }
  g_mutex_unlock (&kept_lock);
  tv_weighed_unref (old);
  return found;
}

/* Keeps W for the next query. */
static void
keep (Weighed *w)
{
  guint delay_s = tv_huge_get_trim_delay ();
  Weighed *old;
  guint k;

  w->kept = TRUE;
  g_atomic_ref_count_inc (&w->ref_count);
  g_mutex_lock (&kept_lock);
  k = kept_slot (w->data);
  old = kept_weighed[k];
  kept_weighed[k] = w;
  kept_last_used[k] = g_get_monotonic_time ();
  if (kept_expiry == NULL)
    schedule_expiry (delay_s);
  g_mutex_unlock (&kept_lock);
  tv_weighed_unref (old);
}

/* What a share of sum_subtrees_shared() adds to a node before its own. */
typedef struct
{
  guint32 parent;
  guint64 samples;
} Carry;

/* The share of sum_subtrees_shared() of the nodes from START to END: their
 * sums from those of the nodes after them; what goes to a parent before
 * START is left in ABOVE, for after. */
typedef struct
{
  const TvExactTree *exact;
  TvWeight          *weights;
  guint32            start;
  guint32            end;
  GArray            *above;
} SumShare;

static gpointer
sum_share_run (gpointer user_data)
{
  SumShare *s = user_data;
  const TvExactTree *exact = s->exact;
  TvWeight *weights = s->weights;
  guint64 carry = 0;
  Carry *last = NULL;

  for (guint32 n = s->end; n-- > s->start;)
    {
      guint64 w = weights[n] + carry;
      guint32 p = tv_exact_tree_parent (exact, n);

      carry = 0;
      if (p >= s->start && p == n - 1)
        carry = w;
      else if (p >= s->start)
        weights[p] += w;
      else if (last != NULL && last->parent == p)
        last->samples += w;
      else
        {
          Carry c = { p, w };

          g_array_append_val (s->above, c);
          last = &g_array_index (s->above, Carry, s->above->len - 1);
        }
      weights[n] = w;
    }
  return NULL;
}

/* HEAP (a binary heap of Carry, the highest parent on top) with C added. */
static void
carry_push (GArray *heap,
            Carry   c)
{
  guint i = heap->len;

  g_array_append_val (heap, c);
  for (; i > 0 && g_array_index (heap, Carry, (i - 1) / 2).parent < c.parent; i = (i - 1) / 2)
    g_array_index (heap, Carry, i) = g_array_index (heap, Carry, (i - 1) / 2);
  g_array_index (heap, Carry, i) = c;
}

/* HEAP's top, taken off. */
static Carry
carry_pop (GArray *heap)
{
  Carry top = g_array_index (heap, Carry, 0);
  Carry last = g_array_index (heap, Carry, heap->len - 1);
  guint n = heap->len - 1, i = 0;

  g_array_set_size (heap, n);
  while (n > 0)
    {
      guint c = 2 * i + 1;

      if (c >= n)
        break;
      if (c + 1 < n && g_array_index (heap, Carry, c + 1).parent
                       > g_array_index (heap, Carry, c).parent)
        c++;
      if (g_array_index (heap, Carry, c).parent <= last.parent)
        break;
      g_array_index (heap, Carry, i) = g_array_index (heap, Carry, c);
      i = c;
    }
  if (n > 0)
    g_array_index (heap, Carry, i) = last;
  return top;
}

/* sum_subtrees() on two threads: a node's parent is numbered before it,
 * so the nodes from the middle on are summed apart from those before, and
 * what they carry to nodes before is added last, to those nodes and up
 * their paths to the root, highest first (a few thousand nodes on a deep
 * profile of 25 million). */
static void
sum_subtrees_shared (const TvExactTree *exact,
                     TvWeight          *weights)
{
  g_autoptr(GArray) above = g_array_new (FALSE, FALSE, sizeof (Carry));
  g_autoptr(GArray) roots = g_array_new (FALSE, FALSE, sizeof (Carry));
  g_autoptr(GArray) heap = g_array_new (FALSE, FALSE, sizeof (Carry));
  SumShare first = { exact, weights, 1, exact->n_nodes / 2, roots };
  SumShare second = { exact, weights, exact->n_nodes / 2, exact->n_nodes, above };
  GThread *helper = g_thread_try_new ("tv-sums", sum_share_run, &second, NULL);

  if (helper == NULL)
    {
      sum_subtrees (exact, weights);
      return;
    }
  /* What the first share carries is the root's. */
  sum_share_run (&first);
  g_thread_join (helper);
  for (guint i = 0; i < roots->len; i++)
    weights[TV_ROOT_NODE] += g_array_index (roots, Carry, i).samples;

  for (guint i = 0; i < above->len; i++)
    carry_push (heap, g_array_index (above, Carry, i));
  while (heap->len > 0)
    {
      Carry c = carry_pop (heap);

      while (heap->len > 0 && g_array_index (heap, Carry, 0).parent == c.parent)
        c.samples += carry_pop (heap).samples;
      weights[c.parent] += c.samples;
      if (c.parent != TV_ROOT_NODE)
        carry_push (heap, (Carry) { tv_exact_tree_parent (exact, c.parent), c.samples });
    }
}

Weighed *
tv_call_tree_weigh_tree (TvProfileData   *data,
                         const TvQuery   *query,
                         gboolean         subtrees,
                         gboolean         with_hits,
                         gboolean         with_reached,
                         const RunLeaves *by_rank,
                         Progress        *progress)
{
  const TvExactTree *exact = tv_profile_data_get_tree (data);
  /* What the weights are by: the exact nodes, or their leaves' ranks. */
  guint32 n_weights = by_rank != NULL ? by_rank->n_leaves : exact->n_nodes;
  /* A query of few samples (one thread, a short time) weighs few leaves:
   * their sums up the tree then cost what they reach, not the tree.  A
   * leaf reaches as many nodes as its depth, less those another reached:
   * a 256th of the nodes is where a deep recursion's leaves (some 200
   * frames) cost as much as a pass over every node, which takes a few
   * nanoseconds a node to their hundreds of nanoseconds a leaf (the on-CPU
   * view of the deep 3M file: 247 thousand leaves of its 24.8 million
   * nodes, 81 ms this way). */
  g_autoptr(GArray) leaves = g_array_new (FALSE, FALSE, sizeof (guint32));
  Touched touched = { leaves, MAX (exact->n_nodes / 256, 64), FALSE };
  /* Every thread at every time weighs nodes all over the tree, and so do
   * every thread's subtree sums over a time.  Not their states: four
   * counts a node, of the leaves only, leave most of the array
   * untouched. */
  gboolean everywhere = query->n_threads == 0
                        && (subtrees || (!query->has_range && query->n_ranges == 0));
  /* What a top-down tree that leaves nodes out weighs is kept, but not
   * with states: four counts a node, a page for each leaf, which a deep
   * tree has all over its array, are too much to hold on to.  Such a
   * query still lets go of the one kept, unless it fits, before it makes
   * its own. */
  gboolean may_keep = subtrees && with_reached;
  Weighed *w;

  g_return_val_if_fail (by_rank == NULL || (!subtrees && !with_reached), NULL);
  if (may_keep && (w = take_kept (data, query, with_hits)) != NULL)
    return w;

  w = g_new0 (Weighed, 1);
  g_atomic_ref_count_init (&w->ref_count);
  w->data = data;
  w->interpreter = query->interpreter;
  w->status_mask = query->status_mask;
  w->status_value = query->status_value;
  w->has_range = query->has_range;
  w->range_start = query->range_start;
  w->range_end = query->range_end;
  if (query->threads != NULL)
    {
      w->threads = g_new (guint32, MAX (query->n_threads, 1));
      memcpy (w->threads, query->threads, query->n_threads * sizeof (guint32));
    }
  w->n_threads = query->n_threads;
  if (query->ranges != NULL)
    {
      w->ranges = g_new (TvTimeRange, MAX (query->n_ranges, 1));
      memcpy (w->ranges, query->ranges, query->n_ranges * sizeof (TvTimeRange));
    }
  w->n_ranges = query->n_ranges;
  w->weights = everywhere ? tv_huge_new0 (TvWeight, MAX (n_weights, 1))
                          : g_new0 (TvWeight, MAX (n_weights, 1));
  w->states = query->count_states ? g_new0 (guint64, (gsize) MAX (n_weights, 1) * N_STATES)
                                  : NULL;
  w->hits = with_hits ? g_array_new (FALSE, FALSE, sizeof (ThreadHit)) : NULL;
  if (!tv_call_tree_weigh (data, query, w->weights, w->states, w->hits,
                           by_rank == NULL ? &touched : NULL, by_rank, progress))
    {
      tv_weighed_unref (w);
      return NULL;
    }

  /* Subtree sums say what is reached as well as a bitmap does, and where
   * the weights are all over the tree one pass makes them without it. */
  if (subtrees && (touched.overflowed || !with_reached))
    {
      if (exact->n_nodes > 2 && tv_call_tree_uses_threads (exact->n_nodes))
        sum_subtrees_shared (exact, w->weights);
      else
        sum_subtrees (exact, w->weights);
    }
  else if (with_reached)
    w->reached = mark_reached (exact, w->weights, touched.overflowed ? NULL : leaves, subtrees);
  if (may_keep && !query->count_states)
    keep (w);
  return w;
}
