/* tv-diff-table.h: the functions of a comparison, before and after
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "tv-diff.h"

G_BEGIN_DECLS

#define TV_TYPE_DIFF_TABLE (tv_diff_table_get_type ())

G_DECLARE_FINAL_TYPE (TvDiffTable, tv_diff_table, TV, DIFF_TABLE, AdwBin)

GtkWidget     *tv_diff_table_new          (void);
/* The comparison shown, or NULL for an empty table. */
void           tv_diff_table_set_diff     (TvDiffTable *self,
                                           TvDiff      *diff);
TvDiff        *tv_diff_table_get_diff     (TvDiffTable *self);
/* The column view and its (sorted) model, for tests. */
GtkColumnView *tv_diff_table_get_view     (TvDiffTable *self);
/* The TvDiffFunction index (in tv_diff_get_functions()) of the row at
 * POSITION in the current sort order, or G_MAXUINT. */
guint          tv_diff_table_get_row      (TvDiffTable *self,
                                           guint        position);
guint          tv_diff_table_get_n_rows   (TvDiffTable *self);

G_END_DECLS
