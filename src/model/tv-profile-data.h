/* tv-profile-data.h: what one pass over a profile's samples leaves behind
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * TvProfileData is built once, on a worker thread, and is immutable after
 * that: every view (call trees with any filter, the timeline, tables) is
 * computed from it without decoding the file again, from any thread.
 *
 * Samples are kept per thread, because the writer emits each thread's
 * samples in time order: a time range is a binary search per thread, and a
 * thread filter skips whole arrays.  Per sample there is a timestamp (in
 * blocks of small offsets, TvTimes) and a status (mostly in 4 bits,
 * TvStatuses); the leaf node only changes at non-REPEAT records, so it is
 * kept as runs (first sample, leaf).
 *
 * A load of counts (tv_profile_data_load_counts()) keeps no sample: its
 * runs cover only the samples its filter selected, as counts, and every
 * per-thread figure (samples, states, first and last timestamp) is still
 * that of all the thread's samples.  It costs what the call tree costs,
 * whatever the number of samples: an export needs no more.
 */
#pragma once

#include <gio/gio.h>

#include "tv-statuses.h"
#include "tv-times.h"

/* The format library's reader, for the loads and the exporters that
 * stream it (src/export/, src/cli/); no layer above the model includes
 * tachyon-format.h or calls it. */
typedef struct TachReader TachReader;

G_BEGIN_DECLS

#define TV_NODE_NONE G_MAXUINT32

/* Bit N of the bitmap BITS (64 nodes a word). */
#define TV_BIT_TEST(bits, n) (((bits)[(n) / 64] >> ((n) % 64)) & 1)
#define TV_BIT_SET(bits, n) ((bits)[(n) / 64] |= G_GUINT64_CONSTANT (1) << ((n) % 64))
#define TV_ROOT_NODE 0

/* The most thread-samples a load keeps: a view counts a node's in 32
 * bits (see tv_profile_data_set_max_samples()). */
#define TV_PROFILE_MAX_SAMPLES G_MAXUINT32

typedef struct
{
  guint64  thread_id;
  guint32  interpreter_id;
  guint32  index;              /* position in the thread array */
  guint64  n_samples;
  TvTimes  times;              /* n_samples, µs, in file order; none (no
                                * blocks) in a load of counts */
  TvStatuses statuses;         /* n_samples; none (no bytes) in a load
                                * of counts */
  guint64 *run_start;          /* n_runs: first sample of each leaf run */
  guint32 *run_leaf;           /* n_runs: exact-tree leaf of the run */
  guint64  n_runs;
  guint64  first_timestamp;    /* earliest */
  guint64  last_timestamp;     /* latest */
  gboolean time_ordered;       /* timestamps never decrease */
  guint64  status_counts[6];   /* samples with each status bit (0..5) set */
  guint64  n_run_samples;      /* samples the runs cover: n_samples, or in a
                                * load of counts, those its filter kept */
  guint64 *run_states;         /* n_runs * TV_N_RUN_STATES: of the samples
                                * each run counts, those with each state, in
                                * a load of counts that counted them; else
                                * NULL */
} TvThread;

/* The thread states a load of counts may count per run: the status bits
 * HAS_GIL, ON_CPU, GIL_REQUESTED and HAS_EXCEPTION, in that order (a call
 * tree's TvStatusCount). */
#define TV_N_RUN_STATES 4

/* A node number kept as its distance from another node's (a parent just
 * before its child, a first child just after its parent), in 16 bits: the
 * rare ones too far for that (TV_TREE_FAR) are in a table beside, NODES in
 * ascending order with their VALUES.  A far node's value is that of the
 * last of NODES at or before it: siblings are consecutive, so the far
 * children of a parent are one entry, their first.  STARTS has,
 * for each 2^TV_TREE_FAR_SHIFT nodes, where their entries start (and N
 * last): a lookup bisects a few entries, not the table (all of it while
 * the load makes it, without STARTS). */
#define TV_TREE_FAR       G_MAXUINT16
#define TV_TREE_FAR_SHIFT 16

typedef struct
{
  guint32 *nodes;
  guint32 *values;
  guint32  n;
  guint32 *starts;
} TvTreeFar;

