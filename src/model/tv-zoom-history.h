/* tv-zoom-history.h: where a view was and where it went, for Back and Forward
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The flame graph's zooms and the timeline's windows are remembered the same
 * way: a new place puts the current one on the back stack and forgets the
 * forward one; Back and Forward move the current place from one stack to the
 * other.  A TvZoomHistory lives in its owner's instance struct; the places
 * are plain values of one size (the owner's own struct), copied in and out.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum
{
  TV_ZOOM_BACK,
  TV_ZOOM_FORWARD,
} TvZoomDirection;

typedef struct
{
  GArray *stacks[2];   /* by TvZoomDirection: the places that way */
} TvZoomHistory;

void     tv_zoom_history_init   (TvZoomHistory       *history,
                                 guint                place_size);
void     tv_zoom_history_clear  (TvZoomHistory       *history);
/* Forgets every place (as when the places mean nothing any more). */
void     tv_zoom_history_forget (TvZoomHistory       *history);
/* Calls FUNC on every place, which it may change (as when the places are
 * found again in a new tree). */
void     tv_zoom_history_map    (TvZoomHistory       *history,
                                 GFunc                func,
                                 gpointer             user_data);
/* The view leaves CURRENT for a new place. */
void     tv_zoom_history_push   (TvZoomHistory       *history,
                                 gconstpointer        current);
gboolean tv_zoom_history_can_go (const TvZoomHistory *history,
                                 TvZoomDirection      direction);
/* The view goes back (or forward) from CURRENT: the place to show is
 * copied to PLACE.  FALSE, and PLACE untouched, when there is none. */
gboolean tv_zoom_history_go     (TvZoomHistory       *history,
                                 TvZoomDirection      direction,
                                 gconstpointer        current,
                                 gpointer             place);

G_END_DECLS
