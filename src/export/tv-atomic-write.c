/* tv-atomic-write.c: write a file so that it is never seen half-written
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every export writes a temporary file next to its output and renames it
 * over the output at the end, so that a failure (a full disk, a profile
 * that turns out to be broken) never leaves a partial file behind and an
 * existing file stays as it was.  What the output path names is respected:
 * a symbolic link is followed, a pipe or a device is written to (there is
 * nothing to replace), a file that may not be written stays as it is, and
 * a replaced file keeps its permissions.
 */
#include "tv-atomic-write.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "tv-text.h"

/* Says why writing failed; TMP_PATH, the temporary file, if any, is
 * removed. */
static gboolean
fail_write (GError     **error,
            int          saved_errno,
            const char  *tmp_path)
{
  if (tmp_path != NULL)
    g_unlink (tmp_path);
  g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
               _("Could not write: %s"), g_strerror (saved_errno));
  return FALSE;
}

/* The file OUT_PATH stands for: symbolic links followed, also a link to a
 * file that does not exist yet, which is then made.  NULL with ERRNO set
 * for a loop of links. */
static char *
resolve_links (const char *out_path)
{
  g_autofree char *path = g_strdup (out_path);

  for (guint depth = 0; depth < 40; depth++)
    {
      g_autofree char *target = NULL;
      GStatBuf st;

      if (g_lstat (path, &st) != 0 || !S_ISLNK (st.st_mode))
        return g_steal_pointer (&path);
      if ((target = g_file_read_link (path, NULL)) == NULL)
        return g_steal_pointer (&path);
      if (!g_path_is_absolute (target))
        {
          g_autofree char *dir = g_path_get_dirname (path);
          char *joined = g_build_filename (dir, target, NULL);

          g_free (target);
          target = joined;
        }
      g_free (path);
      path = g_steal_pointer (&target);
    }
  errno = ELOOP;
  return NULL;
}

/* Writes straight into what is not a file to replace (a pipe, a device). */
static gboolean
write_in_place (const char         *path,
                TvAtomicWriteFunc   write_func,
                gpointer            user_data,
                GError            **error)
{
  int fd = g_open (path, O_WRONLY | O_CLOEXEC, 0);
  FILE *file;

  if (fd < 0 || (file = fdopen (fd, "w")) == NULL)
    {
      int saved_errno = errno;

      if (fd >= 0)
        close (fd);
      return fail_write (error, saved_errno, NULL);
    }
  errno = 0;
  if (!write_func (file, user_data, error))
    {
      fclose (file);
      return FALSE;
    }
  if (fflush (file) != 0 || ferror (file))
    {
      int saved_errno = errno != 0 ? errno : EIO;

      fclose (file);
      return fail_write (error, saved_errno, NULL);
    }
  if (fclose (file) != 0)
    return fail_write (error, errno, NULL);
  return TRUE;
}

/**
 * tv_atomic_write:
 * @out_path: the file to create or replace
 * @write_func: writes the contents
 * @user_data: passed to @write_func
 * @error: return location for an error
 *
 * Calls @write_func on a temporary file next to @out_path and renames it
 * over @out_path, so that @out_path is never left half-written and an
 * existing @out_path stays as it was when anything fails; on failure the
 * temporary file is removed.  A new file gets the mode 0666 less the
 * umask, like any file a program creates; a replaced one keeps its mode.
 *
 * A symbolic link is followed: the file it points to is written, and the
 * link stays.  A pipe or a device is written to directly, since there is
 * nothing to replace.  A file that may not be written is not replaced.
 *
 * Returns: %TRUE on success
 */
