/* tv-export-speedscope.c: a profile in speedscope's own format
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * speedscope's file format (https://www.speedscope.app/file-format-schema.json,
 * which the npm package ships): the frames once, under "shared", then one
 * "sampled" profile per thread, its samples in time order, each a stack of
 * frame indices from the root to the leaf with a weight: the time a sample
 * stands for, in milliseconds (1 / the statistics block's sample rate,
 * else the header's interval).  In time order, speedscope's Time Order
 * view shows what the thread ran from one sample to the next, and its
 * Sandwich view each function's self and total time.
 *
 * A frame is a function (name and file) with its line and 1-based column
 * as far as the merge key keeps them (by function, the default, neither);
 * frames that would read the same in speedscope are one.  The filters
 * select the samples, the transforms change their stacks; a sample whose
 * stack the transforms emptied is left out, as CPython's collectors leave
 * out samples without frames.
 *
 * The samples are written as they are walked, through a bounded buffer:
 * the file grows with the samples and their depth, the memory only with
 * the frames.
 */
#include "tv-export-speedscope.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n.h>

#include "tachyon-format.h"
#include "tv-atomic-write.h"
#include "tv-export-stream.h"
#include "tv-json.h"
#include "tv-progress.h"

#ifndef PACKAGE_VERSION
# define PACKAGE_VERSION "unknown"
#endif

#define SPEEDSCOPE_SCHEMA "https://www.speedscope.app/file-format-schema.json"

typedef struct
{
  TvExportSamples  samples;
  TvProfileData   *data;
  TvJsonStream     out;
  GCancellable    *cancellable;
  GError          *error;

  guint32         *frame_of_node;  /* tree node -> frame */
  GArray          *frame_nodes;    /* guint32: a tree node of each frame */
  GArray          *frame_info;     /* TvExportFrame of each frame */
  GArray          *scratch;        /* guint32 frames, leaf first */
  GString         *stack_text;     /* the last sample's stack */
  guint32          stack_node;     /* its node, or TV_NODE_NONE */
} Speedscope;

static gboolean
speedscope_check (Speedscope *s)
{
  if (s->error == NULL)
    g_cancellable_set_error_if_cancelled (s->cancellable, &s->error);
  return s->error == NULL;
}

/* Every node of the tree is on the stack of a selected sample: its frame
 * is made here, once, so that the frames can be written first. */
static void
map_frames (Speedscope *s)
{
  TvCallTree *tree = s->samples.tree;
  guint32 n_nodes = tv_call_tree_get_n_nodes (tree);
  TvIdMap ids;

  s->frame_of_node = g_new (guint32, MAX (n_nodes, 1));
  s->frame_nodes = g_array_new (FALSE, FALSE, sizeof (guint32));
  s->frame_info = g_array_new (FALSE, FALSE, sizeof (TvExportFrame));
  s->frame_of_node[TV_ROOT_NODE] = TV_NODE_NONE;
  tv_id_map_init (&ids);
  for (guint32 node = 1; node < n_nodes; node++)
    {
      TvExportFrame frame;
      gboolean added;
      guint32 id;

      tv_export_samples_get_frame (&s->samples, node, &frame);
      if (frame.line < 0)
        frame.line = -1;
      if (frame.line == -1 || frame.column < 0)
        frame.column = -1;
      id = tv_id_map_insert (&ids, (guint64) frame.function << 32 | (guint32) frame.line,
                             (guint32) frame.column, &added);
      if (added)
        {
          g_array_append_val (s->frame_nodes, node);
          g_array_append_val (s->frame_info, frame);
        }
      s->frame_of_node[node] = id;
    }
  tv_id_map_clear (&ids);
}

static void
write_frames (Speedscope *s)
{
  TvJsonStream *out = &s->out;
  TachReader *reader = tv_profile_data_get_reader (s->data);

  tv_json_stream_raw (out, "\"shared\":{\"frames\":[");
  for (guint i = 0; i < s->frame_nodes->len; i++)
    {
      guint32 node = g_array_index (s->frame_nodes, guint32, i);
      const TvExportFrame *frame = &g_array_index (s->frame_info, TvExportFrame, i);
      const TachFrame *f = tach_reader_get_frame (reader,
                                                  tv_call_tree_get_frame (s->samples.tree, node));
      const char *name, *file;
      size_t name_len = 0, file_len = 0;

      name = tach_reader_get_string (reader, f->funcname, &name_len);
      file = tach_reader_get_string (reader, f->filename, &file_len);
      g_assert (name != NULL && file != NULL);

      if (i > 0)
        tv_json_stream_raw (out, ",");
      tv_json_stream_raw (out, "{\"name\":");
      tv_json_stream_string (out, name, name_len);
      /* "~" is CPython's file of the frames it makes up (<GC>, <native>). */
      if (!(file_len == 1 && file[0] == '~'))
        {
          tv_json_stream_raw (out, ",\"file\":");
          tv_json_stream_string (out, file, file_len);
        }
      if (frame->line > 0)
        {
          tv_json_stream_raw (out, ",\"line\":");
          tv_json_stream_int (out, frame->line);
        }
      if (frame->column >= 0)
        {
          tv_json_stream_raw (out, ",\"col\":");
          tv_json_stream_int (out, (gint64) frame->column + 1);
        }
      tv_json_stream_raw (out, "}");
    }
  tv_json_stream_raw (out, "]}");
}

