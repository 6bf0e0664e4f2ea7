/* tv-viewer-l10n.c: tachyon-viewer's command line with its translations
 * read from a folder named at run time
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * `tv-viewer-l10n LOCALEDIR ARGS…` runs `tachyon-viewer ARGS…` as main()
 * does, but binds the text domain to LOCALEDIR rather than the installed
 * one, so that the tests can export in German from the build tree with a
 * catalogue they compile from po/de.po.
 */
#include <locale.h>

#include <glib/gi18n.h>

#include "tv-cli.h"

int
main (int   argc,
      char *argv[])
{
  if (argc < 2)
    {
      g_printerr ("usage: tv-viewer-l10n LOCALEDIR ARGS…\n");
      return 2;
    }

  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, argv[1]);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  /* ARGS, with LOCALEDIR taken out: argv[1] becomes the program name. */
  argv[1] = argv[0];
  return tv_cli_run (argc - 1, argv + 1);
}
