/* tv-export.h: what every export shares: the filters of the command line
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every exporter takes what is shown as a TvViewState (threads, a thread
 * state, time ranges, the transforms, the merge key, inverted or not, the
 * orientation, the zoom and the search): the window hands over a copy of
 * its own, the command line fills one from its options.  What the command
 * line says in words of the profile (thread ids, seconds, function names,
 * a zoom by name) is checked before the profile is read and found in it
 * once it is loaded (tv-export-query.c).
 */
#pragma once

#include <gio/gio.h>

#include "tv-call-tree.h"
#include "tv-flame-layout.h"
#include "tv-view-state.h"

G_BEGIN_DECLS

#define TV_EXPORT_ERROR (tv_export_error_quark ())

typedef enum
{
  TV_EXPORT_ERROR_INVALID_FILTER,   /* a filter that cannot be parsed */
  TV_EXPORT_ERROR_NO_SUCH_THREAD,   /* --thread names a thread the profile lacks */
  TV_EXPORT_ERROR_INVALID_OPTION,   /* an image option out of range or malformed */
  TV_EXPORT_ERROR_NO_SUCH_FRAME,    /* a zoom path that is not in the samples shown */
  TV_EXPORT_ERROR_NO_SUCH_FUNCTION, /* --focus or --hide names no function of the profile */
  TV_EXPORT_ERROR_NO_SAMPLES,       /* nothing selected, for a format that cannot say so */
} TvExportError;

/* A time range in seconds after the header's start time, [start, end);
 * -INFINITY and INFINITY leave an end open: what `--range` says before
 * the profile's start time is known. */
typedef struct
{
  double start;
  double end;
} TvExportRange;

/* As tachyon-format.h has it; above the model, only the exports use it. */
typedef struct TachDecoder TachDecoder;

GQuark      tv_export_error_quark         (void);

/* The reader of the profile at PATH, or NULL with ERROR set (in
 * TV_TACH_ERROR). */
TachReader *tv_export_open_reader         (const char      *path,
                                           GError         **error);
/* A decoder of READER's samples, or NULL with ERROR set (in
 * TV_TACH_ERROR). */
TachDecoder *tv_export_new_decoder        (TachReader      *reader,
                                           GError         **error);

/* The command line's words, checked before a profile is read. */
gboolean    tv_export_parse_thread_id     (const char      *text,
                                           guint64         *thread_id,
                                           GError         **error);
gboolean    tv_export_parse_state         (const char      *text,
                                           TvStateFilter   *state,
                                           GError         **error);
/* START:END in seconds after the start time; either end may be left out
 * (`2:`, `:1.5`). */
gboolean    tv_export_parse_range         (const char      *text,
                                           TvExportRange   *range,
                                           GError         **error);
gboolean    tv_export_parse_merge         (const char      *text,
                                           TvMergeKey      *merge,
                                           GError         **error);
/* Checks a zoom as the command line spells it ("FUNC;FUNC:LINE;…"). */
gboolean    tv_export_check_zoom_text     (const char      *zoom,
                                           GError         **error);
/* Checks that STATE's search is a regular expression. */
gboolean    tv_export_check_search        (TvViewState     *state,
                                           GError         **error);
/* Sorts RANGES (in seconds), drops the empty ones and merges those that
 * overlap or touch, in place; returns how many are left. */
guint       tv_export_ranges_normalize    (TvExportRange   *ranges,
                                           guint            n_ranges);

/* What needs the profile, found in it and set in STATE: the threads of
 * the N_IDS thread ids (fails for an id the profile lacks); the time range
 * and RANGES in seconds after the header's START_TIME (microseconds), as
 * timestamps; the functions named FOCUS (one function) and HIDDEN ("name"
 * or "file:name"; fails for a name the profile lacks). */
gboolean    tv_export_select_threads      (TvViewState     *state,
                                           TvProfileData   *data,
                                           const guint64   *thread_ids,
                                           guint            n_ids,
                                           GError         **error);
void        tv_export_select_seconds      (TvViewState     *state,
                                           guint64          start_time,
                                           const TvExportRange *range,
                                           const TvExportRange *ranges,
                                           guint            n_ranges);
gboolean    tv_export_find_functions      (TvViewState     *state,
                                           TvProfileData   *data,
                                           const char      *focus,
                                           const char * const *hidden,
                                           GError         **error);
