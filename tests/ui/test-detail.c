/* test-detail.c: the graph of a big profile, pruned and refined
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A profile of 40,000 samples, so that the page's trees leave out what is
 * under 1/20,000 of them (2 samples): a leaf with a thousand callers of
 * one sample each keeps none of them, only their remainder.  Driven
 * through the real TvFlameView under gtk_test_init:
 *
 *  - turned over from the top-down graph, the tree on screen left the
 *    callers out, and says so (remainder, its count, the cut), while every
 *    node it has, and its function table, are exact against the whole
 *    inverted tree of the model;
 *  - the graph draws them as one box that says how many frames it holds,
 *    and the call tree lists them as one row; its bottom-up list of the
 *    top-down graph leaves them out the same way;
 *  - a search says it saw only the frames shown;
 *  - zoomed into that leaf, the callers would be a pixel wide: the view
 *    asks for a finer tree of it, which has every caller, keeps the zoom
 *    and the way back, and needs nothing finer;
 *  - the same callers under mid(), a frame of 2.5 % of the samples, are
 *    left out of the top-down graph the same way, with its function
 *    table, callers and callees exact; zoomed into mid(), the view asks
 *    for a finer tree that has them all;
 *  - a small profile's inverted tree leaves nothing out.
 *
 * Screenshots, light and dark, go to TV_TEST_OUTPUT_DIR.
 */
#include <string.h>

#include <adwaita.h>
#include <glib/gstdio.h>

#include "format-test-util.h"
#include "tv-call-node.h"
#include "tv-call-tree-view.h"
#include "tv-flame-view.h"
#include "ui-test-util.h"

#define N_CALLERS   1000u
#define N_HOT       39000u

static GtkWindow *window;

/* Thread 1 runs hot() under loop() 39,000 times, and leaf() once under
 * each of a thousand callers, which <module> calls, or with MID mid(). */
static char *
write_profile (const char *dir,
               gboolean    mid)
{
  char *path = g_build_filename (dir, "detail.tach", NULL);
  TachWriter *writer = format_test_writer_new (path, TRUE);
  TachFrameInfo infos[5] = {
    { "/srv/app/main.py", "<module>", 1, -1, -1, -1, TACH_OPCODE_NONE },
    { "/srv/app/main.py", "loop", 10, -1, -1, -1, TACH_OPCODE_NONE },
    { "/srv/app/work.py", "hot", 20, -1, -1, -1, TACH_OPCODE_NONE },
    { "/srv/app/work.py", "leaf", 30, -1, -1, -1, TACH_OPCODE_NONE },
    { "/srv/app/main.py", "mid", 40, -1, -1, -1, TACH_OPCODE_NONE },
  };
  guint32 frames[5];
  g_autofree guint32 *callers = g_new (guint32, N_CALLERS);
  TachError error;
  guint64 ts = 1000000;

  format_test_intern_frames (writer, infos, G_N_ELEMENTS (infos), frames);
  for (guint i = 0; i < N_CALLERS; i++)
    {
      g_autofree char *name = g_strdup_printf ("caller_%04u", i);
      TachFrameInfo info = { "/srv/app/callers.py", name, (int32_t) i + 1, -1, -1, -1,
                             TACH_OPCODE_NONE };

      format_test_intern_frames (writer, &info, 1, &callers[i]);
    }
  for (guint i = 0; i < N_HOT; i++)
    {
      guint32 stack[3] = { frames[2], frames[1], frames[0] };

      if (tach_writer_add_sample (writer, 1, 0, ts += 1000,
                                  TACH_STATUS_HAS_GIL | TACH_STATUS_ON_CPU, stack, 3,
                                  &error) != TACH_OK)
        g_error ("%s", error.message);
    }
  for (guint i = 0; i < N_CALLERS; i++)
    {
      guint32 stack[4] = { frames[3], callers[i], mid ? frames[4] : frames[0], frames[0] };

      if (tach_writer_add_sample (writer, 1, 0, ts += 1000,
                                  TACH_STATUS_HAS_GIL | TACH_STATUS_ON_CPU, stack, mid ? 4 : 3,
                                  &error) != TACH_OK)
        g_error ("%s", error.message);
    }
  format_test_writer_finish (writer);
  return path;
}

