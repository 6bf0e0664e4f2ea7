/* tv-timeline-view.c: every thread over time, and time-range selection
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The bins (TvTimeline) are built on a worker once the profile is in;
 * the shared cairo renderer draws them into a GtkDrawingArea for any
 * window of time, never per sample.  What the user picks goes to the
 * profile's TvViewState, which every view observes:
 *   - a drag over the time axis selects a range (the flame graph, the
 *     function table and the source view then show only that range);
 *   - a click on a lane shows that thread, Shift+click adds or removes it;
 *   - a click on a legend entry filters by that state, where a filter
 *     shows exactly that state's samples.
 * A press released less than MIN_DRAG_PX from where it was is a click;
 * further away, it is a drag, and picks no thread and no state.  The window
 * zooms to the selection, with a history; Ctrl+scroll zooms around the
 * pointer.  In place of the lanes, the view can show the heatmap of every
 * second (TvHeatmapView), whose drags select cells; the lanes show the
 * selected cells' time too, and zoom to the span from the first cell to
 * the last.  A press takes the keyboard focus, and Escape clears either
 * selection.  A lane's tooltip names its thread and counts the samples of
 * the pixel column under the pointer, from the bins, as drawn.
 */
#include <math.h>

#include <glib/gi18n.h>

#include "tv-flame-layout.h"
#include "tv-heatmap-view.h"
#include "tv-timeline-renderer.h"
#include "tv-timeline-view.h"
#include "tv-units.h"

#define MIN_WINDOW_US  10.0
#define MIN_DRAG_PX    3.0
/* The lanes the timeline asks room for, at most, before it scrolls. */
#define DEFAULT_LANES  8
/* A lane is idle when this share of its samples, or more, are idle (the
 * main thread never is). */
#define IDLE_SHARE     0.99

typedef struct
{
  double t0;
  double t1;
} Window;

struct _TvTimelineView
{
  AdwBin              parent_instance;

  TvProfile          *profile;
  TvViewState        *state;
  TvTimeline         *timeline;
  GCancellable       *cancellable;
  TvTimelineRenderer *renderer;
  TvTimelineStyle     style;
  guint8             *lane_flags;
  /* What lane_flags were made for: the threads selected, and the lanes
   * the filter keeps (NULL: all), which a worker finds. */
  GArray             *flagged_threads;
  guint8             *lane_matches;
  guint               n_matched;
  guint               lanes_serial;
  /* Idle lanes (IDLE_SHARE of their samples idle, or none), found with
   * the bins; folded into one row while fold_idle is set. */
  guint8             *idle_lanes;
  gboolean            fold_idle;
  guint               n_folded;
  char               *folded_text;
  char               *lane_filter;
  guint               filter_generation;
  GCancellable       *filter_cancellable;
  Window              window;
  GArray             *back;
  GArray             *forward;

  gboolean            dragging;
  double              drag_start_x;
  double              drag_start_time;
  /* The pointer's x over the drawing area, for Ctrl+scroll; NAN outside. */
  double              pointer_x;

  /* Where the click gesture's press was, while it is down. */
  gboolean            pressed;
  double              press_x;
  double              press_y;

  GtkWidget          *area;
  GtkAdjustment      *vadjustment;
  GtkWidget          *scrollbar;
  GtkWidget          *fold_button;
  GtkWidget          *heatmap;
  GtkLabel           *summary;
  GtkSearchEntry     *filter_entry;
  /* What only the lanes use, hidden with the heatmap. */
  GtkWidget          *lanes_controls;
  char               *view;         /* "lanes" or "heatmap" */

  /* What to highlight (a search's matches, or a function), what the
   * highlight was counted for (the state filter and the threads), and
   * the highlight, counted on a worker. */
  TvFlameMatches     *highlight_matches;
  guint32             highlight_function;
  guint8              highlight_mask;
  guint8              highlight_value;
  GArray             *highlight_threads;
  TvTimelineHighlight *highlight;
  GCancellable       *highlight_cancellable;
  guint               highlight_generation;
};

G_DEFINE_FINAL_TYPE (TvTimelineView, tv_timeline_view, ADW_TYPE_BIN)

enum
{
  PROP_0,
  PROP_VIEW,
  PROP_FOLD_IDLE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* Legend entries and the views' state filters: only the entries a filter
 * shows exactly pick one.  "On CPU without the GIL", "Idle" and
 * "Unknown" have none ("On CPU" also counts the samples holding the
 * GIL), so they pick nothing: TV_N_STATE_FILTERS. */
static TvStateFilter
state_to_filter (TvTimelineState state)
{
  switch (state)
    {
    case TV_TIMELINE_STATE_RUNNING:
      return TV_STATE_FILTER_GIL;
    case TV_TIMELINE_STATE_WAITING:
      return TV_STATE_FILTER_GIL_WAIT;
    case TV_TIMELINE_STATE_EXCEPTION:
      return TV_STATE_FILTER_EXCEPTION;
    case TV_TIMELINE_STATE_NATIVE:
    case TV_TIMELINE_STATE_IDLE:
    case TV_TIMELINE_STATE_UNKNOWN:
    case TV_TIMELINE_N_STATES:
    default:
      return TV_N_STATE_FILTERS;
    }
}

static int
filter_to_state (TvStateFilter filter)
{
  switch (filter)
    {
    case TV_STATE_FILTER_GIL:
      return TV_TIMELINE_STATE_RUNNING;
    case TV_STATE_FILTER_GIL_WAIT:
      return TV_TIMELINE_STATE_WAITING;
    case TV_STATE_FILTER_EXCEPTION:
      return TV_TIMELINE_STATE_EXCEPTION;
    case TV_STATE_FILTER_CPU:           /* no legend entry is "on CPU" */
    case TV_STATE_FILTER_ALL:
    case TV_N_STATE_FILTERS:
    default:
      return -1;
    }
}

/* ------------------------------------------------------------------------ */
/* Style                                                                     */
/* ------------------------------------------------------------------------ */

static void sync_style       (TvTimelineView *self);
static void update_scrolling (TvTimelineView *self);
static void start_highlight  (TvTimelineView *self);

/* Lanes: the filter hides, the thread filter selects, and the idle lanes
 * fold into one row (but for the selected ones, and unless that would
 * fold fewer than two lanes or every lane shown).  A pass over the lanes,
 * when the threads, the filter's matches or the folding change, and a new
 * serial, which tells the renderer to lay out its rows again. */
static void
update_lane_flags (TvTimelineView *self)
{
  guint n_lanes = tv_timeline_get_n_lanes (self->timeline);
  const guint32 *threads;
  guint n_threads, n_shown = 0, n_idle = 0, n_rows;
  gboolean fold;

  threads = tv_view_state_get_threads (self->state, &n_threads);
  for (guint i = 0; i < n_lanes; i++)
    self->lane_flags[i] = self->lane_matches == NULL || self->lane_matches[i]
                          ? 0 : TV_TIMELINE_LANE_HIDDEN;
  for (guint i = 0; i < n_threads; i++)
    if (threads[i] < n_lanes)
      self->lane_flags[threads[i]] |= TV_TIMELINE_LANE_SELECTED;
  for (guint i = 0; i < n_lanes; i++)
    if (!(self->lane_flags[i] & TV_TIMELINE_LANE_HIDDEN))
      {
        n_shown++;
        n_idle += self->idle_lanes[i] && !(self->lane_flags[i] & TV_TIMELINE_LANE_SELECTED);
      }
  fold = self->fold_idle && n_idle >= 2 && n_idle < n_shown;
  for (guint i = 0; i < n_lanes && fold; i++)
    if (self->idle_lanes[i] && !(self->lane_flags[i] & (TV_TIMELINE_LANE_HIDDEN
                                                        | TV_TIMELINE_LANE_SELECTED)))
      self->lane_flags[i] |= TV_TIMELINE_LANE_FOLDED;
  self->n_folded = fold ? n_idle : 0;
  g_free (self->folded_text);
  /* Translators: the one row of the timeline that stands for the threads
   * that were idle all along; a click shows them. */
  self->folded_text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                                    "%u idle thread: click to show it",
                                                    "%u idle threads: click to show them",
                                                    self->n_folded),
                                       self->n_folded);
  gtk_widget_set_visible (self->fold_button, n_idle >= 2 && n_idle < n_shown);

  g_array_set_size (self->flagged_threads, 0);
  g_array_append_vals (self->flagged_threads, threads, n_threads);
  /* 0 would ask the renderer to lay out the rows at every call. */
  if (++self->lanes_serial == 0)
    self->lanes_serial = 1;

  /* As high as DEFAULT_LANES rows (or the rows there are), until the
   * user sizes it: the page's paned starts at this natural height.  The
   * rows of all lanes, unfiltered, unselected, so that typing a filter
   * or picking a thread does not move the pane. */
  n_rows = n_lanes;
  if (self->fold_idle)
    {
      guint n_all_idle = 0;

      for (guint i = 0; i < n_lanes; i++)
        n_all_idle += self->idle_lanes[i];
      if (n_all_idle >= 2 && n_all_idle < n_lanes)
        n_rows = n_lanes - n_all_idle + 1;
    }
  sync_style (self);
  gtk_drawing_area_set_content_height (GTK_DRAWING_AREA (self->area),
                                       (int) tv_timeline_renderer_get_height_for_lanes (
                                         self->renderer, self->timeline, &self->style,
                                         CLAMP (n_rows, 1, DEFAULT_LANES)));
  update_scrolling (self);
  gtk_widget_queue_draw (self->area);
  /* The folded row's highlight is of the lanes folded now. */
  if (self->highlight_matches != NULL || self->highlight_function != TV_NODE_NONE)
    start_highlight (self);
}

