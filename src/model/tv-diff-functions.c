/* tv-diff-functions.c: the function table of a diff
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A row per function that either side has samples of, matched by file and
 * name, with the totals (a recursive function counted once) and selves of
 * both sides tested as the nodes are; the largest change of its total
 * first.
 */
#include "tv-diff-private.h"

#include <math.h>
#include <stdlib.h>

static int
compare_rows (const void *pa,
              const void *pb)
{
  const TvDiffFunction *a = pa, *b = pb;
  double da = fabs (a->total.delta), db = fabs (b->total.delta);
  guint32 ka = a->new_function != TV_NODE_NONE ? a->new_function : G_MAXUINT32 - 1;
  guint32 kb = b->new_function != TV_NODE_NONE ? b->new_function : G_MAXUINT32 - 1;

  if (da != db)
    return da > db ? -1 : 1;
  if (ka != kb)
    return ka < kb ? -1 : 1;
  return a->base_function < b->base_function ? -1 : a->base_function > b->base_function;
}

void
tv_diff_build_functions (TvDiff *self)
{
  const TvKeyMap *map = tv_diff_function_map (self);
  TvCallTree *base = self->sides[TV_DIFF_SIDE_BASE].tree;
  TvCallTree *new_tree = self->sides[TV_DIFF_SIDE_NEW].tree;
  guint n_base, n_new, n_rows = 0;
  const TvFunctionRow *base_rows = tv_call_tree_get_functions (base, &n_base);
  const TvFunctionRow *new_rows = tv_call_tree_get_functions (new_tree, &n_new);
  g_autofree guint *row_of = g_new (guint, MAX (map->n_base, 1));
  g_autofree guint64 *totals = g_new0 (guint64, (gsize) (n_base + n_new) * 4 + 1);

  for (guint32 f = 0; f < map->n_base; f++)
    row_of[f] = G_MAXUINT;

  self->rows = g_new0 (TvDiffFunction, MAX (n_base + n_new, 1));
  /* Samples per row: base total, new total, base self, new self. */
  for (guint i = 0; i < n_base; i++)
    {
      guint r = n_rows++;

      self->rows[r].base_function = base_rows[i].function;
      self->rows[r].new_function = tv_key_map_lookup (map, TV_DIFF_SIDE_BASE,
                                                      base_rows[i].function);
      totals[r * 4] = base_rows[i].total;
      totals[r * 4 + 2] = base_rows[i].self;
      row_of[base_rows[i].function] = r;
    }
  for (guint i = 0; i < n_new; i++)
    {
      guint32 f = tv_key_map_lookup (map, TV_DIFF_SIDE_NEW, new_rows[i].function);
      guint r = f != TV_NODE_NONE ? row_of[f] : G_MAXUINT;

      if (r == G_MAXUINT)
        {
          r = n_rows++;
          self->rows[r].base_function = f;
          self->rows[r].new_function = new_rows[i].function;
        }
      totals[r * 4 + 1] = new_rows[i].total;
      totals[r * 4 + 3] = new_rows[i].self;
    }

  for (guint r = 0; r < n_rows; r++)
    {
      const guint64 *t = totals + r * 4;

      tv_diff_fill_measure (self, t[0], t[1], tv_diff_test (self, t[0], t[1]),
                            &self->rows[r].total);
      tv_diff_fill_measure (self, t[2], t[3], tv_diff_test (self, t[2], t[3]),
                            &self->rows[r].self);
    }
  qsort (self->rows, n_rows, sizeof (TvDiffFunction), compare_rows);
  self->n_rows = n_rows;
}

const TvDiffFunction *
tv_diff_get_functions (TvDiff *self,
                       guint  *n_rows)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (n_rows != NULL, NULL);
  *n_rows = self->n_rows;
  return self->rows;
}

/* The row's function name, or its file when FILE, from whichever side
 * has the function. */
static const char *
row_string (TvDiff               *self,
            const TvDiffFunction *row,
            gboolean              file)
{
  TvDiffSide side;
  TvProfileData *data;
  guint32 frame;

  g_return_val_if_fail (self != NULL, "");
  g_return_val_if_fail (row != NULL, "");

  side = row->new_function != TV_NODE_NONE ? TV_DIFF_SIDE_NEW : TV_DIFF_SIDE_BASE;
  data = tv_call_tree_get_data (self->sides[side].tree);
  frame = tv_profile_data_get_key_frame (data, TV_MERGE_FUNCTION,
                                         side == TV_DIFF_SIDE_NEW ? row->new_function
                                                                  : row->base_function);
  return file ? tv_profile_data_get_filename (data, frame)
              : tv_profile_data_get_funcname (data, frame);
}

const char *
tv_diff_get_function_name (TvDiff               *self,
                           const TvDiffFunction *row)
{
  return row_string (self, row, FALSE);
}

const char *
tv_diff_get_function_file (TvDiff               *self,
                           const TvDiffFunction *row)
{
  return row_string (self, row, TRUE);
}
