/* tv-cli.h: the command-line modes of tachyon-viewer
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

gboolean tv_cli_is_requested (int    argc,
                              char **argv);
int      tv_cli_run          (int    argc,
                              char **argv);

G_END_DECLS
