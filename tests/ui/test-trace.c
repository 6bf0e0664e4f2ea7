/* test-trace.c: TACHYON_VIEWER_TRACE, the stages the real app reports
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The variable is set before the application starts; a corpus file is
 * opened in the window, and the trace file must then hold each of the six
 * stages once, as one JSON line of this process, with times and CPU times
 * that never go back.  The order is checked where it is causal: the
 * properties come after the file was opened, and every drawing after the
 * decode, which comes after the opening (properties and decode race on a
 * small file: the properties are drawn at the next frame, the decode may
 * finish first).  A reload is a new profile, with stages of its own.
 */
#include <unistd.h>

#include <adwaita.h>
#include <glib/gstdio.h>

#include "tv-application.h"
#include "tv-trace.h"
#include "tv-window.h"
#include "ui-test-util.h"

static TvApplication *application;
static char *trace_dir;
static char *trace_path;

static const char *const stages[] = {
  TV_TRACE_OPENED, TV_TRACE_PROPERTIES, TV_TRACE_DECODED, TV_TRACE_FLAME_GRAPH,
  TV_TRACE_TIMELINE, TV_TRACE_SIDE_PANELS,
};
#define N_STAGES G_N_ELEMENTS (stages)

typedef struct
{
  char   *stage;
  char   *file;
  gint64  time_us;
  gint64  cpu_us;
  gint64  pid;
} TraceLine;

static void
trace_line_clear (gpointer data)
{
  TraceLine *line = data;

  g_free (line->stage);
  g_free (line->file);
}

/* The lines of the trace file, each of which must be of the format. */
static GArray *
read_trace (void)
{
  g_autoptr(GRegex) regex = g_regex_new ("^\\{\"stage\":\"([a-z_]+)\",\"file\":\"([^\"\\\\]*)\","
                                         "\"time_us\":([0-9]+),\"cpu_us\":([0-9]+),"
                                         "\"pid\":([0-9]+)\\}$", 0, 0, NULL);
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;
  GArray *out = g_array_new (FALSE, TRUE, sizeof (TraceLine));

  g_array_set_clear_func (out, trace_line_clear);
  if (!g_file_get_contents (trace_path, &text, NULL, NULL))
    return out;
  g_assert_true (g_str_has_suffix (text, "\n"));
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL && lines[i][0] != '\0'; i++)
    {
      g_autoptr(GMatchInfo) match = NULL;
      TraceLine line = { 0 };
      g_autofree char *time_us = NULL;
      g_autofree char *cpu_us = NULL;
      g_autofree char *pid = NULL;

      if (!g_regex_match (regex, lines[i], 0, &match))
        g_error ("not a trace line: %s", lines[i]);
      line.stage = g_match_info_fetch (match, 1);
      line.file = g_match_info_fetch (match, 2);
      time_us = g_match_info_fetch (match, 3);
      cpu_us = g_match_info_fetch (match, 4);
      pid = g_match_info_fetch (match, 5);
      line.time_us = g_ascii_strtoll (time_us, NULL, 10);
      line.cpu_us = g_ascii_strtoll (cpu_us, NULL, 10);
      line.pid = g_ascii_strtoll (pid, NULL, 10);
      g_array_append_val (out, line);
    }
  return out;
}

static guint
n_trace_lines (void)
{
  g_autoptr(GArray) lines = read_trace ();

  return lines->len;
}

static gint64
stage_time (GArray     *lines,
            guint       first,
            const char *stage)
{
  for (guint i = first; i < lines->len; i++)
    if (g_strcmp0 (g_array_index (lines, TraceLine, i).stage, stage) == 0)
      return g_array_index (lines, TraceLine, i).time_us;
  g_error ("no stage %s in the trace", stage);
  return -1;
}

/* The N_STAGES lines from FIRST on: every stage once, of FILE and this
 * process, in an order that can be. */
