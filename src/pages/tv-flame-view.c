/* tv-flame-view.c: the flame graph page of a profile
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The filters (threads, thread state, merge key, inverted) write to the
 * profile's TvViewState; a change of the state asks the model for a new
 * tree (tv_profile_query_async) and a search for new matches, both on a
 * worker, each a TvWorker so that a late result never replaces a newer
 * one.  The graph keeps showing the old tree meanwhile.
 */
#include <glib/gi18n.h>

#include "tv-export-task.h"
#include "tv-flame-view-private.h"
#include "tv-popup-tooltips.h"
#include "tv-search-entry-text.h"
#include "tv-trace-paint.h"
#include "tv-wrap-layout.h"

G_DEFINE_FINAL_TYPE (TvFlameView, tv_flame_view, ADW_TYPE_BIN)

enum
{
  PROP_0,
  PROP_MATCHES,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* The search's (or the table's function's) matches change together with
 * the graph's, and say so: the timeline shows where they fall. */
void
tv_flame_view_set_matches (TvFlameView    *self,
                           TvFlameMatches *matches)
{
  if (matches == self->matches)
    {
      g_clear_pointer (&matches, tv_flame_matches_unref);
      return;
    }
  g_clear_pointer (&self->matches, tv_flame_matches_unref);
  self->matches = matches;
  tv_flame_graph_set_matches (self->graph, matches);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MATCHES]);
}



/* ------------------------------------------------------------------------ */
/* The query                                                                 */
/* ------------------------------------------------------------------------ */

/* The call tree selects the graph's frame, or the function when it lists
 * the tree of the other direction, and opens down to the zoomed frame. */
void
tv_flame_view_sync_call_tree (TvFlameView *self)
{
  TvCallTree *tree = tv_flame_graph_get_tree (self->graph);
  guint32 node = tv_flame_graph_get_selected (self->graph);

  /* Not while the graph is still to take the tree the call tree has. */
  if (tree == NULL || tv_call_tree_view_get_tree (self->call_tree_view) == NULL
      || tv_call_tree_view_get_graph_tree (self->call_tree_view) != tree)
    return;
  if (tv_call_tree_view_shows_graph_tree (self->call_tree_view))
    {
      if (node == TV_NODE_NONE || node == TV_ROOT_NODE)
        tv_call_tree_view_reveal_node (self->call_tree_view,
                                       tv_flame_graph_get_zoom_root (self->graph));
      tv_call_tree_view_select_node (self->call_tree_view, node);
    }
  else
    tv_call_tree_view_select_function (self->call_tree_view,
                                       node == TV_NODE_NONE || node == TV_ROOT_NODE
                                       ? TV_NODE_NONE : tv_call_tree_get_function (tree, node));
}

static void
set_tree (TvFlameView *self,
          TvCallTree  *tree)
{
  tv_flame_view_set_matches (self, NULL);
  g_clear_pointer (&self->tree, tv_call_tree_unref);
  self->tree = tv_call_tree_ref (tree);
  /* First, so that the graph's selection in the new tree, which it tells
   * as it takes the tree, finds the call tree listing it. */
  tv_call_tree_view_set_graph_tree (self->call_tree_view, tree);
  tv_flame_graph_set_tree (self->graph, tree);
  gtk_stack_set_visible_child_name (self->graph_stack,
                                    tv_call_tree_get_n_samples (tree) > 0 ? "graph" : "empty");
  /* Nothing was filtered out of a profile without samples. */
  adw_status_page_set_description (self->empty_page,
                                   tv_profile_data_get_n_samples (tv_call_tree_get_data (tree)) == 0
                                   ? _("This profile holds no samples.")
                                   : _("No sample matches the threads, state and time range "
                                       "chosen."));
  tv_flame_view_update_summary (self);
  tv_flame_view_update_breadcrumbs (self);
  tv_function_table_set_tree (self->function_table, tree);
  tv_flame_view_sync_call_tree (self);
  tv_trace_paint (GTK_WIDGET (self->graph), self->profile, TV_TRACE_FLAME_GRAPH, NULL);
  tv_trace_paint (GTK_WIDGET (self->function_table), self->profile, TV_TRACE_SIDE_PANELS, NULL);
  tv_flame_view_start_search (self);
  /* The graph is up: the views after it can be made faster, behind it. */
  tv_profile_start_merging (self->profile);
}

