/* tv-progress.h: a cancellable that also hears how far the work is
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A job that takes long (an export) hands its workers a TvProgress as
 * their GCancellable.  Whatever the job calls with it reports into it
 * without a parameter more: tv_call_tree_new() (and so every exporter's
 * tree) reports its steps, and code that knows its own stages marks them
 * with tv_progress_push() and tv_progress_pop(), which give the work that
 * follows a share of the share it had.  Each of those functions takes any
 * GCancellable, or NULL, and does nothing unless it is a TvProgress, so
 * that the same code runs where nobody watches (the command line).
 *
 * The fraction only grows, within [0, 1]: a report below what was said
 * before says nothing.  It is read on any thread; the pushes, pops and
 * reports are the one working thread's.
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define TV_TYPE_PROGRESS (tv_progress_get_type ())

G_DECLARE_FINAL_TYPE (TvProgress, tv_progress, TV, PROGRESS, GCancellable)

/* Called on the reporting thread each time the fraction grows, with the
 * new fraction; it may cancel the progress. */
typedef void (*TvProgressReportFunc) (TvProgress *progress,
                                      double      fraction,
                                      gpointer    user_data);

TvProgress *tv_progress_new          (void);
void        tv_progress_set_report_func (TvProgress           *self,
                                         TvProgressReportFunc  func,
                                         gpointer              user_data,
                                         GDestroyNotify        destroy);
/* The share of the whole done so far, from 0 to 1; on any thread. */
double      tv_progress_get_fraction (TvProgress   *self);

/* The work that follows, until the matching pop, is the share [FROM, TO)
 * (0 <= FROM <= TO <= 1) of the current stage; reports are fractions of
 * it.  Stages nest (up to 8 deep; deeper ones count as their parent). */
void        tv_progress_push         (GCancellable *cancellable,
                                      double        from,
                                      double        to);
/* Ends the innermost stage: the whole of it is done. */
void        tv_progress_pop          (GCancellable *cancellable);
/* FRACTION (clamped to [0, 1]) of the current stage is done. */
void        tv_progress_report       (GCancellable *cancellable,
                                      double        fraction);

G_END_DECLS
