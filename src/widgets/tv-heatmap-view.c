/* tv-heatmap-view.c: the samples of every second, FlameScope style
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The heatmap of the view state's threads and thread state is made on a
 * worker (its cost grows with the samples), with a cancellable and a
 * generation number so that a late one never replaces a newer one; the
 * old heatmap stays on screen meanwhile.  The timeline renderer draws it
 * from the cells alone.  A drag over the cells selects a rectangle of
 * them: the view state's ranges, which the flame graph and the tables
 * follow.
 */
#include <math.h>
#include <string.h>

#include <adwaita.h>
#include <glib/gi18n.h>

#include "tv-heatmap-view.h"
#include "tv-units.h"
#include "tv-timeline-renderer.h"
#include "tv-worker.h"

/* What a heatmap counts: the lanes (none for all) and the status filter. */
typedef struct
{
  GArray *lanes;               /* guint32 */
  guint8  mask;
  guint8  value;
} Filter;

struct _TvHeatmapView
{
  GtkWidget           parent_instance;

  TvViewState        *state;
  TvTimeline         *timeline;
  TvTimelineHeatmap  *heatmap;
  TvTimelineRenderer *renderer;
  TvHeatmapStyle      style;
  TvTimeRange         range;        /* the state's time range, as a selection */
  TvTimelineHighlight *highlight;

  /* The filter of the heatmap shown, and of the one being made. */
  Filter              shown;
  Filter              wanted;
  gboolean            has_shown;
  TvWorker            worker;

  gboolean            dragging;
  double              drag_x;
  double              drag_y;
  guint               drag_column;
  guint               drag_row;
};

G_DEFINE_FINAL_TYPE (TvHeatmapView, tv_heatmap_view, GTK_TYPE_WIDGET)

/* ------------------------------------------------------------------------ */
/* Filters                                                                   */
/* ------------------------------------------------------------------------ */

static void
filter_from_state (Filter      *filter,
                   TvViewState *state)
{
  const guint32 *threads;
  guint n_threads;

  threads = tv_view_state_get_threads (state, &n_threads);
  g_array_set_size (filter->lanes, 0);
  g_array_append_vals (filter->lanes, threads, n_threads);
  tv_state_filter_get_mask (tv_view_state_get_state_filter (state), &filter->mask,
                            &filter->value);
}

static gboolean
filter_equal (const Filter *a,
              const Filter *b)
{
  return a->mask == b->mask && a->value == b->value && a->lanes->len == b->lanes->len
         && (a->lanes->len == 0
             || memcmp (a->lanes->data, b->lanes->data, a->lanes->len * sizeof (guint32)) == 0);
}

static void
filter_copy (Filter       *to,
             const Filter *from)
{
  g_array_set_size (to->lanes, from->lanes->len);
  if (from->lanes->len > 0)
    memcpy (to->lanes->data, from->lanes->data, from->lanes->len * sizeof (guint32));
  to->mask = from->mask;
  to->value = from->value;
}

/* ------------------------------------------------------------------------ */
/* Making the heatmap                                                        */
/* ------------------------------------------------------------------------ */

typedef struct
{
  TvTimeline *timeline;
  Filter      filter;
} Job;

static void
job_free (gpointer data)
{
  Job *job = data;

  tv_timeline_unref (job->timeline);
  g_array_unref (job->filter.lanes);
  g_free (job);
}

static gpointer
make_heatmap (gpointer      data,
              GCancellable *cancellable)
{
  Job *job = data;

  /* A column per second; a short profile's are shorter, 50 rows each. */
  guint64 column = tv_timeline_heatmap_pick_column_duration (job->timeline);

  return tv_timeline_heatmap_new_full (job->timeline,
                                       job->filter.lanes->len > 0
                                       ? (const guint32 *) (gpointer) job->filter.lanes->data
                                       : NULL,
                                       job->filter.lanes->len, job->filter.mask,
                                       job->filter.value, column,
                                       MAX (column * TV_HEATMAP_ROW_DURATION / 1000000, 1),
                                       cancellable);
}

