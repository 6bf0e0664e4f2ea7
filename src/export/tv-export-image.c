/* tv-export-image.c: a flame graph as an SVG, PNG or PDF file
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The picture has three bands: the title (the profile's name, then what is
 * shown), the flame graph with all its rows, and the caption (the header's
 * facts, the statistics block, what the colours mean).  A surface's size
 * must be known before anything is drawn on it, so everything is laid out
 * and measured first.  Font metrics are unhinted in every format, so text
 * wraps the same way and an SVG, a PNG and a PDF of one view have the same
 * geometry.
 *
 * Text that comes from the profile (its file name, the names in the zoom
 * path) or from the user (the search) is drawn with control and
 * bidirectional formatting characters made visible, as the HTML page shows
 * them: a name can neither reorder the caption nor put a character into
 * the SVG that XML does not allow.  Cairo draws text as glyph outlines, so
 * the SVG carries the title and the caption again as <title> and <desc>
 * (the PDF as its Title and Subject, the PNG as iTXt chunks), for search
 * engines, screen readers and tests.
 */
#include "tv-export-image.h"
#include "tachyon-format.h"

#include <math.h>
#include <string.h>

#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <glib/gi18n.h>
#include <pango/pangocairo.h>

#include "tv-json.h"
#include "tv-text.h"
#include "tv-units.h"

#ifndef PACKAGE_VERSION
# define PACKAGE_VERSION "unknown"
#endif

#define MARGIN               16.0     /* pixels around everything */
#define BAND_GAP             12.0     /* between the graph and the text */
#define PARAGRAPH_GAP        4.0
#define SWATCH_SIZE          10.0     /* legend squares: shorter than a row */
#define SWATCH_GAP           5.0
#define LEGEND_ENTRY_GAP     16.0
#define EMPTY_ROWS           2        /* the height of "no samples" */
#define TITLE_FONT           "Sans Bold 13"
#define TEXT_FONT            "Sans 9.5"
#define PDF_POINTS_PER_PIXEL 0.75     /* 96 pixels to the inch */
#define MAX_LISTED_THREADS   8
#define MAX_PARAGRAPH_LINES  4

/* ------------------------------------------------------------------------ */
/* Options                                                                   */
/* ------------------------------------------------------------------------ */

void
tv_export_image_options_init (TvExportImageOptions *options)
{
  g_return_if_fail (options != NULL);

  memset (options, 0, sizeof *options);
  options->colors = TV_FLAME_COLORS_MODULE;
  options->dark = FALSE;
  options->width = TV_EXPORT_IMAGE_DEFAULT_WIDTH;
}

/**
 * tv_export_image_options_check:
 * @options: image options
 * @error: return location for an error
 *
 * Checks what can be checked without a profile: the width.
 *
 * Returns: %TRUE if @options can make an image
 */
