/* tv-compare.c: two profiles compared, as text or JSON
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What `tachyon-viewer --compare BASE NEW --info` prints: the caveats of
 * the comparison, then the function delta table of a TvDiff.
 */
#include <math.h>

#include <glib/gi18n.h>

#include "tv-compare.h"
#include "tv-json.h"
#include "tv-text.h"
#include "tv-units.h"

static const char *
change_name (TvDiffChange change)
{
  switch (change)
    {
    case TV_DIFF_SLOWER:
      return "slower";
    case TV_DIFF_FASTER:
      return "faster";
    case TV_DIFF_NEUTRAL:
    default:
      return "neutral";
    }
}

/* The change relative to the base, in a column of 8 characters. */
static void
append_relative (GString *out,
                 double   relative)
{
  g_autofree char *text = isinf (relative) ? g_strdup (_("new"))
                                           : tv_format_fraction_signed (relative);
  glong pad = MAX (0, 8 - g_utf8_strlen (text, -1));

  g_string_append (out, text);
  for (glong i = 0; i < pad; i++)
    g_string_append_c (out, ' ');
}

/* TEXT padded with spaces to WIDTH characters, on the left when RIGHT. */
static void
append_padded (GString    *out,
               const char *text,
               glong       width,
               gboolean    right)
{
  glong pad = MAX (0, width - g_utf8_strlen (text, -1));

  if (!right)
    g_string_append (out, text);
  for (glong i = 0; i < pad; i++)
    g_string_append_c (out, ' ');
  if (right)
    g_string_append (out, text);
}

/* "1.23 s → 1.50 s", each side in a column of its own. */
static void
append_values (GString             *out,
               TvDiff              *diff,
               const TvDiffMeasure *m)
{
  g_autofree char *before = tv_diff_format_value (diff, m->base_value, FALSE);
  g_autofree char *after = tv_diff_format_value (diff, m->new_value, FALSE);

  append_padded (out, before, 9, TRUE);
  g_string_append (out, " → ");
  append_padded (out, after, 9, FALSE);
}

char *
tv_compare_to_text (TvDiff     *diff,
                    const char *base_name,
                    const char *new_name,
                    guint       max_rows)
{
  g_autoptr(GString) out = g_string_new (NULL);
  GPtrArray *caveats = tv_diff_get_comparability (diff);
  TvDiffOptions options;
  const TvDiffFunction *rows;
  guint n_rows, shown = 0, significant = 0;

  g_return_val_if_fail (diff != NULL, NULL);

  tv_diff_get_options (diff, &options);
  g_string_append_printf (out, _("Base: %s\nNew:  %s\n"), base_name, new_name);
  g_string_append_printf (out, options.normalization == TV_DIFF_BY_TIME
                               ? _("Compared by thread time, at %.0f %% confidence (exact binomial test).\n")
                               : _("Compared by share of samples, at %.0f %% confidence (exact binomial test).\n"),
                          options.confidence * 100.0);

  for (guint i = 0; i < caveats->len; i++)
    {
      const TvComparability *caveat = g_ptr_array_index (caveats, i);

      g_string_append_printf (out, _("Warning: %s\n"), caveat->message);
    }

  rows = tv_diff_get_functions (diff, &n_rows);
  for (guint i = 0; i < n_rows; i++)
    significant += rows[i].total.significant || rows[i].self.significant;
  g_string_append_printf (out, g_dngettext (GETTEXT_PACKAGE,
                                            "\n%u function changed beyond sampling noise:\n",
                                            "\n%u functions changed beyond sampling noise:\n",
                                            significant),
                          significant);
  if (significant == 0)
    return g_string_free (g_steal_pointer (&out), FALSE);

  /* Translators: the columns of the function delta table. */
  g_string_append (out, _("  change       total before → after          self before → after           function (file)\n"));
  for (guint i = 0; i < n_rows && (max_rows == 0 || shown < max_rows); i++)
    {
      const TvDiffFunction *row = &rows[i];
      g_autofree char *change = NULL;

      if (!row->total.significant && !row->self.significant)
        continue;
      shown++;
      /* The total's verdict, or the self's when only that changed. */
      if (row->total.significant)
        change = g_strdup (change_name (row->total.change));
      else
        change = g_strconcat ("self-", change_name (row->self.change), NULL);
      g_string_append_printf (out, "  %-12s ", change);
      append_values (out, diff, &row->total);
      g_string_append_c (out, ' ');
      append_relative (out, row->total.relative);
      g_string_append (out, "   ");
      append_values (out, diff, &row->self);
      g_string_append (out, "   ");
      /* Names go to a terminal: shown, never obeyed (an escape sequence). */
      tv_text_append_shown (out, tv_diff_get_function_name (diff, row), -1);
      g_string_append (out, " (");
      tv_text_append_shown (out, tv_diff_get_function_file (diff, row), -1);
      g_string_append (out, ")\n");
    }
  if (shown < significant)
    g_string_append_printf (out, _("  … and %u more (--json lists them all)\n"), significant - shown);
  return g_string_free (g_steal_pointer (&out), FALSE);
}

