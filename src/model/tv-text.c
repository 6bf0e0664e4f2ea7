/* tv-text.c: names from a profile shown as text, never obeyed
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tv-text.h"

#include <string.h>

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

/* Whether P is where TEXT ends: at END, or at the nul without one. */
static inline gboolean
at_end (const char *p,
        const char *end)
{
  return end != NULL ? p >= end : *p == '\0';
}

/* The character at P, of *LENGTH bytes, or (gunichar) -1 for a byte that
 * starts no UTF-8 character (*LENGTH is then 1). */
static gunichar
next_unit (const char *p,
           const char *end,
           gsize      *length)
{
  gunichar c;

  /* A nul inside LEN bytes is a control character like the others. */
  if (*p == '\0')
    {
      *length = 1;
      return 0;
    }
  c = g_utf8_get_char_validated (p, end != NULL ? end - p : -1);
  if (c == (gunichar) -1 || c == (gunichar) -2)
    {
      *length = 1;
      return (gunichar) -1;
    }
  *length = (gsize) (g_utf8_next_char (p) - p);
  return c;
}

/* Appends the first N characters from P (fewer at the end) as they are
 * shown; returns where it stopped. */
static const char *
append_units (GString    *out,
              const char *p,
              const char *end,
              gsize       n)
{
  for (gsize i = 0; i < n && !at_end (p, end); i++)
    {
      gsize length;
      gunichar c = next_unit (p, end, &length);

      /* One U+FFFD a byte, as g_utf8_make_valid() does. */
      if (c == (gunichar) -1)
        g_string_append_unichar (out, 0xfffd);
      else
        append_char (out, c, p, length);
      p += length;
    }
  return p;
}

/* Skips N characters from P (fewer at the end); returns where it stopped
 * and, in *SKIPPED, how many it skipped. */
static const char *
skip_units (const char *p,
            const char *end,
            gsize       n,
            gsize      *skipped)
{
  gsize i;

  for (i = 0; i < n && !at_end (p, end); i++)
    {
      gsize length;

      next_unit (p, end, &length);
      p += length;
    }
  *skipped = i;
  return p;
}

void
tv_text_append_visible (GString    *out,
                        const char *text,
                        gssize      len,
                        guint       max_chars)
{
  const char *end;
  const char *p;
  gsize head, tail, n_chars;

  g_return_if_fail (out != NULL);
  g_return_if_fail (text != NULL || len == 0);

  if (text == NULL)
    return;
  end = len >= 0 ? text + len : NULL;
  if (max_chars == 0)
    {
      append_units (out, text, end, G_MAXSIZE);
      return;
    }

  /* The end is kept too, so the text is read to its end once to count
   * its characters, and a second time for what is shown: a long name
   * costs two passes, however it is cut. */
  head = max_chars - max_chars / 2;
  tail = max_chars / 2;
  skip_units (text, end, G_MAXSIZE, &n_chars);
  if (n_chars <= max_chars)
    {
      append_units (out, text, end, G_MAXSIZE);
      return;
    }
  p = append_units (out, text, end, head);
  p = skip_units (p, end, n_chars - head - tail, &n_chars);
  g_string_append (out, "…");
  append_units (out, p, end, tail);
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

void
tv_text_append_shown (GString    *out,
                      const char *text,
                      gssize      len)
{
  tv_text_append_visible (out, text, len, TV_TEXT_SHOWN_CHARS);
}

char *
tv_text_dup_shown (const char *text)
{
  return tv_text_dup_visible (text, TV_TEXT_SHOWN_CHARS);
}

char *
tv_text_dup_file_name (GFile *file)
{
  g_autofree char *basename = NULL;
  g_autofree char *name = NULL;

  g_return_val_if_fail (G_IS_FILE (file), NULL);

  basename = g_file_get_basename (file);
  name = basename != NULL ? g_filename_display_name (basename) : g_file_get_uri (file);
  return tv_text_dup_shown (name);
}

char *
tv_text_dup_path (const char *path)
{
  g_autofree char *name = NULL;

  g_return_val_if_fail (path != NULL, NULL);

  name = g_filename_display_name (path);
  return tv_text_dup_shown (name);
}

/* Appends the characters of TEXT from P to END as a regular expression
 * that matches them literally. */
static void
append_regex_literal (GString    *out,
                      const char *p,
                      const char *end)
{
  while (p < end)
    {
      gsize length;
      gunichar c = next_unit (p, end, &length);

      if (c == (gunichar) -1)
        g_string_append_c (out, '.');
      else if (c < 0x20 || (c >= 0x7f && c <= 0x9f) || is_bidi_or_separator (c)
               || c == 0xfffe || c == 0xffff)
        g_string_append_printf (out, "\\x{%X}", c);
      else
        {
          if (c < 0x80 && strchr ("\\^$.|?*+()[]{}", (int) c) != NULL)
            g_string_append_c (out, '\\');
          g_string_append_len (out, p, length);
        }
      p += length;
    }
}

char *
tv_text_dup_name_regex (const char *name)
{
  GString *out;
  const char *end, *head_end, *tail_start;
  gsize n_chars, skipped;

  g_return_val_if_fail (name != NULL, NULL);

  end = name + strlen (name);
  out = g_string_new ("^");
  skip_units (name, end, G_MAXSIZE, &n_chars);
  if (n_chars <= TV_TEXT_SHOWN_CHARS)
    append_regex_literal (out, name, end);
  else
    {
      head_end = skip_units (name, end, TV_TEXT_SHOWN_CHARS - TV_TEXT_SHOWN_CHARS / 2, &skipped);
      tail_start = skip_units (head_end, end, n_chars - TV_TEXT_SHOWN_CHARS, &skipped);
      append_regex_literal (out, name, head_end);
      g_string_append (out, "(?s:.*)");
      append_regex_literal (out, tail_start, end);
    }
  g_string_append_c (out, '$');
  return g_string_free (out, FALSE);
}

char *
tv_text_dup_message (const char *message,
                     const char *path)
{
  g_autoptr(GString) text = NULL;

  g_return_val_if_fail (message != NULL, NULL);

  text = g_string_new (message);
  if (path != NULL && path[0] != '\0')
    {
      /* GLib's messages quote a path by its display name. */
      g_autofree char *display = g_filename_display_name (path);
      g_autofree char *shown = tv_text_dup_shown (display);

      if (strcmp (display, shown) != 0)
        g_string_replace (text, display, shown, 0);
    }
  return tv_text_dup_visible (text->str, 0);
}

gboolean
tv_text_contains_ascii_nocase (const char *haystack,
                               const char *needle)
{
  for (const char *h = haystack; *h != '\0'; h++)
    {
      const char *a = h, *b = needle;

      while (*b != '\0' && g_ascii_tolower (*a) == *b)
        a++, b++;
      if (*b == '\0')
        return TRUE;
      if (*a == '\0')
        return FALSE;
    }
  return needle[0] == '\0';
}
