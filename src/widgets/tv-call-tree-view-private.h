/* tv-call-tree-view-private.h: what the call tree view's files share
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "tv-call-tree-view.h"
#include "tv-worker.h"

G_BEGIN_DECLS

struct _TvCallTreeView
{
  AdwBin               parent_instance;

  TvProfile           *profile;
  TvViewState         *state;
  TvCallTree          *graph_tree;
  TvCallTree          *tree;
  gboolean             bottom_up;
  /* The graph's tree changed while the view was not shown. */
  gboolean             stale;
  guint32              selected;
  /* The selection is being changed from code: do not emit. */
  gboolean             selecting;
  /* A row whose name to bring into view once it is laid out, and the
   * timeout that waits for that. */
  guint32              reveal_node;
  guint                reveal_source;
  guint                reveal_tries;
  guint                reveal_shown;

  TvWorker             tree_worker;

  char                *search;
  TvWorker             search_worker;
  GArray              *matches;
  guint                match_index;

  GtkTreeListModel    *tree_model;
  GtkSingleSelection  *selection;

  GtkSearchEntry      *search_entry;
  GtkToggleButton     *top_down_button;
  GtkToggleButton     *bottom_up_button;
  GtkLabel            *status_label;
  GtkSpinner          *spinner;
  GtkStack            *stack;
  GtkColumnView       *column_view;
  GtkColumnViewColumn *function_column;
  GtkColumnViewColumn *self_column;
  GtkColumnViewColumn *total_column;
};

void tv_call_tree_view_update_spinner (TvCallTreeView *self);

void tv_call_tree_view_show_match (TvCallTreeView *self);

void tv_call_tree_view_start_search (TvCallTreeView *self);

void tv_call_tree_view_update_status (TvCallTreeView *self);

typedef enum
{
  CELL_FUNCTION,
  CELL_SELF,
  CELL_TOTAL,
} CellKind;

/* Gives COLUMN the cells of KIND and their sort. */
void tv_call_tree_view_set_column (GtkColumnViewColumn *column,
                                   CellKind             kind);

G_END_DECLS
