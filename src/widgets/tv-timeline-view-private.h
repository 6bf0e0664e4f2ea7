/* tv-timeline-view-private.h: what the timeline view's files share
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "tv-flame-layout.h"
#include "tv-timeline-renderer.h"
#include "tv-timeline-view.h"
#include "tv-worker.h"
#include "tv-zoom-history.h"

G_BEGIN_DECLS

#define MIN_WINDOW_US  10.0
#define MIN_DRAG_PX    3.0
/* The lanes the timeline asks room for, at most, before it scrolls. */
#define DEFAULT_LANES  8
/* A lane is idle when this share of its samples, or more, are idle (the
 * main thread never is). */
#define IDLE_SHARE     0.99

typedef struct
{
  double t0;
  double t1;
} Window;

struct _TvTimelineView
{
  AdwBin              parent_instance;

  TvProfile          *profile;
  TvViewState        *state;
  TvTimeline         *timeline;
  TvWorker            build_worker;
  TvTimelineRenderer *renderer;
  TvTimelineStyle     style;
  guint8             *lane_flags;
  /* What lane_flags were made for: the threads selected, and the lanes
   * the filter keeps (NULL: all), which a worker finds. */
  GArray             *flagged_threads;
  guint8             *lane_matches;
  guint               n_matched;
  guint               lanes_serial;
  /* Idle lanes (IDLE_SHARE of their samples idle, or none), found with
   * the bins; folded into one row while fold_idle is set. */
  guint8             *idle_lanes;
  gboolean            fold_idle;
  guint               n_folded;
  char               *folded_text;
  char               *lane_filter;
  TvWorker            filter_worker;
  Window              window;
  TvZoomHistory       history;

  gboolean            dragging;
  double              drag_start_x;
  double              drag_start_time;
  /* The pointer's x over the drawing area, for Ctrl+scroll; NAN outside. */
  double              pointer_x;

  /* Where the click gesture's press was, while it is down. */
  gboolean            pressed;
  double              press_x;
  double              press_y;

  GtkWidget          *area;
  GtkAdjustment      *vadjustment;
  GtkWidget          *scrollbar;
  GtkWidget          *fold_button;
  GtkWidget          *heatmap;
  GtkLabel           *summary;
  GtkSearchEntry     *filter_entry;
  /* What only the lanes use, hidden with the heatmap. */
  GtkWidget          *lanes_controls;
  char               *view;         /* "lanes" or "heatmap" */

  /* What to highlight (a search's matches, or a function), what the
   * highlight was counted for (the state filter and the threads), and
   * the highlight, counted on a worker. */
  TvFlameMatches     *highlight_matches;
  guint32             highlight_function;
  guint8              highlight_mask;
  guint8              highlight_value;
  GArray             *highlight_threads;
  TvTimelineHighlight *highlight;
  TvWorker            highlight_worker;
};

enum
{
  PROP_0,
  PROP_VIEW,
  PROP_FOLD_IDLE,
  N_PROPS
};

TvStateFilter tv_timeline_view_state_to_filter (TvTimelineState state);

int tv_timeline_view_filter_to_state (TvStateFilter filter);

void tv_timeline_view_set_window (TvTimelineView *self,
                                  double          t0,
                                  double          t1,
                                  gboolean        remember);

void tv_timeline_view_set_fold_idle (TvTimelineView *self,
                                     gboolean        fold);

void tv_timeline_view_start_highlight (TvTimelineView *self);

void tv_timeline_view_update_lane_flags (TvTimelineView *self);

/* Brings the renderer's style up to date with the view: FALSE, and
 * nothing done, while there is no timeline. */
gboolean tv_timeline_view_sync_style (TvTimelineView *self);

void tv_timeline_view_update_scrolling (TvTimelineView *self);

gboolean tv_timeline_view_showing_heatmap (TvTimelineView *self);

gboolean tv_timeline_view_get_selection_span (TvTimelineView *self,
                                              guint64        *start,
                                              guint64        *end);

void tv_timeline_view_update_summary (TvTimelineView *self);

void tv_timeline_view_draw (GtkDrawingArea *area,
                            cairo_t        *cr,
                            int             width,
                            int             height,
                            gpointer        user_data);

void tv_timeline_view_on_filter_changed (GtkSearchEntry *entry,
                                         TvTimelineView *self);

void tv_timeline_view_build_result_free (gpointer data);

gpointer tv_timeline_view_build_timeline (gpointer      data,
                                          GCancellable *cancellable);

void tv_timeline_view_build_done (gpointer owner,
                                  gpointer data,
                                  gpointer result);

void tv_timeline_view_on_drag_begin (GtkGestureDrag *gesture,
                                     double          x,
                                     double          y,
                                     TvTimelineView *self);

void tv_timeline_view_on_drag_end (GtkGestureDrag *gesture,
                                   double          dx,
                                   double          dy,
                                   TvTimelineView *self);

void tv_timeline_view_on_pressed (GtkGestureClick *gesture,
                                  int              n_press,
                                  double           x,
                                  double           y,
                                  TvTimelineView  *self);

void tv_timeline_view_on_released (GtkGestureClick *gesture,
                                   int              n_press,
                                   double           x,
                                   double           y,
                                   TvTimelineView  *self);

gboolean tv_timeline_view_on_scroll (GtkEventControllerScroll *controller,
                                     double                    dx,
                                     double                    dy,
                                     TvTimelineView           *self);

char *tv_timeline_view_describe_area_point (TvTimelineView *self,
                                            double          x,
                                            double          y);

gboolean tv_timeline_view_on_query_tooltip (GtkWidget      *area,
                                            int             x,
                                            int             y,
                                            gboolean        keyboard,
                                            GtkTooltip     *tooltip,
                                            TvTimelineView *self);

void tv_timeline_view_on_motion (GtkEventControllerMotion *motion,
                                 double                    x,
                                 double                    y,
                                 TvTimelineView           *self);

void tv_timeline_view_on_leave (GtkEventControllerMotion *motion,
                                TvTimelineView           *self);

G_END_DECLS
