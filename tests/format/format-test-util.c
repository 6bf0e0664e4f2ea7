/* format-test-util.c: what the tests of a file on disk share
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "format-test-util.h"

#include <string.h>

#include <glib/gstdio.h>

void
format_test_dir_init (FormatTestDir *d,
                      const char    *template)
{
  d->dir = g_dir_make_tmp (template, NULL);
  g_assert_nonnull (d->dir);
  d->path = g_build_filename (d->dir, "run.tach", NULL);
}

void
format_test_dir_clear (FormatTestDir *d)
{
  g_autoptr(GDir) dir = g_dir_open (d->dir, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (d->dir, name, NULL);

      g_unlink (path);
    }
  g_rmdir (d->dir);
  g_clear_pointer (&d->path, g_free);
  g_clear_pointer (&d->dir, g_free);
}

gboolean
format_test_holds_file (const char *path)
{
  g_autoptr(GDir) fds = g_dir_open ("/proc/self/fd", 0, NULL);
  g_autofree char *maps = NULL;
  const char *name;

  g_assert_nonnull (fds);
  while ((name = g_dir_read_name (fds)) != NULL)
    {
      g_autofree char *link = g_build_filename ("/proc/self/fd", name, NULL);
      g_autofree char *target = g_file_read_link (link, NULL);

      if (g_strcmp0 (target, path) == 0)
        return TRUE;
    }
  g_assert_true (g_file_get_contents ("/proc/self/maps", &maps, NULL, NULL));
  return strstr (maps, path) != NULL;
}

TachWriter *
format_test_writer_new (const char *path,
                        gboolean    zstd)
{
  TachWriterOptions options = { .zstd = zstd, .start_time_us = 1000000,
                                .sample_interval_us = 1000, .mode_raw = 1 };
  TachWriter *writer = NULL;
  TachError error;

  if (tach_writer_new (path, &options, &writer, &error) != TACH_OK)
    g_error ("%s: %s", path, error.message);
  return writer;
}

void
format_test_intern_frames (TachWriter          *writer,
                           const TachFrameInfo *infos,
                           guint                n_frames,
                           guint32             *frames)
{
  TachError error;

  for (guint i = 0; i < n_frames; i++)
    if (tach_writer_intern_frame (writer, &infos[i], &frames[i], &error) != TACH_OK)
      g_error ("%s: %s", infos[i].funcname, error.message);
}

void
format_test_intern_tasks (TachWriter *writer,
                          guint       n_frames,
                          guint32    *frames)
{
  for (guint i = 0; i < n_frames; i++)
    {
      g_autofree char *funcname = g_strdup_printf ("task_%u", i);
      TachFrameInfo info = { "/srv/app/tasks.py", funcname, 10 + i, -1, -1, -1,
                             TACH_OPCODE_NONE };

      format_test_intern_frames (writer, &info, 1, &frames[i]);
    }
}

void
format_test_writer_finish (TachWriter *writer)
{
  TachError error;

  if (tach_writer_finish (writer, &error) != TACH_OK)
    g_error ("%s", error.message);
}

void
format_test_write_two_callees (const char          *path,
                               const TachFrameInfo  infos[3])
{
  TachWriter *writer = format_test_writer_new (path, FALSE);
  TachError error;
  guint32 frames[3];

  format_test_intern_frames (writer, infos, G_N_ELEMENTS (frames), frames);
  for (guint i = 0; i < 30; i++)
    {
      /* Innermost first. */
      guint32 stack[2] = { frames[i % 3 == 0 ? 2 : 1], frames[0] };

      if (tach_writer_add_sample (writer, 1, 0, 1000000 + i * 1000ull,
                                  TACH_STATUS_HAS_GIL | TACH_STATUS_ON_CPU, stack,
                                  G_N_ELEMENTS (stack), &error) != TACH_OK)
        g_error ("%s", error.message);
    }
  format_test_writer_finish (writer);
}

void
format_test_write_random_stacks (const char              *path,
                                 const TachWriterOptions *options,
                                 guint32                  seed,
                                 guint                    n_samples,
                                 guint                    jitter_us,
                                 int                      status)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (seed);
  TachWriter *writer;
  TachError error;
  guint32 frames[4096];
  guint32 stack[16];

  g_assert_cmpint (tach_writer_new (path, options, &writer, &error), ==, TACH_OK);
  for (guint i = 0; i < G_N_ELEMENTS (frames); i++)
    {
      g_autofree char *name = g_strdup_printf ("function_%u", i);
      TachFrameInfo info = { "app.py", name, (gint32) i + 1, (gint32) i + 1, -1, -1, 255 };

      g_assert_cmpint (tach_writer_intern_frame (writer, &info, &frames[i], &error), ==,
                       TACH_OK);
    }
  for (guint i = 0; i < n_samples; i++)
    {
      guint depth = g_rand_int_range (rand, 4, G_N_ELEMENTS (stack));

      for (guint k = 0; k < depth; k++)
        stack[k] = frames[g_rand_int_range (rand, 0, G_N_ELEMENTS (frames))];
      /* The draws in the order the tests' own writers made them. */
      g_assert_cmpint (tach_writer_add_sample (writer, 1 + i % 8, 0,
                                               1000000 + i * 1000
                                               + (jitter_us > 0
                                                  ? g_rand_int_range (rand, 0, jitter_us)
                                                  : 0),
                                               (guint8) (status < 0
                                                         ? g_rand_int_range (rand, 0, 64)
                                                         : status),
                                               stack, depth, &error), ==, TACH_OK);
    }
  g_assert_cmpint (tach_writer_finish (writer, &error), ==, TACH_OK);
}

guint
format_test_uvarint_size (guint64 v)
{
  guint n = 1;

  while (v >= 0x80)
    {
      v >>= 7;
      n++;
    }
  return n;
}

guint8
format_test_record_kind (const guint32 *prev,
                         guint          prev_depth,
                         const guint32 *stack,
                         guint          depth)
{
  guint s = 0;

  /* The frames they share at the outer end. */
  while (s < MIN (prev_depth, depth) && prev[prev_depth - 1 - s] == stack[depth - 1 - s])
    s++;
  if (s == 0)
    return TACH_RECORD_FULL;
  else if (s == prev_depth)
    return TACH_RECORD_SUFFIX;
  else if (s < depth / 2)
    return TACH_RECORD_FULL;
  else
    return TACH_RECORD_POP_PUSH;
}
