/* tv-profile-data-private.h: what the files of a load share
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A load is one pass (tv-profile-data.c) over arrays that a budget of
 * memory bounds (tv-sample-store.c), finished once every sample is in
 * (tv-profile-data-finish.c).
 */
#pragma once

#include "tv-profile-data.h"
#include "tachyon-format.h"

#include <sys/mman.h>

G_BEGIN_DECLS

#define PROGRESS_EVERY (1u << 16)

/* A node with up to this many children finds them by walking their list;
 * past it, through the hash table.  Most nodes of a call tree have one or
 * two children, and most pushed frames make a new node, so the walk is
 * usually empty and the table stays small. */
#define LIST_MAX_CHILDREN 8

/* Sample arrays: see SampleStore. */
#define POPULATE_BYTES      (64 * 1024)
#define MAX_MAPPED_THREADS  256
#define PREFAULT_QUEUE      1024
#define MAX_RESERVED_BYTES  (G_GUINT64_CONSTANT (1) << 40)
/* Room for this many samples at first in a thread's g_malloc'd arrays,
 * which double from there: a file can have a hundred thousand threads of
 * a sample or two, and what a load leaves in holes of the heap stays in
 * the process. */
#define INITIAL_SAMPLES     8

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23  /* Linux 5.14 */
#endif

/* Key and node side by side in 12 bytes: a probe touches one cache line.
 * Node 0 is the root, never a child, so it marks an empty slot. */
typedef struct
{
  guint32 parent;
  guint32 frame;
  guint32 node;
} Slot;

/* Building only, per node: its frame and its children, newest first,
 * all the build keeps of a node besides a bit (TvProfileData.hashed); a
 * walk reads one cache line per sibling.  The numbering
 * (tv-profile-data-finish.c) reads the tree from these. */
typedef struct
{
  guint32 frame;                /* the node's new number once the
                                 * numbering has given it one */
  guint32 first_child;          /* TV_NODE_NONE when none */
  guint32 next_sibling;
} Link;

/* A thread's stores: the pool of its timestamps' offsets (TvTimes), its
 * statuses, and its blocks of timestamps. */
#define STORE_TIMES        0
#define STORE_STATUSES     1
#define STORE_BLOCKS       2
#define STORES_PER_THREAD  3

/* Where a thread's timestamps, statuses or blocks are written.  Samples are only
 * ever appended, so when the header's sample count makes it affordable the
 * array is a reservation of address space for every sample of the file: a
 * thread costs what it holds, and nothing is copied while loading.  Its
 * pages are made resident ahead of the writes (as far ahead as it has
 * written, up to POPULATE_BYTES, so that a thread of one sample takes a
 * page, and one of millions is POPULATE_BYTES ahead), by a second
 * thread when there is a second processor: a page fault costs more than
 * decoding the page's samples, and this way the faults are taken off the
 * decoding thread, many pages per call.
 * Otherwise (the kernel limits the number of mappings, and a header can
 * declare any count) the array is a g_malloc block that doubles. */
typedef struct
{
  guint8 *mem;
  gsize   mapped;               /* bytes reserved with mmap, 0 for g_malloc */
  gsize   size;                 /* bytes [0, size) are writable */
  gsize   populated;            /* bytes [0, populated) are or will be
                                 * resident; size for g_malloc blocks */
} SampleStore;

/* The second thread that makes pages resident (see SampleStore). */
typedef struct
{
  GThread *thread;
  GMutex   lock;
  GCond    cond;
  guint8  *mem[PREFAULT_QUEUE];
  gsize    size[PREFAULT_QUEUE];
  guint    head;                /* next to take */
  guint    tail;                /* next to fill */
  gboolean waiting;
  gboolean busy;                /* making a range resident */
  GCond    idle;                /* signalled when the queue is done */
  gboolean stop;
} Prefaulter;

/* The tree's links and the numbering's arrays are filled from their
 * start: the second thread makes their pages resident from where they
 * are filled up to twice this far ahead, once they are filled to this
 * far from there (see tv_profile_data_prefault_range()). */
#define TREE_PREFAULT_AHEAD (4u << 20)

typedef struct
{
  guint64  runs_capacity;
  guint64  last_timestamp;      /* of the thread's last sample so far */
  gsize    times_at;            /* where the unfinished block of timestamps
                                 * starts in the pool: its samples so far
                                 * are there whole, until the block is full */
  guint32 *path;                /* node at each depth, path[0] the root;
                                 * NULL until the thread has a frame */
  guint32  depth;
  guint32  path_capacity;       /* grows with the deepest stack: a file can
                                 * have many threads of shallow stacks */
} Cursor;

struct _TvProfileData
{
  gatomicrefcount ref_count;
  guint           serial;          /* tv_profile_data_get_serial () */
  TachReader     *reader;
  GBytes         *bytes;           /* what a memory reader reads, or NULL */
  TvThread       *threads;
  SampleStore    *stores;          /* STORES_PER_THREAD a thread */
  guint           n_threads;
  TvExactTree     tree;
  guint64         n_samples;
  guint64         status_counts[6];
  guint           max_depth;
  guint64         n_at_depth_limit;  /* samples whose stack is 256 frames */
  /* The threads in the order every list of them shows (see
   * tv_profile_data_get_thread_order()), and the span of all of them. */
  guint32        *thread_order;
  guint64         first_timestamp;
  guint64         last_timestamp;

