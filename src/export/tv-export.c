/* tv-export.c: what every export shares: the command line's words
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tv-export.h"
#include "tachyon-format.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <glib/gi18n.h>

#include "tv-tach-error.h"
#include "tv-text.h"
#include "tv-units.h"

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

TachDecoder *
tv_export_new_decoder (TachReader  *reader,
                       GError     **error)
{
  TachDecoder *decoder = NULL;
  TachError tach_error = { 0 };
  TachStatus status = tach_decoder_new (reader, &decoder, &tach_error);

  if (status != TACH_OK)
    {
      tv_tach_error_propagate (error, status, &tach_error);
      return NULL;
    }
  return decoder;
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

gboolean
tv_export_parse_thread_id (const char  *text,
                           guint64     *thread_id,
                           GError     **error)
{
  g_return_val_if_fail (text != NULL, FALSE);

  /* Only digits: g_ascii_string_to_unsigned() would take a sign. */
  if (text[0] == '\0' || strspn (text, "0123456789") != strlen (text)
      || !g_ascii_string_to_unsigned (text, 10, 0, G_MAXUINT64, thread_id, NULL))
    {
      g_set_error (error, TV_EXPORT_ERROR, TV_EXPORT_ERROR_INVALID_FILTER,
                   _("Invalid thread ID “%s”: expected a decimal number"), text);
      return FALSE;
    }
  return TRUE;
}

gboolean
tv_export_parse_state (const char     *text,
                       TvStateFilter  *state,
                       GError        **error)
{
  const GEnumValue *value;

  g_return_val_if_fail (text != NULL, FALSE);

  /* Every sample is what no --state says. */
  value = lookup_nick (TV_TYPE_STATE_FILTER, text);
  if (value != NULL && value->value != TV_STATE_FILTER_ALL)
    {
      *state = value->value;
      return TRUE;
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

gboolean
tv_export_parse_range (const char     *text,
                       TvExportRange  *range,
                       GError        **error)
{
  const char *colon;
  double *start = &range->start;
  double *end = &range->end;

  g_return_val_if_fail (text != NULL, FALSE);

  colon = strchr (text, ':');

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

static int
compare_export_ranges (gconstpointer a,
                       gconstpointer b)
{
  const TvExportRange *x = a;
  const TvExportRange *y = b;

  return (x->start > y->start) - (x->start < y->start);
}

guint
tv_export_ranges_normalize (TvExportRange *ranges,
                            guint          n_ranges)
{
  guint kept = 0;

  g_return_val_if_fail (ranges != NULL || n_ranges == 0, 0);

  qsort (ranges, n_ranges, sizeof (TvExportRange), compare_export_ranges);
  for (guint i = 0; i < n_ranges; i++)
    {
      if (!(ranges[i].start < ranges[i].end))
        continue;
      if (kept > 0 && ranges[kept - 1].end >= ranges[i].start)
        ranges[kept - 1].end = MAX (ranges[kept - 1].end, ranges[i].end);
      else
        ranges[kept++] = ranges[i];
    }
  return kept;
}

gboolean
tv_export_parse_merge (const char  *text,
                       TvMergeKey  *merge,
                       GError     **error)
{
  const GEnumValue *value;

  g_return_val_if_fail (text != NULL, FALSE);

  value = lookup_nick (TV_TYPE_MERGE_KEY, text);
  if (value != NULL)
    {
      *merge = value->value;
      return TRUE;
    }

  g_set_error (error, TV_EXPORT_ERROR, TV_EXPORT_ERROR_INVALID_OPTION,
               _("Unknown merge key “%s” (expected one of: function, line, instruction, "
                 "frame)"), text);
  return FALSE;
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

gboolean
tv_export_check_search (TvViewState  *state,
                        GError      **error)
{
  const char *search = tv_view_state_get_search (state);
  g_autoptr(GRegex) regex = NULL;

  if (search == NULL)
    return TRUE;
  regex = tv_export_compile_search (search, error);
  return regex != NULL;
}

gboolean
tv_export_check_zoom_text (const char  *zoom,
                           GError     **error)
{
  g_auto(GStrv) steps = NULL;

  g_return_val_if_fail (zoom != NULL, FALSE);

  steps = g_strsplit (zoom, ";", -1);
  for (guint i = 0; steps[i] != NULL || i == 0; i++)
    {
      if (steps[i] == NULL || steps[i][0] == '\0')
        {
          g_autofree char *shown = tv_text_dup_shown (zoom);

          g_set_error (error, TV_EXPORT_ERROR, TV_EXPORT_ERROR_INVALID_FILTER,
                       _("Invalid zoom “%s”: expected functions from the root down, "
                         "separated by “;”, such as main;run"), shown);
          return FALSE;
        }
    }
  return TRUE;
}

gboolean
tv_export_selects_all (TvViewState *state)
{
  guint n_threads, n_ranges;

  g_return_val_if_fail (TV_IS_VIEW_STATE (state), TRUE);

  tv_view_state_get_threads (state, &n_threads);
  tv_view_state_get_ranges (state, &n_ranges);
  return n_threads == 0 && tv_view_state_get_state_filter (state) == TV_STATE_FILTER_ALL
         && !tv_view_state_get_range (state, NULL, NULL) && n_ranges == 0
         && !tv_view_state_has_transforms (state);
}

gboolean
tv_export_set_cancelled (GCancellable  *cancellable,
                         GError       **error)
{
  if (!g_cancellable_set_error_if_cancelled (cancellable, error))
    g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_CANCELLED, "Cancelled");
  return FALSE;
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
  if (tree == NULL)
    tv_export_set_cancelled (cancellable, error);
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

