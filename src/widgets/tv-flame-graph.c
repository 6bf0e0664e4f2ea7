/* tv-flame-graph.c: the interactive flame graph widget
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Draws a TvFlameLayout with the shared cairo renderer.  The drawing of the
 * frames is kept as a render node; hover and keyboard selection draw only
 * their highlight on top of it, so moving the pointer costs no relayout
 * and no redraw of the frames.
 *
 * The zoom is a frame (the zoom root) and the range of its samples shown.
 * A zoom animates in the coordinates of the common ancestor of where it
 * starts and where it ends, so frames slide to their new places.
 *
 * A layout is bounded by what fits on screen, and is made on the main
 * thread while it stays cheap.  Once one has taken longer than
 * SYNC_LAYOUT_US, the next is made on a worker (a TvWorker, so that a
 * stale layout never replaces a newer one);
 * the old one stays on screen meanwhile.  Animation frames always lay out
 * at once.
 */
#include <glib/gi18n.h>

#include "tv-flame-graph-private.h"

#include "tv-popup-tooltips.h"

G_DEFINE_FINAL_TYPE (TvFlameGraph, tv_flame_graph, GTK_TYPE_WIDGET)

static GParamSpec *properties[N_PROPS];

/* For the other files of the flame graph, which do not see PROPERTIES. */
void
tv_flame_graph_notify (TvFlameGraph *self,
                       guint         prop_id)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[prop_id]);
}

/* ------------------------------------------------------------------------ */
/* Small helpers                                                             */
/* ------------------------------------------------------------------------ */

double
tv_flame_graph_node_total (TvFlameGraph *self,
                           guint32       node)
{
  return (double) tv_call_tree_get_total (self->tree, node);
}

guint32
tv_flame_graph_common_ancestor (TvCallTree *tree,
                                guint32     a,
                                guint32     b)
{
  guint da = tv_call_tree_get_depth (tree, a);
  guint db = tv_call_tree_get_depth (tree, b);

  while (da > db)
    {
      a = tv_call_tree_get_parent (tree, a);
      da--;
    }
  while (db > da)
    {
      b = tv_call_tree_get_parent (tree, b);
      db--;
    }
  while (a != b)
    {
      a = tv_call_tree_get_parent (tree, a);
      b = tv_call_tree_get_parent (tree, b);
    }
  return a;
}

static void
invalidate_frames (TvFlameGraph *self)
{
  g_clear_pointer (&self->frames_node, gsk_render_node_unref);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
tv_flame_graph_update_history_actions (TvFlameGraph *self)
{
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "flame.back",
                                 tv_zoom_history_can_go (&self->history, TV_ZOOM_BACK));
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "flame.forward",
                                 tv_zoom_history_can_go (&self->history, TV_ZOOM_FORWARD));
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "flame.reset",
                                 self->tree != NULL
                                 && (self->zoom.root != TV_ROOT_NODE || self->zoom.x0 != 0
                                     || self->zoom.x1 != tv_flame_graph_node_total (self,
                                                                                    TV_ROOT_NODE)));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CAN_GO_BACK]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CAN_GO_FORWARD]);
}

/* ------------------------------------------------------------------------ */
/* Layout                                                                    */
/* ------------------------------------------------------------------------ */


/* The scrollbar says how much is above and below what is shown. */
static void
sync_scrollbar (TvFlameGraph *self)
{
  double height = gtk_widget_get_height (GTK_WIDGET (self));
  double content = self->layout != NULL
                   ? tv_flame_layout_get_content_rows (self->layout) * ROW_HEIGHT : 0;
  double above;

  if (self->orientation == TV_FLAME_ORIENTATION_FLAME)
    above = tv_flame_graph_max_scroll (self) - self->scroll_y;
  else
    above = self->scroll_y;
  self->syncing_adjustment = TRUE;
  gtk_adjustment_configure (self->vadjustment, CLAMP (above, 0, MAX (content - height, 0)),
                            0, MAX (content, height), SCROLL_ROWS * ROW_HEIGHT,
                            MAX (height - ROW_HEIGHT, ROW_HEIGHT), height);
  self->syncing_adjustment = FALSE;
  gtk_widget_set_visible (self->scrollbar, content > height && height > 0);
}

