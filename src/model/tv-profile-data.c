/* tv-profile-data.c: one streaming pass over the samples
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The decoder hands over samples a batch at a time, with each record's
 * shape.  Every thread keeps a cursor into the exact call tree (the node
 * of each stack level), which moves by the record's shape: the kept levels
 * stay, the pushed frames are looked up below them.  A REPEAT run costs
 * nothing in the tree and a copy of its timestamps and statuses.
 */
#include "tv-profile-data.h"
#include "tachyon-format.h"

#include <errno.h>
#include <sys/mman.h>
#include <unistd.h>

#include "tv-call-tree.h"
#include "tv-tach-error.h"

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

/* Building only, per node: its children, newest first, and its frame
 * again, so that a walk reads one cache line per sibling. */
typedef struct
{
  guint32 frame;
  guint32 first_child;          /* TV_NODE_NONE when none */
  guint32 next_sibling;
  guint32 n_children;           /* stops counting past LIST_MAX_CHILDREN */
} Link;

/* Where a thread's timestamps or statuses are written.  Samples are only
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
  gboolean stop;
} Prefaulter;

typedef struct
{
  guint64  runs_capacity;
  guint64  last_timestamp;      /* of the thread's last sample so far */
  guint32 *path;                /* node at each depth, path[0] the root;
                                 * NULL until the thread has a frame */
  guint32  depth;
  guint32  path_capacity;       /* grows with the deepest stack: a file can
                                 * have many threads of shallow stacks */
} Cursor;

struct _TvProfileData
{
  gatomicrefcount ref_count;
  TachReader     *reader;
  GBytes         *bytes;           /* what a memory reader reads, or NULL */
  TvThread       *threads;
  SampleStore    *stores;          /* per thread: timestamps, statuses */
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
   * children of nodes with many, the cursors. */
  guint32         tree_capacity;
  Link           *links;
  Slot           *slots;        /* open addressing on (parent, frame) */
  guint32         mask;
  guint32         n_hashed;
  Cursor         *cursors;
  guint           threads_capacity;
  guint64         reserve_samples;  /* per mapped thread, 0: no mapping */
  Prefaulter     *prefaulter;
  /* A load of counts: no sample arrays; the runs count what FILTER
   * selects (RANGES is its copy of the filter's list). */
  gboolean        counts_only;
  TvSampleFilter  filter;
  TvTimeRange    *ranges;
  gsize           budget;           /* bytes the load may take (see charge) */
  gsize           charged;
  gboolean        over_budget;
};

/* ------------------------------------------------------------------------ */
/* Memory                                                                    */
/* ------------------------------------------------------------------------ */

static guint memory_limit_kib;

void
tv_profile_data_set_memory_limit (guint kib)
{
  g_atomic_int_set (&memory_limit_kib, kib);
}

/* Three quarters of the memory the kernel says is available without
 * swapping (MemAvailable), or no limit where it does not say. */
static gsize
memory_budget (void)
{
  g_autofree char *meminfo = NULL;
  guint kib = (guint) g_atomic_int_get (&memory_limit_kib);
  const char *line;
  guint64 available;

  /* For tests of a whole program (an export, the viewer): a limit from
   * the environment. */
  if (kib == 0 && g_getenv ("TV_MEMORY_LIMIT_KIB") != NULL)
    kib = (guint) MIN (g_ascii_strtoull (g_getenv ("TV_MEMORY_LIMIT_KIB"), NULL, 10),
                       G_MAXUINT);
  if (kib > 0)
    return (gsize) kib * 1024;
  if (!g_file_get_contents ("/proc/meminfo", &meminfo, NULL, NULL)
      || (line = strstr (meminfo, "MemAvailable:")) == NULL)
    return G_MAXSIZE;
  available = g_ascii_strtoull (line + strlen ("MemAvailable:"), NULL, 10);
  if (available == 0 || available > G_MAXSIZE / 1024)
    return G_MAXSIZE;
  return (gsize) (available / 4 * 3 * 1024);
}

/* Whether the load may take BYTES more, and takes them if so.  The kernel
 * promises memory it does not have (overcommit), and when a profile holds
 * more than fits, it would kill the whole app to get the pages back: a
 * load stops at its budget instead, with an error. */
static gboolean
charge (TvProfileData *self,
        gsize          bytes)
{
  if (bytes > self->budget - self->charged)
    {
      self->over_budget = TRUE;
      return FALSE;
    }
  self->charged += bytes;
  return TRUE;
}

static void
set_no_memory_error (TvProfileData  *self,
                     GError        **error)
{
  g_autofree char *budget = g_format_size (self->budget);

  if (self->over_budget)
    g_set_error (error, TV_TACH_ERROR, TV_TACH_ERROR_NO_MEMORY,
                 "Not enough memory to load this profile: it needs more than the %s this "
                 "system has available (stopped after %" G_GUINT64_FORMAT " samples and %u "
                 "call-tree nodes)", budget, self->n_samples, self->tree.n_nodes);
  else
    g_set_error (error, TV_TACH_ERROR, TV_TACH_ERROR_NO_MEMORY,
                 "Not enough memory to load this profile (stopped after %" G_GUINT64_FORMAT
                 " samples and %u call-tree nodes)", self->n_samples, self->tree.n_nodes);
}

/* ------------------------------------------------------------------------ */
/* Sample arrays                                                             */
/* ------------------------------------------------------------------------ */

static gint populate_unsupported;

static gsize
page_round (gsize bytes)
{
  gsize page = (gsize) sysconf (_SC_PAGESIZE);

  return (bytes + page - 1) / page * page;
}

static void
populate (guint8 *mem,
          gsize   size)
{
  /* Before Linux 5.14 the pages come one fault at a time. */
  if (madvise (mem, size, MADV_POPULATE_WRITE) != 0 && errno == EINVAL)
    g_atomic_int_set (&populate_unsupported, 1);
}

static gpointer
prefaulter_main (gpointer data)
{
  Prefaulter *pf = data;

  g_mutex_lock (&pf->lock);
  for (;;)
    {
      guint8 *mem;
      gsize size;

      while (pf->head == pf->tail && !pf->stop)
        {
          pf->waiting = TRUE;
          g_cond_wait (&pf->cond, &pf->lock);
          pf->waiting = FALSE;
        }
      if (pf->stop)
        break;
      mem = pf->mem[pf->head % PREFAULT_QUEUE];
      size = pf->size[pf->head % PREFAULT_QUEUE];
      pf->head++;
      g_mutex_unlock (&pf->lock);
      populate (mem, size);
      g_mutex_lock (&pf->lock);
    }
  g_mutex_unlock (&pf->lock);
  return NULL;
}

