/* tv-flame-renderer.h: draws a flame graph layout with cairo
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One renderer for the widget (through gtk_snapshot_append_cairo), the
 * PNG, SVG and PDF exports and the offscreen tests: it draws a
 * TvFlameLayout onto any cairo_t, with cairo and pangocairo only.
 *
 * What changes between frames without a new layout (hover, selection,
 * search, colours, light or dark) is in TvFlameStyle, so a hover redraw
 * costs no relayout.  A widget that keeps the drawing of the frames (with
 * no hover and no selection) can draw the selection and the hover alone
 * on top of it with tv_flame_renderer_draw_highlight().
 *
 * A renderer keeps caches (shaped labels, colours per frame, a scratch
 * image) and is not thread-safe: make one on each thread that draws (an
 * export on a worker makes its own), and use it there.  It has no
 * translatable text: the root frame's label comes from the caller.
 */
#pragma once

#include <cairo.h>
#include <pango/pango.h>

#include "tv-diff.h"
#include "tv-flame-layout.h"
#include "tv-flame-modules.h"
#include "tv-palette.h"

G_BEGIN_DECLS

typedef enum
{
  TV_FLAME_COLORS_MODULE,        /* standard library, site-packages, the project, other */
  TV_FLAME_COLORS_HEAT,          /* self samples */
  TV_FLAME_COLORS_THREAD_STATE,  /* holding the GIL, on CPU, waiting for the GIL */
  TV_FLAME_COLORS_DIFF,          /* the change against another profile (TvFlameStyle.diff) */
} TvFlameColorScheme;

/* What TV_FLAME_COLORS_DIFF shows of a comparison. */
typedef enum
{
  TV_FLAME_DIFF_TOTAL,       /* the change of each frame's total */
  TV_FLAME_DIFF_SELF,        /* the change of its self samples */
  TV_FLAME_DIFF_UNMATCHED,   /* only the frames the other side lacks */
} TvFlameDiffMode;

typedef struct
{
  TvFlameColorScheme          scheme;
  gboolean                    dark;
  /* Fill the viewport with the background colour first (exports). */
  gboolean                    draw_background;
  /* The labels' font; NULL for the renderer's ("Sans 9"). */
  const PangoFontDescription *font;
  /* Files under this directory are the project's; NULL guesses it (see
   * tv_flame_guess_project_root()). */
  const char                 *project_root;
  /* The text of the tree root's box (say, "all"); NULL for none. */
  const char                 *root_label;

  /* The hovered box: a frame's node, or for a merged box its node and
   * first (TvFlameBox); hovered TV_NODE_NONE for none. */
  guint32                     hovered;
  guint32                     hovered_first;
  gboolean                    hovered_merged;
  guint32                     selected;      /* a node, or TV_NODE_NONE */
  /* A search: matching frames are drawn as usual, the others dimmed. */
  TvFlameMatches             *matches;
  /* TV_FLAME_COLORS_DIFF: the comparison the layout's tree is a side of
   * (DIFF_SIDE), and what it shows.  Red is more, blue less; changes
   * within sampling noise are neutral. */
  TvDiff                     *diff;
  TvDiffSide                  diff_side;
  TvFlameDiffMode             diff_mode;
  /* TV_FLAME_COLORS_DIFF: frames keep their module colours, and a change
   * beyond noise is an outline in its colour, so that a comparison with
   * no change beyond noise is not all grey (side by side). */
  gboolean                    diff_keeps_modules;
} TvFlameStyle;

/* Module colours, light, nothing hovered, selected or searched. */
void               tv_flame_style_init          (TvFlameStyle *style);

/* The colour of a change, for a legend: RELATIVE is the measure's
 * relative change (0.2 is 20 % more, -1 all gone, INFINITY new). */
TvFlameColor       tv_flame_diff_color          (TvDiffChange      change,
                                                 double            relative,
                                                 gboolean          dark);
/* The background the renderer draws on (draw_background). */
TvFlameColor       tv_flame_background_color    (gboolean          dark);

typedef struct _TvFlameRenderer TvFlameRenderer;

/* FONT_MAP: where fonts come from; NULL for the thread's default
 * pangocairo font map. */
TvFlameRenderer   *tv_flame_renderer_new        (PangoFontMap               *font_map);
void               tv_flame_renderer_free       (TvFlameRenderer            *renderer);

/* Hinting and antialiasing of the labels, and the resolution fonts are
 * sized at (96 by default).  A widget passes its own; exports to vector
 * formats turn hinting off. */
void               tv_flame_renderer_set_font_options (TvFlameRenderer            *renderer,
                                                       const cairo_font_options_t *options);
void               tv_flame_renderer_set_resolution   (TvFlameRenderer            *renderer,
                                                       double                      dpi);

/* Draws LAYOUT's boxes, labels and highlights onto CR, in the viewport's
 * pixels (the caller translates and clips). */
void               tv_flame_renderer_draw       (TvFlameRenderer    *renderer,
                                                 cairo_t            *cr,
                                                 TvFlameLayout      *layout,
                                                 const TvFlameStyle *style);
/* Draws the selected box's outline and the hovered box's highlight only,
 * to go on top of a drawing made with nothing selected or hovered. */
void               tv_flame_renderer_draw_highlight (TvFlameRenderer    *renderer,
                                                     cairo_t            *cr,
                                                     TvFlameLayout      *layout,
                                                     const TvFlameStyle *style);

/* The fill BOX is drawn with under STYLE (before any hover highlight). */
TvFlameColor       tv_flame_renderer_get_fill   (TvFlameRenderer    *renderer,
                                                 TvFlameLayout      *layout,
                                                 const TvFlameBox   *box,
                                                 const TvFlameStyle *style);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TvFlameRenderer, tv_flame_renderer_free)

G_END_DECLS
