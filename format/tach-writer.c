/* tach-writer.c: writes Tachyon binary profiles exactly as CPython does
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * This is a byte-for-byte re-implementation of CPython's BinaryWriter
 * (Modules/_remote_debugging/binary_io_writer.c); the format is described in
 * shared/format/SPEC.md, whose section numbers the comments below cite.
 * Given the same calls, it produces the same file as CPython, including the
 * record choice (§4.9), the interning order (§6.3) and the zstd stream (§10).
 *
 * Memory stays bounded whatever the number of samples: records go out
 * through a 512 KiB write buffer, and each thread keeps only its previous
 * stack and its pending REPEAT run (at most 16 KiB).  Only the string and
 * frame tables grow with the profile, as they do in CPython.
 */
#include "tachyon-format.h"

#include <assert.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <zstd.h>
#include "tach-writer-private.h"

/* ------------------------------------------------------------------------ */
/* Errors                                                                    */
/* ------------------------------------------------------------------------ */

#if defined(__GNUC__)
__attribute__ ((format (printf, 3, 4)))
#endif
TachStatus
writer_set_error (TachError  *error,
           TachStatus  status,
           const char *format,
           ...)
{
  va_list args;

  if (error == NULL)
    return status;

  error->status = status;
  error->phase = TACH_PHASE_OPEN;
  error->offset = UINT64_MAX;
  error->in_decompressed = false;
  va_start (args, format);
  vsnprintf (error->message, sizeof error->message, format, args);
  va_end (args);

  return status;
}

TachStatus
writer_set_no_memory (TachError *error)
{
  return writer_set_error (error, TACH_ERROR_NO_MEMORY, "Out of memory");
}

/* Output                                                                    */
/* ------------------------------------------------------------------------ */

TachStatus
writer_file_write (TachWriter *writer,
            const void *data,
            size_t      len,
            TachError  *error)
{
  if (len == 0)
    return TACH_OK;

  if (len > UINT64_MAX - writer->position)
    {
      writer->failed = true;
      return writer_set_error (error, TACH_ERROR_IO, "%s: file too large", writer->path);
    }

  if (fwrite (data, 1, len, writer->file) != len)
    {
      int saved = errno;

      writer->failed = true;
      return writer_set_error (error, TACH_ERROR_IO, "%s: write failed at offset %llu: %s",
                        writer->path, (unsigned long long) writer->position,
                        saved ? strerror (saved) : "short write");
    }

  writer->position += len;
  return TACH_OK;
}

/* Feeds IN to the zstd stream with END_OP and writes what comes out. */
static TachStatus
zstd_feed (TachWriter        *writer,
           const void        *data,
           size_t             len,
           ZSTD_EndDirective  end_op,
           TachError         *error)
{
  ZSTD_inBuffer input = { data, len, 0 };
  size_t remaining;

  do
    {
      ZSTD_outBuffer output = { writer->zstd_out, writer->zstd_out_size, 0 };
      TachStatus status;

      remaining = ZSTD_compressStream2 (writer->zstd, &output, &input, end_op);
      if (ZSTD_isError (remaining))
        {
          writer->failed = true;
          return writer_set_error (error, TACH_ERROR_IO, "zstd compression error: %s",
                            ZSTD_getErrorName (remaining));
        }

      status = writer_file_write (writer, writer->zstd_out, output.pos, error);
      if (status != TACH_OK)
        return status;
    }
  while (end_op == ZSTD_e_end ? remaining != 0 : input.pos < input.size);

  return TACH_OK;
}

/* Sends the record buffer to the file (through zstd if compressing).  An
 * empty buffer sends nothing at all: that is why an empty compressed
 * profile's first zstd call is the final ZSTD_e_end, which makes libzstd
 * declare a content size of 0 in the frame header, as in CPython's files. */
static TachStatus
flush_buffer (TachWriter *writer,
              TachError  *error)
{
  TachStatus status;

  if (writer->buffer_used == 0)
    return TACH_OK;

  if (writer->zstd != NULL)
    status = zstd_feed (writer, writer->buffer, writer->buffer_used, ZSTD_e_continue, error);
  else
    status = writer_file_write (writer, writer->buffer, writer->buffer_used, error);

  if (status == TACH_OK)
    writer->buffer_used = 0;
  return status;
}

