/* tv-function-table-cells.c: the function table's columns
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What each column's cells show (names, files, counts and shares, their
 * tooltips made when asked for) and how each column sorts.
 */
#include <math.h>
#include <string.h>

#include <glib/gi18n.h>

#include "tv-function-table-private.h"
#include "tv-text.h"
#include "tv-units.h"

/* ------------------------------------------------------------------------ */
/* Cells                                                                     */
/* ------------------------------------------------------------------------ */

/* Tooltips are made when asked for: setting a tooltip's text makes GTK
 * query the pointer from the display server, too slow for every bind. */
static gboolean
on_cell_query_tooltip (GtkWidget   *label,
                       int          x,
                       int          y,
                       gboolean     keyboard,
                       GtkTooltip  *tooltip,
                       GtkListItem *list_item);

static void
setup_cell (GtkSignalListItemFactory *factory,
            GtkListItem              *list_item,
            gpointer                  user_data)
{
  CellKind kind = GPOINTER_TO_UINT (user_data);
  GtkWidget *label = gtk_label_new (NULL);

  if (kind == CELL_SELF_BOTH || kind == CELL_TOTAL_BOTH)
    {
      GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
      GtkWidget *count = gtk_label_new (NULL);

      gtk_label_set_xalign (GTK_LABEL (label), 1.0);
      gtk_widget_add_css_class (label, "numeric");
      gtk_label_set_xalign (GTK_LABEL (count), 1.0);
      gtk_widget_add_css_class (count, "numeric");
      gtk_widget_add_css_class (count, "caption");
      gtk_widget_add_css_class (count, "dim-label");
      gtk_box_append (GTK_BOX (box), label);
      gtk_box_append (GTK_BOX (box), count);
      g_object_set_data (G_OBJECT (box), "tv-count", count);
      g_object_set_data (G_OBJECT (box), "tv-share", label);
      g_object_set_data (G_OBJECT (box), "tv-cell-kind", GUINT_TO_POINTER (kind));
      gtk_widget_set_has_tooltip (box, TRUE);
      g_signal_connect (box, "query-tooltip", G_CALLBACK (on_cell_query_tooltip), list_item);
      gtk_list_item_set_child (list_item, box);
      return;
    }
  if (kind == CELL_NAME || kind == CELL_FILE)
    {
      gtk_label_set_xalign (GTK_LABEL (label), 0.0);
      /* The middle of a name goes: "Thread._bootstrap" and
       * "Thread._bootstrap_inner" stay two names. */
      gtk_label_set_ellipsize (GTK_LABEL (label), kind == CELL_NAME ? PANGO_ELLIPSIZE_MIDDLE
                                                                   : PANGO_ELLIPSIZE_START);
      gtk_label_set_width_chars (GTK_LABEL (label), kind == CELL_NAME ? 12 : 8);
    }
  else
    {
      gtk_label_set_xalign (GTK_LABEL (label), 1.0);
      gtk_widget_add_css_class (label, "numeric");
    }
  g_object_set_data (G_OBJECT (label), "tv-cell-kind", GUINT_TO_POINTER (kind));
  gtk_widget_set_has_tooltip (label, TRUE);
  /* The list item owns the label: it outlives the handler. */
  g_signal_connect (label, "query-tooltip", G_CALLBACK (on_cell_query_tooltip), list_item);
  gtk_list_item_set_child (list_item, label);
}

void
tv_function_table_format_count (char    *buffer,
                                gsize    size,
                                guint64  count)
{
  g_autofree char *text = tv_format_count (count);

  g_strlcpy (buffer, text, size);
}

void
tv_function_table_format_percent (char    *buffer,
                                  gsize    size,
                                  guint64  part,
                                  guint64  whole)
{
  g_autofree char *text = tv_format_share (part, whole);

  g_strlcpy (buffer, text, size);
}

/* "1,234 samples (12.3 %, 2.42 s of thread time)" for the tooltips. */
static char *
describe_samples (TvCallTree *tree,
                  guint64     samples)
{
  g_autofree char *share = tv_format_share (samples, tv_call_tree_get_n_samples (tree));
  g_autofree char *seconds = tv_format_thread_time (tv_call_tree_samples_to_seconds (tree, samples,
                                                                                     NULL));
  char count[32];

  tv_function_table_format_count (count, sizeof count, samples);
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s sample (%s, %s)",
                                       "%s samples (%s, %s)",
                                       samples > G_MAXULONG ? G_MAXULONG : (gulong) samples),
                          count, share, seconds);
}