static void
sync_style (TvTimelineView *self)
{
  guint64 start, end;

  self->style.dark = adw_style_manager_get_dark (adw_style_manager_get_default ());
  self->style.width = gtk_widget_get_width (self->area);
  self->style.height = gtk_widget_get_height (self->area);
  self->style.t0 = self->window.t0;
  self->style.t1 = self->window.t1;
  self->style.scroll_y = gtk_adjustment_get_value (self->vadjustment);

  /* The lanes' flags are made when they change (update_lane_flags ()),
   * not at every frame: they cost a pass over every lane. */
  self->style.lane_flags = self->lane_flags;
  self->style.lanes_serial = self->lanes_serial;

  self->style.has_selection = tv_view_state_get_range (self->state, &start, &end);
  if (self->style.has_selection)
    {
      guint64 origin = tv_timeline_get_origin (self->timeline);

      self->style.selection_start = (double) start - (double) origin;
      self->style.selection_end = (double) end - (double) origin;
    }
  /* The heatmap's cells show here too. */
  self->style.ranges = tv_view_state_get_ranges (self->state, &self->style.n_ranges);
  self->style.highlight = self->highlight;
  self->style.selected_state = filter_to_state (tv_view_state_get_state_filter (self->state));
  self->style.main_label = _("main");
  self->style.overview_label = _("All threads");
  self->style.folded_label = self->folded_text;
  self->style.interpreter_format = _("Interpreter %u");
  self->style.state_labels[TV_TIMELINE_STATE_RUNNING] = _("Holding the GIL");
  self->style.state_labels[TV_TIMELINE_STATE_NATIVE] = _("On CPU without the GIL");
  self->style.state_labels[TV_TIMELINE_STATE_WAITING] = _("Waiting for the GIL");
  self->style.state_labels[TV_TIMELINE_STATE_EXCEPTION] = _("Exception");
  self->style.state_labels[TV_TIMELINE_STATE_IDLE] = _("Idle");
  self->style.state_labels[TV_TIMELINE_STATE_UNKNOWN] = _("Unknown");
}

/* The scroll bar beside the lanes: as long as their area (the axis, the
 * overview and the legend stay), shown when they do not all fit. */
static void
update_scrolling (TvTimelineView *self)
{
  double lanes_y, lanes_height, content, value;
  int height = gtk_widget_get_height (self->area);

  if (self->timeline == NULL || height <= 0)
    return;
  sync_style (self);
  tv_timeline_renderer_get_lanes_area (self->renderer, self->timeline, &self->style, &lanes_y,
                                       &lanes_height, &content);
  value = CLAMP (gtk_adjustment_get_value (self->vadjustment), 0,
                 MAX (content - lanes_height, 0));
  gtk_adjustment_configure (self->vadjustment, value, 0, MAX (content, lanes_height),
                            18, MAX (lanes_height - 18, 18), lanes_height);
  gtk_widget_set_margin_top (self->scrollbar, (int) lanes_y);
  gtk_widget_set_margin_bottom (self->scrollbar,
                                MAX (height - (int) ceil (lanes_y + lanes_height), 0));
  gtk_widget_set_visible (self->scrollbar, content > lanes_height + 0.5
                                           && g_strcmp0 (self->view, "heatmap") != 0);
}

static gboolean
showing_heatmap (TvTimelineView *self)
{
  return g_strcmp0 (self->view, "heatmap") == 0;
}

/* What the selection spans, absolute: the time range, or the heatmap's
 * cells from the first one's start to the last one's end. */
static gboolean
get_selection_span (TvTimelineView *self,
                    guint64        *start,
                    guint64        *end)
{
  const TvTimeRange *ranges;
  guint n_ranges;

  if (tv_view_state_get_range (self->state, start, end))
    return TRUE;
  ranges = tv_view_state_get_ranges (self->state, &n_ranges);
  if (ranges == NULL)
    return FALSE;
  *start = ranges[0].start;
  *end = ranges[n_ranges - 1].end;
  return TRUE;
}

/* The heatmap's selection: its time in all and its samples. */
/* The samples in the N RANGES that the views show: of the threads and
 * the state the view state picks, as the flame graph counts them.  A
 * bisection per thread, whatever the size of the file. */
static guint64
count_shown (TvTimelineView    *self,
             const TvTimeRange *ranges,
             guint              n)
{
  static const int state_counts[TV_N_STATE_FILTERS] = {
    [TV_STATE_FILTER_ALL] = -1,
    [TV_STATE_FILTER_GIL] = TV_TIMELINE_COUNT_HAS_GIL,
    [TV_STATE_FILTER_CPU] = TV_TIMELINE_COUNT_ON_CPU,
    [TV_STATE_FILTER_GIL_WAIT] = TV_TIMELINE_COUNT_GIL_REQUESTED,
    [TV_STATE_FILTER_EXCEPTION] = TV_TIMELINE_COUNT_EXCEPTION,
  };
  TvStateFilter filter = tv_view_state_get_state_filter (self->state);
  int state = filter < TV_N_STATE_FILTERS ? state_counts[filter] : -1;
  guint n_threads;
  const guint32 *threads = tv_view_state_get_threads (self->state, &n_threads);
  guint n_lanes = threads != NULL ? n_threads : 1;
  guint64 total = 0;

  for (guint i = 0; i < n_lanes; i++)
    {
      TvTimelineColumn counts;
      guint lane = threads != NULL ? threads[i] : TV_TIMELINE_ALL;
      guint64 samples;

      if (lane != TV_TIMELINE_ALL && lane >= tv_timeline_get_n_lanes (self->timeline))
        continue;
      samples = tv_timeline_count_ranges (self->timeline, lane, ranges, n, &counts);
      total += state >= 0 ? counts.counts[state] : samples;
    }
  return total;
}

/* The thread time N samples stand for. */
static double
thread_seconds (TvTimelineView *self,
                guint64         n)
{
  return (double) n * tv_profile_data_get_seconds_per_sample (tv_timeline_get_data (self->timeline),
                                                              NULL);
}

static char *
ranges_summary (TvTimelineView    *self,
                const TvTimeRange *ranges,
                guint              n_ranges)
{
  guint64 n = count_shown (self, ranges, n_ranges);
  g_autofree char *count = tv_format_count (n);
  g_autofree char *wall = tv_format_wall_time (tv_time_ranges_get_duration (ranges, n_ranges)
                                               / 1e6);
  g_autofree char *thread = tv_format_thread_time (thread_seconds (self, n));

  /* Translators: a selection of heatmap cells: their time in all, and
   * the samples there of the threads and state shown, e.g. "Selected
   * cells: 800 ms of wall time, 1,234 samples, 2.42 s of thread time". */
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Selected cells: %s, %s sample, %s",
                                       "Selected cells: %s, %s samples, %s",
                                       n > G_MAXULONG ? G_MAXULONG : (gulong) n),
                          wall, count, thread);
}

