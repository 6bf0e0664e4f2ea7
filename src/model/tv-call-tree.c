/* tv-call-tree.c: aggregate, merge, transform and invert
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Three steps, each linear in what it reads:
 *   1. weigh the exact tree's nodes by the selected samples, walking each
 *      selected thread's leaf runs (a time range is a binary search, a
 *      list of ranges one per range);
 *   2. map the exact nodes, parents first, onto the view's nodes by merge
 *      key, dropping, merging or re-rooting them as the transforms say;
 *   3. invert if asked, sum totals bottom-up, and sort siblings.
 * When the query asks for it, each node's samples are also counted by
 * thread state (holding the GIL, on CPU, ...); the counts go through the
 * same steps as self.  It is asked for because it costs: four more counts
 * per node, exact and view, make a tree half again as slow to build.
 */
#include "tv-call-tree.h"
#include "tachyon-format.h"

#include <stdlib.h>

struct _TvCallTree
{
  gatomicrefcount ref_count;
  TvProfileData  *data;
  TvMergeKey      merge;
  gboolean        inverted;

  guint32         n_nodes;
  guint32        *parent;
  guint32        *key;
  guint16        *depth;
  guint64        *self;
  guint64        *total;
  guint64        *status;        /* n_nodes * TV_N_STATUS_COUNTS, like total;
                                  * NULL unless the query counted states */
  guint32        *threads;       /* distinct threads per node, or NULL */
  guint32        *node_map;      /* per exact node, or NULL */
  /* Each thread's self samples, thread by thread: thread T's are
   * thread_self_start[T] to thread_self_start[T + 1]; NULL unless the
   * query asked. */
  guint64        *thread_self_start;
  guint32        *thread_self_nodes;
  guint64        *thread_self_counts;
  guint           n_thread_self;
  guint32        *child_start;   /* n_nodes + 1 */
  guint32        *children;

  TvFunctionRow  *functions;
  guint           n_functions;
};

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

gboolean
tv_time_ranges_contain (const TvTimeRange *ranges,
                        guint              n,
                        guint64            timestamp)
{
  guint lo = 0, hi = n;

  g_return_val_if_fail (ranges != NULL || n == 0, FALSE);

  /* The last range that starts at or before TIMESTAMP. */
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (ranges[mid].start <= timestamp)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo > 0 && timestamp < ranges[lo - 1].end;
}

/* A growing tree keyed by (parent, key), used for every tree we build. */
typedef struct
{
  guint32  n_nodes;
  guint32  capacity;
  guint32 *parent;
  guint32 *key;
  guint64 *self;
  guint64 *status;              /* TV_N_STATUS_COUNTS per node, like self;
                                 * NULL when states are not counted */
  guint64 *hkeys;
  guint32 *hvalues;
  guint32  mask;
} Builder;

#define N_STATES TV_N_STATUS_COUNTS

/* How far a build is, for its progress and its cancellable: each step
 * takes the share [base, base + span) of the whole and says how far it is
 * every PROGRESS_EVERY of its items. */
typedef struct
{
  TvProgressFunc  func;
  gpointer        data;
  GCancellable   *cancellable;
  double          base;
  double          span;
  guint32         tick;
  gboolean        cancelled;
} Progress;

#define PROGRESS_EVERY 0x10000

static void
progress_stage (Progress *p,
                double    base,
                double    span)
{
  p->base = base;
  p->span = span;
  if (g_cancellable_is_cancelled (p->cancellable))
    p->cancelled = TRUE;
  else if (p->func != NULL)
    p->func (base, p->data);
}

