/* tv-thread-item.h: a thread of a profile, as an item of a list model
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every list of a profile's threads (the properties' tables, the thread
 * menus) is one of these lists: the threads in the data's display order,
 * each item made the first time a model or a widget asks for it, so that
 * a hundred thousand threads cost what is shown.
 */
#pragma once

#include <gio/gio.h>

#include "tv-timeline.h"

G_BEGIN_DECLS

#define TV_TYPE_THREAD_ITEM (tv_thread_item_get_type ())

G_DECLARE_FINAL_TYPE (TvThreadItem, tv_thread_item, TV, THREAD_ITEM, GObject)

/* Of the list's data, which the item keeps alive. */
const TvThread         *tv_thread_item_get_thread       (TvThreadItem *self);
TvProfileData          *tv_thread_item_get_data         (TvThreadItem *self);
/* The item's place in its list: the thread's in the display order. */
guint                   tv_thread_item_get_position     (TvThreadItem *self);
/* The thread's samples in the list's time ranges and their states,
 * counted (by bisection) the first time they are asked for; NULL when the
 * list has no ranges. */
const TvTimelineColumn *tv_thread_item_get_range_counts (TvThreadItem *self);

/* The threads of DATA in its display order (tv_profile_data_get_thread_order()). */
GListModel             *tv_thread_list_new              (TvProfileData     *data);
/* The lanes of TIMELINE in its display order, whose items count their
 * samples in the N_RANGES sorted, disjoint RANGES (copied). */
GListModel             *tv_thread_list_new_for_ranges   (TvTimeline        *timeline,
                                                         const TvTimeRange *ranges,
                                                         guint              n_ranges);

G_END_DECLS
