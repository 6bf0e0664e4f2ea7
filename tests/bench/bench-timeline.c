/* bench-timeline.c: tachyon-bench --timeline
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Times what the timeline costs once a profile is loaded:
 *
 *   build_ms   tv_timeline_new (), the bins of every lane, once;
 *   draw_ms    the median full draw of the timeline at 1920x1080 onto an
 *              image surface, over windows from the whole profile down to
 *              1 ms (a geometric series of widths, each at a random place),
 *              every lane shown (the first ones expanded, the rest
 *              collapsed, as many expanded as fit); draw_max_ms the worst;
 *   select_ms  the median re-aggregation of a range selection: one
 *              tv_call_tree_new () with has_range over a random tenth of
 *              the time span, merged by frame (the default view), with the
 *              count of the selected samples the widget shows beside it;
 *   heatmap_build_ms       the median tv_timeline_heatmap_new () of every
 *                          thread, 20 ms rows, as the heatmap view makes it;
 *   heatmap_first_draw_ms  the median first draw of a new heatmap at
 *                          1920x1080 (it makes the image of the cells);
 *   heatmap_draw_ms        the median draw after that, with a random
 *                          rectangle of cells selected and being dragged,
 *                          as the view redraws while the pointer moves;
 *   heatmap_select_ms      the median re-aggregation of that rectangle's
 *                          samples: tv_call_tree_new () with its ranges.
 *
 * Times are wall-clock; draw_cpu_ms and select_cpu_ms are the same medians
 * in the thread's CPU time, which says how much work they are when other
 * processes share the machine.
 */

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "bench.h"
#include "tv-call-tree.h"
#include "tv-timeline-renderer.h"

static gint   opt_runs = 9;
static gint   opt_zooms = 25;
static gint64 opt_seed = 1;
static gint   opt_width = 1920;
static gint   opt_height = 1080;
static char  *opt_png = NULL;

static const GOptionEntry timeline_entries[] = {
  { "runs", 0, 0, G_OPTION_ARG_INT, &opt_runs,
    "Number of range selections and heatmaps; the median is reported (default 9)", "R" },
  { "zooms", 0, 0, G_OPTION_ARG_INT, &opt_zooms,
    "Number of windows drawn, from the whole profile down to 1 ms (default 25)", "Z" },
  { "seed", 0, 0, G_OPTION_ARG_INT64, &opt_seed,
    "Seed of the random windows and ranges (default 1)", "S" },
  { "width", 0, 0, G_OPTION_ARG_INT, &opt_width, "Width in pixels (default 1920)", "W" },
  { "height", 0, 0, G_OPTION_ARG_INT, &opt_height, "Height in pixels (default 1080)", "H" },
  { "png", 0, 0, G_OPTION_ARG_FILENAME, &opt_png,
    "Also save the drawing of the whole profile to FILE", "FILE" },
  { NULL }
};

static double
thread_cpu_seconds (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return (double) ts.tv_sec + (double) ts.tv_nsec * 1e-9;
}

static const char *const state_labels[TV_TIMELINE_N_STATES] = {
  "Holding the GIL", "On CPU", "Waiting for the GIL", "Exception", "Idle", "Unknown",
};

/* Expands as many lanes as fit with the others collapsed; FLAGS gets the
 * collapsed ones.  Each lane expanded takes the difference of the two
 * default heights (18 and 4 pixels): one layout, whatever the lanes. */
static void
fit_lanes (TvTimelineRenderer *renderer,
           TvTimeline         *timeline,
           TvTimelineStyle    *style,
           guint8             *flags)
{
  guint n, fit;
  const guint32 *order = tv_timeline_get_order (timeline, &n);
  double available, content;

  memset (flags, TV_TIMELINE_LANE_COLLAPSED, n);
  style->lane_flags = flags;
  style->lanes_serial = 0;
  tv_timeline_renderer_get_lanes_area (renderer, timeline, style, NULL, &available, &content);
  fit = content >= available ? 0 : (guint) MIN ((available - content) / (18 - 4), n);
  for (guint p = 0; p < fit; p++)
    flags[order[p]] = 0;
  /* As the timeline view draws: the rows laid out once for every frame. */
  style->lanes_serial = 1;
}

