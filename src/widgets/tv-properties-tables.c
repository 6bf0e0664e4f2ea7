/* tv-properties-tables.c: the thread tables of the properties pane
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The two tables of Properties: every sample of each thread, and each
 * thread's samples in the selected time ranges.  Column views over a lazy
 * list of TvThreadItem, sorted by any column, copied as text.
 */
#include <glib/gi18n.h>

#include "tv-properties-private.h"
#include "tv-units.h"

/* Bit numbers of the status byte (TvThread.status_counts). */
enum
{
  BIT_HAS_GIL = 0,
  BIT_ON_CPU = 1,
  BIT_GIL_REQUESTED = 3,
  BIT_HAS_EXCEPTION = 4,
  BIT_MAIN_THREAD = 5,
};

char *
tv_properties_u64_to_string (guint64 value)
{
  return g_strdup_printf ("%" G_GUINT64_FORMAT, value);
}

static char *
percent (guint64 count,
         guint64 total)
{
  if (total == 0)
    return g_strdup ("-");
  /* The column's title has the per cent sign. */
  return tv_format_share_number (count, total);
}

/* ------------------------------------------------------------------------ */
/* The thread tables                                                         */
/* ------------------------------------------------------------------------ */

static int
compare_table_cells (gconstpointer a,
                     gconstpointer b,
                     gpointer      user_data)
{
  const TableColumn *column = user_data;
  TvThreadItem *x = (TvThreadItem *) a, *y = (TvThreadItem *) b;
  guint px = tv_thread_item_get_position (x), py = tv_thread_item_get_position (y);

  if (column->column == 0)
    {
      guint64 u = tv_thread_item_get_thread (x)->thread_id;
      guint64 v = tv_thread_item_get_thread (y)->thread_id;

      if (u != v)
        return u < v ? -1 : 1;
    }
  else
    {
      double u = column->table->kind->value (x, column->column);
      double v = column->table->kind->value (y, column->column);

      if (u != v)
        return u < v ? -1 : 1;
    }
  /* Ties in the list's order, so that a sort is stable. */
  return (px > py) - (px < py);
}

static void
setup_table_cell (GtkSignalListItemFactory *factory,
                  GtkListItem              *list_item,
                  gpointer                  user_data)
{
  const TableColumn *column = user_data;
  gboolean word = column->column == column->table->kind->word_column;
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), word ? 0.0f : 1.0f);
  gtk_widget_add_css_class (label, word ? "accent" : "numeric");
  gtk_list_item_set_child (list_item, label);
}

static void
bind_table_cell (GtkSignalListItemFactory *factory,
                 GtkListItem              *list_item,
                 gpointer                  user_data)
{
  const TableColumn *column = user_data;
  TvThreadItem *item = gtk_list_item_get_item (list_item);
  g_autofree char *text = column->table->kind->text (item, column->column);

  gtk_label_set_text (GTK_LABEL (gtk_list_item_get_child (list_item)), text);
}

static void
on_table_map (GtkColumnView *view,
              ThreadTable   *table)
{
  if (gtk_column_view_get_model (view) == NULL)
    {
      g_autoptr(GtkNoSelection) selection = NULL;

      selection = gtk_no_selection_new (G_LIST_MODEL (g_object_ref (table->rows)));
      gtk_column_view_set_model (view, GTK_SELECTION_MODEL (selection));
    }
}

/* The columns of VIEW, each with its cells and its sorter; no rows until
 * table_set_rows(), in the list's order until a heading is clicked. */
