/* tv-compare-page.c: two profiles compared, in a tab
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The page loads BASE and NEW (each on its own worker, at the same time),
 * then shows them four ways: side by side, as NEW's flame graph coloured
 * by the change (the differential view), as a table of functions, and as
 * their properties next to each other.  Above them, a banner says why the
 * two may not compare like for like (TvComparability).
 *
 * Each side has its own TvViewState (threads, state filter, transforms
 * from the graphs' context menus); the merge key and the normalisation
 * are the page's.  When a state changes, both trees are queried again on
 * workers and the TvDiff is made from them on a worker; a generation
 * number drops results that a newer change has overtaken.  Only then are
 * trees and diff handed to the widgets, together, so that a widget never
 * holds a diff of trees it does not show.
 *
 * The graphs are linked through the diff: zooming one zooms the others to
 * the same call path (or its nearest ancestor that exists there), and
 * hovering a frame outlines the same path in the other side.
 *
 * page.export (the window's Ctrl+E) writes the differential HTML page of
 * the diff shown, on a worker.  page.swap trades BASE and NEW: each side's
 * profile, view state, trees and widgets move together, and only the diff
 * is made again.  Until it is back, the diff shown is the one before the
 * swap, whose sides are the page's the other way round (page_side()).
 */

#include <glib/gi18n.h>

#include "tv-compare-page.h"
#include "tv-export-html.h"
#include "tv-export-task.h"
#include "tv-properties.h"
#include "tv-text.h"
#include "tv-wrap-layout.h"

struct _TvComparePage
{
  AdwBin              parent_instance;

  TvProfile          *profiles[2];
  TvViewState        *states[2];
  GCancellable       *cancellable;       /* the loads */
  TvComparePageState  state;
  char               *error_message;
  guint               n_loaded;

  /* The comparison: trees and diff of the current generation. */
  TvCallTree         *trees[2];
  TvDiff             *diff;
  GCancellable       *job_cancellable;
  guint               generation;
  GCancellable       *search_cancellable; /* the running search, if any */
  guint               search_generation;
  guint               pending;           /* queries not back yet */
  gboolean            diffing;           /* a diff of this generation is being made */
  TvDiffNormalization normalization;
  TvMergeKey          merge;
  char               *search;
  gboolean            link_filters;
  gboolean            syncing;
  char               *banner_text;
  guint               n_differing;
  char               *title;

  /* Widgets */
  GtkStack           *stack;             /* loading | error | content */
  GtkProgressBar     *progress[2];
  AdwStatusPage      *error_page;
  GtkWidget          *banner;
  GtkLabel           *banner_label;
  GtkStack           *views;
  GtkWidget          *headers[2];
  GtkWidget          *subtitles[2];
  GtkPaned           *columns;           /* the side-by-side view */
  GtkDropDown        *thread_menus[2];
  GtkDropDown        *state_menus[2];
  GArray             *thread_choices[2]; /* guint32 thread index per menu item after "All" */
  TvFlameGraph       *graphs[2];
  TvFlameGraph       *diff_graph;
  GtkToggleButton    *self_toggle;
  GtkToggleButton    *vanished_toggle;
  GtkLabel           *diff_summary;
  TvDiffTable        *table;
  TvProperties       *properties[2];
  GtkBox             *property_panes;
  GtkWidget          *search_entry;
  GtkCheckButton     *link_button;
  GtkDropDown        *merge_menu;
  GtkDropDown        *by_menu;
};

G_DEFINE_FINAL_TYPE (TvComparePage, tv_compare_page, ADW_TYPE_BIN)

enum {
  PROP_0,
  PROP_STATE,
  PROP_BUSY,
  PROP_TITLE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void start_queries (TvComparePage *self);
static void update_subtitle (TvComparePage *self,
                             TvDiffSide     side);

static const char *
side_name (TvDiffSide side)
{
  return side == TV_DIFF_SIDE_BASE ? _("Base") : _("New");
}

/* SIDE's file name as it is shown: "run.bin". */
static char *
dup_display_name (TvComparePage *self,
                  TvDiffSide     side)
{
  return tv_text_dup_file_name (tv_profile_get_file (self->profiles[side]));
}

static void
update_title (TvComparePage *self)
{
  g_autofree char *base_name = dup_display_name (self, TV_DIFF_SIDE_BASE);
  g_autofree char *new_name = dup_display_name (self, TV_DIFF_SIDE_NEW);

  g_free (self->title);
  /* Translators: the title of a comparison's tab: "base.bin → new.bin". */
  self->title = g_strdup_printf (_("%s → %s"), base_name, new_name);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TITLE]);
}

static void
set_state (TvComparePage      *self,
           TvComparePageState  state)
{
  if (self->state == state)
    return;
  self->state = state;
  switch (state)
    {
    case TV_COMPARE_PAGE_LOADING:
      gtk_stack_set_visible_child_name (self->stack, "loading");
      break;
    case TV_COMPARE_PAGE_READY:
      gtk_stack_set_visible_child_name (self->stack, "content");
      break;
    case TV_COMPARE_PAGE_FAILED:
      gtk_stack_set_visible_child_name (self->stack, "error");
      break;
    default:
      g_assert_not_reached ();
    }
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STATE]);
}

static void
fail (TvComparePage *self,
      TvDiffSide     side,
      const char    *message)
{
  g_autofree char *basename = dup_display_name (self, side);
  g_autofree char *title = NULL;

  if (self->state == TV_COMPARE_PAGE_FAILED)
    return;
  g_cancellable_cancel (self->cancellable);
  /* Translators: "Cannot Open the Base Profile run.bin" */
  title = g_strdup_printf (side == TV_DIFF_SIDE_BASE ? _("Cannot Open the Base Profile %s")
                                                     : _("Cannot Open the New Profile %s"),
                           basename);
  g_free (self->error_message);
  self->error_message = g_strdup_printf ("%s: %s", title, message);
  adw_status_page_set_title (self->error_page, title);
  adw_status_page_set_description (self->error_page, message);
  set_state (self, TV_COMPARE_PAGE_FAILED);
}

/* ------------------------------------------------------------------------ */
/* The comparison: queries and diff on workers                               */
/* ------------------------------------------------------------------------ */

typedef struct
{
  TvComparePage *page;      /* a strong reference */
  guint          generation;
  TvDiffSide     side;
} QueryJob;

static void
query_job_free (QueryJob *job)
{
  g_object_unref (job->page);
  g_free (job);
}

static void
set_busy_changed (TvComparePage *self)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BUSY]);
}

typedef struct
{
  TvCallTree          *trees[2];
  TvDiffNormalization  normalization;
  guint                generation;
} DiffJob;

static void
diff_job_free (DiffJob *job)
{
  tv_call_tree_unref (job->trees[0]);
  tv_call_tree_unref (job->trees[1]);
  g_free (job);
}

static void
diff_thread (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  DiffJob *job = task_data;
  TvDiffOptions options;
  TvDiff *diff;

  tv_diff_options_init (&options);
  options.normalization = job->normalization;
  diff = tv_diff_new (job->trees[0], job->trees[1], &options, cancellable);
  if (diff == NULL)
    g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CANCELLED, "cancelled");
  else
    g_task_return_pointer (task, diff, (GDestroyNotify) tv_diff_unref);
}

static guint32
map_node_or_ancestor (TvDiff     *diff,
                      TvDiffSide  side,
                      guint32     node)
{
  TvCallTree *tree = tv_diff_get_tree (diff, side);

  for (; node != TV_NODE_NONE; node = tv_call_tree_get_parent (tree, node))
    {
      guint32 mapped = tv_diff_map_node (diff, side, node);

      if (mapped != TV_NODE_NONE)
        return mapped;
    }
  return TV_ROOT_NODE;
}

/* The page's side that shows the profile of DIFF's SIDE: SIDE, but for a
 * diff made before a swap. */
static TvDiffSide
page_side (TvComparePage *self,
           TvDiff        *diff,
           TvDiffSide     side)
{
  TvProfileData *data = tv_call_tree_get_data (tv_diff_get_tree (diff, side));

  return data == tv_profile_get_data (self->profiles[side]) ? side : 1 - side;
}

/* The file of the diff's SIDE. */
static GFile *
diff_side_file (TvComparePage *self,
                TvDiffSide     side)
{
  return tv_profile_get_file (self->profiles[page_side (self, self->diff, side)]);
}

