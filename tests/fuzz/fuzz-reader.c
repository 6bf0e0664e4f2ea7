/* fuzz-reader.c: fuzz target for the reader and the sample decoder
 *
 * The input is a whole file.  It is opened with tach_reader_open_memory;
 * when that succeeds, everything the reader exposes is read and checked,
 * then every sample is decoded, and the promises of tachyon-format.h are
 * checked on each one.  A broken promise aborts, which libFuzzer and the
 * standalone driver (fuzz-driver.c) report as a crash.
 *
 * The samples are then decoded a second time by two decoders at once on
 * the same reader, one of which is freed half-way: decoding must be
 * deterministic, decoders must not share state, and freeing a decoder in
 * the middle of the samples must not leak.
 *
 * Then the same bytes are made a file (a memfd, opened by its /proc path)
 * and opened with tach_reader_open_path, which reads with pread () in
 * buffers: it must see exactly what the reader over memory saw, to the
 * same samples and the same error message.  Last, the file is cut short
 * or rewritten half-way through a decode: whatever the bytes, the decoder
 * must then end with TACH_ERROR_CHANGED.
 */
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz-check.h"
#include "tachyon-format.h"

static void
fuzz_fail (const char      *file,
           int              line,
           const char      *expr,
           const TachError *error)
{
  fprintf (stderr, "%s:%d: invariant broken: %s\n", file, line, expr);
  fuzz_print_error ("last error", error);
  abort ();
}

/* Strict UTF-8 check, NUL bytes allowed (a string may hold one). */
static bool
is_valid_utf8 (const unsigned char *s,
               size_t               len)
{
  size_t i = 0;

  while (i < len)
    {
      unsigned char c = s[i];
      unsigned char lo, hi;
      size_t n;

      if (c < 0x80)
        {
          i++;
          continue;
        }
      n = fuzz_utf8_lead (c, &lo, &hi);
      if (n == 0)
        return false;

      if (n > len - i - 1)
        return false;
      if (s[i + 1] < lo || s[i + 1] > hi)
        return false;
      for (size_t k = 2; k <= n; k++)
        if (s[i + k] < 0x80 || s[i + k] > 0xbf)
          return false;
      i += n + 1;
    }

  return true;
}

static void
check_error (const TachError *error,
             TachStatus       returned)
{
  CHECK_ERR (returned != TACH_OK, error);
  CHECK_ERR (error->status == returned, error);
  CHECK_ERR (error->status > TACH_OK && error->status <= TACH_ERROR_ARGUMENT, error);
  /* A file in memory cannot change. */
  CHECK_ERR (error->status != TACH_ERROR_IO, error);
  CHECK_ERR (error->phase == TACH_PHASE_OPEN || error->phase == TACH_PHASE_DECODE, error);
  CHECK (memchr (error->message, '\0', sizeof error->message) != NULL);
  CHECK_ERR (error->message[0] != '\0', error);
}

static void
check_string (const char *s)
{
  CHECK (s != NULL);
  CHECK (s[0] != '\0');
  (void) strlen (s);
}

