/* tv-diff.c: match two call trees by content and test their differences
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Four steps, each linear in the keys or nodes it reads (a node with
 * many samples costs a little more to test):
 *   1. key maps: every merge key (and function key) of BASE is hashed by
 *      its content (strings and numbers, not table indices), and every
 *      key of NEW is looked up there;
 *   2. node maps: NEW's nodes, parents first, each find the child of their
 *      parent's match with the mapped key, through a hash of BASE's
 *      (parent, key) pairs;
 *   3. a p-value for the total and the self of every node, and of every
 *      function of the function table;
 *   4. the topmost unmatched nodes of each side, and the comparability
 *      caveats of the two profiles.
 *
 * Step 1 is in tv-diff-keys.c, the test of step 3 in tv-diff-binomial.c
 * (which says why it is this test), the function table in
 * tv-diff-functions.c and the caveats in tv-comparability.c; this file
 * matches and tests the nodes and keeps the result.
 */
#include "tv-diff-private.h"
#include "tv-units.h"

#include <math.h>
#include <string.h>

#define CANCEL_EVERY 1024

G_DEFINE_BOXED_TYPE (TvDiff, tv_diff, tv_diff_ref, tv_diff_unref)

G_DEFINE_ENUM_TYPE (TvDiffNormalization, tv_diff_normalization,
                    G_DEFINE_ENUM_VALUE (TV_DIFF_BY_TIME, "time"),
                    G_DEFINE_ENUM_VALUE (TV_DIFF_BY_SHARE, "share"))

void
tv_diff_options_init (TvDiffOptions *options)
{
  memset (options, 0, sizeof *options);
  options->normalization = TV_DIFF_BY_TIME;
  options->confidence = 0.99;
}

void
tv_diff_fill_measure (const TvDiff  *self,
                      guint64        base_samples,
                      guint64        new_samples,
                      double         p_value,
                      TvDiffMeasure *out)
{
  out->base_samples = base_samples;
  out->new_samples = new_samples;
  out->base_value = (double) base_samples * self->sides[TV_DIFF_SIDE_BASE].weight;
  out->new_value = (double) new_samples * self->sides[TV_DIFF_SIDE_NEW].weight;
  out->delta = out->new_value - out->base_value;
  if (out->base_value > 0)
    out->relative = out->delta / out->base_value;
  else
    out->relative = out->new_value > 0 ? INFINITY : 0;
  out->p_value = p_value;
  out->significant = p_value < self->alpha;
  if (!out->significant || out->delta == 0)
    out->change = TV_DIFF_NEUTRAL;
  else
    out->change = out->delta > 0 ? TV_DIFF_SLOWER : TV_DIFF_FASTER;
}

/* ------------------------------------------------------------------------ */
/* Nodes by path                                                             */
/* ------------------------------------------------------------------------ */

/* BASE's nodes by (parent, key), open addressing; 0 marks an empty slot
 * (no node has both parent and key G_MAXUINT32). */
typedef struct
{
  guint64 *keys;
  guint32 *nodes;
  guint32  mask;
} NodeIndex;

static inline guint32
node_slot (guint64  key,
           guint32  mask)
{
  return (guint32) ((key * G_GUINT64_CONSTANT (0x9e3779b97f4a7c15)) >> 32) & mask;
}

static inline guint64
node_index_key (guint32 parent,
                guint32 key)
{
  return ((guint64) parent << 32 | key) + 1;
}

static void
node_index_build (NodeIndex  *index,
                  TvCallTree *tree)
{
  guint32 n_nodes = tv_call_tree_get_n_nodes (tree);

  index->mask = 63;
  while (index->mask < (guint64) n_nodes * 2)
    index->mask = index->mask * 2 + 1;
  index->keys = g_new0 (guint64, (gsize) index->mask + 1);
  index->nodes = g_new (guint32, (gsize) index->mask + 1);
  for (guint32 n = 1; n < n_nodes; n++)
    {
      guint64 key = node_index_key (tv_call_tree_get_parent (tree, n),
                                    tv_call_tree_get_key (tree, n));
      guint32 slot = node_slot (key, index->mask);

      while (index->keys[slot] != 0)
        slot = (slot + 1) & index->mask;
      index->keys[slot] = key;
      index->nodes[slot] = n;
    }
}

