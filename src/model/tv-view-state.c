/* tv-view-state.c: what the views of one profile show
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A plain holder of choices: every setter notifies the properties it
 * changed, and a change of what a query selects emits "changed" once; the
 * views decide what to recompute.
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

  TvFlameOrientation orientation;
  char          *search;
  GArray        *zoom_path;          /* guint32 */
};

G_DEFINE_FINAL_TYPE (TvViewState, tv_view_state, G_TYPE_OBJECT)

enum
{
  PROP_0,
  PROP_THREADS,
  PROP_STATE_FILTER,
  PROP_HAS_RANGE,
  PROP_RANGE_START,
  PROP_RANGE_END,
  PROP_RANGES,
  PROP_MERGE,
  PROP_INVERTED,
  PROP_COLLAPSE_RECURSION,
  PROP_FOCUS_FUNCTION,
  PROP_HIDDEN_FUNCTIONS,
  /* Those after this one do not change a query. */
  PROP_ORIENTATION,
  PROP_SEARCH,
  PROP_ZOOM_PATH,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

enum
{
  CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void
notify (TvViewState *self,
        guint        prop)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[prop]);
}

static int
compare_u32 (gconstpointer a,
             gconstpointer b)
{
  guint32 x = *(const guint32 *) a;
  guint32 y = *(const guint32 *) b;

  return (x > y) - (x < y);
}

/* Whether ARRAY holds the N elements of VALUES; memcmp () must not see
 * the NULL data of empty arrays. */
static gboolean
array_equals (GArray        *array,
              gconstpointer  values,
              guint          n)
{
  return array->len == n
         && (n == 0 || memcmp (array->data, values, n * g_array_get_element_size (array)) == 0);
}

/* What an array of guint32 holds; NULL when it is empty, whatever
 * memory it keeps (callers take NULL threads for all threads). */
static const guint32 *
array_data (GArray *array)
{
  return array->len > 0 ? (const guint32 *) (gpointer) array->data : NULL;
}

/* Replaces what ARRAY holds with the N elements of VALUES; FALSE if it
 * held them already. */
