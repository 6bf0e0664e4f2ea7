/* tv-units.c: numbers as people read them
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tv-units.h"

#include <float.h>
#include <langinfo.h>
#include <math.h>
#include <string.h>

#include <glib/gi18n.h>

#define SIGNIFICANT_DIGITS 3

/* |VALUE| rounded to three significant digits, and the power of ten of
 * its first digit after that rounding (999.5 rounds to 1000, exponent
 * 3); the three digits into DIGITS when not NULL.  INFINITY for a value
 * that is not finite. */
static double
round_significant (double  value,
                   int    *exponent,
                   char    digits[SIGNIFICANT_DIGITS + 1])
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];
  const char *e;
  /* A value that is a decimal half in all but its last binary digit
   * (1.275 is 1.27499999999999991) rounds up, as a person rounds it. */
  double nudged = fabs (value) * (1.0 + 8 * DBL_EPSILON);

  if (!isfinite (nudged))
    nudged = fabs (value);
  if (!isfinite (nudged))
    {
      *exponent = DBL_MAX_10_EXP + 1;
      return INFINITY;
    }
  G_STATIC_ASSERT (SIGNIFICANT_DIGITS == 3);
  g_ascii_formatd (buf, sizeof buf, "%.2e", nudged);
  e = strchr (buf, 'e');
  g_assert (e != NULL && e - buf == SIGNIFICANT_DIGITS + 1);
  *exponent = (int) g_ascii_strtoll (e + 1, NULL, 10);
  if (digits != NULL)
    {
      digits[0] = buf[0];
      digits[1] = buf[2];
      digits[2] = buf[3];
      digits[3] = '\0';
    }
  return g_ascii_strtod (buf, NULL);
}

/* The locale's decimal point and thousands separator: "," groups where
 * the locale does not (or the locale's decimal point is not "."). */
static void
separators (const char **point,
            const char **group)
{
  const char *radix = nl_langinfo (RADIXCHAR);
  const char *thousands = nl_langinfo (THOUSEP);

  *point = radix != NULL && *radix != '\0' ? radix : ".";
  if (thousands != NULL && *thousands != '\0')
    *group = thousands;
  else if (strcmp (*point, ".") == 0)
    *group = ",";
  else
    *group = "\u202f";          /* a narrow no-break space */
}

/* TEXT, plain ASCII digits with an optional '.', into OUT with the
 * locale's separators. */
static void
append_localized (GString    *out,
                  const char *text)
{
  const char *point, *group;
  const char *dot = strchr (text, '.');
  gsize n_int = dot != NULL ? (gsize) (dot - text) : strlen (text);

  separators (&point, &group);
  for (gsize i = 0; i < n_int; i++)
    {
      if (i > 0 && (n_int - i) % 3 == 0)
        g_string_append (out, group);
      g_string_append_c (out, text[i]);
    }
  if (dot != NULL)
    {
      g_string_append (out, point);
      g_string_append (out, dot + 1);
    }
}

/* VALUE (finite) with three significant digits, into OUT; a sign in
 * front when negative, or when WITH_SIGN and not 0; without the zeros
 * that end its decimals when STRIP. */
