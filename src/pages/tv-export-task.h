/* tv-export-task.h: what the pages' exports share
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

/* On TASK's worker: writes BYTES to DEST (GIO writes a temporary file and
 * renames it: never a partial file) and returns the task's boolean, or
 * returns ERROR (taken) when BYTES is NULL or the write fails. */
void tv_export_task_return (GTask        *task,
                            GBytes       *bytes,
                            GError       *error,
                            GFile        *dest,
                            GCancellable *cancellable);
/* FILE's name without its extension ("run.bin" gives "run"), to name an
 * export after; FALLBACK when it has none. */
char  *tv_export_dup_stem              (GFile                *file,
                                        const char           *fallback);
/* Opens an export's save dialog in the folder of FILE (the profile). */
void   tv_export_chooser_start_next_to (GtkFileChooserNative *chooser,
                                        GFile                *file);
/* The file an export's save dialog chose, or NULL when it was cancelled,
 * with the extension of the chosen filter (its "extension" data, such as
 * ".html") added unless the name has it, in place of another filter's
 * extension if the name ends with one.  Destroys CHOOSER and drops the
 * reference its creator kept. */
GFile *tv_export_chooser_finish (GtkNativeDialog *chooser,
                                 int              response);
/* Says in a toast on TOASTS where an export went, or why it failed (the
 * failure's toast stays until dismissed). */
void tv_export_show_result (AdwToastOverlay *toasts,
                            GFile           *dest,
                            const GError    *error);

G_END_DECLS
