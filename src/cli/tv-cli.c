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
#include "tachyon-format.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "tv-atomic-write.h"
#include "tv-collapsed.h"
#include "tv-compare.h"
#include "tv-export-gecko.h"
#include "tv-export-html.h"
#include "tv-export-image.h"
#include "tv-export-pprof.h"
#include "tv-export-pstats.h"
#include "tv-export-speedscope.h"
#include "tv-export.h"
#include "tv-info.h"
#include "tv-tach-error.h"
#include "tv-text.h"

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
/* The options tv-application.c and GApplication take. */
static gboolean
is_window_option (const char *arg)
{
  return strcmp (arg, "--demo") == 0 ||
         strcmp (arg, "--gapplication-service") == 0 ||
         strcmp (arg, "--help-gapplication") == 0;
}

gboolean
tv_cli_is_requested (int    argc,
                     char **argv)
{
  static const char * const exact[] = {
    "--info", "--json", "--export", "--output", "-o", "--version",
    "--thread", "--state", "--range", "--inverted",
    "--width", "--icicle", "--colors", "--dark", "--search",
    "--compare", "--by", "--merge", "--zoom", "--focus", "--hide", "--collapse-recursion",
    "--baseline", "--sort", "--limit", "--no-summary",
    "-h", "-?", "--help", "--help-all",
  };
  static const char * const with_value[] = {
    "--export=", "--output=", "--thread=", "--state=", "--range=",
    "--width=", "--colors=", "--search=", "--by=", "--merge=", "--zoom=", "--focus=",
    "--hide=", "--baseline=", "--sort=", "--limit=",
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
      /* Any other option the window does not take: the command line says
       * what is wrong with it, without a display. */
      if (arg[0] == '-' && arg[1] != '\0' && !is_window_option (arg))
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
  g_autofree char *shown = NULL;
  va_list args;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  /* One line, whatever a name in it holds: a newline in a file name must
   * not forge a second line of the log, nor an escape sequence reach the
   * terminal.  The names are shown as tv-text.h says; so is the rest,
   * which only says what the names do not. */
  shown = tv_text_dup_visible (message, 0);

  fprintf (stderr, "%s: %s\n", PROGRAM_NAME, shown);
  return EXIT_FAILED;
}

/* Paths are bytes on Linux; show them in the locale's terms without ever
 * failing, cut and visible as names are. */
static char *
display_path (const char *path)
{
  return tv_text_dup_path (path);
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

static TvProfileData *load_profile (const char           *path,
                                    const TvExportFilter *filter,
                                    gboolean              count_states,
                                    GError              **error);

/* --by: time (the default) or share. */
static gboolean
parse_by (const char           *by,
          TvDiffOptions        *options)
{
  tv_diff_options_init (options);
  if (by == NULL || strcmp (by, "time") == 0)
    return TRUE;
  if (strcmp (by, "share") == 0)
    {
      options->normalization = TV_DIFF_BY_SHARE;
      return TRUE;
    }
  return FALSE;
}

/* BASE and NEW, each loaded and filtered by FILTER, compared; fails with
 * the message already printed. */
static TvDiff *
compare_profiles (const char           *base_path,
                  const char           *new_path,
                  const TvExportFilter *filter,
                  const TvDiffOptions  *options,
                  int                  *status)
{
  const char *paths[2] = { base_path, new_path };
  TvCallTree *trees[2] = { NULL, NULL };
  TvDiff *diff;

  for (guint i = 0; i < 2; i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(TvProfileData) data = load_profile (paths[i], filter, FALSE, &error);
      g_auto(TvExportQuery) query = { 0 };

      if (data == NULL || !tv_export_filter_make_query (filter, data, &query, &error))
        {
          g_clear_pointer (&trees[0], tv_call_tree_unref);
          *status = fail_with_path (paths[i], error->message);
          return NULL;
        }
      query.query.inverted = filter->inverted;
      trees[i] = tv_call_tree_new (data, &query.query, NULL);
    }
  diff = tv_diff_new (trees[0], trees[1], options, NULL);
  tv_call_tree_unref (trees[0]);
  tv_call_tree_unref (trees[1]);
  return diff;
}

/* --compare BASE NEW --info [--json] [--by time|share] [--merge KEY]. */
static int
run_compare (const char *base_path,
             const char *new_path,
             const char *by,
             const char *merge_name,
             gboolean    json)
{
  g_auto(TvExportFilter) filter = { 0 };
  g_autoptr(TvDiff) diff = NULL;
  g_autoptr(GError) error = NULL;
  /* JSON holds the names whole (its escapes show them); the text report
   * shows them as names are shown. */
  g_autofree char *base_name = json ? g_filename_display_name (base_path)
                                    : display_path (base_path);
  g_autofree char *new_name = json ? g_filename_display_name (new_path) : display_path (new_path);
  g_autofree char *text = NULL;
  TvDiffOptions options;
  int status = EXIT_FAILED;

  tv_export_filter_init (&filter);
  if (!parse_by (by, &options))
    return fail (_("Unknown --by “%s” (expected time or share)"), by);
  if (merge_name != NULL && !tv_export_filter_set_merge (&filter, merge_name, &error))
    return fail ("%s", error->message);

  diff = compare_profiles (base_path, new_path, &filter, &options, &status);
  if (diff == NULL)
    return status;
  if (json)
    text = tv_compare_to_json (diff, base_name, new_name);
  else
    text = tv_compare_to_text (diff, base_name, new_name, 40);
  return write_stdout (text, strlen (text));
}

/* The profile, decoded into the model for an export of FILTER: the
 * counts of the samples it selects, and COUNT_STATES, of their states.
 * An export never needs more memory for a longer run of one stack. */
static TvProfileData *
load_profile (const char           *path,
              const TvExportFilter *filter,
              gboolean              count_states,
              GError              **error)
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

  return tv_export_filter_load (filter, reader, count_states, NULL, error);
}

/* The profile with every sample, for the formats that keep each sample's
 * state or time (pprof's status labels, gecko, speedscope). */
static TvProfileData *
load_samples (const char  *path,
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

/* Whether A and B name the same file (links followed); FALSE when either
 * does not exist. */
static gboolean
same_file (const char *a,
           const char *b)
{
  GStatBuf sa, sb;

  return g_stat (a, &sa) == 0 && g_stat (b, &sb) == 0
         && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
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

/* What the command line says about an export. */
typedef struct
{
  const char          *path;
  const char          *format;
  const char          *output;
  const char          *baseline;
  const char          *by;
  const char * const  *threads;
  const char          *state;
  const char * const  *ranges;
  gboolean             inverted;
  const char          *merge;
  const char          *zoom;
  const char          *focus;
  const char * const  *hide;
  gboolean             collapse_recursion;
  const char          *search;
  gboolean             icicle;
  const char          *width;
  const char          *colors;
  gboolean             dark;
  const char          *sort;
  const char          *limit;
  gboolean             no_summary;
} ExportArgs;

typedef struct _ExportFormat ExportFormat;

static int
export_collapsed (const ExportFormat         *format,
                  const ExportArgs           *args,
                  const TvExportFilter       *filter,
                  const TvExportImageOptions *image)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TvCollapsed) collapsed = NULL;

  /* Without a filter the collapser decodes the file itself and keeps only
   * its distinct stacks, where the model would keep every sample.  A
   * filter needs the model. */
  if (tv_export_filter_selects_all (filter))
    {
      collapsed = tv_collapsed_new_for_path (args->path, NULL, &error);
    }
  else
    {
      g_autoptr(TvProfileData) data = load_profile (args->path, filter, FALSE, &error);
      g_auto(TvExportQuery) query = { 0 };

      if (data != NULL && tv_export_filter_make_query (filter, data, &query, &error))
        collapsed = tv_collapsed_new_for_query (data, &query.query, NULL, &error);
    }
  if (collapsed == NULL)
    return fail_with_path (args->path, error->message);

  if (strcmp (args->output, "-") == 0)
    {
      setvbuf (stdout, NULL, _IOFBF, 1 << 20);
      if (!tv_collapsed_write (collapsed, stdout, &error))
        return fail ("%s: %s", _("standard output"), error->message);
      return EXIT_OK;
    }

  if (!tv_collapsed_save (collapsed, args->output, &error))
    return fail_with_path (args->output, error->message);

  return EXIT_OK;
}

static int
write_bytes (const char *output,
             GBytes     *bytes)
{
  gsize len;
  const char *data = g_bytes_get_data (bytes, &len);

  return write_output (output, data, len);
}

/* Whether CPython would colour its table on standard output
 * (_colorize.can_colorize()). */
static gboolean
stdout_can_colorize (void)
{
  const char *python_colors = g_getenv ("PYTHON_COLORS");
  const char *term = g_getenv ("TERM");

  if (g_strcmp0 (python_colors, "0") == 0)
    return FALSE;
  if (g_strcmp0 (python_colors, "1") == 0)
    return TRUE;
  if (g_getenv ("NO_COLOR") != NULL && g_getenv ("NO_COLOR")[0] != '\0')
    return FALSE;
  if (g_getenv ("FORCE_COLOR") != NULL && g_getenv ("FORCE_COLOR")[0] != '\0')
    return TRUE;
  if (g_strcmp0 (term, "dumb") == 0)
    return FALSE;
  return isatty (STDOUT_FILENO);
}

/* --limit: digits only. */
static gboolean
parse_limit (const char *text,
             int        *limit)
{
  guint64 value = 0;

  if (text[0] == '\0' || strlen (text) > 9 || strspn (text, "0123456789") != strlen (text)
      || !g_ascii_string_to_unsigned (text, 10, 0, G_MAXINT, &value, NULL))
    return FALSE;
  *limit = (int) value;
  return TRUE;
}

/* --export pstats: CPython's marshal file with -o, else its table. */
static int
export_pstats (const ExportFormat         *format,
               const ExportArgs           *args,
               const TvExportFilter       *filter,
               const TvExportImageOptions *image)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TvPstats) stats = NULL;
  TvPstatsSort sort = TV_PSTATS_SORT_NSAMPLES;
  TvPstatsTableFlags flags = 0;
  int limit = 15;

  /* CPython's defaults: by nsamples, 15 rows, with the summary. */
  if (args->sort != NULL && !tv_pstats_sort_from_string (args->sort, &sort))
    return fail (_("Unknown --sort “%s” (expected one of: nsamples, tottime, cumtime, "
                   "sample-pct, cumul-pct, nsamples-cumul, name)"), args->sort);
  if (args->limit != NULL && !parse_limit (args->limit, &limit))
    return fail (_("Invalid --limit “%s”: expected a number of rows"), args->limit);

  /* Without a filter the file is decoded in its own order, as CPython's
   * replay does, which keeps the order of rows that tie.  A filter needs
   * the model. */
  if (tv_export_filter_selects_all (filter))
    {
      stats = tv_pstats_new_for_path (args->path, NULL, &error);
    }
  else
    {
      g_autoptr(TvProfileData) data = load_profile (args->path, filter, FALSE, &error);
      g_auto(TvExportQuery) query = { 0 };

      if (data != NULL && tv_export_filter_make_query (filter, data, &query, &error))
        stats = tv_pstats_new_for_query (data, &query.query, NULL, &error);
    }
  if (stats == NULL)
    return fail_with_path (args->path, error->message);

  if (args->output == NULL)
    {
      g_autofree char *text = NULL;

      if (!args->no_summary)
        flags |= TV_PSTATS_TABLE_SUMMARY;
      if (stdout_can_colorize ())
        flags |= TV_PSTATS_TABLE_COLORS;
      /* A terminal would obey the control characters of a hostile name. */
      if (isatty (STDOUT_FILENO))
        flags |= TV_PSTATS_TABLE_VISIBLE;
      text = tv_pstats_to_table (stats, sort, limit, flags);
      return write_stdout (text, strlen (text));
    }

  {
    g_autoptr(GBytes) bytes = tv_pstats_to_marshal (stats);

    return write_bytes (args->output, bytes);
  }
}

