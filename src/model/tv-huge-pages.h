/* tv-huge-pages.h: the big arrays of a tree, on huge pages
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The tree of a deep profile is a dozen arrays of tens or hundreds of
 * megabytes, most of them read out of order.  In 4 KiB pages, a query of
 * such a tree spent a fifth of its time taking page faults, and its walks
 * miss the TLB; a transparent huge page is faulted in 2 MiB at a time and
 * a TLB entry covers 512 times as much.  Where the kernel gives huge pages
 * only to memory that asks for them (transparent_hugepage=madvise), this
 * asks.
 *
 * Only for an array that is written from its start on, or all over: a
 * huge page is 2 MiB of memory as soon as one byte of it is touched, so an
 * array that is touched in a few places (the exact nodes' weights in a
 * query of one thread or a time range, their state counts, which only
 * the leaves have, a hash table sized for the largest view) stays in
 * small pages.
 *
 * A view's arrays are also used again: a query of 23 million nodes spent a
 * quarter of its time on the kernel clearing the pages of arrays the same
 * sizes as the last query's, just freed.
 */
#pragma once

#include <glib.h>
#include <unistd.h>
#ifdef G_OS_UNIX
# include <sys/mman.h>
#endif

/* Smaller arrays are not worth a system call. */
#define TV_HUGE_PAGES_MIN_BYTES (8u << 20)

/* Asks for huge pages for the BYTES at MEM, a block of the heap; returns
 * MEM. */
static inline gpointer
tv_huge_pages (gpointer mem,
               gsize    bytes)
{
#ifdef MADV_HUGEPAGE
  if (mem != NULL && bytes >= TV_HUGE_PAGES_MIN_BYTES)
    {
      /* The whole pages the block is on: a block that has a mapping of its
       * own has all of it, so the mapping is not split. */
      guintptr page = (guintptr) sysconf (_SC_PAGESIZE);
      guintptr start = (guintptr) mem & ~(page - 1);
      guintptr end = ((guintptr) mem + bytes + page - 1) & ~(page - 1);

      (void) madvise ((void *) start, end - start, MADV_HUGEPAGE);
    }
#endif
  return mem;
}

/* g_new () and g_new0 () of N_STRUCTS STRUCT_TYPEs, in the heap, on huge
 * pages: for the load's arrays, which are grown with g_renew () and freed
 * with g_free (). */
#define tv_huge_heap_new(struct_type, n_structs) \
  ((struct_type *) tv_huge_pages (g_new (struct_type, (n_structs)), \
                                  sizeof (struct_type) * (gsize) (n_structs)))
#define tv_huge_heap_new0(struct_type, n_structs) \
  ((struct_type *) tv_huge_pages (g_new0 (struct_type, (n_structs)), \
                                  sizeof (struct_type) * (gsize) (n_structs)))

/* Whether a view's big arrays are mappings of their own, kept when freed
 * (see below): not under a sanitizer, whose checks see every block of the
 * heap. */
#if defined(__SANITIZE_ADDRESS__)
# define TV_HUGE_MAPPED 0
#elif defined(__has_feature)
# if __has_feature(address_sanitizer)
#  define TV_HUGE_MAPPED 0
# endif
#endif
#if !defined(TV_HUGE_MAPPED) && defined(G_OS_UNIX) && defined(MAP_ANONYMOUS)
# define TV_HUGE_MAPPED 1
#elif !defined(TV_HUGE_MAPPED)
# define TV_HUGE_MAPPED 0
#endif

/* The arrays of a view (tv-huge-pages.c): a block of
 * TV_HUGE_PAGES_MIN_BYTES or more is a mapping on huge pages, which
 * tv_huge_free () keeps for the next block that fits in it; a smaller one
 * is the heap's.  Such a block is freed with tv_huge_free (), which frees
 * any block of the heap too, and grown with tv_huge_realloc (), never
 * with g_free () or g_realloc (). */
gpointer tv_huge_alloc     (gsize    bytes,
                            gboolean zeroed);
void     tv_huge_free      (gpointer mem);
/* OLD_BYTES is how big MEM is. */
gpointer tv_huge_realloc   (gpointer mem,
                            gsize    old_bytes,
                            gsize    bytes);