static Prefaulter *
prefaulter_new (void)
{
  Prefaulter *pf = g_new0 (Prefaulter, 1);

  g_mutex_init (&pf->lock);
  g_cond_init (&pf->cond);
  pf->thread = g_thread_try_new ("tv-prefault", prefaulter_main, pf, NULL);
  if (pf->thread == NULL)
    {
      g_mutex_clear (&pf->lock);
      g_cond_clear (&pf->cond);
      g_clear_pointer (&pf, g_free);
    }
  return pf;
}

/* Drops what is still queued: the pages come by faults then. */
static void
prefaulter_free (Prefaulter *pf)
{
  g_mutex_lock (&pf->lock);
  pf->stop = TRUE;
  g_cond_signal (&pf->cond);
  g_mutex_unlock (&pf->lock);
  g_thread_join (pf->thread);
  g_mutex_clear (&pf->lock);
  g_cond_clear (&pf->cond);
  g_free (pf);
}

/* Makes SIZE bytes at MEM resident, soon.  When the second thread is
 * that far behind, the pages come by faults. */
static void
prefault (TvProfileData *self,
          guint8        *mem,
          gsize          size)
{
  Prefaulter *pf = self->prefaulter;

  if (g_atomic_int_get (&populate_unsupported))
    return;
  if (pf == NULL)
    {
      populate (mem, size);
      return;
    }
  g_mutex_lock (&pf->lock);
  if (pf->tail - pf->head < PREFAULT_QUEUE)
    {
      pf->mem[pf->tail % PREFAULT_QUEUE] = mem;
      pf->size[pf->tail % PREFAULT_QUEUE] = size;
      pf->tail++;
      if (pf->waiting)
        g_cond_signal (&pf->cond);
    }
  g_mutex_unlock (&pf->lock);
}

/* Reserves RESERVE bytes of address space if RESERVE is not 0 and the
 * kernel agrees, else allocates INITIAL bytes. */
static gboolean
store_init (TvProfileData *self,
            SampleStore   *store,
            gsize          reserve,
            gsize          initial)
{
  memset (store, 0, sizeof *store);
  if (reserve > 0)
    {
      void *mem = mmap (NULL, page_round (reserve), PROT_READ | PROT_WRITE,
                        MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);

      if (mem != MAP_FAILED)
        {
          store->mem = mem;
          store->mapped = store->size = page_round (reserve);
          return TRUE;
        }
    }
  if (!charge (self, initial))
    return FALSE;
  store->mem = g_try_malloc (initial);
  store->size = store->populated = initial;
  return store->mem != NULL;
}

/* Makes bytes [0, BYTES) writable, and for a mapping, the next
 * POPULATE_BYTES resident; FALSE when memory runs out. */
static gboolean
store_grow (TvProfileData *self,
            SampleStore   *store,
            gsize          bytes)
{
  gsize size = store->size;

  if (store->mapped > 0)
    {
      gsize ahead = MIN (POPULATE_BYTES, page_round (bytes));

      if (bytes > store->mapped)
        return FALSE;
      while (store->populated < store->mapped && store->populated < bytes + ahead)
        {
          gsize end = MIN (store->mapped, store->populated + ahead);

          if (!charge (self, end - store->populated))
            return FALSE;
          prefault (self, store->mem + store->populated, end - store->populated);
          store->populated = end;
        }
      return TRUE;
    }

  while (size < bytes)
    {
      if (size > G_MAXSIZE / 2)
        return FALSE;
      size *= 2;
    }
  if (size != store->size)
    {
      guint8 *mem;

      if (!charge (self, size - store->size)
          || (mem = g_try_realloc (store->mem, size)) == NULL)
        return FALSE;
      store->mem = mem;
      store->size = store->populated = size;
    }
  return TRUE;
}

static inline gboolean
store_ensure (TvProfileData *self,
              SampleStore   *store,
              gsize          bytes)
{
  return G_LIKELY (bytes <= store->populated) || store_grow (self, store, bytes);
}

/* Gives back what is past the first BYTES bytes (at least one is kept). */
static void
store_shrink (SampleStore *store,
              gsize        bytes)
{
  bytes = MAX (bytes, 1);
  if (store->mapped > 0)
    {
      gsize keep = page_round (bytes);

      if (keep < store->mapped)
        munmap (store->mem + keep, store->mapped - keep);
      store->mapped = MIN (keep, store->mapped);
      store->size = store->populated = MIN (store->size, store->mapped);
    }
  else if (store->mem != NULL)
    {
      store->mem = g_realloc (store->mem, bytes);
      store->size = store->populated = bytes;
    }
}

static void
store_clear (SampleStore *store)
{
  if (store->mapped > 0)
    munmap (store->mem, store->mapped);
  else
    g_free (store->mem);
  memset (store, 0, sizeof *store);
}

/* Whether every thread's samples can have a reservation for all of the
 * file's samples: the address space it takes stays bounded. */
static guint64
reserve_samples (TachReader *reader)
{
  const TachHeader *header = tach_reader_get_header (reader);
  guint64 threads = MIN (MAX (header->thread_count, 1), MAX_MAPPED_THREADS);
  guint64 budget = MIN (MAX_RESERVED_BYTES, G_MAXSIZE / 4);
  guint64 per_thread = budget / threads / (sizeof (guint64) + 1);

  return header->sample_count <= per_thread ? header->sample_count : 0;
}

/* ------------------------------------------------------------------------ */
/* The exact call tree                                                       */
/* ------------------------------------------------------------------------ */

static inline guint32
hash_node (guint32 parent,
           guint32 frame)
{
  guint64 key = ((guint64) parent << 32 | frame) * G_GUINT64_CONSTANT (0x9e3779b97f4a7c15);

  return (guint32) (key >> 32);
}

static void
insert_hashed (Slot    *slots,
               guint32  mask,
               Slot     entry)
{
  guint32 slot = hash_node (entry.parent, entry.frame) & mask;

  while (slots[slot].node != 0)
    slot = (slot + 1) & mask;
  slots[slot] = entry;
}

static gboolean
grow_hash (TvProfileData *self)
{
  guint32 mask = self->mask * 2 + 1;
  Slot *slots = NULL;

  if (mask > self->mask && charge (self, ((gsize) mask - self->mask) * sizeof (Slot)))
    slots = g_try_new0 (Slot, (gsize) mask + 1);
  if (slots == NULL)
    return FALSE;
  for (guint32 i = 0; i <= self->mask; i++)
    if (self->slots[i].node != 0)
      insert_hashed (slots, mask, self->slots[i]);
  g_free (self->slots);
  self->slots = slots;
  self->mask = mask;
  return TRUE;
}

