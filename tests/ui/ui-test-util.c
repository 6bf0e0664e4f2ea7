/* ui-test-util.c: what the UI tests share
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <adwaita.h>

#include "tachyon-format.h"
#include "ui-test-util.h"

#if defined(__SANITIZE_ADDRESS__)
# define UI_TEST_ASAN 1
#elif defined(__has_feature)
# if __has_feature(address_sanitizer)
#  define UI_TEST_ASAN 1
# endif
#endif

#ifdef UI_TEST_ASAN
#include <link.h>
#include <stdlib.h>
#include <string.h>
#include <sanitizer/lsan_interface.h>

/* libasan's allocator interface; GCC 12 ships no header for it. */
int    __sanitizer_get_ownership (const volatile void *p);
size_t __sanitizer_get_allocated_size (const volatile void *p);
int    __sanitizer_install_malloc_and_free_hooks (void (*malloc_hook) (const volatile void *,
                                                                        size_t),
                                                  void (*free_hook) (const volatile void *));
#endif

gboolean
ui_test_on_timeout (gpointer user_data)
{
  *(gboolean *) user_data = TRUE;
  return G_SOURCE_REMOVE;
}

void
ui_test_keep_result (GObject      *object,
                     GAsyncResult *result,
                     gpointer      user_data)
{
  *(GAsyncResult **) user_data = g_object_ref (result);
}

void
ui_test_spin (guint ms)
{
  gboolean done = FALSE;

  g_timeout_add (ms, ui_test_on_timeout, &done);
  while (!done)
    g_main_context_iteration (NULL, TRUE);
}

GdkTexture *
ui_test_render_widget (GtkWidget *widget)
{
  g_autoptr(GdkPaintable) paintable = NULL;
  g_autoptr(GskRenderNode) node = NULL;
  g_autoptr(GskRenderer) renderer = NULL;
  g_autoptr(GError) error = NULL;
  GdkTexture *texture;
  int width, height;

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
  return texture;
}

void
ui_test_save_screenshot (GtkWidget  *widget,
                         const char *name,
                         guint       settle_ms)
{
  const char *dir = g_getenv ("TV_TEST_OUTPUT_DIR");
  g_autofree char *path = NULL;
  g_autoptr(GdkTexture) texture = NULL;

  /* Let the style change and the layout reach the screen. */
  if (settle_ms > 0)
    ui_test_spin (settle_ms);

  texture = ui_test_render_widget (widget);
  path = g_build_filename (dir != NULL ? dir : ".", name, NULL);
  g_assert_true (gdk_texture_save_to_png (texture, path));
  g_test_message ("screenshot: %s", path);
}

guint
ui_test_count_widgets (GtkWidget *widget,
                       GType      type)
{
  guint n = G_TYPE_CHECK_INSTANCE_TYPE (widget, type) ? 1 : 0;

  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    n += ui_test_count_widgets (child, type);
  return n;
}

void
ui_test_collect_widgets (GtkWidget *widget,
                         GType      type,
                         GPtrArray *out)
{
  if (G_TYPE_CHECK_INSTANCE_TYPE (widget, type))
    g_ptr_array_add (out, widget);
  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    ui_test_collect_widgets (child, type, out);
}

GtkWidget *
ui_test_find_widget (GtkWidget *widget,
                     GType      type)
{
  if (G_TYPE_CHECK_INSTANCE_TYPE (widget, type))
    return widget;
  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = ui_test_find_widget (child, type);

      if (found != NULL)
        return found;
    }
  return NULL;
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

#ifdef UI_TEST_ASAN
/* GLib's quark table (gquark.c) is an array that grows by 2,048 entries:
 * when a process passes a multiple of 2,048 quarks GLib copies it into a
 * bigger one and drops the old one without freeing it, since lock-free
 * readers may still hold it.  LeakSanitizer reports that array (16 KiB
 * the first time, allocated by GLib's constructor) as a direct leak, and
 * its fast unwinder sees only malloc and g_malloc, which no suppression
 * can name without hiding every other g_malloc leak.  So the UI tests
 * find GLib's pointer to its table, in libglib's own data, and watch it:
 * whenever it moves, the old array, and nothing else, is ignored. */
static char ***quark_table_slot;
static char  **quark_table_seen;

/* Whether TABLE is a live heap block holding the strings of quarks 1 to
 * N_QUARKS - 1, as GLib's table does. */
static gboolean
is_quark_table (char  **table,
                GQuark  n_quarks)
{
  if (table == NULL || (guintptr) table % sizeof (char *) != 0
      || !__sanitizer_get_ownership (table)
      || __sanitizer_get_allocated_size (table) < n_quarks * sizeof (char *))
    return FALSE;
  for (GQuark q = 1; q < n_quarks; q++)
    if (table[q] != g_quark_to_string (q))
      return FALSE;
  return TRUE;
}

typedef struct
{
  GQuark   n_quarks;
  guint    n_objects;
  char  ***slot;
  guint    n_slots;
} QuarkSearch;

static int
find_quark_slot (struct dl_phdr_info *info,
                 size_t               size,
                 void                *user_data)
{
  QuarkSearch *search = user_data;

  if (info->dlpi_name == NULL || strstr (info->dlpi_name, "/libglib-2.0.so") == NULL)
    return 0;
  search->n_objects++;
  for (guint i = 0; i < info->dlpi_phnum; i++)
    {
      const ElfW(Phdr) *phdr = &info->dlpi_phdr[i];
      char ***first, ***last;

      if (phdr->p_type != PT_LOAD || !(phdr->p_flags & PF_W))
        continue;
      first = (char ***) ((info->dlpi_addr + phdr->p_vaddr + sizeof (char **) - 1)
                          & ~(guintptr) (sizeof (char **) - 1));
      last = (char ***) (info->dlpi_addr + phdr->p_vaddr + phdr->p_memsz);
      for (char ***p = first; p + 1 <= last; p++)
        if (is_quark_table (*p, search->n_quarks))
          {
            search->slot = p;
            search->n_slots++;
          }
    }
  return 0;
}

