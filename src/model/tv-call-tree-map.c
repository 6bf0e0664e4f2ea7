/* tv-call-tree-map.c: step 2 of a call tree
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The exact nodes, parents first, onto the view's nodes by merge key,
 * dropped, merged or re-rooted as the transforms say.
 */
#include "tv-call-tree-private.h"
#include "tachyon-format.h"
#include "tv-huge-pages.h"

#include <stdlib.h>

/* A child of the view node being grouped: an exact node and its key's
 * place among its siblings. */
typedef struct
{
  guint32 rank;
  guint32 key;
  guint32 exact;
} Candidate;

static inline int
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

/* Sorts the N candidates by their key's rank, which groups each key's:
 * most nodes have a child or two, sorted in place with no call; more are
 * sorted a byte of the rank at a time through *SCRATCH (grown to fit),
 * skipping the bytes where all ranks agree, so that the thousands of
 * outermost calls of a focused function cost a few passes, not a
 * comparison sort.  The order within a key does not matter: its exact
 * nodes all become one view node. */
static void
sort_candidates (Candidate  *cands,
                 guint       n,
                 Candidate **scratch,
                 guint      *scratch_size)
{
  guint32 all_or = 0, all_and = G_MAXUINT32;

  if (n <= 16)
    {
      for (guint i = 1; i < n; i++)
        {
          Candidate x = cands[i];
          guint k = i;

          for (; k > 0 && compare_candidates (&x, &cands[k - 1]) < 0; k--)
            cands[k] = cands[k - 1];
          cands[k] = x;
        }
      return;
    }
  if (*scratch_size < n)
    {
      *scratch_size = n;
      *scratch = g_renew (Candidate, *scratch, n);
    }
  for (guint i = 0; i < n; i++)
    {
      all_or |= cands[i].rank;
      all_and &= cands[i].rank;
    }
  for (guint shift = 0; shift < 32; shift += 8)
    {
      guint count[256] = { 0 };
      guint sum = 0;

      if ((((all_or ^ all_and) >> shift) & 0xff) == 0)
        continue;
      for (guint i = 0; i < n; i++)
        count[(cands[i].rank >> shift) & 0xff]++;
      for (guint b = 0; b < 256; b++)
        {
          guint c = count[b];

          count[b] = sum;
          sum += c;
        }
      for (guint i = 0; i < n; i++)
        (*scratch)[count[(cands[i].rank >> shift) & 0xff]++] = cands[i];
      memcpy (cands, *scratch, n * sizeof (Candidate));
    }
}

/* How many members ahead map_grouped() asks for a member's entries. */
#define MEMBER_AHEAD 16

/* The N candidates left out into the remainder of view node TO, those
 * with children, onto ROOTS (see LeftRoot). */
static void
add_left_roots (const TvExactTree *exact,
                const Candidate   *cands,
                guint              n,
                guint32            to,
                GArray            *roots)
{
  for (guint k = 0; k < n; k++)
    {
      guint32 e = cands[k].exact;
      guint32 first = tv_exact_tree_first_child (exact, e);

      if (first < exact->n_nodes && tv_exact_tree_parent (exact, first) == e)
        {
          LeftRoot root = { first, to };

          g_array_append_val (roots, root);
        }
    }
}

/* Step 2 without a lookup per node, for queries with no focus: the view is
 * made from the root down, each view node from the exact nodes it merges.  The
 * children of those (consecutive in the exact tree's numbering) that a
 * transform merges into the node join it; the others, sorted by their
 * key's rank, become its children, one per key.  Every node is read once,
 * in about the order it is stored, and the view comes out with each
 * node's children consecutive and in display order.  B has no hash
 * table.  With PRUNE, a child whose exact nodes' subtrees hold fewer
 * samples than the threshold is left out, with its subtree, into its
 * parent's remainder; MAP then says nothing of what it left out, and
 * PRUNE's bitmap marks what it did not.  With IN_FOCUS (only with
 * PRUNE), it is filled and the view is of the focused function: the
 * root's children are grouped from its outermost calls. */
