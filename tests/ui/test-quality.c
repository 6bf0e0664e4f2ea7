/* test-quality.c: the data-quality banner and the error pages
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A profile with 37.8 % missed samples shows the banner on its page,
 * whose button opens the warnings in Properties; a clean one shows none.
 * Files that fail to open, of several kinds, show a plain sentence, the
 * library's message in an expander, and Open Another…, Reload and Close,
 * which do what they say.  Screenshots, light and dark, go to
 * TV_TEST_OUTPUT_DIR.
 */
#include <string.h>

#include <adwaita.h>
#include <glib/gstdio.h>

#include "format-test-util.h"
#include "tv-application.h"
#include "tv-properties.h"
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

static GtkWidget *
template_child (TvProfilePage *page,
                const char    *name)
{
  GtkWidget *child = GTK_WIDGET (gtk_widget_get_template_child (GTK_WIDGET (page),
                                                                TV_TYPE_PROFILE_PAGE, name));

  g_assert_nonnull (child);
  return child;
}

static char *
corpus_path (const char *subdir,
             const char *name)
{
  return g_build_filename (g_getenv ("TACH_TEST_DATA"), subdir, name, NULL);
}

static TvProfilePage *
open_path (const char *path)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  TvProfilePage *page = tv_window_open_file (get_window (), file);

  WAIT_UNTIL (tv_profile_page_get_state (page) != TV_PROFILE_PAGE_LOADING, 10000);
  return page;
}

static void
screenshots (const char *name)
{
  g_autofree char *light = g_strdup_printf ("%s-light.png", name);
  g_autofree char *dark = g_strdup_printf ("%s-dark.png", name);

  ui_test_set_dark (FALSE);
  ui_test_save_screenshot (GTK_WIDGET (get_window ()), light, 400);
  ui_test_set_dark (TRUE);
  ui_test_save_screenshot (GTK_WIDGET (get_window ()), dark, 400);
  ui_test_set_dark (FALSE);
}

/* ------------------------------------------------------------------------ */
/* The banner                                                                */
/* ------------------------------------------------------------------------ */

static void
test_banner (void)
{
  g_autofree char *bad = corpus_path ("valid", "rec_threads.tach");
  g_autofree char *clean = corpus_path ("valid", "mode_wall.tach");
  TvProfilePage *page;
  GtkRevealer *banner;
  const char *text;
  GtkWidget *focus;
  AdwViewStack *views;

  page = open_path (bad);
  g_assert_cmpint (tv_profile_page_get_state (page), ==, TV_PROFILE_PAGE_LOADED);
  banner = GTK_REVEALER (template_child (page, "quality_banner"));
  g_assert_true (gtk_revealer_get_reveal_child (banner));
  WAIT_UNTIL (gtk_revealer_get_child_revealed (banner), 5000);
  g_assert_true (gtk_widget_get_mapped (template_child (page, "quality_banner_label")));
  text = gtk_label_get_text (GTK_LABEL (template_child (page, "quality_banner_label")));
  g_test_message ("banner: %s", text);
  g_assert_nonnull (strstr (text, "missed 37.8 % of its samples"));
  g_assert_true (gtk_widget_get_mapped (template_child (page, "quality_banner_button")));
  screenshots ("quality-banner");

  /* Its button opens Properties at the warnings: the first has the
   * focus, and says the same. */
  views = ADW_VIEW_STACK (template_child (page, "views"));
  g_assert_cmpstr (adw_view_stack_get_visible_child_name (views), ==, "flamegraph");
  g_assert_true (gtk_widget_activate (template_child (page, "quality_banner_button")));
  /* A button clicks once its press has been drawn. */
  WAIT_UNTIL (g_strcmp0 (adw_view_stack_get_visible_child_name (views), "properties") == 0, 5000);
  WAIT_UNTIL ((focus = gtk_root_get_focus (GTK_ROOT (get_window ()))) != NULL
              && gtk_widget_has_css_class (focus, "tv-finding"), 5000);
  g_assert_true (ADW_IS_ACTION_ROW (focus));
  g_assert_true (gtk_widget_has_css_class (focus, "tv-finding"));
  g_assert_nonnull (strstr (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (focus)),
                            "missed 37.8 % of its samples"));
  /* ... scrolled into view. */
  {
    GtkWidget *pane = GTK_WIDGET (tv_profile_page_get_properties (page));
    graphene_point_t point;

    ui_test_spin (200);
    g_assert_true (gtk_widget_compute_point (focus, pane, &GRAPHENE_POINT_INIT (0, 0), &point));
    g_test_message ("first warning at y = %g of %d", point.y, gtk_widget_get_height (pane));
    g_assert_cmpfloat (point.y, >=, 0);
    g_assert_cmpfloat (point.y + gtk_widget_get_height (focus), <=, gtk_widget_get_height (pane));
  }
  {
    g_autofree char *copied = tv_properties_dup_text (tv_profile_page_get_properties (page));

    g_assert_nonnull (strstr (copied, "Warnings\n  - The profiler missed 37.8 % of its samples"));
  }
  screenshots ("quality-properties");
  ui_test_close_all_pages (get_window ());

  /* No finding, no banner. */
  page = open_path (clean);
  g_assert_cmpint (tv_profile_page_get_state (page), ==, TV_PROFILE_PAGE_LOADED);
  ui_test_spin (300);
  banner = GTK_REVEALER (template_child (page, "quality_banner"));
  g_assert_false (gtk_revealer_get_reveal_child (banner));
  g_assert_false (gtk_revealer_get_child_revealed (banner));
  {
    g_autofree char *copied = tv_properties_dup_text (tv_profile_page_get_properties (page));

    g_assert_nonnull (strstr (copied, "Warnings\n  Nothing in the file or its statistics calls for caution."));
  }
  ui_test_close_all_pages (get_window ());
}

