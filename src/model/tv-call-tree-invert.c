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
 * samples) and has reached AT on its way up; KEY is the key of the node
 * above AT, the next step, or TV_NODE_NONE at the root. */
typedef struct
{
  guint32 key;
  guint32 leaf;
  guint32 at;
} Walker;

/* A node's parent, and the parent's key. */
typedef struct
{
  guint32 up;
  guint32 up_key;
} Step;

/* An inverted node, the range of the walkers that reached it, and where it
 * is against the query's detail path: LEVEL_OFF off it, else how many of
 * its keys lead to it (all of them at its end and below, where the
 * finer threshold holds). */
typedef struct
{
  guint32 node;
  guint32 start;
  guint32 end;
  guint32 level;
} Span;

#define LEVEL_OFF G_MAXUINT32

/* Sorts the N walkers W by key, using TMP (room for N): insertion for a
 * few, else a radix sort a byte at a time, skipping the bytes where all
 * keys agree.  The order of equal keys does not matter: they take the
 * same step. */
static void
sort_walkers (Walker  *w,
              guint32  n,
              Walker  *tmp)
{
  guint32 all_or = 0, all_and = G_MAXUINT32;

  if (n < 64)
    {
      for (guint32 i = 1; i < n; i++)
        {
          Walker x = w[i];
          guint32 j = i;

          for (; j > 0 && w[j - 1].key > x.key; j--)
            w[j] = w[j - 1];
          w[j] = x;
        }
      return;
    }

  for (guint32 i = 0; i < n; i++)
    {
      all_or |= w[i].key;
      all_and &= w[i].key;
    }
  for (guint shift = 0; shift < 32; shift += 8)
    {
      guint32 count[256] = { 0 };
      guint32 sum = 0;

      if ((((all_or ^ all_and) >> shift) & 0xff) == 0)
        continue;
      for (guint32 i = 0; i < n; i++)
        count[(w[i].key >> shift) & 0xff]++;
      for (guint b = 0; b < 256; b++)
        {
          guint32 c = count[b];

          count[b] = sum;
          sum += c;
        }
      for (guint32 i = 0; i < n; i++)
        tmp[count[(w[i].key >> shift) & 0xff]++] = w[i];
      memcpy (w, tmp, n * sizeof (Walker));
    }
}

/* Whether the N paths W, one child of NODE, weigh less than MIN_TOTAL;
 * if so they end at NODE, and their samples are its remainder. */
