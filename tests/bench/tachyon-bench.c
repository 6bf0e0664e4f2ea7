/* tachyon-bench.c: benchmarks for libtachyon-format
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One program, several modes.  The mode is chosen by a --MODE flag (normally
 * the first argument); each mode has its own positional parameters and its
 * own options, so adding one is adding a BenchMode to the modes[] table:
 *
 *   tachyon-bench --generate N OUT [--seed S] [--threads T] [--no-zstd]
 *                 [--shape default|deep|wide|threads|repeat]
 *   tachyon-bench --decode FILE [--runs R]
 *   tachyon-bench --dump FILE
 *   tachyon-bench --load FILE [--runs R]
 *   tachyon-bench --cancel FILE [--runs R]
 *   tachyon-bench --filter FILE [--runs R] [--seed S]
 *   tachyon-bench --render FILE [--runs R] [--width W] [--height H] [--colors C]
 *                 [--inverted] [--icicle] [--png OUT]
 *   tachyon-bench --timeline FILE [--runs R] [--zooms Z] [--seed S] [--width W]
 *                 [--height H] [--png OUT]
 *   tachyon-bench --stages FILE [--runs R] [--html OUT] [--svg OUT]
 *
 * Results go to stdout (one JSON line for the measuring modes); errors go to
 * stderr and the exit status is 1.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <zstd.h>

#include "bench.h"
#include "tv-huge-pages.h"

/* ------------------------------------------------------------------------ */
/* Small helpers                                                             */
/* ------------------------------------------------------------------------ */

double
bench_now_seconds (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (double) ts.tv_sec + (double) ts.tv_nsec * 1e-9;
}

double
bench_cpu_seconds (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double) ts.tv_sec + (double) ts.tv_nsec * 1e-9;
}

static int
compare_doubles (const void *a,
                 const void *b)
{
  double x = *(const double *) a;
  double y = *(const double *) b;

  return (x > y) - (x < y);
}

double
bench_median (double *values,
              guint   n)
{
  qsort (values, n, sizeof *values, compare_doubles);
  if (n % 2 == 1)
    return values[n / 2];
  return (values[n / 2 - 1] + values[n / 2]) / 2.0;
}

/* Accepts "20000", "500k", "5M", "1G". */
gboolean
bench_parse_count (const char *text,
                   guint64     max,
                   guint64    *out)
{
  char *end = NULL;
  guint64 value;
  guint64 scale = 1;

  if (text == NULL || !g_ascii_isdigit (text[0]))
    return FALSE;
  errno = 0;
  value = g_ascii_strtoull (text, &end, 10);
  if (errno != 0)
    return FALSE;
  if (*end == 'k' || *end == 'K')
    scale = 1000, end++;
  else if (*end == 'm' || *end == 'M')
    scale = 1000 * 1000, end++;
  else if (*end == 'g' || *end == 'G')
    scale = 1000 * 1000 * 1000, end++;
  if (*end != '\0' || value > max / scale)
    return FALSE;
  *out = value * scale;
  return TRUE;
}

int
bench_fail_tach (const char      *what,
                 const TachError *error)
{
  g_printerr ("tachyon-bench: %s: %s\n", what,
              error->message[0] != '\0' ? error->message : "unknown error");
  return 1;
}

TvProfileData *
bench_load_data (const char *path)
{
  TachReader *reader = NULL;
  TachError tach_error = { 0 };
  g_autoptr (GError) error = NULL;
  TvProfileData *data;

  if (tach_reader_open_path (path, &reader, &tach_error) != TACH_OK)
    {
      bench_fail_tach (path, &tach_error);
      return NULL;
    }
  data = tv_profile_data_load (reader, NULL, NULL, NULL, &error);
  if (data == NULL)
    g_printerr ("tachyon-bench: %s: %s\n", path, error->message);
  return data;
}

volatile guint64 bench_sink;

void
bench_fault_in (const void *region,
                size_t      size)
{
  const unsigned char *p = region;
  guint64 touch = 0;

  for (size_t i = 0; i < size; i += 4096)
    touch += p[i];
  bench_sink += touch;
}

GMappedFile *
bench_map_region (const char  *path,
                  TachReader  *reader,
                  const void **region)
{
  g_autoptr (GError) error = NULL;
  GMappedFile *file = g_mapped_file_new (path, FALSE, &error);

  if (file == NULL)
    {
      g_printerr ("tachyon-bench: %s\n", error->message);
      return NULL;
    }
  if (g_mapped_file_get_length (file) != tach_reader_get_file_size (reader))
    {
      g_printerr ("tachyon-bench: %s changed while it was measured\n", path);
      g_mapped_file_unref (file);
      return NULL;
    }
  *region = g_mapped_file_get_contents (file) + TACH_HEADER_SIZE;
  return file;
}

/* One full pass of the decoder over every sample.  PIPELINE is -1 to let
 * the decoder choose, else whether to decompress on a second thread. */
