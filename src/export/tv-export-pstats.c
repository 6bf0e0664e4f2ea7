/* tv-export-pstats.c: the statistics of `replay --pstats`, as a file and a table
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * CPython's PstatsCollector (Lib/profiling/sampling/pstats_collector.py)
 * keys its counts on locations, (filename, line, funcname), the line 0 for
 * a frame without one.  Per sample with a stack: the leaf's direct count
 * grows by one, the cumulative count of every distinct location on the
 * stack by one, and callers[callee][caller] by one for every adjacent pair.
 * Its file is that dict as pstats.Stats() reads it, the times being the
 * counts times the header's sampling interval; its table is what
 * print_stats() prints.
 *
 * The work is done once per distinct stack, not once per sample: samples
 * are counted per stack first (a REPEAT record reuses its thread's stack
 * without looking at it), and the stacks are added up once at the end, in
 * the order they were first seen.  That is the order in which CPython's
 * dicts first see each location and each caller, so the file holds the
 * same dict in the same order, and rows that tie keep CPython's order in
 * the table.
 */
#include "tv-export-pstats.h"

#include <math.h>
#include <string.h>


#include "tachyon-format.h"
#include "tv-profile-data.h"
#include "tv-tach-error.h"
#include "tv-text.h"

/* Values of the frame-index map that are not location ids. */
#define FRAME_UNMAPPED        G_MAXUINT32
#define FRAME_INTERNAL        (G_MAXUINT32 - 1)

#define CANCEL_CHECK_INTERVAL (1u << 16)
#define ARENA_BLOCK_SIZE      (1u << 20)

typedef struct
{
  /* Borrowed from the reader. */
  const char *file;
  gsize       file_len;
  const char *func;
  gsize       func_len;
  gint32      line;
  guint       hash;
  guint32     id;
  guint64     direct;
  guint64     cumulative;
  guint64     seen;               /* the last stack counted, plus one */
  guint       first_pair;         /* its callers: pairs[first_pair …] */
  guint       n_pairs;
} Location;

typedef struct
{
  guint    hash;
  guint32  depth;
  guint64  count;
  guint32  ids[];                 /* location ids, leaf first */
} Stack;

typedef struct
{
  guint32 callee;
  guint32 caller;
  guint64 count;
} Pair;

typedef struct
{
  GPtrArray *blocks;
  char      *pos;
  gsize      left;
} Arena;

struct _TvPstats
{
  /* Whoever owns the strings the locations borrow: a reader of our own or
   * the model's. */
  TachReader    *reader;
  TvProfileData *data;
  double         interval_sec;
  guint64        n_samples;

  Arena          arena;           /* stacks and pairs */
  guint32       *frame_map;       /* frame index -> location id */
  guint32        n_frames;
  GPtrArray     *locations;       /* Location, by id: first-seen order */
  GHashTable    *location_table;
  GPtrArray     *stacks;          /* Stack, first-seen order */
  GHashTable    *stack_table;
  GPtrArray     *pairs;           /* Pair, by callee, then first seen */
  Stack         *scratch;
};

static gpointer
arena_alloc (Arena *arena,
             gsize  size)
{
  gpointer mem;

  size = (size + 7) & ~(gsize) 7;
  if (size > arena->left)
    {
      gsize block_size = MAX (size, ARENA_BLOCK_SIZE);

      if (arena->blocks == NULL)
        arena->blocks = g_ptr_array_new_with_free_func (g_free);
      arena->pos = g_malloc (block_size);
      arena->left = block_size;
      g_ptr_array_add (arena->blocks, arena->pos);
    }
  mem = arena->pos;
  arena->pos += size;
  arena->left -= size;
  return mem;
}

static guint
hash_bytes (guint       hash,
            const char *data,
            gsize       len)
{
  for (gsize i = 0; i < len; i++)
    hash = (hash ^ (guchar) data[i]) * 16777619u;
  return hash;
}

static guint
location_hash (gconstpointer key)
{
  return ((const Location *) key)->hash;
}

static gboolean
location_equal (gconstpointer a,
                gconstpointer b)
{
  const Location *la = a;
  const Location *lb = b;

  return la->line == lb->line && la->file_len == lb->file_len && la->func_len == lb->func_len
         && memcmp (la->file, lb->file, la->file_len) == 0
         && memcmp (la->func, lb->func, la->func_len) == 0;
}

static guint
stack_hash (gconstpointer key)
{
  return ((const Stack *) key)->hash;
}

static gboolean
stack_equal (gconstpointer a,
             gconstpointer b)
{
  const Stack *sa = a;
  const Stack *sb = b;

  return sa->depth == sb->depth && memcmp (sa->ids, sb->ids, sa->depth * sizeof (guint32)) == 0;
}

static guint
pair_hash (gconstpointer key)
{
  const Pair *pair = key;

  return (pair->callee * 2654435761u) ^ pair->caller;
}

static gboolean
pair_equal (gconstpointer a,
            gconstpointer b)
{
  const Pair *pa = a;
  const Pair *pb = b;

  return pa->callee == pb->callee && pa->caller == pb->caller;
}

static TvPstats *
pstats_new (TachReader *reader)
{
  TvPstats *self = g_new0 (TvPstats, 1);

  self->reader = reader;
  self->interval_sec = (double) tach_reader_get_header (reader)->sample_interval_us / 1e6;
  self->n_frames = tach_reader_get_n_frames (reader);
  self->frame_map = g_new (guint32, MAX (self->n_frames, 1));
  memset (self->frame_map, 0xff, MAX (self->n_frames, 1) * sizeof (guint32));
  self->locations = g_ptr_array_new_with_free_func (g_free);
  self->location_table = g_hash_table_new (location_hash, location_equal);
  self->stacks = g_ptr_array_new ();
  self->stack_table = g_hash_table_new (stack_hash, stack_equal);
  self->scratch = g_malloc0 (sizeof (Stack) + TACH_MAX_STACK_DEPTH * sizeof (guint32));
  return self;
}

