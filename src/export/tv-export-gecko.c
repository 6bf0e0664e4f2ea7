/* tv-export-gecko.c: a profile in the Firefox Profiler's format
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What `python -m profiling.sampling replay --gecko` writes (CPython's
 * Lib/profiling/sampling/gecko_collector.py): the Firefox Profiler's
 * processed format (preprocessedProfileVersion 57), one thread (a track)
 * per profiled thread with its own stack, frame, function and resource
 * tables over one shared string array, each sample with its stack and its
 * time in milliseconds since the profile's first sample, and interval
 * markers for the thread's states, found the way the collector finds them:
 * holding the GIL or not, on a CPU or not, running Python or native code,
 * waiting for the GIL, in the garbage collector (a "<GC>" frame on the
 * stack), with an exception set or not.
 *
 * Where we differ, on purpose: the two interpreters' threads of one ID are
 * two tracks, not one; meta.interval is the time a sample stands for (the
 * statistics block's rate, else the header's interval), where the collector
 * divides the time span by the samples of all threads together; the zero of
 * the times is the profile's earliest sample rather than the first record
 * of the file, and the open states close at its latest sample; the fields
 * that would describe the converting machine (abi, oscpu, platform, CPU
 * counts, pid) say nothing, since it is not the machine that was profiled;
 * a function's file name is the file's whole path, not its base name, and
 * a name in angle brackets (no path) names its resource whole, since the
 * Firefox Profiler makes one function of those that look the same;
 * meta.profilingStartTime and profilingEndTime, which the collector does
 * not write, give the time the selected samples span: the Firefox Profiler
 * shows only that, or else the span of the samples with frames, hiding the
 * markers before and after.
 * The filters (threads, state, time ranges) select the samples the markers
 * are found from, as if the collector had only been given those; the
 * transforms (focus, hide, collapsed recursion) and the merge key change
 * the stacks only.  An export of no sample at all fails: the Firefox
 * Profiler cannot open a profile without threads.
 *
 * The file grows with the samples, so it is written as it is made: the
 * format is by columns, and each column of a thread's samples and markers
 * is one more walk over the thread's samples in the model.  Only the
 * tables (strings, stacks, frames, functions, resources) are kept, and
 * they grow with the distinct stacks, not with the samples.
 */
#include "tv-export-gecko.h"

#include <string.h>

#include <glib/gi18n.h>

#include "tachyon-format.h"
#include "tv-atomic-write.h"
#include "tv-export-stream.h"
#include "tv-export-gecko-private.h"
#include "tv-progress.h"

static const char categories_json[] =
  "[{\"name\":\"Other\",\"color\":\"grey\",\"subcategories\":[\"Other\"]},"
  "{\"name\":\"Python\",\"color\":\"yellow\",\"subcategories\":[\"Other\"]},"
  "{\"name\":\"Native\",\"color\":\"blue\",\"subcategories\":[\"Other\"]},"
  "{\"name\":\"GC\",\"color\":\"orange\",\"subcategories\":[\"Other\"]},"
  "{\"name\":\"GIL\",\"color\":\"green\",\"subcategories\":[\"Other\"]},"
  "{\"name\":\"CPU\",\"color\":\"purple\",\"subcategories\":[\"Other\"]},"
  "{\"name\":\"Code Type\",\"color\":\"red\",\"subcategories\":[\"Other\"]},"
  "{\"name\":\"Opcodes\",\"color\":\"magenta\",\"subcategories\":[\"Other\"]},"
  "{\"name\":\"Exception\",\"color\":\"lightblue\",\"subcategories\":[\"Other\"]}]";

/* The interval markers, in the order the collector closes those still
 * open at the end. */
typedef enum
{
  MARKER_HAS_GIL,
  MARKER_NO_GIL,
  MARKER_ON_CPU,
  MARKER_OFF_CPU,
  MARKER_PYTHON_CODE,
  MARKER_NATIVE_CODE,
  MARKER_GIL_WAIT,
  MARKER_GC,
  MARKER_HAS_EXCEPTION,
  MARKER_NO_EXCEPTION,
  N_MARKERS
} MarkerKind;

