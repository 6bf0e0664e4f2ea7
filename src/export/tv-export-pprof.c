/* tv-export-pprof.c: a profile as Google's pprof profile.proto, gzipped
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The message is google/pprof's proto/profile.proto, compiled by protoc-c
 * at build time; protobuf-c encodes it and zlib compresses it, as the
 * format asks ("on-disk, the serialized proto must be gzip-compressed").
 *
 * Every sample of the profile has labels (thread_id, interpreter_id,
 * status), so the samples are counted per thread and exact status byte,
 * and there is one pprof sample per distinct (stack, labels), its value
 * the count: memory grows with the distinct stacks, never with the
 * samples.  Without transforms the model's samples are counted straight
 * onto their leaves in the exact tree, a pass over the samples kept; with
 * them (focus, hidden functions, collapsed recursion) the model's call
 * trees give the stacks, one tree per (thread, status).
 * A location is a merge key of the model (a line of a function by
 * default), a function a (file, name).
 */
#include "tv-export-pprof.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n.h>
#include <zlib.h>

#include "profile.pb-c.h"
#include "tachyon-format.h"
#include "tv-call-tree.h"
#include "tv-progress.h"
#include "tv-text.h"

typedef Perftools__Profiles__Profile   Profile;
typedef Perftools__Profiles__Sample    Sample;
typedef Perftools__Profiles__Label     Label;
typedef Perftools__Profiles__Location  Location;
typedef Perftools__Profiles__Line      Line;
typedef Perftools__Profiles__Function  Function;
typedef Perftools__Profiles__ValueType ValueType;

/* The names of the status bits (TACH_STATUS_*), as --info --json has
 * them. */
static const char * const status_names[] = {
  "has_gil", "on_cpu", "unknown", "gil_requested", "has_exception", "main_thread",
};

typedef struct
{
  TvProfileData *data;
  TachReader    *reader;
  TvMergeKey     merge;
  gint64         ns_per_sample;

  GHashTable    *string_index;    /* owned string -> index + 1 */
  GPtrArray     *strings;         /* char *, owned: the string table */
  guint32       *location_of_key; /* merge key -> location index + 1 */
  GArray        *location_keys;   /* guint32: the merge key of each location */
  guint32       *function_of_key; /* function key -> function index + 1 */
  GArray        *function_keys;   /* guint32 */
  GPtrArray     *samples;         /* Sample *, owned */
  GPtrArray     *label_sets;      /* Label **, owned with their labels */
  guint64        n_samples;
} Builder;

static gint64
string_id (Builder    *b,
           const char *text)
{
  gpointer index;

  if (g_hash_table_lookup_extended (b->string_index, text, NULL, &index))
    return GPOINTER_TO_UINT (index) - 1;
  g_ptr_array_add (b->strings, g_strdup (text));
  g_hash_table_insert (b->string_index, g_ptr_array_index (b->strings, b->strings->len - 1),
                       GUINT_TO_POINTER (b->strings->len));
  return b->strings->len - 1;
}

static void
sample_free (gpointer data)
{
  Sample *sample = data;

  g_free (sample->location_id);
  g_free (sample->value);
  g_free (sample);
}

static void
label_set_free (gpointer data)
{
  Label **labels = data;

  for (guint i = 0; labels[i] != NULL; i++)
    g_free (labels[i]);
  g_free (labels);
}

static void
builder_init (Builder       *b,
              TvProfileData *data,
              TvMergeKey     merge)
{
  memset (b, 0, sizeof *b);
  b->data = data;
  b->reader = tv_profile_data_get_reader (data);
  b->merge = merge;
  b->ns_per_sample = (gint64) llround (tv_profile_data_get_seconds_per_sample (data, NULL) * 1e9);
  b->strings = g_ptr_array_new_with_free_func (g_free);
  b->string_index = g_hash_table_new (g_str_hash, g_str_equal);
  b->location_of_key = g_new0 (guint32, MAX (tv_profile_data_get_n_keys (data, merge), 1));
  b->location_keys = g_array_new (FALSE, FALSE, sizeof (guint32));
  b->function_of_key = g_new0 (guint32,
                               MAX (tv_profile_data_get_n_keys (data, TV_MERGE_FUNCTION), 1));
  b->function_keys = g_array_new (FALSE, FALSE, sizeof (guint32));
  b->samples = g_ptr_array_new_with_free_func (sample_free);
  b->label_sets = g_ptr_array_new_with_free_func (label_set_free);
  /* string_table[0] must be "". */
  string_id (b, "");
}

