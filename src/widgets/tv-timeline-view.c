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
#include "tv-worker.h"
#include "tv-timeline-view-private.h"

G_DEFINE_FINAL_TYPE (TvTimelineView, tv_timeline_view, ADW_TYPE_BIN)

static GParamSpec *properties[N_PROPS];

/* Legend entries and the views' state filters: only the entries a filter
 * shows exactly pick one.  "On CPU without the GIL", "Idle" and
 * "Unknown" have none ("On CPU" also counts the samples holding the
 * GIL), so they pick nothing: TV_N_STATE_FILTERS. */
TvStateFilter
tv_timeline_view_state_to_filter (TvTimelineState state)
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

int
tv_timeline_view_filter_to_state (TvStateFilter filter)
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
/* The window                                                                */
/* ------------------------------------------------------------------------ */

void
tv_timeline_view_set_window (TvTimelineView *self,
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
    tv_zoom_history_push (&self->history, &self->window);
  self->window.t0 = t0;
  self->window.t1 = t1;
  tv_timeline_view_update_summary (self);
  gtk_widget_queue_draw (self->area);
}

void
tv_timeline_view_set_fold_idle (TvTimelineView *self,
                                gboolean        fold)
{
  fold = !!fold;
  if (self->fold_idle == fold)
    return;
  self->fold_idle = fold;
  if (self->timeline != NULL)
    tv_timeline_view_update_lane_flags (self);
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
  heatmap = tv_timeline_view_showing_heatmap (self);
  gtk_widget_set_visible (self->area, !heatmap);
  gtk_widget_set_visible (self->heatmap, heatmap);
  tv_timeline_view_update_scrolling (self);
  if (heatmap)
    gtk_widget_set_visible (self->scrollbar, FALSE);
  gtk_widget_set_visible (self->lanes_controls, !heatmap);
  gtk_widget_set_visible (GTK_WIDGET (self->filter_entry), !heatmap);
  tv_timeline_view_update_summary (self);
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

  if (self->timeline == NULL || !tv_timeline_view_get_selection_span (self, &start, &end))
    return;
  origin = tv_timeline_get_origin (self->timeline);
  duration = tv_timeline_get_duration (self->timeline);
  set_view (self, "lanes");
  tv_timeline_view_set_window (self, MAX ((double) start - origin, 0), MIN ((double) end - origin, duration),
              TRUE);
}

static void
clear_selection_action (GtkWidget  *widget,
                        const char *action_name,
                        GVariant   *parameter)
{
  tv_view_state_clear_range (TV_TIMELINE_VIEW (widget)->state);
}