static void
update_diff_summary (TvComparePage *self)
{
  TvDiffSide side = gtk_toggle_button_get_active (self->vanished_toggle)
                    ? TV_DIFF_SIDE_BASE : TV_DIFF_SIDE_NEW;
  guint64 unmatched = tv_diff_get_unmatched_total (self->diff, side, TV_ROOT_NODE);
  guint64 all = tv_call_tree_get_n_samples (tv_diff_get_tree (self->diff, side));
  guint n_stacks;
  g_autofree char *text = NULL;

  tv_diff_get_unmatched (self->diff, side, &n_stacks);
  if (side == TV_DIFF_SIDE_BASE)
    text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                         "Base profile: %u stack vanished (%.2f %% of its "
                                         "samples), in colour",
                                         "Base profile: %u stacks vanished (%.2f %% of its "
                                         "samples), in colour",
                                         n_stacks),
                            n_stacks, all > 0 ? 100.0 * unmatched / all : 0.0);
  else
    text = g_strdup_printf (_("New profile: red is more, blue is less than in the base profile; "
                              "grey is within sampling noise (99 %% confidence). "
                              "%.2f %% of its samples are on stacks the base lacks."),
                            all > 0 ? 100.0 * unmatched / all : 0.0);
  gtk_label_set_text (self->diff_summary, text);
}

static void
update_diff_graph (TvComparePage *self)
{
  gboolean vanished = gtk_toggle_button_get_active (self->vanished_toggle);
  TvDiffSide side = vanished ? TV_DIFF_SIDE_BASE : TV_DIFF_SIDE_NEW;
  TvFlameDiffMode mode = vanished ? TV_FLAME_DIFF_UNMATCHED
                         : gtk_toggle_button_get_active (self->self_toggle) ? TV_FLAME_DIFF_SELF
                         : TV_FLAME_DIFF_TOTAL;

  if (self->diff == NULL)
    return;
  /* The diff's own tree: the page's may be newer than the diff. */
  tv_flame_graph_set_tree (self->diff_graph, tv_diff_get_tree (self->diff, side));
  tv_flame_graph_set_diff (self->diff_graph, self->diff, side);
  tv_flame_graph_set_diff_mode (self->diff_graph, mode);
  for (guint i = 0; i < 2; i++)
    tv_flame_graph_set_diff_mode (self->graphs[i], mode == TV_FLAME_DIFF_SELF ? TV_FLAME_DIFF_SELF
                                                                             : TV_FLAME_DIFF_TOTAL);
  update_diff_summary (self);
}

static void apply_search (TvComparePage *self);

static void
on_diff_done (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  TvComparePage *self = TV_COMPARE_PAGE (object);
  DiffJob *job = g_task_get_task_data (G_TASK (result));
  guint generation = job->generation;
  g_autoptr(TvDiff) diff = g_task_propagate_pointer (G_TASK (result), NULL);

  if (diff == NULL || generation != self->generation)
    return;
  self->diffing = FALSE;
  g_clear_pointer (&self->diff, tv_diff_unref);
  self->diff = g_steal_pointer (&diff);
  for (guint i = 0; i < 2; i++)
    {
      tv_flame_graph_set_tree (self->graphs[i], self->trees[i]);
      tv_flame_graph_set_diff (self->graphs[i], self->diff, i);
      update_subtitle (self, i);
    }
  update_diff_graph (self);
  tv_diff_table_set_diff (self->table, self->diff);
  apply_search (self);
  set_state (self, TV_COMPARE_PAGE_READY);
  set_busy_changed (self);
}

static void
start_diff (TvComparePage *self)
{
  g_autoptr(GTask) task = NULL;
  DiffJob *job = g_new0 (DiffJob, 1);

  job->trees[0] = tv_call_tree_ref (self->trees[0]);
  job->trees[1] = tv_call_tree_ref (self->trees[1]);
  job->normalization = self->normalization;
  job->generation = self->generation;
  task = g_task_new (self, self->job_cancellable, on_diff_done, NULL);
  g_task_set_source_tag (task, start_diff);
  g_task_set_task_data (task, job, (GDestroyNotify) diff_job_free);
  self->diffing = TRUE;
  g_task_run_in_thread (task, diff_thread);
}

static void
on_query_done (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  QueryJob *job = user_data;
  TvComparePage *self = job->page;
  g_autoptr(TvCallTree) tree = tv_profile_query_finish (TV_PROFILE (object), result, NULL);

  if (tree != NULL && job->generation == self->generation)
    {
      g_clear_pointer (&self->trees[job->side], tv_call_tree_unref);
      self->trees[job->side] = g_steal_pointer (&tree);
      if (--self->pending == 0)
        start_diff (self);
    }
  query_job_free (job);
}

/* Drops whatever the workers are making: their results, of an older
 * generation, will be dropped too. */
static void
next_generation (TvComparePage *self)
{
  if (self->job_cancellable != NULL)
    g_cancellable_cancel (self->job_cancellable);
  g_clear_object (&self->job_cancellable);
  self->job_cancellable = g_cancellable_new ();
  self->generation++;
}

/* The trees stay as they are: only the diff is made again.  While
 * queries run, a new round starts instead (the running ones are of an
 * older generation: their side may have moved since). */
static void
remake_diff (TvComparePage *self)
{
  if (self->n_loaded < 2)
    return;
  if (self->pending > 0 || self->trees[0] == NULL || self->trees[1] == NULL)
    {
      start_queries (self);
      return;
    }
  next_generation (self);
  start_diff (self);
  set_busy_changed (self);
}

static void
start_queries (TvComparePage *self)
{
  if (self->n_loaded < 2)
    return;
  next_generation (self);
  self->pending = 2;
  for (guint i = 0; i < 2; i++)
    {
      QueryJob *job = g_new0 (QueryJob, 1);
      TvQuery query;

      job->page = g_object_ref (self);
      job->generation = self->generation;
      job->side = i;
      tv_view_state_to_query (self->states[i], &query);
      tv_profile_query_async (self->profiles[i], &query, self->job_cancellable, on_query_done,
                              job);
    }
  set_busy_changed (self);
}

/* ------------------------------------------------------------------------ */
/* Linked graphs                                                             */
/* ------------------------------------------------------------------------ */

/* The side a graph shows, and whether it shows the page's diff at all. */
static gboolean
graph_side (TvComparePage *self,
            TvFlameGraph  *graph,
            TvDiffSide    *side)
{
  TvCallTree *tree = tv_flame_graph_get_tree (graph);

  if (self->diff == NULL || tree == NULL)
    return FALSE;
  if (tree == tv_diff_get_tree (self->diff, TV_DIFF_SIDE_BASE))
    *side = TV_DIFF_SIDE_BASE;
  else if (tree == tv_diff_get_tree (self->diff, TV_DIFF_SIDE_NEW))
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
  TvDiffSide side;
  guint32 target;

  if (!graph_side (self, graph, &side))
    return;
  target = side == from_side ? node : map_node_or_ancestor (self->diff, from_side, node);
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
                                    ? TV_NODE_NONE : tv_diff_map_node (self->diff, side, node));
}

/* ------------------------------------------------------------------------ */
/* Search                                                                    */
/* ------------------------------------------------------------------------ */

typedef struct
{
  GRegex     *regex;
  TvCallTree *trees[2];
  guint       generation;
} SearchJob;

static void
search_job_free (SearchJob *job)
{
  g_regex_unref (job->regex);
  tv_call_tree_unref (job->trees[0]);
  tv_call_tree_unref (job->trees[1]);
  g_free (job);
}

static void
search_thread (GTask        *task,
               gpointer      source_object,
               gpointer      task_data,
               GCancellable *cancellable)
{
  SearchJob *job = task_data;
  GPtrArray *matches = g_ptr_array_new_with_free_func ((GDestroyNotify) tv_flame_matches_unref);

  for (guint i = 0; i < 2; i++)
    {
      TvFlameMatches *m = tv_flame_matches_new_for_regex (job->trees[i], job->regex, cancellable);

      if (m == NULL)
        {
          g_ptr_array_unref (matches);
          g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CANCELLED, "cancelled");
          return;
        }
      g_ptr_array_add (matches, m);
    }
  g_task_return_pointer (task, matches, (GDestroyNotify) g_ptr_array_unref);
}

static void
set_graph_matches (TvFlameGraph   *graph,
                   TvFlameMatches *matches)
{
  if (matches == NULL || tv_flame_matches_get_tree (matches) == tv_flame_graph_get_tree (graph))
    tv_flame_graph_set_matches (graph, matches);
}

