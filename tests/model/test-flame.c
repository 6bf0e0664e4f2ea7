/* test-flame.c: the flame graph's layout and renderer, checked by structure
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Layouts of corpus profiles and of random trees (wide, skewed fan-out, so
 * that many frames are narrower than a pixel) are checked against the call
 * tree they come from, for many viewports:
 *
 *  - every frame's box is as wide as its samples say, in samples and in
 *    pixels, and at least min_width pixels;
 *  - a merged box stands for a maximal run of consecutive children, each
 *    narrower than min_width, and for exactly their samples;
 *  - under every parent laid out, the boxes of the next row account for
 *    each child exactly once and add up to the parent's total less its
 *    self samples, from the parent's left edge;
 *  - rows are sorted and disjoint, inside the viewport, and the rows laid
 *    out are those the viewport shows, with the same boxes as a layout of
 *    every row;
 *  - hit testing the middle of every box finds it, a parent's self gap,
 *    points outside the viewport and rows past the content find nothing,
 *    and lookup by node finds the box (or the merged box) of a node;
 *  - flame and icicle are mirror images; a zoom root and the same range of
 *    the tree's root show the same boxes in the same places;
 *  - the inverted tree's first row adds up the self samples of the
 *    top-down tree, key by key.
 *
 * Drawings on image surfaces are checked pixel by pixel where no label
 * can be (each box's top-left corner has the box's fill, the gaps the
 * background), through both ways the renderer draws boxes (a fill per
 * box, and an image for thousands); hover, selection and search change
 * what they should.  PNGs of a corpus profile, light and dark, go to the
 * build directory to be looked at.
 *
 * The seed is printed; TACH_SEED replays a run.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <glib.h>
#include <glib/gstdio.h>

#include "format-test-util.h"
#include "model-fixture.h"
#include "tv-flame-renderer.h"

#define N_RANDOM_TREES 12

G_DEFINE_AUTOPTR_CLEANUP_FUNC (cairo_surface_t, cairo_surface_destroy)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (cairo_t, cairo_destroy)

static guint32 base_seed;
/* Boxes of children a pruned tree left out, laid out so far. */
static guint n_remainder_boxes;

/* ------------------------------------------------------------------------ */
/* Profiles                                                                  */
/* ------------------------------------------------------------------------ */

static const char *const random_files[] = {
  "/usr/lib/python3.15/json/encoder.py",
  "/usr/lib/python3.15/threading.py",
  "<frozen importlib._bootstrap>",
  "/srv/app/.venv/lib/python3.15/site-packages/requests/sessions.py",
  "/srv/app/.venv/lib/python3.15/site-packages/numpy/_core/numeric.py",
  "/srv/app/src/shop/models.py",
  "/srv/app/src/shop/views/__init__.py",
  "<string>",
};

static const char *const random_names[] = {
  "main", "run", "handle_request", "encode", "iterencode", "_bootstrap_inner",
  "wait", "get", "parse_row", "validate", "render_template", "<module>",
  "très_long_nom_de_fonction_avec_des_accents_et_plus_encore", "处理请求", "λ",
};

/* A random profile whose tree fans out widely with skewed weights: at each
 * level a frame is picked with a Zipf-like law from up to 40, and the
 * stack stops with some probability, so every parent has a few wide
 * children and a long tail of narrow ones. */
static void
generate_profile (GRand      *rand,
                  const char *path)
{
  TachWriterOptions options = { 0 };
  TachWriter *writer = NULL;
  TachError error;
  guint32 frames[160];
  guint n_frames = g_rand_int_range (rand, 20, G_N_ELEMENTS (frames));
  guint n_samples = g_rand_int_range (rand, 2000, 30000);
  guint fan_out = g_rand_int_range (rand, 3, 40);
  double stop = g_rand_double_range (rand, 0.08, 0.3);

  options.sample_interval_us = 1000;
  options.mode_raw = 1;
  if (tach_writer_new (path, &options, &writer, &error) != TACH_OK)
    g_error ("writer: %s", error.message);
  for (guint f = 0; f < n_frames; f++)
    {
      TachFrameInfo info = {
        random_files[g_rand_int_range (rand, 0, G_N_ELEMENTS (random_files))],
        random_names[g_rand_int_range (rand, 0, G_N_ELEMENTS (random_names))],
        g_rand_int_range (rand, -1, 500), -1, -1, -1, TACH_OPCODE_NONE,
      };

      if (tach_writer_intern_frame (writer, &info, &frames[f], &error) != TACH_OK)
        g_error ("intern: %s", error.message);
    }

  for (guint s = 0; s < n_samples; s++)
    {
      guint32 stack[64];
      guint depth = 0;
      static const guint8 statuses[] = {
        0, TACH_STATUS_HAS_GIL | TACH_STATUS_ON_CPU, TACH_STATUS_ON_CPU,
        TACH_STATUS_GIL_REQUESTED, TACH_STATUS_HAS_EXCEPTION | TACH_STATUS_HAS_GIL,
      };
      guint32 path_hash = 0;

      while (depth < G_N_ELEMENTS (stack) && (depth == 0 || g_rand_double (rand) > stop))
        {
          /* Zipf-like: index k with weight 1 / (k + 1)^1.3, made from a
           * uniform draw by inversion, roughly. */
          double u = g_rand_double (rand);
          guint k = (guint) (pow (fan_out + 1.0, u) - 1.0);

          k = MIN (k, fan_out - 1);
          path_hash = path_hash * 31 + k + 1;
          stack[depth++] = frames[(path_hash + k) % n_frames];
        }
      /* The writer wants the innermost frame first. */
      for (guint i = 0; i < depth / 2; i++)
        {
          guint32 t = stack[i];

          stack[i] = stack[depth - 1 - i];
          stack[depth - 1 - i] = t;
        }
      if (tach_writer_add_sample (writer, 1 + s % 3, 0, 1000 + s,
                                  statuses[g_rand_int_range (rand, 0, G_N_ELEMENTS (statuses))],
                                  stack, depth, &error) != TACH_OK)
        g_error ("sample: %s", error.message);
    }
  if (tach_writer_finish (writer, &error) != TACH_OK)
    g_error ("finish: %s", error.message);
}

/* ------------------------------------------------------------------------ */
/* Layout structure                                                          */
/* ------------------------------------------------------------------------ */

static double
scale_of (const TvFlameViewport *vp)
{
  return vp->width / (vp->x1 - vp->x0);
}

static gboolean
near (double a,
      double b)
{
  return fabs (a - b) <= 1e-6 * MAX (1.0, MAX (fabs (a), fabs (b)));
}

static guint
base_depth (TvCallTree            *tree,
            const TvFlameViewport *vp)
{
  return vp->show_ancestors ? 0 : tv_call_tree_get_depth (tree, vp->root);
}

/* The middle of the visible part of BOX, or FALSE when none is visible. */
static gboolean
box_middle (TvFlameLayout    *layout,
            const TvFlameBox *box,
            double           *mx,
            double           *my)
{
  const TvFlameViewport *vp = tv_flame_layout_get_viewport (layout);
  double x, y, w, h, l, r, t, b;

  tv_flame_layout_get_box_rect (layout, box, &x, &y, &w, &h);
  l = MAX (x, 0);
  r = MIN (x + w, vp->width);
  t = vp->height > 0 ? MAX (y, 0) : y;
  b = vp->height > 0 ? MIN (y + h, vp->height) : y + h;
  if (!(r > l) || !(b > t))
    return FALSE;
  *mx = (l + r) / 2;
  *my = (t + b) / 2;
  return TRUE;
}

static gboolean
is_small (TvCallTree            *tree,
          guint32                node,
          const TvFlameViewport *vp)
{
  double min_width = vp->min_width > 0 ? vp->min_width : 1.0;

  return (double) tv_call_tree_get_total (tree, node) * scale_of (vp) < min_width;
}

