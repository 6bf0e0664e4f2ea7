/* tv-diff.c: match two call trees by content and test their differences
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Four steps, each linear in the keys or nodes it reads (a node with
 * many samples costs a little more to test):
 *   1. key maps: every merge key (and function key) of BASE is hashed by
 *      its content (strings and numbers, not table indices), and every
 *      key of NEW is looked up there;
 *   2. node maps: NEW's nodes, parents first, each find the child of their
 *      parent's match with the mapped key, through a hash of BASE's
 *      (parent, key) pairs;
 *   3. a p-value for the total and the self of every node, and of every
 *      function of the function table;
 *   4. the topmost unmatched nodes of each side, and the comparability
 *      caveats of the two profiles.
 *
 * The significance test
 * ---------------------
 * A node has x1 samples of BASE's n1 and x2 of NEW's n2; one sample is
 * worth w1 and w2 (seconds per sample by time, 1/n by share).  The
 * hypothesis is that the node is worth the same on both sides,
 * x1 w1 = x2 w2 in expectation.  Conditioned on the node's m = x1 + x2
 * samples, x2 is then binomial with m trials and q = w1 / (w1 + w2), and
 * the p-value is twice the smaller tail of that binomial at x2 (capped at
 * 1).  By share, q = n2 / (n1 + n2): this is the binomial test on the share
 * of samples given both sample counts.  By time, q compares the sampling
 * rates, and it is the exact test of two Poisson rates (Przyborowski and
 * Wilenski): a node is slower when NEW spent more seconds in it, whether or
 * not its share changed.  The test thus answers the question the chosen
 * normalisation asks; a share test under time normalisation would call a
 * whole run that got 20 % slower unchanged, and every function that stayed
 * the same "faster" when one function got slower.
 *
 * Why this test rather than a z-test with continuity correction: it is
 * exact.  A flame graph is thousands of small nodes, and at small counts
 * the normal approximation's false-positive rate is not the one asked for
 * (too high without the correction, erratic with it); how much noise lights
 * up is decided there.  Conditioning on m removes the unknown common rate
 * without estimating it.  Being discrete, and doubling the smaller tail,
 * the test is conservative: under the hypothesis a node is called
 * significant with probability at most 1 - confidence, less at small
 * counts.  When a profile's number of samples is fixed and only where they
 * fall is random (wall-clock mode, by share), x2 given m is hypergeometric
 * rather than binomial, with a variance smaller by
 * (n1 + n2 - m) / (n1 + n2 - 1): for a node that holds much of the samples
 * the binomial test is then conservative too.  Past a variance of
 * m q (1 - q) = 4e6 (a node with millions of samples) the tail is taken
 * from the normal distribution with continuity correction, whose error
 * there (skewness under 5e-4) is far below anything shown.
 *
 * What no test on counts can know: that consecutive samples are not
 * independent (a long call is sampled many times in a row), and that two
 * runs of a program differ by more than sampling noise (caches, other
 * load).  The p-value bounds the first kind of error only; the tooltip
 * should say "sampling noise", not "the program".
 */
#include "tv-diff.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n.h>

#define CANCEL_EVERY 1024

/* The key maps of one merge key, both ways. */
typedef struct
{
  guint32 *to_base;             /* NEW key -> BASE key, or TV_NODE_NONE */
  guint32 *to_new;              /* BASE key -> NEW key */
  guint32  n_base;
  guint32  n_new;
} KeyMap;

/* What the diff keeps per node, on each side. */
typedef struct
{
  TvCallTree *tree;
  double      weight;           /* one sample's value */
  guint32     n_nodes;
  guint32    *other;            /* the match on the other side */
  double     *p_total;
  double     *p_self;
  guint64    *unmatched;        /* see tv_diff_get_unmatched_total() */
  guint32    *tops;             /* topmost unmatched nodes */
  guint       n_tops;
} Side;

/* The binomial a diff tests every node against: the share q of a node's
 * samples that NEW holds when nothing changed. */
typedef struct
{
  double q;
  double log_q;
  double log_1mq;
  double odds;                  /* q / (1 - q) */
} Binomial;

struct _TvDiff
{
  gatomicrefcount ref_count;
  TvDiffOptions   options;
  double          alpha;
  TvMergeKey      merge;
  Side            sides[2];
  KeyMap          keys;
  KeyMap          functions;    /* function keys; unused when merging by function */
  TvDiffFunction *rows;
  guint           n_rows;
  GPtrArray      *comparability;
  Binomial        binomial;
  gboolean        testable;     /* both weights positive */
};

void
tv_diff_options_init (TvDiffOptions *options)
{
  memset (options, 0, sizeof *options);
  options->normalization = TV_DIFF_BY_TIME;
  options->confidence = 0.99;
}

/* ------------------------------------------------------------------------ */
/* The test                                                                  */
/* ------------------------------------------------------------------------ */

#define N_SMALL_FACTORIALS 4096

static double small_log_factorials[N_SMALL_FACTORIALS];

/* log (n!): from a table for the small counts most nodes have, from
 * Stirling's series past that (the first term left out is under 1e-30),
 * so that no call touches lgamma()'s global signgam. */
static double
log_factorial (guint64 n)
{
  double x, x2;

  if (n < N_SMALL_FACTORIALS)
    return small_log_factorials[n];
  x = (double) n + 1;
  x2 = x * x;
  return (x - 0.5) * log (x) - x + 0.91893853320467274178
         + (1.0 / 12 - (1.0 / 360 - (1.0 / 1260 - 1.0 / (1680 * x2)) / x2) / x2) / x;
}

static void
init_log_factorials (void)
{
  static gsize done = 0;

  if (g_once_init_enter (&done))
    {
      double sum = 0;

      small_log_factorials[0] = 0;
      for (guint n = 1; n < N_SMALL_FACTORIALS; n++)
        small_log_factorials[n] = sum += log ((double) n);
      g_once_init_leave (&done, 1);
    }
}

/* FALSE when there is nothing to test. */
static gboolean
binomial_init (Binomial *b,
               double    base_weight,
               double    new_weight)
{
  if (!(base_weight > 0) || !(new_weight > 0)
      || !isfinite (base_weight) || !isfinite (new_weight))
    return FALSE;
  b->q = base_weight / (base_weight + new_weight);
  if (!(b->q > 0 && b->q < 1))
    return FALSE;
  b->log_q = log (b->q);
  b->log_1mq = log1p (-b->q);
  b->odds = b->q / (1 - b->q);
  init_log_factorials ();
  return TRUE;
}

