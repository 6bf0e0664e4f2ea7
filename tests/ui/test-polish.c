/* test-polish.c: the window's size and tabs, the graph's place and
 * scrollbar, its legend, Esc, tooltips and menus, the breadcrumbs
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Drives the real window under gtk_test_init (every warning is fatal).
 * The tests share one application and run in the order they are added.
 */
#include <adwaita.h>
#include <math.h>

#include "tv-application.h"
#include "tv-diff.h"
#include "tv-flame-graph.h"
#include "tv-flame-view.h"
#include "tv-profile-page.h"
#include "tv-window.h"
#include "ui-test-util.h"

static TvApplication *application;

static GFile *
data_file (const char *name)
{
  const char *dir = g_getenv ("TACH_TEST_DATA");

  g_assert_nonnull (dir);
  return g_file_new_build_filename (dir, "valid", name, NULL);
}

/* NODE's first child in display order, or TV_NODE_NONE. */
static guint32
first_child (TvCallTree *tree,
             guint32     node)
{
  guint n = 0;
  const guint32 *children = tv_call_tree_get_children (tree, node, &n);

  return n > 0 ? children[0] : TV_NODE_NONE;
}

static TvWindow *
get_window (void)
{
  g_application_activate (G_APPLICATION (application));
  return ui_test_get_window (GTK_APPLICATION (application));
}

static TvProfilePage *
open_profile (TvWindow   *window,
              const char *name)
{
  g_autoptr(GFile) file = data_file (name);
  TvProfilePage *page = tv_window_open_file (window, file);

  g_assert_nonnull (page);
  ui_test_wait_loaded (page);
  return page;
}

static void
close_all_tabs (TvWindow *window)
{
  AdwTabView *tabs = tv_window_get_tab_view (window);

  while (adw_tab_view_get_n_pages (tabs) > 0)
    adw_tab_view_close_page (tabs, adw_tab_view_get_nth_page (tabs, 0));
  ui_test_spin (50);
}

/* The graph has its new tree laid out, at its size. */
static TvFlameGraph *
settled_graph (TvProfilePage *page)
{
  TvFlameView *view = tv_profile_page_get_flame_view (page);
  TvFlameGraph *graph = tv_flame_view_get_graph (view);

  WAIT_UNTIL (!tv_flame_view_is_busy (view) && tv_flame_graph_get_tree (graph) != NULL
              && tv_flame_graph_get_layout (graph) != NULL
              && tv_flame_layout_get_tree (tv_flame_graph_get_layout (graph))
                 == tv_flame_graph_get_tree (graph)
              && gtk_widget_get_mapped (GTK_WIDGET (graph))
              && tv_flame_layout_get_viewport (tv_flame_graph_get_layout (graph))->height
                 == gtk_widget_get_height (GTK_WIDGET (graph))
              && !tv_flame_graph_is_animating (graph),
              20000);
  return graph;
}

/* A new window opens at the size the settings hold, 1280x800 unless a
 * window was closed since; closing one keeps its size. */
static void
test_window_size (void)
{
  g_autoptr(GSettings) settings = tv_application_new_settings ();
  TvWindow *window;
  int width, height;

  g_assert_nonnull (settings);
  window = tv_window_new (GTK_APPLICATION (application));
  gtk_window_get_default_size (GTK_WINDOW (window), &width, &height);
  g_assert_cmpint (width, ==, 1280);
  g_assert_cmpint (height, ==, 800);
  gtk_window_present (GTK_WINDOW (window));
  gtk_window_set_default_size (GTK_WINDOW (window), 1111, 733);
  gtk_window_close (GTK_WINDOW (window));
  ui_test_spin (50);
  g_assert_cmpint (g_settings_get_int (settings, "window-width"), ==, 1111);
  g_assert_cmpint (g_settings_get_int (settings, "window-height"), ==, 733);

  window = tv_window_new (GTK_APPLICATION (application));
  gtk_window_get_default_size (GTK_WINDOW (window), &width, &height);
  g_assert_cmpint (width, ==, 1111);
  g_assert_cmpint (height, ==, 733);
  gtk_window_destroy (GTK_WINDOW (window));
  g_settings_reset (settings, "window-width");
  g_settings_reset (settings, "window-height");
}

