/* test-comparison.c: TvComparison on a real main loop, without GTK
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Two profiles are written here with the format library's writer, each
 * with a main thread and a worker of known stacks: in NEW "work" takes
 * 20 % more samples, "gone" vanished, "fresh" and "crunch" appeared, and
 * the worker idles longer; NEW has no statistics block.  The tests watch
 * the comparison's properties as a page does: the states of a load, the
 * diff and the trees handed over together, results of an overtaken round
 * dropped, swapping, linked filters and carried transforms, by time and by
 * share, the merge key, cancellation and failed loads.  Each test checks
 * that the comparison is finalized at its end: no worker still holds it.
 */
#include <math.h>
#include <string.h>

#include <glib.h>
#include <glib/gstdio.h>

#include "tachyon-format.h"
#include "tv-comparison.h"
#include "tv-tach-error.h"

#define BIG_SAMPLES 2000000

static char *tmp_dir;
static char *base_path;
static char *new_path;
static char *big_path;

/* ------------------------------------------------------------------------ */
/* Profiles                                                                  */
/* ------------------------------------------------------------------------ */

typedef struct
{
  guint64     thread_id;
  const char *stack[2];      /* root first */
  guint       count;
  guint8      status;
} Run;

#define IDLE 0
#define GIL  TACH_STATUS_HAS_GIL
#define CPU  (TACH_STATUS_HAS_GIL | TACH_STATUS_ON_CPU)

/* Main thread 100 (101 in NEW), worker 200 (201): the sides' thread ids
 * differ, so that linked filters can only go by place.  BASE's worker has
 * more samples than its main thread, which still comes first. */
static const Run base_runs[] = {
  { 100, { "main", "work" }, 3000, CPU },
  { 100, { "main", "other" }, 3000, GIL },
  { 100, { "main", "gone" }, 400, CPU },
  { 200, { "worker", "io" }, 9000, IDLE },
};

static const Run new_runs[] = {
  { 101, { "main", "work" }, 3600, CPU },
  { 101, { "main", "other" }, 3000, GIL },
  { 101, { "main", "fresh" }, 300, CPU },
  { 201, { "worker", "io" }, 10000, IDLE },
  { 201, { "worker", "crunch" }, 1500, CPU },
};

/* Writes RUNS round robin (every stretch of time has them all), 1 ms a
 * sample, with a statistics block of a 1000 Hz rate or none. */
static void
write_runs (const char *path,
            const Run  *runs,
            guint       n_runs,
            gboolean    with_stats)
{
  const TachWriterOptions options = {
    .sample_interval_us = 1000, .start_time_us = 1000000, .mode_raw = 1 /* wall clock */,
    .python_major = 3, .python_minor = 15,
  };
  g_autofree guint32 *frames = g_new (guint32, n_runs * 2);  /* innermost first */
  TachWriter *writer = NULL;
  TachError error;
  guint most = 0;
  guint64 n = 0;

  if (tach_writer_new (path, &options, &writer, &error) != TACH_OK)
    g_error ("writer: %s", error.message);
  for (guint i = 0; i < n_runs; i++)
    {
      most = MAX (most, runs[i].count);
      for (guint depth = 0; depth < 2; depth++)
        {
          g_autofree char *file = g_strdup_printf ("/app/%s.py", runs[i].stack[depth]);
          TachFrameInfo info = { file, runs[i].stack[depth], 10, -1, -1, -1, TACH_OPCODE_NONE };

          if (tach_writer_intern_frame (writer, &info, &frames[i * 2 + 1 - depth], &error)
              != TACH_OK)
            g_error ("intern: %s", error.message);
        }
    }
  for (guint round = 0; round < most; round++)
    for (guint i = 0; i < n_runs; i++)
      if (round < runs[i].count)
        {
          guint8 status = runs[i].status
                          | (runs[i].thread_id < 200 ? TACH_STATUS_MAIN_THREAD : 0);

          guint64 ts = options.start_time_us + n++ * options.sample_interval_us;

          if (tach_writer_add_sample (writer, runs[i].thread_id, 0, ts, status, &frames[i * 2], 2,
                                      &error) != TACH_OK)
            g_error ("add_sample: %s", error.message);
        }
  if (with_stats)
    {
      const TachStats stats = { .block_size = 56, .sample_rate = 1000,
                                .duration_sec = n / 1000.0 };

      if (tach_writer_set_stats (writer, &stats, &error) != TACH_OK)
        g_error ("stats: %s", error.message);
    }
  if (tach_writer_finish (writer, &error) != TACH_OK)
    g_error ("finish: %s", error.message);
}

