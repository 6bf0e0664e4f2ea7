/* tv-call-tree-view.c: the call tree, top-down or bottom-up
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A GtkColumnView over a GtkTreeListModel of TvCallNode rows, through a
 * GtkSingleSelection.  The tree list model asks for a row's children only
 * when the row is expanded, and they are made and sorted then, one level
 * at a time: a tree of twenty million nodes costs its top-level rows
 * until it is opened.  A click on a column header sorts the rows again,
 * keeping those open open.
 *
 * Top-down lists the flame graph's own tree, so that a row and a frame are
 * the same node; bottom-up lists the inverted tree of the same query, which
 * the model computes on a worker (with a cancellable and a generation
 * number, so that a late tree never replaces a newer one) while the old
 * rows stay.  The search walks the listed tree on a worker in the same
 * way.
 */
#include <string.h>

#include <glib/gi18n.h>

#include "tv-call-node.h"
#include "tv-column-view-scroll.h"
#include "tv-search-entry-text.h"
#include "tv-call-tree-view.h"
#include "tv-text.h"
#include "tv-units.h"
#include "tv-worker.h"
#include "tv-call-tree-view-private.h"

G_DEFINE_FINAL_TYPE (TvCallTreeView, tv_call_tree_view, ADW_TYPE_BIN)

enum {
  PROP_0,
  PROP_BOTTOM_UP,
  PROP_SELECTED_NODE,
  PROP_TREE,
  N_PROPS
};

enum {
  NODE_SELECTED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

/* ------------------------------------------------------------------------ */
/* Rows, selection and scrolling                                             */
/* ------------------------------------------------------------------------ */

/* Ties go by node, so that the order is the same every time. */
static int
compare_children (gconstpointer a,
                  gconstpointer b,
                  gpointer      user_data)
{
  TvCallNode *x = *(TvCallNode **) a, *y = *(TvCallNode **) b;
  GtkOrdering order = gtk_sorter_compare (user_data, x, y);
  guint32 nx, ny;

  if (order != GTK_ORDERING_EQUAL)
    return order;
  nx = tv_call_node_get_node (x);
  ny = tv_call_node_get_node (y);
  return (nx > ny) - (nx < ny);
}

/* The children of NODE, sorted as the column view's sorter says, or NULL
 * for none.  Made only when a row is expanded: a tree of millions of
 * nodes costs its top level until it is opened. */
static GListModel *
list_children (TvCallTreeView *self,
               TvCallTree     *tree,
               guint32         node)
{
  g_autoptr(GPtrArray) items = NULL;
  const guint32 *children;
  GListStore *store;
  guint n_children;

  if (node == TV_NODE_NONE)
    return NULL;
  children = tv_call_tree_get_children (tree, node, &n_children);
  if (n_children == 0 && tv_call_tree_get_remainder (tree, node) == 0)
    return NULL;
  items = g_ptr_array_new_full (n_children + 1, g_object_unref);
  for (guint i = 0; i < n_children; i++)
    g_ptr_array_add (items, tv_call_node_new (tree, children[i]));
  /* What the tree left out, as one row. */
  if (tv_call_tree_get_remainder (tree, node) > 0)
    g_ptr_array_add (items, tv_call_node_new_remainder (tree, node));
  g_ptr_array_sort_with_data (items, compare_children,
                              gtk_column_view_get_sorter (self->column_view));
  store = g_list_store_new (TV_TYPE_CALL_NODE);
  g_list_store_splice (store, 0, 0, items->pdata, items->len);
  return G_LIST_MODEL (store);
}

static GListModel *
create_children (gpointer item,
                 gpointer user_data)
{
  TvCallNode *node = item;

  return list_children (user_data, tv_call_node_get_tree (node), tv_call_node_get_node (node));
}

/* Where NODE is in CHILDREN, a list of TvCallNode, or G_MAXUINT. */
static guint
find_child (GListModel *children,
            guint32     node)
{
  guint n = children != NULL ? g_list_model_get_n_items (children) : 0;

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(TvCallNode) item = g_list_model_get_item (children, i);

      if (tv_call_node_get_node (item) == node)
        return i;
    }
  return G_MAXUINT;
}