/* P(X >= k), or P(X <= k) when not UPPER, for X binomial (m, q): the
 * terms from k outwards, relative to the first, until they no longer
 * count. */
static double
binomial_tail (const Binomial *b,
               guint64         m,
               guint64         k,
               gboolean        upper)
{
  double log_first, sum = 1, term = 1;

  if (upper ? k == 0 : k >= m)
    return 1;
  log_first = log_factorial (m) - log_factorial (k) - log_factorial (m - k)
              + (double) k * b->log_q + (double) (m - k) * b->log_1mq;
  if (upper)
    for (guint64 j = k; j < m; j++)
      {
        term *= (double) (m - j) / (double) (j + 1) * b->odds;
        sum += term;
        if (term < sum * 1e-17)
          break;
      }
  else
    for (guint64 j = k; j > 0; j--)
      {
        term *= (double) j / (double) (m - j + 1) / b->odds;
        sum += term;
        if (term < sum * 1e-17)
          break;
      }
  /* Where exp() underflows the p-value is below 1e-300 anyway. */
  return MIN (1.0, exp (log_first) * sum);
}

static double
binomial_p_value (const Binomial *b,
                  guint64         base_count,
                  guint64         new_count)
{
  guint64 m = base_count + new_count;
  double mean = (double) m * b->q;
  double variance = mean * (1 - b->q);

  if (m == 0)
    return 1;
  if (variance > 4e6)
    {
      double z = (fabs ((double) new_count - mean) - 0.5) / sqrt (variance);

      return z <= 0 ? 1 : MIN (1.0, erfc (z / G_SQRT2));
    }
  return MIN (1.0, 2 * binomial_tail (b, m, new_count, (double) new_count >= mean));
}

/**
 * tv_diff_p_value:
 *
 * The test is described at the top of this file.
 *
 * Returns: the two-sided p-value, 1 when there is nothing to test
 */
double
tv_diff_p_value (guint64 base_count,
                 double  base_weight,
                 guint64 new_count,
                 double  new_weight)
{
  Binomial b;

  if (!binomial_init (&b, base_weight, new_weight))
    return 1;
  return binomial_p_value (&b, base_count, new_count);
}

static void
fill_measure (const TvDiff  *self,
              guint64        base_samples,
              guint64        new_samples,
              double         p_value,
              TvDiffMeasure *out)
{
  out->base_samples = base_samples;
  out->new_samples = new_samples;
  out->base_value = (double) base_samples * self->sides[TV_DIFF_SIDE_BASE].weight;
  out->new_value = (double) new_samples * self->sides[TV_DIFF_SIDE_NEW].weight;
  out->delta = out->new_value - out->base_value;
  if (out->base_value > 0)
    out->relative = out->delta / out->base_value;
  else
    out->relative = out->new_value > 0 ? INFINITY : 0;
  out->p_value = p_value;
  out->significant = p_value < self->alpha;
  if (!out->significant || out->delta == 0)
    out->change = TV_DIFF_NEUTRAL;
  else
    out->change = out->delta > 0 ? TV_DIFF_SLOWER : TV_DIFF_FASTER;
}

static double
p_value (const TvDiff *self,
         guint64       base_samples,
         guint64       new_samples)
{
  if (!self->testable)
    return 1;
  return binomial_p_value (&self->binomial, base_samples, new_samples);
}

/* ------------------------------------------------------------------------ */
/* Keys by content                                                           */
/* ------------------------------------------------------------------------ */

/* The fields of a frame that a merge key compares, the others zero. */
typedef struct
{
  const char *filename;
  const char *funcname;
  gint32      lineno;
  gint32      column;
  gint32      end_lineno;
  gint32      end_column;
  gint32      opcode;
  guint       hash;
} Content;

static void
content_init (Content       *c,
              TvProfileData *data,
              TvMergeKey     merge,
              guint32        key)
{
  guint32 frame = tv_profile_data_get_key_frame (data, merge, key);
  const TachFrame *f = tach_reader_get_frame (tv_profile_data_get_reader (data), frame);
  guint h;

  memset (c, 0, sizeof *c);
  c->filename = tv_profile_data_get_filename (data, frame);
  c->funcname = tv_profile_data_get_funcname (data, frame);
  if (f != NULL && merge != TV_MERGE_FUNCTION)
    {
      c->lineno = f->lineno;
      if (merge != TV_MERGE_LINE)
        {
          c->column = f->column;
          c->opcode = f->opcode;
        }
      if (merge == TV_MERGE_FRAME)
        {
          c->end_lineno = f->end_lineno;
          c->end_column = f->end_column;
        }
    }
  h = g_str_hash (c->filename) * 31 + g_str_hash (c->funcname);
  h = h * 31 + (guint) c->lineno;
  h = h * 31 + (guint) c->column;
  h = h * 31 + (guint) c->opcode;
  h = h * 31 + (guint) c->end_lineno;
  h = h * 31 + (guint) c->end_column;
  c->hash = h;
}

static guint
content_hash (gconstpointer p)
{
  return ((const Content *) p)->hash;
}

static gboolean
content_equal (gconstpointer pa,
               gconstpointer pb)
{
  const Content *a = pa, *b = pb;

  return a->hash == b->hash
         && a->lineno == b->lineno && a->column == b->column && a->opcode == b->opcode
         && a->end_lineno == b->end_lineno && a->end_column == b->end_column
         && strcmp (a->funcname, b->funcname) == 0 && strcmp (a->filename, b->filename) == 0;
}

/* Keys with the same content are one key within a profile, so the map is
 * one to one; only frames no sample can use (their strings are out of
 * range) may share a content, and the first of them wins. */
static void
key_map_build (KeyMap        *map,
               TvProfileData *base,
               TvProfileData *new_data,
               TvMergeKey     merge)
{
  guint32 n_base = tv_profile_data_get_n_keys (base, merge);
  guint32 n_new = tv_profile_data_get_n_keys (new_data, merge);
  g_autofree Content *contents = g_new (Content, MAX (n_base, 1));
  g_autoptr(GHashTable) table = g_hash_table_new (content_hash, content_equal);

  map->n_base = n_base;
  map->n_new = n_new;
  map->to_base = g_new (guint32, MAX (n_new, 1));
  map->to_new = g_new (guint32, MAX (n_base, 1));
  for (guint32 k = 0; k < n_base; k++)
    {
      content_init (&contents[k], base, merge, k);
      map->to_new[k] = TV_NODE_NONE;
      if (!g_hash_table_contains (table, &contents[k]))
        g_hash_table_insert (table, &contents[k], GUINT_TO_POINTER (k));
    }
  for (guint32 k = 0; k < n_new; k++)
    {
      Content c;
      gpointer value;

      content_init (&c, new_data, merge, k);
      map->to_base[k] = TV_NODE_NONE;
      if (g_hash_table_lookup_extended (table, &c, NULL, &value)
          && map->to_new[GPOINTER_TO_UINT (value)] == TV_NODE_NONE)
        {
          map->to_base[k] = GPOINTER_TO_UINT (value);
          map->to_new[GPOINTER_TO_UINT (value)] = k;
        }
    }
}

