/* tv-collapsed.h: the collapsed-stack export of a profile
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <stdio.h>

#include <gio/gio.h>

#include "tv-call-tree.h"

G_BEGIN_DECLS

/* The counted and sorted stacks of one profile, ready to be written. */
typedef struct _TvCollapsed TvCollapsed;

TvCollapsed *tv_collapsed_new_for_path  (const char         *path,
                                         GCancellable       *cancellable,
                                         GError            **error);
TvCollapsed *tv_collapsed_new_for_query (TvProfileData      *data,
                                         const TvQuery      *query,
                                         GCancellable       *cancellable,
                                         GError            **error);
void         tv_collapsed_free          (TvCollapsed        *self);
gsize        tv_collapsed_get_n_lines   (const TvCollapsed  *self);
gboolean     tv_collapsed_write         (const TvCollapsed  *self,
                                         FILE               *file,
                                         GError            **error);
gboolean     tv_collapsed_save          (const TvCollapsed  *self,
                                         const char         *out_path,
                                         GError            **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TvCollapsed, tv_collapsed_free)

G_END_DECLS
