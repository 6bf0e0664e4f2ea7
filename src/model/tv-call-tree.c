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
 * Step 1 is in tv-query.c, step 2 in tv-call-tree-map.c, the inverted and
 * callers trees of step 3 in tv-call-tree-invert.c; this file holds the
 * builder they fill, the thread counts, the tree (the function table and
 * a function's callers and callees are in tv-call-tree-functions.c).
 * When the query asks for it, each node's samples are also counted by
 * thread state (holding the GIL, on CPU, ...); the counts go through the
 * same steps as self.  It is asked for because it costs: four more counts
 * per node, exact and view, make a tree half again as slow to build.
 */
#include "tv-call-tree-private.h"
#include "tv-huge-pages.h"
#include "tv-progress.h"

#include <stdlib.h>

/* A builder with room for HINT nodes, and a hash table for that many
 * when HASHED; a builder filled without lookups (see map_grouped()) needs
 * none. */
void
tv_builder_init (Builder  *b,
                 guint32   hint,
                 gboolean  with_states,
                 gboolean  hashed)
{
  b->capacity = MAX (hint, 64);
  /* Filled from the start: huge pages cost what is used.  A node's counts
   * are cleared as it is made. */
  b->parent = tv_huge_new (guint32, b->capacity);
  b->key = tv_huge_new (guint32, b->capacity);
  b->self = tv_huge_new (guint64, b->capacity);
  b->self[0] = 0;
  b->status = with_states ? tv_huge_new (guint64, (gsize) b->capacity * N_STATES) : NULL;
  if (b->status != NULL)
    memset (b->status, 0, N_STATES * sizeof (guint64));
  if (hashed)
    {
      b->mask = 127;
      while (b->mask < b->capacity * 2)
        b->mask = b->mask * 2 + 1;
      b->hkeys = g_new0 (guint64, (gsize) b->mask + 1);
      b->hvalues = g_new (guint32, (gsize) b->mask + 1);
    }
  b->children_in_order = FALSE;
  b->n_nodes = 1;
  b->parent[0] = TV_NODE_NONE;
  b->key[0] = TV_NODE_NONE;
}

void
tv_builder_clear (Builder *b)
{
  tv_huge_free (b->parent);
  tv_huge_free (b->key);
  tv_huge_free (b->self);
  tv_huge_free (b->status);
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

guint32
tv_builder_child (Builder *b,
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
  node = tv_builder_append (b, parent, key);
  b->hkeys[slot] = h;
  b->hvalues[slot] = node;
  if ((guint64) b->n_nodes * 2 > b->mask)
    builder_grow_hash (b);
  return node;
}

/* A node of a builder made without lookups. */
guint32
tv_builder_append (Builder *b,
                   guint32  parent,
                   guint32  key)
{
  guint32 node;

  if (b->n_nodes == b->capacity)
    {
      guint32 old = b->capacity;

      b->capacity *= 2;
      b->parent = tv_huge_renew (guint32, b->parent, old, b->capacity);
      b->key = tv_huge_renew (guint32, b->key, old, b->capacity);
      b->self = tv_huge_renew (guint64, b->self, old, b->capacity);
      if (b->status != NULL)
        b->status = tv_huge_renew (guint64, b->status, (gsize) old * N_STATES,
                                   (gsize) b->capacity * N_STATES);
    }
  node = b->n_nodes++;
  b->parent[node] = parent;
  b->key[node] = key;
  b->self[node] = 0;
  if (b->status != NULL)
    memset (b->status + (gsize) node * N_STATES, 0, N_STATES * sizeof (guint64));
  return node;
}

void
tv_builder_sum_totals (const Builder *b,
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
void
tv_index_children (guint32         n_nodes,
                   const guint32  *parent,
                   guint32       **child_start_out,
                   guint32       **children_out)
{
  guint32 *child_start = tv_huge_new0 (guint32, n_nodes + 1);
  guint32 *children = tv_huge_new (guint32, MAX (n_nodes, 1));
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

/* Step 3: totals and sorted children for the finished nodes. */
static TvCallTree *
finish (TvProfileData *data,
        const TvQuery *query,
        Builder       *b,
        const GArray  *remainders)
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
  self->total = tv_huge_new (guint64, self->n_nodes);
  self->depth = tv_huge_new (guint16, self->n_nodes);

  memcpy (self->total, self->self, self->n_nodes * sizeof (guint64));
  if (remainders != NULL && remainders->len > 0)
    {
      self->remainder = tv_huge_new0 (guint64, self->n_nodes);
      self->remainder_children = tv_huge_new0 (guint32, self->n_nodes);
      self->cut_below = tv_huge_new0 (guint64, self->n_nodes);
      for (guint i = 0; i < remainders->len; i++)
        {
          const Remainder *r = &g_array_index (remainders, Remainder, i);

          self->remainder[r->node] += r->samples;
          self->remainder_children[r->node] += r->children;
          self->cut_below[r->node] = MAX (self->cut_below[r->node], r->cut);
          self->total[r->node] += r->samples;
        }
    }
  for (guint32 n = self->n_nodes - 1; n > 0; n--)
    {
      self->total[self->parent[n]] += self->total[n];
      if (self->cut_below != NULL)
        self->cut_below[self->parent[n]] = MAX (self->cut_below[self->parent[n]],
                                                self->cut_below[n]);
    }
  self->depth[0] = 0;
  for (guint32 n = 1; n < self->n_nodes; n++)
    self->depth[n] = self->depth[self->parent[n]] + 1;

  /* Children as one array per parent, in key rank order. */
  tv_index_children (self->n_nodes, self->parent, &self->child_start, &self->children);
  order.ranks = tv_profile_data_get_key_ranks (data, query->merge);
  order.keys = self->key;
  for (guint32 n = 0; n < self->n_nodes && !b->children_in_order; n++)
    {
      guint32 count = self->child_start[n + 1] - self->child_start[n];
      if (count > 1)
        g_qsort_with_data (self->children + self->child_start[n], count, sizeof (guint32),
                           compare_children, &order);
    }

  return self;
}

/* A node as count_threads() walks it: the last thread that reached it,
 * and how many did. */
typedef struct
{
  guint32 stamp;
  guint32 count;
} Stamped;

/* Where the hits [FROM, TO) start, into START (see count_threads()). */
typedef struct
{
  const GArray  *hits;
  const guint32 *hit_nodes;
  const guint32 *map;
  const guint8  *in_focus;
  const guint32 *end_of;
  guint32       *start;
  guint          from;
  guint          to;
} HitStarts;

static gpointer
hit_starts_run (gpointer user_data)
{
  const HitStarts *h = user_data;

  for (guint i = h->from; i < h->to; i++)
    {
      const ThreadHit *hit = &g_array_index (h->hits, ThreadHit, i);
      guint32 node = h->hit_nodes != NULL ? h->hit_nodes[i]
                     : h->map != NULL ? h->map[hit->leaf] : hit->leaf;

      /* Outside the focused function: not in the tree. */
      if (node == TV_NODE_NONE || (h->in_focus != NULL && !h->in_focus[hit->leaf]))
        node = TV_NODE_NONE;
      else if (h->end_of != NULL)
        {
          node = h->end_of[node];
          g_assert (node != TV_NODE_NONE);
        }
      h->start[i] = node;
    }
  return NULL;
}

/* At most this many threads among a tree's hits are counted as bits of a
 * word a node (count_threads_in_masks()). */
static guint mask_max_threads = 64;

void
tv_call_tree_set_thread_mask_limit (guint n_threads)
{
  mask_max_threads = MIN (n_threads, 64);
}

/* count_threads() where the HITS are of at most mask_max_threads threads,
 * else NULL: each node's threads are the bits of a word, each hit's at its
 * START, and each node's word is added to its parent's in one pass from
 * the last node to the first (a node is made after its parent).  That
 * costs a read and a write a node, where the stamps walk each path up to
 * where its thread has been: on a recursion, a fifth of a view's time. */
static guint32 *
count_threads_in_masks (const GArray  *hits,
                        const guint32 *start,
                        guint32        n_nodes,
                        const guint32 *parent)
{
  guint32 threads[64];
  guint n_threads = 0, bit = 0;
  guint64 *masks;
  guint8 *counts;

  for (guint i = 0; i < hits->len; i++)
    {
      guint32 t = g_array_index (hits, ThreadHit, i).thread;

      if (i > 0 && t == threads[bit])
        continue;
      for (bit = 0; bit < n_threads && threads[bit] != t; bit++)
        ;
      if (bit == n_threads)
        {
          if (n_threads == mask_max_threads)
            return NULL;
          threads[n_threads++] = t;
        }
    }
  masks = tv_huge_new (guint64, MAX (n_nodes, 1));
  memset (masks, 0, MAX (n_nodes, 1) * sizeof (guint64));
  for (guint i = 0; i < hits->len; i++)
    {
      guint32 t = g_array_index (hits, ThreadHit, i).thread;

      if (i == 0 || t != threads[bit])
        for (bit = 0; threads[bit] != t; bit++)
          ;
      if (start[i] != TV_NODE_NONE)
        masks[start[i]] |= G_GUINT64_CONSTANT (1) << bit;
    }
  for (guint32 n = n_nodes; n-- > 1;)
    {
      g_assert (parent[n] < n);
      masks[parent[n]] |= masks[n];
    }
  /* Count N goes where it takes no word not yet read (4 N < 8 N). */
  counts = (guint8 *) masks;
  for (guint32 n = 0; n < n_nodes; n++)
    {
      guint32 count = (guint32) __builtin_popcountll (masks[n]);

      memcpy (counts + (gsize) n * sizeof (guint32), &count, sizeof count);
    }
  return tv_huge_renew (guint32, (guint32 *) (gpointer) counts, 2 * (gsize) MAX (n_nodes, 1),
                        MAX (n_nodes, 1));
}

/* How many threads reached each node of the view V, or of the inverted
 * view when END_OF (the inverted node where each node of V with self
 * samples ends, see tv_call_tree_invert()) and INV_PARENT are given: each thread stamps
 * the nodes on its leaves' paths up to the root once, and stops at a node
 * it has stamped, whose ancestors it has stamped too.  HITS are grouped
 * by thread; the node of each is that of its leaf in MAP, or HIT_NODES's
 * when that is given. */
static guint32 *
count_threads (const GArray  *hits,
               const guint32 *hit_nodes,
               const guint32 *map,
               const guint8  *in_focus,
               const Builder *v,
               const guint32 *end_of,
               const Builder *inv,
               Progress      *progress)
{
  guint32 n_nodes = inv != NULL ? inv->n_nodes : v->n_nodes;
  const guint32 *parent = inv != NULL ? inv->parent : v->parent;
  /* What a step up reads and writes, side by side; the counts are made
   * in the same memory at the end. */
  Stamped *nodes;
  guint8 *counts;
  guint32 *in_masks;

  /* Where each hit starts, found first: those reads do not wait on each
   * other, while the walks below would wait on each.  Each is a read
   * anywhere in an array of the exact tree's size or two: the second
   * half on a second thread, from some 65,536 hits on a big tree. */
  tv_autohuge guint32 *start = tv_huge_new (guint32, MAX (hits->len, 1));
  HitStarts first = { hits, hit_nodes, map, in_focus, end_of, start, 0, hits->len };
  HitStarts second = first;
  GThread *helper = NULL;

  if (tv_call_tree_uses_threads (MIN (hits->len, G_MAXUINT32 / 16) * 16))
    {
      first.to = second.from = hits->len / 2;
      helper = g_thread_try_new ("tv-hits", hit_starts_run, &second, NULL);
      if (helper == NULL)
        first.to = hits->len;
    }
  hit_starts_run (&first);
  if (helper != NULL)
    g_thread_join (helper);
  in_masks = count_threads_in_masks (hits, start, n_nodes, parent);
  if (in_masks != NULL)
    return in_masks;
  nodes = tv_huge_new (Stamped, MAX (n_nodes, 1));
  for (guint32 n = 0; n < n_nodes; n++)
    nodes[n] = (Stamped) { G_MAXUINT32, 0 };
  for (guint i = 0; i < hits->len && progress_step (progress, i, hits->len); i++)
    {
      guint32 t = g_array_index (hits, ThreadHit, i).thread;
      guint32 node = start[i];

      if (i + 16 < hits->len && start[i + 16] != TV_NODE_NONE)
        __builtin_prefetch (&nodes[start[i + 16]]);
      if (node == TV_NODE_NONE)
        continue;
      for (;;)
        {
          Stamped *at = &nodes[node];

          if (at->stamp == t)
            break;
          at->stamp = t;
          at->count++;
          if (node == 0)
            break;
          node = parent[node];
        }
    }
  /* Count N goes where it takes no count not yet read (4 N < 8 N). */
  counts = (guint8 *) nodes;
  for (guint32 n = 0; n < n_nodes; n++)
    {
      guint32 count = nodes[n].count;

      memcpy (counts + (gsize) n * sizeof (guint32), &count, sizeof count);
    }
  return tv_huge_renew (guint32, (guint32 *) (gpointer) counts, 2 * (gsize) MAX (n_nodes, 1),
                        MAX (n_nodes, 1));
}

static int
compare_nodes (const void *pa,
               const void *pb)
{
  guint32 a = *(const guint32 *) pa, b = *(const guint32 *) pb;

  return (a > b) - (a < b);
}

/* One thread's samples per view node, gathered: ACC (per node, zero
 * between threads) and the nodes it touched. */
typedef struct
{
  guint64 *acc;
  GArray  *touched;
  GArray  *nodes;
  GArray  *counts;
} SelfLists;

static void
self_lists_add (SelfLists *l,
                guint32    node,
                guint64    count)
{
  if (l->acc[node] == 0)
    g_array_append_val (l->touched, node);
  l->acc[node] += count;
}

/* The nodes the thread touched, in order, onto the lists; ACC zeroed. */
static void
self_lists_flush (SelfLists *l)
{
  if (l->touched->len > 1)
    qsort (l->touched->data, l->touched->len, sizeof (guint32), compare_nodes);
  for (guint k = 0; k < l->touched->len; k++)
    {
      guint32 node = g_array_index (l->touched, guint32, k);

      g_array_append_val (l->nodes, node);
      g_array_append_val (l->counts, l->acc[node]);
      l->acc[node] = 0;
    }
  g_array_set_size (l->touched, 0);
}

static void
self_lists_init (SelfLists *l,
                 guint32    n_nodes)
{
  l->acc = g_new0 (guint64, n_nodes);
  l->touched = g_array_new (FALSE, FALSE, sizeof (guint32));
  l->nodes = g_array_new (FALSE, FALSE, sizeof (guint32));
  l->counts = g_array_new (FALSE, FALSE, sizeof (guint64));
}

/* The lists into NODES and COUNTS; L is done with. */
static void
self_lists_steal (SelfLists  *l,
                  guint32   **nodes,
                  guint64   **counts)
{
  g_free (l->acc);
  g_array_unref (l->touched);
  *nodes = (guint32 *) (gpointer) g_array_free (l->nodes, FALSE);
  *counts = (guint64 *) (gpointer) g_array_free (l->counts, FALSE);
}

/* Each thread's self samples on the nodes of the view V, from the HITS
 * of step 1 (grouped by thread, in thread order): a hit's leaf lands
 * where step 2 put its samples.  With KEPT (a pruned tree), a leaf it
 * does not mark was left out, into the remainder of the node MAP gives.
 * A thread costs its hits, plus the sort of the nodes it reached: never
 * the size of the tree. */
static void
keep_thread_self (TvCallTree    *tree,
                  guint          n_threads,
                  const GArray  *hits,
                  const guint32 *map,
                  const guint8  *in_focus,
                  const guint64 *kept,
                  const Builder *v)
{
  SelfLists own, rem;
  guint i = 0;

  self_lists_init (&own, v->n_nodes);
  if (kept != NULL)
    self_lists_init (&rem, v->n_nodes);
  tree->n_thread_self = n_threads;
  tree->thread_self_start = g_new0 (guint64, (gsize) n_threads + 1);
  if (kept != NULL)
    tree->thread_rem_start = g_new0 (guint64, (gsize) n_threads + 1);
  for (guint t = 0; t < n_threads; t++)
    {
      for (; i < hits->len && g_array_index (hits, ThreadHit, i).thread == t; i++)
        {
          const ThreadHit *hit = &g_array_index (hits, ThreadHit, i);
          guint32 node = map[hit->leaf];

          /* Outside the focused function: not in the tree. */
          if (node == TV_NODE_NONE || (in_focus != NULL && !in_focus[hit->leaf]))
            continue;
          if (kept != NULL && !TV_BIT_TEST (kept, hit->leaf))
            self_lists_add (&rem, node, hit->count);
          else
            self_lists_add (&own, node, hit->count);
        }
      self_lists_flush (&own);
      tree->thread_self_start[t + 1] = own.nodes->len;
      if (kept != NULL)
        {
          self_lists_flush (&rem);
          tree->thread_rem_start[t + 1] = rem.nodes->len;
        }
    }
  g_assert (i == hits->len);
  self_lists_steal (&own, &tree->thread_self_nodes, &tree->thread_self_counts);
  if (kept != NULL)
    self_lists_steal (&rem, &tree->thread_rem_nodes, &tree->thread_rem_counts);
}

/* Step 3 for an inverted or a callers tree: VIEW becomes that tree, and
 * the thread counts (when COUNT) are returned.  LEAVES: what VIEW's
 * weights are by when it is the exact tree's (see tv_call_tree_invert
 * ()), else NULL. */
static guint32 *
turn_over (TvProfileData   *data,
           const TvQuery   *query,
           gboolean         count,
           const GArray    *hits,
           const RunLeaves *leaves,
           const guint32   *map,
           const guint8    *in_focus,
           double           functions_end,
           Builder         *view,
           GArray          *remainders,
           Progress        *progress)
{
  Builder other = { 0 };
  guint32 *threads = NULL;

  progress_stage (progress, functions_end, 0.9 - functions_end);
  /* Only a callers tree looks its nodes up.  An inverted tree has more
   * nodes than the view, or the exact tree it turns over (twice as many
   * on the default shape): room for
   * that many from the start spares copying the arrays as they grow.  One
   * that leaves nodes out has far fewer, and room it never uses would be
   * pages to clear for the next array that takes its place. */
  guint32 view_nodes = leaves != NULL ? tv_profile_data_get_tree (data)->n_nodes : view->n_nodes;
  guint32 hint = query->callers_of != TV_NODE_NONE ? view_nodes
                 : MIN (view_nodes, G_MAXUINT32 / 4) * 2;

  if (query->callers_of == TV_NODE_NONE && (query->min_total > 0 || query->detail_min_total > 0))
    hint = MIN (hint, 1u << 20);
  tv_builder_init (&other, hint, query->count_states, query->callers_of != TV_NODE_NONE);
  if (query->callers_of != TV_NODE_NONE)
    {
      tv_autohuge guint64 *total = tv_huge_new (guint64, view->n_nodes);

      /* The view is dropped after this, so its counts can become totals
       * in place. */
      tv_builder_sum_totals (view, total);
      sum_states (view);
      tv_call_tree_callers (data, query->merge, view, total, view->status, query->callers_of,
                            &other, progress);
    }
  else
    {
      tv_autohuge guint32 *end_of = count ? tv_huge_new (guint32, view->n_nodes) : NULL;

      tv_call_tree_invert (data, view, leaves, query, &other, end_of, remainders, progress);
      if (count && !progress->cancelled)
        {
          progress_stage (progress, 0.9, 0.05);
          threads = count_threads (hits, NULL, map, in_focus, view, end_of, &other, progress);
        }
    }
  tv_builder_clear (view);
  *view = other;
  return threads;
}

/* Whether QUERY is one DATA can answer. */
static gboolean
query_fits (TvProfileData *data,
            const TvQuery *query)
{
  return query->merge < TV_N_MERGE_KEYS
         && (query->ranges == NULL
             || tv_time_ranges_are_sorted (query->ranges, query->n_ranges))
         /* A load of counts has no samples to select by state or time:
          * its filter did that while it loaded. */
         && (tv_profile_data_has_samples (data)
             || (query->status_mask == 0 && !query->has_range && query->ranges == NULL))
         /* It counted states while it loaded, or it cannot. */
         && (!query->count_states || tv_profile_data_has_states (data));
}

/* MAP, the exact nodes onto the view's, as the tree keeps it: the samples
 * of an exact node outside the focused function (not IN_FOCUS) are
 * counted nowhere, though the node maps onto the root. */
static guint32 *
node_map (const TvExactTree *exact,
          guint32           *map,
          const guint8      *in_focus)
{
  if (in_focus != NULL)
    for (guint32 n = 0; n < exact->n_nodes; n++)
      if (!in_focus[n])
        map[n] = TV_NODE_NONE;
  return map;
}

/* A tree's function table, read off the finished tree, whose totals and
 * children are made.  FALSE once cancelled. */
static gboolean
tree_functions (TvCallTree *tree,
                Progress   *progress)
{
  FunctionsInput in = { tree->n_nodes, tree->key, tree->self, tree->total,
                        tree->child_start, tree->children };

  progress_stage (progress, 0.85, 0.15);
  tree->functions = tv_call_tree_build_functions (tree->data, tree->merge, &in,
                                                  &tree->n_functions, &tree->outer_start,
                                                  &tree->outer_nodes, progress);
  return !progress->cancelled;
}

/* Exact trees from this many nodes read a function table off on a thread
 * of its own, while the view is grouped (FunctionsJob), and share an
 * inverted tree's first pass between two. */
static guint32 thread_min_nodes = 1u << 20;

void
tv_call_tree_set_thread_min_nodes (guint32 n_nodes)
{
  thread_min_nodes = n_nodes;
}

gboolean
tv_call_tree_uses_threads (guint32 n_nodes)
{
  return n_nodes >= thread_min_nodes && (thread_min_nodes == 0 || g_get_num_processors () > 1);
}

/* The function table of a view that leaves nodes out and merges none into
 * its parent's but hidden ones (tv_call_tree_exact_functions()), read off
 * on a second thread while the first groups the view: both only read
 * the exact tree and its weights.  Without hidden ones, the first thread
 * takes what is left of it once it has grouped (FunctionsShare), rather
 * than wait.  The thread reports no progress, and stops when CANCELLABLE
 * is cancelled. */
typedef struct
{
  TvProfileData  *data;
  const TvWeight *weights;
  const GArray   *hits;
  const guint64  *reached;
  const guint8   *hidden;
  Progress        progress;
  Neighbours      neighbours;
  guint           n_functions;
  TvFunctionRow  *functions;
  /* With no hidden function, the pass is shared: the first thread takes
   * its part of it once it has grouped. */
  FunctionsShare *share;
} FunctionsJob;

static gpointer
functions_job_run (gpointer user_data)
{
  FunctionsJob *job = user_data;

  if (job->share != NULL)
    tv_call_tree_functions_share_work (job->share, FALSE, &job->progress);
  else
    job->functions = tv_call_tree_exact_functions (job->data, job->weights, job->hits,
                                                   job->reached, job->hidden, FALSE, NULL,
                                                   &job->neighbours, &job->n_functions,
                                                   &job->progress);
  return NULL;
}

/* Whether QUERY leaves nodes out of a top-down tree (see
 * TvQuery.min_total). */
static gboolean
prunes_top_down (const TvQuery *query)
{
  return !query->inverted && query->callers_of == TV_NODE_NONE && !query->keep_node_map
         && (query->min_total > 0 || query->detail_min_total > 0
             || query->min_total_divisor > 0);
}

/* What a pruned tree left out lands in MAP where its samples went: on
 * the node that kept the remainder; and with STATES, their states there
 * too, to be summed up with the rest.  That is the nodes with samples in
 * their subtree (SUB) that KEPT does not mark, of those REACHED marks when
 * it is given, and with IN_FOCUS, of those in focus.  Parents come
 * first.  With PATHS (per view node), each remainder's nodes are counted
 * there, and with REM_STATES, their states. */
static void
map_left_out (const TvExactTree *exact,
              const TvWeight    *sub,
              const guint64     *reached,
              const guint64     *kept,
              const guint8      *in_focus,
              const guint64     *states,
              guint32           *map,
              Builder           *view,
              guint64           *paths,
              guint64           *rem_states)
{
  /* The node mapped last, and where: down a chain of calls, the next
   * one's parent, whose entry is not loaded back. */
  guint32 last = TV_NODE_NONE, last_map = TV_ROOT_NODE;

  for (gsize w = 0; w < ((gsize) exact->n_nodes + 63) / 64; w++)
    {
      guint64 word = ~kept[w];

      if (reached != NULL)
        word &= reached[w];
      while (word != 0)
        {
          guint bit = __builtin_ctzll (word);
          guint32 n = (guint32) (w * 64 + bit);
          guint32 p, to;

          word &= word - 1;
          if (n >= exact->n_nodes)
            break;
          if (sub[n] == 0 || (in_focus != NULL && !in_focus[n]))
            continue;
          p = tv_exact_tree_parent (exact, n);
          /* An outermost call of a focused function hangs off the root. */
          if (in_focus != NULL && !in_focus[p])
            to = TV_ROOT_NODE;
          else
            to = p == last ? last_map : map[p];
          map[n] = to;
          last = n;
          last_map = to;
          if (states != NULL)
            add_states (view->status + (gsize) to * N_STATES, states + (gsize) n * N_STATES);
          if (paths != NULL)
            paths[to]++;
          if (rem_states != NULL)
            add_states (rem_states + (gsize) to * N_STATES, states + (gsize) n * N_STATES);
        }
    }
}

/* The neighbours FROM has, copied into TO. */
static void
copy_neighbours (Neighbours       *to,
                 const Neighbours *from,
                 guint32           n_functions)
{
  to->callers_start = g_memdup2 (from->callers_start, ((gsize) n_functions + 1) * sizeof (guint32));
  to->callers_rows = g_memdup2 (from->callers_rows,
                                MAX (from->callers_start[n_functions], 1) * sizeof (TvFunctionRow));
  to->callees_start = g_memdup2 (from->callees_start, ((gsize) n_functions + 1) * sizeof (guint32));
  to->callees_rows = g_memdup2 (from->callees_rows,
                                MAX (from->callees_start[n_functions], 1) * sizeof (TvFunctionRow));
}

static gint merged_used;

guint
tv_call_tree_get_merged_used (void)
{
  return (guint) g_atomic_int_get (&merged_used);
}

/* Whether QUERY's tree is the same read off the profile's tree merged by
 * function: it groups by paths of functions, and keeps nothing of the
 * exact nodes (a node map, or each remainder's call paths). */
static gboolean
reads_merged (const TvQuery *query)
{
  return query->merge == TV_MERGE_FUNCTION && !query->keep_node_map && !query->thread_self;
}

/**
 * tv_call_tree_new:
 *
 * Computes the call tree QUERY asks for.  Safe on any thread.
 *
 * Returns: (transfer full) (nullable): the tree, or %NULL if cancelled
 */
TvCallTree *
tv_call_tree_new (TvProfileData *data,
                  const TvQuery *query,
                  GCancellable  *cancellable)
{
  return tv_call_tree_new_with_progress (data, query, NULL, NULL, cancellable);
}

/* A build's progress, into the TvProgress it was given as cancellable. */
static void
report_into_cancellable (double   fraction,
                         gpointer user_data)
{
  tv_progress_report (user_data, fraction);
}

TvCallTree *
tv_call_tree_new_with_progress (TvProfileData  *data,
                                const TvQuery  *query,
                                TvProgressFunc  progress_func,
                                gpointer        progress_data,
                                GCancellable   *cancellable)
{
  /* Without a function of its own, a build reports into its cancellable
   * when that is a TvProgress (see tv-progress.h). */
  Progress progress = {
    progress_func != NULL || !TV_IS_PROGRESS (cancellable) ? progress_func
                                                            : report_into_cancellable,
    progress_func != NULL ? progress_data : cancellable,
    cancellable, 0, 0, 0, FALSE
  };
  /* The steps' shares of the time a big tree takes. */
  gboolean other_tree = query->inverted || query->callers_of != TV_NODE_NONE;
  double map_end = other_tree ? 0.45 : 0.7;
  double functions_end = other_tree ? 0.55 : 0.85;
  TvProfileData *source;
  const TvExactTree *exact;
  /* Step 1's, which the others only read. */
  g_autoptr(Weighed) weighed = NULL;
  TvWeight *weights;
  guint64 *states, *reached;
  GArray *hits;
  tv_autohuge guint32 *map = NULL;
  g_autofree guint8 *in_focus = NULL;
  tv_autohuge guint32 *threads = NULL;
  g_autoptr(GArray) remainders = g_array_new (FALSE, FALSE, sizeof (Remainder));
  /* A callers tree has no thread counts: its nodes are not paths of
   * samples but of callers. */
  gboolean count = query->count_threads && query->callers_of == TV_NODE_NONE;
  /* A thread's self samples are on the nodes of the tree as step 2 makes
   * it, before any inversion. */
  gboolean keep_self = query->thread_self && !query->inverted
                       && query->callers_of == TV_NODE_NONE;
  /* An inverted tree whose function table is given is turned over from
   * the exact tree (see TvQuery.functions_of). */
  gboolean from_exact = query->functions_of != NULL && query->inverted
                        && query->callers_of == TV_NODE_NONE
                        && query->focus_function == TV_NODE_NONE && !query->collapse_recursion;
  /* A top-down tree that leaves nodes out reads its function table off
   * the exact tree, or takes it from a tree that did (see
   * TvQuery.functions_of). */
  gboolean prune_top = prunes_top_down (query);
  g_autofree guint64 *kept = NULL;
  g_autofree guint64 *rem_paths = NULL;
  g_autofree guint64 *rem_states = NULL;
  g_autoptr(GArray) left_roots = NULL;
  g_autofree guint32 *hit_nodes = NULL;
  Prune prune = { 0 };
  TvCallTree *table_of = prune_top && query->functions_of != NULL
                         && query->functions_of->neighbours.callers_start != NULL
                         ? query->functions_of : NULL;
  Neighbours neighbours = { 0 };
  Builder view = { 0 };
  TvCallTree *tree;
  TvFunctionRow *functions = NULL;
  guint n_functions = 0;
  /* Given back to the kept blocks on the way out. */
  g_auto(RunLeaves) leaves = { 0 };

  g_return_val_if_fail (data != NULL, NULL);
  g_return_val_if_fail (query != NULL, NULL);
  g_return_val_if_fail (query_fits (data, query), NULL);
  g_return_val_if_fail (query->functions_of == NULL || query->functions_of->data == data, NULL);

  /* The tree is the profile's whatever it read. */
  source = data;
  if (reads_merged (query) && tv_profile_data_get_merged (data) != NULL)
    {
      data = tv_profile_data_get_merged (data);
      g_atomic_int_inc (&merged_used);
    }
  exact = tv_profile_data_get_tree (data);
  progress_stage (&progress, 0.0, 0.15);
  /* Turned over from the exact tree, the weights are those of its leaves,
   * by their rank among the runs' leaves, kept between queries; a profile
   * of too many runs for that is turned over from its view. */
  if (from_exact && !tv_run_leaves_get (data, &leaves))
    from_exact = FALSE;
  /* A pruned tree weighs subtrees (see Prune). */
  weighed = tv_call_tree_weigh_tree (data, query, prune_top, count || keep_self, !from_exact,
                                     from_exact ? &leaves : NULL, &progress);
  if (weighed == NULL)
    return NULL;
  weights = weighed->weights;
  states = weighed->states;
  reached = weighed->reached;
  hits = count || keep_self ? weighed->hits : NULL;

  progress_stage (&progress, 0.15, map_end - 0.15);
  if (from_exact)
    {
      /* The exact tree itself is turned over, with the other tree's
       * function table: the view is its leaves' weights, with no parents
       * (see tv_call_tree_invert()). */
      view.n_nodes = view.capacity = MAX (leaves.n_leaves, 1);
      g_assert (!weighed->kept);
      view.self = tv_huge_new (guint64, view.capacity);
      for (guint32 i = 0; i < view.n_nodes; i++)
        view.self[i] = weighed->weights[i];
      g_clear_pointer (&weighed->weights, tv_huge_free);
      view.status = g_steal_pointer (&weighed->states);
      weights = NULL;
      states = NULL;
      functions = g_memdup2 (query->functions_of->functions,
                             MAX (query->functions_of->n_functions, 1) * sizeof (TvFunctionRow));
      n_functions = query->functions_of->n_functions;
    }
  else
    {
      g_autofree guint8 *hidden = prune_top && table_of == NULL
                                  ? tv_call_tree_hidden_functions (data, query) : NULL;
      FunctionsJob job = { data, weights, weighed->hits, reached, hidden,
                           { NULL, NULL, progress.cancellable, 0, 0, 0, FALSE },
                           { 0 }, 0, NULL, NULL };
      GThread *helper = NULL;

      /* Only a focused view that keeps every node looks its nodes up (see
       * tv_call_tree_map_nodes()).  One that leaves nodes out has far
       * fewer than the exact tree: room it never used would be pages to
       * clear for the next array that takes its place. */
      map = tv_huge_new (guint32, exact->n_nodes);
      tv_builder_init (&view, prune_top ? MIN (exact->n_nodes, 1u << 20) : exact->n_nodes,
                       query->count_states, query->focus_function != TV_NODE_NONE && !prune_top);
      if (query->focus_function != TV_NODE_NONE)
        in_focus = g_new0 (guint8, exact->n_nodes);
      if (prune_top)
        {
          kept = g_new0 (guint64, ((gsize) exact->n_nodes + 63) / 64 + 1);
          prune = (Prune) { kept, query->min_total, query->min_total_divisor,
                            query->detail_min_total,
                            query->detail_path, query->n_detail_path, remainders, NULL };
          /* Counting threads alone needs the view nodes of the hits'
           * leaves, not every node left out in MAP (see map_left_out()):
           * a few of its pages, not all. */
          if (count && !keep_self && states == NULL && in_focus == NULL)
            prune.left_roots = left_roots = g_array_new (FALSE, FALSE, sizeof (LeftRoot));
        }
      /* The function table on a second thread, while this one groups
       * (FunctionsJob). */
      if (prune_top && table_of == NULL && query->focus_function == TV_NODE_NONE
          && !query->collapse_recursion && tv_call_tree_uses_threads (exact->n_nodes))
        {
          if (hidden == NULL)
            job.share = tv_call_tree_functions_share_new (data, weights, weighed->hits,
                                                          reached);
          helper = g_thread_try_new ("tv-functions", functions_job_run, &job, NULL);
        }
      tv_call_tree_map_nodes (data, query, weights, states, reached, map, in_focus,
                              prune_top ? &prune : NULL, &view, &progress);
      if (prune_top && (count || states != NULL || keep_self) && !progress.cancelled)
        {
          /* With each thread's self samples, what each remainder holds. */
          if (keep_self)
            {
              rem_paths = g_new0 (guint64, view.n_nodes);
              if (states != NULL)
                rem_states = g_new0 (guint64, (gsize) view.n_nodes * N_STATES);
            }
          if (left_roots != NULL)
            {
              hit_nodes = g_new (guint32, MAX (hits->len, 1));
              tv_call_tree_map_left_leaves (exact, &prune, hits, map, hit_nodes);
            }
          else
            map_left_out (exact, weights, reached, kept, in_focus, states, map, &view,
                          rem_paths, rem_states);
        }
      if (helper != NULL || job.share != NULL)
        {
          if (job.share != NULL)
            {
              /* What the helper has not taken yet, and the last chunk;
               * with no helper, its share too. */
              Progress own = { NULL, NULL, progress.cancellable, 0, 0, 0, progress.cancelled };

              if (helper == NULL)
                tv_call_tree_functions_share_work (job.share, FALSE, &own);
              tv_call_tree_functions_share_work (job.share, TRUE, &own);
              progress.cancelled |= own.cancelled;
            }
          if (helper != NULL)
            g_thread_join (helper);
          progress.cancelled |= job.progress.cancelled;
          if (job.share != NULL)
            job.functions = tv_call_tree_functions_share_finish (job.share, &job.neighbours,
                                                                 &job.n_functions, &progress);
          functions = job.functions;
          n_functions = job.n_functions;
          neighbours = job.neighbours;
        }
      else if (prune_top && table_of == NULL && !progress.cancelled)
        {
          progress_stage (&progress, 0.55, 0.15);
          functions = tv_call_tree_exact_functions (data, weights, weighed->hits, reached,
                                                    hidden,
                                                    query->collapse_recursion, in_focus,
                                                    &neighbours,
                                                    &n_functions, &progress);
        }
      else if (table_of != NULL)
        {
          functions = g_memdup2 (table_of->functions,
                                 MAX (table_of->n_functions, 1) * sizeof (TvFunctionRow));
          n_functions = table_of->n_functions;
          copy_neighbours (&neighbours, &table_of->neighbours,
                           tv_profile_data_get_n_keys (data, TV_MERGE_FUNCTION));
        }
    }
  /* Per exact node, and done with: gone before the view's arrays are
   * made, which keeps the peak down on a big tree, unless kept for the
   * next tree (see Weighed). */
  tv_weighed_done_with_nodes (weighed);
  weights = NULL;
  states = reached = NULL;
  if (progress.cancelled || g_cancellable_is_cancelled (cancellable))
    {
      g_free (functions);
      tv_neighbours_clear (&neighbours);
      tv_builder_clear (&view);
      return NULL;
    }

  if (query->callers_of != TV_NODE_NONE || query->inverted)
    {
      /* The function table never depends on inversion: it is the tree's
       * before it is turned over. */
      progress_stage (&progress, map_end, functions_end - map_end);
      if (functions == NULL)
        functions = tv_builder_functions (data, query->merge, &view, &n_functions, &progress);
      if (!progress.cancelled)
        threads = turn_over (data, query, count, hits, from_exact ? &leaves : NULL, map,
                             in_focus, functions_end, &view, remainders, &progress);
    }
  else if (count)
    {
      progress_stage (&progress, map_end, 0.8 - map_end);
      threads = count_threads (hits, hit_nodes, map, in_focus, &view, NULL, NULL, &progress);
    }
  progress_stage (&progress, other_tree ? 0.95 : 0.8, 0.05);
  if (progress.cancelled || g_cancellable_is_cancelled (cancellable))
    {
      g_free (functions);
      tv_neighbours_clear (&neighbours);
      tv_builder_clear (&view);
      return NULL;
    }

  tree = finish (source, query, &view, remainders);
  if (functions == NULL && !tree_functions (tree, &progress))
    {
      tv_builder_clear (&view);
      tv_call_tree_unref (tree);
      return NULL;
    }
  if (functions != NULL)
    {
      tree->functions = functions;
      tree->n_functions = n_functions;
    }
  tree->neighbours = neighbours;
  qsort (tree->functions, tree->n_functions, sizeof (TvFunctionRow), tv_function_rows_compare);
  tree->threads = g_steal_pointer (&threads);
  if (keep_self)
    {
      keep_thread_self (tree, tv_profile_data_get_n_threads (data), hits, map, in_focus,
                        tree->remainder != NULL ? kept : NULL, &view);
      if (tree->remainder != NULL)
        {
          tree->remainder_paths = g_steal_pointer (&rem_paths);
          tree->remainder_status = g_steal_pointer (&rem_states);
        }
    }
  if (query->keep_node_map && query->callers_of == TV_NODE_NONE && !query->inverted)
    tree->node_map = node_map (exact, g_steal_pointer (&map), in_focus);
  tv_builder_clear (&view);
  /* Made: the whole of the work is done, wherever the last step's last
   * report fell.  A cancel from that report still means no tree. */
  progress_stage (&progress, 1.0, 0.0);
  if (progress.cancelled || g_cancellable_is_cancelled (cancellable))
    {
      tv_call_tree_unref (tree);
      return NULL;
    }
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
  tv_huge_free (self->parent);
  tv_huge_free (self->key);
  tv_huge_free (self->depth);
  tv_huge_free (self->self);
  tv_huge_free (self->total);
  tv_huge_free (self->remainder);
  tv_huge_free (self->remainder_children);
  tv_huge_free (self->cut_below);
  tv_huge_free (self->status);
  tv_huge_free (self->threads);
  tv_huge_free (self->node_map);
  g_free (self->thread_self_start);
  g_free (self->thread_self_nodes);
  g_free (self->thread_self_counts);
  g_free (self->thread_rem_start);
  g_free (self->thread_rem_nodes);
  g_free (self->thread_rem_counts);
  g_free (self->remainder_paths);
  g_free (self->remainder_status);
  tv_huge_free (self->child_start);
  tv_huge_free (self->children);
  g_free (self->functions);
  g_free (self->outer_start);
  tv_huge_free (self->outer_nodes);
  tv_neighbours_clear (&self->neighbours);
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

guint64
tv_call_tree_get_remainder (TvCallTree *self,
                            guint32     node)
{
  g_return_val_if_fail (node < self->n_nodes, 0);
  return self->remainder != NULL ? self->remainder[node] : 0;
}

guint32
tv_call_tree_get_remainder_children (TvCallTree *self,
                                     guint32     node)
{
  g_return_val_if_fail (node < self->n_nodes, 0);
  return self->remainder_children != NULL ? self->remainder_children[node] : 0;
}

guint64
tv_call_tree_get_remainder_paths (TvCallTree *self,
                                  guint32     node)
{
  g_return_val_if_fail (node < self->n_nodes, 0);
  return self->remainder_paths != NULL ? self->remainder_paths[node] : 0;
}

const guint64 *
tv_call_tree_get_remainder_status_counts (TvCallTree *self,
                                          guint32     node)
{
  g_return_val_if_fail (node < self->n_nodes, NULL);
  return self->remainder_status != NULL ? self->remainder_status + (gsize) node * N_STATES
                                        : NULL;
}

guint64
tv_call_tree_get_cut_below (TvCallTree *self,
                            guint32     node)
{
  g_return_val_if_fail (node < self->n_nodes, 0);
  return self->cut_below != NULL ? self->cut_below[node] : 0;
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

/* Thread THREAD's part of lists kept thread by thread (START, NODES and
 * COUNTS, see TvCallTree.thread_self_start). */
static const guint32 *
thread_lists (const TvCallTree *self,
              const guint64    *start,
              const guint32    *nodes,
              const guint64    *counts,
              guint             thread,
              const guint64   **counts_out,
              guint            *n_nodes)
{
  *n_nodes = 0;
  *counts_out = NULL;
  if (start == NULL || thread >= self->n_thread_self)
    return NULL;
  *n_nodes = (guint) (start[thread + 1] - start[thread]);
  *counts_out = counts + start[thread];
  return nodes + start[thread];
}

const guint32 *
tv_call_tree_get_thread_self (TvCallTree     *self,
                              guint           thread,
                              const guint64 **counts,
                              guint          *n_nodes)
{
  g_return_val_if_fail (counts != NULL && n_nodes != NULL, NULL);

  return thread_lists (self, self->thread_self_start, self->thread_self_nodes,
                       self->thread_self_counts, thread, counts, n_nodes);
}

const guint32 *
tv_call_tree_get_thread_remainders (TvCallTree     *self,
                                    guint           thread,
                                    const guint64 **counts,
                                    guint          *n_nodes)
{
  g_return_val_if_fail (counts != NULL && n_nodes != NULL, NULL);

  return thread_lists (self, self->thread_rem_start, self->thread_rem_nodes,
                       self->thread_rem_counts, thread, counts, n_nodes);
}

const guint32 *
tv_call_tree_get_node_map (TvCallTree *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->node_map;
}

const guint32 *
tv_call_tree_get_parents (TvCallTree *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->parent;
}

const guint32 *
tv_call_tree_get_keys (TvCallTree *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->key;
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

double
tv_call_tree_samples_to_seconds (TvCallTree   *self,
                                 guint64       samples,
                                 TvTimeSource *source)
{
  return (double) samples * tv_profile_data_get_seconds_per_sample (self->data, source);
}
