/* tv-call-tree-functions.c: the function table of a call tree
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Each function's self and total samples, read off a view's tree before
 * it is turned over (an inverted tree's functions are its top-down
 * tree's), and the order the table lists them in; a function's callers
 * and callees.
 */
#include "tv-call-tree-private.h"
#include "tv-huge-pages.h"

/* The rows of the N_FUNCTIONS functions with samples, unsorted: their
 * FSELF and FTOTAL. */
static TvFunctionRow *
function_rows (guint32        n_functions,
               const guint64 *fself,
               const guint64 *ftotal,
               guint         *n_rows_out)
{
  TvFunctionRow *rows;
  guint n_rows = 0;

  for (guint32 f = 0; f < n_functions; f++)
    if (ftotal[f] > 0)
      n_rows++;
  rows = g_new (TvFunctionRow, MAX (n_rows, 1));
  n_rows = 0;
  for (guint32 f = 0; f < n_functions; f++)
    if (ftotal[f] > 0)
      rows[n_rows++] = (TvFunctionRow) { f, fself[f], ftotal[f] };
  *n_rows_out = n_rows;
  return rows;
}

/* Functions, from a tree that is not inverted: self adds up, and total
 * counts each sample once per function however deep the recursion: a node
 * adds its total only when no ancestor is the same function.  The tree is
 * N_NODES nodes with their PARENT, KEY, SELF and TOTAL, and CHILDREN of
 * each node from CHILD_START. */
TvFunctionRow *
tv_call_tree_build_functions (TvProfileData        *data,
                              TvMergeKey            merge,
                              const FunctionsInput *in,
                              guint                *n_rows_out,
                              guint32             **outer_start,
                              guint32             **outer_nodes,
                              Progress             *progress)
{
  guint32 n_nodes = in->n_nodes;
  guint32 n_functions = tv_profile_data_get_n_keys (data, TV_MERGE_FUNCTION);
  guint32 n_keys = tv_profile_data_get_n_keys (data, merge);
  const guint32 *frame_functions = tv_profile_data_get_frame_keys (data, TV_MERGE_FUNCTION);
  g_autofree guint64 *fself = g_new0 (guint64, MAX (n_functions, 1));
  g_autofree guint64 *ftotal = g_new0 (guint64, MAX (n_functions, 1));
  g_autofree guint32 *active = g_new0 (guint32, MAX (n_functions, 1));
  g_autofree guint32 *key_fn = g_new (guint32, MAX (n_keys, 1));
  /* A path's nodes: as deep as the tree, whatever its size. */
  tv_autohuge guint32 *stack = tv_huge_new (guint32, n_nodes + 1);
  tv_autohuge guint32 *next = tv_huge_new (guint32, n_nodes + 1);
  /* With OUTER_START: which nodes are outermost calls, and how many each
   * function has. */
  tv_autohuge guint8 *outer = outer_start != NULL ? tv_huge_new0 (guint8, MAX (n_nodes, 1)) : NULL;
  g_autofree guint32 *n_outer = outer_start != NULL ? g_new0 (guint32, n_functions + 1) : NULL;
  TvFunctionRow *rows;
  guint32 sp = 0;

  /* Each key's function, looked up once rather than once a node. */
  for (guint32 k = 0; k < n_keys; k++)
    key_fn[k] = frame_functions[tv_profile_data_get_key_frame (data, merge, k)];

  /* Depth-first, with the count of each function on the current path. */
  stack[sp] = 0;
  next[sp] = 0;
  sp++;
  while (sp > 0)
    {
      guint32 n = stack[sp - 1];
      guint32 i = next[sp - 1];

      if (i == 0 && !progress_step (progress, n, n_nodes))
        break;
      if (i == 0 && n != 0)
        {
          guint32 f = key_fn[in->key[n]];

          fself[f] += in->self[n];
          if (active[f]++ == 0)
            {
              ftotal[f] += in->total[n];
              if (outer != NULL)
                {
                  outer[n] = 1;
                  n_outer[f]++;
                }
            }
        }
      if (in->child_start[n] + i < in->child_start[n + 1])
        {
          next[sp - 1] = i + 1;
          stack[sp] = in->children[in->child_start[n] + i];
          next[sp] = 0;
          sp++;
        }
      else
        {
          if (n != 0)
            active[key_fn[in->key[n]]]--;
          sp--;
        }
    }

  rows = function_rows (n_functions, fself, ftotal, n_rows_out);

  if (outer_start != NULL)
    {
      guint32 *start = g_new (guint32, n_functions + 1);
      guint32 *nodes;
      guint32 sum = 0;

      for (guint32 f = 0; f < n_functions; f++)
        {
          start[f] = sum;
          sum += n_outer[f];
          n_outer[f] = start[f];
        }
      start[n_functions] = sum;
      nodes = tv_huge_new (guint32, MAX (sum, 1));
      for (guint32 n = 1; n < n_nodes; n++)
        if (outer[n])
          nodes[n_outer[key_fn[in->key[n]]]++] = n;
      *outer_start = start;
      *outer_nodes = nodes;
    }
  return rows;
}

/* The functions of a builder's tree, before it is turned over. */
TvFunctionRow *
tv_builder_functions (TvProfileData *data,
                      TvMergeKey     merge,
                      const Builder *b,
                      guint         *n_rows_out,
                      Progress      *progress)
{
  tv_autohuge guint64 *total = tv_huge_new (guint64, b->n_nodes);
  tv_autohuge guint32 *child_start = NULL;
  tv_autohuge guint32 *children = NULL;
  FunctionsInput in;

  tv_builder_sum_totals (b, total);
  tv_index_children (b->n_nodes, b->parent, &child_start, &children);
  in = (FunctionsInput) { b->n_nodes, b->key, b->self, total, child_start, children };
  return tv_call_tree_build_functions (data, merge, &in, n_rows_out, NULL, NULL, progress);
}

/* The table's order: most samples first, then most self samples, then by
 * key, so that equal rows keep one order. */
int
tv_function_rows_compare (const void *pa,
                          const void *pb)
{
  const TvFunctionRow *a = pa, *b = pb;

  if (a->total != b->total)
    return a->total > b->total ? -1 : 1;
  if (a->self != b->self)
    return a->self > b->self ? -1 : 1;
  return a->function < b->function ? -1 : a->function > b->function;
}

/* Adds COUNT to FUNCTION's row in ROWS, found through AT (per function,
 * the row's index + 1; TV_NODE_NONE is the last slot). */
static void
add_neighbour (GArray  *rows,
               guint32 *at,
               guint32  n_functions,
               guint32  function,
               guint64  count)
{
  guint32 slot = function == TV_NODE_NONE ? n_functions : function;

  if (at[slot] == 0)
    {
      TvFunctionRow row = { function, 0, 0 };

      g_array_append_val (rows, row);
      at[slot] = rows->len;
    }
  g_array_index (rows, TvFunctionRow, at[slot] - 1).total += count;
}

