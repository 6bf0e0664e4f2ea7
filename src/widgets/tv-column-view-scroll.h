/* tv-column-view-scroll.h: scrolling a GtkColumnView to a row on GTK 4.8
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* Scrolls VIEW no more than it takes to show the row at POSITION. */
void tv_column_view_scroll_to_row (GtkColumnView *view,
                                   guint          position);

G_END_DECLS
