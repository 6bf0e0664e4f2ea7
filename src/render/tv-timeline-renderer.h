/* tv-timeline-renderer.h: draws a timeline with cairo
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One renderer for the widget (through gtk_snapshot_append_cairo), image
 * exports and the offscreen tests: it draws a TvTimeline onto any cairo_t,
 * with cairo and pangocairo only.  From the top of the viewport down:
 *
 *   - a time axis, relative to the first sample, in s, ms or µs as the
 *     tick step needs;
 *   - the overview row: the share of threads busy in each state, stacked,
 *     scaled to the busiest columns of the window;
 *   - the lanes, in the timeline's display order, grouped by interpreter
 *     (with a header per group when there are several), scrolled by
 *     scroll_y: a lane shows per column how densely its thread was sampled
 *     (the height of the bar) and its states, stacked from the bottom:
 *     running, native, waiting at full height, unknown and idle lower, so
 *     that busy stretches stand out; a collapsed lane is a thin row in the
 *     colour of its main state; an exception is a strip along the top;
 *   - a legend of the states.
 * The lanes' labels (tv_timeline_dup_lane_label(): "main", "T2"...) take
 * a column on the left; the time axis spans the rest of the width.  Lanes
 * flagged FOLDED (the view's idle threads) show as one row, last.
 *
 * A column without samples shows the state of the last sample before it
 * if that is less than four sampling intervals back: a deep zoom shows
 * states, not needles, and ticks the sampler missed leave no holes.
 * Nothing is drawn per sample: each band is filled pixel by pixel from
 * tv_timeline_get_bins() columns into an image, painted once.
 *
 * Everything that changes between frames (the window, scrolling, which
 * lanes are hidden, collapsed or selected, the selected range or ranges
 * and state, the pointer's time, light or dark) is in TvTimelineStyle, as
 * are all the texts: the renderer has no translatable text.  Geometry and
 * hit testing take the same style, so they always agree with what was
 * drawn.
 *
 * A renderer keeps caches (shaped labels, a scratch image) and is not
 * thread-safe: make one per thread that draws.
 */
#pragma once

#include <cairo.h>
#include <pango/pango.h>

#include "tv-palette.h"
#include "tv-timeline.h"
#include "tv-timeline-highlight.h"

G_BEGIN_DECLS

typedef TvColor TvTimelineColor;

typedef enum
{
  TV_TIMELINE_LANE_HIDDEN    = 1 << 0,  /* filtered out: no row */
  TV_TIMELINE_LANE_COLLAPSED = 1 << 1,  /* a thin row */
  TV_TIMELINE_LANE_SELECTED  = 1 << 2,  /* highlighted, as in a thread filter */
  TV_TIMELINE_LANE_FOLDED    = 1 << 3,  /* one of the lanes of the folded row */
} TvTimelineLaneFlags;

