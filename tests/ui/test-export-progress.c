/* test-export-progress.c: an export's progress bar and its Cancel button
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A real export through win.export's save dialog, of a profile written
 * here whose tree has some half a million nodes.  The bar shows once an
 * export takes 200 ms; $TV_PROGRESS_DELAY_MS=0 shows it at once, so that
 * nothing here depends on how fast the machine is.  The bar appears under
 * the page's own, its fraction only grows within [0, 1], the export writes
 * the bytes the exporter makes, and the bar goes once it is done; its
 * Cancel stops the export and leaves no file, nor a temporary one; and a
 * comparison's export does the same.  A view being computed can be
 * cancelled too, back to the one on screen.
 * A screenshot goes to TV_TEST_OUTPUT_DIR.
 */
#include <string.h>

#include <adwaita.h>
#include <glib/gstdio.h>

#include "format-test-util.h"
#include "tachyon-format.h"
#include "tv-application.h"
#include "tv-compare-page.h"
#include "tv-export-html.h"
#include "tv-flame-view.h"
#include "tv-window.h"
#include "ui-test-util.h"

static TvApplication *application;
static char *dir;
static char *profile_path;

static TvWindow *
get_window (void)
{
  return ui_test_get_window (GTK_APPLICATION (application));
}

/* N_SAMPLES samples in 8 threads, random stacks 4 to 16 deep over 4096
 * functions: nearly every sample is a new path. */
static void
write_profile (const char *path,
               guint       n_samples)
{
  TachWriterOptions options = { .sample_interval_us = 1000, .start_time_us = 1000000,
                                .mode_raw = 1 };

  format_test_write_random_stacks (path, &options, n_samples, n_samples, 0, 3);
}

static TvProfilePage *
open_profile (void)
{
  g_autoptr(GFile) file = g_file_new_for_path (profile_path);
  TvProfilePage *page;
  TvFlameView *view;

  /* By the test's child process, in its own folder. */
  write_profile (profile_path, 60000);
  page = tv_window_open_file (get_window (), file);

  WAIT_UNTIL (tv_profile_page_get_state (page) == TV_PROFILE_PAGE_LOADED, 60000);
  view = tv_profile_page_get_flame_view (page);
  WAIT_UNTIL (!tv_flame_view_is_busy (view)
              && tv_flame_graph_get_layout (tv_flame_view_get_graph (view)) != NULL, 60000);
  return page;
}

/* Where the page puts its exports' bars. */
static GtkWidget *
progress_area (TvProfilePage *page)
{
  GObject *area = gtk_widget_get_template_child (GTK_WIDGET (page), TV_TYPE_PROFILE_PAGE,
                                                 "export_progress_box");

  g_assert_nonnull (area);
  return GTK_WIDGET (area);
}

/* The first descendant of WIDGET of TYPE, or NULL. */
static GtkWidget *
find_descendant (GtkWidget *widget,
                 GType      type)
{
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found;

      if (G_TYPE_CHECK_INSTANCE_TYPE (child, type))
        return child;
      if ((found = find_descendant (child, type)) != NULL)
        return found;
    }
  return NULL;
}

/* Asks win.export's dialog to export to NAME in the test's folder, as a
 * click on its Export button does, and returns the export's row in AREA
 * as soon as the dialog's answer has started it. */
static GtkWidget *
export_through_dialog (GtkWidget  *area,
                       const char *name)
{
  g_autoptr(GFile) folder = g_file_new_for_path (dir);
  g_autoptr(GFile) typed = g_file_get_child (folder, name);
  GListModel *toplevels = gtk_window_get_toplevels ();
  guint n_before = g_list_model_get_n_items (toplevels);
  g_autoptr(GListModel) filters = NULL;
  GtkWidget *dialog;

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (get_window ()), "win.export", NULL));
  WAIT_UNTIL (g_list_model_get_n_items (toplevels) > n_before, 5000);
  dialog = ui_test_find_file_chooser ();
  g_assert_nonnull (dialog);
  /* The filter of NAME's extension, so that the name is kept. */
  filters = gtk_file_chooser_get_filters (GTK_FILE_CHOOSER (dialog));
  for (guint j = 0; j < g_list_model_get_n_items (filters); j++)
    {
      g_autoptr(GtkFileFilter) filter = g_list_model_get_item (filters, j);
      const char *extension = g_object_get_data (G_OBJECT (filter), "extension");

      if (g_str_has_suffix (name, extension))
        gtk_file_chooser_set_filter (GTK_FILE_CHOOSER (dialog), filter);
    }
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (dialog), name);
  WAIT_UNTIL (ui_test_chooser_has_file (dialog, typed), 10000);
  g_assert_true (gtk_widget_activate (gtk_window_get_default_widget (GTK_WINDOW (dialog))));
  WAIT_UNTIL (gtk_widget_get_first_child (area) != NULL, 10000);
  return gtk_widget_get_first_child (area);
}

