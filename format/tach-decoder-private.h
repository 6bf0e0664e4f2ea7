/* tach-decoder-private.h: what the decoder's files share
 *
 * The decoder's state, its source of decoded bytes (a stream, or the
 * pipeline's ring of chunks), and the functions of tach-decoder-source.c
 * that the record parser calls.
 */
#pragma once

#include <stdatomic.h>
#include <pthread.h>

#include <zstd.h>

#include "tach-private.h"

#define CHUNK_SIZE (128 * 1024)

typedef struct Pipeline Pipeline;

/* The decoded bytes of a sample region, from wherever they are stored:
 * the region of a reader over memory, or the reader's file, read with
 * pread () a buffer at a time (never mapped: a mapped file that shrinks
 * raises SIGBUS).  A compressed region goes through a zstd stream. */
typedef struct
{
  const TachReader *reader;
  const uint8_t    *mem;          /* the stored region in memory, or NULL */
  uint64_t          size;         /* stored bytes of the region */
  uint64_t          done;         /* of them read so far */
  bool              compressed;
  ZSTD_DStream     *zstream;
  ZSTD_inBuffer     in;
  uint8_t          *in_buf;       /* a file's compressed bytes, for IN */
  size_t            in_cap;
} Stream;

typedef struct
{
  uint64_t  prev_ts;
  uint32_t  cap;
  uint32_t  depth;
  uint32_t *frames;       /* the stack is frames[cap - depth .. cap) */
} Thread;

struct TachDecoder
{
  TachReader     *reader;
  bool            swap;
  uint32_t        n_frames;
  const uint8_t  *frame_ok;
  /* Every frame of the table names strings that exist: then a frame index
   * is valid exactly when it is below n_frames. */
  bool            all_frames_ok;

  /* The window of decoded bytes: [pos, end) is still to be read, and the
   * byte at window_start is at window_base in the stream. */
  const uint8_t  *window_start;
  const uint8_t  *pos;
  const uint8_t  *end;
  uint64_t        window_base;
  bool            eof;    /* nothing follows end */
  /* The size of the decoded stream, once known: at once for a raw
   * region, at its end for a compressed one. */
  bool            total_known;
  uint64_t        total;

  bool            compressed;
  bool            from_file;
  bool            started;        /* the stream has been read from */
  Stream          stream;         /* when not pipelined */
  uint8_t        *buf;            /* PREFIX_SPACE + CHUNK_SIZE, in line */
  Pipeline       *pipe;           /* when reading on a thread */
  bool            want_pipe;

  Thread         *threads;
  TachThreadKey  *keys;
  uint32_t        n_threads;
  uint32_t        threads_cap;
  uint32_t       *table;  /* open addressing: thread index + 1, 0 empty */
  uint32_t        table_mask;
  uint64_t        seed;

  TachCancelFunc  cancel_func;
  void           *cancel_data;
  uint32_t        empty_records;  /* since the last look at cancel_func */

  /* The REPEAT run being delivered. */
  uint32_t        run_left;
  uint32_t        run_length;
  uint32_t        run_thread;
  uint64_t        run_record_offset;
  uint64_t        run_data_offset;
  bool            run_checked;
  Thread         *run_t;
  TachSample      run_template;   /* what every sample of the run shares */
  uint64_t        batch_timestamps[TACH_BATCH_MAX];
  uint8_t         batch_statuses[TACH_BATCH_MAX];

  uint64_t        samples;
  int             state;  /* 0 running, 1 finished, -1 failed */
  TachError       failure;
};

static inline uint64_t
stream_offset (const TachDecoder *dec,
               const uint8_t     *p)
{
  return dec->window_base + (uint64_t) (p - dec->window_start);
}

/* Error offsets are file offsets for raw regions and offsets in the
 * decompressed stream otherwise. */
static inline uint64_t
report_offset (const TachDecoder *dec,
               uint64_t           offset)
{
  return dec->compressed ? offset : offset + TACH_HEADER_SIZE;
}

/* The pipelined source: a thread decompresses (or reads) into a ring of
 * chunks while the caller decodes records, so that a compressed profile
 * decodes in about the time zstd alone takes.  Each chunk keeps
 * PREFIX_SPACE bytes in front, where the consumer copies the unread tail
 * of the previous chunk, so that a record never straddles two chunks. */
#define N_CHUNKS      4
#define PREFIX_SPACE  4096
#define PIPELINE_MIN  (256 * 1024)

static_assert (PREFIX_SPACE >= TACH_MAX_RECORD_BYTES, "a record must fit in front of a chunk");

typedef struct
{
  uint8_t  *mem;          /* PREFIX_SPACE + CHUNK_SIZE bytes */
  size_t    len;          /* decoded bytes at mem + PREFIX_SPACE */
  int       status;       /* 0 more follows, 1 end of stream, -1 error */
  TachError error;
} Chunk;

struct Pipeline
{
  pthread_t      thread;
  pthread_mutex_t lock;
  pthread_cond_t cond;
  Chunk          chunks[N_CHUNKS];
  unsigned       filled;  /* chunks produced and not yet released */
  unsigned       head;    /* next chunk to consume */
  unsigned       tail;    /* next chunk to produce */
  int            current; /* chunk the window is in, or -1 */
  bool           stop;
  Stream         stream;
  atomic_size_t  in_pos;  /* decoder_stream_consumed (), for progress reports */
};

bool decoder_stream_init (Stream           *s,
                          const TachReader *reader);

void decoder_stream_clear (Stream *s);

uint64_t decoder_stream_consumed (const Stream *s);

void decoder_pipeline_free (Pipeline *pipe);

int decoder_decode_failed (TachDecoder *dec);

int decoder_fail_with (TachDecoder *dec,
                       TachStatus   status,
                       const char  *message);

int decoder_refill (TachDecoder *dec,
                    size_t       need);

bool decoder_cancelled (TachDecoder *dec);

int decoder_drain (TachDecoder *dec,
                   uint64_t    *total);