typedef struct
{
  TvFlameView *self;
  guint        generation;
} QueryCall;

/* On the query's worker. */
static void
on_query_progress (double   fraction,
                   gpointer user_data)
{
  g_atomic_int_set ((gint *) user_data, (gint) (CLAMP (fraction, 0.0, 1.0) * 1000));
}

static void
stop_query_progress (TvFlameView *self)
{
  g_clear_handle_id (&self->query_progress_source, g_source_remove);
  g_clear_pointer (&self->query_permille, g_atomic_rc_box_release);
  if (self->query_progress_bar != NULL)
    gtk_widget_set_visible (GTK_WIDGET (self->query_progress_bar), FALSE);
  if (self->query_cancel_button != NULL)
    gtk_widget_set_visible (self->query_cancel_button, FALSE);
}

static gboolean
poll_query_progress (gpointer user_data)
{
  TvFlameView *self = user_data;
  g_autofree char *text = NULL;
  double fraction;

  if (g_get_monotonic_time () - self->query_started
      < (gint64) tv_progress_delay_ms () * 1000)
    return G_SOURCE_CONTINUE;
  fraction = g_atomic_int_get (self->query_permille) / 1000.0;
  /* Translators: beside the line above the flame graph while a big view is
   * made, e.g. "Computing the view: 45 %". */
  text = g_strdup_printf (_("Computing the view: %.0f %%"), fraction * 100.0);
  gtk_progress_bar_set_fraction (self->query_progress_bar, fraction);
  gtk_progress_bar_set_text (self->query_progress_bar, text);
  gtk_widget_set_visible (GTK_WIDGET (self->query_progress_bar), TRUE);
  gtk_widget_set_visible (self->query_cancel_button, TRUE);
  return G_SOURCE_CONTINUE;
}

static void
query_done (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  QueryCall *call = user_data;
  g_autoptr(TvFlameView) self = call->self;
  guint generation = call->generation;
  g_autoptr(TvCallTree) tree = NULL;
  g_autoptr(GError) error = NULL;

  g_free (call);
  tree = tv_profile_query_finish (TV_PROFILE (object), result, &error);
  /* A newer query was started meanwhile: this result is stale. */
  if (!tv_worker_is_current (&self->query_worker, generation))
    return;
  tv_worker_end (&self->query_worker);
  stop_query_progress (self);
  if (tree == NULL)
    {
      g_clear_object (&self->query_state);
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        gtk_label_set_text (self->summary_label, error->message);
      return;
    }
  g_clear_object (&self->shown_state);
  self->shown_state = g_steal_pointer (&self->query_state);
  set_tree (self, tree);
}

/* Whether the tree on screen is the one the view state asks for, with the
 * counts the colours need. */
gboolean
tv_flame_view_shows_state (TvFlameView *self)
{
  return self->tree != NULL && self->shown_state != NULL
         && tv_view_state_same_query (self->state, self->shown_state)
         && (tv_flame_graph_get_color_scheme (self->graph) != TV_FLAME_COLORS_THREAD_STATE
             || tv_call_tree_has_status_counts (self->tree));
}

/**
 * tv_flame_view_cancel_query:
 *
 * Stops the view being computed, as its Cancel button does: the choices
 * go back to those of the tree on screen, or, before the first tree, the
 * summary says that the view was not computed.
 */
void
tv_flame_view_cancel_query (TvFlameView *self)
{
  g_return_if_fail (TV_IS_FLAME_VIEW (self));

  if (!tv_worker_is_busy (&self->query_worker))
    return;
  tv_worker_cancel (&self->query_worker);
  stop_query_progress (self);
  g_clear_object (&self->query_state);
  if (self->shown_state != NULL)
    /* Its "changed" finds the tree on screen matching: no new query. */
    tv_view_state_restore_query (self->state, self->shown_state);
  else
    gtk_label_set_text (self->summary_label,
                        _("Cancelled: choose another view to compute it"));
}