/* What time_heatmap () times, in milliseconds. */
enum
{
  HEATMAP_BUILD,
  HEATMAP_FIRST_DRAW,
  HEATMAP_DRAW,
  HEATMAP_SELECT,
  N_HEATMAP_TIMES
};

/* A random rectangle of HEATMAP's cells, as a drag selects; its ranges
 * go to RANGES (free with g_free ()). */
static TvTimeRange *
random_cells (TvTimelineHeatmap *heatmap,
              GRand             *rand,
              TvHeatmapStyle    *style,
              guint             *n_ranges)
{
  guint n_columns = tv_timeline_heatmap_get_n_columns (heatmap);
  guint n_rows = tv_timeline_heatmap_get_n_rows (heatmap);

  style->has_drag = TRUE;
  style->drag_column0 = g_rand_int_range (rand, 0, n_columns);
  style->drag_column1 = g_rand_int_range (rand, 0, n_columns);
  style->drag_row0 = g_rand_int_range (rand, 0, n_rows);
  style->drag_row1 = g_rand_int_range (rand, 0, n_rows);
  return tv_timeline_heatmap_select (heatmap, style->drag_column0, style->drag_row0,
                                     style->drag_column1, style->drag_row1, n_ranges);
}

/* One heatmap of every thread: made, drawn, drawn again with a rectangle
 * of cells selected, whose samples are then queried.  FALSE (with a
 * message) when the query's samples are not the cells'. */
static gboolean
time_heatmap (TvProfileData      *data,
              TvTimeline         *timeline,
              TvTimelineRenderer *renderer,
              cairo_t            *cr,
              GRand              *rand,
              double              times[N_HEATMAP_TIMES])
{
  g_autoptr (TvTimelineHeatmap) heatmap = NULL;
  g_autoptr (TvCallTree) tree = NULL;
  g_autofree TvTimeRange *ranges = NULL;
  TvHeatmapStyle style;
  TvQuery query;
  guint n_ranges;
  guint64 expected;
  double t0;

  t0 = bench_now_seconds ();
  heatmap = tv_timeline_heatmap_new (timeline, NULL, 0, 0, 0, TV_HEATMAP_ROW_DURATION, NULL);
  times[HEATMAP_BUILD] = (bench_now_seconds () - t0) * 1e3;

  tv_heatmap_style_init (&style, opt_width, opt_height);
  style.draw_background = TRUE;
  style.legend_label = "samples per cell";
  t0 = bench_now_seconds ();
  tv_timeline_renderer_draw_heatmap (renderer, cr, heatmap, &style);
  cairo_surface_flush (cairo_get_target (cr));
  times[HEATMAP_FIRST_DRAW] = (bench_now_seconds () - t0) * 1e3;

  ranges = random_cells (heatmap, rand, &style, &n_ranges);
  style.selection = ranges;
  style.n_selection = n_ranges;
  t0 = bench_now_seconds ();
  tv_timeline_renderer_draw_heatmap (renderer, cr, heatmap, &style);
  cairo_surface_flush (cairo_get_target (cr));
  times[HEATMAP_DRAW] = (bench_now_seconds () - t0) * 1e3;

  tv_query_init (&query, TV_MERGE_FRAME);
  query.ranges = ranges;
  query.n_ranges = n_ranges;
  t0 = bench_now_seconds ();
  tree = tv_call_tree_new (data, &query, NULL);
  times[HEATMAP_SELECT] = (bench_now_seconds () - t0) * 1e3;
  expected = tv_timeline_count_ranges (timeline, TV_TIMELINE_ALL, ranges, n_ranges, NULL);
  if (tree == NULL || tv_call_tree_get_n_samples (tree) != expected)
    {
      g_printerr ("tachyon-bench: the heatmap selection's tree has %" G_GUINT64_FORMAT
                  " samples, its cells %" G_GUINT64_FORMAT "\n",
                  tree != NULL ? tv_call_tree_get_n_samples (tree) : 0, expected);
      return FALSE;
    }
  return TRUE;
}

