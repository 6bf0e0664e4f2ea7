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

#include "tv-cells.h"
#include "tv-function-table-private.h"
#include "tv-text.h"
#include "tv-units.h"

/* ------------------------------------------------------------------------ */
/* Cells                                                                     */
/* ------------------------------------------------------------------------ */

static char *
describe_cell (GtkListItem *list_item,
               guint        kind)
{
  TvFunctionItem *item = gtk_list_item_get_item (list_item);
  GString *name_file;

  switch ((CellKind) kind)
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
      return g_string_free (name_file, FALSE);
    case CELL_FILE:
      return item->file[0] != '\0' ? tv_text_dup_shown (item->file) : NULL;
    case CELL_SELF:
    case CELL_SELF_PERCENT:
    case CELL_SELF_BOTH:
      return tv_cell_describe_samples (item->tree, item->self);
    case CELL_TOTAL:
    case CELL_TOTAL_PERCENT:
    case CELL_TOTAL_BOTH:
      return tv_cell_describe_samples (item->tree, item->total);
    default:
      g_assert_not_reached ();
    }
}

static void
setup_cell (GtkListItem *list_item,
            guint        kind)
{
  GtkWidget *cell;

  if (kind == CELL_SELF_BOTH || kind == CELL_TOTAL_BOTH)
    cell = tv_cell_pair_new (1.0, "numeric", NULL, NULL);
  else if (kind == CELL_NAME)
    /* The middle of a name goes: "Thread._bootstrap" and
     * "Thread._bootstrap_inner" stay two names. */
    cell = tv_cell_text_label_new (PANGO_ELLIPSIZE_MIDDLE, 12);
  else if (kind == CELL_FILE)
    cell = tv_cell_text_label_new (PANGO_ELLIPSIZE_START, 8);
  else
    cell = tv_cell_label_new (1.0, "numeric");
  tv_cell_set_child (list_item, cell, kind, describe_cell);
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

static void
bind_cell (GtkListItem *list_item,
           guint        kind)
{
  TvFunctionItem *item = gtk_list_item_get_item (list_item);
  GtkWidget *child = gtk_list_item_get_child (list_item);
  GtkLabel *label = GTK_IS_LABEL (child) ? GTK_LABEL (child) : NULL;
  guint64 base = item->base;
  g_autofree char *shown = NULL;
  char text[64], count[64];

  switch (kind)
    {
    case CELL_SELF_BOTH:
    case CELL_TOTAL_BOTH:
      tv_function_table_format_percent (text, sizeof text, kind == CELL_SELF_BOTH ? item->self : item->total, base);
      tv_function_table_format_count (count, sizeof count, kind == CELL_SELF_BOTH ? item->self : item->total);
      tv_cell_pair_set_text (child, text, count);
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

/* ------------------------------------------------------------------------ */
/* Sorters                                                                   */
/* ------------------------------------------------------------------------ */

/* How the rows sort by a column of the kind USER_DATA. */
static int
compare_cells (gconstpointer a,
               gconstpointer b,
               gpointer      user_data)
{
  const TvFunctionItem *x = a, *y = b;
  int r;

  switch ((CellKind) GPOINTER_TO_UINT (user_data))
    {
    case CELL_FILE:
      if ((r = strcmp (x->basename, y->basename)) != 0)
        return r;
      if ((r = strcmp (x->file, y->file)) != 0)
        return r;
      G_GNUC_FALLTHROUGH;
    case CELL_NAME:
      /* Function keys are numbered in the order of (name, file). */
      return (x->function > y->function) - (x->function < y->function);
    case CELL_SELF:
    case CELL_SELF_PERCENT:
    case CELL_SELF_BOTH:
      return (x->self > y->self) - (x->self < y->self);
    case CELL_TOTAL:
    case CELL_TOTAL_PERCENT:
    case CELL_TOTAL_BOTH:
      return (x->total > y->total) - (x->total < y->total);
    default:
      g_assert_not_reached ();
    }
}

void
tv_function_table_set_column (GtkColumnViewColumn *column,
                              CellKind             kind)
{
  tv_cell_set_column (column, kind, setup_cell, bind_cell, NULL, compare_cells);
}
