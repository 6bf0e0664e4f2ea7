/* test-timeline.c: the timeline's lanes under the mouse and the keyboard
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Drives the real TvTimelineView in a window of its own under
 * gtk_test_init (every warning is fatal), with corpus profiles loaded by
 * TvProfile.  The first tests emit the gestures' signals in the order GTK
 * emits them; the last one sends real pointer and key events through the
 * X server (xdotool, XTest) to the window, as a user would, which is why
 * meson runs this test alone.  Screenshots go to TV_TEST_OUTPUT_DIR.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <adwaita.h>
#include <gdk/x11/gdkx.h>
#include <glib/gstdio.h>

#include "tv-timeline-view.h"
#include "tv-units.h"
#include "ui-test-util.h"

static GtkWindow *window;
static GtkWidget *entry;
static TvProfile *profile;
static TvViewState *state;
static TvTimelineView *view;
static GtkWidget *area;
static char *view_profile;
static char *threads_dir;
static char *threads64_path;

/* A profile of 64 threads, 24 of them idle (ui_test_write_threads_profile ()). */
static const char *
threads64 (void)
{
  if (threads64_path == NULL)
    {
      g_autoptr(GError) error = NULL;

      threads_dir = g_dir_make_tmp ("tv-test-timeline-XXXXXX", &error);
      g_assert_no_error (error);
      threads64_path = g_build_filename (threads_dir, "t64.tach", NULL);
      ui_test_write_threads_profile (threads64_path, 64, 24);
    }
  return threads64_path;
}

/* A fresh view of the corpus profile NAME (or the file at that absolute
 * path) under an entry that has the
 * keyboard focus, the selection cleared. */
static void
use_profile (const char *name)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);

  g_clear_object (&state);
  g_clear_object (&profile);
  g_free (view_profile);
  view_profile = g_strdup (name);
  profile = ui_test_load_corpus (name);
  state = tv_view_state_new ();
  view = TV_TIMELINE_VIEW (tv_timeline_view_new (profile, state));
  gtk_widget_set_vexpand (GTK_WIDGET (view), TRUE);
  entry = gtk_entry_new ();
  gtk_box_append (GTK_BOX (box), entry);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (view));
  gtk_window_set_child (window, box);
  WAIT_UNTIL (tv_timeline_view_get_timeline (view) != NULL, 10000);
  /* The drawing area: the first child of the view's box. */
  area = gtk_widget_get_first_child (gtk_widget_get_first_child (GTK_WIDGET (view)));
  g_assert_true (GTK_IS_DRAWING_AREA (area));
  WAIT_UNTIL (gtk_widget_get_width (area) > 0 && gtk_widget_get_mapped (area), 10000);
  ui_test_spin (50);
}

static void
reset (const char *name)
{
  if (view == NULL || g_strcmp0 (view_profile, name) != 0)
    use_profile (name);
  tv_view_state_clear_range (state);
  tv_view_state_set_threads (state, NULL, 0);
  /* Every lane a row of its own, but in the tests of folding. */
  g_object_set (view, "fold-idle", FALSE, NULL);
  gtk_adjustment_set_value (tv_timeline_view_get_vadjustment (view), 0);
  gtk_widget_grab_focus (entry);
  g_assert_true (gtk_widget_is_ancestor (gtk_root_get_focus (GTK_ROOT (window)), entry));
}

/* The lane in the middle of the display order, which is no main thread
 * (the main thread comes first). */
static guint
middle_lane (void)
{
  TvTimeline *timeline = tv_timeline_view_get_timeline (view);
  guint n_order;
  const guint32 *order = tv_timeline_get_order (timeline, &n_order);

  g_assert_cmpuint (n_order, >=, 3);
  g_assert_false (tv_timeline_get_lane (timeline, order[n_order / 2])->main_thread);
  return order[n_order / 2];
}

/* The point FRACTION of the way across the window, in the middle of
 * LANE's band, in the drawing area's pixels. */
static graphene_point_t
lane_point (guint  lane,
            double fraction)
{
  graphene_rect_t rect;
  graphene_point_t p;
  double t0, t1, x;

  g_assert_true (tv_timeline_view_get_lane_rect (view, lane, &rect));
  tv_timeline_view_get_window (view, &t0, &t1);
  x = tv_timeline_view_time_to_x (view, t0 + fraction * (t1 - t0));
  g_assert_true (gtk_widget_compute_point (GTK_WIDGET (view), area,
                                           &GRAPHENE_POINT_INIT (x, rect.origin.y
                                                                    + rect.size.height / 2),
                                           &p));
  return p;
}

/* The time (since the first sample) at X of the drawing area. */
static double
time_at (double x)
{
  double t0, t1, x0, x1;

  tv_timeline_view_get_window (view, &t0, &t1);
  x0 = tv_timeline_view_time_to_x (view, t0);
  x1 = tv_timeline_view_time_to_x (view, t1);
  return t0 + (x - x0) / (x1 - x0) * (t1 - t0);
}

