/* test-compare.c: the comparison of two profiles, in the real window
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Drives a TvComparePage in the application's window under gtk_test_init
 * (every warning is fatal).  The two profiles are written here with the
 * project's writer, with known changes: "work" takes 15 % more time in
 * NEW, "gone" vanished, "fresh" appeared, "other" is unchanged.  What the
 * page shows is checked against those changes and against the TvDiff:
 * the table's order and colours, zoom synchronised by call path, hover
 * outlined in the other graph, search in both, linked filters, the
 * vanished stacks, the comparability banner and the differing
 * properties, swapping BASE and NEW.  Screenshots, light and dark, go to
 * TV_TEST_OUTPUT_DIR.
 */

#include <math.h>
#include <string.h>

#include <adwaita.h>
#include <glib/gstdio.h>

#include "tachyon-format.h"
#include "tv-application.h"
#include "tv-text.h"
#include "tv-window.h"
#include "ui-test-util.h"

static TvApplication *application;
static char *tmp_dir;
static char *base_path;
static char *new_path;

/* Samples of each stack, root first, in BASE and in NEW. */
typedef struct
{
  const char *stack[3];
  guint64     base;
  guint64     new;
  gboolean    idle;        /* not on CPU */
} StackCount;

static const StackCount stacks[] = {
  { { "main", "work", NULL }, 3000, 3600, FALSE },
  { { "main", "work", "helper" }, 1000, 1000, FALSE },
  { { "main", "other", NULL }, 3000, 3000, TRUE },
  { { "main", "gone", NULL }, 400, 0, FALSE },
  { { "main", "fresh", NULL }, 0, 300, FALSE },
};

/* Writes BASE's or NEW's side of the pair, each stack SCALE times as
 * often, with a statistics block (a measured rate of 1000 Hz) or
 * without. */
static void
write_pair_side (const char *path,
                 gboolean    new_side,
                 guint       scale,
                 gboolean    with_stats)
{
  TachWriterOptions options = { 0 };
  TachWriter *writer = NULL;
  TachError error;
  TachStats stats = { 0 };
  guint64 left[G_N_ELEMENTS (stacks)];
  guint64 ts = 1000000, total = 0;
  gboolean more = TRUE;

  options.sample_interval_us = 1000;
  options.start_time_us = ts;
  options.mode_raw = 1;            /* wall clock */
  options.python_major = 3;
  options.python_minor = 15;
  if (tach_writer_new (path, &options, &writer, &error) != TACH_OK)
    g_error ("writer: %s", error.message);
  for (guint i = 0; i < G_N_ELEMENTS (stacks); i++)
    left[i] = scale * (new_side ? stacks[i].new : stacks[i].base);

  /* Round robin over the stacks, so every stretch of time has them all. */
  while (more)
    {
      more = FALSE;
      for (guint i = 0; i < G_N_ELEMENTS (stacks); i++)
        {
          guint32 frames[3];
          guint depth = 0;

          if (left[i] == 0)
            continue;
          left[i]--;
          more = TRUE;
          while (depth < 3 && stacks[i].stack[depth] != NULL)
            depth++;
          for (guint d = 0; d < depth; d++)
            {
              g_autofree char *file = g_strdup_printf ("/app/%s.py", stacks[i].stack[d]);
              TachFrameInfo info = { file, stacks[i].stack[d], 10, -1, -1, -1,
                                     TACH_OPCODE_NONE };

              if (tach_writer_intern_frame (writer, &info, &frames[depth - 1 - d], &error)
                  != TACH_OK)
                g_error ("intern: %s", error.message);
            }
          if (tach_writer_add_sample (writer, 42, 0, ts,
                                      stacks[i].idle ? TACH_STATUS_HAS_GIL
                                                     : TACH_STATUS_HAS_GIL | TACH_STATUS_ON_CPU,
                                      frames, depth, &error) != TACH_OK)
            g_error ("add_sample: %s", error.message);
          ts += 1000;
          total++;
        }
    }
  stats.block_size = 56;
  stats.sample_rate = 1000;
  stats.duration_sec = total / 1000.0;
  if (with_stats && tach_writer_set_stats (writer, &stats, &error) != TACH_OK)
    g_error ("stats: %s", error.message);
  if (tach_writer_finish (writer, &error) != TACH_OK)
    g_error ("finish: %s", error.message);
}

static TvWindow *
get_window (void)
{
  return ui_test_get_window (GTK_APPLICATION (application));
}

static gboolean
graphs_idle (TvComparePage *page)
{
  TvFlameGraph *graphs[] = { tv_compare_page_get_graph (page, TV_DIFF_SIDE_BASE),
                             tv_compare_page_get_graph (page, TV_DIFF_SIDE_NEW),
                             tv_compare_page_get_diff_graph (page) };

  for (guint i = 0; i < G_N_ELEMENTS (graphs); i++)
    if (tv_flame_graph_is_animating (graphs[i]) || tv_flame_graph_is_laying_out (graphs[i])
        /* A graph just shown has its first layout on its first allocation. */
        || (gtk_widget_get_mapped (GTK_WIDGET (graphs[i]))
            && tv_flame_graph_get_layout (graphs[i]) == NULL))
      return FALSE;
  return TRUE;
}

static void
settle (TvComparePage *page)
{
  WAIT_UNTIL (tv_compare_page_get_state (page) != TV_COMPARE_PAGE_LOADING
              && !tv_compare_page_is_busy (page) && graphs_idle (page), 60000);
  ui_test_spin (30);
  g_assert_cmpint (tv_compare_page_get_state (page), ==, TV_COMPARE_PAGE_READY);
}

static TvComparePage *
open_pair (const char *base,
           const char *new_file)
{
  g_autoptr(GFile) a = g_file_new_for_path (base);
  g_autoptr(GFile) b = g_file_new_for_path (new_file);
  TvComparePage *page;

  g_application_activate (G_APPLICATION (application));
  page = tv_window_open_comparison (get_window (), a, b);
  settle (page);
  /* Both files are among the recent ones, as a profile opened alone is. */
  {
    g_autofree char *uri_a = g_file_get_uri (a);
    g_autofree char *uri_b = g_file_get_uri (b);

    ui_test_spin (20);
    g_assert_true (gtk_recent_manager_has_item (gtk_recent_manager_get_default (), uri_a));
    g_assert_true (gtk_recent_manager_has_item (gtk_recent_manager_get_default (), uri_b));
  }
  return page;
}

static void
close_all (void)
{
  AdwTabView *tabs = tv_window_get_tab_view (get_window ());

  while (adw_tab_view_get_n_pages (tabs) > 0)
    adw_tab_view_close_page (tabs, adw_tab_view_get_nth_page (tabs, 0));
  ui_test_spin (20);
}

/* The node reached from the root by the functions of PATH. */
static guint32
find_path (TvCallTree         *tree,
           const char * const *path)
{
  TvProfileData *data = tv_call_tree_get_data (tree);
  guint32 node = TV_ROOT_NODE;

  for (guint d = 0; path[d] != NULL; d++)
    {
      guint n;
      const guint32 *children = tv_call_tree_get_children (tree, node, &n);
      guint32 found = TV_NODE_NONE;

      for (guint i = 0; i < n; i++)
        if (strcmp (tv_profile_data_get_funcname (data, tv_call_tree_get_frame (tree, children[i])),
                    path[d]) == 0)
          found = children[i];
      if (found == TV_NODE_NONE)
        return TV_NODE_NONE;
      node = found;
    }
  return node;
}

static const TvDiffFunction *
find_function (TvDiff     *diff,
               const char *name)
{
  guint n;
  const TvDiffFunction *rows = tv_diff_get_functions (diff, &n);

  for (guint i = 0; i < n; i++)
    if (strcmp (tv_diff_get_function_name (diff, &rows[i]), name) == 0)
      return &rows[i];
  g_assert_not_reached ();
}

/* ------------------------------------------------------------------------ */

/* The page opens on the injected changes: "work" first in the table,
 * slower by 15 %, significant; "other" unchanged and neutral; the
 * differential graph coloured by it, and its tooltip says so. */