/* The newest heatmap is made (NULL: cancelled). */
static void
heatmap_done (gpointer owner,
              gpointer data,
              gpointer result)
{
  TvHeatmapView *self = TV_HEATMAP_VIEW (owner);
  Job *job = data;
  TvTimelineHeatmap *heatmap = result;

  if (heatmap == NULL)
    return;
  g_clear_pointer (&self->heatmap, tv_timeline_heatmap_unref);
  self->heatmap = heatmap;
  filter_copy (&self->shown, &job->filter);
  self->has_shown = TRUE;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* Starts making the heatmap of the state's filters, unless it is shown
 * or on its way.  Only a mapped view makes one. */
static void
refresh (TvHeatmapView *self)
{
  g_autoptr(GArray) lanes = g_array_new (FALSE, FALSE, sizeof (guint32));
  Filter now = { lanes, 0, 0 };
  Job *job;

  if (self->timeline == NULL || !gtk_widget_get_mapped (GTK_WIDGET (self)))
    return;
  filter_from_state (&now, self->state);
  if (tv_worker_is_busy (&self->worker) ? filter_equal (&self->wanted, &now)
                                        : self->has_shown && filter_equal (&self->shown, &now))
    return;
  filter_copy (&self->wanted, &now);

  job = g_new0 (Job, 1);
  job->timeline = tv_timeline_ref (self->timeline);
  job->filter.lanes = g_array_new (FALSE, FALSE, sizeof (guint32));
  filter_copy (&job->filter, &self->wanted);
  tv_worker_run (&self->worker, self, make_heatmap, job, job_free,
                 (GDestroyNotify) tv_timeline_heatmap_unref, heatmap_done);
}

/* ------------------------------------------------------------------------ */
/* Drawing                                                                   */
/* ------------------------------------------------------------------------ */

static void
sync_style (TvHeatmapView *self)
{
  guint64 start, end;

  self->style.dark = adw_style_manager_get_dark (adw_style_manager_get_default ());
  self->style.width = gtk_widget_get_width (GTK_WIDGET (self));
  self->style.height = gtk_widget_get_height (GTK_WIDGET (self));
  self->style.legend_label = _("samples per cell");
  self->style.highlight = self->highlight;
  self->style.selection = tv_view_state_get_ranges (self->state, &self->style.n_selection);
  /* A time range from the lanes shows here too. */
  if (self->style.selection == NULL && tv_view_state_get_range (self->state, &start, &end))
    {
      self->range = (TvTimeRange) { start, end };
      self->style.selection = &self->range;
      self->style.n_selection = 1;
    }
}

static void
tv_heatmap_view_snapshot (GtkWidget   *widget,
                          GtkSnapshot *snapshot)
{
  TvHeatmapView *self = TV_HEATMAP_VIEW (widget);
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  cairo_t *cr;

  if (self->heatmap == NULL || width <= 0 || height <= 0)
    return;
  sync_style (self);
  self->style.draw_background = TRUE;
  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));
  tv_timeline_renderer_draw_heatmap (self->renderer, cr, self->heatmap, &self->style);
  cairo_destroy (cr);
}

static gboolean
hit_test (TvHeatmapView *self,
          double         x,
          double         y,
          gboolean       clamp,
          guint         *column,
          guint         *row)
{
  if (self->heatmap == NULL)
    return FALSE;
  sync_style (self);
  return tv_timeline_renderer_heatmap_hit_test (self->renderer, self->heatmap, &self->style,
                                                x, y, clamp, column, row);
}

static gboolean
tv_heatmap_view_query_tooltip (GtkWidget  *widget,
                               int         x,
                               int         y,
                               gboolean    keyboard,
                               GtkTooltip *tooltip)
{
  TvHeatmapView *self = TV_HEATMAP_VIEW (widget);
  guint64 origin, start, end, count;
  g_autofree char *from = NULL;
  g_autofree char *to = NULL;
  g_autofree char *number = NULL;
  g_autofree char *text = NULL;
  guint column, row;

  if (keyboard || !hit_test (self, x, y, FALSE, &column, &row))
    return FALSE;
  origin = tv_timeline_get_origin (self->timeline);
  tv_timeline_heatmap_get_cell_range (self->heatmap, column, row, &start, &end);
  count = tv_timeline_heatmap_get_count (self->heatmap, column, row);
  from = tv_timeline_format_time ((double) (start - origin));
  to = tv_timeline_format_time ((double) (end - origin));
  number = tv_format_count (count);
  /* Translators: a heatmap cell's tooltip: from, to (after the first
   * sample), and its samples. */
  text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s to %s: %s sample",
                                       "%s to %s: %s samples",
                                       count > G_MAXULONG ? G_MAXULONG : (gulong) count),
                          from, to, number);
  gtk_tooltip_set_text (tooltip, text);
  return TRUE;
}