  guint32        *frame_keys[TV_N_MERGE_KEYS];
  guint32        *key_frames[TV_N_MERGE_KEYS];
  guint32        *key_ranks[TV_N_MERGE_KEYS];
  guint32         n_keys[TV_N_MERGE_KEYS];
  guint8         *internal;        /* per function key; NULL when none is */

  /* Building only: the children of each node, the hash table of the
   * children of nodes with many and the bitmap of those nodes, the
   * cursors. */
  guint32         tree_capacity;
  Link           *links;
  /* Bytes reserved for the links when they are a mapping of their own
   * (tv_huge_reserve ()), else 0 (the heap's). */
  gsize           links_mapped;
  guint64        *hashed;
  Slot           *slots;        /* open addressing on (parent, frame) */
  guint32         mask;
  guint32         n_hashed;
  Cursor         *cursors;
  guint           threads_capacity;
  guint64         reserve_samples;  /* per mapped thread, 0: no mapping */
  Prefaulter     *prefaulter;
  /* The links' bytes asked to be made resident, and how far the links
   * are filled when more are asked for (G_MAXSIZE: never). */
  gsize           links_frontier;
  gsize           links_next;
  /* A load of counts: no sample arrays; the runs count what FILTER
   * selects (RANGES is its copy of the filter's list). */
  gboolean        counts_only;
  TvSampleFilter  filter;
  TvTimeRange    *ranges;
  gsize           budget;           /* bytes the load may take (see charge) */
  gsize           charged;
  gboolean        over_budget;

  /* The same samples on a tree merged by function
   * (tv-profile-data-merged.c): SOURCE is the load whose threads' samples,
   * frames and keys it borrows, and which frees it; NULL in a load.  A
   * load's MERGED is that tree once made, or NULL. */
  TvProfileData  *source;
  TvProfileData  *merged;

  /* What its inverted trees merged by function climb, made ahead of
   * them and kept as long as it lives (tv_call_tree_prepare_inverted()):
   * the leaves of its runs and, where its paths climb runs, the block of
   * its runs (tv_profile_data_get_prepared()); NULL until made. */
  gpointer        prepared[TV_N_PREPARED];
};

/* tv-sample-store.c */
gsize       tv_profile_data_memory_budget       (void);
gboolean    tv_profile_data_charge              (TvProfileData  *self,
                                                 gsize           bytes);
void        tv_profile_data_set_no_memory_error (TvProfileData  *self,
                                                 GError        **error);
Prefaulter *tv_prefaulter_new                   (void);
void        tv_prefaulter_free                  (Prefaulter     *pf);
void        tv_prefaulter_drain                 (Prefaulter     *pf);
gboolean    tv_profile_data_can_prefault        (TvProfileData  *self);
void        tv_profile_data_prefault_range      (TvProfileData  *self,
                                                 gconstpointer   base,
                                                 gsize           from,
                                                 gsize           to);
guint64     tv_sample_store_reserve             (TachReader     *reader);
gboolean    tv_sample_store_init                (TvProfileData  *self,
                                                 SampleStore    *store,
                                                 gsize           reserve,
                                                 gsize           initial);
gboolean    tv_sample_store_grow                (TvProfileData  *self,
                                                 SampleStore    *store,
                                                 gsize           bytes);
void        tv_sample_store_shrink              (SampleStore    *store,
                                                 gsize           bytes);
void        tv_sample_store_clear               (SampleStore    *store);

/* tv-profile-data.c */
guint       tv_profile_data_new_serial          (void);
/* The root alone, with room for CAPACITY nodes; FALSE when memory runs
 * out. */
gboolean    tv_profile_data_start_tree          (TvProfileData  *self,
                                                 guint32         capacity);
/* PARENT's child of FRAME, made if new; TV_NODE_NONE when memory runs
 * out. */
guint32     tv_profile_data_child_node          (TvProfileData  *self,
                                                 guint32         parent,
                                                 guint32         frame);
void        tv_profile_data_free_links          (TvProfileData  *self,
                                                 gboolean        keep);
/* Frees the tree's arrays, and what the build kept of it. */
void        tv_profile_data_free_tree           (TvProfileData  *self);
gboolean    tv_profile_data_finish_times_block  (TvProfileData  *self,
                                                 TvThread       *t,
                                                 guint64         block,
                                                 guint           count);

/* tv-profile-data-finish.c: called now and then with the share of the
 * work done, from 0 to 1; returns FALSE to stop it. */
typedef gboolean (*TvFinishFunc) (double   done,
                                  gpointer user_data);
/* FALSE when FUNC stopped it: SELF can then only be freed. */
gboolean    tv_profile_data_finish_load         (TvProfileData  *self,
                                                 TvFinishFunc    func,
                                                 gpointer        user_data);
/* The built tree numbered, its runs' leaves with it (the part of the
 * finishing a merged tree needs); FALSE when FUNC stopped it or memory
 * ran out. */
gboolean    tv_profile_data_number_tree         (TvProfileData  *self,
                                                 TvFinishFunc    func,
                                                 gpointer        user_data);

/* tv-profile-data-merged.c: frees what a merged tree owns. */
void        tv_profile_data_free_merged         (TvProfileData  *self);

static inline gboolean
tv_sample_store_ensure (TvProfileData *self,
                        SampleStore   *store,
                        gsize          bytes)
{
  return G_LIKELY (bytes <= store->populated) || tv_sample_store_grow (self, store, bytes);
}

G_END_DECLS