static void
test_open (void)
{
  TvComparePage *page = open_pair (base_path, new_path);
  TvDiff *diff = tv_compare_page_get_diff (page);
  TvDiffTable *table = tv_compare_page_get_table (page);
  TvFlameGraph *diff_graph = tv_compare_page_get_diff_graph (page);
  const TvDiffFunction *work, *other;
  guint n_rows;
  const TvDiffFunction *rows;
  static const char * const work_path[] = { "main", "work", NULL };
  guint32 node;
  double x, y;
  g_autofree char *tooltip = NULL;

  g_assert_nonnull (diff);
  rows = tv_diff_get_functions (diff, &n_rows);
  g_assert_cmpuint (tv_diff_table_get_n_rows (table), ==, n_rows);
  g_assert_cmpuint (n_rows, ==, 6);
  /* Unsorted, the table keeps the diff's order: the largest change first. */
  g_assert_cmpstr (tv_diff_get_function_name (diff, &rows[tv_diff_table_get_row (table, 0)]),
                   ==, "work");

  work = find_function (diff, "work");
  g_assert_cmpint (work->total.change, ==, TV_DIFF_SLOWER);
  g_assert_cmpfloat_with_epsilon (work->total.relative, 0.15, 1e-9);
  g_assert_cmpfloat_with_epsilon (work->total.delta, 0.6, 1e-9);
  other = find_function (diff, "other");
  g_assert_cmpint (other->total.change, ==, TV_DIFF_NEUTRAL);
  g_assert_cmpint (find_function (diff, "gone")->total.change, ==, TV_DIFF_FASTER);

  /* Nothing to warn about between two runs of the same kind. */
  g_assert_null (tv_compare_page_get_banner_text (page));
  /* The sample counts and durations differ; the mode and version do not. */
  g_assert_cmpuint (tv_compare_page_get_n_differing_properties (page), >=, 2);

  tv_compare_page_show_view (page, "differential");
  settle (page);
  g_assert_true (tv_flame_graph_get_tree (diff_graph)
                 == tv_diff_get_tree (diff, TV_DIFF_SIDE_NEW));
  g_assert_cmpint (tv_flame_graph_get_color_scheme (diff_graph), ==, TV_FLAME_COLORS_DIFF);
  node = find_path (tv_flame_graph_get_tree (diff_graph), work_path);
  g_assert_cmpuint (node, !=, TV_NODE_NONE);
  g_assert_true (ui_test_node_center (diff_graph, node, &x, &y));
  tooltip = tv_flame_graph_describe_at (diff_graph, x, y);
  g_assert_nonnull (tooltip);
  g_test_message ("tooltip: %s", tooltip);
  g_assert_nonnull (strstr (tooltip, "Total: 4.00 s → 4.60 s, +600 ms (+15.0 %)"));
  g_assert_nonnull (strstr (tooltip, "Total changed beyond noise: exact binomial test"));
  /* Coloured by self time, the tooltip gives the self samples' test,
   * whose verdict the colour shows, for a leaf and for a caller whose
   * own samples did not change. */
  tv_flame_graph_set_diff_mode (diff_graph, TV_FLAME_DIFF_SELF);
  for (guint32 n = node; n != TV_NODE_NONE && n != TV_ROOT_NODE;
       n = tv_call_tree_get_parent (tv_flame_graph_get_tree (diff_graph), n))
    {
      g_autofree char *self_tip = NULL;
      TvDiffNode out;

      tv_diff_get_node (diff, TV_DIFF_SIDE_NEW, n, &out);
      if (!ui_test_node_center (diff_graph, n, &x, &y))
        continue;
      self_tip = tv_flame_graph_describe_at (diff_graph, x, y);
      g_test_message ("self tooltip: %s", self_tip);
      g_assert_null (strstr (self_tip, "Total changed beyond noise"));
      g_assert_null (strstr (self_tip, "Total within sampling noise"));
      g_assert_nonnull (strstr (self_tip, out.self.significant ? "Self changed beyond noise: "
                                                               : "Self within sampling noise: "));
      if (out.self.base_value == 0 && out.self.new_value == 0)
        g_assert_nonnull (strstr (self_tip, "p = 1"));
    }
  tv_flame_graph_set_diff_mode (diff_graph, TV_FLAME_DIFF_TOTAL);

  for (guint dark = 0; dark < 2; dark++)
    {
      ui_test_set_dark (dark);
      tv_compare_page_show_view (page, "side-by-side");
      ui_test_save_screenshot (GTK_WIDGET (get_window ()),
                               dark ? "compare-side-dark.png" : "compare-side-light.png", 400);
      tv_compare_page_show_view (page, "differential");
      ui_test_save_screenshot (GTK_WIDGET (get_window ()),
                               dark ? "compare-diff-dark.png" : "compare-diff-light.png", 400);
    }
  ui_test_set_dark (FALSE);
  tv_compare_page_show_view (page, "functions");
  ui_test_save_screenshot (GTK_WIDGET (get_window ()), "compare-functions.png", 400);
  tv_compare_page_show_view (page, "properties");
  ui_test_save_screenshot (GTK_WIDGET (get_window ()), "compare-properties.png", 400);
  close_all ();
}

/* Zooming one graph zooms the others to the same call path, or to its
 * nearest ancestor that the other profile has. */
static void
test_zoom_sync (void)
{
  TvComparePage *page = open_pair (base_path, new_path);
  TvDiff *diff = tv_compare_page_get_diff (page);
  TvFlameGraph *base_graph = tv_compare_page_get_graph (page, TV_DIFF_SIDE_BASE);
  TvFlameGraph *new_graph = tv_compare_page_get_graph (page, TV_DIFF_SIDE_NEW);
  TvFlameGraph *diff_graph = tv_compare_page_get_diff_graph (page);
  TvCallTree *base_tree = tv_diff_get_tree (diff, TV_DIFF_SIDE_BASE);
  TvCallTree *new_tree = tv_diff_get_tree (diff, TV_DIFF_SIDE_NEW);
  static const char * const work_path[] = { "main", "work", NULL };
  static const char * const gone_path[] = { "main", "gone", NULL };
  static const char * const main_path[] = { "main", NULL };
  guint32 base_work = find_path (base_tree, work_path);
  guint32 new_work = find_path (new_tree, work_path);

  g_assert_cmpuint (base_work, !=, TV_NODE_NONE);
  g_assert_cmpuint (new_work, !=, TV_NODE_NONE);
  g_assert_cmpuint (tv_diff_map_node (diff, TV_DIFF_SIDE_BASE, base_work), ==, new_work);

  tv_flame_graph_zoom_to (base_graph, base_work);
  settle (page);
  g_assert_cmpuint (tv_flame_graph_get_zoom_root (base_graph), ==, base_work);
  g_assert_cmpuint (tv_flame_graph_get_zoom_root (new_graph), ==, new_work);
  g_assert_cmpuint (tv_flame_graph_get_zoom_root (diff_graph), ==, new_work);
  ui_test_save_screenshot (GTK_WIDGET (get_window ()), "compare-zoom.png", 400);

  /* "gone" is not in NEW: the other graphs zoom to "main". */
  tv_flame_graph_zoom_to (base_graph, find_path (base_tree, gone_path));
  settle (page);
  g_assert_cmpuint (tv_flame_graph_get_zoom_root (new_graph), ==, find_path (new_tree, main_path));

  /* And back, from the differential graph. */
  tv_flame_graph_zoom_to (diff_graph, TV_ROOT_NODE);
  settle (page);
  g_assert_cmpuint (tv_flame_graph_get_zoom_root (base_graph), ==, TV_ROOT_NODE);
  g_assert_cmpuint (tv_flame_graph_get_zoom_root (new_graph), ==, TV_ROOT_NODE);
  close_all ();
}

/* Hovering a frame outlines the same path in the other graph. */
static void
test_hover (void)
{
  TvComparePage *page = open_pair (base_path, new_path);
  TvDiff *diff = tv_compare_page_get_diff (page);
  TvFlameGraph *base_graph = tv_compare_page_get_graph (page, TV_DIFF_SIDE_BASE);
  TvFlameGraph *new_graph = tv_compare_page_get_graph (page, TV_DIFF_SIDE_NEW);
  static const char * const helper_path[] = { "main", "work", "helper", NULL };
  guint32 base_node = find_path (tv_diff_get_tree (diff, TV_DIFF_SIDE_BASE), helper_path);
  guint32 new_node = find_path (tv_diff_get_tree (diff, TV_DIFF_SIDE_NEW), helper_path);
  GtkEventController *motion;
  double x, y;

  g_assert_true (ui_test_node_center (new_graph, new_node, &x, &y));
  motion = ui_test_find_controller (GTK_WIDGET (new_graph), GTK_TYPE_EVENT_CONTROLLER_MOTION, 0);
  g_signal_emit_by_name (motion, "motion", x, y);
  g_assert_cmpuint (tv_flame_graph_get_hovered_node (new_graph), ==, new_node);
  g_assert_cmpuint (tv_flame_graph_get_linked (base_graph), ==, base_node);
  ui_test_save_screenshot (GTK_WIDGET (get_window ()), "compare-hover.png", 200);

  g_signal_emit_by_name (motion, "leave");
  g_assert_cmpuint (tv_flame_graph_get_linked (base_graph), ==, TV_NODE_NONE);
  close_all ();
}

/* One search, both graphs; a bad expression is marked, not applied. */
static void
test_search (void)
{
  TvComparePage *page = open_pair (base_path, new_path);
  TvFlameGraph *base_graph = tv_compare_page_get_graph (page, TV_DIFF_SIDE_BASE);
  TvFlameGraph *new_graph = tv_compare_page_get_graph (page, TV_DIFF_SIDE_NEW);

  tv_compare_page_set_search (page, "^work$");
  WAIT_UNTIL (tv_flame_graph_get_matches (base_graph) != NULL
              && tv_flame_graph_get_matches (new_graph) != NULL, 20000);
  /* Samples through "work": its own and its helper's. */
  g_assert_cmpuint (tv_flame_matches_get_n_samples (tv_flame_graph_get_matches (base_graph)), ==,
                    4000);
  g_assert_cmpuint (tv_flame_matches_get_n_samples (tv_flame_graph_get_matches (new_graph)), ==,
                    4600);
  g_assert_true (tv_flame_graph_get_matches (tv_compare_page_get_diff_graph (page))
                 == tv_flame_graph_get_matches (new_graph));
  ui_test_save_screenshot (GTK_WIDGET (get_window ()), "compare-search.png", 200);

  tv_compare_page_set_search (page, "(");
  g_assert_null (tv_flame_graph_get_matches (base_graph));
  g_assert_null (tv_flame_graph_get_matches (new_graph));

  /* A search cleared before it finished does not come back. */
  tv_compare_page_set_search (page, "^work$");
  tv_compare_page_set_search (page, "");
  settle (page);
  ui_test_spin (200);
  g_assert_null (tv_flame_graph_get_matches (base_graph));
  g_assert_null (tv_flame_graph_get_matches (new_graph));
  /* Nor does one replaced by another. */
  tv_compare_page_set_search (page, "^work$");
  tv_compare_page_set_search (page, "^other$");
  settle (page);
  g_assert_cmpuint (tv_flame_matches_get_n_samples (tv_flame_graph_get_matches (base_graph)), ==,
                    3000);
  close_all ();
}