/* The tab bar shows with two tabs, not with one. */
static void
test_tab_bar (void)
{
  TvWindow *window = get_window ();
  GtkWidget *tab_bar = GTK_WIDGET (gtk_widget_get_template_child (GTK_WIDGET (window),
                                                                  TV_TYPE_WINDOW, "tab_bar"));
  AdwTabView *tabs = tv_window_get_tab_view (window);

  gtk_window_present (GTK_WINDOW (window));
  close_all_tabs (window);
  g_assert_false (gtk_widget_get_visible (tab_bar));
  open_profile (window, "rec_threads.tach");
  g_assert_cmpint (adw_tab_view_get_n_pages (tabs), ==, 1);
  g_assert_false (gtk_widget_get_visible (tab_bar));
  open_profile (window, "rec_recursive.tach");
  g_assert_cmpint (adw_tab_view_get_n_pages (tabs), ==, 2);
  g_assert_true (gtk_widget_get_visible (tab_bar));
  WAIT_UNTIL (gtk_widget_get_height (tab_bar) > 0, 5000);
  adw_tab_view_close_page (tabs, adw_tab_view_get_selected_page (tabs));
  g_assert_cmpint (adw_tab_view_get_n_pages (tabs), ==, 1);
  g_assert_false (gtk_widget_get_visible (tab_bar));
  close_all_tabs (window);
}

/* A shallow graph hangs from the top: its deepest row's top is the
 * graph's, the root row ends where the content does, and there is no
 * scrollbar.  A deep one stands on the bottom, with a scrollbar that
 * spans its rows and scrolls them. */
static void
test_anchor (void)
{
  TvWindow *window = get_window ();
  TvProfilePage *page;
  TvFlameGraph *graph;
  TvFlameLayout *layout;
  GtkAdjustment *adjustment;
  GtkWidget *scrollbar;
  guint rows;
  double row_height, height;

  gtk_window_set_default_size (GTK_WINDOW (window), 1280, 800);
  gtk_window_present (GTK_WINDOW (window));
  page = open_profile (window, "rec_threads.tach");
  graph = settled_graph (page);
  layout = tv_flame_graph_get_layout (graph);
  rows = tv_flame_layout_get_content_rows (layout);
  row_height = tv_flame_layout_get_viewport (layout)->row_height;
  height = gtk_widget_get_height (GTK_WIDGET (graph));
  g_assert_cmpuint (rows, >, 3);
  g_assert_cmpfloat (rows * row_height, <, height);
  g_assert_cmpint (tv_flame_graph_get_orientation (graph), ==, TV_FLAME_ORIENTATION_FLAME);
  g_assert_cmpfloat_with_epsilon (tv_flame_layout_get_row_y (layout, rows - 1), 0, 1e-9);
  g_assert_cmpfloat_with_epsilon (tv_flame_layout_get_row_y (layout, 0),
                                  (rows - 1) * row_height, 1e-9);
  /* What is drawn there is what is hit there. */
  {
    double x, y;

    g_assert_true (ui_test_node_center (graph, TV_ROOT_NODE, &x, &y));
    g_assert_cmpfloat (y, <, rows * row_height);
  }
  scrollbar = tv_flame_graph_get_scrollbar (graph);
  g_assert_false (gtk_widget_get_visible (scrollbar));
  ui_test_save_screenshot (GTK_WIDGET (window), "polish-shallow.png", 300);

  /* Deep: rec_recursive's recursion in a short window. */
  close_all_tabs (window);
  gtk_window_set_default_size (GTK_WINDOW (window), 1000, 600);
  page = open_profile (window, "rec_recursive.tach");
  graph = settled_graph (page);
  layout = tv_flame_graph_get_layout (graph);
  rows = tv_flame_layout_get_content_rows (layout);
  height = gtk_widget_get_height (GTK_WIDGET (graph));
  g_assert_cmpfloat (rows * row_height, >, height);
  scrollbar = tv_flame_graph_get_scrollbar (graph);
  adjustment = tv_flame_graph_get_vadjustment (graph);
  g_assert_true (gtk_widget_get_visible (scrollbar));
  WAIT_UNTIL (gtk_widget_get_mapped (scrollbar), 5000);
  g_assert_cmpfloat (gtk_adjustment_get_upper (adjustment), ==, rows * row_height);
  g_assert_cmpfloat (gtk_adjustment_get_page_size (adjustment), ==, height);
  /* The root stands on the bottom: the view is scrolled to the end. */
  g_assert_cmpfloat_with_epsilon (gtk_adjustment_get_value (adjustment),
                                  rows * row_height - height, 1e-9);
  g_assert_cmpfloat_with_epsilon (tv_flame_layout_get_row_y (layout, 0), height - row_height,
                                  1e-9);
  ui_test_save_screenshot (GTK_WIDGET (window), "polish-deep.png", 300);

  /* Up to the top: the deepest row shows at the top. */
  gtk_adjustment_set_value (adjustment, 0);
  /* A layout that took long goes to a worker: wait for the new one. */
  WAIT_UNTIL (fabs (tv_flame_layout_get_row_y (tv_flame_graph_get_layout (graph), rows - 1)) < 1e-9,
              5000);
  layout = tv_flame_graph_get_layout (graph);
  g_assert_cmpfloat_with_epsilon (tv_flame_layout_get_row_y (layout, rows - 1), 0, 1e-9);
  g_assert_nonnull (tv_flame_layout_get_row (layout, rows - 1, &(guint) { 0 }));
  g_assert_cmpfloat_with_epsilon (gtk_adjustment_get_value (adjustment), 0, 1e-9);
  close_all_tabs (window);
}

