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

#include "tv-tach-error.h"
#include "tv-text.h"

G_DEFINE_QUARK (tv-export-error-quark, tv_export_error)

TachReader *
tv_export_open_reader (const char  *path,
                       GError     **error)
{
  TachReader *reader = NULL;
  TachError tach_error = { 0 };
  TachStatus status;

  g_return_val_if_fail (path != NULL, NULL);

  status = tach_reader_open_path (path, &reader, &tach_error);
  if (status != TACH_OK)
    tv_tach_error_propagate (error, status, &tach_error);
  return reader;
}

/* The command line's words for the values of an enum are its nicks
 * (gnome.mkenums_simple's: "gil-wait" for TV_STATE_FILTER_GIL_WAIT). */
static const GEnumValue *
lookup_nick (GType       type,
             const char *nick)
{
  g_autoptr(GEnumClass) klass = g_type_class_ref (type);

  /* The values are static: they outlive the class's reference. */
  return g_enum_get_value_by_nick (klass, nick);
}

static const char *
get_nick (GType type,
          int   value)
{
  g_autoptr(GEnumClass) klass = g_type_class_ref (type);
  const GEnumValue *found = g_enum_get_value (klass, value);

  return found != NULL ? found->value_nick : NULL;
}

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

  {
    const GEnumValue *state = lookup_nick (TV_TYPE_STATE_FILTER, text);

    /* Every sample is what no --state says. */
    if (state != NULL && state->value != TV_STATE_FILTER_ALL)
      {
        filter->state = state->value;
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

  {
    const GEnumValue *merge = lookup_nick (TV_TYPE_MERGE_KEY, text);

    if (merge != NULL)
      {
        filter->merge = merge->value;
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

int
tv_export_compare_threads (gconstpointer a,
                           gconstpointer b,
                           gpointer      user_data)
{
  TvProfileData *data = user_data;
  const TvThread *ta = tv_profile_data_get_thread (data, *(const guint32 *) a);
  const TvThread *tb = tv_profile_data_get_thread (data, *(const guint32 *) b);

  if (ta->thread_id != tb->thread_id)
    return ta->thread_id < tb->thread_id ? -1 : 1;
  if (ta->interpreter_id != tb->interpreter_id)
    return ta->interpreter_id < tb->interpreter_id ? -1 : 1;
  return ta->index < tb->index ? -1 : ta->index > tb->index;
}

TvCallTree *
tv_export_line_tree (TvProfileData  *data,
                     const TvQuery  *query,
                     gboolean        thread_self,
                     GCancellable   *cancellable,
                     GError        **error)
{
  TvQuery line_query = *query;
  TvCallTree *tree;

  line_query.merge = TV_MERGE_LINE;
  line_query.inverted = FALSE;
  line_query.callers_of = TV_NODE_NONE;
  line_query.count_states = FALSE;
  line_query.count_threads = FALSE;
  line_query.thread_self = thread_self;
  tree = tv_call_tree_new (data, &line_query, cancellable);
  /* A cancel is the only reason for no tree. */
  if (tree == NULL && !g_cancellable_set_error_if_cancelled (cancellable, error))
    g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_CANCELLED, "Cancelled");
  return tree;
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
  return state != TV_STATE_FILTER_ALL ? get_nick (TV_TYPE_STATE_FILTER, state) : NULL;
}

const char *
tv_export_merge_to_string (TvMergeKey merge)
{
  g_return_val_if_fail (merge < TV_N_MERGE_KEYS, "function");

  return get_nick (TV_TYPE_MERGE_KEY, merge);
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