static guint32
node_index_lookup (const NodeIndex *index,
                   guint32          parent,
                   guint32          key)
{
  guint64 k = node_index_key (parent, key);
  guint32 slot = node_slot (k, index->mask);

  for (; index->keys[slot] != 0; slot = (slot + 1) & index->mask)
    if (index->keys[slot] == k)
      return index->nodes[slot];
  return TV_NODE_NONE;
}

static void
node_index_clear (NodeIndex *index)
{
  g_clear_pointer (&index->keys, g_free);
  g_clear_pointer (&index->nodes, g_free);
}

/* A node's parent always has a smaller id, so one pass in id order sees
 * every parent's match before its children. */
static gboolean
match_nodes (TvDiff       *self,
             GCancellable *cancellable)
{
  TvDiffSideData *base = &self->sides[TV_DIFF_SIDE_BASE];
  TvDiffSideData *new_side = &self->sides[TV_DIFF_SIDE_NEW];
  NodeIndex index;

  for (guint32 n = 0; n < base->n_nodes; n++)
    base->other[n] = TV_NODE_NONE;
  new_side->other[0] = 0;
  base->other[0] = 0;

  node_index_build (&index, base->tree);
  for (guint32 n = 1; n < new_side->n_nodes; n++)
    {
      guint32 parent = new_side->other[tv_call_tree_get_parent (new_side->tree, n)];
      guint32 key = tv_key_map_lookup (&self->keys, TV_DIFF_SIDE_NEW,
                                       tv_call_tree_get_key (new_side->tree, n));
      guint32 match = TV_NODE_NONE;

      if (parent != TV_NODE_NONE && key != TV_NODE_NONE)
        match = node_index_lookup (&index, parent, key);
      new_side->other[n] = match;
      if (match != TV_NODE_NONE)
        base->other[match] = n;
      if (n % (CANCEL_EVERY * 64) == 0 && g_cancellable_is_cancelled (cancellable))
        {
          node_index_clear (&index);
          return FALSE;
        }
    }
  node_index_clear (&index);
  return TRUE;
}

/* ------------------------------------------------------------------------ */
/* Per node                                                                  */
/* ------------------------------------------------------------------------ */

static gboolean
test_nodes (TvDiff       *self,
            GCancellable *cancellable)
{
  TvDiffSideData *base = &self->sides[TV_DIFF_SIDE_BASE];
  TvDiffSideData *new_side = &self->sides[TV_DIFF_SIDE_NEW];

  for (guint32 n = 0; n < new_side->n_nodes; n++)
    {
      guint32 m = new_side->other[n];
      guint64 total1 = m != TV_NODE_NONE ? tv_call_tree_get_total (base->tree, m) : 0;
      guint64 self1 = m != TV_NODE_NONE ? tv_call_tree_get_self (base->tree, m) : 0;

      new_side->p_total[n] = tv_diff_test (self, total1,
                                           tv_call_tree_get_total (new_side->tree, n));
      new_side->p_self[n] = tv_diff_test (self, self1, tv_call_tree_get_self (new_side->tree, n));
      if (m != TV_NODE_NONE)
        {
          base->p_total[m] = new_side->p_total[n];
          base->p_self[m] = new_side->p_self[n];
        }
      if (n % CANCEL_EVERY == 0 && g_cancellable_is_cancelled (cancellable))
        return FALSE;
    }
  for (guint32 m = 0; m < base->n_nodes; m++)
    {
      if (base->other[m] != TV_NODE_NONE)
        continue;
      base->p_total[m] = tv_diff_test (self, tv_call_tree_get_total (base->tree, m), 0);
      base->p_self[m] = tv_diff_test (self, tv_call_tree_get_self (base->tree, m), 0);
      if (m % CANCEL_EVERY == 0 && g_cancellable_is_cancelled (cancellable))
        return FALSE;
    }
  return TRUE;
}