/* "[root,…,leaf]" for NODE, kept for the samples that follow with the
 * same stack (a REPEAT run is thousands of them). */
static const GString *
stack_text (Speedscope *s,
            guint32     node)
{
  TvCallTree *tree = s->samples.tree;

  if (node == s->stack_node)
    return s->stack_text;

  g_array_set_size (s->scratch, 0);
  for (guint32 u = node; u != TV_ROOT_NODE; u = tv_call_tree_get_parent (tree, u))
    g_array_append_val (s->scratch, s->frame_of_node[u]);

  g_string_assign (s->stack_text, "[");
  for (guint i = s->scratch->len; i > 0; i--)
    {
      guint32 frame = g_array_index (s->scratch, guint32, i - 1);
      char digits[16];

      g_snprintf (digits, sizeof digits, i < s->scratch->len ? ",%u" : "%u", frame);
      g_string_append (s->stack_text, digits);
    }
  g_string_append_c (s->stack_text, ']');
  s->stack_node = node;
  return s->stack_text;
}

static char *
profile_name (const TvThread *t)
{
  gboolean is_main = t->status_counts[5] > 0;

  if (t->interpreter_id != 0)
    return g_strdup_printf (is_main ? "Thread %" G_GUINT64_FORMAT " (interpreter %u, main)"
                                    : "Thread %" G_GUINT64_FORMAT " (interpreter %u)",
                            t->thread_id, t->interpreter_id);
  return g_strdup_printf (is_main ? "Thread %" G_GUINT64_FORMAT " (main)"
                                  : "Thread %" G_GUINT64_FORMAT, t->thread_id);
}

/* The samples of thread TS with a stack. */
static guint64
count_samples (Speedscope      *s,
               TvThreadSamples *ts)
{
  guint64 timestamp;
  guint8 status;
  guint32 leaf, node;
  guint64 n = 0, seen = 0;

  tv_thread_samples_rewind (ts);
  while (tv_thread_samples_next (ts, &timestamp, &status, &leaf, &node))
    {
      if (++seen % TV_EXPORT_CANCEL_INTERVAL == 0 && !speedscope_check (s))
        return 0;
      n += tv_export_node_has_stack (node);
    }
  return n;
}

static void
write_profile (Speedscope      *s,
               TvThreadSamples *ts,
               guint64          n,
               const char      *unit,
               double           weight)
{
  TvJsonStream *out = &s->out;
  g_autofree char *name = profile_name (ts->thread);
  g_autofree char *weight_text = NULL;
  char buf[32];
  guint64 timestamp;
  guint8 status;
  guint32 leaf, node;
  guint64 i = 0, seen = 0;

  tv_json_stream_raw (out, "{\"type\":\"sampled\",\"name\":");
  tv_json_stream_string (out, name, -1);
  tv_json_stream_raw (out, ",\"unit\":\"");
  tv_json_stream_raw (out, unit);
  tv_json_stream_raw (out, "\",\"startValue\":0,\"endValue\":");
  tv_json_stream_double (out, (double) n * weight);
  tv_json_stream_raw (out, ",\"samples\":[");

  s->stack_node = TV_NODE_NONE;
  tv_thread_samples_rewind (ts);
  while (tv_thread_samples_next (ts, &timestamp, &status, &leaf, &node))
    {
      const GString *text;

      if (++seen % TV_EXPORT_CANCEL_INTERVAL == 0 && !speedscope_check (s))
        return;
      if (!tv_export_node_has_stack (node))
        continue;
      if (i++ > 0)
        tv_json_stream_raw (out, ",");
      text = stack_text (s, node);
      tv_json_stream_raw_len (out, text->str, text->len);
    }

  tv_json_stream_raw (out, "],\"weights\":[");
  tv_json_format_double (buf, sizeof buf, weight);
  weight_text = g_strconcat (",", buf, NULL);
  for (guint64 j = 0; j < n; j++)
    tv_json_stream_raw (out, j > 0 ? weight_text : buf);
  tv_json_stream_raw (out, "]}");
}

