/* tv-comparability.c: why two profiles may not compare like for like
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Each check compares what the two files say about how they were
 * recorded (mode, interval, Python version, statistics block, missed
 * samples, duration), or, matched by line or instruction, how many samples
 * fall on keys only one side has.  The messages name the sides BASE and
 * NEW, as the command line and the banner do.
 */
#include "tv-comparability.h"
#include "tachyon-format.h"
#include "tv-diff-private.h"
#include "tv-units.h"

#include <math.h>

#include <glib/gi18n.h>

void
tv_comparability_free (TvComparability *comparability)
{
  if (comparability == NULL)
    return;
  g_free (comparability->message);
  g_free (comparability);
}

static void
add_caveat (GPtrArray           *list,
            TvComparabilityCode  code,
            char                *message)
{
  TvComparability *c = g_new0 (TvComparability, 1);

  c->code = code;
  c->message = message;
  g_ptr_array_add (list, c);
}

/* The name of a mode in a sentence ("recorded in %s mode"). */
static const char *
mode_name (TachMode mode)
{
  switch (mode)
    {
    case TACH_MODE_WALL:
      return C_("profiling mode", "wall-clock");
    case TACH_MODE_CPU:
      return C_("profiling mode", "CPU");
    case TACH_MODE_GIL:
      return C_("profiling mode", "GIL");
    case TACH_MODE_ALL:
      return C_("profiling mode", "“all”");
    case TACH_MODE_EXCEPTION:
      return C_("profiling mode", "exception");
    case TACH_MODE_UNKNOWN:
    default:
      return C_("profiling mode", "unknown");
    }
}

static void
check_mode (GPtrArray        *list,
            const TachHeader *a,
            const TachHeader *b)
{
  gboolean a_waits = a->mode == TACH_MODE_CPU || a->mode == TACH_MODE_GIL;
  gboolean b_waits = b->mode == TACH_MODE_CPU || b->mode == TACH_MODE_GIL;

  if (a->mode == b->mode)
    return;
  if (a->mode == TACH_MODE_UNKNOWN || b->mode == TACH_MODE_UNKNOWN)
    {
      if (a->mode == TACH_MODE_UNKNOWN)
        add_caveat (list, TV_COMPARABILITY_MODE_UNKNOWN,
                    g_strdup_printf (_("The file of BASE does not say in which mode it was "
                                       "recorded, and NEW was recorded in %s mode: if BASE "
                                       "used another mode, the profiles differ even where "
                                       "the program did not change."), mode_name (b->mode)));
      else
        add_caveat (list, TV_COMPARABILITY_MODE_UNKNOWN,
                    g_strdup_printf (_("BASE was recorded in %s mode, and the file of NEW "
                                       "does not say in which mode it was recorded: if NEW "
                                       "used another mode, the profiles differ even where "
                                       "the program did not change."), mode_name (a->mode)));
      return;
    }

  /* Waiting is what the modes disagree on most often, and what the user
   * must be told in so many words. */
  if (a->mode == TACH_MODE_WALL && b_waits)
    add_caveat (list, TV_COMPARABILITY_MODE,
                g_strdup_printf (_("BASE was recorded in wall-clock mode and NEW in %s mode: "
                                   "a function that waits looks faster in NEW only because "
                                   "waiting is not sampled."), mode_name (b->mode)));
  else if (a_waits && b->mode == TACH_MODE_WALL)
    add_caveat (list, TV_COMPARABILITY_MODE,
                g_strdup_printf (_("BASE was recorded in %s mode and NEW in wall-clock mode: "
                                   "a function that waits looks slower in NEW only because "
                                   "waiting is sampled."), mode_name (a->mode)));
  else
    add_caveat (list, TV_COMPARABILITY_MODE,
                g_strdup_printf (_("BASE was recorded in %s mode and NEW in %s mode: the "
                                   "modes sample the threads at different moments, so the "
                                   "profiles differ even where the program did not change."),
                                 mode_name (a->mode), mode_name (b->mode)));
}

/* Samples times seconds per sample: the thread time the profile covers. */
static double
covered_seconds (TvProfileData *data)
{
  return (double) tv_profile_data_get_n_samples (data)
         * tv_profile_data_get_seconds_per_sample (data, NULL);
}

