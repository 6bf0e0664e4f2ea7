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

/* The index of STR in REFS, whose indices plus one IDS maps them to, added
 * on first use.  STR is the reader's or static: it outlives the export. */
static guint32
ref_index (GHashTable *ids,
           GPtrArray  *refs,
           const char *str,
           gsize       len)
{
  StrRef key = { str, len };
  gpointer value;
  StrRef *ref;

  if (g_hash_table_lookup_extended (ids, &key, NULL, &value))
    return GPOINTER_TO_UINT (value) - 1;
  ref = g_new (StrRef, 1);
  *ref = key;
  g_ptr_array_add (refs, ref);
  g_hash_table_insert (ids, ref, GUINT_TO_POINTER (refs->len));
  return refs->len - 1;
}

/* The index of STR in the string array. */
static guint32
intern (Gecko      *g,
        const char *str,
        gsize       len)
{
  return ref_index (g->string_ids, g->strings, str, len);
}

guint32
gecko_intern_static (Gecko      *g,
                     const char *str)
{
  return intern (g, str, strlen (str));
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
  guint32 id = ref_index (g->file_ids, g->file_refs, filename, len);
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

/* What a column of a table holds, row by row. */
typedef enum
{
  COLUMN_TEXT,                   /* the column's text in every row */
  COLUMN_UINT,                   /* the row's guint32 */
  COLUMN_UINT_OR_NULL,           /* the row's guint32, null for NONE */
  COLUMN_INT_OR_NULL,            /* the row's gint32, null for -1 */
  /* The row's gint32 line: the collector writes `lineno if lineno else
   * None`. */
  COLUMN_LINE,
  COLUMN_CATEGORY,               /* the row's guint8 */
  COLUMN_BOOL,                   /* the row's gboolean */
} ColumnKind;

typedef struct
{
  const char *name;
  ColumnKind  kind;
  glong       offset;            /* of the row's field */
  const char *text;
} Column;

static void
write_cell (Gecko        *g,
            ColumnKind    kind,
            gconstpointer row,
            glong         offset)
{
  switch (kind)
    {
    case COLUMN_UINT:
      tv_json_stream_uint (&g->out, G_STRUCT_MEMBER (guint32, row, offset));
      break;
    case COLUMN_UINT_OR_NULL:
      write_null_or_int (g, G_STRUCT_MEMBER (guint32, row, offset), NONE);
      break;
    case COLUMN_INT_OR_NULL:
      write_null_or_int (g, G_STRUCT_MEMBER (gint32, row, offset), -1);
      break;
    case COLUMN_LINE:
      {
        gint32 line = G_STRUCT_MEMBER (gint32, row, offset);

        write_null_or_int (g, line == -1 ? 0 : line, 0);
      }
      break;
    case COLUMN_CATEGORY:
      tv_json_stream_uint (&g->out, G_STRUCT_MEMBER (guint8, row, offset));
      break;
    case COLUMN_BOOL:
      tv_json_stream_raw (&g->out, G_STRUCT_MEMBER (gboolean, row, offset) ? "true" : "false");
      break;
    case COLUMN_TEXT:
    default:
      g_assert_not_reached ();
    }
}

/* `"NAME":{…}`: the N_COLUMNS COLUMNS of ROWS, one array each, and their
 * length. */
static void
write_table (Gecko        *g,
             const char   *name,
             GArray       *rows,
             const Column *columns,
             gsize         n_columns)
{
  TvJsonStream *out = &g->out;
  guint size = g_array_get_element_size (rows);
  guint n = rows->len;

  tv_json_stream_raw (out, "\"");
  tv_json_stream_raw (out, name);
  tv_json_stream_raw (out, "\":{");
  for (gsize c = 0; c < n_columns; c++)
    {
      tv_json_stream_raw (out, c == 0 ? "\"" : "],\"");
      tv_json_stream_raw (out, columns[c].name);
      tv_json_stream_raw (out, "\":[");
      if (columns[c].kind == COLUMN_TEXT)
        {
          gecko_write_repeated (g, columns[c].text, n);
          continue;
        }
      for (guint i = 0; i < n; i++)
        {
          comma (g, i);
          write_cell (g, columns[c].kind, rows->data + (gsize) i * size, columns[c].offset);
        }
    }
  tv_json_stream_raw (out, "],\"length\":");
  tv_json_stream_uint (out, n);
  tv_json_stream_raw (out, "}");
}

static const Column stack_columns[] = {
  { "frame", COLUMN_UINT, G_STRUCT_OFFSET (Stack, frame) },
  { "category", COLUMN_CATEGORY, G_STRUCT_OFFSET (Stack, category) },
  { "subcategory", COLUMN_TEXT, 0, "0" },
  { "prefix", COLUMN_UINT_OR_NULL, G_STRUCT_OFFSET (Stack, prefix) },
};

static const Column frame_columns[] = {
  { "address", COLUMN_TEXT, 0, "-1" },
  { "category", COLUMN_CATEGORY, G_STRUCT_OFFSET (Frame, category) },
  { "subcategory", COLUMN_TEXT, 0, "0" },
  { "func", COLUMN_UINT, G_STRUCT_OFFSET (Frame, func) },
  { "innerWindowID", COLUMN_TEXT, 0, "null" },
  { "implementation", COLUMN_TEXT, 0, "null" },
  { "optimizations", COLUMN_TEXT, 0, "null" },
  { "line", COLUMN_LINE, G_STRUCT_OFFSET (Frame, line) },
  { "column", COLUMN_INT_OR_NULL, G_STRUCT_OFFSET (Frame, column) },
  { "inlineDepth", COLUMN_TEXT, 0, "0" },
  { "nativeSymbol", COLUMN_TEXT, 0, "null" },
};

/* isJS and relevantForJS: Python code is the profiler's "JS". */
static const Column func_columns[] = {
  { "name", COLUMN_UINT, G_STRUCT_OFFSET (Func, name) },
  { "isJS", COLUMN_BOOL, G_STRUCT_OFFSET (Func, is_python) },
  { "relevantForJS", COLUMN_BOOL, G_STRUCT_OFFSET (Func, is_python) },
  { "resource", COLUMN_UINT, G_STRUCT_OFFSET (Func, resource) },
  { "fileName", COLUMN_UINT_OR_NULL, G_STRUCT_OFFSET (Func, file_name) },
  { "lineNumber", COLUMN_INT_OR_NULL, G_STRUCT_OFFSET (Func, line) },
  { "columnNumber", COLUMN_TEXT, 0, "null" },
};

/* A resource is its name's string. */
static const Column resource_columns[] = {
  { "lib", COLUMN_TEXT, 0, "null" },
  { "name", COLUMN_UINT, 0 },
  { "host", COLUMN_TEXT, 0, "null" },
  { "type", COLUMN_TEXT, 0, G_STRINGIFY (RESOURCE_TYPE_LIBRARY) },
};

void
gecko_write_tables (Gecko *g)
{
  write_table (g, "stackTable", g->stacks, stack_columns, G_N_ELEMENTS (stack_columns));
  tv_json_stream_raw (&g->out, ",");
  write_table (g, "frameTable", g->frames, frame_columns, G_N_ELEMENTS (frame_columns));
  tv_json_stream_raw (&g->out, ",");
  write_table (g, "funcTable", g->funcs, func_columns, G_N_ELEMENTS (func_columns));
  tv_json_stream_raw (&g->out, ",");
  write_table (g, "resourceTable", g->resources, resource_columns,
               G_N_ELEMENTS (resource_columns));
}
