/* bench-render.c: tachyon-bench --render
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Times a full redraw of the flame graph, as the widget does it after a
 * zoom: a new TvFlameLayout for the whole tree (merged by frame, the
 * default view), then every box and label drawn by the renderer onto a
 * 1920x1080 image surface.  The first redraw also shapes every label it
 * shows and is reported on its own (first_ms); redraw_ms is the median of
 * the runs after it, layout_ms the median of the layouts alone.
 */

#include <stdio.h>

#include "bench.h"
#include "tv-flame-renderer.h"

static gint     opt_runs = 20;
static gint     opt_width = 1920;
static gint     opt_height = 1080;
static gboolean opt_inverted = FALSE;
static gboolean opt_icicle = FALSE;
static char    *opt_png = NULL;
static char    *opt_colors = NULL;

static const GOptionEntry render_entries[] = {
  { "runs", 0, 0, G_OPTION_ARG_INT, &opt_runs,
    "Number of redraws; the median is reported (default 20)", "R" },
  { "width", 0, 0, G_OPTION_ARG_INT, &opt_width, "Width in pixels (default 1920)", "W" },
  { "height", 0, 0, G_OPTION_ARG_INT, &opt_height, "Height in pixels (default 1080)", "H" },
  { "inverted", 0, 0, G_OPTION_ARG_NONE, &opt_inverted, "Draw the inverted tree", NULL },
  { "icicle", 0, 0, G_OPTION_ARG_NONE, &opt_icicle, "Root at the top", NULL },
  { "png", 0, 0, G_OPTION_ARG_FILENAME, &opt_png, "Also save the drawing to FILE", "FILE" },
  { "colors", 0, 0, G_OPTION_ARG_STRING, &opt_colors,
    "Colour scheme: module (default), heat or state (the tree then counts thread"
    " states, which tree_ms includes)", "SCHEME" },
  { NULL }
};

static int
run_render (char **args)
{
  const char *path = args[0];
  g_autoptr (GError) error = NULL;
  g_autoptr (TvProfileData) data = NULL;
  g_autoptr (TvCallTree) tree = NULL;
  g_autoptr (TvFlameRenderer) renderer = NULL;
  g_autofree double *redraws = NULL;
  g_autofree double *layouts = NULL;
  cairo_surface_t *surface;
  cairo_t *cr;
  TvFlameViewport viewport;
  TvFlameStyle style;
  TvQuery query;
  double t0, tree_ms, first_ms = 0;
  guint n_boxes = 0, content_rows = 0;

  if (opt_runs < 1 || opt_runs > 1000)
    {
      g_printerr ("tachyon-bench: --runs must be between 1 and 1000\n");
      return 1;
    }
  if (opt_width < 1 || opt_width > 16384 || opt_height < 1 || opt_height > 16384)
    {
      g_printerr ("tachyon-bench: --width and --height must be between 1 and 16384\n");
      return 1;
    }

  tv_flame_style_init (&style);
  if (opt_colors == NULL || g_strcmp0 (opt_colors, "module") == 0)
    style.scheme = TV_FLAME_COLORS_MODULE;
  else if (g_strcmp0 (opt_colors, "heat") == 0)
    style.scheme = TV_FLAME_COLORS_HEAT;
  else if (g_strcmp0 (opt_colors, "state") == 0)
    style.scheme = TV_FLAME_COLORS_THREAD_STATE;
  else
    {
      g_printerr ("tachyon-bench: --colors takes module, heat or state\n");
      return 1;
    }

  data = bench_load_data (path);
  if (data == NULL)
    return 1;

  tv_query_init (&query, TV_MERGE_FRAME);
  query.inverted = opt_inverted;
  query.count_states = style.scheme == TV_FLAME_COLORS_THREAD_STATE;
  t0 = bench_now_seconds ();
  tree = tv_call_tree_new (data, &query, NULL);
  tree_ms = (bench_now_seconds () - t0) * 1e3;

  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, opt_width, opt_height);
  cr = cairo_create (surface);
  renderer = tv_flame_renderer_new (NULL);
  tv_flame_viewport_init (&viewport, tree, opt_width, opt_height);
  if (opt_icicle)
    viewport.orientation = TV_FLAME_ORIENTATION_ICICLE;
  style.draw_background = TRUE;
  style.root_label = "all";

  redraws = g_new (double, opt_runs);
  layouts = g_new (double, opt_runs);
  /* The first redraw, then the timed ones. */
  for (gint run = -1; run < opt_runs; run++)
    {
      g_autoptr (TvFlameLayout) layout = NULL;
      double t1, t2;

      t1 = bench_now_seconds ();
      layout = tv_flame_layout_new (tree, &viewport, NULL);
      t2 = bench_now_seconds ();
      tv_flame_renderer_draw (renderer, cr, layout, &style);
      cairo_surface_flush (surface);
      if (run < 0)
        {
          first_ms = (bench_now_seconds () - t1) * 1e3;
          tv_flame_layout_get_boxes (layout, &n_boxes);
          content_rows = tv_flame_layout_get_content_rows (layout);
          continue;
        }
      redraws[run] = (bench_now_seconds () - t1) * 1e3;
      layouts[run] = (t2 - t1) * 1e3;
    }

  if (cairo_status (cr) != CAIRO_STATUS_SUCCESS)
    {
      g_printerr ("tachyon-bench: cairo: %s\n", cairo_status_to_string (cairo_status (cr)));
      return 1;
    }
  if (opt_png != NULL && cairo_surface_write_to_png (surface, opt_png) != CAIRO_STATUS_SUCCESS)
    {
      g_printerr ("tachyon-bench: cannot write %s\n", opt_png);
      return 1;
    }
  cairo_destroy (cr);
  cairo_surface_destroy (surface);

  printf ("{\"nodes\":%u,\"width\":%d,\"height\":%d,\"redraw_ms\":%.3f"
          ",\"layout_ms\":%.3f,\"first_ms\":%.3f,\"boxes\":%u,\"content_rows\":%u"
          ",\"samples\":%" G_GUINT64_FORMAT ",\"tree_ms\":%.3f,\"runs\":%d}\n",
          tv_call_tree_get_n_nodes (tree), opt_width, opt_height,
          bench_median (redraws, opt_runs), bench_median (layouts, opt_runs), first_ms,
          n_boxes, content_rows, tv_call_tree_get_n_samples (tree), tree_ms, opt_runs);
  return 0;
}

const BenchMode bench_mode_render = {
  "render", "FILE", 1,
  "Time full redraws of FILE's flame graph (layout and drawing) offscreen at"
  " 1920x1080.",
  render_entries, run_render,
};
