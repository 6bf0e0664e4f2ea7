/* tv-source-lines.c: a function's samples by line and instruction, and its file
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The source view's worker: it asks the model for the tree of the samples
 * the views select, merged by instruction (file, function, line, column,
 * opcode), adds up the function's nodes by line and by instruction, and
 * reads the source file when this machine has it.
 */
#include <string.h>

#include <glib/gi18n.h>

#include "tv-source-lines.h"
#include "tv-text.h"

#define MAX_SOURCE_BYTES  (8 * 1024 * 1024)

void
tv_source_lines_free (TvSourceLines *result)
{
  if (result == NULL)
    return;
  g_free (result->funcname);
  g_free (result->filename);
  g_clear_pointer (&result->lines, g_array_unref);
  g_clear_pointer (&result->instructions, g_array_unref);
  g_free (result->source);
  g_free (result->source_error);
  g_free (result);
}

/* ------------------------------------------------------------------------ */
/* The worker                                                                */
/* ------------------------------------------------------------------------ */

typedef struct
{
  TvProfileData *data;
  TvQuery        query;
  guint32       *threads;
  TvTimeRange   *ranges;
  guint32        function;
  guint32        frame;
  GStrv          map_from;
  GStrv          map_to;
} SourceJob;

static void
source_job_free (gpointer user_data)
{
  SourceJob *job = user_data;

  tv_profile_data_unref (job->data);
  g_free (job->threads);
  g_free (job->ranges);
  g_strfreev (job->map_from);
  g_strfreev (job->map_to);
  g_free (job);
}

static int
compare_lines (gconstpointer a,
               gconstpointer b)
{
  const TvSourceLineCount *x = a;
  const TvSourceLineCount *y = b;

  return (x->line > y->line) - (x->line < y->line);
}

static int
compare_instructions (gconstpointer a,
                      gconstpointer b)
{
  const TvSourceInstructionCount *x = a;
  const TvSourceInstructionCount *y = b;

  if (x->line != y->line)
    return (x->line > y->line) - (x->line < y->line);
  if (x->column != y->column)
    return (x->column > y->column) - (x->column < y->column);
  if (x->end_column != y->end_column)
    return (x->end_column > y->end_column) - (x->end_column < y->end_column);
  return (x->opcode > y->opcode) - (x->opcode < y->opcode);
}

/* Where FILENAME is on this machine: under the folder the user found for
 * a folder of it, else where the profile says. */
static char *
map_path (const char        *filename,
          const char * const *from,
          const char * const *to)
{
  for (guint i = 0; from != NULL && from[i] != NULL; i++)
    {
      gsize len = strlen (from[i]);

      if (strcmp (filename, from[i]) == 0)
        return g_strdup (to[i]);
      if (strncmp (filename, from[i], len) == 0 && filename[len] == '/')
        return g_strconcat (to[i], filename + len, NULL);
    }
  return g_strdup (filename);
}

static void
read_source (TvSourceLines      *result,
             const char * const *map_from,
             const char * const *map_to,
             GCancellable      *cancellable)
{
  g_autoptr(GFile) file = NULL;
  g_autoptr(GFileInfo) info = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *contents = NULL;
  g_autofree char *path = map_path (result->filename, map_from, map_to);
  gsize length = 0;

  /* Pseudo-files ("<string>", "<frozen ...>") name no file at all. */
  result->can_locate = result->filename[0] != '\0' && result->filename[0] != '<'
                       && strcmp (result->filename, "~") != 0;
  /* Relative paths name nothing on this machine, unless found. */
  if (!g_path_is_absolute (path))
    {
      result->source_error = g_strdup (_("The profile does not give a full path for this file."));
      return;
    }
  file = g_file_new_for_path (path);
  info = g_file_query_info (file, G_FILE_ATTRIBUTE_STANDARD_SIZE "," G_FILE_ATTRIBUTE_STANDARD_TYPE,
                            G_FILE_QUERY_INFO_NONE, cancellable, &error);
  /* GIO's messages quote the path, a name from the profile: cut. */
  if (info == NULL)
    {
      g_autofree char *reason = tv_text_dup_message (error->message, path);

      result->source_error = g_strdup_printf (_("The source file is not on this machine (%s)."),
                                              reason);
      return;
    }
  if (g_file_info_get_file_type (info) != G_FILE_TYPE_REGULAR
      || g_file_info_get_size (info) > MAX_SOURCE_BYTES)
    {
      result->source_error = g_strdup (_("The source file is not a regular file of at most 8 MiB."));
      return;
    }
  if (!g_file_load_contents (file, cancellable, &contents, &length, NULL, &error))
    {
      g_autofree char *reason = tv_text_dup_message (error->message, path);

      result->source_error = g_strdup_printf (_("The source file could not be read (%s)."),
                                              reason);
      return;
    }
  /* Shown as it is, with invalid bytes replaced. */
  result->source = g_utf8_make_valid (contents, length);
}

