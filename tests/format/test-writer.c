/* test-writer.c: tests of the Tachyon writer
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Three oracles are used: the corpus files (re-encoded through our reader
 * and writer, they must come out byte for byte), tachgen.py's writer (the
 * same samples written by both must give the same bytes) and tachgen.py's
 * reader (its `dump --raw` must agree with our decoder line for line).
 *
 * The reference, tachgen.py, is not part of the project.  Without it the
 * samples of a re-encoded corpus file are compared with the digest of the
 * reference's `dump --raw` of the original (tests/data/corpus-expected.tsv).
 * With --reference, the program runs only the tests that run tachgen.py
 * itself ($TACHGEN, else $TACH_REFERENCE_DEFAULT): the reference suite,
 * which is skipped (an empty TAP plan) when it is not there.
 */
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include <glib.h>
#include <glib/gstdio.h>
#include <zstd.h>

#include "format-test-util.h"
#include "tachyon-format.h"

#define RLE_BUFFER_SIZE    16384
#define RLE_ENTRY_MAX_SIZE 11

/* ------------------------------------------------------------------------ */
/* Helpers                                                                   */
/* ------------------------------------------------------------------------ */

static char *
data_path (const char *subdir,
           const char *name)
{
  const char *dir = g_getenv ("TACH_TEST_DATA");

  if (dir != NULL)
    return g_build_filename (dir, subdir, name, NULL);
  return g_test_build_filename (G_TEST_DIST, "data", subdir, name, NULL);
}

static char *
tmp_dir_new (void)
{
  g_autoptr (GError) error = NULL;
  char *dir = g_dir_make_tmp ("tach-writer-XXXXXX", &error);

  g_assert_no_error (error);
  return dir;
}

static void
tmp_dir_free (char *dir)
{
  g_autoptr (GPtrArray) paths = g_ptr_array_new_with_free_func (g_free);
  GDir *d = g_dir_open (dir, 0, NULL);
  const char *name;

  /* Names first, removal after: unlinking while reading a directory may
   * make the reading skip entries. */
  if (d != NULL)
    {
      while ((name = g_dir_read_name (d)) != NULL)
        g_ptr_array_add (paths, g_build_filename (dir, name, NULL));
      g_dir_close (d);
    }
  for (guint i = 0; i < paths->len; i++)
    g_remove (paths->pdata[i]);
  if (g_rmdir (dir) != 0)
    g_test_message ("could not remove %s", dir);
  g_free (dir);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TachReader, tach_reader_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TachDecoder, tach_decoder_free)

static GBytes *
load_file (const char *path)
{
  g_autoptr (GError) error = NULL;
  char *contents = NULL;
  gsize len = 0;

  g_file_get_contents (path, &contents, &len, &error);
  g_assert_no_error (error);
  return g_bytes_new_take (contents, len);
}

static uint64_t
load_uint (const uint8_t *p,
           size_t         n,
           gboolean       big_endian)
{
  uint64_t v = 0;

  for (size_t i = 0; i < n; i++)
    v |= (uint64_t) p[big_endian ? n - 1 - i : i] << (8 * i);
  return v;
}

/* Reports the first difference; returns TRUE when the buffers are equal. */
static gboolean
check_same_bytes (const uint8_t *a,
                  size_t         a_len,
                  const uint8_t *b,
                  size_t         b_len,
                  const char    *what)
{
  size_t n = MIN (a_len, b_len);
  size_t i;

  for (i = 0; i < n && a[i] == b[i]; i++)
    ;
  if (i == n && a_len == b_len)
    return TRUE;

  if (i < n)
    g_test_message ("%s: first difference at byte %zu (0x%zx): %02x != %02x "
                    "(sizes %zu and %zu)", what, i, i, a[i], b[i], a_len, b_len);
  else
    g_test_message ("%s: sizes differ: %zu != %zu", what, a_len, b_len);
  return FALSE;
}

static GByteArray *
zstd_decompress_all (const uint8_t *data,
                     size_t         len)
{
  GByteArray *out = g_byte_array_new ();
  ZSTD_DCtx *dctx = ZSTD_createDCtx ();
  ZSTD_inBuffer in = { data, len, 0 };
  uint8_t chunk[64 * 1024];
  size_t r = 1;

  g_assert_nonnull (dctx);
  while (in.pos < in.size)
    {
      ZSTD_outBuffer o = { chunk, sizeof chunk, 0 };

      r = ZSTD_decompressStream (dctx, &o, &in);
      g_assert_false (ZSTD_isError (r));
      g_byte_array_append (out, chunk, (guint) o.pos);
      if (o.pos == 0 && r != 0 && in.pos == in.size)
        break;
    }
  /* Drain what libzstd still holds. */
  while (r != 0)
    {
      ZSTD_outBuffer o = { chunk, sizeof chunk, 0 };

      r = ZSTD_decompressStream (dctx, &o, &in);
      g_assert_false (ZSTD_isError (r));
      if (o.pos == 0)
        break;
      g_byte_array_append (out, chunk, (guint) o.pos);
    }
  g_assert_cmpuint (r, ==, 0);
  ZSTD_freeDCtx (dctx);
  return out;
}

/* Compresses DATA as CPython does (§10): level 5, ZSTD_e_continue in 512 KiB
 * chunks, then ZSTD_e_end; nothing but the final call for empty input. */
static GByteArray *
zstd_compress_like_cpython (const uint8_t *data,
                            size_t         len)
{
  GByteArray *out = g_byte_array_new ();
  ZSTD_CCtx *cctx = ZSTD_createCCtx ();
  uint8_t chunk[64 * 1024];
  size_t r;

  ZSTD_CCtx_setParameter (cctx, ZSTD_c_compressionLevel, 5);
  for (size_t pos = 0; pos < len; pos += 512 * 1024)
    {
      ZSTD_inBuffer in = { data + pos, MIN (len - pos, (size_t) 512 * 1024), 0 };

      while (in.pos < in.size)
        {
          ZSTD_outBuffer o = { chunk, sizeof chunk, 0 };

          r = ZSTD_compressStream2 (cctx, &o, &in, ZSTD_e_continue);
          g_assert_false (ZSTD_isError (r));
          g_byte_array_append (out, chunk, (guint) o.pos);
        }
    }
  do
    {
      ZSTD_inBuffer in = { NULL, 0, 0 };
      ZSTD_outBuffer o = { chunk, sizeof chunk, 0 };

      r = ZSTD_compressStream2 (cctx, &o, &in, ZSTD_e_end);
      g_assert_false (ZSTD_isError (r));
      g_byte_array_append (out, chunk, (guint) o.pos);
    }
  while (r != 0);
  ZSTD_freeCCtx (cctx);
  return out;
}

/* Asserts that OURS is REFERENCE byte for byte.  For a zstd file, the
 * payload bytes depend on the zstd library that wrote it: the whole file
 * must still be identical whenever the local libzstd reproduces the
 * reference payload from its own decompressed content (which it does for
 * the committed corpus with libzstd 1.5.4).  Otherwise everything but the
 * compressed bytes must match: the decompressed records, the header (bar
 * the two table offsets), the tables, the stats block and the footer (bar
 * file_size).  Returns TRUE when the files are byte-identical. */
static gboolean
assert_same_file (const char *ours,
                  const char *reference,
                  const char *what)
{
  g_autoptr (GBytes) a = load_file (ours);
  g_autoptr (GBytes) b = load_file (reference);
  const uint8_t *pa = g_bytes_get_data (a, NULL);
  const uint8_t *pb = g_bytes_get_data (b, NULL);
  size_t la = g_bytes_get_size (a);
  size_t lb = g_bytes_get_size (b);
  gboolean be;
  uint64_t sa, sb;
  g_autoptr (GByteArray) ra = NULL;
  g_autoptr (GByteArray) rb = NULL;
  g_autoptr (GByteArray) again = NULL;
  gboolean reproducible;

  g_assert_cmpuint (la, >=, 96);
  g_assert_cmpuint (lb, >=, 96);
  be = pb[0] == 'T';

  if (load_uint (pb + 56, 4, be) != 1)
    {
      gboolean same = check_same_bytes (pa, la, pb, lb, what);

      if (!same)
        g_test_fail_printf ("%s: not byte-identical to %s", what, reference);
      return same;
    }

  sa = load_uint (pa + 40, 8, be);
  sb = load_uint (pb + 40, 8, be);
  g_assert_cmpuint (sa, <=, la);
  g_assert_cmpuint (sb, <=, lb);

  ra = zstd_decompress_all (pa + 64, sa - 64);
  rb = zstd_decompress_all (pb + 64, sb - 64);
  if (!check_same_bytes (ra->data, ra->len, rb->data, rb->len, "decompressed records"))
    g_test_fail_printf ("%s: decompressed records differ", what);
  if (!check_same_bytes (pa, 40, pb, 40, "header 0..39")
      || !check_same_bytes (pa + 56, 8, pb + 56, 8, "header 56..63"))
    g_test_fail_printf ("%s: headers differ", what);
  g_assert_cmpuint (load_uint (pa + la - 24, 8, be), ==, la);
  g_assert_cmpuint (load_uint (pb + lb - 24, 8, be), ==, lb);
  if (!check_same_bytes (pa + sa, la - sa - 24, pb + sb, lb - sb - 24, "tables and stats")
      || !check_same_bytes (pa + la - 32, 8, pb + lb - 32, 8, "footer counts")
      || !check_same_bytes (pa + la - 16, 16, pb + lb - 16, 16, "footer checksum"))
    g_test_fail_printf ("%s: tables, stats or footer differ", what);

  again = zstd_compress_like_cpython (rb->data, rb->len);
  reproducible = again->len == sb - 64 && memcmp (again->data, pb + 64, again->len) == 0;
  if (reproducible)
    {
      gboolean same = check_same_bytes (pa, la, pb, lb, what);

      if (!same)
        g_test_fail_printf ("%s: not byte-identical to %s", what, reference);
      return same;
    }

  g_test_message ("%s: libzstd %s does not reproduce the reference's zstd payload; "
                  "compared everything else", what, ZSTD_versionString ());
  return FALSE;
}