/* Adds the outermost call NODE to the callers and callees: its caller,
 * and what it calls (its self samples as no function). */
static void
add_call (TvCallTree *self,
          guint32     node,
          GArray     *callers,
          guint32    *caller_at,
          GArray     *callees,
          guint32    *callee_at,
          guint32     n_functions)
{
  guint32 p = self->parent[node];

  if (self->total[node] == 0)
    return;
  add_neighbour (callers, caller_at, n_functions,
                 p == TV_ROOT_NODE ? TV_NODE_NONE : tv_call_tree_get_function (self, p),
                 self->total[node]);
  if (self->self[node] > 0)
    add_neighbour (callees, callee_at, n_functions, TV_NODE_NONE, self->self[node]);
  for (guint32 i = self->child_start[node]; i < self->child_start[node + 1]; i++)
    {
      guint32 c = self->children[i];

      if (self->total[c] > 0)
        add_neighbour (callees, callee_at, n_functions, tv_call_tree_get_function (self, c),
                       self->total[c]);
    }
}

gboolean
tv_call_tree_get_neighbours (TvCallTree     *self,
                             guint32         function,
                             GCancellable   *cancellable,
                             TvFunctionRow **callers_out,
                             guint          *n_callers,
                             TvFunctionRow **callees_out,
                             guint          *n_callees)
{
  guint32 n_functions = tv_profile_data_get_n_keys (self->data, TV_MERGE_FUNCTION);
  g_autofree guint8 *inside = NULL;
  g_autofree guint32 *caller_at = NULL;
  g_autofree guint32 *callee_at = NULL;
  g_autoptr(GArray) callers = NULL;
  g_autoptr(GArray) callees = NULL;

  g_return_val_if_fail (self != NULL, FALSE);

  if (self->inverted)
    return FALSE;
  if (self->neighbours.callers_start != NULL)
    {
      /* Read off the exact tree when the table was made. */
      guint32 from = function < n_functions ? self->neighbours.callers_start[function] : 0;
      guint32 to = function < n_functions ? self->neighbours.callers_start[function + 1] : 0;

      *n_callers = to - from;
      *callers_out = g_new (TvFunctionRow, MAX (to - from, 1));
      memcpy (*callers_out, self->neighbours.callers_rows + from, (to - from) * sizeof (TvFunctionRow));
      from = function < n_functions ? self->neighbours.callees_start[function] : 0;
      to = function < n_functions ? self->neighbours.callees_start[function + 1] : 0;
      *n_callees = to - from;
      *callees_out = g_new (TvFunctionRow, MAX (to - from, 1));
      memcpy (*callees_out, self->neighbours.callees_rows + from, (to - from) * sizeof (TvFunctionRow));
      return TRUE;
    }
  caller_at = g_new0 (guint32, (gsize) n_functions + 1);
  callee_at = g_new0 (guint32, (gsize) n_functions + 1);
  callers = g_array_new (FALSE, FALSE, sizeof (TvFunctionRow));
  callees = g_array_new (FALSE, FALSE, sizeof (TvFunctionRow));

  if (self->outer_start != NULL)
    {
      /* The function's outermost calls, listed when its table was made. */
      for (guint32 i = function < n_functions ? self->outer_start[function] : 0;
           function < n_functions && i < self->outer_start[function + 1]; i++)
        {
          if (i % PROGRESS_EVERY == 0 && g_cancellable_is_cancelled (cancellable))
            return FALSE;
          add_call (self, self->outer_nodes[i], callers, caller_at, callees, callee_at,
                    n_functions);
        }
    }
  else
    {
      /* Parents come before their children: INSIDE says a node is the
       * function's or below one of its calls; an outermost call is one
       * whose parent is not inside. */
      inside = g_new0 (guint8, self->n_nodes);
      for (guint32 n = 1; n < self->n_nodes; n++)
        {
          guint32 p = self->parent[n];
          gboolean here = tv_call_tree_get_function (self, n) == function;

          if (n % PROGRESS_EVERY == 0 && g_cancellable_is_cancelled (cancellable))
            return FALSE;
          inside[n] = inside[p] || here;
          if (here && !inside[p])
            add_call (self, n, callers, caller_at, callees, callee_at, n_functions);
        }
    }

  *n_callers = callers->len;
  *callers_out = (TvFunctionRow *) (gpointer) g_array_free (g_steal_pointer (&callers), FALSE);
  *n_callees = callees->len;
  *callees_out = (TvFunctionRow *) (gpointer) g_array_free (g_steal_pointer (&callees), FALSE);
  return TRUE;
}

/* Counts by (function, function) pair, few enough to stay in cache:
 * open addressing on the pair + 1. */
typedef struct
{
  guint64 *keys;
  guint64 *counts;
  guint32  mask;
  guint32  n;
  /* The pair added last, and its slot: down a chain of calls, the next
   * node often adds it again. */
  guint64  last_key;
  guint32  last_slot;
} PairTable;

/* Empty, with room for SLOTS (a power of two) before it grows. */
static void
pair_table_init_sized (PairTable *t,
                       guint32    slots)
{
  t->mask = slots - 1;
  t->n = 0;
  t->last_key = 0;
  t->keys = g_new0 (guint64, t->mask + 1);
  t->counts = g_new0 (guint64, t->mask + 1);
}

static void
pair_table_init (PairTable *t)
{
  pair_table_init_sized (t, 1024);
}

static void
pair_table_clear (PairTable *t)
{
  g_clear_pointer (&t->keys, g_free);
  g_clear_pointer (&t->counts, g_free);
}

static inline guint32
pair_slot (const PairTable *t,
           guint64          key)
{
  guint32 slot = (guint32) ((key * G_GUINT64_CONSTANT (0x9E3779B97F4A7C15)) >> 32) & t->mask;

  while (t->keys[slot] != 0 && t->keys[slot] != key)
    slot = (slot + 1) & t->mask;
  return slot;
}

/* A table twice the size, with T's pairs. */
G_GNUC_NO_INLINE static void
pair_table_grow (PairTable *t)
{
  PairTable bigger = { g_new0 (guint64, 2 * ((gsize) t->mask + 1)),
                       g_new0 (guint64, 2 * ((gsize) t->mask + 1)),
                       2 * t->mask + 1, t->n, 0, 0 };

  for (guint32 i = 0; i <= t->mask; i++)
    if (t->keys[i] != 0)
      {
        guint32 s = pair_slot (&bigger, t->keys[i]);

        bigger.keys[s] = t->keys[i];
        bigger.counts[s] = t->counts[i];
      }
  pair_table_clear (t);
  *t = bigger;
}

