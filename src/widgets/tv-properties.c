/* tv-properties.c: the properties pane of one profile
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Everything shown here comes from the model's constant-time getters (the
 * header, footer, statistics and warnings) and, after loading, from the
 * per-thread summaries, so building the pane never costs time that grows
 * with the file.  Values are selectable labels; the same text is collected
 * for "Copy as Text".  The two thread tables (every sample of each thread,
 * and those of the selected time range) are column views over a lazy list
 * of the threads (TvThreadItem), in the display order: a row's widgets
 * exist only while it is in view, and its item (with its counts in the
 * range) only once something asked for it (sorting asks for all of them,
 * incrementally), so a hundred thousand threads cost a screenful of
 * labels.  "Copy as Text" copies a table's first MAX_COPIED_THREADS rows
 * in the order shown, and says how many it left out.
 */
#include <string.h>

#include <glib/gi18n.h>

#include "tv-profile-data.h"
#include "tv-properties.h"
#include "tv-text.h"
#include "tv-thread-item.h"
#include "tv-units.h"

#include "tv-properties-private.h"

struct _TvProperties
{
  AdwBin                parent_instance;

  TvProfile            *profile;
  GString              *text;            /* metadata, as copied */
  GString              *data_text;       /* derived figures, as copied */
  GString              *warnings_text;   /* the findings, as copied */
  GPtrArray            *warning_rows;
  guint                 reveal_tick;
  guint                 reveal_ticks;
  guint                 n_thread_rows;

  AdwPreferencesGroup  *file_group;
  AdwPreferencesGroup  *header_group;
  AdwPreferencesGroup  *footer_group;
  AdwPreferencesGroup  *stats_group;
  AdwPreferencesGroup  *warnings_group;
  AdwPreferencesGroup  *decoded_group;
  AdwPreferencesGroup  *threads_group;
  GtkScrolledWindow    *threads_scroller;
  GtkColumnView        *threads_view;
  ThreadTable           thread_table;
  AdwPreferencesGroup  *range_group;
  GtkScrolledWindow    *range_scroller;
  GtkColumnView        *range_view;
  ThreadTable           range_table;
  GString              *range_text;      /* the range's title, as copied */
  /* What the range table shows. */
  TvTimeline           *range_timeline;
  TvTimeRange          *ranges;
  guint                 n_ranges;
  GtkButton            *copy_button;
};

G_DEFINE_FINAL_TYPE (TvProperties, tv_properties, ADW_TYPE_BIN)

