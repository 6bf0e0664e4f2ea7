/* test-model.c: TvProfileData and TvCallTree against brute force
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every profile is read twice: by tv_profile_data_load(), and sample by
 * sample with tach_decoder_next() into a plain list of (thread, timestamp,
 * status, frames).  Everything the model answers is then recomputed from
 * that list in the most direct way there is, and compared.
 *
 * /model/random/NNN: random profiles from the writer (threads in two
 * interpreters sharing a thread id, stacks from push/pop walks with direct
 * and indirect recursion, empty stacks, timestamps going backwards in one
 * thread, several frames per function that differ in line, column, opcode
 * or end position), each asked many random queries.  The seed is printed;
 * TACH_SEED replays a run, and iteration N uses the seed pair
 * (TACH_SEED, N).
 *
 * /model/corpus/FILE: every valid corpus file; the exact tree's leaf runs
 * give the same collapsed stacks, per thread, as the samples do, and the
 * per-thread records and totals are those of the samples.
 *
 * The semantics the brute force implements (and hence pins down) are those
 * of src/tv-call-tree.c, step by step for each selected sample (see
 * transform_path() and brute_tree()):
 *
 *   filter   thread set, interpreter, (status & mask) == value when the
 *            mask is not 0, range_start <= timestamp < range_end (an empty
 *            or backwards range selects nothing);
 *   focus    on the stack as recorded: only samples with a frame of the
 *            function, cut so that the path starts at its outermost frame;
 *   hide     frames of hidden functions dropped;
 *   collapse a frame dropped when its merge key equals the last kept one;
 *   table    the function table is taken here: self to the leaf's
 *            function, total once per function on the path;
 *   callers  the path from the outermost frame of the function back to
 *            the root (function first); replaces inversion;
 *   invert   the path reversed.
 *
 * A node's self counts the paths that end there, its total the paths
 * through it; the root's total counts every path, empty ones included
 * (which also make the root's self).  With count_states, a node's state
 * counts are those of its total, split by the sample's status bits.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>

#include <glib.h>
#include <glib/gstdio.h>

#include "format-test-util.h"
#include "model-fixture.h"
#include "tv-call-tree.h"
#include "tv-huge-pages.h"
#include "tv-tach-error.h"
#include "tv-view-state.h"

#define N_ITERATIONS        40
#define N_RANDOM_QUERIES    120
#define N_COUNTS_ITERATIONS 12
#define INTERNAL_SUFFIX     "_sync_coordinator.py"

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TachReader, tach_reader_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TachDecoder, tach_decoder_free)

static guint32 base_seed;

/* What the random profiles and queries exercised, checked at the end. */
enum
{
  COVER_DIRECT_RECURSION,       /* samples with f f on their stack */
  COVER_INDIRECT_RECURSION,     /* samples with f g f */
  COVER_EMPTY_STACK,
  COVER_UNORDERED_THREAD,
  COVER_SHARED_TID,
  COVER_KEYS_DIFFER,            /* function < line < instruction < frame keys */
  COVER_COLLAPSED,              /* frames dropped by collapse_recursion */
  COVER_HIDDEN,                 /* frames dropped as hidden */
  COVER_INTERNAL,               /* the profiler's own frames dropped */
  COVER_FOCUS_CUT,              /* frames cut off above the focus */
  COVER_FOCUS_HIDDEN,           /* focus on a hidden function, with samples */
  COVER_CALLERS,                /* callers paths of two frames or more */
  COVER_INVERTED,               /* inverted paths of two frames or more */
  COVER_FILTERED,               /* samples filtered out */
  COVER_EMPTY_TREE,             /* queries that select nothing */
  COVER_STATES,                 /* non-zero state counts compared */
  COVER_THREADS,                /* nodes reached by two threads or more */
  COVER_RANGE_GAPS,             /* samples between two ranges of a list */
  COVER_THREAD_SELF,            /* a thread's own self samples compared */
  COVER_REMAINDER,              /* children an inverted tree left out */
  COVER_DETAIL,                 /* a node kept only for being on the detail path */
  COVER_FROM_EXACT,             /* inverted trees turned over from the exact tree */
  COVER_TOP_REMAINDER,          /* children a top-down tree left out */
  COVER_TOP_DETAIL,             /* a top-down node kept only for the detail path */
  COVER_TOP_TABLE_COPIED,       /* top-down trees with another's function table */
  COVER_FOCUS_REMAINDER,        /* children a focused tree left out */
  COVER_THREAD_REMAINDER,       /* a thread's samples in remainders compared */
  COVER_QUIET_CALLS,            /* exact nodes inside a recursion */
  COVER_STATUSES_PACKED,        /* threads of statuses in 4 bits */
  COVER_STATUSES_WIDE,          /* threads of more than 16 distinct statuses */
  COVER_REMAINDER_PATHS,        /* remainder call paths compared exactly */
  COVER_INVERTED_HIDDEN_LEAF,   /* inverted from the exact tree: a sample's
                                 * leaf hidden, a caller shown */
  COVER_INVERTED_ALL_HIDDEN,    /* inverted from the exact tree: a sample's
                                 * frames all hidden */
  COVER_LEFT_LEAVES,            /* thread counts of a pruned tree that
                                 * placed only its hits' leaves */
  COVER_KEPT_WEIGHTS,           /* trees compared that took the weights of
                                 * the tree before */
  COVER_KEPT_RUNS,              /* inverted from the exact tree with the
                                 * runs of the tree before */
  COVER_KEPT_SIGNATURES,        /* a function table read off the exact
                                 * tree with the signatures of the tree
                                 * before */
  COVER_MERGED,                 /* a tree read off the tree merged by
                                 * function */
  COVER_MERGED_SMALLER,         /* a merged tree of fewer nodes than the
                                 * exact one */
  COVER_OUTER_TABLES,           /* a function table read off the outermost
                                 * calls of the exact tree */
  N_COVER
};

static const char * const cover_names[N_COVER] = {
  "direct recursion", "indirect recursion", "empty stacks", "unordered threads",
  "shared thread ids", "merge keys differ", "collapsed frames", "hidden frames",
  "internal frames", "focus cuts", "focus on hidden", "callers paths", "inverted paths",
  "filtered samples", "empty trees", "state counts", "nodes of several threads",
  "samples between ranges", "threads' own self samples", "children left out",
  "nodes kept on the detail path", "inverted from the exact tree",
  "children a top-down tree left out", "top-down nodes kept on the detail path",
  "top-down function tables taken from another tree", "children a focused tree left out",
  "threads' samples in remainders", "exact nodes inside a recursion",
  "threads of statuses in 4 bits",
  "threads of more than 16 statuses", "remainder call paths compared exactly",
  "inverted from a hidden leaf's caller", "inverted stacks of hidden frames only",
  "thread counts of a tree that placed only its leaves",
  "trees made from the weights of the tree before",
  "inverted trees made with the runs of the tree before",
  "function tables made with the node signatures of the tree before",
  "trees read off the tree merged by function",
  "merged trees smaller than the exact tree",
  "function tables read off the outermost calls",
};


/* How many frames lie between the exact tree's root and NODE. */
static guint
exact_depth (const TvExactTree *tree,
             guint32            node)
{
  guint depth = 0;

  for (; node != TV_ROOT_NODE; node = tv_exact_tree_parent (tree, node))
    depth++;
  return depth;
}

static guint64 coverage[N_COVER];
static guint random_run;

/* What the current check is about, printed when a check fails. */
static char *context;

#define CHECK_EQ(a, b, what)                                                \
  G_STMT_START {                                                            \
    guint64 check_a_ = (a), check_b_ = (b);                                 \
    if (check_a_ != check_b_)                                               \
      {                                                                     \
        g_test_message ("%s: %s: model %" G_GUINT64_FORMAT                  \
                        ", brute force %" G_GUINT64_FORMAT,                 \
                        context ? context : "", what, check_a_, check_b_);  \
        g_assert_cmpuint (check_a_, ==, check_b_);                          \
      }                                                                     \
  } G_STMT_END

#define CHECK(cond, what)                                                   \
  G_STMT_START {                                                            \
    if (!(cond))                                                            \
      {                                                                     \
        g_test_message ("%s: %s", context ? context : "", what);            \
        g_assert_true (cond);                                               \
      }                                                                     \
  } G_STMT_END

static void
set_context (const char *format,
             ...) G_GNUC_PRINTF (1, 2);

static void
set_context (const char *format,
             ...)
{
  va_list args;

  g_free (context);
  va_start (args, format);
  context = g_strdup_vprintf (format, args);
  va_end (args);
}

/* ------------------------------------------------------------------------ */
/* The samples, decoded independently                                        */
/* ------------------------------------------------------------------------ */

typedef struct
{
  guint32 thread;               /* decoder thread index */
  guint64 ts;
  guint8  status;
  guint16 depth;
  gsize   frames;               /* offset in Decoded.frames; root first */
} Sample;

typedef struct
{
  GArray        *samples;       /* Sample */
  GArray        *frames;        /* guint32 */
  guint          n_threads;
  TachThreadKey *threads;       /* by decoder thread index */
} Decoded;

static void
decoded_clear (Decoded *d)
{
  g_clear_pointer (&d->samples, g_array_unref);
  g_clear_pointer (&d->frames, g_array_unref);
  g_clear_pointer (&d->threads, g_free);
}

static inline const guint32 *
sample_frames (const Decoded *d,
               const Sample  *s)
{
  return &g_array_index (d->frames, guint32, s->frames);
}

static void
decode_file (const char *path,
             Decoded    *d)
{
  g_autoptr(TachReader) reader = NULL;
  g_autoptr(TachDecoder) decoder = NULL;
  TachError error;
  TachSample sample;
  int r;

  memset (d, 0, sizeof *d);
  d->samples = g_array_new (FALSE, FALSE, sizeof (Sample));
  d->frames = g_array_new (FALSE, FALSE, sizeof (guint32));

  if (tach_reader_open_path (path, &reader, &error) != TACH_OK)
    g_error ("%s: %s", path, error.message);
  if (tach_decoder_new (reader, &decoder, &error) != TACH_OK)
    g_error ("%s: %s", path, error.message);

  while ((r = tach_decoder_next (decoder, &sample, &error)) == 1)
    {
      Sample s = { sample.thread_index, sample.timestamp_us, sample.status,
                   sample.depth, d->frames->len };

      /* The decoder gives the innermost frame first. */
      for (guint i = sample.depth; i > 0; i--)
        g_array_append_val (d->frames, sample.stack[i - 1]);
      g_array_append_val (d->samples, s);
    }
  if (r < 0)
    g_error ("%s: %s", path, error.message);

  d->n_threads = tach_decoder_get_n_threads (decoder);
  d->threads = g_new0 (TachThreadKey, MAX (d->n_threads, 1));
  for (guint i = 0; i < d->n_threads; i++)
    d->threads[i] = *tach_decoder_get_thread (decoder, i);
}

/* ------------------------------------------------------------------------ */
/* TvProfileData against the samples                                         */
/* ------------------------------------------------------------------------ */

/* The model's thread for the decoder's thread INDEX, found by its identity
 * (thread id, interpreter) rather than by trusting the two indices to
 * agree. */
static guint
model_thread (TvProfileData *data,
              const Decoded *d,
              guint          index)
{
  guint found = G_MAXUINT;

  for (guint i = 0; i < tv_profile_data_get_n_threads (data); i++)
    {
      const TvThread *t = tv_profile_data_get_thread (data, i);

      if (t->n_samples > 0 && t->thread_id == d->threads[index].thread_id
          && t->interpreter_id == d->threads[index].interpreter_id)
        {
          CHECK (found == G_MAXUINT, "two threads with the same identity");
          found = i;
        }
    }
  CHECK (found != G_MAXUINT, "a thread with samples is missing");
  return found;
}

/* The exact tree node of sample I of thread T, from its leaf runs. */
static guint32
leaf_of_sample (const TvThread *t,
                guint64         i)
{
  guint64 lo = 0, hi = t->n_runs;

  /* The last run that starts at or before I. */
  while (hi - lo > 1)
    {
      guint64 mid = lo + (hi - lo) / 2;

      if (t->run_start[mid] <= i)
        lo = mid;
      else
        hi = mid;
    }
  return t->run_leaf[lo];
}

/* Samples per model thread, in order; maps every sample to its thread. */
static guint *
check_threads (TvProfileData *data,
               const Decoded *d)
{
  guint n_threads = tv_profile_data_get_n_threads (data);
  g_autofree guint *by_index = g_new (guint, MAX (d->n_threads, 1));
  g_autofree guint64 *seen = g_new0 (guint64, MAX (n_threads, 1));
  guint *sample_thread = g_new (guint, MAX (d->samples->len, 1));
  const TvExactTree *tree = tv_profile_data_get_tree (data);
  guint64 status_counts[8] = { 0 };
  const guint64 *model_counts = tv_profile_data_get_status_counts (data);
  guint64 first = G_MAXUINT64, last = 0, model_first, model_last;
  guint max_depth = 0;
  guint64 total = 0;

  g_assert_cmpuint (n_threads, <=, d->n_threads);
  for (guint i = 0; i < d->n_threads; i++)
    by_index[i] = G_MAXUINT;
  for (guint s = 0; s < d->samples->len; s++)
    {
      const Sample *sample = &g_array_index (d->samples, Sample, s);

      if (by_index[sample->thread] == G_MAXUINT)
        by_index[sample->thread] = model_thread (data, d, sample->thread);
      sample_thread[s] = by_index[sample->thread];
    }

  /* Sample by sample: timestamp, status and the exact tree's path. */
  for (guint s = 0; s < d->samples->len; s++)
    {
      const Sample *sample = &g_array_index (d->samples, Sample, s);
      const TvThread *t = tv_profile_data_get_thread (data, sample_thread[s]);
      guint64 i = seen[sample_thread[s]]++;
      const guint32 *frames = sample_frames (d, sample);
      guint32 node;

      CHECK (i < t->n_samples, "thread has too few samples");
      CHECK_EQ (tv_times_get (&t->times, i), sample->ts, "timestamp");
      CHECK_EQ (tv_statuses_get (&t->statuses, i), sample->status, "status");
      node = leaf_of_sample (t, i);
      CHECK_EQ (exact_depth (tree, node), sample->depth, "leaf depth");
      for (guint k = sample->depth; k > 0; k--)
        {
          CHECK_EQ (tv_exact_tree_frame (tree, node), frames[k - 1], "frame on the leaf's path");
          node = tv_exact_tree_parent (tree, node);
        }
      CHECK_EQ (node, TV_ROOT_NODE, "path ends at the root");

      for (guint b = 0; b < 8; b++)
        if (sample->status & (1u << b))
          status_counts[b]++;
      first = MIN (first, sample->ts);
      last = MAX (last, sample->ts);
      max_depth = MAX (max_depth, sample->depth);
    }

  /* Per thread: counts, extremes, order, status bits, runs. */
  for (guint i = 0; i < n_threads; i++)
    {
      const TvThread *t = tv_profile_data_get_thread (data, i);
      guint64 counts[8] = { 0 };
      guint64 lo = G_MAXUINT64, hi = 0;
      gboolean ordered = TRUE;

      CHECK_EQ (t->index, i, "thread index");
      CHECK_EQ (t->n_samples, seen[i], "samples of a thread");
      total += t->n_samples;

      /* The identity the decoder gives that index, with samples or not. */
      CHECK_EQ (t->thread_id, d->threads[i].thread_id, "thread id");
      CHECK_EQ (t->interpreter_id, d->threads[i].interpreter_id, "interpreter id");
      if (t->n_samples == 0)
        continue;

      for (guint64 s = 0; s < t->n_samples; s++)
        {
          lo = MIN (lo, tv_times_get (&t->times, s));
          hi = MAX (hi, tv_times_get (&t->times, s));
          if (s > 0 && tv_times_get (&t->times, s) < tv_times_get (&t->times, s - 1))
            ordered = FALSE;
          for (guint b = 0; b < 8; b++)
            if (tv_statuses_get (&t->statuses, s) & (1u << b))
              counts[b]++;
        }
      CHECK_EQ (t->first_timestamp, lo, "first timestamp");
      CHECK_EQ (t->last_timestamp, hi, "last timestamp");
      CHECK_EQ (t->time_ordered, ordered, "time order");
      /* Bits 6 and 7 are not defined (SPEC §4.8) and the model does not
       * count them. */
      for (guint b = 0; b < 6; b++)
        CHECK_EQ (t->status_counts[b], counts[b], "status bit count of a thread");

      CHECK (t->n_runs > 0, "a thread with samples has runs");
      CHECK_EQ (t->run_start[0], 0, "first run starts at 0");
      for (guint64 r = 1; r < t->n_runs; r++)
        {
          CHECK (t->run_start[r] > t->run_start[r - 1], "runs in order");
          CHECK (t->run_leaf[r] != t->run_leaf[r - 1], "runs are maximal");
        }
      CHECK (t->run_start[t->n_runs - 1] < t->n_samples, "last run is not empty");
    }
  CHECK_EQ (total, d->samples->len, "samples over all threads");
  CHECK_EQ (tv_profile_data_get_n_samples (data), d->samples->len, "samples");

  /* The display order: every thread once, by interpreter, the main thread
   * first, then by samples (most first), thread id and index. */
  {
    const guint32 *order = tv_profile_data_get_thread_order (data);
    g_autofree guint8 *listed = g_new0 (guint8, MAX (n_threads, 1));

    for (guint p = 0; p < n_threads; p++)
      {
        CHECK (order[p] < n_threads && !listed[order[p]], "the order lists each thread once");
        listed[order[p]] = 1;
        if (p > 0)
          {
            const TvThread *x = tv_profile_data_get_thread (data, order[p - 1]);
            const TvThread *y = tv_profile_data_get_thread (data, order[p]);
            gboolean x_main = x->status_counts[5] > 0, y_main = y->status_counts[5] > 0;
            gint64 key_x[] = { x->interpreter_id, !x_main, -(gint64) x->n_samples };
            gint64 key_y[] = { y->interpreter_id, !y_main, -(gint64) y->n_samples };
            int c = 0;

            for (guint k = 0; c == 0 && k < G_N_ELEMENTS (key_x); k++)
              c = (key_x[k] > key_y[k]) - (key_x[k] < key_y[k]);
            if (c == 0)
              c = (x->thread_id > y->thread_id) - (x->thread_id < y->thread_id);
            if (c == 0)
              c = (x->index > y->index) - (x->index < y->index);
            CHECK (c < 0, "threads in the display order");
          }
      }
  }
  for (guint b = 0; b < 6; b++)
    CHECK_EQ (model_counts[b], status_counts[b], "status bit count");
  CHECK_EQ (tv_profile_data_get_max_depth (data), max_depth, "max depth");
  CHECK_EQ (tv_profile_data_get_time_span (data, &model_first, &model_last),
            d->samples->len > 0, "time span exists");
  if (d->samples->len > 0)
    {
      CHECK_EQ (model_first, first, "first timestamp of the profile");
      CHECK_EQ (model_last, last, "last timestamp of the profile");
    }

  return sample_thread;
}

static int
compare_u64 (const void *a,
             const void *b)
{
  guint64 x = *(const guint64 *) a, y = *(const guint64 *) b;

  return x < y ? -1 : x > y;
}

/* The exact tree itself: (parent, frame) identifies a node, parents come
 * first, depths add up, and each node's samples are those whose leaf it
 * is. */
static void
check_exact_tree (TvProfileData *data)
{
  const TvExactTree *tree = tv_profile_data_get_tree (data);
  g_autofree guint64 *ids = g_new (guint64, tree->n_nodes);
  g_autofree guint64 *self = g_new0 (guint64, tree->n_nodes);
  guint32 n_frames = tach_reader_get_n_frames (tv_profile_data_get_reader (data));

  g_assert_cmpuint (tree->n_nodes, >=, 1);
  CHECK_EQ (tv_exact_tree_parent (tree, 0), TV_NODE_NONE, "root has no parent");
  for (guint32 n = 1; n < tree->n_nodes; n++)
    {
      CHECK (tv_exact_tree_parent (tree, n) < n, "parent before child");
      CHECK (tv_exact_tree_frame (tree, n) < n_frames, "frame in range");
      ids[n - 1] = (guint64) tv_exact_tree_parent (tree, n) << 32 | tv_exact_tree_frame (tree, n);
    }
  qsort (ids, tree->n_nodes - 1, sizeof (guint64), compare_u64);
  for (guint32 i = 1; i + 1 < tree->n_nodes; i++)
    CHECK (ids[i - 1] != ids[i], "(parent, frame) is unique");

  /* Siblings are consecutive from their parent's first_child on: the
   * range holds every child. */
  {
    g_autofree guint32 *n_children = g_new0 (guint32, tree->n_nodes);

    for (guint32 n = 1; n < tree->n_nodes; n++)
      n_children[tv_exact_tree_parent (tree, n)]++;
    for (guint32 n = 0; n < tree->n_nodes; n++)
      {
        guint32 in_range = 0;

        for (guint32 c = tv_exact_tree_first_child (tree, n);
             c < tree->n_nodes && tv_exact_tree_parent (tree, c) == n; c++)
          in_range++;
        CHECK_EQ (in_range, n_children[n], "children consecutive from first_child");
      }
  }

  /* An outermost call has no caller of its function above it (walked up
   * in a tree small enough); a quiet call's parent has its function and
   * is not outermost. */
  {
    const guint32 *fkeys = tv_profile_data_get_frame_keys (data, TV_MERGE_FUNCTION);
    guint32 n_quiet = 0;

    for (guint32 n = 1; n < tree->n_nodes; n++)
      {
        guint32 f = fkeys[tv_exact_tree_frame (tree, n)];
        guint32 p = tv_exact_tree_parent (tree, n);
        gboolean outer = TRUE, quiet;

        for (guint32 a = p; a != TV_ROOT_NODE && tree->n_nodes <= 200000;
             a = tv_exact_tree_parent (tree, a))
          outer &= fkeys[tv_exact_tree_frame (tree, a)] != f;
        quiet = p != TV_ROOT_NODE && fkeys[tv_exact_tree_frame (tree, p)] == f
                && !TV_BIT_TEST (tree->outer_calls, p);
        if (tree->n_nodes <= 200000)
          CHECK_EQ (TV_BIT_TEST (tree->outer_calls, n), outer, "outermost call");
        CHECK_EQ (TV_BIT_TEST (tree->quiet_calls, n), quiet, "quiet call");
        coverage[COVER_QUIET_CALLS] += quiet;
        n_quiet += quiet;
      }
    CHECK_EQ (tree->n_quiet, n_quiet, "quiet calls counted");
  }

  for (guint i = 0; i < tv_profile_data_get_n_threads (data); i++)
    {
      const TvThread *t = tv_profile_data_get_thread (data, i);

      for (guint64 r = 0; r < t->n_runs; r++)
        {
          guint64 end = r + 1 < t->n_runs ? t->run_start[r + 1] : t->n_samples;

          self[t->run_leaf[r]] += end - t->run_start[r];
        }
    }
  {
    g_autofree guint64 *counted = tv_profile_data_count_node_samples (data);
    guint64 sum = 0;

    for (guint32 n = 0; n < tree->n_nodes; n++)
      {
        CHECK_EQ (counted[n], self[n], "exact node samples");
        sum += counted[n];
      }
    CHECK_EQ (sum, tv_profile_data_get_n_samples (data), "node samples add up");
  }
}