/* Adds COUNT to the pair of KEY, (function << 32 | other) + 1. */
static inline void
pair_add_key (PairTable *t,
              guint64    key,
              guint64    count)
{
  guint32 slot;

  if (key == t->last_key)
    {
      t->counts[t->last_slot] += count;
      return;
    }
  slot = pair_slot (t, key);
  t->counts[slot] += count;
  if (G_UNLIKELY (t->keys[slot] == 0))
    {
      t->keys[slot] = key;
      if (++t->n * 2 > t->mask)
        {
          pair_table_grow (t);
          return;
        }
    }
  t->last_key = key;
  t->last_slot = slot;
}

static inline void
pair_add (PairTable *t,
          guint32    function,
          guint32    other,
          guint64    count)
{
  pair_add_key (t, ((guint64) function << 32 | other) + 1, count);
}

static int
compare_u64 (const void *pa,
             const void *pb)
{
  guint64 a = *(const guint64 *) pa, b = *(const guint64 *) pb;

  return (a > b) - (a < b);
}

/* The pairs of T as rows per function: function F's are
 * (*ROWS)[(*START)[F]] to (*ROWS)[(*START)[F + 1] - 1], each the other
 * function (TV_NODE_NONE for none) and its count. */
static void
pair_table_rows (const PairTable *t,
                 guint32          n_functions,
                 guint32        **start_out,
                 TvFunctionRow  **rows_out)
{
  g_autofree guint64 *order = g_new (guint64, MAX (t->n, 1));
  guint32 *start = g_new0 (guint32, (gsize) n_functions + 1);
  TvFunctionRow *rows = g_new (TvFunctionRow, MAX (t->n, 1));
  guint32 n = 0;

  /* Slot indices by key: the key's high half is the function. */
  for (guint32 i = 0; i <= t->mask; i++)
    if (t->keys[i] != 0)
      order[n++] = i;
  for (guint32 i = 0; i < n; i++)
    order[i] |= (t->keys[order[i]] - 1) & G_GUINT64_CONSTANT (0xFFFFFFFF00000000);
  qsort (order, n, sizeof (guint64), compare_u64);
  for (guint32 i = 0; i < n; i++)
    {
      guint32 slot = (guint32) order[i];
      guint64 key = t->keys[slot] - 1;

      rows[i] = (TvFunctionRow) { (guint32) key, 0, t->counts[slot] };
      start[(key >> 32) + 1]++;
    }
  for (guint32 f = 0; f < n_functions; f++)
    start[f + 1] += start[f];
  *start_out = start;
  *rows_out = rows;
}

/* A node on the exact path being walked: the next of its children to
 * visit and their samples so far, its view node's function (none at the
 * root, or outside a focus), whether that view node is an outermost call
 * of it, and whether the node itself is where that view node begins
 * rather than merged into its parent's. */
typedef struct
{
  guint32  node;
  guint32  next;
  guint32  function;
  gboolean outer;
  gboolean head;
  guint64  children;
} PathNode;

/* The end of a read off the exact tree: the rows of the N_FUNCTIONS
 * functions' FSELF and FTOTAL, and the CALLERS and CALLEES into
 * NEIGHBOURS, both tables freed; NULL, with nothing made, once PROGRESS
 * was cancelled. */
static TvFunctionRow *
exact_tables_finish (guint32         n_functions,
                     const guint64  *fself,
                     const guint64  *ftotal,
                     PairTable      *callers,
                     PairTable      *callees,
                     Neighbours     *neighbours,
                     guint          *n_rows_out,
                     const Progress *progress)
{
  TvFunctionRow *rows = NULL;

  if (!progress->cancelled)
    {
      rows = function_rows (n_functions, fself, ftotal, n_rows_out);
      pair_table_rows (callers, n_functions, &neighbours->callers_start,
                       &neighbours->callers_rows);
      pair_table_rows (callees, n_functions, &neighbours->callees_start,
                       &neighbours->callees_rows);
    }
  pair_table_clear (callers);
  pair_table_clear (callees);
  return rows;
}

/* What a pass of exact_functions_flat() adds up: each function's self,
 * total and outermost calls' self samples (OUTER_SELF, their callee
 * "none"), and the (function, caller) and (function, callee) pairs.  A
 * self goes below zero and back, in modulo arithmetic: the sums of
 * several passes are those of one. */
typedef struct
{
  guint64   *fself;
  guint64   *ftotal;
  guint64   *outer_self;
  PairTable  callers;
  PairTable  callees;
  /* With signatures (Signatures), the samples of each, added to the
   * others when the table is made. */
  guint64   *by_signature;
  guint32    n_signatures;
} FlatSums;

static void
flat_sums_init (FlatSums *s,
                guint32   n_functions,
                guint32   n_signatures)
{
  s->fself = g_new0 (guint64, MAX (n_functions, 1));
  s->ftotal = g_new0 (guint64, MAX (n_functions, 1));
  s->outer_self = g_new0 (guint64, MAX (n_functions, 1));
  pair_table_init (&s->callers);
  pair_table_init (&s->callees);
  s->n_signatures = n_signatures;
  s->by_signature = n_signatures > 0 ? g_new0 (guint64, n_signatures) : NULL;
}

static void
flat_sums_clear (FlatSums *s)
{
  g_clear_pointer (&s->fself, g_free);
  g_clear_pointer (&s->ftotal, g_free);
  g_clear_pointer (&s->outer_self, g_free);
  g_clear_pointer (&s->by_signature, g_free);
  pair_table_clear (&s->callers);
  pair_table_clear (&s->callees);
}

/* What the samples of an exact node add to a function table, when no
 * node is hidden, depends only on its function, its caller's, and
 * whether each is an outermost call of its function (see flat_add_words ()):
 * its signature.  A deep recursion has millions of nodes that are not
 * quiet (TvExactTree.quiet_calls), and some tens of thousands of
 * signatures.  With each loud node's signature, a pass adds the samples
 * of each signature, an array's element a node, and the table is made
 * from those: no lookups of parents, frames and pairs a node.  A profile
 * whose signatures these are (a few bytes a loud node) keeps them between
 * queries as it keeps its runs (tv_huge_keep ()). */
typedef struct
{
  guint32 function;
  guint32 caller;               /* TV_NODE_NONE under the root */
  guint32 flags;
} Signature;

#define SIGNATURE_OUTER        1u   /* the node is an outermost call */
#define SIGNATURE_CALLER_OUTER 2u   /* and its caller is */

/* Signatures are made for this many loud nodes at least, or up to one in
 * four of the nodes: past that (a deep tree that seldom recurses) they
 * would be as many bytes as the tree.  Tests change it (see
 * tv_call_tree_set_signature_limits ()). */
