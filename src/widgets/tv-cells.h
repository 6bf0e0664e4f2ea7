/* tv-cells.h: what the cells of the call tree, the function table and the
 * comparison's table share
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "tv-call-tree.h"

G_BEGIN_DECLS

/* A label for a cell: aligned to XALIGN, with CSS_CLASS if not NULL. */
GtkWidget *tv_cell_label_new (float       xalign,
                              const char *css_class);

/* A name's or a file's label: at the start, ELLIPSIZE at WIDTH_CHARS. */
GtkWidget *tv_cell_text_label_new (PangoEllipsizeMode ellipsize,
                                   int                width_chars);

/* Two labels aligned to XALIGN, with CSS_CLASS, the second below in a dim
 * caption; FIRST and SECOND (if not NULL) are set to them. */
GtkWidget *tv_cell_pair_new (float        xalign,
                             const char  *css_class,
                             GtkWidget  **first,
                             GtkWidget  **second);

void tv_cell_pair_set_text (GtkWidget  *pair,
                            const char *first,
                            const char *second);

/* The tooltip of LIST_ITEM's cell of KIND (a new string), or NULL for
 * none. */
typedef char *(*TvCellTooltipFunc) (GtkListItem *list_item,
                                    guint        kind);

/* Makes CHILD the cell of KIND of LIST_ITEM, with the tooltip TOOLTIP
 * says, made when asked for. */
void tv_cell_set_child (GtkListItem       *list_item,
                        GtkWidget         *child,
                        guint              kind,
                        TvCellTooltipFunc  tooltip);

/* "1,234 samples (12.3 %, 1.23 s of thread time)" for the tooltips. */
char *tv_cell_describe_samples (TvCallTree *tree,
                                guint64     samples);

/* Makes, fills or empties LIST_ITEM's cell of KIND. */
typedef void (*TvCellFunc) (GtkListItem *list_item,
                            guint        kind);

/* Gives COLUMN the cells of KIND that SETUP makes, BIND fills and UNBIND
 * (if not NULL) empties, and the sort COMPARE makes with KIND as its
 * data. */
void tv_cell_set_column (GtkColumnViewColumn *column,
                         guint                kind,
                         TvCellFunc           setup,
                         TvCellFunc           bind,
                         TvCellFunc           unbind,
                         GCompareDataFunc     compare);

G_END_DECLS