static void
set_layout (TvFlameGraph  *self,
            TvFlameLayout *layout)
{
  guint32 hovered_node = TV_NODE_NONE;

  if (self->hovered != NULL)
    hovered_node = self->hovered->node;
  self->hovered = NULL;
  g_clear_pointer (&self->layout, tv_flame_layout_unref);
  self->layout = layout;
  invalidate_frames (self);

  /* The pointer may be over another frame now. */
  if (layout != NULL && hovered_node != TV_NODE_NONE)
    self->hovered = tv_flame_layout_hit_test (layout, self->pointer_x, self->pointer_y);
  sync_scrollbar (self);
}

static void
fill_viewport (TvFlameGraph    *self,
               TvFlameViewport *viewport)
{
  int width = gtk_widget_get_width (GTK_WIDGET (self));
  int height = gtk_widget_get_height (GTK_WIDGET (self));

  tv_flame_viewport_init (viewport, self->tree, width, height);
  viewport->row_height = ROW_HEIGHT;
  viewport->orientation = self->orientation;
  viewport->show_ancestors = TRUE;
  viewport->hang_from_top = TRUE;
  viewport->scroll_y = self->scroll_y;
  if (self->animating)
    {
      viewport->root = self->anim_root;
      viewport->x0 = self->anim_x[0];
      viewport->x1 = self->anim_x[1];
    }
  else
    {
      viewport->root = self->zoom.root;
      viewport->x0 = self->zoom.x0;
      viewport->x1 = self->zoom.x1;
    }
}

/* A layout to make on the worker: where, of which tree, asked for when. */
typedef struct
{
  TvFlameViewport  viewport;
  TvCallTree      *tree;
  gint64           started;
} LayoutJob;

static void
layout_job_free (gpointer data)
{
  LayoutJob *job = data;

  tv_call_tree_unref (job->tree);
  g_free (job);
}

static gpointer
layout_thread (gpointer      data,
               GCancellable *cancellable)
{
  LayoutJob *job = data;

  /* NULL when cancelled. */
  return tv_flame_layout_new (job->tree, &job->viewport, cancellable);
}

/* Only for the newest layout asked for: a stale one is dropped. */
static void
layout_done (gpointer owner,
             gpointer data,
             gpointer result)
{
  TvFlameGraph *self = TV_FLAME_GRAPH (owner);
  LayoutJob *job = data;

  if (result == NULL)
    return;
  self->last_layout_us = g_get_monotonic_time () - job->started;
  set_layout (self, result);
}

void
tv_flame_graph_relayout (TvFlameGraph *self)
{
  TvFlameViewport viewport;
  gint64 start;

  tv_worker_cancel (&self->layout_worker);

  if (self->tree == NULL || gtk_widget_get_width (GTK_WIDGET (self)) <= 0)
    {
      set_layout (self, NULL);
      return;
    }

  fill_viewport (self, &viewport);
  if (self->animating || self->last_layout_us < self->sync_layout_us)
    {
      start = g_get_monotonic_time ();
      set_layout (self, tv_flame_layout_new (self->tree, &viewport, NULL));
      self->last_layout_us = g_get_monotonic_time () - start;
    }
  else
    {
      LayoutJob *job = g_new0 (LayoutJob, 1);

      job->viewport = viewport;
      job->tree = tv_call_tree_ref (self->tree);
      job->started = g_get_monotonic_time ();
      tv_worker_run (&self->layout_worker, self, layout_thread, job, layout_job_free,
                     (GDestroyNotify) tv_flame_layout_unref, layout_done);
    }
}

