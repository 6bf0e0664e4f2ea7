/* test-diff.c: TvDiff against injected changes, noise and brute force
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Profiles are written at test time by the format library's writer from a
 * "program": functions, and stacks of them with a weight each.  A profile
 * either holds exactly the samples the weights say (counts proportional to
 * the weights, in shuffled order) or random draws from them.  The NEW side
 * interns its frames in another order, after frames no sample uses, so its
 * string and frame tables never line up with BASE's.
 *
 * /diff/p-value/...      the test itself: known values, brute-force
 *                        binomial sums, the normal tail for huge counts,
 *                        and its false-positive rate and power on
 *                        simulated counts;
 * /diff/injected/...     one function 20 % slower, one new, one path
 *                        vanished: with exact counts the diff flags
 *                        exactly the nodes and functions whose counts
 *                        changed, with the right sizes; with random draws
 *                        it still finds them and little else;
 * /diff/noise            two draws of one distribution (50k samples each,
 *                        ten seeds): at 99 % confidence each node and
 *                        measure is called significant with probability at
 *                        most 1 %, and the count stays within that;
 * /diff/map/...          node and key maps against paths of frame contents
 *                        compared as strings, top-down and inverted, with
 *                        stacks that vanished and appeared;
 * /diff/normalization/.. by time against by share: different sampling
 *                        rates, a longer run, a stats block's rate;
 * /diff/comparability/.. the warnings on the corpus mode files, on
 *                        identical profiles, and on written ones: moved
 *                        lines under callers of any depth, and where each
 *                        side's time per sample comes from, if anywhere;
 * /diff/cancel           a cancelled diff is NULL;
 * /diff/threads          diffs made on two threads at once.
 *
 * The random seed is printed; TACH_SEED replays a run.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>
#include <glib/gstdio.h>

#include "model-fixture.h"
#include "tv-diff.h"

#define CONFIDENCE      0.99
#define ALPHA           (1 - CONFIDENCE)
#define MAX_DEPTH       12
#define NOISE_SEEDS     10
#define NOISE_SAMPLES   50000

static guint32 base_seed;
static char *tmp_dir;

/* ------------------------------------------------------------------------ */
/* Programs and profiles                                                     */
/* ------------------------------------------------------------------------ */

typedef struct
{
  const char *file;
  const char *name;
  gint32      line;
} Func;

/* A stack, root first: function indices and a line variant (0 to 2) of
 * each frame. */
typedef struct
{
  guint  depth;
  guint  fn[MAX_DEPTH];
  guint  variant[MAX_DEPTH];
  double weight;
} Stack;

typedef struct
{
  const Func  *functions;
  guint        n_functions;
  const Stack *stacks;
  guint        n_stacks;
} Program;

typedef struct
{
  guint64  n_samples;
  gboolean exact;            /* counts proportional to the weights */
  guint32  seed;             /* draws, sample order, intern order */
  gboolean reorder;          /* intern frames shuffled, after decoys */
  guint64  interval_us;
  guint32  mode_raw;
  guint8   python_minor;     /* 0: 3.15 */
  gboolean stats;
  double   stats_rate;       /* 0: 1e6 / interval */
  gboolean no_rate;          /* a stats block with a rate of 0 */
  gboolean has_missed;
  double   missed;
  gint32   line_shift;       /* added to every line */
} WriteSpec;

static void
write_spec_init (WriteSpec *spec,
                 guint64    n_samples,
                 guint32    seed)
{
  memset (spec, 0, sizeof *spec);
  spec->n_samples = n_samples;
  spec->exact = TRUE;
  spec->seed = seed;
  spec->interval_us = 1000;
  spec->mode_raw = 1;           /* wall */
  spec->stats = TRUE;
}

/* Samples per stack of an exact profile: the largest remainders get the
 * samples the floors leave over. */
static guint64 *
exact_counts (const Program *program,
              guint64        n_samples)
{
  guint64 *counts = g_new0 (guint64, program->n_stacks);
  double *rest = g_new (double, program->n_stacks);
  double sum = 0;
  guint64 given = 0;

  for (guint i = 0; i < program->n_stacks; i++)
    sum += program->stacks[i].weight;
  for (guint i = 0; i < program->n_stacks; i++)
    {
      double share = program->stacks[i].weight / sum * (double) n_samples;

      counts[i] = (guint64) floor (share + 1e-9);
      rest[i] = share - (double) counts[i];
      given += counts[i];
    }
  while (given < n_samples)
    {
      guint best = 0;

      for (guint i = 1; i < program->n_stacks; i++)
        if (rest[i] > rest[best])
          best = i;
      counts[best]++;
      rest[best] = -1;
      given++;
    }
  g_free (rest);
  return counts;
}

static guint32
intern (TachWriter    *writer,
        const char    *file,
        const char    *name,
        gint32         line)
{
  TachFrameInfo info = { file, name, line, -1, -1, -1, TACH_OPCODE_NONE };
  TachError error;
  guint32 index;

  if (tach_writer_intern_frame (writer, &info, &index, &error) != TACH_OK)
    g_error ("intern: %s", error.message);
  return index;
}

/* Writes PROGRAM as SPEC says.  COUNTS_OUT, if not NULL, gets the samples
 * of each stack. */
static char *
write_profile (const char      *name,
               const Program   *program,
               const WriteSpec *spec,
               guint64        **counts_out)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (spec->seed);
  char *path = g_build_filename (tmp_dir, name, NULL);
  TachWriterOptions options = { 0 };
  TachWriter *writer = NULL;
  TachError error;
  guint n_frames = program->n_functions * 3;
  g_autofree guint32 *frames = g_new (guint32, n_frames);
  g_autofree guint *order = g_new (guint, n_frames);
  g_autofree gboolean *used = g_new0 (gboolean, n_frames);
  g_autofree guint64 *counts = NULL;
  g_autofree guint *sequence = NULL;
  guint64 ts = 1000000;

  options.sample_interval_us = spec->interval_us;
  options.start_time_us = ts;
  options.mode_raw = spec->mode_raw;
  options.python_major = 3;
  options.python_minor = spec->python_minor ? spec->python_minor : 15;
  if (tach_writer_new (path, &options, &writer, &error) != TACH_OK)
    g_error ("writer: %s", error.message);

  /* Every (function, variant) frame, in order or shuffled after decoys
   * that no sample uses. */
  for (guint i = 0; i < n_frames; i++)
    order[i] = i;
  if (spec->reorder)
    {
      for (guint i = n_frames; i > 1; i--)
        {
          guint j = g_rand_int_range (rand, 0, i), t = order[i - 1];

          order[i - 1] = order[j];
          order[j] = t;
        }
      intern (writer, "/decoy/never.py", "never_called", 7);
      intern (writer, program->functions[0].file, "not_main", 1);
    }
  for (guint i = 0; i < program->n_stacks; i++)
    for (guint d = 0; d < program->stacks[i].depth && program->stacks[i].weight > 0; d++)
      used[program->stacks[i].fn[d] * 3 + program->stacks[i].variant[d]] = TRUE;
  for (guint i = 0; i < n_frames; i++)
    {
      const Func *f = &program->functions[order[i] / 3];

      /* As CPython, only the frames that samples use. */
      if (used[order[i]])
        frames[order[i]] = intern (writer, f->file, f->name,
                                   f->line + (gint32) (order[i] % 3) * 10 + spec->line_shift);
    }

  /* Which stack each sample takes. */
  sequence = g_new (guint, MAX (spec->n_samples, 1));
  if (spec->exact)
    {
      guint64 s = 0;

      counts = exact_counts (program, spec->n_samples);
      for (guint i = 0; i < program->n_stacks; i++)
        for (guint64 c = 0; c < counts[i]; c++)
          sequence[s++] = i;
      for (guint64 i = spec->n_samples; i > 1; i--)
        {
          guint64 j = (guint64) g_rand_int_range (rand, 0, (gint32) i);
          guint t = sequence[i - 1];

          sequence[i - 1] = sequence[j];
          sequence[j] = t;
        }
    }
  else
    {
      g_autofree double *cumulative = g_new (double, program->n_stacks);
      double sum = 0;

      counts = g_new0 (guint64, program->n_stacks);
      for (guint i = 0; i < program->n_stacks; i++)
        cumulative[i] = sum += program->stacks[i].weight;
      for (guint64 s = 0; s < spec->n_samples; s++)
        {
          double x = g_rand_double (rand) * sum;
          guint lo = 0, hi = program->n_stacks - 1;

          while (lo < hi)
            {
              guint mid = (lo + hi) / 2;

              if (cumulative[mid] <= x)
                lo = mid + 1;
              else
                hi = mid;
            }
          sequence[s] = lo;
          counts[lo]++;
        }
    }

  for (guint64 s = 0; s < spec->n_samples; s++)
    {
      const Stack *stack = &program->stacks[sequence[s]];
      guint32 innermost_first[MAX_DEPTH];

      for (guint d = 0; d < stack->depth; d++)
        innermost_first[stack->depth - 1 - d] = frames[stack->fn[d] * 3 + stack->variant[d]];
      if (tach_writer_add_sample (writer, 42, 0, ts, TACH_STATUS_HAS_GIL | TACH_STATUS_ON_CPU,
                                  innermost_first, stack->depth, &error) != TACH_OK)
        g_error ("add_sample: %s", error.message);
      ts += spec->interval_us;
    }

  if (spec->stats)
    {
      TachStats stats = { 0 };

      stats.block_size = 56;
      if (!spec->no_rate)
        {
          stats.sample_rate = spec->stats_rate > 0 ? spec->stats_rate : 1e6 / spec->interval_us;
          stats.duration_sec = (double) spec->n_samples / stats.sample_rate;
        }
      stats.has_missed_samples = spec->has_missed;
      stats.missed_samples = spec->missed;
      if (tach_writer_set_stats (writer, &stats, &error) != TACH_OK)
        g_error ("stats: %s", error.message);
    }
  if (tach_writer_finish (writer, &error) != TACH_OK)
    g_error ("finish: %s", error.message);

  if (counts_out != NULL)
    *counts_out = g_steal_pointer (&counts);
  return path;
}

static TvDiff *
make_diff (TvProfileData       *base,
           TvProfileData       *new_data,
           TvMergeKey           merge,
           gboolean             inverted,
           TvDiffNormalization  normalization)
{
  g_autoptr(TvCallTree) a = fixture_tree (base, merge, inverted, FALSE);
  g_autoptr(TvCallTree) b = fixture_tree (new_data, merge, inverted, FALSE);
  TvDiffOptions options;
  TvDiff *diff;

  tv_diff_options_init (&options);
  g_assert_cmpfloat (options.confidence, ==, CONFIDENCE);
  options.normalization = normalization;
  diff = tv_diff_new (a, b, &options, NULL);
  g_assert_nonnull (diff);
  return diff;
}

/* ------------------------------------------------------------------------ */
/* Brute force                                                               */
/* ------------------------------------------------------------------------ */

