/* tv-compare-graphs.c: the graphs, the table and the search of a comparison
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Each side's graph, the differential graph and the function table show
 * the diff the comparison holds, with the trees it was made from.  The
 * graphs are linked through the diff: zooming one zooms the others to the
 * same call path (or its nearest ancestor that exists there), and hovering
 * a frame outlines the same path in the other side.  One search applies to
 * both sides, on a worker; a newer search (or a newer diff) drops the
 * results of the one before.
 */

#include <glib/gi18n.h>

#include "tv-compare-page-private.h"
#include "tv-text.h"
#include "tv-units.h"

/* ------------------------------------------------------------------------ */
/* The diff shown                                                            */
/* ------------------------------------------------------------------------ */

static void
update_diff_summary (TvComparePage *self)
{
  TvDiff *diff = tv_comparison_get_diff (self->comparison);
  TvDiffSide side = gtk_toggle_button_get_active (self->vanished_toggle)
                    ? TV_DIFF_SIDE_BASE : TV_DIFF_SIDE_NEW;
  guint64 unmatched = tv_diff_get_unmatched_total (diff, side, TV_ROOT_NODE);
  guint64 all = tv_call_tree_get_n_samples (tv_diff_get_tree (diff, side));
  guint n_stacks;
  g_autofree char *text = NULL;
  g_autofree char *share = tv_format_share (unmatched, all);

  tv_diff_get_unmatched (diff, side, &n_stacks);
  if (side == TV_DIFF_SIDE_BASE)
    text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                         "Base profile: %u stack vanished (%s of its "
                                         "samples), in colour",
                                         "Base profile: %u stacks vanished (%s of its "
                                         "samples), in colour",
                                         n_stacks),
                            n_stacks, share);
  else
    text = g_strdup_printf (_("New profile: red is more, blue is less than in the base profile; "
                              "grey is within sampling noise (99 %% confidence). "
                              "%s of its samples are on stacks the base lacks."),
                            share);
  gtk_label_set_text (self->diff_summary, text);
}

static void
update_diff_graph (TvComparePage *self)
{
  TvDiff *diff = tv_comparison_get_diff (self->comparison);
  gboolean vanished = gtk_toggle_button_get_active (self->vanished_toggle);
  TvDiffSide side = vanished ? TV_DIFF_SIDE_BASE : TV_DIFF_SIDE_NEW;
  TvFlameDiffMode mode = vanished ? TV_FLAME_DIFF_UNMATCHED
                         : gtk_toggle_button_get_active (self->self_toggle) ? TV_FLAME_DIFF_SELF
                         : TV_FLAME_DIFF_TOTAL;

  if (diff == NULL)
    return;
  /* The diff's own tree: after a swap, the sides' are the other way round
   * until the diff is made again. */
  tv_flame_graph_set_tree (self->diff_graph, tv_diff_get_tree (diff, side));
  tv_flame_graph_set_diff (self->diff_graph, diff, side);
  tv_flame_graph_set_diff_mode (self->diff_graph, mode);
  for (guint i = 0; i < 2; i++)
    tv_flame_graph_set_diff_mode (self->graphs[i], mode == TV_FLAME_DIFF_SELF ? TV_FLAME_DIFF_SELF
                                                                             : TV_FLAME_DIFF_TOTAL);
  update_diff_summary (self);
}

void
_tv_compare_page_show_diff (TvComparePage *self)
{
  TvDiff *diff = tv_comparison_get_diff (self->comparison);

  for (guint i = 0; i < 2; i++)
    {
      tv_flame_graph_set_tree (self->graphs[i], tv_comparison_get_tree (self->comparison, i));
      tv_flame_graph_set_diff (self->graphs[i], diff, i);
      _tv_compare_page_update_subtitle (self, i);
    }
  update_diff_graph (self);
  tv_diff_table_set_diff (self->table, diff);
  _tv_compare_page_apply_search (self);
  _tv_compare_page_notify_busy (self);
}

/* ------------------------------------------------------------------------ */
/* Linked graphs                                                             */
/* ------------------------------------------------------------------------ */

/* The side of the diff shown a graph shows, and whether it shows one. */
static gboolean
graph_side (TvComparePage *self,
            TvFlameGraph  *graph,
            TvDiffSide    *side)
{
  TvDiff *diff = tv_comparison_get_diff (self->comparison);
  TvCallTree *tree = tv_flame_graph_get_tree (graph);

  if (diff == NULL || tree == NULL)
    return FALSE;
  if (tree == tv_diff_get_tree (diff, TV_DIFF_SIDE_BASE))
    *side = TV_DIFF_SIDE_BASE;
  else if (tree == tv_diff_get_tree (diff, TV_DIFF_SIDE_NEW))
    *side = TV_DIFF_SIDE_NEW;
  else
    return FALSE;
  return TRUE;
}