static gboolean
leave_out (const Builder *v,
           guint64        min_total,
           const Walker  *w,
           guint32        n,
           guint32        node,
           Builder       *inv,
           guint32       *end_of,
           GArray        *remainders)
{
  guint64 samples = 0;

  for (guint32 i = 0; i < n && samples < min_total; i++)
    samples += v->self[w[i].leaf];
  if (samples >= min_total)
    return FALSE;

  for (guint32 i = 0; i < n; i++)
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

/* The walkers [A, B) reached NODE: those whose path ends there weigh
 * it, and the others take a step up, kept in order from A.  Returns the
 * end of those kept. */
static inline guint32
step_up (const Builder *v,
         const Step    *steps,
         Walker        *walkers,
         guint32        a,
         guint32        b,
         guint32        node,
         Builder       *inv,
         guint32       *end_of)
{
  guint32 kept = a;

  for (guint32 i = a; i < b; i++)
    {
      Walker w = walkers[i];
      Step step;

      /* The nodes the paths are at lie all over the tree: asked for a
       * few paths ahead, they arrive while these are taken. */
      if (i + PREFETCH_AHEAD < b)
        __builtin_prefetch (&steps[walkers[i + PREFETCH_AHEAD].at]);
      step = steps[w.at];

      if (step.up == 0)
        {
          inv->self[node] += v->self[w.leaf];
          if (v->status != NULL)
            add_states (inv->status + (gsize) node * N_STATES, v->status + (gsize) w.leaf * N_STATES);
          if (end_of != NULL)
            end_of[w.leaf] = node;
          continue;
        }
      walkers[kept++] = (Walker) { step.up_key, w.leaf, step.up };
    }
  return kept;
}

/* The steps up the view V, and a walker for each node with self
 * samples, into WALKERS (room for every node).  Returns the walkers. */
static guint32
walkers_from_view (const Builder *v,
                   Step          *steps,
                   Walker        *walkers)
{
  guint32 n_walkers = 0;

  for (guint32 n = 1; n < v->n_nodes; n++)
    {
      guint32 up = v->parent[n];

      steps[n] = (Step) { up, up != 0 ? v->key[up] : TV_NODE_NONE };
      /* At the root, the next step is the leaf itself. */
      if (v->self[n] > 0)
        walkers[n_walkers++] = (Walker) { v->key[n], n, n };
    }
  return n_walkers;
}

/* The same from the exact tree of DATA, whose nodes V weighs, with the
 * query's merge key: a hidden frame is stepped over (a step goes to the
 * nearest caller that is not hidden, which a node's step reads off its
 * parent's, made before it), and a hidden node's self samples start from
 * that caller, or end at the root when there is none. */
static guint32
walkers_from_exact (TvProfileData *data,
                    const TvQuery *query,
                    const Builder *v,
                    Step          *steps,
                    Walker        *walkers,
                    Builder       *inv,
                    guint32       *end_of,
                    Progress      *progress)
{
  const TvExactTree *exact = tv_profile_data_get_tree (data);
  const guint32 *keys = tv_profile_data_get_frame_keys (data, query->merge);
  const guint32 *fkeys = tv_profile_data_get_frame_keys (data, TV_MERGE_FUNCTION);
  g_autofree guint8 *hidden = tv_call_tree_hidden_functions (data, query);
  guint32 n_walkers = 0;
  /* The frame of the node before: most often the parent. */
  guint32 before = 0;

  g_assert (v->n_nodes == MAX (exact->n_nodes, 1));
  for (guint32 n = 1; n < exact->n_nodes && progress_step (progress, n, exact->n_nodes); n++)
    {
      guint32 p = tv_exact_tree_parent (exact, n);
      guint32 frame = tv_exact_tree_frame (exact, n);
      guint32 up_frame = p == n - 1 ? before : tv_exact_tree_frame (exact, p);
      Step step = { p, p != 0 ? keys[up_frame] : TV_NODE_NONE };

      before = frame;
      if (p != 0 && hidden != NULL && hidden[fkeys[up_frame]])
        step = steps[p];
      steps[n] = step;
      if (v->self[n] == 0)
        continue;
      if (hidden == NULL || !hidden[fkeys[frame]])
        walkers[n_walkers++] = (Walker) { keys[frame], n, n };
      else if (step.up != 0)
        walkers[n_walkers++] = (Walker) { step.up_key, n, step.up };
      else
        {
          inv->self[0] += v->self[n];
          if (v->status != NULL)
            add_states (inv->status, v->status + (gsize) n * N_STATES);
          if (end_of != NULL)
            end_of[n] = 0;
        }
    }
  return n_walkers;
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
 * V is the view, or when it has no parents, the exact tree of DATA as it
 * is, weighed by V's counts: inverting goes by the keys of a path, so
 * exact nodes of the same keys need not be merged first.
 *
 * With the query's min_total, a child with fewer samples is left out and
 * its samples are added to REMAINDERS: its paths stop at its parent, which
 * keeps their state counts (END_OF, per node of V, says so too), so that
 * every node made is exact.  Along the query's detail path nothing is left
 * out, and below its end detail_min_total is the threshold. */
void
tv_call_tree_invert (TvProfileData *data,
                     const Builder *v,
                     const TvQuery *query,
                     Builder       *inv,
                     guint32       *end_of,
                     GArray        *remainders,
                     Progress      *progress)
{
  /* Room for a walker per node: only those made are touched. */
  tv_autohuge Walker *walkers = tv_huge_new (Walker, MAX (v->n_nodes, 1));
  tv_autohuge Walker *scratch = NULL;
  /* Each node's parent and the parent's key, side by side: a path's step
   * up reads one place, not two. */
  tv_autohuge Step *steps = tv_huge_new (Step, MAX (v->n_nodes, 1));
  /* Nodes made and not yet taken, each with its range of paths; the one
   * to take next on top. */
  g_autofree Span *stack = NULL;
  gsize sp = 0, stack_size = 64;
  guint32 n_walkers, n_done = 0;
  const guint32 *path = query->detail_path;
  guint32 n_path = path != NULL ? query->n_detail_path : 0;

  if (end_of != NULL)
    {
      memset (end_of, 0xff, v->n_nodes * sizeof (guint32));
      end_of[0] = 0;
    }
  inv->self[0] += v->self[0];
  if (v->status != NULL)
    add_states (inv->status, v->status);
  n_walkers = v->parent != NULL ? walkers_from_view (v, steps, walkers)
              : walkers_from_exact (data, query, v, steps, walkers, inv, end_of, progress);
  if (progress->cancelled)
    return;
  scratch = tv_huge_new (Walker, MAX (n_walkers, 1));

  stack = g_new (Span, stack_size);
  stack[sp++] = (Span) { 0, 0, n_walkers, path != NULL ? 0 : LEVEL_OFF };
  while (sp > 0)
    {
      Span top = stack[--sp];
      guint32 node = top.node, a = top.start, b = top.end;
      /* At the detail path's end or below, the finer threshold holds. */
      gboolean detail = top.level == n_path;
      guint64 min_total = detail ? query->detail_min_total : query->min_total;
      guint32 first_child = inv->n_nodes;
      gsize first_pushed = sp;
      gboolean one_key = TRUE;

      if (!progress_step (progress, n_done, n_walkers))
        return;

      /* Below the root, the paths that end here count, and the others
       * look one node further up. */
      if (node != 0)
        {
          guint32 kept = step_up (v, steps, walkers, a, b, node, inv, end_of);

          n_done += b - kept;
          b = kept;
        }
      for (guint32 i = a + 1; i < b && one_key; i++)
        one_key = walkers[i].key == walkers[a].key;
      if (!one_key)
        sort_walkers (walkers + a, b - a, scratch);

      /* One child per key, and its paths, pushed last child first so
       * that the first comes next.  A child with fewer samples than
       * MIN_TOTAL is left out: its paths end here, as the node's
       * remainder. */
      for (guint32 i = a; i < b;)
        {
          guint32 end = i + 1;
          guint32 key = walkers[i].key;
          guint32 level = LEVEL_OFF;

          while (end < b && walkers[end].key == key)
            end++;
          if (detail)
            level = n_path;
          else if (top.level != LEVEL_OFF && key == path[top.level])
            level = top.level + 1;
          /* On the way to the detail path's end, a node stays. */
          if (min_total > 0 && (detail || level == LEVEL_OFF)
              && leave_out (v, min_total, walkers + i, end - i, node, inv, end_of, remainders))
            n_done += end - i;
          else
            {
              if (sp == stack_size)
                {
                  stack_size *= 2;
                  stack = g_renew (Span, stack, stack_size);
                }
              stack[sp++] = (Span) { tv_builder_append (inv, node, key), i, end, level };
            }
          i = end;
        }
      /* Made first child first: turned so that the first is on top. */
      for (gsize x = first_pushed, y = sp; x + 1 < y; x++, y--)
        {
          Span t = stack[x];

          stack[x] = stack[y - 1];
          stack[y - 1] = t;
        }
      g_assert (inv->n_nodes - first_child <= b - a);
    }
  /* Each node's children were made together, by key, which is their rank
   * (see tv_profile_data_get_key_ranks()): no sort needed. */
  inv->children_in_order = TRUE;
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
