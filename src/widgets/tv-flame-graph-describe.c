/* tv-flame-graph-describe.c: what the flame graph says of a frame: its tooltip and description
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib/gi18n.h>

#include "tv-flame-graph-private.h"

#include "tv-text.h"
#include "tv-units.h"

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
void
tv_flame_graph_append_location (GString         *text,
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
      /* Children the tree left out count as frames too: zoomed in, the
       * view asks for a tree that has them. */
      guint n = box->n_merged + ((box->flags & TV_FLAME_BOX_REMAINDER)
                                 ? tv_call_tree_get_remainder_children (tree, node) : 0);

      total = format_samples (tree, box->samples);
      total_share = tv_format_share (box->samples, all);
      g_string_append_printf (text,
                              g_dngettext (GETTEXT_PACKAGE,
                                           "%u frame too narrow to show",
                                           "%u frames too narrow to show", n),
                              n);
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
  tv_flame_graph_append_location (text, data, frame, FALSE);
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

gboolean
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

