/* tv-application.c: the application, one window with a tab per profile
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * `tachyon-viewer FILE…` opens every file in a tab of one window; a second
 * invocation sends its files to the running instance, which adds tabs to
 * its window.  Without files, the window shows the start page;
 * `tachyon-viewer --demo` opens the demo profile bundled in the resources
 * (app.open-demo, which a second invocation forwards to the first).
 * Two files opened together (say, both selected in the file manager) also
 * get an offer to compare them; `tachyon-viewer --compare BASE NEW` opens
 * the comparison at once (app.compare, forwarded the same way).
 * app.about shows the About window; app.quit (Ctrl+Q) closes every
 * window.  The Keyboard Shortcuts window is data/ui/help-overlay.ui, which
 * GtkApplication finds at its resource base path and shows with
 * win.show-help-overlay.  The options are the command line's
 * (tv_cli_add_options()); it runs --info, --export and the like itself,
 * before GTK starts, and leaves the window's to
 * tv_application_handle_local_options().
 */
#include <glib/gi18n.h>

#include "tv-application.h"
#include "tv-cli.h"
#include "tv-window.h"

struct _TvApplication
{
  AdwApplication parent_instance;
};

G_DEFINE_FINAL_TYPE (TvApplication, tv_application, ADW_TYPE_APPLICATION)

static TvWindow *
get_window (TvApplication *self)
{
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (self));

  if (TV_IS_WINDOW (window))
    return TV_WINDOW (window);

  return tv_window_new (GTK_APPLICATION (self));
}

/* Activates the window's action NAME with PARAMETER, and shows the window. */
static void
activate_in_window (TvApplication *self,
                    const char    *name,
                    GVariant      *parameter)
{
  TvWindow *window = get_window (self);

  gtk_widget_activate_action_variant (GTK_WIDGET (window), name, parameter);
  gtk_window_present (GTK_WINDOW (window));
}

static void
tv_application_activate (GApplication *application)
{
  gtk_window_present (GTK_WINDOW (get_window (TV_APPLICATION (application))));
}

static void
tv_application_open (GApplication  *application,
                     GFile        **files,
                     int            n_files,
                     const char    *hint)
{
  TvWindow *window = get_window (TV_APPLICATION (application));

  for (int i = 0; i < n_files; i++)
    tv_window_open_file (window, files[i]);
  if (n_files == 2)
    tv_window_offer_comparison (window, files[0], files[1]);
  gtk_window_present (GTK_WINDOW (window));
}

static void
compare_action (GSimpleAction *action,
                GVariant      *parameter,
                gpointer       user_data)
{
  activate_in_window (TV_APPLICATION (user_data), "win.compare-uris", parameter);
}

gboolean
tv_application_compare (TvApplication  *self,
                        const char     *base_path,
                        const char     *new_path,
                        GError        **error)
{
  g_autoptr(GFile) base = g_file_new_for_commandline_arg (base_path);
  g_autoptr(GFile) new_file = g_file_new_for_commandline_arg (new_path);
  g_autofree char *base_uri = g_file_get_uri (base);
  g_autofree char *new_uri = g_file_get_uri (new_file);

  g_return_val_if_fail (TV_IS_APPLICATION (self), FALSE);

  if (!g_application_register (G_APPLICATION (self), NULL, error))
    return FALSE;
  g_action_group_activate_action (G_ACTION_GROUP (self), "compare",
                                  g_variant_new ("(ss)", base_uri, new_uri));
  return TRUE;
}

static void
open_demo_action (GSimpleAction *action,
                  GVariant      *parameter,
                  gpointer       user_data)
{
  activate_in_window (TV_APPLICATION (user_data), "win.open-demo", NULL);
}

/* The metainfo's homepage and bugtracker URLs. */
#define TV_WEBSITE   "https://github.com/tachyonviewer/tachyon-viewer"
#define TV_ISSUE_URL "https://github.com/tachyonviewer/tachyon-viewer/issues"

static void
about_action (GSimpleAction *action,
              GVariant      *parameter,
              gpointer       user_data)
{
  GtkWindow *parent = gtk_application_get_active_window (GTK_APPLICATION (user_data));
  GtkWidget *about = g_object_new (ADW_TYPE_ABOUT_WINDOW,
                                   "transient-for", parent,
                                   "application-icon", TV_APPLICATION_ID,
                                   "application-name", _("Tachyon Viewer"),
                                   "version", PACKAGE_VERSION,
                                   "comments",
                                   _("Explore the profiles of CPython’s sampling profiler"),
                                   "developer-name", _("The Tachyon Viewer authors"),
                                   "copyright", _("© 2026 The Tachyon Viewer authors"),
                                   "license-type", GTK_LICENSE_GPL_3_0,
                                   "website", TV_WEBSITE,
                                   "issue-url", TV_ISSUE_URL,
                                   NULL);

  gtk_window_present (GTK_WINDOW (about));
}

/* FILES, as GApplication would have opened them had the command line
 * not taken them (G_OPTION_REMAINING). */
static void
open_files (GApplication        *application,
            const char * const  *paths)
{
  g_autoptr(GPtrArray) files = g_ptr_array_new_with_free_func (g_object_unref);

  for (gsize i = 0; paths[i] != NULL; i++)
    g_ptr_array_add (files, g_file_new_for_commandline_arg (paths[i]));
  if (files->len > 0)
    g_application_open (application, (GFile **) files->pdata, (int) files->len, "");
}

/* The command line (src/cli/tv-cli.c) runs what needs no window, before
 * registration and so before GTK starts; what is left is for the window:
 * the files, --demo, `--compare BASE NEW`.  Each goes to the primary
 * instance, this one or the one running. */
