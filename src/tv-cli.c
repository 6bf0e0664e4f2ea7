/* tv-cli.c: the command-line modes of tachyon-viewer
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * `--info [--json] FILE` and `--export FORMAT -o OUT [FILTER…] FILE` run
 * without GTK and without a display.  Every output is built in memory first
 * and only written once nothing can fail any more, so that a file that turns
 * out to be broken halfway through its samples leaves stdout (or OUT)
 * untouched.
 */
#include "tv-cli.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <glib/gi18n.h>

#include "tv-atomic-write.h"
#include "tv-collapsed.h"
#include "tv-compare.h"
#include "tv-export-html.h"
#include "tv-export-image.h"
#include "tv-export.h"
#include "tv-info.h"
#include "tv-tach-error.h"

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
    "--thread", "--state", "--range", "--inverted",
    "--width", "--icicle", "--colors", "--dark", "--search",
    "--compare", "--by", "--merge",
    "-h", "-?", "--help", "--help-all",
  };
  static const char * const with_value[] = {
    "--export=", "--output=", "--thread=", "--state=", "--range=",
    "--width=", "--colors=", "--search=", "--by=", "--merge=",
  };

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

static TvProfileData *load_profile (const char  *path,
                                    GError     **error);

/* --compare BASE NEW --info [--json] [--by time|share] [--merge KEY]. */
static int
run_compare (const char *base_path,
             const char *new_path,
             const char *by,
             const char *merge_name,
             gboolean    json)
{
  static const struct
  {
    const char *name;
    TvMergeKey  merge;
  } merges[] = {
    { "function", TV_MERGE_FUNCTION },
    { "line", TV_MERGE_LINE },
    { "instruction", TV_MERGE_INSTRUCTION },
  };
  g_autoptr(TvProfileData) base = NULL;
  g_autoptr(TvProfileData) new_data = NULL;
  g_autoptr(TvCallTree) base_tree = NULL;
  g_autoptr(TvCallTree) new_tree = NULL;
  g_autoptr(TvDiff) diff = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *base_name = display_path (base_path);
  g_autofree char *new_name = display_path (new_path);
  g_autofree char *text = NULL;
  TvDiffOptions options;
  TvMergeKey merge = TV_MERGE_FUNCTION;
  TvQuery query;
  gboolean found = merge_name == NULL;

  tv_diff_options_init (&options);
  if (by != NULL && g_strcmp0 (by, "share") == 0)
    options.normalization = TV_DIFF_BY_SHARE;
  else if (by != NULL && g_strcmp0 (by, "time") != 0)
    return fail (_("Unknown --by “%s” (expected time or share)"), by);
  for (gsize i = 0; merge_name != NULL && i < G_N_ELEMENTS (merges); i++)
    if (g_strcmp0 (merge_name, merges[i].name) == 0)
      {
        merge = merges[i].merge;
        found = TRUE;
      }
  if (!found)
    return fail (_("Unknown --merge “%s” (expected function, line or instruction)"), merge_name);

  if ((base = load_profile (base_path, &error)) == NULL)
    return fail_with_path (base_path, error->message);
  if ((new_data = load_profile (new_path, &error)) == NULL)
    return fail_with_path (new_path, error->message);

  tv_query_init (&query, merge);
  base_tree = tv_call_tree_new (base, &query, NULL);
  new_tree = tv_call_tree_new (new_data, &query, NULL);
  diff = tv_diff_new (base_tree, new_tree, &options, NULL);
  if (json)
    text = tv_compare_to_json (diff, base_name, new_name);
  else
    text = tv_compare_to_text (diff, base_name, new_name, 40);
  return write_stdout (text, strlen (text));
}

/* The whole profile, decoded into the model. */
static TvProfileData *
load_profile (const char  *path,
              GError     **error)
{
  TachReader *reader = NULL;
  TachError tach_error = { 0 };
  TachStatus status;

  status = tach_reader_open_path (path, &reader, &tach_error);
  if (status != TACH_OK)
    {
      tv_tach_error_propagate (error, status, &tach_error);
      return NULL;
    }

  return tv_profile_data_load (reader, NULL, NULL, NULL, error);
}

static int
write_output (const char *output,
              const char *data,
              gsize       len)
{
  g_autoptr(GError) error = NULL;

  if (strcmp (output, "-") == 0)
    return write_stdout (data, len);

  if (!tv_atomic_write_bytes (output, data, len, &error))
    return fail_with_path (output, error->message);

  return EXIT_OK;
}

typedef struct _ExportFormat ExportFormat;