static void
builder_clear (Builder *b)
{
  g_clear_pointer (&b->string_index, g_hash_table_unref);
  g_clear_pointer (&b->strings, g_ptr_array_unref);
  g_clear_pointer (&b->location_of_key, g_free);
  g_clear_pointer (&b->location_keys, g_array_unref);
  g_clear_pointer (&b->function_of_key, g_free);
  g_clear_pointer (&b->function_keys, g_array_unref);
  g_clear_pointer (&b->samples, g_ptr_array_unref);
  g_clear_pointer (&b->label_sets, g_ptr_array_unref);
}

/* The id of KEY, from 1, in KEYS (the keys by id - 1), made when first
 * used; ID_OF_KEY holds the ids made, 0 for none yet.  For locations and
 * functions. */
static guint64
key_id (guint32 *id_of_key,
        GArray  *keys,
        guint32  key)
{
  if (id_of_key[key] == 0)
    {
      g_array_append_val (keys, key);
      id_of_key[key] = keys->len;
    }
  return id_of_key[key];
}

static Label *
new_label (Builder    *b,
           const char *key,
           const char *value)
{
  Label *label = g_new (Label, 1);

  perftools__profiles__label__init (label);
  label->key = string_id (b, key);
  label->str = string_id (b, value);
  return label;
}

/* "has_gil,on_cpu", or "none" for a status without bits. */
static char *
describe_status (guint8 status)
{
  GString *out = g_string_new (NULL);

  for (guint bit = 0; bit < 8; bit++)
    {
      if (!(status & (1u << bit)))
        continue;
      if (out->len > 0)
        g_string_append_c (out, ',');
      if (bit < G_N_ELEMENTS (status_names))
        g_string_append (out, status_names[bit]);
      else
        g_string_append_printf (out, "bit%u", bit);
    }
  if (out->len == 0)
    g_string_append (out, "none");
  return g_string_free (out, FALSE);
}

/* The labels of one thread in one status, shared by its samples. */
static Label **
new_label_set (Builder        *b,
               const TvThread *thread,
               guint8          status)
{
  Label **labels = g_new0 (Label *, 4);
  g_autofree char *tid = g_strdup_printf ("%" G_GUINT64_FORMAT, thread->thread_id);
  g_autofree char *iid = g_strdup_printf ("%u", thread->interpreter_id);
  g_autofree char *state = describe_status (status);

  labels[0] = new_label (b, "thread_id", tid);
  labels[1] = new_label (b, "interpreter_id", iid);
  labels[2] = new_label (b, "status", state);
  g_ptr_array_add (b->label_sets, labels);
  return labels;
}

/* A sample of the merge keys KEYS (the leaf first) with LABELS, no
 * count yet. */
static Sample *
new_sample (Builder        *b,
            const guint32  *keys,
            guint           depth,
            Label         **labels)
{
  Sample *sample = g_new (Sample, 1);

  perftools__profiles__sample__init (sample);
  sample->n_location_id = depth;
  sample->location_id = g_new (uint64_t, depth);
  for (guint i = 0; i < depth; i++)
    sample->location_id[i] = key_id (b->location_of_key, b->location_keys, keys[i]);
  sample->n_value = 2;
  sample->value = g_new0 (int64_t, 2);
  sample->n_label = 3;
  sample->label = labels;
  g_ptr_array_add (b->samples, sample);
  return sample;
}

static void
add_count (Builder *b,
           Sample  *sample,
           guint64  count)
{
  sample->value[0] += (int64_t) count;
  sample->value[1] = sample->value[0] * b->ns_per_sample;
  b->n_samples += count;
}