/* A press at P that moves by DX, DY through STEPS motions, then is
 * released, as GTK emits it to the area's drag and click gestures: the
 * click's "pressed" and the drag's "drag-begin", the drag's
 * "drag-update"s, and at the release the click's "released" and the
 * drag's "drag-end", RELEASED_FIRST saying in which order. */
static void
press_move_release (graphene_point_t p,
                    double           dx,
                    double           dy,
                    guint            steps,
                    gboolean         released_first)
{
  GtkEventController *drag = ui_test_find_controller (area, GTK_TYPE_GESTURE_DRAG, 0);
  GtkEventController *click = ui_test_find_controller (area, GTK_TYPE_GESTURE_CLICK, 0);

  g_signal_emit_by_name (click, "pressed", 1, (double) p.x, (double) p.y);
  g_signal_emit_by_name (drag, "drag-begin", (double) p.x, (double) p.y);
  for (guint i = 1; i <= steps; i++)
    g_signal_emit_by_name (drag, "drag-update", dx * i / steps, dy * i / steps);
  if (released_first)
    g_signal_emit_by_name (click, "released", 1, p.x + dx, p.y + dy);
  g_signal_emit_by_name (drag, "drag-end", dx, dy);
  if (!released_first)
    g_signal_emit_by_name (click, "released", 1, p.x + dx, p.y + dy);
}

/* ------------------------------------------------------------------------ */
/* Tests                                                                     */
/* ------------------------------------------------------------------------ */

/* A drag over the lanes selects a time range and nothing else, whichever
 * of the click's release and the drag's end comes first; a click (a
 * press that moves less than the drag threshold) picks the lane's thread. */
static void
test_drag_over_lanes (void)
{
  guint lane;
  graphene_point_t p;
  const guint32 *threads;
  guint n_threads;
  guint64 start, end, origin;
  double t0, t1;

  reset ("rec_threads.tach");
  lane = middle_lane ();
  origin = tv_timeline_get_origin (tv_timeline_view_get_timeline (view));
  p = lane_point (lane, 0.25);

  for (guint order = 0; order < 2; order++)
    {
      tv_view_state_clear_range (state);
      press_move_release (p, lane_point (lane, 0.75).x - p.x, 0, 5, order == 1);
      g_assert_true (tv_view_state_get_range (state, &start, &end));
      tv_timeline_view_get_window (view, &t0, &t1);
      g_assert_cmpfloat (fabs ((double) (start - origin) - (t0 + (t1 - t0) / 4)), <,
                         (t1 - t0) / 100);
      g_assert_cmpfloat (fabs ((double) (end - origin) - (t0 + 3 * (t1 - t0) / 4)), <,
                         (t1 - t0) / 100);
      threads = tv_view_state_get_threads (state, &n_threads);
      g_assert_cmpuint (n_threads, ==, 0);
    }

  /* Down over one lane, up over another, no time to speak of: a drag. */
  {
    graphene_rect_t rect;
    guint n_order;
    const guint32 *order = tv_timeline_get_order (tv_timeline_view_get_timeline (view), &n_order);

    g_assert_true (tv_timeline_view_get_lane_rect (view, order[n_order - 1], &rect));
    press_move_release (p, 1, rect.origin.y + 2 - p.y, 3, FALSE);
    tv_view_state_get_threads (state, &n_threads);
    g_assert_cmpuint (n_threads, ==, 0);
  }

  /* A click, still or with a pixel of jitter, picks the thread; the range
   * stays. */
  press_move_release (p, 0, 0, 0, FALSE);
  threads = tv_view_state_get_threads (state, &n_threads);
  g_assert_cmpuint (n_threads, ==, 1);
  g_assert_cmpuint (threads[0], ==, lane);
  g_assert_true (tv_view_state_get_range (state, NULL, NULL));
  tv_view_state_set_threads (state, NULL, 0);
  press_move_release (p, 1, 1, 2, TRUE);
  threads = tv_view_state_get_threads (state, &n_threads);
  g_assert_cmpuint (n_threads, ==, 1);
  g_assert_cmpuint (threads[0], ==, lane);
}

/* A drag or a click in the lanes takes the keyboard focus, so that Escape
 * (the view's binding) clears the range. */