static int
export_collapsed (const ExportFormat         *format,
                  const char                 *path,
                  const TvExportFilter       *filter,
                  const TvExportImageOptions *image,
                  const char                 *output)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TvCollapsed) collapsed = NULL;

  /* Without a filter the collapser decodes the file itself and keeps only
   * its distinct stacks, where the model would keep every sample.  A
   * filter needs the model. */
  if (tv_export_filter_selects_all (filter))
    {
      collapsed = tv_collapsed_new_for_path (path, NULL, &error);
    }
  else
    {
      g_autoptr(TvProfileData) data = load_profile (path, &error);
      g_autoptr(GArray) thread_indices = NULL;
      TvQuery query;

      if (data != NULL
          && tv_export_filter_make_query (filter, data, TV_MERGE_LINE, &query,
                                          &thread_indices, &error))
        collapsed = tv_collapsed_new_for_query (data, &query, NULL, &error);
    }
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

static int
export_html (const ExportFormat         *format,
             const char                 *path,
             const TvExportFilter       *filter,
             const TvExportImageOptions *image,
             const char                 *output)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TvProfileData) data = NULL;
  g_autoptr(GBytes) page = NULL;
  g_autofree char *source_name = NULL;
  gsize len;
  const char *bytes;

  data = load_profile (path, &error);
  if (data == NULL)
    return fail_with_path (path, error->message);

  source_name = g_filename_display_basename (path);
  page = tv_export_html_build (data, filter, source_name, NULL, &error);
  if (page == NULL)
    return fail_with_path (path, error->message);

  bytes = g_bytes_get_data (page, &len);
  return write_output (output, bytes, len);
}

static int export_image (const ExportFormat         *format,
                         const char                 *path,
                         const TvExportFilter       *filter,
                         const TvExportImageOptions *image,
                         const char                 *output);

/* The formats of --export.  Each takes the filters of TvExportFilter; the
 * images take TvExportImageOptions as well. */
struct _ExportFormat
{
  const char          *name;
  int                (*run) (const ExportFormat         *format,
                             const char                 *path,
                             const TvExportFilter       *filter,
                             const TvExportImageOptions *image,
                             const char                 *output);
  /* Whether --inverted means something for the format. */
  gboolean             can_invert;
  gboolean             is_image;
  TvExportImageFormat  image_format;
};

static const ExportFormat export_formats[] = {
  { "html", export_html, TRUE, FALSE, 0 },
  { "collapsed", export_collapsed, FALSE, FALSE, 0 },
  { "svg", export_image, TRUE, TRUE, TV_EXPORT_IMAGE_SVG },
  { "png", export_image, TRUE, TRUE, TV_EXPORT_IMAGE_PNG },
  { "pdf", export_image, TRUE, TRUE, TV_EXPORT_IMAGE_PDF },
};

static int
export_image (const ExportFormat         *format,
              const char                 *path,
              const TvExportFilter       *filter,
              const TvExportImageOptions *image,
              const char                 *output)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TvProfileData) data = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autofree char *source_name = NULL;
  const char *contents;
  gsize len;

  data = load_profile (path, &error);
  if (data == NULL)
    return fail_with_path (path, error->message);

  source_name = g_filename_display_basename (path);
  bytes = tv_export_image_build (data, filter, format->image_format, image, source_name, NULL,
                                 &error);
  if (bytes == NULL)
    return fail_with_path (path, error->message);

  contents = g_bytes_get_data (bytes, &len);
  return write_output (output, contents, len);
}

/* --width: digits only (GOptionArg's integers take signs and hex). */
static gboolean
parse_width (const char  *text,
             guint       *width,
             GError     **error)
{
  guint64 value = 0;

  if (text[0] == '\0' || strlen (text) > 9 || strspn (text, "0123456789") != strlen (text)
      || !g_ascii_string_to_unsigned (text, 10, 0, G_MAXUINT, &value, NULL))
    {
      g_set_error (error, TV_EXPORT_ERROR, TV_EXPORT_ERROR_INVALID_OPTION,
                   _("Invalid width “%s”: expected a number of pixels from %u to %u"),
                   text, TV_EXPORT_IMAGE_MIN_WIDTH, TV_EXPORT_IMAGE_MAX_WIDTH);
      return FALSE;
    }
  *width = (guint) value;
  return TRUE;
}

