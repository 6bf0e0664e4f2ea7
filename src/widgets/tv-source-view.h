/* tv-source-view.h: a function's source, with samples per line
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "tv-profile.h"
#include "tv-source-heat-gutter.h"
#include "tv-view-state.h"

G_BEGIN_DECLS

#define TV_TYPE_SOURCE_VIEW (tv_source_view_get_type ())

G_DECLARE_FINAL_TYPE (TvSourceView, tv_source_view, TV, SOURCE_VIEW, AdwBin)

GtkWidget  *tv_source_view_new              (TvProfile    *profile,
                                             TvViewState  *state);
/* Shows FUNCTION (a TV_MERGE_FUNCTION key; TV_NODE_NONE clears) and marks
 * the location of FRAME, a frame-table index (or TV_NODE_NONE). */
void        tv_source_view_show             (TvSourceView *self,
                                             guint32       function,
                                             guint32       frame);
gboolean    tv_source_view_is_busy          (TvSourceView *self);
/* What the view knows (tests): whether the file was found, the samples
 * whose innermost call of the function was at LINE (total) and that were
 * at LINE in it (self), and the number of instructions listed. */
gboolean    tv_source_view_has_source       (TvSourceView *self);
const char *tv_source_view_get_status       (TvSourceView *self);
/* The heading: the function and its file, as shown. */
const char *tv_source_view_get_title        (TvSourceView *self);
gboolean    tv_source_view_get_line_samples (TvSourceView *self,
                                             int           line,
                                             guint64      *total,
                                             guint64      *self_samples);
guint       tv_source_view_get_n_instructions (TvSourceView *self);
/* The file shown is at PATH on this machine, and the folders it shares
 * with the name the profile gives (at the end) are the same: as "Find the
 * File…" does. */
void        tv_source_view_locate           (TvSourceView *self,
                                             const char   *path);
/* The view of the file and its gutter of samples (tests); NULL until the
 * panel was first shown.  The buffer's tags "tv-marked-line" and
 * "tv-marked-span" mark the selected frame's line and its columns. */
GtkSourceView      *tv_source_view_get_text_view   (TvSourceView *self);
TvSourceHeatGutter *tv_source_view_get_heat_gutter (TvSourceView *self);

G_END_DECLS
