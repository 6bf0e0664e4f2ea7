/* tv-diff-keys.c: the keys of two profiles matched by content
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Two profiles come from different files, whose string and frame tables
 * differ: a merge key of one is the key of the other with the same file
 * and function name, and the line, column and opcode when the merge key
 * has them.
 */
#include "tv-diff-private.h"
#include "tachyon-format.h"

#include <string.h>

/* The fields of a frame that a merge key compares, the others zero. */
typedef struct
{
  const char *filename;
  const char *funcname;
  gint32      lineno;
  gint32      column;
  gint32      end_lineno;
  gint32      end_column;
  gint32      opcode;
  guint       hash;
} Content;

static void
content_init (Content       *c,
              TvProfileData *data,
              TvMergeKey     merge,
              guint32        key)
{
  guint32 frame = tv_profile_data_get_key_frame (data, merge, key);
  const TachFrame *f = tach_reader_get_frame (tv_profile_data_get_reader (data), frame);
  guint h;

  memset (c, 0, sizeof *c);
  c->filename = tv_profile_data_get_filename (data, frame);
  c->funcname = tv_profile_data_get_funcname (data, frame);
  if (f != NULL && merge != TV_MERGE_FUNCTION)
    {
      c->lineno = f->lineno;
      if (merge != TV_MERGE_LINE)
        {
          c->column = f->column;
          c->opcode = f->opcode;
        }
      if (merge == TV_MERGE_FRAME)
        {
          c->end_lineno = f->end_lineno;
          c->end_column = f->end_column;
        }
    }
  h = g_str_hash (c->filename) * 31 + g_str_hash (c->funcname);
  h = h * 31 + (guint) c->lineno;
  h = h * 31 + (guint) c->column;
  h = h * 31 + (guint) c->opcode;
  h = h * 31 + (guint) c->end_lineno;
  h = h * 31 + (guint) c->end_column;
  c->hash = h;
}

static guint
content_hash (gconstpointer p)
{
  return ((const Content *) p)->hash;
}

static gboolean
content_equal (gconstpointer pa,
               gconstpointer pb)
{
  const Content *a = pa, *b = pb;

  return a->hash == b->hash
         && a->lineno == b->lineno && a->column == b->column && a->opcode == b->opcode
         && a->end_lineno == b->end_lineno && a->end_column == b->end_column
         && strcmp (a->funcname, b->funcname) == 0 && strcmp (a->filename, b->filename) == 0;
}

/* Keys with the same content are one key within a profile, so the map is
 * one to one; only frames no sample can use (their strings are out of
 * range) may share a content, and the first of them wins. */
void
tv_key_map_build (TvKeyMap      *map,
                  TvProfileData *base,
                  TvProfileData *new_data,
                  TvMergeKey     merge)
{
  guint32 n_base = tv_profile_data_get_n_keys (base, merge);
  guint32 n_new = tv_profile_data_get_n_keys (new_data, merge);
  g_autofree Content *contents = g_new (Content, MAX (n_base, 1));
  g_autoptr(GHashTable) table = g_hash_table_new (content_hash, content_equal);

  map->n_base = n_base;
  map->n_new = n_new;
  map->to_base = g_new (guint32, MAX (n_new, 1));
  map->to_new = g_new (guint32, MAX (n_base, 1));
  for (guint32 k = 0; k < n_base; k++)
    {
      content_init (&contents[k], base, merge, k);
      map->to_new[k] = TV_NODE_NONE;
      if (!g_hash_table_contains (table, &contents[k]))
        g_hash_table_insert (table, &contents[k], GUINT_TO_POINTER (k));
    }
  for (guint32 k = 0; k < n_new; k++)
    {
      Content c;
      gpointer value;

      content_init (&c, new_data, merge, k);
      map->to_base[k] = TV_NODE_NONE;
      if (g_hash_table_lookup_extended (table, &c, NULL, &value)
          && map->to_new[GPOINTER_TO_UINT (value)] == TV_NODE_NONE)
        {
          map->to_base[k] = GPOINTER_TO_UINT (value);
          map->to_new[GPOINTER_TO_UINT (value)] = k;
        }
    }
}

void
tv_key_map_clear (TvKeyMap *map)
{
  g_clear_pointer (&map->to_base, g_free);
  g_clear_pointer (&map->to_new, g_free);
}
