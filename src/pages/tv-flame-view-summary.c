/* tv-flame-view-summary.c: what the flame view says of what it shows: the
 * summary line, the legend, the breadcrumbs
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib/gi18n.h>

#include "tv-flame-view-private.h"
#include "tv-palette.h"
#include "tv-text.h"
#include "tv-timeline.h"
#include "tv-units.h"
#include "tv-wrap-layout.h"

char *
tv_flame_view_describe_threads (TvFlameView *self)
{
  TvProfileData *data = tv_profile_get_data (self->profile);
  const guint32 *threads;
  guint n_threads;

  threads = tv_view_state_get_threads (self->state, &n_threads);
  if (n_threads == 0)
    return g_strdup (_("all threads"));
  if (n_threads == 1)
    {
      const TvThread *thread = tv_profile_data_get_thread (data, threads[0]);
      g_autofree char *id = g_strdup_printf ("%" G_GUINT64_FORMAT, thread->thread_id);

      return g_strdup_printf (_("thread %s"), id);
    }
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u thread", "%u threads", n_threads),
                          n_threads);
}

/* The heatmap's selection, if any: how many ranges (their time in all is
 * the wall time the line gives). */
static void
describe_ranges (TvFlameView *self,
                 GString     *text)
{
  const TvTimeRange *ranges;
  guint n_ranges;

  ranges = tv_view_state_get_ranges (self->state, &n_ranges);
  if (ranges == NULL)
    return;
  /* Translators: follows the line above the flame graph, e.g. ", in the
   * selected heatmap cells (2 time ranges)". */
  g_string_append_printf (text, g_dngettext (GETTEXT_PACKAGE,
                                             ", in the selected heatmap cells (%u time range)",
                                             ", in the selected heatmap cells (%u time ranges)",
                                             n_ranges),
                          n_ranges);
}

/* Seconds of wall time the samples shown come from: the heatmap's cells,
 * the selected range or the whole recording; FALSE without samples. */
static gboolean
get_wall_seconds (TvFlameView *self,
                  double      *seconds)
{
  TvProfileData *data = tv_call_tree_get_data (self->tree);
  const TvTimeRange *ranges;
  guint64 start, end;
  guint n_ranges;

  ranges = tv_view_state_get_ranges (self->state, &n_ranges);
  if (ranges != NULL)
    {
      *seconds = (double) tv_time_ranges_get_duration (ranges, n_ranges) / 1e6;
      return TRUE;
    }
  if (tv_view_state_get_range (self->state, &start, &end))
    {
      *seconds = (double) (end - start) / 1e6;
      return TRUE;
    }
  if (tv_profile_data_get_time_span (data, &start, &end))
    {
      *seconds = (double) (end - start) / 1e6;
      return TRUE;
    }
  return FALSE;
}

