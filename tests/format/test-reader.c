/* test-reader.c: the reader and decoder on hand-built files
 *
 * These files are built byte by byte here, independently of the writer, so
 * that a bug shared by the two cannot hide itself.
 */
#include <inttypes.h>
#include <string.h>
#include <sys/resource.h>

#include <glib.h>
#include <glib/gstdio.h>

#include <zstd.h>

#include "tachyon-format.h"

/* A little-endian file under construction. */
typedef struct
{
  GByteArray *bytes;
  guint       n_strings;
  guint       n_frames;
} Builder;

static void
put (Builder    *b,
     const void *data,
     gsize       len)
{
  g_byte_array_append (b->bytes, data, (guint) len);
}

static void
put_u8 (Builder *b,
        guint8   v)
{
  put (b, &v, 1);
}

static void
put_u32 (Builder *b,
         guint32  v)
{
  guint32 le = GUINT32_TO_LE (v);
  put (b, &le, 4);
}

static void
put_u64 (Builder *b,
         guint64  v)
{
  guint64 le = GUINT64_TO_LE (v);
  put (b, &le, 8);
}

static void
put_varint (Builder *b,
            guint64  v)
{
  do
    {
      guint8 byte = v & 0x7f;
      v >>= 7;
      put_u8 (b, byte | (v ? 0x80 : 0));
    }
  while (v);
}

static void
put_svarint (Builder *b,
             gint32   v)
{
  put_varint (b, ((guint32) v << 1) ^ (guint32) (v >> 31));
}

static Builder *
builder_new (void)
{
  Builder *b = g_new0 (Builder, 1);
  static const guint8 zeros[64];

  b->bytes = g_byte_array_new ();
  put (b, zeros, 64);
  return b;
}

static void
put_prefix (Builder *b,
            guint64  tid,
            guint32  iid,
            guint8   kind)
{
  put_u64 (b, tid);
  put_u32 (b, iid);
  put_u8 (b, kind);
}

/* Appends the tables and footer, fills in the header and returns the
 * bytes.  STRINGS are raw byte strings; every frame is (i % n, i % n). */
static GBytes *
builder_finish (Builder             *b,
                guint64              samples,
                guint32              threads,
                const char * const  *strings,
                const gsize         *lengths,
                guint                n_strings,
                guint                n_frames)
{
  guint64 string_offset = b->bytes->len;
  guint64 frame_offset;
  guint8 *h;

  for (guint i = 0; i < n_strings; i++)
    {
      put_varint (b, lengths[i]);
      put (b, strings[i], lengths[i]);
    }
  frame_offset = b->bytes->len;
  for (guint i = 0; i < n_frames; i++)
    {
      put_varint (b, i % n_strings);
      put_varint (b, i % n_strings);
      put_svarint (b, (gint32) i + 1);
      put_svarint (b, 0);
      put_svarint (b, -1);
      put_svarint (b, 0);
      put_u8 (b, 255);
    }
  put_u32 (b, n_strings);
  put_u32 (b, n_frames);
  put_u64 (b, b->bytes->len + 8 + 16);
  for (guint i = 0; i < 16; i++)
    put_u8 (b, 0);

  h = b->bytes->data;
  memcpy (h, "HCAT", 4);
  h[4] = 1;
  h[8] = 3;
  h[9] = 15;
  {
    guint64 v;
    guint32 w;
#define SET64(off, val) (v = GUINT64_TO_LE (val), memcpy (h + (off), &v, 8))
#define SET32(off, val) (w = GUINT32_TO_LE (val), memcpy (h + (off), &w, 4))
    SET64 (12, 1000);
    SET64 (20, 1000);
    SET64 (28, samples);
    SET32 (36, threads);
    SET64 (40, string_offset);
    SET64 (48, frame_offset);
#undef SET64
#undef SET32
  }

  {
    GBytes *bytes = g_byte_array_free_to_bytes (b->bytes);
    g_free (b);
    return bytes;
  }
}

static GBytes *
simple_finish (Builder *b,
               guint64  samples,
               guint32  threads,
               guint    n_frames)
{
  static const char *const strings[] = { "app.py", "f" };
  static const gsize lengths[] = { 6, 1 };

  return builder_finish (b, samples, threads, strings, lengths, 2, n_frames);
}

typedef struct
{
  TachReader  *reader;
  TachDecoder *decoder;
  TachError    error;
  GPtrArray   *lines;
  int          rc;
} Decoded;

static void
decoded_clear (Decoded *d)
{
  tach_decoder_free (d->decoder);
  tach_reader_free (d->reader);
  g_clear_pointer (&d->lines, g_ptr_array_unref);
}

