/* tv-call-tree-view.h: the call tree, top-down or bottom-up
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Expandable rows of a call tree with each node's self and total samples
 * (count, seconds, share), sortable and searchable.  Top-down it lists
 * the tree the flame graph shows, node for node; bottom-up it lists the
 * inverted tree of the same samples, which it asks the model for on a
 * worker (and the other way round when the graph itself is inverted).
 */
#pragma once

#include <adwaita.h>

#include "tv-profile.h"
#include "tv-view-state.h"

G_BEGIN_DECLS

#define TV_TYPE_CALL_TREE_VIEW (tv_call_tree_view_get_type ())

G_DECLARE_FINAL_TYPE (TvCallTreeView, tv_call_tree_view, TV, CALL_TREE_VIEW, AdwBin)

/* The view's columns, for tv_call_tree_view_sort_by_column(). */
typedef enum
{
  TV_CALL_TREE_COLUMN_FUNCTION,
  TV_CALL_TREE_COLUMN_SELF,
  TV_CALL_TREE_COLUMN_TOTAL,
  TV_N_CALL_TREE_COLUMNS
} TvCallTreeColumn;

/* PROFILE must be loaded; STATE is the page's, from which the tree of
 * the other direction is asked for. */
GtkWidget  *tv_call_tree_view_new              (TvProfile      *profile,
                                                TvViewState    *state);

/* The tree the flame graph shows. */
TvCallTree *tv_call_tree_view_get_graph_tree   (TvCallTreeView *self);
void        tv_call_tree_view_set_graph_tree   (TvCallTreeView *self,
                                                TvCallTree     *tree);
/* The tree listed: the graph's, or the one of the other direction once
 * it is computed; NULL meanwhile. */
TvCallTree *tv_call_tree_view_get_tree         (TvCallTreeView *self);
/* Whether the tree listed is the graph's, so that its nodes are the
 * graph's nodes. */
gboolean    tv_call_tree_view_shows_graph_tree (TvCallTreeView *self);

/* Bottom-up (callers under their callees) or top-down; the "bottom-up"
 * property. */
gboolean    tv_call_tree_view_get_bottom_up    (TvCallTreeView *self);
void        tv_call_tree_view_set_bottom_up    (TvCallTreeView *self,
                                                gboolean        bottom_up);

/* The node of the listed tree whose row is selected, or TV_NODE_NONE;
 * the "selected-node" property. */
guint32     tv_call_tree_view_get_selected_node (TvCallTreeView *self);
/* Expands the rows down to NODE of the listed tree, selects its row and
 * scrolls to it; TV_NODE_NONE (or the root) clears the selection.  Does
 * not emit "node-selected". */
void        tv_call_tree_view_select_node      (TvCallTreeView *self,
                                                guint32         node);
/* Selects the top-level row of FUNCTION (a TV_MERGE_FUNCTION key) with
 * the most samples, as tv_call_tree_view_select_node() does; for a tree
 * that is not the graph's, whose nodes are not the graph's. */
void        tv_call_tree_view_select_function  (TvCallTreeView *self,
                                                guint32         function);
/* Expands the rows down to NODE and scrolls to it, the selection kept. */
void        tv_call_tree_view_reveal_node      (TvCallTreeView *self,
                                                guint32         node);

/* The search: function names and file paths that contain TEXT (ASCII
 * letters in any case); the matches go most samples first, the first is
 * selected ("node-selected" is emitted). */
const char *tv_call_tree_view_get_search       (TvCallTreeView *self);
void        tv_call_tree_view_set_search       (TvCallTreeView *self,
                                                const char     *text);
/* The matches of the search, most samples first. */
const guint32 *tv_call_tree_view_get_matches   (TvCallTreeView *self,
                                                guint          *n_matches);
/* Selects the next (or previous) match, round. */
void        tv_call_tree_view_next_match       (TvCallTreeView *self,
                                                gboolean        backwards);

void        tv_call_tree_view_sort_by_column   (TvCallTreeView  *self,
                                                TvCallTreeColumn column,
                                                GtkSortType      order);

/* Whether a tree or a search is still being computed, or a row still
 * being brought into view. */
gboolean    tv_call_tree_view_is_busy          (TvCallTreeView *self);

/* The rows as shown, sorted: a list of GtkTreeListRow whose items are
 * TvCallNode (a new reference). */
GListModel *tv_call_tree_view_list_rows        (TvCallTreeView *self);

G_END_DECLS