static void
source_thread (GTask        *task,
               gpointer      source_object,
               gpointer      task_data,
               GCancellable *cancellable)
{
  SourceJob *job = task_data;
  g_autoptr(TvCallTree) tree = NULL;
  g_autoptr(TvSourceLines) result = g_new0 (TvSourceLines, 1);
  g_autoptr(GHashTable) by_line = g_hash_table_new (g_direct_hash, g_direct_equal);
  g_autoptr(GHashTable) by_instruction = g_hash_table_new (g_str_hash, g_str_equal);
  g_autofree gboolean *under = NULL;
  g_autoptr(GPtrArray) keys = g_ptr_array_new_with_free_func (g_free);
  guint32 n_nodes;
  guint32 any_frame = TV_NODE_NONE;

  tree = tv_call_tree_new (job->data, &job->query, cancellable);
  if (tree == NULL)
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CANCELLED, "cancelled");
      return;
    }

  result->function = job->function;
  result->frame = job->frame;
  result->lines = g_array_new (FALSE, FALSE, sizeof (TvSourceLineCount));
  result->instructions = g_array_new (FALSE, FALSE, sizeof (TvSourceInstructionCount));

  /* under[n]: an ancestor of n is a call of the function.  Parents come
   * before their children. */
  n_nodes = tv_call_tree_get_n_nodes (tree);
  under = g_new0 (gboolean, n_nodes);
  for (guint32 node = 1; node < n_nodes; node++)
    {
      guint32 parent = tv_call_tree_get_parent (tree, node);
      gboolean is_function = tv_call_tree_get_function (tree, node) == job->function;
      TvFrameLocation location;
      const TvFrameLocation *f = &location;
      guint64 total, self;
      guint index;
      gpointer value;
      g_autofree char *ikey = NULL;

      g_assert (parent < node);
      under[node] = under[parent]
                    || (parent != TV_ROOT_NODE
                        && tv_call_tree_get_function (tree, parent) == job->function);
      if (!is_function)
        continue;
      if ((node & 4095) == 0 && g_cancellable_is_cancelled (cancellable))
        break;

      any_frame = tv_call_tree_get_frame (tree, node);
      tv_profile_data_get_frame_location (job->data, any_frame, &location);
      total = under[node] ? 0 : tv_call_tree_get_total (tree, node);
      self = tv_call_tree_get_self (tree, node);
      result->function_total += total;

      if (g_hash_table_lookup_extended (by_line, GINT_TO_POINTER (f->line), NULL, &value))
        index = GPOINTER_TO_UINT (value);
      else
        {
          TvSourceLineCount count = { f->line, 0, 0 };

          index = result->lines->len;
          g_array_append_val (result->lines, count);
          g_hash_table_insert (by_line, GINT_TO_POINTER (f->line), GUINT_TO_POINTER (index));
        }
      g_array_index (result->lines, TvSourceLineCount, index).total += total;
      g_array_index (result->lines, TvSourceLineCount, index).self += self;

      if (f->opcode == TV_OPCODE_NONE)
        continue;
      result->has_opcodes = TRUE;
      ikey = g_strdup_printf ("%d:%d:%d:%u", f->line, f->column, f->end_column, f->opcode);
      if (g_hash_table_lookup_extended (by_instruction, ikey, NULL, &value))
        index = GPOINTER_TO_UINT (value);
      else
        {
          TvSourceInstructionCount count = { f->line, f->column, f->end_column, f->opcode, 0, 0 };

          index = result->instructions->len;
          g_array_append_val (result->instructions, count);
          g_hash_table_insert (by_instruction, ikey, GUINT_TO_POINTER (index));
          g_ptr_array_add (keys, g_steal_pointer (&ikey));
        }
      g_array_index (result->instructions, TvSourceInstructionCount, index).total += total;
      g_array_index (result->instructions, TvSourceInstructionCount, index).self += self;
    }
  if (g_cancellable_is_cancelled (cancellable))
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CANCELLED, "cancelled");
      return;
    }
  g_array_sort (result->lines, compare_lines);
  g_array_sort (result->instructions, compare_instructions);

  /* Names come from the function's own frames (or the one asked about,
   * when no selected sample ran it). */
  if (any_frame == TV_NODE_NONE)
    any_frame = job->frame != TV_NODE_NONE
                ? job->frame
                : tv_profile_data_get_key_frame (job->data, TV_MERGE_FUNCTION, job->function);
  result->funcname = g_strdup (tv_profile_data_get_funcname (job->data, any_frame));
  result->filename = g_strdup (tv_profile_data_get_filename (job->data, any_frame));
  read_source (result, (const char * const *) job->map_from,
               (const char * const *) job->map_to, cancellable);

  g_task_return_pointer (task, g_steal_pointer (&result), (GDestroyNotify) tv_source_lines_free);
}

const TvSourceLineCount *
tv_source_lines_find (TvSourceLines *result,
                      int            line)
{
  TvSourceLineCount key = { line, 0, 0 };

  if (result == NULL || result->lines->len == 0)
    return NULL;
  return bsearch (&key, result->lines->data, result->lines->len, sizeof (TvSourceLineCount),
                  compare_lines);
}

void
tv_source_lines_load_async (TvProfileData       *data,
                            const TvQuery       *query,
                            guint32              function,
                            guint32              frame,
                            const char * const  *map_from,
                            const char * const  *map_to,
                            gpointer             source_object,
                            GCancellable        *cancellable,
                            GAsyncReadyCallback  callback,
                            gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  SourceJob *job = g_new0 (SourceJob, 1);

  job->data = tv_profile_data_ref (data);
  job->query = *query;
  if (query->threads != NULL)
    {
      job->threads = g_memdup2 (query->threads, query->n_threads * sizeof (guint32));
      job->query.threads = job->threads;
    }
  if (query->ranges != NULL)
    {
      job->ranges = g_memdup2 (query->ranges, query->n_ranges * sizeof (TvTimeRange));
      job->query.ranges = job->ranges;
    }
  job->function = function;
  job->frame = frame;
  job->map_from = g_strdupv ((char **) map_from);
  job->map_to = g_strdupv ((char **) map_to);

  task = g_task_new (source_object, cancellable, callback, user_data);
  g_task_set_source_tag (task, tv_source_lines_load_async);
  g_task_set_task_data (task, job, source_job_free);
  g_task_run_in_thread (task, source_thread);
}

TvSourceLines *
tv_source_lines_load_finish (GAsyncResult  *result,
                             GError       **error)
{
  g_return_val_if_fail (G_IS_TASK (result), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
