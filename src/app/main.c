/* main.c: entry point of tachyon-viewer
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Everything goes through the application's command line
 * (GApplication's options, src/cli/tv-cli.c): the modes that need no
 * window (--info, --export, --help, --version) run before GTK is
 * initialised, so they work without a display; the files, --demo and
 * `--compare BASE NEW` open the window (tv-application.c).
 */
#include <locale.h>
#include <string.h>

#include <adwaita.h>
#include <glib/gi18n.h>

#include "tv-application.h"
#include "tv-huge-pages.h"

/* With no locale set (LANG and LC_* unset, as in containers, over ssh or
 * under cron), the C locale's character set is ASCII, and GLib prints "?"
 * for every "…" and "’" of --help and of the messages.  As Python does
 * (PEP 538), take the UTF-8 form of the C locale for the characters: the
 * words stay the C locale's, and terminals today show UTF-8.  A locale
 * the user did choose is left as it is. */
static void
use_utf8_for_the_c_locale (void)
{
  const char *ctype = setlocale (LC_CTYPE, NULL);

  if (ctype != NULL && (strcmp (ctype, "C") == 0 || strcmp (ctype, "POSIX") == 0))
    setlocale (LC_CTYPE, "C.UTF-8");
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(TvApplication) application = NULL;

  /* Before any thread allocates. */
  tv_huge_setup_heap ();
  setlocale (LC_ALL, "");
  use_utf8_for_the_c_locale ();
  /* GTK would set the locale again, from the environment, undoing the
   * above: it is set already. */
  gtk_disable_setlocale ();
#ifdef LOCALEDIR
  bindtextdomain (GETTEXT_PACKAGE, LOCALEDIR);
#endif
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  g_set_application_name (_("Tachyon Viewer"));
  application = tv_application_new ();
  return g_application_run (G_APPLICATION (application), argc, argv);
}