static void
on_search_done (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  TvComparePage *self = TV_COMPARE_PAGE (object);
  SearchJob *job = g_task_get_task_data (G_TASK (result));
  g_autoptr(GPtrArray) matches = g_task_propagate_pointer (G_TASK (result), NULL);

  /* A search that a newer one (or clearing it) has overtaken says nothing. */
  if (job->generation != self->search_generation)
    return;
  g_clear_object (&self->search_cancellable);
  if (matches != NULL)
    for (guint i = 0; i < 2; i++)
      {
        TvFlameMatches *m = g_ptr_array_index (matches, i);

        set_graph_matches (self->graphs[i], m);
        set_graph_matches (self->diff_graph, m);
      }
  set_busy_changed (self);
}

static void
apply_search (TvComparePage *self)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GRegex) regex = NULL;
  g_autoptr(GTask) task = NULL;
  SearchJob *job;

  /* Whatever runs is for an older search or older trees. */
  g_cancellable_cancel (self->search_cancellable);
  g_clear_object (&self->search_cancellable);
  self->search_generation++;
  for (guint i = 0; i < 2; i++)
    tv_flame_graph_set_matches (self->graphs[i], NULL);
  tv_flame_graph_set_matches (self->diff_graph, NULL);
  gtk_widget_remove_css_class (GTK_WIDGET (self->search_entry), "error");
  if (self->search == NULL || self->search[0] == '\0' || self->diff == NULL)
    return;
  regex = g_regex_new (self->search, G_REGEX_CASELESS | G_REGEX_OPTIMIZE, 0, &error);
  if (regex == NULL)
    {
      gtk_widget_add_css_class (GTK_WIDGET (self->search_entry), "error");
      gtk_widget_set_tooltip_text (GTK_WIDGET (self->search_entry), error->message);
      return;
    }
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->search_entry), NULL);
  job = g_new0 (SearchJob, 1);
  job->regex = g_steal_pointer (&regex);
  job->trees[0] = tv_call_tree_ref (self->trees[0]);
  job->trees[1] = tv_call_tree_ref (self->trees[1]);
  job->generation = self->search_generation;
  self->search_cancellable = g_cancellable_new ();
  task = g_task_new (self, self->search_cancellable, on_search_done, NULL);
  g_task_set_source_tag (task, apply_search);
  g_task_set_task_data (task, job, (GDestroyNotify) search_job_free);
  g_task_run_in_thread (task, search_thread);
}

static void
on_search_changed (GtkEditable   *entry,
                   TvComparePage *self)
{
  tv_compare_page_set_search (self, gtk_editable_get_text (entry));
}

/* ------------------------------------------------------------------------ */
/* Filters                                                                   */
/* ------------------------------------------------------------------------ */

static int
compare_threads (gconstpointer a,
                 gconstpointer b)
{
  const TvThread *x = *(const TvThread * const *) a;
  const TvThread *y = *(const TvThread * const *) b;
  gboolean xm = x->status_counts[5] /* TACH_STATUS_MAIN_THREAD */ > 0;
  gboolean ym = y->status_counts[5] /* TACH_STATUS_MAIN_THREAD */ > 0;

  if (xm != ym)
    return xm ? -1 : 1;
  if (x->n_samples != y->n_samples)
    return x->n_samples > y->n_samples ? -1 : 1;
  return (x->thread_id > y->thread_id) - (x->thread_id < y->thread_id);
}

/* The thread menu: "All Threads", then the main thread, then the others
 * by samples, as the timeline orders its lanes. */
static void
fill_thread_menu (TvComparePage *self,
                  TvDiffSide     side)
{
  TvProfileData *data = tv_profile_get_data (self->profiles[side]);
  guint n = tv_profile_data_get_n_threads (data);
  g_autoptr(GPtrArray) threads = g_ptr_array_new ();
  g_autoptr(GtkStringList) items = gtk_string_list_new (NULL);

  for (guint i = 0; i < n; i++)
    g_ptr_array_add (threads, (gpointer) tv_profile_data_get_thread (data, i));
  g_ptr_array_sort (threads, compare_threads);
  gtk_string_list_append (items, _("All Threads"));
  g_array_set_size (self->thread_choices[side], 0);
  for (guint i = 0; i < threads->len; i++)
    {
      const TvThread *t = g_ptr_array_index (threads, i);
      g_autofree char *id = g_strdup_printf ("%" G_GUINT64_FORMAT, t->thread_id);
      g_autofree char *label = NULL;

      if (t->status_counts[5] /* TACH_STATUS_MAIN_THREAD */ > 0)
        label = g_strdup_printf (_("Main thread %s"), id);
      else
        label = g_strdup_printf (_("Thread %s"), id);
      gtk_string_list_append (items, label);
      g_array_append_val (self->thread_choices[side], t->index);
    }
  gtk_drop_down_set_model (self->thread_menus[side], G_LIST_MODEL (items));
}

static void
on_thread_selected (GtkDropDown   *menu,
                    GParamSpec    *pspec,
                    TvComparePage *self)
{
  TvDiffSide side = menu == self->thread_menus[0] ? TV_DIFF_SIDE_BASE : TV_DIFF_SIDE_NEW;
  guint selected = gtk_drop_down_get_selected (menu);

  if (self->syncing)
    return;
  if (selected == GTK_INVALID_LIST_POSITION || selected == 0
      || selected > self->thread_choices[side]->len)
    tv_view_state_set_threads (self->states[side], NULL, 0);
  else
    tv_view_state_set_threads (self->states[side],
                               &g_array_index (self->thread_choices[side], guint32, selected - 1),
                               1);
}

static void
on_state_selected (GtkDropDown   *menu,
                   GParamSpec    *pspec,
                   TvComparePage *self)
{
  TvDiffSide side = menu == self->state_menus[0] ? TV_DIFF_SIDE_BASE : TV_DIFF_SIDE_NEW;
  guint selected = gtk_drop_down_get_selected (menu);

  if (self->syncing)
    return;
  tv_view_state_set_state_filter (self->states[side], selected < TV_N_STATE_FILTERS
                                                      ? selected : TV_STATE_FILTER_ALL);
}

/* The thread menu's position of what SIDE's state shows: 0 for all
 * threads (or several), else the thread's place after "All Threads". */
static guint
thread_position (TvComparePage *self,
                 TvDiffSide     side)
{
  guint n;
  const guint32 *threads = tv_view_state_get_threads (self->states[side], &n);

  if (n != 1)
    return 0;
  for (guint i = 0; i < self->thread_choices[side]->len; i++)
    if (g_array_index (self->thread_choices[side], guint32, i) == threads[0])
      return i + 1;
  return 0;
}

/* The menus show what the states hold, whoever changed them.  Linked, the
 * other side takes the same state filter and the thread at the same place
 * in its menu (the main thread for the main thread). */
static void
sync_filters (TvComparePage *self,
              TvDiffSide     side)
{
  guint position = thread_position (self, side);

  self->syncing = TRUE;
  gtk_drop_down_set_selected (self->state_menus[side],
                              tv_view_state_get_state_filter (self->states[side]));
  gtk_drop_down_set_selected (self->thread_menus[side], position);
  if (self->link_filters)
    {
      TvDiffSide other = 1 - side;

      tv_view_state_set_state_filter (self->states[other],
                                      tv_view_state_get_state_filter (self->states[side]));
      if (position == 0 || position > self->thread_choices[other]->len)
        tv_view_state_set_threads (self->states[other], NULL, 0);
      else
        tv_view_state_set_threads (self->states[other],
                                   &g_array_index (self->thread_choices[other], guint32,
                                                   position - 1), 1);
      gtk_drop_down_set_selected (self->state_menus[other],
                                  tv_view_state_get_state_filter (self->states[other]));
      gtk_drop_down_set_selected (self->thread_menus[other], thread_position (self, other));
    }
  self->syncing = FALSE;
}

/* The transforms of the graphs' context menus (focus, hide, collapse
 * recursion) apply to both sides, whatever the link: two trees transformed
 * differently do not compare.  Functions are carried over by content. */
static void
sync_transforms (TvComparePage *self,
                 TvDiffSide     side)
{
  TvViewState *from = self->states[side];
  TvViewState *to = self->states[1 - side];
  guint32 focus = tv_view_state_get_focus_function (from);
  guint n_hidden;
  const guint32 *hidden = tv_view_state_get_hidden_functions (from, &n_hidden);
  TvDiffSide diff_side;

  if (self->diff == NULL)
    return;
  diff_side = page_side (self, self->diff, side);
  self->syncing = TRUE;
  tv_view_state_reset_transforms (to);
  tv_view_state_set_collapse_recursion (to, tv_view_state_get_collapse_recursion (from));
  if (focus != TV_NODE_NONE)
    tv_view_state_set_focus_function (to, tv_diff_map_function (self->diff, diff_side, focus));
  for (guint i = 0; i < n_hidden; i++)
    {
      guint32 mapped = tv_diff_map_function (self->diff, diff_side, hidden[i]);

      if (mapped != TV_NODE_NONE)
        tv_view_state_hide_function (to, mapped);
    }
  self->syncing = FALSE;
}

