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
#include "tv-profile-data-private.h"

#include <errno.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <sys/mman.h>
#include <unistd.h>

#include "tv-call-tree.h"
#include "tv-huge-pages.h"
#include "tv-tach-error.h"

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

  if (mask > self->mask && tv_profile_data_charge (self, ((gsize) mask - self->mask) * sizeof (Slot)))
    slots = g_try_new0 (Slot, (gsize) mask + 1);
  if (slots == NULL)
    return FALSE;
  tv_huge_pages (slots, ((gsize) mask + 1) * sizeof (Slot));
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
  gpointer p;

  gsize words = ((gsize) self->tree_capacity + 63) / 64;
  gsize new_words = ((gsize) capacity + 63) / 64;

  if (capacity <= self->tree_capacity
      || !tv_profile_data_charge (self, ((gsize) capacity - self->tree_capacity) * sizeof (Link)
                                        + (new_words - words) * sizeof (guint64)))
    return FALSE;
  if (self->links_mapped > 0)
    {
      /* Reserved: the pages come as they are written, and nothing moves. */
      if ((gsize) capacity * sizeof (Link) > self->links_mapped)
        return FALSE;
    }
  else
    {
      /* The second thread must not be making pages of a block that moves
       * resident. */
      if (self->prefaulter != NULL)
        tv_prefaulter_drain (self->prefaulter);
      /* Filled from its start: huge pages cost what is used. */
      if ((p = g_try_renew (Link, self->links, capacity)) == NULL)
        return FALSE;
      self->links = tv_huge_pages (p, capacity * sizeof (Link));
    }
  if ((p = g_try_renew (guint64, self->hashed, new_words)) == NULL)
    return FALSE;
  self->hashed = p;
  memset (self->hashed + words, 0, (new_words - words) * sizeof (guint64));
  self->tree_capacity = capacity;
  return TRUE;
}

gboolean
tv_profile_data_start_tree (TvProfileData *self,
                            guint32        capacity)
{
  self->mask = 1023;
  /* As many links as the budget holds, reserved: they grow without a
   * copy, and their pages can serve the first query (see
   * tv_profile_data_free_links ()). */
  self->links_mapped = MIN (self->budget, (gsize) G_MAXUINT32 * sizeof (Link));
  self->links = tv_huge_reserve (&self->links_mapped);
  if (self->links == NULL)
    self->links_mapped = 0;
  if (!grow_tree (self, capacity)
      || !tv_profile_data_charge (self, ((gsize) self->mask + 1) * sizeof (Slot)))
    return FALSE;
  self->tree.n_nodes = 1;
  self->links[0] = (Link) { TV_NODE_NONE, TV_NODE_NONE, TV_NODE_NONE };
  self->slots = tv_huge_heap_new0 (Slot, (gsize) self->mask + 1);
  return TRUE;
}

void
tv_profile_data_free_tree (TvProfileData *self)
{
  g_free (self->tree.up);
  g_free (self->tree.down);
  g_free (self->tree.frame16);
  g_free (self->tree.frame32);
  g_free (self->tree.far_up.nodes);
  g_free (self->tree.far_up.values);
  g_free (self->tree.far_up.starts);
  g_free (self->tree.far_down.nodes);
  g_free (self->tree.far_down.values);
  g_free (self->tree.far_down.starts);
  g_free (self->tree.outer_calls);
  g_free (self->tree.quiet_calls);
  for (guint i = 0; i < TV_N_PREPARED; i++)
    g_clear_pointer (&self->prepared[i], tv_huge_free);
  g_free (self->slots);
  tv_profile_data_free_links (self, FALSE);
  g_free (self->hashed);
}

/* Frees the links: with KEEP, when they are a mapping, their pages go
 * to the kept blocks (tv_huge_adopt ()), for the first query's biggest
 * array, which then takes no page fault and has the kernel clear
 * nothing. */
void
tv_profile_data_free_links (TvProfileData *self,
                            gboolean       keep)
{
  if (self->links_mapped > 0)
    {
      if (keep)
        tv_huge_adopt (self->links, (gsize) self->tree.n_nodes * sizeof (Link),
                       self->links_mapped);
      else
        tv_huge_unreserve (self->links, self->links_mapped);
      self->links_mapped = 0;
      self->links = NULL;
    }
  else
    g_clear_pointer (&self->links, g_free);
}

