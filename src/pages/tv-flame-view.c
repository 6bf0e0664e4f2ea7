/* tv-flame-view.c: the flame graph page of a profile
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The filters (threads, thread state, merge key, inverted) write to the
 * profile's TvViewState; a change of the state asks the model for a new
 * tree (tv_profile_query_async) and a search for new matches, both on a
 * worker, each with a cancellable and a generation number so that a late
 * result never replaces a newer one.  The graph keeps showing the old
 * tree meanwhile.
 */
#include <glib/gi18n.h>

#include "tv-call-tree-view.h"
#include "tv-flame-view.h"
#include "tv-function-table.h"
#include "tv-palette.h"
#include "tv-popup-tooltips.h"
#include "tv-source-view.h"
#include "tv-timeline.h"
#include "tv-text.h"
#include "tv-thread-item.h"
#include "tv-trace-paint.h"
#include "tv-units.h"
#include "tv-wrap-layout.h"

struct _TvFlameView
{
  AdwBin             parent_instance;

  TvProfile         *profile;
  TvViewState       *state;
  TvCallTree        *tree;

  guint              query_generation;
  GCancellable      *query_cancellable;
  /* The progress of the query being made, which its worker writes; shown
   * once the query has taken QUERY_PROGRESS_DELAY_US. */
  gint              *query_permille;
  gint64             query_started;
  guint              query_progress_source;
  GtkProgressBar    *query_progress_bar;
  char              *search;
  guint              search_generation;
  GCancellable      *search_cancellable;
  TvFlameMatches    *matches;
  /* A function chosen in the table: its frames are highlighted. */
  guint32            highlight_function;
  gboolean           updating_controls;
  TvFunctionTable   *function_table;
  TvCallTreeView    *call_tree_view;
  TvSourceView      *source_view;

  GtkWidget         *toolbar;
  GtkBox            *breadcrumbs;
  GtkScrolledWindow *crumb_scroller;
  GtkWidget         *crumb_more;
  GtkMenuButton     *threads_button;
  GtkButton         *all_threads_button;
  GtkScrolledWindow *threads_scroller;
  GtkListView       *threads_list;
  GListModel        *threads_model;   /* until the menu is first shown */
  /* The check buttons of the thread menu's rows that show, by their
   * "thread" (TvThread.index). */
  GPtrArray         *thread_checks;
  GtkDropDown       *state_dropdown;
  GtkDropDown       *merge_dropdown;
  GtkDropDown       *colors_dropdown;
  GtkToggleButton   *inverted_button;
  GtkToggleButton   *icicle_button;
  GtkToggleButton   *search_button;
  GtkSearchBar      *search_bar;
  GtkSearchEntry    *search_entry;
  GtkLabel          *match_label;
  GtkLabel          *summary_label;
  GtkStack          *graph_stack;
  AdwStatusPage     *empty_page;
  GtkBox            *graph_box;
  TvFlameGraph      *graph;
  GtkBox            *legend;
  GtkWidget         *side_box;
};

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
static void
set_matches (TvFlameView    *self,
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

/* The merge dropdown's order. */
static const TvMergeKey merge_keys[] = {
  TV_MERGE_FUNCTION, TV_MERGE_LINE, TV_MERGE_INSTRUCTION, TV_MERGE_FRAME,
};

static void start_search (TvFlameView *self);

/* ------------------------------------------------------------------------ */
/* The summary line                                                          */
/* ------------------------------------------------------------------------ */

static char *
describe_threads (TvFlameView *self)
{
  TvProfileData *data = tv_profile_get_data (self->profile);
  const guint32 *threads;
  guint n_threads;

  threads = tv_view_state_get_threads (self->state, &n_threads);
  if (n_threads == 0)
    return g_strdup (_("all threads"));
  if (n_threads == 1)
    {
      const TvThread *thread = tv_profile_data_get_thread (data, threads[0]);
      g_autofree char *id = g_strdup_printf ("%" G_GUINT64_FORMAT, thread->thread_id);

      return g_strdup_printf (_("thread %s"), id);
    }
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u thread", "%u threads", n_threads),
                          n_threads);
}

