/* tv-comparison.c: two profiles, what each side shows, and their diff
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A TvComparison loads BASE and NEW (each on its own worker, at the same
 * time), gives each side a TvViewState (threads, state filter, transforms)
 * and keeps the merge key and the normalisation for both.  Whenever a
 * side's state, the merge key or the normalisation changes, both trees
 * are queried again on workers and the TvDiff is made from them on a
 * worker.  Each such round is a TvWorker round (its own cancellable and
 * generation): a change cancels the round before it, and a result of an
 * older round that still comes back is dropped, so that it never replaces
 * a newer one.
 *
 * What is shown changes at once and only when a round's diff is back: the
 * diff, each side's tree in it ("base-tree", "new-tree") and the
 * comparability warnings; views that hand trees and diff to their widgets
 * together therefore never show a diff of trees they do not show.
 *
 * Swapping trades every per-side thing (profile, view state, trees, thread
 * list) and makes only the diff again.  Until it is back, the diff shown
 * is the one before the swap, whose sides are the comparison's the other
 * way round (tv_comparison_get_diff_side()).
 */
#include "tv-comparison.h"

#include <glib/gi18n.h>

#include "tv-worker.h"

struct _TvComparison
{
  GObject              parent_instance;

  TvProfile           *profiles[2];
  TvViewState         *states[2];
  GArray              *threads[2];     /* guint32 TvThread indices, in list order */
  TvComparisonState    state;
  GError              *error;
  TvDiffSide           failed_side;
  GCancellable        *load_cancellable;
  guint                n_loaded;

  /* The round being made. */
  TvWorker             jobs;
  guint                pending;        /* its queries not back yet */
  gboolean             diffing;
  TvCallTree          *made[2];        /* the trees of the last round's queries */

  /* What is shown. */
  TvDiff              *diff;
  TvCallTree          *trees[2];       /* each side's tree in the diff */
  gboolean             diff_swapped;   /* the diff's BASE is NEW */
  GPtrArray           *warnings;

  TvMergeKey           merge;
  TvDiffNormalization  normalization;
  gboolean             link_filters;
  gboolean             syncing;        /* changing a state for the other's sake */
  gboolean             busy;           /* as last notified */
};

G_DEFINE_FINAL_TYPE (TvComparison, tv_comparison, G_TYPE_OBJECT)

G_DEFINE_ENUM_TYPE (TvComparisonState, tv_comparison_state,
                    G_DEFINE_ENUM_VALUE (TV_COMPARISON_LOADING, "loading"),
                    G_DEFINE_ENUM_VALUE (TV_COMPARISON_LOADED, "loaded"),
                    G_DEFINE_ENUM_VALUE (TV_COMPARISON_READY, "ready"),
                    G_DEFINE_ENUM_VALUE (TV_COMPARISON_FAILED, "failed"))

enum
{
  PROP_0,
  PROP_STATE,
  PROP_BUSY,
  PROP_BASE_PROFILE,
  PROP_NEW_PROFILE,
  PROP_DIFF,
  PROP_BASE_TREE,
  PROP_NEW_TREE,
  PROP_WARNINGS,
  PROP_MERGE,
  PROP_NORMALIZATION,
  PROP_LINK_FILTERS,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void start_queries (TvComparison *self);

#define SWAP_PAIR(pair) \
  G_STMT_START { gpointer tmp_ = (pair)[0]; (pair)[0] = (pair)[1]; (pair)[1] = tmp_; } G_STMT_END

static TvDiffSide
side_of_state (TvComparison *self,
               TvViewState  *state)
{
  return state == self->states[TV_DIFF_SIDE_BASE] ? TV_DIFF_SIDE_BASE : TV_DIFF_SIDE_NEW;
}

static void
update_busy (TvComparison *self)
{
  gboolean busy = tv_comparison_is_busy (self);

  if (self->busy == busy)
    return;
  self->busy = busy;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BUSY]);
}

static void
set_state (TvComparison      *self,
           TvComparisonState  state)
{
  if (self->state == state)
    return;
  self->state = state;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STATE]);
  update_busy (self);
}

static void
fail (TvComparison *self,
      TvDiffSide    side,
      const GError *error)
{
  if (self->state == TV_COMPARISON_FAILED)
    return;
  g_cancellable_cancel (self->load_cancellable);
  g_clear_error (&self->error);
  self->error = g_error_copy (error);
  self->failed_side = side;
  set_state (self, TV_COMPARISON_FAILED);
}

