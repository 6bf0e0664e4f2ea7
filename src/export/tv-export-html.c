/* tv-export-html.c: a profile as one self-contained HTML flame graph
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The page is data/flamegraph.html (its own canvas renderer, no library,
 * nothing fetched) with the profile embedded as JSON in a
 * <script type="application/json" id="tachyon-data"> element; README.md
 * documents the schema.  The call tree is the model's, merged by the
 * filter's key, transformed as it says and never pruned; the same pass
 * that makes it keeps each thread's samples on its nodes (only the nodes
 * the thread reached), so that the page's thread filter gives exact
 * counts at a cost in proportion to what the page holds.  A frame of the page is a merge key: the fields the key does not
 * have are left out (-1).
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
#include "tv-quality.h"

/* Generated from data/tachyon-viewer-export.gresource.xml. */
GResource *tv_export_get_resource (void);

#define TEMPLATE_PATH   "/io/github/tachyonviewer/TachyonViewer/export/flamegraph.html"
#define CSP_MARKER      "@CSP@"
#define DATA_MARKER     "@DATA@"

#define FORMAT_NAME     "tachyon-viewer-flamegraph"
#define FORMAT_VERSION  1

#define UNMAPPED        G_MAXUINT32
/* The source lines a page holds: the frame's line and SNIPPET_CONTEXT on
 * each side, from Python files of at most SOURCE_MAX_FILE bytes, each line
 * cut to SOURCE_MAX_LINE characters, SOURCE_BUDGET bytes in all. */
#define SNIPPET_CONTEXT  2
#define SOURCE_MAX_FILE  (8 << 20)
#define SOURCE_MAX_LINE  240
#define SOURCE_BUDGET    (2 << 20)
/* The vanished stacks a differential page lists, the most samples first. */
#define MAX_VANISHED    1000

#ifndef PACKAGE_VERSION
# define PACKAGE_VERSION "unknown"
#endif

/* The page's own words (UI_EN of data/flamegraph.html), in the language
 * the exporter runs in, as the "ui" object: the page keeps English for a
 * key that is not here.  The page fills in {0}, {1}, …; of a pair of
 * *_one and *_other keys it takes the first for one, the second for any
 * other number. */
