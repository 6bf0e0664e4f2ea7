/* tv-start-page.h: what a window shows before a profile is open
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define TV_TYPE_START_PAGE (tv_start_page_get_type ())

G_DECLARE_FINAL_TYPE (TvStartPage, tv_start_page, TV, START_PAGE, AdwBin)

TvStartPage *tv_start_page_new              (void);
guint        tv_start_page_get_n_recent     (TvStartPage *self);

G_END_DECLS
