/* tv-call-tree-invert.c: step 3 of a call tree, the other way up
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * An inverted tree (every stack from its leaf up) and a tree of a
 * function's callers, made from the view's tree.
 */
#include "tv-call-tree-private.h"
#include "tv-huge-pages.h"

#include <stdlib.h>

/* A path being inverted: it started at the view node LEAF (which has self
 * samples) and is in an inverted node of key KEY.  Most paths of a deep
 * recursion climb runs of nodes of one key (merged by function), where
 * each step makes a node of the same key: there, a path is not moved
 * along the run.  It is at the run's top AT (the top's rank among the
 * tops of runs, see Next) once it is EXIT nodes deep in the inverted
 * tree, and its nodes until then are those of the run.  Where paths
 * climb a node at a time, AT is their node and EXIT their inverted
 * node's depth. */
typedef struct
{
  guint32 key;
  guint32 leaf;
  guint32 at;
  guint32 exit;
} Walker;

/* A node's parent, and the parent's key. */
typedef struct
{
  guint32 up;
  guint32 up_key;
} Step;

/* An inverted node, how deep it is, the range of the walkers in it, and
 * where it is against the query's detail path: LEVEL_OFF off it, else how
 * many of its keys lead to it (all of them at its end and below, where the
 * finer threshold holds).  When paths climb by runs, SAMPLES is theirs. */
typedef struct
{
  guint32 node;
  guint32 depth;
  guint32 start;
  guint32 end;
  guint32 level;
  guint64 samples;
} Span;

#define LEVEL_OFF G_MAXUINT32

/* Where a path at the top of a run goes (by runs): into the run of the
 * top's parent, whose key is UP_KEY (TV_NODE_NONE when the parent is the
 * root: the path ends), at that run's top UP_TOP (its rank), UP_RUN nodes
 * below it.  A step up reads one of these, where it read the exact tree's
 * parent, frame, and the parent's run, four places in arrays of every
 * node; on the deep 3M profile 2.2 million runs have a top, of its 24.8
 * million nodes. */
typedef struct
{
  guint32 up_key;
  guint32 up_top;
  guint32 up_run;
} Next;

/* What a climb by runs keeps: this, then NEXT of each top, in the order
 * of the tops' nodes (their rank), then the walker of each of the exact
 * tree's leaves but the root, sorted (see leaves_entries ()). */
typedef struct
{
  guint64 bytes;
  guint32 n_tops;
  guint32 n_entries;
} RunsBlock;

/* How the paths climb: a node at a time by the STEPS of every node; or,
 * on the exact tree without hidden frames, by runs (BY_RUNS), by the NEXT
 * of each run's top, in BLOCK with the leaves' walkers.  Those are made
 * from each node's run's top node (HEAD; a top's parent, as the top is
 * its own) and how far up it is in RUN (0 at a top), the tops marked in
 * TOPS and how many come before each word of them (BEFORE), which go once
 * the block is made.  BLOCK, or STEPS, is kept under KEPT for the next
 * query once it is whole; a BLOCK the profile made ahead (PREPARED) is
 * its own. */
typedef struct
{
  Step              *steps;
  const TvExactTree *exact;
  const guint32     *keys;
  guint32           *head;
  guint16           *run;
  guint64           *tops;
  guint32           *before;
  const Next        *next;
  RunsBlock         *block;
  gboolean           by_runs;
  gboolean           prepared;
  guint64            kept;
} Climb;

/* The steps, or the runs, of the exact tree depend only on it and on the
 * merge key: they are the same for every query of a profile that hides no
 * frame.  The first such query makes them, in a pass over every node; the
 * next ones take them back from the kept blocks (tv_huge_keep ()), for as
 * long as those are kept, and only look for their paths' leaves. */
static gint runs_reused, steps_reused, prepared_used;

static gsize
runs_bytes (guint32 n_nodes)
{
  return (gsize) MAX (n_nodes, 1) * (sizeof (guint32) + sizeof (guint16));
}

static gsize
steps_bytes (guint32 n_nodes)
{
  return (gsize) MAX (n_nodes, 1) * sizeof (Step);
}

/* C's block of runs made ahead (BY_RUNS, by function), or its steps or
 * block of runs, kept; else room for its steps, or for its HEAD, RUN,
 * TOPS and BEFORE.  TRUE if made ahead (then C->PREPARED is set) or kept
 * (then C->KEPT is). */
static gboolean
steps_or_runs_new (Climb         *c,
                   TvProfileData *data,
                   TvMergeKey     merge,
                   gboolean       by_runs)
{
  guint32 n = MAX (c->exact->n_nodes, 1);
  guint64 tag = tv_call_tree_kept_tag (data, merge, by_runs ? KEPT_RUNS : KEPT_STEPS);
  gpointer block = by_runs && merge == TV_MERGE_FUNCTION
                   ? g_atomic_pointer_get (tv_profile_data_get_prepared (data, TV_PREPARED_RUNS)) : NULL;

  c->by_runs = by_runs;
  if (block != NULL)
    {
      g_atomic_int_inc (&prepared_used);
      c->prepared = TRUE;
      c->block = block;
      c->next = (const Next *) (c->block + 1);
      return TRUE;
    }
  block = tv_huge_take_kept (tag, by_runs ? sizeof (RunsBlock) : steps_bytes (n));
  if (block != NULL)
    {
      c->kept = tag;
      g_atomic_int_inc (by_runs ? &runs_reused : &steps_reused);
      if (by_runs)
        {
          c->block = block;
          c->next = (const Next *) (c->block + 1);
        }
      else
        c->steps = block;
      return TRUE;
    }
  if (by_runs)
    {
      gsize n_words = ((gsize) n + 63) / 64;

      c->head = tv_huge_alloc (runs_bytes (n), FALSE);
      c->run = (guint16 *) (c->head + n);
      c->tops = g_new0 (guint64, n_words);
      c->before = g_new (guint32, n_words);
    }
  else
    c->steps = tv_huge_alloc (steps_bytes (n), FALSE);
  return FALSE;
}

/* Frees what C's runs are made from. */
static void
runs_clear (Climb *c)
{
  g_clear_pointer (&c->head, tv_huge_free);
  c->run = NULL;
  g_clear_pointer (&c->tops, g_free);
  g_clear_pointer (&c->before, g_free);
}

/* How many bits of the N_WORDS words BITS are set before each word, into
 * BEFORE; returns how many are set in all. */
static guint32
bits_count_before (const guint64 *bits,
                   gsize          n_words,
                   guint32       *before)
{
  guint32 n = 0;

  for (gsize w = 0; w < n_words; w++)
    {
      before[w] = n;
      n += (guint32) __builtin_popcountll (bits[w]);
    }
  return n;
}