enum {
  PROP_0,
  PROP_PROFILE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

#define N_GROUPS 8

/* Values of up to SHORT_VALUE_CHARS characters stay on one line; longer
 * ones wrap, no narrower than WRAPPED_VALUE_CHARS (fewer: GTK would take a
 * width in characters wider than the text for its minimum but not for its
 * natural width, and warn). */
#define SHORT_VALUE_CHARS 20
#define WRAPPED_VALUE_CHARS 12

/* Each group keeps its value labels, named by their rows' titles, for
 * tv_properties_mark_differences() and tv_properties_align_rows(). */
static void
remember_row (AdwPreferencesGroup *group,
              const char          *title,
              GtkWidget           *label)
{
  GPtrArray *labels = g_object_get_data (G_OBJECT (group), "tv-value-labels");

  if (labels == NULL)
    {
      labels = g_ptr_array_new ();
      g_object_set_data_full (G_OBJECT (group), "tv-value-labels", labels,
                              (GDestroyNotify) g_ptr_array_unref);
    }
  g_object_set_data_full (G_OBJECT (label), "tv-title", g_strdup (title), g_free);
  g_ptr_array_add (labels, label);
}

static GtkWidget *
find_value_label (AdwPreferencesGroup *group,
                  const char          *title)
{
  GPtrArray *labels = g_object_get_data (G_OBJECT (group), "tv-value-labels");

  for (guint i = 0; labels != NULL && i < labels->len; i++)
    if (g_strcmp0 (g_object_get_data (g_ptr_array_index (labels, i), "tv-title"), title) == 0)
      return g_ptr_array_index (labels, i);
  return NULL;
}

static void
set_differs (GtkWidget *label,
             gboolean   differs)
{
  GtkWidget *row = gtk_widget_get_ancestor (label, ADW_TYPE_ACTION_ROW);

  if (row == NULL)
    return;
  if (differs)
    gtk_widget_add_css_class (row, "property-differs");
  else
    gtk_widget_remove_css_class (row, "property-differs");
}

/* Marks, in both panes, the header, footer, statistics and decoded rows
 * whose values differ (or that one pane lacks); the file's name and size
 * are not compared.  Returns how many of SELF's rows differ. */
guint
tv_properties_mark_differences (TvProperties *self,
                                TvProperties *other)
{
  AdwPreferencesGroup *mine[] = { self->header_group, self->footer_group, self->stats_group,
                                  self->decoded_group };
  AdwPreferencesGroup *theirs[] = { other->header_group, other->footer_group,
                                    other->stats_group, other->decoded_group };
  guint n_differing = 0;

  g_return_val_if_fail (TV_IS_PROPERTIES (self), 0);
  g_return_val_if_fail (TV_IS_PROPERTIES (other), 0);

  for (guint g = 0; g < G_N_ELEMENTS (mine); g++)
    {
      GPtrArray *labels = g_object_get_data (G_OBJECT (mine[g]), "tv-value-labels");

      for (guint i = 0; labels != NULL && i < labels->len; i++)
        {
          GtkWidget *label = g_ptr_array_index (labels, i);
          GtkWidget *match = find_value_label (theirs[g], g_object_get_data (G_OBJECT (label),
                                                                              "tv-title"));
          gboolean differs = match == NULL
                             || g_strcmp0 (gtk_label_get_text (GTK_LABEL (label)),
                                           gtk_label_get_text (GTK_LABEL (match))) != 0;

          set_differs (label, differs);
          if (match != NULL)
            set_differs (match, differs);
          n_differing += differs;
        }
    }
  return n_differing;
}

/* Every group of the pane, in the order shown. */
static void
list_groups (TvProperties        *self,
             AdwPreferencesGroup *groups[N_GROUPS])
{
  AdwPreferencesGroup *all[N_GROUPS] = { self->file_group, self->header_group,
                                         self->footer_group, self->stats_group,
                                         self->warnings_group, self->decoded_group,
                                         self->threads_group, self->range_group };

  memcpy (groups, all, sizeof all);
}

static void
share_height (GtkWidget *widget,
              GtkWidget *other)
{
  g_autoptr(GtkSizeGroup) group = gtk_size_group_new (GTK_SIZE_GROUP_VERTICAL);

  /* The widgets keep the group alive. */
  gtk_size_group_add_widget (group, widget);
  gtk_size_group_add_widget (group, other);
}

void
tv_properties_align_rows (TvProperties *self,
                          TvProperties *other)
{
  AdwPreferencesGroup *mine[N_GROUPS], *theirs[N_GROUPS];

  g_return_if_fail (TV_IS_PROPERTIES (self));
  g_return_if_fail (TV_IS_PROPERTIES (other));

  list_groups (self, mine);
  list_groups (other, theirs);
  for (guint g = 0; g < N_GROUPS; g++)
    {
      GPtrArray *labels = g_object_get_data (G_OBJECT (mine[g]), "tv-value-labels");

      /* A group may have more rows on one side (warnings, threads). */
      share_height (GTK_WIDGET (mine[g]), GTK_WIDGET (theirs[g]));
      for (guint i = 0; labels != NULL && i < labels->len; i++)
        {
          GtkWidget *label = g_ptr_array_index (labels, i);
          GtkWidget *match = find_value_label (theirs[g], g_object_get_data (G_OBJECT (label),
                                                                              "tv-title"));

          if (match != NULL)
            share_height (gtk_widget_get_ancestor (label, ADW_TYPE_ACTION_ROW),
                          gtk_widget_get_ancestor (match, ADW_TYPE_ACTION_ROW));
        }
    }
}

void
tv_properties_set_scrolls (TvProperties *self,
                           gboolean      scrolls)
{
  GtkScrolledWindow *scrolled;

  g_return_if_fail (TV_IS_PROPERTIES (self));

  scrolled = GTK_SCROLLED_WINDOW (adw_bin_get_child (ADW_BIN (self)));
  gtk_scrolled_window_set_policy (scrolled, GTK_POLICY_NEVER,
                                  scrolls ? GTK_POLICY_AUTOMATIC : GTK_POLICY_NEVER);
}

/* The label with CSS class NAME inside WIDGET, or NULL. */
static GtkWidget *
find_label (GtkWidget  *widget,
            const char *name)
{
  if (GTK_IS_LABEL (widget) && gtk_widget_has_css_class (widget, name))
    return widget;
  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_label (child, name);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* A value cut for display copies whole, from its label's menu or Ctrl+C
 * as from "Copy as Text". */
static void
on_cut_value_copy (GtkLabel *label,
                   gpointer  user_data)
{
  const char *whole = g_object_get_data (G_OBJECT (label), "tv-whole-value");
  int start, end;

  if (whole == NULL || !gtk_label_get_selection_bounds (label, &start, &end))
    return;
  gdk_clipboard_set_text (gtk_widget_get_clipboard (GTK_WIDGET (label)), whole);
  g_signal_stop_emission_by_name (label, "copy-clipboard");
}

/* A row that shows VALUE and copies WHOLE (NULL: VALUE). */
static GtkWidget *
add_row_cut (GString             *text,
             AdwPreferencesGroup *group,
             const char          *title,
             const char          *value,
             const char          *whole)
{
  GtkWidget *row = adw_action_row_new ();
  GtkWidget *label = gtk_label_new (value);
  GtkWidget *title_label;

  /* File names and warnings may hold '<' or '&'. */
  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  /* Nor does the row's title ("File") break in the middle of its word
   * because a long value made the row two lines tall. */
  title_label = find_label (row, "title");
  if (title_label != NULL)
    gtk_label_set_natural_wrap_mode (GTK_LABEL (title_label), GTK_NATURAL_WRAP_NONE);

  gtk_label_set_selectable (GTK_LABEL (label), TRUE);
  /* A short value ("0 %", "3.15.0") never wraps: a width in characters is
   * only an estimate, and one narrower than the text would break it at
   * its space.  A long one (a path, a sentence) may wrap, at spaces or
   * anywhere in a path, down to WRAPPED_VALUE_CHARS characters when the
   * pane is narrow; its natural width is its one line, which it gets
   * whenever the row has room (measured for the row's height, which fits
   * two lines, it would otherwise take two). */
  if (g_utf8_strlen (value, -1) > SHORT_VALUE_CHARS)
    {
      gtk_label_set_wrap (GTK_LABEL (label), TRUE);
      gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
      gtk_label_set_natural_wrap_mode (GTK_LABEL (label), GTK_NATURAL_WRAP_NONE);
      gtk_label_set_width_chars (GTK_LABEL (label), WRAPPED_VALUE_CHARS);
      gtk_label_set_max_width_chars (GTK_LABEL (label), 60);
    }
  gtk_label_set_xalign (GTK_LABEL (label), 1.0f);
  gtk_label_set_justify (GTK_LABEL (label), GTK_JUSTIFY_RIGHT);
  /* A selectable label would take the focus and select all its text. */
  gtk_widget_set_focus_on_click (label, FALSE);
  gtk_widget_add_css_class (label, "dim-label");
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), label);
  adw_preferences_group_add (group, row);
  remember_row (group, title, label);
  if (whole != NULL && strcmp (whole, value) != 0)
    {
      g_object_set_data_full (G_OBJECT (label), "tv-whole-value", g_strdup (whole), g_free);
      g_signal_connect (label, "copy-clipboard", G_CALLBACK (on_cut_value_copy), NULL);
    }