static const struct
{
  const char *name;
  const char *type;              /* the name without its spaces */
  guint       category;
} marker_info[N_MARKERS] = {
  { "Has GIL", "HasGIL", CATEGORY_GIL },
  { "No GIL", "NoGIL", CATEGORY_GIL },
  { "On CPU", "OnCPU", CATEGORY_CPU },
  { "Off CPU", "OffCPU", CATEGORY_CPU },
  { "Python Code", "PythonCode", CATEGORY_CODE_TYPE },
  { "Native Code", "NativeCode", CATEGORY_CODE_TYPE },
  { "Waiting for GIL", "WaitingforGIL", CATEGORY_GIL },
  { "GC Collecting", "GCCollecting", CATEGORY_GC },
  { "Has Exception", "HasException", CATEGORY_EXCEPTION },
  { "No Exception", "NoException", CATEGORY_EXCEPTION },
};
/* ------------------------------------------------------------------------ */
/* Markers                                                                   */
/* ------------------------------------------------------------------------ */

typedef struct
{
  gboolean initialized;
  gboolean open[N_MARKERS];
  guint64  start[N_MARKERS];
} MarkerState;

/* START and END in microseconds since the profile's first sample. */
typedef void (*MarkerFunc) (Gecko      *g,
                            MarkerKind  kind,
                            guint64     start,
                            guint64     end,
                            gpointer    user_data);

typedef struct
{
  MarkerState  state;
  MarkerFunc   func;
  gpointer     user_data;
} MarkerWalk;

static void
marker_open (MarkerWalk *w,
             MarkerKind  kind,
             guint64     t)
{
  if (!w->state.open[kind])
    {
      w->state.open[kind] = TRUE;
      w->state.start[kind] = t;
    }
}

static void
marker_close (Gecko      *g,
              MarkerWalk *w,
              MarkerKind  kind,
              guint64     t)
{
  if (w->state.open[kind])
    {
      w->state.open[kind] = FALSE;
      w->func (g, kind, w->state.start[kind], t, w->user_data);
    }
}

/* The collector's _track_state_transition(): on a thread's first sample
 * the state is only noted, since what came before is unknown. */
static void
track (Gecko      *g,
       MarkerWalk *w,
       gboolean    condition,
       MarkerKind  active,
       MarkerKind  inactive,
       guint64     t)
{
  if (!w->state.initialized)
    {
      marker_open (w, condition ? active : inactive, t);
      return;
    }
  if (condition)
    {
      marker_open (w, active, t);
      marker_close (g, w, inactive, t);
    }
  else
    {
      marker_open (w, inactive, t);
      marker_close (g, w, active, t);
    }
}

/* What the collector's collect() does with one sample's status and stack
 * before it records the sample. */
static void
marker_sample (Gecko      *g,
               MarkerWalk *w,
               guint8      status,
               guint32     leaf,
               guint64     t)
{
  gboolean has_gil = (status & TACH_STATUS_HAS_GIL) != 0;
  gboolean on_cpu = (status & TACH_STATUS_ON_CPU) != 0;
  gboolean has_gc = g->gc_on_stack != NULL && g->gc_on_stack[leaf];

  track (g, w, has_gil, MARKER_HAS_GIL, MARKER_NO_GIL, t);
  track (g, w, on_cpu, MARKER_ON_CPU, MARKER_OFF_CPU, t);

  if (has_gil)
    track (g, w, TRUE, MARKER_PYTHON_CODE, MARKER_NATIVE_CODE, t);
  else if (on_cpu)
    track (g, w, TRUE, MARKER_NATIVE_CODE, MARKER_PYTHON_CODE, t);
  else if (w->state.initialized)
    {
      marker_close (g, w, MARKER_PYTHON_CODE, t);
      marker_close (g, w, MARKER_NATIVE_CODE, t);
    }

  if (status & TACH_STATUS_GIL_REQUESTED)
    marker_open (w, MARKER_GIL_WAIT, t);
  else
    marker_close (g, w, MARKER_GIL_WAIT, t);

  track (g, w, (status & TACH_STATUS_HAS_EXCEPTION) != 0, MARKER_HAS_EXCEPTION,
         MARKER_NO_EXCEPTION, t);

  if (has_gc)
    marker_open (w, MARKER_GC, t);
  else
    marker_close (g, w, MARKER_GC, t);

  w->state.initialized = TRUE;
}

