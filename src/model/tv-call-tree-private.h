/* tv-call-tree-private.h: what the steps of a call tree share
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A call tree is made in three steps (see tv-call-tree.c), each in its
 * own file: weighing the exact tree by the selected samples
 * (tv-query.c), mapping its nodes onto the view's (tv-call-tree-map.c),
 * and inverting or turning to callers (tv-call-tree-invert.c).  They
 * share the tree's fields, the builder of a tree, the build's progress
 * and the per-thread hits of step 1.
 */
#pragma once

#include "tv-call-tree.h"

G_BEGIN_DECLS

/* Each function's callers and callees: function F's are
 * callers_rows[callers_start[F]] to callers_rows[callers_start[F + 1] - 1],
 * each row the other function (TV_NODE_NONE for the root, or for the
 * callee row of F's self samples) and its samples; the same for
 * callees. */
typedef struct
{
  guint32       *callers_start;  /* functions + 1 */
  TvFunctionRow *callers_rows;
  guint32       *callees_start;  /* functions + 1 */
  TvFunctionRow *callees_rows;
} Neighbours;

struct _TvCallTree
{
  gatomicrefcount ref_count;
  TvProfileData  *data;
  TvMergeKey      merge;
  gboolean        inverted;

  guint32         n_nodes;
  guint32        *parent;
  guint32        *key;
  guint16        *depth;
  guint64        *self;
  guint64        *total;
  guint64        *remainder;     /* per node, or NULL: see TvQuery.min_total */
  guint32        *remainder_children;  /* per node, with remainder */
  guint64        *cut_below;     /* per node, with remainder */
  guint64        *status;        /* n_nodes * TV_N_STATUS_COUNTS, like total;
                                  * NULL unless the query counted states */
  guint32        *threads;       /* distinct threads per node, or NULL */
  guint32        *node_map;      /* per exact node, or NULL */
  /* Each thread's self samples, thread by thread: thread T's are
   * thread_self_start[T] to thread_self_start[T + 1]; NULL unless the
   * query asked. */
  guint64        *thread_self_start;
  guint32        *thread_self_nodes;
  guint64        *thread_self_counts;
  guint           n_thread_self;
  /* The same for the samples each remainder holds, when the tree left
   * nodes out; and per node, with remainder, how many exact nodes it
   * holds and (n_nodes * TV_N_STATUS_COUNTS) their states.  NULL unless
   * the query kept each thread's self samples. */
  guint64        *thread_rem_start;
  guint32        *thread_rem_nodes;
  guint64        *thread_rem_counts;
  guint64        *remainder_paths;
  guint64        *remainder_status;
  guint32        *child_start;   /* n_nodes + 1 */
  guint32        *children;

  TvFunctionRow  *functions;
  guint           n_functions;
  /* Each function's outermost calls (nodes of it with no caller of it
   * above), in node order: function F's are outer_nodes[outer_start[F]]
   * to outer_nodes[outer_start[F + 1] - 1].  What callers and callees
   * are made of; NULL for a tree whose table came from elsewhere. */
  guint32        *outer_start;   /* functions + 1 */
  guint32        *outer_nodes;
  /* Or, for a tree that left nodes out (see TvQuery.min_total), each
   * function's callers and callees, read off the exact tree; all NULL
   * otherwise. */
  Neighbours      neighbours;
};

/* A growing tree keyed by (parent, key), used for every tree we build. */
typedef struct
{
  guint32  n_nodes;
  guint32  capacity;
  guint32 *parent;
  guint32 *key;
  guint64 *self;
  guint64 *status;              /* TV_N_STATUS_COUNTS per node, like self;
                                 * NULL when states are not counted */
  guint64 *hkeys;
  guint32 *hvalues;
  guint32  mask;
  /* Each node's children were made together, in their keys' rank order
   * (as tv_call_tree_map_nodes() makes them when it groups): they need
   * no sort. */
  gboolean children_in_order;
} Builder;

#define N_STATES TV_N_STATUS_COUNTS


/* How far a build is, for its progress and its cancellable: each step
 * takes the share [base, base + span) of the whole and says how far it is
 * every PROGRESS_EVERY of its items. */
typedef struct
{
  TvProgressFunc  func;
  gpointer        data;
  GCancellable   *cancellable;
  double          base;
  double          span;
  guint32         tick;
  gboolean        cancelled;
} Progress;

#define PROGRESS_EVERY 0x10000

static inline void
progress_stage (Progress *p,
                double    base,
                double    span)
{
  p->base = base;
  p->span = span;
  if (!g_cancellable_is_cancelled (p->cancellable) && p->func != NULL)
    p->func (base, p->data);
  /* Also when the report itself cancelled. */
  if (g_cancellable_is_cancelled (p->cancellable))
    p->cancelled = TRUE;
}