static void
key_map_clear (KeyMap *map)
{
  g_clear_pointer (&map->to_base, g_free);
  g_clear_pointer (&map->to_new, g_free);
}

static guint32
key_map_lookup (const KeyMap *map,
                TvDiffSide    side,
                guint32       key)
{
  if (side == TV_DIFF_SIDE_BASE)
    return key < map->n_base ? map->to_new[key] : TV_NODE_NONE;
  return key < map->n_new ? map->to_base[key] : TV_NODE_NONE;
}

/* ------------------------------------------------------------------------ */
/* Nodes by path                                                             */
/* ------------------------------------------------------------------------ */

/* BASE's nodes by (parent, key), open addressing; 0 marks an empty slot
 * (no node has both parent and key G_MAXUINT32). */
typedef struct
{
  guint64 *keys;
  guint32 *nodes;
  guint32  mask;
} NodeIndex;

static inline guint32
node_slot (guint64  key,
           guint32  mask)
{
  return (guint32) ((key * G_GUINT64_CONSTANT (0x9e3779b97f4a7c15)) >> 32) & mask;
}

static inline guint64
node_index_key (guint32 parent,
                guint32 key)
{
  return ((guint64) parent << 32 | key) + 1;
}

static void
node_index_build (NodeIndex  *index,
                  TvCallTree *tree)
{
  guint32 n_nodes = tv_call_tree_get_n_nodes (tree);

  index->mask = 63;
  while (index->mask < (guint64) n_nodes * 2)
    index->mask = index->mask * 2 + 1;
  index->keys = g_new0 (guint64, (gsize) index->mask + 1);
  index->nodes = g_new (guint32, (gsize) index->mask + 1);
  for (guint32 n = 1; n < n_nodes; n++)
    {
      guint64 key = node_index_key (tv_call_tree_get_parent (tree, n),
                                    tv_call_tree_get_key (tree, n));
      guint32 slot = node_slot (key, index->mask);

      while (index->keys[slot] != 0)
        slot = (slot + 1) & index->mask;
      index->keys[slot] = key;
      index->nodes[slot] = n;
    }
}

static guint32
node_index_lookup (const NodeIndex *index,
                   guint32          parent,
                   guint32          key)
{
  guint64 k = node_index_key (parent, key);
  guint32 slot = node_slot (k, index->mask);

  for (; index->keys[slot] != 0; slot = (slot + 1) & index->mask)
    if (index->keys[slot] == k)
      return index->nodes[slot];
  return TV_NODE_NONE;
}

static void
node_index_clear (NodeIndex *index)
{
  g_clear_pointer (&index->keys, g_free);
  g_clear_pointer (&index->nodes, g_free);
}

/* A node's parent always has a smaller id, so one pass in id order sees
 * every parent's match before its children. */
static gboolean
match_nodes (TvDiff       *self,
             GCancellable *cancellable)
{
  Side *base = &self->sides[TV_DIFF_SIDE_BASE];
  Side *new_side = &self->sides[TV_DIFF_SIDE_NEW];
  NodeIndex index;

  for (guint32 n = 0; n < base->n_nodes; n++)
    base->other[n] = TV_NODE_NONE;
  new_side->other[0] = 0;
  base->other[0] = 0;

  node_index_build (&index, base->tree);
  for (guint32 n = 1; n < new_side->n_nodes; n++)
    {
      guint32 parent = new_side->other[tv_call_tree_get_parent (new_side->tree, n)];
      guint32 key = key_map_lookup (&self->keys, TV_DIFF_SIDE_NEW,
                                    tv_call_tree_get_key (new_side->tree, n));
      guint32 match = TV_NODE_NONE;

      if (parent != TV_NODE_NONE && key != TV_NODE_NONE)
        match = node_index_lookup (&index, parent, key);
      new_side->other[n] = match;
      if (match != TV_NODE_NONE)
        base->other[match] = n;
      if (n % (CANCEL_EVERY * 64) == 0 && g_cancellable_is_cancelled (cancellable))
        {
          node_index_clear (&index);
          return FALSE;
        }
    }
  node_index_clear (&index);
  return TRUE;
}

/* ------------------------------------------------------------------------ */
/* Per node                                                                  */
/* ------------------------------------------------------------------------ */

static gboolean
test_nodes (TvDiff       *self,
            GCancellable *cancellable)
{
  Side *base = &self->sides[TV_DIFF_SIDE_BASE];
  Side *new_side = &self->sides[TV_DIFF_SIDE_NEW];

  for (guint32 n = 0; n < new_side->n_nodes; n++)
    {
      guint32 m = new_side->other[n];
      guint64 total1 = m != TV_NODE_NONE ? tv_call_tree_get_total (base->tree, m) : 0;
      guint64 self1 = m != TV_NODE_NONE ? tv_call_tree_get_self (base->tree, m) : 0;

      new_side->p_total[n] = p_value (self, total1, tv_call_tree_get_total (new_side->tree, n));
      new_side->p_self[n] = p_value (self, self1, tv_call_tree_get_self (new_side->tree, n));
      if (m != TV_NODE_NONE)
        {
          base->p_total[m] = new_side->p_total[n];
          base->p_self[m] = new_side->p_self[n];
        }
      if (n % CANCEL_EVERY == 0 && g_cancellable_is_cancelled (cancellable))
        return FALSE;
    }
  for (guint32 m = 0; m < base->n_nodes; m++)
    {
      if (base->other[m] != TV_NODE_NONE)
        continue;
      base->p_total[m] = p_value (self, tv_call_tree_get_total (base->tree, m), 0);
      base->p_self[m] = p_value (self, tv_call_tree_get_self (base->tree, m), 0);
      if (m % CANCEL_EVERY == 0 && g_cancellable_is_cancelled (cancellable))
        return FALSE;
    }
  return TRUE;
}