/* ------------------------------------------------------------------------ */
/* Decoding a whole file                                                     */
/* ------------------------------------------------------------------------ */

typedef struct
{
  uint64_t thread_id;
  uint32_t interpreter_id;
  uint32_t thread_index;
  uint64_t timestamp_us;
  uint8_t  status;
  uint8_t  kind;
  uint16_t depth;
  uint16_t pop;
  uint16_t keep;
  uint16_t push;
  uint32_t run_index;
  uint32_t run_length;
  uint64_t record_offset;
  guint    stack;               /* offset into Decoded.stacks */
} DSample;

typedef struct
{
  TachReader *reader;
  GArray     *samples;          /* DSample */
  GArray     *stacks;           /* uint32_t */
  uint32_t    n_threads;
} Decoded;

static void
decoded_free (Decoded *d)
{
  tach_reader_free (d->reader);
  g_array_unref (d->samples);
  g_array_unref (d->stacks);
  g_free (d);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Decoded, decoded_free)

static const uint32_t *
dsample_stack (const Decoded *d,
               const DSample *s)
{
  return &g_array_index (d->stacks, uint32_t, s->stack);
}

/* Reads every sample of PATH, checking the TachSample shape invariants on
 * the way: prev_depth == pop + keep, depth == keep + push, and the kept
 * frames are the outermost KEEP frames of the thread's previous stack. */
static Decoded *
decoded_load_with_reader (TachReader *reader)
{
  g_autoptr (TachDecoder) decoder = NULL;
  Decoded *d = g_new0 (Decoded, 1);
  GArray *last = g_array_new (FALSE, FALSE, sizeof (guint));   /* per thread */
  const char *path = "profile";
  TachError error = { 0 };
  TachSample sample;
  int r;

  d->reader = reader;
  if (tach_decoder_new (d->reader, &decoder, &error) != TACH_OK)
    g_error ("%s: %s", path, error.message);

  d->samples = g_array_new (FALSE, FALSE, sizeof (DSample));
  d->stacks = g_array_new (FALSE, FALSE, sizeof (uint32_t));

  while ((r = tach_decoder_next (decoder, &sample, &error)) == 1)
    {
      DSample s = {
        sample.thread_id, sample.interpreter_id, sample.thread_index,
        sample.timestamp_us, sample.status, sample.kind, sample.depth,
        sample.pop, sample.keep, sample.push, sample.run_index,
        sample.run_length, sample.record_offset, d->stacks->len,
      };
      const TachThreadKey *key = tach_decoder_get_thread (decoder, sample.thread_index);
      uint16_t prev_depth = 0;
      const uint32_t *prev = NULL;

      g_assert_nonnull (key);
      g_assert_cmpuint (key->thread_id, ==, sample.thread_id);
      g_assert_cmpuint (key->interpreter_id, ==, sample.interpreter_id);

      if (sample.thread_index < last->len)
        {
          const DSample *p = &g_array_index (d->samples, DSample,
                                             g_array_index (last, guint, sample.thread_index));
          prev_depth = p->depth;
          prev = dsample_stack (d, p);
        }
      else
        {
          guint none = G_MAXUINT;

          g_assert_cmpuint (sample.thread_index, ==, last->len);
          g_array_append_val (last, none);
        }

      g_assert_cmpuint (prev_depth, ==, sample.pop + sample.keep);
      g_assert_cmpuint (sample.depth, ==, sample.keep + sample.push);
      g_assert_cmpuint (sample.depth, <=, TACH_MAX_STACK_DEPTH);
      if (sample.keep > 0)
        g_assert_cmpmem (sample.stack + sample.push, sample.keep * sizeof (uint32_t),
                         prev + (prev_depth - sample.keep), sample.keep * sizeof (uint32_t));
      if (sample.kind == TACH_RECORD_REPEAT)
        {
          g_assert_cmpuint (sample.pop, ==, 0);
          g_assert_cmpuint (sample.push, ==, 0);
          g_assert_cmpuint (sample.run_index, <, sample.run_length);
        }

      g_array_append_vals (d->stacks, sample.stack, sample.depth);
      g_array_append_val (d->samples, s);
      g_array_index (last, guint, sample.thread_index) = d->samples->len - 1;
    }
  if (r < 0)
    g_error ("%s: %s", path, error.message);

  g_assert_cmpuint (tach_decoder_get_samples_decoded (decoder), ==, d->samples->len);
  g_assert_cmpuint (tach_reader_get_header (d->reader)->sample_count, ==, d->samples->len);
  d->n_threads = tach_decoder_get_n_threads (decoder);
  g_array_unref (last);
  return d;
}

static Decoded *
decoded_load (const char *path)
{
  TachReader *reader = NULL;
  TachError error = { 0 };

  if (tach_reader_open_path (path, &reader, &error) != TACH_OK)
    g_error ("%s: %s", path, error.message);
  return decoded_load_with_reader (reader);
}

/* The same text as `tachgen.py dump --raw`: "iid tid ts status f0,f1,..."
 * with frames innermost first (verified against tachgen's cmd_dump). */
static char *
decoded_dump_raw (const Decoded *d)
{
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < d->samples->len; i++)
    {
      const DSample *s = &g_array_index (d->samples, DSample, i);
      const uint32_t *stack = dsample_stack (d, s);

      g_string_append_printf (out, "%" PRIu32 " %" PRIu64 " %" PRIu64 " %u ",
                              s->interpreter_id, s->thread_id, s->timestamp_us, s->status);
      for (uint16_t k = 0; k < s->depth; k++)
        g_string_append_printf (out, k ? ",%" PRIu32 : "%" PRIu32, stack[k]);
      g_string_append_c (out, '\n');
    }

  return g_string_free (out, FALSE);
}

/* ------------------------------------------------------------------------ */
/* tachgen.py                                                                */
/* ------------------------------------------------------------------------ */

/* Set by --reference: run the tests against tachgen.py itself. */
static gboolean reference_mode;

/* The reference reader and writer, or NULL when it is not there. */
static const char *
tachgen_path (void)
{
  const char *path = g_getenv ("TACHGEN");

  if (path == NULL || path[0] == '\0')
    path = g_getenv ("TACH_REFERENCE_DEFAULT");
  if (path == NULL || !g_file_test (path, G_FILE_TEST_IS_REGULAR))
    return NULL;
  return path;
}

/* Runs tachgen.py with ARGS; returns its stdout, or NULL (with the test
 * marked failed) when it fails.  Only in reference mode, which main ()
 * enters only with tachgen.py at hand. */
static char *
run_tachgen (const char * const *args)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_autoptr (GError) error = NULL;
  g_autofree char *err = NULL;
  char *out = NULL;
  int wait_status = 0;

  g_assert_true (reference_mode);
  g_ptr_array_add (argv, (char *) "python3");
  g_ptr_array_add (argv, (char *) tachgen_path ());
  for (; *args != NULL; args++)
    g_ptr_array_add (argv, (char *) *args);
  g_ptr_array_add (argv, NULL);

  if (!g_spawn_sync (NULL, (char **) argv->pdata, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL,
                     &out, &err, &wait_status, &error)
      || !g_spawn_check_wait_status (wait_status, &error))
    {
      g_test_fail_printf ("tachgen %s failed: %s\n%s", (const char *) argv->pdata[2],
                          error->message, err ? err : "");
      g_free (out);
      return NULL;
    }

  return out;
}

/* The SHA-256 of the reference's `dump --raw` of the corpus file
 * valid/NAME, from tests/data/corpus-expected.tsv. */
static char *
reference_digest (const char *name)
{
  g_autofree char *path = data_path ("", "corpus-expected.tsv");
  g_autofree char *key = g_strconcat ("valid/", name, "\t", NULL);
  g_autofree char *text = NULL;
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) lines = NULL;

  g_file_get_contents (path, &text, NULL, &error);
  g_assert_no_error (error);
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    if (g_str_has_prefix (lines[i], key))
      {
        const char *digest = strrchr (lines[i], '\t') + 1;

        g_assert_cmpuint (strlen (digest), ==, 64);
        return g_strdup (digest);
      }
  g_error ("%s is not in %s", name, path);
}

/* D, decoded from PATH, holds the samples the reference reader decodes:
 * those whose `dump --raw` has the SHA-256 DIGEST, when given; in
 * reference mode, those tachgen.py decodes from PATH too. */
static void
assert_dump_matches_reference (const char    *path,
                               const Decoded *d,
                               const char    *digest)
{
  const char *args[] = { "dump", "--raw", path, NULL };
  g_autofree char *ours = decoded_dump_raw (d);
  g_autofree char *theirs = NULL;

  if (digest != NULL)
    {
      g_autofree char *our_digest = g_compute_checksum_for_string (G_CHECKSUM_SHA256, ours, -1);

      if (!g_str_equal (our_digest, digest))
        g_test_fail_printf ("%s: our samples are not those of the reference's dump "
                            "(SHA-256 %s, expected %s)", path, our_digest, digest);
    }
  if (!reference_mode)
    return;
  theirs = run_tachgen (args);
  if (theirs == NULL)
    return;

  if (g_strcmp0 (ours, theirs) != 0)
    {
      check_same_bytes ((const uint8_t *) ours, strlen (ours),
                        (const uint8_t *) theirs, strlen (theirs), "dump --raw");
      g_test_fail_printf ("%s: our decoder and tachgen dump --raw disagree", path);
    }
}

/* ------------------------------------------------------------------------ */
/* Re-encoding the corpus                                                    */
/* ------------------------------------------------------------------------ */

/* One record of the file, as the decoder delivered it. */
typedef struct
{
  guint    first;               /* first sample */
  guint    count;
  uint32_t thread;
  uint8_t  kind;
  int      trigger;             /* the sample whose arrival flushed this REPEAT
                                 * record because the run was full, or -1 */
} Record;

