/* test-threads.c: the window with one thread, eight and ten thousand
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every list of a profile's threads makes widgets for what it shows, not
 * for every thread: the flame graph's thread menu (it made a check button
 * per thread, a hundred thousand for the file of issue 15, when the
 * samples came in), the properties' table of the selected time range (a
 * label per cell), the comparison's thread menus.  Ten thousand threads
 * are written by the format library's writer at the start; the corpus
 * gives one (rec_cpu_mix.tach) and eight (rec_threads.tach).  The menus
 * and tables must also show and do what they did: the threads in the
 * timeline's order, a check that picks its thread, the counts of each
 * thread in the range.  The timeline's filter by thread id, which a worker
 * applies to the ten thousand lanes, shows the lanes it matches.
 * Screenshots of each, light and dark, go to TV_TEST_OUTPUT_DIR.
 */
#include <string.h>

#include <adwaita.h>
#include <glib/gstdio.h>

#include "format-test-util.h"
#include "tachyon-format.h"
#include "tv-flame-view.h"
#include "tv-profile-page.h"
#include "tv-properties.h"
#include "tv-thread-item.h"
#include "tv-timeline-view.h"
#include "ui-test-util.h"

#define MANY_THREADS 10000
/* GTK keeps up to 200 rows of a list view around, in view or not. */
#define MAX_ROWS     400

static TvApplication *application;
static char *many_dir;
static char *many_path;

static TvWindow *
get_window (void)
{
  return ui_test_get_window (GTK_APPLICATION (application));
}

/* Thread t has 1 + t % 3 samples, so that the display order (by samples)
 * is not the file's; thread 0 is the main thread. */
static const char *
many_threads_path (void)
{
  g_autoptr(GError) error = NULL;
  TachWriter *writer = NULL;
  TachError tach_error;
  guint32 frames[8];

  if (many_path != NULL)
    return many_path;
  many_dir = g_dir_make_tmp ("tv-test-threads-XXXXXX", &error);
  g_assert_no_error (error);
  many_path = g_build_filename (many_dir, "threads.tach", NULL);
  writer = format_test_writer_new (many_path, FALSE);
  format_test_intern_tasks (writer, G_N_ELEMENTS (frames), frames);
  for (guint t = 0; t < MANY_THREADS; t++)
    for (guint k = 0; k <= t % 3; k++)
      {
        guint8 status = t == 0 ? TACH_STATUS_MAIN_THREAD | TACH_STATUS_HAS_GIL
                                 | TACH_STATUS_ON_CPU
                        : t % 2 ? TACH_STATUS_ON_CPU : TACH_STATUS_GIL_REQUESTED;

        g_assert_cmpint (tach_writer_add_sample (writer, 100 + t, 0, 1001000 + 10 * t + k,
                                                 status, &frames[t % 8], 1, &tach_error),
                         ==, TACH_OK);
      }
  g_assert_cmpint (tach_writer_finish (writer, &tach_error), ==, TACH_OK);
  return many_path;
}

/* 64 threads, 24 of them idle (ui_test_write_threads_profile ()). */
static char *threads64_file;

static const char *
threads64_path (void)
{
  if (threads64_file == NULL)
    {
      many_threads_path ();
      threads64_file = g_build_filename (many_dir, "threads64.tach", NULL);
      ui_test_write_threads_profile (threads64_file, 64, 24);
    }
  return threads64_file;
}

static TvProfilePage *
open_page (const char *path)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  TvProfilePage *page;

  g_application_activate (G_APPLICATION (application));
  page = tv_window_open_file (get_window (), file);
  ui_test_wait_loaded (page);
  WAIT_UNTIL (tv_timeline_view_get_timeline (tv_profile_page_get_timeline_view (page)) != NULL,
              30000);
  return page;
}

static void
close_page (gpointer page)
{
  ui_test_close_page (get_window (), page);
  ui_test_spin (100);
}

static char *
corpus_path (const char *name)
{
  return g_build_filename (g_getenv ("TACH_TEST_DATA"), "valid", name, NULL);
}

