/* test-file-changes.c: tabs whose file changes, or is no file at all
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A FIFO given as a profile fails at once (it used to leave its tab at
 * "Opening…" for ever); a file cut short while its samples are decoded
 * fails in its own tab, which offers Reload, while the other tabs carry on
 * (the process used to die of SIGBUS); and a loaded file that changes on
 * disk brings up the banner that offers to reload it, which reading the
 * file does not.  The cut is made by the model's load hook, on the loading
 * thread while the decoder waits, so that it always comes mid-way.
 * Screenshots, light and dark, go to TV_TEST_OUTPUT_DIR.
 */
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <adwaita.h>
#include <glib/gstdio.h>

#include "format-test-util.h"
#include "tachyon-format.h"
#include "tv-application.h"
#include "tv-window.h"
#include "ui-test-util.h"

static TvApplication *application;
/* The folder of the profiles the tests write, removed at the end. */
static FormatTestDir folder;

static TvWindow *
get_window (void)
{
  return ui_test_get_window (GTK_APPLICATION (application));
}

static char *
temp_path (const char *name)
{
  return g_build_filename (folder.dir, name, NULL);
}

/* N_SAMPLES samples in 8 threads, stacks drawn from 4096 frames: records
 * of 20 to 40 bytes, so that 400000 samples are some 14 MB.  Written aside
 * and renamed in place, as careful writers do, or IN_PLACE, as the
 * profiler does. */
static void
write_profile_full (const char *path,
                    guint       n_samples,
                    gboolean    in_place)
{
  TachWriterOptions options = { .sample_interval_us = 1000, .start_time_us = 1000000,
                                .mode_raw = 1 };
  g_autofree char *tmp = g_strconcat (path, ".new", NULL);

  format_test_write_random_stacks (in_place ? path : tmp, &options, n_samples, n_samples, 0,
                                   3);
  if (!in_place)
    g_assert_cmpint (g_rename (tmp, path), ==, 0);
}

static void
write_profile (const char *path,
               guint       n_samples)
{
  write_profile_full (path, n_samples, FALSE);
}

static GtkWidget *
template_child (TvProfilePage *page,
                const char    *name)
{
  GObject *child = gtk_widget_get_template_child (GTK_WIDGET (page), TV_TYPE_PROFILE_PAGE, name);

  g_assert_nonnull (child);
  return GTK_WIDGET (child);
}

static guint64
samples_loaded (TvProfilePage *page)
{
  TvProfileData *data = tv_profile_get_data (tv_profile_page_get_profile (page));

  g_assert_nonnull (data);
  return tv_profile_data_get_n_samples (data);
}

/* ------------------------------------------------------------------------ */

static void
test_fifo (void)
{
  g_autofree char *path = temp_path ("pipe.tach");
  g_autoptr(GFile) file = g_file_new_for_path (path);
  TvProfilePage *page;
  GtkWidget *reload;

  g_assert_cmpint (mkfifo (path, 0600), ==, 0);
  page = tv_window_open_file (get_window (), file);
  WAIT_UNTIL (tv_profile_page_get_state (page) != TV_PROFILE_PAGE_LOADING, 5000);
  g_assert_cmpint (tv_profile_page_get_state (page), ==, TV_PROFILE_PAGE_FAILED);
  g_test_message ("error: %s", tv_profile_page_get_error_message (page));
  g_assert_nonnull (strstr (tv_profile_page_get_error_message (page),
                            "This is a FIFO (a named pipe), not a regular file"));
  g_assert_cmpstr (adw_status_page_get_title (ADW_STATUS_PAGE (template_child (page, "error_page"))),
                   ==, "Could Not Open the Profile");
  reload = template_child (page, "error_reload_button");
  g_assert_true (gtk_widget_get_mapped (reload));
  ui_test_save_screenshot (GTK_WIDGET (get_window ()), "file-fifo.png", 300);

  /* Reload looks again, and is refused again at once. */
  g_assert_true (gtk_widget_activate (reload));
  WAIT_UNTIL (tv_profile_page_get_state (page) == TV_PROFILE_PAGE_FAILED
              && tv_profile_page_get_error_message (page) != NULL, 5000);
  g_unlink (path);
  ui_test_close_all_pages (get_window ());
}

typedef struct
{
  char    *path;
  guint    calls;
} Cut;

static void
cut_file (const char *path,
          guint64     samples,
          gpointer    user_data)
{
  Cut *cut = user_data;

  if (strcmp (path, cut->path) == 0 && g_atomic_int_add (&cut->calls, 1) == 0)
    g_assert_cmpint (truncate (path, 4096), ==, 0);
}

