/* test-units.c: numbers as people read them
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * tv-units.c in the C locale: three significant digits, the unit chosen
 * by the rounded value (999.5 ms is 1.00 s), thousands grouped, and what a
 * hostile file's statistics can hold (NaN, infinities, negatives, the
 * largest and smallest doubles) written without a crash or a lie.
 */
#include <locale.h>
#include <math.h>
#include <float.h>
#include <string.h>

#include <glib.h>

#include "tv-units.h"

typedef char *(*FormatDouble) (double value);

static void
check_double (FormatDouble  format,
              double        value,
              const char   *expected)
{
  g_autofree char *text = format (value);

  g_assert_cmpstr (text, ==, expected);
}

static void
test_duration (void)
{
  static const struct
  {
    double      seconds;
    const char *text;
  } cases[] = {
    { 0.0, "0 s" },
    { -0.0, "0 s" },
    { 1.275, "1.28 s" },
    { 1.276068935000012, "1.28 s" },
    { 9.628, "9.63 s" },
    { 0.315, "315 ms" },
    { 2.417, "2.42 s" },
    { 0.9995, "1.00 s" },
    { 0.9994, "999 ms" },
    { 999.5e-6, "1.00 ms" },
    { 999.4e-6, "999 \xc2\xb5s" },
    { 4.2e-6, "4.20 \xc2\xb5s" },
    { 812e-9, "812 ns" },
    { 0.5e-9, "0.500 ns" },
    { 46.9, "46.9 s" },
    { 59.94, "59.9 s" },
    { 59.96, "1.00 min" },
    { 2999.8, "50.0 min" },
    { 3594.0, "59.9 min" },
    { 3599.0, "1.00 h" },
    { 9000.0, "2.50 h" },
    { 3600.0 * 1234567.0, "1,230,000 h" },
    { -0.315, "-315 ms" },
    { -2999.8, "-50.0 min" },
    { NAN, "unknown" },
    { INFINITY, "unknown" },
    { -INFINITY, "unknown" },
    { DBL_MAX, NULL },
    { DBL_TRUE_MIN, NULL },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *text = tv_format_duration (cases[i].seconds);

      g_test_message ("%.17g s: %s", cases[i].seconds, text);
      if (cases[i].text != NULL)
        g_assert_cmpstr (text, ==, cases[i].text);
      else
        g_assert_true (g_utf8_validate (text, -1, NULL) && text[0] != '\0');
    }

  check_double (tv_format_duration_signed, 0.0012, "+1.20 ms");
  check_double (tv_format_duration_signed, -0.315, "-315 ms");
  check_double (tv_format_duration_signed, 0.0, "0 s");
  check_double (tv_format_wall_time, 0.315, "315 ms of wall time");
  check_double (tv_format_thread_time, 2.417, "2.42 s of thread time");
  check_double (tv_format_thread_time, NAN, "unknown");
  check_double (tv_format_wall_time, -INFINITY, "unknown");
}

