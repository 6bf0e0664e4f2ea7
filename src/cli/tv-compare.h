/* tv-compare.h: two profiles compared, as text or JSON
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "tv-diff.h"

G_BEGIN_DECLS

/* The comparability warnings, then the functions whose total or self
 * changed significantly, by the size of the change.  MAX_ROWS 0 lists
 * them all. */
char *tv_compare_to_text (TvDiff     *diff,
                          const char *base_name,
                          const char *new_name,
                          guint       max_rows);
/* The same as one JSON object, every function included; see README.md. */
char *tv_compare_to_json (TvDiff     *diff,
                          const char *base_name,
                          const char *new_name);

G_END_DECLS