/* ------------------------------------------------------------------------ */
/* Input                                                                     */
/* ------------------------------------------------------------------------ */

void
tv_heatmap_view_select (TvHeatmapView *self,
                        guint          column0,
                        guint          row0,
                        guint          column1,
                        guint          row1)
{
  g_autofree TvTimeRange *ranges = NULL;
  guint n_ranges;

  g_return_if_fail (TV_IS_HEATMAP_VIEW (self));
  g_return_if_fail (self->heatmap != NULL);

  ranges = tv_timeline_heatmap_select (self->heatmap, column0, row0, column1, row1, &n_ranges);
  if (n_ranges > 0)
    tv_view_state_set_ranges (self->state, ranges, n_ranges);
}

static void
on_drag_begin (GtkGestureDrag *gesture,
               double          x,
               double          y,
               TvHeatmapView  *self)
{
  self->dragging = hit_test (self, x, y, FALSE, &self->drag_column, &self->drag_row);
  if (!self->dragging)
    {
      gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_DENIED);
      return;
    }
  gtk_widget_grab_focus (GTK_WIDGET (self));
  self->drag_x = x;
  self->drag_y = y;
  self->style.has_drag = TRUE;
  self->style.drag_column0 = self->style.drag_column1 = self->drag_column;
  self->style.drag_row0 = self->style.drag_row1 = self->drag_row;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* The cell under the drag's end, clamped to the cells. */
static void
drag_end_cell (TvHeatmapView *self,
               double         dx,
               double         dy,
               guint         *column,
               guint         *row)
{
  if (!hit_test (self, self->drag_x + dx, self->drag_y + dy, TRUE, column, row))
    {
      *column = self->drag_column;
      *row = self->drag_row;
    }
}