/* Everything a layout promises, against its tree. */
static void
check_layout (TvFlameLayout *layout)
{
  TvCallTree *tree = tv_flame_layout_get_tree (layout);
  const TvFlameViewport *vp = tv_flame_layout_get_viewport (layout);
  double scale = scale_of (vp);
  guint base = base_depth (tree, vp);
  guint root_row = tv_call_tree_get_depth (tree, vp->root) - base;
  guint n_boxes, first_row, n_rows, max_row = 0;
  const TvFlameBox *boxes = tv_flame_layout_get_boxes (layout, &n_boxes);

  tv_flame_layout_get_rows (layout, &first_row, &n_rows);
  g_assert_true (n_boxes == 0 || boxes != NULL);

  for (guint i = 0; i < n_boxes; i++)
    {
      const TvFlameBox *box = &boxes[i];
      double x, y, w, h, mx, my;

      /* Rows in order, sorted and disjoint within, inside the viewport. */
      g_assert_cmpuint (box->row, >=, first_row);
      g_assert_cmpuint (box->row, <, first_row + n_rows);
      max_row = MAX (max_row, box->row);
      if (i > 0)
        {
          const TvFlameBox *prev = &boxes[i - 1];

          g_assert_cmpuint (prev->row, <=, box->row);
          if (prev->row == box->row)
            g_assert_cmpuint (prev->start + prev->samples, <=, box->start);
        }
      g_assert_cmpuint (box->samples, >, 0);
      g_assert_true ((double) box->start < vp->x1);
      g_assert_true ((double) (box->start + box->samples) > vp->x0);

      tv_flame_layout_get_box_rect (layout, box, &x, &y, &w, &h);
      g_assert_true (near (x, ((double) box->start - vp->x0) * scale));
      g_assert_true (near (w, (double) box->samples * scale));
      g_assert_cmpfloat (h, ==, vp->row_height);
      if (vp->height > 0)
        g_assert_true (y < vp->height && y + h > 0);

      if (box->flags & TV_FLAME_BOX_ANCESTOR)
        {
          guint32 a = vp->root;

          g_assert_false (box->flags & TV_FLAME_BOX_MERGED);
          g_assert_cmpuint (box->start, ==, 0);
          g_assert_cmpuint (box->samples, ==, tv_call_tree_get_total (tree, vp->root));
          g_assert_true (vp->show_ancestors);
          g_assert_cmpuint (box->row, ==, tv_call_tree_get_depth (tree, box->node));
          while (a != TV_NODE_NONE && a != box->node)
            a = tv_call_tree_get_parent (tree, a);
          g_assert_cmpuint (a, ==, box->node);
          g_assert_cmpuint (box->node, !=, vp->root);
        }
      else if (box->flags & TV_FLAME_BOX_MERGED)
        {
          guint n_children;
          const guint32 *children = tv_call_tree_get_children (tree, box->node, &n_children);
          guint64 sum = 0, before = 0, parent_start;

          gboolean remainder = (box->flags & TV_FLAME_BOX_REMAINDER) != 0;

          /* The children left out are a box of their own, or join the
           * run of small children that ends the row. */
          g_assert_true (box->n_merged > 0 || remainder);
          g_assert_cmpuint (box->first + box->n_merged, <=, n_children);
          if (remainder)
            {
              g_assert_cmpuint (box->first + box->n_merged, ==, n_children);
              g_assert_cmpuint (tv_call_tree_get_remainder (tree, box->node), >, 0);
              sum += tv_call_tree_get_remainder (tree, box->node);
              n_remainder_boxes++;
            }
          else if (box->first + box->n_merged == n_children)
            g_assert_cmpuint (tv_call_tree_get_remainder (tree, box->node), ==, 0);
          g_assert_cmpuint (box->row, ==, tv_call_tree_get_depth (tree, box->node) + 1 - base);
          for (guint k = 0; k < box->n_merged; k++)
            {
              guint32 c = children[box->first + k];

              g_assert_true (is_small (tree, c, vp));
              sum += tv_call_tree_get_total (tree, c);
            }
          g_assert_cmpuint (sum, ==, box->samples);
          /* Maximal runs. */
          if (box->first > 0)
            g_assert_false (is_small (tree, children[box->first - 1], vp));
          if (box->first + box->n_merged < n_children)
            g_assert_false (is_small (tree, children[box->first + box->n_merged], vp));
          /* Where the run starts in its parent. */
          for (guint k = 0; k < box->first; k++)
            before += tv_call_tree_get_total (tree, children[k]);
          g_assert_true (tv_flame_get_node_start (tree, vp->root, box->node, &parent_start));
          g_assert_cmpuint (box->start, ==, parent_start + before);
          /* Merged nodes are found in it: the first, the last, one between. */
          if (box->n_merged > 0)
            {
              g_assert_true (tv_flame_layout_lookup_node (layout, children[box->first]) == box);
              g_assert_true (tv_flame_layout_lookup_node (layout,
                                                          children[box->first
                                                                   + box->n_merged - 1])
                             == box);
              g_assert_true (tv_flame_layout_lookup_node (layout,
                                                          children[box->first
                                                                   + box->n_merged / 2])
                             == box);
            }
        }
      else
        {
          guint64 start;

          g_assert_cmpuint (box->samples, ==, tv_call_tree_get_total (tree, box->node));
          g_assert_cmpuint (box->row, ==, tv_call_tree_get_depth (tree, box->node) - base);
          g_assert_true (tv_flame_get_node_start (tree, vp->root, box->node, &start));
          g_assert_cmpuint (box->start, ==, start);
          if (box->node != vp->root)
            g_assert_true (w >= (vp->min_width > 0 ? vp->min_width : 1.0) * (1 - 1e-9));
          g_assert_true (tv_flame_layout_lookup_node (layout, box->node) == box);
        }

      /* The middle of a box hits it, and so do its top and bottom edges
       * (a row is [top, top + height)). */
      if (box_middle (layout, box, &mx, &my))
        {
          g_assert_true (tv_flame_layout_hit_test (layout, mx, my) == box);
          if (y >= 0 && (vp->height <= 0 || y + h <= vp->height))
            {
              g_assert_true (tv_flame_layout_hit_test (layout, mx, y) == box);
              g_assert_true (tv_flame_layout_hit_test (layout, mx, y + h * 0.999) == box);
            }
        }
    }

  /* Under each parent wholly in view, the next row accounts for every
   * child once and for the parent's width less its self samples; the
   * parent's self gap hits nothing. */
  for (guint i = 0; i < n_boxes; i++)
    {
      const TvFlameBox *parent = &boxes[i];
      const TvFlameBox *row_boxes;
      guint n_row, n_children, covered = 0;
      guint64 expect, sum = 0, at = parent->start;
      double px_sum = 0;

      if (parent->flags & (TV_FLAME_BOX_MERGED | TV_FLAME_BOX_ANCESTOR))
        continue;
      if ((double) parent->start < vp->x0 || (double) (parent->start + parent->samples) > vp->x1)
        continue;
      if ((guint) parent->row + 1 >= first_row + n_rows)
        continue;

      tv_call_tree_get_children (tree, parent->node, &n_children);
      row_boxes = tv_flame_layout_get_row (layout, parent->row + 1, &n_row);
      for (guint k = 0; k < n_row; k++)
        {
          const TvFlameBox *c = &row_boxes[k];
          gboolean mine = (c->flags & TV_FLAME_BOX_MERGED)
                          ? c->node == parent->node
                          : !(c->flags & TV_FLAME_BOX_ANCESTOR)
                            && tv_call_tree_get_parent (tree, c->node) == parent->node;

          if (!mine)
            continue;
          /* Children are contiguous from the parent's left edge. */
          g_assert_cmpuint (c->start, ==, at);
          at += c->samples;
          sum += c->samples;
          px_sum += c->samples * scale;
          covered += (c->flags & TV_FLAME_BOX_MERGED) ? c->n_merged : 1;
        }
      expect = tv_call_tree_get_total (tree, parent->node)
               - tv_call_tree_get_self (tree, parent->node);
      g_assert_cmpuint (sum, ==, expect);
      g_assert_true (near (px_sum, (double) expect * scale));
      g_assert_cmpuint (covered, ==, n_children);

      if (tv_call_tree_get_self (tree, parent->node) * scale >= 2)
        {
          TvFlameBox gap = { parent->start + expect, tv_call_tree_get_self (tree, parent->node),
                             parent->node, 0, 0, parent->row + 1, 0 };
          double mx, my;

          if (box_middle (layout, &gap, &mx, &my))
            g_assert_null (tv_flame_layout_hit_test (layout, mx, my));
        }
    }

  /* Outside the viewport, and past the content, nothing. */
  g_assert_null (tv_flame_layout_hit_test (layout, -1, vp->row_height / 2));
  g_assert_null (tv_flame_layout_hit_test (layout, vp->width, vp->row_height / 2));
  g_assert_null (tv_flame_layout_hit_test (layout, vp->width + 100, 1));
  if (vp->height > 0)
    {
      g_assert_null (tv_flame_layout_hit_test (layout, vp->width / 2, -0.5));
      g_assert_null (tv_flame_layout_hit_test (layout, vp->width / 2, vp->height));
    }
  g_assert_cmpuint (tv_flame_layout_get_content_rows (layout), >=, n_boxes > 0 ? max_row + 1 : 0);
  {
    guint content = tv_flame_layout_get_content_rows (layout);
    double y = tv_flame_layout_get_row_y (layout, content) + vp->row_height / 2;

    if (vp->height <= 0 || (y >= 0 && y < vp->height))
      g_assert_null (tv_flame_layout_hit_test (layout, vp->width / 2, y));
    if (n_boxes > 0 && root_row >= first_row && root_row < first_row + n_rows
        && vp->root == TV_ROOT_NODE && vp->x0 <= 0
        && vp->x1 >= (double) tv_call_tree_get_total (tree, vp->root))
      {
        /* Rows of what is laid out; with the root in view, the first box
         * of its row is the root. */
        guint n;
        const TvFlameBox *row = tv_flame_layout_get_row (layout, root_row, &n);

        g_assert_cmpuint (n, ==, 1);
        g_assert_cmpuint (row[0].node, ==, vp->root);
      }
  }
}

/* A layout of the viewport's rows has the same boxes as one of every row,
 * restricted to those rows; and the rows are the ones the height shows. */
static void
check_rows (TvCallTree            *tree,
            const TvFlameViewport *vp,
            TvFlameLayout         *layout)
{
  TvFlameViewport all = *vp;
  g_autoptr(TvFlameLayout) full = NULL;
  guint first, n_rows, n_full;
  const TvFlameBox *boxes = NULL;
  guint n_boxes, k = 0;

  all.height = 0;
  full = tv_flame_layout_new (tree, &all, NULL);
  check_layout (full);
  tv_flame_layout_get_rows (layout, &first, &n_rows);
  boxes = tv_flame_layout_get_boxes (full, &n_full);
  tv_flame_layout_get_boxes (layout, &n_boxes);
  g_assert_cmpuint (tv_flame_layout_get_content_rows (full),
                    ==, tv_flame_layout_get_content_rows (layout));

  for (guint i = 0; i < n_full; i++)
    if (boxes[i].row >= first && boxes[i].row < first + n_rows)
      {
        const TvFlameBox *mine;

        g_assert_cmpuint (k, <, n_boxes);
        mine = &tv_flame_layout_get_boxes (layout, &n_boxes)[k++];
        g_assert_cmpmem (mine, sizeof *mine, &boxes[i], sizeof boxes[i]);
      }
  g_assert_cmpuint (k, ==, n_boxes);

  if (vp->height > 0)
    {
      /* The rows just outside are not visible. */
      if (first > 0)
        {
          double y = tv_flame_layout_get_row_y (layout, first - 1);

          g_assert_true (y >= vp->height || y + vp->row_height <= 0);
        }
      {
        double y = tv_flame_layout_get_row_y (layout, first + n_rows);

        g_assert_true (y >= vp->height || y + vp->row_height <= 0);
      }
    }
}

