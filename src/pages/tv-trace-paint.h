/* tv-trace-paint.h: a trace stage written once a widget has been drawn
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "tv-profile.h"
#include "tv-trace.h"

G_BEGIN_DECLS

/* Whether WIDGET has what it is to draw. */
typedef gboolean (*TvTraceReadyFunc) (GtkWidget *widget);

/* Writes STAGE (see tv-trace.h) for PROFILE after the first frame that
 * paints WIDGET once READY (NULL: now) says it has its content.  Does
 * nothing without TACHYON_VIEWER_TRACE, or once the stage is written. */
void tv_trace_paint (GtkWidget        *widget,
                     TvProfile        *profile,
                     const char       *stage,
                     TvTraceReadyFunc  ready);

G_END_DECLS