/* The exact call tree: node identity is (parent, file frame index).  Node
 * 0 is the root (no frame); a parent always has a smaller id than its
 * children, siblings have consecutive ids, and so do most chains of calls
 * (the nodes are numbered depth first, a node's children together).
 *
 * Read it with tv_exact_tree_parent(), tv_exact_tree_first_child() and
 * tv_exact_tree_frame(): most of a deep profile's memory is this tree, and
 * numbered this way it fits in 6 bytes a node rather than 12.  A parent is
 * almost always the node just before, and a first child the one just
 * after; most files have fewer than 65535 frames. */
typedef struct
{
  guint32   n_nodes;
  guint16  *up;                 /* node minus its parent, 0 for a child
                                 * of the root */
  guint16  *down;               /* first child minus the node */
  /* The frame of each node: FRAME16 when the file has fewer than
   * TV_TREE_FAR frames, else FRAME32 (the root's is meaningless). */
  guint16  *frame16;
  guint32  *frame32;
  TvTreeFar far_up;             /* node 0, the root, has TV_NODE_NONE */
  TvTreeFar far_down;
  /* Bit N (64 nodes a word) is set when no node above N has its function:
   * N is an outermost call of it. */
  guint64  *outer_calls;
  /* Bit N is set when N's parent has N's function and is not an
   * outermost call of it: the inside of a recursion, which adds nothing
   * to a function table of the nodes as they are (see
   * tv_call_tree_exact_functions()). */
  guint64  *quiet_calls;
  guint32   n_quiet;
} TvExactTree;

/* The value of NODE in FAR, which has it. */
guint32 tv_tree_far_get (const TvTreeFar *far,
                         guint32          node);

/* TV_NODE_NONE for the root.  A distance of 0 says the parent is the root,
 * however far: a file of many threads has more of those than of any
 * other far parent. */
static inline guint32
tv_exact_tree_parent (const TvExactTree *tree,
                      guint32            node)
{
  guint32 d = tree->up[node];

  if (G_LIKELY ((guint16) (d - 1) < TV_TREE_FAR - 1))
    return node - d;
  return d == 0 ? TV_ROOT_NODE : tv_tree_far_get (&tree->far_up, node);
}

/* A node's children are consecutive: those of NODE are the nodes from
 * this one on whose parent is NODE (none when that one's is not, or when it
 * is n_nodes or more). */
static inline guint32
tv_exact_tree_first_child (const TvExactTree *tree,
                           guint32            node)
{
  guint32 d = tree->down[node];

  return G_LIKELY (d != TV_TREE_FAR) ? node + d : tv_tree_far_get (&tree->far_down, node);
}

static inline guint32
tv_exact_tree_frame (const TvExactTree *tree,
                     guint32            node)
{
  return tree->frame16 != NULL ? tree->frame16[node] : tree->frame32[node];
}

typedef enum
{
  TV_TIME_SOURCE_STATS,        /* 1 / measured sample rate */
  TV_TIME_SOURCE_INTERVAL,     /* the header's sampling interval */
} TvTimeSource;

/* How frames merge into the nodes of a view. */
typedef enum
{
  TV_MERGE_FRAME,              /* all seven fields of the frame table */
  TV_MERGE_FUNCTION,           /* file and function name */
  TV_MERGE_LINE,               /* file, function and line */
  TV_MERGE_INSTRUCTION,        /* file, function, line, column and opcode */
  TV_N_MERGE_KEYS /*< skip >*/
} TvMergeKey;

/* A range of absolute timestamps, [start, end). */
typedef struct
{
  guint64 start;
  guint64 end;
} TvTimeRange;

typedef struct _TvProfileData TvProfileData;

/* The samples a load of counts keeps: those with (status & status_mask)
 * == status_value, a timestamp in [range_start, range_end) when has_range
 * and in one of the N_RANGES sorted, disjoint RANGES when that is not
 * NULL (an empty list keeps none).  COUNT_STATES also counts the states of
 * the samples each run keeps (TvThread.run_states), which is what a call
 * tree that counts states needs. */
