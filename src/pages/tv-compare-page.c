/* tv-compare-page.c: two profiles compared, in a tab
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The page shows a TvComparison (which loads both profiles, keeps each
 * side's view state and makes the diff on workers) four ways: side by
 * side, as NEW's flame graph coloured by the change (the differential
 * view), as a table of functions, and as their properties next to each
 * other.  Above them, a banner says why the two may not compare like for
 * like.  The page is built from tv-compare-page.ui and only observes the
 * comparison: its state, its diff (with the trees it was made from, handed
 * to the graphs together), its warnings, its profiles trading places, and
 * the view states its menus show.
 *
 * This file holds the page, its state and its sides; the graphs, the
 * table and the search are in tv-compare-graphs.c, the menus and controls
 * in tv-compare-menus.c, page.export (the window's Ctrl+E) in
 * tv-compare-export.c.  page.swap trades BASE and NEW: each side's column,
 * graph and properties go with its profile, and only the diff is made
 * again.
 */

#include <glib/gi18n.h>

#include "tv-compare-page-private.h"
#include "tv-popup-tooltips.h"
#include "tv-text.h"
#include "tv-units.h"
#include "tv-wrap-layout.h"

G_DEFINE_FINAL_TYPE (TvComparePage, tv_compare_page, ADW_TYPE_BIN)

enum {
  PROP_0,
  PROP_COMPARISON,
  PROP_STATE,
  PROP_BUSY,
  PROP_TITLE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

#define SWAP_PAIR(pair) \
  G_STMT_START { gpointer tmp_ = (pair)[0]; (pair)[0] = (pair)[1]; (pair)[1] = tmp_; } G_STMT_END

void
_tv_compare_page_notify_busy (TvComparePage *self)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BUSY]);
}

const char *
_tv_compare_page_side_name (TvDiffSide side)
{
  return side == TV_DIFF_SIDE_BASE ? _("Base") : _("New");
}

/* SIDE's file name as it is shown: "run.bin". */
static char *
dup_display_name (TvComparePage *self,
                  TvDiffSide     side)
{
  return tv_text_dup_file_name (tv_profile_get_file (_tv_compare_page_get_profile (self,
                                                                                    side)));
}

GFile *
_tv_compare_page_diff_side_file (TvComparePage *self,
                                 TvDiffSide     side)
{
  TvDiffSide page_side = tv_comparison_get_diff_side (self->comparison, side);

  return tv_profile_get_file (_tv_compare_page_get_profile (self, page_side));
}

/* ------------------------------------------------------------------------ */
/* Titles                                                                    */
/* ------------------------------------------------------------------------ */

static void
update_title (TvComparePage *self)
{
  g_autofree char *base_name = dup_display_name (self, TV_DIFF_SIDE_BASE);
  g_autofree char *new_name = dup_display_name (self, TV_DIFF_SIDE_NEW);

  g_free (self->title);
  /* Translators: the title of a comparison's tab: "base.bin → new.bin". */
  self->title = g_strdup_printf (_("%s → %s"), base_name, new_name);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TITLE]);
}

/* The line under SIDE's title: the samples compared (its tree's, once
 * there is one) and their time, "77 of 200 samples" when its filters or
 * transforms leave out some of the file's. */
void
_tv_compare_page_update_subtitle (TvComparePage *self,
                                  TvDiffSide     side)
{
  TvProfileData *data = tv_profile_get_data (_tv_compare_page_get_profile (self, side));
  TvCallTree *tree = tv_comparison_get_tree (self->comparison, side);
  guint64 all = tv_profile_data_get_n_samples (data);
  guint64 shown = tree != NULL ? tv_call_tree_get_n_samples (tree) : all;
  g_autofree char *count = tv_format_count (shown);
  g_autofree char *total = tv_format_count (all);
  g_autofree char *text = NULL;
  g_autofree char *seconds = NULL;
  guint64 first, last;

  seconds = tv_format_thread_time (shown * tv_profile_data_get_seconds_per_sample (data, NULL));
  if (shown == all && tv_profile_data_get_time_span (data, &first, &last))
    {
      g_autofree char *wall = tv_format_wall_time ((double) (last - first) / 1e6);

      /* Translators: "12,345 samples, 9.63 s of thread time in 1.28 s of
       * wall time". */
      text = g_strdup_printf (_("%s samples, %s in %s"), count, seconds, wall);
    }
  else if (shown == all)
    /* Translators: "12,345 samples, 9.63 s of thread time" */
    text = g_strdup_printf (_("%s samples, %s"), count, seconds);
  else
    /* Translators: "77 of 200 samples, 77.0 ms of thread time": a filter
     * leaves out the rest. */
    text = g_strdup_printf (_("%s of %s samples, %s"), count, total, seconds);
  gtk_label_set_text (self->subtitles[side], text);
}

