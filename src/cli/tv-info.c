/* tv-info.c: what `tachyon-viewer --info` says about a profile
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tv-info.h"
#include "tv-metadata-reader.h"

#include <string.h>

#include <glib/gi18n.h>

#include "tachyon-format.h"
#include "tv-json.h"
#include "tv-quality.h"
#include "tv-export.h"
#include "tv-tach-error.h"
#include "tv-text.h"
#include "tv-units.h"

/* The status bits, in the order of the per-thread counters. */
#define N_STATUS_BITS 6

static const char * const status_json_names[N_STATUS_BITS] = {
  "has_gil",
  "on_cpu",
  "unknown",
  "gil_requested",
  "has_exception",
  "main_thread",
};

enum
{
  BIT_HAS_GIL,
  BIT_ON_CPU,
  BIT_UNKNOWN,
  BIT_GIL_REQUESTED,
  BIT_HAS_EXCEPTION,
  BIT_MAIN_THREAD,
};

/* How often the decode loop looks at the cancellable. */
#define CANCEL_CHECK_INTERVAL (1u << 16)

typedef struct
{
  guint64 thread_id;
  guint32 interpreter_id;
  guint64 samples;
  guint64 first_timestamp_us;     /* earliest, only when samples > 0 */
  guint64 last_timestamp_us;      /* latest */
  guint64 status_counts[N_STATUS_BITS];
} TvInfoThread;

struct _TvInfo
{
  char       *path;
  guint64     file_size;
  guint64     sample_region_size;
  TachHeader  header;
  TachFooter  footer;
  TachStats   stats;
  GPtrArray  *warnings;

  /* Totals of the full decode. */
  guint64     samples;
  guint64     first_timestamp_us;   /* earliest; only when samples > 0 */
  guint64     last_timestamp_us;    /* latest */
  guint       max_depth;
  guint64     n_at_depth_limit;     /* samples with 256-frame stacks */
  GArray     *threads;              /* TvInfoThread, sorted */
  GPtrArray  *findings;             /* TvFinding, worst first */
};

void
tv_info_free (TvInfo *info)
{
  if (info == NULL)
    return;

  g_clear_pointer (&info->path, g_free);
  g_clear_pointer (&info->warnings, g_ptr_array_unref);
  g_clear_pointer (&info->findings, g_ptr_array_unref);
  g_clear_pointer (&info->threads, g_array_unref);
  g_free (info);
}

static int
compare_threads (gconstpointer a,
                 gconstpointer b)
{
  const TvInfoThread *ta = a;
  const TvInfoThread *tb = b;

  if (ta->thread_id != tb->thread_id)
    return ta->thread_id < tb->thread_id ? -1 : 1;
  if (ta->interpreter_id != tb->interpreter_id)
    return ta->interpreter_id < tb->interpreter_id ? -1 : 1;
  return 0;
}

/* Makes sure that THREADS has an entry for every thread the decoder has
 * seen so far; entries are indexed by TachSample.thread_index. */
static void
sync_threads (GArray            *threads,
              const TachDecoder *decoder)
{
  guint n_threads = tach_decoder_get_n_threads (decoder);

  for (guint i = threads->len; i < n_threads; i++)
    {
      const TachThreadKey *key = tach_decoder_get_thread (decoder, i);
      TvInfoThread thread = { 0 };

      g_assert (key != NULL);
      thread.thread_id = key->thread_id;
      thread.interpreter_id = key->interpreter_id;
      g_array_append_val (threads, thread);
    }
}

/* Widens [*FIRST, *LAST], the span of N timestamps (none: unset), to
 * TIMESTAMP. */
static void
add_timestamp (guint64 *first,
               guint64 *last,
               guint64  n,
               guint64  timestamp)
{
  *first = n == 0 ? timestamp : MIN (*first, timestamp);
  *last = n == 0 ? timestamp : MAX (*last, timestamp);
}

