/* tv-cli.c: the command line of tachyon-viewer, through GApplication
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every option is a GApplication main option: GApplication parses them
 * (and prints --help) before anything else happens, and its
 * handle-local-options signal hands them here.  `--info`, `--export`,
 * `--compare --info` and `--version` run there and then, before the
 * application registers, so before GTK is initialised (GtkApplication
 * does that at startup): they need no display.  What asks for the window
 * (files alone, --demo, `--compare BASE NEW`) is left to the application.
 */
#include "tv-cli.h"
#include "tv-cli-private.h"
#include "tachyon-format.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <glib/gi18n.h>

#include "tv-atomic-write.h"
#include "tv-tach-error.h"
#include "tv-text.h"

#ifndef PACKAGE_VERSION
# define PACKAGE_VERSION "unknown"
#endif

int
tv_cli_fail (const char *format,
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

  fprintf (stderr, "%s: %s\n", TV_CLI_PROGRAM_NAME, shown);
  return TV_CLI_EXIT_FAILED;
}

/* Paths are bytes on Linux; show them in the locale's terms without ever
 * failing, cut and visible as names are. */
char *
tv_cli_display_path (const char *path)
{
  return tv_text_dup_path (path);
}

int
tv_cli_fail_with_path (const char *path,
                       const char *message)
{
  g_autofree char *display = tv_cli_display_path (path);

  return tv_cli_fail ("%s: %s", display, message);
}

int
tv_cli_write_stdout (const char *data,
                     gsize       len)
{
  if ((len > 0 && fwrite (data, 1, len, stdout) != len) || fflush (stdout) != 0)
    {
      int saved_errno = errno;

      return tv_cli_fail (_("Could not write to standard output: %s"),
                          g_strerror (saved_errno));
    }

  return TV_CLI_EXIT_OK;
}

void
tv_cli_filter_init (TvCliFilter *filter)
{
  memset (filter, 0, sizeof *filter);
  filter->state = tv_view_state_new ();
  filter->thread_ids = g_array_new (FALSE, FALSE, sizeof (guint64));
  filter->ranges = g_array_new (FALSE, FALSE, sizeof (TvExportRange));
}

void
tv_cli_filter_clear (TvCliFilter *filter)
{
  g_clear_object (&filter->state);
  g_clear_pointer (&filter->thread_ids, g_array_unref);
  g_clear_pointer (&filter->ranges, g_array_unref);
}

static gboolean
add_thread (TvCliFilter  *filter,
            const char   *text,
            GError      **error)
{
  guint64 thread_id;

  if (!tv_export_parse_thread_id (text, &thread_id, error))
    return FALSE;
  for (guint i = 0; i < filter->thread_ids->len; i++)
    {
      if (g_array_index (filter->thread_ids, guint64, i) == thread_id)
        return TRUE;
    }
  g_array_append_val (filter->thread_ids, thread_id);
  return TRUE;
}

/* The first --range is the time range; with a second one, both (and any
 * later ones) become the list of ranges, and the samples in any of them
 * are kept. */
static gboolean
add_range (TvCliFilter  *filter,
           const char   *text,
           GError      **error)
{
  TvExportRange range;

  if (!tv_export_parse_range (text, &range, error))
    return FALSE;
  if (!filter->has_range && filter->ranges->len == 0)
    {
      filter->has_range = TRUE;
      filter->range = range;
      return TRUE;
    }
  if (filter->has_range)
    {
      g_array_append_val (filter->ranges, filter->range);
      filter->has_range = FALSE;
    }
  g_array_append_val (filter->ranges, range);
  g_array_set_size (filter->ranges,
                    tv_export_ranges_normalize ((TvExportRange *) (gpointer) filter->ranges->data,
                                                filter->ranges->len));
  return TRUE;
}

