/* test-profile-load.c: TvProfile on a real main loop
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Loading a profile: "opened" and the metadata before any sample, the
 * states, errors with the format library's words, progress at most ten
 * times a second, a cancel seen before the next progress report and that
 * leaves nothing behind (the sanitizer build's LeakSanitizer checks that,
 * so everything is freed before exit), two loads at once, queries on a
 * worker thread, and the conversion of samples to seconds.
 *
 * Nothing here asserts how fast something happens, which a busy machine
 * changes: tachyon-bench --load and --cancel measure that.
 *
 * The big profile (a few million samples, mostly REPEAT runs, plus a
 * thread of deep FULL records) is written by the format library's writer
 * into a temporary directory at the first test that needs it.
 */
#include <math.h>
#include <string.h>

#include <glib.h>
#include <glib/gstdio.h>

#include "format-test-util.h"
#include "model-fixture.h"
#include "tv-huge-pages.h"
#include "tv-profile.h"
#include "tv-tach-error.h"

#define BIG_SAMPLES        3500000
#define BIG_DEEP_DEPTH     200
#define PROGRESS_INTERVAL  (100 * G_TIME_SPAN_MILLISECOND)
#define PROGRESS_EVERY     65536   /* samples, tv_profile_data_load ()'s reports */
#define CANCEL_AFTER_MS    75
#define FULL_SAMPLES       400000
#define FULL_DEPTH         64

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TachReader, tach_reader_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TachDecoder, tach_decoder_free)

static char *big_dir;
static char *big_path;
static TvProfile *big_profile;   /* loaded once, for the queries */

/* ------------------------------------------------------------------------ */
/* Helpers                                                                   */
/* ------------------------------------------------------------------------ */

static void
drain_main_context (void)
{
  while (g_main_context_iteration (NULL, FALSE))
    ;
}

static void
on_finalized (gpointer  user_data,
              GObject  *where_the_object_was)
{
  g_atomic_int_set ((gint *) user_data, 1);
}

/* Drops the last reference to PROFILE and checks that nothing else holds
 * one: the worker's job and the tasks must all have let go.  The worker
 * thread may drop its task a moment after the callback ran; the deadline
 * only stops a test that would hang. */
static void
unref_and_check_finalized (TvProfile *profile)
{
  gint finalized = 0;
  gint64 deadline = g_get_monotonic_time () + 60 * G_TIME_SPAN_SECOND;

  g_object_weak_ref (G_OBJECT (profile), on_finalized, &finalized);
  g_object_unref (profile);
  while (!g_atomic_int_get (&finalized) && g_get_monotonic_time () < deadline)
    {
      drain_main_context ();
      g_usleep (1000);
    }
  drain_main_context ();
  g_assert_true (g_atomic_int_get (&finalized));
}

typedef struct
{
  TvProfile      *profile;
  gboolean        opened;
  gboolean        done;
  gboolean        ok;
  GError         *error;
  gint64          started_at;   /* before the load started */
  gint64          opened_at;
  gint64          done_at;
  TvProfileState  state_at_opened;
  gboolean        data_at_opened;
  GArray         *states;       /* TvProfileState, as notified */
  GArray         *progress_at;  /* gint64: monotonic time of each notify */
  GArray         *progress;     /* guint64: samples-loaded at each notify */
  GArray         *fractions;    /* double */
  /* What "opened" saw. */
  TvProfileHeader header;
  TvProfileFooter footer;
  TvProfileStats  stats;
  gboolean        has_metadata;
  guint64         file_size;
  char          **warnings;
  /* Cancellation. */
  GCancellable   *cancellable;
  guint           cancel_after_ms;
  double          cancel_at_fraction;  /* cancel at the first progress past it */
  gint64          cancelled_at;
} Load;

static void
load_clear (Load *l)
{
  g_clear_error (&l->error);
  g_clear_pointer (&l->states, g_array_unref);
  g_clear_pointer (&l->progress_at, g_array_unref);
  g_clear_pointer (&l->progress, g_array_unref);
  g_clear_pointer (&l->fractions, g_array_unref);
  g_clear_pointer (&l->warnings, g_strfreev);
  g_clear_object (&l->cancellable);
}

static gboolean
cancel_now (gpointer user_data)
{
  Load *l = user_data;

  l->cancelled_at = g_get_monotonic_time ();
  g_cancellable_cancel (l->cancellable);
  return G_SOURCE_REMOVE;
}

static void
on_opened (TvProfile *profile,
           Load      *l)
{
  const TvProfileHeader *header = tv_profile_get_header (profile);
  const TvProfileFooter *footer = tv_profile_get_footer (profile);
  const TvProfileStats *stats = tv_profile_get_stats (profile);

  g_assert_false (l->opened);
  g_assert_false (l->done);
  l->opened = TRUE;
  l->opened_at = g_get_monotonic_time ();
  l->state_at_opened = tv_profile_get_state (profile);
  l->data_at_opened = tv_profile_get_data (profile) != NULL;
  l->has_metadata = header != NULL && footer != NULL && stats != NULL;
  if (l->has_metadata)
    {
      l->header = *header;
      l->footer = *footer;
      l->stats = *stats;
    }
  l->file_size = tv_profile_get_file_size (profile);
  l->warnings = g_strdupv ((char **) tv_profile_get_warnings (profile));

  if (l->cancel_after_ms > 0)
    g_timeout_add (l->cancel_after_ms, cancel_now, l);
}

static void
on_state (TvProfile  *profile,
          GParamSpec *pspec,
          Load       *l)
{
  TvProfileState state = tv_profile_get_state (profile);

  g_array_append_val (l->states, state);
}

static void
on_samples_loaded (TvProfile  *profile,
                   GParamSpec *pspec,
                   Load       *l)
{
  gint64 now = g_get_monotonic_time ();
  guint64 samples = tv_profile_get_samples_loaded (profile);
  double fraction = tv_profile_get_fraction (profile);

  g_array_append_val (l->progress_at, now);
  g_array_append_val (l->progress, samples);
  g_array_append_val (l->fractions, fraction);
  if (l->cancel_at_fraction > 0 && fraction >= l->cancel_at_fraction && l->cancelled_at == 0)
    cancel_now (l);
}

static void
on_loaded (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  Load *l = user_data;

  l->done_at = g_get_monotonic_time ();
  g_assert_false (l->done);
  l->ok = tv_profile_load_finish (TV_PROFILE (object), result, &l->error);
  g_assert_true (l->ok == (l->error == NULL));
  l->done = TRUE;
}

static TvProfile *
load_start (Load       *l,
            const char *path)
{
  g_autoptr(GFile) file = strstr (path, "://") != NULL ? g_file_new_for_uri (path)
                                                       : g_file_new_for_path (path);
  TvProfile *profile = tv_profile_new (file);

  memset (l, 0, sizeof *l);
  l->profile = profile;
  l->states = g_array_new (FALSE, FALSE, sizeof (TvProfileState));
  l->progress_at = g_array_new (FALSE, FALSE, sizeof (gint64));
  l->progress = g_array_new (FALSE, FALSE, sizeof (guint64));
  l->fractions = g_array_new (FALSE, FALSE, sizeof (double));
  l->cancellable = g_cancellable_new ();

  g_assert_cmpint (tv_profile_get_state (profile), ==, TV_PROFILE_NEW);
  g_assert_null (tv_profile_get_header (profile));
  g_assert_null (tv_profile_get_data (profile));
  g_assert_true (tv_profile_get_file (profile) != NULL);

  g_signal_connect (profile, "opened", G_CALLBACK (on_opened), l);
  g_signal_connect (profile, "notify::state", G_CALLBACK (on_state), l);
  g_signal_connect (profile, "notify::samples-loaded", G_CALLBACK (on_samples_loaded), l);
  return profile;
}

