/* test-profile-file.c: TvProfile and the file on disk
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A profile whose file is cut short while its samples are decoded fails
 * with TV_TACH_ERROR_CHANGED (the process used to die of SIGBUS); a FIFO
 * fails at once instead of blocking the loading thread for ever; and
 * tv_profile_check_file_async() tells a file changed on disk from one that
 * was only read.  The change during the load is made by the load hook,
 * which runs on the loading thread while the decoder waits: every run
 * meets it at the same sample.
 */
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib.h>
#include <glib/gstdio.h>

#include "format-test-util.h"
#include "model-fixture.h"
#include "tv-profile.h"
#include "tv-tach-error.h"

/* Samples with stacks drawn at random from 4096 frames: every record is
 * some 20 to 40 bytes, so the file is larger than what the decoder reads
 * ahead long before the first progress report. */
static void
write_profile (const char *path,
               gboolean    zstd,
               guint       n_samples)
{
  TachWriterOptions options = { .zstd = zstd, .zstd_level = 1, .sample_interval_us = 1000,
                                .start_time_us = 1000000, .mode_raw = 1 };

  format_test_write_random_stacks (path, &options, 15, n_samples, 0, -1);
}

typedef FormatTestDir Fixture;

static void
fixture_set_up (Fixture       *f,
                gconstpointer  data)
{
  format_test_dir_init (f, "tv-profile-file-XXXXXX");
}

static void
fixture_tear_down (Fixture       *f,
                   gconstpointer  data)
{
  tv_profile_set_load_hook (NULL, NULL);
  format_test_dir_clear (f);
}

typedef struct
{
  gboolean  done;
  gboolean  ok;
  gboolean  opened;
  GError   *error;
} Load;

static void
on_opened (TvProfile *profile,
           Load      *l)
{
  l->opened = TRUE;
}

static void
on_loaded (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  Load *l = user_data;

  l->ok = tv_profile_load_finish (TV_PROFILE (object), result, &l->error);
  l->done = TRUE;
}

static TvProfile *
load (const char *path,
      Load       *l)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  TvProfile *profile = tv_profile_new (file);

  memset (l, 0, sizeof *l);
  g_signal_connect (profile, "opened", G_CALLBACK (on_opened), l);
  tv_profile_load_async (profile, NULL, on_loaded, l);
  fixture_run_until (&l->done, 60);
  g_signal_handlers_disconnect_by_data (profile, l);
  return profile;
}

typedef struct
{
  const char *path;
  guint       calls;
  guint64     samples_at_cut;
} Cut;

/* On the loading thread: the file is cut short at the first progress
 * report, with most of its samples still to be read. */
static void
cut_file (const char *path,
          guint64     samples,
          gpointer    user_data)
{
  Cut *cut = user_data;

  if (strcmp (path, cut->path) != 0 || cut->calls++ > 0)
    return;
  cut->samples_at_cut = samples;
  g_assert_cmpint (truncate (path, 4096), ==, 0);
}

static void
test_cut_while_decoding (Fixture       *f,
                         gconstpointer  data)
{
  gboolean zstd = GPOINTER_TO_INT (data);
  g_autoptr(TvProfile) profile = NULL;
  Cut cut = { f->path, 0, 0 };
  Load l;

  write_profile (f->path, zstd, 400000);
  tv_profile_set_load_hook (cut_file, &cut);
  profile = load (f->path, &l);
  tv_profile_set_load_hook (NULL, NULL);

  g_assert_cmpuint (cut.calls, >=, 1);
  g_test_message ("cut after %" G_GUINT64_FORMAT " samples: %s", cut.samples_at_cut,
                  l.error != NULL ? l.error->message : "(no error)");
  g_assert_false (l.ok);
  g_assert_error (l.error, TV_TACH_ERROR, TV_TACH_ERROR_CHANGED);
  g_assert_nonnull (strstr (l.error->message, "The file changed while it was being read"));
  g_assert_nonnull (strstr (l.error->message, "cut short to 4096 bytes"));
  /* The metadata had come in, the samples never will. */
  g_assert_true (l.opened);
  g_assert_cmpint (tv_profile_get_state (profile), ==, TV_PROFILE_FAILED);
  g_assert_null (tv_profile_get_data (profile));
  g_clear_error (&l.error);
}

/* The loading thread would wait in open () for a writer that never
 * comes; on the old code the test times out. */
static void
test_fifo (Fixture       *f,
           gconstpointer  data)
{
  g_autoptr(TvProfile) profile = NULL;
  Load l;

  g_assert_cmpint (mkfifo (f->path, 0600), ==, 0);
  profile = load (f->path, &l);
  g_assert_false (l.ok);
  g_assert_error (l.error, TV_TACH_ERROR, TV_TACH_ERROR_IO);
  g_assert_nonnull (strstr (l.error->message, "FIFO"));
  g_assert_false (l.opened);
  g_clear_error (&l.error);
}

typedef struct
{
  gboolean           done;
  TvProfileFileState state;
} Check;

