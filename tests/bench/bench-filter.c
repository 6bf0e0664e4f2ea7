/* bench-filter.c: tachyon-bench --filter
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Times what the viewer does each time the user changes a filter: one
 * tv_call_tree_new over data that is already loaded, merged by frame (the
 * default view).  Four queries per run:
 *
 *   baseline  no filter
 *   range     a time range a tenth of the profile's time span long, at a
 *             random place (seeded), which holds about a tenth of the
 *             samples when threads are sampled evenly; the fraction it
 *             actually held is reported
 *   state     status "on CPU" (status_mask = status_value = ON_CPU)
 *   inverted  no filter, inverted
 */

#include <stdio.h>
#include <time.h>

#include "bench.h"
#include "tv-call-tree.h"

/* Each query takes milliseconds, so more runs than the other modes cost
 * nothing and steady the median on a busy machine. */
static gint   opt_runs = 7;
static gint64 opt_seed = 1;

static const GOptionEntry filter_entries[] = {
  { "runs", 0, 0, G_OPTION_ARG_INT, &opt_runs,
    "Number of runs; the median of each query is reported (default 7)", "R" },
  { "seed", 0, 0, G_OPTION_ARG_INT64, &opt_seed,
    "Seed of the random time ranges (default 1)", "S" },
  { NULL }
};

enum
{
  QUERY_BASELINE,
  QUERY_RANGE,
  QUERY_STATE,
  QUERY_INVERTED,
  N_QUERIES
};

static const char *const query_names[N_QUERIES] = {
  "baseline", "range", "state", "inverted",
};

/* The call trees are built on one thread; its CPU time says how much
 * work a query is even when the machine is busy. */
static double
thread_cpu_seconds (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return (double) ts.tv_sec + (double) ts.tv_nsec * 1e-9;
}

/* Builds the tree of QUERY and returns the samples it selected. */
static gboolean
time_query (TvProfileData *data,
            const TvQuery *query,
            double        *ms,
            double        *cpu_ms,
            guint64       *n_samples,
            guint32       *n_nodes)
{
  g_autoptr (TvCallTree) tree = NULL;
  double t0 = bench_now_seconds ();
  double c0 = thread_cpu_seconds ();

  tree = tv_call_tree_new (data, query, NULL);
  *ms = (bench_now_seconds () - t0) * 1e3;
  *cpu_ms = (thread_cpu_seconds () - c0) * 1e3;
  if (tree == NULL)
    {
      g_printerr ("tachyon-bench: tv_call_tree_new returned NULL\n");
      return FALSE;
    }
  *n_samples = tv_call_tree_get_n_samples (tree);
  *n_nodes = tv_call_tree_get_n_nodes (tree);
  return TRUE;
}

/* The median of query Q's row of TIMES. */
static double
median_ms (double *times,
           guint   q)
{
  return bench_median (times + q * opt_runs, (guint) opt_runs);
}

