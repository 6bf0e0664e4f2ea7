/* tv-export.c: what every export shares: the filters of the command line
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tv-export.h"
#include "tachyon-format.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n.h>

#include "tv-text.h"

G_DEFINE_QUARK (tv-export-error-quark, tv_export_error)

/* How many thread ids an error message lists before it says "…". */
#define MAX_LISTED_THREADS 8

static const struct
{
  const char    *name;
  TvStateFilter  state;
} states[] = {
  { "gil", TV_STATE_FILTER_GIL },
  { "cpu", TV_STATE_FILTER_CPU },
  { "gil-wait", TV_STATE_FILTER_GIL_WAIT },
  { "exception", TV_STATE_FILTER_EXCEPTION },
};

static const char * const merge_names[TV_N_MERGE_KEYS] = {
  [TV_MERGE_FRAME] = "frame",
  [TV_MERGE_FUNCTION] = "function",
  [TV_MERGE_LINE] = "line",
  [TV_MERGE_INSTRUCTION] = "instruction",
};

/* How many files an ambiguous function name lists. */
#define MAX_LISTED_FILES 4

void
tv_export_filter_init (TvExportFilter *filter)
{
  g_return_if_fail (filter != NULL);

  memset (filter, 0, sizeof *filter);
  filter->thread_ids = g_array_new (FALSE, FALSE, sizeof (guint64));
  filter->state = TV_STATE_FILTER_ALL;
  filter->range_start = -INFINITY;
  filter->range_end = INFINITY;
  filter->merge = TV_MERGE_FUNCTION;
  filter->orientation = TV_FLAME_ORIENTATION_FLAME;
  filter->zoom_path = g_array_new (FALSE, FALSE, sizeof (guint32));
  filter->focus_function = TV_NODE_NONE;
  filter->hidden_functions = g_array_new (FALSE, FALSE, sizeof (guint32));
  filter->hidden_names = g_ptr_array_new_with_free_func (g_free);
  filter->ranges = g_array_new (FALSE, FALSE, sizeof (TvExportRange));
}

void
tv_export_filter_clear (TvExportFilter *filter)
{
  g_return_if_fail (filter != NULL);

  g_clear_pointer (&filter->thread_ids, g_array_unref);
  g_clear_pointer (&filter->search, g_free);
  g_clear_pointer (&filter->zoom_path, g_array_unref);
  g_clear_pointer (&filter->zoom, g_free);
  g_clear_pointer (&filter->hidden_functions, g_array_unref);
  g_clear_pointer (&filter->focus_name, g_free);
  g_clear_pointer (&filter->hidden_names, g_ptr_array_unref);
  g_clear_pointer (&filter->ranges, g_array_unref);
}

/**
 * tv_export_filter_add_thread:
 * @filter: a filter
 * @text: a thread id in decimal, as `--thread` takes it
 * @error: return location for an error
 *
 * Keeps the samples of the thread(s) with that id, in any interpreter,
 * besides those of the threads added before.
 *
 * Returns: %TRUE if @text is a thread id
 */
gboolean
tv_export_filter_add_thread (TvExportFilter  *filter,
                             const char      *text,
                             GError         **error)
{
  guint64 thread_id;

  g_return_val_if_fail (filter != NULL, FALSE);
  g_return_val_if_fail (text != NULL, FALSE);

  /* Only digits: g_ascii_string_to_unsigned() would take a sign. */
  if (text[0] == '\0' || strspn (text, "0123456789") != strlen (text)
      || !g_ascii_string_to_unsigned (text, 10, 0, G_MAXUINT64, &thread_id, NULL))
    {
      g_set_error (error, TV_EXPORT_ERROR, TV_EXPORT_ERROR_INVALID_FILTER,
                   _("Invalid thread ID “%s”: expected a decimal number"), text);
      return FALSE;
    }

  for (guint i = 0; i < filter->thread_ids->len; i++)
    {
      if (g_array_index (filter->thread_ids, guint64, i) == thread_id)
        return TRUE;
    }
  g_array_append_val (filter->thread_ids, thread_id);
  return TRUE;
}

/**
 * tv_export_filter_set_state:
 * @filter: a filter
 * @text: `gil`, `cpu`, `gil-wait` or `exception`
 * @error: return location for an error
 *
 * Keeps only the samples taken in that state.
 *
 * Returns: %TRUE if @text names a state
 */
