/* bench-decode.c: tachyon-bench --decode and --dump
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "bench.h"
#include "tv-json.h"

/* ------------------------------------------------------------------------ */
/* --decode                                                                  */
/* ------------------------------------------------------------------------ */

static gint   opt_runs = 3;
static char  *opt_pipeline = NULL;
static char  *opt_api = NULL;

static const GOptionEntry decode_entries[] = {
  { "runs", 0, 0, G_OPTION_ARG_INT, &opt_runs,
    "Number of runs; the median is reported (default 3)", "R" },
  { "pipeline", 0, 0, G_OPTION_ARG_STRING, &opt_pipeline,
    "Decompress on a second thread: auto (the decoder decides, default), on, off",
    "auto|on|off" },
  { "api", 0, 0, G_OPTION_ARG_STRING, &opt_api,
    "Decoder call: batch (tach_decoder_next_batch, default) or sample (tach_decoder_next)",
    "batch|sample" },
  { NULL }
};

static int
run_decode (char **args)
{
  const char *path = args[0];
  TachReader *reader = NULL;
  TachError error = { 0 };
  const TachHeader *header;
  const void *region;
  size_t region_size;
  gboolean compressed;
  g_autofree double *decode_times = NULL;
  g_autofree double *zstd_times = NULL;
  g_autofree double *cpu_times = NULL;
  g_autofree double *zstd_cpu_times = NULL;
  g_autofree void *chunk = NULL;
  guint64 n_samples = 0;
  guint64 decompressed = 0;
  double decode_s;
  double decode_cpu_s;
  double zstd_s = 0.0;
  double zstd_cpu_s = 0.0;
  int pipeline = -1;
  g_autoptr (GString) json = g_string_new (NULL);
  g_autoptr (GMappedFile) mapped = NULL;

  if (opt_runs < 1 || opt_runs > 1000)
    {
      g_printerr ("tachyon-bench: --runs must be between 1 and 1000\n");
      return 1;
    }
  if (opt_pipeline == NULL || strcmp (opt_pipeline, "auto") == 0)
    pipeline = -1;
  else if (strcmp (opt_pipeline, "on") == 0)
    pipeline = 1;
  else if (strcmp (opt_pipeline, "off") == 0)
    pipeline = 0;
  else
    {
      g_printerr ("tachyon-bench: --pipeline must be auto, on or off\n");
      return 1;
    }
  if (opt_api != NULL && !g_str_equal (opt_api, "batch") && !g_str_equal (opt_api, "sample"))
    {
      g_printerr ("tachyon-bench: --api must be batch or sample\n");
      return 1;
    }
  if (tach_reader_open_path (path, &reader, &error) != TACH_OK)
    return bench_fail_tach (path, &error);

  header = tach_reader_get_header (reader);
  region_size = (size_t) tach_reader_get_sample_region_size (reader);
  compressed = header->compression_type == TACH_COMPRESSION_ZSTD;
  if ((mapped = bench_map_region (path, reader, &region)) == NULL)
    {
      tach_reader_free (reader);
      return 1;
    }

  /* Fault the mapping in first, so that libzstd's first timed pass does
   * not pay for the page cache; the same pages then are in the page cache
   * for the decoder. */
  bench_fault_in (region, region_size);

  decode_times = g_new0 (double, opt_runs);
  zstd_times = g_new0 (double, opt_runs);
  cpu_times = g_new0 (double, opt_runs);
  zstd_cpu_times = g_new0 (double, opt_runs);
  chunk = g_malloc (BENCH_ZSTD_CHUNK);

  for (gint run = 0; run < opt_runs; run++)
    {
      guint64 n = 0;

      if (!bench_decode_pass (reader, pipeline,
                              opt_api != NULL && g_str_equal (opt_api, "sample"),
                              &decode_times[run], &cpu_times[run], &n, &error))
        {
          tach_reader_free (reader);
          return bench_fail_tach (path, &error);
        }
      n_samples = n;
      if (compressed
          && !bench_zstd_pass (region, region_size, chunk, &zstd_times[run],
                               &zstd_cpu_times[run], &decompressed))
        {
          tach_reader_free (reader);
          return 1;
        }
    }

  decode_s = bench_median (decode_times, (guint) opt_runs);
  decode_cpu_s = bench_median (cpu_times, (guint) opt_runs);
  if (compressed)
    {
      zstd_s = bench_median (zstd_times, (guint) opt_runs);
      zstd_cpu_s = bench_median (zstd_cpu_times, (guint) opt_runs);
    }
  else
    decompressed = region_size;

  g_string_append (json, "{\"file\":");
  tv_json_append_string (json, path, -1);
  g_string_append_printf (json, ",\"samples\":%" G_GUINT64_FORMAT
                          ",\"file_bytes\":%" G_GUINT64_FORMAT
                          ",\"decode_seconds\":%.6f,\"zstd_seconds\":%.6f",
                          n_samples, (guint64) tach_reader_get_file_size (reader),
                          decode_s, zstd_s);
  if (compressed && zstd_s > 0.0)
    g_string_append_printf (json, ",\"ratio\":%.3f", decode_s / zstd_s);
  else
    g_string_append (json, ",\"ratio\":null");
  /* CPU times: what the decode costs in all threads, and a ratio that
   * holds up on a busy machine. */
  g_string_append_printf (json, ",\"decode_cpu_seconds\":%.6f,\"zstd_cpu_seconds\":%.6f",
                          decode_cpu_s, zstd_cpu_s);
  if (compressed && zstd_cpu_s > 0.0)
    g_string_append_printf (json, ",\"cpu_ratio\":%.3f", decode_cpu_s / zstd_cpu_s);
  else
    g_string_append (json, ",\"cpu_ratio\":null");
  g_string_append_printf (json, ",\"api\":\"%s\"", opt_api ? opt_api : "batch");
  g_string_append_printf (json, ",\"compression\":\"%s\",\"runs\":%d,\"pipeline\":\"%s\""
                          ",\"region_bytes\":%" G_GUINT64_FORMAT
                          ",\"decompressed_bytes\":%" G_GUINT64_FORMAT
                          ",\"ns_per_sample\":%.2f}",
                          compressed ? "zstd" : "none", opt_runs,
                          pipeline < 0 ? "auto" : pipeline ? "on" : "off",
                          (guint64) region_size, decompressed,
                          n_samples > 0 ? decode_s * 1e9 / (double) n_samples : 0.0);
  tach_reader_free (reader);
  printf ("%s\n", json->str);
  return 0;
}

