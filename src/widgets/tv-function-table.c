/* tv-function-table.c: the function table and the callers and callees
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The table is a GtkColumnView over a chain of list models:
 *
 *   TvLazyList (the tree's function rows) -> GtkSortListModel (the column
 *   view's sorter) -> GtkFilterListModel (the search) -> GtkSingleSelection
 *
 * A profile can have a hundred thousand functions, so nothing here does
 * per-row work up front.  A TvLazyList wraps the tree's own row array and
 * makes each row's item the first time a model asks for it; the sort and
 * filter models are incremental, so their O(n log n) and O(n) passes run
 * in slices of a millisecond from the main loop; the sorters compare the
 * items' fields in C (a function key's rank is its name's order) rather
 * than through GtkExpressions; the search filter says "match all" when
 * the search is empty, so that an empty search costs nothing.  Only the
 * rows on screen get widgets, and the column view recycles them.
 *
 * The callers and callees of the selected function F come from the model
 * (tv_profile_query_async), computed on a worker with the page's view
 * state: the callees from a tree focused on F (rooted at F merged across
 * its call sites, so its node's children are the callees and its self is
 * F's own), the callers from the callers-of-F tree (its node's children
 * are the callers of F's outermost calls).  Both carry a cancellable and a
 * generation number, so a late result never replaces a newer one.
 */
#include <math.h>
#include <string.h>

#include <glib/gi18n.h>

#include "tv-column-view-scroll.h"
#include "tv-function-table-private.h"
#include "tv-lazy-list.h"
#include "tv-search-entry-text.h"
#include "tv-text.h"
#include "tv-units.h"
#include "tv-worker.h"

/* ------------------------------------------------------------------------ */
/* TvFunctionTable                                                           */
/* ------------------------------------------------------------------------ */

typedef enum
{
  RELATION_CALLERS,
  RELATION_CALLEES,
  N_RELATIONS
} Relation;

struct _TvFunctionTable
{
  AdwBin               parent_instance;

  TvProfile           *profile;
  TvViewState         *state;
  TvCallTree          *tree;
  GListModel          *rows;
  guint32              selected;
  char                *search;
  /* The selection is being changed from code: do not emit. */
  gboolean             selecting;
  /* Select the row of the selected function again once the models have
   * settled (after a new tree, search or sort). */
  gboolean             resync;

  TvWorker             relations_worker;
  guint                relations_pending;

  TvRowFilter         *filter;
  GtkSortListModel    *sort_model;
  GtkFilterListModel  *filter_model;
  GtkSingleSelection  *selection;
  GtkSortListModel    *relation_models[N_RELATIONS];

  GtkSearchEntry      *search_entry;
  GtkPaned            *paned;
  /* The user moved the paned's handle: its position is theirs. */
  gboolean             paned_dragged;
  GtkStack            *table_stack;
  GtkColumnView       *table_view;
  GtkColumnViewColumn *name_column;
  GtkColumnViewColumn *self_column;
  GtkColumnViewColumn *total_column;
  GtkColumnViewColumn *file_column;
  GtkLabel            *selected_label;
  GtkLabel            *detail_label;
  GtkSpinner          *spinner;
  GtkColumnView       *callers_view;
  GtkColumnViewColumn *callers_name_column;
  GtkColumnViewColumn *callers_percent_column;
  GtkColumnViewColumn *callers_samples_column;
  GtkColumnView       *callees_view;
  GtkColumnViewColumn *callees_name_column;
  GtkColumnViewColumn *callees_percent_column;
  GtkColumnViewColumn *callees_samples_column;
};

G_DEFINE_FINAL_TYPE (TvFunctionTable, tv_function_table, ADW_TYPE_BIN)

enum {
  PROP_0,
  PROP_SELECTED_FUNCTION,
  N_PROPS
};

