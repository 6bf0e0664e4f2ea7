/* tv-popup-tooltips.c: no tooltip over the menu a button opens
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * GTK keeps a button's tooltip up, or shows it again, while the pointer
 * rests on the button, and the tooltip of a button at the top of the
 * window lands on the menu the button just opened.  The owner gives up
 * its tooltip while the popover is mapped and takes it back when it is
 * unmapped.
 */
#include "tv-popup-tooltips.h"

static void
on_popover_map (GtkWidget *popover,
                GtkWidget *owner)
{
  gtk_widget_set_has_tooltip (owner, FALSE);
  /* Hides a tooltip that is up already. */
  gtk_widget_trigger_tooltip_query (owner);
}

static void
on_popover_unmap (GtkWidget *popover,
                  GtkWidget *owner)
{
  /* Only a widget that has a tooltip to show asks for it again. */
  if (gtk_widget_get_tooltip_text (owner) != NULL
      || g_object_get_data (G_OBJECT (owner), "tv-popup-tooltip-custom") != NULL)
    gtk_widget_set_has_tooltip (owner, TRUE);
}

void
tv_popup_tooltips_attach_popover (GtkWidget  *owner,
                                  GtkPopover *popover)
{
  g_return_if_fail (GTK_IS_WIDGET (owner));
  g_return_if_fail (GTK_IS_POPOVER (popover));

  if (gtk_widget_get_has_tooltip (owner) && gtk_widget_get_tooltip_text (owner) == NULL)
    g_object_set_data (G_OBJECT (owner), "tv-popup-tooltip-custom", GINT_TO_POINTER (1));
  g_signal_connect_object (popover, "map", G_CALLBACK (on_popover_map), owner, 0);
  g_signal_connect_object (popover, "unmap", G_CALLBACK (on_popover_unmap), owner, 0);
}

void
tv_popup_tooltips_attach (GtkWidget *root)
{
  g_return_if_fail (GTK_IS_WIDGET (root));

  if (GTK_IS_MENU_BUTTON (root) || GTK_IS_DROP_DOWN (root))
    {
      /* Both keep their popover as a child of their own. */
      for (GtkWidget *child = gtk_widget_get_first_child (root); child != NULL;
           child = gtk_widget_get_next_sibling (child))
        if (GTK_IS_POPOVER (child))
          tv_popup_tooltips_attach_popover (root, GTK_POPOVER (child));
      return;
    }
  for (GtkWidget *child = gtk_widget_get_first_child (root); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    tv_popup_tooltips_attach (child);
}