static void
update_header (TvComparePage *self,
               TvDiffSide     side)
{
  g_autofree char *name = dup_display_name (self, side);
  g_autofree char *title = NULL;

  /* Translators: "Base: run.bin" */
  title = g_strdup_printf (_("%s: %s"), _tv_compare_page_side_name (side), name);
  gtk_label_set_text (self->headers[side], title);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->headers[side]), title);
  _tv_compare_page_update_subtitle (self, side);
}

/* ------------------------------------------------------------------------ */
/* The banner                                                                */
/* ------------------------------------------------------------------------ */

static void
on_warnings_changed (TvComparePage *self)
{
  GPtrArray *warnings = tv_comparison_get_warnings (self->comparison);
  g_autoptr(GString) text = g_string_new (NULL);

  for (guint i = 0; warnings != NULL && i < warnings->len; i++)
    {
      TvComparability *warning = g_ptr_array_index (warnings, i);

      if (text->len > 0)
        g_string_append_c (text, '\n');
      g_string_append (text, warning->message);
    }
  g_clear_pointer (&self->banner_text, g_free);
  if (text->len > 0)
    self->banner_text = g_strdup (text->str);
  gtk_label_set_text (self->banner_label, text->str);
  gtk_widget_set_visible (self->banner, text->len > 0);
}

/* ------------------------------------------------------------------------ */
/* The comparison's state                                                    */
/* ------------------------------------------------------------------------ */

static void
set_state (TvComparePage      *self,
           TvComparePageState  state)
{
  static const char * const children[] = { "loading", "content", "error" };

  if (self->state == state)
    return;
  self->state = state;
  gtk_stack_set_visible_child_name (self->stack, children[state]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STATE]);
}

static void
show_failure (TvComparePage *self)
{
  const GError *error = tv_comparison_get_error (self->comparison);
  TvDiffSide side = tv_comparison_get_failed_side (self->comparison);
  g_autofree char *basename = NULL;
  g_autofree char *title = NULL;

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      adw_status_page_set_title (self->error_page, _("Comparison Cancelled"));
      adw_status_page_set_description (self->error_page, NULL);
      return;
    }
  basename = dup_display_name (self, side);
  /* Translators: "Cannot Open the Base Profile run.bin" */
  title = g_strdup_printf (side == TV_DIFF_SIDE_BASE ? _("Cannot Open the Base Profile %s")
                                                     : _("Cannot Open the New Profile %s"),
                           basename);
  g_free (self->error_message);
  self->error_message = g_strdup_printf ("%s: %s", title, error->message);
  adw_status_page_set_title (self->error_page, title);
  adw_status_page_set_description (self->error_page, error->message);
}

/* Both profiles are in: their headers, menus and properties. */
static void
fill_sides (TvComparePage *self)
{
  if (self->filled)
    return;
  for (guint i = 0; i < 2; i++)
    {
      update_header (self, i);
      tv_properties_set_profile (self->properties[i], _tv_compare_page_get_profile (self, i));
      tv_properties_show_data (self->properties[i]);
    }
  self->n_differing = tv_properties_mark_differences (self->properties[0], self->properties[1]);
  tv_properties_align_rows (self->properties[0], self->properties[1]);
  self->filled = TRUE;
  _tv_compare_page_fill_menus (self);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "page.swap", TRUE);
}

static void
on_comparison_state (TvComparePage *self)
{
  switch (tv_comparison_get_state (self->comparison))
    {
    case TV_COMPARISON_LOADING:
      break;
    case TV_COMPARISON_LOADED:
      fill_sides (self);
      break;
    case TV_COMPARISON_READY:
      fill_sides (self);
      set_state (self, TV_COMPARE_PAGE_READY);
      break;
    case TV_COMPARISON_FAILED:
    default:
      show_failure (self);
      set_state (self, TV_COMPARE_PAGE_FAILED);
      break;
    }
}

static void
update_progress (TvComparePage *self)
{
  for (guint i = 0; i < 2; i++)
    {
      TvProfile *profile = _tv_compare_page_get_profile (self, i);

      gtk_progress_bar_set_fraction (self->progress[i],
                                     tv_profile_get_state (profile) == TV_PROFILE_LOADED
                                     ? 1.0 : tv_profile_get_fraction (profile));
    }
}

