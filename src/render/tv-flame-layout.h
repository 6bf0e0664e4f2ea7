/* tv-flame-layout.h: where the frames of a flame graph go
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A TvFlameLayout is the list of boxes a flame graph shows for one call
 * tree and one viewport: a zoom root, the range of its samples shown
 * across the width, the rows shown across the height.  It knows nothing of
 * drawing (see tv-flame-renderer.h) and nothing of GTK.  It is made on
 * any thread (the tree is immutable), can be cancelled, and is immutable
 * once made, so a widget lays out on a worker thread and draws on its own.
 *
 * Boxes are kept in samples and rows, not pixels; the viewport maps them
 * to pixels.  Every box is at least min_width pixels wide: the children
 * of one parent that are narrower than that are merged, run by run of
 * consecutive children, into one box that says how many children and
 * samples it stands for; the children a pruned tree left out join the
 * last such box, or make one.  Nothing is dropped: across a row, the
 * boxes under a parent add up to the parent's total less its self
 * samples.
 * Subtrees narrower than min_width are never visited, so the work is
 * bounded by what fits on the screen, not by the size of the tree.
 *
 * The search helpers (TvFlameMatches) and the keyboard navigation helpers
 * live here too, since they are questions about the tree, not drawing.
 */
#pragma once

#include "tv-call-tree.h"
#include "tv-view-state.h"      /* TvFlameOrientation */

G_BEGIN_DECLS

typedef struct
{
  /* The zoom root: a node of the tree; its samples span the x axis. */
  guint32            root;
  /* The samples of the zoom root shown, [x0, x1), counted from its left
   * edge: 0 and its total show all of it.  Any range (also one beyond the
   * zoom root, for an animation that starts there) is allowed. */
  double             x0;
  double             x1;
  double             width;           /* pixels */
  /* Pixels; rows outside [0, height) are not laid out.  Zero or less lays
   * out every row (exports). */
  double             height;
  double             row_height;      /* pixels */
  /* Pixels the rows are scrolled by, away from the root: 0 shows the root
   * row at the bottom (flame) or at the top (icicle). */
  double             scroll_y;
  TvFlameOrientation orientation;
  /* Show the zoom root's ancestors in the rows before it, as wide as the
   * zoom root; otherwise the zoom root takes row 0. */
  gboolean           show_ancestors;
  /* Children narrower than this many pixels are merged; 0 means 1. */
  double             min_width;
  /* A flame graph whose rows need less than the height hangs from the
   * top, its deepest frame on the first row, rather than standing on the
   * bottom with the room left above it: the eye starts at the top.  An
   * icicle starts there anyway. */
  gboolean           hang_from_top;
} TvFlameViewport;

/* A viewport that shows all of TREE in WIDTH x HEIGHT pixels, as a flame
 * graph, with rows of 18 pixels. */
void tv_flame_viewport_init (TvFlameViewport *viewport,
                             TvCallTree      *tree,
                             double           width,
                             double           height);

typedef enum
{
  TV_FLAME_BOX_MERGED   = 1 << 0,    /* stands for n_merged children of node */
  TV_FLAME_BOX_ANCESTOR = 1 << 1,    /* an ancestor of the zoom root, cut to its width */
  /* A merged box that also holds node's remainder, the children a pruned
   * tree left out (tv_call_tree_get_remainder()), after the others. */
  TV_FLAME_BOX_REMAINDER = 1 << 2,
} TvFlameBoxFlags;

typedef struct
{
  guint64 start;         /* samples from the zoom root's left edge */
  guint64 samples;       /* the width, in samples */
  /* The frame's node; for a merged box, the parent of the merged nodes. */
  guint32 node;
  /* A merged box stands for children first .. first + n_merged - 1 of
   * node (in tv_call_tree_get_children() order); 0 and 0 otherwise. */
  guint32 first;
  guint32 n_merged;
  guint16 row;           /* 0 is the row of the tree's root or zoom root */
  guint16 flags;         /* TvFlameBoxFlags */
} TvFlameBox;

typedef struct _TvFlameLayout TvFlameLayout;

/* Lays out TREE for VIEWPORT.  Safe on any thread.  Returns NULL if
 * CANCELLABLE was cancelled. */
TvFlameLayout         *tv_flame_layout_new         (TvCallTree            *tree,
                                                    const TvFlameViewport *viewport,
                                                    GCancellable          *cancellable);
TvFlameLayout         *tv_flame_layout_ref         (TvFlameLayout         *layout);
void                   tv_flame_layout_unref       (TvFlameLayout         *layout);

TvCallTree            *tv_flame_layout_get_tree     (TvFlameLayout *layout);
const TvFlameViewport *tv_flame_layout_get_viewport (TvFlameLayout *layout);

/* All boxes, row by row from row 0, each row from left to right. */
const TvFlameBox      *tv_flame_layout_get_boxes   (TvFlameLayout *layout,
                                                    guint         *n_boxes);
/* The boxes of one row, left to right; NULL and 0 when it has none. */
const TvFlameBox      *tv_flame_layout_get_row     (TvFlameLayout *layout,
                                                    guint          row,
                                                    guint         *n_boxes);
