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

/* "1,234 samples (12.3 %, 1.23 s of thread time)" for the tooltips. */
static char *
describe_samples (TvCallTree *tree,
                  guint64     samples)
{
  guint64 whole = tv_call_tree_get_n_samples (tree);
  g_autofree char *count = tv_format_count (samples);
  g_autofree char *share = tv_format_share (samples, whole);
  g_autofree char *seconds = tv_format_thread_time (tv_call_tree_samples_to_seconds (tree, samples,
                                                                                     NULL));

  /* Translators: "1,234 samples (12.3 %, 1.23 s of thread time)". */
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s sample (%s, %s)",
                                       "%s samples (%s, %s)",
                                       samples > G_MAXULONG ? G_MAXULONG : (gulong) samples),
                          count, share, seconds);
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

static gboolean
on_cell_query_tooltip (GtkWidget   *widget,
                       int          x,
                       int          y,
                       gboolean     keyboard,
                       GtkTooltip  *tooltip,
                       GtkListItem *list_item)
{
  CellKind kind = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (widget), "tv-cell-kind"));
  TvCallNode *item = list_item_get_node (list_item);
  g_autofree char *text = NULL;
  TvCallTree *tree;
  guint32 node, frame;
  GString *string;

  if (item == NULL)
    return FALSE;
  tree = tv_call_node_get_tree (item);
  node = tv_call_node_get_node (item);
  switch (kind)
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
      text = g_string_free (string, FALSE);
      break;
    case CELL_SELF:
      text = describe_samples (tree, tv_call_node_get_self (item));
      break;
    case CELL_TOTAL:
      text = describe_samples (tree, tv_call_node_get_total (item));
      break;
    default:
      g_assert_not_reached ();
    }
  gtk_tooltip_set_text (tooltip, text);
  return TRUE;
}

static GtkWidget *
new_label (float       xalign,
           const char *css_class)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), xalign);
  if (css_class != NULL)
    gtk_widget_add_css_class (label, css_class);
  return label;
}

static void
setup_cell (GtkSignalListItemFactory *factory,
            GtkListItem              *list_item,
            gpointer                  user_data)
{
  CellKind kind = GPOINTER_TO_UINT (user_data);
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *first, *second, *child = box;

  if (kind == CELL_FUNCTION)
    {
      /* The middle of a long name goes, so that two names that share
       * their start stay two different names. */
      first = new_label (0.0, NULL);
      gtk_label_set_ellipsize (GTK_LABEL (first), PANGO_ELLIPSIZE_MIDDLE);
      gtk_label_set_width_chars (GTK_LABEL (first), 10);
      second = new_label (0.0, "caption");
      gtk_label_set_ellipsize (GTK_LABEL (second), PANGO_ELLIPSIZE_MIDDLE);
      gtk_widget_add_css_class (second, "dim-label");
      child = gtk_tree_expander_new ();
      gtk_tree_expander_set_child (GTK_TREE_EXPANDER (child), box);
    }
  else
    {
      first = new_label (1.0, "numeric");
      second = new_label (1.0, "numeric");
      gtk_widget_add_css_class (second, "caption");
      gtk_widget_add_css_class (second, "dim-label");
    }
  gtk_box_append (GTK_BOX (box), first);
  gtk_box_append (GTK_BOX (box), second);
  g_object_set_data (G_OBJECT (child), "tv-cell-kind", GUINT_TO_POINTER (kind));
  g_object_set_data (G_OBJECT (child), "tv-first", first);
  g_object_set_data (G_OBJECT (child), "tv-second", second);
  gtk_widget_set_has_tooltip (child, TRUE);
  /* The list item owns the cell: it outlives the handler. */
  g_signal_connect (child, "query-tooltip", G_CALLBACK (on_cell_query_tooltip), list_item);
  gtk_list_item_set_child (list_item, child);
}