/* "Find the function" from the table, zoomed into a subtree that lacks
 * it: the graphs zoom back out, so that its frames are on screen. */
static void
test_find_function (void)
{
  TvComparePage *page = open_pair (base_path, new_path);
  TvDiff *diff = tv_compare_page_get_diff (page);
  TvFlameGraph *graphs[] = { tv_compare_page_get_graph (page, TV_DIFF_SIDE_BASE),
                             tv_compare_page_get_graph (page, TV_DIFF_SIDE_NEW),
                             tv_compare_page_get_diff_graph (page) };
  TvFlameGraph *diff_graph = graphs[2];
  static const char * const work_path[] = { "main", "work", NULL };
  guint n_rows;
  const TvDiffFunction *rows = tv_diff_get_functions (diff, &n_rows);
  guint other = find_function (diff, "other") - rows;

  tv_compare_page_show_view (page, "differential");
  settle (page);
  tv_flame_graph_zoom_to (diff_graph, find_path (tv_flame_graph_get_tree (diff_graph),
                                                 work_path));
  settle (page);
  for (guint i = 0; i < G_N_ELEMENTS (graphs); i++)
    g_assert_cmpuint (tv_flame_graph_get_zoom_root (graphs[i]), !=, TV_ROOT_NODE);

  tv_compare_page_show_view (page, "functions");
  g_signal_emit_by_name (tv_compare_page_get_table (page), "function-activated", other);
  /* The entry says the search a moment later, as typing does. */
  WAIT_UNTIL (tv_flame_graph_get_matches (diff_graph) != NULL, 20000);
  settle (page);
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (diff_graph)));
  for (guint i = 0; i < G_N_ELEMENTS (graphs); i++)
    g_assert_cmpuint (tv_flame_graph_get_zoom_root (graphs[i]), ==, TV_ROOT_NODE);
  g_assert_cmpuint (tv_flame_matches_get_n_samples (tv_flame_graph_get_matches (diff_graph)), ==,
                    3000);
  for (guint dark = 0; dark < 2; dark++)
    {
      ui_test_set_dark (dark);
      ui_test_save_screenshot (GTK_WIDGET (get_window ()),
                               dark ? "compare-find-dark.png" : "compare-find-light.png", 400);
    }
  ui_test_set_dark (FALSE);
  close_all ();
}

/* Each side has its own filters; linked, NEW follows BASE. */
static void
test_filters (void)
{
  TvComparePage *page = open_pair (base_path, new_path);
  TvViewState *base_state = tv_compare_page_get_view_state (page, TV_DIFF_SIDE_BASE);
  TvViewState *new_state = tv_compare_page_get_view_state (page, TV_DIFF_SIDE_NEW);
  TvDiff *diff;

  /* Unlinked: only BASE is filtered to "on CPU", which drops "other". */
  tv_view_state_set_state_filter (base_state, TV_STATE_FILTER_CPU);
  settle (page);
  diff = tv_compare_page_get_diff (page);
  g_assert_cmpuint (tv_call_tree_get_n_samples (tv_diff_get_tree (diff, TV_DIFF_SIDE_BASE)), ==,
                    7400 - 3000);
  g_assert_cmpuint (tv_call_tree_get_n_samples (tv_diff_get_tree (diff, TV_DIFF_SIDE_NEW)), ==,
                    7900);
  g_assert_cmpint (tv_view_state_get_state_filter (new_state), ==, TV_STATE_FILTER_ALL);

  /* Linked: NEW takes BASE's filter. */
  tv_compare_page_set_link_filters (page, TRUE);
  settle (page);
  g_assert_cmpint (tv_view_state_get_state_filter (new_state), ==, TV_STATE_FILTER_CPU);
  diff = tv_compare_page_get_diff (page);
  g_assert_cmpuint (tv_call_tree_get_n_samples (tv_diff_get_tree (diff, TV_DIFF_SIDE_NEW)), ==,
                    7900 - 3000);

  /* A transform from one graph's context menu applies to both sides:
   * "helper" hidden in BASE is hidden in NEW, merged into "work". */
  {
    static const char * const helper_path[] = { "main", "work", "helper", NULL };
    static const char * const work_path[] = { "main", "work", NULL };
    TvCallTree *base_tree = tv_diff_get_tree (diff, TV_DIFF_SIDE_BASE);
    guint32 helper = tv_call_tree_get_function (base_tree, find_path (base_tree, helper_path));
    guint n_hidden;

    tv_view_state_hide_function (base_state, helper);
    settle (page);
    tv_view_state_get_hidden_functions (new_state, &n_hidden);
    g_assert_cmpuint (n_hidden, ==, 1);
    diff = tv_compare_page_get_diff (page);
    for (guint side = 0; side < 2; side++)
      {
        TvCallTree *tree = tv_diff_get_tree (diff, side);

        g_assert_cmpuint (find_path (tree, helper_path), ==, TV_NODE_NONE);
        g_assert_cmpuint (tv_call_tree_get_self (tree, find_path (tree, work_path)), ==,
                          side == TV_DIFF_SIDE_BASE ? 4000 : 4600);
      }
  }
  close_all ();
}

/* Each side's header counts the samples compared, not the file's: a
 * filter on one side says so there.  One thread, a sample a millisecond
 * at 1000 Hz: 7,400 samples are 7.40 s of thread time, from the first to
 * the last 7.399 s of wall time. */
static void
test_filtered_header (void)
{
  TvComparePage *page = open_pair (base_path, new_path);
  TvViewState *base_state = tv_compare_page_get_view_state (page, TV_DIFF_SIDE_BASE);

  g_assert_cmpstr (tv_compare_page_get_side_summary (page, TV_DIFF_SIDE_BASE), ==,
                   "7,400 samples, 7.40 s of thread time in 7.40 s of wall time");
  g_assert_cmpstr (tv_compare_page_get_side_summary (page, TV_DIFF_SIDE_NEW), ==,
                   "7,900 samples, 7.90 s of thread time in 7.90 s of wall time");
  tv_view_state_set_state_filter (base_state, TV_STATE_FILTER_CPU);
  settle (page);
  g_assert_cmpstr (tv_compare_page_get_side_summary (page, TV_DIFF_SIDE_BASE), ==,
                   "4,400 of 7,400 samples, 4.40 s of thread time");
  g_assert_cmpstr (tv_compare_page_get_side_summary (page, TV_DIFF_SIDE_NEW), ==,
                   "7,900 samples, 7.90 s of thread time in 7.90 s of wall time");
  for (guint dark = 0; dark < 2; dark++)
    {
      ui_test_set_dark (dark);
      ui_test_save_screenshot (GTK_WIDGET (get_window ()), dark ? "compare-filtered-dark.png"
                                                                : "compare-filtered-light.png",
                               400);
    }
  ui_test_set_dark (FALSE);
  tv_view_state_set_state_filter (base_state, TV_STATE_FILTER_ALL);
  settle (page);
  g_assert_cmpstr (tv_compare_page_get_side_summary (page, TV_DIFF_SIDE_BASE), ==,
                   "7,400 samples, 7.40 s of thread time in 7.40 s of wall time");
  close_all ();
}

/* The elided view: BASE's graph, the stacks NEW lacks in colour. */
static void
test_vanished (void)
{
  TvComparePage *page = open_pair (base_path, new_path);
  TvDiff *diff = tv_compare_page_get_diff (page);
  TvFlameGraph *diff_graph = tv_compare_page_get_diff_graph (page);
  static const char * const gone_path[] = { "main", "gone", NULL };
  const guint32 *unmatched;
  guint n_unmatched;
  GtkToggleButton *toggle = NULL;
  GtkWidget *child;

  unmatched = tv_diff_get_unmatched (diff, TV_DIFF_SIDE_BASE, &n_unmatched);
  g_assert_cmpuint (n_unmatched, ==, 1);
  g_assert_cmpuint (unmatched[0], ==, find_path (tv_diff_get_tree (diff, TV_DIFF_SIDE_BASE),
                                                 gone_path));

  tv_compare_page_show_view (page, "differential");
  /* The toggle is the last button of the bar above the graph. */
  for (child = gtk_widget_get_first_child (gtk_widget_get_prev_sibling (GTK_WIDGET (diff_graph)));
       child != NULL; child = gtk_widget_get_next_sibling (child))
    if (GTK_IS_TOGGLE_BUTTON (child))
      toggle = GTK_TOGGLE_BUTTON (child);
  g_assert_nonnull (toggle);
  gtk_toggle_button_set_active (toggle, TRUE);
  settle (page);
  g_assert_true (tv_flame_graph_get_tree (diff_graph)
                 == tv_diff_get_tree (diff, TV_DIFF_SIDE_BASE));
  ui_test_save_screenshot (GTK_WIDGET (get_window ()), "compare-vanished.png", 400);
  gtk_toggle_button_set_active (toggle, FALSE);
  settle (page);
  g_assert_true (tv_flame_graph_get_tree (diff_graph)
                 == tv_diff_get_tree (diff, TV_DIFF_SIDE_NEW));
  close_all ();
}

/* A CPU profile against a wall-clock one: the banner says so, and the
 * "Profiling mode" row differs; a file against itself: no banner. */
