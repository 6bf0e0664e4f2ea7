/* tv-diff-private.h: what the files of TvDiff share
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A TvDiff is made in four files, along the steps of tv-diff.c: the key
 * maps by content (tv-diff-keys.c), the exact binomial test
 * (tv-diff-binomial.c), the nodes matched by path (tv-diff.c) and the
 * function table (tv-diff-functions.c).  The comparability warnings
 * (tv-comparability.c) match keys the same way.  Not installed, and not
 * for any file outside src/model/.
 */
#pragma once

#include "tv-diff.h"

G_BEGIN_DECLS

/* The key maps of one merge key, both ways. */
typedef struct
{
  guint32 *to_base;             /* NEW key -> BASE key, or TV_NODE_NONE */
  guint32 *to_new;              /* BASE key -> NEW key */
  guint32  n_base;
  guint32  n_new;
} TvKeyMap;

/* Keys of BASE and NEW_DATA under MERGE with the same content (strings
 * and numbers, not table indices), matched one to one. */
void tv_key_map_build (TvKeyMap      *map,
                       TvProfileData *base,
                       TvProfileData *new_data,
                       TvMergeKey     merge);
void tv_key_map_clear (TvKeyMap      *map);

/* The key of the other side with the content of KEY of SIDE, or
 * TV_NODE_NONE.  Inline: the node matching and the source check call it
 * for every node. */
static inline guint32
tv_key_map_lookup (const TvKeyMap *map,
                   TvDiffSide      side,
                   guint32         key)
{
  if (side == TV_DIFF_SIDE_BASE)
    return key < map->n_base ? map->to_new[key] : TV_NODE_NONE;
  return key < map->n_new ? map->to_base[key] : TV_NODE_NONE;
}

/* The binomial a diff tests every node against: the share q of a node's
 * samples that NEW holds when nothing changed. */
typedef struct
{
  double q;
  double log_q;
  double log_1mq;
  double odds;                  /* q / (1 - q) */
} TvBinomial;

/* FALSE when there is nothing to test (a weight that is not positive). */
gboolean tv_binomial_init    (TvBinomial       *b,
                              double            base_weight,
                              double            new_weight);
/* The two-sided p-value of NEW_COUNT out of BASE_COUNT + NEW_COUNT. */
double   tv_binomial_p_value (const TvBinomial *b,
                              guint64           base_count,
                              guint64           new_count);

/* What the diff keeps per node, on each side. */
typedef struct
{
  TvCallTree *tree;
  double      weight;           /* one sample's value */
  guint32     n_nodes;
  guint32    *other;            /* the match on the other side */
  double     *p_total;
  double     *p_self;
  guint64    *unmatched;        /* see tv_diff_get_unmatched_total() */
  guint32    *tops;             /* topmost unmatched nodes */
  guint       n_tops;
} TvDiffSideData;

struct _TvDiff
{
  gatomicrefcount ref_count;
  TvDiffOptions   options;
  double          alpha;
  TvMergeKey      merge;
  TvDiffSideData  sides[2];
  TvKeyMap        keys;
  TvKeyMap        functions;    /* function keys; unused when merging by function */
  TvDiffFunction *rows;
  guint           n_rows;
  GPtrArray      *comparability;
  TvBinomial      binomial;
  gboolean        testable;     /* both weights positive */
};

/* The p-value of a node or function with these counts, 1 when the diff
 * has nothing to test. */
static inline double
tv_diff_test (const TvDiff *self,
              guint64       base_samples,
              guint64       new_samples)
{
  if (!self->testable)
    return 1;
  return tv_binomial_p_value (&self->binomial, base_samples, new_samples);
}

/* The key maps of the function table's functions. */
static inline const TvKeyMap *
tv_diff_function_map (const TvDiff *self)
{
  return self->merge == TV_MERGE_FUNCTION ? &self->keys : &self->functions;
}

/* OUT for these counts: values, change and verdict at the diff's
 * confidence. */
void  tv_diff_fill_measure    (const TvDiff  *self,
                               guint64        base_samples,
                               guint64        new_samples,
                               double         p_value,
                               TvDiffMeasure *out);
/* The function table, once the nodes are tested (tv-diff-functions.c). */
void  tv_diff_build_functions (TvDiff        *self);
/* SECONDS as "1.500 s" or "12.000 ms", signed when WITH_SIGN. */
char *tv_diff_format_seconds  (double         seconds,
                               gboolean       with_sign);

G_END_DECLS
