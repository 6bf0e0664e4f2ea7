/* tach-decoder.c: stream the sample records of a Tachyon profile
 *
 * Records are decoded exactly as CPython's replay decodes them (SPEC §4.6,
 * §4.7, §9.7), but the zstd stream is decompressed in small chunks as the
 * decoder goes, so memory stays bounded whatever the size of the profile.
 * CPython decompresses the whole region (up to 1 GiB) at open; to report
 * the same error it would, the decoder drains the rest of the stream when
 * it meets a bad record, and a zstd error found there wins.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdatomic.h>
#include <sys/random.h>
#include <time.h>
#include <pthread.h>

#include <zstd.h>

#include "tach-private.h"
#include "tach-decoder-private.h"

static int
fail_record (TachDecoder   *dec,
             uint64_t       record_offset,
             TachRecordKind kind,
             const char    *format,
             ...) __attribute__ ((format (printf, 4, 5)));

static int
fail_record (TachDecoder   *dec,
             uint64_t       record_offset,
             TachRecordKind kind,
             const char    *format,
             ...)
{
  char message[400];
  const char *name = tach_record_kind_to_string (kind);
  uint64_t total;
  va_list args;

  va_start (args, format);
  vsnprintf (message, sizeof message, format, args);
  va_end (args);

  if (dec->compressed && decoder_drain (dec, &total) < 0)
    return -1;

  dec->failure.status = TACH_ERROR_INVALID;
  dec->failure.phase = TACH_PHASE_DECODE;
  dec->failure.offset = report_offset (dec, record_offset);
  dec->failure.in_decompressed = dec->compressed;
  snprintf (dec->failure.message, sizeof dec->failure.message,
            "%s (%s%srecord at %sbyte %llu%s)", message,
            name ? name : "", name ? " " : "",
            dec->compressed ? "decompressed " : "",
            (unsigned long long) dec->failure.offset,
            dec->compressed ? " of the sample region" : "");
  return decoder_decode_failed (dec);
}

TachStatus
tach_decoder_new (TachReader   *reader,
                  TachDecoder **out,
                  TachError    *error)
{
  const TachHeader *h;
  TachDecoder *dec;

  if (reader == NULL || out == NULL)
    {
      tach_set_error (error, TACH_ERROR_ARGUMENT, TACH_PHASE_DECODE, UINT64_MAX,
                      "Invalid argument to tach_decoder_new");
      return TACH_ERROR_ARGUMENT;
    }
  *out = NULL;
  if (reader->from_file && reader->fd < 0)
    {
      tach_set_error (error, TACH_ERROR_ARGUMENT, TACH_PHASE_DECODE, UINT64_MAX,
                      "The reader has let go of its file (tach_reader_release_file)");
      return TACH_ERROR_ARGUMENT;
    }

  if ((dec = calloc (1, sizeof *dec)) == NULL)
    goto no_memory;

  h = &reader->header;
  dec->reader = reader;
  dec->swap = reader->swap;
  dec->n_frames = reader->footer.frame_count;
  dec->frame_ok = reader->frame_ok;
  dec->all_frames_ok = true;
  for (uint32_t i = 0; i < dec->n_frames; i++)
    dec->all_frames_ok &= dec->frame_ok[i] != 0;

  dec->compressed = h->compression_type == TACH_COMPRESSION_ZSTD;
  dec->from_file = reader->from_file;
  if (!dec->compressed && !dec->from_file)
    {
      /* A raw region in memory is decoded where it is. */
      dec->window_start = dec->pos = reader->data + TACH_HEADER_SIZE;
      dec->end = reader->data + h->string_table_offset;
      dec->eof = true;
    }
  else
    {
      if (!decoder_stream_init (&dec->stream, reader))
        goto no_memory;
      if ((dec->buf = malloc (PREFIX_SPACE + CHUNK_SIZE)) == NULL)
        goto no_memory;
      dec->window_start = dec->pos = dec->end = dec->buf + PREFIX_SPACE;
      dec->eof = dec->stream.size == 0 && !dec->compressed;
      /* Decompressing on a thread about halves a decode on two cores.  A
       * raw file is read in line: the copy pread () makes costs about a
       * sixth of the decoding, which a thread hides only while a core is
       * free, at a quarter more CPU time; on a busy machine it loses. */
      dec->want_pipe = dec->compressed && dec->stream.size >= PIPELINE_MIN;
    }
  if (!dec->compressed)
    {
      dec->total_known = true;
      dec->total = h->string_table_offset - TACH_HEADER_SIZE;
    }

  /* A seed nobody can predict from the file. */
  if (getrandom (&dec->seed, sizeof dec->seed, GRND_NONBLOCK) != sizeof dec->seed)
    dec->seed = (uint64_t) (uintptr_t) dec ^ (uint64_t) time (NULL) * 0x9e3779b97f4a7c15ull;
  dec->table_mask = 63;
  if ((dec->table = calloc (dec->table_mask + 1, sizeof *dec->table)) == NULL)
    goto no_memory;

  *out = dec;
  return TACH_OK;

