/* tv-source-heat-gutter.c: the source view's samples per line, in its gutter
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A gutter renderer beside the code: for each line with samples, its
 * share of the function's samples and a bar as long as its samples are
 * to the busiest line's, in the palette's heat colour.  The text itself
 * is never painted over, so the syntax colours stay readable.  Where the
 * buffer is not the file (the file is not on this machine, and the
 * buffer only holds a row per line with samples), the gutter also draws
 * the file's line numbers.
 */
#include <adwaita.h>
#include <glib/gi18n.h>

#include "tv-palette.h"
#include "tv-source-heat-gutter.h"
#include "tv-units.h"

#define BAR_WIDTH  32
#define GAP        6

struct _TvSourceHeatGutter
{
  GtkSourceGutterRenderer parent_instance;

  GArray  *cells;             /* TvSourceHeatCell, by buffer line */
  guint64  function_total;
  guint64  max_total;
  gboolean numbered;

  /* Measured with the widget's font; drawn with the style's colours. */
  int      number_width;
  int      label_width;
  gboolean dark;
  GdkRGBA  foreground;
};

G_DEFINE_FINAL_TYPE (TvSourceHeatGutter, tv_source_heat_gutter, GTK_SOURCE_TYPE_GUTTER_RENDERER)

static int
compare_cells (gconstpointer a,
               gconstpointer b)
{
  const TvSourceHeatCell *x = a;
  const TvSourceHeatCell *y = b;

  return (x->buffer_line > y->buffer_line) - (x->buffer_line < y->buffer_line);
}

static const TvSourceHeatCell *
lookup_cell (TvSourceHeatGutter *self,
             guint               buffer_line)
{
  TvSourceHeatCell key = { buffer_line, 0, 0, 0 };

  if (self->cells->len == 0)
    return NULL;
  return bsearch (&key, self->cells->data, self->cells->len, sizeof (TvSourceHeatCell),
                  compare_cells);
}

static char *
cell_label (TvSourceHeatGutter     *self,
            const TvSourceHeatCell *cell)
{
  /* A line only recursive calls ran has no total of its own. */
  if (cell->total == 0)
    return g_strdup ("");
  return tv_format_share (cell->total, self->function_total);
}

static int
text_width (GtkWidget  *widget,
            const char *text)
{
  g_autoptr(PangoLayout) layout = gtk_widget_create_pango_layout (widget, text);
  int width;

  pango_layout_get_pixel_size (layout, &width, NULL);
  return width;
}

static void
tv_source_heat_gutter_measure (GtkWidget      *widget,
                               GtkOrientation  orientation,
                               int             for_size,
                               int            *minimum,
                               int            *natural,
                               int            *minimum_baseline,
                               int            *natural_baseline)
{
  TvSourceHeatGutter *self = TV_SOURCE_HEAT_GUTTER (widget);
  int xpad = gtk_source_gutter_renderer_get_xpad (GTK_SOURCE_GUTTER_RENDERER (self));
  int width = 0;

  *minimum_baseline = *natural_baseline = -1;
  if (orientation == GTK_ORIENTATION_VERTICAL)
    {
      *minimum = *natural = 0;
      return;
    }

  /* The widest label shown, at least "100 %" wide so that the bars of
   * two functions line up, and the widest line number. */
  self->label_width = text_width (widget, "100 %");
  self->number_width = 0;
  for (guint i = 0; i < self->cells->len; i++)
    {
      const TvSourceHeatCell *cell = &g_array_index (self->cells, TvSourceHeatCell, i);
      g_autofree char *label = cell_label (self, cell);

      self->label_width = MAX (self->label_width, text_width (widget, label));
      if (self->numbered)
        {
          g_autofree char *number = g_strdup_printf ("%d", cell->line);

          self->number_width = MAX (self->number_width, text_width (widget, number));
        }
    }
  if (self->cells->len > 0)
    {
      width = 2 * xpad + self->label_width + GAP + BAR_WIDTH;
      if (self->numbered)
        width += self->number_width + GAP;
    }
  *minimum = *natural = width;
}

static void
append_rect (GtkSnapshot *snapshot,
             TvColor      color,
             double       x,
             double       y,
             double       width,
             double       height)
{
  GdkRGBA rgba = { color.red, color.green, color.blue, 1.0 };

  gtk_snapshot_append_color (snapshot, &rgba, &GRAPHENE_RECT_INIT (x, y, width, height));
}

