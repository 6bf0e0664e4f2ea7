/* adw-types-preload.c: lets gtk4-builder-tool validate libadwaita templates
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * gtk4-builder-tool does not link libadwaita.  It finds the Adw classes of
 * the objects in a .ui file by their get_type functions when libadwaita is
 * loaded, but the parent of a <template> only by g_type_from_name(), which
 * knows registered types alone.  Loaded with LD_PRELOAD, this module
 * registers the libadwaita classes that templates derive from.  It calls no
 * adw_init(): that needs a display before main() has run.
 */
#include <adwaita.h>

__attribute__((constructor))
static void
register_template_parents (void)
{
  g_type_ensure (ADW_TYPE_BIN);
  g_type_ensure (ADW_TYPE_WINDOW);
  g_type_ensure (ADW_TYPE_APPLICATION_WINDOW);
  g_type_ensure (ADW_TYPE_PREFERENCES_WINDOW);
  g_type_ensure (ADW_TYPE_PREFERENCES_PAGE);
  g_type_ensure (ADW_TYPE_PREFERENCES_GROUP);
  g_type_ensure (ADW_TYPE_PREFERENCES_ROW);
  g_type_ensure (ADW_TYPE_ACTION_ROW);
  g_type_ensure (ADW_TYPE_EXPANDER_ROW);
  g_type_ensure (ADW_TYPE_ENTRY_ROW);
  g_type_ensure (ADW_TYPE_COMBO_ROW);
  g_type_ensure (ADW_TYPE_MESSAGE_DIALOG);
  g_type_ensure (ADW_TYPE_STATUS_PAGE);
}