no_memory:
  tach_decoder_free (dec);
  tach_set_error (error, TACH_ERROR_NO_MEMORY, TACH_PHASE_DECODE, UINT64_MAX, "Out of memory");
  return TACH_ERROR_NO_MEMORY;
}

void
tach_decoder_free (TachDecoder *dec)
{
  if (dec == NULL)
    return;
  for (uint32_t i = 0; i < dec->n_threads; i++)
    free (dec->threads[i].frames);
  free (dec->threads);
  free (dec->keys);
  free (dec->table);
  decoder_pipeline_free (dec->pipe);
  free (dec->buf);
  decoder_stream_clear (&dec->stream);
  free (dec);
}

/* Thread ids come from the file, so the table's hash must not be one an
 * attacker can line up (a linear one put crafted ids all in one slot):
 * a strong mixer over a per-decoder random seed. */
static inline uint32_t
hash_key (const TachDecoder *dec,
          uint64_t           tid,
          uint32_t           iid)
{
  uint64_t h = (tid ^ dec->seed) + (uint64_t) iid * 0x9e3779b97f4a7c15ull;

  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdull;
  h ^= h >> 33;
  h *= 0xc4ceb9fe1a85ec53ull;
  h ^= h >> 33;
  return (uint32_t) h;
}

static bool
grow_table (TachDecoder *dec)
{
  uint32_t mask = dec->table_mask * 2 + 1;
  uint32_t *table = calloc ((size_t) mask + 1, sizeof *table);

  if (table == NULL)
    return false;
  for (uint32_t i = 0; i < dec->n_threads; i++)
    {
      uint32_t slot = hash_key (dec, dec->keys[i].thread_id, dec->keys[i].interpreter_id) & mask;
      while (table[slot] != 0)
        slot = (slot + 1) & mask;
      table[slot] = i + 1;
    }
  free (dec->table);
  dec->table = table;
  dec->table_mask = mask;
  return true;
}

/* Returns the thread index, registering a new thread (SPEC §9.7 item 20:
 * before the encoding byte is looked at).  -1 on error. */
static int64_t
lookup_thread (TachDecoder *dec,
               uint64_t     tid,
               uint32_t     iid,
               uint64_t     record_offset)
{
  uint32_t slot = hash_key (dec, tid, iid) & dec->table_mask;
  uint32_t declared = dec->reader->header.thread_count;
  uint32_t index;

  for (;;)
    {
      uint32_t entry = dec->table[slot];
      if (entry == 0)
        break;
      if (dec->keys[entry - 1].thread_id == tid && dec->keys[entry - 1].interpreter_id == iid)
        return entry - 1;
      slot = (slot + 1) & dec->table_mask;
    }

  if (dec->n_threads >= declared)
    return fail_record (dec, record_offset, (TachRecordKind) -1,
                        "Invalid thread count: sample data contains more unique threads than "
                        "declared in header (declared %u, found at least %llu)",
                        declared, (unsigned long long) dec->n_threads + 1);

  if (dec->n_threads == dec->threads_cap)
    {
      uint32_t cap = dec->threads_cap ? dec->threads_cap * 2 : 16;

      if (cap <= dec->threads_cap)
        goto no_memory;
      Thread *threads = realloc (dec->threads, cap * sizeof *threads);
      TachThreadKey *keys;

      if (threads == NULL)
        goto no_memory;
      dec->threads = threads;
      if ((keys = realloc (dec->keys, cap * sizeof *keys)) == NULL)
        goto no_memory;
      dec->keys = keys;
      dec->threads_cap = cap;
    }

  index = dec->n_threads++;
  dec->keys[index].thread_id = tid;
  dec->keys[index].interpreter_id = iid;
  memset (&dec->threads[index], 0, sizeof (Thread));
  dec->threads[index].prev_ts = dec->reader->header.start_time_us;
  dec->table[slot] = index + 1;

  if ((uint64_t) dec->n_threads * 2 > dec->table_mask && !grow_table (dec))
    goto no_memory;

  return index;

no_memory:
  return decoder_fail_with (dec, TACH_ERROR_NO_MEMORY, "Out of memory");
}

