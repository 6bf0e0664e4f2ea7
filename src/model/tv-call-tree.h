/* tv-call-tree.h: a call tree for one query over the loaded samples
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A TvCallTree is what a view shows: the samples a query selects (threads,
 * interpreter, status, a time range, a set of time ranges), merged by a
 * key (frame, function, line, instruction), optionally transformed (hide
 * functions, collapse recursion, focus on a function, callers of a
 * function) and optionally inverted.  It is computed from TvProfileData alone, on any thread, and
 * is immutable once made.
 */
#pragma once

#include "tv-profile-data.h"

G_BEGIN_DECLS

typedef struct _TvCallTree TvCallTree;

typedef struct
{
  TvMergeKey     merge;
  /* Thread indices (TvThread.index) to keep; NULL keeps all. */
  const guint32 *threads;
  guint          n_threads;
  /* Interpreter to keep, or -1 for all. */
  gint64         interpreter;
  /* Keep samples whose (status & status_mask) == status_value. */
  guint8         status_mask;
  guint8         status_value;
  /* Keep samples with range_start <= timestamp < range_end. */
  gboolean       has_range;
  guint64        range_start;
  guint64        range_end;
  /* And keep samples whose timestamp is in one of N_RANGES ranges, sorted
   * and disjoint (see tv_time_ranges_are_sorted()), as a heatmap selects
   * them; NULL keeps all, an empty list none. */
  const TvTimeRange *ranges;
  guint          n_ranges;

  gboolean       inverted;            /* ignored with callers_of */
  gboolean       collapse_recursion;  /* a function calling itself directly */
  /* Function keys (TV_MERGE_FUNCTION); TV_NODE_NONE for none. */
  guint32        focus_function;    /* only stacks through it, rooted at it */
  guint32        callers_of;        /* rooted at it, its callers below */
  const guint32 *hidden_functions;  /* merged into their callers */
  guint          n_hidden_functions;

  /* Count each node's samples by thread state as well (see
   * tv_call_tree_get_status_counts()); it makes the tree slower to build. */
  gboolean       count_states;
  /* Count how many threads reached each node (see
   * tv_call_tree_get_n_threads_of()); not for callers_of trees. */
  gboolean       count_threads;
  /* Keep where each exact node's samples went (see
   * tv_call_tree_get_node_map()); not for inverted or callers_of trees. */
  gboolean       keep_node_map;
  /* Keep each thread's own samples per node (see
   * tv_call_tree_get_thread_self()), found in the same pass as the
   * tree's; not for inverted or callers_of trees.  A tree that leaves
   * nodes out keeps as well each thread's samples in each remainder, the
   * remainder's states and how many call paths it holds (see
   * tv_call_tree_get_thread_remainders()). */
  gboolean       thread_self;
  /* A tree may leave out a node with fewer samples than this: its
   * samples are then its parent's remainder (see
   * tv_call_tree_get_remainder()), and every node it has keeps its exact
   * self, total, state and thread counts; the function table, callers
   * and callees stay exact.  0 keeps every node.  Callers trees, and
   * top-down trees with a node map, keep every node whatever it says. */
  guint64        min_total;
  /* And a top-down or inverted tree, one with fewer than this fraction,
   * 1 / min_total_divisor, of the samples of the tree, rounded up: a
   * threshold set before they are counted, the larger one winning, on
   * the detail path (below) too.  0 for none. */
  guint64        min_total_divisor;
  /* Finer detail in one place of a tree left out by min_total (a
   * zoomed-in frame): the node reached from the root by these keys and
   * every node on the way are kept, whatever their samples, and below
   * that node detail_min_total takes min_total's place.  NULL for
   * none. */
  const guint32 *detail_path;
  guint          n_detail_path;
  guint64        detail_min_total;
  /* A tree of the same samples and transforms, of any merge key,
   * inverted or not, whose function table this one takes rather than make
   * its own (a function table, which is by function, never depends on
   * the merge key, on inversion or on what a tree left out).  An inverted tree is then turned over from the exact tree, with
   * no top-down tree made first (not with focus_function or
   * collapse_recursion, where it is not used); a top-down tree that
   * leaves nodes out takes the table, callers and callees of one that
   * did too (of another it makes its own).  NULL for none. */
  TvCallTree    *functions_of;
} TvQuery;

/* A view of a big profile leaves out of its tree the frames under this
 * fraction of the samples it shows (TvQuery.min_total and
 * detail_min_total): a tenth of a pixel 1,920 pixels wide. */
#define TV_QUERY_DETAIL_DIVISOR 20000

/* A query that keeps everything, merged by MERGE. */
void tv_query_init (TvQuery    *query,
                    TvMergeKey  merge);