static void
test_warnings (void)
{
  const char *dir = g_getenv ("TACH_TEST_DATA");
  g_autofree char *cpu = g_build_filename (dir, "valid", "mode_cpu.tach", NULL);
  g_autofree char *wall = g_build_filename (dir, "valid", "mode_wall.tach", NULL);
  TvComparePage *page;

  page = open_pair (wall, cpu);
  g_assert_nonnull (tv_compare_page_get_banner_text (page));
  g_assert_nonnull (strstr (tv_compare_page_get_banner_text (page),
                            "BASE was recorded in wall-clock mode and NEW in CPU mode"));
  g_assert_cmpuint (tv_compare_page_get_n_differing_properties (page), >=, 1);
  ui_test_save_screenshot (GTK_WIDGET (get_window ()), "compare-warning.png", 400);
  ui_test_set_dark (TRUE);
  ui_test_save_screenshot (GTK_WIDGET (get_window ()), "compare-warning-dark.png", 400);
  ui_test_set_dark (FALSE);
  close_all ();

  page = open_pair (wall, wall);
  g_assert_null (tv_compare_page_get_banner_text (page));
  g_assert_cmpuint (tv_compare_page_get_n_differing_properties (page), ==, 0);
  close_all ();
}

/* The warnings that only concern a comparison by time (no statistics
 * block, very different durations) go while comparing by share, and come
 * back by time. */
static void
test_banner_by_share (void)
{
  g_autofree char *longer = g_build_filename (tmp_dir, "longer.tach", NULL);
  TvComparePage *page;
  g_autofree char *text = NULL;

  /* NEW: twice the samples, and no statistics block. */
  write_pair_side (longer, TRUE, 2, FALSE);
  page = open_pair (base_path, longer);
  text = g_strdup (tv_compare_page_get_banner_text (page));
  g_assert_nonnull (text);
  g_test_message ("by time: %s", text);
  g_assert_nonnull (strstr (text, "NEW has no statistics block"));
  g_assert_nonnull (strstr (text, "compared by time, every function looks slower in NEW"));
  ui_test_save_screenshot (GTK_WIDGET (get_window ()), "compare-banner-time.png", 400);

  tv_compare_page_set_normalization (page, TV_DIFF_BY_SHARE);
  settle (page);
  g_assert_null (tv_compare_page_get_banner_text (page));
  for (guint dark = 0; dark < 2; dark++)
    {
      ui_test_set_dark (dark);
      ui_test_save_screenshot (GTK_WIDGET (get_window ()), dark ? "compare-banner-share-dark.png"
                                                                : "compare-banner-share-light.png",
                               400);
    }
  ui_test_set_dark (FALSE);

  tv_compare_page_set_normalization (page, TV_DIFF_BY_TIME);
  settle (page);
  g_assert_cmpstr (tv_compare_page_get_banner_text (page), ==, text);
  close_all ();
  g_unlink (longer);
}

/* ------------------------------------------------------------------------ */
/* Small screens and the properties side by side                            */
/* ------------------------------------------------------------------------ */

#define SMALL_SCREEN_WIDTH 800

/* Whether WIDGET is drawn, and wholly inside WINDOW's width. */
static gboolean
inside_window (GtkWidget *widget,
               GtkWidget *window)
{
  graphene_rect_t bounds;

  if (!gtk_widget_get_mapped (widget) || !gtk_widget_compute_bounds (widget, window, &bounds))
    return FALSE;
  g_test_message ("%s at x %.0f, %.0f wide, in a window %d wide", G_OBJECT_TYPE_NAME (widget),
                  bounds.origin.x, bounds.size.width, gtk_widget_get_width (window));
  return bounds.origin.x >= 0
         && bounds.origin.x + bounds.size.width <= gtk_widget_get_width (window);
}

/* The comparison fits a small screen: the window is no wider than 800 px
 * at least, and at 800 px the header bar's buttons, the search entry and
 * both graphs are in it, each graph with a fair share of the width. */
static void
test_small_screen (void)
{
  TvComparePage *page = open_pair (base_path, new_path);
  GtkWidget *window = GTK_WIDGET (get_window ());
  g_autoptr(GPtrArray) header_bars = g_ptr_array_new ();
  g_autoptr(GPtrArray) buttons = g_ptr_array_new ();
  g_autoptr(GPtrArray) entries = g_ptr_array_new ();
  int minimum, natural, width, height;
  guint n_shown = 0;

  gtk_widget_measure (window, GTK_ORIENTATION_HORIZONTAL, -1, &minimum, &natural, NULL, NULL);
  g_test_message ("window: minimum width %d, natural %d", minimum, natural);
  g_assert_cmpint (minimum, <=, SMALL_SCREEN_WIDTH);

  gtk_window_get_default_size (GTK_WINDOW (window), &width, &height);
  gtk_window_set_default_size (GTK_WINDOW (window), SMALL_SCREEN_WIDTH, 600);
  WAIT_UNTIL (gtk_widget_get_width (window) <= SMALL_SCREEN_WIDTH, 5000);
  settle (page);

  ui_test_collect_widgets (window, ADW_TYPE_HEADER_BAR, header_bars);
  g_assert_cmpuint (header_bars->len, >=, 1);
  ui_test_collect_widgets (g_ptr_array_index (header_bars, 0), GTK_TYPE_BUTTON, buttons);
  g_assert_cmpuint (buttons->len, >=, 3);
  for (guint i = 0; i < buttons->len; i++)
    if (gtk_widget_get_visible (g_ptr_array_index (buttons, i)))
      g_assert_true (inside_window (g_ptr_array_index (buttons, i), window));
  /* The page's search entry (the others are in hidden views and menus). */
  ui_test_collect_widgets (GTK_WIDGET (page), GTK_TYPE_SEARCH_ENTRY, entries);
  for (guint i = 0; i < entries->len; i++)
    if (gtk_widget_get_mapped (g_ptr_array_index (entries, i)))
      n_shown += inside_window (g_ptr_array_index (entries, i), window);
  g_assert_cmpuint (n_shown, ==, 1);
  for (guint side = 0; side < 2; side++)
    {
      GtkWidget *graph = GTK_WIDGET (tv_compare_page_get_graph (page, side));

      g_assert_true (inside_window (graph, window));
      g_assert_cmpint (gtk_widget_get_width (graph), >=, SMALL_SCREEN_WIDTH / 3);
    }
  for (guint dark = 0; dark < 2; dark++)
    {
      ui_test_set_dark (dark);
      ui_test_save_screenshot (window, dark ? "compare-small-dark.png" : "compare-small-light.png",
                               400);
      tv_compare_page_show_view (page, "properties");
      ui_test_save_screenshot (window, dark ? "compare-small-properties-dark.png"
                                            : "compare-small-properties-light.png", 400);
      tv_compare_page_show_view (page, "side-by-side");
    }
  ui_test_set_dark (FALSE);
  gtk_window_set_default_size (GTK_WINDOW (window), width, height);
  close_all ();
}

/* The row titled TITLE in PANE. */
static GtkWidget *
find_row (GtkWidget  *pane,
          const char *title)
{
  g_autoptr(GPtrArray) rows = g_ptr_array_new ();

  ui_test_collect_widgets (pane, ADW_TYPE_ACTION_ROW, rows);
  for (guint i = 0; i < rows->len; i++)
    if (g_strcmp0 (adw_preferences_row_get_title (g_ptr_array_index (rows, i)), title) == 0)
      return g_ptr_array_index (rows, i);
  g_error ("no row \"%s\"", title);
}

/* The scrolled window that scrolls WIDGET up and down. */
static GtkScrolledWindow *
find_scroller (GtkWidget *widget)
{
  for (GtkWidget *w = gtk_widget_get_parent (widget); w != NULL; w = gtk_widget_get_parent (w))
    if (GTK_IS_SCROLLED_WINDOW (w))
      {
        GtkPolicyType vertical;

        gtk_scrolled_window_get_policy (GTK_SCROLLED_WINDOW (w), NULL, &vertical);
        if (vertical != GTK_POLICY_NEVER)
          return GTK_SCROLLED_WINDOW (w);
      }
  g_error ("nothing scrolls %s", G_OBJECT_TYPE_NAME (widget));
}

static double
row_top (GtkWidget     *row,
         TvComparePage *page)
{
  graphene_point_t point;

  g_assert_true (gtk_widget_compute_point (row, GTK_WIDGET (page), &GRAPHENE_POINT_INIT (0, 0),
                                           &point));
  return point.y;
}

/* The two panes of properties scroll as one, and their rows line up,
 * even below a group that has more rows on one side (NEW's two
 * warnings, BASE's none) and where a longer path wraps on one side. */
static void
test_properties_side_by_side (void)
{
  const char *dir = g_getenv ("TACH_TEST_DATA");
  g_autofree char *warned = g_build_filename (dir, "valid", "stats_unknown_size.tach", NULL);
  static const char * const titles[] = { "File", "Size", "Format version", "Start time",
                                         "Duration", "Error rate", "Samples decoded",
                                         "Time span observed" };
  TvComparePage *page = open_pair (base_path, warned);
  g_autoptr(GPtrArray) panes = g_ptr_array_new ();
  GtkAdjustment *adjustment;
  double before[2], offset;
  GtkWidget *rows[2];

  tv_compare_page_show_view (page, "properties");
  ui_test_collect_widgets (GTK_WIDGET (page), TV_TYPE_PROPERTIES, panes);
  g_assert_cmpuint (panes->len, ==, 2);
  WAIT_UNTIL (gtk_widget_get_width (g_ptr_array_index (panes, 1)) > 0, 5000);
  ui_test_spin (50);

  for (guint i = 0; i < G_N_ELEMENTS (titles); i++)
    {
      for (guint side = 0; side < 2; side++)
        rows[side] = find_row (g_ptr_array_index (panes, side), titles[i]);
      g_test_message ("%s: at %.0f and %.0f", titles[i], row_top (rows[0], page),
                      row_top (rows[1], page));
      g_assert_cmpfloat (row_top (rows[0], page), ==, row_top (rows[1], page));
      g_assert_cmpint (gtk_widget_get_height (rows[0]), ==, gtk_widget_get_height (rows[1]));
    }

  /* Scrolling BASE's pane down scrolls NEW's by as much. */
  for (guint side = 0; side < 2; side++)
    before[side] = row_top (rows[side], page);
  adjustment = gtk_scrolled_window_get_vadjustment (find_scroller (rows[0]));
  offset = gtk_adjustment_get_upper (adjustment) - gtk_adjustment_get_page_size (adjustment);
  g_assert_cmpfloat (offset, >, 100);
  gtk_adjustment_set_value (adjustment, offset);
  /* BASE's row moves up on the next frame; NEW's must have too. */
  WAIT_UNTIL (fabs (row_top (rows[0], page) - (before[0] - offset)) < 0.5, 5000);
  g_assert_cmpfloat (gtk_adjustment_get_value (
                       gtk_scrolled_window_get_vadjustment (find_scroller (rows[1]))), ==,
                     offset);
  for (guint side = 0; side < 2; side++)
    g_assert_cmpfloat_with_epsilon (row_top (rows[side], page), before[side] - offset, 0.5);
  ui_test_save_screenshot (GTK_WIDGET (get_window ()), "compare-properties-scrolled.png", 200);
  close_all ();
}