static void
on_view_state_changed (TvViewState   *state,
                       TvComparePage *self)
{
  TvDiffSide side = state == self->states[0] ? TV_DIFF_SIDE_BASE : TV_DIFF_SIDE_NEW;

  if (!self->syncing && self->n_loaded == 2)
    {
      sync_filters (self, side);
      sync_transforms (self, side);
    }
  start_queries (self);
}

/* ------------------------------------------------------------------------ */
/* Loading                                                                   */
/* ------------------------------------------------------------------------ */

/* The line under SIDE's title: the samples compared (its tree's, once
 * there is one) and their time, "77 of 200 samples" when its filters or
 * transforms leave out some of the file's. */
static void
update_subtitle (TvComparePage *self,
                 TvDiffSide     side)
{
  TvProfileData *data = tv_profile_get_data (self->profiles[side]);
  guint64 all = tv_profile_data_get_n_samples (data);
  guint64 shown = self->trees[side] != NULL ? tv_call_tree_get_n_samples (self->trees[side])
                                            : all;
  g_autofree char *count = g_strdup_printf ("%" G_GUINT64_FORMAT, shown);
  g_autofree char *total = g_strdup_printf ("%" G_GUINT64_FORMAT, all);
  g_autofree char *text = NULL;
  TvTimeSource source;
  double seconds = shown * tv_profile_data_get_seconds_per_sample (data, &source);

  if (shown == all)
    /* Translators: "12345 samples, 1.234 s" */
    text = g_strdup_printf (_("%s samples, %.3f s"), count, seconds);
  else
    /* Translators: "77 of 200 samples, 0.077 s": a filter leaves out the rest. */
    text = g_strdup_printf (_("%s of %s samples, %.3f s"), count, total, seconds);
  gtk_label_set_text (GTK_LABEL (self->subtitles[side]), text);
}

static void
update_header (TvComparePage *self,
               TvDiffSide     side)
{
  g_autofree char *name = dup_display_name (self, side);
  g_autofree char *title = NULL;

  /* Translators: "Base: run.bin" */
  title = g_strdup_printf (_("%s: %s"), side_name (side), name);
  gtk_label_set_text (GTK_LABEL (self->headers[side]), title);
  gtk_widget_set_tooltip_text (self->headers[side], title);
  update_subtitle (self, side);
}

/* Whether a caveat only concerns a comparison by time: what a sample's
 * time is on either side, and the durations (whose message says to
 * compare by share).  A share of samples needs no time. */
static gboolean
only_by_time (TvComparabilityCode code)
{
  switch (code)
    {
    case TV_COMPARABILITY_NO_STATS_BASE:
    case TV_COMPARABILITY_NO_STATS_NEW:
    case TV_COMPARABILITY_DURATION:
    case TV_COMPARABILITY_NO_TIME:
      return TRUE;
    default:
      return FALSE;
    }
}

static void
show_banner (TvComparePage *self)
{
  g_autoptr(GPtrArray) caveats = NULL;
  g_autoptr(GString) text = g_string_new (NULL);

  caveats = tv_comparability_check (tv_profile_get_data (self->profiles[0]),
                                    tv_profile_get_data (self->profiles[1]), self->merge);
  for (guint i = 0; i < caveats->len; i++)
    {
      TvComparability *caveat = g_ptr_array_index (caveats, i);

      if (self->normalization == TV_DIFF_BY_SHARE && only_by_time (caveat->code))
        continue;
      if (text->len > 0)
        g_string_append_c (text, '\n');
      g_string_append (text, caveat->message);
    }
  g_clear_pointer (&self->banner_text, g_free);
  if (text->len > 0)
    self->banner_text = g_strdup (text->str);
  gtk_label_set_text (self->banner_label, text->str);
  gtk_widget_set_visible (self->banner, text->len > 0);
}

static void
both_loaded (TvComparePage *self)
{
  for (guint i = 0; i < 2; i++)
    {
      update_header (self, i);
      fill_thread_menu (self, i);
      tv_properties_set_profile (self->properties[i], self->profiles[i]);
      tv_properties_show_data (self->properties[i]);
    }
  self->n_differing = tv_properties_mark_differences (self->properties[0], self->properties[1]);
  tv_properties_align_rows (self->properties[0], self->properties[1]);
  show_banner (self);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "page.swap", TRUE);
  start_queries (self);
}

static void
on_load_done (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  TvComparePage *self = TV_COMPARE_PAGE (user_data);
  TvProfile *profile = TV_PROFILE (object);
  TvDiffSide side = profile == self->profiles[0] ? TV_DIFF_SIDE_BASE : TV_DIFF_SIDE_NEW;
  g_autoptr(GError) error = NULL;

  if (!tv_profile_load_finish (profile, result, &error))
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        fail (self, side, error->message);
      g_object_unref (self);
      return;
    }
  gtk_progress_bar_set_fraction (self->progress[side], 1.0);
  if (++self->n_loaded == 2)
    both_loaded (self);
  g_object_unref (self);
}

static void
on_fraction_changed (TvProfile     *profile,
                     GParamSpec    *pspec,
                     TvComparePage *self)
{
  TvDiffSide side = profile == self->profiles[0] ? TV_DIFF_SIDE_BASE : TV_DIFF_SIDE_NEW;

  gtk_progress_bar_set_fraction (self->progress[side], tv_profile_get_fraction (profile));
}

static void
start_loads (TvComparePage *self)
{
  for (guint i = 0; i < 2; i++)
    {
      TvProfile *profile = self->profiles[i];

      if (tv_profile_get_state (profile) == TV_PROFILE_LOADED)
        {
          gtk_progress_bar_set_fraction (self->progress[i], 1.0);
          self->n_loaded++;
          continue;
        }
      if (tv_profile_get_state (profile) == TV_PROFILE_FAILED)
        {
          fail (self, i, _("The profile could not be loaded."));
          return;
        }
      g_signal_connect_object (profile, "notify::fraction", G_CALLBACK (on_fraction_changed),
                               self, 0);
      tv_profile_load_async (profile, self->cancellable, on_load_done, g_object_ref (self));
    }
  if (self->n_loaded == 2)
    both_loaded (self);
}

static void
on_cancel_clicked (TvComparePage *self)
{
  g_cancellable_cancel (self->cancellable);
  adw_status_page_set_title (self->error_page, _("Comparison Cancelled"));
  adw_status_page_set_description (self->error_page, NULL);
  set_state (self, TV_COMPARE_PAGE_FAILED);
}

/* ------------------------------------------------------------------------ */
/* Swapping the sides                                                        */
/* ------------------------------------------------------------------------ */

#define SWAP_PAIR(pair) \
  G_STMT_START { gpointer tmp_ = (pair)[0]; (pair)[0] = (pair)[1]; (pair)[1] = tmp_; } G_STMT_END

/* The paned's two children trade places. */
static void
swap_children (GtkPaned *paned)
{
  g_autoptr(GtkWidget) start = g_object_ref (gtk_paned_get_start_child (paned));
  g_autoptr(GtkWidget) end = g_object_ref (gtk_paned_get_end_child (paned));

  gtk_paned_set_start_child (paned, NULL);
  gtk_paned_set_end_child (paned, NULL);
  gtk_paned_set_start_child (paned, end);
  gtk_paned_set_end_child (paned, start);
}

static void
swap_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  tv_compare_page_swap (TV_COMPARE_PAGE (widget));
}

/* ------------------------------------------------------------------------ */
/* Building the page                                                         */
/* ------------------------------------------------------------------------ */

static void
setup_menu_item (GtkSignalListItemFactory *factory,
                 GtkListItem              *item)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), 0.0);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  gtk_label_set_width_chars (GTK_LABEL (label), 4);
  gtk_list_item_set_child (item, label);
}

static void
bind_menu_item (GtkSignalListItemFactory *factory,
                GtkListItem              *item)
{
  GtkStringObject *string = gtk_list_item_get_item (item);

  gtk_label_set_text (GTK_LABEL (gtk_list_item_get_child (item)),
                      gtk_string_object_get_string (string));
}

/* A drop-down of strings whose button ellipsizes the chosen one ("Main
 * thread 140523…") rather than widen the page; its list keeps the
 * default look, in full. */
