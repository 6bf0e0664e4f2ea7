/* tach-decoder-source.c: the decoded bytes of a sample region
 *
 * Where the decoder's records come from: the stored region, read a buffer
 * at a time with pread () (or from memory), decompressed by a zstd stream
 * when it is compressed, and, for a big compressed region, a thread that
 * decompresses into a ring of chunks while the caller decodes.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdatomic.h>
#include <pthread.h>

#include <zstd.h>

#include "tach-decoder-private.h"

bool
decoder_stream_init (Stream           *s,
             const TachReader *reader)
{
  memset (s, 0, sizeof *s);
  s->reader = reader;
  s->size = reader->header.string_table_offset - TACH_HEADER_SIZE;
  s->compressed = reader->header.compression_type == TACH_COMPRESSION_ZSTD;
  if (!reader->from_file)
    s->mem = reader->data + TACH_HEADER_SIZE;
  if (!s->compressed)
    return true;

  if ((s->zstream = ZSTD_createDStream ()) == NULL)
    return false;
  ZSTD_initDStream (s->zstream);
  if (s->mem != NULL)
    {
      /* All of it is input already. */
      s->in.src = s->mem;
      s->in.size = (size_t) s->size;
      s->done = s->size;
      return true;
    }
  s->in_cap = ZSTD_DStreamInSize ();
  if ((s->in_buf = malloc (s->in_cap)) == NULL)
    return false;
  s->in.src = s->in_buf;
  return true;
}

void
decoder_stream_clear (Stream *s)
{
  ZSTD_freeDStream (s->zstream);
  free (s->in_buf);
  memset (s, 0, sizeof *s);
}

/* Stored bytes of the region the stream has used up. */
uint64_t
decoder_stream_consumed (const Stream *s)
{
  return s->compressed ? s->done - (s->in.size - s->in.pos) : s->done;
}

/* Reads the next LEN stored bytes of the region into BUF. */
static bool
stream_read (Stream    *s,
             uint8_t   *buf,
             size_t     len,
             TachError *error)
{
  if (tach_reader_read_at (s->reader, buf, len, TACH_HEADER_SIZE + s->done, TACH_PHASE_DECODE,
                           error) != TACH_OK)
    return false;
  s->done += len;
  return true;
}

/* Puts decoded bytes at DST[*LEN .. CAP) until *LEN reaches NEED (a raw
 * region from a file: CAP) or the stream ends.  Returns 0, 1 when nothing
 * follows DST[*LEN], or -1 with ERROR set. */
static int
stream_fill (Stream    *s,
             uint8_t   *dst,
             size_t     cap,
             size_t    *len,
             size_t     need,
             TachError *error)
{
  ZSTD_outBuffer out = { dst, cap, *len };

  if (!s->compressed)
    {
      uint64_t left = s->size - s->done;
      size_t n = left < cap - *len ? (size_t) left : cap - *len;

      /* A raw region is only read from a file here. */
      if (n > 0 && !stream_read (s, dst + *len, n, error))
        return -1;
      *len += n;
      return s->done == s->size ? 1 : 0;
    }

  while (out.pos < need)
    {
      size_t ret;

      if (s->in.pos == s->in.size && s->done < s->size)
        {
          uint64_t left = s->size - s->done;
          size_t n = left < s->in_cap ? (size_t) left : s->in_cap;

          if (!stream_read (s, s->in_buf, n, error))
            return -1;
          s->in.size = n;
          s->in.pos = 0;
        }

      ret = ZSTD_decompressStream (s->zstream, &out, &s->in);
      if (ZSTD_isError (ret))
        {
          tach_set_error (error, TACH_ERROR_INVALID, TACH_PHASE_DECODE, TACH_HEADER_SIZE,
                          "zstd decompression error: %s (compressed sample region, bytes 64 to "
                          "%llu of the file)", ZSTD_getErrorName (ret),
                          (unsigned long long) (TACH_HEADER_SIZE + s->size));
          return -1;
        }
      if (s->in.pos == s->in.size && s->done == s->size)
        {
          if (ret == 0)
            {
              *len = out.pos;
              return 1;
            }
          /* Room left for output, no input left, and the frame is open. */
          if (out.pos < out.size)
            {
              tach_set_error (error, TACH_ERROR_INVALID, TACH_PHASE_DECODE, TACH_HEADER_SIZE,
                              "Incomplete zstd frame: data may be truncated (compressed sample "
                              "region ends at byte %llu)",
                              (unsigned long long) (TACH_HEADER_SIZE + s->size));
              return -1;
            }
        }
    }
  *len = out.pos;
  return 0;
}

