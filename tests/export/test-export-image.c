/* test-export-image.c: tv_export_image_build() beyond what the command
 * line reaches: the zoom path, merge keys, cancellation, option checks
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <string.h>

#include "tachyon-format.h"
#include "tv-export-image.h"

static TvProfileData *
load (const char *name)
{
  g_autofree char *path = g_build_filename (g_getenv ("TACH_TEST_DATA"), "valid", name, NULL);
  g_autoptr(GError) error = NULL;
  TachReader *reader = NULL;
  TachError tach_error = { 0 };
  TvProfileData *data;

  g_assert_cmpint (tach_reader_open_path (path, &reader, &tach_error), ==, TACH_OK);
  data = tv_profile_data_load (reader, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (data);
  return data;
}

/* The SVG's <desc>, unescaped. */
static char *
svg_desc (GBytes *svg)
{
  static const char * const entities[][2] = {
    { "&lt;", "<" }, { "&gt;", ">" }, { "&quot;", "\"" }, { "&apos;", "'" }, { "&amp;", "&" },
  };
  g_autofree char *text = g_strndup (g_bytes_get_data (svg, NULL), g_bytes_get_size (svg));
  const char *start = strstr (text, "<desc>");
  const char *end = strstr (text, "</desc>");
  g_autoptr(GString) desc = NULL;

  g_assert_nonnull (start);
  g_assert_nonnull (end);
  start += strlen ("<desc>");
  desc = g_string_new_len (start, end - start);
  for (gsize i = 0; i < G_N_ELEMENTS (entities); i++)
    g_string_replace (desc, entities[i][0], entities[i][1], 0);
  return g_string_free (g_steal_pointer (&desc), FALSE);
}

static GBytes *
build (TvProfileData              *data,
       TvViewState                *state,
       TvExportImageFormat         format,
       const TvExportImageOptions *options,
       GError                    **error)
{
  return tv_export_image_build (data, state, format, options, "test.tach", NULL, error);
}

static guint
n_zoom_keys (TvViewState *state)
{
  guint n;

  tv_view_state_get_zoom_path (state, &n);
  return n;
}

static void
test_options (void)
{
  g_autoptr(TvViewState) filter = tv_view_state_new ();
  TvExportImageOptions options;
  TvExportImageFormat format = TV_EXPORT_IMAGE_PNG;
  const guint widths[] = { 0, TV_EXPORT_IMAGE_MIN_WIDTH - 1, TV_EXPORT_IMAGE_MAX_WIDTH + 1,
                           G_MAXUINT };

  tv_export_image_options_init (&options);
  g_assert_cmpint (tv_view_state_get_merge (filter), ==, TV_MERGE_FUNCTION);
  g_assert_cmpint (tv_view_state_get_orientation (filter), ==, TV_FLAME_ORIENTATION_FLAME);
  g_assert_cmpuint (n_zoom_keys (filter), ==, 0);
  g_assert_cmpuint (tv_view_state_get_focus_function (filter), ==, TV_NODE_NONE);
  g_assert_false (tv_view_state_has_transforms (filter));
  g_assert_true (tv_export_check_search (filter, NULL));
  g_assert_cmpint (options.colors, ==, TV_FLAME_COLORS_MODULE);
  g_assert_false (options.dark);
  g_assert_cmpuint (options.width, ==, TV_EXPORT_IMAGE_DEFAULT_WIDTH);
  g_assert_true (tv_export_image_options_check (&options, NULL));

  for (gsize i = 0; i < G_N_ELEMENTS (widths); i++)
    {
      g_autoptr(GError) error = NULL;

      options.width = widths[i];
      g_assert_false (tv_export_image_options_check (&options, &error));
      g_assert_error (error, TV_EXPORT_ERROR, TV_EXPORT_ERROR_INVALID_OPTION);
    }
  options.width = TV_EXPORT_IMAGE_MIN_WIDTH;
  g_assert_true (tv_export_image_options_check (&options, NULL));
  options.width = TV_EXPORT_IMAGE_MAX_WIDTH;
  g_assert_true (tv_export_image_options_check (&options, NULL));

  {
    g_autoptr(GError) error = NULL;

    tv_view_state_set_search (filter, "[unclosed");
    g_assert_false (tv_export_check_search (filter, &error));
    g_assert_error (error, TV_EXPORT_ERROR, TV_EXPORT_ERROR_INVALID_OPTION);
    g_assert_nonnull (strstr (error->message, "[unclosed"));
    tv_view_state_set_search (filter, "");
    g_assert_true (tv_export_check_search (filter, NULL));
  }

  g_assert_true (tv_export_image_format_from_string ("svg", &format));
  g_assert_cmpint (format, ==, TV_EXPORT_IMAGE_SVG);
  g_assert_true (tv_export_image_format_from_string ("pdf", &format));
  g_assert_cmpint (format, ==, TV_EXPORT_IMAGE_PDF);
  g_assert_true (tv_export_image_format_from_string ("png", &format));
  g_assert_cmpint (format, ==, TV_EXPORT_IMAGE_PNG);
  g_assert_false (tv_export_image_format_from_string ("PNG", &format));
  g_assert_false (tv_export_image_format_from_string ("html", &format));
}