/* How many bits of BITS are set before bit I (BEFORE from
 * bits_count_before ()): bit I's rank, when it is set. */
static inline guint32
bits_rank (const guint64 *bits,
           const guint32 *before,
           guint32        i)
{
  guint64 below = (G_GUINT64_CONSTANT (1) << (i % 64)) - 1;

  return before[i / 64] + (guint32) __builtin_popcountll (bits[i / 64] & below);
}

/* The rank among the tops, in node order, of the top of node N's run
 * (a top is its own; see Climb). */
static inline guint32
run_top_rank (const Climb *c,
              guint32      n)
{
  return bits_rank (c->tops, c->before, c->run[n] == 0 ? n : c->head[n]);
}

guint
tv_call_tree_get_runs_reused (void)
{
  return (guint) g_atomic_int_get (&runs_reused);
}

guint
tv_call_tree_get_steps_reused (void)
{
  return (guint) g_atomic_int_get (&steps_reused);
}

guint
tv_call_tree_get_prepared_used (void)
{
  return (guint) g_atomic_int_get (&prepared_used);
}

/* The key KEYS give exact node N, TV_NODE_NONE for the root. */
static inline guint32
key_of (const guint32     *keys,
        const TvExactTree *exact,
        guint32            n)
{
  return n != TV_ROOT_NODE ? keys[tv_exact_tree_frame (exact, n)] : TV_NODE_NONE;
}

/* A path of LEAF going into an inverted node of key KEY and depth DEPTH,
 * at node N. */
static inline Walker
enter (const Climb *c,
       guint32      key,
       guint32      leaf,
       guint32      n,
       guint32      depth)
{
  if (c->by_runs)
    return (Walker) { key, leaf, run_top_rank (c, n), depth + c->run[n] };
  return (Walker) { key, leaf, n, depth };
}

static inline guint64
sort_key (const Walker *w)
{
  return (guint64) w->key << 32 | w->exit;
}

/* From how many walkers a sort may count them at once. */
#define COUNTING_MIN 256

/* Sorts the N walkers W by key, then by the depth where they leave their
 * run, using TMP (room for N): insertion for a few; a count of each pair
 * of key and depth when they are fewer than the walkers; else a radix
 * sort a byte at a time, skipping the bytes where all agree. */
static void
sort_walkers (Walker  *w,
              guint32  n,
              Walker  *tmp)
{
  guint64 all_or = 0, all_and = G_MAXUINT64;
  guint32 key_min = G_MAXUINT32, key_max = 0, exit_min = G_MAXUINT32, exit_max = 0;
  guint64 n_exits, n_pairs;

  if (n < 64)
    {
      for (guint32 i = 1; i < n; i++)
        {
          Walker x = w[i];
          guint64 k = sort_key (&x);
          guint32 j = i;

          for (; j > 0 && sort_key (&w[j - 1]) > k; j--)
            w[j] = w[j - 1];
          w[j] = x;
        }
      return;
    }

  for (guint32 i = 0; i < n; i++)
    {
      all_or |= sort_key (&w[i]);
      all_and &= sort_key (&w[i]);
      key_min = MIN (key_min, w[i].key);
      key_max = MAX (key_max, w[i].key);
      exit_min = MIN (exit_min, w[i].exit);
      exit_max = MAX (exit_max, w[i].exit);
    }
  /* Few keys and depths (the paths at the root: a few hundred functions
   * and a few hundred depths): one count of each pair, then one pass that
   * puts each walker in its place. */
  n_exits = (guint64) exit_max - exit_min + 1;
  n_pairs = ((guint64) key_max - key_min + 1) * n_exits;
  if (n >= COUNTING_MIN && n_pairs <= n)
    {
      g_autofree guint32 *count = g_new0 (guint32, n_pairs);
      guint32 sum = 0;

      for (guint32 i = 0; i < n; i++)
        count[(w[i].key - key_min) * n_exits + (w[i].exit - exit_min)]++;
      for (guint64 b = 0; b < n_pairs; b++)
        {
          guint32 c = count[b];

          count[b] = sum;
          sum += c;
        }
      for (guint32 i = 0; i < n; i++)
        tmp[count[(w[i].key - key_min) * n_exits + (w[i].exit - exit_min)]++] = w[i];
      memcpy (w, tmp, n * sizeof (Walker));
      return;
    }
  for (guint shift = 0; shift < 64; shift += 8)
    {
      guint32 count[256] = { 0 };
      guint32 sum = 0;

      if ((((all_or ^ all_and) >> shift) & 0xff) == 0)
        continue;
      for (guint32 i = 0; i < n; i++)
        count[(sort_key (&w[i]) >> shift) & 0xff]++;
      for (guint b = 0; b < 256; b++)
        {
          guint32 c = count[b];

          count[b] = sum;
          sum += c;
        }
      for (guint32 i = 0; i < n; i++)
        tmp[count[(sort_key (&w[i]) >> shift) & 0xff]++] = w[i];
      memcpy (w, tmp, n * sizeof (Walker));
    }
}

/* Whether the N paths W, one child of NODE, weigh less than MIN_TOTAL
 * (SAMPLES is as far as their weight was summed); if so they end at NODE,
 * and their samples are its remainder. */
static gboolean
leave_out (const Builder *v,
           guint64        min_total,
           guint64        samples,
           const Walker  *w,
           guint32        n,
           guint32        node,
           Builder       *inv,
           guint32       *end_of,
           GArray        *remainders)
{
  if (samples >= min_total)
    return FALSE;

  for (guint32 i = 0; i < n && (v->status != NULL || end_of != NULL); i++)
    {
      if (v->status != NULL)
        add_states (inv->status + (gsize) node * N_STATES, v->status + (gsize) w[i].leaf * N_STATES);
      if (end_of != NULL)
        end_of[w[i].leaf] = node;
    }
  if (remainders->len > 0 && g_array_index (remainders, Remainder, remainders->len - 1).node == node)
    {
      Remainder *r = &g_array_index (remainders, Remainder, remainders->len - 1);

      r->samples += samples;
      r->children++;
      r->cut = MAX (r->cut, min_total);
    }
  else
    {
      Remainder r = { node, 1, samples, min_total };

      g_array_append_val (remainders, r);
    }
  return TRUE;
}

#define PREFETCH_AHEAD 16

/* The walkers [A, B) are in NODE, DEPTH deep, at the top of their run:
 * they take their step up, and those whose path ends there weigh NODE.
 * The others are kept, in order, from A; returns where they end.  BY_RUNS
 * is C's, a constant where this is inlined; then SAMPLES gets the
 * walkers' samples. */