/* Whether the file chooser DIALOG shows the folder PATH. */
static gboolean
chooser_shows_folder (GtkWidget  *dialog,
                      const char *path)
{
  g_autoptr(GFile) folder = g_file_new_for_path (path);
  g_autoptr(GFile) shown = gtk_file_chooser_get_current_folder (GTK_FILE_CHOOSER (dialog));

  return shown != NULL && g_file_equal (shown, folder);
}

/* "Compare With…" from a loaded profile's tab: its profile is reused. */
static void
test_compare_with (void)
{
  g_autoptr(GFile) base = g_file_new_for_path (base_path);
  g_autoptr(GFile) other = g_file_new_for_path (new_path);
  TvWindow *window;
  TvProfilePage *profile_page;
  GtkFileChooserNative *chooser;
  AdwTabView *tabs;
  GtkWidget *child;
  GListModel *toplevels;
  guint n_before;
  GtkWidget *dialog;

  /* The file chooser leaks in libcloudproviders: see
   * ui_test_trap_without_leak_checks(). */
  if (ui_test_trap_without_leak_checks (120))
    return;

  g_application_activate (G_APPLICATION (application));
  window = get_window ();
  tabs = tv_window_get_tab_view (window);
  g_assert_false (gtk_widget_activate_action (GTK_WIDGET (window), "win.compare-with", NULL)
                  && tv_window_get_compare_chooser (window) != NULL);

  profile_page = tv_window_open_file (window, base);
  WAIT_UNTIL (tv_profile_page_get_state (profile_page) == TV_PROFILE_PAGE_LOADED, 60000);
  toplevels = gtk_window_get_toplevels ();
  n_before = g_list_model_get_n_items (toplevels);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.compare-with", NULL));
  chooser = tv_window_get_compare_chooser (window);
  g_assert_nonnull (chooser);
  WAIT_UNTIL (g_list_model_get_n_items (toplevels) > n_before, 5000);
  dialog = ui_test_find_file_chooser ();
  g_assert_nonnull (dialog);
  g_assert_true (gtk_window_get_transient_for (GTK_WINDOW (dialog)) == GTK_WINDOW (window));
  /* It opens in the folder of the profile, not in "Recent". */
  WAIT_UNTIL (chooser_shows_folder (dialog, tmp_dir), 10000);
  g_assert_true (gtk_file_chooser_set_file (GTK_FILE_CHOOSER (dialog), other, NULL));
  /* The folder loads asynchronously; the file is selected once it has. */
  WAIT_UNTIL (ui_test_chooser_has_file (dialog, other), 10000);
  gtk_dialog_response (GTK_DIALOG (dialog), GTK_RESPONSE_ACCEPT);
  WAIT_UNTIL (adw_tab_view_get_n_pages (tabs) == 2, 5000);

  g_assert_cmpint (adw_tab_view_get_n_pages (tabs), ==, 2);
  child = adw_tab_page_get_child (adw_tab_view_get_selected_page (tabs));
  g_assert_true (TV_IS_COMPARE_PAGE (child));
  g_assert_true (tv_compare_page_get_profile (TV_COMPARE_PAGE (child), TV_DIFF_SIDE_BASE)
                 == tv_profile_page_get_profile (profile_page));
  settle (TV_COMPARE_PAGE (child));
  g_assert_cmpstr (adw_tab_page_get_title (adw_tab_view_get_selected_page (tabs)), ==,
                   "base.tach → new.tach");
  close_all ();
}

/* win.compare-uris, what the toast offered on opening two files runs. */
static void
test_compare_uris (void)
{
  g_autoptr(GFile) base = g_file_new_for_path (base_path);
  g_autoptr(GFile) other = g_file_new_for_path (new_path);
  g_autofree char *base_uri = g_file_get_uri (base);
  g_autofree char *new_uri = g_file_get_uri (other);
  g_autofree char *missing = g_build_filename (tmp_dir, "missing.tach", NULL);
  g_autoptr(GFile) missing_file = g_file_new_for_path (missing);
  g_autofree char *missing_uri = g_file_get_uri (missing_file);
  AdwTabView *tabs;
  TvComparePage *page;

  g_application_activate (G_APPLICATION (application));
  tabs = tv_window_get_tab_view (get_window ());
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (get_window ()), "win.compare-uris",
                                             "(ss)", base_uri, new_uri));
  page = TV_COMPARE_PAGE (adw_tab_page_get_child (adw_tab_view_get_selected_page (tabs)));
  settle (page);
  g_assert_nonnull (tv_compare_page_get_diff (page));
  close_all ();

  /* A file that cannot be read: the page says which side and why. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (get_window ()), "win.compare-uris",
                                             "(ss)", base_uri, missing_uri));
  page = TV_COMPARE_PAGE (adw_tab_page_get_child (adw_tab_view_get_selected_page (tabs)));
  WAIT_UNTIL (tv_compare_page_get_state (page) == TV_COMPARE_PAGE_FAILED, 20000);
  g_assert_nonnull (tv_compare_page_get_error_message (page));
  g_assert_nonnull (strstr (tv_compare_page_get_error_message (page), "missing.tach"));
  ui_test_save_screenshot (GTK_WIDGET (get_window ()), "compare-error.png", 200);
  close_all ();
}

/* Exports PAGE to DEST, which must succeed: the file it wrote. */
static char *
export_contents (TvComparePage *page,
                 GFile         *dest)
{
  g_autoptr(GError) error = NULL;
  GAsyncResult *result = NULL;
  char *contents = NULL;

  tv_compare_page_export_async (page, dest, NULL, ui_test_keep_result, &result);
  WAIT_UNTIL (result != NULL, 60000);
  g_assert_true (tv_compare_page_export_finish (page, result, &error));
  g_assert_no_error (error);
  g_clear_object (&result);
  g_assert_true (g_file_load_contents (dest, NULL, &contents, NULL, NULL, &error));
  g_assert_no_error (error);
  return contents;
}

/* Export (Ctrl+E on a comparison): the differential page of what is shown,
 * with its normalisation and search. */
static void
test_export (void)
{
  TvComparePage *page = open_pair (base_path, new_path);
  g_autofree char *out = g_build_filename (tmp_dir, "diff.html", NULL);
  g_autoptr(GFile) dest = g_file_new_for_path (out);

  for (guint by = 0; by < 2; by++)
    {
      g_autofree char *contents = NULL;
      TvCallTree *base_tree = tv_diff_get_tree (tv_compare_page_get_diff (page),
                                                TV_DIFF_SIDE_BASE);
      TvDiffOptions options;

      tv_compare_page_set_normalization (page, by ? TV_DIFF_BY_SHARE : TV_DIFF_BY_TIME);
      tv_compare_page_set_search (page, "^work$");
      settle (page);
      /* Another normalisation makes the diff again, not the trees. */
      tv_diff_get_options (tv_compare_page_get_diff (page), &options);
      g_assert_cmpint (options.normalization, ==, by ? TV_DIFF_BY_SHARE : TV_DIFF_BY_TIME);
      g_assert_true (tv_diff_get_tree (tv_compare_page_get_diff (page), TV_DIFF_SIDE_BASE)
                     == base_tree);
      contents = export_contents (page, dest);
      g_assert_nonnull (strstr (contents, "<script type=\"application/json\" id=\"tachyon-data\">"));
      g_assert_nonnull (strstr (contents, "\"diff\":{\"base\":{"));
      g_assert_nonnull (strstr (contents, by ? "\"normalization\":\"share\""
                                             : "\"normalization\":\"time\""));
      g_assert_nonnull (strstr (contents, "\"search\":\"^work$\""));
      g_assert_nonnull (strstr (contents, "base.tach"));
      g_assert_nonnull (strstr (contents, "new.tach"));
      /* No filter on either side: one filter says it. */
      g_assert_null (strstr (contents, "\"filter\":null"));
    }

  /* The page says what both sides were filtered by, when one filter says
   * it: the state filter of both... */
  {
    g_autofree char *contents = NULL;

    tv_compare_page_set_link_filters (page, TRUE);
    tv_view_state_set_state_filter (tv_compare_page_get_view_state (page, TV_DIFF_SIDE_BASE),
                                    TV_STATE_FILTER_CPU);
    settle (page);
    contents = export_contents (page, dest);
    g_assert_nonnull (strstr (contents, "\"state\":\"cpu\""));
    g_assert_null (strstr (contents, "\"filter\":null"));
  }
  /* ... and nothing when the sides differ (a thread on one side only). */
  {
    g_autofree char *contents = NULL;
    guint32 thread = 0;

    tv_compare_page_set_link_filters (page, FALSE);
    tv_view_state_set_threads (tv_compare_page_get_view_state (page, TV_DIFF_SIDE_NEW),
                               &thread, 1);
    settle (page);
    contents = export_contents (page, dest);
    g_assert_nonnull (strstr (contents, "\"filter\":null"));
  }
  g_unlink (out);
  close_all ();
}