/* One sample per node of TREE with samples of its own. */
static void
add_tree (Builder    *b,
          TvCallTree *tree,
          Label     **labels)
{
  guint32 n_nodes = tv_call_tree_get_n_nodes (tree);
  g_autoptr(GArray) keys = g_array_new (FALSE, FALSE, sizeof (guint32));

  for (guint32 n = 1; n < n_nodes; n++)
    {
      guint64 count = tv_call_tree_get_self (tree, n);

      if (count == 0)
        continue;
      g_array_set_size (keys, 0);
      for (guint32 u = n; u != TV_ROOT_NODE; u = tv_call_tree_get_parent (tree, u))
        {
          guint32 key = tv_call_tree_get_key (tree, u);

          g_array_append_val (keys, key);
        }
      add_count (b, new_sample (b, (const guint32 *) (gpointer) keys->data, keys->len, labels),
                 count);
    }
}

static guint
path_hash (gconstpointer key)
{
  return g_bytes_hash (key);
}

/* The samples of a thread on one exact leaf in one status. */
typedef struct
{
  gint64  leaf_status;            /* leaf << 8 | status: the key */
  guint64 count;
} LeafCount;

/* Without transforms: QUERY's samples counted per thread, status and
 * exact leaf, and the leaves' paths of merge keys (the profiler's own
 * frames left out, as every view leaves them) made samples, those with
 * the same path and labels one. */
static gboolean
add_samples_direct (Builder       *b,
                    const TvQuery *query,
                    GCancellable  *cancellable)
{
  const TvExactTree *exact = tv_profile_data_get_tree (b->data);
  const guint32 *keys = tv_profile_data_get_frame_keys (b->data, b->merge);
  const guint32 *function_keys = tv_profile_data_get_frame_keys (b->data, TV_MERGE_FUNCTION);
  const guint8 *internal = tv_profile_data_get_internal_functions (b->data);
  guint n_threads = tv_profile_data_get_n_threads (b->data);
  g_autoptr(GArray) path = g_array_new (FALSE, FALSE, sizeof (guint32));

  for (guint32 i = 0; i < n_threads; i++)
    {
      const TvThread *t = tv_profile_data_get_thread (b->data, i);
      gboolean selected = query->threads == NULL;
      g_autoptr(GHashTable) leaves = NULL;
      g_autoptr(GHashTable) samples = NULL;
      Label **labels[256] = { NULL };
      GHashTableIter iter;
      gpointer value;

      for (guint j = 0; !selected && j < query->n_threads; j++)
        selected = query->threads[j] == i;
      if (!selected || t->n_samples == 0
          || (query->interpreter >= 0 && t->interpreter_id != (guint64) query->interpreter))
        continue;
      if (g_cancellable_is_cancelled (cancellable))
        return FALSE;
      tv_progress_report (cancellable, (double) i / n_threads);

      /* LeafCount by its key. */
      leaves = g_hash_table_new_full (g_int64_hash, g_int64_equal, NULL, g_free);
      for (guint64 r = 0; r < t->n_runs; r++)
        {
          guint64 end = r + 1 < t->n_runs ? t->run_start[r + 1] : t->n_samples;
          guint32 leaf = t->run_leaf[r];

          if (leaf == TV_ROOT_NODE)
            continue;
          for (guint64 s = t->run_start[r]; s < end; s++)
            {
              guint8 status = tv_statuses_get (&t->statuses, s);
              gint64 packed = (gint64) leaf << 8 | status;
              guint64 ts = tv_times_get (&t->times, s);
              LeafCount *entry;

              if ((status & query->status_mask) != query->status_value)
                continue;
              if (query->has_range && (ts < query->range_start || ts >= query->range_end))
                continue;
              if (query->ranges != NULL
                  && !tv_time_ranges_contain (query->ranges, query->n_ranges, ts))
                continue;
              entry = g_hash_table_lookup (leaves, &packed);
              if (entry == NULL)
                {
                  entry = g_new0 (LeafCount, 1);
                  entry->leaf_status = packed;
                  g_hash_table_insert (leaves, &entry->leaf_status, entry);
                }
              entry->count++;
            }
        }

      /* (status, path) -> Sample, for leaves whose paths merge. */
      samples = g_hash_table_new_full (path_hash, g_bytes_equal,
                                       (GDestroyNotify) g_bytes_unref, NULL);
      g_hash_table_iter_init (&iter, leaves);
      while (g_hash_table_iter_next (&iter, NULL, &value))
        {
          const LeafCount *entry = value;
          guint32 status = entry->leaf_status & 0xff;
          g_autoptr(GBytes) path_key = NULL;
          Sample *sample;

          /* The status, then the keys from the leaf up. */
          g_array_set_size (path, 0);
          g_array_append_val (path, status);
          for (guint32 u = entry->leaf_status >> 8; u != TV_ROOT_NODE;
               u = tv_exact_tree_parent (exact, u))
            {
              guint32 frame = tv_exact_tree_frame (exact, u);

              if (internal == NULL || !internal[function_keys[frame]])
                g_array_append_val (path, keys[frame]);
            }
          if (path->len == 1)
            continue;
          path_key = g_bytes_new (path->data, path->len * sizeof (guint32));
          sample = g_hash_table_lookup (samples, path_key);
          if (sample == NULL)
            {
              if (labels[status] == NULL)
                labels[status] = new_label_set (b, t, status);
              sample = new_sample (b, (const guint32 *) (gpointer) path->data + 1,
                                   path->len - 1, labels[status]);
              g_hash_table_insert (samples, g_steal_pointer (&path_key), sample);
            }
          add_count (b, sample, entry->count);
        }
    }
  return TRUE;
}

