/* test-menus.c: the primary menu, the About window and the shortcuts window
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Drives the real window under gtk_test_init (every warning is fatal): the
 * header bar's primary menu and what its items do, the About window, and
 * the Keyboard Shortcuts window, which must list every accelerator the
 * code registers (the application's and our widget classes' bindings) and
 * nothing the code does not handle where the window says it does.  The
 * tests share one window and run in the order they are added.
 */
#include <adwaita.h>
#include <string.h>

#include "tv-application.h"
#include "tv-flame-graph.h"
#include "tv-flame-view.h"
#include "tv-timeline-view.h"
#include "tv-window.h"
#include "ui-test-util.h"

static TvApplication *application;

typedef struct
{
  guint           keyval;
  GdkModifierType modifiers;
} Accel;

static TvWindow *
get_window (void)
{
  return ui_test_get_window (GTK_APPLICATION (application));
}

/* Saves WIDGET as PREFIX-light.png and PREFIX-dark.png. */
static void
save_light_and_dark (GtkWidget  *widget,
                     const char *prefix)
{
  for (guint dark = 0; dark <= 1; dark++)
    {
      g_autofree char *name = g_strdup_printf ("%s-%s.png", prefix, dark ? "dark" : "light");

      ui_test_set_dark (dark);
      ui_test_save_screenshot (widget, name, 400);
    }
  ui_test_set_dark (FALSE);
}

/* The toplevel window of TYPE that is shown, or NULL. */
static GtkWidget *
find_shown_toplevel (GType type)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GtkWidget) window = g_list_model_get_item (toplevels, i);

      if (G_TYPE_CHECK_INSTANCE_TYPE (window, type) && gtk_widget_get_mapped (window))
        return window;
    }
  return NULL;
}

/* ------------------------------------------------------------------------ */
/* Accelerators                                                              */
/* ------------------------------------------------------------------------ */

static gboolean
accel_equal (const Accel     *a,
             guint            keyval,
             GdkModifierType  modifiers)
{
  return gdk_keyval_to_lower (a->keyval) == gdk_keyval_to_lower (keyval)
         && a->modifiers == modifiers;
}

static gboolean
accels_contain (GArray          *accels,
                guint            keyval,
                GdkModifierType  modifiers)
{
  for (guint i = 0; i < accels->len; i++)
    if (accel_equal (&g_array_index (accels, Accel, i), keyval, modifiers))
      return TRUE;
  return FALSE;
}

static Accel
parse_accel (const char *text)
{
  Accel accel = { 0, 0 };

  if (!gtk_accelerator_parse (text, &accel.keyval, &accel.modifiers) || accel.keyval == 0)
    g_error ("cannot parse the accelerator \"%s\"", text);
  return accel;
}

/* The keys of a GtkShortcutsShortcut's accelerator: alternatives separated
 * by spaces, each one accelerator or a range "<Alt>1...9".  Sequences
 * ("+") and combinations ("&") are not used. */
static void
append_shortcut_accels (const char *accelerator,
                        GArray     *out)
{
  g_auto(GStrv) alternatives = g_strsplit (accelerator, " ", 0);

  for (guint i = 0; alternatives[i] != NULL; i++)
    {
      const char *alternative = alternatives[i];
      const char *dots = strstr (alternative, "...");
      g_autofree char *first = NULL;
      Accel from, to;

      if (*alternative == '\0')
        continue;
      g_assert_null (strchr (alternative, '&'));
      g_assert_null (strchr (alternative, '+'));
      if (dots == NULL)
        {
          from = parse_accel (alternative);
          g_array_append_val (out, from);
          continue;
        }
      first = g_strndup (alternative, dots - alternative);
      from = parse_accel (first);
      to = parse_accel (dots + 3);
      g_assert_cmpuint (to.modifiers, ==, 0);
      g_assert_cmpuint (to.keyval, >, from.keyval);
      g_assert_cmpuint (to.keyval - from.keyval, <, 26);
      for (guint keyval = from.keyval; keyval <= to.keyval; keyval++)
        g_array_append_vals (out, &(Accel) { keyval, from.modifiers }, 1);
    }
}