/* The collector's times are milliseconds since the first sample: the
 * microseconds since then are kept, and written as milliseconds. */
static inline guint64
time_us (Gecko   *g,
         guint64  timestamp)
{
  return timestamp - g->samples.first_timestamp;
}

static inline double
us_to_ms (guint64 us)
{
  return (double) us / 1000.0;
}

/* Calls FUNC for each marker of the thread, in the collector's order:
 * as the states close, then those still open at the end. */
static void
walk_markers (Gecko           *g,
              TvThreadSamples *ts,
              MarkerFunc       func,
              gpointer         user_data)
{
  MarkerWalk w = { { 0 }, func, user_data };
  guint64 timestamp;
  guint8 status;
  guint32 leaf, node;
  guint64 n = 0;
  guint64 end = time_us (g, g->last_timestamp);

  tv_thread_samples_rewind (ts);
  while (tv_thread_samples_next (ts, &timestamp, &status, &leaf, &node))
    {
      if (++n % TV_EXPORT_CANCEL_INTERVAL == 0 && !gecko_check (g))
        return;
      marker_sample (g, &w, status, leaf, time_us (g, timestamp));
    }
  for (guint k = 0; k < N_MARKERS; k++)
    marker_close (g, &w, k, end);
}

/* ------------------------------------------------------------------------ */
/* Writing                                                                   */
/* ------------------------------------------------------------------------ */

static void
write_meta (Gecko *g)
{
  TvJsonStream *out = &g->out;
  double seconds = tv_profile_data_get_seconds_per_sample (g->data, NULL);
  double interval = seconds > 0 ? seconds * 1000.0 : 1.0;

  tv_json_stream_raw (out, "\"meta\":{\"interval\":");
  tv_json_stream_double (out, interval);
  tv_json_stream_raw (out, ",\"startTime\":");
  tv_json_stream_double (out, (double) g->samples.first_timestamp / 1000.0);
  /* What the collector does not write: the time profiled, from the first
   * sample the filters select to the time the last one stands for.
   * Without it the Firefox Profiler shows only from the first to the last
   * sample of the samples tables, and hides the markers outside: those of
   * the samples without frames, or whose stack the transforms emptied. */
  tv_json_stream_raw (out, ",\"profilingStartTime\":");
  tv_json_stream_ms_of_us (out, time_us (g, g->first_selected));
  tv_json_stream_raw (out, ",\"profilingEndTime\":");
  tv_json_stream_double (out, us_to_ms (time_us (g, g->last_timestamp)) + interval);
  tv_json_stream_raw (out,
                      ",\"abi\":\"\",\"misc\":\"Python profiler\",\"oscpu\":\"\",\"platform\":\"\","
                      "\"processType\":0,\"categories\":");
  tv_json_stream_raw (out, categories_json);
  tv_json_stream_raw (out, ",\"stackwalk\":0,\"toolkit\":\"\",\"version\":");
  tv_json_stream_uint (out, GECKO_FORMAT_VERSION);
  tv_json_stream_raw (out, ",\"preprocessedProfileVersion\":");
  tv_json_stream_uint (out, GECKO_PREPROCESSED_VERSION);
  tv_json_stream_raw (out,
                      ",\"appBuildID\":\"\",\"physicalCPUs\":0,\"logicalCPUs\":0,\"CPUName\":\"\","
                      "\"product\":\"Python\",\"symbolicated\":true,\"markerSchema\":[],"
                      "\"importedFrom\":\"Tachyon Sampling Profiler\","
                      "\"extensions\":{\"id\":[],\"name\":[],\"baseURL\":[],\"length\":0}}");
}

