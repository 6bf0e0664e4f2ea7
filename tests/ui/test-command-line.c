/* test-command-line.c: what the command line opens in the window
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Each test runs a fresh application through g_application_run() with a
 * command line, as main() does: GApplication parses the options, the
 * command line (src/cli/) leaves the window's to the application, which
 * opens the files, the demo or the comparison.  Once the main loop runs,
 * the tabs of the window are read and the application quits.  (The modes
 * that need no window are tests/cli/'s, run without a display.)
 */
#include <adwaita.h>

#include "tv-application.h"
#include "tv-compare-page.h"
#include "tv-profile-page.h"
#include "tv-window.h"
#include "ui-test-util.h"

static char *tiny_path;
static char *recursive_path;

/* What the window showed once the main loop ran. */
typedef struct
{
  GtkApplication *application;
  gboolean        ran;
  gboolean        looked;
  guint           n_windows;
  /* Windows the application had after the run. */
  guint           n_windows_after;
  GPtrArray      *pages;
} Seen;

static gboolean
look_and_quit (gpointer user_data)
{
  Seen *seen = user_data;
  GtkWindow *window = gtk_application_get_active_window (seen->application);

  seen->ran = TRUE;
  /* g_application_run() ends by running what is pending, when the
   * command line did all there was to do. */
  if (!g_application_get_is_registered (G_APPLICATION (seen->application)))
    return G_SOURCE_REMOVE;
  seen->looked = TRUE;
  seen->n_windows = g_list_length (gtk_application_get_windows (seen->application));
  if (TV_IS_WINDOW (window))
    {
      AdwTabView *tabs = tv_window_get_tab_view (TV_WINDOW (window));

      for (int i = 0; i < adw_tab_view_get_n_pages (tabs); i++)
        g_ptr_array_add (seen->pages,
                         g_object_ref (adw_tab_page_get_child (adw_tab_view_get_nth_page (tabs,
                                                                                            i))));
    }
  g_action_group_activate_action (G_ACTION_GROUP (seen->application), "quit", NULL);
  return G_SOURCE_REMOVE;
}

/* Runs `tachyon-viewer ARGS…` in this process; SEEN says what the window
 * held.  Returns the exit status. */
static int
run (Seen *seen,
     ...)
{
  g_autoptr(TvApplication) application = tv_application_new ();
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  const char *arg;
  va_list args;
  guint idle;
  int status;

  g_application_set_flags (G_APPLICATION (application),
                           G_APPLICATION_HANDLES_OPEN | G_APPLICATION_NON_UNIQUE);
  g_ptr_array_add (argv, (char *) "tachyon-viewer");
  va_start (args, seen);
  while ((arg = va_arg (args, const char *)) != NULL)
    g_ptr_array_add (argv, (char *) arg);
  va_end (args);
  g_ptr_array_add (argv, NULL);

  seen->application = GTK_APPLICATION (application);
  seen->pages = g_ptr_array_new_with_free_func (g_object_unref);
  idle = g_idle_add (look_and_quit, seen);
  status = g_application_run (G_APPLICATION (application), (int) argv->len - 1,
                              (char **) argv->pdata);
  if (!seen->ran)
    g_source_remove (idle);
  seen->n_windows_after = g_list_length (gtk_application_get_windows (seen->application));
  seen->application = NULL;
  return status;
}

static void
seen_clear (Seen *seen)
{
  g_clear_pointer (&seen->pages, g_ptr_array_unref);
}

static void
assert_profile_page (GObject    *page,
                     const char *path)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);

  g_assert_true (TV_IS_PROFILE_PAGE (page));
  g_assert_true (g_file_equal (tv_profile_page_get_file (TV_PROFILE_PAGE (page)), file));
}

/* `tachyon-viewer A B`: a tab each, in the order given. */
static void
test_files (void)
{
  Seen seen = { 0 };

  g_assert_cmpint (run (&seen, tiny_path, recursive_path, NULL), ==, 0);
  g_assert_true (seen.looked);
  g_assert_cmpuint (seen.n_windows, ==, 1);
  g_assert_cmpuint (seen.pages->len, ==, 2);
  assert_profile_page (g_ptr_array_index (seen.pages, 0), tiny_path);
  assert_profile_page (g_ptr_array_index (seen.pages, 1), recursive_path);
  seen_clear (&seen);

  /* What follows "--" is a file, whatever its name. */
  g_assert_cmpint (run (&seen, "--", tiny_path, NULL), ==, 0);
  g_assert_cmpuint (seen.pages->len, ==, 1);
  assert_profile_page (g_ptr_array_index (seen.pages, 0), tiny_path);
  seen_clear (&seen);
}