static void
ellipsize_drop_down (GtkDropDown *menu)
{
  g_autoptr(GtkListItemFactory) factory = gtk_signal_list_item_factory_new ();

  g_signal_connect (factory, "setup", G_CALLBACK (setup_menu_item), NULL);
  g_signal_connect (factory, "bind", G_CALLBACK (bind_menu_item), NULL);
  gtk_drop_down_set_list_factory (menu, gtk_drop_down_get_factory (menu));
  gtk_drop_down_set_factory (menu, factory);
}

static GtkWidget *
make_loading_page (TvComparePage *self)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 12);
  GtkWidget *button = gtk_button_new_with_mnemonic (_("_Cancel"));

  gtk_widget_set_valign (box, GTK_ALIGN_CENTER);
  gtk_widget_set_halign (box, GTK_ALIGN_CENTER);
  gtk_widget_set_size_request (box, 360, -1);
  for (guint i = 0; i < 2; i++)
    {
      g_autofree char *name = dup_display_name (self, i);
      g_autofree char *text = g_strdup_printf (_("Loading %s: %s"), side_name (i), name);

      self->progress[i] = GTK_PROGRESS_BAR (gtk_progress_bar_new ());
      gtk_progress_bar_set_text (self->progress[i], text);
      gtk_progress_bar_set_show_text (self->progress[i], TRUE);
      gtk_progress_bar_set_ellipsize (self->progress[i], PANGO_ELLIPSIZE_MIDDLE);
      gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->progress[i]));
    }
  gtk_widget_set_halign (button, GTK_ALIGN_CENTER);
  g_signal_connect_swapped (button, "clicked", G_CALLBACK (on_cancel_clicked), self);
  gtk_box_append (GTK_BOX (box), button);
  return box;
}

static GtkWidget *
make_graph_column (TvComparePage *self,
                   TvDiffSide     side)
{
  static const char * const states[] = {
    N_("All States"), N_("Holding the GIL"), N_("On CPU"), N_("Waiting for the GIL"),
    N_("With an Exception"), NULL
  };
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *bar = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *titles = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  g_autoptr(GtkStringList) state_items = gtk_string_list_new (NULL);

  G_STATIC_ASSERT (G_N_ELEMENTS (states) == TV_N_STATE_FILTERS + 1);
  for (guint i = 0; states[i] != NULL; i++)
    gtk_string_list_append (state_items, _(states[i]));

  self->headers[side] = gtk_label_new (NULL);
  gtk_label_set_xalign (GTK_LABEL (self->headers[side]), 0.0);
  gtk_label_set_ellipsize (GTK_LABEL (self->headers[side]), PANGO_ELLIPSIZE_MIDDLE);
  /* On a narrow page, the menus beside it give up their width too. */
  gtk_label_set_width_chars (GTK_LABEL (self->headers[side]), 14);
  gtk_widget_add_css_class (self->headers[side], "heading");
  gtk_box_append (GTK_BOX (titles), self->headers[side]);
  self->subtitles[side] = gtk_label_new (NULL);
  gtk_label_set_xalign (GTK_LABEL (self->subtitles[side]), 0.0);
  gtk_label_set_ellipsize (GTK_LABEL (self->subtitles[side]), PANGO_ELLIPSIZE_END);
  gtk_widget_add_css_class (self->subtitles[side], "dim-label");
  gtk_widget_add_css_class (self->subtitles[side], "caption");
  gtk_box_append (GTK_BOX (titles), self->subtitles[side]);
  gtk_widget_set_hexpand (titles, TRUE);
  gtk_widget_set_valign (titles, GTK_ALIGN_CENTER);
  gtk_box_append (GTK_BOX (bar), titles);

  self->thread_menus[side] = GTK_DROP_DOWN (gtk_drop_down_new (NULL, NULL));
  ellipsize_drop_down (self->thread_menus[side]);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->thread_menus[side]), _("Threads"));
  g_signal_connect (self->thread_menus[side], "notify::selected",
                    G_CALLBACK (on_thread_selected), self);
  gtk_box_append (GTK_BOX (bar), GTK_WIDGET (self->thread_menus[side]));

  self->state_menus[side] =
    GTK_DROP_DOWN (gtk_drop_down_new (G_LIST_MODEL (g_steal_pointer (&state_items)), NULL));
  ellipsize_drop_down (self->state_menus[side]);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->state_menus[side]), _("Thread state"));
  g_signal_connect (self->state_menus[side], "notify::selected",
                    G_CALLBACK (on_state_selected), self);
  gtk_box_append (GTK_BOX (bar), GTK_WIDGET (self->state_menus[side]));
  gtk_widget_add_css_class (bar, "toolbar");
  gtk_box_append (GTK_BOX (box), bar);

  self->graphs[side] = TV_FLAME_GRAPH (tv_flame_graph_new ());
  tv_flame_graph_set_view_state (self->graphs[side], self->states[side]);
  tv_flame_graph_set_color_scheme (self->graphs[side], TV_FLAME_COLORS_DIFF);
  gtk_widget_set_vexpand (GTK_WIDGET (self->graphs[side]), TRUE);
  g_signal_connect (self->graphs[side], "notify::zoom-root", G_CALLBACK (on_zoom_changed), self);
  g_signal_connect (self->graphs[side], "notify::hovered-node", G_CALLBACK (on_hover_changed),
                    self);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->graphs[side]));
  return box;
}

static GtkWidget *
make_differential (TvComparePage *self)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *bar = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);

  self->diff_summary = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (self->diff_summary, 0.0);
  gtk_label_set_wrap (self->diff_summary, TRUE);
  gtk_widget_set_hexpand (GTK_WIDGET (self->diff_summary), TRUE);
  gtk_box_append (GTK_BOX (bar), GTK_WIDGET (self->diff_summary));

  self->self_toggle = GTK_TOGGLE_BUTTON (gtk_toggle_button_new_with_mnemonic (_("_Self Time")));
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->self_toggle),
                               _("Colour each frame by the change of its own time rather than "
                                 "of its total"));
  g_signal_connect_swapped (self->self_toggle, "toggled", G_CALLBACK (update_diff_graph), self);
  gtk_box_append (GTK_BOX (bar), GTK_WIDGET (self->self_toggle));

  self->vanished_toggle =
    GTK_TOGGLE_BUTTON (gtk_toggle_button_new_with_mnemonic (_("_Vanished Stacks")));
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->vanished_toggle),
                               _("Show the base profile with the stacks the new one lacks"));
  g_signal_connect_swapped (self->vanished_toggle, "toggled", G_CALLBACK (update_diff_graph),
                            self);
  gtk_box_append (GTK_BOX (bar), GTK_WIDGET (self->vanished_toggle));
  gtk_widget_add_css_class (bar, "toolbar");
  gtk_box_append (GTK_BOX (box), bar);

  self->diff_graph = TV_FLAME_GRAPH (tv_flame_graph_new ());
  tv_flame_graph_set_color_scheme (self->diff_graph, TV_FLAME_COLORS_DIFF);
  gtk_widget_set_vexpand (GTK_WIDGET (self->diff_graph), TRUE);
  g_signal_connect (self->diff_graph, "notify::zoom-root", G_CALLBACK (on_zoom_changed), self);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->diff_graph));
  return box;
}