/* The heatmap's selection, if any: how many ranges (their time in all is
 * the wall time the line gives). */
static void
describe_ranges (TvFlameView *self,
                 GString     *text)
{
  const TvTimeRange *ranges;
  guint n_ranges;

  ranges = tv_view_state_get_ranges (self->state, &n_ranges);
  if (ranges == NULL)
    return;
  /* Translators: follows the line above the flame graph, e.g. ", in the
   * selected heatmap cells (2 time ranges)". */
  g_string_append_printf (text, g_dngettext (GETTEXT_PACKAGE,
                                             ", in the selected heatmap cells (%u time range)",
                                             ", in the selected heatmap cells (%u time ranges)",
                                             n_ranges),
                          n_ranges);
}

/* Seconds of wall time the samples shown come from: the heatmap's cells,
 * the selected range or the whole recording; FALSE without samples. */
static gboolean
get_wall_seconds (TvFlameView *self,
                  double      *seconds)
{
  TvProfileData *data = tv_call_tree_get_data (self->tree);
  const TvTimeRange *ranges;
  guint64 start, end;
  guint n_ranges;

  ranges = tv_view_state_get_ranges (self->state, &n_ranges);
  if (ranges != NULL)
    {
      *seconds = (double) tv_time_ranges_get_duration (ranges, n_ranges) / 1e6;
      return TRUE;
    }
  if (tv_view_state_get_range (self->state, &start, &end))
    {
      *seconds = (double) (end - start) / 1e6;
      return TRUE;
    }
  if (tv_profile_data_get_time_span (data, &start, &end))
    {
      *seconds = (double) (end - start) / 1e6;
      return TRUE;
    }
  return FALSE;
}

static void
update_summary (TvFlameView *self)
{
  static const char *state_names[TV_N_STATE_FILTERS] = {
    N_("all samples"),
    N_("holding the GIL"),
    N_("on CPU"),
    N_("waiting for the GIL"),
    N_("with an exception"),
  };
  g_autoptr(GString) text = g_string_new (NULL);
  g_autofree char *threads = NULL;
  g_autofree char *count = NULL;
  g_autofree char *thread_time = NULL;
  guint64 samples;
  double wall;

  if (self->tree == NULL)
    {
      gtk_label_set_text (self->summary_label, _("Computing…"));
      return;
    }

  threads = describe_threads (self);
  samples = tv_call_tree_get_n_samples (self->tree);
  count = tv_format_count (samples);
  thread_time = tv_format_thread_time (tv_call_tree_samples_to_seconds (self->tree, samples,
                                                                       NULL));
  /* Translators: the line above the flame graph, e.g. "all threads, on
   * CPU: 1,234 samples, 2.42 s of thread time"; the wall time follows. */
  g_string_append_printf (text, g_dngettext (GETTEXT_PACKAGE, "%s, %s: %s sample, %s",
                                             "%s, %s: %s samples, %s",
                                             samples > G_MAXULONG ? G_MAXULONG : (gulong) samples),
                          threads, _(state_names[tv_view_state_get_state_filter (self->state)]),
                          count, thread_time);
  if (get_wall_seconds (self, &wall))
    {
      g_autofree char *wall_time = tv_format_wall_time (wall);

      /* Translators: follows "…, 2.42 s of thread time" in the line above
       * the flame graph: " in 315 ms of wall time". */
      g_string_append_printf (text, _(" in %s"), wall_time);
    }
  if (tv_view_state_get_range (self->state, NULL, NULL))
    g_string_append (text, _(", in the selected time range"));
  describe_ranges (self, text);
  if (tv_view_state_get_inverted (self->state))
    g_string_append (text, _(", inverted"));
  if (tv_view_state_get_focus_function (self->state) != TV_NODE_NONE)
    g_string_append (text, _(", focused on one function"));
  {
    guint n_hidden;

    tv_view_state_get_hidden_functions (self->state, &n_hidden);
    if (n_hidden > 0)
      g_string_append_printf (text, g_dngettext (GETTEXT_PACKAGE, ", %u function hidden",
                                                 ", %u functions hidden", n_hidden),
                              n_hidden);
  }
  if (tv_view_state_get_collapse_recursion (self->state))
    g_string_append (text, _(", recursion collapsed"));
  gtk_label_set_text (self->summary_label, text->str);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "view.reset-transforms",
                                 tv_view_state_has_transforms (self->state));
}

