/* fuzz-driver.c: runs a fuzz target over files, without libFuzzer
 *
 *   fuzz-reader-driver [-v] FILE-OR-DIRECTORY...
 *
 * Calls LLVMFuzzerTestOneInput once per file; a directory stands for the
 * regular files directly in it (not recursively, hidden files skipped), in
 * name order.  Each input sits in a buffer of exactly its size, so that a
 * sanitizer build catches reads past its end.  A broken invariant aborts;
 * the name of the input being run is then printed on stderr.
 *
 * Exit status: 0 when every input ran, 1 when a file could not be read or
 * there were no inputs at all (a test pointing at the wrong place should
 * not pass), and the signal of the crash otherwise.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <stdint.h>

int LLVMFuzzerTestOneInput (const uint8_t *data,
                            size_t         size);
int LLVMFuzzerInitialize   (int           *argc,
                            char        ***argv) __attribute__ ((weak));

static const char *program_name = "fuzz-driver";
static const char *volatile current_input;
static unsigned long n_inputs;
static unsigned long long n_bytes;
static unsigned long n_errors;
static int verbose;

static void
write_str (const char *s)
{
  size_t len = strlen (s);

  while (len > 0)
    {
      ssize_t n = write (STDERR_FILENO, s, len);

      if (n <= 0)
        return;
      s += n;
      len -= (size_t) n;
    }
}

/* Async-signal-safe: names the input that crashed, then lets the signal
 * kill the process as it would have. */
static void
crash_handler (int signum)
{
  const char *input = current_input;

  write_str (program_name);
  write_str (": crashed on input: ");
  write_str (input != NULL ? input : "(none)");
  write_str ("\n");
  signal (signum, SIG_DFL);
  raise (signum);
}

static int
run_file (const char *path)
{
  struct stat st;
  uint8_t *data;
  size_t size, done = 0;
  int fd;

  fd = open (path, O_RDONLY | O_CLOEXEC);
  if (fd < 0 || fstat (fd, &st) < 0)
    {
      fprintf (stderr, "%s: %s: %s\n", program_name, path, strerror (errno));
      if (fd >= 0)
        close (fd);
      return -1;
    }

  size = (size_t) st.st_size;
  /* malloc (0) may return NULL; the target still gets a valid pointer. */
  data = malloc (size > 0 ? size : 1);
  if (data == NULL)
    {
      fprintf (stderr, "%s: %s: out of memory\n", program_name, path);
      close (fd);
      return -1;
    }

  while (done < size)
    {
      ssize_t n = read (fd, data + done, size - done);

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        {
          fprintf (stderr, "%s: %s: %s\n", program_name, path,
                   n < 0 ? strerror (errno) : "file shrank while reading");
          free (data);
          close (fd);
          return -1;
        }
      done += (size_t) n;
    }
  close (fd);

  if (verbose)
    fprintf (stderr, "%s: running %s (%zu bytes)\n", program_name, path, size);

  current_input = path;
  LLVMFuzzerTestOneInput (data, size);
  current_input = NULL;

  n_inputs++;
  n_bytes += size;
  free (data);
  return 0;
}

static int
compare_names (const void *a,
               const void *b)
{
  return strcmp (*(char *const *) a, *(char *const *) b);
}

static int
run_directory (const char *path)
{
  DIR *dir;
  struct dirent *entry;
  char **names = NULL;
  size_t n_names = 0, n_alloc = 0;
  int ret = 0;

  dir = opendir (path);
  if (dir == NULL)
    {
      fprintf (stderr, "%s: %s: %s\n", program_name, path, strerror (errno));
      return -1;
    }

  while ((entry = readdir (dir)) != NULL)
    {
      if (entry->d_name[0] == '.')
        continue;
      if (n_names == n_alloc)
        {
          size_t n = n_alloc ? 2 * n_alloc : 64;
          char **p = realloc (names, n * sizeof *p);

          if (p == NULL)
            abort ();
          names = p;
          n_alloc = n;
        }
      names[n_names] = malloc (strlen (path) + strlen (entry->d_name) + 2);
      if (names[n_names] == NULL)
        abort ();
      sprintf (names[n_names], "%s/%s", path, entry->d_name);
      n_names++;
    }
  closedir (dir);

  if (n_names > 0)
    qsort (names, n_names, sizeof *names, compare_names);

  for (size_t i = 0; i < n_names; i++)
    {
      struct stat st;

      if (stat (names[i], &st) == 0 && S_ISREG (st.st_mode))
        {
          if (run_file (names[i]) < 0)
            ret = -1;
        }
      free (names[i]);
    }
  free (names);

  return ret;
}

int
main (int    argc,
      char **argv)
{
  static const int signals[] = { SIGABRT, SIGSEGV, SIGBUS, SIGFPE, SIGILL };
  const char *slash;
  int first = 1;

  if (argc > 0 && argv[0] != NULL)
    {
      slash = strrchr (argv[0], '/');
      program_name = slash != NULL ? slash + 1 : argv[0];
    }

  if (argc > 1 && strcmp (argv[1], "-v") == 0)
    {
      verbose = 1;
      first = 2;
    }

  if (first >= argc)
    {
      fprintf (stderr, "usage: %s [-v] FILE-OR-DIRECTORY...\n", program_name);
      return 1;
    }

  for (size_t i = 0; i < sizeof signals / sizeof signals[0]; i++)
    signal (signals[i], crash_handler);

  if (LLVMFuzzerInitialize != NULL)
    LLVMFuzzerInitialize (&argc, &argv);

  for (int i = first; i < argc; i++)
    {
      struct stat st;
      int r;

      if (stat (argv[i], &st) < 0)
        {
          fprintf (stderr, "%s: %s: %s\n", program_name, argv[i], strerror (errno));
          n_errors++;
          continue;
        }

      if (S_ISDIR (st.st_mode))
        r = run_directory (argv[i]);
      else
        r = run_file (argv[i]);
      if (r < 0)
        n_errors++;
    }

  fprintf (stderr, "%s: %lu inputs (%llu bytes) run, %lu unreadable paths, no crash\n",
           program_name, n_inputs, n_bytes, n_errors);

  if (n_errors > 0)
    return 1;
  if (n_inputs == 0)
    {
      fprintf (stderr, "%s: no inputs found\n", program_name);
      return 1;
    }
  return 0;
}
