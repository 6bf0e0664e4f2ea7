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

#define GECKO_FORMAT_VERSION        32
#define GECKO_PREPROCESSED_VERSION  57
#define RESOURCE_TYPE_LIBRARY       1

/* The collector's categories, in its order. */
enum
{
  CATEGORY_OTHER,
  CATEGORY_PYTHON,
  CATEGORY_NATIVE,
  CATEGORY_GC,
  CATEGORY_GIL,
  CATEGORY_CPU,
  CATEGORY_CODE_TYPE,
  CATEGORY_OPCODES,
  CATEGORY_EXCEPTION,
};

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

#define NONE G_MAXUINT32

typedef struct
{
  const char *str;
  gsize       len;
} StrRef;

typedef struct
{
  guint32  name;                 /* string */
  gboolean is_python;
  guint32  resource;
  guint32  file_name;            /* string, or NONE */
  gint32   line;                 /* -1: null */
} Func;

typedef struct
{
  guint32 func;
  gint32  line;                  /* -1: absent */
  gint32  column;                /* -1: absent */
  guint8  category;
} Frame;

typedef struct
{
  guint32 frame;
  guint32 prefix;                /* NONE: a root */
  guint8  category;
} Stack;

/* What one selected thread gives: found before any thread is written,
 * since the open states of every thread close at the latest sample of
 * them all. */
typedef struct
{
  guint32 index;                 /* TvThread.index */
  guint64 n_selected;            /* samples the filters select */
  gboolean is_main;              /* the first of them has MAIN_THREAD */
} ThreadInfo;

typedef struct
{
  TvExportSamples  samples;
  TvProfileData   *data;
  TachReader      *reader;
  TvJsonStream     out;
  GCancellable    *cancellable;
  GError          *error;        /* the first; the walks stop */

  /* The shared string array. */
  GPtrArray       *strings;      /* StrRef, by index */
  GHashTable      *string_ids;   /* StrRef -> index + 1 */
  /* File names by content: a resource per file name. */
  GHashTable      *file_ids;     /* StrRef -> id + 1 */
  GPtrArray       *file_refs;    /* StrRef, owned by file_ids */

  GArray          *threads;      /* ThreadInfo */
  /* The earliest and latest samples the filters select, of all threads. */
  guint64          first_selected;
  guint64          last_timestamp;
  /* Per exact node, whether a "<GC>" frame is on its stack; NULL when no
   * function has that name. */
  guint8          *gc_on_stack;

  /* The tables of the thread being written. */
  guint32         *func_of_function;   /* function key -> func */
  guint32         *frame_of_key;       /* merge key -> frame */
  guint32         *stack_of_node;      /* tree node -> stack */
  GArray          *resource_of_file;   /* file id -> resource */
  GArray          *funcs;              /* Func */
  GArray          *frames;             /* Frame */
  GArray          *stacks;             /* Stack */
  GArray          *resources;          /* guint32: the name string */
  TvIdMap          frame_ids;
  TvIdMap          stack_ids;
  GArray          *scratch;            /* guint32 tree nodes */
} Gecko;

static guint
str_ref_hash (gconstpointer key)
{
  const StrRef *ref = key;
  guint hash = 2166136261u;

  for (gsize i = 0; i < ref->len; i++)
    hash = (hash ^ (guchar) ref->str[i]) * 16777619u;
  return hash;
}

static gboolean
str_ref_equal (gconstpointer a,
               gconstpointer b)
{
  const StrRef *ra = a;
  const StrRef *rb = b;

  return ra->len == rb->len && memcmp (ra->str, rb->str, ra->len) == 0;
}

/* The index of STR in the string array, added on first use.  STR is the
 * reader's or static: it outlives the export. */
static guint32
intern (Gecko      *g,
        const char *str,
        gsize       len)
{
  StrRef key = { str, len };
  gpointer value;
  StrRef *ref;

  if (g_hash_table_lookup_extended (g->string_ids, &key, NULL, &value))
    return GPOINTER_TO_UINT (value) - 1;
  ref = g_new (StrRef, 1);
  *ref = key;
  g_ptr_array_add (g->strings, ref);
  g_hash_table_insert (g->string_ids, ref, GUINT_TO_POINTER (g->strings->len));
  return g->strings->len - 1;
}

static guint32
intern_static (Gecko      *g,
               const char *str)
{
  return intern (g, str, strlen (str));
}