/* The side panel's Call Tree tab. */
static void
show_call_tree (TvFlameView *view)
{
  GtkWidget *call_tree = GTK_WIDGET (tv_flame_view_get_call_tree_view (view));

  gtk_stack_set_visible_child_name (GTK_STACK (gtk_widget_get_parent (call_tree)), "call-tree");
}

static void
wait_idle (TvFlameView *view)
{
  TvFlameGraph *graph = tv_flame_view_get_graph (view);

  WAIT_UNTIL (!tv_flame_view_is_busy (view) && !tv_flame_graph_is_animating (graph)
              && !tv_flame_graph_is_laying_out (graph)
              && tv_flame_graph_get_layout (graph) != NULL, 60000);
  WAIT_UNTIL (!tv_call_tree_view_is_busy (tv_flame_view_get_call_tree_view (view)), 60000);
  ui_test_spin (50);
}

/* The child of NODE named NAME, or TV_NODE_NONE. */
static guint32
child_named (TvCallTree *tree,
             guint32     node,
             const char *name)
{
  guint n;
  const guint32 *children = tv_call_tree_get_children (tree, node, &n);
  TvProfileData *data = tv_call_tree_get_data (tree);

  for (guint i = 0; i < n; i++)
    if (strcmp (tv_profile_data_get_funcname (data, tv_call_tree_get_frame (tree, children[i])),
                name) == 0)
      return children[i];
  return TV_NODE_NONE;
}

/* Every node of PRUNED is the node of the same keys in WHOLE, with the
 * same samples; its children and its remainder make up WHOLE's
 * children. */
static void
check_exact (TvCallTree *pruned,
             TvCallTree *whole)
{
  g_autofree guint32 *in_whole = g_new (guint32, tv_call_tree_get_n_nodes (pruned));

  in_whole[TV_ROOT_NODE] = TV_ROOT_NODE;
  for (guint32 node = 0; node < tv_call_tree_get_n_nodes (pruned); node++)
    {
      guint32 w = in_whole[node];
      guint n, n_whole;
      const guint32 *children = tv_call_tree_get_children (pruned, node, &n);
      guint64 sum = 0;

      g_assert_cmpuint (tv_call_tree_get_total (pruned, node), ==,
                        tv_call_tree_get_total (whole, w));
      g_assert_cmpuint (tv_call_tree_get_self (pruned, node), ==,
                        tv_call_tree_get_self (whole, w));
      if (tv_call_tree_has_thread_counts (pruned))
        g_assert_cmpuint (tv_call_tree_get_n_threads_of (pruned, node), ==,
                          tv_call_tree_get_n_threads_of (whole, w));
      tv_call_tree_get_children (whole, w, &n_whole);
      g_assert_cmpuint (n + tv_call_tree_get_remainder_children (pruned, node), ==, n_whole);
      for (guint i = 0; i < n; i++)
        {
          in_whole[children[i]] = tv_call_tree_find_child (whole, w,
                                                           tv_call_tree_get_key (pruned,
                                                                                 children[i]));
          g_assert_cmpuint (in_whole[children[i]], !=, TV_NODE_NONE);
          sum += tv_call_tree_get_total (pruned, children[i]);
        }
      g_assert_cmpuint (sum + tv_call_tree_get_remainder (pruned, node)
                        + tv_call_tree_get_self (pruned, node), ==,
                        tv_call_tree_get_total (pruned, node));
    }
}

/* The same function table, row by row, of N_FUNCTIONS rows. */
static void
check_functions (TvCallTree *tree,
                 TvCallTree *whole,
                 guint       n_functions)
{
  guint n, n_whole;
  const TvFunctionRow *rows = tv_call_tree_get_functions (tree, &n);
  const TvFunctionRow *whole_rows = tv_call_tree_get_functions (whole, &n_whole);

  g_assert_cmpuint (n, ==, n_whole);
  g_assert_cmpuint (n, ==, n_functions);
  for (guint i = 0; i < n; i++)
    {
      g_assert_cmpuint (rows[i].function, ==, whole_rows[i].function);
      g_assert_cmpuint (rows[i].self, ==, whole_rows[i].self);
      g_assert_cmpuint (rows[i].total, ==, whole_rows[i].total);
    }
}

