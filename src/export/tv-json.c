/* tv-json.c: the small pieces of JSON output the command line needs
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tv-json.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Writes VALUE as Python's repr() does: the shortest digit string that reads
 * back as the same double, in fixed notation when the decimal exponent is in
 * -4..15 (always with a fractional part, "1000.0") and in exponent notation
 * otherwise ("1e+16", "2.5e-07").  Both are valid JSON numbers, and the text
 * does not depend on the locale.  A non-finite value, which JSON cannot
 * express, becomes "null". */
void
tv_json_format_double (char   *buf,
                       gsize   buf_len,
                       double  value)
{
  char sci[TV_JSON_DOUBLE_BUF_SIZE];
  char digits[TV_JSON_DOUBLE_BUF_SIZE];
  GString *text;
  gsize n_digits = 0;
  int exponent;
  const char *p;

  g_return_if_fail (buf != NULL);
  g_return_if_fail (buf_len >= TV_JSON_DOUBLE_BUF_SIZE);

  if (!isfinite (value))
    {
      g_strlcpy (buf, "null", buf_len);
      return;
    }

  if (value == 0.0)
    {
      g_strlcpy (buf, signbit (value) ? "-0.0" : "0.0", buf_len);
      return;
    }

  /* The shortest precision that round-trips; 17 significant digits always
   * do for an IEEE-754 double.  Only 15, 16 and 17 need trying: when fewer
   * digits D round-trip, VALUE is within half a unit in the last place of
   * D, less than half a step of 15 digits, so that its 15 digits are D's
   * followed by zeros, which are dropped below.  A subnormal value has
   * fewer bits than that, and tries every precision. */
  for (int precision = fabs (value) < DBL_MIN ? 1 : 15; precision <= 17; precision++)
    {
      char format[8];

      g_snprintf (format, sizeof format, "%%.%de", precision - 1);
      g_ascii_formatd (sci, sizeof sci, format, value);
      if (g_ascii_strtod (sci, NULL) == value)
        break;
    }

  /* sci is now "[-]d[.ddd]e(+|-)dd[d]". */
  p = sci;
  if (*p == '-')
    p++;
  for (; *p != 'e' && *p != '\0'; p++)
    {
      if (g_ascii_isdigit (*p))
        digits[n_digits++] = *p;
    }
  g_assert (*p == 'e' && n_digits > 0);
  exponent = atoi (p + 1);
  while (n_digits > 1 && digits[n_digits - 1] == '0')
    n_digits--;
  digits[n_digits] = '\0';

  text = g_string_sized_new (TV_JSON_DOUBLE_BUF_SIZE);
  if (value < 0)
    g_string_append_c (text, '-');

  if (exponent < -4 || exponent >= 16)
    {
      g_string_append_c (text, digits[0]);
      if (n_digits > 1)
        {
          g_string_append_c (text, '.');
          g_string_append (text, digits + 1);
        }
      g_string_append_printf (text, "e%c%02d",
                              exponent < 0 ? '-' : '+', ABS (exponent));
    }
  else if (exponent < 0)
    {
      g_string_append (text, "0.");
      for (int i = -1; i > exponent; i--)
        g_string_append_c (text, '0');
      g_string_append (text, digits);
    }
  else
    {
      gsize n_int = (gsize) exponent + 1;

      for (gsize i = 0; i < n_int; i++)
        g_string_append_c (text, i < n_digits ? digits[i] : '0');
      g_string_append_c (text, '.');
      if (n_digits > n_int)
        g_string_append (text, digits + n_int);
      else
        g_string_append_c (text, '0');
    }

  g_strlcpy (buf, text->str, buf_len);
  g_string_free (text, TRUE);
}

void
tv_json_append_double (GString *out,
                       double   value)
{
  char buf[TV_JSON_DOUBLE_BUF_SIZE];

  tv_json_format_double (buf, sizeof buf, value);
  g_string_append (out, buf);
}

/* Whether C would act on a terminal or turn text around rather than show:
 * DEL, the C1 controls (U+009B is a terminal's CSI), the bidirectional
 * controls and the line and paragraph separators.  JSON may hold them raw;
 * escaped, they mean the same to a parser and nothing to a terminal. */