/* ------------------------------------------------------------------------ */
/* Merge keys against the frame table                                        */
/* ------------------------------------------------------------------------ */

/* Compares two frames field by field, in the order the model ranks keys
 * by: function name, file name, line, column, opcode, end line, end column;
 * MERGE says how many of the fields count. */
static int
compare_fields (TachReader      *reader,
                const TachFrame *a,
                const TachFrame *b,
                TvMergeKey       merge)
{
  const gint64 fa[] = { a->lineno, a->column, a->opcode, a->end_lineno, a->end_column };
  const gint64 fb[] = { b->lineno, b->column, b->opcode, b->end_lineno, b->end_column };
  const guint n_fields[] = {
    [TV_MERGE_FRAME] = 5, [TV_MERGE_FUNCTION] = 0,
    [TV_MERGE_LINE] = 1, [TV_MERGE_INSTRUCTION] = 3,
  };
  int r;

  if ((r = strcmp (tach_reader_get_string (reader, a->funcname, NULL),
                   tach_reader_get_string (reader, b->funcname, NULL))) != 0)
    return r;
  if ((r = strcmp (tach_reader_get_string (reader, a->filename, NULL),
                   tach_reader_get_string (reader, b->filename, NULL))) != 0)
    return r;
  for (guint i = 0; i < n_fields[merge]; i++)
    if (fa[i] != fb[i])
      return fa[i] < fb[i] ? -1 : 1;
  return 0;
}

typedef struct
{
  TachReader *reader;
  TvMergeKey  merge;
} FieldOrder;

static int
compare_frame_indices (gconstpointer a,
                       gconstpointer b,
                       gpointer      user_data)
{
  const FieldOrder *order = user_data;
  guint32 fa = *(const guint32 *) a, fb = *(const guint32 *) b;

  return compare_fields (order->reader, tach_reader_get_frame (order->reader, fa),
                         tach_reader_get_frame (order->reader, fb), order->merge);
}

static void
check_keys (TvProfileData *data)
{
  TachReader *reader = tv_profile_data_get_reader (data);
  guint32 n_frames = tach_reader_get_n_frames (reader);
  g_autofree guint32 *sorted = g_new (guint32, MAX (n_frames, 1));

  for (TvMergeKey merge = 0; merge < TV_N_MERGE_KEYS; merge++)
    {
      const guint32 *keys = tv_profile_data_get_frame_keys (data, merge);
      const guint32 *ranks = tv_profile_data_get_key_ranks (data, merge);
      guint32 n_keys = tv_profile_data_get_n_keys (data, merge);
      g_autofree guint32 *by_rank = g_new (guint32, MAX (n_keys, 1));
      g_autofree guint8 *rank_used = g_new0 (guint8, MAX (n_keys, 1));
      g_autofree guint8 *key_used = g_new0 (guint8, MAX (n_keys, 1));
      FieldOrder order = { reader, merge };
      guint32 n_groups = 0;

      set_context ("merge %d", merge);

      /* Two frames share a key exactly when the key's fields are equal:
       * sorted by their fields, the frames form groups of equal fields,
       * each group has one key, and no two groups have the same. */
      for (guint32 f = 0; f < n_frames; f++)
        sorted[f] = f;
      g_qsort_with_data (sorted, n_frames, sizeof (guint32), compare_frame_indices, &order);
      for (guint32 i = 0; i < n_frames; i++)
        {
          guint32 k = keys[sorted[i]];

          CHECK (k < n_keys, "key in range");
          if (i > 0 && compare_frame_indices (&sorted[i - 1], &sorted[i], &order) == 0)
            {
              CHECK_EQ (k, keys[sorted[i - 1]], "frames with equal fields share a key");
              continue;
            }
          CHECK (!key_used[k], "frames with different fields have different keys");
          key_used[k] = 1;
          n_groups++;
        }
      CHECK_EQ (n_keys, n_groups, "one key per group of equal fields");

      /* Every key stands for one of its frames, and ranks are a
       * permutation that sorts the keys by their fields. */
      for (guint32 k = 0; k < n_keys; k++)
        {
          guint32 frame = tv_profile_data_get_key_frame (data, merge, k);

          CHECK (frame < n_frames, "key frame in range");
          CHECK_EQ (keys[frame], k, "key frame has the key");
          CHECK (ranks[k] < n_keys && !rank_used[ranks[k]], "ranks are a permutation");
          rank_used[ranks[k]] = 1;
          by_rank[ranks[k]] = k;
        }
      for (guint32 r = 1; r < n_keys; r++)
        {
          const TachFrame *a, *b;

          a = tach_reader_get_frame (reader, tv_profile_data_get_key_frame (data, merge,
                                                                             by_rank[r - 1]));
          b = tach_reader_get_frame (reader, tv_profile_data_get_key_frame (data, merge,
                                                                             by_rank[r]));
          CHECK (compare_fields (reader, a, b, merge) < 0, "ranks sort keys by their fields");
        }
    }
}

/* ------------------------------------------------------------------------ */
/* Call trees by brute force                                                 */
/* ------------------------------------------------------------------------ */

typedef struct
{
  guint32 key;
  guint32 parent;
  guint32 first_child;
  guint32 next_sibling;
  guint64 self;
  guint64 total;
  guint64 states[TV_N_STATUS_COUNTS];
  guint32 n_threads;            /* distinct threads with a path through it */
  guint64 thread_mask;          /* those below 64 */
} BruteNode;

typedef struct
{
  GArray  *nodes;               /* BruteNode; 0 is the root */
  guint64 *hkeys;               /* (parent << 32 | key) + 1; 0 is empty */
  guint32 *hnodes;
  guint32  mask;
  guint64  selected;            /* samples that pass the filters */
  guint64 *fself;               /* by function key */
  guint64 *ftotal;
  guint32 *fstamp;              /* last path that counted a function */
  guint32  n_functions;
  GHashTable *node_threads;     /* (node << 32 | thread) seen */
  GHashTable *thread_self;      /* (node << 32 | thread) -> self samples */
} Brute;

static inline guint32
brute_slot (const Brute *b,
            guint64      h)
{
  return (guint32) ((h * G_GUINT64_CONSTANT (0x9e3779b97f4a7c15)) >> 32) & b->mask;
}

/* The child of PARENT with KEY, or TV_NODE_NONE. */
static guint32
brute_find (const Brute *b,
            guint32      parent,
            guint32      key)
{
  guint64 h = ((guint64) parent << 32 | key) + 1;

  for (guint32 slot = brute_slot (b, h); b->hkeys[slot] != 0; slot = (slot + 1) & b->mask)
    if (b->hkeys[slot] == h)
      return b->hnodes[slot];
  return TV_NODE_NONE;
}

static void
brute_insert (Brute   *b,
              guint32  parent,
              guint32  key,
              guint32  node)
{
  guint64 h = ((guint64) parent << 32 | key) + 1;
  guint32 slot = brute_slot (b, h);

  while (b->hkeys[slot] != 0)
    slot = (slot + 1) & b->mask;
  b->hkeys[slot] = h;
  b->hnodes[slot] = node;
}

static guint32
brute_child (Brute   *b,
             guint32  parent,
             guint32  key)
{
  BruteNode node = { key, parent, TV_NODE_NONE, TV_NODE_NONE, 0, 0 };
  guint32 c = brute_find (b, parent, key);

  if (c != TV_NODE_NONE)
    return c;

  node.next_sibling = g_array_index (b->nodes, BruteNode, parent).first_child;
  g_array_append_val (b->nodes, node);
  c = b->nodes->len - 1;
  g_array_index (b->nodes, BruteNode, parent).first_child = c;

  if ((guint64) b->nodes->len * 2 > b->mask)
    {
      g_autofree guint64 *hkeys = b->hkeys;
      g_autofree guint32 *hnodes = b->hnodes;
      guint32 old_mask = b->mask;

      b->mask = b->mask * 2 + 1;
      b->hkeys = g_new0 (guint64, (gsize) b->mask + 1);
      b->hnodes = g_new (guint32, (gsize) b->mask + 1);
      for (guint32 i = 0; i <= old_mask; i++)
        if (hkeys[i] != 0)
          {
            guint32 slot = brute_slot (b, hkeys[i]);

            while (b->hkeys[slot] != 0)
              slot = (slot + 1) & b->mask;
            b->hkeys[slot] = hkeys[i];
            b->hnodes[slot] = hnodes[i];
          }
    }
  brute_insert (b, parent, key, c);
  return c;
}

/* Counts a sample with STATUS in every node of the path that is set. */
static void
brute_count_states (BruteNode *node,
                    guint8     status)
{
  static const guint8 bits[TV_N_STATUS_COUNTS] = {
    [TV_STATUS_COUNT_HAS_GIL] = TACH_STATUS_HAS_GIL,
    [TV_STATUS_COUNT_ON_CPU] = TACH_STATUS_ON_CPU,
    [TV_STATUS_COUNT_GIL_REQUESTED] = TACH_STATUS_GIL_REQUESTED,
    [TV_STATUS_COUNT_HAS_EXCEPTION] = TACH_STATUS_HAS_EXCEPTION,
  };

  for (guint i = 0; i < TV_N_STATUS_COUNTS; i++)
    if (status & bits[i])
      node->states[i]++;
}

/* Counts THREAD once in NODE. */
static void
brute_count_thread (Brute   *b,
                    guint32  node,
                    guint    thread)
{
  BruteNode *bn = &g_array_index (b->nodes, BruteNode, node);
  gint64 pair = (gint64) node << 32 | thread;

  if (thread < 64)
    {
      if (!(bn->thread_mask & (G_GUINT64_CONSTANT (1) << thread)))
        {
          bn->thread_mask |= G_GUINT64_CONSTANT (1) << thread;
          bn->n_threads++;
        }
      return;
    }
  if (!g_hash_table_contains (b->node_threads, &pair))
    {
      g_hash_table_add (b->node_threads, g_memdup2 (&pair, sizeof pair));
      g_array_index (b->nodes, BruteNode, node).n_threads++;
    }
}

static void
brute_add_path (Brute         *b,
                const guint32 *path,
                guint          len,
                guint8         status,
                guint          thread)
{
  guint32 at = 0;

  g_array_index (b->nodes, BruteNode, 0).total++;
  brute_count_states (&g_array_index (b->nodes, BruteNode, 0), status);
  brute_count_thread (b, 0, thread);
  for (guint i = 0; i < len; i++)
    {
      at = brute_child (b, at, path[i]);
      g_array_index (b->nodes, BruteNode, at).total++;
      brute_count_states (&g_array_index (b->nodes, BruteNode, at), status);
      brute_count_thread (b, at, thread);
    }
  g_array_index (b->nodes, BruteNode, at).self++;
  {
    gint64 pair = (gint64) at << 32 | thread;
    guint64 *count = g_hash_table_lookup (b->thread_self, &pair);

    if (count == NULL)
      {
        count = g_new0 (guint64, 1);
        g_hash_table_insert (b->thread_self, g_memdup2 (&pair, sizeof pair), count);
      }
    (*count)++;
  }
}

static gboolean
sample_selected (const TvQuery *q,
                 const TvThread *t,
                 const Sample  *s)
{
  gboolean in_set = q->threads == NULL;

  for (guint i = 0; q->threads != NULL && i < q->n_threads; i++)
    if (q->threads[i] == t->index)
      in_set = TRUE;
  if (!in_set)
    return FALSE;
  if (q->interpreter >= 0 && (gint64) t->interpreter_id != q->interpreter)
    return FALSE;
  if ((s->status & q->status_mask) != q->status_value)
    return FALSE;
  if (q->has_range && (s->ts < q->range_start || s->ts >= q->range_end))
    return FALSE;
  if (q->ranges != NULL)
    {
      gboolean in_list = FALSE;

      for (guint i = 0; i < q->n_ranges; i++)
        in_list |= s->ts >= q->ranges[i].start && s->ts < q->ranges[i].end;
      if (!in_list && q->n_ranges > 0 && s->ts >= q->ranges[0].start
          && s->ts < q->ranges[q->n_ranges - 1].end)
        coverage[COVER_RANGE_GAPS]++;
      return in_list;
    }
  return TRUE;
}

/* The profiler's own frames (its launcher), which no view shows. */
static gboolean
frame_is_internal (TachReader *reader,
                   guint32     frame)
{
  const TachFrame *f = tach_reader_get_frame (reader, frame);
  gsize len;
  const char *file = tach_reader_get_string (reader, f->filename, &len);

  return len >= strlen (INTERNAL_SUFFIX)
         && memcmp (file + len - strlen (INTERNAL_SUFFIX), INTERNAL_SUFFIX,
                    strlen (INTERNAL_SUFFIX)) == 0;
}

static gboolean
is_hidden (const TvQuery *q,
           guint32        function)
{
  for (guint i = 0; i < q->n_hidden_functions; i++)
    if (q->hidden_functions[i] == function)
      return TRUE;
  return FALSE;
}

/* The view path of one selected sample, root first, in KEYS (merge keys)
 * and FNS (their functions); returns FALSE when the sample drops out.
 * The order of the steps is the model's:
 *
 *  1. Focus works on the stack as recorded: a sample stays only if some
 *     frame is of the focus function, and the path starts at the
 *     outermost such frame.  It comes first, so focusing on a function
 *     that is also hidden keeps the samples through it, without its own
 *     frames (its callees become the roots).
 *  2. Hidden functions' frames are dropped (merged into their callers),
 *     and so are the profiler's own frames, in every query.
 *  3. Collapsing recursion drops a frame whose function is that of the
 *     frame kept just before it: only direct recursion collapses (A B A
 *     stays), whatever the lines, and the outermost call's key stays.
 *
 * Callers-of and inversion come after this, in the caller.
 */
static gboolean
transform_path (TvProfileData *data,
                const TvQuery *q,
                const guint32 *frames,
                guint          depth,
                guint32       *keys,
                guint32       *fns,
                guint         *len)
{
  const guint32 *mkeys = tv_profile_data_get_frame_keys (data, q->merge);
  const guint32 *fkeys = tv_profile_data_get_frame_keys (data, TV_MERGE_FUNCTION);
  guint start = 0, n = 0;

  if (q->focus_function != TV_NODE_NONE)
    {
      while (start < depth && fkeys[frames[start]] != q->focus_function)
        start++;
      if (start == depth)
        return FALSE;
      coverage[COVER_FOCUS_CUT] += start;
      coverage[COVER_FOCUS_HIDDEN] += is_hidden (q, q->focus_function);
    }

  for (guint i = start; i < depth; i++)
    {
      guint32 k = mkeys[frames[i]];
      guint32 f = fkeys[frames[i]];

      if (is_hidden (q, f))
        {
          coverage[COVER_HIDDEN]++;
          continue;
        }
      if (frame_is_internal (tv_profile_data_get_reader (data), frames[i]))
        {
          coverage[COVER_INTERNAL]++;
          continue;
        }
      if (q->collapse_recursion && n > 0 && fns[n - 1] == f)
        {
          coverage[COVER_COLLAPSED]++;
          continue;
        }
      keys[n] = k;
      fns[n] = f;
      n++;
    }
  *len = n;
  /* What an inverted tree turned over from the exact tree (see the
   * caller) starts from somewhere else than the leaf. */
  if (q->inverted && q->callers_of == TV_NODE_NONE && q->focus_function == TV_NODE_NONE
      && !q->collapse_recursion && depth > 0)
    {
      guint32 leaf = fkeys[frames[depth - 1]];

      if (n == 0)
        coverage[COVER_INVERTED_ALL_HIDDEN]++;
      else if (is_hidden (q, leaf) || frame_is_internal (tv_profile_data_get_reader (data),
                                                         frames[depth - 1]))
        coverage[COVER_INVERTED_HIDDEN_LEAF]++;
    }
  return TRUE;
}

static void
brute_init (Brute         *b,
            TvProfileData *data)
{
  BruteNode root = { TV_NODE_NONE, TV_NODE_NONE, TV_NODE_NONE, TV_NODE_NONE, 0, 0 };

  memset (b, 0, sizeof *b);
  b->nodes = g_array_new (FALSE, FALSE, sizeof (BruteNode));
  g_array_append_val (b->nodes, root);
  b->mask = 1023;
  b->hkeys = g_new0 (guint64, b->mask + 1);
  b->hnodes = g_new (guint32, b->mask + 1);
  b->n_functions = tv_profile_data_get_n_keys (data, TV_MERGE_FUNCTION);
  b->fself = g_new0 (guint64, MAX (b->n_functions, 1));
  b->ftotal = g_new0 (guint64, MAX (b->n_functions, 1));
  b->fstamp = g_new0 (guint32, MAX (b->n_functions, 1));
  b->node_threads = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  b->thread_self = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
}

static void
brute_clear (Brute *b)
{
  g_clear_pointer (&b->nodes, g_array_unref);
  g_clear_pointer (&b->hkeys, g_free);
  g_clear_pointer (&b->hnodes, g_free);
  g_clear_pointer (&b->fself, g_free);
  g_clear_pointer (&b->ftotal, g_free);
  g_clear_pointer (&b->fstamp, g_free);
  g_clear_pointer (&b->node_threads, g_hash_table_unref);
  g_clear_pointer (&b->thread_self, g_hash_table_unref);
}

/* The tree of query Q, from the samples alone.
 *
 * After transform_path():
 *  - callers of F: the path from the outermost frame of F (in the view
 *    path) up to the root, reversed, so F comes first, then its caller,
 *    and so on; samples without F drop out.  It replaces inversion: a
 *    query with both is not inverted.
 *  - inverted: the view path reversed, leaf first.
 *
 * The function table comes from the view paths before either: self goes
 * to the leaf's function, total once to every function on the path.
 * Samples with an empty path count at the root only. */
static void
brute_tree (TvProfileData *data,
            const Decoded *d,
            const guint   *sample_thread,
            const TvQuery *q,
            Brute         *b)
{
  guint32 keys[TACH_MAX_STACK_DEPTH], fns[TACH_MAX_STACK_DEPTH], path[TACH_MAX_STACK_DEPTH];

  brute_init (b, data);
  for (guint s = 0; s < d->samples->len; s++)
    {
      const Sample *sample = &g_array_index (d->samples, Sample, s);
      const TvThread *t = tv_profile_data_get_thread (data, sample_thread[s]);
      guint len = 0, plen = 0;

      if (!sample_selected (q, t, sample))
        {
          coverage[COVER_FILTERED]++;
          continue;
        }
      b->selected++;
      if (!transform_path (data, q, sample_frames (d, sample), sample->depth, keys, fns, &len))
        continue;

      if (len > 0)
        b->fself[fns[len - 1]]++;
      for (guint i = 0; i < len; i++)
        if (b->fstamp[fns[i]] != s + 1)
          {
            b->fstamp[fns[i]] = s + 1;
            b->ftotal[fns[i]]++;
          }

      if (q->callers_of != TV_NODE_NONE)
        {
          guint i = 0;

          while (i < len && fns[i] != q->callers_of)
            i++;
          if (i == len)
            continue;
          for (guint j = i + 1; j > 0; j--)
            path[plen++] = keys[j - 1];
          coverage[COVER_CALLERS] += plen > 1;
        }
      else if (q->inverted)
        {
          for (guint j = len; j > 0; j--)
            path[plen++] = keys[j - 1];
          coverage[COVER_INVERTED] += plen > 1;
        }
      else
        {
          memcpy (path, keys, len * sizeof (guint32));
          plen = len;
        }
      brute_add_path (b, path, plen, sample->status, sample_thread[s]);
    }
}

/* Whether Q's tree may leave out nodes under its min_total: inverted
 * trees, and top-down trees that keep no node map. */
static gboolean
prunes (const TvQuery *q)
{
  return q->callers_of == TV_NODE_NONE && (q->inverted || !q->keep_node_map);
}

/* The share of Q's tree of SAMPLES a top-down or inverted tree keeps no
 * node under, on the detail path and off it, or 0. */
static guint64
brute_share (const TvQuery *q,
             guint64        samples)
{
  guint64 d = q->min_total_divisor;

  if (!prunes (q) || d == 0)
    return 0;
  return MAX ((samples + d - 1) / d, 1);
}

/* How many nodes the brute force tree has from NODE down. */
static guint64
brute_subtree_size (const Brute *b,
                    guint32      node)
{
  g_autoptr(GArray) stack = g_array_new (FALSE, FALSE, sizeof (guint32));
  guint64 n = 0;

  g_array_append_val (stack, node);
  while (stack->len > 0)
    {
      guint32 u = g_array_index (stack, guint32, stack->len - 1);

      g_array_set_size (stack, stack->len - 1);
      n++;
      for (guint32 c = g_array_index (b->nodes, BruteNode, u).first_child; c != TV_NODE_NONE;
           c = g_array_index (b->nodes, BruteNode, c).next_sibling)
        g_array_append_val (stack, c);
    }
  return n;
}

/* Adds COUNT at KEY of TABLE ((node << 32 | thread) -> count). */
static void
pair_add (GHashTable *table,
          gint64      key,
          guint64     count)
{
  guint64 *at = g_hash_table_lookup (table, &key);

  if (at == NULL)
    {
      at = g_new0 (guint64, 1);
      g_hash_table_insert (table, g_memdup2 (&key, sizeof key), at);
    }
  *at += count;
}

/* One thread's lists of a tree (its self samples or its remainders')
 * against EXPECTED; returns how many pairs they hold. */
static guint
check_thread_pairs (const guint32 *nodes,
                    const guint64 *counts,
                    guint          n,
                    guint32        n_nodes,
                    guint          thread,
                    GHashTable    *expected)
{
  for (guint i = 0; i < n; i++)
    {
      gint64 pair = (gint64) nodes[i] << 32 | thread;
      const guint64 *count = g_hash_table_lookup (expected, &pair);

      CHECK (nodes[i] < n_nodes, "thread pair node in range");
      CHECK (i == 0 || nodes[i - 1] < nodes[i], "thread pair nodes in order");
      CHECK (count != NULL, "thread pair where the thread has samples");
      CHECK_EQ (counts[i], *count, "thread pair count");
    }
  return n;
}

/* The model's tree against the brute force one, node by node from the
 * root: the same key paths with the same self and total. */