gboolean
tv_export_filter_set_state (TvExportFilter  *filter,
                            const char      *text,
                            GError         **error)
{
  g_return_val_if_fail (filter != NULL, FALSE);
  g_return_val_if_fail (text != NULL, FALSE);

  for (gsize i = 0; i < G_N_ELEMENTS (states); i++)
    {
      if (strcmp (text, states[i].name) == 0)
        {
          filter->state = states[i].state;
          return TRUE;
        }
    }

  g_set_error (error, TV_EXPORT_ERROR, TV_EXPORT_ERROR_INVALID_FILTER,
               _("Unknown thread state “%s” (expected one of: gil, cpu, gil-wait, exception)"),
               text);
  return FALSE;
}

/* An end of a range: empty for an open end, else a finite number. */
static gboolean
parse_seconds (const char *text,
               gsize       len,
               double      open_value,
               double     *out)
{
  g_autofree char *copy = g_strndup (text, len);
  char *end = NULL;
  double value;

  if (len == 0)
    {
      *out = open_value;
      return TRUE;
    }
  /* No leading blanks, "inf", "nan" or hexadecimal ("0x1p3"). */
  if (!g_ascii_isdigit (copy[0]) && copy[0] != '-' && copy[0] != '+' && copy[0] != '.')
    return FALSE;
  if (strpbrk (copy, "xX") != NULL)
    return FALSE;
  value = g_ascii_strtod (copy, &end);
  if (end == copy || *end != '\0' || !isfinite (value))
    return FALSE;

  *out = value;
  return TRUE;
}

/* TEXT as START:END, either end left out for an open one. */
static gboolean
parse_range (const char  *text,
             double      *start,
             double      *end,
             GError     **error)
{
  const char *colon = strchr (text, ':');

  if (colon == NULL || strchr (colon + 1, ':') != NULL || (colon == text && colon[1] == '\0')
      || !parse_seconds (text, colon - text, -INFINITY, start)
      || !parse_seconds (colon + 1, strlen (colon + 1), INFINITY, end))
    {
      g_set_error (error, TV_EXPORT_ERROR, TV_EXPORT_ERROR_INVALID_FILTER,
                   _("Invalid time range “%s”: expected START:END in seconds after the "
                     "profile’s start, such as 1.5:3"), text);
      return FALSE;
    }
  if (*start >= *end)
    {
      g_set_error (error, TV_EXPORT_ERROR, TV_EXPORT_ERROR_INVALID_FILTER,
                   _("Invalid time range “%s”: the start must come before the end"), text);
      return FALSE;
    }
  return TRUE;
}

/**
 * tv_export_filter_set_range:
 * @filter: a filter
 * @text: `START:END`, in seconds after the start time in the profile's
 *   header; either end may be left out (`2:`, `:1.5`)
 * @error: return location for an error
 *
 * Keeps only the samples with START <= time < END.
 *
 * Returns: %TRUE if @text is a range
 */
gboolean
tv_export_filter_set_range (TvExportFilter  *filter,
                            const char      *text,
                            GError         **error)
{
  double start;
  double end;

  g_return_val_if_fail (filter != NULL, FALSE);
  g_return_val_if_fail (text != NULL, FALSE);

  if (!parse_range (text, &start, &end, error))
    return FALSE;

  filter->has_range = TRUE;
  filter->range_start = start;
  filter->range_end = end;
  return TRUE;
}

/**
 * tv_export_filter_add_range:
 * @filter: a filter
 * @text: `START:END`, as tv_export_filter_set_range() takes it
 * @error: return location for an error
 *
 * What `--range` given again does: the first range is the filter's time
 * range; with a second one, both (and any later ones) become its list of
 * ranges, and the samples in any of them are kept.
 *
 * Returns: %TRUE if @text is a range
 */
gboolean
tv_export_filter_add_range (TvExportFilter  *filter,
                            const char      *text,
                            GError         **error)
{
  TvExportRange range;

  g_return_val_if_fail (filter != NULL, FALSE);
  g_return_val_if_fail (text != NULL, FALSE);

  if (!parse_range (text, &range.start, &range.end, error))
    return FALSE;

  if (!filter->has_range && filter->ranges->len == 0)
    {
      filter->has_range = TRUE;
      filter->range_start = range.start;
      filter->range_end = range.end;
      return TRUE;
    }
  if (filter->has_range)
    {
      TvExportRange first = { filter->range_start, filter->range_end };

      tv_export_filter_add_ranges (filter, &first, 1);
      filter->has_range = FALSE;
      filter->range_start = -INFINITY;
      filter->range_end = INFINITY;
    }
  tv_export_filter_add_ranges (filter, &range, 1);
  return TRUE;
}

