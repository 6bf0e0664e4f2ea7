/* tv-source-lines.h: a function's samples by line and instruction, and its file
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The source view's worker (private to src/widgets/).
 */
#pragma once

#include <gio/gio.h>

#include "tv-call-tree.h"

G_BEGIN_DECLS

typedef struct
{
  int     line;
  guint64 total;
  guint64 self;
} TvSourceLineCount;

typedef struct
{
  int     line;
  int     column;
  int     end_column;
  guint8  opcode;
  guint64 total;
  guint64 self;
} TvSourceInstructionCount;

/* What a worker finds. */
typedef struct
{
  guint32  function;
  guint32  frame;
  char    *funcname;
  char    *filename;
  guint64  function_total;
  GArray  *lines;             /* TvSourceLineCount, by line */
  GArray  *instructions;      /* TvSourceInstructionCount, by line and column */
  gboolean has_opcodes;
  char    *source;            /* NULL when not found */
  char    *source_error;      /* why not */
  gboolean can_locate;        /* a file name the user could find */
} TvSourceLines;

void                     tv_source_lines_free        (TvSourceLines       *result);
/* The line LINE of RESULT, or NULL where no sample was. */
const TvSourceLineCount *tv_source_lines_find        (TvSourceLines       *result,
                                                      int                  line);
/* Counts, on a worker, the samples QUERY selects (merged by instruction)
 * of FUNCTION by line and instruction, and reads its file (FRAME's, when
 * no sample ran it) where MAP_FROM[i] stands for MAP_TO[i] (NULL-
 * terminated, copied, like QUERY's threads and ranges). */
void                     tv_source_lines_load_async  (TvProfileData       *data,
                                                      const TvQuery       *query,
                                                      guint32              function,
                                                      guint32              frame,
                                                      const char * const  *map_from,
                                                      const char * const  *map_to,
                                                      gpointer             source_object,
                                                      GCancellable        *cancellable,
                                                      GAsyncReadyCallback  callback,
                                                      gpointer             user_data);
TvSourceLines           *tv_source_lines_load_finish (GAsyncResult        *result,
                                                      GError             **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TvSourceLines, tv_source_lines_free)

G_END_DECLS
