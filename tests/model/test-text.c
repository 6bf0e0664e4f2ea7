/* test-text.c: names from a profile shown as text, never obeyed
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * tv_text_append_visible() against each class of character, one by one
 * and for every code point: C0 controls and DEL as Control Pictures, C1
 * controls, bidirectional controls and line and paragraph separators as
 * "[U+XXXX]", noncharacters and invalid bytes as U+FFFD, the rest as it
 * is; the output is always valid UTF-8 with none of those characters in
 * it, also for random bytes.  The seed is printed; TACH_SEED replays a run.
 */
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "tv-text.h"

static guint32 seed;

static char *
visible_len (const char *text,
             gssize      len,
             guint       max_chars)
{
  GString *out = g_string_new (NULL);

  tv_text_append_visible (out, text, len, max_chars);
  return g_string_free (out, FALSE);
}

static void
check (const char *text,
       const char *expected)
{
  g_autofree char *shown = tv_text_dup_visible (text, 0);

  g_assert_cmpstr (shown, ==, expected);
  g_assert_true (g_utf8_validate (shown, -1, NULL));
}

/* What a character must never be in the output: something that breaks a
 * line or turns text around. */
static gboolean
is_obeyed (gunichar c)
{
  return c < 0x20 || (c >= 0x7f && c <= 0x9f) || c == 0x61c || c == 0x200e || c == 0x200f
         || c == 0x2028 || c == 0x2029 || (c >= 0x202a && c <= 0x202e)
         || (c >= 0x2066 && c <= 0x2069) || c == 0xfffe || c == 0xffff;
}

static void
assert_shown_only (const char *shown)
{
  g_assert_true (g_utf8_validate (shown, -1, NULL));
  for (const char *p = shown; *p != '\0'; p = g_utf8_next_char (p))
    if (is_obeyed (g_utf8_get_char (p)))
      g_error ("U+%04X left in \"%s\"", g_utf8_get_char (p), shown);
}

static void
test_plain (void)
{
  static const char *const kept[] = {
    "main", "<module>", "très_long_nom", "处理请求", "λ", "🐍 snake", "שלום", "مرحبا",
    /* Next to the classes, but not in them. */
    "\u00a0nbsp", "\u061b", "\u200b\u200c\u200d", "\u2027\u202f\u2065\u206a", "\ufffd\ufffc",
    "\U0010fffd",
  };

  for (guint i = 0; i < G_N_ELEMENTS (kept); i++)
    check (kept[i], kept[i]);
}

static void
test_c0 (void)
{
  check ("a\tb", "a\u2409b");
  check ("line\nbreak\r\n", "line\u240abreak\u240d\u240a");
  check ("\x1b[31mred", "\u241b[31mred");
  check ("\x01\x1f", "\u2401\u241f");
  for (gunichar c = 1; c < 0x20; c++)
    {
      char text[2] = { (char) c, '\0' };
      char expected[8] = { 0 };

      g_unichar_to_utf8 (0x2400 + c, expected);
      check (text, expected);
    }
  /* A nul inside the length given is a control character too. */
  {
    g_autofree char *shown = visible_len ("nul\0byte", 8, 0);

    g_assert_cmpstr (shown, ==, "nul\u2400byte");
  }
}

static void
test_del (void)
{
  check ("\x7f", "\u2421");
  check ("a\x7f" "b", "a\u2421b");
}

static void
test_c1 (void)
{
  check ("\xc2\x85" "next line", "[U+85]next line");
  check ("\xc2\x9b" "31m", "[U+9B]31m");
  for (gunichar c = 0x80; c <= 0x9f; c++)
    {
      char text[8] = { 0 };
      g_autofree char *expected = g_strdup_printf ("[U+%X]", c);

      g_unichar_to_utf8 (c, text);
      check (text, expected);
    }
}

static void
test_bidi (void)
{
  static const gunichar bidi[] = {
    0x61c, 0x200e, 0x200f, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068,
    0x2069,
  };

  /* Drawn as it is, "safe_\u202egnp.exe" reads "safe_exe.png". */
  check ("safe_\u202egnp.exe", "safe_[U+202E]gnp.exe");
  check ("\u2067evil\u2069 rtl", "[U+2067]evil[U+2069] rtl");
  check ("\u061c", "[U+61C]");
  for (guint i = 0; i < G_N_ELEMENTS (bidi); i++)
    {
      char text[8] = { 0 };
      g_autofree char *expected = g_strdup_printf ("x[U+%X]y", bidi[i]);
      g_autofree char *input = NULL;

      g_unichar_to_utf8 (bidi[i], text);
      input = g_strconcat ("x", text, "y", NULL);
      check (input, expected);
    }
}

