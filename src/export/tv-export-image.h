/* tv-export-image.h: a flame graph as an SVG, PNG or PDF file
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The image is drawn by the renderer the flame graph widget uses
 * (tv-flame-renderer.h), with every row laid out, under a title that says
 * what is shown and above a caption with the profile's header facts and
 * statistics.  The view state says what is shown (samples, transforms, merge
 * key, orientation, zoom, search); the options how it is drawn (colours,
 * theme, width), so that "export what you see" and the command line make
 * the same picture.
 */
#pragma once

#include <gio/gio.h>

#include "tv-export.h"
#include "tv-flame-layout.h"
#include "tv-flame-renderer.h"
#include "tv-profile-data.h"

G_BEGIN_DECLS

typedef enum
{
  TV_EXPORT_IMAGE_SVG,
  TV_EXPORT_IMAGE_PNG,
  TV_EXPORT_IMAGE_PDF,
} TvExportImageFormat;

/* Widths in pixels an image may have (a PDF takes a pixel for 0.75 pt). */
#define TV_EXPORT_IMAGE_DEFAULT_WIDTH 1200
#define TV_EXPORT_IMAGE_MIN_WIDTH     320
#define TV_EXPORT_IMAGE_MAX_WIDTH     8192
/* An image is at most this tall, and holds at most this many pixels:
 * the deepest rows of a taller flame graph are left out, and the caption
 * says so. */
#define TV_EXPORT_IMAGE_MAX_HEIGHT    16384
#define TV_EXPORT_IMAGE_MAX_PIXELS    (32 * 1024 * 1024)

typedef struct
{
  TvFlameColorScheme  colors;
  gboolean            dark;
  guint               width;          /* pixels */
} TvExportImageOptions;

void        tv_export_image_options_init   (TvExportImageOptions        *options);
/* Checks the width, which needs no profile. */
gboolean    tv_export_image_options_check  (const TvExportImageOptions  *options,
                                            GError                     **error);

/* "svg", "png" or "pdf"; FALSE for anything else. */
gboolean    tv_export_image_format_from_string (const char           *name,
                                                TvExportImageFormat  *format);

GBytes     *tv_export_image_build          (TvProfileData               *data,
                                            TvViewState                 *state,
                                            TvExportImageFormat          format,
                                            const TvExportImageOptions  *options,
                                            const char                  *source_name,
                                            GCancellable                *cancellable,
                                            GError                     **error);

G_END_DECLS