static gboolean
decode_samples (TvInfo        *info,
                TachReader    *reader,
                GCancellable  *cancellable,
                GError       **error)
{
  TachDecoder *decoder = NULL;
  TachError tach_error = { 0 };
  TachSample sample;
  gboolean ok = FALSE;
  int res;

  decoder = tv_export_new_decoder (reader, error);
  if (decoder == NULL)
    return FALSE;

  while ((res = tach_decoder_next (decoder, &sample, &tach_error)) == 1)
    {
      TvInfoThread *thread;

      if (sample.thread_index >= info->threads->len)
        sync_threads (info->threads, decoder);
      g_assert (sample.thread_index < info->threads->len);
      thread = &g_array_index (info->threads, TvInfoThread, sample.thread_index);

      add_timestamp (&thread->first_timestamp_us, &thread->last_timestamp_us, thread->samples++,
                     sample.timestamp_us);

      for (guint bit = 0; bit < N_STATUS_BITS; bit++)
        {
          if (sample.status & (1u << bit))
            thread->status_counts[bit]++;
        }

      add_timestamp (&info->first_timestamp_us, &info->last_timestamp_us, info->samples++,
                     sample.timestamp_us);
      info->max_depth = MAX (info->max_depth, sample.depth);
      info->n_at_depth_limit += sample.depth >= TACH_MAX_STACK_DEPTH;

      if ((info->samples % CANCEL_CHECK_INTERVAL) == 0 &&
          g_cancellable_set_error_if_cancelled (cancellable, error))
        goto out;
    }

  if (res < 0)
    {
      tv_tach_error_propagate (error, tach_error.status, &tach_error);
      goto out;
    }

  /* Threads whose only record was an empty REPEAT have no samples, but the
   * file declares them all the same. */
  sync_threads (info->threads, decoder);
  g_array_sort (info->threads, compare_threads);
  ok = TRUE;

out:
  tach_decoder_free (decoder);
  return ok;
}

/**
 * tv_info_new_for_path:
 * @path: a profile
 * @cancellable: (nullable): a cancellable
 * @error: return location for an error
 *
 * Opens @path, reads its metadata and decodes every sample.  Fails if the
 * file cannot be opened or any of its samples cannot be decoded.
 *
 * Returns: (transfer full): the summary, or %NULL with @error set
 */
TvInfo *
tv_info_new_for_path (const char    *path,
                      GCancellable  *cancellable,
                      GError       **error)
{
  g_autoptr(TvInfo) info = NULL;
  TachReader *reader = NULL;
  TvProfileHeader quality_header;
  TvProfileStats quality_stats;
  gboolean ok;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  reader = tv_export_open_reader (path, error);
  if (reader == NULL)
    return NULL;

  info = g_new0 (TvInfo, 1);
  info->path = g_strdup (path);
  info->file_size = tach_reader_get_file_size (reader);
  info->sample_region_size = tach_reader_get_sample_region_size (reader);
  info->header = *tach_reader_get_header (reader);
  info->footer = *tach_reader_get_footer (reader);
  info->stats = *tach_reader_get_stats (reader);
  tv_metadata_from_reader (reader, &quality_header, NULL, &quality_stats, NULL, NULL);
  info->warnings = g_ptr_array_new_with_free_func (g_free);
  for (gsize i = 0; i < tach_reader_get_n_warnings (reader); i++)
    g_ptr_array_add (info->warnings, g_strdup (tach_reader_get_warning (reader, i)));
  info->threads = g_array_new (FALSE, TRUE, sizeof (TvInfoThread));

  ok = decode_samples (info, reader, cancellable, error);
  tach_reader_free (reader);
  if (!ok)
    return NULL;

  /* The same findings as the app's banner and Properties. */
  {
    g_autofree const char **warnings = g_new0 (const char *, info->warnings->len + 1);
    TvQualityFacts facts = {
      .header = &quality_header,
      .stats = &quality_stats,
      .file_warnings = warnings,
      .decoded = TRUE,
      .n_samples = info->samples,
      .first_timestamp_us = info->first_timestamp_us,
      .last_timestamp_us = info->last_timestamp_us,
      .n_at_depth_limit = info->n_at_depth_limit,
    };

    for (guint i = 0; i < info->warnings->len; i++)
      warnings[i] = g_ptr_array_index (info->warnings, i);
    info->findings = tv_quality_check (&facts);
  }
  return g_steal_pointer (&info);
}

static const char *
compression_to_name (guint32 compression_type)
{
  switch (compression_type)
    {
    case TACH_COMPRESSION_NONE:
      return "none";
    case TACH_COMPRESSION_ZSTD:
      return "zstd";
    default:
      return "unknown";
    }
}

