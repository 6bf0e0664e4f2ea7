/* tv-export-html.c: a profile as one self-contained HTML flame graph
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The page is data/flamegraph.html (its own canvas renderer, no library,
 * nothing fetched) with the profile embedded as JSON in a
 * <script type="application/json" id="tachyon-data"> element; README.md
 * documents the schema.  The call tree is the model's, merged by the
 * view state's key and transformed as it says; the same pass that makes it
 * keeps each thread's samples on its nodes (only the nodes the thread
 * reached) and counts each node's samples by state, so that the page's
 * thread and state filters give exact counts at a cost in proportion to
 * what the page holds.  A tree too big to send whole has its tiny nodes
 * drawn as remainder boxes that keep their samples
 * (tv-export-html-tree.c); no sample is dropped.  A frame of the page is
 * a merge key: the fields the key does not have are left out (-1).
 *
 * A differential page is the same page driven by a "diff" object: NEW's
 * tree of a TvDiff, each node with BASE's samples and the test's verdict,
 * the function table, the stacks that vanished from BASE, both profiles'
 * facts and the comparability warnings.
 *
 * Nothing from the profile goes into the markup: it all lands inside the
 * JSON, where `<`, `>`, `&`, U+2028 and U+2029 are escaped, so that no
 * string can end the script element or start a comment in it.  The page
 * puts names into the DOM only as text.
 */
#include "tv-export-html.h"
#include "tv-export-html-private.h"
#include "tachyon-format.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib/gi18n.h>

#include "tv-call-tree.h"
#include "tv-flame-modules.h"
#include "tv-json.h"
#include "tv-palette.h"
#include "tv-progress.h"
#include "tv-quality.h"


#define FORMAT_NAME     "tachyon-viewer-flamegraph"
#define FORMAT_VERSION  1

/* The source lines a page holds: the frame's line and SNIPPET_CONTEXT on
 * each side, from Python files of at most SOURCE_MAX_FILE bytes, each line
 * cut to SOURCE_MAX_LINE characters, SOURCE_BUDGET bytes in all. */
#define SNIPPET_CONTEXT  2
#define SOURCE_MAX_FILE  (8 << 20)
#define SOURCE_MAX_LINE  240
#define SOURCE_BUDGET    (2 << 20)

#ifndef PACKAGE_VERSION
# define PACKAGE_VERSION "unknown"
#endif

static void
side_init (Side          *side,
           TvProfileData *data,
           TvMergeKey     merge)
{
  TachReader *reader = tv_profile_data_get_reader (data);
  guint32 n_keys = tv_profile_data_get_n_keys (data, merge);
  guint32 n_strings = tach_reader_get_n_strings (reader);

  side->data = data;
  side->reader = reader;
  side->merge = merge;
  side->frame_ids = g_new (guint32, MAX (n_keys, 1));
  memset (side->frame_ids, 0xff, MAX (n_keys, 1) * sizeof (guint32));
  side->string_ids = g_new (guint32, MAX (n_strings, 1));
  memset (side->string_ids, 0xff, MAX (n_strings, 1) * sizeof (guint32));
}

static void
side_clear (Side *side)
{
  g_clear_pointer (&side->frame_ids, g_free);
  g_clear_pointer (&side->string_ids, g_free);
}

static void
exporter_clear (Exporter *self)
{
  g_clear_pointer (&self->tree, tv_call_tree_unref);
  g_clear_pointer (&self->order, g_free);
  g_clear_pointer (&self->export_ids, g_free);
  g_clear_pointer (&self->remainder, g_free);
  g_clear_pointer (&self->box_ids, g_free);
  side_clear (&self->sides[0]);
  side_clear (&self->sides[1]);
  g_clear_pointer (&self->frames, g_array_unref);
  g_clear_pointer (&self->strings, g_array_unref);
  g_clear_pointer (&self->zoom_path, g_array_unref);
}

guint32
tv_export_html_map_string (Exporter *self,
                           guint32   side,
                           guint32   index)
{
  guint32 *ids = self->sides[side].string_ids;

  if (ids[index] == UNMAPPED)
    {
      Ref ref = { side, index };

      ids[index] = self->strings->len;
      g_array_append_val (self->strings, ref);
    }
  return ids[index];
}

/* The export frame of merge key KEY of SIDE, made on first use with its
 * two strings. */