/* A notice alone (the file's footer disagrees with its size) stays in
 * Properties: it does not change what the figures mean. */
static void
test_banner_notice_only (void)
{
  g_autofree char *path = corpus_path ("valid", "footer_size_mismatch.tach");
  TvProfilePage *page = open_path (path);
  g_autofree char *copied = NULL;

  g_assert_cmpint (tv_profile_page_get_state (page), ==, TV_PROFILE_PAGE_LOADED);
  g_assert_false (gtk_revealer_get_reveal_child (GTK_REVEALER (template_child (page, "quality_banner"))));
  copied = tv_properties_dup_text (tv_profile_page_get_properties (page));
  g_assert_nonnull (strstr (copied, "Warnings\n  - Footer file_size is 240"));
  ui_test_close_all_pages (get_window ());
}

/* ------------------------------------------------------------------------ */
/* The error pages                                                           */
/* ------------------------------------------------------------------------ */

static void
check_error_page (TvProfilePage *page,
                  const char    *sentence)
{
  AdwStatusPage *status = ADW_STATUS_PAGE (template_child (page, "error_page"));
  GtkExpander *expander = GTK_EXPANDER (template_child (page, "error_expander"));
  const char *message = tv_profile_page_get_error_message (page);

  g_assert_cmpint (tv_profile_page_get_state (page), ==, TV_PROFILE_PAGE_FAILED);
  g_assert_nonnull (message);
  g_test_message ("%s | %s", adw_status_page_get_description (status), message);
  g_assert_cmpstr (adw_status_page_get_description (status), ==, sentence);
  /* The precise message, folded away. */
  g_assert_false (gtk_expander_get_expanded (expander));
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (expander)));
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (template_child (page, "error_details"))), ==,
                   message);
  g_assert_true (gtk_widget_get_mapped (template_child (page, "error_open_button")));
  g_assert_true (gtk_widget_get_mapped (template_child (page, "error_reload_button")));
  g_assert_true (gtk_widget_get_mapped (template_child (page, "error_close_button")));
}

static void
test_error_kinds (void)
{
  static const struct
  {
    const char *subdir;
    const char *name;
    const char *sentence;
  } cases[] = {
    { "invalid", "bad_magic.tach", "This file is not a Tachyon profile." },
    { "invalid", "truncated_half.tach", "The profile is cut short: it may still be being written." },
    { "invalid", "zstd_truncated_stream.tach", "The profile is cut short: it may still be being written." },
    { "invalid", "future_version.tach", "The profile uses a newer format version than this viewer reads." },
    { "invalid", "stack_depth_300.tach", "The profile is damaged: part of it does not follow the format." },
  };
  g_autofree char *missing = g_build_filename (folder.dir, "no-such-file.tach", NULL);
  TvProfilePage *page;

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *path = corpus_path (cases[i].subdir, cases[i].name);

      page = open_path (path);
      check_error_page (page, cases[i].sentence);
      if (i == 0)
        screenshots ("error-not-profile");
      if (i == 1)
        {
          /* Unfolded, the library's message names the field. */
          gtk_expander_set_expanded (GTK_EXPANDER (template_child (page, "error_expander")), TRUE);
          g_assert_nonnull (strstr (tv_profile_page_get_error_message (page),
                                    "string_table_offset"));
          screenshots ("error-cut-short");
        }
      ui_test_close_all_pages (get_window ());
    }

  page = open_path (missing);
  check_error_page (page, "The file does not exist.");
  ui_test_close_all_pages (get_window ());
  page = open_path (folder.dir);
  check_error_page (page, "This is not a regular file.");
  ui_test_close_all_pages (get_window ());
}

