/* tv-palette.c: the one table of the viewer's colours
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Most colours are HSL, which says what they are (a hue for a meaning, a
 * lightness for light or dark) better than RGB; the fixed ones are
 * libadwaita's and the GNOME palette's, as the rest of the window is.
 */
#include "tv-palette.h"

#include <math.h>

/* ------------------------------------------------------------------------ */
/* Colour arithmetic                                                         */
/* ------------------------------------------------------------------------ */

static TvColor
hsl (double h,
     double s,
     double l)
{
  double c = (1 - fabs (2 * l - 1)) * s;
  double hp = fmod (h, 360.0) / 60.0;
  double x, m = l - c / 2;
  double r = 0, g = 0, b = 0;

  if (hp < 0)
    hp += 6;
  x = c * (1 - fabs (fmod (hp, 2.0) - 1));
  if (hp < 1)
    r = c, g = x;
  else if (hp < 2)
    r = x, g = c;
  else if (hp < 3)
    g = c, b = x;
  else if (hp < 4)
    g = x, b = c;
  else if (hp < 5)
    r = x, b = c;
  else
    r = c, b = x;
  return (TvColor) { r + m, g + m, b + m };
}

static TvColor
rgb (guint32 packed)
{
  return tv_color_unpack (packed);
}

TvColor
tv_color_mix (TvColor a,
              TvColor b,
              double  t)
{
  return (TvColor) {
    a.red + (b.red - a.red) * t,
    a.green + (b.green - a.green) * t,
    a.blue + (b.blue - a.blue) * t,
  };
}

/* Rounds half up, without a call into libm: the timeline packs a colour
 * for every column of every lane. */
static inline guint32
channel_byte (double c)
{
  return (guint32) (CLAMP (c, 0.0, 1.0) * 255 + 0.5);
}

guint32
tv_color_pack (TvColor color)
{
  return channel_byte (color.red) << 16 | channel_byte (color.green) << 8
         | channel_byte (color.blue);
}

TvColor
tv_color_unpack (guint32 packed)
{
  return (TvColor) { (packed >> 16 & 0xff) / 255.0, (packed >> 8 & 0xff) / 255.0,
                     (packed & 0xff) / 255.0 };
}

static double
channel_luminance (double c)
{
  return c <= 0.04045 ? c / 12.92 : pow ((c + 0.055) / 1.055, 2.4);
}

/* WCAG relative luminance. */
static double
luminance (TvColor c)
{
  return 0.2126 * channel_luminance (c.red) + 0.7152 * channel_luminance (c.green)
         + 0.0722 * channel_luminance (c.blue);
}

/* ------------------------------------------------------------------------ */
/* The window's colours                                                      */
/* ------------------------------------------------------------------------ */

TvColor
tv_palette_background (gboolean dark)
{
  /* libadwaita's view background. */
  return dark ? rgb (0x1e1e1e) : rgb (0xffffff);
}

TvColor
tv_palette_foreground (gboolean dark)
{
  return dark ? rgb (0xffffff) : rgb (0x000000);
}

TvColor
tv_palette_accent (gboolean dark)
{
  /* libadwaita's accent colours. */
  return dark ? rgb (0x78aeed) : rgb (0x1c71d8);
}

double
tv_palette_selection_alpha (gboolean dark)
{
  return dark ? 0.22 : 0.16;
}

/* Black on a fill of luminance L has contrast (L + 0.05) / 0.05, white
 * 1.05 / (L + 0.05); they are equal at L = 0.179. */
TvColor
tv_palette_text_on (TvColor fill)
{
  return luminance (fill) > 0.179 ? rgb (0x000000) : rgb (0xffffff);
}

TvColor
tv_palette_hover (TvColor  fill,
                  gboolean dark)
{
  return tv_color_mix (fill, rgb (0xffffff), dark ? 0.18 : 0.35);
}

/* ------------------------------------------------------------------------ */
/* Frames                                                                    */
/* ------------------------------------------------------------------------ */

/* Hue (start and range), saturation and lightness (start and range) per
 * module, light and dark.  Each function's colour is picked inside these
 * by a hash of its name, so it is the same in every profile. */
