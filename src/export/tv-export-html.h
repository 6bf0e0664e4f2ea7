/* tv-export-html.h: a profile as one self-contained HTML flame graph
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "tv-diff.h"
#include "tv-export.h"
#include "tv-profile-data.h"

G_BEGIN_DECLS

GBytes *tv_export_html_build (TvProfileData         *data,
                              TvViewState           *state,
                              const char            *source_name,
                              GCancellable          *cancellable,
                              GError               **error);
GBytes *tv_export_html_build_diff (TvDiff               *diff,
                                   TvViewState          *state,
                                   const char           *base_name,
                                   const char           *new_name,
                                   const char           *search,
                                   GCancellable         *cancellable,
                                   GError              **error);

G_END_DECLS
