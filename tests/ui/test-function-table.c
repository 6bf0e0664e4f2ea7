/* test-function-table.c: the function table and the callers and callees
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Drives the real TvFunctionTable in a window under gtk_test_init (every
 * warning is fatal), with corpus profiles loaded by TvProfile.  What the
 * widget lists is checked against the model: the rows against
 * tv_call_tree_get_functions(), the callers and callees against a
 * brute-force walk over the tree the table shows.  Screenshots, light and
 * dark, go to TV_TEST_OUTPUT_DIR.
 */
#include <string.h>

#include <adwaita.h>
#include <glib/gstdio.h>

#include "format-test-util.h"
#include "tachyon-format.h"
#include "tv-function-table.h"
#include "ui-test-util.h"

static GtkWindow *window;
static TvProfile *profile;
static TvViewState *state;
static TvFunctionTable *table;
static char *table_profile;

static guint n_emitted;
static guint32 last_emitted;
static guint n_notified;

/* Lets the table finish sorting, filtering and its queries. */
static void
settle (TvFunctionTable *t)
{
  WAIT_UNTIL (!tv_function_table_is_busy (t), 60000);
  /* The column view binds what it shows on the next frame. */
  ui_test_spin (20);
  g_assert_false (tv_function_table_is_busy (t));
}

static void
on_function_selected (TvFunctionTable *t,
                      guint            function,
                      gpointer         user_data)
{
  n_emitted++;
  last_emitted = function;
}

static void
on_notify_selected (TvFunctionTable *t,
                    GParamSpec      *pspec,
                    gpointer         user_data)
{
  n_notified++;
}

static guint32
get_selected_property (TvFunctionTable *t)
{
  guint function;

  g_object_get (t, "selected-function", &function, NULL);
  return function;
}

/* The function of the table's selected row, or TV_NODE_NONE. */
static guint32
selected_function (GtkSelectionModel *selection)
{
  gpointer item = gtk_single_selection_get_selected_item (GTK_SINGLE_SELECTION (selection));

  return item != NULL ? tv_function_item_get_function (item) : TV_NODE_NONE;
}

static TvFunctionItem *
get_row (GListModel *model,
         guint       position)
{
  TvFunctionItem *item = g_list_model_get_item (model, position);

  g_assert_true (TV_IS_FUNCTION_ITEM (item));
  /* The list owns its items; the caller borrows. */
  g_object_unref (item);
  return item;
}

static GtkColumnView *
get_column_view (TvFunctionTable *t,
                 guint            index)
{
  g_autoptr(GPtrArray) views = g_ptr_array_new ();

  /* The table, the callers, the callees. */
  ui_test_collect_widgets (GTK_WIDGET (t), GTK_TYPE_COLUMN_VIEW, views);
  g_assert_cmpuint (views->len, ==, 3);
  return g_ptr_array_index (views, index);
}

static void
save_screenshot (GtkWidget  *widget,
                 const char *name)
{
  ui_test_save_screenshot (widget, name, 400);
}

/* ------------------------------------------------------------------------ */
/* What the widget should show, from the tree                                */
/* ------------------------------------------------------------------------ */

/* Checks that the rows shown are exactly TREE's functions, with their
 * numbers, and returns how many there are. */
static guint
check_rows_equal_model (TvFunctionTable *t,
                        TvCallTree      *tree)
{
  g_autoptr(GListModel) rows = tv_function_table_list_rows (t);
  g_autoptr(GHashTable) expected = g_hash_table_new (NULL, NULL);
  TvProfileData *data = tv_call_tree_get_data (tree);
  const TvFunctionRow *functions;
  guint n_functions;

  functions = tv_call_tree_get_functions (tree, &n_functions);
  g_assert_cmpuint (n_functions, >, 0);
  for (guint i = 0; i < n_functions; i++)
    g_hash_table_insert (expected, GUINT_TO_POINTER (functions[i].function + 1),
                         (gpointer) &functions[i]);

  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, n_functions);
  for (guint i = 0; i < n_functions; i++)
    {
      TvFunctionItem *item = get_row (rows, i);
      guint32 function = tv_function_item_get_function (item);
      const TvFunctionRow *row;
      guint32 frame;

      row = g_hash_table_lookup (expected, GUINT_TO_POINTER (function + 1));
      g_assert_nonnull (row);
      /* Each function once. */
      g_assert_true (g_hash_table_remove (expected, GUINT_TO_POINTER (function + 1)));
      g_assert_cmpuint (tv_function_item_get_total (item), ==, row->total);
      g_assert_cmpuint (tv_function_item_get_self (item), ==, row->self);
      g_assert_cmpuint (tv_function_item_get_base (item), ==, tv_call_tree_get_n_samples (tree));
      frame = tv_profile_data_get_key_frame (data, TV_MERGE_FUNCTION, function);
      g_assert_cmpstr (tv_function_item_get_name (item), ==,
                       tv_profile_data_get_funcname (data, frame));
      g_assert_cmpstr (tv_function_item_get_file (item), ==,
                       tv_profile_data_get_filename (data, frame));
    }
  g_assert_cmpuint (g_hash_table_size (expected), ==, 0);
  return n_functions;
}

/* The callers and callees of FUNCTION by brute force: every node of
 * FUNCTION with no ancestor of FUNCTION is one outermost call; its parent's
 * function is a caller (or none, at the root) and its children's functions
 * are callees, each weighed by its total; its self is the function's own. */
static void
brute_force_relations (TvCallTree *tree,
                       guint32     function,
                       GHashTable *callers,
                       guint64    *no_caller,
                       GHashTable *callees,
                       guint64    *own)
{
  guint32 n_nodes = tv_call_tree_get_n_nodes (tree);

  g_assert_false (tv_call_tree_get_inverted (tree));
  *no_caller = 0;
  *own = 0;
  for (guint32 node = 1; node < n_nodes; node++)
    {
      guint32 parent = tv_call_tree_get_parent (tree, node);
      gboolean nested = FALSE;
      const guint32 *children;
      guint n_children;
      gpointer key;

      if (tv_call_tree_get_function (tree, node) != function)
        continue;
      for (guint32 up = parent; up != TV_ROOT_NODE; up = tv_call_tree_get_parent (tree, up))
        if (tv_call_tree_get_function (tree, up) == function)
          nested = TRUE;
      if (nested)
        continue;

      if (parent == TV_ROOT_NODE)
        *no_caller += tv_call_tree_get_total (tree, node);
      else
        {
          guint64 *sum;

          key = GUINT_TO_POINTER (tv_call_tree_get_function (tree, parent) + 1);
          if ((sum = g_hash_table_lookup (callers, key)) == NULL)
            g_hash_table_insert (callers, key, (sum = g_new0 (guint64, 1)));
          *sum += tv_call_tree_get_total (tree, node);
        }

      *own += tv_call_tree_get_self (tree, node);
      children = tv_call_tree_get_children (tree, node, &n_children);
      for (guint i = 0; i < n_children; i++)
        {
          guint64 *sum;

          key = GUINT_TO_POINTER (tv_call_tree_get_function (tree, children[i]) + 1);
          if ((sum = g_hash_table_lookup (callees, key)) == NULL)
            g_hash_table_insert (callees, key, (sum = g_new0 (guint64, 1)));
          *sum += tv_call_tree_get_total (tree, children[i]);
        }
    }
}

