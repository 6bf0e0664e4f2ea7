/* test-ui.c: the window, the profile pages and the properties pane
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Drives the real widgets under gtk_test_init (every warning is fatal):
 * files come in through the application's "open", the window's drop
 * target and its open-file call; the test spins the main loop until the
 * pages have loaded and reads what the properties pane shows.  Screenshots
 * of a loaded page, light and dark, go to TV_TEST_OUTPUT_DIR.
 */
#include <math.h>
#include <time.h>

#include <sys/wait.h>
#include <unistd.h>

#include <adwaita.h>
#include <glib/gstdio.h>

#include "format-test-util.h"
#include "tachyon-format.h"
#include "tv-application.h"
#include "tv-atomic-write.h"
#include "tv-export-pprof.h"
#include "tv-export-pstats.h"
#include "tv-export-gecko.h"
#include "tv-export-speedscope.h"
#include "tv-json.h"
#include "tv-start-page.h"
#include "tv-text.h"
#include "tv-timeline-renderer.h"
#include "tv-units.h"
#include "tv-window.h"
#include "ui-test-util.h"

static TvApplication *application;
static char *big_dir;
static char *big_path;

#define BIG_SAMPLES 3000000u
#define BIG_DEPTH 48

static GFile *
data_file (const char *kind,
           const char *name)
{
  const char *dir = g_getenv ("TACH_TEST_DATA");

  g_assert_nonnull (dir);
  return g_file_new_build_filename (dir, kind, name, NULL);
}

static TvWindow *
get_window (void)
{
  return ui_test_get_window (GTK_APPLICATION (application));
}

static void
save_screenshot (GtkWidget  *widget,
                 const char *name)
{
  ui_test_save_screenshot (widget, name, 400);
}

/* ------------------------------------------------------------------------ */

static void
test_start_page (void)
{
  TvWindow *window;

  g_application_activate (G_APPLICATION (application));
  window = get_window ();
  g_assert_cmpint (adw_tab_view_get_n_pages (tv_window_get_tab_view (window)), ==, 0);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (window)));
}

/* The start page's demo button opens the profile bundled in the resources
 * (read from memory, not mapped from disk); --demo does the same. */
static void
test_demo (void)
{
  g_autoptr(GFile) demo = g_file_new_for_uri (TV_DEMO_PROFILE_URI);
  g_autoptr(GVariantDict) options = g_variant_dict_new (NULL);
  g_autofree char *text = NULL;
  TvWindow *window = get_window ();
  AdwTabView *tab_view = tv_window_get_tab_view (window);
  GtkWidget *start_box = (GtkWidget *) gtk_widget_get_template_child (GTK_WIDGET (window),
                                                                      TV_TYPE_WINDOW,
                                                                      "start_box");
  GtkWidget *start_page = gtk_widget_get_first_child (start_box);
  GtkWidget *demo_button = (GtkWidget *) gtk_widget_get_template_child (start_page,
                                                                        TV_TYPE_START_PAGE,
                                                                        "demo_button");
  TvProfilePage *page;

  g_assert_cmpint (adw_tab_view_get_n_pages (tab_view), ==, 0);
  g_assert_true (gtk_widget_get_mapped (demo_button));
  g_assert_true (gtk_widget_activate (demo_button));
  WAIT_UNTIL (adw_tab_view_get_n_pages (tab_view) == 1, 2000);
  page = tv_window_lookup_page (window, demo);
  g_assert_nonnull (page);
  ui_test_wait_loaded (page);
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (window)), ==, "rec_threads.zst.tach");

  text = tv_properties_dup_text (tv_profile_page_get_properties (page));
  g_assert_nonnull (strstr (text, "File: Demo profile bundled with Tachyon Viewer"));
  g_assert_nonnull (strstr (text, "Samples: 6,204 thread-samples (header)\n"));
  g_assert_nonnull (strstr (text, "Compression: zstd"));
  g_assert_nonnull (strstr (text, "Samples decoded: 6,204\n"));
  g_assert_cmpuint (tv_properties_get_n_thread_rows (tv_profile_page_get_properties (page)), ==, 8);
  /* Nothing to remember in the recent files: it is part of the program. */
  {
    GList *items = gtk_recent_manager_get_items (gtk_recent_manager_get_default ());

    for (GList *l = items; l != NULL; l = l->next)
      g_assert_false (g_str_has_prefix (gtk_recent_info_get_uri (l->data), "resource:"));
    g_list_free_full (items, (GDestroyNotify) gtk_recent_info_unref);
  }

  /* `tachyon-viewer --demo` on a running instance: the same tab again. */
  g_variant_dict_insert (options, "demo", "b", TRUE);
  g_assert_cmpint (G_APPLICATION_GET_CLASS (application)->handle_local_options (
                     G_APPLICATION (application), options), ==, -1);
  g_assert_cmpint (adw_tab_view_get_n_pages (tab_view), ==, 1);

  /* Closed, --demo opens it afresh. */
  adw_tab_view_close_page (tab_view, adw_tab_view_get_nth_page (tab_view, 0));
  g_assert_cmpint (adw_tab_view_get_n_pages (tab_view), ==, 0);
  g_assert_cmpint (G_APPLICATION_GET_CLASS (application)->handle_local_options (
                     G_APPLICATION (application), options), ==, -1);
  g_assert_cmpint (adw_tab_view_get_n_pages (tab_view), ==, 1);
  page = tv_window_lookup_page (window, demo);
  g_assert_nonnull (page);
  ui_test_wait_loaded (page);
  adw_tab_view_close_page (tab_view, adw_tab_view_get_nth_page (tab_view, 0));
}

/* win.open (Ctrl+O) shows a file chooser that offers Tachyon profiles;
 * without a portal GtkFileChooserNative shows a GtkFileChooserDialog. */
static void
test_open_dialog (void)
{
  TvWindow *window;
  GListModel *toplevels;
  guint n_before;
  GtkWidget *dialog;
  GtkFileFilter *filter;

  /* The file chooser's places sidebar loads libcloudproviders, which leaks
   * a string on a D-Bus reply.  Its stack cannot be told apart from GLib's
   * own at the speed the sanitizer build needs, so the dialog is shown in
   * a child process with leak checking off; everything else is checked. */
  if (ui_test_trap_without_leak_checks (60))
    return;

  g_application_activate (G_APPLICATION (application));
  window = get_window ();
  toplevels = gtk_window_get_toplevels ();
  n_before = g_list_model_get_n_items (toplevels);

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.open", NULL));
  WAIT_UNTIL (g_list_model_get_n_items (toplevels) > n_before, 5000);
  dialog = ui_test_find_file_chooser ();
  g_assert_nonnull (dialog);
  filter = gtk_file_chooser_get_filter (GTK_FILE_CHOOSER (dialog));
  g_assert_nonnull (filter);
  g_assert_cmpstr (gtk_file_filter_get_name (filter), ==, "Tachyon Profiles");
  g_assert_true (gtk_file_chooser_get_select_multiple (GTK_FILE_CHOOSER (dialog)));
  g_assert_true (gtk_window_get_transient_for (GTK_WINDOW (dialog)) == GTK_WINDOW (window));

  gtk_dialog_response (GTK_DIALOG (dialog), GTK_RESPONSE_CANCEL);
  WAIT_UNTIL (g_list_model_get_n_items (toplevels) == n_before, 5000);
  g_assert_cmpint (adw_tab_view_get_n_pages (tv_window_get_tab_view (window)), ==, 0);
}

static void wait_view_idle (TvFlameView *view);
static GBytes *export_and_load (TvProfilePage *page,
                                GFile         *dest);

/* win.export's dialog: the file written has the extension of the format
 * chosen, in place of the suggested ".html" ("tiny.png", not
 * "tiny.html.png"), and a name without one gets it. */
static void
test_export_dialog (void)
{
  static const struct {
    const char *format;
    const char *typed;
    const char *written;
  } cases[] = {
    { "PNG Image", "tiny.html", "tiny.png" },
    { "SVG Image", "tiny.pdf", "tiny.svg" },
    { "PDF Document", "report", "report.pdf" },
    { "Web Page (HTML)", "tiny.html", "tiny.html" },
    { "Python Statistics (pstats)", "tiny.html", "tiny.pstats" },
    { "pprof Profile", "tiny.png", "tiny.pb.gz" },
    { "pprof Profile", "stacks", "stacks.pb.gz" },
    { "Firefox Profiler (Gecko JSON)", "tiny.html", "tiny.gecko.json" },
    { "speedscope (JSON)", "tiny.gecko.json", "tiny.speedscope.json" },
    { "Firefox Profiler (Gecko JSON)", "run", "run.gecko.json" },
  };
  g_autoptr(GFile) source = data_file ("valid", "tiny.tach");
  g_autoptr(GFile) file = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = NULL;
  g_autoptr(GFile) folder = NULL;
  TvProfilePage *page;
  TvWindow *window;
  GListModel *toplevels;

  /* Shown in a child process: see test_open_dialog(). */
  if (ui_test_trap_without_leak_checks (120))
    return;

  dir = g_dir_make_tmp ("tv-test-export-XXXXXX", &error);
  g_assert_no_error (error);
  folder = g_file_new_for_path (dir);
  file = g_file_get_child (folder, "tiny.tach");
  g_assert_true (g_file_copy (source, file, G_FILE_COPY_NONE, NULL, NULL, NULL, &error));
  g_application_activate (G_APPLICATION (application));
  window = get_window ();
  page = tv_window_open_file (window, file);
  WAIT_UNTIL (tv_profile_page_get_state (page) == TV_PROFILE_PAGE_LOADED, 60000);
  wait_view_idle (tv_profile_page_get_flame_view (page));
  toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GListModel) filters = NULL;
      g_autoptr(GFile) written = g_file_get_child (folder, cases[i].written);
      g_autofree char *doubled = g_strconcat (cases[i].typed,
                                              strrchr (cases[i].written, '.'), NULL);
      g_autoptr(GFile) wrong = g_file_get_child (folder, doubled);
      guint n_before = g_list_model_get_n_items (toplevels);
      GtkWidget *dialog;
      g_autofree char *stale = NULL;

      /* What an export of the same file killed earlier left: the export
       * removes it, as the command line's does. */
      {
        g_autofree char *prefix = tv_atomic_write_dup_temp_prefix (g_file_peek_path (written));
        g_autofree char *name = NULL;
        pid_t dead = fork ();

        if (dead == 0)
          _exit (0);
        g_assert_cmpint (waitpid (dead, NULL, 0), ==, dead);
        name = g_strdup_printf ("%s%ld-Ab3XyZ", prefix, (long) dead);
        stale = g_build_filename (dir, name, NULL);
        g_assert_true (g_file_set_contents (stale, "half an export", -1, NULL));
      }

      g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.export", NULL));
      WAIT_UNTIL (g_list_model_get_n_items (toplevels) > n_before, 5000);
      dialog = ui_test_find_file_chooser ();
      g_assert_nonnull (dialog);
      filters = gtk_file_chooser_get_filters (GTK_FILE_CHOOSER (dialog));
      for (guint j = 0; j < g_list_model_get_n_items (filters); j++)
        {
          g_autoptr(GtkFileFilter) filter = g_list_model_get_item (filters, j);

          if (g_strcmp0 (gtk_file_filter_get_name (filter), cases[i].format) == 0)
            gtk_file_chooser_set_filter (GTK_FILE_CHOOSER (dialog), filter);
        }
      g_assert_cmpstr (gtk_file_filter_get_name (gtk_file_chooser_get_filter (
                         GTK_FILE_CHOOSER (dialog))), ==, cases[i].format);
      /* It opens in the profile's folder. */
      {
        g_autoptr(GFile) typed = g_file_get_child (folder, cases[i].typed);

        gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (dialog), cases[i].typed);
        WAIT_UNTIL (ui_test_chooser_has_file (dialog, typed), 10000);
      }
      /* As a click on the dialog's button does. */
      g_assert_true (gtk_widget_activate (gtk_window_get_default_widget (GTK_WINDOW (dialog))));
      WAIT_UNTIL (g_file_query_exists (written, NULL), 30000);
      g_test_message ("%s typed as %s: %s", cases[i].format, cases[i].typed, cases[i].written);
      g_assert_false (g_file_test (stale, G_FILE_TEST_EXISTS));
      /* In the format chosen: the JSON ones say which they are at once. */
      if (g_str_has_suffix (cases[i].written, ".json"))
        {
          g_autofree char *contents = NULL;

          WAIT_UNTIL (g_file_load_contents (written, NULL, &contents, NULL, NULL, NULL)
                      && g_str_has_suffix (contents, "}\n"), 30000);
          g_assert_true (g_str_has_prefix (contents,
                                           g_str_has_suffix (cases[i].written, ".gecko.json")
                                           ? "{\"meta\":{" : "{\"$schema\":"));
        }
      if (!g_file_equal (written, wrong))
        g_assert_false (g_file_query_exists (wrong, NULL));
      g_assert_true (g_file_delete (written, NULL, NULL));
    }
  g_assert_true (g_file_delete (file, NULL, NULL));
  /* Nothing else is left in the folder. */
  g_assert_cmpint (g_rmdir (dir), ==, 0);
}

/* A .pstats or .pb.gz name exports the statistics or the stacks of the
 * samples the page shows: the same bytes as the exporters give for the
 * page's filters (one thread, on CPU, a function hidden), not those of
 * the whole profile.  By line for pprof, though the page merges by
 * function. */
static void
test_export_stats (void)
{
  g_autoptr(GFile) file = data_file ("valid", "rec_threads.tach");
  g_autoptr(GFile) pstats_dest = g_file_new_build_filename (g_get_tmp_dir (),
                                                            "tv-test-export.pstats", NULL);
  g_autoptr(GFile) pprof_dest = g_file_new_build_filename (g_get_tmp_dir (),
                                                           "tv-test-export.pb.gz", NULL);
  g_autoptr(GBytes) pstats = NULL;
  g_autoptr(GBytes) pprof = NULL;
  g_autoptr(GBytes) want_pstats = NULL;
  g_autoptr(GBytes) want_pprof = NULL;
  g_autoptr(GBytes) all_pstats = NULL;
  g_autoptr(GBytes) all_pprof = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(TvViewState) filter = tv_view_state_new ();
  g_autoptr(TvViewState) everything = tv_view_state_new ();
  TvProfileData *data;
  TvViewState *state;
  TvProfilePage *page;
  const TvThread *thread;
  guint32 index, hidden;

  g_application_activate (G_APPLICATION (application));
  page = tv_window_open_file (get_window (), file);
  WAIT_UNTIL (tv_profile_page_get_state (page) == TV_PROFILE_PAGE_LOADED, 60000);
  wait_view_idle (tv_profile_page_get_flame_view (page));
  data = tv_profile_get_data (tv_profile_page_get_profile (page));
  state = tv_profile_page_get_view_state (page);
  g_assert_cmpint (tv_view_state_get_merge (state), ==, TV_MERGE_FUNCTION);

  /* The busiest thread on CPU, without its first function. */
  thread = tv_profile_data_get_thread (data, 0);
  for (guint i = 1; i < tv_profile_data_get_n_threads (data); i++)
    if (tv_profile_data_get_thread (data, i)->status_counts[1] > thread->status_counts[1])
      thread = tv_profile_data_get_thread (data, i);
  g_assert_cmpuint (thread->status_counts[1], >, 0);
  index = thread->index;
  tv_view_state_set_threads (state, &index, 1);
  tv_view_state_set_state_filter (state, TV_STATE_FILTER_CPU);
  hidden = tv_profile_data_get_frame_keys (data, TV_MERGE_FUNCTION)[0];
  tv_view_state_hide_function (state, hidden);
  wait_view_idle (tv_profile_page_get_flame_view (page));

  pstats = export_and_load (page, pstats_dest);
  pprof = export_and_load (page, pprof_dest);

  /* As the command line says them. */
  g_assert_true (tv_export_select_threads (filter, data, &thread->thread_id, 1, NULL));
  tv_view_state_set_state_filter (filter, TV_STATE_FILTER_CPU);
  tv_view_state_hide_function (filter, hidden);
  tv_view_state_set_merge (filter, TV_MERGE_LINE);
  want_pstats = tv_export_pstats_build (data, filter, NULL, &error);
  g_assert_no_error (error);
  want_pprof = tv_export_pprof_build (data, filter, "rec_threads.tach", NULL, &error);
  g_assert_no_error (error);
  g_assert_true (g_bytes_equal (pstats, want_pstats));
  g_assert_true (g_bytes_equal (pprof, want_pprof));

  /* The filters made a difference. */
  tv_view_state_set_merge (everything, TV_MERGE_LINE);
  all_pstats = tv_export_pstats_build (data, everything, NULL, &error);
  g_assert_no_error (error);
  all_pprof = tv_export_pprof_build (data, everything, "rec_threads.tach", NULL, &error);
  g_assert_no_error (error);
  g_assert_false (g_bytes_equal (pstats, all_pstats));
  g_assert_false (g_bytes_equal (pprof, all_pprof));

  tv_view_state_reset_transforms (state);
  tv_view_state_set_threads (state, NULL, 0);
  tv_view_state_set_state_filter (state, TV_STATE_FILTER_ALL);
}

