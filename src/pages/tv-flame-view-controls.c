/* tv-flame-view-controls.c: the flame view's toolbar: the thread menu, the
 * dropdowns and toggles, the selection kept in step between the graph and the
 * tables, and the actions
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib/gi18n.h>

#include "tv-flame-view-private.h"
#include "tv-thread-item.h"

/* The merge dropdown's order. */
static const TvMergeKey merge_keys[] = {
  TV_MERGE_FUNCTION, TV_MERGE_LINE, TV_MERGE_INSTRUCTION, TV_MERGE_FRAME,
};

static void
update_threads_button (TvFlameView *self)
{
  g_autofree char *text = tv_flame_view_describe_threads (self);

  /* Capitalised for a button. */
  if (text[0] != '\0')
    text[0] = g_ascii_toupper (text[0]);
  gtk_menu_button_set_label (self->threads_button, text);
}

static void
on_thread_toggled (GtkCheckButton *check,
                   TvFlameView    *self)
{
  guint32 index = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (check), "thread"));
  g_autoptr(GArray) threads = g_array_new (FALSE, FALSE, sizeof (guint32));
  const guint32 *current;
  guint n_current;

  if (self->updating_controls)
    return;
  /* The others as they are: only the rows in view have a check button. */
  current = tv_view_state_get_threads (self->state, &n_current);
  for (guint i = 0; i < n_current; i++)
    if (current[i] != index)
      g_array_append_val (threads, current[i]);
  if (gtk_check_button_get_active (check))
    g_array_append_val (threads, index);
  tv_view_state_set_threads (self->state, (const guint32 *) (gpointer) threads->data,
                             threads->len);
}

static void
sync_thread_check (TvFlameView    *self,
                   GtkCheckButton *check)
{
  guint32 index = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (check), "thread"));
  gboolean updating = self->updating_controls;
  guint n_threads;

  tv_view_state_get_threads (self->state, &n_threads);
  self->updating_controls = TRUE;
  gtk_check_button_set_active (check, n_threads > 0 && tv_view_state_has_thread (self->state,
                                                                                  index));
  self->updating_controls = updating;
}

static void
sync_thread_checks (TvFlameView *self)
{
  for (guint i = 0; i < self->thread_checks->len; i++)
    sync_thread_check (self, g_ptr_array_index (self->thread_checks, i));
}

static void
on_all_threads_clicked (GtkButton   *button,
                        TvFlameView *self)
{
  tv_view_state_set_threads (self->state, NULL, 0);
}

static void
setup_thread_row (GtkSignalListItemFactory *factory,
                  GtkListItem              *list_item,
                  TvFlameView              *self)
{
  GtkWidget *check = gtk_check_button_new ();

  gtk_widget_set_margin_start (check, 6);
  gtk_widget_set_margin_end (check, 6);
  g_signal_connect (check, "toggled", G_CALLBACK (on_thread_toggled), self);
  gtk_list_item_set_child (list_item, check);
}

static void
bind_thread_row (GtkSignalListItemFactory *factory,
                 GtkListItem              *list_item,
                 TvFlameView              *self)
{
  GtkWidget *check = gtk_list_item_get_child (list_item);
  const TvThread *thread = tv_thread_item_get_thread (gtk_list_item_get_item (list_item));
  g_autofree char *text = NULL;
  g_autofree char *id = g_strdup_printf ("%" G_GUINT64_FORMAT, thread->thread_id);
  g_autofree char *count = g_strdup_printf ("%" G_GUINT64_FORMAT, thread->n_samples);

  if (thread->status_counts[5] > 0)
    text = g_strdup_printf (_("Thread %s (interpreter %u, main): %s samples"),
                            id, thread->interpreter_id, count);
  else
    text = g_strdup_printf (_("Thread %s (interpreter %u): %s samples"),
                            id, thread->interpreter_id, count);
  gtk_check_button_set_label (GTK_CHECK_BUTTON (check), text);
  g_object_set_data (G_OBJECT (check), "thread", GUINT_TO_POINTER (thread->index));
  sync_thread_check (self, GTK_CHECK_BUTTON (check));
  g_ptr_array_add (self->thread_checks, check);
}

static void
unbind_thread_row (GtkSignalListItemFactory *factory,
                   GtkListItem              *list_item,
                   TvFlameView              *self)
{
  g_ptr_array_remove_fast (self->thread_checks, gtk_list_item_get_child (list_item));
}

static void
on_threads_list_map (TvFlameView *self)
{
  if (self->threads_model != NULL)
    gtk_list_view_set_model (self->threads_list, GTK_SELECTION_MODEL (
      gtk_no_selection_new (g_steal_pointer (&self->threads_model))));
}

/* The thread menu lists every thread in the display order, a check
 * button a row; GTK makes the rows in view, and their items only when it
 * asks for them: a hundred thousand threads cost a screenful. */