static void
test_cut_while_loading (void)
{
  g_autofree char *other_path = temp_path ("other.tach");
  g_autofree char *path = temp_path ("cut.tach");
  g_autoptr(GFile) other_file = g_file_new_for_path (other_path);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  TvWindow *window = get_window ();
  AdwTabView *tab_view = tv_window_get_tab_view (window);
  TvProfilePage *other, *page;
  g_autofree char *other_text = NULL;
  Cut cut = { path, 0 };
  GtkWidget *reload;

  /* A tab that is loaded, and one whose file is cut short as it loads. */
  write_profile (other_path, 5000);
  other = tv_window_open_file (window, other_file);
  ui_test_wait_loaded (other);
  other_text = tv_properties_dup_text (tv_profile_page_get_properties (other));

  write_profile (path, 400000);
  tv_profile_set_load_hook (cut_file, &cut);
  page = tv_window_open_file (window, file);
  WAIT_UNTIL (tv_profile_page_get_state (page) != TV_PROFILE_PAGE_LOADING, 20000);
  tv_profile_set_load_hook (NULL, NULL);
  g_assert_cmpuint (g_atomic_int_get (&cut.calls), >=, 1);

  g_assert_cmpint (tv_profile_page_get_state (page), ==, TV_PROFILE_PAGE_FAILED);
  g_test_message ("error: %s", tv_profile_page_get_error_message (page));
  g_assert_nonnull (strstr (tv_profile_page_get_error_message (page),
                            "The file changed while it was being read: it was cut short"));
  g_assert_cmpstr (adw_status_page_get_title (ADW_STATUS_PAGE (template_child (page, "error_page"))),
                   ==, "The File Changed While It Was Read");
  reload = template_child (page, "error_reload_button");
  g_assert_true (gtk_widget_get_mapped (reload));
  ui_test_set_dark (FALSE);
  ui_test_save_screenshot (GTK_WIDGET (window), "file-cut.png", 300);
  ui_test_set_dark (TRUE);
  ui_test_save_screenshot (GTK_WIDGET (window), "file-cut-dark.png", 300);
  ui_test_set_dark (FALSE);

  /* The other tab is untouched. */
  g_assert_cmpint (adw_tab_view_get_n_pages (tab_view), ==, 2);
  g_assert_cmpint (tv_profile_page_get_state (other), ==, TV_PROFILE_PAGE_LOADED);
  g_assert_cmpuint (samples_loaded (other), ==, 5000);
  {
    g_autofree char *text = tv_properties_dup_text (tv_profile_page_get_properties (other));

    g_assert_cmpstr (text, ==, other_text);
  }

  /* The copy is complete now: Reload reads it, in the same tab. */
  write_profile (path, 100000);
  g_assert_true (gtk_widget_activate (reload));
  WAIT_UNTIL (tv_profile_page_get_state (page) == TV_PROFILE_PAGE_LOADED, 20000);
  g_assert_true (tv_window_lookup_page (window, file) == page);
  g_assert_cmpint (adw_tab_view_get_n_pages (tab_view), ==, 2);
  g_assert_cmpuint (samples_loaded (page), ==, 100000);
  g_assert_nonnull (tv_profile_page_get_flame_view (page));
  g_assert_null (tv_profile_page_get_error_message (page));
  ui_test_close_all_pages (get_window ());
}

/* Reading the file, as any program may, or changing its mode, is no
 * change: the banner stays hidden.  Writing it is one. */
