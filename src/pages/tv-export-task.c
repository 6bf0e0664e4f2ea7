/* tv-export-task.c: the export flow the pages share
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A profile's page and a comparison's each say what to build and offer
 * their own file types; the rest is the same: the save dialog, the build
 * on a worker, the atomic write, the progress bar with its Cancel button
 * once an export takes longer than EXPORT_PROGRESS_DELAY_MS, and the toast
 * that says how it went.
 *
 * The worker's cancellable is a TvProgress (tv-progress.h): the exporters'
 * call trees and their own stages report into it without a parameter
 * more, and the page reads its fraction from a timeout.
 */

#include <string.h>

#include <glib/gi18n.h>

#include "tv-atomic-write.h"
#include "tv-export-task.h"
#include "tv-progress.h"
#include "tv-text.h"

/* An export or a view that takes longer than this shows its progress; 0
 * at once.  $TV_PROGRESS_DELAY_MS sets another (the tests and screenshots
 * set 0). */
#define EXPORT_PROGRESS_DELAY_MS 200
/* How often the bar reads the worker's progress. */
#define EXPORT_PROGRESS_POLL_MS 100
/* The build's share of a watched export's progress; writing the bytes
 * takes the rest. */
#define EXPORT_BUILD_SHARE 0.95

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
  gboolean ok;

  tv_progress_push (cancellable, 0.0, EXPORT_BUILD_SHARE);
  ok = export->build (export->job, export->dest, &bytes, cancellable, &error);
  tv_progress_pop (cancellable);
  if (ok && bytes != NULL)
    {
      /* Cancelled once built: nothing is written. */
      tv_progress_push (cancellable, EXPORT_BUILD_SHARE, 1.0);
      ok = !g_cancellable_set_error_if_cancelled (cancellable, &error)
           && write_bytes (export->dest, bytes, cancellable, &error);
      tv_progress_pop (cancellable);
    }
  if (!ok)
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
  GCancellable      *cancellable;     /* the page's: cancels the export too */
  gulong             cancelled_id;
  AdwToastOverlay   *toasts;          /* a weak pointer: it goes with the page */
  GtkBox            *progress_area;   /* a weak pointer, likewise */
  GFile             *dest;
  TvProgress        *progress;        /* the export's own cancellable */
  GtkWidget         *progress_row;    /* in progress_area, while it runs */
  GtkProgressBar    *progress_bar;
  gint64             started;
  guint              poll_source;
} ExportDialog;

static void
remove_progress_row (ExportDialog *dialog)
{
  g_clear_handle_id (&dialog->poll_source, g_source_remove);
  if (dialog->progress_row != NULL && dialog->progress_area != NULL)
    gtk_box_remove (dialog->progress_area, dialog->progress_row);
  g_clear_object (&dialog->progress_row);
  dialog->progress_bar = NULL;
}

static void
export_dialog_free (ExportDialog *dialog)
{
  remove_progress_row (dialog);
  if (dialog->cancelled_id != 0)
    g_cancellable_disconnect (dialog->cancellable, dialog->cancelled_id);
  g_clear_weak_pointer (&dialog->toasts);
  g_clear_weak_pointer (&dialog->progress_area);
  g_clear_object (&dialog->cancellable);
  g_clear_object (&dialog->progress);
  g_clear_object (&dialog->dest);
  g_free (dialog);
}

guint
tv_progress_delay_ms (void)
{
  const char *text = g_getenv ("TV_PROGRESS_DELAY_MS");
  guint64 value;

  if (text != NULL && g_ascii_string_to_unsigned (text, 10, 0, G_MAXUINT, &value, NULL))
    return (guint) value;
  return EXPORT_PROGRESS_DELAY_MS;
}