static gboolean
is_obeyed (gunichar c)
{
  return c == 0x7f || (c >= 0x80 && c <= 0x9f) || c == 0x61c || c == 0x200e || c == 0x200f
         || c == 0x2028 || c == 0x2029 || (c >= 0x202a && c <= 0x202e)
         || (c >= 0x2066 && c <= 0x2069);
}

/* Appends STR as a JSON string literal.  LEN may be -1 for a NUL-terminated
 * string; with an explicit length, embedded NULs are escaped.  UTF-8 is kept
 * as is, but for the characters is_obeyed() names, which are \u escapes
 * like the C0 controls, so that JSON printed to a terminal is safe to look
 * at; an invalid byte (the format library never hands one out) becomes
 * U+FFFD so that the output is always valid JSON. */
void
tv_json_append_string (GString    *out,
                       const char *str,
                       gssize      len)
{
  const char *p;
  const char *end;

  g_return_if_fail (out != NULL);
  g_return_if_fail (str != NULL || len == 0);

  if (len < 0)
    len = strlen (str);

  g_string_append_c (out, '"');
  p = str;
  end = str + len;
  while (p < end)
    {
      guchar c = (guchar) *p;

      if (c >= 0x80)
        {
          gunichar ch = g_utf8_get_char_validated (p, end - p);

          if (ch == (gunichar) -1 || ch == (gunichar) -2)
            {
              g_string_append (out, "\xef\xbf\xbd");
              p++;
            }
          else
            {
              const char *next = g_utf8_next_char (p);

              if (is_obeyed (ch))
                g_string_append_printf (out, "\\u%04x", ch);
              else
                g_string_append_len (out, p, next - p);
              p = next;
            }
          continue;
        }

      switch (c)
        {
        case '"':
          g_string_append (out, "\\\"");
          break;
        case '\\':
          g_string_append (out, "\\\\");
          break;
        case '\b':
          g_string_append (out, "\\b");
          break;
        case '\f':
          g_string_append (out, "\\f");
          break;
        case '\n':
          g_string_append (out, "\\n");
          break;
        case '\r':
          g_string_append (out, "\\r");
          break;
        case '\t':
          g_string_append (out, "\\t");
          break;
        default:
          if (c < 0x20 || c == 0x7f)
            g_string_append_printf (out, "\\u%04x", c);
          else
            g_string_append_c (out, (char) c);
          break;
        }
      p++;
    }
  g_string_append_c (out, '"');
}

/* A JSON string from a name of the profile or of the file system: valid
 * UTF-8 (an invalid byte becomes U+FFFD), as JSON must be; json-glib
 * writes what it is given. */
void
tv_json_builder_add_string (JsonBuilder *builder,
                            const char  *str)
{
  g_return_if_fail (JSON_IS_BUILDER (builder));

  if (str == NULL)
    {
      json_builder_add_null_value (builder);
      return;
    }
  if (g_utf8_validate (str, -1, NULL))
    {
      json_builder_add_string_value (builder, str);
    }
  else
    {
      g_autofree char *valid = g_utf8_make_valid (str, -1);

      json_builder_add_string_value (builder, valid);
    }
}

/* A number, or null when JSON cannot say it (NaN, the infinities), which
 * json-glib would write as "nan.0" or "inf.0". */
void
tv_json_builder_add_double (JsonBuilder *builder,
                            double       value)
{
  g_return_if_fail (JSON_IS_BUILDER (builder));

  if (isfinite (value))
    json_builder_add_double_value (builder, value);
  else
    json_builder_add_null_value (builder);
}

static void
append_u_escape (GString  *out,
                 gunichar  c)
{
  g_string_append_printf (out, "\\u%04x", c);
}

/* Inside a string of JSON text, from P (past the opening quote): the
 * string copied to OUT up to and with its closing quote, with the
 * characters a terminal would obey, what would end a <script> element or
 * start markup (<, >, &), and an invalid byte escaped; the escapes
 * already there are kept.  Returns where the string ends. */
