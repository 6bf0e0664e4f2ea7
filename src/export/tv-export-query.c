/* tv-export-query.c: an export's filter made into the model's query
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What the command line says in words of a profile (thread ids, seconds,
 * function names, a zoom by name) found in one loaded profile and set in
 * a view state, with the errors a person can act on; and the view state
 * made into the model's query, or the filter of a load of counts.
 */
#include "tv-export.h"
#include "tachyon-format.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <glib/gi18n.h>

#include "tv-text.h"

/* How many thread ids an error message lists before it says "…". */
#define MAX_LISTED_THREADS 8

/* How many files an ambiguous function name lists. */
#define MAX_LISTED_FILES 4

static int
compare_u64 (gconstpointer a,
             gconstpointer b)
{
  guint64 ua = *(const guint64 *) a;
  guint64 ub = *(const guint64 *) b;

  return ua < ub ? -1 : ua > ub;
}

guint64
tv_export_seconds_to_timestamp (guint64 start_time,
                                double  seconds)
{
  double offset;

  if (isinf (seconds))
    return seconds < 0 ? 0 : G_MAXUINT64;

  offset = round (seconds * 1e6);
  if (offset < 0)
    return -offset >= (double) start_time ? 0 : start_time - (guint64) -offset;
  if (offset >= 18446744073709551615.0 || (guint64) offset > G_MAXUINT64 - start_time)
    return G_MAXUINT64;
  return start_time + (guint64) offset;
}

double
tv_export_timestamp_to_seconds (guint64 start_time,
                                guint64 timestamp)
{
  if (timestamp == 0)
    return -INFINITY;
  if (timestamp == G_MAXUINT64)
    return INFINITY;
  return ((double) timestamp - (double) start_time) / 1e6;
}

guint64 *
tv_export_dup_thread_ids (TvViewState   *state,
                          TvProfileData *data,
                          guint         *n_ids)
{
  const guint32 *threads;
  guint n_threads, n = 0;
  guint64 *ids;

  g_return_val_if_fail (TV_IS_VIEW_STATE (state), NULL);

  threads = tv_view_state_get_threads (state, &n_threads);
  *n_ids = 0;
  if (n_threads == 0)
    return NULL;
  ids = g_new (guint64, n_threads);
  for (guint i = 0; i < n_threads; i++)
    ids[i] = tv_profile_data_get_thread (data, threads[i])->thread_id;
  qsort (ids, n_threads, sizeof (guint64), compare_u64);
  for (guint i = 0; i < n_threads; i++)
    if (n == 0 || ids[n - 1] != ids[i])
      ids[n++] = ids[i];
  *n_ids = n;
  return ids;
}

static void
set_no_such_thread (GError        **error,
                    TvProfileData  *data,
                    guint64         thread_id)
{
  g_autoptr(GArray) ids = g_array_new (FALSE, FALSE, sizeof (guint64));
  g_autoptr(GString) list = g_string_new (NULL);
  guint n_threads = tv_profile_data_get_n_threads (data);
  guint n_listed = 0;
  char text[24];

  for (guint i = 0; i < n_threads; i++)
    g_array_append_val (ids, tv_profile_data_get_thread (data, i)->thread_id);
  g_array_sort (ids, compare_u64);

  for (guint i = 0; i < ids->len; i++)
    {
      guint64 id = g_array_index (ids, guint64, i);

      if (i > 0 && id == g_array_index (ids, guint64, i - 1))
        continue;
      if (n_listed == MAX_LISTED_THREADS)
        {
          g_string_append (list, ", …");
          break;
        }
      g_string_append_printf (list, "%s%" G_GUINT64_FORMAT, n_listed > 0 ? ", " : "", id);
      n_listed++;
    }

  g_snprintf (text, sizeof text, "%" G_GUINT64_FORMAT, thread_id);
  if (n_listed == 0)
    g_set_error (error, TV_EXPORT_ERROR, TV_EXPORT_ERROR_NO_SUCH_THREAD,
                 _("Thread %s is not in this profile, which has no threads"), text);
  else
    g_set_error (error, TV_EXPORT_ERROR, TV_EXPORT_ERROR_NO_SUCH_THREAD,
                 _("Thread %s is not in this profile (its threads: %s)"), text, list->str);
}

