/* tv-diff.h: two call trees compared, node by node and function by function
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A TvDiff compares the call tree of a BASE profile with that of a NEW
 * one, made with the same merge key and the same inversion.  The two
 * trees come from different files, whose string and frame tables differ,
 * so frames are matched by content: file and function name, and the line,
 * column and opcode when the merge key has them.  A node matches the node
 * of the other tree reached by the same path of matched keys from the
 * root (in an inverted tree, from the leaf).
 *
 * For every node it gives both sides' samples, their values normalised by
 * time or by share of samples, the change, and whether the change stands
 * out of sampling noise (see tv_diff_p_value()).  It also gives a table of
 * functions, the nodes of one side that the other lacks (the stacks that
 * vanished from BASE, or appeared in NEW), and the caveats of comparing
 * these two profiles at all (TvComparability, tv-comparability.h).
 *
 * It is made on any thread, can be cancelled, and is immutable once made.
 * It has no widgets.
 */
#pragma once

#include "tv-call-tree.h"
#include "tv-comparability.h"

G_BEGIN_DECLS

typedef enum
{
  TV_DIFF_SIDE_BASE,
  TV_DIFF_SIDE_NEW,
} TvDiffSide;

/* What a node's samples are worth. */
typedef enum
{
  /* Seconds: samples times each profile's seconds per sample (the stats
   * block's measured rate when present, else the header's interval). */
  TV_DIFF_BY_TIME,
  /* A fraction of the samples of the profile's tree (0 to 1). */
  TV_DIFF_BY_SHARE,
} TvDiffNormalization;

#define TV_TYPE_DIFF_NORMALIZATION (tv_diff_normalization_get_type ())
GType tv_diff_normalization_get_type (void);

typedef enum
{
  TV_DIFF_NEUTRAL,             /* no change beyond noise */
  TV_DIFF_SLOWER,              /* more in NEW */
  TV_DIFF_FASTER,              /* less in NEW */
} TvDiffChange;

typedef struct
{
  TvDiffNormalization normalization;
  /* Changes with a p-value under 1 - confidence are significant; in
   * (0, 1), 0.99 by default. */
  double              confidence;
} TvDiffOptions;

/* By time, at 99 % confidence. */
void tv_diff_options_init (TvDiffOptions *options);

/* One quantity (a total or a self) before and after. */
typedef struct
{
  guint64      base_samples;
  guint64      new_samples;
  double       base_value;     /* normalised (seconds or fraction) */
  double       new_value;
  double       delta;          /* new_value - base_value */
  /* delta / base_value: 0.2 is 20 % slower, -1 vanished.  INFINITY when
   * only NEW has samples, 0 when neither has any. */
  double       relative;
  /* Whether the normalised value (seconds or share, as the options say)
   * differs by more than sampling noise: see tv_diff_p_value(). */
  double       p_value;
  gboolean     significant;    /* p_value < 1 - confidence */
  /* The sign of delta when significant, else TV_DIFF_NEUTRAL. */
  TvDiffChange change;
} TvDiffMeasure;

typedef struct
{
  guint32       base_node;     /* TV_NODE_NONE: the path is not in BASE */
  guint32       new_node;      /* TV_NODE_NONE: the path is not in NEW */
  TvDiffMeasure total;
  TvDiffMeasure self;
} TvDiffNode;

/* A row of the function table; functions are matched by file and name.
 * A side's key is TV_NODE_NONE when its file has no such function; it
 * may have one without samples. */
typedef struct
{
  guint32       base_function; /* TV_MERGE_FUNCTION key of BASE, or TV_NODE_NONE */
  guint32       new_function;  /* TV_MERGE_FUNCTION key of NEW, or TV_NODE_NONE */
  TvDiffMeasure total;         /* a recursive function counts once */
  TvDiffMeasure self;
} TvDiffFunction;

typedef struct _TvDiff TvDiff;

#define TV_TYPE_DIFF (tv_diff_get_type ())
GType          tv_diff_get_type           (void);

/* BASE and NEW_TREE must have the same merge key and the same inversion.
 * OPTIONS may be NULL for the defaults.  Returns NULL if cancelled. */