static void
on_table_activated (TvDiffTable   *table,
                    guint          index,
                    TvComparePage *self)
{
  guint n_rows;
  const TvDiffFunction *rows = tv_diff_get_functions (self->diff, &n_rows);
  TvFlameGraph *graphs[] = { self->diff_graph, self->graphs[0], self->graphs[1] };
  g_autofree char *regex = NULL;

  if (index >= n_rows)
    return;
  /* The function's frames, in both graphs, in the differential view.  The
   * entry holds at most 65535 characters, and shows what it holds: a
   * long name is searched for by its start and its end, as it is shown. */
  regex = tv_text_dup_name_regex (tv_diff_get_function_name (self->diff, &rows[index]));
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

/* The merge keys of the merge menu, in its order. */
static const TvMergeKey merge_keys[] = { TV_MERGE_FUNCTION, TV_MERGE_LINE,
                                         TV_MERGE_INSTRUCTION };

static void
on_merge_selected (GtkDropDown   *menu,
                   GParamSpec    *pspec,
                   TvComparePage *self)
{
  guint selected = gtk_drop_down_get_selected (menu);

  if (selected < G_N_ELEMENTS (merge_keys))
    tv_compare_page_set_merge (self, merge_keys[selected]);
}

static void
on_by_selected (GtkDropDown   *menu,
                GParamSpec    *pspec,
                TvComparePage *self)
{
  tv_compare_page_set_normalization (self, gtk_drop_down_get_selected (menu) == 1
                                           ? TV_DIFF_BY_SHARE : TV_DIFF_BY_TIME);
}

static void
on_link_toggled (GtkCheckButton *button,
                 TvComparePage  *self)
{
  tv_compare_page_set_link_filters (self, gtk_check_button_get_active (button));
}

static GtkWidget *
make_toolbar (TvComparePage *self)
{
  static const char * const merges[] = { N_("By Function"), N_("By Line"), N_("By Instruction"),
                                         NULL };
  static const char * const bys[] = { N_("By Time"), N_("By Share of Samples"), NULL };
  GtkWidget *bar = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);
  GtkWidget *switcher = gtk_stack_switcher_new ();
  GtkWidget *merge, *by, *swap, *link;
  g_autoptr(GtkStringList) merge_items = gtk_string_list_new (NULL);
  g_autoptr(GtkStringList) by_items = gtk_string_list_new (NULL);

  for (guint i = 0; merges[i] != NULL; i++)
    gtk_string_list_append (merge_items, _(merges[i]));
  for (guint i = 0; bys[i] != NULL; i++)
    gtk_string_list_append (by_items, _(bys[i]));

  /* On a narrow page the controls wrap onto a second line, rather than
   * widen the window past the screen.  The box is only their container:
   * its layout is replaced, so none of GtkBox's own setters apply. */
  gtk_widget_set_layout_manager (bar, tv_wrap_layout_new (6));

  gtk_stack_switcher_set_stack (GTK_STACK_SWITCHER (switcher), self->views);
  gtk_box_append (GTK_BOX (bar), switcher);

  merge = gtk_drop_down_new (G_LIST_MODEL (g_steal_pointer (&merge_items)), NULL);
  gtk_widget_set_tooltip_text (merge, _("How frames of the two profiles are matched"));
  g_signal_connect (merge, "notify::selected", G_CALLBACK (on_merge_selected), self);
  self->merge_menu = GTK_DROP_DOWN (merge);
  gtk_box_append (GTK_BOX (bar), merge);

  by = gtk_drop_down_new (G_LIST_MODEL (g_steal_pointer (&by_items)), NULL);
  gtk_widget_set_tooltip_text (by, _("Compare time (the stats block’s measured rate, else the "
                                     "sampling interval) or each frame’s share of the samples"));
  g_signal_connect (by, "notify::selected", G_CALLBACK (on_by_selected), self);
  self->by_menu = GTK_DROP_DOWN (by);
  gtk_box_append (GTK_BOX (bar), by);

  swap = gtk_button_new_from_icon_name ("object-flip-horizontal-symbolic");
  gtk_widget_set_tooltip_text (swap, _("Swap Base and New"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (swap), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Swap Base and New"), -1);
  gtk_actionable_set_action_name (GTK_ACTIONABLE (swap), "page.swap");
  /* Framed, as the menus beside it are: the toolbar would make it flat. */
  gtk_widget_add_css_class (swap, "raised");
  gtk_box_append (GTK_BOX (bar), swap);

  link = gtk_check_button_new_with_mnemonic (_("_Link Filters"));
  gtk_widget_set_tooltip_text (link, _("Both sides show the same thread state, and the thread "
                                       "at the same place in their lists"));
  g_signal_connect (link, "toggled", G_CALLBACK (on_link_toggled), self);
  self->link_button = GTK_CHECK_BUTTON (link);
  gtk_box_append (GTK_BOX (bar), link);

  self->search_entry = gtk_search_entry_new ();
  gtk_widget_set_hexpand (GTK_WIDGET (self->search_entry), TRUE);
  gtk_widget_set_halign (GTK_WIDGET (self->search_entry), GTK_ALIGN_END);
  /* Natural 24 characters, at least 10. */
  gtk_editable_set_width_chars (GTK_EDITABLE (self->search_entry), 10);
  gtk_editable_set_max_width_chars (GTK_EDITABLE (self->search_entry), 24);
  g_object_set (self->search_entry, "placeholder-text", _("Search both (regex)"), NULL);
  g_signal_connect (self->search_entry, "search-changed", G_CALLBACK (on_search_changed), self);
  gtk_box_append (GTK_BOX (bar), GTK_WIDGET (self->search_entry));
  gtk_widget_add_css_class (bar, "toolbar");
  return bar;
}

static GtkWidget *
make_banner (TvComparePage *self)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  GtkWidget *icon = gtk_image_new_from_icon_name ("dialog-warning-symbolic");

  self->banner_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_wrap (self->banner_label, TRUE);
  gtk_label_set_xalign (self->banner_label, 0.0);
  gtk_label_set_selectable (self->banner_label, TRUE);
  gtk_widget_set_hexpand (GTK_WIDGET (self->banner_label), TRUE);
  gtk_box_append (GTK_BOX (box), icon);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->banner_label));
  gtk_widget_add_css_class (box, "compare-banner");
  gtk_widget_set_visible (box, FALSE);
  self->banner = box;
  return box;
}

/* The two panes of properties, as wide as each other, in one scrolled
 * window: they scroll together and their rows line up
 * (tv_properties_align_rows() once both are filled). */
static GtkWidget *
make_properties (TvComparePage *self)
{
  GtkWidget *scrolled = gtk_scrolled_window_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);
  g_autoptr(GtkSizeGroup) widths = gtk_size_group_new (GTK_SIZE_GROUP_HORIZONTAL);

  self->property_panes = GTK_BOX (box);
  for (guint i = 0; i < 2; i++)
    {
      self->properties[i] = tv_properties_new ();
      tv_properties_set_scrolls (self->properties[i], FALSE);
      gtk_widget_set_hexpand (GTK_WIDGET (self->properties[i]), TRUE);
      gtk_size_group_add_widget (widths, GTK_WIDGET (self->properties[i]));
      gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->properties[i]));
      if (i == 0)
        gtk_box_append (GTK_BOX (box), gtk_separator_new (GTK_ORIENTATION_VERTICAL));
    }
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scrolled), GTK_POLICY_NEVER,
                                  GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), box);
  return scrolled;
}

static GtkWidget *
make_content (TvComparePage *self)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *paned = gtk_paned_new (GTK_ORIENTATION_HORIZONTAL);

  self->views = GTK_STACK (gtk_stack_new ());
  gtk_widget_set_vexpand (GTK_WIDGET (self->views), TRUE);

  self->columns = GTK_PANED (paned);
  gtk_paned_set_start_child (GTK_PANED (paned), make_graph_column (self, TV_DIFF_SIDE_BASE));
  gtk_paned_set_end_child (GTK_PANED (paned), make_graph_column (self, TV_DIFF_SIDE_NEW));
  gtk_paned_set_shrink_start_child (GTK_PANED (paned), FALSE);
  gtk_paned_set_shrink_end_child (GTK_PANED (paned), FALSE);
  gtk_stack_add_titled (self->views, paned, "side-by-side", _("Side by Side"));

  gtk_stack_add_titled (self->views, make_differential (self), "differential",
                        _("Differential"));

  self->table = TV_DIFF_TABLE (tv_diff_table_new ());
  g_signal_connect (self->table, "function-activated", G_CALLBACK (on_table_activated), self);
  gtk_stack_add_titled (self->views, GTK_WIDGET (self->table), "functions", _("Functions"));

  gtk_stack_add_titled (self->views, make_properties (self), "properties", _("Properties"));

  gtk_box_append (GTK_BOX (box), make_banner (self));
  gtk_box_append (GTK_BOX (box), make_toolbar (self));
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->views));
  return box;
}

/* ------------------------------------------------------------------------ */
/* Export                                                                    */
/* ------------------------------------------------------------------------ */

typedef struct
{
  TvDiff         *diff;
  TvExportFilter  filter;
  gboolean        has_filter;
  char           *base_name;
  char           *new_name;
  char           *search;
} ExportJob;

static void
export_job_free (ExportJob *job)
{
  tv_diff_unref (job->diff);
  tv_export_filter_clear (&job->filter);
  g_free (job->base_name);
  g_free (job->new_name);
  g_free (job->search);
  g_free (job);
}

/* On the export's worker. */
static gboolean
build_export (gpointer       user_data,
              GFile         *dest,
              GBytes       **bytes,
              GCancellable  *cancellable,
              GError       **error)
{
  ExportJob *job = user_data;

  *bytes = tv_export_html_build_diff (job->diff, job->has_filter ? &job->filter : NULL,
                                      job->base_name, job->new_name, job->search, cancellable,
                                      error);
  return *bytes != NULL;
}

/* The page says what both sides were filtered by: the state filter and
 * the transforms (the same on both sides, as NEW's function keys).  When
 * the sides' filters differ (a thread chosen on either side, or another
 * state), no one filter says it: FALSE, and the page says nothing. */
