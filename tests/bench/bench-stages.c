/* bench-stages.c: tachyon-bench --stages, the window's own stages timed
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One process goes through what the profile page goes through, with the
 * model's, the renderers' and the exporters' own code, and prints one JSON
 * line:
 *
 *   zstd_cpu_s        libzstd alone over the sample region, as the decoder
 *                     streams it (the floor of any decode);
 *   decode_cpu_s      the decoder alone over every sample;
 *   load_cpu_s        TvProfile's load (tv_profile_load_async, as the page
 *   load_wall_s       starts it), process CPU and wall clock;
 *   first_view_cpu_s  from the start of the load to the default flame graph
 *                     (the page's view state, merged by function, threads
 *                     counted for the tooltips) laid out and drawn at
 *                     1920x1080, the function table's rows and the
 *                     timeline's bins drawn at 1920x400 (with the fonts
 *                     set up before the load, as the window has them);
 *   peak_rss_bytes    VmHWM from the start of the load to the first view;
 *   kept_bytes_per_sample  anonymous memory the loaded profile holds, a
 *                     sample (not the blocks kept for the next query's
 *                     arrays, tv_huge_get_stats ());
 *   nodes             the exact call tree's nodes (view_nodes: the default
 *                     view's; function_nodes: the whole top-down tree's by
 *                     function, exact_ms's, which says how many exact
 *                     nodes a view merges into one: 41 on a real
 *                     recursion, rec_recursive.tach);
 *   *_ms              the median of five (--runs) of each interaction, wall clock,
 *                     each a new tree (tv_call_tree_new, what the
 *                     profile's worker runs) laid out and drawn where the
 *                     view redraws; inverted_ms is the inverted view as
 *                     the page asks for it, leaving out nodes under
 *                     1/20,000 of the samples (TvQuery.min_total), with
 *                     the function table of the graph it turns over
 *                     (TvQuery.functions_of),
 *                     inverted_zoom_ms the finer tree a zoom into it
 *                     asks for where it left out what would show, and
 *                     inverted_exact_ms the whole inverted tree; the
 *                     other views leave nodes out as the page does too,
 *                     zoom_detail_ms is the finer tree a zoom into the
 *                     graph asks for, and exact_ms the whole top-down
 *                     tree.  Each tree is asked for from the default view
 *                     as the page has it: the view's tree made last, so
 *                     that a tree of the same samples takes the exact
 *                     tree's weights that one kept
 *                     (tv_call_tree_forget_weights()); merge_line_cold_ms,
 *                     zoom_detail_cold_ms and inverted_cold_ms are those
 *                     three with nothing kept, neither weights nor blocks
 *                     (tv_huge_trim()), as after half a minute idle (and
 *                     the inverted view as the first after a load);
 *   merged_cpu_s, merged_wall_s, merged_nodes, merged_peak_rss_bytes
 *                     the tree merged by function, which the page makes
 *                     once its graph is drawn (tv_profile_start_merging(),
 *                     on a tree of TV_PROFILE_MERGE_MIN_NODES or more): the
 *                     interactions are measured after it, and read it
 *                     where it was made (0 nodes where it was not);
 *   prepared_cpu_s, prepared_wall_s  what inverted trees climb, which
 *                     the page makes next (tv_call_tree_prepare_inverted()),
 *                     also before the interactions; merged_peak_rss_bytes
 *                     is the peak after both;
 *   html_cpu_s, html_bytes, svg_cpu_s, svg_bytes  the page's exports
 *                     (tv_export_html_build, tv_export_image_build) of the
 *                     loaded data, with the command line's defaults.
 *
 * Every interaction the model has an API for is measured; none is null
 * today, but the keys stay null rather than absent if one cannot be run
 * on a profile (no samples).
 */

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <pango/pangocairo.h>

#include "bench.h"
#include "tv-export-html.h"
#include "tv-export-image.h"
#include "tv-flame-renderer.h"
#include "tv-huge-pages.h"
#include "tv-json.h"
#include "tv-profile.h"
#include "tv-timeline-renderer.h"
#include "tv-view-state.h"

#define STAGES_MAX_RUNS 100
#define VIEW_WIDTH    1920
#define VIEW_HEIGHT   1080
#define TIMELINE_HEIGHT 400

typedef struct
{
  guint64 vm_hwm;
  guint64 rss_anon;
} StagesStatus;

