/* test-quality.c: the data-quality findings (tv-quality.h) and what a
 * failed load means (tv_load_failure_from_error)
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * On corpus files whose statistics are bad (see the corpus README), and
 * on profiles written here with the library's writer, one per finding,
 * and ones with none.
 */
#include <string.h>

#include <glib/gstdio.h>

#include "model-fixture.h"
#include "tv-profile.h"
#include "tv-quality.h"
#include "tv-tach-error.h"

static char *tmp_dir;

/* The finding of KIND in FINDINGS, or NULL; there is at most one of a kind
 * but "file" and "impossible-statistic". */
static const TvFinding *
find (GPtrArray     *findings,
      TvFindingKind  kind)
{
  for (guint i = 0; i < findings->len; i++)
    {
      const TvFinding *finding = g_ptr_array_index (findings, i);

      if (finding->kind == kind)
        return finding;
    }
  return NULL;
}

static double
figure (const TvFinding *finding,
        const char      *name)
{
  for (guint i = 0; i < finding->n_figures; i++)
    {
      if (strcmp (finding->figures[i].name, name) == 0)
        return finding->figures[i].value;
    }
  g_error ("finding %s has no figure %s", tv_finding_kind_to_string (finding->kind), name);
}

/* The kinds of FINDINGS, in order, as "a,b,c". */
static char *
kinds (GPtrArray *findings)
{
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < findings->len; i++)
    {
      const TvFinding *finding = g_ptr_array_index (findings, i);

      g_string_append_printf (out, "%s%s", i > 0 ? "," : "",
                              tv_finding_kind_to_string (finding->kind));
      g_assert_nonnull (finding->message);
      g_assert_cmpuint (strlen (finding->message), >, 10);
    }
  return g_string_free (out, FALSE);
}

static GPtrArray *
check_corpus (const char *name)
{
  TvProfileData *data = fixture_load_corpus (name);
  GPtrArray *findings = tv_quality_check_data (data);

  tv_profile_data_unref (data);
  return findings;
}

static void
test_corpus_missed (void)
{
  g_autoptr(GPtrArray) findings = check_corpus ("rec_threads.tach");
  g_autofree char *k = kinds (findings);
  const TvFinding *f = find (findings, TV_FINDING_MISSED_SAMPLES);

  g_assert_cmpstr (k, ==, "missed-samples");
  g_assert_cmpint (f->severity, ==, TV_SEVERITY_SEVERE);
  g_assert_cmpfloat_with_epsilon (figure (f, "missed_samples_percent"), 37.7777, 1e-3);
  g_assert_nonnull (strstr (f->message, "37.8 %"));
}

static void
test_corpus_negative_missed (void)
{
  g_autoptr(GPtrArray) findings = check_corpus ("stats_v56_missed_negative.tach");
  g_autofree char *k = kinds (findings);
  const TvFinding *f = find (findings, TV_FINDING_IMPOSSIBLE_STAT);
  const TvFinding *d = find (findings, TV_FINDING_DURATION_MISMATCH);

  /* Worst first. */
  g_assert_cmpstr (k, ==, "impossible-statistic,duration-mismatch");
  g_assert_cmpint (f->severity, ==, TV_SEVERITY_SEVERE);
  g_assert_cmpfloat (figure (f, "missed_samples_percent"), ==, -2.75);
  g_assert_nonnull (strstr (f->message, "-2.75 %"));
  g_assert_cmpfloat (figure (d, "recorded_sec"), ==, 2.5);
  g_assert_cmpfloat_with_epsilon (figure (d, "observed_sec"), 0.998, 1e-3);
}

static void
test_corpus_error_rate (void)
{
  g_autoptr(GPtrArray) findings = check_corpus ("stats_v56_full.tach");
  g_autofree char *k = kinds (findings);

  /* 3.5 % missed is under the threshold. */
  g_assert_cmpstr (k, ==, "error-rate,duration-mismatch");
  g_assert_cmpfloat (figure (find (findings, TV_FINDING_ERROR_RATE), "error_rate_percent"), ==, 1.25);
}