static void
append_text (GtkSnapshot   *snapshot,
             GtkWidget     *widget,
             const char    *text,
             double         right,
             int            y,
             int            height,
             const GdkRGBA *color)
{
  g_autoptr(PangoLayout) layout = gtk_widget_create_pango_layout (widget, text);
  int width, text_height;

  pango_layout_get_pixel_size (layout, &width, &text_height);
  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (right - width,
                                                          y + (height - text_height) / 2));
  gtk_snapshot_append_layout (snapshot, layout, color);
  gtk_snapshot_restore (snapshot);
}

static void
tv_source_heat_gutter_begin (GtkSourceGutterRenderer *renderer,
                             GtkSourceGutterLines    *lines)
{
  TvSourceHeatGutter *self = TV_SOURCE_HEAT_GUTTER (renderer);

  self->dark = adw_style_manager_get_dark (adw_style_manager_get_default ());
  gtk_style_context_get_color (gtk_widget_get_style_context (GTK_WIDGET (self)),
                               &self->foreground);
}

static void
tv_source_heat_gutter_snapshot_line (GtkSourceGutterRenderer *renderer,
                                     GtkSnapshot             *snapshot,
                                     GtkSourceGutterLines    *lines,
                                     guint                    line)
{
  TvSourceHeatGutter *self = TV_SOURCE_HEAT_GUTTER (renderer);
  const TvSourceHeatCell *cell = lookup_cell (self, line);
  GtkWidget *widget = GTK_WIDGET (self);
  double x = gtk_source_gutter_renderer_get_xpad (renderer);
  g_autofree char *label = NULL;
  int y, height;
  double bar_height, t;

  if (cell == NULL)
    return;
  gtk_source_gutter_lines_get_line_yrange (lines, line,
                                           GTK_SOURCE_GUTTER_RENDERER_ALIGNMENT_MODE_FIRST,
                                           &y, &height);
  if (self->numbered)
    {
      g_autofree char *number = g_strdup_printf ("%d", cell->line);

      x += self->number_width;
      append_text (snapshot, widget, number, x, y, height, &self->foreground);
      x += GAP;
    }
  label = cell_label (self, cell);
  x += self->label_width;
  append_text (snapshot, widget, label, x, y, height, &self->foreground);
  x += GAP;

  /* The bar: a track, filled as far as the line's share of the busiest
   * line, at least a pixel for any sample. */
  bar_height = MAX (2, height * 0.6);
  t = self->max_total > 0 ? (double) cell->total / self->max_total : 0;
  append_rect (snapshot, tv_palette_track (self->dark), x, y + (height - bar_height) / 2,
               BAR_WIDTH, bar_height);
  if (cell->total > 0)
    append_rect (snapshot, tv_palette_heat (t, self->dark), x, y + (height - bar_height) / 2,
                 MAX (1, BAR_WIDTH * t), bar_height);
}

static gboolean
tv_source_heat_gutter_query_tooltip (GtkWidget  *widget,
                                     int         x,
                                     int         y,
                                     gboolean    keyboard_mode,
                                     GtkTooltip *tooltip)
{
  TvSourceHeatGutter *self = TV_SOURCE_HEAT_GUTTER (widget);
  GtkTextView *view = GTK_TEXT_VIEW (gtk_source_gutter_renderer_get_view (GTK_SOURCE_GUTTER_RENDERER (self)));
  const TvSourceHeatCell *cell;
  GtkTextIter iter;
  double view_x, view_y;
  int buffer_x, buffer_y;
  g_autofree char *total = NULL;
  g_autofree char *share = NULL;
  g_autofree char *self_samples = NULL;
  g_autofree char *text = NULL;

  if (view == NULL || keyboard_mode
      || !gtk_widget_translate_coordinates (widget, GTK_WIDGET (view), x, y, &view_x, &view_y))
    return FALSE;
  gtk_text_view_window_to_buffer_coords (view, GTK_TEXT_WINDOW_WIDGET, view_x, view_y,
                                         &buffer_x, &buffer_y);
  gtk_text_view_get_line_at_y (view, &iter, buffer_y, NULL);
  cell = lookup_cell (self, gtk_text_iter_get_line (&iter));
  if (cell == NULL)
    return FALSE;
  total = tv_format_count (cell->total);
  share = tv_format_share (cell->total, self->function_total);
  self_samples = tv_format_count (cell->self);
  /* Translators: a source line's samples: its number, the samples that
   * ran it (and their share of the function's), and those that stopped
   * in it. */
  text = g_strdup_printf (_("Line %d\nTotal: %s samples (%s)\nSelf: %s samples"),
                          cell->line, total, share, self_samples);
  gtk_tooltip_set_text (tooltip, text);
  return TRUE;
}

