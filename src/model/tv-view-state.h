/* tv-view-state.h: what the views of one profile show
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A TvViewState is the one description of what is shown: the threads, the
 * thread-state filter, the time range (or a set of ranges, from the
 * heatmap), the merge key, inverted or not, the transforms (focus on a
 * function, hide functions, collapse recursion), and what only a picture
 * of the view adds: the orientation, the search and the zoom path.  The
 * window keeps one per open profile, which the flame graph, the function
 * table, the timeline and the heatmap observe ("changed") and turn into a
 * TvQuery; an export takes a copy of it (tv_view_state_copy()); the
 * command line fills one from its options.  Every scalar is a property
 * (notified once per real change); the arrays have typed accessors and
 * read-only properties that are notified the same way.  It has no
 * widgets.
 */
#pragma once

#include "tv-call-tree.h"
#include "tv-model-enums.h"

G_BEGIN_DECLS

#define TV_TYPE_VIEW_STATE (tv_view_state_get_type ())

G_DECLARE_FINAL_TYPE (TvViewState, tv_view_state, TV, VIEW_STATE, GObject)

/* The thread-state filters a view offers. */
typedef enum
{
  TV_STATE_FILTER_ALL,
  TV_STATE_FILTER_GIL,           /* holding the GIL */
  TV_STATE_FILTER_CPU,           /* on CPU */
  TV_STATE_FILTER_GIL_WAIT,      /* waiting for the GIL */
  TV_STATE_FILTER_EXCEPTION,     /* with an exception */
  TV_N_STATE_FILTERS /*< skip >*/
} TvStateFilter;

/* Which way up a flame graph is drawn. */
typedef enum
{
  TV_FLAME_ORIENTATION_FLAME,        /* the root at the bottom */
  TV_FLAME_ORIENTATION_ICICLE,       /* the root at the top */
} TvFlameOrientation;

TvViewState   *tv_view_state_new                   (void);
/* A new state with the same choices: what a worker keeps while the
 * window's state moves on. */
TvViewState   *tv_view_state_copy                  (TvViewState   *self);
gboolean       tv_view_state_same_query            (TvViewState   *self,
                                                    TvViewState   *other);
void           tv_view_state_restore_query         (TvViewState   *self,
                                                    TvViewState   *from);

/* Thread indices (TvThread.index); none means all threads. */
const guint32 *tv_view_state_get_threads           (TvViewState   *self,
                                                    guint         *n_threads);
void           tv_view_state_set_threads           (TvViewState   *self,
                                                    const guint32 *threads,
                                                    guint          n_threads);
gboolean       tv_view_state_has_thread            (TvViewState   *self,
                                                    guint32        thread);

TvStateFilter  tv_view_state_get_state_filter      (TvViewState   *self);
void           tv_view_state_set_state_filter      (TvViewState   *self,
                                                    TvStateFilter  filter);

gboolean       tv_view_state_get_range             (TvViewState   *self,
                                                    guint64       *start,
                                                    guint64       *end);
void           tv_view_state_set_range             (TvViewState   *self,
                                                    guint64        start,
                                                    guint64        end);
/* Clears the time range and the ranges. */
void           tv_view_state_clear_range           (TvViewState   *self);

/* A selection of several time ranges (a rectangle of heatmap cells),
 * sorted and disjoint; NULL (and 0) when there is none.  There is one
 * selection at a time: setting ranges clears the time range, and setting
 * a time range clears the ranges. */
const TvTimeRange *tv_view_state_get_ranges        (TvViewState       *self,
                                                    guint             *n_ranges);
/* Sorts and merges RANGES; none (N_RANGES 0) clears them. */
void           tv_view_state_set_ranges            (TvViewState       *self,
                                                    const TvTimeRange *ranges,
                                                    guint              n_ranges);

TvMergeKey     tv_view_state_get_merge             (TvViewState   *self);
void           tv_view_state_set_merge             (TvViewState   *self,
                                                    TvMergeKey     merge);

gboolean       tv_view_state_get_inverted          (TvViewState   *self);
void           tv_view_state_set_inverted          (TvViewState   *self,
                                                    gboolean       inverted);

gboolean       tv_view_state_get_collapse_recursion (TvViewState  *self);
void           tv_view_state_set_collapse_recursion (TvViewState  *self,
                                                     gboolean      collapse);

/* A function key (TV_MERGE_FUNCTION), or TV_NODE_NONE. */
guint32        tv_view_state_get_focus_function    (TvViewState   *self);
void           tv_view_state_set_focus_function    (TvViewState   *self,
                                                    guint32        function);

const guint32 *tv_view_state_get_hidden_functions  (TvViewState   *self,
                                                    guint         *n_functions);
void           tv_view_state_hide_function         (TvViewState   *self,
                                                    guint32        function);
void           tv_view_state_set_hidden_functions  (TvViewState   *self,
                                                    const guint32 *functions,
                                                    guint          n_functions);
/* Clears focus, hidden functions and recursion collapsing. */
void           tv_view_state_reset_transforms      (TvViewState   *self);
gboolean       tv_view_state_has_transforms        (TvViewState   *self);

/* What a picture of the view adds; none of these changes a query, so
 * they are notified but do not emit "changed". */
TvFlameOrientation tv_view_state_get_orientation   (TvViewState       *self);
void           tv_view_state_set_orientation       (TvViewState       *self,
                                                    TvFlameOrientation orientation);
/* A regular expression (caseless) over function and file names: an
 * image dims what does not match, the HTML page starts with it.  NULL
 * (never empty) for none. */
const char    *tv_view_state_get_search            (TvViewState   *self);
void           tv_view_state_set_search            (TvViewState   *self,
                                                    const char    *search);
/* The zoom root, as the merge keys of the frames from the (inverted, when
 * inverted) tree's root down to it, the root not included; none: the
 * whole tree. */
const guint32 *tv_view_state_get_zoom_path         (TvViewState   *self,
                                                    guint         *n_keys);
void           tv_view_state_set_zoom_path         (TvViewState   *self,
                                                    const guint32 *keys,
                                                    guint          n_keys);

/* Fills QUERY from the state.  The query points into the state's arrays:
 * use it before the state changes again (TvProfile's query_async copies
 * what it needs). */
void           tv_view_state_to_query              (TvViewState   *self,
                                                    TvQuery       *query);

/* The status mask and value a filter keeps ((status & mask) == value). */
void           tv_state_filter_get_mask            (TvStateFilter  filter,
                                                    guint8        *mask,
                                                    guint8        *value);

G_END_DECLS