static const struct
{
  const char *key;
  const char *text;
} ui_strings[] = {
  { "page_title", N_("Tachyon flame graph") },
  { "page_title_named", N_("{0} — Tachyon flame graph") },
  { "diff_page_title", N_("{0} vs {1} — Tachyon differential flame graph") },
  { "diff_title", N_("{0} vs {1}") },
  { "statistics", N_("Statistics") },
  { "flame_graph", N_("Flame graph") },
  { "search", N_("Search") },
  { "search_placeholder", N_("regular expression") },
  { "search_tooltip", N_("A regular expression over function names, files and "
                          "file:line, case-insensitive") },
  { "thread", N_("Thread") },
  { "inverted", N_("Inverted") },
  { "icicle", N_("Icicle") },
  { "colour_by", N_("Colour by") },
  { "total_change", N_("total change") },
  { "self_change", N_("self change") },
  { "reset_zoom", N_("Reset zoom") },
  { "reset_tooltip", N_("Show the whole tree (Esc)") },
  { "canvas_label", N_("Flame graph; click a frame to zoom into it") },
  { "empty", N_("No samples in this export.") },
  { "functions", N_("Functions") },
  { "vanished_title", N_("Stacks that vanished from the baseline") },
  { "profile", N_("Profile") },
  { "not_regex", N_("Not a regular expression") },
  /* Translators: {0} is a share (12.5%), {1} and {2} numbers. */
  { "matched", N_("{0} matched ({1} of {2} samples)") },
  { "root", N_("all") },
  { "root_inverted", N_("all (inverted)") },
  { "all_samples", N_("All samples") },
  { "all_samples_inverted", N_("All samples (inverted)") },
  /* Translators: the page picks the first of each pair for one sample
   * and the second otherwise. */
  { "tip_total_one", N_("Total: {0} sample, {1}") },
  { "tip_total", N_("Total: {0} samples, {1}") },
  { "tip_self_one", N_("Self: {0} sample, {1}") },
  { "tip_self", N_("Self: {0} samples, {1}") },
  { "tip_share_caller", N_("{0} of all, {1} of its caller") },
  { "tip_share_callee", N_("{0} of all, {1} of its callee") },
  { "tip_thread", N_("Thread: {0}") },
  { "tip_threads", N_("Threads: {0}") },
  { "none", N_("none") },
  { "and_more", N_("{0} and {1} more") },
  { "tip_opcode", N_("Opcode: {0}") },
  { "where_column", N_("{0}, column {1}") },
  { "thread_interpreter", N_("{0} (interpreter {1})") },
  { "thread_main", N_("{0} (main)") },
  { "all_threads", N_("all threads") },
  { "thread_named", N_("thread {0}") },
  { "state", N_("State") },
  { "state_tooltip", N_("Samples to show, by thread state, of all threads") },
  { "state_all", N_("All Samples") },
  { "state_gil", N_("Holding the GIL") },
  { "state_cpu", N_("On CPU, With or Without the GIL") },
  { "state_gil_wait", N_("Waiting for the GIL") },
  { "state_exception", N_("With an Exception") },
  /* Translators: {0} is the status line, {1} a thread state, e.g.
   * "Waiting for the GIL". */
  { "status_state", N_("{0}, only samples: {1}") },
  /* Translators: {0} says how much the search matched. */
  { "search_literal", N_("{0} (searched as plain text: as a regular expression it could take too long)") },
  /* Translators: {1} is a time that adds up every thread's samples. */
  { "status_one", N_("{0} sample ({1} of thread time) of {2}") },
  { "status", N_("{0} samples ({1} of thread time) of {2}") },
  /* Translators: the subtitle, then how long the samples span. */
  { "wall_span", N_("{0}, {1} of wall-clock time") },
  { "checksum_unused", N_("unused (all zero)") },
  /* Translators: a size to read (12.8 MB), then the exact bytes. */
  { "bytes_sized", N_("{0} ({1} bytes)") },
  { "status_inverted", N_("{0}, inverted") },
  { "status_merged", N_("{0}, merged by {1}") },
  { "merge_frame", N_("frame") },
  { "merge_function", N_("function") },
  { "merge_line", N_("line") },
  { "merge_instruction", N_("instruction") },
  { "status_compared", N_("Compared with {0} ({1} samples), by {2}: {3}, coloured by {4}") },
  { "by_share", N_("share of samples") },
  { "by_time", N_("time") },
  { "status_zoomed", N_("{0} — zoomed into {1} ({2})") },
  { "not_recorded", N_("not recorded") },
  { "duration", N_("Duration") },
  { "sample_rate", N_("Measured sample rate") },
  { "error_rate", N_("Error rate") },
  { "missed_samples", N_("Missed samples") },
  { "unit_samples_per_second", N_(" samples/s") },
  { "unit_bytes", N_(" bytes") },
  { "header", N_("Header") },
  { "footer", N_("Footer") },
  { "format_version", N_("Format version") },
  { "python_version", N_("Python version") },
  { "start_time", N_("Start time") },
  { "sample_interval", N_("Sample interval") },
  { "sample_count", N_("Sample count") },
  { "thread_count", N_("Thread count") },
  { "string_table_offset", N_("String table offset") },
  { "frame_table_offset", N_("Frame table offset") },
  { "compression_type", N_("Compression type") },
  { "profiling_mode", N_("Profiling mode") },
  { "mode_raw", N_("Mode (raw)") },
  { "string_count", N_("String count") },
  { "frame_count", N_("Frame count") },
  { "file_size", N_("File size") },
  { "checksum", N_("Checksum") },
  { "file", N_("File") },
  { "size", N_("Size") },
  { "byte_order", N_("Byte order") },
  { "samples_decoded", N_("Samples decoded") },
  { "max_depth", N_("Maximum depth") },
  { "time_per_sample", N_("Time per sample") },
  { "time_from_stats", N_("{0} (measured sample rate)") },
  { "time_from_interval", N_("{0} (sampling interval)") },
  { "samples_exported", N_("Samples exported") },
  { "samples_compared", N_("Samples compared") },
  { "threads_filter", N_("Threads filter") },
  { "state_filter", N_("State filter") },
  { "time_filter", N_("Time filter") },
  { "time_ranges", N_("Time ranges") },
  { "all", N_("all") },
  { "any", N_("any") },
  { "range", N_("{0} to {1}") },
  { "range_start", N_("start") },
  { "range_end", N_("end") },
  { "whole_profile", N_("whole profile") },
  { "focus", N_("Focus") },
  { "hidden", N_("Hidden") },
  { "recursion", N_("Recursion") },
  { "collapsed", N_("collapsed") },
  { "as_recorded", N_("as recorded") },
  { "written_by", N_("Written by") },
  { "file_and_export", N_("File and export") },
  { "warnings", N_("Warnings") },
  { "no_warnings", N_("None.") },
  { "quality_title", N_("Data quality") },
  { "quality_base", N_("Baseline") },
  { "threads", N_("Threads") },
  { "interpreter", N_("Interpreter") },
  { "samples", N_("Samples") },
  { "gil", N_("GIL") },
  { "cpu", N_("CPU") },
  { "gil_wait", N_("GIL wait") },
  { "exception", N_("Exception") },
  { "exported", N_("Exported") },
  /* Translators: Python {0}, {1} the profiling mode, {2} a number,
   * {3} “{0} thread(s)”. */
  { "subtitle_one", N_("Python {0}, {1} mode, {2} sample, {3}") },
  { "subtitle", N_("Python {0}, {1} mode, {2} samples, {3}") },
  { "subtitle_no_mode_one", N_("Python {0}, mode not recorded, {1} sample, {2}") },
  { "subtitle_no_mode", N_("Python {0}, mode not recorded, {1} samples, {2}") },
  /* Translators: the page picks this when there is one thread and the next
   * one otherwise. */
  { "threads_one", N_("{0} thread") },
  { "threads_other", N_("{0} threads") },
  { "stat_change_tooltip", N_("baseline → this profile") },
  { "baseline", N_("Baseline") },
  { "this_profile", N_("This profile") },
  { "side_title", N_("{0}: {1}") },
  { "all_threads_option_one", N_("All threads — {0} sample") },
  { "all_threads_option", N_("All threads — {0} samples") },
  { "thread_option_one", N_("{0} — {1} sample ({2})") },
  { "thread_option", N_("{0} — {1} samples ({2})") },
  { "relative_new", N_("new") },
  { "slower", N_("slower") },
  { "faster", N_("faster") },
  { "no_change", N_("no significant change") },
  { "method", N_("exact binomial test on {0}, at {1} confidence") },
  { "method_share", N_("the shares of samples") },
  { "method_time", N_("the two sampling rates (time)") },
  { "total", N_("Total") },
  { "self", N_("Self") },
  { "diff_line", N_("{0}: {1} → {2} (Δ {3}, {4}), {5}") },
  { "diff_samples_line", N_("{0} samples: {1} → {2}, p = {3}") },
  { "method_line", N_("Method: {0}") },
  /* Translators: the page picks this for one caveat and the next one
   * otherwise. */
  { "caveat_one", N_("This comparison has a caveat:") },
  { "caveats_other", N_("This comparison has {0} caveats:") },
  { "function", N_("Function") },
  { "total_before", N_("Total before") },
  { "total_after", N_("Total after") },
  { "total_delta", N_("Total Δ") },
  /* xgettext:no-c-format */
  { "total_relative", N_("Total Δ%") },
  { "total_p", N_("Total p") },
  { "self_before", N_("Self before") },
  { "self_after", N_("Self after") },
  { "self_delta", N_("Self Δ") },
  /* xgettext:no-c-format */
  { "self_relative", N_("Self Δ%") },
  { "self_p", N_("Self p") },
  { "functions_note", N_("{0} functions; by default the largest change of the total first") },
  { "functions_note_first", N_("{0}; the first {1} shown") },
  /* xgettext:no-c-format */
  { "functions_note_end", N_("{0}. Δ% is relative to the baseline; {1}.") },
  { "vanished_item_one", N_("{0} — {1} ({2} sample)") },
  { "vanished_item", N_("{0} — {1} ({2} samples)") },
  /* Translators: stands for the frames in the middle of a deep stack. */
  { "vanished_more", N_("… {0} more frames …") },
  { "vanished_none", N_("None: every stack of the baseline is in this profile.") },
  { "vanished_note", N_("{0} stacks, {1} samples of the baseline") },
  { "vanished_note_listed", N_("{0}; the {1} largest listed") },
  { "sentence", N_("{0}.") },
  { "legend_more", N_("more in this profile") },
  { "legend_less", N_("less") },
  { "legend_noise", N_("within sampling noise") },
  { "legend_stronger", N_("stronger: a larger relative change") },
  /* Translators: the language tag (BCP 47) the exported page formats
   * numbers with, such as de-DE. */
  { "number_locale", N_("en-US") },
  { "colour_name", N_("function") },
  { "colour_heat", N_("heat (self time)") },
  { "export_svg", N_("Export SVG") },
  { "svg_tooltip", N_("Save what is shown as an SVG image") },
  { "theme_dark", N_("Dark") },
  { "theme_light", N_("Light") },
  { "theme_tooltip", N_("Switch between light and dark") },
  { "hotspots", N_("Hotspots: the most self time") },
  { "runtime", N_("Runtime, all threads") },
  /* Translators: {0} a number of functions, {1} a function's name. */
  { "summary_line", N_("Summary: {0} functions; the most self time in {1}") },
  { "summary_line_empty", N_("Summary: no samples") },
  /* Translators: a hotspot: {0} a share, {1} a time, {2} samples. */
  { "hotspot", N_("{0} — {1} ({2})") },
  { "find_tooltip", N_("Search for this function") },
  { "share_gil", N_("holding the GIL") },
  { "share_released", N_("GIL released") },
  { "share_waiting", N_("waiting for the GIL") },
  { "share_gc", N_("garbage collection (<GC>)") },
  { "share_exception", N_("in an exception") },
  { "share_native", N_("native code (<native>)") },
  { "shares_note", N_("GIL and exception: the {0} samples of the file; "
                      "<GC> and native: the {1} samples shown") },
  { "legend_python", N_("Python functions") },
  { "legend_stdlib", N_("standard library") },
  { "legend_packages", N_("installed packages") },
  { "legend_project", N_("the profiled program") },
  { "legend_other", N_("other code") },
  { "legend_gc", N_("<GC>: garbage collection") },
  { "legend_native", N_("<native>: native code") },
  { "legend_match", N_("search match") },
  { "legend_heat_low", N_("no self time") },
  { "legend_heat_high", N_("the most self time") },
};