/* The keys of TRIGGER (every one of an alternative). */
static void
append_trigger_accels (GtkShortcutTrigger *trigger,
                       GArray             *out)
{
  if (GTK_IS_KEYVAL_TRIGGER (trigger))
    {
      Accel accel = {
        gtk_keyval_trigger_get_keyval (GTK_KEYVAL_TRIGGER (trigger)),
        gtk_keyval_trigger_get_modifiers (GTK_KEYVAL_TRIGGER (trigger)),
      };

      g_array_append_val (out, accel);
    }
  else if (GTK_IS_ALTERNATIVE_TRIGGER (trigger))
    {
      append_trigger_accels (gtk_alternative_trigger_get_first (GTK_ALTERNATIVE_TRIGGER (trigger)),
                             out);
      append_trigger_accels (gtk_alternative_trigger_get_second (GTK_ALTERNATIVE_TRIGGER (trigger)),
                             out);
    }
}

/* The shortcut of WIDGET's own controllers (not its children's) that
 * KEYVAL with MODIFIERS triggers, or NULL. */
static GtkShortcut *
lookup_shortcut (GtkWidget       *widget,
                 guint            keyval,
                 GdkModifierType  modifiers)
{
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (widget);

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GObject) controller = g_list_model_get_item (controllers, i);

      if (!GTK_IS_SHORTCUT_CONTROLLER (controller))
        continue;
      for (guint j = 0; j < g_list_model_get_n_items (G_LIST_MODEL (controller)); j++)
        {
          g_autoptr(GtkShortcut) shortcut = g_list_model_get_item (G_LIST_MODEL (controller), j);
          g_autoptr(GArray) accels = g_array_new (FALSE, FALSE, sizeof (Accel));

          append_trigger_accels (gtk_shortcut_get_trigger (shortcut), accels);
          if (accels_contain (accels, keyval, modifiers))
            return shortcut;
        }
    }
  return NULL;
}

/* Whether WIDGET takes KEYVAL with MODIFIERS: a shortcut of its own (not
 * of its children, whose GTK bindings would take keys the window does
 * not mean), or a key handler of ours: any of one of our widgets (the
 * flame graph's arrows, Enter, Escape…), or one we added to a GTK widget,
 * named "tv-…" (the search entry's Shift+Enter). */
static gboolean
widget_takes (GtkWidget       *widget,
              guint            keyval,
              GdkModifierType  modifiers)
{
  g_autoptr(GListModel) controllers = NULL;
  gboolean ours = g_str_has_prefix (G_OBJECT_TYPE_NAME (widget), "Tv");

  if (lookup_shortcut (widget, keyval, modifiers) != NULL)
    return TRUE;
  controllers = gtk_widget_observe_controllers (widget);
  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GObject) controller = g_list_model_get_item (controllers, i);
      const char *name;
      gboolean handled = FALSE;

      if (!GTK_IS_EVENT_CONTROLLER_KEY (controller))
        continue;
      name = gtk_event_controller_get_name (GTK_EVENT_CONTROLLER (controller));
      if (!ours && (name == NULL || !g_str_has_prefix (name, "tv-")))
        continue;
      g_signal_emit_by_name (controller, "key-pressed", keyval, 0, modifiers, &handled);
      if (handled)
        return TRUE;
    }
  return FALSE;
}

/* Every (group title, accelerator) pair of the shortcuts window, as two
 * parallel arrays; the search page's copies (outside any group) are left
 * out. */
static void
list_shortcuts_window (GtkWidget *overlay,
                       GPtrArray *groups,
                       GArray    *accels)
{
  g_autoptr(GPtrArray) shortcuts = g_ptr_array_new ();

  ui_test_collect_widgets (overlay, GTK_TYPE_SHORTCUTS_SHORTCUT, shortcuts);
  for (guint i = 0; i < shortcuts->len; i++)
    {
      GtkWidget *shortcut = g_ptr_array_index (shortcuts, i);
      GtkWidget *group = gtk_widget_get_ancestor (shortcut, GTK_TYPE_SHORTCUTS_GROUP);
      g_autofree char *accelerator = NULL;
      g_autofree char *title = NULL;
      guint before = accels->len;

      if (group == NULL)
        continue;
      g_object_get (shortcut, "accelerator", &accelerator, NULL);
      g_object_get (group, "title", &title, NULL);
      g_assert_nonnull (accelerator);
      append_shortcut_accels (accelerator, accels);
      g_assert_cmpuint (accels->len, >, before);
      for (guint j = before; j < accels->len; j++)
        g_ptr_array_add (groups, g_strdup (title));
    }
}

