/* tv-atomic-write.h: write a file so that it is never seen half-written
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <stdio.h>

#include <gio/gio.h>

G_BEGIN_DECLS

/* Writes everything to FILE; returns FALSE with ERROR set on failure.
 * Need not flush. */
typedef gboolean (*TvAtomicWriteFunc) (FILE      *file,
                                       gpointer   user_data,
                                       GError   **error);

gboolean tv_atomic_write       (const char         *out_path,
                                TvAtomicWriteFunc   write_func,
                                gpointer            user_data,
                                GError            **error);
gboolean tv_atomic_write_bytes (const char         *out_path,
                                const char         *data,
                                gsize               len,
                                GError            **error);
/* How the names of the temporary files for OUT_PATH start, in its folder
 * (".OUT.tachyon-tmp-HOST-"; this process's ID, '-' and six letters and
 * digits follow): see tv-atomic-write.c for what a later run removes. */
char    *tv_atomic_write_dup_temp_prefix (const char *out_path);

G_END_DECLS