/* Appends record bytes, flushing whenever the buffer becomes exactly full
 * (as CPython's writer_write_bytes does). */
static TachStatus
buffer_append (TachWriter *writer,
               const void *data,
               size_t      len,
               TachError  *error)
{
  const uint8_t *p = data;

  while (len > 0)
    {
      size_t space = WRITE_BUFFER_SIZE - writer->buffer_used;
      size_t n = len < space ? len : space;

      memcpy (writer->buffer + writer->buffer_used, p, n);
      writer->buffer_used += n;
      p += n;
      len -= n;

      if (writer->buffer_used == WRITE_BUFFER_SIZE)
        {
          TachStatus status = flush_buffer (writer, error);

          if (status != TACH_OK)
            return status;
        }
    }

  return TACH_OK;
}

static size_t
encode_prefix (const TachWriter  *writer,
               const ThreadEntry *thread,
               uint8_t            kind,
               uint8_t           *p)
{
  store_u64 (p, thread->thread_id, writer->options.big_endian);
  store_u32 (p + 8, thread->interpreter_id, writer->options.big_endian);
  p[12] = kind;
  return TACH_RECORD_PREFIX_SIZE;
}

/* Writes the thread's pending run as one REPEAT record (§4.2). */
static TachStatus
flush_rle (TachWriter  *writer,
           ThreadEntry *thread,
           TachError   *error)
{
  uint8_t head[TACH_RECORD_PREFIX_SIZE + TACH_MAX_VARINT_SIZE];
  size_t n;
  TachStatus status;

  if (thread->rle_samples == 0)
    return TACH_OK;

  n = encode_prefix (writer, thread, TACH_RECORD_REPEAT, head);
  n += encode_uvarint (head + n, thread->rle_samples);

  status = buffer_append (writer, head, n, error);
  if (status == TACH_OK)
    status = buffer_append (writer, thread->rle, thread->rle_bytes, error);
  if (status != TACH_OK)
    return status;

  thread->rle_samples = 0;
  thread->rle_bytes = 0;
  return TACH_OK;
}

/* ------------------------------------------------------------------------ */
/* Public API                                                                */
/* ------------------------------------------------------------------------ */

static void
writer_free (TachWriter *writer)
{
  if (writer == NULL)
    return;

  if (writer->file != NULL)
    fclose (writer->file);
  ZSTD_freeCCtx (writer->zstd);
  free (writer->zstd_out);
  free (writer->buffer);
  free (writer->string_pool);
  free (writer->strings);
  free (writer->string_index.slots);
  free (writer->frames);
  free (writer->frame_index.slots);
  for (uint32_t i = 0; i < writer->n_threads; i++)
    {
      free (writer->threads[i].rle);
      free (writer->threads[i].prev_stack);
    }
  free (writer->threads);
  free (writer->thread_index.slots);
  free (writer->path);
  free (writer);
}