static void
test_open_valid (void)
{
  g_autoptr(GFile) file = data_file ("valid", "rec_threads.tach");
  g_autofree char *uri = g_file_get_uri (file);
  g_autofree char *text = NULL;
  TvProfilePage *page;
  TvWindow *window;
  AdwTabView *tab_view;
  int n_pages;

  g_application_open (G_APPLICATION (application), &file, 1, "");
  window = get_window ();
  tab_view = tv_window_get_tab_view (window);
  page = tv_window_lookup_page (window, file);
  g_assert_nonnull (page);
  n_pages = adw_tab_view_get_n_pages (tab_view);

  ui_test_wait_loaded (page);
  g_assert_null (adw_tab_page_get_indicator_icon (adw_tab_view_get_page (tab_view, GTK_WIDGET (page))));
  /* A loaded profile opens on its flame graph; the properties are a click
   * away. */
  g_assert_nonnull (tv_profile_page_get_flame_view (page));
  tv_profile_page_show_view (page, "properties");

  text = tv_properties_dup_text (tv_profile_page_get_properties (page));
  g_test_message ("%s", text);
  g_assert_nonnull (strstr (text, "Python version: 3.15.0\n"));
  g_assert_nonnull (strstr (text, "Samples: 5,991 thread-samples (header)\n"));
  g_assert_nonnull (strstr (text, "Profiling mode: wall\n"));
  /* Numbers people read: the statistics' 1.276068935 s, the file's
   * 21,547 bytes, CPython's all-zero checksum. */
  g_assert_nonnull (strstr (text, "Duration: 1.28 s of wall time\n"));
  g_assert_nonnull (strstr (text, "Size: 21.5 kB (21,547 bytes)\n"));
  g_assert_nonnull (strstr (text, "File size recorded: 21.5 kB (21,547 bytes)\n"));
  g_assert_nonnull (strstr (text, "Checksum: unused (all zero)\n"));
  g_assert_nonnull (strstr (text, "Missed samples: 37.8 %\n"));
  g_assert_nonnull (strstr (text, "Byte order: little-endian\n"));
  g_assert_cmpuint (tv_properties_get_n_thread_rows (tv_profile_page_get_properties (page)), ==, 8);
  g_assert_nonnull (strstr (text, "\t main\n"));

  /* "Copy as Text" puts the same text on the clipboard. */
  {
    GtkWidget *copy_button = (GtkWidget *) gtk_widget_get_template_child (
      GTK_WIDGET (tv_profile_page_get_properties (page)), TV_TYPE_PROPERTIES, "copy_button");
    GdkClipboard *clipboard = gtk_widget_get_clipboard (copy_button);
    g_auto(GValue) copied = G_VALUE_INIT;
    g_autoptr(GError) error = NULL;

    g_assert_true (gtk_widget_is_sensitive (copy_button));
    g_assert_true (gtk_widget_activate (copy_button));
    /* Activating a button clicks it after a short animation.  Then read
     * back what the window put there (reading it as text/plain would
     * convert it through the C locale of the test). */
    WAIT_UNTIL (gdk_clipboard_is_local (clipboard), 2000);
    g_value_init (&copied, G_TYPE_STRING);
    gdk_content_provider_get_value (gdk_clipboard_get_content (clipboard), &copied, &error);
    g_assert_no_error (error);
    g_assert_cmpstr (g_value_get_string (&copied), ==, text);
  }

  /* It was added to the recent files. */
  g_assert_true (gtk_recent_manager_has_item (gtk_recent_manager_get_default (), uri));

  /* Opening it again selects its tab instead of adding one. */
  g_application_open (G_APPLICATION (application), &file, 1, "");
  g_assert_cmpint (adw_tab_view_get_n_pages (tab_view), ==, n_pages);
  g_assert_true (tv_window_open_file (window, file) == page);
  g_assert_cmpint (adw_tab_view_get_n_pages (tab_view), ==, n_pages);
  g_assert_true (adw_tab_page_get_child (adw_tab_view_get_selected_page (tab_view)) ==
                 GTK_WIDGET (page));
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (window)), ==, "rec_threads.tach");

  adw_style_manager_set_color_scheme (adw_style_manager_get_default (),
                                      ADW_COLOR_SCHEME_FORCE_LIGHT);
  save_screenshot (GTK_WIDGET (window), "ui-properties-light.png");
  adw_style_manager_set_color_scheme (adw_style_manager_get_default (),
                                      ADW_COLOR_SCHEME_FORCE_DARK);
  save_screenshot (GTK_WIDGET (window), "ui-properties-dark.png");

  /* Scrolled to the end: the derived figures and the thread table. */
  {
    GtkWidget *scrolled = adw_bin_get_child (ADW_BIN (tv_profile_page_get_properties (page)));
    GtkAdjustment *adjustment;

    g_assert_true (GTK_IS_SCROLLED_WINDOW (scrolled));
    adjustment = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scrolled));
    gtk_adjustment_set_value (adjustment, gtk_adjustment_get_upper (adjustment));
    save_screenshot (GTK_WIDGET (window), "ui-threads-dark.png");
    adw_style_manager_set_color_scheme (adw_style_manager_get_default (),
                                        ADW_COLOR_SCHEME_FORCE_LIGHT);
    save_screenshot (GTK_WIDGET (window), "ui-threads-light.png");
    gtk_adjustment_set_value (adjustment, 0);
  }

  adw_style_manager_set_color_scheme (adw_style_manager_get_default (),
                                      ADW_COLOR_SCHEME_DEFAULT);
}

static void
record_time (gint64 *time)
{
  *time = g_get_monotonic_time ();
}

static char *
load_and_dup_text (const char *name)
{
  g_autoptr(GFile) file = data_file ("valid", name);
  TvProfilePage *page = tv_window_open_file (get_window (), file);

  ui_test_wait_loaded (page);
  return tv_properties_dup_text (tv_profile_page_get_properties (page));
}

/* What a file does not hold reads "not recorded", never a made-up 0. */
static void
test_metadata_variants (void)
{
  g_autofree char *error_only = load_and_dup_text ("stats_v56_error_only.tach");
  g_autofree char *legacy = load_and_dup_text ("legacy_nostats.tach");
  g_autofree char *footer = load_and_dup_text ("footer_size_mismatch.tach");
  g_autofree char *mode = load_and_dup_text ("offset60_unknown_value.tach");
  g_autofree char *big_endian = load_and_dup_text ("bigendian.zst.tach");

  g_assert_nonnull (strstr (error_only, "Error rate: 0.5 %\n"));
  g_assert_nonnull (strstr (error_only, "Missed samples: not recorded in this file\n"));
  /* A non-zero error rate is a finding, not "no warnings" beside it. */
  g_assert_null (strstr (error_only, "The file has no warnings."));
  g_assert_nonnull (strstr (error_only, "  - 0.5 % of the profiler's attempts to sample failed"));

  g_assert_nonnull (strstr (legacy, "Profiling mode: not recorded\n"));
  g_assert_nonnull (strstr (legacy, "Duration: not recorded in this file\n"));
  g_assert_nonnull (strstr (legacy, "Measured sample rate: not recorded in this file\n"));
  g_assert_nonnull (strstr (legacy, "Error rate: not recorded in this file\n"));

  g_assert_nonnull (strstr (footer, "Warnings\n  - Footer file_size is 240 but the file has 140 bytes"));
  g_assert_nonnull (strstr (footer, "File size recorded: 240 bytes\n"));
  g_assert_nonnull (strstr (footer, "Size: 140 bytes\n"));

  g_assert_nonnull (strstr (mode, "Profiling mode: unknown (raw value 0x1234)\n"));

  g_assert_nonnull (strstr (big_endian, "Byte order: big-endian\n"));
  g_assert_nonnull (strstr (big_endian, "Compression: zstd\n"));

  /* A profile without samples says so, not that a filter left nothing. */
  {
    g_autofree char *empty = load_and_dup_text ("empty.tach");
    TvProfilePage *page = TV_PROFILE_PAGE (adw_tab_page_get_child (
      adw_tab_view_get_selected_page (tv_window_get_tab_view (get_window ()))));
    TvFlameView *view = tv_profile_page_get_flame_view (page);
    GtkStack *stack = GTK_STACK (gtk_widget_get_template_child (GTK_WIDGET (view),
                                                                TV_TYPE_FLAME_VIEW,
                                                                "graph_stack"));
    AdwStatusPage *status = ADW_STATUS_PAGE (gtk_widget_get_template_child (GTK_WIDGET (view),
                                                                            TV_TYPE_FLAME_VIEW,
                                                                            "empty_page"));

    g_assert_nonnull (strstr (empty, "Samples: 0 thread-samples (header)\n"));
    WAIT_UNTIL (!tv_flame_view_is_busy (view)
                && g_strcmp0 (gtk_stack_get_visible_child_name (stack), "empty") == 0, 10000);
    g_assert_cmpstr (adw_status_page_get_description (status), ==,
                     "This profile holds no samples.");
  }
}

/* The first widget under ROOT, depth first, that MATCH accepts. */
static GtkWidget *
find_widget (GtkWidget  *root,
             gboolean  (*match) (GtkWidget *widget, const char *text),
             const char *text)
{
  if (match (root, text))
    return root;
  for (GtkWidget *child = gtk_widget_get_first_child (root); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_widget (child, match, text);

      if (found != NULL)
        return found;
    }
  return NULL;
}

static gboolean
activates (GtkWidget  *widget,
           const char *action)
{
  return GTK_IS_ACTIONABLE (widget)
         && g_strcmp0 (gtk_actionable_get_action_name (GTK_ACTIONABLE (widget)), action) == 0;
}

/* The first widget under ROOT that activates ACTION. */
static GtkWidget *
find_actionable (GtkWidget  *root,
                 const char *action)
{
  return find_widget (root, activates, action);
}

static gboolean
is_labelled (GtkWidget  *widget,
             const char *label)
{
  return GTK_IS_BUTTON (widget)
         && g_strcmp0 (gtk_button_get_label (GTK_BUTTON (widget)), label) == 0;
}

static gboolean
is_drawing_area (GtkWidget  *widget,
                 const char *unused)
{
  return GTK_IS_DRAWING_AREA (widget);
}