/* What the merge key compares of a frame, as text. */
static char *
frame_text (TvProfileData *data,
            TvMergeKey     merge,
            guint32        frame)
{
  const TachFrame *f = tach_reader_get_frame (tv_profile_data_get_reader (data), frame);
  GString *s = g_string_new (NULL);

  g_string_append_printf (s, "%s\x1f%s", tv_profile_data_get_filename (data, frame),
                          tv_profile_data_get_funcname (data, frame));
  if (merge != TV_MERGE_FUNCTION)
    g_string_append_printf (s, "\x1f%d", f->lineno);
  if (merge == TV_MERGE_INSTRUCTION || merge == TV_MERGE_FRAME)
    g_string_append_printf (s, "\x1f%d\x1f%d", f->column, f->opcode);
  if (merge == TV_MERGE_FRAME)
    g_string_append_printf (s, "\x1f%d\x1f%d", f->end_lineno, f->end_column);
  return g_string_free (s, FALSE);
}

/* The path of every node as text, from the root. */
static GPtrArray *
node_paths (TvCallTree *tree)
{
  TvProfileData *data = tv_call_tree_get_data (tree);
  TvMergeKey merge = tv_call_tree_get_merge (tree);
  guint32 n_nodes = tv_call_tree_get_n_nodes (tree);
  GPtrArray *paths = g_ptr_array_new_full (n_nodes, g_free);

  g_ptr_array_add (paths, g_strdup (""));
  for (guint32 n = 1; n < n_nodes; n++)
    {
      g_autofree char *text = frame_text (data, merge, tv_call_tree_get_frame (tree, n));
      const char *parent = g_ptr_array_index (paths, tv_call_tree_get_parent (tree, n));

      g_assert_cmpuint (tv_call_tree_get_parent (tree, n), <, n);
      g_ptr_array_add (paths, g_strconcat (parent, "\x1e", text, NULL));
    }
  return paths;
}

static GHashTable *
index_paths (GPtrArray *paths)
{
  GHashTable *table = g_hash_table_new (g_str_hash, g_str_equal);

  for (guint i = 0; i < paths->len; i++)
    {
      g_assert_false (g_hash_table_contains (table, paths->pdata[i]));
      g_hash_table_insert (table, paths->pdata[i], GUINT_TO_POINTER (i + 1));
    }
  return table;
}

static guint32
find_path (GHashTable *table,
           const char *path)
{
  gpointer value = g_hash_table_lookup (table, path);

  return value != NULL ? GPOINTER_TO_UINT (value) - 1 : TV_NODE_NONE;
}

/* The measure as TvDiff must have made it from the counts. */
static void
check_measure (TvDiff              *diff,
               const TvDiffMeasure *m,
               guint64              base_samples,
               guint64              new_samples)
{
  double w1 = tv_diff_get_weight (diff, TV_DIFF_SIDE_BASE);
  double w2 = tv_diff_get_weight (diff, TV_DIFF_SIDE_NEW);
  double p = tv_diff_p_value (base_samples, w1, new_samples, w2);

  g_assert_cmpuint (m->base_samples, ==, base_samples);
  g_assert_cmpuint (m->new_samples, ==, new_samples);
  g_assert_cmpfloat_with_epsilon (m->base_value, base_samples * w1, 1e-12);
  g_assert_cmpfloat_with_epsilon (m->new_value, new_samples * w2, 1e-12);
  g_assert_cmpfloat_with_epsilon (m->delta, m->new_value - m->base_value, 1e-12);
  if (base_samples > 0)
    g_assert_cmpfloat_with_epsilon (m->relative, m->delta / m->base_value, 1e-9);
  else if (new_samples > 0)
    g_assert_true (isinf (m->relative) && m->relative > 0);
  else
    g_assert_cmpfloat (m->relative, ==, 0);
  g_assert_cmpfloat (m->p_value, ==, p);
  g_assert_true (m->significant == (p < ALPHA));
  if (!m->significant)
    g_assert_cmpint (m->change, ==, TV_DIFF_NEUTRAL);
  else
    g_assert_cmpint (m->change, ==, m->delta > 0 ? TV_DIFF_SLOWER : TV_DIFF_FASTER);
}

/* Every node map, both ways, and the unmatched nodes against the paths;
 * every node's measures against its counts.  Returns the nodes matched. */
static guint
check_mapping (TvDiff *diff)
{
  TvCallTree *trees[2] = {
    tv_diff_get_tree (diff, TV_DIFF_SIDE_BASE),
    tv_diff_get_tree (diff, TV_DIFF_SIDE_NEW),
  };
  g_autoptr(GPtrArray) paths_base = node_paths (trees[0]);
  g_autoptr(GPtrArray) paths_new = node_paths (trees[1]);
  GPtrArray *paths[2] = { paths_base, paths_new };
  g_autoptr(GHashTable) index_base = index_paths (paths_base);
  g_autoptr(GHashTable) index_new = index_paths (paths_new);
  GHashTable *index[2] = { index_base, index_new };
  guint matched = 0;

  for (TvDiffSide side = TV_DIFF_SIDE_BASE; side <= TV_DIFF_SIDE_NEW; side++)
    {
      TvDiffSide other = 1 - side;
      TvCallTree *tree = trees[side];
      guint32 n_nodes = tv_call_tree_get_n_nodes (tree);
      g_autofree guint64 *unmatched = g_new0 (guint64, n_nodes);
      g_autoptr(GHashTable) tops = g_hash_table_new (NULL, NULL);
      const guint32 *listed;
      guint n_listed;

      for (guint32 n = 0; n < n_nodes; n++)
        {
          guint32 expected = find_path (index[other], paths[side]->pdata[n]);
          guint32 got = tv_diff_map_node (diff, side, n);
          TvDiffNode node;

          g_assert_cmpuint (got, ==, expected);
          if (got != TV_NODE_NONE)
            {
              g_assert_cmpuint (tv_diff_map_node (diff, other, got), ==, n);
              matched++;
            }

          tv_diff_get_node (diff, side, n, &node);
          g_assert_cmpuint (side == TV_DIFF_SIDE_BASE ? node.base_node : node.new_node, ==, n);
          g_assert_cmpuint (side == TV_DIFF_SIDE_BASE ? node.new_node : node.base_node, ==, got);
          {
            guint32 b = node.base_node, w = node.new_node;

            check_measure (diff, &node.total,
                           b != TV_NODE_NONE ? tv_call_tree_get_total (trees[0], b) : 0,
                           w != TV_NODE_NONE ? tv_call_tree_get_total (trees[1], w) : 0);
            check_measure (diff, &node.self,
                           b != TV_NODE_NONE ? tv_call_tree_get_self (trees[0], b) : 0,
                           w != TV_NODE_NONE ? tv_call_tree_get_self (trees[1], w) : 0);
          }

          /* The topmost unmatched nodes, and what they add to their
           * ancestors. */
          if (got == TV_NODE_NONE)
            {
              guint32 parent = tv_call_tree_get_parent (tree, n);

              unmatched[n] += tv_call_tree_get_total (tree, n);
              if (tv_diff_map_node (diff, side, parent) != TV_NODE_NONE)
                {
                  g_hash_table_add (tops, GUINT_TO_POINTER (n));
                  for (guint32 a = parent; a != TV_NODE_NONE; a = tv_call_tree_get_parent (tree, a))
                    unmatched[a] += tv_call_tree_get_total (tree, n);
                }
            }
        }
      g_assert_cmpuint (tv_diff_map_node (diff, side, 0), ==, 0);

      listed = tv_diff_get_unmatched (diff, side, &n_listed);
      g_assert_cmpuint (n_listed, ==, g_hash_table_size (tops));
      for (guint i = 0; i < n_listed; i++)
        {
          g_assert_true (g_hash_table_contains (tops, GUINT_TO_POINTER (listed[i])));
          if (i > 0)
            g_assert_cmpuint (tv_call_tree_get_total (tree, listed[i - 1]), >=,
                              tv_call_tree_get_total (tree, listed[i]));
        }
      for (guint32 n = 0; n < n_nodes; n++)
        g_assert_cmpuint (tv_diff_get_unmatched_total (diff, side, n), ==, unmatched[n]);
    }
  return matched;
}

/* Key maps against the keys' texts. */
static void
check_key_maps (TvDiff *diff)
{
  TvProfileData *data[2] = {
    tv_call_tree_get_data (tv_diff_get_tree (diff, TV_DIFF_SIDE_BASE)),
    tv_call_tree_get_data (tv_diff_get_tree (diff, TV_DIFF_SIDE_NEW)),
  };
  TvMergeKey merge = tv_call_tree_get_merge (tv_diff_get_tree (diff, TV_DIFF_SIDE_BASE));
  TvMergeKey merges[2] = { merge, TV_MERGE_FUNCTION };

  for (guint i = 0; i < 2; i++)
    for (TvDiffSide side = TV_DIFF_SIDE_BASE; side <= TV_DIFF_SIDE_NEW; side++)
      {
        TvMergeKey m = merges[i];
        g_autoptr(GHashTable) texts = g_hash_table_new_full (g_str_hash, g_str_equal,
                                                             g_free, NULL);
        guint32 n_other = tv_profile_data_get_n_keys (data[1 - side], m);

        for (guint32 k = 0; k < n_other; k++)
          g_hash_table_insert (texts,
                               frame_text (data[1 - side], m,
                                           tv_profile_data_get_key_frame (data[1 - side], m, k)),
                               GUINT_TO_POINTER (k + 1));
        for (guint32 k = 0; k < tv_profile_data_get_n_keys (data[side], m); k++)
          {
            g_autofree char *text = frame_text (data[side], m,
                                                tv_profile_data_get_key_frame (data[side], m, k));
            guint32 expected = GPOINTER_TO_UINT (g_hash_table_lookup (texts, text)) - 1;
            guint32 got = i == 0 ? tv_diff_map_key (diff, side, k)
                                 : tv_diff_map_function (diff, side, k);

            g_assert_cmpuint (got, ==, expected);
          }
      }
}

/* ------------------------------------------------------------------------ */
/* The test itself                                                           */
/* ------------------------------------------------------------------------ */

/* Two-sided p-value by summing every term of the binomial. */
static double
brute_p_value (guint64 x1,
               double  w1,
               guint64 x2,
               double  w2)
{
  guint64 m = x1 + x2;
  double q = w1 / (w1 + w2);
  double lower = 0, upper = 0;

  for (guint64 k = 0; k <= m; k++)
    {
      double pmf = exp (lgamma (m + 1.0) - lgamma (k + 1.0) - lgamma (m - k + 1.0)
                        + k * log (q) + (m - k) * log1p (-q));

      if (k <= x2)
        lower += pmf;
      if (k >= x2)
        upper += pmf;
    }
  return MIN (1.0, 2 * ((double) x2 >= m * q ? upper : lower));
}

