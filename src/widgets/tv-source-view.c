/* tv-source-view.c: a function's source, with samples per line
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * For the function shown, a worker asks the model for the tree of the
 * samples the views select, merged by instruction (file, function, line,
 * column, opcode), and adds up the function's nodes by line and by
 * instruction.  A sample counts once in a line's total: at the outermost
 * call of the function on its stack, so that the lines add up to the
 * function's total even when it recurses.  Self samples count where they
 * stopped.  The same worker reads the source file when this machine has
 * it; when not, the view says so and still lists the lines' samples, and
 * the user can point it at the file: the folder it was found in then
 * stands for the recorded one, for every file under it (a profile
 * recorded on another machine, or in a container).
 *
 * The file is shown whole in a GtkSourceView, read-only, with Python's
 * syntax colours in libadwaita's style scheme (light or dark), its line
 * numbers, and each line's samples in a gutter renderer of our own
 * (TvSourceHeatGutter) rather than painted over the code.  The selected
 * frame's line is tinted and scrolled to, and its span (CPython 3.11's
 * columns, in UTF-8 bytes as the buffer counts them) is a tag.
 */
#include <string.h>

#include <glib/gi18n.h>

#include "tv-palette.h"
#include "tv-source-heat-gutter.h"
#include "tv-source-lines.h"
#include "tv-source-view.h"
#include "tv-text.h"
#include "tv-units.h"
#include "tv-worker.h"

/* How far down the view the line scrolled to is. */
#define SCROLL_YALIGN     0.3

struct _TvSourceView
{
  AdwBin         parent_instance;

  TvProfile     *profile;
  TvViewState   *state;
  guint32        function;
  guint32        frame;
  TvWorker       source_worker;
  TvSourceLines  *result;

  /* Folders found by the user, newest first: FROM[i] stands for TO[i].
   * Both NULL-terminated. */
  GPtrArray     *map_from;
  GPtrArray     *map_to;

  GtkLabel      *title_label;
  GtkLabel      *status_label;
  GtkWidget     *locate_button;
  GtkSourceView *text_view;
  GtkSourceBuffer *buffer;
  TvSourceHeatGutter *heat_gutter;
  GtkWidget     *instructions_scroll;
  GtkLabel      *instructions_label;
  GtkTextTag    *marked_line_tag;
  GtkTextTag    *marked_span_tag;
  GtkTextMark   *scroll_mark;
  /* The view keeps the line scrolled to in place while GTK measures the
   * file's lines in the background, until the user scrolls or clicks. */
  gboolean       follow_mark;
  /* The GtkSourceView is made when the panel is first shown (GtkSourceView's
   * types are many: a window that never shows a file need not register
   * them), and the text of a result is put in it when it is shown. */
  GtkWidget     *text_scroll;
  gboolean       text_stale;
};

G_DEFINE_FINAL_TYPE (TvSourceView, tv_source_view, ADW_TYPE_BIN)

/* ------------------------------------------------------------------------ */
/* Showing                                                                   */
/* ------------------------------------------------------------------------ */

static void
show_instructions (TvSourceView *self)
{
  TvSourceLines *result = self->result;
  g_autoptr(GString) text = g_string_new (NULL);

  if (!result->has_opcodes)
    {
      gtk_widget_set_visible (self->instructions_scroll, FALSE);
      return;
    }
  /* Translators: the heading of the per-instruction table; keep the
   * columns aligned with the rows below. */
  g_string_append (text, _("Line:column   opcode   total   self"));
  for (guint i = 0; i < result->instructions->len; i++)
    {
      const TvSourceInstructionCount *ic = &g_array_index (result->instructions, TvSourceInstructionCount, i);
      g_autofree char *where = NULL;

      if (ic->column >= 0)
        where = g_strdup_printf ("%d:%d–%d", ic->line, ic->column, ic->end_column);
      else
        where = g_strdup_printf ("%d", ic->line);
      g_string_append_printf (text, "\n%-13s %6u   %5" G_GUINT64_FORMAT "   %4" G_GUINT64_FORMAT,
                              where, ic->opcode, ic->total, ic->self);
    }
  gtk_label_set_text (self->instructions_label, text->str);
  gtk_widget_set_visible (self->instructions_scroll, TRUE);
}

static void
scroll_to_mark (TvSourceView *self)
{
  gtk_text_view_scroll_to_mark (GTK_TEXT_VIEW (self->text_view), self->scroll_mark, 0.0, TRUE,
                                0.0, SCROLL_YALIGN);
}

