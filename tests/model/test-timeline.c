/* test-timeline.c: the timeline's bins, counts, heatmap and renderer
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every number the timeline gives is checked against a brute-force count
 * over the decoded samples (TvThread's arrays, not the timeline's own),
 * for every corpus profile and for random profiles written at test time
 * with threads whose clock goes backwards, timestamps on bin edges,
 * several interpreters and threads without samples:
 *
 *  - every bin of every level of every lane, and of the overview;
 *  - windows of columns: exact when the columns' edges are on bin edges,
 *    and each bin in the column of its middle otherwise; exact, sample by
 *    sample, when the columns are narrower than the finest bins;
 *  - counts of time ranges, with their states; the lane order; the
 *    heatmap's cells and the ranges a rectangle of cells selects.
 *
 * A timeline is read from four threads at once, with the same results.
 *
 * The renderer is checked on image surfaces: lanes are where hit testing
 * says, with the colours of their states (also at twice the density),
 * hidden lanes take no row, collapsed ones are thin, the selection tints
 * its range only, heatmap cells tint theirs and dim the rest, zoomed in
 * far each sample's state holds until the next, the axis switches between
 * s, ms and µs where it should, and the state colours are the flame
 * graph's.  PNGs of rec_threads.tach, light and dark, whole and zoomed,
 * with heatmap cells, and of 300 threads go to the build directory to be
 * looked at.
 *
 * The seed is printed; TACH_SEED replays a run.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>
#include <glib/gstdio.h>

#include "format-test-util.h"
#include "model-fixture.h"
#include "tv-flame-renderer.h"
#include "tv-timeline-renderer.h"

#define N_RANDOM_PROFILES 16
#define N_COUNTS          (TV_TIMELINE_N_COUNTS + 1)

G_DEFINE_AUTOPTR_CLEANUP_FUNC (cairo_surface_t, cairo_surface_destroy)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (cairo_t, cairo_destroy)

static guint32 base_seed;

static const char *const state_labels[TV_TIMELINE_N_STATES] = {
  "Holding the GIL", "On CPU", "Waiting for the GIL", "Exception", "Idle", "Unknown",
};

/* ------------------------------------------------------------------------ */
/* Profiles                                                                  */
/* ------------------------------------------------------------------------ */

typedef struct
{
  guint64 thread_id;
  guint32 interpreter;
  guint   n_samples;
  gboolean main_thread;
  gboolean backwards;     /* the clock jumps back now and then */
  guint64 next;           /* the next timestamp */
  guint   written;
} GenThread;

/* A random profile: threads of up to three interpreters (ids reused
 * across them), one main thread, some with no samples, some whose clock
 * goes back; timestamps often exactly on, or one off, a power-of-two edge
 * from the first sample (which is BASE); random statuses. */
static void
generate_profile (GRand      *rand,
                  const char *path,
                  guint       n_threads)
{
  TachWriterOptions options = { 0 };
  TachWriter *writer = NULL;
  TachError error;
  guint32 frames[4];
  guint64 base = G_GUINT64_CONSTANT (1700000000000000) + g_rand_int_range (rand, 0, 1 << 30);
  g_autofree GenThread *threads = g_new0 (GenThread, n_threads);
  guint n_interpreters = g_rand_int_range (rand, 1, 4);
  guint remaining = 0;
  static const char *const names[] = { "main", "work", "wait", "run" };

  options.sample_interval_us = 1000;
  options.start_time_us = base;
  options.mode_raw = 1;
  if (tach_writer_new (path, &options, &writer, &error) != TACH_OK)
    g_error ("writer: %s", error.message);
  for (guint f = 0; f < G_N_ELEMENTS (frames); f++)
    {
      TachFrameInfo info = { "/srv/app/x.py", names[f], (int) f + 1, -1, -1, -1,
                             TACH_OPCODE_NONE };

      if (tach_writer_intern_frame (writer, &info, &frames[f], &error) != TACH_OK)
        g_error ("intern: %s", error.message);
    }

  for (guint i = 0; i < n_threads; i++)
    {
      GenThread *t = &threads[i];

      t->interpreter = g_rand_int_range (rand, 0, n_interpreters);
      /* Thread ids repeat across interpreters. */
      t->thread_id = 1000 + (g_rand_boolean (rand) ? i : (guint) g_rand_int_range (rand, 0, 4));
      t->n_samples = g_rand_int_range (rand, 0, 8) == 0 ? 0 : g_rand_int_range (rand, 1, 4000);
      t->main_thread = i == 0;
      t->backwards = g_rand_int_range (rand, 0, 4) == 0;
      t->next = base + (i == 0 ? 0 : g_rand_int_range (rand, 0, 200000));
      remaining += t->n_samples;
    }
  /* The first sample is at BASE: thread 0 has one. */
  if (threads[0].n_samples == 0)
    {
      threads[0].n_samples = 1;
      remaining++;
    }
  /* Two threads with the same id in one interpreter would be one thread. */
  for (guint i = 0; i < n_threads; i++)
    for (guint j = 0; j < i; j++)
      if (threads[i].thread_id == threads[j].thread_id
          && threads[i].interpreter == threads[j].interpreter)
        threads[i].thread_id = 5000 + i;

  while (remaining > 0)
    {
      guint i = g_rand_int_range (rand, 0, n_threads);
      GenThread *t = &threads[i];
      guint32 stack[3];
      guint depth = g_rand_int_range (rand, 1, 4);
      guint8 status = g_rand_int_range (rand, 0, 32);
      guint64 ts = t->next;

      if (t->written == t->n_samples)
        continue;
      for (guint d = 0; d < depth; d++)
        stack[d] = frames[g_rand_int_range (rand, 0, G_N_ELEMENTS (frames))];
      /* Mostly common states, sometimes any combination of bits. */
      if (g_rand_int_range (rand, 0, 3) > 0)
        {
          static const guint8 common[] = {
            TACH_STATUS_HAS_GIL | TACH_STATUS_ON_CPU, TACH_STATUS_ON_CPU,
            TACH_STATUS_GIL_REQUESTED, 0, TACH_STATUS_UNKNOWN,
            TACH_STATUS_HAS_EXCEPTION, TACH_STATUS_HAS_GIL,
          };
          status = common[g_rand_int_range (rand, 0, G_N_ELEMENTS (common))];
        }
      if (t->main_thread)
        status |= TACH_STATUS_MAIN_THREAD;
      if (tach_writer_add_sample (writer, t->thread_id, t->interpreter, ts, status, stack, depth,
                                  &error) != TACH_OK)
        g_error ("sample: %s", error.message);
      t->written++;
      remaining--;

      /* The next timestamp: the same, a step, a power-of-two edge from
       * BASE (or one off it), or back in time. */
      switch (g_rand_int_range (rand, 0, 10))
        {
        case 0:
          break;
        case 1:
        case 2:
          {
            guint64 edge = G_GUINT64_CONSTANT (1) << g_rand_int_range (rand, 4, 20);
            guint64 r = ts - base;

            t->next = base + (r / edge + 1) * edge + g_rand_int_range (rand, -1, 2);
          }
          break;
        case 3:
          if (t->backwards && ts - base > 60000)
            {
              t->next = ts - g_rand_int_range (rand, 1, 50000);
              break;
            }
          G_GNUC_FALLTHROUGH;
        default:
          t->next = ts + g_rand_int_range (rand, 1, 3000);
          break;
        }
      /* Thread 0's first sample stays the earliest. */
      if (t->next < base)
        t->next = base;
    }
  if (tach_writer_finish (writer, &error) != TACH_OK)
    g_error ("finish: %s", error.message);
}

static TvProfileData *
random_data (GRand    *rand,
             guint     n_threads)
{
  FormatTestDir tmp;
  TvProfileData *data;

  format_test_dir_init (&tmp, "tv-timeline-XXXXXX");
  generate_profile (rand, tmp.path, n_threads);
  data = fixture_load (tmp.path);
  format_test_dir_clear (&tmp);
  return data;
}

/* ------------------------------------------------------------------------ */
/* Brute force                                                               */
/* ------------------------------------------------------------------------ */

/* Samples first, then TvTimelineCount order, straight from the bits. */
static void
brute_add (guint64 *counts,
           guint8   status)
{
  gboolean gil = status & TACH_STATUS_HAS_GIL;
  gboolean cpu = status & TACH_STATUS_ON_CPU;
  gboolean wait = status & TACH_STATUS_GIL_REQUESTED;

  counts[0]++;
  counts[1 + TV_TIMELINE_COUNT_HAS_GIL] += gil ? 1 : 0;
  counts[1 + TV_TIMELINE_COUNT_ON_CPU] += cpu ? 1 : 0;
  counts[1 + TV_TIMELINE_COUNT_GIL_REQUESTED] += wait ? 1 : 0;
  counts[1 + TV_TIMELINE_COUNT_EXCEPTION] += (status & TACH_STATUS_HAS_EXCEPTION) ? 1 : 0;
  counts[1 + TV_TIMELINE_COUNT_UNKNOWN] += (status & TACH_STATUS_UNKNOWN) ? 1 : 0;
  counts[1 + TV_TIMELINE_COUNT_IDLE] += !gil && !cpu && !wait ? 1 : 0;
  counts[1 + TV_TIMELINE_COUNT_NATIVE] += cpu && !gil && !wait ? 1 : 0;
}

static void
assert_column (const TvTimelineColumn *column,
               const guint64          *expected,
               const char             *what,
               guint                   index)
{
  if (column->samples != expected[0])
    g_error ("%s %u: %" G_GUINT64_FORMAT " samples, expected %" G_GUINT64_FORMAT, what, index,
             column->samples, expected[0]);
  for (guint k = 0; k < TV_TIMELINE_N_COUNTS; k++)
    if (column->counts[k] != expected[k + 1])
      g_error ("%s %u: count %u is %" G_GUINT64_FORMAT ", expected %" G_GUINT64_FORMAT, what,
               index, k, column->counts[k], expected[k + 1]);
}

/* The threads a lane stands for: one, or all for the overview. */
static void
lane_threads (TvProfileData *data,
              guint          lane,
              guint         *first,
              guint         *end)
{
  *first = lane == TV_TIMELINE_ALL ? 0 : lane;
  *end = lane == TV_TIMELINE_ALL ? tv_profile_data_get_n_threads (data) : lane + 1;
}

static void
check_levels (TvTimeline *timeline,
              guint       lane)
{
  TvProfileData *data = tv_timeline_get_data (timeline);
  guint64 origin = tv_timeline_get_origin (timeline);
  guint n_levels = tv_timeline_get_n_levels (timeline, lane);
  guint first, end;
  guint64 n_samples = 0;

  lane_threads (data, lane, &first, &end);
  for (guint i = first; i < end; i++)
    n_samples += tv_profile_data_get_thread (data, i)->n_samples;
  if (n_samples == 0)
    {
      g_assert_cmpuint (n_levels, ==, 0);
      return;
    }
  g_assert_cmpuint (n_levels, >, 0);

  for (guint level = 0; level < n_levels; level++)
    {
      guint shift;
      guint64 first_bin, n_bins;
      const TvTimelineBin *bins = tv_timeline_get_level (timeline, lane, level, &shift,
                                                         &first_bin, &n_bins);
      g_autofree guint64 *expected = g_new0 (guint64, n_bins * N_COUNTS);

      g_assert_nonnull (bins);
      g_assert_cmpuint (n_bins, >, 0);
      if (level > 0)
        {
          guint below;

          tv_timeline_get_level (timeline, lane, level - 1, &below, NULL, NULL);
          g_assert_cmpuint (shift, ==, below + 2);
        }
      /* The finest level: at most 2^20 bins, the widest with at most 32
       * samples to a bin on average (16 at least, twice as wide would be
       * more than 32), unless narrower ones would be too many. */
      if (level == 0)
        {
          guint64 lo = G_MAXUINT64, hi = 0;
          double extent;

          for (guint i = first; i < end; i++)
            {
              const TvThread *t = tv_profile_data_get_thread (data, i);

              if (t->n_samples == 0)
                continue;
              lo = MIN (lo, t->first_timestamp - origin);
              hi = MAX (hi, t->last_timestamp - origin);
            }
          extent = (double) (hi - lo) + 1;
          g_assert_cmpuint (n_bins, <=, 1u << 20);
          g_assert_cmpuint (first_bin, ==, lo >> shift);
          g_assert_cmpuint (n_bins, ==, (hi >> shift) - (lo >> shift) + 1);
          if (shift > 0 && (hi >> (shift - 1)) - (lo >> (shift - 1)) + 1 <= (1u << 20))
            g_assert_cmpfloat ((double) n_samples * ldexp (1.0, shift), <=, 32 * extent);
          g_assert_cmpfloat ((double) n_samples * ldexp (1.0, shift + 1), >, 32 * extent);
        }

      for (guint i = first; i < end; i++)
        {
          const TvThread *t = tv_profile_data_get_thread (data, i);

          for (guint64 s = 0; s < t->n_samples; s++)
            {
              guint64 j = (tv_times_get (&t->times, s) - origin) >> shift;

              g_assert_cmpuint (j, >=, first_bin);
              g_assert_cmpuint (j, <, first_bin + n_bins);
              brute_add (expected + (j - first_bin) * N_COUNTS, tv_statuses_get (&t->statuses, s));
            }
        }
      for (guint64 b = 0; b < n_bins; b++)
        {
          TvTimelineColumn column = { bins[b].samples };

          for (guint k = 0; k < TV_TIMELINE_N_COUNTS; k++)
            column.counts[k] = bins[b].counts[k];
          assert_column (&column, expected + b * N_COUNTS, "bin", (guint) b);
        }
      /* The coarsest level is one bin. */
      if (level == n_levels - 1)
        g_assert_cmpuint (n_bins, ==, 1);
    }
}