/* ------------------------------------------------------------------------ */
/* The rounds: queries, then the diff, on workers                            */
/* ------------------------------------------------------------------------ */

typedef struct
{
  TvComparison *self;       /* a strong reference */
  guint         generation;
  TvDiffSide    side;
} QueryJob;

typedef struct
{
  TvCallTree          *trees[2];
  TvDiffNormalization  normalization;
} DiffJob;

static void
diff_job_free (gpointer data)
{
  DiffJob *job = data;

  tv_call_tree_unref (job->trees[0]);
  tv_call_tree_unref (job->trees[1]);
  g_free (job);
}

/* Drops whatever the workers are making: their results, of an older
 * generation, will be dropped too. */
static void
next_generation (TvComparison *self)
{
  tv_worker_begin (&self->jobs);
  self->pending = 0;
  self->diffing = FALSE;
}

/* The diff, or NULL when cancelled. */
static gpointer
diff_thread (gpointer      data,
             GCancellable *cancellable)
{
  DiffJob *job = data;
  TvDiffOptions options;

  tv_diff_options_init (&options);
  options.normalization = job->normalization;
  return tv_diff_new (job->trees[0], job->trees[1], &options, cancellable);
}

/* Whether a caveat only concerns a comparison by time: what a sample's
 * time is on either side, and the durations (whose message says to
 * compare by share).  A share of samples needs no time. */
static gboolean
only_by_time (TvComparabilityCode code)
{
  switch (code)
    {
    case TV_COMPARABILITY_NO_STATS_BASE:
    case TV_COMPARABILITY_NO_STATS_NEW:
    case TV_COMPARABILITY_DURATION:
    case TV_COMPARABILITY_NO_TIME:
      return TRUE;
    default:
      return FALSE;
    }
}

/* The caveats of DIFF that apply, as copies: they outlive the diff. */
static GPtrArray *
dup_warnings (TvDiff *diff)
{
  GPtrArray *caveats = tv_diff_get_comparability (diff);
  GPtrArray *warnings = g_ptr_array_new_with_free_func ((GDestroyNotify) tv_comparability_free);
  TvDiffOptions options;

  tv_diff_get_options (diff, &options);
  for (guint i = 0; i < caveats->len; i++)
    {
      const TvComparability *caveat = g_ptr_array_index (caveats, i);
      TvComparability *copy;

      if (options.normalization == TV_DIFF_BY_SHARE && only_by_time (caveat->code))
        continue;
      copy = g_new0 (TvComparability, 1);
      copy->code = caveat->code;
      copy->message = g_strdup (caveat->message);
      g_ptr_array_add (warnings, copy);
    }
  return warnings;
}

static gboolean
same_warnings (GPtrArray *a,
               GPtrArray *b)
{
  if (a == NULL || b == NULL || a->len != b->len)
    return a == b;
  for (guint i = 0; i < a->len; i++)
    {
      const TvComparability *x = g_ptr_array_index (a, i);
      const TvComparability *y = g_ptr_array_index (b, i);

      if (x->code != y->code || g_strcmp0 (x->message, y->message) != 0)
        return FALSE;
    }
  return TRUE;
}

/* The trees, the diff and its warnings change together: every property
 * is set before the first notification. */
static void
show_diff (TvComparison *self,
           TvDiff       *diff)
{
  g_autoptr(GPtrArray) warnings = dup_warnings (diff);
  gboolean tree_changed[2];
  gboolean warnings_changed = !same_warnings (self->warnings, warnings);

  for (guint i = 0; i < 2; i++)
    {
      TvCallTree *tree = tv_diff_get_tree (diff, i);

      tree_changed[i] = tree != self->trees[i];
      g_clear_pointer (&self->trees[i], tv_call_tree_unref);
      self->trees[i] = tv_call_tree_ref (tree);
    }
  g_clear_pointer (&self->diff, tv_diff_unref);
  self->diff = tv_diff_ref (diff);
  self->diff_swapped = FALSE;
  if (warnings_changed)
    {
      g_clear_pointer (&self->warnings, g_ptr_array_unref);
      self->warnings = g_steal_pointer (&warnings);
    }

  if (tree_changed[TV_DIFF_SIDE_BASE])
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BASE_TREE]);
  if (tree_changed[TV_DIFF_SIDE_NEW])
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_NEW_TREE]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DIFF]);
  if (warnings_changed)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_WARNINGS]);
}