static void
append_significant (GString  *out,
                    double    value,
                    gboolean  with_sign,
                    gboolean  strip)
{
  char digits[SIGNIFICANT_DIGITS + 1];
  g_autoptr(GString) plain = g_string_new (NULL);
  int exponent;

  if (value == 0.0)
    {
      g_string_append_c (out, '0');
      return;
    }
  if (value < 0.0)
    g_string_append_c (out, '-');
  else if (with_sign)
    g_string_append_c (out, '+');

  /* Plain notation from the rounded digits themselves: a double printed
   * whole would show the digits of its binary value (1.8e308 as
   * 17999…). */
  round_significant (value, &exponent, digits);
  if (exponent >= SIGNIFICANT_DIGITS - 1)
    {
      g_string_append (plain, digits);
      for (int i = SIGNIFICANT_DIGITS - 1; i < exponent; i++)
        g_string_append_c (plain, '0');
    }
  else if (exponent >= 0)
    {
      g_string_append_len (plain, digits, exponent + 1);
      g_string_append_c (plain, '.');
      g_string_append (plain, digits + exponent + 1);
    }
  else
    {
      g_string_append (plain, "0.");
      for (int i = -1; i > exponent; i--)
        g_string_append_c (plain, '0');
      g_string_append (plain, digits);
    }
  if (strip && strchr (plain->str, '.') != NULL)
    {
      while (plain->str[plain->len - 1] == '0')
        g_string_truncate (plain, plain->len - 1);
      if (plain->str[plain->len - 1] == '.')
        g_string_truncate (plain, plain->len - 1);
    }
  append_localized (out, plain->str);
}

char *
tv_format_significant (double value)
{
  GString *out = g_string_new (NULL);

  if (!isfinite (value))
    {
      g_string_free (out, TRUE);
      return g_strdup (_("unknown"));
    }
  append_significant (out, value, FALSE, TRUE);
  return g_string_free (out, FALSE);
}

static char *
format_duration (double   seconds,
                 gboolean with_sign)
{
  static const struct
  {
    double      scale;      /* units per second */
    double      below;      /* the unit holds rounded values below this */
    const char *name;
  } units[] = {
    { 1e9, 1000.0, "ns" },
    { 1e6, 1000.0, "\xc2\xb5s" },
    { 1e3, 1000.0, "ms" },
    { 1.0, 60.0, "s" },
    { 1.0 / 60.0, 60.0, "min" },
    { 1.0 / 3600.0, INFINITY, "h" },
  };
  GString *out;
  double value;
  int exponent;
  guint u = 0;

  if (!isfinite (seconds))
    return g_strdup (_("unknown"));
  if (seconds == 0.0)
    return g_strdup ("0 s");

  /* The unit is chosen by the value as it is shown: 999.5 ms is 1.00 s. */
  while (u + 1 < G_N_ELEMENTS (units)
         && round_significant (seconds * units[u].scale, &exponent, NULL) >= units[u].below)
    u++;
  /* 59.96 s rounds to 60.0 s, which is 1.00 min, not 0.999 min. */
  value = seconds * units[u].scale;
  if (round_significant (value, &exponent, NULL) < 1.0 && u > 0)
    value = copysign (1.0, value);

  out = g_string_new (NULL);
  append_significant (out, value, with_sign, FALSE);
  g_string_append_c (out, ' ');
  g_string_append (out, units[u].name);
  return g_string_free (out, FALSE);
}

char *
tv_format_duration (double seconds)
{
  return format_duration (seconds, FALSE);
}

char *
tv_format_duration_signed (double seconds)
{
  return format_duration (seconds, TRUE);
}

char *
tv_format_wall_time (double seconds)
{
  g_autofree char *duration = NULL;

  if (!isfinite (seconds))
    return g_strdup (_("unknown"));
  duration = tv_format_duration (seconds);

  /* Translators: a duration measured by a clock on the wall (the span of
   * a recording or of a selection), e.g. "315 ms of wall time". */
  return g_strdup_printf (_("%s of wall time"), duration);
}

char *
tv_format_thread_time (double seconds)
{
  g_autofree char *duration = NULL;

  if (!isfinite (seconds))
    return g_strdup (_("unknown"));
  duration = tv_format_duration (seconds);

  /* Translators: a duration summed over threads (eight threads seen
   * running for one second are 8 s of thread time), e.g. "2.42 s of
   * thread time". */
  return g_strdup_printf (_("%s of thread time"), duration);
}

char *
tv_format_count (guint64 count)
{
  char buf[24];
  GString *out = g_string_new (NULL);

  g_snprintf (buf, sizeof buf, "%" G_GUINT64_FORMAT, count);
  append_localized (out, buf);
  return g_string_free (out, FALSE);
}