guint32
tv_export_html_map_key (Exporter *self,
                        guint32   side,
                        guint32   key)
{
  Side *s = &self->sides[side];

  if (s->frame_ids[key] == UNMAPPED)
    {
      guint32 frame = tv_profile_data_get_key_frame (s->data, s->merge, key);
      const TachFrame *f = tach_reader_get_frame (s->reader, frame);
      guint32 n_strings = tach_reader_get_n_strings (s->reader);
      Ref ref = { side, key };

      /* A frame the decoder let through has both strings. */
      g_assert (f != NULL && f->funcname < n_strings && f->filename < n_strings);
      s->frame_ids[key] = self->frames->len;
      g_array_append_val (self->frames, ref);
      tv_export_html_map_string (self, side, f->funcname);
      tv_export_html_map_string (self, side, f->filename);
    }
  return s->frame_ids[key];
}

/* Only the frames and strings that the tree uses are exported. */
static void
exporter_map_frames (Exporter *self)
{
  self->frames = g_array_new (FALSE, FALSE, sizeof (Ref));
  self->strings = g_array_new (FALSE, FALSE, sizeof (Ref));

  for (guint32 id = 1; id < self->n_ids; id++)
    {
      if (!self->remainder[id])
        tv_export_html_map_key (self, 0, tv_call_tree_get_key (self->tree, self->order[id]));
    }
}

/* ------------------------------------------------------------------------ */
/* JSON                                                                      */
/* ------------------------------------------------------------------------ */

static void
append_source (TachReader *reader,
               GString    *out,
               const char *source_name)
{
  const TachHeader *header = tach_reader_get_header (reader);
  gsize n_warnings = tach_reader_get_n_warnings (reader);

  json_key (out, "source");
  g_string_append_c (out, '{');
  json_string (out, "name", source_name);
  json_u64 (out, "file_size", tach_reader_get_file_size (reader));
  json_string (out, "byte_order", header->big_endian ? "big" : "little");
  json_string (out, "compression",
               header->compression_type == TACH_COMPRESSION_NONE ? "none"
               : header->compression_type == TACH_COMPRESSION_ZSTD ? "zstd" : "unknown");
  json_u64 (out, "sample_region_size", tach_reader_get_sample_region_size (reader));
  json_key (out, "warnings");
  g_string_append_c (out, '[');
  for (gsize i = 0; i < n_warnings; i++)
    {
      tv_json_append_string (out, tach_reader_get_warning (reader, i), -1);
      g_string_append_c (out, ',');
    }
  json_close (out, ']');
  g_string_append_c (out, ',');
  json_close (out, '}');
  g_string_append_c (out, ',');
}

static void
append_header_footer_stats (TachReader *reader,
                            GString    *out)
{
  const TachHeader *header = tach_reader_get_header (reader);
  const TachFooter *footer = tach_reader_get_footer (reader);
  const TachStats *stats = tach_reader_get_stats (reader);
  char python_version[32];

  g_snprintf (python_version, sizeof python_version, "%u.%u.%u",
              header->python_major, header->python_minor, header->python_micro);

  json_key (out, "header");
  g_string_append_c (out, '{');
  json_u64 (out, "version", header->version);
  json_string (out, "python_version", python_version);
  json_u64 (out, "start_time_us", header->start_time_us);
  json_u64 (out, "sample_interval_us", header->sample_interval_us);
  json_u64 (out, "sample_count", header->sample_count);
  json_u64 (out, "thread_count", header->thread_count);
  json_u64 (out, "string_table_offset", header->string_table_offset);
  json_u64 (out, "frame_table_offset", header->frame_table_offset);
  json_u64 (out, "compression_type", header->compression_type);
  json_string (out, "mode", tach_mode_to_string (header->mode));
  json_u64 (out, "mode_raw", header->mode_raw);
  json_close (out, '}');
  g_string_append_c (out, ',');

  json_key (out, "footer");
  g_string_append_c (out, '{');
  json_u64 (out, "string_count", footer->string_count);
  json_u64 (out, "frame_count", footer->frame_count);
  json_u64 (out, "file_size", footer->file_size);
  json_key (out, "checksum");
  g_string_append_c (out, '"');
  for (gsize i = 0; i < sizeof footer->checksum; i++)
    g_string_append_printf (out, "%02x", footer->checksum[i]);
  g_string_append (out, "\",");
  json_close (out, '}');
  g_string_append_c (out, ',');

  /* CPython's names, and null where the file holds no value. */
  json_key (out, "stats");
  g_string_append_c (out, '{');
  json_optional_double (out, "duration_sec", stats->present, stats->duration_sec);
  json_optional_double (out, "sample_rate", stats->present, stats->sample_rate);
  json_optional_double (out, "error_rate", stats->present && stats->has_error_rate,
                        stats->error_rate);
  json_optional_double (out, "missed_samples", stats->present && stats->has_missed_samples,
                        stats->missed_samples);
  json_close (out, '}');
  g_string_append_c (out, ',');
}