static void
update_summary (TvTimelineView *self)
{
  g_autofree char *text = NULL;
  const TvTimeRange *ranges;
  guint64 start, end;
  guint n_ranges;
  gboolean selected;

  if (self->timeline == NULL)
    {
      gtk_label_set_text (self->summary, _("Binning the samples…"));
      return;
    }
  ranges = tv_view_state_get_ranges (self->state, &n_ranges);
  if (ranges != NULL)
    text = ranges_summary (self, ranges, n_ranges);
  else if (tv_view_state_get_range (self->state, &start, &end))
    {
      guint64 origin = tv_timeline_get_origin (self->timeline);
      g_autofree char *from = tv_timeline_format_time ((double) start - origin);
      g_autofree char *to = tv_timeline_format_time ((double) end - origin);
      g_autofree char *span = tv_format_wall_time ((double) (end - start) / 1e6);
      TvTimeRange range = { start, end };
      guint64 n = count_shown (self, &range, 1);
      g_autofree char *count = tv_format_count (n);
      g_autofree char *thread = tv_format_thread_time (thread_seconds (self, n));

      /* Translators: the selected time range: from, to, how long, and the
       * samples there of the threads and state shown, e.g. "Selected
       * 0.100 s to 0.415 s (315 ms of wall time): 1,234 samples, 2.42 s
       * of thread time". */
      text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Selected %s to %s (%s): %s sample, %s",
                                           "Selected %s to %s (%s): %s samples, %s",
                                           n > G_MAXULONG ? G_MAXULONG : (gulong) n),
                              from, to, span, count, thread);
    }
  else if (showing_heatmap (self)
           && tv_timeline_heatmap_pick_column_duration (self->timeline) == G_USEC_PER_SEC)
    text = g_strdup (_("Nothing selected. Each column is a second, each row 20 ms of it: drag "
                       "over the cells to select them."));
  else if (showing_heatmap (self))
    {
      /* A short profile's columns are shorter (50 rows each still). */
      guint64 column = tv_timeline_heatmap_pick_column_duration (self->timeline);
      g_autofree char *column_text = g_strdup_printf ("%g ms", column / 1000.0);
      g_autofree char *row_text = g_strdup_printf ("%g ms", column / 1000.0 / 50);

      /* Translators: the heatmap of a short profile: how long a column
       * is ("100 ms"), and a row ("2 ms"). */
      text = g_strdup_printf (_("Nothing selected. Each column is %s, each row %s of it: drag "
                                "over the cells to select them."), column_text, row_text);
    }
  else
    {
      g_autofree char *all = tv_format_wall_time (tv_timeline_get_duration (self->timeline)
                                                  / 1e6);

      /* Translators: %s is "1.28 s of wall time". */
      text = g_strdup_printf (_("Nothing selected: all %s. Drag over the time axis to "
                                "select a range; click a lane to show one thread."), all);
    }
  gtk_label_set_text (self->summary, text);
  selected = get_selection_span (self, &start, &end);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "timeline.zoom-selection", selected);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "timeline.clear-selection", selected);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "timeline.back", self->back->len > 0);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "timeline.forward", self->forward->len > 0);
}

static void
draw (GtkDrawingArea *area,
      cairo_t        *cr,
      int             width,
      int             height,
      gpointer        user_data)
{
  TvTimelineView *self = user_data;

  if (self->timeline == NULL || width <= 0 || height <= 0)
    return;
  sync_style (self);
  self->style.draw_background = TRUE;
  tv_timeline_renderer_draw (self->renderer, cr, self->timeline, &self->style);
}

/* ------------------------------------------------------------------------ */
/* The window                                                                */
/* ------------------------------------------------------------------------ */

static void
set_window (TvTimelineView *self,
            double          t0,
            double          t1,
            gboolean        remember)
{
  double duration = self->timeline != NULL ? tv_timeline_get_duration (self->timeline) : 1;

  t1 = MAX (t1, t0 + MIN_WINDOW_US);
  if (t1 - t0 > duration)
    {
      t0 = 0;
      t1 = duration;
    }
  if (t0 < 0)
    {
      t1 -= t0;
      t0 = 0;
    }
  if (t1 > duration)
    {
      t0 -= t1 - duration;
      t1 = duration;
    }
  if (remember && (t0 != self->window.t0 || t1 != self->window.t1))
    {
      g_array_append_val (self->back, self->window);
      g_array_set_size (self->forward, 0);
    }
  self->window.t0 = t0;
  self->window.t1 = t1;
  update_summary (self);
  gtk_widget_queue_draw (self->area);
}

static void
set_fold_idle (TvTimelineView *self,
               gboolean        fold)
{
  fold = !!fold;
  if (self->fold_idle == fold)
    return;
  self->fold_idle = fold;
  if (self->timeline != NULL)
    update_lane_flags (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FOLD_IDLE]);
}

static void
set_view (TvTimelineView *self,
          const char     *view)
{
  gboolean heatmap;

  if (g_strcmp0 (view, "heatmap") != 0)
    view = "lanes";
  if (g_strcmp0 (self->view, view) == 0)
    return;
  g_free (self->view);
  self->view = g_strdup (view);
  heatmap = showing_heatmap (self);
  gtk_widget_set_visible (self->area, !heatmap);
  gtk_widget_set_visible (self->heatmap, heatmap);
  update_scrolling (self);
  if (heatmap)
    gtk_widget_set_visible (self->scrollbar, FALSE);
  gtk_widget_set_visible (self->lanes_controls, !heatmap);
  gtk_widget_set_visible (GTK_WIDGET (self->filter_entry), !heatmap);
  update_summary (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_VIEW]);
}

/* Shows the lanes from the selection's start to its end, or to the last
 * sample (the heatmap's last cells go on to the end of their second). */
static void
zoom_selection_action (GtkWidget  *widget,
                       const char *action_name,
                       GVariant   *parameter)
{
  TvTimelineView *self = TV_TIMELINE_VIEW (widget);
  guint64 start, end, origin;
  double duration;

  if (self->timeline == NULL || !get_selection_span (self, &start, &end))
    return;
  origin = tv_timeline_get_origin (self->timeline);
  duration = tv_timeline_get_duration (self->timeline);
  set_view (self, "lanes");
  set_window (self, MAX ((double) start - origin, 0), MIN ((double) end - origin, duration),
              TRUE);
}

static void
clear_selection_action (GtkWidget  *widget,
                        const char *action_name,
                        GVariant   *parameter)
{
  tv_view_state_clear_range (TV_TIMELINE_VIEW (widget)->state);
}

static void
back_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  TvTimelineView *self = TV_TIMELINE_VIEW (widget);
  Window w;

  if (self->back->len == 0)
    return;
  w = g_array_index (self->back, Window, self->back->len - 1);
  g_array_set_size (self->back, self->back->len - 1);
  g_array_append_val (self->forward, self->window);
  set_window (self, w.t0, w.t1, FALSE);
}

static void
forward_action (GtkWidget  *widget,
                const char *action_name,
                GVariant   *parameter)
{
  TvTimelineView *self = TV_TIMELINE_VIEW (widget);
  Window w;

  if (self->forward->len == 0)
    return;
  w = g_array_index (self->forward, Window, self->forward->len - 1);
  g_array_set_size (self->forward, self->forward->len - 1);
  g_array_append_val (self->back, self->window);
  set_window (self, w.t0, w.t1, FALSE);
}

/* ------------------------------------------------------------------------ */
/* Input                                                                     */
/* ------------------------------------------------------------------------ */

static gboolean
hit_test (TvTimelineView *self,
          double          x,
          double          y,
          TvTimelineHit  *hit)
{
  if (self->timeline == NULL)
    return FALSE;
  sync_style (self);
  return tv_timeline_renderer_hit_test (self->renderer, self->timeline, &self->style, x, y, hit);
}

static double
x_to_time (TvTimelineView *self,
           double          x)
{
  sync_style (self);
  return tv_timeline_renderer_x_to_time (self->renderer, self->timeline, &self->style, x);
}

void
tv_timeline_view_select (TvTimelineView *self,
                         double          t0,
                         double          t1)
{
  guint64 start, end;

  g_return_if_fail (TV_IS_TIMELINE_VIEW (self));
  g_return_if_fail (self->timeline != NULL);

  if (t1 < t0)
    {
      double t = t0;

      t0 = t1;
      t1 = t;
    }
  t0 = MAX (t0, 0);
  t1 = MIN (t1, (double) tv_timeline_get_duration (self->timeline));
  start = tv_timeline_time_to_timestamp (self->timeline, t0);
  end = tv_timeline_time_to_timestamp (self->timeline, t1);
  if (end <= start)
    return;
  tv_view_state_set_range (self->state, start, end);
}

/* Every press, a click's too: Escape (a binding of the view) then
 * reaches the view from the focused area. */
static void
on_drag_begin (GtkGestureDrag *gesture,
               double          x,
               double          y,
               TvTimelineView *self)
{
  TvTimelineHit hit;

  gtk_widget_grab_focus (self->area);
  self->dragging = hit_test (self, x, y, &hit) && !hit.in_labels
                   && (hit.kind == TV_TIMELINE_HIT_AXIS || hit.kind == TV_TIMELINE_HIT_OVERVIEW
                       || hit.kind == TV_TIMELINE_HIT_LANE);
  if (self->dragging)
    {
      self->drag_start_x = x;
      self->drag_start_time = x_to_time (self, x);
    }
}

static void
on_drag_end (GtkGestureDrag *gesture,
             double          dx,
             double          dy,
             TvTimelineView *self)
{
  if (!self->dragging)
    return;
  self->dragging = FALSE;
  /* A click, not a drag: the click gesture handles it. */
  if (fabs (dx) < MIN_DRAG_PX)
    return;
  tv_timeline_view_select (self, self->drag_start_time, x_to_time (self, self->drag_start_x + dx));
}

