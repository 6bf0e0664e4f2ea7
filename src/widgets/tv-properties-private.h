/* tv-properties-private.h: what the properties pane's files share
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "tv-thread-item.h"

G_BEGIN_DECLS

/* Rows of the thread table that "Copy as Text" copies: the clipboard gets
 * a table a person can read, made in bounded time on the UI thread. */
#define MAX_COPIED_THREADS 1000

#define N_THREAD_COLUMNS 10

/* Up to about this many rows show without scrolling inside the table, in
 * THREADS_HEIGHT pixels (the scroller's max-content-height in
 * tv-properties.ui). */
#define THREAD_ROWS_IN_VIEW 12
#define THREADS_HEIGHT      420

/* The two tables of threads (all their samples, and those of the selected
 * range) are column views over a TvThreadItem list, sorted by any column
 * through an incremental sort model, ties in the display order.  A table
 * knows its columns by these two functions. */
typedef struct
{
  /* What column COLUMN shows for ITEM. */
  char   *(*text)  (TvThreadItem *item,
                    guint         column);
  /* What it sorts by: not column 0, the thread id, which uses all 64 bits,
   * more than a double holds exactly. */
  double  (*value) (TvThreadItem *item,
                    guint         column);
  const char *(*title) (guint column);
  guint   n_columns;
  /* The column whose text is a word, not a number; G_MAXUINT for none. */
  guint   word_column;
} TableKind;

typedef struct
{
  struct _ThreadTable *table;
  guint                column;
} TableColumn;

typedef struct _ThreadTable
{
  const TableKind  *kind;
  GtkColumnView    *view;
  GtkSortListModel *rows;       /* in the order shown */
  TableColumn       columns[N_THREAD_COLUMNS];
} ThreadTable;

extern const TableKind tv_properties_thread_table;
extern const TableKind tv_properties_range_table;

char  *tv_properties_u64_to_string     (guint64            value);
void   tv_properties_table_init        (ThreadTable       *table,
                                        const TableKind   *kind,
                                        GtkColumnView     *view);
void   tv_properties_table_set_rows    (ThreadTable       *table,
                                        GListModel        *rows);
guint  tv_properties_table_get_n_rows  (ThreadTable       *table);
void   tv_properties_table_append_text (ThreadTable       *table,
                                        GString           *text);
void   tv_properties_fit_table         (GtkScrolledWindow *scroller,
                                        guint              n_rows);

G_END_DECLS