static int
compare_export_ranges (gconstpointer a,
                       gconstpointer b)
{
  const TvExportRange *x = a;
  const TvExportRange *y = b;

  return (x->start > y->start) - (x->start < y->start);
}

/**
 * tv_export_filter_add_ranges:
 * @filter: a filter
 * @ranges: (array length=n_ranges): time ranges, in seconds after the
 *   header's start time
 * @n_ranges: how many
 *
 * Adds @ranges to @filter's list of ranges, which stays sorted: empty
 * ranges are dropped, and ranges that overlap or touch are merged.
 */
void
tv_export_filter_add_ranges (TvExportFilter      *filter,
                             const TvExportRange *ranges,
                             guint                n_ranges)
{
  TvExportRange *all;
  guint kept = 0;

  g_return_if_fail (filter != NULL);
  g_return_if_fail (ranges != NULL || n_ranges == 0);

  g_array_append_vals (filter->ranges, ranges, n_ranges);
  g_array_sort (filter->ranges, compare_export_ranges);
  all = (TvExportRange *) (gpointer) filter->ranges->data;
  for (guint i = 0; i < filter->ranges->len; i++)
    {
      if (!(all[i].start < all[i].end))
        continue;
      if (kept > 0 && all[kept - 1].end >= all[i].start)
        all[kept - 1].end = MAX (all[kept - 1].end, all[i].end);
      else
        all[kept++] = all[i];
    }
  g_array_set_size (filter->ranges, kept);
}

/**
 * tv_export_filter_get_ranges_seconds:
 * @filter: a filter
 * @first: where an open start starts, in seconds after the start time
 * @last: where an open end ends
 *
 * Returns: the seconds that @filter's list of ranges covers (0 without
 *   one)
 */
double
tv_export_filter_get_ranges_seconds (const TvExportFilter *filter,
                                     double                first,
                                     double                last)
{
  double seconds = 0;

  g_return_val_if_fail (filter != NULL, 0);

  for (guint i = 0; i < filter->ranges->len; i++)
    {
      const TvExportRange *range = &g_array_index (filter->ranges, TvExportRange, i);
      double start = isfinite (range->start) ? range->start : first;
      double end = isfinite (range->end) ? range->end : last;

      if (end > start)
        seconds += end - start;
    }
  return seconds;
}

/**
 * tv_export_filter_set_merge:
 * @filter: a filter
 * @text: `function`, `line`, `instruction` or `frame`
 * @error: return location for an error
 *
 * Merges the frames of the exported tree by that key.
 *
 * Returns: %TRUE if @text names a merge key
 */
gboolean
tv_export_filter_set_merge (TvExportFilter  *filter,
                            const char      *text,
                            GError         **error)
{
  g_return_val_if_fail (filter != NULL, FALSE);
  g_return_val_if_fail (text != NULL, FALSE);

  for (TvMergeKey merge = 0; merge < TV_N_MERGE_KEYS; merge++)
    {
      if (strcmp (text, merge_names[merge]) == 0)
        {
          filter->merge = merge;
          return TRUE;
        }
    }

  g_set_error (error, TV_EXPORT_ERROR, TV_EXPORT_ERROR_INVALID_OPTION,
               _("Unknown merge key “%s” (expected one of: function, line, instruction, "
                 "frame)"), text);
  return FALSE;
}

/**
 * tv_export_filter_add_hidden:
 * @filter: a filter
 * @name: a function, as "name" or "file:name"
 *
 * Hides the function(s) of that name: their samples go to their callers.
 * The name is looked up once the profile is loaded.
 */
void
tv_export_filter_add_hidden (TvExportFilter *filter,
                             const char     *name)
{
  g_return_if_fail (filter != NULL);
  g_return_if_fail (name != NULL);

  g_ptr_array_add (filter->hidden_names, g_strdup (name));
}

/**
 * tv_export_compile_search:
 * @search: a regular expression
 * @error: return location for an error
 *
 * Returns: (transfer full): @search compiled as the flame graph's search
 *   entry does (caseless), or %NULL with @error set
 */
GRegex *
tv_export_compile_search (const char  *search,
                          GError     **error)
{
  g_autoptr(GError) regex_error = NULL;
  GRegex *regex;

  g_return_val_if_fail (search != NULL, NULL);

  regex = g_regex_new (search, G_REGEX_CASELESS | G_REGEX_OPTIMIZE, 0, &regex_error);
  if (regex == NULL)
    {
      g_autofree char *shown = tv_text_dup_shown (search);

      g_set_error (error, TV_EXPORT_ERROR, TV_EXPORT_ERROR_INVALID_OPTION,
                   _("Invalid search “%s”: %s"), shown, regex_error->message);
    }
  return regex;
}

