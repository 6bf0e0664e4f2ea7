/* ui-test-util.c: what the UI tests share
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <adwaita.h>

#include "tachyon-format.h"
#include "ui-test-util.h"

gboolean
ui_test_on_timeout (gpointer user_data)
{
  *(gboolean *) user_data = TRUE;
  return G_SOURCE_REMOVE;
}

void
ui_test_spin (guint ms)
{
  gboolean done = FALSE;

  g_timeout_add (ms, ui_test_on_timeout, &done);
  while (!done)
    g_main_context_iteration (NULL, TRUE);
}

void
ui_test_save_screenshot (GtkWidget  *widget,
                         const char *name,
                         guint       settle_ms)
{
  const char *dir = g_getenv ("TV_TEST_OUTPUT_DIR");
  g_autofree char *path = NULL;
  g_autoptr(GdkPaintable) paintable = NULL;
  g_autoptr(GskRenderNode) node = NULL;
  g_autoptr(GdkTexture) texture = NULL;
  g_autoptr(GskRenderer) renderer = NULL;
  g_autoptr(GError) error = NULL;
  int width, height;

  /* Let the style change and the layout reach the screen. */
  if (settle_ms > 0)
    ui_test_spin (settle_ms);

  width = gtk_widget_get_width (widget);
  height = gtk_widget_get_height (widget);
  g_assert_cmpint (width, >, 0);
  g_assert_cmpint (height, >, 0);

  paintable = gtk_widget_paintable_new (widget);
  /* A widget waiting for its next layout draws nothing; wait a frame. */
  for (guint tries = 0; node == NULL && tries < 100; tries++)
    {
      GtkSnapshot *snapshot = gtk_snapshot_new ();

      gdk_paintable_snapshot (paintable, snapshot, width, height);
      node = gtk_snapshot_free_to_node (snapshot);
      if (node == NULL)
        ui_test_spin (10);
    }
  g_assert_nonnull (node);
  /* The cairo renderer: rendering offscreen with GL on llvmpipe (the
   * window's renderer or one of our own) crashed Mesa now and then.  It
   * draws AdwTabBar's GL shader nodes (the fades of a tab bar that
   * overflows) as pink boxes: a screenshot artefact only. */
  renderer = gsk_cairo_renderer_new ();
  g_assert_true (gsk_renderer_realize (renderer, NULL, &error));
  g_assert_no_error (error);
  texture = gsk_renderer_render_texture (renderer, node,
                                         &GRAPHENE_RECT_INIT (0, 0, width, height));
  gsk_renderer_unrealize (renderer);
  path = g_build_filename (dir != NULL ? dir : ".", name, NULL);
  g_assert_true (gdk_texture_save_to_png (texture, path));
  g_test_message ("screenshot: %s", path);
}

GtkEventController *
ui_test_find_controller (GtkWidget *widget,
                         GType      type,
                         guint      button)
{
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (widget);

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GtkEventController) controller = g_list_model_get_item (controllers, i);

      if (G_TYPE_CHECK_INSTANCE_TYPE (controller, type)
          && (button == 0
              || gtk_gesture_single_get_button (GTK_GESTURE_SINGLE (controller)) == button))
        return controller;
    }
  g_assert_not_reached ();
}

gboolean
ui_test_node_center (TvFlameGraph *graph,
                     guint32       node,
                     double       *x,
                     double       *y)
{
  TvFlameLayout *layout = tv_flame_graph_get_layout (graph);
  const TvFlameBox *box = layout != NULL ? tv_flame_layout_lookup_node (layout, node) : NULL;
  double bx, by, bw, bh;

  if (box == NULL || box->node != node || (box->flags & TV_FLAME_BOX_MERGED))
    return FALSE;
  tv_flame_layout_get_box_rect (layout, box, &bx, &by, &bw, &bh);
  *x = MAX (bx, 0) + MIN (bw, gtk_widget_get_width (GTK_WIDGET (graph)) - MAX (bx, 0)) / 2;
  *y = by + bh / 2;
  return TRUE;
}

