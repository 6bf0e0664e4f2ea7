/* tv-cli-export.c: `tachyon-viewer --export FORMAT -o OUT FILE`
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The formats, what each takes of the filters and the view, and the
 * checks made before the decode (which can take a while).  Every export
 * runs without GTK and without a display.
 */
#include "tv-cli-private.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "tv-collapsed.h"
#include "tv-export-gecko.h"
#include "tv-export-html.h"
#include "tv-export-image.h"
#include "tv-export-pprof.h"
#include "tv-export-pstats.h"
#include "tv-export-speedscope.h"

typedef TvCliArgs ExportArgs;

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

typedef struct _ExportFormat ExportFormat;

/* The formats of --export.  Each takes the filters and the view of
 * TvCliFilter; the images take TvExportImageOptions as well. */
struct _ExportFormat
{
  const char          *name;
  int                (*run) (const ExportFormat         *format,
                             const ExportArgs           *args,
                             const TvCliFilter          *filter,
                             const TvExportImageOptions *image);
  /* What of the profile is loaded. */
  TvCliLoad            load;
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

/* The profile loaded for FILTER as FORMAT says (see tv_cli_load_profile())
 * and FILTER's query in it, in QUERY, which points into *STATE; NULL with
 * ERROR set. */
static TvProfileData *
load_query (const ExportFormat *format,
            const ExportArgs   *args,
            const TvCliFilter  *filter,
            TvViewState       **state,
            TvQuery            *query,
            GError            **error)
{
  g_autoptr(TvProfileData) data = tv_cli_load_profile (args->path, filter, format->load, state,
                                                       error);

  if (data == NULL)
    return NULL;
  tv_export_make_query (*state, data, query);
  return g_steal_pointer (&data);
}

/* What an export that made BYTES (NULL: failed with ERROR, which is about
 * the profile) returns. */
static int
write_export (const ExportArgs *args,
              GBytes           *bytes,
              const GError     *error)
{
  if (bytes == NULL)
    return tv_cli_fail_with_path (args->path, error->message);
  return tv_cli_write_bytes (args->output, bytes);
}

/* What an export written to ARGS->output ("-": standard output) returns
 * when it succeeded (OK) or failed with ERROR.  Writing fails with a GIO
 * error; the rest (a thread or function the profile lacks, no memory) is
 * about the profile. */
static int
written_status (const ExportArgs *args,
                gboolean          ok,
                const GError     *error)
{
  if (ok)
    return TV_CLI_EXIT_OK;
  if (error->domain != G_IO_ERROR)
    return tv_cli_fail_with_path (args->path, error->message);
  if (strcmp (args->output, "-") == 0)
    return tv_cli_fail ("%s: %s", _("standard output"), error->message);
  return tv_cli_fail_with_path (args->output, error->message);
}

static int
export_collapsed (const ExportFormat         *format,
                  const ExportArgs           *args,
                  const TvCliFilter          *filter,
                  const TvExportImageOptions *image)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TvCollapsed) collapsed = NULL;
  g_autoptr(TvProfileData) data = NULL;
  g_autoptr(TvViewState) state = NULL;
  TvQuery query;
  gboolean ok;

  /* Without a filter the collapser decodes the file itself and keeps only
   * its distinct stacks, where the model would keep every sample.  A
   * filter needs the model. */
  if (tv_cli_filter_selects_all (filter))
    collapsed = tv_collapsed_new_for_path (args->path, NULL, &error);
  else if ((data = load_query (format, args, filter, &state, &query, &error)) != NULL)
    collapsed = tv_collapsed_new_for_query (data, &query, NULL, &error);
  if (collapsed == NULL)
    return tv_cli_fail_with_path (args->path, error->message);

  if (strcmp (args->output, "-") == 0)
    {
      setvbuf (stdout, NULL, _IOFBF, 1 << 20);
      ok = tv_collapsed_write (collapsed, stdout, &error);
    }
  else
    ok = tv_collapsed_save (collapsed, args->output, &error);
  return written_status (args, ok, error);
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
               const TvCliFilter          *filter,
               const TvExportImageOptions *image)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TvPstats) stats = NULL;
  g_autoptr(TvProfileData) data = NULL;
  g_autoptr(TvViewState) state = NULL;
  TvQuery query;
  TvPstatsSort sort = TV_PSTATS_SORT_NSAMPLES;
  TvPstatsTableFlags flags = 0;
  int limit = 15;

  /* CPython's defaults: by nsamples, 15 rows, with the summary. */
  if (args->sort != NULL && !tv_pstats_sort_from_string (args->sort, &sort))
    return tv_cli_fail (_("Unknown --sort “%s” (expected one of: nsamples, tottime, cumtime, "
                          "sample-pct, cumul-pct, nsamples-cumul, name)"), args->sort);
  if (args->limit != NULL && !parse_limit (args->limit, &limit))
    return tv_cli_fail (_("Invalid --limit “%s”: expected a number of rows"), args->limit);

  /* Without a filter the file is decoded in its own order, as CPython's
   * replay does, which keeps the order of rows that tie.  A filter needs
   * the model. */
  if (tv_cli_filter_selects_all (filter))
    stats = tv_pstats_new_for_path (args->path, NULL, &error);
  else if ((data = load_query (format, args, filter, &state, &query, &error)) != NULL)
    stats = tv_pstats_new_for_query (data, &query, NULL, &error);
  if (stats == NULL)
    return tv_cli_fail_with_path (args->path, error->message);

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
      return tv_cli_write_stdout (text, strlen (text));
    }

  {
    g_autoptr(GBytes) bytes = tv_pstats_to_marshal (stats);

    return tv_cli_write_bytes (args->output, bytes);
  }
}