/* Checks that LIST (callers or callees as shown) holds exactly EXPECTED
 * plus, when SPECIAL > 0, one row of no function with SPECIAL samples;
 * sorted by samples, most first; its shares of BASE. */
static void
check_relation_list (GListModel *list,
                     GHashTable *expected,
                     guint64     special,
                     guint64     base)
{
  guint n = g_list_model_get_n_items (list);
  guint64 previous = G_MAXUINT64;
  guint64 sum = 0;
  gboolean seen_special = FALSE;

  g_assert_cmpuint (n, ==, g_hash_table_size (expected) + (special > 0 ? 1 : 0));
  for (guint i = 0; i < n; i++)
    {
      TvFunctionItem *item = get_row (list, i);
      guint32 function = tv_function_item_get_function (item);
      guint64 samples = tv_function_item_get_total (item);

      g_assert_cmpuint (samples, >, 0);
      g_assert_cmpuint (samples, <=, previous);
      previous = samples;
      sum += samples;
      g_assert_cmpuint (tv_function_item_get_base (item), ==, base);
      if (function == TV_NODE_NONE)
        {
          g_assert_false (seen_special);
          seen_special = TRUE;
          g_assert_cmpuint (samples, ==, special);
        }
      else
        {
          guint64 *want = g_hash_table_lookup (expected, GUINT_TO_POINTER (function + 1));

          g_assert_nonnull (want);
          g_assert_cmpuint (samples, ==, *want);
        }
    }
  g_assert_true (seen_special == (special > 0));
  /* Every sample of the function has one caller (or none) and is either
   * its own or in one callee. */
  g_assert_cmpuint (sum, ==, base);
}

static guint64
function_total (TvCallTree *tree,
                guint32     function)
{
  const TvFunctionRow *rows;
  guint n_rows;

  rows = tv_call_tree_get_functions (tree, &n_rows);
  for (guint i = 0; i < n_rows; i++)
    if (rows[i].function == function)
      return rows[i].total;
  g_assert_not_reached ();
}

/* Checks what the table shows for FUNCTION's callers and callees. */
static void
check_relations (TvFunctionTable *t,
                 TvCallTree      *tree,
                 guint32          function)
{
  g_autoptr(GHashTable) callers = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  g_autoptr(GHashTable) callees = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  g_autoptr(GListModel) shown_callers = tv_function_table_list_callers (t);
  g_autoptr(GListModel) shown_callees = tv_function_table_list_callees (t);
  guint64 no_caller, own, total = function_total (tree, function);

  g_assert_cmpuint (tv_function_table_get_selected_function (t), ==, function);
  brute_force_relations (tree, function, callers, &no_caller, callees, &own);
  check_relation_list (shown_callers, callers, no_caller, total);
  check_relation_list (shown_callees, callees, own, total);
}

/* The functions worth looking at: the busiest ones, and every function
 * that calls itself (directly or not). */
static GArray *
interesting_functions (TvCallTree *tree)
{
  GArray *functions = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autoptr(GHashTable) seen = g_hash_table_new (NULL, NULL);
  const TvFunctionRow *rows;
  guint n_rows;

  rows = tv_call_tree_get_functions (tree, &n_rows);
  for (guint i = 0; i < MIN (n_rows, 8); i++)
    if (g_hash_table_add (seen, GUINT_TO_POINTER (rows[i].function + 1)))
      g_array_append_val (functions, rows[i].function);
  for (guint32 node = 1; node < tv_call_tree_get_n_nodes (tree); node++)
    {
      guint32 function = tv_call_tree_get_function (tree, node);

      for (guint32 up = tv_call_tree_get_parent (tree, node); up != TV_ROOT_NODE;
           up = tv_call_tree_get_parent (tree, up))
        if (tv_call_tree_get_function (tree, up) == function
            && g_hash_table_add (seen, GUINT_TO_POINTER (function + 1)))
          {
            g_array_append_val (functions, function);
            break;
          }
    }
  return functions;
}

/* ------------------------------------------------------------------------ */
/* Tests                                                                     */
/* ------------------------------------------------------------------------ */

static void
use_profile (const char *name)
{
  g_autoptr(TvCallTree) tree = NULL;

  g_clear_object (&profile);
  g_clear_object (&state);
  g_free (table_profile);
  table_profile = g_strdup (name);
  profile = ui_test_load_corpus (name);
  state = tv_view_state_new ();
  table = TV_FUNCTION_TABLE (tv_function_table_new (profile, state));
  g_signal_connect (table, "function-selected", G_CALLBACK (on_function_selected), NULL);
  g_signal_connect (table, "notify::selected-function", G_CALLBACK (on_notify_selected), NULL);
  gtk_window_set_child (window, GTK_WIDGET (table));
  tree = ui_test_state_tree (profile, state, FALSE);
  tv_function_table_set_tree (table, tree);
  settle (table);
  n_emitted = 0;
}

/* The tests share the table; one run alone sets it up itself. */
static void
ensure_profile (const char *name)
{
  if (table == NULL || g_strcmp0 (table_profile, name) != 0)
    use_profile (name);
}

static void
test_rows (void)
{
  g_autoptr(GListModel) rows = NULL;
  TvCallTree *tree;
  guint n;

  use_profile ("rec_threads.tach");
  tree = tv_function_table_get_tree (table);
  n = check_rows_equal_model (table, tree);
  g_test_message ("%u functions", n);

  /* The default order: total, most first. */
  rows = tv_function_table_list_rows (table);
  for (guint i = 1; i < n; i++)
    g_assert_cmpuint (tv_function_item_get_total (get_row (rows, i - 1)), >=,
                      tv_function_item_get_total (get_row (rows, i)));
  g_assert_cmpuint (tv_function_table_get_selected_function (table), ==, TV_NODE_NONE);
  g_assert_cmpuint (n_emitted, ==, 0);
}

