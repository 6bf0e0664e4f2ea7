/* tv-huge-pages.c: the big arrays of a view, mapped once and used again
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A block of TV_HUGE_PAGES_MIN_BYTES or more is a mapping of its own,
 * aligned to 2 MiB and asking for huge pages.  When it is freed it is
 * kept, up to a quarter of the machine's memory, for the next block that
 * fits in it: the next query of the same profile asks for arrays of the
 * same sizes, and takes them with no page fault and nothing for the
 * kernel to clear.  Which blocks are ours is known by their address, so
 * tv_huge_free() takes any block of the heap as well.  Kept blocks are
 * memory the process holds while the user only looks: they go back to the
 * system 30 seconds after the last one was kept (when the default main
 * context runs), and when a profile is closed.
 *
 * A block can also be kept with what it holds, under a tag, for the next
 * query that would compute the same again (tv_huge_keep ()).  It is
 * memory kept like any other: given back at the same times, and taken,
 * tag and all, by a new block that no untagged one has room for.  Blocks
 * of the heap are kept so too, and so are all blocks under a sanitizer.
 */
#include "tv-huge-pages.h"

#include <string.h>
#ifdef __GLIBC__
# include <malloc.h>
#endif

#define ALIGNMENT (2u << 20)
#define MAX_KEPT 64

typedef struct
{
  gpointer mem;
  gsize    size;
  /* Kept with what it holds (tv_huge_keep ()), else 0; a block of the
   * heap is kept only so. */
  guint64  tag;
  gboolean heap;
  /* Given by tv_huge_adopt (): taken only by a block of at least a
   * quarter of its size, and cut to that block's size, the rest kept the
   * same way (a query's first arrays take a tree's links: 12 bytes a
   * node, against 4 for its weights, then 4 for its node map). */
  gboolean adopted;
} Block;

static GMutex lock;
static gsize kept_bytes;
static gsize stats_mapped, stats_reused;
static guint trim_after_s = 30;

/* Blocks freed and kept, the most recently freed last. */
static Block kept[MAX_KEPT];
static guint n_kept;
/* On the default main context while blocks are kept. */
static GSource *trim_source;
static gint64 last_kept;

#if TV_HUGE_MAPPED
/* Every mapped block in use: its address to its size. */
static GHashTable *in_use;
#endif

static gsize
max_kept_bytes (void)
{
  static gsize max;

  if (max == 0)
    {
      long pages = sysconf (_SC_PHYS_PAGES);
      long page = sysconf (_SC_PAGESIZE);

      max = pages > 0 && page > 0 ? (gsize) pages * (gsize) page / 4 : (gsize) 1 << 30;
    }
  return max;
}

#if TV_HUGE_MAPPED
/* A new mapping of SIZE bytes (a multiple of ALIGNMENT) at an address
 * that is a multiple of ALIGNMENT, with mmap()'s FLAGS besides, or
 * NULL. */
static gpointer
map_aligned (gsize size,
             int   flags)
{
  guint8 *raw = mmap (NULL, size + ALIGNMENT, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS | flags, -1, 0);
  guint8 *mem;
  gsize head;

  if (raw == MAP_FAILED)
    return NULL;
  mem = (guint8 *) (((guintptr) raw + ALIGNMENT - 1) & ~(guintptr) (ALIGNMENT - 1));
  head = mem - raw;
  if (head > 0)
    munmap (raw, head);
  if (ALIGNMENT - head > 0)
    munmap (mem + size, ALIGNMENT - head);
# ifdef MADV_HUGEPAGE
  (void) madvise (mem, size, MADV_HUGEPAGE);
# endif
  return mem;
}
#endif

static gboolean trim_when_idle (gpointer user_data);

/* Called with the lock held. */
static void
schedule_trim (guint seconds)
{
  if (trim_source != NULL)
    {
      g_source_destroy (trim_source);
      g_source_unref (trim_source);
    }
  trim_source = g_timeout_source_new_seconds (seconds);
  g_source_set_callback (trim_source, trim_when_idle, NULL, NULL);
  g_source_set_static_name (trim_source, "[tachyon] trim kept arrays");
  g_source_attach (trim_source, NULL);
}

