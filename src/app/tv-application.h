/* tv-application.h: the application, one window with a tab per profile
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define TV_APPLICATION_ID "io.github.tachyonviewer.TachyonViewer"
/* The MIME type data/ defines for Tachyon profiles. */
#define TV_PROFILE_MIME_TYPE "application/x-tachyon-profile"

#define TV_TYPE_APPLICATION (tv_application_get_type ())

G_DECLARE_FINAL_TYPE (TvApplication, tv_application, TV, APPLICATION, AdwApplication)

TvApplication *tv_application_new          (void);
/* The application's settings, or NULL when its schema is not installed
 * (the program run from its build directory): then nothing is kept. */
GSettings     *tv_application_new_settings (void);
/* `tachyon-viewer --compare BASE NEW`: registers the application and opens
 * the comparison, in this process or (if remote) in the one running. */
gboolean       tv_application_compare      (TvApplication  *self,
                                            const char     *base_path,
                                            const char     *new_path,
                                            GError        **error);

G_END_DECLS