/* The "samples" table of the thread: a walk for its stacks, which makes
 * the stack table as it goes, and one for its times.  Returns how many
 * samples it holds. */
static guint64
write_samples (Gecko           *g,
               TvThreadSamples *ts)
{
  TvJsonStream *out = &g->out;
  guint64 timestamp;
  guint8 status;
  guint32 leaf, node;
  guint64 n = 0, seen = 0;

  tv_json_stream_raw (out, "\"samples\":{\"stack\":[");
  tv_thread_samples_rewind (ts);
  while (tv_thread_samples_next (ts, &timestamp, &status, &leaf, &node))
    {
      if (++seen % TV_EXPORT_CANCEL_INTERVAL == 0 && !gecko_check (g))
        return 0;
      /* The collector records no sample without frames. */
      if (!tv_export_node_has_stack (node))
        continue;
      comma (g, n++);
      tv_json_stream_uint (out, gecko_stack (g, node));
    }

  tv_json_stream_raw (out, "],\"time\":[");
  tv_thread_samples_rewind (ts);
  n = 0;
  while (tv_thread_samples_next (ts, &timestamp, &status, &leaf, &node))
    {
      if (!tv_export_node_has_stack (node))
        continue;
      comma (g, n++);
      tv_json_stream_ms_of_us (out, time_us (g, timestamp));
    }

  tv_json_stream_raw (out, "],\"eventDelay\":[");
  gecko_write_repeated (g, "null", n);
  tv_json_stream_raw (out, "],\"weight\":null,\"weightType\":\"samples\",\"length\":");
  tv_json_stream_uint (out, n);
  tv_json_stream_raw (out, "}");
  return n;
}

/* The columns of the marker table, one walk each. */
typedef enum
{
  MARKER_COLUMN_DATA,
  MARKER_COLUMN_NAME,
  MARKER_COLUMN_START,
  MARKER_COLUMN_END,
  MARKER_COLUMN_PHASE,
  MARKER_COLUMN_CATEGORY,
  N_MARKER_COLUMNS
} MarkerColumn;

typedef struct
{
  MarkerColumn    column;
  const TvThread *thread;
  guint64         n;
} MarkerWrite;

static void
write_marker_cell (Gecko      *g,
                   MarkerKind  kind,
                   guint64     start,
                   guint64     end,
                   gpointer    user_data)
{
  MarkerWrite *mw = user_data;
  TvJsonStream *out = &g->out;

  comma (g, mw->n++);
  switch (mw->column)
    {
    case MARKER_COLUMN_DATA:
      tv_json_stream_raw (out, "{\"type\":\"");
      tv_json_stream_raw (out, marker_info[kind].type);
      tv_json_stream_raw (out, "\",\"duration\":");
      /* As the collector subtracts its times. */
      tv_json_stream_double (out, us_to_ms (end) - us_to_ms (start));
      tv_json_stream_raw (out, ",\"tid\":");
      tv_json_stream_thread_id (out, mw->thread->thread_id);
      tv_json_stream_raw (out, "}");
      break;
    case MARKER_COLUMN_NAME:
      tv_json_stream_uint (out, gecko_intern_static (g, marker_info[kind].name));
      break;
    case MARKER_COLUMN_START:
      tv_json_stream_ms_of_us (out, start);
      break;
    case MARKER_COLUMN_END:
      tv_json_stream_ms_of_us (out, end);
      break;
    case MARKER_COLUMN_PHASE:
      /* An interval marker. */
      tv_json_stream_raw (out, "1");
      break;
    case MARKER_COLUMN_CATEGORY:
      tv_json_stream_uint (out, marker_info[kind].category);
      break;
    case N_MARKER_COLUMNS:
    default:
      g_assert_not_reached ();
    }
}

