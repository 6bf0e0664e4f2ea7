/* tv-window.c: the main window, a tab per profile
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The window shows the start page while no profile is open, and one tab
 * (a TvProfilePage) per open profile.  Profiles come in through win.open
 * (a file chooser), win.open-uri (the recent list), win.open-demo (the
 * bundled demo profile), drag and drop, and the application's "open".
 * A comparison of two profiles (a TvComparePage) gets a tab too: from
 * win.compare-with (the current profile with one chosen in a file
 * chooser), win.compare-uris, and the offer made when two files are
 * opened together.  The window size is kept in GSettings.
 */
#include <glib/gi18n.h>

#include "tv-application.h"
#include "tv-compare-page.h"
#include "tv-export-task.h"
#include "tv-popup-tooltips.h"
#include "tv-start-page.h"
#include "tv-text.h"
#include "tv-window.h"

struct _TvWindow
{
  AdwApplicationWindow  parent_instance;

  GSettings            *settings;
  GtkFileChooserNative *chooser;
  GtkFileChooserNative *compare_chooser;
  GtkDropTarget        *drop_target;
  AdwToastOverlay      *toasts;

  AdwTabBar            *tab_bar;
  AdwTabView           *tab_view;
  GtkStack             *stack;
  GtkBox               *start_box;
};

G_DEFINE_FINAL_TYPE (TvWindow, tv_window, ADW_TYPE_APPLICATION_WINDOW)

/* The profile of the selected tab, if it is a loaded profile's. */
static TvProfilePage *
selected_loaded_page (TvWindow *self)
{
  AdwTabPage *tab = adw_tab_view_get_selected_page (self->tab_view);
  GtkWidget *child = tab != NULL ? adw_tab_page_get_child (tab) : NULL;

  if (child != NULL && TV_IS_PROFILE_PAGE (child)
      && tv_profile_page_get_state (TV_PROFILE_PAGE (child)) == TV_PROFILE_PAGE_LOADED)
    return TV_PROFILE_PAGE (child);
  return NULL;
}

/* Whether the selected tab has something to export: a loaded profile, or
 * a comparison that is ready. */
static gboolean
selected_can_export (TvWindow *self)
{
  AdwTabPage *tab = adw_tab_view_get_selected_page (self->tab_view);
  GtkWidget *child = tab != NULL ? adw_tab_page_get_child (tab) : NULL;

  if (selected_loaded_page (self) != NULL)
    return TRUE;
  return child != NULL && TV_IS_COMPARE_PAGE (child)
         && tv_compare_page_get_state (TV_COMPARE_PAGE (child)) == TV_COMPARE_PAGE_READY;
}

static void
update_view (TvWindow *self)
{
  int n_pages = adw_tab_view_get_n_pages (self->tab_view);

  gtk_stack_set_visible_child_name (self->stack, n_pages > 0 ? "tabs" : "start");
  /* One tab is named by the window's title already: the bar would only
   * take a row from the graph. */
  gtk_widget_set_visible (GTK_WIDGET (self->tab_bar), n_pages > 1);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.export", selected_can_export (self));
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.compare-with",
                                 selected_loaded_page (self) != NULL);
}

static void
update_title (TvWindow *self)
{
  AdwTabPage *tab = adw_tab_view_get_selected_page (self->tab_view);

  /* The window is named after the profile it shows, as the tab is. */
  if (tab != NULL)
    gtk_window_set_title (GTK_WINDOW (self), adw_tab_page_get_title (tab));
  else
    gtk_window_set_title (GTK_WINDOW (self), _("Tachyon Viewer"));
}

static void
add_to_recent (GFile *file)
{
  g_autofree char *uri = NULL;
  GtkRecentData data = {
    .display_name = NULL,
    .description = NULL,
    .mime_type = (char *) TV_PROFILE_MIME_TYPE,
    .app_name = (char *) g_get_application_name (),
    .app_exec = (char *) "tachyon-viewer %u",
    .groups = NULL,
    .is_private = FALSE,
  };

  /* The demo lives in the program: nothing to remember. */
  if (g_file_has_uri_scheme (file, "resource"))
    return;
  uri = g_file_get_uri (file);
  if (data.app_name == NULL)
    data.app_name = (char *) "tachyon-viewer";
  gtk_recent_manager_add_full (gtk_recent_manager_get_default (), uri, &data);
}