static inline __attribute__ ((always_inline)) guint32
step_up (const Builder *v,
         const Climb   *c,
         gboolean       by_runs,
         Walker        *walkers,
         guint32        a,
         guint32        b,
         guint32        node,
         guint32        depth,
         Builder       *inv,
         guint32       *end_of,
         guint64       *samples)
{
  guint32 kept = a;

  for (guint32 i = a; i < b; i++)
    {
      Walker w = walkers[i];
      Step step = { 0, TV_NODE_NONE };
      Next next = { TV_NODE_NONE, 0, 0 };

      /* The nodes the paths are at lie all over the tree: asked for a
       * few paths ahead, they arrive while these are taken. */
      if (i + PREFETCH_AHEAD < b)
        {
          guint32 ahead = walkers[i + PREFETCH_AHEAD].at;

          if (!by_runs)
            __builtin_prefetch (&c->steps[ahead]);
          else
            {
              __builtin_prefetch (&c->next[ahead]);
              __builtin_prefetch (&v->self[walkers[i + PREFETCH_AHEAD].leaf]);
            }
        }
      if (by_runs)
        {
          *samples += v->self[w.leaf];
          next = c->next[w.at];
        }
      else
        step = c->steps[w.at];

      if (by_runs ? next.up_key == TV_NODE_NONE : step.up == 0)
        {
          inv->self[node] += v->self[w.leaf];
          if (v->status != NULL)
            add_states (inv->status + (gsize) node * N_STATES, v->status + (gsize) w.leaf * N_STATES);
          if (end_of != NULL)
            end_of[w.leaf] = node;
          continue;
        }
      if (!by_runs)
        walkers[kept++] = (Walker) { step.up_key, w.leaf, step.up, depth + 1 };
      else
        walkers[kept++] = (Walker) { next.up_key, w.leaf, next.up_top,
                                     depth + 1 + next.up_run };
    }
  return kept;
}

/* The steps up the view V, and a walker for each node with self
 * samples, into WALKERS (room for every node).  Returns the walkers. */
static guint32
walkers_from_view (const Builder *v,
                   const Climb   *c,
                   Walker        *walkers)
{
  guint32 n_walkers = 0;

  for (guint32 n = 1; n < v->n_nodes; n++)
    {
      guint32 up = v->parent[n];

      c->steps[n] = (Step) { up, up != 0 ? v->key[up] : TV_NODE_NONE };
      if (v->self[n] > 0)
        walkers[n_walkers++] = enter (c, v->key[n], n, n, 1);
    }
  return n_walkers;
}

/* Whether paths up the exact tree EXACT, by KEYS, mostly climb runs:
 * whether a quarter of 1,024 nodes across it have their parent's key.
 * Where they do not, climbing a node at a time reads one place a step
 * rather than four. */
static gboolean
climbs_runs (const TvExactTree *exact,
             const guint32     *keys)
{
  guint same = 0;

  if (exact->n_nodes < 2)
    return FALSE;
  for (guint i = 0; i < 1024; i++)
    {
      guint32 n = 1 + (guint32) ((guint64) i * (exact->n_nodes - 1) / 1024);
      guint32 up = tv_exact_tree_parent (exact, n);

      same += up != TV_ROOT_NODE && key_of (keys, exact, up) == key_of (keys, exact, n);
    }
  return same >= 256;
}

/* A share of the pass that makes the steps or runs of the exact tree
 * EXACT, without hidden frames: its nodes [START, END), into C by runs
 * when it has them, else a node at a time.  By runs, a node whose run
 * goes on above START is in PENDING: its HEAD is then the node above
 * START its run reaches, and its RUN how far up that is, until the share
 * before is done (share_finish()). */
typedef struct
{
  const TvExactTree *exact;
  const guint32     *keys;
  Climb             *c;
  guint32            start;
  guint32            end;
  GArray            *pending;
  Progress          *progress;
  /* The second share's, which reports nothing. */
  Progress           own;
} Share;

static gpointer
share_run (gpointer user_data)
{
  Share *s = user_data;
  const TvExactTree *exact = s->exact;
  const guint32 *keys = s->keys;
  Climb *c = s->c;
  /* The key of the node before; the root has none. */
  guint32 key_before = key_of (keys, exact, s->start - 1);

  for (guint32 n = s->start; n < s->end && progress_step (s->progress, n, exact->n_nodes); n++)
    {
      guint32 key = keys[tv_exact_tree_frame (exact, n)];
      /* Most often the node before. */
      guint32 up = exact->up[n] == 1 ? n - 1 : tv_exact_tree_parent (exact, n);
      guint32 up_key = up == n - 1 ? key_before : key_of (keys, exact, up);

      key_before = key;
      if (!c->by_runs)
        c->steps[n] = (Step) { up, up_key };
      else if (up_key != key)
        {
          /* A top: its own top, which RUN 0 says, so HEAD keeps its
           * parent for runs_block_new (), which would look it up again. */
          c->head[n] = up;
          c->run[n] = 0;
          /* The other share may mark a top in the same word. */
          if (n / 64 == s->start / 64 || n / 64 == (s->end - 1) / 64)
            __atomic_fetch_or (&c->tops[n / 64], G_GUINT64_CONSTANT (1) << (n % 64),
                               __ATOMIC_RELAXED);
          else
            TV_BIT_SET (c->tops, n);
        }
      else
        {
          /* A run is no longer than a stack, at most 65,535 frames. */
          c->head[n] = up < s->start || c->run[up] == 0 ? up : c->head[up];
          c->run[n] = up < s->start ? 1 : c->run[up] + 1;
          if (c->head[n] < s->start)
            g_array_append_val (s->pending, n);
        }
    }
  return NULL;
}

/* Once the share before S is done: its pending nodes' runs. */
static void
share_finish (Share *s)
{
  Climb *c = s->c;

  if (!c->by_runs)
    return;
  for (guint i = 0; i < s->pending->len; i++)
    {
      guint32 n = g_array_index (s->pending, guint32, i);
      guint32 above = c->head[n];

      c->head[n] = c->run[above] == 0 ? above : c->head[above];
      c->run[n] += c->run[above];
    }
}

/* The steps or runs of the exact tree EXACT, without hidden frames: in
 * two shares on two threads when the tree is big. */
