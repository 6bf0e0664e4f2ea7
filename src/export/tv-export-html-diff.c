/* tv-export-html-diff.c: the differential HTML page's data
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A differential page is the page of tv-export-html.c driven by a "diff"
 * object: NEW's tree of a TvDiff, each node with BASE's samples and the
 * test's verdict, the function table, the stacks that vanished from BASE,
 * both profiles' facts and the comparability warnings.
 */
#include "tv-export-html-private.h"
#include "tv-progress.h"

/* The vanished stacks a differential page lists, the most samples first. */
#define MAX_VANISHED    1000

/* A p-value, three digits: enough to read, and much shorter. */
static void
append_p_value (GString *out,
                double   p)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  if (!isfinite (p))
    p = 1;
  g_string_append (out, g_ascii_formatd (buf, sizeof buf, "%.3g", p));
  g_string_append_c (out, ',');
}

static int
change_sign (TvDiffChange change)
{
  return change == TV_DIFF_SLOWER ? 1 : change == TV_DIFF_FASTER ? -1 : 0;
}

/* Seven numbers a node, by export id: NEW's self samples, BASE's total
 * and self samples, the p-values of the total's and the self's change,
 * and their verdicts (1 slower, -1 faster, 0 neutral). */
static void
append_diff_nodes (Exporter *self,
                   GString  *out)
{
  json_key (out, "nodes");
  g_string_append_c (out, '[');
  for (guint32 id = 0; id < self->n_nodes; id++)
    {
      TvDiffNode node;

      /* Each node's test is most of the page's work: cancelled, the
       * page is dropped (see tv_export_html_build_diff()). */
      if (id % 4096 == 0)
        {
          if (g_cancellable_is_cancelled (self->cancellable))
            break;
          tv_progress_report (self->cancellable, 0.9 * id / self->n_nodes);
        }
      tv_diff_get_node (self->diff, TV_DIFF_SIDE_NEW, self->order[id], &node);
      g_string_append_printf (out, "%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT ",%"
                              G_GUINT64_FORMAT ",", node.self.new_samples,
                              node.total.base_samples, node.self.base_samples);
      append_p_value (out, node.total.p_value);
      append_p_value (out, node.self.p_value);
      g_string_append_printf (out, "%d,%d,", change_sign (node.total.change),
                              change_sign (node.self.change));
    }
  json_close (out, ']');
  g_string_append_c (out, ',');
}

/* Ten numbers a function, largest change first: its name and file
 * (strings), BASE's and NEW's total samples, BASE's and NEW's self
 * samples, the p-values of the total and the self, their verdicts. */
static void
append_diff_functions (Exporter *self,
                       GString  *out)
{
  const TvDiffFunction *rows;
  guint n_rows;

  rows = tv_diff_get_functions (self->diff, &n_rows);
  json_key (out, "functions");
  g_string_append_c (out, '[');
  for (guint i = 0; i < n_rows; i++)
    {
      const TvDiffFunction *row = &rows[i];
      guint32 side = row->new_function != TV_NODE_NONE ? 0 : 1;
      guint32 key = side == 0 ? row->new_function : row->base_function;
      TvProfileData *data = self->sides[side].data;
      guint32 frame = tv_profile_data_get_key_frame (data, TV_MERGE_FUNCTION, key);
      const TachFrame *f = tach_reader_get_frame (self->sides[side].reader, frame);

      g_string_append_printf (out, "%u,%u,%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT ",%"
                              G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT ",",
                              tv_export_html_map_string (self, side, f->funcname),
                              tv_export_html_map_string (self, side, f->filename),
                              row->total.base_samples, row->total.new_samples,
                              row->self.base_samples, row->self.new_samples);
      append_p_value (out, row->total.p_value);
      append_p_value (out, row->self.p_value);
      g_string_append_printf (out, "%d,%d,", change_sign (row->total.change),
                              change_sign (row->self.change));
    }
  json_close (out, ']');
  g_string_append_c (out, ',');
}

/* BASE's topmost nodes that NEW lacks, most samples first: each as its
 * samples, then its frames from the root down (NEW's frame where NEW has
 * the same key, BASE's otherwise). */