/* ------------------------------------------------------------------------ */
/* The legend                                                                */
/* ------------------------------------------------------------------------ */

typedef enum
{
  SWATCH_MODULE,
  SWATCH_HEAT,
  SWATCH_STATE,
} SwatchKind;

/* A swatch's colour is asked for at each draw, so that it follows the
 * dark style. */
static void
draw_swatch (GtkDrawingArea *area,
             cairo_t        *cr,
             int             width,
             int             height,
             gpointer        user_data)
{
  gboolean dark = adw_style_manager_get_dark (adw_style_manager_get_default ());
  SwatchKind kind = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (area), "kind"));
  int which = GPOINTER_TO_INT (user_data);
  TvColor color;

  if (kind == SWATCH_MODULE)
    color = tv_palette_module (which, 0.5, 0.5, dark);
  else if (kind == SWATCH_HEAT)
    color = tv_palette_heat (which / 2.0, dark);
  else
    color = tv_palette_state (which, dark);
  cairo_rectangle (cr, 0.5, 0.5, width - 1, height - 1);
  cairo_set_source_rgb (cr, color.red, color.green, color.blue);
  cairo_fill_preserve (cr);
  cairo_set_source_rgba (cr, 0, 0, 0, 0.3);
  cairo_set_line_width (cr, 1);
  cairo_stroke (cr);
}

static void
append_legend_entry (TvFlameView *self,
                     SwatchKind   kind,
                     int          which,
                     const char  *text)
{
  GtkWidget *entry = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 4);
  GtkWidget *swatch = gtk_drawing_area_new ();
  GtkWidget *label = gtk_label_new (text);

  gtk_drawing_area_set_content_width (GTK_DRAWING_AREA (swatch), 12);
  gtk_drawing_area_set_content_height (GTK_DRAWING_AREA (swatch), 12);
  gtk_widget_set_valign (swatch, GTK_ALIGN_CENTER);
  g_object_set_data (G_OBJECT (swatch), "kind", GINT_TO_POINTER (kind));
  gtk_drawing_area_set_draw_func (GTK_DRAWING_AREA (swatch), draw_swatch,
                                  GINT_TO_POINTER (which), NULL);
  gtk_widget_add_css_class (label, "caption");
  gtk_box_append (GTK_BOX (entry), swatch);
  gtk_box_append (GTK_BOX (entry), label);
  gtk_box_append (self->legend, entry);
}

/* The key of the colours the graph is drawn in now. */
static void
update_legend (TvFlameView *self)
{
  GtkWidget *child;
  GtkWidget *title;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->legend))) != NULL)
    gtk_box_remove (self->legend, child);

  switch (tv_flame_graph_get_color_scheme (self->graph))
    {
    case TV_FLAME_COLORS_HEAT:
      title = gtk_label_new (_("Self time:"));
      gtk_box_append (self->legend, title);
      append_legend_entry (self, SWATCH_HEAT, 0, _("None"));
      append_legend_entry (self, SWATCH_HEAT, 1, _("Half the most"));
      append_legend_entry (self, SWATCH_HEAT, 2, _("The most"));
      break;
    case TV_FLAME_COLORS_THREAD_STATE:
      title = gtk_label_new (_("Thread state, mixed by share:"));
      gtk_box_append (self->legend, title);
      /* The words of the timeline's legend. */
      append_legend_entry (self, SWATCH_STATE, TV_PALETTE_STATE_RUNNING, _("Holding the GIL"));
      append_legend_entry (self, SWATCH_STATE, TV_PALETTE_STATE_NATIVE,
                           _("On CPU without the GIL"));
      append_legend_entry (self, SWATCH_STATE, TV_PALETTE_STATE_WAITING,
                           _("Waiting for the GIL"));
      append_legend_entry (self, SWATCH_STATE, TV_PALETTE_STATE_EXCEPTION, _("Exception"));
      append_legend_entry (self, SWATCH_STATE, TV_PALETTE_STATE_IDLE, _("Idle"));
      break;
    case TV_FLAME_COLORS_MODULE:
    case TV_FLAME_COLORS_DIFF:
    default:
      title = gtk_label_new (_("Module:"));
      gtk_box_append (self->legend, title);
      append_legend_entry (self, SWATCH_MODULE, TV_PALETTE_MODULE_PROJECT, _("This project"));
      append_legend_entry (self, SWATCH_MODULE, TV_PALETTE_MODULE_STDLIB,
                           _("Standard library"));
      append_legend_entry (self, SWATCH_MODULE, TV_PALETTE_MODULE_SITE_PACKAGES,
                           _("Installed packages"));
      append_legend_entry (self, SWATCH_MODULE, TV_PALETTE_MODULE_OTHER, _("Other"));
      break;
    }
  gtk_widget_add_css_class (title, "caption-heading");
}

