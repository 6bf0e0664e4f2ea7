/* test-file.c: the reader over what is not a regular file
 *
 * What is not a regular file (a FIFO above all, whose open () waits for a
 * writer) is refused at once.
 */
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <glib.h>
#include <glib/gstdio.h>

#include "tachyon-format.h"

/* A temporary folder for one test, removed with what it holds. */
typedef struct
{
  char *dir;
  char *path;
} Fixture;

static void
fixture_set_up (Fixture       *f,
                gconstpointer  data)
{
  f->dir = g_dir_make_tmp ("tach-file-XXXXXX", NULL);
  g_assert_nonnull (f->dir);
  f->path = g_build_filename (f->dir, "run.tach", NULL);
}

static void
fixture_tear_down (Fixture       *f,
                   gconstpointer  data)
{
  g_autoptr(GDir) dir = g_dir_open (f->dir, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (f->dir, name, NULL);

      g_unlink (path);
    }
  g_rmdir (f->dir);
  g_free (f->path);
  g_free (f->dir);
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
  ADD ("fifo", test_fifo);
  ADD ("not-regular", test_not_regular);
#undef ADD

  return g_test_run ();
}