static int
run_filter (char **args)
{
  const char *path = args[0];
  g_autoptr (GError) error = NULL;
  g_autoptr (TvProfileData) data = NULL;
  g_autoptr (GRand) rng = NULL;
  g_autoptr (GString) json = g_string_new (NULL);
  /* N_QUERIES rows of opt_runs times each. */
  g_autofree double *times = NULL;
  g_autofree double *cpu_times = NULL;
  g_autofree double *fractions = NULL;
  guint64 selected[N_QUERIES] = { 0 };
  guint32 nodes[N_QUERIES] = { 0 };
  guint64 n_samples, first, last, span, width;
  double load_s, t0;
  double fraction_min = 1.0, fraction_max = 0.0;

  if (opt_runs < 1 || opt_runs > 1000)
    {
      g_printerr ("tachyon-bench: --runs must be between 1 and 1000\n");
      return 1;
    }

  t0 = bench_now_seconds ();
  data = bench_load_data (path);
  if (data == NULL)
    return 1;
  load_s = bench_now_seconds () - t0;

  n_samples = tv_profile_data_get_n_samples (data);
  if (!tv_profile_data_get_time_span (data, &first, &last))
    {
      g_printerr ("tachyon-bench: %s: no samples\n", path);
      return 1;
    }
  /* Ranges are half-open, so the span counts the last microsecond too. */
  span = last - first + 1;
  width = MAX (span / 10, 1);

  rng = g_rand_new_with_seed ((guint32) opt_seed ^ (guint32) ((guint64) opt_seed >> 32));
  times = g_new0 (double, N_QUERIES * opt_runs);
  cpu_times = g_new0 (double, N_QUERIES * opt_runs);
  fractions = g_new0 (double, opt_runs);

  for (gint run = 0; run < opt_runs; run++)
    {
      for (guint q = 0; q < N_QUERIES; q++)
        {
          TvQuery query;
          guint64 n = 0;

          tv_query_init (&query, TV_MERGE_FRAME);
          switch (q)
            {
            case QUERY_RANGE:
              query.has_range = TRUE;
              query.range_start = first + (guint64) (g_rand_double (rng)
                                                     * (double) (span - width + 1));
              query.range_start = MIN (query.range_start, first + (span - width));
              query.range_end = query.range_start + width;
              break;
            case QUERY_STATE:
              query.status_mask = TACH_STATUS_ON_CPU;
              query.status_value = TACH_STATUS_ON_CPU;
              break;
            case QUERY_INVERTED:
              query.inverted = TRUE;
              break;
            default:
              break;
            }

          if (!time_query (data, &query, &times[q * opt_runs + run],
                           &cpu_times[q * opt_runs + run], &n, &nodes[q]))
            return 1;
          selected[q] = n;
          if ((q == QUERY_BASELINE || q == QUERY_INVERTED) && n != n_samples)
            {
              g_printerr ("tachyon-bench: the %s tree holds %" G_GUINT64_FORMAT
                          " of %" G_GUINT64_FORMAT " samples\n",
                          query_names[q], n, n_samples);
              return 1;
            }
          if (q == QUERY_RANGE)
            {
              fractions[run] = (double) n / (double) n_samples;
              fraction_min = MIN (fraction_min, fractions[run]);
              fraction_max = MAX (fraction_max, fractions[run]);
            }
        }
    }

  /* A tenth of the span holds about a tenth of the samples only if the
   * threads were sampled evenly over time; say so when they were not. */
  if (fraction_min < 0.05 || fraction_max > 0.2)
    g_printerr ("tachyon-bench: warning: the time ranges held %.3f to %.3f of the samples,"
                " not about 0.1\n", fraction_min, fraction_max);

  g_string_append_printf (json, "{\"samples\":%" G_GUINT64_FORMAT
                          ",\"range_ms\":%.3f,\"state_ms\":%.3f",
                          n_samples,
                          median_ms (times, QUERY_RANGE),
                          median_ms (times, QUERY_STATE));
  g_string_append_printf (json, ",\"range_fraction\":%.4f"
                          ",\"range_fraction_min\":%.4f,\"range_fraction_max\":%.4f"
                          ",\"state_fraction\":%.4f",
                          bench_median (fractions, (guint) opt_runs),
                          fraction_min, fraction_max,
                          (double) selected[QUERY_STATE] / (double) n_samples);
  g_string_append_printf (json, ",\"baseline_ms\":%.3f,\"inverted_ms\":%.3f",
                          median_ms (times, QUERY_BASELINE),
                          median_ms (times, QUERY_INVERTED));
  for (guint q = 0; q < N_QUERIES; q++)
    g_string_append_printf (json, ",\"%s_cpu_ms\":%.3f", query_names[q],
                            median_ms (cpu_times, q));
  g_string_append_printf (json, ",\"exact_nodes\":%u,\"view_nodes\":%u"
                          ",\"inverted_nodes\":%u,\"threads\":%u"
                          ",\"range_us\":%" G_GUINT64_FORMAT
                          ",\"span_us\":%" G_GUINT64_FORMAT
                          ",\"load_seconds\":%.3f,\"runs\":%d,\"seed\":%" G_GINT64_FORMAT "}",
                          tv_profile_data_get_tree (data)->n_nodes,
                          nodes[QUERY_BASELINE], nodes[QUERY_INVERTED],
                          tv_profile_data_get_n_threads (data),
                          width, span, load_s, opt_runs, opt_seed);
  printf ("%s\n", json->str);
  return 0;
}

const BenchMode bench_mode_filter = {
  "filter", "FILE", 1,
  "Time call trees over FILE's loaded samples: a 10% time range, on-CPU"
  " samples, no filter and inverted.",
  filter_entries, run_filter,
};
