/* tv-thread-item.c: a thread of a profile, as an item of a list model
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A list is a TvLazyList over the data's order of threads.  Its items
 * share what they point into (the data, the timeline, the ranges), which
 * each keeps alive: GTK may hold an item after its list is gone.
 */
#include "tv-thread-item.h"

#include "tv-lazy-list.h"

typedef struct
{
  TvProfileData *data;
  TvTimeline    *timeline;      /* with ranges only */
  TvTimeRange   *ranges;
  guint          n_ranges;
} ThreadSource;

static void
thread_source_clear (gpointer user_data)
{
  ThreadSource *source = user_data;

  tv_profile_data_unref (source->data);
  g_clear_pointer (&source->timeline, tv_timeline_unref);
  g_free (source->ranges);
}

static void
thread_source_release (gpointer user_data)
{
  g_rc_box_release_full (user_data, thread_source_clear);
}

struct _TvThreadItem
{
  GObject          parent_instance;

  ThreadSource    *source;      /* a reference */
  guint            index;       /* TvThread.index */
  guint            position;
  gboolean         counted;
  TvTimelineColumn counts;
};

G_DEFINE_FINAL_TYPE (TvThreadItem, tv_thread_item, G_TYPE_OBJECT)

static void
tv_thread_item_finalize (GObject *object)
{
  TvThreadItem *self = TV_THREAD_ITEM (object);

  g_clear_pointer (&self->source, thread_source_release);

  G_OBJECT_CLASS (tv_thread_item_parent_class)->finalize (object);
}

static void
tv_thread_item_class_init (TvThreadItemClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = tv_thread_item_finalize;
}

static void
tv_thread_item_init (TvThreadItem *self)
{
}

const TvThread *
tv_thread_item_get_thread (TvThreadItem *self)
{
  g_return_val_if_fail (TV_IS_THREAD_ITEM (self), NULL);

  return tv_profile_data_get_thread (self->source->data, self->index);
}

TvProfileData *
tv_thread_item_get_data (TvThreadItem *self)
{
  g_return_val_if_fail (TV_IS_THREAD_ITEM (self), NULL);

  return self->source->data;
}

guint
tv_thread_item_get_position (TvThreadItem *self)
{
  g_return_val_if_fail (TV_IS_THREAD_ITEM (self), 0);

  return self->position;
}

const TvTimelineColumn *
tv_thread_item_get_range_counts (TvThreadItem *self)
{
  g_return_val_if_fail (TV_IS_THREAD_ITEM (self), NULL);

  if (self->source->timeline == NULL)
    return NULL;
  if (!self->counted)
    {
      tv_timeline_count_ranges (self->source->timeline, self->index, self->source->ranges,
                                self->source->n_ranges, &self->counts);
      self->counted = TRUE;
    }
  return &self->counts;
}

static gpointer
make_item (guint    position,
           gpointer user_data)
{
  ThreadSource *source = user_data;
  TvThreadItem *item = g_object_new (TV_TYPE_THREAD_ITEM, NULL);

  item->source = g_rc_box_acquire (source);
  item->index = tv_profile_data_get_thread_order (source->data)[position];
  item->position = position;
  return item;
}

static GListModel *
list_new (ThreadSource *source)
{
  return tv_lazy_list_new (TV_TYPE_THREAD_ITEM, tv_profile_data_get_n_threads (source->data),
                           make_item, source, thread_source_release);
}

GListModel *
tv_thread_list_new (TvProfileData *data)
{
  ThreadSource *source;

  g_return_val_if_fail (data != NULL, NULL);

  source = g_rc_box_new0 (ThreadSource);
  source->data = tv_profile_data_ref (data);
  return list_new (source);
}

GListModel *
tv_thread_list_new_for_ranges (TvTimeline        *timeline,
                               const TvTimeRange *ranges,
                               guint              n_ranges)
{
  ThreadSource *source;

  g_return_val_if_fail (timeline != NULL, NULL);
  g_return_val_if_fail (tv_time_ranges_are_sorted (ranges, n_ranges), NULL);

  source = g_rc_box_new0 (ThreadSource);
  source->data = tv_profile_data_ref (tv_timeline_get_data (timeline));
  source->timeline = tv_timeline_ref (timeline);
  source->ranges = g_memdup2 (ranges, MAX (n_ranges, 1) * sizeof (TvTimeRange));
  source->n_ranges = n_ranges;
  return list_new (source);
}