typedef struct
{
  double   key;
  uint32_t thread;
} EarlyStart;

static int
compare_early_start (const void *a,
                     const void *b)
{
  const EarlyStart *x = a, *y = b;

  return (x->key > y->key) - (x->key < y->key);
}

/* Reconstructs an order of tach_writer_add_sample() calls that makes
 * CPython's writer emit D's records where they are in the file.
 *
 * Replaying in file order would not do: a REPEAT record sits where its run
 * was flushed, not where its samples arrived.  But every record was emitted
 * by a known event (§4.9), so a call order that triggers the same events in
 * the same order can be rebuilt, and it gives the same bytes:
 *
 * - a change record (FULL, SUFFIX, POP_PUSH) was written when its sample
 *   arrived;
 * - a REPEAT record followed by a change record of the same thread was
 *   flushed by that change, so the two must be adjacent in the file;
 * - a REPEAT record followed by another REPEAT record of the same thread
 *   was flushed because the run was full when the first sample of the next
 *   one arrived: that sample is added right after the record's own;
 * - the last record of a thread, when it is a REPEAT, was flushed at
 *   finish, in thread-creation order: these records end the file, and
 *   their order says in which order those threads were created.  A thread
 *   whose first record is a change was created exactly there; one whose
 *   first record is a REPEAT (its first samples had empty stacks) may have
 *   been created earlier, and is, when the finish order requires it.
 *
 * Samples of a REPEAT run are only buffered, so adding them earlier than
 * they really arrived changes nothing.  Returns the sample indices in call
 * order, or NULL with *WHY set when D cannot have been written that way. */
static GArray *
plan_replay (const Decoded *d,
             char         **why)
{
  g_autoptr (GArray) records = g_array_new (FALSE, FALSE, sizeof (Record));
  g_autofree int *first_rec = g_new (int, d->n_threads + 1);
  g_autofree int *last_rec = g_new (int, d->n_threads + 1);
  g_autofree int *next_rec = NULL;
  g_autofree double *key = g_new (double, d->n_threads + 1);
  g_autofree gboolean *added = g_new0 (gboolean, d->samples->len + 1);
  g_autoptr (GArray) tail = g_array_new (FALSE, FALSE, sizeof (uint32_t));
  g_autoptr (GArray) early = g_array_new (FALSE, FALSE, sizeof (EarlyStart));
  GArray *order;
  double bound = INFINITY;
  guint next_early = 0;

  for (guint i = 0; i < d->samples->len; i++)
    {
      const DSample *s = &g_array_index (d->samples, DSample, i);

      if (s->run_index == 0)
        {
          Record rec = { i, 0, s->thread_index, s->kind, -1 };

          g_array_append_val (records, rec);
        }
      g_array_index (records, Record, records->len - 1).count++;
    }

  for (uint32_t t = 0; t < d->n_threads; t++)
    first_rec[t] = last_rec[t] = -1;
  next_rec = g_new (int, records->len + 1);
  for (guint r = 0; r < records->len; r++)
    {
      const Record *rec = &g_array_index (records, Record, r);

      next_rec[r] = -1;
      if (first_rec[rec->thread] < 0)
        first_rec[rec->thread] = (int) r;
      else
        next_rec[last_rec[rec->thread]] = (int) r;
      last_rec[rec->thread] = (int) r;
    }

  for (guint r = 0; r < records->len; r++)
    {
      Record *rec = &g_array_index (records, Record, r);
      int nr = next_rec[r];

      if (rec->kind != TACH_RECORD_REPEAT)
        continue;
      if (nr < 0)
        g_array_append_val (tail, rec->thread);
      else if (g_array_index (records, Record, nr).kind == TACH_RECORD_REPEAT)
        rec->trigger = (int) g_array_index (records, Record, nr).first;
      else if ((guint) nr != r + 1)
        {
          *why = g_strdup_printf ("REPEAT record %u of thread %u is not followed by the "
                                  "change record that flushed it", r, rec->thread);
          return NULL;
        }
    }

  /* The runs flushed at finish must end the file. */
  for (guint i = 0; i < tail->len; i++)
    {
      uint32_t t = g_array_index (tail, uint32_t, i);

      if ((guint) last_rec[t] != records->len - tail->len + i)
        {
          *why = g_strdup_printf ("the last REPEAT record of thread %u is not among the "
                                  "runs flushed at finish", t);
          return NULL;
        }
    }

  /* Creation order, walking the finish order backwards. */
  for (uint32_t t = 0; t < d->n_threads; t++)
    key[t] = first_rec[t];
  for (guint i = tail->len; i-- > 0;)
    {
      uint32_t t = g_array_index (tail, uint32_t, i);
      gboolean fixed = g_array_index (records, Record, first_rec[t]).kind != TACH_RECORD_REPEAT;

      if (key[t] >= bound)
        {
          if (fixed)
            {
              *why = g_strdup_printf ("thread %u was created after a thread whose run is "
                                      "flushed after its own at finish", t);
              return NULL;
            }
          key[t] = bound - 1e-6;
        }
      bound = key[t];
    }
  for (uint32_t t = 0; t < d->n_threads; t++)
    if (key[t] < first_rec[t])
      {
        EarlyStart e = { key[t], t };

        g_array_append_val (early, e);
      }
  g_array_sort (early, compare_early_start);

  order = g_array_sized_new (FALSE, FALSE, sizeof (guint), d->samples->len);
  for (guint r = 0; r < records->len; r++)
    {
      const Record *rec = &g_array_index (records, Record, r);

      for (; next_early < early->len
             && g_array_index (early, EarlyStart, next_early).key <= r; next_early++)
        {
          uint32_t t = g_array_index (early, EarlyStart, next_early).thread;
          guint s = g_array_index (records, Record, first_rec[t]).first;

          g_array_append_val (order, s);
          added[s] = TRUE;
        }

      for (guint s = rec->first; s < rec->first + rec->count; s++)
        if (!added[s])
          {
            g_array_append_val (order, s);
            added[s] = TRUE;
          }
      if (rec->trigger >= 0)
        {
          guint s = (guint) rec->trigger;

          g_array_append_val (order, s);
          added[s] = TRUE;
        }
    }

  g_assert_cmpuint (order->len, ==, d->samples->len);
  return order;
}

/* Writes the samples of D, in ORDER (or file order when NULL), to PATH with
 * the options, stats and frames (by value) that D's reader reports. */
static void
reencode (const Decoded *d,
          const GArray  *order,
          const char    *path)
{
  const TachHeader *h = tach_reader_get_header (d->reader);
  const TachStats *stats = tach_reader_get_stats (d->reader);
  uint32_t n_frames = tach_reader_get_n_frames (d->reader);
  g_autofree uint32_t *map = g_new (uint32_t, n_frames + 1);
  TachWriterOptions options = {
    .big_endian = h->big_endian,
    .zstd = h->compression_type == TACH_COMPRESSION_ZSTD,
    .python_major = h->python_major,
    .python_minor = h->python_minor,
    .python_micro = h->python_micro,
    .start_time_us = h->start_time_us,
    .sample_interval_us = h->sample_interval_us,
    .mode_raw = h->mode_raw,
  };
  TachWriter *writer = NULL;
  TachError error = { 0 };

  for (uint32_t i = 0; i < n_frames; i++)
    map[i] = UINT32_MAX;

  g_assert_cmpint (tach_writer_new (path, &options, &writer, &error), ==, TACH_OK);
  if (stats->present)
    g_assert_cmpint (tach_writer_set_stats (writer, stats, &error), ==, TACH_OK);

  for (guint i = 0; i < d->samples->len; i++)
    {
      guint index = order ? g_array_index (order, guint, i) : i;
      const DSample *s = &g_array_index (d->samples, DSample, index);
      const uint32_t *stack = dsample_stack (d, s);
      uint32_t frames[TACH_MAX_STACK_DEPTH];

      /* Innermost first, as CPython interns them.  A frame already seen is
       * not interned again: that would be a no-op (its strings and key are
       * known), and long strings would make it slow. */
      for (uint16_t k = 0; k < s->depth; k++)
        {
          if (map[stack[k]] == UINT32_MAX)
            {
              const TachFrame *f = tach_reader_get_frame (d->reader, stack[k]);
              TachFrameInfo info = {
                tach_reader_get_string (d->reader, f->filename, NULL),
                tach_reader_get_string (d->reader, f->funcname, NULL),
                f->lineno, f->end_lineno, f->column, f->end_column, f->opcode,
              };

              g_assert_cmpint (tach_writer_intern_frame (writer, &info, &map[stack[k]], &error),
                               ==, TACH_OK);
            }
          frames[k] = map[stack[k]];
        }

      if (tach_writer_add_sample (writer, s->thread_id, s->interpreter_id, s->timestamp_us,
                                  s->status, frames, s->depth, &error) != TACH_OK)
        g_error ("add_sample: %s", error.message);
    }

  if (tach_writer_finish (writer, &error) != TACH_OK)
    g_error ("finish: %s", error.message);
}

/* Files of the valid corpus that were not written by the normal writer
 * path, and why they cannot come back byte for byte through the public
 * reader and writer API. */
static const struct
{
  const char *name;
  const char *why;
} corpus_quirks[] = {
  { "compression_type_7.tach", "compression 7 is read as raw; we write 0" },
  { "footer_size_mismatch.tach",
    "the footer's file_size is wrong on purpose; we write the true size" },
  { "invalid_utf8_string.tach", "the reader hands out U+FFFD for invalid UTF-8 (as CPython does)" },
  { "pop_push_overpop.tach", "hand-made POP_PUSH popping more than the depth; we write FULL" },
  { "repeat_count_zero.tach", "a REPEAT with count 0 has no sample to replay" },
  { "suffix_zero_new.tach", "hand-made SUFFIX with new_count 0; we write another record" },
  { "stats_nan_in_absent_field.tach", "NaN in an absent stats field; we store 0.0 there" },
  { "stats_unknown_size.tach", "the reader ignores the size-48 stats block; we write none" },
  { "stats_unknown_version.tach", "the reader ignores the version-2 stats block; we write none" },
  { "stats_v56_unknown_flag_bits.tach", "flag bit 0x80 set by hand; we derive the flags (0x03)" },
};