/* What a stack (the path from the root to a node of the exact tree) holds:
 * a frame of a function the other profile knows, and one of those at a
 * merge key the other profile lacks. */
#define STACK_KNOWN     1
#define STACK_UNMATCHED 2

/* Of the samples whose stack holds a frame of a function the other
 * profile knows, the fraction whose stack also holds such a frame at a
 * merge key the other profile lacks: the samples that matching by MERGE
 * puts on paths the other side does not have.  Each sample counts once,
 * however deep its stack; a parent's id is smaller than its children's,
 * so one pass in id order carries the flags down. */
static double
unmatched_key_fraction (TvProfileData  *data,
                        const TvKeyMap *keys,
                        const TvKeyMap *functions,
                        TvDiffSide      side,
                        TvMergeKey      merge)
{
  const TvExactTree *exact = tv_profile_data_get_tree (data);
  const guint32 *frame_keys = tv_profile_data_get_frame_keys (data, merge);
  const guint32 *frame_functions = tv_profile_data_get_frame_keys (data, TV_MERGE_FUNCTION);
  g_autofree guint8 *flags = NULL;
  g_autofree guint64 *samples = NULL;
  double known = 0, unmatched = 0;

  if (exact->n_nodes == 0)
    return 0;
  flags = g_new0 (guint8, exact->n_nodes);
  samples = tv_profile_data_count_node_samples (data);
  for (guint32 n = 1; n < exact->n_nodes; n++)
    {
      guint32 frame = tv_exact_tree_frame (exact, n);

      flags[n] = flags[tv_exact_tree_parent (exact, n)];
      if (tv_key_map_lookup (functions, side, frame_functions[frame]) != TV_NODE_NONE)
        flags[n] |= tv_key_map_lookup (keys, side, frame_keys[frame]) == TV_NODE_NONE
                    ? STACK_KNOWN | STACK_UNMATCHED : STACK_KNOWN;
      if (flags[n] & STACK_KNOWN)
        known += (double) samples[n];
      if (flags[n] & STACK_UNMATCHED)
        unmatched += (double) samples[n];
    }
  return known > 0 ? unmatched / known : 0;
}

static void
check_source (GPtrArray     *list,
              TvProfileData *base,
              TvProfileData *new_data,
              TvMergeKey     merge)
{
  TvKeyMap keys = { 0 }, functions = { 0 };
  double fraction;

  tv_key_map_build (&keys, base, new_data, merge);
  tv_key_map_build (&functions, base, new_data, TV_MERGE_FUNCTION);
  fraction = MAX (unmatched_key_fraction (base, &keys, &functions, TV_DIFF_SIDE_BASE, merge),
                  unmatched_key_fraction (new_data, &keys, &functions, TV_DIFF_SIDE_NEW, merge));
  tv_key_map_clear (&keys);
  tv_key_map_clear (&functions);

  /* Lines that only one run reached carry a few samples; moved code
   * carries most of them. */
  if (fraction >= 0.25)
    add_caveat (list, TV_COMPARABILITY_SOURCE_CHANGED,
                g_strdup_printf (merge == TV_MERGE_LINE
                                 ? _("In %.0f %% of the samples that pass through functions "
                                     "both profiles have, the stack holds a line of such a "
                                     "function that only one profile has: the source "
                                     "probably changed between the runs, and matched by "
                                     "line, those stacks have no counterpart on the other "
                                     "side. Match by function instead.")
                                 : _("In %.0f %% of the samples that pass through functions "
                                     "both profiles have, the stack holds an instruction of "
                                     "such a function that only one profile has: the source "
                                     "probably changed between the runs, and matched by "
                                     "instruction, those stacks have no counterpart on the "
                                     "other side. Match by function instead."),
                                 floor (fraction * 100)));
}

/* Whether DATA's samples stand for any time: a stats block without a
 * sampling rate and a header interval of 0 leave them at 0 s, and a
 * comparison by time then has nothing to test (see binomial_init()). */
static gboolean
has_time_per_sample (TvProfileData *data)
{
  double seconds = tv_profile_data_get_seconds_per_sample (data, NULL);

  return seconds > 0 && isfinite (seconds);
}

