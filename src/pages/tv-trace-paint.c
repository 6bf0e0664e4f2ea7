/* tv-trace-paint.c: a trace stage written once a widget has been drawn
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * "Drawn" is the frame clock's after-paint of the first frame in which
 * the widget has its content: a tick callback (which runs in the update
 * phase of a frame, before its layout and paint) waits for READY, then
 * asks that frame's after-paint to write the stage.
 */
#include "tv-trace-paint.h"

typedef struct
{
  TvProfile        *profile;
  const char       *stage;
  char             *key;              /* the widget's mark of the wait */
  TvTraceReadyFunc  ready;
  gulong            handler;
} PaintTrace;

static void
paint_trace_free (gpointer data)
{
  PaintTrace *trace = data;

  g_object_unref (trace->profile);
  g_free (trace->key);
  g_free (trace);
}

static void
paint_trace_free_closure (gpointer  data,
                          GClosure *closure)
{
  paint_trace_free (data);
}

static void
on_after_paint (GdkFrameClock *clock,
                PaintTrace    *trace)
{
  tv_trace_stage (trace->profile, tv_profile_get_file (trace->profile), trace->stage);
  g_signal_handler_disconnect (clock, trace->handler);
}

static gboolean
on_tick (GtkWidget     *widget,
         GdkFrameClock *clock,
         gpointer       user_data)
{
  PaintTrace *trace = user_data;
  PaintTrace *after;

  if (trace->ready != NULL && !trace->ready (widget))
    return G_SOURCE_CONTINUE;
  /* The tick's copy goes with the tick callback (also when the widget
   * goes first); this one with the handler. */
  after = g_memdup2 (trace, sizeof *trace);
  g_object_ref (after->profile);
  after->key = NULL;
  /* The wait is over: a new profile (a reload) may wait again. */
  g_object_set_data (G_OBJECT (widget), trace->key, NULL);
  after->handler = g_signal_connect_data (clock, "after-paint", G_CALLBACK (on_after_paint),
                                          after, paint_trace_free_closure, 0);
  return G_SOURCE_REMOVE;
}

void
tv_trace_paint (GtkWidget        *widget,
                TvProfile        *profile,
                const char       *stage,
                TvTraceReadyFunc  ready)
{
  PaintTrace *trace;
  char *key;

  g_return_if_fail (GTK_IS_WIDGET (widget));
  g_return_if_fail (TV_IS_PROFILE (profile));

  if (!tv_trace_enabled () || tv_trace_stage_done (profile, stage))
    return;
  /* One wait a widget and stage at a time, however often its content
   * changes. */
  key = g_strconcat ("tv-trace-paint-", stage, NULL);
  if (g_object_get_data (G_OBJECT (widget), key) != NULL)
    {
      g_free (key);
      return;
    }
  g_object_set_data (G_OBJECT (widget), key, GINT_TO_POINTER (1));

  trace = g_new0 (PaintTrace, 1);
  trace->key = key;
  trace->profile = g_object_ref (profile);
  trace->stage = stage;
  trace->ready = ready;
  gtk_widget_add_tick_callback (widget, on_tick, trace, paint_trace_free);
  gtk_widget_queue_draw (widget);
}
