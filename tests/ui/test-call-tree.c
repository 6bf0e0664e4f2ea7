/* test-call-tree.c: the call tree view, alone and beside the flame graph
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Drives the real TvCallTreeView under gtk_test_init (every warning is
 * fatal), with corpus profiles loaded by TvProfile.  What it lists is
 * checked against the model: the rows against the tree's nodes (parent,
 * depth, self, total), bottom-up against an inverted tree and the
 * function table's self samples, the search against a walk over every
 * node.  Beside the flame graph (TvFlameView), a selection or a zoom on
 * one side shows on the other.  Screenshots, light and dark, go to
 * TV_TEST_OUTPUT_DIR.
 */
#include <string.h>

#include <adwaita.h>

#include "model-fixture.h"
#include "tv-call-node.h"
#include "tv-call-tree-view.h"
#include "tv-flame-view.h"
#include "tv-units.h"
#include "ui-test-util.h"

static GtkWindow *window;

static guint n_emitted;
static guint32 last_emitted;

static void
settle (TvCallTreeView *view)
{
  WAIT_UNTIL (!tv_call_tree_view_is_busy (view), 60000);
  /* The column view binds what it shows on the next frame. */
  ui_test_spin (20);
  g_assert_false (tv_call_tree_view_is_busy (view));
}

static void
on_node_selected (TvCallTreeView *view,
                  guint           node,
                  gpointer        user_data)
{
  n_emitted++;
  last_emitted = node;
}

/* The node of ROW (borrowed from the row). */
static guint32
row_node (GtkTreeListRow *row)
{
  g_autoptr(TvCallNode) item = gtk_tree_list_row_get_item (row);

  return tv_call_node_get_node (item);
}

static GtkTreeListRow *
get_row (GListModel *rows,
         guint       position)
{
  GtkTreeListRow *row = g_list_model_get_item (rows, position);

  g_assert_true (GTK_IS_TREE_LIST_ROW (row));
  /* The list keeps it for as long as the test looks. */
  g_object_unref (row);
  return row;
}

/* Expands every row. */
static void
expand_all (TvCallTreeView *view)
{
  g_autoptr(GListModel) rows = tv_call_tree_view_list_rows (view);

  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    {
      g_autoptr(GtkTreeListRow) row = g_list_model_get_item (rows, i);

      gtk_tree_list_row_set_expanded (row, TRUE);
    }
  settle (view);
}

static void
collect_labels (GtkWidget *widget,
                GPtrArray *out)
{
  if (GTK_IS_LABEL (widget) && gtk_widget_get_mapped (widget))
    g_ptr_array_add (out, widget);
  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    collect_labels (child, out);
}

static gboolean
shows_label (GtkWidget  *widget,
             const char *text)
{
  g_autoptr(GPtrArray) labels = g_ptr_array_new ();

  collect_labels (widget, labels);
  for (guint i = 0; i < labels->len; i++)
    if (g_strcmp0 (gtk_label_get_text (labels->pdata[i]), text) == 0)
      return TRUE;
  return FALSE;
}

/* Every row shown is a node of TREE under its parent's row, at its depth,
 * with its numbers; every node is shown once when ALL are expanded; and
 * siblings go by COMPARE in ORDER. */