static gboolean
add_hashed (TvProfileData *self,
            guint32        parent,
            guint32        frame,
            guint32        node)
{
  insert_hashed (self->slots, self->mask, (Slot) { parent, frame, node });
  self->n_hashed++;
  return (guint64) self->n_hashed * 2 <= self->mask || grow_hash (self);
}

static guint32
lookup_hashed (TvProfileData *self,
               guint32        parent,
               guint32        frame)
{
  guint32 slot = hash_node (parent, frame) & self->mask;

  for (;;)
    {
      const Slot *at = &self->slots[slot];

      if (at->node == 0)
        return TV_NODE_NONE;
      if (at->parent == parent && at->frame == frame)
        return at->node;
      slot = (slot + 1) & self->mask;
    }
}

/* Makes room for CAPACITY nodes (more than there is room for now). */
static gboolean
grow_tree (TvProfileData *self,
           guint32        capacity)
{
  TvExactTree *tree = &self->tree;
  gpointer p;

  if (capacity <= self->tree_capacity
      || !charge (self, ((gsize) capacity - self->tree_capacity)
                        * (2 * sizeof (guint32) + sizeof (guint16) + sizeof (guint64)
                           + sizeof (Link))))
    return FALSE;
  if ((p = g_try_renew (guint32, tree->parent, capacity)) == NULL)
    return FALSE;
  tree->parent = p;
  if ((p = g_try_renew (guint32, tree->frame, capacity)) == NULL)
    return FALSE;
  tree->frame = p;
  if ((p = g_try_renew (guint16, tree->depth, capacity)) == NULL)
    return FALSE;
  tree->depth = p;
  if ((p = g_try_renew (guint64, tree->self, capacity)) == NULL)
    return FALSE;
  tree->self = p;
  if ((p = g_try_renew (Link, self->links, capacity)) == NULL)
    return FALSE;
  self->links = p;
  self->tree_capacity = capacity;
  return TRUE;
}

/* The child of PARENT for FRAME, made if it is new.  Hostile files can ask
 * for more nodes than memory holds: that must be an error (TV_NODE_NONE),
 * not an abort. */
static guint32
child_node (TvProfileData *self,
            guint32        parent,
            guint32        frame)
{
  TvExactTree *tree = &self->tree;
  guint32 n_children = self->links[parent].n_children;
  guint32 node;
  Link *link;

  if (n_children <= LIST_MAX_CHILDREN)
    {
      for (guint32 c = self->links[parent].first_child; c != TV_NODE_NONE;
           c = self->links[c].next_sibling)
        if (self->links[c].frame == frame)
          return c;
    }
  else if ((node = lookup_hashed (self, parent, frame)) != TV_NODE_NONE)
    return node;

  if (tree->n_nodes == self->tree_capacity && !grow_tree (self, self->tree_capacity * 2))
    return TV_NODE_NONE;
  node = tree->n_nodes++;
  tree->parent[node] = parent;
  tree->frame[node] = frame;
  tree->depth[node] = tree->depth[parent] + 1;
  tree->self[node] = 0;
  link = &self->links[node];
  link->frame = frame;
  link->first_child = TV_NODE_NONE;
  link->n_children = 0;
  link->next_sibling = self->links[parent].first_child;
  self->links[parent].first_child = node;

  if (n_children < LIST_MAX_CHILDREN)
    self->links[parent].n_children++;
  else if (n_children == LIST_MAX_CHILDREN)
    {
      /* One child too many for a list: from now on, all of them are
       * found through the table. */
      self->links[parent].n_children++;
      for (guint32 c = node; c != TV_NODE_NONE; c = self->links[c].next_sibling)
        if (!add_hashed (self, parent, self->links[c].frame, c))
          return TV_NODE_NONE;
    }
  else if (!add_hashed (self, parent, frame, node))
    return TV_NODE_NONE;
  return node;
}

/* ------------------------------------------------------------------------ */
/* The pass                                                                  */
/* ------------------------------------------------------------------------ */

/* Whether the runs count the states of what they count. */
static inline gboolean
counting_states (TvProfileData *self)
{
  return self->counts_only && self->filter.count_states;
}

/* What a run takes: its start, its leaf and, counting states, those. */
static gsize
run_bytes (TvProfileData *self)
{
  return sizeof (guint64) + sizeof (guint32)
         + (counting_states (self) ? TV_N_RUN_STATES * sizeof (guint64) : 0);
}

/* Returns NULL when memory runs out. */
static TvThread *
ensure_thread (TvProfileData    *self,
               const TachSample *sample)
{
  guint index = sample->thread_index;

  if (index >= self->threads_capacity)
    {
      guint capacity = MAX (16, self->threads_capacity);
      gpointer p;

      while (capacity <= index)
        capacity *= 2;
      if (!charge (self, ((gsize) capacity - self->threads_capacity)
                         * (sizeof (TvThread) + sizeof (Cursor) + 2 * sizeof (SampleStore))))
        return NULL;
      if ((p = g_try_renew (TvThread, self->threads, capacity)) == NULL)
        return NULL;
      self->threads = p;
      if ((p = g_try_renew (Cursor, self->cursors, capacity)) == NULL)
        return NULL;
      self->cursors = p;
      if ((p = g_try_renew (SampleStore, self->stores, (gsize) capacity * 2)) == NULL)
        return NULL;
      self->stores = p;
      self->threads_capacity = capacity;
    }

  while (index >= self->n_threads)
    {
      guint i = self->n_threads++;

      memset (&self->threads[i], 0, sizeof (TvThread));
      memset (&self->cursors[i], 0, sizeof (Cursor));
      memset (&self->stores[2 * i], 0, 2 * sizeof (SampleStore));
      self->threads[i].index = i;
      self->threads[i].time_ordered = TRUE;
      self->threads[i].first_timestamp = G_MAXUINT64;
    }

  if (self->threads[index].run_start == NULL)
    {
      TvThread *t = &self->threads[index];
      Cursor *c = &self->cursors[index];
      guint64 reserve = index < MAX_MAPPED_THREADS ? self->reserve_samples : 0;

      t->thread_id = sample->thread_id;
      t->interpreter_id = sample->interpreter_id;
      /* Small to start with: a file can declare any number of threads of
       * one sample each. */
      c->runs_capacity = 4;
      if (!self->counts_only
          && (!store_init (self, &self->stores[2 * index], reserve * sizeof (guint64),
                           INITIAL_SAMPLES * sizeof (guint64))
              || !store_init (self, &self->stores[2 * index + 1], reserve, INITIAL_SAMPLES)))
        return NULL;
      if (!charge (self, c->runs_capacity * run_bytes (self)))
        return NULL;
      t->timestamps = (guint64 *) self->stores[2 * index].mem;
      t->statuses = self->stores[2 * index + 1].mem;
      t->run_start = g_try_new (guint64, c->runs_capacity);
      t->run_leaf = g_try_new (guint32, c->runs_capacity);
      if (!t->run_start || !t->run_leaf)
        return NULL;
      if (counting_states (self)
          && (t->run_states = g_try_new (guint64, c->runs_capacity * TV_N_RUN_STATES)) == NULL)
        return NULL;
    }
  return &self->threads[index];
}