/* A scroll to a line far down lands where the lines above it were
 * thought to be: as GTK measures them, the heights change, and so the
 * view scrolls again. */
static void
vadjustment_changed (TvSourceView *self)
{
  if (self->follow_mark)
    scroll_to_mark (self);
}

static void
stop_following (TvSourceView *self)
{
  self->follow_mark = FALSE;
}

static gboolean
scrolled_by_user (TvSourceView *self)
{
  stop_following (self);
  return FALSE;
}

static gboolean
key_pressed (TvSourceView *self)
{
  stop_following (self);
  return FALSE;
}

/* Empties the buffer, and the gutter with it. */
static void
clear_text (TvSourceView *self)
{
  GtkTextBuffer *buffer;

  self->text_stale = FALSE;
  if (self->text_view == NULL)
    return;
  buffer = GTK_TEXT_BUFFER (self->buffer);
  tv_source_heat_gutter_set_cells (self->heat_gutter, NULL, 0, 0, FALSE);
  gtk_source_buffer_set_language (self->buffer, NULL);
  gtk_text_buffer_set_text (buffer, "", 0);
}

/* Marks the span of MARKED in the file shown (columns are UTF-8 byte
 * offsets, as CPython records them; the end may be on a later line), or
 * the rest of its line where the columns are unknown. */
static void
mark_span (TvSourceView          *self,
           const TvFrameLocation *marked)
{
  GtkTextBuffer *buffer = GTK_TEXT_BUFFER (self->buffer);
  int n_lines = gtk_text_buffer_get_line_count (buffer);
  GtkTextIter start, end;
  int end_line;

  if (marked->column < 0)
    return;
  gtk_text_buffer_get_iter_at_line (buffer, &start, marked->line - 1);
  if (marked->column < gtk_text_iter_get_bytes_in_line (&start))
    gtk_text_iter_set_line_index (&start, marked->column);
  else if (!gtk_text_iter_ends_line (&start))
    gtk_text_iter_forward_to_line_end (&start);

  end_line = marked->end_line >= marked->line ? marked->end_line : marked->line;
  end = start;
  if (end_line <= n_lines && (end_line > marked->line || marked->end_column >= marked->column))
    {
      gtk_text_buffer_get_iter_at_line (buffer, &end, end_line - 1);
      if (marked->end_column >= 0 && marked->end_column < gtk_text_iter_get_bytes_in_line (&end))
        gtk_text_iter_set_line_index (&end, marked->end_column);
      else if (!gtk_text_iter_ends_line (&end))
        gtk_text_iter_forward_to_line_end (&end);
    }
  else if (!gtk_text_iter_ends_line (&end))
    gtk_text_iter_forward_to_line_end (&end);
  /* A column past the line's end (the file changed since) marks nothing. */
  if (gtk_text_iter_compare (&start, &end) < 0)
    gtk_text_buffer_apply_tag (buffer, self->marked_span_tag, &start, &end);
}