static void
test_separators (void)
{
  check ("\u2028\u2029line\u2028separators", "[U+2028][U+2029]line[U+2028]separators");
}

static void
test_noncharacters (void)
{
  check ("\ufffe\uffff", "\ufffd\ufffd");
}

static guint
count_replacements (const char *text)
{
  guint n = 0;

  for (const char *p = text; *p != '\0'; p = g_utf8_next_char (p))
    n += g_utf8_get_char (p) == 0xfffd;
  return n;
}

static void
test_invalid (void)
{
  static const struct
  {
    const char *bytes;
    const char *expected;
  } cases[] = {
    { "\xff", "\ufffd" },
    { "a\xfe" "b", "a\ufffdb" },
    /* A character cut short, at the end and in the middle. */
    { "\xc3", "\ufffd" },
    { "\xe2\x80x", "\ufffd\ufffdx" },
    /* Overlong, a surrogate, past U+10FFFF: one U+FFFD a byte. */
    { "\xc0\xaf", "\ufffd\ufffd" },
    { "\xed\xa0\x80", "\ufffd\ufffd\ufffd" },
    { "\xf4\x90\x80\x80", "\ufffd\ufffd\ufffd\ufffd" },
    /* Invalid bytes next to controls. */
    { "\xff\n\xe2\x80\xae", "\ufffd\u240a[U+202E]" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *made_valid = g_utf8_make_valid (cases[i].bytes, -1);

      check (cases[i].bytes, cases[i].expected);
      /* As many U+FFFD as g_utf8_make_valid() makes. */
      g_assert_cmpuint (count_replacements (made_valid), ==,
                        count_replacements (cases[i].expected));
    }
  /* A length that cuts a character. */
  {
    g_autofree char *shown = visible_len ("é", 1, 0);

    g_assert_cmpstr (shown, ==, "\ufffd");
  }
}

static void
test_empty (void)
{
  g_autofree char *empty = tv_text_dup_visible ("", 0);
  g_autofree char *zero = visible_len ("abc", 0, 0);
  g_autofree char *null = visible_len (NULL, 0, 0);
  GString *out = g_string_new ("kept");

  g_assert_cmpstr (empty, ==, "");
  g_assert_cmpstr (zero, ==, "");
  g_assert_cmpstr (null, ==, "");
  /* Appends: what is there stays. */
  tv_text_append_visible (out, "", -1, 0);
  tv_text_append_visible (out, "\t", -1, 0);
  g_assert_cmpstr (out->str, ==, "kept\u2409");
  g_string_free (out, TRUE);
}

static void
test_max_chars (void)
{
  g_autofree char *cut = tv_text_dup_visible ("abcdef", 3);
  g_autofree char *even = tv_text_dup_visible ("abcdef", 4);
  g_autofree char *exact = tv_text_dup_visible ("abc", 3);
  g_autofree char *one = tv_text_dup_visible ("abc", 1);
  g_autofree char *wide = tv_text_dup_visible ("处理请求", 2);
  /* MAX_CHARS counts characters of the input, a control as one. */
  g_autofree char *controls = tv_text_dup_visible ("\t\u202e\xff" "abc\n", 4);
  g_autofree char *with_len = visible_len ("abcdef\0ghij", 8, 4);

  /* The start and the end are kept, the start taking the odd one. */
  g_assert_cmpstr (cut, ==, "ab…f");
  g_assert_cmpstr (even, ==, "ab…ef");
  g_assert_cmpstr (exact, ==, "abc");
  g_assert_cmpstr (one, ==, "a…");
  g_assert_cmpstr (wide, ==, "处…求");
  g_assert_cmpstr (controls, ==, "\u2409[U+202E]…c\u240a");
  g_assert_cmpstr (with_len, ==, "ab…\u2400g");
}

/* The number of characters of valid UTF-8 TEXT. */
static glong
n_chars (const char *text)
{
  g_assert_true (g_utf8_validate (text, -1, NULL));
  return g_utf8_strlen (text, -1);
}

/* A name of 100 KB is shown as its first and last 100 characters. */
static void
test_shown (void)
{
  g_autoptr(GString) name = g_string_new ("start_");
  g_autofree char *shown = NULL;
  g_autofree char *head = NULL;
  g_autofree char *at_limit = NULL;
  g_autofree char *over = NULL;
  g_autofree char *hostile = NULL;
  g_autofree char *expected = NULL;

  while (name->len < 100 * 1024)
    g_string_append (name, "inner_");
  g_string_append (name, "the_end");
  shown = tv_text_dup_shown (name->str);
  g_assert_cmpint (n_chars (shown), ==, TV_TEXT_SHOWN_CHARS + 1);
  head = g_strndup (name->str, TV_TEXT_SHOWN_CHARS / 2);
  expected = g_strconcat (head, "…", name->str + name->len - TV_TEXT_SHOWN_CHARS / 2, NULL);
  g_assert_cmpstr (shown, ==, expected);
  g_assert_true (g_str_has_prefix (shown, "start_inner_"));
  g_assert_true (g_str_has_suffix (shown, "inner_the_end"));

  /* Up to the limit, a name is whole; one more character cuts it. */
  g_string_truncate (name, 0);
  for (guint i = 0; i < TV_TEXT_SHOWN_CHARS; i++)
    g_string_append (name, "é");
  at_limit = tv_text_dup_shown (name->str);
  g_assert_cmpstr (at_limit, ==, name->str);
  g_string_append (name, "x");
  over = tv_text_dup_shown (name->str);
  g_assert_cmpint (n_chars (over), ==, TV_TEXT_SHOWN_CHARS + 1);
  /* 100 "é", "…", 99 "é" and the "x". */
  {
    g_autoptr(GString) want = g_string_new (NULL);

    for (guint i = 0; i < TV_TEXT_SHOWN_CHARS / 2; i++)
      g_string_append (want, "é");
    g_string_append (want, "…");
    for (guint i = 1; i < TV_TEXT_SHOWN_CHARS / 2; i++)
      g_string_append (want, "é");
    g_string_append (want, "x");
    g_assert_cmpstr (over, ==, want->str);
  }

  /* Cut, a name still obeys nothing: the controls at both ends, and the
   * bytes that are no UTF-8, are shown like the others. */
  g_string_assign (name, "\u202e\n\xff");
  for (guint i = 0; i < 50000; i++)
    g_string_append_c (name, 'm');
  g_string_append (name, "\x1b[2J\xc3");
  hostile = tv_text_dup_shown (name->str);
  assert_shown_only (hostile);
  g_assert_true (g_str_has_prefix (hostile, "[U+202E]\u240a\ufffdmmm"));
  g_assert_true (g_str_has_suffix (hostile, "mmm\u241b[2J\ufffd"));
  /* 3 characters and 97 "m", then 95 "m" and 5 characters. */
  g_assert_nonnull (strstr (hostile, "m…m"));
  g_assert_cmpint (strchr (hostile, 'm') - hostile + 97, ==, strstr (hostile, "…") - hostile);
  /* With a length: the nuls inside it are characters. */
  {
    char bytes[1000];
    g_autoptr(GString) out = g_string_new (NULL);

    memset (bytes, 0, sizeof bytes);
    tv_text_append_shown (out, bytes, sizeof bytes);
    g_assert_cmpint (n_chars (out->str), ==, TV_TEXT_SHOWN_CHARS + 1);
    g_assert_true (g_str_has_prefix (out->str, "\u2400\u2400"));
  }
}

/* A file's name and path are shown as names are. */
static void
test_file_name (void)
{
  g_autoptr(GFile) evil = g_file_new_for_path ("/tmp/dir\n/two\nlines\u202e\x1b.tach");
  g_autoptr(GString) path = g_string_new ("/tmp/");
  g_autoptr(GFile) long_file = NULL;
  g_autofree char *evil_name = tv_text_dup_file_name (evil);
  g_autofree char *evil_path = tv_text_dup_path ("/tmp/dir\n/two\xff.tach");
  g_autofree char *long_name = NULL;

  g_assert_cmpstr (evil_name, ==, "two\u240alines[U+202E]\u241b.tach");
  g_assert_cmpstr (evil_path, ==, "/tmp/dir\u240a/two\ufffd.tach");
  for (guint i = 0; i < 1000; i++)
    g_string_append (path, "long");
  g_string_append (path, ".tach");
  long_file = g_file_new_for_path (path->str);
  long_name = tv_text_dup_file_name (long_file);
  g_assert_cmpint (n_chars (long_name), ==, TV_TEXT_SHOWN_CHARS + 1);
  g_assert_true (g_str_has_prefix (long_name, "longlong"));
  g_assert_true (g_str_has_suffix (long_name, "longlong.tach"));
}

/* A message that quotes a long path shows it as a name is, the rest
 * whole. */
static void
test_message (void)
{
  g_autoptr(GString) path = g_string_new ("/srv/\n");
  g_autofree char *message = NULL;
  g_autofree char *shown = NULL;
  g_autofree char *shown_path = NULL;
  g_autofree char *plain = tv_text_dup_message ("Error opening file “/a\nb”: gone", "/a\nb");
  g_autofree char *no_path = tv_text_dup_message ("line\nbreak", NULL);

  while (path->len < 50000)
    g_string_append (path, "dir/");
  g_string_append (path, "app.py");
  message = g_strdup_printf ("Error opening file “%s”: File name too long", path->str);
  shown = tv_text_dup_message (message, path->str);
  shown_path = tv_text_dup_shown (path->str);
  g_assert_true (g_str_has_prefix (shown, "Error opening file “"));
  g_assert_true (g_str_has_suffix (shown, "app.py”: File name too long"));
  g_assert_nonnull (strstr (shown, shown_path));
  g_assert_cmpint (n_chars (shown), <, TV_TEXT_SHOWN_CHARS + 60);
  assert_shown_only (shown);
  g_assert_cmpstr (plain, ==, "Error opening file “/a\u240ab”: gone");
  g_assert_cmpstr (no_path, ==, "line\u240abreak");
}

static gboolean
regex_matches (const char *regex,
               const char *name)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GRegex) compiled = g_regex_new (regex, G_REGEX_OPTIMIZE, 0, &error);

  g_assert_no_error (error);
  return g_regex_match (compiled, name, 0, NULL);
}