static void
map_grouped (TvProfileData  *data,
             const TvQuery  *query,
             const TvWeight *weights,
             const guint64  *states,
             const guint64  *reached,
             const guint8   *hidden,
             const Prune    *prune,
             guint8         *in_focus,
             guint32        *map,
             Builder        *b,
             Progress       *progress)
{
  const TvExactTree *exact = tv_profile_data_get_tree (data);
  const guint32 *keys = tv_profile_data_get_frame_keys (data, query->merge);
  const guint32 *fkeys = tv_profile_data_get_frame_keys (data, TV_MERGE_FUNCTION);
  const guint32 *ranks = tv_profile_data_get_key_ranks (data, query->merge);
  /* The exact nodes of each view node, view node by view node. */
  tv_autohuge guint32 *members = tv_huge_new (guint32, MAX (exact->n_nodes, 1));
  tv_autohuge guint32 *member_start = tv_huge_new (guint32, (gsize) exact->n_nodes + 1);
  /* The exact nodes a transform merges into the node being grouped. */
  g_autoptr(GArray) merged = g_array_new (FALSE, FALSE, sizeof (guint32));
  /* The children of the node being grouped. */
  guint cands_capacity = 64;
  g_autofree Candidate *cands = g_new (Candidate, cands_capacity);
  guint scratch_size = 0;
  g_autofree Candidate *scratch = NULL;
  /* View nodes to group, the next on top: a node's children are made
   * together, and the first child's subtree before its siblings', so that
   * the view is numbered as the exact tree is. */
  tv_autohuge guint32 *stack = tv_huge_new (guint32, MAX (exact->n_nodes, 1));
  guint32 sp = 0;
  guint32 n_members = 0;
  /* With a detail path: per view node, how many of its keys lead to the
   * node (all of them at its end and below), or LEVEL_OFF. */
  const guint32 LEVEL_OFF = G_MAXUINT32;
  guint n_path = prune != NULL && prune->path != NULL ? prune->n_path : 0;
  g_autoptr(GArray) levels = g_array_new (FALSE, FALSE, sizeof (guint32));
  /* With a focus, its outermost calls. */
  g_autoptr(GArray) outer = g_array_new (FALSE, FALSE, sizeof (guint32));
  /* With PRUNE, the share of the tree's samples no node is kept under. */
  guint64 share = 0;

  /* Every node with samples gets its place below; the others only matter
   * to a query that keeps the whole map, and a view of few samples should
   * not cost a pass over the tree. */
  if (query->keep_node_map)
    for (guint32 n = 0; n < exact->n_nodes; n++)
      map[n] = TV_NODE_NONE;
  map[0] = 0;
  if (prune != NULL)
    TV_BIT_SET (prune->kept, 0);
  /* With PRUNE, WEIGHTS are subtree sums: a node's own samples are found
   * with its children, when its view node is grouped. */
  if (prune == NULL)
    b->self[0] += weights[0];
  if (states != NULL && in_focus == NULL)
    add_states (b->status, states);
  if (in_focus != NULL)
    {
      /* Parents first: a node is in focus below an outermost call of the
       * function, and those calls are the root's children.  The root
       * stands for them (TV_NODE_NONE): its own samples are not in
       * focus. */
      in_focus[0] = 0;
      for (guint32 n = 1; n < exact->n_nodes; n++)
        {
          guint8 above = in_focus[tv_exact_tree_parent (exact, n)];

          in_focus[n] = above || fkeys[tv_exact_tree_frame (exact, n)] == query->focus_function;
          if (in_focus[n] && !above && weights[n] > 0)
            g_array_append_val (outer, n);
        }
      members[n_members++] = TV_NODE_NONE;
    }
  else
    members[n_members++] = 0;
  if (prune != NULL && prune->min_total_divisor > 0)
    {
      /* The tree's samples: the root's subtree, or the outermost calls'
       * of the focused function. */
      guint64 samples = in_focus != NULL ? 0 : weights[0], d = prune->min_total_divisor;

      for (guint i = 0; i < outer->len; i++)
        samples += weights[g_array_index (outer, guint32, i)];
      share = MAX (samples / d + (samples % d != 0), 1);
    }
  member_start[0] = 0;
  member_start[1] = n_members;
  {
    guint32 level = prune != NULL && prune->path != NULL ? 0 : LEVEL_OFF;

    g_array_append_val (levels, level);
  }

  b->children_in_order = TRUE;
  stack[sp++] = 0;
  while (sp > 0 && progress_step (progress, n_members, exact->n_nodes))
    {
      guint32 v = stack[--sp];
      guint32 first_new = b->n_nodes;
      guint32 v_function = v == 0 || !query->collapse_recursion
                           ? TV_NODE_NONE : key_function (data, query->merge, b->key[v]);
      guint32 n_own = member_start[v + 1] - member_start[v];
      guint n_cands = 0;

      /* V's exact nodes, then those a transform merged into it. */
      g_array_set_size (merged, 0);
      for (guint i = 0; i < n_own + merged->len; i++)
        {
          guint32 e = i < n_own ? members[member_start[v] + i]
                                : g_array_index (merged, guint32, i - n_own);
          guint64 children = 0;
          /* The focused view's root: the outermost calls are its
           * children. */
          gboolean focus_root = e == TV_NODE_NONE;
          guint32 first = focus_root ? 0 : tv_exact_tree_first_child (exact, e);

          if (i + MEMBER_AHEAD < n_own)
            {
              /* The first child of the member MEMBER_AHEAD on, and the
               * entries of that of the one MEMBER_AHEAD / 2 on, whose own
               * entry was asked for MEMBER_AHEAD / 2 members ago. */
              guint32 near = members[member_start[v] + i + MEMBER_AHEAD / 2];
              guint32 d = exact->down[near];

              __builtin_prefetch (&exact->down[members[member_start[v] + i + MEMBER_AHEAD]]);
              if (d != TV_TREE_FAR)
                {
                  __builtin_prefetch (&exact->up[near + d]);
                  __builtin_prefetch (&weights[near + d]);
                  if (exact->frame16 != NULL)
                    __builtin_prefetch (&exact->frame16[near + d]);
                }
            }

          for (guint32 j = 0;; j++)
            {
              guint32 c, frame, f;

              if (focus_root)
                {
                  if (j == outer->len)
                    break;
                  c = g_array_index (outer, guint32, j);
                }
              else
                {
                  c = first + j;
                  if (c >= exact->n_nodes || tv_exact_tree_parent (exact, c) != e)
                    break;
                }
              if (prune != NULL ? weights[c] == 0 : !TV_BIT_TEST (reached, c))
                continue;
              children += weights[c];
              frame = tv_exact_tree_frame (exact, c);
              f = fkeys[frame];
              if ((hidden != NULL && hidden[f]) || f == v_function)
                {
                  /* Merged into V: its children are V's to group. */
                  map[c] = v;
                  if (prune != NULL)
                    TV_BIT_SET (prune->kept, c);
                  else
                    b->self[v] += weights[c];
                  if (states != NULL)
                    add_states (b->status + (gsize) v * N_STATES,
                                states + (gsize) c * N_STATES);
                  g_array_append_val (merged, c);
                  continue;
                }
              if (n_cands == cands_capacity)
                {
                  cands_capacity *= 2;
                  cands = g_renew (Candidate, cands, cands_capacity);
                }
              cands[n_cands++] = (Candidate) { ranks[keys[frame]], keys[frame], c };
            }
          if (prune != NULL && !focus_root)
            b->self[v] += weights[e] - children;
        }

      sort_candidates (cands, n_cands, &scratch, &scratch_size);
      {
        guint32 level = g_array_index (levels, guint32, v);
        gboolean detail = prune != NULL && level == n_path;
        guint64 threshold = prune == NULL ? 0
                            : MAX (share, detail ? prune->detail_min_total : prune->min_total);
        Remainder rem = { v, 0, 0, threshold };

        for (guint i = 0, j; i < n_cands; i = j)
          {
            guint32 key = cands[i].key;
            guint32 node, child_level;

            for (j = i + 1; j < n_cands && cands[j].key == key; j++)
              ;
            /* On the way to the detail path's end, a child stays. */
            child_level = detail ? n_path
                          : level != LEVEL_OFF && key == prune->path[level] ? level + 1
                          : LEVEL_OFF;
            if (prune != NULL && threshold > 0 && (detail || child_level == LEVEL_OFF))
              {
                guint64 total = 0;

                for (guint k = i; k < j; k++)
                  total += weights[cands[k].exact];
                if (total < threshold)
                  {
                    rem.children++;
                    rem.samples += total;
                    if (prune->left_roots != NULL)
                      add_left_roots (exact, cands + i, j - i, v, prune->left_roots);
                    continue;
                  }
              }
            node = tv_builder_append (b, v, key);
            member_start[node + 1] = member_start[node];
            g_array_append_val (levels, child_level);
            for (guint k = i; k < j; k++)
              {
                guint32 e = cands[k].exact;

                map[e] = node;
                if (prune != NULL)
                  TV_BIT_SET (prune->kept, e);
                else
                  b->self[node] += weights[e];
                if (states != NULL)
                  add_states (b->status + (gsize) node * N_STATES, states + (gsize) e * N_STATES);
                members[n_members++] = e;
              }
            member_start[node + 1] = n_members;
          }
        if (rem.children > 0)
          g_array_append_val (prune->remainders, rem);
      }
      for (guint32 node = b->n_nodes; node > first_new; node--)
        stack[sp++] = node - 1;
    }
}

