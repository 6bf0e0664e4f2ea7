/* test-timeline-highlight.c: the samples of chosen functions over time
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * For every profile of the corpus and a few functions of each, the
 * highlight's counts, per lane and for the overview, over whole windows
 * and zoomed ones, under a state filter and a lane subset, must equal a
 * brute-force count over every sample: its leaf's stack walked up to the
 * root, its time put in the column by the columns' definition.
 */
#include <math.h>

#include "model-fixture.h"
#include "tv-timeline-highlight.h"

static guint32 base_seed;

/* Whether the stack of NODE holds a frame of function FUNCTION. */
static gboolean
stack_holds (const TvExactTree *tree,
             const guint32     *function_keys,
             guint32            node,
             guint32            function)
{
  for (; node != TV_ROOT_NODE && node != TV_NODE_NONE; node = tree->parent[node])
    if (function_keys[tree->frame[node]] == function)
      return TRUE;
  return FALSE;
}

/* The brute-force counts of LANE (or every lane LANES keeps, for
 * TV_TIMELINE_ALL) in N columns of [T0, T1). */
static guint64
brute_bins (TvTimeline   *timeline,
            guint         lane,
            const guint8 *lanes,
            guint32       function,
            guint8        mask,
            guint8        value,
            double        t0,
            double        t1,
            guint         n,
            guint64      *counts)
{
  TvProfileData *data = tv_timeline_get_data (timeline);
  const TvExactTree *tree = tv_profile_data_get_tree (data);
  const guint32 *function_keys = tv_profile_data_get_frame_keys (data, TV_MERGE_FUNCTION);
  guint64 origin = tv_timeline_get_origin (timeline);
  guint64 total = 0;

  memset (counts, 0, n * sizeof (guint64));
  for (guint t = 0; t < tv_profile_data_get_n_threads (data); t++)
    {
      const TvThread *thread = tv_profile_data_get_thread (data, t);

      if (lane != TV_TIMELINE_ALL && lane != t)
        continue;
      if (lane == TV_TIMELINE_ALL && lanes != NULL && !lanes[t])
        continue;
      for (guint64 r = 0; r < thread->n_runs; r++)
        {
          guint64 end = r + 1 < thread->n_runs ? thread->run_start[r + 1] : thread->n_samples;

          if (!stack_holds (tree, function_keys, thread->run_leaf[r], function))
            continue;
          for (guint64 s = thread->run_start[r]; s < end; s++)
            {
              double time = (double) (thread->timestamps[s] - origin);

              if ((thread->statuses[s] & mask) != value)
                continue;
              total++;
              for (guint c = 0; c < n; c++)
                {
                  double a = t0 + (t1 - t0) * c / n;
                  double b = c + 1 == n ? t1 : t0 + (t1 - t0) * (c + 1) / n;

                  if (time >= ceil (MAX (a, 0)) && time < ceil (MAX (b, 0)))
                    {
                      counts[c]++;
                      break;
                    }
                }
            }
        }
    }
  return total;
}

static void
check_window (TvTimelineHighlight *highlight,
              guint                lane,
              const guint8        *lanes,
              guint32              function,
              guint8               mask,
              guint8               value,
              double               t0,
              double               t1,
              guint                n)
{
  g_autofree guint64 *expected = g_new (guint64, n);
  g_autofree guint64 *got = g_new (guint64, n);
  TvTimeline *timeline = tv_timeline_highlight_get_timeline (highlight);

  brute_bins (timeline, lane, lanes, function, mask, value, t0, t1, n, expected);
  g_assert_true (tv_timeline_highlight_get_bins (highlight, lane, t0, t1, n, got));
  for (guint c = 0; c < n; c++)
    g_assert_cmpuint (got[c], ==, expected[c]);
}