/* The value labels of the properties' rows, mapped, in ROOT. */
static void
collect_value_labels (GtkWidget *root,
                      GPtrArray *labels)
{
  if (GTK_IS_LABEL (root) && gtk_label_get_selectable (GTK_LABEL (root))
      && gtk_widget_get_mapped (root) && gtk_widget_get_ancestor (root, ADW_TYPE_ACTION_ROW))
    g_ptr_array_add (labels, root);
  for (GtkWidget *child = gtk_widget_get_first_child (root);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    collect_value_labels (child, labels);
}

/* Short values ("0 %") take one line, in a wide window and in a narrow
 * one: the reviewer saw the demo's error rate as "0" over "%".  The
 * window of one profile stays no wider than 800 px at least. */
static void
test_properties_short_values (void)
{
  g_autoptr(GFile) file = data_file ("valid", "rec_threads.zst.tach");
  GtkWidget *window = GTK_WIDGET (get_window ());
  TvProfilePage *page = tv_window_open_file (TV_WINDOW (window), file);
  int width, height, minimum;

  WAIT_UNTIL (tv_profile_page_get_state (page) != TV_PROFILE_PAGE_LOADING, 10000);
  tv_profile_page_show_view (page, "properties");
  gtk_window_get_default_size (GTK_WINDOW (window), &width, &height);
  for (guint narrow = 0; narrow < 2; narrow++)
    {
      g_autoptr(GPtrArray) labels = g_ptr_array_new ();
      gboolean seen_error_rate = FALSE;

      if (narrow)
        {
          gtk_widget_measure (window, GTK_ORIENTATION_HORIZONTAL, -1, &minimum, NULL, NULL, NULL);
          g_test_message ("window of one profile: minimum width %d", minimum);
          g_assert_cmpint (minimum, <=, 800);
          gtk_window_set_default_size (GTK_WINDOW (window), 800, 600);
          WAIT_UNTIL (gtk_widget_get_width (window) <= 800, 5000);
        }
      WAIT_UNTIL (gtk_widget_get_mapped (GTK_WIDGET (tv_profile_page_get_properties (page)))
                  && gtk_widget_get_width (GTK_WIDGET (tv_profile_page_get_properties (page))) > 0,
                  5000);
      ui_test_spin (100);
      collect_value_labels (GTK_WIDGET (tv_profile_page_get_properties (page)), labels);
      g_assert_cmpuint (labels->len, >=, 20);
      for (guint i = 0; i < labels->len; i++)
        {
          GtkLabel *label = g_ptr_array_index (labels, i);
          const char *text = gtk_label_get_text (label);
          int lines = pango_layout_get_line_count (gtk_label_get_layout (label));

          g_test_message ("\"%s\": %d line(s), %d px", text, lines,
                          gtk_widget_get_width (GTK_WIDGET (label)));
          if (g_utf8_strlen (text, -1) <= 20)
            g_assert_cmpint (lines, ==, 1);
          seen_error_rate |= g_strcmp0 (text, "0 %") == 0;
        }
      g_assert_true (seen_error_rate);
    }
  save_screenshot (window, "ui-properties-narrow.png");
  gtk_window_set_default_size (GTK_WINDOW (window), width, height);
  ui_test_close_page (TV_WINDOW (window), page);
}

static void
test_open_invalid (void)
{
  g_autoptr(GFile) file = data_file ("invalid", "stack_depth_300.tach");
  g_autofree char *file_uri = g_file_get_uri (file);
  TvWindow *window = get_window ();
  TvProfilePage *page;
  const char *message;
  GtkRecentData chooser_data = { NULL, NULL, (char *) "application/octet-stream",
                                 (char *) "gtk-file-chooser", (char *) "tachyon-viewer %u",
                                 NULL, FALSE };

  /* GTK's file chooser puts what it opens among the recent files itself;
   * a file that fails to load is taken out again. */
  g_assert_true (gtk_recent_manager_add_full (gtk_recent_manager_get_default (), file_uri,
                                              &chooser_data));
  g_assert_true (gtk_recent_manager_has_item (gtk_recent_manager_get_default (), file_uri));
  page = tv_window_open_file (window, file);
  WAIT_UNTIL (tv_profile_page_get_state (page) != TV_PROFILE_PAGE_LOADING, 10000);
  g_assert_cmpint (tv_profile_page_get_state (page), ==, TV_PROFILE_PAGE_FAILED);
  message = tv_profile_page_get_error_message (page);
  g_assert_nonnull (message);
  g_test_message ("error: %s", message);
  g_assert_nonnull (strstr (message, "Stack depth 300 exceeds capacity 256"));

  /* The message is on the page, in its status page. */
  {
    AdwStatusPage *status = ADW_STATUS_PAGE (gtk_widget_get_template_child (GTK_WIDGET (page),
                                                                            TV_TYPE_PROFILE_PAGE,
                                                                            "error_page"));
    GtkStack *stack = GTK_STACK (gtk_widget_get_template_child (GTK_WIDGET (page),
                                                                TV_TYPE_PROFILE_PAGE, "stack"));

    GtkLabel *details = GTK_LABEL (gtk_widget_get_template_child (GTK_WIDGET (page),
                                                                  TV_TYPE_PROFILE_PAGE,
                                                                  "error_details"));

    /* A sentence first, the library's message in the expander. */
    g_assert_cmpstr (adw_status_page_get_description (status), ==,
                     "The profile is damaged: part of it does not follow the format.");
    g_assert_cmpstr (gtk_label_get_text (details), ==, message);
    g_assert_cmpstr (gtk_stack_get_visible_child_name (stack), ==, "error");
  }
  save_screenshot (GTK_WIDGET (window), "ui-error.png");

  /* There is nothing to export, and nothing to offer again later. */
  {
    GtkWidget *export_button = find_actionable (GTK_WIDGET (window), "win.export");
    g_autofree char *uri = g_file_get_uri (file);

    g_assert_nonnull (export_button);
    g_assert_false (gtk_widget_get_sensitive (export_button));
    g_assert_false (gtk_recent_manager_has_item (gtk_recent_manager_get_default (), uri));
  }

  /* The window is still usable: another file opens, and can be exported. */
  {
    g_autoptr(GFile) other = data_file ("valid", "tiny.tach");
    TvProfilePage *other_page = tv_window_open_file (window, other);
    GtkWidget *export_button = find_actionable (GTK_WIDGET (window), "win.export");

    ui_test_wait_loaded (other_page);
    g_assert_true (gtk_widget_get_sensitive (export_button));
    adw_tab_view_set_selected_page (tv_window_get_tab_view (window),
                                    adw_tab_view_get_page (tv_window_get_tab_view (window),
                                                           GTK_WIDGET (page)));
    g_assert_false (gtk_widget_get_sensitive (export_button));
    adw_tab_view_set_selected_page (tv_window_get_tab_view (window),
                                    adw_tab_view_get_page (tv_window_get_tab_view (window),
                                                           GTK_WIDGET (other_page)));
    g_assert_true (gtk_widget_get_sensitive (export_button));
  }
}

static const char *
get_big_path (void)
{
  g_autoptr(GError) error = NULL;

  if (big_path != NULL)
    return big_path;

  big_dir = g_dir_make_tmp ("tv-test-ui-XXXXXX", &error);
  g_assert_no_error (error);
  big_path = g_build_filename (big_dir, "big.tach", NULL);

  /* Every sample a full record of BIG_DEPTH frames: decoding takes long
   * enough to press Cancel while it runs. */
  ui_test_write_big_profile (big_path, BIG_SAMPLES, BIG_DEPTH);

  return big_path;
}

#define MANY_THREADS 10000

/* A hundred thousand threads made a million labels in the properties'
 * table.  Its rows are made for what is in view: with 10,000 threads a
 * few screenfuls of labels at most, the whole table in its model, and
 * "Copy as Text" bounded with a line that says how many rows it left
 * out. */
static void
test_properties_many_threads (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("tv-test-ui-XXXXXX", &error);
  g_autofree char *path = g_build_filename (dir, "threads.tach", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autofree char *text = NULL;
  TachWriter *writer = NULL;
  TachError tach_error;
  guint32 frames[8];
  TvWindow *window = get_window ();
  TvProfilePage *page;
  TvProperties *properties;
  GtkWidget *view;
  guint n_labels;

  g_assert_no_error (error);
  writer = format_test_writer_new (path, FALSE);
  format_test_intern_tasks (writer, G_N_ELEMENTS (frames), frames);
  for (guint t = 0; t < MANY_THREADS; t++)
    g_assert_cmpint (tach_writer_add_sample (writer, 100 + t, 0, 1001000 + t, TACH_STATUS_ON_CPU,
                                             &frames[t % 8], 1, &tach_error), ==, TACH_OK);
  g_assert_cmpint (tach_writer_finish (writer, &tach_error), ==, TACH_OK);

  page = tv_window_open_file (window, file);
  ui_test_wait_loaded (page);
  tv_profile_page_show_view (page, "properties");
  properties = tv_profile_page_get_properties (page);
  view = (GtkWidget *) gtk_widget_get_template_child (GTK_WIDGET (properties), TV_TYPE_PROPERTIES,
                                                      "threads_view");
  g_assert_true (GTK_IS_COLUMN_VIEW (view));
  WAIT_UNTIL (gtk_widget_get_mapped (view) && gtk_widget_get_height (view) > 0, 5000);
  /* To look at: the table, scrolled to, light and dark. */
  {
    GtkAdjustment *adjustment = gtk_scrolled_window_get_vadjustment (
      GTK_SCROLLED_WINDOW (adw_bin_get_child (ADW_BIN (properties))));

    ui_test_spin (200);
    gtk_adjustment_set_value (adjustment, gtk_adjustment_get_upper (adjustment));
    ui_test_spin (200);
    ui_test_save_screenshot (GTK_WIDGET (properties), "properties-many-threads.png", 0);
    ui_test_set_dark (TRUE);
    ui_test_spin (600);
    ui_test_save_screenshot (GTK_WIDGET (properties), "properties-many-threads-dark.png", 0);
    ui_test_set_dark (FALSE);
  }

  g_assert_cmpuint (tv_properties_get_n_thread_rows (properties), ==, MANY_THREADS);
  g_assert_cmpuint (g_list_model_get_n_items (
    G_LIST_MODEL (gtk_column_view_get_model (GTK_COLUMN_VIEW (view)))), ==, MANY_THREADS);
  /* Ten labels a row: a grid of every cell would be 100,000. */
  n_labels = ui_test_count_widgets (GTK_WIDGET (properties), GTK_TYPE_LABEL);
  g_test_message ("%u labels for %u threads", n_labels, MANY_THREADS);
  g_assert_cmpuint (n_labels, >, 10);
  /* GTK keeps up to 200 rows of a list view around, in view or not. */
  g_assert_cmpuint (n_labels, <, 4000);

  text = tv_properties_dup_text (properties);
  g_assert_nonnull (strstr (text, "\n  100\t 0\t 1\t 0\t 100\t"));
  g_assert_nonnull (strstr (text, "\n  1099\t"));
  g_assert_null (strstr (text, "\n  1100\t"));
  g_assert_nonnull (strstr (text, "… and 9000 more threads, not copied\n"));

  /* Sorted by a column: the table's order, and the copy's. */
  {
    g_autoptr(GtkColumnViewColumn) column =
      g_list_model_get_item (gtk_column_view_get_columns (GTK_COLUMN_VIEW (view)), 0);

    gtk_column_view_sort_by_column (GTK_COLUMN_VIEW (view), column, GTK_SORT_DESCENDING);
  }
  WAIT_UNTIL (({ g_autofree char *sorted = tv_properties_dup_text (properties);
                 strstr (sorted, "\n  10099\t") != NULL
                 && strstr (sorted, "\n  100\t") == NULL; }), 10000);

  ui_test_close_page (window, page);
  g_remove (path);
  g_rmdir (dir);
}

static void
test_cancel (void)
{
  g_autoptr(GFile) file = NULL;
  TvWindow *window = get_window ();
  gint64 start = g_get_monotonic_time ();
  TvProfilePage *page;
  TvProperties *properties;
  GtkWidget *cancel_button;
  g_autofree char *text = NULL;
  gint64 clicked_at = 0;

  file = g_file_new_for_path (get_big_path ());
  g_test_message ("wrote %u samples in %.2f s", BIG_SAMPLES,
                  (g_get_monotonic_time () - start) / 1e6);
  page = tv_window_open_file (window, file);
  properties = tv_profile_page_get_properties (page);

  /* The properties show as soon as the metadata is read, long before the
   * samples are decoded. */
  WAIT_UNTIL (tv_properties_get_profile (properties) != NULL, 10000);
  g_assert_cmpint (tv_profile_page_get_state (page), ==, TV_PROFILE_PAGE_LOADING);
  text = tv_properties_dup_text (properties);
  g_assert_nonnull (strstr (text, "Samples: 3,000,000 thread-samples (header)\n"));
  g_assert_nonnull (strstr (text, "Profiling mode: wall\n"));
  g_assert_cmpuint (tv_properties_get_n_thread_rows (properties), ==, 0);
  /* The tab shows that it loads, with a still icon. */
  g_assert_true (G_IS_THEMED_ICON (adw_tab_page_get_indicator_icon (
    adw_tab_view_get_page (tv_window_get_tab_view (window), GTK_WIDGET (page)))));

  /* Cancel at once, while the samples are decoded. */
  cancel_button = (GtkWidget *) gtk_widget_get_template_child (GTK_WIDGET (page),
                                                               TV_TYPE_PROFILE_PAGE,
                                                               "cancel_button");
  g_assert_true (gtk_widget_get_mapped (cancel_button));
  g_signal_connect_swapped (cancel_button, "clicked", G_CALLBACK (record_time), &clicked_at);
  g_assert_true (gtk_widget_activate (cancel_button));
  /* Activating a button clicks it after a short animation; then the load
   * stops, cancelled, long before it could have decoded its samples (the
   * model's tests bound that in samples; tachyon-bench --cancel measures
   * how soon). */
  WAIT_UNTIL (clicked_at != 0, 60000);
  WAIT_UNTIL (tv_profile_page_get_state (page) != TV_PROFILE_PAGE_LOADING, 60000);
  g_test_message ("cancelled %.3f s after the click", (g_get_monotonic_time () - clicked_at) / 1e6);
  g_assert_cmpint (tv_profile_page_get_state (page), ==, TV_PROFILE_PAGE_CANCELLED);
  save_screenshot (GTK_WIDGET (window), "ui-cancelled.png");

  /* Opening the file again loads it afresh, in place of the cancelled tab. */
  {
    AdwTabView *tab_view = tv_window_get_tab_view (window);
    int n_pages = adw_tab_view_get_n_pages (tab_view);
    /* Kept alive, so that the new page cannot take its address. */
    g_autoptr(TvProfilePage) cancelled = g_object_ref (page);
    TvProfilePage *again = tv_window_open_file (window, file);

    g_assert_true (again != cancelled);
    g_assert_null (gtk_widget_get_parent (GTK_WIDGET (cancelled)));
    g_assert_cmpint (adw_tab_view_get_n_pages (tab_view), ==, n_pages);
    g_assert_cmpint (tv_profile_page_get_state (again), ==, TV_PROFILE_PAGE_LOADING);

    /* The progress bar counts the decoded samples. */
    WAIT_UNTIL (tv_profile_get_samples_loaded (tv_profile_page_get_profile (again)) > 0 ||
                tv_profile_page_get_state (again) != TV_PROFILE_PAGE_LOADING, 10000);
    g_assert_cmpint (tv_profile_page_get_state (again), ==, TV_PROFILE_PAGE_LOADING);
    {
      GtkProgressBar *bar = GTK_PROGRESS_BAR (gtk_widget_get_template_child (GTK_WIDGET (again),
                                                                             TV_TYPE_PROFILE_PAGE,
                                                                             "progress_bar"));

      g_test_message ("progress: %s", gtk_progress_bar_get_text (bar));
      g_assert_true (g_str_has_suffix (gtk_progress_bar_get_text (bar), " samples decoded"));
      g_assert_cmpfloat (gtk_progress_bar_get_fraction (bar), >, 0.0);
    }
    ui_test_save_screenshot (GTK_WIDGET (window), "ui-loading.png", 0);

    /* Closing a loading tab cancels its load. */
    adw_tab_view_close_page (tab_view, adw_tab_view_get_page (tab_view, GTK_WIDGET (again)));
    g_assert_null (tv_window_lookup_page (window, file));
    ui_test_spin (200);
  }
}

/* CPU time of the calling thread, in µs: what it did, however long the
 * machine made it wait. */
static gint64
thread_cpu_us (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return (gint64) ts.tv_sec * G_USEC_PER_SEC + ts.tv_nsec / 1000;
}

static gint64
process_cpu_us (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (gint64) ts.tv_sec * G_USEC_PER_SEC + ts.tv_nsec / 1000;
}

/* What the main loop ran while a load went on: each iteration's CPU time
 * on the main thread. */
typedef struct
{
  guint  iterations;
  gint64 max_cpu;
  gint64 main_cpu;        /* in all */
} MainLoopWatch;

/* The main thread's CPU time one iteration may take during a load, over
 * what a small profile's page costs: a frame drawn in software under the
 * sanitizers, with room to spare, but a fraction of what decoding the big
 * profile (or building its views) would take, had it slipped onto the
 * main thread. */
#define MAIN_ITERATION_CPU_MAX (250 * 1000)

static void
watch_iteration (MainLoopWatch *watch)
{
  gint64 before = thread_cpu_us ();
  gint64 cpu;

  g_main_context_iteration (NULL, TRUE);
  cpu = thread_cpu_us () - before;
  watch->iterations++;
  watch->main_cpu += cpu;
  watch->max_cpu = MAX (watch->max_cpu, cpu);
}

/* Opens FILE in WINDOW and runs the main loop until the page has loaded
 * and 300 ms more have passed, counting each iteration into WATCH.
 * Returns the page. */
static TvProfilePage *
open_and_watch (TvWindow      *window,
                GFile         *file,
                MainLoopWatch *watch)
{
  gboolean settled = FALSE, timed_out = FALSE;
  TvProfilePage *page;
  gint64 before, cpu;
  guint id;

  g_assert_null (tv_window_lookup_page (window, file));
  id = g_timeout_add (600000, ui_test_on_timeout, &timed_out);
  /* Making the page counts as an iteration. */
  before = thread_cpu_us ();
  page = tv_window_open_file (window, file);
  cpu = thread_cpu_us () - before;
  watch->max_cpu = MAX (watch->max_cpu, cpu);
  watch->main_cpu += cpu;
  while (tv_profile_page_get_state (page) == TV_PROFILE_PAGE_LOADING && !timed_out)
    watch_iteration (watch);
  g_assert_false (timed_out);
  g_source_remove (id);
  /* Whatever the page does once the data is in runs now. */
  g_timeout_add (300, ui_test_on_timeout, &settled);
  while (!settled)
    watch_iteration (watch);
  g_assert_cmpint (tv_profile_page_get_state (page), ==, TV_PROFILE_PAGE_LOADED);
  return page;
}

/* The window stays responsive while a big profile loads, to the end: the
 * decoding, the tree and what the page builds once the data is in run off
 * the main thread.  That is checked by counting what runs on it, in the
 * main thread's CPU time, against what the same window spends on a small
 * profile of the same shape.
 *
 * Opening any profile costs the main thread one heavy iteration whatever
 * its size: GTK lays out the new page and shapes its text, 70-130 ms here
 * on 30 samples as on 3 million (perf: gtk_layout_manager_measure, pango
 * and harfbuzz, none of it under a tv_ function).  That is the
 * baseline, measured first on a profile of a thousand samples.  On a
 * busy machine it is also what stretches most: the tests run two at a
 * time, and a sanitizer build beside this one has made it 276 ms.  So the
 * big profile may take, in its heaviest iteration, twice the small one's
 * heaviest and MAIN_ITERATION_CPU_MAX more, or a twentieth of the CPU
 * time the whole process took for the load, whichever is more: what this
 * is here to catch, a decode or a view of the whole file on the main
 * thread, takes a second or more of this file.  (The main thread's share
 * of the load's CPU is printed, not bounded: a busy machine stretches the
 * load, and the main loop draws more progress.)  How long the main loop
 * waits on a busy machine is not the test's to say.  TV_TEST_STALL_FILE
 * loads another file (say, a 1 GB one). */
static void
test_load_responsive (void)
{
  const char *other = g_getenv ("TV_TEST_STALL_FILE");
  g_autoptr(GFile) file = g_file_new_for_path (other != NULL ? other : get_big_path ());
  g_autoptr(GError) error = NULL;
  g_autoptr(GFile) small_file = NULL;
  g_autofree char *small_path = NULL;
  TvWindow *window = get_window ();
  AdwTabView *tab_view = tv_window_get_tab_view (window);
  MainLoopWatch small = { 0, }, watch = { 0, };
  gint64 start, process_cpu, bound;
  TvProfilePage *page;
  int fd;

  fd = g_file_open_tmp ("tv-test-small-XXXXXX.tach", &small_path, &error);
  g_assert_no_error (error);
  close (fd);
  ui_test_write_big_profile (small_path, 1000, BIG_DEPTH);
  small_file = g_file_new_for_path (small_path);
  page = open_and_watch (window, small_file, &small);
  adw_tab_view_close_page (tab_view, adw_tab_view_get_page (tab_view, GTK_WIDGET (page)));
  g_unlink (small_path);

  start = g_get_monotonic_time ();
  process_cpu = process_cpu_us ();
  page = open_and_watch (window, file, &watch);
  process_cpu = process_cpu_us () - process_cpu;
  bound = MAX (MAIN_ITERATION_CPU_MAX, process_cpu / 20) + 2 * small.max_cpu;
  g_test_message ("small profile: the heaviest of %u main loop iterations took %.1f ms",
                  small.iterations, small.max_cpu / 1e3);
  g_test_message ("loaded in %.2f s; %u main loop iterations took %.2f s of the main "
                  "thread, the heaviest %.1f ms (bound %.1f ms); the process took %.2f s",
                  (g_get_monotonic_time () - start) / 1e6, watch.iterations,
                  watch.main_cpu / 1e6, watch.max_cpu / 1e3, bound / 1e3, process_cpu / 1e6);
  if (other == NULL)
    g_assert_cmpuint (tv_properties_get_n_thread_rows (tv_profile_page_get_properties (page)),
                      ==, 3);
  g_assert_cmpint (watch.max_cpu, <=, bound);
  adw_tab_view_close_page (tab_view, adw_tab_view_get_page (tab_view, GTK_WIDGET (page)));
}

/* ------------------------------------------------------------------------ */
/* The flame graph                                                           */
/* ------------------------------------------------------------------------ */

/* Exports PAGE to DEST as the page's Export does, and returns the bytes
 * it wrote; DEST is deleted. */
static GBytes *
export_and_load (TvProfilePage *page,
                 GFile         *dest)
{
  g_autoptr(GError) error = NULL;
  GAsyncResult *result = NULL;
  GBytes *bytes;

  tv_profile_page_export_async (page, dest, NULL, ui_test_keep_result, &result);
  WAIT_UNTIL (result != NULL, 20000);
  g_assert_true (tv_profile_page_export_finish (page, result, &error));
  g_assert_no_error (error);
  g_clear_object (&result);
  bytes = g_file_load_bytes (dest, NULL, NULL, &error);
  g_assert_no_error (error);
  g_file_delete (dest, NULL, NULL);
  return bytes;
}

/* The same as a string. */
static char *
export_and_read (TvProfilePage *page,
                 GFile         *dest)
{
  g_autoptr(GBytes) bytes = export_and_load (page, dest);

  return g_strndup (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
}

static void
wait_view_idle (TvFlameView *view)
{
  WAIT_UNTIL (!tv_flame_view_is_busy (view)
              && !tv_flame_graph_is_animating (tv_flame_view_get_graph (view))
              && !tv_flame_graph_is_laying_out (tv_flame_view_get_graph (view))
              && tv_flame_graph_get_layout (tv_flame_view_get_graph (view)) != NULL, 20000);
}

/* The page's Export to .gecko.json and .speedscope.json writes what the
 * exporters write for the page's threads, state, time range, transforms
 * and merge key, byte for byte. */
static void
test_export_samples (void)
{
  g_autoptr(GFile) file = data_file ("valid", "rec_threads.tach");
  g_autofree char *dir = NULL;
  g_autoptr(GError) error = NULL;
  TvWindow *window = get_window ();
  TvProfilePage *page = tv_window_open_file (window, file);
  TvViewState *state;
  TvProfileData *data;
  const TvThread *thread;
  guint32 index;
  guint64 first, last;

  ui_test_wait_loaded (page);
  dir = g_dir_make_tmp ("tv-test-export-XXXXXX", &error);
  g_assert_no_error (error);
  state = tv_profile_page_get_view_state (page);
  data = tv_profile_get_data (tv_profile_page_get_profile (page));

  /* One thread's samples holding the GIL, in the first half, by line. */
  index = 0;
  tv_view_state_set_threads (state, &index, 1);
  thread = tv_profile_data_get_thread (data, 0);
  g_assert_true (tv_profile_data_get_time_span (data, &first, &last));
  tv_view_state_set_state_filter (state, TV_STATE_FILTER_GIL);
  tv_view_state_set_range (state, first, first + (last - first) / 2);
  tv_view_state_set_merge (state, TV_MERGE_LINE);
  /* Views that these formats do not have change nothing. */
  tv_view_state_set_inverted (state, TRUE);

  for (guint gecko = 0; gecko < 2; gecko++)
    {
      g_autofree char *name = g_build_filename (dir, gecko ? "out.gecko.json"
                                                           : "out.speedscope.json", NULL);
      g_autoptr(GFile) dest = g_file_new_for_path (name);
      g_autofree char *written = export_and_read (page, dest);
      g_autoptr(TvViewState) filter = tv_view_state_new ();
      const TachHeader *header = tach_reader_get_header (tv_profile_data_get_reader (data));
      TvExportRange range;
      char *expected = NULL;
      size_t expected_len = 0;
      FILE *memory;

      /* As the command line says them. */
      g_assert_true (tv_export_select_threads (filter, data, &thread->thread_id, 1, NULL));
      tv_view_state_set_state_filter (filter, TV_STATE_FILTER_GIL);
      range.start = ((double) first - (double) header->start_time_us) / 1e6;
      range.end = ((double) (first + (last - first) / 2) - (double) header->start_time_us) / 1e6;
      tv_export_select_seconds (filter, header->start_time_us, &range, NULL, 0);
      tv_view_state_set_merge (filter, TV_MERGE_LINE);
      memory = open_memstream (&expected, &expected_len);
      if (gecko)
        g_assert_true (tv_export_gecko_write (data, filter, memory, NULL, &error));
      else
        g_assert_true (tv_export_speedscope_write (data, filter, "rec_threads.tach", memory,
                                                   NULL, &error));
      g_assert_no_error (error);
      fclose (memory);
      g_test_message ("%s: %zu bytes", name, expected_len);
      g_assert_cmpuint (strlen (written), ==, expected_len);
      g_assert_cmpstr (written, ==, expected);
      /* One thread, named by its id. */
      {
        g_autofree char *tid = g_strdup_printf (gecko ? "\"tid\":%" G_GUINT64_FORMAT ","
                                                      : "\"name\":\"Thread %" G_GUINT64_FORMAT,
                                                thread->thread_id);
        const char *per_thread = gecko ? "\"isMainThread\":" : "\"type\":\"sampled\"";
        const char *at = strstr (written, per_thread);

        g_assert_nonnull (strstr (written, tid));
        g_assert_nonnull (at);
        g_assert_null (strstr (at + 1, per_thread));
      }
      free (expected);
    }

  /* A file GIO cannot give a path for: a clear error, no crash. */
  {
    g_autoptr(GFile) dest = g_file_new_for_uri ("resource:///nowhere/out.gecko.json");
    GAsyncResult *result = NULL;

    tv_profile_page_export_async (page, dest, NULL, ui_test_keep_result, &result);
    WAIT_UNTIL (result != NULL, 20000);
    g_assert_false (tv_profile_page_export_finish (page, result, &error));
    g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED);
    g_clear_error (&error);
    g_clear_object (&result);
  }
  g_rmdir (dir);
  tv_view_state_set_threads (state, NULL, 0);
  ui_test_close_page (window, page);
}

/* The widest child of NODE. */
static guint32
widest_child (TvCallTree *tree,
              guint32     node)
{
  const guint32 *children;
  guint n_children;
  guint32 best = TV_NODE_NONE;

  children = tv_call_tree_get_children (tree, node, &n_children);
  for (guint i = 0; i < n_children; i++)
    if (best == TV_NODE_NONE
        || tv_call_tree_get_total (tree, children[i]) > tv_call_tree_get_total (tree, best))
      best = children[i];
  return best;
}

static gboolean
tree_has_function (TvCallTree *tree,
                   guint32     function)
{
  for (guint32 node = 1; node < tv_call_tree_get_n_nodes (tree); node++)
    if (tv_call_tree_get_function (tree, node) == function)
      return TRUE;
  return FALSE;
}

static void
press_key (GtkWidget *widget,
           guint      keyval)
{
  GtkEventController *keys = ui_test_find_controller (widget, GTK_TYPE_EVENT_CONTROLLER_KEY, 0);
  gboolean handled = FALSE;

  g_signal_emit_by_name (keys, "key-pressed", keyval, 0, (GdkModifierType) 0, &handled);
  g_assert_true (handled);
}

/* The timeline: lanes, drag to select a range, a lane click, a legend
 * click, zoom to the selection; the flame graph follows. */
/* SUMMARY holds "TEXT" after which come a figure and a unit, "9.63 s":
 * the figure in seconds, which must be SECONDS to within half a unit of
 * its third significant digit. */
static void
assert_duration_after (const char *summary,
                       const char *text,
                       double      seconds)
{
  static const struct
  {
    const char *name;
    double      scale;
  } units[] = {
    { "ns ", 1e-9 }, { "\xc2\xb5s ", 1e-6 }, { "ms ", 1e-3 }, { "s ", 1.0 }, { "min ", 60.0 },
  };
  const char *at = strstr (summary, text);
  char *end = NULL;
  double value;

  g_assert_nonnull (at);
  at += strlen (text);
  value = g_ascii_strtod (at, &end);
  g_assert_true (end != at && *end == ' ');
  for (guint i = 0; i < G_N_ELEMENTS (units); i++)
    if (g_str_has_prefix (end + 1, units[i].name))
      {
        double shown = value * units[i].scale;

        g_test_message ("%s%.17g: %g s shown", text, seconds, shown);
        g_assert_cmpfloat (fabs (shown - seconds), <=, 0.005 * seconds * (1 + 1e-9));
        return;
      }
  g_assert_not_reached ();
}

/* The line above the flame graph says which seconds it gives: rec_threads
 * has 8 threads over a 1.275 s recording, so its 5,991 samples are some
 * 9.6 s of thread time in 1.28 s of wall time; a 315 ms selection says
 * 315 ms of wall time and its own thread time, there and in the
 * timeline's line.  Every figure is the model's. */
static void
test_headline (void)
{
  g_autoptr(GFile) file = data_file ("valid", "rec_threads.tach");
  TvWindow *window = get_window ();
  TvProfilePage *page = tv_window_open_file (window, file);
  TvProfileData *data;
  TvTimelineView *timeline_view;
  TvViewState *state;
  TvFlameView *view;
  TvCallTree *tree;
  const char *summary;
  guint64 first, last, n;
  double per_sample, wall, thread;

  ui_test_wait_loaded (page);
  tv_profile_page_show_view (page, "flamegraph");
  view = tv_profile_page_get_flame_view (page);
  state = tv_profile_page_get_view_state (page);
  timeline_view = tv_profile_page_get_timeline_view (page);
  wait_view_idle (view);
  WAIT_UNTIL (tv_timeline_view_get_timeline (timeline_view) != NULL, 10000);

  data = tv_profile_get_data (tv_profile_page_get_profile (page));
  g_assert_cmpuint (tv_profile_data_get_n_threads (data), ==, 8);
  g_assert_cmpuint (tv_profile_data_get_n_samples (data), ==, 5991);
  g_assert_true (tv_profile_data_get_time_span (data, &first, &last));
  per_sample = tv_profile_data_get_seconds_per_sample (data, NULL);
  wall = (double) (last - first) / 1e6;
  thread = 5991 * per_sample;
  /* What the issue measured: 9.628 s of thread time in a 1.275 s
   * recording. */
  g_assert_cmpfloat (fabs (wall - 1.275), <, 0.001);
  g_assert_cmpfloat (fabs (thread - 9.628), <, 0.001);

  summary = tv_flame_view_get_summary (view);
  g_test_message ("headline: %s", summary);
  g_assert_cmpstr (summary, ==,
                   "all threads, all samples: 5,991 samples, 9.63 s of thread time in 1.28 s "
                   "of wall time");
  assert_duration_after (summary, "5,991 samples, ", thread);
  assert_duration_after (summary, "thread time in ", wall);

  /* 315 ms from 100 ms on. */
  tv_view_state_set_range (state, first + 100000, first + 415000);
  wait_view_idle (view);
  tree = tv_flame_graph_get_tree (tv_flame_view_get_graph (view));
  n = tv_call_tree_get_n_samples (tree);
  g_assert_cmpuint (n, >, 0);
  g_assert_cmpuint (n, <, 5991);
  thread = n * per_sample;
  /* Eight threads: a selection holds more thread time than wall time. */
  g_assert_cmpfloat (thread, >, 0.315 * 2);
  summary = tv_flame_view_get_summary (view);
  g_test_message ("headline: %s", summary);
  g_assert_nonnull (strstr (summary, "of thread time in 315 ms of wall time, in the selected "
                                     "time range"));
  {
    const char *count = " samples, ";
    g_autofree char *prefix = NULL;
    g_autofree char *grouped = NULL;
    GString *digits = g_string_new (NULL);
    g_autofree char *plain = g_strdup_printf ("%" G_GUINT64_FORMAT, n);
    gsize len = strlen (plain);

    /* The count, grouped by thousands. */
    for (gsize i = 0; i < len; i++)
      {
        if (i > 0 && (len - i) % 3 == 0)
          g_string_append_c (digits, ',');
        g_string_append_c (digits, plain[i]);
      }
    grouped = g_string_free (digits, FALSE);
    prefix = g_strconcat ("all threads, all samples: ", grouped, count, NULL);
    g_assert_true (g_str_has_prefix (summary, prefix));
    assert_duration_after (summary, prefix, thread);

    summary = tv_timeline_view_get_summary (timeline_view);
    g_test_message ("timeline: %s", summary);
    g_assert_nonnull (strstr (summary, " (315 ms of wall time): "));
    g_free (prefix);
    prefix = g_strconcat ("(315 ms of wall time): ", grouped, count, NULL);
    assert_duration_after (summary, prefix, thread);
    g_assert_true (g_str_has_suffix (summary, " of thread time"));
  }
  tv_view_state_clear_range (state);
  wait_view_idle (view);
  /* Closed, and gone before the next test watches the main loop. */
  g_object_add_weak_pointer (G_OBJECT (page), (gpointer *) &page);
  ui_test_close_page (window, page);
  WAIT_UNTIL (page == NULL, 5000);
}

static void
test_timeline (void)
{
  g_autoptr(GFile) file = data_file ("valid", "rec_threads.tach");
  TvWindow *window = get_window ();
  TvProfilePage *page = tv_window_open_file (window, file);
  TvViewState *state;
  TvTimelineView *timeline_view;
  TvTimeline *timeline;
  TvFlameView *view;
  GtkWidget *area;
  graphene_rect_t lane_rect, legend_rect;
  guint64 start, end, expected;
  double t0, t1, x0, x1;
  guint main_lane = G_MAXUINT;

  WAIT_UNTIL (tv_profile_page_get_state (page) != TV_PROFILE_PAGE_LOADING, 10000);
  tv_profile_page_show_view (page, "flamegraph");
  state = tv_profile_page_get_view_state (page);
  view = tv_profile_page_get_flame_view (page);
  timeline_view = tv_profile_page_get_timeline_view (page);
  g_assert_nonnull (timeline_view);
  WAIT_UNTIL (tv_timeline_view_get_timeline (timeline_view) != NULL, 10000);
  timeline = tv_timeline_view_get_timeline (timeline_view);
  wait_view_idle (view);
  g_assert_cmpuint (tv_timeline_get_n_lanes (timeline), ==, 8);
  for (guint i = 0; i < 8; i++)
    if (tv_timeline_get_lane (timeline, i)->main_thread)
      main_lane = i;
  g_assert_cmpuint (main_lane, !=, G_MAXUINT);
  ui_test_spin (100);
  save_screenshot (GTK_WIDGET (window), "ui-timeline-light.png");
  adw_style_manager_set_color_scheme (adw_style_manager_get_default (), ADW_COLOR_SCHEME_FORCE_DARK);
  save_screenshot (GTK_WIDGET (window), "ui-timeline-dark.png");
  adw_style_manager_set_color_scheme (adw_style_manager_get_default (), ADW_COLOR_SCHEME_DEFAULT);

  /* A drag over the main thread's lane selects the middle half of the
   * recording; the flame graph shows exactly its samples. */
  tv_timeline_view_get_window (timeline_view, &t0, &t1);
  g_assert_true (tv_timeline_view_get_lane_rect (timeline_view, main_lane, &lane_rect));
  x0 = tv_timeline_view_time_to_x (timeline_view, t0 + (t1 - t0) / 4);
  x1 = tv_timeline_view_time_to_x (timeline_view, t0 + 3 * (t1 - t0) / 4);
  area = gtk_widget_get_first_child (gtk_widget_get_first_child (GTK_WIDGET (timeline_view)));
  g_assert_true (GTK_IS_DRAWING_AREA (area));
  {
    GtkEventController *drag = ui_test_find_controller (area, GTK_TYPE_GESTURE_DRAG, 0);
    double y = lane_rect.origin.y + lane_rect.size.height / 2;

    graphene_point_t p;

    /* Widget coordinates to the drawing area's. */
    g_assert_true (gtk_widget_compute_point (GTK_WIDGET (timeline_view), area,
                                             &GRAPHENE_POINT_INIT (x0, y), &p));
    g_signal_emit_by_name (drag, "drag-begin", (double) p.x, (double) p.y);
    g_signal_emit_by_name (drag, "drag-end", x1 - x0, 0.0);
  }
  g_assert_true (tv_view_state_get_range (state, &start, &end));
  /* The range is the drag's, to a pixel's worth of time. */
  {
    double per_pixel = (t1 - t0) / (x1 - x0) * 0.5 * 2;
    guint64 origin = tv_timeline_get_origin (timeline);

    g_assert_cmpfloat (fabs ((double) start - origin - (t0 + (t1 - t0) / 4)), <=, per_pixel + 1);
    g_assert_cmpfloat (fabs ((double) end - origin - (t0 + 3 * (t1 - t0) / 4)), <=, per_pixel + 1);
  }
  wait_view_idle (view);
  expected = tv_timeline_count_range (timeline, TV_TIMELINE_ALL, start, end, NULL);
  g_assert_cmpuint (expected, >, 0);
  g_assert_cmpuint (expected, <, 5991);
  g_assert_cmpuint (tv_call_tree_get_n_samples (tv_flame_graph_get_tree (tv_flame_view_get_graph (view))),
                    ==, expected);
  g_assert_nonnull (strstr (tv_flame_view_get_summary (view), "in the selected time range"));
  g_test_message ("timeline: %s", tv_timeline_view_get_summary (timeline_view));
  g_assert_true (g_str_has_prefix (tv_timeline_view_get_summary (timeline_view), "Selected "));
  /* The properties' per-thread figures of the range, from the timeline. */
  {
    TvProperties *props = tv_profile_page_get_properties (page);
    g_autofree char *text = tv_properties_dup_text (props);
    g_autofree char *row = g_strdup_printf ("%" G_GUINT64_FORMAT "\t %" G_GUINT64_FORMAT "\t",
                                            tv_timeline_get_lane (timeline, main_lane)->thread_id,
                                            tv_timeline_count_range (timeline, main_lane, start,
                                                                     end, NULL));

    g_assert_cmpuint (tv_properties_get_n_range_rows (props), ==, 8);
    g_assert_nonnull (strstr (text, "Threads in the Selected Time Range"));
    g_assert_nonnull (strstr (text, row));
    tv_profile_page_show_view (page, "properties");
    save_screenshot (GTK_WIDGET (window), "ui-properties-range.png");
    tv_profile_page_show_view (page, "flamegraph");
  }

  /* Zoom to the selection, and back. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (timeline_view), "timeline.zoom-selection", NULL));
  tv_timeline_view_get_window (timeline_view, &x0, &x1);
  g_assert_cmpfloat (fabs (x0 - ((double) start - tv_timeline_get_origin (timeline))), <, 1.0);
  g_assert_cmpfloat (fabs (x1 - ((double) end - tv_timeline_get_origin (timeline))), <, 1.0);
  save_screenshot (GTK_WIDGET (window), "ui-timeline-zoomed.png");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (timeline_view), "timeline.back", NULL));
  tv_timeline_view_get_window (timeline_view, &x0, &x1);
  g_assert_cmpfloat (x0, ==, t0);
  g_assert_cmpfloat (x1, ==, t1);

  /* A click on a lane shows that thread alone. */
  {
    GtkEventController *click = ui_test_find_controller (area, GTK_TYPE_GESTURE_CLICK, 0);
    const guint32 *threads;
    guint n_threads;
    graphene_point_t p;

    g_assert_true (gtk_widget_compute_point (GTK_WIDGET (timeline_view), area,
                                             &GRAPHENE_POINT_INIT (lane_rect.origin.x + 5,
                                                                   lane_rect.origin.y + lane_rect.size.height / 2),
                                             &p));
    g_signal_emit_by_name (click, "released", 1, (double) p.x, (double) p.y);
    threads = tv_view_state_get_threads (state, &n_threads);
    g_assert_cmpuint (n_threads, ==, 1);
    g_assert_cmpuint (threads[0], ==, main_lane);
    wait_view_idle (view);
    g_assert_cmpuint (tv_call_tree_get_n_samples (tv_flame_graph_get_tree (tv_flame_view_get_graph (view))),
                      ==, tv_timeline_count_range (timeline, main_lane, start, end, NULL));

    /* A click on a legend entry filters by that state; again, clears. */
    g_assert_true (tv_timeline_view_get_legend_rect (timeline_view, TV_TIMELINE_STATE_WAITING,
                                                     &legend_rect));
    g_assert_true (gtk_widget_compute_point (GTK_WIDGET (timeline_view), area,
                                             &GRAPHENE_POINT_INIT (legend_rect.origin.x + legend_rect.size.width / 2,
                                                                   legend_rect.origin.y + legend_rect.size.height / 2),
                                             &p));
    g_signal_emit_by_name (click, "released", 1, (double) p.x, (double) p.y);
    g_assert_cmpint (tv_view_state_get_state_filter (state), ==, TV_STATE_FILTER_GIL_WAIT);
    save_screenshot (GTK_WIDGET (window), "ui-timeline-filtered.png");
    g_signal_emit_by_name (click, "released", 1, (double) p.x, (double) p.y);
    g_assert_cmpint (tv_view_state_get_state_filter (state), ==, TV_STATE_FILTER_ALL);
  }

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (timeline_view), "timeline.clear-selection", NULL));
  g_assert_false (tv_view_state_get_range (state, NULL, NULL));
  g_assert_cmpuint (tv_properties_get_n_range_rows (tv_profile_page_get_properties (page)), ==, 0);
  ui_test_close_page (window, page);
}