static void
show_text (TvSourceView *self)
{
  TvSourceLines *result = self->result;
  GtkTextBuffer *buffer = GTK_TEXT_BUFFER (self->buffer);
  TvFrameLocation marked_location;
  const TvFrameLocation *marked = NULL;
  g_autoptr(GArray) cells = g_array_new (FALSE, FALSE, sizeof (TvSourceHeatCell));
  int n_lines;
  int marked_row = -1;
  int scroll_row = -1;
  guint64 max_total = 0;
  gboolean numbered = result->source == NULL;
  GtkTextIter iter;

  clear_text (self);
  if (self->frame != TV_NODE_NONE
      && tv_profile_data_get_frame_location (tv_profile_get_data (self->profile), self->frame,
                                             &marked_location)
      && marked_location.line > 0)
    marked = &marked_location;

  if (result->source != NULL)
    {
      /* The buffer is the file: its own line numbers are the file's. */
      gtk_source_buffer_set_language (self->buffer,
                                      gtk_source_language_manager_get_language (gtk_source_language_manager_get_default (),
                                                                                "python3"));
      gtk_text_buffer_set_text (buffer, result->source, -1);
    }
  gtk_source_view_set_show_line_numbers (self->text_view, !numbered);

  /* Each line with samples is a cell of the gutter: at its own row of
   * the file, or, without it, at a row of its own in an empty buffer. */
  n_lines = gtk_text_buffer_get_line_count (buffer);
  for (guint i = 0; i < result->lines->len; i++)
    {
      const TvSourceLineCount *lc = &g_array_index (result->lines, TvSourceLineCount, i);
      TvSourceHeatCell cell = { 0, lc->line, lc->total, lc->self };

      if (lc->line <= 0 || (!numbered && lc->line > n_lines))
        continue;
      cell.buffer_line = numbered ? cells->len : (guint) lc->line - 1;
      g_array_append_val (cells, cell);
      if (marked != NULL && marked->line == lc->line)
        marked_row = cell.buffer_line;
      if (lc->total > max_total || scroll_row < 0)
        {
          max_total = MAX (max_total, lc->total);
          scroll_row = cell.buffer_line;
        }
    }
  if (numbered && cells->len > 0)
    {
      /* A row per line, each a space and a newline: the tag that tints
       * the selected frame's row needs characters to hold it (GTK paints
       * no paragraph background on a line that is only its newline). */
      g_autoptr(GString) rows = g_string_new (NULL);

      for (guint i = 0; i < cells->len; i++)
        g_string_append (rows, " \n");
      gtk_text_buffer_set_text (buffer, rows->str, -1);
    }
  else if (!numbered && marked != NULL && marked->line <= n_lines)
    marked_row = marked->line - 1;

  if (cells->len == 0 && marked_row < 0)
    {
      /* Translators: shown instead of the lines, or above the file. */
      const char *message = _("No line of this function is in the samples shown.");

      if (numbered)
        gtk_text_buffer_set_text (buffer, message, -1);
      else
        gtk_label_set_text (self->status_label, message);
    }
  gtk_widget_set_visible (GTK_WIDGET (self->status_label),
                          gtk_label_get_text (self->status_label)[0] != '\0');
  tv_source_heat_gutter_set_cells (self->heat_gutter, (TvSourceHeatCell *) cells->data,
                                   cells->len, result->function_total, numbered);

  /* The selected frame's line, tinted, and its span; the view scrolls to
   * it, or else to the function's busiest line. */
  if (marked_row >= 0)
    {
      GtkTextIter start, end;

      gtk_text_buffer_get_iter_at_line (buffer, &start, marked_row);
      end = start;
      gtk_text_iter_forward_line (&end);
      gtk_text_buffer_apply_tag (buffer, self->marked_line_tag, &start, &end);
      if (!numbered)
        mark_span (self, marked);
      scroll_row = marked_row;
    }
  gtk_text_buffer_get_iter_at_line (buffer, &iter, MAX (scroll_row, 0));
  gtk_text_buffer_move_mark (buffer, self->scroll_mark, &iter);
  gtk_text_buffer_place_cursor (buffer, &iter);
  self->follow_mark = TRUE;
  scroll_to_mark (self);
}

static void ensure_text_view (TvSourceView *self);

static void
show_result (TvSourceView *self)
{
  TvSourceLines *result = self->result;
  g_autoptr(GString) title = g_string_new (NULL);
  g_autofree char *status = NULL;

  tv_text_append_shown (title, result->funcname, -1);
  g_string_append (title, " — ");
  tv_text_append_shown (title, result->filename, -1);
  gtk_label_set_text (self->title_label, title->str);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->title_label), title->str);
  if (result->source == NULL)
    status = tv_text_dup_visible (result->source_error, 0);
  gtk_label_set_text (self->status_label, status != NULL ? status : "");
  gtk_widget_set_visible (GTK_WIDGET (self->status_label), status != NULL);
  gtk_widget_set_visible (self->locate_button, result->source == NULL && result->can_locate);
  show_instructions (self);

  if (gtk_widget_get_mapped (GTK_WIDGET (self)))
    {
      ensure_text_view (self);
      show_text (self);
    }
  else
    {
      clear_text (self);
      self->text_stale = TRUE;
    }
}

static void
source_done (GObject      *object,
             GAsyncResult *res,
             gpointer      user_data)
{
  TvSourceView *self = TV_SOURCE_VIEW (object);
  guint generation = GPOINTER_TO_UINT (user_data);
  TvSourceLines *result = tv_source_lines_load_finish (res, NULL);

  if (result == NULL)
    return;
  if (!tv_worker_is_current (&self->source_worker, generation))
    {
      tv_source_lines_free (result);
      return;
    }
  tv_worker_end (&self->source_worker);
  tv_source_lines_free (self->result);
  self->result = result;
  show_result (self);
}

