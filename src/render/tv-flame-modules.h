/* tv-flame-modules.h: where a frame's code comes from, and its colour
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The flame graph's module colours tell the standard library, installed
 * packages, the profiled project and the rest apart by a frame's file,
 * each function in a colour of its module's range (tv-palette.h).  The
 * renderer, the legends of the image exports and the HTML page all
 * colour a function with tv_flame_function_color().
 */
#pragma once

#include "tv-palette.h"
#include "tv-profile-data.h"

G_BEGIN_DECLS

typedef TvColor TvFlameColor;

/* The palette's modules, as the flame graph names them. */
typedef enum
{
  TV_FLAME_MODULE_STDLIB = TV_PALETTE_MODULE_STDLIB,
  TV_FLAME_MODULE_SITE_PACKAGES = TV_PALETTE_MODULE_SITE_PACKAGES,
  TV_FLAME_MODULE_PROJECT = TV_PALETTE_MODULE_PROJECT,
  TV_FLAME_MODULE_OTHER = TV_PALETTE_MODULE_OTHER,
  TV_FLAME_N_MODULE_KINDS = TV_PALETTE_N_MODULES
} TvFlameModuleKind;

/* The kind of module a file path belongs to.  PROJECT_ROOT may be NULL:
 * then every file that is not the standard library's, an installed
 * package's or a pseudo-file such as "<string>" is the project's. */
TvFlameModuleKind  tv_flame_classify_file       (const char   *path,
                                                 const char   *project_root);
/* The directory that holds the profile's own Python files: the longest
 * common directory of the absolute paths that are neither the standard
 * library nor installed packages.  NULL when that is only "/" or there
 * are none. */
char              *tv_flame_guess_project_root  (TvProfileData *data);

/* CPython's made-up frames, in its file "~": a garbage collection and
 * native code. */
typedef enum
{
  TV_FLAME_SYNTHETIC_NONE,
  TV_FLAME_SYNTHETIC_GC,
  TV_FLAME_SYNTHETIC_NATIVE
} TvFlameSynthetic;

TvFlameSynthetic   tv_flame_classify_synthetic  (const char       *filename,
                                                 const char       *funcname);

/* The colour a module kind is drawn in, for a legend. */
TvFlameColor       tv_flame_module_color        (TvFlameModuleKind kind,
                                                 gboolean          dark);
/* The colour a function of KIND is drawn in by module colours: picked
 * within its module's range by HASH, tv_flame_function_hash() of its
 * name, so that it is the same in every profile. */
guint32            tv_flame_function_hash       (const char       *funcname);
TvFlameColor       tv_flame_function_color      (TvFlameModuleKind kind,
                                                 guint32           hash,
                                                 gboolean          dark);

G_END_DECLS