static guint32 signatures_min_loud = 1u << 22;

typedef struct
{
  TvProfileData   *data;
  guint32         *block;       /* as kept, see signatures_layout () */
  gsize            bytes;
  guint32          n_signatures;
  guint32          n_loud;
  /* For each 64 words of the bitmaps (4,096 nodes), the loud nodes
   * before them. */
  const guint32   *loud_before;
  /* Each loud node's signature, in node order. */
  const guint32   *of_node;
  const Signature *signatures;
} Signatures;

static gint signatures_reused;

guint
tv_call_tree_get_signatures_reused (void)
{
  return (guint) g_atomic_int_get (&signatures_reused);
}

/* A table is read off the outermost calls when they are at most this
 * share of the loud nodes; tests change it
 * (tv_call_tree_set_outer_calls_share ()). */
static double outer_calls_share = 0.25;
static gint outer_tables;

void
tv_call_tree_set_outer_calls_share (double share)
{
  outer_calls_share = share;
}

guint
tv_call_tree_get_outer_tables (void)
{
  return (guint) g_atomic_int_get (&outer_tables);
}

/* Whether a function table with no hidden node is read off DATA's
 * outermost calls and their children (flat_add_outer ()), with the
 * samples each function has as its own from the hits (flat_add_own ()),
 * rather than off every loud node.  A deep recursion through several
 * functions calls none of them quietly: the tree merged by function of
 * deepgen 3M has 19.0 million loud nodes, of which 0.91 million are
 * outermost calls (with 0.70 million children).  The deep 3M file
 * recurses through one function at a time: 2.29 million loud nodes, 2.07
 * million of them outermost, which its signatures read faster. */
static gboolean
reads_outer_calls (TvProfileData *data)
{
  const TvExactTree *exact = tv_profile_data_get_tree (data);
  gsize n_words = ((gsize) exact->n_nodes + 63) / 64;
  guint64 n_outer = 0, n_loud;

  if (exact->n_nodes < 2 || exact->outer_calls == NULL)
    return FALSE;
  n_loud = exact->n_nodes - exact->n_quiet - 1;
  for (gsize w = 0; w < n_words; w++)
    n_outer += (guint64) __builtin_popcountll (exact->outer_calls[w]);
  return (double) n_outer <= outer_calls_share * (double) n_loud;
}

/* The loud nodes of bitmap word W of EXACT: not quiet, not the root, not
 * past the last node. */
static inline guint64
loud_word (const TvExactTree *exact,
           gsize              w)
{
  guint64 word = ~exact->quiet_calls[w];

  if (w == 0)
    word &= ~G_GUINT64_CONSTANT (1);
  if ((w + 1) * 64 > exact->n_nodes)
    word &= (G_GUINT64_CONSTANT (1) << (exact->n_nodes % 64)) - 1;
  return word;
}

/* The block's header, LOUD_BEFORE, OF_NODE and SIGNATURES, in guint32s
 * (a Signature is three). */
static gsize
signatures_layout (gsize n_words,
                   gsize n_loud,
                   gsize n_signatures)
{
  return 2 + (n_words / 64 + 1) + n_loud + 3 * n_signatures;
}

static void
signatures_point (Signatures *sig,
                  gsize       n_words)
{
  sig->n_signatures = sig->block[0];
  sig->n_loud = sig->block[1];
  sig->loud_before = sig->block + 2;
  sig->of_node = sig->loud_before + n_words / 64 + 1;
  sig->signatures = (const Signature *) (sig->of_node + sig->n_loud);
  sig->bytes = signatures_layout (n_words, sig->n_loud, sig->n_signatures) * sizeof (guint32);
}

/* The numbers of signatures by key (see signatures_get ()): an array of
 * every key where there are few functions, else a pair table whose count
 * is the number. */
typedef struct
{
  guint32   *direct;            /* G_MAXUINT32 for none; NULL when hashed */
  PairTable  hashed;
} Numbering;

/* Direct for up to this many keys (4 MiB, cleared once a profile), else
 * hashed from this many slots up; tests change both. */
static guint64 numbering_direct_max = 1u << 20;
static guint32 numbering_first_slots = 4096;

void
tv_call_tree_set_signature_limits (guint32 min_loud,
                                   guint64 direct_max,
                                   guint32 first_slots)
{
  signatures_min_loud = min_loud;
  numbering_direct_max = direct_max;
  numbering_first_slots = 1u << g_bit_storage (MAX (first_slots, 4) - 1);
}

static void
numbering_init (Numbering *t,
                guint64    n_keys)
{
  *t = (Numbering) { 0 };
  if (n_keys <= numbering_direct_max)
    {
      t->direct = g_new (guint32, n_keys);
      memset (t->direct, 0xff, n_keys * sizeof (guint32));
      return;
    }
  pair_table_init_sized (&t->hashed, numbering_first_slots);
}

static void
numbering_clear (Numbering *t)
{
  g_clear_pointer (&t->direct, g_free);
  pair_table_clear (&t->hashed);
}

/* The number of KEY, which is NEXT if it had none. */
static inline guint32
numbering_get (Numbering *t,
               guint64    key,
               guint32    next)
{
  PairTable *h = &t->hashed;
  guint32 slot;

  if (t->direct != NULL)
    {
      if (t->direct[key] == G_MAXUINT32)
        t->direct[key] = next;
      return t->direct[key];
    }
  slot = pair_slot (h, key + 1);
  if (h->keys[slot] != 0)
    return (guint32) h->counts[slot];
  h->keys[slot] = key + 1;
  h->counts[slot] = next;
  if (++h->n * 2 > h->mask)
    pair_table_grow (h);
  return next;
}

/* SIG for DATA, taken from the kept blocks or made; FALSE, with SIG
 * empty, where DATA has too many loud nodes for them. */