/* Takes the kept block I out of the list; called with the lock held. */
static Block
take_kept (guint i)
{
  Block block = kept[i];

  kept_bytes -= block.size;
  memmove (kept + i, kept + i + 1, (n_kept - i - 1) * sizeof (Block));
  n_kept--;
  return block;
}

/* Gives BLOCK back to the system. */
static void
give_back (Block block)
{
#if TV_HUGE_MAPPED
  if (!block.heap)
    {
      munmap (block.mem, block.size);
      return;
    }
#endif
  g_free (block.mem);
}

/* Gives the kept block I back; called with the lock held. */
static void
drop_kept (guint i)
{
  give_back (take_kept (i));
}

/* Adds BLOCK to the kept ones, the oldest going while there are too
 * many; called with the lock held. */
static void
add_kept (Block block)
{
  if (n_kept == MAX_KEPT)
    drop_kept (0);
  kept[n_kept++] = block;
  kept_bytes += block.size;
  while (kept_bytes > max_kept_bytes ())
    drop_kept (0);
  last_kept = g_get_monotonic_time ();
  if (trim_source == NULL)
    schedule_trim (trim_after_s);
}

gpointer
tv_huge_alloc (gsize    bytes,
               gboolean zeroed)
{
#if TV_HUGE_MAPPED
  gsize size = (bytes + ALIGNMENT - 1) & ~(gsize) (ALIGNMENT - 1);
  gpointer mem = NULL;
  gboolean fresh = FALSE;
  guint best = G_MAXUINT;

  if (bytes < TV_HUGE_PAGES_MIN_BYTES || size < bytes)
    return zeroed ? g_malloc0 (bytes) : g_malloc (bytes);

  g_mutex_lock (&lock);
  /* The smallest kept block it fits in: a bigger one's pages are there
   * already, and a new mapping beside it would only add to them.  One
   * kept with what it holds only when no other fits.  Of those of one
   * size, the one freed last: a query's arrays are made in one order and
   * freed in the other, so that each takes the block it had before, with
   * the pages it touched (in perf, deepgen 3M's zoom with detail spent
   * 16 % of its time clearing pages that another array of its size had
   * not touched; then none). */
  for (guint pass = 0; pass < 2 && best == G_MAXUINT; pass++)
    for (guint i = 0; i < n_kept; i++)
      if (!kept[i].heap && (kept[i].tag != 0) == pass && kept[i].size >= size
          && (!kept[i].adopted || kept[i].size / 4 <= size)
          && (best == G_MAXUINT || kept[i].size < kept[best].size
              /* What is kept with a tag goes oldest first. */
              || (kept[i].size == kept[best].size && pass == 0)))
        best = i;
  if (best != G_MAXUINT)
    {
      Block block = take_kept (best);

      /* Past the new block's, its pages are the next one's, or would
       * stay for nothing. */
      if (block.adopted && block.size > size)
        {
          Block rest = { (guint8 *) block.mem + size, block.size - size, 0, FALSE, TRUE };

          if (rest.size >= TV_HUGE_PAGES_MIN_BYTES)
            add_kept (rest);
          else
            give_back (rest);
        }
      else
        size = block.size;
      mem = block.mem;
      stats_reused++;
    }
  else
    {
      /* Room for it before it is mapped: the oldest kept blocks go. */
      while (n_kept > 0 && kept_bytes + size > max_kept_bytes ())
        drop_kept (0);
    }
  g_mutex_unlock (&lock);

  if (mem == NULL)
    {
      mem = map_aligned (size, 0);
      if (mem == NULL)
        g_error ("%s: failed to map %" G_GSIZE_FORMAT " bytes", G_STRLOC, size);
      fresh = TRUE;
    }

  g_mutex_lock (&lock);
  stats_mapped += fresh;
  if (in_use == NULL)
    in_use = g_hash_table_new (NULL, NULL);
  g_hash_table_insert (in_use, mem, GSIZE_TO_POINTER (size));
  g_mutex_unlock (&lock);

  /* A new mapping reads as zeroes. */
  if (zeroed && !fresh)
    memset (mem, 0, bytes);
  return mem;
#else
  return tv_huge_pages (zeroed ? g_malloc0 (bytes) : g_malloc (bytes), bytes);
#endif
}