/* Flame and icicle: the same boxes, mirrored rows. */
static void
check_mirror (TvCallTree            *tree,
              const TvFlameViewport *vp)
{
  TvFlameViewport flame = *vp, icicle = *vp;
  g_autoptr(TvFlameLayout) a = NULL;
  g_autoptr(TvFlameLayout) b = NULL;
  const TvFlameBox *boxes_a, *boxes_b;
  guint n_a, n_b;
  double height;

  flame.orientation = TV_FLAME_ORIENTATION_FLAME;
  icicle.orientation = TV_FLAME_ORIENTATION_ICICLE;
  a = tv_flame_layout_new (tree, &flame, NULL);
  b = tv_flame_layout_new (tree, &icicle, NULL);
  boxes_a = tv_flame_layout_get_boxes (a, &n_a);
  boxes_b = tv_flame_layout_get_boxes (b, &n_b);
  g_assert_cmpuint (n_a, ==, n_b);
  height = vp->height > 0 ? vp->height
           : tv_flame_layout_get_content_rows (a) * vp->row_height;
  for (guint i = 0; i < n_a; i++)
    {
      double xa, ya, xb, yb, mx, my;

      g_assert_cmpmem (&boxes_a[i], sizeof boxes_a[i], &boxes_b[i], sizeof boxes_b[i]);
      tv_flame_layout_get_box_rect (a, &boxes_a[i], &xa, &ya, NULL, NULL);
      tv_flame_layout_get_box_rect (b, &boxes_b[i], &xb, &yb, NULL, NULL);
      g_assert_cmpfloat (xa, ==, xb);
      g_assert_true (near (ya, height - vp->row_height - yb));
      if (box_middle (a, &boxes_a[i], &mx, &my))
        {
          g_assert_true (tv_flame_layout_hit_test (a, mx, my) == &boxes_a[i]);
          g_assert_true (tv_flame_layout_hit_test (b, mx, height - my) == &boxes_b[i]);
        }
    }
}

/* A frame of TREE at least WIDE of its samples, deep if possible. */
static guint32
pick_zoom_node (TvCallTree *tree,
                GRand      *rand,
                double      wide)
{
  guint32 best = TV_ROOT_NODE;
  guint64 n = tv_call_tree_get_n_samples (tree);

  for (guint tries = 0; tries < 200 && tv_call_tree_get_n_nodes (tree) > 1; tries++)
    {
      guint32 node = g_rand_int_range (rand, 1, tv_call_tree_get_n_nodes (tree));

      if (tv_call_tree_get_total (tree, node) >= wide * n
          && tv_call_tree_get_depth (tree, node) >= tv_call_tree_get_depth (tree, best))
        best = node;
    }
  return best;
}

/* Zoomed on NODE, and the same range of the root: the same boxes at the
 * same places, but for the ancestors (full width as such, wider than the
 * viewport otherwise); without ancestors, NODE takes row 0. */
static void
check_zoom (TvCallTree *tree,
            guint32     node,
            double      width,
            double      height)
{
  TvFlameViewport zoomed, ranged, bare;
  g_autoptr(TvFlameLayout) a = NULL;
  g_autoptr(TvFlameLayout) b = NULL;
  g_autoptr(TvFlameLayout) c = NULL;
  const TvFlameBox *boxes;
  guint64 start;
  guint n, depth = tv_call_tree_get_depth (tree, node);

  tv_flame_viewport_init (&zoomed, tree, width, height);
  zoomed.root = node;
  zoomed.x0 = 0;
  zoomed.x1 = tv_call_tree_get_total (tree, node);
  /* The zoom root's row at the edge, its ancestors scrolled away. */
  if (height > 0)
    zoomed.scroll_y = depth * zoomed.row_height;
  ranged = zoomed;
  ranged.root = TV_ROOT_NODE;
  g_assert_true (tv_flame_get_node_start (tree, TV_ROOT_NODE, node, &start));
  ranged.x0 = start;
  ranged.x1 = start + zoomed.x1;
  bare = zoomed;
  bare.show_ancestors = FALSE;
  bare.scroll_y = 0;

  a = tv_flame_layout_new (tree, &zoomed, NULL);
  b = tv_flame_layout_new (tree, &ranged, NULL);
  c = tv_flame_layout_new (tree, &bare, NULL);
  check_layout (a);
  check_layout (b);
  check_layout (c);

  boxes = tv_flame_layout_get_boxes (a, &n);
  for (guint i = 0; i < n; i++)
    {
      const TvFlameBox *box = &boxes[i];
      double xa, wa, xb, wb, ya, yb;
      const TvFlameBox *other;

      tv_flame_layout_get_box_rect (a, box, &xa, &ya, &wa, NULL);
      if (box->flags & TV_FLAME_BOX_ANCESTOR)
        {
          g_assert_cmpuint (box->row, <, depth);
          g_assert_true (near (xa, 0));
          g_assert_true (near (wa, width));
          other = tv_flame_layout_lookup_node (b, box->node);
          g_assert_nonnull (other);
          tv_flame_layout_get_box_rect (b, other, &xb, &yb, &wb, NULL);
          g_assert_true (xb <= 1e-6 && xb + wb >= width - 1e-6);
          continue;
        }
      if (box->flags & TV_FLAME_BOX_MERGED && box->n_merged == 0)
        {
          /* Only left-out children: no node to look up, but its row. */
          guint nr;
          const TvFlameBox *row = tv_flame_layout_get_row (b, box->row, &nr);

          other = NULL;
          for (guint k = 0; k < nr && other == NULL; k++)
            if (row[k].node == box->node && (row[k].flags & TV_FLAME_BOX_REMAINDER))
              other = &row[k];
        }
      else if (box->flags & TV_FLAME_BOX_MERGED)
        {
          guint nc;
          const guint32 *children = tv_call_tree_get_children (tree, box->node, &nc);

          other = tv_flame_layout_lookup_node (b, children[box->first]);
        }
      else
        other = tv_flame_layout_lookup_node (b, box->node);
      g_assert_nonnull (other);
      g_assert_cmpuint (other->flags, ==, box->flags);
      g_assert_cmpuint (other->node, ==, box->node);
      g_assert_cmpuint (other->first, ==, box->first);
      g_assert_cmpuint (other->n_merged, ==, box->n_merged);
      g_assert_cmpuint (other->samples, ==, box->samples);
      g_assert_cmpuint (other->row, ==, box->row);
      tv_flame_layout_get_box_rect (b, other, &xb, &yb, &wb, NULL);
      g_assert_true (near (xa, xb) || fabs (xa - xb) < 1e-6);
      g_assert_true (near (wa, wb));
      g_assert_cmpfloat (ya, ==, yb);
    }
  {
    const TvFlameBox *zoom_box = tv_flame_layout_lookup_node (a, node);
    guint nb;
    const TvFlameBox *row0 = tv_flame_layout_get_row (c, 0, &nb);

    g_assert_nonnull (zoom_box);
    g_assert_cmpuint (zoom_box->row, ==, depth);
    g_assert_cmpuint (nb, ==, 1);
    g_assert_cmpuint (row0[0].node, ==, node);
    g_assert_cmpuint (row0[0].flags, ==, 0);
  }
}

/* Layouts of TREE for a range of viewports, checked. */
static void
check_tree_layouts (TvCallTree *tree,
                    GRand      *rand)
{
  static const double widths[] = { 1920, 333, 37 };
  guint64 n = tv_call_tree_get_n_samples (tree);

  for (guint w = 0; w < G_N_ELEMENTS (widths); w++)
    for (guint variant = 0; variant < 6; variant++)
      {
        TvFlameViewport vp;
        g_autoptr(TvFlameLayout) layout = NULL;

        tv_flame_viewport_init (&vp, tree, widths[w], 0);
        switch (variant)
          {
          case 0:
            break;
          case 1:
            vp.height = 150;
            vp.orientation = TV_FLAME_ORIENTATION_ICICLE;
            break;
          case 2:
            vp.height = 97;
            vp.scroll_y = vp.row_height * 2.5;
            break;
          case 3:
            vp.min_width = 4;
            vp.row_height = 11;
            vp.height = 300;
            vp.orientation = TV_FLAME_ORIENTATION_ICICLE;
            vp.scroll_y = 7;
            break;
          case 4:
            /* A random range, maybe past either end. */
            vp.x0 = g_rand_double_range (rand, -0.1, 0.9) * n;
            vp.x1 = vp.x0 + g_rand_double_range (rand, 0.001, 0.6) * MAX (n, 1);
            vp.height = 400;
            break;
          default:
            vp.root = pick_zoom_node (tree, rand, 0.01);
            vp.x1 = MAX (tv_call_tree_get_total (tree, vp.root), 1);
            vp.x0 = vp.x1 * g_rand_double_range (rand, 0, 0.3);
            vp.show_ancestors = g_rand_boolean (rand);
            vp.height = 500;
            break;
          }
        layout = tv_flame_layout_new (tree, &vp, NULL);
        g_assert_nonnull (layout);
        check_layout (layout);
        check_rows (tree, &vp, layout);
        check_mirror (tree, &vp);
      }

  if (n > 0)
    {
      check_zoom (tree, pick_zoom_node (tree, rand, 0.02), 800, 0);
      check_zoom (tree, pick_zoom_node (tree, rand, 0.001), 640, 300);
    }
}

/* The inverted tree's first row: each key's self samples, top-down. */
static void
check_inverted (TvProfileData *data,
                TvMergeKey     merge)
{
  g_autoptr(TvCallTree) down = fixture_tree (data, merge, FALSE, TRUE);
  g_autoptr(TvCallTree) up = fixture_tree (data, merge, TRUE, TRUE);
  guint32 n_keys = tv_profile_data_get_n_keys (data, merge);
  g_autofree guint64 *self = g_new0 (guint64, MAX (n_keys, 1));
  TvFlameViewport vp;
  g_autoptr(TvFlameLayout) layout = NULL;
  const TvFlameBox *row;
  guint n;
  guint64 sum = 0;

  for (guint32 node = 1; node < tv_call_tree_get_n_nodes (down); node++)
    self[tv_call_tree_get_key (down, node)] += tv_call_tree_get_self (down, node);

  tv_flame_viewport_init (&vp, up, 1000, 0);
  layout = tv_flame_layout_new (up, &vp, NULL);
  check_layout (layout);
  row = tv_flame_layout_get_row (layout, 1, &n);
  for (guint i = 0; i < n; i++)
    {
      guint64 expect = 0;

      if (row[i].flags & TV_FLAME_BOX_MERGED)
        {
          guint nc;
          const guint32 *children = tv_call_tree_get_children (up, row[i].node, &nc);

          for (guint k = 0; k < row[i].n_merged; k++)
            expect += self[tv_call_tree_get_key (up, children[row[i].first + k])];
        }
      else
        expect = self[tv_call_tree_get_key (up, row[i].node)];
      g_assert_cmpuint (row[i].samples, ==, expect);
      sum += row[i].samples;
    }
  g_assert_cmpuint (sum, ==, tv_call_tree_get_n_samples (down) - tv_call_tree_get_self (down, 0));
}