/**
 * tv_export_filter_check:
 * @filter: a filter
 * @error: return location for an error
 *
 * Checks what can be checked without a profile: that the search is a
 * regular expression and the zoom path is not empty.
 *
 * Returns: %TRUE if @filter can be used
 */
gboolean
tv_export_filter_check (const TvExportFilter  *filter,
                        GError               **error)
{
  g_return_val_if_fail (filter != NULL, FALSE);
  g_return_val_if_fail (filter->merge < TV_N_MERGE_KEYS, FALSE);

  if (filter->search != NULL && filter->search[0] != '\0')
    {
      g_autoptr(GRegex) regex = tv_export_compile_search (filter->search, error);

      if (regex == NULL)
        return FALSE;
    }
  if (filter->zoom != NULL)
    {
      g_auto(GStrv) steps = g_strsplit (filter->zoom, ";", -1);

      for (guint i = 0; steps[i] != NULL || i == 0; i++)
        {
          if (steps[i] == NULL || steps[i][0] == '\0')
            {
              g_autofree char *shown = tv_text_dup_shown (filter->zoom);

              g_set_error (error, TV_EXPORT_ERROR, TV_EXPORT_ERROR_INVALID_FILTER,
                           _("Invalid zoom “%s”: expected functions from the root down, "
                             "separated by “;”, such as main;run"), shown);
              return FALSE;
            }
        }
    }
  if ((filter->focus_name != NULL && filter->focus_name[0] == '\0'))
    {
      g_set_error_literal (error, TV_EXPORT_ERROR, TV_EXPORT_ERROR_INVALID_FILTER,
                           _("The function name to focus on is empty"));
      return FALSE;
    }
  for (guint i = 0; i < filter->hidden_names->len; i++)
    {
      if (((const char *) g_ptr_array_index (filter->hidden_names, i))[0] == '\0')
        {
          g_set_error_literal (error, TV_EXPORT_ERROR, TV_EXPORT_ERROR_INVALID_FILTER,
                               _("The function name to hide is empty"));
          return FALSE;
        }
    }
  return TRUE;
}

gboolean
tv_export_filter_has_transforms (const TvExportFilter *filter)
{
  g_return_val_if_fail (filter != NULL, FALSE);

  return filter->collapse_recursion || filter->focus_function != TV_NODE_NONE
         || filter->hidden_functions->len > 0 || filter->focus_name != NULL
         || filter->hidden_names->len > 0;
}

gboolean
tv_export_filter_selects_all (const TvExportFilter *filter)
{
  g_return_val_if_fail (filter != NULL, TRUE);

  return filter->thread_ids->len == 0 && filter->state == TV_STATE_FILTER_ALL
         && !filter->has_range && filter->ranges->len == 0
         && !tv_export_filter_has_transforms (filter);
}

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

/**
 * tv_export_state_to_string:
 * @state: a state
 *
 * Returns: (nullable): the name `--state` takes for @state, or %NULL for
 *   %TV_STATE_FILTER_ALL
 */
const char *
tv_export_state_to_string (TvStateFilter state)
{
  for (gsize i = 0; i < G_N_ELEMENTS (states); i++)
    {
      if (states[i].state == state)
        return states[i].name;
    }
  return NULL;
}

const char *
tv_export_merge_to_string (TvMergeKey merge)
{
  g_return_val_if_fail (merge < TV_N_MERGE_KEYS, "function");

  return merge_names[merge];
}

/* ------------------------------------------------------------------------ */
/* Text                                                                      */
/* ------------------------------------------------------------------------ */

char *
tv_export_describe_key (TvProfileData *data,
                        TvMergeKey     merge,
                        guint32        key)
{
  guint32 frame = tv_profile_data_get_key_frame (data, merge, key);
  const TachFrame *f = tach_reader_get_frame (tv_profile_data_get_reader (data), frame);
  const char *file = tv_profile_data_get_filename (data, frame);
  const char *base = strrchr (file, '/');
  g_autoptr(GString) out = g_string_new (NULL);

  tv_text_append_shown (out, tv_profile_data_get_funcname (data, frame), -1);
  g_string_append (out, " (");
  tv_text_append_shown (out, base != NULL ? base + 1 : file, -1);
  if (merge != TV_MERGE_FUNCTION && f != NULL && f->lineno != TACH_LOCATION_NONE)
    g_string_append_printf (out, ":%d", f->lineno);
  g_string_append_c (out, ')');
  return g_string_free (g_steal_pointer (&out), FALSE);
}