/* Ctrl+E on a comparison suggests "BASE-vs-NEW.html" next to NEW, so
 * that two comparisons exported to one folder do not collide. */
static void
test_export_dialog (void)
{
  g_autofree char *name = NULL;
  TvComparePage *page;
  GListModel *toplevels;
  guint n_before;
  GtkWidget *dialog;

  /* The file chooser leaks in libcloudproviders: see
   * ui_test_trap_without_leak_checks(). */
  if (ui_test_trap_without_leak_checks (120))
    return;

  page = open_pair (base_path, new_path);
  toplevels = gtk_window_get_toplevels ();
  n_before = g_list_model_get_n_items (toplevels);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "page.export", NULL));
  WAIT_UNTIL (g_list_model_get_n_items (toplevels) > n_before, 5000);
  dialog = ui_test_find_file_chooser ();
  g_assert_nonnull (dialog);
  name = gtk_file_chooser_get_current_name (GTK_FILE_CHOOSER (dialog));
  g_assert_cmpstr (name, ==, "base-vs-new.html");
  WAIT_UNTIL (chooser_shows_folder (dialog, tmp_dir), 10000);
  gtk_dialog_response (GTK_DIALOG (dialog), GTK_RESPONSE_CANCEL);
  WAIT_UNTIL (g_list_model_get_n_items (toplevels) == n_before, 5000);
  close_all ();
}

/* ------------------------------------------------------------------------ */
/* Swapping BASE and NEW                                                    */
/* ------------------------------------------------------------------------ */

/* The toolbar's "Swap Base and New" button of PAGE. */
static GtkWidget *
find_swap_button (TvComparePage *page)
{
  g_autoptr(GPtrArray) buttons = g_ptr_array_new ();

  ui_test_collect_widgets (GTK_WIDGET (page), GTK_TYPE_BUTTON, buttons);
  for (guint i = 0; i < buttons->len; i++)
    if (g_strcmp0 (gtk_actionable_get_action_name (g_ptr_array_index (buttons, i)),
                   "page.swap") == 0)
      return g_ptr_array_index (buttons, i);
  g_error ("no swap button");
}

/* A copy of DIFF's function rows, by name, to compare with a later diff. */
static GHashTable *
copy_functions (TvDiff *diff)
{
  GHashTable *rows = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  guint n;
  const TvDiffFunction *all = tv_diff_get_functions (diff, &n);

  for (guint i = 0; i < n; i++)
    g_hash_table_insert (rows, g_strdup (tv_diff_get_function_name (diff, &all[i])),
                         g_memdup2 (&all[i], sizeof all[i]));
  return rows;
}

/* Each measure of DIFF against BEFORE's: the same, or, REVERSED, seen
 * from the other side (before and after trade places, the change turns
 * round with the same magnitude and p-value). */
static void
assert_measure (const TvDiffMeasure *now,
                const TvDiffMeasure *before,
                gboolean             reversed)
{
  static const TvDiffChange turned[] = { TV_DIFF_NEUTRAL, TV_DIFF_FASTER, TV_DIFF_SLOWER };

  g_assert_cmpuint (now->base_samples, ==, reversed ? before->new_samples : before->base_samples);
  g_assert_cmpuint (now->new_samples, ==, reversed ? before->base_samples : before->new_samples);
  g_assert_cmpfloat_with_epsilon (now->delta, reversed ? -before->delta : before->delta, 1e-12);
  g_assert_cmpfloat_with_epsilon (now->p_value, before->p_value, 1e-9);
  g_assert_cmpint (now->change, ==, reversed ? turned[before->change] : before->change);
}

static void
assert_functions (TvDiff     *diff,
                  GHashTable *before,
                  gboolean    reversed)
{
  guint n;
  const TvDiffFunction *rows = tv_diff_get_functions (diff, &n);

  g_assert_cmpuint (n, ==, g_hash_table_size (before));
  for (guint i = 0; i < n; i++)
    {
      const TvDiffFunction *old = g_hash_table_lookup (before,
                                                       tv_diff_get_function_name (diff, &rows[i]));

      g_assert_nonnull (old);
      assert_measure (&rows[i].total, &old->total, reversed);
      assert_measure (&rows[i].self, &old->self, reversed);
    }
}

/* Whether GRAPH is drawn to the left of OTHER. */
static gboolean
left_of (TvFlameGraph *graph,
         TvFlameGraph *other)
{
  graphene_point_t a, b;

  g_assert_true (gtk_widget_compute_point (GTK_WIDGET (graph), GTK_WIDGET (get_window ()),
                                           &GRAPHENE_POINT_INIT (0, 0), &a));
  g_assert_true (gtk_widget_compute_point (GTK_WIDGET (other), GTK_WIDGET (get_window ()),
                                           &GRAPHENE_POINT_INIT (0, 0), &b));
  return a.x < b.x;
}

/* PAGE shows BASE and NEW_PROFILE on their sides: each side's profile,
 * its tree in the diff, its graph (BASE's on the left) with the side's
 * view state, and its pane of properties (BASE's first). */
static void
assert_sides (TvComparePage *page,
              TvProfile     *base,
              TvProfile     *new_profile)
{
  TvDiff *diff = tv_compare_page_get_diff (page);
  TvProfile *profiles[] = { base, new_profile };
  g_autoptr(GPtrArray) panes = g_ptr_array_new ();

  ui_test_collect_widgets (GTK_WIDGET (page), TV_TYPE_PROPERTIES, panes);
  g_assert_cmpuint (panes->len, ==, 2);
  for (guint side = 0; side < 2; side++)
    {
      TvCallTree *tree = tv_diff_get_tree (diff, side);

      g_assert_true (tv_compare_page_get_profile (page, side) == profiles[side]);
      g_assert_true (tv_call_tree_get_data (tree) == tv_profile_get_data (profiles[side]));
      g_assert_true (tv_flame_graph_get_tree (tv_compare_page_get_graph (page, side)) == tree);
      g_assert_true (tv_flame_graph_get_view_state (tv_compare_page_get_graph (page, side))
                     == tv_compare_page_get_view_state (page, side));
      g_assert_true (tv_properties_get_profile (g_ptr_array_index (panes, side))
                     == profiles[side]);
    }
  /* Where they are once the window has laid them out again: a swap moves
   * them, and a loaded machine (a sanitizer build beside another) can take
   * longer than settle()'s spin before that pass. */
  WAIT_UNTIL (left_of (tv_compare_page_get_graph (page, TV_DIFF_SIDE_BASE),
                       tv_compare_page_get_graph (page, TV_DIFF_SIDE_NEW)), 10000);
}

/* The tab's and the window's title. */
static void
assert_title (TvComparePage *page,
              const char    *title)
{
  AdwTabView *tabs = tv_window_get_tab_view (get_window ());

  g_assert_cmpstr (tv_compare_page_get_title (page), ==, title);
  g_assert_cmpstr (adw_tab_page_get_title (adw_tab_view_get_page (tabs, GTK_WIDGET (page))), ==,
                   title);
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (get_window ())), ==, title);
}

/* Exports PAGE and checks that the page names BASE_NAME as BASE. */
static void
assert_export_names (TvComparePage *page,
                     const char    *base_name)
{
  g_autofree char *out = g_build_filename (tmp_dir, "swapped.html", NULL);
  g_autoptr(GFile) dest = g_file_new_for_path (out);
  g_autofree char *contents = export_contents (page, dest);
  g_autofree char *expected = g_strdup_printf ("\"diff\":{\"base\":{\"source\":{\"name\":\"%s\"",
                                               base_name);

  g_assert_nonnull (strstr (contents, expected));
  g_unlink (out);
}

/* "Swap Base and New" trades the sides in place: no load, each side's
 * view state goes with its profile, the diff is made again and turns
 * round (by share: a function that got slower got faster by as much), the
 * title, headers, graphs, properties and export follow; swapping back
 * gives the comparison before. */
