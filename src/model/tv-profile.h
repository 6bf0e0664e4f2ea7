/* tv-profile.h: one profile file, loaded off the main thread
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "tv-call-tree.h"
#include "tv-metadata.h"
#include "tv-quality.h"

G_BEGIN_DECLS

#define TV_TYPE_PROFILE (tv_profile_get_type ())

G_DECLARE_FINAL_TYPE (TvProfile, tv_profile, TV, PROFILE, GObject)

typedef enum
{
  TV_PROFILE_NEW,        /* nothing read yet */
  TV_PROFILE_OPENING,    /* reading header, footer, stats and tables */
  TV_PROFILE_DECODING,   /* metadata available; samples being decoded */
  TV_PROFILE_LOADED,
  TV_PROFILE_FAILED,
} TvProfileState;

TvProfile         *tv_profile_new            (GFile                *file);
GFile             *tv_profile_get_file       (TvProfile            *self);

/* Loads the whole profile on a worker thread.  The "opened" signal fires
 * on the main loop as soon as the metadata can be read (before any sample
 * is decoded); the "samples-loaded" and "fraction" properties change at
 * most ten times a second while samples are decoded. */
void               tv_profile_load_async     (TvProfile            *self,
                                              GCancellable         *cancellable,
                                              GAsyncReadyCallback   callback,
                                              gpointer              user_data);
gboolean           tv_profile_load_finish    (TvProfile            *self,
                                              GAsyncResult         *result,
                                              GError              **error);

TvProfileState     tv_profile_get_state      (TvProfile            *self);
double             tv_profile_get_fraction   (TvProfile            *self);
guint64            tv_profile_get_samples_loaded (TvProfile        *self);

/* Metadata: from the OPENING state on, once "opened" has fired. */
const TvProfileHeader *tv_profile_get_header (TvProfile            *self);
const TvProfileFooter *tv_profile_get_footer (TvProfile            *self);
const TvProfileStats  *tv_profile_get_stats  (TvProfile            *self);
guint64            tv_profile_get_file_size  (TvProfile            *self);
const char * const *tv_profile_get_warnings  (TvProfile            *self);
/* The data-quality findings (TvFinding), worst first: from the metadata
 * once "opened" has fired, with those of the samples once LOADED; NULL
 * before.  Properties, the page's banner and exports all show these. */
GPtrArray         *tv_profile_get_findings   (TvProfile            *self);

/* The decoded samples, once LOADED; NULL before. */
TvProfileData     *tv_profile_get_data       (TvProfile            *self);
/* A tree of this many exact nodes or more is merged by function (see
 * tv_profile_data_add_merged()) when the merged one holds at most this
 * share of its nodes. */
#define TV_PROFILE_MERGE_MIN_NODES (1u << 20)
#define TV_PROFILE_MERGE_MAX_SHARE 0.5
/* Once LOADED, starts merging the tree by function on a thread of its
 * own, at the lowest priority, for the views that come after (their
 * results are the same, made faster), then makes what inverted trees
 * climb (tv_call_tree_prepare_inverted()); once, and only for a tree of
 * TV_PROFILE_MERGE_MIN_NODES or more.  Freeing the profile stops it. */
void               tv_profile_start_merging  (TvProfile            *self);
/* For tests: the exact nodes from which a tree is merged, in place of
 * TV_PROFILE_MERGE_MIN_NODES, for profiles merged after. */
void               tv_profile_set_merge_min_nodes (guint32        n_nodes);

/* What the file was when it was opened (size, modification time, inode),
 * from the OPENING state on; FALSE for a file that is not local, which is
 * read whole. */
gboolean           tv_profile_get_file_stamp (TvProfile            *self,
                                              TvFileStamp          *stamp);

typedef enum
{
  TV_PROFILE_FILE_UNCHANGED,
  TV_PROFILE_FILE_CHANGED,   /* another size, time or file at the path */
  TV_PROFILE_FILE_DELETED,   /* nothing at the path */
} TvProfileFileState;

/* Looks, on a worker thread, whether the file on disk is still the one
 * that was read: what a file monitor's events, which reads of the file
 * itself may cause on some file systems, are checked against.  A profile
 * without a stamp is always UNCHANGED. */
void               tv_profile_check_file_async  (TvProfile          *self,
                                                 GCancellable       *cancellable,
                                                 GAsyncReadyCallback callback,
                                                 gpointer            user_data);
TvProfileFileState tv_profile_check_file_finish (TvProfile          *self,
                                                 GAsyncResult       *result,
                                                 GError            **error);

/* For tests: HOOK is called on the loading thread of every profile, with
 * the path and the samples decoded so far, each time the decoder reports
 * progress (every 65536 samples), while the decoder waits.  NULL removes
 * it. */
typedef void     (*TvProfileLoadHook)        (const char           *path,
                                              guint64               samples,
                                              gpointer              user_data);
void               tv_profile_set_load_hook  (TvProfileLoadHook     hook,
                                              gpointer              user_data);

/* Computes a call tree on a worker thread. */
void               tv_profile_query_async    (TvProfile            *self,
                                              const TvQuery        *query,
                                              GCancellable         *cancellable,
                                              GAsyncReadyCallback   callback,
                                              gpointer              user_data);
void               tv_profile_query_with_progress_async (TvProfile           *self,
                                                         const TvQuery       *query,
                                                         TvProgressFunc       progress,
                                                         gpointer             progress_data,
                                                         GDestroyNotify       progress_destroy,
                                                         GCancellable        *cancellable,
                                                         GAsyncReadyCallback  callback,
                                                         gpointer             user_data);
TvCallTree        *tv_profile_query_finish   (TvProfile            *self,
                                              GAsyncResult         *result,
                                              GError              **error);

G_END_DECLS