gboolean
tv_atomic_write (const char         *out_path,
                 TvAtomicWriteFunc   write_func,
                 gpointer            user_data,
                 GError            **error)
{
  g_autofree char *target = NULL;
  g_autofree char *dirname = NULL;
  g_autofree char *basename = NULL;
  g_autofree char *tmp_path = NULL;
  g_autofree char *tmp_name = NULL;
  gboolean replacing;
  GStatBuf st;
  FILE *file;
  int fd;

  g_return_val_if_fail (out_path != NULL, FALSE);
  g_return_val_if_fail (write_func != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if ((target = resolve_links (out_path)) == NULL)
    return fail_write (error, errno, NULL);
  replacing = g_stat (target, &st) == 0;
  if (replacing && S_ISDIR (st.st_mode))
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_IS_DIRECTORY,
                           _("This is a folder; the output must be a file"));
      return FALSE;
    }
  if (replacing && !S_ISREG (st.st_mode))
    return write_in_place (target, write_func, user_data, error);
  if (replacing && g_access (target, W_OK) != 0)
    return fail_write (error, errno, NULL);

  /* The temporary file is hidden in OUT's folder, so that rename() stays
   * within one file system. */
  dirname = g_path_get_dirname (target);
  basename = g_path_get_basename (target);
  tmp_name = g_strdup_printf (".%.200s.XXXXXX", basename);
  tmp_path = g_build_filename (dirname, tmp_name, NULL);

  fd = g_mkstemp_full (tmp_path, O_WRONLY | O_CLOEXEC, 0666);
  if (fd < 0)
    {
      int saved_errno = errno;
      g_autofree char *shown = tv_text_dup_path (dirname);

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
                   _("Could not create a file in “%s”: %s"), shown, g_strerror (saved_errno));
      return FALSE;
    }

  /* A replaced file keeps its permissions (a new one has 0666 less the
   * umask, from g_mkstemp_full()). */
  if (replacing)
    fchmod (fd, st.st_mode & 07777);

  file = fdopen (fd, "w");
  if (file == NULL)
    {
      int saved_errno = errno;

      close (fd);
      return fail_write (error, saved_errno, tmp_path);
    }
  setvbuf (file, NULL, _IOFBF, 1 << 20);

  errno = 0;
  if (!write_func (file, user_data, error))
    {
      fclose (file);
      g_unlink (tmp_path);
      return FALSE;
    }

  if (fflush (file) != 0 || ferror (file))
    {
      int saved_errno = errno != 0 ? errno : EIO;

      fclose (file);
      return fail_write (error, saved_errno, tmp_path);
    }

  /* When an existing file is replaced, its old contents must survive a
   * crash, so the new ones go to the disk before the rename (as
   * g_file_set_contents() does). */
  if (replacing && fsync (fileno (file)) != 0)
    {
      int saved_errno = errno;

      fclose (file);
      return fail_write (error, saved_errno, tmp_path);
    }

  if (fclose (file) != 0)
    return fail_write (error, errno, tmp_path);

  if (g_rename (tmp_path, target) != 0)
    {
      int saved_errno = errno;

      g_unlink (tmp_path);
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
                   _("Could not replace the file: %s"), g_strerror (saved_errno));
      return FALSE;
    }

  return TRUE;
}

typedef struct
{
  const char *data;
  gsize       len;
} Bytes;

static gboolean
write_bytes (FILE      *file,
             gpointer   user_data,
             GError   **error)
{
  const Bytes *bytes = user_data;

  /* Errors are picked up by the caller's fflush() and ferror(). */
  if (bytes->len > 0)
    fwrite (bytes->data, 1, bytes->len, file);
  return TRUE;
}

/**
 * tv_atomic_write_bytes:
 * @out_path: the file to create or replace
 * @data: the contents
 * @len: the length of @data
 * @error: return location for an error
 *
 * tv_atomic_write() for contents that are already in memory.
 *
 * Returns: %TRUE on success
 */
gboolean
tv_atomic_write_bytes (const char  *out_path,
                       const char  *data,
                       gsize        len,
                       GError     **error)
{
  Bytes bytes = { data, len };

  g_return_val_if_fail (data != NULL || len == 0, FALSE);

  return tv_atomic_write (out_path, write_bytes, &bytes, error);
}
