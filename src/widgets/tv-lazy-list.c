/* tv-lazy-list.c: a list model whose items are made when first asked for
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The function tables list every function of a profile, a hundred
 * thousand of them at times; only the rows a sort, a filter or the screen
 * asks for get an item.
 */

#include "tv-lazy-list.h"

#define TV_TYPE_LAZY_LIST (tv_lazy_list_get_type ())
G_DECLARE_FINAL_TYPE (TvLazyList, tv_lazy_list, TV, LAZY_LIST, GObject)

struct _TvLazyList
{
  GObject             parent_instance;

  GType               item_type;
  guint               n_items;
  GObject           **items;
  TvLazyListMakeItem  make_item;
  gpointer            user_data;
  GDestroyNotify      destroy;
};

static GType
tv_lazy_list_get_item_type (GListModel *list)
{
  return TV_LAZY_LIST (list)->item_type;
}

static guint
tv_lazy_list_get_n_items (GListModel *list)
{
  return TV_LAZY_LIST (list)->n_items;
}

static gpointer
tv_lazy_list_get_item (GListModel *list,
                       guint       position)
{
  TvLazyList *self = TV_LAZY_LIST (list);

  if (position >= self->n_items)
    return NULL;
  if (self->items[position] == NULL)
    self->items[position] = self->make_item (position, self->user_data);
  return g_object_ref (self->items[position]);
}

static void
tv_lazy_list_model_init (GListModelInterface *iface)
{
  iface->get_item_type = tv_lazy_list_get_item_type;
  iface->get_n_items = tv_lazy_list_get_n_items;
  iface->get_item = tv_lazy_list_get_item;
}

G_DEFINE_FINAL_TYPE_WITH_CODE (TvLazyList, tv_lazy_list, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, tv_lazy_list_model_init))

static void
tv_lazy_list_finalize (GObject *object)
{
  TvLazyList *self = TV_LAZY_LIST (object);

  for (guint i = 0; i < self->n_items; i++)
    g_clear_object (&self->items[i]);
  g_clear_pointer (&self->items, g_free);
  if (self->destroy != NULL)
    self->destroy (self->user_data);

  G_OBJECT_CLASS (tv_lazy_list_parent_class)->finalize (object);
}

static void
tv_lazy_list_class_init (TvLazyListClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = tv_lazy_list_finalize;
}

static void
tv_lazy_list_init (TvLazyList *self)
{
}

GListModel *
tv_lazy_list_new (GType               item_type,
                  guint               n_items,
                  TvLazyListMakeItem  make_item,
                  gpointer            user_data,
                  GDestroyNotify      destroy)
{
  TvLazyList *self;

  g_return_val_if_fail (g_type_is_a (item_type, G_TYPE_OBJECT), NULL);
  g_return_val_if_fail (make_item != NULL, NULL);

  self = g_object_new (TV_TYPE_LAZY_LIST, NULL);
  self->item_type = item_type;
  self->n_items = n_items;
  self->items = g_new0 (GObject *, MAX (n_items, 1));
  self->make_item = make_item;
  self->user_data = user_data;
  self->destroy = destroy;
  return G_LIST_MODEL (self);
}
