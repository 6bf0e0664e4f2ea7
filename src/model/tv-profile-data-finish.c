/* tv-profile-data-finish.c: what a load does once it has every sample
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The arrays cut to what they hold, the exact tree numbered depth first,
 * the threads' order and span, the merge keys of every frame and the
 * profiler's own functions.
 */
#include "tv-profile-data-private.h"
#include "tv-huge-pages.h"

#include <stdlib.h>
#include <string.h>

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

/* How the finishing reports: FUNC (see tv_profile_data_finish_load())
 * every FINISH_EVERY nodes of its walk of the tree. */
#define FINISH_EVERY (1u << 16)

typedef struct
{
  TvFinishFunc func;
  gpointer     data;
} Finish;

/* FALSE when the finishing is to stop: DONE of the N nodes of the
 * numbering's walk, the whole of its work. */
static gboolean
finish_step (const Finish *f,
             guint64       done,
             guint64       n)
{
  return f->func == NULL || f->func ((double) done / (double) MAX (n, 1), f->data);
}

/* NODE's VALUE into the far table FAR (see keep_near()); FALSE when memory
 * runs out. */
static gboolean
keep_far (guint16   *near,
          TvTreeFar *far,
          guint32   *capacity,
          guint32    node,
          guint32    value)
{
  near[node] = TV_TREE_FAR;
  /* The next of a parent's far children (see TvTreeFar): its first is
   * the entry. */
  if (far->n > 0 && far->values[far->n - 1] == value && far->nodes[far->n - 1] < node)
    return TRUE;
  if (far->n == *capacity)
    {
      guint32 size = MAX (64, *capacity * 2);
      guint32 *nodes = g_try_renew (guint32, far->nodes, size);

      if (nodes == NULL)
        return FALSE;
      far->nodes = nodes;
      if ((far->values = g_try_renew (guint32, far->values, size)) == NULL)
        return FALSE;
      *capacity = size;
    }
  far->nodes[far->n] = node;
  far->values[far->n++] = value;
  return TRUE;
}

/* Where the tree's far table is made: NODE's VALUE, which it keeps in
 * 16 bits as its distance from NODE unless that is too far; FALSE when
 * memory runs out. */
static inline gboolean
keep_near (guint16   *near,
           TvTreeFar *far,
           guint32   *capacity,
           guint32    node,
           guint32    value)
{
  guint32 d = value > node ? value - node : node - value;

  if (G_LIKELY (d < TV_TREE_FAR && value != TV_NODE_NONE))
    {
      near[node] = (guint16) d;
      return TRUE;
    }
  /* A parent that is the root (no first child is), however far. */
  if (value == TV_ROOT_NODE)
    {
      near[node] = 0;
      return TRUE;
    }
  return keep_far (near, far, capacity, node, value);
}

static int
compare_far (gconstpointer a,
             gconstpointer b)
{
  guint64 x = *(const guint64 *) a, y = *(const guint64 *) b;

  return x < y ? -1 : x > y;
}

/* Where FAR's entries of each 2^TV_TREE_FAR_SHIFT nodes of the N_NODES
 * start (TvTreeFar.starts), its nodes in order. */
static void
index_far (TvTreeFar *far,
           guint32    n_nodes)
{
  guint32 n_starts = (guint32) (((guint64) n_nodes >> TV_TREE_FAR_SHIFT) + 2);
  guint32 e = 0;

  far->starts = g_new (guint32, n_starts);
  for (guint32 b = 0; b < n_starts; b++)
    {
      while (e < far->n && far->nodes[e] >> TV_TREE_FAR_SHIFT < b)
        e++;
      far->starts[b] = e;
    }
}

/* Puts FAR's nodes in ascending order, with their values. */
static void
sort_far (TvTreeFar *far)
{
  g_autofree guint64 *pairs = g_new (guint64, MAX (far->n, 1));

  for (guint32 i = 0; i < far->n; i++)
    pairs[i] = (guint64) far->nodes[i] << 32 | far->values[i];
  qsort (pairs, far->n, sizeof (guint64), compare_far);
  for (guint32 i = 0; i < far->n; i++)
    {
      far->nodes[i] = pairs[i] >> 32;
      far->values[i] = (guint32) pairs[i];
    }
}