static void
test_escape_after_drag (void)
{
  guint lane;
  graphene_point_t p;

  reset ("rec_threads.tach");
  lane = middle_lane ();
  p = lane_point (lane, 0.25);

  /* With the focus elsewhere, Escape does not reach the timeline. */
  tv_timeline_view_select (view, 1000, 2000);
  g_assert_false (ui_test_deliver_key (window, GDK_KEY_Escape, 0));
  g_assert_true (tv_view_state_get_range (state, NULL, NULL));

  press_move_release (p, lane_point (lane, 0.5).x - p.x, 0, 4, FALSE);
  g_assert_true (tv_view_state_get_range (state, NULL, NULL));
  g_assert_true (gtk_widget_has_focus (area));
  g_assert_true (ui_test_deliver_key (window, GDK_KEY_Escape, 0));
  g_assert_false (tv_view_state_get_range (state, NULL, NULL));

  /* A click on a lane (which shows its thread) does the same. */
  gtk_widget_grab_focus (entry);
  tv_timeline_view_select (view, 1000, 2000);
  press_move_release (p, 0, 0, 0, FALSE);
  g_assert_true (gtk_widget_has_focus (area));
  g_assert_true (ui_test_deliver_key (window, GDK_KEY_Escape, 0));
  g_assert_false (tv_view_state_get_range (state, NULL, NULL));

  /* And a drag over the time axis. */
  gtk_widget_grab_focus (entry);
  {
    graphene_point_t q = GRAPHENE_POINT_INIT (p.x, 4);

    press_move_release (q, 40, 0, 2, TRUE);
  }
  g_assert_true (tv_view_state_get_range (state, NULL, NULL));
  g_assert_true (ui_test_deliver_key (window, GDK_KEY_Escape, 0));
  g_assert_false (tv_view_state_get_range (state, NULL, NULL));
}

/* The samples of LANE (or TV_TIMELINE_ALL) in the pixel column at X of
 * the drawing area, counted from the model by bisection, into COLUMN;
 * FROM and TO get the column's time. */
static guint64
count_column (guint             lane,
              double            x,
              TvTimelineColumn *column,
              double           *from,
              double           *to)
{
  TvTimeline *timeline = tv_timeline_view_get_timeline (view);
  double t0, t1, plot_x, plot_end;
  guint n_columns, c;

  tv_timeline_view_get_window (view, &t0, &t1);
  plot_x = tv_timeline_view_time_to_x (view, t0);
  plot_end = tv_timeline_view_time_to_x (view, t1);
  n_columns = (guint) ceil (plot_end - plot_x - 1e-6);
  c = (guint) floor ((x - plot_x) / (plot_end - plot_x) * n_columns);
  *from = t0 + c * (t1 - t0) / n_columns;
  *to = t0 + (c + 1) * (t1 - t0) / n_columns;
  return tv_timeline_count_range (timeline, lane, tv_timeline_time_to_timestamp (timeline, *from),
                                  tv_timeline_time_to_timestamp (timeline, *to), column);
}

static void
assert_has_line (const char *text,
                 const char *line)
{
  g_autofree char *framed = g_strconcat ("\n", text, "\n", NULL);
  g_autofree char *wanted = g_strconcat ("\n", line, "\n", NULL);

  if (strstr (framed, wanted) == NULL)
    g_error ("no line “%s” in “%s”", line, text);
}

/* What the tooltip at P (area pixels) says of LANE's column there;
 * returns how many states it lists. */
static guint
check_column_tooltip (guint            lane,
                      graphene_point_t p)
{
  static const char *labels[TV_TIMELINE_N_STATES] = {
    "Holding the GIL", "On CPU without the GIL", "Waiting for the GIL", "Exception", "Idle",
    "Unknown",
  };
  TvTimeline *timeline = tv_timeline_view_get_timeline (view);
  g_autofree char *text = NULL;
  g_autofree char *line = NULL;
  g_autofree char *from_text = NULL;
  g_autofree char *to_text = NULL;
  g_autofree char *count_text = NULL;
  TvTimelineColumn column;
  double from, to;
  guint64 n;
  graphene_point_t q;
  guint n_states = 0;

  g_assert_true (gtk_widget_compute_point (area, GTK_WIDGET (view), &p, &q));
  text = tv_timeline_view_describe_at (view, q.x, q.y);
  g_assert_nonnull (text);
  n = count_column (lane, p.x, &column, &from, &to);
  from_text = tv_timeline_format_time (from);
  to_text = tv_timeline_format_time (to);
  count_text = tv_format_count (n);
  line = g_strdup_printf ("%s to %s: %s sample%s", from_text, to_text, count_text,
                          n == 1 ? "" : "s");
  assert_has_line (text, line);
  for (guint s = 0; s < TV_TIMELINE_N_STATES; s++)
    {
      guint64 k = tv_timeline_column_get_state (&column, s);
      g_autofree char *k_text = tv_format_count (k);
      /* Three significant digits (tv-units.c). */
      g_autofree char *share = tv_format_share (k, n);
      g_autofree char *state_line = g_strdup_printf ("%s: %s (%s)", labels[s], k_text, share);

      if (k > 0)
        {
          assert_has_line (text, state_line);
          n_states++;
        }
      else
        g_assert_null (strstr (text, labels[s]));
    }
  if (lane != TV_TIMELINE_ALL)
    {
      const TvTimelineLane *info = tv_timeline_get_lane (timeline, lane);
      g_autofree char *label = g_strdup_printf ("T%u: ", info->position + 1);
      g_autofree char *name = g_strdup_printf ("%s%s %" G_GUINT64_FORMAT,
                                               info->main_thread ? "" : label,
                                               info->main_thread ? "Main thread" : "Thread",
                                               info->thread_id);

      g_assert_true (g_str_has_prefix (text, name));
      g_assert_true (text[strlen (name)] == '\n');
    }
  return n_states;
}

