/* tv-flame-layout.c: boxes for a viewport, hit testing, search, navigation
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One depth-first walk from the zoom root, children left to right.  A
 * child at least min_width pixels wide gets a box and is walked into; a
 * run of narrower children becomes one merged box and is not walked into.
 * Children wholly left or right of the viewport get no box and are not
 * walked into either.  Depth first and left to right, each row's boxes
 * come out sorted by their start, which is what hit testing bisects.
 */
#include "tv-flame-layout.h"

#include <math.h>

#define DEFAULT_ROW_HEIGHT 18.0
/* How often the walk looks at the cancellable, in nodes. */
#define CANCEL_INTERVAL    1024

typedef struct
{
  GHashTable *frames;
  GHashTable *merged;
} BoxIndex;

struct _TvFlameLayout
{
  gatomicrefcount  ref_count;
  TvCallTree      *tree;
  TvFlameViewport  viewport;
  double           scale;           /* pixels per sample */

  TvFlameBox      *boxes;
  guint            n_boxes;
  guint            first_row;
  guint            n_rows;
  guint           *row_start;       /* n_rows + 1, into boxes */
  guint            content_rows;

  /* Made on the first lookup (from any thread): box index + 1 by node,
   * for frames, and for the first merged box of each parent. */
  BoxIndex        *index;
};

void
tv_flame_viewport_init (TvFlameViewport *viewport,
                        TvCallTree      *tree,
                        double           width,
                        double           height)
{
  g_return_if_fail (viewport != NULL);
  g_return_if_fail (tree != NULL);

  memset (viewport, 0, sizeof *viewport);
  viewport->root = TV_ROOT_NODE;
  viewport->x0 = 0;
  viewport->x1 = MAX (tv_call_tree_get_n_samples (tree), 1);
  viewport->width = width;
  viewport->height = height;
  viewport->row_height = DEFAULT_ROW_HEIGHT;
  viewport->orientation = TV_FLAME_ORIENTATION_FLAME;
  viewport->show_ancestors = TRUE;
  viewport->min_width = 1.0;
}

/* ------------------------------------------------------------------------ */
/* The walk                                                                  */
/* ------------------------------------------------------------------------ */

typedef struct
{
  TvFlameBox *boxes;
  guint       len;
  guint       capacity;
} BoxArray;

static inline void
box_array_push (BoxArray         *a,
                const TvFlameBox *box)
{
  if (G_UNLIKELY (a->len == a->capacity))
    {
      a->capacity = MAX (a->capacity * 2, 64);
      a->boxes = g_renew (TvFlameBox, a->boxes, a->capacity);
    }
  a->boxes[a->len++] = *box;
}

typedef struct
{
  TvCallTree    *tree;
  GCancellable  *cancellable;
  double         x0;
  double         x1;
  /* A child of fewer samples than this is merged. */
  double         min_samples;
  guint          base_depth;      /* the depth of row 0 */
  guint          first_row;
  guint          last_row;
  BoxArray      *rows;            /* by row - first_row */
  guint          n_alloc;         /* rows allocated, as far as reached */
  guint          deepest;         /* the deepest row reached, plus one */
  guint          visited;
  gboolean       cancelled;
} Walk;

static inline gboolean
in_view (const Walk *w,
         guint64     start,
         guint64     samples)
{
  return (double) start < w->x1 && (double) (start + samples) > w->x0;
}

static inline void
emit (Walk             *w,
      const TvFlameBox *box)
{
  guint r;

  if (box->row < w->first_row || box->row > w->last_row)
    return;
  r = box->row - w->first_row;
  if (G_UNLIKELY (r >= w->n_alloc))
    {
      guint n = CLAMP (w->n_alloc * 2, r + 1, w->last_row - w->first_row + 1);

      w->rows = g_renew (BoxArray, w->rows, n);
      memset (w->rows + w->n_alloc, 0, (n - w->n_alloc) * sizeof (BoxArray));
      w->n_alloc = n;
    }
  box_array_push (&w->rows[r], box);
}

/* Lays out NODE, START samples from the zoom root's left edge, in ROW,
 * and what is under it.  NODE is in view and wide enough. */