static void
speedscope_clear (Speedscope *s)
{
  tv_export_samples_clear (&s->samples);
  g_clear_pointer (&s->frame_of_node, g_free);
  g_clear_pointer (&s->frame_nodes, g_array_unref);
  g_clear_pointer (&s->frame_info, g_array_unref);
  g_clear_pointer (&s->scratch, g_array_unref);
  if (s->stack_text != NULL)
    g_string_free (g_steal_pointer (&s->stack_text), TRUE);
  g_clear_error (&s->error);
}

/**
 * tv_export_speedscope_write:
 * @data: a loaded profile
 * @state: the samples, the transforms and the merge key (its view
 *   does not apply otherwise)
 * @source_name: the profile's file name, the file's name in speedscope
 * @file: where to write
 * @cancellable: (nullable): a cancellable
 * @error: return location for an error
 *
 * Writes the profile in speedscope's format (see the top of this file)
 * and flushes @file.
 *
 * Returns: %TRUE on success
 */
gboolean
tv_export_speedscope_write (TvProfileData         *data,
                            TvViewState           *state,
                            const char            *source_name,
                            FILE                  *file,
                            GCancellable          *cancellable,
                            GError               **error)
{
  Speedscope s = { 0 };
  double seconds = tv_profile_data_get_seconds_per_sample (data, NULL);
  const char *unit = "milliseconds";
  double weight = seconds * 1000.0;
  guint n_profiles = 0;
  gint active = -1;
  gboolean ok;

  g_return_val_if_fail (data != NULL, FALSE);
  g_return_val_if_fail (TV_IS_VIEW_STATE (state), FALSE);
  g_return_val_if_fail (source_name != NULL, FALSE);
  g_return_val_if_fail (file != NULL, FALSE);
  g_return_val_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!tv_export_samples_init (&s.samples, data, state, cancellable, error))
    {
      tv_export_samples_clear (&s.samples);
      return FALSE;
    }
  s.data = data;
  s.cancellable = cancellable;
  s.scratch = g_array_new (FALSE, FALSE, sizeof (guint32));
  s.stack_text = g_string_new (NULL);
  s.stack_node = TV_NODE_NONE;
  /* Samples that stand for no time (an interval of 0 and no statistics)
   * would weigh nothing, and speedscope drops those: they count one each
   * instead. */
  if (!(weight > 0) || !isfinite (weight))
    {
      unit = "none";
      weight = 1.0;
    }
  map_frames (&s);

  tv_json_stream_init (&s.out, file);
  tv_json_stream_raw (&s.out, "{\"$schema\":\"" SPEEDSCOPE_SCHEMA "\",\"exporter\":");
  tv_json_stream_string (&s.out, "tachyon-viewer " PACKAGE_VERSION, -1);
  tv_json_stream_raw (&s.out, ",\"name\":");
  tv_json_stream_string (&s.out, source_name, -1);
  tv_json_stream_raw (&s.out, ",");
  write_frames (&s);
  tv_json_stream_raw (&s.out, ",\"profiles\":[");
  for (guint i = 0; i < s.samples.threads->len && speedscope_check (&s); i++)
    {
      guint32 index = g_array_index (s.samples.threads, guint32, i);
      TvThreadSamples ts;
      guint64 n;

      tv_progress_report (s.cancellable,
                          TV_EXPORT_SAMPLES_TREE_SHARE
                          + (1.0 - TV_EXPORT_SAMPLES_TREE_SHARE) * i / s.samples.threads->len);
      if (!tv_thread_samples_init (&ts, &s.samples, index, &s.error))
        break;
      n = count_samples (&s, &ts);
      if (n > 0 && speedscope_check (&s))
        {
          if (n_profiles > 0)
            tv_json_stream_raw (&s.out, ",");
          write_profile (&s, &ts, n, unit, weight);
          /* speedscope opens the main thread first. */
          if (active < 0 && ts.thread->status_counts[5] > 0)
            active = n_profiles;
          n_profiles++;
        }
      tv_thread_samples_clear (&ts);
    }
  tv_json_stream_raw (&s.out, "],\"activeProfileIndex\":");
  tv_json_stream_uint (&s.out, MAX (active, 0));
  tv_json_stream_raw (&s.out, "}\n");

  ok = tv_json_stream_finish (&s.out, &s.error, error);
  speedscope_clear (&s);
  return ok;
}

gboolean
tv_export_speedscope_save (TvProfileData         *data,
                           TvViewState           *state,
                           const char            *source_name,
                           const char            *out_path,
                           GCancellable          *cancellable,
                           GError               **error)
{
  return tv_export_stream_save (tv_export_speedscope_write, data, state, source_name, out_path,
                                cancellable, error);
}