static void
refresh (TvSourceView *self)
{
  GCancellable *cancellable;
  TvQuery query;

  tv_worker_cancel (&self->source_worker);
  if (self->function == TV_NODE_NONE)
    {
      g_clear_pointer (&self->result, tv_source_lines_free);
      gtk_label_set_text (self->title_label, _("No Function Selected"));
      gtk_label_set_text (self->status_label,
                          _("Select a frame or a function to see its source, with the samples of each line."));
      gtk_widget_set_visible (GTK_WIDGET (self->status_label), TRUE);
      gtk_widget_set_visible (self->locate_button, FALSE);
      clear_text (self);
      gtk_widget_set_visible (self->instructions_scroll, FALSE);
      return;
    }

  /* The samples the views select, by instruction, with no transform: a
   * line's samples do not depend on what is hidden or focused. */
  tv_view_state_to_query (self->state, &query);
  query.merge = TV_MERGE_INSTRUCTION;
  query.inverted = FALSE;
  query.collapse_recursion = FALSE;
  query.focus_function = TV_NODE_NONE;
  query.callers_of = TV_NODE_NONE;
  query.hidden_functions = NULL;
  query.n_hidden_functions = 0;
  query.count_states = FALSE;

  cancellable = tv_worker_begin (&self->source_worker);
  tv_source_lines_load_async (tv_profile_get_data (self->profile), &query, self->function,
                              self->frame, (const char * const *) self->map_from->pdata,
                              (const char * const *) self->map_to->pdata, self,
                              cancellable, source_done,
                              GUINT_TO_POINTER (self->source_worker.generation));
}

/* ------------------------------------------------------------------------ */
/* Finding a file                                                            */
/* ------------------------------------------------------------------------ */

static void
on_locate_response (GtkNativeDialog *chooser,
                    int              response,
                    TvSourceView    *self)
{
  g_autoptr(GFile) file = NULL;

  if (response == GTK_RESPONSE_ACCEPT)
    file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));
  gtk_native_dialog_destroy (chooser);
  g_object_unref (chooser);
  if (file != NULL && g_file_peek_path (file) != NULL)
    tv_source_view_locate (self, g_file_peek_path (file));
}