static gboolean
signatures_get (TvProfileData *data,
                Signatures    *sig)
{
  const TvExactTree *exact = tv_profile_data_get_tree (data);
  const guint32 *fkeys = tv_profile_data_get_frame_keys (data, TV_MERGE_FUNCTION);
  guint64 n_functions = tv_profile_data_get_n_keys (data, TV_MERGE_FUNCTION);
  gsize n_words = ((gsize) exact->n_nodes + 63) / 64;
  guint64 tag = tv_call_tree_kept_tag (data, 0, KEPT_SIGNATURES);
  g_autofree guint32 *loud_before = NULL;
  g_autofree guint32 *of_node = NULL;
  g_autoptr(GArray) signatures = NULL;
  Numbering numbering;
  guint32 n_loud = 0, k = 0;

  *sig = (Signatures) { 0 };
  /* A key is a function, a caller (or none) and two bits. */
  if (n_functions >= 1u << 30)
    return FALSE;
  /* All but the quiet ones and the root. */
  n_loud = exact->n_nodes - exact->n_quiet - (exact->n_nodes > 0);
  if (n_loud > MAX (exact->n_nodes / 4, signatures_min_loud))
    return FALSE;

  sig->data = data;
  sig->block = tv_huge_take_kept (tag, signatures_layout (n_words, n_loud, 0) * sizeof (guint32));
  if (sig->block != NULL)
    {
      signatures_point (sig, n_words);
      g_atomic_int_inc (&signatures_reused);
      return TRUE;
    }

  loud_before = g_new (guint32, n_words / 64 + 1);
  of_node = g_new (guint32, MAX (n_loud, 1));
  signatures = g_array_new (FALSE, FALSE, sizeof (Signature));
  numbering_init (&numbering, (n_functions + 1) * (n_functions + 1) * 4);
  for (gsize w = 0; w < n_words; w++)
    {
      if (w % 64 == 0)
        loud_before[w / 64] = k;
      /* The loud nodes are a few in each word, all over the tree's
       * arrays: a few words ahead, theirs are on the way. */
      if (w + 8 < n_words)
        {
          __builtin_prefetch (&exact->up[(w + 8) * 64]);
          __builtin_prefetch (&exact->up[(w + 8) * 64 + 32]);
          if (exact->frame16 != NULL)
            {
              __builtin_prefetch (&exact->frame16[(w + 8) * 64]);
              __builtin_prefetch (&exact->frame16[(w + 8) * 64 + 32]);
            }
        }
      for (guint64 word = loud_word (exact, w); word != 0; word &= word - 1)
        {
          guint32 c = (guint32) (w * 64 + __builtin_ctzll (word));
          guint32 p = tv_exact_tree_parent (exact, c);
          Signature one = { fkeys[tv_exact_tree_frame (exact, c)], TV_NODE_NONE, 0 };
          guint64 key;

          /* More loud nodes than TvExactTree.n_quiet leaves: a tree made
           * some other way, read node by node instead. */
          if (G_UNLIKELY (k == n_loud))
            {
              g_critical ("%s: more loud nodes than counted", G_STRFUNC);
              numbering_clear (&numbering);
              *sig = (Signatures) { 0 };
              return FALSE;
            }

          if (p != TV_ROOT_NODE)
            {
              one.caller = fkeys[tv_exact_tree_frame (exact, p)];
              if (TV_BIT_TEST (exact->outer_calls, p))
                one.flags |= SIGNATURE_CALLER_OUTER;
            }
          if (TV_BIT_TEST (exact->outer_calls, c))
            one.flags |= SIGNATURE_OUTER;
          key = (one.function * (n_functions + 1)
                 + (one.caller == TV_NODE_NONE ? n_functions : one.caller)) << 2 | one.flags;
          of_node[k] = numbering_get (&numbering, key, signatures->len);
          if (of_node[k++] == signatures->len)
            g_array_append_val (signatures, one);
        }
    }
  if (n_words % 64 == 0)
    loud_before[n_words / 64] = k;
  numbering_clear (&numbering);
  if (G_UNLIKELY (k != n_loud))
    {
      g_critical ("%s: fewer loud nodes than counted", G_STRFUNC);
      *sig = (Signatures) { 0 };
      return FALSE;
    }

  sig->bytes = signatures_layout (n_words, n_loud, signatures->len) * sizeof (guint32);
  sig->block = tv_huge_alloc (sig->bytes, FALSE);
  sig->block[0] = signatures->len;
  sig->block[1] = n_loud;
  memcpy (sig->block + 2, loud_before, (n_words / 64 + 1) * sizeof (guint32));
  memcpy (sig->block + 2 + n_words / 64 + 1, of_node, (gsize) n_loud * sizeof (guint32));
  /* An empty GArray has no data. */
  if (signatures->len > 0)
    memcpy (sig->block + 2 + n_words / 64 + 1 + n_loud, signatures->data,
            (gsize) signatures->len * sizeof (Signature));
  signatures_point (sig, n_words);
  return TRUE;
}

/* Gives SIG back to the kept blocks; then it holds nothing. */
static void
signatures_keep (Signatures *sig)
{
  if (sig->block != NULL)
    tv_huge_keep (g_steal_pointer (&sig->block), sig->bytes,
                  tv_call_tree_kept_tag (sig->data, 0, KEPT_SIGNATURES));
}

/* The loud nodes before bitmap word W. */
static guint32
signatures_rank (const Signatures  *sig,
                 const TvExactTree *exact,
                 gsize              w)
{
  guint32 rank = sig->loud_before[w / 64];

  for (gsize v = w & ~(gsize) 63; v < w; v++)
    rank += (guint32) __builtin_popcountll (loud_word (exact, v));
  return rank;
}

/* S's samples by signature, added to its table: what each node of the
 * signature would have added (see flat_add_words ()). */
static void
signatures_add (const Signatures *sig,
                FlatSums         *s)
{
  for (guint32 i = 0; i < s->n_signatures; i++)
    {
      const Signature *one = &sig->signatures[i];
      guint64 count = s->by_signature[i];
      guint32 f = one->function, caller = one->caller;

      if (count == 0)
        continue;
      if (f != caller)
        s->fself[f] += count;
      if (one->flags & SIGNATURE_OUTER)
        {
          s->ftotal[f] += count;
          s->outer_self[f] += count;
          pair_add (&s->callers, f, caller, count);
        }
      if (caller != TV_NODE_NONE)
        {
          if (f != caller)
            s->fself[caller] -= count;
          if (one->flags & SIGNATURE_CALLER_OUTER)
            {
              s->outer_self[caller] -= count;
              pair_add (&s->callees, caller, f, count);
            }
        }
    }
}

/* flat_add_words () with SIG: each loud node's samples onto its
 * signature's. */
static gboolean
flat_add_signatures (TvProfileData    *data,
                     const Signatures *sig,
                     const TvWeight   *sub,
                     const guint64    *reached,
                     FlatSums         *s,
                     gsize             w0,
                     gsize             w1,
                     Progress         *progress)
{
  const TvExactTree *exact = tv_profile_data_get_tree (data);
  const guint32 *of_node = sig->of_node;
  guint64 *by_signature = s->by_signature;
  guint32 rank = signatures_rank (sig, exact, w0);

  for (gsize w = w0; w < w1 && progress_step (progress, w * 64, exact->n_nodes); w++)
    {
      guint64 loud = loud_word (exact, w);
      guint64 to_add = reached != NULL ? loud & reached[w] : loud;
      const TvWeight *at = sub + w * 64;

      /* A node not reached has no samples: a narrow selection reads the
       * weights of the few nodes it reached, not every loud node's. */
      if (to_add == loud)
        {
          for (guint64 word = loud; word != 0; word &= word - 1)
            by_signature[of_node[rank++]] += at[__builtin_ctzll (word)];
          continue;
        }
      if (to_add != 0)
        for (guint64 word = loud; word != 0; word &= word - 1, rank++)
          {
            guint bit = __builtin_ctzll (word);

            if (to_add >> bit & 1)
              by_signature[of_node[rank]] += at[bit];
          }
      else
        rank += (guint32) __builtin_popcountll (loud);
    }
  return !progress->cancelled;
}