double
tv_flame_graph_max_scroll (TvFlameGraph *self)
{
  double content;

  if (self->layout == NULL)
    return 0;
  content = tv_flame_layout_get_content_rows (self->layout) * ROW_HEIGHT;
  return MAX (0, content - gtk_widget_get_height (GTK_WIDGET (self)));
}

/* ------------------------------------------------------------------------ */
/* Public API                                                                */
/* ------------------------------------------------------------------------ */

GtkWidget *
tv_flame_graph_new (void)
{
  return g_object_new (TV_TYPE_FLAME_GRAPH, NULL);
}

TvCallTree *
tv_flame_graph_get_tree (TvFlameGraph *self)
{
  g_return_val_if_fail (TV_IS_FLAME_GRAPH (self), NULL);

  return self->tree;
}

/* Whether nodes of OLD mean something in NEW: the same keys, the same
 * way up. */
static gboolean
same_kind (TvCallTree *old,
           TvCallTree *new)
{
  return tv_call_tree_get_merge (old) == tv_call_tree_get_merge (new)
         && tv_call_tree_get_inverted (old) == tv_call_tree_get_inverted (new);
}

/* NODE's path of keys in OLD, followed in NEW as far as it goes; WHOLE
 * says whether it went all the way. */
static guint32
map_node (TvCallTree *old,
          TvCallTree *new,
          guint32     node,
          gboolean   *whole)
{
  g_autoptr(GArray) keys = g_array_new (FALSE, FALSE, sizeof (guint32));
  guint32 mapped = TV_ROOT_NODE;

  if (whole != NULL)
    *whole = FALSE;
  if (!same_kind (old, new))
    return TV_ROOT_NODE;
  for (; node != TV_ROOT_NODE && node != TV_NODE_NONE; node = tv_call_tree_get_parent (old, node))
    {
      guint32 key = tv_call_tree_get_key (old, node);

      g_array_append_val (keys, key);
    }
  for (guint i = keys->len; i > 0; i--)
    {
      guint32 child = tv_call_tree_find_child (new, mapped, g_array_index (keys, guint32, i - 1));

      if (child == TV_NODE_NONE)
        return mapped;
      mapped = child;
    }
  if (whole != NULL)
    *whole = TRUE;
  return mapped;
}

/* A zoom of OLD in NEW: its frame, or as much of its path as NEW has,
 * then shown whole. */
static Zoom
map_zoom (TvCallTree *old,
          TvCallTree *new,
          const Zoom *zoom)
{
  gboolean whole;
  Zoom mapped = { map_node (old, new, zoom->root, &whole), zoom->x0, zoom->x1 };
  guint64 total = tv_call_tree_get_total (new, mapped.root);

  /* A part of the frame stays that part when its samples are the same
   * (a finer tree of them); else the frame is shown whole. */
  if (!whole || total != tv_call_tree_get_total (old, zoom->root))
    {
      mapped.x0 = 0;
      mapped.x1 = (double) total;
    }
  return mapped;
}

typedef struct
{
  TvCallTree *old;
  TvCallTree *new;
} MapHistory;

static void
map_history_place (gpointer place,
                   gpointer user_data)
{
  MapHistory *trees = user_data;
  Zoom *zoom = place;

  *zoom = map_zoom (trees->old, trees->new, zoom);
}

