/* tv-comparison.h: two profiles, what each side shows, and their diff
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "tv-diff.h"
#include "tv-profile.h"
#include "tv-view-state.h"

G_BEGIN_DECLS

#define TV_TYPE_COMPARISON (tv_comparison_get_type ())

G_DECLARE_FINAL_TYPE (TvComparison, tv_comparison, TV, COMPARISON, GObject)

typedef enum
{
  TV_COMPARISON_LOADING,   /* a profile is being loaded */
  TV_COMPARISON_LOADED,    /* both are; the first diff is being made */
  TV_COMPARISON_READY,     /* a diff is there */
  TV_COMPARISON_FAILED,    /* a profile could not be loaded, or the loads were cancelled */
} TvComparisonState;

#define TV_TYPE_COMPARISON_STATE (tv_comparison_state_get_type ())
GType tv_comparison_state_get_type (void);

/* Starts loading whichever of BASE and NEW_PROFILE is not loaded yet; they
 * must not be being loaded elsewhere (the end of that load would not
 * reach the comparison). */
TvComparison       *tv_comparison_new                (TvProfile           *base,
                                                      TvProfile           *new_profile);

TvComparisonState   tv_comparison_get_state          (TvComparison        *self);
/* Why the comparison failed (G_IO_ERROR_CANCELLED when its loads were
 * cancelled), or NULL; and, unless cancelled, the side whose profile
 * could not be loaded. */
const GError       *tv_comparison_get_error          (TvComparison        *self);
TvDiffSide          tv_comparison_get_failed_side    (TvComparison        *self);
/* Whether a load, query or diff is running. */
gboolean            tv_comparison_is_busy            (TvComparison        *self);

TvProfile          *tv_comparison_get_profile        (TvComparison        *self,
                                                      TvDiffSide           side);
/* What SIDE shows: its threads, state filter and transforms.  The merge
 * key is the comparison's, on both. */
TvViewState        *tv_comparison_get_view_state     (TvComparison        *self,
                                                      TvDiffSide           side);

/* The diff shown, and the tree SIDE shows, which the diff was made from:
 * both change together, when a new diff is made, and neither before.
 * Until the diff that follows a swap is made, the diff's BASE is the
 * side that is now NEW (see tv_comparison_get_diff_side()). */
TvDiff             *tv_comparison_get_diff           (TvComparison        *self);
TvCallTree         *tv_comparison_get_tree           (TvComparison        *self,
                                                      TvDiffSide           side);
/* The side of the diff shown that holds SIDE's profile: SIDE, or the other
 * for a diff made before a swap.  The same function maps back. */
TvDiffSide          tv_comparison_get_diff_side      (TvComparison        *self,
                                                      TvDiffSide           side);
/* The diff's caveats (TvComparability) that apply to the comparison as it
 * is made: those that only concern time are left out when comparing by
 * share.  NULL until there is a diff. */
GPtrArray          *tv_comparison_get_warnings       (TvComparison        *self);

TvMergeKey          tv_comparison_get_merge          (TvComparison        *self);
void                tv_comparison_set_merge          (TvComparison        *self,
                                                      TvMergeKey           merge);
TvDiffNormalization tv_comparison_get_normalization  (TvComparison        *self);
/* Makes the diff again from the trees shown; no query. */
void                tv_comparison_set_normalization  (TvComparison        *self,
                                                      TvDiffNormalization  normalization);
/* Linked, a change of one side's thread or state filter is made on the
 * other side too: the same state filter, and the thread at the same
 * place in its list (tv_comparison_get_threads()).  Linking makes NEW
 * follow BASE at once.  The transforms (focus, hidden functions,
 * collapsed recursion) go to the other side either way: two trees
 * transformed differently do not compare. */
gboolean            tv_comparison_get_link_filters   (TvComparison        *self);
void                tv_comparison_set_link_filters   (TvComparison        *self,
                                                      gboolean             link);

/* SIDE's threads (TvThread indices) in the order both sides list them:
 * the main thread first, then by samples, then by thread id.  Empty
 * until both profiles are loaded. */
const guint32      *tv_comparison_get_threads        (TvComparison        *self,
                                                      TvDiffSide           side,
                                                      guint               *n_threads);
/* 0 when SIDE shows every thread (or several), else 1 + the place of its
 * one thread in tv_comparison_get_threads(). */
guint               tv_comparison_get_thread_choice  (TvComparison        *self,
                                                      TvDiffSide           side);
/* Shows only the thread of CHOICE (as above; 0 or out of range: all). */
void                tv_comparison_set_thread_choice  (TvComparison        *self,
                                                      TvDiffSide           side,
                                                      guint                choice);

/* BASE and NEW trade places, each with its view state, its tree and its
 * threads; only the diff is made again, and neither profile is loaded
 * again.  Nothing happens before both are loaded. */
void                tv_comparison_swap               (TvComparison        *self);
/* Stops the loads, queries and diff running.  Before the first diff the
 * comparison fails (with G_IO_ERROR_CANCELLED); after it, it keeps the
 * diff it has. */
void                tv_comparison_cancel             (TvComparison        *self);

G_END_DECLS