static void *
producer_main (void *data)
{
  Pipeline *pipe = data;

  for (;;)
    {
      Chunk *chunk;
      size_t len = 0;
      int status;

      pthread_mutex_lock (&pipe->lock);
      while (pipe->filled == N_CHUNKS && !pipe->stop)
        pthread_cond_wait (&pipe->cond, &pipe->lock);
      if (pipe->stop)
        {
          pthread_mutex_unlock (&pipe->lock);
          break;
        }
      chunk = &pipe->chunks[pipe->tail];
      pthread_mutex_unlock (&pipe->lock);

      status = stream_fill (&pipe->stream, chunk->mem + PREFIX_SPACE, CHUNK_SIZE, &len,
                            CHUNK_SIZE, &chunk->error);
      chunk->len = len;
      chunk->status = status;
      atomic_store (&pipe->in_pos, (size_t) decoder_stream_consumed (&pipe->stream));

      pthread_mutex_lock (&pipe->lock);
      pipe->tail = (pipe->tail + 1) % N_CHUNKS;
      pipe->filled++;
      pthread_cond_broadcast (&pipe->cond);
      pthread_mutex_unlock (&pipe->lock);

      if (status != 0)
        break;
    }
  return NULL;
}

void
decoder_pipeline_free (Pipeline *pipe)
{
  if (pipe == NULL)
    return;
  pthread_mutex_lock (&pipe->lock);
  pipe->stop = true;
  pthread_cond_broadcast (&pipe->cond);
  pthread_mutex_unlock (&pipe->lock);
  pthread_join (pipe->thread, NULL);
  pthread_mutex_destroy (&pipe->lock);
  pthread_cond_destroy (&pipe->cond);
  for (unsigned i = 0; i < N_CHUNKS; i++)
    free (pipe->chunks[i].mem);
  decoder_stream_clear (&pipe->stream);
  free (pipe);
}

static Pipeline *
pipeline_new (const TachReader *reader)
{
  Pipeline *pipe = calloc (1, sizeof *pipe);

  if (pipe == NULL)
    return NULL;
  pipe->current = -1;
  for (unsigned i = 0; i < N_CHUNKS; i++)
    if ((pipe->chunks[i].mem = malloc (PREFIX_SPACE + CHUNK_SIZE)) == NULL)
      goto failed;
  if (!decoder_stream_init (&pipe->stream, reader))
    goto failed;
  if (pthread_mutex_init (&pipe->lock, NULL) != 0)
    goto failed;
  if (pthread_cond_init (&pipe->cond, NULL) != 0)
    {
      pthread_mutex_destroy (&pipe->lock);
      goto failed;
    }
  if (pthread_create (&pipe->thread, NULL, producer_main, pipe) != 0)
    {
      pthread_mutex_destroy (&pipe->lock);
      pthread_cond_destroy (&pipe->cond);
      goto failed;
    }
  return pipe;

failed:
  for (unsigned i = 0; i < N_CHUNKS; i++)
    free (pipe->chunks[i].mem);
  decoder_stream_clear (&pipe->stream);
  free (pipe);
  return NULL;
}

/* Ends the decode with the error in dec->failure.  Bytes that break the
 * format in a file that changed since it was opened say more about the
 * change than about the file: the change is reported instead. */
int
decoder_decode_failed (TachDecoder *dec)
{
  dec->state = -1;
  dec->run_left = 0;
  if (dec->failure.status == TACH_ERROR_INVALID && dec->from_file
      && tach_reader_file_changed (dec->reader, NULL))
    tach_set_changed_error (&dec->failure, dec->reader, TACH_PHASE_DECODE,
                            TACH_HEADER_SIZE + tach_decoder_get_bytes_consumed (dec));
  return -1;
}

int
decoder_fail_with (TachDecoder *dec,
           TachStatus   status,
           const char  *message)
{
  dec->failure.status = status;
  dec->failure.phase = TACH_PHASE_DECODE;
  dec->failure.offset = TACH_HEADER_SIZE;
  dec->failure.in_decompressed = false;
  snprintf (dec->failure.message, sizeof dec->failure.message, "%s", message);
  return decoder_decode_failed (dec);
}