gboolean
tv_cli_filter_parse (TvCliFilter      *filter,
                     const TvCliArgs  *args,
                     TvMergeKey        merge,
                     GError          **error)
{
  TvStateFilter state = TV_STATE_FILTER_ALL;

  for (gsize i = 0; args->threads != NULL && args->threads[i] != NULL; i++)
    {
      if (!add_thread (filter, args->threads[i], error))
        return FALSE;
    }
  if (args->state != NULL && !tv_export_parse_state (args->state, &state, error))
    return FALSE;
  for (gsize i = 0; args->ranges != NULL && args->ranges[i] != NULL; i++)
    {
      if (!add_range (filter, args->ranges[i], error))
        return FALSE;
    }
  if (args->merge != NULL && !tv_export_parse_merge (args->merge, &merge, error))
    return FALSE;
  g_object_set (filter->state,
                "state-filter", state,
                "merge", merge,
                "inverted", args->inverted,
                "collapse-recursion", args->collapse_recursion,
                "orientation", args->icicle ? TV_FLAME_ORIENTATION_ICICLE
                                            : TV_FLAME_ORIENTATION_FLAME,
                "search", args->search,
                NULL);
  filter->zoom = args->zoom;
  filter->focus = args->focus;
  filter->hide = args->hide;

  /* What can be checked without a profile. */
  if (!tv_export_check_search (filter->state, error))
    return FALSE;
  if (filter->zoom != NULL && !tv_export_check_zoom_text (filter->zoom, error))
    return FALSE;
  if (filter->focus != NULL && filter->focus[0] == '\0')
    {
      g_set_error_literal (error, TV_EXPORT_ERROR, TV_EXPORT_ERROR_INVALID_FILTER,
                           _("The function name to focus on is empty"));
      return FALSE;
    }
  for (gsize i = 0; filter->hide != NULL && filter->hide[i] != NULL; i++)
    {
      if (filter->hide[i][0] == '\0')
        {
          g_set_error_literal (error, TV_EXPORT_ERROR, TV_EXPORT_ERROR_INVALID_FILTER,
                               _("The function name to hide is empty"));
          return FALSE;
        }
    }
  return TRUE;
}

gboolean
tv_cli_filter_selects_all (const TvCliFilter *filter)
{
  return filter->thread_ids->len == 0 && !filter->has_range && filter->ranges->len == 0
         && filter->focus == NULL && (filter->hide == NULL || filter->hide[0] == NULL)
         && tv_export_selects_all (filter->state);
}

TvProfileData *
tv_cli_load_profile (const char         *path,
                     const TvCliFilter  *filter,
                     TvCliLoad           how,
                     TvViewState       **state_out,
                     GError            **error)
{
  TachReader *reader = tv_export_open_reader (path, error);
  g_autoptr(TvViewState) state = NULL;
  g_autoptr(TvProfileData) data = NULL;

  if (reader == NULL)
    return NULL;

  /* The time ranges first: a load of counts selects by them. */
  state = tv_view_state_copy (filter->state);
  tv_export_select_seconds (state, tach_reader_get_header (reader)->start_time_us,
                            filter->has_range ? &filter->range : NULL,
                            (const TvExportRange *) (gpointer) filter->ranges->data,
                            filter->ranges->len);
  /* A load of counts never needs more memory for a longer run of one
   * stack. */
  if (how == TV_CLI_LOAD_SAMPLES)
    data = tv_profile_data_load (reader, NULL, NULL, NULL, error);
  else
    data = tv_export_load (state, reader, how == TV_CLI_LOAD_STATE_COUNTS, NULL, error);
  if (data == NULL
      || !tv_export_select_threads (state, data,
                                    (const guint64 *) (gpointer) filter->thread_ids->data,
                                    filter->thread_ids->len, error)
      || !tv_export_find_functions (state, data, filter->focus, filter->hide, error))
    return NULL;

  *state_out = g_steal_pointer (&state);
  return g_steal_pointer (&data);
}

gboolean
tv_cli_find_zoom (const TvCliFilter  *filter,
                  TvProfileData      *data,
                  TvViewState        *state,
                  GError            **error)
{
  g_autoptr(TvCallTree) tree = NULL;
  TvQuery query;

  if (filter->zoom == NULL)
    return TRUE;
  /* The tree drawn: inverted when it is. */
  tv_export_make_query (state, data, &query);
  query.inverted = tv_view_state_get_inverted (state);
  tree = tv_call_tree_new (data, &query, NULL);
  return tv_export_find_zoom_text (state, tree, filter->zoom, error);
}

int
tv_cli_write_output (const char *output,
                     const char *data,
                     gsize       len)
{
  g_autoptr(GError) error = NULL;

  if (strcmp (output, "-") == 0)
    return tv_cli_write_stdout (data, len);

  if (!tv_atomic_write_bytes (output, data, len, &error))
    return tv_cli_fail_with_path (output, error->message);

  return TV_CLI_EXIT_OK;
}

int
tv_cli_write_bytes (const char *output,
                    GBytes     *bytes)
{
  gsize len;
  const char *data = g_bytes_get_data (bytes, &len);

  return tv_cli_write_output (output, data, len);
}