void
tv_pstats_free (TvPstats *self)
{
  if (self == NULL)
    return;

  g_clear_pointer (&self->frame_map, g_free);
  g_clear_pointer (&self->location_table, g_hash_table_unref);
  g_clear_pointer (&self->locations, g_ptr_array_unref);
  g_clear_pointer (&self->stack_table, g_hash_table_unref);
  g_clear_pointer (&self->stacks, g_ptr_array_unref);
  g_clear_pointer (&self->pairs, g_ptr_array_unref);
  g_clear_pointer (&self->scratch, g_free);
  g_clear_pointer (&self->arena.blocks, g_ptr_array_unref);
  /* The model's reader is the model's. */
  if (self->data != NULL)
    g_clear_pointer (&self->data, tv_profile_data_unref);
  else
    g_clear_pointer (&self->reader, tach_reader_free);
  g_free (self);
}

/* The location of frame INDEX, or FRAME_INTERNAL for the profiler's own
 * launcher, which CPython's collectors leave out. */
static gboolean
map_frame (TvPstats  *self,
           guint32    index,
           guint32   *out_id,
           GError   **error)
{
  const TachFrame *frame;
  Location key = { 0 };
  Location *location;
  guint hash;

  if (G_LIKELY (index < self->n_frames && self->frame_map[index] != FRAME_UNMAPPED))
    {
      *out_id = self->frame_map[index];
      return TRUE;
    }

  /* The decoder and the model hand out only indices they checked; this
   * keeps a broken invariant from becoming a crash. */
  frame = index < self->n_frames ? tach_reader_get_frame (self->reader, index) : NULL;
  if (frame != NULL)
    {
      key.file = tach_reader_get_string (self->reader, frame->filename, &key.file_len);
      key.func = tach_reader_get_string (self->reader, frame->funcname, &key.func_len);
    }
  if (key.file == NULL || key.func == NULL)
    {
      g_set_error (error, TV_TACH_ERROR, TV_TACH_ERROR_INVALID, "Invalid frame index: %u", index);
      return FALSE;
    }

  if (tv_profile_file_is_internal (key.file, key.file_len))
    {
      self->frame_map[index] = FRAME_INTERNAL;
      *out_id = FRAME_INTERNAL;
      return TRUE;
    }

  /* extract_lineno (None) is 0. */
  key.line = frame->lineno == TACH_LOCATION_NONE ? 0 : frame->lineno;
  hash = hash_bytes (2166136261u, key.file, key.file_len);
  hash = hash_bytes (hash ^ 0xff, key.func, key.func_len);
  key.hash = (hash ^ (guint) key.line) * 16777619u;

  location = g_hash_table_lookup (self->location_table, &key);
  if (location == NULL)
    {
      g_assert (self->locations->len < FRAME_INTERNAL);
      location = g_memdup2 (&key, sizeof key);
      location->id = self->locations->len;
      g_ptr_array_add (self->locations, location);
      g_hash_table_add (self->location_table, location);
    }
  self->frame_map[index] = location->id;
  *out_id = location->id;
  return TRUE;
}

/* The stack of the scratch key, whose depth (> 0) and ids are set. */
static Stack *
lookup_stack (TvPstats *self)
{
  Stack *key = self->scratch;
  Stack *stack;
  guint64 hash = G_GUINT64_CONSTANT (0xcbf29ce484222325);

  for (guint i = 0; i < key->depth; i++)
    hash = (hash ^ key->ids[i]) * G_GUINT64_CONSTANT (0x100000001b3);
  key->hash = (guint) (hash ^ (hash >> 32));

  stack = g_hash_table_lookup (self->stack_table, key);
  if (stack == NULL)
    {
      gsize size = sizeof (Stack) + key->depth * sizeof (guint32);

      stack = arena_alloc (&self->arena, size);
      memcpy (stack, key, size);
      stack->count = 0;
      g_ptr_array_add (self->stacks, stack);
      g_hash_table_add (self->stack_table, stack);
    }
  return stack;
}

/* The stack of the frames INDICES (leaf first), internal frames left out;
 * NULL when none is left. */
static gboolean
lookup_frames (TvPstats        *self,
               const guint32   *indices,
               guint            depth,
               Stack          **out,
               GError         **error)
{
  Stack *key = self->scratch;

  /* The decoder never hands out more; the scratch has room for no more. */
  if (depth > TACH_MAX_STACK_DEPTH)
    {
      g_set_error (error, TV_TACH_ERROR, TV_TACH_ERROR_INVALID,
                   "Stack depth %u exceeds capacity %d", depth, TACH_MAX_STACK_DEPTH);
      return FALSE;
    }
  key->depth = 0;
  for (guint i = 0; i < depth; i++)
    {
      guint32 id;

      if (!map_frame (self, indices[i], &id, error))
        return FALSE;
      if (id != FRAME_INTERNAL)
        key->ids[key->depth++] = id;
    }
  *out = key->depth > 0 ? lookup_stack (self) : NULL;
  return TRUE;
}

static Pair *
add_pair (TvPstats   *self,
          GHashTable *table,
          guint32     callee,
          guint32     caller)
{
  Pair key = { callee, caller, 0 };
  Pair *pair = g_hash_table_lookup (table, &key);

  if (pair == NULL)
    {
      pair = arena_alloc (&self->arena, sizeof (Pair));
      *pair = key;
      g_ptr_array_add (self->pairs, pair);
      g_hash_table_add (table, pair);
    }
  return pair;
}

static int
compare_pairs (gconstpointer a,
               gconstpointer b)
{
  const Pair *pa = *(const Pair * const *) a;
  const Pair *pb = *(const Pair * const *) b;

  return pa->callee < pb->callee ? -1 : pa->callee > pb->callee;
}

/* The stacks' counts onto the locations, stack by stack in first-seen
 * order, as CPython's collector adds them sample by sample. */
