/* tv-export-arena.h: many small allocations, freed together
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The collapsed stacks and pstats' stacks and pairs are many, small and
 * all freed at once: they are cut from blocks of a megabyte.  Zeroed, an
 * arena is empty.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct
{
  GPtrArray *blocks;
  char      *pos;
  gsize      left;
} TvExportArena;

/* SIZE bytes, 8-aligned, uninitialised, that live as long as ARENA. */
gpointer tv_export_arena_alloc (TvExportArena *arena,
                                gsize          size);
/* Frees every allocation; ARENA is empty again. */
void     tv_export_arena_clear (TvExportArena *arena);

G_END_DECLS