static void
on_cancel_clicked (TvComparePage *self)
{
  tv_comparison_cancel (self->comparison);
}

/* ------------------------------------------------------------------------ */
/* Swapping the sides                                                        */
/* ------------------------------------------------------------------------ */

/* The paned's two children trade places. */
static void
swap_children (GtkPaned *paned)
{
  g_autoptr(GtkWidget) start = g_object_ref (gtk_paned_get_start_child (paned));
  g_autoptr(GtkWidget) end = g_object_ref (gtk_paned_get_end_child (paned));

  gtk_paned_set_start_child (paned, NULL);
  gtk_paned_set_end_child (paned, NULL);
  gtk_paned_set_start_child (paned, end);
  gtk_paned_set_end_child (paned, start);
}

/* The comparison's profiles traded places: a side's column (its graph,
 * zoom included, and menus) and properties go with its profile; the
 * differences marked and the rows' heights are the same either way. */
static void
on_profiles_changed (TvComparePage *self)
{
  /* A view state is a side's, whatever its profile (the same on both
   * sides, compared with itself). */
  if (tv_flame_graph_get_view_state (self->graphs[0])
      == tv_comparison_get_view_state (self->comparison, TV_DIFF_SIDE_BASE))
    return;
  SWAP_PAIR (self->column_boxes);
  SWAP_PAIR (self->headers);
  SWAP_PAIR (self->subtitles);
  SWAP_PAIR (self->thread_menus);
  SWAP_PAIR (self->state_menus);
  SWAP_PAIR (self->graphs);
  SWAP_PAIR (self->properties);
  swap_children (self->columns);
  gtk_box_reorder_child_after (self->property_panes, GTK_WIDGET (self->properties[0]), NULL);
  gtk_box_reorder_child_after (self->property_panes, GTK_WIDGET (self->properties[1]),
                               gtk_widget_get_last_child (GTK_WIDGET (self->property_panes)));
  for (guint i = 0; i < 2; i++)
    update_header (self, i);
  update_title (self);
  _tv_compare_page_notify_busy (self);
}

static void
swap_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  tv_compare_page_swap (TV_COMPARE_PAGE (widget));
}

/* ------------------------------------------------------------------------ */
/* Public API                                                                */
/* ------------------------------------------------------------------------ */

TvComparePage *
tv_compare_page_new (TvProfile *base,
                     TvProfile *new_profile)
{
  g_autoptr(TvComparison) comparison = tv_comparison_new (base, new_profile);

  g_return_val_if_fail (comparison != NULL, NULL);

  return g_object_new (TV_TYPE_COMPARE_PAGE, "comparison", comparison, NULL);
}

TvComparison *
tv_compare_page_get_comparison (TvComparePage *self)
{
  g_return_val_if_fail (TV_IS_COMPARE_PAGE (self), NULL);

  return self->comparison;
}

TvProfile *
tv_compare_page_get_profile (TvComparePage *self,
                             TvDiffSide     side)
{
  g_return_val_if_fail (TV_IS_COMPARE_PAGE (self), NULL);
  g_return_val_if_fail (side <= TV_DIFF_SIDE_NEW, NULL);

  return _tv_compare_page_get_profile (self, side);
}

TvComparePageState
tv_compare_page_get_state (TvComparePage *self)
{
  g_return_val_if_fail (TV_IS_COMPARE_PAGE (self), TV_COMPARE_PAGE_FAILED);

  return self->state;
}

gboolean
tv_compare_page_is_busy (TvComparePage *self)
{
  g_return_val_if_fail (TV_IS_COMPARE_PAGE (self), FALSE);

  if (self->state != TV_COMPARE_PAGE_READY)
    return self->state == TV_COMPARE_PAGE_LOADING;
  if (tv_comparison_is_busy (self->comparison) || tv_worker_is_busy (&self->search_worker))
    return TRUE;
  for (guint i = 0; i < 2; i++)
    if (tv_flame_graph_is_laying_out (self->graphs[i]))
      return TRUE;
  return FALSE;
}

const char *
tv_compare_page_get_error_message (TvComparePage *self)
{
  g_return_val_if_fail (TV_IS_COMPARE_PAGE (self), NULL);

  return self->error_message;
}

TvDiff *
tv_compare_page_get_diff (TvComparePage *self)
{
  g_return_val_if_fail (TV_IS_COMPARE_PAGE (self), NULL);

  return tv_comparison_get_diff (self->comparison);
}