static void
test_corpus_truncated (void)
{
  g_autoptr(GPtrArray) encodings = check_corpus ("encodings.tach");
  g_autoptr(GPtrArray) recursive = check_corpus ("rec_recursive.tach");
  const TvFinding *f = find (encodings, TV_FINDING_TRUNCATED_STACKS);

  /* encodings.tach holds one 301-frame stack, cut to 256. */
  g_assert_nonnull (f);
  g_assert_cmpfloat (figure (f, "samples"), ==, 1);
  g_assert_cmpfloat (figure (f, "frame_limit"), ==, 256);
  g_assert_nonnull (find (recursive, TV_FINDING_TRUNCATED_STACKS));
  g_assert_cmpfloat (figure (find (recursive, TV_FINDING_TRUNCATED_STACKS), "samples"), >, 100);
}

static void
test_corpus_file_warning (void)
{
  g_autoptr(GPtrArray) findings = check_corpus ("footer_size_mismatch.tach");
  g_autofree char *k = kinds (findings);
  const TvFinding *f = find (findings, TV_FINDING_FILE);

  g_assert_cmpstr (k, ==, "file");
  g_assert_cmpint (f->severity, ==, TV_SEVERITY_NOTICE);
  g_assert_nonnull (strstr (f->message, "Footer file_size is 240"));
}

static void
test_corpus_none (void)
{
  const char * const clean[] = { "tiny.tach", "mode_wall.tach", "two_interpreters.tach",
                                 "legacy_nostats.tach", "empty.tach" };

  for (guint i = 0; i < G_N_ELEMENTS (clean); i++)
    {
      g_autoptr(GPtrArray) findings = check_corpus (clean[i]);
      g_autofree char *k = kinds (findings);

      g_test_message ("%s: %s", clean[i], k);
      g_assert_cmpstr (k, ==, "");
    }
}

/* ------------------------------------------------------------------------ */
/* Profiles written here                                                     */
/* ------------------------------------------------------------------------ */

typedef struct
{
  guint   n_samples;          /* one a millisecond */
  double  duration_sec;
  double  sample_rate;
  double  error_rate;
  double  missed;
  guint   deep_every;         /* every Nth sample has 300 frames; 0: none */
} Spec;

static const Spec clean_spec = { 1000, 1.0, 1000.0, 0.0, 1.0, 0 };

static char *
write_spec (const char *name,
            const Spec *spec)
{
  char *path = g_build_filename (tmp_dir, name, NULL);
  TachWriterOptions options = { .sample_interval_us = 1000, .start_time_us = 1000000,
                                .mode_raw = 1 };
  TachStats stats = { .present = TRUE, .block_size = 56, .duration_sec = spec->duration_sec,
                      .sample_rate = spec->sample_rate, .has_error_rate = TRUE,
                      .error_rate = spec->error_rate, .has_missed_samples = TRUE,
                      .missed_samples = spec->missed,
                      .flags = TACH_STATS_ERROR_RATE | TACH_STATS_MISSED };
  TachWriter *writer;
  TachError error;
  guint32 frames[300];

  g_assert_cmpint (tach_writer_new (path, &options, &writer, &error), ==, TACH_OK);
  for (guint i = 0; i < G_N_ELEMENTS (frames); i++)
    {
      g_autofree char *func = g_strdup_printf ("level_%u", i);
      TachFrameInfo info = { "app.py", func, (gint32) i + 1, (gint32) i + 1, -1, -1, 255 };

      g_assert_cmpint (tach_writer_intern_frame (writer, &info, &frames[i], &error), ==, TACH_OK);
    }
  for (guint i = 0; i < spec->n_samples; i++)
    {
      gsize depth = spec->deep_every > 0 && i % spec->deep_every == 0 ? 300 : 3 + i % 5;

      g_assert_cmpint (tach_writer_add_sample (writer, 7, 0, 1000000 + 1000 * (guint64) i, 3,
                                               frames, depth, &error), ==, TACH_OK);
    }
  g_assert_cmpint (tach_writer_set_stats (writer, &stats, &error), ==, TACH_OK);
  g_assert_cmpint (tach_writer_finish (writer, &error), ==, TACH_OK);
  return path;
}