static void
check_rows (TvCallTreeView *view,
            TvCallTree     *tree,
            gboolean        all,
            GCompareFunc    compare,
            GtkSortType     order)
{
  g_autoptr(GListModel) rows = tv_call_tree_view_list_rows (view);
  guint n = g_list_model_get_n_items (rows);
  g_autofree guint8 *seen = g_new0 (guint8, tv_call_tree_get_n_nodes (tree));
  /* Per depth, the node of the last row seen at it. */
  g_autoptr(GArray) last = g_array_new (FALSE, TRUE, sizeof (guint32));

  g_assert_true (tv_call_tree_view_get_tree (view) == tree);
  for (guint i = 0; i < n; i++)
    {
      GtkTreeListRow *row = get_row (rows, i);
      g_autoptr(TvCallNode) item = gtk_tree_list_row_get_item (row);
      guint32 node = tv_call_node_get_node (item);
      guint depth = gtk_tree_list_row_get_depth (row);
      g_autoptr(GtkTreeListRow) parent = gtk_tree_list_row_get_parent (row);

      g_assert_true (tv_call_node_get_tree (item) == tree);
      g_assert_cmpuint (node, <, tv_call_tree_get_n_nodes (tree));
      g_assert_cmpuint (node, !=, TV_ROOT_NODE);
      g_assert_false (seen[node]);
      seen[node] = TRUE;
      g_assert_cmpuint (depth + 1, ==, tv_call_tree_get_depth (tree, node));
      /* Bottom-up, a row's own samples are where its function is the leaf:
       * the top-level rows' totals. */
      if (tv_call_tree_get_inverted (tree))
        g_assert_cmpuint (tv_call_node_get_self (item), ==,
                          depth == 0 ? tv_call_tree_get_total (tree, node) : 0);
      else
        g_assert_cmpuint (tv_call_node_get_self (item), ==, tv_call_tree_get_self (tree, node));
      g_assert_cmpuint (tv_call_node_get_total (item), ==, tv_call_tree_get_total (tree, node));
      if (parent == NULL)
        g_assert_cmpuint (tv_call_tree_get_parent (tree, node), ==, TV_ROOT_NODE);
      else
        g_assert_cmpuint (row_node (parent), ==, tv_call_tree_get_parent (tree, node));
      /* Expandable exactly when the node has children. */
      {
        guint n_children;

        tv_call_tree_get_children (tree, node, &n_children);
        g_assert_cmpint (gtk_tree_list_row_is_expandable (row), ==, n_children > 0);
      }
      /* Siblings in order: the last row at this depth under the same
       * parent comes before this one. */
      if (depth < last->len)
        {
          guint32 before = g_array_index (last, guint32, depth);

          if (before != TV_NODE_NONE
              && tv_call_tree_get_parent (tree, before) == tv_call_tree_get_parent (tree, node))
            {
              g_autoptr(TvCallNode) a = tv_call_node_new (tree, before);
              int r = compare (a, item);

              if (order == GTK_SORT_ASCENDING)
                g_assert_cmpint (r, <=, 0);
              else
                g_assert_cmpint (r, >=, 0);
            }
        }
      g_array_set_size (last, depth + 1);
      g_array_index (last, guint32, depth) = node;
    }
  if (all)
    g_assert_cmpuint (n, ==, tv_call_tree_get_n_nodes (tree) - 1);
}

static int
cmp_total (gconstpointer a,
           gconstpointer b)
{
  guint64 x = tv_call_node_get_total ((TvCallNode *) a);
  guint64 y = tv_call_node_get_total ((TvCallNode *) b);

  return (x > y) - (x < y);
}

static int
cmp_self (gconstpointer a,
          gconstpointer b)
{
  guint64 x = tv_call_node_get_self ((TvCallNode *) a);
  guint64 y = tv_call_node_get_self ((TvCallNode *) b);

  return (x > y) - (x < y);
}

static int
cmp_name (gconstpointer a,
          gconstpointer b)
{
  TvCallTree *tree = tv_call_node_get_tree ((TvCallNode *) a);
  const guint32 *ranks = tv_profile_data_get_key_ranks (tv_call_tree_get_data (tree),
                                                        tv_call_tree_get_merge (tree));
  guint32 x = ranks[tv_call_tree_get_key (tree, tv_call_node_get_node ((TvCallNode *) a))];
  guint32 y = ranks[tv_call_tree_get_key (tree, tv_call_node_get_node ((TvCallNode *) b))];

  return (x > y) - (x < y);
}

/* ------------------------------------------------------------------------ */
/* The view alone                                                            */
/* ------------------------------------------------------------------------ */

static TvProfile *profile;
static TvViewState *state;
static TvCallTreeView *view;

static void
setup_view (void)
{
  g_autoptr(TvCallTree) tree = NULL;

  if (view != NULL)
    return;
  profile = ui_test_load_corpus ("rec_threads.tach");
  state = tv_view_state_new ();
  view = TV_CALL_TREE_VIEW (tv_call_tree_view_new (profile, state));
  g_signal_connect (view, "node-selected", G_CALLBACK (on_node_selected), NULL);
  gtk_window_set_child (window, GTK_WIDGET (view));
  tree = ui_test_state_tree (profile, state, FALSE);
  tv_call_tree_view_set_graph_tree (view, tree);
  settle (view);
}