/* Columns of the window [T0, T1) by brute force: each sample at the
 * column that holds it (LEVEL < 0, or its bin of LEVEL is cut by the
 * window's edges) or that holds its bin's middle. */
static void
brute_window (TvTimeline *timeline,
              guint       lane,
              int         level,
              double      t0,
              double      t1,
              guint       n,
              guint64    *expected)
{
  TvProfileData *data = tv_timeline_get_data (timeline);
  guint64 origin = tv_timeline_get_origin (timeline);
  g_autofree double *edges = g_new (double, n + 1);
  guint shift = 0, first, end;

  memset (expected, 0, n * N_COUNTS * sizeof (guint64));
  for (guint c = 0; c <= n; c++)
    edges[c] = ceil (c == n ? t1 : t0 + (t1 - t0) * c / n);
  if (level >= 0)
    tv_timeline_get_level (timeline, lane, level, &shift, NULL, NULL);

  lane_threads (data, lane, &first, &end);
  for (guint i = first; i < end; i++)
    {
      const TvThread *t = tv_profile_data_get_thread (data, i);

      for (guint64 s = 0; s < t->n_samples; s++)
        {
          guint64 r = tv_times_get (&t->times, s) - origin;
          double at;
          guint lo = 0, hi = n;

          if (level >= 0)
            {
              guint64 bin = (r >> shift) << shift;

              if ((double) bin >= edges[0] && (double) bin + ldexp (1.0, shift) <= edges[n])
                r = bin + (shift > 0 ? G_GUINT64_CONSTANT (1) << (shift - 1) : 0);
            }
          at = (double) r;
          if (at < edges[0] || at >= edges[n])
            continue;
          /* The last column whose left edge is at or before the sample. */
          while (hi - lo > 1)
            {
              guint mid = (lo + hi) / 2;

              if (edges[mid] <= at)
                lo = mid;
              else
                hi = mid;
            }
          brute_add (expected + (gsize) lo * N_COUNTS, tv_statuses_get (&t->statuses, s));
        }
    }
}

static void
check_window (TvTimeline *timeline,
              guint       lane,
              double      t0,
              double      t1,
              guint       n,
              int         expected_level)
{
  g_autofree TvTimelineColumn *columns = g_new (TvTimelineColumn, n);
  g_autofree guint64 *expected = g_new (guint64, (gsize) n * N_COUNTS);
  int level = tv_timeline_pick_level (timeline, lane, t0, t1, n);

  if (expected_level != G_MININT)
    g_assert_cmpint (level, ==, expected_level);
  g_assert_true (tv_timeline_get_bins (timeline, lane, t0, t1, n, columns));
  brute_window (timeline, lane, level, t0, t1, n, expected);
  for (guint c = 0; c < n; c++)
    assert_column (&columns[c], expected + (gsize) c * N_COUNTS, "column", c);
}

/* Windows on bin edges are exact; windows anywhere else put each bin in
 * the column of its middle; narrower columns than the finest bins count
 * samples. */
static void
check_windows (TvTimeline *timeline,
               guint       lane,
               GRand      *rand)
{
  guint n_levels = tv_timeline_get_n_levels (timeline, lane);
  guint64 duration = tv_timeline_get_duration (timeline);

  for (guint level = 0; level < n_levels; level++)
    {
      guint shift;
      guint64 first_bin, n_bins;
      double width;

      tv_timeline_get_level (timeline, lane, level, &shift, &first_bin, &n_bins);
      width = ldexp (1.0, shift);
      for (guint k = 1; k <= 3; k++)
        {
          guint n = g_rand_int_range (rand, 1, 200);
          double t0 = ((double) first_bin + g_rand_int_range (rand, -2, (int) MIN (n_bins, 50)))
                      * width;
          /* Columns of k bins each, so the coarsest level no wider is
           * this one, unless it is the last. */
          check_window (timeline, lane, t0, t0 + n * k * width, n, (int) level);
        }
      /* Anywhere. */
      for (guint k = 0; k < 3; k++)
        {
          guint n = g_rand_int_range (rand, 1, 300);
          double column = width * g_rand_double_range (rand, 1.0, 3.99);
          double t0 = g_rand_double_range (rand, -column, (double) duration);

          check_window (timeline, lane, t0, t0 + n * column, n, (int) level);
        }
    }

  /* Columns narrower than the finest bins: samples, exactly. */
  for (guint k = 0; k < 4; k++)
    {
      guint shift = 0;
      guint n = g_rand_int_range (rand, 1, 2000);
      double column, t0;

      if (n_levels > 0)
        tv_timeline_get_level (timeline, lane, 0, &shift, NULL, NULL);
      column = ldexp (1.0, shift) * g_rand_double_range (rand, 0.01, 0.99);
      t0 = k == 0 ? 0 : g_rand_double_range (rand, -column * 10, (double) duration);
      check_window (timeline, lane, t0, t0 + n * column, n, -1);
    }

  /* The whole profile on a screen's width, whatever it picks: nothing
   * lost, nothing counted twice. */
  {
    TvTimelineColumn columns[1920];
    guint64 total = 0, expected = 0;
    guint first, end;

    g_assert_true (tv_timeline_get_bins (timeline, lane, 0, MAX (duration, 1), 1920, columns));
    for (guint c = 0; c < 1920; c++)
      total += columns[c].samples;
    lane_threads (tv_timeline_get_data (timeline), lane, &first, &end);
    for (guint i = first; i < end; i++)
      expected += tv_profile_data_get_thread (tv_timeline_get_data (timeline), i)->n_samples;
    g_assert_cmpuint (total, ==, expected);
  }
}

static void
check_ranges (TvTimeline *timeline,
              guint       lane,
              GRand      *rand)
{
  TvProfileData *data = tv_timeline_get_data (timeline);
  guint64 origin = tv_timeline_get_origin (timeline);
  guint64 duration = tv_timeline_get_duration (timeline);
  guint first, end;

  lane_threads (data, lane, &first, &end);
  for (guint k = 0; k < 12; k++)
    {
      guint64 start, stop, n;
      guint64 expected[N_COUNTS] = { 0 };
      TvTimelineColumn counts;

      if (k == 0)
        start = 0, stop = G_MAXUINT64;
      else if (k < 4 && end > first && tv_profile_data_get_thread (data, first)->n_samples > 0)
        {
          /* On a sample's timestamp. */
          const TvThread *t = tv_profile_data_get_thread (data, first);

          start = tv_times_get (&t->times, g_rand_int_range (rand, 0, (int) MIN (t->n_samples, G_MAXINT)));
          stop = start + g_rand_int_range (rand, 0, 5000);
        }
      else
        {
          start = origin + g_rand_int_range (rand, -1000, (int) MIN (duration + 1000, G_MAXINT));
          stop = start + g_rand_int_range (rand, 0, (int) MIN (duration + 1, G_MAXINT));
        }
      for (guint i = first; i < end; i++)
        {
          const TvThread *t = tv_profile_data_get_thread (data, i);

          for (guint64 s = 0; s < t->n_samples; s++)
            if (tv_times_get (&t->times, s) >= start && tv_times_get (&t->times, s) < stop)
              brute_add (expected, tv_statuses_get (&t->statuses, s));
        }
      n = tv_timeline_count_range (timeline, lane, start, stop, &counts);
      g_assert_cmpuint (n, ==, expected[0]);
      assert_column (&counts, expected, "range", k);
      g_assert_cmpuint (tv_timeline_count_range (timeline, lane, start, stop, NULL), ==, n);
    }
  /* Empty and backwards ranges hold nothing. */
  g_assert_cmpuint (tv_timeline_count_range (timeline, lane, origin + 5, origin + 5, NULL), ==, 0);
  g_assert_cmpuint (tv_timeline_count_range (timeline, lane, origin + 9, origin + 5, NULL), ==, 0);
}

static void
check_order (TvTimeline *timeline)
{
  TvProfileData *data = tv_timeline_get_data (timeline);
  guint n, n_interpreters;
  const guint32 *order = tv_timeline_get_order (timeline, &n);
  const guint32 *interpreters = tv_timeline_get_interpreters (timeline, &n_interpreters);
  g_autofree guint8 *seen = g_new0 (guint8, MAX (n, 1));
  guint group = 0;

  g_assert_cmpuint (n, ==, tv_profile_data_get_n_threads (data));
  g_assert_cmpuint (tv_timeline_get_n_lanes (timeline), ==, n);
  for (guint p = 0; p < n; p++)
    {
      const TvTimelineLane *lane = tv_timeline_get_lane (timeline, order[p]);
      const TvThread *t = tv_profile_data_get_thread (data, order[p]);

      g_assert_cmpuint (order[p], <, n);
      g_assert_false (seen[order[p]]);
      seen[order[p]] = 1;
      g_assert_cmpuint (lane->position, ==, p);
      g_assert_cmpuint (lane->thread_index, ==, order[p]);
      g_assert_cmpuint (lane->thread_id, ==, t->thread_id);
      g_assert_cmpuint (lane->interpreter_id, ==, t->interpreter_id);
      g_assert_cmpuint (lane->n_samples, ==, t->n_samples);
      g_assert_true (lane->main_thread == (t->status_counts[5] > 0));
      if (t->n_samples > 0)
        {
          g_assert_cmpuint (lane->first_timestamp, ==, t->first_timestamp);
          g_assert_cmpuint (lane->last_timestamp, ==, t->last_timestamp);
        }

      /* Interpreters in the order of the groups. */
      while (group < n_interpreters && interpreters[group] != lane->interpreter_id)
        group++;
      g_assert_cmpuint (group, <, n_interpreters);

      if (p > 0)
        {
          const TvTimelineLane *prev = tv_timeline_get_lane (timeline, order[p - 1]);

          g_assert_cmpuint (prev->interpreter_id, <=, lane->interpreter_id);
          if (prev->interpreter_id == lane->interpreter_id)
            {
              /* The main thread first, then by samples, then by id. */
              g_assert_true (prev->main_thread || !lane->main_thread);
              if (prev->main_thread == lane->main_thread)
                {
                  g_assert_cmpuint (prev->n_samples, >=, lane->n_samples);
                  if (prev->n_samples == lane->n_samples)
                    g_assert_cmpuint (prev->thread_id, <=, lane->thread_id);
                }
            }
        }
    }
  for (guint i = 1; i < n_interpreters; i++)
    g_assert_cmpuint (interpreters[i - 1], <, interpreters[i]);
}

