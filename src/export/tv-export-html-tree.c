/* tv-export-html-tree.c: the HTML page's call tree
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The page's tree as compact arrays of numbers: two a node (how far back
 * its parent is, its frame), and for each thread and each state the
 * samples whose stack ends at a node, as pairs of how far the node id
 * grows and the count.
 */
#include "tv-export-html-private.h"

#include <string.h>

/* The states the page filters by: the name `--state` takes, and the
 * call tree's count of it. */
static const struct
{
  const char    *name;
  TvStatusCount  count;
} page_states[] = {
  { "gil", TV_STATUS_COUNT_HAS_GIL },
  { "cpu", TV_STATUS_COUNT_ON_CPU },
  { "gil-wait", TV_STATUS_COUNT_GIL_REQUESTED },
  { "exception", TV_STATUS_COUNT_HAS_EXCEPTION },
};

static const char * const status_names[] = {
  "has_gil", "on_cpu", "unknown", "gil_requested", "has_exception", "main_thread",
};

typedef struct
{
  guint32 id;
  guint64 count;
} SelfCount;

/* A stack entry: a node to number, or (REMAINDER_BIT) its remainder box. */
#define REMAINDER_BIT   (G_GUINT64_CONSTANT (1) << 32)

/* Export ids in depth-first order, children in the model's display order:
 * parents come first, and the page lays out siblings as they come.  A
 * node with a remainder (the children the model left out, see
 * TvQuery.min_total_divisor) has a box for it after its other children:
 * a node's total stays its self, its children's and its box's. */
void
tv_export_html_number_nodes (Exporter *self)
{
  /* Each node is pushed once, and each box once: at most two entries a
   * node. */
  g_autofree guint64 *stack = g_new (guint64, 2 * (gsize) self->n_nodes + 1);
  guint32 sp = 0;
  guint32 next = 0;

  /* The threshold the tree was cut at: the largest, at the root. */
  self->min_total = tv_call_tree_get_cut_below (self->tree, TV_ROOT_NODE);
  self->order = g_new (guint32, 2 * (gsize) self->n_nodes);
  self->export_ids = g_new (guint32, self->n_nodes);
  self->box_ids = g_new0 (guint32, self->n_nodes);
  self->remainder = g_new0 (guint8, 2 * (gsize) self->n_nodes);

  stack[sp++] = TV_ROOT_NODE;
  while (sp > 0)
    {
      guint64 entry = stack[--sp];
      guint32 node = (guint32) entry;
      const guint32 *children;
      guint n_children;

      if (entry & REMAINDER_BIT)
        {
          self->remainder[next] = TRUE;
          self->order[next] = node;
          self->box_ids[node] = next++;
          self->aggregated_nodes += tv_call_tree_get_remainder_paths (self->tree, node);
          self->aggregated_samples += tv_call_tree_get_remainder (self->tree, node);
          continue;
        }
      self->export_ids[node] = next;
      self->order[next++] = node;
      children = tv_call_tree_get_children (self->tree, node, &n_children);
      if (tv_call_tree_get_remainder (self->tree, node) > 0)
        stack[sp++] = node | REMAINDER_BIT;
      for (guint i = n_children; i > 0; i--)
        stack[sp++] = children[i - 1];
    }
  self->n_ids = next;
}

/* Two numbers a node but the root: how far back its parent is (ids are
 * depth-first, so mostly 1 or a few), and its frame; -1 for a remainder
 * box. */
void
tv_export_html_append_nodes (Exporter *self,
                             GString  *out)
{
  json_key (out, "nodes");
  g_string_append_c (out, '[');
  for (guint32 id = 1; id < self->n_ids; id++)
    {
      guint32 node = self->order[id];
      guint32 parent;

      if (self->remainder[id])
        {
          parent = self->export_ids[node];
          g_assert (parent < id);
          g_string_append_printf (out, "%u,-1,", id - parent);
          continue;
        }
      parent = self->export_ids[tv_call_tree_get_parent (self->tree, node)];
      g_assert (parent < id);
      g_string_append_printf (out, "%u,%u,", id - parent,
                              self->sides[0].frame_ids[tv_call_tree_get_key (self->tree, node)]);
    }
  json_close (out, ']');
  g_string_append_c (out, ',');
}

/* "aggregated", when there are remainder boxes: the threshold (samples
 * and the share of all), how many nodes and samples the boxes hold, and
 * for each box the distance from the previous box's id (from 0) and the
 * nodes it stands for. */
