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

/* g_new () and g_new0 () of N_STRUCTS STRUCT_TYPEs, on huge pages. */
#define tv_huge_new(struct_type, n_structs) \
  ((struct_type *) tv_huge_pages (g_new (struct_type, (n_structs)), \
                                  sizeof (struct_type) * (gsize) (n_structs)))
#define tv_huge_new0(struct_type, n_structs) \
  ((struct_type *) tv_huge_pages (g_new0 (struct_type, (n_structs)), \
                                  sizeof (struct_type) * (gsize) (n_structs)))