char *
tv_format_bytes (guint64 bytes)
{
  static const char *const units[] = { "kB", "MB", "GB", "TB", "PB", "EB" };
  g_autofree char *count = tv_format_count (bytes);
  g_autoptr(GString) size = g_string_new (NULL);
  gulong plural = bytes > G_MAXULONG ? G_MAXULONG : (gulong) bytes;
  double value = (double) bytes;
  double rounded;
  int exponent;
  guint u = 0;

  if (bytes < 1000)
    {
      /* Translators: a file or region size under a kilobyte. */
      return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s byte", "%s bytes", plural),
                              count);
    }

  /* The unit is chosen by the value as it is shown: 999,999 bytes are
   * 1.00 MB. */
  value /= 1000.0;
  rounded = round_significant (value, &exponent, NULL);
  while (rounded >= 1000.0 && u + 1 < G_N_ELEMENTS (units))
    {
      value /= 1000.0;
      rounded = round_significant (value, &exponent, NULL);
      u++;
    }
  append_significant (size, rounded, FALSE, FALSE);
  g_string_append_c (size, ' ');
  g_string_append (size, units[u]);
  /* Translators: a size in SI units, then exactly, e.g. "12.8 MB
   * (12,800,728 bytes)". */
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s (%s byte)", "%s (%s bytes)", plural),
                          size->str, count);
}

static char *
format_fraction (double   fraction,
                 gboolean with_sign)
{
  GString *out;

  if (!isfinite (fraction * 100.0))
    return g_strdup (_("unknown"));
  out = g_string_new (NULL);
  append_significant (out, fraction * 100.0, with_sign, FALSE);
  /* A space before the per cent sign, as every table here writes it. */
  g_string_append (out, " %");
  return g_string_free (out, FALSE);
}

char *
tv_format_fraction (double fraction)
{
  return format_fraction (fraction, FALSE);
}

char *
tv_format_fraction_signed (double fraction)
{
  return format_fraction (fraction, TRUE);
}

char *
tv_format_share (guint64 part,
                 guint64 whole)
{
  if (whole == 0)
    return g_strdup ("\xe2\x80\x93");
  return format_fraction ((double) part / (double) whole, FALSE);
}

char *
tv_format_checksum (const guint8 *checksum,
                    gsize         length)
{
  GString *out;
  gsize i;

  for (i = 0; i < length && checksum[i] == 0; i++)
    ;
  if (i == length)
    {
      /* Translators: the footer's checksum field, all zero: the writer
       * computes no checksum. */
      return g_strdup (_("unused (all zero)"));
    }
  out = g_string_sized_new (2 * length);
  for (i = 0; i < length; i++)
    g_string_append_printf (out, "%02x", checksum[i]);
  return g_string_free (out, FALSE);
}

char *
tv_format_share_number (guint64 part,
                        guint64 whole)
{
  GString *out;

  if (whole == 0)
    return g_strdup ("\xe2\x80\x93");
  out = g_string_new (NULL);
  append_significant (out, 100.0 * (double) part / (double) whole, FALSE, FALSE);
  return g_string_free (out, FALSE);
}

char *
tv_format_interval (guint64 interval_us)
{
  g_autofree char *number = tv_format_count (interval_us);
  g_autofree char *rate = NULL;

  if (interval_us == 0)
    return g_strdup (_("0 µs (no nominal rate)"));
  rate = tv_format_significant (1e6 / (double) interval_us);
  return g_strdup_printf (_("%s µs (nominal rate %s samples/s)"), number, rate);
}

char *
tv_format_mode (const char *name,
                guint32     mode_raw)
{
  if (name != NULL)
    return g_strdup (name);
  if (mode_raw == 0)
    return g_strdup (_("not recorded"));
  return g_strdup_printf (_("unknown (raw value 0x%x)"), mode_raw);
}
