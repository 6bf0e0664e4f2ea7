/* tv-profile.c: one profile file, loaded off the main thread
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The worker thread opens the file (header, footer, statistics, tables),
 * hands a copy of the metadata to the main loop at once, then decodes the
 * samples into a TvProfileData.  Nothing that grows with the file happens
 * on the main thread.
 */
#include "tv-profile.h"
#include "tv-metadata-reader.h"
#include "tachyon-format.h"

#include <errno.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <string.h>

#ifdef __linux__
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

#include "tv-tach-error.h"
#include "tv-trace.h"

#define PROGRESS_INTERVAL_US (G_USEC_PER_SEC / 10)
#define LOADER_NICE 10

struct _TvProfile
{
  GObject         parent_instance;
  GFile          *file;
  TvProfileState  state;
  double          fraction;
  guint64         samples_loaded;

  gboolean        has_metadata;
  TvProfileHeader header;
  TvProfileFooter footer;
  TvProfileStats  stats;
  guint64         file_size;
  char          **warnings;
  GPtrArray      *findings;
  gboolean        has_stamp;
  TvFileStamp     stamp;

  TvProfileData  *data;
  /* Cancels the merging of the tree (tv_profile_start_merging()), NULL
   * before it starts. */
  GCancellable   *merging;
};

static TvProfileLoadHook load_hook;
static gpointer load_hook_data;

G_DEFINE_FINAL_TYPE (TvProfile, tv_profile, G_TYPE_OBJECT)

enum
{
  PROP_0,
  PROP_FILE,
  PROP_STATE,
  PROP_FRACTION,
  PROP_SAMPLES_LOADED,
  N_PROPS
};

enum
{
  OPENED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

static void
set_state (TvProfile      *self,
           TvProfileState  state)
{
  if (self->state != state)
    {
      self->state = state;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STATE]);
    }
}

static void
set_progress (TvProfile *self,
              guint64    samples,
              double     fraction)
{
  g_object_freeze_notify (G_OBJECT (self));
  if (self->samples_loaded != samples)
    {
      self->samples_loaded = samples;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SAMPLES_LOADED]);
    }
  if (self->fraction != fraction)
    {
      self->fraction = fraction;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FRACTION]);
    }
  g_object_thaw_notify (G_OBJECT (self));
}

/* What travels from the worker to the main loop. */
typedef struct
{
  TvProfile  *profile;
  TvProfileHeader header;
  TvProfileFooter footer;
  TvProfileStats  stats;
  guint64     file_size;
  char      **warnings;
  gboolean    has_stamp;
  TvFileStamp stamp;
  guint64     samples;
  double      fraction;
} Message;

static void
message_free (gpointer data)
{
  Message *m = data;

  g_clear_object (&m->profile);
  g_strfreev (m->warnings);
  g_free (m);
}

/* The reader's header, footer, statistics and stamp in the model's types. */
static void
copy_metadata (TachReader *reader,
               Message    *m)
{
  tv_metadata_from_reader (reader, &m->header, &m->footer, &m->stats, &m->has_stamp, &m->stamp);
}

/* What the metadata says now, and what the samples add once they are in:
 * constant time either way. */
static void
update_findings (TvProfile *self)
{
  g_clear_pointer (&self->findings, g_ptr_array_unref);
  if (self->data != NULL)
    self->findings = tv_quality_check_data (self->data);
  else
    {
      TvQualityFacts facts = {
        .header = &self->header,
        .stats = &self->stats,
        .file_warnings = (const char * const *) self->warnings,
      };

      self->findings = tv_quality_check (&facts);
    }
}