static void
steps_shared (const TvExactTree *exact,
              const guint32     *keys,
              Climb             *c,
              Progress          *progress)
{
  g_autoptr(GArray) pending = g_array_new (FALSE, FALSE, sizeof (guint32));
  guint32 n_nodes = exact->n_nodes, mid = n_nodes / 2;
  Share first = { exact, keys, c, 1, n_nodes, pending, progress, { 0 } };
  Share second = first;
  GThread *helper = NULL;

  if (n_nodes > 2 && tv_call_tree_uses_threads (n_nodes))
    {
      first.end = mid;
      second.start = mid;
      second.own = (Progress) { NULL, NULL, progress->cancellable, 0, 0, 0, FALSE };
      second.progress = &second.own;
      helper = g_thread_try_new ("tv-invert", share_run, &second, NULL);
    }
  if (helper == NULL)
    first.end = n_nodes;
  share_run (&first);
  if (helper == NULL)
    return;
  g_thread_join (helper);
  progress->cancelled |= second.own.cancelled;
  if (!progress->cancelled)
    share_finish (&second);
}

gboolean
tv_run_leaves_get (TvProfileData *data,
                   RunLeaves     *rl)
{
  guint32 n_nodes = tv_profile_data_get_tree (data)->n_nodes;
  guint n_threads = tv_profile_data_get_n_threads (data);
  gsize n_words = ((gsize) n_nodes + 63) / 64;
  guint64 n_runs = 0;
  guint32 *block;

  for (guint i = 0; i < n_threads; i++)
    n_runs += tv_profile_data_get_thread (data, i)->n_runs;
  /* Ranks are 32-bit, as nodes are; more runs than that is more than 48
   * GB of them, weighed by node instead. */
  if (n_runs >= G_MAXUINT32 - 1)
    return FALSE;
  /* Made ahead, they stay the profile's: RL only points into them. */
  block = g_atomic_pointer_get (tv_profile_data_get_prepared (data, TV_PREPARED_LEAVES));
  rl->block = NULL;
  if (block == NULL)
    rl->block = block = tv_huge_take_kept (tv_call_tree_kept_tag (data, 0, KEPT_LEAVES),
                                           (1 + n_runs) * sizeof (guint32));
  if (block == NULL)
    {
      /* The leaves a bit each, and the leaves before each word of bits:
       * a run's rank is those, and those before it in its word. */
      g_autofree guint64 *bits = g_new0 (guint64, MAX (n_words, 1));
      g_autofree guint32 *before = g_new (guint32, MAX (n_words, 1));
      guint32 n_leaves, *leaves, *ranks;
      guint64 r0 = 0;

      for (guint i = 0; i < n_threads; i++)
        {
          const TvThread *t = tv_profile_data_get_thread (data, i);

          for (guint64 r = 0; r < t->n_runs; r++)
            TV_BIT_SET (bits, t->run_leaf[r]);
        }
      n_leaves = bits_count_before (bits, n_words, before);
      rl->block = block = g_new (guint32, 1 + n_leaves + n_runs);
      block[0] = n_leaves;
      leaves = block + 1;
      ranks = leaves + n_leaves;
      for (gsize w = 0, k = 0; w < n_words; w++)
        for (guint64 word = bits[w]; word != 0; word &= word - 1)
          leaves[k++] = (guint32) (w * 64 + __builtin_ctzll (word));
      for (guint i = 0; i < n_threads; i++)
        {
          const TvThread *t = tv_profile_data_get_thread (data, i);

          for (guint64 r = 0; r < t->n_runs; r++)
            ranks[r0 + r] = bits_rank (bits, before, t->run_leaf[r]);
          r0 += t->n_runs;
        }
    }
  rl->data = data;
  rl->n_leaves = block[0];
  rl->leaves = block + 1;
  rl->ranks = block + 1 + rl->n_leaves;
  rl->bytes = (1 + rl->n_leaves + n_runs) * sizeof (guint32);
  return TRUE;
}

void
tv_run_leaves_keep (RunLeaves *rl)
{
  if (rl->block != NULL)
    tv_huge_keep (g_steal_pointer (&rl->block), rl->bytes,
                  tv_call_tree_kept_tag (rl->data, 0, KEPT_LEAVES));
}

/* Where RL's leaves start: after the root, which is the first when it is
 * a leaf. */
static inline guint32
leaves_first (const RunLeaves *rl)
{
  return rl->n_leaves > 0 && rl->leaves[0] == TV_ROOT_NODE;
}

/* The walkers of the exact tree EXACT's leaves but the root (those of
 * RL), whose runs C holds, into ALL (room for each), sorted as
 * sort_walkers () sorts them with SCRATCH (room for as many).
 *
 * Where a leaf's walker starts depends only on the exact tree and the
 * merge key, not on its weight: they are sorted once and kept with the
 * runs (see RunsBlock), and a query takes those of its leaves with
 * samples in that order (walkers_of_leaves ()).  The sort is stable, so
 * they are in the order a sort of just those would give.  On the deep 3M
 * profile that is a pass over 932 thousand walkers in place of a sort of
 * them. */
static void
leaves_entries (const TvExactTree *exact,
                const guint32     *keys,
                const RunLeaves   *rl,
                const Climb       *c,
                Walker            *all,
                Walker            *scratch)
{
  guint32 first = leaves_first (rl);

  for (guint32 i = first; i < rl->n_leaves; i++)
    {
      guint32 node = rl->leaves[i];

      all[i - first] = enter (c, key_of (keys, exact, node), i, node, 1);
    }
  sort_walkers (all, rl->n_leaves - first, scratch);
}

/* Of the N_ALL walkers ALL (see leaves_entries ()), those whose leaf V
 * weighs, into WALKERS, in order.  Returns how many. */
static guint32
walkers_of_leaves (const Builder *v,
                   const Walker  *all,
                   guint32        n_all,
                   Walker        *walkers)
{
  guint32 n_walkers = 0;

  for (guint32 j = 0; j < n_all; j++)
    {
      if (j + PREFETCH_AHEAD < n_all)
        __builtin_prefetch (&v->self[all[j + PREFETCH_AHEAD].leaf]);
      if (v->self[all[j].leaf] > 0)
        walkers[n_walkers++] = all[j];
    }
  return n_walkers;
}

/* The leaves' walkers of runs_block_new (), on a thread of their own. */
typedef struct
{
  const Climb     *c;
  const RunLeaves *rl;
  Walker          *all;
  Walker          *scratch;
} EntriesJob;

static gpointer
entries_job_run (gpointer user_data)
{
  EntriesJob *job = user_data;

  leaves_entries (job->c->exact, job->c->keys, job->rl, job->c, job->all, job->scratch);
  return NULL;
}

/* C's block out of its runs, which then go: NEXT of each top, in node
 * order, and the walkers of RL's leaves, sorted with SCRATCH (room for a
 * walker a leaf).  A top's parent is the top's HEAD (see share_run ()).
 * The two parts only read the runs, and are made on two threads on a big
 * tree. */
