/* test-export-query.c: the command line and the window say what is shown
 * the same way
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The window sets its choices in a view state directly (thread indices,
 * timestamps, function keys); the command line parses words into a
 * TvCliFilter and finds them in the profile it loads.  For the same
 * choices both make the same query, and so the same tree.
 */
#include <string.h>

#include "tachyon-format.h"
#include "tv-cli-private.h"

static char *
data_path (const char *name)
{
  return g_build_filename (g_getenv ("TACH_TEST_DATA"), "valid", name, NULL);
}

static TvProfileData *
load (const char *path)
{
  g_autoptr(GError) error = NULL;
  TachReader *reader = tv_export_open_reader (path, &error);
  TvProfileData *data;

  g_assert_no_error (error);
  data = tv_profile_data_load (reader, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  return data;
}

/* Whether no other function of DATA has the name of function KEY. */
static gboolean
name_is_unique (TvProfileData *data,
                guint32        key)
{
  guint32 n_keys = tv_profile_data_get_n_keys (data, TV_MERGE_FUNCTION);
  const char *name = tv_profile_data_get_funcname (
    data, tv_profile_data_get_key_frame (data, TV_MERGE_FUNCTION, key));
  guint n_named = 0;

  for (guint32 other = 0; other < n_keys; other++)
    {
      guint32 frame = tv_profile_data_get_key_frame (data, TV_MERGE_FUNCTION, other);

      n_named += strcmp (tv_profile_data_get_funcname (data, frame), name) == 0;
    }
  return n_named == 1;
}

/* The deepest function of THREAD's heaviest stack whose name no other
 * function has: its key. */
static guint32
unique_function (TvProfileData  *data,
                 const TvThread *thread)
{
  g_autoptr(TvCallTree) tree = NULL;
  guint32 index = thread->index;
  guint32 found = TV_NODE_NONE;
  TvQuery query;

  tv_query_init (&query, TV_MERGE_FUNCTION);
  query.threads = &index;
  query.n_threads = 1;
  tree = tv_call_tree_new (data, &query, NULL);
  for (guint32 node = TV_ROOT_NODE;;)
    {
      const guint32 *children;
      guint n_children;
      guint32 heaviest = TV_NODE_NONE;

      children = tv_call_tree_get_children (tree, node, &n_children);
      for (guint i = 0; i < n_children; i++)
        if (heaviest == TV_NODE_NONE
            || tv_call_tree_get_total (tree, children[i]) > tv_call_tree_get_total (tree, heaviest))
          heaviest = children[i];
      if (heaviest == TV_NODE_NONE)
        break;
      node = heaviest;
      if (name_is_unique (data, tv_call_tree_get_key (tree, node)))
        found = tv_call_tree_get_key (tree, node);
    }
  g_assert_cmpuint (found, !=, TV_NODE_NONE);
  return found;
}

/* The thread with the most samples on CPU. */
static const TvThread *
busiest_on_cpu (TvProfileData *data)
{
  const TvThread *thread = tv_profile_data_get_thread (data, 0);

  for (guint i = 1; i < tv_profile_data_get_n_threads (data); i++)
    if (tv_profile_data_get_thread (data, i)->status_counts[1] > thread->status_counts[1])
      thread = tv_profile_data_get_thread (data, i);
  return thread;
}

static void
assert_same_query (const TvQuery *a,
                   const TvQuery *b)
{
  g_assert_cmpint (a->merge, ==, b->merge);
  g_assert_cmpmem (a->threads, a->n_threads * sizeof (guint32),
                   b->threads, b->n_threads * sizeof (guint32));
  g_assert_cmpuint (a->status_mask, ==, b->status_mask);
  g_assert_cmpuint (a->status_value, ==, b->status_value);
  g_assert_cmpint (a->has_range, ==, b->has_range);
  g_assert_cmpuint (a->range_start, ==, b->range_start);
  g_assert_cmpuint (a->range_end, ==, b->range_end);
  g_assert_cmpmem (a->ranges, a->n_ranges * sizeof (TvTimeRange),
                   b->ranges, b->n_ranges * sizeof (TvTimeRange));
  g_assert_cmpint (a->inverted, ==, b->inverted);
  g_assert_cmpint (a->collapse_recursion, ==, b->collapse_recursion);
  g_assert_cmpuint (a->focus_function, ==, b->focus_function);
  g_assert_cmpmem (a->hidden_functions, a->n_hidden_functions * sizeof (guint32),
                   b->hidden_functions, b->n_hidden_functions * sizeof (guint32));
}

/* One thread, a state, a time range, a merge key, inverted, a hidden
 * function and collapsed recursion; then several ranges and a focus. */
static void
test_same_query (void)
{
  g_autofree char *path = data_path ("rec_threads.tach");
  g_autoptr(TvProfileData) data = load (path);
  guint64 start_time = tach_reader_get_header (tv_profile_data_get_reader (data))->start_time_us;
  const TvThread *thread = busiest_on_cpu (data);
  guint32 function = unique_function (data, thread);
  const char *name = tv_profile_data_get_funcname (
    data, tv_profile_data_get_key_frame (data, TV_MERGE_FUNCTION, function));
  g_autofree char *thread_id = g_strdup_printf ("%" G_GUINT64_FORMAT, thread->thread_id);
  const char *threads[] = { thread_id, NULL };
  const char *ranges[] = { "0.25:1.5", NULL };
  const char *hide[] = { name, NULL };
  TvCliArgs args = {
    .threads = threads, .state = "cpu", .ranges = ranges, .merge = "line",
    .inverted = TRUE, .hide = hide, .collapse_recursion = TRUE,
  };
  const char *several[] = { "2:", "0.5:1", ":0.1", NULL };
  TvTimeRange window_ranges[] = {
    { start_time + 2000000, G_MAXUINT64 },
    { start_time + 500000, start_time + 1000000 },
    { 0, start_time + 100000 },
  };

  for (guint round = 0; round < 2; round++)
    {
      g_autoptr(TvViewState) window = tv_view_state_new ();
      g_autoptr(TvViewState) cli = NULL;
      g_autoptr(TvProfileData) cli_data = NULL;
      g_autoptr(TvCallTree) window_tree = NULL;
      g_autoptr(TvCallTree) cli_tree = NULL;
      g_auto(TvCliFilter) filter = { 0 };
      g_autoptr(GError) error = NULL;
      TvQuery a, b;
      guint32 index = thread->index;

      /* What the window sets from its widgets. */
      tv_view_state_set_threads (window, &index, 1);
      tv_view_state_set_state_filter (window, TV_STATE_FILTER_CPU);
      tv_view_state_set_merge (window, TV_MERGE_LINE);
      tv_view_state_set_inverted (window, TRUE);
      tv_view_state_set_collapse_recursion (window, TRUE);
      if (round == 0)
        {
          tv_view_state_set_range (window, start_time + 250000, start_time + 1500000);
          tv_view_state_hide_function (window, function);
        }
      else
        {
          tv_view_state_set_ranges (window, window_ranges, G_N_ELEMENTS (window_ranges));
          tv_view_state_set_focus_function (window, function);
          args.ranges = several;
          args.hide = NULL;
          args.focus = name;
        }

      /* What the command line makes of the same words. */
      tv_cli_filter_init (&filter);
      g_assert_true (tv_cli_filter_parse (&filter, &args, TV_MERGE_FUNCTION, &error));
      g_assert_no_error (error);
      g_assert_false (tv_cli_filter_selects_all (&filter));
      cli_data = tv_cli_load_profile (path, &filter, TV_CLI_LOAD_SAMPLES, &cli, &error);
      g_assert_no_error (error);

      tv_view_state_to_query (window, &a);
      tv_view_state_to_query (cli, &b);
      assert_same_query (&a, &b);

      /* And so the same tree. */
      window_tree = tv_call_tree_new (data, &a, NULL);
      cli_tree = tv_call_tree_new (cli_data, &b, NULL);
      g_assert_cmpuint (tv_call_tree_get_n_samples (window_tree), >, 0);
      g_assert_cmpuint (tv_call_tree_get_n_samples (window_tree), ==,
                        tv_call_tree_get_n_samples (cli_tree));
      g_assert_cmpuint (tv_call_tree_get_n_nodes (window_tree), ==,
                        tv_call_tree_get_n_nodes (cli_tree));
    }
}

/* What needs no profile fails before one is read; what names things of
 * the profile fails once it is loaded. */
static void
test_words (void)
{
  g_autofree char *path = data_path ("rec_threads.tach");
  const char *bad_thread[] = { "-1", NULL };
  const char *no_thread[] = { "424242", NULL };
  const char *bad_range[] = { "2:1", NULL };
  TvCliArgs args = { 0 };
  g_autoptr(GError) error = NULL;

  {
    g_auto(TvCliFilter) filter = { 0 };

    tv_cli_filter_init (&filter);
    g_assert_true (tv_cli_filter_selects_all (&filter));
    args.threads = bad_thread;
    g_assert_false (tv_cli_filter_parse (&filter, &args, TV_MERGE_FUNCTION, &error));
    g_assert_error (error, TV_EXPORT_ERROR, TV_EXPORT_ERROR_INVALID_FILTER);
    g_clear_error (&error);
  }
  {
    g_auto(TvCliFilter) filter = { 0 };

    tv_cli_filter_init (&filter);
    args.threads = NULL;
    args.ranges = bad_range;
    g_assert_false (tv_cli_filter_parse (&filter, &args, TV_MERGE_FUNCTION, &error));
    g_assert_error (error, TV_EXPORT_ERROR, TV_EXPORT_ERROR_INVALID_FILTER);
    g_clear_error (&error);
  }
  {
    g_auto(TvCliFilter) filter = { 0 };

    tv_cli_filter_init (&filter);
    args.ranges = NULL;
    args.state = "cpu";
    args.merge = "instruction";
    args.icicle = TRUE;
    args.search = "main";
    g_assert_true (tv_cli_filter_parse (&filter, &args, TV_MERGE_FUNCTION, NULL));
    g_assert_cmpint (tv_view_state_get_state_filter (filter.state), ==, TV_STATE_FILTER_CPU);
    g_assert_cmpint (tv_view_state_get_merge (filter.state), ==, TV_MERGE_INSTRUCTION);
    g_assert_cmpint (tv_view_state_get_orientation (filter.state), ==,
                     TV_FLAME_ORIENTATION_ICICLE);
    g_assert_cmpstr (tv_view_state_get_search (filter.state), ==, "main");
    args.search = "(";
    g_assert_false (tv_cli_filter_parse (&filter, &args, TV_MERGE_FUNCTION, &error));
    g_assert_error (error, TV_EXPORT_ERROR, TV_EXPORT_ERROR_INVALID_OPTION);
    g_clear_error (&error);
    args.search = NULL;
  }
  {
    g_auto(TvCliFilter) filter = { 0 };
    g_autoptr(TvViewState) state = NULL;
    g_autoptr(TvProfileData) data = NULL;

    tv_cli_filter_init (&filter);
    args.threads = no_thread;
    g_assert_true (tv_cli_filter_parse (&filter, &args, TV_MERGE_FUNCTION, NULL));
    data = tv_cli_load_profile (path, &filter, TV_CLI_LOAD_COUNTS, &state, &error);
    g_assert_null (data);
    g_assert_null (state);
    g_assert_error (error, TV_EXPORT_ERROR, TV_EXPORT_ERROR_NO_SUCH_THREAD);
  }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/export/query/same", test_same_query);
  g_test_add_func ("/export/query/words", test_words);

  return g_test_run ();
}