static void
test_p_value_known (void)
{
  /* 9 of 10 at q = 1/2: P(X >= 9) = 11/1024, doubled. */
  g_assert_cmpfloat_with_epsilon (tv_diff_p_value (1, 1, 9, 1), 22.0 / 1024, 1e-12);
  g_assert_cmpfloat_with_epsilon (tv_diff_p_value (9, 1, 1, 1), 22.0 / 1024, 1e-12);
  /* 10 of 10: 2 / 1024. */
  g_assert_cmpfloat_with_epsilon (tv_diff_p_value (0, 3, 10, 3), 2.0 / 1024, 1e-12);
  g_assert_cmpfloat (tv_diff_p_value (5, 1, 5, 1), ==, 1);
  g_assert_cmpfloat (tv_diff_p_value (0, 1, 0, 1), ==, 1);
  /* Only the ratio of the weights matters. */
  g_assert_cmpfloat_with_epsilon (tv_diff_p_value (30, 2, 55, 1),
                                  tv_diff_p_value (30, 0.002, 55, 0.001), 1e-12);
  /* Twice the weight per sample: 30 of BASE equal 60 of NEW. */
  g_assert_cmpfloat (tv_diff_p_value (30, 2, 60, 1), ==, 1);
  /* Nothing to test. */
  g_assert_cmpfloat (tv_diff_p_value (10, 0, 3, 1), ==, 1);
  g_assert_cmpfloat (tv_diff_p_value (10, 1, 3, NAN), ==, 1);
  g_assert_cmpfloat (tv_diff_p_value (10, INFINITY, 3, 1), ==, 1);
}

static void
test_p_value_brute (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (base_seed);

  for (guint i = 0; i < 3000; i++)
    {
      guint64 x1 = g_rand_int_range (rand, 0, i < 1000 ? 12 : 400);
      guint64 x2 = g_rand_int_range (rand, 0, i < 1000 ? 12 : 400);
      double w1 = g_rand_double_range (rand, 0.1, 3);
      double w2 = i % 3 == 0 ? w1 : g_rand_double_range (rand, 0.1, 3);
      double got, expected;

      if (x1 + x2 == 0)
        continue;
      got = tv_diff_p_value (x1, w1, x2, w2);
      expected = brute_p_value (x1, w1, x2, w2);
      if (fabs (got - expected) > 1e-9 * MAX (expected, 1e-300) && fabs (got - expected) > 1e-14)
        g_error ("p (%" G_GUINT64_FORMAT ", %g, %" G_GUINT64_FORMAT ", %g) = %.17g, "
                 "brute force %.17g", x1, w1, x2, w2, got, expected);
    }
}

/* Past a variance of 4e6 the normal tail takes over: it must agree with
 * the exact sum just below. */
static void
test_p_value_huge (void)
{
  for (guint d = 0; d <= 12000; d += 1500)
    {
      /* m q (1 - q) = 4e6 exactly (exact sums) and a little more. */
      double exact = tv_diff_p_value (8000000 - d, 1, 8000000 + d, 1);
      double normal = tv_diff_p_value (8000002 - d, 1, 8000002 + d, 1);

      g_test_message ("d %u: exact %.6g, normal %.6g", d, exact, normal);
      if (exact > 1e-12)
        g_assert_cmpfloat (fabs (exact - normal), <, 0.02 * exact);
    }
  g_assert_cmpfloat (tv_diff_p_value (500000000, 1, 500000000, 1), ==, 1);
  g_assert_cmpfloat (tv_diff_p_value (500000000, 1, 500200000, 1), <, 1e-6);
  g_assert_cmpfloat (tv_diff_p_value (500000000, 1, 500010000, 1), >, 0.3);
}

static guint64
draw_binomial (GRand  *rand,
               guint   n,
               double  p)
{
  guint64 x = 0;

  for (guint i = 0; i < n; i++)
    x += g_rand_double (rand) < p;
  return x;
}

/* The rate of false positives the test promises, and its power: counts of
 * a node with a 10 % share in 1000 samples on each side. */
static void
test_p_value_calibration (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (base_seed + 1);
  const guint reps = 5000;
  guint false_positives = 0, detected = 0;
  double rate;

  for (guint i = 0; i < reps; i++)
    {
      guint64 x1 = draw_binomial (rand, 1000, 0.1);
      guint64 x2 = draw_binomial (rand, 1000, 0.1);
      guint64 y2 = draw_binomial (rand, 1000, 0.18);

      false_positives += tv_diff_p_value (x1, 1, x2, 1) < ALPHA;
      detected += tv_diff_p_value (x1, 1, y2, 1) < ALPHA;
    }
  rate = (double) false_positives / reps;
  g_test_message ("false positives %u of %u (%.4f), detected %u of %u",
                  false_positives, reps, rate, detected, reps);
  /* At most alpha, give or take four standard errors of the estimate;
   * not so conservative that the test never fires. */
  g_assert_cmpfloat (rate, <=, ALPHA + 4 * sqrt (ALPHA * (1 - ALPHA) / reps));
  g_assert_cmpfloat (rate, >=, 0.2 * ALPHA);
  g_assert_cmpuint (detected, >=, reps * 9 / 10);
}

/* ------------------------------------------------------------------------ */
/* Injected changes                                                          */
/* ------------------------------------------------------------------------ */

enum
{
  F_MAIN, F_RUN, F_PARSE, F_HELPER, F_COMPUTE, F_ENCODE, F_LOG, F_IO, F_LEGACY, F_FRESH,
  N_INJECTED_FUNCTIONS
};

static const Func injected_functions[] = {
  { "/srv/app/main.py", "main", 1 },
  { "/srv/app/main.py", "run", 10 },
  { "/srv/app/parse.py", "parse", 5 },
  { "/srv/app/util.py", "helper", 3 },
  { "/srv/app/compute.py", "compute", 20 },
  { "/srv/app/encode.py", "encode", 7 },
  { "/srv/app/log.py", "log", 2 },
  { "/srv/app/io.py", "wait_for_io", 12 },
  { "/srv/app/legacy.py", "legacy", 40 },
  { "/srv/app/fresh.py", "fresh", 1 },
};

#define S1(a)          1, { a }, { 0 }
#define S2(a, b)       2, { a, b }, { 0 }
#define S3(a, b, c)    3, { a, b, c }, { 0, 1, 0 }
#define S4(a, b, c, d) 4, { a, b, c, d }, { 0, 1, 0, 2 }

/* Per mille of BASE; NEW: compute's own time 20 % more, legacy gone, fresh
 * new, and the run as long as before. */
static const Stack injected_base[] = {
  { S1 (F_MAIN), 50 },
  { S3 (F_MAIN, F_RUN, F_PARSE), 200 },
  { S4 (F_MAIN, F_RUN, F_PARSE, F_HELPER), 100 },
  { S3 (F_MAIN, F_RUN, F_COMPUTE), 100 },
  { S4 (F_MAIN, F_RUN, F_COMPUTE, F_HELPER), 50 },
  { S2 (F_MAIN, F_ENCODE), 150 },
  { S3 (F_MAIN, F_ENCODE, F_HELPER), 50 },
  { S2 (F_MAIN, F_LOG), 100 },
  { S2 (F_MAIN, F_IO), 150 },
  { S3 (F_MAIN, F_RUN, F_LEGACY), 50 },
};

static const Stack injected_new[] = {
  { S1 (F_MAIN), 50 },
  { S3 (F_MAIN, F_RUN, F_PARSE), 200 },
  { S4 (F_MAIN, F_RUN, F_PARSE, F_HELPER), 100 },
  { S3 (F_MAIN, F_RUN, F_COMPUTE), 120 },
  { S4 (F_MAIN, F_RUN, F_COMPUTE, F_HELPER), 50 },
  { S2 (F_MAIN, F_ENCODE), 150 },
  { S3 (F_MAIN, F_ENCODE, F_HELPER), 50 },
  { S2 (F_MAIN, F_LOG), 100 },
  { S2 (F_MAIN, F_IO), 150 },
  { S3 (F_MAIN, F_RUN, F_FRESH), 30 },
};

static const Program program_base = {
  injected_functions, N_INJECTED_FUNCTIONS, injected_base, G_N_ELEMENTS (injected_base),
};
static const Program program_new = {
  injected_functions, N_INJECTED_FUNCTIONS, injected_new, G_N_ELEMENTS (injected_new),
};

/* Self and total of every function of PROGRAM, from the stack counts. */
static void
function_counts (const Program *program,
                 const guint64 *counts,
                 guint64       *self,
                 guint64       *total)
{
  memset (self, 0, program->n_functions * sizeof (guint64));
  memset (total, 0, program->n_functions * sizeof (guint64));
  for (guint i = 0; i < program->n_stacks; i++)
    {
      const Stack *s = &program->stacks[i];
      gboolean seen[64] = { FALSE };

      self[s->fn[s->depth - 1]] += counts[i];
      for (guint d = 0; d < s->depth; d++)
        if (!seen[s->fn[d]])
          {
            seen[s->fn[d]] = TRUE;
            total[s->fn[d]] += counts[i];
          }
    }
}

static const TvDiffFunction *
find_row (TvDiff     *diff,
          const char *name)
{
  guint n_rows;
  const TvDiffFunction *rows = tv_diff_get_functions (diff, &n_rows);
  const TvDiffFunction *found = NULL;

  for (guint i = 0; i < n_rows; i++)
    if (strcmp (tv_diff_get_function_name (diff, &rows[i]), name) == 0)
      {
        g_assert_null (found);
        found = &rows[i];
      }
  return found;
}

/* The function table against the counts the profiles were written with. */
static void
check_functions (TvDiff        *diff,
                 const guint64 *base_counts,
                 const guint64 *new_counts)
{
  guint64 self1[N_INJECTED_FUNCTIONS], total1[N_INJECTED_FUNCTIONS];
  guint64 self2[N_INJECTED_FUNCTIONS], total2[N_INJECTED_FUNCTIONS];
  guint n_rows, n_expected = 0;
  const TvDiffFunction *rows = tv_diff_get_functions (diff, &n_rows);

  function_counts (&program_base, base_counts, self1, total1);
  function_counts (&program_new, new_counts, self2, total2);
  for (guint f = 0; f < N_INJECTED_FUNCTIONS; f++)
    {
      const TvDiffFunction *row = find_row (diff, injected_functions[f].name);

      if (total1[f] + total2[f] == 0)
        {
          g_assert_null (row);
          continue;
        }
      n_expected++;
      g_assert_nonnull (row);
      g_assert_cmpstr (tv_diff_get_function_file (diff, row), ==, injected_functions[f].file);
      g_assert_true ((row->base_function != TV_NODE_NONE) == (total1[f] > 0));
      g_assert_true ((row->new_function != TV_NODE_NONE) == (total2[f] > 0));
      if (row->base_function != TV_NODE_NONE && row->new_function != TV_NODE_NONE)
        g_assert_cmpuint (tv_diff_map_function (diff, TV_DIFF_SIDE_NEW, row->new_function),
                          ==, row->base_function);
      check_measure (diff, &row->total, total1[f], total2[f]);
      check_measure (diff, &row->self, self1[f], self2[f]);
    }
  g_assert_cmpuint (n_rows, ==, n_expected);
  for (guint i = 1; i < n_rows; i++)
    g_assert_cmpfloat (fabs (rows[i - 1].total.delta), >=, fabs (rows[i].total.delta));
}

