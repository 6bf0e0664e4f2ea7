/* tv-export-locations.h: frames as CPython's collectors key them
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The collapsed stacks and pstats count per location: a frame's file,
 * function and line (0 for a frame without one), the profiler's own
 * launcher left out.  A location gets its id when first seen, in order;
 * a map from the reader's frame indices makes every later sight cheap.
 */
#pragma once

#include <glib.h>

#include "tachyon-format.h"

G_BEGIN_DECLS

/* The id of what CPython's collectors hide: the profiler's own launcher. */
#define TV_EXPORT_LOCATION_INTERNAL (G_MAXUINT32 - 1)

typedef struct
{
  /* Borrowed from the reader. */
  const char *file;
  gsize       file_len;
  const char *func;
  gsize       func_len;
  gint32      line;
  guint       hash;
  guint32     id;                 /* position in the list */
} TvExportLocation;

typedef struct
{
  guint32     n_frames;
  guint32    *frame_map;          /* frame index -> id; G_MAXUINT32: not seen */
  /* The callers' records, each starting with its TvExportLocation, by id. */
  GPtrArray  *list;
  GHashTable *table;              /* TvExportLocation -> itself */
  gsize       size;               /* of a record */
} TvExportLocations;

/* Empty, for the frames of READER, with records of SIZE bytes (zeroed but
 * for the location) that the list frees with FREE_FUNC. */
void     tv_export_locations_init  (TvExportLocations  *self,
                                    TachReader         *reader,
                                    gsize               size,
                                    GDestroyNotify      free_func);
void     tv_export_locations_clear (TvExportLocations  *self);
/* In *OUT_ID the id of the location of READER's frame INDEX, or
 * TV_EXPORT_LOCATION_INTERNAL; *ADDED tells whether its record is new. */
gboolean tv_export_locations_map   (TvExportLocations  *self,
                                    TachReader         *reader,
                                    guint32             index,
                                    guint32            *out_id,
                                    gboolean           *added,
                                    GError            **error);

/* Sets LOCATION's hash from its file, function and line. */
void     tv_export_location_set_hash (TvExportLocation *location);
/* For a GHashTable of records that start with their TvExportLocation,
 * its hash set. */
guint    tv_export_location_hash     (gconstpointer     key);
gboolean tv_export_location_equal    (gconstpointer     a,
                                      gconstpointer     b);

G_END_DECLS