/* FROM's pairs added to TO's. */
static void
pair_table_merge (PairTable       *to,
                  const PairTable *from)
{
  for (guint32 i = 0; i <= from->mask; i++)
    if (from->keys[i] != 0)
      pair_add_key (to, from->keys[i], from->counts[i]);
}

/* FROM's sums added to TO's; FROM is cleared. */
static void
flat_sums_merge (FlatSums *to,
                 FlatSums *from,
                 guint32   n_functions)
{
  for (guint32 f = 0; f < n_functions; f++)
    {
      to->fself[f] += from->fself[f];
      to->ftotal[f] += from->ftotal[f];
      to->outer_self[f] += from->outer_self[f];
    }
  for (guint32 i = 0; i < from->n_signatures; i++)
    to->by_signature[i] += from->by_signature[i];
  pair_table_merge (&to->callers, &from->callers);
  pair_table_merge (&to->callees, &from->callees);
  flat_sums_clear (from);
}

/* The rows of S into NEIGHBOURS, or NULL once PROGRESS was cancelled; S
 * is cleared. */
static TvFunctionRow *
flat_sums_finish (FlatSums         *s,
                  const Signatures *sig,
                  guint32           n_functions,
                  Neighbours       *neighbours,
                  guint            *n_rows_out,
                  const Progress   *progress)
{
  TvFunctionRow *rows;

  if (s->by_signature != NULL)
    signatures_add (sig, s);
  for (guint32 f = 0; f < n_functions && !progress->cancelled; f++)
    if (s->outer_self[f] > 0)
      pair_add (&s->callees, f, TV_NODE_NONE, s->outer_self[f]);
  rows = exact_tables_finish (n_functions, s->fself, s->ftotal, &s->callers, &s->callees,
                              neighbours, n_rows_out, progress);
  flat_sums_clear (s);
  return rows;
}

/* exact_functions_flat()'s pass over the nodes of the bitmap words
 * [W0, W1), into S; HEAD as it says.  FALSE once cancelled. */
static gboolean
flat_add_words (TvProfileData  *data,
                const TvWeight *sub,
                const guint64  *reached,
                const guint8   *hidden,
                guint32        *head,
                FlatSums       *s,
                gsize           w0,
                gsize           w1,
                Progress       *progress)
{
  const TvExactTree *exact = tv_profile_data_get_tree (data);
  const guint32 *fkeys = tv_profile_data_get_frame_keys (data, TV_MERGE_FUNCTION);
  guint32 n_nodes = exact->n_nodes;
  guint64 *fself = s->fself, *ftotal = s->ftotal, *outer_self = s->outer_self;

  for (gsize w = w0; w < w1 && progress_step (progress, w * 64, n_nodes); w++)
    {
      guint64 word = reached != NULL ? reached[w] : G_MAXUINT64;

      /* Without hidden nodes, the inside of a recursion adds to its
       * function's self what it takes off its caller's, the same
       * function, and nothing to a total, a caller or a callee: most of a
       * deep recursion's nodes. */
      if (head == NULL)
        word &= ~exact->quiet_calls[w];

      while (word != 0)
        {
          guint32 c = (guint32) (w * 64 + __builtin_ctzll (word));
          guint64 count;
          guint32 p, f, up, caller = TV_NODE_NONE;
          gboolean caller_outer = FALSE;

          word &= word - 1;
          if (c == TV_ROOT_NODE || c >= n_nodes || (count = sub[c]) == 0)
            continue;
          p = tv_exact_tree_parent (exact, c);
          up = head != NULL ? head[p] : p;
          if (up != TV_ROOT_NODE)
            {
              caller = fkeys[tv_exact_tree_frame (exact, up)];
              caller_outer = TV_BIT_TEST (exact->outer_calls, up);
            }
          f = fkeys[tv_exact_tree_frame (exact, c)];
          if (hidden != NULL && hidden[f])
            {
              head[c] = up;
              continue;
            }
          if (head != NULL)
            head[c] = c;
          /* Down a recursion, what a node adds to its function's self it
           * takes off again as its caller's. */
          if (f != caller)
            fself[f] += count;
          if (TV_BIT_TEST (exact->outer_calls, c))
            {
              ftotal[f] += count;
              outer_self[f] += count;
              pair_add (&s->callers, f, caller, count);
            }
          if (caller != TV_NODE_NONE)
            {
              if (f != caller)
                fself[caller] -= count;
              if (caller_outer)
                {
                  outer_self[caller] -= count;
                  pair_add (&s->callees, caller, f, count);
                }
            }
        }
    }
  return !progress->cancelled;
}

/* flat_add_words () without hidden nodes, with flat_add_own (): what a
 * node adds to its function's self it takes off its caller's, so that
 * the selves are the samples each function has as its own, and so are
 * the outermost calls' selves.  What is left is the totals and callers
 * of the outermost calls and the callees of their children: a pass over
 * those nodes, not over every loud one. */
static gboolean
flat_add_outer (TvProfileData  *data,
                const TvWeight *sub,
                const guint64  *reached,
                FlatSums       *s,
                gsize           w0,
                gsize           w1,
                Progress       *progress)
{
  const TvExactTree *exact = tv_profile_data_get_tree (data);
  const guint32 *fkeys = tv_profile_data_get_frame_keys (data, TV_MERGE_FUNCTION);
  guint32 n_nodes = exact->n_nodes;

  for (gsize w = w0; w < w1 && progress_step (progress, w * 64, n_nodes); w++)
    {
      guint64 word = exact->outer_calls[w] & (reached != NULL ? reached[w] : G_MAXUINT64);

      while (word != 0)
        {
          guint32 c = (guint32) (w * 64 + __builtin_ctzll (word));
          guint32 p, f, caller;
          guint64 count;

          word &= word - 1;
          if (c == TV_ROOT_NODE || c >= n_nodes || (count = sub[c]) == 0)
            continue;
          p = tv_exact_tree_parent (exact, c);
          f = fkeys[tv_exact_tree_frame (exact, c)];
          caller = p == TV_ROOT_NODE ? TV_NODE_NONE : fkeys[tv_exact_tree_frame (exact, p)];
          s->ftotal[f] += count;
          pair_add (&s->callers, f, caller, count);
          for (guint32 x = tv_exact_tree_first_child (exact, c);
               x < n_nodes && tv_exact_tree_parent (exact, x) == c; x++)
            if (sub[x] > 0)
              pair_add (&s->callees, f, fkeys[tv_exact_tree_frame (exact, x)], sub[x]);
        }
    }
  return !progress->cancelled;
}