/* Counts one item of DONE out of TOTAL; FALSE once cancelled. */
static inline gboolean
progress_step (Progress *p,
               guint64   done,
               guint64   total)
{
  if (G_LIKELY (++p->tick % PROGRESS_EVERY != 0))
    return !p->cancelled;
  if (g_cancellable_is_cancelled (p->cancellable))
    p->cancelled = TRUE;
  else if (p->func != NULL && total > 0)
    p->func (p->base + p->span * MIN ((double) done / (double) total, 1.0), p->data);
  return !p->cancelled;
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

static inline void
add_states (guint64       *to,
            const guint64 *from)
{
  for (guint i = 0; i < N_STATES; i++)
    to[i] += from[i];
}

/* A builder with room for HINT nodes, and a hash table for that many
 * when HASHED; a builder filled without lookups (see map_grouped()) needs
 * none. */
static void
builder_init_full (Builder  *b,
                   guint32   hint,
                   gboolean  with_states,
                   gboolean  hashed)
{
  b->capacity = MAX (hint, 64);
  b->parent = g_new (guint32, b->capacity);
  b->key = g_new (guint32, b->capacity);
  b->self = g_new0 (guint64, b->capacity);
  b->status = with_states ? g_new0 (guint64, (gsize) b->capacity * N_STATES) : NULL;
  if (hashed)
    {
      b->mask = 127;
      while (b->mask < b->capacity * 2)
        b->mask = b->mask * 2 + 1;
      b->hkeys = g_new0 (guint64, (gsize) b->mask + 1);
      b->hvalues = g_new (guint32, (gsize) b->mask + 1);
    }
  b->n_nodes = 1;
  b->parent[0] = TV_NODE_NONE;
  b->key[0] = TV_NODE_NONE;
}

static void
builder_clear (Builder *b)
{
  g_free (b->parent);
  g_free (b->key);
  g_free (b->self);
  g_free (b->status);
  g_free (b->hkeys);
  g_free (b->hvalues);
  memset (b, 0, sizeof *b);
}

static inline guint32
hash64 (guint64 v)
{
  v *= G_GUINT64_CONSTANT (0x9e3779b97f4a7c15);
  return (guint32) (v >> 32);
}

static void
builder_grow_hash (Builder *b)
{
  guint32 mask = b->mask * 2 + 1;
  guint64 *hkeys = g_new0 (guint64, (gsize) mask + 1);
  guint32 *hvalues = g_new (guint32, (gsize) mask + 1);

  for (guint32 i = 0; i <= b->mask; i++)
    if (b->hkeys[i] != 0)
      {
        guint32 slot = hash64 (b->hkeys[i]) & mask;
        while (hkeys[slot] != 0)
          slot = (slot + 1) & mask;
        hkeys[slot] = b->hkeys[i];
        hvalues[slot] = b->hvalues[i];
      }
  g_free (b->hkeys);
  g_free (b->hvalues);
  b->hkeys = hkeys;
  b->hvalues = hvalues;
  b->mask = mask;
}

static guint32
builder_child (Builder *b,
               guint32  parent,
               guint32  key)
{
  guint64 h = ((guint64) parent << 32 | key) + 1;
  guint32 slot = hash64 (h) & b->mask;
  guint32 node;

  for (;;)
    {
      if (b->hkeys[slot] == h)
        return b->hvalues[slot];
      if (b->hkeys[slot] == 0)
        break;
      slot = (slot + 1) & b->mask;
    }
  if (b->n_nodes == b->capacity)
    {
      b->capacity *= 2;
      b->parent = g_renew (guint32, b->parent, b->capacity);
      b->key = g_renew (guint32, b->key, b->capacity);
      b->self = g_renew (guint64, b->self, b->capacity);
      if (b->status != NULL)
        b->status = g_renew (guint64, b->status, (gsize) b->capacity * N_STATES);
    }
  node = b->n_nodes++;
  b->parent[node] = parent;
  b->key[node] = key;
  b->self[node] = 0;
  if (b->status != NULL)
    memset (b->status + (gsize) node * N_STATES, 0, N_STATES * sizeof (guint64));
  b->hkeys[slot] = h;
  b->hvalues[slot] = node;
  if ((guint64) b->n_nodes * 2 > b->mask)
    builder_grow_hash (b);
  return node;
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

/* First sample index at or after FROM with timestamp >= TS, in a
 * time-ordered thread. */
static guint64
lower_bound (const TvThread *t,
             guint64         from,
             guint64         ts)
{
  guint64 lo = from, hi = t->n_samples;

  while (lo < hi)
    {
      guint64 mid = lo + (hi - lo) / 2;
      if (t->timestamps[mid] < ts)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
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

typedef struct
{
  guint32 thread;
  guint32 leaf;                 /* exact node */
  guint64 count;                /* selected samples of the run */
} ThreadHit;

/* What step 1 fills. */
typedef struct
{
  const TvQuery *query;
  guint64       *weights;
  guint64       *states;
  GArray        *hits;
} Weigh;

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
  guint64 r;

  if (lo >= hi)
    return;

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
      guint64 *leaf_states = w->states ? w->states + (gsize) t->run_leaf[r] * N_STATES : NULL;
      guint64 count = 0;

      if (!by_status && !check_time)
        {
          count = end - start;
          if (leaf_states != NULL && t->statuses != NULL)
            count_states (t->statuses, start, end, leaf_states);
          else if (leaf_states != NULL)
            {
              /* A load of counts counted each run's states, and selects
               * by thread only: a run is taken whole. */
              g_assert (start == t->run_start[r] && t->run_states != NULL);
              add_states (leaf_states, t->run_states + r * TV_N_RUN_STATES);
            }
        }
      else if (!check_time && leaf_states == NULL)
        {
          const guint8 *st = t->statuses;
          for (guint64 s = start; s < end; s++)
            count += (st[s] & mask) == value;
        }
      else
        for (guint64 s = start; s < end; s++)
          {
            if (by_status && (t->statuses[s] & mask) != value)
              continue;
            if (check_time && !time_selected (query, t->timestamps[s]))
              continue;
            count++;
            if (leaf_states != NULL)
              count_states (t->statuses, s, s + 1, leaf_states);
          }
      w->weights[t->run_leaf[r]] += count;
      /* Which thread reached which leaf, thread by thread. */
      if (w->hits != NULL && count > 0)
        {
          ThreadHit hit = { i, t->run_leaf[r], count };

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

  for (guint k = first_range_after (query->ranges, query->n_ranges, t->timestamps[lo]);
       k < query->n_ranges && from < hi && query->ranges[k].start <= t->timestamps[hi - 1];
       k++)
    {
      guint64 a = lower_bound (t, from, query->ranges[k].start);
      guint64 b = lower_bound (t, a, query->ranges[k].end);

      weigh_samples (w, i, t, a, MIN (b, hi), FALSE);
      from = b;
    }
}

/* Step 1: the selected samples' weight on each exact node, and how many
 * of them were in each state (STATES, N_STATES per node, if not NULL). */
static gboolean
weigh (TvProfileData *data,
       const TvQuery *query,
       guint64       *weights,
       guint64       *states,
       GArray        *hits,
       GCancellable  *cancellable)
{
  guint n_threads = tv_profile_data_get_n_threads (data);
  Weigh w = { query, weights, states, hits };

  for (guint i = 0; i < n_threads; i++)
    {
      const TvThread *t = tv_profile_data_get_thread (data, i);
      guint64 lo = 0, hi = t->n_run_samples;

      if (t->n_run_samples == 0 || !thread_selected (query, t))
        continue;
      if (g_cancellable_is_cancelled (cancellable))
        return FALSE;

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
              lo = lower_bound (t, 0, query->range_start);
              hi = lower_bound (t, lo, query->range_end);
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

/* The view's function for a node key. */
static inline guint32
key_function (TvProfileData *data,
              TvMergeKey     merge,
              guint32        key)
{
  guint32 frame = tv_profile_data_get_key_frame (data, merge, key);

  return tv_profile_data_get_frame_keys (data, TV_MERGE_FUNCTION)[frame];
}

/* A child of the view node being grouped: an exact node and its key's
 * place among its siblings. */
typedef struct
{
  guint32 rank;
  guint32 key;
  guint32 exact;
} Candidate;

static int
compare_candidates (const void *pa,
                    const void *pb)
{
  const Candidate *a = pa, *b = pb;

  if (a->rank != b->rank)
    return a->rank < b->rank ? -1 : 1;
  if (a->key != b->key)
    return a->key < b->key ? -1 : 1;
  return (a->exact > b->exact) - (a->exact < b->exact);
}

/* Step 2 without a lookup per node, for queries with no focus: the view is
 * made from the root down, each view node from the exact nodes it merges.  The
 * children of those (consecutive in the exact tree's numbering) that a
 * transform merges into the node join it; the others, sorted by their
 * key's rank, become its children, one per key.  Every node is read once,
 * in about the order it is stored, and the view comes out with each
 * node's children consecutive and in display order.  B has no hash
 * table. */
static void
map_grouped (TvProfileData *data,
             const TvQuery *query,
             const guint64 *weights,
             const guint64 *states,
             const guint64 *subtree,
             const guint8  *hidden,
             guint32       *map,
             Builder       *b,
             Progress      *progress)
{
  const TvExactTree *exact = tv_profile_data_get_tree (data);
  const guint32 *keys = tv_profile_data_get_frame_keys (data, query->merge);
  const guint32 *fkeys = tv_profile_data_get_frame_keys (data, TV_MERGE_FUNCTION);
  const guint32 *ranks = tv_profile_data_get_key_ranks (data, query->merge);
  /* The exact nodes of each view node, view node by view node. */
  g_autofree guint32 *members = g_new (guint32, MAX (exact->n_nodes, 1));
  g_autofree guint32 *member_start = g_new (guint32, (gsize) exact->n_nodes + 1);
  g_autoptr(GArray) work = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autoptr(GArray) cands = g_array_new (FALSE, FALSE, sizeof (Candidate));
  /* View nodes to group, the next on top: a node's children are made
   * together, and the first child's subtree before its siblings', so that
   * the view is numbered as the exact tree is. */
  g_autofree guint32 *stack = g_new (guint32, MAX (exact->n_nodes, 1));
  guint32 sp = 0;
  guint32 n_members = 0;

  for (guint32 n = 0; n < exact->n_nodes; n++)
    map[n] = TV_NODE_NONE;
  map[0] = 0;
  b->self[0] += weights[0];
  if (states != NULL)
    add_states (b->status, states);
  members[n_members++] = 0;
  member_start[0] = 0;
  member_start[1] = n_members;

  stack[sp++] = 0;
  while (sp > 0 && progress_step (progress, n_members, exact->n_nodes))
    {
      guint32 v = stack[--sp];
      guint32 first_new = b->n_nodes;
      guint32 v_function = v == 0 ? TV_NODE_NONE : key_function (data, query->merge, b->key[v]);

      g_array_set_size (work, 0);
      g_array_append_vals (work, members + member_start[v], member_start[v + 1] - member_start[v]);
      g_array_set_size (cands, 0);
      for (guint i = 0; i < work->len; i++)
        {
          guint32 e = g_array_index (work, guint32, i);

          for (guint32 c = exact->first_child[e]; c < exact->n_nodes && exact->parent[c] == e;
               c++)
            {
              guint32 frame, f;

              if (subtree[c] == 0)
                continue;
              frame = exact->frame[c];
              f = fkeys[frame];
              if ((hidden != NULL && hidden[f])
                  || (query->collapse_recursion && f == v_function))
                {
                  /* Merged into V: its children are V's to group. */
                  map[c] = v;
                  b->self[v] += weights[c];
                  if (states != NULL)
                    add_states (b->status + (gsize) v * N_STATES,
                                states + (gsize) c * N_STATES);
                  g_array_append_val (work, c);
                  continue;
                }
              g_array_append_val (cands, ((Candidate) { ranks[keys[frame]], keys[frame], c }));
            }
        }

      if (cands->len > 1)
        qsort (cands->data, cands->len, sizeof (Candidate), compare_candidates);
      for (guint i = 0; i < cands->len; i++)
        {
          const Candidate *cand = &g_array_index (cands, Candidate, i);
          guint32 node;

          if (i == 0 || cand->key != cand[-1].key)
            {
              node = b->n_nodes++;
              g_assert (node < b->capacity);
              b->parent[node] = v;
              b->key[node] = cand->key;
              b->self[node] = 0;
              if (b->status != NULL)
                memset (b->status + (gsize) node * N_STATES, 0, N_STATES * sizeof (guint64));
              member_start[node + 1] = member_start[node];
            }
          node = b->n_nodes - 1;
          map[cand->exact] = node;
          b->self[node] += weights[cand->exact];
          if (states != NULL)
            add_states (b->status + (gsize) node * N_STATES,
                        states + (gsize) cand->exact * N_STATES);
          members[n_members++] = cand->exact;
          member_start[node + 1] = n_members;
        }
      for (guint32 node = b->n_nodes; node > first_new; node--)
        stack[sp++] = node - 1;
    }
}

/* Step 2: exact nodes onto view nodes.  Returns the view, not inverted. */
static void
map_nodes (TvProfileData *data,
           const TvQuery *query,
           const guint64 *weights,
           const guint64 *states,
           const guint64 *subtree,
           guint32       *map,
           guint8        *in_focus,
           Builder       *b,
           Progress      *progress)
{
  const TvExactTree *exact = tv_profile_data_get_tree (data);
  const guint32 *keys = tv_profile_data_get_frame_keys (data, query->merge);
  const guint32 *fkeys = tv_profile_data_get_frame_keys (data, TV_MERGE_FUNCTION);
  gboolean focus = query->focus_function != TV_NODE_NONE;
  g_autofree guint8 *hidden = NULL;
  guint32 n_functions = tv_profile_data_get_n_keys (data, TV_MERGE_FUNCTION);
  const guint8 *internal = tv_profile_data_get_internal_functions (data);

  /* The profiler's own frames are hidden from every view. */
  if (query->n_hidden_functions > 0 || internal != NULL)
    {
      hidden = internal ? g_memdup2 (internal, MAX (n_functions, 1))
                        : g_new0 (guint8, MAX (n_functions, 1));
      for (guint i = 0; i < query->n_hidden_functions; i++)
        if (query->hidden_functions[i] < n_functions)
          hidden[query->hidden_functions[i]] = 1;
    }

  /* Distinct frames of one parent are distinct view nodes when every
   * frame has a key of its own and nothing merges: no lookups needed. */
  gboolean direct = !focus && hidden == NULL && !query->collapse_recursion
                    && tv_profile_data_get_n_keys (data, query->merge)
                       == tach_reader_get_n_frames (tv_profile_data_get_reader (data))
                    && b->capacity >= exact->n_nodes;

  if (!focus && !direct)
    {
      map_grouped (data, query, weights, states, subtree, hidden, map, b, progress);
      return;
    }
  g_assert (direct || b->hkeys != NULL);
  map[0] = 0;
  if (!focus)
    {
      b->self[0] += weights[0];
      if (states != NULL)
        add_states (b->status, states);
    }

  for (guint32 n = 1; n < exact->n_nodes && progress_step (progress, n, exact->n_nodes); n++)
    {
      guint32 p = exact->parent[n];
      guint32 frame = exact->frame[n];
      guint32 k = keys[frame];
      guint32 f = fkeys[frame];
      guint32 pv;

      if (subtree[n] == 0)
        {
          map[n] = TV_NODE_NONE;
          continue;
        }

      pv = map[p];
      if (focus)
        {
          in_focus[n] = in_focus[p] || f == query->focus_function;
          /* Outside the focused function everything hangs off the root. */
          if (!in_focus[p])
            pv = 0;
        }

      if (direct)
        {
          guint32 node = b->n_nodes++;
          b->parent[node] = pv;
          b->key[node] = k;
          b->self[node] = 0;
          if (states != NULL)
            memset (b->status + (gsize) node * N_STATES, 0, N_STATES * sizeof (guint64));
          map[n] = node;
        }
      else if (hidden != NULL && hidden[f])
        map[n] = pv;
      else if (query->collapse_recursion && pv != 0
               && key_function (data, query->merge, b->key[pv]) == f)
        /* Recursion is a function calling itself, whatever the line: the
         * outermost call's node stands for the whole run. */
        map[n] = pv;
      else if (focus && !in_focus[n])
        map[n] = 0;
      else
        map[n] = builder_child (b, pv, k);

      if (!focus || in_focus[n])
        {
          b->self[map[n]] += weights[n];
          if (states != NULL)
            add_states (b->status + (gsize) map[n] * N_STATES, states + (gsize) n * N_STATES);
        }
    }
}

/* A node of a builder made without lookups. */
static guint32
builder_append (Builder *b,
                guint32  parent,
                guint32  key)
{
  guint32 node;

  if (b->n_nodes == b->capacity)
    {
      b->capacity *= 2;
      b->parent = g_renew (guint32, b->parent, b->capacity);
      b->key = g_renew (guint32, b->key, b->capacity);
      b->self = g_renew (guint64, b->self, b->capacity);
      if (b->status != NULL)
        b->status = g_renew (guint64, b->status, (gsize) b->capacity * N_STATES);
    }
  node = b->n_nodes++;
  b->parent[node] = parent;
  b->key[node] = key;
  b->self[node] = 0;
  if (b->status != NULL)
    memset (b->status + (gsize) node * N_STATES, 0, N_STATES * sizeof (guint64));
  return node;
}

/* A path being inverted: it started at the view node LEAF (which has self
 * samples) and has reached AT on its way up; KEY is the key of the node
 * above AT, the next step, or TV_NODE_NONE at the root. */
typedef struct
{
  guint32 key;
  guint32 leaf;
  guint32 at;
} Walker;

static int
compare_walkers (const void *pa,
                 const void *pb)
{
  const Walker *a = pa, *b = pb;

  return (a->key > b->key) - (a->key < b->key);
}

/* Inverted: every path from a node with self samples up to the root
 * becomes a path down from the root; the self samples weigh it.  Made from
 * the root down, without lookups: the paths that reached an inverted node
 * take their next step up together, and those whose next node has the
 * same key go on as one child, made with its siblings (numbered as the
 * other trees are: a node's children together, the first child's subtree
 * next).  The paths of a node are a range of one array, which its
 * children's ranges divide.  INV has no hash table. */
static void
invert (const Builder *v,
        Builder       *inv,
        guint32       *end_of,
        Progress      *progress)
{
  g_autofree Walker *walkers = NULL;
  g_autoptr(GArray) stack = g_array_new (FALSE, FALSE, sizeof (guint32) * 3);
  guint32 n_walkers = 0, n_done = 0;

  if (end_of != NULL)
    {
      memset (end_of, 0xff, v->n_nodes * sizeof (guint32));
      end_of[0] = 0;
    }
  inv->self[0] += v->self[0];
  if (v->status != NULL)
    add_states (inv->status, v->status);

  for (guint32 n = 1; n < v->n_nodes; n++)
    n_walkers += v->self[n] > 0;
  walkers = g_new (Walker, MAX (n_walkers, 1));
  n_walkers = 0;
  /* At the root, the next step is the leaf itself. */
  for (guint32 n = 1; n < v->n_nodes; n++)
    if (v->self[n] > 0)
      walkers[n_walkers++] = (Walker) { v->key[n], n, n };

  {
    guint32 top[3] = { 0, 0, n_walkers };
    g_array_append_val (stack, top);
  }
  while (stack->len > 0)
    {
      guint32 *top = &g_array_index (stack, guint32, (stack->len - 1) * 3);
      guint32 node = top[0], a = top[1], b = top[2];
      guint32 first_child = inv->n_nodes;
      gboolean one_key = TRUE;

      g_array_set_size (stack, stack->len - 1);
      if (!progress_step (progress, n_done, n_walkers))
        return;

      /* Below the root, the paths that end here count, and the others
       * look one node further up. */
      if (node != 0)
        {
          guint32 kept = a;

          for (guint32 i = a; i < b; i++)
            {
              Walker w = walkers[i];
              guint32 up = v->parent[w.at];

              if (up == 0)
                {
                  inv->self[node] += v->self[w.leaf];
                  if (v->status != NULL)
                    add_states (inv->status + (gsize) node * N_STATES,
                                v->status + (gsize) w.leaf * N_STATES);
                  if (end_of != NULL)
                    end_of[w.leaf] = node;
                  n_done++;
                  continue;
                }
              walkers[kept++] = (Walker) { v->key[up], w.leaf, up };
            }
          b = kept;
        }
      for (guint32 i = a + 1; i < b && one_key; i++)
        one_key = walkers[i].key == walkers[a].key;
      if (!one_key)
        qsort (walkers + a, b - a, sizeof (Walker), compare_walkers);

      /* One child per key, and its paths. */
      for (guint32 i = a; i < b;)
        {
          guint32 end = i + 1;

          while (end < b && walkers[end].key == walkers[i].key)
            end++;
          builder_append (inv, node, walkers[i].key);
          i = end;
        }
      /* Pushed last child first, so that the first comes next. */
      for (guint32 i = b, child = inv->n_nodes; i > a;)
        {
          guint32 start = i - 1;
          guint32 entry[3];

          while (start > a && walkers[start - 1].key == walkers[i - 1].key)
            start--;
          entry[0] = --child;
          entry[1] = start;
          entry[2] = i;
          g_array_append_val (stack, entry);
          i = start;
        }
      g_assert (inv->n_nodes - first_child <= b - a);
    }
}

/* Callers of FUNCTION: below a node for the function come its callers,
 * caller's callers and so on; each outermost call of the function weighs
 * its path by its total. */
static void
callers (TvProfileData *data,
         TvMergeKey     merge,
         const Builder *v,
         const guint64 *total,
         const guint64 *states,
         guint32        function,
         Builder       *out,
         Progress      *progress)
{
  g_autofree guint8 *inside = g_new0 (guint8, v->n_nodes);

  for (guint32 n = 1; n < v->n_nodes && progress_step (progress, n, v->n_nodes); n++)
    {
      gboolean here = key_function (data, merge, v->key[n]) == function;
      guint32 p = v->parent[n];

      inside[n] = inside[p] || here;
      if (here && !inside[p] && total[n] > 0)
        {
          guint32 at = builder_child (out, 0, v->key[n]);

          for (guint32 u = p; u != 0; u = v->parent[u])
            at = builder_child (out, at, v->key[u]);
          out->self[at] += total[n];
          if (states != NULL)
            add_states (out->status + (gsize) at * N_STATES, states + (gsize) n * N_STATES);
        }
    }
}

static void
sum_totals (const Builder *b,
            guint64       *total)
{
  memcpy (total, b->self, b->n_nodes * sizeof (guint64));
  for (guint32 n = b->n_nodes - 1; n > 0; n--)
    total[b->parent[n]] += total[n];
}

/* Turns the state counts of the samples that end at each node into those
 * of the samples through it.  The builder's self is left as it was. */
static void
sum_states (Builder *b)
{
  if (b->status == NULL)
    return;
  for (guint32 n = b->n_nodes - 1; n > 0; n--)
    add_states (b->status + (gsize) b->parent[n] * N_STATES, b->status + (gsize) n * N_STATES);
}

typedef struct
{
  const guint32 *ranks;
  const guint32 *keys;
} ChildOrder;

static int
compare_children (const void *pa,
                  const void *pb,
                  void       *user_data)
{
  const ChildOrder *order = user_data;
  guint32 ra = order->ranks[order->keys[*(const guint32 *) pa]];
  guint32 rb = order->ranks[order->keys[*(const guint32 *) pb]];

  return ra < rb ? -1 : ra > rb;
}

/* Children lists (unsorted) of a builder's nodes. */
static void
index_children (guint32         n_nodes,
                const guint32  *parent,
                guint32       **child_start_out,
                guint32       **children_out)
{
  guint32 *child_start = g_new0 (guint32, n_nodes + 1);
  guint32 *children = g_new (guint32, MAX (n_nodes, 1));
  g_autofree guint32 *fill = NULL;

  for (guint32 n = 1; n < n_nodes; n++)
    child_start[parent[n] + 1]++;
  for (guint32 n = 0; n < n_nodes; n++)
    child_start[n + 1] += child_start[n];
  fill = g_memdup2 (child_start, (n_nodes + 1) * sizeof (guint32));
  for (guint32 n = 1; n < n_nodes; n++)
    children[fill[parent[n]]++] = n;
  *child_start_out = child_start;
  *children_out = children;
}

/* Functions, from a tree that is not inverted: self adds up, and total
 * counts each sample once per function however deep the recursion: a node
 * adds its total only when no ancestor is the same function. */
static TvFunctionRow *
build_functions (TvProfileData *data,
                 TvMergeKey     merge,
                 const Builder *b,
                 guint         *n_rows_out,
                 Progress      *progress)
{
  guint32 n_nodes = b->n_nodes;
  guint32 n_functions = tv_profile_data_get_n_keys (data, TV_MERGE_FUNCTION);
  g_autofree guint64 *total = g_new (guint64, n_nodes);
  g_autofree guint64 *fself = g_new0 (guint64, MAX (n_functions, 1));
  g_autofree guint64 *ftotal = g_new0 (guint64, MAX (n_functions, 1));
  g_autofree guint32 *active = g_new0 (guint32, MAX (n_functions, 1));
  g_autofree guint32 *fn = g_new (guint32, n_nodes);
  g_autofree guint32 *stack = g_new (guint32, n_nodes + 1);
  g_autofree guint32 *next = g_new (guint32, n_nodes + 1);
  g_autofree guint32 *child_start = NULL;
  g_autofree guint32 *children = NULL;
  TvFunctionRow *rows;
  guint32 sp = 0;
  guint n_rows = 0;

  sum_totals (b, total);
  index_children (n_nodes, b->parent, &child_start, &children);
  fn[0] = TV_NODE_NONE;
  for (guint32 n = 1; n < n_nodes; n++)
    fn[n] = key_function (data, merge, b->key[n]);

  /* Depth-first, with the count of each function on the current path. */
  stack[sp] = 0;
  next[sp] = 0;
  sp++;
  while (sp > 0)
    {
      guint32 n = stack[sp - 1];
      guint32 i = next[sp - 1];

      if (i == 0 && !progress_step (progress, n, n_nodes))
        break;
      if (i == 0 && n != 0)
        {
          fself[fn[n]] += b->self[n];
          if (active[fn[n]]++ == 0)
            ftotal[fn[n]] += total[n];
        }
      if (child_start[n] + i < child_start[n + 1])
        {
          next[sp - 1] = i + 1;
          stack[sp] = children[child_start[n] + i];
          next[sp] = 0;
          sp++;
        }
      else
        {
          if (n != 0)
            active[fn[n]]--;
          sp--;
        }
    }

  for (guint32 f = 0; f < n_functions; f++)
    if (ftotal[f] > 0)
      n_rows++;
  rows = g_new (TvFunctionRow, MAX (n_rows, 1));
  n_rows = 0;
  for (guint32 f = 0; f < n_functions; f++)
    if (ftotal[f] > 0)
      rows[n_rows++] = (TvFunctionRow) { f, fself[f], ftotal[f] };
  *n_rows_out = n_rows;
  return rows;
}

static int
compare_rows (const void *pa,
              const void *pb)
{
  const TvFunctionRow *a = pa, *b = pb;

  if (a->total != b->total)
    return a->total > b->total ? -1 : 1;
  if (a->self != b->self)
    return a->self > b->self ? -1 : 1;
  return a->function < b->function ? -1 : a->function > b->function;
}

/* Step 3: totals and sorted children for the finished nodes. */
static TvCallTree *
finish (TvProfileData *data,
        const TvQuery *query,
        Builder       *b)
{
  TvCallTree *self = g_new0 (TvCallTree, 1);
  ChildOrder order;

  g_atomic_ref_count_init (&self->ref_count);
  self->data = tv_profile_data_ref (data);
  self->merge = query->merge;
  /* A callers tree is a bottom-up view of its own; inversion does not
   * apply to it. */
  self->inverted = query->inverted && query->callers_of == TV_NODE_NONE;
  self->n_nodes = b->n_nodes;
  sum_states (b);
  self->status = g_steal_pointer (&b->status);
  self->parent = g_steal_pointer (&b->parent);
  self->key = g_steal_pointer (&b->key);
  self->self = g_steal_pointer (&b->self);
  self->total = g_new (guint64, self->n_nodes);
  self->depth = g_new (guint16, self->n_nodes);

  memcpy (self->total, self->self, self->n_nodes * sizeof (guint64));
  for (guint32 n = self->n_nodes - 1; n > 0; n--)
    self->total[self->parent[n]] += self->total[n];
  self->depth[0] = 0;
  for (guint32 n = 1; n < self->n_nodes; n++)
    self->depth[n] = self->depth[self->parent[n]] + 1;

  /* Children as one array per parent, in key rank order. */
  index_children (self->n_nodes, self->parent, &self->child_start, &self->children);
  order.ranks = tv_profile_data_get_key_ranks (data, query->merge);
  order.keys = self->key;
  for (guint32 n = 0; n < self->n_nodes; n++)
    {
      guint32 count = self->child_start[n + 1] - self->child_start[n];
      if (count > 1)
        g_qsort_with_data (self->children + self->child_start[n], count, sizeof (guint32),
                           compare_children, &order);
    }

  return self;
}

/**
 * tv_call_tree_new:
 *
 * Computes the call tree QUERY asks for.  Safe on any thread.
 *
 * Returns: (transfer full) (nullable): the tree, or %NULL if cancelled
 */
/* How many threads reached each node of the view V, or of the inverted
 * view when END_OF (the inverted node where each node of V with self
 * samples ends, see invert()) and INV_PARENT are given: each thread stamps
 * the nodes on its leaves' paths up to the root once, and stops at a node
 * it has stamped, whose ancestors it has stamped too.  HITS are grouped
 * by thread. */
static guint32 *
count_threads (const GArray  *hits,
               const guint32 *map,
               const guint8  *in_focus,
               const Builder *v,
               const guint32 *end_of,
               const Builder *inv,
               Progress      *progress)
{
  guint32 n_nodes = inv != NULL ? inv->n_nodes : v->n_nodes;
  const guint32 *parent = inv != NULL ? inv->parent : v->parent;
  guint32 *counts = g_new0 (guint32, n_nodes);
  g_autofree guint32 *stamp = g_new (guint32, n_nodes);

  memset (stamp, 0xff, n_nodes * sizeof (guint32));
  for (guint i = 0; i < hits->len && progress_step (progress, i, hits->len); i++)
    {
      const ThreadHit *hit = &g_array_index (hits, ThreadHit, i);
      guint32 t = hit->thread;
      guint32 node = map[hit->leaf];

      /* Outside the focused function: not in the tree. */
      if (node == TV_NODE_NONE || (in_focus != NULL && !in_focus[hit->leaf]))
        continue;
      if (end_of != NULL)
        {
          node = end_of[node];
          g_assert (node != TV_NODE_NONE);
        }
      for (;;)
        {
          if (stamp[node] == t)
            break;
          stamp[node] = t;
          counts[node]++;
          if (node == 0)
            break;
          node = parent[node];
        }
    }
  return counts;
}

static int
compare_nodes (const void *pa,
               const void *pb)
{
  guint32 a = *(const guint32 *) pa, b = *(const guint32 *) pb;

  return (a > b) - (a < b);
}

/* Each thread's self samples on the nodes of the view V, from the HITS
 * of step 1 (grouped by thread, in thread order): a hit's leaf lands
 * where step 2 put its samples.  A thread costs its hits, plus the sort of
 * the nodes it reached: never the size of the tree. */
static void
keep_thread_self (TvCallTree    *tree,
                  guint          n_threads,
                  const GArray  *hits,
                  const guint32 *map,
                  const guint8  *in_focus,
                  const Builder *v)
{
  g_autofree guint64 *acc = g_new0 (guint64, v->n_nodes);
  g_autoptr(GArray) nodes = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autoptr(GArray) counts = g_array_new (FALSE, FALSE, sizeof (guint64));
  g_autoptr(GArray) touched = g_array_new (FALSE, FALSE, sizeof (guint32));
  guint i = 0;

  tree->n_thread_self = n_threads;
  tree->thread_self_start = g_new0 (guint64, (gsize) n_threads + 1);
  for (guint t = 0; t < n_threads; t++)
    {
      g_array_set_size (touched, 0);
      for (; i < hits->len && g_array_index (hits, ThreadHit, i).thread == t; i++)
        {
          const ThreadHit *hit = &g_array_index (hits, ThreadHit, i);
          guint32 node = map[hit->leaf];

          /* Outside the focused function: not in the tree. */
          if (node == TV_NODE_NONE || (in_focus != NULL && !in_focus[hit->leaf]))
            continue;
          if (acc[node] == 0)
            g_array_append_val (touched, node);
          acc[node] += hit->count;
        }
      if (touched->len > 1)
        qsort (touched->data, touched->len, sizeof (guint32), compare_nodes);
      for (guint k = 0; k < touched->len; k++)
        {
          guint32 node = g_array_index (touched, guint32, k);

          g_array_append_val (nodes, node);
          g_array_append_val (counts, acc[node]);
          acc[node] = 0;
        }
      tree->thread_self_start[t + 1] = nodes->len;
    }
  g_assert (i == hits->len);
  tree->thread_self_nodes = (guint32 *) (gpointer) g_array_free (g_steal_pointer (&nodes), FALSE);
  tree->thread_self_counts = (guint64 *) (gpointer) g_array_free (g_steal_pointer (&counts),
                                                                  FALSE);
}

TvCallTree *
tv_call_tree_new (TvProfileData *data,
                  const TvQuery *query,
                  GCancellable  *cancellable)
{
  return tv_call_tree_new_with_progress (data, query, NULL, NULL, cancellable);
}

TvCallTree *
tv_call_tree_new_with_progress (TvProfileData  *data,
                                const TvQuery  *query,
                                TvProgressFunc  progress_func,
                                gpointer        progress_data,
                                GCancellable   *cancellable)
{
  Progress progress = { progress_func, progress_data, cancellable, 0, 0, 0, FALSE };
  /* The steps' shares of the time a big tree takes. */
  gboolean other_tree = query->inverted || query->callers_of != TV_NODE_NONE;
  double map_end = other_tree ? 0.45 : 0.7;
  double functions_end = other_tree ? 0.55 : 0.85;
  const TvExactTree *exact;
  g_autofree guint64 *weights = NULL;
  g_autofree guint64 *states = NULL;
  g_autofree guint64 *subtree = NULL;
  g_autofree guint32 *map = NULL;
  g_autofree guint8 *in_focus = NULL;
  g_autoptr(GArray) hits = NULL;
  g_autofree guint32 *threads = NULL;
  /* A callers tree has no thread counts: its nodes are not paths of
   * samples but of callers. */
  gboolean count = query->count_threads && query->callers_of == TV_NODE_NONE;
  /* A thread's self samples are on the nodes of the tree as step 2 makes
   * it, before any inversion. */
  gboolean keep_self = query->thread_self && !query->inverted
                       && query->callers_of == TV_NODE_NONE;
  Builder view = { 0 };
  TvCallTree *tree;
  TvFunctionRow *functions;
  guint n_functions;

  g_return_val_if_fail (data != NULL, NULL);
  g_return_val_if_fail (query != NULL, NULL);
  g_return_val_if_fail (query->merge < TV_N_MERGE_KEYS, NULL);
  g_return_val_if_fail (query->ranges == NULL
                        || tv_time_ranges_are_sorted (query->ranges, query->n_ranges), NULL);
  /* A load of counts has no samples to select by state or time: its
   * filter did that while it loaded. */
  g_return_val_if_fail (tv_profile_data_has_samples (data)
                        || (query->status_mask == 0 && !query->has_range
                            && query->ranges == NULL), NULL);
  /* It counted states while it loaded, or it cannot. */
  g_return_val_if_fail (!query->count_states || tv_profile_data_has_states (data), NULL);

  exact = tv_profile_data_get_tree (data);
  weights = g_new0 (guint64, exact->n_nodes);
  if (query->count_states)
    states = g_new0 (guint64, (gsize) exact->n_nodes * N_STATES);
  if (count || keep_self)
    hits = g_array_new (FALSE, FALSE, sizeof (ThreadHit));
  progress_stage (&progress, 0.0, 0.15);
  if (!weigh (data, query, weights, states, hits, cancellable))
    return NULL;

  subtree = g_memdup2 (weights, exact->n_nodes * sizeof (guint64));
  for (guint32 n = exact->n_nodes - 1; n > 0; n--)
    subtree[exact->parent[n]] += subtree[n];

  /* Only a focused view looks its nodes up (see map_nodes()). */
  builder_init_full (&view, exact->n_nodes, query->count_states,
                     query->focus_function != TV_NODE_NONE);
  map = g_new (guint32, exact->n_nodes);
  if (query->focus_function != TV_NODE_NONE)
    in_focus = g_new0 (guint8, exact->n_nodes);
  progress_stage (&progress, 0.15, map_end - 0.15);
  map_nodes (data, query, weights, states, subtree, map, in_focus, &view, &progress);
  g_clear_pointer (&states, g_free);
  if (progress.cancelled || g_cancellable_is_cancelled (cancellable))
    {
      builder_clear (&view);
      return NULL;
    }

  /* The function table never depends on inversion. */
  progress_stage (&progress, map_end, functions_end - map_end);
  functions = build_functions (data, query->merge, &view, &n_functions, &progress);
  qsort (functions, n_functions, sizeof (TvFunctionRow), compare_rows);
  if (progress.cancelled || g_cancellable_is_cancelled (cancellable))
    {
      g_free (functions);
      builder_clear (&view);
      return NULL;
    }

  if (query->callers_of != TV_NODE_NONE || query->inverted)
    {
      Builder other = { 0 };

      progress_stage (&progress, functions_end, 0.9 - functions_end);
      /* Only a callers tree looks its nodes up. */
      builder_init_full (&other, view.n_nodes, query->count_states,
                         query->callers_of != TV_NODE_NONE);
      if (query->callers_of != TV_NODE_NONE)
        {
          g_autofree guint64 *total = g_new (guint64, view.n_nodes);

          /* The view is dropped after this, so its counts can become
           * totals in place. */
          sum_totals (&view, total);
          sum_states (&view);
          callers (data, query->merge, &view, total, view.status, query->callers_of, &other,
                   &progress);
        }
      else
        {
          g_autofree guint32 *end_of = count ? g_new (guint32, view.n_nodes) : NULL;

          invert (&view, &other, end_of, &progress);
          if (count && !progress.cancelled)
            {
              progress_stage (&progress, 0.9, 0.05);
              threads = count_threads (hits, map, in_focus, &view, end_of, &other, &progress);
            }
        }
      builder_clear (&view);
      view = other;
    }
  else if (count)
    {
      progress_stage (&progress, functions_end, 0.95 - functions_end);
      threads = count_threads (hits, map, in_focus, &view, NULL, NULL, &progress);
    }
  progress_stage (&progress, 0.95, 0.05);
  if (progress.cancelled)
    {
      g_free (threads);
      g_free (functions);
      builder_clear (&view);
      return NULL;
    }

  tree = finish (data, query, &view);
  tree->threads = g_steal_pointer (&threads);
  if (keep_self)
    keep_thread_self (tree, tv_profile_data_get_n_threads (data), hits, map, in_focus, &view);
  if (query->keep_node_map && query->callers_of == TV_NODE_NONE && !query->inverted)
    {
      /* The samples of an exact node outside the focused function are
       * counted nowhere, though the node maps onto the root. */
      if (in_focus != NULL)
        for (guint32 n = 0; n < exact->n_nodes; n++)
          if (!in_focus[n])
            map[n] = TV_NODE_NONE;
      tree->node_map = g_steal_pointer (&map);
    }
  tree->functions = functions;
  tree->n_functions = n_functions;
  builder_clear (&view);
  return tree;
}

TvCallTree *
tv_call_tree_ref (TvCallTree *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_atomic_ref_count_inc (&self->ref_count);
  return self;
}

void
tv_call_tree_unref (TvCallTree *self)
{
  if (self == NULL || !g_atomic_ref_count_dec (&self->ref_count))
    return;
  tv_profile_data_unref (self->data);
  g_free (self->parent);
  g_free (self->key);
  g_free (self->depth);
  g_free (self->self);
  g_free (self->total);
  g_free (self->status);
  g_free (self->threads);
  g_free (self->node_map);
  g_free (self->thread_self_start);
  g_free (self->thread_self_nodes);
  g_free (self->thread_self_counts);
  g_free (self->child_start);
  g_free (self->children);
  g_free (self->functions);
  g_free (self);
}

TvProfileData *
tv_call_tree_get_data (TvCallTree *self)
{
  return self->data;
}

TvMergeKey
tv_call_tree_get_merge (TvCallTree *self)
{
  return self->merge;
}

gboolean
tv_call_tree_get_inverted (TvCallTree *self)
{
  return self->inverted;
}

guint32
tv_call_tree_get_n_nodes (TvCallTree *self)
{
  return self->n_nodes;
}

guint64
tv_call_tree_get_n_samples (TvCallTree *self)
{
  return self->total[0];
}

guint32
tv_call_tree_get_parent (TvCallTree *self,
                         guint32     node)
{
  g_return_val_if_fail (node < self->n_nodes, TV_NODE_NONE);
  return self->parent[node];
}

guint32
tv_call_tree_get_key (TvCallTree *self,
                      guint32     node)
{
  g_return_val_if_fail (node < self->n_nodes, TV_NODE_NONE);
  return self->key[node];
}

guint32
tv_call_tree_get_frame (TvCallTree *self,
                        guint32     node)
{
  g_return_val_if_fail (node > 0 && node < self->n_nodes, TV_NODE_NONE);
  return tv_profile_data_get_key_frame (self->data, self->merge, self->key[node]);
}

guint32
tv_call_tree_get_function (TvCallTree *self,
                           guint32     node)
{
  g_return_val_if_fail (node > 0 && node < self->n_nodes, TV_NODE_NONE);
  return key_function (self->data, self->merge, self->key[node]);
}

guint
tv_call_tree_get_depth (TvCallTree *self,
                        guint32     node)
{
  g_return_val_if_fail (node < self->n_nodes, 0);
  return self->depth[node];
}

guint64
tv_call_tree_get_self (TvCallTree *self,
                       guint32     node)
{
  g_return_val_if_fail (node < self->n_nodes, 0);
  return self->self[node];
}

guint64
tv_call_tree_get_total (TvCallTree *self,
                        guint32     node)
{
  g_return_val_if_fail (node < self->n_nodes, 0);
  return self->total[node];
}

gboolean
tv_call_tree_has_status_counts (TvCallTree *self)
{
  return self->status != NULL;
}

const guint64 *
tv_call_tree_get_status_counts (TvCallTree *self,
                                guint32     node)
{
  g_return_val_if_fail (node < self->n_nodes, NULL);
  if (self->status == NULL)
    return NULL;
  return self->status + (gsize) node * N_STATES;
}

gboolean
tv_call_tree_has_thread_counts (TvCallTree *self)
{
  return self->threads != NULL;
}

guint32
tv_call_tree_get_n_threads_of (TvCallTree *self,
                               guint32     node)
{
  g_return_val_if_fail (node < self->n_nodes, 0);

  return self->threads != NULL ? self->threads[node] : 0;
}

gboolean
tv_call_tree_has_thread_self (TvCallTree *self)
{
  return self->thread_self_start != NULL;
}

const guint32 *
tv_call_tree_get_thread_self (TvCallTree     *self,
                              guint           thread,
                              const guint64 **counts,
                              guint          *n_nodes)
{
  guint64 start;

  g_return_val_if_fail (counts != NULL && n_nodes != NULL, NULL);

  *n_nodes = 0;
  *counts = NULL;
  if (self->thread_self_start == NULL || thread >= self->n_thread_self)
    return NULL;
  start = self->thread_self_start[thread];
  *n_nodes = (guint) (self->thread_self_start[thread + 1] - start);
  *counts = self->thread_self_counts + start;
  return self->thread_self_nodes + start;
}

const guint32 *
tv_call_tree_get_node_map (TvCallTree *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->node_map;
}

const guint32 *
tv_call_tree_get_children (TvCallTree *self,
                           guint32     node,
                           guint      *n_children)
{
  g_return_val_if_fail (node < self->n_nodes, NULL);
  *n_children = self->child_start[node + 1] - self->child_start[node];
  return self->children + self->child_start[node];
}

guint32
tv_call_tree_find_child (TvCallTree *self,
                         guint32     node,
                         guint32     key)
{
  guint n;
  const guint32 *children = tv_call_tree_get_children (self, node, &n);

  for (guint i = 0; i < n; i++)
    if (self->key[children[i]] == key)
      return children[i];
  return TV_NODE_NONE;
}

const TvFunctionRow *
tv_call_tree_get_functions (TvCallTree *self,
                            guint      *n_rows)
{
  *n_rows = self->n_functions;
  return self->functions;
}

/* Adds COUNT to FUNCTION's row in ROWS, found through AT (per function,
 * the row's index + 1; TV_NODE_NONE is the last slot). */
static void
add_neighbour (GArray  *rows,
               guint32 *at,
               guint32  n_functions,
               guint32  function,
               guint64  count)
{
  guint32 slot = function == TV_NODE_NONE ? n_functions : function;

  if (at[slot] == 0)
    {
      TvFunctionRow row = { function, 0, 0 };

      g_array_append_val (rows, row);
      at[slot] = rows->len;
    }
  g_array_index (rows, TvFunctionRow, at[slot] - 1).total += count;
}

gboolean
tv_call_tree_get_neighbours (TvCallTree     *self,
                             guint32         function,
                             GCancellable   *cancellable,
                             TvFunctionRow **callers_out,
                             guint          *n_callers,
                             TvFunctionRow **callees_out,
                             guint          *n_callees)
{
  guint32 n_functions = tv_profile_data_get_n_keys (self->data, TV_MERGE_FUNCTION);
  g_autofree guint8 *inside = NULL;
  g_autofree guint32 *caller_at = NULL;
  g_autofree guint32 *callee_at = NULL;
  g_autoptr(GArray) callers = NULL;
  g_autoptr(GArray) callees = NULL;

  g_return_val_if_fail (self != NULL, FALSE);

  if (self->inverted)
    return FALSE;
  inside = g_new0 (guint8, self->n_nodes);
  caller_at = g_new0 (guint32, (gsize) n_functions + 1);
  callee_at = g_new0 (guint32, (gsize) n_functions + 1);
  callers = g_array_new (FALSE, FALSE, sizeof (TvFunctionRow));
  callees = g_array_new (FALSE, FALSE, sizeof (TvFunctionRow));

  /* Parents come before their children: INSIDE says a node is the
   * function's or below one of its calls; an outermost call is one whose
   * parent is not inside. */
  for (guint32 n = 1; n < self->n_nodes; n++)
    {
      guint32 p = self->parent[n];
      gboolean here = tv_call_tree_get_function (self, n) == function;

      if (n % PROGRESS_EVERY == 0 && g_cancellable_is_cancelled (cancellable))
        return FALSE;
      inside[n] = inside[p] || here;
      if (!here || inside[p] || self->total[n] == 0)
        continue;
      add_neighbour (callers, caller_at, n_functions,
                     p == TV_ROOT_NODE ? TV_NODE_NONE : tv_call_tree_get_function (self, p),
                     self->total[n]);
      if (self->self[n] > 0)
        add_neighbour (callees, callee_at, n_functions, TV_NODE_NONE, self->self[n]);
      for (guint32 i = self->child_start[n]; i < self->child_start[n + 1]; i++)
        {
          guint32 c = self->children[i];

          if (self->total[c] > 0)
            add_neighbour (callees, callee_at, n_functions, tv_call_tree_get_function (self, c),
                           self->total[c]);
        }
    }

  *n_callers = callers->len;
  *callers_out = (TvFunctionRow *) (gpointer) g_array_free (g_steal_pointer (&callers), FALSE);
  *n_callees = callees->len;
  *callees_out = (TvFunctionRow *) (gpointer) g_array_free (g_steal_pointer (&callees), FALSE);
  return TRUE;
}

double
tv_call_tree_samples_to_seconds (TvCallTree   *self,
                                 guint64       samples,
                                 TvTimeSource *source)
{
  return (double) samples * tv_profile_data_get_seconds_per_sample (self->data, source);
}