enum {
  FUNCTION_SELECTED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

static void start_relations (TvFunctionTable *self);
static void resync_selection (TvFunctionTable *self);

/* ------------------------------------------------------------------------ */
/* The selected function                                                     */
/* ------------------------------------------------------------------------ */

static const TvFunctionRow *
lookup_row (TvFunctionTable *self,
            guint32          function)
{
  const TvFunctionRow *rows;
  guint n_rows;

  if (self->tree == NULL || function == TV_NODE_NONE)
    return NULL;
  rows = tv_call_tree_get_functions (self->tree, &n_rows);
  for (guint i = 0; i < n_rows; i++)
    if (rows[i].function == function)
      return &rows[i];
  return NULL;
}

static void
update_heading (TvFunctionTable *self)
{
  TvProfileData *data = tv_profile_get_data (self->profile);
  const TvFunctionRow *row;
  g_autofree char *name = NULL;
  g_autofree char *file = NULL;
  guint32 frame;

  if (self->selected == TV_NODE_NONE)
    {
      gtk_label_set_text (self->selected_label, _("No Function Selected"));
      gtk_widget_set_tooltip_text (GTK_WIDGET (self->selected_label), NULL);
      gtk_label_set_text (self->detail_label,
                          _("Select a row to see who calls the function and what it calls."));
      return;
    }

  frame = tv_profile_data_get_key_frame (data, TV_MERGE_FUNCTION, self->selected);
  name = tv_text_dup_shown (tv_profile_data_get_funcname (data, frame));
  file = tv_text_dup_shown (tv_profile_data_get_filename (data, frame));
  gtk_label_set_text (self->selected_label, name);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->selected_label), file);
  row = lookup_row (self, self->selected);
  if (row == NULL)
    gtk_label_set_text (self->detail_label, _("Not in the samples shown"));
  else
    {
      guint64 whole = tv_call_tree_get_n_samples (self->tree);
      g_autofree char *text = NULL;
      g_autofree char *seconds = NULL;
      char total[32], own[32], total_share[32], own_share[32];

      tv_function_table_format_count (total, sizeof total, row->total);
      tv_function_table_format_count (own, sizeof own, row->self);
      tv_function_table_format_percent (total_share, sizeof total_share, row->total, whole);
      tv_function_table_format_percent (own_share, sizeof own_share, row->self, whole);
      seconds = tv_format_thread_time (tv_call_tree_samples_to_seconds (self->tree, row->total,
                                                                        NULL));
      /* Translators: samples through the selected function and in it,
       * e.g. "Total 1,234 (12.3 %, 2.42 s of thread time), self 56
       * (0.454 %)". */
      text = g_strdup_printf (_("Total %s (%s, %s), self %s (%s)"),
                              total, total_share, seconds, own, own_share);
      gtk_label_set_text (self->detail_label, text);
    }
}

/* Where FUNCTION's row is among the rows shown, or GTK_INVALID_LIST_POSITION. */
static guint
find_position (TvFunctionTable *self,
               guint32          function)
{
  GListModel *model = G_LIST_MODEL (self->filter_model);
  guint n = g_list_model_get_n_items (model);

  if (function == TV_NODE_NONE)
    return GTK_INVALID_LIST_POSITION;
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(TvFunctionItem) item = g_list_model_get_item (model, i);

      if (item->function == function)
        return i;
    }
  return GTK_INVALID_LIST_POSITION;
}

static void
scroll_to (GtkColumnView *view,
           guint          position)
{
  GtkAdjustment *adjustment = gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (view));
  guint n = g_list_model_get_n_items (G_LIST_MODEL (gtk_column_view_get_model (view)));

  /* Rows are all as high: leave the view alone when the row shows. */
  if (adjustment != NULL && n > 0 && gtk_adjustment_get_page_size (adjustment) > 0)
    {
      double height = gtk_adjustment_get_upper (adjustment) / n;
      double top = height * position;
      double value = gtk_adjustment_get_value (adjustment);

      if (top >= value && top + height <= value + gtk_adjustment_get_page_size (adjustment))
        return;
    }

  tv_column_view_scroll_to_row (view, position);
}

/* Selects the selected function's row, if shown, without emitting. */
static void
resync_selection (TvFunctionTable *self)
{
  guint position;

  self->resync = FALSE;
  position = find_position (self, self->selected);
  self->selecting = TRUE;
  gtk_single_selection_set_selected (self->selection, position);
  self->selecting = FALSE;
  if (position != GTK_INVALID_LIST_POSITION)
    scroll_to (self->table_view, position);
}

static gboolean
table_settled (TvFunctionTable *self)
{
  return gtk_sort_list_model_get_pending (self->sort_model) == 0
         && gtk_filter_list_model_get_pending (self->filter_model) == 0;
}

/* Once sorting and filtering are done, the selected row is where it
 * belongs: select it and scroll to it. */