static void
runs_block_new (Climb           *c,
                const RunLeaves *rl,
                Walker          *scratch)
{
  const TvExactTree *exact = c->exact;
  gsize n_words = ((gsize) MAX (exact->n_nodes, 1) + 63) / 64, bytes;
  guint32 n_tops, n_all = rl->n_leaves - leaves_first (rl), k = 0;
  EntriesJob job = { c, rl, NULL, scratch };
  GThread *helper = NULL;
  Next *next;

  n_tops = bits_count_before (c->tops, n_words, c->before);
  bytes = sizeof (RunsBlock) + (gsize) n_tops * sizeof (Next) + (gsize) n_all * sizeof (Walker);
  c->block = tv_huge_alloc (bytes, FALSE);
  c->block->bytes = bytes;
  c->block->n_tops = n_tops;
  c->block->n_entries = n_all;
  next = (Next *) (c->block + 1);
  job.all = (Walker *) (next + n_tops);
  if (tv_call_tree_uses_threads (exact->n_nodes))
    helper = g_thread_try_new ("tv-invert", entries_job_run, &job, NULL);
  for (gsize w = 0; w < n_words; w++)
    for (guint64 word = c->tops[w]; word != 0; word &= word - 1)
      {
        guint32 t = (guint32) (w * 64 + (guint) __builtin_ctzll (word));
        guint32 up = c->head[t];

        next[k++] = up == TV_ROOT_NODE
                    ? (Next) { TV_NODE_NONE, 0, 0 }
                    : (Next) { key_of (c->keys, exact, up), run_top_rank (c, up), c->run[up] };
      }
  g_assert (k == n_tops);
  if (helper != NULL)
    g_thread_join (helper);
  else
    entries_job_run (&job);
  c->next = next;
  runs_clear (c);
}

/* The walkers of the exact tree EXACT weighed by V, by the ranks of RL:
 * one for each of its leaves with self samples (but the root), in node
 * order, for a climb a node at a time by C's steps.  (Kept sorted as the
 * runs' are, their block was the one another query's array of its size
 * took: in the stage benchmark, deepgen 3M's inverted tree then mapped
 * it again each time, and took 90 ms more.) */
static guint32
walkers_of_leaves_by_steps (const TvExactTree *exact,
                            const guint32     *keys,
                            const Builder     *v,
                            const RunLeaves   *rl,
                            const Climb       *c,
                            Walker            *walkers)
{
  guint32 n_walkers = 0;

  for (guint32 i = 0; i < rl->n_leaves; i++)
    {
      guint32 node = rl->leaves[i];

      if (node != TV_ROOT_NODE && v->self[i] > 0)
        walkers[n_walkers++] = enter (c, key_of (keys, exact, node), i, node, 1);
    }
  return n_walkers;
}

/* The same from the exact tree of DATA, whose leaves V weighs by the
 * ranks of RL, with the query's merge key: a hidden frame is stepped over
 * (a step goes to the nearest caller that is not hidden, which a node's
 * step reads off its parent's, made before it), and a hidden node's self
 * samples start from that caller, or end at the root when there is none.
 * Without hidden frames, by runs where most nodes are in one, and by the
 * steps or runs of a query before when they are kept; by runs, the
 * walkers are then sorted, and SORTED says so. */
static guint32
walkers_from_exact (TvProfileData   *data,
                    const TvQuery   *query,
                    const Builder   *v,
                    const RunLeaves *rl,
                    Climb           *c,
                    Walker          *walkers,
                    Builder         *inv,
                    guint32         *end_of,
                    gboolean        *sorted,
                    Progress        *progress)
{
  const TvExactTree *exact = tv_profile_data_get_tree (data);
  const guint32 *keys = tv_profile_data_get_frame_keys (data, query->merge);
  const guint32 *fkeys = tv_profile_data_get_frame_keys (data, TV_MERGE_FUNCTION);
  g_autofree guint8 *hidden = tv_call_tree_hidden_functions (data, query);
  guint32 n_walkers = 0;
  /* The frame of the node before: most often the parent. */
  guint32 before = 0;

  g_assert (v->n_nodes == MAX (rl->n_leaves, 1));
  if (hidden == NULL)
    {
      gboolean by_runs;

      c->exact = exact;
      c->keys = keys;
      by_runs = climbs_runs (exact, keys);
      if (!steps_or_runs_new (c, data, query->merge, by_runs))
        {
          steps_shared (exact, keys, c, progress);
          if (progress->cancelled)
            {
              runs_clear (c);
              return 0;
            }
          /* WALKERS, room for a walker a leaf, is the sort's. */
          if (by_runs)
            runs_block_new (c, rl, walkers);
          c->kept = tv_call_tree_kept_tag (data, query->merge, by_runs ? KEPT_RUNS : KEPT_STEPS);
        }
      if (!by_runs)
        return walkers_of_leaves_by_steps (exact, keys, v, rl, c, walkers);
      *sorted = TRUE;
      return walkers_of_leaves (v, (const Walker *) (c->next + c->block->n_tops),
                                c->block->n_entries, walkers);
    }

  c->steps = tv_huge_new (Step, MAX (exact->n_nodes, 1));
  for (guint32 n = 1; n < exact->n_nodes && progress_step (progress, n, exact->n_nodes); n++)
    {
      guint32 p = tv_exact_tree_parent (exact, n);
      guint32 frame = tv_exact_tree_frame (exact, n);
      guint32 up_frame = p == n - 1 ? before : tv_exact_tree_frame (exact, p);
      Step step = { p, p != 0 ? keys[up_frame] : TV_NODE_NONE };

      before = frame;
      if (p != 0 && hidden[fkeys[up_frame]])
        step = c->steps[p];
      c->steps[n] = step;
    }
  for (guint32 i = 0; i < rl->n_leaves && !progress->cancelled; i++)
    {
      guint32 n = rl->leaves[i];
      guint32 frame;
      Step step;

      if (n == TV_ROOT_NODE || v->self[i] == 0)
        continue;
      frame = tv_exact_tree_frame (exact, n);
      step = c->steps[n];
      if (!hidden[fkeys[frame]])
        walkers[n_walkers++] = enter (c, keys[frame], i, n, 1);
      else if (step.up != 0)
        walkers[n_walkers++] = enter (c, step.up_key, i, step.up, 1);
      else
        {
          inv->self[0] += v->self[i];
          if (v->status != NULL)
            add_states (inv->status, v->status + (gsize) i * N_STATES);
          if (end_of != NULL)
            end_of[i] = 0;
        }
    }
  return n_walkers;
}

gboolean
tv_call_tree_prepare_inverted (TvProfileData *data,
                               GCancellable  *cancellable)
{
  return tv_call_tree_prepare_inverted_with_progress (data, NULL, NULL, cancellable);
}