static GtkWidget *find_label (GtkWidget  *widget,
                              const char *text);

/* WIDGET's box in ANCESTOR's coordinates. */
static graphene_rect_t
bounds_in (GtkWidget *widget,
           GtkWidget *ancestor)
{
  graphene_rect_t bounds;

  g_assert_true (gtk_widget_compute_bounds (widget, ancestor, &bounds));
  return bounds;
}

/* The side panel's width (360 px): every column shows whole, names that
 * share their start are cut in the middle, and the callers and callees
 * leave the table most of the height. */
static void
test_layout (void)
{
  GtkWidget *view, *scroller, *paned;
  g_autoptr(GPtrArray) labels = g_ptr_array_new ();
  static const char *titles[] = { "Function", "Self", "Total", "File" };
  graphene_rect_t visible;
  guint n_cut = 0;

  ensure_profile ("rec_threads.tach");
  settle (table);
  view = GTK_WIDGET (get_column_view (table, 0));
  scroller = gtk_widget_get_ancestor (view, GTK_TYPE_SCROLLED_WINDOW);
  visible = bounds_in (scroller, scroller);
  g_assert_cmpfloat (visible.size.width, >, 0);
  for (guint i = 0; i < G_N_ELEMENTS (titles); i++)
    {
      graphene_rect_t r = bounds_in (find_label (view, titles[i]), scroller);

      g_assert_cmpfloat (r.origin.x, >=, 0);
      g_assert_cmpfloat (r.origin.x + r.size.width, <=, visible.size.width);
    }

  /* The name cells: "Thread._bootstrap" and "Thread._bootstrap_inner"
   * are cut in the middle, so they read as two names; a name cell that
   * is cut has the whole name in its tooltip (see hostile-names). */
  ui_test_collect_widgets (view, GTK_TYPE_LABEL, labels);
  for (guint i = 0; i < labels->len; i++)
    {
      GtkLabel *label = labels->pdata[i];

      if (g_str_has_prefix (gtk_label_get_text (label), "Thread._bootstrap"))
        {
          PangoLayout *layout = gtk_label_get_layout (label);

          g_assert_cmpint (gtk_label_get_ellipsize (label), ==, PANGO_ELLIPSIZE_MIDDLE);
          g_assert_true (gtk_widget_get_has_tooltip (GTK_WIDGET (label)));
          n_cut += pango_layout_is_ellipsized (layout);
        }
    }
  g_test_message ("%u names cut", n_cut);

  /* The table gets most of the height below the search. */
  paned = gtk_widget_get_ancestor (scroller, GTK_TYPE_PANED);
  g_assert_nonnull (paned);
  g_assert_cmpint (gtk_paned_get_position (GTK_PANED (paned)), >=,
                   gtk_widget_get_height (paned) * 55 / 100);
  g_assert_cmpint (gtk_paned_get_position (GTK_PANED (paned)), <=,
                   gtk_widget_get_height (paned) * 70 / 100);
}

static guint64
column_value (TvFunctionItem   *item,
              TvFunctionColumn  column)
{
  switch (column)
    {
    case TV_FUNCTION_COLUMN_NAME:
      return tv_function_item_get_function (item);
    case TV_FUNCTION_COLUMN_SELF:
    case TV_FUNCTION_COLUMN_SELF_PERCENT:
      return tv_function_item_get_self (item);
    case TV_FUNCTION_COLUMN_TOTAL:
    case TV_FUNCTION_COLUMN_TOTAL_PERCENT:
      return tv_function_item_get_total (item);
    case TV_FUNCTION_COLUMN_FILE:
    case TV_N_FUNCTION_COLUMNS:
    default:
      g_assert_not_reached ();
    }
}

static void
test_sort (void)
{
  static const TvFunctionColumn columns[] = {
    TV_FUNCTION_COLUMN_SELF, TV_FUNCTION_COLUMN_TOTAL, TV_FUNCTION_COLUMN_SELF_PERCENT,
    TV_FUNCTION_COLUMN_TOTAL_PERCENT, TV_FUNCTION_COLUMN_NAME,
  };
  TvCallTree *tree;
  guint n_functions;

  ensure_profile ("rec_threads.tach");
  tree = tv_function_table_get_tree (table);
  tv_call_tree_get_functions (tree, &n_functions);
  for (guint c = 0; c < G_N_ELEMENTS (columns); c++)
    for (int order = GTK_SORT_ASCENDING; order <= GTK_SORT_DESCENDING; order++)
      {
        g_autoptr(GListModel) rows = NULL;
        guint changes = 0;

        tv_function_table_sort_by_column (table, columns[c], order);
        settle (table);
        rows = tv_function_table_list_rows (table);
        g_assert_cmpuint (g_list_model_get_n_items (rows), ==, n_functions);
        for (guint i = 1; i < n_functions; i++)
          {
            guint64 a = column_value (get_row (rows, i - 1), columns[c]);
            guint64 b = column_value (get_row (rows, i), columns[c]);

            if (order == GTK_SORT_ASCENDING)
              g_assert_cmpuint (a, <=, b);
            else
              g_assert_cmpuint (a, >=, b);
            changes += a != b;
          }
        /* Not a column whose values are all the same. */
        g_assert_cmpuint (changes, >, 0);
        /* The rows are the same rows. */
        check_rows_equal_model (table, tree);
      }

  /* Files: by the name shown (the base name), then the path. */
  for (int order = GTK_SORT_ASCENDING; order <= GTK_SORT_DESCENDING; order++)
    {
      g_autoptr(GListModel) rows = NULL;

      tv_function_table_sort_by_column (table, TV_FUNCTION_COLUMN_FILE, order);
      settle (table);
      rows = tv_function_table_list_rows (table);
      for (guint i = 1; i < n_functions; i++)
        {
          const char *a = tv_function_item_get_file (get_row (rows, i - 1));
          const char *b = tv_function_item_get_file (get_row (rows, i));
          const char *base_a = strrchr (a, '/') ? strrchr (a, '/') + 1 : a;
          const char *base_b = strrchr (b, '/') ? strrchr (b, '/') + 1 : b;
          int r = strcmp (base_a, base_b);

          if (order == GTK_SORT_ASCENDING)
            g_assert_cmpint (r, <=, 0);
          else
            g_assert_cmpint (r, >=, 0);
        }
    }

  tv_function_table_sort_by_column (table, TV_FUNCTION_COLUMN_TOTAL, GTK_SORT_DESCENDING);
  settle (table);
}

