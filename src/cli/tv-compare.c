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
append_measure (GString             *out,
                const char          *name,
                const TvDiffMeasure *m)
{
  g_string_append_c (out, '"');
  g_string_append (out, name);
  g_string_append_printf (out, "\":{\"base_samples\":%" G_GUINT64_FORMAT
                          ",\"new_samples\":%" G_GUINT64_FORMAT ",\"base\":",
                          m->base_samples, m->new_samples);
  tv_json_append_double (out, m->base_value);
  g_string_append (out, ",\"new\":");
  tv_json_append_double (out, m->new_value);
  g_string_append (out, ",\"delta\":");
  tv_json_append_double (out, m->delta);
  g_string_append (out, ",\"relative\":");
  if (isinf (m->relative))
    g_string_append (out, "null");
  else
    tv_json_append_double (out, m->relative);
  g_string_append (out, ",\"p_value\":");
  tv_json_append_double (out, m->p_value);
  g_string_append_printf (out, ",\"significant\":%s,\"change\":\"%s\"}",
                          m->significant ? "true" : "false", change_name (m->change));
}

char *
tv_compare_to_json (TvDiff     *diff,
                    const char *base_name,
                    const char *new_name)
{
  g_autoptr(GString) out = g_string_new ("{\"base\":");
  GPtrArray *caveats = tv_diff_get_comparability (diff);
  TvDiffOptions options;
  const TvDiffFunction *rows;
  guint n_rows;

  g_return_val_if_fail (diff != NULL, NULL);

  tv_diff_get_options (diff, &options);
  tv_json_append_string (out, base_name, -1);
  g_string_append (out, ",\"new\":");
  tv_json_append_string (out, new_name, -1);
  g_string_append_printf (out, ",\"normalization\":\"%s\",\"confidence\":",
                          options.normalization == TV_DIFF_BY_TIME ? "time" : "share");
  tv_json_append_double (out, options.confidence);
  g_string_append (out, ",\"warnings\":[");
  for (guint i = 0; i < caveats->len; i++)
    {
      const TvComparability *caveat = g_ptr_array_index (caveats, i);

      g_string_append_printf (out, "%s{\"code\":%d,\"message\":", i > 0 ? "," : "", caveat->code);
      tv_json_append_string (out, caveat->message, -1);
      g_string_append_c (out, '}');
    }
  g_string_append (out, "],\"functions\":[");
  rows = tv_diff_get_functions (diff, &n_rows);
  for (guint i = 0; i < n_rows; i++)
    {
      g_string_append (out, i > 0 ? ",{\"function\":" : "{\"function\":");
      tv_json_append_string (out, tv_diff_get_function_name (diff, &rows[i]), -1);
      g_string_append (out, ",\"file\":");
      tv_json_append_string (out, tv_diff_get_function_file (diff, &rows[i]), -1);
      g_string_append_c (out, ',');
      append_measure (out, "total", &rows[i].total);
      g_string_append_c (out, ',');
      append_measure (out, "self", &rows[i].self);
      g_string_append_c (out, '}');
    }
  g_string_append (out, "]}\n");
  return g_string_free (g_steal_pointer (&out), FALSE);
}