void
tv_flame_graph_set_tree (TvFlameGraph *self,
                         TvCallTree   *tree)
{
  Zoom zoom = { TV_ROOT_NODE, 0, 0 };
  guint32 selected = TV_NODE_NONE;
  g_autoptr(TvCallTree) old = NULL;

  g_return_if_fail (TV_IS_FLAME_GRAPH (self));

  if (self->tree == tree)
    return;

  tv_flame_graph_stop_animation (self);

  old = g_steal_pointer (&self->tree);
  g_clear_pointer (&self->matches, tv_flame_matches_unref);
  if (tree != NULL)
    {
      self->tree = tv_call_tree_ref (tree);
      zoom.x1 = tv_flame_graph_node_total (self, zoom.root);
    }
  if (old != NULL && tree != NULL)
    {
      zoom = map_zoom (old, tree, &self->zoom);
      if (self->style.selected != TV_NODE_NONE)
        selected = map_node (old, tree, self->style.selected, NULL);
    }
  /* Node ids mean nothing in another tree: the places go by their keys,
   * and none is left when the keys change meaning. */
  if (old != NULL && tree != NULL && same_kind (old, tree))
    tv_zoom_history_map (&self->history, map_history_place, &(MapHistory) { old, tree });
  else
    tv_zoom_history_forget (&self->history);
  self->zoom = zoom;
  self->style.selected = selected;
  self->linked = TV_NODE_NONE;
  self->scroll_y = 0;
  self->last_layout_us = 0;
  tv_flame_graph_relayout (self);
  tv_flame_graph_update_history_actions (self);
  tv_flame_graph_update_selection_actions (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TREE]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ZOOM_ROOT]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED]);
}

TvViewState *
tv_flame_graph_get_view_state (TvFlameGraph *self)
{
  g_return_val_if_fail (TV_IS_FLAME_GRAPH (self), NULL);

  return self->view_state;
}

void
tv_flame_graph_set_view_state (TvFlameGraph *self,
                               TvViewState  *state)
{
  g_return_if_fail (TV_IS_FLAME_GRAPH (self));

  if (g_set_object (&self->view_state, state))
    {
      tv_flame_graph_update_selection_actions (self);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_VIEW_STATE]);
    }
}

TvFlameOrientation
tv_flame_graph_get_orientation (TvFlameGraph *self)
{
  g_return_val_if_fail (TV_IS_FLAME_GRAPH (self), TV_FLAME_ORIENTATION_FLAME);

  return self->orientation;
}

void
tv_flame_graph_set_orientation (TvFlameGraph       *self,
                                TvFlameOrientation  orientation)
{
  g_return_if_fail (TV_IS_FLAME_GRAPH (self));

  if (self->orientation == orientation)
    return;
  self->orientation = orientation;
  self->scroll_y = 0;
  tv_flame_graph_relayout (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ORIENTATION]);
}

TvFlameColorScheme
tv_flame_graph_get_color_scheme (TvFlameGraph *self)
{
  g_return_val_if_fail (TV_IS_FLAME_GRAPH (self), TV_FLAME_COLORS_MODULE);

  return self->style.scheme;
}

void
tv_flame_graph_set_color_scheme (TvFlameGraph       *self,
                                 TvFlameColorScheme  scheme)
{
  g_return_if_fail (TV_IS_FLAME_GRAPH (self));

  if (self->style.scheme == scheme)
    return;
  self->style.scheme = scheme;
  invalidate_frames (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_COLOR_SCHEME]);
}

void
tv_flame_graph_set_matches (TvFlameGraph   *self,
                            TvFlameMatches *matches)
{
  g_return_if_fail (TV_IS_FLAME_GRAPH (self));
  g_return_if_fail (matches == NULL || tv_flame_matches_get_tree (matches) == self->tree);

  if (self->matches == matches)
    return;
  g_clear_pointer (&self->matches, tv_flame_matches_unref);
  if (matches != NULL)
    self->matches = tv_flame_matches_ref (matches);
  invalidate_frames (self);
}

void
tv_flame_graph_set_diff (TvFlameGraph *self,
                         TvDiff       *diff,
                         TvDiffSide    side)
{
  g_return_if_fail (TV_IS_FLAME_GRAPH (self));

  if (self->diff == diff && self->style.diff_side == side)
    return;
  if (diff != NULL)
    tv_diff_ref (diff);
  g_clear_pointer (&self->diff, tv_diff_unref);
  self->diff = diff;
  self->style.diff = diff;
  self->style.diff_side = side;
  invalidate_frames (self);
}

