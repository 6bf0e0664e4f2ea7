/* tv-flame-graph-input.c: the flame graph's pointer, scroll and key input, and its actions
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>

#include "tv-flame-graph-private.h"

static void
set_hovered (TvFlameGraph     *self,
             const TvFlameBox *box)
{
  guint32 node = box != NULL && !(box->flags & TV_FLAME_BOX_MERGED) ? box->node : TV_NODE_NONE;

  if (self->hovered == box)
    return;
  self->hovered = box;
  /* Only the highlight is drawn again. */
  gtk_widget_queue_draw (GTK_WIDGET (self));
  if (self->hovered_node != node)
    {
      self->hovered_node = node;
      tv_flame_graph_notify (self, PROP_HOVERED_NODE);
    }
}

void
tv_flame_graph_on_motion (GtkEventControllerMotion *motion,
                          double                    x,
                          double                    y,
                          TvFlameGraph             *self)
{
  self->pointer_x = x;
  self->pointer_y = y;
  set_hovered (self, self->layout != NULL ? tv_flame_layout_hit_test (self->layout, x, y) : NULL);
}

void
tv_flame_graph_on_leave (GtkEventControllerMotion *motion,
                         TvFlameGraph             *self)
{
  set_hovered (self, NULL);
}

void
tv_flame_graph_on_click (GtkGestureClick *gesture,
                         int              n_press,
                         double           x,
                         double           y,
                         TvFlameGraph    *self)
{
  const TvFlameBox *box;

  gtk_widget_grab_focus (GTK_WIDGET (self));
  /* Until the new tree's layout is in, boxes are the old tree's. */
  if (self->layout == NULL || tv_flame_layout_get_tree (self->layout) != self->tree)
    return;
  box = tv_flame_layout_hit_test (self->layout, x, y);
  if (box == NULL)
    return;
  if (!(box->flags & TV_FLAME_BOX_MERGED))
    tv_flame_graph_set_selected (self, box->node);
  tv_flame_graph_zoom_to_box (self, box);
}

void
tv_flame_graph_on_secondary_click (GtkGestureClick *gesture,
                                   int              n_press,
                                   double           x,
                                   double           y,
                                   TvFlameGraph    *self)
{
  const TvFlameBox *box;

  if (self->layout == NULL || tv_flame_layout_get_tree (self->layout) != self->tree)
    return;
  box = tv_flame_layout_hit_test (self->layout, x, y);
  if (box == NULL || (box->flags & TV_FLAME_BOX_MERGED) || box->node == TV_ROOT_NODE)
    return;
  tv_flame_graph_set_selected (self, box->node);
  gtk_popover_set_pointing_to (self->context_menu, &(GdkRectangle) { x, y, 1, 1 });
  gtk_popover_popup (self->context_menu);
}

gboolean
tv_flame_graph_zoom_scroll (TvFlameGraph *self,
                            double        x,
                            double        dy)
{
  double width = gtk_widget_get_width (GTK_WIDGET (self));
  double total, span, at, new_span;
  Zoom zoom;

  g_return_val_if_fail (TV_IS_FLAME_GRAPH (self), FALSE);

  if (self->tree == NULL || dy == 0)
    return FALSE;

  /* The range around X shrinks or grows; no history for every notch. */
  tv_flame_graph_stop_animation (self);
  total = tv_flame_graph_node_total (self, self->zoom.root);
  span = self->zoom.x1 - self->zoom.x0;
  at = self->zoom.x0 + span * CLAMP (x / MAX (width, 1), 0, 1);
  new_span = CLAMP (span * (dy < 0 ? 0.8 : 1.25), MIN (total, 1.0), total);
  zoom = self->zoom;
  zoom.x0 = at - (at - self->zoom.x0) * (new_span / span);
  zoom.x0 = CLAMP (zoom.x0, 0, total - new_span);
  zoom.x1 = zoom.x0 + new_span;
  tv_flame_graph_set_zoom (self, &zoom, FALSE);
  return TRUE;
}

/* Scrolls the rows to SCROLL pixels away from the root. */
static void
set_scroll (TvFlameGraph *self,
            double        scroll)
{
  scroll = CLAMP (scroll, 0, tv_flame_graph_max_scroll (self));
  if (scroll == self->scroll_y)
    return;
  self->scroll_y = scroll;
  tv_flame_graph_relayout (self);
}

void
tv_flame_graph_on_vadjustment_value (GtkAdjustment *adjustment,
                                     TvFlameGraph  *self)
{
  double above = gtk_adjustment_get_value (adjustment);

  if (self->syncing_adjustment)
    return;
  set_scroll (self,
              self->orientation == TV_FLAME_ORIENTATION_FLAME
              ? tv_flame_graph_max_scroll (self) - above : above);
}