/* A profile that takes a while to load: BIG_SAMPLES samples, each on
 * another stack than the one before. */
static void
write_big (const char *path)
{
  Run runs[] = {
    { 100, { "main", "work" }, BIG_SAMPLES / 2, CPU },
    { 100, { "main", "other" }, BIG_SAMPLES / 2, GIL },
  };

  write_runs (path, runs, G_N_ELEMENTS (runs), TRUE);
}

/* ------------------------------------------------------------------------ */
/* Watching a comparison                                                     */
/* ------------------------------------------------------------------------ */

/* What a page would see: every notification, counted, and the states in
 * the order they came. */
typedef struct
{
  TvComparison *comparison;
  GArray       *states;         /* TvComparisonState */
  guint         n_diff;
  guint         n_trees[2];
  guint         n_warnings;
  guint         n_busy;
  guint         n_profiles;
  /* At each "diff": whether trees and diff agreed. */
  gboolean      trees_match_diff;
} Watch;

static void
on_notify (TvComparison *comparison,
           GParamSpec   *pspec,
           Watch        *w)
{
  const char *name = g_param_spec_get_name (pspec);

  if (strcmp (name, "state") == 0)
    {
      TvComparisonState state = tv_comparison_get_state (comparison);

      g_array_append_val (w->states, state);
    }
  else if (strcmp (name, "diff") == 0)
    {
      TvDiff *diff = tv_comparison_get_diff (comparison);

      w->n_diff++;
      for (guint side = 0; side < 2; side++)
        if (tv_comparison_get_tree (comparison, side) != tv_diff_get_tree (diff, side))
          w->trees_match_diff = FALSE;
    }
  else if (strcmp (name, "base-tree") == 0)
    w->n_trees[TV_DIFF_SIDE_BASE]++;
  else if (strcmp (name, "new-tree") == 0)
    w->n_trees[TV_DIFF_SIDE_NEW]++;
  else if (strcmp (name, "warnings") == 0)
    w->n_warnings++;
  else if (strcmp (name, "busy") == 0)
    w->n_busy++;
  else if (strcmp (name, "base-profile") == 0)
    w->n_profiles++;
}

static void
watch_init (Watch        *w,
            TvComparison *comparison)
{
  memset (w, 0, sizeof *w);
  w->comparison = comparison;
  w->states = g_array_new (FALSE, FALSE, sizeof (TvComparisonState));
  w->trees_match_diff = TRUE;
  g_signal_connect (comparison, "notify", G_CALLBACK (on_notify), w);
}

static void
watch_reset (Watch *w)
{
  g_array_set_size (w->states, 0);
  w->n_diff = w->n_warnings = w->n_busy = w->n_profiles = 0;
  w->n_trees[0] = w->n_trees[1] = 0;
}

static gboolean
on_timeout (gpointer user_data)
{
  *(gboolean *) user_data = TRUE;
  return G_SOURCE_REMOVE;
}

/* Runs the main loop until the comparison is neither loading nor busy,
 * failing after 60 s. */
static void
settle (TvComparison *comparison)
{
  gboolean expired = FALSE;
  guint timeout = g_timeout_add_seconds (60, on_timeout, &expired);

  while (tv_comparison_is_busy (comparison) && !expired)
    g_main_context_iteration (NULL, TRUE);
  g_assert_false (expired);
  g_source_remove (timeout);
}

/* Runs the main loop for MS milliseconds, whatever happens. */
static void
spin (guint ms)
{
  gboolean expired = FALSE;

  g_timeout_add (ms, on_timeout, &expired);
  while (!expired)
    g_main_context_iteration (NULL, TRUE);
}

static void
on_finalized (gpointer  user_data,
              GObject  *where_the_object_was)
{
  *(gboolean *) user_data = TRUE;
}

/* Drops the watch and the last reference: the comparison must go, once
 * the workers it started have let go of it. */
static void
watch_finish (Watch *w)
{
  gboolean finalized = FALSE;
  gint64 deadline = g_get_monotonic_time () + 10 * G_TIME_SPAN_SECOND;

  g_signal_handlers_disconnect_by_data (w->comparison, w);
  g_object_weak_ref (G_OBJECT (w->comparison), on_finalized, &finalized);
  g_object_unref (w->comparison);
  while (!finalized && g_get_monotonic_time () < deadline)
    if (!g_main_context_iteration (NULL, FALSE))
      g_usleep (1000);
  g_assert_true (finalized);
  g_array_unref (w->states);
}