static void
test_top_down (void)
{
  TvCallTree *tree;
  g_autoptr(GListModel) rows = NULL;
  guint n_roots;
  const guint32 *roots;
  guint32 top = TV_NODE_NONE;
  char share[32], detail[96];

  setup_view ();
  tree = tv_call_tree_view_get_graph_tree (view);
  g_assert_true (tv_call_tree_view_get_tree (view) == tree);
  g_assert_true (tv_call_tree_view_shows_graph_tree (view));
  g_assert_false (tv_call_tree_view_get_bottom_up (view));

  /* Lazy: only the top-level rows until one is opened. */
  rows = tv_call_tree_view_list_rows (view);
  roots = tv_call_tree_get_children (tree, TV_ROOT_NODE, &n_roots);
  g_assert_cmpuint (n_roots, >, 0);
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, n_roots);
  check_rows (view, tree, FALSE, cmp_total, GTK_SORT_DESCENDING);

  /* The first row is the top-level node with the most samples, and its
   * cells say so: share, samples and seconds. */
  for (guint i = 0; i < n_roots; i++)
    if (top == TV_NODE_NONE
        || tv_call_tree_get_total (tree, roots[i]) > tv_call_tree_get_total (tree, top))
      top = roots[i];
  g_assert_cmpuint (row_node (get_row (rows, 0)), ==, top);
  {
    guint64 total = tv_call_tree_get_total (tree, top);
    g_autofree char *shared = tv_format_share (total, tv_call_tree_get_n_samples (tree));
    g_autofree char *counted = tv_format_count (total);
    g_autofree char *seconds = tv_format_duration (tv_call_tree_samples_to_seconds (tree, total,
                                                                                    NULL));

    g_strlcpy (share, shared, sizeof share);
    g_snprintf (detail, sizeof detail, "%s · %s", counted, seconds);
  }
  g_assert_true (shows_label (GTK_WIDGET (view), share));
  g_assert_true (shows_label (GTK_WIDGET (view), detail));
  g_assert_true (shows_label (GTK_WIDGET (view),
                              tv_profile_data_get_funcname (tv_call_tree_get_data (tree),
                                                            tv_call_tree_get_frame (tree, top))));

  /* Every node, once, under its parent. */
  expand_all (view);
  check_rows (view, tree, TRUE, cmp_total, GTK_SORT_DESCENDING);
  g_assert_cmpuint (n_emitted, ==, 0);
}

static void
test_sort (void)
{
  static const struct
  {
    TvCallTreeColumn column;
    GCompareFunc     compare;
  } columns[] = {
    { TV_CALL_TREE_COLUMN_SELF, cmp_self },
    { TV_CALL_TREE_COLUMN_FUNCTION, cmp_name },
    { TV_CALL_TREE_COLUMN_TOTAL, cmp_total },
  };
  TvCallTree *tree;

  setup_view ();
  tree = tv_call_tree_view_get_tree (view);
  expand_all (view);
  for (guint c = 0; c < G_N_ELEMENTS (columns); c++)
    for (int order = GTK_SORT_DESCENDING; order >= GTK_SORT_ASCENDING; order--)
      {
        tv_call_tree_view_sort_by_column (view, columns[c].column, order);
        settle (view);
        check_rows (view, tree, TRUE, columns[c].compare, order);
      }
  tv_call_tree_view_sort_by_column (view, TV_CALL_TREE_COLUMN_TOTAL, GTK_SORT_DESCENDING);
  settle (view);
}

static void
test_bottom_up (void)
{
  g_autoptr(TvCallTree) expected = NULL;
  TvCallTree *graph_tree, *tree;
  const TvFunctionRow *functions;
  g_autoptr(GListModel) rows = NULL;
  guint n_functions, n_with_self = 0, n_rows;

  setup_view ();
  graph_tree = tv_call_tree_view_get_graph_tree (view);
  tv_call_tree_view_set_bottom_up (view, TRUE);
  settle (view);
  tree = tv_call_tree_view_get_tree (view);
  g_assert_nonnull (tree);
  g_assert_true (tree != graph_tree);
  g_assert_false (tv_call_tree_view_shows_graph_tree (view));
  g_assert_true (tv_call_tree_get_inverted (tree));

  /* The model's inverted tree of the same samples. */
  expected = ui_test_state_tree (profile, state, TRUE);
  g_assert_cmpuint (tv_call_tree_get_n_nodes (tree), ==, tv_call_tree_get_n_nodes (expected));
  g_assert_cmpuint (tv_call_tree_get_n_samples (tree), ==, tv_call_tree_get_n_samples (graph_tree));

  /* Its top-level rows are the functions where samples end, each with
   * the function table's self samples as its total. */
  rows = tv_call_tree_view_list_rows (view);
  n_rows = g_list_model_get_n_items (rows);
  functions = tv_call_tree_get_functions (graph_tree, &n_functions);
  for (guint f = 0; f < n_functions; f++)
    {
      gboolean found = FALSE;

      if (functions[f].self == 0)
        continue;
      n_with_self++;
      for (guint i = 0; i < n_rows && !found; i++)
        {
          guint32 node = row_node (get_row (rows, i));

          if (tv_call_tree_get_function (tree, node) == functions[f].function)
            {
              g_assert_cmpuint (tv_call_tree_get_total (tree, node), ==, functions[f].self);
              found = TRUE;
            }
        }
      g_assert_true (found);
    }
  g_assert_cmpuint (n_rows, ==, n_with_self);
  check_rows (view, tree, FALSE, cmp_total, GTK_SORT_DESCENDING);
  expand_all (view);
  check_rows (view, tree, TRUE, cmp_total, GTK_SORT_DESCENDING);

  /* And back: the graph's own tree again, at once. */
  tv_call_tree_view_set_bottom_up (view, FALSE);
  g_assert_true (tv_call_tree_view_get_tree (view) == graph_tree);
  settle (view);
}