/* Close closes the page's own tab, and no other. */
static void
test_error_close (void)
{
  g_autofree char *good = corpus_path ("valid", "tiny.tach");
  g_autofree char *bad = corpus_path ("invalid", "bad_magic.tach");
  AdwTabView *tab_view = tv_window_get_tab_view (get_window ());
  TvProfilePage *kept = open_path (good);
  TvProfilePage *page = open_path (bad);

  g_assert_cmpint (adw_tab_view_get_n_pages (tab_view), ==, 2);
  g_assert_true (gtk_widget_activate (template_child (page, "error_close_button")));
  WAIT_UNTIL (adw_tab_view_get_n_pages (tab_view) == 1, 5000);
  g_assert_true (GTK_WIDGET (kept) == adw_tab_page_get_child (adw_tab_view_get_nth_page (tab_view, 0)));
  ui_test_close_all_pages (get_window ());
}

/* Reload reads the file again: once it is a profile, the page shows it. */
static void
test_error_reload (void)
{
  g_autofree char *path = g_build_filename (folder.dir, "later.tach", NULL);
  g_autofree char *good = corpus_path ("valid", "tiny.tach");
  g_autofree char *contents = NULL;
  gsize length;
  TvProfilePage *page;

  g_assert_true (g_file_set_contents (path, "TACH but not really", -1, NULL));
  page = open_path (path);
  check_error_page (page, "The profile is cut short: it may still be being written.");

  g_assert_true (g_file_get_contents (good, &contents, &length, NULL));
  g_assert_true (g_file_set_contents (path, contents, (gssize) length, NULL));
  g_assert_true (gtk_widget_activate (template_child (page, "error_reload_button")));
  WAIT_UNTIL (tv_profile_page_get_state (page) == TV_PROFILE_PAGE_LOADED, 10000);
  g_assert_null (tv_profile_page_get_error_message (page));
  ui_test_close_all_pages (get_window ());
  g_unlink (path);
}

/* Open Another… presents the file chooser; cancelled, the failed tab is
 * still there. */
static void
test_error_open_another (void)
{
  g_autofree char *bad = corpus_path ("invalid", "bad_magic.tach");
  GListModel *toplevels;
  AdwTabView *tab_view;
  TvProfilePage *page;
  GtkWidget *dialog;
  guint n_before;

  /* As in test-ui's /ui/open-dialog: the chooser's places sidebar leaks,
   * so it is shown in a child process without leak checks. */
  if (ui_test_trap_without_leak_checks (120))
    return;

  g_application_activate (G_APPLICATION (application));
  tab_view = tv_window_get_tab_view (get_window ());
  page = open_path (bad);
  toplevels = gtk_window_get_toplevels ();
  n_before = g_list_model_get_n_items (toplevels);
  g_assert_true (gtk_widget_activate (template_child (page, "error_open_button")));
  WAIT_UNTIL (g_list_model_get_n_items (toplevels) > n_before, 5000);
  dialog = ui_test_find_file_chooser ();
  g_assert_nonnull (dialog);
  WAIT_UNTIL (gtk_widget_get_mapped (dialog), 5000);
  g_assert_true (gtk_window_get_transient_for (GTK_WINDOW (dialog)) == GTK_WINDOW (get_window ()));
  gtk_dialog_response (GTK_DIALOG (dialog), GTK_RESPONSE_CANCEL);
  WAIT_UNTIL (g_list_model_get_n_items (toplevels) == n_before, 5000);
  g_assert_cmpint (adw_tab_view_get_n_pages (tab_view), ==, 1);
  ui_test_close_all_pages (get_window ());
}

int
main (int   argc,
      char *argv[])
{
  int ret;

  if (!ui_test_init (&argc, &argv))
    return 77;

  format_test_dir_init (&folder, "tv-test-quality-XXXXXX");

  g_test_add_func ("/ui/quality/banner", test_banner);
  g_test_add_func ("/ui/quality/banner-notice-only", test_banner_notice_only);
  g_test_add_func ("/ui/quality/error-kinds", test_error_kinds);
  g_test_add_func ("/ui/quality/error-close", test_error_close);
  g_test_add_func ("/ui/quality/error-reload", test_error_reload);
  g_test_add_func ("/ui/quality/error-open-another", test_error_open_another);

  ret = ui_test_run_in_application (&application, TRUE);
  format_test_dir_clear (&folder);
  return ret;
}