static void
save_light_and_dark (GtkWidget  *widget,
                     const char *name)
{
  g_autofree char *light = g_strdup_printf ("%s-light.png", name);
  g_autofree char *dark = g_strdup_printf ("%s-dark.png", name);

  ui_test_set_dark (FALSE);
  ui_test_save_screenshot (widget, light, 400);
  ui_test_set_dark (TRUE);
  ui_test_save_screenshot (widget, dark, 600);
  ui_test_set_dark (FALSE);
  ui_test_spin (200);
}

/* ------------------------------------------------------------------------ */
/* The flame graph's thread menu                                             */
/* ------------------------------------------------------------------------ */

static GtkPopover *
open_thread_menu (TvFlameView *view)
{
  GtkMenuButton *button = GTK_MENU_BUTTON (
    gtk_widget_get_template_child (GTK_WIDGET (view), TV_TYPE_FLAME_VIEW, "threads_button"));
  GtkPopover *popover = gtk_menu_button_get_popover (button);

  gtk_menu_button_popup (button);
  WAIT_UNTIL (gtk_widget_get_mapped (GTK_WIDGET (popover)), 5000);
  ui_test_spin (200);
  return popover;
}

/* The menu's check buttons in view, and the thread index of each. */
static GPtrArray *
thread_checks (GtkPopover *popover)
{
  GPtrArray *checks = g_ptr_array_new ();

  ui_test_collect_widgets (GTK_WIDGET (popover), GTK_TYPE_CHECK_BUTTON, checks);
  return checks;
}

static guint32
check_thread (GtkWidget *check)
{
  return GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (check), "thread"));
}