static gboolean
deliver_metadata (gpointer data)
{
  Message *m = data;
  TvProfile *self = m->profile;

  /* A finished load (say, cancelled at once) makes this stale. */
  if (self->state != TV_PROFILE_OPENING)
    return G_SOURCE_REMOVE;

  self->header = m->header;
  self->footer = m->footer;
  self->stats = m->stats;
  self->file_size = m->file_size;
  g_strfreev (self->warnings);
  self->warnings = g_steal_pointer (&m->warnings);
  self->has_stamp = m->has_stamp;
  self->stamp = m->stamp;
  self->has_metadata = TRUE;
  update_findings (self);
  set_state (self, TV_PROFILE_DECODING);
  g_signal_emit (self, signals[OPENED], 0);
  return G_SOURCE_REMOVE;
}

static gboolean
deliver_progress (gpointer data)
{
  Message *m = data;

  if (m->profile->state == TV_PROFILE_DECODING)
    set_progress (m->profile, m->samples, m->fraction);
  return G_SOURCE_REMOVE;
}

typedef struct
{
  TvProfile    *profile;
  GFile        *file;
  char         *path;
  GMainContext *context;
  gint64        last_progress;
} LoadJob;

static void
load_job_free (gpointer data)
{
  LoadJob *job = data;

  g_clear_object (&job->profile);
  g_clear_object (&job->file);
  g_free (job->path);
  g_main_context_unref (job->context);
  g_free (job);
}

static void
post (LoadJob     *job,
      GSourceFunc  func,
      Message     *m)
{
  g_autoptr(GSource) source = g_idle_source_new ();

  /* Always through a source: g_main_context_invoke() would call FUNC
   * right here, on the worker thread, whenever no thread owns the context
   * at that moment (between two iterations of the main loop). */
  m->profile = g_object_ref (job->profile);
  g_source_set_priority (source, G_PRIORITY_DEFAULT);
  g_source_set_callback (source, func, m, message_free);
  g_source_set_static_name (source, "[tv] profile load message");
  g_source_attach (source, job->context);
}

static void
on_progress (guint64  samples,
             double   fraction,
             gpointer user_data)
{
  LoadJob *job = user_data;
  gint64 now = g_get_monotonic_time ();
  Message *m;

  if (load_hook != NULL && job->path != NULL)
    load_hook (job->path, samples, load_hook_data);
  if (now - job->last_progress < PROGRESS_INTERVAL_US && fraction < 1.0)
    return;
  job->last_progress = now;
  m = g_new0 (Message, 1);
  m->samples = samples;
  m->fraction = fraction;
  post (job, deliver_progress, m);
}

/* Loading is background work: under contention the main loop (and the
 * renderer's threads) come first, so that a window drawn by a software
 * renderer stays smooth while both cores decode.  On Linux, nice is per
 * thread and the decompression thread the decoder starts inherits it.  A
 * pool thread cannot be made nicer again without privileges, so it stays
 * at this level for the other background tasks it runs (they are views
 * being computed: background work too). */
static void
lower_thread_priority (int nice)
{
#ifdef __linux__
  pid_t tid = (pid_t) syscall (SYS_gettid);
  int current;

  errno = 0;
  current = getpriority (PRIO_PROCESS, (id_t) tid);
  if (errno == 0 && current < nice)
    setpriority (PRIO_PROCESS, (id_t) tid, nice);
#endif
}

/* The library says a file could not be opened, in the words of strerror
 * (): what the error page tells the user to do differs for a file that
 * is not there and one that may not be read, so say which in GIO's codes,
 * as a file that is not local already does.  Here on the worker: this
 * looks at the file system. */
static void
refine_io_error (GError     *error,
                 const char *path)
{
  if (g_access (path, F_OK) != 0)
    {
      if (errno == ENOENT || errno == ENOTDIR)
        {
          error->domain = G_IO_ERROR;
          error->code = G_IO_ERROR_NOT_FOUND;
        }
    }
  else if (g_access (path, R_OK) != 0 && errno == EACCES)
    {
      error->domain = G_IO_ERROR;
      error->code = G_IO_ERROR_PERMISSION_DENIED;
    }
}