/* Asks for the pages of the numbering's arrays to be made resident up to
 * twice AHEAD_NODES past node K, and sets *NEXT to the number at which
 * to ask again (see prefault_links()): they are filled in the order of
 * the new numbers. */
#define AHEAD_NODES (TREE_PREFAULT_AHEAD / sizeof (guint16))

static void
prefault_numbering (TvProfileData *self,
                    guint32        k,
                    guint32       *ahead,
                    guint32       *next)
{
  TvExactTree *tree = &self->tree;
  guint32 to = (guint32) MIN ((gsize) k + 2 * AHEAD_NODES, tree->n_nodes);

  if (!tv_profile_data_can_prefault (self))
    {
      *next = G_MAXUINT32;
      return;
    }
  if (to > *ahead)
    {
      gsize from = *ahead;

      tv_profile_data_prefault_range (self, tree->up, from * sizeof (guint16),
                                      to * sizeof (guint16));
      tv_profile_data_prefault_range (self, tree->down, from * sizeof (guint16),
                                      to * sizeof (guint16));
      if (tree->frame16 != NULL)
        tv_profile_data_prefault_range (self, tree->frame16, from * sizeof (guint16),
                                        to * sizeof (guint16));
      else
        tv_profile_data_prefault_range (self, tree->frame32, from * sizeof (guint32),
                                        to * sizeof (guint32));
      *ahead = to;
    }
  *next = *ahead < tree->n_nodes ? *ahead - AHEAD_NODES : G_MAXUINT32;
}

/* Numbers the exact tree's nodes depth first, a node's children together:
 * a node's children get consecutive numbers when it is reached, and the
 * first child's subtree is numbered before its siblings' children.  So
 * siblings are consecutive (a call tree groups the children of the nodes
 * it merges by reading ranges instead of hashing every node, see
 * tv-call-tree.c), and a chain of calls is consecutive too (a walk up a
 * stack reads neighbours, and the tree keeps its parents and first
 * children as short distances, see TvExactTree).  The runs' leaves are
 * renumbered with them.
 *
 * The walk reads the build's lists of children, and nothing else of it:
 * the build keeps no parents or frames of its own, and its lists hold the
 * children newest first, which get their numbers oldest first.  A node's
 * new number goes where its frame was, once the tree has the frame.
 *
 * The walk also finds the outermost calls (TvExactTree.outer_calls): it
 * keeps the path down to the node it takes, and how many nodes of each
 * function are on it, so that a child is an outermost call when none is
 * of its function; and the quiet ones (TvExactTree.quiet_calls), calls
 * of their parent's function under a call that is not outermost.  Before
 * a node goes on the path, the nodes that are not its ancestors come off
 * (the path is cut back to its parent).
 *
 * FALSE when FINISH stops it or memory runs out: whatever arrays the tree
 * then has are its own, to be freed with it. */