gboolean
tv_export_image_options_check (const TvExportImageOptions  *options,
                               GError                     **error)
{
  g_return_val_if_fail (options != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (options->width < TV_EXPORT_IMAGE_MIN_WIDTH || options->width > TV_EXPORT_IMAGE_MAX_WIDTH)
    {
      g_autofree char *text = g_strdup_printf ("%u", options->width);

      g_set_error (error, TV_EXPORT_ERROR, TV_EXPORT_ERROR_INVALID_OPTION,
                   _("Invalid width “%s”: expected a number of pixels from %u to %u"),
                   text, TV_EXPORT_IMAGE_MIN_WIDTH, TV_EXPORT_IMAGE_MAX_WIDTH);
      return FALSE;
    }
  return TRUE;
}

gboolean
tv_export_image_format_from_string (const char          *name,
                                    TvExportImageFormat *format)
{
  static const char * const names[] = { "svg", "png", "pdf" };

  g_return_val_if_fail (name != NULL, FALSE);

  for (gsize i = 0; i < G_N_ELEMENTS (names); i++)
    {
      if (strcmp (name, names[i]) == 0)
        {
          if (format != NULL)
            *format = (TvExportImageFormat) i;
          return TRUE;
        }
    }
  return FALSE;
}

/* ------------------------------------------------------------------------ */
/* Text                                                                      */
/* ------------------------------------------------------------------------ */

/* Appends TEXT escaped for XML character data and attribute values. */
static void
append_xml_escaped (GString    *out,
                    const char *text)
{
  for (const char *p = text; *p != '\0'; p++)
    {
      switch (*p)
        {
        case '&':
          g_string_append (out, "&amp;");
          break;
        case '<':
          g_string_append (out, "&lt;");
          break;
        case '>':
          g_string_append (out, "&gt;");
          break;
        case '"':
          g_string_append (out, "&quot;");
          break;
        case '\'':
          g_string_append (out, "&apos;");
          break;
        default:
          g_string_append_c (out, *p);
          break;
        }
    }
}

/* Appends "LABEL: VALUE", with " · " before it unless it starts OUT;
 * LABELS (if not NULL) gets where the label went, as a pair of byte
 * offsets, so that it can be drawn lighter than the value. */
static void
append_fact (GString    *out,
             GArray     *labels,
             const char *label,
             const char *value)
{
  gsize start;
  const char *found;

  if (out->len > 0)
    g_string_append (out, " · ");
  if (label == NULL)
    {
      g_string_append (out, value);
      return;
    }
  start = out->len;
  /* Translators: a label and its value in an exported image's caption,
   * e.g. "Duration: 1.5 s". */
  g_string_append_printf (out, _("%s: %s"), label, value);
  found = labels != NULL ? strstr (out->str + start, label) : NULL;
  if (found != NULL)
    {
      guint range[2] = { found - out->str, found - out->str + strlen (label) };

      g_array_append_vals (labels, range, 2);
    }
}

static char *
format_double (double value)
{
  char buf[TV_JSON_DOUBLE_BUF_SIZE];

  /* The number --info --json gives: the shortest text that reads back as
   * the same double. */
  tv_json_format_double (buf, sizeof buf, value);
  return g_strdup (buf);
}

/* ------------------------------------------------------------------------ */
/* The image                                                                 */
/* ------------------------------------------------------------------------ */

typedef struct
{
  TvFlameColor  color;
  PangoLayout  *layout;
  double        x;          /* from the text's left edge */
  double        y;          /* from the legend's top */
} LegendEntry;

typedef struct
{
  TvProfileData              *data;
  const TvExportFilter       *filter;
  const TvExportImageOptions *options;
  TvExportImageFormat         format;
  const char                 *source_name;

  TvExportQuery               query;
  TvCallTree                 *tree;
  guint32                     zoom;             /* the zoom root's node */
  GArray                     *zoom_path;        /* its merge keys, from the root */
  TvFlameMatches             *matches;
  TvFlameLayout              *layout;
  guint                       content_rows;
  guint                       shown_rows;

  /* The texts, as drawn (visible characters only). */
  char                       *title;
  char                       *subtitle;
  char                       *facts;
  char                       *stats;
  GArray                     *facts_labels;     /* guint pairs: label bytes */
  GArray                     *stats_labels;
  char                       *legend_text;
  char                       *note;             /* rows left out, or NULL */
  char                       *generator;

  PangoContext               *context;
  cairo_font_options_t       *font_options;
  PangoFontDescription       *title_font;
  PangoFontDescription       *text_font;
  PangoLayout                *title_layout;
  PangoLayout                *subtitle_layout;
  PangoLayout                *facts_layout;
  PangoLayout                *stats_layout;
  PangoLayout                *note_layout;
  PangoLayout                *generator_layout;
  GArray                     *legend;           /* LegendEntry */
  double                      legend_height;

  double                      width;            /* pixels */
  double                      height;
  double                      text_width;
  double                      graph_top;
  double                      graph_height;
  double                      row_height;
} Image;

static void
legend_entry_clear (gpointer data)
{
  LegendEntry *entry = data;

  g_clear_object (&entry->layout);
}

static void
image_clear (Image *self)
{
  tv_export_query_clear (&self->query);
  g_clear_pointer (&self->tree, tv_call_tree_unref);
  g_clear_pointer (&self->zoom_path, g_array_unref);
  g_clear_pointer (&self->matches, tv_flame_matches_unref);
  g_clear_pointer (&self->layout, tv_flame_layout_unref);
  g_clear_pointer (&self->title, g_free);
  g_clear_pointer (&self->subtitle, g_free);
  g_clear_pointer (&self->facts, g_free);
  g_clear_pointer (&self->stats, g_free);
  g_clear_pointer (&self->facts_labels, g_array_unref);
  g_clear_pointer (&self->stats_labels, g_array_unref);
  g_clear_pointer (&self->legend_text, g_free);
  g_clear_pointer (&self->note, g_free);
  g_clear_pointer (&self->generator, g_free);
  g_clear_object (&self->title_layout);
  g_clear_object (&self->subtitle_layout);
  g_clear_object (&self->facts_layout);
  g_clear_object (&self->stats_layout);
  g_clear_object (&self->note_layout);
  g_clear_object (&self->generator_layout);
  g_clear_pointer (&self->legend, g_array_unref);
  g_clear_pointer (&self->title_font, pango_font_description_free);
  g_clear_pointer (&self->text_font, pango_font_description_free);
  g_clear_pointer (&self->font_options, cairo_font_options_destroy);
  g_clear_object (&self->context);
}

static gboolean
set_cancelled (GCancellable  *cancellable,
               GError       **error)
{
  /* The model and the layout only ever fail because they were cancelled. */
  if (!g_cancellable_set_error_if_cancelled (cancellable, error))
    g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_CANCELLED, "Cancelled");
  return FALSE;
}

static gboolean
find_zoom_root (Image   *self,
                GError **error)
{
  return tv_export_filter_find_zoom (self->filter, self->tree, &self->zoom_path, &self->zoom,
                                     error);
}

/* The flame graph's search, over function names and "file:line". */
static gboolean
run_search (Image         *self,
            GCancellable  *cancellable,
            GError       **error)
{
  g_autoptr(GRegex) regex = tv_export_compile_search (self->filter->search, error);

  if (regex == NULL)
    return FALSE;
  self->matches = tv_flame_matches_new_for_regex (self->tree, regex, cancellable);
  if (self->matches == NULL)
    return set_cancelled (cancellable, error);
  return TRUE;
}

static TvFlameLayout *
make_layout (Image        *self,
             double        height,
             GCancellable *cancellable)
{
  TvFlameViewport viewport;

  tv_flame_viewport_init (&viewport, self->tree, self->width - 2 * MARGIN, height);
  viewport.root = self->zoom;
  viewport.x0 = 0;
  viewport.x1 = MAX (tv_call_tree_get_total (self->tree, self->zoom), 1);
  viewport.orientation = self->filter->orientation;
  viewport.show_ancestors = TRUE;
  return tv_flame_layout_new (self->tree, &viewport, cancellable);
}

static const char *
merge_description (TvMergeKey merge)
{
  switch (merge)
    {
    case TV_MERGE_FRAME:
      return _("merged by frame");
    case TV_MERGE_LINE:
      return _("merged by line");
    case TV_MERGE_INSTRUCTION:
      return _("merged by instruction");
    case TV_MERGE_FUNCTION:
    case TV_N_MERGE_KEYS:
    default:
      return _("merged by function");
    }
}

