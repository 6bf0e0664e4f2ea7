/* test-link.c: the flame graph and the timeline, linked
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * In the real window: selecting a frame in the flame graph, or typing a
 * search, makes the timeline highlight the samples whose stack holds the
 * function (or a match), as many as a brute-force count over the model
 * finds, in the lanes, the overview and the heatmap; clearing the
 * selection or the search clears it; the state and thread filters count
 * again; and a request overtaken by a newer one never shows.
 */
#include <string.h>

#include <adwaita.h>

#include "tv-flame-view.h"
#include "tv-profile-page.h"
#include "tv-timeline-view.h"
#include "ui-test-util.h"

static TvApplication *application;

static TvProfilePage *
open_page (const char *name)
{
  g_autofree char *path = g_build_filename (g_getenv ("TACH_TEST_DATA"), "valid", name, NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  TvProfilePage *page;

  g_application_activate (G_APPLICATION (application));
  page = tv_window_open_file (ui_test_get_window (GTK_APPLICATION (application)), file);
  ui_test_wait_loaded (page);
  WAIT_UNTIL (tv_timeline_view_get_timeline (tv_profile_page_get_timeline_view (page)) != NULL,
              30000);
  WAIT_UNTIL (!tv_flame_view_is_busy (tv_profile_page_get_flame_view (page))
              && tv_flame_graph_get_tree (tv_flame_view_get_graph (
                   tv_profile_page_get_flame_view (page))) != NULL, 30000);
  return page;
}

static void
close_page (TvProfilePage *page)
{
  ui_test_close_page (ui_test_get_window (GTK_APPLICATION (application)), page);
  ui_test_spin (100);
}

static void
wait_highlight (TvTimelineView *view)
{
  ui_test_spin (20);
  WAIT_UNTIL (!tv_timeline_view_get_highlight_busy (view), 30000);
  ui_test_spin (20);
}

/* Samples whose stack holds a frame of FRAMES, in the threads and the
 * state STATE selects: every sample of the model, its leaf walked up. */
static guint64
brute_count (TvProfileData *data,
             const guint8  *frames,
             TvViewState   *state)
{
  const TvExactTree *tree = tv_profile_data_get_tree (data);
  guint8 mask = 0, value = 0;
  guint64 n = 0;

  tv_state_filter_get_mask (tv_view_state_get_state_filter (state), &mask, &value);
  for (guint t = 0; t < tv_profile_data_get_n_threads (data); t++)
    {
      const TvThread *thread = tv_profile_data_get_thread (data, t);
      guint n_threads;

      tv_view_state_get_threads (state, &n_threads);
      if (n_threads > 0 && !tv_view_state_has_thread (state, t))
        continue;
      for (guint64 r = 0; r < thread->n_runs; r++)
        {
          guint64 end = r + 1 < thread->n_runs ? thread->run_start[r + 1] : thread->n_samples;
          gboolean holds = FALSE;

          for (guint32 node = thread->run_leaf[r]; node != TV_ROOT_NODE && !holds;
               node = tv_exact_tree_parent (tree, node))
            holds = frames[tv_exact_tree_frame (tree, node)] != 0;
          if (!holds)
            continue;
          for (guint64 s = thread->run_start[r]; s < end; s++)
            n += (tv_statuses_get (&thread->statuses, s) & mask) == value;
        }
    }
  return n;
}

static guint8 *
function_frames (TvProfileData *data,
                 guint32        function)
{
  guint32 n_frames = tv_profile_data_get_n_frames (data);
  const guint32 *keys = tv_profile_data_get_frame_keys (data, TV_MERGE_FUNCTION);
  guint8 *frames = g_new0 (guint8, MAX (n_frames, 1));

  for (guint32 f = 0; f < n_frames; f++)
    frames[f] = keys[f] == function;
  return frames;
}

/* A node of the graph's tree below the root's first child, with
 * samples: a function that is not in every stack. */
static guint32
pick_node (TvCallTree *tree)
{
  guint n;
  const guint32 *children = tv_call_tree_get_children (tree, TV_ROOT_NODE, &n);
  guint32 node;

  g_assert_cmpuint (n, >, 0);
  node = children[0];
  children = tv_call_tree_get_children (tree, node, &n);
  if (n > 0)
    node = children[n - 1];
  g_assert_cmpuint (tv_call_tree_get_total (tree, node), >, 0);
  return node;
}

static void
assert_highlight (TvProfilePage *page,
                  const guint8  *frames)
{
  TvTimelineView *view = tv_profile_page_get_timeline_view (page);
  TvFlameView *flame = tv_profile_page_get_flame_view (page);
  TvTimelineHighlight *highlight = tv_timeline_view_get_highlight (view);
  TvTimeline *timeline = tv_timeline_view_get_timeline (view);
  guint64 expected = brute_count (tv_timeline_get_data (timeline), frames,
                                  tv_flame_view_get_view_state (flame));
  guint64 lanes = 0, columns[7], in_columns = 0;

  g_assert_nonnull (highlight);
  g_assert_cmpuint (expected, >, 0);
  g_assert_cmpuint (tv_timeline_highlight_get_n_samples (highlight, TV_TIMELINE_ALL), ==,
                    expected);
  /* The overview's columns add up to it; so do the lanes it adds up. */
  g_assert_true (tv_timeline_highlight_get_bins (highlight, TV_TIMELINE_ALL, 0,
                                                 MAX (tv_timeline_get_duration (timeline), 1),
                                                 G_N_ELEMENTS (columns), columns));
  for (guint c = 0; c < G_N_ELEMENTS (columns); c++)
    in_columns += columns[c];
  g_assert_cmpuint (in_columns, ==, expected);
  for (guint l = 0; l < tv_timeline_get_n_lanes (timeline); l++)
    {
      guint n_threads;

      tv_view_state_get_threads (tv_flame_view_get_view_state (flame), &n_threads);
      if (n_threads == 0 || tv_view_state_has_thread (tv_flame_view_get_view_state (flame), l))
        lanes += tv_timeline_highlight_get_n_samples (highlight, l);
    }
  g_assert_cmpuint (lanes, ==, expected);
  /* The folded row's ticks are of the lanes folded (shown with no row of
   * their own, no lane being filtered out here). */
  if (tv_timeline_view_get_n_folded (view) > 0)
    {
      guint64 folded = 0;
      guint n_folded = 0;

      for (guint l = 0; l < tv_timeline_get_n_lanes (timeline); l++)
        {
          g_autofree char *label = tv_timeline_view_dup_lane_label (view, l);

          if (label == NULL)
            {
              folded += tv_timeline_highlight_get_n_samples (highlight, l);
              n_folded++;
            }
        }
      g_assert_cmpuint (n_folded, ==, tv_timeline_view_get_n_folded (view));
      g_assert_cmpuint (tv_timeline_highlight_get_n_samples (highlight,
                                                             TV_TIMELINE_HIGHLIGHT_GROUP),
                        ==, folded);
      g_test_message ("folded: %u lanes, %" G_GUINT64_FORMAT " samples", n_folded, folded);
    }
  /* The heatmap tints its cells with the same. */
  g_assert_true (tv_heatmap_view_get_highlight (tv_timeline_view_get_heatmap_view (view))
                 == highlight);
}

/* How many tooltips over the shown lanes say how many samples are
 * highlighted there. */
static guint
count_highlight_tooltips (TvTimelineView *view)
{
  TvTimeline *timeline = tv_timeline_view_get_timeline (view);
  guint found = 0;

  for (guint l = 0; l < tv_timeline_get_n_lanes (timeline); l++)
    {
      graphene_rect_t rect;

      if (!tv_timeline_view_get_lane_rect (view, l, &rect))
        continue;
      for (int i = 1; i < 16; i++)
        {
          g_autofree char *text = tv_timeline_view_describe_at (
            view, rect.origin.x + rect.size.width * i / 16,
            rect.origin.y + rect.size.height / 2);

          found += text != NULL && strstr (text, "\nHighlighted: ") != NULL;
        }
    }
  return found;
}

/* A frame selected in the graph highlights its function's samples;
 * filters count them again; no selection, nothing. */
static void
test_select (void)
{
  TvProfilePage *page = open_page ("rec_threads.tach");
  TvFlameView *flame = tv_profile_page_get_flame_view (page);
  TvFlameGraph *graph = tv_flame_view_get_graph (flame);
  TvTimelineView *view = tv_profile_page_get_timeline_view (page);
  TvViewState *state = tv_flame_view_get_view_state (flame);
  TvCallTree *tree = tv_flame_graph_get_tree (graph);
  TvProfileData *data = tv_call_tree_get_data (tree);
  guint32 node = pick_node (tree);
  g_autofree guint8 *frames = function_frames (data, tv_call_tree_get_function (tree, node));
  guint32 thread = 1;

  g_assert_null (tv_timeline_view_get_highlight (view));
  tv_flame_graph_set_selected (graph, node);
  wait_highlight (view);
  assert_highlight (page, frames);
  g_assert_cmpuint (count_highlight_tooltips (view), >, 0);
  /* As many as the graph's frame when the function is there once. */
  g_assert_cmpuint (tv_timeline_highlight_get_n_samples (tv_timeline_view_get_highlight (view),
                                                         TV_TIMELINE_ALL),
                    >=, tv_call_tree_get_total (tree, node));

  /* The state filter, then a thread: counted again. */
  tv_view_state_set_state_filter (state, TV_STATE_FILTER_CPU);
  wait_highlight (view);
  WAIT_UNTIL (!tv_flame_view_is_busy (flame), 30000);
  wait_highlight (view);
  if (tv_flame_graph_get_selected (graph) != TV_NODE_NONE
      && tv_flame_graph_get_selected (graph) != TV_ROOT_NODE)
    {
      TvCallTree *now = tv_flame_graph_get_tree (graph);
      g_autofree guint8 *again = function_frames (
        data, tv_call_tree_get_function (now, tv_flame_graph_get_selected (graph)));

      assert_highlight (page, again);
      g_test_message ("state filter: %" G_GUINT64_FORMAT " samples",
                      tv_timeline_highlight_get_n_samples (tv_timeline_view_get_highlight (view),
                                                           TV_TIMELINE_ALL));
      tv_view_state_set_threads (state, &thread, 1);
      WAIT_UNTIL (!tv_flame_view_is_busy (flame), 30000);
      wait_highlight (view);
      if (tv_flame_graph_get_selected (graph) != TV_NODE_NONE
          && tv_flame_graph_get_selected (graph) != TV_ROOT_NODE
          && brute_count (data, again, state) > 0)
        {
          assert_highlight (page, again);
          g_test_message ("thread filter: %" G_GUINT64_FORMAT " samples",
                          tv_timeline_highlight_get_n_samples (
                            tv_timeline_view_get_highlight (view), TV_TIMELINE_ALL));
        }
    }
  tv_view_state_set_threads (state, NULL, 0);
  tv_view_state_set_state_filter (state, TV_STATE_FILTER_ALL);
  WAIT_UNTIL (!tv_flame_view_is_busy (flame), 30000);

  tv_flame_graph_set_selected (graph, TV_NODE_NONE);
  wait_highlight (view);
  g_assert_null (tv_timeline_view_get_highlight (view));
  g_assert_null (tv_heatmap_view_get_highlight (tv_timeline_view_get_heatmap_view (view)));
  g_assert_cmpuint (count_highlight_tooltips (view), ==, 0);
  close_page (page);
}

/* A search highlights the samples of every function it matches; an empty
 * search clears it. */
static void
test_search (void)
{
  TvProfilePage *page = open_page ("rec_threads.tach");
  TvFlameView *flame = tv_profile_page_get_flame_view (page);
  TvTimelineView *view = tv_profile_page_get_timeline_view (page);
  TvCallTree *tree = tv_flame_graph_get_tree (tv_flame_view_get_graph (flame));
  TvProfileData *data = tv_call_tree_get_data (tree);
  guint32 node = pick_node (tree);
  const char *name = tv_profile_data_get_funcname (data, tv_call_tree_get_frame (tree, node));
  g_autofree char *escaped = g_regex_escape_string (name, -1);
  g_autofree char *regex = g_strdup_printf ("^%s$", escaped);
  guint32 n_frames = tv_profile_data_get_n_frames (data);
  g_autofree guint8 *frames = g_new0 (guint8, MAX (n_frames, 1));

  for (guint32 f = 0; f < n_frames; f++)
    frames[f] = strcmp (tv_profile_data_get_funcname (data, f), name) == 0;
  tv_flame_view_set_search (flame, regex);
  WAIT_UNTIL (tv_flame_view_get_matches (flame) != NULL, 30000);
  wait_highlight (view);
  assert_highlight (page, frames);

  tv_flame_view_set_search (flame, "");
  WAIT_UNTIL (tv_flame_view_get_matches (flame) == NULL, 30000);
  wait_highlight (view);
  g_assert_null (tv_timeline_view_get_highlight (view));
  close_page (page);
}

/* Requests in a row: only the last one's count shows, never an older one
 * that finishes later. */
static void
test_stale (void)
{
  TvProfilePage *page = open_page ("rec_threads.tach");
  TvTimelineView *view = tv_profile_page_get_timeline_view (page);
  TvTimeline *timeline = tv_timeline_view_get_timeline (view);
  TvProfileData *data = tv_timeline_get_data (timeline);
  guint32 n_functions = tv_profile_data_get_n_keys (data, TV_MERGE_FUNCTION);
  g_autofree guint64 *expected = g_new0 (guint64, MAX (n_functions, 1));
  TvViewState *state = tv_flame_view_get_view_state (tv_profile_page_get_flame_view (page));
  guint32 last = TV_NODE_NONE;

  for (guint32 f = 0; f < n_functions; f++)
    {
      g_autofree guint8 *frames = function_frames (data, f);

      expected[f] = brute_count (data, frames, state);
      if (expected[f] > 0)
        last = f;
    }
  g_assert_cmpuint (last, !=, TV_NODE_NONE);
  for (guint round = 0; round < 3; round++)
    {
      for (guint32 f = 0; f < n_functions; f++)
        tv_timeline_view_set_highlight (view, NULL, f);
      tv_timeline_view_set_highlight (view, NULL, last);
      /* Let the older rounds finish first or last, as they will. */
      ui_test_spin (round * 10);
      wait_highlight (view);
      g_assert_nonnull (tv_timeline_view_get_highlight (view));
      g_assert_cmpuint (tv_timeline_highlight_get_n_samples (tv_timeline_view_get_highlight (view),
                                                             TV_TIMELINE_ALL), ==, expected[last]);
    }
  tv_timeline_view_set_highlight (view, NULL, last);
  tv_timeline_view_set_highlight (view, NULL, TV_NODE_NONE);
  wait_highlight (view);
  g_assert_null (tv_timeline_view_get_highlight (view));
  close_page (page);
}

int
main (int   argc,
      char *argv[])
{
  if (!ui_test_init (&argc, &argv))
    return 77;
  g_test_add_func ("/link/select", test_select);
  g_test_add_func ("/link/search", test_search);
  g_test_add_func ("/link/stale", test_stale);
  return ui_test_run_in_application (&application, FALSE);
}
