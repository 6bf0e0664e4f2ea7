/* tv-flame-renderer-colors.c: the colour of a flame graph's box: the
 * palette's module, heat, thread-state and change colours, and the frames'
 * modules they are chosen by
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tv-flame-renderer-private.h"

#include <math.h>

#include "tv-palette.h"

TvFlameColor
tv_flame_background_color (gboolean dark)
{
  return tv_palette_background (dark);
}

/* Thread state: the timeline's colours of holding the GIL, on CPU
 * without it, waiting for it and idle (or blocked), mixed by their
 * shares. */
static TvFlameColor
state_color (const guint64 *states,
             guint64        total,
             gboolean       dark)
{
  TvFlameColor running = tv_palette_state (TV_PALETTE_STATE_RUNNING, dark);
  TvFlameColor native = tv_palette_state (TV_PALETTE_STATE_NATIVE, dark);
  TvFlameColor waiting = tv_palette_state (TV_PALETTE_STATE_WAITING, dark);
  TvFlameColor idle = tv_palette_state (TV_PALETTE_STATE_IDLE, dark);
  TvFlameColor exception = tv_palette_state (TV_PALETTE_STATE_EXCEPTION, dark);
  TvFlameColor active;
  double g, c, w, e, sum;

  if (states == NULL || total == 0)
    return idle;
  /* An exception is shown whatever the thread did meanwhile, as the
   * timeline shows it: a frame always in one is the exception's colour,
   * not the grey of idle. */
  e = MIN ((double) states[TV_STATUS_COUNT_HAS_EXCEPTION] / total, 1.0);
  g = (double) states[TV_STATUS_COUNT_HAS_GIL] / total;
  w = (double) states[TV_STATUS_COUNT_GIL_REQUESTED] / total;
  /* CPython marks a thread that waits for the GIL as on CPU too: on CPU
   * without the GIL is what is left once holding and waiting are out
   * (the counts are per bit, so this is its lower bound). */
  c = MAX ((double) states[TV_STATUS_COUNT_ON_CPU] / total - g - w, 0.0);
  sum = g + c + w;
  if (sum <= 0)
    return tv_color_mix (idle, exception, e);
  active = (TvFlameColor) {
    (running.red * g + native.red * c + waiting.red * w) / sum,
    (running.green * g + native.green * c + waiting.green * w) / sum,
    (running.blue * g + native.blue * c + waiting.blue * w) / sum,
  };
  /* A frame busy a fifth of the time is told from an idle one: the
   * share is eased out. */
  return tv_color_mix (tv_color_mix (idle, active, pow (MIN (sum, 1.0), 0.6)), exception, e);
}

TvFlameColor
tv_flame_diff_color (TvDiffChange change,
                     double       relative,
                     gboolean     dark)
{
  int direction = change == TV_DIFF_SLOWER ? 1 : change == TV_DIFF_FASTER ? -1 : 0;

  return tv_palette_diff (direction, tv_palette_diff_strength (relative), dark);
}

/* Whether the style's comparison finds no change in NODE beyond noise. */
gboolean
tv_flame_renderer_diff_within_noise (const TvFlameStyle *style,
                                     TvCallTree         *tree,
                                     guint32             node)
{
  TvDiffNode out;
  const TvDiffMeasure *m;

  if (style->diff == NULL || tv_diff_get_tree (style->diff, style->diff_side) != tree
      || style->diff_mode == TV_FLAME_DIFF_UNMATCHED)
    return FALSE;
  tv_diff_get_node (style->diff, style->diff_side, node, &out);
  m = style->diff_mode == TV_FLAME_DIFF_SELF ? &out.self : &out.total;
  return m->change == TV_DIFF_NEUTRAL;
}