/* The states the page filters by: the name `--state` takes, and the
 * call tree's count of it. */
static const struct
{
  const char    *name;
  TvStatusCount  count;
} page_states[] = {
  { "gil", TV_STATUS_COUNT_HAS_GIL },
  { "cpu", TV_STATUS_COUNT_ON_CPU },
  { "gil-wait", TV_STATUS_COUNT_GIL_REQUESTED },
  { "exception", TV_STATUS_COUNT_HAS_EXCEPTION },
};

static const char * const status_names[] = {
  "has_gil", "on_cpu", "unknown", "gil_requested", "has_exception", "main_thread",
};

/* One profile's frames and strings as the page numbers them. */
typedef struct
{
  TvProfileData        *data;
  TachReader           *reader;
  TvMergeKey            merge;
  guint32              *frame_ids;       /* merge key -> export frame */
  guint32              *string_ids;      /* string index -> export string */
} Side;

/* An export frame or string: which side's key or string index. */
typedef struct
{
  guint32 side;
  guint32 index;
} Ref;

typedef struct
{
  TvProfileData        *data;            /* NEW's, in a differential page */
  TachReader           *reader;
  /* What both sides of a differential page were filtered by, or NULL. */
  const TvExportFilter *filter;
  TvDiff               *diff;            /* NULL but in a differential page */
  TvExportQuery         query;
  TvCallTree           *tree;            /* every selected sample */
  guint32               n_nodes;
  guint32              *order;           /* export id -> node, parents first */
  guint32              *export_ids;      /* node -> export id */
  Side                  sides[2];        /* NEW (or the only one), BASE */
  GArray               *frames;          /* Ref, by export frame */
  GArray               *strings;         /* Ref, by export string */
  GArray               *zoom_path;       /* merge keys from the root, or NULL */
} Exporter;

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
  tv_export_query_clear (&self->query);
  g_clear_pointer (&self->tree, tv_call_tree_unref);
  g_clear_pointer (&self->order, g_free);
  g_clear_pointer (&self->export_ids, g_free);
  side_clear (&self->sides[0]);
  side_clear (&self->sides[1]);
  g_clear_pointer (&self->frames, g_array_unref);
  g_clear_pointer (&self->strings, g_array_unref);
  g_clear_pointer (&self->zoom_path, g_array_unref);
}

static gboolean
set_cancelled (GCancellable  *cancellable,
               GError       **error)
{
  /* A call tree is only ever missing because it was cancelled. */
  if (!g_cancellable_set_error_if_cancelled (cancellable, error))
    g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_CANCELLED, "Cancelled");
  return FALSE;
}

/* Export ids in depth-first order, children in the model's display order:
 * parents come first, and the page lays out siblings as they come. */
static void
exporter_number_nodes (Exporter *self)
{
  g_autofree guint32 *stack = g_new (guint32, self->n_nodes);
  guint32 sp = 0;
  guint32 next = 0;

  self->order = g_new (guint32, self->n_nodes);
  self->export_ids = g_new (guint32, self->n_nodes);

  stack[sp++] = TV_ROOT_NODE;
  while (sp > 0)
    {
      guint32 node = stack[--sp];
      const guint32 *children;
      guint n_children;

      self->export_ids[node] = next;
      self->order[next++] = node;
      children = tv_call_tree_get_children (self->tree, node, &n_children);
      for (guint i = n_children; i > 0; i--)
        stack[sp++] = children[i - 1];
    }
  g_assert (next == self->n_nodes);
}

static guint32
exporter_map_string (Exporter *self,
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
static guint32
exporter_map_key (Exporter *self,
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
      exporter_map_string (self, side, f->funcname);
      exporter_map_string (self, side, f->filename);
    }
  return s->frame_ids[key];
}

/* Only the frames and strings that the tree uses are exported. */
static void
exporter_map_frames (Exporter *self)
{
  self->frames = g_array_new (FALSE, FALSE, sizeof (Ref));
  self->strings = g_array_new (FALSE, FALSE, sizeof (Ref));

  for (guint32 id = 1; id < self->n_nodes; id++)
    exporter_map_key (self, 0, tv_call_tree_get_key (self->tree, self->order[id]));
}

/* ------------------------------------------------------------------------ */
/* JSON                                                                      */
/* ------------------------------------------------------------------------ */

