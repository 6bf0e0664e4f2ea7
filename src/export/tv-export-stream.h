/* tv-export-stream.h: what the exports of every sample share
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The Firefox Profiler's format and speedscope's hold each sample, so their
 * files grow with the profile: they are written as they are made, through
 * a bounded buffer (TvJsonStream), never built whole in memory.  The
 * samples come from TvExportSamples: the view state's query, its call
 * tree (which applies the transforms) with the map from the exact tree's
 * nodes onto it, and a walk over each selected thread's samples in time
 * order that says, per sample, where its stack went.
 */
#pragma once

#include <stdio.h>

#include <gio/gio.h>

#include "tv-call-tree.h"
#include "tv-export.h"

G_BEGIN_DECLS

/* JSON text appended to a buffer that is written to a FILE whenever it
 * holds 64 KiB; the first write error is kept and reported by
 * tv_json_stream_finish(). */
typedef struct
{
  FILE    *file;
  GString *buffer;
  int      saved_errno;          /* of the first failed write, or 0 */
} TvJsonStream;

void     tv_json_stream_init   (TvJsonStream *self,
                                FILE         *file);
/* Text that is JSON already. */
void     tv_json_stream_raw    (TvJsonStream *self,
                                const char   *text);
void     tv_json_stream_raw_len (TvJsonStream *self,
                                 const char   *text,
                                 gsize         len);
/* A string literal, every character escaped as JSON needs. */
void     tv_json_stream_string (TvJsonStream *self,
                                const char   *str,
                                gssize        len);
void     tv_json_stream_uint   (TvJsonStream *self,
                                guint64       value);
void     tv_json_stream_int    (TvJsonStream *self,
                                gint64        value);
/* Python's repr() of VALUE (see tv_json_format_double()). */
void     tv_json_stream_double (TvJsonStream *self,
                                double        value);
/* US microseconds in milliseconds, as tv_json_stream_double() writes
 * US / 1000.0, but without its search for the shortest digits: a whole
 * number of microseconds is at most three decimals of a millisecond. */
void     tv_json_stream_ms_of_us (TvJsonStream *self,
                                  guint64       us);
/* A thread ID: a number when a JavaScript number holds it exactly (up to
 * 2^53), else its decimal digits as a string. */
void     tv_json_stream_thread_id (TvJsonStream *self,
                                   guint64       thread_id);
/* Writes what is left, flushes the file and frees the buffer; FALSE with
 * ERROR set when any write failed, or when the writer met an error of its
 * own, in *PENDING (taken, and reported rather than the stream's). */
gboolean tv_json_stream_finish (TvJsonStream  *self,
                                GError       **pending,
                                GError       **error);

/* What tv_export_gecko_write() and tv_export_speedscope_write() are. */
typedef gboolean (*TvExportStreamWriter) (TvProfileData         *data,
                                          TvViewState           *state,
                                          const char            *source_name,
                                          FILE                  *out,
                                          GCancellable          *cancellable,
                                          GError               **error);
/* Writes with WRITER to OUT_PATH, atomically (see tv_atomic_write()). */
gboolean tv_export_stream_save (TvExportStreamWriter   writer,
                                TvProfileData         *data,
                                TvViewState           *state,
                                const char            *source_name,
                                const char            *out_path,
                                GCancellable          *cancellable,
                                GError               **error);

/* Dense ids for keys of two 64-bit words, as the formats' tables need
 * them (a stack is its prefix and its frame, a frame its function, line
 * and column): an open-addressing table that holds the keys whole. */
typedef struct
{
  guint64 *keys;                 /* 2 per slot */
  guint32 *values;               /* id + 1; 0: an empty slot */
  guint32  mask;
  guint32  n_ids;
} TvIdMap;

void     tv_id_map_init   (TvIdMap *self);
void     tv_id_map_clear  (TvIdMap *self);
/* The id of (A, B): the one it has, or the next one (self->n_ids before
 * the call), with *ADDED set. */
guint32  tv_id_map_insert (TvIdMap  *self,
                           guint64   a,
                           guint64   b,
                           gboolean *added);

/* What the view state selects, ready to be walked sample by sample. */
typedef struct
{
  TvProfileData *data;
  /* What is shown, kept for the query that points into it. */
  TvViewState   *state;
  TvQuery        query;
  /* Merged by the state's key and transformed, with the node map. */
  TvCallTree    *tree;
  const guint32 *node_map;
  /* The thread indices the query selects that have samples, sorted by
   * thread ID, then interpreter. */
  GArray        *threads;
  /* The profile's earliest timestamp, whatever the state: the zero of
   * the exported times. */
  guint64        first_timestamp;
} TvExportSamples;

/* The share of a watched export's progress (tv-progress.h) that
 * tv_export_samples_init()'s tree takes; the streams take the rest. */
#define TV_EXPORT_SAMPLES_TREE_SHARE 0.4

gboolean tv_export_samples_init  (TvExportSamples       *self,
                                  TvProfileData         *data,
                                  TvViewState           *state,
                                  GCancellable          *cancellable,
                                  GError               **error);
void     tv_export_samples_clear (TvExportSamples       *self);

/* A frame as the formats know it: a function (TV_MERGE_FUNCTION key),
 * with the line and the column as far as the merge key has them (-1 when
 * it has not, or the frame has none). */
typedef struct
{
  guint32 function;
  gint32  line;
  gint32  column;
} TvExportFrame;

/* The frame of NODE (not the root) of the tree. */
void     tv_export_samples_get_frame (const TvExportSamples *self,
                                      guint32                node,
                                      TvExportFrame         *frame);

/* One thread's samples in time order; walk them as often as needed. */
typedef struct
{
  const TvExportSamples *samples;
  const TvThread        *thread;
  guint64                lo;        /* the samples to look at, in time order */
  guint64                hi;
  guint64               *order;     /* sample indices by time, or NULL when
                                     * the thread is in time order already */
  /* The walk. */
  guint64                pos;
  guint64                run;       /* G_MAXUINT64: not found yet */
} TvThreadSamples;

/* Fails only when there is no memory to sort a thread whose samples are
 * not in time order. */
gboolean tv_thread_samples_init  (TvThreadSamples       *self,
                                  const TvExportSamples *samples,
                                  guint                  thread_index,
                                  GError               **error);
void     tv_thread_samples_clear (TvThreadSamples       *self);
/* Starts a walk over the samples again. */
void     tv_thread_samples_rewind (TvThreadSamples      *self);
/* The next sample the state selects (thread, state, time), in time
 * order: its timestamp, status, exact-tree leaf and the tree node its
 * stack went to (TV_ROOT_NODE: the transforms left it empty;
 * TV_NODE_NONE: outside the focused function).  FALSE at the end. */
gboolean tv_thread_samples_next  (TvThreadSamples       *self,
                                  guint64               *timestamp,
                                  guint8                *status,
                                  guint32               *leaf,
                                  guint32               *node);

/* A sample with a stack to write: the tree node is neither the root nor
 * TV_NODE_NONE. */
static inline gboolean
tv_export_node_has_stack (guint32 node)
{
  return node != TV_ROOT_NODE && node != TV_NODE_NONE;
}

/* How often the writers look at their cancellable, in samples. */
#define TV_EXPORT_CANCEL_INTERVAL (1u << 16)

G_END_DECLS