/* ------------------------------------------------------------------------ */
/* The primary menu                                                          */
/* ------------------------------------------------------------------------ */

static const char * const menu_sections[][4] = {
  { "win.open", "win.compare-with", "win.export", NULL },
  { "win.show-help-overlay", "app.about", NULL },
};

static GtkMenuButton *
get_menu_button (void)
{
  GtkWidget *header_bar = ui_test_find_widget (GTK_WIDGET (get_window ()), ADW_TYPE_HEADER_BAR);
  g_autoptr(GPtrArray) buttons = g_ptr_array_new ();

  g_assert_nonnull (header_bar);
  ui_test_collect_widgets (header_bar, GTK_TYPE_MENU_BUTTON, buttons);
  g_assert_cmpuint (buttons->len, ==, 1);
  return g_ptr_array_index (buttons, 0);
}

static gboolean
window_has_action (TvWindow   *window,
                   const char *name)
{
  const char *action_name, *property_name;
  const GVariantType *parameter_type;
  GType owner;

  /* GtkApplicationWindow's own actions (win.show-help-overlay)… */
  if (g_str_has_prefix (name, "win.")
      && g_action_group_has_action (G_ACTION_GROUP (window), name + strlen ("win.")))
    return TRUE;
  /* … and those the window class installs (GTK 4.8 writes every one of
   * the out arguments). */
  for (guint i = 0;
       gtk_widget_class_query_action (GTK_WIDGET_GET_CLASS (window), i, &owner, &action_name,
                                      &parameter_type, &property_name);
       i++)
    if (g_str_equal (action_name, name))
      return TRUE;
  return FALSE;
}

/* The popover's items, by their label (GtkModelButton's "text"); the
 * buttons are not GtkActionables, the menu tracker binds their state. */
static GHashTable *
menu_items (GtkPopover *popover)
{
  GHashTable *items = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GPtrArray) buttons = g_ptr_array_new ();
  GType model_button = g_type_from_name ("GtkModelButton");

  g_assert_true (model_button != G_TYPE_INVALID);
  ui_test_collect_widgets (GTK_WIDGET (popover), model_button, buttons);
  for (guint i = 0; i < buttons->len; i++)
    {
      GtkWidget *item = g_ptr_array_index (buttons, i);
      char *text = NULL;

      g_object_get (item, "text", &text, NULL);
      if (text != NULL)
        g_hash_table_insert (items, text, item);
    }
  return items;
}

/* The label of the item of MENU's section SECTION at INDEX, as its
 * button shows it: without the mnemonic's underscore. */
static char *
menu_label (GMenuModel *menu,
            guint       section,
            guint       index)
{
  g_autoptr(GMenuModel) items = g_menu_model_get_item_link (menu, section, G_MENU_LINK_SECTION);
  g_autofree char *label = NULL;
  g_auto(GStrv) parts = NULL;

  g_assert_true (g_menu_model_get_item_attribute (items, index, G_MENU_ATTRIBUTE_LABEL, "s",
                                                  &label));
  parts = g_strsplit (label, "_", 0);
  return g_strjoinv ("", parts);
}

/* Opens the menu and checks which items can be used: all but Compare
 * With… and Export…, which need a loaded profile, LOADED says whether
 * there is one. */