/* A name's regular expression matches it whole, and shows what a name
 * shows: a long one by its start and its end. */
static void
test_name_regex (void)
{
  static const char *const names[] = {
    "main", "<module>", "a.b(c)[d]{e}^f$g|h?i*j+k\\l", "two\nlines\t\u202eevil", "处理请求",
    "\x7f\xc2\x85",
  };
  g_autoptr(GString) long_name = g_string_new ("long_head\n");
  g_autoptr(GString) other = NULL;
  g_autofree char *regex = NULL;
  g_autofree char *shown = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *r = tv_text_dup_name_regex (names[i]);
      g_autofree char *longer = g_strconcat (names[i], "x", NULL);
      g_autofree char *shorter = g_strndup (names[i], strlen (names[i]) - 1);

      assert_shown_only (r);
      g_assert_true (regex_matches (r, names[i]));
      g_assert_false (regex_matches (r, longer));
      g_assert_false (regex_matches (r, shorter));
    }
  {
    g_autofree char *r = tv_text_dup_name_regex ("a.b\n");

    g_assert_cmpstr (r, ==, "^a\\.b\\x{A}$");
    g_assert_false (regex_matches (r, "axb\n"));
  }

  while (long_name->len < 100 * 1024)
    g_string_append (long_name, "middle(.*)_");
  g_string_append (long_name, "\u202elong_tail");
  regex = tv_text_dup_name_regex (long_name->str);
  assert_shown_only (regex);
  g_assert_cmpint (strlen (regex), <, 4 * TV_TEXT_SHOWN_CHARS);
  g_assert_true (regex_matches (regex, long_name->str));
  g_assert_true (g_str_has_prefix (regex, "^long_head\\x{A}middle\\(\\.\\*\\)_"));
  g_assert_true (g_str_has_suffix (regex, "middle\\(\\.\\*\\)_\\x{202E}long_tail$"));
  /* Other names: another end, another start, one without its middle. */
  other = g_string_new (long_name->str);
  g_string_append (other, "x");
  g_assert_false (regex_matches (regex, other->str));
  g_assert_false (regex_matches (regex, long_name->str + 1));
  g_assert_false (regex_matches (regex, "long_head\nlong_tail"));
}

