/* tv-atomic-write.c: write a file so that it is never seen half-written
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every export writes a temporary file next to its output and renames it
 * over the output at the end, so that a failure (a full disk, a profile
 * that turns out to be broken) never leaves a partial file behind and an
 * existing file stays as it was.
 */
#include "tv-atomic-write.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include <glib/gi18n.h>
#include <glib/gstdio.h>

/* Removes the temporary file and says why writing failed. */
static gboolean
fail_write (GError     **error,
            int          saved_errno,
            const char  *tmp_path)
{
  g_unlink (tmp_path);
  g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
               _("Could not write: %s"), g_strerror (saved_errno));
  return FALSE;
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
 * temporary file is removed.  The new file gets the mode 0666 less the
 * umask, like any file a program creates.
 *
 * Returns: %TRUE on success
 */
gboolean
tv_atomic_write (const char         *out_path,
                 TvAtomicWriteFunc   write_func,
                 gpointer            user_data,
                 GError            **error)
{
  g_autofree char *dirname = NULL;
  g_autofree char *basename = NULL;
  g_autofree char *tmp_path = NULL;
  g_autofree char *tmp_name = NULL;
  gboolean replacing;
  FILE *file;
  int fd;

  g_return_val_if_fail (out_path != NULL, FALSE);
  g_return_val_if_fail (write_func != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (g_file_test (out_path, G_FILE_TEST_IS_DIR))
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_IS_DIRECTORY,
                           _("This is a folder; the output must be a file"));
      return FALSE;
    }

  /* The temporary file is hidden in OUT's folder, so that rename() stays
   * within one file system. */
  dirname = g_path_get_dirname (out_path);
  basename = g_path_get_basename (out_path);
  tmp_name = g_strdup_printf (".%.200s.XXXXXX", basename);
  tmp_path = g_build_filename (dirname, tmp_name, NULL);
  replacing = g_file_test (out_path, G_FILE_TEST_EXISTS);

  fd = g_mkstemp_full (tmp_path, O_WRONLY | O_CLOEXEC, 0666);
  if (fd < 0)
    {
      int saved_errno = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
                   _("Could not create a file in “%s”: %s"), dirname, g_strerror (saved_errno));
      return FALSE;
    }

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

  if (g_rename (tmp_path, out_path) != 0)
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
