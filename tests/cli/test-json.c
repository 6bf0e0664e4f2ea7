/* test-json.c: the JSON pieces of --info --json and --compare --info --json
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <string.h>

#include "tv-json.h"

typedef struct
{
  double      value;
  const char *repr;               /* Python's repr() of the value */
} DoubleCase;

static void
test_double_repr (void)
{
  static const DoubleCase cases[] = {
    { 0.004, "0.004" },
    { 1000.0, "1000.0" },
    { 999.7702987256077, "999.7702987256077" },
    { 3.2, "3.2" },
    { 1e16, "1e+16" },
    { 1e-5, "1e-05" },
    { 0.0001, "0.0001" },
    { 123456789012345678.0, "1.2345678901234568e+17" },
    { 5e-324, "5e-324" },
    { 1.7976931348623157e308, "1.7976931348623157e+308" },
    { -2.75, "-2.75" },
    { 0.1 + 0.2, "0.30000000000000004" },
    { 1e15, "1000000000000000.0" },
    { 9007199254740993.0, "9007199254740992.0" },
    { 0.5, "0.5" },
    { 100.0, "100.0" },
    { 1.5e-7, "1.5e-07" },
    { -1e-300, "-1e-300" },
    { 1234567.0, "1234567.0" },
    { 1e22, "1e+22" },
    { 12345678901234567890.0, "1.2345678901234567e+19" },
    { 0.00001234, "1.234e-05" },
    { 999999999999999.9, "999999999999999.9" },
    { 9999999999999998.0, "9999999999999998.0" },
    { 2.2250738585072014e-308, "2.2250738585072014e-308" },
    { 0.0, "0.0" },
    { -0.0, "-0.0" },
    /* Subnormal: fewer than 15 digits are needed, and 15 would not do. */
    { 6.1901018360492e-310, "6.1901018360492e-310" },
    { 0.8999999999999999, "0.8999999999999999" },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      char buf[TV_JSON_DOUBLE_BUF_SIZE];

      tv_json_format_double (buf, sizeof buf, cases[i].value);
      g_assert_cmpstr (buf, ==, cases[i].repr);
      g_assert_cmpfloat (g_ascii_strtod (buf, NULL), ==, cases[i].value);
    }
}

/* Every double must read back as itself, whatever its bits. */
static void
test_double_roundtrip (void)
{
  GRand *rand = g_rand_new_with_seed (42);

  for (int i = 0; i < 200000; i++)
    {
      union { guint64 bits; double value; } u;
      char buf[TV_JSON_DOUBLE_BUF_SIZE];

      u.bits = ((guint64) g_rand_int (rand) << 32) | g_rand_int (rand);
      tv_json_format_double (buf, sizeof buf, u.value);
      if (!isfinite (u.value))
        g_assert_cmpstr (buf, ==, "null");
      else
        g_assert_cmpfloat (g_ascii_strtod (buf, NULL), ==, u.value);
    }

  g_rand_free (rand);
}

static void
test_double_not_finite (void)
{
  char buf[TV_JSON_DOUBLE_BUF_SIZE];

  tv_json_format_double (buf, sizeof buf, NAN);
  g_assert_cmpstr (buf, ==, "null");
  tv_json_format_double (buf, sizeof buf, INFINITY);
  g_assert_cmpstr (buf, ==, "null");
  tv_json_format_double (buf, sizeof buf, -INFINITY);
  g_assert_cmpstr (buf, ==, "null");
}

static void
test_double_locale_independent (void)
{
  char buf[TV_JSON_DOUBLE_BUF_SIZE];

  /* Whatever locale the process runs in (main() calls setlocale), the
   * decimal separator is a dot. */
  tv_json_format_double (buf, sizeof buf, 1.5);
  g_assert_cmpstr (buf, ==, "1.5");
}

static void
assert_string (const char *input,
               gssize      len,
               const char *expected)
{
  g_autoptr(GString) out = g_string_new (NULL);

  tv_json_append_string (out, input, len);
  g_assert_cmpstr (out->str, ==, expected);
}

static void
test_string_escapes (void)
{
  assert_string ("", -1, "\"\"");
  assert_string ("plain", -1, "\"plain\"");
  assert_string ("a\"b\\c/d", -1, "\"a\\\"b\\\\c/d\"");
  assert_string ("\b\f\n\r\t", -1, "\"\\b\\f\\n\\r\\t\"");
  assert_string ("\x01\x1f\x7f", -1, "\"\\u0001\\u001f\\u007f\"");
  assert_string ("nul\0inside", 10, "\"nul\\u0000inside\"");
}

