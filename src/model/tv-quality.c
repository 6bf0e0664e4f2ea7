/* tv-quality.c: what in a profile should make its reader wary
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One place decides what is wrong with a profile's data, so that the
 * profile page's banner, the Properties page, `--info` and the exported
 * page all say the same thing: the statistics the profiler recorded
 * (missed samples, error rate) when they say the run was not sampled
 * well, statistics that cannot be true or that the samples contradict,
 * stacks cut at the format's limit, and the format library's own
 * warnings about the file.
 */
#include "tv-quality.h"
#include "tv-units.h"
#include "tv-metadata-reader.h"

#include <math.h>

#include <glib/gi18n.h>

/* A recorded duration and the samples' span differ by more than this
 * share of the longer one and by more than MISMATCH_SLACK_SEC plus two
 * sampling intervals: the span misses up to an interval at each end, and
 * a short profile's figures are rounded. */
#define MISMATCH_SHARE     0.25
#define MISMATCH_SLACK_SEC 0.1
/* A measured rate this far above the nominal one cannot be: the sampler
 * never samples faster than it was asked to, give or take jitter. */
#define RATE_OVER_NOMINAL  1.5

const char *
tv_finding_kind_to_string (TvFindingKind kind)
{
  switch (kind)
    {
    case TV_FINDING_MISSED_SAMPLES:
      return "missed-samples";
    case TV_FINDING_ERROR_RATE:
      return "error-rate";
    case TV_FINDING_IMPOSSIBLE_STAT:
      return "impossible-statistic";
    case TV_FINDING_DURATION_MISMATCH:
      return "duration-mismatch";
    case TV_FINDING_TRUNCATED_STACKS:
      return "truncated-stacks";
    case TV_FINDING_FILE:
    default:
      return "file";
    }
}

const char *
tv_severity_to_string (TvSeverity severity)
{
  switch (severity)
    {
    case TV_SEVERITY_SEVERE:
      return "severe";
    case TV_SEVERITY_WARNING:
      return "warning";
    case TV_SEVERITY_NOTICE:
    default:
      return "notice";
    }
}

void
tv_finding_free (TvFinding *finding)
{
  if (finding == NULL)
    return;
  g_free (finding->message);
  g_free (finding);
}

static TvFinding *
add (GPtrArray     *findings,
     TvFindingKind  kind,
     TvSeverity     severity,
     char          *message)
{
  TvFinding *finding = g_new0 (TvFinding, 1);

  finding->kind = kind;
  finding->severity = severity;
  finding->message = message;
  g_ptr_array_add (findings, finding);
  return finding;
}

static void
figure (TvFinding  *finding,
        const char *name,
        double      value)
{
  g_assert (finding->n_figures < TV_FINDING_MAX_FIGURES);
  finding->figures[finding->n_figures].name = name;
  finding->figures[finding->n_figures].value = value;
  finding->n_figures++;
}

/* Figures in the sentences: what a reader reads, not every digit. */
static char *
short_number (double value)
{
  /* Three significant digits, 5000 as "5,000", not "5e+03". */
  return tv_format_significant (value);
}

static char *
percent_number (double value)
{
  if (fabs (value) >= 10.0 || value == 0.0)
    return g_strdup_printf ("%.1f", value);
  return g_strdup_printf ("%.3g", value);
}

static void
check_stats (const TvQualityFacts *facts,
             GPtrArray            *findings)
{
  const TvProfileStats *stats = facts->stats;
  const TvProfileHeader *header = facts->header;
  TvFinding *f;

  if (stats == NULL || !stats->present)
    return;

  if (stats->has_missed_samples && isfinite (stats->missed_samples))
    {
      g_autofree char *number = percent_number (stats->missed_samples);

      if (stats->missed_samples < 0.0 || stats->missed_samples > 100.0)
        {
          f = add (findings, TV_FINDING_IMPOSSIBLE_STAT, TV_SEVERITY_SEVERE,
                   /* Translators: %s is a number; "%%" is a per cent sign. */
                   g_strdup_printf (_("The file records %s %% missed samples, which is impossible: "
                                      "its statistics cannot be trusted."), number));
          figure (f, "missed_samples_percent", stats->missed_samples);
        }
      else if (stats->missed_samples > TV_QUALITY_MISSED_PERCENT)
        {
          gboolean severe = stats->missed_samples >= TV_QUALITY_MISSED_SEVERE_PERCENT;

          f = add (findings, TV_FINDING_MISSED_SAMPLES,
                   severe ? TV_SEVERITY_SEVERE : TV_SEVERITY_WARNING,
                   g_strdup_printf (_("The profiler missed %s %% of its samples: what slowed it "
                                      "down may be under-represented."), number));
          figure (f, "missed_samples_percent", stats->missed_samples);
          figure (f, "threshold_percent", TV_QUALITY_MISSED_PERCENT);
        }
    }

  if (stats->has_error_rate && isfinite (stats->error_rate))
    {
      g_autofree char *number = percent_number (stats->error_rate);

      if (stats->error_rate < 0.0 || stats->error_rate > 100.0)
        {
          f = add (findings, TV_FINDING_IMPOSSIBLE_STAT, TV_SEVERITY_SEVERE,
                   g_strdup_printf (_("The file records an error rate of %s %%, which is "
                                      "impossible: its statistics cannot be trusted."), number));
          figure (f, "error_rate_percent", stats->error_rate);
        }
      else if (stats->error_rate > 0.0)
        {
          f = add (findings, TV_FINDING_ERROR_RATE, TV_SEVERITY_WARNING,
                   g_strdup_printf (_("%s %% of the profiler's attempts to sample failed: "
                                      "those moments are not in the profile."), number));
          figure (f, "error_rate_percent", stats->error_rate);
        }
    }

  if (header != NULL && header->sample_interval_us > 0 && isfinite (stats->sample_rate))
    {
      double nominal = 1e6 / (double) header->sample_interval_us;

      if (stats->sample_rate > nominal * RATE_OVER_NOMINAL)
        {
          g_autofree char *measured = short_number (stats->sample_rate);
          g_autofree char *asked = short_number (nominal);

          f = add (findings, TV_FINDING_IMPOSSIBLE_STAT, TV_SEVERITY_SEVERE,
                   g_strdup_printf (_("The file records %s samples/s, faster than the %s "
                                      "samples/s the profiler was asked for: its statistics "
                                      "cannot be trusted."), measured, asked));
          figure (f, "sample_rate", stats->sample_rate);
          figure (f, "nominal_rate", nominal);
        }
    }
}

