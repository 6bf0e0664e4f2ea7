/* bench-compare.c: tachyon-bench --compare
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Times what the comparison window does each time its view changes, over
 * two profiles that are already loaded: both call trees (merged by
 * function, the window's default) and the TvDiff of them (matching, the
 * exact binomial test per node and function, the unmatched stacks).  In
 * the window the two trees are made at once, on two workers; here they
 * are made one after the other, and "trees_ms" is their sum.  The
 * "_cpu_ms" figures are the process's CPU time for the same work, which a
 * busy machine changes less than the wall-clock time.
 */

#include <stdio.h>

#include "bench.h"
#include "tv-diff.h"

static gint opt_runs = 5;

static const GOptionEntry compare_entries[] = {
  { "runs", 0, 0, G_OPTION_ARG_INT, &opt_runs,
    "Number of runs; the medians are reported (default 5)", "R" },
  { NULL }
};

static int
run_compare (char **args)
{
  g_autoptr (TvProfileData) base = NULL;
  g_autoptr (TvProfileData) new_data = NULL;
  g_autofree double *tree_times = NULL;
  g_autofree double *diff_times = NULL;
  g_autofree double *tree_cpu = NULL;
  g_autofree double *diff_cpu = NULL;
  guint32 nodes[2] = { 0, 0 };
  guint n_functions = 0, n_significant = 0, n_vanished = 0;

  if (opt_runs < 1 || opt_runs > 1000)
    {
      g_printerr ("tachyon-bench: --runs must be between 1 and 1000\n");
      return 1;
    }
  if ((base = bench_load_data (args[0])) == NULL
      || (new_data = bench_load_data (args[1])) == NULL)
    return 1;

  tree_times = g_new0 (double, opt_runs);
  diff_times = g_new0 (double, opt_runs);
  tree_cpu = g_new0 (double, opt_runs);
  diff_cpu = g_new0 (double, opt_runs);
  for (gint run = 0; run < opt_runs; run++)
    {
      g_autoptr (TvCallTree) base_tree = NULL;
      g_autoptr (TvCallTree) new_tree = NULL;
      g_autoptr (TvDiff) diff = NULL;
      const TvDiffFunction *rows;
      TvQuery query;
      double t0, c0;

      tv_query_init (&query, TV_MERGE_FUNCTION);
      t0 = bench_now_seconds ();
      c0 = bench_cpu_seconds ();
      base_tree = tv_call_tree_new (base, &query, NULL);
      new_tree = tv_call_tree_new (new_data, &query, NULL);
      tree_times[run] = (bench_now_seconds () - t0) * 1e3;
      tree_cpu[run] = (bench_cpu_seconds () - c0) * 1e3;

      t0 = bench_now_seconds ();
      c0 = bench_cpu_seconds ();
      diff = tv_diff_new (base_tree, new_tree, NULL, NULL);
      diff_times[run] = (bench_now_seconds () - t0) * 1e3;
      diff_cpu[run] = (bench_cpu_seconds () - c0) * 1e3;
      if (diff == NULL)
        {
          g_printerr ("tachyon-bench: tv_diff_new returned NULL\n");
          return 1;
        }

      nodes[0] = tv_call_tree_get_n_nodes (base_tree);
      nodes[1] = tv_call_tree_get_n_nodes (new_tree);
      rows = tv_diff_get_functions (diff, &n_functions);
      n_significant = 0;
      for (guint i = 0; i < n_functions; i++)
        n_significant += rows[i].total.significant;
      tv_diff_get_unmatched (diff, TV_DIFF_SIDE_BASE, &n_vanished);
    }

  printf ("{\"base_samples\":%" G_GUINT64_FORMAT ",\"new_samples\":%" G_GUINT64_FORMAT
          ",\"trees_ms\":%.3f,\"diff_ms\":%.3f,\"trees_cpu_ms\":%.3f,\"diff_cpu_ms\":%.3f"
          ",\"base_nodes\":%u,\"new_nodes\":%u"
          ",\"functions\":%u,\"significant\":%u,\"vanished_stacks\":%u,\"runs\":%d}\n",
          tv_profile_data_get_n_samples (base), tv_profile_data_get_n_samples (new_data),
          bench_median (tree_times, (guint) opt_runs), bench_median (diff_times, (guint) opt_runs),
          bench_median (tree_cpu, (guint) opt_runs), bench_median (diff_cpu, (guint) opt_runs),
          nodes[0], nodes[1], n_functions, n_significant, n_vanished, opt_runs);
  return 0;
}

const BenchMode bench_mode_compare = {
  "compare", "BASE NEW", 2,
  "Time what the comparison window does when its view changes: both call trees by"
  " function and their diff.",
  compare_entries, run_compare,
};
