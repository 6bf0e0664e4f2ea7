/* tv-popup-tooltips.h: no tooltip over the menu a button opens
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* For every GtkMenuButton and GtkDropDown in ROOT's tree (ROOT
 * included): while its popover is open, it shows no tooltip, which would
 * cover the menu's first items. */
void tv_popup_tooltips_attach (GtkWidget *root);

/* The same for one OWNER and the POPOVER it opens. */
void tv_popup_tooltips_attach_popover (GtkWidget  *owner,
                                       GtkPopover *popover);

G_END_DECLS