  g_string_append_printf (text, "  %s: %s\n", title, whole != NULL ? whole : value);

  return label;
}

static GtkWidget *
add_row (GString             *text,
         AdwPreferencesGroup *group,
         const char          *title,
         const char          *value)
{
  return add_row_cut (text, group, title, value, NULL);
}

static void
add_section (GString             *text,
             AdwPreferencesGroup *group)
{
  if (text->len > 0)
    g_string_append_c (text, '\n');
  g_string_append_printf (text, "%s\n", adw_preferences_group_get_title (group));
}

static void
add_stat_row (TvProperties *self,
              const char   *title,
              gboolean      present,
              double        value,
              const char   *unit)
{
  g_autofree char *text = NULL;

  if (present)
    {
      g_autofree char *number = tv_format_significant (value);

      text = g_strconcat (number, unit, NULL);
    }
  else
    text = g_strdup (_("not recorded in this file"));
  add_row (self->text, self->stats_group, title, text);
}

static const char *
severity_icon (TvSeverity severity)
{
  switch (severity)
    {
    case TV_SEVERITY_SEVERE:
      return "dialog-error-symbolic";
    case TV_SEVERITY_WARNING:
      return "dialog-warning-symbolic";
    case TV_SEVERITY_NOTICE:
    default:
      return "dialog-information-symbolic";
    }
}