static gboolean
contains_nocase (const char *haystack,
                 const char *needle)
{
  g_autofree char *h = g_ascii_strdown (haystack, -1);
  g_autofree char *n = g_ascii_strdown (needle, -1);

  return strstr (h, n) != NULL;
}

static void
check_search (const char *text)
{
  TvCallTree *tree = tv_function_table_get_tree (table);
  TvProfileData *data = tv_call_tree_get_data (tree);
  g_autoptr(GListModel) rows = tv_function_table_list_rows (table);
  g_autoptr(GHashTable) expected = g_hash_table_new (NULL, NULL);
  const TvFunctionRow *functions;
  guint n_functions, n;

  functions = tv_call_tree_get_functions (tree, &n_functions);
  for (guint i = 0; i < n_functions; i++)
    {
      guint32 frame = tv_profile_data_get_key_frame (data, TV_MERGE_FUNCTION,
                                                     functions[i].function);

      if (contains_nocase (tv_profile_data_get_funcname (data, frame), text)
          || contains_nocase (tv_profile_data_get_filename (data, frame), text))
        g_hash_table_add (expected, GUINT_TO_POINTER (functions[i].function + 1));
    }

  n = g_list_model_get_n_items (rows);
  g_test_message ("search “%s”: %u of %u rows", text, n, n_functions);
  g_assert_cmpuint (n, ==, g_hash_table_size (expected));
  for (guint i = 0; i < n; i++)
    {
      guint32 function = tv_function_item_get_function (get_row (rows, i));

      g_assert_true (g_hash_table_remove (expected, GUINT_TO_POINTER (function + 1)));
    }
  g_assert_cmpuint (g_hash_table_size (expected), ==, 0);
  /* Still sorted. */
  for (guint i = 1; i < n; i++)
    g_assert_cmpuint (tv_function_item_get_total (get_row (rows, i - 1)), >=,
                      tv_function_item_get_total (get_row (rows, i)));
}

static void
test_search (void)
{
  /* Narrowing, widening, unrelated, nothing, in any case, and back. */
  static const char *searches[] = {
    "w", "wor", "worker", "WORK", "o", "threading.py", "/", "no-such-function-anywhere", "",
  };
  GtkEditable *entry;
  TvCallTree *tree;
  guint n_functions;
  guint n_empty = 0, n_partial = 0;

  ensure_profile ("rec_threads.tach");
  entry = GTK_EDITABLE (ui_test_find_widget (GTK_WIDGET (table), GTK_TYPE_SEARCH_ENTRY));
  tree = tv_function_table_get_tree (table);
  tv_call_tree_get_functions (tree, &n_functions);
  for (guint i = 0; i < G_N_ELEMENTS (searches); i++)
    {
      g_autoptr(GListModel) rows = NULL;
      guint n;

      tv_function_table_set_search (table, searches[i]);
      g_assert_cmpstr (gtk_editable_get_text (entry), ==, searches[i]);
      settle (table);
      check_search (searches[i]);
      rows = tv_function_table_list_rows (table);
      n = g_list_model_get_n_items (rows);
      n_empty += n == 0;
      n_partial += n > 0 && n < n_functions;
    }
  /* The searches did filter something out, and found something. */
  g_assert_cmpuint (n_empty, ==, 1);
  g_assert_cmpuint (n_partial, >=, 3);

  /* Typing into the entry searches too (after the entry's delay). */
  gtk_editable_set_text (entry, "Run");
  WAIT_UNTIL (g_strcmp0 (tv_function_table_get_search (table), "Run") == 0, 5000);
  settle (table);
  check_search ("Run");
  gtk_editable_set_text (entry, "");
  WAIT_UNTIL (g_strcmp0 (tv_function_table_get_search (table), "") == 0, 5000);
  settle (table);
  check_rows_equal_model (table, tree);
}

static void
test_select (void)
{
  GtkSelectionModel *selection;
  g_autoptr(GListModel) rows = NULL;
  TvCallTree *tree;
  guint32 function;

  ensure_profile ("rec_threads.tach");
  selection = gtk_column_view_get_model (get_column_view (table, 0));
  rows = tv_function_table_list_rows (table);
  tree = tv_function_table_get_tree (table);

  /* The user selects the third row. */
  n_emitted = 0;
  n_notified = 0;
  function = tv_function_item_get_function (get_row (rows, 2));
  g_assert_true (gtk_selection_model_select_item (selection, 2, TRUE));
  g_assert_cmpuint (n_emitted, ==, 1);
  g_assert_cmpuint (last_emitted, ==, function);
  g_assert_cmpuint (tv_function_table_get_selected_function (table), ==, function);
  g_assert_cmpuint (n_notified, ==, 1);
  g_assert_cmpuint (get_selected_property (table), ==, function);
  settle (table);
  check_relations (table, tree, function);

  /* Selecting it again is no change. */
  g_assert_true (gtk_selection_model_select_item (selection, 2, TRUE));
  g_assert_cmpuint (n_emitted, ==, 1);

  /* From code: the row of the last function gets selected, no signal. */
  function = tv_function_item_get_function (get_row (rows, g_list_model_get_n_items (rows) - 1));
  tv_function_table_select_function (table, function);
  g_assert_cmpuint (n_emitted, ==, 1);
  g_assert_cmpuint (n_notified, ==, 2);
  g_assert_cmpuint (get_selected_property (table), ==, function);
  settle (table);
  g_assert_cmpuint (tv_function_table_get_selected_function (table), ==, function);
  g_assert_cmpuint (selected_function (selection), ==, function);
  check_relations (table, tree, function);

  /* A search that hides the row keeps the function; clearing it selects
   * the row again. */
  tv_function_table_set_search (table, "no-such-function-anywhere");
  settle (table);
  g_assert_null (gtk_single_selection_get_selected_item (GTK_SINGLE_SELECTION (selection)));
  g_assert_cmpuint (tv_function_table_get_selected_function (table), ==, function);
  tv_function_table_set_search (table, "");
  settle (table);
  g_assert_cmpuint (selected_function (selection), ==, function);

  /* A sort by another column keeps it selected. */
  tv_function_table_sort_by_column (table, TV_FUNCTION_COLUMN_NAME, GTK_SORT_ASCENDING);
  settle (table);
  g_assert_cmpuint (selected_function (selection), ==, function);
  tv_function_table_sort_by_column (table, TV_FUNCTION_COLUMN_TOTAL, GTK_SORT_DESCENDING);
  settle (table);

  /* Clearing, through the property. */
  g_object_set (table, "selected-function", (guint) TV_NODE_NONE, NULL);
  settle (table);
  g_assert_cmpuint (n_notified, ==, 3);
  g_assert_cmpuint (tv_function_table_get_selected_function (table), ==, TV_NODE_NONE);
  g_assert_null (gtk_single_selection_get_selected_item (GTK_SINGLE_SELECTION (selection)));
  {
    g_autoptr(GListModel) callers = tv_function_table_list_callers (table);
    g_autoptr(GListModel) callees = tv_function_table_list_callees (table);

    g_assert_cmpuint (g_list_model_get_n_items (callers), ==, 0);
    g_assert_cmpuint (g_list_model_get_n_items (callees), ==, 0);
  }
  g_assert_cmpuint (n_emitted, ==, 1);
}