static void
on_dark_changed (TvFlameView *self)
{
  for (GtkWidget *entry = gtk_widget_get_first_child (GTK_WIDGET (self->legend)); entry != NULL;
       entry = gtk_widget_get_next_sibling (entry))
    if (GTK_IS_BOX (entry))
      gtk_widget_queue_draw (gtk_widget_get_first_child (entry));
}

/* ------------------------------------------------------------------------ */
/* Breadcrumbs                                                               */
/* ------------------------------------------------------------------------ */

static void
on_crumb_clicked (GtkButton   *button,
                  TvFlameView *self)
{
  guint32 node = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (button), "node"));

  tv_flame_graph_zoom_to (self->graph, node);
}

static void
update_breadcrumbs (TvFlameView *self)
{
  g_autoptr(GArray) path = g_array_new (FALSE, FALSE, sizeof (guint32));
  TvCallTree *tree = tv_flame_graph_get_tree (self->graph);
  TvProfileData *data;
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->breadcrumbs))) != NULL)
    gtk_box_remove (self->breadcrumbs, child);
  if (tree == NULL)
    return;

  data = tv_call_tree_get_data (tree);
  for (guint32 node = tv_flame_graph_get_zoom_root (self->graph);
       node != TV_NODE_NONE;
       node = tv_call_tree_get_parent (tree, node))
    g_array_append_val (path, node);

  for (guint i = path->len; i > 0; i--)
    {
      guint32 node = g_array_index (path, guint32, i - 1);
      g_autofree char *name = tv_text_dup_shown (node == TV_ROOT_NODE
                                                 ? _("all")
                                                 : tv_profile_data_get_funcname (
                                                     data, tv_call_tree_get_frame (tree, node)));
      GtkWidget *button = gtk_button_new ();
      GtkWidget *label = gtk_label_new (name);
      int max_chars = i == 1 ? 40 : 16;

      /* Whole up to a length, so that a deep path scrolls instead of
       * shrinking every name to "…". */
      if (g_utf8_strlen (name, -1) > max_chars)
        {
          gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_MIDDLE);
          gtk_label_set_width_chars (GTK_LABEL (label), max_chars);
          gtk_label_set_max_width_chars (GTK_LABEL (label), max_chars);
        }
      gtk_button_set_child (GTK_BUTTON (button), label);
      gtk_widget_add_css_class (button, "flat");
      gtk_widget_set_tooltip_text (button, name);
      g_object_set_data (G_OBJECT (button), "node", GUINT_TO_POINTER (node));
      g_signal_connect (button, "clicked", G_CALLBACK (on_crumb_clicked), self);
      if (i == 1)
        gtk_widget_set_sensitive (button, FALSE);
      if (i != path->len)
        {
          GtkWidget *separator = gtk_label_new ("›");

          gtk_widget_add_css_class (separator, "dim-label");
          gtk_box_append (self->breadcrumbs, separator);
        }
      gtk_box_append (self->breadcrumbs, button);
    }
}

/* The path's end, where the zoom is, stays in view as the path grows.
 * The scroller's size changes while it is being allocated, so the scroll
 * waits for that to be over. */