/* The profile's findings (tv_profile_get_findings()), which grow once the
 * samples are in: the rows and their text are made again each time. */
static void
show_findings (TvProperties *self)
{
  GPtrArray *findings = tv_profile_get_findings (self->profile);

  for (guint i = 0; i < self->warning_rows->len; i++)
    adw_preferences_group_remove (self->warnings_group, g_ptr_array_index (self->warning_rows, i));
  g_ptr_array_set_size (self->warning_rows, 0);
  g_string_truncate (self->warnings_text, 0);

  add_section (self->warnings_text, self->warnings_group);
  if (findings == NULL || findings->len == 0)
    {
      adw_preferences_group_set_description (self->warnings_group,
                                             _("Nothing in the file or its statistics calls for caution."));
      g_string_append_printf (self->warnings_text, "  %s\n",
                              _("Nothing in the file or its statistics calls for caution."));
      return;
    }
  adw_preferences_group_set_description (self->warnings_group, NULL);
  for (guint i = 0; i < findings->len; i++)
    {
      const TvFinding *finding = g_ptr_array_index (findings, i);
      GtkWidget *row = adw_action_row_new ();

      adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), finding->message);
      adw_action_row_set_title_lines (ADW_ACTION_ROW (row), 0);
      adw_action_row_set_icon_name (ADW_ACTION_ROW (row), severity_icon (finding->severity));
      gtk_widget_add_css_class (row, "tv-finding");
      gtk_widget_add_css_class (row, tv_severity_to_string (finding->severity));
      adw_preferences_group_add (self->warnings_group, row);
      g_ptr_array_add (self->warning_rows, row);
      g_string_append_printf (self->warnings_text, "  - %s\n", finding->message);
    }
}

/* The header's rows, as the file states them. */
static void
show_header (TvProperties          *self,
             const TvProfileHeader *header)
{
  g_autofree char *value = NULL;
  g_autofree char *number = NULL;

  add_section (self->text, self->header_group);
  g_clear_pointer (&value, g_free);
  value = g_strdup_printf ("%u", header->version);
  add_row (self->text, self->header_group, _("Format version"), value);
  g_clear_pointer (&value, g_free);
  value = g_strdup_printf ("%u.%u.%u", header->python_major, header->python_minor,
                           header->python_micro);
  add_row (self->text, self->header_group, _("Python version"), value);

  g_clear_pointer (&number, g_free);
  g_clear_pointer (&value, g_free);
  number = tv_properties_u64_to_string (header->start_time_us);
  value = g_strdup_printf (_("%s µs (profiler clock)"), number);
  add_row (self->text, self->header_group, _("Start time"), value);

  g_clear_pointer (&value, g_free);
  value = tv_format_interval (header->sample_interval_us);
  add_row (self->text, self->header_group, _("Sample interval"), value);

  g_clear_pointer (&number, g_free);
  g_clear_pointer (&value, g_free);
  number = tv_format_count (header->sample_count);
  value = g_strdup_printf (_("%s thread-samples (header)"), number);
  add_row (self->text, self->header_group, _("Samples"), value);

  g_clear_pointer (&value, g_free);
  value = g_strdup_printf (_("%u (header)"), header->thread_count);
  add_row (self->text, self->header_group, _("Threads"), value);

  g_clear_pointer (&value, g_free);
  if (header->compression_type == TV_COMPRESSION_ZSTD)
    value = g_strdup ("zstd");
  else if (header->compression_type == TV_COMPRESSION_NONE)
    value = g_strdup (_("none"));
  else
    value = g_strdup_printf (_("%s (type %u)"), "unknown", header->compression_type);
  add_row (self->text, self->header_group, _("Compression"), value);

  g_clear_pointer (&value, g_free);
  value = tv_format_mode (header->mode_name, header->mode_raw);
  add_row (self->text, self->header_group, _("Profiling mode"), value);

  add_row (self->text, self->header_group, _("Byte order"),
           header->big_endian ? _("big-endian") : _("little-endian"));
}