/* Samples of THREADS (all when N_THREADS is 0) in the heatmap cells of
 * columns C0..C1 and rows R0..R1, one by one from the model's records. */
static guint64
count_cells_by_hand (TvProfileData *data,
                     guint64        origin,
                     guint64        column_duration,
                     guint64        row_duration,
                     const guint32 *threads,
                     guint          n_threads,
                     guint          c0,
                     guint          r0,
                     guint          c1,
                     guint          r1)
{
  guint64 n = 0;

  for (guint i = 0; i < tv_profile_data_get_n_threads (data); i++)
    {
      const TvThread *t = tv_profile_data_get_thread (data, i);
      gboolean selected = n_threads == 0;

      for (guint k = 0; k < n_threads; k++)
        selected |= threads[k] == i;
      for (guint64 s = 0; selected && s < t->n_samples; s++)
        {
          guint64 since = tv_times_get (&t->times, s) - origin;
          guint64 column = since / column_duration;
          guint64 row = (since % column_duration) / row_duration;

          n += column >= c0 && column <= c1 && row >= r0 && row <= r1;
        }
    }
  return n;
}

/* The shortcut of WIDGET's class bound to KEYVAL, run as a key press
 * would run it. */
static void
press_binding (GtkWidget *widget,
               guint      keyval)
{
  g_assert_true (ui_test_activate_shortcut (widget, keyval, 0));
}

/* Ctrl+F opens the flame graph's search wherever the focus is in the
 * page: the timeline too, outside the flame view. */
