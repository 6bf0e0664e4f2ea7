/* tv-metadata.h: a profile file's header, footer, statistics and stamp,
 * in the model's own types
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The file's header, footer and statistics block (SPEC §3 and §5) as the
 * model hands them up: copies in the model's own types, so that no layer
 * above the model needs the format library's header. */
typedef enum
{
  TV_COMPRESSION_NONE = 0,
  TV_COMPRESSION_ZSTD = 1,
} TvCompression;

typedef struct
{
  guint32     version;
  guint8      python_major;
  guint8      python_minor;
  guint8      python_micro;
  guint64     start_time_us;
  guint64     sample_interval_us;
  guint64     sample_count;        /* thread-samples */
  guint32     thread_count;        /* distinct (thread, interpreter) pairs */
  guint32     compression_type;    /* raw value: a TvCompression, or unknown */
  guint32     mode_raw;            /* as stored */
  const char *mode_name;           /* "wall", "cpu", "gil", "all", "exception";
                                    * NULL when unknown or not recorded */
  gboolean    big_endian;
} TvProfileHeader;

typedef struct
{
  guint32 string_count;
  guint32 frame_count;
  guint64 file_size;               /* as stored; may disagree with the file */
  guint8  checksum[16];
} TvProfileFooter;

typedef struct
{
  gboolean present;
  guint32  block_size;             /* 56 or 32 */
  guint64  block_offset;
  double   duration_sec;
  double   sample_rate;
  gboolean has_error_rate;
  double   error_rate;             /* percent; only when has_error_rate */
  gboolean has_missed_samples;
  double   missed_samples;         /* percent; only when has_missed_samples */
} TvProfileStats;

/* What a file was when it was read. */
typedef struct
{
  guint64 size;
  gint64  mtime_sec;
  guint32 mtime_nsec;
  guint64 device;
  guint64 inode;
} TvFileStamp;

G_END_DECLS