static void
check_all_relations (const char *name)
{
  g_autoptr(GArray) functions = NULL;
  TvCallTree *tree;

  use_profile (name);
  tree = tv_function_table_get_tree (table);
  functions = interesting_functions (tree);
  g_test_message ("%s: %u functions checked", name, functions->len);
  for (guint i = 0; i < functions->len; i++)
    {
      guint32 function = g_array_index (functions, guint32, i);

      tv_function_table_select_function (table, function);
      settle (table);
      check_relations (table, tree, function);
    }
}

static void
test_relations (void)
{
  check_all_relations ("rec_recursive.tach");
  check_all_relations ("rec_cpu_mix.tach");
  check_all_relations ("rec_threads.tach");
}

static void
test_relations_stale (void)
{
  TvCallTree *tree;
  const TvFunctionRow *rows;
  guint n_rows;

  ensure_profile ("rec_threads.tach");
  tree = tv_function_table_get_tree (table);

  /* Three functions in a row without waiting: only the last one's
   * callers and callees may show, whichever query finishes last. */
  rows = tv_call_tree_get_functions (tree, &n_rows);
  g_assert_cmpuint (n_rows, >=, 3);
  for (guint round = 0; round < 5; round++)
    {
      tv_function_table_select_function (table, rows[0].function);
      tv_function_table_select_function (table, rows[1].function);
      tv_function_table_select_function (table, rows[2 + round % (n_rows - 2)].function);
      settle (table);
      check_relations (table, tree, rows[2 + round % (n_rows - 2)].function);
    }
}

static void
test_activate_relation (void)
{
  GtkColumnView *callees_view, *callers_view;
  TvCallTree *tree;
  const TvFunctionRow *rows;
  guint n_rows;
  guint32 function = TV_NODE_NONE;

  ensure_profile ("rec_threads.tach");
  callers_view = get_column_view (table, 1);
  callees_view = get_column_view (table, 2);
  tree = tv_function_table_get_tree (table);

  /* A function with a callee that is a function. */
  rows = tv_call_tree_get_functions (tree, &n_rows);
  for (guint i = 0; i < n_rows && function == TV_NODE_NONE; i++)
    {
      g_autoptr(GListModel) callees = NULL;

      tv_function_table_select_function (table, rows[i].function);
      settle (table);
      callees = tv_function_table_list_callees (table);
      if (g_list_model_get_n_items (callees) > 0
          && tv_function_item_get_function (get_row (callees, 0)) != TV_NODE_NONE)
        function = tv_function_item_get_function (get_row (callees, 0));
    }
  g_assert_cmpuint (function, !=, TV_NODE_NONE);

  /* Activating the callee selects it. */
  n_emitted = 0;
  g_signal_emit_by_name (callees_view, "activate", 0);
  g_assert_cmpuint (n_emitted, ==, 1);
  g_assert_cmpuint (last_emitted, ==, function);
  g_assert_cmpuint (tv_function_table_get_selected_function (table), ==, function);
  settle (table);
  check_relations (table, tree, function);
  {
    GtkSelectionModel *selection = gtk_column_view_get_model (get_column_view (table, 0));

    g_assert_cmpuint (selected_function (selection), ==, function);
  }

  /* And a caller of it: the first caller that is a function. */
  {
    g_autoptr(GListModel) callers = tv_function_table_list_callers (table);

    for (guint i = 0; i < g_list_model_get_n_items (callers); i++)
      if (tv_function_item_get_function (get_row (callers, i)) != TV_NODE_NONE)
        {
          guint32 caller = tv_function_item_get_function (get_row (callers, i));

          g_signal_emit_by_name (callers_view, "activate", i);
          g_assert_cmpuint (n_emitted, ==, 2);
          g_assert_cmpuint (last_emitted, ==, caller);
          settle (table);
          check_relations (table, tree, caller);
          break;
        }
    g_assert_cmpuint (n_emitted, ==, 2);
  }
}