static void
set_selected (TvCallTreeView *self,
              guint32         node)
{
  if (self->selected == node)
    return;
  self->selected = node;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED_NODE]);
}

static GtkTreeExpander *
find_expander (GtkWidget *widget,
               guint32    node)
{
  if (GTK_IS_TREE_EXPANDER (widget))
    {
      GtkTreeListRow *row = gtk_tree_expander_get_list_row (GTK_TREE_EXPANDER (widget));
      g_autoptr(TvCallNode) item = row != NULL ? gtk_tree_list_row_get_item (row) : NULL;

      return item != NULL && tv_call_node_get_node (item) == node ? GTK_TREE_EXPANDER (widget)
                                                                  : NULL;
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

/* A deep row's name starts past the right edge (the numbers come first):
 * once the row is laid out, the view scrolls sideways to put the name in
 * the middle. */
static gboolean
reveal_name (gpointer data)
{
  TvCallTreeView *self = data;
  GtkWidget *view = GTK_WIDGET (self->column_view);
  GtkAdjustment *adjustment = gtk_scrollable_get_hadjustment (GTK_SCROLLABLE (view));
  GtkTreeExpander *expander = find_expander (view, self->reveal_node);
  double width = gtk_widget_get_width (view);
  graphene_point_t at;

  /* Until the name shows: the row is bound and in place once the frames
   * that expand and scroll to it are laid out, and the column widens to
   * the row's indent then too, which the scroll may wait for. */
  if (expander != NULL && adjustment != NULL && width > 0
      && gtk_widget_compute_point (gtk_tree_expander_get_child (expander), view,
                                   &GRAPHENE_POINT_INIT (0, 0), &at))
    {
      /* In view three times running: the layout has settled. */
      if (at.x >= 0 && at.x <= width - 48)
        {
          if (++self->reveal_shown == 3)
            {
              self->reveal_source = 0;
              return G_SOURCE_REMOVE;
            }
        }
      else
        {
          self->reveal_shown = 0;
          gtk_adjustment_set_value (adjustment, gtk_adjustment_get_value (adjustment) + at.x
                                                - width / 2);
        }
    }
  if (++self->reveal_tries < 120)
    return G_SOURCE_CONTINUE;
  self->reveal_source = 0;
  return G_SOURCE_REMOVE;
}

static void
queue_reveal_name (TvCallTreeView *self,
                   guint32         node)
{
  self->reveal_node = node;
  self->reveal_tries = 0;
  self->reveal_shown = 0;
  if (self->reveal_source == 0)
    self->reveal_source = g_timeout_add_full (G_PRIORITY_LOW, 16, reveal_name, self, NULL);
}

/* Selects the row at POSITION (or none) without emitting. */
static void
select_position (TvCallTreeView *self,
                 guint           position)
{
  self->selecting = TRUE;
  gtk_single_selection_set_selected (self->selection, position);
  self->selecting = FALSE;
}

/* Expands the rows above NODE, scrolls to its row and selects it
 * (SELECT). */
static void
expand_to (TvCallTreeView *self,
           guint32         node,
           gboolean        select)
{
  g_autoptr(GArray) path = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autoptr(GtkTreeListRow) row = NULL;
  guint position;

  if (self->tree == NULL || self->tree_model == NULL)
    return;
  for (guint32 n = node; n != TV_ROOT_NODE && n != TV_NODE_NONE;
       n = tv_call_tree_get_parent (self->tree, n))
    g_array_append_val (path, n);
  for (guint i = path->len; i > 0; i--)
    {
      guint32 n = g_array_index (path, guint32, i - 1);
      GtkTreeListRow *child;
      guint index;

      if (row == NULL)
        {
          index = find_child (gtk_tree_list_model_get_model (self->tree_model), n);
          child = index == G_MAXUINT ? NULL
                                     : gtk_tree_list_model_get_child_row (self->tree_model, index);
        }
      else
        {
          index = find_child (gtk_tree_list_row_get_children (row), n);
          child = index == G_MAXUINT ? NULL : gtk_tree_list_row_get_child_row (row, index);
        }
      if (child == NULL)
        return;
      g_clear_object (&row);
      row = child;
      if (i > 1)
        gtk_tree_list_row_set_expanded (row, TRUE);
    }
  position = row != NULL ? gtk_tree_list_row_get_position (row) : GTK_INVALID_LIST_POSITION;
  if (select)
    select_position (self, position);
  if (position != GTK_INVALID_LIST_POSITION)
    {
      /* Always asked: the rows' heights cannot tell whether the row shows
       * (the rows just expanded are not laid out yet). */
      tv_column_view_scroll_to_row (self->column_view, position);
      queue_reveal_name (self, node);
    }
}

static void
on_selected_item_changed (GtkSingleSelection *selection,
                          GParamSpec         *pspec,
                          TvCallTreeView     *self)
{
  GtkTreeListRow *row = gtk_single_selection_get_selected_item (selection);
  g_autoptr(TvCallNode) item = NULL;
  guint32 node;

  /* No row: it was collapsed away or the tree replaced; the node stays
   * selected. */
  if (self->selecting || row == NULL)
    return;
  item = gtk_tree_list_row_get_item (row);
  /* The frames left out are no frame of the graph. */
  if (tv_call_node_is_remainder (item, NULL))
    return;
  node = tv_call_node_get_node (item);
  if (node == self->selected)
    return;
  set_selected (self, node);
  g_signal_emit (self, signals[NODE_SELECTED], 0, node);
}

/* A new model of the rows of TREE, sorted anew, in place of the old one. */
static void
replace_model (TvCallTreeView *self)
{
  g_autoptr(GListModel) roots = list_children (self, self->tree, TV_ROOT_NODE);
  g_autoptr(GtkTreeListModel) old = g_steal_pointer (&self->tree_model);

  if (roots == NULL)
    roots = G_LIST_MODEL (g_list_store_new (TV_TYPE_CALL_NODE));
  self->tree_model = gtk_tree_list_model_new (g_steal_pointer (&roots), FALSE, FALSE,
                                              create_children, self, NULL);
  self->selecting = TRUE;
  /* Through an empty list, as the function table does: GTK 4.8's column
   * view would otherwise look up every new row among those it shows. */
  gtk_single_selection_set_model (self->selection, NULL);
  gtk_single_selection_set_model (self->selection, G_LIST_MODEL (self->tree_model));
  self->selecting = FALSE;
}

/* Lists TREE. */
static void
set_tree (TvCallTreeView *self,
          TvCallTree     *tree)
{
  if (tree != self->tree)
    {
      g_clear_pointer (&self->tree, tv_call_tree_unref);
      self->tree = tv_call_tree_ref (tree);
    }
  replace_model (self);
  set_selected (self, TV_NODE_NONE);
  gtk_stack_set_visible_child_name (self->stack, tv_call_tree_get_n_samples (tree) > 0
                                                 ? "tree" : "empty");
  tv_call_tree_view_update_status (self);
  tv_call_tree_view_start_search (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TREE]);
}

/* ------------------------------------------------------------------------ */
/* The tree of the other direction                                           */
/* ------------------------------------------------------------------------ */

typedef struct
{
  TvCallTreeView *self;
  guint           generation;
} TreeCall;

static void
stop_tree_query (TvCallTreeView *self)
{
  tv_worker_cancel (&self->tree_worker);
}

void
tv_call_tree_view_update_spinner (TvCallTreeView *self)
{
  if (tv_worker_is_busy (&self->tree_worker) || tv_worker_is_busy (&self->search_worker))
    gtk_spinner_start (self->spinner);
  else
    gtk_spinner_stop (self->spinner);
}

static void
tree_done (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  TreeCall *call = user_data;
  g_autoptr(TvCallTreeView) self = call->self;
  guint generation = call->generation;
  g_autoptr(TvCallTree) tree = NULL;
  g_autoptr(GError) error = NULL;

  g_free (call);
  tree = tv_profile_query_finish (TV_PROFILE (object), result, &error);
  /* Another tree was asked for meanwhile: this one is stale. */
  if (!tv_worker_is_current (&self->tree_worker, generation))
    return;
  tv_worker_end (&self->tree_worker);
  tv_call_tree_view_update_spinner (self);
  if (tree == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        gtk_label_set_text (self->status_label, error->message);
      return;
    }
  set_tree (self, tree);
}

/* Lists the graph's tree when it goes the chosen way, or asks the model
 * for the tree of the same samples the other way. */
static void
update_tree (TvCallTreeView *self)
{
  GCancellable *cancellable;
  TreeCall *call;
  TvQuery query;

  stop_tree_query (self);
  self->stale = FALSE;
  if (self->graph_tree == NULL)
    {
      tv_call_tree_view_update_spinner (self);
      return;
    }
  if (tv_call_tree_get_inverted (self->graph_tree) == self->bottom_up)
    {
      tv_call_tree_view_update_spinner (self);
      if (self->tree != self->graph_tree)
        set_tree (self, self->graph_tree);
      return;
    }
  cancellable = tv_worker_begin (&self->tree_worker);
  call = g_new0 (TreeCall, 1);
  call->self = g_object_ref (self);
  call->generation = self->tree_worker.generation;
  tv_view_state_to_query (self->state, &query);
  query.merge = tv_call_tree_get_merge (self->graph_tree);
  query.inverted = self->bottom_up;
  query.count_states = FALSE;
  query.count_threads = FALSE;
  /* As the graph: a big profile's list leaves out what is under
   * 1/20,000 of the samples (one row says so), and the tree takes the
   * graph's function table where it can (an inverted one is then turned
   * over from the exact tree). */
  query.min_total = tv_profile_data_get_n_samples (tv_profile_get_data (self->profile))
                    / TV_QUERY_DETAIL_DIVISOR;
  query.functions_of = self->graph_tree;
  tv_profile_query_async (self->profile, &query, cancellable, tree_done, call);
  tv_call_tree_view_update_spinner (self);
}

/* ------------------------------------------------------------------------ */
void
tv_call_tree_view_show_match (TvCallTreeView *self)
{
  guint32 node;

  if (self->matches == NULL || self->matches->len == 0)
    return;
  node = g_array_index (self->matches, guint32, self->match_index);
  expand_to (self, node, TRUE);
  set_selected (self, node);
  tv_call_tree_view_update_status (self);
  g_signal_emit (self, signals[NODE_SELECTED], 0, node);
}

static void
on_search_changed (GtkSearchEntry *entry,
                   TvCallTreeView *self)
{
  tv_call_tree_view_set_search (self, gtk_editable_get_text (GTK_EDITABLE (entry)));
}

static void
on_search_activate (GtkSearchEntry *entry,
                    TvCallTreeView *self)
{
  tv_call_tree_view_next_match (self, FALSE);
}

static void
on_search_next (GtkSearchEntry *entry,
                TvCallTreeView *self)
{
  tv_call_tree_view_next_match (self, FALSE);
}

static void
on_search_previous (GtkSearchEntry *entry,
                    TvCallTreeView *self)
{
  tv_call_tree_view_next_match (self, TRUE);
}

static void
on_direction_toggled (TvCallTreeView *self)
{
  tv_call_tree_view_set_bottom_up (self, gtk_toggle_button_get_active (self->bottom_up_button));
}

/* A click on a column's header: the rows are sorted again, each level
 * among itself, with the same rows open and the same one selected. */
static void
on_sorter_changed (TvCallTreeView *self)
{
  g_autoptr(GHashTable) expanded = g_hash_table_new (NULL, NULL);
  GListModel *rows;
  guint n;

  if (self->tree == NULL || self->tree_model == NULL)
    return;
  rows = G_LIST_MODEL (self->tree_model);
  n = g_list_model_get_n_items (rows);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(GtkTreeListRow) row = g_list_model_get_item (rows, i);
      g_autoptr(TvCallNode) item = gtk_tree_list_row_get_item (row);

      if (gtk_tree_list_row_get_expanded (row))
        g_hash_table_add (expanded, GUINT_TO_POINTER (tv_call_node_get_node (item)));
    }
  replace_model (self);
  /* A row opened adds its children below it, where the loop goes next. */
  rows = G_LIST_MODEL (self->tree_model);
  for (guint i = 0; g_hash_table_size (expanded) > 0 && i < g_list_model_get_n_items (rows); i++)
    {
      g_autoptr(GtkTreeListRow) row = g_list_model_get_item (rows, i);
      g_autoptr(TvCallNode) item = gtk_tree_list_row_get_item (row);

      if (g_hash_table_remove (expanded, GUINT_TO_POINTER (tv_call_node_get_node (item))))
        gtk_tree_list_row_set_expanded (row, TRUE);
    }
  if (self->selected != TV_NODE_NONE)
    expand_to (self, self->selected, TRUE);
}