static void
check_tables (const TachReader *reader,
              const uint8_t    *data,
              size_t            size)
{
  const TachHeader *header = tach_reader_get_header (reader);
  const TachFooter *footer = tach_reader_get_footer (reader);
  const TachStats *stats = tach_reader_get_stats (reader);
  uint64_t region_size;
  const uint8_t *region;
  uint32_t n_strings, n_frames;
  size_t n_warnings;

  CHECK (header != NULL);
  CHECK (footer != NULL);
  CHECK (stats != NULL);

  CHECK (tach_reader_get_file_size (reader) == size);
  /* SPEC §9.1: only a file shorter than the header is too small; in one
   * of 64 to 95 bytes the footer (the last 32) overlaps the header, and
   * CPython reads it all the same. */
  CHECK (size >= TACH_HEADER_SIZE);
  CHECK (header->version == 1);
  CHECK (header->string_table_offset >= TACH_HEADER_SIZE);
  CHECK (header->string_table_offset <= header->frame_table_offset);
  CHECK (header->frame_table_offset <= size);
  CHECK (header->mode >= TACH_MODE_UNKNOWN && header->mode <= TACH_MODE_EXCEPTION);
  if (header->mode_raw == 0)
    CHECK (header->mode == TACH_MODE_UNKNOWN);
  else if (header->mode_raw <= 5)
    CHECK (header->mode == (TachMode) (header->mode_raw - 1));
  if (header->mode == TACH_MODE_UNKNOWN)
    CHECK (tach_mode_to_string (header->mode) == NULL);
  else
    check_string (tach_mode_to_string (header->mode));

  /* The sample region is [64, string_table_offset) of the input itself. */
  region_size = tach_reader_get_sample_region_size (reader);
  region = tach_reader_get_sample_region (reader);
  CHECK (region_size == header->string_table_offset - TACH_HEADER_SIZE);
  if (region_size > 0)
    {
      CHECK (region >= data && region <= data + size);
      CHECK (region_size <= (uint64_t) (data + size - region));
    }

  if (stats->present)
    {
      CHECK (stats->block_size == 56 || stats->block_size == 32);
      CHECK (stats->block_offset == size - TACH_FOOTER_SIZE - stats->block_size);
      CHECK (stats->block_offset >= header->frame_table_offset);
      CHECK (isfinite (stats->duration_sec) && stats->duration_sec >= 0);
      CHECK (isfinite (stats->sample_rate) && stats->sample_rate >= 0);
      if (stats->has_error_rate)
        CHECK (isfinite (stats->error_rate) && stats->error_rate >= 0);
      if (stats->has_missed_samples)
        CHECK (isfinite (stats->missed_samples));
      if (stats->block_size == 32)
        CHECK (!stats->has_error_rate && !stats->has_missed_samples);
    }

  n_warnings = tach_reader_get_n_warnings (reader);
  CHECK (n_warnings < 1024);
  for (size_t i = 0; i < n_warnings; i++)
    check_string (tach_reader_get_warning (reader, i));

  n_strings = tach_reader_get_n_strings (reader);
  CHECK (n_strings == footer->string_count);
  CHECK (n_strings <= size);
  for (uint32_t i = 0; i < n_strings; i++)
    {
      size_t len = SIZE_MAX;
      const char *s = tach_reader_get_string (reader, i, &len);

      CHECK (s != NULL);
      CHECK (len != SIZE_MAX);
      CHECK (s[len] == '\0');
      CHECK (strlen (s) <= len);
      CHECK (is_valid_utf8 ((const unsigned char *) s, len));
      CHECK (tach_reader_get_string (reader, i, NULL) == s);
    }
  CHECK (tach_reader_get_string (reader, n_strings, NULL) == NULL);
  CHECK (tach_reader_get_string (reader, UINT32_MAX, NULL) == NULL);

  n_frames = tach_reader_get_n_frames (reader);
  CHECK (n_frames == footer->frame_count);
  CHECK (n_frames <= size / 7);
  for (uint32_t i = 0; i < n_frames; i++)
    {
      const TachFrame *frame = tach_reader_get_frame (reader, i);

      CHECK (frame != NULL);
      /* String indices are only checked for frames that samples use. */
      if (frame->lineno == -1)
        CHECK (frame->end_lineno == -1);
      if (frame->column == -1)
        CHECK (frame->end_column == -1);
    }
  CHECK (tach_reader_get_frame (reader, n_frames) == NULL);
  CHECK (tach_reader_get_frame (reader, UINT32_MAX) == NULL);
}

/* Per-thread state of the checks, indexed by thread_index. */
typedef struct
{
  uint16_t depth;
  uint32_t stack[TACH_MAX_STACK_DEPTH];
} ThreadState;

typedef struct
{
  ThreadState *threads;
  uint32_t     n_threads;
  uint32_t     n_alloc;
} Threads;

