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
 * SYNC_LAYOUT_US, the next is made on a worker, with a cancellable and a
 * generation number, so that a stale layout never replaces a newer one;
 * the old one stays on screen meanwhile.  Animation frames always lay out
 * at once.
 */
#include <math.h>

#include <glib/gi18n.h>

#include "tv-flame-graph.h"

#include "tv-popup-tooltips.h"
#include "tv-text.h"
#include "tv-units.h"

#define ROW_HEIGHT      18.0
#define SYNC_LAYOUT_US  4000
#define ZOOM_MS         250
#define SCROLL_ROWS     3.0

typedef struct
{
  guint32 root;
  double  x0;
  double  x1;
} Zoom;

struct _TvFlameGraph
{
  GtkWidget           parent_instance;

  TvCallTree         *tree;
  TvViewState        *view_state;
  TvFlameMatches     *matches;
  TvFlameOrientation  orientation;
  TvFlameStyle        style;
  TvFlameRenderer    *renderer;

  /* Where the view is, and where it was (back) or went (forward). */
  Zoom                zoom;
  GArray             *back;
  GArray             *forward;
  double              scroll_y;

  /* The animation: in the coordinates of anim_root, from a to b. */
  AdwAnimation       *animation;
  gboolean            animating;
  guint32             anim_root;
  double              anim_from[2];
  double              anim_to[2];
  double              anim_x[2];
  Zoom                anim_target;

  TvFlameLayout      *layout;
  gint64              last_layout_us;
  gint64              sync_layout_us;
  guint               generation;
  GCancellable       *layout_cancellable;
  GskRenderNode      *frames_node;
  int                 frames_width;
  int                 frames_height;

  const TvFlameBox   *hovered;       /* points into layout */
  guint32             hovered_node;  /* its node, TV_NODE_NONE for a merged box */
  guint32             linked;        /* a node highlighted from elsewhere */
  TvDiff             *diff;
  double              pointer_x;
  double              pointer_y;
  GtkPopover         *context_menu;

  /* The rows' scrollbar, over the right edge, shown while the frames are
   * higher than the widget: its value is the pixels above the view. */
  GtkWidget          *scrollbar;
  GtkAdjustment      *vadjustment;
  gboolean            syncing_adjustment;
};

G_DEFINE_FINAL_TYPE (TvFlameGraph, tv_flame_graph, GTK_TYPE_WIDGET)

enum
{
  PROP_0,
  PROP_TREE,
  PROP_VIEW_STATE,
  PROP_ORIENTATION,
  PROP_COLOR_SCHEME,
  PROP_ZOOM_ROOT,
  PROP_SELECTED,
  PROP_CAN_GO_BACK,
  PROP_CAN_GO_FORWARD,
  PROP_HOVERED_NODE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void relayout (TvFlameGraph *self);

/* ------------------------------------------------------------------------ */
/* Small helpers                                                             */
/* ------------------------------------------------------------------------ */

static double
node_total (TvFlameGraph *self,
            guint32       node)
{
  return (double) tv_call_tree_get_total (self->tree, node);
}

static guint32
common_ancestor (TvCallTree *tree,
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

static void
update_history_actions (TvFlameGraph *self)
{
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "flame.back", self->back->len > 0);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "flame.forward", self->forward->len > 0);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "flame.reset",
                                 self->tree != NULL
                                 && (self->zoom.root != TV_ROOT_NODE || self->zoom.x0 != 0
                                     || self->zoom.x1 != node_total (self, TV_ROOT_NODE)));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CAN_GO_BACK]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CAN_GO_FORWARD]);
}

/* ------------------------------------------------------------------------ */
/* Layout                                                                    */
/* ------------------------------------------------------------------------ */

static double max_scroll (TvFlameGraph *self);

/* The scrollbar says how much is above and below what is shown. */
static void
sync_scrollbar (TvFlameGraph *self)
{
  double height = gtk_widget_get_height (GTK_WIDGET (self));
  double content = self->layout != NULL
                   ? tv_flame_layout_get_content_rows (self->layout) * ROW_HEIGHT : 0;
  double above;

  if (self->orientation == TV_FLAME_ORIENTATION_FLAME)
    above = max_scroll (self) - self->scroll_y;
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

static void
layout_thread (GTask        *task,
               gpointer      source_object,
               gpointer      task_data,
               GCancellable *cancellable)
{
  TvFlameViewport *viewport = task_data;
  TvCallTree *tree = g_object_get_data (G_OBJECT (task), "tree");
  TvFlameLayout *layout = tv_flame_layout_new (tree, viewport, cancellable);

  if (layout == NULL)
    g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CANCELLED, "cancelled");
  else
    g_task_return_pointer (task, layout, (GDestroyNotify) tv_flame_layout_unref);
}

