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
/* Says in a toast on TOASTS where an export went, or why it failed (the
 * failure's toast stays until dismissed). */
void tv_export_show_result (AdwToastOverlay *toasts,
                            GFile           *dest,
                            const GError    *error);

G_END_DECLS