static void
locate_clicked (TvSourceView *self)
{
  GtkFileChooserNative *chooser;
  g_autofree char *title = NULL;
  g_autofree char *base = NULL;

  if (self->result == NULL)
    return;
  base = tv_text_dup_shown (self->result->filename);
  /* Translators: %s is the file name the profile gives. */
  title = g_strdup_printf (_("Find “%s”"), base);
  chooser = gtk_file_chooser_native_new (title, GTK_WINDOW (gtk_widget_get_root (GTK_WIDGET (self))),
                                         GTK_FILE_CHOOSER_ACTION_OPEN, _("_Select"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  g_signal_connect_object (chooser, "response", G_CALLBACK (on_locate_response), self, 0);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

void
tv_source_view_locate (TvSourceView *self,
                       const char   *path)
{
  g_auto(GStrv) recorded = NULL;
  g_auto(GStrv) found = NULL;
  guint n_recorded, n_found, n_common = 0;
  g_autofree char *from = NULL;
  g_autofree char *to = NULL;

  g_return_if_fail (TV_IS_SOURCE_VIEW (self));
  g_return_if_fail (path != NULL);

  if (self->result == NULL || !self->result->can_locate)
    return;

  /* "/build/app/src/pkg/mod.py" found as "/home/me/app/src/pkg/mod.py":
   * "/build" stands for "/home/me".  The folders they share at the end
   * are the same folders; a file of another name stands for itself
   * alone. */
  recorded = g_strsplit (self->result->filename, "/", -1);
  found = g_strsplit (path, "/", -1);
  n_recorded = g_strv_length (recorded);
  n_found = g_strv_length (found);
  while (n_common < n_recorded - 1 && n_common < n_found - 1
         && strcmp (recorded[n_recorded - 1 - n_common], found[n_found - 1 - n_common]) == 0)
    n_common++;
  if (n_common > 0)
    {
      g_free (recorded[n_recorded - n_common]);
      recorded[n_recorded - n_common] = NULL;
      g_free (found[n_found - n_common]);
      found[n_found - n_common] = NULL;
      from = g_strjoinv ("/", recorded);
      to = g_strjoinv ("/", found);
    }
  /* Not the whole file system ("/app.py" found as "/home/me/app.py"). */
  if (from == NULL || from[0] == '\0' || to[0] == '\0')
    {
      g_clear_pointer (&from, g_free);
      g_clear_pointer (&to, g_free);
      from = g_strdup (self->result->filename);
      to = g_strdup (path);
    }
  g_ptr_array_insert (self->map_from, 0, g_steal_pointer (&from));
  g_ptr_array_insert (self->map_to, 0, g_steal_pointer (&to));
  refresh (self);
}

/* ------------------------------------------------------------------------ */
/* Public API                                                                */
/* ------------------------------------------------------------------------ */

GtkWidget *
tv_source_view_new (TvProfile   *profile,
                    TvViewState *state)
{
  TvSourceView *self;

  g_return_val_if_fail (TV_IS_PROFILE (profile), NULL);
  g_return_val_if_fail (tv_profile_get_data (profile) != NULL, NULL);
  g_return_val_if_fail (TV_IS_VIEW_STATE (state), NULL);

  self = g_object_new (TV_TYPE_SOURCE_VIEW, NULL);
  self->profile = g_object_ref (profile);
  self->state = g_object_ref (state);
  g_signal_connect_swapped (state, "changed", G_CALLBACK (refresh), self);
  refresh (self);
  return GTK_WIDGET (self);
}

void
tv_source_view_show (TvSourceView *self,
                     guint32       function,
                     guint32       frame)
{
  g_return_if_fail (TV_IS_SOURCE_VIEW (self));

  if (self->function == function && self->frame == frame)
    return;
  self->function = function;
  self->frame = frame;
  refresh (self);
}

gboolean
tv_source_view_is_busy (TvSourceView *self)
{
  g_return_val_if_fail (TV_IS_SOURCE_VIEW (self), FALSE);

  return tv_worker_is_busy (&self->source_worker);
}

gboolean
tv_source_view_has_source (TvSourceView *self)
{
  g_return_val_if_fail (TV_IS_SOURCE_VIEW (self), FALSE);

  return self->result != NULL && self->result->source != NULL;
}

const char *
tv_source_view_get_status (TvSourceView *self)
{
  g_return_val_if_fail (TV_IS_SOURCE_VIEW (self), NULL);

  return gtk_label_get_text (self->status_label);
}

const char *
tv_source_view_get_title (TvSourceView *self)
{
  g_return_val_if_fail (TV_IS_SOURCE_VIEW (self), NULL);

  return gtk_label_get_text (self->title_label);
}

gboolean
tv_source_view_get_line_samples (TvSourceView *self,
                                 int           line,
                                 guint64      *total,
                                 guint64      *self_samples)
{
  const TvSourceLineCount *lc;

  g_return_val_if_fail (TV_IS_SOURCE_VIEW (self), FALSE);

  lc = tv_source_lines_find (self->result, line);
  if (lc == NULL)
    return FALSE;
  if (total != NULL)
    *total = lc->total;
  if (self_samples != NULL)
    *self_samples = lc->self;
  return TRUE;
}

guint
tv_source_view_get_n_instructions (TvSourceView *self)
{
  g_return_val_if_fail (TV_IS_SOURCE_VIEW (self), 0);

  return self->result != NULL ? self->result->instructions->len : 0;
}

GtkSourceView *
tv_source_view_get_text_view (TvSourceView *self)
{
  g_return_val_if_fail (TV_IS_SOURCE_VIEW (self), NULL);

  return self->text_view;
}

TvSourceHeatGutter *
tv_source_view_get_heat_gutter (TvSourceView *self)
{
  g_return_val_if_fail (TV_IS_SOURCE_VIEW (self), NULL);

  return self->heat_gutter;
}

/* ------------------------------------------------------------------------ */
/* GObject                                                                   */
/* ------------------------------------------------------------------------ */

static GdkRGBA
rgba_of (TvColor color,
         double  alpha)
{
  return (GdkRGBA) { color.red, color.green, color.blue, alpha };
}

/* libadwaita's style scheme for the code, and the marks in the accent
 * colour, light or dark as the application is. */
static void
update_style (TvSourceView *self)
{
  gboolean dark = adw_style_manager_get_dark (adw_style_manager_get_default ());
  GtkSourceStyleSchemeManager *schemes = gtk_source_style_scheme_manager_get_default ();
  GtkSourceStyleScheme *scheme;
  GdkRGBA line = rgba_of (tv_palette_accent (dark), tv_palette_selection_alpha (dark));
  GdkRGBA span = rgba_of (tv_palette_accent (dark), 2.0 * tv_palette_selection_alpha (dark));

  scheme = gtk_source_style_scheme_manager_get_scheme (schemes, dark ? "Adwaita-dark" : "Adwaita");
  if (scheme == NULL)
    scheme = gtk_source_style_scheme_manager_get_scheme (schemes, dark ? "classic-dark" : "classic");
  gtk_source_buffer_set_style_scheme (self->buffer, scheme);
  g_object_set (self->marked_line_tag, "paragraph-background-rgba", &line, NULL);
  g_object_set (self->marked_span_tag, "background-rgba", &span, NULL);
}

static void
tv_source_view_dispose (GObject *object)
{
  TvSourceView *self = TV_SOURCE_VIEW (object);

  tv_worker_cancel (&self->source_worker);
  if (self->state != NULL)
    g_signal_handlers_disconnect_by_data (self->state, self);
  g_signal_handlers_disconnect_by_data (adw_style_manager_get_default (), self);
  g_clear_object (&self->state);
  g_clear_object (&self->profile);
  g_clear_pointer (&self->result, tv_source_lines_free);
  g_clear_pointer (&self->map_from, g_ptr_array_unref);
  g_clear_pointer (&self->map_to, g_ptr_array_unref);

  G_OBJECT_CLASS (tv_source_view_parent_class)->dispose (object);
}

/* The view of the file, made when the panel is first shown. */
static void
ensure_text_view (TvSourceView *self)
{
  GtkTextBuffer *buffer;
  GtkSourceGutter *gutter;
  GtkEventController *controller;
  GtkTextIter start;

  if (self->text_view != NULL)
    return;
  gtk_source_init ();

  /* The file, read-only: no undo history, no cursor (a click still
   * selects, for copying). */
  self->buffer = gtk_source_buffer_new (NULL);
  buffer = GTK_TEXT_BUFFER (self->buffer);
  gtk_text_buffer_set_enable_undo (buffer, FALSE);
  gtk_source_buffer_set_highlight_matching_brackets (self->buffer, FALSE);
  self->text_view = GTK_SOURCE_VIEW (gtk_source_view_new_with_buffer (self->buffer));
  g_object_unref (self->buffer);
  gtk_text_view_set_editable (GTK_TEXT_VIEW (self->text_view), FALSE);
  gtk_text_view_set_cursor_visible (GTK_TEXT_VIEW (self->text_view), FALSE);
  gtk_text_view_set_monospace (GTK_TEXT_VIEW (self->text_view), TRUE);
  gtk_text_view_set_wrap_mode (GTK_TEXT_VIEW (self->text_view), GTK_WRAP_NONE);
  gtk_source_view_set_show_line_numbers (self->text_view, TRUE);
  gtk_source_view_set_highlight_current_line (self->text_view, FALSE);
  gtk_source_view_set_tab_width (self->text_view, 8);
  /* The samples between the line numbers and the code. */
  self->heat_gutter = TV_SOURCE_HEAT_GUTTER (tv_source_heat_gutter_new ());
  gutter = gtk_source_view_get_gutter (self->text_view, GTK_TEXT_WINDOW_LEFT);
  gtk_source_gutter_insert (gutter, GTK_SOURCE_GUTTER_RENDERER (self->heat_gutter),
                            GTK_SOURCE_VIEW_GUTTER_POSITION_MARKS + 10);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (self->text_scroll),
                                 GTK_WIDGET (self->text_view));

  self->marked_line_tag = gtk_text_buffer_create_tag (buffer, "tv-marked-line", NULL);
  self->marked_span_tag = gtk_text_buffer_create_tag (buffer, "tv-marked-span",
                                                      "underline", PANGO_UNDERLINE_SINGLE, NULL);
  gtk_text_buffer_get_start_iter (buffer, &start);
  self->scroll_mark = gtk_text_buffer_create_mark (buffer, NULL, &start, TRUE);
  update_style (self);
  g_signal_connect_swapped (adw_style_manager_get_default (), "notify::dark",
                            G_CALLBACK (update_style), self);

  g_signal_connect_object (gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (self->text_scroll)),
                           "changed", G_CALLBACK (vadjustment_changed), self, G_CONNECT_SWAPPED);
  /* Whatever the user does in the view or its scrollbars. */
  controller = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_BOTH_AXES);
  gtk_event_controller_set_propagation_phase (controller, GTK_PHASE_CAPTURE);
  g_signal_connect_swapped (controller, "scroll", G_CALLBACK (scrolled_by_user), self);
  gtk_widget_add_controller (self->text_scroll, controller);
  controller = GTK_EVENT_CONTROLLER (gtk_gesture_click_new ());
  gtk_event_controller_set_propagation_phase (controller, GTK_PHASE_CAPTURE);
  g_signal_connect_swapped (controller, "pressed", G_CALLBACK (stop_following), self);
  gtk_widget_add_controller (self->text_scroll, controller);
  controller = gtk_event_controller_key_new ();
  gtk_event_controller_set_propagation_phase (controller, GTK_PHASE_CAPTURE);
  g_signal_connect_swapped (controller, "key-pressed", G_CALLBACK (key_pressed), self);
  gtk_widget_add_controller (self->text_scroll, controller);
}