static void
load_go (Load *l)
{
  l->started_at = g_get_monotonic_time ();
  tv_profile_load_async (l->profile, l->cancellable, on_loaded, l);
  g_assert_cmpint (tv_profile_get_state (l->profile), ==, TV_PROFILE_OPENING);
}

/* Loads PATH to the end on the main loop; returns the profile. */
static TvProfile *
load_path (Load       *l,
           const char *path)
{
  TvProfile *profile = load_start (l, path);

  load_go (l);
  fixture_run_until (&l->done, 120);
  return profile;
}

static void
disconnect (Load *l)
{
  g_signal_handlers_disconnect_by_data (l->profile, l);
}

/* The end of a test's load L of PROFILE: its handlers gone, PROFILE
 * finalized (it must be), L cleared. */
static void
load_done (Load      *l,
           TvProfile *profile)
{
  disconnect (l);
  unref_and_check_finalized (profile);
  load_clear (l);
}

/* Loading PATH fails with GIO's "not found", before the profile opens. */
static void
check_not_found (const char *path)
{
  TvProfile *profile;
  Load l;

  profile = load_path (&l, path);
  g_assert_false (l.ok);
  g_assert_error (l.error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
  g_test_message ("%s", l.error->message);
  g_assert_false (l.opened);
  g_assert_cmpint (tv_profile_get_state (profile), ==, TV_PROFILE_FAILED);
  load_done (&l, profile);
}

/* ------------------------------------------------------------------------ */
/* The big profile                                                           */
/* ------------------------------------------------------------------------ */

/* Four threads whose stacks change now and then (so mostly REPEAT runs)
 * and one that alternates between two unrelated stacks BIG_DEEP_DEPTH
 * deep, so that each of its samples is a FULL record: a batch of those
 * costs hundreds of tree lookups, the worst case for noticing a cancel.
 * zstd keeps the file small. */
static const char *
big_profile_path (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GRand) rand = g_rand_new_with_seed (0x7ac4);
  TachWriterOptions options = { 0 };
  TachWriter *writer = NULL;
  TachError tach_error;
  guint32 frames[64];
  guint32 stacks[4][64];
  guint depth[4] = { 3, 3, 3, 3 };
  guint32 deep[2][BIG_DEEP_DEPTH];
  guint64 written = 0;
  gint64 start = g_get_monotonic_time ();

  if (big_path != NULL)
    return big_path;

  big_dir = g_dir_make_tmp ("tv-profile-load-XXXXXX", &error);
  g_assert_no_error (error);
  big_path = g_build_filename (big_dir, "big.tach", NULL);

  options.zstd = TRUE;
  options.start_time_us = 1000000;
  options.sample_interval_us = 1000;
  options.mode_raw = 1;
  if (tach_writer_new (big_path, &options, &writer, &tach_error) != TACH_OK)
    g_error ("%s", tach_error.message);

  for (guint i = 0; i < G_N_ELEMENTS (frames); i++)
    {
      g_autofree char *filename = g_strdup_printf ("/srv/big/module%u.py", i % 7);
      g_autofree char *funcname = g_strdup_printf ("function_%u", i);
      TachFrameInfo info = { filename, funcname, 10 + i, -1, -1, -1, TACH_OPCODE_NONE };

      if (tach_writer_intern_frame (writer, &info, &frames[i], &tach_error) != TACH_OK)
        g_error ("%s", tach_error.message);
    }
  for (guint t = 0; t < 4; t++)
    for (guint i = 0; i < 64; i++)
      stacks[t][i] = frames[g_rand_int_range (rand, 0, 64)];
  for (guint i = 0; i < BIG_DEEP_DEPTH; i++)
    {
      deep[0][i] = frames[i % 32];
      deep[1][i] = frames[32 + i % 32];
    }

  for (guint64 tick = 0; written < BIG_SAMPLES; tick++)
    {
      guint64 ts = options.start_time_us + tick * options.sample_interval_us;

      for (guint t = 0; t < 4 && written < BIG_SAMPLES; t++, written++)
        {
          if (g_rand_int_range (rand, 0, 40) == 0)
            {
              depth[t] = g_rand_int_range (rand, 1, 40);
              stacks[t][0] = frames[g_rand_int_range (rand, 0, 64)];
            }
          if (tach_writer_add_sample (writer, 100 + t, 0, ts,
                                      TACH_STATUS_HAS_GIL | TACH_STATUS_ON_CPU,
                                      stacks[t], depth[t], &tach_error) != TACH_OK)
            g_error ("%s", tach_error.message);
        }
      if (written < BIG_SAMPLES)
        {
          if (tach_writer_add_sample (writer, 999, 0, ts, TACH_STATUS_HAS_GIL,
                                      deep[tick % 2], BIG_DEEP_DEPTH,
                                      &tach_error) != TACH_OK)
            g_error ("%s", tach_error.message);
          written++;
        }
    }
  if (tach_writer_finish (writer, &tach_error) != TACH_OK)
    g_error ("%s", tach_error.message);

  g_test_message ("wrote %u samples in %.2f s", BIG_SAMPLES,
                  (g_get_monotonic_time () - start) / 1e6);
  return big_path;
}

/* ------------------------------------------------------------------------ */
/* (a) Metadata first, then the samples                                      */
/* ------------------------------------------------------------------------ */

