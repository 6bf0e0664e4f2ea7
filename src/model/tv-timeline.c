/* tv-timeline.c: per-thread bins at several resolutions, and a heatmap
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Building is one pass over the samples, in blocks of time across the
 * threads, which fills the finest level of each lane and of the overview;
 * every coarser level is then four bins of the level below added up.  A
 * status byte is counted through a table of what it adds to each count, a
 * byte per count in one word, so that a bin's consecutive samples cost one
 * addition each and their word goes into the bin when the bin changes.
 * Windows counted from samples do the same per column.
 *
 * Queries never walk more than the columns asked for plus the bins or
 * samples inside the window: a window's bins are found by arithmetic, its
 * samples by bisection.
 */
#include "tv-timeline.h"
#include "tachyon-format.h"

#include <math.h>
#include <string.h>
#include "tv-timeline-private.h"

/* ------------------------------------------------------------------------ */
/* Counting statuses                                                         */
/* ------------------------------------------------------------------------ */

static void
status_counts (guint8   status,
               guint32 *add)
{
  gboolean gil = (status & TACH_STATUS_HAS_GIL) != 0;
  gboolean cpu = (status & TACH_STATUS_ON_CPU) != 0;
  gboolean wait = (status & TACH_STATUS_GIL_REQUESTED) != 0;

  add[0] = 1;
  add[1 + TV_TIMELINE_COUNT_HAS_GIL] = gil;
  add[1 + TV_TIMELINE_COUNT_ON_CPU] = cpu;
  add[1 + TV_TIMELINE_COUNT_GIL_REQUESTED] = wait;
  add[1 + TV_TIMELINE_COUNT_EXCEPTION] = (status & TACH_STATUS_HAS_EXCEPTION) != 0;
  add[1 + TV_TIMELINE_COUNT_UNKNOWN] = (status & TACH_STATUS_UNKNOWN) != 0;
  add[1 + TV_TIMELINE_COUNT_IDLE] = !gil && !cpu && !wait;
  add[1 + TV_TIMELINE_COUNT_NATIVE] = cpu && !gil && !wait;
}

const StatusTable *
tv_timeline_status_table (void)
{
  static StatusTable table;
  static gsize ready = 0;

  if (g_once_init_enter (&ready))
    {
      for (guint s = 0; s < 64; s++)
        {
          status_counts (s, table.add[s]);
          table.packed[s] = 0;
          for (guint k = 0; k <= TV_TIMELINE_N_COUNTS; k++)
            table.packed[s] |= (guint64) table.add[s][k] << (8 * k);
        }
      g_once_init_leave (&ready, 1);
    }
  return &table;
}

/* Adds the status bytes ST[START..END) to COLUMN, eight at a time: each
 * count is a bit (or a combination of bits) masked out of every byte of a
 * word, the words added with every byte counting up to 255. */
static void
column_add_bytes (TvTimelineColumn *column,
                  const guint8     *st,
                  guint64           start,
                  guint64           end)
{
  const guint64 ones = G_GUINT64_CONSTANT (0x0101010101010101);
  const StatusTable *table = tv_timeline_status_table ();
  guint64 s = start;

  while (end - s >= 8)
    {
      guint64 n = MIN ((end - s) / 8, 255);
      guint64 gil = 0, cpu = 0, wait = 0, exception = 0, unknown = 0, busy = 0, native = 0;

      for (guint64 i = 0; i < n; i++, s += 8)
        {
          guint64 x;

          memcpy (&x, st + s, sizeof x);
          gil += x & ones;
          cpu += (x >> 1) & ones;
          unknown += (x >> 2) & ones;
          wait += (x >> 3) & ones;
          exception += (x >> 4) & ones;
          busy += (x | (x >> 1) | (x >> 3)) & ones;
          native += (x >> 1) & ~x & ~(x >> 3) & ones;
        }
      column->samples += n * 8;
      column->counts[TV_TIMELINE_COUNT_HAS_GIL] += sum_bytes (gil);
      column->counts[TV_TIMELINE_COUNT_ON_CPU] += sum_bytes (cpu);
      column->counts[TV_TIMELINE_COUNT_GIL_REQUESTED] += sum_bytes (wait);
      column->counts[TV_TIMELINE_COUNT_EXCEPTION] += sum_bytes (exception);
      column->counts[TV_TIMELINE_COUNT_UNKNOWN] += sum_bytes (unknown);
      column->counts[TV_TIMELINE_COUNT_IDLE] += n * 8 - sum_bytes (busy);
      column->counts[TV_TIMELINE_COUNT_NATIVE] += sum_bytes (native);
    }
  for (; s < end; s++)
    column_add_status (column, table, st[s]);
}

