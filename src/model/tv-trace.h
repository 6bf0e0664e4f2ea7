/* tv-trace.h: when the window's stages are done, for measuring from outside
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * With TACHYON_VIEWER_TRACE=FILE in the environment, each stage of a
 * profile's page appends one JSON line to FILE:
 *
 *   {"stage":"decoded","file":"big.tach","time_us":1234,"cpu_us":5678,"pid":42}
 *
 * time_us is g_get_monotonic_time (), cpu_us the CPU time of the whole
 * process (every thread), so that the time to a drawn flame graph can be
 * measured on any file, by a script, without a debugger.  A stage is
 * written once for each OWNER (the page's TvProfile: a reload is a new
 * one); the line is one write () to a file opened for appending, so the
 * lines of several processes do not mix.  Without the variable nothing is
 * written and the calls cost a getenv () once.
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* The stages, in the order a page goes through them. */
#define TV_TRACE_OPENED      "opened"       /* header and tables read */
/* The frame after the properties were filled in, on the page: they show
 * while the samples load, unless the load was done first. */
#define TV_TRACE_PROPERTIES  "properties"
#define TV_TRACE_DECODED     "decoded"      /* every sample loaded */
#define TV_TRACE_FLAME_GRAPH "flame_graph"  /* the first flame graph drawn */
#define TV_TRACE_TIMELINE    "timeline"     /* the timeline drawn */
#define TV_TRACE_SIDE_PANELS "side_panels"  /* the function table drawn */
#define TV_TRACE_MERGED      "merged"       /* the tree merged by function
                                             * made, or given up, and what
                                             * inverted trees climb made
                                             * (see
                                             * tv_profile_start_merging()) */

gboolean tv_trace_enabled    (void);
/* Whether STAGE was written for OWNER. */
gboolean tv_trace_stage_done (gpointer     owner,
                              const char  *stage);
/* Writes STAGE for OWNER (a GObject) and FILE, unless it was. */
void     tv_trace_stage      (gpointer     owner,
                              GFile       *file,
                              const char  *stage);

G_END_DECLS