/* Esc resets the zoom from the graph, a toolbar button, the function
 * table: wherever the focus is in the page. */
static void
test_escape (void)
{
  TvWindow *window = get_window ();
  TvProfilePage *page = open_profile (window, "rec_threads.tach");
  TvFlameView *view = tv_profile_page_get_flame_view (page);
  TvFlameGraph *graph = settled_graph (page);
  TvCallTree *tree = tv_flame_graph_get_tree (graph);
  GtkWidget *focusables[3];
  guint32 node = first_child (tree, TV_ROOT_NODE);

  g_assert_cmpuint (node, !=, TV_NODE_NONE);
  focusables[0] = GTK_WIDGET (graph);
  focusables[1] = GTK_WIDGET (gtk_widget_get_template_child (GTK_WIDGET (view),
                                                             TV_TYPE_FLAME_VIEW,
                                                             "inverted_button"));
  /* The table's rows (its search entry keeps Esc, to stop searching). */
  focusables[2] = ui_test_find_widget (GTK_WIDGET (tv_flame_view_get_function_table (view)),
                                       GTK_TYPE_COLUMN_VIEW);
  g_assert_nonnull (focusables[2]);
  for (guint i = 0; i < G_N_ELEMENTS (focusables); i++)
    {
      tv_flame_graph_zoom_to (graph, node);
      WAIT_UNTIL (!tv_flame_graph_is_animating (graph), 5000);
      g_assert_cmpuint (tv_flame_graph_get_zoom_root (graph), ==, node);
      g_assert_true (gtk_widget_grab_focus (focusables[i])
                     || gtk_widget_child_focus (focusables[i], GTK_DIR_TAB_FORWARD));
      g_assert_true (gtk_widget_is_ancestor (gtk_root_get_focus (GTK_ROOT (window)),
                                             GTK_WIDGET (view))
                     || gtk_root_get_focus (GTK_ROOT (window)) == focusables[i]);
      g_test_message ("Esc with the focus on %s", G_OBJECT_TYPE_NAME (gtk_root_get_focus (GTK_ROOT (window))));
      g_assert_true (ui_test_deliver_key (GTK_WINDOW (window), GDK_KEY_Escape, 0));
      g_assert_cmpuint (tv_flame_graph_get_zoom_root (graph), ==, TV_ROOT_NODE);
    }
  close_all_tabs (window);
}

static GtkPopover *
child_popover (GtkWidget *widget)
{
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (GTK_IS_POPOVER (child))
      return GTK_POPOVER (child);
  g_assert_not_reached ();
}

/* A button's tooltip is off while its menu is open, and back when it
 * closes; a frame's tooltip is off while the context menu is open. */