/* Shows how far the worker is, once the export has taken long enough. */
static gboolean
poll_progress (gpointer user_data)
{
  ExportDialog *dialog = user_data;
  g_autofree char *display = NULL;
  g_autofree char *text = NULL;
  double fraction;

  if (dialog->progress_bar == NULL)
    return G_SOURCE_CONTINUE;
  if (!gtk_widget_get_visible (dialog->progress_row)
      && g_get_monotonic_time () - dialog->started < (gint64) tv_progress_delay_ms () * 1000)
    return G_SOURCE_CONTINUE;
  fraction = tv_progress_get_fraction (dialog->progress);
  display = tv_text_dup_file_name (dialog->dest);
  /* Translators: the bar of an export that takes long, e.g. "Exporting
   * “run.html”: 45 %". */
  text = g_strdup_printf (_("Exporting “%s”: %d %%"), display, (int) (fraction * 100.0));
  gtk_progress_bar_set_fraction (dialog->progress_bar, fraction);
  gtk_progress_bar_set_text (dialog->progress_bar, text);
  gtk_widget_set_visible (dialog->progress_row, TRUE);
  return G_SOURCE_CONTINUE;
}

static void
on_progress_cancel_clicked (GtkButton    *button,
                            ExportDialog *dialog)
{
  gtk_widget_set_sensitive (GTK_WIDGET (button), FALSE);
  g_cancellable_cancel (G_CANCELLABLE (dialog->progress));
}

/* The page's cancellable, on whatever thread cancels it. */
static void
on_page_cancelled (GCancellable *cancellable,
                   TvProgress   *progress)
{
  g_cancellable_cancel (G_CANCELLABLE (progress));
}

/* A bar and a Cancel button, as the page's own while it loads; hidden
 * until the export has taken EXPORT_PROGRESS_DELAY_MS. */
static void
add_progress_row (ExportDialog *dialog)
{
  GtkWidget *row;
  GtkWidget *bar;
  GtkWidget *cancel;

  dialog->started = g_get_monotonic_time ();
  if (dialog->progress_area == NULL)
    return;
  row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  gtk_widget_add_css_class (row, "export-progress");
  gtk_widget_set_margin_top (row, 12);
  gtk_widget_set_margin_bottom (row, 6);
  gtk_widget_set_margin_start (row, 12);
  gtk_widget_set_margin_end (row, 12);
  bar = gtk_progress_bar_new ();
  gtk_progress_bar_set_show_text (GTK_PROGRESS_BAR (bar), TRUE);
  gtk_progress_bar_set_ellipsize (GTK_PROGRESS_BAR (bar), PANGO_ELLIPSIZE_MIDDLE);
  gtk_widget_set_hexpand (bar, TRUE);
  gtk_widget_set_valign (bar, GTK_ALIGN_CENTER);
  gtk_box_append (GTK_BOX (row), bar);
  cancel = gtk_button_new_with_mnemonic (_("_Cancel"));
  gtk_widget_set_tooltip_text (cancel, _("Stop the export; nothing is written"));
  g_signal_connect (cancel, "clicked", G_CALLBACK (on_progress_cancel_clicked), dialog);
  gtk_box_append (GTK_BOX (row), cancel);
  gtk_widget_set_visible (row, FALSE);

  dialog->progress_row = g_object_ref_sink (row);
  dialog->progress_bar = GTK_PROGRESS_BAR (bar);
  gtk_box_append (dialog->progress_area, row);
  dialog->poll_source = g_timeout_add (EXPORT_PROGRESS_POLL_MS, poll_progress, dialog);
  if (tv_progress_delay_ms () == 0)
    poll_progress (dialog);
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
  /* A cancelled export is what its Cancel button asked for. */
  if (dialog->toasts != NULL && !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
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
  dialog->progress = tv_progress_new ();
  if (dialog->cancellable != NULL)
    dialog->cancelled_id = g_cancellable_connect (dialog->cancellable,
                                                  G_CALLBACK (on_page_cancelled),
                                                  dialog->progress, NULL);
  add_progress_row (dialog);
  dialog->start (page, dialog->dest, G_CANCELLABLE (dialog->progress), on_export_done, dialog);
}

void
tv_export_dialog_show (GtkWidget              *page,
                       AdwToastOverlay        *toasts,
                       GtkBox                 *progress_area,
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
  g_return_if_fail (progress_area == NULL || GTK_IS_BOX (progress_area));
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
  g_set_weak_pointer (&dialog->progress_area, progress_area);
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