static void
on_fraction (GtkProgressBar *bar,
             GParamSpec     *pspec,
             GArray         *fractions)
{
  double fraction = gtk_progress_bar_get_fraction (bar);

  g_array_append_val (fractions, fraction);
}

/* The names in the test's folder other than the profile's. */
static char *
dup_other_files (void)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  g_autoptr(GString) names = g_string_new (NULL);
  const char *name;

  g_assert_nonnull (d);
  while ((name = g_dir_read_name (d)) != NULL)
    if (strcmp (name, "deep.tach") != 0)
      g_string_append_printf (names, "%s%s", names->len > 0 ? ", " : "", name);
  return g_string_free (g_steal_pointer (&names), FALSE);
}

/* The bar shows, grows and goes; the file is the exporter's. */
static void
test_progress (void)
{
  g_autofree char *dest = g_build_filename (dir, "deep.html", NULL);
  g_autoptr(GArray) fractions = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GBytes) want = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *written = NULL;
  g_autofree char *others = NULL;
  g_autoptr(TvViewState) state = tv_view_state_new ();
  gsize written_len;
  TvProfilePage *page;
  GtkWidget *area;
  GtkWidget *row;
  GtkWidget *bar;
  double last = 0.0;

  if (ui_test_trap_without_leak_checks (300))
    return;

  page = open_profile ();
  area = progress_area (page);
  g_assert_null (gtk_widget_get_first_child (area));
  row = export_through_dialog (area, "deep.html");

  /* At once with no delay. */
  g_assert_true (gtk_widget_has_css_class (row, "export-progress"));
  g_assert_true (gtk_widget_get_visible (row));
  g_assert_true (gtk_widget_get_mapped (row));
  bar = find_descendant (row, GTK_TYPE_PROGRESS_BAR);
  g_assert_nonnull (bar);
  g_assert_nonnull (find_descendant (row, GTK_TYPE_BUTTON));
  g_assert_true (g_str_has_prefix (gtk_progress_bar_get_text (GTK_PROGRESS_BAR (bar)),
                                   "Exporting “deep.html”: "));
  on_fraction (GTK_PROGRESS_BAR (bar), NULL, fractions);
  g_signal_connect (bar, "notify::fraction", G_CALLBACK (on_fraction), fractions);
  /* (Once the export is over, it may show without the bar.) */
  ui_test_save_screenshot (GTK_WIDGET (get_window ()), "export-progress.png", 0);

  /* Gone once the file is written. */
  WAIT_UNTIL (gtk_widget_get_first_child (area) == NULL, 120000);
  g_assert_true (g_file_test (dest, G_FILE_TEST_EXISTS));
  g_test_message ("%u fractions seen", fractions->len);
  for (guint i = 0; i < fractions->len; i++)
    {
      double f = g_array_index (fractions, double, i);

      g_test_message ("fraction %.3f", f);
      g_assert_cmpfloat (f, >=, 0.0);
      g_assert_cmpfloat (f, <=, 1.0);
      g_assert_cmpfloat (f, >=, last);
      last = f;
    }

  /* The bytes the exporter makes of what the page shows (everything). */
  want = tv_export_html_build (tv_profile_get_data (tv_profile_page_get_profile (page)),
                               state, "deep.tach", NULL, &error);
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (dest, &written, &written_len, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (written_len, ==, g_bytes_get_size (want));
  g_assert_true (memcmp (written, g_bytes_get_data (want, NULL), written_len) == 0);

  g_assert_cmpint (g_unlink (dest), ==, 0);
  others = dup_other_files ();
  g_assert_cmpstr (others, ==, "");
  ui_test_close_all_pages (get_window ());
}

/* Cancel stops the export: no bar, no file, no temporary, whether the
 * format is built in memory (HTML) or streamed into its file (Gecko). */