static void
on_checked (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  Check *c = user_data;
  g_autoptr(GError) error = NULL;

  c->state = tv_profile_check_file_finish (TV_PROFILE (object), result, &error);
  g_assert_no_error (error);
  c->done = TRUE;
}

static TvProfileFileState
check_file (TvProfile *profile)
{
  Check c = { FALSE, -1 };

  tv_profile_check_file_async (profile, NULL, on_checked, &c);
  fixture_run_until (&c.done, 10);
  return c.state;
}

/* Reading the file, or changing its mode, is no change; writing it, even
 * the same bytes with the same size, or putting another file in its place
 * is one, and a file that is gone says so. */
static void
test_check_file (Fixture       *f,
                 gconstpointer  data)
{
  g_autofree char *other = g_build_filename (f->dir, "other.tach", NULL);
  g_autofree char *contents = NULL;
  g_autoptr(TvProfile) profile = NULL;
  struct timespec times[2] = { { 0, UTIME_OMIT }, { 1000000000, 0 } };
  TvFileStamp stamp;
  GStatBuf st;
  gsize len;
  Load l;
  int fd;

  write_profile (f->path, TRUE, 1000);
  profile = load (f->path, &l);
  g_assert_true (l.ok);
  g_assert_true (tv_profile_get_file_stamp (profile, &stamp));
  g_assert_cmpint (g_stat (f->path, &st), ==, 0);
  g_assert_cmpuint (stamp.size, ==, st.st_size);
  g_assert_cmpuint (stamp.inode, ==, st.st_ino);
  g_assert_cmpint (check_file (profile), ==, TV_PROFILE_FILE_UNCHANGED);

  g_assert_true (g_file_get_contents (f->path, &contents, &len, NULL));
  g_assert_cmpint (g_chmod (f->path, 0400), ==, 0);
  g_assert_cmpint (check_file (profile), ==, TV_PROFILE_FILE_UNCHANGED);

  /* The same bytes written again, at another time. */
  g_assert_cmpint (g_chmod (f->path, 0600), ==, 0);
  fd = g_open (f->path, O_WRONLY, 0);
  g_assert_cmpint (fd, >=, 0);
  g_assert_cmpint (pwrite (fd, contents, len, 0), ==, (gssize) len);
  g_assert_cmpint (futimens (fd, times), ==, 0);
  close (fd);
  g_assert_cmpint (check_file (profile), ==, TV_PROFILE_FILE_CHANGED);

  /* Another file renamed over it, with the very same size and time. */
  g_assert_true (g_file_set_contents (other, contents, len, NULL));
  times[0] = times[1] = (struct timespec) { stamp.mtime_sec, stamp.mtime_nsec };
  g_assert_cmpint (utimensat (AT_FDCWD, other, times, 0), ==, 0);
  g_assert_cmpint (g_rename (other, f->path), ==, 0);
  g_assert_cmpint (check_file (profile), ==, TV_PROFILE_FILE_CHANGED);

  g_assert_cmpint (g_unlink (f->path), ==, 0);
  g_assert_cmpint (check_file (profile), ==, TV_PROFILE_FILE_DELETED);
}

/* A loaded profile keeps its tables, not its file: the disk it is on can
 * be unmounted, and its space is freed once it is deleted. */
static void
test_file_let_go (Fixture       *f,
                  gconstpointer  data)
{
  g_autoptr(TvProfile) profile = NULL;
  Load l;

  write_profile (f->path, GPOINTER_TO_INT (data), 100000);
  profile = load (f->path, &l);
  g_assert_true (l.ok);
  g_assert_false (format_test_holds_file (f->path));
  g_assert_cmpuint (tv_profile_data_get_n_samples (tv_profile_get_data (profile)), ==, 100000);
}

/* A profile that was never opened has nothing to compare the file with. */
static void
test_check_unopened (void)
{
  g_autoptr(GFile) file = g_file_new_for_path ("/nonexistent/run.tach");
  g_autoptr(TvProfile) profile = tv_profile_new (file);
  TvFileStamp stamp;

  g_assert_false (tv_profile_get_file_stamp (profile, &stamp));
  g_assert_cmpint (check_file (profile), ==, TV_PROFILE_FILE_UNCHANGED);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

#define ADD(name, data, func) \
  g_test_add ("/model/profile-file/" name, Fixture, data, fixture_set_up, func, \
              fixture_tear_down)
  ADD ("cut-while-decoding/raw", GINT_TO_POINTER (FALSE), test_cut_while_decoding);
  ADD ("cut-while-decoding/zstd", GINT_TO_POINTER (TRUE), test_cut_while_decoding);
  ADD ("fifo", NULL, test_fifo);
  ADD ("check-file", NULL, test_check_file);
  ADD ("file-let-go/raw", GINT_TO_POINTER (FALSE), test_file_let_go);
  ADD ("file-let-go/zstd", GINT_TO_POINTER (TRUE), test_file_let_go);
#undef ADD
  g_test_add_func ("/model/profile-file/check-unopened", test_check_unopened);

  return g_test_run ();
}