static void
request_resync (TvFunctionTable *self)
{
  self->resync = TRUE;
  if (table_settled (self))
    resync_selection (self);
}

static void
on_pending_changed (TvFunctionTable *self)
{
  if (self->resync && table_settled (self))
    resync_selection (self);
}

static void
set_selected (TvFunctionTable *self,
              guint32          function)
{
  if (self->selected == function)
    return;
  self->selected = function;
  update_heading (self);
  start_relations (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED_FUNCTION]);
}

static void
on_selected_item_changed (GtkSingleSelection *selection,
                          GParamSpec         *pspec,
                          TvFunctionTable    *self)
{
  TvFunctionItem *item = gtk_single_selection_get_selected_item (selection);

  /* No item: the row was filtered away or the tree replaced; the function
   * stays selected and its row comes back with it. */
  if (self->selecting || item == NULL || item->function == self->selected)
    return;
  set_selected (self, item->function);
  g_signal_emit (self, signals[FUNCTION_SELECTED], 0, item->function);
}

/* ------------------------------------------------------------------------ */
/* Callers and callees                                                       */
/* ------------------------------------------------------------------------ */

typedef struct
{
  TvFunctionTable *self;
  guint            generation;
  Relation         relation;
  guint32          function;
} RelationCall;

static void
set_relation_rows (TvFunctionTable *self,
                   Relation         relation,
                   GListModel      *rows)
{
  /* Through an empty list, as in tv_function_table_set_tree(). */
  gtk_sort_list_model_set_model (self->relation_models[relation], NULL);
  gtk_sort_list_model_set_model (self->relation_models[relation], rows);
}

/* The rows of a callers or callees tree: the children of FUNCTION's node,
 * the root's only child, and its self samples as a row of no function. */
static GListModel *
relation_rows (TvCallTree *tree,
               guint32     function,
               Relation    relation)
{
  guint32 node = tv_call_tree_find_child (tree, TV_ROOT_NODE, function);
  const guint32 *children;
  const char *special;
  TvFunctionRow *rows;
  guint n_children, n_rows = 0;

  if (node == TV_NODE_NONE)
    return tv_function_rows_new_take (tree, NULL, 0, NULL);
  children = tv_call_tree_get_children (tree, node, &n_children);
  rows = g_new (TvFunctionRow, n_children + 1);
  for (guint i = 0; i < n_children; i++)
    rows[n_rows++] = (TvFunctionRow) {
      tv_call_tree_get_function (tree, children[i]), 0, tv_call_tree_get_total (tree, children[i])
    };
  if (tv_call_tree_get_self (tree, node) > 0)
    rows[n_rows++] = (TvFunctionRow) { TV_NODE_NONE, 0, tv_call_tree_get_self (tree, node) };
  if (relation == RELATION_CALLEES)
    /* Translators: among the callees, the samples in the function itself. */
    special = C_("function table", "(self)");
  else
    /* Translators: among the callers, the samples where nothing called
     * the function: it was the outermost frame. */
    special = C_("function table", "(no caller)");
  return tv_function_rows_new_take (tree, rows, n_rows, special);
}

static void
relation_done (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  RelationCall *call = user_data;
  g_autoptr(TvFunctionTable) self = call->self;
  guint generation = call->generation;
  Relation relation = call->relation;
  guint32 function = call->function;
  g_autoptr(TvCallTree) tree = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GListModel) rows = NULL;

  g_free (call);
  tree = tv_profile_query_finish (TV_PROFILE (object), result, &error);
  /* A newer function or tree was asked for meanwhile: this is stale. */
  if (!tv_worker_is_current (&self->relations_worker, generation))
    return;
  if (--self->relations_pending == 0)
    {
      tv_worker_end (&self->relations_worker);
      gtk_spinner_stop (self->spinner);
    }
  if (tree == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        gtk_label_set_text (self->detail_label, error->message);
      return;
    }
  rows = relation_rows (tree, function, relation);
  set_relation_rows (self, relation, rows);
}

/* Callers and callees read off the view's own tree (see
 * tv_call_tree_get_neighbours()). */
typedef struct
{
  TvCallTree    *tree;
  guint32        function;
} NeighboursJob;

typedef struct
{
  TvFunctionRow *rows[N_RELATIONS];
  guint          n_rows[N_RELATIONS];
  guint64        base;          /* the samples through the function */
} Neighbours;

