/* tv-compare-menus.c: the menus and controls of a comparison
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Each side's thread and state menus, and the toolbar's merge key,
 * normalisation, linked filters and search, set what the comparison
 * shows; they show what it holds, whoever changed it (a graph's context
 * menu, the other side through linked filters, a swap), without writing
 * it back.
 */

#include <glib/gi18n.h>

#include "tv-compare-page-private.h"
#include "tv-lazy-list.h"

/* The merge keys of the merge menu, in its order. */
static const TvMergeKey merge_keys[] = { TV_MERGE_FUNCTION, TV_MERGE_LINE,
                                         TV_MERGE_INSTRUCTION };

/* The thread menu: "All Threads", then SIDE's threads in the comparison's
 * order (the main thread first). */
/* A thread menu's item POSITION: "All Threads", then the threads in the
 * data's display order (the timeline's), made when the menu asks. */
static gpointer
make_thread_menu_item (guint    position,
                       gpointer user_data)
{
  TvProfileData *data = user_data;
  const TvThread *t;
  g_autofree char *id = NULL;
  g_autofree char *label = NULL;

  if (position == 0)
    return gtk_string_object_new (_("All Threads"));
  t = tv_profile_data_get_thread (data, tv_profile_data_get_thread_order (data)[position - 1]);
  id = g_strdup_printf ("%" G_GUINT64_FORMAT, t->thread_id);
  if (t->status_counts[5] /* TACH_STATUS_MAIN_THREAD */ > 0)
    label = g_strdup_printf (_("Main thread %s"), id);
  else
    label = g_strdup_printf (_("Thread %s"), id);
  return gtk_string_object_new (label);
}

/* The thread menu: "All Threads", then the main thread, then the others
 * by samples, as the timeline orders its lanes.  Its items are made as
 * the menu shows them: a profile can have a hundred thousand threads. */
static void
fill_thread_menu (TvComparePage *self,
                  TvDiffSide     side)
{
  TvProfileData *data = tv_profile_get_data (_tv_compare_page_get_profile (self, side));
  g_autoptr(GListModel) items = tv_lazy_list_new (GTK_TYPE_STRING_OBJECT,
                                                  tv_profile_data_get_n_threads (data) + 1,
                                                  make_thread_menu_item,
                                                  tv_profile_data_ref (data),
                                                  (GDestroyNotify) tv_profile_data_unref);

  gtk_drop_down_set_model (self->thread_menus[side], items);
}

void
_tv_compare_page_sync_menus (TvComparePage *self)
{
  gboolean syncing = self->syncing;

  if (!self->filled)
    return;
  self->syncing = TRUE;
  for (guint side = 0; side < 2; side++)
    {
      TvViewState *state = tv_comparison_get_view_state (self->comparison, side);

      gtk_drop_down_set_selected (self->state_menus[side],
                                  tv_view_state_get_state_filter (state));
      gtk_drop_down_set_selected (self->thread_menus[side],
                                  tv_comparison_get_thread_choice (self->comparison, side));
    }
  self->syncing = syncing;
}

static void
on_thread_selected (GtkDropDown   *menu,
                    GParamSpec    *pspec,
                    TvComparePage *self)
{
  TvDiffSide side = menu == self->thread_menus[0] ? TV_DIFF_SIDE_BASE : TV_DIFF_SIDE_NEW;
  guint selected = gtk_drop_down_get_selected (menu);

  if (self->syncing || self->comparison == NULL)
    return;
  tv_comparison_set_thread_choice (self->comparison, side,
                                   selected == GTK_INVALID_LIST_POSITION ? 0 : selected);
}

static void
on_state_selected (GtkDropDown   *menu,
                   GParamSpec    *pspec,
                   TvComparePage *self)
{
  TvDiffSide side = menu == self->state_menus[0] ? TV_DIFF_SIDE_BASE : TV_DIFF_SIDE_NEW;
  guint selected = gtk_drop_down_get_selected (menu);

  if (self->syncing || self->comparison == NULL)
    return;
  tv_view_state_set_state_filter (tv_comparison_get_view_state (self->comparison, side),
                                  selected < TV_N_STATE_FILTERS ? selected : TV_STATE_FILTER_ALL);
}

static void
on_merge_selected (GtkDropDown   *menu,
                   GParamSpec    *pspec,
                   TvComparePage *self)
{
  guint selected = gtk_drop_down_get_selected (menu);

  if (!self->syncing && self->comparison != NULL && selected < G_N_ELEMENTS (merge_keys))
    tv_comparison_set_merge (self->comparison, merge_keys[selected]);
}

