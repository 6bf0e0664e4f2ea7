/* test-corpus.c: every corpus file gets the outcome the corpus lists
 *
 * The expectations are the reference reader's, tachgen.py's, written into
 * tests/data/corpus-expected.tsv by tests/data/make-expected.py.  Each
 * valid file is also decoded sample by sample, in every way the decoder
 * offers, and must give exactly the reference's samples: the SHA-256 of
 * its `dump --raw`, which the file holds too.
 */
#include <inttypes.h>
#include <string.h>

#include <glib.h>

#include "tachyon-format.h"

typedef struct
{
  char    *file;
  gboolean ok;
  char    *phase;
  guint64  samples;
  guint64  threads;
  guint64  max_depth;
  gint64   min_ts;
  gint64   max_ts;
  guint64  bits[6];
  guint64  records[4];
  guint64  n_warnings;
  char    *error;
  char    *samples_sha256;    /* of the reference's `dump --raw` */
} Expected;

/* Where we differ from CPython on purpose, and why. */
static const struct
{
  const char *file;
  gboolean    ok;
  const char *phase;
  const char *message;
} deliberate[] = {
  /* CPython reads unknown compression types as raw samples; we refuse to
   * guess (issue #2). */
  { "valid/compression_type_7.tach", FALSE, "open", "compression type 7 is not supported" },
  /* A 3.15 pre-release header is named as such instead of a confusing
   * offset error (SPEC §3.2). */
  { "invalid/beta_layout_u32_samples.tach", FALSE, "open",
    "written by a CPython 3.15 pre-release; header layout not supported" },
  /* We are not a Python interpreter, so the end of the message differs. */
  { "invalid/future_version.tach", FALSE, "open",
    "Binary file was created with Python 3.15.0 (format version 2), but this reader supports "
    "format version 1" },
  /* The sample region is decompressed as it is decoded, so that the
   * header, footer and stats are available at once: zstd payload errors
   * surface when decoding, not at open. */
  { "invalid/zstd_corrupt_payload.tach", FALSE, "replay",
    "zstd decompression error: Data corruption detected" },
  { "invalid/zstd_truncated_stream.tach", FALSE, "replay",
    "Incomplete zstd frame: data may be truncated" },
};

static GPtrArray *expectations;

static void
expected_free (gpointer data)
{
  Expected *e = data;

  g_free (e->file);
  g_free (e->phase);
  g_free (e->error);
  g_free (e->samples_sha256);
  g_free (e);
}

static void
load_expectations (void)
{
  g_autofree char *path = g_build_filename (g_getenv ("TACH_TEST_DATA"),
                                            "corpus-expected.tsv", NULL);
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;
  g_autoptr(GError) error = NULL;

  g_file_get_contents (path, &text, NULL, &error);
  g_assert_no_error (error);
  expectations = g_ptr_array_new_with_free_func (expected_free);
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_auto(GStrv) f = g_strsplit (lines[i], "\t", -1);
      Expected *e;

      if (lines[i][0] == '\0')
        continue;
      g_assert_cmpuint (g_strv_length (f), ==, 21);
      e = g_new0 (Expected, 1);
      e->file = g_strdup (f[0]);
      e->ok = f[1][0] == '1';
      e->phase = g_strdup (f[2]);
      e->samples = g_ascii_strtoull (f[3], NULL, 10);
      e->threads = g_ascii_strtoull (f[4], NULL, 10);
      e->max_depth = g_ascii_strtoull (f[5], NULL, 10);
      e->min_ts = g_ascii_strtoll (f[6], NULL, 10);
      e->max_ts = g_ascii_strtoll (f[7], NULL, 10);
      for (guint b = 0; b < 6; b++)
        e->bits[b] = g_ascii_strtoull (f[8 + b], NULL, 10);
      for (guint k = 0; k < 4; k++)
        e->records[k] = g_ascii_strtoull (f[14 + k], NULL, 10);
      e->n_warnings = g_ascii_strtoull (f[18], NULL, 10);
      e->error = g_strdup (f[19]);
      e->samples_sha256 = g_strdup (f[20]);
      g_ptr_array_add (expectations, e);
    }
  g_assert_cmpuint (expectations->len, >, 60);
}

static char *
data_path (const char *file)
{
  return g_build_filename (g_getenv ("TACH_TEST_DATA"), file, NULL);
}