static void
test_new_tree (void)
{
  g_autoptr(TvCallTree) all = NULL;
  g_autoptr(TvCallTree) cpu = NULL;
  g_autoptr(GArray) functions = NULL;
  guint32 kept = TV_NODE_NONE, dropped = TV_NODE_NONE;

  use_profile ("rec_threads.tach");
  all = tv_call_tree_ref (tv_function_table_get_tree (table));

  tv_view_state_set_state_filter (state, TV_STATE_FILTER_CPU);
  cpu = ui_test_state_tree (profile, state, FALSE);
  g_assert_cmpuint (tv_call_tree_get_n_samples (cpu), >, 0);
  g_assert_cmpuint (tv_call_tree_get_n_samples (cpu), <, tv_call_tree_get_n_samples (all));

  /* A function present in both trees (with fewer samples in the second),
   * and one that only the first has. */
  {
    const TvFunctionRow *rows, *cpu_rows;
    guint n_rows, n_cpu_rows;

    rows = tv_call_tree_get_functions (all, &n_rows);
    cpu_rows = tv_call_tree_get_functions (cpu, &n_cpu_rows);
    for (guint i = 0; i < n_rows; i++)
      {
        guint64 cpu_total = 0;

        for (guint j = 0; j < n_cpu_rows; j++)
          if (cpu_rows[j].function == rows[i].function)
            cpu_total = cpu_rows[j].total;
        if (kept == TV_NODE_NONE && cpu_total > 0 && cpu_total < rows[i].total)
          kept = rows[i].function;
        if (dropped == TV_NODE_NONE && cpu_total == 0)
          dropped = rows[i].function;
      }
  }
  g_assert_cmpuint (kept, !=, TV_NODE_NONE);
  g_assert_cmpuint (dropped, !=, TV_NODE_NONE);

  /* The callers and callees come from the view state, which the tree
   * shown follows: back to all samples while the table shows them all. */
  tv_view_state_set_state_filter (state, TV_STATE_FILTER_ALL);
  tv_function_table_select_function (table, kept);
  settle (table);
  check_relations (table, all, kept);

  /* The new tree: the rows, and the callers and callees of the same
   * function, now of the CPU samples only. */
  tv_view_state_set_state_filter (state, TV_STATE_FILTER_CPU);
  tv_function_table_set_tree (table, cpu);
  settle (table);
  check_rows_equal_model (table, cpu);
  g_assert_cmpuint (tv_function_table_get_selected_function (table), ==, kept);
  check_relations (table, cpu, kept);
  functions = interesting_functions (cpu);
  for (guint i = 0; i < functions->len; i++)
    {
      tv_function_table_select_function (table, g_array_index (functions, guint32, i));
      settle (table);
      check_relations (table, cpu, g_array_index (functions, guint32, i));
    }

  /* A function the new tree lacks is no longer selected. */
  tv_view_state_set_state_filter (state, TV_STATE_FILTER_ALL);
  tv_function_table_set_tree (table, all);
  settle (table);
  check_rows_equal_model (table, all);
  tv_function_table_select_function (table, dropped);
  settle (table);
  check_relations (table, all, dropped);
  tv_view_state_set_state_filter (state, TV_STATE_FILTER_CPU);
  n_notified = 0;
  tv_function_table_set_tree (table, cpu);
  settle (table);
  g_assert_cmpuint (tv_function_table_get_selected_function (table), ==, TV_NODE_NONE);
  g_assert_cmpuint (n_notified, ==, 1);
  {
    g_autoptr(GListModel) callers = tv_function_table_list_callers (table);
    g_autoptr(GListModel) callees = tv_function_table_list_callees (table);

    g_assert_cmpuint (g_list_model_get_n_items (callers), ==, 0);
    g_assert_cmpuint (g_list_model_get_n_items (callees), ==, 0);
  }
  g_assert_cmpuint (n_emitted, ==, 0);
}

static void
test_screenshots (void)
{
  TvCallTree *tree;
  const TvFunctionRow *rows;
  guint n_rows;

  guint32 best = TV_NODE_NONE;
  guint best_relations = 0;

  use_profile ("rec_cpu_mix.tach");
  tree = tv_function_table_get_tree (table);
  rows = tv_call_tree_get_functions (tree, &n_rows);
  g_assert_cmpuint (n_rows, >, 4);
  /* Show a function with many callers and callees. */
  for (guint i = 0; i < MIN (n_rows, 12); i++)
    {
      g_autoptr(GListModel) callers = NULL;
      g_autoptr(GListModel) callees = NULL;
      guint n;

      tv_function_table_select_function (table, rows[i].function);
      settle (table);
      callers = tv_function_table_list_callers (table);
      callees = tv_function_table_list_callees (table);
      n = g_list_model_get_n_items (callers) + g_list_model_get_n_items (callees);
      if (n > best_relations)
        best = rows[i].function, best_relations = n;
    }
  tv_function_table_select_function (table, best);
  settle (table);

  adw_style_manager_set_color_scheme (adw_style_manager_get_default (),
                                      ADW_COLOR_SCHEME_FORCE_LIGHT);
  save_screenshot (GTK_WIDGET (window), "function-table-light.png");
  adw_style_manager_set_color_scheme (adw_style_manager_get_default (),
                                      ADW_COLOR_SCHEME_FORCE_DARK);
  save_screenshot (GTK_WIDGET (window), "function-table-dark.png");
  adw_style_manager_set_color_scheme (adw_style_manager_get_default (),
                                      ADW_COLOR_SCHEME_DEFAULT);
}

/* A profile of N_MANY functions, each its own leaf under one of a few
 * hundred callers, written by the format library's writer. */
#define N_MANY 100000u

static char *
write_many_functions (const char *dir)
{
  char *path = g_build_filename (dir, "many.tach", NULL);
  TachWriter *writer = NULL;
  TachError error;
  g_autofree guint32 *frames = g_new (guint32, N_MANY);
  guint32 root;

  writer = format_test_writer_new (path, FALSE);
  {
    TachFrameInfo info = { "/srv/many/main.py", "<module>", 1, -1, -1, -1, TACH_OPCODE_NONE };

    format_test_intern_frames (writer, &info, 1, &root);
  }
  for (guint i = 0; i < N_MANY; i++)
    {
      g_autofree char *funcname = g_strdup_printf ("function_%06u", i);
      g_autofree char *filename = g_strdup_printf ("/srv/many/package_%03u/module_%u.py",
                                                   i % 500, i % 7);
      TachFrameInfo info = { filename, funcname, (int32_t) (i % 1000) + 1, -1, -1, -1,
                             TACH_OPCODE_NONE };

      format_test_intern_frames (writer, &info, 1, &frames[i]);
    }
  for (guint i = 0; i < N_MANY; i++)
    for (guint repeat = 0; repeat <= i % 3; repeat++)
      {
        /* Innermost first: function i, called by one of 300 "callers"
         * (directly by the module when it is one of them). */
        guint32 caller = frames[(i * 7919u) % 300];
        guint32 stack[3] = { frames[i], caller, root };
        gsize depth = 3;

        if (caller == frames[i])
          stack[1] = root, depth = 2;
        if (tach_writer_add_sample (writer, 1, 0, 1000000 + i * 1000ull + repeat,
                                    TACH_STATUS_HAS_GIL | TACH_STATUS_ON_CPU, stack,
                                    depth, &error) != TACH_OK)
          g_error ("%s", error.message);
      }
  format_test_writer_finish (writer);
  return path;
}

/* Spins until the table settles; returns the longest single main loop
 * iteration, in µs. */
static gint64
settle_measuring (TvFunctionTable *t)
{
  gint64 longest = 0;
  gboolean timed_out = FALSE;
  guint id = g_timeout_add (120000, ui_test_on_timeout, &timed_out);

  while (tv_function_table_is_busy (t) && !timed_out)
    {
      gint64 start = g_get_monotonic_time ();

      g_main_context_iteration (NULL, TRUE);
      longest = MAX (longest, g_get_monotonic_time () - start);
    }
  if (!timed_out)
    g_source_remove (id);
  g_assert_false (timed_out);
  return longest;
}