static char *
describe_threads (const TvExportFilter *filter)
{
  g_autoptr(GString) list = g_string_new (NULL);
  guint n = filter->thread_ids->len;

  if (n == 0)
    return g_strdup (_("all threads"));
  for (guint i = 0; i < n && i < MAX_LISTED_THREADS; i++)
    g_string_append_printf (list, "%s%" G_GUINT64_FORMAT, i > 0 ? ", " : "",
                            g_array_index (filter->thread_ids, guint64, i));
  if (n > MAX_LISTED_THREADS)
    g_string_append (list, ", …");
  if (n == 1)
    return g_strdup_printf (_("thread %s"), list->str);
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u thread: %s", "%u threads: %s", n),
                          n, list->str);
}

/* "in 3 selected time ranges (1.5 s)": an open end counts from the
 * first sample, or to the last. */
static char *
describe_ranges (TvProfileData        *data,
                 const TvExportFilter *filter)
{
  guint64 start_time = tach_reader_get_header (tv_profile_data_get_reader (data))->start_time_us;
  guint64 first = start_time;
  guint64 last = start_time;
  guint n = filter->ranges->len;
  g_autofree char *wall = NULL;
  double total;

  tv_profile_data_get_time_span (data, &first, &last);
  total = tv_export_filter_get_ranges_seconds (filter, ((double) first - start_time) / 1e6,
                                               ((double) last - start_time) / 1e6);
  wall = tv_format_wall_time (total);
  /* Translators: the time an exported image shows: how many time ranges
   * were selected (in the heatmap), and how long they are together
   * ("400 ms of wall time"). */
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "in %u selected time range (%s)",
                                       "in %u selected time ranges (%s)", n),
                          n, wall);
}

static char *
describe_range (const TvExportFilter *filter)
{
  g_autofree char *start = NULL;
  g_autofree char *end = NULL;

  if (!filter->has_range)
    return g_strdup (_("the whole recording"));
  start = isfinite (filter->range_start) ? format_double (filter->range_start) : NULL;
  end = isfinite (filter->range_end) ? format_double (filter->range_end) : NULL;
  /* Translators: a time range of an exported image, in seconds after the
   * profile's start. */
  if (start != NULL && end != NULL)
    return g_strdup_printf (_("from %s s to %s s"), start, end);
  if (start != NULL)
    return g_strdup_printf (_("from %s s on"), start);
  if (end != NULL)
    return g_strdup_printf (_("up to %s s"), end);
  return g_strdup (_("the whole recording"));
}

/* The transforms applied: "focus on main (app.py)", "2 hidden
 * functions", "recursion collapsed". */
static void
append_transforms (Image   *self,
                   GString *out)
{
  const TvQuery *query = &self->query.query;
  guint n_hidden = query->n_hidden_functions;

  if (query->focus_function != TV_NODE_NONE)
    {
      g_autofree char *name = tv_export_describe_key (self->data, TV_MERGE_FUNCTION,
                                                      query->focus_function);
      g_autofree char *text = g_strdup_printf (_("focus on %s"), name);

      append_fact (out, NULL, NULL, text);
    }
  if (n_hidden == 1)
    {
      g_autofree char *name = tv_export_describe_key (self->data, TV_MERGE_FUNCTION,
                                                      query->hidden_functions[0]);
      g_autofree char *text = g_strdup_printf (_("%s hidden"), name);

      append_fact (out, NULL, NULL, text);
    }
  else if (n_hidden > 1)
    {
      g_autofree char *text = NULL;

      text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u hidden function",
                                           "%u hidden functions", n_hidden), n_hidden);
      append_fact (out, NULL, NULL, text);
    }
  if (query->collapse_recursion)
    append_fact (out, NULL, NULL, _("recursion collapsed"));
}

static void
build_subtitle (Image *self)
{
  static const char * const state_names[TV_N_STATE_FILTERS] = {
    N_("every thread state"),
    N_("holding the GIL"),
    N_("on CPU"),
    N_("waiting for the GIL"),
    N_("with an exception"),
  };
  gboolean icicle = self->filter->orientation == TV_FLAME_ORIENTATION_ICICLE;
  g_autoptr(GString) out = g_string_new (NULL);
  g_autofree char *threads = describe_threads (self->filter);
  g_autofree char *range = describe_range (self->filter);
  guint64 n_shown = tv_call_tree_get_n_samples (self->tree);
  g_autofree char *shown = tv_format_count (n_shown);
  g_autofree char *all = tv_format_count (tv_profile_data_get_n_samples (self->data));
  g_autofree char *thread_time = tv_format_thread_time (tv_call_tree_samples_to_seconds (self->tree,
                                                                                         n_shown,
                                                                                         NULL));
  g_autofree char *samples = NULL;

  if (self->filter->inverted)
    append_fact (out, NULL, NULL, icicle ? _("Inverted icicle graph") : _("Inverted flame graph"));
  else
    append_fact (out, NULL, NULL, icicle ? _("Icicle graph") : _("Flame graph"));
  append_fact (out, NULL, NULL, merge_description (self->filter->merge));
  /* Translators: the samples an exported image shows, of all the
   * profile's (both are numbers), and the thread time they stand for:
   * "1,234 of 5,991 samples, 2.42 s of thread time". */
  samples = g_strdup_printf (_("%s of %s samples, %s"), shown, all, thread_time);
  append_fact (out, NULL, NULL, samples);
  append_fact (out, NULL, NULL, threads);
  append_fact (out, NULL, NULL, _(state_names[self->filter->state]));
  if (self->filter->has_range || self->filter->ranges->len == 0)
    append_fact (out, NULL, NULL, range);
  if (self->filter->ranges->len > 0)
    {
      g_autofree char *ranges = describe_ranges (self->data, self->filter);

      append_fact (out, NULL, NULL, ranges);
    }
  append_transforms (self, out);

  if (self->zoom != TV_ROOT_NODE)
    {
      g_autoptr(GString) path = g_string_new (NULL);
      g_autofree char *zoomed = NULL;
      guint n = self->zoom_path->len;
      /* The outermost frames say least: the last three are shown. */
      guint first = n > 3 ? n - 3 : 0;

      if (first > 0)
        g_string_append (path, "…");
      for (guint i = first; i < n; i++)
        {
          g_autofree char *name = tv_export_describe_key (self->data, self->filter->merge,
                                                          g_array_index (self->zoom_path,
                                                                         guint32, i));

          if (path->len > 0)
            g_string_append (path, " › ");
          g_string_append (path, name);
        }
      zoomed = g_strdup_printf (_("zoomed into %s"), path->str);
      append_fact (out, NULL, NULL, zoomed);
    }

  if (self->matches != NULL)
    {
      g_autofree char *search = tv_text_dup_shown (self->filter->search);
      guint64 all_samples = tv_call_tree_get_n_samples (self->tree);
      guint32 n_nodes = tv_flame_matches_get_n_nodes (self->matches);
      g_autofree char *share = tv_format_share (tv_flame_matches_get_n_samples (self->matches),
                                                all_samples);
      g_autofree char *text = NULL;

      /* Translators: the search of an exported image: the regular
       * expression, then how many frames match and the share of the
       * samples that pass through one. */
      text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                           "search “%s”: %u frame matches, "
                                           "%s of the samples",
                                           "search “%s”: %u frames match, "
                                           "%s of the samples",
                                           n_nodes),
                              search, n_nodes, share);
      append_fact (out, NULL, NULL, text);
    }

  self->subtitle = g_string_free (g_steal_pointer (&out), FALSE);
}

