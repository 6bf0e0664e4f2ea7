/* tv-export-stream.c: what the exports of every sample share
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tv-export-stream.h"

#include <errno.h>
#include <string.h>

#include <glib/gi18n.h>

#include "tachyon-format.h"
#include "tv-atomic-write.h"
#include "tv-json.h"
#include "tv-progress.h"
#include "tv-tach-error.h"

#define STREAM_BUFFER_SIZE (1u << 16)

void
tv_json_stream_init (TvJsonStream *self,
                     FILE         *file)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (file != NULL);

  self->file = file;
  self->buffer = g_string_sized_new (STREAM_BUFFER_SIZE + 1024);
  self->saved_errno = 0;
}

static void
stream_flush (TvJsonStream *self)
{
  if (self->buffer->len == 0)
    return;
  /* After a failure nothing more is written; the text is dropped so that
   * the buffer stays bounded. */
  if (self->saved_errno == 0)
    {
      errno = 0;
      if (fwrite (self->buffer->str, 1, self->buffer->len, self->file) != self->buffer->len)
        self->saved_errno = errno != 0 ? errno : EIO;
    }
  g_string_truncate (self->buffer, 0);
}

static inline void
stream_maybe_flush (TvJsonStream *self)
{
  if (G_UNLIKELY (self->buffer->len >= STREAM_BUFFER_SIZE))
    stream_flush (self);
}

void
tv_json_stream_raw (TvJsonStream *self,
                    const char   *text)
{
  g_string_append (self->buffer, text);
  stream_maybe_flush (self);
}

void
tv_json_stream_raw_len (TvJsonStream *self,
                        const char   *text,
                        gsize         len)
{
  g_string_append_len (self->buffer, text, len);
  stream_maybe_flush (self);
}

void
tv_json_stream_string (TvJsonStream *self,
                       const char   *str,
                       gssize        len)
{
  tv_json_append_string (self->buffer, str, len);
  stream_maybe_flush (self);
}

/* Digits by hand: g_string_append_printf() would be most of the time of a
 * file that is mostly numbers. */
void
tv_json_stream_uint (TvJsonStream *self,
                     guint64       value)
{
  char digits[24];
  char *p = digits + sizeof digits;

  do
    {
      *--p = (char) ('0' + value % 10);
      value /= 10;
    }
  while (value != 0);
  g_string_append_len (self->buffer, p, digits + sizeof digits - p);
  stream_maybe_flush (self);
}

void
tv_json_stream_int (TvJsonStream *self,
                    gint64        value)
{
  if (value < 0)
    {
      g_string_append_c (self->buffer, '-');
      tv_json_stream_uint (self, (guint64) 0 - (guint64) value);
    }
  else
    tv_json_stream_uint (self, (guint64) value);
}

void
tv_json_stream_double (TvJsonStream *self,
                       double        value)
{
  tv_json_append_double (self->buffer, value);
  stream_maybe_flush (self);
}

void
tv_json_stream_ms_of_us (TvJsonStream *self,
                         guint64       us)
{
  guint frac = us % 1000;
  char text[8];
  int len;

  /* Below 2^50 µs (35 years) a double's step is under a thousandth of a
   * millisecond, so the three decimals are the shortest text that reads
   * back as US / 1000.0, which is what Python's repr() writes; above, the
   * general way. */
  if (us >= (G_GUINT64_CONSTANT (1) << 50))
    {
      tv_json_stream_double (self, (double) us / 1000.0);
      return;
    }
  tv_json_stream_uint (self, us / 1000);
  if (frac == 0)
    {
      tv_json_stream_raw_len (self, ".0", 2);
      return;
    }
  len = g_snprintf (text, sizeof text, ".%03u", frac);
  while (text[len - 1] == '0')
    len--;
  tv_json_stream_raw_len (self, text, len);
}

void
tv_json_stream_thread_id (TvJsonStream *self,
                          guint64       thread_id)
{
  if (thread_id <= (G_GUINT64_CONSTANT (1) << 53))
    {
      tv_json_stream_uint (self, thread_id);
      return;
    }
  g_string_append_c (self->buffer, '"');
  tv_json_stream_uint (self, thread_id);
  g_string_append_c (self->buffer, '"');
}