static void
neighbours_job_free (gpointer data)
{
  NeighboursJob *job = data;

  tv_call_tree_unref (job->tree);
  g_free (job);
}

static void
neighbours_free (gpointer data)
{
  Neighbours *found = data;

  for (Relation r = 0; r < N_RELATIONS; r++)
    g_free (found->rows[r]);
  g_free (found);
}

/* On a worker. */
static gpointer
find_neighbours (gpointer      data,
                 GCancellable *cancellable)
{
  NeighboursJob *job = data;
  Neighbours *found = g_new0 (Neighbours, 1);
  guint n_functions;
  const TvFunctionRow *functions = tv_call_tree_get_functions (job->tree, &n_functions);

  for (guint i = 0; i < n_functions; i++)
    if (functions[i].function == job->function)
      found->base = functions[i].total;

  if (!tv_call_tree_get_neighbours (job->tree, job->function, cancellable,
                                    &found->rows[RELATION_CALLERS], &found->n_rows[RELATION_CALLERS],
                                    &found->rows[RELATION_CALLEES], &found->n_rows[RELATION_CALLEES]))
    g_clear_pointer (&found, neighbours_free);
  return found;
}

static void
neighbours_done (gpointer owner,
                 gpointer data,
                 gpointer result)
{
  TvFunctionTable *self = owner;
  NeighboursJob *job = data;
  Neighbours *found = result;

  gtk_spinner_stop (self->spinner);
  if (found == NULL)
    return;
  for (Relation r = 0; r < N_RELATIONS; r++)
    {
      g_autoptr(GListModel) rows = NULL;

      /* Shares of the samples through the function, as those of the
       * focused and callers trees are. */
      rows = tv_function_rows_new_take_with_base (job->tree, g_steal_pointer (&found->rows[r]),
                                                  found->n_rows[r],
                                                  r == RELATION_CALLEES
                                                  ? C_("function table", "(self)")
                                                  : C_("function table", "(no caller)"),
                                                  found->base);
      set_relation_rows (self, r, rows);
    }
  neighbours_free (found);
}

static void
start_relations (TvFunctionTable *self)
{
  GCancellable *cancellable;
  TvQuery base;

  tv_worker_cancel (&self->relations_worker);
  self->relations_pending = 0;
  gtk_spinner_stop (self->spinner);

  if (self->selected == TV_NODE_NONE || self->tree == NULL)
    {
      for (Relation r = 0; r < N_RELATIONS; r++)
        set_relation_rows (self, r, NULL);
      return;
    }

  /* The graph's tree, top-down and focused on nothing, holds them: one
   * pass over it instead of two trees of the whole profile. */
  if (!tv_call_tree_get_inverted (self->tree)
      && tv_view_state_get_focus_function (self->state) == TV_NODE_NONE)
    {
      NeighboursJob *job = g_new0 (NeighboursJob, 1);

      job->tree = tv_call_tree_ref (self->tree);
      job->function = self->selected;
      gtk_spinner_start (self->spinner);
      tv_worker_run (&self->relations_worker, self, find_neighbours, job, neighbours_job_free,
                     neighbours_free, neighbours_done);
      return;
    }

  /* The view's samples and transforms, merged by function and top-down,
   * whatever the graph shows.  With the view focused on another function
   * G, the callers stay within G's stacks, while the callees are those of
   * every stack through F: a tree has one focus. */
  tv_view_state_to_query (self->state, &base);
  base.merge = TV_MERGE_FUNCTION;
  base.inverted = FALSE;
  base.count_states = FALSE;
  cancellable = tv_worker_begin (&self->relations_worker);
  for (Relation r = 0; r < N_RELATIONS; r++)
    {
      RelationCall *call = g_new0 (RelationCall, 1);
      TvQuery query = base;

      if (r == RELATION_CALLEES)
        query.focus_function = self->selected;
      else
        query.callers_of = self->selected;
      call->self = g_object_ref (self);
      call->generation = self->relations_worker.generation;
      call->relation = r;
      call->function = self->selected;
      self->relations_pending++;
      tv_profile_query_async (self->profile, &query, cancellable,
                              relation_done, call);
    }
  gtk_spinner_start (self->spinner);
}