void
tv_export_html_append_aggregated (Exporter *self,
                                  GString  *out)
{
  guint32 previous = 0;

  if (self->min_total == 0)
    return;

  json_key (out, "aggregated");
  g_string_append_c (out, '{');
  json_u64 (out, "min_samples", self->min_total);
  json_key (out, "min_share");
  tv_json_append_double (out, 1.0 / TV_EXPORT_HTML_SHARE_DIVISOR);
  g_string_append_c (out, ',');
  /* The call paths the boxes hold, as nodes: the page's nodes and
   * those make the tree's. */
  json_u64 (out, "tree_nodes", self->n_nodes + self->aggregated_nodes);
  json_u64 (out, "nodes", self->aggregated_nodes);
  json_u64 (out, "samples", self->aggregated_samples);
  json_key (out, "boxes");
  g_string_append_c (out, '[');
  for (guint32 id = 1; id < self->n_ids; id++)
    {
      if (!self->remainder[id])
        continue;
      g_string_append_printf (out, "%u,%" G_GUINT64_FORMAT ",", id - previous,
                              tv_call_tree_get_remainder_paths (self->tree, self->order[id]));
      previous = id;
    }
  json_close (out, ']');
  json_close (out, '}');
  g_string_append_c (out, ',');
}

static int
compare_self_counts (gconstpointer a,
                     gconstpointer b)
{
  const SelfCount *ca = a;
  const SelfCount *cb = b;

  return ca->id < cb->id ? -1 : ca->id > cb->id;
}

/* The samples of thread INDEX that the query selects, as pairs of export
 * id and count, from what the whole tree kept of that thread: its self
 * samples on the nodes, and those the tree left out on the boxes.  SUMS
 * adds up each node's self and (from n_nodes on) remainder. */
static void
append_thread_self (Exporter      *self,
                    GString       *out,
                    guint32        index,
                    guint64       *sums,
                    guint64       *n_samples,
                    GArray        *scratch)
{
  g_array_set_size (scratch, 0);
  *n_samples = 0;
  for (guint box = 0; box < 2; box++)
    {
      const guint64 *counts;
      guint n_nodes;
      const guint32 *nodes = box ? tv_call_tree_get_thread_remainders (self->tree, index,
                                                                       &counts, &n_nodes)
                                 : tv_call_tree_get_thread_self (self->tree, index,
                                                                 &counts, &n_nodes);

      for (guint i = 0; i < n_nodes; i++)
        {
          SelfCount pair = { box ? self->box_ids[nodes[i]] : self->export_ids[nodes[i]],
                             counts[i] };

          g_assert (!box || pair.id > 0);
          g_array_append_val (scratch, pair);
          sums[(gsize) box * self->n_nodes + nodes[i]] += counts[i];
          *n_samples += counts[i];
        }
    }
  g_array_sort (scratch, compare_self_counts);

  /* Pairs of the distance from the previous id (from 0 for the first)
   * and the count. */
  g_string_append_c (out, '[');
  for (guint i = 0, previous = 0; i < scratch->len; i++)
    {
      const SelfCount *pair = &g_array_index (scratch, SelfCount, i);

      g_string_append_printf (out, "%u,%" G_GUINT64_FORMAT ",", pair->id - previous,
                              pair->count);
      previous = pair->id;
    }
  json_close (out, ']');
}

static gboolean
thread_selected (Exporter *self,
                 guint32   index)
{
  const TvQuery *query = &self->query;

  if (query->threads == NULL)
    return TRUE;
  for (guint i = 0; i < query->n_threads; i++)
    {
      if (query->threads[i] == index)
        return TRUE;
    }
  return FALSE;
}

/* Thread indices of DATA sorted by thread id, then interpreter. */
static guint32 *
sorted_threads (TvProfileData *data,
                guint         *n_threads)
{
  guint32 *indices;

  *n_threads = tv_profile_data_get_n_threads (data);
  indices = g_new (guint32, MAX (*n_threads, 1));
  for (guint i = 0; i < *n_threads; i++)
    indices[i] = i;
  g_qsort_with_data (indices, *n_threads, sizeof (guint32), tv_export_compare_threads, data);
  return indices;
}

/* A thread's members from the file, each followed by a comma. */
static void
append_thread_facts (GString        *out,
                     const TvThread *thread)
{
  /* A string: thread ids use all 64 bits, more than a JavaScript number
   * holds exactly. */
  g_string_append_printf (out, "\"thread_id\":\"%" G_GUINT64_FORMAT "\",", thread->thread_id);
  json_u64 (out, "interpreter_id", thread->interpreter_id);
  json_u64 (out, "samples_in_file", thread->n_samples);
  json_key (out, "status_counts");
  g_string_append_c (out, '{');
  for (guint bit = 0; bit < G_N_ELEMENTS (status_names); bit++)
    json_u64 (out, status_names[bit], thread->status_counts[bit]);
  json_close (out, '}');
  g_string_append_c (out, ',');
}