/* Exact counts: whatever changed is significant, whatever did not has
 * p = 1, at every node and in the function table.  Returns the nodes
 * whose total changed. */
static guint
check_exact_verdicts (TvDiff *diff)
{
  guint n_rows;
  const TvDiffFunction *rows = tv_diff_get_functions (diff, &n_rows);
  guint changed = 0;

  for (TvDiffSide side = TV_DIFF_SIDE_BASE; side <= TV_DIFF_SIDE_NEW; side++)
    for (guint32 n = 0; n < tv_call_tree_get_n_nodes (tv_diff_get_tree (diff, side)); n++)
      {
        TvDiffNode node;

        tv_diff_get_node (diff, side, n, &node);
        g_assert_true (node.total.significant
                       == (node.total.base_samples != node.total.new_samples));
        g_assert_true (node.self.significant
                       == (node.self.base_samples != node.self.new_samples));
        changed += node.total.significant;
      }
  for (guint i = 0; i < n_rows; i++)
    {
      g_assert_true (rows[i].total.significant
                     == (rows[i].total.base_samples != rows[i].total.new_samples));
      g_assert_true (rows[i].self.significant
                     == (rows[i].self.base_samples != rows[i].self.new_samples));
      if (!rows[i].total.significant)
        g_assert_cmpfloat (rows[i].total.p_value, ==, 1);
    }
  return changed;
}

/* The node of TREE at the path of function names PATH (NULL-terminated),
 * or TV_NODE_NONE. */
static guint32
find_node (TvCallTree         *tree,
           const char * const *path)
{
  TvProfileData *data = tv_call_tree_get_data (tree);
  guint32 at = 0;

  for (; *path != NULL; path++)
    {
      guint n;
      const guint32 *children = tv_call_tree_get_children (tree, at, &n);
      guint32 next = TV_NODE_NONE;

      for (guint i = 0; i < n; i++)
        if (strcmp (tv_profile_data_get_funcname (data, tv_call_tree_get_frame (tree, children[i])),
                    *path) == 0)
          next = children[i];
      if (next == TV_NODE_NONE)
        return TV_NODE_NONE;
      at = next;
    }
  return at;
}

static void
test_injected_exact (gconstpointer user_data)
{
  TvDiffNormalization normalization = GPOINTER_TO_INT (user_data);
  WriteSpec spec;
  g_autofree guint64 *base_counts = NULL, *new_counts = NULL;
  g_autofree char *base_path = NULL, *new_path = NULL;
  g_autoptr(TvProfileData) base = NULL, new_data = NULL;
  g_autoptr(TvDiff) diff = NULL;
  const TvDiffFunction *compute, *legacy, *fresh;
  static const char * const compute_path[] = { "main", "run", "compute", NULL };
  static const char * const legacy_path[] = { "main", "run", "legacy", NULL };
  static const char * const fresh_path[] = { "main", "run", "fresh", NULL };
  const guint32 *tops;
  guint n_tops;
  TvDiffNode node;

  write_spec_init (&spec, 50000, base_seed);
  base_path = write_profile ("injected-base.tach", &program_base, &spec, &base_counts);
  spec.seed = base_seed + 1;
  spec.reorder = TRUE;
  new_path = write_profile ("injected-new.tach", &program_new, &spec, &new_counts);
  base = fixture_load (base_path);
  new_data = fixture_load (new_path);

  diff = make_diff (base, new_data, TV_MERGE_FUNCTION, FALSE, normalization);
  check_functions (diff, base_counts, new_counts);
  g_assert_cmpuint (check_exact_verdicts (diff), >, 0);
  check_mapping (diff);
  check_key_maps (diff);

  /* The three changes, with their sizes. */
  compute = find_row (diff, "compute");
  g_assert_cmpint (compute->self.change, ==, TV_DIFF_SLOWER);
  g_assert_cmpfloat_with_epsilon (compute->self.relative, 0.2, 1e-12);
  g_assert_cmpint (compute->total.change, ==, TV_DIFF_SLOWER);
  g_assert_cmpfloat_with_epsilon (compute->total.relative, 20.0 / 150, 1e-12);
  legacy = find_row (diff, "legacy");
  g_assert_cmpint (legacy->self.change, ==, TV_DIFF_FASTER);
  g_assert_cmpfloat (legacy->self.relative, ==, -1);
  g_assert_cmpuint (legacy->new_function, ==, TV_NODE_NONE);
  fresh = find_row (diff, "fresh");
  g_assert_cmpint (fresh->total.change, ==, TV_DIFF_SLOWER);
  g_assert_cmpuint (fresh->base_function, ==, TV_NODE_NONE);
  g_assert_true (isinf (fresh->total.relative));
  if (normalization == TV_DIFF_BY_SHARE)
    g_assert_cmpfloat_with_epsilon (fresh->total.delta, 0.03, 1e-12);
  else
    g_assert_cmpfloat_with_epsilon (fresh->total.delta, 1500 * 0.001, 1e-9);
  /* The largest change comes first. */
  g_assert_true (tv_diff_get_functions (diff, &n_tops) == legacy);

  /* Nodes: compute's is the one that got slower, and run's did not. */
  tv_diff_get_node (diff, TV_DIFF_SIDE_NEW,
                    find_node (tv_diff_get_tree (diff, TV_DIFF_SIDE_NEW), compute_path), &node);
  g_assert_cmpint (node.self.change, ==, TV_DIFF_SLOWER);
  g_assert_cmpuint (node.self.base_samples, ==, 5000);
  g_assert_cmpuint (node.self.new_samples, ==, 6000);
  tv_diff_get_node (diff, TV_DIFF_SIDE_NEW,
                    tv_call_tree_get_parent (tv_diff_get_tree (diff, TV_DIFF_SIDE_NEW),
                                             node.new_node), &node);
  g_assert_cmpint (node.total.change, ==, TV_DIFF_NEUTRAL);

  /* The vanished path is the one elided node of BASE, the new one the one
   * of NEW. */
  tops = tv_diff_get_unmatched (diff, TV_DIFF_SIDE_BASE, &n_tops);
  g_assert_cmpuint (n_tops, ==, 1);
  g_assert_cmpuint (tops[0], ==, find_node (tv_diff_get_tree (diff, TV_DIFF_SIDE_BASE),
                                            legacy_path));
  g_assert_cmpuint (tv_diff_get_unmatched_total (diff, TV_DIFF_SIDE_BASE, 0), ==, 2500);
  tv_diff_get_node (diff, TV_DIFF_SIDE_BASE, tops[0], &node);
  g_assert_cmpuint (node.new_node, ==, TV_NODE_NONE);
  g_assert_cmpint (node.total.change, ==, TV_DIFF_FASTER);
  tops = tv_diff_get_unmatched (diff, TV_DIFF_SIDE_NEW, &n_tops);
  g_assert_cmpuint (n_tops, ==, 1);
  g_assert_cmpuint (tops[0], ==, find_node (tv_diff_get_tree (diff, TV_DIFF_SIDE_NEW),
                                            fresh_path));
  g_assert_cmpuint (tv_diff_get_unmatched_total (diff, TV_DIFF_SIDE_NEW, 0), ==, 1500);

  /* The same profiles by line: the variants split nodes, nothing else
   * changes. */
  {
    g_autoptr(TvDiff) by_line = make_diff (base, new_data, TV_MERGE_LINE, FALSE, normalization);

    g_assert_cmpuint (check_exact_verdicts (by_line), >, 0);
    check_mapping (by_line);
    check_key_maps (by_line);
    g_assert_cmpint (find_row (by_line, "compute")->self.change, ==, TV_DIFF_SLOWER);
  }

  fixture_remove_file (g_steal_pointer (&base_path));
  fixture_remove_file (g_steal_pointer (&new_path));
}

/* Inverted: paths run from the leaf, so compute's own time is a child of
 * the root, and so is the vanished legacy. */
static void
test_injected_inverted (void)
{
  WriteSpec spec;
  g_autofree char *base_path = NULL, *new_path = NULL;
  g_autoptr(TvProfileData) base = NULL, new_data = NULL;
  g_autoptr(TvDiff) diff = NULL;
  static const char * const compute_leaf[] = { "compute", NULL };
  static const char * const compute_path[] = { "compute", "run", "main", NULL };
  static const char * const legacy_leaf[] = { "legacy", NULL };
  static const char * const fresh_leaf[] = { "fresh", NULL };
  static const char * const helper_compute[] = { "helper", "compute", NULL };
  const guint32 *tops;
  guint n_tops;
  TvDiffNode node;

  write_spec_init (&spec, 50000, base_seed + 2);
  base_path = write_profile ("inverted-base.tach", &program_base, &spec, NULL);
  spec.seed = base_seed + 3;
  spec.reorder = TRUE;
  new_path = write_profile ("inverted-new.tach", &program_new, &spec, NULL);
  base = fixture_load (base_path);
  new_data = fixture_load (new_path);

  diff = make_diff (base, new_data, TV_MERGE_FUNCTION, TRUE, TV_DIFF_BY_TIME);
  g_assert_true (tv_call_tree_get_inverted (tv_diff_get_tree (diff, TV_DIFF_SIDE_NEW)));
  g_assert_cmpuint (check_exact_verdicts (diff), >, 0);
  check_mapping (diff);

  tv_diff_get_node (diff, TV_DIFF_SIDE_NEW,
                    find_node (tv_diff_get_tree (diff, TV_DIFF_SIDE_NEW), compute_leaf), &node);
  g_assert_cmpuint (node.total.base_samples, ==, 5000);
  g_assert_cmpuint (node.total.new_samples, ==, 6000);
  g_assert_cmpint (node.total.change, ==, TV_DIFF_SLOWER);
  g_assert_cmpuint (node.base_node, ==,
                    find_node (tv_diff_get_tree (diff, TV_DIFF_SIDE_BASE), compute_leaf));
  tv_diff_get_node (diff, TV_DIFF_SIDE_NEW,
                    find_node (tv_diff_get_tree (diff, TV_DIFF_SIDE_NEW), compute_path), &node);
  g_assert_cmpint (node.total.change, ==, TV_DIFF_SLOWER);
  tv_diff_get_node (diff, TV_DIFF_SIDE_NEW,
                    find_node (tv_diff_get_tree (diff, TV_DIFF_SIDE_NEW), helper_compute), &node);
  g_assert_cmpint (node.total.change, ==, TV_DIFF_NEUTRAL);
  g_assert_cmpuint (node.total.new_samples, ==, 2500);

  tops = tv_diff_get_unmatched (diff, TV_DIFF_SIDE_BASE, &n_tops);
  g_assert_cmpuint (n_tops, ==, 1);
  g_assert_cmpuint (tops[0], ==, find_node (tv_diff_get_tree (diff, TV_DIFF_SIDE_BASE),
                                            legacy_leaf));
  tops = tv_diff_get_unmatched (diff, TV_DIFF_SIDE_NEW, &n_tops);
  g_assert_cmpuint (n_tops, ==, 1);
  g_assert_cmpuint (tops[0], ==, find_node (tv_diff_get_tree (diff, TV_DIFF_SIDE_NEW),
                                            fresh_leaf));

  fixture_remove_file (g_steal_pointer (&base_path));
  fixture_remove_file (g_steal_pointer (&new_path));
}