static void
append_decoded (TvProfileData *data,
                GString       *out)
{
  guint64 first = 0;
  guint64 last = 0;
  gboolean any = tv_profile_data_get_time_span (data, &first, &last);

  json_key (out, "decoded");
  g_string_append_c (out, '{');
  json_u64 (out, "samples", tv_profile_data_get_n_samples (data));
  json_key (out, "first_timestamp_us");
  if (any)
    g_string_append_printf (out, "%" G_GUINT64_FORMAT ",", first);
  else
    g_string_append (out, "null,");
  json_key (out, "last_timestamp_us");
  if (any)
    g_string_append_printf (out, "%" G_GUINT64_FORMAT ",", last);
  else
    g_string_append (out, "null,");
  json_u64 (out, "max_depth", tv_profile_data_get_max_depth (data));
  json_close (out, '}');
  g_string_append_c (out, ',');
}

/* The data-quality findings (tv-quality.h), as the app's banner and
 * Properties show them: kind, severity and the translated sentence. */
static void
append_findings (TvProfileData *data,
                 GString       *out)
{
  g_autoptr(GPtrArray) findings = tv_quality_check_data (data);

  json_key (out, "findings");
  g_string_append_c (out, '[');
  for (guint i = 0; i < findings->len; i++)
    {
      const TvFinding *finding = g_ptr_array_index (findings, i);

      g_string_append_c (out, '{');
      json_string (out, "kind", tv_finding_kind_to_string (finding->kind));
      json_string (out, "severity", tv_severity_to_string (finding->severity));
      json_string (out, "message", finding->message);
      json_close (out, '}');
      g_string_append_c (out, ',');
    }
  json_close (out, ']');
  g_string_append_c (out, ',');
}

/* What the page shows of one profile: source, header, footer, stats,
 * decoded, findings, and the time a sample stands for. */
void
tv_export_html_append_profile_facts (TvProfileData *data,
                                     GString       *out,
                                     const char    *source_name)
{
  TachReader *reader = tv_profile_data_get_reader (data);
  TvTimeSource time_source;
  double seconds_per_sample = tv_profile_data_get_seconds_per_sample (data, &time_source);

  append_source (reader, out, source_name);
  append_header_footer_stats (reader, out);
  append_decoded (data, out);
  append_findings (data, out);
  json_optional_double (out, "seconds_per_sample", TRUE, seconds_per_sample);
  json_string (out, "time_source", time_source == TV_TIME_SOURCE_STATS ? "stats" : "interval");
}

/* The function's name, as "file:name". */
static void
append_function (Exporter *self,
                 GString  *out,
                 guint32   function)
{
  guint32 frame = tv_profile_data_get_key_frame (self->data, TV_MERGE_FUNCTION, function);
  g_autofree char *text = g_strdup_printf ("%s:%s",
                                           tv_profile_data_get_filename (self->data, frame),
                                           tv_profile_data_get_funcname (self->data, frame));

  tv_json_append_string (out, text, -1);
  g_string_append_c (out, ',');
}

/* focus (a function or null), hidden (functions), collapse_recursion. */
static void
append_transforms (Exporter *self,
                   GString  *out)
{
  const TvQuery *query = &self->query;

  json_key (out, "focus");
  if (query->focus_function != TV_NODE_NONE)
    append_function (self, out, query->focus_function);
  else
    g_string_append (out, "null,");
  json_key (out, "hidden");
  g_string_append_c (out, '[');
  for (guint i = 0; i < query->n_hidden_functions; i++)
    append_function (self, out, query->hidden_functions[i]);
  json_close (out, ']');
  g_string_append_c (out, ',');
  json_key (out, "collapse_recursion");
  g_string_append (out, query->collapse_recursion ? "true," : "false,");
}

/* [start, end] in seconds, null for an open end. */
static void
append_range (GString *out,
              double   start,
              double   end)
{
  g_string_append_c (out, '[');
  json_double_or_null (out, isfinite (start), start);
  json_double_or_null (out, isfinite (end), end);
  json_close (out, ']');
  g_string_append_c (out, ',');
}

/* What selected the samples and transformed the tree; null without a
 * filter (a differential page made without one). */