static void
pstats_finish (TvPstats *self)
{
  g_autoptr(GHashTable) pair_table = g_hash_table_new (pair_hash, pair_equal);
  Location **locations = (Location **) self->locations->pdata;

  self->pairs = g_ptr_array_new ();
  for (guint s = 0; s < self->stacks->len; s++)
    {
      const Stack *stack = g_ptr_array_index (self->stacks, s);
      guint64 w = stack->count;

      if (w == 0)
        continue;
      self->n_samples += w;
      locations[stack->ids[0]]->direct += w;
      for (guint i = 0; i < stack->depth; i++)
        {
          Location *location = locations[stack->ids[i]];

          /* A location counts once per sample, however often it recurs. */
          if (location->seen != (guint64) s + 1)
            {
              location->seen = (guint64) s + 1;
              location->cumulative += w;
            }
        }
      for (guint i = 1; i < stack->depth; i++)
        add_pair (self, pair_table, stack->ids[i - 1], stack->ids[i])->count += w;
    }

  /* g_ptr_array_sort() is stable: each callee's callers stay in the order
   * they were first seen. */
  g_ptr_array_sort (self->pairs, compare_pairs);
  for (guint i = 0; i < self->pairs->len; i++)
    {
      const Pair *pair = g_ptr_array_index (self->pairs, i);
      Location *callee = locations[pair->callee];

      if (callee->n_pairs++ == 0)
        callee->first_pair = i;
    }

  /* Only the totals are used from here on. */
  g_clear_pointer (&self->stack_table, g_hash_table_unref);
  g_clear_pointer (&self->location_table, g_hash_table_unref);
}

/**
 * tv_pstats_new_for_path:
 * @path: a profile
 * @cancellable: (nullable): a cancellable
 * @error: return location for an error
 *
 * Decodes every sample of @path, in file order, and counts what
 * `python -m profiling.sampling replay --pstats` counts.
 *
 * Returns: (transfer full): the statistics, or %NULL with @error set
 */
TvPstats *
tv_pstats_new_for_path (const char    *path,
                        GCancellable  *cancellable,
                        GError       **error)
{
  g_autoptr(TvPstats) self = NULL;
  g_autoptr(GArray) threads = g_array_new (FALSE, TRUE, sizeof (Stack *));
  g_autoptr(GArray) valid = g_array_new (FALSE, TRUE, sizeof (gboolean));
  TachReader *reader = NULL;
  TachDecoder *decoder = NULL;
  TachError tach_error = { 0 };
  TachStatus status;
  TachBatch batch;
  guint64 n_seen = 0, next_check = CANCEL_CHECK_INTERVAL;
  int res;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  status = tach_reader_open_path (path, &reader, &tach_error);
  if (status != TACH_OK)
    {
      tv_tach_error_propagate (error, status, &tach_error);
      return NULL;
    }
  self = pstats_new (reader);

  status = tach_decoder_new (reader, &decoder, &tach_error);
  if (status != TACH_OK)
    {
      tv_tach_error_propagate (error, status, &tach_error);
      return NULL;
    }

  while ((res = tach_decoder_next_batch (decoder, &batch, &tach_error)) == 1)
    {
      const TachSample *sample = &batch.sample;
      Stack **stack;
      gboolean *known;

      if (sample->thread_index >= threads->len)
        {
          g_array_set_size (threads, sample->thread_index + 1);
          g_array_set_size (valid, sample->thread_index + 1);
        }
      stack = &g_array_index (threads, Stack *, sample->thread_index);
      known = &g_array_index (valid, gboolean, sample->thread_index);

      /* A REPEAT record has its thread's previous stack. */
      if (sample->kind != TACH_RECORD_REPEAT || !*known)
        {
          if (!lookup_frames (self, sample->stack, sample->depth, stack, error))
            {
              tach_decoder_free (decoder);
              return NULL;
            }
          *known = TRUE;
        }
      if (*stack != NULL)
        (*stack)->count += batch.n;

      n_seen += batch.n;
      if (n_seen >= next_check)
        {
          next_check = n_seen + CANCEL_CHECK_INTERVAL;
          if (g_cancellable_set_error_if_cancelled (cancellable, error))
            {
              tach_decoder_free (decoder);
              return NULL;
            }
        }
    }
  tach_decoder_free (decoder);
  if (res < 0)
    {
      tv_tach_error_propagate (error, tach_error.status, &tach_error);
      return NULL;
    }

  pstats_finish (self);
  return g_steal_pointer (&self);
}

/**
 * tv_pstats_new_for_query:
 * @data: a loaded profile
 * @query: which samples: threads, states, time ranges and transforms (the
 *   merge key and inversion are not used)
 * @cancellable: (nullable): a cancellable
 * @error: return location for an error
 *
 * The statistics of the samples @query selects, counted from the model's
 * call tree by line rather than by decoding the file again: every node
 * with samples of its own is a stack.
 *
 * Returns: (transfer full): the statistics, or %NULL with @error set
 */
TvPstats *
tv_pstats_new_for_query (TvProfileData  *data,
                         const TvQuery  *query,
                         GCancellable   *cancellable,
                         GError        **error)
{
  g_autoptr(TvPstats) self = NULL;
  g_autoptr(TvCallTree) tree = NULL;
  g_autofree guint32 *frames = g_new (guint32, TACH_MAX_STACK_DEPTH);
  TvQuery line_query;
  guint32 n_nodes;

  g_return_val_if_fail (data != NULL, NULL);
  g_return_val_if_fail (query != NULL, NULL);
  g_return_val_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  self = pstats_new (tv_profile_data_get_reader (data));
  self->data = tv_profile_data_ref (data);

  line_query = *query;
  line_query.merge = TV_MERGE_LINE;
  line_query.inverted = FALSE;
  line_query.callers_of = TV_NODE_NONE;
  line_query.count_states = FALSE;
  line_query.count_threads = FALSE;
  tree = tv_call_tree_new (data, &line_query, cancellable);
  if (tree == NULL)
    {
      /* The only reason for no tree. */
      if (!g_cancellable_set_error_if_cancelled (cancellable, error))
        g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_CANCELLED, "Cancelled");
      return NULL;
    }

  /* The root's own samples had no stack (or only the profiler's frames). */
  n_nodes = tv_call_tree_get_n_nodes (tree);
  for (guint32 n = 1; n < n_nodes; n++)
    {
      guint64 count = tv_call_tree_get_self (tree, n);
      guint depth = 0;
      Stack *stack;

      if (count == 0)
        continue;
      for (guint32 u = n; u != TV_ROOT_NODE; u = tv_call_tree_get_parent (tree, u))
        {
          /* The model keeps no deeper stack than the decoder gives. */
          if (depth == TACH_MAX_STACK_DEPTH)
            {
              g_set_error (error, TV_TACH_ERROR, TV_TACH_ERROR_INVALID,
                           "Stack depth exceeds capacity %d", TACH_MAX_STACK_DEPTH);
              return NULL;
            }
          frames[depth++] = tv_call_tree_get_frame (tree, u);
        }
      if (!lookup_frames (self, frames, depth, &stack, error))
        return NULL;
      if (stack != NULL)
        stack->count += count;
      if ((n % CANCEL_CHECK_INTERVAL) == 0
          && g_cancellable_set_error_if_cancelled (cancellable, error))
        return NULL;
    }

  pstats_finish (self);
  return g_steal_pointer (&self);
}