typedef struct
{
  guint8             status_mask;
  guint8             status_value;
  gboolean           has_range;
  guint64            range_start;
  guint64            range_end;
  const TvTimeRange *ranges;
  guint              n_ranges;
  gboolean           count_states;
} TvSampleFilter;

/* Called from the loading thread now and then; return nothing. */
typedef void (*TvLoadProgressFunc) (guint64  samples,
                                    double   fraction,
                                    gpointer user_data);

TvProfileData     *tv_profile_data_load          (TachReader          *reader,
                                                  TvLoadProgressFunc   progress,
                                                  gpointer             user_data,
                                                  GCancellable        *cancellable,
                                                  GError             **error);
/* Like tv_profile_data_load(), without keeping the samples: the runs
 * count those FILTER (NULL: every sample) selects, and a query of the
 * result selects by thread only (no state or time range; state counts
 * when FILTER counted them). */
TvProfileData     *tv_profile_data_load_counts   (TachReader          *reader,
                                                  const TvSampleFilter *filter,
                                                  TvLoadProgressFunc   progress,
                                                  gpointer             user_data,
                                                  GCancellable        *cancellable,
                                                  GError             **error);
/* FALSE for a load of counts: its threads have no timestamps or statuses. */
gboolean           tv_profile_data_has_samples   (TvProfileData *data);
/* Whether a query may count states (TvQuery.count_states): TRUE when the
 * samples were kept, or when a load of counts counted their states. */
gboolean           tv_profile_data_has_states    (TvProfileData *data);
/* A load takes at most three quarters of the memory available when it
 * starts, and fails with TV_TACH_ERROR_NO_MEMORY past that.  For tests:
 * KIB other than 0 is the limit instead, for loads that start after; so
 * is $TV_MEMORY_LIMIT_KIB, when KIB is 0. */
void               tv_profile_data_set_memory_limit (guint kib);
/* A load keeps at most TV_PROFILE_MAX_SAMPLES thread-samples, and fails
 * with TV_TACH_ERROR_UNSUPPORTED past that.  For tests: MAX other than 0
 * is the limit instead (if lower), for loads that start after. */
void               tv_profile_data_set_max_samples (guint64 max);
/* Makes DATA's tree merged by function (see tv-profile-data-merged.c),
 * which a query merged by function then reads (tv_call_tree_new()) with
 * the same results, unless the merged tree would hold more than
 * MAX_SHARE of the exact tree's nodes.  Its work grows with the exact
 * tree: call it on a thread of its own.  TRUE when DATA has one; FALSE
 * when cancelled, when memory ran out, when a load of counts has none or
 * when it would be too big. */
gboolean           tv_profile_data_add_merged    (TvProfileData *data,
                                                  double         max_share,
                                                  GCancellable  *cancellable);
/* That merged tree, which lives as long as DATA, or NULL: a
 * TvProfileData whose tree is the paths of functions, and whose samples,
 * frames and keys are DATA's. */
TvProfileData     *tv_profile_data_get_merged    (TvProfileData *data);
TvProfileData     *tv_profile_data_ref           (TvProfileData *data);
void               tv_profile_data_unref         (TvProfileData *data);

TachReader        *tv_profile_data_get_reader    (TvProfileData *data);
/* Keeps BYTES alive as long as DATA: the buffer a memory reader reads. */
void               tv_profile_data_keep_bytes    (TvProfileData *data,
                                                  GBytes        *bytes);
guint64            tv_profile_data_get_n_samples (TvProfileData *data);
guint              tv_profile_data_get_n_threads (TvProfileData *data);
const TvThread    *tv_profile_data_get_thread    (TvProfileData *data,
                                                  guint          index);
/* The thread indices in the order every list of threads shows them (the
 * timeline's lanes, the thread menus and tables): by interpreter, then
 * the main thread, then by samples (most first), then by thread id; made
 * with the data, so that no view sorts its threads on the UI thread. */
const guint32     *tv_profile_data_get_thread_order (TvProfileData *data);
const TvExactTree *tv_profile_data_get_tree      (TvProfileData *data);
/* A number no other data loaded by this process has (until 2^32 loads):
 * what is kept of DATA's between queries is known by it. */