typedef struct
{
  double hue;
  double hue_range;
  double saturation;
  double lightness;
  double lightness_range;
} ModuleRange;

static const ModuleRange module_ranges[2][TV_PALETTE_N_MODULES] = {
  {
    [TV_PALETTE_MODULE_STDLIB] = { 200, 28, 0.55, 0.70, 0.09 },
    [TV_PALETTE_MODULE_SITE_PACKAGES] = { 140, 32, 0.42, 0.64, 0.10 },
    [TV_PALETTE_MODULE_PROJECT] = { 14, 30, 0.80, 0.64, 0.10 },
    [TV_PALETTE_MODULE_OTHER] = { 265, 30, 0.20, 0.72, 0.08 },
  },
  {
    [TV_PALETTE_MODULE_STDLIB] = { 200, 28, 0.45, 0.33, 0.08 },
    [TV_PALETTE_MODULE_SITE_PACKAGES] = { 140, 32, 0.35, 0.29, 0.08 },
    [TV_PALETTE_MODULE_PROJECT] = { 14, 30, 0.60, 0.36, 0.08 },
    [TV_PALETTE_MODULE_OTHER] = { 265, 30, 0.16, 0.35, 0.07 },
  },
};

TvColor
tv_palette_module (TvPaletteModule module,
                   double          hue_at,
                   double          lightness_at,
                   gboolean        dark)
{
  const ModuleRange *m;

  g_return_val_if_fail (module < TV_PALETTE_N_MODULES, tv_palette_neutral (dark));

  m = &module_ranges[dark ? 1 : 0][module];
  return hsl (m->hue + m->hue_range * hue_at, m->saturation,
              m->lightness + m->lightness_range * lightness_at);
}

void
tv_palette_module_range (TvPaletteModule  module,
                         gboolean         dark,
                         double          *hue,
                         double          *hue_range,
                         double          *saturation,
                         double          *lightness,
                         double          *lightness_range)
{
  const ModuleRange *m;

  g_return_if_fail (module < TV_PALETTE_N_MODULES);

  m = &module_ranges[dark ? 1 : 0][module];
  *hue = m->hue;
  *hue_range = m->hue_range;
  *saturation = m->saturation;
  *lightness = m->lightness;
  *lightness_range = m->lightness_range;
}

/* Teal for a collection, slate for native code: apart from every
 * module's hues (stdlib blue, packages green, the project orange, the
 * rest violet). */
TvColor
tv_palette_gc (gboolean dark)
{
  return dark ? hsl (172, 0.50, 0.30) : hsl (172, 0.45, 0.64);
}

TvColor
tv_palette_native (gboolean dark)
{
  return dark ? hsl (222, 0.14, 0.42) : hsl (222, 0.20, 0.74);
}

TvColor
tv_palette_neutral (gboolean dark)
{
  return dark ? hsl (40, 0.05, 0.27) : hsl (40, 0.08, 0.86);
}

TvColor
tv_palette_merged (gboolean dark)
{
  return dark ? hsl (0, 0, 0.40) : hsl (0, 0, 0.66);
}

/* From pale yellow to red. */
TvColor
tv_palette_heat (double   t,
                 gboolean dark)
{
  if (dark)
    return hsl (50 - 50 * t, 0.25 + 0.50 * t, 0.26 + 0.16 * t);
  return hsl (50 - 50 * t, 0.35 + 0.50 * t, 0.88 - 0.32 * t);
}

/* ------------------------------------------------------------------------ */
/* Thread states and time                                                    */
/* ------------------------------------------------------------------------ */

/* Green for running Python (holding the GIL), blue for native code on
 * CPU, orange for waiting for the GIL, red for an exception, grey for
 * idle and a greyish violet for what the sampler could not tell. */