/* Counts one item of DONE out of TOTAL; FALSE once cancelled. */
static inline gboolean
progress_step (Progress *p,
               guint64   done,
               guint64   total)
{
  if (G_LIKELY (++p->tick % PROGRESS_EVERY != 0))
    return !p->cancelled;
  if (g_cancellable_is_cancelled (p->cancellable))
    p->cancelled = TRUE;
  else if (p->func != NULL && total > 0)
    p->func (p->base + p->span * MIN ((double) done / (double) total, 1.0), p->data);
  return !p->cancelled;
}

/* Says that DONE of TOTAL items are done, now; FALSE once cancelled. */
static inline gboolean
progress_report (Progress *p,
                 guint64   done,
                 guint64   total)
{
  if (g_cancellable_is_cancelled (p->cancellable))
    p->cancelled = TRUE;
  else if (p->func != NULL && total > 0)
    p->func (p->base + p->span * MIN ((double) done / (double) total, 1.0), p->data);
  return !p->cancelled;
}

static inline void
add_states (guint64       *to,
            const guint64 *from)
{
  for (guint i = 0; i < N_STATES; i++)
    to[i] += from[i];
}

/* The view's function for a node key. */
static inline guint32
key_function (TvProfileData *data,
              TvMergeKey     merge,
              guint32        key)
{
  guint32 frame = tv_profile_data_get_key_frame (data, merge, key);

  return tv_profile_data_get_frame_keys (data, TV_MERGE_FUNCTION)[frame];
}

/* A node a pruned tree left children out of: their samples and count,
 * and the threshold they were under. */
typedef struct
{
  guint32 node;
  guint32 children;
  guint64 samples;
  guint64 cut;
} Remainder;

/* An exact node left out of a view with its subtree, whose descendants
 * are the nodes from START on (see tv_call_tree_map_left_leaves()): TO
 * is the view node that has it in its remainder. */
typedef struct
{
  guint32 start;
  guint32 to;
} LeftRoot;

/* What a top-down tree leaves out (TvQuery.min_total), made from the
 * selected samples of each exact node's subtree (its own are those less
 * its children's): KEPT (a bitmap) gets the exact nodes the view holds,
 * and each node with children left out gets a Remainder in
 * REMAINDERS.  When LEFT_ROOTS is not NULL, it gets a LeftRoot for each
 * node left out that has children. */
typedef struct
{
  guint64       *kept;
  guint64        min_total;
  guint64        min_total_divisor;
  guint64        detail_min_total;
  const guint32 *path;
  guint          n_path;
  GArray        *remainders;
  GArray        *left_roots;
} Prune;

typedef struct
{
  guint32 thread;
  guint32 leaf;                 /* exact node */
  guint64 count;                /* selected samples of the run */
} ThreadHit;

void     tv_builder_init        (Builder             *b,
                                 guint32              hint,
                                 gboolean             with_states,
                                 gboolean             hashed);
void     tv_builder_clear       (Builder             *b);
guint32  tv_builder_child       (Builder             *b,
                                 guint32              parent,
                                 guint32              key);
guint32  tv_builder_append      (Builder             *b,
                                 guint32              parent,
                                 guint32              key);

/* The leaves of every run of DATA's samples, in node order, each once:
 * every exact node a query can weigh, and, for each run (all threads'
 * runs one after the other, in thread order), the rank of its leaf among
 * them.  Made once and kept between queries (tv-call-tree-invert.c). */
typedef struct
{
  TvProfileData *data;
  guint32       *block;
  gsize          bytes;
  guint32        n_leaves;
  const guint32 *leaves;
  const guint32 *ranks;
} RunLeaves;

/* The exact nodes step 1 gave a weight, while they are few: LEAVES
 * (guint32) holds them until there would be more than MAX, and then
 * OVERFLOWED is set and it is left as it is. */
typedef struct
{
  GArray   *leaves;
  guint     max;
  gboolean  overflowed;
} Touched;

/* A node's selected samples, in step 1's arrays: at most the profile's,
 * which a load keeps to TV_PROFILE_MAX_SAMPLES, so four bytes a node
 * rather than eight.  Those arrays are as long as the exact tree, tens of
 * millions of nodes on a deep profile, and every step reads them. */
typedef guint32 TvWeight;