static void
test_tooltips (void)
{
  TvWindow *window = get_window ();
  TvProfilePage *page = open_profile (window, "rec_threads.tach");
  TvFlameView *view = tv_profile_page_get_flame_view (page);
  TvFlameGraph *graph = settled_graph (page);
  const char *owners[] = { "threads_button", "state_dropdown", "colors_dropdown" };
  GtkEventController *secondary;
  GtkPopover *menu;
  double x, y;

  for (guint i = 0; i < G_N_ELEMENTS (owners); i++)
    {
      GtkWidget *owner = GTK_WIDGET (gtk_widget_get_template_child (GTK_WIDGET (view),
                                                                    TV_TYPE_FLAME_VIEW,
                                                                    owners[i]));
      GtkPopover *popover = child_popover (owner);

      g_assert_true (gtk_widget_get_has_tooltip (owner));
      gtk_popover_popup (popover);
      WAIT_UNTIL (gtk_widget_get_mapped (GTK_WIDGET (popover)), 5000);
      g_assert_false (gtk_widget_get_has_tooltip (owner));
      gtk_popover_popdown (popover);
      WAIT_UNTIL (!gtk_widget_get_mapped (GTK_WIDGET (popover)), 5000);
      g_assert_true (gtk_widget_get_has_tooltip (owner));
    }

  /* The header bar's main menu. */
  {
    GtkWidget *button = GTK_WIDGET (gtk_widget_get_template_child (GTK_WIDGET (window),
                                                                   TV_TYPE_WINDOW,
                                                                   "menu_button"));

    if (button != NULL)
      {
        gtk_menu_button_popup (GTK_MENU_BUTTON (button));
        WAIT_UNTIL (gtk_widget_get_mapped (GTK_WIDGET (gtk_menu_button_get_popover (
                                             GTK_MENU_BUTTON (button)))), 5000);
        g_assert_false (gtk_widget_get_has_tooltip (button));
        gtk_menu_button_popdown (GTK_MENU_BUTTON (button));
        WAIT_UNTIL (gtk_widget_get_has_tooltip (button), 5000);
      }
  }

  /* The context menu, opened as a right click opens it. */
  g_assert_true (ui_test_node_center (graph, first_child (
                                        tv_flame_graph_get_tree (graph), TV_ROOT_NODE),
                                      &x, &y));
  g_assert_true (gtk_widget_get_has_tooltip (GTK_WIDGET (graph)));
  secondary = ui_test_find_controller (GTK_WIDGET (graph), GTK_TYPE_GESTURE_CLICK,
                                       GDK_BUTTON_SECONDARY);
  g_signal_emit_by_name (secondary, "pressed", 1, x, y);
  menu = child_popover (GTK_WIDGET (graph));
  WAIT_UNTIL (gtk_widget_get_mapped (GTK_WIDGET (menu)), 5000);
  g_assert_false (gtk_widget_get_has_tooltip (GTK_WIDGET (graph)));
  gtk_popover_popdown (menu);
  WAIT_UNTIL (!gtk_widget_get_mapped (GTK_WIDGET (menu)), 5000);
  g_assert_true (gtk_widget_get_has_tooltip (GTK_WIDGET (graph)));
  close_all_tabs (window);
}

/* The texts of the legend's labels, in order, joined by "|". */
static char *
legend_text (GtkWidget *widget)
{
  g_autoptr(GString) text = g_string_new (NULL);
  g_autoptr(GPtrArray) stack = g_ptr_array_new ();

  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *label = child;

      if (!GTK_IS_LABEL (label))
        label = gtk_widget_get_last_child (child);
      g_assert_true (GTK_IS_LABEL (label));
      if (text->len > 0)
        g_string_append_c (text, '|');
      g_string_append (text, gtk_label_get_text (GTK_LABEL (label)));
    }
  return g_string_free (g_steal_pointer (&text), FALSE);
}

/* Every colour mode has its key under the graph, which follows the
 * dropdown. */