/* The tooltips of every lane and of the overview across the window;
 * returns the most states one lists. */
static guint
check_column_tooltips (void)
{
  TvTimeline *timeline = tv_timeline_view_get_timeline (view);
  guint n_order, most = 0;
  const guint32 *order = tv_timeline_get_order (timeline, &n_order);
  double t0, t1;

  tv_timeline_view_get_window (view, &t0, &t1);
  for (guint i = 1; i < 40; i++)
    {
      double x = tv_timeline_view_time_to_x (view, t0 + i * (t1 - t0) / 40);
      graphene_point_t p;

      for (guint k = 0; k < n_order; k++)
        most = MAX (most, check_column_tooltip (order[k], lane_point (order[k], i / 40.0)));
      /* The overview's band. */
      g_assert_true (gtk_widget_compute_point (GTK_WIDGET (view), area,
                                               &GRAPHENE_POINT_INIT (x, 40), &p));
      most = MAX (most, check_column_tooltip (TV_TIMELINE_ALL, p));
    }
  return most;
}

/* A lane's tooltip names its thread and counts the samples of the pixel
 * column under the pointer and their states, as the model does; in the
 * labels' column, all of the lane's samples. */
static void
test_tooltip (void)
{
  TvTimeline *timeline;
  guint lane;
  graphene_rect_t rect;
  g_autofree char *text = NULL;

  reset ("rec_threads.tach");
  timeline = tv_timeline_view_get_timeline (view);
  g_assert_true (gtk_widget_get_has_tooltip (area));
  lane = middle_lane ();

  /* The overview's tooltip: all threads. */
  text = tv_timeline_view_describe_at (view, 300, 40);
  g_test_message ("the overview's tooltip: %s", text);
  g_assert_true (g_str_has_prefix (text, "All threads\n"));
  /* Some columns mix states. */
  g_assert_cmpuint (check_column_tooltips (), >=, 3);
  /* Zoomed in, most columns are empty, the others hold a sample or two. */
  tv_timeline_view_select (view, 400000, 440000);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (view), "timeline.zoom-selection", NULL));
  check_column_tooltips ();
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (view), "timeline.back", NULL));

  /* The labels' column: the thread and all its samples. */
  g_assert_true (tv_timeline_view_get_lane_rect (view, lane, &rect));
  g_clear_pointer (&text, g_free);
  text = tv_timeline_view_describe_at (view, 3, rect.origin.y + rect.size.height / 2);
  g_assert_nonnull (text);
  {
    g_autofree char *expected = g_strdup_printf ("T%u: Thread %" G_GUINT64_FORMAT "\n%"
                                                 G_GUINT64_FORMAT " samples in all",
                                                 tv_timeline_get_lane (timeline, lane)->position + 1,
                                                 tv_timeline_get_lane (timeline, lane)->thread_id,
                                                 tv_timeline_get_lane (timeline, lane)->n_samples);

    g_assert_cmpstr (text, ==, expected);
  }

  /* Nothing over the legend or the axis. */
  {
    graphene_rect_t legend;

    g_assert_true (tv_timeline_view_get_legend_rect (view, TV_TIMELINE_STATE_IDLE, &legend));
    g_clear_pointer (&text, g_free);
    text = tv_timeline_view_describe_at (view, legend.origin.x + 2, legend.origin.y + 2);
    g_assert_null (text);
    text = tv_timeline_view_describe_at (view, rect.origin.x + 20, 3);
    g_assert_null (text);
  }
}

/* With several interpreters, the tooltip says whose thread it is. */
static void
test_tooltip_interpreters (void)
{
  TvTimeline *timeline;
  guint n_order, n_interpreters;
  const guint32 *order;

  reset ("two_interpreters.tach");
  timeline = tv_timeline_view_get_timeline (view);
  tv_timeline_get_interpreters (timeline, &n_interpreters);
  g_assert_cmpuint (n_interpreters, >, 1);
  order = tv_timeline_get_order (timeline, &n_order);
  for (guint i = 0; i < n_order; i++)
    {
      const TvTimelineLane *info = tv_timeline_get_lane (timeline, order[i]);
      g_autofree char *text = NULL;
      g_autofree char *label = g_strdup_printf ("T%u: ", info->position + 1);
      g_autofree char *name = g_strdup_printf ("%s%s %" G_GUINT64_FORMAT "\nInterpreter %u\n",
                                               info->main_thread ? "" : label,
                                               info->main_thread ? "Main thread" : "Thread",
                                               info->thread_id, info->interpreter_id);
      graphene_point_t p = lane_point (order[i], 0.5), q;

      g_assert_true (gtk_widget_compute_point (area, GTK_WIDGET (view), &p, &q));
      text = tv_timeline_view_describe_at (view, q.x, q.y);
      g_test_message ("tooltip: %s", text);
      g_assert_true (g_str_has_prefix (text, name));
      check_column_tooltip (order[i], p);
    }
}

