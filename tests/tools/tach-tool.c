/* tach-tool.c: the format library for the Python tests
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 *   tach-tool dump FILE     the samples, one a line, in the format of the
 *                           reference reader's `tachgen.py dump --raw`:
 *                           "IID TID TS STATUS F0,F1,…", frames innermost
 *                           first
 *   tach-tool frames FILE   the frame table, one frame a line: the file and
 *                           function names in hex (their UTF-8, invalid
 *                           bytes replaced as CPython does), then line, end
 *                           line, column, end column and opcode as stored
 *   tach-tool write OUT     writes the profile that standard input
 *                           describes (tests/tools/tachprofile.py makes the
 *                           description), through the library's writer
 *
 * The tests compare the digests of `dump` and `frames` with the reference
 * reader's (tests/data/reference.json) before they use them, so a test
 * that replays the samples sees exactly what the reference decodes; and
 * they make their own profiles with `write` without the reference writer.
 * Errors go to stderr with exit status 1.
 *
 * The description of `write` is one item a line, words separated by
 * spaces, strings in hex:
 *
 *   option NAME VALUE       before any frame or sample: big_endian 0|1,
 *                           zstd 0|1, python MAJOR.MINOR.MICRO,
 *                           start_time_us N, interval_us N, mode_raw N
 *   stats SIZE DURATION RATE ERROR MISSED
 *                           the statistics block (SIZE 56 or 32); ERROR
 *                           and MISSED are "-" when absent
 *   frame ID FILE FUNC LINE END_LINE COLUMN END_COLUMN OPCODE
 *                           a frame that samples name by ID; it is interned
 *                           when a sample first uses it, as CPython's
 *                           writer interns frames
 *   sample TS IID TID STATUS ID,ID,…
 *                           one thread-sample, frames innermost first ("-"
 *                           for none)
 *
 * Names cannot hold a NUL byte: the writer takes C strings.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "tachyon-format.h"

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TachReader, tach_reader_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TachDecoder, tach_decoder_free)

G_GNUC_PRINTF (1, 2)
static int
fail (const char *format,
      ...)
{
  g_autofree char *message = NULL;
  va_list args;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  g_printerr ("tach-tool: %s\n", message);
  return 1;
}

static int
finish_stdout (void)
{
  if (fflush (stdout) != 0 || ferror (stdout))
    return fail ("cannot write the output: %s", g_strerror (errno));
  return 0;
}

static int
dump (const char *path)
{
  g_autoptr(TachReader) reader = NULL;
  g_autoptr(TachDecoder) decoder = NULL;
  TachError error;
  TachSample s;
  int rc;

  if (tach_reader_open_path (path, &reader, &error) != TACH_OK
      || tach_decoder_new (reader, &decoder, &error) != TACH_OK)
    return fail ("%s: %s", path, error.message);

  while ((rc = tach_decoder_next (decoder, &s, &error)) == 1)
    {
      printf ("%u %" PRIu64 " %" PRIu64 " %u ", s.interpreter_id, s.thread_id,
              s.timestamp_us, s.status);
      for (guint i = 0; i < s.depth; i++)
        printf (i ? ",%u" : "%u", s.stack[i]);
      putchar ('\n');
    }
  if (rc < 0)
    return fail ("%s: %s", path, error.message);
  return finish_stdout ();
}

static void
print_hex (const char *text,
           size_t      len)
{
  if (len == 0)
    fputs ("-", stdout);
  for (size_t i = 0; i < len; i++)
    printf ("%02x", (guchar) text[i]);
}

static int
frames (const char *path)
{
  g_autoptr(TachReader) reader = NULL;
  TachError error;

  if (tach_reader_open_path (path, &reader, &error) != TACH_OK)
    return fail ("%s: %s", path, error.message);

  for (uint32_t i = 0; i < tach_reader_get_n_frames (reader); i++)
    {
      const TachFrame *f = tach_reader_get_frame (reader, i);
      const char *file, *func;
      size_t file_len, func_len;

      file = tach_reader_get_string (reader, f->filename, &file_len);
      func = tach_reader_get_string (reader, f->funcname, &func_len);
      if (file == NULL || func == NULL)
        return fail ("%s: frame %u names a string the table lacks", path, i);
      print_hex (file, file_len);
      putchar (' ');
      print_hex (func, func_len);
      printf (" %d %d %d %d %u\n", f->lineno, f->end_lineno, f->column, f->end_column,
              f->opcode);
    }
  return finish_stdout ();
}

/* ------------------------------------------------------------------------ */
/* write                                                                     */
/* ------------------------------------------------------------------------ */