static void
test_search (void)
{
  TvCallTree *tree;
  TvProfileData *data;
  g_autoptr(GArray) expected = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autoptr(GListModel) rows = NULL;
  const guint32 *matches;
  guint n_matches;
  guint before;

  setup_view ();
  tree = tv_call_tree_view_get_tree (view);
  data = tv_call_tree_get_data (tree);
  for (guint32 node = 1; node < tv_call_tree_get_n_nodes (tree); node++)
    {
      g_autofree char *name = g_ascii_strdown (
        tv_profile_data_get_funcname (data, tv_call_tree_get_frame (tree, node)), -1);
      g_autofree char *file = g_ascii_strdown (
        tv_profile_data_get_filename (data, tv_call_tree_get_frame (tree, node)), -1);

      if (strstr (name, "wait") != NULL || strstr (file, "wait") != NULL)
        g_array_append_val (expected, node);
    }
  g_assert_cmpuint (expected->len, >, 1);

  before = n_emitted;
  tv_call_tree_view_set_search (view, "WAIT");
  settle (view);
  matches = tv_call_tree_view_get_matches (view, &n_matches);
  g_assert_cmpuint (n_matches, ==, expected->len);
  for (guint i = 0; i < expected->len; i++)
    {
      gboolean found = FALSE;

      for (guint j = 0; j < n_matches && !found; j++)
        found = matches[j] == g_array_index (expected, guint32, i);
      g_assert_true (found);
    }
  /* Most samples first. */
  for (guint i = 1; i < n_matches; i++)
    g_assert_cmpuint (tv_call_tree_get_total (tree, matches[i - 1]), >=,
                      tv_call_tree_get_total (tree, matches[i]));

  /* The first is expanded to and selected, then the next ones. */
  rows = tv_call_tree_view_list_rows (view);
  for (guint m = 0; m < MIN (n_matches, 3); m++)
    {
      GtkTreeListRow *row = NULL;
      guint n = g_list_model_get_n_items (rows);

      if (m > 0)
        {
          tv_call_tree_view_next_match (view, FALSE);
          settle (view);
        }
      g_assert_cmpuint (tv_call_tree_view_get_selected_node (view), ==, matches[m]);
      g_assert_cmpuint (last_emitted, ==, matches[m]);
      g_assert_cmpuint (n_emitted, ==, before + m + 1);
      for (guint i = 0; i < n && row == NULL; i++)
        if (row_node (get_row (rows, i)) == matches[m])
          row = get_row (rows, i);
      g_assert_nonnull (row);
    }
  tv_call_tree_view_next_match (view, TRUE);
  settle (view);
  g_assert_cmpuint (tv_call_tree_view_get_selected_node (view), ==, matches[1]);

  /* No match: none selected anew, and the label says so. */
  tv_call_tree_view_set_search (view, "no function is called this");
  settle (view);
  tv_call_tree_view_get_matches (view, &n_matches);
  g_assert_cmpuint (n_matches, ==, 0);
  g_assert_true (shows_label (GTK_WIDGET (view), "No match"));
  tv_call_tree_view_set_search (view, "");
  settle (view);
}

/* ------------------------------------------------------------------------ */
/* Beside the flame graph                                                    */
/* ------------------------------------------------------------------------ */

static TvFlameView *
new_flame_view (TvProfile   *p,
                TvViewState *s)
{
  TvFlameView *flame = TV_FLAME_VIEW (tv_flame_view_new (p, s));
  GtkWidget *stack;

  gtk_window_set_child (window, GTK_WIDGET (flame));
  /* The side panel's Call Tree tab. */
  stack = gtk_widget_get_parent (GTK_WIDGET (tv_flame_view_get_call_tree_view (flame)));
  g_assert_true (GTK_IS_STACK (stack));
  gtk_stack_set_visible_child_name (GTK_STACK (stack), "call-tree");
  WAIT_UNTIL (!tv_flame_view_is_busy (flame), 60000);
  settle (tv_flame_view_get_call_tree_view (flame));
  return flame;
}