static void
layout_done (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  TvFlameGraph *self = TV_FLAME_GRAPH (object);
  guint generation = GPOINTER_TO_UINT (user_data);
  gint64 started = GPOINTER_TO_SIZE (g_object_get_data (G_OBJECT (result), "started"));
  TvFlameLayout *layout = g_task_propagate_pointer (G_TASK (result), NULL);

  if (layout == NULL)
    return;
  /* A newer layout was asked for meanwhile: this one is stale. */
  if (generation != self->generation)
    {
      tv_flame_layout_unref (layout);
      return;
    }
  g_clear_object (&self->layout_cancellable);
  self->last_layout_us = g_get_monotonic_time () - started;
  set_layout (self, layout);
}

static void
relayout (TvFlameGraph *self)
{
  TvFlameViewport viewport;
  gint64 start;

  self->generation++;
  g_cancellable_cancel (self->layout_cancellable);
  g_clear_object (&self->layout_cancellable);

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
      g_autoptr(GTask) task = NULL;

      self->layout_cancellable = g_cancellable_new ();
      task = g_task_new (self, self->layout_cancellable, layout_done,
                         GUINT_TO_POINTER (self->generation));
      g_task_set_source_tag (task, relayout);
      g_task_set_task_data (task, g_memdup2 (&viewport, sizeof viewport), g_free);
      g_object_set_data_full (G_OBJECT (task), "tree", tv_call_tree_ref (self->tree),
                              (GDestroyNotify) tv_call_tree_unref);
      g_object_set_data (G_OBJECT (task), "started",
                         GSIZE_TO_POINTER ((gsize) g_get_monotonic_time ()));
      g_task_run_in_thread (task, layout_thread);
    }
}

static double
max_scroll (TvFlameGraph *self)
{
  double content;

  if (self->layout == NULL)
    return 0;
  content = tv_flame_layout_get_content_rows (self->layout) * ROW_HEIGHT;
  return MAX (0, content - gtk_widget_get_height (GTK_WIDGET (self)));
}

/* ------------------------------------------------------------------------ */
/* Zoom                                                                      */
/* ------------------------------------------------------------------------ */

static void
on_animation_value (double   value,
                    gpointer user_data)
{
  TvFlameGraph *self = user_data;

  self->anim_x[0] = self->anim_from[0] + (self->anim_to[0] - self->anim_from[0]) * value;
  self->anim_x[1] = self->anim_from[1] + (self->anim_to[1] - self->anim_from[1]) * value;
  relayout (self);
}

static void
on_animation_done (TvFlameGraph *self)
{
  /* The animation object stays until the next one: this runs inside its
   * own signal emission. */
  self->animating = FALSE;
  relayout (self);
}

static void
stop_animation (TvFlameGraph *self)
{
  if (self->animating)
    adw_animation_skip (self->animation);
  g_assert (!self->animating);
}

static void
set_zoom (TvFlameGraph *self,
          const Zoom   *zoom,
          gboolean      animate)
{
  Zoom from = self->zoom;
  guint64 from_start = 0, to_start = 0;
  guint32 common;

  /* A zoom during a zoom starts from where the first was going. */
  stop_animation (self);

  self->zoom = *zoom;
  self->scroll_y = 0;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ZOOM_ROOT]);
  update_history_actions (self);

  if (!animate || !gtk_widget_get_mapped (GTK_WIDGET (self)))
    {
      relayout (self);
      return;
    }

  common = common_ancestor (self->tree, from.root, zoom->root);
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
  g_array_append_val (self->back, self->zoom);
  g_array_set_size (self->forward, 0);
  set_zoom (self, zoom, TRUE);
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
  zoom.x1 = node_total (self, node);
  push_zoom (self, &zoom);
}

static void
zoom_to_box (TvFlameGraph     *self,
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
      zoom.x1 = MIN (zoom.x1, node_total (self, box->node));
      push_zoom (self, &zoom);
    }
  else
    tv_flame_graph_zoom_to (self, box->node);
}

