/* main.c: entry point of tachyon-viewer
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The command-line modes (--info, --export, --help, --version) are handled
 * before GTK is touched, so they work without a display.  Everything else
 * starts the application.  The window below is a placeholder until the real
 * one exists: it shows the --info text of every opened file.
 */
#include <locale.h>

#include <adwaita.h>
#include <glib/gi18n.h>

#include "tv-cli.h"
#include "tv-info.h"

#define APPLICATION_ID "io.github.tachyonviewer.TachyonViewer"

static GtkWidget *
create_file_label (GFile *file)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TvInfo) info = NULL;
  g_autofree char *path = g_file_get_path (file);
  g_autofree char *text = NULL;
  GtkWidget *label;

  if (path == NULL)
    {
      g_autofree char *uri = g_file_get_uri (file);

      text = g_strdup_printf (_("%s: only local files can be opened"), uri);
    }
  else if ((info = tv_info_new_for_path (path, NULL, &error)) == NULL)
    {
      g_autofree char *display = g_filename_display_name (path);

      text = g_strdup_printf ("%s: %s", display, error->message);
    }
  else
    {
      text = tv_info_to_text (info);
    }

  label = gtk_label_new (text);
  gtk_label_set_selectable (GTK_LABEL (label), TRUE);
  gtk_label_set_xalign (GTK_LABEL (label), 0.0f);
  gtk_widget_add_css_class (label, "monospace");

  return label;
}

static GtkWindow *
create_window (GtkApplication  *application,
               GFile          **files,
               int              n_files)
{
  GtkWidget *window;
  GtkWidget *box;
  GtkWidget *status_page;

  window = adw_application_window_new (application);
  gtk_window_set_title (GTK_WINDOW (window), _("Tachyon Viewer"));
  gtk_window_set_default_size (GTK_WINDOW (window), 900, 650);

  box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  gtk_box_append (GTK_BOX (box), adw_header_bar_new ());

  status_page = adw_status_page_new ();
  adw_status_page_set_title (ADW_STATUS_PAGE (status_page), _("Tachyon Viewer"));
  gtk_widget_set_vexpand (status_page, TRUE);
  gtk_box_append (GTK_BOX (box), status_page);

  if (n_files == 0)
    {
      adw_status_page_set_description (ADW_STATUS_PAGE (status_page),
                                       _("Open a Tachyon profile (.tach) to see its summary"));
    }
  else
    {
      GtkWidget *files_box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 24);

      for (int i = 0; i < n_files; i++)
        gtk_box_append (GTK_BOX (files_box), create_file_label (files[i]));
      adw_status_page_set_child (ADW_STATUS_PAGE (status_page), files_box);
      g_object_set_data (G_OBJECT (window), "files-box", files_box);
    }

  adw_application_window_set_content (ADW_APPLICATION_WINDOW (window), box);

  return GTK_WINDOW (window);
}

static void
on_activate (GApplication *application,
             gpointer      user_data)
{
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (application));

  if (window == NULL)
    window = create_window (GTK_APPLICATION (application), NULL, 0);
  gtk_window_present (window);
}

static void
on_open (GApplication  *application,
         GFile        **files,
         int            n_files,
         const char    *hint,
         gpointer       user_data)
{
  GtkWindow *window = create_window (GTK_APPLICATION (application), files, n_files);
  GtkWidget *files_box = g_object_get_data (G_OBJECT (window), "files-box");

  gtk_window_present (window);

  /* A selectable label that gets the initial focus selects all its text;
   * start with nothing selected. */
  for (GtkWidget *child = gtk_widget_get_first_child (files_box);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    gtk_label_select_region (GTK_LABEL (child), 0, 0);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(AdwApplication) application = NULL;

  setlocale (LC_ALL, "");
#ifdef LOCALEDIR
  bindtextdomain (GETTEXT_PACKAGE, LOCALEDIR);
#endif
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  if (tv_cli_is_requested (argc, argv))
    return tv_cli_run (argc, argv);

  g_set_application_name (_("Tachyon Viewer"));
  application = adw_application_new (APPLICATION_ID, G_APPLICATION_HANDLES_OPEN);
  g_signal_connect (application, "activate", G_CALLBACK (on_activate), NULL);
  g_signal_connect (application, "open", G_CALLBACK (on_open), NULL);

  return g_application_run (G_APPLICATION (application), argc, argv);
}