static GPtrArray *
check_spec (const char *name,
            const Spec *spec)
{
  g_autofree char *path = write_spec (name, spec);
  TvProfileData *data = fixture_load (path);
  GPtrArray *findings = tv_quality_check_data (data);

  tv_profile_data_unref (data);
  g_remove (path);
  return findings;
}

static void
test_written_clean (void)
{
  g_autoptr(GPtrArray) findings = check_spec ("clean.tach", &clean_spec);

  g_assert_cmpuint (findings->len, ==, 0);
}

static void
test_written_missed (void)
{
  Spec spec = clean_spec;

  /* Just under and just over the threshold, and a severe share. */
  spec.missed = 4.9;
  {
    g_autoptr(GPtrArray) findings = check_spec ("missed-4.tach", &spec);

    g_assert_cmpuint (findings->len, ==, 0);
  }
  spec.missed = 5.1;
  {
    g_autoptr(GPtrArray) findings = check_spec ("missed-5.tach", &spec);
    const TvFinding *f = find (findings, TV_FINDING_MISSED_SAMPLES);

    g_assert_cmpuint (findings->len, ==, 1);
    g_assert_cmpint (f->severity, ==, TV_SEVERITY_WARNING);
    g_assert_cmpfloat (figure (f, "threshold_percent"), ==, TV_QUALITY_MISSED_PERCENT);
  }
  spec.missed = 37.0;
  {
    g_autoptr(GPtrArray) findings = check_spec ("missed-37.tach", &spec);
    const TvFinding *f = find (findings, TV_FINDING_MISSED_SAMPLES);

    g_assert_cmpint (f->severity, ==, TV_SEVERITY_SEVERE);
    g_assert_cmpfloat (figure (f, "missed_samples_percent"), ==, 37.0);
  }
  spec.missed = 140.0;
  {
    g_autoptr(GPtrArray) findings = check_spec ("missed-140.tach", &spec);
    g_autofree char *k = kinds (findings);

    g_assert_cmpstr (k, ==, "impossible-statistic");
  }
}

static void
test_written_error_rate (void)
{
  Spec spec = clean_spec;

  spec.error_rate = 0.5;
  {
    g_autoptr(GPtrArray) findings = check_spec ("error.tach", &spec);
    g_autofree char *k = kinds (findings);

    g_assert_cmpstr (k, ==, "error-rate");
    g_assert_nonnull (strstr (find (findings, TV_FINDING_ERROR_RATE)->message, "0.5 %"));
  }
  spec.error_rate = 250.0;
  {
    g_autoptr(GPtrArray) findings = check_spec ("error-250.tach", &spec);
    g_autofree char *k = kinds (findings);

    g_assert_cmpstr (k, ==, "impossible-statistic");
  }
}

static void
test_written_rate (void)
{
  Spec spec = clean_spec;
  g_autoptr(GPtrArray) findings = NULL;
  g_autofree char *k = NULL;

  /* 1 ms asked for, 5000 samples/s recorded. */
  spec.sample_rate = 5000.0;
  findings = check_spec ("rate.tach", &spec);
  k = kinds (findings);
  g_assert_cmpstr (k, ==, "impossible-statistic");
  g_assert_cmpfloat (figure (g_ptr_array_index (findings, 0), "nominal_rate"), ==, 1000.0);
  /* Figures of four digits read as such, grouped, not as "5e+03". */
  {
    const TvFinding *f = g_ptr_array_index (findings, 0);

    g_test_message ("%s", f->message);
    g_assert_nonnull (strstr (f->message, "5,000 samples/s"));
    g_assert_nonnull (strstr (f->message, "1,000 samples/s"));
    g_assert_null (strstr (f->message, "e+"));
  }
}

