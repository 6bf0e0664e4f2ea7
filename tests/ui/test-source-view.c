/* test-source-view.c: the source panel on GtkSourceView
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A profile of a script written at test time, whose frames name it:
 * selecting a frame in the flame graph shows the whole file in a
 * GtkSourceView with Python's syntax, the samples of each line in the heat
 * gutter equal to the model's, the frame's columns (UTF-8 bytes, after a
 * non-ASCII string) covered by the span tag exactly, its line tinted and
 * scrolled into view, and libadwaita's scheme, light or dark.  The file
 * gone, the gutter numbers the lines with samples itself.  Screenshots,
 * light and dark, go to TV_TEST_OUTPUT_DIR.
 */
#include <string.h>

#include <adwaita.h>
#include <glib/gstdio.h>

#include "tachyon-format.h"
#include "tv-application.h"
#include "tv-flame-view.h"
#include "tv-profile-page.h"
#include "tv-source-view.h"
#include "tv-units.h"
#include "tv-window.h"
#include "ui-test-util.h"

/* Lines of comments before the code, so that its lines are out of view
 * until the panel scrolls to them. */
#define N_FILLER_LINES  150

static TvApplication *application;
static char *dir;
static char *script;
static char *script_text;

/* The file's line LINE (from 1), without its newline. */
static char *
script_line (int line)
{
  g_auto(GStrv) lines = g_strsplit (script_text, "\n", -1);

  g_assert_cmpint (line, <=, (int) g_strv_length (lines));
  return g_strdup (lines[line - 1]);
}

/* The byte column of NEEDLE in LINE of the file. */
static int
column_of (int         line,
           const char *needle)
{
  g_autofree char *text = script_line (line);
  const char *at = strstr (text, needle);

  g_assert_nonnull (at);
  return at - text;
}

/* app.py: work() runs line W+1 six times (in a call whose columns come
 * after a non-ASCII string), line W+3 three times; main() runs it from
 * line M+1 (a call spanning two lines, M+1 to M+2), and has a sample of
 * its own there, and calls other() from M+2 twice. */
static int work_line, main_line;

static char *
write_profile (void)
{
  g_autoptr(GString) text = g_string_new ("import time\n");
  char *path = g_build_filename (dir, "app.tach", NULL);
  TachWriterOptions options = { 0 };
  TachWriter *writer = NULL;
  TachError tach_error;
  TachFrameInfo work_a, work_b, main_a, main_b, other;
  guint32 f_work_a, f_work_b, f_main_a, f_main_b, f_other;
  g_autoptr(GError) error = NULL;
  guint n = 0;

  for (guint i = 0; i < N_FILLER_LINES; i++)
    g_string_append_printf (text, "# filler line %u\n", i);
  work_line = N_FILLER_LINES + 2;
  g_string_append (text,
                   "def work(name):\n"
                   "    label = \"é—\" + name.upper()\n"
                   "    time.sleep(0)\n"
                   "    return label * 2\n"
                   "\n"
                   "def other():\n"
                   "    return 1\n"
                   "\n");
  main_line = work_line + 8;
  g_string_append (text,
                   "def main():\n"
                   "    work(\"x\") or \\\n"
                   "        other()\n");
  script_text = g_string_free (g_steal_pointer (&text), FALSE);
  g_assert_true (g_file_set_contents (script, script_text, -1, &error));

  work_a = (TachFrameInfo) { script, "work", work_line + 1, work_line + 1,
                             column_of (work_line + 1, "name.upper()"),
                             column_of (work_line + 1, "name.upper()") + strlen ("name.upper()"),
                             171 };
  work_b = (TachFrameInfo) { script, "work", work_line + 3, work_line + 3, 11, 20, 100 };
  main_a = (TachFrameInfo) { script, "main", main_line + 1, main_line + 2,
                             column_of (main_line + 1, "work"),
                             column_of (main_line + 2, "other()") + strlen ("other()"), 171 };
  main_b = (TachFrameInfo) { script, "main", main_line + 2, main_line + 2, 8, 15, 171 };
  other = (TachFrameInfo) { script, "other", work_line + 6, work_line + 6, 11, 12, 83 };

  options.start_time_us = 1000000;
  options.sample_interval_us = 1000;
  options.mode_raw = 1;
  if (tach_writer_new (path, &options, &writer, &tach_error) != TACH_OK
      || tach_writer_intern_frame (writer, &work_a, &f_work_a, &tach_error) != TACH_OK
      || tach_writer_intern_frame (writer, &work_b, &f_work_b, &tach_error) != TACH_OK
      || tach_writer_intern_frame (writer, &main_a, &f_main_a, &tach_error) != TACH_OK
      || tach_writer_intern_frame (writer, &main_b, &f_main_b, &tach_error) != TACH_OK
      || tach_writer_intern_frame (writer, &other, &f_other, &tach_error) != TACH_OK)
    g_error ("%s", tach_error.message);
  for (guint i = 0; i < 12; i++)
    {
      guint32 stack[2];
      guint depth = 2;

      if (i < 6)
        stack[0] = f_work_a, stack[1] = f_main_a;
      else if (i < 9)
        stack[0] = f_work_b, stack[1] = f_main_a;
      else if (i < 10)
        stack[0] = f_main_a, depth = 1;
      else
        stack[0] = f_other, stack[1] = f_main_b;
      if (tach_writer_add_sample (writer, 7, 0, options.start_time_us + n++ * 1000,
                                  TACH_STATUS_HAS_GIL | TACH_STATUS_ON_CPU | TACH_STATUS_MAIN_THREAD,
                                  stack, depth, &tach_error) != TACH_OK)
        g_error ("%s", tach_error.message);
    }
  if (tach_writer_finish (writer, &tach_error) != TACH_OK)
    g_error ("%s", tach_error.message);
  return path;
}