static gboolean
scroll_crumbs_to_end (gpointer data)
{
  GtkAdjustment *adjustment = data;

  gtk_adjustment_set_value (adjustment, gtk_adjustment_get_upper (adjustment)
                                        - gtk_adjustment_get_page_size (adjustment));
  return G_SOURCE_REMOVE;
}

/* "…" says that the path goes on to the left of what is shown.  It keeps
 * its room when hidden: the scroller's width would change with it, and
 * the path scroll back to its end. */
static void
on_crumbs_scrolled (GtkAdjustment *adjustment,
                    TvFlameView   *self)
{
  gboolean more = gtk_adjustment_get_value (adjustment)
                  > gtk_adjustment_get_lower (adjustment) + 0.5;

  gtk_widget_set_opacity (self->crumb_more, more ? 1.0 : 0.0);
  gtk_widget_set_can_target (self->crumb_more, more);
  gtk_widget_set_sensitive (self->crumb_more, more);
}

static void
on_crumb_more_clicked (TvFlameView *self)
{
  GtkAdjustment *adjustment = gtk_scrolled_window_get_hadjustment (self->crumb_scroller);

  gtk_adjustment_set_value (adjustment, gtk_adjustment_get_lower (adjustment));
}

static void
on_crumbs_changed (GtkAdjustment *adjustment)
{
  g_idle_add_full (G_PRIORITY_DEFAULT, scroll_crumbs_to_end, g_object_ref (adjustment),
                   g_object_unref);
}

/* ------------------------------------------------------------------------ */
/* The query                                                                 */
/* ------------------------------------------------------------------------ */

/* The call tree selects the graph's frame, or the function when it lists
 * the tree of the other direction, and opens down to the zoomed frame. */
static void
sync_call_tree (TvFlameView *self)
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
  set_matches (self, NULL);
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
  update_summary (self);
  update_breadcrumbs (self);
  tv_function_table_set_tree (self->function_table, tree);
  sync_call_tree (self);
  tv_trace_paint (GTK_WIDGET (self->graph), self->profile, TV_TRACE_FLAME_GRAPH, NULL);
  tv_trace_paint (GTK_WIDGET (self->function_table), self->profile, TV_TRACE_SIDE_PANELS, NULL);
  start_search (self);
}

typedef struct
{
  TvFlameView *self;
  guint        generation;
} QueryCall;

/* A query that takes longer than this shows its progress. */
#define QUERY_PROGRESS_DELAY_US 200000

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
}

static gboolean
poll_query_progress (gpointer user_data)
{
  TvFlameView *self = user_data;
  g_autofree char *text = NULL;
  double fraction;

  if (g_get_monotonic_time () - self->query_started < QUERY_PROGRESS_DELAY_US)
    return G_SOURCE_CONTINUE;
  fraction = g_atomic_int_get (self->query_permille) / 1000.0;
  /* Translators: beside the line above the flame graph while a big view is
   * made, e.g. "Computing the view: 45 %". */
  text = g_strdup_printf (_("Computing the view: %.0f %%"), fraction * 100.0);
  gtk_progress_bar_set_fraction (self->query_progress_bar, fraction);
  gtk_progress_bar_set_text (self->query_progress_bar, text);
  gtk_widget_set_visible (GTK_WIDGET (self->query_progress_bar), TRUE);
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
  if (generation != self->query_generation)
    return;
  g_clear_object (&self->query_cancellable);
  stop_query_progress (self);
  if (tree == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        gtk_label_set_text (self->summary_label, error->message);
      return;
    }
  set_tree (self, tree);
}

static void
start_query (TvFlameView *self)
{
  QueryCall *call = g_new0 (QueryCall, 1);
  TvQuery query;

  self->query_generation++;
  g_cancellable_cancel (self->query_cancellable);
  g_clear_object (&self->query_cancellable);
  self->query_cancellable = g_cancellable_new ();

  call->self = g_object_ref (self);
  call->generation = self->query_generation;
  tv_view_state_to_query (self->state, &query);
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
                                        self->query_cancellable, query_done, call);
}

/* ------------------------------------------------------------------------ */
/* Search                                                                    */
/* ------------------------------------------------------------------------ */

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

