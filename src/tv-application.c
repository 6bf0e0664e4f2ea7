/* tv-application.c: the application, one window with a tab per profile
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * `tachyon-viewer FILE…` opens every file in a tab of one window; a second
 * invocation sends its files to the running instance, which adds tabs to
 * its window.  Without files, the window shows the start page.
 */
#include "tv-application.h"
#include "tv-window.h"

struct _TvApplication
{
  AdwApplication parent_instance;
};

G_DEFINE_FINAL_TYPE (TvApplication, tv_application, ADW_TYPE_APPLICATION)

static TvWindow *
get_window (TvApplication *self)
{
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (self));

  if (TV_IS_WINDOW (window))
    return TV_WINDOW (window);

  return tv_window_new (GTK_APPLICATION (self));
}

static void
tv_application_activate (GApplication *application)
{
  gtk_window_present (GTK_WINDOW (get_window (TV_APPLICATION (application))));
}

static void
tv_application_open (GApplication  *application,
                     GFile        **files,
                     int            n_files,
                     const char    *hint)
{
  TvWindow *window = get_window (TV_APPLICATION (application));

  for (int i = 0; i < n_files; i++)
    tv_window_open_file (window, files[i]);
  gtk_window_present (GTK_WINDOW (window));
}

static void
tv_application_startup (GApplication *application)
{
  static const char * const open_accels[] = { "<Control>o", NULL };
  static const char * const close_accels[] = { "<Control>w", NULL };

  G_APPLICATION_CLASS (tv_application_parent_class)->startup (application);

  gtk_application_set_accels_for_action (GTK_APPLICATION (application), "win.open", open_accels);
  gtk_application_set_accels_for_action (GTK_APPLICATION (application), "win.close-tab",
                                         close_accels);
}

TvApplication *
tv_application_new (void)
{
  return g_object_new (TV_TYPE_APPLICATION,
                       "application-id", TV_APPLICATION_ID,
                       "flags", G_APPLICATION_HANDLES_OPEN,
                       NULL);
}

static void
tv_application_class_init (TvApplicationClass *klass)
{
  GApplicationClass *app_class = G_APPLICATION_CLASS (klass);

  app_class->activate = tv_application_activate;
  app_class->open = tv_application_open;
  app_class->startup = tv_application_startup;
}

static void
tv_application_init (TvApplication *self)
{
}