static void
json_key (GString    *out,
          const char *key)
{
  tv_json_append_string (out, key, -1);
  g_string_append_c (out, ':');
}

static void
json_u64 (GString    *out,
          const char *key,
          guint64     value)
{
  json_key (out, key);
  g_string_append_printf (out, "%" G_GUINT64_FORMAT ",", value);
}

static void
json_string (GString    *out,
             const char *key,
             const char *value)
{
  json_key (out, key);
  if (value != NULL)
    tv_json_append_string (out, value, -1);
  else
    g_string_append (out, "null");
  g_string_append_c (out, ',');
}

static void
json_double_or_null (GString  *out,
                     gboolean  present,
                     double    value)
{
  if (present && isfinite (value))
    tv_json_append_double (out, value);
  else
    g_string_append (out, "null");
  g_string_append_c (out, ',');
}

static void
json_optional_double (GString    *out,
                      const char *key,
                      gboolean    present,
                      double      value)
{
  json_key (out, key);
  json_double_or_null (out, present, value);
}

/* Ends an object or array whose last member left a comma behind. */
static void
json_close (GString *out,
            char     bracket)
{
  if (out->len > 0 && out->str[out->len - 1] == ',')
    out->str[out->len - 1] = bracket;
  else
    g_string_append_c (out, bracket);
}

