/* tv-profile-data-merged.c: the same samples on a tree merged by function
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A view merged by function groups the exact tree's nodes of the same
 * path of functions from the root down.  On a real recursion one such
 * path is many exact nodes (a call from each line), and grouping them
 * again at every query reads all of them: on a deep profile of 56
 * million exact nodes and 19 million paths of functions, that was most of
 * a click.  The merged tree is those paths made once, as a tree of its
 * own with the load's code: each path is a node whose frame is its
 * function's first (tv_profile_data_get_key_frame()), so that the
 * numbering, the outermost and quiet calls and every query read it as
 * they read the exact tree.  It is a TvProfileData that borrows its
 * load's samples, frames and keys and keeps its own tree and runs' leaves
 * (the runs are the load's, each leaf the path of its exact leaf).
 */
#include "tv-profile-data-private.h"
#include "tv-call-tree.h"
#include "tv-huge-pages.h"

#include <stdlib.h>
#include <string.h>

/* How often the walk looks for a cancel and at its size. */
#define MERGE_CHECK_EVERY (1u << 16)
/* The walk gives up, from this many exact nodes read on, once the merged
 * tree holds more of them than halfway from its share to all: the first
 * paths it reads are all new, and a deep file's part merged grows as
 * it goes (deepgen 3M: more than half of the first million, a third of
 * all). */
#define MERGE_CHECK_FROM  (1u << 20)

void
tv_profile_data_free_merged (TvProfileData *self)
{
  /* What a query of it kept for the next (see Weighed). */
  tv_call_tree_forget_weights (self);
  if (self->threads != NULL)
    for (guint i = 0; i < self->n_threads; i++)
      g_free (self->threads[i].run_leaf);
  g_free (self->threads);
  tv_profile_data_free_tree (self);
  g_free (self);
}

static int
compare_u32 (const void *a,
             const void *b)
{
  guint32 x = *(const guint32 *) a, y = *(const guint32 *) b;

  return (x > y) - (x < y);
}

/* Where KEY is in the N sorted VALUES, which hold it. */
static gsize
find_u32 (const guint32 *values,
          gsize          n,
          guint32        key)
{
  gsize lo = 0, hi = n;

  while (hi - lo > 1)
    {
      gsize mid = lo + (hi - lo) / 2;

      if (values[mid] <= key)
        lo = mid;
      else
        hi = mid;
    }
  return lo;
}

static gboolean
merge_cancelled (double   done,
                 gpointer user_data)
{
  return !g_cancellable_is_cancelled (user_data);
}

/* The runs' leaves of SOURCE, sorted, each once, into *LEAVES (*N_LEAVES
 * of them), and a bit for each in a bitmap of the exact nodes. */
static guint64 *
collect_leaves (TvProfileData *source,
                guint32      **leaves,
                gsize         *n_leaves)
{
  guint64 n_runs = 0;
  gsize n = 0;
  guint32 *all;
  guint64 *bits = g_new0 (guint64, ((gsize) source->tree.n_nodes + 63) / 64 + 1);

  for (guint i = 0; i < source->n_threads; i++)
    n_runs += source->threads[i].n_runs;
  all = g_new (guint32, MAX (n_runs, 1));
  for (guint i = 0; i < source->n_threads; i++)
    {
      const TvThread *t = &source->threads[i];

      for (guint64 r = 0; r < t->n_runs; r++)
        if (!TV_BIT_TEST (bits, t->run_leaf[r]))
          {
            TV_BIT_SET (bits, t->run_leaf[r]);
            all[n++] = t->run_leaf[r];
          }
    }
  qsort (all, n, sizeof *all, compare_u32);
  *leaves = all;
  *n_leaves = n;
  return bits;
}

/* Walks SOURCE's exact tree from the root, making each node's path of
 * functions in SELF's tree as the load makes a stack's nodes, and the
 * path of each of the N LEAVES in PATHS.  FALSE when cancelled, when
 * memory runs out or when the merged tree holds more than MAX_SHARE of
 * the exact nodes (or, as it goes, clearly would). */