static gboolean
parse_colors (const char          *text,
              TvFlameColorScheme  *colors,
              GError             **error)
{
  static const struct
  {
    const char         *name;
    TvFlameColorScheme  scheme;
  } schemes[] = {
    { "module", TV_FLAME_COLORS_MODULE },
    { "heat", TV_FLAME_COLORS_HEAT },
    { "state", TV_FLAME_COLORS_THREAD_STATE },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (schemes); i++)
    {
      if (strcmp (text, schemes[i].name) == 0)
        {
          *colors = schemes[i].scheme;
          return TRUE;
        }
    }
  g_set_error (error, TV_EXPORT_ERROR, TV_EXPORT_ERROR_INVALID_OPTION,
               _("Unknown colour scheme “%s” (expected one of: module, heat, state)"), text);
  return FALSE;
}

/* What the command line says about an image besides the filters. */
typedef struct
{
  const char *width;
  gboolean    icicle;
  const char *colors;
  gboolean    dark;
  const char *search;
} ImageArgs;

static gboolean
image_args_given (const ImageArgs *args)
{
  return args->width != NULL || args->icicle || args->colors != NULL || args->dark
         || args->search != NULL;
}

static int
run_export (const char          *path,
            const char          *format_name,
            const char          *output,
            const char * const  *threads,
            const char          *state,
            const char          *range,
            gboolean             inverted,
            const ImageArgs     *image_args)
{
  g_autoptr(GError) error = NULL;
  g_auto(TvExportFilter) filter = { 0 };
  TvExportImageOptions image;
  const ExportFormat *format = NULL;

  tv_export_filter_init (&filter);
  tv_export_image_options_init (&image);

  for (gsize i = 0; i < G_N_ELEMENTS (export_formats); i++)
    {
      if (strcmp (format_name, export_formats[i].name) == 0)
        format = &export_formats[i];
    }
  if (format == NULL)
    return fail (_("Unknown export format “%s” (expected one of: collapsed, html, svg, png, pdf)"),
                 format_name);

  if (output == NULL)
    return fail (_("--export needs an output file: -o OUT"));
  if (output[0] == '\0')
    return fail (_("The output file name is empty"));

  for (gsize i = 0; threads != NULL && threads[i] != NULL; i++)
    {
      if (!tv_export_filter_add_thread (&filter, threads[i], &error))
        return fail ("%s", error->message);
    }
  if (state != NULL && !tv_export_filter_set_state (&filter, state, &error))
    return fail ("%s", error->message);
  if (range != NULL && !tv_export_filter_set_range (&filter, range, &error))
    return fail ("%s", error->message);
  if (inverted && !format->can_invert)
    return fail (_("--inverted does not apply to --export %s: its stacks always go from the "
                   "root to the leaf"), format->name);
  filter.inverted = inverted;

  if (image_args_given (image_args) && !format->is_image)
    return fail (_("--width, --icicle, --colors, --dark and --search can only be used with "
                   "--export svg, png or pdf"));
  if (image_args->width != NULL && !parse_width (image_args->width, &image.width, &error))
    return fail ("%s", error->message);
  if (image_args->colors != NULL && !parse_colors (image_args->colors, &image.colors, &error))
    return fail ("%s", error->message);
  image.orientation = image_args->icicle ? TV_FLAME_ORIENTATION_ICICLE
                                         : TV_FLAME_ORIENTATION_FLAME;
  image.dark = image_args->dark;
  image.search = image_args->search;
  if (format->is_image && !tv_export_image_options_check (&image, &error))
    return fail ("%s", error->message);

  /* Checked before the decode, which can take a while. */
  if (strcmp (output, "-") != 0 && g_file_test (output, G_FILE_TEST_IS_DIR))
    return fail_with_path (output, _("This is a folder; the output must be a file"));

  return format->run (format, path, &filter, &image, output);
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
  g_auto(GStrv) threads = NULL;
  g_autofree char *state = NULL;
  g_autofree char *range = NULL;
  gboolean inverted = FALSE;
  g_autofree char *width = NULL;
  g_autofree char *colors = NULL;
  g_autofree char *search = NULL;
  gboolean icicle = FALSE;
  gboolean dark = FALSE;
  ImageArgs image_args = { NULL };
  gboolean has_filters;
  gboolean info = FALSE;
  gboolean json = FALSE;
  gboolean version = FALSE;
  gboolean compare = FALSE;
  g_autofree char *by = NULL;
  g_autofree char *merge = NULL;
  guint n_files;
  const GOptionEntry entries[] = {
    { "info", 0, 0, G_OPTION_ARG_NONE, &info,
      N_("Print a summary of FILE and exit"), NULL },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json,
      N_("With --info: print the summary as one JSON object"), NULL },
    { "export", 0, 0, G_OPTION_ARG_STRING, &export_format,
      N_("Export FILE in FORMAT (html, collapsed, svg, png or pdf) to the file given with -o, "
         "and exit"),
      N_("FORMAT") },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output,
      N_("With --export: the file to write (\"-\" for standard output)"), N_("OUT") },
    { "thread", 0, 0, G_OPTION_ARG_STRING_ARRAY, &threads,
      N_("With --export: only the samples of the thread with this ID (may be repeated)"),
      N_("TID") },
    { "state", 0, 0, G_OPTION_ARG_STRING, &state,
      N_("With --export: only the samples taken in STATE (gil, cpu, gil-wait or exception)"),
      N_("STATE") },
    { "range", 0, 0, G_OPTION_ARG_STRING, &range,
      N_("With --export: only the samples taken from START to END seconds after the "
         "profile’s start"),
      N_("START:END") },
    { "inverted", 0, 0, G_OPTION_ARG_NONE, &inverted,
      N_("With --export html: start with the inverted flame graph (callers below their "
         "callees); with svg, png or pdf: draw it"), NULL },
    { "width", 0, 0, G_OPTION_ARG_STRING, &width,
      N_("With --export svg, png or pdf: the image’s width in pixels (320 to 8192, default "
         "1200)"), N_("PX") },
    { "icicle", 0, 0, G_OPTION_ARG_NONE, &icicle,
      N_("With --export svg, png or pdf: the root at the top (an icicle graph)"), NULL },
    { "colors", 0, 0, G_OPTION_ARG_STRING, &colors,
      N_("With --export svg, png or pdf: colour the frames by module (the default), by their "
         "own time (heat) or by thread state (state)"), N_("SCHEME") },
    { "dark", 0, 0, G_OPTION_ARG_NONE, &dark,
      N_("With --export svg, png or pdf: dark colours"), NULL },
    { "search", 0, 0, G_OPTION_ARG_STRING, &search,
      N_("With --export svg, png or pdf: dim the frames whose function name and file:line "
         "do not match REGEX"), N_("REGEX") },
    { "compare", 0, 0, G_OPTION_ARG_NONE, &compare,
      N_("With --info: compare two profiles, BASE then NEW, and print the functions that "
         "changed beyond sampling noise"), NULL },
    { "by", 0, 0, G_OPTION_ARG_STRING, &by,
      N_("With --compare: compare time (the default) or share of samples"), N_("time|share") },
    { "merge", 0, 0, G_OPTION_ARG_STRING, &merge,
      N_("With --compare: match frames by function (the default), line or instruction"),
      N_("KEY") },
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

  if (compare || by != NULL || merge != NULL)
    {
      if (!compare)
        return fail (_("--by and --merge can only be used with --compare"));
      if (!info)
        return fail (_("The comparison window is not built yet: use --compare with --info "
                       "to print the comparison"));
      if (export_format != NULL || output != NULL || threads != NULL || state != NULL
          || range != NULL || inverted || width != NULL || icicle || colors != NULL || dark
          || search != NULL)
        return fail (_("--compare takes only --info, --json, --by and --merge"));
      n_files = files != NULL ? g_strv_length (files) : 0;
      if (n_files != 2)
        return fail (_("--compare needs two files, BASE and NEW; got %u"), n_files);
      if (files[0][0] == '\0' || files[1][0] == '\0')
        return fail (_("The file name is empty"));
      return run_compare (files[0], files[1], by, merge, json);
    }

  has_filters = threads != NULL || state != NULL || range != NULL || inverted;
  image_args.width = width;
  image_args.icicle = icicle;
  image_args.colors = colors;
  image_args.dark = dark;
  image_args.search = search;
  if (image_args_given (&image_args) && (info || export_format == NULL))
    return fail (_("--width, --icicle, --colors, --dark and --search can only be used with "
                   "--export svg, png or pdf"));
  if (info && export_format != NULL)
    return fail (_("--info and --export cannot be used together"));
  if (!info && export_format == NULL)
    {
      if (json)
        return fail (_("--json can only be used with --info"));
      if (has_filters)
        return fail (_("--thread, --state, --range and --inverted can only be used with "
                       "--export"));
      return fail (_("-o/--output can only be used with --export"));
    }
  if (json && !info)
    return fail (_("--json can only be used with --info"));
  if (info && output != NULL)
    return fail (_("-o/--output can only be used with --export"));
  if (info && has_filters)
    return fail (_("--thread, --state, --range and --inverted can only be used with "
                   "--export"));

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

  return run_export (files[0], export_format, output, (const char * const *) threads, state,
                     range, inverted, &image_args);
}
