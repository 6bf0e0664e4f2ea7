/* tv-draw.h: the text and drawing helpers the renderers share
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * TvDrawText is a renderer's fonts: a Pango context on a font map, the
 * font (the caller's or "Sans 9"), its hinting and resolution, its
 * metrics, and the PangoLayouts of short texts (axis labels, a legend)
 * kept by their text.  TvDrawLabel is a text shaped once into glyph
 * strings and drawn cut to any width with an ellipsis, without a
 * PangoLayout: what the flame graph draws a label per box with.
 *
 * Both belong to one renderer and one thread, as the renderers do.  They
 * draw with cairo and pangocairo only.
 */
#pragma once

#include <cairo.h>
#include <pango/pango.h>

#include "tv-palette.h"

G_BEGIN_DECLS

typedef struct _TvDrawLabel TvDrawLabel;

typedef struct
{
  PangoFontMap         *font_map;
  PangoContext         *context;
  PangoFontDescription *font;
  gboolean              default_font;   /* "Sans 9", not the caller's */
  cairo_font_options_t *font_options;
  double                dpi;
  double                ascent;         /* pixels */
  double                descent;

  /*< private >*/
  GHashTable           *layouts;
  TvDrawLabel          *ellipsis;
} TvDrawText;

/* FONT_MAP: where fonts come from; NULL for the thread's default
 * pangocairo font map. */
void         tv_draw_text_init             (TvDrawText                 *text,
                                            PangoFontMap               *font_map);
void         tv_draw_text_clear            (TvDrawText                 *text);

/* Each of these returns TRUE when it changed what text is shaped with:
 * whatever the caller shaped or laid out before is then stale, and the
 * texts kept here are dropped.  FONT NULL is the default font.
 * set_font also measures the font. */
gboolean     tv_draw_text_set_font         (TvDrawText                 *text,
                                            const PangoFontDescription *font);
gboolean     tv_draw_text_set_font_options (TvDrawText                 *text,
                                            const cairo_font_options_t *options);
gboolean     tv_draw_text_set_resolution   (TvDrawText                 *text,
                                            double                      dpi);

/* A new layout of TEXT (made valid UTF-8) in the font, bold or not. */
PangoLayout *tv_draw_text_new_layout       (TvDrawText                 *text,
                                            const char                 *string,
                                            gboolean                    bold);
/* The same, kept by its text until the font changes (or many are kept):
 * owned by TEXT. */
PangoLayout *tv_draw_text_lookup           (TvDrawText                 *text,
                                            const char                 *string,
                                            gboolean                    bold);
/* "…", shaped in the font, for labels. */
const TvDrawLabel *tv_draw_text_get_ellipsis (TvDrawText               *text);

double       tv_draw_layout_width          (PangoLayout                *layout);
/* Draws LAYOUT with its top left at X, Y, in the current source. */
void         tv_draw_show_layout           (cairo_t                    *cr,
                                            PangoLayout                *layout,
                                            double                      x,
                                            double                      y);
void         tv_draw_set_source            (cairo_t                    *cr,
                                            TvColor                     color,
                                            double                      alpha);
/* Strokes a 2-pixel outline in COLOR just inside the rectangle, as the
 * selected box or cells are marked; the line width stays 2. */
void         tv_draw_inner_outline         (cairo_t                    *cr,
                                            TvColor                     color,
                                            double                      x,
                                            double                      y,
                                            double                      width,
                                            double                      height);
/* The smallest STEP of 1, 2 or 5 times a power of ten (up to 5e18) for
 * which STEP / PER_UNIT is at least MIN, as ticks are spaced; 1e19 when
 * none is. */
double       tv_draw_nice_step             (double                      min,
                                            double                      per_unit);
/* *IMAGE, made again as an ARGB32 image of at least WIDTH x HEIGHT
 * pixels when it is smaller.  NULL when cairo cannot make it. */
cairo_surface_t *tv_draw_ensure_image      (cairo_surface_t           **image,
                                            int                         width,
                                            int                         height);

/* An empty label; append its parts, then draw it. */
TvDrawLabel *tv_draw_label_new             (void);
void         tv_draw_label_free            (TvDrawLabel                *label);
/* Shapes LEN bytes of STRING onto LABEL; SECONDARY parts are drawn
 * fainter.  STRING must be valid UTF-8. */
void         tv_draw_label_append          (TvDrawLabel                *label,
                                            TvDrawText                 *text,
                                            const char                 *string,
                                            int                         len,
                                            gboolean                    secondary);
/* Its width, in Pango units. */
int          tv_draw_label_get_width       (const TvDrawLabel          *label);
/* Draws as much of LABEL as fits in AVAILABLE pixels from X, on
 * BASELINE, elided with TEXT's ellipsis; nothing when not even one
 * character and the ellipsis fit. */
void         tv_draw_label_show            (cairo_t                    *cr,
                                            TvDrawText                 *text,
                                            const TvDrawLabel          *label,
                                            double                      x,
                                            double                      baseline,
                                            double                      available,
                                            TvColor                     color,
                                            double                      alpha);

G_END_DECLS