static gboolean
read_status (StagesStatus *st)
{
  g_autofree char *text = NULL;

  memset (st, 0, sizeof *st);
  if (!g_file_get_contents ("/proc/self/status", &text, NULL, NULL))
    return FALSE;
  for (char *line = text; line != NULL && *line != '\0';)
    {
      char *end = strchr (line, '\n');

      if (g_str_has_prefix (line, "VmHWM:"))
        st->vm_hwm = g_ascii_strtoull (line + 6, NULL, 10) * 1024;
      else if (g_str_has_prefix (line, "RssAnon:"))
        st->rss_anon = g_ascii_strtoull (line + 8, NULL, 10) * 1024;
      line = end != NULL ? end + 1 : NULL;
    }
  return st->vm_hwm > 0;
}

/* Lets VmHWM start again from the current RSS, so that the peak is the
 * load's and the view's, not the decode passes' before it. */
static void
reset_peak (void)
{
  int fd = open ("/proc/self/clear_refs", O_WRONLY | O_CLOEXEC);

  if (fd >= 0)
    {
      if (write (fd, "5", 1) != 1)
        errno = 0;
      close (fd);
    }
}

/* The page's async calls, waited for on a main loop of our own. */
typedef struct
{
  GMainLoop    *loop;
  GAsyncResult *result;
} Waiter;

static void
on_done (GObject      *source,
         GAsyncResult *result,
         gpointer      user_data)
{
  Waiter *w = user_data;

  w->result = g_object_ref (result);
  g_main_loop_quit (w->loop);
}

static void
waiter_run (Waiter *w)
{
  g_main_loop_run (w->loop);
}

static TvCallTree *
query_tree (TvProfile     *profile,
            const TvQuery *query,
            GMainLoop     *loop)
{
  Waiter w = { loop, NULL };
  g_autoptr (GError) error = NULL;
  TvCallTree *tree;

  tv_profile_query_async (profile, query, NULL, on_done, &w);
  waiter_run (&w);
  tree = tv_profile_query_finish (profile, w.result, &error);
  g_object_unref (w.result);
  if (tree == NULL)
    g_printerr ("tachyon-bench: query: %s\n", error->message);
  return tree;
}

typedef struct
{
  TvFlameRenderer *renderer;
  cairo_surface_t *surface;
  cairo_t         *cr;
  TvFlameStyle     style;
  guint            boxes;
} Drawing;

/* Lays TREE out from ROOT and draws it, as the flame graph does after a
 * new tree or a zoom. */
static void
draw_tree (Drawing        *d,
           TvCallTree     *tree,
           guint32         root,
           TvFlameMatches *matches)
{
  g_autoptr (TvFlameLayout) layout = NULL;
  TvFlameViewport viewport;

  tv_flame_viewport_init (&viewport, tree, VIEW_WIDTH, VIEW_HEIGHT);
  if (root != TV_ROOT_NODE)
    {
      viewport.root = root;
      viewport.x0 = 0;
      viewport.x1 = (double) tv_call_tree_get_total (tree, root);
      viewport.show_ancestors = TRUE;
    }
  layout = tv_flame_layout_new (tree, &viewport, NULL);
  d->style.matches = matches;
  tv_flame_renderer_draw (d->renderer, d->cr, layout, &d->style);
  d->style.matches = NULL;
  cairo_surface_flush (d->surface);
  tv_flame_layout_get_boxes (layout, &d->boxes);
}

/* NODE's child of the greatest total, or TV_NODE_NONE. */
static guint32
hottest_child (TvCallTree *tree,
               guint32     node)
{
  guint n = 0;
  const guint32 *children = tv_call_tree_get_children (tree, node, &n);
  guint32 next = TV_NODE_NONE;

  for (guint i = 0; i < n; i++)
    if (next == TV_NODE_NONE
        || tv_call_tree_get_total (tree, children[i]) > tv_call_tree_get_total (tree, next))
      next = children[i];
  return next;
}

/* The node of the greatest total at DEPTH (the root is depth 0), or the
 * deepest one there is above it. */
static guint32
hottest_at_depth (TvCallTree *tree,
                  guint       depth)
{
  guint32 best = TV_ROOT_NODE;

  for (guint d = 0; d < depth; d++)
    {
      guint32 next = hottest_child (tree, best);

      if (next == TV_NODE_NONE)
        break;
      best = next;
    }
  return best;
}