/* Every code point, alone and between letters: the class's form, or the
 * character itself. */
static void
test_every_code_point (void)
{
  GString *out = g_string_new (NULL);
  guint n_changed = 0;

  for (gunichar c = 0; c <= 0x10ffff; c++)
    {
      char text[8] = { 0 };
      char expected[16] = { 0 };
      int n;

      if (c >= 0xd800 && c <= 0xdfff)
        continue;
      n = g_unichar_to_utf8 (c, text);
      if (c < 0x20)
        g_unichar_to_utf8 (0x2400 + c, expected);
      else if (c == 0x7f)
        g_unichar_to_utf8 (0x2421, expected);
      else if (c == 0xfffe || c == 0xffff)
        g_unichar_to_utf8 (0xfffd, expected);
      else if (is_obeyed (c))
        g_snprintf (expected, sizeof expected, "[U+%X]", c);
      else
        memcpy (expected, text, n);

      g_string_truncate (out, 0);
      tv_text_append_visible (out, text, n, 0);
      if (strcmp (out->str, expected) != 0)
        g_error ("U+%04X: \"%s\", expected \"%s\"", c, out->str, expected);
      assert_shown_only (out->str);
      n_changed += memcmp (out->str, text, n) != 0 || out->len != (gsize) n;
    }
  /* C0, DEL, C1, 12 bidirectional controls, 2 separators, 2 noncharacters. */
  g_assert_cmpuint (n_changed, ==, 32 + 1 + 32 + 12 + 2 + 2);
  g_string_free (out, TRUE);
}

