/* tv-call-tree-view-cells.c: the call tree's columns
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What each column's cells show (the function with its expander, self
 * and total samples and shares, tooltips made when asked for) and how
 * each column sorts.
 */
#include <string.h>

#include <glib/gi18n.h>

#include "tv-call-node.h"
#include "tv-cells.h"
#include "tv-call-tree-view-private.h"
#include "tv-text.h"
#include "tv-units.h"

/* ------------------------------------------------------------------------ */
/* Cells                                                                     */
/* ------------------------------------------------------------------------ */

/* The node a list item shows, or NULL (borrowed: the row holds it). */
static TvCallNode *
list_item_get_node (GtkListItem *list_item)
{
  GtkTreeListRow *row = gtk_list_item_get_item (list_item);
  g_autoptr(GObject) item = NULL;

  if (row == NULL)
    return NULL;
  item = gtk_tree_list_row_get_item (row);
  return TV_CALL_NODE (item);
}

/* "12.3 %" and "1,234 · 1.23 s" for SAMPLES of TREE: the seconds are
 * thread time, as the line above the tree says. */
static void
format_samples (TvCallTree *tree,
                guint64     samples,
                char       *share,
                gsize       share_size,
                char       *detail,
                gsize       detail_size)
{
  guint64 whole = tv_call_tree_get_n_samples (tree);
  g_autofree char *shared = tv_format_share (samples, whole);
  g_autofree char *count = tv_format_count (samples);
  g_autofree char *seconds = tv_format_duration (tv_call_tree_samples_to_seconds (tree, samples,
                                                                                  NULL));

  g_strlcpy (share, shared, share_size);
  /* Translators: a call tree cell's samples and their thread time, e.g.
   * "1,234 · 1.23 s". */
  g_snprintf (detail, detail_size, _("%s · %s"), count, seconds);
}

/* "file.py" for a function, "file.py:12" for a finer key. */
static char *
dup_location (TvCallTree *tree,
              guint32     node)
{
  TvProfileData *data = tv_call_tree_get_data (tree);
  guint32 frame = tv_call_tree_get_frame (tree, node);
  const char *file = tv_profile_data_get_filename (data, frame);
  const char *base = strrchr (file, '/');
  TvFrameLocation location;
  g_autofree char *shown = NULL;

  base = base != NULL && base[1] != '\0' ? base + 1 : file;
  shown = tv_text_dup_shown (base);
  if (tv_call_tree_get_merge (tree) != TV_MERGE_FUNCTION
      && tv_profile_data_get_frame_location (data, frame, &location)
      && location.line != TV_LOCATION_NONE)
    return g_strdup_printf ("%s:%d", shown, location.line);
  return g_steal_pointer (&shown);
}

/* "12 smaller frames" for a remainder row, and (in DETAIL) what that
 * means. */
static char *
remainder_text (TvCallNode  *item,
                const char **detail)
{
  guint32 parent = TV_NODE_NONE;
  guint32 n;

  tv_call_node_is_remainder (item, &parent);
  n = tv_call_tree_get_remainder_children (tv_call_node_get_tree (item), parent);
  if (detail != NULL)
    *detail = _("Too small to list here");
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u smaller frame",
                                       "%u smaller frames", n), n);
}

static char *
describe_cell (GtkListItem *list_item,
               guint        kind)
{
  TvCallNode *item = list_item_get_node (list_item);
  TvCallTree *tree;
  guint32 node, frame;
  GString *string;

  if (item == NULL)
    return NULL;
  tree = tv_call_node_get_tree (item);
  node = tv_call_node_get_node (item);
  if (kind == CELL_FUNCTION && tv_call_node_is_remainder (item, NULL))
    return remainder_text (item, NULL);
  switch ((CellKind) kind)
    {
    case CELL_FUNCTION:
      /* The whole name on a line, the file on the next: shown, not
       * obeyed. */
      frame = tv_call_tree_get_frame (tree, node);
      string = g_string_new (NULL);
      tv_text_append_shown (string, tv_profile_data_get_funcname (tv_call_tree_get_data (tree),
                                                                  frame), -1);
      g_string_append_c (string, '\n');
      tv_text_append_shown (string, tv_profile_data_get_filename (tv_call_tree_get_data (tree),
                                                                  frame), -1);
      return g_string_free (string, FALSE);
    case CELL_SELF:
      return tv_cell_describe_samples (tree, tv_call_node_get_self (item));
    case CELL_TOTAL:
      return tv_cell_describe_samples (tree, tv_call_node_get_total (item));
    default:
      g_assert_not_reached ();
    }
}

