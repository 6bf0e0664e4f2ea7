/* test-roundtrip.c: random profiles through the writer and back
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Each iteration builds a random profile (threads in several interpreters,
 * stacks from random push/pop walks, random status bytes, timestamps that
 * sometimes go backwards, frames with -1 sentinels and odd opcodes), writes
 * it with random options and reads it back.  What comes back is checked
 * against an independent model of CPython's writer (SPEC §4.9): every
 * sample of every thread, the kind of the record it came from, the REPEAT
 * run it belongs to, and the order of the records in the file.
 *
 * The seed is printed; set TACH_SEED to replay a run.  Iteration N of a run
 * uses the seed pair (TACH_SEED, N), so a failing test path names it.
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>
#include <glib/gstdio.h>

#include "format-test-util.h"
#include "tachyon-format.h"

#define N_ITERATIONS       200
#define RLE_BUFFER_SIZE    16384
#define RLE_ENTRY_MAX_SIZE 11
#define MAX_GIVEN_DEPTH    300

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TachReader, tach_reader_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TachDecoder, tach_decoder_free)

static guint32 base_seed;
static guint64 kinds_seen[4];
static guint   iterations_run;

/* ------------------------------------------------------------------------ */
/* A model of CPython's writer                                               */
/* ------------------------------------------------------------------------ */

typedef struct
{
  uint64_t ts;
  uint8_t  status;
  uint8_t  kind;
  guint    depth;
  uint32_t stack[TACH_MAX_STACK_DEPTH];
  guint    run_index;
  guint    run_length;
} Expected;

typedef struct
{
  uint64_t tid;
  uint32_t iid;
  guint    depth;
  uint32_t stack[TACH_MAX_STACK_DEPTH];
  uint64_t prev_ts;
  gsize    run_bytes;
  guint    run_count;
  GArray  *seq;                 /* Expected */
  guint    next;                /* read cursor when checking */
} ModelThread;

typedef struct
{
  guint   thread;               /* index in Model.threads */
  uint8_t kind;
  guint   count;
} ExpectedRecord;

typedef struct
{
  uint64_t start;
  GArray  *threads;             /* ModelThread, in creation order */
  GArray  *records;             /* ExpectedRecord, in file order */
} Model;

static guint
model_lookup (const Model *m,
              uint64_t     tid,
              uint32_t     iid)
{
  for (guint i = 0; i < m->threads->len; i++)
    if (g_array_index (m->threads, ModelThread, i).tid == tid
        && g_array_index (m->threads, ModelThread, i).iid == iid)
      return i;
  return G_MAXUINT;
}

static guint
model_thread (Model    *m,
              uint64_t  tid,
              uint32_t  iid)
{
  ModelThread t = { 0 };
  guint i = model_lookup (m, tid, iid);

  if (i != G_MAXUINT)
    return i;

  t.tid = tid;
  t.iid = iid;
  t.prev_ts = m->start;
  t.seq = g_array_new (FALSE, FALSE, sizeof (Expected));
  g_array_append_val (m->threads, t);
  return m->threads->len - 1;
}

/* The pending run becomes a REPEAT record. */
static void
model_flush (Model *m,
             guint  index)
{
  ModelThread *t = &g_array_index (m->threads, ModelThread, index);
  ExpectedRecord r = { index, TACH_RECORD_REPEAT, t->run_count };

  if (t->run_count == 0)
    return;
  for (guint i = t->seq->len - t->run_count; i < t->seq->len; i++)
    g_array_index (t->seq, Expected, i).run_length = t->run_count;
  g_array_append_val (m->records, r);
  t->run_count = 0;
  t->run_bytes = 0;
}