/* --export html --baseline BASE: NEW (args->path) against BASE. */
static int
export_html_diff (const ExportArgs     *args,
                  const TvExportFilter *filter)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TvDiff) diff = NULL;
  g_autoptr(GBytes) page = NULL;
  g_autofree char *base_name = g_filename_display_basename (args->baseline);
  g_autofree char *new_name = g_filename_display_basename (args->path);
  TvDiffOptions options;
  int status = EXIT_FAILED;

  /* Checked with the other arguments. */
  if (!parse_by (args->by, &options))
    g_assert_not_reached ();
  diff = compare_profiles (args->baseline, args->path, filter, &options, &status);
  if (diff == NULL)
    return status;

  page = tv_export_html_build_diff (diff, filter, base_name, new_name, filter->search, NULL,
                                    &error);
  if (page == NULL)
    return fail_with_path (args->path, error->message);
  return write_bytes (args->output, page);
}

static int
export_html (const ExportFormat         *format,
             const ExportArgs           *args,
             const TvExportFilter       *filter,
             const TvExportImageOptions *image)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TvProfileData) data = NULL;
  g_autoptr(GBytes) page = NULL;
  g_autofree char *source_name = NULL;

  if (args->baseline != NULL)
    return export_html_diff (args, filter);

  /* The states counted: the page filters by them. */
  data = load_profile (args->path, filter, TRUE, &error);
  if (data == NULL)
    return fail_with_path (args->path, error->message);

  source_name = g_filename_display_basename (args->path);
  page = tv_export_html_build (data, filter, source_name, NULL, &error);
  if (page == NULL)
    return fail_with_path (args->path, error->message);
  return write_bytes (args->output, page);
}

