/* tv-export-pstats-table.c: the table of `replay --pstats`
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What pstats.Stats.print_stats() prints of the collected locations: the
 * rows merged as strip_dirs() merges them, sorted as sort_stats() sorts,
 * and the callers' and callees' summaries.
 */
#include <math.h>
#include <string.h>

#include "tv-export-pstats-private.h"
#include "tv-text.h"

/* A row of the table: the locations of one (basename, line, funcname), as
 * pstats' strip_dirs() merges them. */
typedef struct
{
  TvExportLocation where;         /* its file: the base name */
  guint       index;              /* first-seen order */
  guint64     direct;
  guint64     cumulative;
  double      tt;
  double      ct;
  double      key;                /* what the table is sorted by */
  char       *name_key;           /* str() of the row's tuple, for "name" */
} Row;

typedef struct
{
  const char *bold_blue;
  const char *green;
  const char *yellow;
  const char *cyan;
  const char *reset;
  gboolean    visible;            /* names through tv_text_append_visible() */
} Colors;

static void
row_free (gpointer data)
{
  Row *row = data;

  g_free (row->name_key);
  g_free (row);
}

/* Whether Python's str.isprintable() holds for C. */
static gboolean
py_is_printable (gunichar c)
{
  if (c == ' ')
    return TRUE;
  switch (g_unichar_type (c))
    {
    case G_UNICODE_CONTROL:
    case G_UNICODE_FORMAT:
    case G_UNICODE_SURROGATE:
    case G_UNICODE_PRIVATE_USE:
    case G_UNICODE_UNASSIGNED:
    case G_UNICODE_LINE_SEPARATOR:
    case G_UNICODE_PARAGRAPH_SEPARATOR:
    case G_UNICODE_SPACE_SEPARATOR:
      return FALSE;
    default:
      return TRUE;
    }
}

/* repr() of a str, as Python writes it. */
static void
append_py_repr (GString    *out,
                const char *text,
                gsize       len)
{
  const char *end = text + len;
  char quote = '\'';

  if (memchr (text, '\'', len) != NULL && memchr (text, '"', len) == NULL)
    quote = '"';
  g_string_append_c (out, quote);
  for (const char *p = text; p < end; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char_validated (p, end - p);

      if (c == (gunichar) -1 || c == (gunichar) -2)
        c = 0xfffd;
      if (c == (gunichar) quote || c == '\\')
        {
          g_string_append_c (out, '\\');
          g_string_append_c (out, (char) c);
        }
      else if (c == '\t')
        g_string_append (out, "\\t");
      else if (c == '\n')
        g_string_append (out, "\\n");
      else if (c == '\r')
        g_string_append (out, "\\r");
      else if (c < ' ' || c == 0x7f)
        g_string_append_printf (out, "\\x%02x", c);
      else if (c < 0x7f || py_is_printable (c))
        g_string_append_unichar (out, c);
      else if (c <= 0xff)
        g_string_append_printf (out, "\\x%02x", c);
      else if (c <= 0xffff)
        g_string_append_printf (out, "\\u%04x", c);
      else
        g_string_append_printf (out, "\\U%08x", c);
    }
  g_string_append_c (out, quote);
}

/* str() of the tuple (basename, line, funcname): what "name" sorts by. */
static char *
row_dup_name_key (const Row *row)
{
  GString *out = g_string_new ("(");

  append_py_repr (out, row->where.file, row->where.file_len);
  g_string_append_printf (out, ", %d, ", row->where.line);
  append_py_repr (out, row->where.func, row->where.func_len);
  g_string_append_c (out, ')');
  return g_string_free (out, FALSE);
}

/* strip_dirs(): one row per (basename, line, funcname), in the order of
 * the first location that has it. */
static GPtrArray *
make_rows (const TvPstats *self)
{
  g_autoptr(GHashTable) table = g_hash_table_new (tv_export_location_hash, tv_export_location_equal);
  GPtrArray *rows = g_ptr_array_new_with_free_func (row_free);

  for (guint i = 0; i < self->locations.list->len; i++)
    {
      const Location *location = g_ptr_array_index (self->locations.list, i);
      const char *slash = memrchr (location->key.file, '/', location->key.file_len);
      Row key = { 0 };
      Row *row;

      if (location->cumulative == 0)
        continue;
      key.where = location->key;
      key.where.file = slash != NULL ? slash + 1 : location->key.file;
      key.where.file_len = location->key.file + location->key.file_len - key.where.file;
      tv_export_location_set_hash (&key.where);
      row = g_hash_table_lookup (table, &key);
      if (row == NULL)
        {
          row = g_memdup2 (&key, sizeof key);
          row->index = rows->len;
          g_ptr_array_add (rows, row);
          g_hash_table_add (table, row);
        }
      /* add_func_stats() adds the times in this order too. */
      row->direct += location->direct;
      row->cumulative += location->cumulative;
      row->tt += (double) location->direct * self->interval_sec;
      row->ct += (double) location->cumulative * self->interval_sec;
    }
  return rows;
}