static TvComparison *
open_pair (const char *base,
           const char *new_file,
           Watch      *w)
{
  g_autoptr(GFile) a = g_file_new_for_path (base);
  g_autoptr(GFile) b = g_file_new_for_path (new_file);
  g_autoptr(TvProfile) base_profile = tv_profile_new (a);
  g_autoptr(TvProfile) new_profile = tv_profile_new (b);
  TvComparison *comparison = tv_comparison_new (base_profile, new_profile);

  watch_init (w, comparison);
  settle (comparison);
  g_assert_cmpint (tv_comparison_get_state (comparison), ==, TV_COMPARISON_READY);
  return comparison;
}

/* The fixture of most tests: the pair compared, ready, and a watch that
 * counts from then on. */
static void
pair_setup (Watch         *w,
            gconstpointer  data)
{
  open_pair (base_path, new_path, w);
  watch_reset (w);
}

static void
pair_teardown (Watch         *w,
               gconstpointer  data)
{
  watch_finish (w);
}

/* SIDE's state filter to FILTER: a round of queries and diff begins. */
static void
start_round (TvComparison  *comparison,
             TvDiffSide     side,
             TvStateFilter  filter)
{
  tv_view_state_set_state_filter (tv_comparison_get_view_state (comparison, side), filter);
  g_assert_true (tv_comparison_is_busy (comparison));
}

/* The function key of NAME in SIDE's profile. */
static guint32
function_key (TvComparison *comparison,
              TvDiffSide    side,
              const char   *name)
{
  TvProfileData *data = tv_profile_get_data (tv_comparison_get_profile (comparison, side));
  guint32 n = tv_profile_data_get_n_keys (data, TV_MERGE_FUNCTION);

  for (guint32 k = 0; k < n; k++)
    if (strcmp (tv_profile_data_get_funcname (data, tv_profile_data_get_key_frame (
                  data, TV_MERGE_FUNCTION, k)), name) == 0)
      return k;
  g_error ("no function %s", name);
}

static const TvDiffFunction *
find_function (TvDiff     *diff,
               const char *name)
{
  guint n;
  const TvDiffFunction *rows = tv_diff_get_functions (diff, &n);

  for (guint i = 0; i < n; i++)
    if (strcmp (tv_diff_get_function_name (diff, &rows[i]), name) == 0)
      return &rows[i];
  return NULL;
}

static guint64
n_samples (TvComparison *comparison,
           TvDiffSide    side)
{
  return tv_call_tree_get_n_samples (tv_comparison_get_tree (comparison, side));
}

/* The thread id of SIDE's thread at CHOICE (1 for the first). */
static guint64
thread_id_at (TvComparison *comparison,
              TvDiffSide    side,
              guint         choice)
{
  TvProfileData *data = tv_profile_get_data (tv_comparison_get_profile (comparison, side));
  guint n;
  const guint32 *threads = tv_comparison_get_threads (comparison, side, &n);

  g_assert_cmpuint (choice, >=, 1);
  g_assert_cmpuint (choice, <=, n);
  return tv_profile_data_get_thread (data, threads[choice - 1])->thread_id;
}

/* ------------------------------------------------------------------------ */
/* Tests                                                                     */
/* ------------------------------------------------------------------------ */

/* Loading, then the first diff: the states in order, the trees and the
 * diff handed over together, the thread lists, the warnings. */
