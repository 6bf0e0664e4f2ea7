/* tv-cli.h: the command line of tachyon-viewer
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

void tv_cli_add_options          (GApplication  *application);
int  tv_cli_handle_local_options (GVariantDict  *options);
int  tv_cli_run                  (int            argc,
                                  char         **argv);

G_END_DECLS