static void
model_add (Model          *m,
           uint64_t        tid,
           uint32_t        iid,
           uint64_t        ts,
           uint8_t         status,
           const uint32_t *stack,
           guint           depth)
{
  guint index = model_thread (m, tid, iid);
  ModelThread *t = &g_array_index (m->threads, ModelThread, index);
  Expected e = { ts, status, 0, MIN (depth, TACH_MAX_STACK_DEPTH), { 0 }, 0, 1 };
  uint64_t delta = ts - t->prev_ts;

  memcpy (e.stack, stack, e.depth * sizeof (uint32_t));
  if (e.depth == t->depth && memcmp (e.stack, t->stack, e.depth * sizeof (uint32_t)) == 0)
    {
      if (t->run_bytes + RLE_ENTRY_MAX_SIZE > RLE_BUFFER_SIZE)
        model_flush (m, index);
      e.kind = TACH_RECORD_REPEAT;
      e.run_index = t->run_count++;
      t->run_bytes += format_test_uvarint_size (delta) + 1;
    }
  else
    {
      ExpectedRecord r = { index, 0, 1 };

      model_flush (m, index);
      e.kind = format_test_record_kind (t->stack, t->depth, e.stack, e.depth);
      r.kind = e.kind;
      g_array_append_val (m->records, r);
      memcpy (t->stack, e.stack, e.depth * sizeof (uint32_t));
      t->depth = e.depth;
    }
  t->prev_ts = ts;
  g_array_append_val (t->seq, e);
}

static void
model_finish (Model *m)
{
  for (guint i = 0; i < m->threads->len; i++)
    model_flush (m, i);
}

static void
model_clear (Model *m)
{
  for (guint i = 0; i < m->threads->len; i++)
    g_array_unref (g_array_index (m->threads, ModelThread, i).seq);
  g_array_unref (m->threads);
  g_array_unref (m->records);
}

/* ------------------------------------------------------------------------ */
/* Random profiles                                                           */
/* ------------------------------------------------------------------------ */

typedef struct
{
  guint   filename;             /* index into the string pool */
  guint   funcname;
  int32_t lineno, end_lineno, column, end_column, opcode;
} Spec;

typedef struct
{
  uint64_t tid;
  uint32_t iid;
  guint    depth;
  guint    stack[MAX_GIVEN_DEPTH];   /* spec indices, innermost first */
} Walker;

static int32_t
random_location (GRand *rand)
{
  switch (g_rand_int_range (rand, 0, 8))
    {
    case 0:
    case 1:
      return -1;
    case 2:
      return (int32_t) g_rand_int (rand);      /* anything, negative too */
    case 3:
      return 0;
    default:
      return g_rand_int_range (rand, 1, 5000);
    }
}

static char *
random_string (GRand *rand)
{
  static const char *const pieces[] = {
    "main", "work", "/usr/lib/python3.15/", "asyncio", ".py", "<module>",
    "caf\xc3\xa9", "\xe5\x87\xbd\xe6\x95\xb0", "\xf0\x9f\x90\x8d", " ", ";", "~",
  };
  GString *s = g_string_new (NULL);
  guint n = g_rand_int_range (rand, 0, 5);

  for (guint i = 0; i < n; i++)
    g_string_append (s, pieces[g_rand_int_range (rand, 0, G_N_ELEMENTS (pieces))]);
  if (g_rand_boolean (rand))
    g_string_append_printf (s, "%u", g_rand_int_range (rand, 0, 100));
  return g_string_free (s, FALSE);
}

/* A frame for a stack.  From a big table, mostly one of the first hundred,
 * which being used first get the one-byte indices: so that records hold
 * runs of one-byte indices among two-byte ones, as real deep stacks do,
 * and the decoder's paths for eight indices at once and for one are both
 * taken.  From a table of thousands, as often one of the two-byte ones
 * (indices of 128 to 16,383, every bit of both bytes used) or past them,
 * so that runs of four two-byte indices, read at once, come up too. */