static guint32
file_id (Gecko      *g,
         const char *str,
         gsize       len)
{
  StrRef key = { str, len };
  gpointer value;
  StrRef *ref;

  if (g_hash_table_lookup_extended (g->file_ids, &key, NULL, &value))
    return GPOINTER_TO_UINT (value) - 1;
  ref = g_new (StrRef, 1);
  *ref = key;
  g_ptr_array_add (g->file_refs, ref);
  g_hash_table_insert (g->file_ids, ref, GUINT_TO_POINTER (g->file_refs->len));
  return g->file_refs->len - 1;
}

/* The collector's test: a file name in angle brackets is not Python code,
 * but for <stdin> and <string>. */
static gboolean
file_is_python (const char *name,
                gsize       len)
{
  if (len == 0 || name[0] != '<')
    return TRUE;
  return (len == 7 && memcmp (name, "<stdin>", 7) == 0)
         || (len == 8 && memcmp (name, "<string>", 8) == 0);
}

/* What follows the last '/', as os.path.basename() on POSIX. */
static void
basename_of (const char  *name,
             gsize        len,
             const char **base,
             gsize       *base_len)
{
  gsize start = len;

  while (start > 0 && name[start - 1] != '/')
    start--;
  *base = name + start;
  *base_len = len - start;
}

static gboolean
gecko_check (Gecko *g)
{
  if (g->error == NULL)
    g_cancellable_set_error_if_cancelled (g->cancellable, &g->error);
  return g->error == NULL;
}

/* ------------------------------------------------------------------------ */
/* Tables                                                                    */
/* ------------------------------------------------------------------------ */

static const char *
reader_string (Gecko   *g,
               guint32  index,
               gsize   *len)
{
  size_t n = 0;
  const char *str = tach_reader_get_string (g->reader, index, &n);

  /* A frame the decoder let through has both strings. */
  g_assert (str != NULL);
  *len = n;
  return str;
}

static guint32
gecko_resource (Gecko      *g,
                const char *filename,
                gsize       len)
{
  guint32 id = file_id (g, filename, len);
  guint32 *slot;

  if (id >= g->resource_of_file->len)
    {
      guint old = g->resource_of_file->len;

      g_array_set_size (g->resource_of_file, id + 1);
      memset (&g_array_index (g->resource_of_file, guint32, old), 0xff,
              (id + 1 - old) * sizeof (guint32));
    }
  slot = &g_array_index (g->resource_of_file, guint32, id);
  if (*slot == NONE)
    {
      const char *name = filename;
      gsize name_len = len;
      guint32 string;

      /* The collector names a resource after the file's base name when it
       * has a folder; a name in angle brackets is no path, and keeps the
       * whole of it.  The Firefox Profiler makes one resource of those of
       * one name (in any thread): a function's file keeps them apart. */
      if (file_is_python (filename, len) && memchr (filename, '/', len) != NULL)
        basename_of (filename, len, &name, &name_len);
      string = intern (g, name, name_len);
      *slot = g->resources->len;
      g_array_append_val (g->resources, string);
    }
  return *slot;
}

static guint32
gecko_func (Gecko               *g,
            const TvExportFrame *ef,
            guint32              file_frame)
{
  if (g->func_of_function[ef->function] == NONE)
    {
      const TachFrame *f = tach_reader_get_frame (g->reader, file_frame);
      const char *funcname, *filename;
      gsize funcname_len, filename_len;
      Func func;

      funcname = reader_string (g, f->funcname, &funcname_len);
      filename = reader_string (g, f->filename, &filename_len);
      func.name = intern (g, funcname, funcname_len);
      func.is_python = file_is_python (filename, filename_len);
      func.resource = gecko_resource (g, filename, filename_len);
      func.file_name = NONE;
      func.line = -1;
      if (func.is_python)
        {
          /* The whole path, where the collector writes its base name: the
           * Firefox Profiler makes one function of those whose name,
           * resource, file and line are the same (in any thread), so the
           * functions of two files of one base name (two packages'
           * __init__.py) would count as one, and show the wrong totals. */
          func.file_name = intern (g, filename, filename_len);
          /* The line of the frame the function was first seen in. */
          func.line = ef->line;
        }
      g->func_of_function[ef->function] = g->funcs->len;
      g_array_append_val (g->funcs, func);
    }
  return g->func_of_function[ef->function];
}