static void
walk_node (Walk    *w,
           guint32  node,
           guint64  start,
           guint    row)
{
  TvCallTree *tree = w->tree;
  TvFlameBox box = { start, tv_call_tree_get_total (tree, node), node, 0, 0, row, 0 };
  const guint32 *children;
  guint n_children;
  guint64 offset = start;
  guint64 run_start = 0, run_samples = 0;
  guint run_first = 0, run_n = 0;
  guint16 run_flags = TV_FLAME_BOX_MERGED;
  guint64 remainder;
  guint i;

  if (w->cancelled)
    return;
  if (++w->visited % CANCEL_INTERVAL == 0 && g_cancellable_is_cancelled (w->cancellable))
    {
      w->cancelled = TRUE;
      return;
    }

  emit (w, &box);
  w->deepest = MAX (w->deepest, row + 1);
  /* Rows are 16-bit.  A tree is no deeper than a stack (256 frames), so
   * neither this nor the recursion's depth is ever near a limit. */
  if (row + 1 > G_MAXUINT16)
    return;

  children = tv_call_tree_get_children (tree, node, &n_children);
  for (i = 0; i < n_children; i++)
    {
      guint32 child = children[i];
      guint64 samples = tv_call_tree_get_total (tree, child);

      if ((double) samples < w->min_samples)
        {
          if (run_n == 0)
            {
              run_first = i;
              run_start = offset;
              run_samples = 0;
            }
          run_samples += samples;
          run_n++;
        }
      else
        {
          if (run_n > 0)
            {
              TvFlameBox merged = { run_start, run_samples, node, run_first, run_n, row + 1,
                                    TV_FLAME_BOX_MERGED };

              if (in_view (w, run_start, run_samples))
                {
                  emit (w, &merged);
                  w->deepest = MAX (w->deepest, row + 2);
                }
              run_n = 0;
            }
          if (in_view (w, offset, samples))
            walk_node (w, child, offset, row + 1);
        }
      offset += samples;

      /* The rest is right of the viewport; a run that started left of its
       * edge still takes every small child that follows, so that a merged
       * box is the same whatever the viewport. */
      if ((double) offset >= w->x1 && run_n == 0)
        break;
    }
  /* The children left out come last, with the small ones before them
   * if those ran to the end. */
  remainder = tv_call_tree_get_remainder (tree, node);
  if (remainder > 0 && i >= n_children)
    {
      if (run_n == 0)
        {
          run_first = n_children;
          run_start = offset;
          run_samples = 0;
        }
      run_samples += remainder;
      run_flags |= TV_FLAME_BOX_REMAINDER;
    }
  if ((run_n > 0 || (run_flags & TV_FLAME_BOX_REMAINDER)) && in_view (w, run_start, run_samples))
    {
      TvFlameBox merged = { run_start, run_samples, node, run_first, run_n, row + 1,
                            run_flags };

      emit (w, &merged);
      w->deepest = MAX (w->deepest, row + 2);
    }
}

/* The rows [FIRST, LAST] that intersect the viewport's height. */
static void
visible_rows (const TvFlameViewport *vp,
              guint                 *first,
              guint                 *last)
{
  double top, bottom;

  if (vp->height <= 0)
    {
      *first = 0;
      *last = G_MAXUINT16;
      return;
    }
  /* Both orientations show the rows in [scroll_y, scroll_y + height),
   * counted in pixels from the root's edge. */
  top = MAX (vp->scroll_y, 0.0) / vp->row_height;
  bottom = (vp->scroll_y + vp->height) / vp->row_height;
  if (bottom <= 0)
    {
      *first = 1;
      *last = 0;
      return;
    }
  *first = (guint) MIN (floor (top), G_MAXUINT16);
  *last = (guint) MIN (ceil (bottom) - 1, G_MAXUINT16);
}

/**
 * tv_flame_layout_new:
 *
 * Lays out TREE for VIEWPORT.  Safe on any thread.
 *
 * Returns: (transfer full) (nullable): the layout, or %NULL if cancelled
 */
