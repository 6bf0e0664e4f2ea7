/* tv-call-node.c: one node of a call tree, as a list item
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tv-call-node.h"

struct _TvCallNode
{
  GObject     parent_instance;

  TvCallTree *tree;
  guint32     node;
  guint32     remainder_of;    /* TV_NODE_NONE but for a remainder row */
  /* Copied: the sorters compare them for every pair. */
  guint64     self;
  guint64     total;
};

G_DEFINE_FINAL_TYPE (TvCallNode, tv_call_node, G_TYPE_OBJECT)

static void
tv_call_node_finalize (GObject *object)
{
  TvCallNode *self = TV_CALL_NODE (object);

  g_clear_pointer (&self->tree, tv_call_tree_unref);

  G_OBJECT_CLASS (tv_call_node_parent_class)->finalize (object);
}

static void
tv_call_node_class_init (TvCallNodeClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = tv_call_node_finalize;
}

static void
tv_call_node_init (TvCallNode *self)
{
}

TvCallNode *
tv_call_node_new (TvCallTree *tree,
                  guint32     node)
{
  TvCallNode *self;

  g_return_val_if_fail (tree != NULL, NULL);
  g_return_val_if_fail (node < tv_call_tree_get_n_nodes (tree), NULL);

  self = g_object_new (TV_TYPE_CALL_NODE, NULL);
  self->tree = tv_call_tree_ref (tree);
  self->node = node;
  self->remainder_of = TV_NODE_NONE;
  self->total = tv_call_tree_get_total (tree, node);
  /* Inverted, the model counts a stack's samples at its outermost frame;
   * a bottom-up row's own samples are those where its function is the
   * leaf: a top-level row's total, none below (as Hotspot and the Firefox
   * Profiler count them). */
  if (tv_call_tree_get_inverted (tree))
    self->self = tv_call_tree_get_parent (tree, node) == TV_ROOT_NODE ? self->total : 0;
  else
    self->self = tv_call_tree_get_self (tree, node);
  return self;
}

TvCallNode *
tv_call_node_new_remainder (TvCallTree *tree,
                            guint32     parent)
{
  TvCallNode *self;

  g_return_val_if_fail (tree != NULL, NULL);
  g_return_val_if_fail (parent < tv_call_tree_get_n_nodes (tree), NULL);

  self = g_object_new (TV_TYPE_CALL_NODE, NULL);
  self->tree = tv_call_tree_ref (tree);
  self->node = TV_NODE_NONE;
  self->remainder_of = parent;
  self->total = tv_call_tree_get_remainder (tree, parent);
  /* Own samples as tv_call_node_new() counts them. */
  if (tv_call_tree_get_inverted (tree))
    self->self = parent == TV_ROOT_NODE ? self->total : 0;
  else
    self->self = 0;
  return self;
}

gboolean
tv_call_node_is_remainder (TvCallNode *self,
                           guint32    *parent)
{
  g_return_val_if_fail (TV_IS_CALL_NODE (self), FALSE);

  if (parent != NULL)
    *parent = self->remainder_of;
  return self->remainder_of != TV_NODE_NONE;
}

TvCallTree *
tv_call_node_get_tree (TvCallNode *self)
{
  g_return_val_if_fail (TV_IS_CALL_NODE (self), NULL);

  return self->tree;
}

guint32
tv_call_node_get_node (TvCallNode *self)
{
  g_return_val_if_fail (TV_IS_CALL_NODE (self), 0);

  return self->node;
}

guint64
tv_call_node_get_self (TvCallNode *self)
{
  g_return_val_if_fail (TV_IS_CALL_NODE (self), 0);

  return self->self;
}

guint64
tv_call_node_get_total (TvCallNode *self)
{
  g_return_val_if_fail (TV_IS_CALL_NODE (self), 0);

  return self->total;
}