static void
bind_cell (GtkSignalListItemFactory *factory,
           GtkListItem              *list_item,
           gpointer                  user_data)
{
  CellKind kind = GPOINTER_TO_UINT (user_data);
  GtkWidget *child = gtk_list_item_get_child (list_item);
  GtkLabel *first = g_object_get_data (G_OBJECT (child), "tv-first");
  GtkLabel *second = g_object_get_data (G_OBJECT (child), "tv-second");
  TvCallNode *item = list_item_get_node (list_item);
  TvCallTree *tree = tv_call_node_get_tree (item);
  guint32 node = tv_call_node_get_node (item);
  char share[32], detail[96];

  switch (kind)
    {
    case CELL_FUNCTION:
      {
        g_autofree char *name = NULL;
        g_autofree char *location = dup_location (tree, node);

        name = tv_text_dup_shown (tv_profile_data_get_funcname (tv_call_tree_get_data (tree),
                                                                tv_call_tree_get_frame (tree,
                                                                                        node)));
        gtk_tree_expander_set_list_row (GTK_TREE_EXPANDER (child),
                                        gtk_list_item_get_item (list_item));
        gtk_label_set_text (first, name);
        gtk_label_set_text (second, location);
      }
      break;
    case CELL_SELF:
      format_samples (tree, tv_call_node_get_self (item), share, sizeof share, detail,
                      sizeof detail);
      gtk_label_set_text (first, share);
      gtk_label_set_text (second, detail);
      break;
    case CELL_TOTAL:
      format_samples (tree, tv_call_node_get_total (item), share, sizeof share, detail,
                      sizeof detail);
      gtk_label_set_text (first, share);
      gtk_label_set_text (second, detail);
      break;
    default:
      g_assert_not_reached ();
    }
}

static void
unbind_cell (GtkSignalListItemFactory *factory,
             GtkListItem              *list_item,
             gpointer                  user_data)
{
  GtkWidget *child = gtk_list_item_get_child (list_item);

  if (GTK_IS_TREE_EXPANDER (child))
    gtk_tree_expander_set_list_row (GTK_TREE_EXPANDER (child), NULL);
}

/* ------------------------------------------------------------------------ */
/* Sorters                                                                   */
/* ------------------------------------------------------------------------ */

int
tv_call_tree_view_compare_function (gconstpointer a,
                                    gconstpointer b,
                                    gpointer      user_data)
{
  TvCallNode *x = (TvCallNode *) a, *y = (TvCallNode *) b;
  TvCallTree *tree = tv_call_node_get_tree (x);
  const guint32 *ranks = tv_profile_data_get_key_ranks (tv_call_tree_get_data (tree),
                                                        tv_call_tree_get_merge (tree));
  guint32 rx = ranks[tv_call_tree_get_key (tree, tv_call_node_get_node (x))];
  guint32 ry = ranks[tv_call_tree_get_key (tree, tv_call_node_get_node (y))];

  return (rx > ry) - (rx < ry);
}

int
tv_call_tree_view_compare_self (gconstpointer a,
                                gconstpointer b,
                                gpointer      user_data)
{
  guint64 x = tv_call_node_get_self ((TvCallNode *) a);
  guint64 y = tv_call_node_get_self ((TvCallNode *) b);

  return (x > y) - (x < y);
}

int
tv_call_tree_view_compare_total (gconstpointer a,
                                 gconstpointer b,
                                 gpointer      user_data)
{
  guint64 x = tv_call_node_get_total ((TvCallNode *) a);
  guint64 y = tv_call_node_get_total ((TvCallNode *) b);

  return (x > y) - (x < y);
}

void
tv_call_tree_view_set_column (GtkColumnViewColumn *column,
                              CellKind             kind,
                              GCompareDataFunc     compare)
{
  g_autoptr(GtkListItemFactory) factory = gtk_signal_list_item_factory_new ();
  g_autoptr(GtkSorter) sorter = GTK_SORTER (gtk_custom_sorter_new (compare, NULL, NULL));

  g_signal_connect (factory, "setup", G_CALLBACK (setup_cell), GUINT_TO_POINTER (kind));
  g_signal_connect (factory, "bind", G_CALLBACK (bind_cell), GUINT_TO_POINTER (kind));
  g_signal_connect (factory, "unbind", G_CALLBACK (unbind_cell), GUINT_TO_POINTER (kind));
  gtk_column_view_column_set_factory (column, factory);
  gtk_column_view_column_set_sorter (column, sorter);
}