TvFlameLayout *
tv_flame_layout_new (TvCallTree            *tree,
                     const TvFlameViewport *viewport,
                     GCancellable          *cancellable)
{
  g_autoptr(TvFlameLayout) self = NULL;
  Walk w = { 0 };
  guint32 root;
  guint root_depth;
  guint64 root_total;

  g_return_val_if_fail (tree != NULL, NULL);
  g_return_val_if_fail (viewport != NULL, NULL);
  g_return_val_if_fail (viewport->root < tv_call_tree_get_n_nodes (tree), NULL);
  g_return_val_if_fail (viewport->row_height > 0, NULL);

  if (g_cancellable_is_cancelled (cancellable))
    return NULL;

  self = g_new0 (TvFlameLayout, 1);
  g_atomic_ref_count_init (&self->ref_count);
  self->tree = tv_call_tree_ref (tree);
  self->viewport = *viewport;
  if (!(self->viewport.min_width > 0))
    self->viewport.min_width = 1.0;
  /* An empty or backwards range would divide by zero or mirror the graph:
   * show one sample instead. */
  if (!(self->viewport.x1 > self->viewport.x0))
    self->viewport.x1 = self->viewport.x0 + 1;
  self->scale = MAX (self->viewport.width, 0.0) / (self->viewport.x1 - self->viewport.x0);

  root = viewport->root;
  root_depth = tv_call_tree_get_depth (tree, root);
  root_total = tv_call_tree_get_total (tree, root);

  w.tree = tree;
  w.cancellable = cancellable;
  w.x0 = self->viewport.x0;
  w.x1 = self->viewport.x1;
  w.min_samples = self->scale > 0 ? self->viewport.min_width / self->scale : INFINITY;
  w.base_depth = self->viewport.show_ancestors ? 0 : root_depth;
  visible_rows (&self->viewport, &w.first_row, &w.last_row);

  self->first_row = w.first_row;
  self->n_rows = w.last_row >= w.first_row ? w.last_row - w.first_row + 1 : 0;

  if (root_total > 0 && in_view (&w, 0, root_total) && self->n_rows > 0)
    {
      /* The ancestors, as wide as the zoom root. */
      if (self->viewport.show_ancestors)
        for (guint32 a = tv_call_tree_get_parent (tree, root); a != TV_NODE_NONE;
             a = tv_call_tree_get_parent (tree, a))
          {
            TvFlameBox box = { 0, root_total, a, 0, 0, tv_call_tree_get_depth (tree, a),
                               TV_FLAME_BOX_ANCESTOR };

            emit (&w, &box);
          }
      walk_node (&w, root, 0, root_depth - w.base_depth);
    }

  if (w.cancelled || g_cancellable_is_cancelled (cancellable))
    {
      for (guint r = 0; r < w.n_alloc; r++)
        g_free (w.rows[r].boxes);
      g_free (w.rows);
      return NULL;
    }
  /* With every row asked for, the layout covers the rows that have boxes. */
  if (self->viewport.height <= 0)
    self->n_rows = MIN (w.deepest, self->n_rows);
  for (guint r = self->n_rows; r < w.n_alloc; r++)
    g_assert (w.rows[r].len == 0);

  /* One array, row by row. */
  self->row_start = g_new (guint, self->n_rows + 1);
  for (guint r = 0; r < self->n_rows; r++)
    {
      self->row_start[r] = self->n_boxes;
      self->n_boxes += r < w.n_alloc ? w.rows[r].len : 0;
    }
  self->row_start[self->n_rows] = self->n_boxes;
  self->boxes = g_new (TvFlameBox, MAX (self->n_boxes, 1));
  for (guint r = 0; r < w.n_alloc; r++)
    {
      if (w.rows[r].len > 0)
        memcpy (self->boxes + self->row_start[r], w.rows[r].boxes,
                w.rows[r].len * sizeof (TvFlameBox));
      g_free (w.rows[r].boxes);
    }
  g_free (w.rows);
  self->content_rows = w.deepest;

  return g_steal_pointer (&self);
}

TvFlameLayout *
tv_flame_layout_ref (TvFlameLayout *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_atomic_ref_count_inc (&self->ref_count);
  return self;
}

