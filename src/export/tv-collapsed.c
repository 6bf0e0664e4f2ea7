/* tv-collapsed.c: the collapsed-stack export of a profile
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Produces exactly what `python -m profiling.sampling replay --collapsed`
 * writes (SPEC §16): one line per (stack, thread id), frames from root to
 * leaf, sorted by count, then text, then first appearance.
 *
 * The work is done once per distinct thing rather than once per sample:
 * every frame-table index maps to a canonical frame (the triple filename,
 * line, funcname that CPython's collector keys on) the first time it is
 * used, with its text; samples are counted per (thread id, canonical
 * frames); a REPEAT sample reuses the key of its thread's previous sample
 * without looking at its stack.  The text of a line is never stored whole:
 * the sort compares keys piece by piece, and the lines are written straight
 * to the output.  (A profile with deep, varied stacks can give gigabytes of
 * text for a few hundred megabytes of keys.)
 *
 * With filters (threads, states, a time range), the stacks come from the
 * model's call trees instead, one per thread id, and go through the same
 * canonical frames and the same sort.
 */
#include "tv-collapsed.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <glib/gi18n.h>

#include "tachyon-format.h"
#include "tv-atomic-write.h"
#include "tv-export-arena.h"
#include "tv-export-locations.h"
#include "tv-profile-data.h"
#include "tv-export.h"
#include "tv-tach-error.h"

#define CANCEL_CHECK_INTERVAL (1u << 16)

#define WRITE_BUFFER_SIZE     (1u << 16)

typedef struct
{
  TvExportLocation location;     /* first, as TvExportLocations wants */
  /* ";basename:funcname:line", or ";funcname" alone for a "~" frame: the
   * separator comes with the frame, so that a line is the thread's text
   * followed by its frames' texts. */
  char       *text;
  gsize       text_len;
} CanonFrame;

typedef struct
{
  guint    hash;
  guint32  depth;
  guint64  thread_id;
  guint64  count;
  guint64  first_seen;
  guint8   tid_text_len;
  char     tid_text[21];          /* thread_id in decimal; "tid:" is implied */
  guint32  frames[];              /* canonical ids, root first */
} StackEntry;

/* Where a thread's previous sample went, for its REPEAT samples. */
typedef struct
{
  gboolean    valid;
  StackEntry *entry;              /* NULL: the sample was not counted */
} ThreadCache;

/* The state of the count; only arena, canon_frames and entries outlive
 * it. */
typedef struct
{
  TvExportArena arena;
  TachReader  *reader;
  TvExportLocations frames;       /* CanonFrame, by canonical id */
  GPtrArray   *entries;           /* StackEntry in arena, first-seen order */
  GHashTable  *entry_table;       /* StackEntry -> itself */
  GArray      *threads;           /* ThreadCache, by thread index */
  StackEntry  *scratch;           /* room for TACH_MAX_STACK_DEPTH frames */
} Collapser;

struct _TvCollapsed
{
  TvExportArena arena;             /* holds the entries */
  GPtrArray *canon_frames;        /* CanonFrame, by id; only the text is used */
  GPtrArray *entries;             /* StackEntry, in output order */
};

static void
canon_frame_free (gpointer data)
{
  CanonFrame *frame = data;

  g_free (frame->text);
  g_free (frame);
}

static guint
stack_entry_hash (gconstpointer key)
{
  return ((const StackEntry *) key)->hash;
}

static gboolean
stack_entry_equal (gconstpointer a,
                   gconstpointer b)
{
  const StackEntry *ea = a;
  const StackEntry *eb = b;

  return ea->thread_id == eb->thread_id &&
         ea->depth == eb->depth &&
         memcmp (ea->frames, eb->frames, ea->depth * sizeof (guint32)) == 0;
}