static void
go_back (TvFlameGraph *self)
{
  Zoom zoom;

  if (self->back->len == 0)
    return;
  zoom = g_array_index (self->back, Zoom, self->back->len - 1);
  g_array_set_size (self->back, self->back->len - 1);
  g_array_append_val (self->forward, self->zoom);
  set_zoom (self, &zoom, TRUE);
}

static void
go_forward (TvFlameGraph *self)
{
  Zoom zoom;

  if (self->forward->len == 0)
    return;
  zoom = g_array_index (self->forward, Zoom, self->forward->len - 1);
  g_array_set_size (self->forward, self->forward->len - 1);
  g_array_append_val (self->back, self->zoom);
  set_zoom (self, &zoom, TRUE);
}

static void
reset_zoom (TvFlameGraph *self)
{
  if (self->tree == NULL)
    return;
  tv_flame_graph_zoom_to (self, TV_ROOT_NODE);
}

/* ------------------------------------------------------------------------ */
/* Describing a frame                                                        */
/* ------------------------------------------------------------------------ */

/* "1,234 samples, 2.42 s of thread time". */
static char *
format_samples (TvCallTree *tree,
                guint64     samples)
{
  g_autofree char *count = tv_format_count (samples);
  g_autofree char *seconds = tv_format_thread_time (tv_call_tree_samples_to_seconds (tree, samples,
                                                                                     NULL));

  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s sample, %s", "%s samples, %s",
                                       samples > G_MAXULONG ? G_MAXULONG : (gulong) samples),
                          count, seconds);
}

/* The frame's file and line span; its file's name shown as names are, or
 * whole (visible, but not cut) when WHOLE, for what is copied. */
static void
append_location (GString         *text,
                 TvProfileData   *data,
                 guint32          frame,
                 gboolean         whole)
{
  TvFrameLocation f;

  tv_text_append_visible (text, tv_profile_data_get_filename (data, frame), -1,
                          whole ? 0 : TV_TEXT_SHOWN_CHARS);
  if (!tv_profile_data_get_frame_location (data, frame, &f) || f.line < 0)
    return;
  g_string_append_printf (text, ":%d", f.line);
  if (f.end_line >= 0 && f.end_line != f.line)
    g_string_append_printf (text, "–%d", f.end_line);
  if (f.column >= 0)
    {
      /* Translators: a column span in a source location. */
      g_string_append_printf (text, _(", columns %d–%d"), f.column,
                              f.end_column >= 0 ? f.end_column : f.column);
    }
}

/* BOX is one of LAYOUT's: its nodes are those of the layout's tree, which
 * is not the widget's while a new layout is being made. */
