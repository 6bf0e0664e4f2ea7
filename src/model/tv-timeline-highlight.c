/* tv-timeline-highlight.c: where the samples of some functions fall in time
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tv-timeline-highlight.h"
#include "tv-timeline-private.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct
{
  guint64 *times;              /* sorted, absolute timestamps */
  guint64  n;
} HighlightLane;

struct _TvTimelineHighlight
{
  gatomicrefcount  ref_count;
  TvTimeline      *timeline;
  HighlightLane   *lanes;      /* one per lane of the timeline */
  guint            n_lanes;
  HighlightLane    all;        /* the lanes the overview adds up */
  HighlightLane    group;      /* the lanes of the group */
};

static int
compare_times (gconstpointer a,
               gconstpointer b)
{
  guint64 x = *(const guint64 *) a, y = *(const guint64 *) b;

  return x < y ? -1 : x > y;
}

/* Per node of the exact tree, whether its stack holds a marked frame:
 * a parent always has a smaller id than its children, so one pass. */
static guint8 *
mark_nodes (const TvExactTree *tree,
            const guint8      *frame_marks,
            guint32            n_frames,
            GCancellable      *cancellable)
{
  g_autofree guint8 *marked = g_new0 (guint8, MAX (tree->n_nodes, 1));

  for (guint32 node = 1; node < tree->n_nodes; node++)
    {
      guint32 frame = tv_exact_tree_frame (tree, node);

      if ((node & 0xffff) == 0 && g_cancellable_is_cancelled (cancellable))
        return NULL;
      marked[node] = marked[tv_exact_tree_parent (tree, node)]
                     || (frame < n_frames && frame_marks[frame] != 0);
    }
  return g_steal_pointer (&marked);
}

/* Sorts TIMES, N of them, made of sorted runs that start at the offsets
 * RUNS holds (and end where the next starts; the last offset is N):
 * merged two by two, a pass per doubling, each pass sequential.  FALSE
 * when cancelled. */
static gboolean
merge_runs (guint64      *times,
            guint64       n,
            GArray       *runs,
            GCancellable *cancellable)
{
  g_autofree guint64 *scratch = NULL;
  guint64 *from = times, *to;
  guint64 *edges = (guint64 *) (gpointer) runs->data;
  guint n_edges = runs->len;

  if (n_edges <= 2)
    return TRUE;
  scratch = g_new (guint64, n);
  to = scratch;
  while (n_edges > 2)
    {
      guint kept = 0;

      if (g_cancellable_is_cancelled (cancellable))
        return FALSE;
      for (guint r = 0; r + 1 < n_edges; r += 2)
        {
          guint64 a = edges[r], a_end = edges[r + 1];
          guint64 b = a_end, b_end = r + 2 < n_edges ? edges[r + 2] : a_end;
          guint64 o = a;

          while (a < a_end && b < b_end)
            to[o++] = from[b] < from[a] ? from[b++] : from[a++];
          while (a < a_end)
            to[o++] = from[a++];
          while (b < b_end)
            to[o++] = from[b++];
          edges[kept++] = edges[r];
        }
      edges[kept++] = n;
      n_edges = kept;
      {
        guint64 *swap = from;

        from = to;
        to = swap;
      }
    }
  if (from != times)
    memcpy (times, from, n * sizeof (guint64));
  return TRUE;
}

/* Into OUT, the times of the lanes LANES keeps (NULL: all when
 * NULL_IS_ALL, else none), sorted.  FALSE when cancelled. */