static void
test_written_duration (void)
{
  Spec spec = clean_spec;

  /* The samples span 0.999 s. */
  spec.duration_sec = 1.2;
  {
    g_autoptr(GPtrArray) findings = check_spec ("duration-close.tach", &spec);

    g_assert_cmpuint (findings->len, ==, 0);
  }
  spec.duration_sec = 2.5;
  {
    g_autoptr(GPtrArray) findings = check_spec ("duration-far.tach", &spec);
    const TvFinding *f = find (findings, TV_FINDING_DURATION_MISMATCH);

    g_assert_cmpuint (findings->len, ==, 1);
    g_assert_cmpfloat (figure (f, "recorded_sec"), ==, 2.5);
    g_assert_cmpfloat_with_epsilon (figure (f, "observed_sec"), 0.999, 1e-9);
  }
  spec.duration_sec = 0.4;
  {
    g_autoptr(GPtrArray) findings = check_spec ("duration-short.tach", &spec);

    g_assert_nonnull (find (findings, TV_FINDING_DURATION_MISMATCH));
  }
}

static void
test_written_truncated (void)
{
  Spec spec = clean_spec;
  g_autoptr(GPtrArray) findings = NULL;
  const TvFinding *f;

  spec.deep_every = 100;
  findings = check_spec ("deep.tach", &spec);
  f = find (findings, TV_FINDING_TRUNCATED_STACKS);
  g_assert_cmpuint (findings->len, ==, 1);
  g_assert_cmpfloat (figure (f, "samples"), ==, 10);
  g_assert_cmpfloat_with_epsilon (figure (f, "share_percent"), 1.0, 1e-9);
  g_assert_nonnull (strstr (f->message, "10 samples (1 %)"));
}

/* Before the samples are in, only what the metadata says. */
static void
test_metadata_only (void)
{
  TvProfileHeader header = { .sample_interval_us = 1000 };
  TvProfileStats stats = { .present = TRUE, .duration_sec = 99.0, .sample_rate = 1000.0,
                      .has_missed_samples = TRUE, .missed_samples = 12.0 };
  TvQualityFacts facts = { .header = &header, .stats = &stats,
                           .n_samples = 1000, .first_timestamp_us = 0,
                           .last_timestamp_us = 1000000, .n_at_depth_limit = 5 };
  g_autoptr(GPtrArray) before = tv_quality_check (&facts);
  g_autoptr(GPtrArray) after = NULL;
  g_autofree char *k_before = kinds (before);
  g_autofree char *k_after = NULL;

  g_assert_cmpstr (k_before, ==, "missed-samples");
  facts.decoded = TRUE;
  after = tv_quality_check (&facts);
  k_after = kinds (after);
  g_assert_cmpstr (k_after, ==, "missed-samples,duration-mismatch,truncated-stacks");
}

/* ------------------------------------------------------------------------ */
/* TvProfile: the findings it keeps, and what a failed load means           */
/* ------------------------------------------------------------------------ */

typedef struct
{
  gboolean  done;
  GError   *error;
} Load;

static void
on_loaded (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  Load *l = user_data;

  tv_profile_load_finish (TV_PROFILE (object), result, &l->error);
  l->done = TRUE;
}

static TvProfile *
load (const char *path,
      Load       *l)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  TvProfile *profile = tv_profile_new (file);

  memset (l, 0, sizeof *l);
  tv_profile_load_async (profile, NULL, on_loaded, l);
  fixture_run_until (&l->done, 60);
  return profile;
}