/* Moves the thread's cursor by the record's shape and returns the leaf,
 * or TV_NODE_NONE when memory runs out. */
static guint32
move_cursor (TvProfileData    *self,
             Cursor           *c,
             const TachSample *s)
{
  guint32 d = s->keep;

  g_assert (d <= c->depth);
  if (c->path == NULL && s->push == 0)
    return TV_ROOT_NODE;
  if ((guint64) d + s->push + 1 > c->path_capacity)
    {
      guint32 capacity = MAX (c->path_capacity, 8);
      guint32 *path;

      while (capacity < (guint64) d + s->push + 1)
        capacity *= 2;
      capacity = MIN (capacity, TACH_MAX_STACK_DEPTH + 1);
      g_assert ((guint64) d + s->push + 1 <= capacity);
      if (!charge (self, (capacity - c->path_capacity) * sizeof (guint32))
          || (path = g_try_renew (guint32, c->path, capacity)) == NULL)
        return TV_NODE_NONE;
      if (c->path == NULL)
        path[0] = TV_ROOT_NODE;
      c->path = path;
      c->path_capacity = capacity;
    }
  for (guint i = s->push; i > 0; i--)
    {
      guint32 node = child_node (self, c->path[d], s->stack[i - 1]);

      if (node == TV_NODE_NONE)
        return TV_NODE_NONE;
      c->path[d + 1] = node;
      d++;
    }
  c->depth = d;
  return c->path[d];
}

/* Returns FALSE when memory runs out: a profile may hold more samples
 * than this machine can keep, and that must be an error, not an abort. */
/* How many samples of the batch a load of counts keeps, and in STATES
 * (unless NULL), how many of them have each state. */
static guint64
count_kept (const TvSampleFilter *filter,
            const TachBatch      *b,
            guint64              *states)
{
  gboolean by_time = filter->has_range || filter->ranges != NULL;
  guint64 kept = 0;

  if (filter->status_mask == 0 && !by_time && states == NULL)
    return b->n;
  for (guint32 i = 0; i < b->n; i++)
    {
      guint64 ts = b->timestamps[i];
      guint8 st = b->statuses[i];

      if ((st & filter->status_mask) != filter->status_value)
        continue;
      if (filter->has_range && (ts < filter->range_start || ts >= filter->range_end))
        continue;
      if (filter->ranges != NULL
          && !tv_time_ranges_contain (filter->ranges, filter->n_ranges, ts))
        continue;
      kept++;
      if (states != NULL)
        {
          states[0] += (st & TACH_STATUS_HAS_GIL) != 0;
          states[1] += (st & TACH_STATUS_ON_CPU) != 0;
          states[2] += (st & TACH_STATUS_GIL_REQUESTED) != 0;
          states[3] += (st & TACH_STATUS_HAS_EXCEPTION) != 0;
        }
    }
  return kept;
}

static gboolean
append_batch (TvProfileData   *self,
              TvThread        *t,
              Cursor          *c,
              guint32          leaf,
              const TachBatch *b)
{
  guint64 n = b->n;
  guint64 kept = n;
  guint64 states[TV_N_RUN_STATES] = { 0 };
  SampleStore *stores = &self->stores[2 * t->index];

  if (self->counts_only)
    {
      kept = count_kept (&self->filter, b, counting_states (self) ? states : NULL);
    }
  else
    {
      if (!store_ensure (self, &stores[0], (t->n_samples + n) * sizeof (guint64))
          || !store_ensure (self, &stores[1], t->n_samples + n))
        return FALSE;
      t->timestamps = (guint64 *) stores[0].mem;
      t->statuses = stores[1].mem;
    }

  if (kept > 0 && (t->n_runs == 0 || t->run_leaf[t->n_runs - 1] != leaf))
    {
      if (t->n_runs == c->runs_capacity)
        {
          guint64 capacity = c->runs_capacity * 2;
          gpointer p;

          if (!charge (self, c->runs_capacity * run_bytes (self)))
            return FALSE;
          if ((p = g_try_renew (guint64, t->run_start, capacity)) == NULL)
            return FALSE;
          t->run_start = p;
          if ((p = g_try_renew (guint32, t->run_leaf, capacity)) == NULL)
            return FALSE;
          t->run_leaf = p;
          if (t->run_states != NULL)
            {
              if ((p = g_try_renew (guint64, t->run_states, capacity * TV_N_RUN_STATES)) == NULL)
                return FALSE;
              t->run_states = p;
            }
          c->runs_capacity = capacity;
        }
      t->run_start[t->n_runs] = t->n_run_samples;
      t->run_leaf[t->n_runs] = leaf;
      if (t->run_states != NULL)
        memset (t->run_states + t->n_runs * TV_N_RUN_STATES, 0,
                TV_N_RUN_STATES * sizeof (guint64));
      t->n_runs++;
    }
  if (kept > 0 && t->run_states != NULL)
    for (guint k = 0; k < TV_N_RUN_STATES; k++)
      t->run_states[(t->n_runs - 1) * TV_N_RUN_STATES + k] += states[k];

  if (!self->counts_only)
    {
      memcpy (t->timestamps + t->n_samples, b->timestamps, n * sizeof (guint64));
      memcpy (t->statuses + t->n_samples, b->statuses, n);
    }

  /* Time order, earliest and latest: runs are nearly always in order, and
   * then the ends of the batch are its extremes. */
  {
    const guint64 *ts = b->timestamps;
    gboolean ordered = t->n_samples == 0 || ts[0] >= c->last_timestamp;
    guint64 lo = ts[0], hi = ts[n - 1];

    for (guint64 i = 1; ordered && i < n; i++)
      ordered = ts[i] >= ts[i - 1];
    if (!ordered)
      for (guint64 i = 0; i < n; i++)
        {
          lo = MIN (lo, ts[i]);
          hi = MAX (hi, ts[i]);
        }
    t->time_ordered &= ordered;
    t->first_timestamp = MIN (t->first_timestamp, MIN (lo, hi));
    t->last_timestamp = MAX (t->last_timestamp, MAX (lo, hi));
    c->last_timestamp = ts[n - 1];
  }

  /* Status bits: multiplying the low six bits by this constant moves bit k
   * into byte k, so one add counts six bits at once; bytes are flushed
   * before they can overflow. */
  for (guint64 i = 0; i < n;)
    {
      guint64 end = MIN (n, i + 255);
      guint64 acc = 0;

      for (; i < end; i++)
        acc += ((guint64) (b->statuses[i] & 0x3f) * G_GUINT64_CONSTANT (0x0002040810204081))
               & G_GUINT64_CONSTANT (0x0101010101010101);
      for (guint k = 0; k < 6; k++)
        t->status_counts[k] += (acc >> (8 * k)) & 0xff;
    }

  t->n_samples += n;
  t->n_run_samples += kept;
  self->tree.self[leaf] += n;
  self->n_samples += n;
  return TRUE;
}

