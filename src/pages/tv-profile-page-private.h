/* tv-profile-page-private.h: what the profile page's files share
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "tv-profile-page.h"
#include "tv-worker.h"

G_BEGIN_DECLS

struct _TvProfilePage
{
  AdwBin              parent_instance;

  GFile              *file;
  TvProfile          *profile;
  GCancellable       *cancellable;       /* the page's: loads and exports */
  GCancellable       *load_cancellable;  /* the current load's */
  TvProfilePageState  state;
  char               *error_message;
  TvProperties       *properties;
  TvViewState        *view_state;
  GtkWidget          *flame_view;
  GtkWidget          *timeline_view;
  GtkWidget          *paned;
  /* Where the timeline's height is kept; NULL without the schema. */
  GSettings          *settings;
  /* The paned's height when its position last changed. */
  int                 paned_height;

  /* Watching the file once it is loaded. */
  GFileMonitor       *monitor;
  guint               check_source;
  TvWorker            check_worker;
  TvProfileFileState  file_state;

  GtkStack           *stack;
  AdwViewStack       *views;
  GtkBox             *flame_box;
  GtkWidget          *flame_placeholder;
  GtkWidget          *progress_box;
  GtkBox             *export_progress_box;
  GtkProgressBar     *progress_bar;
  GtkButton          *cancel_button;
  GtkBox             *properties_box;
  AdwStatusPage      *error_page;
  GtkExpander        *error_expander;
  GtkLabel           *error_details;
  GtkWidget          *error_reload_button;
  GtkRevealer        *quality_banner;
  GtkImage           *quality_banner_icon;
  GtkLabel           *quality_banner_label;
  GtkWidget          *quality_banner_button;
  GtkWidget          *error_open_button;
  GtkWidget          *error_close_button;
  GtkRevealer        *file_banner;
  GtkLabel           *file_banner_label;
  GtkWidget          *file_banner_button;
};

void tv_profile_page_set_state (TvProfilePage      *self,
                                TvProfilePageState  state);

void tv_profile_page_update_progress (TvProfilePage *self);

void tv_profile_page_on_progress_notify (TvProfilePage *self);

void tv_profile_page_on_opened (TvProfilePage *self);

void tv_profile_page_on_load_finished (GObject      *object,
                                       GAsyncResult *result,
                                       gpointer      user_data);

void tv_profile_page_watch_file (TvProfilePage *self);

void tv_profile_page_stop_watching (TvProfilePage *self);

void tv_profile_page_start_load (TvProfilePage *self);

void tv_profile_page_cancel_load (TvProfilePage *self);

void tv_profile_page_reload_action (GtkWidget  *widget,
                                    const char *action_name,
                                    GVariant   *parameter);

G_END_DECLS