/* A tree of a big profile leaves out what is narrower than a tenth of a
 * pixel; zoomed in, a finer tree of the zoomed frame and its path from
 * the root.  PATH holds the keys. */
static void
prune (TvFlameView *self,
       TvQuery     *query,
       GArray      *path)
{
  TvCallTree *tree = tv_flame_graph_get_tree (self->graph);
  guint64 visible;

  self->detail_tree = NULL;
  if (query->callers_of != TV_NODE_NONE)
    return;
  query->min_total = tv_profile_data_get_n_samples (tv_profile_get_data (self->profile))
                     / TV_QUERY_DETAIL_DIVISOR;
  if (query->min_total == 0 || tree == NULL
      || tv_call_tree_get_inverted (tree) != query->inverted
      || tv_call_tree_get_merge (tree) != query->merge
      || !tv_flame_graph_needs_detail (self->graph, &visible))
    return;

  self->detail_tree = tree;
  self->detail_root = tv_flame_graph_get_zoom_root (self->graph);
  self->detail_visible = visible;
  for (guint32 node = self->detail_root; node != TV_ROOT_NODE;
       node = tv_call_tree_get_parent (tree, node))
    {
      guint32 key = tv_call_tree_get_key (tree, node);

      g_array_prepend_val (path, key);
    }
  query->detail_path = (const guint32 *) (gpointer) path->data;
  query->n_detail_path = path->len;
  query->detail_min_total = visible / TV_QUERY_DETAIL_DIVISOR;
}

/* The tree on screen when it has the function table QUERY needs: the
 * same choices but for inversion and the merge key (and a finer tree of
 * the same).  An
 * inverted tree that takes it is turned over from the exact tree, with
 * no top-down tree made first; a finer top-down tree takes the table
 * and the callers and callees its coarser one read off the exact tree. */
static TvCallTree *
functions_of (TvFlameView   *self,
              const TvQuery *query)
{
  TvCallTree *tree = tv_flame_graph_get_tree (self->graph);
  g_autoptr(TvViewState) flipped = NULL;

  if (tree == NULL || self->shown_state == NULL)
    return NULL;
  flipped = tv_view_state_copy (self->shown_state);
  tv_view_state_set_inverted (flipped, query->inverted);
  tv_view_state_set_merge (flipped, query->merge);
  return tv_view_state_same_query (flipped, self->state) ? tree : NULL;
}

/* Zoomed where the tree left out frames that would show: a finer tree,
 * unless one is on its way. */
static void
on_graph_zoom (TvFlameView *self)
{
  guint64 visible;

  if (!tv_flame_graph_needs_detail (self->graph, &visible)
      || !tv_flame_view_shows_state (self))
    return;
  if (tv_worker_is_busy (&self->query_worker)
      && self->detail_tree == tv_flame_graph_get_tree (self->graph)
      && self->detail_root == tv_flame_graph_get_zoom_root (self->graph)
      && self->detail_visible == visible)
    return;
  tv_flame_view_start_query (self);
}