static gboolean
loading_to_icon (GBinding     *binding,
                 const GValue *from,
                 GValue       *to,
                 gpointer      user_data)
{
  if (g_value_get_boolean (from))
    g_value_take_object (to, g_themed_icon_new ("content-loading-symbolic"));
  else
    g_value_set_object (to, NULL);
  return TRUE;
}

/* A tab's tooltip is markup; a file's name may hold '<' or '&'. */
static gboolean
text_to_markup (GBinding     *binding,
                const GValue *from,
                GValue       *to,
                gpointer      user_data)
{
  const char *text = g_value_get_string (from);

  g_value_take_string (to, text != NULL ? g_markup_escape_text (text, -1) : NULL);
  return TRUE;
}

/* A file that failed to load (gone, or not a profile) leaves the recent
 * files, where GTK's file chooser puts what it opens, or where it was
 * before it went. */
static void
remove_from_recent (GFile *file)
{
  g_autofree char *uri = g_file_get_uri (file);

  gtk_recent_manager_remove_item (gtk_recent_manager_get_default (), uri, NULL);
}

/* A profile goes to the recent files once it has loaded: one that cannot
 * be opened is not worth offering again. */
static void
on_page_state (TvProfilePage *page,
               GParamSpec    *pspec,
               TvWindow      *self)
{
  if (tv_profile_page_get_state (page) == TV_PROFILE_PAGE_LOADED)
    add_to_recent (tv_profile_page_get_file (page));
  else if (tv_profile_page_get_state (page) == TV_PROFILE_PAGE_FAILED)
    remove_from_recent (tv_profile_page_get_file (page));
  update_view (self);
}

TvProfilePage *
tv_window_lookup_page (TvWindow *self,
                       GFile    *file)
{
  int n_pages;

  g_return_val_if_fail (TV_IS_WINDOW (self), NULL);
  g_return_val_if_fail (G_IS_FILE (file), NULL);

  n_pages = adw_tab_view_get_n_pages (self->tab_view);
  for (int i = 0; i < n_pages; i++)
    {
      AdwTabPage *tab = adw_tab_view_get_nth_page (self->tab_view, i);
      GtkWidget *child = adw_tab_page_get_child (tab);

      if (TV_IS_PROFILE_PAGE (child)
          && g_file_equal (tv_profile_page_get_file (TV_PROFILE_PAGE (child)), file))
        return TV_PROFILE_PAGE (child);
    }

  return NULL;
}

TvProfilePage *
tv_window_open_file (TvWindow *self,
                     GFile    *file)
{
  TvProfilePage *page;
  AdwTabPage *tab;
  g_autofree char *title = NULL;
  g_autofree char *parse_name = NULL;
  g_autofree char *path = NULL;
  g_autofree char *tooltip = NULL;

  g_return_val_if_fail (TV_IS_WINDOW (self), NULL);
  g_return_val_if_fail (G_IS_FILE (file), NULL);

  page = tv_window_lookup_page (self, file);
  /* A cancelled load is opened afresh in a new tab, in place of the old. */
  if (page != NULL && tv_profile_page_get_state (page) == TV_PROFILE_PAGE_CANCELLED)
    {
      adw_tab_view_close_page (self->tab_view,
                               adw_tab_view_get_page (self->tab_view, GTK_WIDGET (page)));
      page = NULL;
    }
  if (page != NULL)
    {
      /* A file that failed (cut short, still being copied) may read now. */
      if (tv_profile_page_get_state (page) == TV_PROFILE_PAGE_FAILED)
        tv_profile_page_reload (page);
      adw_tab_view_set_selected_page (self->tab_view,
                                      adw_tab_view_get_page (self->tab_view, GTK_WIDGET (page)));
      return page;
    }

  page = tv_profile_page_new (file);
  tab = adw_tab_view_append (self->tab_view, GTK_WIDGET (page));
  title = tv_text_dup_file_name (file);
  parse_name = g_file_get_parse_name (file);
  path = tv_text_dup_shown (parse_name);
  tooltip = g_markup_escape_text (path, -1);
  adw_tab_page_set_title (tab, title);
  adw_tab_page_set_tooltip (tab, tooltip);
  /* A still icon, not the tab's spinner: a spinner redraws the window at
   * the frame rate for as long as a load runs, which a software renderer
   * pays for with the very cores that decode. */
  g_object_bind_property_full (page, "loading", tab, "indicator-icon", G_BINDING_SYNC_CREATE,
                               loading_to_icon, NULL, NULL, NULL);
  adw_tab_page_set_indicator_tooltip (tab, _("Loading…"));
  adw_tab_view_set_selected_page (self->tab_view, tab);
  g_signal_connect_object (page, "notify::state", G_CALLBACK (on_page_state), self, 0);
  /* The first tab was selected as it was appended, before it had a title. */
  update_title (self);
  update_view (self);

  return page;
}