static void
check_menu_items (gboolean    loaded,
                  const char *screenshot)
{
  GtkMenuButton *button = get_menu_button ();
  GtkPopover *popover = gtk_menu_button_get_popover (button);
  g_autoptr(GHashTable) items = NULL;

  gtk_menu_button_popup (button);
  WAIT_UNTIL (gtk_widget_get_mapped (GTK_WIDGET (popover)), 5000);
  items = menu_items (popover);
  for (guint s = 0; s < G_N_ELEMENTS (menu_sections); s++)
    for (guint i = 0; menu_sections[s][i] != NULL; i++)
      {
        const char *action = menu_sections[s][i];
        g_autofree char *label = menu_label (gtk_menu_button_get_menu_model (button), s, i);
        GtkWidget *item = g_hash_table_lookup (items, label);
        gboolean needs_profile = g_str_equal (action, "win.export")
                                 || g_str_equal (action, "win.compare-with");

        g_test_message ("%s: %s", action, label);
        g_assert_nonnull (item);
        g_assert_true (gtk_widget_get_visible (item));
        g_assert_cmpint (gtk_widget_get_sensitive (item), ==, loaded || !needs_profile);
      }
  if (screenshot != NULL)
    save_light_and_dark (GTK_WIDGET (popover), screenshot);
  gtk_menu_button_popdown (button);
  WAIT_UNTIL (!gtk_widget_get_mapped (GTK_WIDGET (popover)), 5000);
}

/* The button of ROOT (or under it) for ACTION. */
static GtkWidget *
find_action_button (GtkWidget  *root,
                    const char *action)
{
  g_autoptr(GPtrArray) buttons = g_ptr_array_new ();

  ui_test_collect_widgets (root, GTK_TYPE_BUTTON, buttons);
  for (guint i = 0; i < buttons->len; i++)
    if (g_strcmp0 (gtk_actionable_get_action_name (g_ptr_array_index (buttons, i)), action) == 0)
      return g_ptr_array_index (buttons, i);
  return NULL;
}

/* MENU has the sections and actions of menu_sections, every item a
 * label, and every action exists. */
static void
assert_menu_model (GMenuModel *menu,
                   TvWindow   *window)
{
  g_assert_nonnull (menu);
  g_assert_cmpint (g_menu_model_get_n_items (menu), ==, G_N_ELEMENTS (menu_sections));
  for (guint s = 0; s < G_N_ELEMENTS (menu_sections); s++)
    {
      g_autoptr(GMenuModel) section = g_menu_model_get_item_link (menu, s, G_MENU_LINK_SECTION);
      guint n = 0;

      g_assert_nonnull (section);
      for (; menu_sections[s][n] != NULL; n++)
        {
          g_autofree char *action = NULL;
          g_autofree char *label = menu_label (menu, s, n);
          const char *name = menu_sections[s][n];

          g_assert_true (g_menu_model_get_item_attribute (section, n, G_MENU_ATTRIBUTE_ACTION,
                                                          "s", &action));
          g_assert_cmpstr (action, ==, name);
          g_assert_cmpstr (label, !=, "");
          if (g_str_has_prefix (name, "app."))
            g_assert_true (g_action_group_has_action (G_ACTION_GROUP (application),
                                                      name + strlen ("app.")));
          else
            g_assert_true (window_has_action (window, name));
        }
      g_assert_cmpint (g_menu_model_get_n_items (section), ==, n);
    }
}

static void
open_demo (TvWindow *window)
{
  g_autoptr(GFile) demo = g_file_new_for_uri (TV_DEMO_PROFILE_URI);
  TvProfilePage *page;

  gtk_widget_activate_action (GTK_WIDGET (window), "win.open-demo", NULL);
  page = tv_window_lookup_page (window, demo);
  g_assert_nonnull (page);
  ui_test_wait_loaded (page);
}

/* The header bar's menu button: at the end, primary (F10), with the menu
 * of the design, whose actions all exist. */