/* Decodes FILE to text in tachgen's `dump --raw` format, one line per
 * sample: interpreter, thread, timestamp, status, frames innermost first. */
typedef enum
{
  BY_SAMPLE,
  BY_BATCH,
  MIXED,        /* alternate the two calls */
} ReadMode;

static void
append_sample (GString          *out,
               const TachSample *s,
               guint64           timestamp,
               guint8            status)
{
  g_string_append_printf (out, "%u %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT " %u ",
                          s->interpreter_id, s->thread_id, timestamp, status);
  for (guint i = 0; i < s->depth; i++)
    g_string_append_printf (out, i ? ",%u" : "%u", s->stack[i]);
  g_string_append_c (out, '\n');
}

/* Decodes FILE to text in tachgen's `dump --raw` format, one line per
 * sample: interpreter, thread, timestamp, status, frames innermost first. */
static char *
decode_to_text_full (const char *path,
                     gboolean    pipelined,
                     ReadMode    mode,
                     TachError  *error,
                     int        *rc)
{
  g_autoptr(GString) out = g_string_new (NULL);
  TachReader *reader = NULL;
  TachDecoder *decoder = NULL;
  guint64 n = 0;

  if (tach_reader_open_path (path, &reader, error) != TACH_OK)
    {
      *rc = -2;
      return NULL;
    }
  g_assert_cmpint (tach_decoder_new (reader, &decoder, error), ==, TACH_OK);
  tach_decoder_set_pipelined (decoder, pipelined);
  for (guint call = 0;; call++)
    {
      if (mode == BY_SAMPLE || (mode == MIXED && call % 2 == 0))
        {
          TachSample s;

          if ((*rc = tach_decoder_next (decoder, &s, error)) != 1)
            break;
          append_sample (out, &s, s.timestamp_us, s.status);
          n++;
        }
      else
        {
          TachBatch b;

          if ((*rc = tach_decoder_next_batch (decoder, &b, error)) != 1)
            break;
          g_assert_cmpuint (b.n, >=, 1);
          g_assert_cmpuint (b.n, <=, TACH_BATCH_MAX);
          g_assert_cmpuint (b.sample.timestamp_us, ==, b.timestamps[0]);
          g_assert_cmpuint (b.sample.status, ==, b.statuses[0]);
          g_assert_cmpuint (b.sample.run_index + b.n, <=, b.sample.run_length);
          if (b.sample.kind != TACH_RECORD_REPEAT)
            g_assert_cmpuint (b.n, ==, 1);
          for (guint i = 0; i < b.n; i++)
            append_sample (out, &b.sample, b.timestamps[i], b.statuses[i]);
          n += b.n;
        }
    }
  if (*rc == 0)
    g_assert_cmpuint (n, ==, tach_decoder_get_samples_decoded (decoder));
  tach_decoder_free (decoder);
  tach_reader_free (reader);
  return g_string_free (g_steal_pointer (&out), FALSE);
}

static char *
decode_to_text (const char *path,
                TachError  *error,
                int        *rc)
{
  return decode_to_text_full (path, FALSE, BY_SAMPLE, error, rc);
}

