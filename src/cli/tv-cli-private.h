/* tv-cli-private.h: what the command line's files share
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * tv-cli.c takes the options (GApplication's) and sends them on;
 * tv-cli-info.c runs --info and --compare --info, tv-cli-export.c every
 * --export.
 */
#pragma once

#include <gio/gio.h>

#include "tv-diff.h"
#include "tv-export.h"

G_BEGIN_DECLS

/* Fixed rather than argv[0], so that messages look the same however the
 * program was started. */
#define TV_CLI_PROGRAM_NAME "tachyon-viewer"

enum
{
  TV_CLI_EXIT_OK = 0,
  TV_CLI_EXIT_FAILED = 1,
};

/* What the command line says, as GApplication parsed it: the strings
 * point into the options' dictionary, which outlives the run. */
typedef struct
{
  const char          *path;
  const char         **files;
  gboolean             info;
  gboolean             json;
  gboolean             compare;
  const char          *format;
  const char          *output;
  const char          *baseline;
  const char          *by;
  const char         **threads;
  const char          *state;
  const char         **ranges;
  gboolean             inverted;
  const char          *merge;
  const char          *zoom;
  const char          *focus;
  const char         **hide;
  gboolean             collapse_recursion;
  const char          *search;
  gboolean             icicle;
  const char          *width;
  const char          *colors;
  gboolean             dark;
  const char          *sort;
  const char          *limit;
  gboolean             no_summary;
} TvCliArgs;

/* What the command line says is shown.  What needs no profile is in
 * STATE; what names things of a profile is kept in the words given,
 * checked before any profile is read, and found in each profile it is
 * applied to once that is loaded (tv_cli_load_profile()). */
typedef struct
{
  TvViewState   *state;        /* merge, thread state, inverted, collapse,
                                * orientation, search */
  GArray        *thread_ids;   /* guint64, each once */
  gboolean       has_range;    /* a --range */
  TvExportRange  range;
  GArray        *ranges;       /* TvExportRange: --range given again */
  /* Into the options' dictionary. */
  const char    *focus;
  const char   **hide;
  const char    *zoom;
} TvCliFilter;

void           tv_cli_filter_init        (TvCliFilter           *filter);
void           tv_cli_filter_clear       (TvCliFilter           *filter);
/* Takes what ARGS says of the filters and the view; MERGE without
 * --merge. */
gboolean       tv_cli_filter_parse       (TvCliFilter           *filter,
                                          const TvCliArgs       *args,
                                          TvMergeKey             merge,
                                          GError               **error);
/* Whether FILTER keeps every sample and every stack as it is. */
gboolean       tv_cli_filter_selects_all (const TvCliFilter     *filter);

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (TvCliFilter, tv_cli_filter_clear)

G_GNUC_PRINTF (1, 2)
int            tv_cli_fail             (const char            *format,
                                        ...);
int            tv_cli_fail_with_path   (const char            *path,
                                        const char            *message);
char          *tv_cli_display_path     (const char            *path);
int            tv_cli_write_stdout     (const char            *data,
                                        gsize                  len);
int            tv_cli_write_output     (const char            *output,
                                        const char            *data,
                                        gsize                  len);
int            tv_cli_write_bytes      (const char            *output,
                                        GBytes                *bytes);

/* How much of a profile an export needs. */
typedef enum
{
  TV_CLI_LOAD_COUNTS,          /* the counts of the samples it selects */
  TV_CLI_LOAD_STATE_COUNTS,    /* and of their states */
  TV_CLI_LOAD_SAMPLES,         /* every sample, with its state and time */
} TvCliLoad;

/* The profile at PATH, loaded as HOW says, and in STATE what FILTER shows
 * of it, found in it; NULL with ERROR set. */
TvProfileData *tv_cli_load_profile     (const char            *path,
                                        const TvCliFilter     *filter,
                                        TvCliLoad              how,
                                        TvViewState          **state,
                                        GError               **error);
/* Finds FILTER's --zoom in DATA's tree of STATE and sets STATE's zoom
 * path. */
gboolean       tv_cli_find_zoom        (const TvCliFilter     *filter,
                                        TvProfileData         *data,
                                        TvViewState           *state,
                                        GError               **error);

gboolean       tv_cli_parse_by         (const char            *by,
                                        TvDiffOptions         *options);
TvDiff        *tv_cli_compare_profiles (const char            *base_path,
                                        const char            *new_path,
                                        const TvCliFilter     *filter,
                                        const TvDiffOptions   *options,
                                        TvViewState          **new_state,
                                        int                   *status);

/* tv-cli-info.c: --info FILE and --compare BASE NEW --info. */
int            tv_cli_run_not_export   (const TvCliArgs       *args);
/* tv-cli-export.c: --export FORMAT, with FILE in args->path. */
int            tv_cli_run_export       (const TvCliArgs       *args);

G_END_DECLS