/* Opens BYTES and decodes every sample to "tid:ts:status:f0,f1,..". */
static void
decode_bytes (GBytes  *bytes,
              Decoded *d)
{
  gsize size;
  const void *data = g_bytes_get_data (bytes, &size);
  TachSample s;

  memset (d, 0, sizeof *d);
  d->lines = g_ptr_array_new_with_free_func (g_free);
  if (tach_reader_open_memory (data, size, &d->reader, &d->error) != TACH_OK)
    {
      d->rc = -2;
      return;
    }
  g_assert_cmpint (tach_decoder_new (d->reader, &d->decoder, &d->error), ==, TACH_OK);
  while ((d->rc = tach_decoder_next (d->decoder, &s, &d->error)) == 1)
    {
      GString *line = g_string_new (NULL);

      g_string_append_printf (line, "%" G_GUINT64_FORMAT ":%" G_GUINT64_FORMAT ":%u:",
                              s.thread_id, s.timestamp_us, s.status);
      for (guint i = 0; i < s.depth; i++)
        g_string_append_printf (line, i ? ",%u" : "%u", s.stack[i]);
      g_ptr_array_add (d->lines, g_string_free (line, FALSE));
    }
}

static void
assert_lines (Decoded     *d,
              const char **expected)
{
  guint n = g_strv_length ((char **) expected);

  if (d->rc != 0)
    g_error ("decode failed: %s", d->error.message);
  for (guint i = 0; i < MIN (n, d->lines->len); i++)
    g_assert_cmpstr (g_ptr_array_index (d->lines, i), ==, expected[i]);
  g_assert_cmpuint (d->lines->len, ==, n);
}

/* SPEC §4.6: every record kind, with the quirks CPython has. */
static void
test_record_kinds (void)
{
  Builder *b = builder_new ();
  g_autoptr(GBytes) bytes = NULL;
  Decoded d;
  const char *expected[] = {
    "7:1010:1:0,1,2",        /* FULL */
    "7:1020:3:0,1,2",        /* REPEAT x2 */
    "7:1021:2:0,1,2",
    "7:1030:1:3,4,1,2",      /* POP_PUSH pop 1 push 2 */
    "7:1040:1:5,2",          /* SUFFIX shared 1 new 1 */
    "7:1050:1:5",            /* SUFFIX shared 1 new 0: the innermost entry */
    "7:1060:1:6",            /* POP_PUSH pop 9 > depth: keep 0 */
    "7:1070:1:",             /* FULL depth 0 */
    NULL,
  };

  put_prefix (b, 7, 0, TACH_RECORD_FULL);
  put_varint (b, 10);
  put_u8 (b, 1);
  put_varint (b, 3);
  put_varint (b, 0);
  put_varint (b, 1);
  put_varint (b, 2);

  put_prefix (b, 7, 0, TACH_RECORD_REPEAT);
  put_varint (b, 2);
  put_varint (b, 10);
  put_u8 (b, 3);
  put_varint (b, 1);
  put_u8 (b, 2);

  put_prefix (b, 7, 0, TACH_RECORD_POP_PUSH);
  put_varint (b, 9);
  put_u8 (b, 1);
  put_varint (b, 1);
  put_varint (b, 2);
  put_varint (b, 3);
  put_varint (b, 4);

  put_prefix (b, 7, 0, TACH_RECORD_SUFFIX);
  put_varint (b, 10);
  put_u8 (b, 1);
  put_varint (b, 1);
  put_varint (b, 1);
  put_varint (b, 5);

  put_prefix (b, 7, 0, TACH_RECORD_SUFFIX);
  put_varint (b, 10);
  put_u8 (b, 1);
  put_varint (b, 1);
  put_varint (b, 0);

  put_prefix (b, 7, 0, TACH_RECORD_POP_PUSH);
  put_varint (b, 10);
  put_u8 (b, 1);
  put_varint (b, 9);
  put_varint (b, 1);
  put_varint (b, 6);

  put_prefix (b, 7, 0, TACH_RECORD_FULL);
  put_varint (b, 10);
  put_u8 (b, 1);
  put_varint (b, 0);

  bytes = simple_finish (b, 8, 1, 7);
  decode_bytes (bytes, &d);
  assert_lines (&d, expected);
  decoded_clear (&d);
}