/* Adds the statuses ST[START..END) to COLUMN: a byte each, or read into
 * bytes a block at a time. */
static void
column_add_statuses (TvTimelineColumn *column,
                     const TvStatuses *st,
                     guint64           start,
                     guint64           end)
{
  guint8 bytes[2048];

  if (st->wide)
    {
      column_add_bytes (column, st->bytes, start, end);
      return;
    }
  while (start < end)
    {
      guint64 n = MIN (end - start, sizeof bytes);

      tv_statuses_read (st, start, n, bytes);
      column_add_bytes (column, bytes, 0, n);
      start += n;
    }
}

/* ------------------------------------------------------------------------ */
/* Lanes and times                                                           */
/* ------------------------------------------------------------------------ */

TvProfileData *
tv_timeline_get_data (TvTimeline *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->data;
}

guint
tv_timeline_get_n_lanes (TvTimeline *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->n_lanes;
}

const TvTimelineLane *
tv_timeline_get_lane (TvTimeline *self,
                      guint       lane)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (lane < self->n_lanes, NULL);
  return &self->lanes[lane];
}

const guint32 *
tv_timeline_get_order (TvTimeline *self,
                       guint      *n_lanes)
{
  g_return_val_if_fail (self != NULL, NULL);
  if (n_lanes != NULL)
    *n_lanes = self->n_lanes;
  return self->order;
}

const guint32 *
tv_timeline_get_interpreters (TvTimeline *self,
                              guint      *n_interpreters)
{
  g_return_val_if_fail (self != NULL, NULL);
  if (n_interpreters != NULL)
    *n_interpreters = self->n_interpreters;
  return self->interpreters;
}

gboolean
tv_timeline_get_span (TvTimeline *self,
                      guint64    *first,
                      guint64    *last)
{
  g_return_val_if_fail (self != NULL, FALSE);
  if (first != NULL)
    *first = self->origin;
  if (last != NULL)
    *last = self->last;
  return self->has_samples;
}

guint64
tv_timeline_get_origin (TvTimeline *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->origin;
}

guint64
tv_timeline_get_duration (TvTimeline *self)
{
  g_return_val_if_fail (self != NULL, 0);
  if (!self->has_samples)
    return 0;
  /* A span of every timestamp would be 2^64: one short of it will do. */
  return self->last - self->origin == G_MAXUINT64 ? G_MAXUINT64 : self->last - self->origin + 1;
}

double
tv_timeline_get_interval (TvTimeline *self)
{
  g_return_val_if_fail (self != NULL, 1000);
  return self->interval;
}

/* Microseconds since the origin of the first whole microsecond at or
 * after TIME, clamped to [0, 2^63]. */
guint64
tv_timeline_time_edge (double time)
{
  guint64 whole;

  if (!(time > 0))
    return 0;
  if (time >= 9223372036854775808.0)
    return G_GUINT64_CONSTANT (1) << 63;
  /* ceil (), without a call into libm: it runs for every column. */
  whole = (guint64) time;
  return (double) whole < time ? whole + 1 : whole;
}

guint64
tv_timeline_time_to_timestamp (TvTimeline *self,
                               double      time)
{
  guint64 edge;

  g_return_val_if_fail (self != NULL, 0);
  edge = tv_timeline_time_edge (time);
  return edge > G_MAXUINT64 - self->origin ? G_MAXUINT64 : self->origin + edge;
}

