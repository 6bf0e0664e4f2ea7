/* tv-cli.c: the command-line modes of tachyon-viewer
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * `--info [--json] FILE` and `--export FORMAT -o OUT FILE` run without GTK
 * and without a display.  Every output is built in memory first and only
 * written once nothing can fail any more, so that a file that turns out to
 * be broken halfway through its samples leaves stdout (or OUT) untouched.
 */
#include "tv-cli.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <glib/gi18n.h>

#include "tv-collapsed.h"
#include "tv-info.h"

/* Fixed rather than argv[0], so that messages look the same however the
 * program was started. */
#define PROGRAM_NAME "tachyon-viewer"

#ifndef PACKAGE_VERSION
# define PACKAGE_VERSION "unknown"
#endif

enum
{
  EXIT_OK = 0,
  EXIT_FAILED = 1,
};

/* Export formats that are planned but not written yet. */
static const char * const future_formats[] = { "html", "svg", "png", "pdf" };

/**
 * tv_cli_is_requested:
 * @argc: the argument count of main()
 * @argv: the arguments of main()
 *
 * Whether the arguments ask for a command-line mode rather than the
 * window.  Only options are looked at, up to a `--`.
 *
 * Returns: %TRUE if tv_cli_run() should handle the arguments
 */
gboolean
tv_cli_is_requested (int    argc,
                     char **argv)
{
  static const char * const exact[] = {
    "--info", "--json", "--export", "--output", "-o", "--version",
    "-h", "-?", "--help", "--help-all",
  };
  static const char * const with_value[] = { "--export=", "--output=" };

  for (int i = 1; i < argc; i++)
    {
      const char *arg = argv[i];

      if (strcmp (arg, "--") == 0)
        break;

      for (gsize j = 0; j < G_N_ELEMENTS (exact); j++)
        {
          if (strcmp (arg, exact[j]) == 0)
            return TRUE;
        }
      for (gsize j = 0; j < G_N_ELEMENTS (with_value); j++)
        {
          if (g_str_has_prefix (arg, with_value[j]))
            return TRUE;
        }
      /* "-oOUT" */
      if (g_str_has_prefix (arg, "-o"))
        return TRUE;
    }

  return FALSE;
}

G_GNUC_PRINTF (1, 2)
static int
fail (const char *format,
      ...)
{
  g_autofree char *message = NULL;
  va_list args;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);

  fprintf (stderr, "%s: %s\n", PROGRAM_NAME, message);
  return EXIT_FAILED;
}

/* Paths are bytes on Linux; show them in the locale's terms without ever
 * failing. */
static char *
display_path (const char *path)
{
  return g_filename_display_name (path);
}

static int
fail_with_path (const char *path,
                const char *message)
{
  g_autofree char *display = display_path (path);

  return fail ("%s: %s", display, message);
}

static int
write_stdout (const char *data,
              gsize       len)
{
  if ((len > 0 && fwrite (data, 1, len, stdout) != len) || fflush (stdout) != 0)
    {
      int saved_errno = errno;

      return fail (_("Could not write to standard output: %s"), g_strerror (saved_errno));
    }

  return EXIT_OK;
}

static int
run_info (const char *path,
          gboolean    json)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TvInfo) info = NULL;
  g_autofree char *text = NULL;

  info = tv_info_new_for_path (path, NULL, &error);
  if (info == NULL)
    return fail_with_path (path, error->message);

  text = json ? tv_info_to_json (info) : tv_info_to_text (info);
  return write_stdout (text, strlen (text));
}

