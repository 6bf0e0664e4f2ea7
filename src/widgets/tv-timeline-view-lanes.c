/* tv-timeline-view-lanes.c: the timeline view's lanes
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Which lanes show (the filter by id, on a worker; the thread filter;
 * the idle lanes folded into one row), the bins built once on a worker,
 * the style the renderer draws them in, the scrolling, the summary line,
 * and the drawing area's draw function.
 */
#include <math.h>

#include <glib/gi18n.h>

#include "tv-heatmap-view.h"
#include "tv-timeline-view-private.h"
#include "tv-units.h"

/* ------------------------------------------------------------------------ */
/* Style                                                                     */
/* ------------------------------------------------------------------------ */

/* Lanes: the filter hides, the thread filter selects, and the idle lanes
 * fold into one row (but for the selected ones, and unless that would
 * fold fewer than two lanes or every lane shown).  A pass over the lanes,
 * when the threads, the filter's matches or the folding change, and a new
 * serial, which tells the renderer to lay out its rows again. */
void
tv_timeline_view_update_lane_flags (TvTimelineView *self)
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
  tv_timeline_view_sync_style (self);
  gtk_drawing_area_set_content_height (GTK_DRAWING_AREA (self->area),
                                       (int) tv_timeline_renderer_get_height_for_lanes (
                                         self->renderer, self->timeline, &self->style,
                                         CLAMP (n_rows, 1, DEFAULT_LANES)));
  tv_timeline_view_update_scrolling (self);
  gtk_widget_queue_draw (self->area);
  /* The folded row's highlight is of the lanes folded now. */
  if (self->highlight_matches != NULL || self->highlight_function != TV_NODE_NONE)
    tv_timeline_view_start_highlight (self);
}

gboolean
tv_timeline_view_sync_style (TvTimelineView *self)
{
  guint64 start, end;

  if (self->timeline == NULL)
    return FALSE;
  self->style.dark = adw_style_manager_get_dark (adw_style_manager_get_default ());
  self->style.width = gtk_widget_get_width (self->area);
  self->style.height = gtk_widget_get_height (self->area);
  self->style.t0 = self->window.t0;
  self->style.t1 = self->window.t1;
  self->style.scroll_y = gtk_adjustment_get_value (self->vadjustment);

  /* The lanes' flags are made when they change (tv_timeline_view_update_lane_flags ()),
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
  self->style.selected_state = tv_timeline_view_filter_to_state (tv_view_state_get_state_filter (self->state));
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
  return TRUE;
}

/* The scroll bar beside the lanes: as long as their area (the axis, the
 * overview and the legend stay), shown when they do not all fit. */
void
tv_timeline_view_update_scrolling (TvTimelineView *self)
{
  double lanes_y, lanes_height, content, value;
  int height = gtk_widget_get_height (self->area);

  if (self->timeline == NULL || height <= 0)
    return;
  tv_timeline_view_sync_style (self);
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

gboolean
tv_timeline_view_showing_heatmap (TvTimelineView *self)
{
  return g_strcmp0 (self->view, "heatmap") == 0;
}

/* What the selection spans, absolute: the time range, or the heatmap's
 * cells from the first one's start to the last one's end. */
gboolean
tv_timeline_view_get_selection_span (TvTimelineView *self,
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

void
tv_timeline_view_update_summary (TvTimelineView *self)
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
  else if (tv_timeline_view_showing_heatmap (self)
           && tv_timeline_heatmap_pick_column_duration (self->timeline) == G_USEC_PER_SEC)
    text = g_strdup (_("Nothing selected. Each column is a second, each row 20 ms of it: drag "
                       "over the cells to select them."));
  else if (tv_timeline_view_showing_heatmap (self))
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
  selected = tv_timeline_view_get_selection_span (self, &start, &end);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "timeline.zoom-selection", selected);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "timeline.clear-selection", selected);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "timeline.back",
                                 tv_zoom_history_can_go (&self->history, TV_ZOOM_BACK));
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "timeline.forward",
                                 tv_zoom_history_can_go (&self->history, TV_ZOOM_FORWARD));
}

