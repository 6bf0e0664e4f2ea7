/* test-timeline-highlight.c: the samples of chosen functions over time
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * For every profile of the corpus and a few functions of each, the
 * highlight's counts, per lane and for the overview, over whole windows
 * and zoomed ones, under a state filter and a lane subset, must equal a
 * brute-force count over every sample: its leaf's stack walked up to the
 * root, its time put in the column by the columns' definition.  Drawn,
 * the overview has an accent bar in exactly the pixel columns with
 * highlighted samples, and each heatmap cell is tinted by its share.
 */
#include <math.h>

#include "model-fixture.h"
#include "tv-timeline-highlight.h"
#include "tv-timeline-renderer.h"

G_DEFINE_AUTOPTR_CLEANUP_FUNC (cairo_surface_t, cairo_surface_destroy)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (cairo_t, cairo_destroy)

static guint32 base_seed;

/* Whether the stack of NODE holds a frame of function FUNCTION. */
static gboolean
stack_holds (const TvExactTree *tree,
             const guint32     *function_keys,
             guint32            node,
             guint32            function)
{
  for (; node != TV_ROOT_NODE && node != TV_NODE_NONE; node = tv_exact_tree_parent (tree, node))
    if (function_keys[tv_exact_tree_frame (tree, node)] == function)
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

      gboolean many = lane == TV_TIMELINE_ALL || lane == TV_TIMELINE_HIGHLIGHT_GROUP;

      if (!many && lane != t)
        continue;
      if (many && lanes != NULL && !lanes[t])
        continue;
      for (guint64 r = 0; r < thread->n_runs; r++)
        {
          guint64 end = r + 1 < thread->n_runs ? thread->run_start[r + 1] : thread->n_samples;

          if (!stack_holds (tree, function_keys, thread->run_leaf[r], function))
            continue;
          for (guint64 s = thread->run_start[r]; s < end; s++)
            {
              double time = (double) (tv_times_get (&thread->times, s) - origin);

              if ((tv_statuses_get (&thread->statuses, s) & mask) != value)
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
  /* The overview adds up LANES, and so does the group, when given. */
  highlight = tv_timeline_highlight_new (timeline, marks, n_frames, lanes, lanes, mask, value,
                                         NULL);
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
  g_assert_cmpuint (tv_timeline_highlight_get_n_samples (highlight, TV_TIMELINE_HIGHLIGHT_GROUP),
                    ==, lanes != NULL ? sum : 0);
  if (lanes != NULL)
    check_window (highlight, TV_TIMELINE_HIGHLIGHT_GROUP, lanes, function, mask, value,
                  0, MAX (duration, 1), 53);
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
  /* Consecutive ranges in one pass count what each range alone does. */
  {
    guint64 origin = tv_timeline_get_origin (timeline);
    guint64 edges[41], counts[40];

    edges[0] = origin + g_rand_int_range (rand, 0, 10);
    for (guint i = 1; i < G_N_ELEMENTS (edges); i++)
      edges[i] = edges[i - 1] + g_rand_int_range (rand, 0, MAX ((int) (duration / 30), 2));
    for (guint lane = 0; lane < MIN (tv_timeline_get_n_lanes (timeline), 3); lane++)
      {
        tv_timeline_highlight_count_edges (highlight, lane, edges, G_N_ELEMENTS (counts), counts);
        for (guint i = 0; i < G_N_ELEMENTS (counts); i++)
          g_assert_cmpuint (counts[i], ==, tv_timeline_highlight_count_range (highlight, lane,
                                                                              edges[i],
                                                                              edges[i + 1]));
      }
    tv_timeline_highlight_count_edges (highlight, TV_TIMELINE_ALL, edges, G_N_ELEMENTS (counts),
                                       counts);
    for (guint i = 0; i < G_N_ELEMENTS (counts); i++)
      g_assert_cmpuint (counts[i], ==, tv_timeline_highlight_count_range (highlight,
                                                                          TV_TIMELINE_ALL,
                                                                          edges[i],
                                                                          edges[i + 1]));
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
  g_autofree guint64 *node_samples = tv_profile_data_count_node_samples (data);
  guint64 with_stack = 0;

  none = tv_timeline_highlight_new (timeline, marks, n_frames, NULL, NULL, 0, 0, NULL);
  g_assert_cmpuint (tv_timeline_highlight_get_n_samples (none, TV_TIMELINE_ALL), ==, 0);
  memset (marks, 1, n_frames);
  all = tv_timeline_highlight_new (timeline, marks, n_frames, NULL, NULL, 0, 0, NULL);
  for (guint32 node = 1; node < tree->n_nodes; node++)
    with_stack += node_samples[node];
  g_assert_cmpuint (with_stack, >, 0);
  g_assert_cmpuint (tv_timeline_highlight_get_n_samples (all, TV_TIMELINE_ALL), ==, with_stack);

  g_cancellable_cancel (cancellable);
  g_assert_null (tv_timeline_highlight_new (timeline, marks, n_frames, NULL, NULL, 0, 0,
                                            cancellable));
}

static cairo_surface_t *
new_surface (double width,
             double height)
{
  return cairo_image_surface_create (CAIRO_FORMAT_ARGB32, (int) width, (int) height);
}

static guint32
pixel_at (cairo_surface_t *surface,
          int              x,
          int              y)
{
  const guchar *data = cairo_image_surface_get_data (surface);
  int stride = cairo_image_surface_get_stride (surface);

  return *(const guint32 *) (gconstpointer) (data + (gsize) y * stride + (gsize) x * 4)
         & 0xffffff;
}

static gboolean
near_color (guint32         pixel,
            TvTimelineColor color)
{
  guint32 want = tv_color_pack (color);

  for (int shift = 0; shift < 24; shift += 8)
    if (ABS ((int) ((pixel >> shift) & 0xff) - (int) ((want >> shift) & 0xff)) > 2)
      return FALSE;
  return TRUE;
}

static TvTimelineHighlight *
highlight_for (TvTimeline *timeline,
               const char *funcname)
{
  TvProfileData *data = tv_timeline_get_data (timeline);
  guint32 n_frames = tv_profile_data_get_n_frames (data);
  g_autofree guint8 *marks = g_new0 (guint8, MAX (n_frames, 1));

  for (guint32 f = 0; f < n_frames; f++)
    marks[f] = strcmp (tv_profile_data_get_funcname (data, f), funcname) == 0;
  return tv_timeline_highlight_new (timeline, marks, n_frames, NULL, NULL, 0, 0, NULL);
}

/* The overview's bottom row of pixels: the accent in every pixel column
 * with highlighted samples, and in no other. */
static void
test_render_lanes (void)
{
  g_autoptr(TvProfileData) data = fixture_load_corpus ("rec_threads.tach");
  g_autoptr(TvTimeline) timeline = tv_timeline_new (data, NULL);
  g_autoptr(TvTimelineHighlight) highlight = highlight_for (timeline, "consumer");
  TvTimelineRenderer *renderer = tv_timeline_renderer_new (NULL);

  g_assert_cmpuint (tv_timeline_highlight_get_n_samples (highlight, TV_TIMELINE_ALL), >, 0);
  for (guint dark = 0; dark < 2; dark++)
    {
      TvTimelineStyle style;
      g_autoptr(cairo_surface_t) surface = NULL;
      g_autoptr(cairo_t) cr = NULL;
      g_autofree guint64 *counts = NULL;
      g_autofree double *ticks = NULL;
      g_auto(GStrv) labels = NULL;
      double x, y, w, h;
      guint n, lit = 0, n_ticks;

      tv_timeline_style_init (&style, timeline, 700, 300);
      style.dark = dark;
      style.draw_background = TRUE;
      style.label_width = 80;
      style.highlight = highlight;
      surface = new_surface (style.width, style.height);
      cr = cairo_create (surface);
      tv_timeline_renderer_draw (renderer, cr, timeline, &style);
      cairo_surface_flush (surface);
      tv_timeline_renderer_get_overview_rect (renderer, timeline, &style, &x, &y, &w, &h);
      g_assert_cmpfloat (x, ==, floor (x));
      n = (guint) ceil (w);
      counts = g_new (guint64, n);
      tv_timeline_highlight_get_bins (highlight, TV_TIMELINE_ALL, style.t0, style.t1, n, counts);
      /* The axis's grid lines are drawn over the bands: not those columns. */
      n_ticks = tv_timeline_renderer_get_ticks (renderer, timeline, &style, &ticks, &labels);
      for (guint c = 0; c < n && x + c < style.width; c++)
        {
          gboolean under_tick = FALSE;
          gboolean accent;

          for (guint t = 0; t < n_ticks; t++)
            under_tick |= fabs (floor (tv_timeline_renderer_time_to_x (renderer, timeline, &style,
                                                                       ticks[t]))
                                - (x + c)) <= 1;
          if (under_tick)
            continue;
          accent = near_color (pixel_at (surface, (int) x + c, (int) (y + h) - 2),
                                        tv_palette_accent (dark));

          if (accent != (counts[c] > 0))
            g_test_message ("c %u/%u x %g y %g h %g pixel %06x count %" G_GUINT64_FORMAT, c, n,
                            x, y, h, pixel_at (surface, (int) x + c, (int) (y + h) - 2), counts[c]);
          g_assert_cmpint (accent, ==, counts[c] > 0);
          lit += accent;
        }
      g_assert_cmpuint (lit, >, 0);
    }
  tv_timeline_renderer_free (renderer);
}

/* Each cell with highlighted samples is the accent over the background
 * by its share; the others are not. */
static void
test_render_heatmap (void)
{
  g_autoptr(TvProfileData) data = fixture_load_corpus ("rec_threads.tach");
  g_autoptr(TvTimeline) timeline = tv_timeline_new (data, NULL);
  g_autoptr(TvTimelineHighlight) highlight = highlight_for (timeline, "consumer");
  g_autoptr(TvTimelineHeatmap) heatmap = tv_timeline_heatmap_new (timeline, NULL, 0, 0, 0, 20000,
                                                                  NULL);
  TvTimelineRenderer *renderer = tv_timeline_renderer_new (NULL);
  guint marked_cells = 0;

  for (guint dark = 0; dark < 2; dark++)
    {
      TvHeatmapStyle style;
      g_autoptr(cairo_surface_t) surface = NULL;
      g_autoptr(cairo_t) cr = NULL;

      tv_heatmap_style_init (&style, 900, 400);
      style.dark = dark;
      style.draw_background = TRUE;
      style.highlight = highlight;
      surface = new_surface (style.width, style.height);
      cr = cairo_create (surface);
      tv_timeline_renderer_draw_heatmap (renderer, cr, heatmap, &style);
      cairo_surface_flush (surface);
      for (guint c = 0; c < tv_timeline_heatmap_get_n_columns (heatmap); c++)
        for (guint r = 0; r < tv_timeline_heatmap_get_n_rows (heatmap); r++)
          {
            guint64 count = tv_timeline_heatmap_get_count (heatmap, c, r);
            guint64 start, end, marked;
            double x, y, w, h;
            TvTimelineColor tint;

            g_assert_true (tv_timeline_renderer_get_heatmap_cell (renderer, heatmap, &style, c, r,
                                                                  &x, &y, &w, &h));
            if (w < 3 || h < 3)
              continue;
            tv_timeline_heatmap_get_cell_range (heatmap, c, r, &start, &end);
            marked = tv_timeline_highlight_count_range (highlight, TV_TIMELINE_ALL, start, end);
            g_assert_cmpuint (marked, <=, count);
            tint = tv_color_mix (tv_timeline_background_color (dark), tv_palette_accent (dark),
                                 0.35 + 0.65 * (count > 0 ? (double) marked / count : 0));
            g_assert_cmpint (near_color (pixel_at (surface, (int) (x + w / 2), (int) (y + h / 2)),
                                         tint), ==, marked > 0);
            marked_cells += marked > 0;
          }
    }
  g_assert_cmpuint (marked_cells, >, 0);
  tv_timeline_renderer_free (renderer);
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
  g_test_add_func ("/timeline-highlight/render/lanes", test_render_lanes);
  g_test_add_func ("/timeline-highlight/render/heatmap", test_render_heatmap);
  return g_test_run ();
}