/* Asks for the links' pages to be made resident up to twice AHEAD past
 * the last node, and to be asked again once the nodes are AHEAD from
 * there: on a deep profile, the kernel's clearing of them was a fifth of
 * the load.  AHEAD is a sixteenth of what the nodes fill, at most
 * TREE_PREFAULT_AHEAD: a small tree keeps few pages it does not use. */
static void
prefault_links (TvProfileData *self)
{
  gsize used = (gsize) self->tree.n_nodes * sizeof (Link);
  gsize capacity = (gsize) self->tree_capacity * sizeof (Link);
  gsize ahead = CLAMP (used / 16, 64 * 1024, TREE_PREFAULT_AHEAD);
  gsize to = MIN (used + 2 * ahead, capacity);

  if (to > self->links_frontier)
    {
      tv_profile_data_prefault_range (self, self->links, self->links_frontier, to);
      self->links_frontier = to;
    }
  /* At the end of the room, next once it grew. */
  self->links_next = self->links_frontier < capacity
                     ? MAX (self->links_frontier - ahead, used) : capacity;
}

/* The child of PARENT for FRAME, made if it is new.  Hostile files can ask
 * for more nodes than memory holds: that must be an error (TV_NODE_NONE),
 * not an abort. */
guint32
tv_profile_data_child_node (TvProfileData *self,
                            guint32        parent,
                            guint32        frame)
{
  TvExactTree *tree = &self->tree;
  gboolean hashed = TV_BIT_TEST (self->hashed, parent);
  guint32 node, n_children = 0;
  Link *link;

  if (!hashed)
    {
      for (guint32 c = self->links[parent].first_child; c != TV_NODE_NONE;
           c = self->links[c].next_sibling, n_children++)
        if (self->links[c].frame == frame)
          return c;
    }
  else if ((node = lookup_hashed (self, parent, frame)) != TV_NODE_NONE)
    return node;

  if (tree->n_nodes == self->tree_capacity && !grow_tree (self, self->tree_capacity * 2))
    return TV_NODE_NONE;
  node = tree->n_nodes++;
  if (G_UNLIKELY ((gsize) tree->n_nodes * sizeof (Link) > self->links_next))
    prefault_links (self);
  link = &self->links[node];
  link->frame = frame;
  link->first_child = TV_NODE_NONE;
  link->next_sibling = self->links[parent].first_child;
  self->links[parent].first_child = node;

  if (hashed)
    {
      if (!add_hashed (self, parent, frame, node))
        return TV_NODE_NONE;
    }
  else if (n_children == LIST_MAX_CHILDREN)
    {
      /* One child too many for a list: from now on, all of them are
       * found through the table. */
      TV_BIT_SET (self->hashed, parent);
      for (guint32 c = node; c != TV_NODE_NONE; c = self->links[c].next_sibling)
        if (!add_hashed (self, parent, self->links[c].frame, c))
          return TV_NODE_NONE;
    }
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
      if (!tv_profile_data_charge (self, ((gsize) capacity - self->threads_capacity)
                         * (sizeof (TvThread) + sizeof (Cursor)
                            + STORES_PER_THREAD * sizeof (SampleStore))))
        return NULL;
      if ((p = g_try_renew (TvThread, self->threads, capacity)) == NULL)
        return NULL;
      self->threads = p;
      if ((p = g_try_renew (Cursor, self->cursors, capacity)) == NULL)
        return NULL;
      self->cursors = p;
      if ((p = g_try_renew (SampleStore, self->stores,
                            (gsize) capacity * STORES_PER_THREAD)) == NULL)
        return NULL;
      self->stores = p;
      self->threads_capacity = capacity;
    }

  while (index >= self->n_threads)
    {
      guint i = self->n_threads++;

      memset (&self->threads[i], 0, sizeof (TvThread));
      memset (&self->cursors[i], 0, sizeof (Cursor));
      memset (&self->stores[STORES_PER_THREAD * i], 0,
              STORES_PER_THREAD * sizeof (SampleStore));
      self->threads[i].index = i;
      self->threads[i].time_ordered = TRUE;
      self->threads[i].first_timestamp = G_MAXUINT64;
    }

  if (self->threads[index].run_start == NULL)
    {
      TvThread *t = &self->threads[index];
      Cursor *c = &self->cursors[index];
      SampleStore *stores = &self->stores[STORES_PER_THREAD * index];
      guint64 reserve = index < MAX_MAPPED_THREADS ? self->reserve_samples : 0;

      t->thread_id = sample->thread_id;
      t->interpreter_id = sample->interpreter_id;
      /* Small to start with: a file can declare any number of threads of
       * one sample each. */
      c->runs_capacity = 4;
      /* The pool holds an unfinished block's timestamps whole: at most 8
       * bytes a sample.  The blocks, a 64th of the samples, are allocated:
       * a thread's first page of them would cost more than they do. */
      if (!self->counts_only
          && (!tv_sample_store_init (self, &stores[STORE_TIMES], reserve * sizeof (guint64),
                                     INITIAL_SAMPLES * sizeof (guint64))
              || !tv_sample_store_init (self, &stores[STORE_STATUSES], reserve, INITIAL_SAMPLES)
              || !tv_sample_store_init (self, &stores[STORE_BLOCKS], 0, sizeof (TvTimesBlock))))
        return NULL;
      if (!tv_profile_data_charge (self, c->runs_capacity * run_bytes (self)))
        return NULL;
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
      if (!tv_profile_data_charge (self, (capacity - c->path_capacity) * sizeof (guint32))
          || (path = g_try_renew (guint32, c->path, capacity)) == NULL)
        return TV_NODE_NONE;
      if (c->path == NULL)
        path[0] = TV_ROOT_NODE;
      c->path = path;
      c->path_capacity = capacity;
    }
  for (guint i = s->push; i > 0; i--)
    {
      guint32 node = tv_profile_data_child_node (self, c->path[d], s->stack[i - 1]);

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

/* Turns the COUNT timestamps of the thread's unfinished block, BLOCK, into
 * offsets (when it is full, or the last one at the end of the load);
 * FALSE when memory runs out. */
gboolean
tv_profile_data_finish_times_block (TvProfileData *self,
                                    TvThread      *t,
                                    guint64        block,
                                    guint          count)
{
  SampleStore *stores = &self->stores[STORES_PER_THREAD * t->index];
  Cursor *c = &self->cursors[t->index];
  guint64 whole[TV_TIMES_BLOCK];

  /* A thread of billions of samples is past what the blocks address, and
   * past any memory. */
  if (c->times_at >= TV_TIMES_MAX_POOL
      || !tv_sample_store_ensure (self, &stores[STORE_BLOCKS], (block + 1) * sizeof (TvTimesBlock)))
    return FALSE;
  memcpy (whole, stores[STORE_TIMES].mem + c->times_at, count * sizeof (guint64));
  c->times_at += tv_times_encode_block (whole, count, stores[STORE_TIMES].mem, c->times_at,
                                        (TvTimesBlock *) stores[STORE_BLOCKS].mem + block);
  return TRUE;
}

/* Appends the batch's statuses and timestamps to the thread's stores.  The
 * timestamps go whole into the pool's unfinished block, which becomes
 * offsets once it has TV_TIMES_BLOCK of them. */
static gboolean
append_samples (TvProfileData   *self,
                TvThread        *t,
                Cursor          *c,
                const TachBatch *b)
{
  SampleStore *stores = &self->stores[STORES_PER_THREAD * t->index];
  guint64 n = b->n;

  /* Past 16 distinct statuses, the thread's are kept whole. */
  if (!tv_sample_store_ensure (self, &stores[STORE_STATUSES],
                               tv_statuses_size (&t->statuses, t->n_samples + n)))
    return FALSE;
  t->statuses.bytes = stores[STORE_STATUSES].mem;
  if (!tv_statuses_append (&t->statuses, t->n_samples, b->statuses, n))
    {
      if (!tv_sample_store_ensure (self, &stores[STORE_STATUSES], t->n_samples + n))
        return FALSE;
      t->statuses.bytes = stores[STORE_STATUSES].mem;
      tv_statuses_widen (&t->statuses, t->n_samples);
      tv_statuses_append (&t->statuses, t->n_samples, b->statuses, n);
    }

  for (guint64 done = 0; done < n;)
    {
      guint64 i = t->n_samples + done;
      guint j = (guint) (i % TV_TIMES_BLOCK);
      guint take = (guint) MIN (TV_TIMES_BLOCK - j, n - done);

      if (!tv_sample_store_ensure (self, &stores[STORE_TIMES],
                                   c->times_at + (j + take) * sizeof (guint64)))
        return FALSE;
      memcpy (stores[STORE_TIMES].mem + c->times_at + j * sizeof (guint64),
              b->timestamps + done, take * sizeof (guint64));
      done += take;
      if (j + take == TV_TIMES_BLOCK
          && !tv_profile_data_finish_times_block (self, t, i / TV_TIMES_BLOCK, TV_TIMES_BLOCK))
        return FALSE;
    }
  return TRUE;
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

  if (self->counts_only)
    kept = count_kept (&self->filter, b, counting_states (self) ? states : NULL);

  if (kept > 0 && (t->n_runs == 0 || t->run_leaf[t->n_runs - 1] != leaf))
    {
      if (t->n_runs == c->runs_capacity)
        {
          guint64 capacity = c->runs_capacity * 2;
          gpointer p;

          if (!tv_profile_data_charge (self, c->runs_capacity * run_bytes (self)))
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

  if (!self->counts_only && !append_samples (self, t, c, b))
    return FALSE;

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
  /* The cursor is at the leaf, as deep as its stack. */
  if (c->depth >= TACH_MAX_STACK_DEPTH)
    self->n_at_depth_limit += n;
  self->max_depth = MAX (self->max_depth, c->depth);
  self->n_samples += n;
  return TRUE;
}

static int
decoder_cancelled (void *user_data)
{
  return g_cancellable_is_cancelled (user_data);
}

/* What a load holds before its first sample: its filter, the budget, the
 * tree's root and arrays sized for the frame table, and the sample
 * stores' way of growing. */
static gboolean
start_load (TvProfileData         *self,
            TachReader            *reader,
            gboolean               counts_only,
            const TvSampleFilter  *filter,
            GError               **error)
{
  self->reader = reader;
  self->budget = tv_profile_data_memory_budget ();
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
  if (!tv_profile_data_start_tree (self, MAX (1024, MIN (tach_reader_get_n_frames (reader),
                                                          1u << 20) * 4)))
    {
      tv_profile_data_set_no_memory_error (self, error);
      return FALSE;
    }
  self->reserve_samples = counts_only ? 0 : tv_sample_store_reserve (reader);
  if (self->reserve_samples > 0 && g_get_num_processors () > 1)
    self->prefaulter = tv_prefaulter_new ();
  self->links_frontier = 0;
  self->links_next = tv_profile_data_can_prefault (self) ? 0 : G_MAXSIZE;
  return TRUE;
}

/* About what the finishing costs a node of the tree, against the time the
 * decoding took: what share of the progress bar the finishing gets (see
 * load()).  Measured on a deep profile: 35 ns a node. */
#define FINISH_NS_PER_NODE 35.0

/* The progress of a load, from the decoding to the finishing. */
typedef struct
{
  TvLoadProgressFunc  func;
  gpointer            data;
  GCancellable       *cancellable;
  guint64             samples;
  double              shown;        /* the last fraction reported */
  double              decoded;      /* where the decoding left the bar */
} LoadReport;

/* The finishing's share DONE, from what the decoding left of the bar to
 * just under its end: only the end of the load says 1.0. */
static gboolean
report_finish (double   done,
               gpointer user_data)
{
  LoadReport *r = user_data;

  if (g_cancellable_is_cancelled (r->cancellable))
    return FALSE;
  if (r->func != NULL)
    {
      r->shown = MAX (r->shown, r->decoded + (0.999 - r->decoded) * CLAMP (done, 0.0, 1.0));
      r->func (r->samples, r->shown, r->data);
    }
  return TRUE;
}

/* The last TvProfileData's serial. */
static gint next_serial;

/* The most thread-samples a load keeps (tv_profile_data_set_max_samples()). */
static guint64 sample_limit = TV_PROFILE_MAX_SAMPLES;

void
tv_profile_data_set_max_samples (guint64 max)
{
  sample_limit = max > 0 ? MIN (max, TV_PROFILE_MAX_SAMPLES) : TV_PROFILE_MAX_SAMPLES;
}

guint
tv_profile_data_new_serial (void)
{
  return (guint) g_atomic_int_add (&next_serial, 1) + 1u;
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
  LoadReport report = { progress, user_data, cancellable, 0, 0.0, 0.0 };
  guint64 max_samples = sample_limit;
  gint64 started = g_get_monotonic_time ();
  TachDecoder *decoder = NULL;
  TachError tach_error;
  TachBatch batch;
  int ret;

  g_atomic_ref_count_init (&self->ref_count);
  self->serial = tv_profile_data_new_serial ();
  if (!start_load (self, reader, counts_only, filter, error))
    return NULL;

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
      if (self->n_samples + batch.n > max_samples)
        {
          g_set_error (error, TV_TACH_ERROR, TV_TACH_ERROR_UNSUPPORTED,
                       "This profile holds more than %" G_GUINT64_FORMAT " thread-samples, "
                       "more than the viewer can count", max_samples);
          tach_decoder_free (decoder);
          return NULL;
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
          tv_profile_data_set_no_memory_error (self, error);
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
              double decode_ns, finish_ns;

              /* Only the last call says 1.0, which callers take for "done"
               * (and report at once): a pipelined decoder has read all of
               * a compressed region well before the last sample. */
              fraction = MIN (fraction, 0.999);
              /* The decoding gets its share of the bar, by what it has
               * taken so far, and the finishing the rest, by the nodes
               * made so far (see FINISH_NS_PER_NODE). */
              decode_ns = (g_get_monotonic_time () - started) * 1e3 / MAX (fraction, 1e-3);
              finish_ns = self->tree.n_nodes * FINISH_NS_PER_NODE / MAX (fraction, 1e-3);
              report.shown = MAX (report.shown,
                                  fraction * decode_ns / MAX (decode_ns + finish_ns, 1.0));
              progress (self->n_samples, report.shown, user_data);
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
  report.samples = self->n_samples;
  report.decoded = report.shown;
  if (!tv_profile_data_finish_load (self, report_finish, &report))
    {
      if (!g_cancellable_set_error_if_cancelled (cancellable, error))
        tv_profile_data_set_no_memory_error (self, error);
      return NULL;
    }
#ifdef __GLIBC__
  /* The build's arrays and tables are freed, but the heap keeps the pages
   * of those that were not at its end: give them back. */
  malloc_trim (0);
#endif
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
  if (self->source != NULL)
    {
      tv_profile_data_free_merged (self);
      return;
    }

  /* It borrows from this one. */
  g_clear_pointer (&self->merged, tv_profile_data_unref);
  /* A failed load: the thread must not populate what is unmapped here. */
  g_clear_pointer (&self->prefaulter, tv_prefaulter_free);
  /* What a query of it kept for the next (see Weighed). */
  tv_call_tree_forget_weights (self);

  for (guint i = 0; i < self->n_threads; i++)
    {
      for (guint k = 0; k < STORES_PER_THREAD; k++)
        tv_sample_store_clear (&self->stores[STORES_PER_THREAD * i + k]);
      g_free (self->threads[i].run_start);
      g_free (self->threads[i].run_leaf);
      g_free (self->threads[i].run_states);
    }
  g_free (self->threads);
  g_free (self->thread_order);
  g_free (self->stores);
  tv_profile_data_free_tree (self);
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
  /* The arrays its views kept for the next one go back to the system. */
  tv_huge_trim ();
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
tv_profile_data_get_serial (TvProfileData *self)
{
  return self->serial;
}

gpointer *
tv_profile_data_get_prepared (TvProfileData *self,
                              TvPrepared     which)
{
  g_return_val_if_fail (which < TV_N_PREPARED, NULL);
  return &self->prepared[which];
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

guint32
tv_tree_far_get (const TvTreeFar *far,
                 guint32          node)
{
  /* The last entry at or before NODE: among those of its 2^16 nodes, or
   * the last before them.  Without STARTS (while the load makes the
   * table), all of it. */
  guint32 lo = far->starts != NULL ? MAX (far->starts[node >> TV_TREE_FAR_SHIFT], 1) - 1 : 0;
  guint32 hi = far->starts != NULL ? far->starts[(node >> TV_TREE_FAR_SHIFT) + 1] : far->n;

  while (hi - lo > 1)
    {
      guint32 mid = lo + (hi - lo) / 2;

      if (far->nodes[mid] <= node)
        lo = mid;
      else
        hi = mid;
    }
  g_assert (hi > lo && far->nodes[lo] <= node);
  return far->values[lo];
}

guint64 *
tv_profile_data_count_node_samples (TvProfileData *self)
{
  guint64 *samples = g_new0 (guint64, MAX (self->tree.n_nodes, 1));

  for (guint i = 0; i < self->n_threads; i++)
    {
      const TvThread *t = &self->threads[i];

      for (guint64 r = 0; r < t->n_runs; r++)
        {
          guint64 end = r + 1 < t->n_runs ? t->run_start[r + 1] : t->n_run_samples;

          samples[t->run_leaf[r]] += end - t->run_start[r];
        }
    }
  return samples;
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