void
tv_export_html_append_filter (Exporter *self,
                              GString  *out)
{
  TvViewState *state = self->state;
  guint64 start_time = tach_reader_get_header (self->reader)->start_time_us;
  g_autofree guint64 *ids = NULL;
  g_autoptr(GArray) ranges = NULL;
  TvExportRange range;
  gboolean has_range;
  guint n_ids;

  json_key (out, "filter");
  if (state == NULL)
    {
      g_string_append (out, "null,");
      return;
    }
  g_string_append_c (out, '{');
  json_key (out, "threads");
  ids = tv_export_dup_thread_ids (state, self->data, &n_ids);
  if (n_ids == 0)
    {
      g_string_append (out, "null,");
    }
  else
    {
      g_string_append_c (out, '[');
      for (guint i = 0; i < n_ids; i++)
        g_string_append_printf (out, "\"%" G_GUINT64_FORMAT "\",", ids[i]);
      json_close (out, ']');
      g_string_append_c (out, ',');
    }
  json_string (out, "state", tv_export_state_to_string (tv_view_state_get_state_filter (state)));
  has_range = tv_export_get_seconds (state, start_time, &range, &ranges);
  json_key (out, "range_sec");
  if (!has_range)
    g_string_append (out, "null,");
  else
    append_range (out, range.start, range.end);
  json_key (out, "ranges_sec");
  if (ranges->len == 0)
    {
      g_string_append (out, "null,");
    }
  else
    {
      g_string_append_c (out, '[');
      for (guint i = 0; i < ranges->len; i++)
        append_range (out, g_array_index (ranges, TvExportRange, i).start,
                      g_array_index (ranges, TvExportRange, i).end);
      json_close (out, ']');
      g_string_append_c (out, ',');
    }
  append_transforms (self, out);
  json_close (out, '}');
  g_string_append_c (out, ',');
}

void
tv_export_html_append_strings (Exporter *self,
                               GString  *out)
{
  json_key (out, "strings");
  g_string_append_c (out, '[');
  for (guint i = 0; i < self->strings->len; i++)
    {
      const Ref *ref = &g_array_index (self->strings, Ref, i);
      size_t len = 0;
      const char *text = tach_reader_get_string (self->sides[ref->side].reader, ref->index, &len);

      tv_json_append_string (out, text, len);
      g_string_append_c (out, ',');
    }
  json_close (out, ']');
  g_string_append_c (out, ',');
}

/* Seven numbers a frame: the strings, then the location and the opcode
 * as the file has them where the merge key has them, else -1. */
void
tv_export_html_append_frames (Exporter *self,
                              GString  *out)
{
  json_key (out, "frames");
  g_string_append_c (out, '[');
  for (guint i = 0; i < self->frames->len; i++)
    {
      const Ref *ref = &g_array_index (self->frames, Ref, i);
      const Side *side = &self->sides[ref->side];
      TvMergeKey merge = side->merge;
      guint32 frame = tv_profile_data_get_key_frame (side->data, merge, ref->index);
      const TachFrame *f = tach_reader_get_frame (side->reader, frame);
      gboolean line = merge != TV_MERGE_FUNCTION;
      gboolean column = merge == TV_MERGE_INSTRUCTION || merge == TV_MERGE_FRAME;
      gboolean ends = merge == TV_MERGE_FRAME;

      g_string_append_printf (out, "%u,%u,", side->string_ids[f->funcname],
                              side->string_ids[f->filename]);
      json_int (out, line ? f->lineno : -1);
      json_int (out, ends ? f->end_lineno : -1);
      json_int (out, column ? f->column : -1);
      json_int (out, ends ? f->end_column : -1);
      json_int (out, column && f->opcode != TACH_OPCODE_NONE ? f->opcode : -1);
    }
  json_close (out, ']');
  g_string_append_c (out, ',');
}

/* The whole of a regular Python file of at most SOURCE_MAX_FILE bytes, or
 * NULL.  Nothing else is opened: not a FIFO, which would block, nor a
 * device, nor a file that is not Python's, since the page shows what it
 * reads to whoever it is sent to. */