/* Ignores the table GLib has just dropped, if it has. */
static void
ignore_dropped_quark_table (void)
{
  char **seen = g_atomic_pointer_get (&quark_table_seen);
  char **now = g_atomic_pointer_get (quark_table_slot);

  if (now != seen && g_atomic_pointer_compare_and_exchange (&quark_table_seen, seen, now))
    __lsan_ignore_object (seen);
}

/* GLib swaps the table after allocating the new one, so any later
 * allocation sees the swap; the atexit handler covers one that none did
 * (it runs before LeakSanitizer's, which was registered at start-up). */
static void
on_malloc (const volatile void *ptr,
           size_t               size)
{
  ignore_dropped_quark_table ();
}

static void
on_free (const volatile void *ptr)
{
}

static void
watch_quark_table (void)
{
  QuarkSearch search = { 1, 0, NULL, 0 };

  /* Quarks are numbered from 1; GLib and GObject's constructors have made
   * dozens of them before main () starts. */
  while (g_quark_to_string (search.n_quarks) != NULL)
    search.n_quarks++;
  if (search.n_quarks < 8)
    g_error ("only %u GQuarks at start-up: cannot recognise GLib's quark table",
             search.n_quarks);
  dl_iterate_phdr (find_quark_slot, &search);
  if (search.n_objects != 1 || search.n_slots != 1)
    g_error ("GLib's quark table not found: %u libglib-2.0 objects, %u pointers to a table "
             "of its %u quarks in their data (has gquark.c changed?)",
             search.n_objects, search.n_slots, search.n_quarks);
  quark_table_seen = *search.slot;
  /* GLib 2.74's first table holds 2,048 quarks; a bigger one means an
   * earlier one is already lost, before it could be ignored. */
  if (__sanitizer_get_allocated_size (quark_table_seen) != 2048 * sizeof (char *))
    g_error ("GLib's quark table holds %zu quarks at start-up, not 2,048 "
             "(has gquark.c changed?)",
             __sanitizer_get_allocated_size (quark_table_seen) / sizeof (char *));
  quark_table_slot = search.slot;
  if (!__sanitizer_install_malloc_and_free_hooks (on_malloc, on_free))
    g_error ("cannot install the sanitizer's malloc hook");
  atexit (ignore_dropped_quark_table);
}
#endif

gboolean
ui_test_init (int    *argc,
              char ***argv)
{
#ifdef UI_TEST_ASAN
  /* Before GTK makes its types, and their quarks. */
  watch_quark_table ();
#endif
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

int
ui_test_run_in_application (TvApplication **application,
                            gboolean        activate)
{
  int ret;

  *application = ui_test_application_new ();
  if (activate)
    g_application_activate (G_APPLICATION (*application));
  ret = g_test_run ();
  g_clear_pointer (application, ui_test_application_free);
  return ret;
}

void
ui_test_close_page (TvWindow *window,
                    gpointer  page)
{
  AdwTabView *tab_view = tv_window_get_tab_view (window);

  adw_tab_view_close_page (tab_view, adw_tab_view_get_page (tab_view, GTK_WIDGET (page)));
}

void
ui_test_close_all_pages (TvWindow *window)
{
  AdwTabView *tab_view = tv_window_get_tab_view (window);

  while (adw_tab_view_get_n_pages (tab_view) > 0)
    adw_tab_view_close_page (tab_view, adw_tab_view_get_nth_page (tab_view, 0));
  ui_test_spin (100);
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

static void
on_load_done (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (tv_profile_load_finish (TV_PROFILE (object), result, &error));
  g_assert_no_error (error);
  *(gboolean *) user_data = TRUE;
}

TvProfile *
ui_test_load_profile (const char *path)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  TvProfile *p = tv_profile_new (file);
  gboolean done = FALSE;

  tv_profile_load_async (p, NULL, on_load_done, &done);
  WAIT_UNTIL (done, 60000);
  g_assert_cmpint (tv_profile_get_state (p), ==, TV_PROFILE_LOADED);
  return p;
}

TvProfile *
ui_test_load_corpus (const char *name)
{
  const char *dir = g_getenv ("TACH_TEST_DATA");
  g_autofree char *path = NULL;

  g_assert_nonnull (dir);
  path = g_path_is_absolute (name) ? g_strdup (name) : g_build_filename (dir, "valid", name, NULL);
  return ui_test_load_profile (path);
}

TvCallTree *
ui_test_state_tree (TvProfile   *p,
                    TvViewState *s,
                    gboolean     inverted)
{
  TvQuery query;
  TvCallTree *tree;

  tv_view_state_to_query (s, &query);
  query.inverted = inverted;
  tree = tv_call_tree_new (tv_profile_get_data (p), &query, NULL);
  g_assert_nonnull (tree);
  return tree;
}

void
ui_test_wait_loaded (TvProfilePage *page)
{
  WAIT_UNTIL (tv_profile_page_get_state (page) != TV_PROFILE_PAGE_LOADING, UI_TEST_HANG_MS);
  g_assert_cmpint (tv_profile_page_get_state (page), ==, TV_PROFILE_PAGE_LOADED);
}