/* No argument: the window, with its start page and no tab. */
static void
test_nothing (void)
{
  Seen seen = { 0 };

  g_assert_cmpint (run (&seen, NULL), ==, 0);
  g_assert_cmpuint (seen.n_windows, ==, 1);
  g_assert_cmpuint (seen.pages->len, ==, 0);
  seen_clear (&seen);
}

/* `--compare BASE NEW`: the comparison, BASE on its base side. */
static void
test_compare (void)
{
  Seen seen = { 0 };
  g_autoptr(GFile) base = g_file_new_for_path (tiny_path);
  g_autoptr(GFile) other = g_file_new_for_path (recursive_path);
  TvComparePage *page;

  g_assert_cmpint (run (&seen, "--compare", tiny_path, recursive_path, NULL), ==, 0);
  g_assert_cmpuint (seen.pages->len, ==, 1);
  g_assert_true (TV_IS_COMPARE_PAGE (g_ptr_array_index (seen.pages, 0)));
  page = g_ptr_array_index (seen.pages, 0);
  g_assert_true (g_file_equal (tv_profile_get_file (tv_compare_page_get_profile (page,
                                                                                TV_DIFF_SIDE_BASE)),
                               base));
  g_assert_true (g_file_equal (tv_profile_get_file (tv_compare_page_get_profile (page,
                                                                                TV_DIFF_SIDE_NEW)),
                               other));
  seen_clear (&seen);
}

/* --demo, alone and with a file. */
static void
test_demo (void)
{
  Seen seen = { 0 };

  g_assert_cmpint (run (&seen, "--demo", NULL), ==, 0);
  g_assert_cmpuint (seen.pages->len, ==, 1);
  g_assert_true (TV_IS_PROFILE_PAGE (g_ptr_array_index (seen.pages, 0)));
  seen_clear (&seen);

  g_assert_cmpint (run (&seen, "--demo", tiny_path, NULL), ==, 0);
  g_assert_cmpuint (seen.pages->len, ==, 2);
  assert_profile_page (g_ptr_array_index (seen.pages, 1), tiny_path);
  seen_clear (&seen);
}

/* What needs no window runs and ends without one, its exit status the
 * application's. */
static void
test_no_window (void)
{
  if (ui_test_trap_without_leak_checks (60))
    {
      g_test_trap_assert_stdout ("tachyon-viewer *\n");
      return;
    }
  {
    Seen seen = { 0 };

    g_assert_cmpint (run (&seen, "--version", NULL), ==, 0);
    g_assert_false (seen.looked);
    g_assert_cmpuint (seen.n_windows_after, ==, 0);
    seen_clear (&seen);
  }
}

static void
test_bad_option (void)
{
  if (ui_test_trap_without_leak_checks (60))
    {
      g_test_trap_assert_stderr ("tachyon-viewer: Unknown option --frobnicate\n");
      return;
    }
  {
    Seen seen = { 0 };

    g_assert_cmpint (run (&seen, "--frobnicate", tiny_path, NULL), ==, 1);
    g_assert_false (seen.looked);
    seen_clear (&seen);
  }
}

int
main (int   argc,
      char *argv[])
{
  const char *data = g_getenv ("TACH_TEST_DATA");
  int ret;

  if (!ui_test_init (&argc, &argv))
    return 77;
  g_assert_nonnull (data);
  tiny_path = g_build_filename (data, "valid", "tiny.tach", NULL);
  recursive_path = g_build_filename (data, "valid", "rec_recursive.tach", NULL);

  g_test_add_func ("/ui/command-line/files", test_files);
  g_test_add_func ("/ui/command-line/nothing", test_nothing);
  g_test_add_func ("/ui/command-line/compare", test_compare);
  g_test_add_func ("/ui/command-line/demo", test_demo);
  g_test_add_func ("/ui/command-line/no-window", test_no_window);
  g_test_add_func ("/ui/command-line/bad-option", test_bad_option);

  ret = g_test_run ();
  g_free (tiny_path);
  g_free (recursive_path);
  return ret;
}