static void
on_by_selected (GtkDropDown   *menu,
                GParamSpec    *pspec,
                TvComparePage *self)
{
  if (!self->syncing && self->comparison != NULL)
    tv_comparison_set_normalization (self->comparison, gtk_drop_down_get_selected (menu) == 1
                                                       ? TV_DIFF_BY_SHARE : TV_DIFF_BY_TIME);
}

static void
on_link_toggled (GtkCheckButton *button,
                 TvComparePage  *self)
{
  if (!self->syncing && self->comparison != NULL)
    tv_comparison_set_link_filters (self->comparison, gtk_check_button_get_active (button));
}

static void
on_search_changed (GtkEditable   *entry,
                   TvComparePage *self)
{
  if (!self->syncing)
    tv_compare_page_set_search (self, gtk_editable_get_text (entry));
}

/* The merge key, the normalisation and the link. */
void
_tv_compare_page_sync_toolbar (TvComparePage *self)
{
  gboolean syncing = self->syncing;
  TvMergeKey merge = tv_comparison_get_merge (self->comparison);

  self->syncing = TRUE;
  for (guint i = 0; i < G_N_ELEMENTS (merge_keys); i++)
    if (merge_keys[i] == merge)
      gtk_drop_down_set_selected (self->merge_menu, i);
  gtk_drop_down_set_selected (self->by_menu, tv_comparison_get_normalization (self->comparison)
                                             == TV_DIFF_BY_SHARE ? 1 : 0);
  gtk_check_button_set_active (self->link_button,
                               tv_comparison_get_link_filters (self->comparison));
  self->syncing = syncing;
}

static void
setup_menu_item (GtkSignalListItemFactory *factory,
                 GtkListItem              *item)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), 0.0);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  gtk_label_set_width_chars (GTK_LABEL (label), 4);
  gtk_list_item_set_child (item, label);
}

static void
bind_menu_item (GtkSignalListItemFactory *factory,
                GtkListItem              *item)
{
  GtkStringObject *string = gtk_list_item_get_item (item);

  gtk_label_set_text (GTK_LABEL (gtk_list_item_get_child (item)),
                      gtk_string_object_get_string (string));
}

/* A drop-down of strings whose button ellipsizes the chosen one ("Main
 * thread 140523…") rather than widen the page; its list keeps the
 * default look, in full. */
static void
ellipsize_drop_down (GtkDropDown *menu)
{
  g_autoptr(GtkListItemFactory) factory = gtk_signal_list_item_factory_new ();

  g_signal_connect (factory, "setup", G_CALLBACK (setup_menu_item), NULL);
  g_signal_connect (factory, "bind", G_CALLBACK (bind_menu_item), NULL);
  gtk_drop_down_set_list_factory (menu, gtk_drop_down_get_factory (menu));
  gtk_drop_down_set_factory (menu, factory);
}

void
_tv_compare_page_fill_menus (TvComparePage *self)
{
  gboolean syncing = self->syncing;

  /* A new model selects its first item: that is not the user's choice. */
  self->syncing = TRUE;
  for (guint side = 0; side < 2; side++)
    fill_thread_menu (self, side);
  self->syncing = syncing;
  _tv_compare_page_sync_menus (self);
}

void
_tv_compare_page_connect_menus (TvComparePage *self)
{
  for (guint i = 0; i < 2; i++)
    {
      g_assert (g_list_model_get_n_items (gtk_drop_down_get_model (self->state_menus[i]))
                == TV_N_STATE_FILTERS);
      ellipsize_drop_down (self->thread_menus[i]);
      ellipsize_drop_down (self->state_menus[i]);
      g_signal_connect (self->thread_menus[i], "notify::selected",
                        G_CALLBACK (on_thread_selected), self);
      g_signal_connect (self->state_menus[i], "notify::selected",
                        G_CALLBACK (on_state_selected), self);
    }
  g_signal_connect (self->merge_menu, "notify::selected", G_CALLBACK (on_merge_selected), self);
  g_signal_connect (self->by_menu, "notify::selected", G_CALLBACK (on_by_selected), self);
  g_signal_connect (self->link_button, "toggled", G_CALLBACK (on_link_toggled), self);
  g_signal_connect (self->search_entry, "search-changed", G_CALLBACK (on_search_changed), self);
}
