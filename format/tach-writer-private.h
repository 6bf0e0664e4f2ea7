/* tach-writer-private.h: what the writer's files share
 *
 * The writer's state, the encoding helpers its loops inline, and the
 * functions of tach-writer.c and tach-writer-tables.c that the other uses.
 */
#pragma once

#include <assert.h>
#include <stdio.h>
#include <string.h>

#include <zstd.h>

#include "tachyon-format.h"

#define TACH_MAGIC              0x54414348u
#define TACH_FORMAT_VERSION     1u
#define TACH_RECORD_PREFIX_SIZE 13
#define TACH_MAX_VARINT_SIZE    10

/* CPython's write buffer; the zstd stream is fed in chunks of exactly this
 * size (§10). */
#define WRITE_BUFFER_SIZE       (512 * 1024)
/* Per-thread pending REPEAT run (§4.9) and its worst-case entry: a 10-byte
 * delta varint and the status byte. */
#define RLE_BUFFER_SIZE         (16 * 1024)
#define RLE_ENTRY_MAX_SIZE      (TACH_MAX_VARINT_SIZE + 1)

#define STATS_SIGNATURE         "TACHSTAT"
#define STATS_VERSION           1u
#define STATS_SIZE_V56          56u
#define STATS_SIZE_V32          32u

#define DEFAULT_ZSTD_LEVEL      5

/* The largest real opcode; anything else is stored as "none" (§6.2). */
#define MAX_REAL_OPCODE         254

static_assert (TACH_HEADER_SIZE == 64, "the header is 64 bytes (§3)");
static_assert (TACH_FOOTER_SIZE == 32, "the footer is 32 bytes (§8)");
static_assert (RLE_BUFFER_SIZE / 2 <= UINT32_MAX, "RLE counts fit a u32");

typedef struct
{
  size_t   offset;                /* into TachWriter.string_pool */
  uint32_t length;
  uint32_t hash;
} StringEntry;

/* The seven fields CPython deduplicates frames on (§6.3). */
typedef struct
{
  uint32_t filename;
  uint32_t funcname;
  int32_t  lineno;
  int32_t  end_lineno;
  int32_t  column;
  int32_t  end_column;
  uint8_t  opcode;
} FrameKey;

typedef struct
{
  uint64_t  thread_id;
  uint32_t  interpreter_id;
  uint64_t  prev_timestamp;
  uint16_t  prev_depth;
  uint32_t  rle_samples;
  size_t    rle_bytes;
  uint8_t  *rle;                  /* RLE_BUFFER_SIZE, allocated on first use */
  uint32_t *prev_stack;           /* TACH_MAX_STACK_DEPTH entries */
} ThreadEntry;

/* Open-addressing index: slots hold entry index + 1, 0 is empty.  The
 * capacity is a power of two and at most half full. */
typedef struct
{
  uint32_t *slots;
  size_t    capacity;
} Index;

struct TachWriter
{
  char              *path;
  FILE              *file;
  TachWriterOptions  options;
  uint8_t            python_version[3];
  /* Bytes written to the file so far, i.e. the current offset. */
  uint64_t           position;
  /* Set by the first I/O or compression error: the file is then unusable
   * and every later call fails. */
  bool               failed;

  uint8_t           *buffer;      /* WRITE_BUFFER_SIZE record bytes */
  size_t             buffer_used;

  ZSTD_CCtx         *zstd;
  uint8_t           *zstd_out;
  size_t             zstd_out_size;

  char              *string_pool;
  size_t             string_pool_used;
  size_t             string_pool_size;
  StringEntry       *strings;
  uint32_t           n_strings;
  size_t             strings_size;
  Index              string_index;

  FrameKey          *frames;
  uint32_t           n_frames;
  size_t             frames_size;
  Index              frame_index;

  ThreadEntry       *threads;     /* in creation order */
  uint32_t           n_threads;
  size_t             threads_size;
  Index              thread_index;

  uint64_t           total_samples;

  bool               has_stats;
  uint32_t           stats_size;
  uint32_t           stats_flags;
  double             stats_values[4];
};