/* Only for the newest round's diff. */
static void
on_diff_done (gpointer owner,
              gpointer data,
              gpointer result)
{
  TvComparison *self = TV_COMPARISON (owner);
  g_autoptr(TvDiff) diff = result;

  if (diff == NULL)
    return;
  self->diffing = FALSE;
  show_diff (self, diff);
  if (self->state == TV_COMPARISON_LOADED)
    set_state (self, TV_COMPARISON_READY);
  update_busy (self);
}

/* The diff of the last round's trees, as a round of its own. */
static void
start_diff (TvComparison *self)
{
  DiffJob *job = g_new0 (DiffJob, 1);

  job->trees[0] = tv_call_tree_ref (self->made[0]);
  job->trees[1] = tv_call_tree_ref (self->made[1]);
  job->normalization = self->normalization;
  self->diffing = TRUE;
  tv_worker_run (&self->jobs, self, diff_thread, job, diff_job_free,
                 (GDestroyNotify) tv_diff_unref, on_diff_done);
}

static void
on_query_done (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  QueryJob *job = user_data;
  TvComparison *self = job->self;
  g_autoptr(TvCallTree) tree = tv_profile_query_finish (TV_PROFILE (object), result, NULL);

  if (tree != NULL && tv_worker_is_current (&self->jobs, job->generation))
    {
      g_clear_pointer (&self->made[job->side], tv_call_tree_unref);
      self->made[job->side] = g_steal_pointer (&tree);
      if (--self->pending == 0)
        start_diff (self);
    }
  g_object_unref (job->self);
  g_free (job);
}

static void
start_queries (TvComparison *self)
{
  if (self->n_loaded < 2 || self->state == TV_COMPARISON_FAILED)
    return;
  next_generation (self);
  self->pending = 2;
  for (guint i = 0; i < 2; i++)
    {
      QueryJob *job = g_new0 (QueryJob, 1);
      TvQuery query;

      job->self = g_object_ref (self);
      job->generation = self->jobs.generation;
      job->side = i;
      tv_view_state_to_query (self->states[i], &query);
      tv_profile_query_async (self->profiles[i], &query, self->jobs.cancellable, on_query_done,
                              job);
    }
  update_busy (self);
}

/* The trees stay as they are: only the diff is made again.  While
 * queries run, a new round starts instead (the running ones are of an
 * older generation: their side may have moved since). */
static void
remake_diff (TvComparison *self)
{
  if (self->n_loaded < 2 || self->state == TV_COMPARISON_FAILED)
    return;
  if (self->pending > 0 || self->made[0] == NULL || self->made[1] == NULL)
    {
      start_queries (self);
      return;
    }
  next_generation (self);
  start_diff (self);
  update_busy (self);
}

/* ------------------------------------------------------------------------ */
/* The sides' view states                                                    */
/* ------------------------------------------------------------------------ */

/* FROM's state filter and thread (by place in the list) on its other side. */
static void
follow_filters (TvComparison *self,
                TvDiffSide    from)
{
  TvDiffSide to = 1 - from;

  tv_view_state_set_state_filter (self->states[to],
                                  tv_view_state_get_state_filter (self->states[from]));
  tv_comparison_set_thread_choice (self, to, tv_comparison_get_thread_choice (self, from));
}

/* FROM's transforms on its other side, the functions carried over by
 * content through the diff shown. */
static void
carry_transforms (TvComparison *self,
                  TvDiffSide    from)
{
  TvViewState *source = self->states[from];
  TvViewState *target = self->states[1 - from];
  guint32 focus = tv_view_state_get_focus_function (source);
  guint n_hidden;
  const guint32 *hidden = tv_view_state_get_hidden_functions (source, &n_hidden);
  TvDiffSide diff_side;

  if (self->diff == NULL)
    return;
  diff_side = tv_comparison_get_diff_side (self, from);
  tv_view_state_reset_transforms (target);
  tv_view_state_set_collapse_recursion (target, tv_view_state_get_collapse_recursion (source));
  if (focus != TV_NODE_NONE)
    tv_view_state_set_focus_function (target, tv_diff_map_function (self->diff, diff_side, focus));
  for (guint i = 0; i < n_hidden; i++)
    {
      guint32 mapped = tv_diff_map_function (self->diff, diff_side, hidden[i]);

      if (mapped != TV_NODE_NONE)
        tv_view_state_hide_function (target, mapped);
    }
}