gboolean
tv_call_tree_prepare_inverted_with_progress (TvProfileData  *data,
                                             TvProgressFunc  progress_func,
                                             gpointer        progress_data,
                                             GCancellable   *cancellable)
{
  TvProfileData *of;
  const TvExactTree *exact;
  const guint32 *keys;
  Progress progress = { progress_func, progress_data, cancellable, 0, 0, 0, FALSE };
  RunLeaves rl = { 0 };
  Climb c = { 0 };

  g_return_val_if_fail (data != NULL, FALSE);

  of = tv_profile_data_get_merged (data) != NULL ? tv_profile_data_get_merged (data) : data;
  exact = tv_profile_data_get_tree (of);
  keys = tv_profile_data_get_frame_keys (of, TV_MERGE_FUNCTION);
  if (g_atomic_pointer_get (tv_profile_data_get_prepared (of, TV_PREPARED_LEAVES)) != NULL)
    return TRUE;
  /* The leaves, the runs of each node, then their block. */
  progress_stage (&progress, 0.0, 0.1);
  if (progress.cancelled || !tv_run_leaves_get (of, &rl))
    return FALSE;
  c.exact = exact;
  c.keys = keys;
  progress_stage (&progress, 0.1, 0.7);
  if (!progress.cancelled && climbs_runs (exact, keys)
      && !steps_or_runs_new (&c, of, TV_MERGE_FUNCTION, TRUE))
    {
      steps_shared (exact, keys, &c, &progress);
      progress_stage (&progress, 0.8, 0.2);
      if (progress.cancelled)
        runs_clear (&c);
      else
        {
          /* Room for a walker a leaf, for their sort. */
          tv_autohuge Walker *scratch = tv_huge_new (Walker, MAX (rl.n_leaves, 1));

          runs_block_new (&c, &rl, scratch);
        }
    }
  if (progress.cancelled || g_cancellable_is_cancelled (cancellable))
    {
      tv_run_leaves_keep (&rl);
      if (c.block != NULL && !c.prepared)
        tv_huge_keep (c.block, c.block->bytes,
                      tv_call_tree_kept_tag (of, TV_MERGE_FUNCTION, KEPT_RUNS));
      return FALSE;
    }
  /* Each whole before a query can see it; another call that got there
   * first keeps its own. */
  if (c.block != NULL && !c.prepared
      && !g_atomic_pointer_compare_and_exchange (tv_profile_data_get_prepared (of, TV_PREPARED_RUNS),
                                                 NULL, c.block))
    tv_huge_free (c.block);
  if (rl.block != NULL
      && !g_atomic_pointer_compare_and_exchange (tv_profile_data_get_prepared (of, TV_PREPARED_LEAVES),
                                                 NULL, rl.block))
    tv_huge_free (rl.block);
  return TRUE;
}

/* The samples of the walkers [A, B): all of them when they climb by runs
 * (a node's run is not summed again when it goes on untouched), else as
 * far as MIN_TOTAL. */
static guint64
samples_of (const Builder *v,
            const Walker  *walkers,
            gboolean       by_runs,
            guint32        a,
            guint32        b,
            guint64        min_total)
{
  guint64 samples = 0;

  for (guint32 i = a; i < b && (by_runs || samples < min_total); i++)
    samples += v->self[walkers[i].leaf];
  return samples;
}

/* What takes spans of an inverted tree, from its STACK (the one to take
 * next on top): the paths of its walkers, steps up by C, whose nodes go
 * into INV, with a sort of a range of walkers done in the same range of
 * SCRATCH.  It reports N_DONE of its N_WALKERS. */
typedef struct
{
  const Builder *v;
  const Climb   *c;
  const TvQuery *query;
  Walker        *walkers;
  Walker        *scratch;
  Builder       *inv;
  guint32       *end_of;
  GArray        *remainders;
  Progress      *progress;
  /* The query's thresholds, or those of its min_total_divisor. */
  guint64        min_total;
  guint64        detail_min_total;
  guint32        n_walkers;
  guint32        n_done;
  Span          *stack;
  gsize          sp;
  gsize          stack_size;
} Climber;

static void
climber_push (Climber *cl,
              Span     span)
{
  if (cl->sp == cl->stack_size)
    {
      cl->stack_size *= 2;
      cl->stack = g_renew (Span, cl->stack, cl->stack_size);
    }
  cl->stack[cl->sp++] = span;
}

/* Takes the span TOP: makes its children, pushed first child on top.
 * FALSE once cancelled. */
static gboolean
climb_span (Climber *cl,
            Span     top)
{
  const Builder *v = cl->v;
  const Climb *c = cl->c;
  const TvQuery *query = cl->query;
  Walker *walkers = cl->walkers;
  Builder *inv = cl->inv;
  const guint32 *path = query->detail_path;
  guint32 n_path = path != NULL ? query->n_detail_path : 0;
  guint32 node = top.node, a = top.start, b = top.end;
  /* At the detail path's end or below, the finer threshold holds. */
  gboolean detail = top.level == n_path;
  guint64 min_total = detail ? cl->detail_min_total : cl->min_total;
  guint32 first_child = inv->n_nodes;
  gsize first_pushed = cl->sp;
  /* The walkers that go on in the node's run: its child of the same
   * key, [RUN_START, B). */
  guint32 moved = b, run_start = b, run_key = node != 0 ? inv->key[node] : TV_NODE_NONE;
  guint64 run_samples = 0;

  if (!progress_step (cl->progress, cl->n_done, cl->n_walkers))
    return FALSE;

  /* Below the root, the paths at their run's top take a step up or end
   * here, and stay in [A, MOVED); the others, from RUN_START, are the
   * child of the same key. */
  if (node != 0)
    {
      guint32 e = a;
      guint64 left = 0;

      if (!c->by_runs)
        e = b;
      while (e < b && walkers[e].exit == top.depth)
        e++;
      moved = c->by_runs
              ? step_up (v, c, TRUE, walkers, a, e, node, top.depth, inv, cl->end_of, &left)
              : step_up (v, c, FALSE, walkers, a, e, node, top.depth, inv, cl->end_of, NULL);
      cl->n_done += e - moved;
      sort_walkers (walkers + a, moved - a, cl->scratch + a);
      run_start = e;
      run_samples = top.samples - left;
    }

  /* One child per key, and its paths, pushed last child first so that
   * the first comes next.  A child with fewer samples than MIN_TOTAL is
   * left out: its paths end here, as the node's remainder. */
  for (guint32 i = a; i < moved || b > run_start;)
    {
      guint32 start, end, key, level = LEVEL_OFF;
      guint64 samples;

      if (b > run_start && (i == moved || walkers[i].key > run_key))
        {
          start = run_start;
          end = b;
          key = run_key;
          b = run_start;
          samples = run_samples;
        }
      else
        {
          start = i;
          end = i + 1;
          key = walkers[i].key;
          while (end < moved && walkers[end].key == key)
            end++;
          i = end;
          samples = c->by_runs || min_total > 0
                    ? samples_of (v, walkers, c->by_runs, start, end, min_total) : 0;
        }
      if (detail)
        level = n_path;
      else if (top.level != LEVEL_OFF && key == path[top.level])
        level = top.level + 1;
      /* On the way to the detail path's end, a node stays. */
      if (min_total > 0 && (detail || level == LEVEL_OFF)
          && leave_out (v, min_total, samples, walkers + start, end - start, node, inv,
                        cl->end_of, cl->remainders))
        cl->n_done += end - start;
      else
        climber_push (cl, (Span) { tv_builder_append (inv, node, key), top.depth + 1,
                                   start, end, level, samples });
    }
  /* Made first child first: turned so that the first is on top. */
  for (gsize x = first_pushed, y = cl->sp; x + 1 < y; x++, y--)
    {
      Span t = cl->stack[x];

      cl->stack[x] = cl->stack[y - 1];
      cl->stack[y - 1] = t;
    }
  g_assert (inv->n_nodes - first_child <= top.end - top.start);
  return TRUE;
}