static void
test_primary_menu (void)
{
  TvWindow *window;
  GtkMenuButton *button;
  GtkWidget *export_button;
  GtkShortcut *f10;
  graphene_rect_t menu_bounds, export_bounds;

  g_application_activate (G_APPLICATION (application));
  window = get_window ();
  gtk_window_set_default_size (GTK_WINDOW (window), 1000, 700);
  button = get_menu_button ();
  WAIT_UNTIL (gtk_widget_get_mapped (GTK_WIDGET (button)), 5000);
  g_assert_cmpstr (gtk_menu_button_get_icon_name (button), ==, "open-menu-symbolic");
  g_assert_cmpstr (gtk_widget_get_tooltip_text (GTK_WIDGET (button)), ==, "Main Menu");
  g_assert_true (gtk_menu_button_get_primary (button));

  /* At the end: right of the header bar's other buttons. */
  export_button = find_action_button (gtk_widget_get_ancestor (GTK_WIDGET (button),
                                                               ADW_TYPE_HEADER_BAR),
                                      "win.export");
  g_assert_nonnull (export_button);
  g_assert_true (gtk_widget_compute_bounds (GTK_WIDGET (button), GTK_WIDGET (window),
                                            &menu_bounds));
  g_assert_true (gtk_widget_compute_bounds (export_button, GTK_WIDGET (window), &export_bounds));
  g_assert_cmpfloat (menu_bounds.origin.x, >, export_bounds.origin.x);

  assert_menu_model (gtk_menu_button_get_menu_model (button), window);

  /* Nothing to compare or export before a profile is open. */
  check_menu_items (FALSE, "menu-empty");

  /* F10, GtkWindow's key for the primary menu, opens it. */
  f10 = lookup_shortcut (GTK_WIDGET (window), GDK_KEY_F10, 0);
  g_assert_nonnull (f10);
  g_assert_true (gtk_shortcut_action_activate (gtk_shortcut_get_action (f10), 0,
                                               GTK_WIDGET (window), NULL));
  WAIT_UNTIL (gtk_widget_get_mapped (GTK_WIDGET (gtk_menu_button_get_popover (button))), 5000);
  gtk_menu_button_popdown (button);

  /* With the demo loaded, everything can be used. */
  open_demo (window);
  check_menu_items (TRUE, "menu");
}

/* ------------------------------------------------------------------------ */
/* About                                                                     */
/* ------------------------------------------------------------------------ */

/* The metainfo's <url type="TYPE">. */
static char *
metainfo_url (const char *type)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "..", "data",
                                                 TV_APPLICATION_ID ".metainfo.xml.in", NULL);
  g_autofree char *text = NULL;
  g_autofree char *pattern = g_strdup_printf ("<url type=\"%s\">([^<]+)</url>", type);
  g_autoptr(GRegex) regex = g_regex_new (pattern, 0, 0, NULL);
  g_autoptr(GMatchInfo) match = NULL;
  g_autoptr(GError) error = NULL;

  g_file_get_contents (path, &text, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (g_regex_match (regex, text, 0, &match));
  return g_match_info_fetch (match, 1);
}

/* app.about shows an About window for the main window, with the
 * application's name, icon, version, developers, licence and links. */
static void
test_about (void)
{
  TvWindow *window = get_window ();
  GtkWidget *about;
  g_autofree char *homepage = metainfo_url ("homepage");
  g_autofree char *bugtracker = metainfo_url ("bugtracker");
  const char *icon;

  g_assert_null (find_shown_toplevel (ADW_TYPE_ABOUT_WINDOW));
  g_action_group_activate_action (G_ACTION_GROUP (application), "about", NULL);
  WAIT_UNTIL ((about = find_shown_toplevel (ADW_TYPE_ABOUT_WINDOW)) != NULL, 5000);

  g_assert_true (gtk_window_get_transient_for (GTK_WINDOW (about)) == GTK_WINDOW (window));
  g_assert_cmpstr (adw_about_window_get_application_name (ADW_ABOUT_WINDOW (about)), ==,
                   "Tachyon Viewer");
  g_assert_cmpstr (adw_about_window_get_version (ADW_ABOUT_WINDOW (about)), ==,
                   TV_PROJECT_VERSION);
  g_assert_cmpstr (adw_about_window_get_developer_name (ADW_ABOUT_WINDOW (about)), ==,
                   "The Tachyon Viewer authors");
  g_assert_cmpint (adw_about_window_get_license_type (ADW_ABOUT_WINDOW (about)), ==,
                   GTK_LICENSE_GPL_3_0);
  g_assert_cmpstr (adw_about_window_get_website (ADW_ABOUT_WINDOW (about)), ==, homepage);
  g_assert_cmpstr (adw_about_window_get_issue_url (ADW_ABOUT_WINDOW (about)), ==, bugtracker);
  icon = adw_about_window_get_application_icon (ADW_ABOUT_WINDOW (about));
  g_assert_cmpstr (icon, ==, TV_APPLICATION_ID);
  /* From the resources: GtkApplication adds their icons to the theme. */
  g_assert_true (gtk_icon_theme_has_icon (gtk_icon_theme_get_for_display (gdk_display_get_default ()),
                                          icon));

  save_light_and_dark (about, "about");
  gtk_window_destroy (GTK_WINDOW (about));
  g_assert_null (find_shown_toplevel (ADW_TYPE_ABOUT_WINDOW));
}