/* The row of the call tree for NODE's remainder, or NULL. */
static TvCallNode *
find_remainder_row (TvCallTreeView *view,
                    guint32         node)
{
  g_autoptr(GListModel) rows = tv_call_tree_view_list_rows (view);

  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    {
      g_autoptr(GtkTreeListRow) row = g_list_model_get_item (rows, i);
      g_autoptr(TvCallNode) item = gtk_tree_list_row_get_item (row);
      guint32 parent;

      if (tv_call_node_is_remainder (item, &parent) && parent == node)
        return g_steal_pointer (&item);
      if (!tv_call_node_is_remainder (item, NULL) && tv_call_node_get_node (item) == node)
        gtk_tree_list_row_set_expanded (row, TRUE);
    }
  return NULL;
}

/* Expands the call tree's row of NODE, when it is listed. */
static void
expand_row (TvCallTreeView *view,
            guint32         node)
{
  g_autoptr(GListModel) rows = tv_call_tree_view_list_rows (view);

  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    {
      g_autoptr(GtkTreeListRow) row = g_list_model_get_item (rows, i);
      g_autoptr(TvCallNode) item = gtk_tree_list_row_get_item (row);

      if (!tv_call_node_is_remainder (item, NULL) && tv_call_node_get_node (item) == node)
        gtk_tree_list_row_set_expanded (row, TRUE);
    }
}

/* GRAPH draws the thousand frames left out under NODE as one merged
 * box that says so, and needs no finer tree. */
static void
check_remainder_box (TvFlameGraph *graph,
                     guint32       node)
{
  TvFlameLayout *layout = tv_flame_graph_get_layout (graph);
  const TvFlameBox *box = NULL;
  const TvFlameBox *boxes;
  g_autofree char *text = NULL;
  guint n_boxes;
  double x, y, w, h;

  boxes = tv_flame_layout_get_boxes (layout, &n_boxes);
  for (guint i = 0; i < n_boxes; i++)
    if (boxes[i].node == node && (boxes[i].flags & TV_FLAME_BOX_REMAINDER))
      box = &boxes[i];
  g_assert_nonnull (box);
  g_assert_true (box->flags & TV_FLAME_BOX_MERGED);
  g_assert_cmpuint (box->samples, ==, N_CALLERS);
  g_assert_cmpuint (box->n_merged, ==, 0);
  tv_flame_layout_get_box_rect (layout, box, &x, &y, &w, &h);
  text = tv_flame_graph_describe_at (graph, x + w / 2, y + h / 2);
  g_test_message ("remainder box: %s", text);
  g_assert_true (g_str_has_prefix (text, "1000 frames too narrow to show\n"));
  g_assert_false (tv_flame_graph_needs_detail (graph, NULL));
}

/* Screenshots of the window, light and dark, as NAME-light.png and
 * NAME-dark.png. */
static void
save_screenshots (const char *name)
{
  g_autofree char *light = g_strdup_printf ("%s-light.png", name);
  g_autofree char *dark = g_strdup_printf ("%s-dark.png", name);

  ui_test_save_screenshot (GTK_WIDGET (window), light, 200);
  ui_test_set_dark (TRUE);
  ui_test_save_screenshot (GTK_WIDGET (window), dark, 200);
  ui_test_set_dark (FALSE);
}

/* Zooms VIEW's graph into NODE of FIRST, which left out its thousand
 * children (NODE is named NAME): the view asks for a finer tree, which
 * has them all and nothing left out below.  Returns NODE in it. */