static void
compare_trees (TvProfileData *data,
               TvCallTree    *tree,
               const Brute   *b,
               const TvQuery *q)
{
  guint32 n_nodes = tv_call_tree_get_n_nodes (tree);
  g_autofree guint32 *brute_of = g_new (guint32, n_nodes);
  const guint32 *ranks = tv_profile_data_get_key_ranks (data, q->merge);
  const guint32 *mkeys = tv_profile_data_get_frame_keys (data, q->merge);
  const guint32 *fkeys = tv_profile_data_get_frame_keys (data, TV_MERGE_FUNCTION);
  guint32 n_keys = tv_profile_data_get_n_keys (data, q->merge);
  guint32 reached = 1;
  const BruteNode *root = &g_array_index (b->nodes, BruteNode, 0);
  /* Below this, a tree may leave a child out (it must, the way it is
   * made): the brute force keeps every child. */
  guint64 share = brute_share (q, g_array_index (b->nodes, BruteNode, 0).total);
  guint64 min_total = prunes (q) ? MAX (q->min_total, share) : 0;
  /* Where each node is against the detail path: LEVEL_OFF off it, else
   * how many of its keys lead there (all of them at its end and below). */
  const guint32 LEVEL_OFF = G_MAXUINT32;
  gboolean pruned = prunes (q);
  guint32 n_path = pruned && q->detail_path != NULL ? q->n_detail_path : 0;
  g_autofree guint32 *level = g_new (guint32, n_nodes);
  g_autofree guint64 *cut = g_new0 (guint64, n_nodes);
  /* Per node, what its remainder holds: the brute force nodes and their
   * states; and per brute force node, the tree's node or TV_NODE_NONE. */
  g_autofree guint64 *rem_paths = g_new0 (guint64, n_nodes);
  g_autofree guint64 *rem_states = g_new0 (guint64, (gsize) n_nodes * TV_N_STATUS_COUNTS);
  g_autofree guint32 *tree_of = g_new (guint32, b->nodes->len);
  gboolean top_self = q->thread_self && !q->inverted && q->callers_of == TV_NODE_NONE;
  gboolean any_remainder = FALSE;

  CHECK_EQ (tv_call_tree_get_merge (tree), q->merge, "merge");
  CHECK_EQ (tv_call_tree_get_inverted (tree), q->inverted && q->callers_of == TV_NODE_NONE, "inverted");
  CHECK_EQ (tv_call_tree_get_n_samples (tree), root->total, "root total");
  CHECK_EQ (tv_call_tree_get_total (tree, 0), root->total, "root total");
  CHECK_EQ (tv_call_tree_get_self (tree, 0), root->self, "root self");
  CHECK_EQ (tv_call_tree_get_key (tree, 0), TV_NODE_NONE, "root key");
  CHECK_EQ (tv_call_tree_get_parent (tree, 0), TV_NODE_NONE, "root parent");
  CHECK_EQ (tv_call_tree_get_depth (tree, 0), 0, "root depth");
  if (q->focus_function == TV_NODE_NONE && q->callers_of == TV_NODE_NONE)
    CHECK_EQ (root->total, b->selected, "root total is the selected samples");
  if (!pruned || (min_total == 0 && q->detail_min_total == 0))
    CHECK_EQ (n_nodes, b->nodes->len, "node count");
  CHECK_EQ (tv_call_tree_has_status_counts (tree), q->count_states, "state counts kept");
  CHECK (q->count_states || tv_call_tree_get_status_counts (tree, 0) == NULL,
         "no state counts unless asked for");
  CHECK_EQ (tv_call_tree_has_thread_counts (tree),
            q->count_threads && q->callers_of == TV_NODE_NONE, "thread counts kept");

  /* Parents come before their children, so one pass in id order. */
  for (guint32 n = 0; n < n_nodes; n++)
    brute_of[n] = TV_NODE_NONE;
  for (guint32 n = 0; n < b->nodes->len; n++)
    tree_of[n] = TV_NODE_NONE;
  brute_of[0] = 0;
  tree_of[0] = 0;
  level[0] = pruned && q->detail_path != NULL ? 0 : LEVEL_OFF;
  for (guint32 n = 0; n < n_nodes; n++)
    {
      gboolean detail = level[n] == n_path;
      guint64 threshold = !pruned ? 0 : detail ? MAX (q->detail_min_total, share) : min_total;
      guint n_children, n_brute = 0;
      const guint32 *children = tv_call_tree_get_children (tree, n, &n_children);
      const BruteNode *bn;

      CHECK (brute_of[n] != TV_NODE_NONE, "node reached from the root");
      bn = &g_array_index (b->nodes, BruteNode, brute_of[n]);
      if (n > 0)
        {
          guint32 key = tv_call_tree_get_key (tree, n);
          guint32 frame = tv_call_tree_get_frame (tree, n);

          CHECK (key < n_keys, "key in range");
          CHECK_EQ (mkeys[frame], key, "node frame has the node key");
          CHECK_EQ (tv_call_tree_get_function (tree, n), fkeys[frame], "node function");
          CHECK_EQ (tv_call_tree_get_self (tree, n), bn->self, "self");
          CHECK_EQ (tv_call_tree_get_total (tree, n), bn->total, "total");
          CHECK (bn->total > 0, "no empty nodes");
        }
      if (tv_call_tree_has_thread_counts (tree))
        {
          CHECK_EQ (tv_call_tree_get_n_threads_of (tree, n), bn->n_threads, "threads");
          coverage[COVER_THREADS] += bn->n_threads > 1;
        }
      if (q->count_states)
        {
          const guint64 *states = tv_call_tree_get_status_counts (tree, n);

          for (guint i = 0; i < TV_N_STATUS_COUNTS; i++)
            {
              CHECK_EQ (states[i], bn->states[i], "state count");
              coverage[COVER_STATES] += states[i] > 0;
            }
        }

      {
        guint64 left_out = 0;
        guint32 n_left_out = 0;

        for (guint32 c = bn->first_child; c != TV_NODE_NONE;
             c = g_array_index (b->nodes, BruteNode, c).next_sibling)
          {
            const BruteNode *child = &g_array_index (b->nodes, BruteNode, c);
            /* On the way to the detail path's end, a child stays. */
            gboolean on_path = !detail && level[n] != LEVEL_OFF
                               && child->key == q->detail_path[level[n]];

            if (child->total >= threshold || on_path)
              {
                n_brute++;
                coverage[COVER_DETAIL] += child->total < threshold;
                coverage[COVER_TOP_DETAIL] += child->total < threshold && !q->inverted;
              }
            else
              {
                left_out += child->total;
                n_left_out++;
                rem_paths[n] += brute_subtree_size (b, c);
                for (guint i = 0; i < TV_N_STATUS_COUNTS; i++)
                  rem_states[(gsize) n * TV_N_STATUS_COUNTS + i] += child->states[i];
              }
          }
        CHECK_EQ (n_children, n_brute, "children");
        CHECK_EQ (tv_call_tree_get_remainder (tree, n), left_out, "remainder");
        CHECK_EQ (tv_call_tree_get_remainder_children (tree, n), n_left_out,
                  "children left out");
        cut[n] = n_left_out > 0 ? threshold : 0;
        any_remainder |= n_left_out > 0;
        coverage[COVER_REMAINDER] += left_out > 0;
        coverage[COVER_TOP_REMAINDER] += left_out > 0 && !q->inverted;
        coverage[COVER_FOCUS_REMAINDER] += left_out > 0 && !q->inverted
                                           && q->focus_function != TV_NODE_NONE;
        /* See tv_call_tree_map_left_leaves(). */
        coverage[COVER_LEFT_LEAVES] += left_out > 0 && !q->inverted && q->count_threads
                                       && !q->count_states && !q->thread_self
                                       && q->focus_function == TV_NODE_NONE
                                       && q->callers_of == TV_NODE_NONE;
      }

      for (guint i = 0; i < n_children; i++)
        {
          guint32 child = children[i];
          guint32 key = tv_call_tree_get_key (tree, child);
          guint32 c = brute_find (b, brute_of[n], key);

          CHECK (child > n && child < n_nodes, "child after parent");
          CHECK_EQ (tv_call_tree_get_parent (tree, child), n, "parent of a child");
          CHECK_EQ (tv_call_tree_get_depth (tree, child), tv_call_tree_get_depth (tree, n) + 1,
                    "depth");
          if (i > 0)
            CHECK (ranks[tv_call_tree_get_key (tree, children[i - 1])] < ranks[key],
                   "children in rank order");
          CHECK_EQ (tv_call_tree_find_child (tree, n, key), child, "find_child");

          CHECK (c != TV_NODE_NONE, "child key exists in brute force");
          brute_of[child] = c;
          tree_of[c] = child;
          level[child] = detail ? n_path
                         : level[n] != LEVEL_OFF && key == q->detail_path[level[n]] ? level[n] + 1
                         : LEVEL_OFF;
          reached++;
        }
    }
  CHECK_EQ (reached, n_nodes, "every node is some node's child");
  /* The largest threshold that left something out, below each node. */
  for (guint32 n = n_nodes; n-- > 1;)
    cut[tv_call_tree_get_parent (tree, n)] = MAX (cut[tv_call_tree_get_parent (tree, n)], cut[n]);
  for (guint32 n = 0; n < n_nodes; n++)
    CHECK_EQ (tv_call_tree_get_cut_below (tree, n), cut[n], "cut below");

  /* What each remainder holds, kept with each thread's self samples: as
   * many call paths as the brute force has nodes there when those are
   * the exact tree's (frames, nothing merged, hidden or focused: a
   * focus merges the outermost calls of its function), at least as many
   * otherwise; and their states. */
  {
    gboolean same_nodes = q->merge == TV_MERGE_FRAME && q->n_hidden_functions == 0
                          && !q->collapse_recursion && q->focus_function == TV_NODE_NONE
                          && tv_profile_data_get_internal_functions (data) == NULL
                          && n_keys == tv_profile_data_get_n_frames (data);
    gboolean with_states = top_self && any_remainder && q->count_states;

    for (guint32 n = 0; n < n_nodes; n++)
      {
        guint64 paths = tv_call_tree_get_remainder_paths (tree, n);
        const guint64 *states = tv_call_tree_get_remainder_status_counts (tree, n);

        if (!top_self)
          CHECK_EQ (paths, 0, "no remainder paths unless asked for");
        else if (same_nodes)
          CHECK_EQ (paths, rem_paths[n], "remainder paths");
        else
          CHECK (paths >= rem_paths[n] && (paths == 0) == (rem_paths[n] == 0),
                 "remainder paths, at least the view's nodes");
        coverage[COVER_REMAINDER_PATHS] += same_nodes && paths > 0;
        CHECK_EQ (states != NULL, with_states, "remainder states kept");
        for (guint i = 0; states != NULL && i < TV_N_STATUS_COUNTS; i++)
          CHECK_EQ (states[i], rem_states[(gsize) n * TV_N_STATUS_COUNTS + i],
                    "remainder state count");
      }
  }

  /* Each thread's self samples: exactly its paths' ends, node by node,
   * those left out on the remainder of the node they were left out of. */
  {
    guint n_threads = tv_profile_data_get_n_threads (data);
    guint n_pairs = 0;
    g_autoptr(GHashTable) own = g_hash_table_new_full (g_int64_hash, g_int64_equal,
                                                       g_free, g_free);
    g_autoptr(GHashTable) rem = g_hash_table_new_full (g_int64_hash, g_int64_equal,
                                                       g_free, g_free);
    GHashTableIter iter;
    gpointer key, value;

    g_hash_table_iter_init (&iter, b->thread_self);
    while (g_hash_table_iter_next (&iter, &key, &value))
      {
        guint32 at = (guint32) (*(gint64 *) key >> 32);
        guint32 thread = (guint32) *(gint64 *) key;

        if (tree_of[at] != TV_NODE_NONE)
          {
            pair_add (own, (gint64) tree_of[at] << 32 | thread, *(guint64 *) value);
            continue;
          }
        while (tree_of[at] == TV_NODE_NONE)
          at = g_array_index (b->nodes, BruteNode, at).parent;
        pair_add (rem, (gint64) tree_of[at] << 32 | thread, *(guint64 *) value);
      }
    CHECK_EQ (tv_call_tree_has_thread_self (tree), top_self, "thread self kept");
    for (guint t = 0; t < n_threads; t++)
      {
        const guint64 *counts;
        guint n;
        const guint32 *nodes = tv_call_tree_get_thread_self (tree, t, &counts, &n);

        CHECK (top_self || n == 0, "no thread self unless asked for");
        n_pairs += check_thread_pairs (nodes, counts, n, n_nodes, t, own);
        for (guint i = 0; i < n; i++)
          coverage[COVER_THREAD_SELF] += t > 0 && counts[i] > 0;
        nodes = tv_call_tree_get_thread_remainders (tree, t, &counts, &n);
        CHECK (top_self || n == 0, "no thread remainders unless asked for");
        n_pairs += check_thread_pairs (nodes, counts, n, n_nodes, t, rem);
        coverage[COVER_THREAD_REMAINDER] += n > 0;
      }
    if (top_self)
      CHECK_EQ (n_pairs, g_hash_table_size (own) + g_hash_table_size (rem),
                "every thread self pair");
  }
  CHECK_EQ (tv_call_tree_find_child (tree, 0, n_keys), TV_NODE_NONE, "find_child of no key");

  /* The function table: rows with a total, by total, self, function. */
  {
    guint n_rows, n_expected = 0, row = 0;
    const TvFunctionRow *rows = tv_call_tree_get_functions (tree, &n_rows);

    for (guint32 f = 0; f < b->n_functions; f++)
      if (b->ftotal[f] > 0)
        n_expected++;
    CHECK_EQ (n_rows, n_expected, "function rows");
    for (row = 0; row < n_rows; row++)
      {
        const TvFunctionRow *r = &rows[row];

        CHECK (r->function < b->n_functions, "row function in range");
        CHECK_EQ (r->self, b->fself[r->function], "function self");
        CHECK_EQ (r->total, b->ftotal[r->function], "function total");
        if (row > 0)
          {
            const TvFunctionRow *p = &rows[row - 1];

            CHECK (p->total > r->total
                   || (p->total == r->total
                       && (p->self > r->self
                           || (p->self == r->self && p->function < r->function))),
                   "function rows sorted by total, self, function");
          }
      }
  }
}

/* ------------------------------------------------------------------------ */
/* Queries                                                                   */
/* ------------------------------------------------------------------------ */

typedef struct
{
  TvQuery  query;
  guint32  threads[8];
  guint32  hidden[4];
  guint32  detail[6];
  TvTimeRange ranges[12];
} QueryStore;

static char *
describe_query (const TvQuery *q)
{
  GString *s = g_string_new (NULL);

  g_string_append_printf (s, "merge=%d", q->merge);
  if (q->threads != NULL)
    {
      g_string_append (s, " threads=[");
      for (guint i = 0; i < q->n_threads; i++)
        g_string_append_printf (s, "%s%u", i ? "," : "", q->threads[i]);
      g_string_append (s, "]");
    }
  if (q->interpreter >= 0)
    g_string_append_printf (s, " interpreter=%" G_GINT64_FORMAT, q->interpreter);
  if (q->status_mask != 0)
    g_string_append_printf (s, " status&0x%02x==0x%02x", q->status_mask, q->status_value);
  if (q->has_range)
    g_string_append_printf (s, " range=[%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT ")",
                            q->range_start, q->range_end);
  if (q->ranges != NULL)
    {
      g_string_append (s, " ranges=");
      for (guint i = 0; i < q->n_ranges; i++)
        g_string_append_printf (s, "[%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT ")",
                                q->ranges[i].start, q->ranges[i].end);
      if (q->n_ranges == 0)
        g_string_append (s, "none");
    }
  if (q->inverted)
    g_string_append (s, " inverted");
  if (q->min_total > 0)
    g_string_append_printf (s, " min_total=%" G_GUINT64_FORMAT, q->min_total);
  if (q->min_total_divisor > 0)
    g_string_append_printf (s, " min_total_divisor=%" G_GUINT64_FORMAT, q->min_total_divisor);
  if (q->detail_path != NULL)
    {
      g_string_append (s, " detail=[");
      for (guint i = 0; i < q->n_detail_path; i++)
        g_string_append_printf (s, "%s%u", i ? "," : "", q->detail_path[i]);
      g_string_append_printf (s, "] detail_min_total=%" G_GUINT64_FORMAT, q->detail_min_total);
    }
  if (q->count_states)
    g_string_append (s, " states");
  if (q->collapse_recursion)
    g_string_append (s, " collapse");
  if (q->focus_function != TV_NODE_NONE)
    g_string_append_printf (s, " focus=%u", q->focus_function);
  if (q->callers_of != TV_NODE_NONE)
    g_string_append_printf (s, " callers_of=%u", q->callers_of);
  if (q->n_hidden_functions > 0)
    {
      g_string_append (s, " hidden=[");
      for (guint i = 0; i < q->n_hidden_functions; i++)
        g_string_append_printf (s, "%s%u", i ? "," : "", q->hidden_functions[i]);
      g_string_append (s, "]");
    }
  return g_string_free (s, FALSE);
}

/* A function that some sample uses, or any function. */
static guint32
random_function (GRand         *rand,
                 TvProfileData *data,
                 const Decoded *d)
{
  const guint32 *fkeys = tv_profile_data_get_frame_keys (data, TV_MERGE_FUNCTION);

  for (guint tries = 0; tries < 8 && d->samples->len > 0; tries++)
    {
      const Sample *s = &g_array_index (d->samples, Sample,
                                        g_rand_int_range (rand, 0, d->samples->len));

      if (s->depth > 0)
        return fkeys[sample_frames (d, s)[g_rand_int_range (rand, 0, s->depth)]];
    }
  return g_rand_int_range (rand, 0, MAX (tv_profile_data_get_n_keys (data, TV_MERGE_FUNCTION),
                                         1));
}

static const guint8 status_masks[] = {
  0,
  TACH_STATUS_ON_CPU,
  TACH_STATUS_HAS_GIL,
  TACH_STATUS_GIL_REQUESTED,
  TACH_STATUS_HAS_EXCEPTION,
  TACH_STATUS_MAIN_THREAD,
  TACH_STATUS_HAS_GIL | TACH_STATUS_ON_CPU,
  TACH_STATUS_ON_CPU | TACH_STATUS_HAS_EXCEPTION | TACH_STATUS_GIL_REQUESTED,
  0xff,
};

/* A timestamp of some sample, or a random one; the ends of a range land
 * on samples often, so that both bounds are tested exactly. */
static guint64
random_instant (GRand         *rand,
                const Decoded *d,
                guint64        first,
                guint64        span)
{
  if (d->samples->len > 0 && g_rand_boolean (rand))
    return g_array_index (d->samples, Sample,
                          g_rand_int_range (rand, 0, d->samples->len)).ts
           + g_rand_int_range (rand, -1, 2);
  return first + g_rand_int_range (rand, 0, (gint32) MIN (span, G_MAXINT32));
}

static void
random_range (GRand         *rand,
              TvProfileData *data,
              const Decoded *d,
              TvQuery       *q)
{
  guint64 first = 0, last = 0, span;

  tv_profile_data_get_time_span (data, &first, &last);
  if (first > last)
    first = last = 0;
  span = last - first + 1;
  q->has_range = TRUE;
  switch (g_rand_int_range (rand, 0, 7))
    {
    case 0: /* The whole profile. */
      q->range_start = first;
      q->range_end = last + 1;
      break;
    case 1: /* Empty. */
      q->range_start = q->range_end = random_instant (rand, d, first, span);
      break;
    case 2: /* Backwards, which selects nothing. */
      q->range_end = random_instant (rand, d, first, span);
      q->range_start = q->range_end + 1 + g_rand_int_range (rand, 0, 1000);
      break;
    case 3: /* Past either end. */
      q->range_start = first > 10 ? first - 10 : 0;
      q->range_end = g_rand_boolean (rand) ? G_MAXUINT64 : first;
      break;
    case 4: /* Exactly the last instant. */
      q->range_start = last;
      q->range_end = last + 1;
      break;
    default:
      {
        guint64 a = random_instant (rand, d, first, span);
        guint64 b = random_instant (rand, d, first, span);

        q->range_start = MIN (a, b);
        q->range_end = MAX (a, b) + g_rand_int_range (rand, 0, 2);
      }
    }
}

/* A sorted, disjoint list of up to 12 ranges (none, now and then): ends
 * on samples often, ranges that touch, empty ones, one past the end. */
static void
random_ranges (GRand         *rand,
               TvProfileData *data,
               const Decoded *d,
               QueryStore    *store)
{
  TvQuery *q = &store->query;
  guint64 first = 0, last = 0, span;
  guint n = g_rand_int_range (rand, 0, G_N_ELEMENTS (store->ranges) + 1);
  guint64 instants[2 * G_N_ELEMENTS (store->ranges)];

  tv_profile_data_get_time_span (data, &first, &last);
  if (first > last)
    first = last = 0;
  span = last - first + 1;
  for (guint i = 0; i < 2 * n; i++)
    instants[i] = random_instant (rand, d, first, span);
  /* Sorted instants, paired, make sorted ranges that may touch or be
   * empty, and never overlap. */
  qsort (instants, 2 * n, sizeof instants[0], compare_u64);
  for (guint i = 0; i < n; i++)
    store->ranges[i] = (TvTimeRange) { instants[2 * i], instants[2 * i + 1] };
  if (n > 0 && g_rand_int_range (rand, 0, 4) == 0)
    store->ranges[n - 1].end = G_MAXUINT64;
  g_assert_true (tv_time_ranges_are_sorted (store->ranges, n));
  q->ranges = store->ranges;
  q->n_ranges = n;
}

static void
random_query (GRand         *rand,
              TvProfileData *data,
              const Decoded *d,
              QueryStore    *store)
{
  TvQuery *q = &store->query;
  guint n_threads = tv_profile_data_get_n_threads (data);

  tv_query_init (q, g_rand_int_range (rand, 0, TV_N_MERGE_KEYS));

  if (g_rand_int_range (rand, 0, 3) == 0)
    {
      q->threads = store->threads;
      q->n_threads = g_rand_int_range (rand, 0, G_N_ELEMENTS (store->threads) + 1);
      for (guint i = 0; i < q->n_threads; i++)
        store->threads[i] = g_rand_int_range (rand, 0, MAX (n_threads, 1));
    }
  if (g_rand_int_range (rand, 0, 5) == 0)
    q->interpreter = g_rand_int_range (rand, 0, 3);
  if (g_rand_int_range (rand, 0, 3) == 0)
    {
      q->status_mask = status_masks[g_rand_int_range (rand, 0, G_N_ELEMENTS (status_masks))];
      q->status_value = g_rand_boolean (rand) ? q->status_mask
                        : q->status_mask & g_rand_int_range (rand, 0, 256);
    }
  if (g_rand_int_range (rand, 0, 3) == 0)
    random_range (rand, data, d, q);
  if (g_rand_int_range (rand, 0, 3) == 0)
    random_ranges (rand, data, d, store);

  q->inverted = g_rand_int_range (rand, 0, 3) == 0;
  q->collapse_recursion = g_rand_int_range (rand, 0, 3) == 0;
  if (g_rand_int_range (rand, 0, 4) == 0)
    q->focus_function = random_function (rand, data, d);
  if (g_rand_int_range (rand, 0, 4) == 0)
    q->callers_of = random_function (rand, data, d);
  if (g_rand_int_range (rand, 0, 3) == 0)
    {
      q->hidden_functions = store->hidden;
      q->n_hidden_functions = g_rand_int_range (rand, 1, G_N_ELEMENTS (store->hidden) + 1);
      for (guint i = 0; i < q->n_hidden_functions; i++)
        store->hidden[i] = random_function (rand, data, d);
      /* Now and then, hide what is in focus. */
      if (q->focus_function != TV_NODE_NONE && g_rand_int_range (rand, 0, 4) == 0)
        store->hidden[0] = q->focus_function;
    }
  q->count_states = g_rand_boolean (rand);
  q->count_threads = g_rand_boolean (rand);
  q->thread_self = g_rand_boolean (rand);
  if (g_rand_boolean (rand))
    q->min_total = g_rand_int_range (rand, 1, 9);
  if (g_rand_int_range (rand, 0, 4) == 0)
    q->min_total_divisor = g_rand_int_range (rand, 2, 60);
  /* A detail path: a sample's stack from its leaf (from its root for a
   * top-down tree), as far as a random depth goes (it may end in no
   * node, or run past one). */
  if (d->samples->len > 0 && g_rand_boolean (rand))
    {
      const Sample *s = &g_array_index (d->samples, Sample,
                                        g_rand_int_range (rand, 0, d->samples->len));
      const guint32 *frames = sample_frames (d, s);
      const guint32 *mkeys = tv_profile_data_get_frame_keys (data, q->merge);

      q->detail_path = store->detail;
      q->n_detail_path = g_rand_int_range (rand, 0, MIN (s->depth, G_N_ELEMENTS (store->detail)) + 1);
      for (guint i = 0; i < q->n_detail_path; i++)
        store->detail[i] = mkeys[frames[q->inverted ? s->depth - 1 - i : i]];
      q->detail_min_total = g_rand_int_range (rand, 0, 5);
    }
}

