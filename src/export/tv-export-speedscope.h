/* tv-export-speedscope.h: a profile in speedscope's own format
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <stdio.h>

#include <gio/gio.h>

#include "tv-export.h"
#include "tv-profile-data.h"

G_BEGIN_DECLS

/* SOURCE_NAME, the profile's file name, names the file's profiles. */
gboolean tv_export_speedscope_write (TvProfileData         *data,
                                     TvViewState           *state,
                                     const char            *source_name,
                                     FILE                  *file,
                                     GCancellable          *cancellable,
                                     GError               **error);
/* Writes OUT_PATH as tv_atomic_write() does: never half-written. */
gboolean tv_export_speedscope_save  (TvProfileData         *data,
                                     TvViewState           *state,
                                     const char            *source_name,
                                     const char            *out_path,
                                     GCancellable          *cancellable,
                                     GError               **error);

G_END_DECLS
