/* tv-profile-page.c: the page of one profile in a tab
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The page starts loading its profile when it is created.  While samples
 * are decoded it shows a progress bar and a Cancel button above the
 * properties, which appear as soon as the model emits "opened"; once
 * they are in, the flame graph (TvFlameView) shows.  The profile's
 * TvViewState, which its views share, lives here.  A file
 * that cannot be read shows its error message instead; a cancelled load
 * says so.  Both offer Reload, which replaces the page's profile (and its
 * views and view state) with a fresh load of the same file, in the same
 * tab.
 *
 * Once loaded, a GFileMonitor watches the file.  Its events only start a
 * check on a worker (tv_profile_check_file_async) of the file's size, time
 * and inode against what was read, so that nothing but a real change (not
 * a read of the file, say, on a file system whose monitor polls) shows the
 * banner that offers to reload.
 */

#include <glib/gi18n.h>

#include "tv-export-task.h"
#include "tv-flame-view.h"
#include "tv-profile-page-private.h"
#include "tv-tach-error.h"
#include "tv-timeline-view.h"
#include "tv-trace-paint.h"

G_DEFINE_FINAL_TYPE (TvProfilePage, tv_profile_page, ADW_TYPE_BIN)

enum {
  PROP_0,
  PROP_STATE,
  PROP_LOADING,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void update_range  (TvProfilePage *self);
static void show_findings (TvProfilePage *self);

void
tv_profile_page_set_state (TvProfilePage      *self,
                           TvProfilePageState  state)
{
  gboolean was_loading = self->state == TV_PROFILE_PAGE_LOADING;

  if (self->state == state)
    return;

  self->state = state;
  gtk_widget_set_visible (self->progress_box, state == TV_PROFILE_PAGE_LOADING);
  switch (state)
    {
    case TV_PROFILE_PAGE_LOADING:
    case TV_PROFILE_PAGE_LOADED:
      gtk_stack_set_visible_child_name (self->stack, "content");
      break;
    case TV_PROFILE_PAGE_FAILED:
      gtk_stack_set_visible_child_name (self->stack, "error");
      break;
    case TV_PROFILE_PAGE_CANCELLED:
      gtk_stack_set_visible_child_name (self->stack, "cancelled");
      break;
    default:
      g_assert_not_reached ();
    }

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STATE]);
  if (was_loading != (state == TV_PROFILE_PAGE_LOADING))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LOADING]);
}

void
tv_profile_page_update_progress (TvProfilePage *self)
{
  guint64 samples = tv_profile_get_samples_loaded (self->profile);
  g_autofree char *number = g_strdup_printf ("%" G_GUINT64_FORMAT, samples);
  g_autofree char *text = NULL;

  if (tv_profile_get_state (self->profile) < TV_PROFILE_DECODING)
    {
      gtk_progress_bar_set_text (self->progress_bar, _("Opening…"));
      return;
    }

  text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s sample decoded",
                                       "%s samples decoded",
                                       samples > G_MAXULONG ? G_MAXULONG : (gulong) samples),
                          number);
  gtk_progress_bar_set_text (self->progress_bar, text);
  gtk_progress_bar_set_fraction (self->progress_bar, tv_profile_get_fraction (self->profile));
}

void
tv_profile_page_on_progress_notify (TvProfilePage *self)
{
  if (self->state == TV_PROFILE_PAGE_LOADING)
    tv_profile_page_update_progress (self);
}

void
tv_profile_page_on_opened (TvProfilePage *self)
{
  if (self->state != TV_PROFILE_PAGE_LOADING)
    return;

  tv_trace_stage (self->profile, self->file, TV_TRACE_OPENED);
  tv_properties_set_profile (self->properties, self->profile);
  tv_trace_paint (GTK_WIDGET (self), self->profile, TV_TRACE_PROPERTIES, NULL);
  tv_profile_page_update_progress (self);
}

/* The settings of the application's schema, or NULL when it is not
 * installed (the pages cannot ask the application for them). */
static GSettings *
lookup_settings (void)
{
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr(GSettingsSchema) schema = NULL;

  if (source != NULL)
    schema = g_settings_schema_source_lookup (source, "io.github.tachyonviewer.TachyonViewer",
                                              TRUE);
  return schema != NULL ? g_settings_new_full (schema, NULL, NULL) : NULL;
}