/* --export html --baseline BASE: NEW (args->path) against BASE. */
static int
export_html_diff (const ExportArgs     *args,
                  const TvCliFilter    *filter)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TvDiff) diff = NULL;
  g_autoptr(GBytes) page = NULL;
  g_autofree char *base_name = g_filename_display_basename (args->baseline);
  g_autofree char *new_name = g_filename_display_basename (args->path);
  g_autoptr(TvViewState) state = NULL;
  TvDiffOptions options;
  int status = TV_CLI_EXIT_FAILED;

  /* Checked with the other arguments. */
  if (!tv_cli_parse_by (args->by, &options))
    g_assert_not_reached ();
  diff = tv_cli_compare_profiles (args->baseline, args->path, filter, &options, &state,
                                  &status);
  if (diff == NULL)
    return status;

  page = tv_export_html_build_diff (diff, state, base_name, new_name,
                                    tv_view_state_get_search (filter->state), NULL, &error);
  return write_export (args, page, error);
}

/* --export gecko and speedscope: DATA's samples that STATE selects, each
 * streamed to OUT (through a temporary file) or to standard output. */
static gboolean
stream_samples (const ExportFormat  *format,
                const ExportArgs    *args,
                TvProfileData       *data,
                TvViewState         *state,
                const char          *source_name,
                GError             **error)
{
  gboolean gecko = strcmp (format->name, "gecko") == 0;

  if (strcmp (args->output, "-") == 0)
    return gecko ? tv_export_gecko_write (data, state, stdout, NULL, error)
                 : tv_export_speedscope_write (data, state, source_name, stdout, NULL, error);
  return gecko ? tv_export_gecko_save (data, state, args->output, NULL, error)
               : tv_export_speedscope_save (data, state, source_name, args->output, NULL, error);
}

/* The exports of the profile as the model loads it (every format but
 * collapsed and pstats): streamed, or made in memory and then written. */
static int
export_loaded (const ExportFormat         *format,
               const ExportArgs           *args,
               const TvCliFilter          *filter,
               const TvExportImageOptions *image)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TvProfileData) data = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(TvViewState) state = NULL;
  g_autofree char *source_name = NULL;
  TvCliLoad how = format->load;

  if (args->baseline != NULL)
    return export_html_diff (args, filter);

  /* The thread-state colours count each node's samples by state. */
  if (format->is_image && image->colors == TV_FLAME_COLORS_THREAD_STATE)
    how = TV_CLI_LOAD_STATE_COUNTS;
  data = tv_cli_load_profile (args->path, filter, how, &state, &error);
  if (data == NULL || (format->has_view && !tv_cli_find_zoom (filter, data, state, &error)))
    return tv_cli_fail_with_path (args->path, error->message);
  source_name = g_filename_display_basename (args->path);

  if (format->per_sample)
    {
      gboolean ok = stream_samples (format, args, data, state, source_name, &error);

      return written_status (args, ok, error);
    }
  if (format->is_image)
    bytes = tv_export_image_build (data, state, format->image_format, image, source_name, NULL,
                                   &error);
  else if (strcmp (format->name, "html") == 0)
    bytes = tv_export_html_build (data, state, source_name, NULL, &error);
  else
    bytes = tv_export_pprof_build (data, state, source_name, NULL, &error);
  return write_export (args, bytes, error);
}