gboolean
ui_test_trap_without_leak_checks (guint timeout_seconds)
{
  g_autofree char *asan = NULL;

  if (g_test_subprocess ())
    return FALSE;

  asan = g_strdup (g_getenv ("ASAN_OPTIONS"));
  if (asan != NULL)
    {
      g_autoptr(GString) options = g_string_new (asan);

      g_string_replace (options, "detect_leaks=1", "detect_leaks=0", 0);
      g_setenv ("ASAN_OPTIONS", options->str, TRUE);
    }
  g_test_trap_subprocess (NULL, timeout_seconds * G_USEC_PER_SEC,
                          G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
  if (asan != NULL)
    g_setenv ("ASAN_OPTIONS", asan, TRUE);
  return TRUE;
}

gboolean
ui_test_init (int    *argc,
              char ***argv)
{
  if (g_getenv ("DISPLAY") == NULL && g_getenv ("WAYLAND_DISPLAY") == NULL)
    {
      g_print ("1..0 # SKIP no display\n");
      return FALSE;
    }
  gtk_test_init (argc, argv, NULL);
  adw_init ();
  return TRUE;
}

GtkWindow *
ui_test_window_new (int width,
                    int height)
{
  GtkWindow *window = GTK_WINDOW (gtk_window_new ());

  gtk_window_set_default_size (window, width, height);
  gtk_window_present (window);
  return window;
}

TvApplication *
ui_test_application_new (void)
{
  g_autoptr(GError) error = NULL;
  TvApplication *application = tv_application_new ();

  g_application_set_flags (G_APPLICATION (application),
                           G_APPLICATION_HANDLES_OPEN | G_APPLICATION_NON_UNIQUE);
  g_application_register (G_APPLICATION (application), NULL, &error);
  g_assert_no_error (error);
  g_application_hold (G_APPLICATION (application));
  return application;
}

void
ui_test_application_free (TvApplication *application)
{
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (application));

  if (window != NULL)
    gtk_window_destroy (window);
  g_application_release (G_APPLICATION (application));
  g_object_unref (application);
}

TvWindow *
ui_test_get_window (GtkApplication *application)
{
  GtkWindow *window = gtk_application_get_active_window (application);

  g_assert_true (TV_IS_WINDOW (window));
  return TV_WINDOW (window);
}

void
ui_test_set_dark (gboolean dark)
{
  adw_style_manager_set_color_scheme (adw_style_manager_get_default (),
                                      dark ? ADW_COLOR_SCHEME_FORCE_DARK
                                           : ADW_COLOR_SCHEME_FORCE_LIGHT);
}

GtkWidget *
ui_test_find_file_chooser (void)
{
  GListModel *toplevels = gtk_window_get_toplevels ();
  GtkWidget *dialog = NULL;

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GtkWidget) toplevel = g_list_model_get_item (toplevels, i);

      if (GTK_IS_FILE_CHOOSER (toplevel))
        dialog = toplevel;
    }
  return dialog;
}

gboolean
ui_test_activate_shortcut (GtkWidget       *widget,
                           guint            keyval,
                           GdkModifierType  modifiers)
{
  g_autoptr(GtkShortcutTrigger) trigger = gtk_keyval_trigger_new (keyval, modifiers);
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (widget);

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GtkEventController) controller = g_list_model_get_item (controllers, i);
      GListModel *shortcuts = GTK_IS_SHORTCUT_CONTROLLER (controller)
                              ? G_LIST_MODEL (controller) : NULL;

      for (guint k = 0; shortcuts != NULL && k < g_list_model_get_n_items (shortcuts); k++)
        {
          g_autoptr(GtkShortcut) shortcut = g_list_model_get_item (shortcuts, k);

          if (gtk_shortcut_trigger_equal (gtk_shortcut_get_trigger (shortcut), trigger)
              && gtk_shortcut_action_activate (gtk_shortcut_get_action (shortcut), 0, widget,
                                               gtk_shortcut_get_arguments (shortcut)))
            return TRUE;
        }
    }
  return FALSE;
}