/* Descending by key, ties in first-seen order: list.sort (reverse=True)
 * is stable. */
static int
compare_rows_by_key (gconstpointer a,
                     gconstpointer b)
{
  const Row *ra = *(const Row * const *) a;
  const Row *rb = *(const Row * const *) b;

  if (ra->key != rb->key)
    return ra->key > rb->key ? -1 : 1;
  return ra->index < rb->index ? -1 : ra->index > rb->index;
}

/* Ascending by str() of the tuple, code point by code point, which is the
 * order of the UTF-8 bytes. */
static int
compare_rows_by_name (gconstpointer a,
                      gconstpointer b)
{
  const Row *ra = *(const Row * const *) a;
  const Row *rb = *(const Row * const *) b;
  int cmp = strcmp (ra->name_key, rb->name_key);

  if (cmp != 0)
    return cmp;
  return ra->index < rb->index ? -1 : ra->index > rb->index;
}

static void
sort_rows (GPtrArray    *rows,
           TvPstatsSort  sort,
           guint64       total)
{
  if (sort == TV_PSTATS_SORT_NAME)
    {
      for (guint i = 0; i < rows->len; i++)
        {
          Row *row = g_ptr_array_index (rows, i);

          row->name_key = row_dup_name_key (row);
        }
      g_ptr_array_sort (rows, compare_rows_by_name);
      return;
    }

  for (guint i = 0; i < rows->len; i++)
    {
      Row *row = g_ptr_array_index (rows, i);

      switch (sort)
        {
        case TV_PSTATS_SORT_NSAMPLES:
          row->key = (double) row->direct;
          break;
        case TV_PSTATS_SORT_TOTTIME:
          row->key = row->tt;
          break;
        case TV_PSTATS_SORT_CUMTIME:
          row->key = row->ct;
          break;
        case TV_PSTATS_SORT_SAMPLE_PCT:
          row->key = total > 0 ? (double) row->direct / (double) total * 100 : 0;
          break;
        case TV_PSTATS_SORT_CUMUL_PCT:
          row->key = total > 0 ? (double) row->cumulative / (double) total * 100 : 0;
          break;
        case TV_PSTATS_SORT_NSAMPLES_CUMUL:
        case TV_PSTATS_SORT_NAME:
        default:
          row->key = (double) row->cumulative;
          break;
        }
    }
  g_ptr_array_sort (rows, compare_rows_by_key);
}

/* _determine_best_unit(). */
static const char *
best_unit (double  max_value,
           double *scale)
{
  if (max_value >= 1.0)
    {
      *scale = 1.0;
      return "s";
    }
  if (max_value >= 0.001)
    {
      *scale = 1000.0;
      return "ms";
    }
  *scale = 1e6;
  return "μs";
}

/* TEXT right-aligned in WIDTH characters, as format(TEXT, ">WIDTH"). */
static void
append_right (GString    *out,
              const char *text,
              guint       width)
{
  glong n = g_utf8_strlen (text, -1);

  for (glong i = n; i < (glong) width; i++)
    g_string_append_c (out, ' ');
  g_string_append (out, text);
}

/* format(VALUE, "WIDTH.PRECf"), whatever the locale. */
static void
append_fixed (GString *out,
              double   value,
              guint    width,
              int      precision)
{
  char format[8];
  char buffer[G_ASCII_DTOSTR_BUF_SIZE];

  g_snprintf (format, sizeof format, "%%.%df", precision);
  g_ascii_formatd (buffer, sizeof buffer, format, value);
  append_right (out, buffer, width);
}

static void
append_name (GString      *out,
             const Colors *colors,
             const char   *base,
             gsize         base_len,
             const char   *line,
             const char   *func,
             gsize         func_len)
{
  g_string_append (out, colors->green);
  if (colors->visible)
    tv_text_append_visible (out, base, base_len, 0);
  else
    g_string_append_len (out, base, base_len);
  g_string_append (out, colors->reset);
  g_string_append_c (out, ':');
  g_string_append (out, colors->yellow);
  g_string_append (out, line);
  g_string_append (out, colors->reset);
  g_string_append_c (out, '(');
  g_string_append (out, colors->cyan);
  if (colors->visible)
    tv_text_append_visible (out, func, func_len, 0);
  else
    g_string_append_len (out, func, func_len);
  g_string_append (out, colors->reset);
  g_string_append_c (out, ')');
}