static void
test_profile_findings (void)
{
  g_autofree char *path = fixture_data_path ("valid", "rec_threads.tach");
  g_autoptr(TvProfile) profile = NULL;
  g_autofree char *k = NULL;
  Load l;

  profile = load (path, &l);
  g_assert_no_error (l.error);
  k = kinds (tv_profile_get_findings (profile));
  g_assert_cmpstr (k, ==, "missed-samples");
}

static TvLoadFailure
failure_of (const char *path)
{
  g_autoptr(TvProfile) profile = NULL;
  TvLoadFailure failure;
  Load l;

  profile = load (path, &l);
  g_assert_nonnull (l.error);
  g_test_message ("%s: %s", path, l.error->message);
  failure = tv_load_failure_from_error (l.error);
  g_assert_nonnull (tv_load_failure_describe (failure));
  g_clear_error (&l.error);
  return failure;
}

static void
test_failures (void)
{
  static const struct
  {
    const char    *name;
    TvLoadFailure  failure;
  } cases[] = {
    { "bad_magic.tach", TV_LOAD_FAILURE_NOT_PROFILE },
    { "truncated_half.tach", TV_LOAD_FAILURE_CUT_SHORT },
    { "truncated_header.tach", TV_LOAD_FAILURE_CUT_SHORT },
    { "empty_file.tach", TV_LOAD_FAILURE_CUT_SHORT },
    { "zstd_truncated_stream.tach", TV_LOAD_FAILURE_CUT_SHORT },
    { "trailing_partial_record.tach", TV_LOAD_FAILURE_CUT_SHORT },
    { "future_version.tach", TV_LOAD_FAILURE_NEWER_VERSION },
    { "beta_layout_u32_samples.tach", TV_LOAD_FAILURE_UNSUPPORTED },
    { "stack_depth_300.tach", TV_LOAD_FAILURE_DAMAGED },
    { "frame_index_oob.tach", TV_LOAD_FAILURE_DAMAGED },
    { "version_zero.tach", TV_LOAD_FAILURE_DAMAGED },
  };
  g_autofree char *missing = g_build_filename (tmp_dir, "no-such-file.tach", NULL);

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *path = fixture_data_path ("invalid", cases[i].name);

      g_assert_cmpint (failure_of (path), ==, cases[i].failure);
    }
  g_assert_cmpint (failure_of (missing), ==, TV_LOAD_FAILURE_NOT_FOUND);
  g_assert_cmpint (failure_of (tmp_dir), ==, TV_LOAD_FAILURE_NOT_REGULAR);
}

int
main (int   argc,
      char *argv[])
{
  int status;

  g_test_init (&argc, &argv, NULL);
  tmp_dir = g_dir_make_tmp ("tv-quality-XXXXXX", NULL);
  g_assert_nonnull (tmp_dir);

  g_test_add_func ("/quality/corpus/missed", test_corpus_missed);
  g_test_add_func ("/quality/corpus/negative-missed", test_corpus_negative_missed);
  g_test_add_func ("/quality/corpus/error-rate", test_corpus_error_rate);
  g_test_add_func ("/quality/corpus/truncated", test_corpus_truncated);
  g_test_add_func ("/quality/corpus/file-warning", test_corpus_file_warning);
  g_test_add_func ("/quality/corpus/none", test_corpus_none);
  g_test_add_func ("/quality/written/clean", test_written_clean);
  g_test_add_func ("/quality/written/missed", test_written_missed);
  g_test_add_func ("/quality/written/error-rate", test_written_error_rate);
  g_test_add_func ("/quality/written/rate", test_written_rate);
  g_test_add_func ("/quality/written/duration", test_written_duration);
  g_test_add_func ("/quality/written/truncated", test_written_truncated);
  g_test_add_func ("/quality/metadata-only", test_metadata_only);
  g_test_add_func ("/quality/profile", test_profile_findings);
  g_test_add_func ("/quality/failures", test_failures);

  status = g_test_run ();
  g_rmdir (tmp_dir);
  g_free (tmp_dir);
  return status;
}