typedef struct
{
  gboolean                    dark;
  /* Fill the viewport with the background colour first; the bands are
   * then copied, not blended, which is faster. */
  gboolean                    draw_background;
  /* The labels' font; NULL for the renderer's ("Sans 9"). */
  const PangoFontDescription *font;

  /* The viewport, in pixels, and the window of time it shows, in
   * microseconds since the first sample (t1 > t0). */
  double                      width;
  double                      height;
  double                      t0;
  double                      t1;
  /* Pixels the lanes are scrolled up by; the axis, the overview and the
   * legend stay. */
  double                      scroll_y;

  /* Pixels; 0 for the defaults.  A row's height includes a pixel of gap
   * below it.  label_width 0 fits the labels (within limits).  A lane is
   * never lower than its label (the text's height and 3 pixels), so that
   * every lane shows its label: many lanes scroll rather than shrink. */
  double                      label_width;
  double                      lane_height;       /* 18 */
  double                      collapsed_height;  /* 4 */
  double                      overview_height;   /* 40 */

  /* TvTimelineLaneFlags per lane (by lane number), or NULL for none. */
  const guint8               *lane_flags;
  /* Not 0: a number the caller changes whenever the lanes' flags (or the
   * timeline) change, so that the renderer lays out its rows once for all
   * the frames in between, not at every call: with a hundred thousand
   * lanes that is the cost of a frame.  0 lays them out at every call. */
  guint                       lanes_serial;

  /* A selected range of time, in microseconds since the first sample. */
  gboolean                    has_selection;
  double                      selection_start;
  double                      selection_end;
  /* A selection of several ranges (the heatmap's cells), absolute
   * timestamps as in TvQuery, sorted and disjoint: each is tinted like
   * the selected range (a pixel wide at least), the time between them
   * dimmed.  None when N_RANGES is 0. */
  const TvTimeRange          *ranges;
  guint                       n_ranges;
  /* The samples of a selected function or of a search's matches, or
   * NULL: over each band, every pixel column with some gets an accent
   * bar as high as their share of the column's samples, and the rest of
   * the band is dimmed; the folded row gets ticks where the highlight's
   * group (TV_TIMELINE_HIGHLIGHT_GROUP: its lanes, then) has some. */
  TvTimelineHighlight        *highlight;
  /* A time to mark with a line (the pointer's), or NAN for none. */
  double                      cursor_time;
  /* The legend entry shown selected (a state filter), or -1. */
  int                         selected_state;

  /* Texts, from the caller (translated).  NULL leaves a text out. */
  const char                 *main_label;        /* after the main thread's id */
  const char                 *overview_label;    /* the overview row's label */
  /* The one row that stands for the lanes flagged FOLDED, after the
   * others: "12 idle threads". */
  const char                 *folded_label;
  /* A group header, with one "%u" for the interpreter id; headers are
   * shown when the profile has more than one interpreter. */
  const char                 *interpreter_format;
  const char                 *state_labels[TV_TIMELINE_N_STATES];
} TvTimelineStyle;

/* Light, no lanes hidden, no selection; WIDTH x HEIGHT pixels showing all
 * of TIMELINE. */
void tv_timeline_style_init (TvTimelineStyle *style,
                             TvTimeline      *timeline,
                             double           width,
                             double           height);

/* The colour a state is drawn in (the flame graph's thread-state colours). */
TvTimelineColor tv_timeline_state_color      (TvTimelineState state,
                                              gboolean        dark);
TvTimelineColor tv_timeline_background_color (gboolean        dark);

typedef enum
{
  TV_TIMELINE_HIT_NONE,
  TV_TIMELINE_HIT_AXIS,
  TV_TIMELINE_HIT_OVERVIEW,
  TV_TIMELINE_HIT_LANE,
  TV_TIMELINE_HIT_GROUP,       /* an interpreter's header */
  TV_TIMELINE_HIT_LEGEND,
  TV_TIMELINE_HIT_FOLDED,      /* the row of the folded lanes */
} TvTimelineHitKind;

typedef struct
{
  TvTimelineHitKind kind;
  /* In the labels' column rather than over the time axis. */
  gboolean          in_labels;
  guint             lane;          /* LANE */
  guint32           interpreter;   /* LANE, GROUP */
  TvTimelineState   state;         /* LEGEND */
  /* Microseconds since the first sample under x; NAN in the labels'
   * column and the legend. */
  double            time;
} TvTimelineHit;

typedef struct _TvTimelineRenderer TvTimelineRenderer;

/* FONT_MAP: where fonts come from; NULL for the thread's default
 * pangocairo font map. */
TvTimelineRenderer *tv_timeline_renderer_new  (PangoFontMap *font_map);
void                tv_timeline_renderer_free (TvTimelineRenderer *renderer);

/* As tv_flame_renderer_set_font_options() and _set_resolution(). */
void tv_timeline_renderer_set_font_options (TvTimelineRenderer         *renderer,
                                            const cairo_font_options_t *options);
