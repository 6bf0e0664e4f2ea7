/* tv-zoom-history.c: where a view was and where it went, for Back and Forward
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tv-zoom-history.h"

#include <string.h>

void
tv_zoom_history_init (TvZoomHistory *history,
                      guint          place_size)
{
  g_return_if_fail (history != NULL);
  g_return_if_fail (place_size > 0);

  for (guint i = 0; i < G_N_ELEMENTS (history->stacks); i++)
    history->stacks[i] = g_array_new (FALSE, FALSE, place_size);
}

void
tv_zoom_history_clear (TvZoomHistory *history)
{
  g_return_if_fail (history != NULL);

  for (guint i = 0; i < G_N_ELEMENTS (history->stacks); i++)
    g_clear_pointer (&history->stacks[i], g_array_unref);
}

void
tv_zoom_history_forget (TvZoomHistory *history)
{
  g_return_if_fail (history != NULL);

  for (guint i = 0; i < G_N_ELEMENTS (history->stacks); i++)
    g_array_set_size (history->stacks[i], 0);
}

void
tv_zoom_history_map (TvZoomHistory *history,
                     GFunc          func,
                     gpointer       user_data)
{
  g_return_if_fail (history != NULL);
  g_return_if_fail (func != NULL);

  for (guint i = 0; i < G_N_ELEMENTS (history->stacks); i++)
    {
      GArray *stack = history->stacks[i];
      guint size = g_array_get_element_size (stack);

      for (guint k = 0; k < stack->len; k++)
        func (stack->data + (gsize) k * size, user_data);
    }
}

void
tv_zoom_history_push (TvZoomHistory *history,
                      gconstpointer  current)
{
  g_return_if_fail (history != NULL);
  g_return_if_fail (current != NULL);

  g_array_append_vals (history->stacks[TV_ZOOM_BACK], current, 1);
  g_array_set_size (history->stacks[TV_ZOOM_FORWARD], 0);
}

gboolean
tv_zoom_history_can_go (const TvZoomHistory *history,
                        TvZoomDirection      direction)
{
  g_return_val_if_fail (history != NULL, FALSE);
  g_return_val_if_fail (direction <= TV_ZOOM_FORWARD, FALSE);

  return history->stacks[direction]->len > 0;
}

gboolean
tv_zoom_history_go (TvZoomHistory   *history,
                    TvZoomDirection  direction,
                    gconstpointer    current,
                    gpointer         place)
{
  GArray *from, *to;
  guint size;

  g_return_val_if_fail (history != NULL, FALSE);
  g_return_val_if_fail (direction <= TV_ZOOM_FORWARD, FALSE);
  g_return_val_if_fail (current != NULL && place != NULL, FALSE);

  from = history->stacks[direction];
  to = history->stacks[direction == TV_ZOOM_BACK ? TV_ZOOM_FORWARD : TV_ZOOM_BACK];
  if (from->len == 0)
    return FALSE;
  size = g_array_get_element_size (from);
  memcpy (place, from->data + (gsize) (from->len - 1) * size, size);
  g_array_set_size (from, from->len - 1);
  g_array_append_vals (to, current, 1);
  return TRUE;
}