/* ------------------------------------------------------------------------ */
/* Real input, through the X server                                          */
/* ------------------------------------------------------------------------ */

/* Runs xdotool with ARGS, where %W stands for the window's X id and %X
 * %Y for P (in the drawing area) in the window's X coordinates, rounded
 * down.  Returns where that is in the drawing area. */
static graphene_point_t
xdotool (const char       *args,
         graphene_point_t  p)
{
  GdkSurface *surface = gtk_native_get_surface (GTK_NATIVE (window));
  g_autofree char *command = NULL;
  g_auto(GStrv) argv = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GString) line = g_string_new (args);
  graphene_point_t w;
  double sx, sy;
  int status;

  g_assert_true (GDK_IS_X11_SURFACE (surface));
  g_assert_true (gtk_widget_compute_point (area, GTK_WIDGET (window), &p, &w));
  gtk_native_get_surface_transform (GTK_NATIVE (window), &sx, &sy);
  command = g_strdup_printf ("%lu", (gulong) gdk_x11_surface_get_xid (surface));
  g_string_replace (line, "%W", command, 0);
  g_free (command);
  command = g_strdup_printf ("%d", (int) floor (w.x + sx));
  g_string_replace (line, "%X", command, 0);
  g_free (command);
  command = g_strdup_printf ("%d", (int) floor (w.y + sy));
  g_string_replace (line, "%Y", command, 0);
  g_free (command);
  command = g_strconcat ("xdotool ", line->str, NULL);
  g_test_message ("%s", command);
  g_assert_true (g_shell_parse_argv (command, NULL, &argv, &error));
  g_assert_true (g_spawn_sync (NULL, argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL, NULL,
                               &status, &error));
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, &error));
  g_assert_no_error (error);
  return GRAPHENE_POINT_INIT (p.x + floor (w.x + sx) - (w.x + sx),
                              p.y + floor (w.y + sy) - (w.y + sy));
}

static gboolean
window_changed (double t0,
                double t1)
{
  double a, b;

  tv_timeline_view_get_window (view, &a, &b);
  return a != t0 || b != t1;
}

/* What the reviewer did with xdotool: a drag over the lanes selects a
 * range and leaves the threads alone; Escape then clears it; Ctrl+scroll
 * zooms around the pointer. */
static void
test_real_input (void)
{
  guint lane;
  graphene_point_t p, q;
  guint n_threads;
  double t0, t1, at, span;

  reset ("rec_threads.tach");
  lane = middle_lane ();
  p = lane_point (lane, 0.3);
  q = lane_point (lane, 0.5);

  xdotool ("mousemove --sync --window %W %X %Y", p);
  xdotool ("mousedown 1", p);
  xdotool ("mousemove --window %W %X %Y", GRAPHENE_POINT_INIT (p.x + 10, p.y));
  xdotool ("mousemove --sync --window %W %X %Y", q);
  xdotool ("mouseup 1", q);
  WAIT_UNTIL (tv_view_state_get_range (state, NULL, NULL), 10000);
  /* The release reached both gestures in one go. */
  tv_view_state_get_threads (state, &n_threads);
  g_assert_cmpuint (n_threads, ==, 0);
  g_assert_true (gtk_widget_has_focus (area));

  xdotool ("key Escape", q);
  WAIT_UNTIL (!tv_view_state_get_range (state, NULL, NULL), 10000);

  /* Ctrl+scroll up at a quarter of the window: that time stays under the
   * pointer. */
  p = lane_point (lane, 0.25);
  tv_timeline_view_get_window (view, &t0, &t1);
  xdotool ("mousemove --sync --window %W %X %Y", GRAPHENE_POINT_INIT (p.x + 3, p.y));
  p = xdotool ("mousemove --sync --window %W %X %Y", p);
  at = time_at (p.x);
  xdotool ("keydown Control_L click 4 keyup Control_L", p);
  WAIT_UNTIL (window_changed (t0, t1), 10000);
  span = t1 - t0;
  tv_timeline_view_get_window (view, &t0, &t1);
  g_assert_cmpfloat (fabs ((t1 - t0) - 0.8 * span), <, 1.0);
  g_test_message ("time under the pointer: %.3f µs, then %.3f µs", at, time_at (p.x));
  g_assert_cmpfloat (fabs (time_at (p.x) - at), <, 1.0);
  g_assert_cmpfloat (t0, >, 0);

  /* The pointer goes to the screen's far corner, away from the windows
   * of the tests that come after. */
  {
    GListModel *monitors = gdk_display_get_monitors (gtk_widget_get_display (area));
    g_autoptr(GdkMonitor) monitor = g_list_model_get_item (monitors, 0);
    g_autofree char *corner = NULL;
    GdkRectangle geometry;

    gdk_monitor_get_geometry (monitor, &geometry);
    corner = g_strdup_printf ("mousemove --sync %d %d", geometry.x + geometry.width - 1,
                              geometry.y + geometry.height - 1);
    xdotool (corner, p);
  }
}