static void
check_thread_menu (const char *path,
                   const char *screenshot)
{
  TvProfilePage *page = open_page (path);
  TvFlameView *view = tv_profile_page_get_flame_view (page);
  TvViewState *state = tv_profile_page_get_view_state (page);
  TvProfileData *data = tv_profile_get_data (tv_profile_page_get_profile (page));
  guint n_threads = tv_profile_data_get_n_threads (data);
  const guint32 *order = tv_profile_data_get_thread_order (data);
  g_autoptr(GPtrArray) checks = NULL;
  GtkListView *list;
  GListModel *model;
  GtkPopover *popover;
  const guint32 *threads;
  guint n, before;

  /* Nothing of the menu before it opens: it made every row when the
   * samples came in. */
  before = ui_test_count_widgets (GTK_WIDGET (page), GTK_TYPE_CHECK_BUTTON);
  g_test_message ("%u threads: %u check buttons before the menu opens", n_threads, before);
  g_assert_cmpuint (before, <, 10);

  popover = open_thread_menu (view);
  checks = thread_checks (popover);
  g_test_message ("%u threads: %u check buttons in the menu", n_threads, checks->len);
  g_assert_cmpuint (checks->len, >=, MIN (n_threads, 8));
  g_assert_cmpuint (checks->len, <=, MIN (n_threads, MAX_ROWS));
  g_assert_cmpuint (ui_test_count_widgets (GTK_WIDGET (page), GTK_TYPE_CHECK_BUTTON), <,
                    MAX_ROWS + 10);

  /* Every thread, in the timeline's order: the main thread first. */
  list = GTK_LIST_VIEW (gtk_widget_get_template_child (GTK_WIDGET (view), TV_TYPE_FLAME_VIEW,
                                                       "threads_list"));
  model = G_LIST_MODEL (gtk_list_view_get_model (list));
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, n_threads);
  for (guint p = 0; p < MIN (n_threads, 50); p++)
    {
      g_autoptr(TvThreadItem) item = g_list_model_get_item (model, p);

      g_assert_cmpuint (tv_thread_item_get_thread (item)->index, ==, order[p]);
    }
  g_assert_cmpuint (tv_timeline_get_order (tv_timeline_view_get_timeline (
    tv_profile_page_get_timeline_view (page)), &n)[0], ==, order[0]);
  for (guint i = 0; i < checks->len; i++)
    {
      GtkWidget *check = g_ptr_array_index (checks, i);
      const TvThread *t = tv_profile_data_get_thread (data, check_thread (check));
      g_autofree char *id = g_strdup_printf ("Thread %" G_GUINT64_FORMAT " ", t->thread_id);

      g_assert_true (g_str_has_prefix (gtk_check_button_get_label (GTK_CHECK_BUTTON (check)),
                                       id));
      g_assert_false (gtk_check_button_get_active (GTK_CHECK_BUTTON (check)));
    }
  {
    const TvThread *first = tv_profile_data_get_thread (data, order[0]);
    GtkWidget *check = NULL;

    for (guint i = 0; i < checks->len; i++)
      if (check_thread (g_ptr_array_index (checks, i)) == order[0])
        check = g_ptr_array_index (checks, i);
    g_assert_nonnull (check);
    if (first->status_counts[5] > 0)
      g_assert_nonnull (strstr (gtk_check_button_get_label (GTK_CHECK_BUTTON (check)),
                                ", main):"));
  }

  if (screenshot != NULL)
    save_light_and_dark (GTK_WIDGET (popover), screenshot);

  /* A check picks its thread, a second one adds its own, and unchecked
   * the first, the second stays. */
  if (checks->len >= 2)
    {
      GtkCheckButton *a = g_ptr_array_index (checks, 0);
      GtkCheckButton *b = g_ptr_array_index (checks, 1);
      guint32 ta = check_thread (GTK_WIDGET (a)), tb = check_thread (GTK_WIDGET (b));

      gtk_check_button_set_active (a, TRUE);
      threads = tv_view_state_get_threads (state, &n);
      g_assert_cmpuint (n, ==, 1);
      g_assert_cmpuint (threads[0], ==, ta);
      gtk_check_button_set_active (b, TRUE);
      g_assert_cmpuint (tv_view_state_get_threads (state, &n) != NULL, ==, TRUE);
      g_assert_cmpuint (n, ==, 2);
      g_assert_true (tv_view_state_has_thread (state, ta) && tv_view_state_has_thread (state, tb));
      gtk_check_button_set_active (a, FALSE);
      threads = tv_view_state_get_threads (state, &n);
      g_assert_cmpuint (n, ==, 1);
      g_assert_cmpuint (threads[0], ==, tb);

      /* Whoever changes the threads, the checks in view follow. */
      tv_view_state_set_threads (state, &ta, 1);
      g_assert_true (gtk_check_button_get_active (a));
      g_assert_false (gtk_check_button_get_active (b));
      tv_view_state_set_threads (state, NULL, 0);
      g_assert_false (gtk_check_button_get_active (a));
      threads = tv_view_state_get_threads (state, &n);
      g_assert_cmpuint (n, ==, 0);
    }

  gtk_popover_popdown (popover);
  WAIT_UNTIL (!gtk_widget_get_mapped (GTK_WIDGET (popover)), 5000);
  close_page (page);
}

static void
test_thread_menu_many (void)
{
  check_thread_menu (many_threads_path (), "threads-menu-10000");
}

static void
test_thread_menu_corpus (void)
{
  g_autofree char *one = corpus_path ("rec_cpu_mix.tach");
  g_autofree char *eight = corpus_path ("rec_threads.tach");

  check_thread_menu (one, "threads-menu-1");
  check_thread_menu (eight, "threads-menu-8");
}

/* ------------------------------------------------------------------------ */
/* The properties' table of the selected time range                         */
/* ------------------------------------------------------------------------ */

/* The line "Copy as Text" gives THREAD's row of the range table. */
static char *
range_row (TvTimeline        *timeline,
           guint              lane,
           const TvTimeRange *range)
{
  TvTimelineColumn counts;
  guint64 n = tv_timeline_count_ranges (timeline, lane, range, 1, &counts);

  return g_strdup_printf ("\n  %" G_GUINT64_FORMAT "\t %" G_GUINT64_FORMAT "\t",
                          tv_timeline_get_lane (timeline, lane)->thread_id, n);
}