guint
tv_pstats_get_n_locations (const TvPstats *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->locations->len;
}

guint64
tv_pstats_get_n_samples (const TvPstats *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->n_samples;
}

/* ------------------------------------------------------------------------ */
/* The marshal file                                                          */
/* ------------------------------------------------------------------------ */

/* Python's marshal format (Python/marshal.c), the parts a stats dict
 * needs.  No reference flags: every object is written whole, which every
 * version of marshal.load() reads. */
#define MARSHAL_NULL   '0'
#define MARSHAL_INT    'i'
#define MARSHAL_LONG   'l'
#define MARSHAL_FLOAT  'g'
#define MARSHAL_STR    'u'
#define MARSHAL_TUPLE  '('
#define MARSHAL_DICT   '{'

static void
marshal_u32 (GByteArray *out,
             guint32     value)
{
  guint8 bytes[4] = { value, value >> 8, value >> 16, value >> 24 };

  g_byte_array_append (out, bytes, 4);
}

static void
marshal_byte (GByteArray *out,
              guint8      value)
{
  g_byte_array_append (out, &value, 1);
}

static void
marshal_int (GByteArray *out,
             gint64      value)
{
  guint64 magnitude;
  guint8 digits[5 * 2];
  int n = 0;

  if (value >= G_MININT32 && value <= G_MAXINT32)
    {
      marshal_byte (out, MARSHAL_INT);
      marshal_u32 (out, (guint32) (gint32) value);
      return;
    }

  /* A long: its count of 15-bit digits, negative for a negative number,
   * then the digits from the least significant. */
  magnitude = value < 0 ? -(guint64) value : (guint64) value;
  while (magnitude > 0)
    {
      guint16 digit = magnitude & 0x7fff;

      digits[n * 2] = digit & 0xff;
      digits[n * 2 + 1] = digit >> 8;
      magnitude >>= 15;
      n++;
    }
  marshal_byte (out, MARSHAL_LONG);
  marshal_u32 (out, (guint32) (value < 0 ? -n : n));
  g_byte_array_append (out, digits, n * 2);
}

static void
marshal_uint (GByteArray *out,
              guint64     value)
{
  /* Sample counts never reach 2^63. */
  marshal_int (out, (gint64) MIN (value, (guint64) G_MAXINT64));
}

static void
marshal_float (GByteArray *out,
               double      value)
{
  guint64 bits;
  guint8 bytes[8];

  memcpy (&bits, &value, sizeof bits);
  for (int i = 0; i < 8; i++)
    bytes[i] = bits >> (8 * i);
  marshal_byte (out, MARSHAL_FLOAT);
  g_byte_array_append (out, bytes, 8);
}

static void
marshal_str (GByteArray *out,
             const char *text,
             gsize       len)
{
  marshal_byte (out, MARSHAL_STR);
  marshal_u32 (out, (guint32) len);
  g_byte_array_append (out, (const guint8 *) text, len);
}

static void
marshal_tuple (GByteArray *out,
               guint32     n)
{
  marshal_byte (out, MARSHAL_TUPLE);
  marshal_u32 (out, n);
}

static void
marshal_location (GByteArray     *out,
                  const Location *location)
{
  marshal_tuple (out, 3);
  marshal_str (out, location->file, location->file_len);
  marshal_int (out, location->line);
  marshal_str (out, location->func, location->func_len);
}

/**
 * tv_pstats_to_marshal:
 * @self: the statistics
 *
 * What `replay --pstats -o OUT` writes: a dict from (filename, line,
 * funcname) to (direct samples, cumulative samples, direct time,
 * cumulative time, {caller: samples}), times in seconds of the header's
 * sampling interval, in CPython's order.  CPython adds the key
 * ("__sampled__",), which Python's pstats before 3.15 cannot read; it is
 * left out.
 *
 * Returns: (transfer full): the file's bytes
 */
GBytes *
tv_pstats_to_marshal (const TvPstats *self)
{
  GByteArray *out;

  g_return_val_if_fail (self != NULL, NULL);

  out = g_byte_array_new ();
  marshal_byte (out, MARSHAL_DICT);
  for (guint i = 0; i < self->locations->len; i++)
    {
      const Location *location = g_ptr_array_index (self->locations, i);

      /* A location only ever seen in a stack that counted nothing. */
      if (location->cumulative == 0)
        continue;
      marshal_location (out, location);
      marshal_tuple (out, 5);
      marshal_uint (out, location->direct);
      marshal_uint (out, location->cumulative);
      marshal_float (out, (double) location->direct * self->interval_sec);
      marshal_float (out, (double) location->cumulative * self->interval_sec);
      marshal_byte (out, MARSHAL_DICT);
      for (guint j = 0; j < location->n_pairs; j++)
        {
          const Pair *pair = g_ptr_array_index (self->pairs, location->first_pair + j);

          marshal_location (out, g_ptr_array_index (self->locations, pair->caller));
          marshal_uint (out, pair->count);
        }
      marshal_byte (out, MARSHAL_NULL);
    }
  marshal_byte (out, MARSHAL_NULL);
  return g_byte_array_free_to_bytes (out);
}

