/* tv-info.h: what `tachyon-viewer --info` says about a profile
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* A summary of one profile: its header, footer, statistics and warnings,
 * and the totals of a full decode of its samples.  It owns copies of
 * everything, so the file is closed once the summary exists. */
typedef struct _TvInfo TvInfo;

TvInfo     *tv_info_new_for_path (const char    *path,
                                  GCancellable  *cancellable,
                                  GError       **error);
void        tv_info_free         (TvInfo        *info);
char       *tv_info_to_text      (const TvInfo  *info);
char       *tv_info_to_json      (const TvInfo  *info);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TvInfo, tv_info_free)

G_END_DECLS
