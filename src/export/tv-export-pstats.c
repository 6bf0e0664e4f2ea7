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
#include "tv-export.h"
#include "tv-tach-error.h"
#include "tv-text.h"

#include "tv-export-pstats-private.h"

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
  tv_export_locations_init (&self->locations, reader, sizeof (Location), g_free);
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

  tv_export_locations_clear (&self->locations);
  g_clear_pointer (&self->stack_table, g_hash_table_unref);
  g_clear_pointer (&self->stacks, g_ptr_array_unref);
  g_clear_pointer (&self->pairs, g_ptr_array_unref);
  g_clear_pointer (&self->scratch, g_free);
  tv_export_arena_clear (&self->arena);
  /* The model's reader is the model's. */
  if (self->data != NULL)
    g_clear_pointer (&self->data, tv_profile_data_unref);
  else
    g_clear_pointer (&self->reader, tach_reader_free);
  g_free (self);
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

      stack = tv_export_arena_alloc (&self->arena, size);
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
      gboolean added;

      /* The location of the frame: none for the profiler's own launcher,
       * which CPython's collectors leave out. */
      if (!tv_export_locations_map (&self->locations, self->reader, indices[i], &id, &added,
                                    error))
        return FALSE;
      if (id != TV_EXPORT_LOCATION_INTERNAL)
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
      pair = tv_export_arena_alloc (&self->arena, sizeof (Pair));
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
  Location **locations = (Location **) self->locations.list->pdata;

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
  g_clear_pointer (&self->locations.table, g_hash_table_unref);
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
  TachBatch batch;
  guint64 n_seen = 0, next_check = CANCEL_CHECK_INTERVAL;
  int res;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  reader = tv_export_open_reader (path, error);
  if (reader == NULL)
    return NULL;
  self = pstats_new (reader);

  decoder = tv_export_new_decoder (reader, error);
  if (decoder == NULL)
    return NULL;

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
  guint32 n_nodes;

  g_return_val_if_fail (data != NULL, NULL);
  g_return_val_if_fail (query != NULL, NULL);
  g_return_val_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  self = pstats_new (tv_profile_data_get_reader (data));
  self->data = tv_profile_data_ref (data);

  tree = tv_export_line_tree (data, query, FALSE, cancellable, error);
  if (tree == NULL)
    return NULL;

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

  return self->locations.list->len;
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
  marshal_str (out, location->key.file, location->key.file_len);
  marshal_int (out, location->key.line);
  marshal_str (out, location->key.func, location->key.func_len);
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
  for (guint i = 0; i < self->locations.list->len; i++)
    {
      const Location *location = g_ptr_array_index (self->locations.list, i);

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

          marshal_location (out, g_ptr_array_index (self->locations.list, pair->caller));
          marshal_uint (out, pair->count);
        }
      marshal_byte (out, MARSHAL_NULL);
    }
  marshal_byte (out, MARSHAL_NULL);
  return g_byte_array_free_to_bytes (out);
}

/**
 * tv_export_pstats_build:
 * @data: the loaded profile
 * @state: which samples
 * @cancellable: (nullable): a cancellable
 * @error: return location for an error
 *
 * The marshal file of the samples @state selects, as the viewer's Export
 * writes it.
 *
 * Returns: (transfer full): the file's bytes, or %NULL with @error set
 */
GBytes *
tv_export_pstats_build (TvProfileData         *data,
                        TvViewState           *state,
                        GCancellable          *cancellable,
                        GError               **error)
{
  TvQuery query;
  g_autoptr(TvPstats) stats = NULL;

  g_return_val_if_fail (data != NULL, NULL);
  g_return_val_if_fail (TV_IS_VIEW_STATE (state), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  tv_export_make_query (state, data, &query);
  stats = tv_pstats_new_for_query (data, &query, cancellable, error);
  if (stats == NULL)
    return NULL;
  return tv_pstats_to_marshal (stats);
}