gboolean
tv_flame_graph_on_scroll (GtkEventControllerScroll *controller,
                          double                    dx,
                          double                    dy,
                          TvFlameGraph             *self)
{
  GdkModifierType state = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (controller));

  if (self->tree == NULL)
    return FALSE;

  if (state & GDK_CONTROL_MASK)
    return tv_flame_graph_zoom_scroll (self, self->pointer_x, dy);

  if (dx != 0 && self->zoom.x1 - self->zoom.x0 < tv_flame_graph_node_total (self, self->zoom.root))
    {
      double total = tv_flame_graph_node_total (self, self->zoom.root);
      double span = self->zoom.x1 - self->zoom.x0;
      Zoom zoom = self->zoom;

      zoom.x0 = CLAMP (zoom.x0 + dx * span / 10, 0, total - span);
      zoom.x1 = zoom.x0 + span;
      tv_flame_graph_set_zoom (self, &zoom, FALSE);
    }
  if (dy != 0)
    {
      /* Scrolling down moves towards the root: down the screen in a flame
       * graph's, which has it at the bottom. */
      double step = dy * SCROLL_ROWS * ROW_HEIGHT;
      double scroll = self->orientation == TV_FLAME_ORIENTATION_FLAME ? self->scroll_y - step
                                                                       : self->scroll_y + step;

      set_scroll (self, scroll);
    }
  return TRUE;
}

static void
move_selection (TvFlameGraph     *self,
                TvFlameDirection  direction)
{
  guint32 from = self->style.selected;
  guint32 to;

  if (self->tree == NULL)
    return;
  if (from == TV_NODE_NONE)
    {
      tv_flame_graph_set_selected (self, self->zoom.root);
      return;
    }
  to = tv_flame_navigate (self->tree, from, direction);
  if (to != TV_NODE_NONE)
    tv_flame_graph_set_selected (self, to);
}

gboolean
tv_flame_graph_on_key_pressed (GtkEventControllerKey *controller,
                               guint                  keyval,
                               guint                  keycode,
                               GdkModifierType        state,
                               TvFlameGraph          *self)
{
  gboolean flame = self->orientation == TV_FLAME_ORIENTATION_FLAME;

  if (state & (GDK_CONTROL_MASK | GDK_ALT_MASK))
    return FALSE;

  switch (keyval)
    {
    case GDK_KEY_Up:
    case GDK_KEY_KP_Up:
      move_selection (self, flame ? TV_FLAME_CHILD : TV_FLAME_PARENT);
      return TRUE;
    case GDK_KEY_Down:
    case GDK_KEY_KP_Down:
      move_selection (self, flame ? TV_FLAME_PARENT : TV_FLAME_CHILD);
      return TRUE;
    case GDK_KEY_Left:
    case GDK_KEY_KP_Left:
      move_selection (self, TV_FLAME_PREVIOUS_SIBLING);
      return TRUE;
    case GDK_KEY_Right:
    case GDK_KEY_KP_Right:
      move_selection (self, TV_FLAME_NEXT_SIBLING);
      return TRUE;
    case GDK_KEY_Return:
    case GDK_KEY_KP_Enter:
    case GDK_KEY_space:
      if (self->style.selected != TV_NODE_NONE)
        tv_flame_graph_zoom_to (self, self->style.selected);
      return TRUE;
    case GDK_KEY_Escape:
      if (self->context_menu != NULL && gtk_widget_get_visible (GTK_WIDGET (self->context_menu)))
        return FALSE;
      tv_flame_graph_zoom_to_root (self);
      return TRUE;
    case GDK_KEY_BackSpace:
      tv_flame_graph_go (self, TV_ZOOM_BACK);
      return TRUE;
    default:
      return FALSE;
    }
}

/* ------------------------------------------------------------------------ */
/* Actions                                                                   */
/* ------------------------------------------------------------------------ */

/* Whether a box, not the root, is selected. */
static gboolean
has_selected_box (TvFlameGraph *self)
{
  return self->tree != NULL && self->style.selected != TV_NODE_NONE
         && self->style.selected != TV_ROOT_NODE;
}

static guint32
selected_function (TvFlameGraph *self)
{
  if (!has_selected_box (self))
    return TV_NODE_NONE;
  return tv_call_tree_get_function (self->tree, self->style.selected);
}

static void
history_action (GtkWidget  *widget,
                const char *action_name,
                GVariant   *parameter)
{
  tv_flame_graph_go (TV_FLAME_GRAPH (widget),
                     g_str_equal (action_name, "flame.back") ? TV_ZOOM_BACK : TV_ZOOM_FORWARD);
}