/* Random draws: the three changes are found with the right signs and
 * about the right sizes on every seed.  Of the 14 verdicts on the seven
 * unchanged functions per seed, each is a false positive with probability
 * at most 1 %: 0.42 expected over three seeds.  A function's total and
 * self often err together (most of parse's time is its own), so count in
 * pairs: four pairs or more out of 21 happen about once in 20000 runs. */
static void
test_injected_random (void)
{
  guint false_positives = 0;

  for (guint seed = 0; seed < 3; seed++)
    {
      WriteSpec spec;
      g_autofree char *base_path = NULL, *new_path = NULL;
      g_autoptr(TvProfileData) base = NULL, new_data = NULL;
      g_autoptr(TvDiff) diff = NULL;
      const TvDiffFunction *row;
      guint n_rows;
      const TvDiffFunction *rows;

      write_spec_init (&spec, 50000, base_seed * 7 + seed);
      spec.exact = FALSE;
      base_path = write_profile ("random-base.tach", &program_base, &spec, NULL);
      spec.seed += 1000;
      spec.reorder = TRUE;
      new_path = write_profile ("random-new.tach", &program_new, &spec, NULL);
      base = fixture_load (base_path);
      new_data = fixture_load (new_path);
      diff = make_diff (base, new_data, TV_MERGE_FUNCTION, FALSE, TV_DIFF_BY_TIME);
      check_mapping (diff);

      row = find_row (diff, "compute");
      g_assert_cmpint (row->self.change, ==, TV_DIFF_SLOWER);
      /* Five and six thousand samples: the ratio's standard error is
       * about 0.023. */
      g_assert_cmpfloat (fabs (row->self.relative - 0.2), <, 0.1);
      g_assert_cmpint (row->total.change, ==, TV_DIFF_SLOWER);
      row = find_row (diff, "legacy");
      g_assert_cmpint (row->self.change, ==, TV_DIFF_FASTER);
      g_assert_cmpfloat (row->self.relative, ==, -1);
      row = find_row (diff, "fresh");
      g_assert_cmpint (row->self.change, ==, TV_DIFF_SLOWER);

      rows = tv_diff_get_functions (diff, &n_rows);
      g_assert_cmpuint (n_rows, ==, N_INJECTED_FUNCTIONS);
      for (guint i = 0; i < n_rows; i++)
        {
          const char *name = tv_diff_get_function_name (diff, &rows[i]);

          if (g_str_equal (name, "compute") || g_str_equal (name, "legacy")
              || g_str_equal (name, "fresh"))
            continue;
          false_positives += rows[i].total.significant + rows[i].self.significant;
        }

      fixture_remove_file (g_steal_pointer (&base_path));
      fixture_remove_file (g_steal_pointer (&new_path));
    }
  g_test_message ("false positives on unchanged functions: %u of 42", false_positives);
  g_assert_cmpuint (false_positives, <=, 6);
}

/* ------------------------------------------------------------------------ */
/* Noise                                                                     */
/* ------------------------------------------------------------------------ */

static const Func noise_functions[] = {
  { "/srv/app/main.py", "main", 1 },
  { "/srv/app/main.py", "serve", 30 },
  { "/srv/app/handlers.py", "get", 12 },
  { "/srv/app/handlers.py", "post", 40 },
  { "/srv/app/handlers.py", "validate", 77 },
  { "/srv/app/db.py", "query", 5 },
  { "/srv/app/db.py", "fetch", 25 },
  { "/srv/app/db.py", "commit", 60 },
  { "/srv/app/render.py", "render", 3 },
  { "/srv/app/render.py", "escape", 50 },
  { "/srv/app/util.py", "helper", 3 },
  { "/srv/app/util.py", "retry", 33 },
  { "/usr/lib/python3.15/json/encoder.py", "encode", 200 },
  { "/usr/lib/python3.15/json/encoder.py", "iterencode", 250 },
  { "/usr/lib/python3.15/json/decoder.py", "decode", 330 },
  { "/usr/lib/python3.15/re/__init__.py", "match", 160 },
  { "/usr/lib/python3.15/socket.py", "recv_into", 700 },
  { "/usr/lib/python3.15/ssl.py", "read", 1100 },
  { "/usr/lib/python3.15/logging/__init__.py", "info", 1500 },
  { "/usr/lib/python3.15/logging/__init__.py", "emit", 1600 },
  { "/srv/app/cache.py", "get", 8 },
  { "/srv/app/cache.py", "put", 19 },
  { "/srv/app/auth.py", "check", 14 },
  { "<frozen importlib._bootstrap>", "_find_and_load", 1 },
};

/* A random program: stacks that share prefixes, Zipf-like weights. */
static Stack *
random_stacks (GRand *rand,
               guint  n_stacks)
{
  Stack *stacks = g_new0 (Stack, n_stacks);
  guint n_functions = G_N_ELEMENTS (noise_functions);

  for (guint i = 0; i < n_stacks; i++)
    {
      Stack *s = &stacks[i];
      guint extra;

      if (i > 0 && g_rand_int_range (rand, 0, 5) > 0)
        {
          const Stack *from = &stacks[g_rand_int_range (rand, 0, i)];

          *s = *from;
          s->depth = g_rand_int_range (rand, 1, from->depth + 1);
        }
      else
        {
          s->depth = 1;
          s->fn[0] = 0;
          s->variant[0] = 0;
        }
      extra = g_rand_int_range (rand, 1, 4);
      for (guint e = 0; e < extra && s->depth < MAX_DEPTH; e++)
        {
          s->fn[s->depth] = g_rand_int_range (rand, 1, n_functions);
          s->variant[s->depth] = g_rand_int_range (rand, 0, 3);
          s->depth++;
        }
      s->weight = 1.0 / pow (i + 1, 1.1);
    }
  return stacks;
}

/* Counts how many tests and verdicts a diff made on nodes with samples. */
static void
count_verdicts (TvDiff *diff,
                guint  *n_tests,
                guint  *n_significant)
{
  for (TvDiffSide side = TV_DIFF_SIDE_BASE; side <= TV_DIFF_SIDE_NEW; side++)
    for (guint32 n = 0; n < tv_call_tree_get_n_nodes (tv_diff_get_tree (diff, side)); n++)
      {
        TvDiffNode node;

        /* Matched nodes are counted once, from NEW. */
        if (side == TV_DIFF_SIDE_BASE && tv_diff_map_node (diff, side, n) != TV_NODE_NONE)
          continue;
        tv_diff_get_node (diff, side, n, &node);
        if (node.total.base_samples + node.total.new_samples > 0)
          {
            *n_tests += 1;
            *n_significant += node.total.significant;
          }
        if (node.self.base_samples + node.self.new_samples > 0)
          {
            *n_tests += 1;
            *n_significant += node.self.significant;
          }
      }
}

/* Two draws of one distribution.  Under that hypothesis the test calls a
 * node (or a function) significant with probability at most
 * 1 - confidence = 1 %, less for nodes with few samples, where the
 * discrete test is conservative (0.6 to 0.9 % is usual here).  The count
 * of false positives over some 8000 verdicts must stay within four
 * standard deviations of a binomial count at 1 % (nested nodes make the
 * count vary a little more than that, so there is room).  This checks the
 * whole path from profile to verdict; /diff/p-value/calibration pins the
 * test's own rate down more finely. */
static void
test_noise (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (base_seed + 5);
  g_autofree Stack *stacks = random_stacks (rand, 300);
  Program program = { noise_functions, G_N_ELEMENTS (noise_functions), stacks, 300 };
  guint n_tests = 0, n_significant = 0, n_function_tests = 0, n_function_significant = 0;
  double bound;

  for (guint seed = 0; seed < NOISE_SEEDS; seed++)
    {
      WriteSpec spec;
      g_autofree char *base_path = NULL, *new_path = NULL;
      g_autoptr(TvProfileData) base = NULL, new_data = NULL;
      g_autoptr(TvDiff) diff = NULL;
      guint n_rows, tests = 0, significant = 0;
      const TvDiffFunction *rows;

      write_spec_init (&spec, NOISE_SAMPLES, base_seed * 31 + seed);
      spec.exact = FALSE;
      base_path = write_profile ("noise-base.tach", &program, &spec, NULL);
      spec.seed += 10000;
      spec.reorder = TRUE;
      new_path = write_profile ("noise-new.tach", &program, &spec, NULL);
      base = fixture_load (base_path);
      new_data = fixture_load (new_path);

      diff = make_diff (base, new_data, TV_MERGE_LINE, FALSE,
                        seed % 2 ? TV_DIFF_BY_SHARE : TV_DIFF_BY_TIME);
      count_verdicts (diff, &tests, &significant);
      g_test_message ("seed %u: %u of %u node verdicts significant", seed, significant, tests);
      n_tests += tests;
      n_significant += significant;

      rows = tv_diff_get_functions (diff, &n_rows);
      for (guint i = 0; i < n_rows; i++)
        {
          n_function_tests += 2;
          n_function_significant += rows[i].total.significant + rows[i].self.significant;
        }
      if (seed == 0)
        {
          check_mapping (diff);
          check_key_maps (diff);
        }

      fixture_remove_file (g_steal_pointer (&base_path));
      fixture_remove_file (g_steal_pointer (&new_path));
    }

  bound = ALPHA * n_tests + 4 * sqrt (ALPHA * n_tests);
  g_test_message ("nodes: %u of %u verdicts significant (%.3f %%; at most %.0f allowed)",
                  n_significant, n_tests, 100.0 * n_significant / n_tests, bound);
  g_test_message ("functions: %u of %u verdicts significant", n_function_significant,
                  n_function_tests);
  g_assert_cmpuint (n_tests, >, 1000);
  g_assert_cmpfloat (n_significant, <=, bound);
  g_assert_cmpfloat (n_function_significant, <=,
                     ALPHA * n_function_tests + 4 * sqrt (ALPHA * n_function_tests));
}

/* ------------------------------------------------------------------------ */
/* Maps                                                                      */
/* ------------------------------------------------------------------------ */

