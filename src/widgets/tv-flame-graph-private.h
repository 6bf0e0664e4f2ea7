/* tv-flame-graph-private.h: what the flame graph's files share
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "tv-flame-graph.h"
#include "tv-worker.h"
#include "tv-zoom-history.h"

G_BEGIN_DECLS

#define ROW_HEIGHT      18.0
#define SYNC_LAYOUT_US  4000
#define ZOOM_MS         250
#define SCROLL_ROWS     3.0

typedef struct
{
  guint32 root;
  double  x0;
  double  x1;
} Zoom;

struct _TvFlameGraph
{
  GtkWidget           parent_instance;

  TvCallTree         *tree;
  TvViewState        *view_state;
  TvFlameMatches     *matches;
  TvFlameOrientation  orientation;
  TvFlameStyle        style;
  TvFlameRenderer    *renderer;

  /* Where the view is, and where it was (back) or went (forward). */
  Zoom                zoom;
  TvZoomHistory       history;
  double              scroll_y;

  /* The animation: in the coordinates of anim_root, from a to b. */
  AdwAnimation       *animation;
  gboolean            animating;
  guint32             anim_root;
  double              anim_from[2];
  double              anim_to[2];
  double              anim_x[2];
  Zoom                anim_target;

  TvFlameLayout      *layout;
  gint64              last_layout_us;
  gint64              sync_layout_us;
  TvWorker            layout_worker;
  GskRenderNode      *frames_node;
  int                 frames_width;
  int                 frames_height;

  const TvFlameBox   *hovered;       /* points into layout */
  guint32             hovered_node;  /* its node, TV_NODE_NONE for a merged box */
  guint32             linked;        /* a node highlighted from elsewhere */
  TvDiff             *diff;
  double              pointer_x;
  double              pointer_y;
  GtkPopover         *context_menu;

  /* The rows' scrollbar, over the right edge, shown while the frames are
   * higher than the widget: its value is the pixels above the view. */
  GtkWidget          *scrollbar;
  GtkAdjustment      *vadjustment;
  gboolean            syncing_adjustment;
};

enum
{
  PROP_0,
  PROP_TREE,
  PROP_VIEW_STATE,
  PROP_ORIENTATION,
  PROP_COLOR_SCHEME,
  PROP_ZOOM_ROOT,
  PROP_SELECTED,
  PROP_CAN_GO_BACK,
  PROP_CAN_GO_FORWARD,
  PROP_HOVERED_NODE,
  N_PROPS
};

void tv_flame_graph_notify (TvFlameGraph *self,
                            guint         prop_id);

double tv_flame_graph_node_total (TvFlameGraph *self,
                                  guint32       node);

guint32 tv_flame_graph_common_ancestor (TvCallTree *tree,
                                        guint32     a,
                                        guint32     b);

void tv_flame_graph_update_history_actions (TvFlameGraph *self);

void tv_flame_graph_relayout (TvFlameGraph *self);

double tv_flame_graph_max_scroll (TvFlameGraph *self);

void tv_flame_graph_stop_animation (TvFlameGraph *self);

void tv_flame_graph_set_zoom (TvFlameGraph *self,
                              const Zoom   *zoom,
                              gboolean      animate);

void tv_flame_graph_zoom_to_box (TvFlameGraph     *self,
                                 const TvFlameBox *box);

/* Back or Forward through the zoom history, if it goes that way. */
void tv_flame_graph_go (TvFlameGraph    *self,
                        TvZoomDirection  direction);

void tv_flame_graph_zoom_to_root (TvFlameGraph *self);

void tv_flame_graph_append_location (GString         *text,
                                     TvProfileData   *data,
                                     guint32          frame,
                                     gboolean         whole);

gboolean tv_flame_graph_query_tooltip (GtkWidget  *widget,
                                       int         x,
                                       int         y,
                                       gboolean    keyboard_tooltip,
                                       GtkTooltip *tooltip);

void tv_flame_graph_snapshot (GtkWidget   *widget,
                              GtkSnapshot *snapshot);

void tv_flame_graph_size_allocate (GtkWidget *widget,
                                   int        width,
                                   int        height,
                                   int        baseline);

void tv_flame_graph_measure (GtkWidget      *widget,
                             GtkOrientation  orientation,
                             int             for_size,
                             int            *minimum,
                             int            *natural,
                             int            *minimum_baseline,
                             int            *natural_baseline);

void tv_flame_graph_on_motion (GtkEventControllerMotion *motion,
                               double                    x,
                               double                    y,
                               TvFlameGraph             *self);

void tv_flame_graph_on_leave (GtkEventControllerMotion *motion,
                              TvFlameGraph             *self);

void tv_flame_graph_on_click (GtkGestureClick *gesture,
                              int              n_press,
                              double           x,
                              double           y,
                              TvFlameGraph    *self);

void tv_flame_graph_on_secondary_click (GtkGestureClick *gesture,
                                        int              n_press,
                                        double           x,
                                        double           y,
                                        TvFlameGraph    *self);

void tv_flame_graph_on_vadjustment_value (GtkAdjustment *adjustment,
                                          TvFlameGraph  *self);

gboolean tv_flame_graph_on_scroll (GtkEventControllerScroll *controller,
                                   double                    dx,
                                   double                    dy,
                                   TvFlameGraph             *self);

gboolean tv_flame_graph_on_key_pressed (GtkEventControllerKey *controller,
                                        guint                  keyval,
                                        guint                  keycode,
                                        GdkModifierType        state,
                                        TvFlameGraph          *self);

/* The flame.* actions (back, forward, reset, zoom-in, focus-function,
 * hide-function, collapse-recursion, copy-name, copy-stack) and their keys. */
void tv_flame_graph_install_actions (GtkWidgetClass *widget_class);

void tv_flame_graph_update_selection_actions (TvFlameGraph *self);

G_END_DECLS
