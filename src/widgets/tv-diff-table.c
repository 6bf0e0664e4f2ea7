/* tv-diff-table.c: the functions of a comparison, before and after
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A GtkColumnView over the rows of tv_diff_get_functions(): each
 * function's total and self in BASE and in NEW, the change and the
 * p-value of the test behind it.  Changes beyond sampling noise are
 * coloured (red more, blue less); the others are not.
 *
 * The rows come from a TvLazyList, which makes each row's item the first
 * time it is asked for, and a GtkSortListModel with the column
 * view's sorter, which sorts incrementally from the main loop: a
 * comparison of two big profiles can have a hundred thousand functions.
 * Activating a row emits "function-activated" with the row's index.
 */

#include <math.h>
#include <string.h>

#include <glib/gi18n.h>

#include "tv-cells.h"
#include "tv-diff-table.h"
#include "tv-lazy-list.h"
#include "tv-text.h"
#include "tv-units.h"

/* ------------------------------------------------------------------------ */
/* TvDiffItem, the row of a function                                         */
/* ------------------------------------------------------------------------ */

#define TV_TYPE_DIFF_ITEM (tv_diff_item_get_type ())
G_DECLARE_FINAL_TYPE (TvDiffItem, tv_diff_item, TV, DIFF_ITEM, GObject)

struct _TvDiffItem
{
  GObject               parent_instance;

  TvDiff               *diff;    /* keeps the row and its strings alive */
  const TvDiffFunction *row;
  guint                 index;
};

G_DEFINE_FINAL_TYPE (TvDiffItem, tv_diff_item, G_TYPE_OBJECT)

static void
tv_diff_item_finalize (GObject *object)
{
  TvDiffItem *self = TV_DIFF_ITEM (object);

  g_clear_pointer (&self->diff, tv_diff_unref);
  G_OBJECT_CLASS (tv_diff_item_parent_class)->finalize (object);
}

static void
tv_diff_item_class_init (TvDiffItemClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = tv_diff_item_finalize;
}

static void
tv_diff_item_init (TvDiffItem *self)
{
}

static gpointer
make_item (guint    position,
           gpointer user_data)
{
  TvDiff *diff = user_data;
  TvDiffItem *item = g_object_new (TV_TYPE_DIFF_ITEM, NULL);
  guint n_rows;

  item->diff = tv_diff_ref (diff);
  item->row = &tv_diff_get_functions (diff, &n_rows)[position];
  item->index = position;
  return item;
}

/* The function rows of DIFF, each item made when first asked for. */
static GListModel *
diff_rows_new (TvDiff *diff)
{
  guint n_rows;

  tv_diff_get_functions (diff, &n_rows);
  return tv_lazy_list_new (TV_TYPE_DIFF_ITEM, n_rows, make_item, tv_diff_ref (diff),
                           (GDestroyNotify) tv_diff_unref);
}

/* ------------------------------------------------------------------------ */
/* Cells                                                                     */
/* ------------------------------------------------------------------------ */

typedef enum
{
  CELL_NAME,
  CELL_FILE,
  CELL_TOTAL_BEFORE,
  CELL_TOTAL_AFTER,
  CELL_TOTAL_DELTA,
  CELL_TOTAL_RELATIVE,
  CELL_SELF_BEFORE,
  CELL_SELF_AFTER,
  CELL_SELF_DELTA,
  CELL_P_VALUE,
  N_CELLS
} CellKind;

struct _TvDiffTable
{
  AdwBin              parent_instance;

  TvDiff             *diff;
  GtkColumnView      *view;
  GtkSortListModel   *sorted;
  GtkSingleSelection *selection;
};

G_DEFINE_FINAL_TYPE (TvDiffTable, tv_diff_table, ADW_TYPE_BIN)