/* ------------------------------------------------------------------------ */
/* Encoding helpers                                                          */
/* ------------------------------------------------------------------------ */

/* Fixed-width fields are stored byte by byte in the file's order, so the
 * result does not depend on the host's byte order. */
static inline void
store_u32 (uint8_t  *p,
           uint32_t  v,
           bool      big_endian)
{
  for (int i = 0; i < 4; i++)
    p[big_endian ? 3 - i : i] = (uint8_t) (v >> (8 * i));
}

static inline void
store_u64 (uint8_t  *p,
           uint64_t  v,
           bool      big_endian)
{
  for (int i = 0; i < 8; i++)
    p[big_endian ? 7 - i : i] = (uint8_t) (v >> (8 * i));
}

static inline void
store_f64 (uint8_t *p,
           double   v,
           bool     big_endian)
{
  uint64_t bits;

  static_assert (sizeof bits == sizeof v, "IEEE-754 binary64 doubles");
  memcpy (&bits, &v, sizeof bits);
  store_u64 (p, bits, big_endian);
}

static inline size_t
encode_uvarint (uint8_t  *p,
                uint64_t  v)
{
  size_t n = 0;

  while (v >= 0x80)
    {
      p[n++] = (uint8_t) (v | 0x80);
      v >>= 7;
    }
  p[n++] = (uint8_t) v;

  return n;
}

/* Zigzag in 32-bit arithmetic, as CPython's encode_varint_i32 (§1). */
static inline size_t
encode_svarint (uint8_t *p,
                int32_t  v)
{
  uint32_t u = (uint32_t) v;
  uint32_t z = (u << 1) ^ (v < 0 ? UINT32_MAX : 0);

  return encode_uvarint (p, z);
}

/* Differences of int32 values wrap as CPython's int32_t subtraction does
 * (in practice), without signed overflow. */
static inline int32_t
wrapping_sub_i32 (int32_t a,
                  int32_t b)
{
  uint32_t d = (uint32_t) a - (uint32_t) b;

  return d <= INT32_MAX ? (int32_t) d : -(int32_t) (UINT32_MAX - d) - 1;
}

static inline uint32_t
hash_bytes (const void *data,
            size_t      len)
{
  const uint8_t *p = data;
  uint32_t h = 2166136261u;

  for (size_t i = 0; i < len; i++)
    {
      h ^= p[i];
      h *= 16777619u;
    }

  return h;
}

static inline uint32_t
hash_mix (uint32_t h,
          uint32_t v)
{
  h ^= v;
  h *= 16777619u;
  return h;
}

/* Grows *ARRAY (of *SIZE elements of ELEM bytes) to hold at least NEEDED. */
static inline bool
grow_array (void   **array,
            size_t  *size,
            size_t   needed,
            size_t   elem)
{
  size_t new_size;
  void *p;

  if (needed <= *size)
    return true;

  new_size = *size ? *size : 16;
  while (new_size < needed)
    {
      if (new_size > SIZE_MAX / 2)
        return false;
      new_size *= 2;
    }
  if (new_size > SIZE_MAX / elem)
    return false;

  p = realloc (*array, new_size * elem);
  if (p == NULL)
    return false;

  *array = p;
  *size = new_size;
  return true;
}

TachStatus writer_set_error (TachError  *error,
                             TachStatus  status,
                             const char *format,
                             ...)
#if defined(__GNUC__)
  __attribute__ ((format (printf, 3, 4)))
#endif
  ;

TachStatus writer_set_no_memory (TachError *error);

TachStatus writer_file_write (TachWriter *writer,
                              const void *data,
                              size_t      len,
                              TachError  *error);

ThreadEntry *writer_lookup_thread (TachWriter *writer,
                                   uint64_t    thread_id,
                                   uint32_t    interpreter_id);

TachStatus writer_create_thread (TachWriter   *writer,
                                 uint64_t      thread_id,
                                 uint32_t      interpreter_id,
                                 bool          with_rle,
                                 ThreadEntry **out,
                                 TachError    *error);

TachStatus writer_write_string_table (TachWriter *writer,
                                      TachError  *error);

TachStatus writer_write_frame_table (TachWriter *writer,
                                     TachError  *error);
