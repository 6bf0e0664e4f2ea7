/* tv-flame-modules.c: module kinds by file path, and function colours
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A frame's module is told from its file's path alone (no file is read):
 * the standard library's and installed packages' folders look alike on
 * every system Python runs on; the project is the common folder of the
 * rest, unless the caller knows it.
 */
#include "tv-flame-modules.h"

#include <string.h>

static gboolean
has_dir_prefix (const char *path,
                const char *dir)
{
  gsize len = strlen (dir);

  if (len == 0 || strncmp (path, dir, len) != 0)
    return FALSE;
  return dir[len - 1] == '/' || dir[len - 1] == '\\' || path[len] == '/'
         || path[len] == '\\' || path[len] == '\0';
}

static gboolean
is_absolute (const char *path)
{
  return path[0] == '/' || path[0] == '\\'
         || (g_ascii_isalpha (path[0]) && path[1] == ':');
}

TvFlameModuleKind
tv_flame_classify_file (const char *path,
                        const char *project_root)
{
  if (path == NULL || path[0] == '\0')
    return TV_FLAME_MODULE_OTHER;
  /* Pseudo-files: the frozen modules are the standard library's, the rest
   * ("<string>", "<stdin>", ...) is code made at run time. */
  if (path[0] == '<')
    return g_str_has_prefix (path, "<frozen ") ? TV_FLAME_MODULE_STDLIB : TV_FLAME_MODULE_OTHER;
  if (strstr (path, "/site-packages/") != NULL || strstr (path, "/dist-packages/") != NULL
      || strstr (path, "\\site-packages\\") != NULL)
    return TV_FLAME_MODULE_SITE_PACKAGES;
  /* /usr/lib/python3.12/, ~/.pyenv/versions/3.12.1/lib/python3.12/,
   * /usr/lib64/python3.12/, C:\Python312\Lib\ */
  if (strstr (path, "/lib/python") != NULL || strstr (path, "/lib64/python") != NULL
      || strstr (path, "\\Lib\\") != NULL)
    return TV_FLAME_MODULE_STDLIB;
  if (project_root == NULL || project_root[0] == '\0')
    return TV_FLAME_MODULE_PROJECT;
  if (!is_absolute (path) || has_dir_prefix (path, project_root))
    return TV_FLAME_MODULE_PROJECT;
  return TV_FLAME_MODULE_OTHER;
}

char *
tv_flame_guess_project_root (TvProfileData *data)
{
  const char *prefix = NULL;
  gsize prefix_len = 0;

  g_return_val_if_fail (data != NULL, NULL);

  for (guint32 f = 0; f < tv_profile_data_get_n_frames (data); f++)
    {
      const char *path = tv_profile_data_get_filename (data, f);
      const char *slash;
      gsize i;

      if (path[0] != '/'
          || tv_flame_classify_file (path, NULL) != TV_FLAME_MODULE_PROJECT)
        continue;
      if (prefix == NULL)
        {
          /* Its directory, with the slash. */
          slash = strrchr (path, '/');
          prefix = path;
          prefix_len = slash - path + 1;
          continue;
        }
      for (i = 0; i < prefix_len && path[i] == prefix[i]; i++)
        ;
      prefix_len = i;
    }
  /* Back to the last whole directory. */
  while (prefix_len > 0 && prefix[prefix_len - 1] != '/')
    prefix_len--;
  if (prefix == NULL || prefix_len <= 1)
    return NULL;
  return g_strndup (prefix, prefix_len);
}

/* FNV-1a: the same name gets the same colour in every run and profile. */
guint32
tv_flame_function_hash (const char *name)
{
  guint32 h = 2166136261u;

  for (const guchar *p = (const guchar *) name; *p != '\0'; p++)
    h = (h ^ *p) * 16777619u;
  /* Spread the low bits, which the palette uses. */
  h ^= h >> 15;
  h *= 0x2c1b3c6du;
  h ^= h >> 12;
  return h;
}

TvFlameSynthetic
tv_flame_classify_synthetic (const char *filename,
                             const char *funcname)
{
  if (g_strcmp0 (filename, "~") != 0 || funcname == NULL)
    return TV_FLAME_SYNTHETIC_NONE;
  if (strcmp (funcname, "<GC>") == 0)
    return TV_FLAME_SYNTHETIC_GC;
  if (strcmp (funcname, "<native>") == 0)
    return TV_FLAME_SYNTHETIC_NATIVE;
  return TV_FLAME_SYNTHETIC_NONE;
}

TvFlameColor
tv_flame_module_color (TvFlameModuleKind kind,
                       gboolean          dark)
{
  g_return_val_if_fail (kind < TV_FLAME_N_MODULE_KINDS, tv_palette_background (dark));
  return tv_palette_module ((TvPaletteModule) kind, 0.5, 0.5, dark);
}

TvFlameColor
tv_flame_function_color (TvFlameModuleKind kind,
                         guint32           hash,
                         gboolean          dark)
{
  g_return_val_if_fail (kind < TV_FLAME_N_MODULE_KINDS, tv_palette_neutral (dark));
  return tv_palette_module ((TvPaletteModule) kind, (hash & 0xffff) / 65535.0,
                            (hash >> 16) / 65535.0, dark);
}