gsize
tv_timeline_get_memory_size (TvTimeline *self)
{
  gsize size = 0;

  g_return_val_if_fail (self != NULL, 0);
  for (guint i = 0; i <= self->n_lanes; i++)
    {
      const LaneData *lane = i < self->n_lanes ? &self->lane_data[i] : &self->all;

      for (guint l = 0; l < lane->n_levels; l++)
        size += lane->levels[l].n_bins * sizeof (TvTimelineBin);
      if (lane->sorted_statuses.bytes != NULL)
        size += tv_times_get_memory_size (&lane->sorted_times) + lane->n_samples;
    }
  return size;
}

/* A lane filter's text, folded once for all lanes; matcher_init()
 * returns FALSE when it matches every lane. */
typedef struct
{
  char    *needle;
  char    *main_label;          /* folded, or NULL */
  GString *haystack;
} LaneMatcher;

static gboolean
matcher_init (LaneMatcher *m,
              const char  *text,
              const char  *main_label)
{
  g_autofree char *stripped = NULL;

  memset (m, 0, sizeof *m);
  if (text == NULL)
    return FALSE;
  stripped = g_strstrip (g_strdup (text));
  if (stripped[0] == '\0')
    return FALSE;
  m->needle = g_utf8_casefold (stripped, -1);
  m->main_label = main_label != NULL ? g_utf8_casefold (main_label, -1) : NULL;
  m->haystack = g_string_new (NULL);
  return TRUE;
}

static void
matcher_clear (LaneMatcher *m)
{
  g_free (m->needle);
  g_free (m->main_label);
  if (m->haystack != NULL)
    g_string_free (m->haystack, TRUE);
}

/* The lane's id in decimal and in hexadecimal (already lower case), and
 * the main thread's label, a line each. */
static gboolean
matcher_matches (LaneMatcher          *m,
                 const TvTimelineLane *info)
{
  g_string_truncate (m->haystack, 0);
  g_string_append_printf (m->haystack, "%" G_GUINT64_FORMAT "\n0x%" G_GINT64_MODIFIER "x\n",
                          info->thread_id, info->thread_id);
  if (info->main_thread && m->main_label != NULL)
    {
      g_string_append (m->haystack, m->main_label);
      g_string_append_c (m->haystack, '\n');
    }
  else if (m->needle[0] == 't' && g_ascii_isdigit (m->needle[1]))
    {
      /* The short label, whole: "t1" is not a part of "T12". */
      char *end = NULL;
      guint64 number = g_ascii_strtoull (m->needle + 1, &end, 10);

      if (end != NULL && *end == '\0' && number == (guint64) info->position + 1)
        return TRUE;
    }
  return strstr (m->haystack->str, m->needle) != NULL;
}

gboolean
tv_timeline_lane_matches (TvTimeline *self,
                          guint       lane,
                          const char *text,
                          const char *main_label)
{
  LaneMatcher m;
  gboolean matches;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (lane < self->n_lanes, FALSE);

  if (!matcher_init (&m, text, main_label))
    return TRUE;
  matches = matcher_matches (&m, &self->lanes[lane]);
  matcher_clear (&m);
  return matches;
}

guint
tv_timeline_match_lanes (TvTimeline *self,
                         const char *text,
                         const char *main_label,
                         guint8     *matches)
{
  LaneMatcher m;
  guint n = 0;

  g_return_val_if_fail (self != NULL, 0);
  g_return_val_if_fail (matches != NULL || self->n_lanes == 0, 0);

  if (!matcher_init (&m, text, main_label))
    {
      memset (matches, 1, self->n_lanes);
      return self->n_lanes;
    }
  for (guint i = 0; i < self->n_lanes; i++)
    n += matches[i] = matcher_matches (&m, &self->lanes[i]);
  matcher_clear (&m);
  return n;
}