static void
append_diff_vanished (Exporter *self,
                      GString  *out)
{
  TvCallTree *base = tv_diff_get_tree (self->diff, TV_DIFF_SIDE_BASE);
  g_autoptr(GArray) path = g_array_new (FALSE, FALSE, sizeof (guint32));
  const guint32 *nodes;
  guint n_nodes;

  nodes = tv_diff_get_unmatched (self->diff, TV_DIFF_SIDE_BASE, &n_nodes);
  json_u64 (out, "vanished_stacks", n_nodes);
  json_u64 (out, "vanished_samples",
            tv_diff_get_unmatched_total (self->diff, TV_DIFF_SIDE_BASE, TV_ROOT_NODE));
  json_key (out, "vanished");
  g_string_append_c (out, '[');
  for (guint i = 0; i < n_nodes && i < MAX_VANISHED; i++)
    {
      g_array_set_size (path, 0);
      for (guint32 n = nodes[i]; n != TV_ROOT_NODE; n = tv_call_tree_get_parent (base, n))
        {
          guint32 key = tv_call_tree_get_key (base, n);
          guint32 new_key = tv_diff_map_key (self->diff, TV_DIFF_SIDE_BASE, key);
          guint32 frame = new_key != TV_NODE_NONE ? tv_export_html_map_key (self, 0, new_key)
                                                  : tv_export_html_map_key (self, 1, key);

          g_array_prepend_val (path, frame);
        }
      g_string_append_printf (out, "[%" G_GUINT64_FORMAT ",", tv_call_tree_get_total (base, nodes[i]));
      for (guint j = 0; j < path->len; j++)
        g_string_append_printf (out, "%u,", g_array_index (path, guint32, j));
      json_close (out, ']');
      g_string_append_c (out, ',');
    }
  json_close (out, ']');
  g_string_append_c (out, ',');
}

static void
append_diff_warnings (Exporter *self,
                      GString  *out)
{
  GPtrArray *caveats = tv_diff_get_comparability (self->diff);

  json_key (out, "warnings");
  g_string_append_c (out, '[');
  for (guint i = 0; i < caveats->len; i++)
    {
      const TvComparability *caveat = g_ptr_array_index (caveats, i);

      g_string_append_printf (out, "{\"code\":%d,", caveat->code);
      json_string (out, "message", caveat->message);
      json_close (out, '}');
      g_string_append_c (out, ',');
    }
  json_close (out, ']');
  g_string_append_c (out, ',');
}

/* The "diff" object, whose frames and strings are mapped as it goes: made
 * before the tables are written. */
static GString *
build_diff_object (Exporter   *self,
                   const char *base_name)
{
  GString *out = g_string_sized_new (1 << 16);
  TvCallTree *base = tv_diff_get_tree (self->diff, TV_DIFF_SIDE_BASE);
  TvDiffOptions options;

  tv_diff_get_options (self->diff, &options);
  json_key (out, "diff");
  g_string_append_c (out, '{');
  json_key (out, "base");
  g_string_append_c (out, '{');
  tv_export_html_append_profile_facts (self->sides[1].data, out, base_name);
  json_u64 (out, "samples", tv_call_tree_get_n_samples (base));
  tv_export_html_append_thread_list (self->sides[1].data, out);
  json_close (out, '}');
  g_string_append_c (out, ',');
  json_string (out, "normalization",
               options.normalization == TV_DIFF_BY_TIME ? "time" : "share");
  json_optional_double (out, "confidence", TRUE, options.confidence);
  json_key (out, "weights");
  g_string_append_c (out, '[');
  json_double_or_null (out, TRUE, tv_diff_get_weight (self->diff, TV_DIFF_SIDE_BASE));
  json_double_or_null (out, TRUE, tv_diff_get_weight (self->diff, TV_DIFF_SIDE_NEW));
  json_close (out, ']');
  g_string_append_c (out, ',');
  append_diff_warnings (self, out);
  append_diff_nodes (self, out);
  append_diff_functions (self, out);
  append_diff_vanished (self, out);
  json_close (out, '}');
  return out;
}

GString *
tv_export_html_build_diff_json (Exporter   *self,
                                const char *base_name,
                                const char *new_name,
                                const char *search)
{
  g_autoptr(GString) out = g_string_sized_new (1 << 16);
  g_autoptr(GString) diff = build_diff_object (self, base_name);

  tv_export_html_append_preamble (out, self->data, new_name);
  tv_export_html_append_filter (self, out);
  tv_export_html_append_view (self, out, tv_call_tree_get_inverted (self->tree), search);
  json_u64 (out, "samples", tv_call_tree_get_n_samples (self->tree));
  tv_export_html_append_strings (self, out);
  tv_export_html_append_frames (self, out);
  tv_export_html_append_sources (self, out);
  tv_export_html_append_nodes (self, out);
  tv_export_html_append_thread_list (self->data, out);
  g_string_append_len (out, diff->str, diff->len);
  json_close (out, '}');

  return g_steal_pointer (&out);
}