static gboolean
state_to_icon (GBinding     *binding,
               const GValue *from,
               GValue       *to,
               gpointer      user_data)
{
  if (g_value_get_int (from) == TV_COMPARE_PAGE_LOADING)
    g_value_take_object (to, g_themed_icon_new ("content-loading-symbolic"));
  else
    g_value_set_object (to, NULL);
  return TRUE;
}

/* FILE's profile: the loaded one of its open tab, or a new one. */
static TvProfile *
profile_for_comparison (TvWindow *self,
                        GFile    *file)
{
  TvProfilePage *page = tv_window_lookup_page (self, file);

  if (page != NULL && tv_profile_page_get_state (page) == TV_PROFILE_PAGE_LOADED)
    return g_object_ref (tv_profile_page_get_profile (page));
  return tv_profile_new (file);
}

/* Both profiles of a comparison go to the recent files once it is
 * ready, as a profile opened alone does once loaded. */
static void
on_compare_state (TvComparePage *page)
{
  if (tv_compare_page_get_state (page) != TV_COMPARE_PAGE_READY)
    return;
  for (TvDiffSide side = TV_DIFF_SIDE_BASE; side <= TV_DIFF_SIDE_NEW; side++)
    add_to_recent (tv_profile_get_file (tv_compare_page_get_profile (page, side)));
}

TvComparePage *
tv_window_open_comparison (TvWindow *self,
                           GFile    *base,
                           GFile    *new_file)
{
  g_autoptr(TvProfile) base_profile = NULL;
  g_autoptr(TvProfile) new_profile = NULL;
  TvComparePage *page;
  AdwTabPage *tab;

  g_return_val_if_fail (TV_IS_WINDOW (self), NULL);
  g_return_val_if_fail (G_IS_FILE (base), NULL);
  g_return_val_if_fail (G_IS_FILE (new_file), NULL);

  base_profile = profile_for_comparison (self, base);
  new_profile = profile_for_comparison (self, new_file);
  page = tv_compare_page_new (base_profile, new_profile);
  tab = adw_tab_view_append (self->tab_view, GTK_WIDGET (page));
  /* The page names its sides, BASE first, even after a swap. */
  g_object_bind_property (page, "title", tab, "title", G_BINDING_SYNC_CREATE);
  g_object_bind_property_full (page, "title", tab, "tooltip", G_BINDING_SYNC_CREATE,
                               text_to_markup, NULL, NULL, NULL);
  g_signal_connect_object (tab, "notify::title", G_CALLBACK (update_title), self,
                           G_CONNECT_SWAPPED);
  g_object_bind_property_full (page, "state", tab, "indicator-icon", G_BINDING_SYNC_CREATE,
                               state_to_icon, NULL, NULL, NULL);
  g_signal_connect_object (page, "notify::state", G_CALLBACK (update_view), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect (page, "notify::state", G_CALLBACK (on_compare_state), NULL);
  adw_tab_view_set_selected_page (self->tab_view, tab);
  update_title (self);
  update_view (self);
  return page;
}

void
tv_window_offer_comparison (TvWindow *self,
                            GFile    *base,
                            GFile    *new_file)
{
  g_autofree char *base_name = tv_text_dup_file_name (base);
  g_autofree char *new_name = tv_text_dup_file_name (new_file);
  g_autofree char *title = NULL;
  g_autofree char *escaped = NULL;
  g_autofree char *base_uri = g_file_get_uri (base);
  g_autofree char *new_uri = g_file_get_uri (new_file);
  AdwToast *toast;

  g_return_if_fail (TV_IS_WINDOW (self));

  /* Translators: "Compare base.bin with new.bin?", BASE first, as in the
   * tab's title "base.bin → new.bin" and in "Compare base.bin With…". */
  title = g_strdup_printf (_("Compare %s with %s?"), base_name, new_name);
  /* The toast's title is markup. */
  escaped = g_markup_escape_text (title, -1);
  toast = adw_toast_new (escaped);
  adw_toast_set_button_label (toast, _("_Compare"));
  adw_toast_set_action_name (toast, "win.compare-uris");
  adw_toast_set_action_target_value (toast, g_variant_new ("(ss)", base_uri, new_uri));
  adw_toast_set_timeout (toast, 0);
  adw_toast_overlay_add_toast (self->toasts, toast);
}

AdwTabView *
tv_window_get_tab_view (TvWindow *self)
{
  g_return_val_if_fail (TV_IS_WINDOW (self), NULL);

  return self->tab_view;
}

GtkDropTarget *
tv_window_get_drop_target (TvWindow *self)
{
  g_return_val_if_fail (TV_IS_WINDOW (self), NULL);

  return self->drop_target;
}

static void
on_chooser_response (TvWindow             *self,
                     int                   response,
                     GtkFileChooserNative *chooser)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GListModel) files = gtk_file_chooser_get_files (GTK_FILE_CHOOSER (chooser));
      guint n_files = g_list_model_get_n_items (files);

      for (guint i = 0; i < n_files; i++)
        {
          g_autoptr(GFile) file = g_list_model_get_item (files, i);

          tv_window_open_file (self, file);
        }
    }

  g_clear_object (&self->chooser);
}

