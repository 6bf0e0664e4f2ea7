/* tach-writer-tables.c: the writer's string, frame and thread tables
 *
 * Strings, frames and threads are deduplicated as CPython's writer does
 * (§6.3), through open-addressing indexes over their tables, and the
 * string and frame tables are written after the samples (§6).
 */
#include "tachyon-format.h"

#include <stdlib.h>
#include <string.h>

#include "tach-writer-private.h"

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
    return writer_set_error (error, TACH_ERROR_ARGUMENT, "too many strings for binary format");
  if (key.length > UINT32_MAX)
    return writer_set_error (error, TACH_ERROR_ARGUMENT,
                      "string length %zu exceeds binary format maximum %u",
                      key.length, UINT32_MAX);
  if (key.length > SIZE_MAX - writer->string_pool_used)
    return writer_set_no_memory (error);

  if (!grow_array ((void **) &writer->string_pool, &writer->string_pool_size,
                   writer->string_pool_used + key.length, 1)
      || !grow_array ((void **) &writer->strings, &writer->strings_size,
                      (size_t) writer->n_strings + 1, sizeof *writer->strings)
      || !index_reserve (writer, &writer->string_index, writer->n_strings, string_hash))
    return writer_set_no_memory (error);

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
    return writer_set_error (error, TACH_ERROR_ARGUMENT, "tach_writer_intern_frame: NULL argument");
  if (frame->filename == NULL || frame->funcname == NULL)
    return writer_set_error (error, TACH_ERROR_ARGUMENT,
                      "tach_writer_intern_frame: frame without filename or funcname");
  if (writer->failed)
    return writer_set_error (error, TACH_ERROR_IO, "%s: the writer failed earlier", writer->path);

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
    return writer_set_error (error, TACH_ERROR_ARGUMENT, "too many frames for binary format");
  if (!grow_array ((void **) &writer->frames, &writer->frames_size,
                   (size_t) writer->n_frames + 1, sizeof *writer->frames)
      || !index_reserve (writer, &writer->frame_index, writer->n_frames, frame_hash))
    return writer_set_no_memory (error);

  writer->frames[writer->n_frames] = key;
  slot = index_find (writer, &writer->frame_index, hash, frame_match, &key);
  writer->frame_index.slots[slot] = writer->n_frames + 1;
  *index = writer->n_frames++;
  return TACH_OK;
}

ThreadEntry *
writer_lookup_thread (TachWriter *writer,
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
TachStatus
writer_create_thread (TachWriter   *writer,
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
    return writer_set_error (error, TACH_ERROR_ARGUMENT, "too many threads for binary format");
  if (!grow_array ((void **) &writer->threads, &writer->threads_size,
                   (size_t) writer->n_threads + 1, sizeof *writer->threads)
      || !index_reserve (writer, &writer->thread_index, writer->n_threads, thread_hash))
    return writer_set_no_memory (error);

  thread = &writer->threads[writer->n_threads];
  memset (thread, 0, sizeof *thread);
  thread->prev_stack = malloc (TACH_MAX_STACK_DEPTH * sizeof *thread->prev_stack);
  thread->rle = with_rle ? malloc (RLE_BUFFER_SIZE) : NULL;
  if (thread->prev_stack == NULL || (with_rle && thread->rle == NULL))
    {
      free (thread->prev_stack);
      free (thread->rle);
      return writer_set_no_memory (error);
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

TachStatus
writer_write_string_table (TachWriter *writer,
                    TachError  *error)
{
  for (uint32_t i = 0; i < writer->n_strings; i++)
    {
      const StringEntry *s = &writer->strings[i];
      uint8_t len[TACH_MAX_VARINT_SIZE];
      TachStatus status;

      status = writer_file_write (writer, len, encode_uvarint (len, s->length), error);
      if (status == TACH_OK)
        status = writer_file_write (writer, writer->string_pool + s->offset, s->length, error);
      if (status != TACH_OK)
        return status;
    }

  return TACH_OK;
}

TachStatus
writer_write_frame_table (TachWriter *writer,
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

      status = writer_file_write (writer, entry, n, error);
      if (status != TACH_OK)
        return status;
    }

  return TACH_OK;
}