static void
on_relation_activate (GtkColumnView   *view,
                      guint            position,
                      TvFunctionTable *self)
{
  GListModel *model = G_LIST_MODEL (gtk_column_view_get_model (view));
  g_autoptr(TvFunctionItem) item = g_list_model_get_item (model, position);

  if (item == NULL || item->function == TV_NODE_NONE)
    return;
  tv_function_table_select_function (self, item->function);
  g_signal_emit (self, signals[FUNCTION_SELECTED], 0, item->function);
}

/* ------------------------------------------------------------------------ */
/* Search                                                                    */
/* ------------------------------------------------------------------------ */

static void
on_search_changed (GtkSearchEntry  *entry,
                   TvFunctionTable *self)
{
  tv_function_table_set_search (self, gtk_editable_get_text (GTK_EDITABLE (entry)));
}

static void
on_sorter_changed (TvFunctionTable *self)
{
  request_resync (self);
}

/* ------------------------------------------------------------------------ */
/* Public API                                                                */
/* ------------------------------------------------------------------------ */

GtkWidget *
tv_function_table_new (TvProfile   *profile,
                       TvViewState *state)
{
  TvFunctionTable *self;

  g_return_val_if_fail (TV_IS_PROFILE (profile), NULL);
  g_return_val_if_fail (tv_profile_get_data (profile) != NULL, NULL);
  g_return_val_if_fail (TV_IS_VIEW_STATE (state), NULL);

  self = g_object_new (TV_TYPE_FUNCTION_TABLE, NULL);
  self->profile = g_object_ref (profile);
  self->state = g_object_ref (state);
  update_heading (self);
  return GTK_WIDGET (self);
}

TvCallTree *
tv_function_table_get_tree (TvFunctionTable *self)
{
  g_return_val_if_fail (TV_IS_FUNCTION_TABLE (self), NULL);

  return self->tree;
}

void
tv_function_table_set_tree (TvFunctionTable *self,
                            TvCallTree      *tree)
{
  g_autoptr(GListModel) old_rows = NULL;
  guint n_rows = 0;

  g_return_if_fail (TV_IS_FUNCTION_TABLE (self));

  if (tree == self->tree)
    return;
  if (tree != NULL)
    tv_call_tree_ref (tree);
  g_clear_pointer (&self->tree, tv_call_tree_unref);
  self->tree = tree;

  old_rows = g_steal_pointer (&self->rows);
  if (tree != NULL)
    {
      self->rows = tv_function_rows_new (tree);
      n_rows = g_list_model_get_n_items (self->rows);
    }
  self->selecting = TRUE;
  /* Through an empty list: when one change replaces the rows, GTK 4.8's
   * column view looks up every new row for one it already shows, which
   * would make all the items here and now (a third slower, measured). */
  gtk_sort_list_model_set_model (self->sort_model, NULL);
  gtk_sort_list_model_set_model (self->sort_model, self->rows);
  self->selecting = FALSE;
  if (old_rows != NULL)
    tv_function_table_free_in_thread (g_steal_pointer (&old_rows));
  gtk_stack_set_visible_child_name (self->table_stack, n_rows > 0 ? "table" : "empty");

  /* The selected function stays selected while the new tree has it. */
  if (self->selected != TV_NODE_NONE && lookup_row (self, self->selected) == NULL)
    {
      self->selected = TV_NODE_NONE;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED_FUNCTION]);
    }
  update_heading (self);
  start_relations (self);
  request_resync (self);
}

guint32
tv_function_table_get_selected_function (TvFunctionTable *self)
{
  g_return_val_if_fail (TV_IS_FUNCTION_TABLE (self), TV_NODE_NONE);

  return self->selected;
}

void
tv_function_table_select_function (TvFunctionTable *self,
                                   guint32          function)
{
  g_return_if_fail (TV_IS_FUNCTION_TABLE (self));

  set_selected (self, function);
  request_resync (self);
}

const char *
tv_function_table_get_search (TvFunctionTable *self)
{
  g_return_val_if_fail (TV_IS_FUNCTION_TABLE (self), NULL);

  return self->search != NULL ? self->search : "";
}

void
tv_function_table_set_search (TvFunctionTable *self,
                              const char      *text)
{
  g_return_if_fail (TV_IS_FUNCTION_TABLE (self));
  g_return_if_fail (text != NULL);

  if (g_strcmp0 (tv_function_table_get_search (self), text) == 0)
    return;
  g_free (self->search);
  self->search = g_strdup (text);
  tv_search_entry_show_text (self->search_entry, text, on_search_changed, self);
  tv_row_filter_set_text (self->filter, text);
  request_resync (self);
}