static void
load_thread (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  LoadJob *job = task_data;
  TachReader *reader = NULL;
  TachError tach_error;
  TachStatus status;
  GError *error = NULL;
  g_autoptr(GBytes) bytes = NULL;
  TvProfileData *data;
  Message *m;

  lower_thread_priority (LOADER_NICE);

  if (job->path != NULL)
    status = tach_reader_open_path (job->path, &reader, &tach_error);
  else
    {
      /* Not a local file (the bundled demo in the resources, a GVfs
       * location): read it whole, here on the worker, and keep the bytes
       * with the data, which reads its strings from them. */
      g_autofree char *contents = NULL;
      g_autoptr(GFileInfo) info = NULL;
      gsize length = 0;

      /* As the format library does for local files: a special file of a
       * backend could block the read, or never end. */
      info = g_file_query_info (job->file, G_FILE_ATTRIBUTE_STANDARD_TYPE,
                                G_FILE_QUERY_INFO_NONE, cancellable, &error);
      if (info == NULL)
        {
          g_task_return_error (task, error);
          return;
        }
      if (g_file_info_get_file_type (info) != G_FILE_TYPE_REGULAR)
        {
          g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_NOT_REGULAR_FILE,
                                   _("This is not a regular file: a profile must be a file"));
          return;
        }
      if (!g_file_load_contents (job->file, cancellable, &contents, &length, NULL, &error))
        {
          g_task_return_error (task, error);
          return;
        }
      bytes = g_bytes_new_take (g_steal_pointer (&contents), length);
      status = tach_reader_open_memory (g_bytes_get_data (bytes, NULL), length,
                                        &reader, &tach_error);
    }
  if (status != TACH_OK)
    {
      tv_tach_error_propagate (&error, status, &tach_error);
      if (status == TACH_ERROR_IO && job->path != NULL)
        refine_io_error (error, job->path);
      g_task_return_error (task, error);
      return;
    }

  m = g_new0 (Message, 1);
  copy_metadata (reader, m);
  m->file_size = tach_reader_get_file_size (reader);
  m->warnings = g_new0 (char *, tach_reader_get_n_warnings (reader) + 1);
  for (gsize i = 0; i < tach_reader_get_n_warnings (reader); i++)
    m->warnings[i] = g_strdup (tach_reader_get_warning (reader, i));
  post (job, deliver_metadata, m);

  job->last_progress = g_get_monotonic_time ();
  data = tv_profile_data_load (reader, on_progress, job, cancellable, &error);
  if (data == NULL)
    {
      g_task_return_error (task, error);
      return;
    }
  if (bytes != NULL)
    tv_profile_data_keep_bytes (data, bytes);
  g_task_return_pointer (task, data, (GDestroyNotify) tv_profile_data_unref);
}

/* Runs on the main loop before the caller's callback, so that the state
 * is right when the caller looks. */
static void
load_done (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(GTask) outer = user_data;
  TvProfile *self = TV_PROFILE (object);
  GError *error = NULL;
  TvProfileData *data;

  data = g_task_propagate_pointer (G_TASK (result), &error);
  if (data == NULL)
    {
      set_state (self, TV_PROFILE_FAILED);
      g_task_return_error (outer, error);
      return;
    }

  self->data = data;
  update_findings (self);
  set_progress (self, tv_profile_data_get_n_samples (data), 1.0);
  set_state (self, TV_PROFILE_LOADED);
  g_task_return_boolean (outer, TRUE);
}