static void
check_samples (const TvQualityFacts *facts,
               GPtrArray            *findings)
{
  const TvProfileStats *stats = facts->stats;
  TvFinding *f;

  if (!facts->decoded)
    return;

  if (stats != NULL && stats->present && isfinite (stats->duration_sec)
      && facts->n_samples >= 2 && facts->last_timestamp_us >= facts->first_timestamp_us)
    {
      double recorded = stats->duration_sec;
      double observed = (double) (facts->last_timestamp_us - facts->first_timestamp_us) / 1e6;
      double interval = facts->header != NULL ? (double) facts->header->sample_interval_us / 1e6 : 0.0;
      double diff = fabs (recorded - observed);

      if (diff > MISMATCH_SHARE * MAX (recorded, observed)
          && diff > MISMATCH_SLACK_SEC + 2.0 * interval)
        {
          g_autofree char *a = short_number (recorded);
          g_autofree char *b = short_number (observed);

          f = add (findings, TV_FINDING_DURATION_MISMATCH, TV_SEVERITY_WARNING,
                   g_strdup_printf (_("The file records a duration of %s s, but its samples "
                                      "span %s s: times taken from its statistics may be "
                                      "wrong."), a, b));
          figure (f, "recorded_sec", recorded);
          figure (f, "observed_sec", observed);
        }
    }

  if (facts->n_at_depth_limit > 0 && facts->n_samples > 0)
    {
      double share = 100.0 * (double) facts->n_at_depth_limit / (double) facts->n_samples;
      g_autofree char *count = g_strdup_printf ("%" G_GUINT64_FORMAT, facts->n_at_depth_limit);
      g_autofree char *number = percent_number (share);
      gulong n = facts->n_at_depth_limit > G_MAXULONG ? G_MAXULONG : (gulong) facts->n_at_depth_limit;

      f = add (findings, TV_FINDING_TRUNCATED_STACKS, TV_SEVERITY_WARNING,
               g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                             "%s sample (%s %%) has a stack of %d frames, the "
                                             "format's limit: its outermost frames may be cut off.",
                                             "%s samples (%s %%) have stacks of %d frames, the "
                                             "format's limit: their outermost frames may be cut off.",
                                             n),
                                count, number, TV_MAX_STACK_DEPTH));
      figure (f, "samples", (double) facts->n_at_depth_limit);
      figure (f, "share_percent", share);
      figure (f, "frame_limit", TV_MAX_STACK_DEPTH);
    }
}

GPtrArray *
tv_quality_check (const TvQualityFacts *facts)
{
  g_autoptr(GPtrArray) found = g_ptr_array_new ();
  GPtrArray *findings = g_ptr_array_new_with_free_func ((GDestroyNotify) tv_finding_free);

  g_return_val_if_fail (facts != NULL, findings);

  check_stats (facts, found);
  check_samples (facts, found);
  if (facts->file_warnings != NULL)
    {
      /* The library's sentences are English and name fields and offsets:
       * they are shown as they are. */
      for (guint i = 0; facts->file_warnings[i] != NULL; i++)
        add (found, TV_FINDING_FILE, TV_SEVERITY_NOTICE, g_strdup (facts->file_warnings[i]));
    }

  /* Worst first, in the order found within a severity. */
  for (int severity = TV_SEVERITY_SEVERE; severity >= TV_SEVERITY_NOTICE; severity--)
    {
      for (guint i = 0; i < found->len; i++)
        {
          TvFinding *finding = g_ptr_array_index (found, i);

          if ((int) finding->severity == severity)
            g_ptr_array_add (findings, finding);
        }
    }
  return findings;
}

GPtrArray *
tv_quality_check_data (TvProfileData *data)
{
  TachReader *reader;
  TvProfileHeader header;
  TvProfileStats stats;
  TvQualityFacts facts = { 0 };
  g_autofree const char **warnings = NULL;
  gsize n_warnings;

  g_return_val_if_fail (data != NULL, NULL);

  reader = tv_profile_data_get_reader (data);
  n_warnings = tach_reader_get_n_warnings (reader);
  warnings = g_new0 (const char *, n_warnings + 1);
  for (gsize i = 0; i < n_warnings; i++)
    warnings[i] = tach_reader_get_warning (reader, i);

  tv_metadata_from_reader (reader, &header, NULL, &stats, NULL, NULL);
  facts.header = &header;
  facts.stats = &stats;
  facts.file_warnings = warnings;
  facts.decoded = TRUE;
  facts.n_samples = tv_profile_data_get_n_samples (data);
  tv_profile_data_get_time_span (data, &facts.first_timestamp_us, &facts.last_timestamp_us);
  facts.n_at_depth_limit = tv_profile_data_get_n_at_depth_limit (data);
  return tv_quality_check (&facts);
}