/* ------------------------------------------------------------------------ */
/* Drawing                                                                   */
/* ------------------------------------------------------------------------ */

static guint32
pixel_at (cairo_surface_t *surface,
          int              x,
          int              y)
{
  guchar *data = cairo_image_surface_get_data (surface);
  int stride = cairo_image_surface_get_stride (surface);

  g_assert_true (x >= 0 && y >= 0 && x < cairo_image_surface_get_width (surface)
                 && y < cairo_image_surface_get_height (surface));
  return *(guint32 *) (data + (gsize) y * stride + (gsize) x * 4) & 0xffffff;
}

static gboolean
same_color (guint32      pixel,
            TvFlameColor c)
{
  int r = (int) round (c.red * 255);
  int g = (int) round (c.green * 255);
  int b = (int) round (c.blue * 255);

  return abs ((int) (pixel >> 16) - r) <= 1 && abs ((int) ((pixel >> 8) & 0xff) - g) <= 1
         && abs ((int) (pixel & 0xff) - b) <= 1;
}

/* A drawing of LAYOUT at SCALE device pixels per pixel. */
static double
luminance (guint32 pixel)
{
  double c[3] = { (pixel >> 16) / 255.0, ((pixel >> 8) & 0xff) / 255.0, (pixel & 0xff) / 255.0 };

  for (guint i = 0; i < 3; i++)
    c[i] = c[i] <= 0.04045 ? c[i] / 12.92 : pow ((c[i] + 0.055) / 1.055, 2.4);
  return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
}

static cairo_surface_t *
render_scaled (TvFlameRenderer    *renderer,
               TvFlameLayout      *layout,
               const TvFlameStyle *style,
               int                 scale)
{
  const TvFlameViewport *vp = tv_flame_layout_get_viewport (layout);
  double height = vp->height > 0 ? vp->height
                  : MAX (tv_flame_layout_get_content_rows (layout), 1) * vp->row_height;
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_RGB24,
                                                         (int) ceil (vp->width) * scale,
                                                         (int) ceil (height) * scale);
  g_autoptr(cairo_t) cr = cairo_create (surface);

  cairo_scale (cr, scale, scale);
  tv_flame_renderer_draw (renderer, cr, layout, style);
  g_assert_cmpint (cairo_status (cr), ==, CAIRO_STATUS_SUCCESS);
  cairo_surface_flush (surface);
  return surface;
}

static cairo_surface_t *
render (TvFlameRenderer    *renderer,
        TvFlameLayout      *layout,
        const TvFlameStyle *style)
{
  return render_scaled (renderer, layout, style, 1);
}

/* Every box wide and tall enough has its fill at its top-left corner,
 * which no label reaches; the self gaps of parents are background.  The
 * drawing is at SCALE.  Returns how many boxes were looked at. */
static guint
check_pixels_scaled (TvFlameRenderer    *renderer,
                     TvFlameLayout      *layout,
                     const TvFlameStyle *style,
                     cairo_surface_t    *surface,
                     int                 scale)
{
  const TvFlameViewport *vp = tv_flame_layout_get_viewport (layout);
  TvCallTree *tree = tv_flame_layout_get_tree (layout);
  TvFlameColor background = tv_flame_background_color (style->dark);
  int height = cairo_image_surface_get_height (surface) / scale;
  guint n, checked = 0;
  const TvFlameBox *boxes = tv_flame_layout_get_boxes (layout, &n);

  for (guint i = 0; i < n; i++)
    {
      double x, y, w, h, right;
      int px, py;

      tv_flame_layout_get_box_rect (layout, &boxes[i], &x, &y, &w, &h);
      if (x < 0 || x + w > vp->width || w < 5 || y < 0 || y + h > height || h < 6)
        continue;
      /* Where the box beside it starts. */
      right = tv_flame_layout_get_x (layout, boxes[i].start + boxes[i].samples);
      g_assert_cmpfloat (fabs (right - (x + w)), <, 1e-6);
      px = ((int) round (x) + 1) * scale;
      py = ((int) round (y) + 1) * scale;
      if (!same_color (pixel_at (surface, px, py),
                       tv_flame_renderer_get_fill (renderer, layout, &boxes[i], style)))
        g_error ("box %u (node %u) at %d,%d: pixel %06x", i, boxes[i].node, px, py,
                 pixel_at (surface, px, py));
      /* A pixel of gap at the right and at the bottom keeps boxes apart. */
      g_assert_true (same_color (pixel_at (surface, ((int) round (right) - 1) * scale, py),
                                 background));
      g_assert_true (same_color (pixel_at (surface, px, ((int) round (y + h) - 1) * scale),
                                 background));
      /* Labels stay inside their box: the gap beside the text is clear. */
      for (int dy = 0; dy < (int) h - 1; dy++)
        g_assert_true (same_color (pixel_at (surface, ((int) round (right) - 1) * scale,
                                             ((int) round (y) + dy) * scale), background));
      /* A box wide enough has a label, in a colour that stands out from
       * the fill (WCAG contrast of 4.5 at least, where glyphs are solid). */
      if (w >= 60 && style->matches == NULL && !(boxes[i].flags & TV_FLAME_BOX_MERGED)
          && (boxes[i].node != TV_ROOT_NODE || style->root_label != NULL))
        {
          double fill = luminance (pixel_at (surface, px, py)), best = 1;

          for (int ty = (int) round (y) * scale; ty < (int) round (y + h) * scale; ty++)
            for (int tx = ((int) round (x) + 4) * scale; tx < ((int) round (x) + 40) * scale; tx++)
              {
                double l = luminance (pixel_at (surface, tx, ty));

                best = MAX (best, (MAX (l, fill) + 0.05) / (MIN (l, fill) + 0.05));
              }
          g_assert_cmpfloat (best, >=, 4.5);
        }
      checked++;

      /* The self gap of a parent, in the next row. */
      if (!(boxes[i].flags & (TV_FLAME_BOX_MERGED | TV_FLAME_BOX_ANCESTOR))
          && tv_call_tree_get_self (tree, boxes[i].node) * scale_of (vp) >= 4)
        {
          double gx = x + w - tv_call_tree_get_self (tree, boxes[i].node) * scale_of (vp) + 2;
          double gy = tv_flame_layout_get_row_y (layout, boxes[i].row + 1) + h / 2;

          if (gy >= 0 && gy < height && gx < vp->width - 1)
            g_assert_true (same_color (pixel_at (surface, (int) gx * scale, (int) gy * scale),
                                       background));
        }
    }
  return checked;
}

static guint
check_pixels (TvFlameRenderer    *renderer,
              TvFlameLayout      *layout,
              const TvFlameStyle *style,
              cairo_surface_t    *surface)
{
  return check_pixels_scaled (renderer, layout, style, surface, 1);
}

static void
check_drawing (TvFlameRenderer *renderer,
               TvFlameLayout   *layout,
               gboolean         dark)
{
  TvCallTree *tree = tv_flame_layout_get_tree (layout);
  TvFlameStyle style;
  g_autoptr(cairo_surface_t) plain = NULL;
  g_autoptr(cairo_surface_t) hovered = NULL;
  g_autoptr(cairo_surface_t) searched = NULL;
  g_autoptr(TvFlameMatches) matches = NULL;
  g_autofree guint8 *keys = NULL;
  const TvFlameBox *boxes, *target = NULL;
  guint n;

  tv_flame_style_init (&style);
  style.dark = dark;
  style.draw_background = TRUE;
  style.root_label = "all";
  plain = render (renderer, layout, &style);
  check_pixels (renderer, layout, &style, plain);
  {
    /* As on a screen of twice the resolution. */
    g_autoptr(cairo_surface_t) twice = render_scaled (renderer, layout, &style, 2);

    check_pixels_scaled (renderer, layout, &style, twice, 2);
  }

  /* Hover and selection change the hovered box's pixels, and only its. */
  boxes = tv_flame_layout_get_boxes (layout, &n);
  for (guint i = 0; i < n; i++)
    {
      double x, y, w, h;

      tv_flame_layout_get_box_rect (layout, &boxes[i], &x, &y, &w, &h);
      if (!(boxes[i].flags & TV_FLAME_BOX_MERGED) && boxes[i].node != TV_ROOT_NODE
          && x >= 0 && x + w <= tv_flame_layout_get_viewport (layout)->width && w >= 8 && y >= 0
          && y + h <= cairo_image_surface_get_height (plain))
        {
          target = &boxes[i];
          break;
        }
    }
  if (target != NULL)
    {
      double x, y;
      TvFlameStyle hover = style;

      tv_flame_layout_get_box_rect (layout, target, &x, &y, NULL, NULL);
      hover.hovered = target->node;
      hovered = render (renderer, layout, &hover);
      g_assert_cmpuint (pixel_at (hovered, (int) round (x) + 1, (int) round (y) + 1),
                        !=, pixel_at (plain, (int) round (x) + 1, (int) round (y) + 1));
      /* The rest is untouched. */
      for (guint i = 0; i < n; i++)
        if (&boxes[i] != target)
          {
            double bx, by, bw, bh;

            tv_flame_layout_get_box_rect (layout, &boxes[i], &bx, &by, &bw, &bh);
            if (bx >= 0 && bw >= 5 && by >= 0 && bh >= 6
                && bx + bw <= tv_flame_layout_get_viewport (layout)->width
                && by + bh <= cairo_image_surface_get_height (plain))
              g_assert_cmpuint (pixel_at (hovered, (int) round (bx) + 1, (int) round (by) + 1),
                                ==, pixel_at (plain, (int) round (bx) + 1, (int) round (by) + 1));
          }

      /* The highlight alone, on the plain drawing, is the hovered drawing
       * where the box is. */
      {
        g_autoptr(cairo_surface_t) overlay = render (renderer, layout, &style);
        g_autoptr(cairo_t) cr = cairo_create (overlay);
        int px = (int) round (x) + 1, py = (int) round (y) + 1;

        tv_flame_renderer_draw_highlight (renderer, cr, layout, &hover);
        cairo_surface_flush (overlay);
        g_assert_cmpuint (pixel_at (overlay, px, py), ==, pixel_at (hovered, px, py));
      }
    }

  /* A search on the target's key: its box keeps its fill, the others
   * (but merged boxes with a match below) are dimmed. */
  if (target != NULL)
    {
      TvFlameStyle search = style;
      guint checked;

      keys = g_new0 (guint8, tv_profile_data_get_n_keys (tv_call_tree_get_data (tree),
                                                         tv_call_tree_get_merge (tree)));
      keys[tv_call_tree_get_key (tree, target->node)] = 1;
      matches = tv_flame_matches_new (tree, keys, NULL);
      search.matches = matches;
      searched = render (renderer, layout, &search);
      checked = check_pixels (renderer, layout, &search, searched);
      g_assert_cmpuint (checked, >, 0);
      for (guint i = 0; i < n; i++)
        {
          TvFlameColor a = tv_flame_renderer_get_fill (renderer, layout, &boxes[i], &style);
          TvFlameColor b = tv_flame_renderer_get_fill (renderer, layout, &boxes[i], &search);
          gboolean same = a.red == b.red && a.green == b.green && a.blue == b.blue;

          TvFlameColor bg = tv_flame_background_color (dark);

          if (boxes[i].flags & TV_FLAME_BOX_MERGED)
            continue;
          g_assert_cmpint (same, ==, tv_flame_matches_contains (matches, boxes[i].node));
          /* Dimmed is most of the way to the background. */
          if (!same)
            g_assert_cmpfloat (fabs (b.red - bg.red) + fabs (b.green - bg.green)
                               + fabs (b.blue - bg.blue),
                               <, 0.5 * (fabs (a.red - bg.red) + fabs (a.green - bg.green)
                                         + fabs (a.blue - bg.blue)));
        }
    }
}