typedef struct
{
  TvProfileData *self;
  TvMergeKey     merge;
} SortContext;

static int
compare_frames (const TachFrame *a,
                const TachFrame *b,
                TachReader      *reader,
                TvMergeKey       merge)
{
  int r;

  if ((r = strcmp (tach_reader_get_string (reader, a->funcname, NULL),
                   tach_reader_get_string (reader, b->funcname, NULL))) != 0)
    return r;
  if ((r = strcmp (tach_reader_get_string (reader, a->filename, NULL),
                   tach_reader_get_string (reader, b->filename, NULL))) != 0)
    return r;
  if (merge == TV_MERGE_FUNCTION)
    return 0;
  if (a->lineno != b->lineno)
    return a->lineno < b->lineno ? -1 : 1;
  if (merge == TV_MERGE_LINE)
    return 0;
  if (a->column != b->column)
    return a->column < b->column ? -1 : 1;
  if (a->opcode != b->opcode)
    return a->opcode < b->opcode ? -1 : 1;
  if (merge == TV_MERGE_INSTRUCTION)
    return 0;
  if (a->end_lineno != b->end_lineno)
    return a->end_lineno < b->end_lineno ? -1 : 1;
  if (a->end_column != b->end_column)
    return a->end_column < b->end_column ? -1 : 1;
  return 0;
}

static int
compare_rank_items (const void *pa,
                    const void *pb,
                    void       *user_data)
{
  const SortContext *context = user_data;
  TachReader *reader = context->self->reader;
  guint32 fa = *(const guint32 *) pa, fb = *(const guint32 *) pb;
  const TachFrame *a = tach_reader_get_frame (reader, fa);
  const TachFrame *b = tach_reader_get_frame (reader, fb);
  int r = compare_frames (a, b, reader, context->merge);

  if (r != 0)
    return r;
  return fa < fb ? -1 : fa > fb;
}

/* Frames whose strings are out of range are never used by a sample (the
 * decoder refuses those), so they get a key of their own and no name. */
static gboolean
frame_usable (TvProfileData *self,
              guint32        frame)
{
  const TachFrame *f = tach_reader_get_frame (self->reader, frame);
  guint32 n = tach_reader_get_n_strings (self->reader);

  return f->filename < n && f->funcname < n;
}

/* Sorting the frames by the merge key's fields gives both the keys (runs
 * of equal frames) and their ranks, in O(F log F). */
static void
build_keys (TvProfileData *self)
{
  guint32 n_frames = tach_reader_get_n_frames (self->reader);
  g_autofree guint32 *order = g_new (guint32, MAX (n_frames, 1));
  guint32 n_usable = 0, n_unusable = 0;

  for (guint32 i = 0; i < n_frames; i++)
    if (frame_usable (self, i))
      order[n_usable++] = i;
  n_unusable = n_frames - n_usable;

  for (TvMergeKey merge = 0; merge < TV_N_MERGE_KEYS; merge++)
    {
      guint32 *keys = g_new (guint32, MAX (n_frames, 1));
      guint32 *key_frames = g_new (guint32, MAX (n_frames, 1));
      guint32 n_keys = 0;
      SortContext context = { self, merge };

      g_qsort_with_data (order, n_usable, sizeof (guint32), compare_rank_items, &context);
      for (guint32 i = 0; i < n_usable; i++)
        {
          if (i == 0 || compare_frames (tach_reader_get_frame (self->reader, order[i - 1]),
                                        tach_reader_get_frame (self->reader, order[i]),
                                        self->reader, merge) != 0)
            key_frames[n_keys++] = order[i];
          keys[order[i]] = n_keys - 1;
        }
      for (guint32 i = 0, j = 0; i < n_frames && j < n_unusable; i++)
        if (!frame_usable (self, i))
          {
            key_frames[n_keys] = i;
            keys[i] = n_keys++;
            j++;
          }

      self->frame_keys[merge] = keys;
      self->key_frames[merge] = g_renew (guint32, key_frames, MAX (n_keys, 1));
      self->n_keys[merge] = n_keys;
      /* Keys are numbered in sorted order, so the rank is the key. */
      self->key_ranks[merge] = g_new (guint32, MAX (n_keys, 1));
      for (guint32 k = 0; k < n_keys; k++)
        self->key_ranks[merge][k] = k;
    }
}

/* The profiler's own launcher, which every `profiling.sampling run`
 * puts at the root of the stacks; CPython's outputs leave it out. */
#define INTERNAL_SUFFIX "_sync_coordinator.py"

gboolean
tv_profile_file_is_internal (const char *filename,
                             gsize       len)
{
  gsize suffix = strlen (INTERNAL_SUFFIX);

  return filename != NULL && len >= suffix
         && memcmp (filename + len - suffix, INTERNAL_SUFFIX, suffix) == 0;
}

static void
find_internal (TvProfileData *self)
{
  guint32 n = self->n_keys[TV_MERGE_FUNCTION];

  for (guint32 k = 0; k < n; k++)
    {
      const TachFrame *f = tach_reader_get_frame (self->reader,
                                                  self->key_frames[TV_MERGE_FUNCTION][k]);
      gsize len = 0;
      const char *file = f ? tach_reader_get_string (self->reader, f->filename, &len) : NULL;

      if (tv_profile_file_is_internal (file, len))
        {
          if (self->internal == NULL)
            self->internal = g_new0 (guint8, n);
          self->internal[k] = 1;
        }
    }
}

/* Gives a permuted copy of N values of SIZE bytes: value I of the copy is
 * value ORDER[I] of FROM, which is freed. */
static gpointer
permute (gpointer       from,
         gsize          size,
         const guint32 *order,
         guint32        n)
{
  guint8 *to = g_malloc ((gsize) MAX (n, 1) * size);
  const guint8 *src = from;

  for (guint32 i = 0; i < n; i++)
    memcpy (to + (gsize) i * size, src + (gsize) order[i] * size, size);
  g_free (from);
  return to;
}