static void
tv_source_view_map (GtkWidget *widget)
{
  TvSourceView *self = TV_SOURCE_VIEW (widget);

  GTK_WIDGET_CLASS (tv_source_view_parent_class)->map (widget);
  ensure_text_view (self);
  if (self->text_stale && self->result != NULL)
    {
      self->text_stale = FALSE;
      show_text (self);
    }
}

static void
tv_source_view_class_init (TvSourceViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tv_source_view_dispose;
  widget_class->map = tv_source_view_map;
}

static void
tv_source_view_init (TvSourceView *self)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);

  self->function = TV_NODE_NONE;
  self->frame = TV_NODE_NONE;
  self->map_from = g_ptr_array_new_null_terminated (0, g_free, TRUE);
  self->map_to = g_ptr_array_new_null_terminated (0, g_free, TRUE);

  self->title_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (self->title_label, 0);
  gtk_label_set_ellipsize (self->title_label, PANGO_ELLIPSIZE_MIDDLE);
  gtk_widget_add_css_class (GTK_WIDGET (self->title_label), "heading");
  self->status_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (self->status_label, 0);
  gtk_label_set_wrap (self->status_label, TRUE);
  gtk_label_set_selectable (self->status_label, TRUE);
  gtk_widget_add_css_class (GTK_WIDGET (self->status_label), "dim-label");
  self->locate_button = gtk_button_new_with_mnemonic (_("_Find the File…"));
  gtk_widget_set_halign (self->locate_button, GTK_ALIGN_START);
  gtk_widget_set_tooltip_text (self->locate_button,
                               _("Show where the file is on this machine; other files of its "
                                 "folder are then looked for there too"));
  gtk_widget_set_visible (self->locate_button, FALSE);
  g_signal_connect_swapped (self->locate_button, "clicked", G_CALLBACK (locate_clicked), self);

  self->text_scroll = gtk_scrolled_window_new ();
  gtk_widget_set_vexpand (self->text_scroll, TRUE);

  /* The instructions below the file, never taller than five rows: a
   * long function must not make the window taller. */
  self->instructions_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (self->instructions_label, 0);
  gtk_label_set_yalign (self->instructions_label, 0);
  gtk_label_set_selectable (self->instructions_label, TRUE);
  gtk_widget_add_css_class (GTK_WIDGET (self->instructions_label), "monospace");
  self->instructions_scroll = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_propagate_natural_height (GTK_SCROLLED_WINDOW (self->instructions_scroll),
                                                    TRUE);
  gtk_scrolled_window_set_max_content_height (GTK_SCROLLED_WINDOW (self->instructions_scroll),
                                              96);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (self->instructions_scroll),
                                 GTK_WIDGET (self->instructions_label));
  gtk_widget_set_visible (self->instructions_scroll, FALSE);

  gtk_widget_set_margin_start (box, 6);
  gtk_widget_set_margin_end (box, 6);
  gtk_widget_set_margin_top (box, 6);
  gtk_widget_set_margin_bottom (box, 6);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->title_label));
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->status_label));
  gtk_box_append (GTK_BOX (box), self->locate_button);
  gtk_box_append (GTK_BOX (box), self->text_scroll);
  gtk_box_append (GTK_BOX (box), self->instructions_scroll);
  adw_bin_set_child (ADW_BIN (self), box);
}