void
tv_properties_table_init (ThreadTable     *table,
                          const TableKind *kind,
                          GtkColumnView   *view)
{
  g_assert (kind->n_columns <= N_THREAD_COLUMNS);
  table->kind = kind;
  table->view = view;
  for (guint c = 0; c < kind->n_columns; c++)
    {
      g_autoptr(GtkListItemFactory) factory = gtk_signal_list_item_factory_new ();
      g_autoptr(GtkSorter) sorter = NULL;
      g_autoptr(GtkColumnViewColumn) column = NULL;

      table->columns[c].table = table;
      table->columns[c].column = c;
      g_signal_connect (factory, "setup", G_CALLBACK (setup_table_cell), &table->columns[c]);
      g_signal_connect (factory, "bind", G_CALLBACK (bind_table_cell), &table->columns[c]);
      sorter = GTK_SORTER (gtk_custom_sorter_new (compare_table_cells, &table->columns[c], NULL));
      column = gtk_column_view_column_new (kind->title (c), g_steal_pointer (&factory));
      gtk_column_view_column_set_sorter (column, sorter);
      gtk_column_view_append_column (view, column);
    }
  /* An empty column takes what the others leave of the card's width: a
   * column view narrower than its scrolled window draws the glow of a
   * scroll that hit its end along the right edge (GTK 4.8). */
  {
    g_autoptr(GtkListItemFactory) factory = gtk_signal_list_item_factory_new ();
    g_autoptr(GtkColumnViewColumn) filler = gtk_column_view_column_new (NULL,
                                                                        g_steal_pointer (&factory));

    gtk_column_view_column_set_expand (filler, TRUE);
    gtk_column_view_append_column (view, filler);
  }

  table->rows = gtk_sort_list_model_new (NULL, g_object_ref (gtk_column_view_get_sorter (view)));
  /* A sort of a hundred thousand rows runs in steps on the main loop. */
  gtk_sort_list_model_set_incremental (table->rows, TRUE);
  /* GTK makes a view's rows (up to 200) as soon as it has a model, shown
   * or not: a table gets its rows once it is first shown. */
  g_signal_connect (view, "map", G_CALLBACK (on_table_map), table);
}

void
tv_properties_table_set_rows (ThreadTable *table,
                              GListModel  *rows)
{
  gtk_sort_list_model_set_model (table->rows, rows);
  /* A table of a few rows takes their height, which it knows once it has
   * made them: those it makes now (one that scrolls has its height). */
  if (rows != NULL && g_list_model_get_n_items (rows) <= THREAD_ROWS_IN_VIEW)
    on_table_map (table->view, table);
}

guint
tv_properties_table_get_n_rows (ThreadTable *table)
{
  return g_list_model_get_n_items (G_LIST_MODEL (table->rows));
}

/* The table as "Copy as Text" copies it: its headings, then its first
 * MAX_COPIED_THREADS rows in the order shown, and how many it left out;
 * bounded work on the UI thread, a table a person can still read. */
void
tv_properties_table_append_text (ThreadTable *table,
                                 GString     *text)
{
  GListModel *rows = G_LIST_MODEL (table->rows);
  guint n_columns = table->kind->n_columns;
  guint n_rows = g_list_model_get_n_items (rows);
  guint n_copied = MIN (n_rows, MAX_COPIED_THREADS);

  g_string_append_c (text, ' ');
  for (guint c = 0; c < n_columns; c++)
    g_string_append_printf (text, " %s%s", table->kind->title (c),
                            c + 1 == n_columns ? "\n" : "\t");
  for (guint i = 0; i < n_copied; i++)
    {
      g_autoptr(TvThreadItem) item = g_list_model_get_item (rows, i);

      g_string_append_c (text, ' ');
      for (guint c = 0; c < n_columns; c++)
        {
          g_autofree char *cell = table->kind->text (item, c);

          g_string_append_printf (text, " %s%s", cell, c + 1 == n_columns ? "\n" : "\t");
        }
    }
  if (n_copied < n_rows)
    {
      /* Translators: after the rows of a thread table that "Copy as Text"
       * copied. */
      g_autofree char *more = g_strdup_printf (ngettext ("… and %u more thread, not copied",
                                                         "… and %u more threads, not copied",
                                                         n_rows - n_copied),
                                               n_rows - n_copied);

      g_string_append_printf (text, "  %s\n", more);
    }
}

/* The per-thread table: every sample of each thread. */

static char *
thread_cell_text (TvThreadItem *item,
                  guint         column)
{
  const TvThread *thread = tv_thread_item_get_thread (item);

  switch (column)
    {
    case 0:
      return tv_properties_u64_to_string (thread->thread_id);
    case 1:
      return g_strdup_printf ("%u", thread->interpreter_id);
    case 2:
      return tv_format_count (thread->n_samples);
    case 3:
      return percent (thread->status_counts[BIT_HAS_GIL], thread->n_samples);
    case 4:
      return percent (thread->status_counts[BIT_ON_CPU], thread->n_samples);
    case 5:
      return percent (thread->status_counts[BIT_GIL_REQUESTED], thread->n_samples);
    case 6:
      return percent (thread->status_counts[BIT_HAS_EXCEPTION], thread->n_samples);
    case 7:
    case 8:
      {
        guint64 origin;

        if (thread->n_samples == 0
            || !tv_profile_data_get_time_span (tv_thread_item_get_data (item), &origin, NULL))
          return g_strdup ("-");
        return g_strdup_printf ("%.3f", (double) ((column == 7 ? thread->first_timestamp
                                                               : thread->last_timestamp)
                                                  - origin) / 1e6);
      }
    default:
      /* Translators: marks the interpreter's main thread in the
       * per-thread table. */
      return g_strdup (thread->status_counts[BIT_MAIN_THREAD] > 0 ? _("main") : "");
    }
}