TvDiff *
tv_flame_graph_get_diff (TvFlameGraph *self)
{
  g_return_val_if_fail (TV_IS_FLAME_GRAPH (self), NULL);

  return self->diff;
}

void
tv_flame_graph_set_diff_mode (TvFlameGraph    *self,
                              TvFlameDiffMode  mode)
{
  g_return_if_fail (TV_IS_FLAME_GRAPH (self));

  if (self->style.diff_mode == mode)
    return;
  self->style.diff_mode = mode;
  invalidate_frames (self);
}

void
tv_flame_graph_set_diff_keeps_modules (TvFlameGraph *self,
                                       gboolean      keeps)
{
  g_return_if_fail (TV_IS_FLAME_GRAPH (self));

  if (self->style.diff_keeps_modules == !!keeps)
    return;
  self->style.diff_keeps_modules = !!keeps;
  invalidate_frames (self);
}

gboolean
tv_flame_graph_get_diff_keeps_modules (TvFlameGraph *self)
{
  g_return_val_if_fail (TV_IS_FLAME_GRAPH (self), FALSE);

  return self->style.diff_keeps_modules;
}

guint32
tv_flame_graph_get_hovered_node (TvFlameGraph *self)
{
  g_return_val_if_fail (TV_IS_FLAME_GRAPH (self), TV_NODE_NONE);

  return self->hovered_node;
}

void
tv_flame_graph_set_linked (TvFlameGraph *self,
                           guint32       node)
{
  g_return_if_fail (TV_IS_FLAME_GRAPH (self));

  if (self->linked == node)
    return;
  self->linked = node;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

guint32
tv_flame_graph_get_linked (TvFlameGraph *self)
{
  g_return_val_if_fail (TV_IS_FLAME_GRAPH (self), TV_NODE_NONE);

  return self->linked;
}

TvFlameMatches *
tv_flame_graph_get_matches (TvFlameGraph *self)
{
  g_return_val_if_fail (TV_IS_FLAME_GRAPH (self), NULL);

  return self->matches;
}

guint32
tv_flame_graph_get_zoom_root (TvFlameGraph *self)
{
  g_return_val_if_fail (TV_IS_FLAME_GRAPH (self), TV_ROOT_NODE);

  return self->zoom.root;
}

gboolean
tv_flame_graph_reset_zoom (TvFlameGraph *self)
{
  g_return_val_if_fail (TV_IS_FLAME_GRAPH (self), FALSE);

  if (self->tree == NULL
      || (self->zoom.root == TV_ROOT_NODE && self->zoom.x0 == 0
          && self->zoom.x1 == tv_flame_graph_node_total (self, TV_ROOT_NODE)))
    return FALSE;
  tv_flame_graph_zoom_to_root (self);
  return TRUE;
}

gboolean
tv_flame_graph_can_go_back (TvFlameGraph *self)
{
  g_return_val_if_fail (TV_IS_FLAME_GRAPH (self), FALSE);

  return tv_zoom_history_can_go (&self->history, TV_ZOOM_BACK);
}

gboolean
tv_flame_graph_can_go_forward (TvFlameGraph *self)
{
  g_return_val_if_fail (TV_IS_FLAME_GRAPH (self), FALSE);

  return tv_zoom_history_can_go (&self->history, TV_ZOOM_FORWARD);
}

gboolean
tv_flame_graph_is_animating (TvFlameGraph *self)
{
  g_return_val_if_fail (TV_IS_FLAME_GRAPH (self), FALSE);

  return self->animating;
}

gboolean
tv_flame_graph_is_laying_out (TvFlameGraph *self)
{
  g_return_val_if_fail (TV_IS_FLAME_GRAPH (self), FALSE);

  return tv_worker_is_busy (&self->layout_worker);
}

guint32
tv_flame_graph_get_selected (TvFlameGraph *self)
{
  g_return_val_if_fail (TV_IS_FLAME_GRAPH (self), TV_NODE_NONE);

  return self->style.selected;
}

void
tv_flame_graph_set_selected (TvFlameGraph *self,
                             guint32       node)
{
  g_return_if_fail (TV_IS_FLAME_GRAPH (self));
  g_return_if_fail (node == TV_NODE_NONE
                    || (self->tree != NULL && node < tv_call_tree_get_n_nodes (self->tree)));

  if (self->style.selected == node)
    return;
  self->style.selected = node;
  tv_flame_graph_update_selection_actions (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED]);
}