static void
test_count (void)
{
  static const struct
  {
    guint64     count;
    const char *text;
  } cases[] = {
    { 0, "0" },
    { 999, "999" },
    { 1000, "1,000" },
    { 5991, "5,991" },
    { 12800728, "12,800,728" },
    { G_MAXUINT64, "18,446,744,073,709,551,615" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *text = tv_format_count (cases[i].count);

      g_assert_cmpstr (text, ==, cases[i].text);
    }
}

static void
test_bytes (void)
{
  static const struct
  {
    guint64     bytes;
    const char *text;
  } cases[] = {
    { 0, "0 bytes" },
    { 1, "1 byte" },
    { 999, "999 bytes" },
    { 1000, "1.00 kB (1,000 bytes)" },
    { 999499, "999 kB (999,499 bytes)" },
    { 999500, "1.00 MB (999,500 bytes)" },
    { 12800728, "12.8 MB (12,800,728 bytes)" },
    { 128007280, "128 MB (128,007,280 bytes)" },
    { G_MAXUINT64, "18.4 EB (18,446,744,073,709,551,615 bytes)" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *text = tv_format_bytes (cases[i].bytes);

      g_assert_cmpstr (text, ==, cases[i].text);
    }
}

static void
test_share (void)
{
  static const struct
  {
    guint64     part;
    guint64     whole;
    const char *text;
  } cases[] = {
    { 0, 0, "\xe2\x80\x93" },
    { 0, 10, "0 %" },
    { 10, 10, "100 %" },
    { 1, 3, "33.3 %" },
    { 2, 3, "66.7 %" },
    { 1, 1000, "0.100 %" },
    { 1, 812, "0.123 %" },
    { 9995, 10000, "100 %" },
    { 9994, 10000, "99.9 %" },
    { 1, G_MAXUINT64, "0.00000000000000000542 %" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *text = tv_format_share (cases[i].part, cases[i].whole);

      g_assert_cmpstr (text, ==, cases[i].text);
    }

  {
    g_autofree char *number = tv_format_share_number (240, 1000);
    g_autofree char *none = tv_format_share_number (0, 0);

    g_assert_cmpstr (number, ==, "24.0");
    g_assert_cmpstr (none, ==, "\xe2\x80\x93");
  }
  check_double (tv_format_fraction, 0.0123, "1.23 %");
  check_double (tv_format_fraction, NAN, "unknown");
  check_double (tv_format_fraction, -0.5, "-50.0 %");
  check_double (tv_format_fraction_signed, 0.0123, "+1.23 %");
  check_double (tv_format_fraction_signed, -0.0123, "-1.23 %");
  check_double (tv_format_significant, 1280.4, "1,280");
  check_double (tv_format_significant, 0.00123456, "0.00123");
  /* As the findings write a figure: no zeros after the last digit. */
  check_double (tv_format_significant, 0.5, "0.5");
  check_double (tv_format_significant, 2.0, "2");
  check_double (tv_format_significant, 1000.0, "1,000");
  check_double (tv_format_significant, 622.3, "622");
  check_double (tv_format_significant, -0.0101, "-0.0101");
  check_double (tv_format_significant, -INFINITY, "unknown");
  check_double (tv_format_fraction, DBL_MAX, "unknown");
  {
    g_autofree char *text = tv_format_significant (-DBL_MAX);

    /* Every digit, grouped: 309 digits and 102 separators. */
    g_assert_true (g_str_has_prefix (text, "-180,000,000,"));
    g_assert_cmpuint (strlen (text), ==, 1 + 309 + 102);
  }
}

static void
test_checksum (void)
{
  guint8 sum[16] = { 0 };
  g_autofree char *zero = tv_format_checksum (sum, sizeof sum);
  g_autofree char *some = NULL;

  g_assert_cmpstr (zero, ==, "unused (all zero)");
  sum[0] = 0xab;
  sum[15] = 0x01;
  some = tv_format_checksum (sum, sizeof sum);
  g_assert_cmpstr (some, ==, "ab000000000000000000000000000001");
}

/* What Properties, --info and the image caption say of a header's
 * interval and mode. */
static void
test_header_texts (void)
{
  static const struct { guint64 us; const char *text; } intervals[] = {
    { 1000, "1,000 µs (nominal rate 1,000 samples/s)" },
    { 100, "100 µs (nominal rate 10,000 samples/s)" },
    { 3, "3 µs (nominal rate 333,000 samples/s)" },
    { 0, "0 µs (no nominal rate)" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (intervals); i++)
    {
      g_autofree char *text = tv_format_interval (intervals[i].us);

      g_assert_cmpstr (text, ==, intervals[i].text);
    }
  {
    g_autofree char *named = tv_format_mode ("wall", 1);
    g_autofree char *none = tv_format_mode (NULL, 0);
    g_autofree char *unknown = tv_format_mode (NULL, 0x2a);

    g_assert_cmpstr (named, ==, "wall");
    g_assert_cmpstr (none, ==, "not recorded");
    g_assert_cmpstr (unknown, ==, "unknown (raw value 0x2a)");
  }
}

int
main (int    argc,
      char **argv)
{
  /* The C locale's figures, whatever the caller's environment. */
  setlocale (LC_ALL, "C.UTF-8");
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/model/units/duration", test_duration);
  g_test_add_func ("/model/units/count", test_count);
  g_test_add_func ("/model/units/bytes", test_bytes);
  g_test_add_func ("/model/units/share", test_share);
  g_test_add_func ("/model/units/checksum", test_checksum);
  g_test_add_func ("/model/units/header-texts", test_header_texts);
  return g_test_run ();
}