/* With transforms: the call trees of every (thread, status) QUERY keeps. */
static gboolean
add_samples_from_trees (Builder       *b,
             const TvQuery *query,
             GCancellable  *cancellable)
{
  guint n_threads = tv_profile_data_get_n_threads (b->data);

  for (guint32 i = 0; i < n_threads; i++)
    {
      const TvThread *thread = tv_profile_data_get_thread (b->data, i);
      gboolean selected = query->threads == NULL;
      gboolean seen[256] = { FALSE };

      for (guint j = 0; !selected && j < query->n_threads; j++)
        selected = query->threads[j] == i;
      if (!selected || thread->n_samples == 0)
        continue;

      for (guint64 s = 0; s < thread->n_samples; s++)
        seen[tv_statuses_get (&thread->statuses, s)] = TRUE;
      /* Each thread's trees, a share of a watched export's progress. */
      tv_progress_push (cancellable, (double) i / n_threads, (double) (i + 1) / n_threads);
      for (guint status = 0; status < 256; status++)
        {
          g_autoptr(TvCallTree) tree = NULL;
          TvQuery one = *query;

          if (!seen[status] || (status & query->status_mask) != query->status_value)
            continue;
          one.threads = &i;
          one.n_threads = 1;
          one.status_mask = 0xff;
          one.status_value = status;
          one.inverted = FALSE;
          one.callers_of = TV_NODE_NONE;
          one.count_states = FALSE;
          one.count_threads = FALSE;
          tree = tv_call_tree_new (b->data, &one, cancellable);
          if (tree == NULL)
            {
              tv_progress_pop (cancellable);
              return FALSE;
            }
          if (tv_call_tree_get_n_samples (tree) > 0)
            add_tree (b, tree, new_label_set (b, thread, status));
        }
      tv_progress_pop (cancellable);
    }
  return TRUE;
}