static void
test_legend (void)
{
  TvWindow *window = get_window ();
  TvProfilePage *page = open_profile (window, "rec_threads.tach");
  TvFlameView *view = tv_profile_page_get_flame_view (page);
  TvFlameGraph *graph = settled_graph (page);
  GtkDropDown *colors = GTK_DROP_DOWN (gtk_widget_get_template_child (GTK_WIDGET (view),
                                                                     TV_TYPE_FLAME_VIEW,
                                                                     "colors_dropdown"));
  GtkWidget *legend = tv_flame_view_get_legend (view);
  static const struct
  {
    TvFlameColorScheme scheme;
    const char        *text;
    const char        *shot;
  } modes[] = {
    { TV_FLAME_COLORS_HEAT, "Self time:|None|Half the most|The most", "polish-legend-heat" },
    { TV_FLAME_COLORS_THREAD_STATE,
      "Thread state, mixed by share:|Holding the GIL|On CPU without the GIL|"
      "Waiting for the GIL|Exception|Idle", "polish-legend-state" },
    { TV_FLAME_COLORS_MODULE,
      "Module:|This project|Standard library|Installed packages|Other",
      "polish-legend-module" },
  };

  g_assert_true (gtk_widget_is_ancestor (legend, GTK_WIDGET (view)));
  for (guint i = 0; i < G_N_ELEMENTS (modes); i++)
    {
      g_autofree char *text = NULL;

      gtk_drop_down_set_selected (colors, modes[i].scheme);
      g_assert_cmpint (tv_flame_graph_get_color_scheme (graph), ==, modes[i].scheme);
      WAIT_UNTIL (gtk_widget_get_mapped (legend) && gtk_widget_get_height (legend) > 0, 5000);
      text = legend_text (legend);
      g_assert_cmpstr (text, ==, modes[i].text);
      for (guint dark = 0; dark <= 1; dark++)
        {
          g_autofree char *name = g_strdup_printf ("%s-%s.png", modes[i].shot,
                                                   dark ? "dark" : "light");

          ui_test_set_dark (dark);
          ui_test_save_screenshot (GTK_WIDGET (window), name, 300);
        }
      ui_test_set_dark (FALSE);
    }
  close_all_tabs (window);
}

/* A path too long for its room scrolls to its end, and "…" says that
 * it goes on to the left. */
static void
test_breadcrumbs (void)
{
  TvWindow *window = get_window ();
  TvProfilePage *page;
  TvFlameView *view;
  TvFlameGraph *graph;
  TvCallTree *tree;
  GtkWidget *more;
  GtkScrolledWindow *scroller;
  GtkAdjustment *adjustment;
  guint32 node = TV_ROOT_NODE, deepest = TV_ROOT_NODE;

  gtk_window_set_default_size (GTK_WINDOW (window), 1000, 700);
  page = open_profile (window, "rec_recursive.tach");
  view = tv_profile_page_get_flame_view (page);
  graph = settled_graph (page);
  tree = tv_flame_graph_get_tree (graph);
  more = GTK_WIDGET (gtk_widget_get_template_child (GTK_WIDGET (view), TV_TYPE_FLAME_VIEW,
                                                    "crumb_more"));
  scroller = GTK_SCROLLED_WINDOW (gtk_widget_get_template_child (GTK_WIDGET (view),
                                                                 TV_TYPE_FLAME_VIEW,
                                                                 "crumb_scroller"));
  adjustment = gtk_scrolled_window_get_hadjustment (scroller);
  g_assert_cmpfloat (gtk_widget_get_opacity (more), ==, 0);

  /* The deepest first child. */
  for (node = TV_ROOT_NODE; node != TV_NODE_NONE; node = first_child (tree, node))
    deepest = node;
  g_assert_cmpuint (tv_call_tree_get_depth (tree, deepest), >, 20);
  tv_flame_graph_zoom_to (graph, deepest);
  WAIT_UNTIL (!tv_flame_graph_is_animating (graph), 5000);
  WAIT_UNTIL (gtk_adjustment_get_upper (adjustment) > gtk_adjustment_get_page_size (adjustment)
              && gtk_adjustment_get_value (adjustment) > 0
              && gtk_adjustment_get_value (adjustment) + gtk_adjustment_get_page_size (adjustment)
                 >= gtk_adjustment_get_upper (adjustment) - 0.5, 5000);
  g_assert_cmpfloat (gtk_widget_get_opacity (more), ==, 1);
  g_assert_true (gtk_widget_get_sensitive (more));
  ui_test_save_screenshot (GTK_WIDGET (window), "polish-breadcrumbs.png", 300);

  /* "…" scrolls to the start, and goes. */
  g_signal_emit_by_name (more, "clicked");
  g_assert_cmpfloat (gtk_adjustment_get_value (adjustment), ==, 0);
  g_assert_cmpfloat (gtk_widget_get_opacity (more), ==, 0);
  ui_test_spin (100);
  g_assert_cmpfloat (gtk_adjustment_get_value (adjustment), ==, 0);

  /* Esc: back to the whole tree, and a path that fits. */
  g_assert_true (tv_flame_graph_reset_zoom (graph));
  WAIT_UNTIL (gtk_adjustment_get_upper (adjustment)
              <= gtk_adjustment_get_page_size (adjustment), 5000);
  WAIT_UNTIL (gtk_widget_get_opacity (more) == 0, 5000);
  g_assert_false (tv_flame_graph_reset_zoom (graph));
  close_all_tabs (window);
}

