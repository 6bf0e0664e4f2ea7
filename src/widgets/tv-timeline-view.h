/* tv-timeline-view.h: every thread over time, and time-range selection
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "tv-flame-layout.h"
#include "tv-heatmap-view.h"
#include "tv-profile.h"
#include "tv-timeline.h"
#include "tv-view-state.h"

G_BEGIN_DECLS

#define TV_TYPE_TIMELINE_VIEW (tv_timeline_view_get_type ())

G_DECLARE_FINAL_TYPE (TvTimelineView, tv_timeline_view, TV, TIMELINE_VIEW, AdwBin)

/* PROFILE must be loaded; the bins are built on a worker at once.  A
 * selection sets STATE's time range (its ranges, on the heatmap), a lane
 * click its threads, a legend click its thread-state filter.  Its natural
 * height shows up to eight lanes; more scroll.  The "fold-idle" property
 * (the timeline.fold-idle action) folds the idle threads into one row. */
GtkWidget  *tv_timeline_view_new            (TvProfile      *profile,
                                             TvViewState    *state);
/* NULL until the bins are built. */
TvTimeline *tv_timeline_view_get_timeline   (TvTimelineView *self);
/* The window shown, in microseconds since the first sample. */
void        tv_timeline_view_get_window     (TvTimelineView *self,
                                             double         *t0,
                                             double         *t1);
/* Selects [T0, T1) (microseconds since the first sample), as a drag does. */
void        tv_timeline_view_select         (TvTimelineView *self,
                                             double          t0,
                                             double          t1);
/* Where LANE's band is, in the widget's pixels; FALSE when not shown. */
gboolean    tv_timeline_view_get_lane_rect  (TvTimelineView *self,
                                             guint           lane,
                                             graphene_rect_t *rect);
/* Where STATE's legend entry is, in the widget's pixels. */
gboolean    tv_timeline_view_get_legend_rect (TvTimelineView *self,
                                              TvTimelineState state,
                                              graphene_rect_t *rect);
/* The x of TIME (microseconds since the first sample). */
double      tv_timeline_view_time_to_x      (TvTimelineView *self,
                                             double          time);
/* The heatmap, shown in place of the lanes when the "view" property (or
 * the timeline.view action) is "heatmap". */
TvHeatmapView *tv_timeline_view_get_heatmap_view (TvTimelineView *self);
/* What the tooltip at X, Y (the widget's pixels) says: over a lane (or
 * the overview), its thread and the samples of the pixel column there and
 * their states; NULL elsewhere.  Free with g_free(). */
char       *tv_timeline_view_describe_at    (TvTimelineView *self,
                                             double          x,
                                             double          y);
/* The label drawn beside LANE ("main", "T2"...), or NULL when it has no
 * row (filtered out, folded) or no label.  Free with g_free(). */
char       *tv_timeline_view_dup_lane_label (TvTimelineView *self,
                                             guint           lane);
/* What scrolls the lanes up and down (pixels of the lanes' rows). */
GtkAdjustment *tv_timeline_view_get_vadjustment (TvTimelineView *self);
/* How many idle lanes the folded row stands for (0: none). */
guint       tv_timeline_view_get_n_folded   (TvTimelineView *self);
/* Where the folded row is, in the widget's pixels; FALSE when none. */
gboolean    tv_timeline_view_get_folded_rect (TvTimelineView  *self,
                                              graphene_rect_t *rect);
/* Highlights, over the lanes, the overview and the heatmap, the samples
 * whose stack holds a frame of MATCHES (a search's matches: every frame
 * whose key, in the merge key of the matches' tree, a matching node has)
 * or, when MATCHES is NULL, of FUNCTION (a TV_MERGE_FUNCTION key); both
 * NULL and TV_NODE_NONE clear it.  Counted on a worker, under the view
 * state's state filter (the overview adds up its threads), and again
 * when that changes; a newer request always wins over an older one. */
void        tv_timeline_view_set_highlight  (TvTimelineView *self,
                                             TvFlameMatches *matches,
                                             guint32         function);
/* What is highlighted now: NULL when nothing (or not yet counted). */
TvTimelineHighlight *tv_timeline_view_get_highlight (TvTimelineView *self);
/* Whether a highlight is being counted. */
gboolean    tv_timeline_view_get_highlight_busy (TvTimelineView *self);
/* The selection as the line under the timeline shows it. */
const char *tv_timeline_view_get_summary    (TvTimelineView *self);

G_END_DECLS