/* The function with the most samples of its own. */
static guint32
hottest_function (TvCallTree *tree)
{
  guint n = 0;
  const TvFunctionRow *rows = tv_call_tree_get_functions (tree, &n);
  guint32 best = TV_NODE_NONE;
  guint64 best_self = 0;

  for (guint i = 0; i < n; i++)
    if (best == TV_NODE_NONE || rows[i].self > best_self)
      {
        best = rows[i].function;
        best_self = rows[i].self;
      }
  return best;
}

/* A search as one types it: every tenth function by name, spelt out. */
static GRegex *
tenth_of_functions (TvProfileData *data,
                    guint         *n_matched)
{
  guint32 n_keys = tv_profile_data_get_n_keys (data, TV_MERGE_FUNCTION);
  g_autoptr (GHashTable) names = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GString) pattern = g_string_new ("^(?:");
  g_autoptr (GError) error = NULL;
  GRegex *regex;

  *n_matched = 0;
  for (guint32 key = 0; key < n_keys; key += 10)
    {
      const char *name = tv_profile_data_get_funcname (data,
                                                       tv_profile_data_get_key_frame (data,
                                                                                      TV_MERGE_FUNCTION,
                                                                                      key));
      g_autofree char *escaped = NULL;

      if (!g_hash_table_add (names, (gpointer) name))
        continue;
      escaped = g_regex_escape_string (name, -1);
      if (*n_matched > 0)
        g_string_append_c (pattern, '|');
      g_string_append (pattern, escaped);
      (*n_matched)++;
    }
  g_string_append (pattern, ")$");
  regex = g_regex_new (pattern->str, G_REGEX_CASELESS | G_REGEX_OPTIMIZE, 0, &error);
  if (regex == NULL)
    g_printerr ("tachyon-bench: search: %s\n", error->message);
  return regex;
}

typedef enum
{
  I_ZOOM,
  I_CALLERS_CALLEES,
  I_SEARCH,
  I_RANGE,
  I_THREAD,
  I_ON_CPU,
  I_INVERTED,
  I_MERGE_LINE,
  I_INVERTED_ZOOM,
  I_INVERTED_EXACT,
  I_ZOOM_DETAIL,
  I_EXACT,
  I_MERGE_LINE_COLD,
  I_ZOOM_DETAIL_COLD,
  I_INVERTED_COLD,
  N_INTERACTIONS
} Interaction;

static const char *const interaction_keys[N_INTERACTIONS] = {
  "zoom_ms", "callers_callees_ms", "search_ms", "range_ms", "thread_ms", "on_cpu_ms",
  "inverted_ms", "merge_line_ms", "inverted_zoom_ms", "inverted_exact_ms", "zoom_detail_ms",
  "exact_ms", "merge_line_cold_ms", "zoom_detail_cold_ms", "inverted_cold_ms",
};

/* Where a zoom into a view's tree needs a finer tree (see
 * tv_flame_graph_needs_detail()): down the hottest children until a node
 * whose tree left out children that would be a pixel wide, or 8 deep.
 * Its keys from the root go to PATH. */
static guint32
zoom_target (TvCallTree *tree,
                      GArray     *path)
{
  guint32 node = TV_ROOT_NODE;

  for (guint d = 0; d < 8; d++)
    {
      guint64 cut = tv_call_tree_get_cut_below (tree, node);
      guint32 next, key;

      if (node != TV_ROOT_NODE && cut > 0
          && (double) cut * VIEW_WIDTH >= (double) tv_call_tree_get_total (tree, node))
        break;
      next = hottest_child (tree, node);
      if (next == TV_NODE_NONE)
        break;
      key = tv_call_tree_get_key (tree, next);
      g_array_append_val (path, key);
      node = next;
    }
  return node;
}

static gint  opt_runs = 5;
static char *opt_html = NULL;
static char *opt_svg = NULL;

static const GOptionEntry stages_entries[] = {
  { "runs", 0, 0, G_OPTION_ARG_INT, &opt_runs,
    "Runs of each interaction; the median is reported (default 5, 0 for none)", "R" },
  { "html", 0, 0, G_OPTION_ARG_FILENAME, &opt_html, "Also save the HTML page to FILE", "FILE" },
  { "svg", 0, 0, G_OPTION_ARG_FILENAME, &opt_svg, "Also save the SVG image to FILE", "FILE" },
  { NULL }
};