static guint32
zoom_for_detail (TvFlameView *view,
                 TvCallTree  *first,
                 guint32      node,
                 const char  *name)
{
  TvFlameGraph *graph = tv_flame_view_get_graph (view);
  TvCallTree *tree;
  guint n;

  tv_flame_graph_zoom_to (graph, node);
  g_assert_true (tv_flame_view_is_busy (view));
  wait_idle (view);
  tree = tv_flame_graph_get_tree (graph);
  g_assert_true (tree != first);
  node = tv_flame_graph_get_zoom_root (graph);
  g_assert_cmpstr (tv_profile_data_get_funcname (tv_call_tree_get_data (tree),
                                                 tv_call_tree_get_frame (tree, node)), ==, name);
  g_assert_cmpuint (tv_call_tree_get_remainder (tree, node), ==, 0);
  g_assert_cmpuint (tv_call_tree_get_cut_below (tree, node), ==, 0);
  tv_call_tree_get_children (tree, node, &n);
  g_assert_cmpuint (n, ==, N_CALLERS);
  g_assert_false (tv_flame_graph_needs_detail (graph, NULL));
  return node;
}

static void
test_inverted (void)
{
  g_autofree char *dir = g_dir_make_tmp ("tv-detail-XXXXXX", NULL);
  g_autofree char *path = write_profile (dir, FALSE);
  g_autoptr(TvProfile) profile = ui_test_load_profile (path);
  g_autoptr(TvViewState) state = tv_view_state_new ();
  g_autoptr(TvCallTree) whole = NULL;
  g_autoptr(TvCallTree) first = NULL;
  TvFlameView *view;
  TvFlameGraph *graph;
  TvCallTreeView *call_tree;
  TvCallTree *tree;
  guint32 leaf, hot;

  /* Top-down first, then turned over as the Inverted button does: the
   * inverted tree takes the function table of the graph on screen. */
  view = TV_FLAME_VIEW (tv_flame_view_new (profile, state));
  gtk_window_set_child (window, GTK_WIDGET (view));
  call_tree = tv_flame_view_get_call_tree_view (view);
  tv_call_tree_view_set_bottom_up (call_tree, TRUE);
  show_call_tree (view);
  graph = tv_flame_view_get_graph (view);
  wait_idle (view);
  g_assert_false (tv_call_tree_get_inverted (tv_flame_graph_get_tree (graph)));

  /* The model's whole inverted tree, to hold the view's against. */
  {
    TvQuery query;

    tv_view_state_to_query (state, &query);
    query.inverted = TRUE;
    query.count_threads = TRUE;
    whole = tv_call_tree_new (tv_profile_get_data (profile), &query, NULL);
  }

  /* The call tree's bottom-up list of the top-down graph leaves out the
   * callers too, and takes the graph's function table. */
  tree = tv_call_tree_view_get_tree (call_tree);
  g_assert_true (tv_call_tree_get_inverted (tree));
  g_assert_cmpuint (tv_call_tree_get_cut_below (tree, TV_ROOT_NODE), ==, 2);
  leaf = child_named (tree, TV_ROOT_NODE, "leaf");
  g_assert_cmpuint (tv_call_tree_get_remainder_children (tree, leaf), ==, N_CALLERS);
  check_exact (tree, whole);
  check_functions (tree, whole, N_CALLERS + 4);

  tv_view_state_set_inverted (state, TRUE);
  wait_idle (view);

  /* The callers of leaf() were left out: 1 sample each, under 2. */
  tree = tv_flame_graph_get_tree (graph);
  first = tv_call_tree_ref (tree);
  g_assert_true (tv_call_tree_get_inverted (tree));
  g_assert_cmpuint (tv_call_tree_get_n_samples (tree), ==, N_HOT + N_CALLERS);
  leaf = child_named (tree, TV_ROOT_NODE, "leaf");
  hot = child_named (tree, TV_ROOT_NODE, "hot");
  g_assert_cmpuint (leaf, !=, TV_NODE_NONE);
  g_assert_cmpuint (hot, !=, TV_NODE_NONE);
  g_assert_cmpuint (tv_call_tree_get_total (tree, leaf), ==, N_CALLERS);
  g_assert_cmpuint (tv_call_tree_get_remainder (tree, leaf), ==, N_CALLERS);
  g_assert_cmpuint (tv_call_tree_get_remainder_children (tree, leaf), ==, N_CALLERS);
  g_assert_cmpuint (tv_call_tree_get_cut_below (tree, leaf), ==, 2);
  g_assert_cmpuint (tv_call_tree_get_cut_below (tree, TV_ROOT_NODE), ==, 2);
  g_assert_cmpuint (tv_call_tree_get_cut_below (tree, hot), ==, 0);
  g_assert_cmpuint (tv_call_tree_get_n_nodes (tree), <, tv_call_tree_get_n_nodes (whole));
  check_exact (tree, whole);
  check_functions (tree, whole, N_CALLERS + 4);

  /* The graph: one box for the thousand, under leaf(), saying so. */
  check_remainder_box (graph, leaf);

  /* The call tree: one row for them, after leaf(). */
  {
    g_autoptr(TvCallNode) row = NULL;

    WAIT_UNTIL (tv_call_tree_view_get_tree (call_tree) == tree, 20000);
    row = find_remainder_row (call_tree, leaf);
    if (row == NULL)
      {
        ui_test_spin (50);
        row = find_remainder_row (call_tree, leaf);
      }
    g_assert_nonnull (row);
    g_assert_cmpuint (tv_call_node_get_total (row), ==, N_CALLERS);
    g_assert_cmpuint (tv_call_node_get_self (row), ==, 0);
    g_assert_cmpuint (tv_call_node_get_node (row), ==, TV_NODE_NONE);
  }

  /* A search says it saw the frames shown only. */
  tv_flame_view_set_search (view, "caller_");
  wait_idle (view);
  WAIT_UNTIL (tv_flame_view_get_matches (view) != NULL, 20000);
  g_test_message ("match: %s", tv_flame_view_get_match_text (view));
  g_assert_nonnull (strstr (tv_flame_view_get_match_text (view), "at least"));
  tv_flame_view_set_search (view, "");
  wait_idle (view);

  save_screenshots ("detail-inverted");

  /* Zoomed into leaf(), a caller is a pixel wide. */
  zoom_for_detail (view, first, leaf, "leaf");
  tree = tv_flame_graph_get_tree (graph);
  check_exact (tree, whole);
  check_functions (tree, whole, N_CALLERS + 4);
  save_screenshots ("detail-zoomed");

  /* Back goes to the root, in the new tree, with no new tree asked for. */
  g_assert_true (tv_flame_graph_can_go_back (graph));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (view), "view.back", NULL));
  wait_idle (view);
  g_assert_true (tv_flame_graph_get_tree (graph) == tree);
  g_assert_cmpuint (tv_flame_graph_get_zoom_root (graph), ==, TV_ROOT_NODE);
  g_assert_true (tv_flame_graph_can_go_forward (graph));

  gtk_window_set_child (window, NULL);
  g_unlink (path);
  g_rmdir (dir);
}