/* Sets STATE's zoom path to the frames ZOOM ("FUNC;FUNC:LINE;…", a step
 * per frame from the root down) names in TREE (the tree drawn).  Fails
 * when a step is not in TREE, or matches several frames. */
gboolean    tv_export_find_zoom_text      (TvViewState     *state,
                                           TvCallTree      *tree,
                                           const char      *zoom,
                                           GError         **error);

/* The timestamp SECONDS after START_TIME, saturated to the u64 range
 * (-INFINITY: 0, INFINITY: G_MAXUINT64); and back, an open end (0 or
 * G_MAXUINT64) as -INFINITY or INFINITY. */
guint64     tv_export_seconds_to_timestamp (guint64         start_time,
                                            double          seconds);
double      tv_export_timestamp_to_seconds (guint64         start_time,
                                            guint64         timestamp);
/* STATE's time range (the return value says whether it has one) and
 * RANGES (TvExportRange, transfer full; empty for none) in seconds after
 * START_TIME: as tv_export_select_seconds() was given them while the
 * state still selects what they became, else its timestamps converted (an
 * open end is an infinity). */
gboolean    tv_export_get_seconds         (TvViewState     *state,
                                           guint64          start_time,
                                           TvExportRange   *range,
                                           GArray         **ranges);
/* The ids of STATE's threads in DATA, sorted, each once; NULL (and 0)
 * for every thread. */
guint64    *tv_export_dup_thread_ids      (TvViewState     *state,
                                           TvProfileData   *data,
                                           guint           *n_ids);

/* Whether STATE keeps every sample and every stack as it is (the view
 * aside: merge key, orientation, zoom, search). */
gboolean    tv_export_selects_all         (TvViewState     *state);
/* The query of the samples STATE selects in DATA, merged by its key and
 * transformed as it says, not inverted (each exporter applies the
 * orientation in its own way); it points into STATE's arrays.  Of a load
 * of counts made for STATE (tv_export_load()), it selects by thread only,
 * since the load kept only the state and time ranges' samples. */
void        tv_export_make_query          (TvViewState     *state,
                                           TvProfileData   *data,
                                           TvQuery         *query);
TvProfileData *tv_export_load             (TvViewState     *state,
                                           TachReader      *reader,
                                           gboolean         count_states,
                                           GCancellable    *cancellable,
                                           GError         **error);
/* Finds STATE's zoom path in TREE (made with its merge key, inverted when
 * it is drawn inverted): PATH its keys from the root's child down, NODE
 * the zoom root (TV_ROOT_NODE without a zoom).  Fails when a frame of the
 * path is not in TREE. */
gboolean    tv_export_find_zoom           (TvViewState     *state,
                                           TvCallTree      *tree,
                                           GArray         **path,
                                           guint32         *node,
                                           GError         **error);

/* Sets ERROR for work the model gave up on: a call tree or a layout is
 * only ever missing because CANCELLABLE was cancelled.  Returns FALSE. */
gboolean    tv_export_set_cancelled       (GCancellable    *cancellable,
                                           GError         **error);

/* For g_qsort_with_data () over thread indices of DATA: by thread id,
 * then interpreter, then index. */
int         tv_export_compare_threads     (gconstpointer    a,
                                           gconstpointer    b,
                                           gpointer         data);

/* The tree of QUERY's samples merged by line, not inverted, that counts
 * no states nor threads (with THREAD_SELF, each thread's own samples): what
 * CPython's collapsed stacks and pstats are made from.  NULL with ERROR
 * set when cancelled. */
TvCallTree *tv_export_line_tree           (TvProfileData   *data,
                                           const TvQuery   *query,
                                           gboolean         thread_self,
                                           GCancellable    *cancellable,
                                           GError         **error);

const char *tv_export_state_to_string     (TvStateFilter    state);
const char *tv_export_merge_to_string     (TvMergeKey       merge);

/* "function (file.py)" or "function (file.py:12)" for a merge key. */
char       *tv_export_describe_key        (TvProfileData   *data,
                                           TvMergeKey       merge,
                                           guint32          key);
GRegex     *tv_export_compile_search      (const char      *search,
                                           GError         **error);

G_END_DECLS