/* Whether FILE (a profile's file name) is what SPEC names: the whole
 * path, or its end after a '/'. */
static gboolean
file_matches (const char *file,
              const char *spec,
              gsize       spec_len)
{
  gsize len = strlen (file);

  if (len < spec_len || memcmp (file + len - spec_len, spec, spec_len) != 0)
    return FALSE;
  return len == spec_len || file[len - spec_len - 1] == '/';
}

/* Whether FRAME is the function SPEC names: "name", or "file:name" when
 * no function has the whole of SPEC as its name (WHOLE FALSE). */
static gboolean
frame_matches (TvProfileData *data,
               guint32        frame,
               const char    *spec,
               gboolean       whole)
{
  const char *colon;

  if (whole)
    return strcmp (tv_profile_data_get_funcname (data, frame), spec) == 0;
  colon = strrchr (spec, ':');
  return colon != NULL && colon > spec
         && strcmp (tv_profile_data_get_funcname (data, frame), colon + 1) == 0
         && file_matches (tv_profile_data_get_filename (data, frame), spec, colon - spec);
}

/* The function keys SPEC names, appended to KEYS; FALSE if none.  The
 * profiler's own functions, which no view shows, are never named. */
static gboolean
find_functions (TvProfileData *data,
                const char    *spec,
                GArray        *keys)
{
  guint32 n_keys = tv_profile_data_get_n_keys (data, TV_MERGE_FUNCTION);
  const guint8 *internal = tv_profile_data_get_internal_functions (data);
  guint before = keys->len;

  for (int whole = 1; whole >= 0 && keys->len == before; whole--)
    for (guint32 key = 0; key < n_keys; key++)
      {
        guint32 frame = tv_profile_data_get_key_frame (data, TV_MERGE_FUNCTION, key);

        if ((internal == NULL || !internal[key]) && frame_matches (data, frame, spec, whole))
          g_array_append_val (keys, key);
      }
  return keys->len > before;
}

static void
set_no_such_function (GError     **error,
                      const char  *spec)
{
  g_autofree char *shown = tv_text_dup_shown (spec);

  g_set_error (error, TV_EXPORT_ERROR, TV_EXPORT_ERROR_NO_SUCH_FUNCTION,
               _("No function “%s” in this profile (give a function name, or FILE:NAME)"),
               shown);
}

/* The one function key SPEC names for --focus. */
static gboolean
find_focus (TvProfileData  *data,
            const char     *spec,
            guint32        *key,
            GError        **error)
{
  g_autoptr(GArray) keys = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autoptr(GString) files = g_string_new (NULL);
  g_autofree char *shown = NULL;

  if (!find_functions (data, spec, keys))
    {
      set_no_such_function (error, spec);
      return FALSE;
    }
  if (keys->len == 1)
    {
      *key = g_array_index (keys, guint32, 0);
      return TRUE;
    }

  for (guint i = 0; i < keys->len && i < MAX_LISTED_FILES; i++)
    {
      guint32 frame = tv_profile_data_get_key_frame (data, TV_MERGE_FUNCTION,
                                                     g_array_index (keys, guint32, i));

      if (i > 0)
        g_string_append (files, ", ");
      tv_text_append_shown (files, tv_profile_data_get_filename (data, frame), -1);
    }
  if (keys->len > MAX_LISTED_FILES)
    g_string_append (files, ", …");
  shown = tv_text_dup_shown (spec);
  g_set_error (error, TV_EXPORT_ERROR, TV_EXPORT_ERROR_NO_SUCH_FUNCTION,
               _("“%s” names %u functions (in %s): give FILE:NAME to focus on one"),
               shown, keys->len, files->str);
  return FALSE;
}