static void
on_pressed (GtkGestureClick *gesture,
            int              n_press,
            double           x,
            double           y,
            TvTimelineView  *self)
{
  self->pressed = TRUE;
  self->press_x = x;
  self->press_y = y;
}

/* GTK emits "released" at the end of a drag too (before or after
 * "drag-end"): a release MIN_DRAG_PX or more from its press ends a drag,
 * which selected a range (or nothing), and picks nothing. */
static gboolean
is_click (TvTimelineView *self,
          double          x,
          double          y)
{
  gboolean pressed = self->pressed;

  self->pressed = FALSE;
  return !pressed || (fabs (x - self->press_x) < MIN_DRAG_PX
                      && fabs (y - self->press_y) < MIN_DRAG_PX);
}

static void
on_released (GtkGestureClick *gesture,
             int              n_press,
             double           x,
             double           y,
             TvTimelineView  *self)
{
  GdkModifierType modifiers = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (gesture));
  TvTimelineHit hit;

  if (!is_click (self, x, y) || !hit_test (self, x, y, &hit))
    return;
  if (hit.kind == TV_TIMELINE_HIT_LEGEND)
    {
      TvStateFilter filter = state_to_filter (hit.state);

      if (filter == TV_N_STATE_FILTERS)
        return;
      /* A second click on the chosen state shows all samples again. */
      if (tv_view_state_get_state_filter (self->state) == filter)
        filter = TV_STATE_FILTER_ALL;
      tv_view_state_set_state_filter (self->state, filter);
    }
  else if (hit.kind == TV_TIMELINE_HIT_LANE)
    {
      g_autoptr(GArray) threads = g_array_new (FALSE, FALSE, sizeof (guint32));
      const guint32 *current;
      guint n_current;
      guint32 lane = hit.lane;

      current = tv_view_state_get_threads (self->state, &n_current);
      if (modifiers & GDK_SHIFT_MASK)
        {
          gboolean had = FALSE;

          for (guint i = 0; i < n_current; i++)
            {
              if (current[i] == lane)
                had = TRUE;
              else
                g_array_append_val (threads, current[i]);
            }
          if (!had)
            g_array_append_val (threads, lane);
        }
      else if (!(n_current == 1 && current[0] == lane))
        g_array_append_val (threads, lane);
      tv_view_state_set_threads (self->state, (const guint32 *) (gpointer) threads->data,
                                 threads->len);
    }
  else if (hit.kind == TV_TIMELINE_HIT_FOLDED)
    set_fold_idle (self, FALSE);
  else if (hit.kind == TV_TIMELINE_HIT_OVERVIEW && n_press == 2)
    tv_view_state_clear_range (self->state);
}

static gboolean
on_scroll (GtkEventControllerScroll *controller,
           double                    dx,
           double                    dy,
           TvTimelineView           *self)
{
  GdkModifierType modifiers = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (controller));
  double span = self->window.t1 - self->window.t0;

  if (self->timeline == NULL)
    return FALSE;
  if (modifiers & GDK_CONTROL_MASK)
    {
      double at, factor = dy < 0 ? 0.8 : 1.25;

      /* The time under the pointer stays there (over the labels, the
       * window's start does); a scroll event has no position of its own
       * in GTK 4.8, the motion controller keeps it. */
      if (isfinite (self->pointer_x))
        at = CLAMP (x_to_time (self, self->pointer_x), self->window.t0, self->window.t1);
      else
        at = (self->window.t0 + self->window.t1) / 2;
      set_window (self, at - (at - self->window.t0) * factor,
                  at + (self->window.t1 - at) * factor, FALSE);
      return TRUE;
    }
  if (dx != 0)
    {
      set_window (self, self->window.t0 + dx * span / 10, self->window.t1 + dx * span / 10, FALSE);
      return TRUE;
    }
  if (dy != 0)
    {
      /* The adjustment keeps the lanes within their area. */
      gtk_adjustment_set_value (self->vadjustment,
                                gtk_adjustment_get_value (self->vadjustment) + dy * 3 * 18);
      return TRUE;
    }
  return FALSE;
}

/* ------------------------------------------------------------------------ */
/* Tooltips                                                                  */
/* ------------------------------------------------------------------------ */

/* LANE's name as its label shows it (the overview's for
 * TV_TIMELINE_ALL), and its interpreter when there are several. */
static void
append_lane_name (TvTimelineView *self,
                  GString        *text,
                  guint           lane)
{
  const TvTimelineLane *info;
  g_autofree char *id = NULL;
  guint n_interpreters;

  if (lane == TV_TIMELINE_ALL)
    {
      g_string_append (text, _("All threads"));
      return;
    }
  info = tv_timeline_get_lane (self->timeline, lane);
  id = g_strdup_printf ("%" G_GUINT64_FORMAT, info->thread_id);
  /* The label says "T3": the tooltip says which thread that is. */
  if (!info->main_thread)
    {
      g_autofree char *label = tv_timeline_dup_lane_label (self->timeline, lane, NULL);

      g_string_append (text, label);
      g_string_append (text, ": ");
    }
  g_string_append_printf (text, info->main_thread ? _("Main thread %s") : _("Thread %s"), id);
  tv_timeline_get_interpreters (self->timeline, &n_interpreters);
  if (n_interpreters > 1)
    {
      g_string_append_c (text, '\n');
      g_string_append_printf (text, _("Interpreter %u"), info->interpreter_id);
    }
}

/* LANE's samples in all, for the labels' column. */
static void
append_lane_total (TvTimelineView *self,
                   GString        *text,
                   guint           lane)
{
  guint64 n = lane == TV_TIMELINE_ALL
              ? tv_profile_data_get_n_samples (tv_timeline_get_data (self->timeline))
              : tv_timeline_get_lane (self->timeline, lane)->n_samples;
  g_autofree char *count = NULL;

  count = g_strdup_printf ("%" G_GUINT64_FORMAT, n);
  g_string_append_c (text, '\n');
  /* Translators: a lane's samples over the whole recording. */
  g_string_append_printf (text, g_dngettext (GETTEXT_PACKAGE, "%s sample in all",
                                             "%s samples in all",
                                             n > G_MAXULONG ? G_MAXULONG : (gulong) n),
                          count);
}

/* The samples of LANE in the pixel column at X and their states: the
 * column the renderer draws there (one of as many as the time axis has
 * pixels), counted from the bins, so the cost is that of a pixel. */
static void
append_column (TvTimelineView *self,
               GString        *text,
               guint           lane,
               double          x)
{
  double plot_x, plot_width, step, from;
  g_autofree char *start = NULL;
  g_autofree char *end = NULL;
  g_autofree char *count = NULL;
  TvTimelineColumn column;
  guint n_columns, c;

  tv_timeline_renderer_get_plot_area (self->renderer, self->timeline, &self->style, &plot_x,
                                      &plot_width);
  n_columns = MAX ((guint) ceil (plot_width - 1e-6), 1);
  c = (guint) CLAMP (floor ((x - plot_x) / plot_width * n_columns), 0, n_columns - 1);
  step = (self->window.t1 - self->window.t0) / n_columns;
  from = self->window.t0 + c * step;
  tv_timeline_get_bins (self->timeline, lane, from, from + step, 1, &column);
  start = tv_timeline_format_time (from);
  end = tv_timeline_format_time (from + step);
  count = tv_format_count (column.samples);
  g_string_append_c (text, '\n');
  /* As the heatmap's cells say it. */
  g_string_append_printf (text, g_dngettext (GETTEXT_PACKAGE, "%s to %s: %s sample",
                                             "%s to %s: %s samples",
                                             column.samples > G_MAXULONG
                                             ? G_MAXULONG : (gulong) column.samples),
                          start, end, count);
  for (guint s = 0; s < TV_TIMELINE_N_STATES && column.samples > 0; s++)
    {
      guint64 n = tv_timeline_column_get_state (&column, s);
      g_autofree char *number = NULL;
      g_autofree char *share = NULL;

      if (n == 0)
        continue;
      number = tv_format_count (n);
      share = tv_format_share (n, column.samples);
      g_string_append_c (text, '\n');
      /* Translators: a thread state's samples in a lane's tooltip, and
       * their share of the samples there: "Holding the GIL: 12 (60.0 %)". */
      g_string_append_printf (text, _("%s: %s (%s)"), self->style.state_labels[s], number, share);
    }
  /* The highlight's samples there: those of the function selected in
   * the flame graph, or of its search's matches. */
  if (self->highlight != NULL && column.samples > 0)
    {
      guint64 n = 0;
      g_autofree char *number = NULL;
      g_autofree char *share = NULL;

      tv_timeline_highlight_get_bins (self->highlight, lane, from, from + step, 1, &n);
      number = tv_format_count (n);
      share = tv_format_share (MIN (n, column.samples), column.samples);
      g_string_append_c (text, '\n');
      g_string_append_printf (text, _("%s: %s (%s)"),
                              /* Translators: in a lane's tooltip, the samples of the
                               * function selected in the flame graph (or of the
                               * frames its search matches). */
                              _("Highlighted"), number, share);
    }
}