/* Numbers the exact tree's nodes depth first, a node's children together:
 * a node's children get consecutive numbers when it is reached, and the
 * first child's subtree is numbered before its siblings' children.  So
 * siblings are consecutive (a call tree groups the children of the nodes
 * it merges by reading ranges instead of hashing every node, see
 * tv-call-tree.c), and a chain of calls is consecutive too (a walk up a
 * stack reads neighbours).  The runs' leaves are renumbered with them. */
static void
number_depth_first (TvProfileData *self)
{
  TvExactTree *tree = &self->tree;
  guint32 n = tree->n_nodes;
  g_autofree guint32 *order = g_new (guint32, MAX (n, 1));
  g_autofree guint32 *new_id = g_new (guint32, MAX (n, 1));
  g_autofree guint32 *stack = g_new (guint32, MAX (n, 1));
  guint32 *first_child = g_new (guint32, MAX (n, 1));
  guint32 *parent;
  guint32 k = 1, sp = 0;

  order[0] = 0;
  stack[sp++] = 0;
  while (sp > 0)
    {
      guint32 i = stack[--sp];
      guint32 first = k;

      first_child[i] = k;
      for (guint32 c = self->links[order[i]].first_child; c != TV_NODE_NONE;
           c = self->links[c].next_sibling)
        order[k++] = c;
      /* The first child on top: its subtree comes next. */
      for (guint32 c = k; c > first; c--)
        stack[sp++] = c - 1;
    }
  g_assert (k == n);
  for (guint32 i = 0; i < n; i++)
    new_id[order[i]] = i;

  parent = g_new (guint32, MAX (n, 1));
  parent[0] = TV_NODE_NONE;
  for (guint32 i = 1; i < n; i++)
    parent[i] = new_id[tree->parent[order[i]]];
  g_free (tree->parent);
  tree->parent = parent;
  tree->first_child = first_child;
  tree->frame = permute (tree->frame, sizeof (guint32), order, n);
  tree->depth = permute (tree->depth, sizeof (guint16), order, n);
  tree->self = permute (tree->self, sizeof (guint64), order, n);

  for (guint i = 0; i < self->n_threads; i++)
    {
      TvThread *t = &self->threads[i];

      for (guint64 r = 0; r < t->n_runs; r++)
        t->run_leaf[r] = new_id[t->run_leaf[r]];
    }
}

static void
shrink (TvProfileData *self)
{
  TvExactTree *tree = &self->tree;

  for (guint i = 0; i < self->n_threads; i++)
    {
      TvThread *t = &self->threads[i];

      if (t->run_start == NULL)
        continue;
      if (!self->counts_only)
        {
          store_shrink (&self->stores[2 * i], t->n_samples * sizeof (guint64));
          store_shrink (&self->stores[2 * i + 1], t->n_samples);
          t->timestamps = (guint64 *) self->stores[2 * i].mem;
          t->statuses = self->stores[2 * i + 1].mem;
        }
      t->run_start = g_renew (guint64, t->run_start, MAX (t->n_runs, 1));
      t->run_leaf = g_renew (guint32, t->run_leaf, MAX (t->n_runs, 1));
      if (t->run_states != NULL)
        t->run_states = g_renew (guint64, t->run_states, MAX (t->n_runs, 1) * TV_N_RUN_STATES);
      for (guint k = 0; k < 6; k++)
        self->status_counts[k] += t->status_counts[k];
    }
  tree->parent = g_renew (guint32, tree->parent, tree->n_nodes);
  tree->frame = g_renew (guint32, tree->frame, tree->n_nodes);
  tree->depth = g_renew (guint16, tree->depth, tree->n_nodes);
  tree->self = g_renew (guint64, tree->self, tree->n_nodes);
  for (guint32 n = 0; n < tree->n_nodes; n++)
    {
      self->max_depth = MAX (self->max_depth, tree->depth[n]);
      if (tree->depth[n] >= TACH_MAX_STACK_DEPTH)
        self->n_at_depth_limit += tree->self[n];
    }

  number_depth_first (self);
  g_clear_pointer (&self->slots, g_free);
  g_clear_pointer (&self->links, g_free);
  for (guint i = 0; i < self->n_threads; i++)
    g_free (self->cursors[i].path);
  g_clear_pointer (&self->cursors, g_free);
}

static int
compare_thread_order (gconstpointer a,
                      gconstpointer b,
                      gpointer      user_data)
{
  const TvThread *threads = user_data;
  const TvThread *x = &threads[*(const guint32 *) a];
  const TvThread *y = &threads[*(const guint32 *) b];
  gboolean x_main = x->status_counts[5] > 0;   /* TACH_STATUS_MAIN_THREAD */
  gboolean y_main = y->status_counts[5] > 0;

  if (x->interpreter_id != y->interpreter_id)
    return x->interpreter_id < y->interpreter_id ? -1 : 1;
  if (x_main != y_main)
    return x_main ? -1 : 1;
  if (x->n_samples != y->n_samples)
    return x->n_samples > y->n_samples ? -1 : 1;
  if (x->thread_id != y->thread_id)
    return x->thread_id < y->thread_id ? -1 : 1;
  return (x->index > y->index) - (x->index < y->index);
}

/* What every list of threads needs and would otherwise compute on the UI
 * thread, in time that grows with the threads: their order and span. */
static void
summarize_threads (TvProfileData *self)
{
  self->thread_order = g_new (guint32, MAX (self->n_threads, 1));
  for (guint i = 0; i < self->n_threads; i++)
    self->thread_order[i] = i;
  g_qsort_with_data (self->thread_order, self->n_threads, sizeof (guint32),
                     compare_thread_order, self->threads);

  self->first_timestamp = G_MAXUINT64;
  self->last_timestamp = 0;
  for (guint i = 0; i < self->n_threads; i++)
    if (self->threads[i].n_samples > 0)
      {
        self->first_timestamp = MIN (self->first_timestamp, self->threads[i].first_timestamp);
        self->last_timestamp = MAX (self->last_timestamp, self->threads[i].last_timestamp);
      }
}

static int
decoder_cancelled (void *user_data)
{
  return g_cancellable_is_cancelled (user_data);
}