/* A heatmap of columns of COLUMN microseconds against the samples. */
static void
check_heatmap_full (TvTimeline    *timeline,
                    const guint32 *lanes,
                    guint          n_lanes,
                    guint8         mask,
                    guint8         value,
                    guint64        column,
                    guint64        row_duration,
                    GRand         *rand)
{
  TvProfileData *data = tv_timeline_get_data (timeline);
  guint64 origin = tv_timeline_get_origin (timeline);
  g_autoptr(TvTimelineHeatmap) heatmap = column == 1000000
                                         ? tv_timeline_heatmap_new (timeline, lanes, n_lanes,
                                                                    mask, value, row_duration,
                                                                    NULL)
                                         : tv_timeline_heatmap_new_full (timeline, lanes, n_lanes,
                                                                         mask, value, column,
                                                                         row_duration, NULL);
  guint n_columns = tv_timeline_heatmap_get_n_columns (heatmap);
  guint n_rows = tv_timeline_heatmap_get_n_rows (heatmap);
  g_autofree guint64 *expected = NULL;
  guint64 max = 0;
  guint n_selected = lanes != NULL ? n_lanes : tv_profile_data_get_n_threads (data);

  g_assert_nonnull (heatmap);
  g_assert_cmpuint (n_rows, ==, (column + row_duration - 1) / row_duration);
  g_assert_cmpuint (tv_timeline_heatmap_get_row_duration (heatmap), ==, row_duration);
  g_assert_cmpuint (tv_timeline_heatmap_get_column_duration (heatmap), ==, column);
  if (tv_timeline_get_span (timeline, NULL, NULL))
    g_assert_cmpuint (n_columns, ==, (tv_timeline_get_duration (timeline) - 1) / column + 1);
  else
    g_assert_cmpuint (n_columns, ==, 0);

  expected = g_new0 (guint64, MAX ((gsize) n_columns * n_rows, 1));
  for (guint i = 0; i < n_selected; i++)
    {
      const TvThread *t = tv_profile_data_get_thread (data, lanes != NULL ? lanes[i] : i);

      for (guint64 s = 0; s < t->n_samples; s++)
        {
          guint64 r = tv_times_get (&t->times, s) - origin;

          if ((tv_statuses_get (&t->statuses, s) & mask) == value)
            expected[(r / column) * n_rows + (r % column) / row_duration]++;
        }
    }
  for (guint c = 0; c < n_columns; c++)
    for (guint r = 0; r < n_rows; r++)
      {
        guint64 start, end;

        g_assert_cmpuint (tv_timeline_heatmap_get_count (heatmap, c, r), ==,
                          expected[(gsize) c * n_rows + r]);
        max = MAX (max, expected[(gsize) c * n_rows + r]);
        tv_timeline_heatmap_get_cell_range (heatmap, c, r, &start, &end);
        g_assert_cmpuint (start, ==, origin + c * column + r * row_duration);
        g_assert_cmpuint (end, ==, origin + c * column + MIN ((r + 1) * row_duration, column));
      }
  g_assert_cmpuint (tv_timeline_heatmap_get_max_count (heatmap), ==, max);

  /* Rectangles of cells: their ranges hold exactly the cells' samples. */
  for (guint k = 0; k < 6 && n_columns > 0; k++)
    {
      guint c0 = g_rand_int_range (rand, 0, n_columns), c1 = g_rand_int_range (rand, 0, n_columns);
      guint r0 = k == 0 ? 0 : g_rand_int_range (rand, 0, n_rows);
      guint r1 = k == 0 ? n_rows - 1 : (guint) g_rand_int_range (rand, 0, n_rows);
      guint n_ranges;
      g_autofree TvTimeRange *ranges = tv_timeline_heatmap_select (heatmap, c0, r0, c1, r1,
                                                                   &n_ranges);
      guint64 in_cells = 0, in_ranges = 0;

      g_assert_nonnull (ranges);
      g_assert_cmpuint (n_ranges, >=, 1);
      /* A rectangle of every row is one range. */
      if (k == 0)
        g_assert_cmpuint (n_ranges, ==, 1);
      for (guint i = 0; i < n_ranges; i++)
        {
          g_assert_cmpuint (ranges[i].start, <, ranges[i].end);
          if (i > 0)
            g_assert_cmpuint (ranges[i - 1].end, <, ranges[i].start);
        }
      for (guint c = MIN (c0, c1); c <= MAX (c0, c1); c++)
        for (guint r = MIN (r0, r1); r <= MAX (r0, r1); r++)
          in_cells += tv_timeline_heatmap_get_count (heatmap, c, r);
      for (guint i = 0; i < n_selected; i++)
        {
          guint lane = lanes != NULL ? lanes[i] : i;
          const TvThread *t = tv_profile_data_get_thread (data, lane);
          guint64 in_lane = 0, gil = 0;
          TvTimelineColumn counts;

          for (guint64 s = 0; s < t->n_samples; s++)
            if (tv_time_ranges_contain (ranges, n_ranges, tv_times_get (&t->times, s)))
              {
                in_lane++;
                gil += (tv_statuses_get (&t->statuses, s) & TACH_STATUS_HAS_GIL) != 0;
                in_ranges += (tv_statuses_get (&t->statuses, s) & mask) == value;
              }
          g_assert_cmpuint (tv_timeline_count_ranges (timeline, lane, ranges, n_ranges, &counts),
                            ==, in_lane);
          g_assert_cmpuint (counts.samples, ==, in_lane);
          g_assert_cmpuint (counts.counts[TV_TIMELINE_COUNT_HAS_GIL], ==, gil);
        }
      g_assert_cmpuint (in_ranges, ==, in_cells);
      if (lanes == NULL && mask == 0)
        g_assert_cmpuint (tv_timeline_count_ranges (timeline, TV_TIMELINE_ALL, ranges, n_ranges,
                                                    NULL),
                          ==, in_cells);
    }
}

static void
check_heatmap (TvTimeline    *timeline,
               const guint32 *lanes,
               guint          n_lanes,
               guint8         mask,
               guint8         value,
               guint64        row_duration,
               GRand         *rand)
{
  check_heatmap_full (timeline, lanes, n_lanes, mask, value, 1000000, row_duration, rand);
}

/* The heatmap view's columns: seconds, but for a short profile the
 * longest nice duration that makes TV_HEATMAP_MIN_COLUMNS columns, as
 * long as a row (a fiftieth) is no shorter than the sampling interval. */
static void
check_column_duration (TvTimeline *timeline)
{
  static const guint64 durations[] = { 1000000, 500000, 200000, 100000, 50000, 20000, 10000 };
  guint64 picked = tv_timeline_heatmap_pick_column_duration (timeline);
  double duration = tv_timeline_get_duration (timeline);
  double interval = tv_timeline_get_interval (timeline);
  guint i = 0;

  while (i < G_N_ELEMENTS (durations) && durations[i] != picked)
    i++;
  g_assert_cmpuint (i, <, G_N_ELEMENTS (durations));
  g_test_message ("%.0f us at %.1f us a sample: columns of %" G_GUINT64_FORMAT " us", duration,
                  interval, picked);
  g_assert_true (i == 0 || picked / 50.0 >= interval);
  /* A longer one would make too few columns ... */
  if (i > 0)
    g_assert_cmpfloat (duration / durations[i - 1], <, TV_HEATMAP_MIN_COLUMNS);
  /* ... and a shorter one was needed for enough, but rows too short. */
  if (duration / picked < TV_HEATMAP_MIN_COLUMNS && i + 1 < G_N_ELEMENTS (durations))
    g_assert_cmpfloat (durations[i + 1] / 50.0, <, interval);
}

static void
check_timeline (TvProfileData *data,
                GRand         *rand)
{
  g_autoptr(TvTimeline) timeline = NULL;
  guint64 first, last;
  gint64 start = g_get_monotonic_time ();

  timeline = tv_timeline_new (data, NULL);
  g_assert_nonnull (timeline);
  g_test_message ("%" G_GUINT64_FORMAT " samples, %u lanes: built in %.2f ms, %zu bytes",
                  tv_profile_data_get_n_samples (data), tv_timeline_get_n_lanes (timeline),
                  (g_get_monotonic_time () - start) / 1000.0,
                  tv_timeline_get_memory_size (timeline));

  g_assert_true (tv_timeline_get_span (timeline, &first, &last)
                 == tv_profile_data_get_time_span (data, NULL, NULL));
  if (tv_timeline_get_span (timeline, &first, &last))
    {
      guint64 f, l;

      tv_profile_data_get_time_span (data, &f, &l);
      g_assert_cmpuint (first, ==, f);
      g_assert_cmpuint (last, ==, l);
      g_assert_cmpuint (tv_timeline_get_origin (timeline), ==, f);
      g_assert_cmpuint (tv_timeline_get_duration (timeline), ==, l - f + 1);
      g_assert_cmpuint (tv_timeline_time_to_timestamp (timeline, 0), ==, f);
      g_assert_cmpuint (tv_timeline_time_to_timestamp (timeline, 0.5), ==, f + 1);
      g_assert_cmpuint (tv_timeline_time_to_timestamp (timeline, 7), ==, f + 7);
      g_assert_cmpuint (tv_timeline_time_to_timestamp (timeline, -3), ==, f);
    }
  else
    g_assert_cmpuint (tv_timeline_get_duration (timeline), ==, 0);
  g_assert_true (tv_timeline_get_interval (timeline) > 0);

  check_order (timeline);
  for (guint lane = 0; lane <= tv_timeline_get_n_lanes (timeline); lane++)
    {
      guint l = lane < tv_timeline_get_n_lanes (timeline) ? lane : TV_TIMELINE_ALL;

      check_levels (timeline, l);
      check_windows (timeline, l, rand);
      check_ranges (timeline, l, rand);
    }
  check_heatmap (timeline, NULL, 0, 0, 0, 20000, rand);
  check_heatmap (timeline, NULL, 0, 0, 0, 333333, rand);
  check_heatmap (timeline, NULL, 0, 0, 0, 1000000, rand);
  /* Shorter columns, as a short profile's. */
  check_heatmap_full (timeline, NULL, 0, 0, 0, 100000, 2000, rand);
  check_heatmap_full (timeline, NULL, 0, 0, 0, 50000, 1000, rand);
  check_heatmap_full (timeline, NULL, 0, 0, 0, 10000, 10000, rand);
  check_column_duration (timeline);
  /* The legend's filters, as the heatmap view passes them. */
  for (TvTimelineState state = 0; state < TV_TIMELINE_N_STATES; state++)
    {
      guint8 mask, value;

      tv_timeline_state_get_filter (state, &mask, &value);
      check_heatmap (timeline, NULL, 0, mask, value, 20000, rand);
    }
  if (tv_timeline_get_n_lanes (timeline) > 1)
    {
      guint32 some[] = { 1, 0 };

      check_heatmap (timeline, some, 2, 0, 0, 7000, rand);
      check_heatmap (timeline, some, 2, TACH_STATUS_ON_CPU, TACH_STATUS_ON_CPU, 20000, rand);
    }
}

static void
test_corpus (gconstpointer user_data)
{
  g_autoptr(TvProfileData) data = fixture_load_corpus (user_data);
  g_autoptr(GRand) rand = g_rand_new_with_seed (base_seed);

  check_timeline (data, rand);
}

static void
test_random (gconstpointer user_data)
{
  guint index = GPOINTER_TO_UINT (user_data);
  g_autoptr(GRand) rand = g_rand_new_with_seed (base_seed + index * 7919);
  g_autoptr(TvProfileData) data = random_data (rand, g_rand_int_range (rand, 1, 14));
  gboolean unordered = FALSE;

  for (guint i = 0; i < tv_profile_data_get_n_threads (data); i++)
    unordered |= !tv_profile_data_get_thread (data, i)->time_ordered;
  g_test_message ("%u threads, %s", tv_profile_data_get_n_threads (data),
                  unordered ? "some not in time order" : "all in time order");
  check_timeline (data, rand);
}

/* Threads out of time order really are among the random profiles: the
 * sorted copies are tested, not assumed. */
static void
test_unordered (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (base_seed);

  for (guint tries = 0; tries < 50; tries++)
    {
      g_autoptr(TvProfileData) data = random_data (rand, 8);

      for (guint i = 0; i < tv_profile_data_get_n_threads (data); i++)
        if (!tv_profile_data_get_thread (data, i)->time_ordered)
          {
            check_timeline (data, rand);
            return;
          }
    }
  g_assert_not_reached ();
}

/* Seventy thousand samples at one timestamp, in one bin and one column:
 * the byte-wide counters the timeline adds a lane's samples with, and the
 * 16-bit ones of the overview's, must carry over. */
static void
test_dense (void)
{
  FormatTestDir tmp;
  g_autoptr(GRand) rand = g_rand_new_with_seed (base_seed);
  g_autoptr(TvProfileData) data = NULL;
  TachWriterOptions options = { 0 };
  TachWriter *writer = NULL;
  TachError tach_error;
  TachFrameInfo info = { "/srv/app/dense.py", "burst", 1, -1, -1, -1, TACH_OPCODE_NONE };
  guint32 frame;

  format_test_dir_init (&tmp, "tv-timeline-XXXXXX");
  options.sample_interval_us = 1000;
  options.start_time_us = 5000;
  if (tach_writer_new (tmp.path, &options, &writer, &tach_error) != TACH_OK
      || tach_writer_intern_frame (writer, &info, &frame, &tach_error) != TACH_OK)
    g_error ("writer: %s", tach_error.message);
  for (guint i = 0; i < 73000; i++)
    {
      /* A burst of 70,000 at 5 ms, then a sample a millisecond, and a
       * second thread alongside. */
      guint64 ts = i < 70000 ? 5000 : 5000 + (i - 69999) * 1000;
      guint8 status = (i % 3 == 0) ? TACH_STATUS_HAS_GIL : (i % 3 == 1) ? TACH_STATUS_ON_CPU : 0;

      if (tach_writer_add_sample (writer, 1 + i % 2, 0, ts, status, &frame, 1, &tach_error)
          != TACH_OK)
        g_error ("sample: %s", tach_error.message);
    }
  if (tach_writer_finish (writer, &tach_error) != TACH_OK)
    g_error ("finish: %s", tach_error.message);
  data = fixture_load (tmp.path);
  check_timeline (data, rand);
  format_test_dir_clear (&tmp);
}