/* Microseconds from the start time to TIMESTAMP, as seconds.  Timestamps
 * are u64 with wrap-around arithmetic (SPEC §4.7), so a sample a little
 * before the start time comes out negative. */
static double
seconds_since_start (const TvInfo *info,
                     guint64       timestamp_us)
{
  return (double) (gint64) (timestamp_us - info->header.start_time_us) / 1e6;
}

/* ------------------------------------------------------------------------ */
/* Text                                                                      */
/* ------------------------------------------------------------------------ */

#define LABEL_WIDTH 24

/* Room for the decimal text of any guint64. */
#define U64_STR_SIZE 24

/* Numbers are formatted apart so that translatable strings need no
 * G_GUINT64_FORMAT, which xgettext cannot expand. */
static const char *
u64_str (char    buf[U64_STR_SIZE],
         guint64 value)
{
  g_snprintf (buf, U64_STR_SIZE, "%" G_GUINT64_FORMAT, value);
  return buf;
}

static void
append_label (GString    *out,
              const char *indent,
              const char *label)
{
  glong width = strlen (indent) + g_utf8_strlen (label, -1);

  g_string_append (out, indent);
  g_string_append (out, label);
  g_string_append_c (out, ':');
  for (glong i = width + 1; i < LABEL_WIDTH; i++)
    g_string_append_c (out, ' ');
  g_string_append_c (out, ' ');
}

G_GNUC_PRINTF (4, 5)
static void
append_row (GString    *out,
            const char *indent,
            const char *label,
            const char *format,
            ...)
{
  va_list args;

  append_label (out, indent, label);
  va_start (args, format);
  g_string_append_vprintf (out, format, args);
  va_end (args);
  g_string_append_c (out, '\n');
}

static void
append_stat_row (GString    *out,
                 const char *label,
                 gboolean    present,
                 double      value,
                 const char *unit)
{
  if (!present)
    {
      append_row (out, "  ", label, "%s", _("not recorded in this file"));
      return;
    }

  {
    g_autofree char *number = tv_format_significant (value);

    append_row (out, "  ", label, "%s%s", number, unit);
  }
}

static void
append_percent (GString *out,
                guint64  count,
                guint64  total,
                int      width)
{
  g_autofree char *share = NULL;

  if (total == 0)
    {
      g_string_append_printf (out, " %*s", width, "-");
      return;
    }
  /* Three significant digits; the column's title has the per cent sign. */
  share = tv_format_share_number (count, total);
  g_string_append_printf (out, " %*s", width, share);
}

static void
append_threads (GString      *out,
                const TvInfo *info)
{
  /* Translators: column headers of the per-thread table of --info; keep
   * them short, the columns are narrow. */
  const char *h_thread = _("Thread ID");
  const char *h_interp = _("Interp");
  const char *h_samples = _("Samples");
  const char *h_gil = _("GIL %");
  const char *h_cpu = _("CPU %");
  const char *h_wait = _("Wait %");
  const char *h_exc = _("Exc %");
  const char *h_first = _("First (s)");
  const char *h_last = _("Last (s)");
  const char *h_main = _("Main");

  g_string_append_printf (out, "  %20s %6s %10s %6s %6s %6s %6s %12s %12s  %s\n",
                          h_thread, h_interp, h_samples, h_gil, h_cpu, h_wait, h_exc,
                          h_first, h_last, h_main);

  for (guint i = 0; i < info->threads->len; i++)
    {
      const TvInfoThread *thread = &g_array_index (info->threads, TvInfoThread, i);

      g_autofree char *samples = tv_format_count (thread->samples);

      g_string_append_printf (out, "  %20" G_GUINT64_FORMAT " %6u %10s",
                              thread->thread_id, thread->interpreter_id, samples);
      append_percent (out, thread->status_counts[BIT_HAS_GIL], thread->samples, 6);
      append_percent (out, thread->status_counts[BIT_ON_CPU], thread->samples, 6);
      append_percent (out, thread->status_counts[BIT_GIL_REQUESTED], thread->samples, 6);
      append_percent (out, thread->status_counts[BIT_HAS_EXCEPTION], thread->samples, 6);
      if (thread->samples > 0)
        g_string_append_printf (out, " %12.3f %12.3f",
                                seconds_since_start (info, thread->first_timestamp_us),
                                seconds_since_start (info, thread->last_timestamp_us));
      else
        g_string_append_printf (out, " %12s %12s", "-", "-");
      if (thread->status_counts[BIT_MAIN_THREAD] > 0)
        {
          /* Translators: marks the interpreter's main thread in the
           * per-thread table of --info. */
          g_string_append_printf (out, "  %s", _("main"));
        }
      g_string_append_c (out, '\n');
    }
}