gpointer
tv_huge_reserve (gsize *bytes)
{
#if TV_HUGE_MAPPED
  gsize size = (*bytes + ALIGNMENT - 1) & ~(gsize) (ALIGNMENT - 1);
  gpointer mem;

  if (size < *bytes || size > G_MAXSIZE - ALIGNMENT
      || (mem = map_aligned (size, MAP_NORESERVE)) == NULL)
    return NULL;
  *bytes = size;
  return mem;
#else
  return NULL;
#endif
}

void
tv_huge_unreserve (gpointer mem,
                   gsize    bytes)
{
#if TV_HUGE_MAPPED
  if (mem != NULL)
    munmap (mem, bytes);
#endif
}

void
tv_huge_adopt (gpointer mem,
               gsize    used,
               gsize    reserved)
{
#if TV_HUGE_MAPPED
  gsize size = MIN ((used + ALIGNMENT - 1) & ~(gsize) (ALIGNMENT - 1), reserved);

  if (mem == NULL)
    return;
  if (used < TV_HUGE_PAGES_MIN_BYTES || size > max_kept_bytes ())
    {
      munmap (mem, reserved);
      return;
    }
  if (size < reserved)
    munmap ((guint8 *) mem + size, reserved - size);
  g_mutex_lock (&lock);
  add_kept ((Block) { mem, size, 0, FALSE, TRUE });
  g_mutex_unlock (&lock);
#endif
}

void
tv_huge_free (gpointer mem)
{
#if TV_HUGE_MAPPED
  gpointer value;
  gsize size;

  if (mem == NULL)
    return;
  g_mutex_lock (&lock);
  if (in_use == NULL || !g_hash_table_steal_extended (in_use, mem, NULL, &value))
    {
      g_mutex_unlock (&lock);
      g_free (mem);
      return;
    }
  size = GPOINTER_TO_SIZE (value);
  if (size > max_kept_bytes ())
    {
      g_mutex_unlock (&lock);
      munmap (mem, size);
      return;
    }
  add_kept ((Block) { mem, size, 0, FALSE, FALSE });
  g_mutex_unlock (&lock);
#else
  g_free (mem);
#endif
}

void
tv_huge_keep (gpointer mem,
              gsize    bytes,
              guint64  tag)
{
  Block block = { mem, bytes, tag, TRUE };

  if (tag == 0)
    {
      tv_huge_free (mem);
      return;
    }
  if (mem == NULL)
    return;
  g_mutex_lock (&lock);
  /* What the last one kept with TAG holds is older. */
  for (guint i = 0; i < n_kept; i++)
    if (kept[i].tag == tag)
      {
        if (kept[i].heap)
          drop_kept (i);
        else
          kept[i].tag = 0;
        break;
      }
#if TV_HUGE_MAPPED
  {
    gpointer value;

    if (in_use != NULL && g_hash_table_steal_extended (in_use, mem, NULL, &value))
      block = (Block) { mem, GPOINTER_TO_SIZE (value), tag, FALSE };
  }
#endif
  if (block.size > max_kept_bytes ())
    give_back (block);
  else
    add_kept (block);
  g_mutex_unlock (&lock);
}

gpointer
tv_huge_take_kept (guint64 tag,
                   gsize   bytes)
{
  gpointer mem = NULL;

  g_return_val_if_fail (tag != 0, NULL);

  g_mutex_lock (&lock);
  for (guint i = 0; i < n_kept; i++)
    if (kept[i].tag == tag && kept[i].size >= bytes)
      {
        Block block = take_kept (i);

        mem = block.mem;
        stats_reused++;
#if TV_HUGE_MAPPED
        if (!block.heap)
          g_hash_table_insert (in_use, mem, GSIZE_TO_POINTER (block.size));
#endif
        break;
      }
  g_mutex_unlock (&lock);
  return mem;
}

