/* tv-export.c: what every export shares: the filters of the command line
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tv-export.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n.h>

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

void
tv_export_filter_init (TvExportFilter *filter)
{
  g_return_if_fail (filter != NULL);

  memset (filter, 0, sizeof *filter);
  filter->thread_ids = g_array_new (FALSE, FALSE, sizeof (guint64));
  filter->state = TV_STATE_FILTER_ALL;
  filter->range_start = -INFINITY;
  filter->range_end = INFINITY;
}

void
tv_export_filter_clear (TvExportFilter *filter)
{
  g_return_if_fail (filter != NULL);

  g_clear_pointer (&filter->thread_ids, g_array_unref);
  g_clear_pointer (&filter->search, g_free);
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
  /* No leading blanks, "inf" or "nan". */
  if (!g_ascii_isdigit (copy[0]) && copy[0] != '-' && copy[0] != '+' && copy[0] != '.')
    return FALSE;
  value = g_ascii_strtod (copy, &end);
  if (end == copy || *end != '\0' || !isfinite (value))
    return FALSE;

  *out = value;
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
  const char *colon;
  double start;
  double end;

  g_return_val_if_fail (filter != NULL, FALSE);
  g_return_val_if_fail (text != NULL, FALSE);

  colon = strchr (text, ':');
  if (colon == NULL || strchr (colon + 1, ':') != NULL || (colon == text && colon[1] == '\0')
      || !parse_seconds (text, colon - text, -INFINITY, &start)
      || !parse_seconds (colon + 1, strlen (colon + 1), INFINITY, &end))
    {
      g_set_error (error, TV_EXPORT_ERROR, TV_EXPORT_ERROR_INVALID_FILTER,
                   _("Invalid time range “%s”: expected START:END in seconds after the "
                     "profile’s start, such as 1.5:3"), text);
      return FALSE;
    }
  if (start >= end)
    {
      g_set_error (error, TV_EXPORT_ERROR, TV_EXPORT_ERROR_INVALID_FILTER,
                   _("Invalid time range “%s”: the start must come before the end"), text);
      return FALSE;
    }

  filter->has_range = TRUE;
  filter->range_start = start;
  filter->range_end = end;
  return TRUE;
}

gboolean
tv_export_filter_selects_all (const TvExportFilter *filter)
{
  g_return_val_if_fail (filter != NULL, TRUE);

  return filter->thread_ids->len == 0 && filter->state == TV_STATE_FILTER_ALL
         && !filter->has_range;
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

/**
 * tv_export_filter_make_query:
 * @filter: a filter
 * @data: the loaded profile
 * @merge: the merge key of the query
 * @query: (out caller-allocates): the query
 * @thread_indices: (out) (transfer full): the storage of @query's thread
 *   list, to free with g_array_unref() once @query is not used any more
 * @error: return location for an error
 *
 * The query that selects the samples @filter keeps, not inverted (each
 * exporter applies @filter's orientation in its own way).  Fails when
 * @filter names a thread id that @data has no thread with.
 *
 * Returns: %TRUE on success
 */
gboolean
tv_export_filter_make_query (const TvExportFilter  *filter,
                             TvProfileData         *data,
                             TvMergeKey             merge,
                             TvQuery               *query,
                             GArray               **thread_indices,
                             GError               **error)
{
  g_autoptr(GArray) indices = NULL;

  g_return_val_if_fail (filter != NULL, FALSE);
  g_return_val_if_fail (data != NULL, FALSE);
  g_return_val_if_fail (query != NULL, FALSE);
  g_return_val_if_fail (thread_indices != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  tv_query_init (query, merge);
  indices = g_array_new (FALSE, FALSE, sizeof (guint32));

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

                  g_array_append_val (indices, index);
                  found = TRUE;
                }
            }
          if (!found)
            {
              set_no_such_thread (error, data, thread_id);
              return FALSE;
            }
        }
      query->threads = (const guint32 *) indices->data;
      query->n_threads = indices->len;
    }

  tv_state_filter_get_mask (filter->state, &query->status_mask, &query->status_value);

  if (filter->has_range)
    {
      const TachHeader *header = tach_reader_get_header (tv_profile_data_get_reader (data));

      query->has_range = TRUE;
      query->range_start = seconds_to_timestamp (header->start_time_us, filter->range_start);
      query->range_end = seconds_to_timestamp (header->start_time_us, filter->range_end);
    }

  *thread_indices = g_steal_pointer (&indices);
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