/* The file chooser's filter of profiles. */
static GtkFileFilter *
profiles_filter_new (void)
{
  GtkFileFilter *profiles = gtk_file_filter_new ();

  gtk_file_filter_set_name (profiles, _("Tachyon Profiles"));
  gtk_file_filter_add_mime_type (profiles, TV_PROFILE_MIME_TYPE);
  gtk_file_filter_add_pattern (profiles, "*.tach");
  gtk_file_filter_add_pattern (profiles, "*.bin");
  return profiles;
}

static void
open_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  TvWindow *self = TV_WINDOW (widget);
  g_autoptr(GtkFileFilter) profiles = profiles_filter_new ();
  g_autoptr(GtkFileFilter) all = gtk_file_filter_new ();

  if (self->chooser != NULL)
    {
      gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->chooser));
      return;
    }

  gtk_file_filter_set_name (all, _("All Files"));
  gtk_file_filter_add_pattern (all, "*");

  self->chooser = gtk_file_chooser_native_new (_("Open a Profile"), GTK_WINDOW (self),
                                               GTK_FILE_CHOOSER_ACTION_OPEN,
                                               _("_Open"), _("_Cancel"));
  gtk_file_chooser_set_select_multiple (GTK_FILE_CHOOSER (self->chooser), TRUE);
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (self->chooser), profiles);
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (self->chooser), all);
  gtk_file_chooser_set_filter (GTK_FILE_CHOOSER (self->chooser), profiles);
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (self->chooser), TRUE);
  g_signal_connect_object (self->chooser, "response", G_CALLBACK (on_chooser_response), self,
                           G_CONNECT_SWAPPED);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->chooser));
}

static void
open_uri_action (GtkWidget  *widget,
                 const char *action_name,
                 GVariant   *parameter)
{
  g_autoptr(GFile) file = g_file_new_for_uri (g_variant_get_string (parameter, NULL));

  tv_window_open_file (TV_WINDOW (widget), file);
}

static void
open_demo_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  g_autoptr(GFile) file = g_file_new_for_uri (TV_DEMO_PROFILE_URI);

  tv_window_open_file (TV_WINDOW (widget), file);
}

static void
export_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  TvWindow *self = TV_WINDOW (widget);
  AdwTabPage *tab = adw_tab_view_get_selected_page (self->tab_view);

  if (tab != NULL)
    gtk_widget_activate_action (adw_tab_page_get_child (tab), "page.export", NULL);
}