void
tv_profile_load_async (TvProfile           *self,
                       GCancellable        *cancellable,
                       GAsyncReadyCallback  callback,
                       gpointer             user_data)
{
  g_autoptr(GTask) inner = NULL;
  GTask *outer;
  LoadJob *job;

  g_return_if_fail (TV_IS_PROFILE (self));
  g_return_if_fail (self->state == TV_PROFILE_NEW);

  outer = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (outer, tv_profile_load_async);
  /* Once the data is in, the result must say so, even if a cancel came
   * in the meantime. */
  g_task_set_check_cancellable (outer, FALSE);

  job = g_new0 (LoadJob, 1);
  job->profile = g_object_ref (self);
  job->file = g_object_ref (self->file);
  job->path = g_file_get_path (self->file);
  job->context = g_main_context_ref_thread_default ();

  set_state (self, TV_PROFILE_OPENING);
  inner = g_task_new (self, cancellable, load_done, outer);
  g_task_set_task_data (inner, job, load_job_free);
  /* Cancellation is the worker's to report: data that is in stays in. */
  g_task_set_check_cancellable (inner, FALSE);
  g_task_run_in_thread (inner, load_thread);
}

gboolean
tv_profile_load_finish (TvProfile     *self,
                        GAsyncResult  *result,
                        GError       **error)
{
  g_return_val_if_fail (TV_IS_PROFILE (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  return g_task_propagate_boolean (G_TASK (result), error);
}

typedef struct
{
  TvQuery         query;
  guint32        *threads;
  guint32        *hidden;
  guint32        *detail_path;
  TvCallTree     *functions_of;
  TvTimeRange    *ranges;
  TvProgressFunc  progress;
  gpointer        progress_data;
  GDestroyNotify  progress_destroy;
} QueryJob;

static void
query_job_free (gpointer data)
{
  QueryJob *job = data;

  if (job->progress_destroy != NULL)
    job->progress_destroy (job->progress_data);

  g_free (job->threads);
  g_free (job->hidden);
  g_free (job->detail_path);
  g_clear_pointer (&job->functions_of, tv_call_tree_unref);
  g_free (job->ranges);
  g_free (job);
}

static void
query_thread (GTask        *task,
              gpointer      source_object,
              gpointer      task_data,
              GCancellable *cancellable)
{
  QueryJob *job = task_data;
  TvCallTree *tree;

  tree = tv_call_tree_new_with_progress (tv_profile_get_data (TV_PROFILE (source_object)),
                                         &job->query, job->progress, job->progress_data,
                                         cancellable);
  if (tree == NULL)
    g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CANCELLED, _("Cancelled"));
  else
    g_task_return_pointer (task, tree, (GDestroyNotify) tv_call_tree_unref);
}

void
tv_profile_query_async (TvProfile           *self,
                        const TvQuery       *query,
                        GCancellable        *cancellable,
                        GAsyncReadyCallback  callback,
                        gpointer             user_data)
{
  tv_profile_query_with_progress_async (self, query, NULL, NULL, NULL, cancellable, callback,
                                        user_data);
}

/**
 * tv_profile_query_with_progress_async:
 *
 * Like tv_profile_query_async(), calling @progress on the worker now and
 * then (see tv_call_tree_new_with_progress()); @progress_destroy frees
 * @progress_data once the worker is done with it.
 */
void
tv_profile_query_with_progress_async (TvProfile           *self,
                                      const TvQuery       *query,
                                      TvProgressFunc       progress,
                                      gpointer             progress_data,
                                      GDestroyNotify       progress_destroy,
                                      GCancellable        *cancellable,
                                      GAsyncReadyCallback  callback,
                                      gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  QueryJob *job;

  g_return_if_fail (TV_IS_PROFILE (self));
  g_return_if_fail (query != NULL);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, tv_profile_query_async);
  if (self->data == NULL)
    {
      if (progress_destroy != NULL)
        progress_destroy (progress_data);
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_NOT_INITIALIZED,
                               _("The profile is not loaded yet"));
      return;
    }

  /* The query's arrays belong to the caller: copy them. */
  job = g_new0 (QueryJob, 1);
  job->query = *query;
  job->progress = progress;
  job->progress_data = progress_data;
  job->progress_destroy = progress_destroy;
  if (query->threads != NULL)
    {
      job->threads = g_memdup2 (query->threads, MAX (query->n_threads, 1) * sizeof (guint32));
      job->query.threads = job->threads;
    }
  if (query->hidden_functions != NULL)
    {
      job->hidden = g_memdup2 (query->hidden_functions,
                               MAX (query->n_hidden_functions, 1) * sizeof (guint32));
      job->query.hidden_functions = job->hidden;
    }
  if (query->functions_of != NULL)
    job->query.functions_of = job->functions_of = tv_call_tree_ref (query->functions_of);
  if (query->detail_path != NULL)
    {
      job->detail_path = g_memdup2 (query->detail_path,
                                    MAX (query->n_detail_path, 1) * sizeof (guint32));
      job->query.detail_path = job->detail_path;
    }
  if (query->ranges != NULL)
    {
      /* Not NULL even when empty: an empty list selects nothing. */
      job->ranges = g_new (TvTimeRange, MAX (query->n_ranges, 1));
      memcpy (job->ranges, query->ranges, query->n_ranges * sizeof (TvTimeRange));
      job->query.ranges = job->ranges;
    }
  g_task_set_task_data (task, job, query_job_free);
  g_task_run_in_thread (task, query_thread);
}