typedef struct
{
  char    *file;
  char    *func;
  gint32   numbers[5];      /* line, end line, column, end column, opcode */
  gboolean interned;
  uint32_t index;
} Frame;

static void
frame_free (gpointer data)
{
  Frame *f = data;

  g_free (f->file);
  g_free (f->func);
  g_free (f);
}

typedef struct
{
  TachWriterOptions options;
  TachWriter       *writer;
  GHashTable       *frames;   /* ID -> Frame */
  GArray           *stack;
  const char       *out;
  guint             line;
} Writing;

static gboolean
parse_u64 (const char *word,
           guint64     max,
           guint64    *out)
{
  return g_ascii_string_to_unsigned (word, 10, 0, max, out, NULL);
}

static gboolean
parse_i64 (const char *word,
           gint64      min,
           gint64      max,
           gint64     *out)
{
  return g_ascii_string_to_signed (word, 10, min, max, out, NULL);
}

/* The bytes WORD spells in hex ("-" for none), or NULL.  *NUL is set when
 * they hold a NUL byte. */
static char *
parse_hex (const char *word,
           gboolean   *nul)
{
  gsize len = strlen (word);
  GString *text;

  if (strcmp (word, "-") == 0)
    return g_strdup ("");
  if (len % 2 != 0)
    return NULL;
  text = g_string_sized_new (len / 2);
  for (gsize i = 0; i < len; i += 2)
    {
      int high = g_ascii_xdigit_value (word[i]);
      int low = g_ascii_xdigit_value (word[i + 1]);

      if (high < 0 || low < 0)
        {
          g_string_free (text, TRUE);
          return NULL;
        }
      g_string_append_c (text, (char) (high * 16 + low));
      *nul |= high == 0 && low == 0;
    }
  return g_string_free (text, FALSE);
}

static gboolean
parse_double (const char *word,
              double     *out)
{
  char *end;

  *out = g_ascii_strtod (word, &end);
  return end != word && *end == '\0';
}

static gboolean
start_writer (Writing   *w,
              TachError *error)
{
  if (w->writer != NULL)
    return TRUE;
  return tach_writer_new (w->out, &w->options, &w->writer, error) == TACH_OK;
}

static gboolean
set_option (Writing     *w,
            char       **words,
            const char **problem)
{
  guint64 value;

  if (w->writer != NULL)
    {
      *problem = "an option after the first frame or sample";
      return FALSE;
    }
  if (g_strv_length (words) != 3)
    {
      *problem = "an option takes a name and a value";
      return FALSE;
    }
  if (strcmp (words[1], "python") == 0)
    {
      g_auto(GStrv) parts = g_strsplit (words[2], ".", -1);
      guint64 v[3];

      if (g_strv_length (parts) != 3 || !parse_u64 (parts[0], 255, &v[0])
          || !parse_u64 (parts[1], 255, &v[1]) || !parse_u64 (parts[2], 255, &v[2]))
        {
          *problem = "python takes MAJOR.MINOR.MICRO";
          return FALSE;
        }
      w->options.python_major = v[0];
      w->options.python_minor = v[1];
      w->options.python_micro = v[2];
      return TRUE;
    }
  if (!parse_u64 (words[2], G_MAXUINT64, &value))
    {
      *problem = "the value is not a number";
      return FALSE;
    }
  if (strcmp (words[1], "big_endian") == 0)
    w->options.big_endian = value != 0;
  else if (strcmp (words[1], "zstd") == 0)
    w->options.zstd = value != 0;
  else if (strcmp (words[1], "start_time_us") == 0)
    w->options.start_time_us = value;
  else if (strcmp (words[1], "interval_us") == 0)
    w->options.sample_interval_us = value;
  else if (strcmp (words[1], "mode_raw") == 0 && value <= G_MAXUINT32)
    w->options.mode_raw = value;
  else
    {
      *problem = "an unknown option";
      return FALSE;
    }
  return TRUE;
}

