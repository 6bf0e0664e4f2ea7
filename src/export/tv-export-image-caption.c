/* tv-export-image-caption.c: the words of an exported flame graph
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The image's subtitle (what is shown: threads, state, ranges, merge key,
 * transforms, zoom, search) and its caption (the header's facts and the
 * statistics block), as text; tv-export-image.c lays them out and draws
 * them.
 */
#include "tv-export-image-private.h"
#include "tachyon-format.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n.h>

#include "tv-json.h"
#include "tv-text.h"
#include "tv-units.h"

/* ------------------------------------------------------------------------ */
/* Text                                                                      */
/* ------------------------------------------------------------------------ */

/* Appends TEXT escaped for XML character data and attribute values. */
void
image_append_xml_escaped (GString    *out,
                          const char *text)
{
  for (const char *p = text; *p != '\0'; p++)
    {
      switch (*p)
        {
        case '&':
          g_string_append (out, "&amp;");
          break;
        case '<':
          g_string_append (out, "&lt;");
          break;
        case '>':
          g_string_append (out, "&gt;");
          break;
        case '"':
          g_string_append (out, "&quot;");
          break;
        case '\'':
          g_string_append (out, "&apos;");
          break;
        default:
          g_string_append_c (out, *p);
          break;
        }
    }
}

/* Appends "LABEL: VALUE", with " · " before it unless it starts OUT;
 * LABELS (if not NULL) gets where the label went, as a pair of byte
 * offsets, so that it can be drawn lighter than the value. */
static void
append_fact (GString    *out,
             GArray     *labels,
             const char *label,
             const char *value)
{
  gsize start;
  const char *found;

  if (out->len > 0)
    g_string_append (out, " · ");
  if (label == NULL)
    {
      g_string_append (out, value);
      return;
    }
  start = out->len;
  /* Translators: a label and its value in an exported image's caption,
   * e.g. "Duration: 1.5 s". */
  g_string_append_printf (out, _("%s: %s"), label, value);
  found = labels != NULL ? strstr (out->str + start, label) : NULL;
  if (found != NULL)
    {
      guint range[2] = { found - out->str, found - out->str + strlen (label) };

      g_array_append_vals (labels, range, 2);
    }
}

static char *
format_double (double value)
{
  char buf[TV_JSON_DOUBLE_BUF_SIZE];

  /* The number --info --json gives: the shortest text that reads back as
   * the same double. */
  tv_json_format_double (buf, sizeof buf, value);
  return g_strdup (buf);
}

static const char *
merge_description (TvMergeKey merge)
{
  switch (merge)
    {
    case TV_MERGE_FRAME:
      return _("merged by frame");
    case TV_MERGE_LINE:
      return _("merged by line");
    case TV_MERGE_INSTRUCTION:
      return _("merged by instruction");
    case TV_MERGE_FUNCTION:
    case TV_N_MERGE_KEYS:
    default:
      return _("merged by function");
    }
}

static char *
describe_threads (Image *self)
{
  g_autoptr(GString) list = g_string_new (NULL);
  guint n;
  g_autofree guint64 *ids = tv_export_dup_thread_ids (self->state, self->data, &n);

  if (n == 0)
    return g_strdup (_("all threads"));
  for (guint i = 0; i < n && i < MAX_LISTED_THREADS; i++)
    g_string_append_printf (list, "%s%" G_GUINT64_FORMAT, i > 0 ? ", " : "", ids[i]);
  if (n > MAX_LISTED_THREADS)
    g_string_append (list, ", …");
  if (n == 1)
    return g_strdup_printf (_("thread %s"), list->str);
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u thread: %s", "%u threads: %s", n),
                          n, list->str);
}

/* "in 3 selected time ranges (1.5 s)": an open end counts from the
 * first sample, or to the last. */
static char *
describe_ranges (Image  *self,
                 GArray *ranges)
{
  guint64 start_time = tach_reader_get_header (tv_profile_data_get_reader (self->data))->start_time_us;
  guint64 first = start_time;
  guint64 last = start_time;
  double seconds_first, seconds_last;
  guint n = ranges->len;
  g_autofree char *wall = NULL;
  double total = 0;

  tv_profile_data_get_time_span (self->data, &first, &last);
  seconds_first = ((double) first - start_time) / 1e6;
  seconds_last = ((double) last - start_time) / 1e6;
  for (guint i = 0; i < n; i++)
    {
      const TvExportRange *range = &g_array_index (ranges, TvExportRange, i);
      double start = isfinite (range->start) ? range->start : seconds_first;
      double end = isfinite (range->end) ? range->end : seconds_last;

      if (end > start)
        total += end - start;
    }
  wall = tv_format_wall_time (total);
  /* Translators: the time an exported image shows: how many time ranges
   * were selected (in the heatmap), and how long they are together
   * ("400 ms of wall time"). */
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "in %u selected time range (%s)",
                                       "in %u selected time ranges (%s)", n),
                          n, wall);
}