/* ------------------------------------------------------------------------ */
/* Public API                                                                */
/* ------------------------------------------------------------------------ */

GtkWidget *
tv_call_tree_view_new (TvProfile   *profile,
                       TvViewState *state)
{
  TvCallTreeView *self;

  g_return_val_if_fail (TV_IS_PROFILE (profile), NULL);
  g_return_val_if_fail (tv_profile_get_data (profile) != NULL, NULL);
  g_return_val_if_fail (TV_IS_VIEW_STATE (state), NULL);

  self = g_object_new (TV_TYPE_CALL_TREE_VIEW, NULL);
  self->profile = g_object_ref (profile);
  self->state = g_object_ref (state);
  tv_call_tree_view_update_status (self);
  return GTK_WIDGET (self);
}

TvCallTree *
tv_call_tree_view_get_graph_tree (TvCallTreeView *self)
{
  g_return_val_if_fail (TV_IS_CALL_TREE_VIEW (self), NULL);

  return self->graph_tree;
}

void
tv_call_tree_view_set_graph_tree (TvCallTreeView *self,
                                  TvCallTree     *tree)
{
  g_return_if_fail (TV_IS_CALL_TREE_VIEW (self));
  g_return_if_fail (tree != NULL);

  if (tree == self->graph_tree)
    return;
  g_clear_pointer (&self->graph_tree, tv_call_tree_unref);
  self->graph_tree = tv_call_tree_ref (tree);
  /* The graph's own tree costs nothing to list; the other way waits until
   * the view is shown. */
  if (gtk_widget_get_mapped (GTK_WIDGET (self))
      || tv_call_tree_get_inverted (tree) == self->bottom_up)
    update_tree (self);
  else
    {
      stop_tree_query (self);
      self->stale = TRUE;
    }
}

