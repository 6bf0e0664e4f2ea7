/* tv-profile-page-file.c: loading the profile page's file, reloading it, and
 * watching it for changes
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib/gi18n.h>

#include "tv-profile-page-private.h"

/* A monitor's events come in bursts while a file is written: look once
 * they have settled. */
#define CHECK_DELAY_MS 250

static void
show_file_state (TvProfilePage      *self,
                 TvProfileFileState  state)
{
  self->file_state = state;
  switch (state)
    {
    case TV_PROFILE_FILE_CHANGED:
      gtk_label_set_text (self->file_banner_label, _("The file changed on disk."));
      gtk_widget_set_visible (self->file_banner_button, TRUE);
      break;
    case TV_PROFILE_FILE_DELETED:
      /* Reload would only fail; a file that comes back is a change. */
      gtk_label_set_text (self->file_banner_label,
                          _("The file is no longer on disk. The profile shows what was read."));
      gtk_widget_set_visible (self->file_banner_button, FALSE);
      break;
    case TV_PROFILE_FILE_UNCHANGED:
    default:
      break;
    }
  gtk_revealer_set_reveal_child (self->file_banner, state != TV_PROFILE_FILE_UNCHANGED);
}

typedef struct
{
  TvProfilePage *page;
  guint          generation;
} Check;

static void
on_file_checked (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  Check *check = user_data;
  g_autoptr(TvProfilePage) self = check->page;
  g_autoptr(GError) error = NULL;
  TvProfileFileState state;
  guint generation = check->generation;

  g_free (check);
  state = tv_profile_check_file_finish (TV_PROFILE (object), result, &error);
  if (!tv_worker_is_current (&self->check_worker, generation))
    return;
  tv_worker_end (&self->check_worker);
  if (error != NULL || self->state != TV_PROFILE_PAGE_LOADED)
    return;
  show_file_state (self, state);
}

static gboolean
check_file (gpointer user_data)
{
  TvProfilePage *self = user_data;
  GCancellable *cancellable;
  Check *check;

  self->check_source = 0;
  cancellable = tv_worker_begin (&self->check_worker);
  check = g_new0 (Check, 1);
  check->page = g_object_ref (self);
  check->generation = self->check_worker.generation;
  tv_profile_check_file_async (self->profile, cancellable, on_file_checked, check);
  return G_SOURCE_REMOVE;
}

static void
on_file_event (GFileMonitor      *monitor,
               GFile             *file,
               GFile             *other_file,
               GFileMonitorEvent  event,
               TvProfilePage     *self)
{
  g_clear_handle_id (&self->check_source, g_source_remove);
  self->check_source = g_timeout_add (CHECK_DELAY_MS, check_file, self);
}

/* Watches a local file from the moment it is loaded.  It may have changed
 * between the open and now: one check at once tells. */
void
tv_profile_page_watch_file (TvProfilePage *self)
{
  g_autoptr(GError) error = NULL;
  TvFileStamp stamp;

  if (!tv_profile_get_file_stamp (self->profile, &stamp))
    return;
  self->monitor = g_file_monitor_file (self->file, G_FILE_MONITOR_WATCH_MOVES, NULL, &error);
  if (self->monitor == NULL)
    g_debug ("Cannot watch the profile's file: %s", error->message);
  else
    g_signal_connect_object (self->monitor, "changed", G_CALLBACK (on_file_event), self, 0);
  check_file (self);
}

void
tv_profile_page_stop_watching (TvProfilePage *self)
{
  if (self->monitor != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->monitor, self);
      g_file_monitor_cancel (self->monitor);
      g_clear_object (&self->monitor);
    }
  g_clear_handle_id (&self->check_source, g_source_remove);
  tv_worker_cancel (&self->check_worker);
  self->file_state = TV_PROFILE_FILE_UNCHANGED;
  if (self->file_banner != NULL)
    gtk_revealer_set_reveal_child (self->file_banner, FALSE);
  if (self->quality_banner != NULL)
    gtk_revealer_set_reveal_child (self->quality_banner, FALSE);
}

void
tv_profile_page_start_load (TvProfilePage *self)
{
  g_clear_object (&self->load_cancellable);
  self->load_cancellable = g_cancellable_new ();
  self->profile = tv_profile_new (self->file);
  g_signal_connect_object (self->profile, "opened", G_CALLBACK (tv_profile_page_on_opened), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->profile, "notify::samples-loaded",
                           G_CALLBACK (tv_profile_page_on_progress_notify), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->profile, "notify::state",
                           G_CALLBACK (tv_profile_page_on_progress_notify), self,
                           G_CONNECT_SWAPPED);
  tv_profile_page_update_progress (self);
  tv_profile_load_async (self->profile, self->load_cancellable, tv_profile_page_on_load_finished,
                         g_object_ref (self));
}

void
tv_profile_page_cancel_load (TvProfilePage *self)
{
  g_cancellable_cancel (self->load_cancellable);
}

void
tv_profile_page_reload (TvProfilePage *self)
{
  g_return_if_fail (TV_IS_PROFILE_PAGE (self));

  tv_profile_page_stop_watching (self);
  tv_profile_page_cancel_load (self);
  if (self->profile != NULL)
    g_signal_handlers_disconnect_by_data (self->profile, self);
  g_clear_object (&self->profile);

  /* The views and the view state were those of the old profile, whose
   * threads and functions the new one need not have. */
  if (self->paned != NULL)
    {
      gtk_box_remove (self->flame_box, self->paned);
      self->paned = NULL;
      self->flame_view = NULL;
      self->timeline_view = NULL;
    }
  gtk_widget_set_visible (self->flame_placeholder, TRUE);
  g_clear_object (&self->view_state);
  self->view_state = tv_view_state_new ();
  gtk_box_remove (self->properties_box, GTK_WIDGET (self->properties));
  self->properties = tv_properties_new ();
  gtk_widget_set_vexpand (GTK_WIDGET (self->properties), TRUE);
  gtk_box_append (self->properties_box, GTK_WIDGET (self->properties));
  g_clear_pointer (&self->error_message, g_free);
  gtk_progress_bar_set_fraction (self->progress_bar, 0.0);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "page.export", FALSE);

  tv_profile_page_set_state (self, TV_PROFILE_PAGE_LOADING);
  tv_profile_page_start_load (self);
}

void
tv_profile_page_reload_action (GtkWidget  *widget,
                               const char *action_name,
                               GVariant   *parameter)
{
  tv_profile_page_reload (TV_PROFILE_PAGE (widget));
}