gboolean
ui_test_deliver_key (GtkWindow       *window,
                     guint            keyval,
                     GdkModifierType  modifiers)
{
  for (GtkWidget *w = gtk_root_get_focus (GTK_ROOT (window)); w != NULL;
       w = gtk_widget_get_parent (w))
    if (ui_test_activate_shortcut (w, keyval, modifiers))
      return TRUE;
  return FALSE;
}

gboolean
ui_test_chooser_has_file (GtkWidget *dialog,
                          GFile     *file)
{
  g_autoptr(GFile) chosen = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));

  return chosen != NULL && g_file_equal (chosen, file);
}

void
ui_test_write_big_profile (const char *path,
                           guint64     n_samples,
                           guint       depth)
{
  TachWriterOptions options = { 0 };
  TachWriter *writer = NULL;
  TachError tach_error;
  guint32 frames[16];
  g_autofree guint32 *stack = g_new (guint32, depth);
  guint64 written = 0;

  options.start_time_us = 1000000;
  options.sample_interval_us = 100;
  options.mode_raw = 1;
  if (tach_writer_new (path, &options, &writer, &tach_error) != TACH_OK)
    g_error ("%s", tach_error.message);
  for (guint i = 0; i < G_N_ELEMENTS (frames); i++)
    {
      g_autofree char *funcname = g_strdup_printf ("function_%u", i);
      TachFrameInfo info = { "/srv/big/module.py", funcname, 10 + i, -1, -1, -1,
                             TACH_OPCODE_NONE };

      if (tach_writer_intern_frame (writer, &info, &frames[i], &tach_error) != TACH_OK)
        g_error ("%s", tach_error.message);
    }
  for (guint64 tick = 0; written < n_samples; tick++)
    for (guint t = 0; t < 3 && written < n_samples; t++, written++)
      {
        for (guint d = 0; d < depth; d++)
          stack[d] = frames[(tick % 2) * 8 + (d + t) % 8];
        if (tach_writer_add_sample (writer, 10 + t, 0, options.start_time_us + tick * 100,
                                    TACH_STATUS_HAS_GIL, stack, depth, &tach_error) != TACH_OK)
          g_error ("%s", tach_error.message);
      }
  if (tach_writer_finish (writer, &tach_error) != TACH_OK)
    g_error ("%s", tach_error.message);
}

void
ui_test_write_threads_profile (const char *path,
                               guint       n_threads,
                               guint       n_idle)
{
  TachWriterOptions options = { 0 };
  TachWriter *writer = NULL;
  TachError tach_error;
  guint32 frames[4];

  g_assert_cmpuint (n_idle, <, n_threads);
  options.start_time_us = 1000000;
  options.sample_interval_us = 1000;
  options.mode_raw = 1;
  if (tach_writer_new (path, &options, &writer, &tach_error) != TACH_OK)
    g_error ("%s", tach_error.message);
  for (guint i = 0; i < G_N_ELEMENTS (frames); i++)
    {
      g_autofree char *funcname = g_strdup_printf ("work_%u", i);
      TachFrameInfo info = { "/srv/threads/work.py", funcname, 10 + i, -1, -1, -1,
                             TACH_OPCODE_NONE };

      if (tach_writer_intern_frame (writer, &info, &frames[i], &tach_error) != TACH_OK)
        g_error ("%s", tach_error.message);
    }
  for (guint tick = 0; tick < 500; tick++)
    for (guint t = 0; t < n_threads; t++)
      {
        guint8 status = t >= n_threads - n_idle ? 0
                        : (tick + t) % 3 == 0 ? TACH_STATUS_GIL_REQUESTED
                        : TACH_STATUS_HAS_GIL | TACH_STATUS_ON_CPU;

        if (t == 0)
          status |= TACH_STATUS_MAIN_THREAD;
        if (tach_writer_add_sample (writer, 1000 + t, 0,
                                    options.start_time_us + tick * 1000 + t,
                                    status, &frames[(tick / 50 + t) % 4], 1,
                                    &tach_error) != TACH_OK)
          g_error ("%s", tach_error.message);
      }
  if (tach_writer_finish (writer, &tach_error) != TACH_OK)
    g_error ("%s", tach_error.message);
}