typedef struct
{
  const guint64 *totals;
} TopOrder;

static int
compare_tops (const void *pa,
              const void *pb,
              void       *user_data)
{
  const guint64 *totals = ((const TopOrder *) user_data)->totals;
  guint32 a = *(const guint32 *) pa, b = *(const guint32 *) pb;

  if (totals[a] != totals[b])
    return totals[a] > totals[b] ? -1 : 1;
  return a < b ? -1 : a > b;
}

/* The unmatched samples under every node, bottom-up, and the topmost
 * unmatched nodes.  An unmatched node's parent is matched or unmatched;
 * only a matched parent adds what is below it, since an unmatched one
 * counts its whole total already. */
static void
collect_unmatched (Side *side)
{
  TopOrder order = { side->unmatched };
  guint n_tops = 0;

  for (guint32 n = 0; n < side->n_nodes; n++)
    side->unmatched[n] = side->other[n] == TV_NODE_NONE
                         ? tv_call_tree_get_total (side->tree, n) : 0;
  for (guint32 n = side->n_nodes; n-- > 1;)
    {
      guint32 parent = tv_call_tree_get_parent (side->tree, n);

      if (side->other[parent] != TV_NODE_NONE)
        {
          side->unmatched[parent] += side->unmatched[n];
          if (side->other[n] == TV_NODE_NONE)
            n_tops++;
        }
    }

  side->tops = g_new (guint32, MAX (n_tops, 1));
  side->n_tops = 0;
  for (guint32 n = 1; n < side->n_nodes; n++)
    if (side->other[n] == TV_NODE_NONE
        && side->other[tv_call_tree_get_parent (side->tree, n)] != TV_NODE_NONE)
      side->tops[side->n_tops++] = n;
  g_assert (side->n_tops == n_tops);
  g_qsort_with_data (side->tops, side->n_tops, sizeof (guint32), compare_tops, &order);
}

/* ------------------------------------------------------------------------ */
/* Functions                                                                 */
/* ------------------------------------------------------------------------ */

static int
compare_rows (const void *pa,
              const void *pb)
{
  const TvDiffFunction *a = pa, *b = pb;
  double da = fabs (a->total.delta), db = fabs (b->total.delta);
  guint32 ka = a->new_function != TV_NODE_NONE ? a->new_function : G_MAXUINT32 - 1;
  guint32 kb = b->new_function != TV_NODE_NONE ? b->new_function : G_MAXUINT32 - 1;

  if (da != db)
    return da > db ? -1 : 1;
  if (ka != kb)
    return ka < kb ? -1 : 1;
  return a->base_function < b->base_function ? -1 : a->base_function > b->base_function;
}

static const KeyMap *
function_map (const TvDiff *self)
{
  return self->merge == TV_MERGE_FUNCTION ? &self->keys : &self->functions;
}

static void
build_functions (TvDiff *self)
{
  const KeyMap *map = function_map (self);
  TvCallTree *base = self->sides[TV_DIFF_SIDE_BASE].tree;
  TvCallTree *new_tree = self->sides[TV_DIFF_SIDE_NEW].tree;
  guint n_base, n_new, n_rows = 0;
  const TvFunctionRow *base_rows = tv_call_tree_get_functions (base, &n_base);
  const TvFunctionRow *new_rows = tv_call_tree_get_functions (new_tree, &n_new);
  g_autofree guint *row_of = g_new (guint, MAX (map->n_base, 1));
  g_autofree guint64 *totals = g_new0 (guint64, (gsize) (n_base + n_new) * 4 + 1);

  for (guint32 f = 0; f < map->n_base; f++)
    row_of[f] = G_MAXUINT;

  self->rows = g_new0 (TvDiffFunction, MAX (n_base + n_new, 1));
  /* Samples per row: base total, new total, base self, new self. */
  for (guint i = 0; i < n_base; i++)
    {
      guint r = n_rows++;

      self->rows[r].base_function = base_rows[i].function;
      self->rows[r].new_function = key_map_lookup (map, TV_DIFF_SIDE_BASE,
                                                   base_rows[i].function);
      totals[r * 4] = base_rows[i].total;
      totals[r * 4 + 2] = base_rows[i].self;
      row_of[base_rows[i].function] = r;
    }
  for (guint i = 0; i < n_new; i++)
    {
      guint32 f = key_map_lookup (map, TV_DIFF_SIDE_NEW, new_rows[i].function);
      guint r = f != TV_NODE_NONE ? row_of[f] : G_MAXUINT;

      if (r == G_MAXUINT)
        {
          r = n_rows++;
          self->rows[r].base_function = f;
          self->rows[r].new_function = new_rows[i].function;
        }
      totals[r * 4 + 1] = new_rows[i].total;
      totals[r * 4 + 3] = new_rows[i].self;
    }

  for (guint r = 0; r < n_rows; r++)
    {
      const guint64 *t = totals + r * 4;

      fill_measure (self, t[0], t[1], p_value (self, t[0], t[1]), &self->rows[r].total);
      fill_measure (self, t[2], t[3], p_value (self, t[2], t[3]), &self->rows[r].self);
    }
  qsort (self->rows, n_rows, sizeof (TvDiffFunction), compare_rows);
  self->n_rows = n_rows;
}

/* ------------------------------------------------------------------------ */
/* The diff                                                                  */
/* ------------------------------------------------------------------------ */

static void
side_init (Side          *side,
           TvCallTree    *tree,
           TvDiffNormalization normalization)
{
  side->tree = tv_call_tree_ref (tree);
  side->n_nodes = tv_call_tree_get_n_nodes (tree);
  if (normalization == TV_DIFF_BY_TIME)
    side->weight = tv_call_tree_samples_to_seconds (tree, 1, NULL);
  else
    {
      guint64 n = tv_call_tree_get_n_samples (tree);

      side->weight = n > 0 ? 1.0 / (double) n : 0;
    }
  side->other = g_new (guint32, side->n_nodes);
  side->p_total = g_new (double, side->n_nodes);
  side->p_self = g_new (double, side->n_nodes);
  side->unmatched = g_new (guint64, side->n_nodes);
}

static void
side_clear (Side *side)
{
  g_clear_pointer (&side->tree, tv_call_tree_unref);
  g_clear_pointer (&side->other, g_free);
  g_clear_pointer (&side->p_total, g_free);
  g_clear_pointer (&side->p_self, g_free);
  g_clear_pointer (&side->unmatched, g_free);
  g_clear_pointer (&side->tops, g_free);
}