static void
test_ready (void)
{
  g_autoptr(GFile) a = g_file_new_for_path (base_path);
  g_autoptr(GFile) b = g_file_new_for_path (new_path);
  g_autoptr(TvProfile) base = tv_profile_new (a);
  g_autoptr(TvProfile) other = tv_profile_new (b);
  TvComparison *comparison = tv_comparison_new (base, other);
  GPtrArray *warnings;
  TvDiff *diff;
  Watch w;

  watch_init (&w, comparison);
  g_assert_cmpint (tv_comparison_get_state (comparison), ==, TV_COMPARISON_LOADING);
  g_assert_true (tv_comparison_is_busy (comparison));
  g_assert_null (tv_comparison_get_diff (comparison));
  g_assert_null (tv_comparison_get_warnings (comparison));
  settle (comparison);

  g_assert_cmpuint (w.states->len, ==, 2);
  g_assert_cmpint (g_array_index (w.states, TvComparisonState, 0), ==, TV_COMPARISON_LOADED);
  g_assert_cmpint (g_array_index (w.states, TvComparisonState, 1), ==, TV_COMPARISON_READY);
  g_assert_cmpuint (w.n_diff, ==, 1);
  g_assert_cmpuint (w.n_trees[0], ==, 1);
  g_assert_cmpuint (w.n_trees[1], ==, 1);
  g_assert_true (w.trees_match_diff);
  g_assert_cmpuint (w.n_busy, ==, 1);
  g_assert_false (tv_comparison_is_busy (comparison));

  diff = tv_comparison_get_diff (comparison);
  g_assert_nonnull (diff);
  g_assert_cmpuint (n_samples (comparison, TV_DIFF_SIDE_BASE), ==, 15400);
  g_assert_cmpuint (n_samples (comparison, TV_DIFF_SIDE_NEW), ==, 18400);
  g_assert_cmpint (find_function (diff, "work")->total.change, ==, TV_DIFF_SLOWER);
  g_assert_cmpfloat_with_epsilon (find_function (diff, "work")->total.relative, 0.2, 1e-9);
  g_assert_cmpint (find_function (diff, "gone")->total.change, ==, TV_DIFF_FASTER);
  g_assert_cmpint (tv_comparison_get_diff_side (comparison, TV_DIFF_SIDE_BASE), ==,
                   TV_DIFF_SIDE_BASE);

  /* The main thread first, though BASE's worker has more samples. */
  g_assert_cmpuint (thread_id_at (comparison, TV_DIFF_SIDE_BASE, 1), ==, 100);
  g_assert_cmpuint (thread_id_at (comparison, TV_DIFF_SIDE_BASE, 2), ==, 200);
  g_assert_cmpuint (thread_id_at (comparison, TV_DIFF_SIDE_NEW, 1), ==, 101);

  /* NEW has no statistics block: by time, its seconds are the interval's. */
  warnings = tv_comparison_get_warnings (comparison);
  g_assert_nonnull (warnings);
  g_assert_cmpuint (warnings->len, ==, 1);
  g_assert_cmpint (((TvComparability *) g_ptr_array_index (warnings, 0))->code, ==,
                   TV_COMPARABILITY_NO_STATS_NEW);
  watch_finish (&w);
}

static void
on_loaded (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_assert_true (tv_profile_load_finish (TV_PROFILE (object), result, NULL));
  *(gboolean *) user_data = TRUE;
}

/* Profiles loaded already (the open tabs' ones) are not loaded again. */
static void
test_loaded_profiles (void)
{
  g_autoptr(GFile) a = g_file_new_for_path (base_path);
  g_autoptr(GFile) b = g_file_new_for_path (new_path);
  g_autoptr(TvProfile) base = tv_profile_new (a);
  g_autoptr(TvProfile) other = tv_profile_new (b);
  TvComparison *comparison;
  TvProfileData *data;
  Watch w;

  for (guint i = 0; i < 2; i++)
    {
      TvProfile *profile = i == 0 ? base : other;
      gboolean done = FALSE;

      tv_profile_load_async (profile, NULL, on_loaded, &done);
      while (!done)
        g_main_context_iteration (NULL, TRUE);
      g_assert_cmpint (tv_profile_get_state (profile), ==, TV_PROFILE_LOADED);
    }
  data = tv_profile_get_data (base);
  comparison = tv_comparison_new (base, other);
  g_assert_cmpint (tv_comparison_get_state (comparison), ==, TV_COMPARISON_LOADED);
  watch_init (&w, comparison);
  settle (comparison);
  g_assert_cmpint (tv_comparison_get_state (comparison), ==, TV_COMPARISON_READY);
  g_assert_true (tv_profile_get_data (base) == data);
  g_assert_true (tv_call_tree_get_data (tv_comparison_get_tree (comparison, TV_DIFF_SIDE_BASE))
                 == data);
  watch_finish (&w);
}

/* Two changes in a row, the first round's work done but not yet handed
 * over when the second starts: only the second's diff is shown, once. */
static void
test_stale_dropped (Watch         *w,
                    gconstpointer  data)
{
  TvComparison *comparison = w->comparison;
  TvDiff *before = tv_comparison_get_diff (comparison);

  start_round (comparison, TV_DIFF_SIDE_BASE, TV_STATE_FILTER_CPU);
  /* The first round's queries finish on their workers meanwhile; their
   * results wait in the main context. */
  g_usleep (200 * 1000);
  start_round (comparison, TV_DIFF_SIDE_NEW, TV_STATE_FILTER_CPU);
  /* Nothing shown changes before the diff is back. */
  g_assert_true (tv_comparison_get_diff (comparison) == before);
  settle (comparison);
  spin (100);

  g_assert_cmpuint (w->n_diff, ==, 1);
  g_assert_true (w->trees_match_diff);
  g_assert_cmpuint (n_samples (comparison, TV_DIFF_SIDE_BASE), ==, 3000 + 400);
  g_assert_cmpuint (n_samples (comparison, TV_DIFF_SIDE_NEW), ==, 3600 + 300 + 1500);
  /* busy went up and down once, whatever the rounds in between. */
  g_assert_cmpuint (w->n_busy, ==, 2);
}

