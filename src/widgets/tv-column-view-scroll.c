/* tv-column-view-scroll.c: scrolling a GtkColumnView to a row on GTK 4.8
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tv-column-view-scroll.h"

void
tv_column_view_scroll_to_row (GtkColumnView *view,
                              guint          position)
{
  g_return_if_fail (GTK_IS_COLUMN_VIEW (view));

  /* GTK 4.8 has no gtk_column_view_scroll_to(): its list view, the child
   * that scrolls, has the action that does it, and scrolls no more than it
   * takes. */
  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (view));
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (GTK_IS_LIST_VIEW (child))
      {
        gtk_widget_activate_action (child, "list.scroll-to-item", "u", position);
        return;
      }
}
