/* tv-comparability.h: why two profiles may not compare like for like
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The caveats of comparing a BASE profile with a NEW one: different
 * profiling modes, intervals, Python versions, where each side's time per
 * sample comes from, missed samples, very different durations, and, when
 * frames are matched by line or instruction, source that moved between
 * the runs.  A TvDiff carries those of its two profiles; the command line
 * and the comparison's banner say them.
 */
#pragma once

#include "tv-profile-data.h"

G_BEGIN_DECLS

/* The values are stable
 * (exports and scripts may record them): add new ones at the end. */
typedef enum
{
  TV_COMPARABILITY_MODE = 0,            /* profiling modes differ */
  TV_COMPARABILITY_MODE_UNKNOWN = 1,    /* one side's mode is unknown */
  TV_COMPARABILITY_INTERVAL = 2,        /* sampling intervals differ */
  TV_COMPARABILITY_PYTHON_VERSION = 3,  /* Python versions differ */
  TV_COMPARABILITY_NO_STATS_BASE = 4,   /* only NEW's time is its measured rate */
  TV_COMPARABILITY_NO_STATS_NEW = 5,    /* only BASE's time is its measured rate */
  TV_COMPARABILITY_MISSED_SAMPLES = 6,  /* the profiler missed more on one side */
  TV_COMPARABILITY_DURATION = 7,        /* very different amounts of time */
  TV_COMPARABILITY_SOURCE_CHANGED = 8,  /* by line: lines moved between runs */
  TV_COMPARABILITY_BYTECODE = 9,        /* by instruction across Python versions */
  TV_COMPARABILITY_NO_TIME = 10,        /* a side has no time per sample */
} TvComparabilityCode;

typedef struct
{
  TvComparabilityCode code;
  char               *message;   /* one or two translated sentences */
} TvComparability;

void           tv_comparability_free      (TvComparability     *comparability);

/* The caveats of comparing BASE with NEW_DATA when frames are matched by
 * MERGE, in the order of TvComparabilityCode.
 * Returns: (transfer full): TvComparability elements, maybe none. */
GPtrArray     *tv_comparability_check     (TvProfileData       *base,
                                           TvProfileData       *new_data,
                                           TvMergeKey           merge);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TvComparability, tv_comparability_free)

G_END_DECLS