/* The deepest node with the most samples among those as deep. */
static guint32
deep_node (TvCallTree *tree)
{
  guint32 best = TV_NODE_NONE;

  for (guint32 node = 1; node < tv_call_tree_get_n_nodes (tree); node++)
    if (best == TV_NODE_NONE
        || tv_call_tree_get_depth (tree, node) > tv_call_tree_get_depth (tree, best)
        || (tv_call_tree_get_depth (tree, node) == tv_call_tree_get_depth (tree, best)
            && tv_call_tree_get_total (tree, node) > tv_call_tree_get_total (tree, best)))
      best = node;
  return best;
}

/* The row of NODE among the rows shown, or G_MAXUINT. */
static guint
find_row (TvCallTreeView *v,
          guint32         node)
{
  g_autoptr(GListModel) rows = tv_call_tree_view_list_rows (v);

  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    if (row_node (get_row (rows, i)) == node)
      return i;
  return G_MAXUINT;
}

static gboolean
is_above (TvCallTree *tree,
          guint32     ancestor,
          guint32     node)
{
  for (; node != TV_NODE_NONE; node = tv_call_tree_get_parent (tree, node))
    if (node == ancestor)
      return TRUE;
  return FALSE;
}

static GtkSingleSelection *
get_selection (TvCallTreeView *v)
{
  g_autoptr(GPtrArray) views = g_ptr_array_new ();
  GtkWidget *column_view = NULL;

  for (GtkWidget *w = GTK_WIDGET (v); w != NULL && column_view == NULL;)
    {
      if (GTK_IS_COLUMN_VIEW (w))
        column_view = w;
      else if (gtk_widget_get_first_child (w) != NULL)
        w = gtk_widget_get_first_child (w);
      else
        {
          while (w != NULL && w != GTK_WIDGET (v) && gtk_widget_get_next_sibling (w) == NULL)
            w = gtk_widget_get_parent (w);
          w = w == NULL || w == GTK_WIDGET (v) ? NULL : gtk_widget_get_next_sibling (w);
        }
    }
  g_assert_nonnull (column_view);
  return GTK_SINGLE_SELECTION (gtk_column_view_get_model (GTK_COLUMN_VIEW (column_view)));
}