static void
check_range_table (const char *path,
                   const char *screenshot)
{
  TvProfilePage *page = open_page (path);
  TvViewState *state = tv_profile_page_get_view_state (page);
  TvProperties *properties = tv_profile_page_get_properties (page);
  TvTimeline *timeline = tv_timeline_view_get_timeline (tv_profile_page_get_timeline_view (page));
  guint n_lanes = tv_timeline_get_n_lanes (timeline);
  GtkWidget *range_view = (GtkWidget *) gtk_widget_get_template_child (
    GTK_WIDGET (properties), TV_TYPE_PROPERTIES, "range_view");
  g_autofree char *text = NULL;
  guint64 first, last;
  TvTimeRange range;
  guint n_order, n_labels;
  const guint32 *order = tv_timeline_get_order (timeline, &n_order);

  g_assert_true (GTK_IS_COLUMN_VIEW (range_view));
  /* The middle half of the profile. */
  g_assert_true (tv_timeline_get_span (timeline, &first, &last));
  range.start = first + (last - first) / 4;
  range.end = first + (last - first) * 3 / 4 + 1;
  tv_view_state_set_range (state, range.start, range.end);
  g_assert_cmpuint (tv_properties_get_n_range_rows (properties), ==, n_lanes);

  tv_profile_page_show_view (page, "properties");
  WAIT_UNTIL (gtk_widget_get_mapped (range_view) && gtk_widget_get_height (range_view) > 0, 5000);
  ui_test_spin (200);
  /* A label a cell in view: a grid of every cell was 60,000 labels for
   * ten thousand threads. */
  n_labels = ui_test_count_widgets (range_view, GTK_TYPE_LABEL);
  g_test_message ("%u threads: %u labels in the range table", n_lanes, n_labels);
  g_assert_cmpuint (n_labels, >=, 6 * MIN (n_lanes, 8));
  g_assert_cmpuint (n_labels, <, 6 * (MAX_ROWS + 10));
  g_assert_cmpuint (g_list_model_get_n_items (
    G_LIST_MODEL (gtk_column_view_get_model (GTK_COLUMN_VIEW (range_view)))), ==, n_lanes);

  /* The rows in the timeline's order, with each thread's counts. */
  text = tv_properties_dup_text (properties);
  g_assert_nonnull (strstr (text, "Threads in the Selected Time Range"));
  {
    const char *table = strstr (text, "Threads in the Selected Time Range");
    const char *at = table;

    for (guint p = 0; p < MIN (n_order, 30); p++)
      {
        g_autofree char *row = range_row (timeline, order[p], &range);
        const char *found = strstr (at, row);

        g_assert_nonnull (found);
        at = found + 1;
      }
  }
  if (n_lanes > 1000)
    {
      g_autofree char *more = g_strdup_printf ("… and %u more threads, not copied\n",
                                               n_lanes - 1000);
      g_autofree char *past = range_row (timeline, order[1000], &range);
      const char *table = strstr (text, "Threads in the Selected Time Range");

      g_assert_nonnull (strstr (table, more));
      g_assert_null (strstr (table, past));
    }

  if (screenshot != NULL)
    {
      GtkAdjustment *adjustment = gtk_scrolled_window_get_vadjustment (
        GTK_SCROLLED_WINDOW (adw_bin_get_child (ADW_BIN (properties))));

      gtk_adjustment_set_value (adjustment, gtk_adjustment_get_upper (adjustment));
      save_light_and_dark (GTK_WIDGET (get_window ()), screenshot);
    }

  /* Sorted by samples in the range, most first; another change of the
   * view state (the merge key) keeps the table as it is. */
  {
    g_autoptr(GtkColumnViewColumn) column =
      g_list_model_get_item (gtk_column_view_get_columns (GTK_COLUMN_VIEW (range_view)), 1);
    g_autoptr(TvThreadItem) top = NULL;
    GListModel *rows = G_LIST_MODEL (gtk_column_view_get_model (GTK_COLUMN_VIEW (range_view)));
    guint64 most = 0;

    for (guint i = 0; i < n_lanes; i++)
      most = MAX (most, tv_timeline_count_range (timeline, i, range.start, range.end, NULL));
    gtk_column_view_sort_by_column (GTK_COLUMN_VIEW (range_view), column, GTK_SORT_DESCENDING);
    WAIT_UNTIL (({ g_autoptr(TvThreadItem) item = g_list_model_get_item (rows, 0);
                   tv_thread_item_get_range_counts (item)->samples == most; }), 20000);
    tv_view_state_set_merge (state, TV_MERGE_LINE);
    ui_test_spin (100);
    top = g_list_model_get_item (rows, 0);
    g_assert_cmpuint (tv_thread_item_get_range_counts (top)->samples, ==, most);
    tv_view_state_set_merge (state, TV_MERGE_FUNCTION);
  }

  /* No range, no table. */
  tv_view_state_clear_range (state);
  g_assert_cmpuint (tv_properties_get_n_range_rows (properties), ==, 0);
  g_free (text);
  text = tv_properties_dup_text (properties);
  g_assert_null (strstr (text, "Threads in the Selected Time Range"));
  tv_profile_page_show_view (page, "flamegraph");
  close_page (page);
}