/* The node of the flame graph's tree under PARENT whose frame is at LINE. */
static guint32
child_at_line (TvCallTree *tree,
               guint32     parent,
               int         line)
{
  const guint32 *children;
  guint n_children;

  children = tv_call_tree_get_children (tree, parent, &n_children);
  for (guint i = 0; i < n_children; i++)
    {
      TvFrameLocation location;

      g_assert_true (tv_profile_data_get_frame_location (tv_call_tree_get_data (tree),
                                                         tv_call_tree_get_frame (tree, children[i]),
                                                         &location));
      if (location.line == line)
        return children[i];
    }
  g_assert_not_reached ();
}

/* The model's samples per line of FUNCTION, from a tree merged by line:
 * LINE -> total and self (two guint64 in a GArray). */
static GHashTable *
model_line_samples (TvProfileData *data,
                    guint32        function,
                    guint64       *function_total)
{
  GHashTable *lines = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, g_free);
  g_autoptr(TvCallTree) tree = NULL;
  TvQuery query;

  tv_query_init (&query, TV_MERGE_LINE);
  tree = tv_call_tree_new (data, &query, NULL);
  g_assert_nonnull (tree);
  *function_total = 0;
  for (guint32 node = 1; node < tv_call_tree_get_n_nodes (tree); node++)
    {
      TvFrameLocation location;
      guint64 *counts;

      if (tv_call_tree_get_function (tree, node) != function)
        continue;
      /* No recursion here: every call of the function is its outermost. */
      g_assert_true (tv_call_tree_get_parent (tree, node) == TV_ROOT_NODE
                     || tv_call_tree_get_function (tree, tv_call_tree_get_parent (tree, node))
                        != function);
      g_assert_true (tv_profile_data_get_frame_location (data, tv_call_tree_get_frame (tree, node),
                                                         &location));
      counts = g_hash_table_lookup (lines, GINT_TO_POINTER (location.line));
      if (counts == NULL)
        {
          counts = g_new0 (guint64, 2);
          g_hash_table_insert (lines, GINT_TO_POINTER (location.line), counts);
        }
      counts[0] += tv_call_tree_get_total (tree, node);
      counts[1] += tv_call_tree_get_self (tree, node);
      *function_total += tv_call_tree_get_total (tree, node);
    }
  return lines;
}

/* The gutter shows, at each line of the file, what the model counts for
 * FUNCTION there, and nothing at the other lines. */
