/* tv-view-state.c: what the views of one profile show
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A plain holder of choices: every setter that changes something emits
 * "changed" once; the views decide what to recompute.
 */
#include "tv-view-state.h"
#include "tachyon-format.h"

struct _TvViewState
{
  GObject        parent_instance;

  GArray        *threads;            /* guint32, sorted, no duplicates */
  TvStateFilter  state_filter;
  gboolean       has_range;
  guint64        range_start;
  guint64        range_end;
  GArray        *ranges;             /* TvTimeRange, sorted, disjoint */
  TvMergeKey     merge;
  gboolean       inverted;
  gboolean       collapse_recursion;
  guint32        focus_function;
  GArray        *hidden;             /* guint32, in the order hidden */
};

G_DEFINE_FINAL_TYPE (TvViewState, tv_view_state, G_TYPE_OBJECT)

enum
{
  CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void
changed (TvViewState *self)
{
  g_signal_emit (self, signals[CHANGED], 0);
}

static int
compare_u32 (gconstpointer a,
             gconstpointer b)
{
  guint32 x = *(const guint32 *) a;
  guint32 y = *(const guint32 *) b;

  return (x > y) - (x < y);
}

TvViewState *
tv_view_state_new (void)
{
  return g_object_new (TV_TYPE_VIEW_STATE, NULL);
}

const guint32 *
tv_view_state_get_threads (TvViewState *self,
                           guint       *n_threads)
{
  g_return_val_if_fail (TV_IS_VIEW_STATE (self), NULL);

  *n_threads = self->threads->len;
  return (const guint32 *) (gpointer) self->threads->data;
}

void
tv_view_state_set_threads (TvViewState   *self,
                           const guint32 *threads,
                           guint          n_threads)
{
  g_autoptr(GArray) sorted = g_array_sized_new (FALSE, FALSE, sizeof (guint32), n_threads);

  g_return_if_fail (TV_IS_VIEW_STATE (self));
  g_return_if_fail (threads != NULL || n_threads == 0);

  g_array_append_vals (sorted, threads, n_threads);
  g_array_sort (sorted, compare_u32);
  for (guint i = 1; i < sorted->len;)
    {
      if (g_array_index (sorted, guint32, i) == g_array_index (sorted, guint32, i - 1))
        g_array_remove_index (sorted, i);
      else
        i++;
    }

  /* memcmp () must not see the NULL data of empty arrays. */
  if (sorted->len == self->threads->len
      && (sorted->len == 0
          || memcmp (sorted->data, self->threads->data, sorted->len * sizeof (guint32)) == 0))
    return;

  g_array_unref (self->threads);
  self->threads = g_steal_pointer (&sorted);
  changed (self);
}

gboolean
tv_view_state_has_thread (TvViewState *self,
                          guint32      thread)
{
  g_return_val_if_fail (TV_IS_VIEW_STATE (self), FALSE);

  if (self->threads->len == 0)
    return TRUE;
  return bsearch (&thread, self->threads->data, self->threads->len, sizeof (guint32),
                  compare_u32) != NULL;
}

TvStateFilter
tv_view_state_get_state_filter (TvViewState *self)
{
  g_return_val_if_fail (TV_IS_VIEW_STATE (self), TV_STATE_FILTER_ALL);

  return self->state_filter;
}

void
tv_view_state_set_state_filter (TvViewState   *self,
                                TvStateFilter  filter)
{
  g_return_if_fail (TV_IS_VIEW_STATE (self));
  g_return_if_fail (filter < TV_N_STATE_FILTERS);

  if (self->state_filter == filter)
    return;
  self->state_filter = filter;
  changed (self);
}

gboolean
tv_view_state_get_range (TvViewState *self,
                         guint64     *start,
                         guint64     *end)
{
  g_return_val_if_fail (TV_IS_VIEW_STATE (self), FALSE);

  if (start != NULL)
    *start = self->range_start;
  if (end != NULL)
    *end = self->range_end;
  return self->has_range;
}

void
tv_view_state_set_range (TvViewState *self,
                         guint64      start,
                         guint64      end)
{
  g_return_if_fail (TV_IS_VIEW_STATE (self));
  g_return_if_fail (start <= end);

  if (self->has_range && self->range_start == start && self->range_end == end)
    return;
  g_array_set_size (self->ranges, 0);
  self->has_range = TRUE;
  self->range_start = start;
  self->range_end = end;
  changed (self);
}

void
tv_view_state_clear_range (TvViewState *self)
{
  g_return_if_fail (TV_IS_VIEW_STATE (self));

  if (!self->has_range && self->ranges->len == 0)
    return;
  self->has_range = FALSE;
  self->range_start = self->range_end = 0;
  g_array_set_size (self->ranges, 0);
  changed (self);
}

const TvTimeRange *
tv_view_state_get_ranges (TvViewState *self,
                          guint       *n_ranges)
{
  g_return_val_if_fail (TV_IS_VIEW_STATE (self), NULL);

  if (n_ranges != NULL)
    *n_ranges = self->ranges->len;
  return self->ranges->len > 0 ? (const TvTimeRange *) (gpointer) self->ranges->data : NULL;
}

void
tv_view_state_set_ranges (TvViewState       *self,
                          const TvTimeRange *ranges,
                          guint              n_ranges)
{
  g_autoptr(GArray) sorted = g_array_sized_new (FALSE, FALSE, sizeof (TvTimeRange), n_ranges);

  g_return_if_fail (TV_IS_VIEW_STATE (self));
  g_return_if_fail (ranges != NULL || n_ranges == 0);

  g_array_append_vals (sorted, ranges, n_ranges);
  g_array_set_size (sorted, tv_time_ranges_normalize ((TvTimeRange *) (gpointer) sorted->data,
                                                      sorted->len));
  if (sorted->len == 0)
    {
      if (self->ranges->len == 0)
        return;
    }
  else if (!self->has_range && sorted->len == self->ranges->len
           && memcmp (sorted->data, self->ranges->data,
                      sorted->len * sizeof (TvTimeRange)) == 0)
    return;

  g_array_unref (self->ranges);
  self->ranges = g_steal_pointer (&sorted);
  if (self->ranges->len > 0)
    {
      self->has_range = FALSE;
      self->range_start = self->range_end = 0;
    }
  changed (self);
}

TvMergeKey
tv_view_state_get_merge (TvViewState *self)
{
  g_return_val_if_fail (TV_IS_VIEW_STATE (self), TV_MERGE_FUNCTION);

  return self->merge;
}

void
tv_view_state_set_merge (TvViewState *self,
                         TvMergeKey   merge)
{
  g_return_if_fail (TV_IS_VIEW_STATE (self));
  g_return_if_fail (merge < TV_N_MERGE_KEYS);

  if (self->merge == merge)
    return;
  self->merge = merge;
  changed (self);
}

gboolean
tv_view_state_get_inverted (TvViewState *self)
{
  g_return_val_if_fail (TV_IS_VIEW_STATE (self), FALSE);

  return self->inverted;
}

void
tv_view_state_set_inverted (TvViewState *self,
                            gboolean     inverted)
{
  g_return_if_fail (TV_IS_VIEW_STATE (self));

  inverted = !!inverted;
  if (self->inverted == inverted)
    return;
  self->inverted = inverted;
  changed (self);
}

gboolean
tv_view_state_get_collapse_recursion (TvViewState *self)
{
  g_return_val_if_fail (TV_IS_VIEW_STATE (self), FALSE);

  return self->collapse_recursion;
}

void
tv_view_state_set_collapse_recursion (TvViewState *self,
                                      gboolean     collapse)
{
  g_return_if_fail (TV_IS_VIEW_STATE (self));

  collapse = !!collapse;
  if (self->collapse_recursion == collapse)
    return;
  self->collapse_recursion = collapse;
  changed (self);
}

guint32
tv_view_state_get_focus_function (TvViewState *self)
{
  g_return_val_if_fail (TV_IS_VIEW_STATE (self), TV_NODE_NONE);

  return self->focus_function;
}

void
tv_view_state_set_focus_function (TvViewState *self,
                                  guint32      function)
{
  g_return_if_fail (TV_IS_VIEW_STATE (self));

  if (self->focus_function == function)
    return;
  self->focus_function = function;
  changed (self);
}

const guint32 *
tv_view_state_get_hidden_functions (TvViewState *self,
                                    guint       *n_functions)
{
  g_return_val_if_fail (TV_IS_VIEW_STATE (self), NULL);

  *n_functions = self->hidden->len;
  return (const guint32 *) (gpointer) self->hidden->data;
}

void
tv_view_state_hide_function (TvViewState *self,
                             guint32      function)
{
  g_return_if_fail (TV_IS_VIEW_STATE (self));
  g_return_if_fail (function != TV_NODE_NONE);

  for (guint i = 0; i < self->hidden->len; i++)
    if (g_array_index (self->hidden, guint32, i) == function)
      return;
  g_array_append_val (self->hidden, function);
  changed (self);
}

gboolean
tv_view_state_has_transforms (TvViewState *self)
{
  g_return_val_if_fail (TV_IS_VIEW_STATE (self), FALSE);

  return self->focus_function != TV_NODE_NONE || self->hidden->len > 0
         || self->collapse_recursion;
}

void
tv_view_state_reset_transforms (TvViewState *self)
{
  g_return_if_fail (TV_IS_VIEW_STATE (self));

  if (!tv_view_state_has_transforms (self))
    return;
  self->focus_function = TV_NODE_NONE;
  g_array_set_size (self->hidden, 0);
  self->collapse_recursion = FALSE;
  changed (self);
}

void
tv_state_filter_get_mask (TvStateFilter  filter,
                          guint8        *mask,
                          guint8        *value)
{
  static const guint8 bits[TV_N_STATE_FILTERS] = {
    [TV_STATE_FILTER_ALL] = 0,
    [TV_STATE_FILTER_GIL] = TACH_STATUS_HAS_GIL,
    [TV_STATE_FILTER_CPU] = TACH_STATUS_ON_CPU,
    [TV_STATE_FILTER_GIL_WAIT] = TACH_STATUS_GIL_REQUESTED,
    [TV_STATE_FILTER_EXCEPTION] = TACH_STATUS_HAS_EXCEPTION,
  };

  g_return_if_fail (filter < TV_N_STATE_FILTERS);

  *mask = bits[filter];
  *value = bits[filter];
}

void
tv_view_state_to_query (TvViewState *self,
                        TvQuery     *query)
{
  g_return_if_fail (TV_IS_VIEW_STATE (self));
  g_return_if_fail (query != NULL);

  tv_query_init (query, self->merge);
  if (self->threads->len > 0)
    {
      query->threads = (const guint32 *) (gpointer) self->threads->data;
      query->n_threads = self->threads->len;
    }
  tv_state_filter_get_mask (self->state_filter, &query->status_mask, &query->status_value);
  query->has_range = self->has_range;
  query->range_start = self->range_start;
  query->range_end = self->range_end;
  if (self->ranges->len > 0)
    {
      query->ranges = (const TvTimeRange *) (gpointer) self->ranges->data;
      query->n_ranges = self->ranges->len;
    }
  query->inverted = self->inverted;
  query->collapse_recursion = self->collapse_recursion;
  query->focus_function = self->focus_function;
  if (self->hidden->len > 0)
    {
      query->hidden_functions = (const guint32 *) (gpointer) self->hidden->data;
      query->n_hidden_functions = self->hidden->len;
    }
}

static void
tv_view_state_finalize (GObject *object)
{
  TvViewState *self = TV_VIEW_STATE (object);

  g_clear_pointer (&self->threads, g_array_unref);
  g_clear_pointer (&self->hidden, g_array_unref);
  g_clear_pointer (&self->ranges, g_array_unref);

  G_OBJECT_CLASS (tv_view_state_parent_class)->finalize (object);
}

static void
tv_view_state_class_init (TvViewStateClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = tv_view_state_finalize;

  /**
   * TvViewState::changed:
   *
   * Something the views show changed.
   */
  signals[CHANGED] = g_signal_new ("changed",
                                   G_TYPE_FROM_CLASS (klass),
                                   G_SIGNAL_RUN_LAST,
                                   0, NULL, NULL, NULL,
                                   G_TYPE_NONE, 0);
}

static void
tv_view_state_init (TvViewState *self)
{
  self->threads = g_array_new (FALSE, FALSE, sizeof (guint32));
  self->hidden = g_array_new (FALSE, FALSE, sizeof (guint32));
  self->ranges = g_array_new (FALSE, FALSE, sizeof (TvTimeRange));
  self->merge = TV_MERGE_FUNCTION;
  self->focus_function = TV_NODE_NONE;
}