static const char *
copy_string (GString    *out,
             const char *p,
             const char *end)
{
  while (p < end)
    {
      guchar c = (guchar) *p;

      if (c == '"')
        {
          g_string_append_c (out, '"');
          return p + 1;
        }
      if (c == '\\' && p + 1 < end)
        {
          g_string_append_len (out, p, 2);
          p += 2;
        }
      else if (c == '<' || c == '>' || c == '&' || c < 0x20 || c == 0x7f)
        {
          append_u_escape (out, c);
          p++;
        }
      else if (c >= 0x80)
        {
          gunichar ch = g_utf8_get_char_validated (p, end - p);

          if (ch == (gunichar) -1 || ch == (gunichar) -2)
            {
              g_string_append (out, "\xef\xbf\xbd");
              p++;
              continue;
            }
          if (is_obeyed (ch))
            append_u_escape (out, ch);
          else
            g_string_append_len (out, p, g_utf8_next_char (p) - p);
          p = g_utf8_next_char (p);
        }
      else
        {
          g_string_append_c (out, (char) c);
          p++;
        }
    }
  return p;
}

/* Outside the strings, from P at a number: the number, without the ".0"
 * that json-glib before 1.7 puts after an exponent ("1e+20.0", which is
 * no JSON).  Returns where the number ends. */
static const char *
copy_number (GString    *out,
             const char *p,
             const char *end)
{
  const char *start = p;
  gboolean exponent = FALSE;

  while (p < end && (g_ascii_isdigit (*p) || strchr ("+-.eE", *p) != NULL))
    {
      if (*p == 'e' || *p == 'E')
        exponent = TRUE;
      else if (exponent && *p == '.')
        break;
      p++;
    }
  g_string_append_len (out, start, p - start);
  /* The ".0" after the exponent. */
  if (p + 1 < end && p[0] == '.' && p[1] == '0')
    p += 2;
  return p;
}

static void
make_safe (GString    *out,
           const char *json,
           gsize       len)
{
  const char *p = json;
  const char *end = json + len;

  while (p < end)
    {
      if (*p == '"')
        {
          g_string_append_c (out, '"');
          p = copy_string (out, p + 1, end);
        }
      else if (*p == '-' || g_ascii_isdigit (*p))
        {
          p = copy_number (out, p, end);
        }
      else
        {
          g_string_append_c (out, *p);
          p++;
        }
    }
}

/**
 * tv_json_make_safe:
 * @json: JSON text, as json-glib's JsonGenerator writes it
 * @len: its length in bytes
 *
 * The same document, safe to print to a terminal and to put in an HTML
 * page: within its strings, the characters a terminal would obey (C0, DEL,
 * C1, the bidirectional controls, the line and paragraph separators) and
 * <, > and & become \u escapes, which mean the same to a JSON parser, and
 * an invalid byte becomes U+FFFD.  This is the one layer of JSON writing
 * of our own above json-glib.
 *
 * Returns: (transfer full): the text, NUL-terminated
 */
char *
tv_json_make_safe (const char *json,
                   gsize       len)
{
  GString *out;

  g_return_val_if_fail (json != NULL || len == 0, NULL);

  out = g_string_sized_new (len + len / 16 + 1);
  make_safe (out, json, len);
  return g_string_free (out, FALSE);
}

/**
 * tv_json_generate:
 * @root: a document
 * @pretty: whether to indent it (by two spaces) rather than write it on one
 *   line
 *
 * Returns: (transfer full): @root as JSON text by json-glib's generator,
 *   made safe as tv_json_make_safe() says, with a final newline
 */
char *
tv_json_generate (JsonNode *root,
                  gboolean  pretty)
{
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autofree char *text = NULL;
  GString *out;
  gsize len = 0;

  g_return_val_if_fail (root != NULL, NULL);

  json_generator_set_root (generator, root);
  json_generator_set_pretty (generator, pretty);
  json_generator_set_indent (generator, 2);
  text = json_generator_to_data (generator, &len);
  out = g_string_sized_new (len + len / 16 + 2);
  make_safe (out, text, len);
  g_string_append_c (out, '\n');
  return g_string_free (out, FALSE);
}