gboolean
tv_export_find_functions (TvViewState         *state,
                          TvProfileData       *data,
                          const char          *focus,
                          const char * const  *hidden,
                          GError             **error)
{
  g_autoptr(GArray) keys = g_array_new (FALSE, FALSE, sizeof (guint32));
  guint32 focus_key = TV_NODE_NONE;

  g_return_val_if_fail (TV_IS_VIEW_STATE (state), FALSE);
  g_return_val_if_fail (data != NULL, FALSE);

  if (focus != NULL && !find_focus (data, focus, &focus_key, error))
    return FALSE;
  for (gsize i = 0; hidden != NULL && hidden[i] != NULL; i++)
    {
      if (!find_functions (data, hidden[i], keys))
        {
          set_no_such_function (error, hidden[i]);
          return FALSE;
        }
    }

  if (focus != NULL)
    tv_view_state_set_focus_function (state, focus_key);
  for (guint i = 0; i < keys->len; i++)
    tv_view_state_hide_function (state, g_array_index (keys, guint32, i));
  return TRUE;
}

gboolean
tv_export_select_threads (TvViewState    *state,
                          TvProfileData  *data,
                          const guint64  *thread_ids,
                          guint           n_ids,
                          GError        **error)
{
  g_autoptr(GArray) threads = g_array_new (FALSE, FALSE, sizeof (guint32));
  guint n_threads;

  g_return_val_if_fail (TV_IS_VIEW_STATE (state), FALSE);
  g_return_val_if_fail (data != NULL, FALSE);
  g_return_val_if_fail (thread_ids != NULL || n_ids == 0, FALSE);

  n_threads = tv_profile_data_get_n_threads (data);
  for (guint j = 0; j < n_ids; j++)
    {
      guint before = threads->len;

      for (guint32 i = 0; i < n_threads; i++)
        {
          if (tv_profile_data_get_thread (data, i)->thread_id == thread_ids[j])
            g_array_append_val (threads, i);
        }
      if (threads->len == before)
        {
          set_no_such_thread (error, data, thread_ids[j]);
          return FALSE;
        }
    }
  tv_view_state_set_threads (state, (const guint32 *) (gpointer) threads->data, threads->len);
  return TRUE;
}

/* What the command line said, in seconds, kept on the state beside the
 * timestamps it became: a range before the epoch (or past 2^64 µs) has no
 * timestamp of its own, and selects nothing, yet an export says it as it
 * was given. */
typedef struct
{
  /* What the state selected once they were set. */
  gboolean      has_range_times;
  TvTimeRange   range_times;
  GArray       *ranges_times;    /* TvTimeRange */
  /* What was said. */
  gboolean      has_range;
  TvExportRange range;
  GArray       *ranges;          /* TvExportRange */
} SaidSeconds;

#define SAID_SECONDS_KEY "tv-export-said-seconds"

static void
said_seconds_free (gpointer data)
{
  SaidSeconds *said = data;

  g_array_unref (said->ranges_times);
  g_array_unref (said->ranges);
  g_free (said);
}

/* The seconds said for STATE, while it still selects what they became. */
static SaidSeconds *
lookup_said (TvViewState *state)
{
  SaidSeconds *said = g_object_get_data (G_OBJECT (state), SAID_SECONDS_KEY);
  TvTimeRange range;
  const TvTimeRange *ranges;
  guint n_ranges;

  if (said == NULL)
    return NULL;
  ranges = tv_view_state_get_ranges (state, &n_ranges);
  if (tv_view_state_get_range (state, &range.start, &range.end) != said->has_range_times
      || (said->has_range_times && memcmp (&range, &said->range_times, sizeof range) != 0)
      || n_ranges != said->ranges_times->len
      || (n_ranges > 0
          && memcmp (ranges, said->ranges_times->data, n_ranges * sizeof (TvTimeRange)) != 0))
    return NULL;
  return said;
}