static char *
describe_box (TvFlameLayout    *layout,
              const TvFlameBox *box)
{
  TvCallTree *tree = tv_flame_layout_get_tree (layout);
  TvProfileData *data = tv_call_tree_get_data (tree);
  guint64 all = tv_call_tree_get_n_samples (tree);
  g_autoptr(GString) text = g_string_new (NULL);
  g_autofree char *total = NULL;
  g_autofree char *self_text = NULL;
  g_autofree char *total_share = NULL;
  g_autofree char *self_share = NULL;
  guint32 node = box->node;
  guint32 parent;
  guint32 frame;
  TvFrameLocation f;

  if (box->flags & TV_FLAME_BOX_MERGED)
    {
      total = format_samples (tree, box->samples);
      total_share = tv_format_share (box->samples, all);
      g_string_append_printf (text,
                              g_dngettext (GETTEXT_PACKAGE,
                                           "%u frame too narrow to show",
                                           "%u frames too narrow to show", box->n_merged),
                              box->n_merged);
      g_string_append_c (text, '\n');
      g_string_append_printf (text, _("Total: %s (%s of all)"), total, total_share);
      g_string_append_c (text, '\n');
      g_string_append (text, _("Click to zoom into them"));
      return g_string_free (g_steal_pointer (&text), FALSE);
    }

  total = format_samples (tree, tv_call_tree_get_total (tree, node));
  self_text = format_samples (tree, tv_call_tree_get_self (tree, node));
  if (node == TV_ROOT_NODE)
    {
      g_string_append (text, _("All samples"));
      g_string_append_c (text, '\n');
      g_string_append_printf (text, _("Total: %s"), total);
      return g_string_free (g_steal_pointer (&text), FALSE);
    }

  frame = tv_call_tree_get_frame (tree, node);
  tv_profile_data_get_frame_location (data, frame, &f);
  tv_text_append_shown (text, tv_profile_data_get_funcname (data, frame), -1);
  g_string_append_c (text, '\n');
  append_location (text, data, frame, FALSE);
  g_string_append_c (text, '\n');
  total_share = tv_format_share (tv_call_tree_get_total (tree, node), all);
  self_share = tv_format_share (tv_call_tree_get_self (tree, node), all);
  g_string_append_printf (text, _("Total: %s (%s of all)"), total, total_share);
  g_string_append_c (text, '\n');
  g_string_append_printf (text, _("Self: %s (%s of all)"), self_text, self_share);
  parent = tv_call_tree_get_parent (tree, node);
  if (parent != TV_NODE_NONE)
    {
      g_autofree char *of_parent = tv_format_share (tv_call_tree_get_total (tree, node),
                                                    tv_call_tree_get_total (tree, parent));

      g_string_append_c (text, '\n');
      g_string_append_printf (text, _("%s of its parent"), of_parent);
    }
  if (tv_call_tree_has_thread_counts (tree))
    {
      guint32 n_threads = tv_call_tree_get_n_threads_of (tree, node);

      g_string_append_c (text, '\n');
      g_string_append_printf (text, g_dngettext (GETTEXT_PACKAGE, "Run by %u thread",
                                                 "Run by %u threads", n_threads),
                              n_threads);
    }
  if (f.opcode != TV_OPCODE_NONE && tv_call_tree_get_merge (tree) != TV_MERGE_FUNCTION
      && tv_call_tree_get_merge (tree) != TV_MERGE_LINE)
    {
      g_string_append_c (text, '\n');
      g_string_append_printf (text, _("Opcode: %u"), f.opcode);
    }
  return g_string_free (g_steal_pointer (&text), FALSE);
}

static void
append_diff_measure (GString             *text,
                     TvDiff              *diff,
                     const char          *what,
                     const TvDiffMeasure *m)
{
  g_autofree char *before = tv_diff_format_value (diff, m->base_value, FALSE);
  g_autofree char *after = tv_diff_format_value (diff, m->new_value, FALSE);
  g_autofree char *delta = tv_diff_format_value (diff, m->delta, TRUE);

  g_string_append_c (text, '\n');
  /* Translators: "Total: 1.2 s → 1.5 s, +0.3 s (+25.0 %)"; the first %s
   * is "Total" or "Self". */
  if (isinf (m->relative))
    g_string_append_printf (text, _("%s: %s → %s, %s (new)"), what, before, after, delta);
  else
    {
      g_autofree char *relative = tv_format_fraction_signed (m->relative);

      g_string_append_printf (text, _("%s: %s → %s, %s (%s)"), what, before, after, delta,
                              relative);
    }
}

/* What the comparison says of NODE: both sides, the change, and the
 * test behind its colour: of the self samples when the colours show
 * those (MODE), else of the total. */
static void
append_diff (GString         *text,
             TvDiff          *diff,
             TvDiffSide       side,
             TvFlameDiffMode  mode,
             guint32          node)
{
  TvDiffOptions options;
  TvDiffNode out;
  const TvDiffMeasure *tested;
  const char *method;
  g_autofree char *p = NULL;

  tv_diff_get_node (diff, side, node, &out);
  tv_diff_get_options (diff, &options);
  g_string_append_c (text, '\n');
  if (out.base_node == TV_NODE_NONE)
    g_string_append (text, _("Not in the base profile: this stack appeared"));
  else if (out.new_node == TV_NODE_NONE)
    g_string_append (text, _("Not in the new profile: this stack vanished"));
  else if (options.normalization == TV_DIFF_BY_TIME)
    g_string_append (text, _("Base → new, in thread time:"));
  else
    g_string_append (text, _("Base → new, in shares of the samples:"));
  append_diff_measure (text, diff, _("Total"), &out.total);
  append_diff_measure (text, diff, _("Self"), &out.self);
  method = options.normalization == TV_DIFF_BY_SHARE
           ? _("exact binomial test of the share of samples")
           : _("exact binomial test of the two sample rates");
  tested = mode == TV_FLAME_DIFF_SELF ? &out.self : &out.total;
  /* Below what a double holds near 0, the test gives 0: "p = 0" would
   * claim a certainty no test has. */
  p = tested->p_value < 1e-300 ? g_strdup ("p < 1e-300")
                               : g_strdup_printf ("p = %.2g", tested->p_value);
  g_string_append_c (text, '\n');
  if (tested->significant)
    /* Translators: the last %s is "p = 0.0012" or "p < 1e-300". */
    g_string_append_printf (text, mode == TV_FLAME_DIFF_SELF
                                  ? _("Self changed beyond noise: %s, %s (%.0f %% confidence)")
                                  : _("Total changed beyond noise: %s, %s (%.0f %% confidence)"),
                            method, p, options.confidence * 100.0);
  else
    g_string_append_printf (text, mode == TV_FLAME_DIFF_SELF
                                  ? _("Self within sampling noise: %s, %s")
                                  : _("Total within sampling noise: %s, %s"),
                            method, p);
}