/* Whether the N RANGES are what a query takes: each start <= end, and
 * each range ends at or before the next one starts. */
gboolean tv_time_ranges_are_sorted (const TvTimeRange *ranges,
                                    guint              n);
/* Sorts RANGES, drops the empty ones and merges those that overlap or
 * touch, in place; returns how many are left. */
guint    tv_time_ranges_normalize  (TvTimeRange       *ranges,
                                    guint              n);
/* Whether TIMESTAMP is in one of the N sorted, disjoint RANGES: a query's
 * sample predicate. */
gboolean tv_time_ranges_contain    (const TvTimeRange *ranges,
                                    guint              n,
                                    guint64            timestamp);

/* Whether QUERY selects the thread T, and the samples of it with STATUS
 * taken at TIMESTAMP: what a call tree counts, one sample at a time, for
 * the exporters that write every sample. */
gboolean tv_query_selects_thread   (const TvQuery     *query,
                                    const TvThread    *t);
gboolean tv_query_selects_sample   (const TvQuery     *query,
                                    guint8             status,
                                    guint64            timestamp);
/* The first sample of thread T from index FROM on taken at TS or later
 * (a thread's samples are in time order): where a time range starts or
 * ends in it. */
guint64  tv_thread_lower_bound     (const TvThread    *t,
                                    guint64            from,
                                    guint64            ts);

/* The thread states a call tree counts per node (TACH_STATUS_* bits). */
typedef enum
{
  TV_STATUS_COUNT_HAS_GIL,          /* TACH_STATUS_HAS_GIL */
  TV_STATUS_COUNT_ON_CPU,           /* TACH_STATUS_ON_CPU */
  TV_STATUS_COUNT_GIL_REQUESTED,    /* TACH_STATUS_GIL_REQUESTED */
  TV_STATUS_COUNT_HAS_EXCEPTION,    /* TACH_STATUS_HAS_EXCEPTION */
  TV_N_STATUS_COUNTS
} TvStatusCount;

typedef struct
{
  guint32 function;      /* TV_MERGE_FUNCTION key */
  guint64 self;
  guint64 total;         /* a recursive function counts once */
} TvFunctionRow;

TvCallTree    *tv_call_tree_new            (TvProfileData  *data,
                                            const TvQuery  *query,
                                            GCancellable   *cancellable);
/* Called on the building thread now and then, with the share of the work
 * done, from 0 to 1; the last call, once the tree is made, says 1. */
typedef void (*TvProgressFunc) (double   fraction,
                                gpointer user_data);
/* Like tv_call_tree_new(), reporting PROGRESS (when not NULL).  A big tree
 * sees CANCELLABLE within milliseconds, at every step. */
TvCallTree    *tv_call_tree_new_with_progress (TvProfileData  *data,
                                               const TvQuery  *query,
                                               TvProgressFunc  progress,
                                               gpointer        progress_data,
                                               GCancellable   *cancellable);
TvCallTree    *tv_call_tree_ref            (TvCallTree     *tree);
void           tv_call_tree_unref          (TvCallTree     *tree);
/* A top-down tree that leaves nodes out keeps the weights of the exact
 * tree it read, for the next tree of the same samples (another merge key,
 * a finer zoom, the function table's tree), until DATA goes or no tree
 * was asked for as long as tv-huge-pages.h keeps its blocks (30 seconds,
 * while the default main context runs).  This lets go of them now (of
 * any profile's when DATA is NULL). */
void           tv_call_tree_forget_weights (TvProfileData  *data);
/* For tests: how many such trees took the weights kept and how many made
 * their own, and whether some are kept now. */
void           tv_call_tree_get_kept_stats (guint          *taken,
                                            guint          *made,
                                            gboolean       *holding);
/* From how many exact nodes a tree that leaves nodes out reads its
 * function table off on a second thread while it groups its nodes, and an
 * inverted tree shares its first pass with one; and from a sixteenth of
 * that many paths an inverted tree that leaves nodes out shares its
 * climb, and from a sixteenth of that many hits a count of threads finds
 * where they start, on two threads.  All when there is a second
 * processor; 0 makes every such tree use one, whatever the processors.
 * For tests: set it before any tree is built. */
void           tv_call_tree_set_thread_min_nodes (guint32 n_nodes);
/* For tests: how many function tables two threads made together. */
guint          tv_call_tree_get_shared_tables (void);
/* For tests: how many inverted trees two threads climbed together. */
guint          tv_call_tree_get_shared_climbs (void);
/* For tests: how many inverted trees took their runs, or their steps,
 * from a tree of the same profile before (see tv-call-tree-invert.c). */