void
tv_flame_view_update_summary (TvFlameView *self)
{
  static const char *state_names[TV_N_STATE_FILTERS] = {
    N_("all samples"),
    N_("holding the GIL"),
    N_("on CPU"),
    N_("waiting for the GIL"),
    N_("with an exception"),
  };
  g_autoptr(GString) text = g_string_new (NULL);
  g_autofree char *threads = NULL;
  g_autofree char *count = NULL;
  g_autofree char *thread_time = NULL;
  guint64 samples;
  double wall;

  if (self->tree == NULL)
    {
      gtk_label_set_text (self->summary_label, _("Computing…"));
      return;
    }

  threads = tv_flame_view_describe_threads (self);
  samples = tv_call_tree_get_n_samples (self->tree);
  count = tv_format_count (samples);
  thread_time = tv_format_thread_time (tv_call_tree_samples_to_seconds (self->tree, samples,
                                                                       NULL));
  /* Translators: the line above the flame graph, e.g. "all threads, on
   * CPU: 1,234 samples, 2.42 s of thread time"; the wall time follows. */
  g_string_append_printf (text, g_dngettext (GETTEXT_PACKAGE, "%s, %s: %s sample, %s",
                                             "%s, %s: %s samples, %s",
                                             samples > G_MAXULONG ? G_MAXULONG : (gulong) samples),
                          threads, _(state_names[tv_view_state_get_state_filter (self->state)]),
                          count, thread_time);
  if (get_wall_seconds (self, &wall))
    {
      g_autofree char *wall_time = tv_format_wall_time (wall);

      /* Translators: follows "…, 2.42 s of thread time" in the line above
       * the flame graph: " in 315 ms of wall time". */
      g_string_append_printf (text, _(" in %s"), wall_time);
    }
  if (tv_view_state_get_range (self->state, NULL, NULL))
    g_string_append (text, _(", in the selected time range"));
  describe_ranges (self, text);
  if (tv_view_state_get_inverted (self->state))
    g_string_append (text, _(", inverted"));
  if (tv_view_state_get_focus_function (self->state) != TV_NODE_NONE)
    g_string_append (text, _(", focused on one function"));
  {
    guint n_hidden;

    tv_view_state_get_hidden_functions (self->state, &n_hidden);
    if (n_hidden > 0)
      g_string_append_printf (text, g_dngettext (GETTEXT_PACKAGE, ", %u function hidden",
                                                 ", %u functions hidden", n_hidden),
                              n_hidden);
  }
  if (tv_view_state_get_collapse_recursion (self->state))
    g_string_append (text, _(", recursion collapsed"));
  gtk_label_set_text (self->summary_label, text->str);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "view.reset-transforms",
                                 tv_view_state_has_transforms (self->state));
}

/* ------------------------------------------------------------------------ */
/* The legend                                                                */
/* ------------------------------------------------------------------------ */

typedef enum
{
  SWATCH_MODULE,
  SWATCH_HEAT,
  SWATCH_STATE,
} SwatchKind;

/* A swatch's colour is asked for at each draw, so that it follows the
 * dark style. */
static void
draw_swatch (GtkDrawingArea *area,
             cairo_t        *cr,
             int             width,
             int             height,
             gpointer        user_data)
{
  gboolean dark = adw_style_manager_get_dark (adw_style_manager_get_default ());
  SwatchKind kind = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (area), "kind"));
  int which = GPOINTER_TO_INT (user_data);
  TvColor color;

  if (kind == SWATCH_MODULE)
    color = tv_palette_module (which, 0.5, 0.5, dark);
  else if (kind == SWATCH_HEAT)
    color = tv_palette_heat (which / 2.0, dark);
  else
    color = tv_palette_state (which, dark);
  cairo_rectangle (cr, 0.5, 0.5, width - 1, height - 1);
  cairo_set_source_rgb (cr, color.red, color.green, color.blue);
  cairo_fill_preserve (cr);
  cairo_set_source_rgba (cr, 0, 0, 0, 0.3);
  cairo_set_line_width (cr, 1);
  cairo_stroke (cr);
}

static void
append_legend_entry (TvFlameView *self,
                     SwatchKind   kind,
                     int          which,
                     const char  *text)
{
  GtkWidget *entry = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 4);
  GtkWidget *swatch = gtk_drawing_area_new ();
  GtkWidget *label = gtk_label_new (text);

  gtk_drawing_area_set_content_width (GTK_DRAWING_AREA (swatch), 12);
  gtk_drawing_area_set_content_height (GTK_DRAWING_AREA (swatch), 12);
  gtk_widget_set_valign (swatch, GTK_ALIGN_CENTER);
  g_object_set_data (G_OBJECT (swatch), "kind", GINT_TO_POINTER (kind));
  gtk_drawing_area_set_draw_func (GTK_DRAWING_AREA (swatch), draw_swatch,
                                  GINT_TO_POINTER (which), NULL);
  gtk_widget_add_css_class (label, "caption");
  gtk_box_append (GTK_BOX (entry), swatch);
  gtk_box_append (GTK_BOX (entry), label);
  gtk_box_append (self->legend, entry);
}