/* Swapping trades the sides at once and makes the diff again from the
 * same trees; swapping twice before it is back comes back to the start. */
static void
test_swap (Watch         *w,
           gconstpointer  data)
{
  TvComparison *comparison = w->comparison;
  TvProfile *base = tv_comparison_get_profile (comparison, TV_DIFF_SIDE_BASE);
  TvProfile *other = tv_comparison_get_profile (comparison, TV_DIFF_SIDE_NEW);
  TvViewState *base_state = tv_comparison_get_view_state (comparison, TV_DIFF_SIDE_BASE);
  TvCallTree *base_tree = tv_comparison_get_tree (comparison, TV_DIFF_SIDE_BASE);
  TvProfileData *base_data = tv_profile_get_data (base);
  TvDiff *before = tv_comparison_get_diff (comparison);
  double work_delta = find_function (before, "work")->total.delta;
  TvDiff *diff;

  tv_comparison_swap (comparison);
  g_assert_true (tv_comparison_get_profile (comparison, TV_DIFF_SIDE_BASE) == other);
  g_assert_true (tv_comparison_get_view_state (comparison, TV_DIFF_SIDE_NEW) == base_state);
  g_assert_true (tv_comparison_get_tree (comparison, TV_DIFF_SIDE_NEW) == base_tree);
  g_assert_cmpuint (w->n_profiles, ==, 1);
  g_assert_cmpuint (w->n_trees[0], ==, 1);
  /* The diff shown is the one before, its sides the other way round. */
  g_assert_true (tv_comparison_get_diff (comparison) == before);
  g_assert_cmpint (tv_comparison_get_diff_side (comparison, TV_DIFF_SIDE_BASE), ==,
                   TV_DIFF_SIDE_NEW);
  g_assert_true (tv_comparison_is_busy (comparison));
  settle (comparison);

  diff = tv_comparison_get_diff (comparison);
  g_assert_true (diff != before);
  g_assert_cmpuint (w->n_diff, ==, 1);
  g_assert_true (w->trees_match_diff);
  g_assert_cmpint (tv_comparison_get_diff_side (comparison, TV_DIFF_SIDE_BASE), ==,
                   TV_DIFF_SIDE_BASE);
  /* The same trees, not queried again, and no profile loaded again. */
  g_assert_true (tv_diff_get_tree (diff, TV_DIFF_SIDE_NEW) == base_tree);
  g_assert_true (tv_profile_get_data (base) == base_data);
  g_assert_cmpfloat_with_epsilon (find_function (diff, "work")->total.delta, -work_delta,
                                  1e-12);
  /* BASE's statistics block is NEW's now: the warning turns round. */
  g_assert_cmpint (((TvComparability *) g_ptr_array_index (
                      tv_comparison_get_warnings (comparison), 0))->code, ==,
                   TV_COMPARABILITY_NO_STATS_BASE);

  /* A filter goes with its profile, and two swaps are none. */
  tv_view_state_set_state_filter (base_state, TV_STATE_FILTER_CPU);
  tv_comparison_swap (comparison);
  tv_comparison_swap (comparison);
  tv_comparison_swap (comparison);
  settle (comparison);
  g_assert_true (tv_comparison_get_profile (comparison, TV_DIFF_SIDE_BASE) == base);
  g_assert_true (tv_comparison_get_view_state (comparison, TV_DIFF_SIDE_BASE) == base_state);
  g_assert_cmpint (tv_comparison_get_diff_side (comparison, TV_DIFF_SIDE_BASE), ==,
                   TV_DIFF_SIDE_BASE);
  g_assert_true (tv_call_tree_get_data (tv_diff_get_tree (tv_comparison_get_diff (comparison),
                                                          TV_DIFF_SIDE_BASE)) == base_data);
  g_assert_cmpuint (n_samples (comparison, TV_DIFF_SIDE_BASE), ==, 3400);
  g_assert_cmpuint (n_samples (comparison, TV_DIFF_SIDE_NEW), ==, 18400);
}

