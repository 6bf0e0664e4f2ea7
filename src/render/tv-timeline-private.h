/* tv-timeline-private.h: what the timeline renderer's files share
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The renderer is one object in four files: tv-timeline-renderer.c (its
 * life, the geometry and hit testing), tv-timeline-bands.c (the lanes'
 * and the overview's pixels), tv-timeline-axis.c (the axis, the labels,
 * the selection and the legend) and tv-heatmap-renderer.c (the
 * heatmap).  Not installed, not for other callers.
 */
#pragma once

#include <math.h>

#include "tv-draw.h"
#include "tv-timeline-renderer.h"

G_BEGIN_DECLS

/* Pixels, shared by the geometry and the drawing. */
#define LABEL_PADDING            6.0
/* Gap between the overview and the lanes. */
#define OVERVIEW_GAP             4.0
#define SWATCH_SIZE              12.0
#define LEGEND_SPACING           18.0

typedef enum
{
  ROW_LANE,
  ROW_GROUP,
  ROW_FOLDED,    /* the lanes flagged FOLDED, as one row */
} RowKind;

typedef struct
{
  double  y;             /* pixels below the first row's top */
  double  height;        /* with the gap below */
  guint   lane;
  guint32 interpreter;
  guint8  kind;          /* RowKind */
  guint8  flags;         /* TvTimelineLaneFlags */
} Row;

typedef struct
{
  double text_height;
  double plot_x;
  double plot_width;
  double axis_height;
  double overview_y;
  double overview_height;
  double lanes_y;
  double lanes_height;
  double rows_y;         /* the viewport's y of the rows' y 0 (scrolled) */
  double content_height;
  double legend_y;
  double legend_height;
  double legend_x[TV_TIMELINE_N_STATES];
  double legend_width[TV_TIMELINE_N_STATES];
} Geometry;

/* Pixel columns [left, right) of the viewport. */
typedef struct
{
  double left;
  double right;
} Span;

struct _TvTimelineRenderer
{
  /* The fonts, and other texts (axis labels, legend, headers) kept by
   * their text. */
  TvDrawText            text;

  /* Lane labels of one timeline, made as they are first needed. */
  TvTimeline           *label_timeline;
  char                 *label_main;
  PangoLayout         **lane_labels;
  double                labels_width;    /* widest label, < 0 until known */

  /* Rows of the last geometry, and what they were laid out for: they
   * stay while the style's lanes_serial (not 0) and the heights do. */
  Row                  *rows;
  guint                 n_rows;
  guint                 rows_capacity;
  TvTimeline           *rows_timeline;
  guint                 rows_serial;
  double                rows_heights[3];  /* lane, collapsed, header */
  gboolean              rows_headers;
  guint                 n_folded;
  double                rows_height;
  guint                 n_layouts;
  /* Lanes with samples, of label_timeline. */
  guint                 busy_lanes;

  /* Scratch space of a draw, kept for the next. */
  TvTimelineColumn     *columns;
  const TvTimelineColumn **shown;
  /* What SHOWN points to before the first column with samples: kept here,
   * since the lanes are painted after shown_columns() returns. */
  TvTimelineColumn      held;
  guint                 columns_capacity;
  cairo_surface_t      *raster;
  guint8               *covered;         /* per row of the raster */
  guint                 covered_capacity;
  GArray               *spans;           /* Span: the ranges drawn */

  /* The heatmap's cells as an image, a pixel each, for that heatmap in
   * light or dark. */
  TvTimelineHeatmap    *cells_heatmap;
  gboolean              cells_dark;
  cairo_surface_t      *cells;
  /* The highlight over those cells, as an image of the same size. */
  TvTimelineHeatmap    *marks_heatmap;
  TvTimelineHighlight  *marks_highlight;
  gboolean              marks_dark;
  cairo_surface_t      *marks;
};

/* round () for what is never negative, without a call into libm: the
 * drawing runs it for every column of every lane. */
static inline int
round_up_half (double x)
{
  return (int) (x + 0.5);
}