guint64
tv_timeline_column_get_state (const TvTimelineColumn *column,
                              TvTimelineState         state)
{
  guint64 unknown;

  g_return_val_if_fail (column != NULL, 0);

  /* Idle samples with the unknown bit are unknown; the bit nearly always
   * comes alone, and TACH_STATUS_UNKNOWN with another state bit is that
   * state. */
  unknown = MIN (column->counts[TV_TIMELINE_COUNT_UNKNOWN], column->counts[TV_TIMELINE_COUNT_IDLE]);
  switch (state)
    {
    case TV_TIMELINE_STATE_RUNNING:
      return column->counts[TV_TIMELINE_COUNT_HAS_GIL];
    case TV_TIMELINE_STATE_NATIVE:
      return column->counts[TV_TIMELINE_COUNT_NATIVE];
    case TV_TIMELINE_STATE_WAITING:
      return column->samples - column->counts[TV_TIMELINE_COUNT_HAS_GIL]
             - column->counts[TV_TIMELINE_COUNT_NATIVE] - column->counts[TV_TIMELINE_COUNT_IDLE];
    case TV_TIMELINE_STATE_EXCEPTION:
      return column->counts[TV_TIMELINE_COUNT_EXCEPTION];
    case TV_TIMELINE_STATE_IDLE:
      return column->counts[TV_TIMELINE_COUNT_IDLE] - unknown;
    case TV_TIMELINE_STATE_UNKNOWN:
      return unknown;
    case TV_TIMELINE_N_STATES:
    default:
      g_return_val_if_reached (0);
    }
}

void
tv_timeline_state_get_filter (TvTimelineState  state,
                              guint8          *mask,
                              guint8          *value)
{
  const guint8 busy = TACH_STATUS_HAS_GIL | TACH_STATUS_ON_CPU | TACH_STATUS_GIL_REQUESTED;
  guint8 m = 0, v = 0;

  switch (state)
    {
    case TV_TIMELINE_STATE_RUNNING:
      m = v = TACH_STATUS_HAS_GIL;
      break;
    case TV_TIMELINE_STATE_NATIVE:
      m = busy;
      v = TACH_STATUS_ON_CPU;
      break;
    case TV_TIMELINE_STATE_WAITING:
      m = TACH_STATUS_HAS_GIL | TACH_STATUS_GIL_REQUESTED;
      v = TACH_STATUS_GIL_REQUESTED;
      break;
    case TV_TIMELINE_STATE_EXCEPTION:
      m = v = TACH_STATUS_HAS_EXCEPTION;
      break;
    case TV_TIMELINE_STATE_IDLE:
      m = busy | TACH_STATUS_UNKNOWN;
      v = 0;
      break;
    case TV_TIMELINE_STATE_UNKNOWN:
      m = busy | TACH_STATUS_UNKNOWN;
      v = TACH_STATUS_UNKNOWN;
      break;
    case TV_TIMELINE_N_STATES:
    default:
      g_return_if_reached ();
    }
  if (mask != NULL)
    *mask = m;
  if (value != NULL)
    *value = v;
}

/* ------------------------------------------------------------------------ */
/* Counting ranges                                                           */
/* ------------------------------------------------------------------------ */

static guint64
lane_count_range (const LaneData   *lane,
                  guint64           start,
                  guint64           end,
                  TvTimelineColumn *counts)
{
  guint64 lo, hi;

  if (lane->n_samples == 0 || start >= end)
    return 0;
  lo = tv_times_lower_bound (lane->times, 0, lane->n_samples, start);
  hi = tv_times_lower_bound (lane->times, lo, lane->n_samples, end);
  if (counts != NULL)
    column_add_statuses (counts, lane->statuses, lo, hi);
  return hi - lo;
}

/* lane_count_range () of lane I as a part of every lane: a lane with no
 * sample in the range costs two comparisons and one with all of them in
 * it adds its coarsest bin, so that the overview's counts cost a bisection
 * only for the lanes the range's edges cut, whatever the threads. */