typedef struct
{
  const guint64 *totals;
} TopOrder;

static int
compare_tops (const void *pa,
              const void *pb,
              void       *user_data)
{
  const guint64 *totals = ((const TopOrder *) user_data)->totals;
  guint32 a = *(const guint32 *) pa, b = *(const guint32 *) pb;

  if (totals[a] != totals[b])
    return totals[a] > totals[b] ? -1 : 1;
  return a < b ? -1 : a > b;
}

/* The unmatched samples under every node, bottom-up, and the topmost
 * unmatched nodes.  An unmatched node's parent is matched or unmatched;
 * only a matched parent adds what is below it, since an unmatched one
 * counts its whole total already. */
static void
collect_unmatched (TvDiffSideData *side)
{
  TopOrder order = { side->unmatched };
  guint n_tops = 0;

  for (guint32 n = 0; n < side->n_nodes; n++)
    side->unmatched[n] = side->other[n] == TV_NODE_NONE
                         ? tv_call_tree_get_total (side->tree, n) : 0;
  for (guint32 n = side->n_nodes; n-- > 1;)
    {
      guint32 parent = tv_call_tree_get_parent (side->tree, n);

      if (side->other[parent] != TV_NODE_NONE)
        {
          side->unmatched[parent] += side->unmatched[n];
          if (side->other[n] == TV_NODE_NONE)
            n_tops++;
        }
    }

  side->tops = g_new (guint32, MAX (n_tops, 1));
  side->n_tops = 0;
  for (guint32 n = 1; n < side->n_nodes; n++)
    if (side->other[n] == TV_NODE_NONE
        && side->other[tv_call_tree_get_parent (side->tree, n)] != TV_NODE_NONE)
      side->tops[side->n_tops++] = n;
  g_assert (side->n_tops == n_tops);
  g_qsort_with_data (side->tops, side->n_tops, sizeof (guint32), compare_tops, &order);
}

/* ------------------------------------------------------------------------ */
/* The diff                                                                  */
/* ------------------------------------------------------------------------ */

static void
side_init (TvDiffSideData      *side,
           TvCallTree          *tree,
           TvDiffNormalization  normalization)
{
  side->tree = tv_call_tree_ref (tree);
  side->n_nodes = tv_call_tree_get_n_nodes (tree);
  if (normalization == TV_DIFF_BY_TIME)
    side->weight = tv_call_tree_samples_to_seconds (tree, 1, NULL);
  else
    {
      guint64 n = tv_call_tree_get_n_samples (tree);

      side->weight = n > 0 ? 1.0 / (double) n : 0;
    }
  side->other = g_new (guint32, side->n_nodes);
  side->p_total = g_new (double, side->n_nodes);
  side->p_self = g_new (double, side->n_nodes);
  side->unmatched = g_new (guint64, side->n_nodes);
}

static void
side_clear (TvDiffSideData *side)
{
  g_clear_pointer (&side->tree, tv_call_tree_unref);
  g_clear_pointer (&side->other, g_free);
  g_clear_pointer (&side->p_total, g_free);
  g_clear_pointer (&side->p_self, g_free);
  g_clear_pointer (&side->unmatched, g_free);
  g_clear_pointer (&side->tops, g_free);
}

/**
 * tv_diff_new:
 *
 * Compares NEW_TREE with BASE.  Safe on any thread.
 *
 * Returns: (transfer full) (nullable): the diff, or %NULL if cancelled
 */