/* Makes room for a stack of NEED frames whose outermost KEEP frames are
 * kept at the end of the array. */
static bool
reserve_stack (Thread   *t,
               uint32_t  need,
               uint32_t  keep)
{
  uint32_t cap = t->cap ? t->cap : 8;
  uint32_t *frames;

  if (need <= t->cap)
    return true;
  while (cap < need)
    cap *= 2;
  if (cap > TACH_MAX_STACK_DEPTH)
    cap = TACH_MAX_STACK_DEPTH;
  if ((frames = malloc (cap * sizeof *frames)) == NULL)
    return false;
  if (keep > 0)
    memcpy (frames + cap - keep, t->frames + t->cap - keep, keep * sizeof *frames);
  free (t->frames);
  t->frames = frames;
  t->cap = cap;
  return true;
}

static inline bool
read_u64 (const uint8_t **pp,
          const uint8_t  *end,
          uint64_t       *value)
{
  const uint8_t *p = *pp;
  size_t n;

  if (p < end && *p < 0x80)
    {
      *value = *p;
      *pp = p + 1;
      return true;
    }
  if (p + 1 < end && p[1] < 0x80)
    {
      *value = (uint64_t) (p[0] & 0x7f) | (uint64_t) p[1] << 7;
      *pp = p + 2;
      return true;
    }
  n = tach_read_uvarint (p, end, value);
  *pp = p + n;
  return n != 0;
}

static inline bool
read_u32 (const uint8_t **pp,
          const uint8_t  *end,
          uint32_t       *value)
{
  size_t n = tach_read_uvarint32 (*pp, end, value);

  *pp += n;
  return n != 0;
}

static int
finish (TachDecoder *dec,
        TachError   *error)
{
  /* The whole region has been read: a file whose size or time moved meanwhile
   * may have given bytes of two different files. */
  if (dec->from_file && tach_reader_file_changed (dec->reader, NULL))
    {
      tach_set_changed_error (&dec->failure, dec->reader, TACH_PHASE_DECODE,
                              dec->reader->header.string_table_offset);
      dec->state = -1;
      dec->run_left = 0;
      if (error)
        *error = dec->failure;
      return -1;
    }
  if (dec->samples != dec->reader->header.sample_count)
    {
      dec->failure.status = TACH_ERROR_INVALID;
      dec->failure.phase = TACH_PHASE_DECODE;
      dec->failure.offset = 28;
      dec->failure.in_decompressed = false;
      snprintf (dec->failure.message, sizeof dec->failure.message,
                "Sample count mismatch: header declares %llu samples but replay decoded %llu "
                "(header field sample_count at byte 28)",
                (unsigned long long) dec->reader->header.sample_count,
                (unsigned long long) dec->samples);
      dec->state = -1;
      dec->run_left = 0;
      if (error)
        *error = dec->failure;
      return -1;
    }
  dec->state = 1;
  return 0;
}

/* The RLE count check of SPEC §9.7 item 22 needs the number of bytes left
 * in the whole region.  A raw region, or a stream already read to its end,
 * knows it at once; otherwise the check waits for the run to fail, which
 * it must if the count is too big. */
