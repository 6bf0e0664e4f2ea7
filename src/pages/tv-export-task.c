/* tv-export-task.c: the export flow the pages share
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A profile's page and a comparison's each say what to build and offer
 * their own file types; the rest is the same: the save dialog, the build
 * on a worker, the atomic write, and the toast that says how it went.
 */

#include <string.h>

#include <glib/gi18n.h>

#include "tv-atomic-write.h"
#include "tv-export-task.h"
#include "tv-text.h"

/* ------------------------------------------------------------------------ */
/* On a worker                                                               */
/* ------------------------------------------------------------------------ */

typedef struct
{
  gpointer          job;
  GDestroyNotify    job_free;
  TvExportBuildFunc build;
  GFile            *dest;
} ExportTask;

static void
export_task_free (ExportTask *task)
{
  if (task->job_free != NULL)
    task->job_free (task->job);
  g_object_unref (task->dest);
  g_free (task);
}

/* Writes BYTES to DEST, atomically. */
static gboolean
write_bytes (GFile         *dest,
             GBytes        *bytes,
             GCancellable  *cancellable,
             GError       **error)
{
  /* A file with a path is written as the command line writes one, so that
   * a run killed meanwhile leaves a temporary a later export removes (GIO's
   * ".goutputstream-XXXXXX" would stay for good); GIO writes the others. */
  if (g_file_peek_path (dest) != NULL)
    return tv_atomic_write_bytes (g_file_peek_path (dest), g_bytes_get_data (bytes, NULL),
                                  g_bytes_get_size (bytes), error);
  return g_file_replace_contents (dest, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes),
                                  NULL, FALSE, G_FILE_CREATE_REPLACE_DESTINATION, NULL,
                                  cancellable, error);
}

static void
export_thread (GTask        *task,
               gpointer      source_object,
               gpointer      task_data,
               GCancellable *cancellable)
{
  ExportTask *export = task_data;
  g_autoptr(GBytes) bytes = NULL;
  GError *error = NULL;

  if (!export->build (export->job, export->dest, &bytes, cancellable, &error)
      || (bytes != NULL && !write_bytes (export->dest, bytes, cancellable, &error)))
    g_task_return_error (task, error);
  else
    g_task_return_boolean (task, TRUE);
}

void
tv_export_task_run (gpointer             source_object,
                    gpointer             source_tag,
                    GFile               *dest,
                    gpointer             job,
                    GDestroyNotify       job_free,
                    TvExportBuildFunc    build,
                    GCancellable        *cancellable,
                    GAsyncReadyCallback  callback,
                    gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  ExportTask *export;

  g_return_if_fail (G_IS_OBJECT (source_object));
  g_return_if_fail (G_IS_FILE (dest));
  g_return_if_fail (build != NULL);

  export = g_new0 (ExportTask, 1);
  export->job = job;
  export->job_free = job_free;
  export->build = build;
  export->dest = g_object_ref (dest);
  task = g_task_new (source_object, cancellable, callback, user_data);
  g_task_set_source_tag (task, source_tag);
  g_task_set_task_data (task, export, (GDestroyNotify) export_task_free);
  g_task_run_in_thread (task, export_thread);
}

gboolean
tv_export_task_finish (gpointer       source_object,
                       GAsyncResult  *result,
                       GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, source_object), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/* ------------------------------------------------------------------------ */
/* The dialog and the toast                                                  */
/* ------------------------------------------------------------------------ */

/* An export from its dialog to its toast. */
typedef struct
{
  TvExportStartFunc  start;
  GCancellable      *cancellable;
  AdwToastOverlay   *toasts;          /* a weak pointer: it goes with the page */
  GFile             *dest;
} ExportDialog;

static void
export_dialog_free (ExportDialog *dialog)
{
  g_clear_weak_pointer (&dialog->toasts);
  g_clear_object (&dialog->cancellable);
  g_clear_object (&dialog->dest);
  g_free (dialog);
}

/* The toast's Open: the exported file in the application the desktop
 * opens its type with. */
static void
on_open_exported (AdwToast *toast,
                  GtkWidget *toasts)
{
  GFile *dest = g_object_get_data (G_OBJECT (toast), "tv-exported-file");
  GtkRoot *root = gtk_widget_get_root (toasts);
  g_autofree char *uri = g_file_get_uri (dest);

  gtk_show_uri (GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL, uri, GDK_CURRENT_TIME);
}

/* Says in a toast on TOASTS where an export went, with a button that opens
 * it, or why it failed (the failure's toast stays until dismissed). */
static void
show_result (AdwToastOverlay *toasts,
             GFile           *dest,
             const GError    *error)
{
  g_autofree char *display = tv_text_dup_file_name (dest);
  g_autofree char *title = NULL;
  g_autofree char *escaped = NULL;
  AdwToast *toast;

  if (error == NULL)
    title = g_strdup_printf (_("Exported to “%s”"), display);
  else
    title = g_strdup_printf (_("Could not export to “%s”: %s"), display, error->message);
  /* The toast's title is markup. */
  escaped = g_markup_escape_text (title, -1);
  toast = adw_toast_new (escaped);
  adw_toast_set_timeout (toast, error != NULL ? 0 : 5);
  if (error == NULL)
    {
      adw_toast_set_button_label (toast, _("_Open"));
      g_object_set_data_full (G_OBJECT (toast), "tv-exported-file", g_object_ref (dest),
                              g_object_unref);
      g_signal_connect_object (toast, "button-clicked", G_CALLBACK (on_open_exported), toasts,
                               0);
    }
  adw_toast_overlay_add_toast (toasts, toast);
}