static void
test_sync (void)
{
  g_autoptr(TvProfile) p = ui_test_load_corpus ("rec_threads.tach");
  g_autoptr(TvViewState) s = tv_view_state_new ();
  TvFlameView *flame = new_flame_view (p, s);
  TvFlameGraph *graph = tv_flame_view_get_graph (flame);
  TvCallTreeView *v = tv_flame_view_get_call_tree_view (flame);
  TvCallTree *tree = tv_flame_graph_get_tree (graph);
  GtkSingleSelection *selection = get_selection (v);
  guint32 deep, other = TV_NODE_NONE, function;
  const guint32 *roots;
  guint n_roots, position;

  g_assert_true (tv_call_tree_view_get_tree (v) == tree);

  /* The graph's selection: expanded to, selected, in the rows. */
  deep = deep_node (tree);
  g_assert_cmpuint (tv_call_tree_get_depth (tree, deep), >, 2);
  tv_flame_graph_set_selected (graph, deep);
  settle (v);
  g_assert_cmpuint (tv_call_tree_view_get_selected_node (v), ==, deep);
  position = find_row (v, deep);
  g_assert_cmpuint (position, !=, G_MAXUINT);
  g_assert_cmpuint (gtk_single_selection_get_selected (selection), ==, position);

  /* A row chosen in the tree: the graph selects that frame, the function
   * table its function. */
  roots = tv_call_tree_get_children (tree, TV_ROOT_NODE, &n_roots);
  g_assert_cmpuint (n_roots, >, 1);
  for (guint i = 0; i < n_roots; i++)
    if (!is_above (tree, roots[i], deep)
        && !g_str_equal (tv_profile_data_get_funcname (tv_call_tree_get_data (tree),
                                                    tv_call_tree_get_frame (tree, roots[i])),
                      tv_profile_data_get_funcname (tv_call_tree_get_data (tree),
                                                    tv_call_tree_get_frame (tree, deep))))
      other = roots[i];
  position = find_row (v, other);
  g_assert_cmpuint (position, !=, G_MAXUINT);
  gtk_single_selection_set_selected (selection, position);
  settle (v);
  g_assert_cmpuint (tv_flame_graph_get_selected (graph), ==, other);
  g_assert_cmpuint (tv_call_tree_view_get_selected_node (v), ==, other);
  g_assert_cmpuint (tv_function_table_get_selected_function (tv_flame_view_get_function_table (flame)),
                    ==, tv_call_tree_get_function (tree, other));

  /* A zoom in the graph: the tree opens down to the zoomed frame. */
  {
    guint32 zoom = tv_call_tree_get_parent (tree, deep);
    guint32 top = deep;
    g_autoptr(GListModel) rows = tv_call_tree_view_list_rows (v);

    /* Closed first. */
    while (tv_call_tree_get_parent (tree, top) != TV_ROOT_NODE)
      top = tv_call_tree_get_parent (tree, top);
    gtk_tree_list_row_set_expanded (get_row (rows, find_row (v, top)), FALSE);
    settle (v);
    g_assert_cmpuint (find_row (v, zoom), ==, G_MAXUINT);
    tv_flame_graph_zoom_to (graph, zoom);
    WAIT_UNTIL (!tv_flame_graph_is_animating (graph), 60000);
    settle (v);
    g_assert_cmpuint (find_row (v, zoom), !=, G_MAXUINT);
  }

  /* A row outside the zoomed frame: the graph zooms out to show it. */
  tv_flame_graph_set_selected (graph, deep);
  settle (v);
  g_assert_cmpuint (tv_call_tree_view_get_selected_node (v), ==, deep);
  position = find_row (v, other);
  gtk_single_selection_set_selected (selection, position);
  WAIT_UNTIL (!tv_flame_graph_is_animating (graph), 60000);
  settle (v);
  g_assert_cmpuint (tv_flame_graph_get_selected (graph), ==, other);
  g_assert_cmpuint (tv_flame_graph_get_zoom_root (graph), ==, TV_ROOT_NODE);

  /* A new tree (the view state changed): the call tree lists it and
   * keeps the graph's selection, as the graph maps it. */
  tv_flame_graph_set_selected (graph, deep);
  settle (v);
  tv_view_state_set_collapse_recursion (s, TRUE);
  WAIT_UNTIL (!tv_flame_view_is_busy (flame) && tv_flame_graph_get_tree (graph) != tree, 60000);
  settle (v);
  g_assert_true (tv_call_tree_view_get_tree (v) == tv_flame_graph_get_tree (graph));
  g_assert_cmpuint (tv_flame_graph_get_selected (graph), !=, TV_NODE_NONE);
  g_assert_cmpuint (tv_call_tree_view_get_selected_node (v), ==, tv_flame_graph_get_selected (graph));
  g_assert_cmpuint (find_row (v, tv_flame_graph_get_selected (graph)), ==,
                    gtk_single_selection_get_selected (selection));
  tv_view_state_set_collapse_recursion (s, FALSE);
  WAIT_UNTIL (!tv_flame_view_is_busy (flame), 60000);
  settle (v);
  tree = tv_flame_graph_get_tree (graph);
  deep = deep_node (tree);

  /* Bottom-up: its nodes are not the graph's; the graph's frame selects
   * its function's row, and a row highlights its function. */
  tv_call_tree_view_set_bottom_up (v, TRUE);
  settle (v);
  g_assert_false (tv_call_tree_view_shows_graph_tree (v));
  function = tv_call_tree_get_function (tree, deep);
  tv_flame_graph_set_selected (graph, deep);
  settle (v);
  g_assert_cmpuint (tv_call_tree_get_function (tv_call_tree_view_get_tree (v),
                                               tv_call_tree_view_get_selected_node (v)),
                    ==, function);
  g_assert_cmpuint (tv_call_tree_get_parent (tv_call_tree_view_get_tree (v),
                                             tv_call_tree_view_get_selected_node (v)),
                    ==, TV_ROOT_NODE);
  {
    TvCallTree *inverted = tv_call_tree_view_get_tree (v);
    guint32 top = row_node (get_row (G_LIST_MODEL (selection), 0));

    gtk_single_selection_set_selected (selection, 0);
    settle (v);
    WAIT_UNTIL (!tv_flame_view_is_busy (flame), 60000);
    g_assert_cmpuint (tv_function_table_get_selected_function (
                        tv_flame_view_get_function_table (flame)),
                      ==, tv_call_tree_get_function (inverted, top));
    /* The graph highlights the function's frames. */
    g_assert_nonnull (tv_flame_view_get_matches (flame));
    g_assert_cmpuint (tv_flame_matches_get_n_nodes (tv_flame_view_get_matches (flame)), >, 0);
  }

  gtk_window_set_child (window, NULL);
}

/* The views the merged test goes through from the default one:
 * inverted, top-down again, on CPU, inverted on CPU.  Where only the
 * direction changes, the page turns the exact tree over (see
 * TvQuery.functions_of). */
static void
set_view (TvViewState *s,
          guint        i)
{
  tv_view_state_set_inverted (s, i == 0 || i == 3);
  tv_view_state_set_state_filter (s, i >= 2 ? TV_STATE_FILTER_CPU : TV_STATE_FILTER_ALL);
}

