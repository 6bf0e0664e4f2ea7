/* tv-export-pprof.h: a profile as Google's pprof profile.proto, gzipped
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "tv-export.h"
#include "tv-profile-data.h"

G_BEGIN_DECLS

/* The samples FILTER selects, by its merge key (TV_MERGE_LINE gives a
 * location per line), as a gzip-compressed perftools.profiles.Profile:
 * what `go tool pprof`, Pyroscope, Parca and Grafana read.  FILTER's view
 * (inversion, orientation, zoom, search) is not used. */
GBytes *tv_export_pprof_build (TvProfileData         *data,
                               TvViewState           *state,
                               const char            *source_name,
                               GCancellable          *cancellable,
                               GError               **error);

G_END_DECLS
