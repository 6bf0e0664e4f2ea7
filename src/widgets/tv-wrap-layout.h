/* tv-wrap-layout.h: children in a row that wraps onto more lines
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define TV_TYPE_WRAP_LAYOUT (tv_wrap_layout_get_type ())

G_DECLARE_FINAL_TYPE (TvWrapLayout, tv_wrap_layout, TV, WRAP_LAYOUT, GtkLayoutManager)

/* Lays the children out in a row, as a horizontal GtkBox would, and moves
 * those that do not fit at their minimum width onto the next line, like
 * words; a line's extra width goes to its horizontally expanding children.
 * SPACING is the gap between children and between lines. */
GtkLayoutManager *tv_wrap_layout_new (int spacing);

G_END_DECLS