static void
assert_gutter_matches_model (TvSourceView  *source,
                             TvProfileData *data,
                             guint32        function)
{
  TvSourceHeatGutter *gutter = tv_source_view_get_heat_gutter (source);
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (tv_source_view_get_text_view (source)));
  guint64 function_total;
  g_autoptr(GHashTable) lines = model_line_samples (data, function, &function_total);
  int n_lines = gtk_text_buffer_get_line_count (buffer);
  guint n_shown = 0;

  g_assert_cmpuint (g_hash_table_size (lines), >, 0);
  g_assert_false (tv_source_heat_gutter_get_numbered (gutter));
  for (int line = 1; line <= n_lines; line++)
    {
      guint64 *counts = g_hash_table_lookup (lines, GINT_TO_POINTER (line));
      TvSourceHeatCell cell;

      if (counts == NULL)
        {
          g_assert_false (tv_source_heat_gutter_get_cell (gutter, line - 1, &cell));
          continue;
        }
      g_assert_true (tv_source_heat_gutter_get_cell (gutter, line - 1, &cell));
      g_assert_cmpint (cell.line, ==, line);
      g_assert_cmpuint (cell.total, ==, counts[0]);
      g_assert_cmpuint (cell.self, ==, counts[1]);
      {
        g_autofree char *label = tv_source_heat_gutter_dup_label (gutter, line - 1);
        g_autofree char *share = tv_format_share (counts[0], function_total);

        g_assert_cmpstr (label, ==, share);
      }
      n_shown++;
    }
  g_assert_cmpuint (n_shown, ==, g_hash_table_size (lines));
  g_assert_cmpuint (tv_source_heat_gutter_get_n_cells (gutter), ==, n_shown);
}

/* The text the span tag covers: one stretch, exactly. */
static char *
span_text (GtkTextBuffer *buffer)
{
  GtkTextTag *tag = gtk_text_tag_table_lookup (gtk_text_buffer_get_tag_table (buffer),
                                               "tv-marked-span");
  GtkTextIter start, end;

  g_assert_nonnull (tag);
  gtk_text_buffer_get_start_iter (buffer, &start);
  if (!gtk_text_iter_starts_tag (&start, tag))
    g_assert_true (gtk_text_iter_forward_to_tag_toggle (&start, tag));
  g_assert_true (gtk_text_iter_starts_tag (&start, tag));
  end = start;
  g_assert_true (gtk_text_iter_forward_to_tag_toggle (&end, tag));
  g_assert_true (gtk_text_iter_ends_tag (&end, tag));
  {
    GtkTextIter after = end;

    /* Nothing else is tagged. */
    g_assert_false (gtk_text_iter_forward_to_tag_toggle (&after, tag));
  }
  return gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
}

/* Whether LINE (from 1) is in the view's visible part. */
static gboolean
line_in_view (GtkTextView *view,
              int          line)
{
  GdkRectangle visible;
  GtkTextIter iter;
  int y, height;

  gtk_text_view_get_visible_rect (view, &visible);
  gtk_text_buffer_get_iter_at_line (gtk_text_view_get_buffer (view), &iter, line - 1);
  gtk_text_view_get_line_yrange (view, &iter, &y, &height);
  /* Lines not measured yet have no height. */
  return visible.height > 0 && height > 0 && y >= visible.y && y + height <= visible.y + visible.height;
}

static gboolean
line_has_tag (GtkTextBuffer *buffer,
              int            line,
              const char    *name)
{
  GtkTextTag *tag = gtk_text_tag_table_lookup (gtk_text_buffer_get_tag_table (buffer), name);
  GtkTextIter iter;

  gtk_text_buffer_get_iter_at_line (buffer, &iter, line - 1);
  return gtk_text_iter_has_tag (&iter, tag);
}

static const char *
scheme_id (GtkTextBuffer *buffer)
{
  GtkSourceStyleScheme *scheme = gtk_source_buffer_get_style_scheme (GTK_SOURCE_BUFFER (buffer));

  g_assert_nonnull (scheme);
  return gtk_source_style_scheme_get_id (scheme);
}

