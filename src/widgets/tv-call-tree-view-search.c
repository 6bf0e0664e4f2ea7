/* tv-call-tree-view-search.c: the call tree's search and status line
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The search looks at every node of the tree on a worker (most samples
 * first); the status line says how many match, or what the tree holds.
 */
#include <glib/gi18n.h>

#include "tv-call-tree-view-private.h"
#include "tv-text.h"
#include "tv-units.h"

/* Search                                                                    */
/* ------------------------------------------------------------------------ */

typedef struct
{
  TvCallTree *tree;
  char       *needle;     /* ASCII-lowercased */
} SearchJob;

static void
search_job_free (gpointer data)
{
  SearchJob *job = data;

  tv_call_tree_unref (job->tree);
  g_free (job->needle);
  g_free (job);
}

static int
compare_match (gconstpointer a,
               gconstpointer b,
               gpointer      user_data)
{
  TvCallTree *tree = user_data;
  guint32 x = *(const guint32 *) a, y = *(const guint32 *) b;
  guint64 tx = tv_call_tree_get_total (tree, x), ty = tv_call_tree_get_total (tree, y);

  if (tx != ty)
    return tx < ty ? 1 : -1;
  return (x > y) - (x < y);
}

static gpointer
search_nodes (gpointer      job_data,
              GCancellable *cancellable)
{
  SearchJob *job = job_data;
  TvProfileData *data = tv_call_tree_get_data (job->tree);
  guint32 n_nodes = tv_call_tree_get_n_nodes (job->tree);
  /* Per frame: 0 not looked at yet, 1 no match, 2 a match. */
  g_autofree guint8 *frames = g_new0 (guint8, tv_profile_data_get_n_frames (data) + 1);
  GArray *matches = g_array_new (FALSE, FALSE, sizeof (guint32));

  for (guint32 node = 1; node < n_nodes; node++)
    {
      guint32 frame = tv_call_tree_get_frame (job->tree, node);

      if ((node & 0xffff) == 0 && g_cancellable_is_cancelled (cancellable))
        {
          g_array_unref (matches);
          return NULL;
        }
      if (frames[frame] == 0)
        frames[frame] =
          tv_text_contains_ascii_nocase (tv_profile_data_get_funcname (data, frame), job->needle)
          || tv_text_contains_ascii_nocase (tv_profile_data_get_filename (data, frame),
                                            job->needle)
          ? 2 : 1;
      if (frames[frame] == 2)
        g_array_append_val (matches, node);
    }
  g_array_sort_with_data (matches, compare_match, job->tree);
  return matches;
}

/* The newest search's matches (NULL: none, it was cancelled). */
static void
search_done (gpointer owner,
             gpointer data,
             gpointer result)
{
  TvCallTreeView *self = TV_CALL_TREE_VIEW (owner);
  GArray *matches = result;

  tv_call_tree_view_update_spinner (self);
  if (matches == NULL)
    return;
  g_clear_pointer (&self->matches, g_array_unref);
  self->matches = matches;
  self->match_index = 0;
  tv_call_tree_view_update_status (self);
  tv_call_tree_view_show_match (self);
}

void
tv_call_tree_view_start_search (TvCallTreeView *self)
{
  SearchJob *job;

  tv_worker_cancel (&self->search_worker);
  g_clear_pointer (&self->matches, g_array_unref);
  if (self->tree == NULL || self->search == NULL || self->search[0] == '\0')
    {
      tv_call_tree_view_update_spinner (self);
      tv_call_tree_view_update_status (self);
      return;
    }
  job = g_new0 (SearchJob, 1);
  job->tree = tv_call_tree_ref (self->tree);
  job->needle = g_ascii_strdown (self->search, -1);
  tv_worker_run (&self->search_worker, self, search_nodes, job, search_job_free,
                 (GDestroyNotify) g_array_unref, search_done);
  tv_call_tree_view_update_spinner (self);
}

void
tv_call_tree_view_update_status (TvCallTreeView *self)
{
  g_autofree char *text = NULL;

  if (self->tree == NULL)
    text = g_strdup (_("Computing…"));
  else if (tv_worker_is_busy (&self->search_worker))
    text = g_strdup (_("Searching…"));
  else if (self->matches != NULL && self->matches->len == 0)
    text = g_strdup (_("No match"));
  else if (self->matches != NULL)
    /* Translators: the call tree's search, e.g. "Match 2 of 15". */
    text = g_strdup_printf (_("Match %u of %u"), self->match_index + 1, self->matches->len);
  else
    {
      guint64 samples = tv_call_tree_get_n_samples (self->tree);
      g_autofree char *count = tv_format_count (samples);
      g_autofree char *seconds = tv_format_thread_time (tv_call_tree_samples_to_seconds (self->tree,
                                                                                         samples,
                                                                                         NULL));

      /* Translators: above the call tree, e.g. "1,234 samples, 9.63 s of
       * thread time". */
      text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s sample, %s",
                                           "%s samples, %s",
                                           samples > G_MAXULONG ? G_MAXULONG : (gulong) samples),
                              count, seconds);
    }
  gtk_label_set_text (self->status_label, text);
}