/* Random bytes, and random mixes of the classes: always valid UTF-8, with
 * nothing left to obey, and text without any of them unchanged. */
static void
test_random (void)
{
  static const char *const pieces[] = {
    "a", "é", "处", "🐍", "\t", "\n", "\r", "\x7f", "\xc2\x85", "\u202e", "\u2066", "\u2028",
    "\ufeff", "\xff", "\xc3", "\xed\xa0\x80", "\ufffe", "[U+202E]", "\u2409",
  };
  g_autoptr(GRand) rand = g_rand_new_with_seed (seed);

  for (guint round = 0; round < 5000; round++)
    {
      guint8 bytes[64];
      guint n = g_rand_int_range (rand, 0, sizeof bytes);
      g_autoptr(GString) mix = g_string_new (NULL);
      g_autofree char *from_bytes = NULL;
      g_autofree char *from_mix = NULL;

      for (guint i = 0; i < n; i++)
        bytes[i] = g_rand_int_range (rand, 0, 256);
      from_bytes = visible_len ((const char *) bytes, n, 0);
      assert_shown_only (from_bytes);

      for (guint i = g_rand_int_range (rand, 0, 20); i > 0; i--)
        g_string_append (mix, pieces[g_rand_int_range (rand, 0, G_N_ELEMENTS (pieces))]);
      from_mix = tv_text_dup_visible (mix->str, 0);
      assert_shown_only (from_mix);
      /* Cut anywhere, the text is as valid, and it is cut only when it
       * has more characters than the limit. */
      {
        guint limit = g_rand_int_range (rand, 1, 24);
        g_autofree char *cut = tv_text_dup_visible (mix->str, limit);
        g_autofree char *bytes_cut = visible_len ((const char *) bytes, n, limit);

        assert_shown_only (cut);
        assert_shown_only (bytes_cut);
        if (strstr (mix->str, "…") == NULL)
          g_assert_true ((strstr (cut, "…") != NULL) == (strcmp (cut, from_mix) != 0));
        if (strcmp (cut, from_mix) == 0)
          g_assert_null (strstr (from_mix, "…"));
      }
      /* Made visible once, a text stays as it is. */
      {
        g_autofree char *again = tv_text_dup_visible (from_mix, 0);

        g_assert_cmpstr (again, ==, from_mix);
      }
    }
}

int
main (int   argc,
      char *argv[])
{
  const char *env_seed = g_getenv ("TACH_SEED");

  g_test_init (&argc, &argv, NULL);
  seed = env_seed != NULL ? (guint32) strtoul (env_seed, NULL, 10) : g_random_int ();
  g_test_message ("seed %u (TACH_SEED replays it)", seed);

  g_test_add_func ("/text/plain", test_plain);
  g_test_add_func ("/text/c0", test_c0);
  g_test_add_func ("/text/del", test_del);
  g_test_add_func ("/text/c1", test_c1);
  g_test_add_func ("/text/bidi", test_bidi);
  g_test_add_func ("/text/separators", test_separators);
  g_test_add_func ("/text/noncharacters", test_noncharacters);
  g_test_add_func ("/text/invalid", test_invalid);
  g_test_add_func ("/text/empty", test_empty);
  g_test_add_func ("/text/max-chars", test_max_chars);
  g_test_add_func ("/text/shown", test_shown);
  g_test_add_func ("/text/file-name", test_file_name);
  g_test_add_func ("/text/message", test_message);
  g_test_add_func ("/text/name-regex", test_name_regex);
  g_test_add_func ("/text/every-code-point", test_every_code_point);
  g_test_add_func ("/text/random", test_random);
  return g_test_run ();
}