/* ------------------------------------------------------------------------ */
/* Tests                                                                     */
/* ------------------------------------------------------------------------ */

static void
test_corpus (gconstpointer user_data)
{
  const char *name = user_data;
  g_autoptr(TvProfileData) data = fixture_load_corpus (name);
  g_autoptr(GRand) rand = g_rand_new_with_seed (base_seed ^ g_str_hash (name));
  g_autoptr(TvFlameRenderer) renderer = tv_flame_renderer_new (NULL);

  for (TvMergeKey merge = 0; merge < TV_N_MERGE_KEYS; merge++)
    {
      g_autoptr(TvCallTree) tree = fixture_tree (data, merge, FALSE, TRUE);
      g_autoptr(TvCallTree) inverted = fixture_tree (data, merge, TRUE, TRUE);

      check_tree_layouts (tree, rand);
      check_tree_layouts (inverted, rand);
      check_inverted (data, merge);
      if (merge == TV_MERGE_FRAME || merge == TV_MERGE_LINE)
        {
          TvFlameViewport vp;
          g_autoptr(TvFlameLayout) layout = NULL;

          tv_flame_viewport_init (&vp, tree, 900, 0);
          layout = tv_flame_layout_new (tree, &vp, NULL);
          check_drawing (renderer, layout, merge == TV_MERGE_LINE);
        }
    }
}

static void
test_random (gconstpointer user_data)
{
  guint iteration = GPOINTER_TO_UINT (user_data);
  guint32 seed[2] = { base_seed, iteration };
  g_autoptr(GRand) rand = g_rand_new_with_seed_array (seed, 2);
  FormatTestDir tmp;
  g_autoptr(TvProfileData) data = NULL;
  g_autoptr(TvFlameRenderer) renderer = tv_flame_renderer_new (NULL);

  format_test_dir_init (&tmp, "tv-flame-XXXXXX");
  g_test_message ("TACH_SEED=%" G_GUINT32_FORMAT " iteration %u", base_seed, iteration);
  generate_profile (rand, tmp.path);
  data = fixture_load (tmp.path);

  for (TvMergeKey merge = 0; merge < TV_N_MERGE_KEYS; merge += 2)
    {
      g_autoptr(TvCallTree) tree = fixture_tree (data, merge, FALSE, TRUE);
      g_autoptr(TvCallTree) inverted = fixture_tree (data, merge, TRUE, TRUE);
      TvFlameViewport vp;
      g_autoptr(TvFlameLayout) layout = NULL;
      guint n_boxes, n_merged = 0;
      const TvFlameBox *boxes;

      check_tree_layouts (tree, rand);
      check_tree_layouts (inverted, rand);
      check_inverted (data, merge);

      /* Inverted and pruned, as the view prunes a big profile. */
      {
        TvQuery query;
        g_autoptr(TvCallTree) pruned = NULL;
        guint before = n_remainder_boxes;

        tv_query_init (&query, merge);
        query.inverted = TRUE;
        query.count_states = TRUE;
        query.min_total = MAX (tv_call_tree_get_n_samples (inverted) / 300, 2);
        pruned = tv_call_tree_new (data, &query, NULL);
        g_assert_cmpuint (tv_call_tree_get_total (pruned, TV_ROOT_NODE), ==,
                          tv_call_tree_get_total (inverted, TV_ROOT_NODE));
        g_assert_cmpuint (tv_call_tree_get_n_nodes (pruned), <,
                          tv_call_tree_get_n_nodes (inverted));
        check_tree_layouts (pruned, rand);
        g_assert_cmpuint (n_remainder_boxes, >, before);
      }

      /* The trees are made to have frames narrower than a pixel. */
      tv_flame_viewport_init (&vp, tree, 1920, 1080);
      layout = tv_flame_layout_new (tree, &vp, NULL);
      boxes = tv_flame_layout_get_boxes (layout, &n_boxes);
      for (guint i = 0; i < n_boxes; i++)
        n_merged += (boxes[i].flags & TV_FLAME_BOX_MERGED) != 0;
      g_assert_cmpuint (n_merged, >, 0);
      check_drawing (renderer, layout, iteration % 2 == 1);
    }

  format_test_dir_clear (&tmp);
}

/* Boxes side by side keep their pixel of gap at every width: the right
 * edge of one is where the next starts, to the last bit, also where
 * x + width rounds to the pixel after (an edge on a half pixel). */
static void
test_edges (void)
{
  g_autoptr(TvProfileData) data = fixture_load_corpus ("mode_all.tach");
  g_autoptr(TvCallTree) tree = fixture_tree (data, TV_MERGE_LINE, FALSE, TRUE);
  g_autoptr(TvFlameRenderer) renderer = tv_flame_renderer_new (NULL);
  guint checked = 0, uneven = 0, n;
  const TvFlameBox *boxes;
  TvFlameStyle style;

  tv_flame_style_init (&style);
  style.draw_background = TRUE;
  for (guint i = 0; i < 300; i++)
    {
      TvFlameViewport vp;
      g_autoptr(TvFlameLayout) layout = NULL;
      g_autoptr(cairo_surface_t) surface = NULL;

      tv_flame_viewport_init (&vp, tree, 200 + 3 * i, 400);
      layout = tv_flame_layout_new (tree, &vp, NULL);
      surface = render (renderer, layout, &style);
      checked += check_pixels (renderer, layout, &style, surface);

      /* Count the edges where x + width rounds to another pixel than
       * the next box's x, to know the test looks at some. */
      boxes = tv_flame_layout_get_boxes (layout, &n);
      for (guint b = 1; b < n; b++)
        {
          double x, w, next;

          tv_flame_layout_get_box_rect (layout, &boxes[b - 1], &x, NULL, &w, NULL);
          tv_flame_layout_get_box_rect (layout, &boxes[b], &next, NULL, NULL, NULL);
          if (boxes[b - 1].row == boxes[b].row && w >= 5
              && boxes[b - 1].start + boxes[b - 1].samples == boxes[b].start
              && round (x + w) != round (next))
            uneven++;
        }
    }
  g_test_message ("%u boxes checked, %u uneven edges", checked, uneven);
  g_assert_cmpuint (checked, >, 3000);
  g_assert_cmpuint (uneven, >, 0);
}

/* Empty trees lay out to nothing and hit nothing. */
static void
test_empty (void)
{
  g_autoptr(TvProfileData) data = fixture_load_corpus ("empty.tach");
  g_autoptr(TvCallTree) tree = fixture_tree (data, TV_MERGE_FRAME, FALSE, TRUE);
  g_autoptr(TvFlameRenderer) renderer = tv_flame_renderer_new (NULL);
  g_autoptr(cairo_surface_t) surface = NULL;
  TvFlameViewport vp;
  TvFlameStyle style;
  g_autoptr(TvFlameLayout) layout = NULL;
  guint n;

  tv_flame_viewport_init (&vp, tree, 640, 480);
  layout = tv_flame_layout_new (tree, &vp, NULL);
  g_assert_nonnull (layout);
  tv_flame_layout_get_boxes (layout, &n);
  g_assert_cmpuint (n, ==, 0);
  g_assert_null (tv_flame_layout_hit_test (layout, 320, 470));
  g_assert_null (tv_flame_layout_lookup_node (layout, TV_ROOT_NODE));
  check_layout (layout);

  tv_flame_style_init (&style);
  style.draw_background = TRUE;
  surface = render (renderer, layout, &style);
  g_assert_true (same_color (pixel_at (surface, 320, 470), tv_flame_background_color (FALSE)));
}

static void
test_cancel (void)
{
  g_autoptr(TvProfileData) data = fixture_load_corpus ("rec_threads.tach");
  g_autoptr(TvCallTree) tree = fixture_tree (data, TV_MERGE_FRAME, FALSE, TRUE);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autofree guint8 *keys = g_new0 (guint8, tv_profile_data_get_n_keys (data, TV_MERGE_FRAME));
  TvFlameViewport vp;
  g_autoptr(TvFlameLayout) layout = NULL;
  g_autoptr(TvFlameMatches) matches = NULL;

  tv_flame_viewport_init (&vp, tree, 1920, 1080);
  layout = tv_flame_layout_new (tree, &vp, cancellable);
  g_assert_nonnull (layout);
  g_cancellable_cancel (cancellable);
  g_assert_null (tv_flame_layout_new (tree, &vp, cancellable));
  g_assert_null (tv_flame_matches_new (tree, keys, cancellable));
  matches = tv_flame_matches_new (tree, keys, NULL);
  g_assert_nonnull (matches);
}

