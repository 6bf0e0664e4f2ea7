/* tv-profile-page.h: the page of one profile in a tab
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "tv-flame-view.h"
#include "tv-profile.h"
#include "tv-properties.h"
#include "tv-timeline-view.h"
#include "tv-view-state.h"

G_BEGIN_DECLS

#define TV_TYPE_PROFILE_PAGE (tv_profile_page_get_type ())

G_DECLARE_FINAL_TYPE (TvProfilePage, tv_profile_page, TV, PROFILE_PAGE, AdwBin)

/* What the page shows. */
typedef enum
{
  TV_PROFILE_PAGE_LOADING,
  TV_PROFILE_PAGE_LOADED,
  TV_PROFILE_PAGE_FAILED,
  TV_PROFILE_PAGE_CANCELLED,
} TvProfilePageState;

/* Starts loading FILE at once. */
TvProfilePage      *tv_profile_page_new               (GFile         *file);
GFile              *tv_profile_page_get_file          (TvProfilePage *self);
TvProfile          *tv_profile_page_get_profile       (TvProfilePage *self);
TvProfilePageState  tv_profile_page_get_state         (TvProfilePage *self);
gboolean            tv_profile_page_get_loading       (TvProfilePage *self);
/* The message shown when loading failed, or NULL. */
const char         *tv_profile_page_get_error_message (TvProfilePage *self);
TvProperties       *tv_profile_page_get_properties    (TvProfilePage *self);
/* NULL until the profile is loaded. */
TvFlameView        *tv_profile_page_get_flame_view    (TvProfilePage *self);
TvViewState        *tv_profile_page_get_view_state    (TvProfilePage *self);
/* NULL until the profile is loaded. */
TvTimelineView     *tv_profile_page_get_timeline_view (TvProfilePage *self);
/* "flamegraph" or "properties". */
void                tv_profile_page_show_view         (TvProfilePage *self,
                                                       const char    *name);
void                tv_profile_page_cancel            (TvProfilePage *self);
/* Loads the file again, in place of what the page shows ("page.reload"):
 * after a failure, or when the file changed on disk. */
void                tv_profile_page_reload            (TvProfilePage *self);
/* Whether the file on disk is still the one shown, as the banner says:
 * UNCHANGED until the page is loaded and its file watched. */
TvProfileFileState  tv_profile_page_get_file_state    (TvProfilePage *self);

/* Writes what the views show (threads, thread state, time range,
 * inverted) to DEST, on a worker: an SVG, PNG or PDF image of the flame
 * graph as shown (zoom, orientation, colours, search) when DEST ends in
 * .svg, .png or .pdf, a self-contained HTML flame graph otherwise.  The
 * "page.export" action asks where first. */
void                tv_profile_page_export_async      (TvProfilePage        *self,
                                                       GFile                *dest,
                                                       GCancellable         *cancellable,
                                                       GAsyncReadyCallback   callback,
                                                       gpointer              user_data);
gboolean            tv_profile_page_export_finish     (TvProfilePage        *self,
                                                       GAsyncResult         *result,
                                                       GError              **error);

G_END_DECLS