/* The rows the layout covers: FIRST to FIRST + N - 1. */
void                   tv_flame_layout_get_rows    (TvFlameLayout *layout,
                                                    guint         *first,
                                                    guint         *n_rows);
/* Rows the zoom root's frames need, ancestors included, as far as frames
 * at least min_width wide go: the scrollable height is this times the row
 * height.  The walk counts them as it goes; it keeps no boxes for rows
 * outside the viewport. */
guint                  tv_flame_layout_get_content_rows (TvFlameLayout *layout);

/* The x, in the viewport's pixels, of SAMPLES from the zoom root's left
 * edge.  A box ends at the x of its start + samples: exactly where the
 * box beside it starts, which x + width need not be to the last bit. */
double                 tv_flame_layout_get_x        (TvFlameLayout    *layout,
                                                     guint64           samples);
/* Where BOX is, in the viewport's pixels; X and WIDTH are not clipped to
 * the viewport.  Any out parameter may be NULL. */
void                   tv_flame_layout_get_box_rect (TvFlameLayout    *layout,
                                                     const TvFlameBox *box,
                                                     double           *x,
                                                     double           *y,
                                                     double           *width,
                                                     double           *height);
/* The top of ROW, in the viewport's pixels. */
double                 tv_flame_layout_get_row_y    (TvFlameLayout    *layout,
                                                     guint             row);
/* The box at X, Y (viewport pixels), or NULL. */
const TvFlameBox      *tv_flame_layout_hit_test     (TvFlameLayout    *layout,
                                                     double            x,
                                                     double            y);
/* NODE's box, or the merged box that holds NODE, or NULL when NODE is in
 * none of the layout's boxes (outside the viewport, or under a merged box
 * or a frame whose children were not laid out). */
const TvFlameBox      *tv_flame_layout_lookup_node  (TvFlameLayout    *layout,
                                                     guint32           node);

/* The samples left of NODE within ROOT (where NODE starts, counted from
 * ROOT's left edge); FALSE when NODE is neither ROOT nor below it.  With
 * the zoom root, this gives the range an animated zoom ends on. */
gboolean               tv_flame_get_node_start      (TvCallTree *tree,
                                                     guint32     root,
                                                     guint32     node,
                                                     guint64    *start);

typedef enum
{
  TV_FLAME_PARENT,
  TV_FLAME_CHILD,              /* the child with the most samples */
  TV_FLAME_PREVIOUS_SIBLING,   /* in display order */
  TV_FLAME_NEXT_SIBLING,
} TvFlameDirection;

/* The node next to NODE in DIRECTION, or TV_NODE_NONE. */
guint32                tv_flame_navigate            (TvCallTree       *tree,
                                                     guint32           node,
                                                     TvFlameDirection  direction);

/* A search over a tree: which nodes match (by their merge key), which
 * subtrees hold a match, and how many samples pass through a match, each
 * counted once however many matches it passes through. */
typedef struct _TvFlameMatches TvFlameMatches;

/* KEY_MATCHES holds one byte per merge key of TREE (see
 * tv_profile_data_get_n_keys()), non-zero for a key that matches.  Safe
 * on any thread; NULL if CANCELLABLE was cancelled. */
TvFlameMatches *tv_flame_matches_new              (TvCallTree     *tree,
                                                   const guint8   *key_matches,
                                                   GCancellable   *cancellable);
/* The flame graph's search: the keys whose function name or "file:line"
 * REGEX matches.  NULL if CANCELLABLE was cancelled. */
TvFlameMatches *tv_flame_matches_new_for_regex    (TvCallTree     *tree,
                                                   GRegex         *regex,
                                                   GCancellable   *cancellable);
/* The keys of FUNCTION's frames (a TV_MERGE_FUNCTION key). */
TvFlameMatches *tv_flame_matches_new_for_function (TvCallTree     *tree,
                                                   guint32         function,
                                                   GCancellable   *cancellable);
TvFlameMatches *tv_flame_matches_ref              (TvFlameMatches *matches);
void            tv_flame_matches_unref            (TvFlameMatches *matches);

TvCallTree     *tv_flame_matches_get_tree         (TvFlameMatches *matches);
gboolean        tv_flame_matches_contains         (TvFlameMatches *matches,
                                                   guint32         node);
/* Whether NODE or a node below it matches. */
gboolean        tv_flame_matches_subtree_contains (TvFlameMatches *matches,
                                                   guint32         node);
guint32         tv_flame_matches_get_n_nodes      (TvFlameMatches *matches);
/* Samples whose path passes through a matching node. */
guint64         tv_flame_matches_get_n_samples    (TvFlameMatches *matches);
/* The next (or previous) matching node after NODE in display order (depth
 * first, children in display order), wrapping around; NODE need not
 * match, and TV_NODE_NONE starts from the beginning (or the end).
 * TV_NODE_NONE when nothing matches. */
guint32         tv_flame_matches_get_next         (TvFlameMatches *matches,
                                                   guint32         node,
                                                   gboolean        forward);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TvFlameLayout, tv_flame_layout_unref)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TvFlameMatches, tv_flame_matches_unref)

G_END_DECLS
