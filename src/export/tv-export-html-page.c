/* tv-export-html-page.c: the HTML page's words, colours and template
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The page is data/flamegraph.html with the profile's JSON put in; the
 * words it shows come from here, translated, and its colours from the
 * application's palette.
 */
#include "tv-export-html-private.h"

#include <string.h>

#include <glib/gi18n.h>

#include "tv-palette.h"

/* Generated from data/tachyon-viewer-export.gresource.xml. */
GResource *tv_export_get_resource (void);

#define TEMPLATE_PATH   "/io/github/tachyonviewer/TachyonViewer/export/flamegraph.html"
#define CSP_MARKER      "@CSP@"
#define DATA_MARKER     "@DATA@"

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
  { "box_label_one", N_("{0} smaller frame") },
  { "box_label", N_("{0} smaller frames") },
  { "box_label_inverted", N_("smaller frames") },
  /* Translators: {1} is a number of samples, {2} a share such as "0.005%". */
  { "box_tip_one", N_("{0} call-tree node of fewer than {1} samples each (under {2} of all): drawn as one box") },
  { "box_tip", N_("{0} call-tree nodes of fewer than {1} samples each (under {2} of all): drawn as one box") },
  { "box_tip_inverted", N_("The samples of the stacks drawn as “smaller frames” boxes, whose innermost frames are not in the page") },
  /* Translators: {0} and {1} are numbers of nodes, {2} of samples, {3} and
   * {5} shares, {4} a number of samples. */
  { "aggregated_note", N_("To keep the page small, {0} of the {1} call-tree nodes, each with fewer than {2} samples ({3} of all), are drawn as grey striped “smaller frames” boxes; they hold {4} samples ({5}). Every count shown is exact; the inverted graph shows their samples as one box, under which their callers are.") },
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
void
tv_export_html_append_palette (GString *out)
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

/* The page's words, translated. */
void
tv_export_html_append_ui (GString *out)
{
  json_key (out, "ui");
  g_string_append_c (out, '{');
  for (gsize i = 0; i < G_N_ELEMENTS (ui_strings); i++)
    json_string (out, ui_strings[i].key, _(ui_strings[i].text));
  json_close (out, '}');
  g_string_append_c (out, ',');
}

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

GBytes *
tv_export_html_fill_template (const GString *json)
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