void
tv_flame_view_fill_threads_list (TvFlameView *self)
{
  TvProfileData *data = tv_profile_get_data (self->profile);
  g_autoptr(GListModel) threads = tv_thread_list_new (data);
  g_autoptr(GtkListItemFactory) factory = gtk_signal_list_item_factory_new ();
  guint n_threads = g_list_model_get_n_items (threads);

  g_signal_connect (factory, "setup", G_CALLBACK (setup_thread_row), self);
  g_signal_connect (factory, "bind", G_CALLBACK (bind_thread_row), self);
  g_signal_connect (factory, "unbind", G_CALLBACK (unbind_thread_row), self);
  gtk_list_view_set_factory (self->threads_list, factory);
  /* GTK makes a list view's rows as soon as it has a model, shown or not:
   * the menu gets them when it first opens. */
  g_set_object (&self->threads_model, threads);
  g_signal_connect_swapped (self->threads_list, "map", G_CALLBACK (on_threads_list_map), self);
  /* A list view's natural height is that of the rows it made, a few when
   * there are many: the menu takes its full height then. */
  if (n_threads > 12)
    gtk_scrolled_window_set_min_content_height (self->threads_scroller, 400);
}

void
tv_flame_view_sync_controls (TvFlameView *self)
{
  TvMergeKey merge = tv_view_state_get_merge (self->state);

  self->updating_controls = TRUE;
  gtk_drop_down_set_selected (self->state_dropdown, tv_view_state_get_state_filter (self->state));
  for (guint i = 0; i < G_N_ELEMENTS (merge_keys); i++)
    if (merge_keys[i] == merge)
      gtk_drop_down_set_selected (self->merge_dropdown, i);
  gtk_toggle_button_set_active (self->inverted_button, tv_view_state_get_inverted (self->state));
  self->updating_controls = FALSE;
  sync_thread_checks (self);
  update_threads_button (self);
}

void
tv_flame_view_on_state_changed (TvViewState *state,
                                TvFlameView *self)
{
  tv_flame_view_sync_controls (self);
  /* Back to the choices of the tree on screen (a cancelled view, or a
   * change undone): the query being made, if any, is not wanted. */
  if (tv_flame_view_shows_state (self))
    {
      tv_flame_view_cancel_query (self);
      tv_flame_view_update_summary (self);
      return;
    }
  tv_flame_view_update_summary (self);
  tv_flame_view_start_query (self);
}

static void
on_state_dropdown (GtkDropDown *dropdown,
                   GParamSpec  *pspec,
                   TvFlameView *self)
{
  if (!self->updating_controls)
    tv_view_state_set_state_filter (self->state, gtk_drop_down_get_selected (dropdown));
}

static void
on_merge_dropdown (GtkDropDown *dropdown,
                   GParamSpec  *pspec,
                   TvFlameView *self)
{
  guint selected = gtk_drop_down_get_selected (dropdown);

  if (!self->updating_controls && selected < G_N_ELEMENTS (merge_keys))
    tv_view_state_set_merge (self->state, merge_keys[selected]);
}

static void
on_colors_dropdown (GtkDropDown *dropdown,
                    GParamSpec  *pspec,
                    TvFlameView *self)
{
  TvFlameColorScheme scheme = gtk_drop_down_get_selected (dropdown);

  tv_flame_graph_set_color_scheme (self->graph, scheme);
  tv_flame_view_update_legend (self);
  if (scheme == TV_FLAME_COLORS_THREAD_STATE && self->tree != NULL
      && !tv_call_tree_has_status_counts (self->tree))
    tv_flame_view_start_query (self);
}

static void
on_inverted_toggled (GtkToggleButton *button,
                     TvFlameView     *self)
{
  if (!self->updating_controls)
    tv_view_state_set_inverted (self->state, gtk_toggle_button_get_active (button));
}

static void
on_icicle_toggled (GtkToggleButton *button,
                   TvFlameView     *self)
{
  tv_flame_graph_set_orientation (self->graph, gtk_toggle_button_get_active (button)
                                               ? TV_FLAME_ORIENTATION_ICICLE
                                               : TV_FLAME_ORIENTATION_FLAME);
}

static void
on_zoom_changed (TvFlameView *self)
{
  tv_flame_view_update_breadcrumbs (self);
  /* The call tree opens down to the zoomed frame. */
  if (tv_call_tree_view_shows_graph_tree (self->call_tree_view))
    tv_call_tree_view_reveal_node (self->call_tree_view, tv_flame_graph_get_zoom_root (self->graph));
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "view.back",
                                 tv_flame_graph_can_go_back (self->graph));
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "view.forward",
                                 tv_flame_graph_can_go_forward (self->graph));
}