static void
write_markers (Gecko           *g,
               TvThreadSamples *ts)
{
  static const char * const keys[N_MARKER_COLUMNS] = {
    "\"markers\":{\"data\":[", "],\"name\":[", "],\"startTime\":[", "],\"endTime\":[",
    "],\"phase\":[", "],\"category\":[",
  };
  MarkerWrite mw = { 0, ts->thread, 0 };

  for (guint column = 0; column < N_MARKER_COLUMNS && gecko_check (g); column++)
    {
      tv_json_stream_raw (&g->out, keys[column]);
      mw.column = column;
      mw.n = 0;
      walk_markers (g, ts, write_marker_cell, &mw);
    }
  tv_json_stream_raw (&g->out, "],\"length\":");
  tv_json_stream_uint (&g->out, mw.n);
  tv_json_stream_raw (&g->out, "}");
}

static void
write_thread (Gecko            *g,
              const ThreadInfo *info,
              TvThreadSamples  *ts)
{
  TvJsonStream *out = &g->out;
  const TvThread *t = ts->thread;
  char name[96];

  gecko_tables_reset (g);
  if (t->interpreter_id == 0)
    g_snprintf (name, sizeof name, "Thread-%" G_GUINT64_FORMAT, t->thread_id);
  else
    g_snprintf (name, sizeof name, "Thread-%" G_GUINT64_FORMAT " (interpreter %u)",
                t->thread_id, t->interpreter_id);

  tv_json_stream_raw (out, "{\"name\":");
  tv_json_stream_string (out, name, -1);
  tv_json_stream_raw (out, ",\"isMainThread\":");
  tv_json_stream_raw (out, info->is_main ? "true" : "false");
  tv_json_stream_raw (out,
                      ",\"processStartupTime\":0,\"processShutdownTime\":null,\"registerTime\":0,"
                      "\"unregisterTime\":null,\"pausedRanges\":[],\"pid\":\"0\",\"tid\":");
  tv_json_stream_thread_id (out, t->thread_id);
  tv_json_stream_raw (out, ",\"processType\":\"default\",\"processName\":\"Python Process\",");
  write_samples (g, ts);
  if (!gecko_check (g))
    return;
  tv_json_stream_raw (out, ",");
  gecko_write_tables (g);
  tv_json_stream_raw (out,
                      ",\"nativeSymbols\":{\"libIndex\":[],\"address\":[],\"name\":[],"
                      "\"functionSize\":[],\"length\":0},");
  write_markers (g, ts);
  tv_json_stream_raw (out, "}");
}

/* Before anything is written: which threads have samples the filters
 * select, whether each is the main thread, and the latest sample of all. */
static gboolean
scan_threads (Gecko *g)
{
  g->threads = g_array_new (FALSE, FALSE, sizeof (ThreadInfo));
  g->first_selected = G_MAXUINT64;
  for (guint i = 0; i < g->samples.threads->len && gecko_check (g); i++)
    {
      guint32 index = g_array_index (g->samples.threads, guint32, i);
      TvThreadSamples ts;
      ThreadInfo info = { index, 0, FALSE };
      guint64 timestamp;
      guint8 status;
      guint32 leaf, node;

      if (!tv_thread_samples_init (&ts, &g->samples, index, &g->error))
        return FALSE;
      while (tv_thread_samples_next (&ts, &timestamp, &status, &leaf, &node))
        {
          if (info.n_selected++ == 0)
            info.is_main = (status & TACH_STATUS_MAIN_THREAD) != 0;
          g->first_selected = MIN (g->first_selected, timestamp);
          g->last_timestamp = MAX (g->last_timestamp, timestamp);
          if (info.n_selected % TV_EXPORT_CANCEL_INTERVAL == 0 && !gecko_check (g))
            break;
        }
      tv_thread_samples_clear (&ts);
      if (info.n_selected > 0)
        g_array_append_val (g->threads, info);
    }
  return gecko_check (g);
}