/* Step 1 whole (tv-query.c): each exact node's selected samples
 * (WEIGHTS), their states when the query counts them (STATES, N_STATES
 * per node), the bitmap of the nodes whose subtree has a selected sample
 * (REACHED: the others are left out of the view) and each thread's HITS
 * (ThreadHit), when asked for.  With SUBTREES, WEIGHTS are those of each
 * node's subtree, and REACHED is NULL where the query selected samples
 * all over the tree (a subtree of samples is one reached).
 *
 * The last one made with SUBTREES and REACHED is kept, for the next query
 * of the same samples: a new merge key, a zoom that needs a finer tree,
 * the function table's tree, the exports.  Whatever a query does with
 * them, it reads them only; the tree of a deep profile spends most of a
 * query on step 1. */
typedef struct
{
  gatomicrefcount ref_count;
  TvProfileData  *data;         /* not a reference */
  /* What selected the samples. */
  gint64          interpreter;
  guint8          status_mask;
  guint8          status_value;
  gboolean        has_range;
  guint64         range_start;
  guint64         range_end;
  guint32        *threads;      /* NULL: all */
  guint           n_threads;
  TvTimeRange    *ranges;       /* NULL: all times */
  guint           n_ranges;
  /* What was made. */
  TvWeight       *weights;      /* free with tv_huge_free () */
  guint64        *states;       /* NULL unless asked for */
  guint64        *reached;
  GArray         *hits;         /* NULL unless asked for */
  gboolean        kept;         /* held for the next query too */
} Weighed;

/* The samples QUERY selects, weighed: one that was kept when it fits,
 * with HITS when asked, and STATES when QUERY counts them.  BY_RANK (not
 * with SUBTREES nor WITH_REACHED): by the rank of each exact leaf among
 * those of BY_RANK, in WEIGHTS, STATES and HITS, not by node.  NULL once
 * cancelled. */
Weighed *tv_call_tree_weigh_tree (TvProfileData      *data,
                                  const TvQuery      *query,
                                  gboolean            subtrees,
                                  gboolean            with_hits,
                                  gboolean            with_reached,
                                  const RunLeaves    *by_rank,
                                  Progress           *progress);
void     tv_weighed_unref        (Weighed            *weighed);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (Weighed, tv_weighed_unref)
/* Frees the arrays of the exact nodes of WEIGHED unless it is kept for
 * the next query; its hits stay. */
void     tv_weighed_done_with_nodes (Weighed         *weighed);
/* Its first part.  TOUCHED may be NULL; it is by node, without BY_RANK. */
gboolean tv_call_tree_weigh     (TvProfileData       *data,
                                 const TvQuery       *query,
                                 TvWeight            *weights,
                                 guint64             *states,
                                 GArray              *hits,
                                 Touched             *touched,
                                 const RunLeaves     *by_rank,
                                 Progress            *progress);
/* Step 2 (tv-call-tree-map.c).  With PRUNE, WEIGHTS are subtree sums
 * (see Prune) and REACHED may be NULL. */
void     tv_call_tree_map_nodes (TvProfileData       *data,
                                 const TvQuery       *query,
                                 const TvWeight      *weights,
                                 const guint64       *states,
                                 const guint64       *reached,
                                 guint32             *map,
                                 guint8              *in_focus,
                                 const Prune         *prune,
                                 Builder             *b,
                                 Progress            *progress);
/* The view node of each of the HITS' leaves (ThreadHit) into HIT_NODES,
 * from the PRUNE that made the view and MAP, where it gave each kept
 * node its place: a leaf left out is the child of a kept node or a
 * descendant of one of PRUNE's left roots.  What the exact nodes between
 * hold is not counted (compare map_left_out() in tv-call-tree.c). */
void     tv_call_tree_map_left_leaves (const TvExactTree *exact,
                                       const Prune       *prune,
                                       const GArray      *hits,
                                       const guint32     *map,
                                       guint32           *hit_nodes);
/* Step 3 (tv-call-tree-invert.c). */
void     tv_builder_sum_totals  (const Builder       *b,
                                 guint64             *total);
/* Children lists (unsorted) of N_NODES nodes with their PARENT. */
void     tv_index_children      (guint32              n_nodes,
                                 const guint32       *parent,
                                 guint32            **child_start_out,
                                 guint32            **children_out);

/* A finished tree, as the function table reads it: N_NODES nodes with
 * their KEY, SELF and TOTAL, and the CHILDREN of each node from
 * CHILD_START. */
typedef struct
{
  guint32        n_nodes;
  const guint32 *key;
  const guint64 *self;
  const guint64 *total;
  const guint32 *child_start;
  const guint32 *children;
} FunctionsInput;

/* The function table (tv-call-tree-functions.c), unsorted: of a finished
 * tree, or of a builder's before it is turned over. */
TvFunctionRow *tv_call_tree_build_functions (TvProfileData        *data,
                                             TvMergeKey            merge,
                                             const FunctionsInput *in,
                                             guint                *n_rows_out,
                                             guint32             **outer_start,
                                             guint32             **outer_nodes,
                                             Progress             *progress);
