/* tv-cli-info.c: `--info [--json] FILE` and `--compare BASE NEW --info`
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What the command line prints about a profile, or about two compared,
 * and the options these modes refuse.  Every output is built in memory
 * first and only written once nothing can fail any more, so that a file
 * that turns out to be broken halfway through its samples leaves stdout
 * untouched.
 */
#include "tv-cli-private.h"

#include <string.h>

#include <glib/gi18n.h>

#include "tv-compare.h"
#include "tv-info.h"

typedef TvCliArgs ExportArgs;

static int
run_info (const char *path,
          gboolean    json)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TvInfo) info = NULL;
  g_autofree char *text = NULL;

  info = tv_info_new_for_path (path, NULL, &error);
  if (info == NULL)
    return tv_cli_fail_with_path (path, error->message);

  text = json ? tv_info_to_json (info) : tv_info_to_text (info);
  return tv_cli_write_stdout (text, strlen (text));
}

/* --by: time (the default) or share. */
gboolean
tv_cli_parse_by (const char    *by,
                 TvDiffOptions *options)
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

/* BASE and NEW, each loaded and filtered by FILTER, compared, and in
 * NEW_STATE (optional) what FILTER shows of NEW; fails with the message
 * already printed. */
TvDiff *
tv_cli_compare_profiles (const char           *base_path,
                         const char           *new_path,
                         const TvCliFilter    *filter,
                         const TvDiffOptions  *options,
                         TvViewState         **new_state,
                         int                  *status)
{
  const char *paths[2] = { base_path, new_path };
  TvCallTree *trees[2] = { NULL, NULL };
  TvDiff *diff;

  for (guint i = 0; i < 2; i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(TvViewState) state = NULL;
      g_autoptr(TvProfileData) data = tv_cli_load_profile (paths[i], filter, TV_CLI_LOAD_COUNTS,
                                                           &state, &error);
      TvQuery query;

      if (data == NULL)
        {
          g_clear_pointer (&trees[0], tv_call_tree_unref);
          *status = tv_cli_fail_with_path (paths[i], error->message);
          return NULL;
        }
      tv_export_make_query (state, data, &query);
      query.inverted = tv_view_state_get_inverted (state);
      trees[i] = tv_call_tree_new (data, &query, NULL);
      if (i == 1 && new_state != NULL)
        *new_state = g_steal_pointer (&state);
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
  g_auto(TvCliFilter) filter = { 0 };
  g_autoptr(TvDiff) diff = NULL;
  g_autoptr(GError) error = NULL;
  /* JSON holds the names whole (its escapes show them); the text report
   * shows them as names are shown. */
  g_autofree char *base_name = json ? g_filename_display_name (base_path)
                                    : tv_cli_display_path (base_path);
  g_autofree char *new_name = json ? g_filename_display_name (new_path)
                                   : tv_cli_display_path (new_path);
  g_autofree char *text = NULL;
  TvDiffOptions options;
  int status = TV_CLI_EXIT_FAILED;

  TvMergeKey merge = TV_MERGE_FUNCTION;

  tv_cli_filter_init (&filter);
  if (!tv_cli_parse_by (by, &options))
    return tv_cli_fail (_("Unknown --by “%s” (expected time or share)"), by);
  if (merge_name != NULL && !tv_export_parse_merge (merge_name, &merge, &error))
    return tv_cli_fail ("%s", error->message);
  tv_view_state_set_merge (filter.state, merge);

  diff = tv_cli_compare_profiles (base_path, new_path, &filter, &options, NULL, &status);
  if (diff == NULL)
    return status;
  if (json)
    text = tv_compare_to_json (diff, base_name, new_name);
  else
    text = tv_compare_to_text (diff, base_name, new_name, 40);
  return tv_cli_write_stdout (text, strlen (text));
}

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
int
tv_cli_run_not_export (const TvCliArgs *export_args)
{
  const char *option = export_option_given (export_args);
  const char * const *files = export_args->files;
  guint n_files = files != NULL ? g_strv_length ((char **) files) : 0;
  gboolean json = export_args->json;

  if (export_args->compare)
    {
      if (!export_args->info)
        return tv_cli_fail (_("--compare prints the comparison with --info; with only BASE and "
                              "NEW it opens the comparison window"));
      if (option != NULL || export_args->output != NULL)
        return tv_cli_fail (_("--compare takes only --info, --json, --by and --merge"));
      if (n_files != 2)
        return tv_cli_fail (_("--compare needs two files, BASE and NEW; got %u"), n_files);
      if (files[0][0] == '\0' || files[1][0] == '\0')
        return tv_cli_fail (_("The file name is empty"));
      return run_compare (files[0], files[1], export_args->by, export_args->merge, json);
    }
  if (export_args->by != NULL)
    return tv_cli_fail (_("--by can only be used with --compare or --baseline"));
  if (export_args->merge != NULL)
    return tv_cli_fail (_("--merge can only be used with --compare or --export"));
  if (option != NULL)
    return tv_cli_fail (_("%s can only be used with --export"), option);
  if (!export_args->info)
    {
      if (json)
        return tv_cli_fail (_("--json can only be used with --info"));
      return tv_cli_fail (_("-o/--output can only be used with --export"));
    }
  if (export_args->output != NULL)
    return tv_cli_fail (_("-o/--output can only be used with --export"));

  /* With G_OPTION_REMAINING, everything that is not an option (including
   * what follows "--") lands in FILES. */
  if (n_files == 0)
    return tv_cli_fail (_("No FILE given"));
  if (n_files > 1)
    return tv_cli_fail (_("Expected one FILE, got %u"), n_files);
  if (files[0][0] == '\0')
    return tv_cli_fail (_("The file name is empty"));
  return run_info (files[0], json);
}