/* Per exact node, whether a frame of a function named "<GC>" (the
 * interpreter's marker for a collection) is on its stack; the profiler's
 * own frames do not count, as the collector filters them out first. */
static void
find_gc_frames (Gecko *g)
{
  const TvExactTree *exact = tv_profile_data_get_tree (g->data);
  guint32 n_frames = tach_reader_get_n_frames (g->reader);
  g_autofree guint8 *is_gc = g_new0 (guint8, MAX (n_frames, 1));
  gboolean any = FALSE;

  for (guint32 frame = 0; frame < n_frames; frame++)
    {
      const char *name = tv_profile_data_get_funcname (g->data, frame);
      const char *file = tv_profile_data_get_filename (g->data, frame);

      if (strcmp (name, "<GC>") == 0 && !tv_profile_file_is_internal (file, strlen (file)))
        any = is_gc[frame] = TRUE;
    }
  if (!any)
    return;

  g->gc_on_stack = g_new0 (guint8, MAX (exact->n_nodes, 1));
  for (guint32 n = 1; n < exact->n_nodes; n++)
    g->gc_on_stack[n] = g->gc_on_stack[tv_exact_tree_parent (exact, n)]
                        || is_gc[tv_exact_tree_frame (exact, n)];
}

static void
gecko_clear (Gecko *g)
{
  tv_export_samples_clear (&g->samples);
  g_clear_pointer (&g->strings, g_ptr_array_unref);
  g_clear_pointer (&g->string_ids, g_hash_table_unref);
  g_clear_pointer (&g->file_ids, g_hash_table_unref);
  g_clear_pointer (&g->file_refs, g_ptr_array_unref);
  g_clear_pointer (&g->threads, g_array_unref);
  g_clear_pointer (&g->gc_on_stack, g_free);
  g_clear_pointer (&g->func_of_function, g_free);
  g_clear_pointer (&g->frame_of_key, g_free);
  g_clear_pointer (&g->stack_of_node, g_free);
  g_clear_pointer (&g->resource_of_file, g_array_unref);
  g_clear_pointer (&g->funcs, g_array_unref);
  g_clear_pointer (&g->frames, g_array_unref);
  g_clear_pointer (&g->stacks, g_array_unref);
  g_clear_pointer (&g->resources, g_array_unref);
  g_clear_pointer (&g->scratch, g_array_unref);
  tv_id_map_clear (&g->frame_ids);
  tv_id_map_clear (&g->stack_ids);
  g_clear_error (&g->error);
}

/**
 * tv_export_gecko_write:
 * @data: a loaded profile
 * @state: the samples and the transforms (its view, but for the merge
 *   key, does not apply)
 * @file: where to write
 * @cancellable: (nullable): a cancellable
 * @error: return location for an error
 *
 * Writes the profile as CPython's gecko collector does (see the top of
 * this file), for the Firefox Profiler, and flushes @file.
 *
 * Returns: %TRUE on success
 */