static int
export_image (const ExportFormat         *format,
              const ExportArgs           *args,
              const TvExportFilter       *filter,
              const TvExportImageOptions *image);
static int
export_samples (const ExportFormat         *format,
                const ExportArgs           *args,
                const TvExportFilter       *filter,
                const TvExportImageOptions *image);

/* --export pprof: the samples as pprof's profile.proto, gzipped. */
static int
export_pprof (const ExportFormat         *format,
              const ExportArgs           *args,
              const TvExportFilter       *filter,
              const TvExportImageOptions *image)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TvProfileData) data = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autofree char *source_name = NULL;

  data = load_samples (args->path, &error);
  if (data == NULL)
    return fail_with_path (args->path, error->message);

  source_name = g_filename_display_basename (args->path);
  bytes = tv_export_pprof_build (data, filter, source_name, NULL, &error);
  if (bytes == NULL)
    return fail_with_path (args->path, error->message);
  return write_bytes (args->output, bytes);
}

/* The formats of --export.  Each takes the filters of TvExportFilter; the
 * images take TvExportImageOptions as well. */
struct _ExportFormat
{
  const char          *name;
  int                (*run) (const ExportFormat         *format,
                             const ExportArgs           *args,
                             const TvExportFilter       *filter,
                             const TvExportImageOptions *image);
  /* Whether a view is drawn: --inverted, --merge, --zoom, --icicle and
   * --search mean something for the format. */
  gboolean             has_view;
  gboolean             is_image;
  TvExportImageFormat  image_format;
  /* Without --merge. */
  TvMergeKey           merge;
  /* Every sample, written as it is read: --merge applies, the rest of the
   * view does not. */
  gboolean             per_sample;
};