static void
show_metadata (TvProperties *self)
{
  const TvProfileHeader *header = tv_profile_get_header (self->profile);
  const TvProfileFooter *footer = tv_profile_get_footer (self->profile);
  const TvProfileStats *stats = tv_profile_get_stats (self->profile);
  GFile *file = tv_profile_get_file (self->profile);
  g_autofree char *path = g_file_get_parse_name (file);
  g_autofree char *size_text = tv_format_bytes (tv_profile_get_file_size (self->profile));
  g_autofree char *value = NULL;

  g_return_if_fail (header != NULL && footer != NULL && stats != NULL);

  add_section (self->text, self->file_group);
  if (g_file_has_uri_scheme (file, "resource"))
    {
      g_free (path);
      /* Translators: the "File" row of the demo profile, which is built
       * into the program rather than read from disk. */
      path = g_strdup (_("Demo profile bundled with Tachyon Viewer (rec_threads.zst.tach, a real recording)"));
    }
  /* The path is shown as a name is, and copied whole (but visible: the
   * copied text keeps one line a value). */
  {
    g_autofree char *shown = tv_text_dup_shown (path);
    g_autofree char *whole = tv_text_dup_visible (path, 0);

    add_row_cut (self->text, self->file_group, _("File"), shown, whole);
  }
  add_row (self->text, self->file_group, _("Size"), size_text);

  show_header (self, header);

  add_section (self->text, self->footer_group);
  g_clear_pointer (&value, g_free);
  value = g_strdup_printf ("%u", footer->string_count);
  add_row (self->text, self->footer_group, _("Strings"), value);
  g_clear_pointer (&value, g_free);
  value = g_strdup_printf ("%u", footer->frame_count);
  add_row (self->text, self->footer_group, _("Frames"), value);
  g_clear_pointer (&value, g_free);
  value = tv_format_bytes (footer->file_size);
  add_row (self->text, self->footer_group, _("File size recorded"), value);
  g_clear_pointer (&value, g_free);
  value = tv_format_checksum (footer->checksum, sizeof footer->checksum);
  add_row (self->text, self->footer_group, _("Checksum"), value);

  add_section (self->text, self->stats_group);
  g_clear_pointer (&value, g_free);
  if (stats->present)
    value = tv_format_wall_time (stats->duration_sec);
  else
    value = g_strdup (_("not recorded in this file"));
  add_row (self->text, self->stats_group, _("Duration"), value);
  add_stat_row (self, _("Measured sample rate"), stats->present, stats->sample_rate,
                _(" samples/s"));
  add_stat_row (self, _("Error rate"), stats->present && stats->has_error_rate,
                stats->error_rate, " %");
  add_stat_row (self, _("Missed samples"), stats->present && stats->has_missed_samples,
                stats->missed_samples, " %");

  show_findings (self);
}