static int
fail_run (TachDecoder *dec,
          const char  *message)
{
  uint64_t total;

  if (!dec->run_checked)
    {
      if (!dec->total_known && decoder_drain (dec, &total) < 0)
        return -1;
      total = dec->total;
      if ((uint64_t) dec->run_length > (total - dec->run_data_offset) / 2)
        return fail_record (dec, dec->run_record_offset, TACH_RECORD_REPEAT,
                            "Invalid RLE count %u exceeds maximum possible %llu for remaining "
                            "data", dec->run_length,
                            (unsigned long long) ((total - dec->run_data_offset) / 2));
    }
  return fail_record (dec, dec->run_record_offset, TACH_RECORD_REPEAT, "%s", message);
}

/* One (delta, status) pair of the current REPEAT run.  The fields the
 * run's samples share are copied from a template. */
static inline int
next_in_run (TachDecoder *dec,
             TachSample  *sample)
{
  const uint8_t *p = dec->pos;
  uint64_t delta;

  if (dec->end - p < 11 && !dec->eof)
    {
      if (decoder_refill (dec, 11) < 0)
        return -1;
      p = dec->pos;
    }

  if (!read_u64 (&p, dec->end, &delta))
    return fail_run (dec, "Malformed varint in RLE sample data");
  if (p >= dec->end)
    return fail_run (dec, "Unexpected end of sample data in RLE");

  *sample = dec->run_template;
  dec->run_t->prev_ts += delta;
  sample->timestamp_us = dec->run_t->prev_ts;
  sample->status = *p++;
  sample->run_index = dec->run_length - dec->run_left;

  dec->pos = p;
  dec->run_left--;
  dec->samples++;
  return 1;
}

/* The top bits of two (delta, status) pairs whose deltas take two bytes:
 * set on each delta's first byte, clear on its second. */
#define TWO_PAIRS_MASK UINT64_C (0x0000008080008080)
#define TWO_PAIRS_WANT UINT64_C (0x0000000080000080)

/* Reads N (delta, status) pairs from *PP, which has at least eleven bytes
 * a pair before END, adding the deltas to *TS and writing each timestamp
 * and status; *PP and *TS move past those read.  Returns how many were
 * read: fewer than N when a varint is malformed, *PP at it. */
static inline uint32_t
read_pairs (const uint8_t **pp,
            const uint8_t  *end,
            uint32_t        n,
            uint64_t       *ts,
            uint64_t       *ts_out,
            uint8_t        *status_out)
{
  const uint8_t *p = *pp;
  uint64_t t = *ts;
  uint32_t i = 0;

  while (i < n)
    {
      uint64_t d;

      /* Two pairs of a two-byte delta and a status at once, the usual
       * form: byte 0 and 3 with their top bit set, 1 and 4 without.  Two
       * pairs left means 22 bytes to read. */
      if (n - i >= 2)
        {
          uint64_t w = tach_load_le64 (p);

          if ((w & TWO_PAIRS_MASK) == TWO_PAIRS_WANT)
            {
              /* Both deltas at once: each second byte's seven bits moved
               * down one, next to its first byte's. */
              uint64_t both = (w & UINT64_C (0x7f00007f)) | ((w >> 1) & UINT64_C (0x3f80003f80));

              t += both & 0x3fff;
              ts_out[i] = t;
              status_out[i] = (uint8_t) (w >> 16);
              t += (both >> 24) & 0x3fff;
              ts_out[i + 1] = t;
              status_out[i + 1] = (uint8_t) (w >> 40);
              i += 2;
              p += 6;
              continue;
            }
        }
      d = p[0];
      if (d < 0x80)
        p += 1;
      else if (p[1] < 0x80)
        {
          /* Two bytes: the usual 1 ms up to 16 ms. */
          d = (d & 0x7f) | (uint64_t) p[1] << 7;
          p += 2;
        }
      else
        {
          size_t k = tach_read_uvarint (p, end, &d);

          if (k == 0)
            break;
          p += k;
        }
      t += d;
      ts_out[i] = t;
      status_out[i] = *p++;
      i++;
    }
  *pp = p;
  *ts = t;
  return i;
}

/* Up to TACH_BATCH_MAX pairs of the current REPEAT run at once.  This is
 * where nearly all samples of a real profile come from (each is two or
 * three bytes), so the loop runs without bounds checks while at least one
 * pair of the longest form (eleven bytes) is left in the window. */