gboolean
tv_json_stream_finish (TvJsonStream  *self,
                       GError       **pending,
                       GError       **error)
{
  int saved_errno;

  g_return_val_if_fail (self != NULL && self->buffer != NULL, FALSE);

  if (pending != NULL && *pending != NULL)
    {
      tv_json_stream_finish (self, NULL, NULL);
      g_propagate_error (error, g_steal_pointer (pending));
      return FALSE;
    }
  stream_flush (self);
  g_string_free (self->buffer, TRUE);
  self->buffer = NULL;
  errno = 0;
  if (self->saved_errno == 0 && (fflush (self->file) != 0 || ferror (self->file)))
    self->saved_errno = errno != 0 ? errno : EIO;
  saved_errno = self->saved_errno;
  if (saved_errno != 0)
    {
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
                   _("Could not write: %s"), g_strerror (saved_errno));
      return FALSE;
    }
  return TRUE;
}

typedef struct
{
  TvExportStreamWriter  writer;
  TvProfileData        *data;
  TvViewState          *state;
  const char           *source_name;
  GCancellable         *cancellable;
} SaveJob;

static gboolean
save_func (FILE      *file,
           gpointer   user_data,
           GError   **error)
{
  SaveJob *job = user_data;

  return job->writer (job->data, job->state, job->source_name, file, job->cancellable, error);
}

gboolean
tv_export_stream_save (TvExportStreamWriter   writer,
                       TvProfileData         *data,
                       TvViewState           *state,
                       const char            *source_name,
                       const char            *out_path,
                       GCancellable          *cancellable,
                       GError               **error)
{
  SaveJob job = { writer, data, state, source_name, cancellable };

  g_return_val_if_fail (writer != NULL, FALSE);
  g_return_val_if_fail (out_path != NULL, FALSE);

  return tv_atomic_write (out_path, save_func, &job, error);
}

/* ------------------------------------------------------------------------ */
/* Ids                                                                       */
/* ------------------------------------------------------------------------ */

void
tv_id_map_init (TvIdMap *self)
{
  self->mask = 255;
  self->keys = g_new (guint64, 2 * (gsize) (self->mask + 1));
  self->values = g_new0 (guint32, (gsize) self->mask + 1);
  self->n_ids = 0;
}

void
tv_id_map_clear (TvIdMap *self)
{
  g_clear_pointer (&self->keys, g_free);
  g_clear_pointer (&self->values, g_free);
  self->mask = 0;
  self->n_ids = 0;
}

static inline guint32
id_map_slot (const TvIdMap *self,
             guint64        a,
             guint64        b)
{
  guint64 h = (a * G_GUINT64_CONSTANT (0x9e3779b97f4a7c15)) ^ (b + G_GUINT64_CONSTANT (0x7f4a7c159e3779b9));

  h ^= h >> 29;
  h *= G_GUINT64_CONSTANT (0xbf58476d1ce4e5b9);
  h ^= h >> 32;
  return (guint32) h & self->mask;
}

static void
id_map_grow (TvIdMap *self)
{
  guint32 old_mask = self->mask;
  g_autofree guint64 *old_keys = self->keys;
  g_autofree guint32 *old_values = self->values;

  self->mask = old_mask * 2 + 1;
  self->keys = g_new (guint64, 2 * (gsize) (self->mask + 1));
  self->values = g_new0 (guint32, (gsize) self->mask + 1);
  for (guint32 i = 0; i <= old_mask; i++)
    {
      guint32 slot;

      if (old_values[i] == 0)
        continue;
      slot = id_map_slot (self, old_keys[2 * i], old_keys[2 * i + 1]);
      while (self->values[slot] != 0)
        slot = (slot + 1) & self->mask;
      self->keys[2 * slot] = old_keys[2 * i];
      self->keys[2 * slot + 1] = old_keys[2 * i + 1];
      self->values[slot] = old_values[i];
    }
}

guint32
tv_id_map_insert (TvIdMap  *self,
                  guint64   a,
                  guint64   b,
                  gboolean *added)
{
  guint32 slot = id_map_slot (self, a, b);

  for (; self->values[slot] != 0; slot = (slot + 1) & self->mask)
    {
      if (self->keys[2 * slot] == a && self->keys[2 * slot + 1] == b)
        {
          *added = FALSE;
          return self->values[slot] - 1;
        }
    }
  /* A table of 2^32 slots would hold more ids than a guint32 counts. */
  g_assert (self->n_ids < G_MAXUINT32 - 1);
  self->keys[2 * slot] = a;
  self->keys[2 * slot + 1] = b;
  self->values[slot] = ++self->n_ids;
  *added = TRUE;
  if ((guint64) self->n_ids * 2 > self->mask)
    id_map_grow (self);
  return self->n_ids - 1;
}