static guint64
count_lane_range (TvTimeline       *self,
                  guint             i,
                  guint64           start,
                  guint64           end,
                  TvTimelineColumn *counts)
{
  const TvTimelineLane *info = &self->lanes[i];
  const LaneData *lane = &self->lane_data[i];

  if (lane->n_samples == 0 || start >= end || info->last_timestamp < start
      || info->first_timestamp >= end)
    return 0;
  if (info->first_timestamp >= start && info->last_timestamp < end)
    {
      const Level *top = lane->n_levels > 0 ? &lane->levels[lane->n_levels - 1] : NULL;

      if (counts == NULL)
        return lane->n_samples;
      if (top != NULL && top->n_bins == 1)
        column_add_bin (counts, &top->bins[0]);
      else
        column_add_statuses (counts, lane->statuses, 0, lane->n_samples);
      return lane->n_samples;
    }
  return lane_count_range (lane, start, end, counts);
}

guint64
tv_timeline_count_range (TvTimeline       *self,
                         guint             lane,
                         guint64           start,
                         guint64           end,
                         TvTimelineColumn *counts)
{
  guint64 n = 0;

  if (counts != NULL)
    memset (counts, 0, sizeof *counts);
  g_return_val_if_fail (self != NULL, 0);
  g_return_val_if_fail (lane < self->n_lanes || lane == TV_TIMELINE_ALL, 0);

  if (lane != TV_TIMELINE_ALL)
    return lane_count_range (&self->lane_data[lane], start, end, counts);
  for (guint i = 0; i < self->n_lanes; i++)
    n += count_lane_range (self, i, start, end, counts);
  return n;
}

gboolean
tv_timeline_find_previous (TvTimeline *self,
                           guint       lane,
                           guint64     before,
                           guint64    *timestamp)
{
  gboolean found = FALSE;
  guint64 latest = 0;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (lane < self->n_lanes || lane == TV_TIMELINE_ALL, FALSE);

  for (guint i = lane == TV_TIMELINE_ALL ? 0 : lane;
       i < (lane == TV_TIMELINE_ALL ? self->n_lanes : lane + 1); i++)
    {
      const LaneData *data = &self->lane_data[i];
      const TvTimelineLane *info = &self->lanes[i];
      guint64 at;

      /* No bisection for a lane wholly before or after BEFORE. */
      if (data->n_samples == 0 || info->first_timestamp >= before)
        continue;
      at = info->last_timestamp < before ? data->n_samples
           : tv_times_lower_bound (data->times, 0, data->n_samples, before);
      if (at > 0 && (!found || tv_times_get (data->times, at - 1) > latest))
        {
          latest = tv_times_get (data->times, at - 1);
          found = TRUE;
        }
    }
  if (timestamp != NULL)
    *timestamp = latest;
  return found;
}

guint64
tv_timeline_count_ranges (TvTimeline        *self,
                          guint              lane,
                          const TvTimeRange *ranges,
                          guint              n,
                          TvTimelineColumn  *counts)
{
  guint64 total = 0;

  if (counts != NULL)
    memset (counts, 0, sizeof *counts);
  g_return_val_if_fail (self != NULL, 0);
  g_return_val_if_fail (lane < self->n_lanes || lane == TV_TIMELINE_ALL, 0);
  g_return_val_if_fail (ranges != NULL || n == 0, 0);

  for (guint l = lane == TV_TIMELINE_ALL ? 0 : lane;
       l < (lane == TV_TIMELINE_ALL ? self->n_lanes : lane + 1); l++)
    for (guint i = 0; i < n; i++)
      total += count_lane_range (self, l, ranges[i].start, ranges[i].end, counts);
  return total;
}

guint64
tv_time_ranges_get_duration (const TvTimeRange *ranges,
                             guint              n)
{
  guint64 total = 0;

  g_return_val_if_fail (ranges != NULL || n == 0, 0);

  for (guint i = 0; i < n; i++)
    total += ranges[i].end > ranges[i].start ? ranges[i].end - ranges[i].start : 0;
  return total;
}