static void
test_cancel (void)
{
  static const char *const names[] = { "deep.html", "deep.gecko.json" };
  TvProfilePage *page;
  GtkWidget *area;

  if (ui_test_trap_without_leak_checks (300))
    return;

  page = open_profile ();
  area = progress_area (page);
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *dest = g_build_filename (dir, names[i], NULL);
      g_autofree char *others = NULL;
      GtkWidget *row;
      GtkWidget *cancel;

      /* As soon as it starts: the export of this profile takes a second
       * or more, the answer to its dialog one turn of the main loop. */
      row = export_through_dialog (area, names[i]);
      cancel = find_descendant (row, GTK_TYPE_BUTTON);
      g_assert_nonnull (cancel);
      g_assert_true (gtk_widget_get_sensitive (cancel));
      /* As a click does. */
      g_signal_emit_by_name (cancel, "clicked");
      g_assert_false (gtk_widget_get_sensitive (cancel));
      WAIT_UNTIL (gtk_widget_get_first_child (area) == NULL, 60000);
      ui_test_spin (200);
      g_assert_false (g_file_test (dest, G_FILE_TEST_EXISTS));
      others = dup_other_files ();
      g_assert_cmpstr (others, ==, "");
      g_test_message ("%s: cancelled, nothing written", names[i]);
    }

  /* The page is still usable: the same export again runs to its end. */
  {
    g_autofree char *dest = g_build_filename (dir, "deep.gecko.json", NULL);

    export_through_dialog (area, "deep.gecko.json");
    WAIT_UNTIL (gtk_widget_get_first_child (area) == NULL, 120000);
    g_assert_true (g_file_test (dest, G_FILE_TEST_EXISTS));
    g_assert_cmpint (g_unlink (dest), ==, 0);
  }
  ui_test_close_all_pages (get_window ());
}

/* A comparison's export has the same bar: Cancel stops it with nothing
 * written, and it runs to the end otherwise. */
static void
test_compare (void)
{
  g_autofree char *other = g_build_filename (dir, "deep-b.tach", NULL);
  g_autoptr(GFile) base = NULL;
  g_autoptr(GFile) new_file = NULL;
  g_autofree char *dest = g_build_filename (dir, "deep-vs-deep-b.html", NULL);
  g_autofree char *others = NULL;
  TvComparePage *page;
  GObject *area;
  GtkWidget *row;
  GtkWidget *cancel;

  if (ui_test_trap_without_leak_checks (300))
    return;

  write_profile (profile_path, 60000);
  write_profile (other, 50000);
  base = g_file_new_for_path (profile_path);
  new_file = g_file_new_for_path (other);
  page = tv_window_open_comparison (get_window (), base, new_file);
  WAIT_UNTIL (tv_compare_page_get_state (page) != TV_COMPARE_PAGE_LOADING
              && !tv_compare_page_is_busy (page), 120000);
  g_assert_cmpint (tv_compare_page_get_state (page), ==, TV_COMPARE_PAGE_READY);
  area = gtk_widget_get_template_child (GTK_WIDGET (page), TV_TYPE_COMPARE_PAGE,
                                        "export_progress_box");
  g_assert_nonnull (area);

  row = export_through_dialog (GTK_WIDGET (area), "deep-vs-deep-b.html");
  g_assert_true (gtk_widget_get_visible (row));
  cancel = find_descendant (row, GTK_TYPE_BUTTON);
  g_assert_nonnull (cancel);
  g_signal_emit_by_name (cancel, "clicked");
  WAIT_UNTIL (gtk_widget_get_first_child (GTK_WIDGET (area)) == NULL, 60000);
  ui_test_spin (200);
  g_assert_false (g_file_test (dest, G_FILE_TEST_EXISTS));
  others = dup_other_files ();
  g_assert_cmpstr (others, ==, "deep-b.tach");

  export_through_dialog (GTK_WIDGET (area), "deep-vs-deep-b.html");
  WAIT_UNTIL (gtk_widget_get_first_child (GTK_WIDGET (area)) == NULL, 120000);
  g_assert_true (g_file_test (dest, G_FILE_TEST_EXISTS));
  g_assert_cmpint (g_unlink (dest), ==, 0);
  g_assert_cmpint (g_unlink (other), ==, 0);
  ui_test_close_all_pages (get_window ());
}