static TvProfileData *
load (TachReader           *reader,
      gboolean              counts_only,
      const TvSampleFilter *filter,
      TvLoadProgressFunc    progress,
      gpointer              user_data,
      GCancellable         *cancellable,
      GError              **error)
{
  g_autoptr(TvProfileData) self = g_new0 (TvProfileData, 1);
  const TachHeader *header = tach_reader_get_header (reader);
  guint64 region = tach_reader_get_sample_region_size (reader);
  guint64 next_progress = PROGRESS_EVERY;
  guint batches = 0;
  TachDecoder *decoder = NULL;
  TachError tach_error;
  TachBatch batch;
  int ret;

  g_atomic_ref_count_init (&self->ref_count);
  self->reader = reader;
  self->budget = memory_budget ();
  self->counts_only = counts_only;
  if (filter != NULL)
    {
      self->filter = *filter;
      if (filter->ranges != NULL)
        {
          self->ranges = g_memdup2 (filter->ranges, MAX (filter->n_ranges, 1)
                                                    * sizeof (TvTimeRange));
          self->filter.ranges = self->ranges;
        }
    }

  /* Trees have a few nodes per frame of the frame table: start there, so
   * that the arrays and the table rarely grow (and never rehash often). */
  self->mask = 1023;
  if (!grow_tree (self, MAX (1024, MIN (tach_reader_get_n_frames (reader), 1u << 20) * 4))
      || !charge (self, ((gsize) self->mask + 1) * sizeof (Slot)))
    {
      set_no_memory_error (self, error);
      return NULL;
    }
  self->tree.n_nodes = 1;
  self->tree.parent[0] = TV_NODE_NONE;
  self->tree.frame[0] = TV_NODE_NONE;
  self->tree.depth[0] = 0;
  self->tree.self[0] = 0;
  self->links[0] = (Link) { TV_NODE_NONE, TV_NODE_NONE, TV_NODE_NONE, 0 };
  self->slots = g_new0 (Slot, (gsize) self->mask + 1);
  self->reserve_samples = counts_only ? 0 : reserve_samples (reader);
  if (self->reserve_samples > 0 && g_get_num_processors () > 1)
    self->prefaulter = prefaulter_new ();

  if (tach_decoder_new (reader, &decoder, &tach_error) != TACH_OK)
    {
      tv_tach_error_propagate (error, TACH_ERROR_NO_MEMORY, &tach_error);
      return NULL;
    }
  tach_decoder_set_cancel_func (decoder, decoder_cancelled, cancellable);

  while ((ret = tach_decoder_next_batch (decoder, &batch, &tach_error)) == 1)
    {
      TvThread *t;
      Cursor *c;
      guint32 leaf = TV_NODE_NONE;

      /* A file with more samples than its header says is refused at the
       * end; stop keeping them, but decode on, because an error further
       * on is the one CPython would report. */
      if (self->n_samples + batch.n > header->sample_count)
        {
          self->n_samples += batch.n;
          goto next;
        }

      if ((t = ensure_thread (self, &batch.sample)) != NULL)
        {
          c = &self->cursors[t->index];
          if (batch.sample.kind == TACH_RECORD_REPEAT)
            leaf = c->path ? c->path[c->depth] : TV_ROOT_NODE;
          else
            leaf = move_cursor (self, c, &batch.sample);
        }
      if (leaf == TV_NODE_NONE || !append_batch (self, t, c, leaf, &batch))
        {
          set_no_memory_error (self, error);
          tach_decoder_free (decoder);
          return NULL;
        }

    next:
      /* A batch of a deep FULL record costs hundreds of lookups, a batch of
       * a REPEAT run almost nothing: look at both counts, so that a cancel
       * is seen within milliseconds whatever the profile. */
      if (++batches % 256 == 0
          && g_cancellable_set_error_if_cancelled (cancellable, error))
        {
          tach_decoder_free (decoder);
          return NULL;
        }
      if (self->n_samples >= next_progress)
        {
          next_progress = self->n_samples + PROGRESS_EVERY;
          if (progress != NULL)
            {
              double fraction = region ? (double) tach_decoder_get_bytes_consumed (decoder)
                                         / (double) region : 1.0;

              /* Only the last call says 1.0, which callers take for "done"
               * (and report at once): a pipelined decoder has read all of
               * a compressed region well before the last sample. */
              progress (self->n_samples, MIN (fraction, 0.999), user_data);
            }
        }
    }

  /* A thread whose only records are empty REPEAT runs has an index but
   * never a sample, so ensure_thread () never saw who it is. */
  for (guint i = 0; i < self->n_threads; i++)
    if (self->threads[i].run_start == NULL)
      {
        const TachThreadKey *key = tach_decoder_get_thread (decoder, i);

        self->threads[i].thread_id = key->thread_id;
        self->threads[i].interpreter_id = key->interpreter_id;
      }
  tach_decoder_free (decoder);

  if (ret < 0)
    {
      if (tach_error.status != TACH_ERROR_CANCELLED
          || !g_cancellable_set_error_if_cancelled (cancellable, error))
        tv_tach_error_propagate (error, tach_error.status, &tach_error);
      return NULL;
    }

  /* Every sample is in, and the tables are in memory: the file need not
   * stay open for as long as its profile is shown. */
  tach_reader_release_file (reader);
  g_clear_pointer (&self->prefaulter, prefaulter_free);
  shrink (self);
  summarize_threads (self);
  build_keys (self);
  find_internal (self);
  if (progress != NULL)
    progress (self->n_samples, 1.0, user_data);
  return g_steal_pointer (&self);
}

/**
 * tv_profile_data_load:
 * @reader: (transfer full): an open reader
 *
 * Decodes every sample of @reader.  Runs on any thread; @progress is
 * called from it every 65536 samples or so.
 *
 * Returns: (transfer full) (nullable): the data, or %NULL with @error set
 */
TvProfileData *
tv_profile_data_load (TachReader          *reader,
                      TvLoadProgressFunc   progress,
                      gpointer             user_data,
                      GCancellable        *cancellable,
                      GError             **error)
{
  return load (reader, FALSE, NULL, progress, user_data, cancellable, error);
}

/**
 * tv_profile_data_load_counts:
 * @reader: (transfer full): an open reader
 * @filter: (nullable): the samples to count
 *
 * Decodes every sample of @reader as tv_profile_data_load() does, but
 * keeps none: each thread's leaf runs count the samples @filter selects,
 * so that a REPEAT run of any length costs nothing.  What it keeps grows
 * with the call tree and the records that change a stack, never with the
 * samples.
 *
 * Returns: (transfer full) (nullable): the data, or %NULL with @error set
 */
TvProfileData *
tv_profile_data_load_counts (TachReader           *reader,
                             const TvSampleFilter *filter,
                             TvLoadProgressFunc    progress,
                             gpointer              user_data,
                             GCancellable         *cancellable,
                             GError              **error)
{
  g_return_val_if_fail (filter == NULL || filter->ranges == NULL
                        || tv_time_ranges_are_sorted (filter->ranges, filter->n_ranges), NULL);

  return load (reader, TRUE, filter, progress, user_data, cancellable, error);
}

gboolean
tv_profile_data_has_samples (TvProfileData *self)
{
  return !self->counts_only;
}

gboolean
tv_profile_data_has_states (TvProfileData *self)
{
  return !self->counts_only || self->filter.count_states;
}

TvProfileData *
tv_profile_data_ref (TvProfileData *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_atomic_ref_count_inc (&self->ref_count);
  return self;
}