gboolean
tv_export_get_seconds (TvViewState    *state,
                       guint64         start_time,
                       TvExportRange  *range,
                       GArray        **ranges)
{
  SaidSeconds *said;
  const TvTimeRange *times;
  TvTimeRange range_times;
  gboolean has_range;
  guint n;

  g_return_val_if_fail (TV_IS_VIEW_STATE (state), FALSE);

  *ranges = g_array_new (FALSE, FALSE, sizeof (TvExportRange));
  if ((said = lookup_said (state)) != NULL)
    {
      *range = said->range;
      g_array_append_vals (*ranges, said->ranges->data, said->ranges->len);
      return said->has_range;
    }

  has_range = tv_view_state_get_range (state, &range_times.start, &range_times.end);
  range->start = tv_export_timestamp_to_seconds (start_time, range_times.start);
  range->end = tv_export_timestamp_to_seconds (start_time, range_times.end);
  times = tv_view_state_get_ranges (state, &n);
  for (guint i = 0; i < n; i++)
    {
      TvExportRange seconds = {
        tv_export_timestamp_to_seconds (start_time, times[i].start),
        tv_export_timestamp_to_seconds (start_time, times[i].end),
      };

      g_array_append_val (*ranges, seconds);
    }
  return has_range;
}

void
tv_export_select_seconds (TvViewState         *state,
                          guint64              start_time,
                          const TvExportRange *range,
                          const TvExportRange *ranges,
                          guint                n_ranges)
{
  g_autoptr(GArray) times = g_array_new (FALSE, FALSE, sizeof (TvTimeRange));
  SaidSeconds *said;

  g_return_if_fail (TV_IS_VIEW_STATE (state));

  said = g_new0 (SaidSeconds, 1);
  said->ranges_times = g_array_new (FALSE, FALSE, sizeof (TvTimeRange));
  said->ranges = g_array_new (FALSE, FALSE, sizeof (TvExportRange));
  g_array_append_vals (said->ranges, ranges, n_ranges);
  g_object_set_data_full (G_OBJECT (state), SAID_SECONDS_KEY, said, said_seconds_free);

  if (range != NULL)
    tv_view_state_set_range (state, tv_export_seconds_to_timestamp (start_time, range->start),
                             tv_export_seconds_to_timestamp (start_time, range->end));
  /* Rounding to microseconds keeps the order. */
  for (guint i = 0; i < n_ranges; i++)
    {
      TvTimeRange t = {
        tv_export_seconds_to_timestamp (start_time, ranges[i].start),
        tv_export_seconds_to_timestamp (start_time, ranges[i].end),
      };

      g_array_append_val (times, t);
    }
  if (n_ranges > 0)
    {
      tv_view_state_set_ranges (state, (const TvTimeRange *) (gpointer) times->data,
                                times->len);
      /* A list that rounding left empty still selects: no sample. */
      if (tv_view_state_get_ranges (state, NULL) == NULL)
        tv_view_state_set_range (state, 0, 0);
    }

  /* What the state selects now is what the seconds say. */
  {
    const TvTimeRange *now;
    guint n_now;

    said->has_range = range != NULL;
    if (range != NULL)
      said->range = *range;
    said->has_range_times = tv_view_state_get_range (state, &said->range_times.start,
                                                     &said->range_times.end);
    now = tv_view_state_get_ranges (state, &n_now);
    g_array_append_vals (said->ranges_times, now, n_now);
  }
}

/* The state and the time ranges of STATE, for a load of counts. */
static void
make_sample_filter (TvViewState    *state,
                    TvSampleFilter *samples)
{
  TvQuery query;

  tv_view_state_to_query (state, &query);
  samples->status_mask = query.status_mask;
  samples->status_value = query.status_value;
  samples->has_range = query.has_range;
  samples->range_start = query.range_start;
  samples->range_end = query.range_end;
  samples->ranges = query.ranges;
  samples->n_ranges = query.n_ranges;
}

void
tv_export_make_query (TvViewState   *state,
                      TvProfileData *data,
                      TvQuery       *query)
{
  g_return_if_fail (TV_IS_VIEW_STATE (state));
  g_return_if_fail (data != NULL);
  g_return_if_fail (query != NULL);

  tv_view_state_to_query (state, query);
  query->inverted = FALSE;
  /* A load of counts selected the samples by state and time already. */
  if (!tv_profile_data_has_samples (data))
    {
      query->status_mask = query->status_value = 0;
      query->has_range = FALSE;
      query->ranges = NULL;
      query->n_ranges = 0;
    }
}

