/* bench-load.c: tachyon-bench --load
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Times what opening a profile in the viewer costs before anything is
 * shown: tach_reader_open_path and tv_profile_data_load, against libzstd
 * alone over the same sample region, and measures the memory the load
 * needs at its peak.
 *
 * Every measured load runs in a child process of its own.  A load in a
 * process that has already loaded once would find the allocator's free
 * lists and the kernel's high-water mark left over from the previous load;
 * a child forked from a parent that has loaded nothing starts from the
 * same small heap every time.  In the child the high-water mark (VmHWM in
 * /proc/self/status) is reset to the current RSS by writing "5" to
 * /proc/self/clear_refs just before the load (Linux 4.0 and later; checked
 * to work on the 6.x kernel this was written on).  If that write fails,
 * fork () has already started the child's high-water mark at its RSS at
 * the time of the fork (dup_mm sets hiwater_rss), which is nearly the
 * same, so the result stays valid; "hwm_reset" in the output says which
 * of the two was used.
 */

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <zstd.h>

#include "bench.h"
#include "tv-profile-data.h"

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23  /* Linux 5.14 */
#endif

static gint opt_runs = 3;

static const GOptionEntry load_entries[] = {
  { "runs", 0, 0, G_OPTION_ARG_INT, &opt_runs,
    "Number of loads, each in a fresh process; the median time is reported (default 3)",
    "R" },
  { NULL }
};

/* The fields of /proc/self/status we use, in bytes. */
typedef struct
{
  guint64 vm_rss;
  guint64 vm_hwm;
  guint64 rss_anon;
  guint64 rss_file;
} ProcStatus;

/* What a child process sends back about its load. */
typedef struct
{
  gboolean ok;
  gboolean hwm_reset;        /* clear_refs accepted "5" */
  double   seconds;          /* wall clock, open + load */
  double   cpu_seconds;      /* all threads of the child */
  guint64  samples;
  guint64  file_bytes;
  ProcStatus before;         /* just before tach_reader_open_path */
  ProcStatus after;          /* just after tv_profile_data_load */
  char     message[512];
} LoadMeasure;

/* Reads /proc/self/status with no allocation, so that reading it does not
 * move what it measures. */
static gboolean
read_proc_status (ProcStatus *st)
{
  static const struct { const char *name; gsize offset; } fields[] = {
    { "VmRSS:", G_STRUCT_OFFSET (ProcStatus, vm_rss) },
    { "VmHWM:", G_STRUCT_OFFSET (ProcStatus, vm_hwm) },
    { "RssAnon:", G_STRUCT_OFFSET (ProcStatus, rss_anon) },
    { "RssFile:", G_STRUCT_OFFSET (ProcStatus, rss_file) },
  };
  char buf[8192];
  gsize len = 0;
  guint found = 0;
  int fd = open ("/proc/self/status", O_RDONLY | O_CLOEXEC);

  memset (st, 0, sizeof *st);
  if (fd < 0)
    return FALSE;
  for (;;)
    {
      ssize_t r = read (fd, buf + len, sizeof buf - 1 - len);

      if (r < 0 && errno == EINTR)
        continue;
      if (r <= 0)
        break;
      len += (gsize) r;
      if (len == sizeof buf - 1)
        break;
    }
  close (fd);
  buf[len] = '\0';

  for (const char *line = buf; *line != '\0';)
    {
      const char *end = strchr (line, '\n');

      for (guint i = 0; i < G_N_ELEMENTS (fields); i++)
        if (g_str_has_prefix (line, fields[i].name))
          {
            guint64 kib = g_ascii_strtoull (line + strlen (fields[i].name), NULL, 10);

            G_STRUCT_MEMBER (guint64, st, fields[i].offset) = kib * 1024;
            found++;
          }
      if (end == NULL)
        break;
      line = end + 1;
    }
  return found == G_N_ELEMENTS (fields);
}

static gboolean
reset_peak_rss (void)
{
  int fd = open ("/proc/self/clear_refs", O_WRONLY | O_CLOEXEC);
  gboolean ok;

  if (fd < 0)
    return FALSE;
  ok = write (fd, "5", 1) == 1;
  close (fd);
  return ok;
}