static void
test_string_utf8 (void)
{
  /* UTF-8 is kept, not escaped... */
  assert_string ("é中😀", -1, "\"é中😀\"");
  assert_string ("\u00a0\u200b\u2027\u202f\u2065\ufffd", -1,
                 "\"\u00a0\u200b\u2027\u202f\u2065\ufffd\"");
  /* ... but for what a terminal obeys or what turns text around: the C1
   * controls, the bidirectional controls and the separators. */
  assert_string ("\xc2\x85\xc2\x9b" "31m", -1, "\"\\u0085\\u009b31m\"");
  assert_string ("safe_\u202egnp.exe\u2066\u2069\u200e\u200f\u061c", -1,
                 "\"safe_\\u202egnp.exe\\u2066\\u2069\\u200e\\u200f\\u061c\"");
  assert_string ("\u2028\u2029", -1, "\"\\u2028\\u2029\"");
  /* Invalid bytes become U+FFFD, one per byte. */
  assert_string ("bad\xff\xfe", -1, "\"bad\xef\xbf\xbd\xef\xbf\xbd\"");
  /* A sequence cut short by the end of the string. */
  assert_string ("cut\xe4\xb8", -1, "\"cut\xef\xbf\xbd\xef\xbf\xbd\"");
}

/* What json-glib writes, through the safe layer: every number reads back
 * as the value given (json-glib 1.6's "1e+20.0" repaired), what JSON
 * cannot say is null, and the names come out valid, inert and whole. */
static void
test_generate (void)
{
  static const double values[] = { 1e20, 8e18, 1e17, 0.1, 1.5e-7, -2.75, 1e-300, 3.0 };
  const char *hostile = "a\"b\\c\n\x01\x7f \xc2\x85 \xe2\x80\xae </script>&x \xff end \xe2\x80\xa8";
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  JsonArray *numbers;
  JsonObject *object;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "numbers");
  json_builder_begin_array (builder);
  for (gsize i = 0; i < G_N_ELEMENTS (values); i++)
    tv_json_builder_add_double (builder, values[i]);
  tv_json_builder_add_double (builder, NAN);
  tv_json_builder_add_double (builder, INFINITY);
  json_builder_end_array (builder);
  json_builder_set_member_name (builder, "name");
  tv_json_builder_add_string (builder, hostile);
  json_builder_end_object (builder);
  root = json_builder_get_root (builder);

  for (int pretty = 0; pretty <= 1; pretty++)
    {
      g_clear_pointer (&text, g_free);
      text = tv_json_generate (root, pretty);
      g_assert_true (g_str_has_suffix (text, "\n"));
      g_assert_true (g_utf8_validate (text, -1, NULL));
      /* Inert in a page and on a terminal: nothing raw of what they obey. */
      g_assert_null (strstr (text, "<"));
      g_assert_null (strstr (text, "&"));
      g_assert_null (strstr (text, "\x7f"));
      g_assert_null (strstr (text, "\xc2\x85"));
      g_assert_null (strstr (text, "\xe2\x80\xae"));
      g_assert_null (strstr (text, "\xe2\x80\xa8"));
      /* json-glib 1.6 writes 1e20 as "1e+20.0". */
      g_assert_nonnull (strstr (text, "1e+20"));
      g_assert_null (strstr (text, "e+20.0"));
      g_assert_null (strstr (text, "e+18.0"));
      for (const char *p = text; *p != '\0'; p++)
        g_assert_true (*p == '\n' || (guchar) *p >= 0x20);

      json_parser_load_from_data (parser, text, -1, &error);
      g_assert_no_error (error);
      object = json_node_get_object (json_parser_get_root (parser));
      numbers = json_object_get_array_member (object, "numbers");
      g_assert_cmpuint (json_array_get_length (numbers), ==, G_N_ELEMENTS (values) + 2);
      for (gsize i = 0; i < G_N_ELEMENTS (values); i++)
        g_assert_cmpfloat (json_node_get_double (json_array_get_element (numbers, i)), ==,
                           values[i]);
      g_assert_true (JSON_NODE_HOLDS_NULL (json_array_get_element (numbers,
                                                                   G_N_ELEMENTS (values))));
      g_assert_true (JSON_NODE_HOLDS_NULL (json_array_get_element (numbers,
                                                                   G_N_ELEMENTS (values) + 1)));
      /* The name whole, its invalid byte as U+FFFD. */
      g_assert_cmpstr (json_object_get_string_member (object, "name"), ==,
                       "a\"b\\c\n\x01\x7f \xc2\x85 \xe2\x80\xae </script>&x \xef\xbf\xbd end "
                       "\xe2\x80\xa8");
    }
}

/* The layer alone: escapes within strings, numbers repaired outside. */
static void
test_make_safe (void)
{
  const char *in = "{\"a<\":[1e+20.0,2.5e-07,-0.0,1.0],\"b\":\"\\\"<\\u0001\"}";
  g_autofree char *out = tv_json_make_safe (in, strlen (in));

  g_assert_cmpstr (out, ==,
                   "{\"a\\u003c\":[1e+20,2.5e-07,-0.0,1.0],\"b\":\"\\\"\\u003c\\u0001\"}");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/cli/json/double/repr", test_double_repr);
  g_test_add_func ("/cli/json/double/roundtrip", test_double_roundtrip);
  g_test_add_func ("/cli/json/double/not-finite", test_double_not_finite);
  g_test_add_func ("/cli/json/double/locale", test_double_locale_independent);
  g_test_add_func ("/cli/json/string/escapes", test_string_escapes);
  g_test_add_func ("/cli/json/string/utf8", test_string_utf8);
  g_test_add_func ("/cli/json/generate", test_generate);
  g_test_add_func ("/cli/json/make-safe", test_make_safe);

  return g_test_run ();
}