/* The heaviest child of NODE. */
static guint32
heaviest_child (TvCallTree *tree,
                guint32     node)
{
  guint32 child = tv_flame_navigate (tree, node, TV_FLAME_CHILD);

  g_assert_cmpuint (child, !=, TV_NODE_NONE);
  return child;
}

static const char *
node_name (TvCallTree *tree,
           guint32     node)
{
  return tv_profile_data_get_funcname (tv_call_tree_get_data (tree),
                                       tv_call_tree_get_frame (tree, node));
}

static void
test_zoom (void)
{
  g_autoptr(TvProfileData) data = load ("rec_threads.tach");
  g_autoptr(TvViewState) filter = tv_view_state_new ();
  g_autoptr(TvCallTree) tree = NULL;
  g_autoptr(GBytes) whole = NULL;
  g_autoptr(GBytes) zoomed = NULL;
  g_autoptr(GBytes) none = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *desc = NULL;
  g_autofree char *expected = NULL;
  TvExportImageOptions options;
  TvQuery query;
  guint32 child, grandchild, great;
  guint32 path[3];
  g_autoptr(GArray) zoom = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autoptr(GArray) ids = g_array_new (FALSE, FALSE, sizeof (guint64));

  tv_export_image_options_init (&options);
  tv_query_init (&query, TV_MERGE_FUNCTION);
  tree = tv_call_tree_new (data, &query, NULL);

  /* Down the heaviest path: the threads' bootstrap frames. */
  child = heaviest_child (tree, TV_ROOT_NODE);
  grandchild = heaviest_child (tree, child);
  great = heaviest_child (tree, grandchild);
  path[0] = tv_call_tree_get_key (tree, child);
  path[1] = tv_call_tree_get_key (tree, grandchild);
  path[2] = tv_call_tree_get_key (tree, great);

  whole = build (data, filter, TV_EXPORT_IMAGE_SVG, &options, &error);
  g_assert_no_error (error);
  g_array_append_vals (zoom, path, 2);
  tv_view_state_set_zoom_path (filter, (guint32 *) (gpointer) zoom->data, zoom->len);
  zoomed = build (data, filter, TV_EXPORT_IMAGE_SVG, &options, &error);
  g_assert_no_error (error);
  g_assert_false (g_bytes_equal (whole, zoomed));
  desc = svg_desc (zoomed);
  expected = g_strdup_printf ("zoomed into %s (", node_name (tree, child));
  g_assert_nonnull (strstr (desc, expected));
  g_clear_pointer (&expected, g_free);
  expected = g_strdup_printf (" › %s (", node_name (tree, grandchild));
  g_assert_nonnull (strstr (desc, expected));
  g_clear_pointer (&zoomed, g_bytes_unref);

  g_array_set_size (zoom, 0);
  g_array_append_vals (zoom, path, 3);
  tv_view_state_set_zoom_path (filter, (guint32 *) (gpointer) zoom->data, zoom->len);
  zoomed = build (data, filter, TV_EXPORT_IMAGE_PNG, &options, &error);
  g_assert_no_error (error);
  g_assert_nonnull (zoomed);

  /* The great-grandchild's key one level down is not there. */
  g_assert_cmpuint (tv_call_tree_find_child (tree, TV_ROOT_NODE, path[2]), ==, TV_NODE_NONE);
  path[0] = path[2];
  g_array_set_size (zoom, 1);
  g_array_index (zoom, guint32, 0) = path[0];
  tv_view_state_set_zoom_path (filter, (guint32 *) (gpointer) zoom->data, zoom->len);
  none = build (data, filter, TV_EXPORT_IMAGE_PNG, &options, &error);
  g_assert_null (none);
  g_assert_error (error, TV_EXPORT_ERROR, TV_EXPORT_ERROR_NO_SUCH_FRAME);
  g_clear_pointer (&expected, g_free);
  expected = g_strdup_printf ("Cannot zoom into %s (", node_name (tree, great));
  g_assert_nonnull (strstr (error->message, expected));
  g_assert_nonnull (strstr (error->message, "no such frame at the root"));
  g_clear_error (&error);

  /* A key the profile does not have. */
  g_array_index (zoom, guint32, 0) = tv_profile_data_get_n_keys (data, TV_MERGE_FUNCTION);
  tv_view_state_set_zoom_path (filter, (guint32 *) (gpointer) zoom->data, zoom->len);
  none = build (data, filter, TV_EXPORT_IMAGE_PDF, &options, &error);
  g_assert_null (none);
  g_assert_error (error, TV_EXPORT_ERROR, TV_EXPORT_ERROR_NO_SUCH_FRAME);
  g_clear_error (&error);

  /* The main thread never ran the worker threads' bootstrap. */
  g_array_index (zoom, guint32, 0) = tv_call_tree_get_key (tree, child);
  tv_view_state_set_zoom_path (filter, (guint32 *) (gpointer) zoom->data, zoom->len);
  for (guint i = 0; i < tv_profile_data_get_n_threads (data); i++)
    {
      const TvThread *thread = tv_profile_data_get_thread (data, i);

      if (thread->status_counts[5] == 0)      /* main thread */
        continue;
      g_array_append_val (ids, thread->thread_id);
    }
  g_assert_cmpuint (ids->len, ==, 1);
  g_assert_true (tv_export_select_threads (filter, data, (guint64 *) (gpointer) ids->data,
                                           ids->len, NULL));
  none = build (data, filter, TV_EXPORT_IMAGE_SVG, &options, &error);
  g_assert_null (none);
  g_assert_error (error, TV_EXPORT_ERROR, TV_EXPORT_ERROR_NO_SUCH_FRAME);
}