static void
test_swap (void)
{
  TvComparePage *page = open_pair (base_path, new_path);
  g_autoptr(TvProfile) base = g_object_ref (tv_compare_page_get_profile (page,
                                                                          TV_DIFF_SIDE_BASE));
  g_autoptr(TvProfile) other = g_object_ref (tv_compare_page_get_profile (page,
                                                                           TV_DIFF_SIDE_NEW));
  TvViewState *base_state = tv_compare_page_get_view_state (page, TV_DIFF_SIDE_BASE);
  TvViewState *new_state = tv_compare_page_get_view_state (page, TV_DIFF_SIDE_NEW);
  TvProfileData *base_data = tv_profile_get_data (base);
  GtkWidget *button = find_swap_button (page);
  g_autoptr(GHashTable) before = NULL;
  const TvDiffFunction *work;
  double work_delta;
  TvDiff *diff;

  g_assert_cmpstr (gtk_widget_get_tooltip_text (button), ==, "Swap Base and New");
  g_assert_true (gtk_widget_get_sensitive (button));
  tv_compare_page_set_normalization (page, TV_DIFF_BY_SHARE);
  settle (page);
  diff = tv_compare_page_get_diff (page);
  before = copy_functions (diff);
  work = find_function (diff, "work");
  g_assert_cmpint (work->total.change, ==, TV_DIFF_SLOWER);
  work_delta = work->total.delta;
  g_assert_cmpfloat (work_delta, >, 0.0);
  assert_title (page, "base.tach → new.tach");

  /* The button, as a click does; the title follows at once. */
  g_signal_emit_by_name (button, "clicked");
  assert_title (page, "new.tach → base.tach");
  g_assert_true (tv_compare_page_get_profile (page, TV_DIFF_SIDE_BASE) == other);
  g_assert_true (tv_compare_page_is_busy (page));
  settle (page);
  diff = tv_compare_page_get_diff (page);
  assert_sides (page, other, base);
  /* Neither profile was loaded again. */
  g_assert_true (tv_profile_get_data (base) == base_data);
  g_assert_true (tv_compare_page_get_view_state (page, TV_DIFF_SIDE_BASE) == new_state);
  g_assert_true (tv_compare_page_get_view_state (page, TV_DIFF_SIDE_NEW) == base_state);
  work = find_function (diff, "work");
  g_assert_cmpint (work->total.change, ==, TV_DIFF_FASTER);
  g_assert_cmpfloat_with_epsilon (work->total.delta, -work_delta, 1e-12);
  assert_functions (diff, before, TRUE);
  /* "gone" vanished from the old BASE: now it appeared in NEW. */
  g_assert_cmpint (find_function (diff, "gone")->total.change, ==, TV_DIFF_SLOWER);
  g_assert_cmpstr (tv_compare_page_get_side_summary (page, TV_DIFF_SIDE_BASE), ==,
                   "7,900 samples, 7.90 s of thread time in 7.90 s of wall time");
  g_assert_cmpstr (tv_compare_page_get_side_summary (page, TV_DIFF_SIDE_NEW), ==,
                   "7,400 samples, 7.40 s of thread time in 7.40 s of wall time");
  assert_export_names (page, "new.tach");
  for (guint dark = 0; dark < 2; dark++)
    {
      ui_test_set_dark (dark);
      ui_test_save_screenshot (GTK_WIDGET (get_window ()), dark ? "compare-swapped-dark.png"
                                                                : "compare-swapped-light.png",
                               400);
    }
  ui_test_set_dark (FALSE);

  /* Swapped back: the comparison before. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "page.swap", NULL));
  settle (page);
  assert_title (page, "base.tach → new.tach");
  assert_sides (page, base, other);
  assert_functions (tv_compare_page_get_diff (page), before, FALSE);
  assert_export_names (page, "base.tach");

  /* Filters go with their profile, even one whose query is still running
   * at the swap: BASE's "on CPU" (without "other") becomes NEW's. */
  tv_view_state_set_state_filter (base_state, TV_STATE_FILTER_CPU);
  tv_compare_page_swap (page);
  settle (page);
  diff = tv_compare_page_get_diff (page);
  assert_sides (page, other, base);
  g_assert_true (tv_compare_page_get_view_state (page, TV_DIFF_SIDE_NEW) == base_state);
  g_assert_cmpint (tv_view_state_get_state_filter (base_state), ==, TV_STATE_FILTER_CPU);
  g_assert_cmpint (tv_view_state_get_state_filter (new_state), ==, TV_STATE_FILTER_ALL);
  g_assert_cmpuint (tv_call_tree_get_n_samples (tv_diff_get_tree (diff, TV_DIFF_SIDE_NEW)), ==,
                    7400 - 3000);
  g_assert_cmpuint (tv_call_tree_get_n_samples (tv_diff_get_tree (diff, TV_DIFF_SIDE_BASE)), ==,
                    7900);
  g_assert_cmpstr (tv_compare_page_get_side_summary (page, TV_DIFF_SIDE_NEW), ==,
                   "4,400 of 7,400 samples, 4.40 s of thread time");
  /* Twice before the first diff is back: as if nothing happened. */
  tv_compare_page_swap (page);
  tv_compare_page_swap (page);
  settle (page);
  assert_sides (page, other, base);
  g_assert_cmpuint (tv_call_tree_get_n_samples (tv_diff_get_tree (tv_compare_page_get_diff (page),
                                                                  TV_DIFF_SIDE_NEW)), ==,
                    7400 - 3000);
  tv_compare_page_swap (page);
  settle (page);
  assert_sides (page, base, other);
  g_assert_cmpuint (tv_call_tree_get_n_samples (tv_diff_get_tree (tv_compare_page_get_diff (page),
                                                                  TV_DIFF_SIDE_BASE)), ==,
                    7400 - 3000);
  g_assert_cmpstr (tv_compare_page_get_side_summary (page, TV_DIFF_SIDE_BASE), ==,
                   "4,400 of 7,400 samples, 4.40 s of thread time");
  close_all ();
}

/* The banner's caveats name the sides as they are after a swap. */
static void
test_swap_banner (void)
{
  const char *dir = g_getenv ("TACH_TEST_DATA");
  g_autofree char *cpu = g_build_filename (dir, "valid", "mode_cpu.tach", NULL);
  g_autofree char *wall = g_build_filename (dir, "valid", "mode_wall.tach", NULL);
  TvComparePage *page = open_pair (wall, cpu);

  g_assert_nonnull (strstr (tv_compare_page_get_banner_text (page),
                            "BASE was recorded in wall-clock mode and NEW in CPU mode"));
  tv_compare_page_swap (page);
  settle (page);
  g_assert_nonnull (strstr (tv_compare_page_get_banner_text (page),
                            "BASE was recorded in CPU mode and NEW in wall-clock mode"));
  assert_title (page, "mode_cpu.tach → mode_wall.tach");
  close_all ();
}

/* The toolbar with the swap button, on a small screen: it wraps. */
static void
test_swap_small_screen (void)
{
  TvComparePage *page = open_pair (base_path, new_path);
  GtkWidget *window = GTK_WIDGET (get_window ());
  GtkWidget *button = find_swap_button (page);
  int width, height;

  gtk_window_get_default_size (GTK_WINDOW (window), &width, &height);
  gtk_window_set_default_size (GTK_WINDOW (window), SMALL_SCREEN_WIDTH, 600);
  WAIT_UNTIL (gtk_widget_get_width (window) <= SMALL_SCREEN_WIDTH, 5000);
  settle (page);
  g_assert_true (inside_window (button, window));
  for (guint dark = 0; dark < 2; dark++)
    {
      ui_test_set_dark (dark);
      ui_test_save_screenshot (window, dark ? "compare-swap-small-dark.png"
                                            : "compare-swap-small-light.png", 400);
    }
  ui_test_set_dark (FALSE);
  gtk_window_set_default_size (GTK_WINDOW (window), width, height);
  close_all ();
}

/* Closing a tab stops its loads (they hold the page, so closing alone
 * would load two whole profiles no one sees), for a comparison and for a
 * profile alike. */
static void
test_close_while_loading (void)
{
  g_autofree char *big = g_build_filename (tmp_dir, "big.tach", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (big);
  g_autoptr(TvProfile) base = NULL;
  g_autoptr(TvProfile) other = NULL;
  g_autoptr(TvProfile) single = NULL;
  AdwTabView *tabs;
  TvComparePage *page;
  TvProfilePage *profile_page;

  ui_test_write_big_profile (big, 3000000, 48);
  g_application_activate (G_APPLICATION (application));
  tabs = tv_window_get_tab_view (get_window ());

  page = tv_window_open_comparison (get_window (), file, file);
  base = g_object_ref (tv_compare_page_get_profile (page, TV_DIFF_SIDE_BASE));
  other = g_object_ref (tv_compare_page_get_profile (page, TV_DIFF_SIDE_NEW));
  WAIT_UNTIL (tv_profile_get_state (base) == TV_PROFILE_DECODING, 20000);
  adw_tab_view_close_page (tabs, adw_tab_view_get_page (tabs, GTK_WIDGET (page)));
  WAIT_UNTIL (tv_profile_get_state (base) == TV_PROFILE_FAILED
              && tv_profile_get_state (other) == TV_PROFILE_FAILED, 20000);
  g_assert_null (tv_profile_get_data (base));

  profile_page = tv_window_open_file (get_window (), file);
  single = g_object_ref (tv_profile_page_get_profile (profile_page));
  WAIT_UNTIL (tv_profile_get_state (single) == TV_PROFILE_DECODING, 20000);
  adw_tab_view_close_page (tabs, adw_tab_view_get_page (tabs, GTK_WIDGET (profile_page)));
  WAIT_UNTIL (tv_profile_get_state (single) == TV_PROFILE_FAILED, 20000);
  g_assert_cmpint (adw_tab_view_get_n_pages (tabs), ==, 0);
  g_unlink (big);
}

/* The first label under ROOT that asks a question starting with PREFIX,
 * or NULL. */
static GtkLabel *
find_question (GtkWidget  *root,
               const char *prefix)
{
  g_autoptr(GPtrArray) labels = g_ptr_array_new ();

  ui_test_collect_widgets (root, GTK_TYPE_LABEL, labels);
  for (guint i = 0; i < labels->len; i++)
    {
      const char *text = gtk_label_get_text (g_ptr_array_index (labels, i));

      if (g_str_has_prefix (text, prefix) && g_str_has_suffix (text, "?"))
        return g_ptr_array_index (labels, i);
    }
  return NULL;
}

/* `tachyon-viewer --compare BASE NEW` (main.c hands the paths over). */
static void
test_command_line (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GFile) base = g_file_new_for_path (base_path);
  g_autoptr(GFile) other = g_file_new_for_path (new_path);
  AdwTabView *tabs;
  TvComparePage *page;

  g_application_activate (G_APPLICATION (application));
  tabs = tv_window_get_tab_view (get_window ());
  g_assert_true (tv_application_compare (application, base_path, new_path, &error));
  g_assert_no_error (error);
  g_assert_cmpint (adw_tab_view_get_n_pages (tabs), ==, 1);
  page = TV_COMPARE_PAGE (adw_tab_page_get_child (adw_tab_view_get_selected_page (tabs)));
  g_assert_true (g_file_equal (tv_profile_get_file (tv_compare_page_get_profile (page,
                                                                                TV_DIFF_SIDE_BASE)),
                               base));
  g_assert_true (g_file_equal (tv_profile_get_file (tv_compare_page_get_profile (page,
                                                                                TV_DIFF_SIDE_NEW)),
                               other));
  settle (page);
  close_all ();

  /* Two files opened together: two tabs, and the offer to compare them
   * (a toast, seen in the screenshot). */
  {
    GFile *files[] = { base, other };

    g_application_open (G_APPLICATION (application), files, 2, "");
    g_assert_cmpint (adw_tab_view_get_n_pages (tabs), ==, 2);
    g_assert_true (TV_IS_PROFILE_PAGE (adw_tab_page_get_child (adw_tab_view_get_nth_page (tabs,
                                                                                          1))));
    /* It names BASE first, as the tab it opens does: "base.tach → new.tach". */
    WAIT_UNTIL (find_question (GTK_WIDGET (get_window ()), "Compare ") != NULL, 5000);
    g_assert_cmpstr (gtk_label_get_text (find_question (GTK_WIDGET (get_window ()), "Compare ")),
                     ==, "Compare base.tach with new.tach?");
    ui_test_save_screenshot (GTK_WIDGET (get_window ()), "compare-offer.png", 400);
    close_all ();
  }
}