/* The shape fields let a consumer follow the stack without comparing it. */
static void
test_record_shape (void)
{
  Builder *b = builder_new ();
  g_autoptr(GBytes) bytes = NULL;
  gsize size;
  const void *data;
  TachReader *reader;
  TachDecoder *decoder;
  TachError error;
  TachSample s;
  static const struct { guint8 kind; guint16 pop, keep, push; guint32 run_index, run_length; }
  expected[] = {
    { TACH_RECORD_FULL, 0, 0, 3, 0, 1 },
    { TACH_RECORD_REPEAT, 0, 3, 0, 0, 2 },
    { TACH_RECORD_REPEAT, 0, 3, 0, 1, 2 },
    { TACH_RECORD_POP_PUSH, 1, 2, 1, 0, 1 },
    { TACH_RECORD_SUFFIX, 3, 0, 1, 0, 1 },   /* new_count 0 quirk: a new stack */
  };

  put_prefix (b, 1, 0, TACH_RECORD_FULL);
  put_varint (b, 1);
  put_u8 (b, 0);
  put_varint (b, 3);
  put_varint (b, 0);
  put_varint (b, 1);
  put_varint (b, 2);
  put_prefix (b, 1, 0, TACH_RECORD_REPEAT);
  put_varint (b, 2);
  put_varint (b, 1);
  put_u8 (b, 0);
  put_varint (b, 1);
  put_u8 (b, 0);
  put_prefix (b, 1, 0, TACH_RECORD_POP_PUSH);
  put_varint (b, 1);
  put_u8 (b, 0);
  put_varint (b, 1);
  put_varint (b, 1);
  put_varint (b, 3);
  put_prefix (b, 1, 0, TACH_RECORD_SUFFIX);
  put_varint (b, 1);
  put_u8 (b, 0);
  put_varint (b, 1);
  put_varint (b, 0);
  bytes = simple_finish (b, 5, 1, 4);
  data = g_bytes_get_data (bytes, &size);

  g_assert_cmpint (tach_reader_open_memory (data, size, &reader, &error), ==, TACH_OK);
  g_assert_cmpint (tach_decoder_new (reader, &decoder, &error), ==, TACH_OK);
  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    {
      g_assert_cmpint (tach_decoder_next (decoder, &s, &error), ==, 1);
      g_assert_cmpuint (s.kind, ==, expected[i].kind);
      g_assert_cmpuint (s.pop, ==, expected[i].pop);
      g_assert_cmpuint (s.keep, ==, expected[i].keep);
      g_assert_cmpuint (s.push, ==, expected[i].push);
      g_assert_cmpuint (s.run_index, ==, expected[i].run_index);
      g_assert_cmpuint (s.run_length, ==, expected[i].run_length);
    }
  /* After the quirk the stack is the innermost frame of the old one. */
  g_assert_cmpuint (s.depth, ==, 1);
  g_assert_cmpuint (s.stack[0], ==, 3);
  g_assert_cmpint (tach_decoder_next (decoder, &s, &error), ==, 0);
  g_assert_cmpuint (tach_decoder_get_n_threads (decoder), ==, 1);
  g_assert_cmpuint (tach_decoder_get_thread (decoder, 0)->thread_id, ==, 1);
  g_assert_null (tach_decoder_get_thread (decoder, 1));
  tach_decoder_free (decoder);
  tach_reader_free (reader);
}

/* SPEC §1 and §4.7: ten-byte varints, wrap-around timestamps, threads keyed
 * by (thread, interpreter), status bits passed through. */
static void
test_varints_and_time (void)
{
  Builder *b = builder_new ();
  g_autoptr(GBytes) bytes = NULL;
  Decoded d;
  const char *expected[] = {
    "18446744073709551615:1001:255:0",
    "18446744073709551615:1001:64:0",
    "18446744073709551615:500:0:0",
    "18446744073709551615:2000:0:1",
    NULL,
  };
  static const guint8 ten_byte_minus_501[] = {
    0x8b, 0xfc, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01,
  };
  static const guint8 padded_one[] = { 0x81, 0x80, 0x80, 0x00 };

  /* Thread u64 max in interpreter 0 and interpreter 3: two threads, each
   * with its own previous stack and time. */
  put_prefix (b, G_MAXUINT64, 0, TACH_RECORD_FULL);
  put_varint (b, 1);
  put_u8 (b, 255);
  put_varint (b, 1);
  put_varint (b, 0);
  put_prefix (b, G_MAXUINT64, 3, TACH_RECORD_FULL);
  put_varint (b, 1);
  put_u8 (b, 64);
  put_varint (b, 1);
  put_varint (b, 0);
  /* A backwards step, written as the 2^64-wrapped delta. */
  put_prefix (b, G_MAXUINT64, 0, TACH_RECORD_REPEAT);
  put_varint (b, 1);
  put (b, ten_byte_minus_501, sizeof ten_byte_minus_501);
  put_u8 (b, 0);
  /* A non-canonical (padded) frame index is still legal. */
  put_prefix (b, G_MAXUINT64, 3, TACH_RECORD_FULL);
  put_varint (b, 999);
  put_u8 (b, 0);
  put_varint (b, 1);
  put (b, padded_one, sizeof padded_one);

  bytes = simple_finish (b, 4, 2, 2);
  decode_bytes (bytes, &d);
  assert_lines (&d, expected);
  decoded_clear (&d);
}

/* A file body whose first record, in thread 1, is of KIND: the test
 * appends the rest of it. */
static Builder *
record_builder (guint8 kind)
{
  Builder *b = builder_new ();

  put_prefix (b, 1, 0, kind);
  return b;
}

/* Finishes B as a file of SAMPLES samples in one thread, with one frame,
 * and asserts that decoding it fails with MESSAGE. */
static void
expect_record_error (Builder    *b,
                     guint64     samples,
                     const char *message)
{
  g_autoptr(GBytes) bytes = simple_finish (b, samples, 1, 1);
  Decoded d;

  decode_bytes (bytes, &d);
  g_assert_cmpint (d.rc, ==, -1);
  g_assert_cmpint (d.error.phase, ==, TACH_PHASE_DECODE);
  if (strstr (d.error.message, message) == NULL)
    g_error ("expected “%s” in “%s”", message, d.error.message);
  decoded_clear (&d);
}