static gboolean
add_frame (Writing     *w,
           char       **words,
           const char **problem)
{
  g_autoptr(GPtrArray) hold = g_ptr_array_new_with_free_func (frame_free);
  gboolean nul = FALSE;
  Frame *f;
  guint64 id;

  if (g_strv_length (words) != 9 || !parse_u64 (words[1], G_MAXUINT32, &id))
    {
      *problem = "a frame takes an ID, two names and five numbers";
      return FALSE;
    }
  f = g_new0 (Frame, 1);
  g_ptr_array_add (hold, f);
  f->file = parse_hex (words[2], &nul);
  f->func = parse_hex (words[3], &nul);
  if (f->file == NULL || f->func == NULL)
    {
      *problem = "a name is not in hex";
      return FALSE;
    }
  /* The writer takes names as C strings. */
  if (nul)
    {
      *problem = "a name holds a NUL byte, which the writer cannot write";
      return FALSE;
    }
  for (guint i = 0; i < 5; i++)
    {
      gint64 n;

      if (!parse_i64 (words[4 + i], G_MININT32, G_MAXINT32, &n))
        {
          *problem = "a number does not fit 32 bits";
          return FALSE;
        }
      f->numbers[i] = (gint32) n;
    }
  if (g_hash_table_contains (w->frames, GUINT_TO_POINTER (id)))
    {
      *problem = "a frame ID given twice";
      return FALSE;
    }
  g_hash_table_insert (w->frames, GUINT_TO_POINTER (id), g_ptr_array_steal_index (hold, 0));
  return TRUE;
}

static gboolean
add_sample (Writing     *w,
            char       **words,
            const char **problem,
            TachError   *error)
{
  guint64 ts, iid, tid, status;

  if (g_strv_length (words) != 6 || !parse_u64 (words[1], G_MAXUINT64, &ts)
      || !parse_u64 (words[2], G_MAXUINT32, &iid) || !parse_u64 (words[3], G_MAXUINT64, &tid)
      || !parse_u64 (words[4], 255, &status))
    {
      *problem = "a sample takes a timestamp, an interpreter, a thread, a status and frames";
      return FALSE;
    }
  g_array_set_size (w->stack, 0);
  if (strcmp (words[5], "-") != 0)
    {
      g_auto(GStrv) ids = g_strsplit (words[5], ",", -1);

      for (guint i = 0; ids[i] != NULL; i++)
        {
          guint64 id;
          Frame *f;

          if (!parse_u64 (ids[i], G_MAXUINT32, &id)
              || (f = g_hash_table_lookup (w->frames, GUINT_TO_POINTER (id))) == NULL)
            {
              *problem = "a sample names a frame not given before it";
              return FALSE;
            }
          if (!f->interned)
            {
              TachFrameInfo info = {
                f->file, f->func, f->numbers[0], f->numbers[1], f->numbers[2],
                f->numbers[3], f->numbers[4],
              };

              if (!start_writer (w, error)
                  || tach_writer_intern_frame (w->writer, &info, &f->index, error) != TACH_OK)
                return FALSE;
              f->interned = TRUE;
            }
          g_array_append_val (w->stack, f->index);
        }
    }
  if (!start_writer (w, error))
    return FALSE;
  return tach_writer_add_sample (w->writer, tid, iid, ts, status,
                                 (const uint32_t *) w->stack->data, w->stack->len,
                                 error) == TACH_OK;
}