/* The handle between the timeline and the flame graph was moved: the next
 * page (and the next start) opens the timeline as high.  Until then the
 * paned follows the timeline's natural height and keeps nothing; nor is a
 * position kept that the paned moved itself, to fit a smaller window. */
static void
on_paned_moved (TvProfilePage *self)
{
  gboolean set = FALSE;
  int position, height;

  if (self->settings == NULL || self->paned == NULL)
    return;
  height = gtk_widget_get_height (self->paned);
  if (self->paned_height > 0 && height != self->paned_height)
    {
      self->paned_height = height;
      return;
    }
  self->paned_height = height;
  g_object_get (self->paned, "position-set", &set, NULL);
  if (!set)
    return;
  position = gtk_paned_get_position (GTK_PANED (self->paned));
  if (position > 0 && position != g_settings_get_int (self->settings, "timeline-height"))
    g_settings_set_int (self->settings, "timeline-height", position);
}

/* The graph and the timeline, linked: the timeline shows where the
 * samples of what the flame view picks fall, in its lanes and heatmap.
 * That is the search's matches while there is a search; else the
 * function of the frame selected in the graph; else the function picked
 * in the table (its matches); else nothing. */
static void
update_highlight (TvProfilePage *self)
{
  TvFlameView *flame;
  TvFlameGraph *graph;
  TvFlameMatches *matches;
  TvCallTree *tree;
  const char *search;
  guint32 node;

  if (self->flame_view == NULL || self->timeline_view == NULL)
    return;
  flame = TV_FLAME_VIEW (self->flame_view);
  graph = tv_flame_view_get_graph (flame);
  matches = tv_flame_view_get_matches (flame);
  search = tv_flame_view_get_search (flame);
  tree = tv_flame_graph_get_tree (graph);
  node = tv_flame_graph_get_selected (graph);
  if (search != NULL && search[0] != '\0')
    {
      /* A new tree's matches are on their way: keep what shows until
       * they come (an invalid search has none and is not busy). */
      if (matches == NULL && tv_flame_view_is_busy (flame))
        return;
      tv_timeline_view_set_highlight (TV_TIMELINE_VIEW (self->timeline_view), matches,
                                      TV_NODE_NONE);
    }
  else if (tree != NULL && node != TV_NODE_NONE && node != TV_ROOT_NODE
           && node < tv_call_tree_get_n_nodes (tree))
    tv_timeline_view_set_highlight (TV_TIMELINE_VIEW (self->timeline_view), NULL,
                                    tv_call_tree_get_function (tree, node));
  else
    tv_timeline_view_set_highlight (TV_TIMELINE_VIEW (self->timeline_view), matches,
                                    TV_NODE_NONE);
}

static gboolean
timeline_ready (GtkWidget *view)
{
  return tv_timeline_view_get_timeline (TV_TIMELINE_VIEW (view)) != NULL;
}