static void
test_search_key (void)
{
  g_autoptr(GFile) file = data_file ("valid", "rec_threads.tach");
  TvWindow *window;
  TvProfilePage *page;
  TvFlameView *view;
  GtkWidget *area, *entry, *focus;

  g_application_activate (G_APPLICATION (application));
  window = get_window ();
  page = tv_window_open_file (window, file);
  WAIT_UNTIL (tv_profile_page_get_state (page) != TV_PROFILE_PAGE_LOADING, 10000);
  view = tv_profile_page_get_flame_view (page);
  wait_view_idle (view);
  area = find_widget (GTK_WIDGET (tv_profile_page_get_timeline_view (page)), is_drawing_area,
                      NULL);
  entry = GTK_WIDGET (gtk_widget_get_template_child (GTK_WIDGET (view), TV_TYPE_FLAME_VIEW,
                                                     "search_entry"));
  g_assert_nonnull (area);
  g_assert_true (gtk_widget_grab_focus (area));
  focus = gtk_root_get_focus (GTK_ROOT (window));
  g_assert_nonnull (focus);
  g_assert_false (gtk_widget_is_ancestor (focus, GTK_WIDGET (view)));
  g_assert_true (ui_test_deliver_key (GTK_WINDOW (window), GDK_KEY_f, GDK_CONTROL_MASK));
  focus = gtk_root_get_focus (GTK_ROOT (window));
  g_assert_true (focus == entry || gtk_widget_is_ancestor (focus, entry));
  ui_test_close_page (window, page);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (cairo_surface_t, cairo_surface_destroy)

/* The screenshot NAME that save_screenshot() wrote. */
static cairo_surface_t *
load_screenshot (const char *name)
{
  const char *dir = g_getenv ("TV_TEST_OUTPUT_DIR");
  g_autofree char *path = g_build_filename (dir != NULL ? dir : ".", name, NULL);
  cairo_surface_t *surface = cairo_image_surface_create_from_png (path);

  g_assert_cmpint (cairo_surface_status (surface), ==, CAIRO_STATUS_SUCCESS);
  return surface;
}

/* The colour at X, Y of an opaque image, as 0xRRGGBB. */
static guint32
pixel_at (cairo_surface_t *surface,
          int              x,
          int              y)
{
  g_assert_true (x >= 0 && x < cairo_image_surface_get_width (surface));
  g_assert_true (y >= 0 && y < cairo_image_surface_get_height (surface));
  return *(const guint32 *) (cairo_image_surface_get_data (surface)
                             + (gsize) y * cairo_image_surface_get_stride (surface)
                             + (gsize) x * 4) & 0xffffff;
}

/* Channel I (0 blue, 1 green, 2 red) of PIXEL. */
static guint
channel (guint32 pixel,
         guint   i)
{
  return (pixel >> (8 * i)) & 0xff;
}

/* Channel I of PLAIN dimmed: 60 % of the way to the background. */
static double
dimmed_channel (guint32 plain,
                guint   i)
{
  TvTimelineColor background = tv_timeline_background_color (FALSE);
  double channels[3] = { background.blue, background.green, background.red };

  return 0.4 * channel (plain, i) + 0.6 * 255 * channels[i];
}

/* Whether DIMMED is PLAIN 60 % of the way to the timeline's light
 * background, as the time between heatmap cells is drawn. */
static gboolean
is_dimmed (guint32 plain,
           guint32 dimmed)
{
  for (guint i = 0; i < 3; i++)
    if (fabs (channel (dimmed, i) - dimmed_channel (plain, i)) > 1.5)
      return FALSE;
  return TRUE;
}

/* Whether DIMMED is at least as light as PLAIN dimmed (see is_dimmed()),
 * and lighter than PLAIN. */
static gboolean
at_least_dimmed (guint32 plain,
                 guint32 dimmed)
{
  for (guint i = 0; i < 3; i++)
    if (channel (dimmed, i) + 1.5 < dimmed_channel (plain, i)
        || channel (dimmed, i) <= channel (plain, i))
      return FALSE;
  return TRUE;
}

/* Along the middle of LANE, the screenshot SELECTED against PLAIN (both
 * of VIEW, lanes shown; a window's is scaled a little to fit its shadow
 * in): the time of RANGES is not dimmed, the time between them is.
 * Returns NULL when so, else the first pixel that is not. */
static char *
cells_over_lanes_problem (TvTimelineView    *view,
                          guint              lane,
                          const TvTimeRange *ranges,
                          guint              n_ranges,
                          const char        *plain,
                          const char        *selected)
{
  guint64 origin = tv_timeline_get_origin (tv_timeline_view_get_timeline (view));
  g_autoptr(cairo_surface_t) plain_image = load_screenshot (plain);
  g_autoptr(cairo_surface_t) selected_image = load_screenshot (selected);
  graphene_rect_t rect;
  guint n_inside = 0, n_outside = 0, n_emptied = 0;
  int y;

  g_assert_cmpint (cairo_image_surface_get_width (plain_image), ==,
                   cairo_image_surface_get_width (selected_image));
  g_assert_cmpint (cairo_image_surface_get_height (plain_image), ==,
                   cairo_image_surface_get_height (selected_image));
  g_assert_true (tv_timeline_view_get_lane_rect (view, lane, &rect));
  y = (int) (rect.origin.y + rect.size.height / 2);
  for (int x = (int) rect.origin.x; x < rect.origin.x + rect.size.width; x++)
    {
      gboolean inside = FALSE, outside = TRUE;
      guint32 before, after;

      for (guint i = 0; i < n_ranges; i++)
        {
          double a = tv_timeline_view_time_to_x (view, (double) (ranges[i].start - origin));
          double b = tv_timeline_view_time_to_x (view, (double) (ranges[i].end - origin));

          inside |= x > a + 1 && x + 1 < b - 1;
          outside &= x + 1 < a - 1 || x > b + 1;
        }
      if (!inside && !outside)
        continue;
      before = pixel_at (plain_image, x, y);
      after = pixel_at (selected_image, x, y);
      if (inside && (after == before || is_dimmed (before, after)))
        return g_strdup_printf ("at %d,%d, in the cells' time: #%06x, then #%06x",
                                x, y, before, after);
      /* A pixel at the edge of a sample's bar can be lighter in the frame
       * with the cells than dimming the first frame's makes it (once in
       * CI's sanitizer build: #e1e1e1, then #fbfbfb, the dimmed #f5f5f5,
       * at one pixel, every retry): faded at least as much, and a few
       * pixels at most. */
      if (outside && !is_dimmed (before, after) && at_least_dimmed (before, after)
          && ++n_emptied <= 3)
        continue;
      if (outside && !is_dimmed (before, after))
        return g_strdup_printf ("at %d,%d, outside the cells' time: #%06x, then #%06x "
                                "(not dimmed)", x, y, before, after);
      n_inside += inside;
      n_outside += outside;
    }
  /* The cells' time: two spans of 80 ms of the 1.275 s across. */
  g_assert_cmpuint (n_inside, >, 50);
  g_assert_cmpuint (n_outside, >, 100);
  return NULL;
}

/* The heatmap, in the lanes' place: a drag over a rectangle of cells
 * selects exactly their samples for the flame graph, whose line says so;
 * the lanes show the cells' time and zoom to their span, with a history;
 * the thread filter remakes the heatmap, Escape clears the selection. */
/* The number of samples the timeline's summary gives. */
static guint64
summary_count (TvTimelineView *timeline_view)
{
  const char *summary = tv_timeline_view_get_summary (timeline_view);
  const char *at = strstr (summary, " of wall time, ");
  guint64 n = 0;

  /* "Selected cells: 800 ms of wall time, 2,146 samples, …" */
  g_assert_nonnull (at);
  for (at += strlen (" of wall time, "); g_ascii_isdigit (*at) || *at == ','; at++)
    if (*at != ',')
      n = n * 10 + (*at - '0');
  g_assert_true (g_str_has_prefix (at, " sample"));
  return n;
}

static void
test_heatmap (void)
{
  g_autoptr(GFile) file = data_file ("valid", "rec_threads.tach");
  TvWindow *window = get_window ();
  TvProfilePage *page = tv_window_open_file (window, file);
  TvViewState *state;
  TvTimelineView *timeline_view;
  TvHeatmapView *heatmap_view;
  TvTimelineHeatmap *heatmap;
  TvTimeline *timeline;
  TvFlameView *view;
  TvProfileData *data;
  GtkWidget *area;
  const TvTimeRange *ranges;
  guint n_ranges, main_lane = G_MAXUINT;
  guint64 origin, expected, in_cells = 0;
  double t0, t1, duration;
  guint c0, c1, r0 = 10, r1 = 49;
  guint64 column, row_us;

  WAIT_UNTIL (tv_profile_page_get_state (page) != TV_PROFILE_PAGE_LOADING, 10000);
  tv_profile_page_show_view (page, "flamegraph");
  state = tv_profile_page_get_view_state (page);
  view = tv_profile_page_get_flame_view (page);
  timeline_view = tv_profile_page_get_timeline_view (page);
  WAIT_UNTIL (tv_timeline_view_get_timeline (timeline_view) != NULL, 10000);
  timeline = tv_timeline_view_get_timeline (timeline_view);
  data = tv_timeline_get_data (timeline);
  origin = tv_timeline_get_origin (timeline);
  duration = tv_timeline_get_duration (timeline);
  for (guint i = 0; i < tv_timeline_get_n_lanes (timeline); i++)
    if (tv_timeline_get_lane (timeline, i)->main_thread)
      main_lane = i;
  g_assert_cmpuint (main_lane, !=, G_MAXUINT);
  wait_view_idle (view);
  /* The lanes before anything is selected, to compare with. */
  save_screenshot (GTK_WIDGET (timeline_view), "ui-heatmap-lanes-before.png");

  /* Lanes | Heatmap: the heatmap takes the lanes' place. */
  area = gtk_widget_get_first_child (gtk_widget_get_first_child (GTK_WIDGET (timeline_view)));
  heatmap_view = tv_timeline_view_get_heatmap_view (timeline_view);
  g_assert_true (gtk_widget_get_mapped (area));
  g_assert_false (gtk_widget_get_mapped (GTK_WIDGET (heatmap_view)));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (timeline_view), "timeline.view", "s",
                                             "heatmap"));
  g_assert_false (gtk_widget_get_visible (area));
  WAIT_UNTIL (gtk_widget_get_mapped (GTK_WIDGET (heatmap_view))
              && tv_heatmap_view_get_heatmap (heatmap_view) != NULL
              && !tv_heatmap_view_get_busy (heatmap_view), 10000);
  heatmap = tv_heatmap_view_get_heatmap (heatmap_view);
  /* 1.275 s of samples: not two columns of seconds but 13 of 100 ms,
   * 2 ms rows. */
  column = tv_timeline_heatmap_get_column_duration (heatmap);
  row_us = tv_timeline_heatmap_get_row_duration (heatmap);
  g_assert_cmpuint (column, ==, 100000);
  g_assert_cmpuint (tv_timeline_heatmap_get_n_columns (heatmap), ==, 13);
  g_assert_cmpuint (tv_timeline_heatmap_get_n_rows (heatmap), ==, 50);
  g_assert_cmpuint (row_us, ==, 2000);
  /* The last two columns, from row 10 down: the last cells go past the
   * last sample. */
  c0 = tv_timeline_heatmap_get_n_columns (heatmap) - 2;
  c1 = c0 + 1;
  g_assert_true (g_str_has_prefix (tv_timeline_view_get_summary (timeline_view), "Nothing selected."));
  save_screenshot (GTK_WIDGET (window), "ui-heatmap-light.png");
  adw_style_manager_set_color_scheme (adw_style_manager_get_default (), ADW_COLOR_SCHEME_FORCE_DARK);
  save_screenshot (GTK_WIDGET (window), "ui-heatmap-dark.png");
  adw_style_manager_set_color_scheme (adw_style_manager_get_default (), ADW_COLOR_SCHEME_DEFAULT);

  /* A drag from the middle of one corner cell to the middle of the
   * other, through the widget's own drag gesture. */
  {
    GtkEventController *drag = ui_test_find_controller (GTK_WIDGET (heatmap_view),
                                                        GTK_TYPE_GESTURE_DRAG, 0);
    graphene_rect_t from, to;
    double x, y, dx, dy;

    g_assert_true (tv_heatmap_view_get_cell_rect (heatmap_view, c0, r0, &from));
    g_assert_true (tv_heatmap_view_get_cell_rect (heatmap_view, c1, r1, &to));
    g_assert_cmpfloat (from.size.width, >, 20);
    g_assert_cmpfloat (from.size.height, >=, 1);
    x = from.origin.x + from.size.width / 2;
    y = from.origin.y + from.size.height / 2;
    dx = to.origin.x + to.size.width / 2 - x;
    dy = to.origin.y + to.size.height / 2 - y;
    g_signal_emit_by_name (drag, "drag-begin", x, y);
    g_signal_emit_by_name (drag, "drag-update", dx / 2, dy / 2);
    save_screenshot (GTK_WIDGET (window), "ui-heatmap-dragging.png");
    g_signal_emit_by_name (drag, "drag-update", dx, dy);
    g_signal_emit_by_name (drag, "drag-end", dx, dy);
  }
  ranges = tv_view_state_get_ranges (state, &n_ranges);
  g_assert_nonnull (ranges);
  /* Rows 10 to 49 of two columns: two ranges, 20 ms to 100 ms of each. */
  g_assert_cmpuint (n_ranges, ==, 2);
  g_assert_cmpuint (ranges[0].start, ==, origin + c0 * column + r0 * row_us);
  g_assert_cmpuint (ranges[1].end, ==, origin + c1 * column + (r1 + 1) * row_us);
  g_assert_false (tv_view_state_get_range (state, NULL, NULL));
  wait_view_idle (view);
  expected = count_cells_by_hand (data, origin, column, row_us, NULL, 0, c0, r0, c1, r1);
  for (guint c = c0; c <= c1; c++)
    for (guint r = r0; r <= r1; r++)
      in_cells += tv_timeline_heatmap_get_count (heatmap, c, r);
  g_test_message ("heatmap: %" G_GUINT64_FORMAT " samples selected; %s", expected,
                  tv_timeline_view_get_summary (timeline_view));
  g_assert_cmpuint (expected, >, 0);
  g_assert_cmpuint (expected, <, 5991);
  g_assert_cmpuint (in_cells, ==, expected);
  g_assert_cmpuint (tv_call_tree_get_n_samples (tv_flame_graph_get_tree (tv_flame_view_get_graph (view))),
                    ==, expected);
  /* The cells' wall time, their samples and the thread time those
   * stand for, there and above the flame graph. */
  {
    g_autofree char *count = tv_format_count (expected);
    g_autofree char *thread = tv_format_thread_time (expected
                                                     * tv_profile_data_get_seconds_per_sample (data,
                                                                                               NULL));
    g_autofree char *wall = tv_format_duration (2.0 * (r1 - r0 + 1) * row_us / 1e6);
    g_autofree char *line = g_strdup_printf ("Selected cells: %s of wall time, %s samples, %s",
                                             wall, count, thread);
    g_autofree char *headline = g_strdup_printf ("%s samples, %s in %s of wall time, in the "
                                                 "selected heatmap cells (2 time ranges)",
                                                 count, thread, wall);

    g_assert_cmpstr (tv_timeline_view_get_summary (timeline_view), ==, line);
    g_test_message ("flame graph: %s", tv_flame_view_get_summary (view));
    g_assert_true (g_str_has_suffix (tv_flame_view_get_summary (view), headline));
  }
  /* The properties' per-thread figures are those of the cells. */
  {
    TvProperties *props = tv_profile_page_get_properties (page);
    g_autofree char *text = tv_properties_dup_text (props);
    g_autofree char *row = g_strdup_printf ("%" G_GUINT64_FORMAT "\t %" G_GUINT64_FORMAT "\t",
                                            tv_timeline_get_lane (timeline, main_lane)->thread_id,
                                            count_cells_by_hand (data, origin, column, row_us,
                                                                 &main_lane, 1, c0, r0, c1, r1));

    g_assert_cmpuint (tv_properties_get_n_range_rows (props), ==, 8);
    g_assert_nonnull (strstr (text, "2 ranges from "));
    g_assert_nonnull (strstr (text, row));
  }
  save_screenshot (GTK_WIDGET (window), "ui-heatmap-selected-light.png");
  adw_style_manager_set_color_scheme (adw_style_manager_get_default (), ADW_COLOR_SCHEME_FORCE_DARK);
  save_screenshot (GTK_WIDGET (window), "ui-heatmap-selected-dark.png");
  adw_style_manager_set_color_scheme (adw_style_manager_get_default (), ADW_COLOR_SCHEME_DEFAULT);

  /* Zoom to the selection, from the heatmap: the lanes come back showing
   * the first cell's start to the last one's end, cut at the last sample
   * (the cells of the last second go on past it); the selection stays. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (timeline_view), "timeline.zoom-selection",
                                             NULL));
  g_assert_true (gtk_widget_get_visible (area));
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (heatmap_view)));
  tv_timeline_view_get_window (timeline_view, &t0, &t1);
  g_assert_cmpfloat (t0, ==, (double) (c0 * column + r0 * row_us));
  g_assert_cmpfloat ((double) (c1 * column + (r1 + 1) * row_us), >, duration);
  g_assert_cmpfloat (t1, ==, duration);
  ranges = tv_view_state_get_ranges (state, &n_ranges);
  g_assert_cmpuint (n_ranges, ==, 2);
  save_screenshot (GTK_WIDGET (window), "ui-lanes-cells-zoomed-light.png");
  adw_style_manager_set_color_scheme (adw_style_manager_get_default (), ADW_COLOR_SCHEME_FORCE_DARK);
  save_screenshot (GTK_WIDGET (window), "ui-lanes-cells-zoomed-dark.png");
  adw_style_manager_set_color_scheme (adw_style_manager_get_default (), ADW_COLOR_SCHEME_DEFAULT);
  /* Back to the whole profile, forward and back again. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (timeline_view), "timeline.back", NULL));
  tv_timeline_view_get_window (timeline_view, &t0, &t1);
  g_assert_cmpfloat (t0, ==, 0);
  g_assert_cmpfloat (t1, ==, duration);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (timeline_view), "timeline.forward", NULL));
  tv_timeline_view_get_window (timeline_view, &t0, &t1);
  g_assert_cmpfloat (t0, ==, (double) (c0 * column + r0 * row_us));
  g_assert_cmpfloat (t1, ==, duration);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (timeline_view), "timeline.back", NULL));

  /* The lanes shade the cells' time and dim the rest, once the graph's
   * new view and the timeline's highlight of it are made (on a busy
   * machine they can still be on their workers). */
  wait_view_idle (view);
  WAIT_UNTIL (!tv_timeline_view_get_highlight_busy (timeline_view), 60000);
  save_screenshot (GTK_WIDGET (window), "ui-lanes-cells-light.png");
  ranges = tv_view_state_get_ranges (state, &n_ranges);
  /* A frame that does not show them yet is taken again, for 20 s at
   * most: the lanes must end up showing them. */
  for (guint tries = 0;; tries++)
    {
      g_autofree char *problem = NULL;

      save_screenshot (GTK_WIDGET (timeline_view), "ui-lanes-cells-timeline.png");
      problem = cells_over_lanes_problem (timeline_view, main_lane, ranges, n_ranges,
                                          "ui-heatmap-lanes-before.png",
                                          "ui-lanes-cells-timeline.png");
      if (problem == NULL)
        break;
      g_test_message ("the lanes do not show the cells yet: %s", problem);
      if (tries == 50)
        g_assert_null (problem);
    }
  adw_style_manager_set_color_scheme (adw_style_manager_get_default (), ADW_COLOR_SCHEME_FORCE_DARK);
  save_screenshot (GTK_WIDGET (window), "ui-lanes-cells-dark.png");
  adw_style_manager_set_color_scheme (adw_style_manager_get_default (), ADW_COLOR_SCHEME_DEFAULT);

  /* Cells whose last one ends before the last sample: the lanes zoom to
   * exactly the first one's start to the last one's end. */
  tv_heatmap_view_select (heatmap_view, 0, 5, 1, 10);
  ranges = tv_view_state_get_ranges (state, &n_ranges);
  g_assert_cmpuint (n_ranges, ==, 2);
  g_assert_cmpfloat ((double) (ranges[1].end - origin), <, duration);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (timeline_view), "timeline.zoom-selection",
                                             NULL));
  tv_timeline_view_get_window (timeline_view, &t0, &t1);
  g_assert_cmpfloat (t0, ==, (double) (ranges[0].start - origin));
  g_assert_cmpfloat (t1, ==, (double) (ranges[1].end - origin));
  g_assert_cmpfloat (t0, ==, 5 * row_us);
  g_assert_cmpfloat (t1, ==, column + 11 * row_us);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (timeline_view), "timeline.back", NULL));
  tv_timeline_view_get_window (timeline_view, &t0, &t1);
  g_assert_cmpfloat (t0, ==, 0);
  g_assert_cmpfloat (t1, ==, duration);

  /* The first selection again, on the heatmap. */
  tv_heatmap_view_select (heatmap_view, c0, r0, c1, r1);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (timeline_view), "timeline.view", "s",
                                             "heatmap"));
  WAIT_UNTIL (gtk_widget_get_mapped (GTK_WIDGET (heatmap_view))
              && !tv_heatmap_view_get_busy (heatmap_view), 10000);
  g_assert_true (tv_heatmap_view_get_heatmap (heatmap_view) == heatmap);

  /* One thread: the heatmap is made again for it, the selection stays. */
  tv_view_state_set_threads (state, &main_lane, 1);
  WAIT_UNTIL (tv_heatmap_view_get_heatmap (heatmap_view) != heatmap
              && !tv_heatmap_view_get_busy (heatmap_view), 10000);
  heatmap = tv_heatmap_view_get_heatmap (heatmap_view);
  for (guint c = 0; c < tv_timeline_heatmap_get_n_columns (heatmap); c++)
    for (guint r = 0; r < tv_timeline_heatmap_get_n_rows (heatmap); r++)
      g_assert_cmpuint (tv_timeline_heatmap_get_count (heatmap, c, r), ==,
                        count_cells_by_hand (data, origin, column, row_us, &main_lane, 1,
                                             c, r, c, r));
  wait_view_idle (view);
  g_assert_cmpuint (tv_call_tree_get_n_samples (tv_flame_graph_get_tree (tv_flame_view_get_graph (view))),
                    ==, count_cells_by_hand (data, origin, column, row_us, &main_lane, 1,
                                             c0, r0, c1, r1));
  /* The selection's count is the graph's: of the thread and the state
   * shown, not of every thread. */
  g_test_message ("one thread: %s", tv_timeline_view_get_summary (timeline_view));
  g_assert_cmpuint (summary_count (timeline_view), ==,
                    tv_call_tree_get_n_samples (tv_flame_graph_get_tree (tv_flame_view_get_graph (view))));
  {
    guint64 all_states;

    tv_view_state_set_threads (state, NULL, 0);
    wait_view_idle (view);
    all_states = summary_count (timeline_view);
    g_assert_cmpuint (all_states, ==,
                      tv_call_tree_get_n_samples (tv_flame_graph_get_tree (tv_flame_view_get_graph (view))));
    tv_view_state_set_state_filter (state, TV_STATE_FILTER_GIL);
    wait_view_idle (view);
    g_test_message ("holding the GIL: %s", tv_timeline_view_get_summary (timeline_view));
    g_assert_cmpuint (summary_count (timeline_view), ==,
                      tv_call_tree_get_n_samples (tv_flame_graph_get_tree (tv_flame_view_get_graph (view))));
    g_assert_cmpuint (summary_count (timeline_view), >, 0);
    g_assert_cmpuint (summary_count (timeline_view), <, all_states);
  }
  tv_view_state_set_state_filter (state, TV_STATE_FILTER_ALL);
  tv_view_state_set_threads (state, &main_lane, 1);

  /* Escape clears the selection; the lanes come back. */
  press_binding (GTK_WIDGET (timeline_view), GDK_KEY_Escape);
  g_assert_null (tv_view_state_get_ranges (state, &n_ranges));
  g_assert_cmpuint (n_ranges, ==, 0);
  g_assert_cmpuint (tv_properties_get_n_range_rows (tv_profile_page_get_properties (page)), ==, 0);
  wait_view_idle (view);
  g_assert_cmpuint (tv_call_tree_get_n_samples (tv_flame_graph_get_tree (tv_flame_view_get_graph (view))),
                    ==, tv_timeline_get_lane (timeline, main_lane)->n_samples);
  tv_view_state_set_threads (state, NULL, 0);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (timeline_view), "timeline.view", "s",
                                             "lanes"));
  g_assert_true (gtk_widget_get_visible (area));
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (heatmap_view)));
  ui_test_close_page (window, page);
}

/* A profile of a script that exists on this machine: work() runs line 3
 * seven times and line 5 three times, called from main() at line 9. */
