/* bench-cancel.c: tachyon-bench --cancel
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * How soon a load stops once it is cancelled: tv_profile_data_load on
 * FILE, cancelled from its progress callback at the first report past a
 * third of the samples (the callback runs on the loading thread, so the
 * cancel lands at a known sample), timed until the load returns.  The
 * tests check that a cancel is seen (tests/model/test-profile-load.c);
 * this says how long it takes, which a busy machine changes.
 *
 *   cancel_ms      median, min and max over the runs: from the cancel to
 *   cancel_min_ms  the load's return, wall clock
 *   cancel_max_ms
 *   cancel_cpu_ms  the median CPU time of that stretch, all threads
 *   cancelled_at   the samples decoded when the cancel came (last run)
 */

#include <stdio.h>

#include "bench.h"
#include "tv-json.h"
#include "tv-profile-data.h"

static gint opt_runs = 5;

static const GOptionEntry cancel_entries[] = {
  { "runs", 0, 0, G_OPTION_ARG_INT, &opt_runs,
    "Number of runs; the median is reported (default 5)", "R" },
  { NULL }
};

typedef struct
{
  GCancellable *cancellable;
  guint64       cancel_from;    /* samples */
  guint64       cancelled_at;
  double        t0;
  double        c0;
} Run;

static void
on_progress (guint64  samples,
             double   fraction,
             gpointer user_data)
{
  Run *r = user_data;

  if (r->cancelled_at != 0 || samples < r->cancel_from || fraction >= 1.0)
    return;
  r->cancelled_at = samples;
  r->t0 = bench_now_seconds ();
  r->c0 = bench_cpu_seconds ();
  g_cancellable_cancel (r->cancellable);
}

static int
run_cancel (char **args)
{
  const char *path = args[0];
  g_autoptr (GString) json = g_string_new (NULL);
  g_autofree double *wall = NULL;
  g_autofree double *cpu = NULL;
  guint64 samples = 0, cancelled_at = 0;
  double min_ms = G_MAXDOUBLE, max_ms = 0;

  if (opt_runs < 1 || opt_runs > 1000)
    {
      g_printerr ("tachyon-bench: --runs must be between 1 and 1000\n");
      return 1;
    }
  wall = g_new0 (double, opt_runs);
  cpu = g_new0 (double, opt_runs);

  for (gint i = 0; i < opt_runs; i++)
    {
      g_autoptr (GCancellable) cancellable = g_cancellable_new ();
      g_autoptr (GError) error = NULL;
      TachReader *reader = NULL;
      TachError tach_error = { 0 };
      TvProfileData *data;
      Run r = { cancellable, 0, 0, 0, 0 };

      if (tach_reader_open_path (path, &reader, &tach_error) != TACH_OK)
        return bench_fail_tach (path, &tach_error);
      samples = tach_reader_get_header (reader)->sample_count;
      r.cancel_from = samples / 3;
      data = tv_profile_data_load (reader, on_progress, &r, cancellable, &error);
      if (data != NULL)
        {
          tv_profile_data_unref (data);
          g_printerr ("tachyon-bench: %s loaded before a progress report past a third of "
                      "it: nothing to cancel (take a bigger file)\n", path);
          return 1;
        }
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          g_printerr ("tachyon-bench: %s: %s\n", path, error->message);
          return 1;
        }
      wall[i] = (bench_now_seconds () - r.t0) * 1e3;
      cpu[i] = (bench_cpu_seconds () - r.c0) * 1e3;
      min_ms = MIN (min_ms, wall[i]);
      max_ms = MAX (max_ms, wall[i]);
      cancelled_at = r.cancelled_at;
    }

  g_string_append (json, "{\"file\":");
  tv_json_append_string (json, path, -1);
  g_string_append_printf (json, ",\"samples\":%" G_GUINT64_FORMAT ",\"runs\":%d,"
                          "\"cancelled_at\":%" G_GUINT64_FORMAT ",\"cancel_ms\":%.3f,"
                          "\"cancel_min_ms\":%.3f,\"cancel_max_ms\":%.3f,"
                          "\"cancel_cpu_ms\":%.3f}",
                          samples, opt_runs, cancelled_at, bench_median (wall, opt_runs),
                          min_ms, max_ms, bench_median (cpu, opt_runs));
  printf ("%s\n", json->str);
  return 0;
}

const BenchMode bench_mode_cancel = {
  .name = "cancel",
  .parameters = "FILE",
  .n_args = 1,
  .summary = "how soon a load stops once cancelled, a third of the way in",
  .entries = cancel_entries,
  .run = run_cancel,
};