static void
test_source_view (void)
{
  g_autofree char *path = write_profile ();
  g_autoptr(GFile) file = g_file_new_for_path (path);
  TvWindow *window = ui_test_get_window (GTK_APPLICATION (application));
  TvProfilePage *page = tv_window_open_file (window, file);
  TvFlameView *view;
  TvFlameGraph *graph;
  TvSourceView *source;
  GtkSourceView *text_view;
  GtkTextBuffer *buffer;
  GtkStack *side;
  TvCallTree *tree;
  TvProfileData *data;
  guint32 main_node, work_node, other_node;
  g_autofree char *contents = NULL;
  GtkTextIter start, end;

  ui_test_wait_loaded (page);
  ui_test_set_dark (FALSE);
  /* A node per frame, so that each frame of the script can be selected. */
  tv_view_state_set_merge (tv_profile_page_get_view_state (page), TV_MERGE_FRAME);
  view = tv_profile_page_get_flame_view (page);
  graph = tv_flame_view_get_graph (view);
  source = tv_flame_view_get_source_view (view);
  side = GTK_STACK (gtk_widget_get_parent (GTK_WIDGET (source)));
  /* The view of the file is made when the panel is first shown. */
  g_assert_null (tv_source_view_get_text_view (source));
  gtk_stack_set_visible_child (side, GTK_WIDGET (source));
  WAIT_UNTIL (tv_source_view_get_text_view (source) != NULL, 5000);
  text_view = tv_source_view_get_text_view (source);
  buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (text_view));
  WAIT_UNTIL (!tv_flame_view_is_busy (view) && tv_flame_graph_get_tree (graph) != NULL
              && tv_call_tree_get_merge (tv_flame_graph_get_tree (graph)) == TV_MERGE_FRAME,
              10000);
  tree = tv_flame_graph_get_tree (graph);
  data = tv_call_tree_get_data (tree);
  g_assert_cmpuint (tv_call_tree_get_n_samples (tree), ==, 12);
  main_node = child_at_line (tree, TV_ROOT_NODE, main_line + 1);
  work_node = child_at_line (tree, main_node, work_line + 1);

  /* A frame of work(): the whole file, as Python, read-only, numbered. */
  tv_flame_graph_set_selected (graph, work_node);
  WAIT_UNTIL (!tv_source_view_is_busy (source), 10000);
  g_assert_true (tv_source_view_has_source (source));
  gtk_text_buffer_get_bounds (buffer, &start, &end);
  contents = gtk_text_buffer_get_text (buffer, &start, &end, TRUE);
  g_assert_cmpstr (contents, ==, script_text);
  g_assert_nonnull (gtk_source_buffer_get_language (GTK_SOURCE_BUFFER (buffer)));
  g_assert_cmpstr (gtk_source_language_get_id (gtk_source_buffer_get_language (GTK_SOURCE_BUFFER (buffer))),
                   ==, "python3");
  g_assert_false (gtk_text_view_get_editable (GTK_TEXT_VIEW (text_view)));
  g_assert_true (gtk_text_view_get_monospace (GTK_TEXT_VIEW (text_view)));
  g_assert_true (gtk_source_view_get_show_line_numbers (text_view));

  /* The gutter's samples are the model's, line by line: 6 and 3 of 9. */
  assert_gutter_matches_model (source, data, tv_call_tree_get_function (tree, work_node));
  {
    TvSourceHeatCell cell;

    g_assert_true (tv_source_heat_gutter_get_cell (tv_source_view_get_heat_gutter (source),
                                                   work_line, &cell));
    g_assert_cmpuint (cell.total, ==, 6);
    g_assert_cmpuint (cell.self, ==, 6);
  }

  /* The frame's columns count UTF-8 bytes: the tag covers the call after
   * "é—" exactly; its line is tinted and scrolled into view. */
  {
    g_autofree char *span = span_text (buffer);

    g_assert_cmpstr (span, ==, "name.upper()");
  }
  g_assert_true (line_has_tag (buffer, work_line + 1, "tv-marked-line"));
  g_assert_false (line_has_tag (buffer, work_line + 3, "tv-marked-line"));
  WAIT_UNTIL (line_in_view (GTK_TEXT_VIEW (text_view), work_line + 1), 5000);
  g_assert_false (line_in_view (GTK_TEXT_VIEW (text_view), 1));

  /* libadwaita's scheme, which follows the dark style. */
  g_assert_cmpstr (scheme_id (buffer), ==, "Adwaita");
  ui_test_save_screenshot (GTK_WIDGET (window), "source-view-light.png", 300);
  ui_test_set_dark (TRUE);
  g_assert_cmpstr (scheme_id (buffer), ==, "Adwaita-dark");
  ui_test_save_screenshot (GTK_WIDGET (window), "source-view-dark.png", 300);
  ui_test_set_dark (FALSE);
  g_assert_cmpstr (scheme_id (buffer), ==, "Adwaita");

  /* A frame of main() whose call spans two lines: the tag spans them. */
  tv_flame_graph_set_selected (graph, main_node);
  WAIT_UNTIL (!tv_source_view_is_busy (source), 10000);
  assert_gutter_matches_model (source, data, tv_call_tree_get_function (tree, main_node));
  {
    g_autofree char *span = span_text (buffer);

    g_assert_cmpstr (span, ==, "work(\"x\") or \\\n        other()");
  }
  g_assert_true (line_has_tag (buffer, main_line + 1, "tv-marked-line"));
  g_assert_false (line_has_tag (buffer, work_line + 1, "tv-marked-line"));

  /* The file gone: the status says so, and the gutter numbers the lines
   * with samples itself, one row each, with the model's counts. */
  other_node = child_at_line (tree, child_at_line (tree, TV_ROOT_NODE, main_line + 2),
                              work_line + 6);
  {
    g_autofree char *moved = g_strconcat (script, ".moved", NULL);
    TvSourceHeatGutter *gutter = tv_source_view_get_heat_gutter (source);
    TvSourceHeatCell cell;

    g_assert_cmpint (g_rename (script, moved), ==, 0);
    tv_flame_graph_set_selected (graph, work_node);
    WAIT_UNTIL (!tv_source_view_is_busy (source), 10000);
    g_assert_false (tv_source_view_has_source (source));
    g_assert_nonnull (strstr (tv_source_view_get_status (source), "not on this machine"));
    g_assert_null (gtk_source_buffer_get_language (GTK_SOURCE_BUFFER (buffer)));
    g_assert_false (gtk_source_view_get_show_line_numbers (text_view));
    g_assert_true (tv_source_heat_gutter_get_numbered (gutter));
    g_assert_cmpuint (tv_source_heat_gutter_get_n_cells (gutter), ==, 2);
    /* A row for each, and the empty line after the last newline. */
    g_assert_cmpint (gtk_text_buffer_get_line_count (buffer), ==, 3);
    g_assert_true (tv_source_heat_gutter_get_cell (gutter, 0, &cell));
    g_assert_cmpint (cell.line, ==, work_line + 1);
    g_assert_cmpuint (cell.total, ==, 6);
    g_assert_true (tv_source_heat_gutter_get_cell (gutter, 1, &cell));
    g_assert_cmpint (cell.line, ==, work_line + 3);
    g_assert_cmpuint (cell.total, ==, 3);
    g_assert_cmpuint (cell.self, ==, 3);
    /* The selected frame's row is still marked; there are no columns. */
    g_assert_true (line_has_tag (buffer, 1, "tv-marked-line"));
    g_assert_false (line_has_tag (buffer, 2, "tv-marked-line"));
    ui_test_save_screenshot (GTK_WIDGET (window), "source-view-missing.png", 300);
    /* The last row too. */
    tv_flame_graph_set_selected (graph, child_at_line (tree, main_node, work_line + 3));
    WAIT_UNTIL (!tv_source_view_is_busy (source), 10000);
    g_assert_false (line_has_tag (buffer, 1, "tv-marked-line"));
    g_assert_true (line_has_tag (buffer, 2, "tv-marked-line"));

    /* Back, and another function of it. */
    g_assert_cmpint (g_rename (moved, script), ==, 0);
    tv_flame_graph_set_selected (graph, other_node);
    WAIT_UNTIL (!tv_source_view_is_busy (source), 10000);
    g_assert_true (tv_source_view_has_source (source));
    g_assert_false (tv_source_heat_gutter_get_numbered (gutter));
    assert_gutter_matches_model (source, data, tv_call_tree_get_function (tree, other_node));

    /* Selected while the panel is hidden, shown when it is shown. */
    gtk_stack_set_visible_child (side, GTK_WIDGET (tv_flame_view_get_function_table (view)));
    WAIT_UNTIL (!gtk_widget_get_mapped (GTK_WIDGET (source)), 5000);
    tv_flame_graph_set_selected (graph, work_node);
    WAIT_UNTIL (!tv_source_view_is_busy (source), 10000);
    gtk_stack_set_visible_child (side, GTK_WIDGET (source));
    WAIT_UNTIL (gtk_widget_get_mapped (GTK_WIDGET (source)), 5000);
    g_assert_true (line_has_tag (buffer, work_line + 1, "tv-marked-line"));
    assert_gutter_matches_model (source, data, tv_call_tree_get_function (tree, work_node));
  }

  ui_test_close_page (window, page);
  g_unlink (path);
}

int
main (int   argc,
      char *argv[])
{
  int ret;

  if (!ui_test_init (&argc, &argv))
    return 77;

  dir = g_dir_make_tmp ("tv-test-source-view-XXXXXX", NULL);
  g_assert_nonnull (dir);
  script = g_build_filename (dir, "app.py", NULL);

  g_test_add_func ("/ui/source-view/gtksourceview", test_source_view);

  ret = ui_test_run_in_application (&application, TRUE);
  g_unlink (script);
  g_rmdir (dir);
  g_free (script);
  g_free (script_text);
  g_free (dir);
  return ret;
}