/* The options, all of them GApplication main options without storage of
 * their own: GApplication packs what is given into the options'
 * dictionary, by long name.  The files (and what follows "--") land in
 * G_OPTION_REMAINING, so that the command-line modes see them; the
 * application opens them itself when they are for the window. */
static const GOptionEntry option_entries[] = {
  { "info", 0, 0, G_OPTION_ARG_NONE, NULL,
    N_("Print a summary of FILE and exit"), NULL },
  { "json", 0, 0, G_OPTION_ARG_NONE, NULL,
    N_("With --info: print the summary as one JSON object"), NULL },
  { "export", 0, 0, G_OPTION_ARG_STRING, NULL,
    N_("Export FILE in FORMAT (html, collapsed, svg, png, pdf, pstats, pprof, gecko or "
       "speedscope) to the file given with -o, and exit"),
    N_("FORMAT") },
  { "output", 'o', 0, G_OPTION_ARG_FILENAME, NULL,
    N_("With --export: the file to write (\"-\" for standard output)"), N_("OUT") },
  { "thread", 0, 0, G_OPTION_ARG_STRING_ARRAY, NULL,
    N_("With --export: only the samples of the thread with this ID (may be repeated)"),
    N_("TID") },
  { "state", 0, 0, G_OPTION_ARG_STRING, NULL,
    N_("With --export: only the samples taken in STATE (gil, cpu, gil-wait or exception)"),
    N_("STATE") },
  { "range", 0, 0, G_OPTION_ARG_STRING_ARRAY, NULL,
    N_("With --export: only the samples taken from START to END seconds after the "
       "profile’s start (may be repeated: the samples in any of the ranges)"),
    N_("START:END") },
  { "focus", 0, 0, G_OPTION_ARG_STRING, NULL,
    N_("With --export: only the stacks through the function FUNC (a name, or FILE:NAME), "
       "rooted at it"), N_("FUNC") },
  { "hide", 0, 0, G_OPTION_ARG_STRING_ARRAY, NULL,
    N_("With --export: hide the function FUNC, its time going to its callers (may be "
       "repeated)"), N_("FUNC") },
  { "collapse-recursion", 0, 0, G_OPTION_ARG_NONE, NULL,
    N_("With --export: a function calling itself shows as one frame"), NULL },
  { "merge", 0, 0, G_OPTION_ARG_STRING, NULL,
    N_("With --export html, svg, png, pdf, pprof, gecko or speedscope, or --compare: merge "
       "frames by function, line, instruction or whole frame (html and gecko: frame; pprof: "
       "line; the others: function by default)"),
    N_("KEY") },
  { "inverted", 0, 0, G_OPTION_ARG_NONE, NULL,
    N_("With --export html: start with the inverted flame graph (callers below their "
       "callees); with svg, png or pdf: draw it"), NULL },
  { "icicle", 0, 0, G_OPTION_ARG_NONE, NULL,
    N_("With --export html, svg, png or pdf: the root at the top (an icicle graph)"), NULL },
  { "zoom", 0, 0, G_OPTION_ARG_STRING, NULL,
    N_("With --export html, svg, png or pdf: zoom into the frame at PATH, functions from "
       "the root down separated by “;”, each FUNC or FUNC:LINE"), N_("PATH") },
  { "search", 0, 0, G_OPTION_ARG_STRING, NULL,
    N_("With --export html, svg, png or pdf: highlight the frames whose function or file "
       "name matches REGEX (the images dim the others)"), N_("REGEX") },
  { "width", 0, 0, G_OPTION_ARG_STRING, NULL,
    N_("With --export svg, png or pdf: the image’s width in pixels (320 to 8192, default "
       "1200)"), N_("PX") },
  { "colors", 0, 0, G_OPTION_ARG_STRING, NULL,
    N_("With --export svg, png or pdf: colour the frames by module (the default), by their "
       "own time (heat) or by thread state (state)"), N_("SCHEME") },
  { "dark", 0, 0, G_OPTION_ARG_NONE, NULL,
    N_("With --export svg, png or pdf: dark colours"), NULL },
  { "baseline", 0, 0, G_OPTION_ARG_FILENAME, NULL,
    N_("With --export html: a differential flame graph of FILE against BASE"), N_("BASE") },
  { "sort", 0, 0, G_OPTION_ARG_STRING, NULL,
    N_("With --export pstats and no -o: sort the table by KEY (nsamples, tottime, cumtime, "
       "sample-pct, cumul-pct, nsamples-cumul or name; default nsamples)"), N_("KEY") },
  { "limit", 0, 0, G_OPTION_ARG_STRING, NULL,
    N_("With --export pstats and no -o: at most N rows (default 15)"), N_("N") },
  { "no-summary", 0, 0, G_OPTION_ARG_NONE, NULL,
    N_("With --export pstats and no -o: leave out the summary of interesting functions"),
    NULL },
  { "compare", 0, 0, G_OPTION_ARG_NONE, NULL,
    N_("With --info: compare two profiles, BASE then NEW, and print the functions that "
       "changed beyond sampling noise"), NULL },
  { "by", 0, 0, G_OPTION_ARG_STRING, NULL,
    N_("With --compare or --baseline: compare time (the default) or share of samples"),
    N_("time|share") },
  { "demo", 0, 0, G_OPTION_ARG_NONE, NULL,
    N_("Open the demo profile that comes with the viewer"), NULL },
  { "version", 0, 0, G_OPTION_ARG_NONE, NULL,
    N_("Print the version and exit"), NULL },
  { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, NULL, NULL, N_("[FILE…]") },
  { NULL }
};