void
tv_properties_show_data (TvProperties *self)
{
  TvProfileData *data;
  guint64 first = 0, last = 0;
  gboolean have_span;
  guint n_threads;
  g_autofree char *value = NULL;
  g_autoptr(GListModel) rows = NULL;

  g_return_if_fail (TV_IS_PROPERTIES (self));
  g_return_if_fail (self->profile != NULL);

  data = tv_profile_get_data (self->profile);
  g_return_if_fail (data != NULL);

  if (self->data_text->len > 0)
    return;

  show_findings (self);
  n_threads = tv_profile_data_get_n_threads (data);
  have_span = tv_profile_data_get_time_span (data, &first, &last);

  g_string_append_printf (self->data_text, "\n%s\n",
                          adw_preferences_group_get_title (self->decoded_group));
  value = tv_format_count (tv_profile_data_get_n_samples (data));
  add_row (self->data_text, self->decoded_group, _("Samples decoded"), value);
  g_clear_pointer (&value, g_free);
  if (have_span)
    {
      g_autofree char *span = tv_format_wall_time ((double) (last - first) / 1e6);

      /* Translators: %s is "1.28 s of wall time". */
      value = g_strdup_printf (_("%s, from the first sample to the last"), span);
    }
  else
    value = g_strdup (_("no samples"));
  add_row (self->data_text, self->decoded_group, _("Time span observed"), value);
  g_clear_pointer (&value, g_free);
  value = g_strdup_printf ("%u", n_threads);
  add_row (self->data_text, self->decoded_group, _("Threads seen"), value);
  gtk_widget_set_visible (GTK_WIDGET (self->decoded_group), TRUE);

  rows = tv_thread_list_new (data);
  tv_properties_table_set_rows (&self->thread_table, rows);
  self->n_thread_rows = n_threads;
  tv_properties_fit_table (self->threads_scroller, n_threads);
  gtk_widget_set_visible (GTK_WIDGET (self->threads_group), TRUE);
}

void
tv_properties_show_range (TvProperties      *self,
                          TvTimeline        *timeline,
                          const TvTimeRange *ranges,
                          guint              n_ranges)
{
  g_autofree char *from = NULL;
  g_autofree char *to = NULL;
  g_autofree char *description = NULL;
  g_autoptr(GListModel) rows = NULL;
  guint64 origin;

  g_return_if_fail (TV_IS_PROPERTIES (self));
  g_return_if_fail (tv_time_ranges_are_sorted (ranges, n_ranges));

  if (n_ranges == 0 || timeline == NULL)
    {
      n_ranges = 0;
      timeline = NULL;
    }
  /* The view state changes for other reasons too (threads, the merge
   * key): the same ranges keep the table as it is, sorted and scrolled. */
  if (timeline == self->range_timeline && n_ranges == self->n_ranges
      && (n_ranges == 0 || memcmp (ranges, self->ranges, n_ranges * sizeof (TvTimeRange)) == 0))
    return;
  g_clear_pointer (&self->range_timeline, tv_timeline_unref);
  g_clear_pointer (&self->ranges, g_free);
  self->n_ranges = n_ranges;
  g_string_truncate (self->range_text, 0);
  gtk_widget_set_visible (GTK_WIDGET (self->range_group), n_ranges > 0);
  if (n_ranges == 0)
    {
      tv_properties_table_set_rows (&self->range_table, NULL);
      return;
    }
  self->range_timeline = tv_timeline_ref (timeline);
  self->ranges = g_memdup2 (ranges, n_ranges * sizeof (TvTimeRange));

  origin = tv_timeline_get_origin (timeline);
  from = g_strdup_printf ("%.3f", ((double) ranges[0].start - origin) / 1e6);
  to = g_strdup_printf ("%.3f", ((double) ranges[n_ranges - 1].end - origin) / 1e6);
  if (n_ranges == 1)
    /* Translators: the range, in seconds after the first sample. */
    description = g_strdup_printf (_("From %s s to %s s after the first sample; percentages of "
                                     "each thread’s samples in the range"), from, to);
  else
    {
      double total = 0;
      g_autofree char *in_all = NULL;

      for (guint i = 0; i < n_ranges; i++)
        total += (double) (ranges[i].end - ranges[i].start);
      in_all = tv_format_wall_time (total / 1e6);
      /* Translators: heatmap cells selected: how many ranges of time,
       * from, to (seconds after the first sample), and their time in all
       * ("800 ms of wall time"). */
      description = g_strdup_printf (_("%u ranges from %s s to %s s after the first sample, %s "
                                       "in all; percentages of each thread’s samples in them"),
                                     n_ranges, from, to, in_all);
    }
  adw_preferences_group_set_description (self->range_group, description);
  g_string_append_printf (self->range_text, "\n%s\n%s\n",
                          adw_preferences_group_get_title (self->range_group), description);

  /* Each row counts its samples when it is first shown (or sorted): a
   * bisection at each edge of each range, no work that grows with the
   * samples, nor, until a sort, with the threads. */
  rows = tv_thread_list_new_for_ranges (timeline, ranges, n_ranges);
  tv_properties_table_set_rows (&self->range_table, rows);
  tv_properties_fit_table (self->range_scroller, g_list_model_get_n_items (rows));
}