/* timeline.back and timeline.forward. */
static void
history_action (GtkWidget  *widget,
                const char *action_name,
                GVariant   *parameter)
{
  TvTimelineView *self = TV_TIMELINE_VIEW (widget);
  TvZoomDirection direction = g_str_equal (action_name, "timeline.back") ? TV_ZOOM_BACK
                                                                         : TV_ZOOM_FORWARD;
  Window w;

  if (tv_zoom_history_go (&self->history, direction, &self->window, &w))
    tv_timeline_view_set_window (self, w.t0, w.t1, FALSE);
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
static gpointer
count_highlight (gpointer      job_data,
                 GCancellable *cancellable)
{
  HighlightJob *job = job_data;
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
  return highlight;
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

/* The newest round's highlight is counted (an older round, overtaken by
 * a newer request, never shows). */
static void
highlight_done (gpointer owner,
                gpointer data,
                gpointer result)
{
  if (result != NULL)
    set_highlight (TV_TIMELINE_VIEW (owner), result);
}

/* Counts the highlight again for what it highlights and the state's
 * filters, or clears it. */
void
tv_timeline_view_start_highlight (TvTimelineView *self)
{
  HighlightJob *job;
  const guint32 *threads;
  guint n_threads;
  guint8 mask = 0, value = 0;

  tv_worker_cancel (&self->highlight_worker);
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
  tv_worker_run (&self->highlight_worker, self, count_highlight, job, highlight_job_free,
                 (GDestroyNotify) tv_timeline_highlight_unref, highlight_done);
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

  tv_timeline_view_update_summary (self);
  gtk_widget_queue_draw (self->area);
  if (self->timeline == NULL)
    return;
  if ((self->highlight_matches != NULL || self->highlight_function != TV_NODE_NONE)
      && highlight_stale (self))
    tv_timeline_view_start_highlight (self);
  threads = tv_view_state_get_threads (self->state, &n_threads);
  if (n_threads != self->flagged_threads->len
      || (n_threads > 0 && memcmp (threads, self->flagged_threads->data,
                                   n_threads * sizeof (guint32)) != 0))
    tv_timeline_view_update_lane_flags (self);
}

/* ------------------------------------------------------------------------ */
/* Public API                                                                */
/* ------------------------------------------------------------------------ */

GtkWidget *
tv_timeline_view_new (TvProfile   *profile,
                      TvViewState *state)
{
  TvTimelineView *self;

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

  tv_worker_run (&self->build_worker, self, tv_timeline_view_build_timeline,
                 tv_profile_data_ref (tv_profile_get_data (profile)),
                 (GDestroyNotify) tv_profile_data_unref, tv_timeline_view_build_result_free, tv_timeline_view_build_done);
  tv_timeline_view_update_summary (self);
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
  tv_timeline_view_start_highlight (self);
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

  return tv_worker_is_busy (&self->highlight_worker);
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

/* RECT: the drawing area's rectangle X, Y, WIDTH, HEIGHT in the view's
 * coordinates. */
static gboolean
area_rect_to_view (TvTimelineView  *self,
                   double           x,
                   double           y,
                   double           width,
                   double           height,
                   graphene_rect_t *rect)
{
  graphene_point_t origin;

  if (!gtk_widget_compute_point (self->area, GTK_WIDGET (self), &GRAPHENE_POINT_INIT (x, y),
                                 &origin))
    return FALSE;
  graphene_rect_init (rect, origin.x, origin.y, width, height);
  return TRUE;
}

gboolean
tv_timeline_view_get_lane_rect (TvTimelineView  *self,
                                guint            lane,
                                graphene_rect_t *rect)
{
  double x, y, width, height;

  g_return_val_if_fail (TV_IS_TIMELINE_VIEW (self), FALSE);

  if (!tv_timeline_view_sync_style (self)
      || !tv_timeline_renderer_get_lane_rect (self->renderer, self->timeline, &self->style,
                                              lane, &x, &y, &width, &height))
    return FALSE;
  return area_rect_to_view (self, x, y, width, height, rect);
}

gboolean
tv_timeline_view_get_legend_rect (TvTimelineView  *self,
                                  TvTimelineState  state,
                                  graphene_rect_t *rect)
{
  double x, y, width, height;

  g_return_val_if_fail (TV_IS_TIMELINE_VIEW (self), FALSE);

  if (!tv_timeline_view_sync_style (self))
    return FALSE;
  tv_timeline_renderer_get_legend_rect (self->renderer, self->timeline, &self->style, state,
                                        &x, &y, &width, &height);
  if (width <= 0)
    return FALSE;
  return area_rect_to_view (self, x, y, width, height, rect);
}

double
tv_timeline_view_time_to_x (TvTimelineView *self,
                            double          time)
{
  g_return_val_if_fail (TV_IS_TIMELINE_VIEW (self), NAN);
  g_return_val_if_fail (self->timeline != NULL, NAN);

  tv_timeline_view_sync_style (self);
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
  return tv_timeline_view_describe_area_point (self, p.x, p.y);
}

char *
tv_timeline_view_dup_lane_label (TvTimelineView *self,
                                 guint           lane)
{
  g_return_val_if_fail (TV_IS_TIMELINE_VIEW (self), NULL);

  if (self->timeline == NULL || lane >= tv_timeline_get_n_lanes (self->timeline))
    return NULL;
  tv_timeline_view_sync_style (self);
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

  g_return_val_if_fail (TV_IS_TIMELINE_VIEW (self), FALSE);

  if (!tv_timeline_view_sync_style (self)
      || !tv_timeline_renderer_get_folded_rect (self->renderer, self->timeline, &self->style,
                                                &x, &y, &width, &height))
    return FALSE;
  return area_rect_to_view (self, x, y, width, height, rect);
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

  tv_worker_cancel (&self->build_worker);
  tv_worker_cancel (&self->filter_worker);
  tv_worker_cancel (&self->highlight_worker);
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
  tv_zoom_history_clear (&self->history);

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
      tv_timeline_view_set_fold_idle (self, g_value_get_boolean (value));
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
  gtk_widget_class_install_action (widget_class, "timeline.back", NULL, history_action);
  gtk_widget_class_install_action (widget_class, "timeline.forward", NULL, history_action);
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

  tv_zoom_history_init (&self->history, sizeof (Window));
  self->flagged_threads = g_array_new (FALSE, FALSE, sizeof (guint32));
  self->highlight_threads = g_array_new (FALSE, FALSE, sizeof (guint32));
  self->highlight_function = TV_NODE_NONE;
  self->renderer = tv_timeline_renderer_new (NULL);
  self->view = g_strdup ("lanes");
  self->fold_idle = TRUE;
  self->folded_text = g_strdup ("");

  self->area = gtk_drawing_area_new ();
  gtk_drawing_area_set_draw_func (GTK_DRAWING_AREA (self->area), tv_timeline_view_draw, self, NULL);
  gtk_widget_set_vexpand (self->area, TRUE);
  gtk_widget_set_hexpand (self->area, TRUE);
  gtk_widget_set_size_request (self->area, 200, 120);
  gtk_widget_set_focusable (self->area, TRUE);
  gtk_widget_set_has_tooltip (self->area, TRUE);
  g_signal_connect (self->area, "query-tooltip", G_CALLBACK (tv_timeline_view_on_query_tooltip), self);
  g_signal_connect_swapped (self->area, "resize", G_CALLBACK (tv_timeline_view_update_scrolling), self);
  self->vadjustment = g_object_ref_sink (gtk_adjustment_new (0, 0, 0, 18, 18, 0));
  g_signal_connect_swapped (self->vadjustment, "value-changed", G_CALLBACK (gtk_widget_queue_draw),
                            self->area);
  self->scrollbar = gtk_scrollbar_new (GTK_ORIENTATION_VERTICAL, self->vadjustment);
  gtk_widget_set_visible (self->scrollbar, FALSE);
  self->pointer_x = NAN;

  gesture = gtk_gesture_drag_new ();
  g_signal_connect (gesture, "drag-begin", G_CALLBACK (tv_timeline_view_on_drag_begin), self);
  g_signal_connect (gesture, "drag-end", G_CALLBACK (tv_timeline_view_on_drag_end), self);
  gtk_widget_add_controller (self->area, GTK_EVENT_CONTROLLER (gesture));
  gesture = gtk_gesture_click_new ();
  g_signal_connect (gesture, "pressed", G_CALLBACK (tv_timeline_view_on_pressed), self);
  g_signal_connect (gesture, "released", G_CALLBACK (tv_timeline_view_on_released), self);
  gtk_widget_add_controller (self->area, GTK_EVENT_CONTROLLER (gesture));
  controller = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_BOTH_AXES);
  g_signal_connect (controller, "scroll", G_CALLBACK (tv_timeline_view_on_scroll), self);
  gtk_widget_add_controller (self->area, controller);
  controller = gtk_event_controller_motion_new ();
  g_signal_connect (controller, "enter", G_CALLBACK (tv_timeline_view_on_motion), self);
  g_signal_connect (controller, "motion", G_CALLBACK (tv_timeline_view_on_motion), self);
  g_signal_connect (controller, "leave", G_CALLBACK (tv_timeline_view_on_leave), self);
  gtk_widget_add_controller (self->area, controller);

  self->summary = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (self->summary, 0);
  gtk_label_set_ellipsize (self->summary, PANGO_ELLIPSIZE_END);
  gtk_widget_set_hexpand (GTK_WIDGET (self->summary), TRUE);
  gtk_widget_add_css_class (GTK_WIDGET (self->summary), "dim-label");
  self->filter_entry = GTK_SEARCH_ENTRY (gtk_search_entry_new ());
  g_object_set (self->filter_entry, "placeholder-text", _("Filter threads by id"), NULL);
  g_signal_connect (self->filter_entry, "search-changed", G_CALLBACK (tv_timeline_view_on_filter_changed), self);

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