/* A row of the summary: the rows of one "basename:funcname". */
typedef struct
{
  char    *qualified;
  guint    index;
  guint64  direct;
  guint64  cumulative;
  double   key;
} Summary;

static void
summary_free (gpointer data)
{
  Summary *summary = data;

  g_free (summary->qualified);
  g_free (summary);
}

static int
compare_summaries (gconstpointer a,
                   gconstpointer b)
{
  const Summary *sa = *(const Summary * const *) a;
  const Summary *sb = *(const Summary * const *) b;

  if (sa->key != sb->key)
    return sa->key > sb->key ? -1 : 1;
  return sa->index < sb->index ? -1 : sa->index > sb->index;
}

/* _format_func_name() of a summary's (filename, "", funcname), split from
 * "basename:funcname" at its last colon as rsplit (":", 1) does. */
static void
append_summary_name (GString       *out,
                     const Colors  *colors,
                     const Summary *summary)
{
  const char *colon = strrchr (summary->qualified, ':');

  append_name (out, colors, summary->qualified, colon - summary->qualified, "",
               colon + 1, strlen (colon + 1));
}

typedef enum
{
  SUMMARY_HOT_SPOTS,
  SUMMARY_CALL_FREQUENCY,
  SUMMARY_MAGNIFICATION,
} SummaryKind;

static void
append_summary_section (GString      *out,
                        const Colors *colors,
                        GPtrArray    *summaries,
                        SummaryKind   kind,
                        guint64       total)
{
  static const char * const titles[] = {
    "Functions with Highest Direct/Cumulative Ratio (Hot Spots)",
    "Functions with Highest Call Frequency (Indirect Calls)",
    "Functions with Highest Call Magnification (Cumulative/Direct)",
  };

  /* Not g_ptr_array_copy(), which would free the summaries too. */
  g_autoptr(GPtrArray) sorted = g_ptr_array_sized_new (summaries->len);

  for (guint i = 0; i < summaries->len; i++)
    g_ptr_array_add (sorted, g_ptr_array_index (summaries, i));

  g_string_append_printf (out, "\n%s%s:%s\n", colors->bold_blue, titles[kind], colors->reset);
  for (guint i = 0; i < sorted->len; i++)
    {
      Summary *s = g_ptr_array_index (sorted, i);
      double direct = (double) s->direct, cumulative = (double) s->cumulative;

      if (kind == SUMMARY_HOT_SPOTS)
        s->key = s->cumulative > 0 ? direct / cumulative : 0;
      else if (kind == SUMMARY_CALL_FREQUENCY)
        s->key = (double) (s->cumulative - s->direct);
      else
        s->key = s->direct > 0 ? cumulative / direct : 0;
    }
  g_ptr_array_sort (sorted, compare_summaries);

  for (guint i = 0; i < sorted->len && i < 3; i++)
    {
      const Summary *s = g_ptr_array_index (sorted, i);
      double direct = (double) s->direct, cumulative = (double) s->cumulative;
      char number[G_ASCII_DTOSTR_BUF_SIZE];

      if (kind == SUMMARY_HOT_SPOTS && s->direct > 0 && s->cumulative > 0)
        {
          g_string_append (out, "  ");
          g_string_append (out, g_ascii_formatd (number, sizeof number, "%.3f",
                                                 direct / cumulative));
          g_string_append (out, " direct/cumulative ratio, ");
          g_string_append (out, g_ascii_formatd (number, sizeof number, "%.1f",
                                                 total > 0 ? direct / (double) total * 100 : 0));
          g_string_append (out, "% direct samples: ");
        }
      else if (kind == SUMMARY_CALL_FREQUENCY && s->cumulative > s->direct)
        {
          g_string_append_printf (out, "  %" G_GUINT64_FORMAT " indirect calls, ",
                                  s->cumulative - s->direct);
          g_string_append (out, g_ascii_formatd (number, sizeof number, "%.1f",
                                                 total > 0
                                                 ? cumulative / (double) total * 100 : 0));
          g_string_append (out, "% total stack presence: ");
        }
      else if (kind == SUMMARY_MAGNIFICATION && s->direct > 0 && s->cumulative > s->direct)
        {
          g_string_append (out, "  ");
          g_string_append (out, g_ascii_formatd (number, sizeof number, "%.1f",
                                                 cumulative / direct));
          g_string_append_printf (out, "x call magnification, %" G_GUINT64_FORMAT
                                  " indirect calls from %" G_GUINT64_FORMAT " direct: ",
                                  s->cumulative - s->direct, s->direct);
        }
      else
        continue;
      append_summary_name (out, colors, s);
      g_string_append_c (out, '\n');
    }
}