/* The file's rows: its header and footer. */
static void
append_file_rows (GString      *out,
                  const TvInfo *info)
{
  const TachHeader *header;
  const char *compression_name;
  g_autofree char *display_path = NULL;
  g_autofree char *interval = NULL;
  g_autofree char *mode = NULL;
  char a[U64_STR_SIZE];
  g_autofree char *size = NULL;
  g_autofree char *count = NULL;
  g_autofree char *checksum = NULL;

  header = &info->header;

  /* A name printed to a terminal: shown, never obeyed. */
  display_path = tv_text_dup_path (info->path);
  append_row (out, "", _("File"), "%s", display_path);
  size = tv_format_bytes (info->file_size);
  append_row (out, "", _("Size"), "%s", size);
  append_row (out, "", _("Byte order"), "%s",
              header->big_endian ? _("big-endian") : _("little-endian"));
  append_row (out, "", _("Format version"), "%u", header->version);
  append_row (out, "", _("Python version"), "%u.%u.%u",
              header->python_major, header->python_minor, header->python_micro);
  append_row (out, "", _("Start time"), _("%s µs (profiler clock)"),
              u64_str (a, header->start_time_us));
  interval = tv_format_interval (header->sample_interval_us);
  append_row (out, "", _("Sample interval"), "%s", interval);
  count = tv_format_count (header->sample_count);
  append_row (out, "", _("Samples"), _("%s thread-samples (header)"), count);
  append_row (out, "", _("Threads"), _("%u (header)"), header->thread_count);

  compression_name = compression_to_name (header->compression_type);
  g_clear_pointer (&size, g_free);
  size = tv_format_bytes (info->sample_region_size);
  /* Translators: %s is a size, "1.23 MB (1,234,567 bytes)". */
  if (header->compression_type == TACH_COMPRESSION_ZSTD)
    append_row (out, "", _("Compression"), _("zstd, samples stored in %s"), size);
  else if (header->compression_type == TACH_COMPRESSION_NONE)
    append_row (out, "", _("Compression"), _("none, samples in %s"), size);
  else
    append_row (out, "", _("Compression"), _("%s (type %u)"), compression_name,
                header->compression_type);

  mode = tv_format_mode (tach_mode_to_string ((TachMode) header->mode), header->mode_raw);
  append_row (out, "", _("Profiling mode"), "%s", mode);

  g_clear_pointer (&size, g_free);
  size = tv_format_bytes (info->footer.file_size);
  /* Translators: %s is a size, "1.23 MB (1,234,567 bytes)". */
  append_row (out, "", _("Footer"), _("%u strings, %u frames, file size %s"),
              info->footer.string_count, info->footer.frame_count, size);
  checksum = tv_format_checksum (info->footer.checksum, sizeof info->footer.checksum);
  append_row (out, "", _("Checksum"), "%s", checksum);
}

/**
 * tv_info_to_text:
 * @info: a summary
 *
 * Returns: (transfer full): the human-readable text of `--info`
 */
