/* tv-trace.c: when the window's stages are done
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tv-trace.h"

#include <errno.h>
#include <fcntl.h>
#include <time.h>
#include <unistd.h>

static const char *
trace_path (void)
{
  static const char *path;
  static gsize once;

  if (g_once_init_enter (&once))
    {
      const char *value = g_getenv ("TACHYON_VIEWER_TRACE");

      path = value != NULL && value[0] != '\0' ? g_strdup (value) : NULL;
      g_once_init_leave (&once, 1);
    }
  return path;
}

gboolean
tv_trace_enabled (void)
{
  return trace_path () != NULL;
}

static GQuark
stage_quark (const char *stage)
{
  g_autofree char *name = g_strconcat ("tv-trace-", stage, NULL);

  return g_quark_from_string (name);
}

gboolean
tv_trace_stage_done (gpointer    owner,
                     const char *stage)
{
  g_return_val_if_fail (G_IS_OBJECT (owner), TRUE);

  return g_object_get_qdata (owner, stage_quark (stage)) != NULL;
}

/* A file name is the profile's to choose: valid UTF-8, and no quote or
 * control character left to break the line. */
static void
append_json_string (GString    *out,
                    const char *text)
{
  g_autofree char *valid = g_utf8_make_valid (text, -1);

  g_string_append_c (out, '"');
  for (const char *p = valid; *p != '\0'; p++)
    {
      guchar c = (guchar) *p;

      if (c == '"' || c == '\\')
        g_string_append_printf (out, "\\%c", c);
      else if (c < 0x20 || c == 0x7f)
        g_string_append_printf (out, "\\u%04x", c);
      else
        g_string_append_c (out, (char) c);
    }
  g_string_append_c (out, '"');
}

void
tv_trace_stage (gpointer    owner,
                GFile      *file,
                const char *stage)
{
  const char *path = trace_path ();
  g_autoptr(GString) line = NULL;
  g_autofree char *name = NULL;
  struct timespec cpu = { 0 };
  gint64 now = g_get_monotonic_time ();
  int fd;

  g_return_if_fail (G_IS_OBJECT (owner));
  g_return_if_fail (stage != NULL);

  if (path == NULL || tv_trace_stage_done (owner, stage))
    return;
  g_object_set_qdata (owner, stage_quark (stage), GINT_TO_POINTER (1));

  clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &cpu);
  name = file != NULL ? g_file_get_basename (file) : g_strdup ("");
  line = g_string_new ("{\"stage\":");
  append_json_string (line, stage);
  g_string_append (line, ",\"file\":");
  append_json_string (line, name != NULL ? name : "");
  g_string_append_printf (line, ",\"time_us\":%" G_GINT64_FORMAT ",\"cpu_us\":%" G_GINT64_FORMAT
                          ",\"pid\":%d}\n",
                          now, (gint64) cpu.tv_sec * G_USEC_PER_SEC + cpu.tv_nsec / 1000,
                          (int) getpid ());

  /* One write () to a file opened for appending: a whole line, at the
   * end, whoever else writes. */
  fd = open (path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0)
    {
      g_warning ("TACHYON_VIEWER_TRACE: cannot open %s: %s", path, g_strerror (errno));
      return;
    }
  if (write (fd, line->str, line->len) != (gssize) line->len)
    g_warning ("TACHYON_VIEWER_TRACE: cannot write to %s: %s", path, g_strerror (errno));
  close (fd);
}
