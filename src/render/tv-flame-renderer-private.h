/* tv-flame-renderer-private.h: what the flame renderer's files share
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "tv-draw.h"
#include "tv-flame-renderer.h"

G_BEGIN_DECLS

/* A box as drawn: whole pixels and an 8-bit colour. */
typedef struct
{
  double   left;
  double   top;
  double   right;
  double   bottom;
  guint32  rgb;
  guint8   visible;
  guint8   dimmed;
} Painted;

struct _TvFlameRenderer
{
  TvDrawText            text;

  /* Shaped labels by frame, for one profile and merge key. */
  GHashTable           *labels;
  TvProfileData        *label_data;
  TvMergeKey            label_merge;
  TvDrawLabel          *root_label;
  char                 *root_text;

  /* Per frame of one profile: module kind (G_MAXUINT8 until known) and a
   * hash of the function name. */
  TvProfileData        *frame_data;
  char                 *project_root;    /* what the kinds were made with */
  gboolean              guessed_root;
  guint8               *frame_kinds;
  guint32              *frame_hashes;
  guint32               n_frames;

  /* The largest self of a node, for heat colours. */
  TvCallTree           *heat_tree;
  guint64               max_self;

  /* Scratch space of a draw, kept for the next. */
  Painted              *painted;
  guint64              *order;
  guint64              *order_tmp;
  guint                 capacity;
  cairo_surface_t      *raster;
};

gboolean tv_flame_renderer_diff_within_noise (const TvFlameStyle *style,
                                              TvCallTree         *tree,
                                              guint32             node);

TvFlameColor tv_flame_renderer_diff_fill (const TvFlameStyle *style,
                                          TvCallTree         *tree,
                                          guint32             node);

void tv_flame_renderer_clear_frame_cache (TvFlameRenderer *self);

void tv_flame_renderer_ensure_frame_cache (TvFlameRenderer    *self,
                                           TvProfileData      *data,
                                           const TvFlameStyle *style);

TvFlameColor tv_flame_renderer_box_fill (TvFlameRenderer    *self,
                                         TvCallTree         *tree,
                                         const TvFlameBox   *box,
                                         const TvFlameStyle *style,
                                         gboolean           *dimmed);

G_END_DECLS
