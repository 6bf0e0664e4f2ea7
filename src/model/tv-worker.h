/* tv-worker.h: one kind of background job of an object, newest round only
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What STYLE.md asks of every job whose result the UI shows: a cancellable
 * and a generation number, so that a late, stale result never replaces a
 * newer one.  A TvWorker lives in its owner's instance struct (zeroed by
 * GObject).  Each round cancels the one before it and takes the next
 * generation; a result comes back to the owner only while its round is
 * still the newest, and the round is over (no longer busy) by then.
 *
 * tv_worker_run() runs a function on a thread with a GTask whose source
 * object is the owner (so the worker, inside it, outlives the round).  A
 * round of another API's _async calls uses tv_worker_begin() and, in the
 * callbacks, tv_worker_is_current() and tv_worker_end().  The owner's
 * dispose calls tv_worker_cancel(), so nothing comes back after it.
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

typedef struct
{
  GCancellable *cancellable;   /* the running round's; NULL when idle */
  guint         generation;    /* the newest round's */
} TvWorker;

/* On a worker thread: the result of JOB, or NULL for none. */
typedef gpointer (*TvWorkerFunc) (gpointer      job,
                                  GCancellable *cancellable);

/* On the main thread, for the newest round only: OWNER's RESULT (taken,
 * NULL for none) of JOB (borrowed: it is freed after the call). */
typedef void     (*TvWorkerDone) (gpointer      owner,
                                  gpointer      job,
                                  gpointer      result);

GCancellable *tv_worker_begin      (TvWorker       *worker);
gboolean      tv_worker_is_current (const TvWorker *worker,
                                    guint           generation);
void          tv_worker_end        (TvWorker       *worker);
void          tv_worker_cancel     (TvWorker       *worker);
gboolean      tv_worker_is_busy    (const TvWorker *worker);
void          tv_worker_run        (TvWorker       *worker,
                                    gpointer        owner,
                                    TvWorkerFunc    func,
                                    gpointer        job,
                                    GDestroyNotify  job_free,
                                    GDestroyNotify  result_free,
                                    TvWorkerDone    done);

G_END_DECLS