guint              tv_profile_data_get_serial    (TvProfileData *data);
/* What the inverted trees of DATA climb, made ahead
 * (tv_call_tree_prepare_inverted()), which DATA frees: where the leaves
 * of its runs are, or where the block of its runs is.  Each is set once,
 * whole, with g_atomic_pointer_compare_and_exchange(), the runs first,
 * and read with g_atomic_pointer_get(). */
typedef enum
{
  TV_PREPARED_LEAVES,
  TV_PREPARED_RUNS,
  TV_N_PREPARED
} TvPrepared;

gpointer          *tv_profile_data_get_prepared  (TvProfileData *data,
                                                  TvPrepared     which);
guint              tv_profile_data_get_max_depth (TvProfileData *data);
/* Samples whose stack has TACH_MAX_STACK_DEPTH frames: the writer cuts
 * deeper stacks there, so most of these lost their outermost frames. */
guint64            tv_profile_data_get_n_at_depth_limit (TvProfileData *data);
/* A new array of each exact node's samples: those whose stack ends there
 * (of a load of counts, those its filter kept).  The tree does not keep
 * them (8 bytes a node, most of them 0): views weigh the nodes by the
 * samples they select, and this is for what needs all of them. */
guint64           *tv_profile_data_count_node_samples (TvProfileData *data);
/* Earliest and latest timestamp over all threads; FALSE without samples.
 * Constant time. */
gboolean           tv_profile_data_get_time_span (TvProfileData *data,
                                                  guint64       *first,
                                                  guint64       *last);
/* Samples with each of the six status bits set, over all threads. */
const guint64     *tv_profile_data_get_status_counts (TvProfileData *data);

/* Seconds that one thread-sample stands for, and where that came from. */
double             tv_profile_data_get_seconds_per_sample (TvProfileData *data,
                                                           TvTimeSource  *source);

/* Merge keys: every frame of the frame table maps to a key; a key has a
 * representative frame (for names and locations) and a rank in the
 * order views sort siblings by (function, file, line, column, opcode).
 * Keys are numbered in that order, so a key's rank is the key itself:
 * whatever is sorted by key is in rank order. */
guint32            tv_profile_data_get_n_keys    (TvProfileData *data,
                                                  TvMergeKey     merge);
const guint32     *tv_profile_data_get_frame_keys (TvProfileData *data,
                                                   TvMergeKey     merge);
guint32            tv_profile_data_get_key_frame (TvProfileData *data,
                                                  TvMergeKey     merge,
                                                  guint32        key);
const guint32     *tv_profile_data_get_key_ranks (TvProfileData *data,
                                                  TvMergeKey     merge);

/* Per function key (TV_MERGE_FUNCTION), 1 for the profiler's own frames
 * (a file name ending in "_sync_coordinator.py"), which every view leaves
 * out as CPython's outputs do; NULL when the profile has none. */
const guint8      *tv_profile_data_get_internal_functions (TvProfileData *data);
/* Whether FILENAME (LEN bytes) is the profiler's own, as above. */
gboolean           tv_profile_file_is_internal   (const char    *filename,
                                                  gsize          len);

/* The frame's strings; never NULL. */
const char        *tv_profile_data_get_funcname  (TvProfileData *data,
                                                  guint32        frame);
const char        *tv_profile_data_get_filename  (TvProfileData *data,
                                                  guint32        frame);

/* The deepest stack the format records (SPEC §4): a stack of this many
 * frames may have been cut by the profiler. */
#define TV_MAX_STACK_DEPTH 256
/* A frame's location (SPEC §6): lines and columns are TV_LOCATION_NONE
 * when absent, the opcode TV_OPCODE_NONE. */
#define TV_LOCATION_NONE (-1)
#define TV_OPCODE_NONE   255

typedef struct
{
  gint32 line;
  gint32 end_line;
  gint32 column;
  gint32 end_column;
  guint8 opcode;
} TvFrameLocation;

guint32            tv_profile_data_get_n_frames  (TvProfileData *data);
/* FALSE, with every field absent, for a frame the table does not have. */
gboolean           tv_profile_data_get_frame_location (TvProfileData   *data,
                                                       guint32          frame,
                                                       TvFrameLocation *location);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TvProfileData, tv_profile_data_unref)

G_END_DECLS