TachStatus
tach_writer_new (const char               *path,
                 const TachWriterOptions  *options,
                 TachWriter              **out,
                 TachError                *error)
{
  static const uint8_t placeholder[TACH_HEADER_SIZE];
  TachWriter *writer;
  TachStatus status;
  size_t path_len;

  if (out == NULL)
    return writer_set_error (error, TACH_ERROR_ARGUMENT, "tach_writer_new: OUT is NULL");
  *out = NULL;
  if (path == NULL || path[0] == '\0')
    return writer_set_error (error, TACH_ERROR_ARGUMENT, "tach_writer_new: no path given");

  writer = calloc (1, sizeof *writer);
  if (writer == NULL)
    return writer_set_no_memory (error);
  if (options != NULL)
    writer->options = *options;

  if (writer->options.python_major == 0)
    {
      writer->python_version[0] = 3;
      writer->python_version[1] = 15;
      writer->python_version[2] = 0;
    }
  else
    {
      writer->python_version[0] = writer->options.python_major;
      writer->python_version[1] = writer->options.python_minor;
      writer->python_version[2] = writer->options.python_micro;
    }

  path_len = strlen (path);
  writer->path = malloc (path_len + 1);
  writer->buffer = malloc (WRITE_BUFFER_SIZE);
  /* Never NULL, so that empty strings need no special case. */
  writer->string_pool_size = 4096;
  writer->string_pool = malloc (writer->string_pool_size);
  if (writer->path == NULL || writer->buffer == NULL || writer->string_pool == NULL)
    {
      writer_free (writer);
      return writer_set_no_memory (error);
    }
  memcpy (writer->path, path, path_len + 1);

  if (writer->options.zstd)
    {
      int level = writer->options.zstd_level ? writer->options.zstd_level : DEFAULT_ZSTD_LEVEL;
      size_t r;

      if (level < ZSTD_minCLevel () || level > ZSTD_maxCLevel ())
        {
          writer_free (writer);
          return writer_set_error (error, TACH_ERROR_ARGUMENT,
                            "zstd level %d is outside %d..%d",
                            level, ZSTD_minCLevel (), ZSTD_maxCLevel ());
        }

      writer->zstd = ZSTD_createCCtx ();
      writer->zstd_out_size = ZSTD_CStreamOutSize ();
      writer->zstd_out = malloc (writer->zstd_out_size);
      if (writer->zstd == NULL || writer->zstd_out == NULL)
        {
          writer_free (writer);
          return writer_set_no_memory (error);
        }

      /* CPython sets only the level; the checksum flag is off by default,
       * and stays off explicitly here because §10 depends on it. */
      r = ZSTD_CCtx_setParameter (writer->zstd, ZSTD_c_compressionLevel, level);
      if (!ZSTD_isError (r))
        r = ZSTD_CCtx_setParameter (writer->zstd, ZSTD_c_checksumFlag, 0);
      if (ZSTD_isError (r))
        {
          writer_free (writer);
          return writer_set_error (error, TACH_ERROR_ARGUMENT, "Failed to set zstd parameters: %s",
                            ZSTD_getErrorName (r));
        }
    }

  writer->file = fopen (path, "wb");
  if (writer->file == NULL)
    {
      int saved = errno;

      status = writer_set_error (error, TACH_ERROR_IO, "%s: cannot create file: %s",
                          path, strerror (saved));
      writer_free (writer);
      return status;
    }

  /* An all-zero header marks an interrupted write until finish rewrites
   * it (§2). */
  status = writer_file_write (writer, placeholder, sizeof placeholder, error);
  if (status != TACH_OK)
    {
      tach_writer_abort (writer);
      return status;
    }

  *out = writer;
  return TACH_OK;
}

/* Writes a FULL, SUFFIX or POP_PUSH record, chosen as CPython's
 * compare_stacks does (§4.9 step 4). */
static TachStatus
write_change (TachWriter        *writer,
              const ThreadEntry *thread,
              uint64_t           delta,
              uint8_t            status_byte,
              const uint32_t    *stack,
              size_t             depth,
              TachError         *error)
{
  /* Prefix, delta and status, then at most two counts and 256 frames. */
  uint8_t record[TACH_RECORD_PREFIX_SIZE + TACH_MAX_VARINT_SIZE + 1
                 + 2 * 5 + TACH_MAX_STACK_DEPTH * 5];
  size_t prev_depth = thread->prev_depth;
  size_t min_depth = prev_depth < depth ? prev_depth : depth;
  size_t shared = 0;
  size_t pop, push;
  uint8_t kind;
  size_t n;

  while (shared < min_depth
         && thread->prev_stack[prev_depth - 1 - shared] == stack[depth - 1 - shared])
    shared++;
  pop = prev_depth - shared;
  push = depth - shared;

  if (shared == 0)
    kind = TACH_RECORD_FULL;
  else if (pop == 0)
    kind = TACH_RECORD_SUFFIX;   /* push > 0: identical stacks are REPEATs */
  else if (shared < depth / 2)
    kind = TACH_RECORD_FULL;
  else
    kind = TACH_RECORD_POP_PUSH;

  n = encode_prefix (writer, thread, kind, record);
  n += encode_uvarint (record + n, delta);
  record[n++] = status_byte;

  switch (kind)
    {
    case TACH_RECORD_FULL:
      n += encode_uvarint (record + n, depth);
      push = depth;
      break;
    case TACH_RECORD_SUFFIX:
      n += encode_uvarint (record + n, shared);
      n += encode_uvarint (record + n, push);
      break;
    default:
      n += encode_uvarint (record + n, pop);
      n += encode_uvarint (record + n, push);
      break;
    }
  for (size_t i = 0; i < push; i++)
    n += encode_uvarint (record + n, stack[i]);

  assert (n <= sizeof record);
  return buffer_append (writer, record, n, error);
}