static int
fill_run_batch (TachDecoder *dec,
                TachBatch   *batch)
{
  uint32_t limit = dec->run_left < TACH_BATCH_MAX ? dec->run_left : TACH_BATCH_MAX;
  uint32_t first_index = dec->run_length - dec->run_left;
  uint64_t *ts_out = dec->batch_timestamps;
  uint8_t *status_out = dec->batch_statuses;
  uint64_t ts = dec->run_t->prev_ts;
  const uint8_t *p = dec->pos;
  uint32_t n = 0;

  while (n < limit)
    {
      ptrdiff_t avail = dec->end - p;

      if (avail >= 11)
        {
          /* Each pair takes at most eleven bytes, so this many are safe
           * to read without looking at the end of the window. */
          uint32_t safe = (uint32_t) (avail / 11), read;

          if (safe > limit - n)
            safe = limit - n;
          read = read_pairs (&p, dec->end, safe, &ts, ts_out + n, status_out + n);
          n += read;
          if (read < safe)
            goto malformed;
          continue;
        }

      if (!dec->eof)
        {
          dec->pos = p;
          if (decoder_refill (dec, 11) < 0)
            goto failed;
          p = dec->pos;
          continue;
        }

      /* The last few bytes of the region: check every step. */
      {
        uint64_t d;

        if (!read_u64 (&p, dec->end, &d))
          goto malformed;
        if (p >= dec->end)
          {
            dec->pos = p;
            fail_run (dec, "Unexpected end of sample data in RLE");
            goto failed;
          }
        ts += d;
        ts_out[n] = ts;
        status_out[n] = *p++;
        n++;
      }
    }

deliver:
  batch->sample = dec->run_template;
  batch->sample.timestamp_us = ts_out[0];
  batch->sample.status = status_out[0];
  batch->sample.run_index = first_index;
  batch->n = n;
  batch->timestamps = ts_out;
  batch->statuses = status_out;

  dec->run_t->prev_ts = ts;
  if (dec->state == 0)
    {
      dec->pos = p;
      dec->run_left -= n;
    }
  dec->samples += n;
  return 1;

malformed:
  dec->pos = p;
  fail_run (dec, "Malformed varint in RLE sample data");
failed:
  /* Hand over what was decoded before the failure, as sample by sample
   * decoding would have; the error comes with the next call. */
  if (n > 0)
    goto deliver;
  return -1;
}

/* Parses the next record.  Returns 1 with SAMPLE filled for a one-sample
 * record, 2 when a REPEAT run was set up (its samples come from
 * next_in_run or fill_run_batch), 0 at the end, -1 on error. */
static int parse_record (TachDecoder *dec,
                         TachSample  *sample);

int
tach_decoder_next (TachDecoder *dec,
                   TachSample  *sample,
                   TachError   *error)
{
  int ret = 1;

  if (dec->run_left == 0)
    ret = parse_record (dec, sample);
  if (ret == 2 || (ret == 1 && dec->run_left > 0))
    ret = next_in_run (dec, sample);
  if (ret < 0 && error)
    *error = dec->failure;
  return ret;
}

int
tach_decoder_next_batch (TachDecoder *dec,
                         TachBatch   *batch,
                         TachError   *error)
{
  int ret = 2;

  if (dec->run_left == 0)
    ret = parse_record (dec, &batch->sample);
  if (ret == 2)
    ret = fill_run_batch (dec, batch);
  else if (ret == 1)
    {
      dec->batch_timestamps[0] = batch->sample.timestamp_us;
      dec->batch_statuses[0] = batch->sample.status;
      batch->n = 1;
      batch->timestamps = dec->batch_timestamps;
      batch->statuses = dec->batch_statuses;
    }
  if (ret < 0 && error)
    *error = dec->failure;
  return ret;
}