static void
test_empty (void)
{
  g_autoptr(TvProfileData) data = fixture_load_corpus ("empty.tach");
  g_autoptr(TvTimeline) timeline = tv_timeline_new (data, NULL);
  g_autoptr(TvTimelineHeatmap) heatmap = tv_timeline_heatmap_new (timeline, NULL, 0, 0, 0, 20000,
                                                                  NULL);
  g_autoptr(TvTimelineRenderer) renderer = tv_timeline_renderer_new (NULL);
  g_autoptr(cairo_surface_t) surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 300, 200);
  g_autoptr(cairo_t) cr = cairo_create (surface);
  TvTimelineColumn columns[10];
  TvTimelineStyle style;
  TvTimelineHit hit;
  guint n_ranges = 99;

  g_assert_nonnull (timeline);
  g_assert_cmpuint (tv_timeline_get_n_lanes (timeline), ==, 0);
  g_assert_false (tv_timeline_get_span (timeline, NULL, NULL));
  g_assert_cmpuint (tv_timeline_get_duration (timeline), ==, 0);
  g_assert_true (tv_timeline_get_bins (timeline, TV_TIMELINE_ALL, 0, 100, 10, columns));
  for (guint c = 0; c < 10; c++)
    g_assert_cmpuint (columns[c].samples, ==, 0);
  g_assert_cmpuint (tv_timeline_count_range (timeline, TV_TIMELINE_ALL, 0, G_MAXUINT64, NULL), ==,
                    0);
  g_assert_cmpuint (tv_timeline_heatmap_get_n_columns (heatmap), ==, 0);
  g_assert_null (tv_timeline_heatmap_select (heatmap, 0, 0, 3, 3, &n_ranges));
  g_assert_cmpuint (n_ranges, ==, 0);

  /* Bad windows are refused, and say so. */
  g_assert_false (tv_timeline_get_bins (timeline, TV_TIMELINE_ALL, 100, 100, 10, columns));
  g_assert_false (tv_timeline_get_bins (timeline, TV_TIMELINE_ALL, 0, NAN, 10, columns));

  tv_timeline_style_init (&style, timeline, 300, 200);
  style.draw_background = TRUE;
  tv_timeline_renderer_draw (renderer, cr, timeline, &style);
  g_assert_cmpint (cairo_status (cr), ==, CAIRO_STATUS_SUCCESS);
  g_assert_true (tv_timeline_renderer_hit_test (renderer, timeline, &style, 150, 5, &hit));
  g_assert_cmpint (hit.kind, ==, TV_TIMELINE_HIT_AXIS);
  g_assert_false (tv_timeline_renderer_hit_test (renderer, timeline, &style, -1, 5, &hit));
  g_assert_cmpint (hit.kind, ==, TV_TIMELINE_HIT_NONE);
}

static void
test_cancel (void)
{
  g_autoptr(TvProfileData) data = fixture_load_corpus ("rec_threads.tach");
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(TvTimeline) timeline = tv_timeline_new (data, NULL);

  g_cancellable_cancel (cancellable);
  g_assert_null (tv_timeline_new (data, cancellable));
  g_assert_null (tv_timeline_heatmap_new (timeline, NULL, 0, 0, 0, 20000, cancellable));
}

/* The legend's states split every status (exception aside), and the
 * filters the legend gives select exactly each state's samples. */
static void
test_states (void)
{
  for (guint status = 0; status < 64; status++)
    {
      guint64 counts[N_COUNTS] = { 0 };
      TvTimelineColumn column;
      guint64 sum = 0;

      brute_add (counts, status);
      column.samples = counts[0];
      for (guint k = 0; k < TV_TIMELINE_N_COUNTS; k++)
        column.counts[k] = counts[k + 1];
      for (guint s = 0; s < TV_TIMELINE_N_STATES; s++)
        {
          guint64 n = tv_timeline_column_get_state (&column, s);
          guint8 mask, value;

          tv_timeline_state_get_filter (s, &mask, &value);
          g_assert_cmpuint (n, ==, (status & mask) == value ? 1 : 0);
          if (s != TV_TIMELINE_STATE_EXCEPTION)
            sum += n;
        }
      g_assert_cmpuint (sum, ==, 1);
    }
}

static void
test_filter (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (base_seed);
  g_autoptr(TvProfileData) data = random_data (rand, 10);
  g_autoptr(TvTimeline) timeline = tv_timeline_new (data, NULL);
  guint n_main = 0;

  for (guint i = 0; i < tv_timeline_get_n_lanes (timeline); i++)
    {
      const TvTimelineLane *lane = tv_timeline_get_lane (timeline, i);
      g_autofree char *id = g_strdup_printf ("%" G_GUINT64_FORMAT, lane->thread_id);
      g_autofree char *hex = g_strdup_printf ("0X%" G_GINT64_MODIFIER "X", lane->thread_id);

      g_assert_true (tv_timeline_lane_matches (timeline, i, NULL, NULL));
      g_assert_true (tv_timeline_lane_matches (timeline, i, "  ", NULL));
      g_assert_true (tv_timeline_lane_matches (timeline, i, id, NULL));
      g_assert_true (tv_timeline_lane_matches (timeline, i, id + 1, NULL));
      g_assert_true (tv_timeline_lane_matches (timeline, i, hex, NULL));
      g_assert_false (tv_timeline_lane_matches (timeline, i, "zzz", "main"));
      g_assert_true (tv_timeline_lane_matches (timeline, i, " MaI ", "main") == lane->main_thread);
      g_assert_false (tv_timeline_lane_matches (timeline, i, "main", NULL));
      n_main += lane->main_thread;
    }
  g_assert_cmpuint (n_main, >=, 1);

  /* Every lane at once, as lane by lane. */
  {
    const char *texts[] = { NULL, "", " ", "1", "0x", "a", "MAIN", "ai", "\nma", "zzz" };
    guint n = tv_timeline_get_n_lanes (timeline);
    g_autofree guint8 *matches = g_new (guint8, n);

    for (guint k = 0; k < G_N_ELEMENTS (texts); k++)
      {
        guint n_matched = 0;

        memset (matches, 7, n);
        for (guint i = 0; i < n; i++)
          n_matched += tv_timeline_lane_matches (timeline, i, texts[k], "Main");
        g_assert_cmpuint (tv_timeline_match_lanes (timeline, texts[k], "Main", matches), ==,
                          n_matched);
        for (guint i = 0; i < n; i++)
          g_assert_cmpuint (matches[i], ==, tv_timeline_lane_matches (timeline, i, texts[k],
                                                                      "Main"));
      }
  }
}

/* ------------------------------------------------------------------------ */
/* Renderer                                                                  */
/* ------------------------------------------------------------------------ */

static guint32
packed (TvTimelineColor c)
{
  guint32 r = (guint32) CLAMP (round (c.red * 255), 0, 255);
  guint32 g = (guint32) CLAMP (round (c.green * 255), 0, 255);
  guint32 b = (guint32) CLAMP (round (c.blue * 255), 0, 255);

  return 0xff000000u | r << 16 | g << 8 | b;
}

static cairo_surface_t *
render (TvTimelineRenderer    *renderer,
        TvTimeline            *timeline,
        const TvTimelineStyle *style)
{
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32,
                                                         (int) ceil (style->width),
                                                         (int) ceil (style->height));
  g_autoptr(cairo_t) cr = cairo_create (surface);

  tv_timeline_renderer_draw (renderer, cr, timeline, style);
  g_assert_cmpint (cairo_status (cr), ==, CAIRO_STATUS_SUCCESS);
  cairo_surface_flush (surface);
  return surface;
}

static guint32
pixel_at (cairo_surface_t *surface,
          int              x,
          int              y)
{
  const guchar *data = cairo_image_surface_get_data (surface);
  int stride = cairo_image_surface_get_stride (surface);

  g_assert_true (x >= 0 && x < cairo_image_surface_get_width (surface));
  g_assert_true (y >= 0 && y < cairo_image_surface_get_height (surface));
  return *(const guint32 *) (data + (gsize) y * stride + (gsize) x * 4);
}

static void
init_style (TvTimelineStyle *style,
            TvTimeline      *timeline,
            double           width,
            double           height,
            gboolean         dark)
{
  tv_timeline_style_init (style, timeline, width, height);
  style->dark = dark;
  style->draw_background = TRUE;
  style->main_label = "main";
  style->overview_label = "All threads";
  style->interpreter_format = "Interpreter %u";
  for (guint s = 0; s < TV_TIMELINE_N_STATES; s++)
    style->state_labels[s] = state_labels[s];
}

/* Whether x is one of the columns the grid's lines are drawn in. */
static gboolean
on_grid (TvTimelineRenderer    *renderer,
         TvTimeline            *timeline,
         const TvTimelineStyle *style,
         int                    x)
{
  g_autofree double *times = NULL;
  g_auto(GStrv) labels = NULL;
  guint n = tv_timeline_renderer_get_ticks (renderer, timeline, style, &times, &labels);

  for (guint i = 0; i < n; i++)
    if ((int) floor (tv_timeline_renderer_time_to_x (renderer, timeline, style, times[i])) == x)
      return TRUE;
  return FALSE;
}

/* Which state colour a pixel is, or -1. */
static int
state_of_pixel (guint32  pixel,
                gboolean dark)
{
  for (guint s = 0; s < TV_TIMELINE_N_STATES; s++)
    if (pixel == packed (tv_timeline_state_color (s, dark)))
      return s;
  return -1;
}

/* Lanes are where hit testing says, in the colours of their states. */
/* Whether some pixel column of LANE's band (from X, W wide) that holds
 * samples is not under a grid line. */
static gboolean
lane_has_clear_column (TvTimeline            *timeline,
                       guint                  lane,
                       const TvTimelineStyle *style,
                       double                 x,
                       double                 w,
                       const guint8          *grid)
{
  guint n_columns = (guint) w;
  g_autofree TvTimelineColumn *columns = g_new0 (TvTimelineColumn, MAX (n_columns, 1));

  if (n_columns == 0
      || !tv_timeline_get_bins (timeline, lane, style->t0, style->t1, n_columns, columns))
    return TRUE;
  for (guint c = 0; c < n_columns; c++)
    if (columns[c].samples > 0 && !grid[(int) x + c])
      return TRUE;
  return FALSE;
}

static void
check_lanes_drawn (TvTimelineRenderer    *renderer,
                   TvTimeline            *timeline,
                   const TvTimelineStyle *style)
{
  g_autoptr(cairo_surface_t) surface = render (renderer, timeline, style);
  guint n;
  const guint32 *order = tv_timeline_get_order (timeline, &n);
  double lanes_y, lanes_height, plot_x, plot_width;
  guint drawn = 0;
  g_autofree guint8 *grid = NULL;

  tv_timeline_renderer_get_lanes_area (renderer, timeline, style, &lanes_y, &lanes_height, NULL);
  tv_timeline_renderer_get_plot_area (renderer, timeline, style, &plot_x, &plot_width);
  grid = g_new0 (guint8, (gsize) style->width + 1);
  for (int x = 0; x < (int) style->width; x++)
    grid[x] = on_grid (renderer, timeline, style, x);

  for (guint p = 0; p < n; p++)
    {
      guint lane = order[p];
      const TvTimelineLane *info = tv_timeline_get_lane (timeline, lane);
      guint8 flags = style->lane_flags != NULL ? style->lane_flags[lane] : 0;
      double x, y, w, h;
      TvTimelineHit hit;
      guint seen[TV_TIMELINE_N_STATES] = { 0 };
      TvTimelineColumn states;
      int bottom;

      if (!tv_timeline_renderer_get_lane_rect (renderer, timeline, style, lane, &x, &y, &w, &h))
        {
          g_assert_true (flags & TV_TIMELINE_LANE_HIDDEN);
          continue;
        }
      g_assert_false (flags & TV_TIMELINE_LANE_HIDDEN);
      g_assert_cmpfloat (x, ==, plot_x);
      g_assert_cmpfloat (w, ==, plot_width);
      g_assert_cmpfloat (h, >, 0);
      if (y < lanes_y || y + h > lanes_y + lanes_height)
        continue;

      /* Hit testing finds the lane over its band and over its label. */
      g_assert_true (tv_timeline_renderer_hit_test (renderer, timeline, style, x + w / 2,
                                                    y + h / 2, &hit));
      g_assert_cmpint (hit.kind, ==, TV_TIMELINE_HIT_LANE);
      g_assert_cmpuint (hit.lane, ==, lane);
      g_assert_cmpuint (hit.interpreter, ==, info->interpreter_id);
      g_assert_false (hit.in_labels);
      g_assert_cmpfloat (fabs (hit.time - (style->t0 + style->t1) / 2), <,
                         (style->t1 - style->t0) / 1000);
      g_assert_true (tv_timeline_renderer_hit_test (renderer, timeline, style, 2, y, &hit));
      g_assert_cmpint (hit.kind, ==, TV_TIMELINE_HIT_LANE);
      g_assert_cmpuint (hit.lane, ==, lane);
      g_assert_true (hit.in_labels);
      g_assert_true (isnan (hit.time));

      /* The band's bottom row: each pixel is the lane's track or the
       * colour of a state the lane has samples in. */
      tv_timeline_count_range (timeline, lane, 0, G_MAXUINT64, &states);
      bottom = (int) round (y + h) - 1;
      for (int px = (int) x; px < (int) (x + w); px++)
        {
          guint32 pixel = pixel_at (surface, px, bottom);
          int s = state_of_pixel (pixel, style->dark);

          if (grid[px])
            continue;
          if (s >= 0)
            seen[s]++;
          else if (!(flags & TV_TIMELINE_LANE_COLLAPSED))
            {
              TvTimelineColor track = style->dark ? (TvTimelineColor) { 0.155, 0.155, 0.155 }
                                                  : (TvTimelineColor) { 0.955, 0.955, 0.955 };

              if (pixel != packed (track))
                g_error ("lane %u, pixel %d,%d is %08x: neither its track nor a state", lane,
                         px, bottom, pixel);
            }
        }
      for (guint s = 0; s < TV_TIMELINE_N_STATES; s++)
        if (seen[s] > 0)
          g_assert_cmpuint (tv_timeline_column_get_state (&states, s), >, 0);
      /* A lane shows a colour in its bottom row unless every column with
       * its samples is under a grid line (one sample can be). */
      if (info->n_samples > 0 && !(flags & TV_TIMELINE_LANE_COLLAPSED)
          && lane_has_clear_column (timeline, lane, style, x, w, grid))
        g_assert_cmpuint (seen[0] + seen[1] + seen[2] + seen[4] + seen[5], >, 0);
      drawn++;
    }
  g_assert_cmpuint (drawn, >, 0);
}