TvFlameGraph *
tv_compare_page_get_graph (TvComparePage *self,
                           TvDiffSide     side)
{
  g_return_val_if_fail (TV_IS_COMPARE_PAGE (self), NULL);
  g_return_val_if_fail (side <= TV_DIFF_SIDE_NEW, NULL);

  return self->graphs[side];
}

TvFlameGraph *
tv_compare_page_get_diff_graph (TvComparePage *self)
{
  g_return_val_if_fail (TV_IS_COMPARE_PAGE (self), NULL);

  return self->diff_graph;
}

TvDiffTable *
tv_compare_page_get_table (TvComparePage *self)
{
  g_return_val_if_fail (TV_IS_COMPARE_PAGE (self), NULL);

  return self->table;
}

TvViewState *
tv_compare_page_get_view_state (TvComparePage *self,
                                TvDiffSide     side)
{
  g_return_val_if_fail (TV_IS_COMPARE_PAGE (self), NULL);
  g_return_val_if_fail (side <= TV_DIFF_SIDE_NEW, NULL);

  return tv_comparison_get_view_state (self->comparison, side);
}

void
tv_compare_page_show_view (TvComparePage *self,
                           const char    *name)
{
  g_return_if_fail (TV_IS_COMPARE_PAGE (self));

  gtk_stack_set_visible_child_name (self->views, name);
}

void
tv_compare_page_set_normalization (TvComparePage      *self,
                                   TvDiffNormalization by)
{
  g_return_if_fail (TV_IS_COMPARE_PAGE (self));

  tv_comparison_set_normalization (self->comparison, by);
}

void
tv_compare_page_set_merge (TvComparePage *self,
                           TvMergeKey     merge)
{
  g_return_if_fail (TV_IS_COMPARE_PAGE (self));

  tv_comparison_set_merge (self->comparison, merge);
}

void
tv_compare_page_set_search (TvComparePage *self,
                            const char    *regex)
{
  gboolean syncing = self->syncing;

  g_return_if_fail (TV_IS_COMPARE_PAGE (self));

  if (g_strcmp0 (self->search, regex) == 0)
    return;
  g_free (self->search);
  self->search = g_strdup (regex);
  /* Replacing the entry's text empties it first, and an empty search entry
   * says so at once: that is not the user's search. */
  self->syncing = TRUE;
  if (g_strcmp0 (gtk_editable_get_text (GTK_EDITABLE (self->search_entry)),
                 regex != NULL ? regex : "") != 0)
    gtk_editable_set_text (GTK_EDITABLE (self->search_entry), regex != NULL ? regex : "");
  self->syncing = syncing;
  _tv_compare_page_apply_search (self);
}

void
tv_compare_page_swap (TvComparePage *self)
{
  g_return_if_fail (TV_IS_COMPARE_PAGE (self));

  tv_comparison_swap (self->comparison);
}

const char *
tv_compare_page_get_title (TvComparePage *self)
{
  g_return_val_if_fail (TV_IS_COMPARE_PAGE (self), NULL);

  return self->title;
}

void
tv_compare_page_set_link_filters (TvComparePage *self,
                                  gboolean       link)
{
  g_return_if_fail (TV_IS_COMPARE_PAGE (self));

  tv_comparison_set_link_filters (self->comparison, link);
}

void
tv_compare_page_cancel (TvComparePage *self)
{
  g_return_if_fail (TV_IS_COMPARE_PAGE (self));

  tv_comparison_cancel (self->comparison);
  /* The search ends as cancelled, and says so (see on_search_done()). */
  g_cancellable_cancel (self->search_worker.cancellable);
  g_cancellable_cancel (self->cancellable);
}

const char *
tv_compare_page_get_banner_text (TvComparePage *self)
{
  g_return_val_if_fail (TV_IS_COMPARE_PAGE (self), NULL);

  return self->banner_text;
}

const char *
tv_compare_page_get_side_summary (TvComparePage *self,
                                  TvDiffSide     side)
{
  g_return_val_if_fail (TV_IS_COMPARE_PAGE (self), NULL);
  g_return_val_if_fail (side <= TV_DIFF_SIDE_NEW, NULL);

  return gtk_label_get_text (self->subtitles[side]);
}

guint
tv_compare_page_get_n_differing_properties (TvComparePage *self)
{
  g_return_val_if_fail (TV_IS_COMPARE_PAGE (self), 0);

  return self->n_differing;
}

