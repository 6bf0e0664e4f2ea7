/* bench.h: what the modes of tachyon-bench share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

#include "tachyon-format.h"
#include "tv-profile-data.h"

/* One mode of tachyon-bench, chosen by the --NAME flag.  RUN gets the
 * N_ARGS positional parameters once the mode's ENTRIES have been parsed,
 * and returns the exit status. */
typedef struct
{
  const char         *name;       /* the flag, without "--" */
  const char         *parameters; /* positional parameters, for --help */
  guint               n_args;     /* how many positional parameters */
  const char         *summary;
  const GOptionEntry *entries;    /* may be NULL */
  int               (*run) (char **args);
} BenchMode;

extern const BenchMode bench_mode_generate;
extern const BenchMode bench_mode_decode;
extern const BenchMode bench_mode_dump;
extern const BenchMode bench_mode_load;
extern const BenchMode bench_mode_filter;
extern const BenchMode bench_mode_render;

/* The decoder streams the sample region through libzstd into an output
 * buffer of this size (CHUNK_SIZE in format/tach-decoder.c; it is also
 * ZSTD_DStreamOutSize ()).  The zstd-only pass uses the same size so that
 * the two are comparable. */
#define BENCH_ZSTD_CHUNK (128 * 1024)

/* Keeps measured loops from being optimised away. */
extern volatile guint64 bench_sink;

double   bench_now_seconds        (void);
/* CPU time of the whole process, all threads: with a pipelined decoder the
 * wall-clock time no longer says how much work a decode is. */
double   bench_cpu_seconds        (void);
/* Sorts VALUES. */
double   bench_median             (double          *values,
                                   guint            n);
/* Parses "20000", "500k", "5M", "1G"; FALSE if not a count up to MAX. */
gboolean bench_parse_count        (const char      *text,
                                   guint64          max,
                                   guint64         *out);
/* Prints the error of a format-library call; returns the exit status 1. */
int      bench_fail_tach          (const char      *what,
                                   const TachError *error);
/* Every sample of the profile at PATH; NULL, having said why, when it
 * cannot be read. */
TvProfileData *bench_load_data    (const char      *path);
/* Reads a byte of every page of REGION, so that a timed pass that follows
 * does not pay for page faults. */
void     bench_fault_in           (const void      *region,
                                   size_t           size);
/* Maps PATH and points *REGION at its sample region as READER sees it, for
 * libzstd alone to work on (the reader reads the file as it decodes, and
 * keeps no region in memory).  NULL with the error printed if PATH cannot
 * be mapped. */
GMappedFile *bench_map_region     (const char      *path,
                                   TachReader      *reader,
                                   const void     **region);
/* Decodes every sample of READER once and times it: PIPELINE is -1 to let
 * the decoder choose, else whether to decompress on a second thread;
 * BY_SAMPLE takes tach_decoder_next () rather than batches.  Every sample
 * is read, as a consumer would. */
gboolean bench_decode_pass        (TachReader      *reader,
                                   int              pipeline,
                                   gboolean         by_sample,
                                   double          *seconds,
                                   double          *cpu_seconds,
                                   guint64         *n_samples,
                                   TachError       *error);
/* Stream-decompresses the SIZE bytes at REGION with libzstd alone, into
 * CHUNK (BENCH_ZSTD_CHUNK bytes, reused), as the decoder does.  Prints the
 * error and returns FALSE if the stream is bad. */
gboolean bench_zstd_pass          (const void      *region,
                                   size_t           size,
                                   void            *chunk,
                                   double          *seconds,
                                   double          *cpu_seconds,
                                   guint64         *out_bytes);