/* The key of the colours the graph is drawn in now. */
void
tv_flame_view_update_legend (TvFlameView *self)
{
  GtkWidget *child;
  GtkWidget *title = gtk_label_new (NULL);

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->legend))) != NULL)
    gtk_box_remove (self->legend, child);
  gtk_widget_add_css_class (title, "caption-heading");
  gtk_box_append (self->legend, title);

  switch (tv_flame_graph_get_color_scheme (self->graph))
    {
    case TV_FLAME_COLORS_HEAT:
      gtk_label_set_text (GTK_LABEL (title), _("Self time:"));
      append_legend_entry (self, SWATCH_HEAT, 0, _("None"));
      append_legend_entry (self, SWATCH_HEAT, 1, _("Half the most"));
      append_legend_entry (self, SWATCH_HEAT, 2, _("The most"));
      break;
    case TV_FLAME_COLORS_THREAD_STATE:
      gtk_label_set_text (GTK_LABEL (title), _("Thread state, mixed by share:"));
      /* The words of the timeline's legend. */
      append_legend_entry (self, SWATCH_STATE, TV_PALETTE_STATE_RUNNING, _("Holding the GIL"));
      append_legend_entry (self, SWATCH_STATE, TV_PALETTE_STATE_NATIVE,
                           _("On CPU without the GIL"));
      append_legend_entry (self, SWATCH_STATE, TV_PALETTE_STATE_WAITING,
                           _("Waiting for the GIL"));
      append_legend_entry (self, SWATCH_STATE, TV_PALETTE_STATE_EXCEPTION, _("Exception"));
      append_legend_entry (self, SWATCH_STATE, TV_PALETTE_STATE_IDLE, _("Idle"));
      break;
    case TV_FLAME_COLORS_MODULE:
    case TV_FLAME_COLORS_DIFF:
    default:
      gtk_label_set_text (GTK_LABEL (title), _("Module:"));
      append_legend_entry (self, SWATCH_MODULE, TV_PALETTE_MODULE_PROJECT, _("This project"));
      append_legend_entry (self, SWATCH_MODULE, TV_PALETTE_MODULE_STDLIB,
                           _("Standard library"));
      append_legend_entry (self, SWATCH_MODULE, TV_PALETTE_MODULE_SITE_PACKAGES,
                           _("Installed packages"));
      append_legend_entry (self, SWATCH_MODULE, TV_PALETTE_MODULE_OTHER, _("Other"));
      break;
    }
}

static void
on_dark_changed (TvFlameView *self)
{
  for (GtkWidget *entry = gtk_widget_get_first_child (GTK_WIDGET (self->legend)); entry != NULL;
       entry = gtk_widget_get_next_sibling (entry))
    if (GTK_IS_BOX (entry))
      gtk_widget_queue_draw (gtk_widget_get_first_child (entry));
}

/* ------------------------------------------------------------------------ */
/* Breadcrumbs                                                               */
/* ------------------------------------------------------------------------ */

static void
on_crumb_clicked (GtkButton   *button,
                  TvFlameView *self)
{
  guint32 node = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (button), "node"));

  tv_flame_graph_zoom_to (self->graph, node);
}

void
tv_flame_view_update_breadcrumbs (TvFlameView *self)
{
  g_autoptr(GArray) path = g_array_new (FALSE, FALSE, sizeof (guint32));
  TvCallTree *tree = tv_flame_graph_get_tree (self->graph);
  TvProfileData *data;
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->breadcrumbs))) != NULL)
    gtk_box_remove (self->breadcrumbs, child);
  if (tree == NULL)
    return;

  data = tv_call_tree_get_data (tree);
  for (guint32 node = tv_flame_graph_get_zoom_root (self->graph);
       node != TV_NODE_NONE;
       node = tv_call_tree_get_parent (tree, node))
    g_array_append_val (path, node);

  for (guint i = path->len; i > 0; i--)
    {
      guint32 node = g_array_index (path, guint32, i - 1);
      g_autofree char *name = tv_text_dup_shown (node == TV_ROOT_NODE
                                                 ? _("all")
                                                 : tv_profile_data_get_funcname (
                                                     data, tv_call_tree_get_frame (tree, node)));
      GtkWidget *button = gtk_button_new ();
      GtkWidget *label = gtk_label_new (name);
      int max_chars = i == 1 ? 40 : 16;

      /* Whole up to a length, so that a deep path scrolls instead of
       * shrinking every name to "…". */
      if (g_utf8_strlen (name, -1) > max_chars)
        {
          gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_MIDDLE);
          gtk_label_set_width_chars (GTK_LABEL (label), max_chars);
          gtk_label_set_max_width_chars (GTK_LABEL (label), max_chars);
        }
      gtk_button_set_child (GTK_BUTTON (button), label);
      gtk_widget_add_css_class (button, "flat");
      gtk_widget_set_tooltip_text (button, name);
      g_object_set_data (G_OBJECT (button), "node", GUINT_TO_POINTER (node));
      g_signal_connect (button, "clicked", G_CALLBACK (on_crumb_clicked), self);
      if (i == 1)
        gtk_widget_set_sensitive (button, FALSE);
      if (i != path->len)
        {
          GtkWidget *separator = gtk_label_new ("›");

          gtk_widget_add_css_class (separator, "dim-label");
          gtk_box_append (self->breadcrumbs, separator);
        }
      gtk_box_append (self->breadcrumbs, button);
    }
}

