/* tv-export-task.h: the export flow the pages share
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

/* Builds an export of JOB on a worker: either the bytes to write to DEST
 * (in *BYTES), or DEST itself (leaving *BYTES NULL), as the exports that
 * stream into their file do. */
typedef gboolean (*TvExportBuildFunc) (gpointer       job,
                                       GFile         *dest,
                                       GBytes       **bytes,
                                       GCancellable  *cancellable,
                                       GError       **error);

/* Runs BUILD for JOB on a worker and writes the bytes it made to DEST (a
 * temporary file renamed: never a partial file), as a GTask of
 * SOURCE_OBJECT with SOURCE_TAG; JOB_FREE frees JOB once it is done. */
void     tv_export_task_run    (gpointer              source_object,
                                gpointer              source_tag,
                                GFile                *dest,
                                gpointer              job,
                                GDestroyNotify        job_free,
                                TvExportBuildFunc     build,
                                GCancellable         *cancellable,
                                GAsyncReadyCallback   callback,
                                gpointer              user_data);
gboolean tv_export_task_finish (gpointer              source_object,
                                GAsyncResult         *result,
                                GError              **error);

/* A file type an export's save dialog offers. */
typedef struct
{
  const char *name;        /* marked with N_(), translated when shown */
  const char *mime_type;   /* NULL: by the extension alone */
  const char *extension;   /* ".html" */
} TvExportFileType;

/* A page's export to DEST: its _export_async(). */
typedef void (*TvExportStartFunc) (gpointer             page,
                                   GFile               *dest,
                                   GCancellable        *cancellable,
                                   GAsyncReadyCallback  callback,
                                   gpointer             user_data);

/* Asks in a modal save dialog, over PAGE's window, where to export: TITLE,
 * a filter for each of the N_TYPES TYPES (the first chosen), the folder
 * of NEXT_TO, SUGGESTED_NAME.  Then START exports to the file chosen
 * (with the extension of the filter chosen, see tv_export_chooser_finish())
 * and a toast on TOASTS says where it went, or why it failed.  Nothing
 * happens when the dialog is cancelled, or PAGE is gone meanwhile.  An
 * export that takes longer than 200 ms ($TV_PROGRESS_DELAY_MS) shows a
 * progress bar with a Cancel button (CSS class "export-progress") at the
 * end of PROGRESS_AREA, until it is done; START's cancellable is then a
 * TvProgress, which CANCELLABLE cancels too. */
void   tv_export_dialog_show           (GtkWidget              *page,
                                        AdwToastOverlay        *toasts,
                                        GtkBox                 *progress_area,
                                        const char             *title,
                                        const TvExportFileType *types,
                                        guint                   n_types,
                                        GFile                  *next_to,
                                        const char             *suggested_name,
                                        TvExportStartFunc       start,
                                        GCancellable           *cancellable);

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

/* How long an export or a view may take before it shows its progress
 * and a Cancel button, in ms: 200, or $TV_PROGRESS_DELAY_MS. */
guint tv_progress_delay_ms (void);

G_END_DECLS