/* A side of a pair whose main() calls a function of a 100 KB name (the
 * same in both, N times) and plain() 100 times. */
static void
write_long_side (const char *path,
                 const char *name,
                 guint       n)
{
  TachWriterOptions options = { 0 };
  TachWriter *writer = NULL;
  TachError error;
  TachFrameInfo infos[] = {
    { "/app/main.py", "main", 1, -1, -1, -1, TACH_OPCODE_NONE },
    { "/app/long.py", name, 2, -1, -1, -1, TACH_OPCODE_NONE },
    { "/app/plain.py", "plain", 3, -1, -1, -1, TACH_OPCODE_NONE },
  };
  guint32 frames[G_N_ELEMENTS (infos)];
  guint64 ts = 1000000;

  options.sample_interval_us = 1000;
  options.start_time_us = ts;
  options.mode_raw = 1;
  options.python_major = 3;
  options.python_minor = 15;
  if (tach_writer_new (path, &options, &writer, &error) != TACH_OK)
    g_error ("writer: %s", error.message);
  for (guint i = 0; i < G_N_ELEMENTS (infos); i++)
    if (tach_writer_intern_frame (writer, &infos[i], &frames[i], &error) != TACH_OK)
      g_error ("intern: %s", error.message);
  for (guint i = 0; i < n + 100; i++)
    {
      guint32 stack[2] = { frames[i < n ? 1 : 2], frames[0] };

      if (tach_writer_add_sample (writer, 42, 0, ts, TACH_STATUS_HAS_GIL | TACH_STATUS_ON_CPU,
                                  stack, 2, &error) != TACH_OK)
        g_error ("add_sample: %s", error.message);
      ts += 1000;
    }
  if (tach_writer_finish (writer, &error) != TACH_OK)
    g_error ("finish: %s", error.message);
}

/* A function of a 100 KB name: the table's cell and the graphs' tooltips
 * show it cut; activated, its row still finds its frames. */
static void
test_long_names (void)
{
  g_autofree char *base = g_build_filename (tmp_dir, "long-base.tach", NULL);
  g_autofree char *new_file = g_build_filename (tmp_dir, "long-new.tach", NULL);
  g_autoptr(GString) name = g_string_new ("long_head_");
  g_autofree char *shown = NULL;
  g_autofree char *start = NULL;
  g_autoptr(GPtrArray) labels = g_ptr_array_new ();
  TvComparePage *page;
  TvDiff *diff;
  TvFlameGraph *diff_graph;
  const char *path[] = { "main", NULL, NULL };
  guint n_cells = 0;
  guint32 node;
  double x, y;

  while (name->len < 100 * 1024)
    g_string_append (name, "middle_");
  g_string_append (name, "long_tail");
  shown = tv_text_dup_shown (name->str);
  start = g_strconcat (shown, "\n/app/long.py:2", NULL);
  write_long_side (base, name->str, 100);
  write_long_side (new_file, name->str, 300);
  page = open_pair (base, new_file);
  diff = tv_compare_page_get_diff (page);
  diff_graph = tv_compare_page_get_diff_graph (page);

  /* The table: the name's cell cut, as tall as a short name's. */
  tv_compare_page_show_view (page, "functions");
  settle (page);
  ui_test_collect_widgets (GTK_WIDGET (tv_compare_page_get_table (page)), GTK_TYPE_LABEL,
                           labels);
  for (guint i = 0; i < labels->len; i++)
    {
      const char *text = gtk_label_get_text (labels->pdata[i]);

      g_assert_cmpint (strlen (text), <, 1000);
      if (strcmp (text, shown) == 0)
        n_cells++;
    }
  g_assert_cmpuint (n_cells, ==, 1);
  ui_test_save_screenshot (GTK_WIDGET (get_window ()), "compare-long-names.png", 0);

  /* The graphs' tooltips: the name cut, then its file. */
  path[1] = name->str;
  tv_compare_page_show_view (page, "differential");
  settle (page);
  node = find_path (tv_flame_graph_get_tree (diff_graph), path);
  g_assert_cmpuint (node, !=, TV_NODE_NONE);
  g_assert_true (ui_test_node_center (diff_graph, node, &x, &y));
  {
    g_autofree char *tip = tv_flame_graph_describe_at (diff_graph, x, y);

    g_assert_true (g_str_has_prefix (tip, start));
    g_assert_cmpint (strlen (tip), <, 2000);
  }
  tv_compare_page_show_view (page, "side-by-side");
  settle (page);
  for (guint side = 0; side < 2; side++)
    {
      TvFlameGraph *graph = tv_compare_page_get_graph (page, side);
      g_autofree char *tip = NULL;

      node = find_path (tv_flame_graph_get_tree (graph), path);
      g_assert_true (ui_test_node_center (graph, node, &x, &y));
      tip = tv_flame_graph_describe_at (graph, x, y);
      g_assert_true (g_str_has_prefix (tip, start));
    }

  /* Activated, the row searches for the whole name: its frames match. */
  tv_compare_page_show_view (page, "functions");
  {
    guint n_rows;
    const TvDiffFunction *rows = tv_diff_get_functions (diff, &n_rows);

    g_signal_emit_by_name (tv_compare_page_get_table (page), "function-activated",
                           (guint) (find_function (diff, name->str) - rows));
  }
  WAIT_UNTIL (tv_flame_graph_get_matches (diff_graph) != NULL, 20000);
  settle (page);
  g_assert_cmpuint (tv_flame_matches_get_n_samples (tv_flame_graph_get_matches (diff_graph)), ==,
                    300);
  close_all ();
  g_unlink (base);
  g_unlink (new_file);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GError) error = NULL;
  int ret;

  if (!ui_test_init (&argc, &argv))
    return 77;

  tmp_dir = g_dir_make_tmp ("tv-compare-XXXXXX", &error);
  g_assert_no_error (error);
  base_path = g_build_filename (tmp_dir, "base.tach", NULL);
  new_path = g_build_filename (tmp_dir, "new.tach", NULL);
  write_pair_side (base_path, FALSE, 1, TRUE);
  write_pair_side (new_path, TRUE, 1, TRUE);

  g_test_add_func ("/ui/compare/open", test_open);
  g_test_add_func ("/ui/compare/zoom-sync", test_zoom_sync);
  g_test_add_func ("/ui/compare/hover", test_hover);
  g_test_add_func ("/ui/compare/search", test_search);
  g_test_add_func ("/ui/compare/find-function", test_find_function);
  g_test_add_func ("/ui/compare/filters", test_filters);
  g_test_add_func ("/ui/compare/filtered-header", test_filtered_header);
  g_test_add_func ("/ui/compare/vanished", test_vanished);
  g_test_add_func ("/ui/compare/warnings", test_warnings);
  g_test_add_func ("/ui/compare/banner-by-share", test_banner_by_share);
  g_test_add_func ("/ui/compare/small-screen", test_small_screen);
  g_test_add_func ("/ui/compare/properties-side-by-side", test_properties_side_by_side);
  g_test_add_func ("/ui/compare/compare-with", test_compare_with);
  g_test_add_func ("/ui/compare/compare-uris", test_compare_uris);
  g_test_add_func ("/ui/compare/export", test_export);
  g_test_add_func ("/ui/compare/export-dialog", test_export_dialog);
  g_test_add_func ("/ui/compare/swap", test_swap);
  g_test_add_func ("/ui/compare/swap-banner", test_swap_banner);
  g_test_add_func ("/ui/compare/swap-small-screen", test_swap_small_screen);
  g_test_add_func ("/ui/compare/close-while-loading", test_close_while_loading);
  g_test_add_func ("/ui/compare/command-line", test_command_line);
  g_test_add_func ("/ui/compare/long-names", test_long_names);

  ret = ui_test_run_in_application (&application, FALSE);
  g_unlink (base_path);
  g_unlink (new_path);
  g_rmdir (tmp_dir);
  g_free (base_path);
  g_free (new_path);
  g_free (tmp_dir);
  return ret;
}