static void
test_render_lanes (void)
{
  g_autoptr(TvProfileData) data = fixture_load_corpus ("rec_threads.tach");
  g_autoptr(TvTimeline) timeline = tv_timeline_new (data, NULL);
  g_autoptr(TvTimelineRenderer) renderer = tv_timeline_renderer_new (NULL);
  guint n;
  const guint32 *order = tv_timeline_get_order (timeline, &n);
  g_autofree guint8 *flags = g_new0 (guint8, n);
  TvTimelineStyle style;
  TvTimelineHit hit;
  double x, y, w, h, y1, y2, overview_y;

  g_assert_cmpuint (n, ==, 8);
  /* The main thread comes first. */
  g_assert_true (tv_timeline_get_lane (timeline, order[0])->main_thread);

  for (guint dark = 0; dark < 2; dark++)
    {
      init_style (&style, timeline, 1200, 400, dark);
      check_lanes_drawn (renderer, timeline, &style);
    }

  /* The axis, the overview and the legend. */
  init_style (&style, timeline, 1200, 400, FALSE);
  tv_timeline_renderer_get_overview_rect (renderer, timeline, &style, &x, &overview_y, &w, &h);
  g_assert_true (tv_timeline_renderer_hit_test (renderer, timeline, &style, x + 5, 3, &hit));
  g_assert_cmpint (hit.kind, ==, TV_TIMELINE_HIT_AXIS);
  g_assert_true (tv_timeline_renderer_hit_test (renderer, timeline, &style, x + w / 2,
                                                overview_y + h / 2, &hit));
  g_assert_cmpint (hit.kind, ==, TV_TIMELINE_HIT_OVERVIEW);
  for (guint s = 0; s < TV_TIMELINE_N_STATES; s++)
    {
      tv_timeline_renderer_get_legend_rect (renderer, timeline, &style, s, &x, &y, &w, &h);
      g_assert_cmpfloat (y, >, overview_y);
      g_assert_true (tv_timeline_renderer_hit_test (renderer, timeline, &style, x + w / 2,
                                                    y + h / 2, &hit));
      g_assert_cmpint (hit.kind, ==, TV_TIMELINE_HIT_LEGEND);
      g_assert_cmpint (hit.state, ==, s);
    }
  g_assert_false (tv_timeline_renderer_hit_test (renderer, timeline, &style, 1190, 398, &hit));

  /* x and time go back and forth. */
  for (double t = 0; t < style.t1; t += style.t1 / 7)
    {
      double px = tv_timeline_renderer_time_to_x (renderer, timeline, &style, t);

      g_assert_cmpfloat (fabs (tv_timeline_renderer_x_to_time (renderer, timeline, &style, px)
                               - t), <, 1e-6 * style.t1);
    }

  /* A hidden lane takes no row: the next one moves up to its place. */
  tv_timeline_renderer_get_lane_rect (renderer, timeline, &style, order[1], NULL, &y1, NULL,
                                      NULL);
  flags[order[1]] = TV_TIMELINE_LANE_HIDDEN;
  style.lane_flags = flags;
  g_assert_false (tv_timeline_renderer_get_lane_rect (renderer, timeline, &style, order[1], NULL,
                                                      NULL, NULL, NULL));
  g_assert_true (tv_timeline_renderer_get_lane_rect (renderer, timeline, &style, order[2], NULL,
                                                     &y2, NULL, NULL));
  g_assert_cmpfloat (y2, ==, y1);

  /* Collapsed lanes are thin; selected ones are marked in the labels. */
  flags[order[3]] = TV_TIMELINE_LANE_COLLAPSED;
  flags[order[4]] = TV_TIMELINE_LANE_COLLAPSED | TV_TIMELINE_LANE_SELECTED;
  flags[order[0]] = TV_TIMELINE_LANE_SELECTED;
  g_assert_true (tv_timeline_renderer_get_lane_rect (renderer, timeline, &style, order[3], NULL,
                                                     &y, NULL, &h));
  g_assert_cmpfloat (h, ==, 3);
  g_assert_true (tv_timeline_renderer_hit_test (renderer, timeline, &style, 600, y + 1, &hit));
  g_assert_cmpint (hit.kind, ==, TV_TIMELINE_HIT_LANE);
  g_assert_cmpuint (hit.lane, ==, order[3]);
  check_lanes_drawn (renderer, timeline, &style);
  {
    g_autoptr(cairo_surface_t) surface = render (renderer, timeline, &style);

    tv_timeline_renderer_get_lane_rect (renderer, timeline, &style, order[0], NULL, &y, NULL,
                                        &h);
    g_assert_cmphex (pixel_at (surface, 1, (int) (y + h / 2)), ==,
                     packed ((TvTimelineColor) { 0x1c / 255.0, 0x71 / 255.0, 0xd8 / 255.0 }));
    tv_timeline_renderer_get_lane_rect (renderer, timeline, &style, order[2], NULL, &y, NULL,
                                        &h);
    g_assert_cmphex (pixel_at (surface, 1, (int) (y + h / 2)), ==, 0xffffffff);
  }

  /* Scrolling moves the lanes, not the overview. */
  style.lane_flags = NULL;
  tv_timeline_renderer_get_lane_rect (renderer, timeline, &style, order[5], NULL, &y1, NULL, NULL);
  style.scroll_y = 25;
  tv_timeline_renderer_get_lane_rect (renderer, timeline, &style, order[5], NULL, &y2, NULL, NULL);
  g_assert_cmpfloat (y2, ==, y1 - 25);
  tv_timeline_renderer_get_overview_rect (renderer, timeline, &style, NULL, &y, NULL, NULL);
  g_assert_cmpfloat (y, ==, overview_y);
  check_lanes_drawn (renderer, timeline, &style);
}

/* On a screen of twice the density (a surface with a device scale, as
 * GTK gives), the bands are drawn at the device's pixels: the bottom
 * device row of every lane holds its states or its track. */
static void
test_render_scaled (void)
{
  g_autoptr(TvProfileData) data = fixture_load_corpus ("rec_threads.tach");
  g_autoptr(TvTimeline) timeline = tv_timeline_new (data, NULL);
  g_autoptr(TvTimelineRenderer) renderer = tv_timeline_renderer_new (NULL);
  g_autoptr(cairo_surface_t) surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 1600, 700);
  g_autoptr(cairo_t) cr = NULL;
  TvTimelineStyle style;
  guint n;
  const guint32 *order = tv_timeline_get_order (timeline, &n);
  guint states = 0;

  cairo_surface_set_device_scale (surface, 2, 2);
  cr = cairo_create (surface);
  init_style (&style, timeline, 800, 350, FALSE);
  tv_timeline_renderer_draw (renderer, cr, timeline, &style);
  g_assert_cmpint (cairo_status (cr), ==, CAIRO_STATUS_SUCCESS);
  cairo_surface_flush (surface);

  for (guint p = 0; p < n; p++)
    {
      double x, y, w, h;
      int bottom;

      g_assert_true (tv_timeline_renderer_get_lane_rect (renderer, timeline, &style, order[p], &x,
                                                         &y, &w, &h));
      bottom = (int) round ((y + h) * 2) - 1;
      for (int px = (int) (x * 2); px < (int) ((x + w) * 2); px++)
        {
          guint32 pixel = pixel_at (surface, px, bottom);

          if (on_grid (renderer, timeline, &style, px / 2))
            continue;
          if (state_of_pixel (pixel, FALSE) >= 0)
            states++;
          else if (pixel != packed ((TvTimelineColor) { 0.955, 0.955, 0.955 }))
            g_error ("lane %u, device pixel %d,%d is %08x", order[p], px, bottom, pixel);
        }
      /* The row above the band's top is the gap: background. */
      g_assert_cmphex (pixel_at (surface, (int) (x * 2) + 7, (int) round ((y + h) * 2)), ==,
                       0xffffffff);
    }
  g_assert_cmpuint (states, >, 1000);
}

/* A timeline is read from many threads at once. */
typedef struct
{
  TvTimeline *timeline;
  guint64     checksum;
} ReadJob;

static guint64
read_everything (TvTimeline *timeline)
{
  TvTimelineColumn columns[300];
  guint64 sum = 0;
  double duration = (double) tv_timeline_get_duration (timeline);

  for (guint k = 1; k < 40; k++)
    for (guint lane = 0; lane <= tv_timeline_get_n_lanes (timeline); lane++)
      {
        guint l = lane < tv_timeline_get_n_lanes (timeline) ? lane : TV_TIMELINE_ALL;

        tv_timeline_get_bins (timeline, l, duration / k / 3, duration / k, 300, columns);
        for (guint c = 0; c < 300; c++)
          sum = sum * 31 + columns[c].samples + columns[c].counts[TV_TIMELINE_COUNT_HAS_GIL];
        sum += tv_timeline_count_range (timeline, l, tv_timeline_get_origin (timeline) + k * 997,
                                        tv_timeline_get_origin (timeline) + k * 99991, NULL);
      }
  return sum;
}

static gpointer
read_thread (gpointer user_data)
{
  ReadJob *job = user_data;

  job->checksum = read_everything (job->timeline);
  return NULL;
}

static void
test_threads (void)
{
  g_autoptr(TvProfileData) data = fixture_load_corpus ("rec_threads.tach");
  g_autoptr(TvTimeline) timeline = tv_timeline_new (data, NULL);
  guint64 expected = read_everything (timeline);
  ReadJob jobs[4];
  GThread *threads[4];

  for (guint i = 0; i < 4; i++)
    {
      jobs[i].timeline = timeline;
      threads[i] = g_thread_new ("reader", read_thread, &jobs[i]);
    }
  for (guint i = 0; i < 4; i++)
    {
      g_thread_join (threads[i]);
      g_assert_cmpuint (jobs[i].checksum, ==, expected);
    }
}

/* The selection tints its range of the axis, overview and lanes, and
 * nothing else. */
static void
test_render_selection (void)
{
  g_autoptr(TvProfileData) data = fixture_load_corpus ("rec_threads.tach");
  g_autoptr(TvTimeline) timeline = tv_timeline_new (data, NULL);
  g_autoptr(TvTimelineRenderer) renderer = tv_timeline_renderer_new (NULL);
  g_autoptr(cairo_surface_t) plain = NULL;
  g_autoptr(cairo_surface_t) selected = NULL;
  TvTimelineStyle style;
  double a, b, lanes_y, lanes_height;
  guint inside = 0;

  init_style (&style, timeline, 1000, 360, FALSE);
  plain = render (renderer, timeline, &style);
  style.has_selection = TRUE;
  style.selection_start = style.t1 * 0.6;
  style.selection_end = style.t1 * 0.3;     /* either way round */
  selected = render (renderer, timeline, &style);
  a = tv_timeline_renderer_time_to_x (renderer, timeline, &style, style.t1 * 0.3);
  b = tv_timeline_renderer_time_to_x (renderer, timeline, &style, style.t1 * 0.6);
  tv_timeline_renderer_get_lanes_area (renderer, timeline, &style, &lanes_y, &lanes_height, NULL);

  for (int y = 0; y < 360; y++)
    for (int x = 0; x < 1000; x++)
      {
        gboolean changed = pixel_at (plain, x, y) != pixel_at (selected, x, y);

        if (changed)
          {
            g_assert_cmpfloat (x, >=, floor (a) - 1);
            g_assert_cmpfloat (x, <=, ceil (b) + 1);
            g_assert_cmpfloat (y, <, lanes_y + lanes_height);
          }
        if (x > a + 2 && x < b - 2 && y < lanes_y + lanes_height)
          inside += changed;
      }
  g_assert_cmpuint (inside, >, (guint) ((b - a - 4) * (lanes_y + lanes_height) * 0.9));
}

/* Whether DIMMED is PLAIN dimmed by the ranges: 60 % of the way to the
 * background, to a rounding. */
