/* tv-export-image-private.h: what the image export's files share
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <pango/pangocairo.h>

#include "tv-export-image.h"

G_BEGIN_DECLS

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
  TvViewState                *state;
  const TvExportImageOptions *options;
  TvExportImageFormat         format;
  const char                 *source_name;

  TvQuery                     query;
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

void image_append_xml_escaped (GString    *out,
                               const char *text);

void image_build_subtitle (Image *self);

void image_build_caption (Image *self);

G_END_DECLS