TvDiff *
tv_diff_new (TvCallTree          *base,
             TvCallTree          *new_tree,
             const TvDiffOptions *options,
             GCancellable        *cancellable)
{
  g_autoptr(TvDiff) self = NULL;
  TvProfileData *base_data, *new_data;

  g_return_val_if_fail (base != NULL, NULL);
  g_return_val_if_fail (new_tree != NULL, NULL);
  g_return_val_if_fail (tv_call_tree_get_merge (base) == tv_call_tree_get_merge (new_tree), NULL);
  g_return_val_if_fail (!tv_call_tree_get_inverted (base) == !tv_call_tree_get_inverted (new_tree),
                        NULL);
  g_return_val_if_fail (options == NULL
                        || (options->normalization <= TV_DIFF_BY_SHARE
                            && options->confidence > 0 && options->confidence < 1), NULL);

  self = g_new0 (TvDiff, 1);
  g_atomic_ref_count_init (&self->ref_count);
  if (options != NULL)
    self->options = *options;
  else
    tv_diff_options_init (&self->options);
  self->alpha = 1 - self->options.confidence;
  self->merge = tv_call_tree_get_merge (base);
  side_init (&self->sides[TV_DIFF_SIDE_BASE], base, self->options.normalization);
  side_init (&self->sides[TV_DIFF_SIDE_NEW], new_tree, self->options.normalization);
  self->testable = tv_binomial_init (&self->binomial, self->sides[TV_DIFF_SIDE_BASE].weight,
                                     self->sides[TV_DIFF_SIDE_NEW].weight);
  base_data = tv_call_tree_get_data (base);
  new_data = tv_call_tree_get_data (new_tree);

  tv_key_map_build (&self->keys, base_data, new_data, self->merge);
  if (self->merge != TV_MERGE_FUNCTION)
    tv_key_map_build (&self->functions, base_data, new_data, TV_MERGE_FUNCTION);
  if (g_cancellable_is_cancelled (cancellable) || !match_nodes (self, cancellable))
    return NULL;
  if (!test_nodes (self, cancellable))
    return NULL;
  collect_unmatched (&self->sides[TV_DIFF_SIDE_BASE]);
  collect_unmatched (&self->sides[TV_DIFF_SIDE_NEW]);
  tv_diff_build_functions (self);
  self->comparability = tv_comparability_check (base_data, new_data, self->merge);
  if (g_cancellable_is_cancelled (cancellable))
    return NULL;

  return g_steal_pointer (&self);
}

TvDiff *
tv_diff_ref (TvDiff *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_atomic_ref_count_inc (&self->ref_count);
  return self;
}

void
tv_diff_unref (TvDiff *self)
{
  if (self == NULL || !g_atomic_ref_count_dec (&self->ref_count))
    return;
  side_clear (&self->sides[TV_DIFF_SIDE_BASE]);
  side_clear (&self->sides[TV_DIFF_SIDE_NEW]);
  tv_key_map_clear (&self->keys);
  tv_key_map_clear (&self->functions);
  g_free (self->rows);
  g_clear_pointer (&self->comparability, g_ptr_array_unref);
  g_free (self);
}

TvCallTree *
tv_diff_get_tree (TvDiff     *self,
                  TvDiffSide  side)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (side <= TV_DIFF_SIDE_NEW, NULL);
  return self->sides[side].tree;
}

void
tv_diff_get_options (TvDiff        *self,
                     TvDiffOptions *options)
{
  g_return_if_fail (self != NULL);
  *options = self->options;
}

double
tv_diff_get_weight (TvDiff     *self,
                    TvDiffSide  side)
{
  g_return_val_if_fail (self != NULL, 0);
  g_return_val_if_fail (side <= TV_DIFF_SIDE_NEW, 0);
  return self->sides[side].weight;
}

guint32
tv_diff_map_node (TvDiff     *self,
                  TvDiffSide  side,
                  guint32     node)
{
  g_return_val_if_fail (self != NULL, TV_NODE_NONE);
  g_return_val_if_fail (side <= TV_DIFF_SIDE_NEW, TV_NODE_NONE);
  g_return_val_if_fail (node < self->sides[side].n_nodes, TV_NODE_NONE);
  return self->sides[side].other[node];
}

