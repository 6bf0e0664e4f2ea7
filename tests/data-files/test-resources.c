/* test-resources.c: the GResource bundle as tachyon-viewer links it
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The bundle is compiled into this test the way it is compiled into the
 * application (data/meson.build, tv_resources), so these are the bytes the
 * application loads: the CSS parses without an error and its colours keep
 * frame labels readable in the light and the dark style, every .ui
 * template builds under libadwaita with no warning (gtk_test_init makes
 * warnings fatal), the start page has what the window will bind to, and
 * the icons load.
 */
#include <adwaita.h>
#include <math.h>

#define RESOURCE_BASE "/io/github/tachyonviewer/TachyonViewer"
#define APP_ID "io.github.tachyonviewer.TachyonViewer"

/* The start page, as the application will declare it. */
struct _TvStartPage
{
  AdwBin         parent_instance;

  GtkButton     *open_button;
  GtkListBox    *recent_list;
  GtkWidget     *recent_placeholder;
};

#define TV_TYPE_START_PAGE (tv_start_page_get_type ())
G_DECLARE_FINAL_TYPE (TvStartPage, tv_start_page, TV, START_PAGE, AdwBin)
G_DEFINE_FINAL_TYPE (TvStartPage, tv_start_page, ADW_TYPE_BIN)

static void
tv_start_page_dispose (GObject *object)
{
  gtk_widget_dispose_template (GTK_WIDGET (object), TV_TYPE_START_PAGE);

  G_OBJECT_CLASS (tv_start_page_parent_class)->dispose (object);
}

static void
tv_start_page_class_init (TvStartPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tv_start_page_dispose;

  gtk_widget_class_set_template_from_resource (widget_class,
                                               RESOURCE_BASE "/ui/tv-start-page.ui");
  gtk_widget_class_bind_template_child (widget_class, TvStartPage, open_button);
  gtk_widget_class_bind_template_child (widget_class, TvStartPage, recent_list);
  gtk_widget_class_bind_template_child (widget_class, TvStartPage, recent_placeholder);
}