gsize
tv_huge_size (gpointer mem)
{
  gsize size = 0;

#if TV_HUGE_MAPPED
  g_mutex_lock (&lock);
  if (in_use != NULL)
    size = GPOINTER_TO_SIZE (g_hash_table_lookup (in_use, mem));
  g_mutex_unlock (&lock);
#endif
  return size;
}

gpointer
tv_huge_realloc (gpointer mem,
                 gsize    old_bytes,
                 gsize    bytes)
{
  gpointer grown;
  gsize size = mem != NULL ? tv_huge_size (mem) : 0;

  if (size == 0)
    {
      /* The heap's: it grows in place when it can. */
      if (bytes < TV_HUGE_PAGES_MIN_BYTES || !TV_HUGE_MAPPED)
        return tv_huge_pages (g_realloc (mem, bytes), bytes);
    }
#if TV_HUGE_MAPPED
  else if (bytes <= size)
    {
      /* Shrunk in place: its tail goes back, and nothing is copied. */
      gsize kept_size = MAX ((bytes + ALIGNMENT - 1) & ~(gsize) (ALIGNMENT - 1), ALIGNMENT);

      if (kept_size < size)
        {
          g_mutex_lock (&lock);
          munmap ((guint8 *) mem + kept_size, size - kept_size);
          g_hash_table_insert (in_use, mem, GSIZE_TO_POINTER (kept_size));
          g_mutex_unlock (&lock);
        }
      return mem;
    }
#endif
  grown = tv_huge_alloc (bytes, FALSE);
  if (mem != NULL)
    memcpy (grown, mem, MIN (old_bytes, bytes));
  tv_huge_free (mem);
  return grown;
}

void
tv_huge_setup_heap (void)
{
#ifdef __GLIBC__
  /* Set, these no longer follow the sizes freed. */
  mallopt (M_MMAP_THRESHOLD, TV_HUGE_HEAP_MAX_BYTES);
  mallopt (M_TRIM_THRESHOLD, TV_HUGE_HEAP_KEEP_BYTES);
#endif
}

static gboolean
trim_when_idle (gpointer user_data)
{
  gint64 idle;

  g_mutex_lock (&lock);
  idle = (g_get_monotonic_time () - last_kept) / G_USEC_PER_SEC;
  /* The context holds the source while it runs. */
  g_clear_pointer (&trim_source, g_source_unref);
  if (idle >= trim_after_s)
    {
      while (n_kept > 0)
        drop_kept (n_kept - 1);
    }
  else if (n_kept > 0)
    schedule_trim (trim_after_s - (guint) idle);
  g_mutex_unlock (&lock);
  return G_SOURCE_REMOVE;
}

void
tv_huge_trim (void)
{
  g_mutex_lock (&lock);
  while (n_kept > 0)
    drop_kept (n_kept - 1);
  g_mutex_unlock (&lock);
}

void
tv_huge_set_trim_delay (guint seconds)
{
  g_mutex_lock (&lock);
  trim_after_s = MAX (seconds, 1);
  if (trim_source != NULL)
    schedule_trim (trim_after_s);
  g_mutex_unlock (&lock);
}

guint
tv_huge_get_trim_delay (void)
{
  guint seconds;

  g_mutex_lock (&lock);
  seconds = trim_after_s;
  g_mutex_unlock (&lock);
  return seconds;
}

void
tv_huge_get_stats (gsize *mapped,
                   gsize *reused,
                   gsize *kept_out)
{
  g_mutex_lock (&lock);
  if (mapped != NULL)
    *mapped = stats_mapped;
  if (reused != NULL)
    *reused = stats_reused;
  if (kept_out != NULL)
    *kept_out = kept_bytes;
  g_mutex_unlock (&lock);
}