static gpointer
climb_all (gpointer user_data)
{
  Climber *cl = user_data;

  while (cl->sp > 0 && climb_span (cl, cl->stack[--cl->sp]))
    ;
  return NULL;
}

/* How many climbs two threads shared (tv_call_tree_get_shared_climbs()). */
static gint shared_climbs;

/* The climb below the root's children on two threads: the root's
 * children's subtrees do not meet.  A helper takes the last children,
 * whose paths are about half, into a builder of its own that starts as
 * INV does; its nodes are then added after those CL made of the first
 * children, which is where a climb on one thread would have made them.
 * FALSE when it did not. */
static gboolean
climb_shared (Climber *cl)
{
  Climber h = *cl;
  Builder hb = { 0 };
  Progress own = { NULL, NULL, cl->progress->cancellable, 0, 0, 0, FALSE };
  g_autoptr(GArray) remainders = NULL;
  g_autofree guint32 *leaves = NULL;
  guint32 n0 = cl->inv->n_nodes, total = 0, taken = 0, hs, he, offset;
  gsize k = 0;
  GThread *helper;

  if (cl->sp < 2)
    return FALSE;
  for (gsize x = 0; x < cl->sp; x++)
    total += cl->stack[x].end - cl->stack[x].start;
  /* The last children are at the bottom of the stack. */
  while (k + 1 < cl->sp && taken < total / 2)
    {
      taken += cl->stack[k].end - cl->stack[k].start;
      k++;
    }
  if (taken == 0)
    return FALSE;

  /* The root's children are made in the order of their paths: the
   * helper's are one range of the walkers, whose leaves say where their
   * paths end. */
  hs = cl->stack[k - 1].start;
  he = cl->stack[0].end;
  if (cl->end_of != NULL)
    {
      leaves = g_new (guint32, MAX (he - hs, 1));
      for (guint32 i = hs; i < he; i++)
        leaves[i - hs] = cl->walkers[i].leaf;
    }
  tv_builder_init (&hb, MIN (cl->inv->capacity, 1u << 20), cl->inv->status != NULL, FALSE);
  for (guint32 n = 1; n < n0; n++)
    tv_builder_append (&hb, cl->inv->parent[n], cl->inv->key[n]);
  remainders = g_array_new (FALSE, FALSE, sizeof (Remainder));
  h.inv = &hb;
  h.remainders = remainders;
  h.progress = &own;
  h.n_walkers = taken;
  h.n_done = 0;
  h.stack_size = MAX (k, 64);
  h.stack = g_new (Span, h.stack_size);
  memcpy (h.stack, cl->stack, k * sizeof (Span));
  h.sp = k;
  memmove (cl->stack, cl->stack + k, (cl->sp - k) * sizeof (Span));
  cl->sp -= k;
  cl->n_walkers = MAX (total - taken, 1);
  cl->n_done = 0;

  /* This thread's progress is of its own paths: the bar waits at the
   * stage's end while the helper finishes, which is not long, as it has
   * about as many. */
  helper = g_thread_try_new ("tv-climb", climb_all, &h, NULL);
  climb_all (cl);
  if (helper != NULL)
    {
      g_thread_join (helper);
      g_atomic_int_inc (&shared_climbs);
    }
  else if (!cl->progress->cancelled)
    climb_all (&h);
  g_free (h.stack);
  cl->progress->cancelled |= own.cancelled;
  if (cl->progress->cancelled)
    {
      tv_builder_clear (&hb);
      return TRUE;
    }

  /* The helper's nodes after CL's: those of the root's children are the
   * same nodes, the others move by OFFSET. */
  offset = cl->inv->n_nodes - n0;
  for (guint32 n = 0; n < n0; n++)
    {
      cl->inv->self[n] += hb.self[n];
      if (hb.status != NULL)
        add_states (cl->inv->status + (gsize) n * N_STATES, hb.status + (gsize) n * N_STATES);
    }
  for (guint32 n = n0; n < hb.n_nodes; n++)
    {
      guint32 up = hb.parent[n] < n0 ? hb.parent[n] : hb.parent[n] + offset;
      guint32 at = tv_builder_append (cl->inv, up, hb.key[n]);

      cl->inv->self[at] = hb.self[n];
      if (hb.status != NULL)
        memcpy (cl->inv->status + (gsize) at * N_STATES, hb.status + (gsize) n * N_STATES,
                N_STATES * sizeof (guint64));
    }
  for (guint i = 0; i < remainders->len; i++)
    {
      Remainder r = g_array_index (remainders, Remainder, i);

      if (r.node >= n0)
        r.node += offset;
      g_array_append_val (cl->remainders, r);
    }
  if (cl->end_of != NULL)
    for (guint32 i = 0; i < he - hs; i++)
      if (cl->end_of[leaves[i]] >= n0)
        cl->end_of[leaves[i]] += offset;
  tv_builder_clear (&hb);
  return TRUE;
}

guint
tv_call_tree_get_shared_climbs (void)
{
  return (guint) g_atomic_int_get (&shared_climbs);
}

/* The root, then every span below it: the root's children's subtrees on
 * two threads when SHARED. */
static void
climb_all_or_shared (Climber  *cl,
                     gboolean  shared)
{
  if (!climb_span (cl, cl->stack[--cl->sp]))
    return;
  if (!shared || !climb_shared (cl))
    climb_all (cl);
}