/* The node map of a tree made like Q's (not inverted, no callers): sample
 * by sample, the node its exact leaf maps to is where the brute force puts
 * its path, TV_ROOT_NODE for an empty one, TV_NODE_NONE when it drops out;
 * and tv_query_selects_sample() keeps the samples the query keeps. */
static void
check_node_map (TvProfileData *data,
                const Decoded *d,
                const guint   *sample_thread,
                const TvQuery *q)
{
  guint32 keys[TACH_MAX_STACK_DEPTH], fns[TACH_MAX_STACK_DEPTH];
  g_autofree guint64 *seen = g_new0 (guint64, MAX (tv_profile_data_get_n_threads (data), 1));
  g_autoptr(TvCallTree) tree = NULL;
  const guint32 *map;
  TvQuery mq = *q;

  mq.keep_node_map = TRUE;
  tree = tv_call_tree_new (data, &mq, NULL);
  map = tv_call_tree_get_node_map (tree);
  CHECK (map != NULL, "the node map is kept");

  for (guint s = 0; s < d->samples->len; s++)
    {
      const Sample *sample = &g_array_index (d->samples, Sample, s);
      const TvThread *t = tv_profile_data_get_thread (data, sample_thread[s]);
      guint64 i = seen[sample_thread[s]]++;
      gboolean selected = sample_selected (q, t, sample);
      guint len = 0;
      guint32 node;

      CHECK_EQ (tv_query_selects_thread (q, t) && tv_query_selects_sample (q, sample->status,
                                                                           sample->ts),
                selected, "selects_sample");
      if (!selected)
        continue;
      node = map[leaf_of_sample (t, i)];
      if (!transform_path (data, q, sample_frames (d, sample), sample->depth, keys, fns, &len))
        {
          CHECK_EQ (node, TV_NODE_NONE, "a sample outside the focus maps nowhere");
          continue;
        }
      CHECK (node != TV_NODE_NONE, "a selected sample maps to a node");
      CHECK_EQ (tv_call_tree_get_depth (tree, node), len, "mapped node depth");
      for (guint k = len; k > 0; k--, node = tv_call_tree_get_parent (tree, node))
        CHECK_EQ (tv_call_tree_get_key (tree, node), keys[k - 1], "mapped node key");
      CHECK_EQ (node, TV_ROOT_NODE, "mapped path ends at the root");
    }
}

static int
compare_rows_by_function (const void *pa,
                          const void *pb)
{
  const TvFunctionRow *a = pa, *b = pb;

  return (a->function > b->function) - (a->function < b->function);
}

/* The first level of TREE (the root's only child's children and self) as
 * rows sorted by function, for FUNCTION's focused or callers tree. */
static TvFunctionRow *
first_level (TvCallTree *tree,
             guint32     function,
             guint      *n_rows)
{
  guint32 node = tv_call_tree_find_child (tree, TV_ROOT_NODE, function);
  const guint32 *children = NULL;
  guint n_children = 0, n = 0;
  TvFunctionRow *rows;

  if (node != TV_NODE_NONE)
    children = tv_call_tree_get_children (tree, node, &n_children);
  rows = g_new (TvFunctionRow, n_children + 1);
  for (guint i = 0; i < n_children; i++)
    if (tv_call_tree_get_total (tree, children[i]) > 0)
      rows[n++] = (TvFunctionRow) { tv_call_tree_get_function (tree, children[i]), 0,
                                    tv_call_tree_get_total (tree, children[i]) };
  if (node != TV_NODE_NONE && tv_call_tree_get_self (tree, node) > 0)
    rows[n++] = (TvFunctionRow) { TV_NODE_NONE, 0, tv_call_tree_get_self (tree, node) };
  qsort (rows, n, sizeof *rows, compare_rows_by_function);
  *n_rows = n;
  return rows;
}

/* tv_call_tree_get_neighbours() of TREE (made by Q, neither inverted nor
 * focused) against the first level of the focused and the callers trees
 * it stands for, for up to eight of its functions. */
static void
check_neighbours (TvProfileData *data,
                  TvCallTree    *tree,
                  const TvQuery *q)
{
  const TvFunctionRow *functions;
  guint n_functions;

  functions = tv_call_tree_get_functions (tree, &n_functions);
  for (guint i = 0; i < MIN (n_functions, 8); i++)
    {
      guint32 f = functions[i * n_functions / MIN (n_functions, 8)].function;
      g_autofree TvFunctionRow *callers = NULL;
      g_autofree TvFunctionRow *callees = NULL;
      g_autofree TvFunctionRow *want_callers = NULL;
      g_autofree TvFunctionRow *want_callees = NULL;
      g_autoptr(TvCallTree) focused = NULL;
      g_autoptr(TvCallTree) up = NULL;
      guint n_callers, n_callees, n_want_callers, n_want_callees;
      TvQuery rq = *q;

      rq.merge = TV_MERGE_FUNCTION;
      rq.count_states = FALSE;
      rq.count_threads = FALSE;
      /* Whole trees: their first level is what is wanted. */
      rq.min_total = rq.min_total_divisor = 0;
      rq.detail_path = NULL;
      rq.detail_min_total = 0;
      rq.functions_of = NULL;
      rq.focus_function = f;
      focused = tv_call_tree_new (data, &rq, NULL);
      rq.focus_function = TV_NODE_NONE;
      rq.callers_of = f;
      up = tv_call_tree_new (data, &rq, NULL);
      want_callees = first_level (focused, f, &n_want_callees);
      want_callers = first_level (up, f, &n_want_callers);

      CHECK (tv_call_tree_get_neighbours (tree, f, NULL, &callers, &n_callers,
                                          &callees, &n_callees), "neighbours found");
      qsort (callers, n_callers, sizeof *callers, compare_rows_by_function);
      qsort (callees, n_callees, sizeof *callees, compare_rows_by_function);
      CHECK_EQ (n_callers, n_want_callers, "callers");
      CHECK_EQ (n_callees, n_want_callees, "callees");
      for (guint k = 0; k < MIN (n_callers, n_want_callers); k++)
        {
          CHECK_EQ (callers[k].function, want_callers[k].function, "caller");
          CHECK_EQ (callers[k].total, want_callers[k].total, "caller's samples");
        }
      for (guint k = 0; k < MIN (n_callees, n_want_callees); k++)
        {
          CHECK_EQ (callees[k].function, want_callees[k].function, "callee");
          CHECK_EQ (callees[k].total, want_callees[k].total, "callee's samples");
        }
    }
}

static void
check_query (TvProfileData *data,
             const Decoded *d,
             const guint   *sample_thread,
             const char    *where,
             const TvQuery *q)
{
  g_autofree char *desc = describe_query (q);
  g_autoptr(TvCallTree) tree = NULL;
  guint taken, taken_after, signatures, merged, outer;
  Brute b;

  set_context ("%s: %s", where, desc);
  tv_call_tree_get_kept_stats (&taken, NULL, NULL);
  signatures = tv_call_tree_get_signatures_reused ();
  outer = tv_call_tree_get_outer_tables ();
  merged = tv_call_tree_get_merged_used ();
  tree = tv_call_tree_new (data, q, NULL);
  g_assert_nonnull (tree);
  merged = tv_call_tree_get_merged_used () - merged;
  coverage[COVER_MERGED] += merged;
  /* Read off the merged tree when there is one and the tree is by
   * function, but for a node map or each remainder's call paths. */
  CHECK_EQ (merged, tv_profile_data_get_merged (data) != NULL && q->merge == TV_MERGE_FUNCTION
                    && !q->keep_node_map && !q->thread_self, "merged tree read");
  tv_call_tree_get_kept_stats (&taken_after, NULL, NULL);
  coverage[COVER_KEPT_WEIGHTS] += taken_after - taken;
  coverage[COVER_KEPT_SIGNATURES] += tv_call_tree_get_signatures_reused () - signatures;
  coverage[COVER_OUTER_TABLES] += tv_call_tree_get_outer_tables () - outer;
  brute_tree (data, d, sample_thread, q, &b);
  coverage[COVER_EMPTY_TREE] += g_array_index (b.nodes, BruteNode, 0).total == 0;
  compare_trees (data, tree, &b, q);
  /* Inverted again, with the function table of the tree the other way
   * up: turned over from the exact tree where it can be. */
  if (q->inverted && q->callers_of == TV_NODE_NONE)
    {
      TvQuery top_query = *q;
      TvQuery again = *q;
      g_autoptr(TvCallTree) top = NULL;
      g_autoptr(TvCallTree) turned = NULL;
      guint reused;

      top_query.inverted = FALSE;
      top_query.min_total = 0;
      top_query.detail_path = NULL;
      top = tv_call_tree_new (data, &top_query, NULL);
      reused = tv_call_tree_get_runs_reused ();
      again.functions_of = top;
      turned = tv_call_tree_new (data, &again, NULL);
      coverage[COVER_KEPT_RUNS] += tv_call_tree_get_runs_reused () - reused;
      set_context ("%s: %s, with the function table of the top-down tree", where, desc);
      compare_trees (data, turned, &b, q);
      coverage[COVER_FROM_EXACT] += q->focus_function == TV_NODE_NONE && !q->collapse_recursion;
    }
  /* Again, with the function table, callers and callees of a tree that
   * left nodes out, merged by function (a function table is the same
   * whatever the merge key). */
  if (!q->inverted && prunes (q)
      && (q->min_total > 0 || q->detail_min_total > 0 || q->min_total_divisor > 0))
    {
      TvQuery again = *q;
      TvQuery by_function = *q;
      g_autoptr(TvCallTree) other = NULL;
      g_autoptr(TvCallTree) copied = NULL;

      by_function.merge = TV_MERGE_FUNCTION;
      by_function.detail_path = NULL;
      other = by_function.merge == q->merge ? tv_call_tree_ref (tree)
                                            : tv_call_tree_new (data, &by_function, NULL);
      again.functions_of = other;
      tv_call_tree_get_kept_stats (&taken, NULL, NULL);
      copied = tv_call_tree_new (data, &again, NULL);
      tv_call_tree_get_kept_stats (&taken_after, NULL, NULL);
      coverage[COVER_KEPT_WEIGHTS] += taken_after - taken;
      set_context ("%s: %s, with the function table of the same tree", where, desc);
      compare_trees (data, copied, &b, q);
      if (q->focus_function == TV_NODE_NONE)
        check_neighbours (data, copied, q);
      coverage[COVER_TOP_TABLE_COPIED]++;
      set_context ("%s: %s", where, desc);
    }
  brute_clear (&b);
  CHECK (tv_call_tree_get_node_map (tree) == NULL, "no node map unless asked for");
  if (!q->inverted && q->callers_of == TV_NODE_NONE)
    check_node_map (data, d, sample_thread, q);
  if (!q->inverted && q->callers_of == TV_NODE_NONE && q->focus_function == TV_NODE_NONE)
    check_neighbours (data, tree, q);
  else if (q->inverted && q->callers_of == TV_NODE_NONE)
    {
      TvFunctionRow *rows = NULL;
      guint n = 0;

      CHECK (!tv_call_tree_get_neighbours (tree, 0, NULL, &rows, &n, &rows, &n),
             "no neighbours in an inverted tree");
    }
}

/* DATA's tree merged by function: its nodes are the exact tree's paths of
 * functions, each once (numbered from the exact nodes in order, a
 * parent's path before its children's), each with its function's first
 * frame; its runs are the exact tree's, each leaf the path of its exact
 * leaf; and it is a tree as the exact one is. */
static void
check_merged_tree (TvProfileData *data)
{
  TvProfileData *merged = tv_profile_data_get_merged (data);
  const TvExactTree *exact = tv_profile_data_get_tree (data);
  const TvExactTree *tree;
  const guint32 *fkeys = tv_profile_data_get_frame_keys (data, TV_MERGE_FUNCTION);
  g_autoptr(GHashTable) paths = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  g_autofree guint32 *path_of = g_new (guint32, exact->n_nodes);
  /* Each path's node of the merged tree. */
  g_autofree guint32 *node_of = NULL;
  guint32 n_paths = 1;

  g_assert_nonnull (merged);
  tree = tv_profile_data_get_tree (merged);
  CHECK (tv_profile_data_get_merged (data) == merged, "made once");
  CHECK (!tv_profile_data_add_merged (merged, 1.0, NULL), "no merged tree of a merged tree");
  path_of[0] = 0;
  for (guint32 n = 1; n < exact->n_nodes; n++)
    {
      gint64 key = (gint64) path_of[tv_exact_tree_parent (exact, n)] << 32
                   | fkeys[tv_exact_tree_frame (exact, n)];
      gpointer at;

      if (g_hash_table_lookup_extended (paths, &key, NULL, &at))
        path_of[n] = GPOINTER_TO_UINT (at);
      else
        {
          path_of[n] = n_paths++;
          g_hash_table_insert (paths, g_memdup2 (&key, sizeof key), GUINT_TO_POINTER (path_of[n]));
        }
    }
  CHECK_EQ (tree->n_nodes, n_paths, "one node a path of functions");
  coverage[COVER_MERGED_SMALLER] += tree->n_nodes < exact->n_nodes;
  check_exact_tree (merged);

  /* The merged node of each path, from the merged tree's own parents and
   * functions; the paths are numbered parents first. */
  node_of = g_new (guint32, n_paths);
  for (guint32 p = 0; p < n_paths; p++)
    node_of[p] = TV_NODE_NONE;
  node_of[0] = 0;
  {
    g_autoptr(GHashTable) by_key = g_hash_table_new (g_int64_hash, g_int64_equal);
    g_autofree gint64 *keys = g_new (gint64, tree->n_nodes);

    for (guint32 n = 1; n < tree->n_nodes; n++)
      {
        guint32 frame = tv_exact_tree_frame (tree, n);

        CHECK_EQ (frame, tv_profile_data_get_key_frame (data, TV_MERGE_FUNCTION, fkeys[frame]),
                  "a merged node's frame is its function's first");
        keys[n] = (gint64) tv_exact_tree_parent (tree, n) << 32 | fkeys[frame];
        g_hash_table_insert (by_key, &keys[n], GUINT_TO_POINTER (n));
      }
    for (guint32 n = 1; n < exact->n_nodes; n++)
      {
        gint64 key;

        if (node_of[path_of[n]] != TV_NODE_NONE)
          continue;
        key = (gint64) node_of[path_of[tv_exact_tree_parent (exact, n)]] << 32
              | fkeys[tv_exact_tree_frame (exact, n)];
        node_of[path_of[n]] = GPOINTER_TO_UINT (g_hash_table_lookup (by_key, &key));
        CHECK (node_of[path_of[n]] != 0, "each path a merged node");
      }
  }
  for (guint i = 0; i < tv_profile_data_get_n_threads (data); i++)
    {
      const TvThread *t = tv_profile_data_get_thread (data, i);
      const TvThread *mt = tv_profile_data_get_thread (merged, i);

      CHECK_EQ (mt->n_runs, t->n_runs, "the same runs");
      CHECK_EQ (mt->n_samples, t->n_samples, "the same samples");
      for (guint64 r = 0; r < t->n_runs; r++)
        {
          CHECK_EQ (mt->run_start[r], t->run_start[r], "the same run");
          CHECK_EQ (mt->run_leaf[r], node_of[path_of[t->run_leaf[r]]], "a run's leaf's path");
        }
    }
}

/* Every merge key with each transform alone and a few together, then
 * random queries. */
static void
check_queries (TvProfileData *data,
               const Decoded *d,
               const guint   *sample_thread,
               GRand         *rand,
               const char    *where,
               guint          n_random)
{
  for (TvMergeKey merge = 0; merge < TV_N_MERGE_KEYS; merge++)
    for (guint transform = 0; transform < 11; transform++)
      {
        QueryStore store;
        TvQuery *q = &store.query;

        tv_query_init (q, merge);
        /* Every transform, with and without state counts. */
        q->count_states = (merge + transform) % 2 == 0;
        q->count_threads = (merge + transform) % 3 != 1;
        q->thread_self = (merge + transform) % 2 == 1 || transform == 3 || transform == 5;
        switch (transform)
          {
          case 0:
            break;
          case 1:
            q->inverted = TRUE;
            break;
          case 2:
            q->collapse_recursion = TRUE;
            break;
          case 3:
            q->focus_function = random_function (rand, data, d);
            break;
          case 4:
            q->callers_of = random_function (rand, data, d);
            break;
          case 5:
            q->hidden_functions = store.hidden;
            q->n_hidden_functions = 1;
            store.hidden[0] = random_function (rand, data, d);
            break;
          case 6:
            q->inverted = q->collapse_recursion = TRUE;
            break;
          case 7:
            q->status_mask = q->status_value = TACH_STATUS_ON_CPU;
            q->inverted = TRUE;
            break;
          case 8:
            q->focus_function = random_function (rand, data, d);
            q->collapse_recursion = TRUE;
            q->inverted = TRUE;
            break;
          case 9:
            random_range (rand, data, d, q);
            q->interpreter = 0;
            break;
          case 10:
            /* An HTML page's tree: a share of the samples left out,
             * with each thread's samples and the states of what is. */
            q->thread_self = q->count_states = TRUE;
            q->min_total_divisor = 30;
            break;
          }
        check_query (data, d, sample_thread, where, q);
      }

  for (guint i = 0; i < n_random; i++)
    {
      QueryStore store;

      random_query (rand, data, d, &store);
      check_query (data, d, sample_thread, where, &store.query);
    }
}

/* ------------------------------------------------------------------------ */
/* Random profiles                                                           */
/* ------------------------------------------------------------------------ */

static const char * const filenames[] = {
  "/srv/app/main.py",
  "/usr/lib/python3.15/json/decoder.py",
  "/srv/app/util.py",
  "<frozen importlib._bootstrap>",
  "~",
  "/usr/lib/python3.15/profiling/sampling/_sync_coordinator.py",
};

static const char * const funcnames[] = {
  "main", "run", "helper", "parse", "fib", "walk", "<module>", "__init__", "<GC>",
};

typedef struct
{
  guint    n_variants;
  guint32  variants[6];         /* frame indices */
} Function;

typedef struct
{
  guint64  tid;
  guint32  iid;
  guint64  ts;
  gboolean backwards;           /* timestamps sometimes go back */
  guint    depth;
  guint    fn[TACH_MAX_STACK_DEPTH];     /* root first */
  guint32  frame[TACH_MAX_STACK_DEPTH];
} GenThread;

static guint32
intern (TachWriter          *writer,
        const TachFrameInfo *info)
{
  TachError error;
  guint32 index;

  if (tach_writer_intern_frame (writer, info, &index, &error) != TACH_OK)
    g_error ("intern: %s", error.message);
  return index;
}

static void
push_frame (GRand     *rand,
            GenThread *t,
            Function  *functions,
            guint      n_functions)
{
  double p = g_rand_double (rand);
  guint fn;

  if (t->depth >= TACH_MAX_STACK_DEPTH)
    return;
  if (p < 0.15 && t->depth > 0)
    fn = t->fn[t->depth - 1];                    /* direct recursion */
  else if (p < 0.25 && t->depth > 1)
    fn = t->fn[t->depth - 2];                    /* A B A */
  else
    fn = g_rand_int_range (rand, 0, n_functions);
  t->fn[t->depth] = fn;
  t->frame[t->depth] = functions[fn].variants[g_rand_int_range (rand, 0,
                                                                functions[fn].n_variants)];
  t->depth++;
}