guint
tv_properties_get_n_range_rows (TvProperties *self)
{
  g_return_val_if_fail (TV_IS_PROPERTIES (self), 0);

  return tv_properties_table_get_n_rows (&self->range_table);
}

/* Scrolls the warnings to the top of the pane, once it has been laid
 * out: a pane just switched to has no allocation yet, so the focus alone
 * would not scroll it. */
static gboolean
reveal_warnings_tick (GtkWidget     *widget,
                      GdkFrameClock *clock,
                      gpointer       user_data)
{
  TvProperties *self = TV_PROPERTIES (widget);
  GtkScrolledWindow *scrolled = GTK_SCROLLED_WINDOW (adw_bin_get_child (ADW_BIN (self)));
  GtkWidget *viewport = gtk_scrolled_window_get_child (scrolled);
  GtkAdjustment *adjustment = gtk_scrolled_window_get_vadjustment (scrolled);
  graphene_point_t point;

  if (gtk_widget_get_height (GTK_WIDGET (self->warnings_group)) == 0
      && self->reveal_ticks++ < 10)
    return G_SOURCE_CONTINUE;
  self->reveal_tick = 0;
  /* The focus first: the viewport scrolls to it by what it knew of the
   * layout before the scroll below. */
  if (self->warning_rows->len > 0)
    gtk_widget_grab_focus (g_ptr_array_index (self->warning_rows, 0));
  if (gtk_widget_compute_point (GTK_WIDGET (self->warnings_group), viewport,
                                &GRAPHENE_POINT_INIT (0, 0), &point))
    gtk_adjustment_set_value (adjustment, gtk_adjustment_get_value (adjustment) + point.y);
  return G_SOURCE_REMOVE;
}

void
tv_properties_reveal_warnings (TvProperties *self)
{
  g_return_if_fail (TV_IS_PROPERTIES (self));

  if (self->reveal_tick != 0)
    return;
  self->reveal_ticks = 0;
  self->reveal_tick = gtk_widget_add_tick_callback (GTK_WIDGET (self), reveal_warnings_tick,
                                                    NULL, NULL);
}

char *
tv_properties_dup_text (TvProperties *self)
{
  g_return_val_if_fail (TV_IS_PROPERTIES (self), NULL);

  g_autoptr(GString) text = g_string_new (self->text->str);

  g_string_append (text, self->warnings_text->str);
  g_string_append (text, self->data_text->str);
  /* Nothing of the tables before the samples are in. */
  if (self->data_text->len > 0)
    {
      g_string_append_printf (text, "\n%s\n",
                              adw_preferences_group_get_title (self->threads_group));
      tv_properties_table_append_text (&self->thread_table, text);
    }
  if (self->range_text->len > 0)
    {
      g_string_append (text, self->range_text->str);
      tv_properties_table_append_text (&self->range_table, text);
    }
  return g_string_free (g_steal_pointer (&text), FALSE);
}

guint
tv_properties_get_n_thread_rows (TvProperties *self)
{
  g_return_val_if_fail (TV_IS_PROPERTIES (self), 0);

  return self->n_thread_rows;
}

static void
on_copy_clicked (TvProperties *self)
{
  g_autofree char *text = tv_properties_dup_text (self);

  gdk_clipboard_set_text (gtk_widget_get_clipboard (GTK_WIDGET (self)), text);
}

TvProfile *
tv_properties_get_profile (TvProperties *self)
{
  g_return_val_if_fail (TV_IS_PROPERTIES (self), NULL);

  return self->profile;
}