/* Sorts the N ROOTS by their start, 11 bits at a time. */
static void
sort_left_roots (LeftRoot *roots,
                 guint32   n)
{
  g_autofree LeftRoot *scratch = NULL;
  LeftRoot *from = roots, *to;

  /* An empty GArray has no data. */
  if (n == 0)
    return;
  to = scratch = g_new (LeftRoot, n);

  for (guint shift = 0; shift < 32; shift += 11)
    {
      guint32 count[1u << 11] = { 0 };
      guint32 sum = 0;

      for (guint32 i = 0; i < n; i++)
        count[(from[i].start >> shift) & 0x7ff]++;
      for (guint d = 0; d < G_N_ELEMENTS (count); d++)
        {
          guint32 c = count[d];

          count[d] = sum;
          sum += c;
        }
      for (guint32 i = 0; i < n; i++)
        to[count[(from[i].start >> shift) & 0x7ff]++] = from[i];
      from = to;
      to = from == roots ? scratch : roots;
    }
  /* Three passes: the sorted roots are in SCRATCH. */
  memcpy (roots, from, n * sizeof (LeftRoot));
}

/* A node's descendants are consecutive, in the order their ancestors'
 * children are (see number_depth_first() in tv-profile-data-finish.c):
 * the left roots' descendants are disjoint, and as no left root is below
 * another, a leaf below one is below the one that starts last at or
 * before it.  Each leaf is found by bisecting the roots of its bucket of
 * 2^BUCKET_SHIFT nodes. */