static const char *
quirk_reason (const char *name)
{
  for (size_t i = 0; i < G_N_ELEMENTS (corpus_quirks); i++)
    if (strcmp (corpus_quirks[i].name, name) == 0)
      return corpus_quirks[i].why;
  return NULL;
}

/* Strings with a NUL, or two frame-table entries that read back equal
 * (they differed only in an end position that is not stored, §6.2), cannot
 * be handed back to the writer as they were. */
static char *
check_representable (const Decoded *d)
{
  uint32_t n_strings = tach_reader_get_n_strings (d->reader);
  uint32_t n_frames = tach_reader_get_n_frames (d->reader);
  g_autoptr (GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  for (uint32_t i = 0; i < n_strings; i++)
    {
      size_t len;
      const char *s = tach_reader_get_string (d->reader, i, &len);

      if (strlen (s) != len)
        return g_strdup_printf ("string %u holds a NUL", i);
    }

  for (uint32_t i = 0; i < n_frames; i++)
    {
      const TachFrame *f = tach_reader_get_frame (d->reader, i);
      char *k = g_strdup_printf ("%s\x1f%s\x1f%d %d %d %d %u",
                                 tach_reader_get_string (d->reader, f->filename, NULL),
                                 tach_reader_get_string (d->reader, f->funcname, NULL),
                                 f->lineno, f->end_lineno, f->column, f->end_column, f->opcode);

      if (!g_hash_table_add (seen, k))
        return g_strdup_printf ("frame %u reads back equal to an earlier frame", i);
    }

  return NULL;
}

static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

static void
test_reencode_corpus (void)
{
  g_autofree char *dir = data_path ("valid", "");
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GError) error = NULL;
  char *tmp = tmp_dir_new ();
  GDir *d = g_dir_open (dir, 0, &error);
  const char *name;
  guint identical = 0, compared = 0;

  g_assert_no_error (error);
  while ((name = g_dir_read_name (d)) != NULL)
    if (g_str_has_suffix (name, ".tach"))
      g_ptr_array_add (names, g_strdup (name));
  g_dir_close (d);
  g_ptr_array_sort (names, compare_names);
  g_assert_cmpuint (names->len, >, 20);

  for (guint i = 0; i < names->len; i++)
    {
      const char *file = names->pdata[i];
      g_autofree char *path = data_path ("valid", file);
      g_autofree char *out = g_build_filename (tmp, file, NULL);
      const char *quirk = quirk_reason (file);
      g_autoptr (Decoded) dec = NULL;
      g_autofree char *unrepresentable = NULL;
      g_autofree char *why = NULL;
      g_autoptr (GArray) order = NULL;
      TachReader *reader = NULL;
      TachError error2 = { 0 };

      g_test_message ("re-encoding %s", file);
      if (tach_reader_open_path (path, &reader, &error2) != TACH_OK)
        {
          /* Our reader is stricter than CPython's in a few documented
           * places (e.g. it refuses compression 7, SPEC §9.4 item 13). */
          if (quirk == NULL)
            g_test_fail_printf ("%s: %s", file, error2.message);
          else
            g_test_message ("%s: not re-encoded, the reader refuses it: %s",
                            file, error2.message);
          continue;
        }
      dec = decoded_load_with_reader (reader);
      unrepresentable = check_representable (dec);
      order = plan_replay (dec, &why);

      if (quirk == NULL)
        {
          /* Written by the normal path: everything must come back. */
          if (unrepresentable != NULL)
            g_test_fail_printf ("%s: %s", file, unrepresentable);
          if (order == NULL)
            g_test_fail_printf ("%s: no CPython call order writes this file: %s", file, why);
          if (unrepresentable != NULL || order == NULL)
            continue;

          reencode (dec, order, out);
          if (assert_same_file (out, path, file))
            identical++;
          else
            {
              /* Only reached for a zstd payload from another libzstd. */
              g_autoptr (Decoded) again = decoded_load (out);
              g_autofree char *digest = reference_digest (file);

              assert_dump_matches_reference (out, again, digest);
            }
          compared++;
        }
      else
        {
          /* A hand-made file: the bytes legitimately differ (see the table),
           * but the samples must not.  tachgen's dump of the re-encoded file
           * must be the original's, line for line. */
          g_autofree char *original_dump = decoded_dump_raw (dec);
          g_autofree char *digest = reference_digest (file);
          g_autoptr (Decoded) again = NULL;
          g_autofree char *new_dump = NULL;

          reencode (dec, order, out);
          again = decoded_load (out);
          new_dump = decoded_dump_raw (again);
          if (!check_same_bytes ((const uint8_t *) new_dump, strlen (new_dump),
                                 (const uint8_t *) original_dump, strlen (original_dump),
                                 "dump of the samples"))
            g_test_fail_printf ("%s: the re-encoded samples differ", file);
          assert_dump_matches_reference (out, again, digest);
          assert_dump_matches_reference (path, dec, digest);
          g_test_message ("%s: %s; samples compared instead (%s)", file, quirk,
                          order ? "replayed in reconstructed order" : why);
          /* Keep the table honest: a quirk that comes back byte for byte
           * belongs with the others. */
          {
            g_autoptr (GBytes) a = load_file (out);
            g_autoptr (GBytes) b = load_file (path);

            if (g_bytes_equal (a, b))
              g_test_fail_printf ("%s is listed as a quirk but re-encodes byte for byte", file);
          }
        }

      g_remove (out);
    }

  g_test_message ("%u of %u writer-made corpus files re-encoded byte for byte",
                  identical, compared);
  g_assert_cmpuint (compared, >=, 25);
  tmp_dir_free (tmp);
}

/* ------------------------------------------------------------------------ */
/* Hand-made files of the corpus                                             */
/* ------------------------------------------------------------------------ */

/* SPEC §14: tiny.tach from its four samples. */
static void
test_tiny_by_hand (void)
{
  static const TachFrameInfo infos[] = {
    { "app.py", "work", 7, 7, 4, 15, 53 },
    { "app.py", "main", 12, 12, 4, 10, 53 },
    { "app.py", "work", 8, 9, 8, 30, -1 },       /* opcode None */
    { "app.py", "helper", -1, -1, -1, -1, TACH_OPCODE_NONE },
  };
  static const struct
  {
    uint64_t ts;
    uint8_t  status;
    size_t   depth;
    int      frames[3];
  } samples[] = {
    { 1001000, 0x03, 2, { 0, 1 } },
    { 1002000, 0x03, 2, { 0, 1 } },
    { 1003100, 0x01, 2, { 2, 1 } },
    { 1004000, 0x03, 3, { 3, 2, 1 } },
  };
  TachWriterOptions options = {
    .start_time_us = 1000000,
    .sample_interval_us = 1000,
    .mode_raw = TACH_MODE_CPU + 1,
  };
  TachStats stats = {
    .duration_sec = 0.004,
    .sample_rate = 1000.0,
    .has_error_rate = true,
    .error_rate = 0.0,
    .has_missed_samples = true,
    .missed_samples = 3.2,
  };
  char *tmp = tmp_dir_new ();
  g_autofree char *out = g_build_filename (tmp, "tiny.tach", NULL);
  g_autofree char *reference = data_path ("valid", "tiny.tach");
  TachWriter *writer = NULL;
  TachError error = { 0 };

  g_assert_cmpint (tach_writer_new (out, &options, &writer, &error), ==, TACH_OK);
  for (size_t i = 0; i < G_N_ELEMENTS (samples); i++)
    {
      uint32_t frames[3];

      for (size_t k = 0; k < samples[i].depth; k++)
        g_assert_cmpint (tach_writer_intern_frame (writer, &infos[samples[i].frames[k]],
                                                   &frames[k], &error), ==, TACH_OK);
      /* Interning order gives the indices of §14. */
      for (size_t k = 0; k < samples[i].depth; k++)
        g_assert_cmpuint (frames[k], ==, (uint32_t) samples[i].frames[k]);
      g_assert_cmpint (tach_writer_add_sample (writer, 4242, 0, samples[i].ts, samples[i].status,
                                               frames, samples[i].depth, &error), ==, TACH_OK);
    }
  g_assert_cmpint (tach_writer_set_stats (writer, &stats, &error), ==, TACH_OK);
  g_assert_cmpint (tach_writer_finish (writer, &error), ==, TACH_OK);

  g_assert_true (assert_same_file (out, reference, "tiny.tach"));
  tmp_dir_free (tmp);
}

static void
write_empty (const char *path,
             gboolean    zstd)
{
  TachWriterOptions options = {
    .zstd = zstd,
    .start_time_us = 123456789,
    .sample_interval_us = 1000,
  };
  TachWriter *writer = NULL;
  TachError error = { 0 };

  g_assert_cmpint (tach_writer_new (path, &options, &writer, &error), ==, TACH_OK);
  g_assert_cmpint (tach_writer_finish (writer, &error), ==, TACH_OK);
}

static void
test_empty (void)
{
  char *tmp = tmp_dir_new ();
  g_autofree char *raw = g_build_filename (tmp, "empty.tach", NULL);
  g_autofree char *zst = g_build_filename (tmp, "empty.zst.tach", NULL);
  g_autofree char *raw_ref = data_path ("valid", "empty.tach");
  g_autofree char *zst_ref = data_path ("valid", "empty.zst.tach");
  g_autoptr (GBytes) bytes = NULL;
  const uint8_t *p;

  write_empty (raw, FALSE);
  write_empty (zst, TRUE);
  g_assert_true (assert_same_file (raw, raw_ref, "empty.tach"));
  g_assert_true (assert_same_file (zst, zst_ref, "empty.zst.tach"));

  /* The empty zstd frame declares its content size, 0 (§10). */
  bytes = load_file (zst);
  p = g_bytes_get_data (bytes, NULL);
  g_assert_cmpuint (load_uint (p + 40, 8, FALSE), >, 64);
  g_assert_cmpuint (ZSTD_getFrameContentSize (p + 64, load_uint (p + 40, 8, FALSE) - 64), ==, 0);
  tmp_dir_free (tmp);
}