/* What a tooltip says at X, Y of the drawing area: over a lane (or the
 * overview), its thread, and the samples under the pointer; NULL
 * elsewhere. */
static char *
describe_area_point (TvTimelineView *self,
                     double          x,
                     double          y)
{
  TvTimelineHit hit;
  GString *text;
  guint lane;

  if (!hit_test (self, x, y, &hit))
    return NULL;
  if (hit.kind == TV_TIMELINE_HIT_FOLDED)
    return g_strdup (self->folded_text);
  if (hit.kind != TV_TIMELINE_HIT_LANE && hit.kind != TV_TIMELINE_HIT_OVERVIEW)
    return NULL;
  lane = hit.kind == TV_TIMELINE_HIT_LANE ? hit.lane : TV_TIMELINE_ALL;
  text = g_string_new (NULL);
  append_lane_name (self, text, lane);
  if (hit.in_labels)
    append_lane_total (self, text, lane);
  else
    append_column (self, text, lane, x);
  return g_string_free (text, FALSE);
}

static gboolean
on_query_tooltip (GtkWidget      *area,
                  int             x,
                  int             y,
                  gboolean        keyboard,
                  GtkTooltip     *tooltip,
                  TvTimelineView *self)
{
  g_autofree char *text = NULL;

  if (keyboard)
    return FALSE;
  text = describe_area_point (self, x, y);
  if (text == NULL)
    return FALSE;
  /* Plain text: nothing here is markup. */
  gtk_tooltip_set_text (tooltip, text);
  return TRUE;
}

static void
on_motion (GtkEventControllerMotion *motion,
           double                    x,
           double                    y,
           TvTimelineView           *self)
{
  self->pointer_x = x;
}

static void
on_leave (GtkEventControllerMotion *motion,
          TvTimelineView           *self)
{
  self->pointer_x = NAN;
}

typedef struct
{
  TvTimeline *timeline;
  char       *text;
  char       *main_label;
  guint       generation;
  guint8     *matches;
  guint       n_matched;
} FilterJob;

static void
filter_job_free (gpointer data)
{
  FilterJob *job = data;

  tv_timeline_unref (job->timeline);
  g_free (job->text);
  g_free (job->main_label);
  g_free (job->matches);
  g_free (job);
}

static void
filter_thread (GTask        *task,
               gpointer      source_object,
               gpointer      task_data,
               GCancellable *cancellable)
{
  FilterJob *job = task_data;

  job->matches = g_new (guint8, MAX (tv_timeline_get_n_lanes (job->timeline), 1));
  job->n_matched = tv_timeline_match_lanes (job->timeline, job->text, job->main_label,
                                            job->matches);
  g_task_return_boolean (task, TRUE);
}

static void
filter_done (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  TvTimelineView *self = TV_TIMELINE_VIEW (object);
  FilterJob *job = g_task_get_task_data (G_TASK (result));

  /* Overtaken by another filter, or the view is gone. */
  if (!g_task_propagate_boolean (G_TASK (result), NULL)
      || job->generation != self->filter_generation || self->timeline == NULL)
    return;
  g_clear_object (&self->filter_cancellable);
  g_free (self->lane_matches);
  self->lane_matches = g_steal_pointer (&job->matches);
  self->n_matched = job->n_matched;
  gtk_adjustment_set_value (self->vadjustment, 0);
  update_lane_flags (self);
}

/* Which lanes the filter keeps: matching every lane's id grows with the
 * lanes, so it runs on a worker; the lanes shown stay until it is done. */
static void
start_filter (TvTimelineView *self)
{
  g_autoptr(GTask) task = NULL;
  g_autofree char *stripped = g_strstrip (g_strdup (self->lane_filter != NULL
                                                    ? self->lane_filter : ""));
  FilterJob *job;

  g_cancellable_cancel (self->filter_cancellable);
  g_clear_object (&self->filter_cancellable);
  self->filter_generation++;
  if (self->timeline == NULL)
    return;
  if (stripped[0] == '\0')
    {
      g_clear_pointer (&self->lane_matches, g_free);
      gtk_adjustment_set_value (self->vadjustment, 0);
      update_lane_flags (self);
      return;
    }
  job = g_new0 (FilterJob, 1);
  job->timeline = tv_timeline_ref (self->timeline);
  job->text = g_strdup (self->lane_filter);
  job->main_label = g_strdup (_("main"));
  job->generation = self->filter_generation;
  self->filter_cancellable = g_cancellable_new ();
  task = g_task_new (self, self->filter_cancellable, filter_done, NULL);
  g_task_set_return_on_cancel (task, TRUE);
  g_task_set_task_data (task, job, filter_job_free);
  g_task_run_in_thread (task, filter_thread);
}

static void
on_filter_changed (GtkSearchEntry *entry,
                   TvTimelineView *self)
{
  g_free (self->lane_filter);
  self->lane_filter = g_strdup (gtk_editable_get_text (GTK_EDITABLE (entry)));
  start_filter (self);
}

/* ------------------------------------------------------------------------ */
/* Building the bins                                                         */
/* ------------------------------------------------------------------------ */

typedef struct
{
  TvTimeline *timeline;
  guint8     *idle_lanes;
} BuildResult;

static void
build_result_free (gpointer data)
{
  BuildResult *result = data;

  g_clear_pointer (&result->timeline, tv_timeline_unref);
  g_free (result->idle_lanes);
  g_free (result);
}

/* The bins, and which lanes are idle: a bisection per lane. */
static void
build_thread (GTask        *task,
              gpointer      source_object,
              gpointer      task_data,
              GCancellable *cancellable)
{
  TvTimeline *timeline = tv_timeline_new (task_data, cancellable);
  BuildResult *result;
  guint64 first = 0, last = 0;
  guint n_lanes;

  if (timeline == NULL)
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CANCELLED, "cancelled");
      return;
    }
  result = g_new0 (BuildResult, 1);
  result->timeline = timeline;
  n_lanes = tv_timeline_get_n_lanes (timeline);
  result->idle_lanes = g_new0 (guint8, MAX (n_lanes, 1));
  tv_timeline_get_span (timeline, &first, &last);
  for (guint i = 0; i < n_lanes; i++)
    {
      TvTimelineColumn counts;
      guint64 n = tv_timeline_count_range (timeline, i, first, last + 1, &counts);
      guint64 idle = tv_timeline_column_get_state (&counts, TV_TIMELINE_STATE_IDLE);

      /* The main thread stays, idle or not: it is where one looks first. */
      result->idle_lanes[i] = !tv_timeline_get_lane (timeline, i)->main_thread
                              && (n == 0 || (double) idle >= IDLE_SHARE * (double) n);
    }
  g_task_return_pointer (task, result, build_result_free);
}

static void
build_done (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  TvTimelineView *self = TV_TIMELINE_VIEW (object);
  BuildResult *built = g_task_propagate_pointer (G_TASK (result), NULL);
  TvTimeline *timeline;

  if (built == NULL)
    return;
  timeline = g_steal_pointer (&built->timeline);
  self->idle_lanes = g_steal_pointer (&built->idle_lanes);
  build_result_free (built);
  g_clear_object (&self->cancellable);
  self->timeline = timeline;
  self->lane_flags = g_new0 (guint8, MAX (tv_timeline_get_n_lanes (timeline), 1));
  tv_timeline_style_init (&self->style, timeline, 1, 1);
  self->window.t0 = 0;
  self->window.t1 = MAX (tv_timeline_get_duration (timeline), 1);
  start_filter (self);
  tv_heatmap_view_set_timeline (TV_HEATMAP_VIEW (self->heatmap), timeline);
  if (self->highlight_matches != NULL || self->highlight_function != TV_NODE_NONE)
    start_highlight (self);
  update_summary (self);
  gtk_widget_queue_draw (self->area);
}

/* ------------------------------------------------------------------------ */
/* The highlight                                                             */
/* ------------------------------------------------------------------------ */

typedef struct
{
  TvTimeline     *timeline;
  TvFlameMatches *matches;
  guint32         function;
  guint8          mask;
  guint8          value;
  guint32        *threads;
  guint           n_threads;
  guint8         *folded;       /* per lane, or NULL: the folded row's */
} HighlightJob;

static void
highlight_job_free (gpointer data)
{
  HighlightJob *job = data;

  g_clear_pointer (&job->timeline, tv_timeline_unref);
  g_clear_pointer (&job->matches, tv_flame_matches_unref);
  g_free (job->threads);
  g_free (job->folded);
  g_free (job);
}