static guint
pick_spec (GRand *rand,
           guint  n_specs)
{
  if (n_specs > 128 && g_rand_int_range (rand, 0, n_specs > 3000 ? 2 : 4) != 0)
    return g_rand_int_range (rand, 0, 100);
  return g_rand_int_range (rand, 0, n_specs);
}

/* Pushes up to PUSH frames on W's stack, as many as MAX_GIVEN_DEPTH
 * leaves room for. */
static void
push_frames (GRand  *rand,
             Walker *w,
             guint   n_specs,
             guint   push)
{
  push = MIN (push, MAX_GIVEN_DEPTH - w->depth);
  memmove (w->stack + push, w->stack, w->depth * sizeof (guint));
  for (guint k = 0; k < push; k++)
    w->stack[k] = pick_spec (rand, n_specs);
  w->depth += push;
}

/* Moves W's stack one step: the same stack (a REPEAT), frames pushed,
 * frames popped and pushed, a new stack, an empty one or a deep one. */
static void
walk (GRand  *rand,
      Walker *w,
      guint   n_specs)
{
  guint action = g_rand_int_range (rand, 0, 100);

  if (action < 40)
    return;
  if (action < 60)
    push_frames (rand, w, n_specs, g_rand_int_range (rand, 1, 4));
  else if (action < 85)
    {
      guint pop = g_rand_int_range (rand, 0, w->depth + 1);
      guint push = g_rand_int_range (rand, 0, 3);

      memmove (w->stack, w->stack + pop, (w->depth - pop) * sizeof (guint));
      w->depth -= pop;
      push_frames (rand, w, n_specs, push);
    }
  else if (action < 95)
    {
      w->depth = g_rand_int_range (rand, 1, 12);
      for (guint k = 0; k < w->depth; k++)
        w->stack[k] = pick_spec (rand, n_specs);
    }
  else if (action < 98)
    w->depth = 0;
  else
    {
      /* Deeper than 256: the writer keeps the innermost 256 frames. */
      w->depth = g_rand_int_range (rand, TACH_MAX_STACK_DEPTH - 2, MAX_GIVEN_DEPTH + 1);
      for (guint k = 0; k < w->depth; k++)
        w->stack[k] = pick_spec (rand, n_specs);
    }
}

/* ------------------------------------------------------------------------ */
/* One iteration                                                             */
/* ------------------------------------------------------------------------ */

static void
check_frames (TachReader   *reader,
              GPtrArray    *strings,
              const Spec   *specs,
              guint         n_specs,
              const uint32_t *index_of_spec)
{
  for (guint i = 0; i < n_specs; i++)
    {
      const Spec *s = &specs[i];
      const TachFrame *f;
      size_t len;
      const char *str;

      if (index_of_spec[i] == UINT32_MAX)
        continue;
      f = tach_reader_get_frame (reader, index_of_spec[i]);
      g_assert_nonnull (f);

      str = tach_reader_get_string (reader, f->filename, &len);
      g_assert_cmpstr (str, ==, strings->pdata[s->filename]);
      g_assert_cmpuint (len, ==, strlen (strings->pdata[s->filename]));
      str = tach_reader_get_string (reader, f->funcname, &len);
      g_assert_cmpstr (str, ==, strings->pdata[s->funcname]);

      /* §6.2: deltas are only stored when both ends are known. */
      g_assert_cmpint (f->lineno, ==, s->lineno);
      g_assert_cmpint (f->end_lineno, ==, s->lineno == -1 ? -1
                       : s->end_lineno == -1 ? s->lineno : s->end_lineno);
      g_assert_cmpint (f->column, ==, s->column);
      g_assert_cmpint (f->end_column, ==, s->column == -1 ? -1
                       : s->end_column == -1 ? s->column : s->end_column);
      g_assert_cmpuint (f->opcode, ==, s->opcode >= 0 && s->opcode <= 254
                        ? (guint) s->opcode : (guint) TACH_OPCODE_NONE);
    }
}