/* ------------------------------------------------------------------------ */
/* The samples                                                               */
/* ------------------------------------------------------------------------ */

/**
 * tv_export_samples_init:
 * @self: (out caller-allocates): what to walk, to clear with
 *   tv_export_samples_clear()
 * @data: a loaded profile
 * @state: the samples, the merge key and the transforms (inverted is
 *   refused by the exports of every sample: a sample's stack goes from
 *   the root to its leaf)
 * @cancellable: (nullable): a cancellable
 * @error: return location for an error
 *
 * Makes @state's query and its call tree, keeping the map from exact
 * nodes onto the tree, and lists the selected threads.
 *
 * Returns: %TRUE on success
 */
gboolean
tv_export_samples_init (TvExportSamples       *self,
                        TvProfileData         *data,
                        TvViewState           *state,
                        GCancellable          *cancellable,
                        GError               **error)
{
  guint64 last;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (data != NULL, FALSE);
  g_return_val_if_fail (TV_IS_VIEW_STATE (state), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  memset (self, 0, sizeof *self);
  self->data = tv_profile_data_ref (data);
  self->state = g_object_ref (state);
  tv_export_make_query (state, data, &self->query);
  self->query.keep_node_map = TRUE;
  /* The tree, then the streams of every sample (tv-progress.h):
   * TV_EXPORT_SAMPLES_TREE_SHARE of a watched export's progress. */
  tv_progress_push (cancellable, 0.0, TV_EXPORT_SAMPLES_TREE_SHARE);
  self->tree = tv_call_tree_new (data, &self->query, cancellable);
  tv_progress_pop (cancellable);
  if (self->tree == NULL)
    {
      /* The only reason for no tree. */
      if (!g_cancellable_set_error_if_cancelled (cancellable, error))
        g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_CANCELLED, _("Cancelled"));
      return FALSE;
    }
  self->node_map = tv_call_tree_get_node_map (self->tree);
  g_assert (self->node_map != NULL);

  self->threads = g_array_new (FALSE, FALSE, sizeof (guint32));
  for (guint i = 0; i < tv_profile_data_get_n_threads (data); i++)
    {
      const TvThread *t = tv_profile_data_get_thread (data, i);

      if (t->n_samples > 0 && tv_query_selects_thread (&self->query, t))
        g_array_append_val (self->threads, i);
    }
  g_qsort_with_data (self->threads->data, self->threads->len, sizeof (guint32),
                     tv_export_compare_threads, data);

  if (!tv_profile_data_get_time_span (data, &self->first_timestamp, &last))
    self->first_timestamp = 0;
  return TRUE;
}

void
tv_export_samples_clear (TvExportSamples *self)
{
  g_return_if_fail (self != NULL);

  g_clear_pointer (&self->tree, tv_call_tree_unref);
  self->node_map = NULL;
  g_clear_pointer (&self->threads, g_array_unref);
  g_clear_object (&self->state);
  g_clear_pointer (&self->data, tv_profile_data_unref);
}

void
tv_export_samples_get_frame (const TvExportSamples *self,
                             guint32                node,
                             TvExportFrame         *out)
{
  TvMergeKey merge = tv_call_tree_get_merge (self->tree);
  guint32 frame = tv_call_tree_get_frame (self->tree, node);
  const TachFrame *f = tach_reader_get_frame (tv_profile_data_get_reader (self->data), frame);

  g_assert (f != NULL);
  out->function = tv_profile_data_get_frame_keys (self->data, TV_MERGE_FUNCTION)[frame];
  out->line = merge != TV_MERGE_FUNCTION ? f->lineno : -1;
  out->column = merge == TV_MERGE_INSTRUCTION || merge == TV_MERGE_FRAME ? f->column : -1;
}

static int
compare_by_time (gconstpointer a,
                 gconstpointer b,
                 gpointer      user_data)
{
  const TvTimes *times = user_data;
  guint64 ta = tv_times_get (times, *(const guint64 *) a);
  guint64 tb = tv_times_get (times, *(const guint64 *) b);

  return ta < tb ? -1 : ta > tb;
}