/* The locations and functions the samples use, in order of first use. */
static void
make_tables (Builder     *b,
             Profile     *profile,
             Location  ***out_locations,
             Function  ***out_functions)
{
  const guint32 *function_keys = tv_profile_data_get_frame_keys (b->data, TV_MERGE_FUNCTION);
  Location **locations = g_new0 (Location *, b->location_keys->len + 1);
  Function **functions;

  for (guint i = 0; i < b->location_keys->len; i++)
    {
      guint32 key = g_array_index (b->location_keys, guint32, i);
      guint32 frame = tv_profile_data_get_key_frame (b->data, b->merge, key);
      const TachFrame *f = tach_reader_get_frame (b->reader, frame);
      Location *location = g_malloc (sizeof (Location) + sizeof (Line *) + sizeof (Line));
      Line **lines = (Line **) (location + 1);
      Line *line = (Line *) (lines + 1);

      perftools__profiles__location__init (location);
      perftools__profiles__line__init (line);
      location->id = i + 1;
      location->n_line = 1;
      location->line = lines;
      lines[0] = line;
      line->function_id = key_id (b->function_of_key, b->function_keys, function_keys[frame]);
      /* By function, a location stands for every line of it. */
      if (b->merge != TV_MERGE_FUNCTION && f != NULL && f->lineno != TACH_LOCATION_NONE)
        line->line = f->lineno;
      /* Python's columns count from 0, pprof's from 1. */
      if ((b->merge == TV_MERGE_INSTRUCTION || b->merge == TV_MERGE_FRAME) && f != NULL
          && f->column >= 0)
        line->column = (gint64) f->column + 1;
      locations[i] = location;
    }

  functions = g_new0 (Function *, b->function_keys->len + 1);
  for (guint i = 0; i < b->function_keys->len; i++)
    {
      guint32 key = g_array_index (b->function_keys, guint32, i);
      guint32 frame = tv_profile_data_get_key_frame (b->data, TV_MERGE_FUNCTION, key);
      Function *function = g_new (Function, 1);

      perftools__profiles__function__init (function);
      function->id = i + 1;
      function->name = string_id (b, tv_profile_data_get_funcname (b->data, frame));
      /* No system name: pprof would "demangle" it into the name, and it
       * makes "<module>" an empty one. */
      function->filename = string_id (b, tv_profile_data_get_filename (b->data, frame));
      functions[i] = function;
    }

  profile->n_location = b->location_keys->len;
  profile->location = locations;
  profile->n_function = b->function_keys->len;
  profile->function = functions;
  *out_locations = locations;
  *out_functions = functions;
}

static GBytes *
gzip_bytes (const guint8  *data,
            gsize          len,
            GError       **error)
{
  z_stream stream = { 0 };
  guint8 *out;
  gsize bound;
  int res;

  /* 15 + 16: a gzip header and trailer, not zlib's. */
  if (deflateInit2 (&stream, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8,
                    Z_DEFAULT_STRATEGY) != Z_OK)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                           _("Could not compress the profile"));
      return NULL;
    }
  bound = deflateBound (&stream, len);
  /* zlib counts in uInt; a profile of gigabytes is refused. */
  if (len > G_MAXUINT32 || bound > G_MAXUINT32)
    {
      deflateEnd (&stream);
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NO_SPACE,
                           _("The profile is too large for the pprof format"));
      return NULL;
    }
  out = g_malloc (MAX (bound, 1));
  stream.next_in = (Bytef *) data;
  stream.avail_in = (uInt) len;
  stream.next_out = out;
  stream.avail_out = (uInt) bound;
  /* With deflateBound()'s room, one call finishes. */
  res = deflate (&stream, Z_FINISH);
  len = stream.total_out;
  deflateEnd (&stream);
  if (res != Z_STREAM_END)
    {
      g_free (out);
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                           _("Could not compress the profile"));
      return NULL;
    }
  return g_bytes_new_take (g_realloc (out, MAX (len, 1)), len);
}

/**
 * tv_export_pprof_build:
 * @data: the loaded profile
 * @state: which samples, and the merge key that makes a location
 * @source_name: the profile's file name, for the profile's comment
 * @cancellable: (nullable): a cancellable
 * @error: return location for an error
 *
 * The samples @state selects as a pprof profile: sample types
 * samples/count and cpu or wall/nanoseconds (the profile's mode says
 * which; a sample stands for the time of the model's time source), the
 * labels thread_id, interpreter_id and status (the status bits by name),
 * locations with the file, function and line.
 *
 * Returns: (transfer full): the gzipped profile, or %NULL with @error set
 */