static void
bind_cell (GtkSignalListItemFactory *factory,
           GtkListItem              *list_item,
           gpointer                  user_data)
{
  CellKind kind = GPOINTER_TO_UINT (user_data);
  TvFunctionItem *item = gtk_list_item_get_item (list_item);
  GtkWidget *child = gtk_list_item_get_child (list_item);
  GtkWidget *share = g_object_get_data (G_OBJECT (child), "tv-share");
  GtkLabel *label = GTK_LABEL (share != NULL ? share : child);
  guint64 base = item->base;
  g_autofree char *shown = NULL;
  char text[64];

  switch (kind)
    {
    case CELL_SELF_BOTH:
    case CELL_TOTAL_BOTH:
      tv_function_table_format_percent (text, sizeof text, kind == CELL_SELF_BOTH ? item->self : item->total, base);
      gtk_label_set_text (label, text);
      tv_function_table_format_count (text, sizeof text, kind == CELL_SELF_BOTH ? item->self : item->total);
      gtk_label_set_text (g_object_get_data (G_OBJECT (child), "tv-count"), text);
      break;
    case CELL_NAME:
      shown = tv_text_dup_shown (item->name);
      gtk_label_set_text (label, shown);
      if (item->function == TV_NODE_NONE)
        gtk_widget_add_css_class (GTK_WIDGET (label), "dim-label");
      else
        gtk_widget_remove_css_class (GTK_WIDGET (label), "dim-label");
      break;
    case CELL_FILE:
      shown = tv_text_dup_shown (item->basename);
      gtk_label_set_text (label, shown);
      break;
    case CELL_SELF:
      tv_function_table_format_count (text, sizeof text, item->self);
      gtk_label_set_text (label, text);
      break;
    case CELL_TOTAL:
      tv_function_table_format_count (text, sizeof text, item->total);
      gtk_label_set_text (label, text);
      break;
    case CELL_SELF_PERCENT:
      tv_function_table_format_percent (text, sizeof text, item->self, base);
      gtk_label_set_text (label, text);
      break;
    case CELL_TOTAL_PERCENT:
      tv_function_table_format_percent (text, sizeof text, item->total, base);
      gtk_label_set_text (label, text);
      break;
    default:
      g_assert_not_reached ();
    }
}

static gboolean
on_cell_query_tooltip (GtkWidget   *label,
                       int          x,
                       int          y,
                       gboolean     keyboard,
                       GtkTooltip  *tooltip,
                       GtkListItem *list_item)
{
  CellKind kind = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (label), "tv-cell-kind"));
  TvFunctionItem *item = gtk_list_item_get_item (list_item);
  g_autofree char *text = NULL;
  GString *name_file;

  if (item == NULL)
    return FALSE;
  switch (kind)
    {
    case CELL_NAME:
      /* The name on a line, the file on the next: each shown, not obeyed. */
      name_file = g_string_new (NULL);
      tv_text_append_shown (name_file, item->name, -1);
      if (item->function != TV_NODE_NONE)
        {
          g_string_append_c (name_file, '\n');
          tv_text_append_shown (name_file, item->file, -1);
        }
      text = g_string_free (name_file, FALSE);
      break;
    case CELL_FILE:
      if (item->file[0] == '\0')
        return FALSE;
      text = tv_text_dup_shown (item->file);
      break;
    case CELL_SELF:
    case CELL_SELF_PERCENT:
    case CELL_SELF_BOTH:
      text = describe_samples (item->tree, item->self);
      break;
    case CELL_TOTAL:
    case CELL_TOTAL_PERCENT:
    case CELL_TOTAL_BOTH:
      text = describe_samples (item->tree, item->total);
      break;
    default:
      g_assert_not_reached ();
    }
  gtk_tooltip_set_text (tooltip, text);
  return TRUE;
}

static GtkListItemFactory *
cell_factory_new (CellKind kind)
{
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();

  g_signal_connect (factory, "setup", G_CALLBACK (setup_cell), GUINT_TO_POINTER (kind));
  g_signal_connect (factory, "bind", G_CALLBACK (bind_cell), GUINT_TO_POINTER (kind));
  return factory;
}

/* ------------------------------------------------------------------------ */
/* Sorters                                                                   */
/* ------------------------------------------------------------------------ */

int
tv_function_table_compare_name (gconstpointer a,
                                gconstpointer b,
                                gpointer      user_data)
{
  const TvFunctionItem *x = a, *y = b;

  /* Function keys are numbered in the order of (name, file). */
  return (x->function > y->function) - (x->function < y->function);
}

int
tv_function_table_compare_file (gconstpointer a,
                                gconstpointer b,
                                gpointer      user_data)
{
  const TvFunctionItem *x = a, *y = b;
  int r;

  if ((r = strcmp (x->basename, y->basename)) != 0)
    return r;
  if ((r = strcmp (x->file, y->file)) != 0)
    return r;
  return tv_function_table_compare_name (a, b, NULL);
}

int
tv_function_table_compare_self (gconstpointer a,
                                gconstpointer b,
                                gpointer      user_data)
{
  const TvFunctionItem *x = a, *y = b;

  return (x->self > y->self) - (x->self < y->self);
}

int
tv_function_table_compare_total (gconstpointer a,
                                 gconstpointer b,
                                 gpointer      user_data)
{
  const TvFunctionItem *x = a, *y = b;

  return (x->total > y->total) - (x->total < y->total);
}

void
tv_function_table_set_column (GtkColumnViewColumn *column,
                              CellKind             kind,
                              GCompareDataFunc     compare)
{
  g_autoptr(GtkListItemFactory) factory = cell_factory_new (kind);
  g_autoptr(GtkSorter) sorter = GTK_SORTER (gtk_custom_sorter_new (compare, NULL, NULL));

  gtk_column_view_column_set_factory (column, factory);
  gtk_column_view_column_set_sorter (column, sorter);
}