/* In the child: one open and load of PATH, measured. */
static void
measure_load (const char  *path,
              LoadMeasure *m)
{
  TachReader *reader = NULL;
  TachError tach_error = { 0 };
  g_autoptr (GError) error = NULL;
  g_autoptr (TvProfileData) data = NULL;
  double t0, c0;

  memset (m, 0, sizeof *m);
  m->hwm_reset = reset_peak_rss ();
  if (!read_proc_status (&m->before))
    {
      g_snprintf (m->message, sizeof m->message, "cannot read /proc/self/status");
      return;
    }

  t0 = bench_now_seconds ();
  c0 = bench_cpu_seconds ();
  if (tach_reader_open_path (path, &reader, &tach_error) != TACH_OK)
    {
      g_snprintf (m->message, sizeof m->message, "%s", tach_error.message);
      return;
    }
  m->file_bytes = tach_reader_get_file_size (reader);
  /* The data owns the reader from here on, also when the load fails. */
  data = tv_profile_data_load (reader, NULL, NULL, NULL, &error);
  m->seconds = bench_now_seconds () - t0;
  m->cpu_seconds = bench_cpu_seconds () - c0;
  if (data == NULL)
    {
      g_snprintf (m->message, sizeof m->message, "%s", error->message);
      return;
    }

  if (!read_proc_status (&m->after))
    {
      g_snprintf (m->message, sizeof m->message, "cannot read /proc/self/status");
      return;
    }
  m->samples = tv_profile_data_get_n_samples (data);
  m->ok = TRUE;
}

static gboolean
write_all (int         fd,
           const void *buf,
           gsize       size)
{
  const char *p = buf;

  while (size > 0)
    {
      ssize_t w = write (fd, p, size);

      if (w < 0 && errno == EINTR)
        continue;
      if (w <= 0)
        return FALSE;
      p += w;
      size -= (gsize) w;
    }
  return TRUE;
}

static gboolean
read_all (int    fd,
          void  *buf,
          gsize  size)
{
  char *p = buf;

  while (size > 0)
    {
      ssize_t r = read (fd, p, size);

      if (r < 0 && errno == EINTR)
        continue;
      if (r <= 0)
        return FALSE;
      p += r;
      size -= (gsize) r;
    }
  return TRUE;
}

/* Forks, loads PATH in the child and returns what it measured. */
static gboolean
load_in_child (const char  *path,
               LoadMeasure *m)
{
  int fds[2];
  pid_t pid;
  int status = 0;
  gboolean got;

  if (pipe (fds) != 0)
    {
      g_printerr ("tachyon-bench: pipe: %s\n", g_strerror (errno));
      return FALSE;
    }
  fflush (stdout);
  fflush (stderr);
  pid = fork ();
  if (pid < 0)
    {
      g_printerr ("tachyon-bench: fork: %s\n", g_strerror (errno));
      close (fds[0]);
      close (fds[1]);
      return FALSE;
    }
  if (pid == 0)
    {
      LoadMeasure child = { 0 };

      close (fds[0]);
      measure_load (path, &child);
      /* _exit: no atexit handlers, no second flush of the parent's stdio. */
      _exit (write_all (fds[1], &child, sizeof child) ? 0 : 1);
    }

  close (fds[1]);
  got = read_all (fds[0], m, sizeof *m);
  close (fds[0]);
  while (waitpid (pid, &status, 0) < 0 && errno == EINTR)
    ;
  if (!got || !WIFEXITED (status) || WEXITSTATUS (status) != 0)
    {
      g_printerr ("tachyon-bench: the loading child process failed (status %d)\n", status);
      return FALSE;
    }
  if (!m->ok)
    {
      g_printerr ("tachyon-bench: %s: %s\n", path, m->message);
      return FALSE;
    }
  return TRUE;
}

/* Reads the whole file once, so that the first child finds it in the page
 * cache like the others.  read () into a small buffer leaves this
 * process's RSS, and so the children's, as it was. */
static void
warm_page_cache (const char *path)
{
  char buf[64 * 1024];
  int fd = open (path, O_RDONLY | O_CLOEXEC);

  if (fd < 0)
    return;
  while (read (fd, buf, sizeof buf) > 0)
    ;
  close (fd);
}

/* Seconds it takes to make BYTES of fresh anonymous memory resident, 4 KiB
 * pages at a time as the loader's arrays are, with the fewest system calls
 * the kernel allows: what keeping that much costs at the least. */