gboolean
tv_export_html_append_threads (Exporter      *self,
                               GString       *out,
                               GCancellable  *cancellable,
                               GError       **error)
{
  guint n_threads;
  g_autofree guint32 *indices = sorted_threads (self->data, &n_threads);
  g_autofree guint64 *sums = g_new0 (guint64, 2 * (gsize) self->n_nodes);
  g_autoptr(GArray) scratch = g_array_new (FALSE, FALSE, sizeof (SelfCount));

  json_key (out, "threads");
  g_string_append_c (out, '[');
  for (guint i = 0; i < n_threads; i++)
    {
      const TvThread *thread = tv_profile_data_get_thread (self->data, indices[i]);
      guint64 n_samples = 0;

      if (i % 4096 == 0 && g_cancellable_set_error_if_cancelled (cancellable, error))
        return FALSE;
      g_string_append_c (out, '{');
      append_thread_facts (out, thread);
      json_key (out, "self");
      if (thread->n_samples > 0 && thread_selected (self, indices[i]))
        append_thread_self (self, out, indices[i], sums, &n_samples, scratch);
      else
        g_string_append (out, "[]");
      g_string_append_c (out, ',');
      json_u64 (out, "samples", n_samples);
      json_close (out, '}');
      g_string_append_c (out, ',');
    }
  json_close (out, ']');
  g_string_append_c (out, ',');

  /* The threads' samples add up to the whole tree's. */
  for (guint32 n = 0; n < self->n_nodes; n++)
    {
      g_assert (sums[n] == tv_call_tree_get_self (self->tree, n));
      g_assert (sums[self->n_nodes + n] == tv_call_tree_get_remainder (self->tree, n));
    }

  return TRUE;
}

/* "states": for each state the page filters by, the samples of that
 * state each node holds itself, as pairs of the distance from the previous
 * export id (from 0 for the first) and the count, nodes without any left
 * out.  A node's samples in a state are exact (the tree counted them);
 * its own are those less its children's.  Left out when the load did not
 * count states. */
gboolean
tv_export_html_append_states (Exporter      *self,
                              GString       *out,
                              GCancellable  *cancellable,
                              GError       **error)
{
  if (!tv_call_tree_has_status_counts (self->tree))
    return TRUE;

  json_key (out, "states");
  g_string_append_c (out, '{');
  for (gsize s = 0; s < G_N_ELEMENTS (page_states); s++)
    {
      TvStatusCount count = page_states[s].count;
      guint32 previous = 0;

      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        return FALSE;
      json_key (out, page_states[s].name);
      g_string_append_c (out, '[');
      for (guint32 id = 0; id < self->n_ids; id++)
        {
          guint32 node = self->order[id];
          const guint64 *left_out = tv_call_tree_get_remainder_status_counts (self->tree, node);
          guint64 own = left_out != NULL ? left_out[count] : 0;
          const guint32 *children;
          guint n_children;

          /* A box's: what the tree left out; a node's own: its count less
           * its children's and its box's. */
          if (!self->remainder[id])
            {
              own = tv_call_tree_get_status_counts (self->tree, node)[count] - own;
              children = tv_call_tree_get_children (self->tree, node, &n_children);
              for (guint i = 0; i < n_children; i++)
                own -= tv_call_tree_get_status_counts (self->tree, children[i])[count];
            }
          if (own == 0)
            continue;
          g_string_append_printf (out, "%u,%" G_GUINT64_FORMAT ",", id - previous, own);
          previous = id;
        }
      json_close (out, ']');
      g_string_append_c (out, ',');
    }
  json_close (out, '}');
  g_string_append_c (out, ',');
  return TRUE;
}

/* Every thread's facts, without samples: a differential page's trees are
 * not split by thread. */
void
tv_export_html_append_thread_list (TvProfileData *data,
                                   GString       *out)
{
  guint n_threads;
  g_autofree guint32 *indices = sorted_threads (data, &n_threads);

  json_key (out, "threads");
  g_string_append_c (out, '[');
  for (guint i = 0; i < n_threads; i++)
    {
      g_string_append_c (out, '{');
      append_thread_facts (out, tv_profile_data_get_thread (data, indices[i]));
      json_close (out, '}');
      g_string_append_c (out, ',');
    }
  json_close (out, ']');
  g_string_append_c (out, ',');
}
