/* tv-export.h: what every export shares: the filters of the command line
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * `--export FORMAT` takes the same filters whatever the format: threads,
 * a thread state, a time range, the transforms (focus, hidden functions,
 * collapsed recursion), and what the view shows besides: the merge key,
 * inverted or not, the orientation, the zoom and the search.  They are
 * parsed into a TvExportFilter before the profile is read, and turned into
 * a TvQuery once it is loaded, so that every exporter selects its samples
 * through the model.  The viewer fills one from what the window shows.
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
 * -INFINITY and INFINITY leave an end open. */
typedef struct
{
  double start;
  double end;
} TvExportRange;

typedef struct
{
  GArray        *thread_ids;        /* guint64; empty: every thread */
  TvStateFilter  state;             /* the views' thread-state filters */
  /* Seconds after the header's start time; -INFINITY and INFINITY leave
   * an end open. */
  gboolean       has_range;
  double         range_start;
  double         range_end;
  /* And a selection of several time ranges (the heatmap's, or `--range`
   * given more than once): TvExportRange, sorted, with those that overlap
   * or touch merged (see tv_export_filter_add_ranges()); empty: none. */
  GArray        *ranges;
  gboolean       inverted;
  /* A regular expression (caseless) over function and file names: the
   * images dim what does not match, the page starts with it.  NULL or
   * empty: none.  Owned. */
  char          *search;

  TvMergeKey          merge;        /* TV_MERGE_FUNCTION by default */
  TvFlameOrientation  orientation;  /* flame by default */
  /* The zoom root, as the merge keys of the frames from the (inverted,
   * when inverted) tree's root down to it, the root not included; empty:
   * the whole tree.  Or ZOOM, as the command line spells it
   * ("FUNC;FUNC:LINE;…"), found once the tree is made.  Owned. */
  GArray             *zoom_path;    /* guint32 */
  char               *zoom;

  /* The view's transforms (see TvQuery), as function keys
   * (TV_MERGE_FUNCTION) of the profile, or by name ("name" or
   * "file:name"), found once it is loaded.  Owned. */
  gboolean            collapse_recursion;
  guint32             focus_function;   /* TV_NODE_NONE: none */
  GArray             *hidden_functions; /* guint32 */
  char               *focus_name;
  GPtrArray          *hidden_names;     /* char * */
} TvExportFilter;

/* A TvQuery made from a filter, with the storage it points into. */
typedef struct
{
  TvQuery  query;
  GArray  *threads;    /* guint32 */
  GArray  *hidden;     /* guint32 */
  GArray  *ranges;     /* TvTimeRange */
} TvExportQuery;

GQuark      tv_export_error_quark         (void);

/* The reader of the profile at PATH, or NULL with ERROR set (in
 * TV_TACH_ERROR). */
TachReader *tv_export_open_reader         (const char      *path,
                                           GError         **error);

void        tv_export_filter_init         (TvExportFilter  *filter);
void        tv_export_filter_clear        (TvExportFilter  *filter);
gboolean    tv_export_filter_add_thread   (TvExportFilter  *filter,
                                           const char      *text,
                                           GError         **error);
gboolean    tv_export_filter_set_state    (TvExportFilter  *filter,
                                           const char      *text,
                                           GError         **error);
gboolean    tv_export_filter_set_range    (TvExportFilter  *filter,
                                           const char      *text,
                                           GError         **error);
gboolean    tv_export_filter_add_range    (TvExportFilter  *filter,
                                           const char      *text,
                                           GError         **error);
void        tv_export_filter_add_ranges   (TvExportFilter  *filter,
                                           const TvExportRange *ranges,
                                           guint            n_ranges);
/* The seconds the ranges cover, an open end counting from (or to) FIRST
 * (LAST) seconds after the start time. */
double      tv_export_filter_get_ranges_seconds (const TvExportFilter *filter,
                                                 double                first,
                                                 double                last);
gboolean    tv_export_filter_set_merge    (TvExportFilter  *filter,
                                           const char      *text,
                                           GError         **error);
void        tv_export_filter_add_hidden   (TvExportFilter  *filter,
                                           const char      *name);
/* Checks what needs no profile: the search's syntax. */
gboolean    tv_export_filter_check        (const TvExportFilter *filter,
                                           GError         **error);
/* Whether the filter keeps every sample and every stack as it is (the
 * view aside: merge key, orientation, zoom, search). */
gboolean    tv_export_filter_selects_all  (const TvExportFilter *filter);
/* Whether the filter transforms the stacks (focus, hide, collapse). */
gboolean    tv_export_filter_has_transforms (const TvExportFilter *filter);
gboolean    tv_export_filter_make_query   (const TvExportFilter *filter,
                                           TvProfileData   *data,
                                           TvExportQuery   *query,
                                           GError         **error);
void        tv_export_query_clear         (TvExportQuery   *query);
TvProfileData *tv_export_filter_load      (const TvExportFilter *filter,
                                           TachReader      *reader,
                                           gboolean         count_states,
                                           GCancellable    *cancellable,
                                           GError         **error);
gboolean    tv_export_filter_find_zoom    (const TvExportFilter *filter,
                                           TvCallTree      *tree,
                                           GArray         **path,
                                           guint32         *node,
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

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (TvExportFilter, tv_export_filter_clear)
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (TvExportQuery, tv_export_query_clear)

G_END_DECLS