static char *
write_source_profile (const char *dir)
{
  static const char source[] =
    "import time\n"
    "def work():\n"
    "    total = sum(range(1000))\n"
    "    time.sleep(0)\n"
    "    return total * 2\n"
    "\n"
    "\n"
    "def main():\n"
    "    work()\n";
  g_autofree char *script = g_build_filename (dir, "app.py", NULL);
  char *path = g_build_filename (dir, "app.tach", NULL);
  TachWriterOptions options = { 0 };
  TachWriter *writer = NULL;
  TachError tach_error;
  TachFrameInfo work3 = { script, "work", 3, 3, 12, 28, 83 };
  TachFrameInfo work5 = { script, "work", 5, 5, 11, 20, 100 };
  TachFrameInfo main9 = { script, "main", 9, 9, 4, 10, 53 };
  guint32 f_work3, f_work5, f_main9;
  g_autoptr(GError) error = NULL;

  g_assert_true (g_file_set_contents (script, source, -1, &error));
  options.start_time_us = 1000000;
  options.sample_interval_us = 1000;
  options.mode_raw = 1;
  if (tach_writer_new (path, &options, &writer, &tach_error) != TACH_OK
      || tach_writer_intern_frame (writer, &work3, &f_work3, &tach_error) != TACH_OK
      || tach_writer_intern_frame (writer, &work5, &f_work5, &tach_error) != TACH_OK
      || tach_writer_intern_frame (writer, &main9, &f_main9, &tach_error) != TACH_OK)
    g_error ("%s", tach_error.message);
  for (guint i = 0; i < 10; i++)
    {
      guint32 stack[2] = { i < 7 ? f_work3 : f_work5, f_main9 };

      if (tach_writer_add_sample (writer, 7, 0, options.start_time_us + i * 1000,
                                  TACH_STATUS_HAS_GIL | TACH_STATUS_ON_CPU | TACH_STATUS_MAIN_THREAD,
                                  stack, 2, &tach_error) != TACH_OK)
        g_error ("%s", tach_error.message);
    }
  if (tach_writer_finish (writer, &tach_error) != TACH_OK)
    g_error ("%s", tach_error.message);
  return path;
}

/* The side panel: the function table follows the graph's selection, a
 * row highlights the function's frames, and the source view shows the
 * lines with their samples. */
static void
test_side_panel (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("tv-test-source-XXXXXX", &error);
  g_autofree char *path = write_source_profile (dir);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  TvWindow *window = get_window ();
  TvProfilePage *page = tv_window_open_file (window, file);
  TvFlameView *view;
  TvFlameGraph *graph;
  TvFunctionTable *table;
  TvSourceView *source;
  TvCallTree *tree;
  guint32 main_node, work_node, work_function;
  guint64 total, self_samples;

  ui_test_wait_loaded (page);
  view = tv_profile_page_get_flame_view (page);
  graph = tv_flame_view_get_graph (view);
  table = tv_flame_view_get_function_table (view);
  source = tv_flame_view_get_source_view (view);
  wait_view_idle (view);
  tree = tv_flame_graph_get_tree (graph);
  g_assert_cmpuint (tv_call_tree_get_n_samples (tree), ==, 10);

  /* The table fits the side panel with nothing selected (its wrapping
   * hint once made it wider than the panel, cut off on both sides). */
  {
    GtkWidget *side = gtk_widget_get_parent (GTK_WIDGET (table));
    graphene_rect_t bounds;

    ui_test_spin (50);
    g_assert_true (gtk_widget_compute_bounds (GTK_WIDGET (table), side, &bounds));
    g_assert_cmpfloat (bounds.origin.x, >=, 0);
    g_assert_cmpfloat (bounds.origin.x + bounds.size.width, <=, gtk_widget_get_width (side));
  }

  main_node = widest_child (tree, TV_ROOT_NODE);
  work_node = widest_child (tree, main_node);
  work_function = tv_call_tree_get_function (tree, work_node);
  g_assert_cmpstr (tv_profile_data_get_funcname (tv_call_tree_get_data (tree),
                                                 tv_call_tree_get_frame (tree, work_node)),
                   ==, "work");

  /* Selecting a frame selects its function and shows its source. */
  tv_flame_graph_set_selected (graph, work_node);
  g_assert_cmpuint (tv_function_table_get_selected_function (table), ==, work_function);
  WAIT_UNTIL (!tv_source_view_is_busy (source), 10000);
  g_assert_true (tv_source_view_has_source (source));
  g_assert_true (tv_source_view_get_line_samples (source, 3, &total, &self_samples));
  g_assert_cmpuint (total, ==, 7);
  g_assert_cmpuint (self_samples, ==, 7);
  g_assert_true (tv_source_view_get_line_samples (source, 5, &total, &self_samples));
  g_assert_cmpuint (total, ==, 3);
  g_assert_false (tv_source_view_get_line_samples (source, 4, NULL, NULL));
  g_assert_cmpuint (tv_source_view_get_n_instructions (source), ==, 2);
  {
    GtkWidget *side = gtk_widget_get_parent (GTK_WIDGET (source));

    int minimum, natural;

    gtk_stack_set_visible_child (GTK_STACK (side), GTK_WIDGET (source));
    save_screenshot (GTK_WIDGET (window), "ui-source.png");
    /* The side panel never makes the window taller than it is. */
    gtk_widget_measure (GTK_WIDGET (view), GTK_ORIENTATION_VERTICAL, -1, &minimum, &natural,
                        NULL, NULL);
    g_test_message ("flame view: minimum height %d, natural %d, allocated %d",
                    minimum, natural, gtk_widget_get_height (GTK_WIDGET (view)));
    g_assert_cmpint (minimum, <=, gtk_widget_get_height (GTK_WIDGET (view)));
    gtk_stack_set_visible_child (GTK_STACK (side), GTK_WIDGET (table));
  }

  /* A row of the table highlights that function's frames. */
  g_signal_emit_by_name (table, "function-selected", (guint) tv_call_tree_get_function (tree, main_node));
  WAIT_UNTIL (tv_flame_view_get_matches (view) != NULL
              && tv_flame_matches_contains (tv_flame_view_get_matches (view), main_node), 10000);
  g_assert_false (tv_flame_matches_contains (tv_flame_view_get_matches (view), work_node));
  g_assert_cmpuint (tv_flame_matches_get_n_samples (tv_flame_view_get_matches (view)), ==, 10);
  save_screenshot (GTK_WIDGET (window), "ui-function-table.png");

  /* The file gone, the view says so and still counts the lines. */
  {
    g_autofree char *script = g_build_filename (dir, "app.py", NULL);
    g_autofree char *moved_dir = g_build_filename (dir, "elsewhere", NULL);
    g_autofree char *moved = g_build_filename (moved_dir, "app.py", NULL);
    GtkWidget *find;

    g_assert_cmpint (g_mkdir (moved_dir, 0700), ==, 0);
    g_assert_cmpint (g_rename (script, moved), ==, 0);
    tv_flame_graph_set_selected (graph, main_node);
    WAIT_UNTIL (!tv_source_view_is_busy (source), 10000);
    g_assert_false (tv_source_view_has_source (source));
    g_test_message ("missing source: %s", tv_source_view_get_status (source));
    g_assert_nonnull (strstr (tv_source_view_get_status (source), "not on this machine"));
    g_assert_true (tv_source_view_get_line_samples (source, 9, &total, NULL));
    g_assert_cmpuint (total, ==, 10);

    /* "Find the File…" is offered; the file found there, its folder
     * stands for the recorded one. */
    find = find_widget (GTK_WIDGET (source), is_labelled, "_Find the File…");
    g_assert_nonnull (find);
    g_assert_true (gtk_widget_get_visible (find));
    gtk_stack_set_visible_child (GTK_STACK (gtk_widget_get_parent (GTK_WIDGET (source))),
                                 GTK_WIDGET (source));
    save_screenshot (GTK_WIDGET (window), "ui-source-missing.png");
    tv_source_view_locate (source, moved);
    WAIT_UNTIL (!tv_source_view_is_busy (source), 10000);
    g_assert_true (tv_source_view_has_source (source));
    g_assert_false (gtk_widget_get_visible (find));
    g_assert_true (tv_source_view_get_line_samples (source, 9, &total, NULL));
    g_assert_cmpuint (total, ==, 10);
    /* Another function of the file is found there too. */
    tv_flame_graph_set_selected (graph, work_node);
    WAIT_UNTIL (!tv_source_view_is_busy (source), 10000);
    g_assert_true (tv_source_view_has_source (source));
    g_unlink (moved);
    g_rmdir (moved_dir);
  }

  ui_test_close_page (window, page);
  g_unlink (path);
  g_rmdir (dir);
}

static void
test_flamegraph_async_layout (void)
{
  g_autoptr(GFile) file = data_file ("valid", "rec_recursive.tach");
  TvWindow *window = get_window ();
  TvProfilePage *page;
  TvFlameView *view;
  TvFlameGraph *graph;
  TvCallTree *before_tree;
  guint32 child;
  double x, y;

  /* Every layout made on the worker, as big trees have them. */
  g_setenv ("TV_FLAME_ASYNC_LAYOUT", "1", TRUE);
  page = tv_window_open_file (window, file);
  WAIT_UNTIL (tv_profile_page_get_state (page) != TV_PROFILE_PAGE_LOADING, 10000);
  g_unsetenv ("TV_FLAME_ASYNC_LAYOUT");
  g_assert_cmpint (tv_profile_page_get_state (page), ==, TV_PROFILE_PAGE_LOADED);
  view = tv_profile_page_get_flame_view (page);
  graph = tv_flame_view_get_graph (view);
  wait_view_idle (view);

  /* A new tree: the old tree's layout shows until the new one is in, and
   * a click meanwhile does nothing.  (The old tree may be laid out again
   * meanwhile, at another size: the data-quality banner slides in once
   * the samples are counted.) */
  before_tree = tv_flame_layout_get_tree (tv_flame_graph_get_layout (graph));
  tv_view_state_set_merge (tv_profile_page_get_view_state (page), TV_MERGE_LINE);
  WAIT_UNTIL (tv_call_tree_get_merge (tv_flame_graph_get_tree (graph)) == TV_MERGE_LINE, 10000);
  if (tv_flame_graph_is_laying_out (graph))
    {
      GtkEventController *click = ui_test_find_controller (GTK_WIDGET (graph),
                                                           GTK_TYPE_GESTURE_CLICK,
                                                           GDK_BUTTON_PRIMARY);

      g_assert_true (tv_flame_layout_get_tree (tv_flame_graph_get_layout (graph)) == before_tree);
      g_assert_true (before_tree != tv_flame_graph_get_tree (graph));
      g_signal_emit_by_name (click, "released", 1, 10.0,
                             (double) gtk_widget_get_height (GTK_WIDGET (graph)) - 5);
      g_assert_cmpuint (tv_flame_graph_get_zoom_root (graph), ==, TV_ROOT_NODE);
    }
  wait_view_idle (view);
  g_assert_true (tv_flame_layout_get_tree (tv_flame_graph_get_layout (graph))
                 == tv_flame_graph_get_tree (graph));

  /* Zooming (animated, laid out at once) and back (on the worker). */
  child = widest_child (tv_flame_graph_get_tree (graph), TV_ROOT_NODE);
  tv_flame_graph_zoom_to (graph, child);
  wait_view_idle (view);
  g_assert_true (ui_test_node_center (graph, child, &x, &y));
  g_assert_cmpfloat (x, ==, gtk_widget_get_width (GTK_WIDGET (graph)) / 2.0);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (graph), "flame.back", NULL));
  wait_view_idle (view);
  g_assert_cmpuint (tv_flame_graph_get_zoom_root (graph), ==, TV_ROOT_NODE);
  ui_test_close_page (window, page);
}

/* Zoomed deep, the path shows its names whole (up to 16 characters each)
 * and scrolls to keep its end, the zoomed frame, in view. */
