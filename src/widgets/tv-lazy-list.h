/* tv-lazy-list.h: a list model whose items are made when first asked for
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* Makes the item at POSITION (a new reference, of the list's item type). */
typedef gpointer (*TvLazyListMakeItem) (guint    position,
                                        gpointer user_data);

/* A GListModel of N_ITEMS items of ITEM_TYPE, each made by MAKE_ITEM the
 * first time a model asks for it and kept; USER_DATA is freed with
 * DESTROY once the list and its items are. */
GListModel *tv_lazy_list_new (GType               item_type,
                              guint               n_items,
                              TvLazyListMakeItem  make_item,
                              gpointer            user_data,
                              GDestroyNotify      destroy);

G_END_DECLS