static void
collapser_clear (Collapser *self)
{
  tv_export_locations_clear (&self->frames);
  g_clear_pointer (&self->entry_table, g_hash_table_unref);
  g_clear_pointer (&self->entries, g_ptr_array_unref);
  g_clear_pointer (&self->threads, g_array_unref);
  g_clear_pointer (&self->scratch, g_free);
  g_clear_pointer (&self->reader, tach_reader_free);
  tv_export_arena_clear (&self->arena);
}

static void
canon_frame_build_text (CanonFrame *frame)
{
  const TvExportLocation *location = &frame->location;
  GString *text;
  const char *slash;
  const char *basename;

  text = g_string_sized_new (location->file_len + location->func_len + 16);
  g_string_append_c (text, ';');

  /* CPython prints the synthetic <GC> and <native> frames by name alone. */
  if (location->file_len == 1 && location->file[0] == '~' && location->line == 0)
    {
      g_string_append_len (text, location->func, location->func_len);
    }
  else
    {
      /* os.path.basename() on POSIX: whatever follows the last slash. */
      slash = memrchr (location->file, '/', location->file_len);
      basename = slash != NULL ? slash + 1 : location->file;

      g_string_append_len (text, basename, location->file + location->file_len - basename);
      g_string_append_c (text, ':');
      g_string_append_len (text, location->func, location->func_len);
      g_string_append_printf (text, ":%d", location->line);
    }

  frame->text_len = text->len;
  frame->text = g_string_free (text, FALSE);
}

/* Returns the canonical id of frame INDEX, or TV_EXPORT_LOCATION_INTERNAL
 * for a frame that CPython's collector hides. */
static gboolean
collapser_map_frame (Collapser  *self,
                     guint32     index,
                     guint32    *out_id,
                     GError    **error)
{
  gboolean added;

  if (!tv_export_locations_map (&self->frames, self->reader, index, out_id, &added, error))
    return FALSE;
  if (added)
    canon_frame_build_text (g_ptr_array_index (self->frames.list, *out_id));
  return TRUE;
}

/* Finds or creates the entry of KEY, whose thread id, depth (> 0) and
 * frames are set. */
static StackEntry *
collapser_lookup_key (Collapser  *self,
                      StackEntry *key)
{
  StackEntry *entry;
  guint64 hash;

  g_assert (key->depth > 0);

  hash = key->thread_id * G_GUINT64_CONSTANT (0x9e3779b97f4a7c15);
  for (guint i = 0; i < key->depth; i++)
    hash = (hash ^ key->frames[i]) * G_GUINT64_CONSTANT (0x100000001b3);
  key->hash = (guint) (hash ^ (hash >> 32));

  entry = g_hash_table_lookup (self->entry_table, key);
  if (entry == NULL)
    {
      gsize size = sizeof (StackEntry) + key->depth * sizeof (guint32);

      entry = tv_export_arena_alloc (&self->arena, size);
      memcpy (entry, key, size);
      entry->count = 0;
      entry->first_seen = self->entries->len;
      entry->tid_text_len = g_snprintf (entry->tid_text, sizeof entry->tid_text,
                                        "%" G_GUINT64_FORMAT, entry->thread_id);
      g_ptr_array_add (self->entries, entry);
      g_hash_table_add (self->entry_table, entry);
    }

  return entry;
}

/* Finds or creates the entry of SAMPLE's key; sets *OUT_ENTRY to NULL when
 * the sample is not counted (no frames left once internal ones are gone). */
static gboolean
collapser_lookup_sample (Collapser         *self,
                         const TachSample  *sample,
                         StackEntry       **out_entry,
                         GError           **error)
{
  StackEntry *key = self->scratch;

  /* The decoder never hands out more; scratch has room for no more. */
  if (sample->depth > TACH_MAX_STACK_DEPTH)
    {
      g_set_error (error, TV_TACH_ERROR, TV_TACH_ERROR_INVALID,
                   "Stack depth %u exceeds capacity %d", sample->depth, TACH_MAX_STACK_DEPTH);
      return FALSE;
    }

  key->depth = 0;
  for (guint i = sample->depth; i > 0; i--)
    {
      guint32 id;

      if (!collapser_map_frame (self, sample->stack[i - 1], &id, error))
        return FALSE;
      if (id != TV_EXPORT_LOCATION_INTERNAL)
        key->frames[key->depth++] = id;
    }

  if (key->depth == 0)
    {
      *out_entry = NULL;
      return TRUE;
    }

  key->thread_id = sample->thread_id;
  *out_entry = collapser_lookup_key (self, key);
  return TRUE;
}