static ThreadState *
threads_get (Threads  *threads,
             uint32_t  thread_index)
{
  /* Thread indices are dense, but a thread can be registered without
   * giving a sample (a REPEAT record with count 0), so a sample can skip
   * an index. */
  if (thread_index >= threads->n_alloc)
    {
      uint32_t n_alloc = threads->n_alloc ? threads->n_alloc : 8;
      ThreadState *p;

      while (n_alloc <= thread_index)
        n_alloc *= 2;
      p = realloc (threads->threads, n_alloc * sizeof *p);
      CHECK (p != NULL);
      threads->threads = p;
      threads->n_alloc = n_alloc;
    }
  while (threads->n_threads <= thread_index)
    threads->threads[threads->n_threads++].depth = 0;
  return &threads->threads[thread_index];
}

static uint64_t
mix (uint64_t h,
     uint64_t v)
{
  h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
  return h * 0xff51afd7ed558ccdull;
}

static uint64_t
hash_sample (const TachSample *s)
{
  uint64_t h = 0;

  h = mix (h, s->thread_id);
  h = mix (h, s->interpreter_id);
  h = mix (h, s->thread_index);
  h = mix (h, s->timestamp_us);
  h = mix (h, s->status);
  h = mix (h, s->kind);
  h = mix (h, s->depth);
  h = mix (h, ((uint64_t) s->pop << 32) | ((uint64_t) s->keep << 16) | s->push);
  h = mix (h, ((uint64_t) s->run_index << 32) | s->run_length);
  h = mix (h, s->record_offset);
  for (uint16_t i = 0; i < s->depth; i++)
    h = mix (h, s->stack[i]);
  return h;
}

/* Hashes of the first samples only: a small compressed input can hold a
 * very large number of samples. */
#define MAX_HASHES (1u << 20)

typedef struct
{
  int       result;          /* of the last tach_decoder_next () */
  uint64_t  n_samples;
  uint64_t  n_hashes;
  uint64_t *hashes;
  size_t    n_alloc;
  char      message[sizeof ((TachError *) 0)->message];
} FirstPass;

static void
first_pass_push (FirstPass *pass,
                 uint64_t   hash)
{
  pass->n_samples++;
  if (pass->n_hashes == MAX_HASHES)
    return;
  if (pass->n_hashes == pass->n_alloc)
    {
      size_t n_alloc = pass->n_alloc ? 2 * pass->n_alloc : 256;
      uint64_t *p = realloc (pass->hashes, n_alloc * sizeof *p);

      CHECK (p != NULL);
      pass->hashes = p;
      pass->n_alloc = n_alloc;
    }
  pass->hashes[pass->n_hashes++] = hash;
}

static void
check_sample (const TachReader *reader,
              TachDecoder      *decoder,
              const TachSample *sample,
              const TachSample *prev,
              Threads          *threads)
{
  const TachHeader *header = tach_reader_get_header (reader);
  uint32_t n_frames = tach_reader_get_n_frames (reader);
  uint32_t n_strings = tach_reader_get_n_strings (reader);
  uint32_t n_threads = tach_decoder_get_n_threads (decoder);
  const TachThreadKey *key;
  ThreadState *state;
  bool continues_run;

  CHECK (sample->depth <= TACH_MAX_STACK_DEPTH);
  CHECK (sample->depth == 0 || sample->stack != NULL);
  CHECK (sample->kind <= TACH_RECORD_POP_PUSH);
  check_string (tach_record_kind_to_string (sample->kind));

  for (uint16_t i = 0; i < sample->depth; i++)
    {
      const TachFrame *frame;

      CHECK (sample->stack[i] < n_frames);
      frame = tach_reader_get_frame (reader, sample->stack[i]);
      CHECK (frame != NULL);
      CHECK (frame->filename < n_strings);
      CHECK (frame->funcname < n_strings);
    }

  /* Thread bookkeeping. */
  CHECK (sample->thread_index < n_threads);
  CHECK (n_threads <= header->thread_count);
  key = tach_decoder_get_thread (decoder, sample->thread_index);
  CHECK (key != NULL);
  CHECK (key->thread_id == sample->thread_id);
  CHECK (key->interpreter_id == sample->interpreter_id);
  state = threads_get (threads, sample->thread_index);

  /* The stack is the outermost KEEP frames of the previous one with PUSH
   * new frames in front. */
  CHECK (sample->pop + sample->keep == state->depth);
  CHECK (sample->keep + sample->push == sample->depth);
  for (uint16_t i = 0; i < sample->keep; i++)
    CHECK (sample->stack[sample->push + i] == state->stack[sample->pop + i]);

  /* Runs: the samples of one REPEAT record come one after the other. */
  continues_run = prev != NULL
                  && prev->kind == TACH_RECORD_REPEAT
                  && prev->run_index + 1 < prev->run_length;
  if (sample->kind == TACH_RECORD_REPEAT)
    {
      CHECK (sample->pop == 0 && sample->push == 0);
      CHECK (sample->run_index < sample->run_length);
    }
  if (continues_run)
    {
      CHECK (sample->kind == TACH_RECORD_REPEAT);
      CHECK (sample->run_index == prev->run_index + 1);
      CHECK (sample->run_length == prev->run_length);
      CHECK (sample->thread_index == prev->thread_index);
      CHECK (sample->record_offset == prev->record_offset);
    }
  else
    {
      if (sample->kind == TACH_RECORD_REPEAT)
        CHECK (sample->run_index == 0);
      if (prev != NULL)
        CHECK (sample->record_offset > prev->record_offset);
    }

  state->depth = sample->depth;
  if (sample->depth > 0)
    memcpy (state->stack, sample->stack, sample->depth * sizeof *sample->stack);
}