static void
check_valid (const Expected *e)
{
  g_autofree char *path = data_path (e->file);
  TachReader *reader = NULL;
  TachDecoder *decoder = NULL;
  TachError error = { 0 };
  TachSample s;
  guint64 samples = 0, bits[6] = { 0 }, records[4] = { 0 };
  guint64 max_depth = 0;
  gint64 min_ts = -1, max_ts = -1;
  g_autoptr(GHashTable) threads = g_hash_table_new (NULL, NULL);
  int rc;

  if (tach_reader_open_path (path, &reader, &error) != TACH_OK)
    g_error ("%s: %s", e->file, error.message);

  g_assert_cmpuint (tach_reader_get_n_warnings (reader), ==, e->n_warnings);
  g_assert_cmpint (tach_decoder_new (reader, &decoder, &error), ==, TACH_OK);
  while ((rc = tach_decoder_next (decoder, &s, &error)) == 1)
    {
      samples++;
      g_hash_table_add (threads, GUINT_TO_POINTER (s.thread_index + 1));
      max_depth = MAX (max_depth, s.depth);
      if (min_ts < 0 || (gint64) s.timestamp_us < min_ts)
        min_ts = (gint64) s.timestamp_us;
      if (max_ts < 0 || (gint64) s.timestamp_us > max_ts)
        max_ts = (gint64) s.timestamp_us;
      for (guint b = 0; b < 6; b++)
        if (s.status & (1u << b))
          bits[b]++;
      if (s.run_index == 0)
        records[s.kind]++;

      /* The record shape describes the change from the thread's last stack. */
      g_assert_cmpuint (s.keep + s.push, ==, s.depth);
      g_assert_cmpuint (s.run_index, <, s.run_length);
    }
  if (rc != 0)
    g_error ("%s: %s", e->file, error.message);

  g_assert_cmpuint (samples, ==, e->samples);
  g_assert_cmpuint (samples, ==, tach_decoder_get_samples_decoded (decoder));
  g_assert_cmpuint (g_hash_table_size (threads), ==, e->threads);
  g_assert_cmpuint (max_depth, ==, e->max_depth);
  if (e->samples > 0)
    {
      g_assert_cmpint (min_ts, ==, e->min_ts);
      g_assert_cmpint (max_ts, ==, e->max_ts);
    }
  for (guint b = 0; b < 6; b++)
    g_assert_cmpuint (bits[b], ==, e->bits[b]);
  for (guint k = 1; k < 4; k++)
    g_assert_cmpuint (records[k], ==, e->records[k]);
  /* A REPEAT record with count 0 delivers no sample, so it cannot be seen;
   * repeat_count_zero.tach holds exactly one. */
  g_assert_cmpuint (records[0] + (strstr (e->file, "repeat_count_zero") ? 1 : 0), ==,
                    e->records[0]);
  g_assert_cmpuint (tach_decoder_get_bytes_consumed (decoder), ==,
                    tach_reader_get_sample_region_size (reader));

  /* Finished decoders stay finished. */
  g_assert_cmpint (tach_decoder_next (decoder, &s, &error), ==, 0);

  tach_decoder_free (decoder);
  tach_reader_free (reader);
}

static void
check_invalid_full (const Expected *e,
                    const char     *phase,
                    const char     *message,
                    gboolean        pipelined)
{
  g_autofree char *path = data_path (e->file);
  TachReader *reader = NULL;
  TachDecoder *decoder = NULL;
  TachError error = { 0 };
  TachSample s;
  int rc;

  if (tach_reader_open_path (path, &reader, &error) != TACH_OK)
    {
      g_assert_null (reader);
      g_assert_cmpstr (phase, ==, "open");
      g_assert_cmpint (error.phase, ==, TACH_PHASE_OPEN);
    }
  else
    {
      g_assert_cmpstr (phase, ==, "replay");
      g_assert_cmpint (tach_decoder_new (reader, &decoder, &error), ==, TACH_OK);
      tach_decoder_set_pipelined (decoder, pipelined);
      if (pipelined)
        {
          TachBatch b;
          while ((rc = tach_decoder_next_batch (decoder, &b, &error)) == 1)
            ;
        }
      else
        while ((rc = tach_decoder_next (decoder, &s, &error)) == 1)
          ;
      g_assert_cmpint (rc, ==, -1);
      g_assert_cmpint (error.phase, ==, TACH_PHASE_DECODE);

      /* Failed decoders keep failing, with the same message. */
      {
        TachError again = { 0 };
        g_assert_cmpint (tach_decoder_next (decoder, &s, &again), ==, -1);
        g_assert_cmpstr (again.message, ==, error.message);
      }
      tach_decoder_free (decoder);
      tach_reader_free (reader);
    }

  g_test_message ("%s: %s", e->file, error.message);
  g_assert_cmpint (error.status, !=, TACH_OK);
  if (strstr (error.message, message) == NULL)
    g_error ("%s: expected “%s” in “%s”", e->file, message, error.message);
  /* Every message says where: a byte offset or a field. */
  g_assert_true (strstr (error.message, "byte") != NULL);
}

static void
check_invalid (const Expected *e,
               const char     *phase,
               const char     *message)
{
  check_invalid_full (e, phase, message, FALSE);
  check_invalid_full (e, phase, message, TRUE);
}