static gboolean
collapser_count (Collapser     *self,
                 GCancellable  *cancellable,
                 GError       **error)
{
  TachDecoder *decoder = NULL;
  TachError tach_error = { 0 };
  TachSample sample;
  guint64 n_samples = 0;
  gboolean ok = FALSE;
  int res;

  decoder = tv_export_new_decoder (self->reader, error);
  if (decoder == NULL)
    return FALSE;

  while ((res = tach_decoder_next (decoder, &sample, &tach_error)) == 1)
    {
      ThreadCache *cache;

      if (sample.thread_index >= self->threads->len)
        g_array_set_size (self->threads, sample.thread_index + 1);
      cache = &g_array_index (self->threads, ThreadCache, sample.thread_index);

      /* A REPEAT sample has its thread's previous stack, hence its key. */
      if (sample.kind != TACH_RECORD_REPEAT || !cache->valid)
        {
          if (!collapser_lookup_sample (self, &sample, &cache->entry, error))
            goto out;
          cache->valid = TRUE;
        }

      if (cache->entry != NULL)
        cache->entry->count++;

      if ((++n_samples % CANCEL_CHECK_INTERVAL) == 0 &&
          g_cancellable_set_error_if_cancelled (cancellable, error))
        goto out;
    }

  if (res < 0)
    {
      tv_tach_error_propagate (error, tach_error.status, &tach_error);
      goto out;
    }

  ok = TRUE;

out:
  tach_decoder_free (decoder);
  return ok;
}

/* A position in the text of a line (without its "tid:" prefix): segment 0
 * is the thread id, segment i > 0 the text of frame i - 1. */
typedef struct
{
  const StackEntry *entry;
  GPtrArray        *canon_frames;
  guint             segment;
  const char       *data;
  gsize             left;
} TextCursor;

/* Moves CURSOR to the start of SEGMENT; FALSE past the end of the line. */
static gboolean
text_cursor_seek (TextCursor *cursor,
                  guint       segment)
{
  const CanonFrame *frame;

  cursor->segment = segment;
  if (segment == 0)
    {
      cursor->data = cursor->entry->tid_text;
      cursor->left = cursor->entry->tid_text_len;
      return TRUE;
    }
  if (segment > cursor->entry->depth)
    {
      cursor->data = NULL;
      cursor->left = 0;
      return FALSE;
    }

  frame = g_ptr_array_index (cursor->canon_frames, cursor->entry->frames[segment - 1]);
  cursor->data = frame->text;
  cursor->left = frame->text_len;
  return TRUE;
}

/* memcmp() of the two lines' texts, without building them. */
static int
compare_texts (GPtrArray        *canon_frames,
               const StackEntry *ea,
               const StackEntry *eb)
{
  TextCursor a = { ea, canon_frames, 0, NULL, 0 };
  TextCursor b = { eb, canon_frames, 0, NULL, 0 };
  guint start = 0;
  gboolean a_more;
  gboolean b_more;

  /* Segments that are the same on both sides need no look at their bytes:
   * the same thread id, then the same canonical frames. */
  if (ea->thread_id == eb->thread_id)
    {
      guint common = MIN (ea->depth, eb->depth);

      start = 1;
      while (start <= common && ea->frames[start - 1] == eb->frames[start - 1])
        start++;
    }

  a_more = text_cursor_seek (&a, start);
  b_more = text_cursor_seek (&b, start);

  while (a_more && b_more)
    {
      gsize n = MIN (a.left, b.left);
      int cmp = memcmp (a.data, b.data, n);

      if (cmp != 0)
        return cmp;

      a.data += n;
      a.left -= n;
      b.data += n;
      b.left -= n;
      if (a.left == 0)
        a_more = text_cursor_seek (&a, a.segment + 1);
      if (b.left == 0)
        b_more = text_cursor_seek (&b, b.segment + 1);
    }

  /* The shorter text, a prefix of the other, comes first. */
  if (a_more)
    return 1;
  if (b_more)
    return -1;
  return 0;
}