/* Where each side's time per sample comes from: the measured rate on one
 * side and the interval on the other (no stats block, or one without a
 * rate) weigh the two differently. */
static void
check_time_source (GPtrArray     *list,
                   TvProfileData *base,
                   TvProfileData *new_data)
{
  TvTimeSource source_a, source_b;
  gboolean stats_a = tach_reader_get_stats (tv_profile_data_get_reader (base))->present;
  gboolean stats_b = tach_reader_get_stats (tv_profile_data_get_reader (new_data))->present;

  /* Without a time per sample, TV_COMPARABILITY_NO_TIME says more. */
  if (!has_time_per_sample (base) || !has_time_per_sample (new_data))
    return;
  tv_profile_data_get_seconds_per_sample (base, &source_a);
  tv_profile_data_get_seconds_per_sample (new_data, &source_b);
  if (source_a == TV_TIME_SOURCE_INTERVAL && source_b == TV_TIME_SOURCE_STATS)
    add_caveat (list, TV_COMPARABILITY_NO_STATS_BASE,
                g_strdup (stats_a
                          ? _("BASE's statistics block records no sampling rate: its times "
                              "are its samples times the sampling interval, while NEW's "
                              "come from the measured sampling rate, so compared by time "
                              "BASE is off by the samples its profiler missed.")
                          : _("BASE has no statistics block: its times are its samples times "
                              "the sampling interval, while NEW's come from the measured "
                              "sampling rate, so compared by time BASE is off by the samples "
                              "its profiler missed.")));
  else if (source_a == TV_TIME_SOURCE_STATS && source_b == TV_TIME_SOURCE_INTERVAL)
    add_caveat (list, TV_COMPARABILITY_NO_STATS_NEW,
                g_strdup (stats_b
                          ? _("NEW's statistics block records no sampling rate: its times "
                              "are its samples times the sampling interval, while BASE's "
                              "come from the measured sampling rate, so compared by time "
                              "NEW is off by the samples its profiler missed.")
                          : _("NEW has no statistics block: its times are its samples times "
                              "the sampling interval, while BASE's come from the measured "
                              "sampling rate, so compared by time NEW is off by the samples "
                              "its profiler missed.")));
}

/* A side whose samples stand for no time makes every comparison by time
 * empty: all its values 0 s, and no change testable. */
static void
check_no_time (GPtrArray     *list,
               TvProfileData *base,
               TvProfileData *new_data)
{
  gboolean time_a = has_time_per_sample (base);
  gboolean time_b = has_time_per_sample (new_data);

  if (time_a && time_b)
    return;
  add_caveat (list, TV_COMPARABILITY_NO_TIME,
              g_strdup (!time_a && !time_b
                        ? _("Neither BASE nor NEW records how long a sample lasts (no "
                            "measured sampling rate, and a sampling interval of 0), so they "
                            "cannot be compared by time: every value would be 0 s and no "
                            "change could be tested. Compare by share of samples instead "
                            "(--by share on the command line).")
                        : !time_a
                        ? _("BASE does not record how long a sample lasts (no measured "
                            "sampling rate, and a sampling interval of 0), so the profiles "
                            "cannot be compared by time: every value of BASE would be 0 s "
                            "and no change could be tested. Compare by share of samples "
                            "instead (--by share on the command line).")
                        : _("NEW does not record how long a sample lasts (no measured "
                            "sampling rate, and a sampling interval of 0), so the profiles "
                            "cannot be compared by time: every value of NEW would be 0 s "
                            "and no change could be tested. Compare by share of samples "
                            "instead (--by share on the command line).")));
}

/**
 * tv_comparability_check:
 *
 * Safe on any thread.
 */