static void
json_int (GString *out,
          gint32   value)
{
  g_string_append_printf (out, "%d,", value);
}

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
static void
append_profile_facts (TvProfileData *data,
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
  const TvQuery *query = &self->query.query;

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
static void
append_filter (Exporter *self,
               GString  *out)
{
  const TvExportFilter *filter = self->filter;

  json_key (out, "filter");
  if (filter == NULL)
    {
      g_string_append (out, "null,");
      return;
    }
  g_string_append_c (out, '{');
  json_key (out, "threads");
  if (filter->thread_ids->len == 0)
    {
      g_string_append (out, "null,");
    }
  else
    {
      g_string_append_c (out, '[');
      for (guint i = 0; i < filter->thread_ids->len; i++)
        g_string_append_printf (out, "\"%" G_GUINT64_FORMAT "\",",
                                g_array_index (filter->thread_ids, guint64, i));
      json_close (out, ']');
      g_string_append_c (out, ',');
    }
  json_string (out, "state", tv_export_state_to_string (filter->state));
  json_key (out, "range_sec");
  if (!filter->has_range)
    g_string_append (out, "null,");
  else
    append_range (out, filter->range_start, filter->range_end);
  json_key (out, "ranges_sec");
  if (filter->ranges->len == 0)
    {
      g_string_append (out, "null,");
    }
  else
    {
      g_string_append_c (out, '[');
      for (guint i = 0; i < filter->ranges->len; i++)
        {
          const TvExportRange *range = &g_array_index (filter->ranges, TvExportRange, i);

          append_range (out, range->start, range->end);
        }
      json_close (out, ']');
      g_string_append_c (out, ',');
    }
  append_transforms (self, out);
  json_close (out, '}');
  g_string_append_c (out, ',');
}

static void
append_strings (Exporter *self,
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
static void
append_frames (Exporter *self,
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
static void
append_sources (Exporter *self,
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

static void
json_color (GString    *out,
            const char *key,
            TvColor     color)
{
  json_key (out, key);
  g_string_append_printf (out, "\"#%06x\",", tv_color_pack (color));
}

/* The application's colours (tv-palette.c), light and dark: the page
 * draws in them.  Module colours as their ranges, which the page picks
 * in by the hash of a function's name as the application does. */
static void
append_palette (GString *out)
{
  json_key (out, "palette");
  g_string_append_c (out, '{');
  for (int dark = 0; dark < 2; dark++)
    {
      json_key (out, dark ? "dark" : "light");
      g_string_append_c (out, '{');
      json_key (out, "modules");
      g_string_append_c (out, '[');
      for (TvPaletteModule m = 0; m < TV_PALETTE_N_MODULES; m++)
        {
          double v[5];

          tv_palette_module_range (m, dark, &v[0], &v[1], &v[2], &v[3], &v[4]);
          g_string_append_c (out, '[');
          for (guint i = 0; i < G_N_ELEMENTS (v); i++)
            json_double_or_null (out, TRUE, v[i]);
          json_close (out, ']');
          g_string_append_c (out, ',');
        }
      json_close (out, ']');
      g_string_append_c (out, ',');
      json_color (out, "gc", tv_palette_gc (dark));
      json_color (out, "native", tv_palette_native (dark));
      json_color (out, "root", tv_palette_neutral (dark));
      json_color (out, "background", tv_palette_background (dark));
      json_color (out, "foreground", tv_palette_foreground (dark));
      json_color (out, "accent", tv_palette_accent (dark));
      json_close (out, '}');
      g_string_append_c (out, ',');
    }
  json_close (out, '}');
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

/* Two numbers a node but the root: how far back its parent is (ids are
 * depth-first, so mostly 1 or a few), and its frame. */
static void
append_nodes (Exporter *self,
              GString  *out)
{
  json_key (out, "nodes");
  g_string_append_c (out, '[');
  for (guint32 id = 1; id < self->n_nodes; id++)
    {
      guint32 node = self->order[id];
      guint32 parent = self->export_ids[tv_call_tree_get_parent (self->tree, node)];

      g_assert (parent < id);
      g_string_append_printf (out, "%u,%u,", id - parent,
                              self->sides[0].frame_ids[tv_call_tree_get_key (self->tree, node)]);
    }
  json_close (out, ']');
  g_string_append_c (out, ',');
}

/* inverted, orientation, merge, zoom (export frames from the root down,
 * in the tree as the page starts), search. */
static void
append_view (Exporter   *self,
             GString    *out,
             gboolean    inverted,
             const char *search)
{
  const TvExportFilter *filter = self->filter;
  gboolean icicle = filter != NULL && filter->orientation == TV_FLAME_ORIENTATION_ICICLE;

  json_key (out, "view");
  g_string_append_printf (out, "{\"inverted\":%s,", inverted ? "true" : "false");
  json_string (out, "orientation", icicle ? "icicle" : "flame");
  json_string (out, "merge", tv_export_merge_to_string (tv_call_tree_get_merge (self->tree)));
  json_key (out, "zoom");
  g_string_append_c (out, '[');
  for (guint i = 0; self->zoom_path != NULL && i < self->zoom_path->len; i++)
    g_string_append_printf (out, "%u,",
                            exporter_map_key (self, 0,
                                              g_array_index (self->zoom_path, guint32, i)));
  json_close (out, ']');
  g_string_append_c (out, ',');
  if (search != NULL && search[0] != '\0')
    json_string (out, "search", search);
  json_close (out, '}');
  g_string_append_c (out, ',');
}

typedef struct
{
  guint32 id;
  guint64 count;
} SelfCount;

static int
compare_self_counts (gconstpointer a,
                     gconstpointer b)
{
  const SelfCount *ca = a;
  const SelfCount *cb = b;

  return ca->id < cb->id ? -1 : ca->id > cb->id;
}

/* The samples of thread INDEX that the query selects, as pairs of export
 * id and count, from what the whole tree kept of that thread. */
static void
append_thread_self (Exporter      *self,
                    GString       *out,
                    guint32        index,
                    guint64       *sums,
                    guint64       *n_samples,
                    GArray        *scratch)
{
  const guint64 *counts;
  guint n_nodes;
  const guint32 *nodes = tv_call_tree_get_thread_self (self->tree, index, &counts, &n_nodes);

  g_array_set_size (scratch, 0);
  *n_samples = 0;
  for (guint i = 0; i < n_nodes; i++)
    {
      SelfCount pair = { self->export_ids[nodes[i]], counts[i] };

      g_array_append_val (scratch, pair);
      sums[nodes[i]] += counts[i];
      *n_samples += counts[i];
    }
  g_array_sort (scratch, compare_self_counts);

  /* Pairs of the distance from the previous id (from 0 for the first)
   * and the count. */
  g_string_append_c (out, '[');
  for (guint i = 0; i < scratch->len; i++)
    {
      const SelfCount *pair = &g_array_index (scratch, SelfCount, i);
      guint32 previous = i > 0 ? g_array_index (scratch, SelfCount, i - 1).id : 0;

      g_string_append_printf (out, "%u,%" G_GUINT64_FORMAT ",", pair->id - previous, pair->count);
    }
  json_close (out, ']');
}

static int
compare_threads (gconstpointer a,
                 gconstpointer b,
                 gpointer      user_data)
{
  TvProfileData *data = user_data;
  const TvThread *ta = tv_profile_data_get_thread (data, *(const guint32 *) a);
  const TvThread *tb = tv_profile_data_get_thread (data, *(const guint32 *) b);

  if (ta->thread_id != tb->thread_id)
    return ta->thread_id < tb->thread_id ? -1 : 1;
  if (ta->interpreter_id != tb->interpreter_id)
    return ta->interpreter_id < tb->interpreter_id ? -1 : 1;
  return ta->index < tb->index ? -1 : ta->index > tb->index;
}

static gboolean
thread_selected (Exporter *self,
                 guint32   index)
{
  const TvQuery *query = &self->query.query;

  if (query->threads == NULL)
    return TRUE;
  for (guint i = 0; i < query->n_threads; i++)
    {
      if (query->threads[i] == index)
        return TRUE;
    }
  return FALSE;
}

/* Thread indices of DATA sorted by thread id, then interpreter. */
static guint32 *
sorted_threads (TvProfileData *data,
                guint         *n_threads)
{
  guint32 *indices;

  *n_threads = tv_profile_data_get_n_threads (data);
  indices = g_new (guint32, MAX (*n_threads, 1));
  for (guint i = 0; i < *n_threads; i++)
    indices[i] = i;
  g_qsort_with_data (indices, *n_threads, sizeof (guint32), compare_threads, data);
  return indices;
}

/* A thread's members from the file, each followed by a comma. */
static void
append_thread_facts (GString        *out,
                     const TvThread *thread)
{
  /* A string: thread ids use all 64 bits, more than a JavaScript number
   * holds exactly. */
  g_string_append_printf (out, "\"thread_id\":\"%" G_GUINT64_FORMAT "\",", thread->thread_id);
  json_u64 (out, "interpreter_id", thread->interpreter_id);
  json_u64 (out, "samples_in_file", thread->n_samples);
  json_key (out, "status_counts");
  g_string_append_c (out, '{');
  for (guint bit = 0; bit < G_N_ELEMENTS (status_names); bit++)
    json_u64 (out, status_names[bit], thread->status_counts[bit]);
  json_close (out, '}');
  g_string_append_c (out, ',');
}

static gboolean
append_threads (Exporter      *self,
                GString       *out,
                GCancellable  *cancellable,
                GError       **error)
{
  guint n_threads;
  g_autofree guint32 *indices = sorted_threads (self->data, &n_threads);
  g_autofree guint64 *sums = g_new0 (guint64, self->n_nodes);
  g_autoptr(GArray) scratch = g_array_new (FALSE, FALSE, sizeof (SelfCount));

  json_key (out, "threads");
  g_string_append_c (out, '[');
  for (guint i = 0; i < n_threads; i++)
    {
      const TvThread *thread = tv_profile_data_get_thread (self->data, indices[i]);
      guint64 n_samples = 0;

      if (i % 4096 == 0 && g_cancellable_set_error_if_cancelled (cancellable, error))
        return FALSE;
      g_string_append_c (out, '{');
      append_thread_facts (out, thread);
      json_key (out, "self");
      if (thread->n_samples > 0 && thread_selected (self, indices[i]))
        append_thread_self (self, out, indices[i], sums, &n_samples, scratch);
      else
        g_string_append (out, "[]");
      g_string_append_c (out, ',');
      json_u64 (out, "samples", n_samples);
      json_close (out, '}');
      g_string_append_c (out, ',');
    }
  json_close (out, ']');
  g_string_append_c (out, ',');

  /* The threads' samples add up to the whole tree's. */
  for (guint32 n = 0; n < self->n_nodes; n++)
    g_assert (sums[n] == tv_call_tree_get_self (self->tree, n));

  return TRUE;
}

/* "states": for each state the page filters by, the samples of that
 * state each node holds itself, as pairs of the distance from the previous
 * export id (from 0 for the first) and the count, nodes without any left
 * out.  A node's samples in a state are exact (the tree counted them);
 * its own are those less its children's.  Left out when the load did not
 * count states. */
static gboolean
append_states (Exporter      *self,
               GString       *out,
               GCancellable  *cancellable,
               GError       **error)
{
  if (!tv_call_tree_has_status_counts (self->tree))
    return TRUE;

  json_key (out, "states");
  g_string_append_c (out, '{');
  for (gsize s = 0; s < G_N_ELEMENTS (page_states); s++)
    {
      TvStatusCount count = page_states[s].count;
      guint32 previous = 0;

      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        return FALSE;
      json_key (out, page_states[s].name);
      g_string_append_c (out, '[');
      for (guint32 id = 0; id < self->n_nodes; id++)
        {
          guint32 node = self->order[id];
          guint64 own = tv_call_tree_get_status_counts (self->tree, node)[count];
          const guint32 *children;
          guint n_children;

          children = tv_call_tree_get_children (self->tree, node, &n_children);
          for (guint i = 0; i < n_children; i++)
            own -= tv_call_tree_get_status_counts (self->tree, children[i])[count];
          if (own == 0)
            continue;
          g_string_append_printf (out, "%u,%" G_GUINT64_FORMAT ",", id - previous, own);
          previous = id;
        }
      json_close (out, ']');
      g_string_append_c (out, ',');
    }
  json_close (out, '}');
  g_string_append_c (out, ',');
  return TRUE;
}

/* Every thread's facts, without samples: a differential page's trees are
 * not split by thread. */
static void
append_thread_list (TvProfileData *data,
                    GString       *out)
{
  guint n_threads;
  g_autofree guint32 *indices = sorted_threads (data, &n_threads);

  json_key (out, "threads");
  g_string_append_c (out, '[');
  for (guint i = 0; i < n_threads; i++)
    {
      g_string_append_c (out, '{');
      append_thread_facts (out, tv_profile_data_get_thread (data, indices[i]));
      json_close (out, '}');
      g_string_append_c (out, ',');
    }
  json_close (out, ']');
  g_string_append_c (out, ',');
}

/* The page's words, translated. */
static void
append_ui (GString *out)
{
  json_key (out, "ui");
  g_string_append_c (out, '{');
  for (gsize i = 0; i < G_N_ELEMENTS (ui_strings); i++)
    json_string (out, ui_strings[i].key, _(ui_strings[i].text));
  json_close (out, '}');
  g_string_append_c (out, ',');
}

/* The start of the object, up to the profile's facts. */
static void
append_preamble (GString       *out,
                 TvProfileData *data,
                 const char    *source_name)
{
  g_string_append_c (out, '{');
  json_string (out, "format", FORMAT_NAME);
  json_u64 (out, "version", FORMAT_VERSION);
  json_string (out, "generator", "tachyon-viewer " PACKAGE_VERSION);
  append_ui (out);
  append_profile_facts (data, out, source_name);
}

static GString *
exporter_build_json (Exporter      *self,
                     const char    *source_name,
                     GCancellable  *cancellable,
                     GError       **error)
{
  g_autoptr(GString) out = g_string_sized_new (1 << 16);

  append_preamble (out, self->data, source_name);
  append_filter (self, out);
  append_view (self, out, self->filter->inverted, self->filter->search);
  json_u64 (out, "samples", tv_call_tree_get_n_samples (self->tree));
  append_strings (self, out);
  append_frames (self, out);
  append_kinds (self, out);
  append_palette (out);
  append_sources (self, out);
  append_nodes (self, out);
  if (!append_threads (self, out, cancellable, error)
      || !append_states (self, out, cancellable, error))
    return NULL;
  json_close (out, '}');

  return g_steal_pointer (&out);
}

/* ------------------------------------------------------------------------ */
/* The differential page                                                     */
/* ------------------------------------------------------------------------ */

/* A p-value, three digits: enough to read, and much shorter. */
static void
append_p_value (GString *out,
                double   p)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  if (!isfinite (p))
    p = 1;
  g_string_append (out, g_ascii_formatd (buf, sizeof buf, "%.3g", p));
  g_string_append_c (out, ',');
}

static int
change_sign (TvDiffChange change)
{
  return change == TV_DIFF_SLOWER ? 1 : change == TV_DIFF_FASTER ? -1 : 0;
}

/* Seven numbers a node, by export id: NEW's self samples, BASE's total
 * and self samples, the p-values of the total's and the self's change,
 * and their verdicts (1 slower, -1 faster, 0 neutral). */
static void
append_diff_nodes (Exporter *self,
                   GString  *out)
{
  json_key (out, "nodes");
  g_string_append_c (out, '[');
  for (guint32 id = 0; id < self->n_nodes; id++)
    {
      TvDiffNode node;

      tv_diff_get_node (self->diff, TV_DIFF_SIDE_NEW, self->order[id], &node);
      g_string_append_printf (out, "%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT ",%"
                              G_GUINT64_FORMAT ",", node.self.new_samples,
                              node.total.base_samples, node.self.base_samples);
      append_p_value (out, node.total.p_value);
      append_p_value (out, node.self.p_value);
      g_string_append_printf (out, "%d,%d,", change_sign (node.total.change),
                              change_sign (node.self.change));
    }
  json_close (out, ']');
  g_string_append_c (out, ',');
}

/* Ten numbers a function, largest change first: its name and file
 * (strings), BASE's and NEW's total samples, BASE's and NEW's self
 * samples, the p-values of the total and the self, their verdicts. */
static void
append_diff_functions (Exporter *self,
                       GString  *out)
{
  const TvDiffFunction *rows;
  guint n_rows;

  rows = tv_diff_get_functions (self->diff, &n_rows);
  json_key (out, "functions");
  g_string_append_c (out, '[');
  for (guint i = 0; i < n_rows; i++)
    {
      const TvDiffFunction *row = &rows[i];
      guint32 side = row->new_function != TV_NODE_NONE ? 0 : 1;
      guint32 key = side == 0 ? row->new_function : row->base_function;
      TvProfileData *data = self->sides[side].data;
      guint32 frame = tv_profile_data_get_key_frame (data, TV_MERGE_FUNCTION, key);
      const TachFrame *f = tach_reader_get_frame (self->sides[side].reader, frame);

      g_string_append_printf (out, "%u,%u,%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT ",%"
                              G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT ",",
                              exporter_map_string (self, side, f->funcname),
                              exporter_map_string (self, side, f->filename),
                              row->total.base_samples, row->total.new_samples,
                              row->self.base_samples, row->self.new_samples);
      append_p_value (out, row->total.p_value);
      append_p_value (out, row->self.p_value);
      g_string_append_printf (out, "%d,%d,", change_sign (row->total.change),
                              change_sign (row->self.change));
    }
  json_close (out, ']');
  g_string_append_c (out, ',');
}

/* BASE's topmost nodes that NEW lacks, most samples first: each as its
 * samples, then its frames from the root down (NEW's frame where NEW has
 * the same key, BASE's otherwise). */
static void
append_diff_vanished (Exporter *self,
                      GString  *out)
{
  TvCallTree *base = tv_diff_get_tree (self->diff, TV_DIFF_SIDE_BASE);
  g_autoptr(GArray) path = g_array_new (FALSE, FALSE, sizeof (guint32));
  const guint32 *nodes;
  guint n_nodes;

  nodes = tv_diff_get_unmatched (self->diff, TV_DIFF_SIDE_BASE, &n_nodes);
  json_u64 (out, "vanished_stacks", n_nodes);
  json_u64 (out, "vanished_samples",
            tv_diff_get_unmatched_total (self->diff, TV_DIFF_SIDE_BASE, TV_ROOT_NODE));
  json_key (out, "vanished");
  g_string_append_c (out, '[');
  for (guint i = 0; i < n_nodes && i < MAX_VANISHED; i++)
    {
      g_array_set_size (path, 0);
      for (guint32 n = nodes[i]; n != TV_ROOT_NODE; n = tv_call_tree_get_parent (base, n))
        {
          guint32 key = tv_call_tree_get_key (base, n);
          guint32 new_key = tv_diff_map_key (self->diff, TV_DIFF_SIDE_BASE, key);
          guint32 frame = new_key != TV_NODE_NONE ? exporter_map_key (self, 0, new_key)
                                                  : exporter_map_key (self, 1, key);

          g_array_prepend_val (path, frame);
        }
      g_string_append_printf (out, "[%" G_GUINT64_FORMAT ",", tv_call_tree_get_total (base, nodes[i]));
      for (guint j = 0; j < path->len; j++)
        g_string_append_printf (out, "%u,", g_array_index (path, guint32, j));
      json_close (out, ']');
      g_string_append_c (out, ',');
    }
  json_close (out, ']');
  g_string_append_c (out, ',');
}

static void
append_diff_warnings (Exporter *self,
                      GString  *out)
{
  GPtrArray *caveats = tv_diff_get_comparability (self->diff);

  json_key (out, "warnings");
  g_string_append_c (out, '[');
  for (guint i = 0; i < caveats->len; i++)
    {
      const TvComparability *caveat = g_ptr_array_index (caveats, i);

      g_string_append_printf (out, "{\"code\":%d,", caveat->code);
      json_string (out, "message", caveat->message);
      json_close (out, '}');
      g_string_append_c (out, ',');
    }
  json_close (out, ']');
  g_string_append_c (out, ',');
}

/* The "diff" object, whose frames and strings are mapped as it goes: made
 * before the tables are written. */
static GString *
build_diff_object (Exporter   *self,
                   const char *base_name)
{
  GString *out = g_string_sized_new (1 << 16);
  TvCallTree *base = tv_diff_get_tree (self->diff, TV_DIFF_SIDE_BASE);
  TvDiffOptions options;

  tv_diff_get_options (self->diff, &options);
  json_key (out, "diff");
  g_string_append_c (out, '{');
  json_key (out, "base");
  g_string_append_c (out, '{');
  append_profile_facts (self->sides[1].data, out, base_name);
  json_u64 (out, "samples", tv_call_tree_get_n_samples (base));
  append_thread_list (self->sides[1].data, out);
  json_close (out, '}');
  g_string_append_c (out, ',');
  json_string (out, "normalization",
               options.normalization == TV_DIFF_BY_TIME ? "time" : "share");
  json_optional_double (out, "confidence", TRUE, options.confidence);
  json_key (out, "weights");
  g_string_append_c (out, '[');
  json_double_or_null (out, TRUE, tv_diff_get_weight (self->diff, TV_DIFF_SIDE_BASE));
  json_double_or_null (out, TRUE, tv_diff_get_weight (self->diff, TV_DIFF_SIDE_NEW));
  json_close (out, ']');
  g_string_append_c (out, ',');
  append_diff_warnings (self, out);
  append_diff_nodes (self, out);
  append_diff_functions (self, out);
  append_diff_vanished (self, out);
  json_close (out, '}');
  return out;
}

static GString *
exporter_build_diff_json (Exporter   *self,
                          const char *base_name,
                          const char *new_name,
                          const char *search)
{
  g_autoptr(GString) out = g_string_sized_new (1 << 16);
  g_autoptr(GString) diff = build_diff_object (self, base_name);

  append_preamble (out, self->data, new_name);
  append_filter (self, out);
  append_view (self, out, tv_call_tree_get_inverted (self->tree), search);
  json_u64 (out, "samples", tv_call_tree_get_n_samples (self->tree));
  append_strings (self, out);
  append_frames (self, out);
  append_sources (self, out);
  append_nodes (self, out);
  append_thread_list (self->data, out);
  g_string_append_len (out, diff->str, diff->len);
  json_close (out, '}');

  return g_steal_pointer (&out);
}

/* ------------------------------------------------------------------------ */
/* The page                                                                  */
/* ------------------------------------------------------------------------ */

/* Appends JSON so that it can sit inside a <script> element: `<`, `>` and
 * `&` (which could close the element or open a comment in it) and U+2028
 * and U+2029 (line ends to older JavaScript) become \u escapes.  Valid
 * JSON holds these only inside strings, where the escapes mean the same. */
static void
append_json_for_script (GString       *out,
                        const GString *json)
{
  const char *p = json->str;
  const char *end = json->str + json->len;

  while (p < end)
    {
      const char *run = p;

      while (p < end && *p != '<' && *p != '>' && *p != '&' && (guchar) *p != 0xe2)
        p++;
      g_string_append_len (out, run, p - run);
      if (p == end)
        break;

      switch (*p)
        {
        case '<':
          g_string_append (out, "\\u003c");
          p++;
          break;
        case '>':
          g_string_append (out, "\\u003e");
          p++;
          break;
        case '&':
          g_string_append (out, "\\u0026");
          p++;
          break;
        default:
          if (end - p >= 3 && (guchar) p[1] == 0x80
              && ((guchar) p[2] == 0xa8 || (guchar) p[2] == 0xa9))
            {
              g_string_append (out, (guchar) p[2] == 0xa8 ? "\\u2028" : "\\u2029");
              p += 3;
            }
          else
            {
              g_string_append_c (out, *p);
              p++;
            }
          break;
        }
    }
}

/* 'sha256-…' of the text between OPEN and the next CLOSE in TEMPLATE. */
static char *
element_hash (const char *template,
              const char *open,
              const char *close)
{
  const char *start = strstr (template, open);
  const char *stop;
  guint8 digest[32];
  gsize digest_len = sizeof digest;
  g_autoptr(GChecksum) checksum = g_checksum_new (G_CHECKSUM_SHA256);
  g_autofree char *base64 = NULL;

  g_assert (start != NULL);
  start += strlen (open);
  stop = strstr (start, close);
  g_assert (stop != NULL);

  g_checksum_update (checksum, (const guchar *) start, stop - start);
  g_checksum_get_digest (checksum, digest, &digest_len);
  base64 = g_base64_encode (digest, digest_len);
  return g_strdup_printf ("'sha256-%s'", base64);
}

static GBytes *
fill_template (const GString *json)
{
  g_autoptr(GBytes) template_bytes = NULL;
  g_autoptr(GString) page = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *style_hash = NULL;
  g_autofree char *script_hash = NULL;
  const char *template;
  const char *csp;
  const char *data;

  template_bytes = g_resource_lookup_data (tv_export_get_resource (), TEMPLATE_PATH,
                                           G_RESOURCE_LOOKUP_FLAGS_NONE, &error);
  /* Compiled into this library: it cannot be missing. */
  g_assert_no_error (error);
  template = g_bytes_get_data (template_bytes, NULL);

  csp = strstr (template, CSP_MARKER);
  data = strstr (template, DATA_MARKER);
  g_assert (csp != NULL && data != NULL && csp < data);

  /* The page runs only its own script and style: the policy names them
   * by hash.  The JSON is not a script the browser runs. */
  style_hash = element_hash (template, "<style>", "</style>");
  script_hash = element_hash (data, "<script>", "</script>");

  page = g_string_sized_new (g_bytes_get_size (template_bytes) + json->len + json->len / 16);
  g_string_append_len (page, template, csp - template);
  g_string_append_printf (page,
                          "default-src 'none'; script-src %s; style-src %s; "
                          "img-src 'none'; base-uri 'none'; form-action 'none'",
                          script_hash, style_hash);
  g_string_append_len (page, csp + strlen (CSP_MARKER), data - (csp + strlen (CSP_MARKER)));
  append_json_for_script (page, json);
  g_string_append (page, data + strlen (DATA_MARKER));

  return g_string_free_to_bytes (g_steal_pointer (&page));
}

/* Numbers the tree's nodes and maps its frames. */
static void
exporter_take_tree (Exporter   *self,
                    TvCallTree *tree)
{
  self->tree = tree;
  self->n_nodes = tv_call_tree_get_n_nodes (tree);
  exporter_number_nodes (self);
  exporter_map_frames (self);
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

  if (self->filter->zoom == NULL && self->filter->zoom_path->len == 0)
    return TRUE;
  if (self->filter->inverted)
    {
      TvQuery query = self->query.query;

      query.inverted = TRUE;
      inverted = tv_call_tree_new (self->data, &query, cancellable);
      if (inverted == NULL)
        return set_cancelled (cancellable, error);
      tree = inverted;
    }
  return tv_export_filter_find_zoom (self->filter, tree, &self->zoom_path, &node, error);
}

/**
 * tv_export_html_build:
 * @data: a loaded profile
 * @filter: which samples, transformed and merged how, and the view the
 *   page starts with (inverted, orientation, zoom, search)
 * @source_name: the profile's name as the page shows it (UTF-8)
 * @cancellable: (nullable): a cancellable
 * @error: return location for an error
 *
 * Makes the self-contained HTML flame graph of the samples @filter keeps.
 * Fails if @filter names a thread or a function that @data lacks, its
 * search is not a regular expression, its zoom path is not in the samples
 * shown, or when cancelled.
 *
 * Returns: (transfer full): the page, or %NULL with @error set
 */
GBytes *
tv_export_html_build (TvProfileData         *data,
                      const TvExportFilter  *filter,
                      const char            *source_name,
                      GCancellable          *cancellable,
                      GError               **error)
{
  Exporter self = { 0 };
  g_autoptr(GString) json = NULL;
  TvCallTree *tree;

  g_return_val_if_fail (data != NULL, NULL);
  g_return_val_if_fail (filter != NULL, NULL);
  g_return_val_if_fail (source_name != NULL, NULL);
  g_return_val_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  self.data = data;
  self.reader = tv_profile_data_get_reader (data);
  self.filter = filter;
  if (!tv_export_filter_check (filter, error)
      || !tv_export_filter_make_query (filter, data, &self.query, error))
    goto failed;

  /* Each thread's samples and each state's: the page's filters. */
  self.query.query.thread_self = TRUE;
  self.query.query.count_states = tv_profile_data_has_states (data);
  tree = tv_call_tree_new (data, &self.query.query, cancellable);
  self.query.query.thread_self = FALSE;
  self.query.query.count_states = FALSE;
  if (tree == NULL)
    {
      set_cancelled (cancellable, error);
      goto failed;
    }
  side_init (&self.sides[0], data, filter->merge);
  exporter_take_tree (&self, tree);
  if (!exporter_find_zoom (&self, cancellable, error))
    goto failed;

  json = exporter_build_json (&self, source_name, cancellable, error);
  exporter_clear (&self);
  if (json == NULL)
    return NULL;

  return fill_template (json);

failed:
  exporter_clear (&self);
  return NULL;
}

/**
 * tv_export_html_build_diff:
 * @diff: two profiles compared
 * @filter: (nullable): what both sides were filtered and transformed by,
 *   for the page to say (its "filter" object); %NULL: the page's filter
 *   is null
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
 * "diff" mode.  Fails if @search is not a regular expression, if
 * @filter names a thread or a function that NEW lacks, or when
 * cancelled.
 *
 * Returns: (transfer full): the page, or %NULL with @error set
 */
GBytes *
tv_export_html_build_diff (TvDiff                *diff,
                           const TvExportFilter  *filter,
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
  /* The filter's transforms, found in NEW, say which functions. */
  self.filter = filter;
  if (filter != NULL && !tv_export_filter_make_query (filter, self.data, &self.query, error))
    {
      exporter_clear (&self);
      return NULL;
    }

  json = exporter_build_diff_json (&self, base_name, new_name, search);
  exporter_clear (&self);
  return fill_template (json);
}