TvCallTree *
tv_call_tree_view_get_tree (TvCallTreeView *self)
{
  g_return_val_if_fail (TV_IS_CALL_TREE_VIEW (self), NULL);

  return self->tree;
}

gboolean
tv_call_tree_view_shows_graph_tree (TvCallTreeView *self)
{
  g_return_val_if_fail (TV_IS_CALL_TREE_VIEW (self), FALSE);

  return self->tree != NULL && self->tree == self->graph_tree;
}

gboolean
tv_call_tree_view_get_bottom_up (TvCallTreeView *self)
{
  g_return_val_if_fail (TV_IS_CALL_TREE_VIEW (self), FALSE);

  return self->bottom_up;
}

void
tv_call_tree_view_set_bottom_up (TvCallTreeView *self,
                                 gboolean        bottom_up)
{
  g_return_if_fail (TV_IS_CALL_TREE_VIEW (self));

  bottom_up = !!bottom_up;
  if (self->bottom_up == bottom_up)
    return;
  self->bottom_up = bottom_up;
  gtk_toggle_button_set_active (bottom_up ? self->bottom_up_button : self->top_down_button, TRUE);
  update_tree (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BOTTOM_UP]);
}

guint32
tv_call_tree_view_get_selected_node (TvCallTreeView *self)
{
  g_return_val_if_fail (TV_IS_CALL_TREE_VIEW (self), TV_NODE_NONE);

  return self->selected;
}