static void
run_iteration (guint iteration)
{
  guint32 seeds[2] = { base_seed, iteration };
  g_autoptr (GRand) rand = g_rand_new_with_seed_array (seeds, 2);
  g_autoptr (GPtrArray) strings = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GHashTable) used_strings = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GHashTable) used_frames = g_hash_table_new (g_direct_hash, g_direct_equal);
  g_autoptr (GError) gerror = NULL;
  g_autoptr (TachReader) reader = NULL;
  g_autoptr (TachDecoder) decoder = NULL;
  g_autofree char *dir = g_dir_make_tmp ("tach-roundtrip-XXXXXX", &gerror);
  g_autofree char *path = NULL;
  g_autofree Spec *specs = NULL;
  g_autofree uint32_t *index_of_spec = NULL;
  g_autofree Walker *walkers = NULL;
  g_autofree guint *decoder_thread = NULL;
  TachWriterOptions options = { 0 };
  TachStats stats = { 0 };
  TachWriter *writer = NULL;
  TachError error = { 0 };
  Model model;
  guint n_specs, n_threads, n_interpreters, n_ticks;
  gint burst_tick;
  guint record = 0, record_left = 0, n_seen_threads = 0;
  uint64_t ts, total = 0;
  TachSample sample;
  int r;

  g_assert_no_error (gerror);
  path = g_build_filename (dir, "random.tach", NULL);

  /* Options. */
  options.big_endian = g_rand_boolean (rand);
  options.zstd = g_rand_int_range (rand, 0, 3) == 0;
  if (options.zstd && g_rand_boolean (rand))
    options.zstd_level = g_rand_int_range (rand, 1, 10);
  if (g_rand_boolean (rand))
    {
      options.python_major = g_rand_int_range (rand, 1, 256);
      options.python_minor = g_rand_int_range (rand, 0, 256);
      options.python_micro = g_rand_int_range (rand, 0, 256);
    }
  options.start_time_us = ((uint64_t) g_rand_int (rand) << 32) | g_rand_int (rand);
  options.sample_interval_us = g_rand_int_range (rand, 0, 100000);
  options.mode_raw = g_rand_boolean (rand) ? (uint32_t) g_rand_int_range (rand, 0, 6)
                                           : g_rand_int (rand);

  switch (g_rand_int_range (rand, 0, 3))
    {
    case 0:
      break;
    case 1:
      stats.block_size = 32;
      break;
    default:
      stats.block_size = g_rand_boolean (rand) ? 56 : 0;    /* 0 means 56 */
      stats.has_error_rate = g_rand_boolean (rand);
      stats.has_missed_samples = g_rand_boolean (rand);
      break;
    }
  stats.duration_sec = g_rand_double_range (rand, 0, 1e6);
  stats.sample_rate = g_rand_double_range (rand, 0, 1e5);
  stats.error_rate = stats.has_error_rate ? g_rand_double_range (rand, 0, 100) : NAN;
  stats.missed_samples = stats.has_missed_samples ? g_rand_double_range (rand, -100, 100)
                                                  : INFINITY;

  /* Strings (some equal by value) and frames (some equal too). */
  for (guint i = g_rand_int_range (rand, 1, 30); i > 0; i--)
    g_ptr_array_add (strings, random_string (rand));
  /* A small table, one of more than 128 frames (two-byte indices), or one
   * of more than 16,384 (three-byte ones too). */
  switch (g_rand_int_range (rand, 0, 4))
    {
    case 0:
    case 1:
      n_specs = g_rand_int_range (rand, 1, 60);
      break;
    case 2:
      n_specs = g_rand_int_range (rand, 129, 3000);
      break;
    default:
      n_specs = g_rand_int_range (rand, 3000, 20000);
      break;
    }
  specs = g_new (Spec, n_specs);
  index_of_spec = g_new (uint32_t, n_specs);
  for (guint i = 0; i < n_specs; i++)
    {
      static const int32_t opcodes[] = { -1, 0, 53, 254, 255, 256, 300, INT32_MIN, INT32_MAX };
      Spec *s = &specs[i];

      if (i > 0 && g_rand_int_range (rand, 0, 10) == 0)
        {
          *s = specs[g_rand_int_range (rand, 0, i)];
          index_of_spec[i] = UINT32_MAX;
          continue;
        }
      s->filename = g_rand_int_range (rand, 0, strings->len);
      s->funcname = g_rand_int_range (rand, 0, strings->len);
      s->lineno = random_location (rand);
      s->end_lineno = random_location (rand);
      s->column = random_location (rand);
      s->end_column = random_location (rand);
      if (g_rand_boolean (rand))
        s->opcode = opcodes[g_rand_int_range (rand, 0, G_N_ELEMENTS (opcodes))];
      else
        s->opcode = g_rand_int_range (rand, -10, 400);
      index_of_spec[i] = UINT32_MAX;
    }

  /* Threads: the same tid recurs across interpreters. */
  n_interpreters = g_rand_int_range (rand, 1, 4);
  n_threads = g_rand_int_range (rand, 1, 21);
  walkers = g_new0 (Walker, n_threads);
  for (guint i = 0; i < n_threads; i++)
    {
      static const uint64_t special[] = { 0, 1, G_MAXUINT64, 140243008392704 };
      gboolean unique;

      do
        {
          /* Enough distinct tids for every thread even with one
           * interpreter, few enough that they recur across interpreters. */
          if (g_rand_boolean (rand))
            walkers[i].tid = special[g_rand_int_range (rand, 0, 4)];
          else
            walkers[i].tid = (uint64_t) g_rand_int_range (rand, 2, 2 + (gint32) n_threads);
          walkers[i].iid = g_rand_int_range (rand, 0, n_interpreters);
          if (walkers[i].iid == 2 && g_rand_boolean (rand))
            walkers[i].iid = G_MAXUINT32;
          unique = TRUE;
          for (guint k = 0; k < i; k++)
            if (walkers[k].tid == walkers[i].tid && walkers[k].iid == walkers[i].iid)
              unique = FALSE;
        }
      while (!unique);
    }

  /* Samples. */
  model.start = options.start_time_us;
  model.threads = g_array_new (FALSE, FALSE, sizeof (ModelThread));
  model.records = g_array_new (FALSE, FALSE, sizeof (ExpectedRecord));

  g_assert_cmpint (tach_writer_new (path, &options, &writer, &error), ==, TACH_OK);
  if (stats.block_size != 0 || g_rand_boolean (rand))
    {
      if (stats.block_size == 0 && !stats.has_error_rate && !stats.has_missed_samples
          && g_rand_boolean (rand))
        stats.block_size = 56;
      if (tach_writer_set_stats (writer, &stats, &error) != TACH_OK)
        g_error ("set_stats: %s", error.message);
    }
  else
    stats.duration_sec = -1;       /* marks "no stats" */

  ts = options.start_time_us;
  n_ticks = g_rand_int_range (rand, 1, 300);
  /* Now and then a thread is sampled thousands of times in a row without
   * a change, so that its run outgrows the 16 KiB RLE buffer. */
  burst_tick = g_rand_int_range (rand, 0, 10) == 0 ? g_rand_int_range (rand, 0, n_ticks) : -1;
  for (guint tick = 0; tick < n_ticks; tick++)
    {
      if ((gint) tick == burst_tick)
        {
          Walker *w = &walkers[g_rand_int_range (rand, 0, n_threads)];
          guint n = g_rand_int_range (rand, 5000, 12000);
          uint32_t frames[TACH_MAX_STACK_DEPTH];
          guint depth = MIN (w->depth, TACH_MAX_STACK_DEPTH);

          for (guint k = 0; k < depth; k++)
            {
              const Spec *s = &specs[w->stack[k]];
              TachFrameInfo info = {
                strings->pdata[s->filename], strings->pdata[s->funcname],
                s->lineno, s->end_lineno, s->column, s->end_column, s->opcode,
              };

              g_assert_cmpint (tach_writer_intern_frame (writer, &info, &frames[k], &error),
                               ==, TACH_OK);
              index_of_spec[w->stack[k]] = frames[k];
              g_hash_table_add (used_strings, strings->pdata[s->filename]);
              g_hash_table_add (used_strings, strings->pdata[s->funcname]);
              g_hash_table_add (used_frames, GUINT_TO_POINTER (frames[k] + 1));
            }
          for (guint k = 0; k < n; k++)
            {
              uint8_t status = (uint8_t) g_rand_int_range (rand, 0, 256);

              ts += g_rand_int_range (rand, 0, 300);
              g_assert_cmpint (tach_writer_add_sample (writer, w->tid, w->iid, ts, status,
                                                       frames, depth, &error), ==, TACH_OK);
              model_add (&model, w->tid, w->iid, ts, status, frames, depth);
              total++;
            }
        }

      switch (g_rand_int_range (rand, 0, 20))
        {
        case 0:
          ts -= g_rand_int_range (rand, 1, 100000);          /* backwards */
          break;
        case 1:
          ts += ((uint64_t) g_rand_int (rand) << 16);        /* a long pause */
          break;
        case 2:
          break;                                             /* same instant */
        default:
          ts += g_rand_int_range (rand, 1, 20000);
          break;
        }

      for (guint i = 0; i < n_threads; i++)
        {
          Walker *w = &walkers[i];
          uint32_t frames[MAX_GIVEN_DEPTH];
          uint8_t status = (uint8_t) g_rand_int_range (rand, 0, 256);
          guint interned;

          if (g_rand_int_range (rand, 0, 4) == 0)
            continue;
          walk (rand, w, n_specs);
          interned = MIN (w->depth, TACH_MAX_STACK_DEPTH);

          /* As CPython does: only the first 256 frames are interned; the
           * indices past them are garbage and must be ignored. */
          for (guint k = 0; k < w->depth; k++)
            {
              const Spec *s = &specs[w->stack[k]];
              TachFrameInfo info = {
                strings->pdata[s->filename], strings->pdata[s->funcname],
                s->lineno, s->end_lineno, s->column, s->end_column, s->opcode,
              };

              if (k >= interned)
                {
                  frames[k] = G_MAXUINT32 - k;
                  continue;
                }
              g_assert_cmpint (tach_writer_intern_frame (writer, &info, &frames[k], &error),
                               ==, TACH_OK);
              index_of_spec[w->stack[k]] = frames[k];
              g_hash_table_add (used_strings, strings->pdata[s->filename]);
              g_hash_table_add (used_strings, strings->pdata[s->funcname]);
              g_hash_table_add (used_frames, GUINT_TO_POINTER (frames[k] + 1));
            }

          g_assert_cmpint (tach_writer_add_sample (writer, w->tid, w->iid, ts, status,
                                                   frames, w->depth, &error), ==, TACH_OK);
          model_add (&model, w->tid, w->iid, ts, status, frames, w->depth);
          total++;
        }
    }
  model_finish (&model);
  if (tach_writer_finish (writer, &error) != TACH_OK)
    g_error ("finish: %s", error.message);

  /* Read it back. */
  if (tach_reader_open_path (path, &reader, &error) != TACH_OK)
    g_error ("open: %s", error.message);
  {
    const TachHeader *h = tach_reader_get_header (reader);
    const TachFooter *f = tach_reader_get_footer (reader);
    const TachStats *st = tach_reader_get_stats (reader);

    g_assert_cmpuint (h->version, ==, 1);
    g_assert_cmpuint (h->python_major, ==, options.python_major ? options.python_major : 3);
    g_assert_cmpuint (h->python_minor, ==, options.python_major ? options.python_minor : 15);
    g_assert_cmpuint (h->python_micro, ==, options.python_major ? options.python_micro : 0);
    g_assert_cmpuint (h->python_reserved, ==, 0);
    g_assert_cmpuint (h->start_time_us, ==, options.start_time_us);
    g_assert_cmpuint (h->sample_interval_us, ==, options.sample_interval_us);
    g_assert_cmpuint (h->sample_count, ==, total);
    g_assert_cmpuint (h->thread_count, ==, model.threads->len);
    g_assert_cmpuint (h->compression_type, ==, options.zstd ? 1 : 0);
    g_assert_cmpuint (h->mode_raw, ==, options.mode_raw);
    g_assert_cmpint (h->big_endian, ==, options.big_endian);
    g_assert_cmpuint (h->string_table_offset, >=, TACH_HEADER_SIZE);
    g_assert_cmpuint (h->string_table_offset, <=, h->frame_table_offset);
    g_assert_cmpuint (f->string_count, ==, g_hash_table_size (used_strings));
    g_assert_cmpuint (f->frame_count, ==, g_hash_table_size (used_frames));
    g_assert_cmpuint (f->file_size, ==, tach_reader_get_file_size (reader));

    if (stats.duration_sec < 0)
      g_assert_false (st->present);
    else
      {
        g_assert_true (st->present);
        g_assert_cmpuint (st->block_size, ==, stats.block_size ? stats.block_size : 56);
        g_assert_cmpfloat (st->duration_sec, ==, stats.duration_sec);
        g_assert_cmpfloat (st->sample_rate, ==, stats.sample_rate);
        g_assert_cmpint (st->has_error_rate, ==, stats.has_error_rate);
        g_assert_cmpint (st->has_missed_samples, ==, stats.has_missed_samples);
        if (stats.has_error_rate)
          g_assert_cmpfloat (st->error_rate, ==, stats.error_rate);
        if (stats.has_missed_samples)
          g_assert_cmpfloat (st->missed_samples, ==, stats.missed_samples);
      }
  }
  check_frames (reader, strings, specs, n_specs, index_of_spec);

  if (tach_decoder_new (reader, &decoder, &error) != TACH_OK)
    g_error ("decoder: %s", error.message);
  decoder_thread = g_new (guint, model.threads->len + 1);

  while ((r = tach_decoder_next (decoder, &sample, &error)) == 1)
    {
      guint t = model_lookup (&model, sample.thread_id, sample.interpreter_id);
      ModelThread *mt;
      const Expected *e;
      const Expected *prev;

      g_assert_cmpuint (t, <, model.threads->len);     /* no unknown thread */
      mt = &g_array_index (model.threads, ModelThread, t);

      /* Dense thread indices, in first-seen order. */
      if (mt->next == 0)
        {
          g_assert_cmpuint (sample.thread_index, ==, n_seen_threads);
          decoder_thread[t] = n_seen_threads++;
        }
      g_assert_cmpuint (sample.thread_index, ==, decoder_thread[t]);

      /* The records, in the order CPython's writer emits them. */
      if (record_left == 0)
        {
          const ExpectedRecord *er;

          g_assert_cmpuint (record, <, model.records->len);
          er = &g_array_index (model.records, ExpectedRecord, record++);
          g_assert_cmpuint (er->thread, ==, t);
          g_assert_cmpuint (sample.kind, ==, er->kind);
          g_assert_cmpuint (sample.run_index, ==, 0);
          g_assert_cmpuint (sample.run_length, ==, er->count);
          record_left = er->count;
        }
      record_left--;

      /* The thread's samples, in the order they were written. */
      g_assert_cmpuint (mt->next, <, mt->seq->len);
      e = &g_array_index (mt->seq, Expected, mt->next);
      prev = mt->next > 0 ? e - 1 : NULL;
      mt->next++;

      g_assert_cmpuint (sample.timestamp_us, ==, e->ts);
      g_assert_cmpuint (sample.status, ==, e->status);
      g_assert_cmpuint (sample.kind, ==, e->kind);
      g_assert_cmpuint (sample.depth, ==, e->depth);
      g_assert_cmpmem (sample.stack, sample.depth * sizeof (uint32_t),
                       e->stack, e->depth * sizeof (uint32_t));
      if (e->kind == TACH_RECORD_REPEAT)
        {
          g_assert_cmpuint (sample.run_index, ==, e->run_index);
          g_assert_cmpuint (sample.run_length, ==, e->run_length);
        }

      /* The shape of the change, as the header documents it. */
      g_assert_cmpuint ((guint) sample.pop + sample.keep, ==, prev ? prev->depth : 0);
      g_assert_cmpuint ((guint) sample.keep + sample.push, ==, sample.depth);
      if (sample.keep > 0)
        g_assert_cmpmem (sample.stack + sample.push, sample.keep * sizeof (uint32_t),
                         prev->stack + (prev->depth - sample.keep),
                         sample.keep * sizeof (uint32_t));
      if (sample.kind == TACH_RECORD_REPEAT)
        {
          g_assert_cmpuint (sample.pop, ==, 0);
          g_assert_cmpuint (sample.push, ==, 0);
        }
      else if (sample.kind == TACH_RECORD_FULL)
        {
          g_assert_cmpuint (sample.push, ==, sample.depth);
          g_assert_cmpuint (sample.keep, ==, 0);
        }
      else if (sample.kind == TACH_RECORD_SUFFIX)
        g_assert_cmpuint (sample.pop, ==, 0);

      kinds_seen[sample.kind]++;
    }
  if (r < 0)
    g_error ("decode: %s", error.message);

  g_assert_cmpuint (record, ==, model.records->len);
  g_assert_cmpuint (record_left, ==, 0);
  g_assert_cmpuint (tach_decoder_get_samples_decoded (decoder), ==, total);
  g_assert_cmpuint (tach_decoder_get_n_threads (decoder), ==, model.threads->len);
  for (guint i = 0; i < model.threads->len; i++)
    g_assert_cmpuint (g_array_index (model.threads, ModelThread, i).next, ==,
                      g_array_index (model.threads, ModelThread, i).seq->len);

  model_clear (&model);
  g_remove (path);
  g_rmdir (dir);
  iterations_run++;
}