/**
 * tv_export_load:
 * @state: what the export shows
 * @reader: (transfer full): an open reader
 * @count_states: whether to count each state's samples too
 * @cancellable: (nullable): a cancellable
 * @error: return location for an error
 *
 * Loads what an export of @state needs: the samples' counts, selected
 * by @state's thread state and time ranges while they are decoded, and no
 * sample (see tv_profile_data_load_counts()); with @count_states, the
 * counts of each state too, for a tree that counts them (an image in
 * thread-state colours).  So an export never needs more memory for a
 * longer run of one stack.  The load keeps to the model's memory budget,
 * and fails with TV_TACH_ERROR_NO_MEMORY past it.
 *
 * Returns: (transfer full) (nullable): the data, or %NULL with @error set
 */
TvProfileData *
tv_export_load (TvViewState   *state,
                TachReader    *reader,
                gboolean       count_states,
                GCancellable  *cancellable,
                GError       **error)
{
  TvSampleFilter samples = { 0 };

  g_return_val_if_fail (TV_IS_VIEW_STATE (state), NULL);
  g_return_val_if_fail (reader != NULL, NULL);

  make_sample_filter (state, &samples);
  samples.count_states = count_states;
  return tv_profile_data_load_counts (reader, &samples, NULL, NULL, cancellable, error);
}

/* ------------------------------------------------------------------------ */
/* Zoom                                                                      */
/* ------------------------------------------------------------------------ */

/* Where a zoom step looked: "at the root" or "under NAME". */
static char *
describe_place (TvCallTree *tree,
                guint32     node)
{
  g_autofree char *name = NULL;

  if (node == TV_ROOT_NODE)
    return g_strdup (_("at the root"));
  name = tv_export_describe_key (tv_call_tree_get_data (tree), tv_call_tree_get_merge (tree),
                                 tv_call_tree_get_key (tree, node));
  /* Translators: where a zoom step was looked for, as in "no such frame
   * under main (app.py)". */
  return g_strdup_printf (_("under %s"), name);
}

/* The child of NODE that STEP ("FUNC" or "FUNC:LINE", FUNC as --focus
 * takes it) names. */
static gboolean
find_zoom_step (TvCallTree  *tree,
                guint32      node,
                const char  *step,
                guint32     *child,
                GError     **error)
{
  TvProfileData *data = tv_call_tree_get_data (tree);
  TvMergeKey merge = tv_call_tree_get_merge (tree);
  g_autofree char *spec = g_strdup (step);
  char *colon = strrchr (spec, ':');
  const guint32 *children;
  guint n_children, n_found = 0;
  gint64 line = -1;

  /* "FUNC:12": a line, when the key has lines. */
  if (colon != NULL && colon > spec && colon[1] != '\0'
      && strspn (colon + 1, "0123456789") == strlen (colon + 1) && strlen (colon + 1) < 10)
    {
      line = g_ascii_strtoll (colon + 1, NULL, 10);
      *colon = '\0';
    }

  children = tv_call_tree_get_children (tree, node, &n_children);
  for (int whole = 1; whole >= 0 && n_found == 0; whole--)
    for (guint i = 0; i < n_children; i++)
      {
        guint32 frame = tv_call_tree_get_frame (tree, children[i]);
        const TachFrame *f = tach_reader_get_frame (tv_profile_data_get_reader (data), frame);

        if (!frame_matches (data, frame, spec, whole)
            || (line >= 0 && (merge == TV_MERGE_FUNCTION || f == NULL || f->lineno != line)))
          continue;
        *child = children[i];
        n_found++;
      }

  if (n_found == 1)
    return TRUE;

  {
    g_autofree char *shown = tv_text_dup_shown (step);
    g_autofree char *place = describe_place (tree, node);

    /* Translators: the last %s is "at the root" or "under NAME". */
    if (n_found == 0)
      g_set_error (error, TV_EXPORT_ERROR, TV_EXPORT_ERROR_NO_SUCH_FRAME,
                   _("Cannot zoom into “%s”: the samples shown have no such frame %s"),
                   shown, place);
    else
      g_set_error (error, TV_EXPORT_ERROR, TV_EXPORT_ERROR_NO_SUCH_FRAME,
                   _("Cannot zoom into “%s”: %u frames %s match it (add :LINE, or "
                     "merge by function)"), shown, n_found, place);
  }
  return FALSE;
}