static void
compare_uris_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *parameter)
{
  const char *base_uri, *new_uri;
  g_autoptr(GFile) base = NULL;
  g_autoptr(GFile) new_file = NULL;

  g_variant_get (parameter, "(&s&s)", &base_uri, &new_uri);
  base = g_file_new_for_uri (base_uri);
  new_file = g_file_new_for_uri (new_uri);
  tv_window_open_comparison (TV_WINDOW (widget), base, new_file);
}

static void
on_compare_chooser_response (TvWindow             *self,
                             int                   response,
                             GtkFileChooserNative *chooser)
{
  GFile *base = g_object_get_data (G_OBJECT (chooser), "tv-base");

  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));

      if (file != NULL && base != NULL)
        tv_window_open_comparison (self, base, file);
    }
  g_clear_object (&self->compare_chooser);
}

static void
compare_with_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *parameter)
{
  TvWindow *self = TV_WINDOW (widget);
  TvProfilePage *page = selected_loaded_page (self);
  g_autoptr(GtkFileFilter) profiles = profiles_filter_new ();
  g_autofree char *name = NULL;
  g_autofree char *title = NULL;

  if (page == NULL)
    return;
  if (self->compare_chooser != NULL)
    gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (self->compare_chooser));
  g_clear_object (&self->compare_chooser);

  name = tv_text_dup_file_name (tv_profile_page_get_file (page));
  /* Translators: the title of the file chooser of "Compare With…". */
  title = g_strdup_printf (_("Compare %s With…"), name);
  self->compare_chooser = gtk_file_chooser_native_new (title, GTK_WINDOW (self),
                                                       GTK_FILE_CHOOSER_ACTION_OPEN,
                                                       _("_Compare"), _("_Cancel"));
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (self->compare_chooser), profiles);
  /* The other run is most often next to this one, not among the recent
   * files the dialog starts with otherwise. */
  tv_export_chooser_start_next_to (self->compare_chooser, tv_profile_page_get_file (page));
  g_object_set_data_full (G_OBJECT (self->compare_chooser), "tv-base",
                          g_object_ref (tv_profile_page_get_file (page)), g_object_unref);
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (self->compare_chooser), TRUE);
  g_signal_connect_object (self->compare_chooser, "response",
                           G_CALLBACK (on_compare_chooser_response), self, G_CONNECT_SWAPPED);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->compare_chooser));
}

GtkFileChooserNative *
tv_window_get_compare_chooser (TvWindow *self)
{
  g_return_val_if_fail (TV_IS_WINDOW (self), NULL);

  return self->compare_chooser;
}

static void
close_tab_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  TvWindow *self = TV_WINDOW (widget);
  AdwTabPage *tab = adw_tab_view_get_selected_page (self->tab_view);

  if (tab != NULL)
    adw_tab_view_close_page (self->tab_view, tab);
  else
    gtk_window_close (GTK_WINDOW (self));
}

/* A closed tab's page stops its work: its loads hold it until they end,
 * so it would otherwise load a whole profile no one will see. */
static gboolean
on_close_page (TvWindow   *self,
               AdwTabPage *tab)
{
  GtkWidget *child = adw_tab_page_get_child (tab);

  if (TV_IS_PROFILE_PAGE (child))
    tv_profile_page_cancel (TV_PROFILE_PAGE (child));
  else if (TV_IS_COMPARE_PAGE (child))
    tv_compare_page_cancel (TV_COMPARE_PAGE (child));
  return GDK_EVENT_PROPAGATE;
}

static gboolean
on_drop (TvWindow      *self,
         const GValue  *value,
         double         x,
         double         y,
         GtkDropTarget *target)
{
  GSList *files;

  if (!G_VALUE_HOLDS (value, GDK_TYPE_FILE_LIST))
    return FALSE;

  files = gdk_file_list_get_files (g_value_get_boxed (value));
  for (GSList *l = files; l != NULL; l = l->next)
    tv_window_open_file (self, l->data);
  g_slist_free (files);

  return TRUE;
}