/**
 * tv_diff_new:
 *
 * Compares NEW_TREE with BASE.  Safe on any thread.
 *
 * Returns: (transfer full) (nullable): the diff, or %NULL if cancelled
 */
TvDiff *
tv_diff_new (TvCallTree          *base,
             TvCallTree          *new_tree,
             const TvDiffOptions *options,
             GCancellable        *cancellable)
{
  g_autoptr(TvDiff) self = NULL;
  TvProfileData *base_data, *new_data;

  g_return_val_if_fail (base != NULL, NULL);
  g_return_val_if_fail (new_tree != NULL, NULL);
  g_return_val_if_fail (tv_call_tree_get_merge (base) == tv_call_tree_get_merge (new_tree), NULL);
  g_return_val_if_fail (!tv_call_tree_get_inverted (base) == !tv_call_tree_get_inverted (new_tree),
                        NULL);
  g_return_val_if_fail (options == NULL
                        || (options->normalization <= TV_DIFF_BY_SHARE
                            && options->confidence > 0 && options->confidence < 1), NULL);

  self = g_new0 (TvDiff, 1);
  g_atomic_ref_count_init (&self->ref_count);
  if (options != NULL)
    self->options = *options;
  else
    tv_diff_options_init (&self->options);
  self->alpha = 1 - self->options.confidence;
  self->merge = tv_call_tree_get_merge (base);
  side_init (&self->sides[TV_DIFF_SIDE_BASE], base, self->options.normalization);
  side_init (&self->sides[TV_DIFF_SIDE_NEW], new_tree, self->options.normalization);
  self->testable = binomial_init (&self->binomial, self->sides[TV_DIFF_SIDE_BASE].weight,
                                  self->sides[TV_DIFF_SIDE_NEW].weight);
  base_data = tv_call_tree_get_data (base);
  new_data = tv_call_tree_get_data (new_tree);

  key_map_build (&self->keys, base_data, new_data, self->merge);
  if (self->merge != TV_MERGE_FUNCTION)
    key_map_build (&self->functions, base_data, new_data, TV_MERGE_FUNCTION);
  if (g_cancellable_is_cancelled (cancellable) || !match_nodes (self, cancellable))
    return NULL;
  if (!test_nodes (self, cancellable))
    return NULL;
  collect_unmatched (&self->sides[TV_DIFF_SIDE_BASE]);
  collect_unmatched (&self->sides[TV_DIFF_SIDE_NEW]);
  build_functions (self);
  self->comparability = tv_comparability_check (base_data, new_data, self->merge);
  if (g_cancellable_is_cancelled (cancellable))
    return NULL;

  return g_steal_pointer (&self);
}

TvDiff *
tv_diff_ref (TvDiff *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_atomic_ref_count_inc (&self->ref_count);
  return self;
}

void
tv_diff_unref (TvDiff *self)
{
  if (self == NULL || !g_atomic_ref_count_dec (&self->ref_count))
    return;
  side_clear (&self->sides[TV_DIFF_SIDE_BASE]);
  side_clear (&self->sides[TV_DIFF_SIDE_NEW]);
  key_map_clear (&self->keys);
  key_map_clear (&self->functions);
  g_free (self->rows);
  g_clear_pointer (&self->comparability, g_ptr_array_unref);
  g_free (self);
}

TvCallTree *
tv_diff_get_tree (TvDiff     *self,
                  TvDiffSide  side)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (side <= TV_DIFF_SIDE_NEW, NULL);
  return self->sides[side].tree;
}

void
tv_diff_get_options (TvDiff        *self,
                     TvDiffOptions *options)
{
  g_return_if_fail (self != NULL);
  *options = self->options;
}

double
tv_diff_get_weight (TvDiff     *self,
                    TvDiffSide  side)
{
  g_return_val_if_fail (self != NULL, 0);
  g_return_val_if_fail (side <= TV_DIFF_SIDE_NEW, 0);
  return self->sides[side].weight;
}

guint32
tv_diff_map_node (TvDiff     *self,
                  TvDiffSide  side,
                  guint32     node)
{
  g_return_val_if_fail (self != NULL, TV_NODE_NONE);
  g_return_val_if_fail (side <= TV_DIFF_SIDE_NEW, TV_NODE_NONE);
  g_return_val_if_fail (node < self->sides[side].n_nodes, TV_NODE_NONE);
  return self->sides[side].other[node];
}

guint32
tv_diff_map_key (TvDiff     *self,
                 TvDiffSide  side,
                 guint32     key)
{
  g_return_val_if_fail (self != NULL, TV_NODE_NONE);
  g_return_val_if_fail (side <= TV_DIFF_SIDE_NEW, TV_NODE_NONE);
  return key_map_lookup (&self->keys, side, key);
}

guint32
tv_diff_map_function (TvDiff     *self,
                      TvDiffSide  side,
                      guint32     function)
{
  g_return_val_if_fail (self != NULL, TV_NODE_NONE);
  g_return_val_if_fail (side <= TV_DIFF_SIDE_NEW, TV_NODE_NONE);
  return key_map_lookup (function_map (self), side, function);
}

void
tv_diff_get_node (TvDiff     *self,
                  TvDiffSide  side,
                  guint32     node,
                  TvDiffNode *out)
{
  const Side *base, *new_side;
  guint32 b, n;

  g_return_if_fail (self != NULL);
  g_return_if_fail (side <= TV_DIFF_SIDE_NEW);
  g_return_if_fail (node < self->sides[side].n_nodes);
  g_return_if_fail (out != NULL);

  base = &self->sides[TV_DIFF_SIDE_BASE];
  new_side = &self->sides[TV_DIFF_SIDE_NEW];

  b = side == TV_DIFF_SIDE_BASE ? node : new_side->other[node];
  n = side == TV_DIFF_SIDE_NEW ? node : base->other[node];
  out->base_node = b;
  out->new_node = n;
  fill_measure (self,
                b != TV_NODE_NONE ? tv_call_tree_get_total (base->tree, b) : 0,
                n != TV_NODE_NONE ? tv_call_tree_get_total (new_side->tree, n) : 0,
                self->sides[side].p_total[node], &out->total);
  fill_measure (self,
                b != TV_NODE_NONE ? tv_call_tree_get_self (base->tree, b) : 0,
                n != TV_NODE_NONE ? tv_call_tree_get_self (new_side->tree, n) : 0,
                self->sides[side].p_self[node], &out->self);
}