static gboolean
set_stats (Writing     *w,
           char       **words,
           const char **problem,
           TachError   *error)
{
  TachStats stats = { 0 };
  guint64 size;

  if (g_strv_length (words) != 6 || !parse_u64 (words[1], 56, &size)
      || (size != 56 && size != 32)
      || !parse_double (words[2], &stats.duration_sec)
      || !parse_double (words[3], &stats.sample_rate))
    {
      *problem = "stats takes a size (56 or 32), a duration, a rate, an error rate and "
                 "missed samples";
      return FALSE;
    }
  stats.present = TRUE;
  stats.block_size = size;
  stats.has_error_rate = strcmp (words[4], "-") != 0;
  stats.has_missed_samples = strcmp (words[5], "-") != 0;
  if ((stats.has_error_rate && !parse_double (words[4], &stats.error_rate))
      || (stats.has_missed_samples && !parse_double (words[5], &stats.missed_samples)))
    {
      *problem = "the error rate or the missed samples is not a number";
      return FALSE;
    }
  return start_writer (w, error) && tach_writer_set_stats (w->writer, &stats, error) == TACH_OK;
}

static int
write_profile (const char *out)
{
  g_autoptr(GString) line = g_string_new (NULL);
  Writing w = { .out = out };
  TachError error = { 0 };
  const char *problem = NULL;
  int c = 0;

  w.frames = g_hash_table_new_full (NULL, NULL, NULL, frame_free);
  w.stack = g_array_new (FALSE, FALSE, sizeof (uint32_t));
  while (problem == NULL && error.status == TACH_OK && c != EOF)
    {
      g_auto(GStrv) words = NULL;
      gboolean ok = TRUE;

      g_string_truncate (line, 0);
      while ((c = getchar ()) != EOF && c != '\n')
        g_string_append_c (line, (char) c);
      w.line++;
      words = g_strsplit (line->str, " ", -1);
      if (line->len == 0)
        continue;
      if (strcmp (words[0], "option") == 0)
        ok = set_option (&w, words, &problem);
      else if (strcmp (words[0], "frame") == 0)
        ok = add_frame (&w, words, &problem);
      else if (strcmp (words[0], "sample") == 0)
        ok = add_sample (&w, words, &problem, &error);
      else if (strcmp (words[0], "stats") == 0)
        ok = set_stats (&w, words, &problem, &error);
      else
        problem = "an unknown item";
      if (!ok && problem == NULL && error.status == TACH_OK)
        problem = "cannot be written";
    }
  if (problem == NULL && error.status == TACH_OK && start_writer (&w, &error))
    {
      TachWriter *writer = g_steal_pointer (&w.writer);

      tach_writer_finish (writer, &error);
    }
  tach_writer_abort (w.writer);
  g_hash_table_unref (w.frames);
  g_array_unref (w.stack);
  if (problem != NULL)
    return fail ("line %u of the description: %s", w.line, problem);
  if (error.status != TACH_OK)
    return fail ("line %u of the description: %s: %s", w.line, out, error.message);
  return 0;
}

int
main (int   argc,
      char *argv[])
{
  if (argc == 3 && strcmp (argv[1], "dump") == 0)
    return dump (argv[2]);
  if (argc == 3 && strcmp (argv[1], "frames") == 0)
    return frames (argv[2]);
  if (argc == 3 && strcmp (argv[1], "write") == 0)
    return write_profile (argv[2]);
  g_printerr ("usage: tach-tool dump FILE | frames FILE | write OUT < DESCRIPTION\n");
  return 2;
}