#define N_MERGED_VIEWS 4

/* The graph's tree once the view state changed from the tree BEFORE. */
static TvCallTree *
next_tree (TvFlameView *flame,
           TvCallTree  *before)
{
  TvFlameGraph *graph = tv_flame_view_get_graph (flame);

  WAIT_UNTIL (!tv_flame_view_is_busy (flame) && tv_flame_graph_get_tree (graph) != before,
              60000);
  return tv_flame_graph_get_tree (graph);
}

/* A profile whose tree the page merges by function, as it does a big
 * one's: once the merged tree and what its inverted trees climb are
 * made, the graph's trees by function, top-down and inverted, are read
 * off them, and are the trees of a load that has neither. */
static void
test_merged (void)
{
  g_autoptr(TvProfile) plain = ui_test_load_corpus ("rec_recursive.tach");
  g_autoptr(TvProfile) p = NULL;
  g_autoptr(TvViewState) s = tv_view_state_new ();
  g_autoptr(TvViewState) s2 = tv_view_state_new ();
  TvCallTree *expected[N_MERGED_VIEWS];
  TvFlameView *flame = new_flame_view (plain, s);
  TvCallTree *tree = tv_flame_graph_get_tree (tv_flame_view_get_graph (flame));
  TvProfileData *data;

  /* Too small to be merged. */
  g_assert_null (tv_profile_data_get_merged (tv_profile_get_data (plain)));
  for (guint i = 0; i < N_MERGED_VIEWS; i++)
    {
      set_view (s, i);
      tree = next_tree (flame, tree);
      expected[i] = tv_call_tree_ref (tree);
    }
  gtk_window_set_child (window, NULL);
  g_assert_null (tv_profile_data_get_merged (tv_profile_get_data (plain)));

  tv_profile_set_merge_min_nodes (0);
  p = ui_test_load_corpus ("rec_recursive.tach");
  flame = new_flame_view (p, s2);
  data = tv_profile_get_data (p);
  WAIT_UNTIL (tv_profile_data_get_merged (data) != NULL
              && g_atomic_pointer_get (tv_profile_data_get_prepared (
                   tv_profile_data_get_merged (data), TV_PREPARED_LEAVES)) != NULL, 60000);
  tv_profile_set_merge_min_nodes (TV_PROFILE_MERGE_MIN_NODES);
  tree = tv_flame_graph_get_tree (tv_flame_view_get_graph (flame));
  for (guint i = 0; i < N_MERGED_VIEWS; i++)
    {
      guint merged = tv_call_tree_get_merged_used ();
      guint prepared = tv_call_tree_get_prepared_used ();

      set_view (s2, i);
      tree = next_tree (flame, tree);
      g_assert_cmpuint (tv_call_tree_get_merged_used (), >, merged);
      if (i == 0 || i == 3)
        g_assert_cmpuint (tv_call_tree_get_prepared_used (), >, prepared);
      g_assert_true (tv_call_tree_get_data (tree) == data);
      fixture_assert_same_trees (tree, expected[i]);
      tv_call_tree_unref (expected[i]);
    }
  gtk_window_set_child (window, NULL);
}

/* A flame view closed while its call tree makes the tree of the other
 * direction: the call tree, which the query holds, takes the tree once
 * the view is gone, and nothing calls back into the view. */
static void
test_closed_busy (void)
{
  g_autoptr(TvProfile) p = ui_test_load_corpus ("rec_recursive.tach");

  for (guint i = 0; i < 3; i++)
    {
      g_autoptr(TvViewState) s = tv_view_state_new ();
      TvFlameView *flame = new_flame_view (p, s);
      g_autoptr(TvCallTreeView) v = g_object_ref (tv_flame_view_get_call_tree_view (flame));

      /* The graph inverted, the call tree asks for the top-down tree:
       * its result comes at an iteration after the one that asks. */
      g_assert_false (tv_call_tree_view_is_busy (v));
      tv_view_state_set_inverted (s, TRUE);
      WAIT_UNTIL (tv_call_tree_view_is_busy (v), 60000);
      gtk_window_set_child (window, NULL);
      WAIT_UNTIL (!tv_call_tree_view_is_busy (v), 60000);
      g_assert_false (tv_call_tree_get_inverted (tv_call_tree_view_get_tree (v)));
      ui_test_spin (50);
    }
}

static GtkTreeExpander *
find_expander (GtkWidget *widget,
               guint32    node)
{
  if (GTK_IS_TREE_EXPANDER (widget))
    {
      GtkTreeListRow *row = gtk_tree_expander_get_list_row (GTK_TREE_EXPANDER (widget));

      return row != NULL && row_node (row) == node ? GTK_TREE_EXPANDER (widget) : NULL;
    }
  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkTreeExpander *found = find_expander (child, node);

      if (found != NULL)
        return found;
    }
  return NULL;
}