char *
tv_flame_graph_describe_at (TvFlameGraph *self,
                            double        x,
                            double        y)
{
  const TvFlameBox *box;
  TvCallTree *tree;
  char *text;

  g_return_val_if_fail (TV_IS_FLAME_GRAPH (self), NULL);

  if (self->layout == NULL)
    return NULL;
  box = tv_flame_layout_hit_test (self->layout, x, y);
  if (box == NULL)
    return NULL;
  text = describe_box (self->layout, box);
  tree = tv_flame_layout_get_tree (self->layout);
  if (self->diff != NULL && !(box->flags & TV_FLAME_BOX_MERGED)
      && tv_diff_get_tree (self->diff, self->style.diff_side) == tree)
    {
      GString *more = g_string_new (text);

      g_free (text);
      append_diff (more, self->diff, self->style.diff_side, self->style.diff_mode, box->node);
      text = g_string_free (more, FALSE);
    }
  return text;
}

static gboolean
tv_flame_graph_query_tooltip (GtkWidget  *widget,
                              int         x,
                              int         y,
                              gboolean    keyboard_tooltip,
                              GtkTooltip *tooltip)
{
  TvFlameGraph *self = TV_FLAME_GRAPH (widget);
  g_autofree char *text = NULL;

  if (keyboard_tooltip)
    return FALSE;
  text = tv_flame_graph_describe_at (self, x, y);
  if (text == NULL)
    return FALSE;
  /* Plain text: names from the profile are never markup. */
  gtk_tooltip_set_text (tooltip, text);
  return TRUE;
}

/* ------------------------------------------------------------------------ */
/* Drawing                                                                   */
/* ------------------------------------------------------------------------ */

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

static void
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

static void
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
    relayout (self);
  /* After the layout, which may have shown the scrollbar. */
  gtk_widget_measure (self->scrollbar, GTK_ORIENTATION_HORIZONTAL, -1, &bar_width, NULL,
                      NULL, NULL);
  gtk_widget_size_allocate (self->scrollbar,
                            &(GtkAllocation) { MAX (width - bar_width, 0), 0, bar_width, height },
                            -1);
}

static void
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

/* ------------------------------------------------------------------------ */
/* Input                                                                     */
/* ------------------------------------------------------------------------ */

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
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_HOVERED_NODE]);
    }
}

static void
on_motion (GtkEventControllerMotion *motion,
           double                    x,
           double                    y,
           TvFlameGraph             *self)
{
  self->pointer_x = x;
  self->pointer_y = y;
  set_hovered (self, self->layout != NULL ? tv_flame_layout_hit_test (self->layout, x, y) : NULL);
}

static void
on_leave (GtkEventControllerMotion *motion,
          TvFlameGraph             *self)
{
  set_hovered (self, NULL);
}

static void
on_click (GtkGestureClick *gesture,
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
  zoom_to_box (self, box);
}

static void
on_secondary_click (GtkGestureClick *gesture,
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
  stop_animation (self);
  total = node_total (self, self->zoom.root);
  span = self->zoom.x1 - self->zoom.x0;
  at = self->zoom.x0 + span * CLAMP (x / MAX (width, 1), 0, 1);
  new_span = CLAMP (span * (dy < 0 ? 0.8 : 1.25), MIN (total, 1.0), total);
  zoom = self->zoom;
  zoom.x0 = at - (at - self->zoom.x0) * (new_span / span);
  zoom.x0 = CLAMP (zoom.x0, 0, total - new_span);
  zoom.x1 = zoom.x0 + new_span;
  set_zoom (self, &zoom, FALSE);
  return TRUE;
}