static void
on_drag_update (GtkGestureDrag *gesture,
                double          dx,
                double          dy,
                TvHeatmapView  *self)
{
  if (!self->dragging)
    return;
  drag_end_cell (self, dx, dy, &self->style.drag_column1, &self->style.drag_row1);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
on_drag_end (GtkGestureDrag *gesture,
             double          dx,
             double          dy,
             TvHeatmapView  *self)
{
  guint column, row;

  if (!self->dragging)
    return;
  self->dragging = FALSE;
  self->style.has_drag = FALSE;
  drag_end_cell (self, dx, dy, &column, &row);
  tv_heatmap_view_select (self, self->drag_column, self->drag_row, column, row);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
on_state_changed (TvHeatmapView *self)
{
  refresh (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* ------------------------------------------------------------------------ */
/* Public API                                                                */
/* ------------------------------------------------------------------------ */

GtkWidget *
tv_heatmap_view_new (TvViewState *state)
{
  TvHeatmapView *self;

  g_return_val_if_fail (TV_IS_VIEW_STATE (state), NULL);

  self = g_object_new (TV_TYPE_HEATMAP_VIEW, NULL);
  self->state = g_object_ref (state);
  g_signal_connect_swapped (state, "changed", G_CALLBACK (on_state_changed), self);
  return GTK_WIDGET (self);
}

void
tv_heatmap_view_set_timeline (TvHeatmapView *self,
                              TvTimeline    *timeline)
{
  g_return_if_fail (TV_IS_HEATMAP_VIEW (self));
  g_return_if_fail (timeline != NULL);

  if (self->timeline == timeline)
    return;
  g_clear_pointer (&self->timeline, tv_timeline_unref);
  self->timeline = tv_timeline_ref (timeline);
  self->has_shown = FALSE;
  /* A heatmap of the old timeline, made or being made, is no use. */
  tv_worker_cancel (&self->worker);
  g_clear_pointer (&self->heatmap, tv_timeline_heatmap_unref);
  refresh (self);
}

TvTimelineHeatmap *
tv_heatmap_view_get_heatmap (TvHeatmapView *self)
{
  g_return_val_if_fail (TV_IS_HEATMAP_VIEW (self), NULL);

  return self->heatmap;
}

void
tv_heatmap_view_set_highlight (TvHeatmapView       *self,
                               TvTimelineHighlight *highlight)
{
  g_return_if_fail (TV_IS_HEATMAP_VIEW (self));

  if (highlight == self->highlight)
    return;
  if (highlight != NULL)
    tv_timeline_highlight_ref (highlight);
  g_clear_pointer (&self->highlight, tv_timeline_highlight_unref);
  self->highlight = highlight;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

TvTimelineHighlight *
tv_heatmap_view_get_highlight (TvHeatmapView *self)
{
  g_return_val_if_fail (TV_IS_HEATMAP_VIEW (self), NULL);

  return self->highlight;
}

gboolean
tv_heatmap_view_get_busy (TvHeatmapView *self)
{
  g_return_val_if_fail (TV_IS_HEATMAP_VIEW (self), FALSE);

  return tv_worker_is_busy (&self->worker);
}

gboolean
tv_heatmap_view_get_cell_rect (TvHeatmapView   *self,
                               guint            column,
                               guint            row,
                               graphene_rect_t *rect)
{
  double x, y, width, height;

  g_return_val_if_fail (TV_IS_HEATMAP_VIEW (self), FALSE);
  g_return_val_if_fail (rect != NULL, FALSE);

  if (self->heatmap == NULL)
    return FALSE;
  sync_style (self);
  if (!tv_timeline_renderer_get_heatmap_cell (self->renderer, self->heatmap, &self->style,
                                              column, row, &x, &y, &width, &height))
    return FALSE;
  graphene_rect_init (rect, x, y, width, height);
  return TRUE;
}

/* ------------------------------------------------------------------------ */
/* GObject                                                                   */
/* ------------------------------------------------------------------------ */

static void
tv_heatmap_view_map (GtkWidget *widget)
{
  GTK_WIDGET_CLASS (tv_heatmap_view_parent_class)->map (widget);
  refresh (TV_HEATMAP_VIEW (widget));
}

static void
tv_heatmap_view_dispose (GObject *object)
{
  TvHeatmapView *self = TV_HEATMAP_VIEW (object);

  tv_worker_cancel (&self->worker);
  if (self->state != NULL)
    g_signal_handlers_disconnect_by_data (self->state, self);
  g_clear_object (&self->state);
  g_clear_pointer (&self->heatmap, tv_timeline_heatmap_unref);
  g_clear_pointer (&self->highlight, tv_timeline_highlight_unref);
  g_clear_pointer (&self->timeline, tv_timeline_unref);

  G_OBJECT_CLASS (tv_heatmap_view_parent_class)->dispose (object);
}

static void
tv_heatmap_view_finalize (GObject *object)
{
  TvHeatmapView *self = TV_HEATMAP_VIEW (object);

  g_clear_pointer (&self->renderer, tv_timeline_renderer_free);
  g_clear_pointer (&self->shown.lanes, g_array_unref);
  g_clear_pointer (&self->wanted.lanes, g_array_unref);

  G_OBJECT_CLASS (tv_heatmap_view_parent_class)->finalize (object);
}

static void
tv_heatmap_view_class_init (TvHeatmapViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tv_heatmap_view_dispose;
  object_class->finalize = tv_heatmap_view_finalize;
  widget_class->snapshot = tv_heatmap_view_snapshot;
  widget_class->query_tooltip = tv_heatmap_view_query_tooltip;
  widget_class->map = tv_heatmap_view_map;

  gtk_widget_class_set_css_name (widget_class, "heatmap");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
tv_heatmap_view_init (TvHeatmapView *self)
{
  GtkGesture *gesture;

  self->renderer = tv_timeline_renderer_new (NULL);
  self->shown.lanes = g_array_new (FALSE, FALSE, sizeof (guint32));
  self->wanted.lanes = g_array_new (FALSE, FALSE, sizeof (guint32));
  tv_heatmap_style_init (&self->style, 1, 1);

  gtk_widget_set_focusable (GTK_WIDGET (self), TRUE);
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  gtk_widget_set_hexpand (GTK_WIDGET (self), TRUE);
  gtk_widget_set_vexpand (GTK_WIDGET (self), TRUE);
  gtk_widget_set_size_request (GTK_WIDGET (self), 200, 120);

  gesture = gtk_gesture_drag_new ();
  g_signal_connect (gesture, "drag-begin", G_CALLBACK (on_drag_begin), self);
  g_signal_connect (gesture, "drag-update", G_CALLBACK (on_drag_update), self);
  g_signal_connect (gesture, "drag-end", G_CALLBACK (on_drag_end), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (gesture));

  g_signal_connect_object (adw_style_manager_get_default (), "notify::dark",
                           G_CALLBACK (gtk_widget_queue_draw), self, G_CONNECT_SWAPPED);
}