/* ------------------------------------------------------------------------ */
/* GObject                                                                   */
/* ------------------------------------------------------------------------ */

/* Each side's graph watches the side's view state; the progress bars
 * watch the loads. */
static void
watch_comparison (TvComparePage *self)
{
  TvComparison *c = self->comparison;
  static const struct
  {
    const char *signal;
    GCallback   callback;
  } watches[] = {
    { "notify::state", G_CALLBACK (on_comparison_state) },
    { "notify::busy", G_CALLBACK (_tv_compare_page_notify_busy) },
    { "notify::diff", G_CALLBACK (_tv_compare_page_show_diff) },
    { "notify::warnings", G_CALLBACK (on_warnings_changed) },
    { "notify::base-profile", G_CALLBACK (on_profiles_changed) },
    { "notify::merge", G_CALLBACK (_tv_compare_page_sync_toolbar) },
    { "notify::normalization", G_CALLBACK (_tv_compare_page_sync_toolbar) },
    { "notify::link-filters", G_CALLBACK (_tv_compare_page_sync_toolbar) },
  };

  for (guint i = 0; i < G_N_ELEMENTS (watches); i++)
    g_signal_connect_object (c, watches[i].signal, watches[i].callback, self,
                             G_CONNECT_SWAPPED);
  for (guint i = 0; i < 2; i++)
    {
      TvProfile *profile = tv_comparison_get_profile (c, i);
      g_autofree char *name = dup_display_name (self, i);
      g_autofree char *text = g_strdup_printf (_("Loading %s: %s"),
                                               _tv_compare_page_side_name (i), name);

      tv_flame_graph_set_view_state (self->graphs[i], tv_comparison_get_view_state (c, i));
      g_signal_connect_object (tv_comparison_get_view_state (c, i), "changed",
                               G_CALLBACK (_tv_compare_page_sync_menus), self,
                               G_CONNECT_SWAPPED);
      gtk_progress_bar_set_text (self->progress[i], text);
      g_signal_connect_object (profile, "notify::fraction", G_CALLBACK (update_progress), self,
                               G_CONNECT_SWAPPED);
      g_signal_connect_object (profile, "notify::state", G_CALLBACK (update_progress), self,
                               G_CONNECT_SWAPPED);
    }
}

static void
tv_compare_page_constructed (GObject *object)
{
  TvComparePage *self = TV_COMPARE_PAGE (object);

  G_OBJECT_CLASS (tv_compare_page_parent_class)->constructed (object);

  g_assert (self->comparison != NULL);
  watch_comparison (self);
  update_title (self);
  update_progress (self);
  _tv_compare_page_sync_toolbar (self);
  /* It may be loaded, or have failed, already. */
  on_comparison_state (self);
}

static void
tv_compare_page_dispose (GObject *object)
{
  TvComparePage *self = TV_COMPARE_PAGE (object);

  if (self->comparison != NULL)
    tv_compare_page_cancel (self);
  gtk_widget_dispose_template (GTK_WIDGET (self), TV_TYPE_COMPARE_PAGE);
  G_OBJECT_CLASS (tv_compare_page_parent_class)->dispose (object);
}

static void
tv_compare_page_finalize (GObject *object)
{
  TvComparePage *self = TV_COMPARE_PAGE (object);

  g_clear_object (&self->comparison);
  g_clear_object (&self->cancellable);
  tv_worker_cancel (&self->search_worker);
  g_clear_pointer (&self->error_message, g_free);
  g_clear_pointer (&self->search, g_free);
  g_clear_pointer (&self->banner_text, g_free);
  g_clear_pointer (&self->title, g_free);
  G_OBJECT_CLASS (tv_compare_page_parent_class)->finalize (object);
}

