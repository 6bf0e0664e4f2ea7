/* tv-palette-css.c: writes the palette's CSS named colours, at build time
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * `tv-palette-css light|dark` prints the @define-color lines that
 * data/style.css (light) and data/style-dark.css (dark) import, so that
 * the widgets' named colours are the palette's (tv-palette.c) and are
 * written down nowhere else.  data/meson.build runs it into the
 * application's resources.
 */
#include <stdio.h>
#include <string.h>

#include "tv-palette.h"

int
main (int    argc,
      char **argv)
{
  g_autofree char *css = NULL;
  gboolean dark;

  if (argc != 2 || (strcmp (argv[1], "light") != 0 && strcmp (argv[1], "dark") != 0))
    {
      fprintf (stderr, "usage: %s light|dark\n", argc > 0 ? argv[0] : "tv-palette-css");
      return 2;
    }
  dark = strcmp (argv[1], "dark") == 0;
  css = tv_palette_to_css (dark);
  printf ("/* The palette's named colours, %s (generated from src/render/tv-palette.c\n"
          " * by tv-palette-css: do not edit). */\n%s", argv[1], css);
  return ferror (stdout) || fflush (stdout) != 0 ? 1 : 0;
}
