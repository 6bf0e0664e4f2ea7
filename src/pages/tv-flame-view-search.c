/* tv-flame-view-search.c: the flame view's search: its worker, its matches
 * and the entry's keys
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib/gi18n.h>

#include "tv-flame-view-private.h"
#include "tv-units.h"

typedef struct
{
  GRegex     *regex;            /* NULL: highlight a function */
  guint32     function;
  TvCallTree *tree;
} SearchJob;

static void
search_job_free (gpointer data)
{
  SearchJob *job = data;

  g_clear_pointer (&job->regex, g_regex_unref);
  g_clear_pointer (&job->tree, tv_call_tree_unref);
  g_free (job);
}

/* NULL when cancelled. */
static gpointer
search_thread (gpointer      data,
               GCancellable *cancellable)
{
  SearchJob *job = data;

  if (job->regex != NULL)
    return tv_flame_matches_new_for_regex (job->tree, job->regex, cancellable);
  return tv_flame_matches_new_for_function (job->tree, job->function, cancellable);
}

static void
update_match_label (TvFlameView *self)
{
  g_autofree char *text = NULL;
  g_autofree char *share = NULL;

  if (self->matches == NULL || self->tree == NULL)
    {
      gtk_label_set_text (self->match_label, "");
      return;
    }
  share = tv_format_share (tv_flame_matches_get_n_samples (self->matches),
                           tv_call_tree_get_n_samples (self->tree));
  /* A tree that left frames out was not searched there. */
  if (tv_call_tree_get_cut_below (self->tree, TV_ROOT_NODE) > 0)
    text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                         "%u frame shown matches: at least %s of the samples",
                                         "%u frames shown match: at least %s of the samples",
                                         tv_flame_matches_get_n_nodes (self->matches)),
                            tv_flame_matches_get_n_nodes (self->matches), share);
  else
    text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                         "%u frame matches: %s of the samples",
                                         "%u frames match: %s of the samples",
                                         tv_flame_matches_get_n_nodes (self->matches)),
                            tv_flame_matches_get_n_nodes (self->matches), share);
  gtk_label_set_text (self->match_label, text);
}

/* Only for the newest search. */
static void
search_done (gpointer owner,
             gpointer data,
             gpointer result)
{
  TvFlameView *self = TV_FLAME_VIEW (owner);
  TvFlameMatches *matches = result;

  if (matches == NULL)
    return;
  if (tv_flame_matches_get_tree (matches) != self->tree)
    {
      tv_flame_matches_unref (matches);
      return;
    }
  tv_flame_view_set_matches (self, matches);
  update_match_label (self);
}

void
tv_flame_view_start_search (TvFlameView *self)
{
  g_autoptr(GRegex) regex = NULL;
  g_autoptr(GError) error = NULL;
  SearchJob *job;

  tv_worker_cancel (&self->search_worker);
  gtk_widget_remove_css_class (GTK_WIDGET (self->search_entry), "error");

  if (self->tree != NULL && (self->search == NULL || self->search[0] == '\0')
      && self->highlight_function != TV_NODE_NONE)
    {
      job = g_new0 (SearchJob, 1);
      job->function = self->highlight_function;
      job->tree = tv_call_tree_ref (self->tree);
      tv_worker_run (&self->search_worker, self, search_thread, job, search_job_free,
                     (GDestroyNotify) tv_flame_matches_unref, search_done);
      return;
    }

  if (self->search == NULL || self->search[0] == '\0' || self->tree == NULL)
    {
      tv_flame_view_set_matches (self, NULL);
      update_match_label (self);
      return;
    }

  regex = g_regex_new (self->search, G_REGEX_CASELESS | G_REGEX_OPTIMIZE, 0, &error);
  if (regex == NULL)
    {
      g_autofree char *text = g_strdup_printf (_("Not a regular expression: %s"), error->message);

      gtk_widget_add_css_class (GTK_WIDGET (self->search_entry), "error");
      gtk_label_set_text (self->match_label, text);
      tv_flame_view_set_matches (self, NULL);
      return;
    }

  job = g_new0 (SearchJob, 1);
  job->regex = g_steal_pointer (&regex);
  job->tree = tv_call_tree_ref (self->tree);
  tv_worker_run (&self->search_worker, self, search_thread, job, search_job_free,
                 (GDestroyNotify) tv_flame_matches_unref, search_done);
}