/* ------------------------------------------------------------------------ */
/* Keyboard shortcuts                                                        */
/* ------------------------------------------------------------------------ */

/* win.show-help-overlay (Ctrl+? and F1) shows the shortcuts window of the
 * resources for the main window. */
static void
test_shortcuts_window (void)
{
  TvWindow *window = get_window ();
  GtkShortcutsWindow *overlay;
  g_auto(GStrv) accels = gtk_application_get_accels_for_action (GTK_APPLICATION (application),
                                                                "win.show-help-overlay");

  g_assert_true (g_strv_contains ((const char * const *) accels, "<Control>question"));
  g_assert_true (g_strv_contains ((const char * const *) accels, "F1"));

  overlay = gtk_application_window_get_help_overlay (GTK_APPLICATION_WINDOW (window));
  g_assert_nonnull (overlay);
  g_assert_false (gtk_widget_get_mapped (GTK_WIDGET (overlay)));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.show-help-overlay", NULL));
  WAIT_UNTIL (find_shown_toplevel (GTK_TYPE_SHORTCUTS_WINDOW) == GTK_WIDGET (overlay), 5000);
  g_assert_true (gtk_window_get_transient_for (GTK_WINDOW (overlay)) == GTK_WINDOW (window));

  save_light_and_dark (GTK_WIDGET (overlay), "shortcuts");
  gtk_window_close (GTK_WINDOW (overlay));
  WAIT_UNTIL (!gtk_widget_get_mapped (GTK_WIDGET (overlay)), 5000);
}

/* Every accelerator the application registers is LISTED; returns how
 * many there are. */
static guint
assert_application_accels_listed (GArray *listed)
{
  g_auto(GStrv) actions = gtk_application_list_action_descriptions (GTK_APPLICATION (application));
  guint n_checked = 0;

  for (guint i = 0; actions[i] != NULL; i++)
    {
      g_auto(GStrv) accels = gtk_application_get_accels_for_action (GTK_APPLICATION (application),
                                                                    actions[i]);

      for (guint j = 0; accels[j] != NULL; j++)
        {
          Accel accel = parse_accel (accels[j]);

          if (!accels_contain (listed, accel.keyval, accel.modifiers))
            g_error ("%s (%s) is not in the shortcuts window", accels[j], actions[i]);
          n_checked++;
        }
    }
  return n_checked;
}

/* Every key of the shortcuts of WIDGET's CONTROLLER that name an action
 * is LISTED: our bindings name actions; GTK's own (focus moves and the
 * like, which GtkWindow's subclasses inherit) do not.  Returns how many
 * there are. */
static guint
assert_bindings_listed (GtkWidget             *widget,
                        GtkShortcutController *controller,
                        GArray                *listed)
{
  guint n_checked = 0;

  for (guint k = 0; k < g_list_model_get_n_items (G_LIST_MODEL (controller)); k++)
    {
      g_autoptr(GtkShortcut) shortcut = g_list_model_get_item (G_LIST_MODEL (controller), k);
      g_autoptr(GArray) keys = g_array_new (FALSE, FALSE, sizeof (Accel));
      GtkShortcutAction *action = gtk_shortcut_get_action (shortcut);

      if (!GTK_IS_NAMED_ACTION (action))
        continue;
      append_trigger_accels (gtk_shortcut_get_trigger (shortcut), keys);
      for (guint n = 0; n < keys->len; n++)
        {
          Accel *key = &g_array_index (keys, Accel, n);
          g_autofree char *name = gtk_accelerator_name (key->keyval, key->modifiers);

          if (!accels_contain (listed, key->keyval, key->modifiers))
            g_error ("%s (%s of %s) is not in the shortcuts window", name,
                     gtk_named_action_get_action_name (GTK_NAMED_ACTION (action)),
                     G_OBJECT_TYPE_NAME (widget));
          n_checked++;
        }
    }
  return n_checked;
}