/* A comparison of a profile with itself is all within noise: side by
 * side, its frames keep their module colours (a change would be
 * outlined); the differential graph's grey stays for the view whose
 * colours are the change. */
static void
test_diff_noise_colors (void)
{
  TvWindow *window = get_window ();
  TvProfilePage *page = open_profile (window, "rec_threads.tach");
  TvFlameGraph *graph = settled_graph (page);
  TvCallTree *tree = tv_flame_graph_get_tree (graph);
  TvFlameLayout *layout = tv_flame_graph_get_layout (graph);
  g_autoptr(TvDiff) diff = tv_diff_new (tree, tree, NULL, NULL);
  g_autoptr(TvFlameRenderer) renderer = tv_flame_renderer_new (NULL);
  const TvFlameBox *boxes;
  guint n_boxes, checked = 0;
  TvFlameStyle modules, noise, grey;

  g_assert_nonnull (diff);
  tv_flame_style_init (&modules);
  noise = modules;
  noise.scheme = TV_FLAME_COLORS_DIFF;
  noise.diff = diff;
  noise.diff_side = TV_DIFF_SIDE_NEW;
  noise.diff_keeps_modules = TRUE;
  grey = noise;
  grey.diff_keeps_modules = FALSE;
  boxes = tv_flame_layout_get_boxes (layout, &n_boxes);
  for (guint i = 0; i < n_boxes; i++)
    {
      TvFlameColor a, b, c, neutral;
      TvDiffNode out;

      if (boxes[i].node == TV_ROOT_NODE || (boxes[i].flags & TV_FLAME_BOX_MERGED))
        continue;
      tv_diff_get_node (diff, TV_DIFF_SIDE_NEW, boxes[i].node, &out);
      g_assert_cmpint (out.total.change, ==, TV_DIFF_NEUTRAL);
      neutral = tv_flame_diff_color (TV_DIFF_NEUTRAL, out.total.relative, FALSE);
      a = tv_flame_renderer_get_fill (renderer, layout, &boxes[i], &modules);
      b = tv_flame_renderer_get_fill (renderer, layout, &boxes[i], &noise);
      c = tv_flame_renderer_get_fill (renderer, layout, &boxes[i], &grey);
      g_assert_cmpfloat (a.red, ==, b.red);
      g_assert_cmpfloat (a.green, ==, b.green);
      g_assert_cmpfloat (a.blue, ==, b.blue);
      g_assert_cmpfloat (c.red, ==, neutral.red);
      g_assert_cmpfloat (c.green, ==, neutral.green);
      g_assert_cmpfloat (c.blue, ==, neutral.blue);
      if (a.red != c.red || a.green != c.green || a.blue != c.blue)
        checked++;
    }
  /* Grey and the module colours are told apart. */
  g_assert_cmpuint (checked, >, 5);
  close_all_tabs (window);
}

int
main (int   argc,
      char *argv[])
{
  if (!ui_test_init (&argc, &argv))
    return 77;

  g_test_add_func ("/ui/polish/window-size", test_window_size);
  g_test_add_func ("/ui/polish/tab-bar", test_tab_bar);
  g_test_add_func ("/ui/polish/anchor", test_anchor);
  g_test_add_func ("/ui/polish/escape", test_escape);
  g_test_add_func ("/ui/polish/tooltips", test_tooltips);
  g_test_add_func ("/ui/polish/legend", test_legend);
  g_test_add_func ("/ui/polish/breadcrumbs", test_breadcrumbs);
  g_test_add_func ("/ui/polish/diff-noise-colors", test_diff_noise_colors);

  return ui_test_run_in_application (&application, FALSE);
}
