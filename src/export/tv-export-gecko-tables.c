/* tv-export-gecko-tables.c: the Firefox Profiler export's tables
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The shared string array and each thread's stack, frame, function and
 * resource tables: made on first use as the samples are walked, and
 * written once the thread's samples are.
 */
#include <string.h>

#include "tv-export-gecko-private.h"

guint
gecko_str_ref_hash (gconstpointer key)
{
  const StrRef *ref = key;
  guint hash = 2166136261u;

  for (gsize i = 0; i < ref->len; i++)
    hash = (hash ^ (guchar) ref->str[i]) * 16777619u;
  return hash;
}

gboolean
gecko_str_ref_equal (gconstpointer a,
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

guint32
gecko_intern_static (Gecko      *g,
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

gboolean
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
guint32
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

void
gecko_tables_reset (Gecko *g)
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

void
gecko_write_null_or_int (Gecko  *g,
                         gint64  value,
                         gint64  none)
{
  if (value == none)
    tv_json_stream_raw (&g->out, "null");
  else
    tv_json_stream_int (&g->out, value);
}

/* N copies of TEXT, comma-separated. */
void
gecko_write_repeated (Gecko      *g,
                      const char *text,
                      guint64     n)
{
  for (guint64 i = 0; i < n; i++)
    {
      comma (g, i);
      tv_json_stream_raw (&g->out, text);
    }
}

void
gecko_write_stack_table (Gecko *g)
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
  gecko_write_repeated (g, "0", n);
  tv_json_stream_raw (out, "],\"prefix\":[");
  for (guint i = 0; i < n; i++)
    {
      comma (g, i);
      gecko_write_null_or_int (g, g_array_index (g->stacks, Stack, i).prefix, NONE);
    }
  tv_json_stream_raw (out, "],\"length\":");
  tv_json_stream_uint (out, n);
  tv_json_stream_raw (out, "}");
}

void
gecko_write_frame_table (Gecko *g)
{
  TvJsonStream *out = &g->out;
  guint n = g->frames->len;

  tv_json_stream_raw (out, "\"frameTable\":{\"address\":[");
  gecko_write_repeated (g, "-1", n);
  tv_json_stream_raw (out, "],\"category\":[");
  for (guint i = 0; i < n; i++)
    {
      comma (g, i);
      tv_json_stream_uint (out, g_array_index (g->frames, Frame, i).category);
    }
  tv_json_stream_raw (out, "],\"subcategory\":[");
  gecko_write_repeated (g, "0", n);
  tv_json_stream_raw (out, "],\"func\":[");
  for (guint i = 0; i < n; i++)
    {
      comma (g, i);
      tv_json_stream_uint (out, g_array_index (g->frames, Frame, i).func);
    }
  tv_json_stream_raw (out, "],\"innerWindowID\":[");
  gecko_write_repeated (g, "null", n);
  tv_json_stream_raw (out, "],\"implementation\":[");
  gecko_write_repeated (g, "null", n);
  tv_json_stream_raw (out, "],\"optimizations\":[");
  gecko_write_repeated (g, "null", n);
  tv_json_stream_raw (out, "],\"line\":[");
  for (guint i = 0; i < n; i++)
    {
      gint32 line = g_array_index (g->frames, Frame, i).line;

      comma (g, i);
      /* The collector writes `lineno if lineno else None`. */
      gecko_write_null_or_int (g, line == -1 ? 0 : line, 0);
    }
  tv_json_stream_raw (out, "],\"column\":[");
  for (guint i = 0; i < n; i++)
    {
      comma (g, i);
      gecko_write_null_or_int (g, g_array_index (g->frames, Frame, i).column, -1);
    }
  tv_json_stream_raw (out, "],\"inlineDepth\":[");
  gecko_write_repeated (g, "0", n);
  tv_json_stream_raw (out, "],\"nativeSymbol\":[");
  gecko_write_repeated (g, "null", n);
  tv_json_stream_raw (out, "],\"length\":");
  tv_json_stream_uint (out, n);
  tv_json_stream_raw (out, "}");
}

void
gecko_write_func_table (Gecko *g)
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
      gecko_write_null_or_int (g, g_array_index (g->funcs, Func, i).file_name, NONE);
    }
  tv_json_stream_raw (out, "],\"lineNumber\":[");
  for (guint i = 0; i < n; i++)
    {
      comma (g, i);
      gecko_write_null_or_int (g, g_array_index (g->funcs, Func, i).line, -1);
    }
  tv_json_stream_raw (out, "],\"columnNumber\":[");
  gecko_write_repeated (g, "null", n);
  tv_json_stream_raw (out, "],\"length\":");
  tv_json_stream_uint (out, n);
  tv_json_stream_raw (out, "}");
}

void
gecko_write_resource_table (Gecko *g)
{
  TvJsonStream *out = &g->out;
  guint n = g->resources->len;

  tv_json_stream_raw (out, "\"resourceTable\":{\"lib\":[");
  gecko_write_repeated (g, "null", n);
  tv_json_stream_raw (out, "],\"name\":[");
  for (guint i = 0; i < n; i++)
    {
      comma (g, i);
      tv_json_stream_uint (out, g_array_index (g->resources, guint32, i));
    }
  tv_json_stream_raw (out, "],\"host\":[");
  gecko_write_repeated (g, "null", n);
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
