/* tv-flame-graph-draw.c: the flame graph's drawing glue: style, snapshot, size
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib/gi18n.h>

#include "tv-flame-graph-private.h"

static void
sync_style (TvFlameGraph *self)
{
  self->style.dark = adw_style_manager_get_dark (adw_style_manager_get_default ());
  self->style.matches = self->matches;
  self->style.root_label = _("all");
}

/* The node of the box that shows the linked node: the node itself, or
 * its nearest ancestor with a box of its own when it is too narrow. */
static guint32
linked_box_node (TvFlameGraph *self)
{
  guint32 node = self->linked;

  if (self->tree == NULL || tv_flame_layout_get_tree (self->layout) != self->tree
      || node >= tv_call_tree_get_n_nodes (self->tree))
    return TV_NODE_NONE;
  for (; node != TV_NODE_NONE; node = tv_call_tree_get_parent (self->tree, node))
    {
      const TvFlameBox *box = tv_flame_layout_lookup_node (self->layout, node);

      if (box != NULL && box->node == node && !(box->flags & TV_FLAME_BOX_MERGED))
        return node;
    }
  return TV_NODE_NONE;
}

void
tv_flame_graph_snapshot (GtkWidget   *widget,
                         GtkSnapshot *snapshot)
{
  TvFlameGraph *self = TV_FLAME_GRAPH (widget);
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  graphene_rect_t bounds = GRAPHENE_RECT_INIT (0, 0, width, height);
  cairo_t *cr;

  if (self->layout == NULL || width <= 0 || height <= 0)
    return;

  sync_style (self);
  if (self->frames_node == NULL || self->frames_width != width || self->frames_height != height)
    {
      GtkSnapshot *frames = gtk_snapshot_new ();
      TvFlameStyle plain = self->style;

      plain.hovered = TV_NODE_NONE;
      plain.hovered_merged = FALSE;
      plain.selected = TV_NODE_NONE;
      cr = gtk_snapshot_append_cairo (frames, &bounds);
      tv_flame_renderer_draw (self->renderer, cr, self->layout, &plain);
      cairo_destroy (cr);
      g_clear_pointer (&self->frames_node, gsk_render_node_unref);
      self->frames_node = gtk_snapshot_free_to_node (frames);
      self->frames_width = width;
      self->frames_height = height;
    }
  if (self->frames_node != NULL)
    gtk_snapshot_append_node (snapshot, self->frames_node);

  self->style.hovered = self->hovered != NULL ? self->hovered->node : TV_NODE_NONE;
  self->style.hovered_first = self->hovered != NULL ? self->hovered->first : 0;
  self->style.hovered_merged = self->hovered != NULL
                               && (self->hovered->flags & TV_FLAME_BOX_MERGED) != 0;
  if (self->hovered == NULL && self->linked != TV_NODE_NONE)
    self->style.hovered = linked_box_node (self);
  if (self->style.hovered != TV_NODE_NONE || self->style.selected != TV_NODE_NONE)
    {
      cr = gtk_snapshot_append_cairo (snapshot, &bounds);
      tv_flame_renderer_draw_highlight (self->renderer, cr, self->layout, &self->style);
      cairo_destroy (cr);
    }
  gtk_widget_snapshot_child (widget, self->scrollbar, snapshot);
}

void
tv_flame_graph_size_allocate (GtkWidget *widget,
                              int        width,
                              int        height,
                              int        baseline)
{
  TvFlameGraph *self = TV_FLAME_GRAPH (widget);
  const TvFlameViewport *viewport = self->layout != NULL
                                    ? tv_flame_layout_get_viewport (self->layout) : NULL;

  int bar_width = 0;

  if (self->context_menu != NULL)
    gtk_popover_present (self->context_menu);

  if (viewport == NULL || viewport->width != width || viewport->height != height)
    tv_flame_graph_relayout (self);
  /* After the layout, which may have shown the scrollbar. */
  gtk_widget_measure (self->scrollbar, GTK_ORIENTATION_HORIZONTAL, -1, &bar_width, NULL,
                      NULL, NULL);
  gtk_widget_size_allocate (self->scrollbar,
                            &(GtkAllocation) { MAX (width - bar_width, 0), 0, bar_width, height },
                            -1);
}

void
tv_flame_graph_measure (GtkWidget      *widget,
                        GtkOrientation  orientation,
                        int             for_size,
                        int            *minimum,
                        int            *natural,
                        int            *minimum_baseline,
                        int            *natural_baseline)
{
  *minimum = orientation == GTK_ORIENTATION_HORIZONTAL ? 100 : 4 * ROW_HEIGHT;
  *natural = orientation == GTK_ORIENTATION_HORIZONTAL ? 600 : 20 * ROW_HEIGHT;
}