static void
setup_cell (GtkListItem *list_item,
            guint        kind)
{
  GtkWidget *first, *second, *child;

  if (kind == CELL_FUNCTION)
    {
      /* The middle of a long name goes, so that two names that share
       * their start stay two different names. */
      child = gtk_tree_expander_new ();
      gtk_tree_expander_set_child (GTK_TREE_EXPANDER (child),
                                   tv_cell_pair_new (0.0, NULL, &first, &second));
      gtk_label_set_ellipsize (GTK_LABEL (first), PANGO_ELLIPSIZE_MIDDLE);
      gtk_label_set_width_chars (GTK_LABEL (first), 10);
      gtk_label_set_ellipsize (GTK_LABEL (second), PANGO_ELLIPSIZE_MIDDLE);
    }
  else
    child = tv_cell_pair_new (1.0, "numeric", NULL, NULL);
  tv_cell_set_child (list_item, child, kind, describe_cell);
}

static void
bind_cell (GtkListItem *list_item,
           guint        kind)
{
  GtkWidget *child = gtk_list_item_get_child (list_item);
  TvCallNode *item = list_item_get_node (list_item);
  TvCallTree *tree = tv_call_node_get_tree (item);
  guint32 node = tv_call_node_get_node (item);
  char share[32], detail[96];

  switch (kind)
    {
    case CELL_FUNCTION:
      {
        g_autofree char *name = NULL;
        g_autofree char *location = NULL;
        const char *second;

        if (tv_call_node_is_remainder (item, NULL))
          name = remainder_text (item, &second);
        else
          {
            location = dup_location (tree, node);
            name = tv_text_dup_shown (tv_profile_data_get_funcname (tv_call_tree_get_data (tree),
                                                                    tv_call_tree_get_frame (tree,
                                                                                            node)));
            second = location;
          }
        gtk_tree_expander_set_list_row (GTK_TREE_EXPANDER (child),
                                        gtk_list_item_get_item (list_item));
        tv_cell_pair_set_text (gtk_tree_expander_get_child (GTK_TREE_EXPANDER (child)), name,
                               second);
      }
      break;
    case CELL_SELF:
    case CELL_TOTAL:
      format_samples (tree, kind == CELL_SELF ? tv_call_node_get_self (item)
                                              : tv_call_node_get_total (item),
                      share, sizeof share, detail, sizeof detail);
      tv_cell_pair_set_text (child, share, detail);
      break;
    default:
      g_assert_not_reached ();
    }
}

static void
unbind_cell (GtkListItem *list_item,
             guint        kind)
{
  GtkWidget *child = gtk_list_item_get_child (list_item);

  if (GTK_IS_TREE_EXPANDER (child))
    gtk_tree_expander_set_list_row (GTK_TREE_EXPANDER (child), NULL);
}

/* ------------------------------------------------------------------------ */
/* Sorters                                                                   */
/* ------------------------------------------------------------------------ */

/* How the rows sort by a column of the kind USER_DATA. */
static int
compare_cells (gconstpointer a,
               gconstpointer b,
               gpointer      user_data)
{
  TvCallNode *x = (TvCallNode *) a, *y = (TvCallNode *) b;
  TvCallTree *tree = tv_call_node_get_tree (x);
  const guint32 *ranks;
  guint64 vx, vy;

  switch ((CellKind) GPOINTER_TO_UINT (user_data))
    {
    case CELL_FUNCTION:
      ranks = tv_profile_data_get_key_ranks (tv_call_tree_get_data (tree),
                                             tv_call_tree_get_merge (tree));
      /* The frames left out come after those listed. */
      vx = tv_call_node_is_remainder (x, NULL)
           ? G_MAXUINT64 : ranks[tv_call_tree_get_key (tree, tv_call_node_get_node (x))];
      vy = tv_call_node_is_remainder (y, NULL)
           ? G_MAXUINT64 : ranks[tv_call_tree_get_key (tree, tv_call_node_get_node (y))];
      break;
    case CELL_SELF:
      vx = tv_call_node_get_self (x);
      vy = tv_call_node_get_self (y);
      break;
    case CELL_TOTAL:
      vx = tv_call_node_get_total (x);
      vy = tv_call_node_get_total (y);
      break;
    default:
      g_assert_not_reached ();
    }
  return (vx > vy) - (vx < vy);
}

void
tv_call_tree_view_set_column (GtkColumnViewColumn *column,
                              CellKind             kind)
{
  tv_cell_set_column (column, kind, setup_cell, bind_cell, unbind_cell, compare_cells);
}