void
tv_properties_set_profile (TvProperties *self,
                           TvProfile    *profile)
{
  g_return_if_fail (TV_IS_PROPERTIES (self));
  g_return_if_fail (TV_IS_PROFILE (profile));
  /* The rows are built once; a pane shows one profile for its lifetime. */
  g_return_if_fail (self->profile == NULL);

  g_set_object (&self->profile, profile);
  show_metadata (self);
  gtk_widget_set_sensitive (GTK_WIDGET (self->copy_button), TRUE);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PROFILE]);
}

TvProperties *
tv_properties_new (void)
{
  return g_object_new (TV_TYPE_PROPERTIES, NULL);
}

static void
tv_properties_dispose (GObject *object)
{
  TvProperties *self = (TvProperties *)object;

  if (self->reveal_tick != 0)
    {
      gtk_widget_remove_tick_callback (GTK_WIDGET (self), self->reveal_tick);
      self->reveal_tick = 0;
    }
  gtk_widget_dispose_template (GTK_WIDGET (self), TV_TYPE_PROPERTIES);
  g_clear_object (&self->thread_table.rows);
  g_clear_object (&self->range_table.rows);
  g_clear_pointer (&self->range_timeline, tv_timeline_unref);
  g_clear_pointer (&self->ranges, g_free);
  g_clear_object (&self->profile);

  G_OBJECT_CLASS (tv_properties_parent_class)->dispose (object);
}

static void
tv_properties_finalize (GObject *object)
{
  TvProperties *self = (TvProperties *)object;

  g_string_free (self->text, TRUE);
  g_string_free (self->warnings_text, TRUE);
  g_clear_pointer (&self->warning_rows, g_ptr_array_unref);
  g_string_free (self->data_text, TRUE);
  g_string_free (self->range_text, TRUE);

  G_OBJECT_CLASS (tv_properties_parent_class)->finalize (object);
}

static void
tv_properties_get_property (GObject    *object,
                            guint       prop_id,
                            GValue     *value,
                            GParamSpec *pspec)
{
  TvProperties *self = TV_PROPERTIES (object);

  switch (prop_id)
    {
    case PROP_PROFILE:
      g_value_set_object (value, self->profile);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tv_properties_class_init (TvPropertiesClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tv_properties_dispose;
  object_class->finalize = tv_properties_finalize;
  object_class->get_property = tv_properties_get_property;

  properties[PROP_PROFILE] =
    g_param_spec_object ("profile", NULL, NULL, TV_TYPE_PROFILE,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/tachyonviewer/TachyonViewer/ui/tv-properties.ui");
  gtk_widget_class_bind_template_child (widget_class, TvProperties, file_group);
  gtk_widget_class_bind_template_child (widget_class, TvProperties, header_group);
  gtk_widget_class_bind_template_child (widget_class, TvProperties, footer_group);
  gtk_widget_class_bind_template_child (widget_class, TvProperties, stats_group);
  gtk_widget_class_bind_template_child (widget_class, TvProperties, warnings_group);
  gtk_widget_class_bind_template_child (widget_class, TvProperties, decoded_group);
  gtk_widget_class_bind_template_child (widget_class, TvProperties, threads_group);
  gtk_widget_class_bind_template_child (widget_class, TvProperties, threads_scroller);
  gtk_widget_class_bind_template_child (widget_class, TvProperties, threads_view);
  gtk_widget_class_bind_template_child (widget_class, TvProperties, range_group);
  gtk_widget_class_bind_template_child (widget_class, TvProperties, range_scroller);
  gtk_widget_class_bind_template_child (widget_class, TvProperties, range_view);
  gtk_widget_class_bind_template_child (widget_class, TvProperties, copy_button);
}

static void
tv_properties_init (TvProperties *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  self->text = g_string_new (NULL);
  self->warnings_text = g_string_new (NULL);
  self->warning_rows = g_ptr_array_new ();
  self->data_text = g_string_new (NULL);
  self->range_text = g_string_new (NULL);
  tv_properties_table_init (&self->thread_table, &tv_properties_thread_table, self->threads_view);
  tv_properties_table_init (&self->range_table, &tv_properties_range_table, self->range_view);
  gtk_widget_set_sensitive (GTK_WIDGET (self->copy_button), FALSE);
  g_signal_connect_swapped (self->copy_button, "clicked", G_CALLBACK (on_copy_clicked), self);
}