gboolean
bench_decode_pass (TachReader *reader,
                   int         pipeline,
                   gboolean    by_sample,
                   double     *seconds,
                   double     *cpu,
                   guint64    *n_samples,
                   TachError  *error)
{
  TachDecoder *decoder = NULL;
  TachSample sample;
  guint64 sum = 0;
  guint64 n = 0;
  double t0 = bench_now_seconds ();
  double c0 = bench_cpu_seconds ();
  int r;

  if (tach_decoder_new (reader, &decoder, error) != TACH_OK)
    return FALSE;
  if (pipeline >= 0)
    tach_decoder_set_pipelined (decoder, pipeline != 0);
  if (by_sample)
    {
      while ((r = tach_decoder_next (decoder, &sample, error)) == 1)
        {
          sum += sample.timestamp_us + sample.depth + sample.status;
          n++;
        }
    }
  else
    {
      TachBatch batch;

      /* Touch every sample, as a consumer would. */
      while ((r = tach_decoder_next_batch (decoder, &batch, error)) == 1)
        {
          sum += batch.sample.depth;
          for (guint32 i = 0; i < batch.n; i++)
            sum += batch.timestamps[i] + batch.statuses[i];
          n += batch.n;
        }
    }
  tach_decoder_free (decoder);
  *seconds = bench_now_seconds () - t0;
  *cpu = bench_cpu_seconds () - c0;
  bench_sink += sum;
  *n_samples = n;
  return r == 0;
}

gboolean
bench_zstd_pass (const void *region,
                 size_t      size,
                 void       *chunk,
                 double     *seconds,
                 double     *cpu_seconds,
                 guint64    *out_bytes)
{
  ZSTD_inBuffer in = { region, size, 0 };
  guint64 total = 0;
  size_t ret = 0;
  double t0 = bench_now_seconds ();
  double c0 = bench_cpu_seconds ();
  ZSTD_DStream *stream = ZSTD_createDStream ();

  if (stream == NULL)
    {
      g_printerr ("tachyon-bench: ZSTD_createDStream failed\n");
      return FALSE;
    }
  ZSTD_initDStream (stream);
  for (;;)
    {
      ZSTD_outBuffer out = { chunk, BENCH_ZSTD_CHUNK, 0 };

      ret = ZSTD_decompressStream (stream, &out, &in);
      if (ZSTD_isError (ret))
        {
          g_printerr ("tachyon-bench: zstd: %s\n", ZSTD_getErrorName (ret));
          ZSTD_freeDStream (stream);
          return FALSE;
        }
      total += out.pos;
      if (in.pos == in.size && out.pos < out.size)
        break;
    }
  ZSTD_freeDStream (stream);
  *seconds = bench_now_seconds () - t0;
  *cpu_seconds = bench_cpu_seconds () - c0;
  if (ret != 0)
    {
      g_printerr ("tachyon-bench: zstd: truncated stream\n");
      return FALSE;
    }
  *out_bytes = total;
  return TRUE;
}

/* ------------------------------------------------------------------------ */
/* Modes                                                                     */
/* ------------------------------------------------------------------------ */

/* In bench-timeline.c and bench-compare.c. */
extern const BenchMode bench_mode_timeline;
extern const BenchMode bench_mode_compare;
extern const BenchMode bench_mode_cancel;
extern const BenchMode bench_mode_stages;

static const BenchMode *const modes[] = {
  &bench_mode_generate,
  &bench_mode_decode,
  &bench_mode_dump,
  &bench_mode_load,
  &bench_mode_filter,
  &bench_mode_render,
  &bench_mode_timeline,
  &bench_mode_compare,
  &bench_mode_cancel,
  &bench_mode_stages,
};

static void
print_usage (FILE *out)
{
  fprintf (out, "Usage:\n");
  for (guint i = 0; i < G_N_ELEMENTS (modes); i++)
    fprintf (out, "  tachyon-bench --%s %s [OPTION...]\n      %s\n",
             modes[i]->name, modes[i]->parameters, modes[i]->summary);
  fprintf (out, "\n`tachyon-bench --MODE --help` lists the options of a mode.\n");
}

static const BenchMode *
lookup_mode (const char *arg)
{
  if (arg[0] != '-' || arg[1] != '-')
    return NULL;
  for (guint i = 0; i < G_N_ELEMENTS (modes); i++)
    if (strcmp (arg + 2, modes[i]->name) == 0)
      return modes[i];
  return NULL;
}

int
main (int    argc,
      char **argv)
{
  const BenchMode *mode = NULL;
  g_autoptr (GOptionContext) context = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *parameters = NULL;
  g_autofree char **args = g_new0 (char *, argc + 1);
  int n_args = 0;

  /* The heap as the viewer has it. */
  tv_huge_setup_heap ();
  /* Take the mode flag out; the rest is the mode's own command line. */
  args[n_args++] = argv[0];
  for (int i = 1; i < argc; i++)
    {
      const BenchMode *m = lookup_mode (argv[i]);

      if (m != NULL && mode == NULL)
        mode = m;
      else if (m != NULL)
        {
          g_printerr ("tachyon-bench: only one of --%s and --%s\n", mode->name, m->name);
          return 1;
        }
      else
        args[n_args++] = argv[i];
    }

  if (mode == NULL)
    {
      for (int i = 1; i < argc; i++)
        if (strcmp (argv[i], "--help") == 0 || strcmp (argv[i], "-h") == 0)
          {
            print_usage (stdout);
            return 0;
          }
      print_usage (stderr);
      return 1;
    }

  parameters = g_strdup_printf ("--%s %s", mode->name, mode->parameters);
  context = g_option_context_new (parameters);
  g_option_context_set_summary (context, mode->summary);
  if (mode->entries != NULL)
    g_option_context_add_main_entries (context, mode->entries, NULL);
  if (!g_option_context_parse (context, &n_args, &args, &error))
    {
      g_printerr ("tachyon-bench: %s\n", error->message);
      return 1;
    }
  if ((guint) n_args - 1 != mode->n_args)
    {
      g_printerr ("tachyon-bench: --%s takes %s\n", mode->name, mode->parameters);
      return 1;
    }

  return mode->run (args + 1);
}