static void
test_file (gconstpointer data)
{
  const Expected *e = data;

  for (guint i = 0; i < G_N_ELEMENTS (deliberate); i++)
    if (g_str_equal (deliberate[i].file, e->file))
      {
        check_invalid (e, deliberate[i].phase, deliberate[i].message);
        return;
      }

  if (e->ok)
    check_valid (e);
  else
    {
      /* Drop the reference reader's note on how it printed the magic. */
      g_autofree char *message = g_strdup (e->error);
      char *note = strstr (message, " (as read on");
      if (note)
        *note = '\0';
      check_invalid (e, e->phase, message);
    }
}

/* Sample by sample, the reference reader's samples: the digest of its
 * `dump --raw`. */
static void
test_reference (gconstpointer data)
{
  const Expected *e = data;
  g_autofree char *path = data_path (e->file);
  g_autofree char *ours = NULL;
  g_autofree char *digest = NULL;
  TachError error = { 0 };
  int rc;

  g_assert_cmpuint (strlen (e->samples_sha256), ==, 64);
  ours = decode_to_text (path, &error, &rc);
  if (rc != 0)
    g_error ("%s: %s", e->file, error.message);
  digest = g_compute_checksum_for_string (G_CHECKSUM_SHA256, ours, -1);
  if (!g_str_equal (digest, e->samples_sha256))
    g_error ("%s: our samples are not the reference reader's (the SHA-256 of their "
             "`dump --raw` is %s, the reference's %s)", e->file, digest, e->samples_sha256);

  /* The same by batches, mixed, and through the decompression thread,
   * which big files use. */
  for (ReadMode mode = BY_SAMPLE; mode <= MIXED; mode++)
    for (int pipelined = 0; pipelined < 2; pipelined++)
      {
        g_autofree char *text = NULL;

        if (mode == BY_SAMPLE && !pipelined)
          continue;
        if (pipelined && strstr (e->file, ".zst.") == NULL)
          continue;
        text = decode_to_text_full (path, pipelined, mode, &error, &rc);
        if (rc != 0)
          g_error ("%s: %s", e->file, error.message);
        g_assert_cmpstr (text, ==, ours);
      }
}

/* The big-endian file and its little-endian twin hold the same samples, and
 * so does the compressed copy. */
static void
test_cross_endian (void)
{
  const char *files[] = { "valid/bigendian.tach", "valid/littleendian_twin.tach",
                          "valid/bigendian.zst.tach" };
  g_autofree char *first = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (files); i++)
    {
      g_autofree char *path = data_path (files[i]);
      TachReader *reader = NULL;
      TachError error = { 0 };
      char *text;
      int rc;

      g_assert_cmpint (tach_reader_open_path (path, &reader, &error), ==, TACH_OK);
      g_assert_cmpint (tach_reader_get_header (reader)->big_endian, ==, i != 1);
      g_assert_cmpuint (tach_reader_get_header (reader)->sample_count, ==, 20000);
      g_assert_cmpuint (tach_reader_get_header (reader)->start_time_us, ==, 1000000000);
      g_assert_cmpint (tach_reader_get_header (reader)->mode, ==, TACH_MODE_CPU);
      g_assert_true (tach_reader_get_stats (reader)->present);
      g_assert_cmpfloat (tach_reader_get_stats (reader)->error_rate, ==, 0.25);
      g_assert_cmpfloat (tach_reader_get_stats (reader)->missed_samples, ==, 1.5);
      tach_reader_free (reader);

      text = decode_to_text (path, &error, &rc);
      g_assert_cmpint (rc, ==, 0);
      g_assert_cmpuint (strlen (text), >, 20000 * 10);
      if (first == NULL)
        first = text;
      else
        {
          g_assert_cmpstr (text, ==, first);
          g_free (text);
        }
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  load_expectations ();

  for (guint i = 0; i < expectations->len; i++)
    {
      const Expected *e = g_ptr_array_index (expectations, i);
      g_autofree char *name = g_strdup_printf ("/format/corpus/%s", e->file);

      g_test_add_data_func (name, e, test_file);
      if (e->ok && !g_str_equal (e->file, "valid/compression_type_7.tach"))
        {
          g_autofree char *ref = g_strdup_printf ("/format/corpus/reference/%s", e->file);
          g_test_add_data_func (ref, e, test_reference);
        }
    }
  g_test_add_func ("/format/corpus/cross-endian", test_cross_endian);

  return g_test_run ();
}