/* The path's end, where the zoom is, stays in view as the path grows.
 * The scroller's size changes while it is being allocated, so the scroll
 * waits for that to be over. */
static gboolean
scroll_crumbs_to_end (gpointer data)
{
  GtkAdjustment *adjustment = data;

  gtk_adjustment_set_value (adjustment, gtk_adjustment_get_upper (adjustment)
                                        - gtk_adjustment_get_page_size (adjustment));
  return G_SOURCE_REMOVE;
}

/* "…" says that the path goes on to the left of what is shown.  It keeps
 * its room when hidden: the scroller's width would change with it, and
 * the path scroll back to its end. */
static void
on_crumbs_scrolled (GtkAdjustment *adjustment,
                    TvFlameView   *self)
{
  gboolean more = gtk_adjustment_get_value (adjustment)
                  > gtk_adjustment_get_lower (adjustment) + 0.5;

  gtk_widget_set_opacity (self->crumb_more, more ? 1.0 : 0.0);
  gtk_widget_set_can_target (self->crumb_more, more);
  gtk_widget_set_sensitive (self->crumb_more, more);
}

static void
on_crumb_more_clicked (TvFlameView *self)
{
  GtkAdjustment *adjustment = gtk_scrolled_window_get_hadjustment (self->crumb_scroller);

  gtk_adjustment_set_value (adjustment, gtk_adjustment_get_lower (adjustment));
}

static void
on_crumbs_changed (GtkAdjustment *adjustment)
{
  g_idle_add_full (G_PRIORITY_DEFAULT, scroll_crumbs_to_end, g_object_ref (adjustment),
                   g_object_unref);
}

void
tv_flame_view_init_summary (TvFlameView *self)
{
  GtkAdjustment *crumbs = gtk_scrolled_window_get_hadjustment (self->crumb_scroller);

  g_signal_connect (crumbs, "changed", G_CALLBACK (on_crumbs_changed), NULL);
  g_signal_connect (crumbs, "value-changed", G_CALLBACK (on_crumbs_scrolled), self);
  g_signal_connect (crumbs, "changed", G_CALLBACK (on_crumbs_scrolled), self);
  g_signal_connect_swapped (self->crumb_more, "clicked", G_CALLBACK (on_crumb_more_clicked), self);
  self->legend = GTK_BOX (gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12));
  gtk_widget_set_margin_start (GTK_WIDGET (self->legend), 8);
  gtk_widget_set_margin_end (GTK_WIDGET (self->legend), 8);
  gtk_widget_set_margin_top (GTK_WIDGET (self->legend), 3);
  gtk_widget_set_margin_bottom (GTK_WIDGET (self->legend), 3);
  gtk_widget_set_layout_manager (GTK_WIDGET (self->legend), tv_wrap_layout_new (12));
  gtk_widget_add_css_class (GTK_WIDGET (self->legend), "flame-legend");
  gtk_box_append (self->graph_box, GTK_WIDGET (self->legend));
  tv_flame_view_update_legend (self);
  g_signal_connect_object (adw_style_manager_get_default (), "notify::dark",
                           G_CALLBACK (on_dark_changed), self, G_CONNECT_SWAPPED);
}