void
tv_profile_page_on_load_finished (GObject      *object,
                                  GAsyncResult *result,
                                  gpointer      user_data)
{
  g_autoptr(TvProfilePage) self = user_data;
  g_autoptr(GError) error = NULL;

  tv_profile_load_finish (TV_PROFILE (object), result, &error);

  /* The page was closed while it loaded, or reloaded since. */
  if (self->stack == NULL || TV_PROFILE (object) != self->profile)
    return;

  if (error == NULL)
    {
      tv_trace_stage (self->profile, self->file, TV_TRACE_OPENED);
      tv_trace_stage (self->profile, self->file, TV_TRACE_DECODED);
      if (tv_properties_get_profile (self->properties) == NULL)
        tv_properties_set_profile (self->properties, self->profile);
      tv_trace_paint (GTK_WIDGET (self), self->profile, TV_TRACE_PROPERTIES, NULL);
      tv_properties_show_data (self->properties);
      self->flame_view = tv_flame_view_new (self->profile, self->view_state);
      self->timeline_view = tv_timeline_view_new (self->profile, self->view_state);
      tv_trace_paint (self->timeline_view, self->profile, TV_TRACE_TIMELINE, timeline_ready);
      /* Hidden, not removed: a reload shows it again. */
      gtk_widget_set_visible (self->flame_placeholder, FALSE);
      /* The timeline above the flame graph, sharing the view state. */
      self->paned = gtk_paned_new (GTK_ORIENTATION_VERTICAL);
      gtk_paned_set_start_child (GTK_PANED (self->paned), self->timeline_view);
      gtk_paned_set_end_child (GTK_PANED (self->paned), self->flame_view);
      gtk_paned_set_resize_start_child (GTK_PANED (self->paned), FALSE);
      gtk_paned_set_shrink_start_child (GTK_PANED (self->paned), FALSE);
      gtk_paned_set_shrink_end_child (GTK_PANED (self->paned), FALSE);
      /* As the user last sized it; else the timeline's natural height,
       * which fits its lanes (up to eight), since the paned resizes
       * only the flame graph. */
      if (self->settings != NULL && g_settings_get_int (self->settings, "timeline-height") > 0)
        gtk_paned_set_position (GTK_PANED (self->paned),
                                g_settings_get_int (self->settings, "timeline-height"));
      self->paned_height = 0;
      g_signal_connect_object (self->paned, "notify::position", G_CALLBACK (on_paned_moved),
                               self, G_CONNECT_SWAPPED);
      gtk_widget_set_vexpand (self->paned, TRUE);
      gtk_box_append (self->flame_box, self->paned);
      g_signal_connect_object (self->view_state, "changed", G_CALLBACK (update_range), self,
                               G_CONNECT_SWAPPED);
      g_signal_connect_object (self->flame_view, "notify::matches",
                               G_CALLBACK (update_highlight), self, G_CONNECT_SWAPPED);
      g_signal_connect_object (tv_flame_view_get_graph (TV_FLAME_VIEW (self->flame_view)),
                               "notify::selected", G_CALLBACK (update_highlight), self,
                               G_CONNECT_SWAPPED);
      g_signal_connect_object (tv_flame_view_get_graph (TV_FLAME_VIEW (self->flame_view)),
                               "notify::tree", G_CALLBACK (update_highlight), self,
                               G_CONNECT_SWAPPED);
      adw_view_stack_set_visible_child_name (self->views, "flamegraph");
      tv_profile_page_set_state (self, TV_PROFILE_PAGE_LOADED);
      gtk_widget_action_set_enabled (GTK_WIDGET (self), "page.export", TRUE);
      show_findings (self);
      tv_profile_page_watch_file (self);
    }
  else if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      tv_profile_page_set_state (self, TV_PROFILE_PAGE_CANCELLED);
    }
  else
    {
      TvLoadFailure failure = tv_load_failure_from_error (error);

      g_free (self->error_message);
      self->error_message = g_strdup (error->message);
      adw_status_page_set_title (self->error_page,
                                 failure == TV_LOAD_FAILURE_CHANGED
                                 ? _("The File Changed While It Was Read")
                                 : _("Could Not Open the Profile"));
      /* First what it means, in a sentence; the library's message, which
       * names the field and the offset, for whoever wants it. */
      adw_status_page_set_description (self->error_page, tv_load_failure_describe (failure));
      gtk_label_set_text (self->error_details, error->message);
      gtk_expander_set_expanded (self->error_expander, FALSE);
      tv_profile_page_set_state (self, TV_PROFILE_PAGE_FAILED);
    }
}

/* ------------------------------------------------------------------------ */
/* The data-quality banner                                                   */
/* ------------------------------------------------------------------------ */

static const char *
severity_icon (TvSeverity severity)
{
  return severity == TV_SEVERITY_SEVERE ? "dialog-error-symbolic"
         : severity == TV_SEVERITY_WARNING ? "dialog-warning-symbolic"
         : "dialog-information-symbolic";
}

/* The worst finding, in the banner that stays above the views: the user
 * draws conclusions from the flame graph, not from Properties.  Notices
 * (the library's remarks on the file) do not change what the figures
 * mean, and stay in Properties only. */
