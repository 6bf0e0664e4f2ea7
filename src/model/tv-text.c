/* tv-text.c: names from a profile shown as text, never obeyed
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tv-text.h"

/* Characters that would turn the text around them, or break its line. */
static gboolean
is_bidi_or_separator (gunichar c)
{
  return c == 0x61c || c == 0x200e || c == 0x200f || c == 0x2028 || c == 0x2029
         || (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069);
}

/* Appends C, the character at P of LENGTH bytes, as it is shown. */
static void
append_char (GString    *out,
             gunichar    c,
             const char *p,
             gsize       length)
{
  if (c < 0x20)
    g_string_append_unichar (out, 0x2400 + c);
  else if (c == 0x7f)
    g_string_append_unichar (out, 0x2421);
  else if ((c >= 0x80 && c <= 0x9f) || is_bidi_or_separator (c))
    g_string_append_printf (out, "[U+%X]", c);
  else if (c == 0xfffe || c == 0xffff)
    g_string_append_unichar (out, 0xfffd);
  else
    g_string_append_len (out, p, length);
}

void
tv_text_append_visible (GString    *out,
                        const char *text,
                        gssize      len,
                        guint       max_chars)
{
  const char *end;
  guint n = 0;

  g_return_if_fail (out != NULL);
  g_return_if_fail (text != NULL || len == 0);

  if (text == NULL)
    return;
  end = len >= 0 ? text + len : NULL;
  /* Not strlen() first: a long name cut at MAX_CHARS is not read to its end. */
  for (const char *p = text; end != NULL ? p < end : *p != '\0'; n++)
    {
      gunichar c;
      gsize length;

      if (max_chars > 0 && n == max_chars)
        {
          g_string_append (out, "…");
          break;
        }
      /* A nul inside LEN bytes is a control character like the others. */
      c = *p == '\0' ? 0 : g_utf8_get_char_validated (p, end != NULL ? end - p : -1);
      if (c == (gunichar) -1 || c == (gunichar) -2)
        {
          /* One U+FFFD a byte, as g_utf8_make_valid() does. */
          g_string_append_unichar (out, 0xfffd);
          p++;
          continue;
        }
      length = *p == '\0' ? 1 : (gsize) (g_utf8_next_char (p) - p);
      append_char (out, c, p, length);
      p += length;
    }
}

char *
tv_text_dup_visible (const char *text,
                     guint       max_chars)
{
  GString *out;

  g_return_val_if_fail (text != NULL, NULL);

  out = g_string_new (NULL);
  tv_text_append_visible (out, text, -1, max_chars);
  return g_string_free (out, FALSE);
}

char *
tv_text_dup_file_name (GFile *file)
{
  g_autofree char *basename = g_file_get_basename (file);

  return basename != NULL ? g_filename_display_name (basename) : g_file_get_uri (file);
}
