/* tv-window.h: the main window, a tab per profile
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "tv-compare-page.h"
#include "tv-profile-page.h"

G_BEGIN_DECLS

#define TV_TYPE_WINDOW (tv_window_get_type ())

/* The demo profile in the resources: a real recording from the corpus. */
#define TV_DEMO_PROFILE_URI \
  "resource:///io/github/tachyonviewer/TachyonViewer/demo/rec_threads.zst.tach"


G_DECLARE_FINAL_TYPE (TvWindow, tv_window, TV, WINDOW, AdwApplicationWindow)

TvWindow      *tv_window_new             (GtkApplication *application);
/* Opens FILE in a new tab, or selects its tab if it is open already (and
 * loads it again if it had failed). */
TvProfilePage *tv_window_open_file       (TvWindow       *self,
                                          GFile          *file);
TvProfilePage *tv_window_lookup_page     (TvWindow       *self,
                                          GFile          *file);
AdwTabView    *tv_window_get_tab_view    (TvWindow       *self);
GtkDropTarget *tv_window_get_drop_target (TvWindow       *self);

/* Opens a tab comparing BASE with NEW_FILE (reusing the profiles of open
 * tabs that are loaded). */
TvComparePage *tv_window_open_comparison (TvWindow       *self,
                                          GFile          *base,
                                          GFile          *new_file);
/* Offers, in a toast, to compare two files just opened together. */
void           tv_window_offer_comparison (TvWindow      *self,
                                           GFile         *base,
                                           GFile         *new_file);
/* The file chooser of win.compare-with while it is open (tests). */
GtkFileChooserNative *tv_window_get_compare_chooser (TvWindow *self);

G_END_DECLS