/* Scrolls the rows to SCROLL pixels away from the root. */
static void
set_scroll (TvFlameGraph *self,
            double        scroll)
{
  scroll = CLAMP (scroll, 0, max_scroll (self));
  if (scroll == self->scroll_y)
    return;
  self->scroll_y = scroll;
  relayout (self);
}

static void
on_vadjustment_value (GtkAdjustment *adjustment,
                      TvFlameGraph  *self)
{
  double above = gtk_adjustment_get_value (adjustment);

  if (self->syncing_adjustment)
    return;
  set_scroll (self, self->orientation == TV_FLAME_ORIENTATION_FLAME ? max_scroll (self) - above
                                                                    : above);
}

static gboolean
on_scroll (GtkEventControllerScroll *controller,
           double                    dx,
           double                    dy,
           TvFlameGraph             *self)
{
  GdkModifierType state = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (controller));

  if (self->tree == NULL)
    return FALSE;

  if (state & GDK_CONTROL_MASK)
    return tv_flame_graph_zoom_scroll (self, self->pointer_x, dy);

  if (dx != 0 && self->zoom.x1 - self->zoom.x0 < node_total (self, self->zoom.root))
    {
      double total = node_total (self, self->zoom.root);
      double span = self->zoom.x1 - self->zoom.x0;
      Zoom zoom = self->zoom;

      zoom.x0 = CLAMP (zoom.x0 + dx * span / 10, 0, total - span);
      zoom.x1 = zoom.x0 + span;
      set_zoom (self, &zoom, FALSE);
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

static gboolean
on_key_pressed (GtkEventControllerKey *controller,
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
      reset_zoom (self);
      return TRUE;
    case GDK_KEY_BackSpace:
      go_back (self);
      return TRUE;
    default:
      return FALSE;
    }
}

/* ------------------------------------------------------------------------ */
/* Actions                                                                   */
/* ------------------------------------------------------------------------ */

static guint32
selected_function (TvFlameGraph *self)
{
  if (self->tree == NULL || self->style.selected == TV_NODE_NONE
      || self->style.selected == TV_ROOT_NODE)
    return TV_NODE_NONE;
  return tv_call_tree_get_function (self->tree, self->style.selected);
}

static void
back_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  go_back (TV_FLAME_GRAPH (widget));
}

static void
forward_action (GtkWidget  *widget,
                const char *action_name,
                GVariant   *parameter)
{
  go_forward (TV_FLAME_GRAPH (widget));
}

static void
reset_action (GtkWidget  *widget,
              const char *action_name,
              GVariant   *parameter)
{
  reset_zoom (TV_FLAME_GRAPH (widget));
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

  if (self->tree == NULL || self->style.selected == TV_NODE_NONE
      || self->style.selected == TV_ROOT_NODE)
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

  if (self->tree == NULL || self->style.selected == TV_NODE_NONE
      || self->style.selected == TV_ROOT_NODE)
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
      append_location (text, data, frame, TRUE);
      g_string_append (text, ")\n");
    }
  gdk_clipboard_set_text (gtk_widget_get_clipboard (widget), text->str);
}

static void
update_selection_actions (TvFlameGraph *self)
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

/* NODE's path of keys in OLD, followed in NEW as far as it goes. */
static guint32
map_node (TvCallTree *old,
          TvCallTree *new,
          guint32     node)
{
  g_autoptr(GArray) keys = g_array_new (FALSE, FALSE, sizeof (guint32));
  guint32 mapped = TV_ROOT_NODE;

  if (tv_call_tree_get_merge (old) != tv_call_tree_get_merge (new)
      || tv_call_tree_get_inverted (old) != tv_call_tree_get_inverted (new))
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
        break;
      mapped = child;
    }
  return mapped;
}

