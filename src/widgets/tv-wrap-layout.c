/* tv-wrap-layout.c: children in a row that wraps onto more lines
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A toolbar of a page that must fit a small screen: its minimum width is
 * that of its widest child, not the sum of them all.  Unlike GtkFlowBox,
 * which lines its children up in columns (a grid), each line here is laid
 * out on its own, like a horizontal GtkBox.
 */
#include "tv-wrap-layout.h"

struct _TvWrapLayout
{
  GtkLayoutManager parent_instance;

  int              spacing;
};

G_DEFINE_FINAL_TYPE (TvWrapLayout, tv_wrap_layout, GTK_TYPE_LAYOUT_MANAGER)

typedef struct
{
  GtkWidget *widget;
  int        minimum;
  int        natural;
  int        width;      /* on its line, once broken into lines */
  gboolean   expand;
} Item;

/* The visible children and their widths. */
static GArray *
collect_items (GtkWidget *widget)
{
  GArray *items = g_array_new (FALSE, TRUE, sizeof (Item));

  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      Item item = { child, 0, 0, 0, FALSE };

      if (!gtk_widget_should_layout (child))
        continue;
      gtk_widget_measure (child, GTK_ORIENTATION_HORIZONTAL, -1, &item.minimum, &item.natural,
                          NULL, NULL);
      item.expand = gtk_widget_compute_expand (child, GTK_ORIENTATION_HORIZONTAL);
      g_array_append_val (items, item);
    }
  return items;
}

/* Puts on the line that starts at FIRST the items that fit in WIDTH at
 * their minimum (at least one), shares WIDTH among them as a GtkBox
 * does, and returns the index after the line's last item. */
static guint
break_line (TvWrapLayout *self,
            GArray       *items,
            guint         first,
            int           width)
{
  Item *item = &g_array_index (items, Item, 0);
  g_autofree GtkRequestedSize *sizes = NULL;
  guint end = first + 1, n_expand = 0;
  int used = item[first].minimum, extra;

  while (end < items->len && used + self->spacing + item[end].minimum <= width)
    used += self->spacing + item[end++].minimum;

  sizes = g_new0 (GtkRequestedSize, end - first);
  for (guint i = first; i < end; i++)
    {
      sizes[i - first].minimum_size = item[i].minimum;
      sizes[i - first].natural_size = item[i].natural;
      n_expand += item[i].expand;
    }
  extra = gtk_distribute_natural_allocation (MAX (width - used, 0), end - first, sizes);
  for (guint i = first; i < end; i++)
    {
      item[i].width = sizes[i - first].minimum_size;
      if (item[i].expand)
        {
          int share = extra / n_expand--;

          item[i].width += share;
          extra -= share;
        }
    }
  return end;
}

/* The height of the line of items FIRST to END - 1. */
static void
measure_line (GArray *items,
              guint   first,
              guint   end,
              int    *minimum,
              int    *natural)
{
  *minimum = *natural = 0;
  for (guint i = first; i < end; i++)
    {
      Item *item = &g_array_index (items, Item, i);
      int child_min, child_nat;

      gtk_widget_measure (item->widget, GTK_ORIENTATION_VERTICAL, item->width, &child_min,
                          &child_nat, NULL, NULL);
      *minimum = MAX (*minimum, child_min);
      *natural = MAX (*natural, child_nat);
    }
}

static GtkSizeRequestMode
tv_wrap_layout_get_request_mode (GtkLayoutManager *manager,
                                 GtkWidget        *widget)
{
  return GTK_SIZE_REQUEST_HEIGHT_FOR_WIDTH;
}

static void
tv_wrap_layout_measure (GtkLayoutManager *manager,
                        GtkWidget        *widget,
                        GtkOrientation    orientation,
                        int               for_size,
                        int              *minimum,
                        int              *natural,
                        int              *minimum_baseline,
                        int              *natural_baseline)
{
  TvWrapLayout *self = TV_WRAP_LAYOUT (manager);
  g_autoptr(GArray) items = collect_items (widget);
  int widest = 0, one_line = 0;

  for (guint i = 0; i < items->len; i++)
    {
      Item *item = &g_array_index (items, Item, i);

      widest = MAX (widest, item->minimum);
      one_line += item->natural + (i > 0 ? self->spacing : 0);
    }
  *minimum = *natural = 0;
  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      *minimum = widest;
      *natural = one_line;
      return;
    }
  /* Without a width, as wide as it would like: one line. */
  for (guint first = 0, end; first < items->len; first = end)
    {
      int line_min, line_nat;

      end = break_line (self, items, first, MAX (for_size < 0 ? one_line : for_size, widest));
      measure_line (items, first, end, &line_min, &line_nat);
      *minimum += line_min + (first > 0 ? self->spacing : 0);
      *natural += line_nat + (first > 0 ? self->spacing : 0);
    }
}

static void
tv_wrap_layout_allocate (GtkLayoutManager *manager,
                         GtkWidget        *widget,
                         int               width,
                         int               height,
                         int               baseline)
{
  TvWrapLayout *self = TV_WRAP_LAYOUT (manager);
  g_autoptr(GArray) items = collect_items (widget);
  gboolean rtl = gtk_widget_get_direction (widget) == GTK_TEXT_DIR_RTL;
  int y = 0;

  for (guint first = 0, end; first < items->len; first = end)
    {
      int line_min, line_nat, x = 0;

      end = break_line (self, items, first, width);
      measure_line (items, first, end, &line_min, &line_nat);
      for (guint i = first; i < end; i++)
        {
          Item *item = &g_array_index (items, Item, i);
          GtkAllocation allocation = { rtl ? width - x - item->width : x, y, item->width,
                                       line_nat };

          gtk_widget_size_allocate (item->widget, &allocation, -1);
          x += item->width + self->spacing;
        }
      y += line_nat + self->spacing;
    }
}

static void
tv_wrap_layout_class_init (TvWrapLayoutClass *klass)
{
  GtkLayoutManagerClass *manager_class = GTK_LAYOUT_MANAGER_CLASS (klass);

  manager_class->get_request_mode = tv_wrap_layout_get_request_mode;
  manager_class->measure = tv_wrap_layout_measure;
  manager_class->allocate = tv_wrap_layout_allocate;
}

static void
tv_wrap_layout_init (TvWrapLayout *self)
{
}

GtkLayoutManager *
tv_wrap_layout_new (int spacing)
{
  TvWrapLayout *self = g_object_new (TV_TYPE_WRAP_LAYOUT, NULL);

  self->spacing = spacing;
  return GTK_LAYOUT_MANAGER (self);
}