/* Rows by function, for comparing. */
static int
compare_rows (const void *pa,
              const void *pb)
{
  const TvFunctionRow *a = pa, *b = pb;

  return a->function < b->function ? -1 : a->function > b->function;
}

/* FUNCTION's callers and callees are the same in TREE and WHOLE; it has
 * N_CALLERS callers. */
static void
check_neighbours (TvCallTree *tree,
                  TvCallTree *whole,
                  guint32     function,
                  guint       n_callers_expected)
{
  g_autofree TvFunctionRow *callers = NULL, *callees = NULL;
  g_autofree TvFunctionRow *whole_callers = NULL, *whole_callees = NULL;
  guint n_callers, n_callees, n_whole_callers, n_whole_callees;

  g_assert_true (tv_call_tree_get_neighbours (tree, function, NULL, &callers, &n_callers,
                                              &callees, &n_callees));
  g_assert_true (tv_call_tree_get_neighbours (whole, function, NULL, &whole_callers,
                                              &n_whole_callers, &whole_callees,
                                              &n_whole_callees));
  g_assert_cmpuint (n_callers, ==, n_callers_expected);
  g_assert_cmpuint (n_callers, ==, n_whole_callers);
  g_assert_cmpuint (n_callees, ==, n_whole_callees);
  qsort (callers, n_callers, sizeof *callers, compare_rows);
  qsort (whole_callers, n_callers, sizeof *callers, compare_rows);
  qsort (callees, n_callees, sizeof *callees, compare_rows);
  qsort (whole_callees, n_callees, sizeof *callees, compare_rows);
  for (guint i = 0; i < n_callers; i++)
    {
      g_assert_cmpuint (callers[i].function, ==, whole_callers[i].function);
      g_assert_cmpuint (callers[i].total, ==, whole_callers[i].total);
    }
  for (guint i = 0; i < n_callees; i++)
    {
      g_assert_cmpuint (callees[i].function, ==, whole_callees[i].function);
      g_assert_cmpuint (callees[i].total, ==, whole_callees[i].total);
    }
}