static int
tv_application_handle_local_options (GApplication *application,
                                     GVariantDict *options)
{
  g_autoptr(GError) error = NULL;
  g_autofree const char **paths = NULL;
  gboolean demo = FALSE;
  gboolean compare = FALSE;
  gboolean ok;
  int status = tv_cli_handle_local_options (options);

  if (status >= 0)
    return status;

  g_variant_dict_lookup (options, "demo", "b", &demo);
  g_variant_dict_lookup (options, "compare", "b", &compare);
  g_variant_dict_lookup (options, G_OPTION_REMAINING, "^a&ay", &paths);

  /* The command line left --compare only with BASE and NEW. */
  if (compare)
    ok = tv_application_compare (TV_APPLICATION (application), paths[0], paths[1], &error);
  else
    ok = g_application_register (application, NULL, &error);
  if (!ok)
    {
      g_printerr ("tachyon-viewer: %s\n", error->message);
      return 1;
    }
  if (demo)
    g_action_group_activate_action (G_ACTION_GROUP (application), "open-demo", NULL);
  if (!compare && paths != NULL)
    open_files (application, paths);
  /* A second instance is done once it has asked the first; the first
   * goes on to run (and to activate, which shows its window). */
  return g_application_get_is_remote (application) ? 0 : -1;
}

/* Ctrl+Q: every window closes as its close button would close it, so
 * that each keeps its size for next time and stops its loads; the
 * application ends with the last one. */
static void
quit_action (GSimpleAction *action,
             GVariant      *parameter,
             gpointer       user_data)
{
  /* Closing a window takes it off the application's list. */
  GList *windows = g_list_copy_deep (gtk_application_get_windows (GTK_APPLICATION (user_data)),
                                     (GCopyFunc) (void (*) (void)) g_object_ref, NULL);

  for (GList *l = windows; l != NULL; l = l->next)
    gtk_window_close (l->data);
  g_list_free_full (windows, g_object_unref);
}

/* GtkApplication's startup found the resources' gtk/help-overlay.ui and
 * gave win.show-help-overlay its accelerator (Ctrl+?); F1 opens it too,
 * as there is no manual. */
static void
add_help_accel (GtkApplication *application)
{
  g_auto(GStrv) accels = gtk_application_get_accels_for_action (application,
                                                                "win.show-help-overlay");
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_auto(GStrv) with_f1 = NULL;

  g_strv_builder_addv (builder, (const char **) accels);
  g_strv_builder_add (builder, "F1");
  with_f1 = g_strv_builder_end (builder);
  gtk_application_set_accels_for_action (application, "win.show-help-overlay",
                                         (const char * const *) with_f1);
}

static void
tv_application_startup (GApplication *application)
{
  static const GActionEntry actions[] = {
    { .name = "open-demo", .activate = open_demo_action },
    { .name = "compare", .activate = compare_action, .parameter_type = "(ss)" },
    { .name = "about", .activate = about_action },
    { .name = "quit", .activate = quit_action },
  };
  static const char * const open_accels[] = { "<Control>o", NULL };
  static const char * const close_accels[] = { "<Control>w", NULL };
  static const char * const quit_accels[] = { "<Control>q", NULL };
  static const char * const export_accels[] = { "<Control>e", NULL };

  G_APPLICATION_CLASS (tv_application_parent_class)->startup (application);

  g_action_map_add_action_entries (G_ACTION_MAP (application), actions,
                                   G_N_ELEMENTS (actions), application);

  gtk_application_set_accels_for_action (GTK_APPLICATION (application), "win.open", open_accels);
  gtk_application_set_accels_for_action (GTK_APPLICATION (application), "win.close-tab",
                                         close_accels);
  gtk_application_set_accels_for_action (GTK_APPLICATION (application), "app.quit", quit_accels);
  /* So that the primary menu shows them too. */
  gtk_application_set_accels_for_action (GTK_APPLICATION (application), "win.export",
                                         export_accels);
  add_help_accel (GTK_APPLICATION (application));
}

GSettings *
tv_application_new_settings (void)
{
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr(GSettingsSchema) schema = NULL;
  static gsize told = 0;

  if (source != NULL)
    schema = g_settings_schema_source_lookup (source, TV_APPLICATION_ID, TRUE);
  if (schema == NULL)
    {
      /* g_settings_new() would abort.  Say it once, and go on. */
      if (g_once_init_enter (&told))
        {
          g_message ("The settings schema %s is not installed: window size and "
                     "preferences will not be kept (install the program, or set "
                     "GSETTINGS_SCHEMA_DIR to the build directory's data/)",
                     TV_APPLICATION_ID);
          g_once_init_leave (&told, 1);
        }
      return NULL;
    }
  return g_settings_new_full (schema, NULL, NULL);
}

TvApplication *
tv_application_new (void)
{
  TvApplication *self = g_object_new (TV_TYPE_APPLICATION,
                                      "application-id", TV_APPLICATION_ID,
                                      "flags", G_APPLICATION_HANDLES_OPEN,
                                      NULL);

  tv_cli_add_options (G_APPLICATION (self));
  return self;
}

static void
tv_application_class_init (TvApplicationClass *klass)
{
  GApplicationClass *app_class = G_APPLICATION_CLASS (klass);

  app_class->activate = tv_application_activate;
  app_class->handle_local_options = tv_application_handle_local_options;
  app_class->open = tv_application_open;
  app_class->startup = tv_application_startup;
}

static void
tv_application_init (TvApplication *self)
{
}