static GBytes *
read_python_file (const char *path)
{
  g_autofree char *buffer = NULL;
  struct stat st;
  gsize len = 0;
  int fd;

  if (!g_str_has_suffix (path, ".py") && !g_str_has_suffix (path, ".pyw"))
    return NULL;
  fd = open (path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  if (fd < 0)
    return NULL;
  if (fstat (fd, &st) != 0 || !S_ISREG (st.st_mode) || st.st_size > SOURCE_MAX_FILE)
    {
      close (fd);
      return NULL;
    }
  buffer = g_malloc (st.st_size + 1);
  while (len < (gsize) st.st_size)
    {
      gssize n = read (fd, buffer + len, st.st_size - len);

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        break;
      len += n;
    }
  close (fd);
  return g_bytes_new_take (g_steal_pointer (&buffer), len);
}

static int
compare_u32 (gconstpointer a,
             gconstpointer b)
{
  guint32 x = *(const guint32 *) a;
  guint32 y = *(const guint32 *) b;

  return x < y ? -1 : x > y;
}

/* Line FROM (1-based) to TO of TEXT, each as a JSON string, valid UTF-8
 * and cut to SOURCE_MAX_LINE characters; fewer where the file ends. */
static gsize
append_source_lines (GString    *out,
                     const char *text,
                     gsize       len,
                     guint32    *cursor_line,
                     gsize      *cursor,
                     guint32     from,
                     guint32     to)
{
  gsize written = 0;

  /* Move to line FROM: the cursor only moves forward. */
  while (*cursor_line < from && *cursor < len)
    {
      const char *nl = memchr (text + *cursor, '\n', len - *cursor);

      *cursor = nl != NULL ? (gsize) (nl - text) + 1 : len;
      (*cursor_line)++;
    }
  g_string_append_c (out, '[');
  while (*cursor_line <= to && *cursor < len)
    {
      const char *start = text + *cursor;
      const char *nl = memchr (start, '\n', len - *cursor);
      gsize line_len = nl != NULL ? (gsize) (nl - start) : len - *cursor;
      g_autofree char *valid = NULL;
      const char *cut;

      *cursor += line_len + (nl != NULL ? 1 : 0);
      (*cursor_line)++;
      if (line_len > 0 && start[line_len - 1] == '\r')
        line_len--;
      valid = g_utf8_make_valid (start, MIN (line_len, 4 * SOURCE_MAX_LINE));
      cut = valid;
      for (guint i = 0; i < SOURCE_MAX_LINE && *cut != '\0'; i++)
        cut = g_utf8_next_char (cut);
      tv_json_append_string (out, valid, cut - valid);
      g_string_append_c (out, ',');
      written += cut - valid;
    }
  json_close (out, ']');
  g_string_append_c (out, ',');
  return written;
}

/* "sources": for each Python file of the frames that exists here, the
 * lines around the frames' lines, as triples of the file's string, the
 * first line's number and the lines; read now, as CPython's page does. */
void
tv_export_html_append_sources (Exporter *self,
                               GString  *out)
{
  g_autoptr(GHashTable) wanted = g_hash_table_new_full (NULL, NULL, NULL,
                                                        (GDestroyNotify) g_array_unref);
  GHashTableIter iter;
  gpointer key, value;
  gsize budget = SOURCE_BUDGET;

  json_key (out, "sources");
  g_string_append_c (out, '[');
  for (guint i = 0; i < self->frames->len; i++)
    {
      const Ref *ref = &g_array_index (self->frames, Ref, i);
      const Side *side = &self->sides[ref->side];
      guint32 frame = tv_profile_data_get_key_frame (side->data, side->merge, ref->index);
      const TachFrame *f = tach_reader_get_frame (side->reader, frame);
      guint32 file = side->string_ids[f->filename];
      GArray *lines;

      if (side->merge == TV_MERGE_FUNCTION || f->lineno < 1)
        continue;
      lines = g_hash_table_lookup (wanted, GUINT_TO_POINTER (file));
      if (lines == NULL)
        {
          lines = g_array_new (FALSE, FALSE, sizeof (guint32));
          g_hash_table_insert (wanted, GUINT_TO_POINTER (file), lines);
        }
      g_array_append_val (lines, f->lineno);
    }

  g_hash_table_iter_init (&iter, wanted);
  while (budget > 0 && g_hash_table_iter_next (&iter, &key, &value))
    {
      guint32 file = GPOINTER_TO_UINT (key);
      GArray *lines = value;
      const Ref *ref = &g_array_index (self->strings, Ref, file);
      g_autoptr(GBytes) bytes = NULL;
      const char *text;
      gsize len, cursor = 0;
      guint32 cursor_line = 1;
      size_t name_len = 0;
      const char *name = tach_reader_get_string (self->sides[ref->side].reader, ref->index,
                                                 &name_len);

      /* A name with a NUL in it names no file. */
      if (memchr (name, '\0', name_len) != NULL)
        continue;
      bytes = read_python_file (name);
      if (bytes == NULL)
        continue;
      text = g_bytes_get_data (bytes, &len);
      g_array_sort (lines, compare_u32);
      for (guint i = 0; i < lines->len && budget > 0;)
        {
          guint32 first = MAX (g_array_index (lines, guint32, i), SNIPPET_CONTEXT + 1)
                          - SNIPPET_CONTEXT;
          guint32 last = g_array_index (lines, guint32, i) + SNIPPET_CONTEXT;
          gsize written;

          /* The runs of lines that overlap or touch are one. */
          for (i++; i < lines->len && g_array_index (lines, guint32, i) <= last + 1 + SNIPPET_CONTEXT;
               i++)
            last = MAX (last, g_array_index (lines, guint32, i) + SNIPPET_CONTEXT);
          first = MAX (first, cursor_line);
          if (cursor >= len)
            break;
          g_string_append_printf (out, "%u,%u,", file, first);
          written = append_source_lines (out, text, len, &cursor_line, &cursor, first, last);
          budget = written >= budget ? 0 : budget - written;
        }
    }
  json_close (out, ']');
  g_string_append_c (out, ',');
}

/* A digit an export frame: its module (TvPaletteModule) as the
 * application tells it from the file's path, 4 for CPython's <GC> frame
 * and 5 for its <native> one. */
static void
append_kinds (Exporter *self,
              GString  *out)
{
  g_autofree char *root = tv_flame_guess_project_root (self->sides[0].data);

  json_key (out, "kinds");
  g_string_append_c (out, '[');
  for (guint i = 0; i < self->frames->len; i++)
    {
      const Ref *ref = &g_array_index (self->frames, Ref, i);
      const Side *side = &self->sides[ref->side];
      guint32 frame = tv_profile_data_get_key_frame (side->data, side->merge, ref->index);
      const char *file = tv_profile_data_get_filename (side->data, frame);
      TvFlameSynthetic synthetic =
        tv_flame_classify_synthetic (file, tv_profile_data_get_funcname (side->data, frame));
      guint kind = synthetic != TV_FLAME_SYNTHETIC_NONE
                   ? TV_PALETTE_N_MODULES + synthetic - 1
                   : (guint) tv_flame_classify_file (file, root);

      g_string_append_printf (out, "%u,", kind);
    }
  json_close (out, ']');
  g_string_append_c (out, ',');
}

/* inverted, orientation, merge, zoom (export frames from the root down,
 * in the tree as the page starts), search. */
void
tv_export_html_append_view (Exporter   *self,
                            GString    *out,
                            gboolean    inverted,
                            const char *search)
{
  gboolean icicle = self->state != NULL
                    && tv_view_state_get_orientation (self->state) == TV_FLAME_ORIENTATION_ICICLE;

  json_key (out, "view");
  g_string_append_printf (out, "{\"inverted\":%s,", inverted ? "true" : "false");
  json_string (out, "orientation", icicle ? "icicle" : "flame");
  json_string (out, "merge", tv_export_merge_to_string (tv_call_tree_get_merge (self->tree)));
  json_key (out, "zoom");
  g_string_append_c (out, '[');
  for (guint i = 0; self->zoom_path != NULL && i < self->zoom_path->len; i++)
    g_string_append_printf (out, "%u,",
                            tv_export_html_map_key (self, 0,
                                              g_array_index (self->zoom_path, guint32, i)));
  json_close (out, ']');
  g_string_append_c (out, ',');
  if (search != NULL && search[0] != '\0')
    json_string (out, "search", search);
  json_close (out, '}');
  g_string_append_c (out, ',');
}

/* The start of the object, up to the profile's facts. */
void
tv_export_html_append_preamble (GString       *out,
                                TvProfileData *data,
                                const char    *source_name)
{
  g_string_append_c (out, '{');
  json_string (out, "format", FORMAT_NAME);
  json_u64 (out, "version", FORMAT_VERSION);
  json_string (out, "generator", "tachyon-viewer " PACKAGE_VERSION);
  tv_export_html_append_ui (out);
  tv_export_html_append_profile_facts (data, out, source_name);
}

static GString *
exporter_build_json (Exporter      *self,
                     const char    *source_name,
                     GCancellable  *cancellable,
                     GError       **error)
{
  g_autoptr(GString) out = g_string_sized_new (1 << 16);

  /* The progress of a watched export (tv-progress.h) after each part,
   * the nodes and the threads' counts being the big ones. */
  tv_export_html_append_preamble (out, self->data, source_name);
  tv_export_html_append_filter (self, out);
  tv_export_html_append_view (self, out, tv_view_state_get_inverted (self->state),
                              tv_view_state_get_search (self->state));
  json_u64 (out, "samples", tv_call_tree_get_n_samples (self->tree));
  tv_export_html_append_strings (self, out);
  tv_export_html_append_frames (self, out);
  append_kinds (self, out);
  tv_export_html_append_palette (out);
  tv_export_html_append_sources (self, out);
  tv_progress_report (cancellable, 0.1);
  tv_export_html_append_nodes (self, out);
  tv_progress_report (cancellable, 0.5);
  tv_export_html_append_aggregated (self, out);
  if (!tv_export_html_append_threads (self, out, cancellable, error))
    return NULL;
  tv_progress_report (cancellable, 0.8);
  if (!tv_export_html_append_states (self, out, cancellable, error))
    return NULL;
  json_close (out, '}');

  return g_steal_pointer (&out);
}

/* ------------------------------------------------------------------------ */
/* The page                                                                  */
/* ------------------------------------------------------------------------ */

/* Numbers the tree's nodes, and its remainders' boxes, and maps its
 * frames. */
static void
exporter_take_tree (Exporter   *self,
                    TvCallTree *tree)
{
  self->tree = tree;
  self->n_nodes = tv_call_tree_get_n_nodes (tree);
  tv_export_html_number_nodes (self);
  exporter_map_frames (self);
}

/* The call paths of TREE: its nodes, and those its remainders hold. */
static guint64
count_paths (TvCallTree *tree)
{
  guint64 n = tv_call_tree_get_n_nodes (tree);

  for (guint32 node = 0; node < tv_call_tree_get_n_nodes (tree); node++)
    n += tv_call_tree_get_remainder_paths (tree, node);
  return n;
}

/* The page's tree of the samples QUERY selects, with each thread's
 * samples and each state's: the page's filters.  A tree too big to send
 * whole, the model leaves out the children of fewer than 0.005 % of its
 * samples as it makes it, on the way to the ZOOM_KEYS (top-down) but the
 * path itself. */
static TvCallTree *
exporter_make_tree (Exporter      *self,
                    const guint32 *zoom_keys,
                    guint          n_zoom_keys,
                    GCancellable  *cancellable)
{
  TvQuery query = self->query;
  TvCallTree *tree;

  query.thread_self = TRUE;
  query.count_states = tv_profile_data_has_states (self->data);
  if (tv_profile_data_get_tree (self->data)->n_nodes > TV_EXPORT_HTML_LOSSLESS_NODES)
    {
      query.min_total_divisor = TV_EXPORT_HTML_SHARE_DIVISOR;
      query.detail_path = zoom_keys;
      query.n_detail_path = n_zoom_keys;
    }
  tree = tv_call_tree_new (self->data, &query, cancellable);
  /* Left out, but small enough whole: made again, whole. */
  if (tree != NULL && tv_call_tree_get_cut_below (tree, TV_ROOT_NODE) > 0
      && count_paths (tree) <= TV_EXPORT_HTML_LOSSLESS_NODES)
    {
      g_clear_pointer (&tree, tv_call_tree_unref);
      query.min_total_divisor = 0;
      query.detail_path = NULL;
      query.n_detail_path = 0;
      tree = tv_call_tree_new (self->data, &query, cancellable);
    }
  return tree;
}

/* The zoom path, found in the tree the page starts with: the inverted
 * one when it starts inverted. */
static gboolean
exporter_find_zoom (Exporter      *self,
                    GCancellable  *cancellable,
                    GError       **error)
{
  g_autoptr(TvCallTree) inverted = NULL;
  TvCallTree *tree = self->tree;
  guint32 node;

  guint n_keys;

  tv_view_state_get_zoom_path (self->state, &n_keys);
  if (n_keys == 0)
    return TRUE;
  if (tv_view_state_get_inverted (self->state))
    {
      TvQuery query = self->query;

      query.inverted = TRUE;
      inverted = tv_call_tree_new (self->data, &query, cancellable);
      if (inverted == NULL)
        return tv_export_set_cancelled (cancellable, error);
      tree = inverted;
    }
  return tv_export_find_zoom (self->state, tree, &self->zoom_path, &node, error);
}

/**
 * tv_export_html_build:
 * @data: a loaded profile
 * @state: which samples, transformed and merged how, and the view the
 *   page starts with (inverted, orientation, zoom, search); not changed
 *   while the page is made
 * @source_name: the profile's name as the page shows it (UTF-8)
 * @cancellable: (nullable): a cancellable
 * @error: return location for an error
 *
 * Makes the self-contained HTML flame graph of the samples @state keeps.
 * Fails if its search is not a regular expression, its zoom path is not
 * in the samples shown, or when cancelled.
 *
 * Returns: (transfer full): the page, or %NULL with @error set
 */
GBytes *
tv_export_html_build (TvProfileData         *data,
                      TvViewState           *state,
                      const char            *source_name,
                      GCancellable          *cancellable,
                      GError               **error)
{
  Exporter self = { 0 };
  g_autoptr(GString) json = NULL;
  TvCallTree *tree;
  const guint32 *zoom_keys;
  guint n_zoom_keys;
  gboolean inverted;
  double tree_end;
  gboolean ok;

  g_return_val_if_fail (data != NULL, NULL);
  g_return_val_if_fail (TV_IS_VIEW_STATE (state), NULL);
  g_return_val_if_fail (source_name != NULL, NULL);
  g_return_val_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  self.data = data;
  self.reader = tv_profile_data_get_reader (data);
  self.state = state;
  if (!tv_export_check_search (state, error))
    goto failed;
  tv_export_make_query (state, data, &self.query);

  /* The tree is most of the work, the JSON the rest (tv-progress.h); a
   * zoom into an inverted view needs a second tree, which takes a share
   * of its own. */
  zoom_keys = tv_view_state_get_zoom_path (state, &n_zoom_keys);
  inverted = tv_view_state_get_inverted (state);
  tree_end = n_zoom_keys > 0 && inverted ? 0.4 : 0.7;
  tv_progress_push (cancellable, 0.0, tree_end);
  tree = exporter_make_tree (&self, inverted ? NULL : zoom_keys, inverted ? 0 : n_zoom_keys,
                             cancellable);
  tv_progress_pop (cancellable);
  if (tree == NULL)
    {
      tv_export_set_cancelled (cancellable, error);
      goto failed;
    }
  side_init (&self.sides[0], data, tv_view_state_get_merge (state));
  exporter_take_tree (&self, tree);
  tv_progress_push (cancellable, tree_end, 0.7);
  ok = exporter_find_zoom (&self, cancellable, error);
  tv_progress_pop (cancellable);
  if (!ok)
    goto failed;

  tv_progress_push (cancellable, 0.7, 1.0);
  json = exporter_build_json (&self, source_name, cancellable, error);
  tv_progress_pop (cancellable);
  exporter_clear (&self);
  if (json == NULL)
    return NULL;

  return tv_export_html_fill_template (json);

failed:
  exporter_clear (&self);
  return NULL;
}

/**
 * tv_export_html_build_diff:
 * @diff: two profiles compared
 * @state: (nullable): what both sides were filtered and transformed by,
 *   in NEW's threads and functions, for the page to say (its "filter"
 *   object); %NULL: the page's filter is null
 * @base_name: BASE's name as the page shows it (UTF-8)
 * @new_name: NEW's name as the page shows it (UTF-8)
 * @search: (nullable): the search the page starts with, a regular
 *   expression
 * @cancellable: (nullable): a cancellable
 * @error: return location for an error
 *
 * Makes the self-contained differential HTML flame graph of @diff: NEW's
 * tree (as @diff has it: filtered, merged and inverted as its trees were
 * made) coloured by the change against BASE, with both profiles' facts,
 * the comparability warnings, the function table and the stacks that
 * vanished from BASE.  It is the page of tv_export_html_build() in its
 * "diff" mode.  Fails if @search is not a regular expression, or when
 * cancelled.
 *
 * Returns: (transfer full): the page, or %NULL with @error set
 */
GBytes *
tv_export_html_build_diff (TvDiff                *diff,
                           TvViewState           *state,
                           const char            *base_name,
                           const char            *new_name,
                           const char            *search,
                           GCancellable          *cancellable,
                           GError               **error)
{
  Exporter self = { 0 };
  g_autoptr(GString) json = NULL;
  TvCallTree *new_tree;
  TvCallTree *base_tree;

  g_return_val_if_fail (diff != NULL, NULL);
  g_return_val_if_fail (base_name != NULL, NULL);
  g_return_val_if_fail (new_name != NULL, NULL);
  g_return_val_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (search != NULL && search[0] != '\0')
    {
      g_autoptr(GRegex) regex = tv_export_compile_search (search, error);

      if (regex == NULL)
        return NULL;
    }
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return NULL;

  new_tree = tv_diff_get_tree (diff, TV_DIFF_SIDE_NEW);
  base_tree = tv_diff_get_tree (diff, TV_DIFF_SIDE_BASE);
  self.diff = diff;
  self.data = tv_call_tree_get_data (new_tree);
  self.reader = tv_profile_data_get_reader (self.data);
  side_init (&self.sides[0], self.data, tv_call_tree_get_merge (new_tree));
  side_init (&self.sides[1], tv_call_tree_get_data (base_tree), tv_call_tree_get_merge (base_tree));
  exporter_take_tree (&self, tv_call_tree_ref (new_tree));
  /* The state's transforms, in NEW's keys, say which functions. */
  self.state = state;
  if (state != NULL)
    tv_export_make_query (state, self.data, &self.query);

  /* Its trees are made: a watched export (tv-progress.h) hears of its
   * steps, the JSON being most of the rest. */
  tv_progress_report (cancellable, 0.2);
  tv_progress_push (cancellable, 0.2, 0.95);
  self.cancellable = cancellable;
  json = tv_export_html_build_diff_json (&self, base_name, new_name, search);
  tv_progress_pop (cancellable);
  exporter_clear (&self);
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return NULL;
  return tv_export_html_fill_template (json);
}