static double
thread_cell_value (TvThreadItem *item,
                   guint         column)
{
  const TvThread *thread = tv_thread_item_get_thread (item);
  double n = (double) MAX (thread->n_samples, 1);

  switch (column)
    {
    case 1:
      return thread->interpreter_id;
    case 2:
      return (double) thread->n_samples;
    case 3:
      return (double) thread->status_counts[BIT_HAS_GIL] / n;
    case 4:
      return (double) thread->status_counts[BIT_ON_CPU] / n;
    case 5:
      return (double) thread->status_counts[BIT_GIL_REQUESTED] / n;
    case 6:
      return (double) thread->status_counts[BIT_HAS_EXCEPTION] / n;
    case 7:
      return thread->n_samples > 0 ? (double) thread->first_timestamp : -1.0;
    case 8:
      return thread->n_samples > 0 ? (double) thread->last_timestamp : -1.0;
    default:
      return thread->status_counts[BIT_MAIN_THREAD] > 0;
    }
}

static const char *
thread_column_title (guint column)
{
  /* Translators: column headers of the per-thread table; keep them short. */
  const char *titles[N_THREAD_COLUMNS] = {
    _("Thread ID"), _("Interp"), _("Samples"), _("GIL %"), _("CPU %"), _("Wait %"),
    _("Exc %"), _("First (s)"), _("Last (s)"), _("Main"),
  };

  return titles[column];
}

const TableKind tv_properties_thread_table = {
  thread_cell_text, thread_cell_value, thread_column_title, N_THREAD_COLUMNS, 9,
};

/* The range table: each thread's samples in the selected time ranges. */

#define N_RANGE_COLUMNS 6

static const TvTimelineCount range_counts[N_RANGE_COLUMNS] = {
  0, 0, TV_TIMELINE_COUNT_HAS_GIL, TV_TIMELINE_COUNT_ON_CPU, TV_TIMELINE_COUNT_GIL_REQUESTED,
  TV_TIMELINE_COUNT_EXCEPTION,
};

static char *
range_cell_text (TvThreadItem *item,
                 guint         column)
{
  const TvTimelineColumn *counts = tv_thread_item_get_range_counts (item);

  switch (column)
    {
    case 0:
      return tv_properties_u64_to_string (tv_thread_item_get_thread (item)->thread_id);
    case 1:
      return tv_format_count (counts->samples);
    default:
      return percent (counts->counts[range_counts[column]], counts->samples);
    }
}

static double
range_cell_value (TvThreadItem *item,
                  guint         column)
{
  const TvTimelineColumn *counts = tv_thread_item_get_range_counts (item);

  if (column == 1)
    return (double) counts->samples;
  return (double) counts->counts[range_counts[column]] / (double) MAX (counts->samples, 1);
}

static const char *
range_column_title (guint column)
{
  const char *titles[N_RANGE_COLUMNS] = {
    _("Thread ID"), _("Samples"), _("GIL %"), _("CPU %"), _("Wait %"), _("Exc %"),
  };

  return titles[column];
}

const TableKind tv_properties_range_table = {
  range_cell_text, range_cell_value, range_column_title, N_RANGE_COLUMNS, G_MAXUINT,
};

/* Up to a dozen rows, the table is as tall as its rows: the pane's
 * viewport gives the card its minimum height, which for a scrolled window
 * is a row or two (the table of eight threads showed one).  Past that the
 * card takes its full height and the table scrolls inside it (a list
 * view's natural height is that of the rows it has made, a few when there
 * are many). */
void
tv_properties_fit_table (GtkScrolledWindow *scroller,
                         guint              n_rows)
{
  gboolean scrolls = n_rows > THREAD_ROWS_IN_VIEW;

  gtk_scrolled_window_set_policy (scroller, GTK_POLICY_AUTOMATIC,
                                  scrolls ? GTK_POLICY_AUTOMATIC : GTK_POLICY_NEVER);
  gtk_scrolled_window_set_min_content_height (scroller, scrolls ? THREADS_HEIGHT : -1);
}