static void
generate_profile (GRand      *rand,
                  const char *path)
{
  TachWriterOptions options = { 0 };
  TachWriter *writer = NULL;
  TachError error;
  Function functions[14];
  guint n_functions = g_rand_int_range (rand, 3, G_N_ELEMENTS (functions) + 1);
  GenThread threads[6];
  guint n_threads = g_rand_int_range (rand, 1, G_N_ELEMENTS (threads) + 1);
  guint n_samples = g_rand_int_range (rand, 200, 3000);
  static const guint8 statuses[] = {
    0,
    TACH_STATUS_HAS_GIL | TACH_STATUS_ON_CPU,
    TACH_STATUS_HAS_GIL | TACH_STATUS_ON_CPU | TACH_STATUS_MAIN_THREAD,
    TACH_STATUS_GIL_REQUESTED,
    TACH_STATUS_ON_CPU,
    TACH_STATUS_HAS_EXCEPTION | TACH_STATUS_HAS_GIL,
    TACH_STATUS_UNKNOWN,
  };

  options.zstd = g_rand_int_range (rand, 0, 4) == 0;
  options.big_endian = g_rand_int_range (rand, 0, 4) == 0;
  options.start_time_us = g_rand_int_range (rand, 0, 1 << 30);
  options.sample_interval_us = g_rand_int_range (rand, 50, 10000);
  options.mode_raw = 1;
  if (tach_writer_new (path, &options, &writer, &error) != TACH_OK)
    g_error ("writer: %s", error.message);

  /* Functions may share a name (in another file) or a file and a name
   * (then they are one function to the model); each has frames that
   * differ in line, column, opcode or only in their end position. */
  for (guint f = 0; f < n_functions; f++)
    {
      TachFrameInfo info = {
        filenames[g_rand_int_range (rand, 0, G_N_ELEMENTS (filenames))],
        funcnames[g_rand_int_range (rand, 0, G_N_ELEMENTS (funcnames))],
        g_rand_int_range (rand, 1, 400), -1, -1, -1, TACH_OPCODE_NONE,
      };

      functions[f].n_variants = g_rand_int_range (rand, 1,
                                                  G_N_ELEMENTS (functions[f].variants) + 1);
      for (guint v = 0; v < functions[f].n_variants; v++)
        {
          switch (g_rand_int_range (rand, 0, 5))
            {
            case 0:
              info.lineno = g_rand_int_range (rand, 0, 3) == 0 ? -1
                            : g_rand_int_range (rand, 1, 400);
              break;
            case 1:
              info.column = g_rand_int_range (rand, -1, 80);
              break;
            case 2:
              info.opcode = g_rand_int_range (rand, 0, 300);
              break;
            case 3:
              info.end_lineno = info.lineno < 0 ? -1 : info.lineno + g_rand_int_range (rand, 0, 3);
              info.end_column = g_rand_int_range (rand, -1, 120);
              break;
            default:
              info.lineno = g_rand_int_range (rand, 1, 400);
              info.column = g_rand_int_range (rand, 0, 80);
              info.opcode = g_rand_int_range (rand, 0, 256);
            }
          functions[f].variants[v] = intern (writer, &info);
        }
    }

  /* Two interpreters share the first thread id. */
  memset (threads, 0, sizeof threads);
  for (guint i = 0; i < n_threads; i++)
    {
      threads[i].tid = i == 1 ? threads[0].tid
                       : i == 2 ? G_MAXUINT64 - 7
                       : 1000 + g_rand_int_range (rand, 0, 1 << 20) * (guint64) 4096;
      threads[i].iid = i == 1 ? 1 : g_rand_int_range (rand, 0, 4) == 0 ? 2 : 0;
      threads[i].ts = options.start_time_us + g_rand_int_range (rand, 0, 5000);
      threads[i].backwards = i == n_threads - 1 && g_rand_boolean (rand);
    }

  for (guint s = 0; s < n_samples; s++)
    {
      GenThread *t = &threads[g_rand_double (rand) < 0.4 ? 0
                              : (guint) g_rand_int_range (rand, 0, n_threads)];
      double p = g_rand_double (rand);
      guint32 stack[TACH_MAX_STACK_DEPTH];
      guint8 status;

      if (p < 0.45)
        ;                                        /* the same stack again */
      else if (p < 0.5)
        t->depth = 0;                            /* an empty stack */
      else if (p < 0.51)
        {
          /* A deep recursion. */
          guint n = g_rand_int_range (rand, 20, 200);
          guint fn = g_rand_int_range (rand, 0, n_functions);

          for (guint i = 0; i < n && t->depth < TACH_MAX_STACK_DEPTH; i++)
            {
              t->fn[t->depth] = fn;
              t->frame[t->depth++] = functions[fn].variants[0];
            }
        }
      else
        {
          guint pop = g_rand_int_range (rand, 0, MIN (t->depth, 4) + 1);
          guint push = g_rand_int_range (rand, t->depth == pop ? 1 : 0, 5);

          t->depth -= pop;
          for (guint i = 0; i < push; i++)
            push_frame (rand, t, functions, n_functions);
        }

      if (t->backwards && g_rand_int_range (rand, 0, 8) == 0)
        t->ts -= MIN (t->ts, (guint64) g_rand_int_range (rand, 0, 5000));
      else if (g_rand_int_range (rand, 0, 500) == 0)
        /* A pause of up to hours: the blocks of timestamps around it
         * need 4 or 8 bytes an offset (TvTimes). */
        t->ts += (guint64) g_rand_int_range (rand, 0, 1 << 20) << g_rand_int_range (rand, 0, 15);
      else
        t->ts += g_rand_int_range (rand, 0, 2000);
      status = g_rand_int_range (rand, 0, 10) == 0 ? g_rand_int_range (rand, 0, 256)
               : statuses[g_rand_int_range (rand, 0, G_N_ELEMENTS (statuses))];

      for (guint i = 0; i < t->depth; i++)
        stack[i] = t->frame[t->depth - 1 - i];
      if (tach_writer_add_sample (writer, t->tid, t->iid, t->ts, status, stack, t->depth,
                                  &error) != TACH_OK)
        g_error ("add_sample: %s", error.message);
    }

  if (tach_writer_finish (writer, &error) != TACH_OK)
    g_error ("finish: %s", error.message);
}

static void
count_profile_coverage (TvProfileData *data,
                        const Decoded *d)
{
  const guint32 *fkeys = tv_profile_data_get_frame_keys (data, TV_MERGE_FUNCTION);

  for (guint s = 0; s < d->samples->len; s++)
    {
      const Sample *sample = &g_array_index (d->samples, Sample, s);
      const guint32 *frames = sample_frames (d, sample);
      gboolean direct = FALSE, indirect = FALSE;

      for (guint i = 1; i < sample->depth; i++)
        {
          direct |= fkeys[frames[i]] == fkeys[frames[i - 1]];
          indirect |= i > 1 && fkeys[frames[i]] == fkeys[frames[i - 2]]
                      && fkeys[frames[i]] != fkeys[frames[i - 1]];
        }
      coverage[COVER_DIRECT_RECURSION] += direct;
      coverage[COVER_INDIRECT_RECURSION] += indirect;
      coverage[COVER_EMPTY_STACK] += sample->depth == 0;
    }
  for (guint i = 0; i < tv_profile_data_get_n_threads (data); i++)
    {
      const TvThread *t = tv_profile_data_get_thread (data, i);

      coverage[COVER_UNORDERED_THREAD] += !t->time_ordered;
      /* Statuses in 4 bits, and kept whole past 16 distinct ones. */
      coverage[COVER_STATUSES_PACKED] += t->n_samples > 1 && !t->statuses.wide;
      coverage[COVER_STATUSES_WIDE] += t->statuses.wide;
      for (guint j = 0; j < i; j++)
        coverage[COVER_SHARED_TID] += tv_profile_data_get_thread (data, j)->thread_id
                                      == t->thread_id;
    }
  coverage[COVER_KEYS_DIFFER] +=
    tv_profile_data_get_n_keys (data, TV_MERGE_FUNCTION)
    < tv_profile_data_get_n_keys (data, TV_MERGE_LINE)
    && tv_profile_data_get_n_keys (data, TV_MERGE_LINE)
       < tv_profile_data_get_n_keys (data, TV_MERGE_INSTRUCTION)
    && tv_profile_data_get_n_keys (data, TV_MERGE_INSTRUCTION)
       < tv_profile_data_get_n_keys (data, TV_MERGE_FRAME);
}

static GRand *
iteration_rand (guint iteration)
{
  guint32 seed[2] = { base_seed, iteration };

  return g_rand_new_with_seed_array (seed, 2);
}

static void
test_random (gconstpointer user_data)
{
  guint iteration = GPOINTER_TO_UINT (user_data);
  g_autoptr(GRand) rand = iteration_rand (iteration);
  FormatTestDir tmp;
  g_autofree char *where = NULL;
  g_autofree guint *sample_thread = NULL;
  g_autoptr(TvProfileData) data = NULL;
  Decoded d;

  format_test_dir_init (&tmp, "tv-model-XXXXXX");
  where = g_strdup_printf ("TACH_SEED=%" G_GUINT32_FORMAT " iteration %u", base_seed, iteration);
  generate_profile (rand, tmp.path);

  data = fixture_load (tmp.path);
  decode_file (tmp.path, &d);
  set_context ("%s", where);
  sample_thread = check_threads (data, &d);
  check_exact_tree (data);
  check_keys (data);
  count_profile_coverage (data, &d);
  /* Every other profile's function tables come from a second thread.  Of
   * every three, one's are read node by node, not by signature, and
   * one's signatures are numbered through a table that starts at four
   * slots and grows.  Two profiles in four (one of each kind of thread)
   * read them off their outermost calls, whatever their share. */
  tv_call_tree_set_thread_min_nodes (iteration % 2 ? 0 : G_MAXUINT32);
  tv_call_tree_set_outer_calls_share (iteration / 2 % 2 ? G_MAXDOUBLE : 0);
  /* Thread counts as bits of a word a node, but in one profile of four,
   * whose threads are stamped on their paths (with two or more). */
  tv_call_tree_set_thread_mask_limit (iteration % 4 == 3 ? 1 : 64);
  if (iteration % 3 == 1)
    tv_call_tree_set_signature_limits (0, 1u << 20, 4096);
  else if (iteration % 3 == 2)
    tv_call_tree_set_signature_limits (1u << 22, 0, 4);
  check_queries (data, &d, sample_thread, rand, where, N_RANDOM_QUERIES);
  /* Again, those by function read off the tree merged by function. */
  g_assert_true (tv_profile_data_add_merged (data, 1.0, NULL));
  set_context ("%s: the tree merged by function", where);
  check_merged_tree (data);
  check_queries (data, &d, sample_thread, rand, where, N_RANDOM_QUERIES / 2);
  tv_call_tree_set_thread_min_nodes (1u << 20);
  tv_call_tree_set_signature_limits (1u << 22, 1u << 20, 4096);
  tv_call_tree_set_outer_calls_share (0.25);
  tv_call_tree_set_thread_mask_limit (64);
  random_run++;

  decoded_clear (&d);
  format_test_dir_clear (&tmp);
}

/* Over a run, every case the brute force knows must have come up. */
static void
test_random_coverage (void)
{
  /* When only this test was selected, run a few iterations for it. */
  if (random_run == 0)
    for (guint i = 0; i < 10; i++)
      test_random (GUINT_TO_POINTER (i));

  for (guint c = 0; c < N_COVER; c++)
    g_test_message ("%s: %" G_GUINT64_FORMAT, cover_names[c], coverage[c]);
  /* Not required here: whether a profile's queries share their work
   * depends on what they hide.  test_invert_runs() makes sure of both. */
  g_test_message ("function tables two threads made together: %u",
                  tv_call_tree_get_shared_tables ());
  g_test_message ("inverted trees two threads climbed together: %u",
                  tv_call_tree_get_shared_climbs ());
  for (guint c = 0; c < N_COVER; c++)
    g_assert_cmpuint (coverage[c], >, 0);
}

/* ------------------------------------------------------------------------ */
/* A load of counts against the full load                                    */
/* ------------------------------------------------------------------------ */

/* Everything two trees say, node by node: the load of counts must give
 * the tree the full load gives for the same samples. */
static void
check_same_tree (TvCallTree *a,
                 TvCallTree *b,
                 guint       n_threads)
{
  guint32 n = tv_call_tree_get_n_nodes (a);
  const TvFunctionRow *fa, *fb;
  guint n_fa, n_fb;

  CHECK_EQ (tv_call_tree_get_n_nodes (b), n, "nodes");
  CHECK_EQ (tv_call_tree_get_n_samples (b), tv_call_tree_get_n_samples (a), "samples");
  CHECK_EQ (tv_call_tree_has_status_counts (b), tv_call_tree_has_status_counts (a),
            "state counts kept");
  CHECK_EQ (tv_call_tree_has_thread_counts (b), tv_call_tree_has_thread_counts (a),
            "thread counts kept");
  CHECK_EQ (tv_call_tree_has_thread_self (b), tv_call_tree_has_thread_self (a),
            "threads' self kept");
  for (guint32 node = 0; node < n; node++)
    {
      const guint32 *ca, *cb;
      guint n_ca, n_cb;

      CHECK_EQ (tv_call_tree_get_parent (b, node), tv_call_tree_get_parent (a, node), "parent");
      CHECK_EQ (tv_call_tree_get_key (b, node), tv_call_tree_get_key (a, node), "key");
      CHECK_EQ (tv_call_tree_get_depth (b, node), tv_call_tree_get_depth (a, node), "depth");
      CHECK_EQ (tv_call_tree_get_self (b, node), tv_call_tree_get_self (a, node), "self");
      CHECK_EQ (tv_call_tree_get_total (b, node), tv_call_tree_get_total (a, node), "total");
      if (tv_call_tree_has_status_counts (a))
        for (guint k = 0; k < TV_N_STATUS_COUNTS; k++)
          CHECK_EQ (tv_call_tree_get_status_counts (b, node)[k],
                    tv_call_tree_get_status_counts (a, node)[k], "state count");
      CHECK_EQ (tv_call_tree_get_n_threads_of (b, node), tv_call_tree_get_n_threads_of (a, node),
                "threads of a node");
      ca = tv_call_tree_get_children (a, node, &n_ca);
      cb = tv_call_tree_get_children (b, node, &n_cb);
      CHECK_EQ (n_cb, n_ca, "children");
      for (guint c = 0; c < n_ca; c++)
        CHECK_EQ (cb[c], ca[c], "child");
    }
  for (guint t = 0; t < n_threads; t++)
    {
      const guint64 *sa, *sb;
      guint n_sa, n_sb;
      const guint32 *na = tv_call_tree_get_thread_self (a, t, &sa, &n_sa);
      const guint32 *nb = tv_call_tree_get_thread_self (b, t, &sb, &n_sb);

      CHECK_EQ (n_sb, n_sa, "a thread's self nodes");
      for (guint i = 0; i < n_sa; i++)
        {
          CHECK_EQ (nb[i], na[i], "a thread's self node");
          CHECK_EQ (sb[i], sa[i], "a thread's self count");
        }
    }
  fa = tv_call_tree_get_functions (a, &n_fa);
  fb = tv_call_tree_get_functions (b, &n_fb);
  CHECK_EQ (n_fb, n_fa, "function rows");
  for (guint i = 0; i < n_fa; i++)
    {
      CHECK_EQ (fb[i].function, fa[i].function, "function row");
      CHECK_EQ (fb[i].self, fa[i].self, "function self");
      CHECK_EQ (fb[i].total, fa[i].total, "function total");
    }
}

/* The filters an export loads with: none, each view's state, any status
 * byte, a range, a list of ranges (as the heatmap and --range give them),
 * nothing at all, and states with times. */
static void
random_sample_filter (GRand          *rand,
                      TvProfileData  *full,
                      guint           kind,
                      TvSampleFilter *filter,
                      TvTimeRange    *ranges)
{
  guint64 first = 0, last = 0, span;

  memset (filter, 0, sizeof *filter);
  tv_profile_data_get_time_span (full, &first, &last);
  span = last >= first ? last - first + 1 : 1;
  if (kind >= 1 && kind <= 4)
    tv_state_filter_get_mask (kind, &filter->status_mask, &filter->status_value);
  else if (kind == 5 || kind == 9)
    {
      filter->status_mask = g_rand_int_range (rand, 1, 64);
      filter->status_value = g_rand_int_range (rand, 0, 64) & filter->status_mask;
    }
  if (kind == 6 || kind == 9)
    {
      filter->has_range = TRUE;
      filter->range_start = first + g_rand_int_range (rand, 0, 2) * g_rand_double (rand) * span;
      filter->range_end = filter->range_start + g_rand_double (rand) * span;
    }
  if (kind == 7 || kind == 10)
    {
      guint n = g_rand_int_range (rand, 1, 5);

      for (guint i = 0; i < n; i++)
        {
          ranges[i].start = first + g_rand_double (rand) * span;
          ranges[i].end = ranges[i].start + g_rand_double (rand) * span / 4;
        }
      filter->ranges = ranges;
      filter->n_ranges = tv_time_ranges_normalize (ranges, n);
      if (kind == 10)
        tv_state_filter_get_mask (g_rand_int_range (rand, 1, TV_N_STATE_FILTERS),
                                  &filter->status_mask, &filter->status_value);
    }
  if (kind == 8)
    {
      /* An empty list of ranges keeps nothing. */
      filter->ranges = ranges;
      filter->n_ranges = 0;
    }
}

#define N_FILTER_KINDS 11

/* FULL's samples that FILTER keeps, thread by thread, straight from them. */
static guint64
count_filtered (const TvThread       *t,
                const TvSampleFilter *filter)
{
  guint64 n = 0;

  for (guint64 s = 0; s < t->n_samples; s++)
    {
      guint64 ts = tv_times_get (&t->times, s);

      if ((tv_statuses_get (&t->statuses, s) & filter->status_mask) != filter->status_value)
        continue;
      if (filter->has_range && (ts < filter->range_start || ts >= filter->range_end))
        continue;
      if (filter->ranges != NULL && !tv_time_ranges_contain (filter->ranges, filter->n_ranges, ts))
        continue;
      n++;
    }
  return n;
}

/* tv_profile_data_load_counts () of PATH against tv_profile_data_load ():
 * for every filter an export loads with, the same threads, and each run
 * counting exactly the samples the filter keeps; then for queries of
 * every merge key, inverted or not, of some threads or all, with or
 * without transforms, counting states, threads and the threads' own
 * samples, the tree the full load gives for the filter.  N_QUERIES
 * random queries per filter. */
static void
check_counts_load (const char *path,
                   GRand      *rand,
                   const char *where,
                   guint       n_queries)
{
  g_autoptr(TvProfileData) full = fixture_load (path);
  guint n_threads = tv_profile_data_get_n_threads (full);
  guint32 n_functions = tv_profile_data_get_n_keys (full, TV_MERGE_FUNCTION);

  for (guint kind = 0; kind < N_FILTER_KINDS; kind++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(TvProfileData) counts = NULL;
      TvTimeRange ranges[8];
      TvSampleFilter filter;
      TachReader *reader = NULL;
      TachError tach_error;

      random_sample_filter (rand, full, kind, &filter, ranges);
      filter.count_states = kind != 3;
      g_assert_cmpint (tach_reader_open_path (path, &reader, &tach_error), ==, TACH_OK);
      counts = tv_profile_data_load_counts (reader, &filter, NULL, NULL, NULL, &error);
      g_assert_no_error (error);
      set_context ("%s, filter %u (mask %u value %u, range %d, %u ranges)", where, kind,
                   filter.status_mask, filter.status_value, filter.has_range, filter.n_ranges);

      CHECK (!tv_profile_data_has_samples (counts), "a load of counts has no samples");
      CHECK_EQ (tv_profile_data_has_states (counts), filter.count_states, "state counts");
      CHECK_EQ (tv_profile_data_get_n_threads (counts), n_threads, "threads");
      CHECK_EQ (tv_profile_data_get_n_samples (counts), tv_profile_data_get_n_samples (full),
                "samples");
      CHECK_EQ (tv_profile_data_get_tree (counts)->n_nodes,
                tv_profile_data_get_tree (full)->n_nodes, "exact nodes");
      for (guint i = 0; i < n_threads; i++)
        {
          const TvThread *a = tv_profile_data_get_thread (full, i);
          const TvThread *b = tv_profile_data_get_thread (counts, i);

          CHECK_EQ (b->thread_id, a->thread_id, "thread id");
          CHECK_EQ (b->interpreter_id, a->interpreter_id, "interpreter");
          CHECK_EQ (b->n_samples, a->n_samples, "a thread's samples");
          CHECK_EQ (b->n_samples > 0 ? b->first_timestamp : 0,
                    a->n_samples > 0 ? a->first_timestamp : 0, "first timestamp");
          CHECK_EQ (b->last_timestamp, a->last_timestamp, "last timestamp");
          for (guint k = 0; k < 6; k++)
            CHECK_EQ (b->status_counts[k], a->status_counts[k], "a thread's status bits");
          CHECK_EQ (b->n_run_samples, count_filtered (a, &filter), "the samples the runs count");
          CHECK (b->times.blocks == NULL && b->statuses.bytes == NULL, "no samples kept");
          CHECK (filter.count_states ? b->n_runs == 0 || b->run_states != NULL
                                     : b->run_states == NULL, "run states");
          CHECK_EQ (tv_profile_data_get_thread_order (counts)[i],
                    tv_profile_data_get_thread_order (full)[i], "thread order");
        }

      for (guint q = 0; q < n_queries; q++)
        {
          g_autoptr(TvCallTree) a = NULL;
          g_autoptr(TvCallTree) b = NULL;
          guint32 threads[6], hidden[2];
          TvQuery query;

          tv_query_init (&query, q % TV_N_MERGE_KEYS);
          query.inverted = (q / TV_N_MERGE_KEYS) % 2;
          if (g_rand_int_range (rand, 0, 3) == 0 && n_threads > 0)
            {
              query.n_threads = g_rand_int_range (rand, 1, MIN (n_threads, 6) + 1);
              for (guint i = 0; i < query.n_threads; i++)
                threads[i] = g_rand_int_range (rand, 0, n_threads);
              query.threads = threads;
            }
          if (g_rand_int_range (rand, 0, 3) == 0 && n_functions > 0)
            {
              switch (g_rand_int_range (rand, 0, 3))
                {
                case 0:
                  query.focus_function = g_rand_int_range (rand, 0, n_functions);
                  break;
                case 1:
                  hidden[0] = g_rand_int_range (rand, 0, n_functions);
                  hidden[1] = g_rand_int_range (rand, 0, n_functions);
                  query.hidden_functions = hidden;
                  query.n_hidden_functions = hidden[0] == hidden[1] ? 1 : 2;
                  if (hidden[0] > hidden[1])
                    {
                      hidden[0] = hidden[1];
                      query.n_hidden_functions = 1;
                    }
                  break;
                default:
                  query.collapse_recursion = TRUE;
                }
            }
          query.count_states = filter.count_states;
          query.count_threads = TRUE;
          query.thread_self = !query.inverted;
          b = tv_call_tree_new (counts, &query, NULL);
          query.status_mask = filter.status_mask;
          query.status_value = filter.status_value;
          query.has_range = filter.has_range;
          query.range_start = filter.range_start;
          query.range_end = filter.range_end;
          query.ranges = filter.ranges;
          query.n_ranges = filter.n_ranges;
          a = tv_call_tree_new (full, &query, NULL);
          set_context ("%s, filter %u, query %u (merge %d, inverted %d, %u threads)", where,
                       kind, q, query.merge, query.inverted, query.n_threads);
          check_same_tree (a, b, n_threads);
        }
    }
}

static void
test_counts_random (gconstpointer user_data)
{
  guint iteration = GPOINTER_TO_UINT (user_data);
  g_autoptr(GRand) rand = iteration_rand (1000 + iteration);
  FormatTestDir tmp;
  g_autofree char *where = NULL;

  format_test_dir_init (&tmp, "tv-model-XXXXXX");
  where = g_strdup_printf ("TACH_SEED=%" G_GUINT32_FORMAT " counts %u", base_seed, iteration);
  generate_profile (rand, tmp.path);
  check_counts_load (tmp.path, rand, where, 16);
  format_test_dir_clear (&tmp);
}

static void
test_counts_corpus (gconstpointer user_data)
{
  const char *name = user_data;
  g_autofree char *path = fixture_data_path ("valid", name);
  g_autoptr(GRand) rand = iteration_rand (2000);

  check_counts_load (path, rand, name, 8);
}

/* ------------------------------------------------------------------------ */
/* The corpus                                                                */
/* ------------------------------------------------------------------------ */

static void
append_frame_text (GString    *key,
                   TachReader *reader,
                   guint32     frame)
{
  const TachFrame *f = tach_reader_get_frame (reader, frame);
  gsize file_len, func_len;
  const char *file = tach_reader_get_string (reader, f->filename, &file_len);
  const char *func = tach_reader_get_string (reader, f->funcname, &func_len);
  guint32 n;
  gint32 line = f->lineno == TACH_LOCATION_NONE ? 0 : f->lineno;

  n = file_len;
  g_string_append_len (key, (const char *) &n, sizeof n);
  g_string_append_len (key, file, file_len);
  g_string_append_len (key, (const char *) &line, sizeof line);
  n = func_len;
  g_string_append_len (key, (const char *) &n, sizeof n);
  g_string_append_len (key, func, func_len);
}

/* The collapsed-stack key of a stack (root first): the thread id, then
 * (file, line, function) of every frame but the profiler's own; NULL when
 * nothing is left, as such samples are not counted. */
static GString *
collapsed_key (TachReader    *reader,
               guint64        thread_id,
               const guint32 *frames,
               guint          depth)
{
  GString *key = g_string_new (NULL);
  guint n = 0;

  g_string_append_len (key, (const char *) &thread_id, sizeof thread_id);
  for (guint i = 0; i < depth; i++)
    if (!frame_is_internal (reader, frames[i]))
      {
        append_frame_text (key, reader, frames[i]);
        n++;
      }
  if (n == 0)
    {
      g_string_free (key, TRUE);
      return NULL;
    }
  return key;
}