/* The options of option_entries that ask for no window. */
static const char *
first_command_line_option (GVariantDict *options)
{
  for (gsize i = 0; option_entries[i].long_name != NULL; i++)
    {
      const char *name = option_entries[i].long_name;

      if (name[0] != '\0' && strcmp (name, "demo") != 0 && strcmp (name, "compare") != 0
          && g_variant_dict_contains (options, name))
        return name;
    }
  return NULL;
}

/* GOption's own messages ("Unknown option --frobnicate", "Missing
 * argument for --export"), which GApplication prints as they are: said
 * as the command line's other messages are, one line, names shown. */
static void
restate_parse_error (GOptionContext  *context,
                     GOptionGroup    *group,
                     gpointer         data,
                     GError         **error)
{
  if (error != NULL && *error != NULL)
    {
      g_autofree char *shown = tv_text_dup_visible ((*error)->message, 0);

      g_free ((*error)->message);
      (*error)->message = g_strdup_printf ("%s: %s", TV_CLI_PROGRAM_NAME, shown);
    }
}

/**
 * tv_cli_add_options:
 * @application: the application whose command line this is
 *
 * Adds every option of the program, the usage text of --help and the
 * form of the parser's messages to @application.  Its
 * handle-local-options handler then calls tv_cli_handle_local_options().
 */
void
tv_cli_add_options (GApplication *application)
{
  GOptionGroup *errors;

  g_return_if_fail (G_IS_APPLICATION (application));

  g_application_add_main_option_entries (application, option_entries);
  g_application_set_option_context_summary (application,
                                            _("Show a Tachyon profile (CPython’s binary "
                                              "sampling-profiler format).\n\n"
                                              "Without --info or --export, the files are "
                                              "opened in the viewer’s window."));
  /* A group of no options, for its error hook: --help does not list it. */
  errors = g_option_group_new ("tachyon-viewer", "", "", NULL, NULL);
  g_option_group_set_error_hook (errors, restate_parse_error);
  g_application_add_option_group (application, errors);
}

