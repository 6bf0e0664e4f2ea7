/* tv-function-table.h: the function table and the callers and callees
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The side panel of the flame graph page: one row per function of the
 * tree the graph shows (self, total and their shares), sortable and
 * searchable, and below it the callers and the callees of the selected
 * function, which the model computes exactly on a worker.
 */
#pragma once

#include <adwaita.h>

#include "tv-profile.h"
#include "tv-view-state.h"

G_BEGIN_DECLS

/* One row of the table or of the callers and callees lists. */
#define TV_TYPE_FUNCTION_ITEM (tv_function_item_get_type ())

G_DECLARE_FINAL_TYPE (TvFunctionItem, tv_function_item, TV, FUNCTION_ITEM, GObject)

/* A function key (TV_MERGE_FUNCTION), or TV_NODE_NONE for the rows that
 * stand for no function: "(self)" among the callees, "(no caller)" among
 * the callers. */
guint32      tv_function_item_get_function (TvFunctionItem *self);
/* The function's name and its file's full path ("" for no function). */
const char  *tv_function_item_get_name     (TvFunctionItem *self);
const char  *tv_function_item_get_file     (TvFunctionItem *self);
/* The table's self samples; 0 in the callers and callees lists. */
guint64      tv_function_item_get_self     (TvFunctionItem *self);
/* The table's total samples (a recursive function counted once), or the
 * samples of a caller or callee row. */
guint64      tv_function_item_get_total    (TvFunctionItem *self);
/* What the shares are of: the samples of the table's tree, or the
 * selected function's total for the callers and callees. */
guint64      tv_function_item_get_base     (TvFunctionItem *self);

#define TV_TYPE_FUNCTION_TABLE (tv_function_table_get_type ())

G_DECLARE_FINAL_TYPE (TvFunctionTable, tv_function_table, TV, FUNCTION_TABLE, AdwBin)

/* The table's columns, for tv_function_table_sort_by_column(). */
typedef enum
{
  TV_FUNCTION_COLUMN_NAME,
  TV_FUNCTION_COLUMN_SELF_PERCENT,
  TV_FUNCTION_COLUMN_TOTAL_PERCENT,
  TV_FUNCTION_COLUMN_SELF,
  TV_FUNCTION_COLUMN_TOTAL,
  TV_FUNCTION_COLUMN_FILE,
  TV_N_FUNCTION_COLUMNS
} TvFunctionColumn;

/* PROFILE must be loaded; STATE is the page's, from which the callers and
 * callees queries are made. */
GtkWidget   *tv_function_table_new         (TvProfile       *profile,
                                            TvViewState     *state);

/* The tree the flame graph shows now: the table lists its functions, and
 * the callers and callees of the selected function are computed again. */
TvCallTree  *tv_function_table_get_tree    (TvFunctionTable *self);
void         tv_function_table_set_tree    (TvFunctionTable *self,
                                            TvCallTree      *tree);

/* The selected function (a TV_MERGE_FUNCTION key), or TV_NODE_NONE; the
 * "selected-function" property. */
guint32      tv_function_table_get_selected_function (TvFunctionTable *self);
/* Selects FUNCTION's row and scrolls to it when the table shows it, and
 * shows its callers and callees; TV_NODE_NONE clears the selection.  Does
 * not emit "function-selected". */
void         tv_function_table_select_function       (TvFunctionTable *self,
                                                      guint32          function);

/* The search: rows whose function name or file path contain TEXT (ASCII
 * letters in any case); "" shows every row. */
const char  *tv_function_table_get_search  (TvFunctionTable *self);
void         tv_function_table_set_search  (TvFunctionTable *self,
                                            const char      *text);
void         tv_function_table_sort_by_column (TvFunctionTable *self,
                                               TvFunctionColumn column,
                                               GtkSortType      order);

/* Whether sorting, filtering or a callers or callees query is still
 * running. */
gboolean     tv_function_table_is_busy     (TvFunctionTable *self);

/* The rows as shown (sorted and filtered), the callers and the callees
 * of the selected function, sorted as shown: lists of TvFunctionItem that
 * follow what the table shows (a new reference). */
GListModel  *tv_function_table_list_rows    (TvFunctionTable *self);
GListModel  *tv_function_table_list_callers (TvFunctionTable *self);
GListModel  *tv_function_table_list_callees (TvFunctionTable *self);

G_END_DECLS
