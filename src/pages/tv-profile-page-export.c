/* tv-profile-page-export.c: the profile page's export: a copy of what the
 * views show, and the export's worker
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include <glib/gi18n.h>

#include "tv-profile-page-private.h"
#include "tv-export-gecko.h"
#include "tv-export-html.h"
#include "tv-export-image.h"
#include "tv-export-pprof.h"
#include "tv-export-pstats.h"
#include "tv-export-speedscope.h"
#include "tv-export-task.h"
#include "tv-flame-view.h"

/* What the name of the file chosen asks for. */
typedef enum
{
  EXPORT_HTML,
  EXPORT_IMAGE,
  EXPORT_PSTATS,
  EXPORT_PPROF,
  EXPORT_GECKO,
  EXPORT_SPEEDSCOPE,
} ExportKind;

typedef struct
{
  TvProfileData        *data;
  TvViewState          *state;          /* a copy: the window's moves on */
  char                 *source_name;
  ExportKind            kind;
  TvExportImageFormat   format;
  TvExportImageOptions  options;
} ExportJob;

static void
export_job_free (gpointer user_data)
{
  ExportJob *job = user_data;

  tv_profile_data_unref (job->data);
  g_clear_object (&job->state);
  g_free (job->source_name);
  g_free (job);
}

/* Every sample: written as it is made, straight into the file (through a
 * temporary one), never whole in memory. */
static gboolean
save_samples (ExportJob     *job,
              GFile         *dest,
              GCancellable  *cancellable,
              GError       **error)
{
  g_autofree char *path = g_file_get_path (dest);

  if (path == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                           _("This format can only be written to a local file"));
      return FALSE;
    }
  if (job->kind == EXPORT_GECKO)
    return tv_export_gecko_save (job->data, job->state, path, cancellable, error);
  return tv_export_speedscope_save (job->data, job->state, job->source_name, path,
                                    cancellable, error);
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

  switch (job->kind)
    {
    case EXPORT_GECKO:
    case EXPORT_SPEEDSCOPE:
      return save_samples (job, dest, cancellable, error);
    case EXPORT_IMAGE:
      *bytes = tv_export_image_build (job->data, job->state, job->format, &job->options,
                                      job->source_name, cancellable, error);
      break;
    case EXPORT_PSTATS:
      *bytes = tv_export_pstats_build (job->data, job->state, cancellable, error);
      break;
    case EXPORT_PPROF:
      *bytes = tv_export_pprof_build (job->data, job->state, job->source_name, cancellable,
                                      error);
      break;
    case EXPORT_HTML:
    default:
      *bytes = tv_export_html_build (job->data, job->state, job->source_name, cancellable,
                                     error);
      break;
    }
  return *bytes != NULL;
}

/* What the views show: the view state's choices, and the flame graph's
 * orientation, search and zoom (as the merge keys from the root down). */
static TvViewState *
dup_shown (TvProfilePage *self)
{
  TvViewState *state = tv_view_state_copy (self->view_state);
  g_autoptr(GArray) zoom = g_array_new (FALSE, FALSE, sizeof (guint32));
  TvFlameView *view = tv_profile_page_get_flame_view (self);
  TvFlameGraph *graph;
  TvCallTree *tree;

  if (view == NULL)
    return state;
  graph = tv_flame_view_get_graph (view);
  tree = tv_flame_graph_get_tree (graph);
  tv_view_state_set_orientation (state, tv_flame_graph_get_orientation (graph));
  tv_view_state_set_search (state, tv_flame_view_get_search (view));
  if (tree == NULL)
    return state;
  for (guint32 node = tv_flame_graph_get_zoom_root (graph);
       node != TV_ROOT_NODE && node != TV_NODE_NONE;
       node = tv_call_tree_get_parent (tree, node))
    {
      guint32 key = tv_call_tree_get_key (tree, node);

      g_array_prepend_val (zoom, key);
    }
  tv_view_state_set_zoom_path (state, (const guint32 *) (gpointer) zoom->data, zoom->len);
  return state;
}

/* An image when DEST ends in .svg, .png or .pdf, in the window's colours
 * and theme; pstats for .pstats, pprof for .pb.gz; the Firefox Profiler's
 * format or speedscope's when it ends in .gecko.json or .speedscope.json,
 * with the page's filters, transforms and merge key (not its inversion,
 * zoom or search: they hold every sample); else the HTML page. */
static void
fill_image_options (TvProfilePage *self,
                    GFile         *dest,
                    ExportJob     *job)
{
  g_autofree char *name = g_file_get_basename (dest);
  const char *dot = name != NULL ? strrchr (name, '.') : NULL;
  g_autofree char *extension = dot != NULL ? g_ascii_strdown (dot + 1, -1) : NULL;
  TvFlameView *view = tv_profile_page_get_flame_view (self);

  /* The statistics and the stacks of what the page shows, whatever the
   * graph's drawing: pstats has CPython's locations, pprof at least a
   * line for each. */
  if (name != NULL && g_str_has_suffix (name, ".pstats"))
    {
      job->kind = EXPORT_PSTATS;
      return;
    }
  if (name != NULL && g_str_has_suffix (name, ".pb.gz"))
    {
      job->kind = EXPORT_PPROF;
      if (tv_view_state_get_merge (job->state) == TV_MERGE_FUNCTION)
        tv_view_state_set_merge (job->state, TV_MERGE_LINE);
      return;
    }
  if (name != NULL && g_str_has_suffix (name, ".gecko.json"))
    {
      job->kind = EXPORT_GECKO;
      return;
    }
  if (name != NULL && g_str_has_suffix (name, ".speedscope.json"))
    {
      job->kind = EXPORT_SPEEDSCOPE;
      return;
    }
  if (extension == NULL || !tv_export_image_format_from_string (extension, &job->format))
    return;
  job->kind = EXPORT_IMAGE;
  tv_export_image_options_init (&job->options);
  job->options.dark = adw_style_manager_get_dark (adw_style_manager_get_default ());
  if (view != NULL)
    job->options.colors = tv_flame_graph_get_color_scheme (tv_flame_view_get_graph (view));
}

void
tv_profile_page_export_async (TvProfilePage       *self,
                              GFile               *dest,
                              GCancellable        *cancellable,
                              GAsyncReadyCallback  callback,
                              gpointer             user_data)
{
  g_autofree char *basename = NULL;
  ExportJob *job;

  g_return_if_fail (TV_IS_PROFILE_PAGE (self));
  g_return_if_fail (G_IS_FILE (dest));

  if (tv_profile_get_data (self->profile) == NULL)
    {
      g_task_report_new_error (self, callback, user_data, tv_profile_page_export_async,
                               G_IO_ERROR, G_IO_ERROR_NOT_INITIALIZED,
                               _("The profile is not loaded yet"));
      return;
    }

  basename = g_file_get_basename (self->file);
  job = g_new0 (ExportJob, 1);
  job->data = tv_profile_data_ref (tv_profile_get_data (self->profile));
  job->state = dup_shown (self);
  job->source_name = g_filename_display_name (basename != NULL ? basename : "profile");
  fill_image_options (self, dest, job);
  tv_export_task_run (self, tv_profile_page_export_async, dest, job, export_job_free,
                      build_export, cancellable, callback, user_data);
}

gboolean
tv_profile_page_export_finish (TvProfilePage  *self,
                               GAsyncResult   *result,
                               GError        **error)
{
  g_return_val_if_fail (TV_IS_PROFILE_PAGE (self), FALSE);

  return tv_export_task_finish (self, result, error);
}