const TvDiffFunction *
tv_diff_get_functions (TvDiff *self,
                       guint  *n_rows)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (n_rows != NULL, NULL);
  *n_rows = self->n_rows;
  return self->rows;
}

/* The frame that stands for the row's function, and its profile. */
static guint32
row_frame (TvDiff               *self,
           const TvDiffFunction *row,
           TvProfileData       **data)
{
  TvDiffSide side = row->new_function != TV_NODE_NONE ? TV_DIFF_SIDE_NEW : TV_DIFF_SIDE_BASE;
  guint32 function = side == TV_DIFF_SIDE_NEW ? row->new_function : row->base_function;

  *data = tv_call_tree_get_data (self->sides[side].tree);
  return tv_profile_data_get_key_frame (*data, TV_MERGE_FUNCTION, function);
}

const char *
tv_diff_get_function_name (TvDiff               *self,
                           const TvDiffFunction *row)
{
  TvProfileData *data;
  guint32 frame;

  g_return_val_if_fail (self != NULL, "");
  g_return_val_if_fail (row != NULL, "");
  frame = row_frame (self, row, &data);
  return tv_profile_data_get_funcname (data, frame);
}

const char *
tv_diff_get_function_file (TvDiff               *self,
                           const TvDiffFunction *row)
{
  TvProfileData *data;
  guint32 frame;

  g_return_val_if_fail (self != NULL, "");
  g_return_val_if_fail (row != NULL, "");
  frame = row_frame (self, row, &data);
  return tv_profile_data_get_filename (data, frame);
}

const guint32 *
tv_diff_get_unmatched (TvDiff     *self,
                       TvDiffSide  side,
                       guint      *n_nodes)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (side <= TV_DIFF_SIDE_NEW, NULL);
  g_return_val_if_fail (n_nodes != NULL, NULL);
  *n_nodes = self->sides[side].n_tops;
  return self->sides[side].tops;
}

guint64
tv_diff_get_unmatched_total (TvDiff     *self,
                             TvDiffSide  side,
                             guint32     node)
{
  g_return_val_if_fail (self != NULL, 0);
  g_return_val_if_fail (side <= TV_DIFF_SIDE_NEW, 0);
  g_return_val_if_fail (node < self->sides[side].n_nodes, 0);
  return self->sides[side].unmatched[node];
}

GPtrArray *
tv_diff_get_comparability (TvDiff *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->comparability;
}

/* ------------------------------------------------------------------------ */
/* Comparability                                                             */
/* ------------------------------------------------------------------------ */

void
tv_comparability_free (TvComparability *comparability)
{
  if (comparability == NULL)
    return;
  g_free (comparability->message);
  g_free (comparability);
}

static void
add_caveat (GPtrArray           *list,
            TvComparabilityCode  code,
            char                *message)
{
  TvComparability *c = g_new0 (TvComparability, 1);

  c->code = code;
  c->message = message;
  g_ptr_array_add (list, c);
}

/* The name of a mode in a sentence ("recorded in %s mode"). */
static const char *
mode_name (TachMode mode)
{
  switch (mode)
    {
    case TACH_MODE_WALL:
      return C_("profiling mode", "wall-clock");
    case TACH_MODE_CPU:
      return C_("profiling mode", "CPU");
    case TACH_MODE_GIL:
      return C_("profiling mode", "GIL");
    case TACH_MODE_ALL:
      return C_("profiling mode", "“all”");
    case TACH_MODE_EXCEPTION:
      return C_("profiling mode", "exception");
    case TACH_MODE_UNKNOWN:
    default:
      return C_("profiling mode", "unknown");
    }
}

static void
check_mode (GPtrArray        *list,
            const TachHeader *a,
            const TachHeader *b)
{
  gboolean a_waits = a->mode == TACH_MODE_CPU || a->mode == TACH_MODE_GIL;
  gboolean b_waits = b->mode == TACH_MODE_CPU || b->mode == TACH_MODE_GIL;

  if (a->mode == b->mode)
    return;
  if (a->mode == TACH_MODE_UNKNOWN || b->mode == TACH_MODE_UNKNOWN)
    {
      if (a->mode == TACH_MODE_UNKNOWN)
        add_caveat (list, TV_COMPARABILITY_MODE_UNKNOWN,
                    g_strdup_printf (_("The file of BASE does not say in which mode it was "
                                       "recorded, and NEW was recorded in %s mode: if BASE "
                                       "used another mode, the profiles differ even where "
                                       "the program did not change."), mode_name (b->mode)));
      else
        add_caveat (list, TV_COMPARABILITY_MODE_UNKNOWN,
                    g_strdup_printf (_("BASE was recorded in %s mode, and the file of NEW "
                                       "does not say in which mode it was recorded: if NEW "
                                       "used another mode, the profiles differ even where "
                                       "the program did not change."), mode_name (a->mode)));
      return;
    }

  /* Waiting is what the modes disagree on most often, and what the user
   * must be told in so many words. */
  if (a->mode == TACH_MODE_WALL && b_waits)
    add_caveat (list, TV_COMPARABILITY_MODE,
                g_strdup_printf (_("BASE was recorded in wall-clock mode and NEW in %s mode: "
                                   "a function that waits looks faster in NEW only because "
                                   "waiting is not sampled."), mode_name (b->mode)));
  else if (a_waits && b->mode == TACH_MODE_WALL)
    add_caveat (list, TV_COMPARABILITY_MODE,
                g_strdup_printf (_("BASE was recorded in %s mode and NEW in wall-clock mode: "
                                   "a function that waits looks slower in NEW only because "
                                   "waiting is sampled."), mode_name (a->mode)));
  else
    add_caveat (list, TV_COMPARABILITY_MODE,
                g_strdup_printf (_("BASE was recorded in %s mode and NEW in %s mode: the "
                                   "modes sample the threads at different moments, so the "
                                   "profiles differ even where the program did not change."),
                                 mode_name (a->mode), mode_name (b->mode)));
}

/* SECONDS as "1.500 s" or "12.000 ms". */
static char *
format_seconds (double   seconds,
                gboolean with_sign)
{
  if (fabs (seconds) >= 1.0)
    return g_strdup_printf (with_sign ? "%+.3f s" : "%.3f s", seconds);
  return g_strdup_printf (with_sign ? "%+.3f ms" : "%.3f ms", seconds * 1e3);
}