/* Python's sort by (-count, text) is stable, so lines with the same count
 * and the same text (two files with one basename) keep the order in which
 * their keys first appeared.  Python compares str by code point, which for
 * valid UTF-8 is the order of the bytes, a prefix first. */
static int
compare_entries (gconstpointer a,
                 gconstpointer b,
                 gpointer      user_data)
{
  const StackEntry *ea = *(const StackEntry * const *) a;
  const StackEntry *eb = *(const StackEntry * const *) b;
  int cmp;

  if (ea->count != eb->count)
    return ea->count > eb->count ? -1 : 1;

  cmp = compare_texts (user_data, ea, eb);
  if (cmp != 0)
    return cmp;

  return ea->first_seen < eb->first_seen ? -1 : ea->first_seen > eb->first_seen;
}

void
tv_collapsed_free (TvCollapsed *self)
{
  if (self == NULL)
    return;

  g_clear_pointer (&self->entries, g_ptr_array_unref);
  g_clear_pointer (&self->canon_frames, g_ptr_array_unref);
  tv_export_arena_clear (&self->arena);
  g_free (self);
}

/* Everything but the reader, which the caller has set. */
static void
collapser_init (Collapser *self)
{
  tv_export_locations_init (&self->frames, self->reader, sizeof (CanonFrame), canon_frame_free);
  self->entries = g_ptr_array_new ();
  self->entry_table = g_hash_table_new (stack_entry_hash, stack_entry_equal);
  self->threads = g_array_new (FALSE, TRUE, sizeof (ThreadCache));
  self->scratch = g_malloc0 (sizeof (StackEntry) + TACH_MAX_STACK_DEPTH * sizeof (guint32));
}

/* Sorts the counted lines and clears SELF. */
static TvCollapsed *
collapser_finish (Collapser *self)
{
  TvCollapsed *collapsed;

  /* The canonical frames keep their texts; the names they borrowed from
   * the reader are not used any more. */
  collapsed = g_new0 (TvCollapsed, 1);
  collapsed->canon_frames = g_steal_pointer (&self->frames.list);
  collapsed->entries = g_steal_pointer (&self->entries);
  collapsed->arena = self->arena;
  self->arena = (TvExportArena) { 0 };
  collapser_clear (self);

  g_ptr_array_sort_with_data (collapsed->entries, compare_entries, collapsed->canon_frames);

  return collapsed;
}

/**
 * tv_collapsed_new_for_path:
 * @path: a profile
 * @cancellable: (nullable): a cancellable
 * @error: return location for an error
 *
 * Decodes every sample of @path and counts and sorts the lines that
 * CPython's `replay --collapsed` would write.
 *
 * Returns: (transfer full): the lines, or %NULL with @error set
 */
TvCollapsed *
tv_collapsed_new_for_path (const char    *path,
                           GCancellable  *cancellable,
                           GError       **error)
{
  Collapser collapser = { 0 };

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  collapser.reader = tv_export_open_reader (path, error);
  if (collapser.reader == NULL)
    return NULL;

  collapser_init (&collapser);

  if (!collapser_count (&collapser, cancellable, error))
    {
      collapser_clear (&collapser);
      return NULL;
    }

  return collapser_finish (&collapser);
}