void
tv_flame_layout_unref (TvFlameLayout *self)
{
  if (self == NULL || !g_atomic_ref_count_dec (&self->ref_count))
    return;
  tv_call_tree_unref (self->tree);
  g_free (self->boxes);
  g_free (self->row_start);
  if (self->index != NULL)
    {
      g_hash_table_unref (self->index->frames);
      g_hash_table_unref (self->index->merged);
      g_free (self->index);
    }
  g_free (self);
}

TvCallTree *
tv_flame_layout_get_tree (TvFlameLayout *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->tree;
}

const TvFlameViewport *
tv_flame_layout_get_viewport (TvFlameLayout *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return &self->viewport;
}

const TvFlameBox *
tv_flame_layout_get_boxes (TvFlameLayout *self,
                           guint         *n_boxes)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (n_boxes != NULL, NULL);
  *n_boxes = self->n_boxes;
  return self->boxes;
}

const TvFlameBox *
tv_flame_layout_get_row (TvFlameLayout *self,
                         guint          row,
                         guint         *n_boxes)
{
  guint r;

  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (n_boxes != NULL, NULL);

  *n_boxes = 0;
  if (row < self->first_row || row - self->first_row >= self->n_rows)
    return NULL;
  r = row - self->first_row;
  *n_boxes = self->row_start[r + 1] - self->row_start[r];
  return *n_boxes > 0 ? self->boxes + self->row_start[r] : NULL;
}

void
tv_flame_layout_get_rows (TvFlameLayout *self,
                          guint         *first,
                          guint         *n_rows)
{
  g_return_if_fail (self != NULL);
  if (first != NULL)
    *first = self->first_row;
  if (n_rows != NULL)
    *n_rows = self->n_rows;
}

guint
tv_flame_layout_get_content_rows (TvFlameLayout *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->content_rows;
}

/* The height the rows are placed in: a flame graph stands on the bottom
 * of it.  With every row laid out, the content decides; a graph that
 * hangs from the top is no higher than its content. */
static double
layout_height (TvFlameLayout *self)
{
  double content = self->content_rows * self->viewport.row_height;

  if (self->viewport.height <= 0)
    return content;
  if (self->viewport.hang_from_top)
    return MIN (self->viewport.height, content);
  return self->viewport.height;
}

double
tv_flame_layout_get_row_y (TvFlameLayout *self,
                           guint          row)
{
  const TvFlameViewport *vp;

  g_return_val_if_fail (self != NULL, 0);
  vp = &self->viewport;
  if (vp->orientation == TV_FLAME_ORIENTATION_ICICLE)
    return row * vp->row_height - vp->scroll_y;
  return layout_height (self) - (row + 1) * vp->row_height + vp->scroll_y;
}

double
tv_flame_layout_get_x (TvFlameLayout *self,
                       guint64        samples)
{
  g_return_val_if_fail (self != NULL, 0);

  return ((double) samples - self->viewport.x0) * self->scale;
}

void
tv_flame_layout_get_box_rect (TvFlameLayout    *self,
                              const TvFlameBox *box,
                              double           *x,
                              double           *y,
                              double           *width,
                              double           *height)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (box != NULL);

  if (x != NULL)
    *x = tv_flame_layout_get_x (self, box->start);
  if (width != NULL)
    *width = (double) box->samples * self->scale;
  if (y != NULL)
    *y = tv_flame_layout_get_row_y (self, box->row);
  if (height != NULL)
    *height = self->viewport.row_height;
}

