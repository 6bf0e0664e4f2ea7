/* tv-progress.c: a cancellable that also hears how far the work is
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Being the cancellable itself, the sink reaches every function that
 * takes one, so that no exporter's signature grows a parameter for it.
 */

#include "tv-progress.h"

#define MAX_DEPTH 8
/* The fraction is kept in millionths, an int that any thread reads
 * atomically. */
#define SCALE 1000000.0

typedef struct
{
  double base;
  double span;
} Stage;

struct _TvProgress
{
  GCancellable          parent_instance;

  /* The working thread's. */
  Stage                 stages[MAX_DEPTH];
  guint                 depth;      /* stages[depth - 1] is the current one */
  guint                 overflow;   /* pushes past MAX_DEPTH */
  TvProgressReportFunc  func;
  gpointer              func_data;
  GDestroyNotify        func_destroy;

  gint                  millionths; /* atomic */
};

G_DEFINE_FINAL_TYPE (TvProgress, tv_progress, G_TYPE_CANCELLABLE)

static void
tv_progress_finalize (GObject *object)
{
  TvProgress *self = TV_PROGRESS (object);

  if (self->func_destroy != NULL)
    self->func_destroy (self->func_data);

  G_OBJECT_CLASS (tv_progress_parent_class)->finalize (object);
}

static void
tv_progress_class_init (TvProgressClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = tv_progress_finalize;
}

static void
tv_progress_init (TvProgress *self)
{
  self->stages[0].base = 0.0;
  self->stages[0].span = 1.0;
  self->depth = 1;
}

/**
 * tv_progress_new:
 *
 * Returns: (transfer full): a progress at 0, not cancelled
 */
TvProgress *
tv_progress_new (void)
{
  return g_object_new (TV_TYPE_PROGRESS, NULL);
}

/**
 * tv_progress_set_report_func:
 * @self: a progress
 * @func: (nullable): called on the reporting thread each time the
 *   fraction grows
 * @user_data: for @func
 * @destroy: (nullable): frees @user_data with @self, or with the next
 *   function set
 *
 * Set it before the work starts.
 */
void
tv_progress_set_report_func (TvProgress           *self,
                             TvProgressReportFunc  func,
                             gpointer              user_data,
                             GDestroyNotify        destroy)
{
  g_return_if_fail (TV_IS_PROGRESS (self));

  if (self->func_destroy != NULL)
    self->func_destroy (self->func_data);
  self->func = func;
  self->func_data = user_data;
  self->func_destroy = destroy;
}

double
tv_progress_get_fraction (TvProgress *self)
{
  g_return_val_if_fail (TV_IS_PROGRESS (self), 0.0);

  return g_atomic_int_get (&self->millionths) / SCALE;
}

/* Says that FRACTION of the whole is done, if that is more than before. */
static void
advance (TvProgress *self,
         double      fraction)
{
  gint millionths = (gint) (CLAMP (fraction, 0.0, 1.0) * SCALE);

  if (millionths <= g_atomic_int_get (&self->millionths))
    return;
  g_atomic_int_set (&self->millionths, millionths);
  if (self->func != NULL && !g_cancellable_is_cancelled (G_CANCELLABLE (self)))
    self->func (self, millionths / SCALE, self->func_data);
}

void
tv_progress_push (GCancellable *cancellable,
                  double        from,
                  double        to)
{
  TvProgress *self;
  const Stage *top;

  if (cancellable == NULL || !TV_IS_PROGRESS (cancellable))
    return;
  self = TV_PROGRESS (cancellable);
  g_return_if_fail (0.0 <= from && from <= to && to <= 1.0);

  if (self->depth == MAX_DEPTH)
    {
      self->overflow++;
      return;
    }
  top = &self->stages[self->depth - 1];
  self->stages[self->depth].base = top->base + top->span * from;
  self->stages[self->depth].span = top->span * (to - from);
  self->depth++;
  advance (self, self->stages[self->depth - 1].base);
}

void
tv_progress_pop (GCancellable *cancellable)
{
  TvProgress *self;
  const Stage *top;

  if (cancellable == NULL || !TV_IS_PROGRESS (cancellable))
    return;
  self = TV_PROGRESS (cancellable);

  if (self->overflow > 0)
    {
      self->overflow--;
      return;
    }
  g_return_if_fail (self->depth > 1);
  top = &self->stages[self->depth - 1];
  advance (self, top->base + top->span);
  self->depth--;
}

void
tv_progress_report (GCancellable *cancellable,
                    double        fraction)
{
  TvProgress *self;
  const Stage *top;

  if (cancellable == NULL || !TV_IS_PROGRESS (cancellable))
    return;
  self = TV_PROGRESS (cancellable);
  top = &self->stages[self->depth - 1];
  advance (self, top->base + top->span * CLAMP (fraction, 0.0, 1.0));
}