static char *
stat_value (gboolean    present,
            double      value,
            const char *unit)
{
  g_autofree char *number = NULL;

  if (!present || !isfinite (value))
    return g_strdup (_("not recorded"));
  number = tv_format_significant (value);
  return g_strconcat (number, unit, NULL);
}

static void
build_caption (Image *self)
{
  TachReader *reader = tv_profile_data_get_reader (self->data);
  const TachHeader *header = tach_reader_get_header (reader);
  const TachStats *stats = tach_reader_get_stats (reader);
  const char *mode_name = tach_mode_to_string (header->mode);
  g_autoptr(GString) facts = g_string_new (NULL);
  g_autoptr(GString) line = g_string_new (NULL);
  g_autofree char *value = NULL;
  g_autofree char *number = NULL;

  self->facts_labels = g_array_new (FALSE, FALSE, sizeof (guint));
  self->stats_labels = g_array_new (FALSE, FALSE, sizeof (guint));
  value = g_strdup_printf ("%u.%u.%u", header->python_major, header->python_minor,
                           header->python_micro);
  append_fact (facts, self->facts_labels, _("Python version"), value);
  g_clear_pointer (&value, g_free);
  if (mode_name != NULL)
    value = g_strdup (mode_name);
  else if (header->mode_raw == 0)
    value = g_strdup (_("not recorded"));
  else
    value = g_strdup_printf (_("unknown (raw value 0x%x)"), header->mode_raw);
  append_fact (facts, self->facts_labels, _("Profiling mode"), value);
  g_clear_pointer (&value, g_free);
  number = tv_format_count (header->sample_count);
  value = g_strdup_printf (_("%s thread-samples (header)"), number);
  append_fact (facts, self->facts_labels, _("Samples"), value);
  g_clear_pointer (&value, g_free);
  g_clear_pointer (&number, g_free);
  number = tv_format_count (header->sample_interval_us);
  if (header->sample_interval_us > 0)
    {
      g_autofree char *rate = tv_format_significant (1e6 / (double) header->sample_interval_us);

      value = g_strdup_printf (_("%s µs (nominal rate %s samples/s)"), number, rate);
    }
  else
    value = g_strdup (_("0 µs (no nominal rate)"));
  append_fact (facts, self->facts_labels, _("Sample interval"), value);
  self->facts = g_string_free (g_steal_pointer (&facts), FALSE);

  /* The statistics block, with CPython's values to three significant
   * digits (--info --json gives every digit). */
  g_clear_pointer (&value, g_free);
  if (stats->present && isfinite (stats->duration_sec))
    value = tv_format_wall_time (stats->duration_sec);
  else
    value = g_strdup (_("not recorded"));
  append_fact (line, self->stats_labels, _("Duration"), value);
  g_clear_pointer (&value, g_free);
  value = stat_value (stats->present, stats->sample_rate, _(" samples/s"));
  append_fact (line, self->stats_labels, _("Measured sample rate"), value);
  g_clear_pointer (&value, g_free);
  value = stat_value (stats->present && stats->has_error_rate, stats->error_rate, " %");
  append_fact (line, self->stats_labels, _("Error rate"), value);
  g_clear_pointer (&value, g_free);
  value = stat_value (stats->present && stats->has_missed_samples, stats->missed_samples, " %");
  append_fact (line, self->stats_labels, _("Missed samples"), value);
  self->stats = g_string_free (g_steal_pointer (&line), FALSE);

  self->generator = g_strdup_printf (_("Made with Tachyon Viewer %s"), PACKAGE_VERSION);
}

static PangoLayout *
make_paragraph (Image                      *self,
                const char                 *text,
                const PangoFontDescription *font,
                int                         max_lines)
{
  PangoLayout *layout = pango_layout_new (self->context);

  pango_layout_set_font_description (layout, font);
  /* Left to right whatever the first strong character of a name. */
  pango_layout_set_auto_dir (layout, FALSE);
  pango_layout_set_width (layout, (int) (self->text_width * PANGO_SCALE));
  pango_layout_set_wrap (layout, PANGO_WRAP_WORD_CHAR);
  pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_END);
  pango_layout_set_height (layout, -max_lines);
  pango_layout_set_text (layout, text, -1);
  return layout;
}

static TvFlameColor text_color (Image    *self,
                                 gboolean  dim);