void
tv_call_tree_view_select_node (TvCallTreeView *self,
                               guint32         node)
{
  g_return_if_fail (TV_IS_CALL_TREE_VIEW (self));
  g_return_if_fail (node == TV_NODE_NONE
                    || (self->tree != NULL && node < tv_call_tree_get_n_nodes (self->tree)));

  if (node == TV_ROOT_NODE)
    node = TV_NODE_NONE;
  if (node == TV_NODE_NONE)
    select_position (self, GTK_INVALID_LIST_POSITION);
  else
    expand_to (self, node, TRUE);
  set_selected (self, node);
}

void
tv_call_tree_view_select_function (TvCallTreeView *self,
                                   guint32         function)
{
  const guint32 *children;
  guint n_children;
  guint32 best = TV_NODE_NONE;

  g_return_if_fail (TV_IS_CALL_TREE_VIEW (self));

  if (self->tree == NULL)
    return;
  children = tv_call_tree_get_children (self->tree, TV_ROOT_NODE, &n_children);
  for (guint i = 0; function != TV_NODE_NONE && i < n_children; i++)
    if (tv_call_tree_get_function (self->tree, children[i]) == function
        && (best == TV_NODE_NONE
            || tv_call_tree_get_total (self->tree, children[i])
               > tv_call_tree_get_total (self->tree, best)))
      best = children[i];
  tv_call_tree_view_select_node (self, best);
}

