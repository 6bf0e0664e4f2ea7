/* tv-metadata.c: a profile file's metadata, from the format library's
 * types into the model's
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tv-metadata-reader.h"

#include <string.h>

void
tv_metadata_from_reader (const TachReader *reader,
                         TvProfileHeader  *header,
                         TvProfileFooter  *footer,
                         TvProfileStats   *stats,
                         gboolean         *has_stamp,
                         TvFileStamp      *stamp)
{
  const TachHeader *h = tach_reader_get_header (reader);
  const TachFooter *f = tach_reader_get_footer (reader);
  const TachStats *st = tach_reader_get_stats (reader);
  TachFileStamp file_stamp;
  gboolean stamped;

  if (header != NULL)
    *header = (TvProfileHeader) {
      .version = h->version,
      .python_major = h->python_major,
      .python_minor = h->python_minor,
      .python_micro = h->python_micro,
      .start_time_us = h->start_time_us,
      .sample_interval_us = h->sample_interval_us,
      .sample_count = h->sample_count,
      .thread_count = h->thread_count,
      .compression_type = h->compression_type,
      .mode_raw = h->mode_raw,
      .mode_name = tach_mode_to_string (h->mode),
      .big_endian = h->big_endian,
    };
  if (footer != NULL)
    {
      *footer = (TvProfileFooter) {
        .string_count = f->string_count,
        .frame_count = f->frame_count,
        .file_size = f->file_size,
      };
      G_STATIC_ASSERT (sizeof footer->checksum == sizeof f->checksum);
      memcpy (footer->checksum, f->checksum, sizeof f->checksum);
    }
  if (stats != NULL)
    *stats = (TvProfileStats) {
      .present = st->present,
      .block_size = st->block_size,
      .block_offset = st->block_offset,
      .duration_sec = st->duration_sec,
      .sample_rate = st->sample_rate,
      .has_error_rate = st->has_error_rate,
      .error_rate = st->error_rate,
      .has_missed_samples = st->has_missed_samples,
      .missed_samples = st->missed_samples,
    };
  stamped = tach_reader_get_file_stamp (reader, &file_stamp);
  if (has_stamp != NULL)
    *has_stamp = stamped;
  if (stamp != NULL)
    *stamp = stamped ? (TvFileStamp) {
                         .size = file_stamp.size,
                         .mtime_sec = file_stamp.mtime_sec,
                         .mtime_nsec = file_stamp.mtime_nsec,
                         .device = file_stamp.device,
                         .inode = file_stamp.inode,
                       }
                     : (TvFileStamp) { 0 };
}