/* A layout made on another thread is the one made here. */
static gpointer
layout_thread (gpointer user_data)
{
  TvCallTree *tree = user_data;
  TvFlameViewport vp;

  tv_flame_viewport_init (&vp, tree, 1000, 700);
  return tv_flame_layout_new (tree, &vp, NULL);
}

static void
test_thread (void)
{
  g_autoptr(TvProfileData) data = fixture_load_corpus ("rec_asyncio.tach");
  g_autoptr(TvCallTree) tree = fixture_tree (data, TV_MERGE_LINE, FALSE, TRUE);
  GThread *thread = g_thread_new ("layout", layout_thread, tree);
  g_autoptr(TvFlameLayout) there = g_thread_join (thread);
  g_autoptr(TvFlameLayout) here = layout_thread (tree);
  const TvFlameBox *a, *b;
  guint n_a, n_b;

  a = tv_flame_layout_get_boxes (there, &n_a);
  b = tv_flame_layout_get_boxes (here, &n_b);
  g_assert_cmpuint (n_a, >, 1);
  g_assert_cmpmem (a, n_a * sizeof *a, b, n_b * sizeof *b);
}

/* Nodes on a path from the root, in display order, for the matches. */
static void
display_order (TvCallTree *tree,
               guint32     node,
               GArray     *out)
{
  guint n;
  const guint32 *children = tv_call_tree_get_children (tree, node, &n);

  g_array_append_val (out, node);
  for (guint i = 0; i < n; i++)
    display_order (tree, children[i], out);
}

static void
check_matches (TvCallTree *tree,
               GRand      *rand)
{
  TvProfileData *data = tv_call_tree_get_data (tree);
  guint32 n_keys = tv_profile_data_get_n_keys (data, tv_call_tree_get_merge (tree));
  guint32 n_nodes = tv_call_tree_get_n_nodes (tree);
  g_autofree guint8 *keys = g_new0 (guint8, MAX (n_keys, 1));
  g_autoptr(TvFlameMatches) matches = NULL;
  g_autoptr(GArray) order = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autoptr(GArray) expected = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autofree guint8 *below = NULL;
  guint64 samples = 0;
  guint32 n_matching = 0, at;
  double p = g_rand_double_range (rand, 0, 0.4);

  for (guint32 k = 0; k < n_keys; k++)
    keys[k] = g_rand_double (rand) < p;
  matches = tv_flame_matches_new (tree, keys, NULL);
  g_assert_nonnull (matches);
  g_assert_true (tv_flame_matches_get_tree (matches) == tree);

  /* Each path counted once, at its leaf, if any node on it matches; a
   * subtree holds a match if a matching node has it on its path. */
  below = g_new0 (guint8, n_nodes);
  for (guint32 n = 0; n < n_nodes; n++)
    {
      gboolean on_path = FALSE, match;

      for (guint32 u = n; u != TV_ROOT_NODE; u = tv_call_tree_get_parent (tree, u))
        on_path |= keys[tv_call_tree_get_key (tree, u)] != 0;
      if (on_path)
        samples += tv_call_tree_get_self (tree, n);
      match = n != TV_ROOT_NODE && keys[tv_call_tree_get_key (tree, n)] != 0;
      g_assert_cmpint (tv_flame_matches_contains (matches, n), ==, match);
      n_matching += match;
      if (match)
        for (guint32 u = n; u != TV_NODE_NONE; u = tv_call_tree_get_parent (tree, u))
          below[u] = 1;
    }
  for (guint32 n = 0; n < n_nodes; n++)
    g_assert_cmpint (tv_flame_matches_subtree_contains (matches, n), ==, below[n]);
  g_assert_cmpuint (tv_flame_matches_get_n_samples (matches), ==, samples);
  g_assert_cmpuint (tv_flame_matches_get_n_nodes (matches), ==, n_matching);

  /* Next and previous walk the matches in display order, around. */
  display_order (tree, TV_ROOT_NODE, order);
  for (guint i = 0; i < order->len; i++)
    if (tv_flame_matches_contains (matches, g_array_index (order, guint32, i)))
      g_array_append_val (expected, g_array_index (order, guint32, i));
  at = TV_NODE_NONE;
  for (guint i = 0; i < expected->len; i++)
    {
      at = tv_flame_matches_get_next (matches, at, TRUE);
      g_assert_cmpuint (at, ==, g_array_index (expected, guint32, i));
    }
  if (expected->len > 0)
    {
      g_assert_cmpuint (tv_flame_matches_get_next (matches, at, TRUE),
                        ==, g_array_index (expected, guint32, 0));
      g_assert_cmpuint (tv_flame_matches_get_next (matches, TV_NODE_NONE, FALSE),
                        ==, g_array_index (expected, guint32, expected->len - 1));
      for (guint i = expected->len; i > 1; i--)
        g_assert_cmpuint (tv_flame_matches_get_next (matches, g_array_index (expected, guint32,
                                                                              i - 1), FALSE),
                          ==, g_array_index (expected, guint32, i - 2));
      /* From a node that does not match: the first match after it. */
      for (guint i = 0, next = 0; i < order->len; i++)
        {
          guint32 node = g_array_index (order, guint32, i);

          if (tv_flame_matches_contains (matches, node))
            {
              next++;
              continue;
            }
          g_assert_cmpuint (tv_flame_matches_get_next (matches, node, TRUE),
                            ==, g_array_index (expected, guint32, next % expected->len));
        }
    }
  else
    g_assert_cmpuint (tv_flame_matches_get_next (matches, TV_NODE_NONE, TRUE), ==, TV_NODE_NONE);
}

static void
test_matches (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (base_seed);
  static const char *const names[] = { "rec_recursive.tach", "rec_threads.tach", "tiny.tach" };

  for (guint f = 0; f < G_N_ELEMENTS (names); f++)
    {
      g_autoptr(TvProfileData) data = fixture_load_corpus (names[f]);

      for (guint i = 0; i < 6; i++)
        {
          g_autoptr(TvCallTree) tree = fixture_tree (data, i % TV_N_MERGE_KEYS, i >= 3, TRUE);

          check_matches (tree, rand);
        }
    }
}

static void
test_navigate (void)
{
  g_autoptr(TvProfileData) data = fixture_load_corpus ("rec_cpu_mix.tach");
  g_autoptr(TvCallTree) tree = fixture_tree (data, TV_MERGE_FRAME, FALSE, TRUE);

  for (guint32 node = 0; node < tv_call_tree_get_n_nodes (tree); node++)
    {
      guint32 parent = tv_call_tree_get_parent (tree, node);
      guint32 child = tv_flame_navigate (tree, node, TV_FLAME_CHILD);
      guint32 prev = tv_flame_navigate (tree, node, TV_FLAME_PREVIOUS_SIBLING);
      guint32 next = tv_flame_navigate (tree, node, TV_FLAME_NEXT_SIBLING);
      guint n;
      const guint32 *children = tv_call_tree_get_children (tree, node, &n);

      g_assert_cmpuint (tv_flame_navigate (tree, node, TV_FLAME_PARENT), ==, parent);
      if (n == 0)
        g_assert_cmpuint (child, ==, TV_NODE_NONE);
      else
        {
          g_assert_cmpuint (tv_call_tree_get_parent (tree, child), ==, node);
          for (guint i = 0; i < n; i++)
            g_assert_cmpuint (tv_call_tree_get_total (tree, children[i]),
                              <=, tv_call_tree_get_total (tree, child));
        }
      if (parent == TV_NODE_NONE)
        {
          g_assert_cmpuint (prev, ==, TV_NODE_NONE);
          g_assert_cmpuint (next, ==, TV_NODE_NONE);
          continue;
        }
      children = tv_call_tree_get_children (tree, parent, &n);
      for (guint i = 0; i < n; i++)
        if (children[i] == node)
          {
            g_assert_cmpuint (prev, ==, i > 0 ? children[i - 1] : TV_NODE_NONE);
            g_assert_cmpuint (next, ==, i + 1 < n ? children[i + 1] : TV_NODE_NONE);
          }
      if (next != TV_NODE_NONE)
        g_assert_cmpuint (tv_flame_navigate (tree, next, TV_FLAME_PREVIOUS_SIBLING), ==, node);
    }
  g_assert_cmpuint (tv_flame_navigate (tree, tv_call_tree_get_n_nodes (tree), TV_FLAME_PARENT),
                    ==, TV_NODE_NONE);
}

static void
test_classify (void)
{
  static const struct
  {
    const char        *path;
    const char        *root;
    TvFlameModuleKind  kind;
  } cases[] = {
    { "/usr/lib/python3.15/json/encoder.py", NULL, TV_FLAME_MODULE_STDLIB },
    { "/home/me/.pyenv/versions/3.15.0/lib/python3.15/threading.py", NULL,
      TV_FLAME_MODULE_STDLIB },
    { "/usr/lib64/python3.14/ast.py", NULL, TV_FLAME_MODULE_STDLIB },
    { "C:\\Python315\\Lib\\json\\encoder.py", NULL, TV_FLAME_MODULE_STDLIB },
    { "<frozen importlib._bootstrap>", NULL, TV_FLAME_MODULE_STDLIB },
    { "/srv/app/.venv/lib/python3.15/site-packages/requests/api.py", "/srv/app",
      TV_FLAME_MODULE_SITE_PACKAGES },
    { "/usr/lib/python3/dist-packages/yaml/scanner.py", NULL, TV_FLAME_MODULE_SITE_PACKAGES },
    { "C:\\app\\venv\\Lib\\site-packages\\numpy\\core.py", NULL, TV_FLAME_MODULE_SITE_PACKAGES },
    { "/srv/app/src/shop/models.py", "/srv/app", TV_FLAME_MODULE_PROJECT },
    { "/srv/app/src/shop/models.py", "/srv/app/", TV_FLAME_MODULE_PROJECT },
    { "/srv/application/x.py", "/srv/app", TV_FLAME_MODULE_OTHER },
    { "/opt/tool/run.py", "/srv/app", TV_FLAME_MODULE_OTHER },
    { "/opt/tool/run.py", NULL, TV_FLAME_MODULE_PROJECT },
    { "shop/views.py", "/srv/app", TV_FLAME_MODULE_PROJECT },
    { "<string>", NULL, TV_FLAME_MODULE_OTHER },
    { "", NULL, TV_FLAME_MODULE_OTHER },
  };
  g_autoptr(TvProfileData) data = NULL;
  g_autofree char *root = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    g_assert_cmpint (tv_flame_classify_file (cases[i].path, cases[i].root), ==, cases[i].kind);

  /* rec_* profiles are recorded from one directory of scripts. */
  data = fixture_load_corpus ("rec_cpu_mix.tach");
  root = tv_flame_guess_project_root (data);
  g_test_message ("project root of rec_cpu_mix.tach: %s", root ? root : "(none)");
  if (root != NULL)
    {
      g_assert_true (g_str_has_suffix (root, "/"));
      for (guint32 f = 0; f < tach_reader_get_n_frames (tv_profile_data_get_reader (data)); f++)
        {
          const char *file = tv_profile_data_get_filename (data, f);

          if (file[0] == '/' && tv_flame_classify_file (file, NULL) == TV_FLAME_MODULE_PROJECT)
            g_assert_true (g_str_has_prefix (file, root));
        }
    }

  /* Module colours: dark ones darker, and all four told apart. */
  for (TvFlameModuleKind k = 0; k < TV_FLAME_N_MODULE_KINDS; k++)
    {
      TvFlameColor light = tv_flame_module_color (k, FALSE);
      TvFlameColor dark = tv_flame_module_color (k, TRUE);

      g_assert_cmpfloat (light.red + light.green + light.blue,
                         >, dark.red + dark.green + dark.blue);
      for (TvFlameModuleKind j = 0; j < k; j++)
        {
          TvFlameColor other = tv_flame_module_color (j, FALSE);

          g_assert_cmpfloat (fabs (other.red - light.red) + fabs (other.green - light.green)
                             + fabs (other.blue - light.blue), >, 0.1);
        }
    }
}