static void
test_many_functions (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("tv-test-function-table-XXXXXX", &error);
  g_autofree char *path = NULL;
  g_autoptr(TvProfile) many = NULL;
  g_autoptr(TvViewState) many_state = NULL;
  g_autoptr(TvCallTree) tree = NULL;
  g_autoptr(GListModel) rows = NULL;
  TvFunctionTable *t;
  gint64 start, set_tree_us, longest;
  guint32 function;

  g_assert_no_error (error);
  path = write_many_functions (dir);
  many = ui_test_load_profile (path);
  many_state = tv_view_state_new ();
  tree = ui_test_state_tree (many, many_state, FALSE);

  t = TV_FUNCTION_TABLE (tv_function_table_new (many, many_state));
  gtk_window_set_child (window, GTK_WIDGET (t));
  table = NULL;
  ui_test_spin (50);

  start = g_get_monotonic_time ();
  tv_function_table_set_tree (t, tree);
  set_tree_us = g_get_monotonic_time () - start;
  longest = settle_measuring (t);
  g_test_message ("%u functions: set_tree %" G_GINT64_FORMAT " µs, longest main loop "
                  "iteration while settling %" G_GINT64_FORMAT " µs",
                  N_MANY + 1, set_tree_us, longest);
  g_assert_cmpuint (check_rows_equal_model (t, tree), ==, N_MANY + 1);

  start = g_get_monotonic_time ();
  tv_function_table_sort_by_column (t, TV_FUNCTION_COLUMN_SELF, GTK_SORT_ASCENDING);
  longest = settle_measuring (t);
  g_test_message ("sort by self: %" G_GINT64_FORMAT " µs in all, longest iteration %"
                  G_GINT64_FORMAT " µs", g_get_monotonic_time () - start, longest);
  rows = tv_function_table_list_rows (t);
  for (guint i = 1; i < N_MANY + 1; i++)
    g_assert_cmpuint (tv_function_item_get_self (get_row (rows, i - 1)), <=,
                      tv_function_item_get_self (get_row (rows, i)));

  start = g_get_monotonic_time ();
  tv_function_table_set_search (t, "function_0999");
  longest = settle_measuring (t);
  g_test_message ("search: %" G_GINT64_FORMAT " µs in all, longest iteration %"
                  G_GINT64_FORMAT " µs", g_get_monotonic_time () - start, longest);
  /* function_099900 to function_099999. */
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, 100);

  /* The callers of one of the 300 callers' callees. */
  function = tv_function_item_get_function (get_row (rows, 0));
  tv_function_table_select_function (t, function);
  longest = settle_measuring (t);
  g_test_message ("callers and callees: longest iteration %" G_GINT64_FORMAT " µs", longest);
  check_relations (t, tree, function);

  gtk_window_set_child (window, NULL);
  g_unlink (path);
  g_rmdir (dir);
}

/* ------------------------------------------------------------------------ */
/* Names with control and bidirectional characters                           */
/* ------------------------------------------------------------------------ */

#define HOSTILE_NAME "two\nlines\tand \u202egnp.exe"
#define HOSTILE_FILE "/srv/app/\u2066yp.live\r\n.py"
#define HOSTILE_NAME_SHOWN "two\u240alines\u2409and [U+202E]gnp.exe"
#define HOSTILE_BASENAME_SHOWN "[U+2066]yp.live\u240d\u240a.py"

/* <module> calls a function with a hostile name and file (which has more
 * samples), and a plain one, written by the format library's writer. */
static char *
write_hostile_names (const char *dir)
{
  char *path = g_build_filename (dir, "hostile.tach", NULL);
  const TachFrameInfo infos[] = {
    { "/srv/app/main.py", "<module>", 1, -1, -1, -1, TACH_OPCODE_NONE },
    { HOSTILE_FILE, HOSTILE_NAME, 2, -1, -1, -1, TACH_OPCODE_NONE },
    { "/srv/app/plain.py", "plain", 3, -1, -1, -1, TACH_OPCODE_NONE },
  };

  format_test_write_two_callees (path, infos);
  return path;
}

/* The label under WIDGET that shows TEXT, which must be there. */
static GtkWidget *
find_label (GtkWidget  *widget,
            const char *text)
{
  g_autoptr(GPtrArray) labels = g_ptr_array_new ();

  ui_test_collect_widgets (widget, GTK_TYPE_LABEL, labels);
  for (guint i = 0; i < labels->len; i++)
    if (g_strcmp0 (gtk_label_get_text (labels->pdata[i]), text) == 0)
      return labels->pdata[i];
  g_error ("no label shows “%s”", text);
  return NULL;
}

/* No label of the table obeys a control or bidirectional character of a
 * name: only the table's own texts break lines. */
static void
check_nothing_obeyed (GtkWidget *widget)
{
  g_autoptr(GPtrArray) labels = g_ptr_array_new ();

  ui_test_collect_widgets (widget, GTK_TYPE_LABEL, labels);
  for (guint i = 0; i < labels->len; i++)
    {
      const char *text = gtk_label_get_text (labels->pdata[i]);

      g_assert_null (strpbrk (text, "\t\r"));
      g_assert_null (strstr (text, "\u202e"));
      g_assert_null (strstr (text, "\u2066"));
      if (strchr (text, '\n') != NULL)
        g_error ("a label breaks a line: “%s”", text);
    }
}

