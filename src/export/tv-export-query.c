/* tv-export-query.c: an export's filter made into the model's query
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What the command line's filters (threads, state, time ranges, focus,
 * hide, zoom) select in one loaded profile: thread ids and function names
 * looked up in the data, with the errors a person can act on.
 */
#include "tv-export.h"
#include "tachyon-format.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n.h>

#include "tv-text.h"

/* How many thread ids an error message lists before it says "…". */
#define MAX_LISTED_THREADS 8

/* How many files an ambiguous function name lists. */
#define MAX_LISTED_FILES 4

/* The timestamp SECONDS after START_TIME, saturated to the u64 range. */
static guint64
seconds_to_timestamp (guint64 start_time,
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

static int
compare_u64 (gconstpointer a,
             gconstpointer b)
{
  guint64 ua = *(const guint64 *) a;
  guint64 ub = *(const guint64 *) b;

  return ua < ub ? -1 : ua > ub;
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

static gboolean
make_transforms (const TvExportFilter  *filter,
                 TvProfileData         *data,
                 TvExportQuery         *out,
                 GError               **error)
{
  TvQuery *query = &out->query;

  query->collapse_recursion = filter->collapse_recursion;
  query->focus_function = filter->focus_function;
  if (filter->focus_name != NULL
      && !find_focus (data, filter->focus_name, &query->focus_function, error))
    return FALSE;

  g_array_append_vals (out->hidden, filter->hidden_functions->data, filter->hidden_functions->len);
  for (guint i = 0; i < filter->hidden_names->len; i++)
    {
      const char *spec = g_ptr_array_index (filter->hidden_names, i);

      if (!find_functions (data, spec, out->hidden))
        {
          set_no_such_function (error, spec);
          return FALSE;
        }
    }
  if (out->hidden->len > 0)
    {
      query->hidden_functions = (const guint32 *) (gpointer) out->hidden->data;
      query->n_hidden_functions = out->hidden->len;
    }
  return TRUE;
}

/* The filter's list of ranges as timestamps: sorted and disjoint still,
 * since rounding to microseconds keeps the order. */
static void
make_ranges (const TvExportFilter *filter,
             TachReader           *reader,
             TvExportQuery        *out)
{
  /* What a list that rounding left empty points to: no sample. */
  static const TvTimeRange none = { 0, 0 };
  const TachHeader *header = tach_reader_get_header (reader);
  TvQuery *query = &out->query;
  guint n;

  if (filter->ranges->len == 0)
    return;
  for (guint i = 0; i < filter->ranges->len; i++)
    {
      const TvExportRange *range = &g_array_index (filter->ranges, TvExportRange, i);
      TvTimeRange times = {
        seconds_to_timestamp (header->start_time_us, range->start),
        seconds_to_timestamp (header->start_time_us, range->end),
      };

      g_array_append_val (out->ranges, times);
    }
  n = tv_time_ranges_normalize ((TvTimeRange *) (gpointer) out->ranges->data, out->ranges->len);
  g_array_set_size (out->ranges, n);
  query->ranges = n > 0 ? (const TvTimeRange *) (gpointer) out->ranges->data : &none;
  query->n_ranges = n;
}

/* The state and the time ranges of FILTER in QUERY, the ranges stored in
 * OUT. */
static void
make_sample_filter (const TvExportFilter *filter,
                    TachReader           *reader,
                    TvExportQuery        *out)
{
  TvQuery *query = &out->query;

  tv_state_filter_get_mask (filter->state, &query->status_mask, &query->status_value);
  if (filter->has_range)
    {
      const TachHeader *header = tach_reader_get_header (reader);

      query->has_range = TRUE;
      query->range_start = seconds_to_timestamp (header->start_time_us, filter->range_start);
      query->range_end = seconds_to_timestamp (header->start_time_us, filter->range_end);
    }
  make_ranges (filter, reader, out);
}

/**
 * tv_export_filter_make_query:
 * @filter: a filter
 * @data: the loaded profile
 * @query: (out caller-allocates): the query and its storage, to clear
 *   with tv_export_query_clear()
 * @error: return location for an error
 *
 * The query that selects the samples @filter keeps, merged by its merge
 * key and transformed as it says, not inverted (each exporter applies
 * @filter's orientation in its own way); of a load of counts that
 * tv_export_filter_load() made for @filter, it selects by thread only,
 * since the load kept only the state and time ranges' samples.  Fails
 * when @filter names a thread id that @data has no thread with, or a
 * function it lacks.
 *
 * Returns: %TRUE on success
 */
gboolean
tv_export_filter_make_query (const TvExportFilter  *filter,
                             TvProfileData         *data,
                             TvExportQuery         *out,
                             GError               **error)
{
  TvQuery *query;

  g_return_val_if_fail (filter != NULL, FALSE);
  g_return_val_if_fail (data != NULL, FALSE);
  g_return_val_if_fail (out != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  query = &out->query;
  tv_query_init (query, filter->merge);
  out->threads = g_array_new (FALSE, FALSE, sizeof (guint32));
  out->hidden = g_array_new (FALSE, FALSE, sizeof (guint32));
  out->ranges = g_array_new (FALSE, FALSE, sizeof (TvTimeRange));

  if (filter->thread_ids->len > 0)
    {
      guint n_threads = tv_profile_data_get_n_threads (data);

      for (guint j = 0; j < filter->thread_ids->len; j++)
        {
          guint64 thread_id = g_array_index (filter->thread_ids, guint64, j);
          gboolean found = FALSE;

          for (guint i = 0; i < n_threads; i++)
            {
              if (tv_profile_data_get_thread (data, i)->thread_id == thread_id)
                {
                  guint32 index = i;

                  g_array_append_val (out->threads, index);
                  found = TRUE;
                }
            }
          if (!found)
            {
              set_no_such_thread (error, data, thread_id);
              return FALSE;
            }
        }
      query->threads = (const guint32 *) (gpointer) out->threads->data;
      query->n_threads = out->threads->len;
    }

  /* A load of counts selected the samples by state and time already. */
  if (tv_profile_data_has_samples (data))
    make_sample_filter (filter, tv_profile_data_get_reader (data), out);

  return make_transforms (filter, data, out, error);
}

/**
 * tv_export_filter_load:
 * @filter: a filter
 * @reader: (transfer full): an open reader
 * @cancellable: (nullable): a cancellable
 * @error: return location for an error
 *
 * Loads what an export of @filter needs: the samples' counts, selected
 * by @filter's state and time ranges while they are decoded, and no
 * sample (see tv_profile_data_load_counts()); with @count_states, the
 * counts of each state too, for a tree that counts them (an image in
 * thread-state colours).  So an export never needs more memory for a
 * longer run of one stack.  The load keeps to the model's memory budget,
 * and fails with TV_TACH_ERROR_NO_MEMORY past it.
 *
 * Returns: (transfer full) (nullable): the data, or %NULL with @error set
 */
TvProfileData *
tv_export_filter_load (const TvExportFilter  *filter,
                       TachReader            *reader,
                       gboolean               count_states,
                       GCancellable          *cancellable,
                       GError               **error)
{
  g_auto(TvExportQuery) query = { 0 };
  TvSampleFilter samples = { 0 };

  g_return_val_if_fail (filter != NULL, NULL);
  g_return_val_if_fail (reader != NULL, NULL);

  tv_query_init (&query.query, filter->merge);
  query.ranges = g_array_new (FALSE, FALSE, sizeof (TvTimeRange));
  make_sample_filter (filter, reader, &query);
  samples.status_mask = query.query.status_mask;
  samples.status_value = query.query.status_value;
  samples.has_range = query.query.has_range;
  samples.range_start = query.query.range_start;
  samples.range_end = query.query.range_end;
  samples.ranges = query.query.ranges;
  samples.n_ranges = query.query.n_ranges;
  samples.count_states = count_states;
  return tv_profile_data_load_counts (reader, &samples, NULL, NULL, cancellable, error);
}

void
tv_export_query_clear (TvExportQuery *query)
{
  g_return_if_fail (query != NULL);

  g_clear_pointer (&query->threads, g_array_unref);
  g_clear_pointer (&query->hidden, g_array_unref);
  g_clear_pointer (&query->ranges, g_array_unref);
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

/**
 * tv_export_filter_find_zoom:
 * @filter: a filter
 * @tree: the tree drawn (made with @filter's merge key, inverted when it
 *   is drawn inverted)
 * @path: (out) (optional) (transfer full): the merge keys from the root's
 *   child down to the zoom root
 * @node: (out): the zoom root, %TV_ROOT_NODE without a zoom
 * @error: return location for an error
 *
 * Finds @filter's zoom path (its keys, or its text) in @tree.  Fails when
 * a frame of the path is not in @tree, or when a step of the text matches
 * several frames.
 *
 * Returns: %TRUE if the zoom root was found
 */
gboolean
tv_export_filter_find_zoom (const TvExportFilter  *filter,
                            TvCallTree            *tree,
                            GArray               **path,
                            guint32               *node,
                            GError               **error)
{
  g_autoptr(GArray) keys = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_auto(GStrv) steps = NULL;
  guint32 at = TV_ROOT_NODE;
  guint n_steps;

  g_return_val_if_fail (filter != NULL, FALSE);
  g_return_val_if_fail (tree != NULL, FALSE);
  g_return_val_if_fail (node != NULL, FALSE);

  if (filter->zoom != NULL)
    steps = g_strsplit (filter->zoom, ";", -1);
  n_steps = steps != NULL ? g_strv_length (steps) : filter->zoom_path->len;

  for (guint i = 0; i < n_steps; i++)
    {
      guint32 child;
      guint32 key;
      gboolean found;

      if (steps != NULL)
        found = find_zoom_step (tree, at, steps[i], &child, error);
      else
        found = find_zoom_key (tree, at, i, g_array_index (filter->zoom_path, guint32, i),
                               &child, error);
      if (!found)
        return FALSE;
      key = tv_call_tree_get_key (tree, child);
      g_array_append_val (keys, key);
      at = child;
    }

  *node = at;
  if (path != NULL)
    *path = g_steal_pointer (&keys);
  return TRUE;
}