static void
check_function (TvTimeline   *timeline,
                guint32       function,
                guint8        mask,
                guint8        value,
                const guint8 *lanes,
                GRand        *rand)
{
  TvProfileData *data = tv_timeline_get_data (timeline);
  guint32 n_frames = tv_profile_data_get_n_frames (data);
  const guint32 *function_keys = tv_profile_data_get_frame_keys (data, TV_MERGE_FUNCTION);
  g_autofree guint8 *marks = g_new0 (guint8, MAX (n_frames, 1));
  g_autoptr(TvTimelineHighlight) highlight = NULL;
  double duration = (double) tv_timeline_get_duration (timeline);
  guint64 sum = 0, scratch[1];

  for (guint32 f = 0; f < n_frames; f++)
    marks[f] = function_keys[f] == function;
  highlight = tv_timeline_highlight_new (timeline, marks, n_frames, lanes, mask, value, NULL);
  g_assert_nonnull (highlight);

  for (guint l = 0; l < tv_timeline_get_n_lanes (timeline); l++)
    {
      guint64 total = brute_bins (timeline, l, NULL, function, mask, value, 0, 1, 1, scratch);

      g_assert_cmpuint (tv_timeline_highlight_get_n_samples (highlight, l), ==, total);
      if (lanes == NULL || lanes[l])
        sum += total;
      check_window (highlight, l, lanes, function, mask, value, 0, MAX (duration, 1), 37);
    }
  g_assert_cmpuint (tv_timeline_highlight_get_n_samples (highlight, TV_TIMELINE_ALL), ==, sum);
  check_window (highlight, TV_TIMELINE_ALL, lanes, function, mask, value,
                0, MAX (duration, 1), 101);
  check_window (highlight, TV_TIMELINE_ALL, lanes, function, mask, value,
                -5, MAX (duration, 1) + 5, 1);
  /* Zoomed in, columns of fractions of a microsecond, and out. */
  for (int i = 0; i < 4; i++)
    {
      double a = g_rand_double_range (rand, -10, MAX (duration, 1));
      double w = g_rand_double_range (rand, 0.5, MAX (duration, 1));

      check_window (highlight, TV_TIMELINE_ALL, lanes, function, mask, value, a, a + w,
                    g_rand_int_range (rand, 1, 300));
      check_window (highlight, 0, lanes, function, mask, value, a, a + w,
                    g_rand_int_range (rand, 1, 300));
    }
  /* A range count is the same bisection. */
  if (duration > 2)
    {
      guint64 origin = tv_timeline_get_origin (timeline);
      guint64 half = brute_bins (timeline, TV_TIMELINE_ALL, lanes, function, mask, value,
                                 0, duration / 2, 1, scratch);

      (void) half;
      g_assert_cmpuint (tv_timeline_highlight_count_range (highlight, TV_TIMELINE_ALL, origin,
                                                           tv_timeline_time_to_timestamp (
                                                             timeline, duration / 2)),
                        ==, scratch[0]);
    }
}

static void
test_corpus (gconstpointer user_data)
{
  g_autoptr(TvProfileData) data = fixture_load_corpus (user_data);
  g_autoptr(TvTimeline) timeline = tv_timeline_new (data, NULL);
  g_autoptr(GRand) rand = g_rand_new_with_seed (base_seed);
  guint32 n_functions = tv_profile_data_get_n_keys (data, TV_MERGE_FUNCTION);
  guint n_lanes = tv_timeline_get_n_lanes (timeline);
  g_autofree guint8 *lanes = g_new0 (guint8, MAX (n_lanes, 1));

  g_assert_nonnull (timeline);
  if (n_functions == 0 || n_lanes == 0)
    return;
  for (guint l = 0; l < n_lanes; l += 2)
    lanes[l] = 1;
  for (int i = 0; i < 3; i++)
    {
      guint32 function = g_rand_int_range (rand, 0, n_functions);

      check_function (timeline, function, 0, 0, NULL, rand);
      /* Holding the GIL only, over every other lane. */
      check_function (timeline, function, 1, 1, lanes, rand);
    }
}

/* No frame marked: nothing, everywhere; every frame: every sample with a
 * stack. */
static void
test_none_all (void)
{
  g_autoptr(TvProfileData) data = fixture_load_corpus ("rec_threads.tach");
  g_autoptr(TvTimeline) timeline = tv_timeline_new (data, NULL);
  guint32 n_frames = tv_profile_data_get_n_frames (data);
  g_autofree guint8 *marks = g_new0 (guint8, MAX (n_frames, 1));
  g_autoptr(TvTimelineHighlight) none = NULL;
  g_autoptr(TvTimelineHighlight) all = NULL;
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  const TvExactTree *tree = tv_profile_data_get_tree (data);
  guint64 with_stack = 0;

  none = tv_timeline_highlight_new (timeline, marks, n_frames, NULL, 0, 0, NULL);
  g_assert_cmpuint (tv_timeline_highlight_get_n_samples (none, TV_TIMELINE_ALL), ==, 0);
  memset (marks, 1, n_frames);
  all = tv_timeline_highlight_new (timeline, marks, n_frames, NULL, 0, 0, NULL);
  for (guint32 node = 1; node < tree->n_nodes; node++)
    with_stack += tree->self[node];
  g_assert_cmpuint (with_stack, >, 0);
  g_assert_cmpuint (tv_timeline_highlight_get_n_samples (all, TV_TIMELINE_ALL), ==, with_stack);

  g_cancellable_cancel (cancellable);
  g_assert_null (tv_timeline_highlight_new (timeline, marks, n_frames, NULL, 0, 0,
                                            cancellable));
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(GPtrArray) names = NULL;

  g_test_init (&argc, &argv, NULL);
  base_seed = fixture_seed ();
  names = fixture_list_corpus ();
  fixture_add_corpus_tests (names, "/timeline-highlight/corpus", test_corpus);
  g_test_add_func ("/timeline-highlight/none-all", test_none_all);
  return g_test_run ();
}