/* _print_summary() over the rows shown. */
static void
append_summary (GString      *out,
                const Colors *colors,
                GPtrArray    *rows,
                guint         n_rows,
                guint64       total)
{
  g_autoptr(GHashTable) table = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GPtrArray) summaries = g_ptr_array_new_with_free_func (summary_free);

  g_string_append_printf (out, "\n%sSummary of Interesting Functions:%s\n", colors->bold_blue,
                          colors->reset);
  for (guint i = 0; i < n_rows; i++)
    {
      const Row *row = g_ptr_array_index (rows, i);
      g_autofree char *qualified = NULL;
      Summary *summary;

      /* f"{basename}:{funcname}": two rows can give one string. */
      qualified = g_strdup_printf ("%.*s:%.*s", (int) row->where.file_len, row->where.file,
                                   (int) row->where.func_len, row->where.func);
      summary = g_hash_table_lookup (table, qualified);
      if (summary == NULL)
        {
          summary = g_new0 (Summary, 1);
          summary->qualified = g_steal_pointer (&qualified);
          summary->index = summaries->len;
          g_ptr_array_add (summaries, summary);
          g_hash_table_insert (table, summary->qualified, summary);
        }
      summary->direct += row->direct;
      summary->cumulative += row->cumulative;
    }

  append_summary_section (out, colors, summaries, SUMMARY_HOT_SPOTS, total);
  append_summary_section (out, colors, summaries, SUMMARY_CALL_FREQUENCY, total);
  append_summary_section (out, colors, summaries, SUMMARY_MAGNIFICATION, total);
}

/**
 * tv_pstats_to_table:
 * @self: the statistics
 * @sort: the rows' order
 * @limit: how many rows at most; < 0 for all of them
 * @flags: the summary, colours, names made visible
 *
 * What `replay --pstats` prints (print_stats() of PstatsCollector), with
 * the rows merged by file name without its folders.
 *
 * Returns: (transfer full): the text
 */