static void
decode_and_check (TachReader *reader,
                  FirstPass  *pass)
{
  const TachHeader *header = tach_reader_get_header (reader);
  TachDecoder *decoder = NULL;
  TachError error;
  TachStatus status;
  Threads threads = { 0 };
  TachSample sample, prev;
  uint64_t consumed = 0;
  bool have_prev = false;

  memset (&error, 0, sizeof error);
  status = tach_decoder_new (reader, &decoder, &error);
  if (status != TACH_OK)
    {
      check_error (&error, status);
      CHECK (decoder == NULL);
      pass->result = -2;
      memcpy (pass->message, error.message, sizeof pass->message);
      return;
    }
  CHECK (decoder != NULL);
  CHECK (tach_decoder_get_samples_decoded (decoder) == 0);

  for (;;)
    {
      int r;

      memset (&sample, 0xa5, sizeof sample);
      r = tach_decoder_next (decoder, &sample, &error);
      pass->result = r;
      if (r == 0)
        {
          CHECK_ERR (pass->n_samples == header->sample_count, &error);
          break;
        }
      if (r < 0)
        {
          CHECK (r == -1);
          check_error (&error, error.status);
          memcpy (pass->message, error.message, sizeof pass->message);
          break;
        }
      CHECK (r == 1);

      check_sample (reader, decoder, &sample, have_prev ? &prev : NULL, &threads);
      first_pass_push (pass, hash_sample (&sample));
      CHECK (tach_decoder_get_samples_decoded (decoder) == pass->n_samples);
      CHECK (tach_decoder_get_bytes_consumed (decoder) >= consumed);
      consumed = tach_decoder_get_bytes_consumed (decoder);
      CHECK (consumed <= tach_reader_get_sample_region_size (reader));

      prev = sample;
      prev.stack = NULL;
      have_prev = true;
    }

  CHECK (tach_decoder_get_samples_decoded (decoder) == pass->n_samples);
  CHECK (tach_decoder_get_n_threads (decoder) >= threads.n_threads);
  CHECK (tach_decoder_get_n_threads (decoder) <= header->thread_count);
  CHECK (tach_decoder_get_thread (decoder, tach_decoder_get_n_threads (decoder)) == NULL);

  free (threads.threads);
  tach_decoder_free (decoder);
}

/* Decodes again with two decoders alive at the same time, the second one
 * freed half-way, and compares with the first pass.  The first decoder
 * decompresses on a second thread (whatever the size of the region), the
 * second one in line, so both ways must give the same samples and the
 * same error. */