void
tv_call_tree_view_reveal_node (TvCallTreeView *self,
                               guint32         node)
{
  g_return_if_fail (TV_IS_CALL_TREE_VIEW (self));
  g_return_if_fail (self->tree != NULL && node < tv_call_tree_get_n_nodes (self->tree));

  if (node != TV_ROOT_NODE)
    expand_to (self, node, FALSE);
}

const char *
tv_call_tree_view_get_search (TvCallTreeView *self)
{
  g_return_val_if_fail (TV_IS_CALL_TREE_VIEW (self), NULL);

  return self->search != NULL ? self->search : "";
}

void
tv_call_tree_view_set_search (TvCallTreeView *self,
                              const char     *text)
{
  g_return_if_fail (TV_IS_CALL_TREE_VIEW (self));
  g_return_if_fail (text != NULL);

  if (g_strcmp0 (tv_call_tree_view_get_search (self), text) == 0)
    return;
  g_free (self->search);
  self->search = g_strdup (text);
  tv_search_entry_show_text (self->search_entry, text, on_search_changed, self);
  tv_call_tree_view_start_search (self);
}

const guint32 *
tv_call_tree_view_get_matches (TvCallTreeView *self,
                               guint          *n_matches)
{
  g_return_val_if_fail (TV_IS_CALL_TREE_VIEW (self), NULL);
  g_return_val_if_fail (n_matches != NULL, NULL);

  if (self->matches == NULL)
    {
      *n_matches = 0;
      return NULL;
    }
  *n_matches = self->matches->len;
  return (const guint32 *) (gpointer) self->matches->data;
}

void
tv_call_tree_view_next_match (TvCallTreeView *self,
                              gboolean        backwards)
{
  guint n;

  g_return_if_fail (TV_IS_CALL_TREE_VIEW (self));

  if (self->matches == NULL || self->matches->len == 0)
    return;
  n = self->matches->len;
  self->match_index = backwards ? (self->match_index + n - 1) % n : (self->match_index + 1) % n;
  tv_call_tree_view_show_match (self);
}

