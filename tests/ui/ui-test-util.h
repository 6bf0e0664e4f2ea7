/* ui-test-util.h: what the UI tests share
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "tv-flame-graph.h"
#include "tv-application.h"
#include "tv-call-tree.h"
#include "tv-profile.h"
#include "tv-profile-page.h"
#include "tv-view-state.h"
#include "tv-window.h"

G_BEGIN_DECLS

/* Sets *(gboolean *) USER_DATA; for g_timeout_add(). */
gboolean ui_test_on_timeout       (gpointer    user_data);

/* A GAsyncReadyCallback that keeps a reference to RESULT in
 * *(GAsyncResult **) USER_DATA, for the test to wait for. */
void     ui_test_keep_result      (GObject      *object,
                                   GAsyncResult *result,
                                   gpointer      user_data);

/* Spins the main loop for MS milliseconds. */
void     ui_test_spin             (guint       ms);

/* WIDGET as it draws itself now, with the cairo renderer. */
GdkTexture *ui_test_render_widget (GtkWidget  *widget);

/* Saves a PNG of WIDGET as NAME in TV_TEST_OUTPUT_DIR, after SETTLE_MS
 * of main loop. */
void     ui_test_save_screenshot  (GtkWidget  *widget,
                                   const char *name,
                                   guint       settle_ms);

/* Widgets of TYPE inside WIDGET, WIDGET too. */
guint    ui_test_count_widgets    (GtkWidget  *widget,
                                   GType       type);
/* Adds them to OUT, in the order of the widget tree. */
void     ui_test_collect_widgets  (GtkWidget  *widget,
                                   GType       type,
                                   GPtrArray  *out);
/* The first of them, or NULL. */
GtkWidget *ui_test_find_widget    (GtkWidget  *widget,
                                   GType       type);

/* The first controller of WIDGET of TYPE (with BUTTON, for gestures,
 * unless 0); aborts the test if there is none. */
GtkEventController *ui_test_find_controller (GtkWidget *widget,
                                             GType      type,
                                             guint      button);
/* The centre of NODE's own box in GRAPH's layout;
 * FALSE when it has none (too narrow, merged or off screen). */
gboolean ui_test_node_center      (TvFlameGraph *graph,
                                   guint32     node,
                                   double     *x,
                                   double     *y);

/* Where a test shows a file chooser, whose places sidebar loads
 * libcloudproviders, which leaks a string on a D-Bus reply: in the test
 * process this runs the test again in a child process with leak checking
 * off, asserts that it passed, and returns TRUE (the caller returns); in
 * that child it returns FALSE and the caller goes on. */
gboolean ui_test_trap_without_leak_checks (guint timeout_seconds);
/* Writes a profile of N_SAMPLES samples in three threads, each a full
 * record DEPTH frames deep (two unrelated stacks in turn), so that
 * decoding takes long enough to cancel while it runs. */
void ui_test_write_big_profile (const char *path,
                                guint64     n_samples,
                                guint       depth);
/* Writes a profile of N_THREADS threads sampled every millisecond for
 * half a second, thread ids 1000 + t in the file's order: thread 0 is the
 * main thread, the last N_IDLE threads are idle in every sample, the
 * others hold the GIL or wait for it. */
void ui_test_write_threads_profile (const char *path,
                                    guint       n_threads,
                                    guint       n_idle);
/* gtk_test_init () and adw_init (); FALSE where there is no display,
 * having said so on the TAP stream: main () then returns 77 (skipped),
 * which never happens in CI, where Xvfb is always there.  Under
 * AddressSanitizer it first has LeakSanitizer ignore the quark tables
 * GLib drops (see ui-test-util.c): call it first thing in main (). */
gboolean   ui_test_init              (int            *argc,
                                      char         ***argv);
/* The profile at PATH, loaded; the test fails when it does not load. */
TvProfile *ui_test_load_profile      (const char     *path);
/* The valid corpus file NAME ($TACH_TEST_DATA/valid/NAME), or the file
 * NAME when that is an absolute path, loaded. */
TvProfile *ui_test_load_corpus       (const char     *name);
/* The tree a view of P shows for the state S, inverted when INVERTED. */
TvCallTree *ui_test_state_tree       (TvProfile      *p,
                                      TvViewState    *s,
                                      gboolean        inverted);
/* Waits for PAGE to be done loading, which it must have done: the test
 * fails when it did not load. */
void       ui_test_wait_loaded       (TvProfilePage  *page);
/* A window of WIDTH x HEIGHT, shown, for the tests of one widget. */
GtkWindow *ui_test_window_new        (int             width,
                                      int             height);
/* The test's own TvApplication, whatever else runs on the session bus:
 * registered and held; ui_test_application_free () ends it. */
TvApplication *ui_test_application_new  (void);
void       ui_test_application_free  (TvApplication  *application);
/* Runs the tests added with *APPLICATION the test's own TvApplication
 * (ui_test_application_new ()), activated first when ACTIVATE (its
 * window open for every test); then ends it and clears *APPLICATION.
 * Returns what g_test_run () returns. */
int        ui_test_run_in_application (TvApplication **application,
                                       gboolean        activate);
/* APPLICATION's active window, which must be a TvWindow. */
TvWindow  *ui_test_get_window        (GtkApplication *application);
/* Closes the tab of PAGE (a page of WINDOW's tab view). */
void       ui_test_close_page        (TvWindow       *window,
                                      gpointer        page);
/* Closes every tab of WINDOW and lets the main loop settle. */
void       ui_test_close_all_pages   (TvWindow       *window);
/* Forces the dark style, or the light one. */
void       ui_test_set_dark          (gboolean        dark);
/* The file chooser dialog among the toplevel windows, or NULL. */
GtkWidget *ui_test_find_file_chooser (void);
/* Runs the shortcut of WIDGET's own controllers that KEYVAL with
 * MODIFIERS triggers; FALSE when none takes it. */
gboolean   ui_test_activate_shortcut (GtkWidget       *widget,
                                      guint            keyval,
                                      GdkModifierType  modifiers);
/* KEYVAL with MODIFIERS as GTK delivers it: to the focus widget of
 * WINDOW, then up through its ancestors, to the first shortcut that takes
 * it; FALSE when none does. */
gboolean   ui_test_deliver_key       (GtkWindow       *window,
                                      guint            keyval,
                                      GdkModifierType  modifiers);
/* Whether the file chooser DIALOG has FILE chosen (its folder loads
 * asynchronously). */
gboolean   ui_test_chooser_has_file  (GtkWidget *dialog,
                                      GFile     *file);

/* MS only stops a test that would hang: a busy machine may take far longer
 * than a test expects, so the wait is at least UI_TEST_HANG_MS.  A test
 * that must say how soon something happens asserts what happened before
 * instead (or leaves it to tachyon-bench). */
#define UI_TEST_HANG_MS 60000
#define WAIT_UNTIL(cond, ms)                                            \
  G_STMT_START {                                                        \
    gboolean timed_out_ = FALSE;                                        \
    guint id_ = g_timeout_add (MAX ((guint) (ms), UI_TEST_HANG_MS),     \
                               ui_test_on_timeout, &timed_out_);        \
    while (!(cond) && !timed_out_)                                      \
      g_main_context_iteration (NULL, TRUE);                            \
    if (!timed_out_)                                                    \
      g_source_remove (id_);                                            \
    if (!(cond))                                                        \
      g_error ("timed out after %u ms waiting for %s",                  \
               MAX ((guint) (ms), UI_TEST_HANG_MS), #cond);             \
  } G_STMT_END

G_END_DECLS