/* Every accelerator the application registers, and every key binding of
 * our widget classes (in the window with a profile and a comparison open,
 * so that every kind of page is there), is in the shortcuts window. */
static void
test_shortcuts_cover_code (void)
{
  TvWindow *window = get_window ();
  GtkWidget *overlay = GTK_WIDGET (gtk_application_window_get_help_overlay (GTK_APPLICATION_WINDOW (window)));
  g_autoptr(GPtrArray) groups = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GArray) listed = g_array_new (FALSE, FALSE, sizeof (Accel));
  g_autoptr(GPtrArray) widgets = g_ptr_array_new ();
  g_autoptr(GFile) demo = g_file_new_for_uri (TV_DEMO_PROFILE_URI);
  TvComparePage *comparison;
  guint n_checked;

  comparison = tv_window_open_comparison (window, demo, demo);
  WAIT_UNTIL (tv_compare_page_get_state (comparison) != TV_COMPARE_PAGE_LOADING, 20000);
  g_assert_cmpint (tv_compare_page_get_state (comparison), ==, TV_COMPARE_PAGE_READY);

  list_shortcuts_window (overlay, groups, listed);
  g_assert_cmpuint (listed->len, >, 20);

  n_checked = assert_application_accels_listed (listed);
  ui_test_collect_widgets (GTK_WIDGET (window), GTK_TYPE_WIDGET, widgets);
  for (guint i = 0; i < widgets->len; i++)
    {
      GtkWidget *widget = g_ptr_array_index (widgets, i);
      g_autoptr(GListModel) controllers = NULL;

      if (!g_str_has_prefix (G_OBJECT_TYPE_NAME (widget), "Tv"))
        continue;
      controllers = gtk_widget_observe_controllers (widget);
      for (guint j = 0; j < g_list_model_get_n_items (controllers); j++)
        {
          g_autoptr(GObject) controller = g_list_model_get_item (controllers, j);

          if (GTK_IS_SHORTCUT_CONTROLLER (controller))
            n_checked += assert_bindings_listed (widget, GTK_SHORTCUT_CONTROLLER (controller),
                                                 listed);
        }
    }
  /* Ctrl+O, Ctrl+W, Ctrl+E, Ctrl+?, F1 and, at least, the bindings of the
   * window, the flame view, the flame graph and the timeline. */
  g_assert_cmpuint (n_checked, >, 12);
}

static GtkWidget *
find_required_widget (GtkWidget *root,
                      GType      type)
{
  GtkWidget *widget = ui_test_find_widget (root, type);

  g_assert_nonnull (widget);
  return widget;
}

/* The widgets that handle the shortcuts of GROUP of the shortcuts window
 * (the window's own for "General", with the application's
 * accelerators). */
static GPtrArray *
group_handlers (TvWindow   *window,
                const char *group)
{
  GPtrArray *handlers = g_ptr_array_new ();

  if (g_str_equal (group, "General"))
    g_ptr_array_add (handlers, window);
  else if (g_str_equal (group, "Tabs"))
    g_ptr_array_add (handlers, find_required_widget (GTK_WIDGET (window), ADW_TYPE_TAB_VIEW));
  else if (g_str_equal (group, "Flame Graph"))
    g_ptr_array_add (handlers, find_required_widget (GTK_WIDGET (window), TV_TYPE_FLAME_GRAPH));
  else if (g_str_equal (group, "Search"))
    {
      /* The view's bindings, and its search entry's with the entry's text
       * (Enter). */
      GtkWidget *view = find_required_widget (GTK_WIDGET (window), TV_TYPE_FLAME_VIEW);
      GtkWidget *entry = GTK_WIDGET (gtk_widget_get_template_child (view, TV_TYPE_FLAME_VIEW,
                                                                    "search_entry"));

      g_assert_true (GTK_IS_SEARCH_ENTRY (entry));
      g_ptr_array_add (handlers, view);
      g_ptr_array_add (handlers, entry);
      g_ptr_array_add (handlers, find_required_widget (entry, GTK_TYPE_TEXT));
    }
  else if (g_str_equal (group, "Timeline"))
    g_ptr_array_add (handlers, find_required_widget (GTK_WIDGET (window),
                                                     TV_TYPE_TIMELINE_VIEW));
  else
    g_error ("the shortcuts window's group \"%s\" is not known to the test", group);
  return handlers;
}

