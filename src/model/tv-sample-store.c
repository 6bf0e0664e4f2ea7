/* tv-sample-store.c: the memory a load takes, and the arrays it writes
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A load charges what it allocates against a budget; a thread's
 * timestamps, statuses and blocks of timestamps are appended to arrays whose pages a second
 * thread makes resident ahead of the writes (see SampleStore).
 */
#include "tv-profile-data-private.h"

#include <errno.h>
#include <unistd.h>

#include "tv-tach-error.h"

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
gsize
tv_profile_data_memory_budget (void)
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
gboolean
tv_profile_data_charge (TvProfileData *self,
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

void
tv_profile_data_set_no_memory_error (TvProfileData  *self,
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
      pf->busy = TRUE;
      g_mutex_unlock (&pf->lock);
      populate (mem, size);
      g_mutex_lock (&pf->lock);
      pf->busy = FALSE;
      if (pf->head == pf->tail)
        g_cond_broadcast (&pf->idle);
    }
  g_mutex_unlock (&pf->lock);
  return NULL;
}

Prefaulter *
tv_prefaulter_new (void)
{
  Prefaulter *pf = g_new0 (Prefaulter, 1);

  g_mutex_init (&pf->lock);
  g_cond_init (&pf->cond);
  g_cond_init (&pf->idle);
  pf->thread = g_thread_try_new ("tv-prefault", prefaulter_main, pf, NULL);
  if (pf->thread == NULL)
    {
      g_mutex_clear (&pf->lock);
      g_cond_clear (&pf->cond);
      g_cond_clear (&pf->idle);
      g_clear_pointer (&pf, g_free);
    }
  return pf;
}

/* Drops what is still queued: the pages come by faults then. */
void
tv_prefaulter_free (Prefaulter *pf)
{
  g_mutex_lock (&pf->lock);
  pf->stop = TRUE;
  g_cond_signal (&pf->cond);
  g_mutex_unlock (&pf->lock);
  g_thread_join (pf->thread);
  g_mutex_clear (&pf->lock);
  g_cond_clear (&pf->cond);
  g_cond_clear (&pf->idle);
  g_free (pf);
}

/* Returns once what was queued is resident: before a block that was
 * queued moves or goes. */
void
tv_prefaulter_drain (Prefaulter *pf)
{
  g_mutex_lock (&pf->lock);
  while (pf->head != pf->tail || pf->busy)
    g_cond_wait (&pf->idle, &pf->lock);
  g_mutex_unlock (&pf->lock);
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

/* Whether a second thread makes pages resident (see
 * tv_profile_data_prefault_range()). */
gboolean
tv_profile_data_can_prefault (TvProfileData *self)
{
  return self->prefaulter != NULL && !g_atomic_int_get (&populate_unsupported);
}

/* Asks the second thread, if there is one, to make bytes FROM to TO of
 * the block at BASE resident, soon: from the start of FROM's page to the
 * start of TO's, so that ranges asked for one after the other leave no
 * page out, and none past the block's last page.  The pages keep what
 * they hold: the first thread may be writing them.  The block must not
 * move or go until tv_prefaulter_drain(). */
void
tv_profile_data_prefault_range (TvProfileData *self,
                                gconstpointer  base,
                                gsize          from,
                                gsize          to)
{
  gsize page = (gsize) sysconf (_SC_PAGESIZE);
  guintptr start = ((guintptr) base + from) / page * page;
  guintptr end = ((guintptr) base + to) / page * page;

  if (tv_profile_data_can_prefault (self) && end > start)
    prefault (self, (guint8 *) start, end - start);
}

/* Reserves RESERVE bytes of address space if RESERVE is not 0 and the
 * kernel agrees, else allocates INITIAL bytes. */
gboolean
tv_sample_store_init (TvProfileData *self,
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
  if (!tv_profile_data_charge (self, initial))
    return FALSE;
  store->mem = g_try_malloc (initial);
  store->size = store->populated = initial;
  return store->mem != NULL;
}

/* Makes bytes [0, BYTES) writable, and for a mapping, the next
 * POPULATE_BYTES resident; FALSE when memory runs out. */
gboolean
tv_sample_store_grow (TvProfileData *self,
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

          if (!tv_profile_data_charge (self, end - store->populated))
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

      if (!tv_profile_data_charge (self, size - store->size)
          || (mem = g_try_realloc (store->mem, size)) == NULL)
        return FALSE;
      store->mem = mem;
      store->size = store->populated = size;
    }
  return TRUE;
}


/* Gives back what is past the first BYTES bytes (at least one is kept). */
void
tv_sample_store_shrink (SampleStore *store,
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

void
tv_sample_store_clear (SampleStore *store)
{
  if (store->mapped > 0)
    munmap (store->mem, store->mapped);
  else
    g_free (store->mem);
  memset (store, 0, sizeof *store);
}

/* Whether every thread's samples can have a reservation for all of the
 * file's samples: the address space it takes stays bounded. */
guint64
tv_sample_store_reserve (TachReader *reader)
{
  const TachHeader *header = tach_reader_get_header (reader);
  guint64 threads = MIN (MAX (header->thread_count, 1), MAX_MAPPED_THREADS);
  guint64 budget = MIN (MAX_RESERVED_BYTES, G_MAXSIZE / 4);
  /* A sample's timestamp whole, its status and its share of a block. */
  guint64 per_thread = budget / threads / (sizeof (guint64) + 2);

  return header->sample_count <= per_thread ? header->sample_count : 0;
}