static void
tv_start_page_init (TvStartPage *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

/* A widget with the flame graph's CSS node name, to read its style. */
typedef struct { GtkWidget parent_instance; } TestFlamegraph;
typedef struct { GtkWidgetClass parent_class; } TestFlamegraphClass;
static GType test_flamegraph_get_type (void);
G_DEFINE_TYPE (TestFlamegraph, test_flamegraph, GTK_TYPE_WIDGET)

static void
test_flamegraph_class_init (TestFlamegraphClass *klass)
{
  gtk_widget_class_set_css_name (GTK_WIDGET_CLASS (klass), "flamegraph");
}

static void
test_flamegraph_init (TestFlamegraph *self)
{
}

/* ------------------------------------------------------------------------ */

static void
test_files (void)
{
  static const char * const paths[] = {
    RESOURCE_BASE "/style.css",
    RESOURCE_BASE "/style-dark.css",
    RESOURCE_BASE "/ui/tv-start-page.ui",
    RESOURCE_BASE "/icons/scalable/apps/" APP_ID ".svg",
    RESOURCE_BASE "/icons/scalable/apps/" APP_ID "-symbolic.svg",
  };

  for (guint i = 0; i < G_N_ELEMENTS (paths); i++)
    {
      g_autoptr(GError) error = NULL;
      gsize size = 0;

      g_test_message ("%s", paths[i]);
      g_assert_true (g_resources_get_info (paths[i], G_RESOURCE_LOOKUP_FLAGS_NONE,
                                           &size, NULL, &error));
      g_assert_no_error (error);
      g_assert_cmpuint (size, >, 0);
    }
}

static void
on_parsing_error (GtkCssProvider *provider,
                  GtkCssSection  *section,
                  const GError   *error,
                  gpointer        user_data)
{
  GString *errors = user_data;
  g_autofree char *where = gtk_css_section_to_string (section);

  g_string_append_printf (errors, "%s: %s\n", where, error->message);
}

static GtkCssProvider *
load_css (const char *path)
{
  g_autoptr(GString) errors = g_string_new (NULL);
  GtkCssProvider *provider = gtk_css_provider_new ();
  gulong id;

  id = g_signal_connect (provider, "parsing-error", G_CALLBACK (on_parsing_error), errors);
  gtk_css_provider_load_from_resource (provider, path);
  g_signal_handler_disconnect (provider, id);
  if (errors->len > 0)
    g_error ("%s does not parse:\n%s", path, errors->str);

  return provider;
}

static void
test_css_parses (void)
{
  g_autoptr(GtkCssProvider) light = load_css (RESOURCE_BASE "/style.css");
  g_autoptr(GtkCssProvider) dark = load_css (RESOURCE_BASE "/style-dark.css");
}

/* WCAG 2 relative luminance and contrast ratio. */
static double
channel_luminance (double c)
{
  return c <= 0.04045 ? c / 12.92 : pow ((c + 0.055) / 1.055, 2.4);
}

static double
luminance (const GdkRGBA *c)
{
  return 0.2126 * channel_luminance (c->red)
       + 0.7152 * channel_luminance (c->green)
       + 0.0722 * channel_luminance (c->blue);
}

static double
contrast (const GdkRGBA *a,
          const GdkRGBA *b)
{
  double la = luminance (a), lb = luminance (b);

  return (MAX (la, lb) + 0.05) / (MIN (la, lb) + 0.05);
}

G_GNUC_BEGIN_IGNORE_DEPRECATIONS
static void
lookup_color (GtkWidget  *widget,
              const char *name,
              GdkRGBA    *color)
{
  if (!gtk_style_context_lookup_color (gtk_widget_get_style_context (widget), name, color))
    g_error ("the named colour %s does not resolve", name);
}

/* The named colours the widgets use, from the palette (palette.css,
 * generated from src/render/tv-palette.c): they resolve, and the
 * comparison's changes, drawn as bold text on the view, read as such
 * (WCAG's 3:1 for bold text and interface parts).  SLOWER is filled with
 * the slower colour. */
static void
check_colors (const char *scheme,
              GdkRGBA    *slower)
{
  static const char * const text_colors[] = {
    "tv_diff_slower_color", "tv_diff_faster_color",
  };
  GtkWidget *flamegraph = g_object_ref_sink (g_object_new (test_flamegraph_get_type (), NULL));
  GdkRGBA background, color;

  lookup_color (flamegraph, "view_bg_color", &background);
  for (guint i = 0; i < G_N_ELEMENTS (text_colors); i++)
    {
      double ratio;

      lookup_color (flamegraph, text_colors[i], &color);
      ratio = contrast (&background, &color);
      g_test_message ("%s: %s on the view: %.2f:1", scheme, text_colors[i], ratio);
      if (ratio < 3.0)
        g_error ("%s: %s has a contrast of %.2f:1 on the view, below 3:1",
                 scheme, text_colors[i], ratio);
      if (i == 0)
        *slower = color;
    }

  g_object_unref (flamegraph);
}
G_GNUC_END_IGNORE_DEPRECATIONS

/* AdwApplication loads style.css, and style-dark.css over it in the dark
 * style; the test does the same by hand. */
static void
test_css_colors (void)
{
  GdkDisplay *display = gdk_display_get_default ();
  AdwStyleManager *manager = adw_style_manager_get_default ();
  g_autoptr(GtkCssProvider) light = load_css (RESOURCE_BASE "/style.css");
  g_autoptr(GtkCssProvider) dark = load_css (RESOURCE_BASE "/style-dark.css");
  GdkRGBA light_slower, dark_slower;

  gtk_style_context_add_provider_for_display (display, GTK_STYLE_PROVIDER (light),
                                              GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);
  adw_style_manager_set_color_scheme (manager, ADW_COLOR_SCHEME_FORCE_LIGHT);
  check_colors ("light", &light_slower);

  gtk_style_context_add_provider_for_display (display, GTK_STYLE_PROVIDER (dark),
                                              GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);
  adw_style_manager_set_color_scheme (manager, ADW_COLOR_SCHEME_FORCE_DARK);
  g_assert_true (adw_style_manager_get_dark (manager));
  check_colors ("dark", &dark_slower);
  /* style-dark.css brings the palette's dark colours. */
  g_assert_false (gdk_rgba_equal (&light_slower, &dark_slower));

  gtk_style_context_remove_provider_for_display (display, GTK_STYLE_PROVIDER (dark));
  gtk_style_context_remove_provider_for_display (display, GTK_STYLE_PROVIDER (light));
  adw_style_manager_set_color_scheme (manager, ADW_COLOR_SCHEME_DEFAULT);
}

/* Every .ui file of the bundle builds, as gtk4-builder-tool validate would
 * build it but with libadwaita initialised: a template whose class the
 * application defines elsewhere gets a stand-in type with the same name and
 * parent. */
static GType
template_type (const char *ui)
{
  g_autoptr(GRegex) regex = g_regex_new ("<template\\s+class=\"(\\w+)\"\\s+parent=\"(\\w+)\"",
                                         0, 0, NULL);
  g_autoptr(GMatchInfo) match = NULL;
  g_autofree char *name = NULL;
  g_autofree char *parent_name = NULL;
  GType type;
  GType parent;
  GTypeQuery query;

  if (!g_regex_match (regex, ui, 0, &match))
    return G_TYPE_INVALID;

  name = g_match_info_fetch (match, 1);
  parent_name = g_match_info_fetch (match, 2);
  type = g_type_from_name (name);
  if (type != G_TYPE_INVALID)
    return type;

  parent = g_type_from_name (parent_name);
  if (parent == G_TYPE_INVALID)
    g_error ("the template %s derives from %s, which is not a GTK or libadwaita type",
             name, parent_name);
  g_type_query (parent, &query);
  type = g_type_register_static_simple (parent, g_intern_string (name),
                                        query.class_size, NULL,
                                        query.instance_size, NULL, 0);
  g_assert_true (type != G_TYPE_INVALID);

  return type;
}

static void
test_templates (void)
{
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) names = g_resources_enumerate_children (RESOURCE_BASE "/ui/",
                                                        G_RESOURCE_LOOKUP_FLAGS_NONE, &error);
  guint n_templates = 0;

  g_assert_no_error (error);
  for (guint i = 0; names[i] != NULL; i++)
    {
      g_autofree char *path = g_strconcat (RESOURCE_BASE "/ui/", names[i], NULL);
      g_autoptr(GBytes) bytes = g_resources_lookup_data (path, 0, &error);
      g_autofree char *ui = NULL;
      GType type;

      g_assert_no_error (error);
      g_test_message ("%s", path);
      ui = g_strndup (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
      type = template_type (ui);
      if (type != G_TYPE_INVALID)
        {
          GtkWidget *widget;

          if (type != TV_TYPE_START_PAGE)
            gtk_widget_class_set_template (g_type_class_ref (type), bytes);
          widget = g_object_ref_sink (g_object_new (type, NULL));
          g_assert_true (GTK_IS_WIDGET (widget));
          g_object_unref (widget);
          n_templates++;
        }
      else
        {
          g_autoptr(GtkBuilder) builder = gtk_builder_new ();

          gtk_builder_add_from_string (builder, ui, -1, &error);
          g_assert_no_error (error);
        }
    }
  g_assert_cmpuint (n_templates, >=, 1);
}

static void
on_open (GSimpleAction *action,
         GVariant      *parameter,
         gpointer       user_data)
{
  (*(guint *) user_data)++;
}

static void
test_start_page (void)
{
  g_autoptr(GSimpleActionGroup) group = g_simple_action_group_new ();
  g_autoptr(GSimpleAction) open = g_simple_action_new ("open", NULL);
  GtkWidget *window = gtk_window_new ();
  TvStartPage *page = g_object_new (TV_TYPE_START_PAGE, NULL);
  GtkWidget *status_page;
  guint n_opened = 0;

  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (page));

  status_page = adw_bin_get_child (ADW_BIN (page));
  g_assert_true (ADW_IS_STATUS_PAGE (status_page));
  g_assert_cmpstr (adw_status_page_get_icon_name (ADW_STATUS_PAGE (status_page)), ==, APP_ID);
  g_assert_cmpstr (adw_status_page_get_title (ADW_STATUS_PAGE (status_page)), !=, "");

  g_assert_true (GTK_IS_BUTTON (page->open_button));
  g_assert_cmpstr (gtk_actionable_get_action_name (GTK_ACTIONABLE (page->open_button)), ==,
                   "win.open");
  g_assert_true (gtk_button_get_use_underline (page->open_button));
  g_assert_nonnull (strchr (gtk_button_get_label (page->open_button), '_'));

  g_assert_true (GTK_IS_LIST_BOX (page->recent_list));
  g_assert_cmpint (gtk_list_box_get_selection_mode (page->recent_list), ==,
                   GTK_SELECTION_NONE);
  g_assert_true (gtk_widget_has_css_class (GTK_WIDGET (page->recent_list), "boxed-list"));
  g_assert_null (gtk_list_box_get_row_at_index (page->recent_list, 0));
  /* The placeholder is the list's own child, shown while it has no row. */
  g_assert_true (gtk_widget_get_parent (page->recent_placeholder) ==
                 GTK_WIDGET (page->recent_list));

  /* The button is sensitive and activates win.open once the window has it. */
  g_signal_connect (open, "activate", G_CALLBACK (on_open), &n_opened);
  g_action_map_add_action (G_ACTION_MAP (group), G_ACTION (open));
  gtk_widget_insert_action_group (window, "win", G_ACTION_GROUP (group));
  g_assert_true (gtk_widget_is_sensitive (GTK_WIDGET (page->open_button)));
  g_signal_emit_by_name (page->open_button, "clicked");
  g_assert_cmpuint (n_opened, ==, 1);

  gtk_window_destroy (GTK_WINDOW (window));
}