static void
test_opened (void)
{
  /* This file has a warning, so the warnings are checked too. */
  g_autofree char *path = fixture_data_path ("valid", "stats_v56_unknown_flag_bits.tach");
  g_autoptr(TachReader) reader = NULL;
  TachError tach_error;
  TvProfile *profile;
  TvProfileData *data;
  Load l;

  if (tach_reader_open_path (path, &reader, &tach_error) != TACH_OK)
    g_error ("%s", tach_error.message);

  profile = load_path (&l, path);
  g_assert_no_error (l.error);
  g_assert_true (l.ok);

  /* "opened" came first, in the DECODING state, with no data yet but the
   * metadata the reader gives. */
  g_assert_true (l.opened);
  g_assert_cmpint (l.opened_at, <=, l.done_at);
  g_assert_cmpint (l.state_at_opened, ==, TV_PROFILE_DECODING);
  g_assert_false (l.data_at_opened);
  g_assert_true (l.has_metadata);
  g_assert_cmpuint (l.header.version, ==, tach_reader_get_header (reader)->version);
  g_assert_cmpuint (l.header.sample_count, ==, tach_reader_get_header (reader)->sample_count);
  g_assert_cmpuint (l.header.thread_count, ==, tach_reader_get_header (reader)->thread_count);
  g_assert_cmpuint (l.header.sample_interval_us, ==,
                    tach_reader_get_header (reader)->sample_interval_us);
  g_assert_cmpuint (l.header.start_time_us, ==, tach_reader_get_header (reader)->start_time_us);
  g_assert_cmpstr (l.header.mode_name, ==, tach_mode_to_string (tach_reader_get_header (reader)->mode));
  g_assert_cmpuint (l.header.mode_raw, ==, tach_reader_get_header (reader)->mode_raw);
  g_assert_cmpuint (l.header.python_major, ==, tach_reader_get_header (reader)->python_major);
  g_assert_cmpuint (l.header.python_minor, ==, tach_reader_get_header (reader)->python_minor);
  g_assert_cmpuint (l.header.python_micro, ==, tach_reader_get_header (reader)->python_micro);
  g_assert_cmpuint (l.header.compression_type, ==,
                    tach_reader_get_header (reader)->compression_type);
  g_assert_cmpint (l.header.big_endian, ==, tach_reader_get_header (reader)->big_endian);
  g_assert_cmpmem (l.footer.checksum, sizeof l.footer.checksum,
                   tach_reader_get_footer (reader)->checksum, sizeof l.footer.checksum);
  g_assert_cmpuint (l.footer.string_count, ==, tach_reader_get_footer (reader)->string_count);
  g_assert_cmpuint (l.footer.frame_count, ==, tach_reader_get_footer (reader)->frame_count);
  g_assert_cmpuint (l.footer.file_size, ==, tach_reader_get_footer (reader)->file_size);
  g_assert_true (l.stats.present);
  g_assert_cmpfloat (l.stats.sample_rate, ==, tach_reader_get_stats (reader)->sample_rate);
  g_assert_cmpfloat (l.stats.duration_sec, ==, tach_reader_get_stats (reader)->duration_sec);
  g_assert_cmpuint (l.stats.block_size, ==, tach_reader_get_stats (reader)->block_size);
  g_assert_cmpint (l.stats.has_error_rate, ==, tach_reader_get_stats (reader)->has_error_rate);
  g_assert_cmpint (l.stats.has_missed_samples, ==,
                   tach_reader_get_stats (reader)->has_missed_samples);
  g_assert_cmpfloat (l.stats.missed_samples, ==, tach_reader_get_stats (reader)->missed_samples);
  g_assert_cmpuint (l.file_size, ==, tach_reader_get_file_size (reader));
  g_assert_cmpuint (g_strv_length (l.warnings), ==, tach_reader_get_n_warnings (reader));
  g_assert_cmpuint (g_strv_length (l.warnings), >, 0);
  for (gsize i = 0; i < tach_reader_get_n_warnings (reader); i++)
    g_assert_cmpstr (l.warnings[i], ==, tach_reader_get_warning (reader, i));

  /* NEW -> OPENING (at once) -> DECODING -> LOADED. */
  g_assert_cmpuint (l.states->len, ==, 3);
  g_assert_cmpint (g_array_index (l.states, TvProfileState, 0), ==, TV_PROFILE_OPENING);
  g_assert_cmpint (g_array_index (l.states, TvProfileState, 1), ==, TV_PROFILE_DECODING);
  g_assert_cmpint (g_array_index (l.states, TvProfileState, 2), ==, TV_PROFILE_LOADED);

  g_assert_cmpint (tv_profile_get_state (profile), ==, TV_PROFILE_LOADED);
  data = tv_profile_get_data (profile);
  g_assert_nonnull (data);
  g_assert_cmpuint (tv_profile_data_get_n_samples (data), ==, l.header.sample_count);
  g_assert_cmpuint (tv_profile_get_samples_loaded (profile), ==, l.header.sample_count);
  g_assert_cmpfloat (tv_profile_get_fraction (profile), ==, 1.0);
  /* The header's thread count counts (thread, interpreter) pairs. */
  g_assert_cmpuint (tv_profile_data_get_n_threads (data), ==, l.header.thread_count);

  load_done (&l, profile);
}

/* ------------------------------------------------------------------------ */
/* (b) Errors                                                                */
/* ------------------------------------------------------------------------ */

/* The format library's own message for PATH, at open or while decoding. */
static char *
library_error (const char *path,
               TachPhase  *phase)
{
  g_autoptr(TachReader) reader = NULL;
  g_autoptr(TachDecoder) decoder = NULL;
  TachError error;
  TachSample sample;
  int r;

  if (tach_reader_open_path (path, &reader, &error) != TACH_OK)
    {
      *phase = TACH_PHASE_OPEN;
      return g_strdup (error.message);
    }
  if (tach_decoder_new (reader, &decoder, &error) != TACH_OK)
    g_error ("%s", error.message);
  while ((r = tach_decoder_next (decoder, &sample, &error)) == 1)
    ;
  g_assert_cmpint (r, <, 0);
  *phase = TACH_PHASE_DECODE;
  return g_strdup (error.message);
}

static void
test_invalid (gconstpointer user_data)
{
  const char *name = user_data;
  g_autofree char *path = fixture_data_path ("invalid", name);
  TachPhase phase;
  g_autofree char *expected = library_error (path, &phase);
  TvProfile *profile;
  Load l;

  profile = load_path (&l, path);
  g_assert_false (l.ok);
  g_assert_error (l.error, TV_TACH_ERROR, TV_TACH_ERROR_INVALID);
  g_test_message ("%s: %s", name, l.error->message);
  g_assert_nonnull (strstr (l.error->message, expected));
  g_assert_cmpint (tv_profile_get_state (profile), ==, TV_PROFILE_FAILED);
  g_assert_null (tv_profile_get_data (profile));

  /* A file that fails to open never opens; one that fails while decoding
   * did, and keeps its metadata. */
  g_assert_cmpint (l.opened, ==, phase == TACH_PHASE_DECODE);
  if (phase == TACH_PHASE_DECODE)
    {
      g_assert_cmpint (l.state_at_opened, ==, TV_PROFILE_DECODING);
      g_assert_nonnull (tv_profile_get_header (profile));
    }
  else
    g_assert_null (tv_profile_get_header (profile));
  g_assert_cmpint (g_array_index (l.states, TvProfileState, l.states->len - 1), ==,
                   TV_PROFILE_FAILED);

  load_done (&l, profile);
}

static void
test_missing (void)
{
  g_autofree char *path = fixture_data_path ("valid", "no-such-file.tach");

  /* GIO's code, as for a file that is not local: the error page tells a
   * missing file from one that cannot be read. */
  check_not_found (path);
}

/* A file that is not local (here, the demo profile in the resources) is
 * read into memory on the worker; a missing one fails with GIO's error. */
static void
test_not_local (void)
{
  TvProfile *profile;
  TvProfileData *data;
  Load l;

  profile = load_path (&l, "resource:///io/github/tachyonviewer/TachyonViewer/demo/rec_threads.zst.tach");
  g_assert_no_error (l.error);
  g_assert_true (l.ok);
  g_assert_true (l.opened);
  g_assert_cmpuint (tv_profile_get_header (profile)->sample_count, ==, 6204);
  g_assert_cmpint (tv_profile_get_header (profile)->compression_type, ==, 1);
  data = tv_profile_get_data (profile);
  g_assert_cmpuint (tv_profile_data_get_n_samples (data), ==, 6204);
  g_assert_cmpuint (tv_profile_data_get_n_threads (data), ==, 8);
  load_done (&l, profile);

  check_not_found ("resource:///io/github/tachyonviewer/TachyonViewer/demo/none.tach");
}

/* ------------------------------------------------------------------------ */
/* (c) Progress                                                              */
/* ------------------------------------------------------------------------ */