/* The frames to highlight: those whose key (in the matches' tree's merge
 * key) a node of the matches has, or the function's; then the samples. */
static void
highlight_thread (GTask        *task,
                  gpointer      source_object,
                  gpointer      task_data,
                  GCancellable *cancellable)
{
  HighlightJob *job = task_data;
  TvProfileData *data = tv_timeline_get_data (job->timeline);
  guint32 n_frames = tv_profile_data_get_n_frames (data);
  guint n_lanes = tv_timeline_get_n_lanes (job->timeline);
  g_autofree guint8 *frame_marks = g_new0 (guint8, MAX (n_frames, 1));
  g_autofree guint8 *lanes = NULL;
  TvTimelineHighlight *highlight;

  if (job->matches != NULL)
    {
      TvCallTree *tree = tv_flame_matches_get_tree (job->matches);
      TvMergeKey merge = tv_call_tree_get_merge (tree);
      guint32 n_keys = tv_profile_data_get_n_keys (data, merge);
      const guint32 *frame_keys = tv_profile_data_get_frame_keys (data, merge);
      g_autofree guint8 *key_marks = g_new0 (guint8, MAX (n_keys, 1));
      guint32 n_nodes = tv_call_tree_get_n_nodes (tree);

      for (guint32 node = 1; node < n_nodes; node++)
        if (tv_flame_matches_contains (job->matches, node))
          {
            guint32 key = tv_call_tree_get_key (tree, node);

            if (key < n_keys)
              key_marks[key] = 1;
          }
      for (guint32 f = 0; f < n_frames; f++)
        frame_marks[f] = frame_keys[f] < n_keys && key_marks[frame_keys[f]];
    }
  else
    {
      const guint32 *function_keys = tv_profile_data_get_frame_keys (data, TV_MERGE_FUNCTION);

      for (guint32 f = 0; f < n_frames; f++)
        frame_marks[f] = function_keys[f] == job->function;
    }
  if (job->n_threads > 0)
    {
      lanes = g_new0 (guint8, MAX (n_lanes, 1));
      for (guint i = 0; i < job->n_threads; i++)
        if (job->threads[i] < n_lanes)
          lanes[job->threads[i]] = 1;
    }
  highlight = tv_timeline_highlight_new (job->timeline, frame_marks, n_frames, lanes, job->folded,
                                         job->mask, job->value, cancellable);
  if (highlight == NULL)
    g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CANCELLED, "cancelled");
  else
    g_task_return_pointer (task, highlight, (GDestroyNotify) tv_timeline_highlight_unref);
}

static void
set_highlight (TvTimelineView      *self,
               TvTimelineHighlight *highlight)
{
  g_clear_pointer (&self->highlight, tv_timeline_highlight_unref);
  self->highlight = highlight;
  tv_heatmap_view_set_highlight (TV_HEATMAP_VIEW (self->heatmap), highlight);
  gtk_widget_queue_draw (self->area);
}

static void
highlight_done (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  TvTimelineView *self = TV_TIMELINE_VIEW (object);
  TvTimelineHighlight *highlight = g_task_propagate_pointer (G_TASK (result), NULL);

  if (highlight == NULL)
    return;
  /* An older round, overtaken by a newer request, never shows. */
  if (GPOINTER_TO_UINT (user_data) != self->highlight_generation)
    {
      tv_timeline_highlight_unref (highlight);
      return;
    }
  g_clear_object (&self->highlight_cancellable);
  set_highlight (self, highlight);
}

/* Counts the highlight again for what it highlights and the state's
 * filters, or clears it. */
static void
start_highlight (TvTimelineView *self)
{
  g_autoptr(GTask) task = NULL;
  HighlightJob *job;
  const guint32 *threads;
  guint n_threads;
  guint8 mask = 0, value = 0;

  self->highlight_generation++;
  g_cancellable_cancel (self->highlight_cancellable);
  g_clear_object (&self->highlight_cancellable);
  threads = tv_view_state_get_threads (self->state, &n_threads);
  tv_state_filter_get_mask (tv_view_state_get_state_filter (self->state), &mask, &value);
  self->highlight_mask = mask;
  self->highlight_value = value;
  g_array_set_size (self->highlight_threads, 0);
  g_array_append_vals (self->highlight_threads, threads, n_threads);

  if (self->timeline == NULL
      || (self->highlight_matches == NULL && self->highlight_function == TV_NODE_NONE))
    {
      set_highlight (self, NULL);
      return;
    }
  job = g_new0 (HighlightJob, 1);
  job->timeline = tv_timeline_ref (self->timeline);
  if (self->highlight_matches != NULL)
    job->matches = tv_flame_matches_ref (self->highlight_matches);
  job->function = self->highlight_function;
  job->mask = mask;
  job->value = value;
  job->threads = g_memdup2 (threads, n_threads * sizeof (guint32));
  job->n_threads = n_threads;
  /* The lanes of the folded row, which shows where they hold some. */
  if (self->n_folded > 0 && self->lane_flags != NULL)
    {
      guint n_lanes = tv_timeline_get_n_lanes (self->timeline);

      job->folded = g_new0 (guint8, MAX (n_lanes, 1));
      for (guint i = 0; i < n_lanes; i++)
        job->folded[i] = (self->lane_flags[i] & TV_TIMELINE_LANE_FOLDED) != 0;
    }
  self->highlight_cancellable = g_cancellable_new ();
  task = g_task_new (self, self->highlight_cancellable, highlight_done,
                     GUINT_TO_POINTER (self->highlight_generation));
  g_task_set_task_data (task, job, highlight_job_free);
  g_task_run_in_thread (task, highlight_thread);
}

/* Whether the state's filters moved from what the highlight counts. */
static gboolean
highlight_stale (TvTimelineView *self)
{
  const guint32 *threads;
  guint n_threads;
  guint8 mask = 0, value = 0;

  threads = tv_view_state_get_threads (self->state, &n_threads);
  tv_state_filter_get_mask (tv_view_state_get_state_filter (self->state), &mask, &value);
  return mask != self->highlight_mask || value != self->highlight_value
         || n_threads != self->highlight_threads->len
         || (n_threads > 0 && memcmp (threads, self->highlight_threads->data,
                                      n_threads * sizeof (guint32)) != 0);
}

static void
on_state_changed (TvTimelineView *self)
{
  const guint32 *threads;
  guint n_threads;

  update_summary (self);
  gtk_widget_queue_draw (self->area);
  if (self->timeline == NULL)
    return;
  if ((self->highlight_matches != NULL || self->highlight_function != TV_NODE_NONE)
      && highlight_stale (self))
    start_highlight (self);
  threads = tv_view_state_get_threads (self->state, &n_threads);
  if (n_threads != self->flagged_threads->len
      || (n_threads > 0 && memcmp (threads, self->flagged_threads->data,
                                   n_threads * sizeof (guint32)) != 0))
    update_lane_flags (self);
}

/* ------------------------------------------------------------------------ */
/* Public API                                                                */
/* ------------------------------------------------------------------------ */

GtkWidget *
tv_timeline_view_new (TvProfile   *profile,
                      TvViewState *state)
{
  TvTimelineView *self;
  g_autoptr(GTask) task = NULL;

  g_return_val_if_fail (TV_IS_PROFILE (profile), NULL);
  g_return_val_if_fail (tv_profile_get_data (profile) != NULL, NULL);
  g_return_val_if_fail (TV_IS_VIEW_STATE (state), NULL);

  self = g_object_new (TV_TYPE_TIMELINE_VIEW, NULL);
  self->profile = g_object_ref (profile);
  self->state = g_object_ref (state);
  g_signal_connect_swapped (state, "changed", G_CALLBACK (on_state_changed), self);
  /* The heatmap takes the lanes' place when shown. */
  self->heatmap = tv_heatmap_view_new (state);
  gtk_widget_set_visible (self->heatmap, FALSE);
  gtk_widget_set_hexpand (self->heatmap, TRUE);
  gtk_grid_attach (GTK_GRID (gtk_widget_get_parent (self->area)), self->heatmap, 0, 0, 2, 1);

  self->cancellable = g_cancellable_new ();
  task = g_task_new (self, self->cancellable, build_done, NULL);
  g_task_set_task_data (task, tv_profile_data_ref (tv_profile_get_data (profile)),
                        (GDestroyNotify) tv_profile_data_unref);
  g_task_run_in_thread (task, build_thread);
  update_summary (self);
  return GTK_WIDGET (self);
}

void
tv_timeline_view_set_highlight (TvTimelineView *self,
                                TvFlameMatches *matches,
                                guint32         function)
{
  g_return_if_fail (TV_IS_TIMELINE_VIEW (self));

  if (matches == self->highlight_matches && function == self->highlight_function)
    return;
  if (matches != NULL)
    tv_flame_matches_ref (matches);
  g_clear_pointer (&self->highlight_matches, tv_flame_matches_unref);
  self->highlight_matches = matches;
  self->highlight_function = matches != NULL ? TV_NODE_NONE : function;
  start_highlight (self);
}