static void
on_view_state_changed (TvViewState  *state,
                       TvComparison *self)
{
  TvDiffSide side = side_of_state (self, state);

  /* What this changes on the other side says "changed" there too, and
   * only makes a new round. */
  if (!self->syncing && self->n_loaded == 2)
    {
      self->syncing = TRUE;
      if (self->link_filters)
        follow_filters (self, side);
      carry_transforms (self, side);
      self->syncing = FALSE;
    }
  start_queries (self);
}

/* ------------------------------------------------------------------------ */
/* Loading                                                                   */
/* ------------------------------------------------------------------------ */

/* The main thread first, then the others by samples: the data's display
 * order, which the timeline's lanes follow too. */
static void
list_threads (TvComparison *self,
              TvDiffSide    side)
{
  TvProfileData *data = tv_profile_get_data (self->profiles[side]);

  g_array_set_size (self->threads[side], 0);
  g_array_append_vals (self->threads[side], tv_profile_data_get_thread_order (data),
                       tv_profile_data_get_n_threads (data));
}

static void
both_loaded (TvComparison *self)
{
  for (guint i = 0; i < 2; i++)
    list_threads (self, i);
  set_state (self, TV_COMPARISON_LOADED);
  start_queries (self);
}

static void
on_load_done (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(TvComparison) self = user_data;
  TvProfile *profile = TV_PROFILE (object);
  TvDiffSide side = profile == self->profiles[0] ? TV_DIFF_SIDE_BASE : TV_DIFF_SIDE_NEW;
  g_autoptr(GError) error = NULL;

  /* Cancelled, the comparison has failed already, or is going away. */
  if (!tv_profile_load_finish (profile, result, &error))
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        fail (self, side, error);
      return;
    }
  if (++self->n_loaded == 2 && self->state == TV_COMPARISON_LOADING)
    both_loaded (self);
}

static void
start_loads (TvComparison *self)
{
  for (guint i = 0; i < 2; i++)
    {
      TvProfile *profile = self->profiles[i];

      if (tv_profile_get_state (profile) == TV_PROFILE_LOADED)
        {
          self->n_loaded++;
          continue;
        }
      if (tv_profile_get_state (profile) == TV_PROFILE_FAILED)
        {
          g_autoptr(GError) error = g_error_new_literal (G_IO_ERROR, G_IO_ERROR_FAILED,
                                                         _("The profile could not be loaded."));

          fail (self, i, error);
          return;
        }
      tv_profile_load_async (profile, self->load_cancellable, on_load_done, g_object_ref (self));
    }
  if (self->n_loaded == 2)
    both_loaded (self);
}

/* ------------------------------------------------------------------------ */
/* Public API                                                                */
/* ------------------------------------------------------------------------ */

TvComparison *
tv_comparison_new (TvProfile *base,
                   TvProfile *new_profile)
{
  TvComparison *self;

  g_return_val_if_fail (TV_IS_PROFILE (base), NULL);
  g_return_val_if_fail (TV_IS_PROFILE (new_profile), NULL);
  /* Not one being loaded elsewhere: its load's end would not reach us. */
  g_return_val_if_fail (tv_profile_get_state (base) == TV_PROFILE_NEW
                        || tv_profile_get_state (base) >= TV_PROFILE_LOADED, NULL);
  g_return_val_if_fail (tv_profile_get_state (new_profile) == TV_PROFILE_NEW
                        || tv_profile_get_state (new_profile) >= TV_PROFILE_LOADED, NULL);

  self = g_object_new (TV_TYPE_COMPARISON, NULL);
  self->profiles[0] = g_object_ref (base);
  self->profiles[1] = g_object_ref (new_profile);
  start_loads (self);
  return self;
}

TvComparisonState
tv_comparison_get_state (TvComparison *self)
{
  g_return_val_if_fail (TV_IS_COMPARISON (self), TV_COMPARISON_FAILED);

  return self->state;
}

const GError *
tv_comparison_get_error (TvComparison *self)
{
  g_return_val_if_fail (TV_IS_COMPARISON (self), NULL);

  return self->error;
}

TvDiffSide
tv_comparison_get_failed_side (TvComparison *self)
{
  g_return_val_if_fail (TV_IS_COMPARISON (self), TV_DIFF_SIDE_BASE);

  return self->failed_side;
}