/* Moves the window to the next chunk, carrying the unread bytes along. */
static int
pipeline_refill (TachDecoder *dec)
{
  Pipeline *pipe = dec->pipe;
  size_t have = (size_t) (dec->end - dec->pos);
  uint64_t base = stream_offset (dec, dec->pos);
  Chunk *next;

  assert (have <= PREFIX_SPACE);

  pthread_mutex_lock (&pipe->lock);
  while (pipe->filled == 0 || (pipe->current >= 0 && pipe->filled == 1))
    pthread_cond_wait (&pipe->cond, &pipe->lock);
  next = &pipe->chunks[pipe->head];
  pthread_mutex_unlock (&pipe->lock);

  if (next->status < 0)
    {
      dec->failure = next->error;
      return decoder_decode_failed (dec);
    }

  memcpy (next->mem + PREFIX_SPACE - have, dec->pos, have);

  pthread_mutex_lock (&pipe->lock);
  if (pipe->current >= 0)
    {
      pipe->filled--;
      pthread_cond_broadcast (&pipe->cond);
    }
  pipe->current = (int) pipe->head;
  pipe->head = (pipe->head + 1) % N_CHUNKS;
  pthread_mutex_unlock (&pipe->lock);

  dec->window_start = dec->pos = next->mem + PREFIX_SPACE - have;
  dec->end = next->mem + PREFIX_SPACE + next->len;
  dec->window_base = base;
  dec->eof = next->status == 1;
  return 0;
}

/* Makes at least NEED (at most PREFIX_SPACE) bytes available in the window,
 * unless the stream ends first.  Returns -1 on an error. */
int
decoder_refill (TachDecoder *dec,
        size_t       need)
{
  size_t have = (size_t) (dec->end - dec->pos);
  int status;

  while (!dec->eof && have < need)
    {
      /* Start the thread on the first decoder_refill, so that a decoder that is
       * made and dropped costs nothing; without a thread, read in line. */
      if (dec->want_pipe && dec->pipe == NULL && !dec->started)
        {
          dec->want_pipe = false;
          dec->pipe = pipeline_new (dec->reader);
        }
      dec->started = true;
      if (dec->pipe != NULL)
        {
          if (pipeline_refill (dec) < 0)
            return -1;
          have = (size_t) (dec->end - dec->pos);
          continue;
        }

      /* Exactly as the thread fills a chunk of the ring: the unread tail
       * in front of a whole new chunk.  Both ways then meet the end of the
       * stream, or an error in it, at the same record, and give the same
       * samples before it. */
      {
        uint8_t *chunk = dec->buf + PREFIX_SPACE;
        uint64_t base = stream_offset (dec, dec->pos);
        size_t len = 0;

        assert (have <= PREFIX_SPACE);
        memmove (chunk - have, dec->pos, have);
        status = stream_fill (&dec->stream, chunk, CHUNK_SIZE, &len, CHUNK_SIZE, &dec->failure);
        if (status < 0)
          return decoder_decode_failed (dec);
        dec->window_start = dec->pos = chunk - have;
        dec->end = chunk + len;
        dec->window_base = base;
        dec->eof = status == 1;
        have += len;
      }
    }
  if (dec->eof && !dec->total_known)
    {
      dec->total_known = true;
      dec->total = stream_offset (dec, dec->end);
    }
  return 0;
}

bool
decoder_cancelled (TachDecoder *dec)
{
  if (dec->cancel_func == NULL || !dec->cancel_func (dec->cancel_data))
    return false;
  dec->failure.status = TACH_ERROR_CANCELLED;
  dec->failure.phase = TACH_PHASE_DECODE;
  dec->failure.offset = UINT64_MAX;
  dec->failure.in_decompressed = false;
  snprintf (dec->failure.message, sizeof dec->failure.message, "Cancelled");
  dec->state = -1;
  dec->run_left = 0;
  return true;
}

/* Reads the rest of the stream to learn its total size.  Returns -1 when
 * the stream is corrupt: that is the error CPython would have reported, at
 * open, before looking at any record. */
int
decoder_drain (TachDecoder *dec,
       uint64_t    *total)
{
  while (!dec->eof)
    {
      dec->pos = dec->end;
      if (decoder_cancelled (dec) || decoder_refill (dec, 1) < 0)
        return -1;
    }
  *total = stream_offset (dec, dec->end);
  return 0;
}