#define BUCKET_SHIFT 12
/* How many hits ahead a leaf's entries are asked for. */
#define LEAF_AHEAD   16

void
tv_call_tree_map_left_leaves (const TvExactTree *exact,
                              const Prune       *prune,
                              const GArray      *hits,
                              const guint32     *map,
                              guint32           *hit_nodes)
{
  GArray *roots_array = prune->left_roots;
  const LeftRoot *roots = (const LeftRoot *) (gpointer) roots_array->data;
  guint32 n_roots = roots_array->len;
  guint32 n_buckets = (guint32) (((guint64) exact->n_nodes >> BUCKET_SHIFT) + 1);
  /* The first root at or past each bucket's start. */
  g_autofree guint32 *bucket = g_new (guint32, (gsize) n_buckets + 1);

  sort_left_roots ((LeftRoot *) (gpointer) roots_array->data, n_roots);
  for (guint32 b = 0, r = 0; b <= n_buckets; b++)
    {
      while (r < n_roots && roots[r].start >> BUCKET_SHIFT < b)
        r++;
      bucket[b] = r;
    }

  for (guint i = 0; i < hits->len; i++)
    {
      guint32 leaf = g_array_index (hits, ThreadHit, i).leaf;
      guint32 parent, b, lo, hi;

      /* The leaves are all over the tree. */
      if (i + LEAF_AHEAD < hits->len)
        {
          guint32 ahead = g_array_index (hits, ThreadHit, i + LEAF_AHEAD).leaf;

          __builtin_prefetch (&prune->kept[ahead / 64]);
          __builtin_prefetch (&exact->up[ahead]);
        }
      if (TV_BIT_TEST (prune->kept, leaf))
        {
          hit_nodes[i] = map[leaf];
          continue;
        }
      parent = tv_exact_tree_parent (exact, leaf);
      if (TV_BIT_TEST (prune->kept, parent))
        {
          hit_nodes[i] = map[parent];
          continue;
        }
      /* The last root that starts at or before LEAF: in its bucket, or
       * the last one before.  The leaves are all over the tree, so each
       * halving is as likely to go either way: it moves BASE or not, with
       * no branch to mispredict (the branches of a plain bisection were
       * a third of this function in perf on the deep 3M file). */
      b = leaf >> BUCKET_SHIFT;
      lo = bucket[b];
      hi = bucket[b + 1];
      if (lo < hi)
        {
          const LeftRoot *base = roots + lo;

          for (guint32 n = hi - lo; n > 1;)
            {
              guint32 half = n / 2;

              base = base[half].start <= leaf ? base + half : base;
              n -= half;
            }
          lo = (guint32) (base - roots) + (base->start <= leaf);
        }
      g_assert (lo > 0);
      hit_nodes[i] = roots[lo - 1].to;
    }
}