char *
tv_info_to_text (const TvInfo *info)
{
  g_autoptr(GString) out = g_string_new (NULL);
  g_autofree char *count = NULL;

  g_return_val_if_fail (info != NULL, NULL);

  append_file_rows (out, info);
  g_string_append_c (out, '\n');
  g_string_append_printf (out, "%s\n", _("Statistics"));
  if (info->stats.present)
    {
      g_autofree char *duration = tv_format_wall_time (info->stats.duration_sec);

      append_row (out, "  ", _("Duration"), "%s", duration);
    }
  else
    append_row (out, "  ", _("Duration"), "%s", _("not recorded in this file"));
  append_stat_row (out, _("Measured sample rate"), info->stats.present,
                   info->stats.sample_rate, _(" samples/s"));
  append_stat_row (out, _("Error rate"),
                   info->stats.present && info->stats.has_error_rate,
                   info->stats.error_rate, " %");
  append_stat_row (out, _("Missed samples"),
                   info->stats.present && info->stats.has_missed_samples,
                   info->stats.missed_samples, " %");

  g_string_append_c (out, '\n');
  if (info->findings->len == 0)
    {
      g_string_append_printf (out, "%s\n", _("Warnings: none"));
    }
  else
    {
      g_string_append_printf (out, "%s\n", _("Warnings"));
      for (guint i = 0; i < info->findings->len; i++)
        {
          const TvFinding *finding = g_ptr_array_index (info->findings, i);

          g_string_append_printf (out, "  - %s\n", finding->message);
        }
    }

  g_string_append_c (out, '\n');
  g_string_append_printf (out, "%s\n", _("Decoded samples"));
  count = tv_format_count (info->samples);
  append_row (out, "  ", _("Samples decoded"), "%s", count);
  if (info->samples > 0)
    {
      double first = seconds_since_start (info, info->first_timestamp_us);
      double last = seconds_since_start (info, info->last_timestamp_us);
      g_autofree char *span = tv_format_wall_time ((double) (info->last_timestamp_us
                                                             - info->first_timestamp_us) / 1e6);

      /* Translators: the last %s is "1.28 s of wall time". */
      append_row (out, "  ", _("Time span observed"),
                  _("%.3f s to %.3f s after the start time (%s)"), first, last, span);
    }
  else
    append_row (out, "  ", _("Time span observed"), "%s", _("no samples"));
  append_row (out, "  ", _("Maximum stack depth"), "%u", info->max_depth);
  append_row (out, "  ", _("Threads seen"), "%u", info->threads->len);

  if (info->threads->len > 0)
    {
      g_string_append_c (out, '\n');
      append_threads (out, info);
    }

  return g_string_free (g_steal_pointer (&out), FALSE);
}

/* ------------------------------------------------------------------------ */
/* JSON                                                                      */
/* ------------------------------------------------------------------------ */

static void
json_key (GString    *out,
          const char *indent,
          const char *key)
{
  g_string_append (out, indent);
  tv_json_append_string (out, key, -1);
  g_string_append (out, ": ");
}

static void
json_u64 (GString    *out,
          const char *indent,
          const char *key,
          guint64     value)
{
  json_key (out, indent, key);
  g_string_append_printf (out, "%" G_GUINT64_FORMAT ",\n", value);
}

static void
json_optional_u64 (GString    *out,
                   const char *indent,
                   const char *key,
                   gboolean    present,
                   guint64     value)
{
  json_key (out, indent, key);
  if (present)
    g_string_append_printf (out, "%" G_GUINT64_FORMAT ",\n", value);
  else
    g_string_append (out, "null,\n");
}

static void
json_optional_double (GString    *out,
                      const char *indent,
                      const char *key,
                      gboolean    present,
                      double      value)
{
  json_key (out, indent, key);
  if (present)
    tv_json_append_double (out, value);
  else
    g_string_append (out, "null");
  g_string_append (out, ",\n");
}

static void
json_string (GString    *out,
             const char *indent,
             const char *key,
             const char *value)
{
  json_key (out, indent, key);
  if (value != NULL)
    tv_json_append_string (out, value, -1);
  else
    g_string_append (out, "null");
  g_string_append (out, ",\n");
}

static void
json_thread (GString            *out,
             const TvInfoThread *thread,
             gboolean            last)
{
  const char *indent = "        ";

  g_string_append (out, "      {\n");
  json_u64 (out, indent, "thread_id", thread->thread_id);
  json_u64 (out, indent, "interpreter_id", thread->interpreter_id);
  json_u64 (out, indent, "samples", thread->samples);
  json_optional_u64 (out, indent, "first_timestamp_us",
                     thread->samples > 0, thread->first_timestamp_us);
  json_optional_u64 (out, indent, "last_timestamp_us",
                     thread->samples > 0, thread->last_timestamp_us);
  json_key (out, indent, "status_counts");
  g_string_append (out, "{\n");
  for (guint bit = 0; bit < N_STATUS_BITS; bit++)
    {
      json_key (out, "          ", status_json_names[bit]);
      g_string_append_printf (out, "%" G_GUINT64_FORMAT "%s\n", thread->status_counts[bit],
                              bit + 1 < N_STATUS_BITS ? "," : "");
    }
  g_string_append (out, "        }\n");
  g_string_append_printf (out, "      }%s\n", last ? "" : ",");
}

