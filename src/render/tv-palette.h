/* tv-palette.h: every colour the viewer draws data in, light and dark
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One table, read by everything that colours a profile: the flame graph's
 * and the timeline's renderers (and so the image exports), and the
 * widgets, whose CSS named colours are generated from it at build time
 * (tv-palette-css.c).  Module colours, thread states, changes between
 * two profiles, heat, the heatmap's scale, the background, the selection
 * and how things are dimmed are defined here and nowhere else.
 *
 * GLib only (no cairo, no model), so that the build can run it.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* A colour, each channel from 0 to 1. */
typedef struct
{
  double red;
  double green;
  double blue;
} TvColor;

/* Where a frame's code comes from (TvFlameModuleKind). */
typedef enum
{
  TV_PALETTE_MODULE_STDLIB,
  TV_PALETTE_MODULE_SITE_PACKAGES,
  TV_PALETTE_MODULE_PROJECT,
  TV_PALETTE_MODULE_OTHER,
  TV_PALETTE_N_MODULES
} TvPaletteModule;

/* What a thread was doing (TvTimelineState). */
typedef enum
{
  TV_PALETTE_STATE_RUNNING,    /* holding the GIL */
  TV_PALETTE_STATE_NATIVE,     /* on CPU without the GIL */
  TV_PALETTE_STATE_WAITING,    /* waiting for the GIL */
  TV_PALETTE_STATE_EXCEPTION,
  TV_PALETTE_STATE_IDLE,
  TV_PALETTE_STATE_UNKNOWN,
  TV_PALETTE_N_STATES
} TvPaletteState;

/* How much a search dims the frames it does not match, and the zoom the
 * ancestors of its root: the share of the background mixed in. */
#define TV_PALETTE_SEARCH_DIM    0.72
#define TV_PALETTE_ANCESTOR_DIM  0.40
/* The background's opacity over what lies outside a selection. */
#define TV_PALETTE_VEIL_ALPHA    0.6

TvColor  tv_color_mix              (TvColor          a,
                                    TvColor          b,
                                    double           t);
/* 0xRRGGBB, each channel rounded. */
guint32  tv_color_pack             (TvColor          color);
TvColor  tv_color_unpack           (guint32          rgb);

/* The view's background, libadwaita's (what the renderers draw on), and
 * its text colour. */
TvColor  tv_palette_background     (gboolean         dark);
TvColor  tv_palette_foreground     (gboolean         dark);
/* libadwaita's accent: selections, outlines, the selected lane. */
TvColor  tv_palette_accent         (gboolean         dark);
/* The accent's opacity where it tints a selected range. */
double   tv_palette_selection_alpha (gboolean        dark);
/* Black or white, whichever reads better on FILL. */
TvColor  tv_palette_text_on        (TvColor          fill);
/* A hovered fill: lighter. */
TvColor  tv_palette_hover          (TvColor          fill,
                                    gboolean         dark);

/* A function's colour: its module's range of hues and lightness, at
 * HUE_AT and LIGHTNESS_AT (0 to 1, from a hash of its name) within it. */
TvColor  tv_palette_module         (TvPaletteModule  module,
                                    double           hue_at,
                                    double           lightness_at,
                                    gboolean         dark);
/* The range module colours are picked in: hue from HUE to HUE + HUE_RANGE
 * degrees, the saturation, lightness from LIGHTNESS to LIGHTNESS +
 * LIGHTNESS_RANGE (0 to 1), for the exported page to pick them alike. */
void     tv_palette_module_range   (TvPaletteModule  module,
                                    gboolean         dark,
                                    double          *hue,
                                    double          *hue_range,
                                    double          *saturation,
                                    double          *lightness,
                                    double          *lightness_range);
/* CPython's made-up frames: "<GC>" (a garbage collection) and "<native>"
 * (native code), whatever the module colours. */
TvColor  tv_palette_gc             (gboolean         dark);
TvColor  tv_palette_native         (gboolean         dark);
/* A frame that has no colour of its own (the root), and a box of frames
 * merged because each is narrower than a pixel. */
TvColor  tv_palette_neutral        (gboolean         dark);
TvColor  tv_palette_merged         (gboolean         dark);
/* Heat: T from 0 (no self samples) to 1 (the most). */
TvColor  tv_palette_heat           (double           t,
                                    gboolean         dark);
TvColor  tv_palette_state          (TvPaletteState   state,
                                    gboolean         dark);
/* A timeline lane, or a heatmap cell, where there are no samples. */
TvColor  tv_palette_track          (gboolean         dark);
/* The heatmap's sequential scale: F is a cell's count over the fullest
 * cell's, from 0 to 1. */
TvColor  tv_palette_heatmap        (double           f,
                                    gboolean         dark);

/* A change between two profiles: DIRECTION above 0 is more (red), below
 * 0 less (blue), 0 within sampling noise (grey); STRENGTH from 0 (the
 * weakest significant change) to 1 (tv_palette_diff_strength()). */
TvColor  tv_palette_diff           (int              direction,
                                    double           strength,
                                    gboolean         dark);
/* The strength of a relative change (0.2 is 20 % more, -1 all gone,
 * INFINITY new): full at double or half, eased so that a small change
 * is told from none. */
double   tv_palette_diff_strength  (double           relative);
/* A change in text (a table's Δ column): more or less. */
TvColor  tv_palette_diff_text      (int              direction,
                                    gboolean         dark);

/* The CSS named colours the widgets use (style.css imports them), as
 * @define-color lines. */
char    *tv_palette_to_css         (gboolean         dark);

G_END_DECLS