/* ------------------------------------------------------------------------ */
/* Round trips                                                               */
/* ------------------------------------------------------------------------ */

typedef struct
{
  const char *filename;
  const char *funcname;
  int32_t     lineno, end_lineno, column, end_column, opcode;
} FrameSpec;

typedef struct
{
  uint64_t tid;
  uint32_t iid;
  uint64_t ts;
  uint8_t  status;
  guint    depth;               /* as given, may exceed 256 */
  guint    frames;              /* offset into Profile.frames (FrameSpec indices) */
} SampleSpec;

typedef struct
{
  GPtrArray *strings;           /* owns the names */
  GArray    *specs;             /* FrameSpec */
  GArray    *samples;           /* SampleSpec, in call order */
  GArray    *frames;            /* guint spec indices */
  uint64_t   start;
} Profile;

static void
profile_free (Profile *p)
{
  g_ptr_array_unref (p->strings);
  g_array_unref (p->specs);
  g_array_unref (p->samples);
  g_array_unref (p->frames);
  g_free (p);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Profile, profile_free)

static void
profile_add (Profile    *p,
             uint64_t    tid,
             uint32_t    iid,
             uint64_t    ts,
             uint8_t     status,
             const guint *stack,
             guint        depth)
{
  SampleSpec s = { tid, iid, ts, status, depth, p->frames->len };

  g_array_append_vals (p->frames, stack, depth);
  g_array_append_val (p->samples, s);
}

/* Several threads in two interpreters (the same tid in both), empty
 * stacks, a 300-frame stack, a backwards timestamp, status bits 6 and 7,
 * location sentinels and opcodes none/255/300, and threads whose stack
 * does not change for long enough that their runs need several REPEAT
 * records. */
static Profile *
profile_new_with_frames (void)
{
  Profile *p = g_new0 (Profile, 1);

  p->strings = g_ptr_array_new_with_free_func (g_free);
  p->specs = g_array_new (FALSE, FALSE, sizeof (FrameSpec));
  p->samples = g_array_new (FALSE, FALSE, sizeof (SampleSpec));
  p->frames = g_array_new (FALSE, FALSE, sizeof (guint));
  p->start = 5000000000;

  for (guint i = 0; i < 7; i++)
    g_ptr_array_add (p->strings, g_strdup_printf ("/srv/app/mod%u.py", i));
  g_ptr_array_add (p->strings, g_strdup ("~"));
  g_ptr_array_add (p->strings, g_strdup ("<native>"));
  g_ptr_array_add (p->strings, g_strdup ("caf\xc3\xa9/\xe5\x87\xbd\xe6\x95\xb0.py"));
  for (guint i = 0; i < 320; i++)
    {
      FrameSpec f;
      char *func = g_strdup_printf ("func_%u", i);

      g_ptr_array_add (p->strings, func);
      f.filename = p->strings->pdata[i % 8 == 7 ? 9 : i % 7];
      f.funcname = func;
      f.lineno = (int32_t) i + 1;
      f.end_lineno = i % 5 == 0 ? -1 : (int32_t) i + 1 + (int32_t) (i % 3);
      f.column = i % 3 == 0 ? -1 : (int32_t) (i % 40);
      f.end_column = i % 4 == 0 ? -1 : (int32_t) (i % 40) + 9;
      f.opcode = (int32_t[]) { -1, 255, 300, 0, 254, 53 }[i % 6];
      if (i % 50 == 7)
        f.lineno = -1;             /* end_lineno and columns are lost */
      if (i == 11)
        {
          f.lineno = -5;           /* a negative line that is not the sentinel */
          f.end_lineno = -2;
        }
      g_array_append_val (p->specs, f);
    }
  {
    /* Two frames that differ only in the opcode, and the native frame. */
    FrameSpec a = { p->strings->pdata[0], p->strings->pdata[10], 3, 3, 0, 4, 100 };
    FrameSpec b = { p->strings->pdata[0], p->strings->pdata[10], 3, 3, 0, 4, 101 };
    FrameSpec native = { p->strings->pdata[7], p->strings->pdata[8], -1, -1, -1, -1, -1 };

    g_array_append_val (p->specs, a);
    g_array_append_val (p->specs, b);
    g_array_append_val (p->specs, native);
  }

  return p;
}

static Profile *
profile_new_fixed (void)
{
  Profile *p = profile_new_with_frames ();
  g_autoptr (GRand) rand = g_rand_new_with_seed (20260705);
  guint walk[3][64];
  guint walk_depth[3] = { 0, 0, 0 };
  guint deep[300];
  uint64_t ts;

  for (guint i = 0; i < 300; i++)
    deep[i] = i;

  ts = p->start;
  for (guint tick = 0; tick < 5000; tick++)
    {
      /* 20 ms: a three-byte delta varint, so the run of the idle thread
       * fills its 16 KiB buffer in about 4000 samples. */
      ts += 20000;
      if (tick == 100)
        ts -= 70000;               /* backwards: a ten-byte delta */

      /* Threads with random walks over the frame pool. */
      for (guint w = 0; w < 3; w++)
        {
          static const uint64_t tids[3] = { 1, 2, 1 };
          static const uint32_t iids[3] = { 0, 0, 1 };

          if ((tick + w) % 23 != 0 && tick != 100)
            continue;
          if (w == 1 && tick < 1000)
            walk_depth[w] = 0;     /* an empty stack for a while */
          else if (g_rand_int_range (rand, 0, 4) != 0)
            {
              guint pop = g_rand_int_range (rand, 0, walk_depth[w] + 1);
              guint push = g_rand_int_range (rand, 0, 6);

              /* walk[] is outermost first here; stacks go innermost first. */
              walk_depth[w] -= pop;
              for (guint k = 0; k < push && walk_depth[w] < 64; k++)
                walk[w][walk_depth[w]++] = g_rand_int_range (rand, 0, 323);
            }

          {
            guint stack[64];

            for (guint k = 0; k < walk_depth[w]; k++)
              stack[k] = walk[w][walk_depth[w] - 1 - k];
            profile_add (p, tids[w], iids[w], ts,
                         (uint8_t) g_rand_int_range (rand, 0, 256), stack, walk_depth[w]);
          }
        }

      /* The idle thread: one unchanging stack, interpreter 1. */
      {
        static const guint idle[2] = { 322, 5 };

        profile_add (p, G_MAXUINT64, 1, ts, tick % 1000 == 999 ? 0xc4 : 0x04, idle, 2);
      }

      /* A burst of 9000 samples 1 µs apart: two-byte RLE entries, so the
       * run is full at exactly 16374 bytes (16374 + 11 > 16384). */
      if (tick == 2500)
        {
          static const guint burst[1] = { 321 };

          for (guint k = 0; k < 9000; k++)
            profile_add (p, 9, 0, ts + k, 0x01, burst, 1);
        }

      /* A deep recursion now and then, truncated to 256 frames. */
      if (tick % 400 == 3)
        profile_add (p, 77, 0, ts, 0x23, deep, tick % 800 == 3 ? 300 : 257);
      else if (tick % 400 == 203)
        profile_add (p, 77, 0, ts, 0x23, deep + 280, 20);
    }

  return p;
}

typedef struct
{
  const char *name;
  gboolean    big_endian;
  gboolean    zstd;
  uint32_t    stats_size;       /* 0: no stats */
  gboolean    has_error_rate;
  gboolean    has_missed;
} RoundTrip;

/* Writes P through our writer, interning frames as CPython does. */
static void
write_profile (const Profile     *p,
               const RoundTrip   *rt,
               const char        *path,
               GArray            *index_of_spec)   /* out: frame index per spec */
{
  TachWriterOptions options = {
    .big_endian = rt->big_endian,
    .zstd = rt->zstd,
    .python_major = 3,
    .python_minor = 15,
    .python_micro = 1,
    .start_time_us = p->start,
    .sample_interval_us = 20000,
    .mode_raw = 2,
  };
  TachStats stats = {
    .block_size = rt->stats_size,
    .duration_sec = 100.25,
    .sample_rate = 49.875,
    .has_error_rate = rt->has_error_rate,
    .error_rate = 0.5,
    .has_missed_samples = rt->has_missed,
    .missed_samples = -1.75,
  };
  TachWriter *writer = NULL;
  TachError error = { 0 };

  g_array_set_size (index_of_spec, p->specs->len);
  for (guint i = 0; i < p->specs->len; i++)
    g_array_index (index_of_spec, uint32_t, i) = UINT32_MAX;

  g_assert_cmpint (tach_writer_new (path, &options, &writer, &error), ==, TACH_OK);
  if (rt->stats_size != 0)
    g_assert_cmpint (tach_writer_set_stats (writer, &stats, &error), ==, TACH_OK);

  for (guint i = 0; i < p->samples->len; i++)
    {
      const SampleSpec *s = &g_array_index (p->samples, SampleSpec, i);
      const guint *stack = &g_array_index (p->frames, guint, s->frames);
      uint32_t frames[300];

      /* Only the first 256 frames are interned, as in CPython; the rest
       * are passed on (with garbage indices) and must be ignored. */
      for (guint k = 0; k < s->depth; k++)
        {
          const FrameSpec *f = &g_array_index (p->specs, FrameSpec, stack[k]);
          TachFrameInfo info = {
            f->filename, f->funcname, f->lineno, f->end_lineno,
            f->column, f->end_column, f->opcode,
          };

          if (k >= TACH_MAX_STACK_DEPTH)
            {
              frames[k] = UINT32_MAX;
              continue;
            }
          g_assert_cmpint (tach_writer_intern_frame (writer, &info, &frames[k], &error),
                           ==, TACH_OK);
          g_array_index (index_of_spec, uint32_t, stack[k]) = frames[k];
        }
      g_assert_cmpint (tach_writer_add_sample (writer, s->tid, s->iid, s->ts, s->status,
                                               frames, s->depth, &error), ==, TACH_OK);
    }

  g_assert_cmpint (tach_writer_finish (writer, &error), ==, TACH_OK);
}