static void
test_breadcrumbs (void)
{
  g_autoptr(GFile) file = data_file ("valid", "rec_recursive.tach");
  TvWindow *window;
  TvProfilePage *page;
  TvFlameView *view;
  TvFlameGraph *graph;
  GtkWidget *crumbs, *scroller;
  GtkAdjustment *adjustment;
  guint32 node = TV_ROOT_NODE;
  guint depth = 0, n_whole = 0;

  g_application_activate (G_APPLICATION (application));
  window = get_window ();
  page = tv_window_open_file (window, file);
  ui_test_wait_loaded (page);
  tv_profile_page_show_view (page, "flamegraph");
  view = tv_profile_page_get_flame_view (page);
  graph = tv_flame_view_get_graph (view);
  wait_view_idle (view);
  while (depth < 14 && widest_child (tv_flame_graph_get_tree (graph), node) != TV_NODE_NONE)
    {
      node = widest_child (tv_flame_graph_get_tree (graph), node);
      depth++;
    }
  g_assert_cmpuint (depth, ==, 14);
  tv_flame_graph_zoom_to (graph, node);
  wait_view_idle (view);
  ui_test_spin (50);

  crumbs = GTK_WIDGET (gtk_widget_get_template_child (GTK_WIDGET (view), TV_TYPE_FLAME_VIEW,
                                                     "breadcrumbs"));
  scroller = GTK_WIDGET (gtk_widget_get_template_child (GTK_WIDGET (view), TV_TYPE_FLAME_VIEW,
                                                       "crumb_scroller"));
  for (GtkWidget *child = gtk_widget_get_first_child (crumbs); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (GTK_IS_BUTTON (child))
      {
        GtkLabel *label = GTK_LABEL (gtk_button_get_child (GTK_BUTTON (child)));

        if (g_utf8_strlen (gtk_label_get_text (label), -1) <= 16)
          {
            g_assert_false (pango_layout_is_ellipsized (gtk_label_get_layout (label)));
            n_whole++;
          }
      }
  g_assert_cmpuint (n_whole, >=, 10);
  adjustment = gtk_scrolled_window_get_hadjustment (GTK_SCROLLED_WINDOW (scroller));
  g_test_message ("path of %u crumbs: %.0f px wide, %.0f px shown from %.0f", depth + 1,
                  gtk_adjustment_get_upper (adjustment),
                  gtk_adjustment_get_page_size (adjustment),
                  gtk_adjustment_get_value (adjustment));
  g_assert_cmpfloat (gtk_adjustment_get_upper (adjustment), >,
                     gtk_adjustment_get_page_size (adjustment));
  g_assert_cmpfloat (gtk_adjustment_get_value (adjustment)
                     + gtk_adjustment_get_page_size (adjustment), >=,
                     gtk_adjustment_get_upper (adjustment) - 0.5);
  /* The last crumb is drawn inside the scroller. */
  {
    graphene_rect_t bounds;

    ui_test_spin (100);
    g_assert_true (gtk_widget_compute_bounds (gtk_widget_get_last_child (crumbs), scroller,
                                              &bounds));
    g_test_message ("last crumb at %.0f..%.0f of %d", bounds.origin.x,
                    bounds.origin.x + bounds.size.width, gtk_widget_get_width (scroller));
    g_assert_cmpfloat (bounds.origin.x, >=, 0);
    g_assert_cmpfloat (bounds.origin.x + bounds.size.width, <=,
                       gtk_widget_get_width (scroller) + 0.5);
  }
  save_screenshot (GTK_WIDGET (window), "ui-breadcrumbs.png");
  ui_test_close_page (window, page);
}

/* ------------------------------------------------------------------------ */
/* Names of 100 KB                                                           */
/* ------------------------------------------------------------------------ */

/* A profile in DIR: main() calls a function of a 100 KB name (*NAME) in a
 * file of a 100 KB path (*FILE), which has most samples, and a plain one. */
static char *
write_long_names_profile (const char  *dir,
                          char       **name,
                          char       **file)
{
  GString *long_name = g_string_new ("long_head_");
  GString *long_file = g_string_new ("/srv/");
  char *path = g_build_filename (dir, "long.tach", NULL);

  while (long_name->len < 100 * 1024)
    g_string_append (long_name, "middle_");
  g_string_append (long_name, "long_tail");
  while (long_file->len < 100 * 1024)
    g_string_append (long_file, "dir/");
  g_string_append (long_file, "long_module.py");
  {
    TachFrameInfo infos[] = {
      { "/srv/app/main.py", "main", 1, -1, -1, -1, TACH_OPCODE_NONE },
      { long_file->str, long_name->str, 2, -1, -1, -1, TACH_OPCODE_NONE },
      { "/srv/app/plain.py", "plain", 3, -1, -1, -1, TACH_OPCODE_NONE },
    };

    format_test_write_two_callees (path, infos);
  }
  *name = g_string_free (long_name, FALSE);
  *file = g_string_free (long_file, FALSE);
  return path;
}

/* TEXT is NAME as a name is shown: cut to its start and end. */
static void
assert_shown_name (const char *text,
                   const char *name)
{
  g_autofree char *shown = tv_text_dup_shown (name);

  g_assert_cmpstr (text, ==, shown);
  g_assert_cmpint (g_utf8_strlen (text, -1), ==, TV_TEXT_SHOWN_CHARS + 1);
}

static gboolean
shows_text (GtkWidget  *widget,
            const char *text)
{
  return GTK_IS_LABEL (widget) && gtk_widget_get_mapped (widget)
         && g_strcmp0 (gtk_label_get_text (GTK_LABEL (widget)), text) == 0;
}

/* The text a local clipboard holds. */
static char *
dup_clipboard_text (GdkClipboard *clipboard)
{
  GdkContentProvider *content = gdk_clipboard_get_content (clipboard);
  GValue value = G_VALUE_INIT;
  char *text;

  g_assert_nonnull (content);
  g_value_init (&value, G_TYPE_STRING);
  g_assert_true (gdk_content_provider_get_value (content, &value, NULL));
  text = g_value_dup_string (&value);
  g_value_unset (&value);
  return text;
}

/* A function name and a file path of 100 KB, in a folder of a long path:
 * every view of the window shows them cut (the tab's tooltip, the
 * properties, the flame graph's tooltip, the function table and its
 * heading, the source view's title and status, the breadcrumbs); what
 * copies copies them whole. */
static void
test_long_names (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *top = g_dir_make_tmp ("tv-test-long-XXXXXX", &error);
  g_autofree char *dir = NULL;
  g_autofree char *path = NULL;
  g_autofree char *name = NULL;
  g_autofree char *file_name = NULL;
  g_autoptr(GFile) file = NULL;
  g_autoptr(GString) folder = g_string_new (NULL);
  TvWindow *window;
  TvProfilePage *page;
  TvFlameView *view;
  TvFlameGraph *graph;
  TvFunctionTable *table;
  TvSourceView *source;
  TvCallTree *tree;
  GtkWidget *label;
  guint32 main_node, long_node = TV_NODE_NONE;
  double x, y;

  g_assert_no_error (error);
  g_application_activate (G_APPLICATION (application));
  window = get_window ();
  for (guint i = 0; i < 3; i++)
    g_string_append_printf (folder, "%sfolder_%u_with_a_long_name_%s", i > 0 ? "/" : "", i,
                            "so_that_the_whole_path_is_longer_than_a_name_is_shown");
  dir = g_build_filename (top, folder->str, NULL);
  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
  path = write_long_names_profile (dir, &name, &file_name);
  g_assert_cmpint (strlen (path), >, TV_TEXT_SHOWN_CHARS);
  file = g_file_new_for_path (path);
  page = tv_window_open_file (window, file);
  ui_test_wait_loaded (page);

  /* The tab: its name whole (it is short), its path cut, as markup. */
  {
    AdwTabPage *tab = adw_tab_view_get_page (tv_window_get_tab_view (window), GTK_WIDGET (page));
    g_autofree char *shown = tv_text_dup_shown (path);
    g_autofree char *markup = g_markup_escape_text (shown, -1);

    g_assert_cmpstr (adw_tab_page_get_title (tab), ==, "long.tach");
    g_assert_cmpstr (adw_tab_page_get_tooltip (tab), ==, markup);
  }

  /* The properties: the path cut, copied whole by "Copy as Text" and from
   * its label. */
  tv_profile_page_show_view (page, "properties");
  ui_test_spin (50);
  {
    TvProperties *properties = tv_profile_page_get_properties (page);
    g_autofree char *text = tv_properties_dup_text (properties);
    g_autofree char *shown = tv_text_dup_shown (path);
    g_autofree char *copied = NULL;
    g_autofree char *whole_line = g_strdup_printf ("  File: %s\n", path);

    g_assert_nonnull (strstr (text, whole_line));
    label = find_widget (GTK_WIDGET (properties), shows_text, shown);
    g_assert_nonnull (label);
    gtk_label_select_region (GTK_LABEL (label), 0, 10);
    g_signal_emit_by_name (label, "copy-clipboard");
    copied = dup_clipboard_text (gtk_widget_get_clipboard (label));
    g_assert_cmpstr (copied, ==, path);
  }

  tv_profile_page_show_view (page, "flamegraph");
  view = tv_profile_page_get_flame_view (page);
  graph = tv_flame_view_get_graph (view);
  table = tv_flame_view_get_function_table (view);
  source = tv_flame_view_get_source_view (view);
  wait_view_idle (view);
  tree = tv_flame_graph_get_tree (graph);
  main_node = widest_child (tree, TV_ROOT_NODE);
  long_node = widest_child (tree, main_node);
  g_assert_cmpstr (tv_profile_data_get_funcname (tv_call_tree_get_data (tree),
                                                 tv_call_tree_get_frame (tree, long_node)),
                   ==, name);

  /* The flame graph's tooltip: the name and the file cut; copied, the
   * name is whole. */
  {
    g_autofree char *tip = NULL;
    g_autofree char *shown_name = tv_text_dup_shown (name);
    g_autofree char *shown_file = tv_text_dup_shown (file_name);
    g_autofree char *start = g_strdup_printf ("%s\n%s:2\n", shown_name, shown_file);
    g_autofree char *copied = NULL;

    g_assert_true (ui_test_node_center (graph, long_node, &x, &y));
    tip = tv_flame_graph_describe_at (graph, x, y);
    g_assert_nonnull (tip);
    g_assert_true (g_str_has_prefix (tip, start));
    g_assert_cmpint (strlen (tip), <, 2000);

    tv_flame_graph_set_selected (graph, long_node);
    g_assert_true (gtk_widget_activate_action (GTK_WIDGET (graph), "flame.copy-name", NULL));
    copied = dup_clipboard_text (gtk_widget_get_clipboard (GTK_WIDGET (graph)));
    g_assert_cmpstr (copied, ==, name);
  }

  /* The function table follows the selection: its cell and its heading
   * cut, the heading's tooltip (the file) too. */
  ui_test_spin (100);
  WAIT_UNTIL (tv_function_table_get_selected_function (table)
              == tv_call_tree_get_function (tree, long_node), 10000);
  {
    g_autofree char *shown_name = tv_text_dup_shown (name);
    g_autofree char *shown_file = tv_text_dup_shown (file_name);
    GtkWidget *side = gtk_widget_get_parent (GTK_WIDGET (table));
    GtkWidget *heading = NULL, *cell = NULL;

    gtk_stack_set_visible_child (GTK_STACK (side), GTK_WIDGET (table));
    ui_test_spin (100);
    /* The heading is outside the column views, the cell in one. */
    {
      g_autoptr(GPtrArray) all = g_ptr_array_new ();
      GQueue queue = G_QUEUE_INIT;

      g_queue_push_tail (&queue, table);
      while (!g_queue_is_empty (&queue))
        {
          GtkWidget *w = g_queue_pop_head (&queue);

          if (shows_text (w, shown_name))
            g_ptr_array_add (all, w);
          for (GtkWidget *c = gtk_widget_get_first_child (w); c != NULL;
               c = gtk_widget_get_next_sibling (c))
            g_queue_push_tail (&queue, c);
        }
      for (guint i = 0; i < all->len; i++)
        {
          if (gtk_widget_get_ancestor (all->pdata[i], GTK_TYPE_COLUMN_VIEW) == NULL)
            heading = all->pdata[i];
          else
            cell = all->pdata[i];
        }
    }
    g_assert_nonnull (heading);
    g_assert_nonnull (cell);
    assert_shown_name (gtk_label_get_text (GTK_LABEL (cell)), name);
    g_assert_cmpstr (gtk_widget_get_tooltip_text (heading), ==, shown_file);
    /* One line, as a short name's. */
    g_assert_cmpint (gtk_widget_get_height (cell), <, 3 * 20);
  }

  /* The source view: its title cut, its status (GIO's message, which
   * quotes the path) too. */
  WAIT_UNTIL (!tv_source_view_is_busy (source), 10000);
  {
    g_autofree char *shown_name = tv_text_dup_shown (name);
    g_autofree char *shown_file = tv_text_dup_shown (file_name);
    g_autofree char *title = g_strdup_printf ("%s — %s", shown_name, shown_file);
    const char *status = tv_source_view_get_status (source);

    g_assert_cmpstr (tv_source_view_get_title (source), ==, title);
    g_test_message ("status: %s", status);
    g_assert_false (tv_source_view_has_source (source));
    g_assert_nonnull (strstr (status, "not on this machine"));
    g_assert_cmpint (g_utf8_strlen (status, -1), <, 3 * TV_TEXT_SHOWN_CHARS);
    gtk_stack_set_visible_child (GTK_STACK (gtk_widget_get_parent (GTK_WIDGET (source))),
                                 GTK_WIDGET (source));
    save_screenshot (GTK_WIDGET (window), "ui-long-names-source.png");
    gtk_stack_set_visible_child (GTK_STACK (gtk_widget_get_parent (GTK_WIDGET (source))),
                                 GTK_WIDGET (table));
  }

  /* The breadcrumbs, zoomed into the function: its crumb and the crumb's
   * tooltip cut. */
  tv_flame_graph_zoom_to (graph, long_node);
  wait_view_idle (view);
  ui_test_spin (50);
  {
    GtkWidget *crumbs = GTK_WIDGET (gtk_widget_get_template_child (GTK_WIDGET (view),
                                                                   TV_TYPE_FLAME_VIEW,
                                                                   "breadcrumbs"));
    GtkWidget *last = gtk_widget_get_last_child (crumbs);
    GtkLabel *crumb = GTK_LABEL (gtk_button_get_child (GTK_BUTTON (last)));
    g_autofree char *shown_name = tv_text_dup_shown (name);

    assert_shown_name (gtk_label_get_text (crumb), name);
    g_assert_cmpstr (gtk_widget_get_tooltip_text (last), ==, shown_name);
  }
  adw_style_manager_set_color_scheme (adw_style_manager_get_default (),
                                      ADW_COLOR_SCHEME_FORCE_LIGHT);
  save_screenshot (GTK_WIDGET (window), "ui-long-names-light.png");
  adw_style_manager_set_color_scheme (adw_style_manager_get_default (),
                                      ADW_COLOR_SCHEME_FORCE_DARK);
  save_screenshot (GTK_WIDGET (window), "ui-long-names-dark.png");
  adw_style_manager_set_color_scheme (adw_style_manager_get_default (),
                                      ADW_COLOR_SCHEME_DEFAULT);

  ui_test_close_page (window, page);
  ui_test_spin (50);
  g_unlink (path);
  for (char *p = dir; strlen (p) > strlen (top); )
    {
      g_rmdir (p);
      *strrchr (p, '/') = '\0';
    }
  g_rmdir (top);
}

static void
test_flamegraph (void)
{
  g_autoptr(GFile) file = data_file ("valid", "rec_threads.tach");
  TvWindow *window = get_window ();
  TvProfilePage *page = tv_window_open_file (window, file);
  TvViewState *state = tv_profile_page_get_view_state (page);
  TvFlameView *view;
  TvFlameGraph *graph;
  TvCallTree *tree;
  TvProfileData *data;
  TvFlameLayout *layout;
  g_autofree char *text = NULL;
  guint32 child, grandchild, function;
  double x, y;

  ui_test_wait_loaded (page);
  tv_profile_page_show_view (page, "flamegraph");
  view = tv_profile_page_get_flame_view (page);
  g_assert_nonnull (view);
  graph = tv_flame_view_get_graph (view);
  wait_view_idle (view);
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (graph)));

  tree = tv_flame_graph_get_tree (graph);
  data = tv_call_tree_get_data (tree);
  /* Every sample of every thread, merged by function. */
  g_assert_cmpuint (tv_call_tree_get_n_samples (tree), ==, 5991);
  g_assert_cmpint (tv_call_tree_get_merge (tree), ==, TV_MERGE_FUNCTION);
  g_assert_nonnull (strstr (tv_flame_view_get_summary (view), "all threads, all samples: 5,991 samples"));

  /* The tooltip of the root and of a frame say what the model says. */
  layout = tv_flame_graph_get_layout (graph);
  g_assert_true (ui_test_node_center (graph, TV_ROOT_NODE, &x, &y));
  text = tv_flame_graph_describe_at (graph, x, y);
  g_test_message ("root: %s", text);
  g_assert_nonnull (strstr (text, "All samples\nTotal: 5,991 samples, 9.63 s of thread time"));
  g_clear_pointer (&text, g_free);
  child = widest_child (tree, TV_ROOT_NODE);
  g_assert_true (ui_test_node_center (graph, child, &x, &y));
  g_assert_true (tv_flame_layout_hit_test (layout, x, y)->node == child);
  text = tv_flame_graph_describe_at (graph, x, y);
  g_test_message ("child: %s", text);
  {
    g_autofree char *count = tv_format_count (tv_call_tree_get_total (tree, child));
    g_autofree char *expected = g_strdup_printf ("Total: %s samples, ", count);

    g_assert_true (g_str_has_prefix (text, tv_profile_data_get_funcname (
                                             data, tv_call_tree_get_frame (tree, child))));
    g_assert_nonnull (strstr (text, expected));
    /* Seven threads start in threading's bootstrap: all but the main one. */
    g_assert_true (tv_call_tree_has_thread_counts (tree));
    g_assert_cmpuint (tv_call_tree_get_n_threads_of (tree, child), ==, 7);
    g_assert_nonnull (strstr (text, "Run by 7 threads"));
  }
  g_clear_pointer (&text, g_free);

  /* Hovering draws the highlight only. */
  {
    GtkEventController *motion = ui_test_find_controller (GTK_WIDGET (graph),
                                                          GTK_TYPE_EVENT_CONTROLLER_MOTION, 0);

    g_signal_emit_by_name (motion, "motion", x, y);
    g_assert_true (tv_flame_graph_get_layout (graph) == layout);
    save_screenshot (GTK_WIDGET (window), "ui-flamegraph-light.png");
    adw_style_manager_set_color_scheme (adw_style_manager_get_default (),
                                        ADW_COLOR_SCHEME_FORCE_DARK);
    save_screenshot (GTK_WIDGET (window), "ui-flamegraph-dark.png");
    adw_style_manager_set_color_scheme (adw_style_manager_get_default (),
                                        ADW_COLOR_SCHEME_DEFAULT);
  }

  /* A click zooms, with an animation; back returns. */
  {
    GtkEventController *click = ui_test_find_controller (GTK_WIDGET (graph),
                                                         GTK_TYPE_GESTURE_CLICK,
                                                         GDK_BUTTON_PRIMARY);

    g_signal_emit_by_name (click, "released", 1, x, y);
    wait_view_idle (view);
    g_assert_cmpuint (tv_flame_graph_get_zoom_root (graph), ==, child);
    g_assert_true (tv_flame_graph_can_go_back (graph));
    /* The zoomed frame spans the width. */
    {
      double bx, bw;

      tv_flame_layout_get_box_rect (tv_flame_graph_get_layout (graph),
                                    tv_flame_layout_lookup_node (tv_flame_graph_get_layout (graph),
                                                                 child),
                                    &bx, NULL, &bw, NULL);
      g_assert_cmpfloat (fabs (bx), <, 0.5);
      g_assert_cmpfloat (fabs (bw - gtk_widget_get_width (GTK_WIDGET (graph))), <, 0.5);
    }
    g_assert_true (gtk_widget_activate_action (GTK_WIDGET (view), "view.back", NULL));
    wait_view_idle (view);
    g_assert_cmpuint (tv_flame_graph_get_zoom_root (graph), ==, TV_ROOT_NODE);
    g_assert_true (tv_flame_graph_can_go_forward (graph));
    g_assert_true (gtk_widget_activate_action (GTK_WIDGET (view), "view.forward", NULL));
    wait_view_idle (view);
    g_assert_cmpuint (tv_flame_graph_get_zoom_root (graph), ==, child);
  }

  /* The toolbar wraps rather than widen the window: it asks for the width
   * of its widest item, not of all of them in a row (menus are as wide as
   * their longest item, longer in some languages). */
  {
    GtkWidget *toolbar = GTK_WIDGET (gtk_widget_get_template_child (GTK_WIDGET (view),
                                                                    TV_TYPE_FLAME_VIEW,
                                                                    "toolbar"));
    int minimum, widest = 0, sum = 0, n = 0;

    for (GtkWidget *item = gtk_widget_get_first_child (toolbar); item != NULL;
         item = gtk_widget_get_next_sibling (item))
      {
        int child_min;

        if (!gtk_widget_get_visible (item))
          continue;
        gtk_widget_measure (item, GTK_ORIENTATION_HORIZONTAL, -1, &child_min, NULL, NULL, NULL);
        widest = MAX (widest, child_min);
        sum += child_min;
        n++;
      }
    gtk_widget_measure (toolbar, GTK_ORIENTATION_HORIZONTAL, -1, &minimum, NULL, NULL, NULL);
    minimum -= gtk_widget_get_margin_start (toolbar) + gtk_widget_get_margin_end (toolbar);
    g_assert_cmpint (n, >=, 6);
    g_assert_cmpint (minimum, ==, widest);
    g_assert_cmpint (minimum, <, sum);
  }

  /* The keyboard: Escape resets, Up (towards the leaves in a flame
   * graph) goes to the widest child, Enter zooms. */
  press_key (GTK_WIDGET (graph), GDK_KEY_Escape);
  wait_view_idle (view);
  g_assert_cmpuint (tv_flame_graph_get_zoom_root (graph), ==, TV_ROOT_NODE);
  tv_flame_graph_set_selected (graph, child);
  grandchild = widest_child (tree, child);
  g_assert_cmpuint (grandchild, !=, TV_NODE_NONE);
  press_key (GTK_WIDGET (graph), GDK_KEY_Up);
  g_assert_cmpuint (tv_flame_graph_get_selected (graph), ==, grandchild);
  /* The selection is drawn: an outline in the accent colour along the
   * top of its box, where the frame's own colour was. */
  {
    TvFlameLayout *shown = tv_flame_graph_get_layout (graph);
    const TvFlameBox *box = tv_flame_layout_lookup_node (shown, grandchild);
    g_autoptr(cairo_surface_t) plain = NULL;
    g_autoptr(cairo_surface_t) outlined = NULL;
    double bx, by, bw, bh;
    int px, py;

    g_assert_nonnull (box);
    tv_flame_layout_get_box_rect (shown, box, &bx, &by, &bw, &bh);
    g_assert_cmpfloat (bw, >, 40);
    px = (int) (MAX (bx, 0) + 20);
    py = (int) by + 1;
    ui_test_save_screenshot (GTK_WIDGET (graph), "flame-selected.png", 100);
    tv_flame_graph_set_selected (graph, TV_NODE_NONE);
    ui_test_save_screenshot (GTK_WIDGET (graph), "flame-unselected.png", 100);
    tv_flame_graph_set_selected (graph, grandchild);
    outlined = load_screenshot ("flame-selected.png");
    plain = load_screenshot ("flame-unselected.png");
    g_assert_cmphex (pixel_at (plain, px, py), !=, 0x1c71d8);
    g_assert_cmphex (pixel_at (outlined, px, py), ==, 0x1c71d8);
  }
  press_key (GTK_WIDGET (graph), GDK_KEY_Down);
  g_assert_cmpuint (tv_flame_graph_get_selected (graph), ==, child);
  press_key (GTK_WIDGET (graph), GDK_KEY_Return);
  wait_view_idle (view);
  g_assert_cmpuint (tv_flame_graph_get_zoom_root (graph), ==, child);
  press_key (GTK_WIDGET (graph), GDK_KEY_Escape);
  wait_view_idle (view);

  /* Search: the share matched counts each sample once. */
  tv_flame_view_set_search (view, "worker|consumer");
  WAIT_UNTIL (tv_flame_view_get_matches (view) != NULL, 10000);
  {
    TvFlameMatches *matches = tv_flame_view_get_matches (view);
    guint64 expected = 0;
    guint n_nodes = 0;

    for (guint32 node = 1; node < tv_call_tree_get_n_nodes (tree); node++)
      {
        const char *name = tv_profile_data_get_funcname (data, tv_call_tree_get_frame (tree, node));
        const char *file_name = tv_profile_data_get_filename (data, tv_call_tree_get_frame (tree, node));
        gboolean match = strstr (name, "worker") || strstr (name, "consumer")
                         || strstr (file_name, "worker") || strstr (file_name, "consumer");
        gboolean under = FALSE;

        g_assert_cmpint (tv_flame_matches_contains (matches, node), ==, match);
        n_nodes += match;
        for (guint32 up = tv_call_tree_get_parent (tree, node); up != TV_NODE_NONE;
             up = tv_call_tree_get_parent (tree, up))
          under |= tv_flame_matches_contains (matches, up);
        if (match && !under)
          expected += tv_call_tree_get_total (tree, node);
      }
    g_assert_cmpuint (n_nodes, >, 0);
    g_assert_cmpuint (tv_flame_matches_get_n_samples (matches), ==, expected);
    g_test_message ("search: %s", tv_flame_view_get_match_text (view));
    g_assert_nonnull (strstr (tv_flame_view_get_match_text (view), "% of the samples"));
    /* Next match selects a matching frame; Shift+Enter in the entry goes
     * back to the one before. */
    g_assert_true (gtk_widget_activate_action (GTK_WIDGET (view), "view.next-match", NULL));
    g_assert_true (tv_flame_matches_contains (matches, tv_flame_graph_get_selected (graph)));
    {
      guint32 first = tv_flame_graph_get_selected (graph);
      GtkWidget *entry = GTK_WIDGET (gtk_widget_get_template_child (GTK_WIDGET (view),
                                                                    TV_TYPE_FLAME_VIEW,
                                                                    "search_entry"));
      g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (entry);
      GtkEventController *keys = NULL;
      gboolean handled = FALSE;

      for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
        {
          g_autoptr(GtkEventController) c = g_list_model_get_item (controllers, i);

          if (g_strcmp0 (gtk_event_controller_get_name (c), "tv-search-keys") == 0)
            keys = c;
        }

      g_assert_true (gtk_widget_activate_action (GTK_WIDGET (view), "view.next-match", NULL));
      g_assert_cmpuint (tv_flame_graph_get_selected (graph), !=, first);
      g_assert_nonnull (keys);
      g_signal_emit_by_name (keys, "key-pressed", GDK_KEY_Return, 0, GDK_SHIFT_MASK, &handled);
      g_assert_true (handled);
      g_assert_cmpuint (tv_flame_graph_get_selected (graph), ==, first);
      g_signal_emit_by_name (keys, "key-pressed", GDK_KEY_a, 0, GDK_SHIFT_MASK, &handled);
      g_assert_false (handled);
    }
    wait_view_idle (view);
    save_screenshot (GTK_WIDGET (window), "ui-flamegraph-search.png");
  }
  /* A bad regular expression says so and highlights nothing. */
  tv_flame_view_set_search (view, "(unclosed");
  g_assert_null (tv_flame_view_get_matches (view));
  g_assert_true (g_str_has_prefix (tv_flame_view_get_match_text (view), "Not a regular expression"));
  tv_flame_view_set_search (view, "");

  /* A right click on a frame selects it and opens the context menu. */
  {
    GtkEventController *menu_click = ui_test_find_controller (GTK_WIDGET (graph),
                                                              GTK_TYPE_GESTURE_CLICK,
                                                              GDK_BUTTON_SECONDARY);
    GtkWidget *popover = NULL;

    wait_view_idle (view);
    g_assert_true (ui_test_node_center (graph, child, &x, &y));
    tv_flame_graph_set_selected (graph, TV_NODE_NONE);
    g_signal_emit_by_name (menu_click, "pressed", 1, x, y);
    g_assert_cmpuint (tv_flame_graph_get_selected (graph), ==, child);
    for (GtkWidget *w = gtk_widget_get_first_child (GTK_WIDGET (graph)); w != NULL;
         w = gtk_widget_get_next_sibling (w))
      if (GTK_IS_POPOVER_MENU (w))
        popover = w;
    g_assert_nonnull (popover);
    WAIT_UNTIL (gtk_widget_get_mapped (popover), 2000);
    save_screenshot (GTK_WIDGET (window), "ui-flamegraph-menu.png");
    gtk_popover_popdown (GTK_POPOVER (popover));
  }

  /* Ctrl+scroll zooms the range around the pointer, without history. */
  {
    g_assert_true (tv_flame_graph_zoom_scroll (graph, gtk_widget_get_width (GTK_WIDGET (graph)) / 4.0,
                                               -1.0));
    wait_view_idle (view);
    g_assert_true (ui_test_node_center (graph, TV_ROOT_NODE, &x, &y));
    {
      double bx, bw;
      TvFlameLayout *zoomed = tv_flame_graph_get_layout (graph);

      tv_flame_layout_get_box_rect (zoomed, tv_flame_layout_lookup_node (zoomed, TV_ROOT_NODE),
                                    &bx, NULL, &bw, NULL);
      /* 0.8 of the range shows: the root is 1.25 times as wide, and the
       * point under the pointer stays where it was. */
      g_assert_cmpfloat (fabs (bw / gtk_widget_get_width (GTK_WIDGET (graph)) - 1.25), <, 0.01);
      g_assert_cmpfloat (fabs (bx + bw / 4 - gtk_widget_get_width (GTK_WIDGET (graph)) / 4.0), <, 1.0);
    }
    g_assert_cmpuint (tv_flame_graph_get_zoom_root (graph), ==, TV_ROOT_NODE);
    press_key (GTK_WIDGET (graph), GDK_KEY_Escape);
    wait_view_idle (view);
  }

  /* The context menu's transforms go through the view state. */
  tv_flame_graph_set_selected (graph, child);
  function = tv_call_tree_get_function (tree, child);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (graph), "flame.hide-function", NULL));
  wait_view_idle (view);
  tree = tv_flame_graph_get_tree (graph);
  g_assert_false (tree_has_function (tree, function));
  g_assert_cmpuint (tv_call_tree_get_n_samples (tree), ==, 5991);
  g_assert_nonnull (strstr (tv_flame_view_get_summary (view), "1 function hidden"));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (view), "view.reset-transforms", NULL));
  wait_view_idle (view);
  tree = tv_flame_graph_get_tree (graph);
  g_assert_true (tree_has_function (tree, function));

  child = widest_child (tree, TV_ROOT_NODE);
  grandchild = widest_child (tree, child);
  tv_flame_graph_set_selected (graph, grandchild);
  function = tv_call_tree_get_function (tree, grandchild);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (graph), "flame.focus-function", NULL));
  wait_view_idle (view);
  tree = tv_flame_graph_get_tree (graph);
  {
    guint n_children;
    const guint32 *children = tv_call_tree_get_children (tree, TV_ROOT_NODE, &n_children);

    g_assert_cmpuint (n_children, ==, 1);
    g_assert_cmpuint (tv_call_tree_get_function (tree, children[0]), ==, function);
  }
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (graph), "flame.collapse-recursion", NULL));
  g_assert_true (tv_view_state_get_collapse_recursion (state));
  tv_view_state_reset_transforms (state);
  wait_view_idle (view);

  /* Filters: the thread-state dropdown and the thread list. */
  {
    GtkDropDown *dropdown = GTK_DROP_DOWN (gtk_widget_get_template_child (GTK_WIDGET (view),
                                                                          TV_TYPE_FLAME_VIEW,
                                                                          "state_dropdown"));
    const guint64 *counts = tv_profile_data_get_status_counts (data);
    const TvThread *thread = tv_profile_data_get_thread (data, 1);
    guint32 index = thread->index;

    gtk_drop_down_set_selected (dropdown, TV_STATE_FILTER_CPU);
    g_assert_cmpint (tv_view_state_get_state_filter (state), ==, TV_STATE_FILTER_CPU);
    wait_view_idle (view);
    tree = tv_flame_graph_get_tree (graph);
    g_assert_cmpuint (tv_call_tree_get_n_samples (tree), ==, counts[1]);
    g_assert_nonnull (strstr (tv_flame_view_get_summary (view), "on CPU"));
    gtk_drop_down_set_selected (dropdown, TV_STATE_FILTER_ALL);

    tv_view_state_set_threads (state, &index, 1);
    wait_view_idle (view);
    tree = tv_flame_graph_get_tree (graph);
    g_assert_cmpuint (tv_call_tree_get_n_samples (tree), ==, thread->n_samples);
    tv_view_state_set_threads (state, NULL, 0);
    wait_view_idle (view);
  }

  /* Export writes what the views show: one thread, on CPU. */
  {
    const TvThread *thread = tv_profile_data_get_thread (data, 1);
    guint32 index = thread->index;
    g_autoptr(GFile) dest = g_file_new_build_filename (g_get_tmp_dir (), "tv-test-export.html",
                                                       NULL);
    g_autofree char *contents = NULL;
    g_autofree char *expected = NULL;

    tv_view_state_set_threads (state, &index, 1);
    tv_view_state_set_state_filter (state, TV_STATE_FILTER_CPU);
    tv_flame_view_set_search (view, "worker");
    contents = export_and_read (page, dest);
    g_assert_nonnull (strstr (contents, "<script type=\"application/json\" id=\"tachyon-data\">"));
    expected = g_strdup_printf ("\"filter\":{\"threads\":[\"%" G_GUINT64_FORMAT "\"],\"state\":\"cpu\"",
                                thread->thread_id);
    g_assert_nonnull (strstr (contents, expected));
    /* The page starts with the view's search. */
    g_assert_nonnull (strstr (contents, "\"view\":{\"inverted\":false,"));
    g_assert_nonnull (strstr (contents, "\"search\":\"worker\"}"));
    tv_flame_view_set_search (view, "");

    /* An .svg name gives the image of the graph as shown, zoom included. */
    {
      g_autoptr(GFile) svg = g_file_new_build_filename (g_get_tmp_dir (), "tv-test-export.svg",
                                                        NULL);
      g_autofree char *svg_text = NULL;
      guint32 zoomed;

      wait_view_idle (view);
      tree = tv_flame_graph_get_tree (graph);
      zoomed = widest_child (tree, TV_ROOT_NODE);
      tv_flame_graph_zoom_to (graph, zoomed);
      wait_view_idle (view);
      svg_text = export_and_read (page, svg);
      g_assert_true (g_str_has_prefix (svg_text, "<?xml"));
      g_assert_nonnull (strstr (svg_text, "<title>rec_threads.tach"));
      g_assert_nonnull (strstr (svg_text, tv_profile_data_get_funcname (
                                            data, tv_call_tree_get_frame (tree, zoomed))));
      press_key (GTK_WIDGET (graph), GDK_KEY_Escape);
    }
    tv_view_state_set_threads (state, NULL, 0);
    tv_view_state_set_state_filter (state, TV_STATE_FILTER_ALL);
    wait_view_idle (view);
  }

  /* A selection of heatmap cells (the view state's ranges) is what the
   * views show and what an export writes: the page's filter lists the
   * ranges, in seconds after the start, and the image says how many. */
  {
    guint64 first, last, span, expected = 0;
    guint64 start_time = tach_reader_get_header (tv_profile_data_get_reader (data))->start_time_us;
    TvTimeRange ranges[2];
    g_autoptr(GFile) dest = g_file_new_build_filename (g_get_tmp_dir (), "tv-test-ranges.html",
                                                       NULL);
    g_autoptr(GFile) svg = g_file_new_build_filename (g_get_tmp_dir (), "tv-test-ranges.svg",
                                                      NULL);
    g_autofree char *contents = NULL;
    g_autofree char *svg_text = NULL;
    g_autoptr(GString) want = g_string_new ("\"ranges_sec\":[");

    g_assert_true (tv_profile_data_get_time_span (data, &first, &last));
    span = last - first;
    ranges[0] = (TvTimeRange) { first + span / 8, first + span / 4 };
    ranges[1] = (TvTimeRange) { first + span / 2, first + span / 2 + span / 8 };
    for (guint i = 0; i < tv_profile_data_get_n_threads (data); i++)
      {
        const TvThread *t = tv_profile_data_get_thread (data, i);

        for (guint64 k = 0; k < t->n_samples; k++)
          for (guint r = 0; r < G_N_ELEMENTS (ranges); r++)
            if (tv_times_get (&t->times, k) >= ranges[r].start && tv_times_get (&t->times, k) < ranges[r].end)
              expected++;
      }
    g_assert_cmpuint (expected, >, 0);
    g_assert_cmpuint (expected, <, tv_profile_data_get_n_samples (data));

    tv_view_state_set_ranges (state, ranges, G_N_ELEMENTS (ranges));
    wait_view_idle (view);
    tree = tv_flame_graph_get_tree (graph);
    g_assert_cmpuint (tv_call_tree_get_n_samples (tree), ==, expected);

    contents = export_and_read (page, dest);
    for (guint r = 0; r < G_N_ELEMENTS (ranges); r++)
      {
        char a[TV_JSON_DOUBLE_BUF_SIZE], b[TV_JSON_DOUBLE_BUF_SIZE];

        tv_json_format_double (a, sizeof a, (double) (ranges[r].start - start_time) / 1e6);
        tv_json_format_double (b, sizeof b, (double) (ranges[r].end - start_time) / 1e6);
        g_string_append_printf (want, "%s[%s,%s]", r ? "," : "", a, b);
      }
    g_string_append_c (want, ']');
    if (strstr (contents, want->str) == NULL)
      g_error ("the page's filter lacks %s", want->str);

    svg_text = export_and_read (page, svg);
    g_assert_nonnull (strstr (svg_text, "in 2 selected time ranges"));

    tv_view_state_clear_range (state);
    wait_view_idle (view);
    g_assert_cmpuint (tv_call_tree_get_n_samples (tv_flame_graph_get_tree (graph)), ==,
                      tv_profile_data_get_n_samples (data));
  }

  /* Icicle orientation puts the root at the top. */
  {
    GtkToggleButton *icicle = GTK_TOGGLE_BUTTON (gtk_widget_get_template_child (GTK_WIDGET (view),
                                                                                TV_TYPE_FLAME_VIEW,
                                                                                "icicle_button"));

    gtk_toggle_button_set_active (icicle, TRUE);
    wait_view_idle (view);
    g_assert_true (ui_test_node_center (graph, TV_ROOT_NODE, &x, &y));
    g_assert_cmpfloat (y, <, 18);
    gtk_toggle_button_set_active (icicle, FALSE);
    wait_view_idle (view);
    g_assert_true (ui_test_node_center (graph, TV_ROOT_NODE, &x, &y));
    /* A flame graph puts it at the bottom of its rows, which hang from
     * the top when they are fewer than fit. */
    g_assert_cmpfloat (y, >, MIN (tv_flame_layout_get_content_rows (tv_flame_graph_get_layout (graph))
                                  * 18.0, gtk_widget_get_height (GTK_WIDGET (graph))) - 18);
  }

  /* Thread-state colours ask the model for each frame's states. */
  {
    GtkDropDown *colors = GTK_DROP_DOWN (gtk_widget_get_template_child (GTK_WIDGET (view),
                                                                        TV_TYPE_FLAME_VIEW,
                                                                        "colors_dropdown"));

    g_assert_false (tv_call_tree_has_status_counts (tv_flame_graph_get_tree (graph)));
    gtk_drop_down_set_selected (colors, TV_FLAME_COLORS_THREAD_STATE);
    wait_view_idle (view);
    WAIT_UNTIL (tv_call_tree_has_status_counts (tv_flame_graph_get_tree (graph)), 10000);
    g_assert_cmpint (tv_flame_graph_get_color_scheme (graph), ==, TV_FLAME_COLORS_THREAD_STATE);
    save_screenshot (GTK_WIDGET (window), "ui-flamegraph-states.png");
    gtk_drop_down_set_selected (colors, TV_FLAME_COLORS_MODULE);
  }
}