TvTimelineHighlight *
tv_timeline_view_get_highlight (TvTimelineView *self)
{
  g_return_val_if_fail (TV_IS_TIMELINE_VIEW (self), NULL);

  return self->highlight;
}

gboolean
tv_timeline_view_get_highlight_busy (TvTimelineView *self)
{
  g_return_val_if_fail (TV_IS_TIMELINE_VIEW (self), FALSE);

  return self->highlight_cancellable != NULL;
}

TvTimeline *
tv_timeline_view_get_timeline (TvTimelineView *self)
{
  g_return_val_if_fail (TV_IS_TIMELINE_VIEW (self), NULL);

  return self->timeline;
}

void
tv_timeline_view_get_window (TvTimelineView *self,
                             double         *t0,
                             double         *t1)
{
  g_return_if_fail (TV_IS_TIMELINE_VIEW (self));

  *t0 = self->window.t0;
  *t1 = self->window.t1;
}

gboolean
tv_timeline_view_get_lane_rect (TvTimelineView  *self,
                                guint            lane,
                                graphene_rect_t *rect)
{
  double x, y, width, height;
  graphene_point_t origin;

  g_return_val_if_fail (TV_IS_TIMELINE_VIEW (self), FALSE);

  if (self->timeline == NULL)
    return FALSE;
  sync_style (self);
  if (!tv_timeline_renderer_get_lane_rect (self->renderer, self->timeline, &self->style, lane,
                                           &x, &y, &width, &height))
    return FALSE;
  if (!gtk_widget_compute_point (self->area, GTK_WIDGET (self), &GRAPHENE_POINT_INIT (x, y),
                                 &origin))
    return FALSE;
  graphene_rect_init (rect, origin.x, origin.y, width, height);
  return TRUE;
}

gboolean
tv_timeline_view_get_legend_rect (TvTimelineView  *self,
                                  TvTimelineState  state,
                                  graphene_rect_t *rect)
{
  double x, y, width, height;
  graphene_point_t origin;

  g_return_val_if_fail (TV_IS_TIMELINE_VIEW (self), FALSE);

  if (self->timeline == NULL)
    return FALSE;
  sync_style (self);
  tv_timeline_renderer_get_legend_rect (self->renderer, self->timeline, &self->style, state,
                                        &x, &y, &width, &height);
  if (width <= 0
      || !gtk_widget_compute_point (self->area, GTK_WIDGET (self), &GRAPHENE_POINT_INIT (x, y),
                                    &origin))
    return FALSE;
  graphene_rect_init (rect, origin.x, origin.y, width, height);
  return TRUE;
}

double
tv_timeline_view_time_to_x (TvTimelineView *self,
                            double          time)
{
  g_return_val_if_fail (TV_IS_TIMELINE_VIEW (self), NAN);
  g_return_val_if_fail (self->timeline != NULL, NAN);

  sync_style (self);
  return tv_timeline_renderer_time_to_x (self->renderer, self->timeline, &self->style, time);
}

TvHeatmapView *
tv_timeline_view_get_heatmap_view (TvTimelineView *self)
{
  g_return_val_if_fail (TV_IS_TIMELINE_VIEW (self), NULL);

  return TV_HEATMAP_VIEW (self->heatmap);
}

char *
tv_timeline_view_describe_at (TvTimelineView *self,
                              double          x,
                              double          y)
{
  graphene_point_t p;

  g_return_val_if_fail (TV_IS_TIMELINE_VIEW (self), NULL);

  if (self->timeline == NULL
      || !gtk_widget_compute_point (GTK_WIDGET (self), self->area, &GRAPHENE_POINT_INIT (x, y),
                                    &p))
    return NULL;
  return describe_area_point (self, p.x, p.y);
}

char *
tv_timeline_view_dup_lane_label (TvTimelineView *self,
                                 guint           lane)
{
  g_return_val_if_fail (TV_IS_TIMELINE_VIEW (self), NULL);

  if (self->timeline == NULL || lane >= tv_timeline_get_n_lanes (self->timeline))
    return NULL;
  sync_style (self);
  return tv_timeline_renderer_dup_lane_label (self->renderer, self->timeline, &self->style, lane);
}

GtkAdjustment *
tv_timeline_view_get_vadjustment (TvTimelineView *self)
{
  g_return_val_if_fail (TV_IS_TIMELINE_VIEW (self), NULL);

  return self->vadjustment;
}

guint
tv_timeline_view_get_n_folded (TvTimelineView *self)
{
  g_return_val_if_fail (TV_IS_TIMELINE_VIEW (self), 0);

  return self->n_folded;
}

gboolean
tv_timeline_view_get_folded_rect (TvTimelineView  *self,
                                  graphene_rect_t *rect)
{
  double x, y, width, height;
  graphene_point_t origin;

  g_return_val_if_fail (TV_IS_TIMELINE_VIEW (self), FALSE);

  if (self->timeline == NULL)
    return FALSE;
  sync_style (self);
  if (!tv_timeline_renderer_get_folded_rect (self->renderer, self->timeline, &self->style, &x, &y,
                                             &width, &height)
      || !gtk_widget_compute_point (self->area, GTK_WIDGET (self), &GRAPHENE_POINT_INIT (x, y),
                                    &origin))
    return FALSE;
  graphene_rect_init (rect, origin.x, origin.y, width, height);
  return TRUE;
}

const char *
tv_timeline_view_get_summary (TvTimelineView *self)
{
  g_return_val_if_fail (TV_IS_TIMELINE_VIEW (self), NULL);

  return gtk_label_get_text (self->summary);
}

/* ------------------------------------------------------------------------ */
/* GObject                                                                   */
/* ------------------------------------------------------------------------ */

static void
tv_timeline_view_dispose (GObject *object)
{
  TvTimelineView *self = TV_TIMELINE_VIEW (object);

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_cancellable_cancel (self->filter_cancellable);
  g_clear_object (&self->filter_cancellable);
  g_cancellable_cancel (self->highlight_cancellable);
  g_clear_object (&self->highlight_cancellable);
  g_clear_pointer (&self->highlight_matches, tv_flame_matches_unref);
  g_clear_pointer (&self->highlight, tv_timeline_highlight_unref);
  if (self->state != NULL)
    g_signal_handlers_disconnect_by_data (self->state, self);
  g_clear_object (&self->state);
  g_clear_object (&self->profile);
  g_clear_pointer (&self->timeline, tv_timeline_unref);
  if (self->vadjustment != NULL)
    g_signal_handlers_disconnect_by_data (self->vadjustment, self);
  g_clear_object (&self->vadjustment);

  G_OBJECT_CLASS (tv_timeline_view_parent_class)->dispose (object);
}

static void
tv_timeline_view_finalize (GObject *object)
{
  TvTimelineView *self = TV_TIMELINE_VIEW (object);

  g_clear_pointer (&self->renderer, tv_timeline_renderer_free);
  g_clear_pointer (&self->lane_flags, g_free);
  g_clear_pointer (&self->lane_matches, g_free);
  g_clear_pointer (&self->idle_lanes, g_free);
  g_clear_pointer (&self->folded_text, g_free);
  g_clear_pointer (&self->flagged_threads, g_array_unref);
  g_clear_pointer (&self->highlight_threads, g_array_unref);
  g_clear_pointer (&self->lane_filter, g_free);
  g_clear_pointer (&self->view, g_free);
  g_clear_pointer (&self->back, g_array_unref);
  g_clear_pointer (&self->forward, g_array_unref);

  G_OBJECT_CLASS (tv_timeline_view_parent_class)->finalize (object);
}