const TvFlameBox *
tv_flame_layout_hit_test (TvFlameLayout *self,
                          double         x,
                          double         y)
{
  const TvFlameViewport *vp;
  const TvFlameBox *row_boxes;
  double from_root, sample;
  guint n, lo, hi;

  g_return_val_if_fail (self != NULL, NULL);

  vp = &self->viewport;
  if (!(x >= 0 && x < vp->width) || self->scale <= 0)
    return NULL;
  if (vp->height > 0 && !(y >= 0 && y < vp->height))
    return NULL;

  /* Pixels from the root's edge of row 0. */
  if (vp->orientation == TV_FLAME_ORIENTATION_ICICLE)
    from_root = y + vp->scroll_y;
  else
    from_root = layout_height (self) + vp->scroll_y - y;
  if (from_root < 0)
    return NULL;
  /* A flame graph's row R spans (R, R + 1] row heights from the bottom;
   * an icicle's [R, R + 1) from the top. */
  if (vp->orientation == TV_FLAME_ORIENTATION_ICICLE)
    row_boxes = tv_flame_layout_get_row (self, (guint) MIN (floor (from_root / vp->row_height),
                                                          G_MAXUINT), &n);
  else if (from_root > 0)
    row_boxes = tv_flame_layout_get_row (self, (guint) MIN (ceil (from_root / vp->row_height) - 1,
                                                          G_MAXUINT), &n);
  else
    return NULL;
  if (row_boxes == NULL)
    return NULL;

  /* The last box that starts at or before the sample under X. */
  sample = vp->x0 + x / self->scale;
  lo = 0;
  hi = n;
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if ((double) row_boxes[mid].start <= sample)
        lo = mid + 1;
      else
        hi = mid;
    }
  if (lo == 0)
    return NULL;
  if (sample < (double) (row_boxes[lo - 1].start + row_boxes[lo - 1].samples))
    return &row_boxes[lo - 1];
  return NULL;
}

/* The position of CHILD among NODE's children, or -1. */
static gint64
child_index (TvCallTree *tree,
             guint32     node,
             guint32     child)
{
  guint n;
  const guint32 *children = tv_call_tree_get_children (tree, node, &n);

  for (guint i = 0; i < n; i++)
    if (children[i] == child)
      return i;
  return -1;
}

static BoxIndex *
ensure_index (TvFlameLayout *self)
{
  if (g_once_init_enter (&self->index))
    {
      BoxIndex *index = g_new (BoxIndex, 1);

      index->frames = g_hash_table_new (NULL, NULL);
      index->merged = g_hash_table_new (NULL, NULL);
      for (guint i = 0; i < self->n_boxes; i++)
        {
          guint32 node = self->boxes[i].node;

          if (!(self->boxes[i].flags & TV_FLAME_BOX_MERGED))
            g_hash_table_insert (index->frames, GUINT_TO_POINTER (node), GUINT_TO_POINTER (i + 1));
          else if (!g_hash_table_contains (index->merged, GUINT_TO_POINTER (node)))
            g_hash_table_insert (index->merged, GUINT_TO_POINTER (node), GUINT_TO_POINTER (i + 1));
        }
      g_once_init_leave (&self->index, index);
    }
  return self->index;
}

const TvFlameBox *
tv_flame_layout_lookup_node (TvFlameLayout *self,
                             guint32        node)
{
  TvCallTree *tree;
  BoxIndex *index;
  guint32 parent;
  guint i;
  gint64 child;

  g_return_val_if_fail (self != NULL, NULL);

  tree = self->tree;
  if (node >= tv_call_tree_get_n_nodes (tree))
    return NULL;
  index = ensure_index (self);
  i = GPOINTER_TO_UINT (g_hash_table_lookup (index->frames, GUINT_TO_POINTER (node)));
  if (i > 0)
    return &self->boxes[i - 1];

  /* In a merged box of its parent's?  They follow the parent's first one
   * in its row, among the parent's other children. */
  parent = tv_call_tree_get_parent (tree, node);
  if (parent == TV_NODE_NONE)
    return NULL;
  i = GPOINTER_TO_UINT (g_hash_table_lookup (index->merged, GUINT_TO_POINTER (parent)));
  if (i == 0)
    return NULL;
  child = child_index (tree, parent, node);
  for (i = i - 1; i < self->n_boxes; i++)
    {
      const TvFlameBox *box = &self->boxes[i];

      if (box->flags & TV_FLAME_BOX_MERGED)
        {
          if (box->node != parent)
            break;
          if (child >= box->first && child < (gint64) box->first + box->n_merged)
            return box;
        }
      else if ((box->flags & TV_FLAME_BOX_ANCESTOR)
               || tv_call_tree_get_parent (tree, box->node) != parent)
        break;
    }
  return NULL;
}

/* ------------------------------------------------------------------------ */
/* Tree helpers                                                              */
/* ------------------------------------------------------------------------ */

