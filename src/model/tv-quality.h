/* tv-quality.h: what in a profile should make its reader wary
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

#include "tv-metadata.h"
#include "tv-profile-data.h"

G_BEGIN_DECLS

typedef enum
{
  TV_FINDING_MISSED_SAMPLES,     /* the profiler missed many samples */
  TV_FINDING_ERROR_RATE,         /* some samples failed */
  TV_FINDING_IMPOSSIBLE_STAT,    /* a statistic no recording can have */
  TV_FINDING_DURATION_MISMATCH,  /* recorded duration vs the samples' span */
  TV_FINDING_TRUNCATED_STACKS,   /* stacks cut at the format's frame limit */
  TV_FINDING_FILE,               /* the format library's warnings */
} TvFindingKind;

typedef enum
{
  TV_SEVERITY_NOTICE,            /* worth knowing; the figures hold */
  TV_SEVERITY_WARNING,           /* shares or times may be off */
  TV_SEVERITY_SEVERE,            /* figures that cannot be taken as read */
} TvSeverity;

#define TV_FINDING_MAX_FIGURES 3

/* A figure of a finding, for machine-readable output: NAME is a static
 * string, a JSON key. */
typedef struct
{
  const char *name;
  double      value;
} TvFindingFigure;

typedef struct
{
  TvFindingKind   kind;
  TvSeverity      severity;
  char           *message;       /* one translated sentence, with figures */
  guint           n_figures;
  TvFindingFigure figures[TV_FINDING_MAX_FIGURES];
} TvFinding;

/* Missed samples above this share (in per cent) are a finding: below it,
 * the samples left still stand for the run; above it, whatever made the
 * sampler fall behind (a loaded machine, a long GIL hold) is itself
 * under-represented, and shares lean away from it. */
#define TV_QUALITY_MISSED_PERCENT 5.0
/* ... and above this one, severe: a quarter of the run is not there. */
#define TV_QUALITY_MISSED_SEVERE_PERCENT 25.0

/* What the findings are computed from: all of it is known once a profile
 * is decoded, the first three at open. */
typedef struct
{
  const TvProfileHeader *header;
  const TvProfileStats  *stats;
  const char * const  *file_warnings;    /* NULL-terminated, or NULL */
  gboolean             decoded;          /* the fields below are set */
  guint64              n_samples;
  guint64              first_timestamp_us;
  guint64              last_timestamp_us;
  guint64              n_at_depth_limit; /* samples with 256-frame stacks */
} TvQualityFacts;

const char *tv_finding_kind_to_string (TvFindingKind        kind);
const char *tv_severity_to_string     (TvSeverity           severity);
void        tv_finding_free           (TvFinding           *finding);

/* The findings, worst first; an empty array when there are none.  Constant
 * time in the number of samples. */
GPtrArray  *tv_quality_check          (const TvQualityFacts *facts);
/* Same, for decoded data (its reader's header, stats and warnings). */
GPtrArray  *tv_quality_check_data     (TvProfileData        *data);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TvFinding, tv_finding_free)

G_END_DECLS