static void
on_export_done (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  ExportDialog *dialog = user_data;
  g_autoptr(GError) error = NULL;

  tv_export_task_finish (object, result, &error);
  if (dialog->toasts != NULL)
    show_result (dialog->toasts, dialog->dest, error);
  export_dialog_free (dialog);
}

static void
on_response (GtkNativeDialog *chooser,
             int              response,
             GtkWidget       *page)
{
  ExportDialog *dialog = g_object_steal_data (G_OBJECT (chooser), "tv-export-dialog");

  dialog->dest = tv_export_chooser_finish (chooser, response);
  if (dialog->dest == NULL)
    {
      export_dialog_free (dialog);
      return;
    }
  dialog->start (page, dialog->dest, dialog->cancellable, on_export_done, dialog);
}

void
tv_export_dialog_show (GtkWidget              *page,
                       AdwToastOverlay        *toasts,
                       const char             *title,
                       const TvExportFileType *types,
                       guint                   n_types,
                       GFile                  *next_to,
                       const char             *suggested_name,
                       TvExportStartFunc       start,
                       GCancellable           *cancellable)
{
  GtkFileChooserNative *chooser;
  ExportDialog *dialog;

  g_return_if_fail (GTK_IS_WIDGET (page));
  g_return_if_fail (ADW_IS_TOAST_OVERLAY (toasts));
  g_return_if_fail (types != NULL && n_types > 0);
  g_return_if_fail (start != NULL);

  chooser = gtk_file_chooser_native_new (title, GTK_WINDOW (gtk_widget_get_root (page)),
                                         GTK_FILE_CHOOSER_ACTION_SAVE,
                                         _("_Export"), _("_Cancel"));
  for (guint i = 0; i < n_types; i++)
    {
      g_autoptr(GtkFileFilter) filter = gtk_file_filter_new ();
      g_autofree char *pattern = g_strconcat ("*", types[i].extension, NULL);

      gtk_file_filter_set_name (filter, _(types[i].name));
      if (types[i].mime_type != NULL)
        gtk_file_filter_add_mime_type (filter, types[i].mime_type);
      gtk_file_filter_add_pattern (filter, pattern);
      g_object_set_data (G_OBJECT (filter), "extension", (gpointer) types[i].extension);
      gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (chooser), filter);
    }
  tv_export_chooser_start_next_to (chooser, next_to);
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (chooser), suggested_name);

  dialog = g_new0 (ExportDialog, 1);
  dialog->start = start;
  dialog->cancellable = cancellable != NULL ? g_object_ref (cancellable) : NULL;
  g_set_weak_pointer (&dialog->toasts, toasts);
  g_object_set_data_full (G_OBJECT (chooser), "tv-export-dialog", dialog,
                          (GDestroyNotify) export_dialog_free);
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  /* Gone with the page: a page closed meanwhile exports nothing. */
  g_signal_connect_object (chooser, "response", G_CALLBACK (on_response), page, 0);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

char *
tv_export_dup_stem (GFile      *file,
                    const char *fallback)
{
  char *name = file != NULL ? g_file_get_basename (file) : NULL;
  char *dot;

  if (name == NULL)
    return g_strdup (fallback);
  if ((dot = strrchr (name, '.')) != NULL && dot != name)
    *dot = '\0';
  return name;
}

void
tv_export_chooser_start_next_to (GtkFileChooserNative *chooser,
                                 GFile                *file)
{
  g_autoptr(GFile) folder = file != NULL ? g_file_get_parent (file) : NULL;

  g_return_if_fail (GTK_IS_FILE_CHOOSER (chooser));

  /* Without it the dialog starts in the working directory, the home
   * folder for an app started from the desktop. */
  if (folder != NULL && g_file_is_native (folder))
    gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (chooser), folder, NULL);
}

/* The length of the extension of another of CHOOSER's filters that NAME
 * ends with, or 0: "run.html" saved as PNG is "run.png", not
 * "run.html.png". */
static gsize
other_extension (GtkFileChooser *chooser,
                 const char     *name,
                 const char     *extension)
{
  g_autoptr(GListModel) filters = gtk_file_chooser_get_filters (chooser);

  for (guint i = 0; i < g_list_model_get_n_items (filters); i++)
    {
      g_autoptr(GtkFileFilter) filter = g_list_model_get_item (filters, i);
      const char *other = g_object_get_data (G_OBJECT (filter), "extension");

      if (other != NULL && strcmp (other, extension) != 0 && g_str_has_suffix (name, other)
          && strlen (name) > strlen (other))
        return strlen (other);
    }
  return 0;
}

GFile *
tv_export_chooser_finish (GtkNativeDialog *chooser,
                          int              response)
{
  g_autoptr(GFile) dest = NULL;

  g_return_val_if_fail (GTK_IS_FILE_CHOOSER (chooser), NULL);

  if (response == GTK_RESPONSE_ACCEPT)
    dest = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));
  if (dest != NULL)
    {
      GtkFileFilter *filter = gtk_file_chooser_get_filter (GTK_FILE_CHOOSER (chooser));
      const char *extension = filter != NULL ? g_object_get_data (G_OBJECT (filter), "extension")
                                             : NULL;
      g_autofree char *name = g_file_get_basename (dest);
      g_autoptr(GFile) parent = g_file_get_parent (dest);

      if (extension != NULL && name != NULL && parent != NULL
          && !g_str_has_suffix (name, extension))
        {
          g_autofree char *with = NULL;

          name[strlen (name) - other_extension (GTK_FILE_CHOOSER (chooser), name, extension)]
            = '\0';
          with = g_strconcat (name, extension, NULL);

          g_object_unref (dest);
          dest = g_file_get_child (parent, with);
        }
    }
  gtk_native_dialog_destroy (chooser);
  g_object_unref (chooser);
  return g_steal_pointer (&dest);
}