/* Adds N samples to the count of KEY, which it takes. */
static void
count_key (GHashTable *counts,
           GString    *key,
           guint64     n)
{
  g_autoptr(GBytes) bytes = NULL;
  guint64 *count;

  if (key == NULL)
    return;
  bytes = g_string_free_to_bytes (key);
  count = g_hash_table_lookup (counts, bytes);
  if (count == NULL)
    {
      count = g_new0 (guint64, 1);
      g_hash_table_insert (counts, g_bytes_ref (bytes), count);
    }
  *count += n;
}

static void
check_file (const char *path,
            const char *name)
{
  g_autoptr(TvProfileData) data = fixture_load (path);
  g_autoptr(GRand) rand = iteration_rand (g_str_hash (name));
  g_autofree guint *sample_thread = NULL;
  g_autoptr(GHashTable) expected = NULL;
  g_autoptr(GHashTable) got = NULL;
  TachReader *reader = tv_profile_data_get_reader (data);
  const TvExactTree *tree = tv_profile_data_get_tree (data);
  GHashTableIter iter;
  gpointer k, v;
  Decoded d;

  decode_file (path, &d);
  set_context ("%s", name);
  sample_thread = check_threads (data, &d);
  check_exact_tree (data);
  check_keys (data);

  /* Collapsed stacks from the samples... */
  expected = g_hash_table_new_full (g_bytes_hash, g_bytes_equal,
                                    (GDestroyNotify) g_bytes_unref, g_free);
  got = g_hash_table_new_full (g_bytes_hash, g_bytes_equal,
                               (GDestroyNotify) g_bytes_unref, g_free);
  for (guint s = 0; s < d.samples->len; s++)
    {
      const Sample *sample = &g_array_index (d.samples, Sample, s);

      count_key (expected, collapsed_key (reader, d.threads[sample->thread].thread_id,
                                          sample_frames (&d, sample), sample->depth), 1);
    }

  /* ... and from the exact tree's leaf runs. */
  for (guint i = 0; i < tv_profile_data_get_n_threads (data); i++)
    {
      const TvThread *t = tv_profile_data_get_thread (data, i);

      for (guint64 r = 0; r < t->n_runs; r++)
        {
          guint64 end = r + 1 < t->n_runs ? t->run_start[r + 1] : t->n_samples;
          guint32 frames[TACH_MAX_STACK_DEPTH];
          guint depth = exact_depth (tree, t->run_leaf[r]);

          for (guint32 n = t->run_leaf[r], j = depth; n != TV_ROOT_NODE;
               n = tv_exact_tree_parent (tree, n))
            frames[--j] = tv_exact_tree_frame (tree, n);
          count_key (got, collapsed_key (reader, t->thread_id, frames, depth),
                     end - t->run_start[r]);
        }
    }

  CHECK_EQ (g_hash_table_size (got), g_hash_table_size (expected), "collapsed stacks");
  g_hash_table_iter_init (&iter, expected);
  while (g_hash_table_iter_next (&iter, &k, &v))
    {
      guint64 *count = g_hash_table_lookup (got, k);

      CHECK (count != NULL, "a collapsed stack is missing");
      CHECK_EQ (*count, *(guint64 *) v, "collapsed stack count");
    }
  g_test_message ("%s: %u samples, %u collapsed stacks, %u exact nodes", name,
                  d.samples->len, g_hash_table_size (expected), tree->n_nodes);

  /* Real stacks (deep recursion, asyncio) through the queries too. */
  check_queries (data, &d, sample_thread, rand, name, 10);

  decoded_clear (&d);
}

static void
test_corpus (gconstpointer user_data)
{
  const char *name = user_data;
  g_autofree char *path = fixture_data_path ("valid", name);

  check_file (path, name);
}

/* A thread whose only record is an empty REPEAT run, before a thread with
 * samples: the decoder numbers it first, and the model's thread 0 must
 * still say which thread it is.  Made from repeat_count_zero.tach (an
 * empty run of thread 1, then its one sample) by giving the empty run to
 * thread 2 and counting two threads in the header. */
typedef struct
{
  GArray       *fractions;
  GCancellable *cancellable;
  guint         cancel_at;      /* cancel at this call, 0 never */
} ProgressLog;

static void
log_progress (double   fraction,
              gpointer user_data)
{
  ProgressLog *log = user_data;

  g_array_append_val (log->fractions, fraction);
  if (log->cancel_at != 0 && log->fractions->len == log->cancel_at)
    g_cancellable_cancel (log->cancellable);
}

/* A tree's build says how far it is, from 0 on, never backwards, never
 * past 1, and stops when cancelled from its progress. */
static void
test_tree_progress (void)
{
  g_autofree char *path = fixture_data_path ("valid", "rec_recursive.tach");
  g_autoptr(TvProfileData) data = fixture_load (path);

  /* Top-down, inverted, callers, and inverted from the exact tree with
   * the top-down tree's function table, pruned; top-down pruned, with
   * its states, and again with its own function table. */
  for (guint shape = 0; shape < 6; shape++)
    {
      g_autoptr(GCancellable) cancellable = g_cancellable_new ();
      g_autoptr(GArray) fractions = g_array_new (FALSE, FALSE, sizeof (double));
      ProgressLog log = { fractions, cancellable, 0 };
      g_autoptr(TvCallTree) tree = NULL;
      g_autoptr(TvCallTree) plain = NULL;
      g_autoptr(TvCallTree) top = NULL;
      TvQuery query;

      tv_query_init (&query, TV_MERGE_FUNCTION);
      query.count_threads = TRUE;
      query.inverted = shape == 1 || shape == 3;
      if (shape == 2)
        {
          top = tv_call_tree_new (data, &query, NULL);
          query.callers_of = tv_call_tree_get_function (top, 1);
        }
      if (shape == 3)
        {
          TvQuery top_query = query;

          top_query.inverted = FALSE;
          top = tv_call_tree_new (data, &top_query, NULL);
          query.functions_of = top;
          query.min_total = 3;
        }
      if (shape >= 4)
        {
          query.min_total = 3;
          query.count_states = TRUE;
        }
      if (shape == 5)
        {
          top = tv_call_tree_new (data, &query, NULL);
          g_assert_cmpuint (tv_call_tree_get_cut_below (top, TV_ROOT_NODE), ==, 3);
          query.functions_of = top;
        }
      tree = tv_call_tree_new_with_progress (data, &query, log_progress, &log, cancellable);
      g_assert_nonnull (tree);
      g_assert_cmpuint (fractions->len, >=, 4);
      g_assert_cmpfloat (g_array_index (fractions, double, 0), ==, 0.0);
      for (guint i = 0; i < fractions->len; i++)
        {
          double f = g_array_index (fractions, double, i);

          g_assert_cmpfloat (f, >=, 0.0);
          g_assert_cmpfloat (f, <=, 1.0);
          if (i > 0)
            g_assert_cmpfloat (f, >=, g_array_index (fractions, double, i - 1));
        }
      /* The same tree as without progress. */
      plain = tv_call_tree_new (data, &query, NULL);
      g_assert_cmpuint (tv_call_tree_get_n_nodes (tree), ==, tv_call_tree_get_n_nodes (plain));
      g_assert_cmpuint (tv_call_tree_get_n_samples (tree), ==,
                        tv_call_tree_get_n_samples (plain));

      /* Cancelled at any report but the first: no tree, and no report
       * after it. */
      for (guint at = 2; at <= fractions->len; at++)
        {
          g_autoptr(GCancellable) c = g_cancellable_new ();
          g_autoptr(GArray) f = g_array_new (FALSE, FALSE, sizeof (double));
          ProgressLog cancel_log = { f, c, at };
          TvCallTree *none = tv_call_tree_new_with_progress (data, &query, log_progress,
                                                             &cancel_log, c);

          g_assert_null (none);
          g_assert_cmpuint (f->len, ==, at);
        }
    }
}