static void
search_thread (GTask        *task,
               gpointer      source_object,
               gpointer      task_data,
               GCancellable *cancellable)
{
  SearchJob *job = task_data;
  TvFlameMatches *matches;

  if (job->regex != NULL)
    matches = tv_flame_matches_new_for_regex (job->tree, job->regex, cancellable);
  else
    matches = tv_flame_matches_new_for_function (job->tree, job->function, cancellable);
  if (matches == NULL)
    g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CANCELLED, "cancelled");
  else
    g_task_return_pointer (task, matches, (GDestroyNotify) tv_flame_matches_unref);
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
  text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                       "%u frame matches: %s of the samples",
                                       "%u frames match: %s of the samples",
                                       tv_flame_matches_get_n_nodes (self->matches)),
                          tv_flame_matches_get_n_nodes (self->matches), share);
  gtk_label_set_text (self->match_label, text);
}

static void
search_done (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  TvFlameView *self = TV_FLAME_VIEW (object);
  guint generation = GPOINTER_TO_UINT (user_data);
  TvFlameMatches *matches = g_task_propagate_pointer (G_TASK (result), NULL);

  if (matches == NULL)
    return;
  if (generation != self->search_generation
      || tv_flame_matches_get_tree (matches) != self->tree)
    {
      tv_flame_matches_unref (matches);
      return;
    }
  g_clear_object (&self->search_cancellable);
  set_matches (self, matches);
  update_match_label (self);
}

static void
start_search (TvFlameView *self)
{
  g_autoptr(GRegex) regex = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GTask) task = NULL;
  SearchJob *job;

  self->search_generation++;
  g_cancellable_cancel (self->search_cancellable);
  g_clear_object (&self->search_cancellable);
  gtk_widget_remove_css_class (GTK_WIDGET (self->search_entry), "error");

  if (self->tree != NULL && (self->search == NULL || self->search[0] == '\0')
      && self->highlight_function != TV_NODE_NONE)
    {
      job = g_new0 (SearchJob, 1);
      job->function = self->highlight_function;
      job->tree = tv_call_tree_ref (self->tree);
      self->search_cancellable = g_cancellable_new ();
      task = g_task_new (self, self->search_cancellable, search_done,
                         GUINT_TO_POINTER (self->search_generation));
      g_task_set_task_data (task, job, search_job_free);
      g_task_run_in_thread (task, search_thread);
      return;
    }

  if (self->search == NULL || self->search[0] == '\0' || self->tree == NULL)
    {
      set_matches (self, NULL);
      update_match_label (self);
      return;
    }

  regex = g_regex_new (self->search, G_REGEX_CASELESS | G_REGEX_OPTIMIZE, 0, &error);
  if (regex == NULL)
    {
      g_autofree char *text = g_strdup_printf (_("Not a regular expression: %s"), error->message);

      gtk_widget_add_css_class (GTK_WIDGET (self->search_entry), "error");
      gtk_label_set_text (self->match_label, text);
      set_matches (self, NULL);
      return;
    }

  job = g_new0 (SearchJob, 1);
  job->regex = g_steal_pointer (&regex);
  job->tree = tv_call_tree_ref (self->tree);
  self->search_cancellable = g_cancellable_new ();
  task = g_task_new (self, self->search_cancellable, search_done,
                     GUINT_TO_POINTER (self->search_generation));
  g_task_set_task_data (task, job, search_job_free);
  g_task_run_in_thread (task, search_thread);
}

static void
on_search_changed (GtkSearchEntry *entry,
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

static void
next_match_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  go_to_match (TV_FLAME_VIEW (widget), TRUE);
}

static void
previous_match_action (GtkWidget  *widget,
                       const char *action_name,
                       GVariant   *parameter)
{
  go_to_match (TV_FLAME_VIEW (widget), FALSE);
}

static void
on_search_activate (GtkSearchEntry *entry,
                    TvFlameView    *self)
{
  go_to_match (self, TRUE);
}

static void
on_search_previous (GtkSearchEntry *entry,
                    TvFlameView    *self)
{
  go_to_match (self, FALSE);
}

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