static void
test_hostile_names (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("tv-test-function-table-XXXXXX", &error);
  g_autofree char *path = NULL;
  g_autoptr(TvProfile) hostile = NULL;
  g_autoptr(TvViewState) hostile_state = NULL;
  g_autoptr(TvCallTree) tree = NULL;
  GtkWidget *name_cell, *plain_cell, *file_cell, *callee_cell;
  TvFunctionTable *t;
  guint32 module = TV_NODE_NONE, function = TV_NODE_NONE;
  const TvFunctionRow *rows;
  guint n_rows;

  g_assert_no_error (error);
  path = write_hostile_names (dir);
  hostile = ui_test_load_profile (path);
  hostile_state = tv_view_state_new ();
  tree = ui_test_state_tree (hostile, hostile_state, FALSE);
  t = TV_FUNCTION_TABLE (tv_function_table_new (hostile, hostile_state));
  gtk_window_set_child (window, GTK_WIDGET (t));
  table = NULL;
  tv_function_table_set_tree (t, tree);
  settle (t);
  check_rows_equal_model (t, tree);

  /* The cells: one line each, as tall as a plain name's. */
  name_cell = find_label (GTK_WIDGET (get_column_view (t, 0)), HOSTILE_NAME_SHOWN);
  plain_cell = find_label (GTK_WIDGET (get_column_view (t, 0)), "plain");
  file_cell = find_label (GTK_WIDGET (get_column_view (t, 0)), HOSTILE_BASENAME_SHOWN);
  g_assert_cmpint (gtk_widget_get_height (name_cell), >, 0);
  g_assert_cmpint (gtk_widget_get_height (name_cell), ==, gtk_widget_get_height (plain_cell));
  g_assert_cmpint (gtk_widget_get_height (file_cell), ==, gtk_widget_get_height (plain_cell));
  check_nothing_obeyed (GTK_WIDGET (t));

  /* The heading of the selected function, its file as the tooltip; and
   * the function as <module>'s callee. */
  rows = tv_call_tree_get_functions (tree, &n_rows);
  for (guint i = 0; i < n_rows; i++)
    {
      TvProfileData *data = tv_call_tree_get_data (tree);
      guint32 frame = tv_profile_data_get_key_frame (data, TV_MERGE_FUNCTION, rows[i].function);
      const char *name = tv_profile_data_get_funcname (data, frame);

      if (strcmp (name, HOSTILE_NAME) == 0)
        function = rows[i].function;
      else if (strcmp (name, "<module>") == 0)
        module = rows[i].function;
    }
  g_assert_cmpuint (function, !=, TV_NODE_NONE);
  g_assert_cmpuint (module, !=, TV_NODE_NONE);
  tv_function_table_select_function (t, function);
  settle (t);
  {
    g_autoptr(GPtrArray) labels = g_ptr_array_new ();
    gboolean found = FALSE;

    /* The heading is outside the three column views. */
    ui_test_collect_widgets (GTK_WIDGET (t), GTK_TYPE_LABEL, labels);
    for (guint i = 0; i < labels->len; i++)
      if (gtk_widget_get_ancestor (labels->pdata[i], GTK_TYPE_COLUMN_VIEW) == NULL
          && g_strcmp0 (gtk_label_get_text (labels->pdata[i]), HOSTILE_NAME_SHOWN) == 0)
        {
          g_assert_cmpstr (gtk_widget_get_tooltip_text (labels->pdata[i]), ==,
                           "/srv/app/[U+2066]yp.live\u240d\u240a.py");
          found = TRUE;
        }
    g_assert_true (found);
  }
  check_nothing_obeyed (GTK_WIDGET (t));

  tv_function_table_select_function (t, module);
  settle (t);
  callee_cell = find_label (GTK_WIDGET (get_column_view (t, 2)), HOSTILE_NAME_SHOWN);
  g_assert_cmpint (gtk_widget_get_height (callee_cell), ==,
                   gtk_widget_get_height (find_label (GTK_WIDGET (get_column_view (t, 2)),
                                                      "plain")));
  check_nothing_obeyed (GTK_WIDGET (t));

  tv_function_table_select_function (t, function);
  settle (t);
  adw_style_manager_set_color_scheme (adw_style_manager_get_default (),
                                      ADW_COLOR_SCHEME_FORCE_LIGHT);
  save_screenshot (GTK_WIDGET (window), "function-table-hostile-light.png");
  adw_style_manager_set_color_scheme (adw_style_manager_get_default (),
                                      ADW_COLOR_SCHEME_FORCE_DARK);
  save_screenshot (GTK_WIDGET (window), "function-table-hostile-dark.png");
  adw_style_manager_set_color_scheme (adw_style_manager_get_default (),
                                      ADW_COLOR_SCHEME_DEFAULT);

  /* The flame graph's tooltip shows them as the table does. */
  {
    TvFlameGraph *graph = TV_FLAME_GRAPH (tv_flame_graph_new ());
    g_autofree char *tip = NULL;
    guint32 node = TV_NODE_NONE;
    double x, y;

    for (guint32 n = 1; n < tv_call_tree_get_n_nodes (tree); n++)
      if (tv_call_tree_get_function (tree, n) == function)
        node = n;
    g_assert_cmpuint (node, !=, TV_NODE_NONE);
    gtk_window_set_child (window, GTK_WIDGET (graph));
    tv_flame_graph_set_tree (graph, tree);
    WAIT_UNTIL (tv_flame_graph_get_layout (graph) != NULL && !tv_flame_graph_is_laying_out (graph)
                && ui_test_node_center (graph, node, &x, &y), 20000);
    tip = tv_flame_graph_describe_at (graph, x, y);
    g_assert_nonnull (tip);
    g_assert_true (g_str_has_prefix (tip, HOSTILE_NAME_SHOWN "\n" "/srv/app/[U+2066]yp.live"));
    g_assert_null (strstr (tip, "\u202e"));
    g_assert_null (strstr (tip, "\u2066"));
    g_assert_null (strstr (tip, "\t"));
  }

  gtk_window_set_child (window, NULL);
  g_unlink (path);
  g_rmdir (dir);
}

int
main (int   argc,
      char *argv[])
{
  int ret;

  if (!ui_test_init (&argc, &argv))
    return 77;

  window = ui_test_window_new (360, 760);

  /* The tests share the window and run in this order. */
  g_test_add_func ("/function-table/rows", test_rows);
  g_test_add_func ("/function-table/layout", test_layout);
  g_test_add_func ("/function-table/sort", test_sort);
  g_test_add_func ("/function-table/search", test_search);
  g_test_add_func ("/function-table/select", test_select);
  g_test_add_func ("/function-table/relations", test_relations);
  g_test_add_func ("/function-table/relations-stale", test_relations_stale);
  g_test_add_func ("/function-table/activate-relation", test_activate_relation);
  g_test_add_func ("/function-table/new-tree", test_new_tree);
  g_test_add_func ("/function-table/screenshots", test_screenshots);
  g_test_add_func ("/function-table/many-functions", test_many_functions);
  g_test_add_func ("/function-table/hostile-names", test_hostile_names);

  ret = g_test_run ();

  gtk_window_destroy (window);
  g_clear_object (&state);
  g_clear_object (&profile);
  g_free (table_profile);
  return ret;
}