static void
json_string (GString    *out,
             const char *s)
{
  g_string_append_c (out, '"');
  for (; *s; s++)
    {
      if (*s == '"' || *s == '\\')
        g_string_append_printf (out, "\\%c", *s);
      else if ((unsigned char) *s < 0x20)
        g_string_append_printf (out, "\\u%04x", *s);
      else
        g_string_append_c (out, *s);
    }
  g_string_append_c (out, '"');
}

/* The same profile as a tachgen `fromjson` description: one JSON sample per
 * call, so that the calls reach tachgen's writer in the same order. */
static char *
profile_to_json (const Profile   *p,
                 const RoundTrip *rt)
{
  GString *out = g_string_new (NULL);
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  g_string_append_printf (out, "{\"start_time_us\": %" PRIu64 ", \"interval_us\": 20000,\n"
                          "\"samples\": [\n", p->start);
  for (guint i = 0; i < p->samples->len; i++)
    {
      const SampleSpec *s = &g_array_index (p->samples, SampleSpec, i);
      const guint *stack = &g_array_index (p->frames, guint, s->frames);

      g_string_append_printf (out, "%s{\"t\": %" PRIu64 ", \"interpreters\": [{\"id\": %" PRIu32
                              ", \"threads\": [{\"tid\": %" PRIu64 ", \"status\": %u, "
                              "\"frames\": [", i ? ",\n" : "", s->ts, s->iid, s->tid, s->status);
      for (guint k = 0; k < s->depth; k++)
        {
          const FrameSpec *f = &g_array_index (p->specs, FrameSpec, stack[k]);

          g_string_append (out, k ? ", [" : "[");
          json_string (out, f->filename);
          g_string_append (out, ", ");
          json_string (out, f->funcname);
          g_string_append_printf (out, ", %d, %d, %d, %d, %d]", f->lineno, f->end_lineno,
                                  f->column, f->end_column, f->opcode);
        }
      g_string_append (out, "]}]}]}");
    }
  g_string_append (out, "]");

  if (rt->stats_size != 0)
    {
      g_string_append_printf (out, ",\n\"stats\": {\"format\": \"%s\", \"duration_sec\": %s",
                              rt->stats_size == 32 ? "v32" : "v56",
                              g_ascii_dtostr (buf, sizeof buf, 100.25));
      g_string_append_printf (out, ", \"sample_rate\": %s",
                              g_ascii_dtostr (buf, sizeof buf, 49.875));
      g_string_append_printf (out, ", \"error_rate\": %s",
                              rt->has_error_rate ? g_ascii_dtostr (buf, sizeof buf, 0.5) : "null");
      g_string_append_printf (out, ", \"missed_samples\": %s}",
                              rt->has_missed ? g_ascii_dtostr (buf, sizeof buf, -1.75) : "null");
    }
  g_string_append (out, "}\n");
  return g_string_free (out, FALSE);
}

/* Expected record kind of each sample, from CPython's rules (§4.9) applied
 * per thread, and the REPEAT run each falls in. */
typedef struct
{
  uint64_t tid;
  uint32_t iid;
  guint    depth;
  uint32_t stack[TACH_MAX_STACK_DEPTH];
  uint64_t prev_ts;
  gsize    run_bytes;
  guint    run_start;           /* sample index in the thread's sequence */
  GArray  *seq;                 /* ExpectedSample */
} ModelThread;

typedef struct
{
  uint64_t ts;
  uint8_t  status;
  uint8_t  kind;
  guint    depth;
  uint32_t stack[TACH_MAX_STACK_DEPTH];
  guint    run_index;
  guint    run_length;
} ExpectedSample;

static void
model_close_run (ModelThread *t)
{
  guint n = t->seq->len - t->run_start;

  for (guint i = t->run_start; i < t->seq->len; i++)
    g_array_index (t->seq, ExpectedSample, i).run_length = n;
  t->run_start = t->seq->len;
  t->run_bytes = 0;
}

static void
model_add (ModelThread    *t,
           uint64_t        ts,
           uint8_t         status,
           const uint32_t *stack,
           guint           depth)
{
  ExpectedSample e = { ts, status, 0, MIN (depth, TACH_MAX_STACK_DEPTH), { 0 }, 0, 1 };
  uint64_t delta = ts - t->prev_ts;

  memcpy (e.stack, stack, e.depth * sizeof (uint32_t));
  if (e.depth == t->depth && memcmp (e.stack, t->stack, e.depth * sizeof (uint32_t)) == 0)
    {
      if (t->run_bytes + RLE_ENTRY_MAX_SIZE > RLE_BUFFER_SIZE)
        model_close_run (t);
      e.kind = TACH_RECORD_REPEAT;
      e.run_index = t->seq->len - t->run_start;
      t->run_bytes += format_test_uvarint_size (delta) + 1;
    }
  else
    {
      model_close_run (t);
      e.kind = format_test_record_kind (t->stack, t->depth, e.stack, e.depth);
      memcpy (t->stack, e.stack, e.depth * sizeof (uint32_t));
      t->depth = e.depth;
      t->run_start = t->seq->len + 1;
    }
  t->prev_ts = ts;
  g_array_append_val (t->seq, e);
}

/* Per thread, the decoded samples of D are those of P, in order, with the
 * record kinds and REPEAT runs CPython's writer would produce.  Counts the
 * samples of each kind into KINDS. */
static void
check_samples_against_model (const Profile *p,
                             const GArray  *index_of_spec,
                             const Decoded *d,
                             guint          kinds[4])
{
  g_autoptr (GArray) threads = g_array_new (FALSE, TRUE, sizeof (ModelThread));
  g_autofree guint *cursor = NULL;

  for (guint i = 0; i < p->samples->len; i++)
    {
      const SampleSpec *s = &g_array_index (p->samples, SampleSpec, i);
      const guint *stack = &g_array_index (p->frames, guint, s->frames);
      uint32_t frames[TACH_MAX_STACK_DEPTH];
      ModelThread *t = NULL;

      for (guint k = 0; k < MIN (s->depth, TACH_MAX_STACK_DEPTH); k++)
        frames[k] = g_array_index (index_of_spec, uint32_t, stack[k]);
      for (guint k = 0; k < threads->len && t == NULL; k++)
        if (g_array_index (threads, ModelThread, k).tid == s->tid
            && g_array_index (threads, ModelThread, k).iid == s->iid)
          t = &g_array_index (threads, ModelThread, k);
      if (t == NULL)
        {
          ModelThread nt = { 0 };

          nt.tid = s->tid;
          nt.iid = s->iid;
          nt.prev_ts = p->start;
          nt.seq = g_array_new (FALSE, FALSE, sizeof (ExpectedSample));
          g_array_append_val (threads, nt);
          t = &g_array_index (threads, ModelThread, threads->len - 1);
        }
      model_add (t, s->ts, s->status, frames, s->depth);
    }
  for (guint k = 0; k < threads->len; k++)
    model_close_run (&g_array_index (threads, ModelThread, k));

  cursor = g_new0 (guint, threads->len);
  for (guint i = 0; i < d->samples->len; i++)
    {
      const DSample *s = &g_array_index (d->samples, DSample, i);
      const ExpectedSample *e;
      guint k;

      for (k = 0; k < threads->len; k++)
        if (g_array_index (threads, ModelThread, k).tid == s->thread_id
            && g_array_index (threads, ModelThread, k).iid == s->interpreter_id)
          break;
      g_assert_cmpuint (k, <, threads->len);
      g_assert_cmpuint (cursor[k], <, g_array_index (threads, ModelThread, k).seq->len);
      e = &g_array_index (g_array_index (threads, ModelThread, k).seq, ExpectedSample, cursor[k]);
      cursor[k]++;

      g_assert_cmpuint (s->timestamp_us, ==, e->ts);
      g_assert_cmpuint (s->status, ==, e->status);
      g_assert_cmpuint (s->depth, ==, e->depth);
      g_assert_cmpmem (dsample_stack (d, s), s->depth * sizeof (uint32_t),
                       e->stack, e->depth * sizeof (uint32_t));
      g_assert_cmpuint (s->kind, ==, e->kind);
      if (s->kind == TACH_RECORD_REPEAT)
        {
          g_assert_cmpuint (s->run_index, ==, e->run_index);
          g_assert_cmpuint (s->run_length, ==, e->run_length);
        }
      kinds[s->kind]++;
    }
  for (guint k = 0; k < threads->len; k++)
    {
      g_assert_cmpuint (cursor[k], ==, g_array_index (threads, ModelThread, k).seq->len);
      g_array_unref (g_array_index (threads, ModelThread, k).seq);
    }
}