void
tv_flame_view_start_query (TvFlameView *self)
{
  QueryCall *call = g_new0 (QueryCall, 1);
  GCancellable *cancellable = tv_worker_begin (&self->query_worker);
  TvQuery query;
  g_autoptr(GArray) path = g_array_new (FALSE, FALSE, sizeof (guint32));

  call->self = g_object_ref (self);
  call->generation = self->query_worker.generation;
  tv_view_state_to_query (self->state, &query);
  prune (self, &query, path);
  query.functions_of = functions_of (self, &query);
  g_clear_object (&self->query_state);
  self->query_state = tv_view_state_copy (self->state);
  /* Thread-state colours need each frame's samples by state. */
  query.count_states = tv_flame_graph_get_color_scheme (self->graph) == TV_FLAME_COLORS_THREAD_STATE;
  /* Tooltips say how many threads ran a frame. */
  query.count_threads = TRUE;
  /* The graph keeps the last view until the new one is made; a view that
   * takes long says how far it is. */
  stop_query_progress (self);
  self->query_permille = g_atomic_rc_box_new0 (gint);
  self->query_started = g_get_monotonic_time ();
  self->query_progress_source = g_timeout_add (100, poll_query_progress, self);
  tv_profile_query_with_progress_async (self->profile, &query, on_query_progress,
                                        g_atomic_rc_box_acquire (self->query_permille),
                                        (GDestroyNotify) g_atomic_rc_box_release,
                                        cancellable, query_done, call);
}



/* ------------------------------------------------------------------------ */
/* Public API                                                                */
/* ------------------------------------------------------------------------ */

GtkWidget *
tv_flame_view_new (TvProfile   *profile,
                   TvViewState *state)
{
  TvFlameView *self;

  g_return_val_if_fail (TV_IS_PROFILE (profile), NULL);
  g_return_val_if_fail (tv_profile_get_data (profile) != NULL, NULL);
  g_return_val_if_fail (TV_IS_VIEW_STATE (state), NULL);

  self = g_object_new (TV_TYPE_FLAME_VIEW, NULL);
  self->profile = g_object_ref (profile);
  self->state = g_object_ref (state);
  tv_flame_graph_set_view_state (self->graph, state);

  /* The side panel: the functions, the call tree and a function's
   * source.  The call tree is a tab here rather than a page of its own:
   * beside the graph it follows and at the panel's width, the graph keeps
   * the page's width at the default window size. */
  {
    GtkWidget *stack = gtk_stack_new ();
    GtkWidget *switcher = gtk_stack_switcher_new ();
    GtkWidget *scrolled = gtk_scrolled_window_new ();

    self->function_table = TV_FUNCTION_TABLE (tv_function_table_new (profile, state));
    self->source_view = TV_SOURCE_VIEW (tv_source_view_new (profile, state));
    self->call_tree_view = TV_CALL_TREE_VIEW (tv_call_tree_view_new (profile, state));
    gtk_stack_add_titled (GTK_STACK (stack), GTK_WIDGET (self->function_table), "functions",
                          _("Functions"));
    gtk_stack_add_titled (GTK_STACK (stack), GTK_WIDGET (self->call_tree_view), "call-tree",
                          _("Call Tree"));
    gtk_stack_add_titled (GTK_STACK (stack), GTK_WIDGET (self->source_view), "source",
                          _("Source"));
    gtk_stack_switcher_set_stack (GTK_STACK_SWITCHER (switcher), GTK_STACK (stack));
    gtk_widget_set_halign (switcher, GTK_ALIGN_CENTER);
    /* The panel scrolls as a whole when the window is too short for it,
     * rather than making the window taller. */
    gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scrolled), GTK_POLICY_NEVER,
                                    GTK_POLICY_AUTOMATIC);
    gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), stack);
    gtk_widget_set_vexpand (scrolled, TRUE);
    gtk_box_append (GTK_BOX (self->side_box), switcher);
    gtk_box_append (GTK_BOX (self->side_box), scrolled);
    g_signal_connect (self->function_table, "function-selected",
                      G_CALLBACK (tv_flame_view_on_function_selected), self);
    g_signal_connect (self->call_tree_view, "node-selected",
                      G_CALLBACK (tv_flame_view_on_call_tree_node_selected), self);
    /* A tree of the other direction, or the graph's again. */
    g_signal_connect_swapped (self->call_tree_view, "notify::tree",
                              G_CALLBACK (tv_flame_view_sync_call_tree), self);
  }
  tv_flame_view_fill_threads_list (self);
  tv_flame_view_sync_controls (self);
  tv_flame_view_update_summary (self);
  g_signal_connect (state, "changed", G_CALLBACK (tv_flame_view_on_state_changed), self);
  g_signal_connect_swapped (self->graph, "notify::zoom-root", G_CALLBACK (on_graph_zoom), self);
  tv_flame_view_start_query (self);
  return GTK_WIDGET (self);
}