static char *
describe_range (gboolean             has_range,
                const TvExportRange *range)
{
  g_autofree char *start = NULL;
  g_autofree char *end = NULL;

  if (!has_range)
    return g_strdup (_("the whole recording"));
  start = isfinite (range->start) ? format_double (range->start) : NULL;
  end = isfinite (range->end) ? format_double (range->end) : NULL;
  /* Translators: a time range of an exported image, in seconds after the
   * profile's start. */
  if (start != NULL && end != NULL)
    return g_strdup_printf (_("from %s s to %s s"), start, end);
  if (start != NULL)
    return g_strdup_printf (_("from %s s on"), start);
  if (end != NULL)
    return g_strdup_printf (_("up to %s s"), end);
  return g_strdup (_("the whole recording"));
}

/* The transforms applied: "focus on main (app.py)", "2 hidden
 * functions", "recursion collapsed". */
static void
append_transforms (Image   *self,
                   GString *out)
{
  const TvQuery *query = &self->query;
  guint n_hidden = query->n_hidden_functions;

  if (query->focus_function != TV_NODE_NONE)
    {
      g_autofree char *name = tv_export_describe_key (self->data, TV_MERGE_FUNCTION,
                                                      query->focus_function);
      g_autofree char *text = g_strdup_printf (_("focus on %s"), name);

      append_fact (out, NULL, NULL, text);
    }
  if (n_hidden == 1)
    {
      g_autofree char *name = tv_export_describe_key (self->data, TV_MERGE_FUNCTION,
                                                      query->hidden_functions[0]);
      g_autofree char *text = g_strdup_printf (_("%s hidden"), name);

      append_fact (out, NULL, NULL, text);
    }
  else if (n_hidden > 1)
    {
      g_autofree char *text = NULL;

      text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u hidden function",
                                           "%u hidden functions", n_hidden), n_hidden);
      append_fact (out, NULL, NULL, text);
    }
  if (query->collapse_recursion)
    append_fact (out, NULL, NULL, _("recursion collapsed"));
}

void
image_build_subtitle (Image *self)
{
  static const char * const state_names[TV_N_STATE_FILTERS] = {
    N_("every thread state"),
    N_("holding the GIL"),
    N_("on CPU"),
    N_("waiting for the GIL"),
    N_("with an exception"),
  };
  gboolean icicle = tv_view_state_get_orientation (self->state) == TV_FLAME_ORIENTATION_ICICLE;
  TvMergeKey merge = tv_view_state_get_merge (self->state);
  g_autoptr(GString) out = g_string_new (NULL);
  guint64 start_time = tach_reader_get_header (tv_profile_data_get_reader (self->data))->start_time_us;
  g_autoptr(GArray) ranges = NULL;
  TvExportRange seconds;
  gboolean has_range = tv_export_get_seconds (self->state, start_time, &seconds, &ranges);
  gboolean has_ranges = ranges->len > 0;
  g_autofree char *threads = describe_threads (self);
  g_autofree char *range = describe_range (has_range, &seconds);
  guint64 n_shown = tv_call_tree_get_n_samples (self->tree);
  g_autofree char *shown = tv_format_count (n_shown);
  g_autofree char *all = tv_format_count (tv_profile_data_get_n_samples (self->data));
  g_autofree char *thread_time = tv_format_thread_time (tv_call_tree_samples_to_seconds (self->tree,
                                                                                         n_shown,
                                                                                         NULL));
  g_autofree char *samples = NULL;

  if (tv_view_state_get_inverted (self->state))
    append_fact (out, NULL, NULL, icicle ? _("Inverted icicle graph") : _("Inverted flame graph"));
  else
    append_fact (out, NULL, NULL, icicle ? _("Icicle graph") : _("Flame graph"));
  append_fact (out, NULL, NULL, merge_description (merge));
  /* Translators: the samples an exported image shows, of all the
   * profile's (both are numbers), and the thread time they stand for:
   * "1,234 of 5,991 samples, 2.42 s of thread time". */
  samples = g_strdup_printf (_("%s of %s samples, %s"), shown, all, thread_time);
  append_fact (out, NULL, NULL, samples);
  append_fact (out, NULL, NULL, threads);
  append_fact (out, NULL, NULL, _(state_names[tv_view_state_get_state_filter (self->state)]));
  if (has_range || !has_ranges)
    append_fact (out, NULL, NULL, range);
  if (has_ranges)
    {
      g_autofree char *said = describe_ranges (self, ranges);

      append_fact (out, NULL, NULL, said);
    }
  append_transforms (self, out);

  if (self->zoom != TV_ROOT_NODE)
    {
      g_autoptr(GString) path = g_string_new (NULL);
      g_autofree char *zoomed = NULL;
      guint n = self->zoom_path->len;
      /* The outermost frames say least: the last three are shown. */
      guint first = n > 3 ? n - 3 : 0;

      if (first > 0)
        g_string_append (path, "…");
      for (guint i = first; i < n; i++)
        {
          g_autofree char *name = tv_export_describe_key (self->data, merge,
                                                          g_array_index (self->zoom_path,
                                                                         guint32, i));

          if (path->len > 0)
            g_string_append (path, " › ");
          g_string_append (path, name);
        }
      zoomed = g_strdup_printf (_("zoomed into %s"), path->str);
      append_fact (out, NULL, NULL, zoomed);
    }

  if (self->matches != NULL)
    {
      g_autofree char *search = tv_text_dup_shown (tv_view_state_get_search (self->state));
      guint64 all_samples = tv_call_tree_get_n_samples (self->tree);
      guint32 n_nodes = tv_flame_matches_get_n_nodes (self->matches);
      g_autofree char *share = tv_format_share (tv_flame_matches_get_n_samples (self->matches),
                                                all_samples);
      g_autofree char *text = NULL;

      /* Translators: the search of an exported image: the regular
       * expression, then how many frames match and the share of the
       * samples that pass through one. */
      text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                           "search “%s”: %u frame matches, "
                                           "%s of the samples",
                                           "search “%s”: %u frames match, "
                                           "%s of the samples",
                                           n_nodes),
                              search, n_nodes, share);
      append_fact (out, NULL, NULL, text);
    }

  self->subtitle = g_string_free (g_steal_pointer (&out), FALSE);
}

