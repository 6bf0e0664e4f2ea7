/* tv-profile-page.c: the page of one profile in a tab
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The page starts loading its profile when it is created.  While samples
 * are decoded it shows a progress bar and a Cancel button above the
 * properties, which appear as soon as the model emits "opened".  A file
 * that cannot be read shows its error message instead; a cancelled load
 * says so.
 */
#include <glib/gi18n.h>

#include "tv-profile-page.h"

struct _TvProfilePage
{
  AdwBin              parent_instance;

  GFile              *file;
  TvProfile          *profile;
  GCancellable       *cancellable;
  TvProfilePageState  state;
  char               *error_message;
  TvProperties       *properties;

  GtkStack           *stack;
  GtkWidget          *progress_box;
  GtkProgressBar     *progress_bar;
  GtkButton          *cancel_button;
  GtkBox             *properties_box;
  AdwStatusPage      *error_page;
};

G_DEFINE_FINAL_TYPE (TvProfilePage, tv_profile_page, ADW_TYPE_BIN)

enum {
  PROP_0,
  PROP_FILE,
  PROP_STATE,
  PROP_LOADING,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
set_state (TvProfilePage      *self,
           TvProfilePageState  state)
{
  gboolean was_loading = self->state == TV_PROFILE_PAGE_LOADING;

  if (self->state == state)
    return;

  self->state = state;
  gtk_widget_set_visible (self->progress_box, state == TV_PROFILE_PAGE_LOADING);
  switch (state)
    {
    case TV_PROFILE_PAGE_LOADING:
    case TV_PROFILE_PAGE_LOADED:
      gtk_stack_set_visible_child_name (self->stack, "content");
      break;
    case TV_PROFILE_PAGE_FAILED:
      gtk_stack_set_visible_child_name (self->stack, "error");
      break;
    case TV_PROFILE_PAGE_CANCELLED:
      gtk_stack_set_visible_child_name (self->stack, "cancelled");
      break;
    default:
      g_assert_not_reached ();
    }

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STATE]);
  if (was_loading != (state == TV_PROFILE_PAGE_LOADING))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LOADING]);
}

static void
update_progress (TvProfilePage *self)
{
  guint64 samples = tv_profile_get_samples_loaded (self->profile);
  g_autofree char *number = g_strdup_printf ("%" G_GUINT64_FORMAT, samples);
  g_autofree char *text = NULL;

  if (tv_profile_get_state (self->profile) < TV_PROFILE_DECODING)
    {
      gtk_progress_bar_set_text (self->progress_bar, _("Opening…"));
      return;
    }

  text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s sample decoded",
                                       "%s samples decoded",
                                       samples > G_MAXULONG ? G_MAXULONG : (gulong) samples),
                          number);
  gtk_progress_bar_set_text (self->progress_bar, text);
  gtk_progress_bar_set_fraction (self->progress_bar, tv_profile_get_fraction (self->profile));
}

static void
on_progress_notify (TvProfilePage *self)
{
  if (self->state == TV_PROFILE_PAGE_LOADING)
    update_progress (self);
}

static void
on_opened (TvProfilePage *self)
{
  if (self->state != TV_PROFILE_PAGE_LOADING)
    return;

  tv_properties_set_profile (self->properties, self->profile);
  update_progress (self);
}

static void
on_load_finished (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(TvProfilePage) self = user_data;
  g_autoptr(GError) error = NULL;

  tv_profile_load_finish (TV_PROFILE (object), result, &error);

  /* The page was closed while it loaded. */
  if (self->stack == NULL)
    return;

  if (error == NULL)
    {
      if (tv_properties_get_profile (self->properties) == NULL)
        tv_properties_set_profile (self->properties, self->profile);
      tv_properties_show_data (self->properties);
      set_state (self, TV_PROFILE_PAGE_LOADED);
    }
  else if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      set_state (self, TV_PROFILE_PAGE_CANCELLED);
    }
  else
    {
      g_free (self->error_message);
      self->error_message = g_strdup (error->message);
      adw_status_page_set_description (self->error_page, error->message);
      set_state (self, TV_PROFILE_PAGE_FAILED);
    }
}

void
tv_profile_page_cancel (TvProfilePage *self)
{
  g_return_if_fail (TV_IS_PROFILE_PAGE (self));

  g_cancellable_cancel (self->cancellable);
}

GFile *
tv_profile_page_get_file (TvProfilePage *self)
{
  g_return_val_if_fail (TV_IS_PROFILE_PAGE (self), NULL);

  return self->file;
}

TvProfile *
tv_profile_page_get_profile (TvProfilePage *self)
{
  g_return_val_if_fail (TV_IS_PROFILE_PAGE (self), NULL);

  return self->profile;
}

TvProfilePageState
tv_profile_page_get_state (TvProfilePage *self)
{
  g_return_val_if_fail (TV_IS_PROFILE_PAGE (self), TV_PROFILE_PAGE_FAILED);

  return self->state;
}

