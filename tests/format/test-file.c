/* test-file.c: the reader over a file that changes, or is no file at all
 *
 * A profile is untrusted and may change while it is read: the profiler run
 * again with the same output, a copy still under way, a network file
 * system.  The reader must then say so (TACH_ERROR_CHANGED), never die of
 * SIGBUS as a reader of a mapping does when the file shrinks under it.
 * The files are made by the writer at test time and changed between two
 * batches of the decoder, so that every run meets the change at the same
 * point: no race.
 *
 * What is not a regular file (a FIFO above all, whose open () waits for a
 * writer) is refused at once.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <glib.h>
#include <glib/gstdio.h>

#include "format-test-util.h"
#include "tachyon-format.h"

/* A temporary folder for one test, removed with what it holds. */
typedef FormatTestDir Fixture;

static void
fixture_set_up (Fixture       *f,
                gconstpointer  data)
{
  format_test_dir_init (f, "tach-file-XXXXXX");
}

static void
fixture_tear_down (Fixture       *f,
                   gconstpointer  data)
{
  format_test_dir_clear (f);
}

/* Writes PATH with N_SAMPLES samples whose stacks are drawn at random from
 * 4096 frames, so that every record is a FULL, SUFFIX or POP_PUSH of some
 * 20 to 40 bytes that zstd cannot shrink much: a file of a few MB whose
 * region is far larger than what the decoder reads ahead. */
static void
write_profile (const char *path,
               gboolean    zstd,
               guint       n_samples)
{
  TachWriterOptions options = { .zstd = zstd, .zstd_level = 1, .sample_interval_us = 1000,
                                .start_time_us = 1000000, .mode_raw = 1 };

  format_test_write_random_stacks (path, &options, 15, n_samples, 500, -1);
}

static guint64
file_size (const char *path)
{
  GStatBuf st;

  g_assert_cmpint (g_stat (path, &st), ==, 0);
  return (guint64) st.st_size;
}

typedef enum
{
  CHANGE_TRUNCATE,     /* cut the file short */
  CHANGE_APPEND,       /* add bytes at its end */
  CHANGE_REWRITE_READ, /* rewrite bytes already decoded, same size */
  CHANGE_REWRITE_AHEAD,/* rewrite bytes not yet decoded, same size */
} Change;

static void
apply_change (const char *path,
              Change      change)
{
  int fd = g_open (path, O_WRONLY, 0);
  static const guint8 junk[4096] = { 0xff, 0xff, 0xff };
  guint64 size = file_size (path);
  struct timespec times[2] = { { 0, UTIME_OMIT }, { 1000000000, 0 } };

  g_assert_cmpint (fd, >=, 0);
  switch (change)
    {
    case CHANGE_TRUNCATE:
      g_assert_cmpint (ftruncate (fd, 4096), ==, 0);
      break;
    case CHANGE_APPEND:
      g_assert_cmpint (pwrite (fd, junk, sizeof junk, (off_t) size), ==, sizeof junk);
      break;
    case CHANGE_REWRITE_READ:
      /* A byte of the first record's thread id, long decoded; the time is
       * set apart from the write's, which a coarse clock could make equal
       * to the file's own. */
      g_assert_cmpint (pwrite (fd, junk + 1, 1, 64), ==, 1);
      g_assert_cmpint (futimens (fd, times), ==, 0);
      break;
    case CHANGE_REWRITE_AHEAD:
      /* Bytes in the middle of the samples, far past what was read. */
      for (guint64 off = size / 2; off < size / 2 + 64 * 1024; off += sizeof junk)
        g_assert_cmpint (pwrite (fd, junk, sizeof junk, (off_t) off), ==, sizeof junk);
      g_assert_cmpint (futimens (fd, times), ==, 0);
      break;
    default:
      g_assert_not_reached ();
    }
  close (fd);
}

/* Decodes PATH, makes CHANGE after the first batch, and decodes on: the
 * decoder must fail with TACH_ERROR_CHANGED. */
static void
decode_through_change (const char *path,
                       gboolean    pipelined,
                       Change      change)
{
  TachReader *reader;
  TachDecoder *decoder;
  TachError error;
  TachBatch batch;
  guint64 size = file_size (path);
  guint64 n = 0;
  int rc;

  g_assert_cmpint (tach_reader_open_path (path, &reader, &error), ==, TACH_OK);
  g_assert_cmpint (tach_decoder_new (reader, &decoder, &error), ==, TACH_OK);
  tach_decoder_set_pipelined (decoder, pipelined);
  g_assert_cmpint (tach_decoder_next_batch (decoder, &batch, &error), ==, 1);
  apply_change (path, change);

  while ((rc = tach_decoder_next_batch (decoder, &batch, &error)) == 1)
    n += batch.n;
  g_test_message ("%" G_GUINT64_FORMAT " more samples, then: %s", n, error.message);
  g_assert_cmpint (rc, ==, -1);
  g_assert_cmpint (error.status, ==, TACH_ERROR_CHANGED);
  g_assert_cmpint (error.phase, ==, TACH_PHASE_DECODE);
  g_assert_nonnull (strstr (error.message, "The file changed while it was being read"));
  /* The offset is a byte of the file, and the message names it. */
  g_assert_cmpuint (error.offset, >=, 64);
  g_assert_cmpuint (error.offset, <=, size + 4096);
  {
    g_autofree char *at = g_strdup_printf ("at byte %" G_GUINT64_FORMAT, error.offset);

    g_assert_nonnull (strstr (error.message, at));
  }
  if (change == CHANGE_TRUNCATE)
    g_assert_nonnull (strstr (error.message, "cut short to 4096 bytes"));
  else if (change == CHANGE_APPEND)
    g_assert_nonnull (strstr (error.message, "grew"));
  else
    g_assert_nonnull (strstr (error.message, "written to after it was opened"));

  /* The error stays. */
  g_assert_cmpint (tach_decoder_next_batch (decoder, &batch, &error), ==, -1);
  g_assert_cmpint (error.status, ==, TACH_ERROR_CHANGED);
  tach_decoder_free (decoder);
  tach_reader_free (reader);
}