static void
test_progress (void)
{
  const char *path = big_profile_path ();
  TvProfile *profile;
  gint64 min_gap = G_MAXINT64;
  Load l;

  profile = load_path (&l, path);
  g_assert_no_error (l.error);
  g_assert_cmpint (tv_profile_get_state (profile), ==, TV_PROFILE_LOADED);
  g_assert_cmpuint (tv_profile_data_get_n_samples (tv_profile_get_data (profile)), ==,
                    BIG_SAMPLES);
  g_assert_cmpuint (tv_profile_get_samples_loaded (profile), ==, BIG_SAMPLES);

  g_test_message ("decoding took %.3f s; %u notifications of samples-loaded",
                  (l.done_at - l.opened_at) / 1e6, l.progress->len);
  /* Enough reports for the test to mean something. */
  g_assert_cmpuint (l.progress->len, >=, 3);

  for (guint i = 0; i < l.progress->len; i++)
    {
      guint64 samples = g_array_index (l.progress, guint64, i);
      double fraction = g_array_index (l.fractions, double, i);
      gint64 at = g_array_index (l.progress_at, gint64, i);

      g_assert_cmpfloat (fraction, >=, 0.0);
      g_assert_cmpfloat (fraction, <=, 1.0);
      /* Only the end says 1.0. */
      g_assert_true (fraction < 1.0 || i + 1 == l.progress->len);
      if (i == 0)
        continue;
      g_assert_cmpuint (samples, >, g_array_index (l.progress, guint64, i - 1));
      g_assert_cmpfloat (fraction, >=, g_array_index (l.fractions, double, i - 1));

      if (i + 1 < l.progress->len)
        min_gap = MIN (min_gap, at - g_array_index (l.progress_at, gint64, i - 1));
    }
  /* At most ten a second; the last one, at the end, may come sooner.  The
   * worker reports at most once an interval from the time it starts, and
   * the main loop sees a report when it has been made, or later: however
   * late the main loop runs, report I comes at least I + 1 intervals after
   * the load started.  (The gaps between two reports seen on the main loop
   * say nothing: one late delivery makes the next gap short.) */
  for (guint i = 0; i + 1 < l.progress->len; i++)
    g_assert_cmpint (g_array_index (l.progress_at, gint64, i) - l.started_at, >=,
                     (gint64) (i + 1) * PROGRESS_INTERVAL);
  g_test_message ("shortest gap between notifications: %.1f ms", min_gap / 1e3);
  g_assert_cmpuint (g_array_index (l.progress, guint64, l.progress->len - 1), ==, BIG_SAMPLES);

  disconnect (&l);
  /* Kept for the queries; freed at the end. */
  if (big_profile == NULL)
    big_profile = g_object_ref (profile);
  g_object_unref (profile);
  load_clear (&l);
}

/* ------------------------------------------------------------------------ */
/* (d) Cancellation                                                          */
/* ------------------------------------------------------------------------ */

/* Cancelled at a few moments of the decoding (the first is the one the
 * issue names), the last well into it: at the first progress report past
 * a third of the samples (reports come every 100 ms), however fast the
 * machine decodes.  The load then fails as cancelled and leaves nothing
 * behind; how soon is tachyon-bench --cancel's to measure (and
 * test_cancel_seen's to bound, in samples). */