/* Every key in the shortcuts window is taken where its group says: by a
 * shortcut of the widget that its group names, or by our key handler
 * there; the general ones by the window or the application. */
static void
test_shortcuts_exist (void)
{
  TvWindow *window = get_window ();
  GtkWidget *overlay = GTK_WIDGET (gtk_application_window_get_help_overlay (GTK_APPLICATION_WINDOW (window)));
  g_autoptr(GPtrArray) groups = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GArray) listed = g_array_new (FALSE, FALSE, sizeof (Accel));

  list_shortcuts_window (overlay, groups, listed);
  for (guint i = 0; i < listed->len; i++)
    {
      Accel *accel = &g_array_index (listed, Accel, i);
      const char *group = g_ptr_array_index (groups, i);
      g_autoptr(GPtrArray) handlers = group_handlers (window, group);
      g_autofree char *name = gtk_accelerator_name (accel->keyval, accel->modifiers);
      g_auto(GStrv) actions = gtk_application_get_actions_for_accel (GTK_APPLICATION (application),
                                                                     name);
      gboolean taken = g_str_equal (group, "General") && actions[0] != NULL;

      for (guint j = 0; j < handlers->len && !taken; j++)
        taken = widget_takes (g_ptr_array_index (handlers, j), accel->keyval, accel->modifiers);
      g_test_message ("%s: %s", group, name);
      if (!taken)
        g_error ("the shortcuts window lists %s under %s, which nothing there handles",
                 name, group);
    }
}

/* Ctrl+Q closes every window, each through its close request (which
 * keeps its size for next time), and so ends the application; Ctrl+W
 * closes the tab.  Last: it closes the tests' window. */
static void
test_quit (void)
{
  TvWindow *window = get_window ();
  TvWindow *second = tv_window_new (GTK_APPLICATION (application));
  AdwTabView *tab_view = tv_window_get_tab_view (window);
  g_autoptr(GFile) demo = g_file_new_for_uri (TV_DEMO_PROFILE_URI);
  g_autoptr(GSettings) settings = tv_application_new_settings ();
  int n_pages;

  g_assert_nonnull (settings);
  gtk_window_present (GTK_WINDOW (second));
  g_assert_cmpuint (g_list_length (gtk_application_get_windows (GTK_APPLICATION (application))),
                    ==, 2);

  tv_window_open_file (window, demo);
  n_pages = adw_tab_view_get_n_pages (tab_view);
  g_assert_cmpint (n_pages, >, 0);
  g_assert_true (ui_test_activate_shortcut (GTK_WIDGET (window), GDK_KEY_w, GDK_CONTROL_MASK));
  g_assert_cmpint (adw_tab_view_get_n_pages (tab_view), ==, n_pages - 1);

  /* Neither is the size the settings hold now. */
  g_assert_cmpint (g_settings_get_int (settings, "window-width"), !=, 777);
  gtk_window_set_default_size (GTK_WINDOW (window), 777, 555);
  gtk_window_set_default_size (GTK_WINDOW (second), 777, 555);
  g_assert_true (ui_test_activate_shortcut (GTK_WIDGET (window), GDK_KEY_q, GDK_CONTROL_MASK));
  WAIT_UNTIL (gtk_application_get_windows (GTK_APPLICATION (application)) == NULL, 10000);
  g_assert_cmpint (g_settings_get_int (settings, "window-width"), ==, 777);
  g_assert_cmpint (g_settings_get_int (settings, "window-height"), ==, 555);
}

int
main (int   argc,
      char *argv[])
{
  if (!ui_test_init (&argc, &argv))
    return 77;

  g_test_add_func ("/ui/menus/primary-menu", test_primary_menu);
  g_test_add_func ("/ui/menus/about", test_about);
  g_test_add_func ("/ui/menus/shortcuts-window", test_shortcuts_window);
  g_test_add_func ("/ui/menus/shortcuts-cover-code", test_shortcuts_cover_code);
  g_test_add_func ("/ui/menus/shortcuts-exist", test_shortcuts_exist);
  g_test_add_func ("/ui/menus/quit", test_quit);

  return ui_test_run_in_application (&application, FALSE);
}
