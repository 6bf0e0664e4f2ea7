/* tv-compare-page-private.h: what the files of TvComparePage share
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The page is one widget in four files: the page itself, its state and
 * its sides (tv-compare-page.c); the graphs, the table and the search
 * that show the diff (tv-compare-graphs.c); the menus and controls that
 * set what the comparison shows (tv-compare-menus.c); and its export
 * (tv-compare-export.c).
 */
#pragma once

#include "tv-compare-page.h"
#include "tv-properties.h"
#include "tv-worker.h"

G_BEGIN_DECLS

struct _TvComparePage
{
  AdwBin              parent_instance;

  TvComparison       *comparison;
  GCancellable       *cancellable;       /* the exports */
  TvComparePageState  state;
  char               *error_message;
  char               *title;
  char               *banner_text;
  guint               n_differing;
  gboolean            filled;            /* headers, menus and properties, once loaded */
  gboolean            syncing;           /* the widgets being set from the comparison */
  char               *search;
  TvWorker            search_worker;     /* the running search, if any */

  /* Made in code (see tv-compare-page.ui). */
  TvFlameGraph       *graphs[2];
  TvFlameGraph       *diff_graph;
  TvDiffTable        *table;
  TvProperties       *properties[2];

  /* Template children */
  GtkStack           *stack;             /* loading | error | content */
  GtkProgressBar     *progress[2];
  GtkButton          *cancel_button;
  AdwStatusPage      *error_page;
  GtkWidget          *banner;
  GtkBox             *export_progress_box;
  GtkLabel           *banner_label;
  GtkWidget          *toolbar;
  GtkDropDown        *merge_menu;
  GtkDropDown        *by_menu;
  GtkCheckButton     *link_button;
  GtkWidget          *search_entry;
  GtkStack           *views;
  GtkPaned           *columns;           /* the side-by-side view */
  GtkBox             *column_boxes[2];
  GtkLabel           *headers[2];
  GtkLabel           *subtitles[2];
  GtkDropDown        *thread_menus[2];
  GtkDropDown        *state_menus[2];
  GtkBox             *diff_column;
  GtkLabel           *diff_summary;
  GtkToggleButton    *self_toggle;
  GtkToggleButton    *vanished_toggle;
  GtkBox             *functions_box;
  GtkBox             *property_panes;
};

static inline TvProfile *
_tv_compare_page_get_profile (TvComparePage *self,
                              TvDiffSide     side)
{
  return tv_comparison_get_profile (self->comparison, side);
}

/* tv-compare-page.c */
const char *_tv_compare_page_side_name       (TvDiffSide     side);
/* The file of the profile on the diff's SIDE (see
 * tv_comparison_get_diff_side()). */
GFile      *_tv_compare_page_diff_side_file  (TvComparePage *self,
                                              TvDiffSide     side);
void        _tv_compare_page_update_subtitle (TvComparePage *self,
                                              TvDiffSide     side);
void        _tv_compare_page_notify_busy     (TvComparePage *self);

/* tv-compare-graphs.c */
/* Makes the graphs and the table and puts them in their places. */
void        _tv_compare_page_add_graphs      (TvComparePage *self);
/* A new diff, and the trees it was made from, go to the widgets together. */
void        _tv_compare_page_show_diff       (TvComparePage *self);
/* The matches of the page's search in the trees shown, on a worker. */
void        _tv_compare_page_apply_search    (TvComparePage *self);

/* tv-compare-menus.c */
void        _tv_compare_page_connect_menus   (TvComparePage *self);
/* Both profiles are in: their threads in the menus. */
void        _tv_compare_page_fill_menus      (TvComparePage *self);
/* The menus and the toolbar show what the comparison holds, whoever
 * changed it. */
void        _tv_compare_page_sync_menus      (TvComparePage *self);
void        _tv_compare_page_sync_toolbar    (TvComparePage *self);

/* tv-compare-export.c: page.export */
void        _tv_compare_page_export_action   (GtkWidget     *widget,
                                              const char    *action_name,
                                              GVariant      *parameter);

G_END_DECLS