static void
test_decode_errors (void)
{
  static const guint8 eleven[] = {
    0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01,
  };
  Builder *b;

  /* A tenth continuation byte. */
  b = record_builder (TACH_RECORD_FULL);
  put (b, eleven, sizeof eleven);
  put_u8 (b, 0);
  expect_record_error (b, 1, "Malformed varint in sample data (FULL record at byte 64)");

  /* A frame index that needs more than 32 bits. */
  b = record_builder (TACH_RECORD_FULL);
  put_varint (b, 1);
  put_u8 (b, 0);
  put_varint (b, 1);
  put_varint (b, G_GUINT64_CONSTANT (0x100000000));
  expect_record_error (b, 1, "Invalid or incomplete varint in binary data");

  /* Varint errors in a record come before its frame checks. */
  b = record_builder (TACH_RECORD_FULL);
  put_varint (b, 1);
  put_u8 (b, 0);
  put_varint (b, 2);
  put_varint (b, 77);
  put_u8 (b, 0x80);
  expect_record_error (b, 1, "Invalid or incomplete varint in binary data");

  /* Popping to a depth above 256. */
  b = record_builder (TACH_RECORD_POP_PUSH);
  put_varint (b, 1);
  put_u8 (b, 0);
  put_varint (b, 0);
  put_varint (b, 257);
  expect_record_error (b, 1, "Final stack depth 257 exceeds capacity 256");

  /* Missing status byte. */
  b = record_builder (TACH_RECORD_SUFFIX);
  put_varint (b, 1);
  expect_record_error (b, 1, "Unexpected end of sample data (SUFFIX record at byte 64)");

  /* A REPEAT of an empty stack is fine; one sample too few is not. */
  b = record_builder (TACH_RECORD_REPEAT);
  put_varint (b, 1);
  put_varint (b, 5);
  put_u8 (b, 0);
  expect_record_error (b, 2, "Sample count mismatch: header declares 2 samples but replay "
                       "decoded 1");
}

/* A bad varint inside a long REPEAT run: a batch hands over the samples
 * before it, each as sample by sample decoding gives it, then fails as
 * that does. */
static void
test_batch_error_midway (void)
{
  static const guint8 eleven[] = {
    0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01,
  };
  Builder *b = record_builder (TACH_RECORD_REPEAT);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GArray) batched = g_array_new (FALSE, FALSE, sizeof (guint64));
  Decoded d;
  TachBatch batch;
  int rc;

  put_varint (b, 1000);
  /* Thirteen good pairs, two-byte deltas and one-byte ones, then the bad
   * one with plenty after it, so that it is met in the unchecked loop. */
  for (guint i = 0; i < 13; i++)
    {
      put_varint (b, i % 3 == 2 ? 3 : 1000 + i);
      put_u8 (b, (guint8) i);
    }
  put (b, eleven, sizeof eleven);
  put_u8 (b, 0);
  for (guint i = 0; i < 986; i++)
    {
      put_varint (b, 1);
      put_u8 (b, 0);
    }
  bytes = simple_finish (b, 1000, 1, 1);

  decode_bytes (bytes, &d);
  g_assert_cmpint (d.rc, ==, -1);
  g_assert_cmpuint (d.lines->len, ==, 13);
  tach_decoder_free (d.decoder);
  g_assert_cmpint (tach_decoder_new (d.reader, &d.decoder, &d.error), ==, TACH_OK);
  while ((rc = tach_decoder_next_batch (d.decoder, &batch, &d.error)) == 1)
    for (guint i = 0; i < batch.n; i++)
      {
        guint64 ts = batch.n > 1 ? batch.timestamps[i] : batch.sample.timestamp_us;
        guint status = batch.n > 1 ? batch.statuses[i] : batch.sample.status;
        g_autofree char *line = g_strdup_printf ("1:%" G_GUINT64_FORMAT ":%u:", ts, status);

        g_assert_cmpuint (batched->len, <, d.lines->len);
        g_assert_cmpstr (line, ==, g_ptr_array_index (d.lines, batched->len));
        g_array_append_val (batched, ts);
      }
  g_assert_cmpint (rc, ==, -1);
  g_assert_cmpuint (batched->len, ==, 13);
  if (strstr (d.error.message, "Malformed varint in RLE sample data") == NULL)
    g_error ("unexpected error “%s”", d.error.message);
  decoded_clear (&d);
}

/* Python decodes strings with errors="replace"; so must we, byte for byte,
 * because the collapsed export prints them. */