static void
test_truncated_raw (Fixture       *f,
                    gconstpointer  data)
{
  write_profile (f->path, FALSE, 200000);
  g_assert_cmpuint (file_size (f->path), >, 4 * 1024 * 1024);
  decode_through_change (f->path, FALSE, CHANGE_TRUNCATE);
  write_profile (f->path, FALSE, 200000);
  decode_through_change (f->path, TRUE, CHANGE_TRUNCATE);
}

static void
test_truncated_zstd (Fixture       *f,
                     gconstpointer  data)
{
  write_profile (f->path, TRUE, 200000);
  g_assert_cmpuint (file_size (f->path), >, 2 * 1024 * 1024);
  decode_through_change (f->path, FALSE, CHANGE_TRUNCATE);
  write_profile (f->path, TRUE, 200000);
  decode_through_change (f->path, TRUE, CHANGE_TRUNCATE);
}

/* Bytes added, or rewritten in place where the decoder has been already
 * (the size stays, the modification time moves): the decoder sees the
 * change when it reaches the end of the samples. */
static void
test_grown_or_rewritten (Fixture       *f,
                         gconstpointer  data)
{
  for (guint zstd = 0; zstd < 2; zstd++)
    {
      write_profile (f->path, zstd, 50000);
      decode_through_change (f->path, FALSE, CHANGE_APPEND);
      write_profile (f->path, zstd, 50000);
      decode_through_change (f->path, TRUE, CHANGE_REWRITE_READ);
    }
}

/* Garbage written where the decoder has yet to go would read as a broken
 * record (or a broken zstd frame); the change is what is wrong, and what
 * the error says. */
static void
test_rewritten_ahead (Fixture       *f,
                      gconstpointer  data)
{
  for (guint zstd = 0; zstd < 2; zstd++)
    {
      write_profile (f->path, zstd, 200000);
      decode_through_change (f->path, FALSE, CHANGE_REWRITE_AHEAD);
    }
}

/* A new file renamed over the old one, as editors and careful writers
 * save: the reader holds the old file open and reads it whole and
 * unchanged.  Its stamp tells it from the file now at the path. */
static void
test_replaced_by_rename (Fixture       *f,
                         gconstpointer  data)
{
  g_autofree char *other = g_build_filename (f->dir, "new.tach", NULL);
  TachReader *reader;
  TachDecoder *decoder;
  TachFileStamp stamp;
  TachError error;
  TachBatch batch;
  GStatBuf st;
  guint64 n = 0;
  int rc;

  write_profile (f->path, FALSE, 200000);
  g_assert_cmpint (tach_reader_open_path (f->path, &reader, &error), ==, TACH_OK);
  g_assert_true (tach_reader_get_file_stamp (reader, &stamp));
  g_assert_cmpint (g_stat (f->path, &st), ==, 0);
  g_assert_cmpuint (stamp.size, ==, st.st_size);
  g_assert_cmpuint (stamp.inode, ==, st.st_ino);
  g_assert_cmpuint (stamp.device, ==, st.st_dev);
  g_assert_cmpint (stamp.mtime_sec, ==, st.st_mtim.tv_sec);
  g_assert_cmpuint (stamp.mtime_nsec, ==, st.st_mtim.tv_nsec);

  g_assert_cmpint (tach_decoder_new (reader, &decoder, &error), ==, TACH_OK);
  g_assert_cmpint (tach_decoder_next_batch (decoder, &batch, &error), ==, 1);
  n += batch.n;
  write_profile (other, FALSE, 1000);
  g_assert_cmpint (g_rename (other, f->path), ==, 0);
  while ((rc = tach_decoder_next_batch (decoder, &batch, &error)) == 1)
    n += batch.n;
  if (rc != 0)
    g_error ("%s", error.message);
  g_assert_cmpuint (n, ==, 200000);

  g_assert_cmpint (g_stat (f->path, &st), ==, 0);
  g_assert_cmpuint (stamp.inode, !=, st.st_ino);
  tach_decoder_free (decoder);
  tach_reader_free (reader);
}