static gboolean
number_depth_first (TvProfileData *self,
                    const Finish  *finish)
{
  TvExactTree *tree = &self->tree;
  guint32 n = tree->n_nodes;
  Link *links = self->links;
  /* The walk's stack: a node's number as built and its new number. */
  g_autofree guint32 *stack = NULL;
  guint32 k = 1, sp = 0, far_up_size = 0, far_down_size = 0;
  const guint32 *fkeys = self->frame_keys[TV_MERGE_FUNCTION];
  g_autofree guint32 *active = g_new0 (guint32, MAX (self->n_keys[TV_MERGE_FUNCTION], 1));
  /* The path: each node's number and function. */
  gsize path_size = (gsize) self->max_depth + 2, depth = 0;
  g_autofree guint32 *path = g_new (guint32, 2 * path_size);
  /* The children of the node the walk takes. */
  guint32 family_size = 64;
  g_autofree guint32 *family = g_new (guint32, family_size);
  /* The nodes whose arrays' pages were asked to be made resident, and
   * the number at which more are asked for. */
  guint32 ahead = 0, ahead_next = 0;

  /* The hash table is done with. */
  g_clear_pointer (&self->slots, g_free);
  g_clear_pointer (&self->hashed, g_free);
  tree->up = tv_huge_heap_new (guint16, MAX (n, 1));
  tree->down = tv_huge_heap_new (guint16, MAX (n, 1));
  if (tach_reader_get_n_frames (self->reader) < TV_TREE_FAR)
    tree->frame16 = tv_huge_heap_new (guint16, MAX (n, 1));
  else
    tree->frame32 = tv_huge_heap_new (guint32, MAX (n, 1));
  tree->outer_calls = g_new0 (guint64, ((gsize) n + 63) / 64 + 1);
  tree->quiet_calls = g_new0 (guint64, ((gsize) n + 63) / 64 + 1);

  stack = g_new (guint32, 2 * (gsize) MAX (n, 1));
  prefault_numbering (self, 0, &ahead, &ahead_next);
  if (!keep_near (tree->up, &tree->far_up, &far_up_size, 0, TV_NODE_NONE))
    return FALSE;
  if (tree->frame16 != NULL)
    tree->frame16[0] = 0;
  else
    tree->frame32[0] = TV_NODE_NONE;
  links[0].frame = 0;
  stack[sp++] = 0;
  stack[sp++] = 0;
  while (sp > 0)
    {
      guint32 i = stack[--sp];
      const Link *node = &links[stack[--sp]];
      guint32 m = 0;
      /* Its function, when a call of it below is the inside of a
       * recursion. */
      guint32 quiet_function = TV_NODE_NONE;

      if (i % FINISH_EVERY == 0 && !finish_step (finish, k, n))
        return FALSE;

      if (i != TV_ROOT_NODE)
        {
          guint32 f = fkeys[tv_exact_tree_frame (tree, i)];
          guint32 p = tv_exact_tree_parent (tree, i);

          while (depth > 0 && path[2 * depth - 2] != p)
            active[path[2 * --depth + 1]]--;
          if (depth == path_size)
            {
              path_size *= 2;
              path = g_renew (guint32, path, 2 * path_size);
            }
          path[2 * depth] = i;
          path[2 * depth + 1] = f;
          depth++;
          active[f]++;
          if (!TV_BIT_TEST (tree->outer_calls, i))
            quiet_function = f;
        }
      /* The children, newest first as the list has them. */
      for (guint32 c = node->first_child; c != TV_NODE_NONE; c = links[c].next_sibling)
        {
          if (m == family_size)
            {
              family_size *= 2;
              family = g_renew (guint32, family, family_size);
            }
          family[m++] = c;
        }
      if (G_UNLIKELY (k + m > ahead_next))
        prefault_numbering (self, k + m, &ahead, &ahead_next);
      /* A node with no children has the next node, which is not one. */
      if (!keep_near (tree->down, &tree->far_down, &far_down_size, i, m > 0 ? k : i + 1))
        return FALSE;
      /* Numbered oldest first, in order (the far parents' table is made
       * in order, and read while it is made). */
      for (guint32 j = 0; j < m; j++)
        {
          guint32 c = family[m - 1 - j];
          guint32 frame = links[c].frame;

          if (!keep_near (tree->up, &tree->far_up, &far_up_size, k + j, i))
            return FALSE;
          if (tree->frame16 != NULL)
            tree->frame16[k + j] = (guint16) frame;
          else
            tree->frame32[k + j] = frame;
          if (active[fkeys[frame]] == 0)
            TV_BIT_SET (tree->outer_calls, k + j);
          else if (fkeys[frame] == quiet_function)
            {
              TV_BIT_SET (tree->quiet_calls, k + j);
              tree->n_quiet++;
            }
          links[c].frame = k + j;
        }
      /* The first child on top: its subtree comes next. */
      for (guint32 j = 0; j < m; j++)
        {
          stack[sp++] = family[j];
          stack[sp++] = k + m - 1 - j;
        }
      k += m;
    }
  g_assert (k == n);
  /* The parents came in order, the first children in the walk's. */
  sort_far (&tree->far_down);
  index_far (&tree->far_up, n);
  index_far (&tree->far_down, n);

  for (guint i = 0; i < self->n_threads; i++)
    {
      TvThread *t = &self->threads[i];

      for (guint64 r = 0; r < t->n_runs; r++)
        t->run_leaf[r] = links[t->run_leaf[r]].frame;
    }
  return TRUE;
}

