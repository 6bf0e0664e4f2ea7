/* tv-function-table-private.h: what the function table's files share
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "tv-function-table.h"

G_BEGIN_DECLS

struct _TvFunctionItem
{
  GObject     parent_instance;

  /* Keeps the strings alive. */
  TvCallTree *tree;
  guint64     base;             /* the samples the shares are of */
  const char *name;
  const char *file;
  const char *basename;
  guint32     function;
  guint64     self;
  guint64     total;
};

typedef enum
{
  CELL_NAME,
  CELL_FILE,
  CELL_SELF,
  CELL_TOTAL,
  CELL_SELF_PERCENT,
  CELL_TOTAL_PERCENT,
  /* The table's: the share above the samples, so that the columns fit
   * the side panel's width. */
  CELL_SELF_BOTH,
  CELL_TOTAL_BOTH,
} CellKind;

void tv_function_table_format_count (char    *buffer,
                                     gsize    size,
                                     guint64  count);

void tv_function_table_format_percent (char    *buffer,
                                       gsize    size,
                                       guint64  part,
                                       guint64  whole);

/* Gives COLUMN the cells of KIND and their sort. */
void tv_function_table_set_column (GtkColumnViewColumn *column,
                                   CellKind             kind);

#define TV_TYPE_ROW_FILTER (tv_row_filter_get_type ())

G_DECLARE_FINAL_TYPE (TvRowFilter, tv_row_filter, TV, ROW_FILTER, GtkFilter)

GListModel *tv_function_rows_new (TvCallTree *tree);

GListModel *tv_function_rows_new_take (TvCallTree    *tree,
                                       TvFunctionRow *rows,
                                       guint          n_rows,
                                       const char    *special);
GListModel *tv_function_rows_new_take_with_base (TvCallTree    *tree,
                                                 TvFunctionRow *rows,
                                                 guint          n_rows,
                                                 const char    *special,
                                                 guint64        base);

void tv_function_table_free_in_thread (gpointer object);

void tv_row_filter_set_text (TvRowFilter *self,
                             const char  *text);

G_END_DECLS