static int __attribute__ ((noinline))
parse_record (TachDecoder *dec,
              TachSample  *sample)
{
  if (dec->state != 0)
    return dec->state < 0 ? -1 : 0;

  for (;;)
    {
      const uint8_t *p;
      const uint8_t *end;
      uint64_t record_offset, tid, delta;
      uint32_t iid, prev_depth, keep, push, pop = 0;
      int64_t index;
      uint8_t kind, status;
      Thread *t;

      if (dec->end - dec->pos < (ptrdiff_t) TACH_MAX_RECORD_BYTES && !dec->eof
          && decoder_refill (dec, TACH_MAX_RECORD_BYTES) < 0)
        goto failed;

      p = dec->pos;
      end = dec->end;
      if (p == end)
        return finish (dec, NULL);

      record_offset = stream_offset (dec, p);
      if (end - p < (ptrdiff_t) TACH_RECORD_PREFIX)
        {
          fail_record (dec, record_offset, (TachRecordKind) -1,
                       "Truncated sample data: %zu trailing bytes", (size_t) (end - p));
          goto failed;
        }

      tid = tach_load_u64 (p, dec->swap);
      iid = tach_load_u32 (p + 8, dec->swap);
      kind = p[12];
      p += TACH_RECORD_PREFIX;

      if ((index = lookup_thread (dec, tid, iid, record_offset)) < 0)
        goto failed;
      t = &dec->threads[index];

      if (kind == TACH_RECORD_REPEAT)
        {
          uint32_t count;

          if (!read_u32 (&p, end, &count))
            {
              fail_record (dec, record_offset, TACH_RECORD_REPEAT, "Malformed varint for RLE count");
              goto failed;
            }
          dec->pos = p;
          if (count == 0)
            {
              if (++dec->empty_records % 4096 == 0 && decoder_cancelled (dec))
                goto failed;
              continue;
            }

          dec->run_left = count;
          dec->run_length = count;
          dec->run_thread = (uint32_t) index;
          dec->run_record_offset = record_offset;
          dec->run_data_offset = stream_offset (dec, p);
          dec->run_checked = dec->total_known;
          dec->run_t = t;
          dec->run_template = (TachSample) {
            .thread_id = tid,
            .interpreter_id = iid,
            .thread_index = (uint32_t) index,
            .kind = TACH_RECORD_REPEAT,
            .depth = (uint16_t) t->depth,
            .stack = t->frames ? t->frames + t->cap - t->depth : NULL,
            .keep = (uint16_t) t->depth,
            .run_length = count,
            .record_offset = report_offset (dec, record_offset),
          };
          if (dec->total_known
              && count > (dec->total - stream_offset (dec, p)) / 2)
            {
              fail_record (dec, record_offset, TACH_RECORD_REPEAT,
                           "Invalid RLE count %u exceeds maximum possible %llu for remaining "
                           "data", count,
                           (unsigned long long) ((dec->total - stream_offset (dec, p)) / 2));
              goto failed;
            }
          return 2;
        }

      if (kind > TACH_RECORD_POP_PUSH)
        {
          fail_record (dec, record_offset, (TachRecordKind) -1,
                       "Unknown stack encoding: %u (encoding byte at offset 12 of the record)",
                       kind);
          goto failed;
        }

      if (!read_u64 (&p, end, &delta))
        {
          fail_record (dec, record_offset, kind, "Malformed varint in sample data");
          goto failed;
        }
      if (p >= end)
        {
          fail_record (dec, record_offset, kind, "Unexpected end of sample data");
          goto failed;
        }
      status = *p++;
      prev_depth = t->depth;

      if (kind == TACH_RECORD_FULL)
        {
          uint32_t depth;

          if (!read_u32 (&p, end, &depth))
            goto bad_varint;
          if (depth > TACH_MAX_STACK_DEPTH)
            {
              fail_record (dec, record_offset, kind, "Stack depth %u exceeds capacity %u",
                           depth, TACH_MAX_STACK_DEPTH);
              goto failed;
            }
          keep = 0;
          push = depth;
        }
      else if (kind == TACH_RECORD_SUFFIX)
        {
          uint32_t shared, new_count;

          if (!read_u32 (&p, end, &shared) || !read_u32 (&p, end, &new_count))
            goto bad_varint;
          if (shared > prev_depth)
            {
              fail_record (dec, record_offset, kind, "Shared count %u exceeds current stack "
                           "depth %u", shared, prev_depth);
              goto failed;
            }
          if ((uint64_t) shared + new_count > TACH_MAX_STACK_DEPTH)
            {
              fail_record (dec, record_offset, kind, "Final stack depth %llu exceeds capacity %u",
                           (unsigned long long) shared + new_count, TACH_MAX_STACK_DEPTH);
              goto failed;
            }
          if (new_count == 0 && shared < prev_depth)
            {
              /* SPEC §4.6: CPython moves nothing here, so the new stack is
               * the innermost SHARED frames of the old one, not a suffix. */
              uint32_t *frames = t->frames + t->cap;

              memmove (frames - shared, frames - prev_depth, shared * sizeof *frames);
              t->depth = shared;
              t->prev_ts += delta;
              dec->pos = p;
              pop = prev_depth;
              keep = 0;
              push = shared;
              goto emit;
            }
          keep = shared;
          push = new_count;
        }
      else
        {
          uint64_t depth;

          if (!read_u32 (&p, end, &pop) || !read_u32 (&p, end, &push))
            goto bad_varint;
          keep = prev_depth > pop ? prev_depth - pop : 0;
          depth = (uint64_t) keep + push;
          if (depth > TACH_MAX_STACK_DEPTH)
            {
              fail_record (dec, record_offset, kind, "Final stack depth %llu exceeds capacity %u",
                           (unsigned long long) depth, TACH_MAX_STACK_DEPTH);
              goto failed;
            }
        }

      pop = prev_depth - keep;
      if (!reserve_stack (t, keep + push, keep))
        {
          decoder_fail_with (dec, TACH_ERROR_NO_MEMORY, "Out of memory");
          goto failed;
        }

      {
        /* A thread that never had a frame has no array at all. */
        uint32_t *dst = push > 0 ? t->frames + t->cap - keep - push : NULL;
        /* frame_ok has n_frames + 1 entries, the last 0: an index past the
         * table reads it, so one load and no branch checks a frame. */
        const uint8_t *frame_ok = dec->frame_ok;
        uint32_t n_frames = dec->n_frames;
        unsigned all_ok = 1;

        /* Frame indices are mostly one or two bytes: both without a call.
         * The hot case: room for PUSH varints of the longest kind (ten
         * bytes) is left, so no byte read needs a bound, and every frame
         * of the table is sound, so the largest index alone tells. */
        if (dec->all_frames_ok && end - p >= (ptrdiff_t) push * 10)
          {
            /* Eight one-byte indices at once, when the table has 128
             * frames or more (so that they are all in it). */
            bool wide_table = n_frames >= 0x80;
            uint32_t max = 0;

            for (uint32_t i = 0; i < push;)
              {
                uint32_t v;
                uint64_t w;

                if (push - i >= 4)
                  {
                    w = tach_load_le64 (p);
                    if (wide_table && push - i >= 8
                        && (w & UINT64_C (0x8080808080808080)) == 0)
                      {
                        uint32_t *d = dst + i;

                        d[0] = p[0], d[1] = p[1], d[2] = p[2], d[3] = p[3];
                        d[4] = p[4], d[5] = p[5], d[6] = p[6], d[7] = p[7];
                        p += 8;
                        i += 8;
                        continue;
                      }
                    /* Four two-byte indices at once (deep stacks of a big
                     * table): each pair is a byte with its top bit set and
                     * one without, read as four 16-bit lanes of 14 bits. */
                    if ((w & UINT64_C (0x8080808080808080)) == UINT64_C (0x0080008000800080))
                      {
                        uint64_t x = w ^ UINT64_C (0x0080008000800080);
                        uint64_t lanes = (x & UINT64_C (0x00ff00ff00ff00ff))
                                         | ((x >> 8) & UINT64_C (0x00ff00ff00ff00ff)) << 7;
                        uint32_t *d = dst + i;
                        uint32_t m01, m23;

                        d[0] = (uint32_t) (lanes & 0xffff);
                        d[1] = (uint32_t) (lanes >> 16) & 0xffff;
                        d[2] = (uint32_t) (lanes >> 32) & 0xffff;
                        d[3] = (uint32_t) (lanes >> 48);
                        m01 = d[0] > d[1] ? d[0] : d[1];
                        m23 = d[2] > d[3] ? d[2] : d[3];
                        m01 = m01 > m23 ? m01 : m23;
                        max = m01 > max ? m01 : max;
                        p += 8;
                        i += 4;
                        continue;
                      }
                  }
                v = p[0];
                if (v < 0x80)
                  p++;
                else if (p[1] < 0x80)
                  {
                    v = (v & 0x7f) | (uint32_t) p[1] << 7;
                    p += 2;
                  }
                else if (!read_u32 (&p, end, &v))
                  goto bad_varint;
                dst[i++] = v;
                max = v > max ? v : max;
              }
            all_ok = max < n_frames;
          }
        else
          for (uint32_t i = 0; i < push; i++)
            {
              uint32_t v;

              if (p < end && p[0] < 0x80)
                v = *p++;
              else if (end - p >= 2 && p[1] < 0x80)
                {
                  v = (uint32_t) (p[0] & 0x7f) | (uint32_t) p[1] << 7;
                  p += 2;
                }
              else if (!read_u32 (&p, end, &v))
                goto bad_varint;
              dst[i] = v;
              all_ok &= frame_ok[v < n_frames ? v : n_frames];
            }

        /* CPython checks the frames once the record is parsed (item 24):
         * a bad one is looked for again, to name the first. */
        for (uint32_t i = 0; !all_ok && i < push; i++)
          {
            if (dst[i] >= dec->n_frames)
              {
                fail_record (dec, record_offset, kind, "Invalid frame index: %u "
                             "(the frame table has %u frames)", dst[i], dec->n_frames);
                goto failed;
              }
            if (!dec->frame_ok[dst[i]])
              {
                fail_record (dec, record_offset, kind, "Invalid string index in frame "
                             "(frame %u names a string past the %u in the string table)",
                             dst[i], dec->reader->footer.string_count);
                goto failed;
              }
          }
      }

      t->depth = keep + push;
      t->prev_ts += delta;
      dec->pos = p;

    emit:
      sample->thread_id = tid;
      sample->interpreter_id = iid;
      sample->thread_index = (uint32_t) index;
      sample->timestamp_us = t->prev_ts;
      sample->status = status;
      sample->kind = kind;
      sample->depth = (uint16_t) t->depth;
      sample->stack = t->frames ? t->frames + t->cap - t->depth : NULL;
      sample->pop = (uint16_t) pop;
      sample->keep = (uint16_t) keep;
      sample->push = (uint16_t) push;
      sample->run_index = 0;
      sample->run_length = 1;
      sample->record_offset = report_offset (dec, record_offset);
      dec->samples++;
      return 1;

    bad_varint:
      fail_record (dec, record_offset, kind, "Invalid or incomplete varint in binary data");
      goto failed;
    }

failed:
  return -1;
}