guint32
tv_diff_map_node_or_ancestor (TvDiff     *self,
                              TvDiffSide  side,
                              guint32     node)
{
  TvCallTree *tree;

  g_return_val_if_fail (self != NULL, TV_ROOT_NODE);
  g_return_val_if_fail (side <= TV_DIFF_SIDE_NEW, TV_ROOT_NODE);
  g_return_val_if_fail (node < self->sides[side].n_nodes, TV_ROOT_NODE);

  tree = self->sides[side].tree;
  for (; node != TV_NODE_NONE; node = tv_call_tree_get_parent (tree, node))
    if (self->sides[side].other[node] != TV_NODE_NONE)
      return self->sides[side].other[node];
  return TV_ROOT_NODE;
}

guint32
tv_diff_map_key (TvDiff     *self,
                 TvDiffSide  side,
                 guint32     key)
{
  g_return_val_if_fail (self != NULL, TV_NODE_NONE);
  g_return_val_if_fail (side <= TV_DIFF_SIDE_NEW, TV_NODE_NONE);
  return tv_key_map_lookup (&self->keys, side, key);
}

guint32
tv_diff_map_function (TvDiff     *self,
                      TvDiffSide  side,
                      guint32     function)
{
  g_return_val_if_fail (self != NULL, TV_NODE_NONE);
  g_return_val_if_fail (side <= TV_DIFF_SIDE_NEW, TV_NODE_NONE);
  return tv_key_map_lookup (tv_diff_function_map (self), side, function);
}

void
tv_diff_get_node (TvDiff     *self,
                  TvDiffSide  side,
                  guint32     node,
                  TvDiffNode *out)
{
  const TvDiffSideData *base, *new_side;
  guint32 b, n;

  g_return_if_fail (self != NULL);
  g_return_if_fail (side <= TV_DIFF_SIDE_NEW);
  g_return_if_fail (node < self->sides[side].n_nodes);
  g_return_if_fail (out != NULL);

  base = &self->sides[TV_DIFF_SIDE_BASE];
  new_side = &self->sides[TV_DIFF_SIDE_NEW];

  b = side == TV_DIFF_SIDE_BASE ? node : new_side->other[node];
  n = side == TV_DIFF_SIDE_NEW ? node : base->other[node];
  out->base_node = b;
  out->new_node = n;
  tv_diff_fill_measure (self,
                        b != TV_NODE_NONE ? tv_call_tree_get_total (base->tree, b) : 0,
                        n != TV_NODE_NONE ? tv_call_tree_get_total (new_side->tree, n) : 0,
                        self->sides[side].p_total[node], &out->total);
  tv_diff_fill_measure (self,
                        b != TV_NODE_NONE ? tv_call_tree_get_self (base->tree, b) : 0,
                        n != TV_NODE_NONE ? tv_call_tree_get_self (new_side->tree, n) : 0,
                        self->sides[side].p_self[node], &out->self);
}

const guint32 *
tv_diff_get_unmatched (TvDiff     *self,
                       TvDiffSide  side,
                       guint      *n_nodes)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (side <= TV_DIFF_SIDE_NEW, NULL);
  g_return_val_if_fail (n_nodes != NULL, NULL);
  *n_nodes = self->sides[side].n_tops;
  return self->sides[side].tops;
}

guint64
tv_diff_get_unmatched_total (TvDiff     *self,
                             TvDiffSide  side,
                             guint32     node)
{
  g_return_val_if_fail (self != NULL, 0);
  g_return_val_if_fail (side <= TV_DIFF_SIDE_NEW, 0);
  g_return_val_if_fail (node < self->sides[side].n_nodes, 0);
  return self->sides[side].unmatched[node];
}

GPtrArray *
tv_diff_get_comparability (TvDiff *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->comparability;
}

char *
tv_diff_format_seconds (double   seconds,
                        gboolean with_sign)
{
  return with_sign ? tv_format_duration_signed (seconds) : tv_format_duration (seconds);
}

char *
tv_diff_format_value (TvDiff   *diff,
                      double    value,
                      gboolean  with_sign)
{
  g_return_val_if_fail (diff != NULL, NULL);

  if (diff->options.normalization == TV_DIFF_BY_SHARE)
    return with_sign ? tv_format_fraction_signed (value) : tv_format_fraction (value);
  return tv_diff_format_seconds (value, with_sign);
}
