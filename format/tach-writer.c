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
/* Errors                                                                    */
/* ------------------------------------------------------------------------ */

#if defined(__GNUC__)
__attribute__ ((format (printf, 3, 4)))
#endif
static TachStatus
set_error (TachError  *error,
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

static TachStatus
set_no_memory (TachError *error)
{
  return set_error (error, TACH_ERROR_NO_MEMORY, "Out of memory");
}

/* ------------------------------------------------------------------------ */
/* Encoding helpers                                                          */
/* ------------------------------------------------------------------------ */

/* Fixed-width fields are stored byte by byte in the file's order, so the
 * result does not depend on the host's byte order. */
static void
store_u32 (uint8_t  *p,
           uint32_t  v,
           bool      big_endian)
{
  for (int i = 0; i < 4; i++)
    p[big_endian ? 3 - i : i] = (uint8_t) (v >> (8 * i));
}

static void
store_u64 (uint8_t  *p,
           uint64_t  v,
           bool      big_endian)
{
  for (int i = 0; i < 8; i++)
    p[big_endian ? 7 - i : i] = (uint8_t) (v >> (8 * i));
}

static void
store_f64 (uint8_t *p,
           double   v,
           bool     big_endian)
{
  uint64_t bits;

  static_assert (sizeof bits == sizeof v, "IEEE-754 binary64 doubles");
  memcpy (&bits, &v, sizeof bits);
  store_u64 (p, bits, big_endian);
}

static size_t
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
static size_t
encode_svarint (uint8_t *p,
                int32_t  v)
{
  uint32_t u = (uint32_t) v;
  uint32_t z = (u << 1) ^ (v < 0 ? UINT32_MAX : 0);

  return encode_uvarint (p, z);
}

/* Differences of int32 values wrap as CPython's int32_t subtraction does
 * (in practice), without signed overflow. */
static int32_t
wrapping_sub_i32 (int32_t a,
                  int32_t b)
{
  uint32_t d = (uint32_t) a - (uint32_t) b;

  return d <= INT32_MAX ? (int32_t) d : -(int32_t) (UINT32_MAX - d) - 1;
}

static uint32_t
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

static uint32_t
hash_mix (uint32_t h,
          uint32_t v)
{
  h ^= v;
  h *= 16777619u;
  return h;
}

/* Grows *ARRAY (of *SIZE elements of ELEM bytes) to hold at least NEEDED. */
static bool
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

/* ------------------------------------------------------------------------ */
/* Hash indexes                                                              */
/* ------------------------------------------------------------------------ */

typedef bool (*IndexMatch) (const TachWriter *writer,
                            uint32_t          entry,
                            const void       *key);
typedef uint32_t (*IndexHash) (const TachWriter *writer,
                               uint32_t          entry);

/* Returns the slot that holds KEY, or the empty slot where it would go. */
static size_t
index_find (const TachWriter *writer,
            const Index      *index,
            uint32_t          hash,
            IndexMatch        match,
            const void       *key)
{
  size_t mask = index->capacity - 1;
  size_t i = hash & mask;

  while (index->slots[i] != 0 && !match (writer, index->slots[i] - 1, key))
    i = (i + 1) & mask;

  return i;
}

/* Makes room for one more entry once the index holds COUNT. */
static bool
index_reserve (TachWriter *writer,
               Index      *index,
               uint32_t    count,
               IndexHash   hash)
{
  size_t new_capacity;
  uint32_t *slots;

  if (index->capacity != 0 && ((size_t) count + 1) <= index->capacity / 2)
    return true;

  new_capacity = index->capacity ? index->capacity : 64;
  while (((size_t) count + 1) > new_capacity / 2)
    {
      if (new_capacity > SIZE_MAX / 2 / sizeof *slots)
        return false;
      new_capacity *= 2;
    }

  slots = calloc (new_capacity, sizeof *slots);
  if (slots == NULL)
    return false;

  for (uint32_t e = 0; e < count; e++)
    {
      size_t i = hash (writer, e) & (new_capacity - 1);

      while (slots[i] != 0)
        i = (i + 1) & (new_capacity - 1);
      slots[i] = e + 1;
    }

  free (index->slots);
  index->slots = slots;
  index->capacity = new_capacity;
  return true;
}

typedef struct
{
  const char *data;
  size_t      length;
} StringKey;

static bool
string_match (const TachWriter *writer,
              uint32_t          entry,
              const void       *key)
{
  const StringKey *k = key;
  const StringEntry *s = &writer->strings[entry];

  return s->length == k->length
         && memcmp (writer->string_pool + s->offset, k->data, k->length) == 0;
}

static uint32_t
string_hash (const TachWriter *writer,
             uint32_t          entry)
{
  return writer->strings[entry].hash;
}

static uint32_t
frame_key_hash (const FrameKey *k)
{
  uint32_t h = 2166136261u;

  h = hash_mix (h, k->filename);
  h = hash_mix (h, k->funcname);
  h = hash_mix (h, (uint32_t) k->lineno);
  h = hash_mix (h, (uint32_t) k->end_lineno);
  h = hash_mix (h, (uint32_t) k->column);
  h = hash_mix (h, (uint32_t) k->end_column);
  h = hash_mix (h, k->opcode);

  return h;
}

static bool
frame_match (const TachWriter *writer,
             uint32_t          entry,
             const void       *key)
{
  const FrameKey *a = &writer->frames[entry];
  const FrameKey *b = key;

  return a->filename == b->filename && a->funcname == b->funcname
         && a->lineno == b->lineno && a->end_lineno == b->end_lineno
         && a->column == b->column && a->end_column == b->end_column
         && a->opcode == b->opcode;
}

static uint32_t
frame_hash (const TachWriter *writer,
            uint32_t          entry)
{
  return frame_key_hash (&writer->frames[entry]);
}

typedef struct
{
  uint64_t thread_id;
  uint32_t interpreter_id;
} ThreadKey;

static uint32_t
thread_key_hash (uint64_t thread_id,
                 uint32_t interpreter_id)
{
  uint32_t h = 2166136261u;

  h = hash_mix (h, (uint32_t) thread_id);
  h = hash_mix (h, (uint32_t) (thread_id >> 32));
  h = hash_mix (h, interpreter_id);

  return h;
}

static bool
thread_match (const TachWriter *writer,
              uint32_t          entry,
              const void       *key)
{
  const ThreadKey *k = key;
  const ThreadEntry *t = &writer->threads[entry];

  return t->thread_id == k->thread_id && t->interpreter_id == k->interpreter_id;
}

static uint32_t
thread_hash (const TachWriter *writer,
             uint32_t          entry)
{
  const ThreadEntry *t = &writer->threads[entry];

  return thread_key_hash (t->thread_id, t->interpreter_id);
}

/* ------------------------------------------------------------------------ */
/* Output                                                                    */
/* ------------------------------------------------------------------------ */

static TachStatus
file_write (TachWriter *writer,
            const void *data,
            size_t      len,
            TachError  *error)
{
  if (len == 0)
    return TACH_OK;

  if (len > UINT64_MAX - writer->position)
    {
      writer->failed = true;
      return set_error (error, TACH_ERROR_IO, "%s: file too large", writer->path);
    }

  if (fwrite (data, 1, len, writer->file) != len)
    {
      int saved = errno;

      writer->failed = true;
      return set_error (error, TACH_ERROR_IO, "%s: write failed at offset %llu: %s",
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
          return set_error (error, TACH_ERROR_IO, "zstd compression error: %s",
                            ZSTD_getErrorName (remaining));
        }

      status = file_write (writer, writer->zstd_out, output.pos, error);
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
    status = file_write (writer, writer->buffer, writer->buffer_used, error);

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
    return set_error (error, TACH_ERROR_ARGUMENT, "tach_writer_new: OUT is NULL");
  *out = NULL;
  if (path == NULL || path[0] == '\0')
    return set_error (error, TACH_ERROR_ARGUMENT, "tach_writer_new: no path given");

  writer = calloc (1, sizeof *writer);
  if (writer == NULL)
    return set_no_memory (error);
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
      return set_no_memory (error);
    }
  memcpy (writer->path, path, path_len + 1);

  if (writer->options.zstd)
    {
      int level = writer->options.zstd_level ? writer->options.zstd_level : DEFAULT_ZSTD_LEVEL;
      size_t r;

      if (level < ZSTD_minCLevel () || level > ZSTD_maxCLevel ())
        {
          writer_free (writer);
          return set_error (error, TACH_ERROR_ARGUMENT,
                            "zstd level %d is outside %d..%d",
                            level, ZSTD_minCLevel (), ZSTD_maxCLevel ());
        }

      writer->zstd = ZSTD_createCCtx ();
      writer->zstd_out_size = ZSTD_CStreamOutSize ();
      writer->zstd_out = malloc (writer->zstd_out_size);
      if (writer->zstd == NULL || writer->zstd_out == NULL)
        {
          writer_free (writer);
          return set_no_memory (error);
        }

      /* CPython sets only the level; the checksum flag is off by default,
       * and stays off explicitly here because §10 depends on it. */
      r = ZSTD_CCtx_setParameter (writer->zstd, ZSTD_c_compressionLevel, level);
      if (!ZSTD_isError (r))
        r = ZSTD_CCtx_setParameter (writer->zstd, ZSTD_c_checksumFlag, 0);
      if (ZSTD_isError (r))
        {
          writer_free (writer);
          return set_error (error, TACH_ERROR_ARGUMENT, "Failed to set zstd parameters: %s",
                            ZSTD_getErrorName (r));
        }
    }

  writer->file = fopen (path, "wb");
  if (writer->file == NULL)
    {
      int saved = errno;

      status = set_error (error, TACH_ERROR_IO, "%s: cannot create file: %s",
                          path, strerror (saved));
      writer_free (writer);
      return status;
    }

  /* An all-zero header marks an interrupted write until finish rewrites
   * it (§2). */
  status = file_write (writer, placeholder, sizeof placeholder, error);
  if (status != TACH_OK)
    {
      tach_writer_abort (writer);
      return status;
    }

  *out = writer;
  return TACH_OK;
}

static TachStatus
intern_string (TachWriter *writer,
               const char *s,
               uint32_t   *index,
               TachError  *error)
{
  StringKey key = { s, strlen (s) };
  uint32_t hash = hash_bytes (s, key.length);
  StringEntry *entry;
  size_t slot;

  if (writer->string_index.capacity != 0)
    {
      slot = index_find (writer, &writer->string_index, hash, string_match, &key);
      if (writer->string_index.slots[slot] != 0)
        {
          *index = writer->string_index.slots[slot] - 1;
          return TACH_OK;
        }
    }

  if (writer->n_strings == UINT32_MAX)
    return set_error (error, TACH_ERROR_ARGUMENT, "too many strings for binary format");
  if (key.length > UINT32_MAX)
    return set_error (error, TACH_ERROR_ARGUMENT,
                      "string length %zu exceeds binary format maximum %u",
                      key.length, UINT32_MAX);
  if (key.length > SIZE_MAX - writer->string_pool_used)
    return set_no_memory (error);

  if (!grow_array ((void **) &writer->string_pool, &writer->string_pool_size,
                   writer->string_pool_used + key.length, 1)
      || !grow_array ((void **) &writer->strings, &writer->strings_size,
                      (size_t) writer->n_strings + 1, sizeof *writer->strings)
      || !index_reserve (writer, &writer->string_index, writer->n_strings, string_hash))
    return set_no_memory (error);

  entry = &writer->strings[writer->n_strings];
  entry->offset = writer->string_pool_used;
  entry->length = (uint32_t) key.length;
  entry->hash = hash;
  memcpy (writer->string_pool + writer->string_pool_used, s, key.length);
  writer->string_pool_used += key.length;

  slot = index_find (writer, &writer->string_index, hash, string_match, &key);
  writer->string_index.slots[slot] = writer->n_strings + 1;
  *index = writer->n_strings++;
  return TACH_OK;
}

TachStatus
tach_writer_intern_frame (TachWriter          *writer,
                          const TachFrameInfo *frame,
                          uint32_t            *index,
                          TachError           *error)
{
  FrameKey key;
  TachStatus status;
  uint32_t hash;
  size_t slot;

  if (writer == NULL || frame == NULL || index == NULL)
    return set_error (error, TACH_ERROR_ARGUMENT, "tach_writer_intern_frame: NULL argument");
  if (frame->filename == NULL || frame->funcname == NULL)
    return set_error (error, TACH_ERROR_ARGUMENT,
                      "tach_writer_intern_frame: frame without filename or funcname");
  if (writer->failed)
    return set_error (error, TACH_ERROR_IO, "%s: the writer failed earlier", writer->path);

  /* Same order as CPython's build_frame_stack: the two strings first, even
   * when the frame turns out to be known already. */
  status = intern_string (writer, frame->filename, &key.filename, error);
  if (status == TACH_OK)
    status = intern_string (writer, frame->funcname, &key.funcname, error);
  if (status != TACH_OK)
    return status;

  key.lineno = frame->lineno;
  key.end_lineno = frame->end_lineno;
  key.column = frame->column;
  key.end_column = frame->end_column;
  key.opcode = (frame->opcode >= 0 && frame->opcode <= MAX_REAL_OPCODE)
               ? (uint8_t) frame->opcode : TACH_OPCODE_NONE;

  hash = frame_key_hash (&key);
  if (writer->frame_index.capacity != 0)
    {
      slot = index_find (writer, &writer->frame_index, hash, frame_match, &key);
      if (writer->frame_index.slots[slot] != 0)
        {
          *index = writer->frame_index.slots[slot] - 1;
          return TACH_OK;
        }
    }

  if (writer->n_frames == UINT32_MAX)
    return set_error (error, TACH_ERROR_ARGUMENT, "too many frames for binary format");
  if (!grow_array ((void **) &writer->frames, &writer->frames_size,
                   (size_t) writer->n_frames + 1, sizeof *writer->frames)
      || !index_reserve (writer, &writer->frame_index, writer->n_frames, frame_hash))
    return set_no_memory (error);

  writer->frames[writer->n_frames] = key;
  slot = index_find (writer, &writer->frame_index, hash, frame_match, &key);
  writer->frame_index.slots[slot] = writer->n_frames + 1;
  *index = writer->n_frames++;
  return TACH_OK;
}

static ThreadEntry *
lookup_thread (TachWriter *writer,
               uint64_t    thread_id,
               uint32_t    interpreter_id)
{
  ThreadKey key = { thread_id, interpreter_id };
  size_t slot;

  if (writer->thread_index.capacity == 0)
    return NULL;

  slot = index_find (writer, &writer->thread_index, thread_key_hash (thread_id, interpreter_id),
                     thread_match, &key);
  if (writer->thread_index.slots[slot] == 0)
    return NULL;
  return &writer->threads[writer->thread_index.slots[slot] - 1];
}

/* Creates the thread entry (§4.9 step 1).  WITH_RLE allocates its run
 * buffer too, so that a failed allocation leaves no half-made thread. */
static TachStatus
create_thread (TachWriter   *writer,
               uint64_t      thread_id,
               uint32_t      interpreter_id,
               bool          with_rle,
               ThreadEntry **out,
               TachError    *error)
{
  ThreadKey key = { thread_id, interpreter_id };
  uint32_t hash = thread_key_hash (thread_id, interpreter_id);
  ThreadEntry *thread;
  size_t slot;

  if (writer->n_threads == UINT32_MAX)
    return set_error (error, TACH_ERROR_ARGUMENT, "too many threads for binary format");
  if (!grow_array ((void **) &writer->threads, &writer->threads_size,
                   (size_t) writer->n_threads + 1, sizeof *writer->threads)
      || !index_reserve (writer, &writer->thread_index, writer->n_threads, thread_hash))
    return set_no_memory (error);

  thread = &writer->threads[writer->n_threads];
  memset (thread, 0, sizeof *thread);
  thread->prev_stack = malloc (TACH_MAX_STACK_DEPTH * sizeof *thread->prev_stack);
  thread->rle = with_rle ? malloc (RLE_BUFFER_SIZE) : NULL;
  if (thread->prev_stack == NULL || (with_rle && thread->rle == NULL))
    {
      free (thread->prev_stack);
      free (thread->rle);
      return set_no_memory (error);
    }
  thread->thread_id = thread_id;
  thread->interpreter_id = interpreter_id;
  /* The first sample of every thread is relative to the start time (§4.7). */
  thread->prev_timestamp = writer->options.start_time_us;

  slot = index_find (writer, &writer->thread_index, hash, thread_match, &key);
  writer->thread_index.slots[slot] = writer->n_threads + 1;
  writer->n_threads++;

  *out = thread;
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
    return set_error (error, TACH_ERROR_ARGUMENT, "tach_writer_add_sample: NULL argument");
  if (writer->failed)
    return set_error (error, TACH_ERROR_IO, "%s: the writer failed earlier", writer->path);
  if (writer->total_samples == UINT64_MAX)
    return set_error (error, TACH_ERROR_ARGUMENT, "too many samples for binary format");

  /* Deeper frames are dropped, as CPython's build_frame_stack does. */
  if (depth > TACH_MAX_STACK_DEPTH)
    depth = TACH_MAX_STACK_DEPTH;

  /* CPython's indices come from its own tables; ours come from the caller,
   * so check them before anything changes. */
  for (size_t i = 0; i < depth; i++)
    if (frames[i] >= writer->n_frames)
      return set_error (error, TACH_ERROR_ARGUMENT,
                        "Invalid frame index %u at depth %zu: only %u frames interned",
                        frames[i], i, writer->n_frames);

  /* The run buffer is allocated the first time the thread repeats its
   * stack, as in CPython, but before anything changes, so that running out
   * of memory leaves the writer as it was.  A new thread's previous stack
   * is empty: it repeats it when this stack is empty too. */
  thread = lookup_thread (writer, thread_id, interpreter_id);
  if (thread == NULL)
    {
      status = create_thread (writer, thread_id, interpreter_id, depth == 0, &thread, error);
      if (status != TACH_OK)
        return status;
    }
  same = depth == thread->prev_depth
         && (depth == 0 || memcmp (frames, thread->prev_stack, depth * sizeof *frames) == 0);
  if (same && thread->rle == NULL)
    {
      thread->rle = malloc (RLE_BUFFER_SIZE);
      if (thread->rle == NULL)
        return set_no_memory (error);
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
    return set_error (error, TACH_ERROR_ARGUMENT, "tach_writer_set_stats: NULL argument");

  size = stats->block_size ? stats->block_size : STATS_SIZE_V56;
  if (size != STATS_SIZE_V56 && size != STATS_SIZE_V32)
    return set_error (error, TACH_ERROR_ARGUMENT,
                      "Invalid profile stats: block size %u is neither 56 nor 32", size);

  /* CPython's binary_writer_set_stats checks, with its messages. */
  if (!isfinite (stats->duration_sec) || stats->duration_sec < 0.0)
    return set_error (error, TACH_ERROR_ARGUMENT,
                      "Invalid profile stats: duration must be a finite non-negative value");
  if (!isfinite (stats->sample_rate) || stats->sample_rate < 0.0)
    return set_error (error, TACH_ERROR_ARGUMENT,
                      "Invalid profile stats: sample rate must be a finite non-negative value");
  if (stats->has_error_rate && (!isfinite (stats->error_rate) || stats->error_rate < 0.0))
    return set_error (error, TACH_ERROR_ARGUMENT,
                      "Invalid profile stats: error rate must be a finite non-negative value");
  if (stats->has_missed_samples && !isfinite (stats->missed_samples))
    return set_error (error, TACH_ERROR_ARGUMENT,
                      "Invalid profile stats: missed samples must be a finite value");
  /* The original layout has no room for the optional values; dropping them
   * silently would lose what the caller asked to store. */
  if (size == STATS_SIZE_V32 && (stats->has_error_rate || stats->has_missed_samples))
    return set_error (error, TACH_ERROR_ARGUMENT,
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
write_string_table (TachWriter *writer,
                    TachError  *error)
{
  for (uint32_t i = 0; i < writer->n_strings; i++)
    {
      const StringEntry *s = &writer->strings[i];
      uint8_t len[TACH_MAX_VARINT_SIZE];
      TachStatus status;

      status = file_write (writer, len, encode_uvarint (len, s->length), error);
      if (status == TACH_OK)
        status = file_write (writer, writer->string_pool + s->offset, s->length, error);
      if (status != TACH_OK)
        return status;
    }

  return TACH_OK;
}

static TachStatus
write_frame_table (TachWriter *writer,
                   TachError  *error)
{
  for (uint32_t i = 0; i < writer->n_frames; i++)
    {
      const FrameKey *f = &writer->frames[i];
      uint8_t entry[2 * 5 + 4 * 5 + 1];
      int32_t end_lineno_delta = 0;
      int32_t end_column_delta = 0;
      size_t n = 0;
      TachStatus status;

      /* §6.2: a delta is only stored when both ends are known. */
      if (f->lineno != TACH_LOCATION_NONE && f->end_lineno != TACH_LOCATION_NONE)
        end_lineno_delta = wrapping_sub_i32 (f->end_lineno, f->lineno);
      if (f->column != TACH_LOCATION_NONE && f->end_column != TACH_LOCATION_NONE)
        end_column_delta = wrapping_sub_i32 (f->end_column, f->column);

      n += encode_uvarint (entry + n, f->filename);
      n += encode_uvarint (entry + n, f->funcname);
      n += encode_svarint (entry + n, f->lineno);
      n += encode_svarint (entry + n, end_lineno_delta);
      n += encode_svarint (entry + n, f->column);
      n += encode_svarint (entry + n, end_column_delta);
      entry[n++] = f->opcode;

      status = file_write (writer, entry, n, error);
      if (status != TACH_OK)
        return status;
    }

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

  return file_write (writer, block, writer->stats_size, error);
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
    return set_error (error, TACH_ERROR_IO, "%s: the writer failed earlier", writer->path);

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
  status = write_string_table (writer, error);
  if (status != TACH_OK)
    return status;

  frame_table_offset = writer->position;
  status = write_frame_table (writer, error);
  if (status == TACH_OK && writer->has_stats)
    status = write_stats_block (writer, error);
  if (status != TACH_OK)
    return status;

  if (writer->position > UINT64_MAX - TACH_FOOTER_SIZE)
    return set_error (error, TACH_ERROR_IO, "%s: file too large", writer->path);
  store_u32 (footer, writer->n_strings, be);
  store_u32 (footer + 4, writer->n_frames, be);
  store_u64 (footer + 8, writer->position + TACH_FOOTER_SIZE, be);
  status = file_write (writer, footer, sizeof footer, error);
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
      return set_error (error, TACH_ERROR_IO, "%s: cannot write the header: %s",
                        writer->path, saved ? strerror (saved) : "short write");
    }

  {
    FILE *file = writer->file;

    writer->file = NULL;
    if (fclose (file) != 0)
      {
        int saved = errno;

        return set_error (error, TACH_ERROR_IO, "%s: close failed: %s",
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
    return set_error (error, TACH_ERROR_ARGUMENT, "tach_writer_finish: NULL writer");

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
