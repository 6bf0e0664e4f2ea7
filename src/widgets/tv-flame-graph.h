/* tv-flame-graph.h: the interactive flame graph widget
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "tv-flame-layout.h"
#include "tv-flame-renderer.h"
#include "tv-view-state.h"

G_BEGIN_DECLS

#define TV_TYPE_FLAME_GRAPH (tv_flame_graph_get_type ())

G_DECLARE_FINAL_TYPE (TvFlameGraph, tv_flame_graph, TV, FLAME_GRAPH, GtkWidget)

GtkWidget          *tv_flame_graph_new              (void);

/* The tree shown.  A new tree keeps the zoom when the zoomed frame's path
 * still exists in it. */
TvCallTree         *tv_flame_graph_get_tree         (TvFlameGraph       *self);
void                tv_flame_graph_set_tree         (TvFlameGraph       *self,
                                                     TvCallTree         *tree);
/* Where the context menu's transforms (focus, hide, collapse) go. */
TvViewState        *tv_flame_graph_get_view_state   (TvFlameGraph       *self);
void                tv_flame_graph_set_view_state   (TvFlameGraph       *self,
                                                     TvViewState        *state);

TvFlameOrientation  tv_flame_graph_get_orientation  (TvFlameGraph       *self);
void                tv_flame_graph_set_orientation  (TvFlameGraph       *self,
                                                     TvFlameOrientation  orientation);
TvFlameColorScheme  tv_flame_graph_get_color_scheme (TvFlameGraph       *self);
void                tv_flame_graph_set_color_scheme (TvFlameGraph       *self,
                                                     TvFlameColorScheme  scheme);
/* A search to highlight, or NULL. */
void                tv_flame_graph_set_matches      (TvFlameGraph       *self,
                                                     TvFlameMatches     *matches);
TvFlameMatches     *tv_flame_graph_get_matches      (TvFlameGraph       *self);

/* Colours of TV_FLAME_COLORS_DIFF and the tooltip's comparison: DIFF is
 * a comparison whose SIDE tree is (or will be) the graph's tree; NULL
 * for none. */
void                tv_flame_graph_set_diff         (TvFlameGraph       *self,
                                                     TvDiff             *diff,
                                                     TvDiffSide          side);
TvDiff             *tv_flame_graph_get_diff         (TvFlameGraph       *self);
/* What the diff colours show. */
void                tv_flame_graph_set_diff_mode    (TvFlameGraph       *self,
                                                     TvFlameDiffMode     mode);
/* Whether frames keep their module colours, a change outlined. */
void                tv_flame_graph_set_diff_keeps_modules (TvFlameGraph *self,
                                                           gboolean      keeps);
gboolean            tv_flame_graph_get_diff_keeps_modules (TvFlameGraph *self);
/* The node under the pointer ("hovered-node"), or TV_NODE_NONE. */
guint32             tv_flame_graph_get_hovered_node (TvFlameGraph       *self);
/* A node to outline as if hovered, while the pointer is elsewhere (the
 * same path hovered in another graph); TV_NODE_NONE for none. */
void                tv_flame_graph_set_linked       (TvFlameGraph       *self,
                                                     guint32             node);
guint32             tv_flame_graph_get_linked       (TvFlameGraph       *self);
/* The zoomed frame (the tree's root when not zoomed). */
guint32             tv_flame_graph_get_zoom_root    (TvFlameGraph       *self);
/* Whether the zoomed view may lack frames a finer tree has: below the
 * zoomed frame the tree left out children (see TvQuery.min_total) under
 * a threshold a pixel wide or more at this zoom.  VISIBLE, when not
 * NULL, is set to the samples the width shows. */
gboolean            tv_flame_graph_needs_detail     (TvFlameGraph       *self,
                                                     guint64            *visible);
/* Zooms to NODE, animated unless animations are off; remembered in the
 * history (back and forward). */
void                tv_flame_graph_zoom_to          (TvFlameGraph       *self,
                                                     guint32             node);
/* What Ctrl+scroll does: shows 0.8 (DY < 0) or 1.25 times the range,
 * around X. */
gboolean            tv_flame_graph_zoom_scroll      (TvFlameGraph       *self,
                                                     double              x,
                                                     double              dy);
/* Shows the whole tree again (Esc); FALSE when it was shown already. */
gboolean            tv_flame_graph_reset_zoom       (TvFlameGraph       *self);
gboolean            tv_flame_graph_can_go_back      (TvFlameGraph       *self);
gboolean            tv_flame_graph_can_go_forward   (TvFlameGraph       *self);
/* Whether an animation is running. */
gboolean            tv_flame_graph_is_animating     (TvFlameGraph       *self);
/* Whether a layout is being made on a worker (the old one shows). */
gboolean            tv_flame_graph_is_laying_out    (TvFlameGraph       *self);

/* The keyboard's frame, or TV_NODE_NONE. */
guint32             tv_flame_graph_get_selected     (TvFlameGraph       *self);
void                tv_flame_graph_set_selected     (TvFlameGraph       *self,
                                                     guint32             node);

/* The rows' scroll position, in pixels above what is shown, and the
 * scrollbar over the right edge that shows it while the frames are
 * higher than the graph. */
GtkAdjustment      *tv_flame_graph_get_vadjustment  (TvFlameGraph       *self);
GtkWidget          *tv_flame_graph_get_scrollbar    (TvFlameGraph       *self);
/* The layout drawn now (tests, exports of what is seen); may be NULL. */
TvFlameLayout      *tv_flame_graph_get_layout       (TvFlameGraph       *self);
/* The text the tooltip shows for the box at X, Y, or NULL. */
char               *tv_flame_graph_describe_at      (TvFlameGraph       *self,
                                                     double              x,
                                                     double              y);

G_END_DECLS