static void
show_findings (TvProfilePage *self)
{
  GPtrArray *findings = tv_profile_get_findings (self->profile);
  const TvFinding *worst;
  guint n_shown = 0;
  g_autofree char *text = NULL;

  for (guint i = 0; findings != NULL && i < findings->len; i++)
    {
      const TvFinding *finding = g_ptr_array_index (findings, i);

      n_shown += finding->severity >= TV_SEVERITY_WARNING;
    }
  if (n_shown == 0)
    {
      gtk_revealer_set_reveal_child (self->quality_banner, FALSE);
      return;
    }

  worst = g_ptr_array_index (findings, 0);
  if (n_shown == 1)
    text = g_strdup (worst->message);
  else
    /* Translators: %s is a sentence; %u the number of further warnings. */
    text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s (and %u more warning)",
                                         "%s (and %u more warnings)", n_shown - 1),
                            worst->message, n_shown - 1);
  gtk_label_set_text (self->quality_banner_label, text);
  gtk_image_set_from_icon_name (self->quality_banner_icon, severity_icon (worst->severity));
  gtk_revealer_set_reveal_child (self->quality_banner, TRUE);
}

static void
show_warnings_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *parameter)
{
  TvProfilePage *self = TV_PROFILE_PAGE (widget);

  adw_view_stack_set_visible_child_name (self->views, "properties");
  tv_properties_reveal_warnings (self->properties);
}

/* Closes the tab that holds the page, whichever is selected. */
static void
close_action (GtkWidget  *widget,
              const char *action_name,
              GVariant   *parameter)
{
  GtkWidget *view = gtk_widget_get_ancestor (widget, ADW_TYPE_TAB_VIEW);
  AdwTabPage *tab;

  if (view == NULL)
    return;
  tab = adw_tab_view_get_page (ADW_TAB_VIEW (view), widget);
  if (tab != NULL)
    adw_tab_view_close_page (ADW_TAB_VIEW (view), tab);
}

/* The properties' per-thread figures follow the selected time range. */
static void
update_range (TvProfilePage *self)
{
  TvTimeline *timeline = self->timeline_view != NULL
                         ? tv_timeline_view_get_timeline (TV_TIMELINE_VIEW (self->timeline_view))
                         : NULL;
  TvTimeRange range;
  guint n_ranges;
  const TvTimeRange *ranges = tv_view_state_get_ranges (self->view_state, &n_ranges);

  if (ranges == NULL && tv_view_state_get_range (self->view_state, &range.start, &range.end))
    {
      ranges = &range;
      n_ranges = 1;
    }
  tv_properties_show_range (self->properties, timeline, ranges, n_ranges);
}

/* The flame graph's search, shown and focused. */
static void
search_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  TvProfilePage *self = TV_PROFILE_PAGE (widget);

  if (self->flame_view == NULL)
    return;
  tv_profile_page_show_view (self, "flamegraph");
  gtk_widget_activate_action (self->flame_view, "view.search", NULL);
}

/* What the Export dialog offers, the HTML page first. */
static const TvExportFileType export_types[] = {
  { N_("Web Page (HTML)"), "text/html", ".html" },
  { N_("SVG Image"), "image/svg+xml", ".svg" },
  { N_("PNG Image"), "image/png", ".png" },
  { N_("PDF Document"), "application/pdf", ".pdf" },
  /* By name alone: no MIME type says what these hold. */
  { N_("Python Statistics (pstats)"), NULL, ".pstats" },
  { N_("pprof Profile"), NULL, ".pb.gz" },
  { N_("Firefox Profiler (Gecko JSON)"), "application/json", ".gecko.json" },
  { N_("speedscope (JSON)"), "application/json", ".speedscope.json" },
};

static void
export_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  TvProfilePage *self = TV_PROFILE_PAGE (widget);
  g_autofree char *stem = NULL;
  g_autofree char *suggested = NULL;

  if (self->state != TV_PROFILE_PAGE_LOADED)
    return;
  /* "run.bin" exports to "run.html". */
  stem = tv_export_dup_stem (self->file, "profile");
  suggested = g_strconcat (stem, ".html", NULL);
  tv_export_dialog_show (widget, ADW_TOAST_OVERLAY (adw_bin_get_child (ADW_BIN (self))),
                         self->export_progress_box, _("Export the Flame Graph"), export_types,
                         G_N_ELEMENTS (export_types), self->file, suggested,
                         (TvExportStartFunc) tv_profile_page_export_async, self->cancellable);
}