static GtkWidget *
find_column_view (GtkWidget *widget)
{
  if (GTK_IS_COLUMN_VIEW (widget))
    return widget;
  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_column_view (child);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* A row a hundred levels down, chosen from the graph: its name is
 * scrolled into view, whatever its indent. */
static void
test_deep_row (void)
{
  g_autoptr(TvProfile) p = ui_test_load_corpus ("rec_recursive.tach");
  g_autoptr(TvViewState) s = tv_view_state_new ();
  g_autoptr(TvCallTree) tree = ui_test_state_tree (p, s, FALSE);
  TvCallTreeView *v = TV_CALL_TREE_VIEW (tv_call_tree_view_new (p, s));
  guint32 deep = deep_node (tree);
  GtkWidget *column_view;
  GtkTreeExpander *expander;
  graphene_point_t at;

  gtk_window_set_child (window, GTK_WIDGET (v));
  tv_call_tree_view_set_graph_tree (v, tree);
  settle (v);
  g_assert_cmpuint (tv_call_tree_get_depth (tree, deep), >, 50);
  tv_call_tree_view_select_node (v, deep);
  settle (v);
  g_assert_cmpuint (tv_call_tree_view_get_selected_node (v), ==, deep);
  column_view = find_column_view (GTK_WIDGET (v));
  expander = find_expander (column_view, deep);
  g_assert_nonnull (expander);
  g_assert_true (gtk_widget_compute_point (gtk_tree_expander_get_child (expander), column_view,
                                           &GRAPHENE_POINT_INIT (0, 0), &at));
  g_test_message ("the name starts at x = %.0f of %d", at.x, gtk_widget_get_width (column_view));
  g_assert_cmpfloat (at.x, >=, 0);
  g_assert_cmpfloat (at.x, <, gtk_widget_get_width (column_view) - 48);
  gtk_window_set_child (window, NULL);
}

/* ------------------------------------------------------------------------ */
/* Screenshots                                                               */
/* ------------------------------------------------------------------------ */

static void
test_screenshots (void)
{
  static const char *profiles[] = { "rec_recursive.tach", "rec_threads.tach" };
  static const struct
  {
    int         width, height;
    const char *name;
  } sizes[] = { { 980, 640, "default" }, { 1920, 1080, "1920x1080" } };

  for (guint p = 0; p < G_N_ELEMENTS (profiles); p++)
    {
      g_autoptr(TvProfile) prof = ui_test_load_corpus (profiles[p]);
      g_autoptr(TvViewState) s = tv_view_state_new ();
      TvFlameView *flame = new_flame_view (prof, s);
      TvFlameGraph *graph = tv_flame_view_get_graph (flame);
      TvCallTreeView *v = tv_flame_view_get_call_tree_view (flame);

      tv_flame_graph_set_selected (graph, deep_node (tv_flame_graph_get_tree (graph)));
      settle (v);
      for (guint z = 0; z < G_N_ELEMENTS (sizes); z++)
        for (int dark = 0; dark <= 1; dark++)
          {
            g_autofree char *name = g_strdup_printf ("call-tree-%u-%s-%s.png",
                                                     p == 0 ? 1 : 8, sizes[z].name,
                                                     dark ? "dark" : "light");

            gtk_window_set_default_size (window, sizes[z].width, sizes[z].height);
            ui_test_set_dark (dark);
            ui_test_save_screenshot (GTK_WIDGET (window), name, 500);
          }
      ui_test_set_dark (FALSE);
      gtk_window_set_child (window, NULL);
    }
}

int
main (int   argc,
      char *argv[])
{
  int ret;

  if (!ui_test_init (&argc, &argv))
    return 77;

  window = ui_test_window_new (420, 760);

  /* The tests share the window and run in this order. */
  g_test_add_func ("/call-tree/top-down", test_top_down);
  g_test_add_func ("/call-tree/sort", test_sort);
  g_test_add_func ("/call-tree/bottom-up", test_bottom_up);
  g_test_add_func ("/call-tree/search", test_search);
  g_test_add_func ("/call-tree/sync", test_sync);
  g_test_add_func ("/call-tree/merged", test_merged);
  g_test_add_func ("/call-tree/closed-busy", test_closed_busy);
  g_test_add_func ("/call-tree/deep-row", test_deep_row);
  g_test_add_func ("/call-tree/screenshots", test_screenshots);

  ret = g_test_run ();

  gtk_window_destroy (window);
  g_clear_object (&state);
  g_clear_object (&profile);
  return ret;
}