static void
check_stages (GArray     *lines,
              guint       first,
              const char *file)
{
  gint64 opened, decoded;

  g_assert_cmpuint (lines->len, ==, first + N_STAGES);
  for (guint s = 0; s < N_STAGES; s++)
    {
      guint seen = 0;

      for (guint i = first; i < lines->len; i++)
        seen += g_strcmp0 (g_array_index (lines, TraceLine, i).stage, stages[s]) == 0;
      g_assert_cmpuint (seen, ==, 1);
    }
  for (guint i = first; i < lines->len; i++)
    {
      const TraceLine *line = &g_array_index (lines, TraceLine, i);

      g_assert_cmpstr (line->file, ==, file);
      g_assert_cmpint (line->pid, ==, getpid ());
      g_assert_cmpint (line->cpu_us, >, 0);
      /* Appended as they happen: the clocks never go back. */
      if (i > first)
        {
          g_assert_cmpint (line->time_us, >=, g_array_index (lines, TraceLine, i - 1).time_us);
          g_assert_cmpint (line->cpu_us, >=, g_array_index (lines, TraceLine, i - 1).cpu_us);
        }
    }
  g_assert_cmpstr (g_array_index (lines, TraceLine, first).stage, ==, TV_TRACE_OPENED);
  opened = stage_time (lines, first, TV_TRACE_OPENED);
  decoded = stage_time (lines, first, TV_TRACE_DECODED);
  g_assert_cmpint (stage_time (lines, first, TV_TRACE_PROPERTIES), >, opened);
  g_assert_cmpint (decoded, >=, opened);
  /* Drawn at a frame after the decode finished. */
  g_assert_cmpint (stage_time (lines, first, TV_TRACE_FLAME_GRAPH), >, decoded);
  g_assert_cmpint (stage_time (lines, first, TV_TRACE_TIMELINE), >, decoded);
  g_assert_cmpint (stage_time (lines, first, TV_TRACE_SIDE_PANELS), >, decoded);
}

static void
test_trace_stages (void)
{
  const char *dir = g_getenv ("TACH_TEST_DATA");
  g_autoptr(GFile) file = NULL;
  g_autoptr(GArray) lines = NULL;
  TvProfilePage *page;

  g_assert_nonnull (dir);
  g_assert_true (tv_trace_enabled ());
  file = g_file_new_build_filename (dir, "valid", "rec_recursive.zst.tach", NULL);
  g_application_activate (G_APPLICATION (application));
  page = tv_window_open_file (ui_test_get_window (GTK_APPLICATION (application)), file);
  ui_test_wait_loaded (page);
  WAIT_UNTIL (n_trace_lines () >= N_STAGES, 30000);
  /* Frames that come after write nothing more. */
  ui_test_spin (500);
  lines = read_trace ();
  check_stages (lines, 0, "rec_recursive.zst.tach");

  /* A reload is a new profile: its stages again, once each. */
  tv_profile_page_reload (page);
  WAIT_UNTIL (n_trace_lines () >= 2 * N_STAGES, 30000);
  ui_test_spin (500);
  g_clear_pointer (&lines, g_array_unref);
  lines = read_trace ();
  check_stages (lines, N_STAGES, "rec_recursive.zst.tach");
  g_assert_cmpint (g_array_index (lines, TraceLine, N_STAGES).time_us, >=,
                   g_array_index (lines, TraceLine, N_STAGES - 1).time_us);
}

int
main (int   argc,
      char *argv[])
{
  int ret;

  /* Read once, when the first stage is written: set before anything is. */
  trace_dir = g_dir_make_tmp ("tv-trace-XXXXXX", NULL);
  g_assert_nonnull (trace_dir);
  trace_path = g_build_filename (trace_dir, "trace.jsonl", NULL);
  g_setenv ("TACHYON_VIEWER_TRACE", trace_path, TRUE);

  if (!ui_test_init (&argc, &argv))
    return 77;

  g_test_add_func ("/trace/stages", test_trace_stages);
  ret = ui_test_run_in_application (&application, FALSE);

  g_remove (trace_path);
  g_rmdir (trace_dir);
  g_free (trace_path);
  g_free (trace_dir);
  return ret;
}