/* Opaque, as the bands' image holds it. */
static inline guint32
pack_color (TvTimelineColor c)
{
  return 0xff000000u | tv_color_pack (c);
}

static inline double
time_to_x (const TvTimelineStyle *style,
           const Geometry        *g,
           double                 time)
{
  return g->plot_x + (time - style->t0) / (style->t1 - style->t0) * g->plot_width;
}

static inline double
x_to_time (const TvTimelineStyle *style,
           const Geometry        *g,
           double                 x)
{
  return style->t0 + (x - g->plot_x) / g->plot_width * (style->t1 - style->t0);
}

static inline gboolean
style_valid (const TvTimelineStyle *style)
{
  return style->width > 0 && style->height > 0 && isfinite (style->t0) && isfinite (style->t1)
         && style->t1 > style->t0;
}

/* A text as a layout in the renderer's font, kept by its text. */
static inline PangoLayout *
text_layout (TvTimelineRenderer *self,
             const char         *text)
{
  return tv_draw_text_lookup (&self->text, text, FALSE);
}

static inline double
text_width (TvTimelineRenderer *self,
            const char         *text)
{
  return tv_draw_layout_width (text_layout (self, text));
}

/* Whether ROW is high enough for its label. */
static inline gboolean
tv_timeline_row_shows_label (const Row      *row,
                             const Geometry *g)
{
  return row->height - 1 >= g->text_height - 2 && g->plot_x > 2 * LABEL_PADDING;
}

/* tv-timeline-renderer.c */
void         tv_timeline_renderer_ensure_font      (TvTimelineRenderer         *self,
                                                    const PangoFontDescription *font);
PangoLayout *tv_timeline_renderer_lane_label       (TvTimelineRenderer         *self,
                                                    TvTimeline                 *timeline,
                                                    guint                       lane);
void         tv_timeline_renderer_compute_geometry (TvTimelineRenderer         *self,
                                                    TvTimeline                 *timeline,
                                                    const TvTimelineStyle      *style,
                                                    Geometry                   *g);
guint        tv_timeline_renderer_first_row_below  (TvTimelineRenderer         *self,
                                                    double                      y);

/* tv-timeline-bands.c */
gboolean     tv_timeline_renderer_paint_bands      (TvTimelineRenderer         *self,
                                                    cairo_t                    *cr,
                                                    TvTimeline                 *timeline,
                                                    const TvTimelineStyle      *style,
                                                    const Geometry             *g);
void         tv_timeline_renderer_draw_highlight   (TvTimelineRenderer         *self,
                                                    cairo_t                    *cr,
                                                    TvTimeline                 *timeline,
                                                    const TvTimelineStyle      *style,
                                                    const Geometry             *g);
void         tv_timeline_device_scale              (cairo_t                    *cr,
                                                    double                     *sx,
                                                    double                     *sy);

/* tv-timeline-axis.c */
void         tv_timeline_append_grouped            (GString                    *out,
                                                    const char                 *number);
void         tv_timeline_renderer_draw_axis        (TvTimelineRenderer         *self,
                                                    cairo_t                    *cr,
                                                    const TvTimelineStyle      *style,
                                                    const Geometry             *g);
void         tv_timeline_renderer_draw_labels      (TvTimelineRenderer         *self,
                                                    cairo_t                    *cr,
                                                    TvTimeline                 *timeline,
                                                    const TvTimelineStyle      *style,
                                                    const Geometry             *g);
void         tv_timeline_renderer_draw_selection   (TvTimelineRenderer         *self,
                                                    cairo_t                    *cr,
                                                    TvTimeline                 *timeline,
                                                    const TvTimelineStyle      *style,
                                                    const Geometry             *g);
void         tv_timeline_renderer_draw_legend      (TvTimelineRenderer         *self,
                                                    cairo_t                    *cr,
                                                    const TvTimelineStyle      *style,
                                                    const Geometry             *g);
void         tv_timeline_legend_rect               (const Geometry             *g,
                                                    TvTimelineState             state,
                                                    double                     *x,
                                                    double                     *y,
                                                    double                     *width,
                                                    double                     *height);

G_END_DECLS