static void
tv_cli_args_clear (TvCliArgs *args)
{
  g_clear_pointer (&args->files, g_free);
  g_clear_pointer (&args->threads, g_free);
  g_clear_pointer (&args->ranges, g_free);
  g_clear_pointer (&args->hide, g_free);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (TvCliArgs, tv_cli_args_clear)

static gboolean
lookup_flag (GVariantDict *options,
             const char   *name)
{
  gboolean value = FALSE;

  return g_variant_dict_lookup (options, name, "b", &value) && value;
}

static const char *
lookup_string (GVariantDict *options,
               const char   *name,
               const char   *format)
{
  const char *value = NULL;

  g_variant_dict_lookup (options, name, format, &value);
  return value;
}

static const char **
lookup_strv (GVariantDict *options,
             const char   *name,
             const char   *format)
{
  const char **value = NULL;

  g_variant_dict_lookup (options, name, format, &value);
  return value;
}

/* The dictionary's values as TvCliArgs; the strings stay the
 * dictionary's. */
static void
read_args (GVariantDict *options,
           TvCliArgs    *args)
{
  args->files = lookup_strv (options, G_OPTION_REMAINING, "^a&ay");
  args->info = lookup_flag (options, "info");
  args->json = lookup_flag (options, "json");
  args->compare = lookup_flag (options, "compare");
  args->format = lookup_string (options, "export", "&s");
  args->output = lookup_string (options, "output", "^&ay");
  args->baseline = lookup_string (options, "baseline", "^&ay");
  args->by = lookup_string (options, "by", "&s");
  args->threads = lookup_strv (options, "thread", "^a&s");
  args->state = lookup_string (options, "state", "&s");
  args->ranges = lookup_strv (options, "range", "^a&s");
  args->inverted = lookup_flag (options, "inverted");
  args->merge = lookup_string (options, "merge", "&s");
  args->zoom = lookup_string (options, "zoom", "&s");
  args->focus = lookup_string (options, "focus", "&s");
  args->hide = lookup_strv (options, "hide", "^a&s");
  args->collapse_recursion = lookup_flag (options, "collapse-recursion");
  args->search = lookup_string (options, "search", "&s");
  args->icicle = lookup_flag (options, "icicle");
  args->width = lookup_string (options, "width", "&s");
  args->colors = lookup_string (options, "colors", "&s");
  args->dark = lookup_flag (options, "dark");
  args->sort = lookup_string (options, "sort", "&s");
  args->limit = lookup_string (options, "limit", "&s");
  args->no_summary = lookup_flag (options, "no-summary");
}

/* --export FORMAT: what it cannot be given with, and its one FILE. */
static int
run_export (TvCliArgs *args)
{
  guint n_files = args->files != NULL ? g_strv_length ((char **) args->files) : 0;

  if (args->info)
    return tv_cli_fail (_("--info and --export cannot be used together"));
  if (args->compare)
    return tv_cli_fail (_("--compare and --export cannot be used together: use --export html "
                          "--baseline BASE"));
  if (args->json)
    return tv_cli_fail (_("--json can only be used with --info"));

  if (n_files == 0)
    return tv_cli_fail (_("No FILE given"));
  if (n_files > 1)
    return tv_cli_fail (_("Expected one FILE, got %u"), n_files);
  if (args->files[0][0] == '\0')
    return tv_cli_fail (_("The file name is empty"));

  args->path = args->files[0];
  return tv_cli_run_export (args);
}

/**
 * tv_cli_handle_local_options:
 * @options: the options GApplication parsed
 *
 * Runs what the options ask for when it needs no window: --version,
 * --info, --export, --compare --info, or an error about the options.
 * Never initialises GTK.
 *
 * Returns: the exit status (0 on success, 1 on any error), or -1 when the
 *   options are for the window: files alone, --demo (with or without
 *   files), or `--compare BASE NEW`
 */
int
tv_cli_handle_local_options (GVariantDict *options)
{
  g_auto(TvCliArgs) args = { 0 };
  const char *option = first_command_line_option (options);
  gboolean demo = lookup_flag (options, "demo");
  guint n_files;

  g_return_val_if_fail (options != NULL, TV_CLI_EXIT_FAILED);

  if (lookup_flag (options, "version"))
    {
      g_autofree char *text = g_strdup_printf ("%s %s\n", TV_CLI_PROGRAM_NAME, PACKAGE_VERSION);

      return tv_cli_write_stdout (text, strlen (text));
    }

  read_args (options, &args);
  n_files = args.files != NULL ? g_strv_length ((char **) args.files) : 0;
  if (option == NULL && (!args.compare || (n_files == 2 && !demo)))
    return -1;

  /* The window takes --demo alone; here it came with a command-line option. */
  if (demo)
    return tv_cli_fail (_("--demo opens the window and cannot be used with other options"));
  if (args.format == NULL)
    return tv_cli_run_not_export (&args);
  return run_export (&args);
}

static int
handle_local_options (GApplication *application,
                      GVariantDict *options,
                      gpointer      user_data)
{
  int status = tv_cli_handle_local_options (options);

  if (status < 0)
    return tv_cli_fail (_("This opens the viewer’s window, which this program does not have"));
  return status;
}

/**
 * tv_cli_run:
 * @argc: the argument count of main()
 * @argv: the arguments of main()
 *
 * The command line alone, without the window: a GApplication of no
 * uniqueness with the options of tv_cli_add_options().  What would open
 * the window fails.
 *
 * Returns: the exit status: 0 on success, 1 on any error
 */
int
tv_cli_run (int    argc,
            char **argv)
{
  g_autoptr(GApplication) application = g_application_new (NULL, G_APPLICATION_NON_UNIQUE);

  g_return_val_if_fail (argc > 0 && argv != NULL, TV_CLI_EXIT_FAILED);

  tv_cli_add_options (application);
  g_signal_connect (application, "handle-local-options", G_CALLBACK (handle_local_options),
                    NULL);
  return g_application_run (application, argc, argv);
}