static void
sync_zoom_to (TvComparePage *self,
              TvFlameGraph  *graph,
              TvDiffSide     from_side,
              guint32        node)
{
  TvDiff *diff = tv_comparison_get_diff (self->comparison);
  TvDiffSide side;
  guint32 target;

  if (!graph_side (self, graph, &side))
    return;
  target = side == from_side ? node : tv_diff_map_node_or_ancestor (diff, from_side, node);
  if (tv_flame_graph_get_zoom_root (graph) != target)
    tv_flame_graph_zoom_to (graph, target);
}

static void
on_zoom_changed (TvFlameGraph  *graph,
                 GParamSpec    *pspec,
                 TvComparePage *self)
{
  TvFlameGraph *all[3] = { self->graphs[0], self->graphs[1], self->diff_graph };
  guint32 node = tv_flame_graph_get_zoom_root (graph);
  TvDiffSide side;

  if (self->syncing || !graph_side (self, graph, &side))
    return;
  self->syncing = TRUE;
  for (guint i = 0; i < G_N_ELEMENTS (all); i++)
    if (all[i] != graph)
      sync_zoom_to (self, all[i], side, node);
  self->syncing = FALSE;
}

static void
on_hover_changed (TvFlameGraph  *graph,
                  GParamSpec    *pspec,
                  TvComparePage *self)
{
  TvFlameGraph *other = graph == self->graphs[0] ? self->graphs[1] : self->graphs[0];
  guint32 node = tv_flame_graph_get_hovered_node (graph);
  TvDiffSide side;

  if (!graph_side (self, graph, &side))
    return;
  tv_flame_graph_set_linked (other, node == TV_NODE_NONE
                                    ? TV_NODE_NONE
                                    : tv_diff_map_node (tv_comparison_get_diff (self->comparison),
                                                        side, node));
}

/* ------------------------------------------------------------------------ */
/* Search                                                                    */
/* ------------------------------------------------------------------------ */

typedef struct
{
  GRegex     *regex;
  TvCallTree *trees[2];
} SearchJob;

static void
search_job_free (gpointer data)
{
  SearchJob *job = data;

  g_regex_unref (job->regex);
  tv_call_tree_unref (job->trees[0]);
  tv_call_tree_unref (job->trees[1]);
  g_free (job);
}

/* Both sides' matches, or NULL when cancelled. */
static gpointer
search_thread (gpointer      data,
               GCancellable *cancellable)
{
  SearchJob *job = data;
  GPtrArray *matches = g_ptr_array_new_with_free_func ((GDestroyNotify) tv_flame_matches_unref);

  for (guint i = 0; i < 2; i++)
    {
      TvFlameMatches *m = tv_flame_matches_new_for_regex (job->trees[i], job->regex, cancellable);

      if (m == NULL)
        {
          g_ptr_array_unref (matches);
          return NULL;
        }
      g_ptr_array_add (matches, m);
    }
  return matches;
}

static void
set_graph_matches (TvFlameGraph   *graph,
                   TvFlameMatches *matches)
{
  if (matches == NULL || tv_flame_matches_get_tree (matches) == tv_flame_graph_get_tree (graph))
    tv_flame_graph_set_matches (graph, matches);
}

/* Only for the newest search: one that a newer one (or clearing it) has
 * overtaken says nothing.  MATCHES is NULL when the page cancelled it. */
static void
on_search_done (gpointer owner,
                gpointer data,
                gpointer result)
{
  TvComparePage *self = TV_COMPARE_PAGE (owner);
  g_autoptr(GPtrArray) matches = result;

  if (matches != NULL)
    for (guint i = 0; i < 2; i++)
      {
        TvFlameMatches *m = g_ptr_array_index (matches, i);

        set_graph_matches (self->graphs[i], m);
        set_graph_matches (self->diff_graph, m);
      }
  _tv_compare_page_notify_busy (self);
}

/* An invalid expression marks the entry and searches nothing. */
void
_tv_compare_page_apply_search (TvComparePage *self)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GRegex) regex = NULL;
  SearchJob *job;

  /* Whatever runs is for an older search or older trees. */
  tv_worker_cancel (&self->search_worker);
  for (guint i = 0; i < 2; i++)
    tv_flame_graph_set_matches (self->graphs[i], NULL);
  tv_flame_graph_set_matches (self->diff_graph, NULL);
  gtk_widget_remove_css_class (self->search_entry, "error");
  if (self->search == NULL || self->search[0] == '\0'
      || tv_comparison_get_diff (self->comparison) == NULL)
    return;
  regex = g_regex_new (self->search, G_REGEX_CASELESS | G_REGEX_OPTIMIZE, 0, &error);
  if (regex == NULL)
    {
      gtk_widget_add_css_class (self->search_entry, "error");
      gtk_widget_set_tooltip_text (self->search_entry, error->message);
      return;
    }
  gtk_widget_set_tooltip_text (self->search_entry, NULL);
  job = g_new0 (SearchJob, 1);
  job->regex = g_steal_pointer (&regex);
  job->trees[0] = tv_call_tree_ref (tv_comparison_get_tree (self->comparison, 0));
  job->trees[1] = tv_call_tree_ref (tv_comparison_get_tree (self->comparison, 1));
  tv_worker_run (&self->search_worker, self, search_thread, job, search_job_free,
                 (GDestroyNotify) g_ptr_array_unref, on_search_done);
}

