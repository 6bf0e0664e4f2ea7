/* tv-timeline-view-input.c: the timeline view's pointer and tooltips
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Clicks select a lane or a state, drags select a range of time, the
 * wheel zooms and pans; a tooltip describes the lane and the column
 * under the pointer.
 */
#include <math.h>

#include <glib/gi18n.h>

#include "tv-heatmap-view.h"
#include "tv-timeline-view-private.h"
#include "tv-units.h"

/* ------------------------------------------------------------------------ */
/* Input                                                                     */
/* ------------------------------------------------------------------------ */

static gboolean
hit_test (TvTimelineView *self,
          double          x,
          double          y,
          TvTimelineHit  *hit)
{
  if (!tv_timeline_view_sync_style (self))
    return FALSE;
  return tv_timeline_renderer_hit_test (self->renderer, self->timeline, &self->style, x, y, hit);
}

static double
x_to_time (TvTimelineView *self,
           double          x)
{
  tv_timeline_view_sync_style (self);
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
void
tv_timeline_view_on_drag_begin (GtkGestureDrag *gesture,
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

void
tv_timeline_view_on_drag_end (GtkGestureDrag *gesture,
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

void
tv_timeline_view_on_pressed (GtkGestureClick *gesture,
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

void
tv_timeline_view_on_released (GtkGestureClick *gesture,
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
      TvStateFilter filter = tv_timeline_view_state_to_filter (hit.state);

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
    tv_timeline_view_set_fold_idle (self, FALSE);
  else if (hit.kind == TV_TIMELINE_HIT_OVERVIEW && n_press == 2)
    tv_view_state_clear_range (self->state);
}

gboolean
tv_timeline_view_on_scroll (GtkEventControllerScroll *controller,
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
      tv_timeline_view_set_window (self, at - (at - self->window.t0) * factor,
                  at + (self->window.t1 - at) * factor, FALSE);
      return TRUE;
    }
  if (dx != 0)
    {
      tv_timeline_view_set_window (self, self->window.t0 + dx * span / 10, self->window.t1 + dx * span / 10, FALSE);
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
char *
tv_timeline_view_describe_area_point (TvTimelineView *self,
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

gboolean
tv_timeline_view_on_query_tooltip (GtkWidget      *area,
                                   int             x,
                                   int             y,
                                   gboolean        keyboard,
                                   GtkTooltip     *tooltip,
                                   TvTimelineView *self)
{
  g_autofree char *text = NULL;

  if (keyboard)
    return FALSE;
  text = tv_timeline_view_describe_area_point (self, x, y);
  if (text == NULL)
    return FALSE;
  /* Plain text: nothing here is markup. */
  gtk_tooltip_set_text (tooltip, text);
  return TRUE;
}

void
tv_timeline_view_on_motion (GtkEventControllerMotion *motion,
                            double                    x,
                            double                    y,
                            TvTimelineView           *self)
{
  self->pointer_x = x;
}

void
tv_timeline_view_on_leave (GtkEventControllerMotion *motion,
                           TvTimelineView           *self)
{
  self->pointer_x = NAN;
}