/* Labels lighter than their values, which are what the reader looks for. */
static void
dim_labels (Image       *self,
            PangoLayout *layout,
            GArray      *labels)
{
  TvFlameColor dim = text_color (self, TRUE);
  PangoAttrList *attrs = pango_attr_list_new ();

  for (guint i = 0; i + 1 < labels->len; i += 2)
    {
      PangoAttribute *attr = pango_attr_foreground_new (dim.red * 65535, dim.green * 65535,
                                                        dim.blue * 65535);

      attr->start_index = g_array_index (labels, guint, i);
      attr->end_index = g_array_index (labels, guint, i + 1);
      pango_attr_list_insert (attrs, attr);
    }
  pango_layout_set_attributes (layout, attrs);
  pango_attr_list_unref (attrs);
}

static double
layout_height (PangoLayout *layout)
{
  int height;

  if (layout == NULL)
    return 0;
  pango_layout_get_pixel_size (layout, NULL, &height);
  return height;
}

/* The legend: coloured squares for the module colours, one sentence for
 * the others (their colours are the renderer's to mix). */
static void
build_legend (Image *self)
{
  static const struct
  {
    TvFlameModuleKind kind;
    const char       *label;
  } modules[] = {
    { TV_FLAME_MODULE_STDLIB, N_("standard library") },
    { TV_FLAME_MODULE_SITE_PACKAGES, N_("installed packages") },
    { TV_FLAME_MODULE_PROJECT, N_("the profiled program") },
    { TV_FLAME_MODULE_OTHER, N_("other code") },
  };
  g_autoptr(GString) text = g_string_new (NULL);
  double x = 0, y = 0, line_height = 0;

  self->legend = g_array_new (FALSE, TRUE, sizeof (LegendEntry));
  g_array_set_clear_func (self->legend, legend_entry_clear);

  if (self->options->colors != TV_FLAME_COLORS_MODULE)
    {
      const char *sentence = self->options->colors == TV_FLAME_COLORS_HEAT
        ? _("Colours: the time spent in the function itself, from none (pale) to the most "
            "(red)")
        : _("Colours: the thread state: holding the GIL (green), on CPU without it (blue), "
            "waiting for the GIL (orange), idle (grey), mixed by their shares");
      LegendEntry entry = { { 0, 0, 0 }, NULL, 0, 0 };

      entry.layout = make_paragraph (self, sentence, self->text_font, MAX_PARAGRAPH_LINES);
      g_array_append_val (self->legend, entry);
      self->legend_text = g_strdup (sentence);
      self->legend_height = layout_height (entry.layout);
      return;
    }

  g_string_append (text, _("Colours: "));
  for (gsize i = 0; i < G_N_ELEMENTS (modules); i++)
    {
      LegendEntry entry = { { 0, 0, 0 }, NULL, 0, 0 };
      int text_width, text_height;
      double entry_width;

      entry.color = tv_flame_module_color (modules[i].kind, self->options->dark);
      entry.layout = pango_layout_new (self->context);
      pango_layout_set_font_description (entry.layout, self->text_font);
      pango_layout_set_auto_dir (entry.layout, FALSE);
      pango_layout_set_text (entry.layout, _(modules[i].label), -1);
      pango_layout_get_pixel_size (entry.layout, &text_width, &text_height);
      entry_width = SWATCH_SIZE + SWATCH_GAP + text_width;

      /* Flowed like words, a new line when the next does not fit. */
      if (x > 0 && x + entry_width > self->text_width)
        {
          x = 0;
          y += line_height + PARAGRAPH_GAP;
          line_height = 0;
        }
      entry.x = x;
      entry.y = y;
      x += entry_width + LEGEND_ENTRY_GAP;
      line_height = MAX (line_height, MAX (text_height, SWATCH_SIZE));
      g_array_append_val (self->legend, entry);

      g_string_append_printf (text, "%s%s", i > 0 ? ", " : "", _(modules[i].label));
    }
  self->legend_height = y + line_height;
  self->legend_text = g_string_free (g_steal_pointer (&text), FALSE);
}

static double
caption_height (Image *self)
{
  double height = layout_height (self->facts_layout) + PARAGRAPH_GAP
                  + layout_height (self->stats_layout) + PARAGRAPH_GAP
                  + self->legend_height + PARAGRAPH_GAP
                  + layout_height (self->generator_layout);

  if (self->note_layout != NULL)
    height += PARAGRAPH_GAP + layout_height (self->note_layout);
  return height;
}