static double
populate_seconds (gsize bytes)
{
  gsize page = (gsize) sysconf (_SC_PAGESIZE);
  gsize size = (bytes + page - 1) / page * page;
  guint8 *mem;
  double t0, seconds;

  if (size == 0)
    return 0.0;
  mem = mmap (NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (mem == MAP_FAILED)
    return 0.0;
  madvise (mem, size, MADV_NOHUGEPAGE);
  t0 = bench_now_seconds ();
  if (madvise (mem, size, MADV_POPULATE_WRITE) != 0)
    for (gsize i = 0; i < size; i += page)
      mem[i] = 1;
  seconds = bench_now_seconds () - t0;
  munmap (mem, size);
  return seconds;
}

/* The least any reader of the samples does: walk every record of the
 * already decompressed RECORDS, add up every sample's timestamp delta and
 * read its status byte, keeping nothing and checking nothing else (no
 * threads, no stacks, no validation).  RECORDS must have 16 readable bytes
 * past SIZE.  Returns the samples found, which is the header's count for a
 * well-formed file; a malformed one stops the walk early. */
static inline const guint8 *
scan_uvarint (const guint8 *p,
              guint64      *value)
{
  guint64 v = 0;
  guint shift = 0;

  while ((*p & 0x80) != 0 && shift < 63)
    {
      v |= (guint64) (*p++ & 0x7f) << shift;
      shift += 7;
    }
  *value = v | (guint64) *p << shift;
  return p + 1;
}

static guint64
scan_pass (const guint8 *records,
           gsize         size,
           double       *seconds)
{
  const guint8 *p = records;
  const guint8 *end = records + size;
  guint64 samples = 0, time = 0, statuses = 0;
  double t0 = bench_now_seconds ();

  while (end - p >= 13)
    {
      guint8 kind = p[12];
      guint64 count, value;

      p += 13;
      if (kind == 0)
        {
          p = scan_uvarint (p, &count);
          for (guint64 i = 0; i < count && p < end; i++)
            {
              p = scan_uvarint (p, &value);
              time += value;
              statuses += *p++;
            }
          samples += count;
          continue;
        }
      if (kind > 3)
        break;
      p = scan_uvarint (p, &value);
      time += value;
      statuses += *p++;
      samples++;
      if (kind != 1)
        p = scan_uvarint (p, &value);    /* shared or pop */
      p = scan_uvarint (p, &count);     /* depth, new or push */
      for (guint64 i = 0; i < count && p < end; i++)
        p = scan_uvarint (p, &value);
    }
  *seconds = bench_now_seconds () - t0;
  bench_sink += time + statuses;
  return p == end ? samples : 0;
}

/* Decompresses the sample region whole, with 16 zero bytes after it; NULL
 * with the error printed if libzstd fails. */
static guint8 *
decompress_region (const void *region,
                   size_t      size,
                   guint64     out_size,
                   gsize      *out_len)
{
  guint8 *out = g_malloc0 (out_size + 16);
  size_t n = ZSTD_decompress (out, out_size, region, size);

  if (ZSTD_isError (n))
    {
      g_printerr ("tachyon-bench: zstd: %s\n", ZSTD_getErrorName (n));
      g_free (out);
      return NULL;
    }
  *out_len = n;
  return out;
}

/* Peak memory the load added: see run_load. */
static gint64
load_peak_bytes (const LoadMeasure *m)
{
  return (gint64) m->after.vm_hwm - (gint64) m->before.vm_rss;
}

static int
run_load (char **args)
{
  const char *path = args[0];
  g_autofree LoadMeasure *measures = NULL;
  g_autofree double *load_times = NULL;
  g_autofree double *load_cpu_times = NULL;
  g_autofree double *zstd_times = NULL;
  g_autofree double *zstd_cpu_times = NULL;
  g_autofree double *decode_times = NULL;
  g_autofree double *decode_cpu_times = NULL;
  g_autofree double *populate_times = NULL;
  g_autofree double *scan_times = NULL;
  g_autofree guint8 *records = NULL;
  gsize records_len = 0;
  double scan_s = 0.0;
  g_autofree void *chunk = NULL;
  g_autoptr (GString) json = g_string_new (NULL);
  const LoadMeasure *worst;
  TachReader *reader = NULL;
  TachError error = { 0 };
  g_autoptr (GMappedFile) mapped = NULL;
  const void *region;
  size_t region_size;
  gboolean compressed;
  guint64 decompressed = 0;
  double load_s, load_cpu_s;
  double zstd_s = 0.0, zstd_cpu_s = 0.0;
  double decode_s, decode_cpu_s, populate_s;
  gint64 peak_added, retained;
  guint processors = g_get_num_processors ();

  if (opt_runs < 1 || opt_runs > 1000)
    {
      g_printerr ("tachyon-bench: --runs must be between 1 and 1000\n");
      return 1;
    }

  warm_page_cache (path);

  /* The loads first, while this process has loaded nothing that a child
   * would inherit. */
  measures = g_new0 (LoadMeasure, opt_runs);
  load_times = g_new0 (double, opt_runs);
  load_cpu_times = g_new0 (double, opt_runs);
  worst = &measures[0];
  for (gint run = 0; run < opt_runs; run++)
    {
      if (!load_in_child (path, &measures[run]))
        return 1;
      load_times[run] = measures[run].seconds;
      load_cpu_times[run] = measures[run].cpu_seconds;
      if (load_peak_bytes (&measures[run]) > load_peak_bytes (worst))
        worst = &measures[run];
    }
  load_s = bench_median (load_times, (guint) opt_runs);
  load_cpu_s = bench_median (load_cpu_times, (guint) opt_runs);

  /* Then libzstd alone, over the sample region mapped here, faulted in
   * first as the decode benchmark does. */
  if (tach_reader_open_path (path, &reader, &error) != TACH_OK)
    return bench_fail_tach (path, &error);
  region_size = (size_t) tach_reader_get_sample_region_size (reader);
  if ((mapped = bench_map_region (path, reader, &region)) == NULL)
    {
      tach_reader_free (reader);
      return 1;
    }
  compressed = tach_reader_get_header (reader)->compression_type == TACH_COMPRESSION_ZSTD;
  bench_fault_in (region, region_size);

  /* The floor: what the load cannot do without.  It decodes every sample,
   * as the decoder alone does (decompressing on a second thread, as the
   * load does), and makes resident the memory it keeps. */
  retained = (gint64) worst->after.rss_anon - (gint64) worst->before.rss_anon;
  decode_times = g_new0 (double, opt_runs);
  decode_cpu_times = g_new0 (double, opt_runs);
  populate_times = g_new0 (double, opt_runs);
  for (gint run = 0; run < opt_runs; run++)
    {
      guint64 n = 0;

      if (!bench_decode_pass (reader, -1, FALSE, &decode_times[run], &decode_cpu_times[run],
                              &n, &error))
        {
          tach_reader_free (reader);
          return bench_fail_tach (path, &error);
        }
      populate_times[run] = populate_seconds ((gsize) MAX (retained, 0));
    }
  decode_s = bench_median (decode_times, (guint) opt_runs);
  decode_cpu_s = bench_median (decode_cpu_times, (guint) opt_runs);
  populate_s = bench_median (populate_times, (guint) opt_runs);

  if (compressed)
    {
      zstd_times = g_new0 (double, opt_runs);
      zstd_cpu_times = g_new0 (double, opt_runs);
      chunk = g_malloc (BENCH_ZSTD_CHUNK);
      for (gint run = 0; run < opt_runs; run++)
        if (!bench_zstd_pass (region, region_size, chunk, &zstd_times[run],
                              &zstd_cpu_times[run], &decompressed))
          {
            tach_reader_free (reader);
            return 1;
          }
      zstd_s = bench_median (zstd_times, (guint) opt_runs);
      zstd_cpu_s = bench_median (zstd_cpu_times, (guint) opt_runs);
      records = decompress_region (region, region_size, decompressed, &records_len);
    }
  else
    {
      records = g_malloc0 (region_size + 16);
      memcpy (records, region, region_size);
      records_len = region_size;
    }
  tach_reader_free (reader);
  if (records == NULL)
    return 1;

  /* The least any load does that reads every sample, however it keeps
   * them: see scan_pass. */
  scan_times = g_new0 (double, opt_runs);
  for (gint run = 0; run < opt_runs; run++)
    if (scan_pass (records, records_len, &scan_times[run]) != worst->samples)
      {
        g_printerr ("tachyon-bench: %s: the records do not hold the samples the load found\n",
                    path);
        return 1;
      }
  scan_s = bench_median (scan_times, (guint) opt_runs);

  /* bytes_per_sample = (VmHWM after the load
   *                     - VmRSS just before tach_reader_open_path) / samples.
   * The reader maps nothing (it reads the file with pread () into buffers
   * of its own, which count), so all of the peak is the load's.  Readers
   * that mapped the file had its size taken off, as the pages of the
   * mapping were resident at the peak: the two figures compare.  RSS
   * before the load is that of the freshly forked child:
   * the program, GLib and the parent's small heap.  The load that needed
   * the most is reported (all runs load the same file the same way, so they
   * differ by a few pages at most). */
  peak_added = load_peak_bytes (worst);

  g_string_append_printf (json, "{\"samples\":%" G_GUINT64_FORMAT
                          ",\"load_seconds\":%.6f,\"zstd_seconds\":%.6f",
                          worst->samples, load_s, zstd_s);
  if (compressed && zstd_s > 0.0)
    g_string_append_printf (json, ",\"ratio\":%.3f", load_s / zstd_s);
  else
    g_string_append (json, ",\"ratio\":null");
  g_string_append_printf (json, ",\"peak_rss_bytes\":%" G_GUINT64_FORMAT
                          ",\"bytes_per_sample\":%.2f",
                          worst->after.vm_hwm,
                          worst->samples > 0 ? (double) peak_added / (double) worst->samples
                                             : 0.0);

  /* Extras: CPU times (the decoder decompresses on a second thread, so on
   * a busy machine the wall-clock ratio says less), the terms of
   * bytes_per_sample, and what stays allocated once the load is done. */
  g_string_append_printf (json, ",\"load_cpu_seconds\":%.6f,\"zstd_cpu_seconds\":%.6f",
                          load_cpu_s, zstd_cpu_s);
  if (compressed && zstd_cpu_s > 0.0)
    g_string_append_printf (json, ",\"cpu_ratio\":%.3f", load_cpu_s / zstd_cpu_s);
  else
    g_string_append (json, ",\"cpu_ratio\":null");
  g_string_append_printf (json, ",\"file_bytes\":%" G_GUINT64_FORMAT
                          ",\"rss_before_bytes\":%" G_GUINT64_FORMAT
                          ",\"peak_added_bytes\":%" G_GINT64_FORMAT
                          ",\"retained_anon_bytes\":%" G_GINT64_FORMAT
                          ",\"retained_bytes_per_sample\":%.2f"
                          ",\"decompressed_bytes\":%" G_GUINT64_FORMAT
                          ",\"compression\":\"%s\",\"runs\":%d,\"hwm_reset\":%s",
                          worst->file_bytes, worst->before.vm_rss, peak_added, retained,
                          worst->samples > 0 ? (double) retained / (double) worst->samples
                                             : 0.0,
                          compressed ? decompressed : (guint64) region_size,
                          compressed ? "zstd" : "none", opt_runs,
                          worst->hwm_reset ? "true" : "false");

  /* The floor of the ratio on this machine: the CPU time of decoding alone
   * and of making the kept memory resident, shared perfectly among the
   * processors, against libzstd alone.  No load that decodes every sample
   * and keeps what this one keeps can do better. */
  g_string_append_printf (json, ",\"decode_seconds\":%.6f,\"decode_cpu_seconds\":%.6f"
                          ",\"populate_seconds\":%.6f,\"processors\":%u",
                          decode_s, decode_cpu_s, populate_s, processors);
  if (compressed && zstd_s > 0.0)
    g_string_append_printf (json, ",\"floor_ratio\":%.3f",
                            (decode_cpu_s + populate_s) / MAX (processors, 1) / zstd_s);
  else
    g_string_append (json, ",\"floor_ratio\":null");

  /* The floor of any design: libzstd on one processor while another reads
   * what it wrote, so the load takes at least as long as the longer of
   * the two, and as their CPU time shared among the processors. */
  g_string_append_printf (json, ",\"scan_seconds\":%.6f", scan_s);
  if (compressed && zstd_s > 0.0)
    g_string_append_printf (json, ",\"read_floor_ratio\":%.3f}",
                            MAX (MAX (zstd_s, scan_s),
                                 (zstd_cpu_s + scan_s) / MAX (processors, 1)) / zstd_s);
  else
    g_string_append (json, ",\"read_floor_ratio\":null}");
  printf ("%s\n", json->str);
  return 0;
}

const BenchMode bench_mode_load = {
  "load", "FILE", 1,
  "Time opening and loading FILE into the viewer's model against libzstd alone,"
  " and measure the peak memory of the load.",
  load_entries, run_load,
};
