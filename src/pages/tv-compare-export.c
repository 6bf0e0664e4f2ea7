/* tv-compare-export.c: a comparison's export, the differential page
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What the comparison's export builds: the differential HTML page of the
 * diff shown, with both sides' filters when one filter says them, the
 * merge key, the normalisation and the search.  The dialog, the worker,
 * the atomic write and the toast are the shared export flow's
 * (tv-export-task.h).
 */

#include <glib/gi18n.h>

#include "tv-compare-page-private.h"
#include "tv-export-html.h"
#include "tv-export-task.h"

typedef struct
{
  TvDiff         *diff;
  TvViewState    *state;          /* NULL: no one filter says it */
  char           *base_name;
  char           *new_name;
  char           *search;
} ExportJob;

static void
export_job_free (ExportJob *job)
{
  tv_diff_unref (job->diff);
  g_clear_object (&job->state);
  g_free (job->base_name);
  g_free (job->new_name);
  g_free (job->search);
  g_free (job);
}

/* On the export's worker. */
static gboolean
build_export (gpointer       user_data,
              GFile         *dest,
              GBytes       **bytes,
              GCancellable  *cancellable,
              GError       **error)
{
  ExportJob *job = user_data;

  *bytes = tv_export_html_build_diff (job->diff, job->state,
                                      job->base_name, job->new_name, job->search, cancellable,
                                      error);
  return *bytes != NULL;
}

/* The page says what both sides were filtered by: the state filter and
 * the transforms (the same on both sides, as NEW's function keys), from a
 * copy of NEW's view state.  When the sides' filters differ (a thread
 * chosen on either side, or another state), no one filter says it: NULL,
 * and the page says nothing. */
static TvViewState *
dup_shown (TvComparePage *self)
{
  TvComparison *c = self->comparison;
  TvViewState *base =
    tv_comparison_get_view_state (c, tv_comparison_get_diff_side (c, TV_DIFF_SIDE_BASE));
  TvViewState *new_state =
    tv_comparison_get_view_state (c, tv_comparison_get_diff_side (c, TV_DIFF_SIDE_NEW));
  TvViewState *shown;
  guint n_base, n_new;

  tv_view_state_get_threads (base, &n_base);
  tv_view_state_get_threads (new_state, &n_new);
  if (n_base > 0 || n_new > 0
      || tv_view_state_get_state_filter (base) != tv_view_state_get_state_filter (new_state))
    return NULL;
  shown = tv_view_state_copy (new_state);
  tv_view_state_clear_range (shown);
  tv_view_state_set_merge (shown, tv_comparison_get_merge (c));
  return shown;
}

void
tv_compare_page_export_async (TvComparePage       *self,
                              GFile               *dest,
                              GCancellable        *cancellable,
                              GAsyncReadyCallback  callback,
                              gpointer             user_data)
{
  TvDiff *diff;
  ExportJob *job;

  g_return_if_fail (TV_IS_COMPARE_PAGE (self));
  g_return_if_fail (G_IS_FILE (dest));

  if ((diff = tv_comparison_get_diff (self->comparison)) == NULL)
    {
      g_task_report_new_error (self, callback, user_data, tv_compare_page_export_async,
                               G_IO_ERROR, G_IO_ERROR_NOT_INITIALIZED,
                               _("The comparison is not ready yet"));
      return;
    }
  job = g_new0 (ExportJob, 1);
  job->diff = tv_diff_ref (diff);
  job->state = dup_shown (self);
  job->base_name = g_file_get_basename (_tv_compare_page_diff_side_file (self, TV_DIFF_SIDE_BASE));
  job->new_name = g_file_get_basename (_tv_compare_page_diff_side_file (self, TV_DIFF_SIDE_NEW));
  job->search = g_strdup (self->search != NULL && self->search[0] != '\0' ? self->search : NULL);
  tv_export_task_run (self, tv_compare_page_export_async, dest, job,
                      (GDestroyNotify) export_job_free, build_export, cancellable, callback,
                      user_data);
}

gboolean
tv_compare_page_export_finish (TvComparePage  *self,
                               GAsyncResult   *result,
                               GError        **error)
{
  g_return_val_if_fail (TV_IS_COMPARE_PAGE (self), FALSE);

  return tv_export_task_finish (self, result, error);
}

/* The file name of the diff's SIDE without its extension: "run.bin" is
 * "run". */
static char *
dup_stem (TvComparePage *self,
          TvDiffSide     side)
{
  return tv_export_dup_stem (_tv_compare_page_diff_side_file (self, side), _tv_compare_page_side_name (side));
}

void
_tv_compare_page_export_action (GtkWidget  *widget,
                                const char *action_name,
                                GVariant   *parameter)
{
  static const TvExportFileType types[] = { { N_("Web Page (HTML)"), "text/html", ".html" } };
  TvComparePage *self = TV_COMPARE_PAGE (widget);
  g_autofree char *base_stem = NULL;
  g_autofree char *new_stem = NULL;
  g_autofree char *suggested = NULL;

  if (tv_comparison_get_diff (self->comparison) == NULL)
    return;
  base_stem = dup_stem (self, TV_DIFF_SIDE_BASE);
  new_stem = dup_stem (self, TV_DIFF_SIDE_NEW);
  /* "a.bin" against "b.bin" exports to "a-vs-b.html": two comparisons
   * exported to one folder do not take each other's name. */
  suggested = g_strdup_printf ("%s-vs-%s.html", base_stem, new_stem);
  tv_export_dialog_show (widget, ADW_TOAST_OVERLAY (adw_bin_get_child (ADW_BIN (self))),
                         self->export_progress_box, _("Export the Comparison"), types,
                         G_N_ELEMENTS (types),
                         _tv_compare_page_diff_side_file (self, TV_DIFF_SIDE_NEW), suggested,
                         (TvExportStartFunc) tv_compare_page_export_async, self->cancellable);
}