/* Lays out the text and the graph, and decides the size. */
static gboolean
measure (Image         *self,
         GCancellable  *cancellable,
         GError       **error)
{
  double top, bottom, max_height, room;
  guint max_rows;

  self->context = pango_font_map_create_context (pango_cairo_font_map_get_default ());
  pango_context_set_base_dir (self->context, PANGO_DIRECTION_LTR);
  pango_cairo_context_set_resolution (self->context, 96.0);
  pango_cairo_context_set_font_options (self->context, self->font_options);
  self->title_font = pango_font_description_from_string (TITLE_FONT);
  self->text_font = pango_font_description_from_string (TEXT_FONT);

  self->title_layout = make_paragraph (self, self->title, self->title_font, 2);
  self->subtitle_layout = make_paragraph (self, self->subtitle, self->text_font,
                                          MAX_PARAGRAPH_LINES);
  self->facts_layout = make_paragraph (self, self->facts, self->text_font, MAX_PARAGRAPH_LINES);
  dim_labels (self, self->facts_layout, self->facts_labels);
  self->stats_layout = make_paragraph (self, self->stats, self->text_font, MAX_PARAGRAPH_LINES);
  dim_labels (self, self->stats_layout, self->stats_labels);
  self->generator_layout = make_paragraph (self, self->generator, self->text_font, 1);
  build_legend (self);

  top = MARGIN + layout_height (self->title_layout) + PARAGRAPH_GAP
        + layout_height (self->subtitle_layout) + BAND_GAP;
  bottom = BAND_GAP + caption_height (self) + MARGIN;

  self->content_rows = tv_flame_layout_get_content_rows (self->layout);
  self->shown_rows = self->content_rows;
  max_height = MIN (TV_EXPORT_IMAGE_MAX_HEIGHT,
                    floor ((double) TV_EXPORT_IMAGE_MAX_PIXELS / self->width));

  if (top + self->content_rows * self->row_height + bottom > max_height)
    {
      /* The rows nearest the root stay, and the caption says how many.
       * The note is measured with the most digits that count can have. */
      self->note = g_strdup_printf (_("Only the %u rows nearest the root are shown, of %u: "
                                      "the image would be more than %u pixels tall."),
                                    self->content_rows, self->content_rows, (guint) max_height);
      self->note_layout = make_paragraph (self, self->note, self->text_font,
                                          MAX_PARAGRAPH_LINES);
      bottom = BAND_GAP + caption_height (self) + MARGIN;
      room = max_height - top - bottom;
      max_rows = room > self->row_height ? (guint) floor (room / self->row_height) : 1;
      self->shown_rows = MIN (max_rows, self->content_rows);

      g_free (self->note);
      self->note = g_strdup_printf (_("Only the %u rows nearest the root are shown, of %u: "
                                      "the image would be more than %u pixels tall."),
                                    self->shown_rows, self->content_rows, (guint) max_height);
      pango_layout_set_text (self->note_layout, self->note, -1);

      g_clear_pointer (&self->layout, tv_flame_layout_unref);
      self->layout = make_layout (self, self->shown_rows * self->row_height, cancellable);
      if (self->layout == NULL)
        return set_cancelled (cancellable, error);
    }

  self->graph_top = top;
  self->graph_height = (self->shown_rows > 0 ? self->shown_rows : EMPTY_ROWS) * self->row_height;
  self->height = ceil (top + self->graph_height + bottom);
  g_assert (self->height <= max_height || self->shown_rows <= 1);
  return TRUE;
}

static TvFlameColor
text_color (Image    *self,
            gboolean  dim)
{
  double v;

  /* Greys only, on the renderer's grey background. */
  if (self->options->dark)
    v = dim ? 0.70 : 0.93;
  else
    v = dim ? 0.36 : 0.10;
  return (TvFlameColor) { v, v, v };
}

static double
show_paragraph (Image        *self,
                cairo_t      *cr,
                PangoLayout  *layout,
                double        y,
                gboolean      dim)
{
  TvFlameColor color = text_color (self, dim);

  cairo_set_source_rgb (cr, color.red, color.green, color.blue);
  cairo_move_to (cr, MARGIN, y);
  pango_cairo_show_layout (cr, layout);
  return y + layout_height (layout);
}

static void
draw (Image   *self,
      cairo_t *cr)
{
  TvFlameColor background = tv_flame_background_color (self->options->dark);
  g_autoptr(TvFlameRenderer) renderer = tv_flame_renderer_new (NULL);
  TvFlameStyle style;
  double y;

  cairo_set_source_rgb (cr, background.red, background.green, background.blue);
  cairo_paint (cr);

  y = show_paragraph (self, cr, self->title_layout, MARGIN, FALSE) + PARAGRAPH_GAP;
  show_paragraph (self, cr, self->subtitle_layout, y, TRUE);

  tv_flame_style_init (&style);
  style.scheme = self->options->colors;
  style.dark = self->options->dark;
  style.draw_background = FALSE;
  style.root_label = _("all");
  style.matches = self->matches;

  cairo_save (cr);
  cairo_translate (cr, MARGIN, self->graph_top);
  cairo_rectangle (cr, 0, 0, self->width - 2 * MARGIN, self->graph_height);
  cairo_clip (cr);
  if (self->shown_rows > 0)
    {
      tv_flame_renderer_set_font_options (renderer, self->font_options);
      tv_flame_renderer_set_resolution (renderer, 96.0);
      tv_flame_renderer_draw (renderer, cr, self->layout, &style);
    }
  else
    {
      g_autoptr(PangoLayout) empty = make_paragraph (self, _("No samples to show"),
                                                     self->text_font, 1);
      TvFlameColor color = text_color (self, TRUE);

      pango_layout_set_alignment (empty, PANGO_ALIGN_CENTER);
      cairo_set_source_rgb (cr, color.red, color.green, color.blue);
      cairo_move_to (cr, 0, (self->graph_height - layout_height (empty)) / 2);
      pango_cairo_show_layout (cr, empty);
    }
  cairo_restore (cr);

  y = self->graph_top + self->graph_height + BAND_GAP;
  y = show_paragraph (self, cr, self->facts_layout, y, FALSE) + PARAGRAPH_GAP;
  y = show_paragraph (self, cr, self->stats_layout, y, FALSE) + PARAGRAPH_GAP;

  for (guint i = 0; i < self->legend->len; i++)
    {
      const LegendEntry *entry = &g_array_index (self->legend, LegendEntry, i);
      TvFlameColor color = text_color (self, TRUE);
      double text_height = layout_height (entry->layout);
      double x = MARGIN + entry->x;

      if (self->options->colors == TV_FLAME_COLORS_MODULE)
        {
          cairo_set_source_rgb (cr, entry->color.red, entry->color.green, entry->color.blue);
          cairo_rectangle (cr, x, y + entry->y + round ((text_height - SWATCH_SIZE) / 2),
                           SWATCH_SIZE, SWATCH_SIZE);
          cairo_fill (cr);
          x += SWATCH_SIZE + SWATCH_GAP;
        }
      cairo_set_source_rgb (cr, color.red, color.green, color.blue);
      cairo_move_to (cr, x, y + entry->y);
      pango_cairo_show_layout (cr, entry->layout);
    }
  y += self->legend_height + PARAGRAPH_GAP;

  if (self->note_layout != NULL)
    y = show_paragraph (self, cr, self->note_layout, y, FALSE) + PARAGRAPH_GAP;
  show_paragraph (self, cr, self->generator_layout, y, TRUE);
}