gboolean
tv_comparison_is_busy (TvComparison *self)
{
  g_return_val_if_fail (TV_IS_COMPARISON (self), FALSE);

  switch (self->state)
    {
    case TV_COMPARISON_LOADING:
    case TV_COMPARISON_LOADED:
      return TRUE;
    case TV_COMPARISON_READY:
      return self->pending > 0 || self->diffing;
    case TV_COMPARISON_FAILED:
    default:
      return FALSE;
    }
}

TvProfile *
tv_comparison_get_profile (TvComparison *self,
                           TvDiffSide    side)
{
  g_return_val_if_fail (TV_IS_COMPARISON (self), NULL);
  g_return_val_if_fail (side <= TV_DIFF_SIDE_NEW, NULL);

  return self->profiles[side];
}

TvViewState *
tv_comparison_get_view_state (TvComparison *self,
                              TvDiffSide    side)
{
  g_return_val_if_fail (TV_IS_COMPARISON (self), NULL);
  g_return_val_if_fail (side <= TV_DIFF_SIDE_NEW, NULL);

  return self->states[side];
}

TvDiff *
tv_comparison_get_diff (TvComparison *self)
{
  g_return_val_if_fail (TV_IS_COMPARISON (self), NULL);

  return self->diff;
}

TvCallTree *
tv_comparison_get_tree (TvComparison *self,
                        TvDiffSide    side)
{
  g_return_val_if_fail (TV_IS_COMPARISON (self), NULL);
  g_return_val_if_fail (side <= TV_DIFF_SIDE_NEW, NULL);

  return self->trees[side];
}

TvDiffSide
tv_comparison_get_diff_side (TvComparison *self,
                             TvDiffSide    side)
{
  g_return_val_if_fail (TV_IS_COMPARISON (self), side);
  g_return_val_if_fail (side <= TV_DIFF_SIDE_NEW, side);

  return self->diff_swapped ? 1 - side : side;
}

GPtrArray *
tv_comparison_get_warnings (TvComparison *self)
{
  g_return_val_if_fail (TV_IS_COMPARISON (self), NULL);

  return self->warnings;
}

TvMergeKey
tv_comparison_get_merge (TvComparison *self)
{
  g_return_val_if_fail (TV_IS_COMPARISON (self), TV_MERGE_FUNCTION);

  return self->merge;
}

void
tv_comparison_set_merge (TvComparison *self,
                         TvMergeKey    merge)
{
  g_return_if_fail (TV_IS_COMPARISON (self));
  g_return_if_fail (merge < TV_N_MERGE_KEYS);

  if (self->merge == merge)
    return;
  self->merge = merge;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MERGE]);
  /* Each state says "changed"; the round that follows the second counts. */
  tv_view_state_set_merge (self->states[0], merge);
  tv_view_state_set_merge (self->states[1], merge);
}

TvDiffNormalization
tv_comparison_get_normalization (TvComparison *self)
{
  g_return_val_if_fail (TV_IS_COMPARISON (self), TV_DIFF_BY_TIME);

  return self->normalization;
}

void
tv_comparison_set_normalization (TvComparison        *self,
                                 TvDiffNormalization  normalization)
{
  g_return_if_fail (TV_IS_COMPARISON (self));
  g_return_if_fail (normalization <= TV_DIFF_BY_SHARE);

  if (self->normalization == normalization)
    return;
  self->normalization = normalization;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_NORMALIZATION]);
  remake_diff (self);
}

gboolean
tv_comparison_get_link_filters (TvComparison *self)
{
  g_return_val_if_fail (TV_IS_COMPARISON (self), FALSE);

  return self->link_filters;
}

void
tv_comparison_set_link_filters (TvComparison *self,
                                gboolean      link)
{
  g_return_if_fail (TV_IS_COMPARISON (self));

  if (self->link_filters == !!link)
    return;
  self->link_filters = !!link;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LINK_FILTERS]);
  /* NEW follows BASE from now on. */
  if (link && self->n_loaded == 2)
    {
      self->syncing = TRUE;
      follow_filters (self, TV_DIFF_SIDE_BASE);
      self->syncing = FALSE;
    }
}