static void
test_range_table_many (void)
{
  check_range_table (many_threads_path (), "threads-range-10000");
}

static void
test_range_table_corpus (void)
{
  g_autofree char *one = corpus_path ("rec_cpu_mix.tach");
  g_autofree char *eight = corpus_path ("rec_threads.tach");

  check_range_table (one, "threads-range-1");
  check_range_table (eight, "threads-range-8");
}

/* ------------------------------------------------------------------------ */
/* The timeline's lanes                                                      */
/* ------------------------------------------------------------------------ */

static GtkEditable *
find_filter_entry (TvTimelineView *view)
{
  g_autoptr(GPtrArray) entries = g_ptr_array_new ();

  ui_test_collect_widgets (GTK_WIDGET (view), GTK_TYPE_SEARCH_ENTRY, entries);
  g_assert_cmpuint (entries->len, ==, 1);
  return GTK_EDITABLE (g_ptr_array_index (entries, 0));
}

static guint
n_lanes_shown (TvTimelineView *view)
{
  TvTimeline *timeline = tv_timeline_view_get_timeline (view);
  guint n = 0;

  /* A lane without a row has no rectangle, in view or not. */
  for (guint i = 0; i < tv_timeline_get_n_lanes (timeline); i++)
    {
      graphene_rect_t rect;

      n += tv_timeline_view_get_lane_rect (view, i, &rect);
    }
  return n;
}

/* Filtering ten thousand lanes by id: the lanes whose id has the text,
 * found on a worker, and all of them again when it is cleared; a thread
 * picked stays picked. */
static void
test_timeline_filter (void)
{
  TvProfilePage *page = open_page (many_threads_path ());
  TvTimelineView *view = tv_profile_page_get_timeline_view (page);
  TvTimeline *timeline = tv_timeline_view_get_timeline (view);
  TvViewState *state = tv_profile_page_get_view_state (page);
  GtkEditable *entry = find_filter_entry (view);
  guint n = tv_timeline_get_n_lanes (timeline), expected = 0;
  guint32 picked = 0;

  WAIT_UNTIL (n_lanes_shown (view) == n, 5000);
  /* Thread ids 100 to 10099: "777" is in 777, 1777 ... 9777 and 7770 to
   * 7779, and in the hexadecimal 0x777 (1911) ... 0x2777 (10103). */
  for (guint i = 0; i < n; i++)
    if (tv_timeline_lane_matches (timeline, i, "777", "main"))
      {
        expected++;
        picked = i;
      }
  g_assert_cmpuint (expected, >=, 19);
  g_assert_cmpuint (expected, <, 40);
  tv_view_state_set_threads (state, &picked, 1);
  gtk_editable_set_text (entry, "777");
  WAIT_UNTIL (n_lanes_shown (view) == expected, 10000);
  for (guint i = 0; i < n; i++)
    {
      graphene_rect_t rect;

      g_assert_cmpint (tv_timeline_view_get_lane_rect (view, i, &rect), ==,
                       tv_timeline_lane_matches (timeline, i, "777", "main"));
    }
  save_light_and_dark (GTK_WIDGET (view), "threads-timeline-filter-10000");
  gtk_editable_set_text (entry, "");
  WAIT_UNTIL (n_lanes_shown (view) == n, 10000);
  g_assert_true (tv_view_state_has_thread (state, picked));
  tv_view_state_set_threads (state, NULL, 0);
  close_page (page);
}