static const ExportFormat export_formats[] = {
  /* Lossless: every field of the frame table. */
  { "html", export_html, TRUE, FALSE, 0, TV_MERGE_FRAME },
  { "collapsed", export_collapsed, FALSE, FALSE, 0, TV_MERGE_LINE },
  { "pstats", export_pstats, FALSE, FALSE, 0, TV_MERGE_LINE },
  /* Takes --merge too (see refused_options()): a location per line by
   * default. */
  { "pprof", export_pprof, FALSE, FALSE, 0, TV_MERGE_LINE },
  { "svg", export_image, TRUE, TRUE, TV_EXPORT_IMAGE_SVG, TV_MERGE_FUNCTION },
  { "png", export_image, TRUE, TRUE, TV_EXPORT_IMAGE_PNG, TV_MERGE_FUNCTION },
  { "pdf", export_image, TRUE, TRUE, TV_EXPORT_IMAGE_PDF, TV_MERGE_FUNCTION },
  /* CPython's frames: function, line and column. */
  { "gecko", export_samples, FALSE, FALSE, 0, TV_MERGE_FRAME, TRUE },
  { "speedscope", export_samples, FALSE, FALSE, 0, TV_MERGE_FUNCTION, TRUE },
};

/* --export gecko and speedscope: each sample, streamed to OUT (through a
 * temporary file) or to standard output. */
static int
export_samples (const ExportFormat         *format,
                const ExportArgs           *args,
                const TvExportFilter       *filter,
                const TvExportImageOptions *image)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TvProfileData) data = NULL;
  g_autofree char *source_name = NULL;
  gboolean gecko = strcmp (format->name, "gecko") == 0;
  gboolean ok;

  data = load_samples (args->path, &error);
  if (data == NULL)
    return fail_with_path (args->path, error->message);
  source_name = g_filename_display_basename (args->path);

  if (strcmp (args->output, "-") == 0)
    ok = gecko ? tv_export_gecko_write (data, filter, stdout, NULL, &error)
               : tv_export_speedscope_write (data, filter, source_name, stdout, NULL, &error);
  else
    ok = gecko ? tv_export_gecko_save (data, filter, args->output, NULL, &error)
               : tv_export_speedscope_save (data, filter, source_name, args->output, NULL,
                                            &error);
  /* Writing fails with a GIO error; the rest (a thread or function the
   * profile lacks, no memory) is about the profile. */
  if (!ok && error->domain != G_IO_ERROR)
    return fail_with_path (args->path, error->message);
  if (!ok && strcmp (args->output, "-") == 0)
    return fail ("%s: %s", _("standard output"), error->message);
  if (!ok)
    return fail_with_path (args->output, error->message);
  return EXIT_OK;
}