/* ------------------------------------------------------------------------ */
/* The table                                                                 */
/* ------------------------------------------------------------------------ */

static void
on_table_activated (TvDiffTable   *table,
                    guint          index,
                    TvComparePage *self)
{
  TvDiff *diff = tv_comparison_get_diff (self->comparison);
  guint n_rows;
  const TvDiffFunction *rows = tv_diff_get_functions (diff, &n_rows);
  TvFlameGraph *graphs[] = { self->diff_graph, self->graphs[0], self->graphs[1] };
  g_autofree char *regex = NULL;

  if (index >= n_rows)
    return;
  /* The function's frames, in both graphs, in the differential view.  The
   * entry holds at most 65535 characters, and shows what it holds: a
   * long name is searched for by its start and its end, as it is shown. */
  regex = tv_text_dup_name_regex (tv_diff_get_function_name (diff, &rows[index]));
  gtk_editable_set_text (GTK_EDITABLE (self->search_entry), regex);
  tv_compare_page_show_view (self, "differential");
  /* A zoom into another subtree would hide every match and dim every
   * frame shown: the graphs zoom out to the root, where all its frames
   * are (a step back in the graphs' history returns to the zoom). */
  for (guint i = 0; i < G_N_ELEMENTS (graphs); i++)
    if (tv_flame_graph_get_tree (graphs[i]) != NULL
        && tv_flame_graph_get_zoom_root (graphs[i]) != TV_ROOT_NODE)
      tv_flame_graph_zoom_to (graphs[i], TV_ROOT_NODE);
}

/* ------------------------------------------------------------------------ */
/* The widgets                                                               */
/* ------------------------------------------------------------------------ */

void
_tv_compare_page_add_graphs (TvComparePage *self)
{
  for (guint i = 0; i < 2; i++)
    {
      self->graphs[i] = TV_FLAME_GRAPH (tv_flame_graph_new ());
      tv_flame_graph_set_color_scheme (self->graphs[i], TV_FLAME_COLORS_DIFF);
      /* Side by side, a comparison within noise would leave both graphs
       * grey: frames keep their modules' colours, a change is outlined. */
      tv_flame_graph_set_diff_keeps_modules (self->graphs[i], TRUE);
      gtk_widget_set_vexpand (GTK_WIDGET (self->graphs[i]), TRUE);
      g_signal_connect (self->graphs[i], "notify::zoom-root", G_CALLBACK (on_zoom_changed),
                        self);
      g_signal_connect (self->graphs[i], "notify::hovered-node", G_CALLBACK (on_hover_changed),
                        self);
      /* Below the side's bar. */
      gtk_box_append (self->column_boxes[i], GTK_WIDGET (self->graphs[i]));
      {
        GtkWidget *key = gtk_label_new (_("Module colours. Outlined red: more in the new "
                                          "profile, blue: less, beyond sampling noise."));

        gtk_label_set_wrap (GTK_LABEL (key), TRUE);
        gtk_label_set_xalign (GTK_LABEL (key), 0);
        gtk_widget_set_margin_start (key, 8);
        gtk_widget_set_margin_end (key, 8);
        gtk_widget_set_margin_top (key, 3);
        gtk_widget_set_margin_bottom (key, 3);
        gtk_widget_add_css_class (key, "caption");
        gtk_widget_add_css_class (key, "dim-label");
        gtk_widget_set_name (key, "side-key");
        gtk_box_append (self->column_boxes[i], key);
      }
    }

  self->diff_graph = TV_FLAME_GRAPH (tv_flame_graph_new ());
  tv_flame_graph_set_color_scheme (self->diff_graph, TV_FLAME_COLORS_DIFF);
  gtk_widget_set_vexpand (GTK_WIDGET (self->diff_graph), TRUE);
  g_signal_connect (self->diff_graph, "notify::zoom-root", G_CALLBACK (on_zoom_changed), self);
  gtk_box_append (self->diff_column, GTK_WIDGET (self->diff_graph));
  g_signal_connect_swapped (self->self_toggle, "toggled", G_CALLBACK (update_diff_graph), self);
  g_signal_connect_swapped (self->vanished_toggle, "toggled", G_CALLBACK (update_diff_graph),
                            self);

  self->table = TV_DIFF_TABLE (tv_diff_table_new ());
  gtk_widget_set_vexpand (GTK_WIDGET (self->table), TRUE);
  g_signal_connect (self->table, "function-activated", G_CALLBACK (on_table_activated), self);
  gtk_box_append (self->functions_box, GTK_WIDGET (self->table));
}