TachStatus
tach_writer_add_sample (TachWriter     *writer,
                        uint64_t        thread_id,
                        uint32_t        interpreter_id,
                        uint64_t        timestamp_us,
                        uint8_t         status_byte,
                        const uint32_t *frames,
                        size_t          depth,
                        TachError      *error)
{
  ThreadEntry *thread = NULL;
  TachStatus status;
  uint64_t delta;
  bool same;

  if (writer == NULL || (frames == NULL && depth > 0))
    return writer_set_error (error, TACH_ERROR_ARGUMENT, "tach_writer_add_sample: NULL argument");
  if (writer->failed)
    return writer_set_error (error, TACH_ERROR_IO, "%s: the writer failed earlier", writer->path);
  if (writer->total_samples == UINT64_MAX)
    return writer_set_error (error, TACH_ERROR_ARGUMENT, "too many samples for binary format");

  /* Deeper frames are dropped, as CPython's build_frame_stack does. */
  if (depth > TACH_MAX_STACK_DEPTH)
    depth = TACH_MAX_STACK_DEPTH;

  /* CPython's indices come from its own tables; ours come from the caller,
   * so check them before anything changes. */
  for (size_t i = 0; i < depth; i++)
    if (frames[i] >= writer->n_frames)
      return writer_set_error (error, TACH_ERROR_ARGUMENT,
                        "Invalid frame index %u at depth %zu: only %u frames interned",
                        frames[i], i, writer->n_frames);

  /* The run buffer is allocated the first time the thread repeats its
   * stack, as in CPython, but before anything changes, so that running out
   * of memory leaves the writer as it was.  A new thread's previous stack
   * is empty: it repeats it when this stack is empty too. */
  thread = writer_lookup_thread (writer, thread_id, interpreter_id);
  if (thread == NULL)
    {
      status = writer_create_thread (writer, thread_id, interpreter_id, depth == 0, &thread, error);
      if (status != TACH_OK)
        return status;
    }
  same = depth == thread->prev_depth
         && (depth == 0 || memcmp (frames, thread->prev_stack, depth * sizeof *frames) == 0);
  if (same && thread->rle == NULL)
    {
      thread->rle = malloc (RLE_BUFFER_SIZE);
      if (thread->rle == NULL)
        return writer_set_no_memory (error);
    }

  delta = timestamp_us - thread->prev_timestamp;   /* mod 2^64 (§4.7) */

  if (same)
    {
      if (thread->rle_bytes + RLE_ENTRY_MAX_SIZE > RLE_BUFFER_SIZE)
        {
          status = flush_rle (writer, thread, error);
          if (status != TACH_OK)
            return status;
        }
      thread->rle_bytes += encode_uvarint (thread->rle + thread->rle_bytes, delta);
      thread->rle[thread->rle_bytes++] = status_byte;
      thread->rle_samples++;
    }
  else
    {
      status = flush_rle (writer, thread, error);
      if (status == TACH_OK)
        status = write_change (writer, thread, delta, status_byte, frames, depth, error);
      if (status != TACH_OK)
        return status;

      /* FRAMES may be NULL for an empty stack. */
      if (depth > 0)
        memcpy (thread->prev_stack, frames, depth * sizeof *frames);
      thread->prev_depth = (uint16_t) depth;
    }

  thread->prev_timestamp = timestamp_us;
  writer->total_samples++;
  return TACH_OK;
}