void
tv_timeline_view_draw (GtkDrawingArea *area,
                       cairo_t        *cr,
                       int             width,
                       int             height,
                       gpointer        user_data)
{
  TvTimelineView *self = user_data;

  if (self->timeline == NULL || width <= 0 || height <= 0)
    return;
  tv_timeline_view_sync_style (self);
  self->style.draw_background = TRUE;
  tv_timeline_renderer_draw (self->renderer, cr, self->timeline, &self->style);
}

typedef struct
{
  TvTimeline *timeline;
  char       *text;
  char       *main_label;
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

static gpointer
filter_lanes (gpointer      data,
              GCancellable *cancellable)
{
  FilterJob *job = data;

  job->matches = g_new (guint8, MAX (tv_timeline_get_n_lanes (job->timeline), 1));
  job->n_matched = tv_timeline_match_lanes (job->timeline, job->text, job->main_label,
                                            job->matches);
  return GUINT_TO_POINTER (TRUE);
}

/* The newest filter's lanes are known. */
static void
filter_done (gpointer owner,
             gpointer data,
             gpointer result)
{
  TvTimelineView *self = TV_TIMELINE_VIEW (owner);
  FilterJob *job = data;

  if (result == NULL || self->timeline == NULL)
    return;
  g_free (self->lane_matches);
  self->lane_matches = g_steal_pointer (&job->matches);
  self->n_matched = job->n_matched;
  gtk_adjustment_set_value (self->vadjustment, 0);
  tv_timeline_view_update_lane_flags (self);
}

/* Which lanes the filter keeps: matching every lane's id grows with the
 * lanes, so it runs on a worker; the lanes shown stay until it is done. */
static void
start_filter (TvTimelineView *self)
{
  g_autofree char *stripped = g_strstrip (g_strdup (self->lane_filter != NULL
                                                    ? self->lane_filter : ""));
  FilterJob *job;

  tv_worker_cancel (&self->filter_worker);
  if (self->timeline == NULL)
    return;
  if (stripped[0] == '\0')
    {
      g_clear_pointer (&self->lane_matches, g_free);
      gtk_adjustment_set_value (self->vadjustment, 0);
      tv_timeline_view_update_lane_flags (self);
      return;
    }
  job = g_new0 (FilterJob, 1);
  job->timeline = tv_timeline_ref (self->timeline);
  job->text = g_strdup (self->lane_filter);
  job->main_label = g_strdup (_("main"));
  tv_worker_run (&self->filter_worker, self, filter_lanes, job, filter_job_free, NULL,
                 filter_done);
}

void
tv_timeline_view_on_filter_changed (GtkSearchEntry *entry,
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

void
tv_timeline_view_build_result_free (gpointer data)
{
  BuildResult *result = data;

  g_clear_pointer (&result->timeline, tv_timeline_unref);
  g_free (result->idle_lanes);
  g_free (result);
}

/* The bins, and which lanes are idle: a bisection per lane. */
gpointer
tv_timeline_view_build_timeline (gpointer      data,
                                 GCancellable *cancellable)
{
  TvTimeline *timeline = tv_timeline_new (data, cancellable);
  BuildResult *result;
  guint64 first = 0, last = 0;
  guint n_lanes;

  if (timeline == NULL)
    return NULL;
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
  return result;
}

void
tv_timeline_view_build_done (gpointer owner,
                             gpointer data,
                             gpointer result)
{
  TvTimelineView *self = TV_TIMELINE_VIEW (owner);
  BuildResult *built = result;
  TvTimeline *timeline;

  if (built == NULL)
    return;
  timeline = g_steal_pointer (&built->timeline);
  self->idle_lanes = g_steal_pointer (&built->idle_lanes);
  tv_timeline_view_build_result_free (built);
  self->timeline = timeline;
  self->lane_flags = g_new0 (guint8, MAX (tv_timeline_get_n_lanes (timeline), 1));
  tv_timeline_style_init (&self->style, timeline, 1, 1);
  self->window.t0 = 0;
  self->window.t1 = MAX (tv_timeline_get_duration (timeline), 1);
  start_filter (self);
  tv_heatmap_view_set_timeline (TV_HEATMAP_VIEW (self->heatmap), timeline);
  if (self->highlight_matches != NULL || self->highlight_function != TV_NODE_NONE)
    tv_timeline_view_start_highlight (self);
  tv_timeline_view_update_summary (self);
  gtk_widget_queue_draw (self->area);
}
