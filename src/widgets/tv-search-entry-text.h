/* tv-search-entry-text.h: showing a search that was set from elsewhere
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* Shows TEXT in ENTRY without HANDLER, connected to its "search-changed"
 * with DATA, hearing of it. */
void tv_search_entry_show_text (GtkSearchEntry *entry,
                                const char     *text,
                                gpointer        handler,
                                gpointer        data);

G_END_DECLS
