/* tv-cells.c: what the cells of the call tree, the function table and the
 * comparison's table share
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Each of the three column views makes a column's cells and its sort from
 * the column's kind of cell; names and files are ellipsized labels,
 * figures numeric ones, a share above its count in a dim caption.
 * Tooltips are made when asked for: setting a tooltip's text makes GTK
 * query the pointer from the display server, too slow for every bind.
 */
#include <glib/gi18n.h>

#include "tv-cells.h"
#include "tv-units.h"

GtkWidget *
tv_cell_label_new (float       xalign,
                   const char *css_class)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), xalign);
  if (css_class != NULL)
    gtk_widget_add_css_class (label, css_class);
  return label;
}

GtkWidget *
tv_cell_text_label_new (PangoEllipsizeMode ellipsize,
                        int                width_chars)
{
  GtkWidget *label = tv_cell_label_new (0.0, NULL);

  gtk_label_set_ellipsize (GTK_LABEL (label), ellipsize);
  gtk_label_set_width_chars (GTK_LABEL (label), width_chars);
  return label;
}

GtkWidget *
tv_cell_pair_new (float        xalign,
                  const char  *css_class,
                  GtkWidget  **first,
                  GtkWidget  **second)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *top = tv_cell_label_new (xalign, css_class);
  GtkWidget *bottom = tv_cell_label_new (xalign, css_class);

  gtk_widget_add_css_class (bottom, "caption");
  gtk_widget_add_css_class (bottom, "dim-label");
  gtk_box_append (GTK_BOX (box), top);
  gtk_box_append (GTK_BOX (box), bottom);
  if (first != NULL)
    *first = top;
  if (second != NULL)
    *second = bottom;
  return box;
}

void
tv_cell_pair_set_text (GtkWidget  *pair,
                       const char *first,
                       const char *second)
{
  GtkWidget *top = gtk_widget_get_first_child (pair);

  gtk_label_set_text (GTK_LABEL (top), first);
  gtk_label_set_text (GTK_LABEL (gtk_widget_get_next_sibling (top)), second);
}

static gboolean
on_query_tooltip (GtkWidget   *child,
                  int          x,
                  int          y,
                  gboolean     keyboard,
                  GtkTooltip  *tooltip,
                  GtkListItem *list_item)
{
  TvCellTooltipFunc describe = (TvCellTooltipFunc) g_object_get_data (G_OBJECT (child),
                                                                      "tv-cell-tooltip");
  guint kind = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (child), "tv-cell-kind"));
  g_autofree char *text = NULL;

  if (gtk_list_item_get_item (list_item) == NULL
      || (text = describe (list_item, kind)) == NULL)
    return FALSE;
  gtk_tooltip_set_text (tooltip, text);
  return TRUE;
}

void
tv_cell_set_child (GtkListItem       *list_item,
                   GtkWidget         *child,
                   guint              kind,
                   TvCellTooltipFunc  tooltip)
{
  g_object_set_data (G_OBJECT (child), "tv-cell-kind", GUINT_TO_POINTER (kind));
  g_object_set_data (G_OBJECT (child), "tv-cell-tooltip", (gpointer) tooltip);
  gtk_widget_set_has_tooltip (child, TRUE);
  /* The list item owns the cell: it outlives the handler. */
  g_signal_connect (child, "query-tooltip", G_CALLBACK (on_query_tooltip), list_item);
  gtk_list_item_set_child (list_item, child);
}

char *
tv_cell_describe_samples (TvCallTree *tree,
                          guint64     samples)
{
  g_autofree char *count = tv_format_count (samples);
  g_autofree char *share = tv_format_share (samples, tv_call_tree_get_n_samples (tree));
  g_autofree char *seconds = tv_format_thread_time (tv_call_tree_samples_to_seconds (tree, samples,
                                                                                     NULL));

  /* Translators: "1,234 samples (12.3 %, 1.23 s of thread time)". */
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s sample (%s, %s)",
                                       "%s samples (%s, %s)",
                                       samples > G_MAXULONG ? G_MAXULONG : (gulong) samples),
                          count, share, seconds);
}

typedef struct
{
  guint      kind;
  TvCellFunc setup;
  TvCellFunc bind;
  TvCellFunc unbind;
} CellColumn;

static void
on_setup (GtkSignalListItemFactory *factory,
          GtkListItem              *list_item,
          CellColumn               *column)
{
  column->setup (list_item, column->kind);
}

static void
on_bind (GtkSignalListItemFactory *factory,
         GtkListItem              *list_item,
         CellColumn               *column)
{
  column->bind (list_item, column->kind);
}

static void
on_unbind (GtkSignalListItemFactory *factory,
           GtkListItem              *list_item,
           CellColumn               *column)
{
  column->unbind (list_item, column->kind);
}

void
tv_cell_set_column (GtkColumnViewColumn *column,
                    guint                kind,
                    TvCellFunc           setup,
                    TvCellFunc           bind,
                    TvCellFunc           unbind,
                    GCompareDataFunc     compare)
{
  g_autoptr(GtkListItemFactory) factory = gtk_signal_list_item_factory_new ();
  g_autoptr(GtkSorter) sorter = GTK_SORTER (gtk_custom_sorter_new (compare, GUINT_TO_POINTER (kind),
                                                                   NULL));
  CellColumn *cells = g_new (CellColumn, 1);

  *cells = (CellColumn) { kind, setup, bind, unbind };
  g_object_set_data_full (G_OBJECT (factory), "tv-cells", cells, g_free);
  g_signal_connect (factory, "setup", G_CALLBACK (on_setup), cells);
  g_signal_connect (factory, "bind", G_CALLBACK (on_bind), cells);
  if (unbind != NULL)
    g_signal_connect (factory, "unbind", G_CALLBACK (on_unbind), cells);
  gtk_column_view_column_set_factory (column, factory);
  gtk_column_view_column_set_sorter (column, sorter);
}