void
tv_call_tree_view_sort_by_column (TvCallTreeView   *self,
                                  TvCallTreeColumn  column,
                                  GtkSortType       order)
{
  GtkColumnViewColumn *columns[TV_N_CALL_TREE_COLUMNS];

  g_return_if_fail (TV_IS_CALL_TREE_VIEW (self));
  g_return_if_fail (column < TV_N_CALL_TREE_COLUMNS);

  columns[TV_CALL_TREE_COLUMN_FUNCTION] = self->function_column;
  columns[TV_CALL_TREE_COLUMN_SELF] = self->self_column;
  columns[TV_CALL_TREE_COLUMN_TOTAL] = self->total_column;
  gtk_column_view_sort_by_column (self->column_view, columns[column], order);
}

gboolean
tv_call_tree_view_is_busy (TvCallTreeView *self)
{
  g_return_val_if_fail (TV_IS_CALL_TREE_VIEW (self), FALSE);

  return tv_worker_is_busy (&self->tree_worker) || tv_worker_is_busy (&self->search_worker)
         || self->stale || self->reveal_source != 0;
}

GListModel *
tv_call_tree_view_list_rows (TvCallTreeView *self)
{
  g_return_val_if_fail (TV_IS_CALL_TREE_VIEW (self), NULL);

  return g_object_ref (G_LIST_MODEL (self->tree_model));
}

/* ------------------------------------------------------------------------ */
/* GObject                                                                   */
/* ------------------------------------------------------------------------ */

static void
tv_call_tree_view_map (GtkWidget *widget)
{
  TvCallTreeView *self = TV_CALL_TREE_VIEW (widget);

  GTK_WIDGET_CLASS (tv_call_tree_view_parent_class)->map (widget);
  if (self->stale)
    update_tree (self);
}