static const ExportFormat export_formats[] = {
  /* Lossless: every field of the frame table.  The states counted: the
   * page filters by them. */
  { "html", export_loaded, TV_CLI_LOAD_STATE_COUNTS, TRUE, FALSE, 0, TV_MERGE_FRAME },
  { "collapsed", export_collapsed, TV_CLI_LOAD_COUNTS, FALSE, FALSE, 0, TV_MERGE_LINE },
  { "pstats", export_pstats, TV_CLI_LOAD_COUNTS, FALSE, FALSE, 0, TV_MERGE_LINE },
  /* Takes --merge too (see refused_options()): a location per line by
   * default. */
  { "pprof", export_loaded, TV_CLI_LOAD_SAMPLES, FALSE, FALSE, 0, TV_MERGE_LINE },
  { "svg", export_loaded, TV_CLI_LOAD_COUNTS, TRUE, TRUE, TV_EXPORT_IMAGE_SVG, TV_MERGE_FUNCTION },
  { "png", export_loaded, TV_CLI_LOAD_COUNTS, TRUE, TRUE, TV_EXPORT_IMAGE_PNG, TV_MERGE_FUNCTION },
  { "pdf", export_loaded, TV_CLI_LOAD_COUNTS, TRUE, TRUE, TV_EXPORT_IMAGE_PDF, TV_MERGE_FUNCTION },
  /* CPython's frames: function, line and column. */
  { "gecko", export_loaded, TV_CLI_LOAD_SAMPLES, FALSE, FALSE, 0, TV_MERGE_FRAME, TRUE },
  { "speedscope", export_loaded, TV_CLI_LOAD_SAMPLES, FALSE, FALSE, 0, TV_MERGE_FUNCTION,
    TRUE },
};

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

int
tv_cli_run_export (const TvCliArgs *args)
{
  g_autoptr(GError) error = NULL;
  g_auto(TvCliFilter) filter = { 0 };
  g_autofree char *refused = NULL;
  TvExportImageOptions image;
  TvDiffOptions diff_options;
  const ExportFormat *format = NULL;

  tv_cli_filter_init (&filter);
  tv_export_image_options_init (&image);

  for (gsize i = 0; i < G_N_ELEMENTS (export_formats); i++)
    {
      if (strcmp (args->format, export_formats[i].name) == 0)
        format = &export_formats[i];
    }
  if (format == NULL)
    return tv_cli_fail (_("Unknown export format “%s” (expected one of: collapsed, html, svg, "
                          "png, pdf, pstats, pprof, gecko, speedscope)"),
                        args->format);

  /* pstats prints its table without one. */
  if (args->output == NULL && strcmp (format->name, "pstats") != 0)
    return tv_cli_fail (_("--export needs an output file: -o OUT"));
  if (args->output != NULL && args->output[0] == '\0')
    return tv_cli_fail (_("The output file name is empty"));
  if (args->baseline != NULL && args->baseline[0] == '\0')
    return tv_cli_fail (_("The file name of --baseline is empty"));

  if ((refused = refused_options (args, format)) != NULL)
    return tv_cli_fail ("%s", refused);
  /* A comparison matches functions unless told otherwise, as --compare. */
  if (!tv_cli_filter_parse (&filter, args,
                            args->baseline != NULL ? TV_MERGE_FUNCTION : format->merge, &error))
    return tv_cli_fail ("%s", error->message);
  if (args->by != NULL && !tv_cli_parse_by (args->by, &diff_options))
    return tv_cli_fail (_("Unknown --by “%s” (expected time or share)"), args->by);

  if (args->width != NULL && !parse_width (args->width, &image.width, &error))
    return tv_cli_fail ("%s", error->message);
  if (args->colors != NULL && !parse_colors (args->colors, &image.colors, &error))
    return tv_cli_fail ("%s", error->message);
  image.dark = args->dark;
  if (format->is_image && !tv_export_image_options_check (&image, &error))
    return tv_cli_fail ("%s", error->message);

  /* Checked before the decode, which can take a while. */
  if (args->output != NULL && strcmp (args->output, "-") != 0
      && g_file_test (args->output, G_FILE_TEST_IS_DIR))
    return tv_cli_fail_with_path (args->output, _("This is a folder; the output must be a file"));
  if (args->output != NULL
      && (same_file (args->output, args->path)
          || (args->baseline != NULL && same_file (args->output, args->baseline))))
    return tv_cli_fail_with_path (args->output, _("This is the profile being read; choose "
                                                  "another output file"));

  return format->run (format, args, &filter, &image);
}