TvDiff        *tv_diff_new                (TvCallTree          *base,
                                           TvCallTree          *new_tree,
                                           const TvDiffOptions *options,
                                           GCancellable        *cancellable);
TvDiff        *tv_diff_ref                (TvDiff              *diff);
void           tv_diff_unref              (TvDiff              *diff);

TvCallTree    *tv_diff_get_tree           (TvDiff              *diff,
                                           TvDiffSide           side);
void           tv_diff_get_options        (TvDiff              *diff,
                                           TvDiffOptions       *options);
/* What one sample of SIDE is worth in the normalisation's unit. */
double         tv_diff_get_weight         (TvDiff              *diff,
                                           TvDiffSide           side);

/* The node of the other side with the same path as NODE of SIDE, or
 * TV_NODE_NONE.  The two directions are inverses of each other. */
guint32        tv_diff_map_node           (TvDiff              *diff,
                                           TvDiffSide           side,
                                           guint32              node);
/* The same for NODE or, when it has no match, its nearest ancestor that
 * has one: the root at worst.  A view zoomed into NODE of one side zooms
 * the other side there. */
guint32        tv_diff_map_node_or_ancestor (TvDiff            *diff,
                                             TvDiffSide         side,
                                             guint32            node);
/* The merge key (of the trees' merge) or the function key
 * (TV_MERGE_FUNCTION) of the other side with the same content as KEY of
 * SIDE, or TV_NODE_NONE: to carry a search, a focus or a hidden function
 * over to the other profile. */
guint32        tv_diff_map_key            (TvDiff              *diff,
                                           TvDiffSide           side,
                                           guint32              key);
guint32        tv_diff_map_function       (TvDiff              *diff,
                                           TvDiffSide           side,
                                           guint32              function);

/* NODE of SIDE compared with its match; either side may be missing. */
void           tv_diff_get_node           (TvDiff              *diff,
                                           TvDiffSide           side,
                                           guint32              node,
                                           TvDiffNode          *out);

/* Every function with samples on either side, the largest change of its
 * total first. */
const TvDiffFunction *tv_diff_get_functions (TvDiff            *diff,
                                             guint             *n_rows);
/* The row's function name and file, from whichever side has it. */
const char    *tv_diff_get_function_name  (TvDiff               *diff,
                                           const TvDiffFunction *row);
const char    *tv_diff_get_function_file  (TvDiff               *diff,
                                           const TvDiffFunction *row);

/* The topmost nodes of SIDE with no match on the other side, most samples
 * first: for BASE, the stacks that vanished (the "elided" view); for NEW,
 * those that appeared.  Their subtrees hold every unmatched node. */
const guint32 *tv_diff_get_unmatched      (TvDiff              *diff,
                                           TvDiffSide           side,
                                           guint               *n_nodes);
/* Samples through NODE of SIDE on paths with no match on the other side:
 * its total when it has no match itself; the root's is every such sample.
 * A flame graph of only these widths is the elided view. */
guint64        tv_diff_get_unmatched_total (TvDiff             *diff,
                                            TvDiffSide          side,
                                            guint32             node);

/* VALUE, a normalised value or a change of one, as text: seconds of
 * thread time ("1.25 s", "12.5 ms") or a share of the samples ("12.5 %"),
 * signed when WITH_SIGN (tv-units.h). */
char          *tv_diff_format_value       (TvDiff              *diff,
                                           double               value,
                                           gboolean             with_sign);
/* The two-sided p-value of the hypothesis that a node's normalised value
 * is the same in both profiles, given its sample counts and what one
 * sample of each side is worth (any positive unit; only their ratio
 * matters).  See tv-diff-binomial.c for the test and its assumptions. */
double         tv_diff_p_value            (guint64              base_count,
                                           double               base_weight,
                                           guint64              new_count,
                                           double               new_weight);

/* The comparability caveats (tv_comparability_check()) of the diff's two
 * profiles and merge key (borrowed). */
GPtrArray     *tv_diff_get_comparability  (TvDiff              *diff);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TvDiff, tv_diff_unref)

G_END_DECLS