void
tv_function_table_sort_by_column (TvFunctionTable  *self,
                                  TvFunctionColumn  column,
                                  GtkSortType       order)
{
  GtkColumnViewColumn *columns[TV_N_FUNCTION_COLUMNS];

  g_return_if_fail (TV_IS_FUNCTION_TABLE (self));
  g_return_if_fail (column < TV_N_FUNCTION_COLUMNS);

  columns[TV_FUNCTION_COLUMN_NAME] = self->name_column;
  /* A column shows both the share and the samples, which sort alike. */
  columns[TV_FUNCTION_COLUMN_SELF_PERCENT] = self->self_column;
  columns[TV_FUNCTION_COLUMN_TOTAL_PERCENT] = self->total_column;
  columns[TV_FUNCTION_COLUMN_SELF] = self->self_column;
  columns[TV_FUNCTION_COLUMN_TOTAL] = self->total_column;
  columns[TV_FUNCTION_COLUMN_FILE] = self->file_column;
  gtk_column_view_sort_by_column (self->table_view, columns[column], order);
}

gboolean
tv_function_table_is_busy (TvFunctionTable *self)
{
  g_return_val_if_fail (TV_IS_FUNCTION_TABLE (self), FALSE);

  if (!table_settled (self) || self->relations_pending > 0
      || tv_worker_is_busy (&self->relations_worker))
    return TRUE;
  for (Relation r = 0; r < N_RELATIONS; r++)
    if (gtk_sort_list_model_get_pending (self->relation_models[r]) > 0)
      return TRUE;
  return FALSE;
}

GListModel *
tv_function_table_list_rows (TvFunctionTable *self)
{
  g_return_val_if_fail (TV_IS_FUNCTION_TABLE (self), NULL);

  return g_object_ref (G_LIST_MODEL (self->filter_model));
}

GListModel *
tv_function_table_list_callers (TvFunctionTable *self)
{
  g_return_val_if_fail (TV_IS_FUNCTION_TABLE (self), NULL);

  return g_object_ref (G_LIST_MODEL (self->relation_models[RELATION_CALLERS]));
}

GListModel *
tv_function_table_list_callees (TvFunctionTable *self)
{
  g_return_val_if_fail (TV_IS_FUNCTION_TABLE (self), NULL);

  return g_object_ref (G_LIST_MODEL (self->relation_models[RELATION_CALLEES]));
}

/* ------------------------------------------------------------------------ */
/* GObject                                                                   */
/* ------------------------------------------------------------------------ */