/**
 * tv_thread_samples_init:
 * @self: (out caller-allocates): the thread's walk, to clear with
 *   tv_thread_samples_clear()
 * @samples: what the filter selects
 * @thread_index: a thread of @samples' data
 * @error: return location for an error
 *
 * Prepares the walk over a thread's samples in time order.  A thread
 * whose timestamps go backwards somewhere (the writer never does that,
 * a hand-made file may) is sorted first, equal timestamps in file order.
 *
 * Returns: %TRUE on success
 */
gboolean
tv_thread_samples_init (TvThreadSamples       *self,
                        const TvExportSamples *samples,
                        guint                  thread_index,
                        GError               **error)
{
  const TvThread *t;
  const TvQuery *query = &samples->query;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (samples != NULL, FALSE);
  g_return_val_if_fail (thread_index < tv_profile_data_get_n_threads (samples->data), FALSE);

  memset (self, 0, sizeof *self);
  t = tv_profile_data_get_thread (samples->data, thread_index);
  self->samples = samples;
  self->thread = t;
  self->lo = 0;
  self->hi = t->n_samples;

  if (!t->time_ordered)
    {
      self->order = g_try_new (guint64, MAX (t->n_samples, 1));
      if (self->order == NULL)
        {
          g_autofree char *n = g_strdup_printf ("%" G_GUINT64_FORMAT, t->n_samples);
          g_autofree char *tid = g_strdup_printf ("%" G_GUINT64_FORMAT, t->thread_id);

          g_set_error (error, TV_TACH_ERROR, TV_TACH_ERROR_NO_MEMORY,
                       _("Not enough memory to put the %s samples of thread %s in time order"),
                       n, tid);
          return FALSE;
        }
      for (guint64 i = 0; i < t->n_samples; i++)
        self->order[i] = i;
      /* A merge sort: equal timestamps keep their order. */
      g_qsort_with_data (self->order, t->n_samples, sizeof (guint64), compare_by_time,
                         (gpointer) &t->times);
    }
  else if (query->has_range)
    {
      /* Only the samples in the range are looked at. */
      if (query->range_start >= query->range_end)
        self->hi = 0;
      else
        {
          self->lo = tv_thread_lower_bound (t, 0, query->range_start);
          self->hi = tv_thread_lower_bound (t, self->lo, query->range_end);
        }
    }
  tv_thread_samples_rewind (self);
  return TRUE;
}

void
tv_thread_samples_clear (TvThreadSamples *self)
{
  g_return_if_fail (self != NULL);

  g_clear_pointer (&self->order, g_free);
}

void
tv_thread_samples_rewind (TvThreadSamples *self)
{
  g_return_if_fail (self != NULL);

  self->pos = self->lo;
  self->run = G_MAXUINT64;
}

/* The run that sample S is in. */
static guint64
find_run (const TvThread *t,
          guint64         s)
{
  guint64 lo = 0, hi = t->n_runs;

  while (lo < hi)
    {
      guint64 mid = lo + (hi - lo) / 2;

      if (t->run_start[mid] <= s)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo > 0 ? lo - 1 : 0;
}

gboolean
tv_thread_samples_next (TvThreadSamples *self,
                        guint64         *timestamp,
                        guint8          *status,
                        guint32         *leaf,
                        guint32         *node)
{
  const TvThread *t = self->thread;
  const TvQuery *query = &self->samples->query;

  while (self->pos < self->hi)
    {
      guint64 s = self->order != NULL ? self->order[self->pos] : self->pos;
      guint64 ts = tv_times_get (&t->times, s);
      guint8 st = tv_statuses_get (&t->statuses, s);

      self->pos++;
      if (!tv_query_selects_sample (query, st, ts))
        continue;

      if (self->order != NULL)
        self->run = find_run (t, s);
      else
        {
          /* In time order the runs come in order too: the first lookup
           * bisects, the others step. */
          if (self->run == G_MAXUINT64)
            self->run = find_run (t, s);
          while (self->run + 1 < t->n_runs && t->run_start[self->run + 1] <= s)
            self->run++;
        }
      *timestamp = ts;
      *status = st;
      *leaf = t->run_leaf[self->run];
      *node = self->samples->node_map[*leaf];
      return TRUE;
    }
  return FALSE;
}