TvViewState *
tv_flame_view_get_view_state (TvFlameView *self)
{
  g_return_val_if_fail (TV_IS_FLAME_VIEW (self), NULL);

  return self->state;
}

TvFunctionTable *
tv_flame_view_get_function_table (TvFlameView *self)
{
  g_return_val_if_fail (TV_IS_FLAME_VIEW (self), NULL);

  return self->function_table;
}

TvCallTreeView *
tv_flame_view_get_call_tree_view (TvFlameView *self)
{
  g_return_val_if_fail (TV_IS_FLAME_VIEW (self), NULL);

  return self->call_tree_view;
}

TvSourceView *
tv_flame_view_get_source_view (TvFlameView *self)
{
  g_return_val_if_fail (TV_IS_FLAME_VIEW (self), NULL);

  return self->source_view;
}

TvFlameGraph *
tv_flame_view_get_graph (TvFlameView *self)
{
  g_return_val_if_fail (TV_IS_FLAME_VIEW (self), NULL);

  return self->graph;
}

GtkWidget *
tv_flame_view_get_legend (TvFlameView *self)
{
  g_return_val_if_fail (TV_IS_FLAME_VIEW (self), NULL);

  return GTK_WIDGET (self->legend);
}

gboolean
tv_flame_view_is_busy (TvFlameView *self)
{
  g_return_val_if_fail (TV_IS_FLAME_VIEW (self), FALSE);

  return tv_worker_is_busy (&self->query_worker) || tv_worker_is_busy (&self->search_worker)
         || self->tree == NULL;
}

void
tv_flame_view_set_search (TvFlameView *self,
                          const char  *regex)
{
  g_return_if_fail (TV_IS_FLAME_VIEW (self));
  g_return_if_fail (regex != NULL);

  if (g_strcmp0 (self->search, regex) == 0)
    return;
  if (regex[0] != '\0')
    self->highlight_function = TV_NODE_NONE;
  g_free (self->search);
  self->search = g_strdup (regex);
  tv_search_entry_show_text (self->search_entry, regex, tv_flame_view_on_search_changed, self);
  if (regex[0] != '\0')
    gtk_search_bar_set_search_mode (self->search_bar, TRUE);
  tv_flame_view_start_search (self);
}

const char *
tv_flame_view_get_search (TvFlameView *self)
{
  g_return_val_if_fail (TV_IS_FLAME_VIEW (self), NULL);

  return self->search;
}

TvFlameMatches *
tv_flame_view_get_matches (TvFlameView *self)
{
  g_return_val_if_fail (TV_IS_FLAME_VIEW (self), NULL);

  return self->matches;
}

const char *
tv_flame_view_get_summary (TvFlameView *self)
{
  g_return_val_if_fail (TV_IS_FLAME_VIEW (self), NULL);

  return gtk_label_get_text (self->summary_label);
}

const char *
tv_flame_view_get_match_text (TvFlameView *self)
{
  g_return_val_if_fail (TV_IS_FLAME_VIEW (self), NULL);

  return gtk_label_get_text (self->match_label);
}

/* ------------------------------------------------------------------------ */
/* GObject                                                                   */
/* ------------------------------------------------------------------------ */

