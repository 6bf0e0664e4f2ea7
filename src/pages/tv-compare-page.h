/* tv-compare-page.h: two profiles compared, in a tab
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "tv-comparison.h"
#include "tv-diff-table.h"
#include "tv-flame-graph.h"
#include "tv-profile.h"
#include "tv-view-state.h"

G_BEGIN_DECLS

#define TV_TYPE_COMPARE_PAGE (tv_compare_page_get_type ())

G_DECLARE_FINAL_TYPE (TvComparePage, tv_compare_page, TV, COMPARE_PAGE, AdwBin)

typedef enum
{
  TV_COMPARE_PAGE_LOADING,      /* a profile, or the comparison, is being made */
  TV_COMPARE_PAGE_READY,
  TV_COMPARE_PAGE_FAILED,
} TvComparePageState;

/* BASE and NEW_PROFILE are new (the page loads them) or done loading
 * (say, the profile of an open tab), not being loaded elsewhere. */
TvComparePage      *tv_compare_page_new           (TvProfile     *base,
                                                   TvProfile     *new_profile);
/* What the page shows: the profiles, their view states, the diff. */
TvComparison       *tv_compare_page_get_comparison (TvComparePage *self);
TvProfile          *tv_compare_page_get_profile   (TvComparePage *self,
                                                   TvDiffSide     side);
TvComparePageState  tv_compare_page_get_state     (TvComparePage *self);
/* Whether queries or the comparison are being computed. */
gboolean            tv_compare_page_is_busy       (TvComparePage *self);
const char         *tv_compare_page_get_error_message (TvComparePage *self);
/* The comparison shown, once ready. */
TvDiff             *tv_compare_page_get_diff      (TvComparePage *self);
/* The side-by-side graphs, the differential graph and the table. */
TvFlameGraph       *tv_compare_page_get_graph     (TvComparePage *self,
                                                   TvDiffSide     side);
TvFlameGraph       *tv_compare_page_get_diff_graph (TvComparePage *self);
TvDiffTable        *tv_compare_page_get_table     (TvComparePage *self);
TvViewState        *tv_compare_page_get_view_state (TvComparePage *self,
                                                    TvDiffSide     side);
/* "side-by-side", "differential", "functions" or "properties". */
void                tv_compare_page_show_view     (TvComparePage *self,
                                                   const char    *name);
void                tv_compare_page_set_normalization (TvComparePage      *self,
                                                       TvDiffNormalization by);
void                tv_compare_page_set_merge     (TvComparePage *self,
                                                   TvMergeKey     merge);
void                tv_compare_page_set_search    (TvComparePage *self,
                                                   const char    *regex);
/* BASE and NEW trade places, each with its view state (threads, state
 * filter), its graph and its properties; the diff is made again, on a
 * worker, without loading either profile again (page.swap). */
void                tv_compare_page_swap          (TvComparePage *self);
/* The tab's title: "base.bin → new.bin". */
const char         *tv_compare_page_get_title     (TvComparePage *self);
/* Thread and state filters of one side follow the other's. */
void                tv_compare_page_set_link_filters (TvComparePage *self,
                                                      gboolean       link);
/* Writes the differential HTML page of what is shown (both sides' filters
 * and transforms, the merge key, the normalisation, the search) to DEST,
 * on a worker; never a partial file. */
void                tv_compare_page_export_async  (TvComparePage       *self,
                                                   GFile               *dest,
                                                   GCancellable        *cancellable,
                                                   GAsyncReadyCallback  callback,
                                                   gpointer             user_data);
gboolean            tv_compare_page_export_finish (TvComparePage       *self,
                                                   GAsyncResult        *result,
                                                   GError             **error);
/* Stops the loads, queries, comparison, search and export the page has
 * running (the window does it when the page's tab is closed). */
void                tv_compare_page_cancel        (TvComparePage *self);
/* The comparability warnings shown in the banner, one per line, or NULL. */
const char         *tv_compare_page_get_banner_text (TvComparePage *self);
/* The line under a side's title: the samples compared and their time. */
const char         *tv_compare_page_get_side_summary (TvComparePage *self,
                                                      TvDiffSide     side);
/* The rows of the properties that differ between the two profiles. */
guint               tv_compare_page_get_n_differing_properties (TvComparePage *self);

G_END_DECLS