/* Inverted: every path from a node with self samples up to the root
 * becomes a path down from the root; the self samples weigh it.  Made from
 * the root down, without lookups: the paths that reached an inverted node
 * take their next step up together, and those whose next node has the
 * same key go on as one child, made with its siblings (numbered as the
 * other trees are: a node's children together, the first child's subtree
 * next).  The paths of a node are a range of one array, which its
 * children's ranges divide.  INV has no hash table.
 *
 * Up the exact tree without hidden frames, when most nodes are in runs
 * of their parent's key, a path inside a run is not moved: its step is to
 * the same key until the depth where it reaches the run's top.  The paths
 * of a node are kept in the order of that depth, so those that take a
 * step are the first of its range, and the others, untouched, go on as
 * the child of the same key.  A node costs what leaves its runs there,
 * not all its paths: on a deep recursion, 97 % of the steps are inside
 * runs.  Elsewhere, a path's run is its node alone.
 *
 * V is the view, or when it has no parents, the exact tree of DATA as it
 * is, weighed by V's counts: inverting goes by the keys of a path, so
 * exact nodes of the same keys need not be merged first.
 *
 * With the query's min_total (or its min_total_divisor's share of the
 * tree's samples, when larger), a child with fewer samples is left out and
 * its samples are added to REMAINDERS: its paths stop at its parent, which
 * keeps their state counts (END_OF, per node of V, says so too), so that
 * every node made is exact.  Along the query's detail path nothing is left
 * out, and below its end detail_min_total is the threshold.
 *
 * On a big tree with many paths, the subtrees of the root's children are
 * climbed on two threads (climb_shared()). */
void
tv_call_tree_invert (TvProfileData   *data,
                     const Builder   *v,
                     const RunLeaves *rl,
                     const TvQuery   *query,
                     Builder         *inv,
                     guint32         *end_of,
                     GArray          *remainders,
                     Progress        *progress)
{
  /* Room for a walker per node or leaf: only those made are touched. */
  tv_autohuge Walker *walkers = tv_huge_new (Walker, MAX (v->n_nodes, 1));
  tv_autohuge Walker *scratch = NULL;
  /* How the paths climb: by each node's parent and the parent's key, side
   * by side, so that a path's step up reads one place, not two; or by runs
   * up the exact tree. */
  Climb c = { 0 };
  tv_autohuge Step *steps = NULL;
  tv_autohuge RunsBlock *runs = NULL;
  guint32 n_walkers;
  gboolean sorted = FALSE;
  const guint32 *path = query->detail_path;
  /* With the query's min_total_divisor, the share of the tree's samples
   * no node is kept under. */
  guint64 share = 0;
  /* Where V has the root's own samples: node 0 of a view; of the exact
   * tree's leaves, the first if it is the root. */
  guint32 root = rl == NULL || leaves_first (rl) ? 0 : TV_NODE_NONE;

  g_return_if_fail ((v->parent == NULL) == (rl != NULL));

  if (end_of != NULL)
    {
      memset (end_of, 0xff, v->n_nodes * sizeof (guint32));
      if (root != TV_NODE_NONE)
        end_of[root] = 0;
    }
  if (root != TV_NODE_NONE)
    {
      inv->self[0] += v->self[root];
      if (v->status != NULL)
        add_states (inv->status, v->status + (gsize) root * N_STATES);
    }
  if (v->parent != NULL)
    {
      c.steps = tv_huge_new (Step, MAX (v->n_nodes, 1));
      n_walkers = walkers_from_view (v, &c, walkers);
    }
  else
    n_walkers = walkers_from_exact (data, query, v, rl, &c, walkers, inv, end_of, &sorted,
                                    progress);
  /* Freed on the way out, or kept; one made ahead is the profile's. */
  steps = c.steps;
  runs = c.prepared ? NULL : c.block;
  if (progress->cancelled)
    return;
  if (query->min_total_divisor > 0)
    {
      /* The tree's samples: the root's own and every path's (the walkers
       * are still in node order: the reads go one way). */
      guint64 samples = inv->self[0], d = query->min_total_divisor;

      for (guint32 i = 0; i < n_walkers; i++)
        samples += v->self[walkers[i].leaf];
      share = MAX (samples / d + (samples % d != 0), 1);
    }
  scratch = tv_huge_new (Walker, MAX (n_walkers, 1));
  if (!sorted)
    sort_walkers (walkers, n_walkers, scratch);

  {
    Climber cl = { v, &c, query, walkers, scratch, inv, end_of, remainders, progress,
                   MAX (query->min_total, share), MAX (query->detail_min_total, share),
                   MAX (n_walkers, 1), 0, g_new (Span, 64), 0, 64 };
    gboolean shared;

    /* A second thread is worth it on a big tree (the exact tree turned
     * over, or the view) with a sixteenth as many paths as the threshold
     * says (tv_call_tree_set_thread_min_nodes()), when the tree leaves
     * nodes out: a whole inverted tree of a deep profile has hundreds of
     * millions of nodes, half of which the helper's builder would hold
     * twice, and its time goes to making them. */
    shared = cl.min_total > 0
             && tv_call_tree_uses_threads (rl != NULL ? tv_profile_data_get_tree (data)->n_nodes
                                                      : v->n_nodes)
             && tv_call_tree_uses_threads (MIN (n_walkers, G_MAXUINT32 / 16) * 16);

    /* The root first: its children are every path's first node. */
    climber_push (&cl, (Span) { 0, 0, 0, n_walkers, path != NULL ? 0 : LEVEL_OFF, 0 });
    climb_all_or_shared (&cl, shared);
    g_free (cl.stack);
    if (progress->cancelled)
      return;
  }
  /* Each node's children were made together, by key, which is their rank
   * (see tv_profile_data_get_key_ranks()): no sort needed. */
  inv->children_in_order = TRUE;
  if (c.kept != 0 && runs != NULL)
    {
      gsize bytes = runs->bytes;

      tv_huge_keep (g_steal_pointer (&runs), bytes, c.kept);
    }
  else if (c.kept != 0)
    tv_huge_keep (g_steal_pointer (&steps),
                  steps_bytes (tv_profile_data_get_tree (data)->n_nodes), c.kept);
}

/* Callers of FUNCTION: below a node for the function come its callers,
 * caller's callers and so on; each outermost call of the function weighs
 * its path by its total. */
void
tv_call_tree_callers (TvProfileData *data,
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
          guint32 at = tv_builder_child (out, 0, v->key[n]);

          for (guint32 u = p; u != 0; u = v->parent[u])
            at = tv_builder_child (out, at, v->key[u]);
          out->self[at] += total[n];
          if (states != NULL)
            add_states (out->status + (gsize) at * N_STATES, states + (gsize) n * N_STATES);
        }
    }
}
