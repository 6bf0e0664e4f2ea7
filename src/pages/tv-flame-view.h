/* tv-flame-view.h: the flame graph page of a profile
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "tv-call-tree-view.h"
#include "tv-flame-graph.h"
#include "tv-function-table.h"
#include "tv-source-view.h"
#include "tv-profile.h"
#include "tv-view-state.h"

G_BEGIN_DECLS

#define TV_TYPE_FLAME_VIEW (tv_flame_view_get_type ())

G_DECLARE_FINAL_TYPE (TvFlameView, tv_flame_view, TV, FLAME_VIEW, AdwBin)

/* PROFILE must be loaded; STATE is shared with the profile's other views. */
GtkWidget    *tv_flame_view_new             (TvProfile   *profile,
                                             TvViewState *state);
TvViewState  *tv_flame_view_get_view_state  (TvFlameView *self);
TvFlameGraph *tv_flame_view_get_graph       (TvFlameView *self);
TvFunctionTable *tv_flame_view_get_function_table (TvFlameView *self);
TvCallTreeView *tv_flame_view_get_call_tree_view (TvFlameView *self);
TvSourceView *tv_flame_view_get_source_view (TvFlameView *self);
/* The key of the graph's colours, below it. */
GtkWidget    *tv_flame_view_get_legend      (TvFlameView *self);
/* Whether a query or a search is being computed. */
gboolean      tv_flame_view_is_busy         (TvFlameView *self);
void          tv_flame_view_cancel_query    (TvFlameView *self);
/* The search's regular expression; "" clears it. */
void          tv_flame_view_set_search      (TvFlameView *self,
                                             const char  *regex);
/* The search's regular expression, or NULL. */
const char   *tv_flame_view_get_search      (TvFlameView *self);
/* The current search, or NULL (tests). */
TvFlameMatches *tv_flame_view_get_matches   (TvFlameView *self);
/* What the line above the graph says (tests). */
const char   *tv_flame_view_get_summary     (TvFlameView *self);
const char   *tv_flame_view_get_match_text  (TvFlameView *self);

G_END_DECLS