static void
tv_compare_page_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  TvComparePage *self = TV_COMPARE_PAGE (object);

  switch (prop_id)
    {
    case PROP_COMPARISON:
      g_value_set_object (value, self->comparison);
      break;
    case PROP_STATE:
      g_value_set_int (value, tv_compare_page_get_state (self));
      break;
    case PROP_BUSY:
      g_value_set_boolean (value, tv_compare_page_is_busy (self));
      break;
    case PROP_TITLE:
      g_value_set_string (value, tv_compare_page_get_title (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tv_compare_page_set_property (GObject      *object,
                              guint         prop_id,
                              const GValue *value,
                              GParamSpec   *pspec)
{
  TvComparePage *self = TV_COMPARE_PAGE (object);

  if (prop_id == PROP_COMPARISON)
    self->comparison = g_value_dup_object (value);
  else
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
}

static void
bind_children (GtkWidgetClass *widget_class)
{
#define BIND(name, field) \
  gtk_widget_class_bind_template_child_full (widget_class, name, FALSE, \
                                             G_STRUCT_OFFSET (TvComparePage, field))
  BIND ("stack", stack);
  BIND ("base_progress", progress[0]);
  BIND ("new_progress", progress[1]);
  BIND ("cancel_button", cancel_button);
  BIND ("error_page", error_page);
  BIND ("banner", banner);
  BIND ("export_progress_box", export_progress_box);
  BIND ("banner_label", banner_label);
  BIND ("toolbar", toolbar);
  BIND ("merge_menu", merge_menu);
  BIND ("by_menu", by_menu);
  BIND ("link_button", link_button);
  BIND ("search_entry", search_entry);
  BIND ("views", views);
  BIND ("columns", columns);
  BIND ("base_column", column_boxes[0]);
  BIND ("new_column", column_boxes[1]);
  BIND ("base_header", headers[0]);
  BIND ("new_header", headers[1]);
  BIND ("base_subtitle", subtitles[0]);
  BIND ("new_subtitle", subtitles[1]);
  BIND ("base_thread_menu", thread_menus[0]);
  BIND ("new_thread_menu", thread_menus[1]);
  BIND ("base_state_menu", state_menus[0]);
  BIND ("new_state_menu", state_menus[1]);
  BIND ("diff_column", diff_column);
  BIND ("diff_summary", diff_summary);
  BIND ("self_toggle", self_toggle);
  BIND ("vanished_toggle", vanished_toggle);
  BIND ("functions_box", functions_box);
  BIND ("property_panes", property_panes);
#undef BIND
}

static void
tv_compare_page_class_init (TvComparePageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->constructed = tv_compare_page_constructed;
  object_class->dispose = tv_compare_page_dispose;
  object_class->finalize = tv_compare_page_finalize;
  object_class->get_property = tv_compare_page_get_property;
  object_class->set_property = tv_compare_page_set_property;

  properties[PROP_COMPARISON] =
    g_param_spec_object ("comparison", NULL, NULL, TV_TYPE_COMPARISON,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_STATE] =
    g_param_spec_int ("state", NULL, NULL, TV_COMPARE_PAGE_LOADING, TV_COMPARE_PAGE_FAILED,
                      TV_COMPARE_PAGE_LOADING,
                      G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_BUSY] =
    g_param_spec_boolean ("busy", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_TITLE] =
    g_param_spec_string ("title", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/tachyonviewer/TachyonViewer/ui/tv-compare-page.ui");
  bind_children (widget_class);

  gtk_widget_class_install_action (widget_class, "page.export", NULL,
                                   _tv_compare_page_export_action);
  gtk_widget_class_install_action (widget_class, "page.swap", NULL, swap_action);
}

/* The two panes of properties, as wide as each other (the template cannot
 * hold them: see tv-compare-page.ui). */
static void
add_properties (TvComparePage *self)
{
  g_autoptr(GtkSizeGroup) widths = gtk_size_group_new (GTK_SIZE_GROUP_HORIZONTAL);

  for (guint i = 0; i < 2; i++)
    {
      self->properties[i] = tv_properties_new ();
      tv_properties_set_scrolls (self->properties[i], FALSE);
      gtk_widget_set_hexpand (GTK_WIDGET (self->properties[i]), TRUE);
      gtk_size_group_add_widget (widths, GTK_WIDGET (self->properties[i]));
    }
  gtk_box_prepend (self->property_panes, GTK_WIDGET (self->properties[0]));
  gtk_box_append (self->property_panes, GTK_WIDGET (self->properties[1]));
}

static void
tv_compare_page_init (TvComparePage *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  tv_popup_tooltips_attach (GTK_WIDGET (self));

  self->state = TV_COMPARE_PAGE_LOADING;
  self->cancellable = g_cancellable_new ();
  /* The toolbar's box is only their container: its layout is replaced,
   * so none of GtkBox's own setters apply. */
  gtk_widget_set_layout_manager (self->toolbar, tv_wrap_layout_new (6));
  _tv_compare_page_add_graphs (self);
  add_properties (self);
  _tv_compare_page_connect_menus (self);
  g_signal_connect_swapped (self->cancel_button, "clicked", G_CALLBACK (on_cancel_clicked),
                            self);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "page.swap", FALSE);
}