/* ------------------------------------------------------------------------ */
/* --dump: one line per sample, as `tachgen.py dump --raw` prints them       */
/* ------------------------------------------------------------------------ */

static int
run_dump (char **args)
{
  const char *path = args[0];
  TachReader *reader = NULL;
  TachDecoder *decoder = NULL;
  TachError error = { 0 };
  TachSample s;
  int r;

  if (tach_reader_open_path (path, &reader, &error) != TACH_OK)
    return bench_fail_tach (path, &error);
  if (tach_decoder_new (reader, &decoder, &error) != TACH_OK)
    {
      tach_reader_free (reader);
      return bench_fail_tach (path, &error);
    }
  while ((r = tach_decoder_next (decoder, &s, &error)) == 1)
    {
      printf ("%" PRIu32 " %" PRIu64 " %" PRIu64 " %u ",
              s.interpreter_id, s.thread_id, s.timestamp_us, (unsigned) s.status);
      for (guint i = 0; i < s.depth; i++)
        printf (i == 0 ? "%" PRIu32 : ",%" PRIu32, s.stack[i]);
      putchar ('\n');
    }
  tach_decoder_free (decoder);
  tach_reader_free (reader);
  if (r < 0)
    {
      fflush (stdout);
      return bench_fail_tach (path, &error);
    }
  return 0;
}

const BenchMode bench_mode_decode = {
  "decode", "FILE", 1,
  "Time the decoder over every sample of FILE against libzstd alone.",
  decode_entries, run_decode,
};

const BenchMode bench_mode_dump = {
  "dump", "FILE", 1,
  "Print every sample of FILE as `tachgen.py dump --raw` does.",
  NULL, run_dump,
};