static void
test_utf8_replacement (void)
{
  static const struct { const char *in; gsize len; const char *out; } cases[] = {
    { "bad\xff\xfe", 5, "bad\xef\xbf\xbd\xef\xbf\xbd" },
    { "\xe0\x80x", 3, "\xef\xbf\xbd\xef\xbf\xbdx" },
    { "\xed\xa0\x80", 3, "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd" },
    { "\xf0\x9f\x98", 3, "\xef\xbf\xbd" },
    { "\xf4\x90\x80\x80", 4, "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd" },
    { "\xc0\xaf", 2, "\xef\xbf\xbd\xef\xbf\xbd" },
    { "a\xe2\x82", 3, "a\xef\xbf\xbd" },
    { "\xf0\x9f\x98\x80ok", 6, "\xf0\x9f\x98\x80ok" },
    { "caf\xc3\xa9", 5, "caf\xc3\xa9" },
    { "", 0, "" },
    { "nul\0byte", 8, "nul\0byte" },
  };
  const char *strings[G_N_ELEMENTS (cases)];
  gsize lengths[G_N_ELEMENTS (cases)];
  g_autoptr(GBytes) bytes = NULL;
  Decoded d;

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      strings[i] = cases[i].in;
      lengths[i] = cases[i].len;
    }
  bytes = builder_finish (builder_new (), 0, 0, strings, lengths, G_N_ELEMENTS (cases), 0);
  decode_bytes (bytes, &d);
  g_assert_cmpint (d.rc, ==, 0);
  g_assert_cmpuint (tach_reader_get_n_strings (d.reader), ==, G_N_ELEMENTS (cases));
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      gsize len;
      const char *s = tach_reader_get_string (d.reader, i, &len);
      gsize expected_len = i == G_N_ELEMENTS (cases) - 1 ? 8 : strlen (cases[i].out);

      g_assert_cmpuint (len, ==, expected_len);
      g_assert_cmpmem (s, len, cases[i].out, expected_len);
      g_assert_cmpint (s[len], ==, '\0');
    }
  g_assert_null (tach_reader_get_string (d.reader, G_N_ELEMENTS (cases), NULL));
  g_assert_null (tach_reader_get_frame (d.reader, 0));
  decoded_clear (&d);
}

/* Frame sentinels (SPEC §6.2): end values follow the start when absent. */
static void
test_frame_table (void)
{
  g_autofree char *path = g_build_filename (g_getenv ("TACH_TEST_DATA"), "valid", "tiny.tach",
                                            NULL);
  TachReader *reader;
  TachError error;
  const TachFrame *f;

  g_assert_cmpint (tach_reader_open_path (path, &reader, &error), ==, TACH_OK);
  g_assert_cmpuint (tach_reader_get_n_frames (reader), ==, 4);
  f = tach_reader_get_frame (reader, 0);
  g_assert_cmpstr (tach_reader_get_string (reader, f->filename, NULL), ==, "app.py");
  g_assert_cmpstr (tach_reader_get_string (reader, f->funcname, NULL), ==, "work");
  g_assert_cmpint (f->lineno, ==, 7);
  g_assert_cmpint (f->end_lineno, ==, 7);
  g_assert_cmpint (f->column, ==, 4);
  g_assert_cmpint (f->end_column, ==, 15);
  g_assert_cmpuint (f->opcode, ==, 53);
  f = tach_reader_get_frame (reader, 2);
  g_assert_cmpint (f->lineno, ==, 8);
  g_assert_cmpint (f->end_lineno, ==, 9);
  g_assert_cmpint (f->column, ==, 8);
  g_assert_cmpint (f->end_column, ==, 30);
  g_assert_cmpuint (f->opcode, ==, TACH_OPCODE_NONE);
  f = tach_reader_get_frame (reader, 3);
  g_assert_cmpstr (tach_reader_get_string (reader, f->funcname, NULL), ==, "helper");
  g_assert_cmpint (f->lineno, ==, -1);
  g_assert_cmpint (f->end_lineno, ==, -1);
  g_assert_cmpint (f->column, ==, -1);
  g_assert_cmpint (f->end_column, ==, -1);

  /* Header, footer and stats of the worked example (SPEC §14). */
  g_assert_cmpuint (tach_reader_get_header (reader)->start_time_us, ==, 1000000);
  g_assert_cmpuint (tach_reader_get_header (reader)->sample_interval_us, ==, 1000);
  g_assert_cmpuint (tach_reader_get_header (reader)->string_table_offset, ==, 138);
  g_assert_cmpuint (tach_reader_get_header (reader)->frame_table_offset, ==, 162);
  g_assert_cmpint (tach_reader_get_header (reader)->mode, ==, TACH_MODE_CPU);
  g_assert_cmpuint (tach_reader_get_footer (reader)->file_size, ==, 278);
  g_assert_cmpuint (tach_reader_get_stats (reader)->block_size, ==, 56);
  g_assert_cmpuint (tach_reader_get_stats (reader)->block_offset, ==, 190);
  g_assert_cmpfloat (tach_reader_get_stats (reader)->duration_sec, ==, 0.004);
  g_assert_cmpfloat (tach_reader_get_stats (reader)->missed_samples, ==, 3.2);
  g_assert_true (tach_reader_get_stats (reader)->has_error_rate);
  g_assert_cmpuint (tach_reader_get_n_warnings (reader), ==, 0);
  tach_reader_free (reader);
}

static char *
read_data (const char *name,
           gsize      *len)
{
  g_autofree char *path = g_build_filename (g_getenv ("TACH_TEST_DATA"), name, NULL);
  char *data;

  g_assert_true (g_file_get_contents (path, &data, len, NULL));
  return data;
}