guint          tv_call_tree_get_runs_reused (void);
guint          tv_call_tree_get_steps_reused (void);
/* For tests: how many inverted trees climbed runs their profile made
 * ahead (tv_call_tree_prepare_inverted()). */
guint          tv_call_tree_get_prepared_used (void);
/* For tests: the most threads whose hits count_threads() counts as bits
 * of a word a node (64, the most it can); past them, it stamps each
 * node on their paths. */
void           tv_call_tree_set_thread_mask_limit (guint n_threads);
/* For tests: how many trees read their profile's tree merged by function
 * (tv_profile_data_get_merged()). */
guint          tv_call_tree_get_merged_used (void);
/* For tests: how many function tables read off the exact tree took its
 * nodes' signatures from a tree of the same profile before (see
 * tv-call-tree-functions.c). */
guint          tv_call_tree_get_signatures_reused (void);
/* For tests: function tables read off the exact tree number its nodes'
 * signatures when it has at most MIN_LOUD loud nodes (or a quarter of
 * its nodes), in an array of every signature up to DIRECT_MAX of them,
 * else in a table of FIRST_SLOTS slots that grows.  The defaults are
 * 1 << 22, 1 << 20 and 4096. */
void           tv_call_tree_set_signature_limits (guint32 min_loud,
                                                  guint64 direct_max,
                                                  guint32 first_slots);
/* For tests: function tables with no hidden node are read off the
 * outermost calls of the exact tree when those are at most SHARE of its
 * loud nodes (default 0.25), and tv_call_tree_get_outer_tables () counts
 * them. */
void           tv_call_tree_set_outer_calls_share (double share);
guint          tv_call_tree_get_outer_tables     (void);

/* Makes ahead what the inverted trees merged by function of DATA (of its
 * tree merged by function, once it has one) climb: the leaves of its
 * samples' runs and, where its paths mostly climb runs of one function,
 * the block of those runs, which DATA then keeps as long as it lives.
 * The first inverted tree then takes what every later one takes from a
 * tree before, for as long as that is kept.  Its work grows with the
 * tree: call it on a thread of its own.  FALSE when cancelled, or when
 * DATA has too many runs to turn over from its exact tree. */
gboolean       tv_call_tree_prepare_inverted (TvProfileData *data,
                                              GCancellable  *cancellable);
/* The same, reporting PROGRESS (when not NULL). */
gboolean       tv_call_tree_prepare_inverted_with_progress (TvProfileData  *data,
                                                            TvProgressFunc  progress_func,
                                                            gpointer        progress_data,
                                                            GCancellable   *cancellable);

TvProfileData *tv_call_tree_get_data       (TvCallTree     *tree);
TvMergeKey     tv_call_tree_get_merge      (TvCallTree     *tree);
gboolean       tv_call_tree_get_inverted   (TvCallTree     *tree);
guint32        tv_call_tree_get_n_nodes    (TvCallTree     *tree);
/* Samples the query selected (the root's total). */
guint64        tv_call_tree_get_n_samples  (TvCallTree     *tree);

/* Node 0 is the root; its key is TV_NODE_NONE. */
guint32        tv_call_tree_get_parent     (TvCallTree     *tree,
                                            guint32         node);
guint32        tv_call_tree_get_key        (TvCallTree     *tree,
                                            guint32         node);
/* A frame-table index that stands for the node's key. */
guint32        tv_call_tree_get_frame      (TvCallTree     *tree,
                                            guint32         node);
guint32        tv_call_tree_get_function   (TvCallTree     *tree,
                                            guint32         node);
guint          tv_call_tree_get_depth      (TvCallTree     *tree,
                                            guint32         node);
guint64        tv_call_tree_get_self       (TvCallTree     *tree,
                                            guint32         node);
guint64        tv_call_tree_get_total      (TvCallTree     *tree,
                                            guint32         node);
/* The samples below NODE in children the query's min_total left out:
 * its total is its self, its children's totals and this.  0 in a tree
 * that left nothing out. */
guint64        tv_call_tree_get_remainder  (TvCallTree     *tree,
                                            guint32         node);
/* How many children of NODE the remainder stands for. */
guint32        tv_call_tree_get_remainder_children (TvCallTree *tree,
                                                    guint32     node);
/* 0 when nothing below NODE (NODE's own children included) was left out;
 * else the largest threshold that left a child out there: every child
 * left out below NODE has fewer samples than this.  A view that shows a
 * sample narrower than this threshold's share needs a finer tree (see
 * TvQuery.detail_path). */
guint64        tv_call_tree_get_cut_below  (TvCallTree     *tree,
                                            guint32         node);
