/* test-worker.c: TvWorker delivers the newest round's result only
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <gio/gio.h>

#include "tv-worker.h"

/* A job: a number to return, once the test lets it go. */
typedef struct
{
  guint   value;
  GMutex *lock;         /* held by the test until the job may finish */
  guint  *n_freed;
} Job;

typedef struct
{
  TvWorker  worker;
  GObject  *owner;
  GArray   *done;       /* guint: the values delivered, in order */
  guint     n_results_freed;
} Fixture;

/* GTask frees its data where its last reference goes: on the main thread
 * or on the worker's. */
static void
job_free (gpointer data)
{
  Job *job = data;

  g_atomic_int_inc ((gint *) job->n_freed);
  g_free (job);
}

static gpointer
run_job (gpointer      data,
         GCancellable *cancellable)
{
  Job *job = data;

  g_mutex_lock (job->lock);
  g_mutex_unlock (job->lock);
  return g_memdup2 (&job->value, sizeof job->value);
}

static Fixture *current;

static void
result_free (gpointer data)
{
  g_atomic_int_inc ((gint *) &current->n_results_freed);
  g_free (data);
}

static void
job_done (gpointer owner,
          gpointer data,
          gpointer result)
{
  Job *job = data;

  g_assert_true (owner == current->owner);
  g_assert_nonnull (result);
  g_assert_cmpuint (*(guint *) result, ==, job->value);
  /* The round is over before its result comes. */
  g_assert_false (tv_worker_is_busy (&current->worker));
  g_array_append_val (current->done, job->value);
  g_free (result);
}

static Job *
job_new (guint   value,
         GMutex *lock,
         guint  *n_freed)
{
  Job *job = g_new0 (Job, 1);

  job->value = value;
  job->lock = lock;
  job->n_freed = n_freed;
  return job;
}

/* Waits until N jobs have been freed: every round has come back.  The
 * last may be freed on a worker thread, which wakes no main loop, so the
 * count is polled. */
static void
wait_for (guint *n_freed,
          guint  n)
{
  while ((guint) g_atomic_int_get ((gint *) n_freed) < n)
    if (!g_main_context_iteration (NULL, FALSE))
      g_usleep (1000);
}

static void
test_newest_only (void)
{
  Fixture f = { { NULL, 0 }, g_object_new (G_TYPE_OBJECT, NULL),
                g_array_new (FALSE, FALSE, sizeof (guint)), 0 };
  GMutex lock;
  guint n_freed = 0;

  current = &f;
  g_mutex_init (&lock);
  g_mutex_lock (&lock);
  tv_worker_run (&f.worker, f.owner, run_job, job_new (1, &lock, &n_freed), job_free,
                 result_free, job_done);
  g_assert_true (tv_worker_is_busy (&f.worker));
  /* A second round overtakes the first, which still runs. */
  tv_worker_run (&f.worker, f.owner, run_job, job_new (2, &lock, &n_freed), job_free,
                 result_free, job_done);
  g_mutex_unlock (&lock);
  wait_for (&n_freed, 2);
  g_assert_cmpuint (f.done->len, ==, 1);
  g_assert_cmpuint (g_array_index (f.done, guint, 0), ==, 2);
  /* The first round's result was dropped and freed, unless its task saw
   * the cancellation first (then it never reached us). */
  g_assert_cmpuint ((guint) g_atomic_int_get ((gint *) &f.n_results_freed), <=, 1);
  g_assert_false (tv_worker_is_busy (&f.worker));

  /* A cancelled round delivers nothing. */
  g_mutex_lock (&lock);
  tv_worker_run (&f.worker, f.owner, run_job, job_new (3, &lock, &n_freed), job_free,
                 result_free, job_done);
  tv_worker_cancel (&f.worker);
  g_assert_false (tv_worker_is_busy (&f.worker));
  g_mutex_unlock (&lock);
  wait_for (&n_freed, 3);
  g_assert_cmpuint (f.done->len, ==, 1);

  g_mutex_clear (&lock);
  g_array_unref (f.done);
  g_object_unref (f.owner);
  current = NULL;
}

static void
test_rounds (void)
{
  TvWorker worker = { NULL, 0 };
  GCancellable *first, *second;
  guint generation;

  first = g_object_ref (tv_worker_begin (&worker));
  generation = worker.generation;
  g_assert_true (tv_worker_is_busy (&worker));
  g_assert_true (tv_worker_is_current (&worker, generation));
  second = tv_worker_begin (&worker);
  /* A new round cancels the one before it and makes it stale. */
  g_assert_true (g_cancellable_is_cancelled (first));
  g_assert_false (g_cancellable_is_cancelled (second));
  g_assert_false (tv_worker_is_current (&worker, generation));
  g_assert_true (tv_worker_is_current (&worker, worker.generation));
  tv_worker_end (&worker);
  g_assert_false (tv_worker_is_busy (&worker));
  g_object_unref (first);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/model/worker/rounds", test_rounds);
  g_test_add_func ("/model/worker/newest-only", test_newest_only);
  return g_test_run ();
}