/* Every prefix and every one-byte corruption of real files is either
 * read or refused with a message; never a crash (run under ASan). */
static void
test_mutations (void)
{
  const char *files[] = { "valid/tiny.tach", "valid/encodings.tach", "valid/rec_threads.zst.tach" };

  for (guint f = 0; f < G_N_ELEMENTS (files); f++)
    {
      gsize len;
      g_autofree char *data = read_data (files[f], &len);
      g_autofree char *copy = g_memdup2 (data, len);
      guint step = len > 2000 ? 7 : 1;

      for (gsize cut = 0; cut < len; cut += step)
        {
          g_autoptr(GBytes) bytes = g_bytes_new (data, cut);
          Decoded d;

          decode_bytes (bytes, &d);
          g_assert_cmpint (d.rc, !=, 0);
          g_assert_cmpuint (strlen (d.error.message), >, 0);
          decoded_clear (&d);
        }

      for (gsize i = 0; i < len; i += step)
        for (guint k = 0; k < 3; k++)
          {
            static const guint8 masks[] = { 0xff, 0x80, 0x01 };
            g_autoptr(GBytes) bytes = NULL;
            Decoded d;

            copy[i] ^= masks[k];
            bytes = g_bytes_new (copy, len);
            decode_bytes (bytes, &d);
            if (d.rc != 0)
              g_assert_cmpuint (strlen (d.error.message), >, 0);
            decoded_clear (&d);
            copy[i] ^= masks[k];
          }
    }
}

static void
test_open_errors (void)
{
  g_autofree char *dir = g_dir_make_tmp ("tach-test-XXXXXX", NULL);
  g_autofree char *missing = g_build_filename (dir, "missing.tach", NULL);
  TachReader *reader = (TachReader *) 1;
  TachError error;

  g_assert_cmpint (tach_reader_open_path (missing, &reader, &error), ==, TACH_ERROR_IO);
  g_assert_null (reader);
  g_assert_nonnull (strstr (error.message, "No such file"));

  g_assert_cmpint (tach_reader_open_path (dir, &reader, &error), ==, TACH_ERROR_IO);
  g_assert_nonnull (strstr (error.message, "folder"));

  g_assert_cmpint (tach_reader_open_memory (NULL, 0, &reader, &error), ==, TACH_ERROR_INVALID);
  g_assert_nonnull (strstr (error.message, "File too small for header"));
  g_assert_cmpint (tach_reader_open_memory (NULL, 5, &reader, &error), ==, TACH_ERROR_ARGUMENT);

  /* Freeing NULL is fine. */
  tach_reader_free (NULL);
  tach_decoder_free (NULL);
  tach_writer_abort (NULL);
  g_rmdir (dir);
}

/* Both open paths see the same file. */
static void
test_open_memory_matches_path (void)
{
  gsize len;
  g_autofree char *data = read_data ("valid/rec_threads.zst.tach", &len);
  g_autofree char *path = g_build_filename (g_getenv ("TACH_TEST_DATA"), "valid",
                                            "rec_threads.zst.tach", NULL);
  TachReader *a, *b;
  TachError error;

  g_assert_cmpint (tach_reader_open_path (path, &a, &error), ==, TACH_OK);
  g_assert_cmpint (tach_reader_open_memory (data, len, &b, &error), ==, TACH_OK);
  g_assert_cmpmem (tach_reader_get_header (a), sizeof (TachHeader),
                   tach_reader_get_header (b), sizeof (TachHeader));
  g_assert_cmpmem (tach_reader_get_footer (a), sizeof (TachFooter),
                   tach_reader_get_footer (b), sizeof (TachFooter));
  g_assert_cmpuint (tach_reader_get_file_size (a), ==, len);
  g_assert_cmpuint (tach_reader_get_sample_region_size (a), ==,
                    tach_reader_get_header (a)->string_table_offset - 64);
  tach_reader_free (a);
  tach_reader_free (b);
}

static glong
peak_rss_kib (void)
{
  struct rusage usage;

  getrusage (RUSAGE_SELF, &usage);
  return usage.ru_maxrss;
}

/* CPython refuses a sample region that decompresses to more than 1 GiB; we
 * stream it and stay small.  Two 256-frame stacks with nothing in common
 * alternate, so every sample is a FULL record of about 400 bytes. */
