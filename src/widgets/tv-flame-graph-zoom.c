/* tv-flame-graph-zoom.c: the flame graph's zoom, its animation and its history
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tv-flame-graph-private.h"

static void
on_animation_value (double   value,
                    gpointer user_data)
{
  TvFlameGraph *self = user_data;

  self->anim_x[0] = self->anim_from[0] + (self->anim_to[0] - self->anim_from[0]) * value;
  self->anim_x[1] = self->anim_from[1] + (self->anim_to[1] - self->anim_from[1]) * value;
  tv_flame_graph_relayout (self);
}

static void
on_animation_done (TvFlameGraph *self)
{
  /* The animation object stays until the next one: this runs inside its
   * own signal emission. */
  self->animating = FALSE;
  tv_flame_graph_relayout (self);
}

void
tv_flame_graph_stop_animation (TvFlameGraph *self)
{
  if (self->animating)
    adw_animation_skip (self->animation);
  g_assert (!self->animating);
}

void
tv_flame_graph_set_zoom (TvFlameGraph *self,
                         const Zoom   *zoom,
                         gboolean      animate)
{
  Zoom from = self->zoom;
  guint64 from_start = 0, to_start = 0;
  guint32 common;

  /* A zoom during a zoom starts from where the first was going. */
  tv_flame_graph_stop_animation (self);

  self->zoom = *zoom;
  self->scroll_y = 0;
  tv_flame_graph_notify (self, PROP_ZOOM_ROOT);
  tv_flame_graph_update_history_actions (self);

  if (!animate || !gtk_widget_get_mapped (GTK_WIDGET (self)))
    {
      tv_flame_graph_relayout (self);
      return;
    }

  common = tv_flame_graph_common_ancestor (self->tree, from.root, zoom->root);
  tv_flame_get_node_start (self->tree, common, from.root, &from_start);
  tv_flame_get_node_start (self->tree, common, zoom->root, &to_start);
  self->anim_root = common;
  self->anim_from[0] = from_start + from.x0;
  self->anim_from[1] = from_start + from.x1;
  self->anim_to[0] = to_start + zoom->x0;
  self->anim_to[1] = to_start + zoom->x1;
  self->anim_x[0] = self->anim_from[0];
  self->anim_x[1] = self->anim_from[1];

  g_clear_object (&self->animation);
  self->animating = TRUE;
  self->animation = adw_timed_animation_new (GTK_WIDGET (self), 0, 1, ZOOM_MS,
                                             adw_callback_animation_target_new (on_animation_value,
                                                                                self, NULL));
  adw_timed_animation_set_easing (ADW_TIMED_ANIMATION (self->animation), ADW_EASE_OUT_CUBIC);
  g_signal_connect_swapped (self->animation, "done", G_CALLBACK (on_animation_done), self);
  adw_animation_play (self->animation);
}

static void
push_zoom (TvFlameGraph *self,
           const Zoom   *zoom)
{
  if (self->zoom.root == zoom->root && self->zoom.x0 == zoom->x0 && self->zoom.x1 == zoom->x1)
    return;
  tv_zoom_history_push (&self->history, &self->zoom);
  tv_flame_graph_set_zoom (self, zoom, TRUE);
}

void
tv_flame_graph_zoom_to (TvFlameGraph *self,
                        guint32       node)
{
  Zoom zoom;

  g_return_if_fail (TV_IS_FLAME_GRAPH (self));
  g_return_if_fail (self->tree != NULL);
  g_return_if_fail (node < tv_call_tree_get_n_nodes (self->tree));

  zoom.root = node;
  zoom.x0 = 0;
  zoom.x1 = tv_flame_graph_node_total (self, node);
  push_zoom (self, &zoom);
}

void
tv_flame_graph_zoom_to_box (TvFlameGraph     *self,
                            const TvFlameBox *box)
{
  if (box->flags & TV_FLAME_BOX_MERGED)
    {
      /* The merged children's span, within their parent. */
      guint64 parent_start = 0;
      Zoom zoom;
      guint32 root = tv_flame_layout_get_viewport (self->layout)->root;

      tv_flame_get_node_start (self->tree, root, box->node, &parent_start);
      zoom.root = box->node;
      zoom.x0 = (double) box->start - parent_start;
      zoom.x1 = zoom.x0 + box->samples;
      zoom.x0 = MAX (zoom.x0, 0);
      zoom.x1 = MIN (zoom.x1, tv_flame_graph_node_total (self, box->node));
      push_zoom (self, &zoom);
    }
  else
    tv_flame_graph_zoom_to (self, box->node);
}

void
tv_flame_graph_go (TvFlameGraph    *self,
                   TvZoomDirection  direction)
{
  Zoom zoom;

  if (tv_zoom_history_go (&self->history, direction, &self->zoom, &zoom))
    tv_flame_graph_set_zoom (self, &zoom, TRUE);
}

void
tv_flame_graph_zoom_to_root (TvFlameGraph *self)
{
  if (self->tree == NULL)
    return;
  tv_flame_graph_zoom_to (self, TV_ROOT_NODE);
}

gboolean
tv_flame_graph_needs_detail (TvFlameGraph *self,
                             guint64      *visible)
{
  guint64 cut, shown;
  int width;

  g_return_val_if_fail (TV_IS_FLAME_GRAPH (self), FALSE);

  if (self->tree == NULL)
    return FALSE;
  shown = (guint64) MAX (self->zoom.x1 - self->zoom.x0, 0);
  if (visible != NULL)
    *visible = shown;
  cut = tv_call_tree_get_cut_below (self->tree, self->zoom.root);
  /* Unmapped, as wide as a big screen. */
  width = gtk_widget_get_width (GTK_WIDGET (self));
  if (width <= 0)
    width = 1920;
  /* Every child left out has fewer samples than CUT: narrower than a
   * pixel while CUT is. */
  return cut > 0 && (double) cut * width >= (double) shown;
}