/* Samples times seconds per sample: the thread time the profile covers. */
static double
covered_seconds (TvProfileData *data)
{
  return (double) tv_profile_data_get_n_samples (data)
         * tv_profile_data_get_seconds_per_sample (data, NULL);
}

/* What a stack (the path from the root to a node of the exact tree) holds:
 * a frame of a function the other profile knows, and one of those at a
 * merge key the other profile lacks. */
#define STACK_KNOWN     1
#define STACK_UNMATCHED 2

/* Of the samples whose stack holds a frame of a function the other
 * profile knows, the fraction whose stack also holds such a frame at a
 * merge key the other profile lacks: the samples that matching by MERGE
 * puts on paths the other side does not have.  Each sample counts once,
 * however deep its stack; a parent's id is smaller than its children's,
 * so one pass in id order carries the flags down. */
static double
unmatched_key_fraction (TvProfileData *data,
                        const KeyMap  *keys,
                        const KeyMap  *functions,
                        TvDiffSide     side,
                        TvMergeKey     merge)
{
  const TvExactTree *exact = tv_profile_data_get_tree (data);
  const guint32 *frame_keys = tv_profile_data_get_frame_keys (data, merge);
  const guint32 *frame_functions = tv_profile_data_get_frame_keys (data, TV_MERGE_FUNCTION);
  g_autofree guint8 *flags = NULL;
  double known = 0, unmatched = 0;

  if (exact->n_nodes == 0)
    return 0;
  flags = g_new0 (guint8, exact->n_nodes);
  for (guint32 n = 1; n < exact->n_nodes; n++)
    {
      guint32 frame = exact->frame[n];

      flags[n] = flags[exact->parent[n]];
      if (key_map_lookup (functions, side, frame_functions[frame]) != TV_NODE_NONE)
        flags[n] |= key_map_lookup (keys, side, frame_keys[frame]) == TV_NODE_NONE
                    ? STACK_KNOWN | STACK_UNMATCHED : STACK_KNOWN;
      if (flags[n] & STACK_KNOWN)
        known += (double) exact->self[n];
      if (flags[n] & STACK_UNMATCHED)
        unmatched += (double) exact->self[n];
    }
  return known > 0 ? unmatched / known : 0;
}

static void
check_source (GPtrArray     *list,
              TvProfileData *base,
              TvProfileData *new_data,
              TvMergeKey     merge)
{
  KeyMap keys = { 0 }, functions = { 0 };
  double fraction;

  key_map_build (&keys, base, new_data, merge);
  key_map_build (&functions, base, new_data, TV_MERGE_FUNCTION);
  fraction = MAX (unmatched_key_fraction (base, &keys, &functions, TV_DIFF_SIDE_BASE, merge),
                  unmatched_key_fraction (new_data, &keys, &functions, TV_DIFF_SIDE_NEW, merge));
  key_map_clear (&keys);
  key_map_clear (&functions);

  /* Lines that only one run reached carry a few samples; moved code
   * carries most of them. */
  if (fraction >= 0.25)
    add_caveat (list, TV_COMPARABILITY_SOURCE_CHANGED,
                g_strdup_printf (merge == TV_MERGE_LINE
                                 ? _("In %.0f %% of the samples that pass through functions "
                                     "both profiles have, the stack holds a line of such a "
                                     "function that only one profile has: the source "
                                     "probably changed between the runs, and matched by "
                                     "line, those stacks have no counterpart on the other "
                                     "side. Match by function instead.")
                                 : _("In %.0f %% of the samples that pass through functions "
                                     "both profiles have, the stack holds an instruction of "
                                     "such a function that only one profile has: the source "
                                     "probably changed between the runs, and matched by "
                                     "instruction, those stacks have no counterpart on the "
                                     "other side. Match by function instead."),
                                 floor (fraction * 100)));
}

/* Whether DATA's samples stand for any time: a stats block without a
 * sampling rate and a header interval of 0 leave them at 0 s, and a
 * comparison by time then has nothing to test (see binomial_init()). */
static gboolean
has_time_per_sample (TvProfileData *data)
{
  double seconds = tv_profile_data_get_seconds_per_sample (data, NULL);

  return seconds > 0 && isfinite (seconds);
}

/* Where each side's time per sample comes from: the measured rate on one
 * side and the interval on the other (no stats block, or one without a
 * rate) weigh the two differently. */
static void
check_time_source (GPtrArray     *list,
                   TvProfileData *base,
                   TvProfileData *new_data)
{
  TvTimeSource source_a, source_b;
  gboolean stats_a = tach_reader_get_stats (tv_profile_data_get_reader (base))->present;
  gboolean stats_b = tach_reader_get_stats (tv_profile_data_get_reader (new_data))->present;

  /* Without a time per sample, TV_COMPARABILITY_NO_TIME says more. */
  if (!has_time_per_sample (base) || !has_time_per_sample (new_data))
    return;
  tv_profile_data_get_seconds_per_sample (base, &source_a);
  tv_profile_data_get_seconds_per_sample (new_data, &source_b);
  if (source_a == TV_TIME_SOURCE_INTERVAL && source_b == TV_TIME_SOURCE_STATS)
    add_caveat (list, TV_COMPARABILITY_NO_STATS_BASE,
                g_strdup (stats_a
                          ? _("BASE's statistics block records no sampling rate: its times "
                              "are its samples times the sampling interval, while NEW's "
                              "come from the measured sampling rate, so compared by time "
                              "BASE is off by the samples its profiler missed.")
                          : _("BASE has no statistics block: its times are its samples times "
                              "the sampling interval, while NEW's come from the measured "
                              "sampling rate, so compared by time BASE is off by the samples "
                              "its profiler missed.")));
  else if (source_a == TV_TIME_SOURCE_STATS && source_b == TV_TIME_SOURCE_INTERVAL)
    add_caveat (list, TV_COMPARABILITY_NO_STATS_NEW,
                g_strdup (stats_b
                          ? _("NEW's statistics block records no sampling rate: its times "
                              "are its samples times the sampling interval, while BASE's "
                              "come from the measured sampling rate, so compared by time "
                              "NEW is off by the samples its profiler missed.")
                          : _("NEW has no statistics block: its times are its samples times "
                              "the sampling interval, while BASE's come from the measured "
                              "sampling rate, so compared by time NEW is off by the samples "
                              "its profiler missed.")));
}

/* A side whose samples stand for no time makes every comparison by time
 * empty: all its values 0 s, and no change testable. */