static void
test_changed_on_disk (void)
{
  g_autofree char *path = temp_path ("watched.tach");
  g_autoptr(GFile) file = g_file_new_for_path (path);
  TvWindow *window = get_window ();
  TvProfilePage *page;
  GtkRevealer *banner;
  GtkWidget *banner_button;
  /* Held, so that the new profile cannot take its address. */
  g_autoptr(TvProfile) first = NULL;

  write_profile (path, 20000);
  page = tv_window_open_file (window, file);
  WAIT_UNTIL (tv_profile_page_get_state (page) == TV_PROFILE_PAGE_LOADED, 10000);
  banner = GTK_REVEALER (template_child (page, "file_banner"));
  banner_button = template_child (page, "file_banner_button");

  {
    g_autofree char *contents = NULL;
    gsize len;

    ui_test_spin (600);
    g_assert_true (g_file_get_contents (path, &contents, &len, NULL));
    g_assert_cmpint (g_chmod (path, 0400), ==, 0);
    g_assert_cmpint (g_chmod (path, 0600), ==, 0);
    ui_test_spin (1000);
  }
  g_assert_cmpint (tv_profile_page_get_file_state (page), ==, TV_PROFILE_FILE_UNCHANGED);
  g_assert_false (gtk_revealer_get_reveal_child (banner));

  /* The profiler runs again with the same output. */
  write_profile_full (path, 30000, TRUE);
  WAIT_UNTIL (tv_profile_page_get_file_state (page) == TV_PROFILE_FILE_CHANGED, 10000);
  g_assert_true (gtk_revealer_get_reveal_child (banner));
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (template_child (page, "file_banner_label"))),
                   ==, "The file changed on disk.");
  /* What was read stays on screen until the user says otherwise. */
  g_assert_cmpuint (samples_loaded (page), ==, 20000);
  ui_test_save_screenshot (GTK_WIDGET (window), "file-changed.png", 400);
  ui_test_set_dark (TRUE);
  ui_test_save_screenshot (GTK_WIDGET (window), "file-changed-dark.png", 400);
  ui_test_set_dark (FALSE);

  /* Reload: the new samples, in the same tab, and the app's own read of
   * the file raises no banner. */
  first = g_object_ref (tv_profile_page_get_profile (page));
  g_assert_true (gtk_widget_get_mapped (banner_button));
  g_assert_true (gtk_widget_activate (banner_button));
  WAIT_UNTIL (tv_profile_page_get_state (page) == TV_PROFILE_PAGE_LOADED
              && tv_profile_page_get_profile (page) != first, 10000);
  g_assert_false (gtk_revealer_get_reveal_child (banner));
  g_assert_cmpuint (samples_loaded (page), ==, 30000);
  g_assert_true (tv_window_lookup_page (window, file) == page);
  ui_test_spin (1000);
  g_assert_cmpint (tv_profile_page_get_file_state (page), ==, TV_PROFILE_FILE_UNCHANGED);
  g_assert_false (gtk_revealer_get_reveal_child (banner));

  /* Gone: said so, with nothing to reload. */
  g_assert_cmpint (g_unlink (path), ==, 0);
  WAIT_UNTIL (tv_profile_page_get_file_state (page) == TV_PROFILE_FILE_DELETED, 10000);
  g_assert_true (gtk_revealer_get_reveal_child (banner));
  g_assert_false (gtk_widget_get_visible (banner_button));
  g_assert_cmpuint (samples_loaded (page), ==, 30000);
  ui_test_save_screenshot (GTK_WIDGET (window), "file-deleted.png", 400);

  /* And back: a change again. */
  write_profile (path, 1000);
  WAIT_UNTIL (tv_profile_page_get_file_state (page) == TV_PROFILE_FILE_CHANGED, 10000);
  g_assert_true (gtk_widget_get_visible (banner_button));
  ui_test_close_all_pages (get_window ());
}

/* Opening a file whose tab failed loads it again there. */
static void
test_open_failed_again (void)
{
  g_autofree char *path = temp_path ("late.tach");
  g_autoptr(GFile) file = g_file_new_for_path (path);
  TvWindow *window = get_window ();
  TvProfilePage *page;

  g_assert_true (g_file_set_contents (path, "TACH", 4, NULL));
  page = tv_window_open_file (window, file);
  WAIT_UNTIL (tv_profile_page_get_state (page) == TV_PROFILE_PAGE_FAILED, 10000);
  write_profile (path, 1000);
  g_assert_true (tv_window_open_file (window, file) == page);
  WAIT_UNTIL (tv_profile_page_get_state (page) == TV_PROFILE_PAGE_LOADED, 10000);
  g_assert_cmpuint (samples_loaded (page), ==, 1000);
  ui_test_close_all_pages (get_window ());
}

int
main (int   argc,
      char *argv[])
{
  int ret;

  if (!ui_test_init (&argc, &argv))
    return 77;

  format_test_dir_init (&folder, "tv-test-file-XXXXXX");

  g_test_add_func ("/ui/file/fifo", test_fifo);
  g_test_add_func ("/ui/file/cut-while-loading", test_cut_while_loading);
  g_test_add_func ("/ui/file/changed-on-disk", test_changed_on_disk);
  g_test_add_func ("/ui/file/open-failed-again", test_open_failed_again);

  ret = ui_test_run_in_application (&application, TRUE);
  format_test_dir_clear (&folder);
  return ret;
}