static void
add_u64 (JsonBuilder *builder,
         const char  *name,
         guint64      value)
{
  json_builder_set_member_name (builder, name);
  /* Counts of samples, far below json-glib's gint64 limit. */
  json_builder_add_int_value (builder, (gint64) MIN (value, (guint64) G_MAXINT64));
}

static void
add_double (JsonBuilder *builder,
            const char  *name,
            double       value)
{
  json_builder_set_member_name (builder, name);
  tv_json_builder_add_double (builder, value);
}

static void
add_measure (JsonBuilder         *builder,
             const char          *name,
             const TvDiffMeasure *m)
{
  json_builder_set_member_name (builder, name);
  json_builder_begin_object (builder);
  add_u64 (builder, "base_samples", m->base_samples);
  add_u64 (builder, "new_samples", m->new_samples);
  add_double (builder, "base", m->base_value);
  add_double (builder, "new", m->new_value);
  add_double (builder, "delta", m->delta);
  /* Infinite when only NEW has it: null. */
  add_double (builder, "relative", m->relative);
  add_double (builder, "p_value", m->p_value);
  json_builder_set_member_name (builder, "significant");
  json_builder_add_boolean_value (builder, m->significant);
  json_builder_set_member_name (builder, "change");
  json_builder_add_string_value (builder, change_name (m->change));
  json_builder_end_object (builder);
}

/* The document of --compare --info --json, on one line, through
 * json-glib. */
char *
tv_compare_to_json (TvDiff     *diff,
                    const char *base_name,
                    const char *new_name)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;
  GPtrArray *caveats;
  TvDiffOptions options;
  const TvDiffFunction *rows;
  guint n_rows;

  g_return_val_if_fail (diff != NULL, NULL);

  caveats = tv_diff_get_comparability (diff);
  tv_diff_get_options (diff, &options);
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "base");
  tv_json_builder_add_string (builder, base_name);
  json_builder_set_member_name (builder, "new");
  tv_json_builder_add_string (builder, new_name);
  json_builder_set_member_name (builder, "normalization");
  json_builder_add_string_value (builder,
                                 options.normalization == TV_DIFF_BY_TIME ? "time" : "share");
  add_double (builder, "confidence", options.confidence);

  json_builder_set_member_name (builder, "warnings");
  json_builder_begin_array (builder);
  for (guint i = 0; i < caveats->len; i++)
    {
      const TvComparability *caveat = g_ptr_array_index (caveats, i);

      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "code");
      json_builder_add_int_value (builder, caveat->code);
      json_builder_set_member_name (builder, "message");
      tv_json_builder_add_string (builder, caveat->message);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);

  json_builder_set_member_name (builder, "functions");
  json_builder_begin_array (builder);
  rows = tv_diff_get_functions (diff, &n_rows);
  for (guint i = 0; i < n_rows; i++)
    {
      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "function");
      tv_json_builder_add_string (builder, tv_diff_get_function_name (diff, &rows[i]));
      json_builder_set_member_name (builder, "file");
      tv_json_builder_add_string (builder, tv_diff_get_function_file (diff, &rows[i]));
      add_measure (builder, "total", &rows[i].total);
      add_measure (builder, "self", &rows[i].self);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
  json_builder_end_object (builder);

  root = json_builder_get_root (builder);
  return tv_json_generate (root, FALSE);
}