void tv_timeline_renderer_set_resolution   (TvTimelineRenderer         *renderer,
                                            double                      dpi);
/* How many times RENDERER has laid out the rows of its lanes, a pass over
 * every lane each: what TvTimelineStyle.lanes_serial saves, for tests. */
guint tv_timeline_renderer_get_n_layouts   (TvTimelineRenderer         *renderer);

/* Draws TIMELINE as STYLE says onto CR, in the viewport's pixels (the
 * caller translates and clips). */
void     tv_timeline_renderer_draw          (TvTimelineRenderer    *renderer,
                                             cairo_t               *cr,
                                             TvTimeline            *timeline,
                                             const TvTimelineStyle *style);

/* What is at X, Y (viewport pixels).  FALSE (and kind NONE) for nothing. */
gboolean tv_timeline_renderer_hit_test      (TvTimelineRenderer    *renderer,
                                             TvTimeline            *timeline,
                                             const TvTimelineStyle *style,
                                             double                 x,
                                             double                 y,
                                             TvTimelineHit         *hit);

/* Where the time axis is across the viewport: X to X + WIDTH. */
void     tv_timeline_renderer_get_plot_area (TvTimelineRenderer    *renderer,
                                             TvTimeline            *timeline,
                                             const TvTimelineStyle *style,
                                             double                *x,
                                             double                *width);
double   tv_timeline_renderer_time_to_x     (TvTimelineRenderer    *renderer,
                                             TvTimeline            *timeline,
                                             const TvTimelineStyle *style,
                                             double                 time);
double   tv_timeline_renderer_x_to_time     (TvTimelineRenderer    *renderer,
                                             TvTimeline            *timeline,
                                             const TvTimelineStyle *style,
                                             double                 x);
/* Where the lanes are shown (the rest is axis, overview and legend):
 * Y to Y + HEIGHT; and the height all their rows take, for a scrollbar. */
void     tv_timeline_renderer_get_lanes_area (TvTimelineRenderer    *renderer,
                                              TvTimeline            *timeline,
                                              const TvTimelineStyle *style,
                                              double                *y,
                                              double                *height,
                                              double                *content_height);
/* The label drawn beside LANE, or NULL when the lane has no row or its
 * row is too low for text (a COLLAPSED lane's).  Free with g_free(). */
char    *tv_timeline_renderer_dup_lane_label (TvTimelineRenderer    *renderer,
                                              TvTimeline            *timeline,
                                              const TvTimelineStyle *style,
                                              guint                  lane);
/* The height the viewport needs to show N_ROWS lanes of STYLE's height
 * without scrolling, with the axis, the overview and the legend. */
double   tv_timeline_renderer_get_height_for_lanes (TvTimelineRenderer    *renderer,
                                                    TvTimeline            *timeline,
                                                    const TvTimelineStyle *style,
                                                    guint                  n_rows);
/* The folded row's band, scrolled; FALSE when there is none. */
gboolean tv_timeline_renderer_get_folded_rect (TvTimelineRenderer    *renderer,
                                               TvTimeline            *timeline,
                                               const TvTimelineStyle *style,
                                               double                *x,
                                               double                *y,
                                               double                *width,
                                               double                *height);
/* LANE's band over the time axis, scrolled, not clipped to the lanes
 * area (the gap below it excluded); FALSE when the lane is hidden. */
gboolean tv_timeline_renderer_get_lane_rect (TvTimelineRenderer    *renderer,
                                             TvTimeline            *timeline,
                                             const TvTimelineStyle *style,
                                             guint                  lane,
                                             double                *x,
                                             double                *y,
                                             double                *width,
                                             double                *height);
/* The overview's band over the time axis. */
void     tv_timeline_renderer_get_overview_rect (TvTimelineRenderer    *renderer,
                                                 TvTimeline            *timeline,
                                                 const TvTimelineStyle *style,
                                                 double                *x,
                                                 double                *y,
                                                 double                *width,
                                                 double                *height);