/* ------------------------------------------------------------------------ */
/* Controls                                                                  */
/* ------------------------------------------------------------------------ */

static void
update_threads_button (TvFlameView *self)
{
  g_autofree char *text = describe_threads (self);

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
static void
fill_threads_list (TvFlameView *self)
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

static void
sync_controls (TvFlameView *self)
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

static void
on_state_changed (TvViewState *state,
                  TvFlameView *self)
{
  sync_controls (self);
  update_summary (self);
  start_query (self);
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
  update_legend (self);
  if (scheme == TV_FLAME_COLORS_THREAD_STATE && self->tree != NULL
      && !tv_call_tree_has_status_counts (self->tree))
    start_query (self);
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
  update_breadcrumbs (self);
  /* The call tree opens down to the zoomed frame. */
  if (tv_call_tree_view_shows_graph_tree (self->call_tree_view))
    tv_call_tree_view_reveal_node (self->call_tree_view, tv_flame_graph_get_zoom_root (self->graph));
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "view.back",
                                 tv_flame_graph_can_go_back (self->graph));
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "view.forward",
                                 tv_flame_graph_can_go_forward (self->graph));
}

static void
on_function_selected (TvFunctionTable *table,
                      guint            function,
                      TvFlameView     *self)
{
  /* The table's choice shows as highlighted frames (a search typed
   * later takes over) and in the source view. */
  self->highlight_function = function;
  if (self->search != NULL && self->search[0] != '\0')
    tv_flame_view_set_search (self, "");
  else
    start_search (self);
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
  sync_call_tree (self);
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

static void
on_call_tree_node_selected (TvCallTreeView *view,
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
  on_function_selected (self->function_table, function, self);
}

static void
back_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  gtk_widget_activate_action (GTK_WIDGET (TV_FLAME_VIEW (widget)->graph), "flame.back", NULL);
}

static void
forward_action (GtkWidget  *widget,
                const char *action_name,
                GVariant   *parameter)
{
  gtk_widget_activate_action (GTK_WIDGET (TV_FLAME_VIEW (widget)->graph), "flame.forward", NULL);
}