gboolean
tv_profile_page_get_loading (TvProfilePage *self)
{
  g_return_val_if_fail (TV_IS_PROFILE_PAGE (self), FALSE);

  return self->state == TV_PROFILE_PAGE_LOADING;
}

const char *
tv_profile_page_get_error_message (TvProfilePage *self)
{
  g_return_val_if_fail (TV_IS_PROFILE_PAGE (self), NULL);

  return self->error_message;
}

TvProperties *
tv_profile_page_get_properties (TvProfilePage *self)
{
  g_return_val_if_fail (TV_IS_PROFILE_PAGE (self), NULL);

  return self->properties;
}

TvProfilePage *
tv_profile_page_new (GFile *file)
{
  g_return_val_if_fail (G_IS_FILE (file), NULL);

  return g_object_new (TV_TYPE_PROFILE_PAGE, "file", file, NULL);
}

static void
tv_profile_page_constructed (GObject *object)
{
  TvProfilePage *self = (TvProfilePage *)object;

  G_OBJECT_CLASS (tv_profile_page_parent_class)->constructed (object);

  g_assert (self->file != NULL);

  self->profile = tv_profile_new (self->file);
  g_signal_connect_object (self->profile, "opened", G_CALLBACK (on_opened), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->profile, "notify::samples-loaded",
                           G_CALLBACK (on_progress_notify), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->profile, "notify::state",
                           G_CALLBACK (on_progress_notify), self, G_CONNECT_SWAPPED);
  update_progress (self);
  tv_profile_load_async (self->profile, self->cancellable, on_load_finished,
                         g_object_ref (self));
}

static void
tv_profile_page_dispose (GObject *object)
{
  TvProfilePage *self = (TvProfilePage *)object;

  g_cancellable_cancel (self->cancellable);
  gtk_widget_dispose_template (GTK_WIDGET (self), TV_TYPE_PROFILE_PAGE);
  self->properties = NULL;

  G_OBJECT_CLASS (tv_profile_page_parent_class)->dispose (object);
}

static void
tv_profile_page_finalize (GObject *object)
{
  TvProfilePage *self = (TvProfilePage *)object;

  g_clear_object (&self->profile);
  g_clear_object (&self->file);
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->error_message, g_free);

  G_OBJECT_CLASS (tv_profile_page_parent_class)->finalize (object);
}

static void
tv_profile_page_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  TvProfilePage *self = TV_PROFILE_PAGE (object);

  switch (prop_id)
    {
    case PROP_FILE:
      g_value_set_object (value, self->file);
      break;
    case PROP_STATE:
      g_value_set_int (value, self->state);
      break;
    case PROP_LOADING:
      g_value_set_boolean (value, tv_profile_page_get_loading (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tv_profile_page_set_property (GObject      *object,
                              guint         prop_id,
                              const GValue *value,
                              GParamSpec   *pspec)
{
  TvProfilePage *self = TV_PROFILE_PAGE (object);

  switch (prop_id)
    {
    case PROP_FILE:
      self->file = g_value_dup_object (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tv_profile_page_class_init (TvProfilePageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->constructed = tv_profile_page_constructed;
  object_class->dispose = tv_profile_page_dispose;
  object_class->finalize = tv_profile_page_finalize;
  object_class->get_property = tv_profile_page_get_property;
  object_class->set_property = tv_profile_page_set_property;

  properties[PROP_FILE] =
    g_param_spec_object ("file", NULL, NULL, G_TYPE_FILE,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_STATE] =
    g_param_spec_int ("state", NULL, NULL,
                      TV_PROFILE_PAGE_LOADING, TV_PROFILE_PAGE_CANCELLED, TV_PROFILE_PAGE_LOADING,
                      G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_LOADING] =
    g_param_spec_boolean ("loading", NULL, NULL, TRUE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/tachyonviewer/TachyonViewer/ui/tv-profile-page.ui");
  gtk_widget_class_bind_template_child (widget_class, TvProfilePage, stack);
  gtk_widget_class_bind_template_child (widget_class, TvProfilePage, progress_box);
  gtk_widget_class_bind_template_child (widget_class, TvProfilePage, progress_bar);
  gtk_widget_class_bind_template_child (widget_class, TvProfilePage, cancel_button);
  gtk_widget_class_bind_template_child (widget_class, TvProfilePage, properties_box);
  gtk_widget_class_bind_template_child (widget_class, TvProfilePage, error_page);

  g_type_ensure (TV_TYPE_PROPERTIES);
}

static void
tv_profile_page_init (TvProfilePage *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  self->cancellable = g_cancellable_new ();
  self->state = TV_PROFILE_PAGE_LOADING;
  self->properties = tv_properties_new ();
  gtk_widget_set_vexpand (GTK_WIDGET (self->properties), TRUE);
  gtk_box_append (self->properties_box, GTK_WIDGET (self->properties));
  g_signal_connect_swapped (self->cancel_button, "clicked",
                            G_CALLBACK (tv_profile_page_cancel), self);
}
