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
#include "tv-progress.h"
#include "tv-text.h"
#include "tv-units.h"
#include "tv-export-image-private.h"

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
/* The image                                                                 */
/* ------------------------------------------------------------------------ */

static void
legend_entry_clear (gpointer data)
{
  LegendEntry *entry = data;

  g_clear_object (&entry->layout);
}

static void
image_clear (Image *self)
{
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
find_zoom_root (Image   *self,
                GError **error)
{
  return tv_export_find_zoom (self->state, self->tree, &self->zoom_path, &self->zoom, error);
}

/* The flame graph's search, over function names and "file:line". */
static gboolean
run_search (Image         *self,
            GCancellable  *cancellable,
            GError       **error)
{
  g_autoptr(GRegex) regex = tv_export_compile_search (tv_view_state_get_search (self->state), error);

  if (regex == NULL)
    return FALSE;
  self->matches = tv_flame_matches_new_for_regex (self->tree, regex, cancellable);
  if (self->matches == NULL)
    return tv_export_set_cancelled (cancellable, error);
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
  viewport.orientation = tv_view_state_get_orientation (self->state);
  viewport.show_ancestors = TRUE;
  return tv_flame_layout_new (self->tree, &viewport, cancellable);
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
        return tv_export_set_cancelled (cancellable, error);
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
  image_append_xml_escaped (out, title);
  g_string_append (out, "</title>\n<desc>");
  image_append_xml_escaped (out, desc);
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
 * @state: what is shown: which samples, transformed and merged how,
 *   inverted or not, the orientation, the zoom and the search (not
 *   changed while the image is made)
 * @format: SVG, PNG or PDF
 * @options: colours, theme, width
 * @source_name: the profile's name as the title shows it (any bytes:
 *   invalid UTF-8 and control characters are shown, not used)
 * @cancellable: (nullable): a cancellable
 * @error: return location for an error
 *
 * Draws the flame graph of the samples @state keeps, with every row, a
 * title that says what is shown and a caption with the header's facts
 * and the statistics block.  Fails when an option is out of range, the
 * search is not a regular expression, the zoom path is not in the
 * samples shown, or when cancelled.
 *
 * Returns: (transfer full): the file's bytes, or %NULL with @error set
 */
GBytes *
tv_export_image_build (TvProfileData               *data,
                       TvViewState                 *state,
                       TvExportImageFormat          format,
                       const TvExportImageOptions  *options,
                       const char                  *source_name,
                       GCancellable                *cancellable,
                       GError                     **error)
{
  Image self = { 0 };
  GBytes *bytes = NULL;
  guint n_zoom_keys;
  g_autoptr(TvCallTree) top = NULL;

  g_return_val_if_fail (data != NULL, NULL);
  g_return_val_if_fail (TV_IS_VIEW_STATE (state), NULL);
  g_return_val_if_fail (format <= TV_EXPORT_IMAGE_PDF, NULL);
  g_return_val_if_fail (options != NULL, NULL);
  g_return_val_if_fail (source_name != NULL, NULL);
  g_return_val_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!tv_export_image_options_check (options, error))
    return NULL;

  self.data = data;
  self.state = state;
  self.options = options;
  self.format = format;
  self.source_name = source_name;
  self.width = options->width;
  self.text_width = self.width - 2 * MARGIN;

  if (!tv_export_check_search (state, error))
    goto out;
  tv_export_make_query (state, data, &self.query);
  self.query.inverted = tv_view_state_get_inverted (state);
  self.query.count_states = options->colors == TV_FLAME_COLORS_THREAD_STATE;
  /* What is under a tenth of a pixel is not made: the layout would draw
   * it in a merged box, and the tree keeps it as its parent's remainder,
   * which the layout draws so.  Not under a zoom, where the threshold is
   * the zoomed frame's, nor for a search, which counts every frame.  The
   * same the other way up: the whole inverted tree of the deep 3M file
   * took 7-10 s and 2.4 GB. */
  tv_view_state_get_zoom_path (state, &n_zoom_keys);
  if (n_zoom_keys == 0 && tv_view_state_get_search (state) == NULL)
    self.query.min_total_divisor = MAX (TV_QUERY_DETAIL_DIVISOR, 10 * (guint64) self.width);

  if (self.query.inverted && self.query.focus_function == TV_NODE_NONE
      && !self.query.collapse_recursion)
    {
      /* The function table of a top-down tree that leaves nodes out,
       * which is exact: the inverted tree is then turned over from the
       * exact tree, not from a whole top-down tree made first
       * (TvQuery.functions_of), as the page does. */
      TvQuery top_query = self.query;

      top_query.inverted = FALSE;
      top_query.count_states = FALSE;
      top_query.min_total_divisor = TV_QUERY_DETAIL_DIVISOR;
      tv_progress_push (cancellable, 0.0, 0.2);
      top = tv_call_tree_new (data, &top_query, cancellable);
      tv_progress_pop (cancellable);
      if (top == NULL)
        {
          tv_export_set_cancelled (cancellable, error);
          goto out;
        }
      self.query.functions_of = top;
    }
  /* The tree is nearly all of the work (see tv-progress.h). */
  tv_progress_push (cancellable, top != NULL ? 0.2 : 0.0, 0.9);
  self.tree = tv_call_tree_new (data, &self.query, cancellable);
  tv_progress_pop (cancellable);
  if (self.tree == NULL)
    {
      tv_export_set_cancelled (cancellable, error);
      goto out;
    }
  if (!find_zoom_root (&self, error))
    goto out;
  if (tv_view_state_get_search (state) != NULL
      && !run_search (&self, cancellable, error))
    goto out;

  /* Every row; the layout tells how many there are. */
  self.layout = make_layout (&self, 0, cancellable);
  if (self.layout == NULL)
    {
      tv_export_set_cancelled (cancellable, error);
      goto out;
    }
  self.row_height = tv_flame_layout_get_viewport (self.layout)->row_height;
  tv_progress_report (cancellable, 0.95);

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
  image_build_subtitle (&self);
  image_build_caption (&self);
  if (!measure (&self, cancellable, error))
    goto out;

  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    goto out;
  bytes = render (&self, error);

out:
  image_clear (&self);
  return bytes;
}