/* A click on a legend entry picks the state filter that shows exactly
 * its samples, and a second click shows all again; the entries no filter
 * shows exactly ("On CPU without the GIL": "On CPU" counts the GIL's too;
 * "Idle"; "Unknown") change nothing. */
static void
test_legend (void)
{
  static const struct {
    TvTimelineState state;
    TvStateFilter   filter;        /* TV_N_STATE_FILTERS: none */
  } entries[] = {
    { TV_TIMELINE_STATE_RUNNING, TV_STATE_FILTER_GIL },
    { TV_TIMELINE_STATE_NATIVE, TV_N_STATE_FILTERS },
    { TV_TIMELINE_STATE_WAITING, TV_STATE_FILTER_GIL_WAIT },
    { TV_TIMELINE_STATE_EXCEPTION, TV_STATE_FILTER_EXCEPTION },
    { TV_TIMELINE_STATE_IDLE, TV_N_STATE_FILTERS },
    { TV_TIMELINE_STATE_UNKNOWN, TV_N_STATE_FILTERS },
  };

  reset ("rec_threads.tach");
  for (guint i = 0; i < G_N_ELEMENTS (entries); i++)
    {
      graphene_rect_t rect;
      graphene_point_t p;

      g_assert_true (tv_timeline_view_get_legend_rect (view, entries[i].state, &rect));
      p = GRAPHENE_POINT_INIT (rect.origin.x + rect.size.width / 2,
                               rect.origin.y + rect.size.height / 2);
      /* From a filter of another entry, which must stay if this one has
       * none. */
      tv_view_state_set_state_filter (state, TV_STATE_FILTER_EXCEPTION);
      if (entries[i].filter == TV_STATE_FILTER_EXCEPTION)
        tv_view_state_set_state_filter (state, TV_STATE_FILTER_GIL);
      press_move_release (p, 0, 0, 0, FALSE);
      if (entries[i].filter == TV_N_STATE_FILTERS)
        {
          g_assert_cmpint (tv_view_state_get_state_filter (state), ==, TV_STATE_FILTER_EXCEPTION);
          continue;
        }
      g_assert_cmpint (tv_view_state_get_state_filter (state), ==, entries[i].filter);
      press_move_release (p, 0, 0, 0, FALSE);
      g_assert_cmpint (tv_view_state_get_state_filter (state), ==, TV_STATE_FILTER_ALL);
    }
  tv_view_state_set_state_filter (state, TV_STATE_FILTER_ALL);
}

/* Pixels of RECT (the area's) that differ clearly from the pixel at
 * (X0, Y0): the ink of a text drawn there. */
static guint
count_ink (const guint8          *pixels,
           gsize                  stride,
           const graphene_rect_t *rect,
           int                    x0,
           int                    y0)
{
  const guint8 *bg = pixels + y0 * stride + x0 * 4;
  guint n = 0;

  for (int y = (int) rect->origin.y; y < (int) (rect->origin.y + rect->size.height); y++)
    for (int x = (int) rect->origin.x; x < (int) (rect->origin.x + rect->size.width); x++)
      {
        const guint8 *p = pixels + y * stride + x * 4;

        n += abs (p[0] - bg[0]) + abs (p[1] - bg[1]) + abs (p[2] - bg[2]) > 120;
      }
  return n;
}

/* The lanes area's bottom, in the view's pixels: the legend's top. */
static double
lanes_bottom (void)
{
  graphene_rect_t legend;

  g_assert_true (tv_timeline_view_get_legend_rect (view, TV_TIMELINE_STATE_RUNNING, &legend));
  return legend.origin.y - 6;
}

/* 64 lanes: each as high as its label and labelled "main", "T2"...
 * "T64" (the ink is there in the pixels), the ones that do not fit
 * scrolled to, with the scroll bar and with the wheel. */