static gboolean
save_bytes (const char *path,
            GBytes     *bytes)
{
  g_autoptr (GError) error = NULL;
  gsize size = 0;
  const char *contents = g_bytes_get_data (bytes, &size);

  if (path == NULL || g_file_set_contents (path, contents, (gssize) size, &error))
    return TRUE;
  g_printerr ("tachyon-bench: %s\n", error->message);
  return FALSE;
}

static void
append_ms (GString    *json,
           const char *key,
           double     *values,
           guint       n)
{
  g_string_append_printf (json, ",\"%s\":", key);
  if (n == 0)
    g_string_append (json, "null");
  else
    g_string_append_printf (json, "%.3f", bench_median (values, n));
}

static int
run_stages (char **args)
{
  const char *path = args[0];
  TachReader *reader = NULL;
  TachError tach_error = { 0 };
  g_autoptr (GError) error = NULL;
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_autoptr (TvProfile) profile = NULL;
  g_autoptr (TvViewState) state = NULL;
  g_autoptr (TvCallTree) tree = NULL;
  g_autoptr (TvTimeline) timeline = NULL;
  g_autoptr (TvTimelineRenderer) timeline_renderer = NULL;
  g_autoptr (GMainLoop) loop = g_main_loop_new (NULL, FALSE);
  g_autoptr (GString) json = g_string_new (NULL);
  g_autoptr (GBytes) html = NULL;
  g_autoptr (GBytes) svg = NULL;
  g_autofree char *source_name = g_filename_display_basename (path);
  g_autofree void *chunk = NULL;
  TvProfileData *data;
  Drawing d = { 0 };
  TvQuery view_query;
  g_autoptr (TvViewState) shown = tv_view_state_new ();
  TvExportImageOptions image;
  StagesStatus before, after_load, after_view, after_merge;
  double ms[N_INTERACTIONS][STAGES_MAX_RUNS];
  double cpu_ms[N_INTERACTIONS][STAGES_MAX_RUNS];
  guint n_ms[N_INTERACTIONS] = { 0 };
  double zstd_cpu = 0, zstd_wall = 0, decode_cpu = 0, decode_wall = 0;
  double t0, c0, load_wall, load_cpu, first_view_cpu, first_view_wall, c1;
  double merged_cpu = 0, merged_wall = 0, prepared_cpu = 0, prepared_wall = 0;
  guint32 merged_nodes = 0;
  double html_cpu, svg_cpu;
  guint64 n_samples, decompressed = 0, n_decoded = 0;
  guint64 range_samples = 0;
  guint32 function_nodes = 0;
  guint n_rows = 0, n_search = 0;
  guint32 zoom_node, hot_function;
  g_autoptr (GArray) inv_path = g_array_new (FALSE, FALSE, sizeof (guint32));
  guint64 inv_visible = 0;
  g_autoptr (GArray) top_path = g_array_new (FALSE, FALSE, sizeof (guint32));
  guint64 top_visible = 0;

  if (opt_runs < 0 || opt_runs > STAGES_MAX_RUNS)
    {
      g_printerr ("tachyon-bench: --runs must be between 0 and %d\n", STAGES_MAX_RUNS);
      return 1;
    }

  /* The floors: libzstd alone, then the decoder alone. */
  if (tach_reader_open_path (path, &reader, &tach_error) != TACH_OK)
    return bench_fail_tach (path, &tach_error);
  if (tach_reader_get_header (reader)->compression_type != 0)
    {
      const void *region = NULL;
      GMappedFile *mapped = bench_map_region (path, reader, &region);
      gboolean ok;

      if (mapped == NULL)
        {
          tach_reader_free (reader);
          return 1;
        }
      chunk = g_malloc (BENCH_ZSTD_CHUNK);
      bench_fault_in (region, tach_reader_get_sample_region_size (reader));
      ok = bench_zstd_pass (region, tach_reader_get_sample_region_size (reader), chunk,
                            &zstd_wall, &zstd_cpu, &decompressed);
      g_mapped_file_unref (mapped);
      if (!ok)
        {
          tach_reader_free (reader);
          return 1;
        }
    }
  else
    {
      decompressed = tach_reader_get_sample_region_size (reader);
    }
  if (!bench_decode_pass (reader, -1, FALSE, &decode_wall, &decode_cpu, &n_decoded,
                          &tach_error))
    {
      tach_reader_free (reader);
      return bench_fail_tach (path, &tach_error);
    }
  tach_reader_free (reader);

  /* Fonts, as the window has them before it opens a profile: it has
   * drawn its own text by then.  Fontconfig's setup and the first font
   * are some 25 ms of CPU in a new process, which the first view's
   * drawing paid here, and no profile makes it more or less. */
  {
    PangoContext *context = pango_font_map_create_context (pango_cairo_font_map_get_default ());
    PangoLayout *layout = pango_layout_new (context);
    int width, height;

    pango_layout_set_text (layout, "Tachyon 0123456789", -1);
    pango_layout_get_pixel_size (layout, &width, &height);
    g_object_unref (layout);
    g_object_unref (context);
  }

  /* The load, as the page starts it. */
  reset_peak ();
  read_status (&before);
  t0 = bench_now_seconds ();
  c0 = bench_cpu_seconds ();
  profile = tv_profile_new (file);
  {
    Waiter w = { loop, NULL };
    gboolean ok;

    tv_profile_load_async (profile, NULL, on_done, &w);
    waiter_run (&w);
    ok = tv_profile_load_finish (profile, w.result, &error);
    g_object_unref (w.result);
    if (!ok)
      {
        g_printerr ("tachyon-bench: %s: %s\n", path, error->message);
        return 1;
      }
  }
  load_wall = bench_now_seconds () - t0;
  load_cpu = bench_cpu_seconds () - c0;
  read_status (&after_load);
  /* Not what the profile holds: blocks kept for the next query's arrays
   * (the tree's links, see tv_huge_adopt ()), given back when idle. */
  {
    gsize kept_blocks = 0;

    tv_huge_get_stats (NULL, NULL, &kept_blocks);
    after_load.rss_anon -= MIN (after_load.rss_anon, kept_blocks);
  }
  data = tv_profile_get_data (profile);
  n_samples = tv_profile_data_get_n_samples (data);

  /* The first view: the flame graph's tree, its layout and drawing, the
   * function table's rows, the timeline's bins. */
  state = tv_view_state_new ();
  tv_view_state_to_query (state, &view_query);
  view_query.count_threads = TRUE;
  /* As the page asks for it: a big profile's tree leaves out nodes under
   * 1/20,000 of the samples (TvQuery.min_total). */
  view_query.min_total = n_samples / TV_QUERY_DETAIL_DIVISOR;
  tree = query_tree (profile, &view_query, loop);
  if (tree == NULL)
    return 1;
  d.surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, VIEW_WIDTH, VIEW_HEIGHT);
  d.cr = cairo_create (d.surface);
  d.renderer = tv_flame_renderer_new (NULL);
  tv_flame_style_init (&d.style);
  d.style.draw_background = TRUE;
  d.style.root_label = "all";
  draw_tree (&d, tree, TV_ROOT_NODE, NULL);
  tv_call_tree_get_functions (tree, &n_rows);
  timeline = tv_timeline_new (data, NULL);
  {
    cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, VIEW_WIDTH,
                                                           TIMELINE_HEIGHT);
    cairo_t *cr = cairo_create (surface);
    TvTimelineStyle style;

    timeline_renderer = tv_timeline_renderer_new (NULL);
    tv_timeline_style_init (&style, timeline, VIEW_WIDTH, TIMELINE_HEIGHT);
    style.draw_background = TRUE;
    style.main_label = "main";
    style.overview_label = "All threads";
    style.interpreter_format = "Interpreter %u";
    tv_timeline_renderer_draw (timeline_renderer, cr, timeline, &style);
    cairo_surface_flush (surface);
    cairo_destroy (cr);
    cairo_surface_destroy (surface);
  }
  first_view_cpu = bench_cpu_seconds () - c0;
  first_view_wall = bench_now_seconds () - t0;
  read_status (&after_view);

  /* What the page starts once its graph is drawn, the tree merged by
   * function (tv_profile_start_merging()), here on this thread and
   * waited for: the interactions below are those after it. */
  if (tv_profile_data_get_tree (data)->n_nodes >= TV_PROFILE_MERGE_MIN_NODES)
    {
      double m0 = bench_now_seconds (), m1 = bench_cpu_seconds ();

      tv_profile_data_add_merged (data, TV_PROFILE_MERGE_MAX_SHARE, NULL);
      merged_wall = bench_now_seconds () - m0;
      merged_cpu = bench_cpu_seconds () - m1;
    }
  if (tv_profile_data_get_merged (data) != NULL)
    merged_nodes = tv_profile_data_get_tree (tv_profile_data_get_merged (data))->n_nodes;
  if (tv_profile_data_get_tree (data)->n_nodes >= TV_PROFILE_MERGE_MIN_NODES)
    {
      double m0 = bench_now_seconds (), m1 = bench_cpu_seconds ();

      tv_call_tree_prepare_inverted (data, NULL);
      prepared_wall = bench_now_seconds () - m0;
      prepared_cpu = bench_cpu_seconds () - m1;
    }
  read_status (&after_merge);

  /* The interactions, on the loaded profile. */
  zoom_node = hottest_at_depth (tree, 3);
  hot_function = hottest_function (tree);
  /* Where a zoom into the inverted view needs a finer tree. */
  if (opt_runs > 0 && n_samples > 0)
    {
      TvQuery query = view_query;
      g_autoptr (TvCallTree) inverted = NULL;

      query.inverted = TRUE;
      query.min_total = n_samples / TV_QUERY_DETAIL_DIVISOR;
      inverted = tv_call_tree_new (data, &query, NULL);
      inv_visible = tv_call_tree_get_total (inverted,
                                            zoom_target (inverted, inv_path));
      top_visible = tv_call_tree_get_total (tree, zoom_target (tree, top_path));
    }
  {
    g_autoptr (GRegex) regex = tenth_of_functions (data, &n_search);
    guint64 first = 0, last = 0;
    guint busiest = 0;
    const TvThread *threads0 = n_samples > 0 ? tv_profile_data_get_thread (data, 0) : NULL;

    for (guint t = 1; threads0 != NULL && t < tv_profile_data_get_n_threads (data); t++)
      if (tv_profile_data_get_thread (data, t)->n_samples
          > tv_profile_data_get_thread (data, busiest)->n_samples)
        busiest = t;
    tv_profile_data_get_time_span (data, &first, &last);

    /* The runs of every interaction, then those with nothing kept, on
     * their own: what they let go of would make the next interactions
     * cold too. */
    for (guint run = 0; run < 2 * (guint) opt_runs && n_samples > 0; run++)
      for (Interaction i = 0; i < N_INTERACTIONS; i++)
        {
          TvQuery query = view_query;
          g_autoptr (TvCallTree) other = NULL;
          guint32 thread = busiest;
          Interaction as = i == I_MERGE_LINE_COLD ? I_MERGE_LINE
                           : i == I_ZOOM_DETAIL_COLD ? I_ZOOM_DETAIL
                           : i == I_INVERTED_COLD ? I_INVERTED : i;
          double t1, c2;

          if ((i != as) != (run >= (guint) opt_runs))
            continue;
          /* From the default view, its tree made last (untimed), or with
           * nothing kept of it. */
          if (i >= I_RANGE)
            tv_call_tree_unref (tv_call_tree_new (data, &view_query, NULL));
          if (i != as)
            tv_call_tree_forget_weights (data);
          /* Nothing kept from the queries before, as after half a minute
           * idle (tv_huge_trim() runs then): no arrays to use again, nor
           * the inverted trees' runs and leaves. */
          if (i != as)
            tv_huge_trim ();
          t1 = bench_now_seconds ();
          c2 = bench_cpu_seconds ();
          switch (as)
            {
            case I_ZOOM:
              draw_tree (&d, tree, zoom_node, NULL);
              break;
            case I_CALLERS_CALLEES:
              {
                g_autofree TvFunctionRow *callers = NULL;
                g_autofree TvFunctionRow *callees = NULL;
                guint n_callers, n_callees;

                /* As the function table finds them in the graph's tree,
                 * which is neither inverted nor focused. */
                if (!tv_call_tree_get_neighbours (tree, hot_function, NULL, &callers, &n_callers,
                                                  &callees, &n_callees))
                  g_assert_not_reached ();
              }
              break;
            case I_SEARCH:
              {
                g_autoptr (TvFlameMatches) matches = NULL;

                if (regex == NULL)
                  continue;
                matches = tv_flame_matches_new_for_regex (tree, regex, NULL);
                draw_tree (&d, tree, TV_ROOT_NODE, matches);
              }
              break;
            case I_RANGE:
              query.has_range = TRUE;
              query.range_start = first + (last - first) * 45 / 100;
              query.range_end = first + (last - first) * 55 / 100;
              break;
            case I_THREAD:
              query.threads = &thread;
              query.n_threads = 1;
              break;
            case I_ON_CPU:
              tv_state_filter_get_mask (TV_STATE_FILTER_CPU, &query.status_mask,
                                        &query.status_value);
              break;
            case I_INVERTED:
              /* As the view asks for it: leaving out nodes under
               * 1/20,000 of the samples (TvQuery.min_total). */
              query.inverted = TRUE;
              query.min_total = n_samples / TV_QUERY_DETAIL_DIVISOR;
              /* The function table of the graph on screen, as the page
               * gives it when only the direction changes. */
              query.functions_of = tree;
              break;
            case I_MERGE_LINE:
              query.merge = TV_MERGE_LINE;
              /* The function table of the graph on screen, as the page
               * gives it: a function table is the same by line. */
              query.functions_of = tree;
              break;
            case I_INVERTED_ZOOM:
              /* A zoom into that tree where it left out what would show:
               * the finer tree the view asks for. */
              query.inverted = TRUE;
              query.min_total = n_samples / TV_QUERY_DETAIL_DIVISOR;
              query.detail_path = (const guint32 *) (gpointer) inv_path->data;
              query.n_detail_path = inv_path->len;
              query.detail_min_total = inv_visible / TV_QUERY_DETAIL_DIVISOR;
              query.functions_of = tree;
              break;
            case I_INVERTED_EXACT:
              query.inverted = TRUE;
              query.min_total = 0;
              break;
            case I_ZOOM_DETAIL:
              /* A zoom into the graph where its tree left out what would
               * show: the finer tree the view asks for, with the graph's
               * function table. */
              query.detail_path = (const guint32 *) (gpointer) top_path->data;
              query.n_detail_path = top_path->len;
              query.detail_min_total = top_visible / TV_QUERY_DETAIL_DIVISOR;
              query.functions_of = tree;
              break;
            case I_EXACT:
              /* The whole top-down tree, nothing left out. */
              query.min_total = 0;
              break;
            case I_MERGE_LINE_COLD:
            case I_ZOOM_DETAIL_COLD:
            case I_INVERTED_COLD:
            case N_INTERACTIONS:
              g_assert_not_reached ();
            }
          if (as == I_INVERTED_ZOOM || as == I_ZOOM_DETAIL)
            {
              GArray *keys = as == I_INVERTED_ZOOM ? inv_path : top_path;
              guint32 node = TV_ROOT_NODE;

              other = tv_call_tree_new (data, &query, NULL);
              for (guint k = 0; k < keys->len && node != TV_NODE_NONE; k++)
                node = tv_call_tree_find_child (other, node, g_array_index (keys, guint32, k));
              g_assert (node != TV_NODE_NONE);
              draw_tree (&d, other, node, NULL);
            }
          else if (i >= I_RANGE)
            {
              other = tv_call_tree_new (data, &query, NULL);
              draw_tree (&d, other, TV_ROOT_NODE, NULL);
              if (i == I_RANGE)
                range_samples = tv_call_tree_get_n_samples (other);
              if (i == I_EXACT)
                function_nodes = tv_call_tree_get_n_nodes (other);
            }
          cpu_ms[i][n_ms[i]] = (bench_cpu_seconds () - c2) * 1e3;
          ms[i][n_ms[i]++] = (bench_now_seconds () - t1) * 1e3;
        }
  }

  /* The exports, from the loaded data as the page makes them. */
  tv_view_state_set_merge (shown, TV_MERGE_FRAME);     /* the command line's for html */
  c1 = bench_cpu_seconds ();
  html = tv_export_html_build (data, shown, source_name, NULL, &error);
  html_cpu = bench_cpu_seconds () - c1;
  if (html == NULL)
    {
      g_printerr ("tachyon-bench: html: %s\n", error->message);
      return 1;
    }
  tv_view_state_set_merge (shown, TV_MERGE_FUNCTION);  /* and for the images */
  tv_export_image_options_init (&image);
  c1 = bench_cpu_seconds ();
  svg = tv_export_image_build (data, shown, TV_EXPORT_IMAGE_SVG, &image, source_name, NULL,
                               &error);
  svg_cpu = bench_cpu_seconds () - c1;
  if (svg == NULL)
    {
      g_printerr ("tachyon-bench: svg: %s\n", error->message);
      return 1;
    }

  if (!save_bytes (opt_html, html) || !save_bytes (opt_svg, svg))
    return 1;

  g_string_append (json, "{\"file\":");
  tv_json_append_string (json, path, -1);
  g_string_append_printf (json,
                          ",\"samples\":%" G_GUINT64_FORMAT ",\"decoded_samples\":%"
                          G_GUINT64_FORMAT ",\"threads\":%u,\"decompressed_bytes\":%"
                          G_GUINT64_FORMAT ",\"bytes_per_sample\":%.3f"
                          ",\"zstd_cpu_s\":%.6f,\"zstd_wall_s\":%.6f"
                          ",\"decode_cpu_s\":%.6f,\"decode_wall_s\":%.6f"
                          ",\"load_cpu_s\":%.6f,\"load_wall_s\":%.6f"
                          ",\"first_view_cpu_s\":%.6f,\"first_view_wall_s\":%.6f"
                          ",\"peak_rss_bytes\":%" G_GUINT64_FORMAT
                          ",\"kept_bytes\":%" G_GINT64_FORMAT
                          ",\"kept_bytes_per_sample\":%.2f"
                          ",\"nodes\":%u,\"view_nodes\":%u,\"function_nodes\":%u"
                          ",\"view_boxes\":%u"
                          ",\"functions\":%u,\"lanes\":%u"
                          ",\"merged_cpu_s\":%.6f,\"merged_wall_s\":%.6f,\"merged_nodes\":%u"
                          ",\"prepared_cpu_s\":%.6f,\"prepared_wall_s\":%.6f"
                          ",\"merged_peak_rss_bytes\":%" G_GUINT64_FORMAT,
                          n_samples, n_decoded, tv_profile_data_get_n_threads (data),
                          decompressed,
                          n_samples > 0 ? (double) decompressed / (double) n_samples : 0.0,
                          zstd_cpu, zstd_wall, decode_cpu, decode_wall, load_cpu, load_wall,
                          first_view_cpu, first_view_wall, after_view.vm_hwm,
                          (gint64) after_load.rss_anon - (gint64) before.rss_anon,
                          n_samples > 0 ? ((double) after_load.rss_anon
                                           - (double) before.rss_anon) / (double) n_samples
                          : 0.0,
                          tv_profile_data_get_tree (data)->n_nodes,
                          tv_call_tree_get_n_nodes (tree), function_nodes, d.boxes, n_rows,
                          tv_timeline_get_n_lanes (timeline),
                          merged_cpu, merged_wall, merged_nodes, prepared_cpu, prepared_wall,
                          after_merge.vm_hwm);
  for (Interaction i = 0; i < N_INTERACTIONS; i++)
    append_ms (json, interaction_keys[i], ms[i], n_ms[i]);
  /* The same in process CPU time, which a busy machine disturbs less. */
  for (Interaction i = 0; i < N_INTERACTIONS; i++)
    {
      g_autofree char *key = g_strdup_printf ("%.*s_cpu_ms",
                                              (int) strlen (interaction_keys[i]) - 3,
                                              interaction_keys[i]);

      append_ms (json, key, cpu_ms[i], n_ms[i]);
    }
  g_string_append_printf (json, ",\"zoom_depth\":%u,\"search_functions\":%u"
                          ",\"range_fraction\":%.4f",
                          tv_call_tree_get_depth (tree, zoom_node), n_search,
                          n_samples > 0 ? (double) range_samples / (double) n_samples : 0.0);
  g_string_append_printf (json, ",\"html_cpu_s\":%.6f,\"html_bytes\":%" G_GSIZE_FORMAT
                          ",\"svg_cpu_s\":%.6f,\"svg_bytes\":%" G_GSIZE_FORMAT "}",
                          html_cpu, g_bytes_get_size (html), svg_cpu, g_bytes_get_size (svg));
  printf ("%s\n", json->str);

  cairo_destroy (d.cr);
  cairo_surface_destroy (d.surface);
  tv_flame_renderer_free (d.renderer);
  return 0;
}

const BenchMode bench_mode_stages = {
  "stages", "FILE", 1,
  "Go through the profile page's stages on FILE (load, first view, interactions,\n"
  "      exports) with the window's own code, and print one JSON line of their costs.",
  stages_entries, run_stages,
};