static void
test_merge_keys (void)
{
  static const struct
  {
    TvMergeKey  merge;
    const char *text;
  } keys[] = {
    { TV_MERGE_FRAME, "merged by frame" },
    { TV_MERGE_FUNCTION, "merged by function" },
    { TV_MERGE_LINE, "merged by line" },
    { TV_MERGE_INSTRUCTION, "merged by instruction" },
  };
  g_autoptr(TvProfileData) data = load ("rec_cpu_mix.tach");
  g_autoptr(TvViewState) filter = tv_view_state_new ();
  TvExportImageOptions options;

  tv_export_image_options_init (&options);
  for (gsize i = 0; i < G_N_ELEMENTS (keys); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(GBytes) svg = NULL;
      g_autofree char *desc = NULL;

      tv_view_state_set_merge (filter, keys[i].merge);
      svg = build (data, filter, TV_EXPORT_IMAGE_SVG, &options, &error);
      g_assert_no_error (error);
      desc = svg_desc (svg);
      g_assert_nonnull (strstr (desc, keys[i].text));
    }
}

static void
test_errors (void)
{
  g_autoptr(TvProfileData) data = load ("tiny.tach");
  g_autoptr(TvViewState) filter = tv_view_state_new ();
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = NULL;
  TvExportImageOptions options;

  tv_export_image_options_init (&options);

  g_cancellable_cancel (cancellable);
  bytes = tv_export_image_build (data, filter, TV_EXPORT_IMAGE_PNG, &options, "tiny.tach",
                                 cancellable, &error);
  g_assert_null (bytes);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error (&error);

  {
    guint64 id = 7;

    g_assert_false (tv_export_select_threads (filter, data, &id, 1, &error));
  }
  g_assert_error (error, TV_EXPORT_ERROR, TV_EXPORT_ERROR_NO_SUCH_THREAD);
  g_clear_error (&error);

  tv_view_state_set_search (filter, "(");
  bytes = build (data, filter, TV_EXPORT_IMAGE_SVG, &options, &error);
  g_assert_null (bytes);
  g_assert_error (error, TV_EXPORT_ERROR, TV_EXPORT_ERROR_INVALID_OPTION);
  g_clear_error (&error);

  tv_view_state_set_search (filter, NULL);
  options.width = 10;
  bytes = build (data, filter, TV_EXPORT_IMAGE_SVG, &options, &error);
  g_assert_null (bytes);
  g_assert_error (error, TV_EXPORT_ERROR, TV_EXPORT_ERROR_INVALID_OPTION);
}

