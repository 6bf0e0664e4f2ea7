/* main.c: entry point of tachyon-viewer
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The command-line modes (--info, --export, --help, --version) are handled
 * before GTK is touched, so they work without a display.  Everything else
 * starts the application (tv-application.c).
 */
#include <locale.h>

#include <adwaita.h>
#include <glib/gi18n.h>

#include "tv-application.h"
#include "tv-cli.h"

int
main (int   argc,
      char *argv[])
{
  g_autoptr(TvApplication) application = NULL;

  setlocale (LC_ALL, "");
#ifdef LOCALEDIR
  bindtextdomain (GETTEXT_PACKAGE, LOCALEDIR);
#endif
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  if (tv_cli_is_requested (argc, argv))
    return tv_cli_run (argc, argv);

  g_set_application_name (_("Tachyon Viewer"));
  application = tv_application_new ();

  return g_application_run (G_APPLICATION (application), argc, argv);
}