/* The frames of each node of TREE as the lines name them. */
static gboolean
collapser_map_tree (Collapser   *self,
                    TvCallTree  *tree,
                    guint32     *canon,
                    GError     **error)
{
  guint32 n_nodes = tv_call_tree_get_n_nodes (tree);

  canon[TV_ROOT_NODE] = TV_EXPORT_LOCATION_INTERNAL;
  for (guint32 n = 1; n < n_nodes; n++)
    {
      if (!collapser_map_frame (self, tv_call_tree_get_frame (tree, n), &canon[n], error))
        return FALSE;
    }
  return TRUE;
}

/* Counts the samples of thread INDEX (of id THREAD_ID) that TREE kept:
 * every node where some of them end is a stack. */
static gboolean
collapser_count_thread (Collapser      *self,
                        TvCallTree     *tree,
                        const guint32  *canon,
                        guint           index,
                        guint64         thread_id,
                        GError        **error)
{
  const guint64 *counts;
  guint n_nodes;
  const guint32 *nodes = tv_call_tree_get_thread_self (tree, index, &counts, &n_nodes);
  StackEntry *key = self->scratch;

  for (guint i = 0; i < n_nodes; i++)
    {
      guint depth = 0;

      /* The frames from the leaf up, then turned round. */
      for (guint32 u = nodes[i]; u != TV_ROOT_NODE; u = tv_call_tree_get_parent (tree, u))
        {
          if (canon[u] == TV_EXPORT_LOCATION_INTERNAL)
            continue;
          /* The model keeps no deeper stack than the decoder gives. */
          if (depth == TACH_MAX_STACK_DEPTH)
            {
              g_set_error (error, TV_TACH_ERROR, TV_TACH_ERROR_INVALID,
                           "Stack depth exceeds capacity %d", TACH_MAX_STACK_DEPTH);
              return FALSE;
            }
          key->frames[depth++] = canon[u];
        }
      if (depth == 0)
        continue;
      for (guint j = 0; j < depth / 2; j++)
        {
          guint32 tmp = key->frames[j];

          key->frames[j] = key->frames[depth - 1 - j];
          key->frames[depth - 1 - j] = tmp;
        }
      key->depth = depth;
      key->thread_id = thread_id;
      collapser_lookup_key (self, key)->count += counts[i];
    }

  return TRUE;
}

/**
 * tv_collapsed_new_for_query:
 * @data: a loaded profile
 * @query: which samples: the threads, interpreter, states and time range
 *   (the merge key, inversion and transforms are not used)
 * @cancellable: (nullable): a cancellable
 * @error: return location for an error
 *
 * The lines that CPython's `replay --collapsed` would write for the
 * samples @query selects, counted from one call tree of the model that
 * keeps each thread's samples, rather than by decoding the file again.  Without any filter
 * this gives the same lines as tv_collapsed_new_for_path().
 *
 * Returns: (transfer full): the lines, or %NULL with @error set
 */
TvCollapsed *
tv_collapsed_new_for_query (TvProfileData  *data,
                            const TvQuery  *query,
                            GCancellable   *cancellable,
                            GError        **error)
{
  Collapser collapser = { 0 };
  g_autofree guint32 *indices = NULL;
  g_autofree guint32 *canon = NULL;
  g_autoptr(TvCallTree) tree = NULL;
  guint n_indices = 0;
  guint n_threads;

  g_return_val_if_fail (data != NULL, NULL);
  g_return_val_if_fail (query != NULL, NULL);
  g_return_val_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  /* CPython's lines are per thread id: two interpreters' threads with one
   * id share them. */
  n_threads = tv_profile_data_get_n_threads (data);
  indices = g_new (guint32, MAX (n_threads, 1));
  for (guint i = 0; i < n_threads; i++)
    {
      gboolean selected = query->threads == NULL;

      for (guint j = 0; !selected && j < query->n_threads; j++)
        selected = query->threads[j] == i;
      if (selected && tv_profile_data_get_thread (data, i)->n_samples > 0)
        indices[n_indices++] = i;
    }
  /* By id: the order among one id's threads makes no line of its own. */
  g_qsort_with_data (indices, n_indices, sizeof (guint32), tv_export_compare_threads, data);

  tree = tv_export_line_tree (data, query, TRUE, cancellable, error);
  if (tree == NULL)
    return NULL;

  collapser.reader = tv_profile_data_get_reader (data);
  collapser_init (&collapser);
  canon = g_new (guint32, tv_call_tree_get_n_nodes (tree));
  if (!collapser_map_tree (&collapser, tree, canon, error))
    goto failed;

  /* The threads of one id in a row: their lines are one thread's. */
  for (guint i = 0; i < n_indices; i++)
    {
      guint64 thread_id = tv_profile_data_get_thread (data, indices[i])->thread_id;

      if (i % 4096 == 0 && g_cancellable_set_error_if_cancelled (cancellable, error))
        goto failed;
      if (!collapser_count_thread (&collapser, tree, canon, indices[i], thread_id, error))
        goto failed;
    }

  /* The reader belongs to DATA. */
  collapser.reader = NULL;
  return collapser_finish (&collapser);

failed:
  collapser.reader = NULL;
  collapser_clear (&collapser);
  return NULL;
}