/* The top-down graph leaves out the thousand callers under mid(), and a
 * zoom into mid() asks for them. */
static void
test_top_down (void)
{
  g_autofree char *dir = g_dir_make_tmp ("tv-detail-XXXXXX", NULL);
  g_autofree char *path = write_profile (dir, TRUE);
  g_autoptr(TvProfile) profile = ui_test_load_profile (path);
  g_autoptr(TvViewState) state = tv_view_state_new ();
  g_autoptr(TvCallTree) whole = NULL;
  g_autoptr(TvCallTree) first = NULL;
  TvFlameView *view;
  TvFlameGraph *graph;
  TvCallTreeView *call_tree;
  TvCallTree *tree;
  guint n;
  guint32 module, mid, whole_leaf;

  view = TV_FLAME_VIEW (tv_flame_view_new (profile, state));
  gtk_window_set_child (window, GTK_WIDGET (view));
  call_tree = tv_flame_view_get_call_tree_view (view);
  show_call_tree (view);
  graph = tv_flame_view_get_graph (view);
  wait_idle (view);

  /* The model's whole top-down tree, to hold the view's against. */
  {
    TvQuery query;

    tv_view_state_to_query (state, &query);
    query.count_threads = TRUE;
    whole = tv_call_tree_new (tv_profile_get_data (profile), &query, NULL);
    g_assert_cmpuint (tv_call_tree_get_cut_below (whole, TV_ROOT_NODE), ==, 0);
  }

  tree = tv_flame_graph_get_tree (graph);
  first = tv_call_tree_ref (tree);
  g_assert_false (tv_call_tree_get_inverted (tree));
  g_assert_cmpuint (tv_call_tree_get_n_samples (tree), ==, N_HOT + N_CALLERS);
  module = child_named (tree, TV_ROOT_NODE, "<module>");
  g_assert_cmpuint (module, !=, TV_NODE_NONE);
  mid = child_named (tree, module, "mid");
  g_assert_cmpuint (mid, !=, TV_NODE_NONE);
  g_assert_cmpuint (tv_call_tree_get_total (tree, mid), ==, N_CALLERS);
  g_assert_cmpuint (tv_call_tree_get_remainder (tree, mid), ==, N_CALLERS);
  g_assert_cmpuint (tv_call_tree_get_remainder_children (tree, mid), ==, N_CALLERS);
  tv_call_tree_get_children (tree, mid, &n);
  g_assert_cmpuint (n, ==, 0);
  g_assert_cmpuint (tv_call_tree_get_cut_below (tree, mid), ==, 2);
  g_assert_cmpuint (tv_call_tree_get_cut_below (tree, TV_ROOT_NODE), ==, 2);
  g_assert_cmpuint (tv_call_tree_get_n_nodes (tree), <, tv_call_tree_get_n_nodes (whole));
  check_exact (tree, whole);
  /* The table, callers and callees: of every frame, the left out ones
   * too. */
  check_functions (tree, whole, N_CALLERS + 5);
  whole_leaf = child_named (whole, child_named (whole, TV_ROOT_NODE, "<module>"), "mid");
  whole_leaf = child_named (whole, child_named (whole, whole_leaf, "caller_0007"), "leaf");
  g_assert_cmpuint (whole_leaf, !=, TV_NODE_NONE);
  check_neighbours (tree, whole, tv_call_tree_get_function (whole, whole_leaf), N_CALLERS);
  check_neighbours (tree, whole, tv_call_tree_get_function (tree, mid), 1);

  /* The graph: one box for the thousand, under mid(), saying so. */
  check_remainder_box (graph, mid);

  /* The call tree's top-down list is the graph's tree: one row for
   * them, after mid(). */
  {
    g_autoptr(TvCallNode) row = NULL;

    WAIT_UNTIL (tv_call_tree_view_get_tree (call_tree) == tree, 20000);
    for (guint i = 0; i < 3 && row == NULL; i++)
      {
        expand_row (call_tree, module);
        ui_test_spin (50);
        row = find_remainder_row (call_tree, mid);
      }
    g_assert_nonnull (row);
    g_assert_cmpuint (tv_call_node_get_total (row), ==, N_CALLERS);
  }
  save_screenshots ("detail-top-down");

  /* Zoomed into mid(), a caller is two pixels wide: the finer tree takes
   * the function table of the coarser one. */
  zoom_for_detail (view, first, mid, "mid");
  tree = tv_flame_graph_get_tree (graph);
  check_exact (tree, whole);
  check_functions (tree, whole, N_CALLERS + 5);
  check_neighbours (tree, whole, tv_call_tree_get_function (whole, whole_leaf), N_CALLERS);
  save_screenshots ("detail-top-down-zoomed");

  /* Back goes to the root, in the new tree, with no new tree asked for. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (view), "view.back", NULL));
  wait_idle (view);
  g_assert_true (tv_flame_graph_get_tree (graph) == tree);
  g_assert_cmpuint (tv_flame_graph_get_zoom_root (graph), ==, TV_ROOT_NODE);

  gtk_window_set_child (window, NULL);
  g_unlink (path);
  g_rmdir (dir);
}

/* A profile of fewer than 20,000 samples: its trees are whole. */
static void
test_small (void)
{
  g_autoptr(TvProfile) profile = ui_test_load_corpus ("rec_threads.tach");
  g_autoptr(TvViewState) state = tv_view_state_new ();
  TvFlameView *view;
  TvCallTree *tree;
  TvQuery query;
  g_autoptr(TvCallTree) whole = NULL;

  tv_view_state_set_inverted (state, TRUE);
  view = TV_FLAME_VIEW (tv_flame_view_new (profile, state));
  gtk_window_set_child (window, GTK_WIDGET (view));
  show_call_tree (view);
  wait_idle (view);
  tree = tv_flame_graph_get_tree (tv_flame_view_get_graph (view));
  tv_view_state_to_query (state, &query);
  whole = tv_call_tree_new (tv_profile_get_data (profile), &query, NULL);
  g_assert_cmpuint (tv_call_tree_get_cut_below (tree, TV_ROOT_NODE), ==, 0);
  g_assert_cmpuint (tv_call_tree_get_n_nodes (tree), ==, tv_call_tree_get_n_nodes (whole));

  /* And its top-down tree too. */
  tv_view_state_set_inverted (state, FALSE);
  wait_idle (view);
  tree = tv_flame_graph_get_tree (tv_flame_view_get_graph (view));
  g_assert_false (tv_call_tree_get_inverted (tree));
  query.inverted = FALSE;
  g_clear_pointer (&whole, tv_call_tree_unref);
  whole = tv_call_tree_new (tv_profile_get_data (profile), &query, NULL);
  g_assert_cmpuint (tv_call_tree_get_cut_below (tree, TV_ROOT_NODE), ==, 0);
  g_assert_cmpuint (tv_call_tree_get_n_nodes (tree), ==, tv_call_tree_get_n_nodes (whole));
  gtk_window_set_child (window, NULL);
}

int
main (int   argc,
      char *argv[])
{
  int ret;

  if (!ui_test_init (&argc, &argv))
    return 77;

  window = ui_test_window_new (1000, 700);

  g_test_add_func ("/detail/inverted", test_inverted);
  g_test_add_func ("/detail/top-down", test_top_down);
  g_test_add_func ("/detail/small", test_small);

  ret = g_test_run ();

  gtk_window_destroy (window);
  return ret;
}