/* NEW drops a fifth of BASE's stacks and adds as many of its own, so both
 * sides have paths the other lacks, at every depth. */
static void
test_map (gconstpointer user_data)
{
  gboolean inverted = GPOINTER_TO_INT (user_data);
  g_autoptr(GRand) rand = g_rand_new_with_seed (base_seed + 9);
  g_autofree Stack *stacks = random_stacks (rand, 240);
  g_autofree Stack *others = random_stacks (rand, 200);
  Program program_a = { noise_functions, G_N_ELEMENTS (noise_functions), stacks, 200 };
  Program program_b = { noise_functions, G_N_ELEMENTS (noise_functions), stacks + 40, 200 };
  WriteSpec spec;
  g_autofree char *base_path = NULL, *new_path = NULL;
  g_autoptr(TvProfileData) base = NULL, new_data = NULL;

  /* The tail of NEW's stacks comes from another program. */
  memcpy (stacks + 200, others, 40 * sizeof (Stack));
  for (guint i = 0; i < 240; i++)
    stacks[i].weight = 1 + g_rand_int_range (rand, 0, 20);

  write_spec_init (&spec, 30000, base_seed + 10);
  base_path = write_profile ("map-base.tach", &program_a, &spec, NULL);
  spec.seed = base_seed + 11;
  spec.reorder = TRUE;
  new_path = write_profile ("map-new.tach", &program_b, &spec, NULL);
  base = fixture_load (base_path);
  new_data = fixture_load (new_path);

  for (TvMergeKey merge = TV_MERGE_FRAME; merge < TV_N_MERGE_KEYS; merge++)
    {
      g_autoptr(TvDiff) diff = make_diff (base, new_data, merge, inverted, TV_DIFF_BY_SHARE);
      guint n_base, n_new, matched;

      matched = check_mapping (diff);
      check_key_maps (diff);
      tv_diff_get_unmatched (diff, TV_DIFF_SIDE_BASE, &n_base);
      tv_diff_get_unmatched (diff, TV_DIFF_SIDE_NEW, &n_new);
      g_test_message ("merge %d: %u nodes matched, %u vanished, %u appeared",
                      merge, matched, n_base, n_new);
      /* Both sides have paths of their own, and most are shared. */
      g_assert_cmpuint (n_base, >, 0);
      g_assert_cmpuint (n_new, >, 0);
      g_assert_cmpuint (matched, >, 20);
    }

  fixture_remove_file (g_steal_pointer (&base_path));
  fixture_remove_file (g_steal_pointer (&new_path));
}

/* ------------------------------------------------------------------------ */
/* Normalisation                                                             */
/* ------------------------------------------------------------------------ */

/* Every node of DIFF: its values against each other and the verdicts. */
static void
check_all_nodes (TvDiff       *diff,
                 double        relative,
                 TvDiffChange  change)
{
  TvCallTree *tree = tv_diff_get_tree (diff, TV_DIFF_SIDE_NEW);
  guint n_changed = 0;

  for (guint32 n = 0; n < tv_call_tree_get_n_nodes (tree); n++)
    {
      TvDiffNode node;

      tv_diff_get_node (diff, TV_DIFF_SIDE_NEW, n, &node);
      g_assert_cmpuint (node.base_node, !=, TV_NODE_NONE);
      g_assert_cmpfloat_with_epsilon (node.total.relative, relative, 1e-9);
      g_assert_cmpint (node.total.change, ==, change);
      n_changed += node.total.change != TV_DIFF_NEUTRAL;
      if (node.self.base_samples > 0)
        {
          g_assert_cmpfloat_with_epsilon (node.self.relative, relative, 1e-9);
          g_assert_cmpint (node.self.change, ==, change);
        }
      else
        g_assert_cmpint (node.self.change, ==, TV_DIFF_NEUTRAL);
    }
  g_assert_cmpuint (n_changed, ==, change == TV_DIFF_NEUTRAL ? 0 : tv_call_tree_get_n_nodes (tree));
}

static void
test_normalization (void)
{
  WriteSpec spec;
  g_autofree char *base_path = NULL, *fast_path = NULL, *long_path = NULL, *rate_path = NULL;
  g_autoptr(TvProfileData) base = NULL, fast = NULL, longer = NULL, rated = NULL;

  /* BASE: 20000 samples every ms, no stats block (so the interval
   * counts), 20 s. */
  write_spec_init (&spec, 20000, base_seed + 20);
  spec.stats = FALSE;
  base_path = write_profile ("norm-base.tach", &program_base, &spec, NULL);
  /* Twice the rate for as long: the same times, twice the samples. */
  spec.n_samples = 40000;
  spec.interval_us = 500;
  spec.reorder = TRUE;
  fast_path = write_profile ("norm-fast.tach", &program_base, &spec, NULL);
  /* The same rate for half again as long. */
  spec.n_samples = 30000;
  spec.interval_us = 1000;
  long_path = write_profile ("norm-long.tach", &program_base, &spec, NULL);
  /* The header says every ms, the stats block measured 2000 a second. */
  spec.n_samples = 40000;
  spec.stats = TRUE;
  spec.stats_rate = 2000;
  rate_path = write_profile ("norm-rate.tach", &program_base, &spec, NULL);

  base = fixture_load (base_path);
  fast = fixture_load (fast_path);
  longer = fixture_load (long_path);
  rated = fixture_load (rate_path);

  {
    g_autoptr(TvDiff) by_time = make_diff (base, fast, TV_MERGE_FUNCTION, FALSE, TV_DIFF_BY_TIME);
    g_autoptr(TvDiff) by_share = make_diff (base, fast, TV_MERGE_FUNCTION, FALSE,
                                            TV_DIFF_BY_SHARE);
    TvDiffNode root;

    g_assert_cmpfloat (tv_diff_get_weight (by_time, TV_DIFF_SIDE_BASE), ==, 0.001);
    g_assert_cmpfloat (tv_diff_get_weight (by_time, TV_DIFF_SIDE_NEW), ==, 0.0005);
    g_assert_cmpfloat (tv_diff_get_weight (by_share, TV_DIFF_SIDE_NEW), ==, 1.0 / 40000);
    tv_diff_get_node (by_time, TV_DIFF_SIDE_NEW, 0, &root);
    g_assert_cmpfloat_with_epsilon (root.total.base_value, 20, 1e-9);
    g_assert_cmpfloat_with_epsilon (root.total.new_value, 20, 1e-9);
    check_all_nodes (by_time, 0, TV_DIFF_NEUTRAL);
    check_all_nodes (by_share, 0, TV_DIFF_NEUTRAL);
    tv_diff_get_node (by_share, TV_DIFF_SIDE_NEW, 0, &root);
    g_assert_cmpfloat (root.total.new_value, ==, 1);
    check_mapping (by_time);
  }

  /* A longer run: by time everything is 50 % slower and significant; by
   * share nothing changed. */
  {
    g_autoptr(TvDiff) by_time = make_diff (base, longer, TV_MERGE_FUNCTION, FALSE,
                                           TV_DIFF_BY_TIME);
    g_autoptr(TvDiff) by_share = make_diff (base, longer, TV_MERGE_FUNCTION, FALSE,
                                            TV_DIFF_BY_SHARE);
    guint n_rows;
    const TvDiffFunction *rows = tv_diff_get_functions (by_time, &n_rows);

    check_all_nodes (by_time, 0.5, TV_DIFF_SLOWER);
    check_all_nodes (by_share, 0, TV_DIFF_NEUTRAL);
    for (guint i = 0; i < n_rows; i++)
      {
        g_assert_cmpint (rows[i].total.change, ==, TV_DIFF_SLOWER);
        g_assert_cmpfloat_with_epsilon (rows[i].total.relative, 0.5, 1e-9);
      }
    rows = tv_diff_get_functions (by_share, &n_rows);
    for (guint i = 0; i < n_rows; i++)
      g_assert_cmpint (rows[i].total.change, ==, TV_DIFF_NEUTRAL);
  }

  /* The stats block's rate, not the header's interval. */
  {
    g_autoptr(TvDiff) by_time = make_diff (base, rated, TV_MERGE_FUNCTION, FALSE,
                                           TV_DIFF_BY_TIME);
    GPtrArray *caveats = tv_diff_get_comparability (by_time);

    g_assert_cmpfloat (tv_diff_get_weight (by_time, TV_DIFF_SIDE_NEW), ==, 0.0005);
    check_all_nodes (by_time, 0, TV_DIFF_NEUTRAL);
    g_assert_cmpuint (caveats->len, ==, 1);
    g_assert_cmpint (((TvComparability *) caveats->pdata[0])->code, ==,
                     TV_COMPARABILITY_NO_STATS_BASE);
  }

  fixture_remove_file (g_steal_pointer (&base_path));
  fixture_remove_file (g_steal_pointer (&fast_path));
  fixture_remove_file (g_steal_pointer (&long_path));
  fixture_remove_file (g_steal_pointer (&rate_path));
}

/* ------------------------------------------------------------------------ */
/* Comparability                                                             */
/* ------------------------------------------------------------------------ */

/* The codes of the caveats, as a string of digits, for messages. */
static char *
codes (GPtrArray *caveats)
{
  GString *s = g_string_new (NULL);

  for (guint i = 0; i < caveats->len; i++)
    {
      const TvComparability *c = caveats->pdata[i];

      g_assert_nonnull (c->message);
      g_assert_cmpuint (strlen (c->message), >, 40);
      g_assert_true (g_str_has_suffix (c->message, "."));
      g_string_append_printf (s, "%s%d", i ? "," : "", c->code);
    }
  return g_string_free (s, FALSE);
}

static void
assert_codes (TvProfileData *a,
              TvProfileData *b,
              TvMergeKey     merge,
              const char    *expected)
{
  g_autoptr(GPtrArray) caveats = tv_comparability_check (a, b, merge);
  g_autofree char *got = codes (caveats);

  if (strcmp (got, expected) != 0)
    for (guint i = 0; i < caveats->len; i++)
      g_test_message ("%s", ((TvComparability *) caveats->pdata[i])->message);
  g_assert_cmpstr (got, ==, expected);
}

static const char * const mode_files[] = {
  "mode_wall.tach", "mode_cpu.tach", "mode_gil.tach", "mode_all.tach", "mode_exception.tach",
};