static void
tv_flame_view_dispose (GObject *object)
{
  TvFlameView *self = TV_FLAME_VIEW (object);

  tv_worker_cancel (&self->query_worker);
  stop_query_progress (self);
  tv_worker_cancel (&self->search_worker);
  if (self->state != NULL)
    g_signal_handlers_disconnect_by_data (self->state, self);
  /* The side panel's views can outlive this one: a tree of the other
   * direction on its way holds the call tree, which then takes it and
   * says so.  Nothing of theirs calls back here. */
  if (self->call_tree_view != NULL)
    g_signal_handlers_disconnect_by_data (self->call_tree_view, self);
  if (self->function_table != NULL)
    g_signal_handlers_disconnect_by_data (self->function_table, self);
  self->call_tree_view = NULL;
  self->function_table = NULL;
  /* Nor the breadcrumbs' adjustment, which the idle that scrolls them to
   * their end holds and changes, maybe once this is gone; nor the graph. */
  if (self->crumb_scroller != NULL)
    g_signal_handlers_disconnect_by_data (gtk_scrolled_window_get_hadjustment (self->crumb_scroller),
                                          self);
  if (self->graph != NULL)
    g_signal_handlers_disconnect_by_data (self->graph, self);
  self->graph = NULL;
  gtk_widget_dispose_template (GTK_WIDGET (self), TV_TYPE_FLAME_VIEW);
  g_clear_pointer (&self->matches, tv_flame_matches_unref);
  g_clear_pointer (&self->tree, tv_call_tree_unref);
  g_clear_object (&self->query_state);
  g_clear_object (&self->shown_state);
  g_clear_object (&self->threads_model);
  g_clear_object (&self->state);
  g_clear_object (&self->profile);
  g_clear_pointer (&self->search, g_free);

  G_OBJECT_CLASS (tv_flame_view_parent_class)->dispose (object);
}

static void
tv_flame_view_finalize (GObject *object)
{
  TvFlameView *self = TV_FLAME_VIEW (object);

  /* Not in dispose: the thread menu's rows are unbound while it runs. */
  g_clear_pointer (&self->thread_checks, g_ptr_array_unref);

  G_OBJECT_CLASS (tv_flame_view_parent_class)->finalize (object);
}