static int
run_export (const char *path,
            const char *format,
            const char *output)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TvCollapsed) collapsed = NULL;

  for (gsize i = 0; i < G_N_ELEMENTS (future_formats); i++)
    {
      if (strcmp (format, future_formats[i]) == 0)
        return fail (_("Export format “%s” is not supported yet (supported: collapsed)"),
                     format);
    }

  if (strcmp (format, "collapsed") != 0)
    return fail (_("Unknown export format “%s” (expected one of: collapsed, html, svg, png, pdf)"),
                 format);

  if (output == NULL)
    return fail (_("--export needs an output file: -o OUT"));
  if (output[0] == '\0')
    return fail (_("The output file name is empty"));

  /* Checked before the decode, which can take a while. */
  if (strcmp (output, "-") != 0 && g_file_test (output, G_FILE_TEST_IS_DIR))
    return fail_with_path (output, _("This is a folder; the output must be a file"));

  collapsed = tv_collapsed_new_for_path (path, NULL, &error);
  if (collapsed == NULL)
    return fail_with_path (path, error->message);

  if (strcmp (output, "-") == 0)
    {
      setvbuf (stdout, NULL, _IOFBF, 1 << 20);
      if (!tv_collapsed_write (collapsed, stdout, &error))
        return fail ("%s: %s", _("standard output"), error->message);
      return EXIT_OK;
    }

  if (!tv_collapsed_save (collapsed, output, &error))
    return fail_with_path (output, error->message);

  return EXIT_OK;
}

/**
 * tv_cli_run:
 * @argc: the argument count of main()
 * @argv: the arguments of main()
 *
 * Parses the arguments and runs the requested mode.  Never initialises
 * GTK.
 *
 * Returns: the exit status: 0 on success, 1 on any error
 */
int
tv_cli_run (int    argc,
            char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) args = NULL;
  g_auto(GStrv) files = NULL;
  g_autofree char *export_format = NULL;
  g_autofree char *output = NULL;
  gboolean info = FALSE;
  gboolean json = FALSE;
  gboolean version = FALSE;
  guint n_files;
  const GOptionEntry entries[] = {
    { "info", 0, 0, G_OPTION_ARG_NONE, &info,
      N_("Print a summary of FILE and exit"), NULL },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json,
      N_("With --info: print the summary as one JSON object"), NULL },
    { "export", 0, 0, G_OPTION_ARG_STRING, &export_format,
      N_("Export FILE in FORMAT (collapsed) to the file given with -o, and exit"),
      N_("FORMAT") },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output,
      N_("With --export: the file to write (\"-\" for standard output)"), N_("OUT") },
    { "version", 0, 0, G_OPTION_ARG_NONE, &version,
      N_("Print the version and exit"), NULL },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &files, NULL, N_("[FILE…]") },
    { NULL }
  };

  g_return_val_if_fail (argc > 0 && argv != NULL, EXIT_FAILED);

  context = g_option_context_new (NULL);
  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  g_option_context_set_summary (context,
                                _("Show a Tachyon profile (CPython’s binary sampling-profiler "
                                  "format).\n\n"
                                  "Without --info or --export, the files are opened in the "
                                  "viewer’s window."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);

  /* GOptionContext handles --help itself: it prints and exits with 0. */
  args = g_new0 (char *, argc + 1);
  for (int i = 0; i < argc; i++)
    args[i] = g_strdup (argv[i]);
  if (!g_option_context_parse_strv (context, &args, &error))
    return fail ("%s", error->message);

  if (version)
    {
      g_autofree char *text = g_strdup_printf ("%s %s\n", PROGRAM_NAME, PACKAGE_VERSION);

      return write_stdout (text, strlen (text));
    }

  if (info && export_format != NULL)
    return fail (_("--info and --export cannot be used together"));
  if (!info && export_format == NULL)
    {
      if (json)
        return fail (_("--json can only be used with --info"));
      return fail (_("-o/--output can only be used with --export"));
    }
  if (json && !info)
    return fail (_("--json can only be used with --info"));
  if (info && output != NULL)
    return fail (_("-o/--output can only be used with --export"));

  /* With G_OPTION_REMAINING, everything that is not an option (including
   * what follows "--") lands in FILES. */
  n_files = files != NULL ? g_strv_length (files) : 0;
  if (n_files == 0)
    return fail (_("No FILE given"));
  if (n_files > 1)
    return fail (_("Expected one FILE, got %u"), n_files);
  if (files[0][0] == '\0')
    return fail (_("The file name is empty"));

  if (info)
    return run_info (files[0], json);

  return run_export (files[0], export_format, output);
}