static void
decode_again (TachReader      *reader,
              const FirstPass *pass)
{
  TachDecoder *a = NULL, *b = NULL;
  TachError error;
  TachSample sample;
  uint64_t stop_b = pass->n_samples / 2;
  uint64_t i;
  int r = 0;

  if (pass->n_samples > pass->n_hashes)
    return;

  if (tach_decoder_new (reader, &a, NULL) != TACH_OK)
    {
      /* Same input, same reader: the first pass must have failed too. */
      CHECK (pass->result == -2);
      return;
    }
  CHECK (pass->result != -2);
  CHECK (tach_decoder_new (reader, &b, NULL) == TACH_OK);
  tach_decoder_set_pipelined (a, true);
  tach_decoder_set_pipelined (b, false);

  for (i = 0; ; i++)
    {
      /* Same filling as the first pass, in case a field is left alone. */
      memset (&sample, 0xa5, sizeof sample);
      r = tach_decoder_next (a, &sample, &error);
      if (r != 1)
        break;
      CHECK (i < pass->n_samples);
      CHECK (hash_sample (&sample) == pass->hashes[i]);

      if (b != NULL)
        {
          if (i == stop_b)
            {
              tach_decoder_free (b);
              b = NULL;
            }
          else
            {
              memset (&sample, 0xa5, sizeof sample);
              CHECK (tach_decoder_next (b, &sample, NULL) == 1);
              CHECK (hash_sample (&sample) == pass->hashes[i]);
            }
        }
    }
  CHECK (r == pass->result);
  CHECK (i == pass->n_samples);
  if (r < 0)
    CHECK (strcmp (error.message, pass->message) == 0);

  tach_decoder_free (b);
  tach_decoder_free (a);
}

/* Decodes a third time by batches, alternating with single samples, and
 * expands every batch back into samples: they must hash the same as the
 * first pass, and end the same way. */
static void
decode_batches (TachReader      *reader,
                const FirstPass *pass)
{
  TachDecoder *decoder = NULL;
  TachError error;
  uint64_t i = 0;
  unsigned call = 0;
  int r;

  if (pass->n_samples > pass->n_hashes || pass->result == -2)
    return;
  CHECK (tach_decoder_new (reader, &decoder, NULL) == TACH_OK);

  for (;; call++)
    {
      if (call % 3 == 2)
        {
          TachSample sample;

          memset (&sample, 0xa5, sizeof sample);
          r = tach_decoder_next (decoder, &sample, &error);
          if (r != 1)
            break;
          CHECK (i < pass->n_samples);
          CHECK (hash_sample (&sample) == pass->hashes[i]);
          i++;
        }
      else
        {
          TachBatch batch;

          memset (&batch, 0xa5, sizeof batch);
          r = tach_decoder_next_batch (decoder, &batch, &error);
          if (r != 1)
            break;
          CHECK (batch.n >= 1 && batch.n <= TACH_BATCH_MAX);
          CHECK (batch.sample.kind == TACH_RECORD_REPEAT || batch.n == 1);
          CHECK (batch.timestamps[0] == batch.sample.timestamp_us);
          CHECK (batch.statuses[0] == batch.sample.status);
          for (uint32_t k = 0; k < batch.n; k++)
            {
              TachSample sample = batch.sample;

              sample.timestamp_us = batch.timestamps[k];
              sample.status = batch.statuses[k];
              sample.run_index = batch.sample.run_index + k;
              CHECK (i < pass->n_samples);
              CHECK (hash_sample (&sample) == pass->hashes[i]);
              i++;
            }
        }
    }
  CHECK (r == pass->result);
  CHECK (i == pass->n_samples);
  CHECK (tach_decoder_get_samples_decoded (decoder) == pass->n_samples);
  if (r < 0)
    CHECK (strcmp (error.message, pass->message) == 0);
  tach_decoder_free (decoder);
}

/* ------------------------------------------------------------------------ */
/* The same bytes as a file                                                  */
/* ------------------------------------------------------------------------ */

/* A memfd holding DATA, and its path; -1 when memfd_create () is missing. */
static int
make_file (const uint8_t *data,
           size_t         size,
           char          *path,
           size_t         path_size)
{
  int fd = memfd_create ("fuzz-reader", MFD_CLOEXEC);
  size_t done = 0;

  if (fd < 0)
    return -1;
  while (done < size)
    {
      ssize_t n = write (fd, data + done, size - done);

      CHECK (n > 0);
      done += (size_t) n;
    }
  snprintf (path, path_size, "/proc/self/fd/%d", fd);
  return fd;
}