/* CPython's <native> and <GC> frames have colours of their own, apart
 * from every module's, in light and dark; the drawing uses them. */
static void
test_synthetic_colors (void)
{
  g_autoptr(TvProfileData) data = fixture_load_corpus ("legacy_nostats.tach");
  g_autoptr(TvCallTree) tree = fixture_tree (data, TV_MERGE_FRAME, FALSE, TRUE);
  g_autoptr(TvFlameRenderer) renderer = tv_flame_renderer_new (NULL);
  g_autoptr(TvFlameLayout) layout = NULL;
  const TvFlameBox *boxes;
  TvFlameViewport vp;
  TvFlameStyle style;
  guint n, n_native = 0;

  g_assert_cmpint (tv_flame_classify_synthetic ("~", "<GC>"), ==, TV_FLAME_SYNTHETIC_GC);
  g_assert_cmpint (tv_flame_classify_synthetic ("~", "<native>"), ==, TV_FLAME_SYNTHETIC_NATIVE);
  g_assert_cmpint (tv_flame_classify_synthetic ("gc.py", "<GC>"), ==, TV_FLAME_SYNTHETIC_NONE);
  g_assert_cmpint (tv_flame_classify_synthetic ("~", "<module>"), ==, TV_FLAME_SYNTHETIC_NONE);

  for (int dark = 0; dark < 2; dark++)
    {
      TvColor gc = tv_palette_gc (dark);
      TvColor native = tv_palette_native (dark);

      g_assert_cmpfloat (fabs (gc.red - native.red) + fabs (gc.green - native.green)
                         + fabs (gc.blue - native.blue), >, 0.1);
      for (TvFlameModuleKind k = 0; k < TV_FLAME_N_MODULE_KINDS; k++)
        {
          TvFlameColor m = tv_flame_module_color (k, dark);

          g_assert_cmpfloat (fabs (m.red - gc.red) + fabs (m.green - gc.green)
                             + fabs (m.blue - gc.blue), >, 0.1);
          g_assert_cmpfloat (fabs (m.red - native.red) + fabs (m.green - native.green)
                             + fabs (m.blue - native.blue), >, 0.1);
        }
    }

  tv_flame_viewport_init (&vp, tree, 1200, 0);
  layout = tv_flame_layout_new (tree, &vp, NULL);
  boxes = tv_flame_layout_get_boxes (layout, &n);
  for (int dark = 0; dark < 2; dark++)
    {
      g_autoptr(cairo_surface_t) surface = NULL;

      tv_flame_style_init (&style);
      style.dark = dark;
      style.draw_background = TRUE;
      surface = render (renderer, layout, &style);
      check_pixels (renderer, layout, &style, surface);
      for (guint i = 0; i < n; i++)
        {
          guint32 frame;
          TvFlameColor fill, want;

          if (boxes[i].node == TV_ROOT_NODE || (boxes[i].flags & TV_FLAME_BOX_MERGED))
            continue;
          frame = tv_call_tree_get_frame (tree, boxes[i].node);
          fill = tv_flame_renderer_get_fill (renderer, layout, &boxes[i], &style);
          if (strcmp (tv_profile_data_get_funcname (data, frame), "<native>") != 0)
            continue;
          want = tv_palette_native (dark);
          g_assert_true (same_color (tv_color_pack (want), fill));
          n_native++;
        }
    }
  g_assert_cmpuint (n_native, >, 0);
}

/* Exports draw on vector surfaces too. */
static cairo_status_t
discard (void                *closure,
         const unsigned char *data,
         unsigned int         length)
{
  *(gsize *) closure += length;
  return CAIRO_STATUS_SUCCESS;
}

static void
test_vector (void)
{
  g_autoptr(TvProfileData) data = fixture_load_corpus ("rec_threads.tach");
  g_autoptr(TvCallTree) tree = fixture_tree (data, TV_MERGE_FRAME, FALSE, TRUE);
  g_autoptr(TvFlameRenderer) renderer = tv_flame_renderer_new (NULL);
  g_autoptr(TvFlameLayout) layout = NULL;
  TvFlameViewport vp;
  TvFlameStyle style;
  cairo_font_options_t *options = cairo_font_options_create ();

  cairo_font_options_set_hint_metrics (options, CAIRO_HINT_METRICS_OFF);
  cairo_font_options_set_hint_style (options, CAIRO_HINT_STYLE_NONE);
  tv_flame_renderer_set_font_options (renderer, options);
  cairo_font_options_destroy (options);
  tv_flame_viewport_init (&vp, tree, 1200, 0);
  layout = tv_flame_layout_new (tree, &vp, NULL);
  tv_flame_style_init (&style);
  style.draw_background = TRUE;
  style.root_label = "all";

  for (guint format = 0; format < 2; format++)
    {
      gsize written = 0;
      double height = tv_flame_layout_get_content_rows (layout) * vp.row_height;
      g_autoptr(cairo_surface_t) surface =
        format == 0 ? cairo_pdf_surface_create_for_stream (discard, &written, vp.width, height)
                    : cairo_svg_surface_create_for_stream (discard, &written, vp.width, height);
      g_autoptr(cairo_t) cr = cairo_create (surface);

      tv_flame_renderer_draw (renderer, cr, layout, &style);
      g_assert_cmpint (cairo_status (cr), ==, CAIRO_STATUS_SUCCESS);
      cairo_surface_finish (surface);
      g_assert_cmpint (cairo_surface_status (surface), ==, CAIRO_STATUS_SUCCESS);
      g_assert_cmpuint (written, >, 1000);
    }
}

/* PNGs to look at: a real profile, light and dark, by module; by heat and
 * thread state; with a search. */
static void
test_png (void)
{
  static const struct
  {
    const char         *file;
    const char         *profile;
    TvFlameColorScheme  scheme;
    gboolean            dark;
    gboolean            icicle;
    const char         *search;
  } pictures[] = {
    { "flame-light.png", "rec_cpu_mix.tach", TV_FLAME_COLORS_MODULE, FALSE, FALSE, NULL },
    { "flame-dark.png", "rec_cpu_mix.tach", TV_FLAME_COLORS_MODULE, TRUE, FALSE, NULL },
    { "flame-heat-light.png", "rec_asyncio.tach", TV_FLAME_COLORS_HEAT, FALSE, TRUE, NULL },
    { "flame-heat-dark.png", "rec_asyncio.tach", TV_FLAME_COLORS_HEAT, TRUE, TRUE, NULL },
    { "flame-state-light.png", "rec_threads.tach", TV_FLAME_COLORS_THREAD_STATE, FALSE, FALSE,
      NULL },
    { "flame-state-dark.png", "rec_threads.tach", TV_FLAME_COLORS_THREAD_STATE, TRUE, FALSE,
      NULL },
    { "flame-search-light.png", "rec_cpu_mix.tach", TV_FLAME_COLORS_MODULE, FALSE, FALSE,
      "encode" },
    { "flame-search-dark.png", "rec_cpu_mix.tach", TV_FLAME_COLORS_MODULE, TRUE, FALSE,
      "encode" },
    { "flame-unicode-light.png", "unicode_long_strings.tach", TV_FLAME_COLORS_MODULE, FALSE,
      TRUE, NULL },
  };
  g_autoptr(TvFlameRenderer) renderer = tv_flame_renderer_new (NULL);

  for (guint i = 0; i < G_N_ELEMENTS (pictures); i++)
    {
      g_autoptr(TvProfileData) data = fixture_load_corpus (pictures[i].profile);
      g_autoptr(TvCallTree) tree = fixture_tree (data, TV_MERGE_LINE, FALSE, TRUE);
      g_autoptr(TvFlameLayout) layout = NULL;
      g_autoptr(TvFlameMatches) matches = NULL;
      g_autoptr(cairo_surface_t) surface = NULL;
      g_autofree char *path = g_test_build_filename (G_TEST_BUILT, pictures[i].file, NULL);
      TvFlameViewport vp;
      TvFlameStyle style;
      guint32 selected;

      tv_flame_viewport_init (&vp, tree, 1400, 0);
      vp.orientation = pictures[i].icicle ? TV_FLAME_ORIENTATION_ICICLE
                                          : TV_FLAME_ORIENTATION_FLAME;
      layout = tv_flame_layout_new (tree, &vp, NULL);
      tv_flame_style_init (&style);
      style.scheme = pictures[i].scheme;
      style.dark = pictures[i].dark;
      style.draw_background = TRUE;
      style.root_label = "all";
      /* Select the widest frame two levels down, hover its widest child. */
      selected = tv_flame_navigate (tree, tv_flame_navigate (tree, TV_ROOT_NODE, TV_FLAME_CHILD),
                                    TV_FLAME_CHILD);
      style.selected = selected;
      style.hovered = selected != TV_NODE_NONE ? tv_flame_navigate (tree, selected, TV_FLAME_CHILD)
                                               : TV_NODE_NONE;
      if (pictures[i].search != NULL)
        {
          guint32 n_keys = tv_profile_data_get_n_keys (data, TV_MERGE_LINE);
          g_autofree guint8 *keys = g_new0 (guint8, n_keys);

          for (guint32 k = 0; k < n_keys; k++)
            {
              guint32 frame = tv_profile_data_get_key_frame (data, TV_MERGE_LINE, k);

              keys[k] = strstr (tv_profile_data_get_funcname (data, frame),
                                pictures[i].search) != NULL;
            }
          matches = tv_flame_matches_new (tree, keys, NULL);
          style.matches = matches;
          g_test_message ("%s: \"%s\" matches %u frames, %" G_GUINT64_FORMAT " of %"
                          G_GUINT64_FORMAT " samples", pictures[i].file, pictures[i].search,
                          tv_flame_matches_get_n_nodes (matches),
                          tv_flame_matches_get_n_samples (matches),
                          tv_call_tree_get_n_samples (tree));
        }
      surface = render (renderer, layout, &style);
      g_assert_cmpint (cairo_surface_write_to_png (surface, path), ==, CAIRO_STATUS_SUCCESS);
      g_test_message ("wrote %s", path);
    }
}