static gboolean
is_dimmed (guint32  plain,
           guint32  dimmed,
           gboolean dark)
{
  guint32 background = packed (tv_timeline_background_color (dark));

  for (guint shift = 0; shift < 24; shift += 8)
    {
      double expected = 0.4 * ((plain >> shift) & 0xff) + 0.6 * ((background >> shift) & 0xff);

      if (fabs (((dimmed >> shift) & 0xff) - expected) > 1.5)
        return FALSE;
    }
  return TRUE;
}

/* Heatmap cells over the lanes: each range is tinted as a selected range
 * is, marked along the axis, the time between them dimmed in the overview
 * and the lanes, and nothing else changes.  A range far narrower than a
 * pixel still takes one; ranges out of the window take none. */
static void
test_render_ranges (void)
{
  g_autoptr(TvProfileData) data = fixture_load_corpus ("rec_threads.tach");
  g_autoptr(TvTimeline) timeline = tv_timeline_new (data, NULL);
  g_autoptr(TvTimelineHeatmap) heatmap = tv_timeline_heatmap_new (timeline, NULL, 0, 0, 0, 20000,
                                                                  NULL);
  g_autoptr(TvTimelineRenderer) renderer = tv_timeline_renderer_new (NULL);
  guint64 origin = tv_timeline_get_origin (timeline);
  g_autofree TvTimeRange *cells = NULL;
  TvTimeRange ranges[3];
  guint n_cells;

  /* Rows 10 to 29 of both seconds, and a microsecond between them. */
  cells = tv_timeline_heatmap_select (heatmap, 0, 10, 1, 29, &n_cells);
  g_assert_cmpuint (n_cells, ==, 2);
  ranges[0] = cells[0];
  ranges[1] = (TvTimeRange) { origin + 900000, origin + 900001 };
  ranges[2] = cells[1];

  for (guint dark = 0; dark < 2; dark++)
    {
      const char *name = dark ? "timeline-cells-dark.png" : "timeline-cells-light.png";
      g_autofree char *path = g_test_build_filename (G_TEST_BUILT, name, NULL);
      g_autoptr(cairo_surface_t) plain = NULL;
      g_autoptr(cairo_surface_t) selected = NULL;
      TvTimelineStyle style;
      double plot_x, plot_width, overview_y, lanes_y, lanes_height, bottom;
      guint n_shown = 0;
      int tiny;

      init_style (&style, timeline, 1000, 360, dark);
      plain = render (renderer, timeline, &style);
      style.ranges = ranges;
      style.n_ranges = G_N_ELEMENTS (ranges);
      selected = render (renderer, timeline, &style);
      g_assert_cmpint (cairo_surface_write_to_png (selected, path), ==, CAIRO_STATUS_SUCCESS);
      g_test_message ("cells over the lanes: %s", path);
      tv_timeline_renderer_get_plot_area (renderer, timeline, &style, &plot_x, &plot_width);
      tv_timeline_renderer_get_overview_rect (renderer, timeline, &style, NULL, &overview_y, NULL,
                                              NULL);
      tv_timeline_renderer_get_lanes_area (renderer, timeline, &style, &lanes_y, &lanes_height,
                                           NULL);
      bottom = lanes_y + lanes_height;
      tiny = (int) floor (tv_timeline_renderer_time_to_x (renderer, timeline, &style, 900000));

      /* Each cell range: tinted as the same range selected, but for its
       * edges and the mark along the axis. */
      for (guint i = 0; i < 3; i += 2)
        {
          g_autoptr(cairo_surface_t) one = NULL;
          double a = tv_timeline_renderer_time_to_x (renderer, timeline, &style,
                                                     (double) (ranges[i].start - origin));
          double b = MIN (tv_timeline_renderer_time_to_x (renderer, timeline, &style,
                                                          (double) (ranges[i].end - origin)),
                          plot_x + plot_width);
          TvTimelineStyle single = style;

          single.ranges = NULL;
          single.n_ranges = 0;
          single.has_selection = TRUE;
          single.selection_start = (double) (ranges[i].start - origin);
          single.selection_end = (double) (ranges[i].end - origin);
          one = render (renderer, timeline, &single);
          for (int x = (int) ceil (a) + 2; x < (int) floor (b) - 2; x++)
            for (int y = 0; y < style.height; y++)
              {
                if (y >= overview_y - 3 && y < overview_y)
                  g_assert_cmphex (pixel_at (selected, x, y), !=, pixel_at (plain, x, y));
                else
                  g_assert_cmphex (pixel_at (selected, x, y), ==, pixel_at (one, x, y));
              }
        }

      /* Everything else: dimmed in the overview and the lanes, as it was
       * elsewhere. */
      for (int x = 0; x < style.width; x++)
        {
          gboolean outside = x < plot_x || x == tiny;

          if (x >= plot_x && x != tiny)
            {
              outside = TRUE;
              for (guint i = 0; i < 3; i += 2)
                {
                  double a = tv_timeline_renderer_time_to_x (renderer, timeline, &style,
                                                             (double) (ranges[i].start - origin));
                  double b = tv_timeline_renderer_time_to_x (renderer, timeline, &style,
                                                             (double) (ranges[i].end - origin));

                  outside &= x + 1 < a - 1 || x > b + 1;
                }
            }
          if (!outside || x == tiny)
            continue;
          for (int y = 0; y < style.height; y++)
            {
              guint32 before = pixel_at (plain, x, y), after = pixel_at (selected, x, y);

              if (x >= plot_x && y >= overview_y && y < bottom)
                g_assert_true (is_dimmed (before, after, dark));
              else
                g_assert_cmphex (after, ==, before);
            }
        }
      /* The microsecond: one column, marked and not dimmed. */
      g_assert_cmphex (pixel_at (selected, tiny, (int) overview_y - 2), !=,
                       pixel_at (plain, tiny, (int) overview_y - 2));
      g_assert_false (is_dimmed (pixel_at (plain, tiny, (int) lanes_y + 8),
                                 pixel_at (selected, tiny, (int) lanes_y + 8), dark));

      /* A window between the cells shows the microsecond alone. */
      style.t0 = 700000;
      style.t1 = 1000000;
      g_clear_pointer (&plain, cairo_surface_destroy);
      g_clear_pointer (&selected, cairo_surface_destroy);
      selected = render (renderer, timeline, &style);
      style.n_ranges = 0;
      plain = render (renderer, timeline, &style);
      for (int x = (int) plot_x; x < plot_x + plot_width; x++)
        n_shown += !is_dimmed (pixel_at (plain, x, (int) lanes_y + 8),
                               pixel_at (selected, x, (int) lanes_y + 8), dark);
      g_assert_cmpuint (n_shown, ==, 1);
    }
}

/* Tick steps of 100 ms and more are labelled in seconds, from 100 µs in
 * milliseconds, below in microseconds; every label says its tick's time. */
static void
test_render_axis (void)
{
  g_autoptr(TvProfileData) data = fixture_load_corpus ("rec_threads.tach");
  g_autoptr(TvTimeline) timeline = tv_timeline_new (data, NULL);
  g_autoptr(TvTimelineRenderer) renderer = tv_timeline_renderer_new (NULL);
  TvTimelineStyle style;
  guint units[3] = { 0 };
  double plot_x, plot_width;

  init_style (&style, timeline, 1000, 300, FALSE);
  tv_timeline_renderer_get_plot_area (renderer, timeline, &style, &plot_x, &plot_width);
  for (double span = 200e6; span > 10; span /= 1.7)
    {
      g_autofree double *times = NULL;
      g_auto(GStrv) labels = NULL;
      guint n;
      double step;
      const char *unit;
      double divisor;

      style.t0 = span < 1e6 ? 61234567 : 0;
      style.t1 = style.t0 + span;
      n = tv_timeline_renderer_get_ticks (renderer, timeline, &style, &times, &labels);
      g_assert_cmpuint (n, >=, 2);
      step = times[1] - times[0];
      if (step >= 100000)
        unit = " s", divisor = 1e6, units[0]++;
      else if (step >= 100)
        unit = " ms", divisor = 1e3, units[1]++;
      else
        unit = " \xc2\xb5s", divisor = 1, units[2]++;
      /* Far enough apart, not too far. */
      g_assert_cmpfloat (step / span * plot_width, >=, 80);
      g_assert_cmpfloat (step / span * plot_width, <, 80 * 2.5 + 200);
      for (guint i = 0; i < n; i++)
        {
          g_autoptr(GString) digits = g_string_new (NULL);
          double value;

          g_assert_true (g_str_has_suffix (labels[i], unit));
          g_assert_cmpfloat (times[i], >=, style.t0);
          g_assert_cmpfloat (times[i], <, style.t1);
          g_assert_cmpfloat (fmod (times[i], step), ==, 0);
          /* The number, without its grouping spaces. */
          for (const char *p = labels[i]; *p != ' '; p = g_utf8_next_char (p))
            if (g_ascii_isdigit (*p) || *p == '.')
              g_string_append_c (digits, *p);
          value = g_ascii_strtod (digits->str, NULL) * divisor;
          g_assert_cmpfloat (fabs (value - times[i]), <, step / 100);
        }
    }
  /* All three units were seen. */
  g_assert_cmpuint (units[0], >, 0);
  g_assert_cmpuint (units[1], >, 0);
  g_assert_cmpuint (units[2], >, 0);

  /* The whole profile in seconds, a tenth of a second in milliseconds,
   * half a millisecond in microseconds, grouped by three from 10000. */
  {
    g_autofree double *times = NULL;
    g_auto(GStrv) labels = NULL;

    init_style (&style, timeline, 1000, 300, FALSE);
    tv_timeline_renderer_get_ticks (renderer, timeline, &style, &times, &labels);
    g_assert_cmpstr (labels[0], ==, "0 s");
    g_assert_true (g_str_has_suffix (labels[1], " s"));
  }
  {
    g_autofree double *times = NULL;
    g_auto(GStrv) labels = NULL;

    style.t0 = 5000000;
    style.t1 = 5100000;
    tv_timeline_renderer_get_ticks (renderer, timeline, &style, &times, &labels);
    g_assert_cmpstr (labels[0], ==, "5000 ms");
  }
  {
    g_autofree double *times = NULL;
    g_auto(GStrv) labels = NULL;

    style.t0 = 12345;
    style.t1 = 12845;
    tv_timeline_renderer_get_ticks (renderer, timeline, &style, &times, &labels);
    g_assert_cmpstr (labels[0], ==, "12\xe2\x80\xaf" "350 \xc2\xb5s");
  }
}

static void
write_profile (const char *path,
               guint       n_threads,
               guint       n_ticks,
               guint8    (*status_of) (guint thread,
                                       guint tick))
{
  TachWriterOptions options = { 0 };
  TachWriter *writer = NULL;
  TachError error;
  guint32 frames[4];
  static const char *const names[] = { "running", "native", "waiting", "idle" };

  options.sample_interval_us = 1000;
  options.start_time_us = 1000000;
  options.mode_raw = 1;
  if (tach_writer_new (path, &options, &writer, &error) != TACH_OK)
    g_error ("writer: %s", error.message);
  for (guint f = 0; f < 4; f++)
    {
      TachFrameInfo info = { "/srv/app/states.py", names[f], (int) f + 1, -1, -1, -1,
                             TACH_OPCODE_NONE };

      if (tach_writer_intern_frame (writer, &info, &frames[f], &error) != TACH_OK)
        g_error ("intern: %s", error.message);
    }
  for (guint tick = 0; tick < n_ticks; tick++)
    for (guint t = 0; t < n_threads; t++)
      {
        guint8 status = status_of (t, tick);
        guint32 frame = frames[(status & TACH_STATUS_HAS_GIL) ? 0
                               : (status & TACH_STATUS_ON_CPU) ? 1
                               : (status & TACH_STATUS_GIL_REQUESTED) ? 2 : 3];

        if (tach_writer_add_sample (writer, 100 + t, 0, 1000000 + tick * 1000, status, &frame, 1,
                                    &error) != TACH_OK)
          g_error ("sample: %s", error.message);
      }
  if (tach_writer_finish (writer, &error) != TACH_OK)
    g_error ("finish: %s", error.message);
}

/* Thread 0 holds the GIL throughout; thread 1 waits for it for the first
 * half and is idle for the second; thread 2 runs native code. */
static guint8
hold_status (guint thread,
             guint tick)
{
  if (thread == 0)
    return TACH_STATUS_HAS_GIL | TACH_STATUS_ON_CPU | TACH_STATUS_MAIN_THREAD;
  if (thread == 1)
    return tick < 50 ? TACH_STATUS_GIL_REQUESTED : 0;
  return TACH_STATUS_ON_CPU;
}

/* Zoomed in far beyond one sample per column, each sample's state holds
 * until the next: the lanes are solid, and change where the state does. */