uint64_t
tach_decoder_get_samples_decoded (const TachDecoder *dec)
{
  return dec->samples;
}

uint64_t
tach_decoder_get_bytes_consumed (const TachDecoder *dec)
{
  /* A raw region is as far as the records read; a compressed one as far
   * as zstd has taken its input. */
  if (!dec->compressed)
    return stream_offset (dec, dec->pos);
  if (dec->pipe != NULL)
    return atomic_load (&dec->pipe->in_pos);
  return decoder_stream_consumed (&dec->stream);
}

void
tach_decoder_set_cancel_func (TachDecoder   *dec,
                              TachCancelFunc func,
                              void          *user_data)
{
  dec->cancel_func = func;
  dec->cancel_data = user_data;
}

void
tach_decoder_set_pipelined (TachDecoder *dec,
                            bool         pipelined)
{
  if ((dec->compressed || dec->from_file) && dec->pipe == NULL && !dec->started)
    dec->want_pipe = pipelined;
}

uint32_t
tach_decoder_get_n_threads (const TachDecoder *dec)
{
  return dec->n_threads;
}

const TachThreadKey *
tach_decoder_get_thread (const TachDecoder *dec,
                         uint32_t           thread_index)
{
  return thread_index < dec->n_threads ? &dec->keys[thread_index] : NULL;
}