GBytes *
tv_export_pprof_build (TvProfileData         *data,
                       TvViewState           *state,
                       const char            *source_name,
                       GCancellable          *cancellable,
                       GError               **error)
{
  TvQuery query;
  const TachHeader *header;
  const TachStats *stats;
  Profile profile = PERFTOOLS__PROFILES__PROFILE__INIT;
  ValueType types[3];
  ValueType *type_list[2];
  Location **locations = NULL;
  Function **functions = NULL;
  int64_t comments[2];
  g_autofree char *shown_name = NULL;
  g_autofree char *about = NULL;
  g_autofree guint8 *packed = NULL;
  const char *kind;
  gsize size;
  guint64 first, last;
  Builder b;
  GBytes *bytes = NULL;

  g_return_val_if_fail (data != NULL, NULL);
  g_return_val_if_fail (TV_IS_VIEW_STATE (state), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  tv_export_make_query (state, data, &query);
  builder_init (&b, data, tv_view_state_get_merge (state));
  if (!(tv_view_state_has_transforms (state)
        ? add_samples_from_trees (&b, &query, cancellable)
        : add_samples_direct (&b, &query, cancellable)))
    {
      tv_export_set_cancelled (cancellable, error);
      builder_clear (&b);
      return NULL;
    }

  header = tach_reader_get_header (b.reader);
  stats = tach_reader_get_stats (b.reader);
  /* A CPU profile's samples stand for CPU time, any other's for time
   * passing. */
  kind = header->mode == TACH_MODE_CPU ? "cpu" : "wall";
  for (guint i = 0; i < G_N_ELEMENTS (types); i++)
    perftools__profiles__value_type__init (&types[i]);
  types[0].type = string_id (&b, "samples");
  types[0].unit = string_id (&b, "count");
  types[1].type = string_id (&b, kind);
  types[1].unit = string_id (&b, "nanoseconds");
  types[2] = types[1];
  type_list[0] = &types[0];
  type_list[1] = &types[1];
  profile.n_sample_type = 2;
  profile.sample_type = type_list;
  profile.default_sample_type = types[1].type;
  profile.period_type = &types[2];
  profile.period = b.ns_per_sample;
  profile.n_sample = b.samples->len;
  profile.sample = (Sample **) b.samples->pdata;

  /* The header's start time is the profiler's own clock, not the epoch:
   * time_nanos stays unset. */
  if (stats->present && isfinite (stats->duration_sec))
    profile.duration_nanos = (int64_t) llround (stats->duration_sec * 1e9);
  else if (tv_profile_data_get_time_span (data, &first, &last))
    profile.duration_nanos = (int64_t) (last - first) * 1000;

  shown_name = tv_text_dup_visible (source_name != NULL ? source_name : "", 200);
  about = g_strdup_printf ("Python %u.%u.%u, %s mode, sampled every %" G_GUINT64_FORMAT " µs",
                           header->python_major, header->python_minor, header->python_micro,
                           tach_mode_to_string (header->mode), header->sample_interval_us);
  comments[0] = string_id (&b, shown_name);
  comments[1] = string_id (&b, about);
  profile.n_comment = 2;
  profile.comment = comments;

  make_tables (&b, &profile, &locations, &functions);
  /* Last: the tables above add strings. */
  profile.n_string_table = b.strings->len;
  profile.string_table = (char **) b.strings->pdata;

  size = perftools__profiles__profile__get_packed_size (&profile);
  packed = g_malloc (MAX (size, 1));
  perftools__profiles__profile__pack (&profile, packed);
  bytes = gzip_bytes (packed, size, error);

  for (guint i = 0; locations[i] != NULL; i++)
    g_free (locations[i]);
  g_free (locations);
  for (guint i = 0; functions[i] != NULL; i++)
    g_free (functions[i]);
  g_free (functions);
  builder_clear (&b);
  return bytes;
}