static void
test_empty_thread (void)
{
  g_autofree char *source = fixture_data_path ("valid", "repeat_count_zero.tach");
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("tv-model-XXXXXX", &error);
  g_autofree char *path = NULL;
  g_autofree char *bytes = NULL;
  gsize len;
  guint64 tid;
  guint32 thread_count;

  g_assert_no_error (error);
  g_file_get_contents (source, &bytes, &len, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (len, >, 80);
  /* Little-endian: thread_count at byte 36, the first record's thread id
   * at 64 and its kind at 76. */
  memcpy (&thread_count, bytes + 36, sizeof thread_count);
  memcpy (&tid, bytes + 64, sizeof tid);
  g_assert_cmpuint (GUINT32_FROM_LE (thread_count), ==, 1);
  g_assert_cmpuint (GUINT64_FROM_LE (tid), ==, 1);
  g_assert_cmpint (bytes[76], ==, TACH_RECORD_REPEAT);
  thread_count = GUINT32_TO_LE (2);
  tid = GUINT64_TO_LE (2);
  memcpy (bytes + 36, &thread_count, sizeof thread_count);
  memcpy (bytes + 64, &tid, sizeof tid);

  path = g_build_filename (dir, "empty-thread.tach", NULL);
  g_file_set_contents (path, bytes, len, &error);
  g_assert_no_error (error);

  check_file (path, "empty-thread.tach");
  {
    g_autoptr(TvProfileData) data = fixture_load (path);

    g_assert_cmpuint (tv_profile_data_get_n_threads (data), ==, 2);
    g_assert_cmpuint (tv_profile_data_get_thread (data, 0)->n_samples, ==, 0);
    g_assert_cmpuint (tv_profile_data_get_thread (data, 0)->thread_id, ==, 2);
    g_assert_cmpuint (tv_profile_data_get_thread (data, 1)->thread_id, ==, 1);
  }

  g_remove (path);
  g_rmdir (dir);
}

/* The reader refuses a compression type it does not know, where CPython
 * reads the region as uncompressed (a deliberate difference, see
 * tests/format/test-corpus.c), so the model never sees this file. */
static void
on_changed (gpointer user_data)
{
  (*(guint *) user_data)++;
}

/* Whether the mapping that holds ADDR has FLAG among its VmFlags
 * (/proc/self/smaps). */
static gboolean
mapping_has_flag (gconstpointer  addr,
                  const char    *flag)
{
  g_autofree char *smaps = NULL;
  g_auto(GStrv) lines = NULL;
  gboolean inside = FALSE;

  g_assert_true (g_file_get_contents ("/proc/self/smaps", &smaps, NULL, NULL));
  lines = g_strsplit (smaps, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      guint64 start, end;
      char *dash;

      if (g_ascii_isxdigit (lines[i][0]) && (dash = strchr (lines[i], '-')) != NULL
          && strchr (lines[i], ' ') > dash)
        {
          start = g_ascii_strtoull (lines[i], NULL, 16);
          end = g_ascii_strtoull (dash + 1, NULL, 16);
          inside = start <= (guintptr) addr && (guintptr) addr < end;
        }
      else if (inside && g_str_has_prefix (lines[i], "VmFlags:"))
        {
          g_auto(GStrv) flags = g_strsplit (lines[i] + strlen ("VmFlags:"), " ", -1);

          return g_strv_contains ((const char * const *) flags, flag);
        }
    }
  g_error ("no mapping holds %p", addr);
}

/* The trees' big arrays ask the kernel for huge pages (smaps says "hg"),
 * wherever it takes the request at all; small ones do not ask. */
static void
test_huge_pages (void)
{
  gsize n = 8 << 20;
  gsize page = (gsize) sysconf (_SC_PAGESIZE);
  tv_autohuge guint64 *big = tv_huge_new0 (guint64, n);
  gpointer small, probe;
  gboolean kernel_takes_it;

  /* A mapping of its own, asked the same way: a kernel without
   * transparent huge pages refuses (EINVAL). */
  probe = mmap (NULL, 4 << 20, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  g_assert_true (probe != MAP_FAILED);
  kernel_takes_it = madvise (probe, 4 << 20, MADV_HUGEPAGE) == 0;
  if (!kernel_takes_it)
    g_assert_cmpint (errno, ==, EINVAL);
  munmap (probe, 4 << 20);

  g_assert_nonnull (big);
  g_assert_cmpuint (big[0], ==, 0);
  g_assert_cmpuint (big[n - 1], ==, 0);
  big[n / 2] = 7;
  g_assert_cmpint (mapping_has_flag (big, "hg"), ==, kernel_takes_it);
  g_assert_cmpint (mapping_has_flag ((guint8 *) big + n * sizeof (guint64) - 1, "hg"), ==,
                   kernel_takes_it);

  /* Under the threshold: not asked.  A mapping made here, not a block of
   * malloc's: the heap may hold a big block of an earlier test that asked
   * for the pages around it. */
  small = mmap (NULL, TV_HUGE_PAGES_MIN_BYTES - page, PROT_READ | PROT_WRITE,
                MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  g_assert_true (small != MAP_FAILED);
  g_assert_true (tv_huge_pages (small, TV_HUGE_PAGES_MIN_BYTES - page) == small);
  g_assert_false (mapping_has_flag (small, "hg"));
  munmap (small, TV_HUGE_PAGES_MIN_BYTES - page);
}

/* Q's tree, which took the weights kept (TAKEN) or made its own. */
static TvCallTree *
counted_tree (TvProfileData *data,
              const TvQuery *q,
              gboolean       taken)
{
  guint taken0, made0, taken1, made1;
  TvCallTree *tree;

  tv_call_tree_get_kept_stats (&taken0, &made0, NULL);
  tree = tv_call_tree_new (data, q, NULL);
  g_assert_nonnull (tree);
  tv_call_tree_get_kept_stats (&taken1, &made1, NULL);
  g_assert_cmpuint (taken1, ==, taken0 + (taken ? 1 : 0));
  g_assert_cmpuint (made1, ==, made0 + (taken ? 0 : 1));
  return tree;
}

/* The same, and it equals the tree made with nothing kept. */
static TvCallTree *
kept_tree (TvProfileData *data,
           const TvQuery *q,
           gboolean       taken)
{
  TvCallTree *tree = counted_tree (data, q, taken);
  g_autoptr(TvCallTree) fresh = NULL;

  tv_call_tree_forget_weights (data);
  fresh = tv_call_tree_new (data, q, NULL);
  fixture_assert_same_trees (tree, fresh);
  return tree;
}

/* Q's tree took the weights kept (TAKEN) or made its own; the tree is
 * not needed. */
static void
assert_taken (TvProfileData *data,
              const TvQuery *q,
              gboolean       taken)
{
  tv_call_tree_unref (counted_tree (data, q, taken));
}

static gboolean
set_flag (gpointer user_data)
{
  *(gboolean *) user_data = TRUE;
  return G_SOURCE_REMOVE;
}

/* A top-down tree that leaves nodes out keeps its exact tree's weights
 * for the next of the same samples, and only for that: every change of
 * what is selected makes new ones.  They go with the profile, when told
 * to, and when no tree was asked for a while. */
static void
test_kept_weights (void)
{
  FormatTestDir tmp;
  g_autoptr(TvProfileData) data = NULL;
  TvProfileData *other;
  TvQuery q, v;
  TvTimeRange ranges[1];
  guint64 first, last;
  guint32 thread = 1;
  gboolean holding, timed_out = FALSE;
  guint timeout;

  format_test_dir_init (&tmp, "tv-model-XXXXXX");
  /* The first of a fixed series of profiles that has two threads. */
  for (guint32 seed = 1; data == NULL || tv_profile_data_get_n_threads (data) < 2; seed++)
    {
      g_autoptr(GRand) rand = g_rand_new_with_seed (seed);

      g_assert_cmpuint (seed, <, 100);
      g_clear_pointer (&data, tv_profile_data_unref);
      generate_profile (rand, tmp.path);
      data = fixture_load (tmp.path);
    }
  tv_profile_data_get_time_span (data, &first, &last);
  tv_call_tree_forget_weights (NULL);

  tv_query_init (&q, TV_MERGE_FUNCTION);
  q.count_threads = TRUE;
  q.min_total = tv_profile_data_get_n_samples (data) / 40;
  g_assert_cmpuint (q.min_total, >, 0);
  tv_call_tree_unref (kept_tree (data, &q, FALSE));
  tv_call_tree_get_kept_stats (NULL, NULL, &holding);
  g_assert_true (holding);

  /* The same samples, by line, and zoomed: taken. */
  v = q;
  v.merge = TV_MERGE_LINE;
  tv_call_tree_unref (kept_tree (data, &v, TRUE));
  v.min_total = q.min_total / 4;
  tv_call_tree_unref (kept_tree (data, &v, TRUE));
  /* With no thread counts from weights that have them: taken. */
  v = q;
  v.count_threads = FALSE;
  tv_call_tree_unref (kept_tree (data, &v, TRUE));

  /* Each change of what is selected: made, and kept in their place. */
  v = q;
  v.status_mask = v.status_value = TACH_STATUS_ON_CPU;
  tv_call_tree_unref (kept_tree (data, &v, FALSE));
  tv_call_tree_unref (kept_tree (data, &v, TRUE));
  v.status_value = 0;
  tv_call_tree_unref (kept_tree (data, &v, FALSE));
  v = q;
  v.interpreter = 0;
  tv_call_tree_unref (kept_tree (data, &v, FALSE));
  v = q;
  v.threads = &thread;
  v.n_threads = 1;
  tv_call_tree_unref (kept_tree (data, &v, FALSE));
  thread = 0;
  tv_call_tree_unref (kept_tree (data, &v, FALSE));
  /* No thread at all is not every thread. */
  v.n_threads = 0;
  {
    g_autoptr(TvCallTree) none = kept_tree (data, &v, FALSE);

    g_assert_cmpuint (tv_call_tree_get_n_samples (none), ==, 0);
  }
  v = q;
  v.has_range = TRUE;
  v.range_start = first;
  v.range_end = first + (last - first) / 2;
  tv_call_tree_unref (kept_tree (data, &v, FALSE));
  v.range_end++;
  tv_call_tree_unref (kept_tree (data, &v, FALSE));
  v = q;
  ranges[0] = (TvTimeRange) { first, first + (last - first) / 3 };
  v.ranges = ranges;
  v.n_ranges = 1;
  tv_call_tree_unref (kept_tree (data, &v, FALSE));
  ranges[0].start++;
  tv_call_tree_unref (kept_tree (data, &v, FALSE));
  v.n_ranges = 0;
  tv_call_tree_unref (kept_tree (data, &v, FALSE));
  /* Thread counts from weights made without them. */
  v = q;
  v.count_threads = FALSE;
  tv_call_tree_unref (kept_tree (data, &v, FALSE));
  tv_call_tree_unref (kept_tree (data, &q, FALSE));

  /* State counts are not kept, and what was is let go for them. */
  v = q;
  v.count_states = TRUE;
  tv_call_tree_unref (kept_tree (data, &v, FALSE));
  tv_call_tree_get_kept_stats (NULL, NULL, &holding);
  g_assert_false (holding);

  /* Nor is a tree that keeps every node, which does not touch them. */
  tv_call_tree_unref (kept_tree (data, &q, FALSE));
  v = q;
  v.min_total = 0;
  tv_call_tree_unref (tv_call_tree_new (data, &v, NULL));
  tv_call_tree_unref (kept_tree (data, &q, TRUE));

  /* Another profile's are its own, kept beside this one's, and go with
   * it, those of its tree merged by function too (which a tree by
   * function reads). */
  other = fixture_load (tmp.path);
  g_assert_true (tv_profile_data_add_merged (other, 1.0, NULL));
  tv_call_tree_unref (kept_tree (other, &q, FALSE));
  assert_taken (other, &q, TRUE);
  assert_taken (data, &q, TRUE);
  tv_profile_data_unref (other);
  tv_call_tree_get_kept_stats (NULL, NULL, &holding);
  g_assert_true (holding);
  tv_call_tree_forget_weights (data);
  tv_call_tree_get_kept_stats (NULL, NULL, &holding);
  g_assert_false (holding);
  tv_call_tree_unref (kept_tree (data, &q, FALSE));

  /* Let go when told to, those of its merged tree too. */
  tv_call_tree_forget_weights (data);
  tv_call_tree_get_kept_stats (NULL, NULL, &holding);
  g_assert_false (holding);
  g_assert_true (tv_profile_data_add_merged (data, 1.0, NULL));
  tv_call_tree_unref (kept_tree (data, &q, FALSE));
  tv_call_tree_unref (kept_tree (data, &q, TRUE));
  tv_call_tree_get_kept_stats (NULL, NULL, &holding);
  g_assert_true (holding);

  /* A tree by function reads the merged tree, and one by line the exact
   * tree: each keeps its own, so that going from one to the other and
   * back takes both. */
  tv_call_tree_forget_weights (data);
  v = q;
  v.merge = TV_MERGE_LINE;
  for (guint round = 0; round < 3; round++)
    {
      assert_taken (data, &q, round > 0);
      assert_taken (data, &v, round > 0);
    }
  /* A third tree's go in place of those used longest ago, by function. */
  other = fixture_load (tmp.path);
  assert_taken (other, &v, FALSE);
  assert_taken (other, &v, TRUE);
  assert_taken (data, &v, TRUE);
  assert_taken (data, &q, FALSE);
  /* Those of the profile that goes, and only those. */
  tv_profile_data_unref (other);
  assert_taken (data, &v, TRUE);
  assert_taken (data, &q, TRUE);
  tv_call_tree_forget_weights (data);
  tv_call_tree_get_kept_stats (NULL, NULL, &holding);
  g_assert_false (holding);

  /* And when no tree was asked for as long as kept blocks are kept. */
  tv_huge_set_trim_delay (1);
  tv_call_tree_unref (kept_tree (data, &q, FALSE));
  tv_call_tree_get_kept_stats (NULL, NULL, &holding);
  g_assert_true (holding);
  timeout = g_timeout_add_seconds (10, set_flag, &timed_out);
  while (holding && !timed_out)
    {
      g_main_context_iteration (NULL, TRUE);
      tv_call_tree_get_kept_stats (NULL, NULL, &holding);
    }
  g_assert_false (holding);
  g_assert_false (timed_out);
  g_source_remove (timeout);
  tv_huge_set_trim_delay (30);

  format_test_dir_clear (&tmp);
}

/* Minor page faults this thread has taken. */
static glong
thread_page_faults (void)
{
  struct rusage usage;

  g_assert_cmpint (getrusage (RUSAGE_THREAD, &usage), ==, 0);
  return usage.ru_minflt;
}

/* The heap keeps a block it is given back (tv_huge_setup_heap ()): the
 * next of the same size takes its pages, with few to fault; and it keeps
 * no more than TV_HUGE_HEAP_KEEP_BYTES free at its end.  Under a
 * sanitizer, whose allocator holds what is freed its own way, glibc's
 * settings do not apply: there the test checks only that the heap still
 * works. */
static void
test_heap_kept (void)
{
  gsize n = 12u << 20;
  gsize page = (gsize) sysconf (_SC_PAGESIZE);
  guint8 *block, *blocks[8];
  glong before, faults;

  tv_huge_setup_heap ();
  block = g_malloc (n);
  memset (block, 1, n);
  g_free (block);
  before = thread_page_faults ();
  block = g_malloc (n);
  memset (block, 2, n);
  faults = thread_page_faults () - before;
  g_assert_cmpuint (block[n - 1], ==, 2);
#if defined(__GLIBC__) && TV_HUGE_MAPPED
  /* Without it, all of its pages (3,072 of 4 KiB). */
  g_assert_cmpint (faults, <, (glong) (n / page / 8));
#else
  (void) faults;
#endif
  g_free (block);

  /* 96 MiB freed, from the last block made: what is past the first
   * TV_HUGE_HEAP_KEEP_BYTES or so goes back. */
  for (guint i = 0; i < G_N_ELEMENTS (blocks); i++)
    {
      blocks[i] = g_malloc (n);
      memset (blocks[i], 3, n);
    }
  G_STATIC_ASSERT (G_N_ELEMENTS (blocks) * (12u << 20) > TV_HUGE_HEAP_KEEP_BYTES + (24u << 20));
  for (guint i = G_N_ELEMENTS (blocks); i-- > 0;)
    g_free (blocks[i]);
#if defined(__GLIBC__) && TV_HUGE_MAPPED
  {
    /* A page in the middle of the last block: unmapped, or no longer
     * resident. */
    guint8 *last = blocks[G_N_ELEMENTS (blocks) - 1];
    guint8 *middle = (guint8 *) ((guintptr) (last + n / 2) & ~(guintptr) (page - 1));
    unsigned char resident = 0;

    if (mincore (middle, page, &resident) == 0)
      g_assert_cmpint (resident & 1, ==, 0);
  }
#endif
}

/* A reservation's pages given to the kept blocks (tv_huge_adopt (), as a
 * load gives its tree's links): a new block of at least a quarter of what
 * it used takes them, cleared when asked, and is cut to its size, the rest
 * kept the same way for the next; a smaller one maps its own; a
 * reservation of less than TV_HUGE_PAGES_MIN_BYTES used is not kept.
 * Without mappings (a sanitizer), nothing is reserved. */
static void
test_huge_adopt (void)
{
  gsize reserved = 63u << 20;
  guint8 *mem;

  tv_huge_trim ();
  mem = tv_huge_reserve (&reserved);
#if TV_HUGE_MAPPED
  {
    gsize used = 48u << 20, kept;
    guint8 *small, *big, *rest;
    unsigned char resident;

    g_assert_nonnull (mem);
    g_assert_cmpuint (reserved, ==, 64u << 20);
    g_assert_cmpuint ((guintptr) mem % (2 << 20), ==, 0);
    memset (mem, 0xab, used);
    tv_huge_adopt (mem, used - 100, reserved);
    tv_huge_get_stats (NULL, NULL, &kept);
    g_assert_cmpuint (kept, ==, used);
    /* Past what it used, unmapped. */
    g_assert_cmpint (mincore (mem + used, 4096, &resident), ==, -1);

    small = tv_huge_new (guint8, 9u << 20);
    g_assert_true (small != mem);
    tv_huge_free (small);
    big = tv_huge_new0 (guint8, 13u << 20);
    g_assert_true (big == mem);
    g_assert_cmpuint (tv_huge_size (big), ==, 14u << 20);
    for (gsize i = 0; i < (13u << 20); i++)
      if (big[i] != 0)
        g_error ("adopted block not cleared at %" G_GSIZE_FORMAT, i);
    /* The rest, kept with what it holds, for the next block that fits
     * (33 MiB is 34 with its huge pages; the other kept block has 10). */
    tv_huge_get_stats (NULL, NULL, &kept);
    g_assert_cmpuint (kept, ==, (34u << 20) + (10u << 20));
    rest = tv_huge_new (guint8, 33u << 20);
    g_assert_true (rest == mem + (14u << 20));
    g_assert_cmpuint (rest[0], ==, 0xab);
    g_assert_cmpuint (rest[(34u << 20) - 1], ==, 0xab);
    g_assert_cmpint (mincore (mem + used, 4096, &resident), ==, -1);
    tv_huge_free (rest);
    tv_huge_free (big);
    tv_huge_get_stats (NULL, NULL, &kept);
    g_assert_cmpuint (kept, ==, (48u << 20) + (10u << 20));
    tv_huge_trim ();

    reserved = 64u << 20;
    mem = tv_huge_reserve (&reserved);
    g_assert_nonnull (mem);
    memset (mem, 1, 4096);
    tv_huge_adopt (mem, 4096, reserved);
    tv_huge_get_stats (NULL, NULL, &kept);
    g_assert_cmpuint (kept, ==, 0);
    g_assert_cmpint (mincore (mem, 4096, &resident), ==, -1);
  }
#else
  g_assert_null (mem);
#endif
}

/* A block kept with what it holds (tv_huge_keep ()) comes back whole
 * under its tag, and under no other; a newer one under the same tag
 * takes its place; a new block takes it, tag and all, only when no other
 * kept block fits; tv_huge_trim () gives it back.  Blocks of the heap are
 * kept so too, and every block under a sanitizer. */
static void
test_huge_keep (void)
{
  gsize n = 2 * (TV_HUGE_PAGES_MIN_BYTES / sizeof (guint32)) + 1000;
  gsize kept;
  guint32 *a, *b, *small;

  tv_huge_trim ();
  a = tv_huge_new (guint32, n);
  for (gsize i = 0; i < n; i++)
    a[i] = (guint32) (7 * i);
  tv_huge_keep (a, n * sizeof (guint32), 0x101);
  tv_huge_get_stats (NULL, NULL, &kept);
  g_assert_cmpuint (kept, >=, n * sizeof (guint32));
  g_assert_null (tv_huge_take_kept (0x102, sizeof (guint32)));
  /* Not if it holds less than asked for. */
  g_assert_null (tv_huge_take_kept (0x101, (n + 1) * sizeof (guint32) + (4u << 20)));
  b = tv_huge_take_kept (0x101, n * sizeof (guint32));
  g_assert_true (b == a);
  for (gsize i = 0; i < n; i++)
    if (b[i] != 7 * i)
      g_error ("kept block lost %" G_GSIZE_FORMAT, i);
  /* Taken: no longer kept. */
  g_assert_null (tv_huge_take_kept (0x101, sizeof (guint32)));
  tv_huge_get_stats (NULL, NULL, &kept);
  g_assert_cmpuint (kept, ==, 0);

  /* A small block of the heap, kept and taken back. */
  small = g_new (guint32, 3);
  small[0] = 11;
  small[2] = 13;
  tv_huge_keep (small, 3 * sizeof (guint32), 0x201);
  g_assert_null (tv_huge_take_kept (0x201, 4 * sizeof (guint32)));
  g_assert_true (tv_huge_take_kept (0x201, 3 * sizeof (guint32)) == small);
  g_assert_cmpuint (small[0] + small[2], ==, 24);

  /* The newer of two under one tag. */
  tv_huge_keep (small, 3 * sizeof (guint32), 0x201);
  tv_huge_keep (b, n * sizeof (guint32), 0x201);
  g_assert_true (tv_huge_take_kept (0x201, sizeof (guint32)) == b);
  g_assert_null (tv_huge_take_kept (0x201, sizeof (guint32)));
#if TV_HUGE_MAPPED
  /* A kept block of no tag goes to a new block before one with a tag. */
  {
    guint32 *plain = tv_huge_new (guint32, n);

    tv_huge_keep (b, n * sizeof (guint32), 0x301);
    tv_huge_free (plain);
    g_assert_true (tv_huge_new (guint32, n) == plain);
    g_assert_true (tv_huge_take_kept (0x301, sizeof (guint32)) == b);
    tv_huge_free (plain);
    /* With only the tagged one kept, a new block takes it. */
    tv_huge_trim ();
    tv_huge_keep (b, n * sizeof (guint32), 0x301);
    g_assert_true (tv_huge_new (guint32, n) == b);
    g_assert_null (tv_huge_take_kept (0x301, sizeof (guint32)));
  }
#endif
  tv_huge_keep (b, n * sizeof (guint32), 0x401);
  tv_huge_trim ();
  tv_huge_get_stats (NULL, NULL, &kept);
  g_assert_cmpuint (kept, ==, 0);
  g_assert_null (tv_huge_take_kept (0x401, sizeof (guint32)));
}

/* A view's big arrays are used again: a block freed is kept, and the next
 * one that fits in it is made in it, with no new mapping; tv_huge_new0 ()
 * clears what it reuses, tv_huge_realloc () keeps what it grows or shrinks
 * (in place), and tv_huge_trim () gives the kept blocks back.  Small blocks, and blocks
 * of the heap, are freed as g_free () frees them.  Under a sanitizer every
 * block is the heap's. */
static void
test_huge_reuse (void)
{
  gsize n = 3 * (TV_HUGE_PAGES_MIN_BYTES / sizeof (guint64)) + 1000;
  gsize mapped0, reused0, mapped, reused, kept;
  guint64 *a, *b, *c;
  guint8 *small = tv_huge_new (guint8, 100);

  /* Of the heap, whatever their size. */
  small[99] = 1;
  tv_huge_free (small);
  tv_huge_free (g_new (guint8, TV_HUGE_PAGES_MIN_BYTES));
  tv_huge_free (NULL);

  tv_huge_trim ();
  tv_huge_get_stats (&mapped0, &reused0, &kept);
  g_assert_cmpuint (kept, ==, 0);
  a = tv_huge_new (guint64, n);
  for (gsize i = 0; i < n; i++)
    a[i] = i + 1;
  tv_huge_free (a);
  tv_huge_get_stats (&mapped, &reused, &kept);
#if TV_HUGE_MAPPED
  g_assert_cmpuint (mapped, ==, mapped0 + 1);
  g_assert_cmpuint (kept, >=, n * sizeof (guint64));
  g_assert_cmpuint (kept % (2 << 20), ==, 0);
#else
  g_assert_cmpuint (mapped, ==, 0);
  g_assert_cmpuint (kept, ==, 0);
#endif

  /* The same size again, cleared: the kept block. */
  b = tv_huge_new0 (guint64, n);
  tv_huge_get_stats (&mapped, &reused, &kept);
#if TV_HUGE_MAPPED
  g_assert_true (b == a);
  g_assert_cmpuint (mapped, ==, mapped0 + 1);
  g_assert_cmpuint (reused, ==, reused0 + 1);
  g_assert_cmpuint (kept, ==, 0);
  g_assert_cmpuint (tv_huge_size (b), >=, n * sizeof (guint64));
  g_assert_cmpuint ((guintptr) b % (2 << 20), ==, 0);
#endif
  for (gsize i = 0; i < n; i++)
    if (b[i] != 0)
      g_error ("reused block not cleared at %" G_GSIZE_FORMAT, i);
  for (gsize i = 0; i < n; i++)
    b[i] = 3 * i;

  /* Shrunk in place: its tail goes back. */
#if TV_HUGE_MAPPED
  {
    gsize before = tv_huge_size (b);
    gsize old_n = n;

    /* Still a mapping after: n stays over the threshold. */
    n = 2 * n / 3;
    g_assert_true (tv_huge_renew (guint64, b, old_n, n) == b);
    g_assert_cmpuint (tv_huge_size (b), <, before);
    g_assert_cmpuint (tv_huge_size (b), >=, n * sizeof (guint64));
    for (gsize i = 0; i < n; i++)
      if (b[i] != 3 * i)
        g_error ("shrunk block lost %" G_GSIZE_FORMAT, i);
  }
#endif

  /* Grown: what it held is kept. */
  c = tv_huge_renew (guint64, b, n, 3 * n);
  for (gsize i = 0; i < n; i++)
    if (c[i] != 3 * i)
      g_error ("grown block lost %" G_GSIZE_FORMAT, i);
  c[3 * n - 1] = 5;
#if TV_HUGE_MAPPED
  g_assert_cmpuint (tv_huge_size (c), >=, 3 * n * sizeof (guint64));
  /* The block it grew from is kept. */
  tv_huge_get_stats (NULL, NULL, &kept);
  g_assert_cmpuint (kept, >=, n * sizeof (guint64));
#endif
  tv_huge_free (c);

  /* A smaller block fits in a kept one. */
  a = tv_huge_new (guint64, n / 2 + TV_HUGE_PAGES_MIN_BYTES / sizeof (guint64));
  tv_huge_get_stats (&mapped, NULL, NULL);
#if TV_HUGE_MAPPED
  g_assert_cmpuint (mapped, ==, mapped0 + 2);
#endif
  tv_huge_free (a);

  /* Of kept blocks of one size, the one freed last is taken first: arrays
   * made in one order and freed in the other, query after query, each
   * find the pages they touched before. */
  tv_huge_trim ();
  {
    guint64 *x = tv_huge_new (guint64, n), *y = tv_huge_new (guint64, n);
    guint64 *z = tv_huge_new (guint64, n);

    tv_huge_free (z);
    tv_huge_free (y);
    tv_huge_free (x);
#if TV_HUGE_MAPPED
    g_assert_true (tv_huge_new (guint64, n) == x);
    g_assert_true (tv_huge_new (guint64, n) == y);
    g_assert_true (tv_huge_new (guint64, n) == z);
    tv_huge_free (z);
    tv_huge_free (y);
    tv_huge_free (x);
#endif
  }

  tv_huge_trim ();
  tv_huge_get_stats (NULL, NULL, &kept);
  g_assert_cmpuint (kept, ==, 0);

  /* Kept blocks go back by themselves once none was kept for a while. */
#if TV_HUGE_MAPPED
  {
    gint64 start = g_get_monotonic_time ();

    tv_huge_set_trim_delay (1);
    tv_huge_free (tv_huge_new (guint64, n));
    tv_huge_get_stats (NULL, NULL, &kept);
    g_assert_cmpuint (kept, >, 0);
    while (kept > 0 && g_get_monotonic_time () - start < 20 * G_USEC_PER_SEC)
      {
        g_main_context_iteration (NULL, FALSE);
        g_usleep (10000);
        tv_huge_get_stats (NULL, NULL, &kept);
      }
    g_assert_cmpuint (kept, ==, 0);
    /* Not before a second. */
    g_assert_cmpint (g_get_monotonic_time () - start, >=, G_USEC_PER_SEC / 2);
    tv_huge_set_trim_delay (30);
  }
#endif
}

/* A view state holds one selection: a time range or a list of ranges,
 * which it sorts and merges; the query carries it. */
static void
test_view_state_ranges (void)
{
  g_autoptr(TvViewState) state = tv_view_state_new ();
  TvTimeRange messy[] = { { 50, 60 }, { 10, 20 }, { 15, 30 }, { 40, 40 }, { 30, 35 } };
  const TvTimeRange *ranges;
  guint n_ranges, n_changed = 0;
  TvQuery query;

  g_signal_connect_swapped (state, "changed", G_CALLBACK (on_changed), &n_changed);
  g_assert_null (tv_view_state_get_ranges (state, &n_ranges));
  g_assert_cmpuint (n_ranges, ==, 0);

  tv_view_state_set_range (state, 5, 8);
  tv_view_state_set_ranges (state, messy, G_N_ELEMENTS (messy));
  g_assert_cmpuint (n_changed, ==, 2);
  /* Sorted, merged where they overlap or touch, the empty one dropped. */
  ranges = tv_view_state_get_ranges (state, &n_ranges);
  g_assert_cmpuint (n_ranges, ==, 2);
  g_assert_cmpuint (ranges[0].start, ==, 10);
  g_assert_cmpuint (ranges[0].end, ==, 35);
  g_assert_cmpuint (ranges[1].start, ==, 50);
  g_assert_cmpuint (ranges[1].end, ==, 60);
  g_assert_true (tv_time_ranges_are_sorted (ranges, n_ranges));
  g_assert_false (tv_time_ranges_are_sorted (messy, G_N_ELEMENTS (messy)));
  /* One selection at a time. */
  g_assert_false (tv_view_state_get_range (state, NULL, NULL));
  tv_view_state_to_query (state, &query);
  g_assert_false (query.has_range);
  g_assert_true (query.ranges == ranges);
  g_assert_cmpuint (query.n_ranges, ==, 2);
  /* The same ranges again change nothing. */
  tv_view_state_set_ranges (state, ranges, n_ranges);
  g_assert_cmpuint (n_changed, ==, 2);

  tv_view_state_set_range (state, 5, 8);
  g_assert_cmpuint (n_changed, ==, 3);
  g_assert_null (tv_view_state_get_ranges (state, NULL));
  tv_view_state_set_ranges (state, messy, 2);
  g_assert_cmpuint (n_changed, ==, 4);
  tv_view_state_clear_range (state);
  g_assert_cmpuint (n_changed, ==, 5);
  g_assert_null (tv_view_state_get_ranges (state, NULL));
  g_assert_false (tv_view_state_get_range (state, NULL, NULL));
  tv_view_state_to_query (state, &query);
  g_assert_null (query.ranges);
  tv_view_state_clear_range (state);
  tv_view_state_set_ranges (state, NULL, 0);
  g_assert_cmpuint (n_changed, ==, 5);
}

static void
test_corpus_refused (void)
{
  g_autofree char *path = fixture_data_path ("valid", "compression_type_7.tach");
  TachReader *reader = NULL;
  TachError error;

  g_assert_cmpint (tach_reader_open_path (path, &reader, &error), ==, TACH_ERROR_UNSUPPORTED);
  g_assert_null (reader);
}

/* A profile of more thread-samples than a view can count is refused with
 * an error that says so, at the first sample past the limit (a limit set
 * low: the real one, 2^32 - 1, takes gigabytes); one of as many as the
 * limit loads. */
static void
test_too_many_samples (void)
{
  g_autofree char *path = fixture_data_path ("valid", "rec_threads.tach");
  g_autoptr(TvProfileData) whole = fixture_load (path);
  guint64 n = tv_profile_data_get_n_samples (whole);

  g_assert_cmpuint (n, >, 2);
  for (guint64 limit = n - 1; limit <= n; limit++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(TvProfileData) data = NULL;
      TachReader *reader = NULL;
      TachError tach_error;

      if (tach_reader_open_path (path, &reader, &tach_error) != TACH_OK)
        g_error ("%s: %s", path, tach_error.message);
      tv_profile_data_set_max_samples (limit);
      data = tv_profile_data_load (reader, NULL, NULL, NULL, &error);
      tv_profile_data_set_max_samples (0);
      if (limit < n)
        {
          g_autofree char *count = g_strdup_printf ("more than %" G_GUINT64_FORMAT
                                                    " thread-samples", limit);

          g_assert_error (error, TV_TACH_ERROR, TV_TACH_ERROR_UNSUPPORTED);
          g_assert_nonnull (strstr (error->message, count));
          g_assert_null (data);
        }
      else
        {
          g_assert_no_error (error);
          g_assert_cmpuint (tv_profile_data_get_n_samples (data), ==, n);
        }
    }
}

/* A writer of PATH whose profile starts at START, sampled every
 * millisecond. */
static TachWriter *
new_writer (const char *path,
            guint64     start)
{
  TachWriterOptions options = { 0 };
  TachWriter *writer = NULL;
  TachError error;

  options.start_time_us = start;
  options.sample_interval_us = 1000;
  if (tach_writer_new (path, &options, &writer, &error) != TACH_OK)
    g_error ("%s", error.message);
  return writer;
}

/* Writes a sample of thread TID whose STACK of DEPTH frames is given
 * outermost first (and is reversed here). */
static void
add_outermost_first (TachWriter *writer,
                     guint64     tid,
                     guint64     ts,
                     guint32     status,
                     guint32    *stack,
                     guint       depth)
{
  TachError error;

  for (guint i = 0; i < depth / 2; i++)
    {
      guint32 x = stack[i];

      stack[i] = stack[depth - 1 - i];
      stack[depth - 1 - i] = x;
    }
  if (tach_writer_add_sample (writer, tid, 0, ts, status, stack, depth, &error) != TACH_OK)
    g_error ("%s", error.message);
}

/* A tree whose parents and first children are too far from their nodes
 * to be kept as distances (see TvExactTree), of few samples: under the
 * root, A calls C1 and C2, and B calls the same.  C1 calls each of
 * FAR_BRANCHES functions, each of which starts a chain of FAR_CHAIN calls,
 * more than 65,535 nodes in all; C2 and B are numbered before them, their
 * children after.  With WIDE, the frame table has more frames than 16
 * bits hold, and the stacks use the last of them; with ROOTS too, each of
 * the others is also a stack of its own, one frame deep, so that the root
 * has children further from it than 16 bits hold. */
#define FAR_BRANCHES 300
#define FAR_CHAIN    230
#define FAR_ROOTS    65536

typedef enum
{
  FAR_NARROW,
  FAR_WIDE,
  FAR_WIDE_ROOTS,
} FarShape;

static void
write_far_tree (const char *path,
                FarShape    shape)
{
  gboolean wide = shape != FAR_NARROW;
  enum { A, B, C1, C2, BRANCH, CHAIN = BRANCH + FAR_BRANCHES, N_USED = CHAIN + FAR_CHAIN };
  guint64 ts = 1000000;
  TachWriter *writer = new_writer (path, ts);
  TachError error;
  guint n_frames = N_USED + (wide ? FAR_ROOTS : 0);
  g_autofree guint32 *table = g_new (guint32, n_frames);
  const guint32 *frames = table + n_frames - N_USED;
  guint32 stack[TACH_MAX_STACK_DEPTH];
  for (guint i = 0; i < n_frames; i++)
    {
      g_autofree char *funcname = g_strdup_printf ("f%u", i);
      TachFrameInfo info = { "/srv/far.py", funcname, 1 + i % 1000, -1, -1, -1, TACH_OPCODE_NONE };

      if (tach_writer_intern_frame (writer, &info, &table[i], &error) != TACH_OK)
        g_error ("%s", error.message);
    }
  /* Outermost first here, reversed when written. */
  for (guint s = 0; s < FAR_BRANCHES + 12; s++)
    {
      guint depth = 0;
      guint32 status = TACH_STATUS_HAS_GIL | (s % 3 == 0 ? TACH_STATUS_ON_CPU : 0);

      if (s < FAR_BRANCHES)
        {
          stack[depth++] = frames[A];
          stack[depth++] = frames[C1];
          stack[depth++] = frames[BRANCH + s];
          for (guint k = 0; k < FAR_CHAIN; k++)
            stack[depth++] = frames[CHAIN + k];
        }
      else
        {
          stack[depth++] = frames[s % 2 ? B : A];
          stack[depth++] = frames[s % 2 ? C1 : C2];
          stack[depth++] = frames[BRANCH + s % 6];
        }
      add_outermost_first (writer, 1 + s % 2, ts += 1000, status, stack, depth);
    }
  for (guint i = 0; shape == FAR_WIDE_ROOTS && i < FAR_ROOTS; i++)
    if (tach_writer_add_sample (writer, 1 + i % 2, 0, ts += 1000, TACH_STATUS_HAS_GIL,
                                &table[i], 1, &error) != TACH_OK)
      g_error ("%s", error.message);
  if (tach_writer_finish (writer, &error) != TACH_OK)
    g_error ("%s", error.message);
}

/* Far parents and first children, and frames of more than 16 bits, read
 * back as the samples wrote them: every path, the tree's structure, and
 * queries against the brute force (but for the children of the root,
 * whose thousands of samples would take the brute force minutes). */
static void
test_far_tree (gconstpointer user_data)
{
  FarShape shape = GPOINTER_TO_INT (user_data);
  gboolean wide = shape != FAR_NARROW;
  g_autoptr(GRand) rand = g_rand_new_with_seed (base_seed);
  FormatTestDir tmp;
  const char *path;
  g_autofree guint *sample_thread = NULL;
  g_autoptr(TvProfileData) data = NULL;
  const TvExactTree *tree;
  Decoded d;

  format_test_dir_init (&tmp, "tv-model-XXXXXX");
  path = tmp.path;
  write_far_tree (path, shape);
  data = fixture_load (path);
  tree = tv_profile_data_get_tree (data);
  /* The case this is for: distances past 16 bits, both ways, and frames
   * past 16 bits when the table has them. */
  g_assert_cmpuint (tree->n_nodes, >, 65536);
  {
    /* Far parents, a table entry for the far children of each. */
    guint32 n_far = 0;

    for (guint32 n = 0; n < tree->n_nodes; n++)
      n_far += tree->up[n] == TV_TREE_FAR;
    g_assert_cmpuint (n_far, >=, 7);
    g_assert_cmpuint (tree->far_up.n, >=, 3);
    g_assert_cmpuint (tree->far_up.n, <, n_far);
  }
  g_assert_cmpuint (tree->far_down.n, >=, 2);
  g_assert_true ((tree->frame32 != NULL) == wide);
  g_assert_true ((tree->frame16 != NULL) == !wide);
  if (shape == FAR_WIDE_ROOTS)
    {
      /* Children of the root further than 16 bits, kept as such. */
      guint32 n_root_far = 0;

      for (guint32 n = 1; n < tree->n_nodes; n++)
        n_root_far += tree->up[n] == 0;
      g_assert_cmpuint (n_root_far, >, 0);
    }

  decode_file (path, &d);
  set_context ("far tree, shape %d", shape);
  sample_thread = check_threads (data, &d);
  check_exact_tree (data);
  check_keys (data);
  /* The wide shape's queries share their passes with a second thread,
   * across far parents. */
  tv_call_tree_set_thread_min_nodes (shape == FAR_WIDE ? 0 : G_MAXUINT32);
  if (shape != FAR_WIDE_ROOTS)
    check_queries (data, &d, sample_thread, rand, "far tree", 4);
  tv_call_tree_set_thread_min_nodes (1u << 20);
  decoded_clear (&d);
  format_test_dir_clear (&tmp);
}

/* A recursion, as the inverted tree climbs it: each sample's stack is
 * main, then R (at line 3, 5 or 7) repeated up to 180 times, now and then
 * through A, S or Z (R S R; A's key comes before R's, Z's after), and now
 * and then a leaf T.  R's lines make siblings of one function, so that runs by
 * function go on through parents that are not the node before.  S_FRAME
 * gets S's frame. */
static void
write_recursion (const char *path,
                 GRand      *rand,
                 guint32    *s_frame)
{
  enum { MAIN, R3, R5, R7, S, T, A, Z, N_FUNCS };
  static const char * const names[N_FUNCS] = { "main", "R", "R", "R", "S", "T", "A", "Z" };
  static const int lines[N_FUNCS] = { 1, 3, 5, 7, 20, 30, 40, 50 };
  guint64 ts = 1000000;
  TachWriter *writer = new_writer (path, ts);
  TachError error;
  guint32 frames[N_FUNCS];
  guint32 stack[TACH_MAX_STACK_DEPTH];
  for (guint i = 0; i < N_FUNCS; i++)
    {
      TachFrameInfo info = { "/srv/rec.py", names[i], lines[i], -1, -1, -1, TACH_OPCODE_NONE };

      if (tach_writer_intern_frame (writer, &info, &frames[i], &error) != TACH_OK)
        g_error ("%s", error.message);
    }
  for (guint s = 0; s < 600; s++)
    {
      guint depth = 0, n = g_rand_int_range (rand, 0, 181);
      guint32 status = TACH_STATUS_HAS_GIL | (s % 3 == 0 ? TACH_STATUS_ON_CPU : 0);
      /* Mostly one line, so that by line too there are runs. */
      guint line = g_rand_int_range (rand, 0, 3);

      stack[depth++] = frames[MAIN];
      for (guint k = 0; k < n; k++)
        {
          if (g_rand_int_range (rand, 0, 40) == 0)
            line = g_rand_int_range (rand, 0, 3);
          if (g_rand_int_range (rand, 0, 60) == 0)
            stack[depth++] = frames[g_rand_int_range (rand, 0, 3) == 0 ? S
                                    : g_rand_boolean (rand) ? A : Z];
          stack[depth++] = frames[R3 + line];
        }
      if (g_rand_boolean (rand))
        stack[depth++] = frames[T];
      add_outermost_first (writer, 1 + s % 3, ts += 1000, status, stack, depth);
    }
  if (tach_writer_finish (writer, &error) != TACH_OK)
    g_error ("%s", error.message);
  *s_frame = frames[S];
}

/* The tree of Q made with a second thread is the one one thread makes,
 * node for node, numbered the same; SHARED (a counter of the work two
 * threads did together) must then have grown, when MUST_SHARE. */
static void
assert_same_shared (TvProfileData *data,
                    const TvQuery *q,
                    guint        (*shared) (void),
                    gboolean       must_share)
{
  g_autoptr(TvCallTree) two = NULL;
  g_autoptr(TvCallTree) one = NULL;
  guint before = shared ();

  tv_call_tree_set_thread_min_nodes (0);
  two = tv_call_tree_new (data, q, NULL);
  if (must_share)
    g_assert_cmpuint (shared (), >, before);
  tv_call_tree_set_thread_min_nodes (G_MAXUINT32);
  one = tv_call_tree_new (data, q, NULL);
  tv_call_tree_set_thread_min_nodes (0);
  fixture_assert_same_trees (two, one);
}

/* The same for an inverted tree's climb (climb_shared() in
 * tv-call-tree-invert.c): shared when the tree leaves nodes out, unless
 * the root has fewer than two children to share. */
static void
assert_climb_shared (TvProfileData *data,
                     const TvQuery *q)
{
  g_autoptr(TvCallTree) tree = tv_call_tree_new (data, q, NULL);
  guint n_children;

  tv_call_tree_get_children (tree, TV_ROOT_NODE, &n_children);
  assert_same_shared (data, q, tv_call_tree_get_shared_climbs,
                      q->min_total > 0 && n_children >= 2);
}

/* Cancels CANCELLABLE at the first report of FRACTION or more. */
typedef struct
{
  GCancellable *cancellable;
  double        fraction;
} CancelAt;

static void
cancel_at (double   fraction,
           gpointer user_data)
{
  CancelAt *at = user_data;

  if (fraction >= at->fraction)
    g_cancellable_cancel (at->cancellable);
}

/* Case I of 6 of an inverted tree turned over from the exact tree: the
 * top-down tree whose function table it is given, by function (I < 4)
 * or by line, of the on-CPU samples in case 5 (the function table given
 * is of the same samples). */
static void
climb_case_top (guint    i,
                TvQuery *top_query)
{
  tv_query_init (top_query, i < 4 ? TV_MERGE_FUNCTION : TV_MERGE_LINE);
  if (i == 5)
    tv_state_filter_get_mask (TV_STATE_FILTER_CPU, &top_query->status_mask,
                              &top_query->status_value);
}

/* And the inverted tree, with TOP's function table: thread counts, state
 * counts in odd cases, a threshold in cases 2 and 3. */
static void
climb_case_inverted (guint          i,
                     const TvQuery *top_query,
                     TvCallTree    *top,
                     TvQuery       *q)
{
  *q = *top_query;
  q->inverted = TRUE;
  q->functions_of = top;
  q->count_threads = TRUE;
  q->count_states = i % 2 == 1;
  q->min_total = i / 2 == 1 ? 3 : 0;
}

/* An inverted tree of DATA (whose samples D decodes) turned over from the
 * exact tree, in case I of 6, made afresh and again with the runs
 * (BY_RUNS) or the steps of the first: the two are the same, node for
 * node, and the brute force's; and, in the first case, after a tree
 * cancelled as it turned over. */
static void
assert_kept_climb (TvProfileData *data,
                   const Decoded *d,
                   const guint   *sample_thread,
                   guint          i,
                   gboolean       by_runs)
{
  TvQuery top_query, q;
  g_autoptr(TvCallTree) top = NULL;
  g_autoptr(TvCallTree) fresh = NULL;
  g_autoptr(TvCallTree) again = NULL;
  guint (*reused) (void) = by_runs ? tv_call_tree_get_runs_reused
                                   : tv_call_tree_get_steps_reused;
  guint before;

  climb_case_top (i, &top_query);
  top = tv_call_tree_new (data, &top_query, NULL);
  climb_case_inverted (i, &top_query, top, &q);
  tv_huge_trim ();
  before = reused ();
  fresh = tv_call_tree_new (data, &q, NULL);
  g_assert_cmpuint (reused (), ==, before);
  again = tv_call_tree_new (data, &q, NULL);
  g_assert_cmpuint (reused (), ==, before + 1);
  fixture_assert_same_trees (again, fresh);
  g_assert_cmpuint (tv_call_tree_get_total (again, TV_ROOT_NODE), >, 0);
  /* And against the brute force, made so again. */
  check_query (data, d, sample_thread, by_runs ? "kept runs" : "kept steps", &q);
  g_assert_cmpuint (reused (), >, before + 1);

  /* A tree cancelled as it starts to turn over keeps nothing half made:
   * the next one makes its steps or runs afresh, and keeps them. */
  if (i == 0)
    {
      g_autoptr(GCancellable) cancellable = g_cancellable_new ();
      CancelAt at = { cancellable, 0.55 };
      g_autoptr(TvCallTree) after = NULL;

      tv_huge_trim ();
      before = reused ();
      g_assert_null (tv_call_tree_new_with_progress (data, &q, cancel_at, &at, cancellable));
      g_assert_true (g_cancellable_is_cancelled (cancellable));
      after = tv_call_tree_new (data, &q, NULL);
      g_assert_cmpuint (reused (), ==, before);
      fixture_assert_same_trees (after, fresh);
      g_clear_pointer (&after, tv_call_tree_unref);
      after = tv_call_tree_new (data, &q, NULL);
      g_assert_cmpuint (reused (), ==, before + 1);
    }
}

/* A load of PATH (whose samples D decodes; DATA is a load of it too)
 * that makes ahead what its inverted trees merged by function climb
 * (tv_call_tree_prepare_inverted()), of its tree merged by function
 * when MERGED: not once cancelled, and then every inverted tree by
 * function takes what it made, and is the tree of DATA, made without,
 * and the brute force's.  Trees by line make their own. */
static void
assert_prepared_climb (const char    *path,
                       TvProfileData *data,
                       const Decoded *d,
                       const guint   *sample_thread,
                       gboolean       merged)
{
  g_autoptr(TvProfileData) ahead = fixture_load (path);
  /* Cancelled before it starts, once the leaves are made, once the runs
   * of each node are. */
  static const double cancel_fractions[] = { 0.0, 0.05, 0.5 };
  TvProfileData *of;

  if (merged)
    g_assert_true (tv_profile_data_add_merged (ahead, 1.0, NULL));
  of = merged ? tv_profile_data_get_merged (ahead) : ahead;
  for (guint k = 0; k < G_N_ELEMENTS (cancel_fractions); k++)
    {
      g_autoptr(GCancellable) cancellable = g_cancellable_new ();
      CancelAt at = { cancellable, cancel_fractions[k] };

      if (k == 0)
        g_cancellable_cancel (cancellable);
      tv_huge_trim ();
      g_assert_false (tv_call_tree_prepare_inverted_with_progress (ahead, cancel_at, &at,
                                                                   cancellable));
      g_assert_true (g_cancellable_is_cancelled (cancellable));
      g_assert_null (g_atomic_pointer_get (tv_profile_data_get_prepared (of, TV_PREPARED_LEAVES)));
      g_assert_null (g_atomic_pointer_get (tv_profile_data_get_prepared (of, TV_PREPARED_RUNS)));
    }
  for (guint i = 0; i < 6; i++)
    {
      TvQuery top_query, q;
      g_autoptr(TvCallTree) top = NULL;
      g_autoptr(TvCallTree) top_there = NULL;
      g_autoptr(TvCallTree) here = NULL;
      g_autoptr(TvCallTree) there = NULL;
      guint used;

      climb_case_top (i, &top_query);
      top = tv_call_tree_new (ahead, &top_query, NULL);
      top_there = tv_call_tree_new (data, &top_query, NULL);
      climb_case_inverted (i, &top_query, top, &q);
      /* Nothing is made ahead yet: the cancelled one left nothing. */
      used = tv_call_tree_get_prepared_used ();
      if (i == 0)
        {
          g_autoptr(TvCallTree) before = tv_call_tree_new (ahead, &q, NULL);

          g_assert_cmpuint (tv_call_tree_get_prepared_used (), ==, used);
          /* Made, not taken from what that tree kept. */
          tv_huge_trim ();
          g_assert_true (tv_call_tree_prepare_inverted (ahead, NULL));
          /* Once: a second call finds it made. */
          g_assert_true (tv_call_tree_prepare_inverted (ahead, NULL));
        }
      /* With nothing kept between queries either. */
      tv_huge_trim ();
      here = tv_call_tree_new (ahead, &q, NULL);
      g_assert_cmpuint (tv_call_tree_get_prepared_used (), ==,
                        used + (q.merge == TV_MERGE_FUNCTION));
      q.functions_of = top_there;
      there = tv_call_tree_new (data, &q, NULL);
      fixture_assert_same_trees (here, there);
      g_assert_cmpuint (tv_call_tree_get_total (here, TV_ROOT_NODE), >, 0);
      q.functions_of = top;
      check_query (ahead, d, sample_thread, merged ? "prepared, merged" : "prepared", &q);
    }
}

/* Inverted trees of a deep recursion, where a path climbs runs of one
 * key without being moved (tv-call-tree-invert.c): against the brute
 * force, by every key, with hidden frames, focus, thresholds and detail
 * paths. */
static void
test_invert_runs (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (base_seed);
  FormatTestDir tmp;
  g_autofree guint *sample_thread = NULL;
  g_autoptr(TvProfileData) data = NULL;
  const TvExactTree *tree;
  const guint32 *fkeys;
  guint32 n_far_runs = 0, longest = 0, run = 0, s_frame;
  guint climbs;
  Decoded d;

  format_test_dir_init (&tmp, "tv-model-XXXXXX");
  write_recursion (tmp.path, rand, &s_frame);
  data = fixture_load (tmp.path);
  tree = tv_profile_data_get_tree (data);
  fkeys = tv_profile_data_get_frame_keys (data, TV_MERGE_FUNCTION);
  /* The cases this is for: long runs of one function, and runs through a
   * parent that is not the node before. */
  for (guint32 n = 1; n < tree->n_nodes; n++)
    {
      guint32 p = tv_exact_tree_parent (tree, n);
      gboolean same = p != TV_ROOT_NODE && fkeys[tv_exact_tree_frame (tree, p)]
                                           == fkeys[tv_exact_tree_frame (tree, n)];

      n_far_runs += same && p != n - 1;
      run = same && p == n - 1 ? run + 1 : 0;
      longest = MAX (longest, run);
    }
  g_assert_cmpuint (n_far_runs, >=, 100);
  g_assert_cmpuint (longest, >=, 100);

  decode_file (tmp.path, &d);
  set_context ("recursion");
  sample_thread = check_threads (data, &d);
  check_queries (data, &d, sample_thread, rand, "recursion", 120);
  /* By function and by line, with thresholds that cut runs short, the
   * first pass and the climb in one share and in two (with a second
   * thread). */
  climbs = tv_call_tree_get_shared_climbs ();
  for (guint i = 0; i < 32; i++)
    {
      QueryStore store;
      TvQuery *q = &store.query;

      tv_query_init (q, i % 2 ? TV_MERGE_FUNCTION : TV_MERGE_LINE);
      q->inverted = TRUE;
      q->count_states = q->count_threads = i % 3 == 0;
      q->min_total = i % 16 / 2;
      if (i % 4 == 3)
        {
          /* S hidden: paths climb a node at a time. */
          q->hidden_functions = store.hidden;
          q->n_hidden_functions = 1;
          store.hidden[0] = fkeys[s_frame];
        }
      tv_call_tree_set_thread_min_nodes (i < 16 ? G_MAXUINT32 : 0);
      check_query (data, &d, sample_thread, "recursion", q);
      if (i >= 16)
        {
          TvQuery top_query = *q, from_exact = *q;
          g_autoptr(TvCallTree) top = NULL;
          g_autoptr(TvCallTree) turned = NULL;
          guint32 path[3], n_path = 0, node = TV_ROOT_NODE;

          /* Up the view a node at a time, and up the exact tree by runs
           * with the top-down tree's function table. */
          assert_climb_shared (data, q);
          top_query.inverted = FALSE;
          top_query.min_total = 0;
          top = tv_call_tree_new (data, &top_query, NULL);
          from_exact.functions_of = top;
          assert_climb_shared (data, &from_exact);
          /* And with a detail path, down the first children. */
          turned = tv_call_tree_new (data, &from_exact, NULL);
          while (n_path < G_N_ELEMENTS (path))
            {
              guint n_children;
              const guint32 *children = tv_call_tree_get_children (turned, node, &n_children);

              if (n_children == 0)
                break;
              node = children[0];
              path[n_path++] = tv_call_tree_get_key (turned, node);
            }
          from_exact.detail_path = path;
          from_exact.n_detail_path = n_path;
          from_exact.detail_min_total = 1;
          assert_climb_shared (data, &from_exact);
        }
    }
  g_assert_cmpuint (tv_call_tree_get_shared_climbs (), >, climbs);

  /* An inverted tree turned over from the exact tree makes its runs once;
   * the next ones take them back (tv-call-tree-invert.c) and find their
   * paths' leaves among those of the profile's runs, fewer than a quarter
   * of the nodes here.  A tree made so is the one made afresh. */
  {
    guint64 n_runs = 0;

    for (guint t = 0; t < tv_profile_data_get_n_threads (data); t++)
      n_runs += tv_profile_data_get_thread (data, t)->n_runs;
    g_assert_cmpuint (n_runs, <, tree->n_nodes / 4);
  }
  for (guint i = 0; i < 6; i++)
    assert_kept_climb (data, &d, sample_thread, i, TRUE);
  /* What the inverted trees merged by function climb, made ahead, on the
   * load and on its tree merged by function. */
  for (guint merged = 0; merged < 2; merged++)
    assert_prepared_climb (tmp.path, data, &d, sample_thread, merged);
  /* Paths that climb a node at a time keep their steps the same way;
   * these threads' stacks are not recursions. */
  {
    g_autofree char *path = fixture_data_path ("valid", "rec_threads.tach");
    g_autoptr(TvProfileData) flat = fixture_load (path);
    g_autofree guint *flat_thread = NULL;
    Decoded fd;

    decode_file (path, &fd);
    flat_thread = check_threads (flat, &fd);
    for (guint i = 0; i < 6; i++)
      assert_kept_climb (flat, &fd, flat_thread, i, FALSE);
    decoded_clear (&fd);
  }

  /* A top-down tree that leaves nodes out, its function table read off
   * the exact tree by two threads (FunctionsShare), is the one thread's.
   * The random profiles come across it only now and then: most of their
   * queries hide frames, which one thread reads alone. */
  for (guint i = 0; i < 4; i++)
    {
      TvQuery q;

      tv_query_init (&q, i % 2 ? TV_MERGE_FUNCTION : TV_MERGE_LINE);
      q.min_total = 1 + i / 2;
      q.count_threads = TRUE;
      assert_same_shared (data, &q, tv_call_tree_get_shared_tables, TRUE);
    }
  tv_call_tree_set_thread_min_nodes (1u << 20);
  decoded_clear (&d);
  format_test_dir_clear (&tmp);
}

/* The model's frames are the reader's: every field of every frame, and
 * nothing past the table. */
static void
test_frames (gconstpointer user_data)
{
  g_autoptr(TvProfileData) data = fixture_load_corpus (user_data);
  TachReader *reader = tv_profile_data_get_reader (data);
  guint32 n = tach_reader_get_n_frames (reader);
  TvFrameLocation loc;

  g_assert_cmpuint (tv_profile_data_get_n_frames (data), ==, n);
  for (guint32 i = 0; i < n; i++)
    {
      const TachFrame *f = tach_reader_get_frame (reader, i);

      g_assert_true (tv_profile_data_get_frame_location (data, i, &loc));
      g_assert_cmpint (loc.line, ==, f->lineno);
      g_assert_cmpint (loc.end_line, ==, f->end_lineno);
      g_assert_cmpint (loc.column, ==, f->column);
      g_assert_cmpint (loc.end_column, ==, f->end_column);
      g_assert_cmpuint (loc.opcode, ==, f->opcode);
      g_assert_cmpstr (tv_profile_data_get_filename (data, i), ==,
                       tach_reader_get_string (reader, f->filename, NULL));
    }
  loc.line = 7;
  g_assert_false (tv_profile_data_get_frame_location (data, n, &loc));
  g_assert_cmpint (loc.line, ==, TV_LOCATION_NONE);
  g_assert_cmpint (loc.end_column, ==, TV_LOCATION_NONE);
  g_assert_cmpuint (loc.opcode, ==, TV_OPCODE_NONE);
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(GPtrArray) names = NULL;
  int ret;

  g_test_init (&argc, &argv, NULL);

  base_seed = fixture_seed ();

  fixture_add_numbered_tests ("/model/random", N_ITERATIONS, test_random);
  g_test_add_func ("/model/random/coverage", test_random_coverage);
  fixture_add_numbered_tests ("/model/counts/random", N_COUNTS_ITERATIONS, test_counts_random);

  names = fixture_list_corpus ();
  fixture_add_corpus_tests (names, "/model/corpus", test_corpus);
  fixture_add_corpus_tests (names, "/model/counts/corpus", test_counts_corpus);
  fixture_add_corpus_tests (names, "/model/frames", test_frames);
  g_test_add_func ("/model/corpus/compression_type_7.tach", test_corpus_refused);
  g_test_add_func ("/model/load/too-many-samples", test_too_many_samples);
  g_test_add_func ("/model/data/empty-thread", test_empty_thread);
  g_test_add_func ("/model/tree/progress", test_tree_progress);
  g_test_add_data_func ("/model/tree/far", GINT_TO_POINTER (FAR_NARROW), test_far_tree);
  g_test_add_data_func ("/model/tree/far-wide-frames", GINT_TO_POINTER (FAR_WIDE), test_far_tree);
  g_test_add_data_func ("/model/tree/far-roots", GINT_TO_POINTER (FAR_WIDE_ROOTS), test_far_tree);
  g_test_add_func ("/model/tree/invert-runs", test_invert_runs);
  g_test_add_func ("/model/view-state/ranges", test_view_state_ranges);
  g_test_add_func ("/model/memory/huge-pages", test_huge_pages);
  g_test_add_func ("/model/memory/huge-reuse", test_huge_reuse);
  g_test_add_func ("/model/memory/huge-keep", test_huge_keep);
  g_test_add_func ("/model/memory/huge-adopt", test_huge_adopt);
  g_test_add_func ("/model/memory/heap-kept", test_heap_kept);
  g_test_add_func ("/model/memory/kept-weights", test_kept_weights);

  ret = g_test_run ();
  g_clear_pointer (&context, g_free);
  return ret;
}