/* STATS->present, block_offset and flags describe a block that was read;
 * they are ignored here.  The flags written are derived from
 * has_error_rate and has_missed_samples, as CPython derives them from the
 * values it was given. */
TachStatus
tach_writer_set_stats (TachWriter      *writer,
                       const TachStats *stats,
                       TachError       *error)
{
  uint32_t size;

  if (writer == NULL || stats == NULL)
    return writer_set_error (error, TACH_ERROR_ARGUMENT, "tach_writer_set_stats: NULL argument");

  size = stats->block_size ? stats->block_size : STATS_SIZE_V56;
  if (size != STATS_SIZE_V56 && size != STATS_SIZE_V32)
    return writer_set_error (error, TACH_ERROR_ARGUMENT,
                      "Invalid profile stats: block size %u is neither 56 nor 32", size);

  /* CPython's binary_writer_set_stats checks, with its messages. */
  if (!isfinite (stats->duration_sec) || stats->duration_sec < 0.0)
    return writer_set_error (error, TACH_ERROR_ARGUMENT,
                      "Invalid profile stats: duration must be a finite non-negative value");
  if (!isfinite (stats->sample_rate) || stats->sample_rate < 0.0)
    return writer_set_error (error, TACH_ERROR_ARGUMENT,
                      "Invalid profile stats: sample rate must be a finite non-negative value");
  if (stats->has_error_rate && (!isfinite (stats->error_rate) || stats->error_rate < 0.0))
    return writer_set_error (error, TACH_ERROR_ARGUMENT,
                      "Invalid profile stats: error rate must be a finite non-negative value");
  if (stats->has_missed_samples && !isfinite (stats->missed_samples))
    return writer_set_error (error, TACH_ERROR_ARGUMENT,
                      "Invalid profile stats: missed samples must be a finite value");
  /* The original layout has no room for the optional values; dropping them
   * silently would lose what the caller asked to store. */
  if (size == STATS_SIZE_V32 && (stats->has_error_rate || stats->has_missed_samples))
    return writer_set_error (error, TACH_ERROR_ARGUMENT,
                      "Invalid profile stats: the 32-byte block cannot hold the error rate "
                      "or missed samples");

  writer->has_stats = true;
  writer->stats_size = size;
  writer->stats_flags = (stats->has_error_rate ? TACH_STATS_ERROR_RATE : 0)
                        | (stats->has_missed_samples ? TACH_STATS_MISSED : 0);
  writer->stats_values[0] = stats->duration_sec;
  writer->stats_values[1] = stats->sample_rate;
  /* Absent values are stored as 0.0 (§7.1). */
  writer->stats_values[2] = stats->has_error_rate ? stats->error_rate : 0.0;
  writer->stats_values[3] = stats->has_missed_samples ? stats->missed_samples : 0.0;
  return TACH_OK;
}

static TachStatus
write_stats_block (TachWriter *writer,
                   TachError  *error)
{
  bool be = writer->options.big_endian;
  uint8_t block[STATS_SIZE_V56] = { 0 };
  size_t n;

  if (writer->stats_size == STATS_SIZE_V32)
    {
      store_f64 (block, writer->stats_values[0], be);
      store_f64 (block + 8, writer->stats_values[1], be);
      n = 16;
    }
  else
    {
      for (int i = 0; i < 4; i++)
        store_f64 (block + 8 * i, writer->stats_values[i], be);
      store_u32 (block + 32, writer->stats_flags, be);
      /* 36..39: reserved, zero. */
      n = 40;
    }

  /* The trailer is the same in both layouts (§7.2). */
  memcpy (block + n, STATS_SIGNATURE, 8);
  store_u32 (block + n + 8, STATS_VERSION, be);
  store_u32 (block + n + 12, writer->stats_size, be);

  return writer_file_write (writer, block, writer->stats_size, error);
}