/* Turns the thread's last block of timestamps into offsets, and gives
 * back what its stores reserved past their samples; FALSE when memory
 * runs out. */
static gboolean
finish_times (TvProfileData *self,
              TvThread      *t)
{
  SampleStore *stores = &self->stores[STORES_PER_THREAD * t->index];
  guint64 n = t->n_samples;
  guint64 n_blocks = (n + TV_TIMES_BLOCK - 1) / TV_TIMES_BLOCK;
  guint last = (guint) (n % TV_TIMES_BLOCK);

  if (last > 0 && !tv_profile_data_finish_times_block (self, t, n / TV_TIMES_BLOCK, last))
    return FALSE;
  tv_sample_store_shrink (&stores[STORE_TIMES], self->cursors[t->index].times_at);
  tv_sample_store_shrink (&stores[STORE_STATUSES], tv_statuses_size (&t->statuses, n));
  tv_sample_store_shrink (&stores[STORE_BLOCKS], n_blocks * sizeof (TvTimesBlock));
  t->statuses.bytes = stores[STORE_STATUSES].mem;
  t->times = (TvTimes) { (TvTimesBlock *) stores[STORE_BLOCKS].mem, stores[STORE_TIMES].mem, n };
  return TRUE;
}

static gboolean
shrink (TvProfileData *self,
        const Finish  *f)
{
  gboolean ok;

  /* The stores are cut to size below: what it was asked of them first. */
  if (self->prefaulter != NULL)
    tv_prefaulter_drain (self->prefaulter);
  for (guint i = 0; i < self->n_threads; i++)
    {
      TvThread *t = &self->threads[i];

      if (t->run_start == NULL)
        continue;
      if (!self->counts_only && !finish_times (self, t))
        return FALSE;
      t->run_start = g_renew (guint64, t->run_start, MAX (t->n_runs, 1));
      t->run_leaf = g_renew (guint32, t->run_leaf, MAX (t->n_runs, 1));
      if (t->run_states != NULL)
        t->run_states = g_renew (guint64, t->run_states, MAX (t->n_runs, 1) * TV_N_RUN_STATES);
      for (guint k = 0; k < 6; k++)
        self->status_counts[k] += t->status_counts[k];
    }

  ok = number_depth_first (self, f);
  /* It asked for pages of the links, freed below. */
  g_clear_pointer (&self->prefaulter, tv_prefaulter_free);
  if (!ok)
    return FALSE;
  g_clear_pointer (&self->slots, g_free);
  tv_profile_data_free_links (self, TRUE);
  g_clear_pointer (&self->hashed, g_free);
  for (guint i = 0; i < self->n_threads; i++)
    g_free (self->cursors[i].path);
  g_clear_pointer (&self->cursors, g_free);
  return TRUE;
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

gboolean
tv_profile_data_number_tree (TvProfileData *self,
                             TvFinishFunc   func,
                             gpointer       user_data)
{
  Finish f = { func, user_data };

  return number_depth_first (self, &f);
}

/* What a load does once it has every sample: the merge keys, the arrays
 * cut to size, the tree numbered, the threads' order and span and the
 * profiler's own functions.  The numbering is what takes time (a second
 * for tens of millions of nodes): it reports to FUNC. */
gboolean
tv_profile_data_finish_load (TvProfileData *self,
                             TvFinishFunc   func,
                             gpointer       user_data)
{
  Finish f = { func, user_data };

  build_keys (self);
  if (!shrink (self, &f))
    return FALSE;
  summarize_threads (self);
  find_internal (self);
  return TRUE;
}