/* SVG's text, but for the number cairo gives each surface it draws in a
 * process. */
static char *
without_surface_ids (GBytes *svg)
{
  g_autoptr(GRegex) ids = g_regex_new ("surface[0-9]+", 0, 0, NULL);
  g_autofree char *text = g_strndup (g_bytes_get_data (svg, NULL), g_bytes_get_size (svg));

  return g_regex_replace_literal (ids, text, -1, 0, "surface", 0, NULL);
}

/* An image in thread-state colours from a load of counts that counted
 * the states (what the command line loads) is the image from the samples
 * (what the window has), whatever the filter. */
static void
test_state_from_counts (void)
{
  static const char * const names[] = {
    "rec_threads.tach", "rec_cpu_mix.tach", "two_interpreters.tach", "mode_all.tach",
    "rec_recursive.zst.tach", "stats_v56_full.tach",
  };

  for (gsize n = 0; n < G_N_ELEMENTS (names); n++)
    for (guint f = 0; f < 6; f++)
      {
        g_autofree char *path = g_build_filename (g_getenv ("TACH_TEST_DATA"), "valid", names[n],
                                                  NULL);
        g_autoptr(TvProfileData) full = load (names[n]);
        g_autoptr(TvProfileData) counts = NULL;
        g_autoptr(TvViewState) filter = tv_view_state_new ();
        g_autoptr(GError) error = NULL;
        g_autoptr(GBytes) a = NULL;
        g_autoptr(GBytes) b = NULL;
        TvExportImageOptions options;
        TachReader *reader = NULL;
        TachError tach_error = { 0 };
        TvExportRange range = { -INFINITY, INFINITY };
        const TvExportRange *ranges = NULL;
        guint n_ranges = 0;

              tv_export_image_options_init (&options);
        options.colors = TV_FLAME_COLORS_THREAD_STATE;
        switch (f)
          {
          case 1:
            tv_view_state_set_state_filter (filter, TV_STATE_FILTER_GIL);
            break;
          case 2:
            tv_view_state_set_state_filter (filter, TV_STATE_FILTER_CPU);
            tv_view_state_set_inverted (filter, TRUE);
            break;
          case 3:
            range = (TvExportRange) { 0.1, 0.7 };
            break;
          case 4:
            {
              static const TvExportRange some[] = { { 0, 0.2 }, { 0.4, 0.5 },
                                                    { 0.9, INFINITY } };

              ranges = some;
              n_ranges = G_N_ELEMENTS (some);
              tv_view_state_set_merge (filter, TV_MERGE_LINE);
            }
            break;
          case 5:
            tv_view_state_set_state_filter (filter, TV_STATE_FILTER_EXCEPTION);
            tv_view_state_set_collapse_recursion (filter, TRUE);
            options.dark = TRUE;
            break;
          default:
            break;
          }
        g_assert_cmpint (tach_reader_open_path (path, &reader, &tach_error), ==, TACH_OK);
        /* Seconds after the start, as the command line takes them. */
        tv_export_select_seconds (filter, tach_reader_get_header (reader)->start_time_us,
                                  f == 3 ? &range : NULL, ranges, n_ranges);
        counts = tv_export_load (filter, reader, TRUE, NULL, &error);
        g_assert_no_error (error);
        g_assert_false (tv_profile_data_has_samples (counts));
        a = build (full, filter, TV_EXPORT_IMAGE_SVG, &options, &error);
        g_assert_no_error (error);
        b = build (counts, filter, TV_EXPORT_IMAGE_SVG, &options, &error);
        g_assert_no_error (error);
        {
          g_autofree char *x = without_surface_ids (a);
          g_autofree char *y = without_surface_ids (b);

          g_assert_cmpstr (x, ==, y);
        }
      }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/export/image/options", test_options);
  g_test_add_func ("/export/image/zoom", test_zoom);
  g_test_add_func ("/export/image/merge-keys", test_merge_keys);
  g_test_add_func ("/export/image/errors", test_errors);
  g_test_add_func ("/export/image/state-from-counts", test_state_from_counts);

  return g_test_run ();
}