/* §11, steps 1 to 6. */
static TachStatus
writer_finalize (TachWriter *writer,
                 TachError  *error)
{
  bool be = writer->options.big_endian;
  uint8_t footer[TACH_FOOTER_SIZE] = { 0 };
  uint8_t header[TACH_HEADER_SIZE] = { 0 };
  uint64_t string_table_offset, frame_table_offset;
  TachStatus status;

  if (writer->failed)
    return writer_set_error (error, TACH_ERROR_IO, "%s: the writer failed earlier", writer->path);

  /* Pending runs go out in thread-creation order (§4.9). */
  for (uint32_t i = 0; i < writer->n_threads; i++)
    {
      status = flush_rle (writer, &writer->threads[i], error);
      if (status != TACH_OK)
        return status;
    }
  status = flush_buffer (writer, error);
  if (status == TACH_OK && writer->zstd != NULL)
    status = zstd_feed (writer, NULL, 0, ZSTD_e_end, error);
  if (status != TACH_OK)
    return status;

  string_table_offset = writer->position;
  status = writer_write_string_table (writer, error);
  if (status != TACH_OK)
    return status;

  frame_table_offset = writer->position;
  status = writer_write_frame_table (writer, error);
  if (status == TACH_OK && writer->has_stats)
    status = write_stats_block (writer, error);
  if (status != TACH_OK)
    return status;

  if (writer->position > UINT64_MAX - TACH_FOOTER_SIZE)
    return writer_set_error (error, TACH_ERROR_IO, "%s: file too large", writer->path);
  store_u32 (footer, writer->n_strings, be);
  store_u32 (footer + 4, writer->n_frames, be);
  store_u64 (footer + 8, writer->position + TACH_FOOTER_SIZE, be);
  status = writer_file_write (writer, footer, sizeof footer, error);
  if (status != TACH_OK)
    return status;

  store_u32 (header, TACH_MAGIC, be);
  store_u32 (header + 4, TACH_FORMAT_VERSION, be);
  header[8] = writer->python_version[0];
  header[9] = writer->python_version[1];
  header[10] = writer->python_version[2];
  store_u64 (header + 12, writer->options.start_time_us, be);
  store_u64 (header + 20, writer->options.sample_interval_us, be);
  store_u64 (header + 28, writer->total_samples, be);
  store_u32 (header + 36, writer->n_threads, be);
  store_u64 (header + 40, string_table_offset, be);
  store_u64 (header + 48, frame_table_offset, be);
  store_u32 (header + 56, writer->zstd != NULL ? TACH_COMPRESSION_ZSTD : TACH_COMPRESSION_NONE, be);
  store_u32 (header + 60, writer->options.mode_raw, be);

  if (fflush (writer->file) != 0 || fseek (writer->file, 0, SEEK_SET) != 0
      || fwrite (header, 1, sizeof header, writer->file) != sizeof header)
    {
      int saved = errno;

      writer->failed = true;
      return writer_set_error (error, TACH_ERROR_IO, "%s: cannot write the header: %s",
                        writer->path, saved ? strerror (saved) : "short write");
    }

  {
    FILE *file = writer->file;

    writer->file = NULL;
    if (fclose (file) != 0)
      {
        int saved = errno;

        return writer_set_error (error, TACH_ERROR_IO, "%s: close failed: %s",
                          writer->path, strerror (saved));
      }
  }

  return TACH_OK;
}

TachStatus
tach_writer_finish (TachWriter *writer,
                    TachError  *error)
{
  TachStatus status;

  if (writer == NULL)
    return writer_set_error (error, TACH_ERROR_ARGUMENT, "tach_writer_finish: NULL writer");

  status = writer_finalize (writer, error);
  if (status != TACH_OK)
    {
      /* What was written is unreadable (its header is still zero or the
       * tables are cut short), so it goes, as with an abort. */
      tach_writer_abort (writer);
      return status;
    }

  writer_free (writer);
  return TACH_OK;
}

void
tach_writer_abort (TachWriter *writer)
{
  if (writer == NULL)
    return;

  if (writer->file != NULL)
    {
      fclose (writer->file);
      writer->file = NULL;
    }
  remove (writer->path);
  writer_free (writer);
}