static void
tv_flame_view_get_property (GObject    *object,
                            guint       prop_id,
                            GValue     *value,
                            GParamSpec *pspec)
{
  TvFlameView *self = TV_FLAME_VIEW (object);

  switch (prop_id)
    {
    case PROP_MATCHES:
      g_value_set_pointer (value, self->matches);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tv_flame_view_class_init (TvFlameViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tv_flame_view_dispose;
  object_class->finalize = tv_flame_view_finalize;
  object_class->get_property = tv_flame_view_get_property;

  /* The matches the graph shows (a TvFlameMatches, or NULL): of the
   * search, or of the function picked in the table. */
  properties[PROP_MATCHES] =
    g_param_spec_pointer ("matches", NULL, NULL,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/tachyonviewer/TachyonViewer/ui/tv-flame-view.ui");
  gtk_widget_class_bind_template_child (widget_class, TvFlameView, toolbar);
  gtk_widget_class_bind_template_child (widget_class, TvFlameView, breadcrumbs);
  gtk_widget_class_bind_template_child (widget_class, TvFlameView, crumb_scroller);
  gtk_widget_class_bind_template_child (widget_class, TvFlameView, crumb_more);
  gtk_widget_class_bind_template_child (widget_class, TvFlameView, threads_button);
  gtk_widget_class_bind_template_child (widget_class, TvFlameView, all_threads_button);
  gtk_widget_class_bind_template_child (widget_class, TvFlameView, threads_scroller);
  gtk_widget_class_bind_template_child (widget_class, TvFlameView, threads_list);
  gtk_widget_class_bind_template_child (widget_class, TvFlameView, state_dropdown);
  gtk_widget_class_bind_template_child (widget_class, TvFlameView, merge_dropdown);
  gtk_widget_class_bind_template_child (widget_class, TvFlameView, colors_dropdown);
  gtk_widget_class_bind_template_child (widget_class, TvFlameView, inverted_button);
  gtk_widget_class_bind_template_child (widget_class, TvFlameView, icicle_button);
  gtk_widget_class_bind_template_child (widget_class, TvFlameView, search_button);
  gtk_widget_class_bind_template_child (widget_class, TvFlameView, search_bar);
  gtk_widget_class_bind_template_child (widget_class, TvFlameView, search_entry);
  gtk_widget_class_bind_template_child (widget_class, TvFlameView, match_label);
  gtk_widget_class_bind_template_child (widget_class, TvFlameView, summary_label);
  gtk_widget_class_bind_template_child (widget_class, TvFlameView, graph_stack);
  gtk_widget_class_bind_template_child (widget_class, TvFlameView, empty_page);
  gtk_widget_class_bind_template_child (widget_class, TvFlameView, graph_box);
  gtk_widget_class_bind_template_child (widget_class, TvFlameView, side_box);

  tv_flame_view_class_init_controls (widget_class);
  tv_flame_view_class_init_search (widget_class);
}

static gboolean
on_escape (GtkWidget *widget,
           GVariant  *args,
           gpointer   user_data)
{
  TvFlameView *self = user_data;

  /* Not taken when there is nothing to reset, for what is further up. */
  return tv_flame_graph_reset_zoom (self->graph);
}

static void
tv_flame_view_init (TvFlameView *self)
{
  self->thread_checks = g_ptr_array_new ();
  gtk_widget_init_template (GTK_WIDGET (self));
  /* Its menus are as wide as their longest item, in the user's language:
   * on a small screen the toolbar goes on two lines rather than widen the
   * window past it. */
  gtk_widget_set_layout_manager (self->toolbar, tv_wrap_layout_new (6));

  self->highlight_function = TV_NODE_NONE;
  self->query_progress_bar = GTK_PROGRESS_BAR (gtk_progress_bar_new ());
  gtk_progress_bar_set_show_text (self->query_progress_bar, TRUE);
  gtk_widget_set_size_request (GTK_WIDGET (self->query_progress_bar), 220, -1);
  gtk_widget_set_valign (GTK_WIDGET (self->query_progress_bar), GTK_ALIGN_CENTER);
  gtk_widget_set_visible (GTK_WIDGET (self->query_progress_bar), FALSE);
  gtk_box_insert_child_after (GTK_BOX (gtk_widget_get_parent (GTK_WIDGET (self->summary_label))),
                              GTK_WIDGET (self->query_progress_bar),
                              GTK_WIDGET (self->summary_label));
  self->query_cancel_button = gtk_button_new_with_mnemonic (_("_Cancel"));
  gtk_widget_set_tooltip_text (self->query_cancel_button,
                               _("Stop computing this view and go back to the one shown"));
  gtk_widget_set_valign (self->query_cancel_button, GTK_ALIGN_CENTER);
  gtk_widget_set_visible (self->query_cancel_button, FALSE);
  g_signal_connect_swapped (self->query_cancel_button, "clicked",
                            G_CALLBACK (tv_flame_view_cancel_query), self);
  gtk_box_insert_child_after (GTK_BOX (gtk_widget_get_parent (GTK_WIDGET (self->summary_label))),
                              self->query_cancel_button,
                              GTK_WIDGET (self->query_progress_bar));
  self->graph = TV_FLAME_GRAPH (tv_flame_graph_new ());
  gtk_widget_set_hexpand (GTK_WIDGET (self->graph), TRUE);
  gtk_widget_set_vexpand (GTK_WIDGET (self->graph), TRUE);
  gtk_box_append (self->graph_box, GTK_WIDGET (self->graph));
  tv_flame_view_init_summary (self);
  tv_popup_tooltips_attach (GTK_WIDGET (self));
  {
    /* Esc resets the zoom from wherever the focus is in the page: the
     * search entry, a button, the table (which take it first when it
     * means something to them). */
    GtkEventController *shortcuts = gtk_shortcut_controller_new ();

    gtk_event_controller_set_name (shortcuts, "tv-escape");
    gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (shortcuts),
                                          gtk_shortcut_new (gtk_keyval_trigger_new (GDK_KEY_Escape, 0),
                                                            gtk_callback_action_new (on_escape,
                                                                                     self, NULL)));
    gtk_widget_add_controller (GTK_WIDGET (self), shortcuts);
  }

  tv_flame_view_init_search (self);
  tv_flame_view_init_controls (self);
}