/* A reader over memory has no file to change. */
static void
test_memory_has_no_stamp (Fixture       *f,
                          gconstpointer  data)
{
  g_autofree char *contents = NULL;
  TachReader *reader;
  TachFileStamp stamp = { 0 };
  TachError error;
  gsize len;

  write_profile (f->path, TRUE, 100);
  g_assert_true (g_file_get_contents (f->path, &contents, &len, NULL));
  g_assert_cmpint (tach_reader_open_memory (contents, len, &reader, &error), ==, TACH_OK);
  g_assert_false (tach_reader_get_file_stamp (reader, &stamp));
  g_assert_nonnull (tach_reader_get_sample_region (reader));
  tach_reader_free (reader);

  g_assert_cmpint (tach_reader_open_path (f->path, &reader, &error), ==, TACH_OK);
  g_assert_null (tach_reader_get_sample_region (reader));
  tach_reader_free (reader);
}

/* A reader kept for its tables lets go of the file once asked to. */
static void
test_release_file (Fixture       *f,
                   gconstpointer  data)
{
  TachReader *reader;
  TachDecoder *decoder = (TachDecoder *) 1;
  TachFileStamp stamp;
  TachError error;
  guint32 n_strings;

  write_profile (f->path, FALSE, 1000);
  g_assert_cmpint (tach_reader_open_path (f->path, &reader, &error), ==, TACH_OK);
  g_assert_true (format_test_holds_file (f->path));
  n_strings = tach_reader_get_n_strings (reader);
  tach_reader_release_file (reader);
  tach_reader_release_file (reader);
  g_assert_false (format_test_holds_file (f->path));

  g_assert_cmpuint (tach_reader_get_n_strings (reader), ==, n_strings);
  g_assert_cmpstr (tach_reader_get_string (reader, 0, NULL), ==, "app.py");
  g_assert_true (tach_reader_get_file_stamp (reader, &stamp));
  g_assert_null (tach_reader_get_sample_region (reader));
  g_assert_cmpint (tach_decoder_new (reader, &decoder, &error), ==, TACH_ERROR_ARGUMENT);
  g_assert_null (decoder);
  g_assert_nonnull (strstr (error.message, "let go of its file"));
  tach_reader_free (reader);
}

static void
assert_refused (const char *path,
                const char *what)
{
  TachReader *reader = (TachReader *) 1;
  TachError error;
  g_autofree char *expected = g_strdup_printf ("This is %s, not a regular file", what);

  g_assert_cmpint (tach_reader_open_path (path, &reader, &error), ==, TACH_ERROR_IO);
  g_assert_null (reader);
  g_assert_cmpint (error.phase, ==, TACH_PHASE_OPEN);
  g_test_message ("%s: %s", path, error.message);
  g_assert_nonnull (strstr (error.message, expected));
}

/* A FIFO with no writer: open () without O_NONBLOCK would wait for one
 * for ever (the test would time out). */
static void
test_fifo (Fixture       *f,
           gconstpointer  data)
{
  g_assert_cmpint (mkfifo (f->path, 0600), ==, 0);
  assert_refused (f->path, "a FIFO (a named pipe)");
}

static void
test_not_regular (Fixture       *f,
                  gconstpointer  data)
{
  g_autofree char *socket_path = g_build_filename (f->dir, "socket", NULL);
  g_autofree char *link_path = g_build_filename (f->dir, "link", NULL);
  struct sockaddr_un address = { .sun_family = AF_UNIX };
  int fd;

  assert_refused (f->dir, "a folder");
  assert_refused ("/dev/null", "a character device");

  fd = socket (AF_UNIX, SOCK_STREAM, 0);
  g_assert_cmpint (fd, >=, 0);
  g_assert_cmpuint (strlen (socket_path), <, sizeof address.sun_path);
  strcpy (address.sun_path, socket_path);
  g_assert_cmpint (bind (fd, (struct sockaddr *) &address, sizeof address), ==, 0);
  assert_refused (socket_path, "a socket");
  close (fd);

  /* A link is followed to what it names. */
  g_assert_cmpint (mkfifo (f->path, 0600), ==, 0);
  g_assert_cmpint (symlink (f->path, link_path), ==, 0);
  assert_refused (link_path, "a FIFO (a named pipe)");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

#define ADD(name, func) \
  g_test_add ("/format/file/" name, Fixture, NULL, fixture_set_up, func, fixture_tear_down)
  ADD ("truncated-raw", test_truncated_raw);
  ADD ("truncated-zstd", test_truncated_zstd);
  ADD ("grown-or-rewritten", test_grown_or_rewritten);
  ADD ("rewritten-ahead", test_rewritten_ahead);
  ADD ("replaced-by-rename", test_replaced_by_rename);
  ADD ("memory-has-no-stamp", test_memory_has_no_stamp);
  ADD ("release-file", test_release_file);
  ADD ("fifo", test_fifo);
  ADD ("not-regular", test_not_regular);
#undef ADD

  return g_test_run ();
}