static void
test_cancel (void)
{
  static const guint after_ms[] = { CANCEL_AFTER_MS, 20, 150, 0 };
  const char *path = big_profile_path ();
  gint64 worst = 0;

  for (guint i = 0; i < G_N_ELEMENTS (after_ms); i++)
    {
      TvProfile *profile;
      gint64 latency;
      Load l;

      profile = load_start (&l, path);
      l.cancel_after_ms = after_ms[i];
      l.cancel_at_fraction = after_ms[i] == 0 ? 1.0 / 3 : 0;
      load_go (&l);
      fixture_run_until (&l.done, 120);

      g_assert_true (l.opened);
      g_assert_cmpint (l.cancelled_at, >, 0);
      latency = l.done_at - l.cancelled_at;
      worst = MAX (worst, latency);
      g_test_message ("cancelled %.1f ms after \"opened\" (%" G_GUINT64_FORMAT
                      " samples reported loaded): the callback came %.2f ms after the cancel",
                      (l.cancelled_at - l.opened_at) / 1e3,
                      tv_profile_get_samples_loaded (profile), latency / 1e3);
      g_assert_false (l.ok);
      g_assert_error (l.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
      g_assert_cmpint (tv_profile_get_state (profile), ==, TV_PROFILE_FAILED);
      g_assert_null (tv_profile_get_data (profile));
      g_assert_cmpint (g_array_index (l.states, TvProfileState, l.states->len - 1), ==,
                       TV_PROFILE_FAILED);

      disconnect (&l);
      unref_and_check_finalized (profile);
      load_clear (&l);
    }
  g_test_message ("worst cancel latency: %.2f ms", worst / 1e3);
}

/* Every sample of one thread a FULL record, DEPTH frames deep (two
 * unrelated stacks in turn): each sample is a batch of its own, the most
 * work between two looks at the cancellable. */
static char *
write_full_records (const char *dir)
{
  char *path = g_build_filename (dir, "full.tach", NULL);
  TachWriterOptions options = { 0 };
  TachWriter *writer = NULL;
  TachError tach_error;
  guint32 stacks[2][FULL_DEPTH];

  options.start_time_us = 1000000;
  options.sample_interval_us = 1000;
  if (tach_writer_new (path, &options, &writer, &tach_error) != TACH_OK)
    g_error ("%s", tach_error.message);
  for (guint i = 0; i < 2 * FULL_DEPTH; i++)
    {
      g_autofree char *funcname = g_strdup_printf ("function_%u", i);
      TachFrameInfo info = { "/srv/full.py", funcname, 10 + i, -1, -1, -1, TACH_OPCODE_NONE };

      if (tach_writer_intern_frame (writer, &info, &stacks[i % 2][i / 2], &tach_error) != TACH_OK)
        g_error ("%s", tach_error.message);
    }
  for (guint i = 0; i < FULL_SAMPLES; i++)
    if (tach_writer_add_sample (writer, 1, 0, options.start_time_us + i * 1000ull,
                                TACH_STATUS_HAS_GIL, stacks[i % 2], FULL_DEPTH,
                                &tach_error) != TACH_OK)
      g_error ("%s", tach_error.message);
  if (tach_writer_finish (writer, &tach_error) != TACH_OK)
    g_error ("%s", tach_error.message);
  return path;
}

typedef struct
{
  GCancellable *cancellable;
  guint64       cancelled_at;   /* samples, at the cancel */
  guint         reports_after;
  guint64       last_report;
} CancelSeen;

static void
cancel_at_first_report (guint64  samples,
                        double   fraction,
                        gpointer user_data)
{
  CancelSeen *c = user_data;

  if (c->cancelled_at == 0)
    {
      c->cancelled_at = samples;
      g_cancellable_cancel (c->cancellable);
    }
  else
    {
      c->reports_after++;
      c->last_report = samples;
    }
}

/* A cancel is seen before PROGRESS_EVERY more samples are decoded, here
 * PROGRESS_EVERY batches: the cancel comes from the first progress report,
 * on the loading thread itself, so the load must end before the next
 * report, whatever the machine's speed or load.  (The loader looks every
 * 256 batches.) */
static void
test_cancel_seen (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("tv-profile-load-XXXXXX", &error);
  g_autofree char *path = NULL;
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  CancelSeen c = { cancellable, 0, 0, 0 };
  TachReader *reader = NULL;
  TachError tach_error;
  TvProfileData *data;

  g_assert_no_error (error);
  path = write_full_records (dir);
  if (tach_reader_open_path (path, &reader, &tach_error) != TACH_OK)
    g_error ("%s", tach_error.message);
  data = tv_profile_data_load (reader, cancel_at_first_report, &c, cancellable, &error);
  g_test_message ("cancelled at %" G_GUINT64_FORMAT " samples of %u; %u reports after it, "
                  "the last at %" G_GUINT64_FORMAT, c.cancelled_at, FULL_SAMPLES,
                  c.reports_after, c.last_report);
  g_assert_null (data);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpuint (c.cancelled_at, >=, PROGRESS_EVERY);
  g_assert_cmpuint (c.cancelled_at, <, FULL_SAMPLES - 2 * PROGRESS_EVERY);
  g_assert_cmpuint (c.reports_after, ==, 0);

  g_remove (path);
  g_rmdir (dir);
}

/* A profile whose tree is most of its cost: WIDE_SAMPLES samples of one
 * thread, each a stack of WIDE_DEPTH frames that goes its own way from
 * the second frame on, so that nearly every frame is a node. */
#define WIDE_SAMPLES 4000
#define WIDE_DEPTH   250
#define WIDE_FRAMES  499

static char *
write_wide_tree (const char *dir)
{
  char *path = g_build_filename (dir, "wide.tach", NULL);
  TachWriterOptions options = { 0 };
  TachWriter *writer = NULL;
  TachError tach_error;
  guint32 frames[WIDE_FRAMES];
  guint32 stack[WIDE_DEPTH];

  options.start_time_us = 1000000;
  options.sample_interval_us = 1000;
  if (tach_writer_new (path, &options, &writer, &tach_error) != TACH_OK)
    g_error ("%s", tach_error.message);
  for (guint i = 0; i < WIDE_FRAMES; i++)
    {
      g_autofree char *funcname = g_strdup_printf ("function_%u", i);
      TachFrameInfo info = { "/srv/wide.py", funcname, 1 + i, -1, -1, -1, TACH_OPCODE_NONE };

      if (tach_writer_intern_frame (writer, &info, &frames[i], &tach_error) != TACH_OK)
        g_error ("%s", tach_error.message);
    }
  for (guint i = 0; i < WIDE_SAMPLES; i++)
    {
      guint64 x = i;

      /* Innermost first; the outermost frame is the same for all, the
       * others a sequence of the sample's own. */
      stack[WIDE_DEPTH - 1] = frames[0];
      for (guint j = 1; j < WIDE_DEPTH; j++)
        {
          x = x * G_GUINT64_CONSTANT (6364136223846793005) + G_GUINT64_CONSTANT (1442695040888963407);
          stack[WIDE_DEPTH - 1 - j] = frames[1 + (x >> 33) % (WIDE_FRAMES - 1)];
        }
      if (tach_writer_add_sample (writer, 1, 0, options.start_time_us + i * 1000ull,
                                  TACH_STATUS_HAS_GIL, stack, WIDE_DEPTH, &tach_error) != TACH_OK)
        g_error ("%s", tach_error.message);
    }
  if (tach_writer_finish (writer, &tach_error) != TACH_OK)
    g_error ("%s", tach_error.message);
  return path;
}

typedef struct
{
  GArray       *samples;
  GArray       *fractions;
  GCancellable *cancellable;
  guint         cancel_at;      /* cancel at this report once all samples
                                 * are in; 0 for never */
  guint         after_decoding;
} FinishSeen;

static void
record_report (guint64  samples,
               double   fraction,
               gpointer user_data)
{
  FinishSeen *f = user_data;

  g_array_append_val (f->samples, samples);
  g_array_append_val (f->fractions, fraction);
  if (samples == WIDE_SAMPLES && fraction < 1.0
      && ++f->after_decoding == f->cancel_at)
    g_cancellable_cancel (f->cancellable);
}

/* The load's last stage, numbering a tree of a million nodes, reports
 * its progress (determinate, never going back, under 1.0 until the load
 * is done) and stops when cancelled, at any point of it. */
static void
test_finish_progress (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("tv-profile-load-XXXXXX", &error);
  g_autofree char *path = NULL;
  guint seen_after = 0;

  g_assert_no_error (error);
  path = write_wide_tree (dir);
  for (guint cancel_at = 0; cancel_at <= 14; cancel_at += cancel_at < 4 ? 2 : 5)
    {
      FinishSeen f = { g_array_new (FALSE, FALSE, sizeof (guint64)),
                       g_array_new (FALSE, FALSE, sizeof (double)),
                       g_cancellable_new (), cancel_at, 0 };
      TachReader *reader = NULL;
      TachError tach_error;
      TvProfileData *data;

      if (tach_reader_open_path (path, &reader, &tach_error) != TACH_OK)
        g_error ("%s", tach_error.message);
      data = tv_profile_data_load (reader, record_report, &f, f.cancellable, &error);
      for (guint i = 1; i < f.fractions->len; i++)
        {
          g_assert_cmpfloat (g_array_index (f.fractions, double, i), >=,
                             g_array_index (f.fractions, double, i - 1));
          g_assert_cmpuint (g_array_index (f.samples, guint64, i), >=,
                            g_array_index (f.samples, guint64, i - 1));
        }
      if (cancel_at == 0)
        {
          g_assert_no_error (error);
          g_assert_nonnull (data);
          g_assert_cmpuint (tv_profile_data_get_tree (data)->n_nodes, >, 900000);
          g_assert_cmpfloat (g_array_index (f.fractions, double, f.fractions->len - 1), ==, 1.0);
          /* A report every 65,536 nodes of the numbering's walk, each
           * further along the bar than the one before. */
          g_assert_cmpuint (f.after_decoding, >=,
                            tv_profile_data_get_tree (data)->n_nodes / 65536);
          for (guint i = f.fractions->len - f.after_decoding; i + 1 < f.fractions->len; i++)
            g_assert_cmpfloat (g_array_index (f.fractions, double, i), >,
                               g_array_index (f.fractions, double, i - 1));
          seen_after = f.after_decoding;
          tv_profile_data_unref (data);
        }
      else
        {
          g_assert_null (data);
          g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
          /* It stops at the next look, before the next report. */
          g_assert_cmpuint (f.after_decoding, ==, cancel_at);
          g_clear_error (&error);
        }
      g_array_unref (f.samples);
      g_array_unref (f.fractions);
      g_object_unref (f.cancellable);
    }
  g_test_message ("%u reports while the tree was numbered", seen_after);
  g_remove (path);
  g_rmdir (dir);
}

/* Cancelled before it starts: the same error, and nothing left behind. */
static void
test_cancel_at_once (void)
{
  const char *path = big_profile_path ();
  TvProfile *profile;
  Load l;

  profile = load_start (&l, path);
  g_cancellable_cancel (l.cancellable);
  load_go (&l);
  fixture_run_until (&l.done, 120);
  g_assert_error (l.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpint (tv_profile_get_state (profile), ==, TV_PROFILE_FAILED);

  load_done (&l, profile);
}

/* A profile that needs more memory than a load may take: an error that
 * says so and what the limit was, whether the limit is reached at the
 * start or well into the samples, and nothing left behind.  A limit well
 * above what the load needs lets it through: the load counts what it
 * takes, not more. */
static void
test_memory_limit (void)
{
  static const struct {
    guint    kib;
    gboolean fails;
  } limits[] = {
    { 1, TRUE },                /* the first call-tree arrays */
    { 8 * 1024, TRUE },         /* part of the samples */
    { 1024 * 1024, FALSE },
  };
  const char *path = big_profile_path ();

  for (guint i = 0; i < G_N_ELEMENTS (limits); i++)
    {
      g_autofree char *size = g_format_size ((guint64) limits[i].kib * 1024);
      TvProfile *profile;
      Load l;

      tv_profile_data_set_memory_limit (limits[i].kib);
      profile = load_path (&l, path);
      tv_profile_data_set_memory_limit (0);
      if (!limits[i].fails)
        {
          g_assert_no_error (l.error);
          g_assert_cmpuint (tv_profile_data_get_n_samples (tv_profile_get_data (profile)), ==,
                            BIG_SAMPLES);
        }
      else
        {
          g_test_message ("%s: %s", size, l.error ? l.error->message : "no error");
          g_assert_error (l.error, TV_TACH_ERROR, TV_TACH_ERROR_NO_MEMORY);
          g_assert_nonnull (strstr (l.error->message, "Not enough memory to load this profile"));
          g_assert_nonnull (strstr (l.error->message, size));
          g_assert_cmpint (tv_profile_get_state (profile), ==, TV_PROFILE_FAILED);
          g_assert_null (tv_profile_get_data (profile));
        }
      disconnect (&l);
      unref_and_check_finalized (profile);
      load_clear (&l);
    }
}

/* Many threads of a sample each, the shape of issue 15: what a load
 * takes per thread is what the thread holds (some 720 bytes here, most of
 * it the thread's summary, with its statuses' palette, and its stores).
 * It took 128 KiB for each of the first 256 threads (pages made resident
 * ahead of their writes) and some 1.7 KB for every other (a cursor for
 * the deepest stack a file may have, room for 64 samples), nearly all
 * given back at the end but for the holes it left in the heap: this load
 * stopped after 109 threads.  The limit counts what the load takes, so
 * this measures neither time nor the process. */
#define MANY_THREADS      20000
#define MANY_THREADS_KIB  (18 * 1024)

static void
test_many_threads_memory (void)
{
  g_autoptr(GError) error = NULL;
  FormatTestDir tmp;
  g_autoptr(TachReader) reader = NULL;
  g_autoptr(TvProfileData) data = NULL;
  TachWriter *writer = NULL;
  TachError tach_error;
  guint32 frames[16];

  format_test_dir_init (&tmp, "tv-profile-load-XXXXXX");
  writer = format_test_writer_new (tmp.path, TRUE);
  format_test_intern_tasks (writer, G_N_ELEMENTS (frames), frames);
  for (guint t = 0; t < MANY_THREADS; t++)
    {
      /* Three frames, the last two of each thread's own. */
      guint32 stack[3] = { frames[t % 16], frames[(t / 16) % 16], frames[0] };

      g_assert_cmpint (tach_writer_add_sample (writer, 100 + t, 0, 1001000 + t,
                                               TACH_STATUS_ON_CPU, stack, 3, &tach_error),
                       ==, TACH_OK);
    }
  g_assert_cmpint (tach_writer_finish (writer, &tach_error), ==, TACH_OK);

  g_assert_cmpint (tach_reader_open_path (tmp.path, &reader, &tach_error), ==, TACH_OK);
  tv_profile_data_set_memory_limit (MANY_THREADS_KIB);
  data = tv_profile_data_load (g_steal_pointer (&reader), NULL, NULL, NULL, &error);
  tv_profile_data_set_memory_limit (0);
  g_assert_no_error (error);
  g_assert_cmpuint (tv_profile_data_get_n_threads (data), ==, MANY_THREADS);
  g_assert_cmpuint (tv_profile_data_get_n_samples (data), ==, MANY_THREADS);
  for (guint t = 0; t < MANY_THREADS; t++)
    {
      const TvThread *thread = tv_profile_data_get_thread (data, t);
      const TvExactTree *tree = tv_profile_data_get_tree (data);
      guint depth = 0;

      g_assert_cmpuint (thread->n_samples, ==, 1);
      g_assert_cmpuint (tv_times_get (&thread->times, 0), ==, 1001000 + t);
      for (guint32 n = thread->run_leaf[0]; n != TV_ROOT_NODE; n = tv_exact_tree_parent (tree, n))
        depth++;
      g_assert_cmpuint (depth, ==, 3);
    }

  format_test_dir_clear (&tmp);
}

/* ------------------------------------------------------------------------ */
/* (e) Two at once                                                           */
/* ------------------------------------------------------------------------ */

static void
check_same_data (TvProfileData *a,
                 TvProfileData *b)
{
  const TvExactTree *ta = tv_profile_data_get_tree (a);
  const TvExactTree *tb = tv_profile_data_get_tree (b);

  g_assert_cmpuint (tv_profile_data_get_n_samples (a), ==, tv_profile_data_get_n_samples (b));
  g_assert_cmpuint (tv_profile_data_get_n_threads (a), ==, tv_profile_data_get_n_threads (b));
  g_assert_cmpuint (ta->n_nodes, ==, tb->n_nodes);
  for (guint32 n = 0; n < ta->n_nodes; n++)
    {
      g_assert_cmpuint (tv_exact_tree_parent (ta, n), ==, tv_exact_tree_parent (tb, n));
      g_assert_cmpuint (tv_exact_tree_first_child (ta, n), ==, tv_exact_tree_first_child (tb, n));
      if (n != TV_ROOT_NODE)
        g_assert_cmpuint (tv_exact_tree_frame (ta, n), ==, tv_exact_tree_frame (tb, n));
    }
  {
    g_autofree guint64 *sa = tv_profile_data_count_node_samples (a);
    g_autofree guint64 *sb = tv_profile_data_count_node_samples (b);

    g_assert_cmpmem (sa, ta->n_nodes * sizeof (guint64), sb, tb->n_nodes * sizeof (guint64));
  }
  for (guint i = 0; i < tv_profile_data_get_n_threads (a); i++)
    {
      const TvThread *x = tv_profile_data_get_thread (a, i);
      const TvThread *y = tv_profile_data_get_thread (b, i);

      g_assert_cmpuint (x->thread_id, ==, y->thread_id);
      g_assert_cmpuint (x->n_samples, ==, y->n_samples);
      g_assert_cmpuint (x->n_runs, ==, y->n_runs);
      for (guint64 s = 0; s < x->n_samples; s++)
        g_assert_cmpuint (tv_times_get (&x->times, s), ==, tv_times_get (&y->times, s));
      g_assert_cmpmem (x->run_leaf, x->n_runs * sizeof (guint32),
                       y->run_leaf, y->n_runs * sizeof (guint32));
    }
}

static void
test_concurrent (void)
{
  const char *path = big_profile_path ();
  g_autofree char *small_path = fixture_data_path ("valid", "rec_threads.zst.tach");
  TvProfile *first, *second, *small;
  Load a, b, c;
  gboolean overlapped;

  first = load_start (&a, path);
  second = load_start (&b, path);
  small = load_start (&c, small_path);
  load_go (&a);
  load_go (&b);
  load_go (&c);
  fixture_run_until (&a.done, 120);
  fixture_run_until (&b.done, 120);
  fixture_run_until (&c.done, 120);

  g_assert_no_error (a.error);
  g_assert_no_error (b.error);
  g_assert_no_error (c.error);
  /* Both big loads were under way at the same time. */
  overlapped = a.opened_at < b.done_at && b.opened_at < a.done_at;
  g_test_message ("first load decoded in %.3f s; second opened %.3f s after it and decoded "
                  "in %.3f s", (a.done_at - a.opened_at) / 1e6,
                  (b.opened_at - a.opened_at) / 1e6, (b.done_at - b.opened_at) / 1e6);
  g_assert_true (overlapped);

  g_assert_cmpint (tv_profile_get_state (first), ==, TV_PROFILE_LOADED);
  g_assert_cmpint (tv_profile_get_state (second), ==, TV_PROFILE_LOADED);
  g_assert_cmpint (tv_profile_get_state (small), ==, TV_PROFILE_LOADED);
  g_assert_cmpuint (tv_profile_get_samples_loaded (first), ==, BIG_SAMPLES);
  g_assert_cmpuint (tv_profile_get_samples_loaded (second), ==, BIG_SAMPLES);
  g_assert_cmpuint (tv_profile_get_samples_loaded (small), ==, c.header.sample_count);
  check_same_data (tv_profile_get_data (first), tv_profile_get_data (second));

  /* And the progress of one never leaked into the other. */
  for (guint i = 0; i < b.progress->len; i++)
    g_assert_cmpuint (g_array_index (b.progress, guint64, i), <=, BIG_SAMPLES);
  for (guint i = 0; i < c.progress->len; i++)
    g_assert_cmpuint (g_array_index (c.progress, guint64, i), <=, c.header.sample_count);

  disconnect (&a);
  disconnect (&b);
  disconnect (&c);
  unref_and_check_finalized (first);
  unref_and_check_finalized (second);
  unref_and_check_finalized (small);
  load_clear (&a);
  load_clear (&b);
  load_clear (&c);
}

/* ------------------------------------------------------------------------ */
/* (f) Queries on a worker thread                                            */
/* ------------------------------------------------------------------------ */

static TvProfile *
get_big_profile (void)
{
  if (big_profile == NULL)
    {
      Load l;
      TvProfile *profile = load_path (&l, big_profile_path ());

      g_assert_no_error (l.error);
      disconnect (&l);
      load_clear (&l);
      big_profile = profile;
    }
  return big_profile;
}

typedef struct
{
  gboolean    done;
  TvCallTree *tree;
  GError     *error;
} QueryResult;

static void
on_query (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  QueryResult *r = user_data;

  r->tree = tv_profile_query_finish (TV_PROFILE (object), result, &r->error);
  g_assert_true ((r->tree == NULL) == (r->error != NULL));
  r->done = TRUE;
}

static void
test_query (void)
{
  TvProfile *profile = get_big_profile ();
  TvProfileData *data = tv_profile_get_data (profile);
  guint32 threads[2] = { 0, 4 };
  guint32 hidden[1];
  guint32 n_functions = tv_profile_data_get_n_keys (data, TV_MERGE_FUNCTION);

  for (guint i = 0; i < 4; i++)
    {
      QueryResult r = { 0 };
      TvQuery q;
      g_autoptr(TvCallTree) expected = NULL;

      tv_query_init (&q, (TvMergeKey) i);
      q.inverted = i % 2 == 1;
      q.collapse_recursion = i >= 2;
      if (i == 1 || i == 3)
        {
          q.threads = threads;
          q.n_threads = G_N_ELEMENTS (threads);
          q.hidden_functions = hidden;
          q.n_hidden_functions = 1;
          hidden[0] = n_functions / 2;
          q.has_range = TRUE;
          q.range_start = 1000000 + 100000;
          q.range_end = 1000000 + 500000;
        }
      if (i == 2)
        q.callers_of = 3;
      expected = tv_call_tree_new (data, &q, NULL);

      tv_profile_query_async (profile, &q, NULL, on_query, &r);
      /* The query's arrays are the caller's: changing them now must not
       * change the result. */
      threads[0] = threads[1] = 2;
      hidden[0] = 0;
      fixture_run_until (&r.done, 60);
      threads[0] = 0;
      threads[1] = 4;

      g_assert_no_error (r.error);
      fixture_assert_same_trees (r.tree, expected);
      g_assert_true (tv_call_tree_get_data (r.tree) == data);
      g_clear_pointer (&r.tree, tv_call_tree_unref);
    }
}

/* The tree merged by function, made on a thread of its own once asked
 * for, then what its inverted trees climb: the profile's trees by
 * function are then read off them, the same trees as before.  A profile
 * freed while it merges stops it. */
static void
test_merging (void)
{
  g_autofree char *path = fixture_data_path ("valid", "rec_recursive.tach");
  TvQuery q;

  tv_query_init (&q, TV_MERGE_FUNCTION);
  q.count_threads = TRUE;
  for (guint round = 0; round < 2; round++)
    {
      Load l;
      TvProfile *profile = load_path (&l, path);
      TvProfileData *data = tv_profile_get_data (profile);
      g_autoptr(TvCallTree) before = NULL;
      g_autoptr(TvCallTree) after = NULL;
      g_autoptr(TvCallTree) inverted_before = NULL;
      g_autoptr(TvCallTree) inverted_after = NULL;
      TvQuery inverted;
      TvProfileData *merged;
      gint64 deadline = g_get_monotonic_time () + 60 * G_TIME_SPAN_SECOND;
      guint used;

      g_assert_no_error (l.error);
      /* Too small to be worth it. */
      tv_profile_set_merge_min_nodes (tv_profile_data_get_tree (data)->n_nodes + 1);
      tv_profile_start_merging (profile);
      g_usleep (10000);
      g_assert_null (tv_profile_data_get_merged (data));

      tv_profile_set_merge_min_nodes (0);
      before = tv_call_tree_new (data, &q, NULL);
      inverted = q;
      inverted.inverted = TRUE;
      inverted.functions_of = before;
      inverted.count_states = TRUE;
      inverted_before = tv_call_tree_new (data, &inverted, NULL);
      tv_profile_start_merging (profile);
      if (round == 1)
        {
          /* Freed at once: it stops, and frees what it made. */
          tv_profile_set_merge_min_nodes (TV_PROFILE_MERGE_MIN_NODES);
          load_done (&l, profile);
          continue;
        }
      while (tv_profile_data_get_merged (data) == NULL && g_get_monotonic_time () < deadline)
        g_usleep (1000);
      g_assert_nonnull (tv_profile_data_get_merged (data));
      /* The real recursion merges 41 exact nodes into one on average. */
      g_assert_cmpuint (tv_profile_data_get_tree (tv_profile_data_get_merged (data))->n_nodes, <,
                        tv_profile_data_get_tree (data)->n_nodes / 4);
      used = tv_call_tree_get_merged_used ();
      after = tv_call_tree_new (data, &q, NULL);
      g_assert_cmpuint (tv_call_tree_get_merged_used (), ==, used + 1);
      g_assert_true (tv_call_tree_get_data (after) == data);
      fixture_assert_same_trees (after, before);

      /* What the merged tree's inverted trees climb comes next: its
       * recursions are runs of one function. */
      merged = tv_profile_data_get_merged (data);
      while (g_atomic_pointer_get (tv_profile_data_get_prepared (merged, TV_PREPARED_LEAVES)) == NULL
             && g_get_monotonic_time () < deadline)
        g_usleep (1000);
      g_assert_nonnull (g_atomic_pointer_get (tv_profile_data_get_prepared (merged,
                                                                            TV_PREPARED_RUNS)));
      used = tv_call_tree_get_prepared_used ();
      tv_huge_trim ();
      inverted_after = tv_call_tree_new (data, &inverted, NULL);
      g_assert_cmpuint (tv_call_tree_get_prepared_used (), ==, used + 1);
      fixture_assert_same_trees (inverted_after, inverted_before);
      tv_profile_set_merge_min_nodes (TV_PROFILE_MERGE_MIN_NODES);
      load_done (&l, profile);
    }
}

static void
test_query_cancel (void)
{
  TvProfile *profile = get_big_profile ();
  guint n_cancelled = 0;

  /* Cancelled before, at once and a little later: an error or, when the
   * query had already finished, its tree; no leak either way. */
  for (guint i = 0; i < 3; i++)
    {
      g_autoptr(GCancellable) cancellable = g_cancellable_new ();
      QueryResult r = { 0 };
      TvQuery q;

      tv_query_init (&q, TV_MERGE_LINE);
      q.inverted = TRUE;
      if (i == 0)
        g_cancellable_cancel (cancellable);
      tv_profile_query_async (profile, &q, cancellable, on_query, &r);
      if (i == 1)
        g_cancellable_cancel (cancellable);
      else if (i == 2)
        {
          g_usleep (2000);
          g_cancellable_cancel (cancellable);
        }
      fixture_run_until (&r.done, 60);
      if (r.error != NULL)
        {
          g_assert_error (r.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
          n_cancelled++;
        }
      else
        g_assert_nonnull (r.tree);
      g_clear_error (&r.error);
      g_clear_pointer (&r.tree, tv_call_tree_unref);
    }
  g_test_message ("%u of 3 queries cancelled", n_cancelled);
  /* The one cancelled before it started cannot have finished. */
  g_assert_cmpuint (n_cancelled, >=, 1);
}

/* Before the samples are there, a query is an error, not a crash. */
static void
test_query_not_loaded (void)
{
  g_autofree char *path = fixture_data_path ("valid", "tiny.tach");
  g_autoptr(GFile) file = g_file_new_for_path (path);
  TvProfile *profile = tv_profile_new (file);
  QueryResult r = { 0 };
  TvQuery q;

  tv_query_init (&q, TV_MERGE_FUNCTION);
  tv_profile_query_async (profile, &q, NULL, on_query, &r);
  fixture_run_until (&r.done, 10);
  g_assert_error (r.error, G_IO_ERROR, G_IO_ERROR_NOT_INITIALIZED);
  g_clear_error (&r.error);
  unref_and_check_finalized (profile);
}

/* ------------------------------------------------------------------------ */
/* (g) Samples to seconds                                                    */
/* ------------------------------------------------------------------------ */

static void
check_time (const char   *name,
            TvTimeSource  expected_source,
            double        expected)
{
  g_autofree char *path = fixture_data_path ("valid", name);
  TvProfile *profile;
  TvProfileData *data;
  g_autoptr(TvCallTree) tree = NULL;
  TvTimeSource source = -1;
  TvQuery q;
  double seconds;
  Load l;

  profile = load_path (&l, path);
  g_assert_no_error (l.error);
  data = tv_profile_get_data (profile);

  seconds = tv_profile_data_get_seconds_per_sample (data, &source);
  g_test_message ("%s: %.9g s per sample, source %d", name, seconds, source);
  g_assert_cmpint (source, ==, expected_source);
  g_assert_cmpfloat_with_epsilon (seconds, expected, 1e-15);
  /* The source is optional. */
  g_assert_cmpfloat (tv_profile_data_get_seconds_per_sample (data, NULL), ==, seconds);

  tv_query_init (&q, TV_MERGE_FUNCTION);
  tree = tv_call_tree_new (data, &q, NULL);
  source = -1;
  g_assert_cmpfloat_with_epsilon (tv_call_tree_samples_to_seconds (tree, 1000, &source),
                                  1000 * expected, 1e-12);
  g_assert_cmpint (source, ==, expected_source);
  g_assert_cmpfloat (tv_call_tree_samples_to_seconds (tree, 0, NULL), ==, 0.0);

  g_clear_pointer (&tree, tv_call_tree_unref);
  load_done (&l, profile);
}

static void
test_time (void)
{
  g_autofree char *legacy = fixture_data_path ("valid", "legacy_nostats.tach");
  g_autofree char *unknown = fixture_data_path ("valid", "stats_unknown_version.tach");
  g_autoptr(TachReader) reader = NULL;
  g_autoptr(TachReader) reader2 = NULL;
  TachError error;

  /* A measured rate wins, in either layout of the block. */
  check_time ("stats_v56_full.tach", TV_TIME_SOURCE_STATS, 1.0 / 998.25);
  check_time ("stats_v32.tach", TV_TIME_SOURCE_STATS, 1.0 / 998.25);

  /* Without one, the header's interval. */
  if (tach_reader_open_path (legacy, &reader, &error) != TACH_OK)
    g_error ("%s", error.message);
  check_time ("legacy_nostats.tach", TV_TIME_SOURCE_INTERVAL,
              tach_reader_get_header (reader)->sample_interval_us / 1e6);
  if (tach_reader_open_path (unknown, &reader2, &error) != TACH_OK)
    g_error ("%s", error.message);
  g_assert_false (tach_reader_get_stats (reader2)->present);
  check_time ("stats_unknown_version.tach", TV_TIME_SOURCE_INTERVAL,
              tach_reader_get_header (reader2)->sample_interval_us / 1e6);
}

int
main (int    argc,
      char **argv)
{
  static const char * const invalid[] = {
    "bad_magic.tach",                   /* open */
    "stats_nan_duration.tach",          /* open, in the stats block */
    "stack_depth_300.tach",             /* decode */
    "sample_count_mismatch.tach",       /* decode, at the end */
    "zstd_corrupt_payload.tach",        /* decode, in zstd */
  };
  int ret;

  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/model/profile/opened", test_opened);
  for (guint i = 0; i < G_N_ELEMENTS (invalid); i++)
    {
      g_autofree char *name = g_strdup_printf ("/model/profile/invalid/%s", invalid[i]);

      g_test_add_data_func (name, invalid[i], test_invalid);
    }
  g_test_add_func ("/model/profile/missing", test_missing);
  g_test_add_func ("/model/profile/not-local", test_not_local);
  g_test_add_func ("/model/profile/progress", test_progress);
  g_test_add_func ("/model/profile/cancel", test_cancel);
  g_test_add_func ("/model/profile/cancel-seen", test_cancel_seen);
  g_test_add_func ("/model/profile/cancel-at-once", test_cancel_at_once);
  g_test_add_func ("/model/profile/finish-progress", test_finish_progress);
  g_test_add_func ("/model/profile/memory-limit", test_memory_limit);
  g_test_add_func ("/model/profile/many-threads-memory", test_many_threads_memory);
  g_test_add_func ("/model/profile/concurrent", test_concurrent);
  g_test_add_func ("/model/profile/query", test_query);
  g_test_add_func ("/model/profile/query-cancel", test_query_cancel);
  g_test_add_func ("/model/profile/merging", test_merging);
  g_test_add_func ("/model/profile/query-not-loaded", test_query_not_loaded);
  g_test_add_func ("/model/profile/time", test_time);

  ret = g_test_run ();

  if (big_profile != NULL)
    unref_and_check_finalized (g_steal_pointer (&big_profile));
  if (big_path != NULL)
    {
      g_remove (big_path);
      g_rmdir (big_dir);
    }
  g_clear_pointer (&big_path, g_free);
  g_clear_pointer (&big_dir, g_free);
  return ret;
}