void
tv_flame_view_on_search_changed (GtkSearchEntry *entry,
                                 TvFlameView    *self)
{
  tv_flame_view_set_search (self, gtk_editable_get_text (GTK_EDITABLE (entry)));
}

static void
go_to_match (TvFlameView *self,
             gboolean     forward)
{
  guint32 node;

  if (self->matches == NULL)
    return;
  node = tv_flame_matches_get_next (self->matches, tv_flame_graph_get_selected (self->graph),
                                    forward);
  if (node == TV_NODE_NONE)
    return;
  tv_flame_graph_set_selected (self->graph, node);
  /* Make it visible: zoom to it when it is too narrow or off screen. */
  if (tv_flame_graph_get_layout (self->graph) == NULL
      || tv_flame_layout_lookup_node (tv_flame_graph_get_layout (self->graph), node) == NULL
      || (tv_flame_layout_lookup_node (tv_flame_graph_get_layout (self->graph), node)->flags
          & TV_FLAME_BOX_MERGED))
    tv_flame_graph_zoom_to (self->graph, node);
}

/* view.next-match and view.previous-match. */
static void
match_action (GtkWidget  *widget,
              const char *action_name,
              GVariant   *parameter)
{
  go_to_match (TV_FLAME_VIEW (widget), g_str_equal (action_name, "view.next-match"));
}

static void
on_search_previous (GtkSearchEntry *entry,
                    TvFlameView    *self)
{
  go_to_match (self, FALSE);
}

/* The entry's "next-match" and "activate". */
static void
on_search_next (GtkSearchEntry *entry,
                TvFlameView    *self)
{
  go_to_match (self, TRUE);
}

/* Enter goes to the next match (the entry's "activate"); Shift+Enter,
 * which the entry lets through, to the previous one. */
static gboolean
on_search_key (GtkEventControllerKey *controller,
               guint                  keyval,
               guint                  keycode,
               GdkModifierType        state,
               TvFlameView           *self)
{
  if ((keyval != GDK_KEY_Return && keyval != GDK_KEY_KP_Enter && keyval != GDK_KEY_ISO_Enter)
      || (state & (GDK_SHIFT_MASK | GDK_CONTROL_MASK | GDK_ALT_MASK)) != GDK_SHIFT_MASK)
    return FALSE;
  go_to_match (self, FALSE);
  return TRUE;
}

static void
search_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  TvFlameView *self = TV_FLAME_VIEW (widget);

  gtk_search_bar_set_search_mode (self->search_bar, TRUE);
  gtk_widget_grab_focus (GTK_WIDGET (self->search_entry));
}

void
tv_flame_view_class_init_search (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "view.search", NULL, search_action);
  gtk_widget_class_install_action (widget_class, "view.next-match", NULL, match_action);
  gtk_widget_class_install_action (widget_class, "view.previous-match", NULL, match_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_f, GDK_CONTROL_MASK,
                                       "view.search", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_g, GDK_CONTROL_MASK,
                                       "view.next-match", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_g,
                                       GDK_CONTROL_MASK | GDK_SHIFT_MASK,
                                       "view.previous-match", NULL);
}

void
tv_flame_view_init_search (TvFlameView *self)
{
  GtkEventController *keys = gtk_event_controller_key_new ();

  g_object_bind_property (self->search_button, "active", self->search_bar, "search-mode-enabled",
                          G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE);
  gtk_search_bar_connect_entry (self->search_bar, GTK_EDITABLE (self->search_entry));
  g_signal_connect (self->search_entry, "search-changed",
                    G_CALLBACK (tv_flame_view_on_search_changed), self);
  g_signal_connect (self->search_entry, "activate", G_CALLBACK (on_search_next), self);
  g_signal_connect (self->search_entry, "previous-match", G_CALLBACK (on_search_previous), self);
  g_signal_connect (self->search_entry, "next-match", G_CALLBACK (on_search_next), self);
  gtk_event_controller_set_name (keys, "tv-search-keys");
  g_signal_connect (keys, "key-pressed", G_CALLBACK (on_search_key), self);
  gtk_widget_add_controller (GTK_WIDGET (self->search_entry), keys);
}