TvCallTree *
tv_profile_query_finish (TvProfile     *self,
                         GAsyncResult  *result,
                         GError       **error)
{
  g_return_val_if_fail (TV_IS_PROFILE (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}

TvProfile *
tv_profile_new (GFile *file)
{
  g_return_val_if_fail (G_IS_FILE (file), NULL);
  return g_object_new (TV_TYPE_PROFILE, "file", file, NULL);
}

GFile *
tv_profile_get_file (TvProfile *self)
{
  g_return_val_if_fail (TV_IS_PROFILE (self), NULL);
  return self->file;
}

TvProfileState
tv_profile_get_state (TvProfile *self)
{
  g_return_val_if_fail (TV_IS_PROFILE (self), TV_PROFILE_NEW);
  return self->state;
}

double
tv_profile_get_fraction (TvProfile *self)
{
  g_return_val_if_fail (TV_IS_PROFILE (self), 0.0);
  return self->fraction;
}

guint64
tv_profile_get_samples_loaded (TvProfile *self)
{
  g_return_val_if_fail (TV_IS_PROFILE (self), 0);
  return self->samples_loaded;
}

const TvProfileHeader *
tv_profile_get_header (TvProfile *self)
{
  g_return_val_if_fail (TV_IS_PROFILE (self), NULL);
  return self->has_metadata ? &self->header : NULL;
}

const TvProfileFooter *
tv_profile_get_footer (TvProfile *self)
{
  g_return_val_if_fail (TV_IS_PROFILE (self), NULL);
  return self->has_metadata ? &self->footer : NULL;
}

const TvProfileStats *
tv_profile_get_stats (TvProfile *self)
{
  g_return_val_if_fail (TV_IS_PROFILE (self), NULL);
  return self->has_metadata ? &self->stats : NULL;
}

guint64
tv_profile_get_file_size (TvProfile *self)
{
  g_return_val_if_fail (TV_IS_PROFILE (self), 0);
  return self->file_size;
}

const char * const *
tv_profile_get_warnings (TvProfile *self)
{
  static const char * const none[] = { NULL };

  g_return_val_if_fail (TV_IS_PROFILE (self), none);
  return self->warnings ? (const char * const *) self->warnings : none;
}

GPtrArray *
tv_profile_get_findings (TvProfile *self)
{
  g_return_val_if_fail (TV_IS_PROFILE (self), NULL);
  return self->findings;
}

TvProfileData *
tv_profile_get_data (TvProfile *self)
{
  g_return_val_if_fail (TV_IS_PROFILE (self), NULL);
  return self->data;
}

gboolean
tv_profile_get_file_stamp (TvProfile   *self,
                           TvFileStamp *stamp)
{
  g_return_val_if_fail (TV_IS_PROFILE (self), FALSE);
  g_return_val_if_fail (stamp != NULL, FALSE);

  if (!self->has_metadata || !self->has_stamp)
    return FALSE;
  *stamp = self->stamp;
  return TRUE;
}

typedef struct
{
  char          *path;
  TvFileStamp    stamp;
} CheckJob;

static void
check_job_free (gpointer data)
{
  CheckJob *job = data;

  g_free (job->path);
  g_free (job);
}

static void
check_thread (GTask        *task,
              gpointer      source_object,
              gpointer      task_data,
              GCancellable *cancellable)
{
  CheckJob *job = task_data;
  GStatBuf st;
  TvProfileFileState state;

  /* stat () follows links, as the reader's open did. */
  if (g_stat (job->path, &st) != 0)
    state = errno == ENOENT || errno == ENOTDIR ? TV_PROFILE_FILE_DELETED
                                                : TV_PROFILE_FILE_CHANGED;
  else if ((guint64) st.st_size != job->stamp.size
           || (gint64) st.st_mtim.tv_sec != job->stamp.mtime_sec
           || (guint32) st.st_mtim.tv_nsec != job->stamp.mtime_nsec
           || (guint64) st.st_ino != job->stamp.inode
           || (guint64) st.st_dev != job->stamp.device)
    state = TV_PROFILE_FILE_CHANGED;
  else
    state = TV_PROFILE_FILE_UNCHANGED;
  g_task_return_int (task, state);
}

void
tv_profile_check_file_async (TvProfile           *self,
                             GCancellable        *cancellable,
                             GAsyncReadyCallback  callback,
                             gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autofree char *path = NULL;
  CheckJob *job;

  g_return_if_fail (TV_IS_PROFILE (self));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, tv_profile_check_file_async);
  path = g_file_get_path (self->file);
  if (path == NULL || !self->has_metadata || !self->has_stamp)
    {
      g_task_return_int (task, TV_PROFILE_FILE_UNCHANGED);
      return;
    }
  job = g_new0 (CheckJob, 1);
  job->path = g_steal_pointer (&path);
  job->stamp = self->stamp;
  g_task_set_task_data (task, job, check_job_free);
  g_task_run_in_thread (task, check_thread);
}

TvProfileFileState
tv_profile_check_file_finish (TvProfile     *self,
                              GAsyncResult  *result,
                              GError       **error)
{
  gssize state;

  g_return_val_if_fail (TV_IS_PROFILE (self), TV_PROFILE_FILE_UNCHANGED);
  g_return_val_if_fail (g_task_is_valid (result, self), TV_PROFILE_FILE_UNCHANGED);

  state = g_task_propagate_int (G_TASK (result), error);
  return state < 0 ? TV_PROFILE_FILE_UNCHANGED : (TvProfileFileState) state;
}

void
tv_profile_set_load_hook (TvProfileLoadHook hook,
                          gpointer          user_data)
{
  load_hook = hook;
  load_hook_data = user_data;
}

typedef struct
{
  TvProfileData *data;
  GCancellable  *cancellable;
  GMainContext  *context;
  GWeakRef       profile;
} MergeJob;

static void
merge_job_free (gpointer user_data)
{
  MergeJob *job = user_data;

  tv_profile_data_unref (job->data);
  g_object_unref (job->cancellable);
  g_main_context_unref (job->context);
  g_weak_ref_clear (&job->profile);
  g_free (job);
}

/* Back where it started: the trace says it is over. */
static gboolean
merge_done (gpointer user_data)
{
  MergeJob *job = user_data;
  g_autoptr(TvProfile) self = g_weak_ref_get (&job->profile);

  if (self != NULL && !g_cancellable_is_cancelled (job->cancellable))
    tv_trace_stage (self, self->file, TV_TRACE_MERGED);
  return G_SOURCE_REMOVE;
}

/* On a thread of its own, which it makes the nicest there is: what it
 * does only makes the views that come after it faster. */
static gpointer
merge_thread (gpointer user_data)
{
  MergeJob *job = user_data;

  lower_thread_priority (19);
  tv_profile_data_add_merged (job->data, TV_PROFILE_MERGE_MAX_SHARE, job->cancellable);
  /* Of the merged tree where there is one: the first inverted graph then
   * takes them as the next ones would. */
  tv_call_tree_prepare_inverted (job->data, job->cancellable);
  g_main_context_invoke_full (job->context, G_PRIORITY_DEFAULT, merge_done, job, merge_job_free);
  return NULL;
}

static guint32 merge_min_nodes = TV_PROFILE_MERGE_MIN_NODES;

void
tv_profile_set_merge_min_nodes (guint32 n_nodes)
{
  merge_min_nodes = n_nodes;
}

void
tv_profile_start_merging (TvProfile *self)
{
  MergeJob *job;
  GThread *thread;

  g_return_if_fail (TV_IS_PROFILE (self));
  if (self->data == NULL || self->merging != NULL
      || tv_profile_data_get_tree (self->data)->n_nodes < merge_min_nodes)
    return;
  self->merging = g_cancellable_new ();
  job = g_new0 (MergeJob, 1);
  job->data = tv_profile_data_ref (self->data);
  job->cancellable = g_object_ref (self->merging);
  job->context = g_main_context_ref_thread_default ();
  g_weak_ref_init (&job->profile, self);
  thread = g_thread_try_new ("tv-merge", merge_thread, job, NULL);
  if (thread == NULL)
    {
      merge_job_free (job);
      return;
    }
  g_thread_unref (thread);
}

static void
tv_profile_finalize (GObject *object)
{
  TvProfile *self = TV_PROFILE (object);

  /* What it makes goes with the data. */
  if (self->merging != NULL)
    g_cancellable_cancel (self->merging);
  g_clear_object (&self->merging);
  g_clear_object (&self->file);
  g_clear_pointer (&self->warnings, g_strfreev);
  g_clear_pointer (&self->findings, g_ptr_array_unref);
  g_clear_pointer (&self->data, tv_profile_data_unref);
  G_OBJECT_CLASS (tv_profile_parent_class)->finalize (object);
}

static void
tv_profile_get_property (GObject    *object,
                         guint       prop_id,
                         GValue     *value,
                         GParamSpec *pspec)
{
  TvProfile *self = TV_PROFILE (object);

  switch (prop_id)
    {
    case PROP_FILE:
      g_value_set_object (value, self->file);
      break;
    case PROP_STATE:
      g_value_set_int (value, self->state);
      break;
    case PROP_FRACTION:
      g_value_set_double (value, self->fraction);
      break;
    case PROP_SAMPLES_LOADED:
      g_value_set_uint64 (value, self->samples_loaded);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tv_profile_set_property (GObject      *object,
                         guint         prop_id,
                         const GValue *value,
                         GParamSpec   *pspec)
{
  TvProfile *self = TV_PROFILE (object);

  switch (prop_id)
    {
    case PROP_FILE:
      self->file = g_value_dup_object (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tv_profile_class_init (TvProfileClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = tv_profile_finalize;
  object_class->get_property = tv_profile_get_property;
  object_class->set_property = tv_profile_set_property;

  properties[PROP_FILE] =
    g_param_spec_object ("file", NULL, NULL, G_TYPE_FILE,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_STATE] =
    g_param_spec_int ("state", NULL, NULL, TV_PROFILE_NEW, TV_PROFILE_FAILED, TV_PROFILE_NEW,
                      G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_FRACTION] =
    g_param_spec_double ("fraction", NULL, NULL, 0.0, 1.0, 0.0,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_SAMPLES_LOADED] =
    g_param_spec_uint64 ("samples-loaded", NULL, NULL, 0, G_MAXUINT64, 0,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * TvProfile::opened:
   *
   * The header, footer, statistics and warnings can be read; samples are
   * being decoded.
   */
  signals[OPENED] = g_signal_new ("opened", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
tv_profile_init (TvProfile *self)
{
}