/* A view being computed has the same bar, and a Cancel that goes back to
 * the choices of the tree on screen, which stays, with no new query; a
 * choice undone before its view is made does the same without a click. */
static void
test_view_cancel (void)
{
  TvProfilePage *page = open_profile ();
  TvFlameView *view = tv_profile_page_get_flame_view (page);
  TvFlameGraph *graph = tv_flame_view_get_graph (view);
  TvViewState *state = tv_flame_view_get_view_state (view);
  GtkToggleButton *inverted = GTK_TOGGLE_BUTTON (
    gtk_widget_get_template_child (GTK_WIDGET (view), TV_TYPE_FLAME_VIEW, "inverted_button"));
  GtkWidget *bar = find_descendant (GTK_WIDGET (view), GTK_TYPE_PROGRESS_BAR);
  GtkWidget *cancel;
  TvCallTree *shown = tv_flame_graph_get_tree (graph);
  g_autofree char *summary = g_strdup (tv_flame_view_get_summary (view));

  g_assert_nonnull (bar);
  cancel = gtk_widget_get_next_sibling (bar);
  g_assert_true (GTK_IS_BUTTON (cancel));
  g_assert_false (gtk_widget_get_visible (bar));
  g_assert_false (gtk_widget_get_visible (cancel));
  g_assert_false (gtk_toggle_button_get_active (inverted));

  /* Cancel, as a click does, before the query's answer can come in (it
   * comes through the main loop). */
  gtk_toggle_button_set_active (inverted, TRUE);
  g_assert_true (tv_view_state_get_inverted (state));
  g_assert_true (tv_flame_view_is_busy (view));
  g_signal_emit_by_name (cancel, "clicked");
  g_assert_false (tv_flame_view_is_busy (view));
  g_assert_false (tv_view_state_get_inverted (state));
  g_assert_false (gtk_toggle_button_get_active (inverted));
  g_assert_false (gtk_widget_get_visible (bar));
  g_assert_false (gtk_widget_get_visible (cancel));
  ui_test_spin (1000);
  g_assert_false (tv_flame_view_is_busy (view));
  g_assert_true (tv_flame_graph_get_tree (graph) == shown);
  g_assert_cmpstr (tv_flame_view_get_summary (view), ==, summary);

  /* Undone before it is made: no click needed, and nothing is computed. */
  gtk_toggle_button_set_active (inverted, TRUE);
  g_assert_true (tv_flame_view_is_busy (view));
  gtk_toggle_button_set_active (inverted, FALSE);
  g_assert_false (tv_flame_view_is_busy (view));
  ui_test_spin (1000);
  g_assert_false (tv_flame_view_is_busy (view));
  g_assert_true (tv_flame_graph_get_tree (graph) == shown);

  /* Not cancelled, the view is made and then shown, bar gone. */
  gtk_toggle_button_set_active (inverted, TRUE);
  WAIT_UNTIL (!tv_flame_view_is_busy (view), 60000);
  g_assert_true (tv_flame_graph_get_tree (graph) != shown);
  g_assert_true (tv_call_tree_get_inverted (tv_flame_graph_get_tree (graph)));
  g_assert_false (gtk_widget_get_visible (bar));
  g_assert_false (gtk_widget_get_visible (cancel));
  ui_test_close_all_pages (get_window ());
}

int
main (int   argc,
      char *argv[])
{
  int ret;

  /* The bar at once, whatever the machine's speed. */
  g_setenv ("TV_PROGRESS_DELAY_MS", "0", TRUE);
  if (!ui_test_init (&argc, &argv))
    return 77;

  dir = g_dir_make_tmp ("tv-test-export-progress-XXXXXX", NULL);
  g_assert_nonnull (dir);
  profile_path = g_build_filename (dir, "deep.tach", NULL);

  g_test_add_func ("/ui/export-progress/progress", test_progress);
  g_test_add_func ("/ui/export-progress/cancel", test_cancel);
  g_test_add_func ("/ui/export-progress/compare", test_compare);
  g_test_add_func ("/ui/export-progress/view-cancel", test_view_cancel);

  ret = ui_test_run_in_application (&application, TRUE);
  g_unlink (profile_path);
  g_rmdir (dir);
  g_free (profile_path);
  g_free (dir);
  return ret;
}
