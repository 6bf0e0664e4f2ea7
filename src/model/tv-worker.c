/* tv-worker.c: one kind of background job of an object, newest round only
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tv-worker.h"

typedef struct
{
  TvWorker       *worker;
  guint           generation;
  TvWorkerFunc    func;
  TvWorkerDone    done;
  gpointer        job;
  GDestroyNotify  job_free;
  GDestroyNotify  result_free;
} Round;

/**
 * tv_worker_begin:
 * @worker: a worker
 *
 * Starts a round: cancels the running one (its result will be dropped)
 * and makes the new round's cancellable.
 *
 * Returns: (transfer none): the round's cancellable; the round's
 *   generation is @worker->generation
 */
GCancellable *
tv_worker_begin (TvWorker *worker)
{
  g_return_val_if_fail (worker != NULL, NULL);

  tv_worker_cancel (worker);
  worker->cancellable = g_cancellable_new ();
  return worker->cancellable;
}

/* Whether the round of GENERATION is still the newest. */
gboolean
tv_worker_is_current (const TvWorker *worker,
                      guint           generation)
{
  g_return_val_if_fail (worker != NULL, FALSE);

  return generation == worker->generation;
}

/* The newest round is over: its result is in. */
void
tv_worker_end (TvWorker *worker)
{
  g_return_if_fail (worker != NULL);

  g_clear_object (&worker->cancellable);
}

/* Cancels the running round, if any: its result, when it comes, is
 * dropped. */
void
tv_worker_cancel (TvWorker *worker)
{
  g_return_if_fail (worker != NULL);

  worker->generation++;
  g_cancellable_cancel (worker->cancellable);
  g_clear_object (&worker->cancellable);
}

gboolean
tv_worker_is_busy (const TvWorker *worker)
{
  g_return_val_if_fail (worker != NULL, FALSE);

  return worker->cancellable != NULL;
}

static void
round_free (gpointer data)
{
  Round *round = data;

  if (round->job_free != NULL && round->job != NULL)
    round->job_free (round->job);
  g_free (round);
}

static void
round_thread (GTask        *task,
              gpointer      source_object,
              gpointer      task_data,
              GCancellable *cancellable)
{
  Round *round = task_data;

  g_task_return_pointer (task, round->func (round->job, cancellable), round->result_free);
}

static void
round_done (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  Round *round = g_task_get_task_data (G_TASK (result));
  gpointer value = g_task_propagate_pointer (G_TASK (result), NULL);

  /* Overtaken by a newer round, or cancelled. */
  if (!tv_worker_is_current (round->worker, round->generation))
    {
      if (value != NULL && round->result_free != NULL)
        round->result_free (value);
      return;
    }
  tv_worker_end (round->worker);
  round->done (object, round->job, value);
}

/**
 * tv_worker_run:
 * @worker: a worker inside @owner
 * @owner: (type GObject): the object the result is for
 * @func: what runs on a thread
 * @job: (transfer full): what @func works on
 * @job_free: frees @job, once the round is over
 * @result_free: frees a result that is dropped
 * @done: takes the result, on the main thread, if the round is newest
 *
 * Starts a round that runs @func (@job) on a thread.
 */
void
tv_worker_run (TvWorker       *worker,
               gpointer        owner,
               TvWorkerFunc    func,
               gpointer        job,
               GDestroyNotify  job_free,
               GDestroyNotify  result_free,
               TvWorkerDone    done)
{
  g_autoptr(GTask) task = NULL;
  GCancellable *cancellable;
  Round *round;

  g_return_if_fail (worker != NULL);
  g_return_if_fail (G_IS_OBJECT (owner));
  g_return_if_fail (func != NULL && done != NULL);

  cancellable = tv_worker_begin (worker);
  round = g_new0 (Round, 1);
  round->worker = worker;
  round->generation = worker->generation;
  round->func = func;
  round->done = done;
  round->job = job;
  round->job_free = job_free;
  round->result_free = result_free;
  task = g_task_new (owner, cancellable, round_done, NULL);
  g_task_set_source_tag (task, tv_worker_run);
  g_task_set_task_data (task, round, round_free);
  g_task_run_in_thread (task, round_thread);
}