gboolean
tv_flame_get_node_start (TvCallTree *tree,
                         guint32     root,
                         guint32     node,
                         guint64    *start)
{
  guint64 offset = 0;
  guint32 n;

  g_return_val_if_fail (tree != NULL, FALSE);

  if (root >= tv_call_tree_get_n_nodes (tree) || node >= tv_call_tree_get_n_nodes (tree))
    return FALSE;
  for (n = node; n != root; n = tv_call_tree_get_parent (tree, n))
    {
      guint32 parent = tv_call_tree_get_parent (tree, n);
      const guint32 *children;
      guint n_children;

      if (parent == TV_NODE_NONE)
        return FALSE;
      children = tv_call_tree_get_children (tree, parent, &n_children);
      for (guint i = 0; i < n_children && children[i] != n; i++)
        offset += tv_call_tree_get_total (tree, children[i]);
    }
  if (start != NULL)
    *start = offset;
  return TRUE;
}

guint32
tv_flame_navigate (TvCallTree       *tree,
                   guint32           node,
                   TvFlameDirection  direction)
{
  const guint32 *children;
  guint n_children;
  guint32 parent, best = TV_NODE_NONE;
  gint64 index;

  g_return_val_if_fail (tree != NULL, TV_NODE_NONE);
  if (node >= tv_call_tree_get_n_nodes (tree))
    return TV_NODE_NONE;

  switch (direction)
    {
    case TV_FLAME_PARENT:
      return tv_call_tree_get_parent (tree, node);

    case TV_FLAME_CHILD:
      children = tv_call_tree_get_children (tree, node, &n_children);
      for (guint i = 0; i < n_children; i++)
        if (best == TV_NODE_NONE
            || tv_call_tree_get_total (tree, children[i]) > tv_call_tree_get_total (tree, best))
          best = children[i];
      return best;

    case TV_FLAME_PREVIOUS_SIBLING:
    case TV_FLAME_NEXT_SIBLING:
      parent = tv_call_tree_get_parent (tree, node);
      if (parent == TV_NODE_NONE)
        return TV_NODE_NONE;
      children = tv_call_tree_get_children (tree, parent, &n_children);
      index = child_index (tree, parent, node);
      g_assert (index >= 0);
      if (direction == TV_FLAME_PREVIOUS_SIBLING)
        return index > 0 ? children[index - 1] : TV_NODE_NONE;
      return index + 1 < n_children ? children[index + 1] : TV_NODE_NONE;

    default:
      g_return_val_if_reached (TV_NODE_NONE);
    }
}

/* ------------------------------------------------------------------------ */
/* Search                                                                    */
/* ------------------------------------------------------------------------ */

enum
{
  MATCH_SELF    = 1 << 0,
  MATCH_SUBTREE = 1 << 1,      /* the node or one below it */
  MATCH_INSIDE  = 1 << 2,      /* an ancestor matches */
};

struct _TvFlameMatches
{
  gatomicrefcount  ref_count;
  TvCallTree      *tree;
  guint8          *flags;          /* per node */
  guint64          n_samples;
  guint32          n_matches;
};

