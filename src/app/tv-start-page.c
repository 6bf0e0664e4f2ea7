/* tv-start-page.c: what a window shows before a profile is open
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * An "Open" button (action win.open), a button for the bundled demo
 * profile (win.open-demo) and the recently opened Tachyon profiles from
 * GtkRecentManager; a row activates win.open-uri with the file's URI.
 */
#include "tv-application.h"
#include "tv-start-page.h"
#include "tv-text.h"

struct _TvStartPage
{
  AdwBin            parent_instance;

  GtkRecentManager *recent_manager;
  GSettings        *settings;
  guint             n_recent;

  GtkButton        *open_button;
  GtkButton        *demo_button;
  GtkListBox       *recent_list;
  GtkWidget        *recent_placeholder;
};

G_DEFINE_FINAL_TYPE (TvStartPage, tv_start_page, ADW_TYPE_BIN)

static gboolean
is_profile (GtkRecentInfo *info)
{
  const char *uri = gtk_recent_info_get_uri (info);
  const char *mime_type = gtk_recent_info_get_mime_type (info);

  return g_strcmp0 (mime_type, TV_PROFILE_MIME_TYPE) == 0 || g_str_has_suffix (uri, ".tach");
}

static int
compare_modified (gconstpointer a,
                  gconstpointer b)
{
  GDateTime *ma = gtk_recent_info_get_modified (*(GtkRecentInfo **) a);
  GDateTime *mb = gtk_recent_info_get_modified (*(GtkRecentInfo **) b);

  return -g_date_time_compare (ma, mb);
}

static void
refresh (TvStartPage *self)
{
  g_autoptr(GPtrArray) infos = g_ptr_array_new_with_free_func ((GDestroyNotify) gtk_recent_info_unref);
  GList *items = gtk_recent_manager_get_items (self->recent_manager);
  guint max = self->settings != NULL ? g_settings_get_uint (self->settings, "recent-max") : 10;

  for (GtkListBoxRow *row; (row = gtk_list_box_get_row_at_index (self->recent_list, 0)) != NULL;)
    gtk_list_box_remove (self->recent_list, GTK_WIDGET (row));

  for (GList *l = items; l != NULL; l = l->next)
    {
      GtkRecentInfo *info = l->data;

      /* No gtk_recent_info_exists (): it stats the file, and the UI thread
       * does no I/O.  A file that has gone away opens to an error page. */
      if (is_profile (info) && gtk_recent_info_is_local (info))
        g_ptr_array_add (infos, gtk_recent_info_ref (info));
    }
  g_list_free_full (items, (GDestroyNotify) gtk_recent_info_unref);
  g_ptr_array_sort (infos, compare_modified);

  self->n_recent = 0;
  for (guint i = 0; i < infos->len && i < max; i++)
    {
      GtkRecentInfo *info = g_ptr_array_index (infos, i);
      const char *uri = gtk_recent_info_get_uri (info);
      g_autoptr(GFile) file = g_file_new_for_uri (uri);
      g_autofree char *display = tv_text_dup_file_name (file);
      g_autofree char *parse_name = g_file_get_parse_name (file);
      g_autofree char *path = tv_text_dup_shown (parse_name);
      GtkWidget *row = adw_action_row_new ();

      adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), display);
      adw_action_row_set_subtitle (ADW_ACTION_ROW (row), path);
      gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), TRUE);
      gtk_actionable_set_action_name (GTK_ACTIONABLE (row), "win.open-uri");
      gtk_actionable_set_action_target (GTK_ACTIONABLE (row), "s", uri);
      gtk_list_box_append (self->recent_list, row);
      self->n_recent++;
    }
}

guint
tv_start_page_get_n_recent (TvStartPage *self)
{
  g_return_val_if_fail (TV_IS_START_PAGE (self), 0);

  return self->n_recent;
}

TvStartPage *
tv_start_page_new (void)
{
  return g_object_new (TV_TYPE_START_PAGE, NULL);
}

static void
tv_start_page_dispose (GObject *object)
{
  TvStartPage *self = (TvStartPage *)object;

  if (self->recent_manager != NULL)
    g_signal_handlers_disconnect_by_data (self->recent_manager, self);
  self->recent_manager = NULL;
  g_clear_object (&self->settings);
  gtk_widget_dispose_template (GTK_WIDGET (self), TV_TYPE_START_PAGE);

  G_OBJECT_CLASS (tv_start_page_parent_class)->dispose (object);
}

static void
tv_start_page_class_init (TvStartPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tv_start_page_dispose;

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/tachyonviewer/TachyonViewer/ui/tv-start-page.ui");
  gtk_widget_class_bind_template_child (widget_class, TvStartPage, open_button);
  gtk_widget_class_bind_template_child (widget_class, TvStartPage, demo_button);
  gtk_widget_class_bind_template_child (widget_class, TvStartPage, recent_list);
  gtk_widget_class_bind_template_child (widget_class, TvStartPage, recent_placeholder);
}

static void
tv_start_page_init (TvStartPage *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  self->settings = tv_application_new_settings ();
  /* The default manager is a singleton that outlives every page. */
  self->recent_manager = gtk_recent_manager_get_default ();
  g_signal_connect_swapped (self->recent_manager, "changed", G_CALLBACK (refresh), self);
  if (self->settings != NULL)
    g_signal_connect_swapped (self->settings, "changed::recent-max", G_CALLBACK (refresh), self);
  refresh (self);
}