static int
export_image (const ExportFormat         *format,
              const ExportArgs           *args,
              const TvExportFilter       *filter,
              const TvExportImageOptions *image)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TvProfileData) data = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autofree char *source_name = NULL;

  /* The thread-state colours count each node's samples by state. */
  data = load_profile (args->path, filter, image->colors == TV_FLAME_COLORS_THREAD_STATE,
                       &error);
  if (data == NULL)
    return fail_with_path (args->path, error->message);

  source_name = g_filename_display_basename (args->path);
  bytes = tv_export_image_build (data, filter, format->image_format, image, source_name, NULL,
                                 &error);
  if (bytes == NULL)
    return fail_with_path (args->path, error->message);
  return write_bytes (args->output, bytes);
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

/* The filters and the view, into FILTER. */
static gboolean
fill_filter (const ExportArgs    *args,
             const ExportFormat  *format,
             TvExportFilter      *filter,
             GError             **error)
{
  for (gsize i = 0; args->threads != NULL && args->threads[i] != NULL; i++)
    {
      if (!tv_export_filter_add_thread (filter, args->threads[i], error))
        return FALSE;
    }
  if (args->state != NULL && !tv_export_filter_set_state (filter, args->state, error))
    return FALSE;
  for (gsize i = 0; args->ranges != NULL && args->ranges[i] != NULL; i++)
    {
      if (!tv_export_filter_add_range (filter, args->ranges[i], error))
        return FALSE;
    }
  /* A comparison matches functions unless told otherwise, as --compare. */
  filter->merge = args->baseline != NULL ? TV_MERGE_FUNCTION : format->merge;
  if (args->merge != NULL && !tv_export_filter_set_merge (filter, args->merge, error))
    return FALSE;
  filter->inverted = args->inverted;
  filter->orientation = args->icicle ? TV_FLAME_ORIENTATION_ICICLE : TV_FLAME_ORIENTATION_FLAME;
  filter->search = g_strdup (args->search);
  filter->zoom = g_strdup (args->zoom);
  filter->focus_name = g_strdup (args->focus);
  for (gsize i = 0; args->hide != NULL && args->hide[i] != NULL; i++)
    tv_export_filter_add_hidden (filter, args->hide[i]);
  filter->collapse_recursion = args->collapse_recursion;
  return tv_export_filter_check (filter, error);
}

/* The options that FORMAT (and --baseline) refuse; NULL when none. */
static char *
refused_options (const ExportArgs   *args,
                 const ExportFormat *format)
{
  if (args->inverted && !format->has_view)
    return g_strdup_printf (_("--inverted does not apply to --export %s: its stacks always go "
                              "from the root to the leaf"), format->name);
  /* pprof takes --merge: it decides what a location is. */
  if (strcmp (format->name, "pprof") == 0 && (args->zoom != NULL || args->icicle
                                              || args->search != NULL))
    return g_strdup (_("--zoom, --icicle and --search do not apply to --export pprof: it holds "
                       "the stacks, not a drawing of them"));
  if ((args->zoom != NULL || args->icicle || args->search != NULL) && format->per_sample)
    return g_strdup_printf (_("--zoom, --icicle and --search do not apply to --export %s: it "
                              "holds every sample, not a view of them"), format->name);
  if ((args->merge != NULL || args->zoom != NULL || args->icicle || args->search != NULL)
      && !format->has_view && !format->per_sample && strcmp (format->name, "pprof") != 0)
    return g_strdup_printf (_("--merge, --zoom, --icicle and --search do not apply to --export "
                              "%s: its stacks are CPython’s, by line"), format->name);
  if ((args->width != NULL || args->colors != NULL || args->dark) && !format->is_image)
    return g_strdup (_("--width, --colors and --dark can only be used with --export svg, png "
                       "or pdf"));
  if (args->baseline != NULL && strcmp (format->name, "html") != 0)
    return g_strdup (_("--baseline can only be used with --export html"));
  if (args->baseline != NULL && (args->zoom != NULL || args->icicle))
    return g_strdup (_("--zoom and --icicle cannot be used with --baseline"));
  if (args->by != NULL && args->baseline == NULL)
    return g_strdup (_("--by can only be used with --compare or --baseline"));
  if ((args->sort != NULL || args->limit != NULL || args->no_summary)
      && (strcmp (format->name, "pstats") != 0 || args->output != NULL))
    return g_strdup (_("--sort, --limit and --no-summary are for the table that --export "
                       "pstats prints without -o"));
  return NULL;
}