/* How many hits ahead flat_add_own () asks for a leaf's frame. */
#define OWN_AHEAD 16

/* The selves of flat_add_outer () into S: each hit's samples are its
 * leaf's own, its function's and, when the leaf is an outermost call,
 * that call's. */
static void
flat_add_own (TvProfileData *data,
              const GArray  *hits,
              FlatSums      *s)
{
  const TvExactTree *exact = tv_profile_data_get_tree (data);
  const guint32 *fkeys = tv_profile_data_get_frame_keys (data, TV_MERGE_FUNCTION);
  const ThreadHit *hit = (const ThreadHit *) (gconstpointer) hits->data;

  for (guint i = 0; i < hits->len; i++)
    {
      guint32 leaf = hit[i].leaf, f;

      /* The leaves are all over the tree. */
      if (i + OWN_AHEAD < hits->len)
        {
          guint32 ahead = hit[i + OWN_AHEAD].leaf;

          if (exact->frame16 != NULL)
            __builtin_prefetch (&exact->frame16[ahead]);
          else
            __builtin_prefetch (&exact->frame32[ahead]);
          __builtin_prefetch (&exact->outer_calls[ahead / 64]);
        }
      /* The root is no function's. */
      if (leaf == TV_ROOT_NODE)
        continue;
      f = fkeys[tv_exact_tree_frame (exact, leaf)];
      s->fself[f] += hit[i].count;
      if (TV_BIT_TEST (exact->outer_calls, leaf))
        s->outer_self[f] += hit[i].count;
    }
}

/* tv_call_tree_exact_functions() where no node merges into its parent's
 * view node but a hidden one: each node's share is its own, in one pass
 * in any order, over the nodes REACHED marks (every node when NULL).  A
 * node's samples are its subtree's less its children's, so each node adds
 * its subtree's samples to its own function's self and takes them off its
 * caller's; an outermost call (TvExactTree.outer_calls, which a view that
 * only hides keeps: a hidden caller is never of the function of a node
 * shown) adds them to the function's total and to its callers, and the
 * child of one to its callees.  A hidden node's share is its caller's: it
 * adds and takes off the same, and its children's caller is its own
 * (HEAD, made parents first, since a parent's number is smaller than its
 * children's).  With no hidden node, the quiet calls
 * (TvExactTree.quiet_calls) add nothing and are not read. */
static TvFunctionRow *
exact_functions_flat (TvProfileData  *data,
                      const TvWeight *sub,
                      const GArray   *hits,
                      const guint64  *reached,
                      const guint8   *hidden,
                      Neighbours     *neighbours,
                      guint          *n_rows_out,
                      Progress       *progress)
{
  const TvExactTree *exact = tv_profile_data_get_tree (data);
  guint32 n_functions = tv_profile_data_get_n_keys (data, TV_MERGE_FUNCTION);
  guint32 n_nodes = exact->n_nodes;
  /* The node whose view node a hidden node is in, the root for none. */
  tv_autohuge guint32 *head = hidden != NULL ? tv_huge_new (guint32, MAX (n_nodes, 1)) : NULL;
  gsize n_words = ((gsize) n_nodes + 63) / 64;
  Signatures sig = { 0 };
  FlatSums s;
  TvFunctionRow *rows;

  gboolean outer = hidden == NULL && hits != NULL && reads_outer_calls (data);

  if (hidden == NULL && !outer)
    signatures_get (data, &sig);
  flat_sums_init (&s, n_functions, sig.n_signatures);
  if (head != NULL)
    head[0] = TV_ROOT_NODE;
  if (outer)
    {
      g_atomic_int_inc (&outer_tables);
      flat_add_own (data, hits, &s);
      flat_add_outer (data, sub, reached, &s, 0, n_words, progress);
    }
  else if (sig.block != NULL)
    flat_add_signatures (data, &sig, sub, reached, &s, 0, n_words, progress);
  else
    flat_add_words (data, sub, reached, hidden, head, &s, 0, n_words, progress);
  rows = flat_sums_finish (&s, &sig, n_functions, neighbours, n_rows_out, progress);
  signatures_keep (&sig);
  return rows;
}

/* The nodes of a pass shared by threads (FunctionsShare) are taken a
 * sixteenth at a time, up to this many bitmap words, so that the thread
 * that comes last still finds some. */
#define SHARE_WORDS 1024

/* How many tables threads shared (tv_call_tree_get_shared_tables()). */
static gint shared_tables;

struct _FunctionsShare
{
  TvProfileData  *data;
  const TvWeight *sub;
  const GArray   *hits;         /* NULL unless read off the outermost calls */
  const guint64  *reached;
  gint            next;         /* chunks taken between the first and last */
  GMutex          lock;
  FlatSums        sums;         /* what the threads that are done added */
  gboolean        has_sums;
  /* Taken or made by the first thread to work, while the other does
   * something else; none when there are too many. */
  Signatures      signatures;
  gboolean        has_signatures;
};

FunctionsShare *
tv_call_tree_functions_share_new (TvProfileData  *data,
                                  const TvWeight *sub,
                                  const GArray   *hits,
                                  const guint64  *reached)
{
  FunctionsShare *share = g_new0 (FunctionsShare, 1);

  share->data = data;
  share->sub = sub;
  share->hits = hits != NULL && reads_outer_calls (data) ? hits : NULL;
  share->reached = reached;
  g_mutex_init (&share->lock);
  return share;
}

/* The nodes of words [W0, W1) into S. */
static gboolean
share_add_words (FunctionsShare *share,
                 FlatSums       *s,
                 gsize           w0,
                 gsize           w1,
                 Progress       *progress)
{
  if (share->hits != NULL)
    return flat_add_outer (share->data, share->sub, share->reached, s, w0, w1, progress);
  if (share->signatures.block != NULL)
    return flat_add_signatures (share->data, &share->signatures, share->sub, share->reached,
                                s, w0, w1, progress);
  return flat_add_words (share->data, share->sub, share->reached, NULL, NULL, s, w0, w1,
                         progress);
}