/* A legend entry's box (swatch and label). */
void     tv_timeline_renderer_get_legend_rect (TvTimelineRenderer    *renderer,
                                               TvTimeline            *timeline,
                                               const TvTimelineStyle *style,
                                               TvTimelineState        state,
                                               double                *x,
                                               double                *y,
                                               double                *width,
                                               double                *height);

/* The axis's ticks for STYLE's window: their times (microseconds since
 * the first sample) and labels, as drawn.  Free the labels with
 * g_strfreev(), the times with g_free(). */
guint    tv_timeline_renderer_get_ticks     (TvTimelineRenderer    *renderer,
                                             TvTimeline            *timeline,
                                             const TvTimelineStyle *style,
                                             double               **times,
                                             char                ***labels);

/* The sub-second heatmap (TvTimelineHeatmap), FlameScope style: a column
 * per second from left to right, a row per offset within the second from
 * the top down, each cell coloured by its count on a sequential scale
 * (pale to dark red in light, dark purple to pale yellow in dark; a cell
 * without samples keeps the lanes' track colour).  The seconds are
 * labelled below, the offsets on the left, and a legend of the scale
 * stands on the right.  The cells are painted as one image, a pixel per
 * cell, scaled: nothing is drawn per sample. */
typedef struct
{
  gboolean                    dark;
  gboolean                    draw_background;
  const PangoFontDescription *font;     /* NULL for the renderer's */
  double                      width;
  double                      height;
  /* The selection, absolute timestamps, sorted and disjoint: the cells
   * (or parts of cells) outside it are dimmed.  None when N_SELECTION
   * is 0. */
  const TvTimeRange          *selection;
  guint                       n_selection;
  /* A rectangle of cells being dragged out, outlined. */
  gboolean                    has_drag;
  guint                       drag_column0;
  guint                       drag_row0;
  guint                       drag_column1;
  guint                       drag_row1;
  /* The legend's caption, from the caller (translated); NULL for none. */
  const char                 *legend_label;
  /* The samples of a selected function or of a search's matches, for the
   * heatmap's lanes and thread state, or NULL: each cell with some is
   * tinted with the accent by their share of its samples, the others
   * dimmed. */
  TvTimelineHighlight        *highlight;
} TvHeatmapStyle;

/* Light, no selection, WIDTH x HEIGHT pixels. */
void            tv_heatmap_style_init (TvHeatmapStyle *style,
                                       double          width,
                                       double          height);

/* The colour of a cell that counts COUNT samples when the fullest counts
 * MAX. */
TvTimelineColor tv_timeline_heatmap_color (guint64  count,
                                           guint64  max,
                                           gboolean dark);

void     tv_timeline_renderer_draw_heatmap      (TvTimelineRenderer   *renderer,
                                                 cairo_t              *cr,
                                                 TvTimelineHeatmap    *heatmap,
                                                 const TvHeatmapStyle *style);
/* The cell at X, Y; FALSE when there is none there.  With CLAMP, the
 * nearest cell to any point (FALSE only for a heatmap without cells). */
gboolean tv_timeline_renderer_heatmap_hit_test  (TvTimelineRenderer   *renderer,
                                                 TvTimelineHeatmap    *heatmap,
                                                 const TvHeatmapStyle *style,
                                                 double                x,
                                                 double                y,
                                                 gboolean              clamp,
                                                 guint                *column,
                                                 guint                *row);
/* Where a cell is drawn; FALSE when it does not exist. */
gboolean tv_timeline_renderer_get_heatmap_cell  (TvTimelineRenderer   *renderer,
                                                 TvTimelineHeatmap    *heatmap,
                                                 const TvHeatmapStyle *style,
                                                 guint                 column,
                                                 guint                 row,
                                                 double               *x,
                                                 double               *y,
                                                 double               *width,
                                                 double               *height);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TvTimelineRenderer, tv_timeline_renderer_free)

G_END_DECLS