void
tv_profile_page_cancel (TvProfilePage *self)
{
  g_return_if_fail (TV_IS_PROFILE_PAGE (self));

  tv_profile_page_cancel_load (self);
  g_cancellable_cancel (self->cancellable);
}

TvProfileFileState
tv_profile_page_get_file_state (TvProfilePage *self)
{
  g_return_val_if_fail (TV_IS_PROFILE_PAGE (self), TV_PROFILE_FILE_UNCHANGED);

  return self->file_state;
}

GFile *
tv_profile_page_get_file (TvProfilePage *self)
{
  g_return_val_if_fail (TV_IS_PROFILE_PAGE (self), NULL);

  return self->file;
}

TvProfile *
tv_profile_page_get_profile (TvProfilePage *self)
{
  g_return_val_if_fail (TV_IS_PROFILE_PAGE (self), NULL);

  return self->profile;
}

TvProfilePageState
tv_profile_page_get_state (TvProfilePage *self)
{
  g_return_val_if_fail (TV_IS_PROFILE_PAGE (self), TV_PROFILE_PAGE_FAILED);

  return self->state;
}

gboolean
tv_profile_page_get_loading (TvProfilePage *self)
{
  g_return_val_if_fail (TV_IS_PROFILE_PAGE (self), FALSE);

  return self->state == TV_PROFILE_PAGE_LOADING;
}

const char *
tv_profile_page_get_error_message (TvProfilePage *self)
{
  g_return_val_if_fail (TV_IS_PROFILE_PAGE (self), NULL);

  return self->error_message;
}

TvFlameView *
tv_profile_page_get_flame_view (TvProfilePage *self)
{
  g_return_val_if_fail (TV_IS_PROFILE_PAGE (self), NULL);

  return self->flame_view != NULL ? TV_FLAME_VIEW (self->flame_view) : NULL;
}

TvTimelineView *
tv_profile_page_get_timeline_view (TvProfilePage *self)
{
  g_return_val_if_fail (TV_IS_PROFILE_PAGE (self), NULL);

  return self->timeline_view != NULL ? TV_TIMELINE_VIEW (self->timeline_view) : NULL;
}

TvViewState *
tv_profile_page_get_view_state (TvProfilePage *self)
{
  g_return_val_if_fail (TV_IS_PROFILE_PAGE (self), NULL);

  return self->view_state;
}

void
tv_profile_page_show_view (TvProfilePage *self,
                           const char    *name)
{
  g_return_if_fail (TV_IS_PROFILE_PAGE (self));

  adw_view_stack_set_visible_child_name (self->views, name);
}

TvProperties *
tv_profile_page_get_properties (TvProfilePage *self)
{
  g_return_val_if_fail (TV_IS_PROFILE_PAGE (self), NULL);

  return self->properties;
}

TvProfilePage *
tv_profile_page_new (GFile *file)
{
  TvProfilePage *self;

  g_return_val_if_fail (G_IS_FILE (file), NULL);

  self = g_object_new (TV_TYPE_PROFILE_PAGE, NULL);
  self->file = g_object_ref (file);
  tv_profile_page_start_load (self);
  return self;
}

static void
tv_profile_page_dispose (GObject *object)
{
  TvProfilePage *self = (TvProfilePage *)object;

  g_cancellable_cancel (self->cancellable);
  tv_profile_page_cancel_load (self);
  tv_profile_page_stop_watching (self);
  gtk_widget_dispose_template (GTK_WIDGET (self), TV_TYPE_PROFILE_PAGE);
  self->properties = NULL;
  self->flame_view = NULL;
  self->timeline_view = NULL;
  self->paned = NULL;
  g_clear_object (&self->settings);

  G_OBJECT_CLASS (tv_profile_page_parent_class)->dispose (object);
}

static void
tv_profile_page_finalize (GObject *object)
{
  TvProfilePage *self = (TvProfilePage *)object;

  g_clear_object (&self->view_state);
  g_clear_object (&self->profile);
  g_clear_object (&self->file);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->load_cancellable);
  g_clear_pointer (&self->error_message, g_free);

  G_OBJECT_CLASS (tv_profile_page_parent_class)->finalize (object);
}

