/* tv-export-arena.c: many small allocations, freed together
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tv-export-arena.h"

#define BLOCK_SIZE (1u << 20)

gpointer
tv_export_arena_alloc (TvExportArena *arena,
                       gsize          size)
{
  gpointer mem;

  size = (size + 7) & ~(gsize) 7;
  if (size > arena->left)
    {
      gsize block_size = MAX (size, BLOCK_SIZE);

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

void
tv_export_arena_clear (TvExportArena *arena)
{
  g_clear_pointer (&arena->blocks, g_ptr_array_unref);
  arena->pos = NULL;
  arena->left = 0;
}