/* The caption as plain text, one paragraph a line. */
static char *
description (Image *self)
{
  GString *out = g_string_new (self->subtitle);

  g_string_append_printf (out, "\n%s\n%s\n%s", self->facts, self->stats, self->legend_text);
  if (self->note != NULL)
    g_string_append_printf (out, "\n%s", self->note);
  g_string_append_printf (out, "\n%s", self->generator);
  return g_string_free (out, FALSE);
}

/* ------------------------------------------------------------------------ */
/* Output                                                                    */
/* ------------------------------------------------------------------------ */

static cairo_status_t
append_bytes (void                *closure,
              const unsigned char *data,
              unsigned int         length)
{
  g_byte_array_append (closure, data, length);
  return CAIRO_STATUS_SUCCESS;
}

static gboolean
check_cairo (cairo_status_t   status,
             GError         **error)
{
  if (status == CAIRO_STATUS_SUCCESS)
    return TRUE;
  g_set_error (error, G_IO_ERROR,
               status == CAIRO_STATUS_NO_MEMORY ? G_IO_ERROR_NO_SPACE : G_IO_ERROR_FAILED,
               _("Could not draw the image: %s"), cairo_status_to_string (status));
  return FALSE;
}

static guint32
crc32_update (guint32       crc,
              const guint8 *data,
              gsize         len)
{
  static guint32 table[256];
  static gsize table_ready = 0;

  if (g_once_init_enter (&table_ready))
    {
      for (guint32 n = 0; n < 256; n++)
        {
          guint32 c = n;

          for (int k = 0; k < 8; k++)
            c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
          table[n] = c;
        }
      g_once_init_leave (&table_ready, 1);
    }
  crc ^= 0xffffffffu;
  for (gsize i = 0; i < len; i++)
    crc = table[(crc ^ data[i]) & 0xff] ^ (crc >> 8);
  return crc ^ 0xffffffffu;
}

static void
append_u32_be (GByteArray *out,
               guint32     value)
{
  guint8 bytes[4] = { value >> 24, value >> 16, value >> 8, value };

  g_byte_array_append (out, bytes, 4);
}

/* A PNG iTXt chunk: uncompressed UTF-8 text under a registered keyword. */
static void
append_itxt (GByteArray *out,
             const char *keyword,
             const char *text)
{
  gsize start;

  append_u32_be (out, (guint32) (strlen (keyword) + 5 + strlen (text)));
  start = out->len;
  g_byte_array_append (out, (const guint8 *) "iTXt", 4);
  /* Keyword, NUL, not compressed, method 0, no language, no translated
   * keyword. */
  g_byte_array_append (out, (const guint8 *) keyword, strlen (keyword));
  g_byte_array_append (out, (const guint8 *) "\0\0\0\0\0", 5);
  g_byte_array_append (out, (const guint8 *) text, strlen (text));
  append_u32_be (out, crc32_update (0, out->data + start, out->len - start));
}

/* PNG, with the title and the caption as text chunks after the header. */
static GBytes *
finish_png (GByteArray *png,
            const char *title,
            const char *desc,
            const char *software)
{
  static const guint8 signature[8] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n' };
  const gsize ihdr_end = 8 + 4 + 4 + 13 + 4;
  GByteArray *out;

  /* Cairo writes the signature, then IHDR: anything else is kept as is. */
  if (png->len < ihdr_end || memcmp (png->data, signature, 8) != 0
      || memcmp (png->data + 12, "IHDR", 4) != 0)
    return g_byte_array_free_to_bytes (png);

  out = g_byte_array_sized_new (png->len + strlen (title) + strlen (desc) + 256);
  g_byte_array_append (out, png->data, ihdr_end);
  append_itxt (out, "Title", title);
  append_itxt (out, "Description", desc);
  append_itxt (out, "Software", software);
  g_byte_array_append (out, png->data + ihdr_end, png->len - ihdr_end);
  g_byte_array_unref (png);
  return g_byte_array_free_to_bytes (out);
}

/* SVG, with <title> and <desc> as the first children of <svg>. */
static GBytes *
finish_svg (GByteArray *svg,
            const char *title,
            const char *desc)
{
  const char *text = (const char *) svg->data;
  const char *open = g_strstr_len (text, svg->len, "<svg");
  const char *end = open != NULL ? memchr (open, '>', svg->len - (open - text)) : NULL;
  GString *out;

  if (end == NULL)
    return g_byte_array_free_to_bytes (svg);

  out = g_string_sized_new (svg->len + strlen (title) + strlen (desc) + 64);
  g_string_append_len (out, text, end + 1 - text);
  g_string_append (out, "\n<title>");
  append_xml_escaped (out, title);
  g_string_append (out, "</title>\n<desc>");
  append_xml_escaped (out, desc);
  g_string_append (out, "</desc>");
  g_string_append_len (out, end + 1, svg->len - (end + 1 - text));
  g_byte_array_unref (svg);
  return g_string_free_to_bytes (out);
}