static void
check_round_trip (gconstpointer data)
{
  const RoundTrip *rt = data;
  g_autoptr (Profile) p = profile_new_fixed ();
  g_autoptr (GArray) index_of_spec = g_array_new (FALSE, FALSE, sizeof (uint32_t));
  char *tmp = tmp_dir_new ();
  g_autofree char *path = g_build_filename (tmp, "ours.tach", NULL);
  g_autofree char *json_path = g_build_filename (tmp, "profile.json", NULL);
  g_autofree char *ref_path = g_build_filename (tmp, "tachgen.tach", NULL);
  g_autofree char *json = NULL;
  g_autoptr (Decoded) d = NULL;
  g_autoptr (GError) error = NULL;
  const TachHeader *h;
  const TachFooter *f;
  const TachStats *st;
  guint kinds[4] = { 0 };

  write_profile (p, rt, path, index_of_spec);
  d = decoded_load (path);

  /* Header, footer and stats. */
  h = tach_reader_get_header (d->reader);
  f = tach_reader_get_footer (d->reader);
  st = tach_reader_get_stats (d->reader);
  g_assert_cmpuint (h->version, ==, 1);
  g_assert_cmpuint (h->python_major, ==, 3);
  g_assert_cmpuint (h->python_minor, ==, 15);
  g_assert_cmpuint (h->python_micro, ==, 1);
  g_assert_cmpuint (h->start_time_us, ==, p->start);
  g_assert_cmpuint (h->sample_interval_us, ==, 20000);
  g_assert_cmpuint (h->sample_count, ==, p->samples->len);
  g_assert_cmpuint (h->thread_count, ==, 6);
  g_assert_cmpuint (h->compression_type, ==, rt->zstd ? 1 : 0);
  g_assert_cmpuint (h->mode_raw, ==, 2);
  g_assert_cmpint (h->mode, ==, TACH_MODE_CPU);
  g_assert_cmpint (h->big_endian, ==, rt->big_endian);
  g_assert_cmpuint (f->file_size, ==, tach_reader_get_file_size (d->reader));
  {
    /* Every spec is distinct by value, so each interned one is a frame. */
    g_autoptr (GHashTable) names = g_hash_table_new (g_str_hash, g_str_equal);
    guint n_frames = 0;

    for (guint i = 0; i < p->specs->len; i++)
      if (g_array_index (index_of_spec, uint32_t, i) != UINT32_MAX)
        {
          const FrameSpec *spec = &g_array_index (p->specs, FrameSpec, i);

          g_hash_table_add (names, (gpointer) spec->filename);
          g_hash_table_add (names, (gpointer) spec->funcname);
          n_frames++;
        }
    g_assert_cmpuint (f->frame_count, ==, n_frames);
    g_assert_cmpuint (f->string_count, ==, g_hash_table_size (names));
  }
  for (guint i = 0; i < 16; i++)
    g_assert_cmpuint (f->checksum[i], ==, 0);
  g_assert_cmpuint (tach_reader_get_n_warnings (d->reader), ==, 0);
  g_assert_cmpint (st->present, ==, rt->stats_size != 0);
  if (rt->stats_size != 0)
    {
      g_assert_cmpuint (st->block_size, ==, rt->stats_size);
      g_assert_cmpuint (st->block_offset, ==, f->file_size - 32 - rt->stats_size);
      g_assert_cmpfloat (st->duration_sec, ==, 100.25);
      g_assert_cmpfloat (st->sample_rate, ==, 49.875);
      g_assert_cmpint (st->has_error_rate, ==, rt->has_error_rate);
      g_assert_cmpint (st->has_missed_samples, ==, rt->has_missed);
      if (rt->has_error_rate)
        g_assert_cmpfloat (st->error_rate, ==, 0.5);
      if (rt->has_missed)
        g_assert_cmpfloat (st->missed_samples, ==, -1.75);
      if (rt->stats_size == 56)
        g_assert_cmpuint (st->flags, ==,
                          (rt->has_error_rate ? 1u : 0u) | (rt->has_missed ? 2u : 0u));
    }

  /* Frames come back by value, with the §6.2 rules applied. */
  for (guint i = 0; i < p->specs->len; i++)
    {
      const FrameSpec *spec = &g_array_index (p->specs, FrameSpec, i);
      uint32_t index = g_array_index (index_of_spec, uint32_t, i);
      const TachFrame *fr;

      if (index == UINT32_MAX)
        continue;
      fr = tach_reader_get_frame (d->reader, index);
      g_assert_nonnull (fr);
      g_assert_cmpstr (tach_reader_get_string (d->reader, fr->filename, NULL), ==, spec->filename);
      g_assert_cmpstr (tach_reader_get_string (d->reader, fr->funcname, NULL), ==, spec->funcname);
      g_assert_cmpint (fr->lineno, ==, spec->lineno);
      g_assert_cmpint (fr->end_lineno, ==, spec->lineno == -1 ? -1
                       : spec->end_lineno == -1 ? spec->lineno : spec->end_lineno);
      g_assert_cmpint (fr->column, ==, spec->column);
      g_assert_cmpint (fr->end_column, ==, spec->column == -1 ? -1
                       : spec->end_column == -1 ? spec->column : spec->end_column);
      g_assert_cmpuint (fr->opcode, ==, spec->opcode >= 0 && spec->opcode <= 254
                        ? (guint) spec->opcode : 255u);
    }

  check_samples_against_model (p, index_of_spec, d, kinds);
  for (guint k = 0; k < 4; k++)
    g_assert_cmpuint (kinds[k], >, 0);

  if (!reference_mode)
    {
      tmp_dir_free (tmp);
      return;
    }

  /* tachgen reads the same samples... */
  assert_dump_matches_reference (path, d, NULL);

  /* ...and its writer, given the same calls, writes the same bytes. */
  json = profile_to_json (p, rt);
  g_file_set_contents (json_path, json, -1, &error);
  g_assert_no_error (error);
  {
    const char *args[] = {
      "fromjson", json_path, "-o", ref_path,
      "--endian", rt->big_endian ? "big" : "little",
      "--compression", rt->zstd ? "zstd" : "none",
      "--py-version", "3.15.1", "--config-raw", "2", NULL,
    };
    g_autofree char *out = run_tachgen (args);

    if (out != NULL)
      assert_same_file (path, ref_path, "round trip vs tachgen fromjson");
  }

  tmp_dir_free (tmp);
}

static const RoundTrip round_trips[] = {
  { "le/none/nostats", FALSE, FALSE, 0, FALSE, FALSE },
  { "le/none/v32", FALSE, FALSE, 32, FALSE, FALSE },
  { "le/none/v56", FALSE, FALSE, 56, FALSE, FALSE },
  { "le/none/v56-error", FALSE, FALSE, 56, TRUE, FALSE },
  { "le/none/v56-missed", FALSE, FALSE, 56, FALSE, TRUE },
  { "le/none/v56-both", FALSE, FALSE, 56, TRUE, TRUE },
  { "le/zstd/nostats", FALSE, TRUE, 0, FALSE, FALSE },
  { "le/zstd/v32", FALSE, TRUE, 32, FALSE, FALSE },
  { "le/zstd/v56", FALSE, TRUE, 56, FALSE, FALSE },
  { "le/zstd/v56-error", FALSE, TRUE, 56, TRUE, FALSE },
  { "le/zstd/v56-missed", FALSE, TRUE, 56, FALSE, TRUE },
  { "le/zstd/v56-both", FALSE, TRUE, 56, TRUE, TRUE },
  { "be/none/nostats", TRUE, FALSE, 0, FALSE, FALSE },
  { "be/none/v32", TRUE, FALSE, 32, FALSE, FALSE },
  { "be/none/v56", TRUE, FALSE, 56, FALSE, FALSE },
  { "be/none/v56-error", TRUE, FALSE, 56, TRUE, FALSE },
  { "be/none/v56-missed", TRUE, FALSE, 56, FALSE, TRUE },
  { "be/none/v56-both", TRUE, FALSE, 56, TRUE, TRUE },
  { "be/zstd/nostats", TRUE, TRUE, 0, FALSE, FALSE },
  { "be/zstd/v32", TRUE, TRUE, 32, FALSE, FALSE },
  { "be/zstd/v56", TRUE, TRUE, 56, FALSE, FALSE },
  { "be/zstd/v56-error", TRUE, TRUE, 56, TRUE, FALSE },
  { "be/zstd/v56-missed", TRUE, TRUE, 56, FALSE, TRUE },
  { "be/zstd/v56-both", TRUE, TRUE, 56, TRUE, TRUE },
};

/* Megabytes of records, so that the 512 KiB write buffer fills up many
 * times (the zstd stream is then fed in exact 512 KiB chunks). */
static Profile *
profile_new_large (void)
{
  Profile *p = profile_new_with_frames ();
  g_autoptr (GRand) rand = g_rand_new_with_seed (4242);
  guint walk[8][48];
  guint walk_depth[8] = { 0 };
  uint64_t ts = p->start;

  for (guint tick = 0; tick < 20000; tick++)
    {
      ts += g_rand_int_range (rand, 900, 1100);
      for (guint w = 0; w < 8; w++)
        {
          guint stack[48];

          if (g_rand_int_range (rand, 0, 5) < 2)
            {
              guint pop = g_rand_int_range (rand, 0, walk_depth[w] + 1);
              guint push = g_rand_int_range (rand, 0, 8);

              walk_depth[w] -= pop;
              for (guint k = 0; k < push && walk_depth[w] < 48; k++)
                walk[w][walk_depth[w]++] = g_rand_int_range (rand, 0, 323);
            }
          for (guint k = 0; k < walk_depth[w]; k++)
            stack[k] = walk[w][walk_depth[w] - 1 - k];
          profile_add (p, 1000 + w, w % 2, ts, (uint8_t) (w | 0x20), stack, walk_depth[w]);
        }
    }

  return p;
}

