/* tv-export-locations.c: frames as CPython's collectors key them
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tv-export-locations.h"

#include <string.h>

#include "tv-profile-data.h"
#include "tv-tach-error.h"

#define FRAME_UNMAPPED G_MAXUINT32

/* FNV-1a over LEN bytes of DATA, from HASH. */
static guint
hash_bytes (guint       hash,
            const char *data,
            gsize       len)
{
  for (gsize i = 0; i < len; i++)
    hash = (hash ^ (guchar) data[i]) * 16777619u;
  return hash;
}

void
tv_export_location_set_hash (TvExportLocation *location)
{
  guint hash = hash_bytes (2166136261u, location->file, location->file_len);

  hash = hash_bytes (hash ^ 0xff, location->func, location->func_len);
  location->hash = (hash ^ (guint) location->line) * 16777619u;
}

guint
tv_export_location_hash (gconstpointer key)
{
  return ((const TvExportLocation *) key)->hash;
}

gboolean
tv_export_location_equal (gconstpointer a,
                          gconstpointer b)
{
  const TvExportLocation *la = a;
  const TvExportLocation *lb = b;

  return la->line == lb->line && la->file_len == lb->file_len && la->func_len == lb->func_len
         && memcmp (la->file, lb->file, la->file_len) == 0
         && memcmp (la->func, lb->func, la->func_len) == 0;
}

void
tv_export_locations_init (TvExportLocations *self,
                          TachReader        *reader,
                          gsize              size,
                          GDestroyNotify     free_func)
{
  g_return_if_fail (size >= sizeof (TvExportLocation));

  self->n_frames = tach_reader_get_n_frames (reader);
  self->frame_map = g_new (guint32, MAX (self->n_frames, 1));
  memset (self->frame_map, 0xff, MAX (self->n_frames, 1) * sizeof (guint32));
  self->list = g_ptr_array_new_with_free_func (free_func);
  self->table = g_hash_table_new (tv_export_location_hash, tv_export_location_equal);
  self->size = size;
}

void
tv_export_locations_clear (TvExportLocations *self)
{
  g_clear_pointer (&self->frame_map, g_free);
  g_clear_pointer (&self->table, g_hash_table_unref);
  g_clear_pointer (&self->list, g_ptr_array_unref);
}

gboolean
tv_export_locations_map (TvExportLocations  *self,
                         TachReader         *reader,
                         guint32             index,
                         guint32            *out_id,
                         gboolean           *added,
                         GError            **error)
{
  const TachFrame *frame;
  TvExportLocation key = { 0 };
  TvExportLocation *location;

  *added = FALSE;
  if (G_LIKELY (index < self->n_frames && self->frame_map[index] != FRAME_UNMAPPED))
    {
      *out_id = self->frame_map[index];
      return TRUE;
    }

  /* The decoder and the model hand out only indices they checked; this
   * keeps a broken invariant from becoming a crash. */
  frame = index < self->n_frames ? tach_reader_get_frame (reader, index) : NULL;
  if (frame == NULL)
    {
      g_set_error (error, TV_TACH_ERROR, TV_TACH_ERROR_INVALID, "Invalid frame index: %u", index);
      return FALSE;
    }
  key.file = tach_reader_get_string (reader, frame->filename, &key.file_len);
  key.func = tach_reader_get_string (reader, frame->funcname, &key.func_len);
  if (key.file == NULL || key.func == NULL)
    {
      g_set_error_literal (error, TV_TACH_ERROR, TV_TACH_ERROR_INVALID,
                           "Invalid string index in frame");
      return FALSE;
    }

  if (tv_profile_file_is_internal (key.file, key.file_len))
    {
      self->frame_map[index] = TV_EXPORT_LOCATION_INTERNAL;
      *out_id = TV_EXPORT_LOCATION_INTERNAL;
      return TRUE;
    }

  /* extract_lineno (None) is 0. */
  key.line = frame->lineno == TACH_LOCATION_NONE ? 0 : frame->lineno;
  tv_export_location_set_hash (&key);

  location = g_hash_table_lookup (self->table, &key);
  if (location == NULL)
    {
      g_assert (self->list->len < TV_EXPORT_LOCATION_INTERNAL);
      location = g_malloc0 (self->size);
      *location = key;
      location->id = self->list->len;
      g_ptr_array_add (self->list, location);
      g_hash_table_add (self->table, location);
      *added = TRUE;
    }
  self->frame_map[index] = location->id;
  *out_id = location->id;
  return TRUE;
}