char *
tv_pstats_to_table (const TvPstats     *self,
                    TvPstatsSort        sort,
                    int                 limit,
                    TvPstatsTableFlags  flags)
{
  static const Colors ansi = { "\033[1;34m", "\033[32m", "\033[33m", "\033[36m", "\033[0m" };
  Colors colors = { "", "", "", "", "" };
  const Colors *c = &colors;
  g_autoptr(GPtrArray) rows = NULL;
  GString *out;
  guint64 total = 0;
  guint n_rows;
  double max_tt = 0, max_ct = 0, tt_scale, ct_scale;
  const char *tt_unit, *ct_unit;
  g_autofree char *tt_title = NULL;
  g_autofree char *ct_title = NULL;
  guint tt_width, ct_width;

  g_return_val_if_fail (self != NULL, NULL);

  if (flags & TV_PSTATS_TABLE_COLORS)
    colors = ansi;
  colors.visible = (flags & TV_PSTATS_TABLE_VISIBLE) != 0;
  rows = make_rows (self);
  out = g_string_new (NULL);
  if (rows->len == 0)
    {
      g_string_append (out, "No samples were collected.\n");
      return g_string_free (out, FALSE);
    }

  for (guint i = 0; i < rows->len; i++)
    total += ((const Row *) g_ptr_array_index (rows, i))->direct;
  sort_rows (rows, sort, total);
  n_rows = limit < 0 ? rows->len : MIN ((guint) limit, rows->len);

  for (guint i = 0; i < n_rows; i++)
    {
      const Row *row = g_ptr_array_index (rows, i);

      max_tt = MAX (max_tt, row->tt);
      max_ct = MAX (max_ct, row->ct);
    }
  tt_unit = best_unit (max_tt, &tt_scale);
  ct_unit = best_unit (max_ct, &ct_scale);
  tt_title = g_strdup_printf ("tottime (%s)", tt_unit);
  ct_title = g_strdup_printf ("cumtime (%s)", ct_unit);
  tt_width = MAX (12, g_utf8_strlen (tt_title, -1));
  ct_width = MAX (12, g_utf8_strlen (ct_title, -1));

  g_string_append_printf (out, "%sProfile Stats:%s\n", c->bold_blue, c->reset);
  g_string_append (out, c->bold_blue);
  append_right (out, "nsamples", 15);
  g_string_append_printf (out, "%s  %s", c->reset, c->bold_blue);
  append_right (out, "sample%", 8);
  g_string_append_printf (out, "%s  %s", c->reset, c->bold_blue);
  append_right (out, tt_title, tt_width);
  g_string_append_printf (out, "%s  %s", c->reset, c->bold_blue);
  append_right (out, "cumul%", 8);
  g_string_append_printf (out, "%s  %s", c->reset, c->bold_blue);
  append_right (out, ct_title, ct_width);
  g_string_append_printf (out, "%s  %sfilename:lineno(function)%s\n", c->reset, c->bold_blue,
                          c->reset);

  for (guint i = 0; i < n_rows; i++)
    {
      const Row *row = g_ptr_array_index (rows, i);
      g_autofree char *nsamples = g_strdup_printf ("%" G_GUINT64_FORMAT "/%" G_GUINT64_FORMAT,
                                                   row->direct, row->cumulative);
      char line[16];

      append_right (out, nsamples, 15);
      g_string_append (out, "  ");
      append_fixed (out, (double) row->direct / (double) total * 100, 8, 1);
      g_string_append (out, "  ");
      append_fixed (out, row->tt * tt_scale, tt_width, 3);
      g_string_append (out, "  ");
      append_fixed (out, (double) row->cumulative / (double) total * 100, 8, 1);
      g_string_append (out, "  ");
      append_fixed (out, row->ct * ct_scale, ct_width, 3);
      g_string_append (out, "  ");
      g_snprintf (line, sizeof line, "%d", row->where.line);
      append_name (out, c, row->where.file, row->where.file_len, line, row->where.func,
                   row->where.func_len);
      g_string_append_c (out, '\n');
    }

  g_string_append_printf (out, "\n%sLegend:%s\n", c->bold_blue, c->reset);
  g_string_append_printf (out, "  %snsamples%s: Direct/Cumulative samples (direct executing / "
                          "on call stack)\n", c->yellow, c->reset);
  g_string_append_printf (out, "  %ssample%%%s: Percentage of total samples this function was "
                          "directly executing\n", c->yellow, c->reset);
  g_string_append_printf (out, "  %stottime%s: Estimated total time spent directly in this "
                          "function\n", c->yellow, c->reset);
  g_string_append_printf (out, "  %scumul%%%s: Percentage of total samples when this function "
                          "was on the call stack\n", c->yellow, c->reset);
  g_string_append_printf (out, "  %scumtime%s: Estimated cumulative time (including time in "
                          "called functions)\n", c->yellow, c->reset);
  g_string_append_printf (out, "  %sfilename:lineno(function)%s: Function location and name\n",
                          c->yellow, c->reset);

  if ((flags & TV_PSTATS_TABLE_SUMMARY) && n_rows > 0)
    append_summary (out, c, rows, n_rows, total);

  return g_string_free (out, FALSE);
}

/**
 * tv_pstats_sort_from_string:
 * @text: a `--sort` key
 * @sort: (out): the sort
 *
 * Returns: %TRUE if @text is one of CPython's sort keys
 */
gboolean
tv_pstats_sort_from_string (const char   *text,
                            TvPstatsSort *sort)
{
  static const struct
  {
    const char   *name;
    TvPstatsSort  sort;
  } keys[] = {
    { "nsamples", TV_PSTATS_SORT_NSAMPLES },
    { "tottime", TV_PSTATS_SORT_TOTTIME },
    { "cumtime", TV_PSTATS_SORT_CUMTIME },
    { "sample-pct", TV_PSTATS_SORT_SAMPLE_PCT },
    { "cumul-pct", TV_PSTATS_SORT_CUMUL_PCT },
    { "nsamples-cumul", TV_PSTATS_SORT_NSAMPLES_CUMUL },
    { "name", TV_PSTATS_SORT_NAME },
  };

  g_return_val_if_fail (text != NULL, FALSE);
  g_return_val_if_fail (sort != NULL, FALSE);

  for (gsize i = 0; i < G_N_ELEMENTS (keys); i++)
    {
      if (strcmp (text, keys[i].name) == 0)
        {
          *sort = keys[i].sort;
          return TRUE;
        }
    }
  return FALSE;
}