/* Thousands of boxes are drawn as an image (small layouts, as in the
 * corpus tests, with a fill per box): the same pixels, at any scale. */
static void
test_raster (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (base_seed);
  FormatTestDir tmp;
  g_autoptr(TvProfileData) data = NULL;
  g_autoptr(TvCallTree) tree = NULL;
  g_autoptr(TvFlameRenderer) renderer = tv_flame_renderer_new (NULL);
  g_autoptr(TvFlameLayout) big = NULL;
  g_autoptr(cairo_surface_t) whole = NULL;
  g_autoptr(cairo_surface_t) scaled = NULL;
  TvFlameViewport vp;
  TvFlameStyle style;
  guint n;

  format_test_dir_init (&tmp, "tv-flame-XXXXXX");
  /* Enough samples for thousands of boxes. */
  for (guint tries = 0; tries < 20; tries++)
    {
      g_clear_pointer (&tree, tv_call_tree_unref);
      g_clear_pointer (&big, tv_flame_layout_unref);
      g_clear_pointer (&data, tv_profile_data_unref);
      generate_profile (rand, tmp.path);
      data = fixture_load (tmp.path);
      tree = fixture_tree (data, TV_MERGE_FRAME, FALSE, TRUE);
      tv_flame_viewport_init (&vp, tree, 1920, 1080);
      /* Frames down to a fifth of a pixel get boxes of their own. */
      vp.min_width = 0.2;
      big = tv_flame_layout_new (tree, &vp, NULL);
      check_layout (big);
      tv_flame_layout_get_boxes (big, &n);
      if (n > 3000)
        break;
    }
  g_test_message ("%u boxes", n);
  g_assert_cmpuint (n, >, 3000);

  tv_flame_style_init (&style);
  style.draw_background = TRUE;
  for (guint dark = 0; dark < 2; dark++)
    {
      style.dark = dark;
      g_clear_pointer (&whole, cairo_surface_destroy);
      whole = render (renderer, big, &style);
      g_assert_cmpuint (check_pixels (renderer, big, &style, whole), >, 20);
    }

  /* Twice the size, as on a high-resolution screen: the image is drawn
   * with the nearest filter, so boxes stay sharp and in place. */
  scaled = render_scaled (renderer, big, &style, 2);
  g_assert_cmpuint (check_pixels_scaled (renderer, big, &style, scaled, 2), >, 20);

  format_test_dir_clear (&tmp);
}

/* A profile of one function called ten times, FUNC in FILE. */
static TvProfileData *
load_one_function (const char *dir,
                   const char *func,
                   const char *file)
{
  g_autofree char *path = g_build_filename (dir, "one.tach", NULL);
  TachWriterOptions options = { 0 };
  TachWriter *writer = NULL;
  TachFrameInfo info = { file, func, 1, -1, -1, -1, TACH_OPCODE_NONE };
  TachError error;
  TvProfileData *data;
  guint32 frame;

  options.sample_interval_us = 1000;
  options.mode_raw = 1;
  if (tach_writer_new (path, &options, &writer, &error) != TACH_OK
      || tach_writer_intern_frame (writer, &info, &frame, &error) != TACH_OK)
    g_error ("writer: %s", error.message);
  for (guint s = 0; s < 10; s++)
    if (tach_writer_add_sample (writer, 1, 0, 1000 + s, TACH_STATUS_ON_CPU, &frame, 1,
                                &error) != TACH_OK)
      g_error ("sample: %s", error.message);
  if (tach_writer_finish (writer, &error) != TACH_OK)
    g_error ("finish: %s", error.message);
  data = fixture_load (path);
  g_unlink (path);
  return data;
}

/* The flame graph of FUNC in FILE, 600 pixels wide, coloured by heat (so
 * that the name changes no colour), written to PNG to look at. */
static cairo_surface_t *
render_one_function (TvFlameRenderer *renderer,
                     const char      *dir,
                     const char      *func,
                     const char      *file,
                     const char      *png)
{
  g_autoptr(TvProfileData) data = load_one_function (dir, func, file);
  g_autoptr(TvCallTree) tree = fixture_tree (data, TV_MERGE_FUNCTION, FALSE, TRUE);
  g_autoptr(TvFlameLayout) layout = NULL;
  g_autofree char *path = g_test_build_filename (G_TEST_BUILT, png, NULL);
  cairo_surface_t *surface;
  TvFlameViewport vp;
  TvFlameStyle style;

  tv_flame_viewport_init (&vp, tree, 600, 0);
  layout = tv_flame_layout_new (tree, &vp, NULL);
  tv_flame_style_init (&style);
  style.scheme = TV_FLAME_COLORS_HEAT;
  style.draw_background = TRUE;
  style.root_label = "all";
  surface = render (renderer, layout, &style);
  g_assert_cmpint (cairo_surface_write_to_png (surface, path), ==, CAIRO_STATUS_SUCCESS);
  return surface;
}

static gboolean
same_pixels (cairo_surface_t *a,
             cairo_surface_t *b)
{
  int height = cairo_image_surface_get_height (a);
  int stride = cairo_image_surface_get_stride (a);

  g_assert_cmpint (cairo_image_surface_get_width (a), ==, cairo_image_surface_get_width (b));
  g_assert_cmpint (height, ==, cairo_image_surface_get_height (b));
  g_assert_cmpint (stride, ==, cairo_image_surface_get_stride (b));
  return memcmp (cairo_image_surface_get_data (a), cairo_image_surface_get_data (b),
                 (gsize) stride * height) == 0;
}

/* A label shows control and bidirectional characters, and obeys none:
 * the box of a function whose name has them is drawn exactly as the box
 * of a function named with what tv-text.h says they are shown as (the
 * characters drawn and their order), and not as without them. */
static void
test_label_text (void)
{
  static const struct
  {
    const char *func;
    const char *file;
    const char *shown_func;
    const char *shown_file;
    const char *without;
  } names[] = {
    /* Obeyed, U+202E draws "safe_exe.png". */
    { "safe_\u202egnp.exe", "app.py", "safe_[U+202E]gnp.exe", "app.py", "safe_gnp.exe" },
    { "tab\there\nnew\rline", "app.py", "tab\u2409here\u240anew\u240dline", "app.py",
      "tabherenewline" },
    { "\u2067isolate\u2069\xc2\x85\x7f" "end", "/srv/\u202ekcart/\u2066yp.x\u2028.py",
      "[U+2067]isolate[U+2069][U+85]\u2421end", "/srv/[U+202E]kcart/[U+2066]yp.x[U+2028].py",
      "isolateend" },
  };
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("tv-test-flame-XXXXXX", &error);
  g_autoptr(TvFlameRenderer) renderer = tv_flame_renderer_new (NULL);

  g_assert_no_error (error);
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *hostile_png = g_strdup_printf ("flame-text-%u-hostile.png", i);
      g_autofree char *shown_png = g_strdup_printf ("flame-text-%u-shown.png", i);
      g_autofree char *without_png = g_strdup_printf ("flame-text-%u-without.png", i);
      g_autoptr(cairo_surface_t) hostile =
        render_one_function (renderer, dir, names[i].func, names[i].file, hostile_png);
      g_autoptr(cairo_surface_t) shown =
        render_one_function (renderer, dir, names[i].shown_func, names[i].shown_file, shown_png);
      g_autoptr(cairo_surface_t) without =
        render_one_function (renderer, dir, names[i].without, names[i].shown_file, without_png);

      g_assert_true (same_pixels (hostile, shown));
      g_assert_false (same_pixels (hostile, without));
    }
  g_rmdir (dir);
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(GPtrArray) names = NULL;

  g_test_init (&argc, &argv, NULL);

  base_seed = fixture_seed ();

  names = fixture_list_corpus ();
  fixture_add_corpus_tests (names, "/flame/corpus", test_corpus);
  fixture_add_numbered_tests ("/flame/random", N_RANDOM_TREES, test_random);
  g_test_add_func ("/flame/layout/empty", test_empty);
  g_test_add_func ("/flame/layout/cancel", test_cancel);
  g_test_add_func ("/flame/layout/thread", test_thread);
  g_test_add_func ("/flame/matches", test_matches);
  g_test_add_func ("/flame/navigate", test_navigate);
  g_test_add_func ("/flame/classify", test_classify);
  g_test_add_func ("/flame/render/raster", test_raster);
  g_test_add_func ("/flame/render/vector", test_vector);
  g_test_add_func ("/flame/render/synthetic-colors", test_synthetic_colors);
  g_test_add_func ("/flame/render/png", test_png);
  g_test_add_func ("/flame/render/label-text", test_label_text);
  g_test_add_func ("/flame/render/edges", test_edges);

  return g_test_run ();
}
