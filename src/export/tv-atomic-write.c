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
 *
 * A process killed while it writes (kill -9, a power cut) leaves its
 * temporary file behind.  The name says whose it is:
 * ".OUT.tachyon-tmp-HOST-PID-XXXXXX", HOST eight hexadecimal digits of a
 * hash of the host's name and of the process's PID namespace, PID the
 * writer's process ID, XXXXXX mkstemp()'s six letters and digits.  Before
 * it writes OUT, a run removes the temporaries of OUT of that exact form
 * whose HOST is its own and whose PID is not that of a live process (nor
 * its own), if they are regular files of its user: those of a writer that
 * died.  It never touches a file of another form, a link, another user's
 * file, the temporary of a live process, nor one made on another host or
 * in another container (whose PIDs say nothing here).
 */
#include "tv-atomic-write.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
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

#define TEMP_MARK ".tachyon-tmp-"
/* mkstemp()'s letters and digits at the end of a temporary's name. */
#define TEMP_RANDOM_CHARS 6

/* Eight hexadecimal digits for this host and PID namespace (FNV-1a of
 * the host's name and of /proc/self/ns/pid): a PID says whether a writer
 * lives only where both are the same. */
static const char *
host_tag (void)
{
  static char tag[16];
  static gsize done = 0;

  if (g_once_init_enter (&done))
    {
      char ns[128];
      ssize_t n = readlink ("/proc/self/ns/pid", ns, sizeof ns - 1);
      const char *parts[2] = { g_get_host_name (), ns };
      guint32 hash = 2166136261u;

      ns[n > 0 ? n : 0] = '\0';
      for (guint i = 0; i < G_N_ELEMENTS (parts); i++)
        {
          /* The nul ends each part, so that "ab" + "c" is not "a" + "bc". */
          const char *p = parts[i];

          do
            hash = (hash ^ (guchar) *p) * 16777619u;
          while (*p++ != '\0');
        }
      g_snprintf (tag, sizeof tag, "%08x", hash);
      g_once_init_leave (&done, 1);
    }
  return tag;
}

/* ".OUT.tachyon-tmp-HOST-": how the temporaries of the file BASENAME
 * start (the name cut to 200 bytes, so that the whole stays within the
 * 255 a name may have). */
static char *
dup_temp_prefix (const char *basename)
{
  return g_strdup_printf (".%.200s" TEMP_MARK "%s-", basename, host_tag ());
}

/* Whether NAME is PREFIX, a PID, '-' and mkstemp()'s six characters, and
 * if so, that PID. */
static gboolean
parse_temp_name (const char *name,
                 const char *prefix,
                 pid_t      *pid)
{
  const char *p;
  guint64 value = 0;

  if (!g_str_has_prefix (name, prefix))
    return FALSE;
  p = name + strlen (prefix);
  /* Digits as printf() writes a PID: no sign, no leading zero. */
  if (!g_ascii_isdigit (*p) || *p == '0')
    return FALSE;
  for (; g_ascii_isdigit (*p); p++)
    {
      value = value * 10 + (guint64) (*p - '0');
      if (value > G_MAXINT32)
        return FALSE;
    }
  if (*p++ != '-' || strlen (p) != TEMP_RANDOM_CHARS)
    return FALSE;
  for (; *p != '\0'; p++)
    if (!g_ascii_isalnum (*p))
      return FALSE;
  *pid = (pid_t) value;
  return TRUE;
}

/* Removes what killed writers of BASENAME left in DIRNAME (see the top of
 * the file); quietly does nothing where it cannot. */
static void
remove_stale_temporaries (const char *dirname,
                          const char *basename)
{
  g_autofree char *prefix = dup_temp_prefix (basename);
  GDir *dir = g_dir_open (dirname, 0, NULL);
  const char *name;

  if (dir == NULL)
    return;
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = NULL;
      GStatBuf st;
      pid_t pid;

      if (!parse_temp_name (name, prefix, &pid) || pid == getpid ())
        continue;
      /* Alive, or another user's (EPERM): not stale. */
      if (kill (pid, 0) == 0 || errno != ESRCH)
        continue;
      path = g_build_filename (dirname, name, NULL);
      if (g_lstat (path, &st) != 0 || !S_ISREG (st.st_mode) || st.st_uid != geteuid ())
        continue;
      g_unlink (path);
    }
  g_dir_close (dir);
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
  g_autofree char *prefix = NULL;
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
   * within one file system, and says whose it is. */
  dirname = g_path_get_dirname (target);
  basename = g_path_get_basename (target);
  remove_stale_temporaries (dirname, basename);
  prefix = dup_temp_prefix (basename);
  tmp_name = g_strdup_printf ("%s%ld-XXXXXX", prefix, (long) getpid ());
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

char *
tv_atomic_write_dup_temp_prefix (const char *out_path)
{
  g_autofree char *basename = NULL;

  g_return_val_if_fail (out_path != NULL, NULL);

  basename = g_path_get_basename (out_path);
  return dup_temp_prefix (basename);
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