/* Whether the query counted states (TvQuery.count_states). */
gboolean       tv_call_tree_has_status_counts (TvCallTree *tree);
/* Of the samples through NODE (its total), how many had each state:
 * TV_N_STATUS_COUNTS values indexed by TvStatusCount, or NULL when the
 * query did not count states. */
const guint64 *tv_call_tree_get_status_counts (TvCallTree *tree,
                                               guint32     node);
/* Whether the query counted threads (TvQuery.count_threads). */
gboolean       tv_call_tree_has_thread_counts (TvCallTree *tree);
/* How many threads have samples through NODE; 0 when not counted. */
guint32        tv_call_tree_get_n_threads_of  (TvCallTree *tree,
                                               guint32     node);
/* Per node of the exact tree (TvExactTree), the node of this tree where
 * the samples that end there are counted: TV_ROOT_NODE for those whose
 * stack the transforms emptied, TV_NODE_NONE for those it counts nowhere
 * (not selected, or outside the focused function).  NULL unless the query
 * asked for it (TvQuery.keep_node_map). */
const guint32 *tv_call_tree_get_node_map (TvCallTree *tree);
/* Whether the query kept each thread's samples (TvQuery.thread_self). */
gboolean       tv_call_tree_has_thread_self   (TvCallTree *tree);
/* The nodes where the selected samples of thread THREAD (TvThread.index)
 * end, in increasing order, and in COUNTS how many end at each: every
 * node with self samples of that thread, and no other.  *N_NODES is 0 for
 * a thread with none, or when the query did not ask for them. */
const guint32 *tv_call_tree_get_thread_self   (TvCallTree     *tree,
                                               guint           thread,
                                               const guint64 **counts,
                                               guint          *n_nodes);
/* In a tree that left nodes out, the nodes whose remainder holds selected
 * samples of thread THREAD, in increasing order, and in COUNTS how many:
 * with the thread's self samples, every sample of the thread.  *N_NODES
 * is 0 when there are none, or when the query did not ask for them
 * (TvQuery.thread_self). */
const guint32 *tv_call_tree_get_thread_remainders (TvCallTree     *tree,
                                                   guint           thread,
                                                   const guint64 **counts,
                                                   guint          *n_nodes);
/* Of the samples in NODE's remainder, how many had each state
 * (TV_N_STATUS_COUNTS values, as tv_call_tree_get_status_counts()); NULL
 * unless the query counted states and kept each thread's self samples. */
const guint64 *tv_call_tree_get_remainder_status_counts (TvCallTree *tree,
                                                         guint32     node);
/* How many call paths (nodes of the exact tree, TvExactTree, with
 * selected samples at or below them) NODE's remainder holds; 0 unless the
 * query kept each thread's self samples. */
guint64        tv_call_tree_get_remainder_paths (TvCallTree *tree,
                                                 guint32     node);
/* Every node's parent and key, indexed by node: for passes over the whole
 * tree (the root's parent is TV_NODE_NONE). */
const guint32 *tv_call_tree_get_parents    (TvCallTree     *tree);
const guint32 *tv_call_tree_get_keys       (TvCallTree     *tree);
/* Children in display order (by function name, file, line, ...). */
const guint32 *tv_call_tree_get_children   (TvCallTree     *tree,
                                            guint32         node,
                                            guint          *n_children);
/* The child of NODE with KEY, or TV_NODE_NONE. */
guint32        tv_call_tree_find_child     (TvCallTree     *tree,
                                            guint32         node,
                                            guint32         key);

/* One row per function with samples, by total then self, descending. */
const TvFunctionRow *tv_call_tree_get_functions (TvCallTree *tree,
                                                 guint      *n_rows);

/* The first level of what a tree focused on FUNCTION and a tree of the
 * callers of FUNCTION say (TvQuery.focus_function and .callers_of, with
 * this tree's other settings, merged by function), read off this tree in
 * one pass instead of building those two: its callees, by function, with
 * their totals under its outermost calls, and a row of no function for its
 * own self samples; its callers, by function, with the totals of its
 * outermost calls they made, and a row of no function for the calls at
 * the root.  The rows' self is 0.  FALSE for an inverted tree, or when
 * cancelled. */
gboolean       tv_call_tree_get_neighbours (TvCallTree     *tree,
                                            guint32         function,
                                            GCancellable   *cancellable,
                                            TvFunctionRow **callers,
                                            guint          *n_callers,
                                            TvFunctionRow **callees,
                                            guint          *n_callees);

/* Seconds for a number of samples of this profile. */
double         tv_call_tree_samples_to_seconds (TvCallTree   *tree,
                                                guint64       samples,
                                                TvTimeSource *source);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TvCallTree, tv_call_tree_unref)

G_END_DECLS