static gboolean
array_set (GArray        *array,
           gconstpointer  values,
           guint          n)
{
  if (array_equals (array, values, n))
    return FALSE;
  g_array_set_size (array, 0);
  g_array_append_vals (array, values, n);
  return TRUE;
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
  return array_data (self->threads);
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

  if (array_set (self->threads, sorted->data, sorted->len))
    notify (self, PROP_THREADS);
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
  notify (self, PROP_STATE_FILTER);
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

/* Sets the time range (clearing the ranges) and notifies what moved. */
static void
update_range (TvViewState *self,
              gboolean     has_range,
              guint64      start,
              guint64      end)
{
  g_object_freeze_notify (G_OBJECT (self));
  if (has_range && self->ranges->len > 0)
    {
      g_array_set_size (self->ranges, 0);
      notify (self, PROP_RANGES);
    }
  if (self->has_range != has_range)
    {
      self->has_range = has_range;
      notify (self, PROP_HAS_RANGE);
    }
  if (self->range_start != start)
    {
      self->range_start = start;
      notify (self, PROP_RANGE_START);
    }
  if (self->range_end != end)
    {
      self->range_end = end;
      notify (self, PROP_RANGE_END);
    }
  g_object_thaw_notify (G_OBJECT (self));
}

void
tv_view_state_set_range (TvViewState *self,
                         guint64      start,
                         guint64      end)
{
  g_return_if_fail (TV_IS_VIEW_STATE (self));
  g_return_if_fail (start <= end);

  update_range (self, TRUE, start, end);
}

void
tv_view_state_clear_range (TvViewState *self)
{
  g_return_if_fail (TV_IS_VIEW_STATE (self));

  g_object_freeze_notify (G_OBJECT (self));
  update_range (self, FALSE, 0, 0);
  if (self->ranges->len > 0)
    {
      g_array_set_size (self->ranges, 0);
      notify (self, PROP_RANGES);
    }
  g_object_thaw_notify (G_OBJECT (self));
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

  g_object_freeze_notify (G_OBJECT (self));
  if (sorted->len > 0)
    update_range (self, FALSE, 0, 0);
  if (array_set (self->ranges, sorted->data, sorted->len))
    notify (self, PROP_RANGES);
  g_object_thaw_notify (G_OBJECT (self));
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
  notify (self, PROP_MERGE);
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
  notify (self, PROP_INVERTED);
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
  notify (self, PROP_COLLAPSE_RECURSION);
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
  notify (self, PROP_FOCUS_FUNCTION);
}

const guint32 *
tv_view_state_get_hidden_functions (TvViewState *self,
                                    guint       *n_functions)
{
  g_return_val_if_fail (TV_IS_VIEW_STATE (self), NULL);

  *n_functions = self->hidden->len;
  return array_data (self->hidden);
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
  notify (self, PROP_HIDDEN_FUNCTIONS);
}

void
tv_view_state_set_hidden_functions (TvViewState   *self,
                                    const guint32 *functions,
                                    guint          n_functions)
{
  g_return_if_fail (TV_IS_VIEW_STATE (self));
  g_return_if_fail (functions != NULL || n_functions == 0);

  if (array_set (self->hidden, functions, n_functions))
    notify (self, PROP_HIDDEN_FUNCTIONS);
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

  g_object_freeze_notify (G_OBJECT (self));
  tv_view_state_set_focus_function (self, TV_NODE_NONE);
  tv_view_state_set_hidden_functions (self, NULL, 0);
  tv_view_state_set_collapse_recursion (self, FALSE);
  g_object_thaw_notify (G_OBJECT (self));
}

TvFlameOrientation
tv_view_state_get_orientation (TvViewState *self)
{
  g_return_val_if_fail (TV_IS_VIEW_STATE (self), TV_FLAME_ORIENTATION_FLAME);

  return self->orientation;
}

void
tv_view_state_set_orientation (TvViewState        *self,
                               TvFlameOrientation  orientation)
{
  g_return_if_fail (TV_IS_VIEW_STATE (self));
  g_return_if_fail (orientation == TV_FLAME_ORIENTATION_FLAME
                    || orientation == TV_FLAME_ORIENTATION_ICICLE);

  if (self->orientation == orientation)
    return;
  self->orientation = orientation;
  notify (self, PROP_ORIENTATION);
}

const char *
tv_view_state_get_search (TvViewState *self)
{
  g_return_val_if_fail (TV_IS_VIEW_STATE (self), NULL);

  return self->search;
}

void
tv_view_state_set_search (TvViewState *self,
                          const char  *search)
{
  g_return_if_fail (TV_IS_VIEW_STATE (self));

  if (search != NULL && search[0] == '\0')
    search = NULL;
  if (g_strcmp0 (self->search, search) == 0)
    return;
  g_free (self->search);
  self->search = g_strdup (search);
  notify (self, PROP_SEARCH);
}

const guint32 *
tv_view_state_get_zoom_path (TvViewState *self,
                             guint       *n_keys)
{
  g_return_val_if_fail (TV_IS_VIEW_STATE (self), NULL);

  *n_keys = self->zoom_path->len;
  return array_data (self->zoom_path);
}

void
tv_view_state_set_zoom_path (TvViewState   *self,
                             const guint32 *keys,
                             guint          n_keys)
{
  g_return_if_fail (TV_IS_VIEW_STATE (self));
  g_return_if_fail (keys != NULL || n_keys == 0);

  if (array_set (self->zoom_path, keys, n_keys))
    notify (self, PROP_ZOOM_PATH);
}

TvViewState *
tv_view_state_copy (TvViewState *self)
{
  TvViewState *copy;

  g_return_val_if_fail (TV_IS_VIEW_STATE (self), NULL);

  copy = tv_view_state_new ();
  array_set (copy->threads, self->threads->data, self->threads->len);
  copy->state_filter = self->state_filter;
  copy->has_range = self->has_range;
  copy->range_start = self->range_start;
  copy->range_end = self->range_end;
  array_set (copy->ranges, self->ranges->data, self->ranges->len);
  copy->merge = self->merge;
  copy->inverted = self->inverted;
  copy->collapse_recursion = self->collapse_recursion;
  copy->focus_function = self->focus_function;
  array_set (copy->hidden, self->hidden->data, self->hidden->len);
  copy->orientation = self->orientation;
  copy->search = g_strdup (self->search);
  array_set (copy->zoom_path, self->zoom_path->data, self->zoom_path->len);
  return copy;
}

/**
 * tv_view_state_same_query:
 *
 * Whether @self and @other ask for the same call tree: every choice that
 * changes the query (threads, state, time, merge, inversion and the
 * transforms) is the same; orientation, search and zoom may differ.
 */
gboolean
tv_view_state_same_query (TvViewState *self,
                          TvViewState *other)
{
  g_return_val_if_fail (TV_IS_VIEW_STATE (self), FALSE);
  g_return_val_if_fail (TV_IS_VIEW_STATE (other), FALSE);

  return array_equals (self->threads, other->threads->data, other->threads->len)
         && self->state_filter == other->state_filter
         && self->has_range == other->has_range
         && (!self->has_range || (self->range_start == other->range_start
                                  && self->range_end == other->range_end))
         && array_equals (self->ranges, other->ranges->data, other->ranges->len)
         && self->merge == other->merge
         && self->inverted == other->inverted
         && self->collapse_recursion == other->collapse_recursion
         && self->focus_function == other->focus_function
         && array_equals (self->hidden, other->hidden->data, other->hidden->len);
}

/**
 * tv_view_state_restore_query:
 *
 * Sets every choice of @self that changes the query to @from's, in one
 * batch: one "changed" if anything changed, none otherwise.  What a
 * cancelled view goes back to.
 */
void
tv_view_state_restore_query (TvViewState *self,
                             TvViewState *from)
{
  g_return_if_fail (TV_IS_VIEW_STATE (self));
  g_return_if_fail (TV_IS_VIEW_STATE (from));

  g_object_freeze_notify (G_OBJECT (self));
  tv_view_state_set_threads (self, array_data (from->threads), from->threads->len);
  tv_view_state_set_state_filter (self, from->state_filter);
  update_range (self, from->has_range, from->range_start, from->range_end);
  if (array_set (self->ranges, from->ranges->data, from->ranges->len))
    notify (self, PROP_RANGES);
  tv_view_state_set_merge (self, from->merge);
  tv_view_state_set_inverted (self, from->inverted);
  tv_view_state_set_collapse_recursion (self, from->collapse_recursion);
  tv_view_state_set_focus_function (self, from->focus_function);
  tv_view_state_set_hidden_functions (self, array_data (from->hidden), from->hidden->len);
  g_object_thaw_notify (G_OBJECT (self));
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

static GArray *
dup_array (GArray *array)
{
  GArray *copy = g_array_sized_new (FALSE, FALSE, g_array_get_element_size (array), array->len);

  g_array_append_vals (copy, array->data, array->len);
  return copy;
}

static void
tv_view_state_get_property (GObject    *object,
                            guint       prop_id,
                            GValue     *value,
                            GParamSpec *pspec)
{
  TvViewState *self = TV_VIEW_STATE (object);

  switch (prop_id)
    {
    case PROP_THREADS:
      g_value_take_boxed (value, dup_array (self->threads));
      break;
    case PROP_STATE_FILTER:
      g_value_set_enum (value, self->state_filter);
      break;
    case PROP_HAS_RANGE:
      g_value_set_boolean (value, self->has_range);
      break;
    case PROP_RANGE_START:
      g_value_set_uint64 (value, self->range_start);
      break;
    case PROP_RANGE_END:
      g_value_set_uint64 (value, self->range_end);
      break;
    case PROP_RANGES:
      g_value_take_boxed (value, dup_array (self->ranges));
      break;
    case PROP_MERGE:
      g_value_set_enum (value, self->merge);
      break;
    case PROP_INVERTED:
      g_value_set_boolean (value, self->inverted);
      break;
    case PROP_COLLAPSE_RECURSION:
      g_value_set_boolean (value, self->collapse_recursion);
      break;
    case PROP_FOCUS_FUNCTION:
      g_value_set_uint (value, self->focus_function);
      break;
    case PROP_HIDDEN_FUNCTIONS:
      g_value_take_boxed (value, dup_array (self->hidden));
      break;
    case PROP_ORIENTATION:
      g_value_set_enum (value, self->orientation);
      break;
    case PROP_SEARCH:
      g_value_set_string (value, self->search);
      break;
    case PROP_ZOOM_PATH:
      g_value_take_boxed (value, dup_array (self->zoom_path));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tv_view_state_set_property (GObject      *object,
                            guint         prop_id,
                            const GValue *value,
                            GParamSpec   *pspec)
{
  TvViewState *self = TV_VIEW_STATE (object);
  guint64 time;

  switch (prop_id)
    {
    case PROP_STATE_FILTER:
      tv_view_state_set_state_filter (self, g_value_get_enum (value));
      break;
    /* One end of the time range: the other moves with it when it would
     * come before the start. */
    case PROP_RANGE_START:
      time = g_value_get_uint64 (value);
      update_range (self, TRUE, time, MAX (time, self->range_end));
      break;
    case PROP_RANGE_END:
      time = g_value_get_uint64 (value);
      update_range (self, TRUE, MIN (time, self->range_start), time);
      break;
    case PROP_MERGE:
      tv_view_state_set_merge (self, g_value_get_enum (value));
      break;
    case PROP_INVERTED:
      tv_view_state_set_inverted (self, g_value_get_boolean (value));
      break;
    case PROP_COLLAPSE_RECURSION:
      tv_view_state_set_collapse_recursion (self, g_value_get_boolean (value));
      break;
    case PROP_FOCUS_FUNCTION:
      tv_view_state_set_focus_function (self, g_value_get_uint (value));
      break;
    case PROP_ORIENTATION:
      tv_view_state_set_orientation (self, g_value_get_enum (value));
      break;
    case PROP_SEARCH:
      tv_view_state_set_search (self, g_value_get_string (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

/* "changed" once for each batch of notifications (a g_object_set () of
 * several properties, or a setter that moves several) that changes what a
 * query selects. */
static void
tv_view_state_dispatch_properties_changed (GObject     *object,
                                           guint        n_pspecs,
                                           GParamSpec **pspecs)
{
  gboolean changes_query = FALSE;

  G_OBJECT_CLASS (tv_view_state_parent_class)->dispatch_properties_changed (object, n_pspecs,
                                                                           pspecs);
  for (guint i = 0; i < n_pspecs && !changes_query; i++)
    for (guint prop = PROP_THREADS; prop < PROP_ORIENTATION; prop++)
      if (pspecs[i] == properties[prop])
        changes_query = TRUE;
  if (changes_query)
    g_signal_emit (object, signals[CHANGED], 0);
}

static void
tv_view_state_finalize (GObject *object)
{
  TvViewState *self = TV_VIEW_STATE (object);

  g_clear_pointer (&self->threads, g_array_unref);
  g_clear_pointer (&self->hidden, g_array_unref);
  g_clear_pointer (&self->ranges, g_array_unref);
  g_clear_pointer (&self->search, g_free);
  g_clear_pointer (&self->zoom_path, g_array_unref);

  G_OBJECT_CLASS (tv_view_state_parent_class)->finalize (object);
}

static void
tv_view_state_class_init (TvViewStateClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  const GParamFlags rw = G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;
  const GParamFlags ro = G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;

  object_class->get_property = tv_view_state_get_property;
  object_class->set_property = tv_view_state_set_property;
  object_class->dispatch_properties_changed = tv_view_state_dispatch_properties_changed;
  object_class->finalize = tv_view_state_finalize;

  /* The arrays, read-only: a copy (a GArray) of what the typed accessors
   * return; set through those. */
  properties[PROP_THREADS] =
    g_param_spec_boxed ("threads", NULL, NULL, G_TYPE_ARRAY, ro);
  properties[PROP_RANGES] =
    g_param_spec_boxed ("ranges", NULL, NULL, G_TYPE_ARRAY, ro);
  properties[PROP_HIDDEN_FUNCTIONS] =
    g_param_spec_boxed ("hidden-functions", NULL, NULL, G_TYPE_ARRAY, ro);
  properties[PROP_ZOOM_PATH] =
    g_param_spec_boxed ("zoom-path", NULL, NULL, G_TYPE_ARRAY, ro);

  properties[PROP_STATE_FILTER] =
    g_param_spec_enum ("state-filter", NULL, NULL, TV_TYPE_STATE_FILTER,
                       TV_STATE_FILTER_ALL, rw);
  properties[PROP_HAS_RANGE] =
    g_param_spec_boolean ("has-range", NULL, NULL, FALSE, ro);
  /* Setting either end sets the time range and clears the ranges. */
  properties[PROP_RANGE_START] =
    g_param_spec_uint64 ("range-start", NULL, NULL, 0, G_MAXUINT64, 0, rw);
  properties[PROP_RANGE_END] =
    g_param_spec_uint64 ("range-end", NULL, NULL, 0, G_MAXUINT64, 0, rw);
  properties[PROP_MERGE] =
    g_param_spec_enum ("merge", NULL, NULL, TV_TYPE_MERGE_KEY, TV_MERGE_FUNCTION, rw);
  properties[PROP_INVERTED] =
    g_param_spec_boolean ("inverted", NULL, NULL, FALSE, rw);
  properties[PROP_COLLAPSE_RECURSION] =
    g_param_spec_boolean ("collapse-recursion", NULL, NULL, FALSE, rw);
  /* A function key (TV_MERGE_FUNCTION); TV_NODE_NONE for none. */
  properties[PROP_FOCUS_FUNCTION] =
    g_param_spec_uint ("focus-function", NULL, NULL, 0, G_MAXUINT32, TV_NODE_NONE, rw);
  properties[PROP_ORIENTATION] =
    g_param_spec_enum ("orientation", NULL, NULL, TV_TYPE_FLAME_ORIENTATION,
                       TV_FLAME_ORIENTATION_FLAME, rw);
  properties[PROP_SEARCH] =
    g_param_spec_string ("search", NULL, NULL, NULL, rw);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * TvViewState::changed:
   *
   * Something a query of the state selects changed (not the orientation,
   * the search or the zoom path): once for each change, however many
   * properties it moved.
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
  self->zoom_path = g_array_new (FALSE, FALSE, sizeof (guint32));
  self->merge = TV_MERGE_FUNCTION;
  self->focus_function = TV_NODE_NONE;
  self->orientation = TV_FLAME_ORIENTATION_FLAME;
}