/* The profiler's own frames are hidden from every view. */
guint8 *
tv_call_tree_hidden_functions (TvProfileData *data,
                               const TvQuery *query)
{
  guint32 n_functions = tv_profile_data_get_n_keys (data, TV_MERGE_FUNCTION);
  const guint8 *internal = tv_profile_data_get_internal_functions (data);
  guint8 *hidden;

  if (query->n_hidden_functions == 0 && internal == NULL)
    return NULL;
  hidden = internal ? g_memdup2 (internal, MAX (n_functions, 1))
                    : g_new0 (guint8, MAX (n_functions, 1));
  for (guint i = 0; i < query->n_hidden_functions; i++)
    if (query->hidden_functions[i] < n_functions)
      hidden[query->hidden_functions[i]] = 1;
  return hidden;
}

/* Step 2: exact nodes onto view nodes.  Returns the view, not inverted.
 * PRUNE leaves out what it says. */
void
tv_call_tree_map_nodes (TvProfileData  *data,
                        const TvQuery  *query,
                        const TvWeight *weights,
                        const guint64  *states,
                        const guint64  *reached,
                        guint32        *map,
                        guint8         *in_focus,
                        const Prune    *prune,
                        Builder        *b,
                        Progress       *progress)
{
  const TvExactTree *exact = tv_profile_data_get_tree (data);
  const guint32 *keys = tv_profile_data_get_frame_keys (data, query->merge);
  const guint32 *fkeys = tv_profile_data_get_frame_keys (data, TV_MERGE_FUNCTION);
  gboolean focus = query->focus_function != TV_NODE_NONE;
  g_autofree guint8 *hidden = tv_call_tree_hidden_functions (data, query);

  /* Distinct frames of one parent are distinct view nodes when every
   * frame has a key of its own and nothing merges: no lookups needed. */
  gboolean direct = !focus && hidden == NULL && !query->collapse_recursion && prune == NULL
                    && tv_profile_data_get_n_keys (data, query->merge)
                       == tach_reader_get_n_frames (tv_profile_data_get_reader (data))
                    && b->capacity >= exact->n_nodes;

  if ((!focus || prune != NULL) && !direct)
    {
      map_grouped (data, query, weights, states, reached, hidden, prune,
                   focus ? in_focus : NULL, map, b, progress);
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
      guint32 p = tv_exact_tree_parent (exact, n);
      guint32 frame = tv_exact_tree_frame (exact, n);
      guint32 k = keys[frame];
      guint32 f = fkeys[frame];
      guint32 pv;

      if (!TV_BIT_TEST (reached, n))
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
        map[n] = tv_builder_append (b, pv, k);
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
        map[n] = tv_builder_child (b, pv, k);

      if (!focus || in_focus[n])
        {
          b->self[map[n]] += weights[n];
          if (states != NULL)
            add_states (b->status + (gsize) map[n] * N_STATES, states + (gsize) n * N_STATES);
        }
    }
}
