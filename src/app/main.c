/* main.c: entry point of tachyon-viewer
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The command-line modes (--info, --export, --help, --version) are handled
 * before GTK is touched, so they work without a display.  Everything else
 * starts the application (tv-application.c), including `--compare BASE
 * NEW` without --info, which opens the comparison window.
 */
#include <locale.h>
#include <string.h>

#include <adwaita.h>
#include <glib/gi18n.h>

#include "tv-application.h"
#include "tv-cli.h"

/* Whether the arguments are `--compare BASE NEW` and nothing else (the
 * window); with --info, --json, --export or any other option, the command
 * line handles them (and reports what is wrong). */
static gboolean
is_window_compare (int          argc,
                   char       **argv,
                   const char **base,
                   const char **new_path)
{
  const char *files[2] = { NULL, NULL };
  gboolean compare = FALSE, options_done = FALSE;
  guint n_files = 0;

  for (int i = 1; i < argc; i++)
    {
      if (!options_done && strcmp (argv[i], "--") == 0)
        options_done = TRUE;
      else if (!options_done && strcmp (argv[i], "--compare") == 0)
        compare = TRUE;
      else if (!options_done && argv[i][0] == '-' && argv[i][1] != '\0')
        return FALSE;
      else if (n_files++ < 2)
        files[n_files - 1] = argv[i];
    }
  if (!compare || n_files != 2)
    return FALSE;
  *base = files[0];
  *new_path = files[1];
  return TRUE;
}

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
  const char *base = NULL;
  const char *new_path = NULL;

  g_autoptr(TvApplication) application = NULL;

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

  if (!is_window_compare (argc, argv, &base, &new_path) && tv_cli_is_requested (argc, argv))
    return tv_cli_run (argc, argv);

  g_set_application_name (_("Tachyon Viewer"));
  application = tv_application_new ();
  if (base != NULL)
    {
      g_autoptr(GError) error = NULL;

      if (!tv_application_compare (application, base, new_path, &error))
        {
          g_printerr ("tachyon-viewer: %s\n", error->message);
          return 1;
        }
      /* A second instance is done once it has asked the first. */
      if (g_application_get_is_remote (G_APPLICATION (application)))
        return 0;
      argc = 1;
    }

  return g_application_run (G_APPLICATION (application), argc, argv);
}
