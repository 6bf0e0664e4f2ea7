/* tv-call-tree-invert.c: step 3 of a call tree, the other way up
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * An inverted tree (every stack from its leaf up) and a tree of a
 * function's callers, made from the view's tree.
 */
#include "tv-call-tree-private.h"

#include <stdlib.h>

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
void
tv_call_tree_invert (const Builder *v,
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
          tv_builder_append (inv, node, walkers[i].key);
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