TvFlameColor
tv_flame_renderer_diff_fill (const TvFlameStyle *style,
                             TvCallTree         *tree,
                             guint32             node)
{
  TvDiffNode out;
  const TvDiffMeasure *m;

  /* A diff of other trees (one being replaced) says nothing of these nodes. */
  if (style->diff == NULL || tv_diff_get_tree (style->diff, style->diff_side) != tree)
    return tv_palette_neutral (style->dark);
  tv_diff_get_node (style->diff, style->diff_side, node, &out);
  if (style->diff_mode == TV_FLAME_DIFF_UNMATCHED)
    {
      /* The stacks only this side has, at full strength. */
      if (out.base_node != TV_NODE_NONE && out.new_node != TV_NODE_NONE)
        return tv_palette_neutral (style->dark);
      return tv_flame_diff_color (style->diff_side == TV_DIFF_SIDE_BASE ? TV_DIFF_FASTER
                                                                        : TV_DIFF_SLOWER,
                                  INFINITY, style->dark);
    }
  m = style->diff_mode == TV_FLAME_DIFF_SELF ? &out.self : &out.total;
  return tv_flame_diff_color (m->change, m->relative, style->dark);
}

/* ------------------------------------------------------------------------ */
/* The frames' modules                                                       */
/* ------------------------------------------------------------------------ */

void
tv_flame_renderer_clear_frame_cache (TvFlameRenderer *self)
{
  g_clear_pointer (&self->frame_data, tv_profile_data_unref);
  g_clear_pointer (&self->project_root, g_free);
  g_clear_pointer (&self->frame_kinds, g_free);
  g_clear_pointer (&self->frame_hashes, g_free);
  self->n_frames = 0;
}

/* The per-frame cache for DATA and the style's project root. */
void
tv_flame_renderer_ensure_frame_cache (TvFlameRenderer    *self,
                                      TvProfileData      *data,
                                      const TvFlameStyle *style)
{
  if (self->frame_data == data
      && (style->project_root == NULL ? self->guessed_root
          : !self->guessed_root && g_strcmp0 (self->project_root, style->project_root) == 0))
    return;

  tv_flame_renderer_clear_frame_cache (self);
  self->frame_data = tv_profile_data_ref (data);
  self->guessed_root = style->project_root == NULL;
  self->project_root = self->guessed_root ? tv_flame_guess_project_root (data)
                                          : g_strdup (style->project_root);
  self->n_frames = tv_profile_data_get_n_frames (data);
  self->frame_kinds = g_malloc (MAX (self->n_frames, 1));
  memset (self->frame_kinds, G_MAXUINT8, MAX (self->n_frames, 1));
  self->frame_hashes = g_new (guint32, MAX (self->n_frames, 1));
}

static guint8
frame_kind (TvFlameRenderer *self,
            guint32          frame,
            guint32         *hash)
{
  g_assert (frame < self->n_frames);
  if (self->frame_kinds[frame] == G_MAXUINT8)
    {
      const char *filename = tv_profile_data_get_filename (self->frame_data, frame);
      const char *funcname = tv_profile_data_get_funcname (self->frame_data, frame);
      TvFlameSynthetic synthetic = tv_flame_classify_synthetic (filename, funcname);

      /* CPython's <GC> and <native> frames are kinds past the modules'. */
      self->frame_kinds[frame] = synthetic != TV_FLAME_SYNTHETIC_NONE
                                 ? TV_FLAME_N_MODULE_KINDS + synthetic - 1
                                 : tv_flame_classify_file (filename, self->project_root);
      self->frame_hashes[frame] =
        tv_flame_function_hash (tv_profile_data_get_funcname (self->frame_data, frame));
    }
  *hash = self->frame_hashes[frame];
  return self->frame_kinds[frame];
}

static guint64
tree_max_self (TvFlameRenderer *self,
               TvCallTree      *tree)
{
  if (self->heat_tree != tree)
    {
      guint32 n_nodes = tv_call_tree_get_n_nodes (tree);

      g_clear_pointer (&self->heat_tree, tv_call_tree_unref);
      self->heat_tree = tv_call_tree_ref (tree);
      self->max_self = 0;
      for (guint32 n = 1; n < n_nodes; n++)
        self->max_self = MAX (self->max_self, tv_call_tree_get_self (tree, n));
    }
  return self->max_self;
}