static void
test_large (void)
{
  static const RoundTrip raw_options = { "large", FALSE, FALSE, 56, TRUE, TRUE };
  static const RoundTrip zstd_options = { "large", FALSE, TRUE, 56, TRUE, TRUE };
  g_autoptr (Profile) p = profile_new_large ();
  g_autoptr (GArray) raw_index = g_array_new (FALSE, FALSE, sizeof (uint32_t));
  g_autoptr (GArray) zstd_index = g_array_new (FALSE, FALSE, sizeof (uint32_t));
  char *tmp = tmp_dir_new ();
  g_autofree char *raw_path = g_build_filename (tmp, "large.tach", NULL);
  g_autofree char *zstd_path = g_build_filename (tmp, "large.zst.tach", NULL);
  g_autoptr (Decoded) raw = NULL;
  g_autoptr (Decoded) zst = NULL;
  g_autoptr (GBytes) raw_bytes = NULL;
  g_autoptr (GBytes) zstd_bytes = NULL;
  g_autoptr (GByteArray) expected_payload = NULL;
  g_autofree char *raw_dump = NULL;
  g_autofree char *zstd_dump = NULL;
  const uint8_t *a, *b;
  size_t la, lb;
  uint64_t sa, sb;
  guint kinds[4] = { 0 };

  write_profile (p, &raw_options, raw_path, raw_index);
  write_profile (p, &zstd_options, zstd_path, zstd_index);
  g_assert_cmpmem (raw_index->data, raw_index->len * sizeof (uint32_t),
                   zstd_index->data, zstd_index->len * sizeof (uint32_t));

  raw = decoded_load (raw_path);
  check_samples_against_model (p, raw_index, raw, kinds);
  for (guint k = 0; k < 4; k++)
    g_assert_cmpuint (kinds[k], >, 0);

  zst = decoded_load (zstd_path);
  raw_dump = decoded_dump_raw (raw);
  zstd_dump = decoded_dump_raw (zst);
  g_assert_true (g_str_equal (raw_dump, zstd_dump));

  raw_bytes = load_file (raw_path);
  zstd_bytes = load_file (zstd_path);
  a = g_bytes_get_data (raw_bytes, &la);
  b = g_bytes_get_data (zstd_bytes, &lb);
  sa = load_uint (a + 40, 8, FALSE);
  sb = load_uint (b + 40, 8, FALSE);
  g_assert_cmpuint (sa - 64, >, 4 * 512 * 1024);

  /* The compressed region is CPython's compression of the raw records;
   * everything after it matches but for the footer's file_size. */
  expected_payload = zstd_compress_like_cpython (a + 64, sa - 64);
  g_assert_true (check_same_bytes (b + 64, sb - 64, expected_payload->data,
                                   expected_payload->len, "zstd payload"));
  g_assert_true (check_same_bytes (a + sa, la - sa - 24, b + sb, lb - sb - 24, "tables"));
  g_assert_cmpuint (load_uint (b + lb - 24, 8, FALSE), ==, lb);

  tmp_dir_free (tmp);
}

/* ------------------------------------------------------------------------ */
/* Arguments                                                                 */
/* ------------------------------------------------------------------------ */

static void
assert_stats_rejected (TachWriter      *writer,
                       const TachStats *stats,
                       const char      *expected)
{
  TachError error = { 0 };

  g_assert_cmpint (tach_writer_set_stats (writer, stats, &error), ==, TACH_ERROR_ARGUMENT);
  g_assert_cmpint (error.status, ==, TACH_ERROR_ARGUMENT);
  g_assert_nonnull (strstr (error.message, expected));
}

static void
test_invalid_stats (void)
{
  char *tmp = tmp_dir_new ();
  g_autofree char *path = g_build_filename (tmp, "stats.tach", NULL);
  const TachStats good = { .duration_sec = 2.5, .sample_rate = 998.25,
                           .has_missed_samples = true, .missed_samples = 3.5 };
  TachStats bad;
  TachWriter *writer = NULL;
  TachError error = { 0 };
  g_autoptr (TachReader) reader = NULL;
  const TachStats *st;

  g_assert_cmpint (tach_writer_new (path, NULL, &writer, &error), ==, TACH_OK);
  g_assert_cmpint (tach_writer_set_stats (writer, &good, &error), ==, TACH_OK);

  bad = good;
  bad.duration_sec = NAN;
  assert_stats_rejected (writer, &bad, "duration must be a finite non-negative value");
  bad = good;
  bad.duration_sec = -0.5;
  assert_stats_rejected (writer, &bad, "duration must be a finite non-negative value");
  bad = good;
  bad.sample_rate = -1.0;
  assert_stats_rejected (writer, &bad, "sample rate must be a finite non-negative value");
  bad = good;
  bad.sample_rate = INFINITY;
  assert_stats_rejected (writer, &bad, "sample rate must be a finite non-negative value");
  bad = good;
  bad.has_error_rate = true;
  bad.error_rate = INFINITY;
  assert_stats_rejected (writer, &bad, "error rate must be a finite non-negative value");
  bad = good;
  bad.has_error_rate = true;
  bad.error_rate = -0.25;
  assert_stats_rejected (writer, &bad, "error rate must be a finite non-negative value");
  bad = good;
  bad.missed_samples = -INFINITY;
  assert_stats_rejected (writer, &bad, "missed samples must be a finite value");
  bad = good;
  bad.block_size = 48;
  assert_stats_rejected (writer, &bad, "block size 48");
  bad = good;
  bad.block_size = 32;
  assert_stats_rejected (writer, &bad, "32-byte block");

  /* Values whose flag is clear are not looked at (CPython's rule). */
  bad = good;
  bad.error_rate = NAN;
  bad.has_missed_samples = false;
  bad.missed_samples = INFINITY;
  g_assert_cmpint (tach_writer_set_stats (writer, &bad, &error), ==, TACH_OK);
  /* A rejected call leaves the last accepted stats in place. */
  bad.sample_rate = NAN;
  assert_stats_rejected (writer, &bad, "sample rate");
  g_assert_cmpint (tach_writer_finish (writer, &error), ==, TACH_OK);

  g_assert_cmpint (tach_reader_open_path (path, &reader, &error), ==, TACH_OK);
  st = tach_reader_get_stats (reader);
  g_assert_true (st->present);
  g_assert_cmpuint (st->block_size, ==, 56);
  g_assert_cmpuint (st->flags, ==, 0);
  g_assert_cmpfloat (st->duration_sec, ==, 2.5);
  g_assert_cmpfloat (st->sample_rate, ==, 998.25);
  g_assert_false (st->has_error_rate);
  g_assert_false (st->has_missed_samples);
  tmp_dir_free (tmp);
}

static void
test_bad_arguments (void)
{
  char *tmp = tmp_dir_new ();
  g_autofree char *path = g_build_filename (tmp, "args.tach", NULL);
  g_autofree char *nowhere = g_build_filename (tmp, "no", "such", "dir.tach", NULL);
  TachWriterOptions options = { .zstd = true, .zstd_level = 1000 };
  TachFrameInfo info = { "a.py", "f", 1, 1, 0, 0, 0 };
  TachFrameInfo no_name = { NULL, "f", 1, 1, 0, 0, 0 };
  TachWriter *writer = NULL;
  TachError error = { 0 };
  uint32_t index, frames[2];

  g_assert_cmpint (tach_writer_new (nowhere, NULL, &writer, &error), ==, TACH_ERROR_IO);
  g_assert_null (writer);
  g_assert_nonnull (strstr (error.message, "dir.tach"));

  g_assert_cmpint (tach_writer_new (path, &options, &writer, &error), ==, TACH_ERROR_ARGUMENT);
  g_assert_null (writer);
  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));

  g_assert_cmpint (tach_writer_new (path, NULL, &writer, &error), ==, TACH_OK);
  g_assert_true (g_file_test (path, G_FILE_TEST_EXISTS));
  g_assert_cmpint (tach_writer_intern_frame (writer, &no_name, &index, &error),
                   ==, TACH_ERROR_ARGUMENT);
  g_assert_cmpint (tach_writer_intern_frame (writer, &info, &index, &error), ==, TACH_OK);
  g_assert_cmpuint (index, ==, 0);

  /* An index that was never handed out is refused, and nothing is written. */
  frames[0] = 0;
  frames[1] = 1;
  g_assert_cmpint (tach_writer_add_sample (writer, 1, 0, 10, 0, frames, 2, &error),
                   ==, TACH_ERROR_ARGUMENT);
  g_assert_nonnull (strstr (error.message, "frame index 1"));
  g_assert_cmpint (tach_writer_add_sample (writer, 1, 0, 10, 0, NULL, 1, &error),
                   ==, TACH_ERROR_ARGUMENT);

  /* Abort removes what was written. */
  g_assert_cmpint (tach_writer_add_sample (writer, 1, 0, 10, 0, frames, 1, &error), ==, TACH_OK);
  tach_writer_abort (writer);
  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
  tach_writer_abort (NULL);

  tmp_dir_free (tmp);
}

int
main (int    argc,
      char **argv)
{
  const char *prefix;

  /* Before g_test_init (), which would take it for a file name. */
  for (int i = 1; i < argc; i++)
    if (strcmp (argv[i], "--reference") == 0)
      {
        reference_mode = TRUE;
        memmove (&argv[i], &argv[i + 1], (argc - i) * sizeof *argv);
        argc--;
        break;
      }
  g_test_init (&argc, &argv, NULL);

  if (reference_mode && tachgen_path () == NULL)
    {
      /* Not a failure: run-tests.sh leaves the reference suite out then,
       * and says so. */
      g_print ("1..0 # SKIP the reference reader is not found: set TACHGEN to tachgen.py, "
               "or put shared/ beside the source\n");
      return 0;
    }

  /* The corpus re-encoded and the round trips again, now against tachgen;
   * nothing else. */
  prefix = reference_mode ? "/format/writer/reference" : "/format/writer";
  {
    g_autofree char *name = g_strdup_printf ("%s/corpus/reencode", prefix);

    g_test_add_func (name, test_reencode_corpus);
  }
  for (size_t i = 0; i < G_N_ELEMENTS (round_trips); i++)
    {
      g_autofree char *name = g_strdup_printf ("%s/roundtrip/%s", prefix, round_trips[i].name);

      g_test_add_data_func (name, &round_trips[i], check_round_trip);
    }
  if (reference_mode)
    return g_test_run ();

  g_test_add_func ("/format/writer/corpus/tiny-by-hand", test_tiny_by_hand);
  g_test_add_func ("/format/writer/corpus/empty", test_empty);
  g_test_add_func ("/format/writer/large", test_large);
  g_test_add_func ("/format/writer/stats/invalid", test_invalid_stats);
  g_test_add_func ("/format/writer/arguments", test_bad_arguments);

  return g_test_run ();
}