TvFunctionRow *tv_builder_functions         (TvProfileData        *data,
                                             TvMergeKey            merge,
                                             const Builder        *b,
                                             guint                *n_rows_out,
                                             Progress             *progress);
/* The function table of a view that left nodes out (see Prune), read
 * off the exact tree with each exact node's selected samples with those
 * of its subtree (SUB; none outside the nodes REACHED marks when it is
 * not NULL), as the view's transforms (HIDDEN functions,
 * COLLAPSE_RECURSION, the focus that IN_FOCUS marks) merge them; and each
 * function's callers and callees into NEIGHBOURS.  With the HITS of the
 * samples (Weighed.hits, or NULL) and no transform, off the outermost
 * calls only where they are few.  NULL once cancelled. */
TvFunctionRow *tv_call_tree_exact_functions (TvProfileData        *data,
                                             const TvWeight       *sub,
                                             const GArray         *hits,
                                             const guint64        *reached,
                                             const guint8         *hidden,
                                             gboolean              collapse_recursion,
                                             const guint8         *in_focus,
                                             Neighbours           *neighbours,
                                             guint                *n_rows_out,
                                             Progress             *progress);
void           tv_neighbours_clear          (Neighbours           *neighbours);
/* tv_call_tree_exact_functions() with no transform but leaving nodes out,
 * shared by two calls of ..._work(), one with LAST, on two threads: each
 * takes nodes until none is left (PROGRESS its own, which says only if it
 * was cancelled), the first chunk of them the one's without LAST and the
 * last the other's, so that both add some whatever the threads' timing;
 * once both are done, ..._finish() makes the table, as
 * tv_call_tree_exact_functions() does, and frees SHARE. */
typedef struct _FunctionsShare FunctionsShare;
FunctionsShare *tv_call_tree_functions_share_new    (TvProfileData        *data,
                                                     const TvWeight       *sub,
                                                     const GArray         *hits,
                                                     const guint64        *reached);
void           tv_call_tree_functions_share_work    (FunctionsShare       *share,
                                                     gboolean              last,
                                                     Progress             *progress);
TvFunctionRow *tv_call_tree_functions_share_finish  (FunctionsShare       *share,
                                                     Neighbours           *neighbours,
                                                     guint                *n_rows_out,
                                                     const Progress       *progress);
/* The functions QUERY hides, by function key, or NULL for none
 * (tv-call-tree-map.c). */
guint8        *tv_call_tree_hidden_functions (TvProfileData       *data,
                                              const TvQuery       *query);
/* The table's order, for qsort(). */
int            tv_function_rows_compare     (const void           *pa,
                                             const void           *pb);
/* Whether work over an exact tree of N_NODES nodes is shared with a
 * second thread (see tv_call_tree_set_thread_min_nodes()). */
gboolean       tv_call_tree_uses_threads    (guint32               n_nodes);


/* What is kept between queries of a profile (tv_huge_keep ()). */
enum
{
  KEPT_RUNS = 1,
  KEPT_STEPS,
  KEPT_LEAVES,
  KEPT_SIGNATURES
};

/* The tag of KIND kept for DATA and MERGE: never 0. */
static inline guint64
tv_call_tree_kept_tag (TvProfileData *data,
                       TvMergeKey     merge,
                       guint          kind)
{
  return (guint64) tv_profile_data_get_serial (data) << 16 | (guint64) merge << 8 | kind;
}

/* RL, taken from the kept blocks or made; FALSE when DATA has too many
 * runs to rank in 32 bits. */
gboolean tv_run_leaves_get      (TvProfileData       *data,
                                 RunLeaves           *rl);
/* Gives RL back to the kept blocks, for the next query; then it holds
 * nothing. */
void     tv_run_leaves_keep     (RunLeaves           *rl);
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (RunLeaves, tv_run_leaves_keep)

/* Turns V over into INV.  V is a view (with parents), or the exact tree's
 * leaves weighed by the ranks of RL (without). */
void     tv_call_tree_invert    (TvProfileData       *data,
                                 const Builder       *v,
                                 const RunLeaves     *rl,
                                 const TvQuery       *query,
                                 Builder             *inv,
                                 guint32             *end_of,
                                 GArray              *remainders,
                                 Progress            *progress);
void     tv_call_tree_callers   (TvProfileData       *data,
                                 TvMergeKey           merge,
                                 const Builder       *v,
                                 const guint64       *total,
                                 const guint64       *states,
                                 guint32              function,
                                 Builder             *out,
                                 Progress            *progress);

G_END_DECLS