/* The box's colour before search, hover and ancestry change it. */
static TvFlameColor
base_fill (TvFlameRenderer    *self,
           TvCallTree         *tree,
           const TvFlameBox   *box,
           const TvFlameStyle *style)
{
  guint32 node = box->node;

  if (box->flags & TV_FLAME_BOX_MERGED)
    return tv_palette_merged (style->dark);
  if (node == TV_ROOT_NODE)
    return tv_palette_neutral (style->dark);

  switch (style->scheme)
    {
    case TV_FLAME_COLORS_HEAT:
      {
        guint64 max_self = tree_max_self (self, tree);
        double t = max_self > 0 ? sqrt ((double) tv_call_tree_get_self (tree, node) / max_self)
                                : 0;

        return tv_palette_heat (t, style->dark);
      }

    case TV_FLAME_COLORS_THREAD_STATE:
      return state_color (tv_call_tree_get_status_counts (tree, node),
                          tv_call_tree_get_total (tree, node), style->dark);

    case TV_FLAME_COLORS_DIFF:
      /* Else the change is an outline (draw_diff_outlines()). */
      if (!style->diff_keeps_modules)
        return tv_flame_renderer_diff_fill (style, tree, node);
      G_GNUC_FALLTHROUGH;

    case TV_FLAME_COLORS_MODULE:
    default:
      {
        guint32 hash;
        guint8 kind = frame_kind (self, tv_call_tree_get_frame (tree, node), &hash);

        if (kind == TV_FLAME_N_MODULE_KINDS + TV_FLAME_SYNTHETIC_GC - 1)
          return tv_palette_gc (style->dark);
        if (kind == TV_FLAME_N_MODULE_KINDS + TV_FLAME_SYNTHETIC_NATIVE - 1)
          return tv_palette_native (style->dark);
        return tv_flame_function_color (kind, hash, style->dark);
      }
    }
}

/* Whether a search leaves BOX undimmed: a matching frame, or a merged box
 * that holds a match somewhere below. */
static gboolean
box_matches (TvFlameMatches   *matches,
             TvCallTree       *tree,
             const TvFlameBox *box)
{
  if (box->flags & TV_FLAME_BOX_MERGED)
    {
      guint n;
      const guint32 *children = tv_call_tree_get_children (tree, box->node, &n);

      for (guint i = box->first; i < box->first + box->n_merged && i < n; i++)
        if (tv_flame_matches_subtree_contains (matches, children[i]))
          return TRUE;
      return FALSE;
    }
  return tv_flame_matches_contains (matches, box->node);
}

/* The fill, and whether the box is dimmed (by a search or as an
 * ancestor of the zoom root). */
TvFlameColor
tv_flame_renderer_box_fill (TvFlameRenderer    *self,
                            TvCallTree         *tree,
                            const TvFlameBox   *box,
                            const TvFlameStyle *style,
                            gboolean           *dimmed)
{
  TvFlameColor fill = base_fill (self, tree, box, style);
  TvFlameColor background = tv_flame_background_color (style->dark);

  *dimmed = FALSE;
  if (style->matches != NULL && !box_matches (style->matches, tree, box))
    {
      fill = tv_color_mix (fill, background, TV_PALETTE_SEARCH_DIM);
      *dimmed = TRUE;
    }
  else if (box->flags & TV_FLAME_BOX_ANCESTOR)
    fill = tv_color_mix (fill, background, TV_PALETTE_ANCESTOR_DIM);
  return fill;
}

TvFlameColor
tv_flame_renderer_get_fill (TvFlameRenderer    *self,
                            TvFlameLayout      *layout,
                            const TvFlameBox   *box,
                            const TvFlameStyle *style)
{
  TvCallTree *tree;
  gboolean dimmed;

  g_return_val_if_fail (self != NULL, tv_flame_background_color (FALSE));
  g_return_val_if_fail (layout != NULL, tv_flame_background_color (FALSE));
  g_return_val_if_fail (box != NULL, tv_flame_background_color (FALSE));
  g_return_val_if_fail (style != NULL, tv_flame_background_color (FALSE));

  tree = tv_flame_layout_get_tree (layout);
  tv_flame_renderer_ensure_frame_cache (self, tv_call_tree_get_data (tree), style);
  return tv_flame_renderer_box_fill (self, tree, box, style, &dimmed);
}

