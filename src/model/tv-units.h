/* tv-units.h: numbers as people read them
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One rule for every figure the application, --info and the images show:
 * durations and sizes with three significant digits and a unit that keeps
 * the number between 1 and 999, shares with three significant digits,
 * counts grouped by thousands.  Decimal point and thousands separator are
 * the locale's (LC_NUMERIC); a locale that groups nothing (C, POSIX)
 * groups with ",".
 *
 * A duration is either wall time (what a clock on the wall measures: the
 * span of a recording or a selection) or thread time (a thread-sample is
 * one thread seen running for one sampling interval; eight threads for a
 * second are eight seconds of thread time).  Every figure says which.
 *
 * Every function returns a new string; none fails: NaN and infinities
 * (from statistics a file may hold) come out as "unknown", negative
 * values with a minus sign.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* "0 s", "812 ns", "4.20 µs", "315 ms", "1.28 s", "50.0 min", "2.50 h". */
char *tv_format_duration     (double   seconds);
/* Like tv_format_duration(), with a sign: "+1.20 ms", "−315 ms", "0 s". */
char *tv_format_duration_signed (double seconds);
/* "315 ms of wall time". */
char *tv_format_wall_time    (double   seconds);
/* "2.42 s of thread time". */
char *tv_format_thread_time  (double   seconds);
/* "12,800,728". */
char *tv_format_count        (guint64  count);
/* "12.8 MB (12,800,728 bytes)", "512 bytes", "1 byte" (SI units). */
char *tv_format_bytes        (guint64  bytes);
/* PART of WHOLE as "12.3 %", "0.123 %", "100 %", "0 %"; "–" when WHOLE
 * is 0. */
char *tv_format_share        (guint64  part,
                              guint64  whole);
/* As tv_format_share(), without the per cent sign, for a column whose
 * title has it: "24.0", "0.136". */
char *tv_format_share_number (guint64 part,
                              guint64 whole);
/* FRACTION (1.0 is all) as tv_format_share() writes it. */
char *tv_format_fraction     (double   fraction);
/* Like tv_format_fraction(), with a sign: "+1.23 %". */
char *tv_format_fraction_signed (double fraction);
/* The footer's checksum: "unused" when every byte is 0 (CPython's
 * writer leaves it so), else its bytes in hexadecimal. */
char *tv_format_checksum     (const guint8 *checksum,
                              gsize         length);
/* VALUE with at most three significant digits, in plain notation,
 * grouped by thousands, without trailing zeros after the decimal point
 * (a figure a file records, as the findings of tv-quality.c write it):
 * "0.00123", "9.63", "0.5", "1,280". */
char *tv_format_significant  (double   value);
/* A header's sampling interval: "1,000 µs (nominal rate 1,000
 * samples/s)", "0 µs (no nominal rate)". */
char *tv_format_interval     (guint64  interval_us);
/* A header's profiling mode: its NAME ("wall", "cpu", ...) when it has
 * one, else "not recorded" (MODE_RAW 0) or "unknown (raw value 0x…)". */
char *tv_format_mode         (const char *name,
                              guint32     mode_raw);

G_END_DECLS