TvColor
tv_palette_state (TvPaletteState state,
                  gboolean       dark)
{
  switch (state)
    {
    case TV_PALETTE_STATE_RUNNING:
      return dark ? hsl (120, 0.40, 0.34) : hsl (120, 0.45, 0.62);
    case TV_PALETTE_STATE_NATIVE:
      return dark ? hsl (212, 0.50, 0.40) : hsl (212, 0.65, 0.68);
    case TV_PALETTE_STATE_WAITING:
      return dark ? hsl (22, 0.70, 0.42) : hsl (22, 0.85, 0.62);
    case TV_PALETTE_STATE_EXCEPTION:
      return dark ? hsl (350, 0.75, 0.58) : hsl (350, 0.80, 0.47);
    case TV_PALETTE_STATE_IDLE:
      return dark ? hsl (0, 0, 0.30) : hsl (0, 0, 0.80);
    case TV_PALETTE_STATE_UNKNOWN:
      return dark ? hsl (265, 0.16, 0.40) : hsl (265, 0.22, 0.72);
    case TV_PALETTE_N_STATES:
    default:
      g_return_val_if_reached (tv_palette_background (dark));
    }
}

TvColor
tv_palette_track (gboolean dark)
{
  return dark ? hsl (0, 0, 0.155) : hsl (0, 0, 0.955);
}

TvColor
tv_palette_heatmap (double   f,
                    gboolean dark)
{
  /* Sequential scales whose far end stands out most from the background:
   * ColorBrewer's YlOrRd in light, a part of inferno in dark. */
  static const TvColor light_stops[] = {
    { 1.000, 0.929, 0.627 }, { 0.996, 0.698, 0.298 }, { 0.941, 0.231, 0.125 },
    { 0.647, 0.000, 0.149 },
  };
  static const TvColor dark_stops[] = {
    { 0.231, 0.059, 0.439 }, { 0.549, 0.161, 0.506 }, { 0.871, 0.286, 0.408 },
    { 0.996, 0.624, 0.427 }, { 0.988, 0.992, 0.749 },
  };
  const TvColor *stops = dark ? dark_stops : light_stops;
  guint n = dark ? G_N_ELEMENTS (dark_stops) : G_N_ELEMENTS (light_stops);
  double at = CLAMP (f, 0.0, 1.0) * (n - 1);
  guint i = MIN ((guint) at, n - 2);

  return tv_color_mix (stops[i], stops[i + 1], at - i);
}

/* ------------------------------------------------------------------------ */
/* Changes                                                                   */
/* ------------------------------------------------------------------------ */

#define SLOWER_HUE 2
#define FASTER_HUE 214

double
tv_palette_diff_strength (double relative)
{
  if (isinf (relative) || relative <= -1)
    return 1;
  return sqrt (MIN (fabs (log2 (1 + relative)), 1.0));
}

TvColor
tv_palette_diff (int      direction,
                 double   strength,
                 gboolean dark)
{
  double hue, t;

  if (direction == 0)
    return dark ? hsl (0, 0, 0.30) : hsl (0, 0, 0.84);
  hue = direction > 0 ? SLOWER_HUE : FASTER_HUE;
  /* Even the weakest change is told from the neutral grey. */
  t = 0.25 + 0.75 * CLAMP (strength, 0.0, 1.0);
  if (dark)
    return hsl (hue, 0.30 + 0.45 * t, 0.22 + 0.18 * t);
  return hsl (hue, 0.30 + 0.60 * t, 0.90 - 0.30 * t);
}

TvColor
tv_palette_diff_text (int      direction,
                      gboolean dark)
{
  /* The GNOME palette's red and blue, 3 in light, 2 in dark: they read
   * as text on the window's background. */
  if (direction > 0)
    return dark ? rgb (0xed333b) : rgb (0xe01b24);
  if (direction < 0)
    return dark ? rgb (0x62a0ea) : rgb (0x3584e4);
  return tv_palette_foreground (dark);
}

/* ------------------------------------------------------------------------ */
/* For CSS                                                                   */
/* ------------------------------------------------------------------------ */

static void
append_hex (GString *out,
            TvColor  color)
{
  g_string_append_printf (out, "#%06x", tv_color_pack (color));
}

char *
tv_palette_to_css (gboolean dark)
{
  GString *out = g_string_new (NULL);

  g_string_append (out, "@define-color tv_diff_slower_color ");
  append_hex (out, tv_palette_diff_text (1, dark));
  g_string_append (out, ";\n@define-color tv_diff_faster_color ");
  append_hex (out, tv_palette_diff_text (-1, dark));
  g_string_append (out, ";\n");
  return g_string_free (out, FALSE);
}