/* Everything open gives must be what the reader over memory gave. */
static void
check_same_tables (const TachReader *a,
                   const TachReader *b)
{
  CHECK (memcmp (tach_reader_get_header (a), tach_reader_get_header (b),
                 sizeof (TachHeader)) == 0);
  CHECK (memcmp (tach_reader_get_footer (a), tach_reader_get_footer (b),
                 sizeof (TachFooter)) == 0);
  CHECK (memcmp (tach_reader_get_stats (a), tach_reader_get_stats (b),
                 sizeof (TachStats)) == 0);
  CHECK (tach_reader_get_file_size (a) == tach_reader_get_file_size (b));
  CHECK (tach_reader_get_n_warnings (a) == tach_reader_get_n_warnings (b));
  for (size_t i = 0; i < tach_reader_get_n_warnings (a); i++)
    CHECK (strcmp (tach_reader_get_warning (a, i), tach_reader_get_warning (b, i)) == 0);
  CHECK (tach_reader_get_n_strings (a) == tach_reader_get_n_strings (b));
  for (uint32_t i = 0; i < tach_reader_get_n_strings (a); i++)
    {
      size_t len_a, len_b;
      const char *sa = tach_reader_get_string (a, i, &len_a);
      const char *sb = tach_reader_get_string (b, i, &len_b);

      CHECK (len_a == len_b && memcmp (sa, sb, len_a + 1) == 0);
    }
  CHECK (tach_reader_get_n_frames (a) == tach_reader_get_n_frames (b));
  for (uint32_t i = 0; i < tach_reader_get_n_frames (a); i++)
    CHECK (memcmp (tach_reader_get_frame (a, i), tach_reader_get_frame (b, i),
                   sizeof (TachFrame)) == 0);
}

/* Decodes READER to its end, by batches or by samples; the samples must
 * be those of the first pass, and the end the same. */
static void
decode_file_and_compare (TachReader      *reader,
                         const FirstPass *pass,
                         bool             pipelined)
{
  TachDecoder *decoder = NULL;
  TachError error;
  uint64_t i = 0;
  unsigned call = 0;
  int r;

  CHECK (tach_decoder_new (reader, &decoder, &error) == TACH_OK);
  tach_decoder_set_pipelined (decoder, pipelined);
  for (;; call++)
    {
      TachBatch batch;

      memset (&batch, 0xa5, sizeof batch);
      r = tach_decoder_next_batch (decoder, &batch, &error);
      if (r != 1)
        break;
      for (uint32_t k = 0; k < batch.n; k++, i++)
        {
          TachSample sample = batch.sample;

          sample.timestamp_us = batch.timestamps[k];
          sample.status = batch.statuses[k];
          sample.run_index = batch.sample.run_index + k;
          if (i < pass->n_hashes)
            CHECK (hash_sample (&sample) == pass->hashes[i]);
        }
      CHECK (tach_decoder_get_bytes_consumed (decoder)
             <= tach_reader_get_sample_region_size (reader));
    }
  CHECK (r == pass->result);
  CHECK (i == pass->n_samples);
  if (r < 0)
    CHECK_ERR (strcmp (error.message, pass->message) == 0, &error);
  tach_decoder_free (decoder);
}

/* Decodes the file at PATH (a copy of DATA) up to sample STOP, then cuts
 * the file short (or, when TRUNCATE is false, rewrites a byte of it and
 * moves its modification time), and decodes on: the end must be the
 * change, however far the decoder had read ahead. */