/* The timeline of each, light and dark, to look at. */
static void
test_timeline_screenshots (void)
{
  g_autofree char *one = corpus_path ("rec_cpu_mix.tach");
  g_autofree char *eight = corpus_path ("rec_threads.tach");
  struct { const char *path; const char *name; } files[] = {
    { one, "threads-window-1" },
    { eight, "threads-window-8" },
    { threads64_path (), "threads-window-64" },
    { many_threads_path (), "threads-window-10000" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (files); i++)
    {
      TvProfilePage *page = open_page (files[i].path);

      save_light_and_dark (GTK_WIDGET (get_window ()), files[i].name);
      close_page (page);
    }
}

/* The rows of VIEW's lanes (the folded row too) that show whole, not
 * scrolled, and how many there are in all. */
static guint
count_shown_rows (TvTimelineView *view,
                  guint          *n_rows)
{
  TvTimeline *timeline = tv_timeline_view_get_timeline (view);
  graphene_rect_t rect, legend;
  double top = G_MAXDOUBLE;
  guint shown = 0;

  g_assert_cmpfloat (gtk_adjustment_get_value (tv_timeline_view_get_vadjustment (view)), ==, 0);
  g_assert_true (tv_timeline_view_get_legend_rect (view, TV_TIMELINE_STATE_RUNNING, &legend));
  *n_rows = 0;
  for (guint lane = 0; lane < tv_timeline_get_n_lanes (timeline); lane++)
    if (tv_timeline_view_get_lane_rect (view, lane, &rect))
      top = MIN (top, rect.origin.y);
  for (guint lane = 0; lane <= tv_timeline_get_n_lanes (timeline); lane++)
    {
      gboolean has = lane < tv_timeline_get_n_lanes (timeline)
                     ? tv_timeline_view_get_lane_rect (view, lane, &rect)
                     : tv_timeline_view_get_folded_rect (view, &rect);

      if (!has)
        continue;
      (*n_rows)++;
      shown += rect.origin.y >= top && rect.origin.y + rect.size.height < legend.origin.y;
    }
  return shown;
}

/* The timeline is as high as its lanes (eight at most) until its handle
 * is moved; then every page opens it as high, which GSettings keeps. */
static void
test_timeline_splitter (void)
{
  g_autoptr(GSettings) settings = g_settings_new ("io.github.tachyonviewer.TachyonViewer");
  g_autofree char *one = corpus_path ("rec_recursive.tach");
  g_autofree char *eight = corpus_path ("rec_threads.tach");
  const char *paths[] = { one, eight, threads64_path () };
  int natural = 0, moved = 0;

  g_settings_set_int (settings, "timeline-height", 0);
  for (guint i = 0; i < G_N_ELEMENTS (paths); i++)
    {
      TvProfilePage *page = open_page (paths[i]);
      TvTimelineView *view = tv_profile_page_get_timeline_view (page);
      GtkAdjustment *adjustment = tv_timeline_view_get_vadjustment (view);
      guint n_rows, shown;

      WAIT_UNTIL (gtk_widget_get_mapped (GTK_WIDGET (view))
                  && gtk_widget_get_height (GTK_WIDGET (view)) > 0, 5000);
      ui_test_spin (200);
      gtk_widget_measure (GTK_WIDGET (view), GTK_ORIENTATION_VERTICAL,
                          gtk_widget_get_width (GTK_WIDGET (view)), NULL, &natural, NULL, NULL);
      shown = count_shown_rows (view, &n_rows);
      g_test_message ("%s: %u rows, %u shown, the timeline %d px high (natural %d)", paths[i],
                      n_rows, shown, gtk_widget_get_height (GTK_WIDGET (view)), natural);
      g_assert_cmpint (gtk_widget_get_height (GTK_WIDGET (view)), ==, natural);
      g_assert_cmpuint (shown, ==, MIN (n_rows, 8));
      if (n_rows <= 8)
        g_assert_cmpfloat (gtk_adjustment_get_upper (adjustment), <=,
                           gtk_adjustment_get_page_size (adjustment));
      else
        g_assert_cmpfloat (gtk_adjustment_get_upper (adjustment), >,
                           gtk_adjustment_get_page_size (adjustment));
      g_assert_cmpint (g_settings_get_int (settings, "timeline-height"), ==, 0);
      if (i < G_N_ELEMENTS (paths) - 1)
        close_page (page);
      else
        {
          g_autoptr(GPtrArray) entries = g_ptr_array_new ();
          int height = gtk_widget_get_height (GTK_WIDGET (view));

          /* A filter that keeps one lane leaves the pane as high. */
          ui_test_collect_widgets (GTK_WIDGET (view), GTK_TYPE_SEARCH_ENTRY, entries);
          g_assert_cmpuint (entries->len, ==, 1);
          gtk_editable_set_text (GTK_EDITABLE (entries->pdata[0]), "1001");
          WAIT_UNTIL ((count_shown_rows (view, &n_rows), n_rows == 1), 5000);
          ui_test_spin (100);
          g_assert_cmpint (gtk_widget_get_height (GTK_WIDGET (view)), ==, height);
          gtk_editable_set_text (GTK_EDITABLE (entries->pdata[0]), "");
          WAIT_UNTIL ((count_shown_rows (view, &n_rows), n_rows == 41), 5000);

          /* The user drags the handle down. */
          GtkWidget *paned = gtk_widget_get_parent (GTK_WIDGET (view));

          g_assert_true (GTK_IS_PANED (paned));
          moved = natural + 50;
          gtk_paned_set_position (GTK_PANED (paned), moved);
          ui_test_spin (100);
          g_assert_cmpint (gtk_widget_get_height (GTK_WIDGET (view)), ==, moved);
          g_assert_cmpint (g_settings_get_int (settings, "timeline-height"), ==, moved);
          shown = count_shown_rows (view, &n_rows);
          g_assert_cmpuint (shown, >, 8);
          /* A window too low for it squeezes the timeline, but what the
           * user chose is kept. */
          {
            GtkWindow *window = GTK_WINDOW (get_window ());
            int win_width, win_height;

            gtk_window_get_default_size (window, &win_width, &win_height);
            gtk_window_set_default_size (window, win_width, win_height - 250);
            WAIT_UNTIL (gtk_paned_get_position (GTK_PANED (paned)) < moved, 5000);
            g_test_message ("in a window 250 px lower: %d px",
                            gtk_paned_get_position (GTK_PANED (paned)));
            g_assert_cmpint (g_settings_get_int (settings, "timeline-height"), ==, moved);
            gtk_window_set_default_size (window, win_width, win_height);
            ui_test_spin (300);
          }
          close_page (page);
        }
    }

  /* The next page opens the timeline as high, for few threads too. */
  {
    TvProfilePage *page = open_page (eight);
    TvTimelineView *view = tv_profile_page_get_timeline_view (page);

    WAIT_UNTIL (gtk_widget_get_mapped (GTK_WIDGET (view))
                && gtk_widget_get_height (GTK_WIDGET (view)) > 0, 5000);
    ui_test_spin (200);
    g_assert_cmpint (gtk_widget_get_height (GTK_WIDGET (view)), ==, moved);
    g_assert_cmpint (gtk_paned_get_position (GTK_PANED (gtk_widget_get_parent (GTK_WIDGET (view)))),
                     ==, moved);
    close_page (page);
  }
  g_settings_set_int (settings, "timeline-height", 0);
}

/* ------------------------------------------------------------------------ */
/* The comparison's thread menus                                             */
/* ------------------------------------------------------------------------ */

/* The comparison of the ten thousand threads with themselves: each
 * side's menu is "All Threads" and every thread in the timeline's order,
 * its items made as the menu asks; picking one shows that thread. */
static void
test_compare_menus (void)
{
  g_autoptr(GFile) file = g_file_new_for_path (many_threads_path ());
  g_autoptr(GPtrArray) menus = g_ptr_array_new ();
  TvComparePage *page;
  guint n_menus = 0;

  g_application_activate (G_APPLICATION (application));
  page = tv_window_open_comparison (get_window (), file, file);
  WAIT_UNTIL (tv_compare_page_get_state (page) != TV_COMPARE_PAGE_LOADING
              && !tv_compare_page_is_busy (page), 60000);
  g_assert_cmpint (tv_compare_page_get_state (page), ==, TV_COMPARE_PAGE_READY);
  ui_test_collect_widgets (GTK_WIDGET (page), GTK_TYPE_DROP_DOWN, menus);
  tv_compare_page_set_link_filters (page, FALSE);
  for (guint m = 0; m < menus->len; m++)
    {
      GtkDropDown *menu = g_ptr_array_index (menus, m);
      GListModel *items = gtk_drop_down_get_model (menu);
      TvDiffSide side;
      TvProfileData *data;
      const guint32 *order, *threads;
      guint n;

      if (g_list_model_get_n_items (items) != MANY_THREADS + 1)
        continue;
      side = n_menus++ == 0 ? TV_DIFF_SIDE_BASE : TV_DIFF_SIDE_NEW;
      data = tv_profile_get_data (tv_compare_page_get_profile (page, side));
      order = tv_profile_data_get_thread_order (data);
      {
        g_autoptr(GtkStringObject) all = g_list_model_get_item (items, 0);
        g_autoptr(GtkStringObject) main_thread = g_list_model_get_item (items, 1);
        g_autoptr(GtkStringObject) last = g_list_model_get_item (items, MANY_THREADS);
        g_autofree char *last_label = g_strdup_printf (
          "Thread %" G_GUINT64_FORMAT,
          tv_profile_data_get_thread (data, order[MANY_THREADS - 1])->thread_id);

        g_assert_cmpstr (gtk_string_object_get_string (all), ==, "All Threads");
        g_assert_cmpstr (gtk_string_object_get_string (main_thread), ==, "Main thread 100");
        g_assert_cmpstr (gtk_string_object_get_string (last), ==, last_label);
      }
      gtk_drop_down_set_selected (menu, 3);
      threads = tv_view_state_get_threads (tv_compare_page_get_view_state (page, side), &n);
      g_assert_cmpuint (n, ==, 1);
      g_assert_cmpuint (threads[0], ==, order[2]);
      gtk_drop_down_set_selected (menu, 0);
      tv_view_state_get_threads (tv_compare_page_get_view_state (page, side), &n);
      g_assert_cmpuint (n, ==, 0);
    }
  g_assert_cmpuint (n_menus, ==, 2);
  close_page (page);
}

int
main (int   argc,
      char *argv[])
{
  int ret;

  if (!ui_test_init (&argc, &argv))
    return 77;

  g_test_add_func ("/threads/menu/corpus", test_thread_menu_corpus);
  g_test_add_func ("/threads/menu/many", test_thread_menu_many);
  g_test_add_func ("/threads/range-table/corpus", test_range_table_corpus);
  g_test_add_func ("/threads/range-table/many", test_range_table_many);
  g_test_add_func ("/threads/timeline/filter", test_timeline_filter);
  g_test_add_func ("/threads/timeline/splitter", test_timeline_splitter);
  g_test_add_func ("/threads/timeline/screenshots", test_timeline_screenshots);
  g_test_add_func ("/threads/compare/menus", test_compare_menus);
  ret = ui_test_run_in_application (&application, FALSE);
  if (many_path != NULL)
    {
      g_remove (many_path);
      if (threads64_file != NULL)
        g_remove (threads64_file);
      g_rmdir (many_dir);
    }
  g_free (many_path);
  g_free (threads64_file);
  g_free (many_dir);
  return ret;
}