/* The frame of tree node NODE: a function, a line and a column, as the
 * collector keys them. */
static guint32
gecko_frame (Gecko   *g,
             guint32  node)
{
  TvCallTree *tree = g->samples.tree;
  guint32 key = tv_call_tree_get_key (tree, node);

  if (g->frame_of_key[key] == NONE)
    {
      TvExportFrame ef;
      Frame frame;
      gboolean added;
      guint32 id;

      tv_export_samples_get_frame (&g->samples, node, &ef);
      /* A frame without a line has no column either: CPython's replay
       * gives it no location at all. */
      if (ef.line == -1)
        ef.column = -1;
      if (ef.column < 0)
        ef.column = -1;
      frame.func = gecko_func (g, &ef, tv_call_tree_get_frame (tree, node));
      frame.line = ef.line;
      frame.column = ef.column;
      frame.category = g_array_index (g->funcs, Func, frame.func).is_python ? CATEGORY_PYTHON
                                                                            : CATEGORY_NATIVE;
      id = tv_id_map_insert (&g->frame_ids, (guint64) frame.func << 32 | (guint32) frame.line,
                             (guint32) frame.column, &added);
      if (added)
        g_array_append_val (g->frames, frame);
      g->frame_of_key[key] = id;
    }
  return g->frame_of_key[key];
}

/* The stack of tree node NODE, made with its prefixes on first use. */
static guint32
gecko_stack (Gecko   *g,
             guint32  node)
{
  TvCallTree *tree = g->samples.tree;
  guint32 prefix;
  guint32 u;

  g_array_set_size (g->scratch, 0);
  for (u = node; u != TV_ROOT_NODE && g->stack_of_node[u] == NONE;
       u = tv_call_tree_get_parent (tree, u))
    g_array_append_val (g->scratch, u);
  prefix = u == TV_ROOT_NODE ? NONE : g->stack_of_node[u];

  for (guint i = g->scratch->len; i > 0; i--)
    {
      guint32 v = g_array_index (g->scratch, guint32, i - 1);
      Stack stack;
      gboolean added;
      guint32 id;

      stack.frame = gecko_frame (g, v);
      stack.prefix = prefix;
      stack.category = g_array_index (g->frames, Frame, stack.frame).category;
      id = tv_id_map_insert (&g->stack_ids, (guint64) stack.prefix, stack.frame, &added);
      if (added)
        g_array_append_val (g->stacks, stack);
      g->stack_of_node[v] = id;
      prefix = id;
    }
  return g->stack_of_node[node];
}

static void
tables_reset (Gecko *g)
{
  guint32 n_functions = tv_profile_data_get_n_keys (g->data, TV_MERGE_FUNCTION);
  guint32 n_keys = tv_profile_data_get_n_keys (g->data, tv_call_tree_get_merge (g->samples.tree));
  guint32 n_nodes = tv_call_tree_get_n_nodes (g->samples.tree);

  memset (g->func_of_function, 0xff, MAX (n_functions, 1) * sizeof (guint32));
  memset (g->frame_of_key, 0xff, MAX (n_keys, 1) * sizeof (guint32));
  memset (g->stack_of_node, 0xff, MAX (n_nodes, 1) * sizeof (guint32));
  if (g->resource_of_file->len > 0)
    memset (g->resource_of_file->data, 0xff, g->resource_of_file->len * sizeof (guint32));
  g_array_set_size (g->funcs, 0);
  g_array_set_size (g->frames, 0);
  g_array_set_size (g->stacks, 0);
  g_array_set_size (g->resources, 0);
  tv_id_map_clear (&g->frame_ids);
  tv_id_map_clear (&g->stack_ids);
  tv_id_map_init (&g->frame_ids);
  tv_id_map_init (&g->stack_ids);
}

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

/* Separates the items of an array. */
static inline void
comma (Gecko  *g,
       guint64 i)
{
  if (i > 0)
    tv_json_stream_raw (&g->out, ",");
}

static void
write_null_or_int (Gecko  *g,
                   gint64  value,
                   gint64  none)
{
  if (value == none)
    tv_json_stream_raw (&g->out, "null");
  else
    tv_json_stream_int (&g->out, value);
}