/* Address space for *BYTES (rounded up to a whole number of huge pages,
 * which *BYTES then says), asking for huge pages, whose pages come as
 * they are first written (MAP_NORESERVE): for an array that grows but
 * must not move.  NULL when the kernel refuses, or when blocks are not
 * mappings (TV_HUGE_MAPPED); then use the heap.  It goes with
 * tv_huge_unreserve () or tv_huge_adopt (). */
gpointer tv_huge_reserve   (gsize   *bytes);
void     tv_huge_unreserve (gpointer mem,
                            gsize    bytes);
/* Gives the first USED bytes of MEM, a reservation of RESERVED bytes, to
 * the kept blocks, pages and all, and unmaps the rest: the next block of
 * at least a quarter of its size takes it, without a page to fault, and
 * what it does not need is kept the same way (or unmapped, under
 * TV_HUGE_PAGES_MIN_BYTES).  A reservation of less than
 * TV_HUGE_PAGES_MIN_BYTES used is unmapped. */
void     tv_huge_adopt     (gpointer mem,
                            gsize    used,
                            gsize    reserved);
/* Keeps MEM, a block of BYTES from tv_huge_alloc () or of the heap, with
 * what it holds, for tv_huge_take_kept () with the same TAG until the
 * kept blocks go back; it is then no longer the caller's.  What was kept
 * with TAG before is kept with none (a mapping), or freed (of the heap).
 * TAG 0 frees MEM as tv_huge_free () does. */
void     tv_huge_keep      (gpointer mem,
                            gsize    bytes,
                            guint64  tag);
/* The block of at least BYTES last kept with TAG, as it was kept, to be
 * freed (or kept) again; NULL when there is none. */
gpointer tv_huge_take_kept (guint64  tag,
                            gsize    bytes);
/* The size of the mapping MEM is, or 0 if it is not one. */
gsize    tv_huge_size      (gpointer mem);
/* Unmaps the blocks kept: when a profile is closed, and by itself once no
 * block was kept for SECONDS (30 unless set; for tests) while the default
 * main context runs. */
void     tv_huge_trim      (void);
void     tv_huge_set_trim_delay (guint seconds);
/* That delay, which what else a query keeps for the next follows too. */
guint    tv_huge_get_trim_delay (void);
/* Has the heap keep what it is given back: a block of up to
 * TV_HUGE_HEAP_MAX_BYTES comes from the heap, not from a mapping of its
 * own that is unmapped when freed, and the heap keeps up to
 * TV_HUGE_HEAP_KEEP_BYTES free at its end.  Those are the most glibc's own
 * thresholds grow to, but they grow only as far as the biggest block
 * freed so far.  A view's arrays under TV_HUGE_PAGES_MIN_BYTES (bitmaps of
 * the exact nodes, each hit's node, the view's own nodes) then take the
 * pages of the last view's: a zoom on deepgen 3M took some 15,000 new
 * pages for the kernel to clear at every query, and now takes none.  For
 * the process's start, before any thread allocates: the viewer and the
 * benchmarks call it.  glibc only. */
#define TV_HUGE_HEAP_MAX_BYTES  (32u << 20)
#define TV_HUGE_HEAP_KEEP_BYTES (64u << 20)
void     tv_huge_setup_heap (void);
/* How many blocks were mapped and how many kept ones used again, and how
 * many bytes are kept now. */
void     tv_huge_get_stats (gsize   *mapped,
                            gsize   *reused,
                            gsize   *kept);

static inline void
tv_huge_free_ptr (gpointer pointer_to_mem)
{
  tv_huge_free (*(gpointer *) pointer_to_mem);
}

/* Like g_autofree, for tv_huge_new () and tv_huge_new0 (). */
#define tv_autohuge __attribute__ ((cleanup (tv_huge_free_ptr)))

#define tv_huge_new(struct_type, n_structs) \
  ((struct_type *) tv_huge_alloc (sizeof (struct_type) * (gsize) (n_structs), FALSE))
#define tv_huge_new0(struct_type, n_structs) \
  ((struct_type *) tv_huge_alloc (sizeof (struct_type) * (gsize) (n_structs), TRUE))
#define tv_huge_renew(struct_type, mem, old_n, n_structs) \
  ((struct_type *) tv_huge_realloc ((mem), sizeof (struct_type) * (gsize) (old_n), \
                                    sizeof (struct_type) * (gsize) (n_structs)))
