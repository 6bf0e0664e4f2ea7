/* test-json.c: the JSON pieces of --info --json
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>

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

  return g_test_run ();
}