/* ------------------------------------------------------------------------ */
/* The table                                                                 */
/* ------------------------------------------------------------------------ */

/* A row of the table: the locations of one (basename, line, funcname), as
 * pstats' strip_dirs() merges them. */
typedef struct
{
  const char *base;
  gsize       base_len;
  const char *func;
  gsize       func_len;
  gint32      line;
  guint       index;              /* first-seen order */
  guint64     direct;
  guint64     cumulative;
  double      tt;
  double      ct;
  double      key;                /* what the table is sorted by */
  char       *name_key;           /* str() of the row's tuple, for "name" */
} Row;

typedef struct
{
  const char *bold_blue;
  const char *green;
  const char *yellow;
  const char *cyan;
  const char *reset;
  gboolean    visible;            /* names through tv_text_append_visible() */
} Colors;

static guint
row_hash (gconstpointer key)
{
  const Row *row = key;
  guint hash = hash_bytes (2166136261u, row->base, row->base_len);

  hash = hash_bytes (hash ^ 0xff, row->func, row->func_len);
  return (hash ^ (guint) row->line) * 16777619u;
}

static gboolean
row_equal (gconstpointer a,
           gconstpointer b)
{
  const Row *ra = a;
  const Row *rb = b;

  return ra->line == rb->line && ra->base_len == rb->base_len && ra->func_len == rb->func_len
         && memcmp (ra->base, rb->base, ra->base_len) == 0
         && memcmp (ra->func, rb->func, ra->func_len) == 0;
}

static void
row_free (gpointer data)
{
  Row *row = data;

  g_free (row->name_key);
  g_free (row);
}

/* Whether Python's str.isprintable() holds for C. */
static gboolean
py_is_printable (gunichar c)
{
  if (c == ' ')
    return TRUE;
  switch (g_unichar_type (c))
    {
    case G_UNICODE_CONTROL:
    case G_UNICODE_FORMAT:
    case G_UNICODE_SURROGATE:
    case G_UNICODE_PRIVATE_USE:
    case G_UNICODE_UNASSIGNED:
    case G_UNICODE_LINE_SEPARATOR:
    case G_UNICODE_PARAGRAPH_SEPARATOR:
    case G_UNICODE_SPACE_SEPARATOR:
      return FALSE;
    default:
      return TRUE;
    }
}

/* repr() of a str, as Python writes it. */
static void
append_py_repr (GString    *out,
                const char *text,
                gsize       len)
{
  const char *end = text + len;
  char quote = '\'';

  if (memchr (text, '\'', len) != NULL && memchr (text, '"', len) == NULL)
    quote = '"';
  g_string_append_c (out, quote);
  for (const char *p = text; p < end; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char_validated (p, end - p);

      if (c == (gunichar) -1 || c == (gunichar) -2)
        c = 0xfffd;
      if (c == (gunichar) quote || c == '\\')
        {
          g_string_append_c (out, '\\');
          g_string_append_c (out, (char) c);
        }
      else if (c == '\t')
        g_string_append (out, "\\t");
      else if (c == '\n')
        g_string_append (out, "\\n");
      else if (c == '\r')
        g_string_append (out, "\\r");
      else if (c < ' ' || c == 0x7f)
        g_string_append_printf (out, "\\x%02x", c);
      else if (c < 0x7f || py_is_printable (c))
        g_string_append_unichar (out, c);
      else if (c <= 0xff)
        g_string_append_printf (out, "\\x%02x", c);
      else if (c <= 0xffff)
        g_string_append_printf (out, "\\u%04x", c);
      else
        g_string_append_printf (out, "\\U%08x", c);
    }
  g_string_append_c (out, quote);
}

/* str() of the tuple (basename, line, funcname): what "name" sorts by. */
static char *
row_dup_name_key (const Row *row)
{
  GString *out = g_string_new ("(");

  append_py_repr (out, row->base, row->base_len);
  g_string_append_printf (out, ", %d, ", row->line);
  append_py_repr (out, row->func, row->func_len);
  g_string_append_c (out, ')');
  return g_string_free (out, FALSE);
}

/* strip_dirs(): one row per (basename, line, funcname), in the order of
 * the first location that has it. */
static GPtrArray *
make_rows (const TvPstats *self)
{
  g_autoptr(GHashTable) table = g_hash_table_new (row_hash, row_equal);
  GPtrArray *rows = g_ptr_array_new_with_free_func (row_free);

  for (guint i = 0; i < self->locations->len; i++)
    {
      const Location *location = g_ptr_array_index (self->locations, i);
      const char *slash = memrchr (location->file, '/', location->file_len);
      Row key = { 0 };
      Row *row;

      if (location->cumulative == 0)
        continue;
      key.base = slash != NULL ? slash + 1 : location->file;
      key.base_len = location->file + location->file_len - key.base;
      key.func = location->func;
      key.func_len = location->func_len;
      key.line = location->line;
      row = g_hash_table_lookup (table, &key);
      if (row == NULL)
        {
          row = g_memdup2 (&key, sizeof key);
          row->index = rows->len;
          g_ptr_array_add (rows, row);
          g_hash_table_add (table, row);
        }
      /* add_func_stats() adds the times in this order too. */
      row->direct += location->direct;
      row->cumulative += location->cumulative;
      row->tt += (double) location->direct * self->interval_sec;
      row->ct += (double) location->cumulative * self->interval_sec;
    }
  return rows;
}

/* Descending by key, ties in first-seen order: list.sort (reverse=True)
 * is stable. */
static int
compare_rows_by_key (gconstpointer a,
                     gconstpointer b)
{
  const Row *ra = *(const Row * const *) a;
  const Row *rb = *(const Row * const *) b;

  if (ra->key != rb->key)
    return ra->key > rb->key ? -1 : 1;
  return ra->index < rb->index ? -1 : ra->index > rb->index;
}

