/* tv-export-gecko-private.h: what the Firefox Profiler export's files share
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "tachyon-format.h"
#include "tv-export-gecko.h"
#include "tv-export-stream.h"

G_BEGIN_DECLS

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

/* Separates the items of an array. */
static inline void
comma (Gecko  *g,
       guint64 i)
{
  if (i > 0)
    tv_json_stream_raw (&g->out, ",");
}

guint gecko_str_ref_hash (gconstpointer key);

gboolean gecko_str_ref_equal (gconstpointer a,
                              gconstpointer b);

guint32 gecko_intern_static (Gecko      *g,
                             const char *str);

gboolean gecko_check (Gecko *g);

guint32 gecko_stack (Gecko   *g,
                     guint32  node);

void gecko_tables_reset (Gecko *g);

void gecko_write_repeated (Gecko      *g,
                           const char *text,
                           guint64     n);

/* The stack, frame, function and resource tables of the thread being
 * written, comma-separated. */
void gecko_write_tables (Gecko *g);

G_END_DECLS