/* Unlinked, each side has its own filters; linked, a side's state filter
 * and thread (by place: the main thread for the main thread) go to the
 * other.  Transforms go across either way, by content. */
static void
test_link_filters (Watch         *w,
                   gconstpointer  data)
{
  TvComparison *comparison = w->comparison;
  TvViewState *base_state = tv_comparison_get_view_state (comparison, TV_DIFF_SIDE_BASE);
  TvViewState *new_state = tv_comparison_get_view_state (comparison, TV_DIFF_SIDE_NEW);
  TvProfileData *new_data;
  const guint32 *shown;
  guint n;

  tv_view_state_set_state_filter (base_state, TV_STATE_FILTER_CPU);
  tv_comparison_set_thread_choice (comparison, TV_DIFF_SIDE_BASE, 2);
  settle (comparison);
  g_assert_cmpint (tv_view_state_get_state_filter (new_state), ==, TV_STATE_FILTER_ALL);
  g_assert_cmpuint (tv_comparison_get_thread_choice (comparison, TV_DIFF_SIDE_NEW), ==, 0);
  g_assert_cmpuint (n_samples (comparison, TV_DIFF_SIDE_BASE), ==, 0);
  g_assert_cmpuint (n_samples (comparison, TV_DIFF_SIDE_NEW), ==, 18400);

  /* Linking makes NEW follow BASE at once: its worker, on CPU. */
  tv_comparison_set_link_filters (comparison, TRUE);
  g_assert_true (tv_comparison_get_link_filters (comparison));
  g_assert_cmpint (tv_view_state_get_state_filter (new_state), ==, TV_STATE_FILTER_CPU);
  g_assert_cmpuint (tv_comparison_get_thread_choice (comparison, TV_DIFF_SIDE_NEW), ==, 2);
  new_data = tv_profile_get_data (tv_comparison_get_profile (comparison, TV_DIFF_SIDE_NEW));
  shown = tv_view_state_get_threads (new_state, &n);
  g_assert_cmpuint (n, ==, 1);
  g_assert_cmpuint (tv_profile_data_get_thread (new_data, shown[0])->thread_id, ==, 201);
  settle (comparison);
  g_assert_cmpuint (n_samples (comparison, TV_DIFF_SIDE_NEW), ==, 1500);

  /* NEW's change goes to BASE too: the main threads, all states. */
  tv_comparison_set_thread_choice (comparison, TV_DIFF_SIDE_NEW, 1);
  tv_view_state_set_state_filter (new_state, TV_STATE_FILTER_ALL);
  g_assert_cmpuint (tv_comparison_get_thread_choice (comparison, TV_DIFF_SIDE_BASE), ==, 1);
  g_assert_cmpint (tv_view_state_get_state_filter (base_state), ==, TV_STATE_FILTER_ALL);
  settle (comparison);
  g_assert_cmpuint (n_samples (comparison, TV_DIFF_SIDE_BASE), ==, 6400);
  g_assert_cmpuint (n_samples (comparison, TV_DIFF_SIDE_NEW), ==, 6900);

  /* Unlinked again: BASE's choice stays its own. */
  tv_comparison_set_link_filters (comparison, FALSE);
  tv_comparison_set_thread_choice (comparison, TV_DIFF_SIDE_BASE, 0);
  g_assert_cmpuint (tv_comparison_get_thread_choice (comparison, TV_DIFF_SIDE_NEW), ==, 1);
  settle (comparison);

  /* "other" hidden in BASE is hidden in NEW, by NEW's own key for it. */
  tv_view_state_hide_function (base_state, function_key (comparison, TV_DIFF_SIDE_BASE, "other"));
  shown = tv_view_state_get_hidden_functions (new_state, &n);
  g_assert_cmpuint (n, ==, 1);
  g_assert_cmpuint (shown[0], ==, function_key (comparison, TV_DIFF_SIDE_NEW, "other"));
  settle (comparison);
  g_assert_null (find_function (tv_comparison_get_diff (comparison), "other"));
}

/* By share the diff is made again from the same trees, and the warnings
 * that only concern time go; by time they come back. */