GPtrArray *
tv_comparability_check (TvProfileData *base,
                        TvProfileData *new_data,
                        TvMergeKey     merge)
{
  TachReader *ra, *rb;
  const TachHeader *a, *b;
  const TachStats *sa, *sb;
  GPtrArray *list;

  g_return_val_if_fail (base != NULL, NULL);
  g_return_val_if_fail (new_data != NULL, NULL);
  g_return_val_if_fail (merge < TV_N_MERGE_KEYS, NULL);

  list = g_ptr_array_new_with_free_func ((GDestroyNotify) tv_comparability_free);
  ra = tv_profile_data_get_reader (base);
  rb = tv_profile_data_get_reader (new_data);
  a = tach_reader_get_header (ra);
  b = tach_reader_get_header (rb);
  sa = tach_reader_get_stats (ra);
  sb = tach_reader_get_stats (rb);

  check_mode (list, a, b);

  if (a->sample_interval_us != b->sample_interval_us)
    {
      g_autofree char *ia = g_strdup_printf ("%" G_GUINT64_FORMAT, a->sample_interval_us);
      g_autofree char *ib = g_strdup_printf ("%" G_GUINT64_FORMAT, b->sample_interval_us);

      add_caveat (list, TV_COMPARABILITY_INTERVAL,
                  g_strdup_printf (_("BASE was sampled every %s µs and NEW every %s µs: "
                                     "the comparison weighs each sample by the time it "
                                     "stands for, but the profiler's own load on the machine "
                                     "differed, and the side sampled less often is noisier."),
                                   ia, ib));
    }

  if (a->python_major != b->python_major || a->python_minor != b->python_minor
      || a->python_micro != b->python_micro)
    {
      g_autofree char *va = g_strdup_printf ("%u.%u.%u", a->python_major, a->python_minor,
                                             a->python_micro);
      g_autofree char *vb = g_strdup_printf ("%u.%u.%u", b->python_major, b->python_minor,
                                             b->python_micro);

      add_caveat (list, TV_COMPARABILITY_PYTHON_VERSION,
                  g_strdup_printf (_("BASE was recorded with Python %s and NEW with Python "
                                     "%s: the interpreter runs the same code at a different "
                                     "speed, so part of every difference is the "
                                     "interpreter's."), va, vb));
    }

  check_time_source (list, base, new_data);

  if (sa->present && sb->present && sa->has_missed_samples && sb->has_missed_samples
      && fabs (sa->missed_samples - sb->missed_samples) >= 5)
    add_caveat (list, TV_COMPARABILITY_MISSED_SAMPLES,
                g_strdup_printf (_("The profiler missed %.1f %% of the samples of BASE and "
                                   "%.1f %% of those of NEW: where it could not keep up, the "
                                   "functions running at the time are under-counted on one "
                                   "side more than on the other."),
                                 sa->missed_samples, sb->missed_samples));

  {
    double ta = covered_seconds (base), tb = covered_seconds (new_data);

    if (ta > 0 && tb > 0 && MAX (ta, tb) / MIN (ta, tb) >= 1.5)
      {
        g_autofree char *time_a = tv_format_thread_time (ta);
        g_autofree char *time_b = tv_format_thread_time (tb);

        /* Translators: the %s are durations such as "1.50 s of thread
         * time". */
        add_caveat (list, TV_COMPARABILITY_DURATION,
                    g_strdup_printf (tb > ta
                                     ? _("The samples of BASE stand for %s and those of NEW "
                                         "for %s: compared by time, every function looks "
                                         "slower in NEW. Unless both runs did the same work, "
                                         "compare by share.")
                                     : _("The samples of BASE stand for %s and those of NEW "
                                         "for %s: compared by time, every function looks "
                                         "faster in NEW. Unless both runs did the same work, "
                                         "compare by share."), time_a, time_b));
      }
  }

  if (merge == TV_MERGE_LINE || merge == TV_MERGE_INSTRUCTION || merge == TV_MERGE_FRAME)
    check_source (list, base, new_data, merge);

  if ((merge == TV_MERGE_INSTRUCTION || merge == TV_MERGE_FRAME)
      && (a->python_major != b->python_major || a->python_minor != b->python_minor))
    {
      g_autofree char *va = g_strdup_printf ("%u.%u", a->python_major, a->python_minor);
      g_autofree char *vb = g_strdup_printf ("%u.%u", b->python_major, b->python_minor);

      add_caveat (list, TV_COMPARABILITY_BYTECODE,
                  g_strdup_printf (_("Python %s and Python %s compile the same source to "
                                     "different bytecode, so few instructions match: match "
                                     "by line or by function instead."), va, vb));
    }

  check_no_time (list, base, new_data);

  return list;
}