static void
test_comparability_corpus (void)
{
  TvProfileData *modes[G_N_ELEMENTS (mode_files)];
  static const char * const same[] = {
    "rec_threads.tach", "stats_v56_full.tach", "legacy_nostats.tach", "bigendian.tach",
    "two_interpreters.tach",
  };

  for (guint i = 0; i < G_N_ELEMENTS (mode_files); i++)
    modes[i] = fixture_load_corpus (mode_files[i]);

  /* The files differ only in their mode. */
  for (guint i = 0; i < G_N_ELEMENTS (mode_files); i++)
    for (guint j = 0; j < G_N_ELEMENTS (mode_files); j++)
      for (TvMergeKey merge = TV_MERGE_FRAME; merge < TV_N_MERGE_KEYS; merge++)
        assert_codes (modes[i], modes[j], merge, i == j ? "" : "0");

  /* The example of the issue, in plain words. */
  {
    g_autoptr(GPtrArray) caveats = tv_comparability_check (modes[0], modes[1],
                                                           TV_MERGE_FUNCTION);
    const char *message = ((TvComparability *) caveats->pdata[0])->message;

    g_assert_cmpstr (message, ==, "BASE was recorded in wall-clock mode and NEW in CPU mode: "
                     "a function that waits looks faster in NEW only because waiting is not "
                     "sampled.");
  }
  {
    g_autoptr(GPtrArray) caveats = tv_comparability_check (modes[2], modes[0],
                                                           TV_MERGE_FUNCTION);
    const char *message = ((TvComparability *) caveats->pdata[0])->message;

    g_assert_nonnull (strstr (message, "GIL mode and NEW in wall-clock mode"));
    g_assert_nonnull (strstr (message, "looks slower in NEW"));
  }

  /* A Python version apart, and no mode recorded. */
  {
    g_autoptr(TvProfileData) version = fixture_load_corpus ("pyversion_3_15_2.tach");
    g_autoptr(TvProfileData) unknown = fixture_load_corpus ("offset60_unknown_value.tach");

    assert_codes (version, modes[0], TV_MERGE_FUNCTION, "1,3");
    assert_codes (modes[1], unknown, TV_MERGE_FUNCTION, "1");
    assert_codes (version, unknown, TV_MERGE_FUNCTION, "3");
  }

  /* Stats on one side only, which also changes how long the samples are
   * said to last. */
  {
    g_autoptr(TvProfileData) legacy = fixture_load_corpus ("legacy_nostats.tach");
    g_autoptr(TvProfileData) full = fixture_load_corpus ("stats_v56_full.tach");

    assert_codes (legacy, full, TV_MERGE_FUNCTION, "1,4");
    assert_codes (full, legacy, TV_MERGE_FUNCTION, "1,5");
  }

  /* A profile with itself has nothing to warn about. */
  for (guint i = 0; i < G_N_ELEMENTS (same); i++)
    {
      g_autoptr(TvProfileData) a = fixture_load_corpus (same[i]);
      g_autoptr(TvProfileData) b = fixture_load_corpus (same[i]);

      for (TvMergeKey merge = TV_MERGE_FRAME; merge < TV_N_MERGE_KEYS; merge++)
        assert_codes (a, b, merge, "");
    }

  /* The little-endian twin of the big-endian file: the same profile. */
  {
    g_autoptr(TvProfileData) big = fixture_load_corpus ("bigendian.tach");
    g_autoptr(TvProfileData) little = fixture_load_corpus ("littleendian_twin.tach");
    g_autoptr(TvCallTree) a = fixture_tree (big, TV_MERGE_LINE, FALSE, FALSE);
    g_autoptr(TvCallTree) b = fixture_tree (little, TV_MERGE_LINE, FALSE, FALSE);
    g_autoptr(TvDiff) diff = tv_diff_new (a, b, NULL, NULL);
    guint n;

    assert_codes (big, little, TV_MERGE_INSTRUCTION, "");
    g_assert_cmpuint (check_mapping (diff), ==, 2 * tv_call_tree_get_n_nodes (a));
    tv_diff_get_unmatched (diff, TV_DIFF_SIDE_BASE, &n);
    g_assert_cmpuint (n, ==, 0);
    g_assert_cmpuint (check_exact_verdicts (diff), ==, 0);
  }

  for (guint i = 0; i < G_N_ELEMENTS (mode_files); i++)
    tv_profile_data_unref (modes[i]);
}

static void
test_comparability_written (void)
{
  WriteSpec spec;
  g_autofree char *base_path = NULL, *twin_path = NULL, *other_path = NULL;
  g_autoptr(TvProfileData) base = NULL, twin = NULL;

  write_spec_init (&spec, 20000, base_seed + 30);
  spec.has_missed = TRUE;
  spec.missed = 1.5;
  base_path = write_profile ("cmp-base.tach", &program_base, &spec, NULL);
  spec.seed++;
  spec.reorder = TRUE;
  twin_path = write_profile ("cmp-twin.tach", &program_base, &spec, NULL);
  base = fixture_load (base_path);
  twin = fixture_load (twin_path);
  for (TvMergeKey merge = TV_MERGE_FRAME; merge < TV_N_MERGE_KEYS; merge++)
    assert_codes (base, twin, merge, "");

  /* One change at a time. */
  {
    static const struct
    {
      const char *what;
      guint64     interval_us;
      guint8      python_minor;
      double      missed;
      guint64     n_samples;
      gint32      line_shift;
      TvMergeKey  merge;
      const char *expected;
    } cases[] = {
      { "interval", 500, 0, 1.5, 40000, 0, TV_MERGE_FUNCTION, "2" },
      { "python", 1000, 14, 1.5, 20000, 0, TV_MERGE_LINE, "3" },
      { "bytecode", 1000, 14, 1.5, 20000, 0, TV_MERGE_INSTRUCTION, "3,9" },
      { "missed", 1000, 0, 9.0, 20000, 0, TV_MERGE_FUNCTION, "6" },
      { "duration", 1000, 0, 1.5, 40000, 0, TV_MERGE_FUNCTION, "7" },
      { "no duration", 1000, 0, 1.5, 26000, 0, TV_MERGE_FUNCTION, "" },
      { "moved by line", 1000, 0, 1.5, 20000, 3, TV_MERGE_LINE, "8" },
      { "moved by instruction", 1000, 0, 1.5, 20000, 3, TV_MERGE_INSTRUCTION, "8" },
      { "moved by function", 1000, 0, 1.5, 20000, 3, TV_MERGE_FUNCTION, "" },
    };

    for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
      {
        g_autoptr(TvProfileData) other = NULL;
        WriteSpec changed = spec;

        g_test_message ("%s", cases[i].what);
        changed.interval_us = cases[i].interval_us;
        changed.python_minor = cases[i].python_minor;
        changed.missed = cases[i].missed;
        changed.n_samples = cases[i].n_samples;
        changed.line_shift = cases[i].line_shift;
        other_path = write_profile ("cmp-other.tach", &program_base, &changed, NULL);
        other = fixture_load (other_path);
        assert_codes (base, other, cases[i].merge, cases[i].expected);
        /* Durations read as durations, never as "1.02e+03 s". */
        if (g_str_equal (cases[i].expected, "7"))
          {
            g_autoptr(GPtrArray) caveats = tv_comparability_check (base, other,
                                                                   cases[i].merge);
            const char *message = ((TvComparability *) caveats->pdata[0])->message;

            g_test_message ("%s", message);
            g_assert_true (g_str_has_prefix (message, "The samples of BASE stand for 20.0 s of "
                                             "thread time and those of NEW for 40.0 s of "
                                             "thread time: "));
          }
        fixture_remove_file (g_steal_pointer (&other_path));
      }
  }

  /* Ten percent of the samples on lines BASE never had is what one run
   * reaching code the other did not looks like: no warning. */
  {
    Stack extended[G_N_ELEMENTS (injected_base) + 1];
    Program program = { injected_functions, N_INJECTED_FUNCTIONS, extended,
                        G_N_ELEMENTS (extended) };
    g_autoptr(TvProfileData) other = NULL;

    memcpy (extended, injected_base, sizeof injected_base);
    extended[G_N_ELEMENTS (injected_base)] = (Stack) { S3 (F_MAIN, F_RUN, F_PARSE), 111 };
    extended[G_N_ELEMENTS (injected_base)].variant[2] = 2;
    other_path = write_profile ("cmp-other.tach", &program, &spec, NULL);
    other = fixture_load (other_path);
    assert_codes (base, other, TV_MERGE_LINE, "");
    fixture_remove_file (g_steal_pointer (&other_path));
  }

  fixture_remove_file (g_steal_pointer (&base_path));
  fixture_remove_file (g_steal_pointer (&twin_path));
}

/* The stacks of a source test: PREFIX callers above main, which calls
 * parse and helper (their lines moved in NEW) and compute, a third of the
 * samples each; and a third on a function only this side has, which the
 * share of moved samples leaves out. */
static guint
moved_stacks (Stack    *stacks,
              guint     prefix,
              gboolean  moved)
{
  static const guint callers[] = { F_RUN, F_ENCODE, F_LOG, F_IO };
  Stack *parse = &stacks[0], *compute = &stacks[1], *alone = &stacks[2];

  g_assert_cmpuint (prefix, <=, G_N_ELEMENTS (callers));
  memset (stacks, 0, 3 * sizeof (Stack));
  for (guint d = 0; d < prefix; d++)
    parse->fn[d] = compute->fn[d] = callers[d];
  parse->fn[prefix] = compute->fn[prefix] = F_MAIN;
  parse->fn[prefix + 1] = F_PARSE;
  parse->fn[prefix + 2] = F_HELPER;
  parse->variant[prefix + 1] = parse->variant[prefix + 2] = moved ? 1 : 0;
  parse->depth = prefix + 3;
  compute->fn[prefix + 1] = F_COMPUTE;
  compute->depth = prefix + 2;
  alone->fn[0] = moved ? F_FRESH : F_LEGACY;
  alone->depth = 1;
  parse->weight = compute->weight = alone->weight = 1;
  return 3;
}

/* Half the samples of the functions both sides have are on a stack with
 * moved lines, however deep the callers above them and however many moved
 * frames the stack holds: each sample counts once. */
static void
test_comparability_source (void)
{
  for (guint prefix = 0; prefix <= 4; prefix++)
    {
      Stack stacks[2][3];
      Program programs[2];
      g_autofree char *base_path = NULL, *new_path = NULL;
      g_autoptr(TvProfileData) base = NULL, new_data = NULL;
      WriteSpec spec;

      g_test_message ("%u callers", prefix);
      write_spec_init (&spec, 600, base_seed + 40 + prefix);
      for (guint side = 0; side < 2; side++)
        programs[side] = (Program) { injected_functions, N_INJECTED_FUNCTIONS, stacks[side],
                                     moved_stacks (stacks[side], prefix, side == 1) };
      base_path = write_profile ("src-base.tach", &programs[0], &spec, NULL);
      spec.reorder = TRUE;
      new_path = write_profile ("src-new.tach", &programs[1], &spec, NULL);
      base = fixture_load (base_path);
      new_data = fixture_load (new_path);

      for (TvMergeKey merge = TV_MERGE_LINE; merge <= TV_MERGE_INSTRUCTION; merge++)
        {
          g_autoptr(GPtrArray) caveats = tv_comparability_check (base, new_data, merge);
          g_autofree char *got = codes (caveats);
          const char *message;

          g_assert_cmpstr (got, ==, "8");
          message = ((TvComparability *) caveats->pdata[0])->message;
          g_assert_true (g_str_has_prefix (message, "In 50 % of the samples that pass through "
                                           "functions both profiles have, the stack holds "));
          g_assert_nonnull (strstr (message, merge == TV_MERGE_LINE ? " a line of such a"
                                    : " an instruction of such a"));
        }
      assert_codes (base, new_data, TV_MERGE_FUNCTION, "");

      /* What the warning counts is what the differential view shows:
       * the 200 samples through parse vanished from BASE, as did the 200
       * of legacy, which NEW does not have at all. */
      {
        g_autoptr(TvDiff) diff = make_diff (base, new_data, TV_MERGE_LINE, FALSE,
                                            TV_DIFF_BY_SHARE);

        g_assert_cmpuint (tv_diff_get_unmatched_total (diff, TV_DIFF_SIDE_BASE, 0), ==, 400);
      }

      fixture_remove_file (g_steal_pointer (&base_path));
      fixture_remove_file (g_steal_pointer (&new_path));
    }
}