/* N copies of TEXT, comma-separated. */
static void
write_repeated (Gecko      *g,
                const char *text,
                guint64     n)
{
  for (guint64 i = 0; i < n; i++)
    {
      comma (g, i);
      tv_json_stream_raw (&g->out, text);
    }
}

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
  write_repeated (g, "null", n);
  tv_json_stream_raw (out, "],\"weight\":null,\"weightType\":\"samples\",\"length\":");
  tv_json_stream_uint (out, n);
  tv_json_stream_raw (out, "}");
  return n;
}

static void
write_stack_table (Gecko *g)
{
  TvJsonStream *out = &g->out;
  guint n = g->stacks->len;

  tv_json_stream_raw (out, "\"stackTable\":{\"frame\":[");
  for (guint i = 0; i < n; i++)
    {
      comma (g, i);
      tv_json_stream_uint (out, g_array_index (g->stacks, Stack, i).frame);
    }
  tv_json_stream_raw (out, "],\"category\":[");
  for (guint i = 0; i < n; i++)
    {
      comma (g, i);
      tv_json_stream_uint (out, g_array_index (g->stacks, Stack, i).category);
    }
  tv_json_stream_raw (out, "],\"subcategory\":[");
  write_repeated (g, "0", n);
  tv_json_stream_raw (out, "],\"prefix\":[");
  for (guint i = 0; i < n; i++)
    {
      comma (g, i);
      write_null_or_int (g, g_array_index (g->stacks, Stack, i).prefix, NONE);
    }
  tv_json_stream_raw (out, "],\"length\":");
  tv_json_stream_uint (out, n);
  tv_json_stream_raw (out, "}");
}

static void
write_frame_table (Gecko *g)
{
  TvJsonStream *out = &g->out;
  guint n = g->frames->len;

  tv_json_stream_raw (out, "\"frameTable\":{\"address\":[");
  write_repeated (g, "-1", n);
  tv_json_stream_raw (out, "],\"category\":[");
  for (guint i = 0; i < n; i++)
    {
      comma (g, i);
      tv_json_stream_uint (out, g_array_index (g->frames, Frame, i).category);
    }
  tv_json_stream_raw (out, "],\"subcategory\":[");
  write_repeated (g, "0", n);
  tv_json_stream_raw (out, "],\"func\":[");
  for (guint i = 0; i < n; i++)
    {
      comma (g, i);
      tv_json_stream_uint (out, g_array_index (g->frames, Frame, i).func);
    }
  tv_json_stream_raw (out, "],\"innerWindowID\":[");
  write_repeated (g, "null", n);
  tv_json_stream_raw (out, "],\"implementation\":[");
  write_repeated (g, "null", n);
  tv_json_stream_raw (out, "],\"optimizations\":[");
  write_repeated (g, "null", n);
  tv_json_stream_raw (out, "],\"line\":[");
  for (guint i = 0; i < n; i++)
    {
      gint32 line = g_array_index (g->frames, Frame, i).line;

      comma (g, i);
      /* The collector writes `lineno if lineno else None`. */
      write_null_or_int (g, line == -1 ? 0 : line, 0);
    }
  tv_json_stream_raw (out, "],\"column\":[");
  for (guint i = 0; i < n; i++)
    {
      comma (g, i);
      write_null_or_int (g, g_array_index (g->frames, Frame, i).column, -1);
    }
  tv_json_stream_raw (out, "],\"inlineDepth\":[");
  write_repeated (g, "0", n);
  tv_json_stream_raw (out, "],\"nativeSymbol\":[");
  write_repeated (g, "null", n);
  tv_json_stream_raw (out, "],\"length\":");
  tv_json_stream_uint (out, n);
  tv_json_stream_raw (out, "}");
}

static void
write_func_table (Gecko *g)
{
  TvJsonStream *out = &g->out;
  guint n = g->funcs->len;

  tv_json_stream_raw (out, "\"funcTable\":{\"name\":[");
  for (guint i = 0; i < n; i++)
    {
      comma (g, i);
      tv_json_stream_uint (out, g_array_index (g->funcs, Func, i).name);
    }
  /* isJS and relevantForJS: Python code is the profiler's "JS". */
  for (guint column = 0; column < 2; column++)
    {
      tv_json_stream_raw (out, column == 0 ? "],\"isJS\":[" : "],\"relevantForJS\":[");
      for (guint i = 0; i < n; i++)
        {
          comma (g, i);
          tv_json_stream_raw (out, g_array_index (g->funcs, Func, i).is_python ? "true" : "false");
        }
    }
  tv_json_stream_raw (out, "],\"resource\":[");
  for (guint i = 0; i < n; i++)
    {
      comma (g, i);
      tv_json_stream_uint (out, g_array_index (g->funcs, Func, i).resource);
    }
  tv_json_stream_raw (out, "],\"fileName\":[");
  for (guint i = 0; i < n; i++)
    {
      comma (g, i);
      write_null_or_int (g, g_array_index (g->funcs, Func, i).file_name, NONE);
    }
  tv_json_stream_raw (out, "],\"lineNumber\":[");
  for (guint i = 0; i < n; i++)
    {
      comma (g, i);
      write_null_or_int (g, g_array_index (g->funcs, Func, i).line, -1);
    }
  tv_json_stream_raw (out, "],\"columnNumber\":[");
  write_repeated (g, "null", n);
  tv_json_stream_raw (out, "],\"length\":");
  tv_json_stream_uint (out, n);
  tv_json_stream_raw (out, "}");
}