static gboolean
merge_lanes (TvTimelineHighlight *self,
             const guint8        *lanes,
             gboolean             null_is_all,
             HighlightLane       *out,
             GCancellable        *cancellable)
{
  g_autoptr(GArray) runs = NULL;
  guint64 n = 0, at = 0;

  if (lanes == NULL && !null_is_all)
    return TRUE;
  for (guint l = 0; l < self->n_lanes; l++)
    if (lanes == NULL || lanes[l])
      n += self->lanes[l].n;
  if (n == 0)
    return TRUE;
  out->times = g_new (guint64, n);
  runs = g_array_new (FALSE, FALSE, sizeof (guint64));
  for (guint l = 0; l < self->n_lanes; l++)
    if ((lanes == NULL || lanes[l]) && self->lanes[l].n > 0)
      {
        g_array_append_val (runs, at);
        memcpy (out->times + at, self->lanes[l].times, self->lanes[l].n * sizeof (guint64));
        at += self->lanes[l].n;
      }
  g_array_append_val (runs, at);
  out->n = n;
  return merge_runs (out->times, n, runs, cancellable);
}

TvTimelineHighlight *
tv_timeline_highlight_new (TvTimeline    *timeline,
                           const guint8  *frame_marks,
                           guint32        n_frames,
                           const guint8  *lanes,
                           const guint8  *group,
                           guint8         status_mask,
                           guint8         status_value,
                           GCancellable  *cancellable)
{
  TvProfileData *data;
  const TvExactTree *tree;
  g_autofree guint8 *marked = NULL;
  TvTimelineHighlight *self;

  g_return_val_if_fail (timeline != NULL, NULL);
  g_return_val_if_fail (frame_marks != NULL || n_frames == 0, NULL);

  data = tv_timeline_get_data (timeline);
  tree = tv_profile_data_get_tree (data);
  marked = mark_nodes (tree, frame_marks, n_frames, cancellable);
  if (marked == NULL)
    return NULL;

  self = g_new0 (TvTimelineHighlight, 1);
  g_atomic_ref_count_init (&self->ref_count);
  self->timeline = tv_timeline_ref (timeline);
  self->n_lanes = tv_timeline_get_n_lanes (timeline);
  self->lanes = g_new0 (HighlightLane, MAX (self->n_lanes, 1));

  for (guint l = 0; l < self->n_lanes; l++)
    {
      const TvThread *thread = tv_profile_data_get_thread (data, l);
      HighlightLane *lane = &self->lanes[l];
      guint64 n = 0;

      if (g_cancellable_is_cancelled (cancellable))
        {
          tv_timeline_highlight_unref (self);
          return NULL;
        }
      if (thread->times.blocks == NULL)
        continue;
      /* Count first, then keep: no array grows. */
      for (int pass = 0; pass < 2; pass++)
        {
          n = 0;
          for (guint64 r = 0; r < thread->n_runs; r++)
            {
              guint32 leaf = thread->run_leaf[r];
              guint64 end = r + 1 < thread->n_runs ? thread->run_start[r + 1] : thread->n_samples;

              if (leaf >= tree->n_nodes || !marked[leaf])
                continue;
              for (guint64 s = thread->run_start[r]; s < end; s++)
                if ((tv_statuses_get (&thread->statuses, s) & status_mask) == status_value)
                  {
                    if (pass == 1)
                      lane->times[n] = tv_times_get (&thread->times, s);
                    n++;
                  }
            }
          if (pass == 0)
            {
              if (n == 0)
                break;
              lane->times = g_new (guint64, n);
            }
        }
      lane->n = lane->times != NULL ? n : 0;
      if (!thread->time_ordered && lane->n > 1)
        qsort (lane->times, lane->n, sizeof (guint64), compare_times);
    }

  /* The overview's and the group's: their lanes' merged by sorting. */
  if (!merge_lanes (self, lanes, TRUE, &self->all, cancellable)
      || !merge_lanes (self, group, FALSE, &self->group, cancellable))
    {
      tv_timeline_highlight_unref (self);
      return NULL;
    }
  return self;
}

TvTimelineHighlight *
tv_timeline_highlight_ref (TvTimelineHighlight *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_atomic_ref_count_inc (&self->ref_count);
  return self;
}