/**
 * tv_info_to_json:
 * @info: a summary
 *
 * The keys of CPython's `BinaryReader.get_info()` (SPEC §12) with null for
 * absent values, then the viewer's own: byte order, real file size,
 * compression name, warnings and the totals of the decode.
 *
 * Returns: (transfer full): one JSON object, with a final newline
 */
char *
tv_info_to_json (const TvInfo *info)
{
  g_autoptr(GString) out = g_string_new (NULL);
  const TachHeader *header;
  const TachStats *stats;
  const char *indent = "  ";
  char version[32];

  g_return_val_if_fail (info != NULL, NULL);

  header = &info->header;
  stats = &info->stats;

  g_string_append (out, "{\n");
  json_u64 (out, indent, "version", header->version);
  g_snprintf (version, sizeof version, "%u.%u.%u",
              header->python_major, header->python_minor, header->python_micro);
  json_string (out, indent, "python_version", version);
  json_u64 (out, indent, "start_time_us", header->start_time_us);
  json_u64 (out, indent, "sample_interval_us", header->sample_interval_us);
  json_u64 (out, indent, "sample_count", header->sample_count);
  json_u64 (out, indent, "thread_count", header->thread_count);
  json_u64 (out, indent, "string_count", info->footer.string_count);
  json_u64 (out, indent, "frame_count", info->footer.frame_count);
  json_u64 (out, indent, "compression_type", header->compression_type);
  json_string (out, indent, "mode", tach_mode_to_string (header->mode));
  json_optional_double (out, indent, "duration_sec", stats->present, stats->duration_sec);
  json_optional_double (out, indent, "sample_rate", stats->present, stats->sample_rate);
  json_optional_double (out, indent, "error_rate",
                        stats->present && stats->has_error_rate, stats->error_rate);
  json_optional_double (out, indent, "missed_samples",
                        stats->present && stats->has_missed_samples, stats->missed_samples);
  json_string (out, indent, "byte_order", header->big_endian ? "big" : "little");
  json_u64 (out, indent, "file_size", info->file_size);
  json_string (out, indent, "compression", compression_to_name (header->compression_type));

  /* The findings: the format library's warnings are those of kind
   * "file". */
  json_key (out, indent, "warnings");
  if (info->findings->len == 0)
    {
      g_string_append (out, "[],\n");
    }
  else
    {
      g_string_append (out, "[\n");
      for (guint i = 0; i < info->findings->len; i++)
        {
          const TvFinding *finding = g_ptr_array_index (info->findings, i);

          g_string_append (out, "    {\"kind\": ");
          tv_json_append_string (out, tv_finding_kind_to_string (finding->kind), -1);
          g_string_append (out, ", \"severity\": ");
          tv_json_append_string (out, tv_severity_to_string (finding->severity), -1);
          g_string_append (out, ", \"message\": ");
          tv_json_append_string (out, finding->message, -1);
          for (guint k = 0; k < finding->n_figures; k++)
            {
              g_string_append (out, ", ");
              tv_json_append_string (out, finding->figures[k].name, -1);
              g_string_append (out, ": ");
              tv_json_append_double (out, finding->figures[k].value);
            }
          g_string_append (out, i + 1 < info->findings->len ? "},\n" : "}\n");
        }
      g_string_append (out, "  ],\n");
    }

  json_key (out, indent, "decoded");
  g_string_append (out, "{\n");
  indent = "    ";
  json_u64 (out, indent, "samples", info->samples);
  json_optional_u64 (out, indent, "first_timestamp_us", info->samples > 0, info->first_timestamp_us);
  json_optional_u64 (out, indent, "last_timestamp_us", info->samples > 0, info->last_timestamp_us);
  json_u64 (out, indent, "max_depth", info->max_depth);
  json_key (out, indent, "threads");
  if (info->threads->len == 0)
    {
      g_string_append (out, "[]\n");
    }
  else
    {
      g_string_append (out, "[\n");
      for (guint i = 0; i < info->threads->len; i++)
        json_thread (out, &g_array_index (info->threads, TvInfoThread, i),
                     i + 1 == info->threads->len);
      g_string_append (out, "    ]\n");
    }
  g_string_append (out, "  }\n");
  g_string_append (out, "}\n");

  return g_string_free (g_steal_pointer (&out), FALSE);
}
