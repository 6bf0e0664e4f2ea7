/* tv-search-entry-text.c: showing a search that was set from elsewhere
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tv-search-entry-text.h"

void
tv_search_entry_show_text (GtkSearchEntry *entry,
                           const char     *text,
                           gpointer        handler,
                           gpointer        data)
{
  g_return_if_fail (GTK_IS_SEARCH_ENTRY (entry));
  g_return_if_fail (text != NULL);

  /* Setting the text empties the entry first, which a search entry
   * reports at once: the owner, which has its search already, would
   * search for that. */
  g_signal_handlers_block_by_func (entry, handler, data);
  if (g_strcmp0 (gtk_editable_get_text (GTK_EDITABLE (entry)), text) != 0)
    gtk_editable_set_text (GTK_EDITABLE (entry), text);
  g_signal_handlers_unblock_by_func (entry, handler, data);
}