void
tv_timeline_highlight_unref (TvTimelineHighlight *self)
{
  if (self == NULL || !g_atomic_ref_count_dec (&self->ref_count))
    return;
  for (guint l = 0; l < self->n_lanes; l++)
    g_free (self->lanes[l].times);
  g_free (self->lanes);
  g_free (self->all.times);
  g_free (self->group.times);
  tv_timeline_unref (self->timeline);
  g_free (self);
}

TvTimeline *
tv_timeline_highlight_get_timeline (TvTimelineHighlight *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->timeline;
}

static const HighlightLane *
get_lane (TvTimelineHighlight *self,
          guint                lane)
{
  if (lane == TV_TIMELINE_ALL)
    return &self->all;
  if (lane == TV_TIMELINE_HIGHLIGHT_GROUP)
    return &self->group;
  if (lane < self->n_lanes)
    return &self->lanes[lane];
  return NULL;
}

guint64
tv_timeline_highlight_get_n_samples (TvTimelineHighlight *self,
                                     guint                lane)
{
  const HighlightLane *l;

  g_return_val_if_fail (self != NULL, 0);
  l = get_lane (self, lane);
  return l != NULL ? l->n : 0;
}

guint64
tv_timeline_highlight_count_range (TvTimelineHighlight *self,
                                   guint                lane,
                                   guint64              start,
                                   guint64              end)
{
  const HighlightLane *l;

  g_return_val_if_fail (self != NULL, 0);
  l = get_lane (self, lane);
  if (l == NULL || l->n == 0 || end <= start)
    return 0;
  return lower_bound (l->times, l->n, end) - lower_bound (l->times, l->n, start);
}

gboolean
tv_timeline_highlight_get_bins (TvTimelineHighlight *self,
                                guint                lane,
                                double               t0,
                                double               t1,
                                guint                n_columns,
                                guint64             *counts)
{
  const HighlightLane *l;
  guint64 left, at;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (counts != NULL || n_columns == 0, FALSE);

  if (n_columns == 0)
    return FALSE;
  memset (counts, 0, n_columns * sizeof (guint64));
  l = get_lane (self, lane);
  if (l == NULL || !isfinite (t0) || !isfinite (t1) || !(t1 > t0))
    return FALSE;
  if (l->n == 0)
    return TRUE;
  /* The same edges as the timeline's columns. */
  left = tv_timeline_time_to_timestamp (self->timeline, t0);
  at = lower_bound (l->times, l->n, left);
  for (guint c = 0; c < n_columns && at < l->n; c++)
    {
      double e = c + 1 == n_columns ? t1 : t0 + (t1 - t0) * (c + 1) / n_columns;
      guint64 right = tv_timeline_time_to_timestamp (self->timeline, e);
      guint64 next;

      if (l->times[at] >= right)
        continue;
      next = gallop (l->times, l->n, at, right);
      counts[c] = next - at;
      at = next;
    }
  return TRUE;
}

void
tv_timeline_highlight_count_edges (TvTimelineHighlight *self,
                                   guint                lane,
                                   const guint64       *edges,
                                   guint                n,
                                   guint64             *counts)
{
  const HighlightLane *l;
  guint64 at;

  g_return_if_fail (self != NULL);
  g_return_if_fail (edges != NULL || n == 0);
  g_return_if_fail (counts != NULL || n == 0);

  if (n == 0)
    return;
  memset (counts, 0, n * sizeof (guint64));
  l = get_lane (self, lane);
  if (l == NULL || l->n == 0)
    return;
  at = lower_bound (l->times, l->n, edges[0]);
  for (guint i = 0; i < n && at < l->n; i++)
    {
      guint64 next;

      if (edges[i + 1] <= edges[i] || l->times[at] >= edges[i + 1])
        continue;
      next = gallop (l->times, l->n, at, edges[i + 1]);
      counts[i] = next - at;
      at = next;
    }
}