static gboolean
merge_nodes (TvProfileData *self,
             TvProfileData *source,
             const guint64 *leaf_bits,
             const guint32 *leaves,
             gsize          n_leaves,
             guint32       *paths,
             double         max_share,
             GCancellable  *cancellable)
{
  const TvExactTree *exact = &source->tree;
  const guint32 *fkeys = source->frame_keys[TV_MERGE_FUNCTION];
  const guint32 *key_frame = source->key_frames[TV_MERGE_FUNCTION];
  /* Exact node and merged node, a pair each. */
  gsize sp = 0, stack_size = 1024;
  g_autofree guint32 *stack = g_new (guint32, 2 * stack_size);
  guint32 visited = 0;

  stack[sp++] = TV_ROOT_NODE;
  stack[sp++] = TV_ROOT_NODE;
  while (sp > 0)
    {
      guint32 m = stack[--sp];
      guint32 e = stack[--sp];
      guint32 first = tv_exact_tree_first_child (exact, e);

      if (++visited % MERGE_CHECK_EVERY == 0)
        {
          if (g_cancellable_is_cancelled (cancellable))
            return FALSE;
          if (visited >= MERGE_CHECK_FROM
              && (double) self->tree.n_nodes > (1.0 + max_share) / 2 * (double) visited)
            return FALSE;
          /* Going on: what queries kept of the exact tree for the next
           * (its weights, their arrays) goes first, so that the merged
           * tree does not add to it; the views by function will not
           * read the exact tree again.  On deepgen 3M the window's peak
           * went from 1.25 to 1.61 GB with them. */
          if (visited == MERGE_CHECK_FROM)
            {
              tv_call_tree_forget_weights (source);
              tv_huge_trim ();
            }
        }
      if (TV_BIT_TEST (leaf_bits, e))
        paths[find_u32 (leaves, n_leaves, e)] = m;
      for (guint32 c = first; c < exact->n_nodes && tv_exact_tree_parent (exact, c) == e; c++)
        {
          guint32 child = tv_profile_data_child_node (self, m,
                                                      key_frame[fkeys[tv_exact_tree_frame (exact, c)]]);

          if (child == TV_NODE_NONE)
            return FALSE;
          if (sp + 2 > 2 * stack_size)
            {
              stack_size *= 2;
              stack = g_renew (guint32, stack, 2 * stack_size);
            }
          stack[sp++] = c;
          stack[sp++] = child;
        }
    }
  return (double) self->tree.n_nodes <= max_share * (double) MAX (exact->n_nodes, 1);
}

gboolean
tv_profile_data_add_merged (TvProfileData *source,
                            double         max_share,
                            GCancellable  *cancellable)
{
  g_autoptr(TvProfileData) self = NULL;
  g_autofree guint32 *leaves = NULL;
  g_autofree guint32 *paths = NULL;
  g_autofree guint64 *leaf_bits = NULL;
  gsize n_leaves = 0;

  g_return_val_if_fail (source != NULL, FALSE);
  /* A load of counts is the exports', which need no merged tree. */
  if (source->source != NULL || source->counts_only)
    return FALSE;
  if (g_atomic_pointer_get (&source->merged) != NULL)
    return TRUE;

  self = g_new0 (TvProfileData, 1);
  g_atomic_ref_count_init (&self->ref_count);
  self->serial = tv_profile_data_new_serial ();
  self->source = source;
  /* Borrowed: freed with SOURCE, which outlives it. */
  self->reader = source->reader;
  self->n_threads = source->n_threads;
  self->n_samples = source->n_samples;
  memcpy (self->status_counts, source->status_counts, sizeof self->status_counts);
  self->max_depth = source->max_depth;
  self->n_at_depth_limit = source->n_at_depth_limit;
  self->thread_order = source->thread_order;
  self->first_timestamp = source->first_timestamp;
  self->last_timestamp = source->last_timestamp;
  memcpy (self->frame_keys, source->frame_keys, sizeof self->frame_keys);
  memcpy (self->key_frames, source->key_frames, sizeof self->key_frames);
  memcpy (self->key_ranks, source->key_ranks, sizeof self->key_ranks);
  memcpy (self->n_keys, source->n_keys, sizeof self->n_keys);
  self->internal = source->internal;
  self->budget = tv_profile_data_memory_budget ();
  self->links_next = G_MAXSIZE;
  /* The threads are the source's, but for their runs' leaves. */
  self->threads = g_memdup2 (source->threads, MAX (source->n_threads, 1) * sizeof (TvThread));
  for (guint i = 0; i < self->n_threads; i++)
    self->threads[i].run_leaf = NULL;

  leaf_bits = collect_leaves (source, &leaves, &n_leaves);
  paths = g_new (guint32, MAX (n_leaves, 1));
  if (!tv_profile_data_start_tree (self, MAX (1024, MIN (source->tree.n_nodes / 4, 1u << 20)))
      || !merge_nodes (self, source, leaf_bits, leaves, n_leaves, paths, max_share, cancellable))
    return FALSE;
  g_clear_pointer (&leaf_bits, g_free);

  for (guint i = 0; i < self->n_threads; i++)
    {
      const TvThread *from = &source->threads[i];
      TvThread *t = &self->threads[i];

      t->run_leaf = g_try_new (guint32, MAX (t->n_runs, 1));
      if (t->run_leaf == NULL)
        return FALSE;
      for (guint64 r = 0; r < t->n_runs; r++)
        t->run_leaf[r] = paths[find_u32 (leaves, n_leaves, from->run_leaf[r])];
    }
  g_clear_pointer (&paths, g_free);
  g_clear_pointer (&leaves, g_free);

  if (!tv_profile_data_number_tree (self, merge_cancelled, cancellable))
    return FALSE;
  g_clear_pointer (&self->slots, g_free);
  g_clear_pointer (&self->hashed, g_free);
  tv_profile_data_free_links (self, TRUE);

  /* Made twice at once: the first one stays. */
  if (!g_atomic_pointer_compare_and_exchange (&source->merged, NULL, self))
    return TRUE;
  self = NULL;
  return TRUE;
}

TvProfileData *
tv_profile_data_get_merged (TvProfileData *data)
{
  g_return_val_if_fail (data != NULL, NULL);
  return g_atomic_pointer_get (&data->merged);
}