static void
test_render_hold (void)
{
  FormatTestDir tmp;
  g_autoptr(TvProfileData) data = NULL;
  g_autoptr(TvTimeline) timeline = NULL;
  g_autoptr(TvTimelineRenderer) renderer = tv_timeline_renderer_new (NULL);
  static const struct
  {
    double t0;
    double t1;
  } windows[] = { { 0, 100001 }, { 20000, 30000 }, { 45000, 55000 }, { 49990, 50010 } };
  TvTimelineStyle style;

  format_test_dir_init (&tmp, "tv-timeline-XXXXXX");
  write_profile (tmp.path, 3, 100, hold_status);
  data = fixture_load (tmp.path);
  timeline = tv_timeline_new (data, NULL);
  g_assert_cmpfloat (tv_timeline_get_interval (timeline), ==, 1000);

  for (guint i = 0; i < G_N_ELEMENTS (windows); i++)
    {
      g_autoptr(cairo_surface_t) surface = NULL;
      double plot_x, plot_width, switch_x;

      init_style (&style, timeline, 900, 300, i % 2);
      style.t0 = windows[i].t0;
      style.t1 = windows[i].t1;
      surface = render (renderer, timeline, &style);
      tv_timeline_renderer_get_plot_area (renderer, timeline, &style, &plot_x, &plot_width);
      switch_x = tv_timeline_renderer_time_to_x (renderer, timeline, &style, 50000);

      for (guint lane = 0; lane < 3; lane++)
        {
          double y, h;

          g_assert_true (tv_timeline_renderer_get_lane_rect (renderer, timeline, &style, lane,
                                                             NULL, &y, NULL, &h));
          /* The bottom row of the band, and the top one for busy states
           * (idle is lower). */
          for (int row = (int) y + (int) h - 1; row >= (int) y; row -= (int) h - 1)
            for (int x = (int) plot_x; x < (int) (plot_x + plot_width); x++)
              {
                int state = state_of_pixel (pixel_at (surface, x, row), style.dark);
                int expected;

                if (on_grid (renderer, timeline, &style, x))
                  continue;
                /* The last sample is at 99 ms; it holds for one interval. */
                if (tv_timeline_renderer_x_to_time (renderer, timeline, &style, x + 1) > 99000
                    + 1000)
                  continue;
                if (lane == 0)
                  expected = TV_TIMELINE_STATE_RUNNING;
                else if (lane == 2)
                  expected = TV_TIMELINE_STATE_NATIVE;
                else if (x < switch_x - 1)
                  expected = TV_TIMELINE_STATE_WAITING;
                else if (x > switch_x + 1 && row > y)
                  expected = TV_TIMELINE_STATE_IDLE;
                else
                  continue;
                if (state != expected)
                  g_error ("window %u, lane %u, pixel %d,%d: state %d, expected %d", i, lane, x,
                           row, state, expected);
              }
        }
    }
  format_test_dir_clear (&tmp);
}

/* The states are drawn in the flame graph's thread-state colours. */
static void
test_render_colors (void)
{
  FormatTestDir tmp;
  g_autoptr(TvProfileData) data = NULL;
  g_autoptr(TvCallTree) tree = NULL;
  g_autoptr(TvFlameLayout) layout = NULL;
  g_autoptr(TvFlameRenderer) flame = tv_flame_renderer_new (NULL);
  static const TvTimelineState states[] = {
    TV_TIMELINE_STATE_RUNNING, TV_TIMELINE_STATE_NATIVE, TV_TIMELINE_STATE_WAITING,
    TV_TIMELINE_STATE_IDLE,
  };
  TvFlameViewport vp;
  TvFlameStyle style;
  TvQuery query;
  const TvFlameBox *boxes;
  guint n_boxes, checked = 0;

  format_test_dir_init (&tmp, "tv-timeline-XXXXXX");
  write_profile (tmp.path, 4, 100, hold_status);
  data = fixture_load (tmp.path);
  tv_query_init (&query, TV_MERGE_FUNCTION);
  query.count_states = TRUE;
  tree = tv_call_tree_new (data, &query, NULL);
  tv_flame_viewport_init (&vp, tree, 800, 0);
  layout = tv_flame_layout_new (tree, &vp, NULL);
  boxes = tv_flame_layout_get_boxes (layout, &n_boxes);
  tv_flame_style_init (&style);
  style.scheme = TV_FLAME_COLORS_THREAD_STATE;

  for (guint dark = 0; dark < 2; dark++)
    for (guint i = 0; i < n_boxes; i++)
      {
        const char *name;
        TvFlameColor fill;
        TvTimelineColor c;
        guint f;

        if (boxes[i].node == TV_ROOT_NODE || (boxes[i].flags & TV_FLAME_BOX_MERGED))
          continue;
        name = tv_profile_data_get_funcname (data, tv_call_tree_get_frame (tree, boxes[i].node));
        for (f = 0; f < G_N_ELEMENTS (states); f++)
          if (strcmp (name, (const char *[]) { "running", "native", "waiting", "idle" }[f]) == 0)
            break;
        g_assert_cmpuint (f, <, G_N_ELEMENTS (states));
        style.dark = dark;
        fill = tv_flame_renderer_get_fill (flame, layout, &boxes[i], &style);
        c = tv_timeline_state_color (states[f], dark);
        g_assert_cmphex (packed ((TvTimelineColor) { fill.red, fill.green, fill.blue }), ==,
                         packed (c));
        checked++;
      }
  /* Running, native, waiting (thread 1's first half) and idle, twice. */
  g_assert_cmpuint (checked, ==, 8);
  format_test_dir_clear (&tmp);
}

/* Hundreds of threads, collapsed and scrolled. */
static void
test_render_many (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (base_seed);
  g_autoptr(TvProfileData) data = random_data (rand, 300);
  g_autoptr(TvTimeline) timeline = tv_timeline_new (data, NULL);
  g_autoptr(TvTimelineRenderer) renderer = tv_timeline_renderer_new (NULL);
  guint n = tv_timeline_get_n_lanes (timeline), n_order, n_interpreters;
  const guint32 *order = tv_timeline_get_order (timeline, &n_order);
  g_autofree guint8 *flags = g_new0 (guint8, n);
  g_autofree char *png = g_test_build_filename (G_TEST_BUILT, "timeline-many-light.png", NULL);
  g_autoptr(cairo_surface_t) surface = NULL;
  TvTimelineStyle style;
  double content, lanes_height;

  g_assert_cmpuint (n, >, 200);
  tv_timeline_get_interpreters (timeline, &n_interpreters);
  /* All collapsed but the first eight. */
  for (guint p = 8; p < n_order; p++)
    flags[order[p]] = TV_TIMELINE_LANE_COLLAPSED;
  init_style (&style, timeline, 1200, 700, FALSE);
  style.lane_flags = flags;
  tv_timeline_renderer_get_lanes_area (renderer, timeline, &style, NULL, &lanes_height, &content);
  /* Eight rows of 18, the rest of 4, and a header per interpreter. */
  g_assert_cmpfloat (content, >=, 8 * 18 + (n - 8) * 4);
  g_assert_cmpfloat (content, <=, 8 * 18 + (n - 8) * 4 + n_interpreters * 30);
  check_lanes_drawn (renderer, timeline, &style);
  surface = render (renderer, timeline, &style);
  g_assert_cmpint (cairo_surface_write_to_png (surface, png), ==, CAIRO_STATUS_SUCCESS);
  g_test_message ("wrote %s", png);

  /* Scrolled to the end, the last lane is at the bottom, and found. */
  style.scroll_y = content - lanes_height;
  check_lanes_drawn (renderer, timeline, &style);
  {
    double y, h, lanes_y;
    TvTimelineHit hit;

    tv_timeline_renderer_get_lanes_area (renderer, timeline, &style, &lanes_y, NULL, NULL);
    g_assert_true (tv_timeline_renderer_get_lane_rect (renderer, timeline, &style,
                                                       order[n_order - 1], NULL, &y, NULL, &h));
    g_assert_cmpfloat (fabs (y + h + 1 - (lanes_y + lanes_height)), <, 0.01);
    g_assert_true (tv_timeline_renderer_hit_test (renderer, timeline, &style, 600, y + 1, &hit));
    g_assert_cmpuint (hit.lane, ==, order[n_order - 1]);
  }

  /* Group headers, when there are several interpreters. */
  if (n_interpreters > 1)
    {
      TvTimelineHit hit;
      double lanes_y;

      style.scroll_y = 0;
      tv_timeline_renderer_get_lanes_area (renderer, timeline, &style, &lanes_y, NULL, NULL);
      g_assert_true (tv_timeline_renderer_hit_test (renderer, timeline, &style, 600, lanes_y + 2,
                                                    &hit));
      g_assert_cmpint (hit.kind, ==, TV_TIMELINE_HIT_GROUP);
      g_assert_cmpuint (hit.interpreter, ==, tv_timeline_get_interpreters (timeline, NULL)[0]);
    }
}

/* Whether two renderings are the same, pixel for pixel. */
static gboolean
same_surface (cairo_surface_t *a,
              cairo_surface_t *b)
{
  int height = cairo_image_surface_get_height (a);
  int stride = cairo_image_surface_get_stride (a);

  return cairo_image_surface_get_width (a) == cairo_image_surface_get_width (b)
         && height == cairo_image_surface_get_height (b)
         && stride == cairo_image_surface_get_stride (b)
         && memcmp (cairo_image_surface_get_data (a), cairo_image_surface_get_data (b),
                    (gsize) height * stride) == 0;
}

/* What a renderer that keeps its rows (a lanes_serial) draws and hits at
 * SCROLL is what one that lays them out at every call draws and hits. */
static void
check_same_as_fresh (TvTimelineRenderer    *kept,
                     TvTimeline            *timeline,
                     const TvTimelineStyle *style)
{
  g_autoptr(TvTimelineRenderer) fresh = tv_timeline_renderer_new (NULL);
  TvTimelineStyle fresh_style = *style;
  g_autoptr(cairo_surface_t) a = NULL;
  g_autoptr(cairo_surface_t) b = NULL;
  double content_a, content_b;

  fresh_style.lanes_serial = 0;
  a = render (kept, timeline, style);
  b = render (fresh, timeline, &fresh_style);
  g_assert_true (same_surface (a, b));
  tv_timeline_renderer_get_lanes_area (kept, timeline, style, NULL, NULL, &content_a);
  tv_timeline_renderer_get_lanes_area (fresh, timeline, &fresh_style, NULL, NULL, &content_b);
  g_assert_cmpfloat (content_a, ==, content_b);
  for (double y = 0; y < style->height; y += 3)
    {
      TvTimelineHit x, z;

      g_assert_cmpint (tv_timeline_renderer_hit_test (kept, timeline, style, 300, y, &x), ==,
                       tv_timeline_renderer_hit_test (fresh, timeline, &fresh_style, 300, y, &z));
      g_assert_cmpint (x.kind, ==, z.kind);
      g_assert_cmpuint (x.lane, ==, z.lane);
    }
  for (guint lane = 0; lane < tv_timeline_get_n_lanes (timeline); lane += 37)
    {
      double ya = 0, yb = 0;

      g_assert_cmpint (tv_timeline_renderer_get_lane_rect (kept, timeline, style, lane, NULL,
                                                           &ya, NULL, NULL), ==,
                       tv_timeline_renderer_get_lane_rect (fresh, timeline, &fresh_style, lane,
                                                           NULL, &yb, NULL, NULL));
      g_assert_cmpfloat (ya, ==, yb);
    }
}

/* The rows of a hundred thousand lanes cost a pass over them all: a
 * renderer given a lanes_serial lays them out once for every frame, hit
 * test and scroll until the serial or a height changes (the timeline did
 * it at every one of them, and every pointer motion), and what it draws
 * and hits is what a layout at every call gives. */
static void
test_render_lanes_serial (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (base_seed);
  g_autoptr(TvProfileData) data = random_data (rand, 300);
  g_autoptr(TvTimeline) timeline = tv_timeline_new (data, NULL);
  g_autoptr(TvTimelineRenderer) renderer = tv_timeline_renderer_new (NULL);
  guint n = tv_timeline_get_n_lanes (timeline);
  g_autofree guint8 *flags = g_new0 (guint8, n);
  TvTimelineStyle style;
  double content, lanes_height;

  for (guint i = 0; i < n; i++)
    flags[i] = g_rand_int_range (rand, 0, 10) == 0 ? TV_TIMELINE_LANE_HIDDEN
               : g_rand_int_range (rand, 0, 8) == 0 ? TV_TIMELINE_LANE_SELECTED
               : TV_TIMELINE_LANE_COLLAPSED;
  init_style (&style, timeline, 900, 500, FALSE);
  style.lane_flags = flags;
  style.lanes_serial = 1;

  tv_timeline_renderer_get_lanes_area (renderer, timeline, &style, NULL, &lanes_height, &content);
  g_assert_cmpfloat (content, >, 2 * lanes_height);
  for (guint i = 0; i <= 4; i++)
    {
      style.scroll_y = (content - lanes_height) * i / 4;
      check_same_as_fresh (renderer, timeline, &style);
    }
  g_assert_cmpuint (tv_timeline_renderer_get_n_layouts (renderer), ==, 1);

  /* New flags and a new serial: laid out again, once. */
  for (guint i = 0; i < n; i++)
    flags[i] = i % 3 == 0 ? 0 : TV_TIMELINE_LANE_COLLAPSED;
  style.lanes_serial = 2;
  style.scroll_y = 40;
  check_same_as_fresh (renderer, timeline, &style);
  check_same_as_fresh (renderer, timeline, &style);
  g_assert_cmpuint (tv_timeline_renderer_get_n_layouts (renderer), ==, 2);

  /* Other heights: again, whatever the serial says. */
  style.lane_height = 24;
  check_same_as_fresh (renderer, timeline, &style);
  g_assert_cmpuint (tv_timeline_renderer_get_n_layouts (renderer), ==, 3);
  /* And a serial of 0, at every call. */
  style.lanes_serial = 0;
  check_same_as_fresh (renderer, timeline, &style);
  g_assert_cmpuint (tv_timeline_renderer_get_n_layouts (renderer), >, 4);
}

