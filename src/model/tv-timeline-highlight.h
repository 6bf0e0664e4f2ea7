/* tv-timeline-highlight.h: where the samples of some functions fall in time
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A TvTimelineHighlight is the part of a TvTimeline that a selected
 * function, or the functions a search matches, account for: the samples
 * whose stack holds one of a set of frames.  It is made on a worker from
 * a byte per frame of the profile's frame table: one pass over the nodes
 * of the exact call tree (parents before children) marks every node whose
 * stack holds a marked frame, then one pass over each lane's runs keeps
 * the timestamps of the samples whose leaf is marked, sorted.  Counting
 * them over any window or column is then a bisection: the counts are
 * exact, whatever the zoom.  Immutable once made; safe from any thread.
 */
#pragma once

#include "tv-timeline.h"

G_BEGIN_DECLS

typedef struct _TvTimelineHighlight TvTimelineHighlight;

/* The lanes of the GROUP given at creation, as one (a timeline's row of
 * folded lanes). */
#define TV_TIMELINE_HIGHLIGHT_GROUP (G_MAXUINT - 1)

/* FRAME_MARKS: a byte per frame of the profile's frame table
 * (tv_profile_data_get_n_frames()), not 0 for a frame to highlight.
 * Only samples with (status & STATUS_MASK) == STATUS_VALUE count (a mask
 * of 0 counts all), as in TvQuery.  LANES: a byte per lane, not 0 for the
 * lanes the overview (TV_TIMELINE_ALL) adds up, or NULL for all.  GROUP:
 * a byte per lane, not 0 for the lanes TV_TIMELINE_HIGHLIGHT_GROUP adds
 * up, or NULL for none.  NULL if CANCELLABLE was cancelled. */
TvTimelineHighlight *tv_timeline_highlight_new      (TvTimeline          *timeline,
                                                     const guint8        *frame_marks,
                                                     guint32              n_frames,
                                                     const guint8        *lanes,
                                                     const guint8        *group,
                                                     guint8               status_mask,
                                                     guint8               status_value,
                                                     GCancellable        *cancellable);
TvTimelineHighlight *tv_timeline_highlight_ref      (TvTimelineHighlight *highlight);
void                 tv_timeline_highlight_unref    (TvTimelineHighlight *highlight);

TvTimeline          *tv_timeline_highlight_get_timeline (TvTimelineHighlight *highlight);
/* Highlighted samples of LANE, of the lanes the overview adds up
 * (TV_TIMELINE_ALL), or of the group (TV_TIMELINE_HIGHLIGHT_GROUP). */
guint64              tv_timeline_highlight_get_n_samples (TvTimelineHighlight *highlight,
                                                          guint                lane);
/* Those with START <= timestamp < END (absolute timestamps). */
guint64              tv_timeline_highlight_count_range (TvTimelineHighlight *highlight,
                                                        guint                lane,
                                                        guint64              start,
                                                        guint64              end);
/* Fills N_COLUMNS counts for the window [T0, T1) (microseconds since the
 * origin), column c as tv_timeline_get_bins() defines it when it counts
 * the samples one by one: those whose time since the origin is in
 * [ceil (e (c)), ceil (e (c + 1))), e (c) = T0 + c (T1 - T0) / N_COLUMNS.
 * Exact.  FALSE (and zeroes) on bad arguments. */
gboolean             tv_timeline_highlight_get_bins (TvTimelineHighlight *highlight,
                                                     guint                lane,
                                                     double               t0,
                                                     double               t1,
                                                     guint                n_columns,
                                                     guint64             *counts);

/* For the N consecutive ranges [EDGES[i], EDGES[i + 1]) of absolute
 * timestamps (N + 1 edges, not decreasing), the highlighted samples of
 * LANE in each, into COUNTS: what a pass over many cells (the heatmap's,
 * a column at a time) wants, the samples walked in order. */
void                 tv_timeline_highlight_count_edges (TvTimelineHighlight *highlight,
                                                        guint                lane,
                                                        const guint64       *edges,
                                                        guint                n,
                                                        guint64             *counts);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TvTimelineHighlight, tv_timeline_highlight_unref)

G_END_DECLS
