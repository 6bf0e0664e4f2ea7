/* tv-flame-view-private.h: what the flame view's files share
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "tv-call-tree-view.h"
#include "tv-flame-view.h"
#include "tv-function-table.h"
#include "tv-source-view.h"
#include "tv-worker.h"

G_BEGIN_DECLS

struct _TvFlameView
{
  AdwBin             parent_instance;

  TvProfile         *profile;
  TvViewState       *state;
  TvCallTree        *tree;

  TvWorker           query_worker;
  /* The progress of the query being made, which its worker writes; shown
   * once the query has taken tv_progress_delay_ms (). */
  gint              *query_permille;
  gint64             query_started;
  guint              query_progress_source;
  GtkProgressBar    *query_progress_bar;
  GtkWidget         *query_cancel_button;
  /* Copies of the view state: the one the running query was started for,
   * and the one the tree on screen was made for (NULL until there is
   * one).  A cancelled query puts the second one back. */
  TvViewState       *query_state;
  TvViewState       *shown_state;
  /* The zoom a finer tree is being made for: the graph's tree, its
   * zoomed frame and the samples shown (see on_graph_zoom()). */
  TvCallTree        *detail_tree;     /* compared, not held */
  guint32            detail_root;
  guint64            detail_visible;
  char              *search;
  TvWorker           search_worker;
  TvFlameMatches    *matches;
  /* A function chosen in the table: its frames are highlighted. */
  guint32            highlight_function;
  gboolean           updating_controls;
  TvFunctionTable   *function_table;
  TvCallTreeView    *call_tree_view;
  TvSourceView      *source_view;

  GtkWidget         *toolbar;
  GtkBox            *breadcrumbs;
  GtkScrolledWindow *crumb_scroller;
  GtkWidget         *crumb_more;
  GtkMenuButton     *threads_button;
  GtkButton         *all_threads_button;
  GtkScrolledWindow *threads_scroller;
  GtkListView       *threads_list;
  GListModel        *threads_model;   /* until the menu is first shown */
  /* The check buttons of the thread menu's rows that show, by their
   * "thread" (TvThread.index). */
  GPtrArray         *thread_checks;
  GtkDropDown       *state_dropdown;
  GtkDropDown       *merge_dropdown;
  GtkDropDown       *colors_dropdown;
  GtkToggleButton   *inverted_button;
  GtkToggleButton   *icicle_button;
  GtkToggleButton   *search_button;
  GtkSearchBar      *search_bar;
  GtkSearchEntry    *search_entry;
  GtkLabel          *match_label;
  GtkLabel          *summary_label;
  GtkStack          *graph_stack;
  AdwStatusPage     *empty_page;
  GtkBox            *graph_box;
  TvFlameGraph      *graph;
  GtkBox            *legend;
  GtkWidget         *side_box;
};

void tv_flame_view_set_matches (TvFlameView    *self,
                                TvFlameMatches *matches);

char *tv_flame_view_describe_threads (TvFlameView *self);

void tv_flame_view_update_summary (TvFlameView *self);

gboolean tv_flame_view_shows_state (TvFlameView *self);

void tv_flame_view_update_legend (TvFlameView *self);

void tv_flame_view_update_breadcrumbs (TvFlameView *self);

void tv_flame_view_sync_call_tree (TvFlameView *self);

void tv_flame_view_start_query (TvFlameView *self);

void tv_flame_view_start_search (TvFlameView *self);

void tv_flame_view_on_search_changed (GtkSearchEntry *entry,
                                      TvFlameView    *self);

void tv_flame_view_fill_threads_list (TvFlameView *self);

void tv_flame_view_sync_controls (TvFlameView *self);

void tv_flame_view_on_state_changed (TvViewState *state,
                                     TvFlameView *self);

void tv_flame_view_on_function_selected (TvFunctionTable *table,
                                         guint            function,
                                         TvFlameView     *self);

void tv_flame_view_on_call_tree_node_selected (TvCallTreeView *view,
                                               guint           node,
                                               TvFlameView    *self);

/* The breadcrumbs' scrolling and the legend below the graph. */
void tv_flame_view_init_summary (TvFlameView *self);

/* The toolbar's actions (view.back, view.forward, view.reset-transforms). */
void tv_flame_view_class_init_controls (GtkWidgetClass *widget_class);

/* The toolbar's dropdowns and toggles, and the graph's zoom and selection. */
void tv_flame_view_init_controls (TvFlameView *self);

/* view.search, view.next-match and view.previous-match, with their keys. */
void tv_flame_view_class_init_search (GtkWidgetClass *widget_class);

/* The search bar, its entry's signals and keys. */
void tv_flame_view_init_search (TvFlameView *self);

G_END_DECLS