static void
test_huge_decompressed_region (void)
{
  g_autofree char *dir = g_dir_make_tmp ("tach-test-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "huge.tach", NULL);
  TachWriterOptions options = { .zstd = true, .zstd_level = 1, .sample_interval_us = 1000,
                                .start_time_us = 1 };
  const guint64 n_samples = 2800000;
  TachWriter *writer;
  TachReader *reader;
  TachDecoder *decoder;
  TachError error;
  TachSample s;
  guint32 stacks[2][256];
  guint64 n = 0, region, checksum = 0;
  glong rss_before;
  struct stat st;
  int rc;

  g_assert_cmpint (tach_writer_new (path, &options, &writer, &error), ==, TACH_OK);
  for (guint k = 0; k < 2; k++)
    for (guint i = 0; i < 256; i++)
      {
        TachFrameInfo info = { "big.py", k ? "b" : "a", (gint32) (i + 1), (gint32) (i + 1),
                               -1, -1, 255 };
        g_assert_cmpint (tach_writer_intern_frame (writer, &info, &stacks[k][i], &error), ==,
                         TACH_OK);
      }
  for (guint64 i = 0; i < n_samples; i++)
    g_assert_cmpint (tach_writer_add_sample (writer, 1, 0, 1 + i * 1000, 3, stacks[i & 1], 256,
                                             &error), ==, TACH_OK);
  g_assert_cmpint (tach_writer_finish (writer, &error), ==, TACH_OK);
  g_assert_cmpint (g_stat (path, &st), ==, 0);

  rss_before = peak_rss_kib ();
  g_assert_cmpint (tach_reader_open_path (path, &reader, &error), ==, TACH_OK);
  region = tach_reader_get_sample_region_size (reader);
  g_assert_cmpint (tach_decoder_new (reader, &decoder, &error), ==, TACH_OK);
  tach_decoder_set_pipelined (decoder, TRUE);
  while ((rc = tach_decoder_next (decoder, &s, &error)) == 1)
    {
      g_assert_cmpuint (s.depth, ==, 256);
      checksum += s.stack[n & 255];
      n++;
    }
  if (rc != 0)
    g_error ("%s", error.message);
  g_assert_cmpuint (n, ==, n_samples);
  g_test_message ("%" G_GUINT64_FORMAT " compressed bytes, %" G_GUINT64_FORMAT " samples, "
                  "checksum %" G_GUINT64_FORMAT, region, n, checksum);
  /* More than 1 GiB went through the decoder: every record holds a 13-byte
   * prefix, a delta, a status, a depth and 256 frame indices of which at
   * least 128 need two bytes, so 401 bytes or more... */
  g_assert_cmpuint (n * 401, >, G_GUINT64_CONSTANT (1) << 30);
  /* ...without holding it: the peak grew by far less than that. */
  g_assert_cmpint (peak_rss_kib () - rss_before, <, 64 * 1024);

  tach_decoder_free (decoder);
  tach_reader_free (reader);
  g_unlink (path);
  g_rmdir (dir);
}

/* Decodes DATA to its end, the zstd stream read on a second thread or in
 * line; returns the samples and sets MESSAGE to the error. */
static guint64
decode_count (const guint8 *data,
              gsize         len,
              gboolean      pipelined,
              char        **message)
{
  TachReader *reader;
  TachDecoder *decoder;
  TachError error;
  TachBatch batch;
  guint64 n = 0;
  int rc;

  g_assert_cmpint (tach_reader_open_memory (data, len, &reader, &error), ==, TACH_OK);
  g_assert_cmpint (tach_decoder_new (reader, &decoder, &error), ==, TACH_OK);
  tach_decoder_set_pipelined (decoder, pipelined);
  while ((rc = tach_decoder_next_batch (decoder, &batch, &error)) == 1)
    n += batch.n;
  g_assert_cmpint (rc, ==, -1);
  g_assert_cmpint (error.status, ==, TACH_ERROR_INVALID);
  *message = g_strdup (error.message);
  tach_decoder_free (decoder);
  tach_reader_free (reader);
  return n;
}

/* A zstd stream that breaks gives the same samples before its error
 * whether it is decompressed on a second thread or in line.  The thread
 * fills whole chunks, and the decoder in line used to stop at the bytes it
 * needed, so that the two met the error at different records (found by
 * the fuzzer).  The file: the writer's raw records compressed here into
 * one good frame, then bytes that are no frame at all. */
static void
test_zstd_error_same_either_way (void)
{
  g_autofree char *dir = g_dir_make_tmp ("tach-test-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "raw.tach", NULL);
  TachWriterOptions options = { .sample_interval_us = 1000, .start_time_us = 1 };
  g_autoptr(GRand) rand = g_rand_new_with_seed (42);
  g_autoptr(GByteArray) file = g_byte_array_new ();
  g_autofree guint8 *raw = NULL;
  g_autofree guint8 *frame = NULL;
  g_autofree char *inline_message = NULL;
  g_autofree char *pipelined_message = NULL;
  static const guint8 garbage[] = "no zstd frame here";
  TachWriter *writer;
  TachError error;
  guint32 frames[64];
  guint32 stack[12];
  guint64 string_offset, frame_offset, region, shift;
  guint64 n_inline, n_pipelined;
  guint32 compression = GUINT32_TO_LE (TACH_COMPRESSION_ZSTD);
  gsize len;
  size_t frame_len;

  g_assert_cmpint (tach_writer_new (path, &options, &writer, &error), ==, TACH_OK);
  for (guint i = 0; i < G_N_ELEMENTS (frames); i++)
    {
      g_autofree char *name = g_strdup_printf ("f%u", i);
      TachFrameInfo info = { "big.py", name, (gint32) i + 1, (gint32) i + 1, -1, -1, 255 };

      g_assert_cmpint (tach_writer_intern_frame (writer, &info, &frames[i], &error), ==, TACH_OK);
    }
  for (guint i = 0; i < 100000; i++)
    {
      for (guint k = 0; k < G_N_ELEMENTS (stack); k++)
        stack[k] = frames[g_rand_int_range (rand, 0, G_N_ELEMENTS (frames))];
      g_assert_cmpint (tach_writer_add_sample (writer, 1 + i % 4, 0, 1 + i * 1000, 3, stack,
                                               G_N_ELEMENTS (stack), &error), ==, TACH_OK);
    }
  g_assert_cmpint (tach_writer_finish (writer, &error), ==, TACH_OK);
  g_assert_true (g_file_get_contents (path, (char **) &raw, &len, NULL));
  g_unlink (path);
  g_rmdir (dir);

  memcpy (&string_offset, raw + 40, 8);
  memcpy (&frame_offset, raw + 48, 8);
  string_offset = GUINT64_FROM_LE (string_offset);
  frame_offset = GUINT64_FROM_LE (frame_offset);
  region = string_offset - 64;
  frame = g_malloc (ZSTD_compressBound (region));
  frame_len = ZSTD_compress (frame, ZSTD_compressBound (region), raw + 64, region, 1);
  g_assert_false (ZSTD_isError (frame_len));
  /* Large enough for the second thread, and for several of its chunks. */
  g_assert_cmpuint (frame_len, >, 512 * 1024);
  g_assert_cmpuint (region, >, 4 * 128 * 1024);

  /* Header, the frame and the garbage, then the tables moved by as much. */
  shift = frame_len + sizeof garbage - region;
  string_offset = GUINT64_TO_LE (string_offset + shift);
  frame_offset = GUINT64_TO_LE (frame_offset + shift);
  g_byte_array_append (file, raw, 64);
  memcpy (file->data + 40, &string_offset, 8);
  memcpy (file->data + 48, &frame_offset, 8);
  memcpy (file->data + 56, &compression, 4);
  g_byte_array_append (file, frame, (guint) frame_len);
  g_byte_array_append (file, garbage, sizeof garbage);
  g_byte_array_append (file, raw + 64 + region, (guint) (len - 64 - region));

  n_inline = decode_count (file->data, file->len, FALSE, &inline_message);
  n_pipelined = decode_count (file->data, file->len, TRUE, &pipelined_message);
  g_test_message ("%" G_GUINT64_FORMAT " samples, then: %s", n_inline, inline_message);
  g_assert_nonnull (strstr (inline_message, "zstd decompression error"));
  g_assert_cmpuint (n_inline, >, 50000);
  g_assert_cmpuint (n_pipelined, ==, n_inline);
  g_assert_cmpstr (pipelined_message, ==, inline_message);
}

/* SPEC §15.8: a file without statistics whose frame table happens to end
 * in bytes that look like a statistics trailer (found by the fuzzer).  The
 * block would start inside the frame table, so there is none. */
static void
test_stats_lookalike (void)
{
  g_autofree char *path = g_build_filename (g_getenv ("TACH_TEST_DATA"), "extra",
                                            "stats_lookalike_in_frame_table.tach", NULL);
  TachReader *reader;
  TachDecoder *decoder;
  TachError error;
  TachSample s;
  int rc;

  if (tach_reader_open_path (path, &reader, &error) != TACH_OK)
    g_error ("%s", error.message);
  g_assert_false (tach_reader_get_stats (reader)->present);
  g_assert_cmpuint (tach_reader_get_n_warnings (reader), ==, 0);
  g_assert_cmpint (tach_decoder_new (reader, &decoder, &error), ==, TACH_OK);
  while ((rc = tach_decoder_next (decoder, &s, &error)) == 1)
    ;
  g_assert_cmpint (rc, ==, 0);
  tach_decoder_free (decoder);
  tach_reader_free (reader);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/format/reader/record-kinds", test_record_kinds);
  g_test_add_func ("/format/reader/record-shape", test_record_shape);
  g_test_add_func ("/format/reader/varints-and-time", test_varints_and_time);
  g_test_add_func ("/format/reader/batch-error-midway", test_batch_error_midway);
  g_test_add_func ("/format/reader/decode-errors", test_decode_errors);
  g_test_add_func ("/format/reader/utf8-replacement", test_utf8_replacement);
  g_test_add_func ("/format/reader/frame-table", test_frame_table);
  g_test_add_func ("/format/reader/mutations", test_mutations);
  g_test_add_func ("/format/reader/open-errors", test_open_errors);
  g_test_add_func ("/format/reader/open-memory", test_open_memory_matches_path);
  g_test_add_func ("/format/reader/stats-lookalike", test_stats_lookalike);
  g_test_add_func ("/format/reader/huge-decompressed-region", test_huge_decompressed_region);
  g_test_add_func ("/format/reader/zstd-error-same-either-way", test_zstd_error_same_either_way);

  return g_test_run ();
}