static void
test_iteration (gconstpointer data)
{
  run_iteration (GPOINTER_TO_UINT (data));
}

/* Over a run, every record kind must have been produced and read back. */
static void
test_kinds_covered (void)
{
  /* When only this test was selected, run a few iterations for it. */
  if (iterations_run == 0)
    for (guint i = 0; i < 20; i++)
      run_iteration (i);

  for (guint k = 0; k < 4; k++)
    {
      g_test_message ("%s: %" G_GUINT64_FORMAT " samples",
                      tach_record_kind_to_string ((TachRecordKind) k), kinds_seen[k]);
      g_assert_cmpuint (kinds_seen[k], >, 0);
    }
}

int
main (int    argc,
      char **argv)
{
  const char *seed = g_getenv ("TACH_SEED");

  g_test_init (&argc, &argv, NULL);

  base_seed = seed != NULL ? (guint32) strtoul (seed, NULL, 0) : g_random_int ();
  g_test_message ("TACH_SEED=%" G_GUINT32_FORMAT, base_seed);

  for (guint i = 0; i < N_ITERATIONS; i++)
    {
      g_autofree char *name = g_strdup_printf ("/format/roundtrip/random/%03u", i);

      g_test_add_data_func (name, GUINT_TO_POINTER (i), test_iteration);
    }
  g_test_add_func ("/format/roundtrip/random/kinds-covered", test_kinds_covered);

  return g_test_run ();
}