static gboolean
fill_export_filter (TvComparePage  *self,
                    TvExportFilter *filter)
{
  TvViewState *base = self->states[page_side (self, self->diff, TV_DIFF_SIDE_BASE)];
  TvViewState *new_state = self->states[page_side (self, self->diff, TV_DIFF_SIDE_NEW)];
  guint n_base, n_new, n_hidden;
  const guint32 *hidden;

  tv_view_state_get_threads (base, &n_base);
  tv_view_state_get_threads (new_state, &n_new);
  if (n_base > 0 || n_new > 0
      || tv_view_state_get_state_filter (base) != tv_view_state_get_state_filter (new_state))
    return FALSE;
  filter->state = tv_view_state_get_state_filter (new_state);
  filter->merge = self->merge;
  filter->collapse_recursion = tv_view_state_get_collapse_recursion (new_state);
  filter->focus_function = tv_view_state_get_focus_function (new_state);
  hidden = tv_view_state_get_hidden_functions (new_state, &n_hidden);
  g_array_append_vals (filter->hidden_functions, hidden, n_hidden);
  return TRUE;
}

void
tv_compare_page_export_async (TvComparePage       *self,
                              GFile               *dest,
                              GCancellable        *cancellable,
                              GAsyncReadyCallback  callback,
                              gpointer             user_data)
{
  ExportJob *job;

  g_return_if_fail (TV_IS_COMPARE_PAGE (self));
  g_return_if_fail (G_IS_FILE (dest));

  if (self->diff == NULL)
    {
      g_task_report_new_error (self, callback, user_data, tv_compare_page_export_async,
                               G_IO_ERROR, G_IO_ERROR_NOT_INITIALIZED,
                               _("The comparison is not ready yet"));
      return;
    }
  job = g_new0 (ExportJob, 1);
  job->diff = tv_diff_ref (self->diff);
  tv_export_filter_init (&job->filter);
  job->has_filter = fill_export_filter (self, &job->filter);
  job->base_name = g_file_get_basename (diff_side_file (self, TV_DIFF_SIDE_BASE));
  job->new_name = g_file_get_basename (diff_side_file (self, TV_DIFF_SIDE_NEW));
  job->search = g_strdup (self->search != NULL && self->search[0] != '\0' ? self->search : NULL);
  tv_export_task_run (self, tv_compare_page_export_async, dest, job,
                      (GDestroyNotify) export_job_free, build_export, cancellable, callback,
                      user_data);
}

gboolean
tv_compare_page_export_finish (TvComparePage  *self,
                               GAsyncResult   *result,
                               GError        **error)
{
  g_return_val_if_fail (TV_IS_COMPARE_PAGE (self), FALSE);

  return tv_export_task_finish (self, result, error);
}

/* The file name of the diff's SIDE without its extension: "run.bin" is
 * "run". */
static char *
dup_stem (TvComparePage *self,
          TvDiffSide     side)
{
  return tv_export_dup_stem (diff_side_file (self, side), side_name (side));
}

static void
export_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  static const TvExportFileType types[] = { { N_("Web Page (HTML)"), "text/html", ".html" } };
  TvComparePage *self = TV_COMPARE_PAGE (widget);
  g_autofree char *base_stem = NULL;
  g_autofree char *new_stem = NULL;
  g_autofree char *suggested = NULL;

  if (self->diff == NULL)
    return;
  base_stem = dup_stem (self, TV_DIFF_SIDE_BASE);
  new_stem = dup_stem (self, TV_DIFF_SIDE_NEW);
  /* "a.bin" against "b.bin" exports to "a-vs-b.html": two comparisons
   * exported to one folder do not take each other's name. */
  suggested = g_strdup_printf ("%s-vs-%s.html", base_stem, new_stem);
  tv_export_dialog_show (widget, ADW_TOAST_OVERLAY (adw_bin_get_child (ADW_BIN (self))),
                         _("Export the Comparison"), types, G_N_ELEMENTS (types),
                         diff_side_file (self, TV_DIFF_SIDE_NEW), suggested,
                         (TvExportStartFunc) tv_compare_page_export_async, self->cancellable);
}

/* ------------------------------------------------------------------------ */
/* Public API                                                                */
/* ------------------------------------------------------------------------ */

TvComparePage *
tv_compare_page_new (TvProfile *base,
                     TvProfile *new_profile)
{
  TvComparePage *self;
  GtkWidget *toasts = adw_toast_overlay_new ();
  GtkWidget *error_page = adw_status_page_new ();

  g_return_val_if_fail (TV_IS_PROFILE (base), NULL);
  g_return_val_if_fail (TV_IS_PROFILE (new_profile), NULL);
  /* Not one being loaded elsewhere: its load's end would not reach us. */
  g_return_val_if_fail (tv_profile_get_state (base) == TV_PROFILE_NEW
                        || tv_profile_get_state (base) >= TV_PROFILE_LOADED, NULL);
  g_return_val_if_fail (tv_profile_get_state (new_profile) == TV_PROFILE_NEW
                        || tv_profile_get_state (new_profile) >= TV_PROFILE_LOADED, NULL);

  self = g_object_new (TV_TYPE_COMPARE_PAGE, NULL);
  self->profiles[0] = g_object_ref (base);
  self->profiles[1] = g_object_ref (new_profile);
  update_title (self);

  self->stack = GTK_STACK (gtk_stack_new ());
  gtk_stack_add_named (self->stack, make_loading_page (self), "loading");
  adw_status_page_set_icon_name (ADW_STATUS_PAGE (error_page), "dialog-error-symbolic");
  self->error_page = ADW_STATUS_PAGE (error_page);
  gtk_stack_add_named (self->stack, error_page, "error");
  gtk_stack_add_named (self->stack, make_content (self), "content");
  gtk_stack_set_visible_child_name (self->stack, "loading");
  adw_toast_overlay_set_child (ADW_TOAST_OVERLAY (toasts), GTK_WIDGET (self->stack));
  adw_bin_set_child (ADW_BIN (self), toasts);

  for (guint i = 0; i < 2; i++)
    g_signal_connect_object (self->states[i], "changed", G_CALLBACK (on_view_state_changed),
                             self, 0);
  start_loads (self);
  return self;
}

TvProfile *
tv_compare_page_get_profile (TvComparePage *self,
                             TvDiffSide     side)
{
  g_return_val_if_fail (TV_IS_COMPARE_PAGE (self), NULL);
  g_return_val_if_fail (side <= TV_DIFF_SIDE_NEW, NULL);

  return self->profiles[side];
}

TvComparePageState
tv_compare_page_get_state (TvComparePage *self)
{
  g_return_val_if_fail (TV_IS_COMPARE_PAGE (self), TV_COMPARE_PAGE_FAILED);

  return self->state;
}

gboolean
tv_compare_page_is_busy (TvComparePage *self)
{
  g_return_val_if_fail (TV_IS_COMPARE_PAGE (self), FALSE);

  if (self->state != TV_COMPARE_PAGE_READY)
    return self->state == TV_COMPARE_PAGE_LOADING;
  if (self->diff == NULL
      || tv_diff_get_tree (self->diff, TV_DIFF_SIDE_BASE) != self->trees[0]
      || tv_diff_get_tree (self->diff, TV_DIFF_SIDE_NEW) != self->trees[1]
      || self->pending > 0 || self->diffing || self->search_cancellable != NULL)
    return TRUE;
  for (guint i = 0; i < 2; i++)
    if (tv_flame_graph_is_laying_out (self->graphs[i]))
      return TRUE;
  return FALSE;
}

const char *
tv_compare_page_get_error_message (TvComparePage *self)
{
  g_return_val_if_fail (TV_IS_COMPARE_PAGE (self), NULL);

  return self->error_message;
}

TvDiff *
tv_compare_page_get_diff (TvComparePage *self)
{
  g_return_val_if_fail (TV_IS_COMPARE_PAGE (self), NULL);

  return self->diff;
}

TvFlameGraph *
tv_compare_page_get_graph (TvComparePage *self,
                           TvDiffSide     side)
{
  g_return_val_if_fail (TV_IS_COMPARE_PAGE (self), NULL);
  g_return_val_if_fail (side <= TV_DIFF_SIDE_NEW, NULL);

  return self->graphs[side];
}

TvFlameGraph *
tv_compare_page_get_diff_graph (TvComparePage *self)
{
  g_return_val_if_fail (TV_IS_COMPARE_PAGE (self), NULL);

  return self->diff_graph;
}

TvDiffTable *
tv_compare_page_get_table (TvComparePage *self)
{
  g_return_val_if_fail (TV_IS_COMPARE_PAGE (self), NULL);

  return self->table;
}