static void
tv_call_tree_view_get_property (GObject    *object,
                                guint       prop_id,
                                GValue     *value,
                                GParamSpec *pspec)
{
  TvCallTreeView *self = TV_CALL_TREE_VIEW (object);

  switch (prop_id)
    {
    case PROP_BOTTOM_UP:
      g_value_set_boolean (value, self->bottom_up);
      break;
    case PROP_SELECTED_NODE:
      g_value_set_uint (value, self->selected);
      break;
    case PROP_TREE:
      g_value_set_pointer (value, self->tree);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tv_call_tree_view_set_property (GObject      *object,
                                guint         prop_id,
                                const GValue *value,
                                GParamSpec   *pspec)
{
  TvCallTreeView *self = TV_CALL_TREE_VIEW (object);

  switch (prop_id)
    {
    case PROP_BOTTOM_UP:
      tv_call_tree_view_set_bottom_up (self, g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tv_call_tree_view_dispose (GObject *object)
{
  TvCallTreeView *self = TV_CALL_TREE_VIEW (object);

  /* Results still on their way find a newer generation and drop out. */
  stop_tree_query (self);
  g_clear_handle_id (&self->reveal_source, g_source_remove);
  tv_worker_cancel (&self->search_worker);
  if (self->selection != NULL)
    g_signal_handlers_disconnect_by_data (self->selection, self);
  if (self->column_view != NULL)
    g_signal_handlers_disconnect_by_data (gtk_column_view_get_sorter (self->column_view), self);
  gtk_widget_dispose_template (GTK_WIDGET (self), TV_TYPE_CALL_TREE_VIEW);
  g_clear_object (&self->selection);
  g_clear_object (&self->tree_model);
  g_clear_pointer (&self->matches, g_array_unref);
  g_clear_pointer (&self->tree, tv_call_tree_unref);
  g_clear_pointer (&self->graph_tree, tv_call_tree_unref);
  g_clear_object (&self->state);
  g_clear_object (&self->profile);
  g_clear_pointer (&self->search, g_free);

  G_OBJECT_CLASS (tv_call_tree_view_parent_class)->dispose (object);
}

static void
tv_call_tree_view_class_init (TvCallTreeViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tv_call_tree_view_dispose;
  object_class->get_property = tv_call_tree_view_get_property;
  object_class->set_property = tv_call_tree_view_set_property;
  widget_class->map = tv_call_tree_view_map;

  /**
   * TvCallTreeView:bottom-up:
   *
   * Whether the inverted tree is listed: the functions where samples
   * end, their callers below them.
   */
  properties[PROP_BOTTOM_UP] =
    g_param_spec_boolean ("bottom-up", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /**
   * TvCallTreeView:selected-node:
   *
   * The node of the listed tree whose row is selected, or TV_NODE_NONE.
   */
  properties[PROP_SELECTED_NODE] =
    g_param_spec_uint ("selected-node", NULL, NULL, 0, G_MAXUINT32, TV_NODE_NONE,
                       G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /**
   * TvCallTreeView:tree:
   *
   * The TvCallTree listed (see tv_call_tree_view_get_tree()), notified
   * when another is listed.
   */
  properties[PROP_TREE] =
    g_param_spec_pointer ("tree", NULL, NULL,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * TvCallTreeView::node-selected:
   * @node: a node of the listed tree
   *
   * The user selected a row, or a search match was selected.
   */
  signals[NODE_SELECTED] =
    g_signal_new ("node-selected", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_UINT);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/tachyonviewer/"
                                               "TachyonViewer/ui/tv-call-tree-view.ui");
  gtk_widget_class_bind_template_child (widget_class, TvCallTreeView, search_entry);
  gtk_widget_class_bind_template_child (widget_class, TvCallTreeView, top_down_button);
  gtk_widget_class_bind_template_child (widget_class, TvCallTreeView, bottom_up_button);
  gtk_widget_class_bind_template_child (widget_class, TvCallTreeView, status_label);
  gtk_widget_class_bind_template_child (widget_class, TvCallTreeView, spinner);
  gtk_widget_class_bind_template_child (widget_class, TvCallTreeView, stack);
  gtk_widget_class_bind_template_child (widget_class, TvCallTreeView, column_view);
  gtk_widget_class_bind_template_child (widget_class, TvCallTreeView, function_column);
  gtk_widget_class_bind_template_child (widget_class, TvCallTreeView, self_column);
  gtk_widget_class_bind_template_child (widget_class, TvCallTreeView, total_column);
  gtk_widget_class_set_css_name (widget_class, "calltreeview");
}

static void
tv_call_tree_view_init (TvCallTreeView *self)
{
  GtkSorter *sorter;

  self->selected = TV_NODE_NONE;
  gtk_widget_init_template (GTK_WIDGET (self));

  tv_call_tree_view_set_column (self->function_column, CELL_FUNCTION);
  tv_call_tree_view_set_column (self->self_column, CELL_SELF);
  tv_call_tree_view_set_column (self->total_column, CELL_TOTAL);

  /* Each level is sorted when it is made (list_children()), rather than
   * by a GtkTreeListRowSorter: GTK 4.8's leaks the key of every row deeper
   * than eight levels each time it sorts, and Python stacks are deeper. */
  sorter = gtk_column_view_get_sorter (self->column_view);
  self->selection = gtk_single_selection_new (NULL);
  gtk_single_selection_set_autoselect (self->selection, FALSE);
  gtk_single_selection_set_can_unselect (self->selection, TRUE);
  gtk_column_view_set_model (self->column_view, GTK_SELECTION_MODEL (self->selection));
  gtk_column_view_sort_by_column (self->column_view, self->total_column, GTK_SORT_DESCENDING);

  g_signal_connect (self->selection, "notify::selected-item",
                    G_CALLBACK (on_selected_item_changed), self);
  g_signal_connect_swapped (sorter, "changed", G_CALLBACK (on_sorter_changed), self);
  g_signal_connect (self->search_entry, "search-changed", G_CALLBACK (on_search_changed), self);
  g_signal_connect (self->search_entry, "activate", G_CALLBACK (on_search_activate), self);
  g_signal_connect (self->search_entry, "next-match", G_CALLBACK (on_search_next), self);
  g_signal_connect (self->search_entry, "previous-match", G_CALLBACK (on_search_previous), self);
  g_signal_connect_swapped (self->bottom_up_button, "toggled", G_CALLBACK (on_direction_toggled),
                            self);
}