static int
run_timeline (char **args)
{
  const char *path = args[0];
  g_autoptr (GError) error = NULL;
  g_autoptr (TvProfileData) data = NULL;
  g_autoptr (TvTimeline) timeline = NULL;
  g_autoptr (TvTimelineRenderer) renderer = NULL;
  g_autoptr (GRand) rand = NULL;
  g_autofree double *draws = NULL;
  g_autofree double *draws_cpu = NULL;
  g_autofree double *selects = NULL;
  g_autofree double *selects_cpu = NULL;
  g_autofree guint8 *flags = NULL;
  g_autofree double *heatmap_times = NULL;      /* N_HEATMAP_TIMES rows of opt_runs */
  double heatmap_medians[N_HEATMAP_TIMES];
  cairo_surface_t *surface;
  cairo_t *cr;
  TvTimelineStyle style;
  guint64 first, last, duration, selected = 0;
  double t0, c0, build_ms, draw_max = 0, count_ms = 0;

  if (opt_runs < 1 || opt_runs > 1000 || opt_zooms < 2 || opt_zooms > 1000)
    {
      g_printerr ("tachyon-bench: --runs must be between 1 and 1000, --zooms between 2 and"
                  " 1000\n");
      return 1;
    }
  if (opt_width < 64 || opt_width > 16384 || opt_height < 64 || opt_height > 16384)
    {
      g_printerr ("tachyon-bench: --width and --height must be between 64 and 16384\n");
      return 1;
    }

  data = bench_load_data (path);
  if (data == NULL)
    return 1;
  if (!tv_profile_data_get_time_span (data, &first, &last))
    {
      g_printerr ("tachyon-bench: %s has no samples\n", path);
      return 1;
    }

  t0 = bench_now_seconds ();
  timeline = tv_timeline_new (data, NULL);
  build_ms = (bench_now_seconds () - t0) * 1e3;
  duration = tv_timeline_get_duration (timeline);
  rand = g_rand_new_with_seed ((guint32) opt_seed);

  /* Draws: the first (which shapes the labels) is not counted. */
  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, opt_width, opt_height);
  cr = cairo_create (surface);
  renderer = tv_timeline_renderer_new (NULL);
  tv_timeline_style_init (&style, timeline, opt_width, opt_height);
  style.draw_background = TRUE;
  style.main_label = "main";
  style.overview_label = "All threads";
  style.interpreter_format = "Interpreter %u";
  for (guint s = 0; s < TV_TIMELINE_N_STATES; s++)
    style.state_labels[s] = state_labels[s];
  flags = g_new0 (guint8, MAX (tv_timeline_get_n_lanes (timeline), 1));
  fit_lanes (renderer, timeline, &style, flags);
  tv_timeline_renderer_draw (renderer, cr, timeline, &style);
  if (opt_png != NULL)
    {
      cairo_surface_flush (surface);
      if (cairo_surface_write_to_png (surface, opt_png) != CAIRO_STATUS_SUCCESS)
        {
          g_printerr ("tachyon-bench: cannot write %s\n", opt_png);
          return 1;
        }
    }

  draws = g_new (double, opt_zooms);
  draws_cpu = g_new (double, opt_zooms);
  for (gint z = 0; z < opt_zooms; z++)
    {
      /* From the whole profile down to 1 ms, evenly on a log scale. */
      double span = (double) duration * pow (MIN (1000.0 / duration, 1.0),
                                             (double) z / (opt_zooms - 1));
      double start = z == 0 ? 0 : g_rand_double_range (rand, 0, MAX (duration - span, 0));

      style.t0 = start;
      style.t1 = start + MAX (span, 1);
      t0 = bench_now_seconds ();
      c0 = thread_cpu_seconds ();
      tv_timeline_renderer_draw (renderer, cr, timeline, &style);
      cairo_surface_flush (surface);
      draws[z] = (bench_now_seconds () - t0) * 1e3;
      draws_cpu[z] = (thread_cpu_seconds () - c0) * 1e3;
      draw_max = MAX (draw_max, draws[z]);
    }

  /* Heatmaps of every thread, as many as range selections. */
  heatmap_times = g_new (double, N_HEATMAP_TIMES * opt_runs);
  for (gint run = 0; run < opt_runs; run++)
    {
      double times[N_HEATMAP_TIMES];

      if (!time_heatmap (data, timeline, renderer, cr, rand, times))
        return 1;
      for (guint k = 0; k < N_HEATMAP_TIMES; k++)
        heatmap_times[k * opt_runs + run] = times[k];
    }
  for (guint k = 0; k < N_HEATMAP_TIMES; k++)
    heatmap_medians[k] = bench_median (heatmap_times + k * opt_runs, opt_runs);

  if (cairo_status (cr) != CAIRO_STATUS_SUCCESS)
    {
      g_printerr ("tachyon-bench: cairo: %s\n", cairo_status_to_string (cairo_status (cr)));
      return 1;
    }
  cairo_destroy (cr);
  cairo_surface_destroy (surface);

  /* Range selections. */
  selects = g_new (double, opt_runs);
  selects_cpu = g_new (double, opt_runs);
  for (gint run = 0; run < opt_runs; run++)
    {
      g_autoptr (TvCallTree) tree = NULL;
      guint64 span = MAX (duration / 10, 1);
      guint64 start = first + (guint64) g_rand_double_range (rand, 0, (double) (duration - span));
      TvQuery query;
      double t1;

      tv_query_init (&query, TV_MERGE_FRAME);
      query.has_range = TRUE;
      query.range_start = start;
      query.range_end = start + span;
      t0 = bench_now_seconds ();
      c0 = thread_cpu_seconds ();
      tree = tv_call_tree_new (data, &query, NULL);
      t1 = bench_now_seconds ();
      selects_cpu[run] = (thread_cpu_seconds () - c0) * 1e3;
      selected = tv_timeline_count_range (timeline, TV_TIMELINE_ALL, start, start + span, NULL);
      count_ms = MAX (count_ms, (bench_now_seconds () - t1) * 1e3);
      selects[run] = (t1 - t0) * 1e3;
      if (tree == NULL || tv_call_tree_get_n_samples (tree) != selected)
        {
          g_printerr ("tachyon-bench: the selection's tree has %" G_GUINT64_FORMAT
                      " samples, the timeline counts %" G_GUINT64_FORMAT "\n",
                      tree != NULL ? tv_call_tree_get_n_samples (tree) : 0, selected);
          return 1;
        }
    }

  printf ("{\"lanes\":%u,\"samples\":%" G_GUINT64_FORMAT ",\"build_ms\":%.3f,\"draw_ms\":%.3f"
          ",\"draw_max_ms\":%.3f,\"draw_cpu_ms\":%.3f,\"select_ms\":%.3f"
          ",\"select_cpu_ms\":%.3f,\"count_ms\":%.3f"
          ",\"select_fraction\":%.4f,\"memory_bytes\":%" G_GSIZE_FORMAT
          ",\"heatmap_build_ms\":%.3f,\"heatmap_first_draw_ms\":%.3f,\"heatmap_draw_ms\":%.3f"
          ",\"heatmap_select_ms\":%.3f"
          ",\"width\":%d,\"height\":%d,\"zooms\":%d,\"runs\":%d}\n",
          tv_timeline_get_n_lanes (timeline), tv_profile_data_get_n_samples (data), build_ms,
          bench_median (draws, opt_zooms), draw_max, bench_median (draws_cpu, opt_zooms),
          bench_median (selects, opt_runs), bench_median (selects_cpu, opt_runs), count_ms,
          (double) selected / MAX (tv_profile_data_get_n_samples (data), 1),
          tv_timeline_get_memory_size (timeline), heatmap_medians[HEATMAP_BUILD],
          heatmap_medians[HEATMAP_FIRST_DRAW], heatmap_medians[HEATMAP_DRAW],
          heatmap_medians[HEATMAP_SELECT], opt_width, opt_height, opt_zooms, opt_runs);
  return 0;
}

const BenchMode bench_mode_timeline = {
  "timeline", "FILE", 1,
  "Time building FILE's timeline, drawing it offscreen at 1920x1080 from the whole profile"
  " down to 1 ms, re-aggregating a selected tenth of its time, and making, drawing and"
  " selecting from its heatmap.",
  timeline_entries, run_timeline,
};