void
tv_flame_graph_set_tree (TvFlameGraph *self,
                         TvCallTree   *tree)
{
  Zoom zoom = { TV_ROOT_NODE, 0, 0 };
  guint32 selected = TV_NODE_NONE;

  g_return_if_fail (TV_IS_FLAME_GRAPH (self));

  if (self->tree == tree)
    return;

  stop_animation (self);

  if (self->tree != NULL && tree != NULL)
    {
      zoom.root = map_node (self->tree, tree, self->zoom.root);
      if (self->style.selected != TV_NODE_NONE)
        selected = map_node (self->tree, tree, self->style.selected);
    }
  g_clear_pointer (&self->matches, tv_flame_matches_unref);
  g_clear_pointer (&self->tree, tv_call_tree_unref);
  if (tree != NULL)
    {
      self->tree = tv_call_tree_ref (tree);
      zoom.x1 = node_total (self, zoom.root);
    }
  /* Node ids mean nothing in another tree. */
  g_array_set_size (self->back, 0);
  g_array_set_size (self->forward, 0);
  self->zoom = zoom;
  self->style.selected = selected;
  self->linked = TV_NODE_NONE;
  self->scroll_y = 0;
  self->last_layout_us = 0;
  relayout (self);
  update_history_actions (self);
  update_selection_actions (self);
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
      update_selection_actions (self);
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
  relayout (self);
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
          && self->zoom.x1 == node_total (self, TV_ROOT_NODE)))
    return FALSE;
  reset_zoom (self);
  return TRUE;
}

gboolean
tv_flame_graph_can_go_back (TvFlameGraph *self)
{
  g_return_val_if_fail (TV_IS_FLAME_GRAPH (self), FALSE);

  return self->back->len > 0;
}

gboolean
tv_flame_graph_can_go_forward (TvFlameGraph *self)
{
  g_return_val_if_fail (TV_IS_FLAME_GRAPH (self), FALSE);

  return self->forward->len > 0;
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

  return self->layout_cancellable != NULL;
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
  update_selection_actions (self);
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

  if (self->layout_cancellable != NULL)
    g_cancellable_cancel (self->layout_cancellable);
  g_clear_object (&self->layout_cancellable);
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
  g_clear_pointer (&self->back, g_array_unref);
  g_clear_pointer (&self->forward, g_array_unref);

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
      g_value_set_boolean (value, self->back->len > 0);
      break;
    case PROP_CAN_GO_FORWARD:
      g_value_set_boolean (value, self->forward->len > 0);
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

  gtk_widget_class_install_action (widget_class, "flame.back", NULL, back_action);
  gtk_widget_class_install_action (widget_class, "flame.forward", NULL, forward_action);
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

  self->back = g_array_new (FALSE, FALSE, sizeof (Zoom));
  self->forward = g_array_new (FALSE, FALSE, sizeof (Zoom));
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
  g_signal_connect (controller, "motion", G_CALLBACK (on_motion), self);
  g_signal_connect (controller, "leave", G_CALLBACK (on_leave), self);
  gtk_widget_add_controller (widget, controller);

  gesture = gtk_gesture_click_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (gesture), GDK_BUTTON_PRIMARY);
  g_signal_connect (gesture, "released", G_CALLBACK (on_click), self);
  gtk_widget_add_controller (widget, GTK_EVENT_CONTROLLER (gesture));

  gesture = gtk_gesture_click_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (gesture), GDK_BUTTON_SECONDARY);
  g_signal_connect (gesture, "pressed", G_CALLBACK (on_secondary_click), self);
  gtk_widget_add_controller (widget, GTK_EVENT_CONTROLLER (gesture));

  controller = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_BOTH_AXES);
  g_signal_connect (controller, "scroll", G_CALLBACK (on_scroll), self);
  gtk_widget_add_controller (widget, controller);

  controller = gtk_event_controller_key_new ();
  g_signal_connect (controller, "key-pressed", G_CALLBACK (on_key_pressed), self);
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
  g_signal_connect (self->vadjustment, "value-changed", G_CALLBACK (on_vadjustment_value), self);
  self->scrollbar = gtk_scrollbar_new (GTK_ORIENTATION_VERTICAL, self->vadjustment);
  gtk_widget_set_visible (self->scrollbar, FALSE);
  gtk_widget_set_parent (self->scrollbar, widget);

  g_signal_connect_swapped (adw_style_manager_get_default (), "notify::dark",
                            G_CALLBACK (on_dark_changed), self);

  update_history_actions (self);
  update_selection_actions (self);
}