TvFlameMatches *
tv_flame_matches_new (TvCallTree   *tree,
                      const guint8 *key_matches,
                      GCancellable *cancellable)
{
  g_autoptr(TvFlameMatches) self = NULL;
  const guint32 *parent, *key;
  guint32 n_nodes;

  g_return_val_if_fail (tree != NULL, NULL);
  g_return_val_if_fail (key_matches != NULL, NULL);

  n_nodes = tv_call_tree_get_n_nodes (tree);
  self = g_new0 (TvFlameMatches, 1);
  g_atomic_ref_count_init (&self->ref_count);
  self->tree = tv_call_tree_ref (tree);
  self->flags = g_new0 (guint8, n_nodes);

  /* Parents come before their children: one pass down for the nodes
   * inside a match, and from each match up to the first ancestor already
   * known to hold one, so that the subtrees holding a match cost what
   * they mark.  The display order needs no pass of its own:
   * tv_flame_matches_get_next() finds its way down the subtrees that hold
   * a match. */
  parent = tv_call_tree_get_parents (tree);
  key = tv_call_tree_get_keys (tree);
  for (guint32 n = 1; n < n_nodes; n++)
    {
      guint32 p = parent[n];
      gboolean inside = (self->flags[p] & (MATCH_SELF | MATCH_INSIDE)) != 0;

      if (inside)
        self->flags[n] = MATCH_INSIDE;
      if (key_matches[key[n]])
        {
          self->flags[n] |= MATCH_SELF | MATCH_SUBTREE;
          self->n_matches++;
          /* Only the outermost match of a path counts its samples. */
          if (!inside)
            self->n_samples += tv_call_tree_get_total (tree, n);
          for (guint32 a = p; a != TV_NODE_NONE && !(self->flags[a] & MATCH_SUBTREE); a = parent[a])
            self->flags[a] |= MATCH_SUBTREE;
        }
      if (n % (64 * CANCEL_INTERVAL) == 0 && g_cancellable_is_cancelled (cancellable))
        return NULL;
    }
  if (g_cancellable_is_cancelled (cancellable))
    return NULL;

  return g_steal_pointer (&self);
}

TvFlameMatches *
tv_flame_matches_new_for_regex (TvCallTree   *tree,
                                GRegex       *regex,
                                GCancellable *cancellable)
{
  TvProfileData *data;
  TvMergeKey merge;
  guint32 n_keys;
  g_autofree guint8 *key_matches = NULL;
  g_autoptr(GString) location = g_string_new (NULL);

  g_return_val_if_fail (tree != NULL, NULL);
  g_return_val_if_fail (regex != NULL, NULL);

  data = tv_call_tree_get_data (tree);
  merge = tv_call_tree_get_merge (tree);
  n_keys = tv_profile_data_get_n_keys (data, merge);
  key_matches = g_new0 (guint8, MAX (n_keys, 1));
  for (guint32 key = 0; key < n_keys; key++)
    {
      guint32 frame = tv_profile_data_get_key_frame (data, merge, key);
      TvFrameLocation f;

      if ((key & 1023) == 0 && g_cancellable_is_cancelled (cancellable))
        return NULL;
      /* The reader made every string valid UTF-8, as GRegex needs.  A
       * node merged by function stands for all its lines: it has none to
       * match (the exported page follows the same rule). */
      g_string_assign (location, tv_profile_data_get_filename (data, frame));
      if (merge != TV_MERGE_FUNCTION && tv_profile_data_get_frame_location (data, frame, &f)
          && f.line >= 0)
        g_string_append_printf (location, ":%d", f.line);
      key_matches[key] = g_regex_match (regex, tv_profile_data_get_funcname (data, frame), 0, NULL)
                         || g_regex_match (regex, location->str, 0, NULL);
    }
  return tv_flame_matches_new (tree, key_matches, cancellable);
}

TvFlameMatches *
tv_flame_matches_new_for_function (TvCallTree   *tree,
                                   guint32       function,
                                   GCancellable *cancellable)
{
  TvProfileData *data;
  TvMergeKey merge;
  const guint32 *function_keys;
  guint32 n_keys;
  g_autofree guint8 *key_matches = NULL;

  g_return_val_if_fail (tree != NULL, NULL);

  data = tv_call_tree_get_data (tree);
  merge = tv_call_tree_get_merge (tree);
  function_keys = tv_profile_data_get_frame_keys (data, TV_MERGE_FUNCTION);
  n_keys = tv_profile_data_get_n_keys (data, merge);
  key_matches = g_new0 (guint8, MAX (n_keys, 1));
  for (guint32 key = 0; key < n_keys; key++)
    key_matches[key] = function_keys[tv_profile_data_get_key_frame (data, merge, key)] == function;
  return tv_flame_matches_new (tree, key_matches, cancellable);
}

TvFlameMatches *
tv_flame_matches_ref (TvFlameMatches *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_atomic_ref_count_inc (&self->ref_count);
  return self;
}

void
tv_flame_matches_unref (TvFlameMatches *self)
{
  if (self == NULL || !g_atomic_ref_count_dec (&self->ref_count))
    return;
  tv_call_tree_unref (self->tree);
  g_free (self->flags);
  g_free (self);
}