static void
decode_through_change (const uint8_t *data,
                       size_t         size,
                       uint64_t       stop,
                       bool           truncate,
                       uint64_t       where)
{
  char path[64];
  int fd = make_file (data, size, path, sizeof path);
  TachReader *reader = NULL;
  TachDecoder *decoder = NULL;
  TachError error;
  TachSample sample;
  uint64_t i = 0;
  int r;

  if (fd < 0)
    return;
  CHECK_ERR (tach_reader_open_path (path, &reader, &error) == TACH_OK, &error);
  CHECK (tach_decoder_new (reader, &decoder, &error) == TACH_OK);
  tach_decoder_set_pipelined (decoder, (where & 1) != 0);
  while (i < stop && (r = tach_decoder_next (decoder, &sample, &error)) == 1)
    i++;
  CHECK (i == stop);

  if (truncate)
    CHECK (ftruncate (fd, (off_t) (where % size)) == 0);
  else
    {
      struct timespec times[2] = { { 0, UTIME_OMIT }, { 12345, 678 } };
      uint8_t byte = data[where % size] ^ 0x5a;

      CHECK (pwrite (fd, &byte, 1, (off_t) (where % size)) == 1);
      CHECK (futimens (fd, times) == 0);
    }

  while ((r = tach_decoder_next (decoder, &sample, &error)) == 1)
    ;
  CHECK (r == -1);
  CHECK_ERR (error.status == TACH_ERROR_CHANGED, &error);
  CHECK_ERR (error.phase == TACH_PHASE_DECODE, &error);
  CHECK (memchr (error.message, '\0', sizeof error.message) != NULL);
  CHECK_ERR (strstr (error.message, "changed while it was being read") != NULL, &error);
  tach_decoder_free (decoder);
  tach_reader_free (reader);

  /* The changed file opens or is refused, like any other. */
  if (tach_reader_open_path (path, &reader, &error) == TACH_OK)
    tach_reader_free (reader);
  close (fd);
}

static void
check_file (const uint8_t    *data,
            size_t            size,
            TachStatus        memory_status,
            const TachError  *memory_error,
            const TachReader *memory_reader,
            const FirstPass  *pass)
{
  char path[64];
  int fd = make_file (data, size, path, sizeof path);
  TachReader *reader = NULL;
  TachError error;
  TachStatus status;
  uint64_t h = 0;

  if (fd < 0)
    return;
  memset (&error, 0xa5, sizeof error);
  status = tach_reader_open_path (path, &reader, &error);
  CHECK_ERR (status == memory_status, &error);
  if (status != TACH_OK)
    {
      check_error (&error, status);
      CHECK (strcmp (error.message, memory_error->message) == 0);
      CHECK (error.offset == memory_error->offset);
      close (fd);
      return;
    }
  check_same_tables (memory_reader, reader);
  if (pass->result != -2 && pass->n_samples <= pass->n_hashes)
    {
      decode_file_and_compare (reader, pass, false);
      decode_file_and_compare (reader, pass, true);
    }
  tach_reader_free (reader);
  close (fd);

  if (pass->result == -2 || pass->n_samples > pass->n_hashes)
    return;
  for (size_t i = 0; i < size; i++)
    h = mix (h, data[i]);
  decode_through_change (data, size, pass->n_samples ? h % (pass->n_samples + 1) : 0, true, h);
  decode_through_change (data, size, pass->n_samples ? (h >> 7) % (pass->n_samples + 1) : 0,
                         false, h >> 3);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  TachReader *reader = NULL;
  TachError error;
  TachStatus status;
  FirstPass pass = { 0 };

  memset (&error, 0xa5, sizeof error);
  status = tach_reader_open_memory (data, size, &reader, &error);
  if (status != TACH_OK)
    {
      check_error (&error, status);
      CHECK (error.phase == TACH_PHASE_OPEN);
      CHECK (reader == NULL);
      /* Without an error to fill, the outcome must be the same. */
      CHECK (tach_reader_open_memory (data, size, &reader, NULL) == status);
      CHECK (reader == NULL);
      check_file (data, size, status, &error, NULL, &pass);
      return 0;
    }
  CHECK (reader != NULL);

  check_tables (reader, data, size);
  decode_and_check (reader, &pass);
  decode_again (reader, &pass);
  decode_batches (reader, &pass);
  check_file (data, size, status, &error, reader, &pass);

  free (pass.hashes);
  tach_reader_free (reader);
  return 0;
}
