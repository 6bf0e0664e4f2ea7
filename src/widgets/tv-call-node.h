/* tv-call-node.h: one node of a call tree, as a list item
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The rows of the call tree view: a node of a TvCallTree (which it keeps
 * alive), made when its parent's row is expanded.
 */
#pragma once

#include <glib-object.h>

#include "tv-call-tree.h"

G_BEGIN_DECLS

#define TV_TYPE_CALL_NODE (tv_call_node_get_type ())

G_DECLARE_FINAL_TYPE (TvCallNode, tv_call_node, TV, CALL_NODE, GObject)

TvCallNode *tv_call_node_new      (TvCallTree *tree,
                                   guint32     node);
/* The row of the children a pruned tree left out below PARENT (see
 * tv_call_tree_get_remainder()): its node is TV_NODE_NONE. */
TvCallNode *tv_call_node_new_remainder (TvCallTree *tree,
                                        guint32     parent);
TvCallTree *tv_call_node_get_tree (TvCallNode *self);
guint32     tv_call_node_get_node (TvCallNode *self);
/* Whether it is a remainder row, and its parent then. */
gboolean    tv_call_node_is_remainder (TvCallNode *self,
                                       guint32    *parent);
/* Samples in the node itself: in an inverted (bottom-up) tree, a
 * top-level node's total and 0 below it. */
guint64     tv_call_node_get_self (TvCallNode *self);
guint64     tv_call_node_get_total (TvCallNode *self);

G_END_DECLS