static void
test_icons (void)
{
  static const char * const names[] = { APP_ID, APP_ID "-symbolic" };
  GtkIconTheme *theme = gtk_icon_theme_get_for_display (gdk_display_get_default ());

  /* What GtkApplication does for its resource base path. */
  gtk_icon_theme_add_resource_path (theme, RESOURCE_BASE "/icons");

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *path = g_strdup_printf (RESOURCE_BASE "/icons/scalable/apps/%s.svg",
                                               names[i]);
      g_autoptr(GError) error = NULL;
      g_autoptr(GdkPixbuf) pixbuf = NULL;

      g_test_message ("%s", path);
      g_assert_true (gtk_icon_theme_has_icon (theme, names[i]));
      /* gdk-pixbuf tells SVG by the first bytes of the file, not its name. */
      pixbuf = gdk_pixbuf_new_from_resource_at_scale (path, 64, 64, TRUE, &error);
      g_assert_no_error (error);
      g_assert_cmpint (gdk_pixbuf_get_width (pixbuf), ==, 64);
      g_assert_cmpint (gdk_pixbuf_get_height (pixbuf), ==, 64);
    }
}

int
main (int   argc,
      char *argv[])
{
  if (g_getenv ("DISPLAY") == NULL && g_getenv ("WAYLAND_DISPLAY") == NULL)
    {
      /* CI runs this under Xvfb, where a skip is counted as a failure. */
      g_print ("1..0 # SKIP no display\n");
      return 0;
    }

  gtk_test_init (&argc, &argv, NULL);
  adw_init ();
  g_type_ensure (TV_TYPE_START_PAGE);

  g_test_add_func ("/data/resources/files", test_files);
  g_test_add_func ("/data/resources/css/parses", test_css_parses);
  g_test_add_func ("/data/resources/css/colors", test_css_colors);
  g_test_add_func ("/data/resources/templates", test_templates);
  g_test_add_func ("/data/resources/start-page", test_start_page);
  g_test_add_func ("/data/resources/icons", test_icons);

  return g_test_run ();
}