TvViewState *
tv_compare_page_get_view_state (TvComparePage *self,
                                TvDiffSide     side)
{
  g_return_val_if_fail (TV_IS_COMPARE_PAGE (self), NULL);
  g_return_val_if_fail (side <= TV_DIFF_SIDE_NEW, NULL);

  return self->states[side];
}

void
tv_compare_page_show_view (TvComparePage *self,
                           const char    *name)
{
  g_return_if_fail (TV_IS_COMPARE_PAGE (self));

  gtk_stack_set_visible_child_name (self->views, name);
}

void
tv_compare_page_set_normalization (TvComparePage      *self,
                                   TvDiffNormalization by)
{
  g_return_if_fail (TV_IS_COMPARE_PAGE (self));

  if (self->normalization == by)
    return;
  self->normalization = by;
  /* The menu shows it, whoever set it (its handler finds nothing to do). */
  gtk_drop_down_set_selected (self->by_menu, by == TV_DIFF_BY_SHARE ? 1 : 0);
  if (self->n_loaded == 2)
    show_banner (self);
  remake_diff (self);
}

void
tv_compare_page_set_merge (TvComparePage *self,
                           TvMergeKey     merge)
{
  g_return_if_fail (TV_IS_COMPARE_PAGE (self));

  if (self->merge == merge)
    return;
  self->merge = merge;
  for (guint i = 0; i < G_N_ELEMENTS (merge_keys); i++)
    if (merge_keys[i] == merge)
      gtk_drop_down_set_selected (self->merge_menu, i);
  /* Each state says "changed"; one query round follows the second. */
  tv_view_state_set_merge (self->states[0], merge);
  tv_view_state_set_merge (self->states[1], merge);
  if (self->n_loaded == 2)
    show_banner (self);
}

void
tv_compare_page_set_search (TvComparePage *self,
                            const char    *regex)
{
  g_return_if_fail (TV_IS_COMPARE_PAGE (self));

  if (g_strcmp0 (self->search, regex) == 0)
    return;
  g_free (self->search);
  self->search = g_strdup (regex);
  /* Replacing the entry's text empties it first, and an empty search entry
   * says so at once: that is not the user's search. */
  g_signal_handlers_block_by_func (self->search_entry, on_search_changed, self);
  if (g_strcmp0 (gtk_editable_get_text (GTK_EDITABLE (self->search_entry)),
                 regex != NULL ? regex : "") != 0)
    gtk_editable_set_text (GTK_EDITABLE (self->search_entry), regex != NULL ? regex : "");
  g_signal_handlers_unblock_by_func (self->search_entry, on_search_changed, self);
  apply_search (self);
}

void
tv_compare_page_swap (TvComparePage *self)
{
  g_return_if_fail (TV_IS_COMPARE_PAGE (self));

  /* Only once both are loaded (the loading page's bars stay as they are). */
  if (self->n_loaded < 2 || self->state == TV_COMPARE_PAGE_FAILED)
    return;
  SWAP_PAIR (self->profiles);
  SWAP_PAIR (self->states);
  SWAP_PAIR (self->trees);
  SWAP_PAIR (self->thread_choices);
  SWAP_PAIR (self->headers);
  SWAP_PAIR (self->subtitles);
  SWAP_PAIR (self->thread_menus);
  SWAP_PAIR (self->state_menus);
  SWAP_PAIR (self->graphs);
  SWAP_PAIR (self->properties);
  /* A side's column (its graph, zoom included, and menus) and properties
   * go with it; the differences marked and the rows' heights are the same
   * either way round. */
  swap_children (self->columns);
  gtk_box_reorder_child_after (self->property_panes, GTK_WIDGET (self->properties[0]), NULL);
  gtk_box_reorder_child_after (self->property_panes, GTK_WIDGET (self->properties[1]),
                               gtk_widget_get_last_child (GTK_WIDGET (self->property_panes)));
  for (guint i = 0; i < 2; i++)
    update_header (self, i);
  show_banner (self);
  update_title (self);
  remake_diff (self);
}

const char *
tv_compare_page_get_title (TvComparePage *self)
{
  g_return_val_if_fail (TV_IS_COMPARE_PAGE (self), NULL);

  return self->title;
}

void
tv_compare_page_set_link_filters (TvComparePage *self,
                                  gboolean       link)
{
  g_return_if_fail (TV_IS_COMPARE_PAGE (self));

  if (self->link_filters == !!link)
    return;
  self->link_filters = !!link;
  gtk_check_button_set_active (self->link_button, link);
  /* NEW follows BASE from now on. */
  if (link && self->n_loaded == 2)
    sync_filters (self, TV_DIFF_SIDE_BASE);
}

void
tv_compare_page_cancel (TvComparePage *self)
{
  g_return_if_fail (TV_IS_COMPARE_PAGE (self));

  g_cancellable_cancel (self->cancellable);
  g_cancellable_cancel (self->job_cancellable);
  g_cancellable_cancel (self->search_cancellable);
}

const char *
tv_compare_page_get_banner_text (TvComparePage *self)
{
  g_return_val_if_fail (TV_IS_COMPARE_PAGE (self), NULL);

  return self->banner_text;
}

const char *
tv_compare_page_get_side_summary (TvComparePage *self,
                                  TvDiffSide     side)
{
  g_return_val_if_fail (TV_IS_COMPARE_PAGE (self), NULL);
  g_return_val_if_fail (side <= TV_DIFF_SIDE_NEW, NULL);

  return gtk_label_get_text (GTK_LABEL (self->subtitles[side]));
}

guint
tv_compare_page_get_n_differing_properties (TvComparePage *self)
{
  g_return_val_if_fail (TV_IS_COMPARE_PAGE (self), 0);

  return self->n_differing;
}

static void
tv_compare_page_dispose (GObject *object)
{
  TvComparePage *self = TV_COMPARE_PAGE (object);

  tv_compare_page_cancel (self);
  adw_bin_set_child (ADW_BIN (self), NULL);
  G_OBJECT_CLASS (tv_compare_page_parent_class)->dispose (object);
}

static void
tv_compare_page_finalize (GObject *object)
{
  TvComparePage *self = TV_COMPARE_PAGE (object);

  for (guint i = 0; i < 2; i++)
    {
      g_clear_object (&self->profiles[i]);
      g_clear_object (&self->states[i]);
      g_clear_pointer (&self->trees[i], tv_call_tree_unref);
      g_clear_pointer (&self->thread_choices[i], g_array_unref);
    }
  g_clear_pointer (&self->diff, tv_diff_unref);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->job_cancellable);
  g_clear_object (&self->search_cancellable);
  g_clear_pointer (&self->error_message, g_free);
  g_clear_pointer (&self->search, g_free);
  g_clear_pointer (&self->banner_text, g_free);
  g_clear_pointer (&self->title, g_free);
  G_OBJECT_CLASS (tv_compare_page_parent_class)->finalize (object);
}

static void
tv_compare_page_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  TvComparePage *self = TV_COMPARE_PAGE (object);

  switch (prop_id)
    {
    case PROP_STATE:
      g_value_set_int (value, self->state);
      break;
    case PROP_BUSY:
      g_value_set_boolean (value, tv_compare_page_is_busy (self));
      break;
    case PROP_TITLE:
      g_value_set_string (value, self->title);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tv_compare_page_class_init (TvComparePageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = tv_compare_page_dispose;
  object_class->finalize = tv_compare_page_finalize;
  object_class->get_property = tv_compare_page_get_property;

  properties[PROP_STATE] =
    g_param_spec_int ("state", NULL, NULL, TV_COMPARE_PAGE_LOADING, TV_COMPARE_PAGE_FAILED,
                      TV_COMPARE_PAGE_LOADING,
                      G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_BUSY] =
    g_param_spec_boolean ("busy", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_TITLE] =
    g_param_spec_string ("title", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_install_action (GTK_WIDGET_CLASS (klass), "page.export", NULL, export_action);
  gtk_widget_class_install_action (GTK_WIDGET_CLASS (klass), "page.swap", NULL, swap_action);
}

static void
tv_compare_page_init (TvComparePage *self)
{
  self->cancellable = g_cancellable_new ();
  self->merge = TV_MERGE_FUNCTION;
  self->normalization = TV_DIFF_BY_TIME;
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "page.swap", FALSE);
  for (guint i = 0; i < 2; i++)
    {
      self->states[i] = tv_view_state_new ();
      tv_view_state_set_merge (self->states[i], TV_MERGE_FUNCTION);
      self->thread_choices[i] = g_array_new (FALSE, FALSE, sizeof (guint32));
    }
}