static void
test_many_lanes (void)
{
  TvTimeline *timeline;
  GtkAdjustment *adjustment;
  GtkWidget *scrollbar;
  guint n_order, n_checked = 0;
  const guint32 *order;
  graphene_rect_t first, rect;
  double height = 0, top;

  reset (threads64 ());
  ui_test_spin (50);
  timeline = tv_timeline_view_get_timeline (view);
  order = tv_timeline_get_order (timeline, &n_order);
  g_assert_cmpuint (n_order, ==, 64);
  adjustment = tv_timeline_view_get_vadjustment (view);
  scrollbar = gtk_widget_get_next_sibling (area);
  g_assert_true (GTK_IS_SCROLLBAR (scrollbar));
  g_assert_true (gtk_widget_get_visible (scrollbar));
  g_assert_cmpfloat (gtk_adjustment_get_upper (adjustment), >,
                     gtk_adjustment_get_page_size (adjustment) + 100);

  g_assert_true (tv_timeline_view_get_lane_rect (view, order[0], &first));
  top = first.origin.y;
  for (guint p = 0; p < n_order; p++)
    {
      g_autofree char *label = tv_timeline_view_dup_lane_label (view, order[p]);
      g_autofree char *expected = p == 0 ? g_strdup ("main") : g_strdup_printf ("T%u", p + 1);

      g_assert_cmpstr (label, ==, expected);
      g_assert_true (tv_timeline_view_get_lane_rect (view, order[p], &rect));
      /* As high as each other, and as a label at least. */
      if (p == 0)
        height = rect.size.height;
      g_assert_cmpfloat (rect.size.height, ==, height);
      g_assert_cmpfloat (rect.size.height, >=, 14);
      g_assert_cmpfloat (rect.origin.y, ==, top + p * (height + 1));
    }

  /* The wheel scrolls by three lanes' worth; the lanes move up. */
  {
    GtkEventController *scroll = ui_test_find_controller (area, GTK_TYPE_EVENT_CONTROLLER_SCROLL,
                                                          0);
    gboolean handled = FALSE;

    g_signal_emit_by_name (scroll, "scroll", 0.0, 1.0, &handled);
    g_assert_true (handled);
    g_assert_cmpfloat (gtk_adjustment_get_value (adjustment), ==, 54);
    g_assert_true (tv_timeline_view_get_lane_rect (view, order[0], &rect));
    g_assert_cmpfloat (rect.origin.y, ==, top - 54);
  }

  /* Scrolled down page by page, every lane in view shows its label. */
  for (double value = 0;; value += gtk_adjustment_get_page_size (adjustment) / 2)
    {
      g_autoptr(GdkTexture) texture = NULL;
      g_autofree guint8 *pixels = NULL;
      gsize stride;
      gboolean last_page;

      gtk_adjustment_set_value (adjustment, value);
      last_page = gtk_adjustment_get_value (adjustment) < value;
      ui_test_spin (20);
      texture = ui_test_render_widget (area);
      stride = gdk_texture_get_width (texture) * 4;
      pixels = g_malloc (stride * gdk_texture_get_height (texture));
      gdk_texture_download (texture, pixels, stride);
      for (guint p = 0; p < n_order; p++)
        {
          graphene_rect_t label;
          graphene_point_t origin;

          g_assert_true (tv_timeline_view_get_lane_rect (view, order[p], &rect));
          if (rect.origin.y < top || rect.origin.y + rect.size.height > lanes_bottom ())
            continue;
          g_assert_true (gtk_widget_compute_point (GTK_WIDGET (view), area,
                                                   &GRAPHENE_POINT_INIT (0, rect.origin.y),
                                                   &origin));
          graphene_rect_init (&label, 4, origin.y, rect.origin.x - 8, rect.size.height);
          g_assert_cmpuint (count_ink (pixels, stride, &label, 1, (int) origin.y + 1), >=, 8);
          n_checked++;
        }
      if (last_page)
        break;
    }
  g_test_message ("%u lanes' labels seen", n_checked);
  g_assert_cmpuint (n_checked, >=, n_order);
  /* At the end, the last lane is in view at the bottom. */
  g_assert_true (tv_timeline_view_get_lane_rect (view, order[n_order - 1], &rect));
  g_assert_cmpfloat (rect.origin.y + rect.size.height, <=, lanes_bottom () + 6);
  g_assert_cmpfloat (rect.origin.y, >=, lanes_bottom () + 6 - 2 * height - 2);
}

/* The idle threads (the last 24, by construction) fold into one row
 * after the others, which a click unfolds; a selected idle thread keeps
 * its lane. */