/* Ascending by str() of the tuple, code point by code point, which is the
 * order of the UTF-8 bytes. */
static int
compare_rows_by_name (gconstpointer a,
                      gconstpointer b)
{
  const Row *ra = *(const Row * const *) a;
  const Row *rb = *(const Row * const *) b;
  int cmp = strcmp (ra->name_key, rb->name_key);

  if (cmp != 0)
    return cmp;
  return ra->index < rb->index ? -1 : ra->index > rb->index;
}

static void
sort_rows (GPtrArray    *rows,
           TvPstatsSort  sort,
           guint64       total)
{
  if (sort == TV_PSTATS_SORT_NAME)
    {
      for (guint i = 0; i < rows->len; i++)
        {
          Row *row = g_ptr_array_index (rows, i);

          row->name_key = row_dup_name_key (row);
        }
      g_ptr_array_sort (rows, compare_rows_by_name);
      return;
    }

  for (guint i = 0; i < rows->len; i++)
    {
      Row *row = g_ptr_array_index (rows, i);

      switch (sort)
        {
        case TV_PSTATS_SORT_NSAMPLES:
          row->key = (double) row->direct;
          break;
        case TV_PSTATS_SORT_TOTTIME:
          row->key = row->tt;
          break;
        case TV_PSTATS_SORT_CUMTIME:
          row->key = row->ct;
          break;
        case TV_PSTATS_SORT_SAMPLE_PCT:
          row->key = total > 0 ? (double) row->direct / (double) total * 100 : 0;
          break;
        case TV_PSTATS_SORT_CUMUL_PCT:
          row->key = total > 0 ? (double) row->cumulative / (double) total * 100 : 0;
          break;
        case TV_PSTATS_SORT_NSAMPLES_CUMUL:
        case TV_PSTATS_SORT_NAME:
        default:
          row->key = (double) row->cumulative;
          break;
        }
    }
  g_ptr_array_sort (rows, compare_rows_by_key);
}

/* _determine_best_unit(). */
static const char *
best_unit (double  max_value,
           double *scale)
{
  if (max_value >= 1.0)
    {
      *scale = 1.0;
      return "s";
    }
  if (max_value >= 0.001)
    {
      *scale = 1000.0;
      return "ms";
    }
  *scale = 1e6;
  return "μs";
}

/* TEXT right-aligned in WIDTH characters, as format(TEXT, ">WIDTH"). */
static void
append_right (GString    *out,
              const char *text,
              guint       width)
{
  glong n = g_utf8_strlen (text, -1);

  for (glong i = n; i < (glong) width; i++)
    g_string_append_c (out, ' ');
  g_string_append (out, text);
}

/* format(VALUE, "WIDTH.PRECf"), whatever the locale. */
static void
append_fixed (GString *out,
              double   value,
              guint    width,
              int      precision)
{
  char format[8];
  char buffer[G_ASCII_DTOSTR_BUF_SIZE];

  g_snprintf (format, sizeof format, "%%.%df", precision);
  g_ascii_formatd (buffer, sizeof buffer, format, value);
  append_right (out, buffer, width);
}

static void
append_name (GString      *out,
             const Colors *colors,
             const char   *base,
             gsize         base_len,
             const char   *line,
             const char   *func,
             gsize         func_len)
{
  g_string_append (out, colors->green);
  if (colors->visible)
    tv_text_append_visible (out, base, base_len, 0);
  else
    g_string_append_len (out, base, base_len);
  g_string_append (out, colors->reset);
  g_string_append_c (out, ':');
  g_string_append (out, colors->yellow);
  g_string_append (out, line);
  g_string_append (out, colors->reset);
  g_string_append_c (out, '(');
  g_string_append (out, colors->cyan);
  if (colors->visible)
    tv_text_append_visible (out, func, func_len, 0);
  else
    g_string_append_len (out, func, func_len);
  g_string_append (out, colors->reset);
  g_string_append_c (out, ')');
}

/* A row of the summary: the rows of one "basename:funcname". */
typedef struct
{
  char    *qualified;
  guint    index;
  guint64  direct;
  guint64  cumulative;
  double   key;
} Summary;

static void
summary_free (gpointer data)
{
  Summary *summary = data;

  g_free (summary->qualified);
  g_free (summary);
}

static int
compare_summaries (gconstpointer a,
                   gconstpointer b)
{
  const Summary *sa = *(const Summary * const *) a;
  const Summary *sb = *(const Summary * const *) b;

  if (sa->key != sb->key)
    return sa->key > sb->key ? -1 : 1;
  return sa->index < sb->index ? -1 : sa->index > sb->index;
}

/* _format_func_name() of a summary's (filename, "", funcname), split from
 * "basename:funcname" at its last colon as rsplit (":", 1) does. */
static void
append_summary_name (GString       *out,
                     const Colors  *colors,
                     const Summary *summary)
{
  const char *colon = strrchr (summary->qualified, ':');

  append_name (out, colors, summary->qualified, colon - summary->qualified, "",
               colon + 1, strlen (colon + 1));
}

typedef enum
{
  SUMMARY_HOT_SPOTS,
  SUMMARY_CALL_FREQUENCY,
  SUMMARY_MAGNIFICATION,
} SummaryKind;