static void
test_normalization (Watch         *w,
                    gconstpointer  data)
{
  TvComparison *comparison = w->comparison;
  TvCallTree *trees[2] = { tv_comparison_get_tree (comparison, TV_DIFF_SIDE_BASE),
                           tv_comparison_get_tree (comparison, TV_DIFF_SIDE_NEW) };
  TvDiffOptions options;
  TvDiff *diff;

  /* By time "other" did not change: 3000 samples of 1 ms on both sides. */
  diff = tv_comparison_get_diff (comparison);
  g_assert_cmpfloat_with_epsilon (find_function (diff, "other")->total.relative, 0, 1e-12);

  g_object_set (comparison, "normalization", TV_DIFF_BY_SHARE, NULL);
  g_assert_cmpint (tv_comparison_get_normalization (comparison), ==, TV_DIFF_BY_SHARE);
  g_assert_true (tv_comparison_is_busy (comparison));
  settle (comparison);
  diff = tv_comparison_get_diff (comparison);
  tv_diff_get_options (diff, &options);
  g_assert_cmpint (options.normalization, ==, TV_DIFF_BY_SHARE);
  for (guint side = 0; side < 2; side++)
    g_assert_true (tv_comparison_get_tree (comparison, side) == trees[side]);
  g_assert_cmpuint (w->n_trees[0] + w->n_trees[1], ==, 0);
  g_assert_cmpuint (w->n_diff, ==, 1);
  /* By share it lost a sixth: 3000 of 15400 samples, then 3000 of 18400. */
  g_assert_cmpfloat_with_epsilon (find_function (diff, "other")->total.relative,
                                  15400.0 / 18400.0 - 1, 1e-12);
  g_assert_cmpuint (tv_comparison_get_warnings (comparison)->len, ==, 0);
  g_assert_cmpuint (w->n_warnings, ==, 1);

  tv_comparison_set_normalization (comparison, TV_DIFF_BY_TIME);
  settle (comparison);
  g_assert_cmpuint (tv_comparison_get_warnings (comparison)->len, ==, 1);
  g_assert_cmpuint (w->n_warnings, ==, 2);
}

/* Another merge key queries both sides again, with it. */
static void
test_merge (Watch         *w,
            gconstpointer  data)
{
  TvComparison *comparison = w->comparison;

  g_object_set (comparison, "merge", TV_MERGE_LINE, NULL);
  g_assert_cmpint (tv_comparison_get_merge (comparison), ==, TV_MERGE_LINE);
  for (guint side = 0; side < 2; side++)
    g_assert_cmpint (tv_view_state_get_merge (tv_comparison_get_view_state (comparison, side)),
                     ==, TV_MERGE_LINE);
  settle (comparison);
  for (guint side = 0; side < 2; side++)
    g_assert_cmpint (tv_call_tree_get_merge (tv_comparison_get_tree (comparison, side)), ==,
                     TV_MERGE_LINE);
  g_assert_true (w->trees_match_diff);
}