static gboolean
find_zoom_key (TvCallTree  *tree,
               guint32      node,
               guint        index,
               guint32      key,
               guint32     *child,
               GError     **error)
{
  TvProfileData *data = tv_call_tree_get_data (tree);
  TvMergeKey merge = tv_call_tree_get_merge (tree);

  if (key >= tv_profile_data_get_n_keys (data, merge))
    {
      g_set_error (error, TV_EXPORT_ERROR, TV_EXPORT_ERROR_NO_SUCH_FRAME,
                   _("Cannot zoom into frame %u of the zoom path: this profile has no "
                     "such frame"), index + 1);
      return FALSE;
    }
  *child = tv_call_tree_find_child (tree, node, key);
  if (*child == TV_NODE_NONE)
    {
      g_autofree char *name = tv_export_describe_key (data, merge, key);
      g_autofree char *place = describe_place (tree, node);

      /* Translators: the last %s is "at the root" or "under NAME". */
      g_set_error (error, TV_EXPORT_ERROR, TV_EXPORT_ERROR_NO_SUCH_FRAME,
                   _("Cannot zoom into %s: the samples shown have no such frame %s"),
                   name, place);
      return FALSE;
    }
  return TRUE;
}

/* The nodes from the root's child down that STEPS (text) or KEYS name
 * in TREE: their keys appended to PATH, the last one in NODE. */
static gboolean
walk_zoom (TvCallTree     *tree,
           char          **steps,
           const guint32  *keys,
           guint           n_steps,
           GArray         *path,
           guint32        *node,
           GError        **error)
{
  guint32 at = TV_ROOT_NODE;

  for (guint i = 0; i < n_steps; i++)
    {
      guint32 child;
      guint32 key;

      if (!(steps != NULL ? find_zoom_step (tree, at, steps[i], &child, error)
                          : find_zoom_key (tree, at, i, keys[i], &child, error)))
        return FALSE;
      key = tv_call_tree_get_key (tree, child);
      g_array_append_val (path, key);
      at = child;
    }
  *node = at;
  return TRUE;
}

gboolean
tv_export_find_zoom_text (TvViewState  *state,
                          TvCallTree   *tree,
                          const char   *zoom,
                          GError      **error)
{
  g_autoptr(GArray) path = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_auto(GStrv) steps = NULL;
  guint32 node;

  g_return_val_if_fail (TV_IS_VIEW_STATE (state), FALSE);
  g_return_val_if_fail (tree != NULL, FALSE);
  g_return_val_if_fail (zoom != NULL, FALSE);

  steps = g_strsplit (zoom, ";", -1);
  if (!walk_zoom (tree, steps, NULL, g_strv_length (steps), path, &node, error))
    return FALSE;
  tv_view_state_set_zoom_path (state, (const guint32 *) (gpointer) path->data, path->len);
  return TRUE;
}

gboolean
tv_export_find_zoom (TvViewState  *state,
                     TvCallTree   *tree,
                     GArray      **path,
                     guint32      *node,
                     GError      **error)
{
  g_autoptr(GArray) keys = g_array_new (FALSE, FALSE, sizeof (guint32));
  const guint32 *zoom;
  guint n_steps;

  g_return_val_if_fail (TV_IS_VIEW_STATE (state), FALSE);
  g_return_val_if_fail (tree != NULL, FALSE);
  g_return_val_if_fail (node != NULL, FALSE);

  zoom = tv_view_state_get_zoom_path (state, &n_steps);
  if (!walk_zoom (tree, NULL, zoom, n_steps, keys, node, error))
    return FALSE;
  if (path != NULL)
    *path = g_steal_pointer (&keys);
  return TRUE;
}