void
tv_flame_view_on_function_selected (TvFunctionTable *table,
                                    guint            function,
                                    TvFlameView     *self)
{
  /* The table's choice shows as highlighted frames (a search typed
   * later takes over) and in the source view. */
  self->highlight_function = function;
  if (self->search != NULL && self->search[0] != '\0')
    tv_flame_view_set_search (self, "");
  else
    tv_flame_view_start_search (self);
  tv_source_view_show (self->source_view, function, TV_NODE_NONE);
}

static void
on_graph_selected (TvFlameView *self)
{
  guint32 node = tv_flame_graph_get_selected (self->graph);
  TvCallTree *tree = tv_flame_graph_get_tree (self->graph);
  guint32 function;

  if (tree == NULL)
    return;
  tv_flame_view_sync_call_tree (self);
  if (node == TV_NODE_NONE || node == TV_ROOT_NODE)
    return;
  function = tv_call_tree_get_function (tree, node);
  tv_function_table_select_function (self->function_table, function);
  tv_source_view_show (self->source_view, function, tv_call_tree_get_frame (tree, node));
}

/* Whether ANCESTOR is NODE or above it in TREE. */
static gboolean
is_ancestor (TvCallTree *tree,
             guint32     ancestor,
             guint32     node)
{
  for (; node != TV_NODE_NONE; node = tv_call_tree_get_parent (tree, node))
    if (node == ancestor)
      return TRUE;
  return FALSE;
}

void
tv_flame_view_on_call_tree_node_selected (TvCallTreeView *view,
                                          guint           node,
                                          TvFlameView    *self)
{
  TvCallTree *tree = tv_call_tree_view_get_tree (view);
  guint32 function;

  if (tree == NULL || node == TV_NODE_NONE)
    return;
  if (tv_call_tree_view_shows_graph_tree (view))
    {
      guint32 zoom = tv_flame_graph_get_zoom_root (self->graph);

      /* A row outside the zoomed frame's stacks: the graph zooms out to
       * the row's caller, so that its frame shows. */
      if (!is_ancestor (tree, zoom, node) && !is_ancestor (tree, node, zoom))
        tv_flame_graph_zoom_to (self->graph, tv_call_tree_get_parent (tree, node));
      tv_flame_graph_set_selected (self->graph, node);
      return;
    }
  /* The other direction's nodes are not the graph's: its frames of the
   * function are highlighted, as for the function table's choice. */
  function = tv_call_tree_get_function (tree, node);
  tv_function_table_select_function (self->function_table, function);
  tv_flame_view_on_function_selected (self->function_table, function, self);
}

/* view.back and view.forward: the graph's. */
static void
history_action (GtkWidget  *widget,
                const char *action_name,
                GVariant   *parameter)
{
  gtk_widget_activate_action (GTK_WIDGET (TV_FLAME_VIEW (widget)->graph),
                              g_str_equal (action_name, "view.back") ? "flame.back"
                                                                     : "flame.forward",
                              NULL);
}

static void
reset_transforms_action (GtkWidget  *widget,
                         const char *action_name,
                         GVariant   *parameter)
{
  tv_view_state_reset_transforms (TV_FLAME_VIEW (widget)->state);
}

void
tv_flame_view_class_init_controls (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "view.back", NULL, history_action);
  gtk_widget_class_install_action (widget_class, "view.forward", NULL, history_action);
  gtk_widget_class_install_action (widget_class, "view.reset-transforms", NULL,
                                   reset_transforms_action);
}

void
tv_flame_view_init_controls (TvFlameView *self)
{
  g_signal_connect (self->state_dropdown, "notify::selected", G_CALLBACK (on_state_dropdown), self);
  g_signal_connect (self->merge_dropdown, "notify::selected", G_CALLBACK (on_merge_dropdown), self);
  g_signal_connect (self->colors_dropdown, "notify::selected", G_CALLBACK (on_colors_dropdown),
                    self);
  g_signal_connect (self->inverted_button, "toggled", G_CALLBACK (on_inverted_toggled), self);
  g_signal_connect (self->icicle_button, "toggled", G_CALLBACK (on_icicle_toggled), self);
  g_signal_connect (self->all_threads_button, "clicked", G_CALLBACK (on_all_threads_clicked),
                    self);
  g_signal_connect_swapped (self->graph, "notify::zoom-root", G_CALLBACK (on_zoom_changed), self);
  g_signal_connect_swapped (self->graph, "notify::selected", G_CALLBACK (on_graph_selected), self);
  g_signal_connect_swapped (self->graph, "notify::can-go-back", G_CALLBACK (on_zoom_changed),
                            self);
  g_signal_connect_swapped (self->graph, "notify::can-go-forward", G_CALLBACK (on_zoom_changed),
                            self);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "view.back", FALSE);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "view.forward", FALSE);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "view.reset-transforms", FALSE);
}