static void
tv_function_table_get_property (GObject    *object,
                                guint       prop_id,
                                GValue     *value,
                                GParamSpec *pspec)
{
  TvFunctionTable *self = TV_FUNCTION_TABLE (object);

  switch (prop_id)
    {
    case PROP_SELECTED_FUNCTION:
      g_value_set_uint (value, self->selected);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tv_function_table_set_property (GObject      *object,
                                guint         prop_id,
                                const GValue *value,
                                GParamSpec   *pspec)
{
  TvFunctionTable *self = TV_FUNCTION_TABLE (object);

  switch (prop_id)
    {
    case PROP_SELECTED_FUNCTION:
      tv_function_table_select_function (self, g_value_get_uint (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tv_function_table_dispose (GObject *object)
{
  TvFunctionTable *self = TV_FUNCTION_TABLE (object);

  /* Results still on their way find a newer generation and drop out. */
  tv_worker_cancel (&self->relations_worker);
  if (self->sort_model != NULL)
    g_signal_handlers_disconnect_by_data (self->sort_model, self);
  if (self->filter_model != NULL)
    g_signal_handlers_disconnect_by_data (self->filter_model, self);
  if (self->selection != NULL)
    g_signal_handlers_disconnect_by_data (self->selection, self);
  if (self->table_view != NULL)
    g_signal_handlers_disconnect_by_data (gtk_column_view_get_sorter (self->table_view), self);
  gtk_widget_dispose_template (GTK_WIDGET (self), TV_TYPE_FUNCTION_TABLE);
  g_clear_object (&self->selection);
  g_clear_object (&self->rows);
  g_clear_object (&self->filter_model);
  g_clear_object (&self->sort_model);
  g_clear_object (&self->filter);
  for (Relation r = 0; r < N_RELATIONS; r++)
    g_clear_object (&self->relation_models[r]);
  g_clear_pointer (&self->tree, tv_call_tree_unref);
  g_clear_object (&self->state);
  g_clear_object (&self->profile);
  g_clear_pointer (&self->search, g_free);

  G_OBJECT_CLASS (tv_function_table_parent_class)->dispose (object);
}

static void
tv_function_table_class_init (TvFunctionTableClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tv_function_table_dispose;
  object_class->get_property = tv_function_table_get_property;
  object_class->set_property = tv_function_table_set_property;

  /**
   * TvFunctionTable:selected-function:
   *
   * The selected function (a TV_MERGE_FUNCTION key), or TV_NODE_NONE;
   * see tv_function_table_select_function().
   */
  properties[PROP_SELECTED_FUNCTION] =
    g_param_spec_uint ("selected-function", NULL, NULL, 0, G_MAXUINT32, TV_NODE_NONE,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * TvFunctionTable::function-selected:
   * @function: the function key (TV_MERGE_FUNCTION)
   *
   * The user selected a function: a row of the table, or a caller or
   * callee.
   */
  signals[FUNCTION_SELECTED] =
    g_signal_new ("function-selected", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_UINT);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/tachyonviewer/"
                                               "TachyonViewer/ui/tv-function-table.ui");
  gtk_widget_class_bind_template_child (widget_class, TvFunctionTable, search_entry);
  gtk_widget_class_bind_template_child (widget_class, TvFunctionTable, paned);
  gtk_widget_class_bind_template_child (widget_class, TvFunctionTable, table_stack);
  gtk_widget_class_bind_template_child (widget_class, TvFunctionTable, table_view);
  gtk_widget_class_bind_template_child (widget_class, TvFunctionTable, name_column);
  gtk_widget_class_bind_template_child (widget_class, TvFunctionTable, self_column);
  gtk_widget_class_bind_template_child (widget_class, TvFunctionTable, total_column);
  gtk_widget_class_bind_template_child (widget_class, TvFunctionTable, file_column);
  gtk_widget_class_bind_template_child (widget_class, TvFunctionTable, selected_label);
  gtk_widget_class_bind_template_child (widget_class, TvFunctionTable, detail_label);
  gtk_widget_class_bind_template_child (widget_class, TvFunctionTable, spinner);
  gtk_widget_class_bind_template_child (widget_class, TvFunctionTable, callers_view);
  gtk_widget_class_bind_template_child (widget_class, TvFunctionTable, callers_name_column);
  gtk_widget_class_bind_template_child (widget_class, TvFunctionTable, callers_percent_column);
  gtk_widget_class_bind_template_child (widget_class, TvFunctionTable, callers_samples_column);
  gtk_widget_class_bind_template_child (widget_class, TvFunctionTable, callees_view);
  gtk_widget_class_bind_template_child (widget_class, TvFunctionTable, callees_name_column);
  gtk_widget_class_bind_template_child (widget_class, TvFunctionTable, callees_percent_column);
  gtk_widget_class_bind_template_child (widget_class, TvFunctionTable, callees_samples_column);
  gtk_widget_class_set_css_name (widget_class, "functiontable");
}

/* A callers or callees list: sorted by samples, most first. */
static GtkSortListModel *
init_relation_view (TvFunctionTable     *self,
                    GtkColumnView       *view,
                    GtkColumnViewColumn *name_column,
                    GtkColumnViewColumn *percent_column,
                    GtkColumnViewColumn *samples_column)
{
  GtkSortListModel *model;
  g_autoptr(GtkNoSelection) selection = NULL;

  tv_function_table_set_column (name_column, CELL_NAME);
  tv_function_table_set_column (percent_column, CELL_TOTAL_PERCENT);
  tv_function_table_set_column (samples_column, CELL_TOTAL);
  model = gtk_sort_list_model_new (NULL, g_object_ref (gtk_column_view_get_sorter (view)));
  gtk_sort_list_model_set_incremental (model, TRUE);
  selection = gtk_no_selection_new (g_object_ref (G_LIST_MODEL (model)));
  gtk_column_view_set_model (view, GTK_SELECTION_MODEL (selection));
  gtk_column_view_sort_by_column (view, samples_column, GTK_SORT_DESCENDING);
  g_signal_connect (view, "activate", G_CALLBACK (on_relation_activate), self);
  return model;
}

/* The table gets most of the height, 62 %, whatever the panel's size,
 * until the user drags the handle; the paned then keeps the proportion
 * (both children resize).  The proportion is of the whole height, set on
 * every change of it: the first one may come while the window is too
 * small for the callers and callees' least height. */
static void
on_paned_max_position (GtkPaned        *paned,
                       GParamSpec      *pspec,
                       TvFunctionTable *self)
{
  int max = 0, height = gtk_widget_get_height (GTK_WIDGET (paned));

  g_object_get (paned, "max-position", &max, NULL);
  if (self->paned_dragged || max <= 0 || height <= 0)
    return;
  gtk_paned_set_position (paned, MIN (max, (int) (height * 0.62)));
}

/* A press on the handle (the paned's own gesture moves it). */
static void
on_paned_drag_begin (GtkGestureDrag  *gesture,
                     double           x,
                     double           y,
                     TvFunctionTable *self)
{
  if (fabs (y - gtk_paned_get_position (self->paned)) <= 12)
    self->paned_dragged = TRUE;
}

static void
tv_function_table_init (TvFunctionTable *self)
{
  GtkSorter *sorter;

  self->selected = TV_NODE_NONE;
  gtk_widget_init_template (GTK_WIDGET (self));

  tv_function_table_set_column (self->name_column, CELL_NAME);
  tv_function_table_set_column (self->self_column, CELL_SELF_BOTH);
  tv_function_table_set_column (self->total_column, CELL_TOTAL_BOTH);
  tv_function_table_set_column (self->file_column, CELL_FILE);

  self->filter = g_object_new (TV_TYPE_ROW_FILTER, NULL);
  sorter = gtk_column_view_get_sorter (self->table_view);
  self->sort_model = gtk_sort_list_model_new (NULL, g_object_ref (sorter));
  gtk_sort_list_model_set_incremental (self->sort_model, TRUE);
  self->filter_model = gtk_filter_list_model_new (g_object_ref (G_LIST_MODEL (self->sort_model)),
                                                  g_object_ref (GTK_FILTER (self->filter)));
  gtk_filter_list_model_set_incremental (self->filter_model, TRUE);
  self->selection = gtk_single_selection_new (g_object_ref (G_LIST_MODEL (self->filter_model)));
  gtk_single_selection_set_autoselect (self->selection, FALSE);
  gtk_single_selection_set_can_unselect (self->selection, TRUE);
  gtk_column_view_set_model (self->table_view, GTK_SELECTION_MODEL (self->selection));
  gtk_column_view_sort_by_column (self->table_view, self->total_column, GTK_SORT_DESCENDING);

  self->relation_models[RELATION_CALLERS] =
    init_relation_view (self, self->callers_view, self->callers_name_column,
                        self->callers_percent_column, self->callers_samples_column);
  self->relation_models[RELATION_CALLEES] =
    init_relation_view (self, self->callees_view, self->callees_name_column,
                        self->callees_percent_column, self->callees_samples_column);

  g_signal_connect (self->selection, "notify::selected-item",
                    G_CALLBACK (on_selected_item_changed), self);
  g_signal_connect_swapped (self->sort_model, "notify::pending",
                            G_CALLBACK (on_pending_changed), self);
  g_signal_connect_swapped (self->filter_model, "notify::pending",
                            G_CALLBACK (on_pending_changed), self);
  g_signal_connect_swapped (sorter, "changed", G_CALLBACK (on_sorter_changed), self);
  g_signal_connect (self->search_entry, "search-changed", G_CALLBACK (on_search_changed), self);
  g_signal_connect (self->paned, "notify::max-position", G_CALLBACK (on_paned_max_position), self);
  {
    GtkGesture *drag = gtk_gesture_drag_new ();

    gtk_event_controller_set_propagation_phase (GTK_EVENT_CONTROLLER (drag), GTK_PHASE_CAPTURE);
    g_signal_connect (drag, "drag-begin", G_CALLBACK (on_paned_drag_begin), self);
    gtk_widget_add_controller (GTK_WIDGET (self->paned), GTK_EVENT_CONTROLLER (drag));
  }
}