void
tv_profile_data_unref (TvProfileData *self)
{
  if (self == NULL || !g_atomic_ref_count_dec (&self->ref_count))
    return;

  /* A failed load: the thread must not populate what is unmapped here. */
  g_clear_pointer (&self->prefaulter, prefaulter_free);

  for (guint i = 0; i < self->n_threads; i++)
    {
      store_clear (&self->stores[2 * i]);
      store_clear (&self->stores[2 * i + 1]);
      g_free (self->threads[i].run_start);
      g_free (self->threads[i].run_leaf);
      g_free (self->threads[i].run_states);
    }
  g_free (self->threads);
  g_free (self->thread_order);
  g_free (self->stores);
  g_free (self->tree.parent);
  g_free (self->tree.frame);
  g_free (self->tree.depth);
  g_free (self->tree.self);
  g_free (self->tree.first_child);
  g_free (self->slots);
  g_free (self->links);
  if (self->cursors != NULL)
    for (guint i = 0; i < self->n_threads; i++)
      g_free (self->cursors[i].path);
  g_free (self->cursors);
  for (guint m = 0; m < TV_N_MERGE_KEYS; m++)
    {
      g_free (self->frame_keys[m]);
      g_free (self->key_frames[m]);
      g_free (self->key_ranks[m]);
    }
  g_free (self->internal);
  g_free (self->ranges);
  tach_reader_free (self->reader);
  g_clear_pointer (&self->bytes, g_bytes_unref);
  g_free (self);
}

TachReader *
tv_profile_data_get_reader (TvProfileData *self)
{
  return self->reader;
}

void
tv_profile_data_keep_bytes (TvProfileData *self,
                            GBytes        *bytes)
{
  g_return_if_fail (self->bytes == NULL);

  self->bytes = g_bytes_ref (bytes);
}

guint64
tv_profile_data_get_n_samples (TvProfileData *self)
{
  return self->n_samples;
}

guint
tv_profile_data_get_n_threads (TvProfileData *self)
{
  return self->n_threads;
}

const TvThread *
tv_profile_data_get_thread (TvProfileData *self,
                            guint          index)
{
  g_return_val_if_fail (index < self->n_threads, NULL);
  return &self->threads[index];
}

const TvExactTree *
tv_profile_data_get_tree (TvProfileData *self)
{
  return &self->tree;
}

guint
tv_profile_data_get_max_depth (TvProfileData *self)
{
  return self->max_depth;
}

guint64
tv_profile_data_get_n_at_depth_limit (TvProfileData *self)
{
  return self->n_at_depth_limit;
}

gboolean
tv_profile_data_get_time_span (TvProfileData *self,
                               guint64       *first,
                               guint64       *last)
{
  if (first)
    *first = self->first_timestamp;
  if (last)
    *last = self->last_timestamp;
  return self->n_samples > 0;
}

const guint32 *
tv_profile_data_get_thread_order (TvProfileData *self)
{
  return self->thread_order;
}

const guint64 *
tv_profile_data_get_status_counts (TvProfileData *self)
{
  return self->status_counts;
}

double
tv_profile_data_get_seconds_per_sample (TvProfileData *self,
                                        TvTimeSource  *source)
{
  const TachStats *stats = tach_reader_get_stats (self->reader);
  const TachHeader *header = tach_reader_get_header (self->reader);

  /* The statistics block measures the rate of sampling ticks; every
   * thread-sample of a tick stands for one tick's worth of time. */
  if (stats->present && stats->sample_rate > 0)
    {
      if (source)
        *source = TV_TIME_SOURCE_STATS;
      return 1.0 / stats->sample_rate;
    }
  if (source)
    *source = TV_TIME_SOURCE_INTERVAL;
  return (double) header->sample_interval_us / 1e6;
}

const char *
tv_profile_data_get_funcname (TvProfileData *self,
                              guint32        frame)
{
  const TachFrame *f = tach_reader_get_frame (self->reader, frame);
  const char *s = f ? tach_reader_get_string (self->reader, f->funcname, NULL) : NULL;

  return s ? s : "";
}

const char *
tv_profile_data_get_filename (TvProfileData *self,
                              guint32        frame)
{
  const TachFrame *f = tach_reader_get_frame (self->reader, frame);
  const char *s = f ? tach_reader_get_string (self->reader, f->filename, NULL) : NULL;

  return s ? s : "";
}

guint32
tv_profile_data_get_n_frames (TvProfileData *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return tach_reader_get_n_frames (self->reader);
}

gboolean
tv_profile_data_get_frame_location (TvProfileData   *self,
                                    guint32          frame,
                                    TvFrameLocation *location)
{
  const TachFrame *f;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (location != NULL, FALSE);

  G_STATIC_ASSERT (TV_LOCATION_NONE == TACH_LOCATION_NONE);
  G_STATIC_ASSERT (TV_OPCODE_NONE == TACH_OPCODE_NONE);
  G_STATIC_ASSERT (TV_MAX_STACK_DEPTH == TACH_MAX_STACK_DEPTH);
  f = tach_reader_get_frame (self->reader, frame);
  if (f == NULL)
    {
      *location = (TvFrameLocation) { TV_LOCATION_NONE, TV_LOCATION_NONE, TV_LOCATION_NONE,
                                      TV_LOCATION_NONE, TV_OPCODE_NONE };
      return FALSE;
    }
  *location = (TvFrameLocation) { f->lineno, f->end_lineno, f->column, f->end_column,
                                  f->opcode };
  return TRUE;
}

guint32
tv_profile_data_get_n_keys (TvProfileData *self,
                            TvMergeKey     merge)
{
  g_return_val_if_fail (merge < TV_N_MERGE_KEYS, 0);
  return self->n_keys[merge];
}

const guint32 *
tv_profile_data_get_frame_keys (TvProfileData *self,
                                TvMergeKey     merge)
{
  g_return_val_if_fail (merge < TV_N_MERGE_KEYS, NULL);
  return self->frame_keys[merge];
}

guint32
tv_profile_data_get_key_frame (TvProfileData *self,
                               TvMergeKey     merge,
                               guint32        key)
{
  g_return_val_if_fail (merge < TV_N_MERGE_KEYS, 0);
  g_return_val_if_fail (key < self->n_keys[merge], 0);
  return self->key_frames[merge][key];
}

const guint8 *
tv_profile_data_get_internal_functions (TvProfileData *self)
{
  return self->internal;
}

const guint32 *
tv_profile_data_get_key_ranks (TvProfileData *self,
                               TvMergeKey     merge)
{
  g_return_val_if_fail (merge < TV_N_MERGE_KEYS, NULL);
  return self->key_ranks[merge];
}