static void
reset_action (GtkWidget  *widget,
              const char *action_name,
              GVariant   *parameter)
{
  tv_flame_graph_zoom_to_root (TV_FLAME_GRAPH (widget));
}

static void
zoom_in_action (GtkWidget  *widget,
                const char *action_name,
                GVariant   *parameter)
{
  TvFlameGraph *self = TV_FLAME_GRAPH (widget);

  if (self->tree != NULL && self->style.selected != TV_NODE_NONE)
    tv_flame_graph_zoom_to (self, self->style.selected);
}

static void
focus_function_action (GtkWidget  *widget,
                       const char *action_name,
                       GVariant   *parameter)
{
  TvFlameGraph *self = TV_FLAME_GRAPH (widget);
  guint32 function = selected_function (self);

  if (function != TV_NODE_NONE && self->view_state != NULL)
    tv_view_state_set_focus_function (self->view_state, function);
}

static void
hide_function_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *parameter)
{
  TvFlameGraph *self = TV_FLAME_GRAPH (widget);
  guint32 function = selected_function (self);

  if (function != TV_NODE_NONE && self->view_state != NULL)
    tv_view_state_hide_function (self->view_state, function);
}

static void
collapse_recursion_action (GtkWidget  *widget,
                           const char *action_name,
                           GVariant   *parameter)
{
  TvFlameGraph *self = TV_FLAME_GRAPH (widget);

  if (self->view_state != NULL)
    tv_view_state_set_collapse_recursion (self->view_state,
                                          !tv_view_state_get_collapse_recursion (self->view_state));
}

static void
copy_name_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  TvFlameGraph *self = TV_FLAME_GRAPH (widget);
  TvProfileData *data;

  if (!has_selected_box (self))
    return;
  data = tv_call_tree_get_data (self->tree);
  gdk_clipboard_set_text (gtk_widget_get_clipboard (widget),
                          tv_profile_data_get_funcname (data,
                                                        tv_call_tree_get_frame (self->tree,
                                                                                self->style.selected)));
}

static void
copy_stack_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  TvFlameGraph *self = TV_FLAME_GRAPH (widget);
  g_autoptr(GString) text = g_string_new (NULL);
  TvProfileData *data;

  if (!has_selected_box (self))
    return;
  data = tv_call_tree_get_data (self->tree);
  /* Innermost first, as Python prints a traceback's frames reversed. */
  for (guint32 node = self->style.selected;
       node != TV_ROOT_NODE && node != TV_NODE_NONE;
       node = tv_call_tree_get_parent (self->tree, node))
    {
      guint32 frame = tv_call_tree_get_frame (self->tree, node);

      g_string_append (text, tv_profile_data_get_funcname (data, frame));
      g_string_append (text, " (");
      tv_flame_graph_append_location (text, data, frame, TRUE);
      g_string_append (text, ")\n");
    }
  gdk_clipboard_set_text (gtk_widget_get_clipboard (widget), text->str);
}

void
tv_flame_graph_install_actions (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "flame.back", NULL, history_action);
  gtk_widget_class_install_action (widget_class, "flame.forward", NULL, history_action);
  gtk_widget_class_install_action (widget_class, "flame.reset", NULL, reset_action);
  gtk_widget_class_install_action (widget_class, "flame.zoom-in", NULL, zoom_in_action);
  gtk_widget_class_install_action (widget_class, "flame.focus-function", NULL,
                                   focus_function_action);
  gtk_widget_class_install_action (widget_class, "flame.hide-function", NULL,
                                   hide_function_action);
  gtk_widget_class_install_action (widget_class, "flame.collapse-recursion", NULL,
                                   collapse_recursion_action);
  gtk_widget_class_install_action (widget_class, "flame.copy-name", NULL, copy_name_action);
  gtk_widget_class_install_action (widget_class, "flame.copy-stack", NULL, copy_stack_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Left, GDK_ALT_MASK,
                                       "flame.back", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Right, GDK_ALT_MASK,
                                       "flame.forward", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_c, GDK_CONTROL_MASK,
                                       "flame.copy-name", NULL);
}

void
tv_flame_graph_update_selection_actions (TvFlameGraph *self)
{
  gboolean frame = selected_function (self) != TV_NODE_NONE;

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "flame.zoom-in",
                                 self->style.selected != TV_NODE_NONE);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "flame.focus-function",
                                 frame && self->view_state != NULL);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "flame.hide-function",
                                 frame && self->view_state != NULL);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "flame.copy-name", frame);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "flame.copy-stack", frame);
}