static void
reset_transforms_action (GtkWidget  *widget,
                         const char *action_name,
                         GVariant   *parameter)
{
  tv_view_state_reset_transforms (TV_FLAME_VIEW (widget)->state);
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
                      G_CALLBACK (on_function_selected), self);
    g_signal_connect (self->call_tree_view, "node-selected",
                      G_CALLBACK (on_call_tree_node_selected), self);
    /* A tree of the other direction, or the graph's again. */
    g_signal_connect_swapped (self->call_tree_view, "notify::tree",
                              G_CALLBACK (sync_call_tree), self);
  }
  fill_threads_list (self);
  sync_controls (self);
  update_summary (self);
  g_signal_connect (state, "changed", G_CALLBACK (on_state_changed), self);
  start_query (self);
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

  return self->query_cancellable != NULL || self->search_cancellable != NULL
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
  /* Setting the text empties the entry first, which a search entry
   * reports at once: do not search for that. */
  g_signal_handlers_block_by_func (self->search_entry, on_search_changed, self);
  if (g_strcmp0 (gtk_editable_get_text (GTK_EDITABLE (self->search_entry)), regex) != 0)
    gtk_editable_set_text (GTK_EDITABLE (self->search_entry), regex);
  g_signal_handlers_unblock_by_func (self->search_entry, on_search_changed, self);
  if (regex[0] != '\0')
    gtk_search_bar_set_search_mode (self->search_bar, TRUE);
  start_search (self);
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

  g_cancellable_cancel (self->query_cancellable);
  g_clear_object (&self->query_cancellable);
  stop_query_progress (self);
  g_cancellable_cancel (self->search_cancellable);
  g_clear_object (&self->search_cancellable);
  if (self->state != NULL)
    g_signal_handlers_disconnect_by_data (self->state, self);
  gtk_widget_dispose_template (GTK_WIDGET (self), TV_TYPE_FLAME_VIEW);
  g_clear_pointer (&self->matches, tv_flame_matches_unref);
  g_clear_pointer (&self->tree, tv_call_tree_unref);
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

  gtk_widget_class_install_action (widget_class, "view.back", NULL, back_action);
  gtk_widget_class_install_action (widget_class, "view.forward", NULL, forward_action);
  gtk_widget_class_install_action (widget_class, "view.reset-transforms", NULL,
                                   reset_transforms_action);
  gtk_widget_class_install_action (widget_class, "view.search", NULL, search_action);
  gtk_widget_class_install_action (widget_class, "view.next-match", NULL, next_match_action);
  gtk_widget_class_install_action (widget_class, "view.previous-match", NULL,
                                   previous_match_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_f, GDK_CONTROL_MASK,
                                       "view.search", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_g, GDK_CONTROL_MASK,
                                       "view.next-match", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_g,
                                       GDK_CONTROL_MASK | GDK_SHIFT_MASK,
                                       "view.previous-match", NULL);
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
  g_signal_connect (gtk_scrolled_window_get_hadjustment (self->crumb_scroller), "changed",
                    G_CALLBACK (on_crumbs_changed), NULL);
  g_signal_connect (gtk_scrolled_window_get_hadjustment (self->crumb_scroller), "value-changed",
                    G_CALLBACK (on_crumbs_scrolled), self);
  g_signal_connect (gtk_scrolled_window_get_hadjustment (self->crumb_scroller), "changed",
                    G_CALLBACK (on_crumbs_scrolled), self);
  g_signal_connect_swapped (self->crumb_more, "clicked", G_CALLBACK (on_crumb_more_clicked), self);
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
  self->graph = TV_FLAME_GRAPH (tv_flame_graph_new ());
  gtk_widget_set_hexpand (GTK_WIDGET (self->graph), TRUE);
  gtk_widget_set_vexpand (GTK_WIDGET (self->graph), TRUE);
  gtk_box_append (self->graph_box, GTK_WIDGET (self->graph));
  self->legend = GTK_BOX (gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12));
  gtk_widget_set_margin_start (GTK_WIDGET (self->legend), 8);
  gtk_widget_set_margin_end (GTK_WIDGET (self->legend), 8);
  gtk_widget_set_margin_top (GTK_WIDGET (self->legend), 3);
  gtk_widget_set_margin_bottom (GTK_WIDGET (self->legend), 3);
  gtk_widget_set_layout_manager (GTK_WIDGET (self->legend), tv_wrap_layout_new (12));
  gtk_widget_add_css_class (GTK_WIDGET (self->legend), "flame-legend");
  gtk_box_append (self->graph_box, GTK_WIDGET (self->legend));
  update_legend (self);
  g_signal_connect_object (adw_style_manager_get_default (), "notify::dark",
                           G_CALLBACK (on_dark_changed), self, G_CONNECT_SWAPPED);
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

  g_object_bind_property (self->search_button, "active", self->search_bar, "search-mode-enabled",
                          G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE);
  gtk_search_bar_connect_entry (self->search_bar, GTK_EDITABLE (self->search_entry));
  g_signal_connect (self->search_entry, "search-changed", G_CALLBACK (on_search_changed), self);
  g_signal_connect (self->search_entry, "activate", G_CALLBACK (on_search_activate), self);
  g_signal_connect (self->search_entry, "previous-match", G_CALLBACK (on_search_previous), self);
  g_signal_connect (self->search_entry, "next-match", G_CALLBACK (on_search_next), self);
  {
    GtkEventController *keys = gtk_event_controller_key_new ();

    gtk_event_controller_set_name (keys, "tv-search-keys");
    g_signal_connect (keys, "key-pressed", G_CALLBACK (on_search_key), self);
    gtk_widget_add_controller (GTK_WIDGET (self->search_entry), keys);
  }
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
  g_signal_connect_swapped (self->graph, "notify::can-go-back", G_CALLBACK (on_zoom_changed), self);
  g_signal_connect_swapped (self->graph, "notify::can-go-forward", G_CALLBACK (on_zoom_changed),
                            self);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "view.back", FALSE);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "view.forward", FALSE);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "view.reset-transforms", FALSE);
}