static void
tv_profile_page_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  TvProfilePage *self = TV_PROFILE_PAGE (object);

  switch (prop_id)
    {
    case PROP_STATE:
      g_value_set_int (value, self->state);
      break;
    case PROP_LOADING:
      g_value_set_boolean (value, tv_profile_page_get_loading (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tv_profile_page_class_init (TvProfilePageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tv_profile_page_dispose;
  object_class->finalize = tv_profile_page_finalize;
  object_class->get_property = tv_profile_page_get_property;

  properties[PROP_STATE] =
    g_param_spec_int ("state", NULL, NULL,
                      TV_PROFILE_PAGE_LOADING, TV_PROFILE_PAGE_CANCELLED, TV_PROFILE_PAGE_LOADING,
                      G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_LOADING] =
    g_param_spec_boolean ("loading", NULL, NULL, TRUE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/tachyonviewer/TachyonViewer/ui/tv-profile-page.ui");
  gtk_widget_class_bind_template_child (widget_class, TvProfilePage, stack);
  gtk_widget_class_bind_template_child (widget_class, TvProfilePage, progress_box);
  gtk_widget_class_bind_template_child (widget_class, TvProfilePage, export_progress_box);
  gtk_widget_class_bind_template_child (widget_class, TvProfilePage, progress_bar);
  gtk_widget_class_bind_template_child (widget_class, TvProfilePage, cancel_button);
  gtk_widget_class_bind_template_child (widget_class, TvProfilePage, properties_box);
  gtk_widget_class_bind_template_child (widget_class, TvProfilePage, views);
  gtk_widget_class_bind_template_child (widget_class, TvProfilePage, flame_box);
  gtk_widget_class_bind_template_child (widget_class, TvProfilePage, flame_placeholder);
  gtk_widget_class_bind_template_child (widget_class, TvProfilePage, error_page);
  gtk_widget_class_bind_template_child (widget_class, TvProfilePage, error_expander);
  gtk_widget_class_bind_template_child (widget_class, TvProfilePage, error_details);
  gtk_widget_class_bind_template_child (widget_class, TvProfilePage, error_reload_button);
  gtk_widget_class_bind_template_child (widget_class, TvProfilePage, quality_banner);
  gtk_widget_class_bind_template_child (widget_class, TvProfilePage, quality_banner_icon);
  gtk_widget_class_bind_template_child (widget_class, TvProfilePage, quality_banner_label);
  gtk_widget_class_bind_template_child (widget_class, TvProfilePage, quality_banner_button);
  gtk_widget_class_bind_template_child (widget_class, TvProfilePage, error_open_button);
  gtk_widget_class_bind_template_child (widget_class, TvProfilePage, error_close_button);
  gtk_widget_class_bind_template_child (widget_class, TvProfilePage, file_banner);
  gtk_widget_class_bind_template_child (widget_class, TvProfilePage, file_banner_label);
  gtk_widget_class_bind_template_child (widget_class, TvProfilePage, file_banner_button);

  g_type_ensure (TV_TYPE_PROPERTIES);

  gtk_widget_class_install_action (widget_class, "page.export", NULL, export_action);
  gtk_widget_class_install_action (widget_class, "page.search", NULL, search_action);
  gtk_widget_class_install_action (widget_class, "page.reload", NULL,
                                   tv_profile_page_reload_action);
  gtk_widget_class_install_action (widget_class, "page.show-warnings", NULL, show_warnings_action);
  gtk_widget_class_install_action (widget_class, "page.close", NULL, close_action);
  /* Ctrl+F from anywhere in the page (the timeline, the properties): the
   * flame view's own binding only sees keys from inside it. */
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_f, GDK_CONTROL_MASK,
                                       "page.search", NULL);
}

static void
tv_profile_page_init (TvProfilePage *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  self->cancellable = g_cancellable_new ();
  self->state = TV_PROFILE_PAGE_LOADING;
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "page.export", FALSE);
  self->settings = lookup_settings ();
  self->view_state = tv_view_state_new ();
  self->properties = tv_properties_new ();
  gtk_widget_set_vexpand (GTK_WIDGET (self->properties), TRUE);
  gtk_box_append (self->properties_box, GTK_WIDGET (self->properties));
  g_signal_connect_swapped (self->cancel_button, "clicked",
                            G_CALLBACK (tv_profile_page_cancel_load), self);
}
