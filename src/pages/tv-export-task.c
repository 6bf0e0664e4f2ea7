/* tv-export-task.c: what the pages' exports share
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A profile's page and a comparison's build different bytes, on a worker,
 * and then do the same: write them atomically and tell the user.
 */

#include <string.h>

#include <glib/gi18n.h>

#include "tv-atomic-write.h"
#include "tv-export-task.h"
#include "tv-text.h"

void
tv_export_task_return (GTask        *task,
                       GBytes       *bytes,
                       GError       *error,
                       GFile        *dest,
                       GCancellable *cancellable)
{
  g_return_if_fail (G_IS_TASK (task));
  g_return_if_fail (G_IS_FILE (dest));
  g_return_if_fail ((bytes == NULL) != (error == NULL));

  /* A file with a path is written as the command line writes one, so that
   * a run killed meanwhile leaves a temporary a later export removes (GIO's
   * ".goutputstream-XXXXXX" would stay for good); GIO writes the others. */
  if (bytes != NULL && g_file_peek_path (dest) != NULL)
    tv_atomic_write_bytes (g_file_peek_path (dest), g_bytes_get_data (bytes, NULL),
                           g_bytes_get_size (bytes), &error);
  else if (bytes != NULL)
    g_file_replace_contents (dest, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes),
                             NULL, FALSE, G_FILE_CREATE_REPLACE_DESTINATION, NULL, cancellable,
                             &error);
  if (error != NULL)
    g_task_return_error (task, error);
  else
    g_task_return_boolean (task, TRUE);
}

void
tv_export_show_result (AdwToastOverlay *toasts,
                       GFile           *dest,
                       const GError    *error)
{
  g_autofree char *display = tv_text_dup_file_name (dest);
  g_autofree char *title = NULL;
  g_autofree char *escaped = NULL;
  AdwToast *toast;

  g_return_if_fail (ADW_IS_TOAST_OVERLAY (toasts));
  g_return_if_fail (G_IS_FILE (dest));

  if (error == NULL)
    title = g_strdup_printf (_("Exported to “%s”"), display);
  else
    title = g_strdup_printf (_("Could not export to “%s”: %s"), display, error->message);
  /* The toast's title is markup. */
  escaped = g_markup_escape_text (title, -1);
  toast = adw_toast_new (escaped);
  adw_toast_set_timeout (toast, error != NULL ? 0 : 5);
  adw_toast_overlay_add_toast (toasts, toast);
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