static int
run_export (const ExportArgs *args)
{
  g_autoptr(GError) error = NULL;
  g_auto(TvExportFilter) filter = { 0 };
  g_autofree char *refused = NULL;
  TvExportImageOptions image;
  TvDiffOptions diff_options;
  const ExportFormat *format = NULL;

  tv_export_filter_init (&filter);
  tv_export_image_options_init (&image);

  for (gsize i = 0; i < G_N_ELEMENTS (export_formats); i++)
    {
      if (strcmp (args->format, export_formats[i].name) == 0)
        format = &export_formats[i];
    }
  if (format == NULL)
    return fail (_("Unknown export format “%s” (expected one of: collapsed, html, svg, png, pdf, "
                   "pstats, pprof, gecko, speedscope)"),
                 args->format);

  /* pstats prints its table without one. */
  if (args->output == NULL && strcmp (format->name, "pstats") != 0)
    return fail (_("--export needs an output file: -o OUT"));
  if (args->output != NULL && args->output[0] == '\0')
    return fail (_("The output file name is empty"));
  if (args->baseline != NULL && args->baseline[0] == '\0')
    return fail (_("The file name of --baseline is empty"));

  if ((refused = refused_options (args, format)) != NULL)
    return fail ("%s", refused);
  if (!fill_filter (args, format, &filter, &error))
    return fail ("%s", error->message);
  if (args->by != NULL && !parse_by (args->by, &diff_options))
    return fail (_("Unknown --by “%s” (expected time or share)"), args->by);

  if (args->width != NULL && !parse_width (args->width, &image.width, &error))
    return fail ("%s", error->message);
  if (args->colors != NULL && !parse_colors (args->colors, &image.colors, &error))
    return fail ("%s", error->message);
  image.dark = args->dark;
  if (format->is_image && !tv_export_image_options_check (&image, &error))
    return fail ("%s", error->message);

  /* Checked before the decode, which can take a while. */
  if (args->output != NULL && strcmp (args->output, "-") != 0
      && g_file_test (args->output, G_FILE_TEST_IS_DIR))
    return fail_with_path (args->output, _("This is a folder; the output must be a file"));
  if (args->output != NULL
      && (same_file (args->output, args->path)
          || (args->baseline != NULL && same_file (args->output, args->baseline))))
    return fail_with_path (args->output,
                           _("This is the profile being read; choose another output file"));

  return format->run (format, args, &filter, &image);
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
/* The first option given that only --export takes, or NULL. */
static const char *
export_option_given (const ExportArgs *a)
{
  const struct
  {
    gboolean    given;
    const char *name;
  } options[] = {
    { a->threads != NULL, "--thread" },
    { a->state != NULL, "--state" },
    { a->ranges != NULL, "--range" },
    { a->inverted, "--inverted" },
    { a->zoom != NULL, "--zoom" },
    { a->focus != NULL, "--focus" },
    { a->hide != NULL, "--hide" },
    { a->collapse_recursion, "--collapse-recursion" },
    { a->search != NULL, "--search" },
    { a->icicle, "--icicle" },
    { a->width != NULL, "--width" },
    { a->colors != NULL, "--colors" },
    { a->dark, "--dark" },
    { a->baseline != NULL, "--baseline" },
    { a->sort != NULL, "--sort" },
    { a->limit != NULL, "--limit" },
    { a->no_summary, "--no-summary" },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (options); i++)
    {
      if (options[i].given)
        return options[i].name;
    }
  return NULL;
}

/* Without --export: --compare BASE NEW --info, or --info FILE. */
static int
run_not_export (const ExportArgs  *export_args,
                gboolean           info,
                gboolean           json,
                gboolean           compare,
                char             **files)
{
  const char *option = export_option_given (export_args);
  guint n_files = files != NULL ? g_strv_length (files) : 0;

  if (compare)
    {
      if (!info)
        return fail (_("--compare prints the comparison with --info; with only BASE and NEW "
                       "it opens the comparison window"));
      if (option != NULL || export_args->output != NULL)
        return fail (_("--compare takes only --info, --json, --by and --merge"));
      if (n_files != 2)
        return fail (_("--compare needs two files, BASE and NEW; got %u"), n_files);
      if (files[0][0] == '\0' || files[1][0] == '\0')
        return fail (_("The file name is empty"));
      return run_compare (files[0], files[1], export_args->by, export_args->merge, json);
    }
  if (export_args->by != NULL)
    return fail (_("--by can only be used with --compare or --baseline"));
  if (export_args->merge != NULL)
    return fail (_("--merge can only be used with --compare or --export"));
  if (option != NULL)
    return fail (_("%s can only be used with --export"), option);
  if (!info)
    {
      if (json)
        return fail (_("--json can only be used with --info"));
      return fail (_("-o/--output can only be used with --export"));
    }
  if (export_args->output != NULL)
    return fail (_("-o/--output can only be used with --export"));

  /* With G_OPTION_REMAINING, everything that is not an option (including
   * what follows "--") lands in FILES. */
  if (n_files == 0)
    return fail (_("No FILE given"));
  if (n_files > 1)
    return fail (_("Expected one FILE, got %u"), n_files);
  if (files[0][0] == '\0')
    return fail (_("The file name is empty"));
  return run_info (files[0], json);
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
  g_auto(GStrv) ranges = NULL;
  gboolean inverted = FALSE;
  g_autofree char *width = NULL;
  g_autofree char *colors = NULL;
  g_autofree char *search = NULL;
  gboolean icicle = FALSE;
  gboolean dark = FALSE;
  gboolean info = FALSE;
  gboolean json = FALSE;
  gboolean version = FALSE;
  gboolean compare = FALSE;
  gboolean demo = FALSE;
  g_autofree char *by = NULL;
  g_autofree char *merge = NULL;
  g_autofree char *zoom = NULL;
  g_autofree char *focus = NULL;
  g_auto(GStrv) hide = NULL;
  gboolean collapse_recursion = FALSE;
  g_autofree char *baseline = NULL;
  g_autofree char *sort = NULL;
  g_autofree char *limit = NULL;
  gboolean no_summary = FALSE;
  ExportArgs export_args = { NULL };
  guint n_files;
  const GOptionEntry entries[] = {
    { "info", 0, 0, G_OPTION_ARG_NONE, &info,
      N_("Print a summary of FILE and exit"), NULL },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json,
      N_("With --info: print the summary as one JSON object"), NULL },
    { "export", 0, 0, G_OPTION_ARG_STRING, &export_format,
      N_("Export FILE in FORMAT (html, collapsed, svg, png, pdf, pstats, pprof, gecko or "
         "speedscope) to the file given with -o, and exit"),
      N_("FORMAT") },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output,
      N_("With --export: the file to write (\"-\" for standard output)"), N_("OUT") },
    { "thread", 0, 0, G_OPTION_ARG_STRING_ARRAY, &threads,
      N_("With --export: only the samples of the thread with this ID (may be repeated)"),
      N_("TID") },
    { "state", 0, 0, G_OPTION_ARG_STRING, &state,
      N_("With --export: only the samples taken in STATE (gil, cpu, gil-wait or exception)"),
      N_("STATE") },
    { "range", 0, 0, G_OPTION_ARG_STRING_ARRAY, &ranges,
      N_("With --export: only the samples taken from START to END seconds after the "
         "profile’s start (may be repeated: the samples in any of the ranges)"),
      N_("START:END") },
    { "focus", 0, 0, G_OPTION_ARG_STRING, &focus,
      N_("With --export: only the stacks through the function FUNC (a name, or FILE:NAME), "
         "rooted at it"), N_("FUNC") },
    { "hide", 0, 0, G_OPTION_ARG_STRING_ARRAY, &hide,
      N_("With --export: hide the function FUNC, its time going to its callers (may be "
         "repeated)"), N_("FUNC") },
    { "collapse-recursion", 0, 0, G_OPTION_ARG_NONE, &collapse_recursion,
      N_("With --export: a function calling itself shows as one frame"), NULL },
    { "merge", 0, 0, G_OPTION_ARG_STRING, &merge,
      N_("With --export html, svg, png, pdf, pprof, gecko or speedscope, or --compare: merge "
         "frames by function, line, instruction or whole frame (html and gecko: frame; pprof: "
         "line; the others: function by default)"),
      N_("KEY") },
    { "inverted", 0, 0, G_OPTION_ARG_NONE, &inverted,
      N_("With --export html: start with the inverted flame graph (callers below their "
         "callees); with svg, png or pdf: draw it"), NULL },
    { "icicle", 0, 0, G_OPTION_ARG_NONE, &icicle,
      N_("With --export html, svg, png or pdf: the root at the top (an icicle graph)"), NULL },
    { "zoom", 0, 0, G_OPTION_ARG_STRING, &zoom,
      N_("With --export html, svg, png or pdf: zoom into the frame at PATH, functions from "
         "the root down separated by “;”, each FUNC or FUNC:LINE"), N_("PATH") },
    { "search", 0, 0, G_OPTION_ARG_STRING, &search,
      N_("With --export html, svg, png or pdf: highlight the frames whose function or file "
         "name matches REGEX (the images dim the others)"), N_("REGEX") },
    { "width", 0, 0, G_OPTION_ARG_STRING, &width,
      N_("With --export svg, png or pdf: the image’s width in pixels (320 to 8192, default "
         "1200)"), N_("PX") },
    { "colors", 0, 0, G_OPTION_ARG_STRING, &colors,
      N_("With --export svg, png or pdf: colour the frames by module (the default), by their "
         "own time (heat) or by thread state (state)"), N_("SCHEME") },
    { "dark", 0, 0, G_OPTION_ARG_NONE, &dark,
      N_("With --export svg, png or pdf: dark colours"), NULL },
    { "baseline", 0, 0, G_OPTION_ARG_FILENAME, &baseline,
      N_("With --export html: a differential flame graph of FILE against BASE"), N_("BASE") },
    { "sort", 0, 0, G_OPTION_ARG_STRING, &sort,
      N_("With --export pstats and no -o: sort the table by KEY (nsamples, tottime, cumtime, "
         "sample-pct, cumul-pct, nsamples-cumul or name; default nsamples)"), N_("KEY") },
    { "limit", 0, 0, G_OPTION_ARG_STRING, &limit,
      N_("With --export pstats and no -o: at most N rows (default 15)"), N_("N") },
    { "no-summary", 0, 0, G_OPTION_ARG_NONE, &no_summary,
      N_("With --export pstats and no -o: leave out the summary of interesting functions"),
      NULL },
    { "compare", 0, 0, G_OPTION_ARG_NONE, &compare,
      N_("With --info: compare two profiles, BASE then NEW, and print the functions that "
         "changed beyond sampling noise"), NULL },
    { "by", 0, 0, G_OPTION_ARG_STRING, &by,
      N_("With --compare or --baseline: compare time (the default) or share of samples"),
      N_("time|share") },
    { "demo", 0, 0, G_OPTION_ARG_NONE, &demo,
      N_("Open the demo profile that comes with the viewer"), NULL },
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
  /* The window takes --demo alone; here it came with a command-line option. */
  if (demo)
    return fail (_("--demo opens the window and cannot be used with other options"));

  export_args.format = export_format;
  export_args.output = output;
  export_args.baseline = baseline;
  export_args.by = by;
  export_args.threads = (const char * const *) threads;
  export_args.state = state;
  export_args.ranges = (const char * const *) ranges;
  export_args.inverted = inverted;
  export_args.merge = merge;
  export_args.zoom = zoom;
  export_args.focus = focus;
  export_args.hide = (const char * const *) hide;
  export_args.collapse_recursion = collapse_recursion;
  export_args.search = search;
  export_args.icicle = icicle;
  export_args.width = width;
  export_args.colors = colors;
  export_args.dark = dark;
  export_args.sort = sort;
  export_args.limit = limit;
  export_args.no_summary = no_summary;

  if (export_format == NULL)
    return run_not_export (&export_args, info, json, compare, files);
  if (info)
    return fail (_("--info and --export cannot be used together"));
  if (compare)
    return fail (_("--compare and --export cannot be used together: use --export html "
                   "--baseline BASE"));
  if (json)
    return fail (_("--json can only be used with --info"));

  n_files = files != NULL ? g_strv_length (files) : 0;
  if (n_files == 0)
    return fail (_("No FILE given"));
  if (n_files > 1)
    return fail (_("Expected one FILE, got %u"), n_files);
  if (files[0][0] == '\0')
    return fail (_("The file name is empty"));

  export_args.path = files[0];
  return run_export (&export_args);
}