static void
test_drop (void)
{
  g_autoptr(GFile) file = data_file ("valid", "two_interpreters.tach");
  g_auto(GValue) value = G_VALUE_INIT;
  TvWindow *window = get_window ();
  AdwTabView *tab_view = tv_window_get_tab_view (window);
  int n_pages = adw_tab_view_get_n_pages (tab_view);
  GSList *files = g_slist_prepend (NULL, file);
  gboolean handled = FALSE;
  TvProfilePage *page;

  g_assert_null (tv_window_lookup_page (window, file));
  g_value_init (&value, GDK_TYPE_FILE_LIST);
  g_value_take_boxed (&value, gdk_file_list_new_from_list (files));
  g_slist_free (files);

  g_signal_emit_by_name (tv_window_get_drop_target (window), "drop", &value, 10.0, 10.0,
                         &handled);
  g_assert_true (handled);
  g_assert_cmpint (adw_tab_view_get_n_pages (tab_view), ==, n_pages + 1);
  page = tv_window_lookup_page (window, file);
  g_assert_nonnull (page);
  ui_test_wait_loaded (page);
}

static void
test_close (void)
{
  g_autoptr(GSettings) settings = g_settings_new (TV_APPLICATION_ID);
  TvWindow *window = get_window ();
  AdwTabView *tab_view = tv_window_get_tab_view (window);

  /* Closing every tab brings back the start page; closing the window
   * keeps its size. */
  while (adw_tab_view_get_n_pages (tab_view) > 0)
    adw_tab_view_close_page (tab_view, adw_tab_view_get_nth_page (tab_view, 0));
  g_assert_true (gtk_widget_is_drawable (GTK_WIDGET (window)));
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (window)), ==, "Tachyon Viewer");

  /* The start page lists the profiles opened before; a row opens one. */
  {
    GtkWidget *start_box = (GtkWidget *) gtk_widget_get_template_child (GTK_WIDGET (window),
                                                                        TV_TYPE_WINDOW,
                                                                        "start_box");
    TvStartPage *start_page = TV_START_PAGE (gtk_widget_get_first_child (start_box));
    GtkListBox *list = GTK_LIST_BOX (gtk_widget_get_template_child (GTK_WIDGET (start_page),
                                                                    TV_TYPE_START_PAGE,
                                                                    "recent_list"));
    g_autoptr(GFile) row_file = NULL;
    GtkListBoxRow *row;
    GVariant *target;

    g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (start_page)));

    /* GtkRecentManager saves, then tells, a moment after a file is added
     * (and re-reads its file when it changes), so which of the files the
     * test opened are listed at a given moment varies: take the first. */
    WAIT_UNTIL (tv_start_page_get_n_recent (start_page) >= 1, 5000);
    save_screenshot (GTK_WIDGET (window), "ui-start-page.png");
    WAIT_UNTIL ((row = gtk_list_box_get_row_at_index (list, 0)) != NULL, 5000);
    target = gtk_actionable_get_action_target_value (GTK_ACTIONABLE (row));
    row_file = g_file_new_for_uri (g_variant_get_string (target, NULL));
    g_assert_true (g_str_has_suffix (g_variant_get_string (target, NULL), ".tach"));
    g_assert_true (gtk_widget_activate (GTK_WIDGET (row)));
    g_assert_cmpint (adw_tab_view_get_n_pages (tab_view), ==, 1);
    g_assert_nonnull (tv_window_lookup_page (window, row_file));
    adw_tab_view_close_page (tab_view, adw_tab_view_get_nth_page (tab_view, 0));
  }

  gtk_window_set_default_size (GTK_WINDOW (window), 1111, 777);
  gtk_window_close (GTK_WINDOW (window));
  ui_test_spin (100);
  g_assert_cmpint (g_settings_get_int (settings, "window-width"), ==, 1111);
  g_assert_cmpint (g_settings_get_int (settings, "window-height"), ==, 777);
  g_assert_null (gtk_application_get_active_window (GTK_APPLICATION (application)));
}

int
main (int   argc,
      char *argv[])
{
  int ret;

  if (!ui_test_init (&argc, &argv))
    return 77;

  /* Start from an empty list of recent files (tests/ui/meson.build points
   * XDG_DATA_HOME into the build directory). */
  {
    g_autofree char *recent = g_build_filename (g_get_user_data_dir (),
                                                "recently-used.xbel", NULL);

    g_unlink (recent);
  }

  /* The tests share one window and run in this order (GTest runs the
   * tests of one level in the order they were added). */
  g_test_add_func ("/ui/start-page", test_start_page);
  g_test_add_func ("/ui/demo", test_demo);
  g_test_add_func ("/ui/open-dialog", test_open_dialog);
  g_test_add_func ("/ui/export-dialog", test_export_dialog);
  g_test_add_func ("/ui/export-stats", test_export_stats);
  g_test_add_func ("/ui/export-samples", test_export_samples);
  g_test_add_func ("/ui/open-valid", test_open_valid);
  g_test_add_func ("/ui/metadata-variants", test_metadata_variants);
  g_test_add_func ("/ui/properties-short-values", test_properties_short_values);
  g_test_add_func ("/ui/open-invalid", test_open_invalid);
  g_test_add_func ("/ui/cancel", test_cancel);
  g_test_add_func ("/ui/properties-many-threads", test_properties_many_threads);
  g_test_add_func ("/ui/flamegraph", test_flamegraph);
  g_test_add_func ("/ui/flamegraph-async-layout", test_flamegraph_async_layout);
  g_test_add_func ("/ui/breadcrumbs", test_breadcrumbs);
  g_test_add_func ("/ui/search-key", test_search_key);
  g_test_add_func ("/ui/side-panel", test_side_panel);
  g_test_add_func ("/ui/long-names", test_long_names);
  g_test_add_func ("/ui/timeline", test_timeline);
  g_test_add_func ("/ui/load-responsive", test_load_responsive);
  g_test_add_func ("/ui/headline", test_headline);
  g_test_add_func ("/ui/heatmap", test_heatmap);
  g_test_add_func ("/ui/drop", test_drop);
  g_test_add_func ("/ui/recent-and-close", test_close);

  ret = ui_test_run_in_application (&application, FALSE);
  if (big_path != NULL)
    g_unlink (big_path);
  if (big_dir != NULL)
    g_rmdir (big_dir);
  g_free (big_path);
  g_free (big_dir);

  return ret;
}