static void
check_no_time (GPtrArray     *list,
               TvProfileData *base,
               TvProfileData *new_data)
{
  gboolean time_a = has_time_per_sample (base);
  gboolean time_b = has_time_per_sample (new_data);

  if (time_a && time_b)
    return;
  add_caveat (list, TV_COMPARABILITY_NO_TIME,
              g_strdup (!time_a && !time_b
                        ? _("Neither BASE nor NEW records how long a sample lasts (no "
                            "measured sampling rate, and a sampling interval of 0), so they "
                            "cannot be compared by time: every value would be 0 s and no "
                            "change could be tested. Compare by share of samples instead "
                            "(--by share on the command line).")
                        : !time_a
                        ? _("BASE does not record how long a sample lasts (no measured "
                            "sampling rate, and a sampling interval of 0), so the profiles "
                            "cannot be compared by time: every value of BASE would be 0 s "
                            "and no change could be tested. Compare by share of samples "
                            "instead (--by share on the command line).")
                        : _("NEW does not record how long a sample lasts (no measured "
                            "sampling rate, and a sampling interval of 0), so the profiles "
                            "cannot be compared by time: every value of NEW would be 0 s "
                            "and no change could be tested. Compare by share of samples "
                            "instead (--by share on the command line).")));
}

/**
 * tv_comparability_check:
 *
 * Safe on any thread.
 */
GPtrArray *
tv_comparability_check (TvProfileData *base,
                        TvProfileData *new_data,
                        TvMergeKey     merge)
{
  TachReader *ra, *rb;
  const TachHeader *a, *b;
  const TachStats *sa, *sb;
  GPtrArray *list;

  g_return_val_if_fail (base != NULL, NULL);
  g_return_val_if_fail (new_data != NULL, NULL);
  g_return_val_if_fail (merge < TV_N_MERGE_KEYS, NULL);

  list = g_ptr_array_new_with_free_func ((GDestroyNotify) tv_comparability_free);
  ra = tv_profile_data_get_reader (base);
  rb = tv_profile_data_get_reader (new_data);
  a = tach_reader_get_header (ra);
  b = tach_reader_get_header (rb);
  sa = tach_reader_get_stats (ra);
  sb = tach_reader_get_stats (rb);

  check_mode (list, a, b);

  if (a->sample_interval_us != b->sample_interval_us)
    {
      g_autofree char *ia = g_strdup_printf ("%" G_GUINT64_FORMAT, a->sample_interval_us);
      g_autofree char *ib = g_strdup_printf ("%" G_GUINT64_FORMAT, b->sample_interval_us);

      add_caveat (list, TV_COMPARABILITY_INTERVAL,
                  g_strdup_printf (_("BASE was sampled every %s µs and NEW every %s µs: "
                                     "the comparison weighs each sample by the time it "
                                     "stands for, but the profiler's own load on the machine "
                                     "differed, and the side sampled less often is noisier."),
                                   ia, ib));
    }

  if (a->python_major != b->python_major || a->python_minor != b->python_minor
      || a->python_micro != b->python_micro)
    {
      g_autofree char *va = g_strdup_printf ("%u.%u.%u", a->python_major, a->python_minor,
                                             a->python_micro);
      g_autofree char *vb = g_strdup_printf ("%u.%u.%u", b->python_major, b->python_minor,
                                             b->python_micro);

      add_caveat (list, TV_COMPARABILITY_PYTHON_VERSION,
                  g_strdup_printf (_("BASE was recorded with Python %s and NEW with Python "
                                     "%s: the interpreter runs the same code at a different "
                                     "speed, so part of every difference is the "
                                     "interpreter's."), va, vb));
    }

  check_time_source (list, base, new_data);

  if (sa->present && sb->present && sa->has_missed_samples && sb->has_missed_samples
      && fabs (sa->missed_samples - sb->missed_samples) >= 5)
    add_caveat (list, TV_COMPARABILITY_MISSED_SAMPLES,
                g_strdup_printf (_("The profiler missed %.1f %% of the samples of BASE and "
                                   "%.1f %% of those of NEW: where it could not keep up, the "
                                   "functions running at the time are under-counted on one "
                                   "side more than on the other."),
                                 sa->missed_samples, sb->missed_samples));

  {
    double ta = covered_seconds (base), tb = covered_seconds (new_data);

    if (ta > 0 && tb > 0 && MAX (ta, tb) / MIN (ta, tb) >= 1.5)
      {
        /* "1020.300 s", never "1.02e+03 s". */
        g_autofree char *time_a = format_seconds (ta, FALSE);
        g_autofree char *time_b = format_seconds (tb, FALSE);

        /* Translators: the %s are durations such as "1.500 s". */
        add_caveat (list, TV_COMPARABILITY_DURATION,
                    g_strdup_printf (tb > ta
                                     ? _("The samples of BASE stand for %s and those of NEW "
                                         "for %s: compared by time, every function looks "
                                         "slower in NEW. Unless both runs did the same work, "
                                         "compare by share.")
                                     : _("The samples of BASE stand for %s and those of NEW "
                                         "for %s: compared by time, every function looks "
                                         "faster in NEW. Unless both runs did the same work, "
                                         "compare by share."), time_a, time_b));
      }
  }

  if (merge == TV_MERGE_LINE || merge == TV_MERGE_INSTRUCTION || merge == TV_MERGE_FRAME)
    check_source (list, base, new_data, merge);

  if ((merge == TV_MERGE_INSTRUCTION || merge == TV_MERGE_FRAME)
      && (a->python_major != b->python_major || a->python_minor != b->python_minor))
    {
      g_autofree char *va = g_strdup_printf ("%u.%u", a->python_major, a->python_minor);
      g_autofree char *vb = g_strdup_printf ("%u.%u", b->python_major, b->python_minor);

      add_caveat (list, TV_COMPARABILITY_BYTECODE,
                  g_strdup_printf (_("Python %s and Python %s compile the same source to "
                                     "different bytecode, so few instructions match: match "
                                     "by line or by function instead."), va, vb));
    }

  check_no_time (list, base, new_data);

  return list;
}

char *
tv_diff_format_value (TvDiff   *diff,
                      double    value,
                      gboolean  with_sign)
{
  g_return_val_if_fail (diff != NULL, NULL);

  if (diff->options.normalization == TV_DIFF_BY_SHARE)
    return g_strdup_printf (with_sign ? "%+.2f %%" : "%.2f %%", value * 100.0);
  return format_seconds (value, with_sign);
}