/* PNGs to look at: rec_threads.tach, whole and zoomed with a selection,
 * light and dark. */
static cairo_surface_t *
render_heatmap (TvTimelineRenderer   *renderer,
                TvTimelineHeatmap    *heatmap,
                const TvHeatmapStyle *style)
{
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32,
                                                         (int) style->width,
                                                         (int) style->height);
  g_autoptr(cairo_t) cr = cairo_create (surface);

  tv_timeline_renderer_draw_heatmap (renderer, cr, heatmap, style);
  g_assert_cmpint (cairo_status (cr), ==, CAIRO_STATUS_SUCCESS);
  cairo_surface_flush (surface);
  return surface;
}

/* A profile of ten hours: its heatmap shows the first 32767 seconds, as
 * many columns as an image can be wide, and they are drawn (a wider one
 * once made cairo refuse the image, and the heatmap stayed blank). */
static void
test_long_heatmap (void)
{
  FormatTestDir tmp;
  g_autoptr(TvProfileData) data = NULL;
  g_autoptr(TvTimeline) timeline = NULL;
  g_autoptr(TvTimelineHeatmap) heatmap = NULL;
  g_autoptr(TvTimelineRenderer) renderer = tv_timeline_renderer_new (NULL);
  g_autoptr(cairo_surface_t) surface = NULL;
  TachWriterOptions options = { 0 };
  TachWriter *writer = NULL;
  TachError tach_error;
  TachFrameInfo info = { "/srv/app/long.py", "tick", 1, -1, -1, -1, TACH_OPCODE_NONE };
  TvHeatmapStyle style;
  guint32 frame;
  guint64 in_cells = 0;
  double x, y, w, h;

  format_test_dir_init (&tmp, "tv-timeline-XXXXXX");
  options.sample_interval_us = 1000000;
  options.start_time_us = 1000;
  if (tach_writer_new (tmp.path, &options, &writer, &tach_error) != TACH_OK
      || tach_writer_intern_frame (writer, &info, &frame, &tach_error) != TACH_OK)
    g_error ("writer: %s", tach_error.message);
  /* A sample at the start, one an hour, the last ten hours in. */
  for (guint64 hour = 0; hour <= 10; hour++)
    if (tach_writer_add_sample (writer, 1, 0, 1000 + hour * 3600 * G_USEC_PER_SEC,
                                TACH_STATUS_HAS_GIL, &frame, 1, &tach_error) != TACH_OK)
      g_error ("sample: %s", tach_error.message);
  if (tach_writer_finish (writer, &tach_error) != TACH_OK)
    g_error ("finish: %s", tach_error.message);
  data = fixture_load (tmp.path);
  timeline = tv_timeline_new (data, NULL);
  heatmap = tv_timeline_heatmap_new (timeline, NULL, 0, 0, 0, TV_HEATMAP_ROW_DURATION, NULL);

  g_assert_cmpuint (tv_timeline_heatmap_get_n_columns (heatmap), ==, 32767);
  for (guint c = 0; c < 32767; c++)
    for (guint r = 0; r < tv_timeline_heatmap_get_n_rows (heatmap); r++)
      in_cells += tv_timeline_heatmap_get_count (heatmap, c, r);
  /* The samples of hours 0 to 9 (32400 s) are in; the tenth is past. */
  g_assert_cmpuint (in_cells, ==, 10);

  tv_heatmap_style_init (&style, 900, 260);
  style.draw_background = TRUE;
  surface = render_heatmap (renderer, heatmap, &style);
  /* 32767 columns on about 840 pixels: the cells are averaged into the
   * pixels, and the ten samples' cells tint the plot.  (A blank heatmap
   * leaves it the colour of an empty cell.) */
  g_assert_true (tv_timeline_renderer_get_heatmap_cell (renderer, heatmap, &style, 0, 0,
                                                        &x, &y, &w, &h));
  {
    guint32 empty = packed (tv_timeline_heatmap_color (0, 1, FALSE));
    guint n_tinted = 0;

    for (int px = (int) x; px < (int) (x + 32767 * w); px++)
      for (int py = (int) y + 1; py < (int) (y + h); py++)
        n_tinted += pixel_at (surface, px, py) != empty;
    g_test_message ("%u pixels of row 0 tinted", n_tinted);
    g_assert_cmpuint (n_tinted, >, 0);
  }
  format_test_dir_clear (&tmp);
}

/* Every cell of the heatmap is drawn in the colour of its count, where
 * the hit test finds it; a selection dims exactly the cells outside it. */
static void
test_render_heatmap (void)
{
  g_autoptr(TvProfileData) data = fixture_load_corpus ("rec_threads.tach");
  g_autoptr(TvTimeline) timeline = tv_timeline_new (data, NULL);
  g_autoptr(TvTimelineHeatmap) heatmap = tv_timeline_heatmap_new (timeline, NULL, 0, 0, 0, 20000,
                                                                  NULL);
  g_autoptr(TvTimelineRenderer) renderer = tv_timeline_renderer_new (NULL);
  guint n_columns = tv_timeline_heatmap_get_n_columns (heatmap);
  guint n_rows = tv_timeline_heatmap_get_n_rows (heatmap);
  guint64 max = tv_timeline_heatmap_get_max_count (heatmap);

  g_assert_cmpuint (n_columns, ==, 2);
  g_assert_cmpuint (max, >, 1);
  for (guint dark = 0; dark < 2; dark++)
    {
      g_autofree char *path = g_test_build_filename (G_TEST_BUILT, dark ? "heatmap-dark.png"
                                                                         : "heatmap-light.png",
                                                     NULL);
      g_autofree TvTimeRange *ranges = NULL;
      g_autoptr(cairo_surface_t) plain = NULL;
      g_autoptr(cairo_surface_t) selected = NULL;
      TvHeatmapStyle style;
      guint n_ranges, n_dimmed = 0;

      tv_heatmap_style_init (&style, 900, 260);
      style.dark = dark;
      style.draw_background = TRUE;
      style.legend_label = "samples per cell";
      plain = render_heatmap (renderer, heatmap, &style);
      ranges = tv_timeline_heatmap_select (heatmap, 0, 10, 1, 29, &n_ranges);
      style.selection = ranges;
      style.n_selection = n_ranges;
      selected = render_heatmap (renderer, heatmap, &style);
      g_assert_cmpint (cairo_surface_write_to_png (selected, path), ==, CAIRO_STATUS_SUCCESS);
      g_test_message ("heatmap: %s", path);

      for (guint c = 0; c < n_columns; c++)
        for (guint r = 0; r < n_rows; r++)
          {
            TvTimelineColor color = tv_timeline_heatmap_color (
              tv_timeline_heatmap_get_count (heatmap, c, r), max, dark);
            double x, y, w, h;
            guint hit_c, hit_r;
            gboolean in_selection = r >= 10 && r <= 29;

            g_assert_true (tv_timeline_renderer_get_heatmap_cell (renderer, heatmap, &style, c, r,
                                                                  &x, &y, &w, &h));
            g_assert_true (tv_timeline_renderer_heatmap_hit_test (renderer, heatmap, &style,
                                                                  x + w / 2, y + h / 2, FALSE,
                                                                  &hit_c, &hit_r));
            g_assert_cmpuint (hit_c, ==, c);
            g_assert_cmpuint (hit_r, ==, r);
            /* Rows are about 4 pixels high: the middle one is the cell's. */
            g_assert_cmphex (pixel_at (plain, (int) (x + w / 2), (int) (y + h / 2)), ==,
                             packed (color));
            if (in_selection)
              g_assert_cmphex (pixel_at (selected, (int) (x + w / 2), (int) (y + h / 2)), ==,
                               packed (color));
            else
              n_dimmed += pixel_at (selected, (int) (x + w / 2), (int) (y + h / 2))
                          != packed (color);
          }
      g_assert_cmpuint (n_dimmed, ==, n_columns * (n_rows - 20));
      /* Nothing to the left of the cells or below them is a cell. */
      g_assert_false (tv_timeline_renderer_heatmap_hit_test (renderer, heatmap, &style, 1, 100,
                                                             FALSE, NULL, NULL));
      g_assert_false (tv_timeline_renderer_heatmap_hit_test (renderer, heatmap, &style, 300, 259,
                                                             FALSE, NULL, NULL));
    }
  /* Zero is the lanes' track, and the scale grows monotonically darker
   * in light, lighter in dark. */
  for (guint dark = 0; dark < 2; dark++)
    {
      double last = dark ? -1 : 2;

      for (guint64 n = 1; n <= 10; n++)
        {
          TvTimelineColor c = tv_timeline_heatmap_color (n, 10, dark);
          double luma = 0.2126 * c.red + 0.7152 * c.green + 0.0722 * c.blue;

          g_assert_true (dark ? luma > last : luma < last);
          last = luma;
        }
    }
}

static void
test_png (void)
{
  g_autoptr(TvProfileData) data = fixture_load_corpus ("rec_threads.tach");
  g_autoptr(TvTimeline) timeline = tv_timeline_new (data, NULL);
  g_autoptr(TvTimelineRenderer) renderer = tv_timeline_renderer_new (NULL);
  static const struct
  {
    const char *file;
    gboolean    dark;
    gboolean    zoom;
  } pictures[] = {
    { "timeline-light.png", FALSE, FALSE },
    { "timeline-dark.png", TRUE, FALSE },
    { "timeline-zoom-light.png", FALSE, TRUE },
    { "timeline-zoom-dark.png", TRUE, TRUE },
  };

  for (guint i = 0; i < G_N_ELEMENTS (pictures); i++)
    {
      g_autofree char *path = g_test_build_filename (G_TEST_BUILT, pictures[i].file, NULL);
      g_autoptr(cairo_surface_t) surface = NULL;
      TvTimelineStyle style;
      guint n;
      const guint32 *order = tv_timeline_get_order (timeline, &n);
      g_autofree guint8 *flags = g_new0 (guint8, n);

      init_style (&style, timeline, 1400, 280, pictures[i].dark);
      if (pictures[i].zoom)
        {
          style.t0 = 400000;
          style.t1 = 520000;
          style.has_selection = TRUE;
          style.selection_start = 430000;
          style.selection_end = 470000;
          style.cursor_time = 500000;
          style.selected_state = TV_TIMELINE_STATE_WAITING;
          flags[order[1]] = TV_TIMELINE_LANE_SELECTED;
          style.lane_flags = flags;
        }
      surface = render (renderer, timeline, &style);
      g_assert_cmpint (cairo_surface_write_to_png (surface, path), ==, CAIRO_STATUS_SUCCESS);
      g_test_message ("wrote %s", path);
    }
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(GPtrArray) names = NULL;

  g_test_init (&argc, &argv, NULL);

  base_seed = fixture_seed ();

  names = fixture_list_corpus ();
  fixture_add_corpus_tests (names, "/timeline/corpus", test_corpus);
  fixture_add_numbered_tests ("/timeline/random", N_RANDOM_PROFILES, test_random);
  g_test_add_func ("/timeline/unordered", test_unordered);
  g_test_add_func ("/timeline/dense", test_dense);
  g_test_add_func ("/timeline/empty", test_empty);
  g_test_add_func ("/timeline/long-heatmap", test_long_heatmap);
  g_test_add_func ("/timeline/cancel", test_cancel);
  g_test_add_func ("/timeline/states", test_states);
  g_test_add_func ("/timeline/filter", test_filter);
  g_test_add_func ("/timeline/render/lanes", test_render_lanes);
  g_test_add_func ("/timeline/threads", test_threads);
  g_test_add_func ("/timeline/render/scaled", test_render_scaled);
  g_test_add_func ("/timeline/render/selection", test_render_selection);
  g_test_add_func ("/timeline/render/ranges", test_render_ranges);
  g_test_add_func ("/timeline/render/axis", test_render_axis);
  g_test_add_func ("/timeline/render/hold", test_render_hold);
  g_test_add_func ("/timeline/render/colors", test_render_colors);
  g_test_add_func ("/timeline/render/many", test_render_many);
  g_test_add_func ("/timeline/render/lanes-serial", test_render_lanes_serial);
  g_test_add_func ("/timeline/render/png", test_png);
  g_test_add_func ("/timeline/render/heatmap", test_render_heatmap);

  return g_test_run ();
}