/* Where each side's time per sample comes from: the stats block's rate
 * only when it has one, and a side with none at all (no rate, an interval
 * of 0) cannot be compared by time. */
static void
test_comparability_time (void)
{
  enum { NO_STATS, NO_RATE, RATE, NO_TIME, N_KINDS };
  static const struct
  {
    guint       base, new_side;
    const char *expected;
    const char *last;             /* how the last caveat begins */
  } cases[] = {
    { NO_RATE, NO_STATS, "", NULL },
    { NO_STATS, NO_RATE, "", NULL },
    { NO_RATE, NO_RATE, "", NULL },
    { NO_RATE, RATE, "4", "BASE's statistics block records no sampling rate: " },
    { RATE, NO_RATE, "5", "NEW's statistics block records no sampling rate: " },
    { NO_STATS, RATE, "4", "BASE has no statistics block: " },
    { RATE, NO_STATS, "5", "NEW has no statistics block: " },
    { NO_TIME, NO_STATS, "2,10", "BASE does not record how long a sample lasts " },
    { NO_STATS, NO_TIME, "2,10", "NEW does not record how long a sample lasts " },
    { NO_TIME, RATE, "2,10", "BASE does not record how long a sample lasts " },
    { RATE, NO_TIME, "2,10", "NEW does not record how long a sample lasts " },
    { NO_TIME, NO_TIME, "10", "Neither BASE nor NEW records how long a sample lasts " },
  };
  char *paths[N_KINDS];
  TvProfileData *data[N_KINDS];

  for (guint kind = 0; kind < N_KINDS; kind++)
    {
      g_autofree char *name = g_strdup_printf ("time-%u.tach", kind);
      WriteSpec spec;

      write_spec_init (&spec, 20000, base_seed + 50 + kind);
      spec.stats = kind == NO_RATE || kind == RATE;
      spec.no_rate = kind == NO_RATE;
      spec.interval_us = kind == NO_TIME ? 0 : 1000;
      paths[kind] = write_profile (name, kind == NO_TIME ? &program_base : &program_new, &spec,
                                   NULL);
      data[kind] = fixture_load (paths[kind]);
    }

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GPtrArray) caveats = tv_comparability_check (data[cases[i].base],
                                                             data[cases[i].new_side],
                                                             TV_MERGE_FUNCTION);
      g_autofree char *got = codes (caveats);

      g_test_message ("case %u", i);
      g_assert_cmpstr (got, ==, cases[i].expected);
      if (cases[i].last != NULL)
        {
          const TvComparability *last = caveats->pdata[caveats->len - 1];

          g_assert_true (g_str_has_prefix (last->message, cases[i].last));
          if (last->code == TV_COMPARABILITY_NO_TIME)
            g_assert_nonnull (strstr (last->message, "Compare by share of samples instead "
                                      "(--by share on the command line)."));
        }
    }

  /* By time, nothing can be tested and the diff says why; by share, the
   * change shows. */
  {
    g_autoptr(TvDiff) by_time = make_diff (data[NO_TIME], data[NO_STATS], TV_MERGE_FUNCTION,
                                           FALSE, TV_DIFF_BY_TIME);
    g_autoptr(TvDiff) by_share = make_diff (data[NO_TIME], data[NO_STATS], TV_MERGE_FUNCTION,
                                            FALSE, TV_DIFF_BY_SHARE);
    GPtrArray *caveats = tv_diff_get_comparability (by_time);
    guint32 n_nodes = tv_call_tree_get_n_nodes (tv_diff_get_tree (by_time, TV_DIFF_SIDE_NEW));
    const TvDiffFunction *rows;
    guint n_rows;
    gboolean compute_slower = FALSE;

    g_assert_cmpint (((TvComparability *) caveats->pdata[caveats->len - 1])->code, ==,
                     TV_COMPARABILITY_NO_TIME);
    for (guint32 n = 0; n < n_nodes; n++)
      {
        TvDiffNode node;

        tv_diff_get_node (by_time, TV_DIFF_SIDE_NEW, n, &node);
        g_assert_cmpfloat (node.total.base_value, ==, 0);
        g_assert_cmpfloat (node.total.p_value, ==, 1);
        g_assert_cmpint (node.total.change, ==, TV_DIFF_NEUTRAL);
      }
    rows = tv_diff_get_functions (by_share, &n_rows);
    for (guint i = 0; i < n_rows; i++)
      if (strcmp (tv_diff_get_function_name (by_share, &rows[i]), "compute") == 0)
        compute_slower = rows[i].self.change == TV_DIFF_SLOWER;
    g_assert_true (compute_slower);
  }

  for (guint kind = 0; kind < N_KINDS; kind++)
    {
      tv_profile_data_unref (data[kind]);
      fixture_remove_file (paths[kind]);
    }
}

/* ------------------------------------------------------------------------ */
/* Cancellation                                                              */
/* ------------------------------------------------------------------------ */

static void
test_cancel (void)
{
  g_autoptr(TvProfileData) a = fixture_load_corpus ("rec_threads.tach");
  g_autoptr(TvProfileData) b = fixture_load_corpus ("rec_threads.zst.tach");
  g_autoptr(TvCallTree) ta = fixture_tree (a, TV_MERGE_FUNCTION, FALSE, FALSE);
  g_autoptr(TvCallTree) tb = fixture_tree (b, TV_MERGE_FUNCTION, FALSE, FALSE);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(TvDiff) diff = tv_diff_new (ta, tb, NULL, cancellable);
  TvDiffOptions options;

  g_assert_nonnull (diff);
  check_mapping (diff);
  tv_diff_get_options (diff, &options);
  g_assert_cmpint (options.normalization, ==, TV_DIFF_BY_TIME);
  g_assert_cmpfloat (options.confidence, ==, CONFIDENCE);
  g_assert_true (tv_diff_get_tree (diff, TV_DIFF_SIDE_BASE) == ta);
  g_assert_true (tv_diff_ref (diff) == diff);
  tv_diff_unref (diff);

  g_cancellable_cancel (cancellable);
  g_assert_null (tv_diff_new (ta, tb, NULL, cancellable));
}

/* Diffs made on two threads at once (the first use of the test's tables
 * among them) are the diff made here. */
typedef struct
{
  TvCallTree *base;
  TvCallTree *new_tree;
} ThreadJob;

static gpointer
diff_on_thread (gpointer user_data)
{
  ThreadJob *job = user_data;

  return tv_diff_new (job->base, job->new_tree, NULL, NULL);
}

static void
test_threads (void)
{
  g_autoptr(TvProfileData) a = fixture_load_corpus ("rec_cpu_mix.tach");
  g_autoptr(TvProfileData) b = fixture_load_corpus ("rec_cpu_mix.zst.tach");
  g_autoptr(TvCallTree) ta = fixture_tree (a, TV_MERGE_LINE, FALSE, FALSE);
  g_autoptr(TvCallTree) tb = fixture_tree (b, TV_MERGE_LINE, FALSE, FALSE);
  ThreadJob job = { ta, tb };
  GThread *threads[2];
  TvDiff *diffs[2];
  g_autoptr(TvDiff) here = NULL;

  for (guint i = 0; i < 2; i++)
    threads[i] = g_thread_new ("diff", diff_on_thread, &job);
  for (guint i = 0; i < 2; i++)
    diffs[i] = g_thread_join (threads[i]);
  here = tv_diff_new (ta, tb, NULL, NULL);
  check_mapping (here);
  for (guint i = 0; i < 2; i++)
    {
      for (guint32 n = 0; n < tv_call_tree_get_n_nodes (tb); n++)
        {
          TvDiffNode x, y;

          memset (&x, 0, sizeof x);
          memset (&y, 0, sizeof y);
          tv_diff_get_node (here, TV_DIFF_SIDE_NEW, n, &x);
          tv_diff_get_node (diffs[i], TV_DIFF_SIDE_NEW, n, &y);
          g_assert_true (memcmp (&x, &y, sizeof x) == 0);
        }
      tv_diff_unref (diffs[i]);
    }
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(GError) error = NULL;
  int ret;

  g_test_init (&argc, &argv, NULL);

  base_seed = fixture_seed ();
  tmp_dir = g_dir_make_tmp ("tv-diff-XXXXXX", &error);
  g_assert_no_error (error);

  g_test_add_func ("/diff/p-value/known", test_p_value_known);
  g_test_add_func ("/diff/p-value/brute", test_p_value_brute);
  g_test_add_func ("/diff/p-value/huge", test_p_value_huge);
  g_test_add_func ("/diff/p-value/calibration", test_p_value_calibration);
  g_test_add_data_func ("/diff/injected/exact/by-time", GINT_TO_POINTER (TV_DIFF_BY_TIME),
                        test_injected_exact);
  g_test_add_data_func ("/diff/injected/exact/by-share", GINT_TO_POINTER (TV_DIFF_BY_SHARE),
                        test_injected_exact);
  g_test_add_func ("/diff/injected/inverted", test_injected_inverted);
  g_test_add_func ("/diff/injected/random", test_injected_random);
  g_test_add_func ("/diff/noise", test_noise);
  g_test_add_data_func ("/diff/map/top-down", GINT_TO_POINTER (FALSE), test_map);
  g_test_add_data_func ("/diff/map/inverted", GINT_TO_POINTER (TRUE), test_map);
  g_test_add_func ("/diff/normalization", test_normalization);
  g_test_add_func ("/diff/comparability/corpus", test_comparability_corpus);
  g_test_add_func ("/diff/comparability/written", test_comparability_written);
  g_test_add_func ("/diff/comparability/source", test_comparability_source);
  g_test_add_func ("/diff/comparability/time", test_comparability_time);
  g_test_add_func ("/diff/cancel", test_cancel);
  g_test_add_func ("/diff/threads", test_threads);

  ret = g_test_run ();
  g_rmdir (tmp_dir);
  g_free (tmp_dir);
  return ret;
}