enum
{
  FUNCTION_ACTIVATED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static const TvDiffMeasure *
cell_measure (const TvDiffFunction *row,
              CellKind              kind)
{
  return kind >= CELL_SELF_BEFORE && kind <= CELL_SELF_DELTA ? &row->self : &row->total;
}

static void
setup_cell (GtkListItem *list_item,
            guint        kind)
{
  GtkWidget *label;

  if (kind == CELL_NAME)
    label = tv_cell_text_label_new (PANGO_ELLIPSIZE_END, 18);
  else if (kind == CELL_FILE)
    label = tv_cell_text_label_new (PANGO_ELLIPSIZE_START, 14);
  else
    label = tv_cell_label_new (1.0, "numeric");
  gtk_list_item_set_child (list_item, label);
}

static void
bind_cell (GtkListItem *list_item,
           guint        kind)
{
  TvDiffItem *item = gtk_list_item_get_item (list_item);
  GtkWidget *label = gtk_list_item_get_child (list_item);
  const TvDiffMeasure *m = cell_measure (item->row, kind);
  g_autofree char *text = NULL;
  gboolean colored = FALSE;

  gtk_widget_remove_css_class (label, "diff-slower");
  gtk_widget_remove_css_class (label, "diff-faster");
  switch (kind)
    {
    case CELL_NAME:
      text = tv_text_dup_shown (tv_diff_get_function_name (item->diff, item->row));
      break;
    case CELL_FILE:
      text = tv_text_dup_shown (tv_diff_get_function_file (item->diff, item->row));
      break;
    case CELL_TOTAL_BEFORE:
    case CELL_SELF_BEFORE:
      text = tv_diff_format_value (item->diff, m->base_value, FALSE);
      break;
    case CELL_TOTAL_AFTER:
    case CELL_SELF_AFTER:
      text = tv_diff_format_value (item->diff, m->new_value, FALSE);
      break;
    case CELL_TOTAL_DELTA:
    case CELL_SELF_DELTA:
      text = tv_diff_format_value (item->diff, m->delta, TRUE);
      colored = TRUE;
      break;
    case CELL_TOTAL_RELATIVE:
      if (isinf (m->relative))
        text = g_strdup (_("new"));
      else
        text = tv_format_fraction_signed (m->relative);
      colored = TRUE;
      break;
    case CELL_P_VALUE:
      text = g_strdup_printf ("%.2g", m->p_value);
      break;
    case N_CELLS:
    default:
      g_assert_not_reached ();
    }
  if (colored && m->change == TV_DIFF_SLOWER)
    gtk_widget_add_css_class (label, "diff-slower");
  else if (colored && m->change == TV_DIFF_FASTER)
    gtk_widget_add_css_class (label, "diff-faster");
  gtk_label_set_text (GTK_LABEL (label), text);
}

/* ------------------------------------------------------------------------ */
/* Sorters                                                                   */
/* ------------------------------------------------------------------------ */

static int
compare_doubles (double a,
                 double b)
{
  /* INFINITY (new functions) sorts above every finite change. */
  return (a > b) - (a < b);
}

static int
compare_cells (gconstpointer a,
               gconstpointer b,
               gpointer      user_data)
{
  const TvDiffItem *x = a, *y = b;
  CellKind kind = GPOINTER_TO_UINT (user_data);
  const TvDiffMeasure *mx = cell_measure (x->row, kind);
  const TvDiffMeasure *my = cell_measure (y->row, kind);

  switch (kind)
    {
    case CELL_NAME:
      return g_strcmp0 (tv_diff_get_function_name (x->diff, x->row),
                        tv_diff_get_function_name (y->diff, y->row));
    case CELL_FILE:
      return g_strcmp0 (tv_diff_get_function_file (x->diff, x->row),
                        tv_diff_get_function_file (y->diff, y->row));
    case CELL_TOTAL_BEFORE:
    case CELL_SELF_BEFORE:
      return compare_doubles (mx->base_value, my->base_value);
    case CELL_TOTAL_AFTER:
    case CELL_SELF_AFTER:
      return compare_doubles (mx->new_value, my->new_value);
    case CELL_TOTAL_DELTA:
    case CELL_SELF_DELTA:
      return compare_doubles (mx->delta, my->delta);
    case CELL_TOTAL_RELATIVE:
      return compare_doubles (mx->relative, my->relative);
    case CELL_P_VALUE:
      return compare_doubles (mx->p_value, my->p_value);
    case N_CELLS:
    default:
      g_assert_not_reached ();
    }
  return 0;
}

static void
add_column (TvDiffTable *self,
            const char  *title,
            CellKind     kind)
{
  g_autoptr(GtkColumnViewColumn) column = gtk_column_view_column_new (title, NULL);

  tv_cell_set_column (column, kind, setup_cell, bind_cell, NULL, compare_cells);
  gtk_column_view_column_set_resizable (column, TRUE);
  if (kind == CELL_NAME)
    gtk_column_view_column_set_expand (column, TRUE);
  gtk_column_view_append_column (self->view, column);
}

static void
on_activate (GtkColumnView *view,
             guint          position,
             TvDiffTable   *self)
{
  guint index = tv_diff_table_get_row (self, position);

  if (index != G_MAXUINT)
    g_signal_emit (self, signals[FUNCTION_ACTIVATED], 0, index);
}

/* ------------------------------------------------------------------------ */
/* Public API                                                                */
/* ------------------------------------------------------------------------ */

GtkWidget *
tv_diff_table_new (void)
{
  return g_object_new (TV_TYPE_DIFF_TABLE, NULL);
}

void
tv_diff_table_set_diff (TvDiffTable *self,
                        TvDiff      *diff)
{
  g_autoptr(GListModel) rows = NULL;

  g_return_if_fail (TV_IS_DIFF_TABLE (self));

  if (self->diff == diff)
    return;
  if (diff != NULL)
    {
      tv_diff_ref (diff);
      rows = diff_rows_new (diff);
    }
  g_clear_pointer (&self->diff, tv_diff_unref);
  self->diff = diff;
  gtk_sort_list_model_set_model (self->sorted, rows);
}

TvDiff *
tv_diff_table_get_diff (TvDiffTable *self)
{
  g_return_val_if_fail (TV_IS_DIFF_TABLE (self), NULL);

  return self->diff;
}

GtkColumnView *
tv_diff_table_get_view (TvDiffTable *self)
{
  g_return_val_if_fail (TV_IS_DIFF_TABLE (self), NULL);

  return self->view;
}

guint
tv_diff_table_get_n_rows (TvDiffTable *self)
{
  g_return_val_if_fail (TV_IS_DIFF_TABLE (self), 0);

  return g_list_model_get_n_items (G_LIST_MODEL (self->sorted));
}

guint
tv_diff_table_get_row (TvDiffTable *self,
                       guint        position)
{
  g_autoptr(TvDiffItem) item = NULL;

  g_return_val_if_fail (TV_IS_DIFF_TABLE (self), G_MAXUINT);

  item = g_list_model_get_item (G_LIST_MODEL (self->sorted), position);
  return item != NULL ? item->index : G_MAXUINT;
}

static void
tv_diff_table_dispose (GObject *object)
{
  TvDiffTable *self = TV_DIFF_TABLE (object);

  adw_bin_set_child (ADW_BIN (self), NULL);
  g_clear_object (&self->selection);
  g_clear_pointer (&self->diff, tv_diff_unref);
  G_OBJECT_CLASS (tv_diff_table_parent_class)->dispose (object);
}

static void
tv_diff_table_class_init (TvDiffTableClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = tv_diff_table_dispose;

  /* The index of the activated row in tv_diff_get_functions(). */
  signals[FUNCTION_ACTIVATED] =
    g_signal_new ("function-activated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_UINT);
}

static void
tv_diff_table_init (TvDiffTable *self)
{
  GtkWidget *scrolled = gtk_scrolled_window_new ();

  self->view = GTK_COLUMN_VIEW (gtk_column_view_new (NULL));
  add_column (self, _("Function"), CELL_NAME);
  add_column (self, _("File"), CELL_FILE);
  add_column (self, _("Total Before"), CELL_TOTAL_BEFORE);
  add_column (self, _("Total After"), CELL_TOTAL_AFTER);
  add_column (self, _("Δ Total"), CELL_TOTAL_DELTA);
  add_column (self, _("Δ %"), CELL_TOTAL_RELATIVE);
  add_column (self, _("Self Before"), CELL_SELF_BEFORE);
  add_column (self, _("Self After"), CELL_SELF_AFTER);
  add_column (self, _("Δ Self"), CELL_SELF_DELTA);
  add_column (self, _("p-value"), CELL_P_VALUE);

  self->sorted = gtk_sort_list_model_new (NULL,
                                          g_object_ref (gtk_column_view_get_sorter (self->view)));
  gtk_sort_list_model_set_incremental (self->sorted, TRUE);
  self->selection = gtk_single_selection_new (G_LIST_MODEL (self->sorted));
  gtk_single_selection_set_autoselect (self->selection, FALSE);
  gtk_column_view_set_model (self->view, GTK_SELECTION_MODEL (self->selection));
  gtk_column_view_set_show_column_separators (self->view, TRUE);
  gtk_widget_add_css_class (GTK_WIDGET (self->view), "data-table");
  g_signal_connect (self->view, "activate", G_CALLBACK (on_activate), self);

  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), GTK_WIDGET (self->view));
  gtk_widget_set_vexpand (scrolled, TRUE);
  adw_bin_set_child (ADW_BIN (self), scrolled);
}