static void
tv_source_heat_gutter_dispose (GObject *object)
{
  TvSourceHeatGutter *self = TV_SOURCE_HEAT_GUTTER (object);

  g_signal_handlers_disconnect_by_data (adw_style_manager_get_default (), self);
  g_clear_pointer (&self->cells, g_array_unref);

  G_OBJECT_CLASS (tv_source_heat_gutter_parent_class)->dispose (object);
}

static void
tv_source_heat_gutter_class_init (TvSourceHeatGutterClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GtkSourceGutterRendererClass *renderer_class = GTK_SOURCE_GUTTER_RENDERER_CLASS (klass);

  object_class->dispose = tv_source_heat_gutter_dispose;
  widget_class->measure = tv_source_heat_gutter_measure;
  widget_class->query_tooltip = tv_source_heat_gutter_query_tooltip;
  renderer_class->begin = tv_source_heat_gutter_begin;
  renderer_class->snapshot_line = tv_source_heat_gutter_snapshot_line;
  gtk_widget_class_set_css_name (widget_class, "tv-source-heat-gutter");
}

static void
tv_source_heat_gutter_init (TvSourceHeatGutter *self)
{
  self->cells = g_array_new (FALSE, FALSE, sizeof (TvSourceHeatCell));
  gtk_source_gutter_renderer_set_xpad (GTK_SOURCE_GUTTER_RENDERER (self), 4);
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  g_signal_connect_swapped (adw_style_manager_get_default (), "notify::dark",
                            G_CALLBACK (gtk_widget_queue_draw), self);
}

GtkSourceGutterRenderer *
tv_source_heat_gutter_new (void)
{
  return g_object_new (TV_TYPE_SOURCE_HEAT_GUTTER, NULL);
}

void
tv_source_heat_gutter_set_cells (TvSourceHeatGutter     *self,
                                 const TvSourceHeatCell *cells,
                                 guint                   n_cells,
                                 guint64                 function_total,
                                 gboolean                numbered)
{
  g_return_if_fail (TV_IS_SOURCE_HEAT_GUTTER (self));
  g_return_if_fail (cells != NULL || n_cells == 0);

  g_array_set_size (self->cells, 0);
  if (n_cells > 0)
    g_array_append_vals (self->cells, cells, n_cells);
  g_array_sort (self->cells, compare_cells);
  self->function_total = function_total;
  self->numbered = numbered;
  self->max_total = 0;
  for (guint i = 0; i < n_cells; i++)
    self->max_total = MAX (self->max_total, cells[i].total);
  gtk_widget_queue_resize (GTK_WIDGET (self));
}

gboolean
tv_source_heat_gutter_get_cell (TvSourceHeatGutter *self,
                                guint               buffer_line,
                                TvSourceHeatCell   *cell)
{
  const TvSourceHeatCell *found;

  g_return_val_if_fail (TV_IS_SOURCE_HEAT_GUTTER (self), FALSE);

  found = lookup_cell (self, buffer_line);
  if (found == NULL)
    return FALSE;
  if (cell != NULL)
    *cell = *found;
  return TRUE;
}

char *
tv_source_heat_gutter_dup_label (TvSourceHeatGutter *self,
                                 guint               buffer_line)
{
  const TvSourceHeatCell *cell;

  g_return_val_if_fail (TV_IS_SOURCE_HEAT_GUTTER (self), NULL);

  cell = lookup_cell (self, buffer_line);
  return cell != NULL ? cell_label (self, cell) : g_strdup ("");
}

guint
tv_source_heat_gutter_get_n_cells (TvSourceHeatGutter *self)
{
  g_return_val_if_fail (TV_IS_SOURCE_HEAT_GUTTER (self), 0);

  return self->cells->len;
}

gboolean
tv_source_heat_gutter_get_numbered (TvSourceHeatGutter *self)
{
  g_return_val_if_fail (TV_IS_SOURCE_HEAT_GUTTER (self), FALSE);

  return self->numbered;
}