const guint32 *
tv_comparison_get_threads (TvComparison *self,
                           TvDiffSide    side,
                           guint        *n_threads)
{
  g_return_val_if_fail (TV_IS_COMPARISON (self), NULL);
  g_return_val_if_fail (side <= TV_DIFF_SIDE_NEW, NULL);
  g_return_val_if_fail (n_threads != NULL, NULL);

  *n_threads = self->threads[side]->len;
  return (const guint32 *) (gpointer) self->threads[side]->data;
}

guint
tv_comparison_get_thread_choice (TvComparison *self,
                                 TvDiffSide    side)
{
  guint n;
  const guint32 *shown;
  GArray *threads;

  g_return_val_if_fail (TV_IS_COMPARISON (self), 0);
  g_return_val_if_fail (side <= TV_DIFF_SIDE_NEW, 0);

  shown = tv_view_state_get_threads (self->states[side], &n);
  threads = self->threads[side];
  if (n != 1)
    return 0;
  for (guint i = 0; i < threads->len; i++)
    if (g_array_index (threads, guint32, i) == shown[0])
      return i + 1;
  return 0;
}

void
tv_comparison_set_thread_choice (TvComparison *self,
                                 TvDiffSide    side,
                                 guint         choice)
{
  GArray *threads;

  g_return_if_fail (TV_IS_COMPARISON (self));
  g_return_if_fail (side <= TV_DIFF_SIDE_NEW);

  threads = self->threads[side];
  if (choice == 0 || choice > threads->len)
    tv_view_state_set_threads (self->states[side], NULL, 0);
  else
    tv_view_state_set_threads (self->states[side],
                               &g_array_index (threads, guint32, choice - 1), 1);
}

void
tv_comparison_swap (TvComparison *self)
{
  g_return_if_fail (TV_IS_COMPARISON (self));

  if (self->n_loaded < 2 || self->state == TV_COMPARISON_FAILED)
    return;
  SWAP_PAIR (self->profiles);
  SWAP_PAIR (self->states);
  SWAP_PAIR (self->threads);
  SWAP_PAIR (self->made);
  SWAP_PAIR (self->trees);
  if (self->diff != NULL)
    self->diff_swapped = !self->diff_swapped;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BASE_PROFILE]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_NEW_PROFILE]);
  if (self->trees[0] != self->trees[1])
    {
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BASE_TREE]);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_NEW_TREE]);
    }
  remake_diff (self);
}

void
tv_comparison_cancel (TvComparison *self)
{
  g_return_if_fail (TV_IS_COMPARISON (self));

  g_cancellable_cancel (self->load_cancellable);
  /* What still comes back is of an older generation. */
  next_generation (self);
  if (self->state == TV_COMPARISON_LOADING || self->state == TV_COMPARISON_LOADED)
    {
      g_autoptr(GError) error = NULL;

      g_cancellable_set_error_if_cancelled (self->load_cancellable, &error);
      fail (self, self->failed_side, error);
    }
  update_busy (self);
}

/* ------------------------------------------------------------------------ */
/* GObject                                                                   */
/* ------------------------------------------------------------------------ */

static void
tv_comparison_dispose (GObject *object)
{
  TvComparison *self = TV_COMPARISON (object);

  g_cancellable_cancel (self->load_cancellable);
  /* What is running comes back as cancelled, and is dropped. */
  g_cancellable_cancel (self->jobs.cancellable);
  G_OBJECT_CLASS (tv_comparison_parent_class)->dispose (object);
}

static void
tv_comparison_finalize (GObject *object)
{
  TvComparison *self = TV_COMPARISON (object);

  for (guint i = 0; i < 2; i++)
    {
      g_clear_object (&self->profiles[i]);
      g_clear_object (&self->states[i]);
      g_clear_pointer (&self->threads[i], g_array_unref);
      g_clear_pointer (&self->made[i], tv_call_tree_unref);
      g_clear_pointer (&self->trees[i], tv_call_tree_unref);
    }
  g_clear_pointer (&self->diff, tv_diff_unref);
  g_clear_pointer (&self->warnings, g_ptr_array_unref);
  g_clear_error (&self->error);
  g_clear_object (&self->load_cancellable);
  tv_worker_cancel (&self->jobs);
  G_OBJECT_CLASS (tv_comparison_parent_class)->finalize (object);
}