gboolean
tv_export_gecko_write (TvProfileData         *data,
                       TvViewState           *state,
                       FILE                  *file,
                       GCancellable          *cancellable,
                       GError               **error)
{
  Gecko g = { 0 };
  gboolean ok;

  g_return_val_if_fail (data != NULL, FALSE);
  g_return_val_if_fail (TV_IS_VIEW_STATE (state), FALSE);
  g_return_val_if_fail (file != NULL, FALSE);
  g_return_val_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!tv_export_samples_init (&g.samples, data, state, cancellable, error))
    {
      tv_export_samples_clear (&g.samples);
      return FALSE;
    }
  g.data = data;
  g.reader = tv_profile_data_get_reader (data);
  g.cancellable = cancellable;
  g.strings = g_ptr_array_new_with_free_func (g_free);
  g.string_ids = g_hash_table_new (gecko_str_ref_hash, gecko_str_ref_equal);
  g.file_refs = g_ptr_array_new_with_free_func (g_free);
  g.file_ids = g_hash_table_new (gecko_str_ref_hash, gecko_str_ref_equal);
  g.func_of_function = g_new (guint32, MAX (tv_profile_data_get_n_keys (data, TV_MERGE_FUNCTION), 1));
  g.frame_of_key = g_new (guint32, MAX (tv_profile_data_get_n_keys (data, tv_call_tree_get_merge (g.samples.tree)), 1));
  g.stack_of_node = g_new (guint32, MAX (tv_call_tree_get_n_nodes (g.samples.tree), 1));
  g.resource_of_file = g_array_new (FALSE, FALSE, sizeof (guint32));
  g.funcs = g_array_new (FALSE, FALSE, sizeof (Func));
  g.frames = g_array_new (FALSE, FALSE, sizeof (Frame));
  g.stacks = g_array_new (FALSE, FALSE, sizeof (Stack));
  g.resources = g_array_new (FALSE, FALSE, sizeof (guint32));
  g.scratch = g_array_new (FALSE, FALSE, sizeof (guint32));
  tv_id_map_init (&g.frame_ids);
  tv_id_map_init (&g.stack_ids);
  /* The collector's string array starts with the root's name. */
  gecko_intern_static (&g, "(root)");
  find_gc_frames (&g);

  if (!scan_threads (&g))
    {
      g_propagate_error (error, g_steal_pointer (&g.error));
      gecko_clear (&g);
      return FALSE;
    }
  /* The Firefox Profiler refuses a profile without threads ("there is
   * nothing to display"): better said now than by a file it cannot open. */
  if (g.threads->len == 0)
    {
      g_set_error_literal (error, TV_EXPORT_ERROR, TV_EXPORT_ERROR_NO_SAMPLES,
                           _("No samples to export: the Firefox Profiler cannot open a "
                             "profile without samples"));
      gecko_clear (&g);
      return FALSE;
    }

  tv_json_stream_init (&g.out, file);
  tv_json_stream_raw (&g.out, "{");
  write_meta (&g);
  tv_json_stream_raw (&g.out, ",\"libs\":[],\"threads\":[");
  for (guint i = 0; i < g.threads->len && gecko_check (&g); i++)
    {
      const ThreadInfo *info = &g_array_index (g.threads, ThreadInfo, i);
      TvThreadSamples ts;

      tv_progress_report (g.cancellable,
                          TV_EXPORT_SAMPLES_TREE_SHARE
                          + (1.0 - TV_EXPORT_SAMPLES_TREE_SHARE) * i / g.threads->len);
      if (!tv_thread_samples_init (&ts, &g.samples, info->index, &g.error))
        break;
      comma (&g, i);
      write_thread (&g, info, &ts);
      tv_thread_samples_clear (&ts);
    }
  tv_json_stream_raw (&g.out, "],\"pages\":[],\"shared\":{\"stringArray\":[");
  for (guint i = 0; i < g.strings->len; i++)
    {
      const StrRef *ref = g_ptr_array_index (g.strings, i);

      comma (&g, i);
      tv_json_stream_string (&g.out, ref->str, ref->len);
    }
  tv_json_stream_raw (&g.out, "],\"sources\":{\"length\":0,\"uuid\":[],\"filename\":[]}}}\n");

  ok = tv_json_stream_finish (&g.out, &g.error, error);
  gecko_clear (&g);
  return ok;
}

/* The writer tv_export_stream_save() takes: a gecko profile names no
 * source. */
static gboolean
write_gecko (TvProfileData         *data,
             TvViewState           *state,
             const char            *source_name,
             FILE                  *out,
             GCancellable          *cancellable,
             GError               **error)
{
  return tv_export_gecko_write (data, state, out, cancellable, error);
}

gboolean
tv_export_gecko_save (TvProfileData         *data,
                      TvViewState           *state,
                      const char            *out_path,
                      GCancellable          *cancellable,
                      GError               **error)
{
  return tv_export_stream_save (write_gecko, data, state, NULL, out_path, cancellable, error);
}