GtkAdjustment *
tv_flame_graph_get_vadjustment (TvFlameGraph *self)
{
  g_return_val_if_fail (TV_IS_FLAME_GRAPH (self), NULL);

  return self->vadjustment;
}

GtkWidget *
tv_flame_graph_get_scrollbar (TvFlameGraph *self)
{
  g_return_val_if_fail (TV_IS_FLAME_GRAPH (self), NULL);

  return self->scrollbar;
}

TvFlameLayout *
tv_flame_graph_get_layout (TvFlameGraph *self)
{
  g_return_val_if_fail (TV_IS_FLAME_GRAPH (self), NULL);

  return self->layout;
}

/* ------------------------------------------------------------------------ */
/* GObject                                                                   */
/* ------------------------------------------------------------------------ */

static void
on_dark_changed (TvFlameGraph *self)
{
  invalidate_frames (self);
}

static void
tv_flame_graph_dispose (GObject *object)
{
  TvFlameGraph *self = TV_FLAME_GRAPH (object);

  tv_worker_cancel (&self->layout_worker);
  if (self->animation != NULL)
    g_signal_handlers_disconnect_by_data (self->animation, self);
  self->animating = FALSE;
  g_clear_object (&self->animation);
  g_signal_handlers_disconnect_by_data (adw_style_manager_get_default (), self);
  if (self->context_menu != NULL)
    {
      gtk_widget_unparent (GTK_WIDGET (self->context_menu));
      self->context_menu = NULL;
    }
  g_clear_pointer (&self->scrollbar, gtk_widget_unparent);
  if (self->vadjustment != NULL)
    g_signal_handlers_disconnect_by_data (self->vadjustment, self);
  g_clear_object (&self->vadjustment);
  g_clear_pointer (&self->frames_node, gsk_render_node_unref);
  self->hovered = NULL;
  g_clear_pointer (&self->layout, tv_flame_layout_unref);
  g_clear_pointer (&self->matches, tv_flame_matches_unref);
  g_clear_pointer (&self->tree, tv_call_tree_unref);
  g_clear_pointer (&self->diff, tv_diff_unref);
  self->style.diff = NULL;
  g_clear_object (&self->view_state);

  G_OBJECT_CLASS (tv_flame_graph_parent_class)->dispose (object);
}

static void
tv_flame_graph_finalize (GObject *object)
{
  TvFlameGraph *self = TV_FLAME_GRAPH (object);

  g_clear_pointer (&self->renderer, tv_flame_renderer_free);
  tv_zoom_history_clear (&self->history);

  G_OBJECT_CLASS (tv_flame_graph_parent_class)->finalize (object);
}