/* Cancelled while loading: it fails at once, says so, and its loads stop. */
static void
test_cancel_loading (void)
{
  g_autoptr(GFile) file = g_file_new_for_path (big_path);
  g_autoptr(TvProfile) base = tv_profile_new (file);
  g_autoptr(TvProfile) other = tv_profile_new (file);
  TvComparison *comparison = tv_comparison_new (base, other);
  Watch w;

  watch_init (&w, comparison);
  while (tv_profile_get_state (base) < TV_PROFILE_DECODING)
    g_main_context_iteration (NULL, TRUE);
  tv_comparison_cancel (comparison);
  g_assert_cmpint (tv_comparison_get_state (comparison), ==, TV_COMPARISON_FAILED);
  g_assert_error (tv_comparison_get_error (comparison), G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_false (tv_comparison_is_busy (comparison));
  while (tv_profile_get_state (base) < TV_PROFILE_LOADED
         || tv_profile_get_state (other) < TV_PROFILE_LOADED)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpint (tv_profile_get_state (base), ==, TV_PROFILE_FAILED);
  g_assert_cmpint (tv_profile_get_state (other), ==, TV_PROFILE_FAILED);
  spin (100);
  g_assert_cmpint (tv_comparison_get_state (comparison), ==, TV_COMPARISON_FAILED);
  g_assert_null (tv_comparison_get_diff (comparison));
  /* Nothing more to do: no swap, no round. */
  tv_comparison_swap (comparison);
  tv_comparison_set_normalization (comparison, TV_DIFF_BY_SHARE);
  g_assert_false (tv_comparison_is_busy (comparison));
  watch_finish (&w);
}

/* Cancelled once ready: the round running is dropped, the diff shown
 * stays, and later changes make rounds again. */
static void
test_cancel_ready (Watch         *w,
                   gconstpointer  data)
{
  TvComparison *comparison = w->comparison;
  TvDiff *diff = tv_comparison_get_diff (comparison);

  start_round (comparison, TV_DIFF_SIDE_BASE, TV_STATE_FILTER_CPU);
  tv_comparison_cancel (comparison);
  g_assert_false (tv_comparison_is_busy (comparison));
  spin (300);
  g_assert_cmpint (tv_comparison_get_state (comparison), ==, TV_COMPARISON_READY);
  g_assert_true (tv_comparison_get_diff (comparison) == diff);
  g_assert_cmpuint (w->n_diff, ==, 0);
  g_assert_null (tv_comparison_get_error (comparison));

  start_round (comparison, TV_DIFF_SIDE_BASE, TV_STATE_FILTER_ALL);
  settle (comparison);
  g_assert_cmpuint (w->n_diff, ==, 1);
}

/* A profile that cannot be loaded fails the comparison, naming its side;
 * one that failed before says so too. */
static void
test_failed (void)
{
  g_autofree char *missing = g_build_filename (tmp_dir, "missing.tach", NULL);
  g_autoptr(GFile) a = g_file_new_for_path (base_path);
  g_autoptr(GFile) b = g_file_new_for_path (missing);
  g_autoptr(TvProfile) base = tv_profile_new (a);
  g_autoptr(TvProfile) gone = tv_profile_new (b);
  TvComparison *comparison = tv_comparison_new (base, gone);
  const GError *error;
  Watch w;

  watch_init (&w, comparison);
  settle (comparison);
  g_assert_cmpint (tv_comparison_get_state (comparison), ==, TV_COMPARISON_FAILED);
  g_assert_cmpint (tv_comparison_get_failed_side (comparison), ==, TV_DIFF_SIDE_NEW);
  error = tv_comparison_get_error (comparison);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
  g_assert_nonnull (error->message);
  watch_finish (&w);

  /* GONE has failed: a new comparison with it fails at once, as BASE. */
  g_assert_cmpint (tv_profile_get_state (gone), ==, TV_PROFILE_FAILED);
  comparison = tv_comparison_new (gone, base);
  watch_init (&w, comparison);
  g_assert_cmpint (tv_comparison_get_state (comparison), ==, TV_COMPARISON_FAILED);
  g_assert_cmpint (tv_comparison_get_failed_side (comparison), ==, TV_DIFF_SIDE_BASE);
  g_assert_nonnull (tv_comparison_get_error (comparison));
  g_assert_false (tv_comparison_is_busy (comparison));
  watch_finish (&w);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GError) error = NULL;
  int ret;

  g_test_init (&argc, &argv, NULL);

  tmp_dir = g_dir_make_tmp ("tv-comparison-XXXXXX", &error);
  g_assert_no_error (error);
  base_path = g_build_filename (tmp_dir, "base.tach", NULL);
  new_path = g_build_filename (tmp_dir, "new.tach", NULL);
  big_path = g_build_filename (tmp_dir, "big.tach", NULL);
  write_runs (base_path, base_runs, G_N_ELEMENTS (base_runs), TRUE);
  write_runs (new_path, new_runs, G_N_ELEMENTS (new_runs), FALSE);
  write_big (big_path);

  g_test_add_func ("/model/comparison/ready", test_ready);
  g_test_add_func ("/model/comparison/loaded-profiles", test_loaded_profiles);
  g_test_add ("/model/comparison/stale-dropped", Watch, NULL, pair_setup, test_stale_dropped,
              pair_teardown);
  g_test_add ("/model/comparison/swap", Watch, NULL, pair_setup, test_swap,
              pair_teardown);
  g_test_add ("/model/comparison/link-filters", Watch, NULL, pair_setup, test_link_filters,
              pair_teardown);
  g_test_add ("/model/comparison/normalization", Watch, NULL, pair_setup, test_normalization,
              pair_teardown);
  g_test_add ("/model/comparison/merge", Watch, NULL, pair_setup, test_merge,
              pair_teardown);
  g_test_add_func ("/model/comparison/cancel-loading", test_cancel_loading);
  g_test_add ("/model/comparison/cancel-ready", Watch, NULL, pair_setup, test_cancel_ready,
              pair_teardown);
  g_test_add_func ("/model/comparison/failed", test_failed);

  ret = g_test_run ();

  g_unlink (base_path);
  g_unlink (new_path);
  g_unlink (big_path);
  g_rmdir (tmp_dir);
  g_free (base_path);
  g_free (new_path);
  g_free (big_path);
  g_free (tmp_dir);
  return ret;
}