TvCallTree *
tv_flame_matches_get_tree (TvFlameMatches *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->tree;
}

gboolean
tv_flame_matches_contains (TvFlameMatches *self,
                           guint32         node)
{
  g_return_val_if_fail (self != NULL, FALSE);
  return node < tv_call_tree_get_n_nodes (self->tree) && (self->flags[node] & MATCH_SELF);
}

gboolean
tv_flame_matches_subtree_contains (TvFlameMatches *self,
                                   guint32         node)
{
  g_return_val_if_fail (self != NULL, FALSE);
  return node < tv_call_tree_get_n_nodes (self->tree) && (self->flags[node] & MATCH_SUBTREE);
}

guint32
tv_flame_matches_get_n_nodes (TvFlameMatches *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->n_matches;
}

guint64
tv_flame_matches_get_n_samples (TvFlameMatches *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->n_samples;
}

/* The first match of NODE's subtree in display order (NODE first, then
 * its children's subtrees in order), or the last; NODE holds one. */
static guint32
edge_match (TvFlameMatches *self,
            guint32         node,
            gboolean        first)
{
  for (;;)
    {
      guint n_children;
      const guint32 *children = tv_call_tree_get_children (self->tree, node, &n_children);
      guint32 next = TV_NODE_NONE;

      if (first && (self->flags[node] & MATCH_SELF))
        return node;
      for (guint i = 0; i < n_children && next == TV_NODE_NONE; i++)
        {
          guint32 c = children[first ? i : n_children - 1 - i];

          if (self->flags[c] & MATCH_SUBTREE)
            next = c;
        }
      if (next == TV_NODE_NONE)
        {
          /* Only NODE itself is left. */
          g_assert (self->flags[node] & MATCH_SELF);
          return node;
        }
      node = next;
    }
}

/* The match after (FORWARD) or before NODE in display order, found by
 * walking up from NODE to the first sibling subtree that holds one: a
 * few steps a level, never the whole tree.  TV_NODE_NONE past the end. */
static guint32
adjacent_match (TvFlameMatches *self,
                guint32         node,
                gboolean        forward)
{
  TvCallTree *tree = self->tree;

  /* Forward, what comes first after a node is its own subtree. */
  if (forward)
    {
      guint n_children;
      const guint32 *children = tv_call_tree_get_children (tree, node, &n_children);

      for (guint i = 0; i < n_children; i++)
        if (self->flags[children[i]] & MATCH_SUBTREE)
          return edge_match (self, children[i], TRUE);
    }
  while (node != TV_ROOT_NODE)
    {
      guint32 parent = tv_call_tree_get_parent (tree, node);
      guint n_siblings, at = 0;
      const guint32 *siblings = tv_call_tree_get_children (tree, parent, &n_siblings);

      while (at < n_siblings && siblings[at] != node)
        at++;
      g_assert (at < n_siblings);
      if (forward)
        {
          for (guint i = at + 1; i < n_siblings; i++)
            if (self->flags[siblings[i]] & MATCH_SUBTREE)
              return edge_match (self, siblings[i], TRUE);
        }
      else
        {
          for (guint i = at; i > 0; i--)
            if (self->flags[siblings[i - 1]] & MATCH_SUBTREE)
              return edge_match (self, siblings[i - 1], FALSE);
          /* Before a node's children comes the node itself. */
          if (self->flags[parent] & MATCH_SELF)
            return parent;
        }
      node = parent;
    }
  return TV_NODE_NONE;
}

guint32
tv_flame_matches_get_next (TvFlameMatches *self,
                           guint32         node,
                           gboolean        forward)
{
  guint32 next = TV_NODE_NONE;

  g_return_val_if_fail (self != NULL, TV_NODE_NONE);

  if (self->n_matches == 0)
    return TV_NODE_NONE;
  if (node < tv_call_tree_get_n_nodes (self->tree))
    next = adjacent_match (self, node, forward);
  /* From nowhere, or past either end: round to the other end. */
  return next != TV_NODE_NONE ? next : edge_match (self, TV_ROOT_NODE, forward);
}