static void
test_fold_idle (void)
{
  TvTimeline *timeline;
  graphene_rect_t rect, folded;
  g_autofree char *text = NULL;
  guint n_lanes;
  gboolean fold;

  reset (threads64 ());
  timeline = tv_timeline_view_get_timeline (view);
  n_lanes = tv_timeline_get_n_lanes (timeline);
  g_assert_false (tv_timeline_view_get_folded_rect (view, &folded));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (view), "timeline.fold-idle", NULL));
  g_object_get (view, "fold-idle", &fold, NULL);
  g_assert_true (fold);
  g_assert_cmpuint (tv_timeline_view_get_n_folded (view), ==, 24);
  g_assert_true (tv_timeline_view_get_folded_rect (view, &folded));
  for (guint lane = 0; lane < n_lanes; lane++)
    {
      const TvTimelineLane *info = tv_timeline_get_lane (timeline, lane);
      gboolean idle = info->thread_id >= 1000 + 40;

      g_assert_cmpint (tv_timeline_view_get_lane_rect (view, lane, &rect), ==, !idle);
      if (!idle)
        g_assert_cmpfloat (rect.origin.y, <, folded.origin.y);
    }

  /* A selected idle thread is not folded. */
  {
    guint32 idle_lane = G_MAXUINT32;

    for (guint lane = 0; lane < n_lanes; lane++)
      if (tv_timeline_get_lane (timeline, lane)->thread_id == 1050)
        idle_lane = lane;
    tv_view_state_set_threads (state, &idle_lane, 1);
    g_assert_cmpuint (tv_timeline_view_get_n_folded (view), ==, 23);
    g_assert_true (tv_timeline_view_get_lane_rect (view, idle_lane, &rect));
    tv_view_state_set_threads (state, NULL, 0);
    g_assert_cmpuint (tv_timeline_view_get_n_folded (view), ==, 24);
  }

  /* A click on the folded row, scrolled to, shows every lane. */
  gtk_adjustment_set_value (tv_timeline_view_get_vadjustment (view), 1e6);
  g_assert_true (tv_timeline_view_get_folded_rect (view, &folded));
  g_assert_cmpfloat (folded.origin.y + folded.size.height, <=, lanes_bottom () + 6);
  text = tv_timeline_view_describe_at (view, folded.origin.x + 200,
                                       folded.origin.y + folded.size.height / 2);
  g_assert_cmpstr (text, ==, "24 idle threads: click to show them");
  {
    graphene_point_t p;

    g_assert_true (gtk_widget_compute_point (GTK_WIDGET (view), area,
                                             &GRAPHENE_POINT_INIT (folded.origin.x + 200,
                                                                   folded.origin.y + 5),
                                             &p));
    press_move_release (p, 0, 0, 0, FALSE);
  }
  g_object_get (view, "fold-idle", &fold, NULL);
  g_assert_false (fold);
  g_assert_cmpuint (tv_timeline_view_get_n_folded (view), ==, 0);
  g_assert_false (tv_timeline_view_get_folded_rect (view, &folded));
  for (guint lane = 0; lane < n_lanes; lane++)
    g_assert_true (tv_timeline_view_get_lane_rect (view, lane, &rect));
  /* Nor does the view fold fewer than two lanes. */
  reset ("rec_recursive.tach");
  g_object_set (view, "fold-idle", TRUE, NULL);
  g_assert_cmpuint (tv_timeline_view_get_n_folded (view), ==, 0);
}

/* The lanes with the focus after a click, light and dark, for the eye. */
static void
test_screenshots (void)
{
  reset ("rec_threads.tach");
  press_move_release (lane_point (middle_lane (), 0.4), 0, 0, 0, FALSE);
  g_assert_true (gtk_widget_has_focus (area));
  ui_test_save_screenshot (GTK_WIDGET (window), "timeline-light.png", 200);
  adw_style_manager_set_color_scheme (adw_style_manager_get_default (),
                                      ADW_COLOR_SCHEME_FORCE_DARK);
  ui_test_save_screenshot (GTK_WIDGET (window), "timeline-dark.png", 200);
  adw_style_manager_set_color_scheme (adw_style_manager_get_default (),
                                      ADW_COLOR_SCHEME_DEFAULT);
}

int
main (int   argc,
      char *argv[])
{
  int ret;

  if (!ui_test_init (&argc, &argv))
    return 77;

  window = ui_test_window_new (900, 420);

  g_test_add_func ("/timeline/drag-over-lanes", test_drag_over_lanes);
  g_test_add_func ("/timeline/escape-after-drag", test_escape_after_drag);
  g_test_add_func ("/timeline/tooltip", test_tooltip);
  g_test_add_func ("/timeline/tooltip-interpreters", test_tooltip_interpreters);
  g_test_add_func ("/timeline/real-input", test_real_input);
  g_test_add_func ("/timeline/legend", test_legend);
  g_test_add_func ("/timeline/many-lanes", test_many_lanes);
  g_test_add_func ("/timeline/fold-idle", test_fold_idle);
  g_test_add_func ("/timeline/screenshots", test_screenshots);

  ret = g_test_run ();

  gtk_window_destroy (window);
  g_clear_object (&state);
  g_clear_object (&profile);
  g_free (view_profile);
  if (threads64_path != NULL)
    {
      g_unlink (threads64_path);
      g_rmdir (threads_dir);
    }
  g_free (threads64_path);
  g_free (threads_dir);
  return ret;
}