static void
tv_timeline_view_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  TvTimelineView *self = TV_TIMELINE_VIEW (object);

  switch (prop_id)
    {
    case PROP_VIEW:
      g_value_set_string (value, self->view);
      break;
    case PROP_FOLD_IDLE:
      g_value_set_boolean (value, self->fold_idle);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tv_timeline_view_set_property (GObject      *object,
                               guint         prop_id,
                               const GValue *value,
                               GParamSpec   *pspec)
{
  TvTimelineView *self = TV_TIMELINE_VIEW (object);

  switch (prop_id)
    {
    case PROP_VIEW:
      set_view (self, g_value_get_string (value));
      break;
    case PROP_FOLD_IDLE:
      set_fold_idle (self, g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tv_timeline_view_class_init (TvTimelineViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tv_timeline_view_dispose;
  object_class->finalize = tv_timeline_view_finalize;
  object_class->get_property = tv_timeline_view_get_property;
  object_class->set_property = tv_timeline_view_set_property;

  /**
   * TvTimelineView:view:
   *
   * What is shown: "lanes" (a lane per thread) or "heatmap".
   */
  properties[PROP_VIEW] = g_param_spec_string ("view", NULL, NULL, "lanes",
                                               G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY
                                               | G_PARAM_STATIC_STRINGS);
  /**
   * TvTimelineView:fold-idle:
   *
   * Whether the idle threads (99 % of their samples idle, or none) show
   * as one row, after the others.  Two or more, and not all of them.
   */
  properties[PROP_FOLD_IDLE] = g_param_spec_boolean ("fold-idle", NULL, NULL, TRUE,
                                                     G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY
                                                     | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_install_property_action (widget_class, "timeline.view", "view");
  gtk_widget_class_install_property_action (widget_class, "timeline.fold-idle", "fold-idle");
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0,
                                       "timeline.clear-selection", NULL);

  gtk_widget_class_install_action (widget_class, "timeline.zoom-selection", NULL,
                                   zoom_selection_action);
  gtk_widget_class_install_action (widget_class, "timeline.clear-selection", NULL,
                                   clear_selection_action);
  gtk_widget_class_install_action (widget_class, "timeline.back", NULL, back_action);
  gtk_widget_class_install_action (widget_class, "timeline.forward", NULL, forward_action);
}

static GtkWidget *
icon_button (const char *icon,
             const char *tooltip,
             const char *action)
{
  GtkWidget *button = gtk_button_new_from_icon_name (icon);

  gtk_widget_set_tooltip_text (button, tooltip);
  gtk_actionable_set_action_name (GTK_ACTIONABLE (button), action);
  gtk_widget_add_css_class (button, "flat");
  return button;
}

/* Lanes | Heatmap, as linked toggle buttons on timeline.view. */
static GtkWidget *
view_switch (void)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);
  GtkWidget *lanes = gtk_toggle_button_new_with_label (_("Lanes"));
  GtkWidget *heatmap = gtk_toggle_button_new_with_label (_("Heatmap"));

  gtk_actionable_set_detailed_action_name (GTK_ACTIONABLE (lanes), "timeline.view::lanes");
  gtk_actionable_set_detailed_action_name (GTK_ACTIONABLE (heatmap), "timeline.view::heatmap");
  gtk_widget_set_tooltip_text (lanes, _("A lane per thread over time"));
  gtk_widget_set_tooltip_text (heatmap, _("Samples per second and within the second"));
  gtk_widget_add_css_class (box, "linked");
  gtk_widget_set_valign (box, GTK_ALIGN_CENTER);
  gtk_box_append (GTK_BOX (box), lanes);
  gtk_box_append (GTK_BOX (box), heatmap);
  return box;
}

static void
tv_timeline_view_init (TvTimelineView *self)
{
  GtkWidget *grid = gtk_grid_new ();
  GtkWidget *bar = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 4);
  GtkEventController *controller;
  GtkGesture *gesture;

  self->back = g_array_new (FALSE, FALSE, sizeof (Window));
  self->flagged_threads = g_array_new (FALSE, FALSE, sizeof (guint32));
  self->highlight_threads = g_array_new (FALSE, FALSE, sizeof (guint32));
  self->highlight_function = TV_NODE_NONE;
  self->forward = g_array_new (FALSE, FALSE, sizeof (Window));
  self->renderer = tv_timeline_renderer_new (NULL);
  self->view = g_strdup ("lanes");
  self->fold_idle = TRUE;
  self->folded_text = g_strdup ("");

  self->area = gtk_drawing_area_new ();
  gtk_drawing_area_set_draw_func (GTK_DRAWING_AREA (self->area), draw, self, NULL);
  gtk_widget_set_vexpand (self->area, TRUE);
  gtk_widget_set_hexpand (self->area, TRUE);
  gtk_widget_set_size_request (self->area, 200, 120);
  gtk_widget_set_focusable (self->area, TRUE);
  gtk_widget_set_has_tooltip (self->area, TRUE);
  g_signal_connect (self->area, "query-tooltip", G_CALLBACK (on_query_tooltip), self);
  g_signal_connect_swapped (self->area, "resize", G_CALLBACK (update_scrolling), self);
  self->vadjustment = g_object_ref_sink (gtk_adjustment_new (0, 0, 0, 18, 18, 0));
  g_signal_connect_swapped (self->vadjustment, "value-changed", G_CALLBACK (gtk_widget_queue_draw),
                            self->area);
  self->scrollbar = gtk_scrollbar_new (GTK_ORIENTATION_VERTICAL, self->vadjustment);
  gtk_widget_set_visible (self->scrollbar, FALSE);
  self->pointer_x = NAN;

  gesture = gtk_gesture_drag_new ();
  g_signal_connect (gesture, "drag-begin", G_CALLBACK (on_drag_begin), self);
  g_signal_connect (gesture, "drag-end", G_CALLBACK (on_drag_end), self);
  gtk_widget_add_controller (self->area, GTK_EVENT_CONTROLLER (gesture));
  gesture = gtk_gesture_click_new ();
  g_signal_connect (gesture, "pressed", G_CALLBACK (on_pressed), self);
  g_signal_connect (gesture, "released", G_CALLBACK (on_released), self);
  gtk_widget_add_controller (self->area, GTK_EVENT_CONTROLLER (gesture));
  controller = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_BOTH_AXES);
  g_signal_connect (controller, "scroll", G_CALLBACK (on_scroll), self);
  gtk_widget_add_controller (self->area, controller);
  controller = gtk_event_controller_motion_new ();
  g_signal_connect (controller, "enter", G_CALLBACK (on_motion), self);
  g_signal_connect (controller, "motion", G_CALLBACK (on_motion), self);
  g_signal_connect (controller, "leave", G_CALLBACK (on_leave), self);
  gtk_widget_add_controller (self->area, controller);

  self->summary = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (self->summary, 0);
  gtk_label_set_ellipsize (self->summary, PANGO_ELLIPSIZE_END);
  gtk_widget_set_hexpand (GTK_WIDGET (self->summary), TRUE);
  gtk_widget_add_css_class (GTK_WIDGET (self->summary), "dim-label");
  self->filter_entry = GTK_SEARCH_ENTRY (gtk_search_entry_new ());
  g_object_set (self->filter_entry, "placeholder-text", _("Filter threads by id"), NULL);
  g_signal_connect (self->filter_entry, "search-changed", G_CALLBACK (on_filter_changed), self);

  self->lanes_controls = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 4);
  gtk_box_append (GTK_BOX (self->lanes_controls),
                  icon_button ("go-previous-symbolic", _("Previous window"), "timeline.back"));
  gtk_box_append (GTK_BOX (self->lanes_controls),
                  icon_button ("go-next-symbolic", _("Next window"), "timeline.forward"));

  gtk_widget_set_margin_start (bar, 6);
  gtk_widget_set_margin_end (bar, 6);
  gtk_box_append (GTK_BOX (bar), view_switch ());
  gtk_box_append (GTK_BOX (bar), GTK_WIDGET (self->summary));
  gtk_box_append (GTK_BOX (bar), self->lanes_controls);
  /* On the heatmap too: it shows the lanes zoomed to the cells. */
  gtk_box_append (GTK_BOX (bar), icon_button ("zoom-in-symbolic", _("Zoom to the selection"),
                                              "timeline.zoom-selection"));
  gtk_box_append (GTK_BOX (bar), icon_button ("edit-clear-symbolic", _("Clear the selection"),
                                              "timeline.clear-selection"));
  self->fold_button = gtk_toggle_button_new ();
  gtk_button_set_icon_name (GTK_BUTTON (self->fold_button), "view-conceal-symbolic");
  gtk_widget_set_tooltip_text (self->fold_button, _("Show the idle threads as one row"));
  gtk_actionable_set_action_name (GTK_ACTIONABLE (self->fold_button), "timeline.fold-idle");
  gtk_widget_add_css_class (self->fold_button, "flat");
  gtk_widget_set_visible (self->fold_button, FALSE);
  gtk_box_append (GTK_BOX (self->lanes_controls), self->fold_button);
  gtk_box_append (GTK_BOX (bar), GTK_WIDGET (self->filter_entry));

  /* The area first: the tests find it as the first child's first child. */
  gtk_grid_attach (GTK_GRID (grid), self->area, 0, 0, 1, 1);
  gtk_grid_attach (GTK_GRID (grid), self->scrollbar, 1, 0, 1, 1);
  gtk_grid_attach (GTK_GRID (grid), bar, 0, 1, 2, 1);
  adw_bin_set_child (ADW_BIN (self), grid);

  g_signal_connect_object (adw_style_manager_get_default (), "notify::dark",
                           G_CALLBACK (gtk_widget_queue_draw), self->area, G_CONNECT_SWAPPED);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "timeline.zoom-selection", FALSE);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "timeline.clear-selection", FALSE);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "timeline.back", FALSE);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "timeline.forward", FALSE);
}