static char *
stat_value (gboolean    present,
            double      value,
            const char *unit)
{
  g_autofree char *number = NULL;

  if (!present || !isfinite (value))
    return g_strdup (_("not recorded"));
  number = tv_format_significant (value);
  return g_strconcat (number, unit, NULL);
}

void
image_build_caption (Image *self)
{
  TachReader *reader = tv_profile_data_get_reader (self->data);
  const TachHeader *header = tach_reader_get_header (reader);
  const TachStats *stats = tach_reader_get_stats (reader);
  g_autoptr(GString) facts = g_string_new (NULL);
  g_autoptr(GString) line = g_string_new (NULL);
  g_autofree char *value = NULL;
  g_autofree char *number = NULL;

  self->facts_labels = g_array_new (FALSE, FALSE, sizeof (guint));
  self->stats_labels = g_array_new (FALSE, FALSE, sizeof (guint));
  value = g_strdup_printf ("%u.%u.%u", header->python_major, header->python_minor,
                           header->python_micro);
  append_fact (facts, self->facts_labels, _("Python version"), value);
  g_clear_pointer (&value, g_free);
  value = tv_format_mode (tach_mode_to_string ((TachMode) header->mode), header->mode_raw);
  append_fact (facts, self->facts_labels, _("Profiling mode"), value);
  g_clear_pointer (&value, g_free);
  number = tv_format_count (header->sample_count);
  value = g_strdup_printf (_("%s thread-samples (header)"), number);
  append_fact (facts, self->facts_labels, _("Samples"), value);
  g_clear_pointer (&value, g_free);
  value = tv_format_interval (header->sample_interval_us);
  append_fact (facts, self->facts_labels, _("Sample interval"), value);
  self->facts = g_string_free (g_steal_pointer (&facts), FALSE);

  /* The statistics block, with CPython's values to three significant
   * digits (--info --json gives every digit). */
  g_clear_pointer (&value, g_free);
  if (stats->present && isfinite (stats->duration_sec))
    value = tv_format_wall_time (stats->duration_sec);
  else
    value = g_strdup (_("not recorded"));
  append_fact (line, self->stats_labels, _("Duration"), value);
  g_clear_pointer (&value, g_free);
  value = stat_value (stats->present, stats->sample_rate, _(" samples/s"));
  append_fact (line, self->stats_labels, _("Measured sample rate"), value);
  g_clear_pointer (&value, g_free);
  value = stat_value (stats->present && stats->has_error_rate, stats->error_rate, " %");
  append_fact (line, self->stats_labels, _("Error rate"), value);
  g_clear_pointer (&value, g_free);
  value = stat_value (stats->present && stats->has_missed_samples, stats->missed_samples, " %");
  append_fact (line, self->stats_labels, _("Missed samples"), value);
  self->stats = g_string_free (g_steal_pointer (&line), FALSE);

  self->generator = g_strdup_printf (_("Made with Tachyon Viewer %s"), PACKAGE_VERSION);
}