static GBytes *
render (Image   *self,
        GError **error)
{
  GByteArray *buffer = g_byte_array_new ();
  g_autofree char *desc = description (self);
  cairo_surface_t *surface;
  cairo_status_t status;
  cairo_t *cr;

  switch (self->format)
    {
    case TV_EXPORT_IMAGE_PNG:
      surface = cairo_image_surface_create (CAIRO_FORMAT_RGB24, (int) self->width,
                                            (int) self->height);
      break;
    case TV_EXPORT_IMAGE_PDF:
      surface = cairo_pdf_surface_create_for_stream (append_bytes, buffer,
                                                     self->width * PDF_POINTS_PER_PIXEL,
                                                     self->height * PDF_POINTS_PER_PIXEL);
      cairo_pdf_surface_set_metadata (surface, CAIRO_PDF_METADATA_TITLE, self->title);
      cairo_pdf_surface_set_metadata (surface, CAIRO_PDF_METADATA_SUBJECT, desc);
      cairo_pdf_surface_set_metadata (surface, CAIRO_PDF_METADATA_CREATOR, self->generator);
      break;
    case TV_EXPORT_IMAGE_SVG:
    default:
      surface = cairo_svg_surface_create_for_stream (append_bytes, buffer, self->width,
                                                     self->height);
      /* Pixels: width="1200", as the viewBox. */
      cairo_svg_surface_set_document_unit (surface, CAIRO_SVG_UNIT_USER);
      break;
    }

  cr = cairo_create (surface);
  if (self->format == TV_EXPORT_IMAGE_PDF)
    cairo_scale (cr, PDF_POINTS_PER_PIXEL, PDF_POINTS_PER_PIXEL);
  if (cairo_status (cr) == CAIRO_STATUS_SUCCESS)
    draw (self, cr);
  status = cairo_status (cr);
  cairo_destroy (cr);

  if (status == CAIRO_STATUS_SUCCESS && self->format == TV_EXPORT_IMAGE_PNG)
    status = cairo_surface_write_to_png_stream (surface, append_bytes, buffer);
  cairo_surface_finish (surface);
  if (status == CAIRO_STATUS_SUCCESS)
    status = cairo_surface_status (surface);
  cairo_surface_destroy (surface);

  if (!check_cairo (status, error))
    {
      g_byte_array_unref (buffer);
      return NULL;
    }

  switch (self->format)
    {
    case TV_EXPORT_IMAGE_PNG:
      return finish_png (buffer, self->title, desc, self->generator);
    case TV_EXPORT_IMAGE_SVG:
      return finish_svg (buffer, self->title, desc);
    case TV_EXPORT_IMAGE_PDF:
    default:
      return g_byte_array_free_to_bytes (buffer);
    }
}

/**
 * tv_export_image_build:
 * @data: a loaded profile
 * @filter: which samples, transformed and merged how, inverted or not,
 *   the orientation, the zoom and the search
 * @format: SVG, PNG or PDF
 * @options: colours, theme, width
 * @source_name: the profile's name as the title shows it (any bytes:
 *   invalid UTF-8 and control characters are shown, not used)
 * @cancellable: (nullable): a cancellable
 * @error: return location for an error
 *
 * Draws the flame graph of the samples @filter keeps, with every row, a
 * title that says what is shown and a caption with the header's facts
 * and the statistics block.  Fails when an option is out of range, the
 * search is not a regular expression, @filter names a thread that @data
 * lacks, the zoom path is not in the samples shown, or when cancelled.
 *
 * Returns: (transfer full): the file's bytes, or %NULL with @error set
 */
GBytes *
tv_export_image_build (TvProfileData               *data,
                       const TvExportFilter        *filter,
                       TvExportImageFormat          format,
                       const TvExportImageOptions  *options,
                       const char                  *source_name,
                       GCancellable                *cancellable,
                       GError                     **error)
{
  Image self = { 0 };
  GBytes *bytes = NULL;

  g_return_val_if_fail (data != NULL, NULL);
  g_return_val_if_fail (filter != NULL, NULL);
  g_return_val_if_fail (format <= TV_EXPORT_IMAGE_PDF, NULL);
  g_return_val_if_fail (options != NULL, NULL);
  g_return_val_if_fail (source_name != NULL, NULL);
  g_return_val_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!tv_export_image_options_check (options, error))
    return NULL;

  self.data = data;
  self.filter = filter;
  self.options = options;
  self.format = format;
  self.source_name = source_name;
  self.width = options->width;
  self.text_width = self.width - 2 * MARGIN;

  if (!tv_export_filter_check (filter, error)
      || !tv_export_filter_make_query (filter, data, &self.query, error))
    goto out;
  self.query.query.inverted = filter->inverted;
  self.query.query.count_states = options->colors == TV_FLAME_COLORS_THREAD_STATE;

  self.tree = tv_call_tree_new (data, &self.query.query, cancellable);
  if (self.tree == NULL)
    {
      set_cancelled (cancellable, error);
      goto out;
    }
  if (!find_zoom_root (&self, error))
    goto out;
  if (filter->search != NULL && filter->search[0] != '\0'
      && !run_search (&self, cancellable, error))
    goto out;

  /* Every row; the layout tells how many there are. */
  self.layout = make_layout (&self, 0, cancellable);
  if (self.layout == NULL)
    {
      set_cancelled (cancellable, error);
      goto out;
    }
  self.row_height = tv_flame_layout_get_viewport (self.layout)->row_height;

  self.font_options = cairo_font_options_create ();
  /* Unhinted metrics everywhere, so that text takes the same room in
   * every format; hinted outlines and grey antialiasing for pixels only
   * (no subpixel colours in a picture that may be scaled). */
  cairo_font_options_set_hint_metrics (self.font_options, CAIRO_HINT_METRICS_OFF);
  if (format == TV_EXPORT_IMAGE_PNG)
    {
      cairo_font_options_set_hint_style (self.font_options, CAIRO_HINT_STYLE_SLIGHT);
      cairo_font_options_set_antialias (self.font_options, CAIRO_ANTIALIAS_GRAY);
    }
  else
    {
      cairo_font_options_set_hint_style (self.font_options, CAIRO_HINT_STYLE_NONE);
    }

  self.title = tv_text_dup_shown (source_name);
  build_subtitle (&self);
  build_caption (&self);
  if (!measure (&self, cancellable, error))
    goto out;

  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    goto out;
  bytes = render (&self, error);

out:
  image_clear (&self);
  return bytes;
}