void
tv_call_tree_functions_share_work (FunctionsShare *share,
                                   gboolean        last,
                                   Progress       *progress)
{
  TvProfileData *data = share->data;
  guint32 n_functions = tv_profile_data_get_n_keys (data, TV_MERGE_FUNCTION);
  gsize n_words = ((gsize) tv_profile_data_get_tree (data)->n_nodes + 63) / 64;
  gsize words = CLAMP (n_words / 16, 1, SHARE_WORDS);
  gsize n_chunks = (n_words + words - 1) / words;
  FlatSums mine = { 0 };

  if (n_words == 0)
    return;
  g_mutex_lock (&share->lock);
  if (!share->has_signatures)
    {
      if (share->hits == NULL)
        signatures_get (data, &share->signatures);
      share->has_signatures = TRUE;
    }
  g_mutex_unlock (&share->lock);
  flat_sums_init (&mine, n_functions, share->signatures.n_signatures);
  /* The selves from the hits, and the first chunk; or the last when there
   * are two or more. */
  if (!last && share->hits != NULL)
    flat_add_own (data, share->hits, &mine);
  if (!last)
    share_add_words (share, &mine, 0, MIN (words, n_words), progress);
  else if (n_chunks > 1)
    share_add_words (share, &mine, (n_chunks - 1) * words, n_words, progress);
  /* Those between, taken in turn. */
  for (;;)
    {
      gsize chunk = 1 + (gsize) g_atomic_int_add (&share->next, 1);
      gsize w0 = chunk * words;

      if (chunk + 1 >= n_chunks || progress->cancelled)
        break;
      if (!share_add_words (share, &mine, w0, w0 + words, progress))
        break;
    }
  g_mutex_lock (&share->lock);
  if (share->has_sums)
    {
      flat_sums_merge (&share->sums, &mine, n_functions);
      if (n_chunks > 1)
        g_atomic_int_inc (&shared_tables);
    }
  else
    {
      share->sums = mine;
      share->has_sums = TRUE;
    }
  g_mutex_unlock (&share->lock);
}

guint
tv_call_tree_get_shared_tables (void)
{
  return (guint) g_atomic_int_get (&shared_tables);
}

TvFunctionRow *
tv_call_tree_functions_share_finish (FunctionsShare *share,
                                     Neighbours     *neighbours,
                                     guint          *n_rows_out,
                                     const Progress *progress)
{
  guint32 n_functions = tv_profile_data_get_n_keys (share->data, TV_MERGE_FUNCTION);
  TvFunctionRow *rows;

  if (!share->has_sums)
    flat_sums_init (&share->sums, n_functions, share->signatures.n_signatures);
  if (share->hits != NULL)
    g_atomic_int_inc (&outer_tables);
  rows = flat_sums_finish (&share->sums, &share->signatures, n_functions, neighbours, n_rows_out,
                           progress);
  signatures_keep (&share->signatures);
  g_mutex_clear (&share->lock);
  g_free (share);
  return rows;
}

TvFunctionRow *
tv_call_tree_exact_functions (TvProfileData  *data,
                              const TvWeight *sub,
                              const GArray   *hits,
                              const guint64  *reached,
                              const guint8   *hidden,
                              gboolean        collapse_recursion,
                              const guint8   *in_focus,
                              Neighbours     *neighbours,
                              guint          *n_rows_out,
                              Progress       *progress)
{
  const TvExactTree *exact = tv_profile_data_get_tree (data);
  const guint32 *fkeys = tv_profile_data_get_frame_keys (data, TV_MERGE_FUNCTION);
  guint32 n_functions = tv_profile_data_get_n_keys (data, TV_MERGE_FUNCTION);
  guint32 n_nodes = exact->n_nodes;
  g_autofree guint64 *fself = g_new0 (guint64, MAX (n_functions, 1));
  g_autofree guint64 *ftotal = g_new0 (guint64, MAX (n_functions, 1));
  g_autofree guint32 *active = g_new0 (guint32, MAX (n_functions, 1));
  guint capacity = tv_profile_data_get_max_depth (data) + 2;
  g_autofree PathNode *path = g_new (PathNode, capacity);
  PairTable callers, callees;
  guint32 sp = 0, visited = 0;

  if (!collapse_recursion && in_focus == NULL)
    return exact_functions_flat (data, sub, hits, reached, hidden, neighbours, n_rows_out,
                                 progress);

  pair_table_init (&callers);
  pair_table_init (&callees);
  path[sp++] = (PathNode) { 0, n_nodes > 0 ? tv_exact_tree_first_child (exact, 0) : 0, TV_NODE_NONE,
                            FALSE, FALSE, 0 };
  /* Depth first, as tv_call_tree_build_functions() goes over a view, but
   * over the exact nodes, merging them as the view does (see
   * map_grouped()). */
  while (sp > 0)
    {
      PathNode *top = &path[sp - 1];
      guint32 c = top->next;
      guint32 f;
      PathNode next;

      if (c >= n_nodes || tv_exact_tree_parent (exact, c) != top->node)
        {
          /* Its own samples, now that its children's are known: its
           * view node's self. */
          guint64 self = sub[top->node] - top->children;

          if (top->function != TV_NODE_NONE)
            {
              fself[top->function] += self;
              if (top->outer && self > 0)
                pair_add (&callees, top->function, TV_NODE_NONE, self);
            }
          if (top->head)
            active[top->function]--;
          sp--;
          continue;
        }
      top->next = c + 1;
      if (sub[c] == 0)
        continue;
      if (!progress_step (progress, ++visited, n_nodes))
        break;
      top->children += sub[c];
      f = fkeys[tv_exact_tree_frame (exact, c)];
      next = (PathNode) { c, tv_exact_tree_first_child (exact, c), f, FALSE, TRUE, 0 };
      if (in_focus != NULL && !in_focus[c])
        {
          /* Outside the focus: in no view node, on the way to one. */
          next.function = TV_NODE_NONE;
          next.head = FALSE;
        }
      else if ((hidden != NULL && hidden[f])
          || (collapse_recursion && top->function != TV_NODE_NONE && f == top->function))
        {
          /* Merged into its parent's view node: its samples are that
           * node's self, its children that node's children. */
          next.function = top->function;
          next.outer = top->outer;
          next.head = FALSE;
        }
      else
        {
          next.outer = active[f]++ == 0;
          if (next.outer)
            {
              ftotal[f] += sub[c];
              pair_add (&callers, f, top->function, sub[c]);
            }
          /* A child of an outermost call. */
          if (top->outer)
            pair_add (&callees, top->function, f, sub[c]);
        }
      if (sp == capacity)
        {
          capacity *= 2;
          path = g_renew (PathNode, path, capacity);
        }
      path[sp++] = next;
    }
  return exact_tables_finish (n_functions, fself, ftotal, &callers, &callees, neighbours,
                              n_rows_out, progress);
}

void
tv_neighbours_clear (Neighbours *neighbours)
{
  g_clear_pointer (&neighbours->callers_start, g_free);
  g_clear_pointer (&neighbours->callers_rows, g_free);
  g_clear_pointer (&neighbours->callees_start, g_free);
  g_clear_pointer (&neighbours->callees_rows, g_free);
}