static gboolean
tv_window_close_request (GtkWindow *window)
{
  TvWindow *self = TV_WINDOW (window);
  int width, height;

  if (self->settings == NULL)
    return GTK_WINDOW_CLASS (tv_window_parent_class)->close_request (window);

  gtk_window_get_default_size (window, &width, &height);
  g_settings_set_int (self->settings, "window-width", width);
  g_settings_set_int (self->settings, "window-height", height);
  g_settings_set_boolean (self->settings, "window-maximized", gtk_window_is_maximized (window));

  return GTK_WINDOW_CLASS (tv_window_parent_class)->close_request (window);
}

TvWindow *
tv_window_new (GtkApplication *application)
{
  return g_object_new (TV_TYPE_WINDOW, "application", application, NULL);
}

static void
tv_window_dispose (GObject *object)
{
  TvWindow *self = (TvWindow *)object;

  if (self->chooser != NULL)
    gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (self->chooser));
  g_clear_object (&self->chooser);
  if (self->compare_chooser != NULL)
    gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (self->compare_chooser));
  g_clear_object (&self->compare_chooser);
  g_clear_object (&self->settings);
  self->drop_target = NULL;
  gtk_widget_dispose_template (GTK_WIDGET (self), TV_TYPE_WINDOW);

  G_OBJECT_CLASS (tv_window_parent_class)->dispose (object);
}

static void
tv_window_class_init (TvWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GtkWindowClass *window_class = GTK_WINDOW_CLASS (klass);

  object_class->dispose = tv_window_dispose;
  window_class->close_request = tv_window_close_request;

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/tachyonviewer/TachyonViewer/ui/tv-window.ui");
  gtk_widget_class_bind_template_child (widget_class, TvWindow, tab_bar);
  gtk_widget_class_bind_template_child (widget_class, TvWindow, tab_view);
  gtk_widget_class_bind_template_child (widget_class, TvWindow, stack);
  gtk_widget_class_bind_template_child (widget_class, TvWindow, start_box);
  gtk_widget_class_bind_template_child (widget_class, TvWindow, toasts);

  gtk_widget_class_install_action (widget_class, "win.open", NULL, open_action);
  gtk_widget_class_install_action (widget_class, "win.open-uri", "s", open_uri_action);
  gtk_widget_class_install_action (widget_class, "win.open-demo", NULL, open_demo_action);
  gtk_widget_class_install_action (widget_class, "win.export", NULL, export_action);
  gtk_widget_class_install_action (widget_class, "win.close-tab", NULL, close_tab_action);
  gtk_widget_class_install_action (widget_class, "win.compare-with", NULL, compare_with_action);
  gtk_widget_class_install_action (widget_class, "win.compare-uris", "(ss)",
                                   compare_uris_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_e, GDK_CONTROL_MASK, "win.export", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_o, GDK_CONTROL_MASK, "win.open", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_w, GDK_CONTROL_MASK,
                                       "win.close-tab", NULL);
}

static void
tv_window_init (TvWindow *self)
{
  GtkWidget *start_page;

  gtk_widget_init_template (GTK_WIDGET (self));
  tv_popup_tooltips_attach (GTK_WIDGET (self));

  self->settings = tv_application_new_settings ();
  if (self->settings != NULL)
    {
      gtk_window_set_default_size (GTK_WINDOW (self),
                                   g_settings_get_int (self->settings, "window-width"),
                                   g_settings_get_int (self->settings, "window-height"));
      if (g_settings_get_boolean (self->settings, "window-maximized"))
        gtk_window_maximize (GTK_WINDOW (self));
    }
  else
    gtk_window_set_default_size (GTK_WINDOW (self), 1280, 800);

  start_page = GTK_WIDGET (tv_start_page_new ());
  gtk_widget_set_vexpand (start_page, TRUE);
  gtk_box_append (self->start_box, start_page);

  self->drop_target = gtk_drop_target_new (GDK_TYPE_FILE_LIST, GDK_ACTION_COPY);
  g_signal_connect_object (self->drop_target, "drop", G_CALLBACK (on_drop), self,
                           G_CONNECT_SWAPPED);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (self->drop_target));

  g_signal_connect_object (self->tab_view, "notify::n-pages", G_CALLBACK (update_view), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->tab_view, "notify::selected-page", G_CALLBACK (update_title),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->tab_view, "notify::selected-page", G_CALLBACK (update_view),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->tab_view, "close-page", G_CALLBACK (on_close_page), self,
                           G_CONNECT_SWAPPED);
  update_view (self);
}
