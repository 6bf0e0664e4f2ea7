/* format-test-util.h: what the tests of a file on disk share
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The format, model and UI tests of a file that changes or is cut short
 * all write the same kind of profile, big enough that the decoder meets
 * the change long after it began, and most of them in a folder of their
 * own.  GLib and the format library only.
 */
#pragma once

#include <glib.h>

#include "tachyon-format.h"

G_BEGIN_DECLS

/* A temporary folder for one test: DIR, and PATH, DIR/run.tach. */
typedef struct
{
  char *dir;
  char *path;
} FormatTestDir;

/* Makes the folder from TEMPLATE (g_dir_make_tmp ()'s). */
void format_test_dir_init  (FormatTestDir *d,
                            const char    *template);
/* Removes the folder with what it holds, and frees D's strings. */
void format_test_dir_clear (FormatTestDir *d);

/* Whether this process holds PATH open, or mapped. */
gboolean format_test_holds_file (const char *path);

/* Writes PATH with OPTIONS: N_SAMPLES samples in threads 1 to 8 in turn,
 * one a millisecond from 1 s (plus up to JITTER_US more when it is not
 * 0), each a stack of 4 to 15 frames drawn from 4096, so that every
 * record is a FULL, SUFFIX or POP_PUSH of some 20 to 40 bytes that zstd
 * cannot shrink much; of status STATUS, or of a random one of the six
 * bits when STATUS is -1.  SEED seeds the draws: the same arguments give
 * the same file. */
void format_test_write_random_stacks (const char              *path,
                                      const TachWriterOptions *options,
                                      guint32                  seed,
                                      guint                    n_samples,
                                      guint                    jitter_us,
                                      int                      status);

/* A writer of PATH in raw mode, a sample a millisecond from 1 s, with
 * zstd when ZSTD; the test fails when it cannot be made. */
TachWriter *format_test_writer_new    (const char          *path,
                                       gboolean             zstd);
/* Interns the N_FRAMES frames of INFOS; their indices go in FRAMES. */
void        format_test_intern_frames (TachWriter          *writer,
                                       const TachFrameInfo *infos,
                                       guint                n_frames,
                                       guint32             *frames);
/* Interns N_FRAMES functions task_0, task_1, ... of /srv/app/tasks.py, at
 * lines 10, 11, ...; their indices go in FRAMES. */
void        format_test_intern_tasks  (TachWriter          *writer,
                                       guint                n_frames,
                                       guint32             *frames);
/* Writes the end of WRITER's file and frees it. */
void        format_test_writer_finish (TachWriter          *writer);
/* Writes PATH: INFOS[0] calls INFOS[1] and INFOS[2], in 30 samples a
 * millisecond apart in thread 1, on the CPU with the GIL: 20 of them in
 * INFOS[1], 10 in INFOS[2]. */
void        format_test_write_two_callees (const char          *path,
                                           const TachFrameInfo  infos[3]);

/* The bytes of V as an unsigned LEB128 varint. */
guint   format_test_uvarint_size (guint64         v);
/* The record CPython's writer makes of a stack of DEPTH frames after one
 * of PREV_DEPTH, innermost first, when they are not the same (SPEC
 * §4.9): TACH_RECORD_FULL, _SUFFIX or _POP_PUSH. */
guint8  format_test_record_kind  (const guint32  *prev,
                                  guint           prev_depth,
                                  const guint32  *stack,
                                  guint           depth);

G_END_DECLS