/**
 * tv_collapsed_get_n_lines:
 * @self: the lines
 *
 * Returns: how many lines tv_collapsed_write() writes
 */
gsize
tv_collapsed_get_n_lines (const TvCollapsed *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->entries->len;
}

/**
 * tv_collapsed_write:
 * @self: the lines
 * @file: where to write them
 * @error: return location for an error
 *
 * Writes the lines, `tid:<id>;<frame>;...;<frame> <count>\n` each, in
 * CPython's order, and flushes @file.  Nothing at all when there is no
 * line.
 *
 * Returns: %TRUE on success
 */
gboolean
tv_collapsed_write (const TvCollapsed  *self,
                    FILE               *file,
                    GError            **error)
{
  GString *buffer;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (file != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  /* Lines are assembled in a buffer of our own: one fwrite() per piece
   * would spend its time taking the stream's lock. */
  buffer = g_string_sized_new (WRITE_BUFFER_SIZE + 4096);
  errno = 0;
  for (guint i = 0; i < self->entries->len && !ferror (file); i++)
    {
      const StackEntry *entry = g_ptr_array_index (self->entries, i);

      g_string_append_len (buffer, "tid:", 4);
      g_string_append_len (buffer, entry->tid_text, entry->tid_text_len);
      for (guint j = 0; j < entry->depth; j++)
        {
          const CanonFrame *frame = g_ptr_array_index (self->canon_frames, entry->frames[j]);

          g_string_append_len (buffer, frame->text, frame->text_len);
        }
      g_string_append_printf (buffer, " %" G_GUINT64_FORMAT "\n", entry->count);

      if (buffer->len >= WRITE_BUFFER_SIZE)
        {
          fwrite (buffer->str, 1, buffer->len, file);
          g_string_truncate (buffer, 0);
        }
    }
  if (buffer->len > 0 && !ferror (file))
    fwrite (buffer->str, 1, buffer->len, file);
  g_string_free (buffer, TRUE);

  if (fflush (file) != 0 || ferror (file))
    {
      int saved_errno = errno != 0 ? errno : EIO;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
                   _("Could not write: %s"), g_strerror (saved_errno));
      return FALSE;
    }

  return TRUE;
}

static gboolean
write_collapsed (FILE      *file,
                 gpointer   user_data,
                 GError   **error)
{
  return tv_collapsed_write (user_data, file, error);
}

/**
 * tv_collapsed_save:
 * @self: the lines
 * @out_path: the file to create or replace
 * @error: return location for an error
 *
 * Writes the lines to @out_path with tv_atomic_write(): @out_path is
 * never left half-written, and an existing @out_path stays as it was
 * when anything fails.
 *
 * Returns: %TRUE on success
 */
gboolean
tv_collapsed_save (const TvCollapsed  *self,
                   const char         *out_path,
                   GError            **error)
{
  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (out_path != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  return tv_atomic_write (out_path, write_collapsed, (gpointer) self, error);
}