static void
tv_comparison_get_property (GObject    *object,
                            guint       prop_id,
                            GValue     *value,
                            GParamSpec *pspec)
{
  TvComparison *self = TV_COMPARISON (object);

  switch (prop_id)
    {
    case PROP_STATE:
      g_value_set_enum (value, self->state);
      break;
    case PROP_BUSY:
      g_value_set_boolean (value, tv_comparison_is_busy (self));
      break;
    case PROP_BASE_PROFILE:
    case PROP_NEW_PROFILE:
      g_value_set_object (value, self->profiles[prop_id == PROP_NEW_PROFILE]);
      break;
    case PROP_DIFF:
      g_value_set_boxed (value, self->diff);
      break;
    case PROP_BASE_TREE:
    case PROP_NEW_TREE:
      g_value_set_pointer (value, self->trees[prop_id == PROP_NEW_TREE]);
      break;
    case PROP_WARNINGS:
      g_value_set_boxed (value, self->warnings);
      break;
    case PROP_MERGE:
      g_value_set_int (value, self->merge);
      break;
    case PROP_NORMALIZATION:
      g_value_set_enum (value, self->normalization);
      break;
    case PROP_LINK_FILTERS:
      g_value_set_boolean (value, self->link_filters);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tv_comparison_set_property (GObject      *object,
                            guint         prop_id,
                            const GValue *value,
                            GParamSpec   *pspec)
{
  TvComparison *self = TV_COMPARISON (object);

  switch (prop_id)
    {
    case PROP_MERGE:
      tv_comparison_set_merge (self, g_value_get_int (value));
      break;
    case PROP_NORMALIZATION:
      tv_comparison_set_normalization (self, g_value_get_enum (value));
      break;
    case PROP_LINK_FILTERS:
      tv_comparison_set_link_filters (self, g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tv_comparison_class_init (TvComparisonClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GParamFlags readable = G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;
  GParamFlags writable = G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;

  object_class->dispose = tv_comparison_dispose;
  object_class->finalize = tv_comparison_finalize;
  object_class->get_property = tv_comparison_get_property;
  object_class->set_property = tv_comparison_set_property;

  properties[PROP_STATE] =
    g_param_spec_enum ("state", NULL, NULL, TV_TYPE_COMPARISON_STATE, TV_COMPARISON_LOADING,
                       readable);
  properties[PROP_BUSY] = g_param_spec_boolean ("busy", NULL, NULL, TRUE, readable);
  properties[PROP_BASE_PROFILE] =
    g_param_spec_object ("base-profile", NULL, NULL, TV_TYPE_PROFILE, readable);
  properties[PROP_NEW_PROFILE] =
    g_param_spec_object ("new-profile", NULL, NULL, TV_TYPE_PROFILE, readable);
  properties[PROP_DIFF] = g_param_spec_boxed ("diff", NULL, NULL, TV_TYPE_DIFF, readable);
  /* TvCallTree, as the flame graph's "tree" is. */
  properties[PROP_BASE_TREE] = g_param_spec_pointer ("base-tree", NULL, NULL, readable);
  properties[PROP_NEW_TREE] = g_param_spec_pointer ("new-tree", NULL, NULL, readable);
  /* TvComparability elements. */
  properties[PROP_WARNINGS] =
    g_param_spec_boxed ("warnings", NULL, NULL, G_TYPE_PTR_ARRAY, readable);
  /* A TvMergeKey, which has no GType yet. */
  properties[PROP_MERGE] =
    g_param_spec_int ("merge", NULL, NULL, 0, TV_N_MERGE_KEYS - 1, TV_MERGE_FUNCTION, writable);
  properties[PROP_NORMALIZATION] =
    g_param_spec_enum ("normalization", NULL, NULL, TV_TYPE_DIFF_NORMALIZATION,
                       TV_DIFF_BY_TIME, writable);
  properties[PROP_LINK_FILTERS] =
    g_param_spec_boolean ("link-filters", NULL, NULL, FALSE, writable);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
tv_comparison_init (TvComparison *self)
{
  self->load_cancellable = g_cancellable_new ();
  self->merge = TV_MERGE_FUNCTION;
  self->normalization = TV_DIFF_BY_TIME;
  self->state = TV_COMPARISON_LOADING;
  self->busy = TRUE;
  for (guint i = 0; i < 2; i++)
    {
      self->states[i] = tv_view_state_new ();
      tv_view_state_set_merge (self->states[i], TV_MERGE_FUNCTION);
      self->threads[i] = g_array_new (FALSE, FALSE, sizeof (guint32));
      g_signal_connect_object (self->states[i], "changed", G_CALLBACK (on_view_state_changed),
                               self, 0);
    }
}