static void
write_resource_table (Gecko *g)
{
  TvJsonStream *out = &g->out;
  guint n = g->resources->len;

  tv_json_stream_raw (out, "\"resourceTable\":{\"lib\":[");
  write_repeated (g, "null", n);
  tv_json_stream_raw (out, "],\"name\":[");
  for (guint i = 0; i < n; i++)
    {
      comma (g, i);
      tv_json_stream_uint (out, g_array_index (g->resources, guint32, i));
    }
  tv_json_stream_raw (out, "],\"host\":[");
  write_repeated (g, "null", n);
  tv_json_stream_raw (out, "],\"type\":[");
  for (guint i = 0; i < n; i++)
    {
      comma (g, i);
      tv_json_stream_uint (out, RESOURCE_TYPE_LIBRARY);
    }
  tv_json_stream_raw (out, "],\"length\":");
  tv_json_stream_uint (out, n);
  tv_json_stream_raw (out, "}");
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
      tv_json_stream_uint (out, intern_static (g, marker_info[kind].name));
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

  tables_reset (g);
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
  write_stack_table (g);
  tv_json_stream_raw (out, ",");
  write_frame_table (g);
  tv_json_stream_raw (out, ",");
  write_func_table (g);
  tv_json_stream_raw (out, ",");
  write_resource_table (g);
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
    g->gc_on_stack[n] = g->gc_on_stack[exact->parent[n]] || is_gc[exact->frame[n]];
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
 * @filter: the samples and the transforms (its view, but for the merge
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
                       const TvExportFilter  *filter,
                       FILE                  *file,
                       GCancellable          *cancellable,
                       GError               **error)
{
  Gecko g = { 0 };
  gboolean ok;

  g_return_val_if_fail (data != NULL, FALSE);
  g_return_val_if_fail (filter != NULL, FALSE);
  g_return_val_if_fail (file != NULL, FALSE);
  g_return_val_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!tv_export_samples_init (&g.samples, data, filter, cancellable, error))
    {
      tv_export_samples_clear (&g.samples);
      return FALSE;
    }
  g.data = data;
  g.reader = tv_profile_data_get_reader (data);
  g.cancellable = cancellable;
  g.strings = g_ptr_array_new_with_free_func (g_free);
  g.string_ids = g_hash_table_new (str_ref_hash, str_ref_equal);
  g.file_refs = g_ptr_array_new_with_free_func (g_free);
  g.file_ids = g_hash_table_new (str_ref_hash, str_ref_equal);
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
  intern_static (&g, "(root)");
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

  ok = tv_json_stream_finish (&g.out, g.error == NULL ? error : NULL);
  if (g.error != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&g.error));
      ok = FALSE;
    }
  gecko_clear (&g);
  return ok;
}

typedef struct
{
  TvProfileData        *data;
  const TvExportFilter *filter;
  GCancellable         *cancellable;
} SaveJob;

static gboolean
save_func (FILE      *file,
           gpointer   user_data,
           GError   **error)
{
  SaveJob *job = user_data;

  return tv_export_gecko_write (job->data, job->filter, file, job->cancellable, error);
}

gboolean
tv_export_gecko_save (TvProfileData         *data,
                      const TvExportFilter  *filter,
                      const char            *out_path,
                      GCancellable          *cancellable,
                      GError               **error)
{
  SaveJob job = { data, filter, cancellable };

  g_return_val_if_fail (out_path != NULL, FALSE);

  return tv_atomic_write (out_path, save_func, &job, error);
}