static void
tv_flame_graph_get_property (GObject    *object,
                             guint       prop_id,
                             GValue     *value,
                             GParamSpec *pspec)
{
  TvFlameGraph *self = TV_FLAME_GRAPH (object);

  switch (prop_id)
    {
    case PROP_TREE:
      g_value_set_pointer (value, self->tree);
      break;
    case PROP_VIEW_STATE:
      g_value_set_object (value, self->view_state);
      break;
    case PROP_ORIENTATION:
      g_value_set_int (value, self->orientation);
      break;
    case PROP_COLOR_SCHEME:
      g_value_set_int (value, self->style.scheme);
      break;
    case PROP_ZOOM_ROOT:
      g_value_set_uint (value, self->zoom.root);
      break;
    case PROP_SELECTED:
      g_value_set_uint (value, self->style.selected);
      break;
    case PROP_CAN_GO_BACK:
      g_value_set_boolean (value, tv_zoom_history_can_go (&self->history, TV_ZOOM_BACK));
      break;
    case PROP_CAN_GO_FORWARD:
      g_value_set_boolean (value, tv_zoom_history_can_go (&self->history, TV_ZOOM_FORWARD));
      break;
    case PROP_HOVERED_NODE:
      g_value_set_uint (value, self->hovered_node);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tv_flame_graph_set_property (GObject      *object,
                             guint         prop_id,
                             const GValue *value,
                             GParamSpec   *pspec)
{
  TvFlameGraph *self = TV_FLAME_GRAPH (object);

  switch (prop_id)
    {
    case PROP_VIEW_STATE:
      tv_flame_graph_set_view_state (self, g_value_get_object (value));
      break;
    case PROP_ORIENTATION:
      tv_flame_graph_set_orientation (self, g_value_get_int (value));
      break;
    case PROP_COLOR_SCHEME:
      tv_flame_graph_set_color_scheme (self, g_value_get_int (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tv_flame_graph_class_init (TvFlameGraphClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tv_flame_graph_dispose;
  object_class->finalize = tv_flame_graph_finalize;
  object_class->get_property = tv_flame_graph_get_property;
  object_class->set_property = tv_flame_graph_set_property;

  widget_class->snapshot = tv_flame_graph_snapshot;
  widget_class->size_allocate = tv_flame_graph_size_allocate;
  widget_class->measure = tv_flame_graph_measure;
  widget_class->query_tooltip = tv_flame_graph_query_tooltip;

  properties[PROP_TREE] =
    g_param_spec_pointer ("tree", NULL, NULL,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_VIEW_STATE] =
    g_param_spec_object ("view-state", NULL, NULL, TV_TYPE_VIEW_STATE,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_ORIENTATION] =
    g_param_spec_int ("orientation", NULL, NULL,
                      TV_FLAME_ORIENTATION_FLAME, TV_FLAME_ORIENTATION_ICICLE,
                      TV_FLAME_ORIENTATION_FLAME,
                      G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_COLOR_SCHEME] =
    g_param_spec_int ("color-scheme", NULL, NULL,
                      TV_FLAME_COLORS_MODULE, TV_FLAME_COLORS_DIFF, TV_FLAME_COLORS_MODULE,
                      G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_ZOOM_ROOT] =
    g_param_spec_uint ("zoom-root", NULL, NULL, 0, G_MAXUINT32, 0,
                       G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_SELECTED] =
    g_param_spec_uint ("selected", NULL, NULL, 0, G_MAXUINT32, TV_NODE_NONE,
                       G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_CAN_GO_BACK] =
    g_param_spec_boolean ("can-go-back", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_CAN_GO_FORWARD] =
    g_param_spec_boolean ("can-go-forward", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_HOVERED_NODE] =
    g_param_spec_uint ("hovered-node", NULL, NULL, 0, G_MAXUINT32, TV_NODE_NONE,
                       G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  tv_flame_graph_install_actions (widget_class);

  gtk_widget_class_set_css_name (widget_class, "flamegraph");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
tv_flame_graph_init (TvFlameGraph *self)
{
  GtkWidget *widget = GTK_WIDGET (self);
  GtkEventController *controller;
  GtkGesture *gesture;
  g_autoptr(GMenu) menu = g_menu_new ();
  g_autoptr(GMenu) section = NULL;

  tv_zoom_history_init (&self->history, sizeof (Zoom));
  self->renderer = tv_flame_renderer_new (NULL);
  tv_flame_style_init (&self->style);
  self->hovered_node = TV_NODE_NONE;
  self->linked = TV_NODE_NONE;
  /* TV_FLAME_ASYNC_LAYOUT=1 makes every layout but the animations' go
   * through the worker, so that tests see that path. */
  self->sync_layout_us = g_strcmp0 (g_getenv ("TV_FLAME_ASYNC_LAYOUT"), "1") == 0
                         ? 0 : SYNC_LAYOUT_US;

  gtk_widget_set_focusable (widget, TRUE);
  gtk_widget_set_has_tooltip (widget, TRUE);
  gtk_widget_set_overflow (widget, GTK_OVERFLOW_HIDDEN);

  controller = gtk_event_controller_motion_new ();
  g_signal_connect (controller, "motion", G_CALLBACK (tv_flame_graph_on_motion), self);
  g_signal_connect (controller, "leave", G_CALLBACK (tv_flame_graph_on_leave), self);
  gtk_widget_add_controller (widget, controller);

  gesture = gtk_gesture_click_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (gesture), GDK_BUTTON_PRIMARY);
  g_signal_connect (gesture, "released", G_CALLBACK (tv_flame_graph_on_click), self);
  gtk_widget_add_controller (widget, GTK_EVENT_CONTROLLER (gesture));

  gesture = gtk_gesture_click_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (gesture), GDK_BUTTON_SECONDARY);
  g_signal_connect (gesture, "pressed", G_CALLBACK (tv_flame_graph_on_secondary_click), self);
  gtk_widget_add_controller (widget, GTK_EVENT_CONTROLLER (gesture));

  controller = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_BOTH_AXES);
  g_signal_connect (controller, "scroll", G_CALLBACK (tv_flame_graph_on_scroll), self);
  gtk_widget_add_controller (widget, controller);

  controller = gtk_event_controller_key_new ();
  g_signal_connect (controller, "key-pressed", G_CALLBACK (tv_flame_graph_on_key_pressed), self);
  gtk_widget_add_controller (widget, controller);

  section = g_menu_new ();
  g_menu_append (section, _("_Zoom In"), "flame.zoom-in");
  g_menu_append_section (menu, NULL, G_MENU_MODEL (section));
  g_clear_object (&section);
  section = g_menu_new ();
  g_menu_append (section, _("_Focus on This Function"), "flame.focus-function");
  g_menu_append (section, _("_Hide This Function"), "flame.hide-function");
  g_menu_append (section, _("Collapse _Recursion"), "flame.collapse-recursion");
  g_menu_append_section (menu, NULL, G_MENU_MODEL (section));
  g_clear_object (&section);
  section = g_menu_new ();
  g_menu_append (section, _("_Copy Function Name"), "flame.copy-name");
  g_menu_append (section, _("Copy _Stack"), "flame.copy-stack");
  g_menu_append_section (menu, NULL, G_MENU_MODEL (section));
  self->context_menu = GTK_POPOVER (gtk_popover_menu_new_from_model (G_MENU_MODEL (menu)));
  gtk_popover_set_has_arrow (self->context_menu, FALSE);
  gtk_widget_set_halign (GTK_WIDGET (self->context_menu), GTK_ALIGN_START);
  gtk_widget_set_parent (GTK_WIDGET (self->context_menu), widget);
  /* A frame's tooltip would cover the menu opened on it. */
  tv_popup_tooltips_attach_popover (widget, self->context_menu);

  self->vadjustment = g_object_ref_sink (gtk_adjustment_new (0, 0, 0, 0, 0, 0));
  g_signal_connect (self->vadjustment, "value-changed",
                    G_CALLBACK (tv_flame_graph_on_vadjustment_value), self);
  self->scrollbar = gtk_scrollbar_new (GTK_ORIENTATION_VERTICAL, self->vadjustment);
  gtk_widget_set_visible (self->scrollbar, FALSE);
  gtk_widget_set_parent (self->scrollbar, widget);

  g_signal_connect_swapped (adw_style_manager_get_default (), "notify::dark",
                            G_CALLBACK (on_dark_changed), self);

  tv_flame_graph_update_history_actions (self);
  tv_flame_graph_update_selection_actions (self);
}
