/* tv-metadata-reader.h: the format library's metadata in the model's types
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * For the layers that read the format library (the model, src/cli/).
 */
#pragma once

#include "tachyon-format.h"
#include "tv-metadata.h"

G_BEGIN_DECLS

/* READER's header, footer, statistics and file stamp; any pointer may be
 * NULL. */
void tv_metadata_from_reader (const TachReader *reader,
                              TvProfileHeader  *header,
                              TvProfileFooter  *footer,
                              TvProfileStats   *stats,
                              gboolean         *has_stamp,
                              TvFileStamp      *stamp);

G_END_DECLS