static void
append_summary_section (GString      *out,
                        const Colors *colors,
                        GPtrArray    *summaries,
                        SummaryKind   kind,
                        guint64       total)
{
  static const char * const titles[] = {
    "Functions with Highest Direct/Cumulative Ratio (Hot Spots)",
    "Functions with Highest Call Frequency (Indirect Calls)",
    "Functions with Highest Call Magnification (Cumulative/Direct)",
  };

  /* Not g_ptr_array_copy(), which would free the summaries too. */
  g_autoptr(GPtrArray) sorted = g_ptr_array_sized_new (summaries->len);

  for (guint i = 0; i < summaries->len; i++)
    g_ptr_array_add (sorted, g_ptr_array_index (summaries, i));

  g_string_append_printf (out, "\n%s%s:%s\n", colors->bold_blue, titles[kind], colors->reset);
  for (guint i = 0; i < sorted->len; i++)
    {
      Summary *s = g_ptr_array_index (sorted, i);
      double direct = (double) s->direct, cumulative = (double) s->cumulative;

      if (kind == SUMMARY_HOT_SPOTS)
        s->key = s->cumulative > 0 ? direct / cumulative : 0;
      else if (kind == SUMMARY_CALL_FREQUENCY)
        s->key = (double) (s->cumulative - s->direct);
      else
        s->key = s->direct > 0 ? cumulative / direct : 0;
    }
  g_ptr_array_sort (sorted, compare_summaries);

  for (guint i = 0; i < sorted->len && i < 3; i++)
    {
      const Summary *s = g_ptr_array_index (sorted, i);
      double direct = (double) s->direct, cumulative = (double) s->cumulative;
      char number[G_ASCII_DTOSTR_BUF_SIZE];

      if (kind == SUMMARY_HOT_SPOTS && s->direct > 0 && s->cumulative > 0)
        {
          g_string_append (out, "  ");
          g_string_append (out, g_ascii_formatd (number, sizeof number, "%.3f",
                                                 direct / cumulative));
          g_string_append (out, " direct/cumulative ratio, ");
          g_string_append (out, g_ascii_formatd (number, sizeof number, "%.1f",
                                                 total > 0 ? direct / (double) total * 100 : 0));
          g_string_append (out, "% direct samples: ");
        }
      else if (kind == SUMMARY_CALL_FREQUENCY && s->cumulative > s->direct)
        {
          g_string_append_printf (out, "  %" G_GUINT64_FORMAT " indirect calls, ",
                                  s->cumulative - s->direct);
          g_string_append (out, g_ascii_formatd (number, sizeof number, "%.1f",
                                                 total > 0
                                                 ? cumulative / (double) total * 100 : 0));
          g_string_append (out, "% total stack presence: ");
        }
      else if (kind == SUMMARY_MAGNIFICATION && s->direct > 0 && s->cumulative > s->direct)
        {
          g_string_append (out, "  ");
          g_string_append (out, g_ascii_formatd (number, sizeof number, "%.1f",
                                                 cumulative / direct));
          g_string_append_printf (out, "x call magnification, %" G_GUINT64_FORMAT
                                  " indirect calls from %" G_GUINT64_FORMAT " direct: ",
                                  s->cumulative - s->direct, s->direct);
        }
      else
        continue;
      append_summary_name (out, colors, s);
      g_string_append_c (out, '\n');
    }
}

/* _print_summary() over the rows shown. */
static void
append_summary (GString      *out,
                const Colors *colors,
                GPtrArray    *rows,
                guint         n_rows,
                guint64       total)
{
  g_autoptr(GHashTable) table = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GPtrArray) summaries = g_ptr_array_new_with_free_func (summary_free);

  g_string_append_printf (out, "\n%sSummary of Interesting Functions:%s\n", colors->bold_blue,
                          colors->reset);
  for (guint i = 0; i < n_rows; i++)
    {
      const Row *row = g_ptr_array_index (rows, i);
      g_autofree char *qualified = NULL;
      Summary *summary;

      /* f"{basename}:{funcname}": two rows can give one string. */
      qualified = g_strdup_printf ("%.*s:%.*s", (int) row->base_len, row->base,
                                   (int) row->func_len, row->func);
      summary = g_hash_table_lookup (table, qualified);
      if (summary == NULL)
        {
          summary = g_new0 (Summary, 1);
          summary->qualified = g_steal_pointer (&qualified);
          summary->index = summaries->len;
          g_ptr_array_add (summaries, summary);
          g_hash_table_insert (table, summary->qualified, summary);
        }
      summary->direct += row->direct;
      summary->cumulative += row->cumulative;
    }

  append_summary_section (out, colors, summaries, SUMMARY_HOT_SPOTS, total);
  append_summary_section (out, colors, summaries, SUMMARY_CALL_FREQUENCY, total);
  append_summary_section (out, colors, summaries, SUMMARY_MAGNIFICATION, total);
}

/**
 * tv_pstats_to_table:
 * @self: the statistics
 * @sort: the rows' order
 * @limit: how many rows at most; < 0 for all of them
 * @flags: the summary, colours, names made visible
 *
 * What `replay --pstats` prints (print_stats() of PstatsCollector), with
 * the rows merged by file name without its folders.
 *
 * Returns: (transfer full): the text
 */
char *
tv_pstats_to_table (const TvPstats     *self,
                    TvPstatsSort        sort,
                    int                 limit,
                    TvPstatsTableFlags  flags)
{
  static const Colors ansi = { "\033[1;34m", "\033[32m", "\033[33m", "\033[36m", "\033[0m" };
  Colors colors = { "", "", "", "", "" };
  const Colors *c = &colors;
  g_autoptr(GPtrArray) rows = NULL;
  GString *out;
  guint64 total = 0;
  guint n_rows;
  double max_tt = 0, max_ct = 0, tt_scale, ct_scale;
  const char *tt_unit, *ct_unit;
  g_autofree char *tt_title = NULL;
  g_autofree char *ct_title = NULL;
  guint tt_width, ct_width;

  g_return_val_if_fail (self != NULL, NULL);

  if (flags & TV_PSTATS_TABLE_COLORS)
    colors = ansi;
  colors.visible = (flags & TV_PSTATS_TABLE_VISIBLE) != 0;
  rows = make_rows (self);
  out = g_string_new (NULL);
  if (rows->len == 0)
    {
      g_string_append (out, "No samples were collected.\n");
      return g_string_free (out, FALSE);
    }

  for (guint i = 0; i < rows->len; i++)
    total += ((const Row *) g_ptr_array_index (rows, i))->direct;
  sort_rows (rows, sort, total);
  n_rows = limit < 0 ? rows->len : MIN ((guint) limit, rows->len);

  for (guint i = 0; i < n_rows; i++)
    {
      const Row *row = g_ptr_array_index (rows, i);

      max_tt = MAX (max_tt, row->tt);
      max_ct = MAX (max_ct, row->ct);
    }
  tt_unit = best_unit (max_tt, &tt_scale);
  ct_unit = best_unit (max_ct, &ct_scale);
  tt_title = g_strdup_printf ("tottime (%s)", tt_unit);
  ct_title = g_strdup_printf ("cumtime (%s)", ct_unit);
  tt_width = MAX (12, g_utf8_strlen (tt_title, -1));
  ct_width = MAX (12, g_utf8_strlen (ct_title, -1));

  g_string_append_printf (out, "%sProfile Stats:%s\n", c->bold_blue, c->reset);
  g_string_append (out, c->bold_blue);
  append_right (out, "nsamples", 15);
  g_string_append_printf (out, "%s  %s", c->reset, c->bold_blue);
  append_right (out, "sample%", 8);
  g_string_append_printf (out, "%s  %s", c->reset, c->bold_blue);
  append_right (out, tt_title, tt_width);
  g_string_append_printf (out, "%s  %s", c->reset, c->bold_blue);
  append_right (out, "cumul%", 8);
  g_string_append_printf (out, "%s  %s", c->reset, c->bold_blue);
  append_right (out, ct_title, ct_width);
  g_string_append_printf (out, "%s  %sfilename:lineno(function)%s\n", c->reset, c->bold_blue,
                          c->reset);

  for (guint i = 0; i < n_rows; i++)
    {
      const Row *row = g_ptr_array_index (rows, i);
      g_autofree char *nsamples = g_strdup_printf ("%" G_GUINT64_FORMAT "/%" G_GUINT64_FORMAT,
                                                   row->direct, row->cumulative);
      char line[16];

      append_right (out, nsamples, 15);
      g_string_append (out, "  ");
      append_fixed (out, (double) row->direct / (double) total * 100, 8, 1);
      g_string_append (out, "  ");
      append_fixed (out, row->tt * tt_scale, tt_width, 3);
      g_string_append (out, "  ");
      append_fixed (out, (double) row->cumulative / (double) total * 100, 8, 1);
      g_string_append (out, "  ");
      append_fixed (out, row->ct * ct_scale, ct_width, 3);
      g_string_append (out, "  ");
      g_snprintf (line, sizeof line, "%d", row->line);
      append_name (out, c, row->base, row->base_len, line, row->func, row->func_len);
      g_string_append_c (out, '\n');
    }

  g_string_append_printf (out, "\n%sLegend:%s\n", c->bold_blue, c->reset);
  g_string_append_printf (out, "  %snsamples%s: Direct/Cumulative samples (direct executing / "
                          "on call stack)\n", c->yellow, c->reset);
  g_string_append_printf (out, "  %ssample%%%s: Percentage of total samples this function was "
                          "directly executing\n", c->yellow, c->reset);
  g_string_append_printf (out, "  %stottime%s: Estimated total time spent directly in this "
                          "function\n", c->yellow, c->reset);
  g_string_append_printf (out, "  %scumul%%%s: Percentage of total samples when this function "
                          "was on the call stack\n", c->yellow, c->reset);
  g_string_append_printf (out, "  %scumtime%s: Estimated cumulative time (including time in "
                          "called functions)\n", c->yellow, c->reset);
  g_string_append_printf (out, "  %sfilename:lineno(function)%s: Function location and name\n",
                          c->yellow, c->reset);

  if ((flags & TV_PSTATS_TABLE_SUMMARY) && n_rows > 0)
    append_summary (out, c, rows, n_rows, total);

  return g_string_free (out, FALSE);
}

/**
 * tv_pstats_sort_from_string:
 * @text: a `--sort` key
 * @sort: (out): the sort
 *
 * Returns: %TRUE if @text is one of CPython's sort keys
 */
gboolean
tv_pstats_sort_from_string (const char   *text,
                            TvPstatsSort *sort)
{
  static const struct
  {
    const char   *name;
    TvPstatsSort  sort;
  } keys[] = {
    { "nsamples", TV_PSTATS_SORT_NSAMPLES },
    { "tottime", TV_PSTATS_SORT_TOTTIME },
    { "cumtime", TV_PSTATS_SORT_CUMTIME },
    { "sample-pct", TV_PSTATS_SORT_SAMPLE_PCT },
    { "cumul-pct", TV_PSTATS_SORT_CUMUL_PCT },
    { "nsamples-cumul", TV_PSTATS_SORT_NSAMPLES_CUMUL },
    { "name", TV_PSTATS_SORT_NAME },
  };

  g_return_val_if_fail (text != NULL, FALSE);
  g_return_val_if_fail (sort != NULL, FALSE);

  for (gsize i = 0; i < G_N_ELEMENTS (keys); i++)
    {
      if (strcmp (text, keys[i].name) == 0)
        {
          *sort = keys[i].sort;
          return TRUE;
        }
    }
  return FALSE;
}

/**
 * tv_export_pstats_build:
 * @data: the loaded profile
 * @filter: which samples
 * @cancellable: (nullable): a cancellable
 * @error: return location for an error
 *
 * The marshal file of the samples @filter selects, as the viewer's Export
 * writes it.
 *
 * Returns: (transfer full): the file's bytes, or %NULL with @error set
 */
GBytes *
tv_export_pstats_build (TvProfileData         *data,
                        const TvExportFilter  *filter,
                        GCancellable          *cancellable,
                        GError               **error)
{
  g_auto(TvExportQuery) query = { 0 };
  g_autoptr(TvPstats) stats = NULL;

  g_return_val_if_fail (data != NULL, NULL);
  g_return_val_if_fail (filter != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!tv_export_filter_make_query (filter, data, &query, error))
    return NULL;
  stats = tv_pstats_new_for_query (data, &query.query, cancellable, error);
  if (stats == NULL)
    return NULL;
  return tv_pstats_to_marshal (stats);
}
