/* tv-function-table-rows.c: the function table's rows and its search
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * TvFunctionItem (a function of a call tree, with its counts), the lazy
 * lists of them that the table and its callers and callees lists show,
 * and TvRowFilter, the search over their names and files.
 */
#include <string.h>

#include "tv-function-table-private.h"
#include "tv-lazy-list.h"
#include "tv-text.h"

/* ------------------------------------------------------------------------ */
/* TvFunctionItem                                                            */
/* ------------------------------------------------------------------------ */

G_DEFINE_FINAL_TYPE (TvFunctionItem, tv_function_item, G_TYPE_OBJECT)

static void
tv_function_item_finalize (GObject *object)
{
  TvFunctionItem *self = TV_FUNCTION_ITEM (object);

  g_clear_pointer (&self->tree, tv_call_tree_unref);

  G_OBJECT_CLASS (tv_function_item_parent_class)->finalize (object);
}

static void
tv_function_item_class_init (TvFunctionItemClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = tv_function_item_finalize;
}

static void
tv_function_item_init (TvFunctionItem *self)
{
}

static const char *
path_basename (const char *path)
{
  const char *slash = strrchr (path, '/');
  const char *backslash = strrchr (path, '\\');

  if (backslash != NULL && (slash == NULL || backslash > slash))
    slash = backslash;
  return slash != NULL && slash[1] != '\0' ? slash + 1 : path;
}

/* SPECIAL names the row that stands for no function. */
static TvFunctionItem *
tv_function_item_new (TvCallTree          *tree,
                      const TvFunctionRow *row,
                      const char          *special,
                      guint64              base)
{
  TvFunctionItem *self = g_object_new (TV_TYPE_FUNCTION_ITEM, NULL);

  self->tree = tv_call_tree_ref (tree);
  self->base = base;
  self->function = row->function;
  self->self = row->self;
  self->total = row->total;
  if (row->function == TV_NODE_NONE)
    {
      self->name = special;
      self->file = "";
    }
  else
    {
      TvProfileData *data = tv_call_tree_get_data (tree);
      guint32 frame = tv_profile_data_get_key_frame (data, TV_MERGE_FUNCTION, row->function);

      self->name = tv_profile_data_get_funcname (data, frame);
      self->file = tv_profile_data_get_filename (data, frame);
    }
  self->basename = path_basename (self->file);
  return self;
}

guint32
tv_function_item_get_function (TvFunctionItem *self)
{
  g_return_val_if_fail (TV_IS_FUNCTION_ITEM (self), TV_NODE_NONE);

  return self->function;
}

const char *
tv_function_item_get_name (TvFunctionItem *self)
{
  g_return_val_if_fail (TV_IS_FUNCTION_ITEM (self), NULL);

  return self->name;
}

const char *
tv_function_item_get_file (TvFunctionItem *self)
{
  g_return_val_if_fail (TV_IS_FUNCTION_ITEM (self), NULL);

  return self->file;
}

guint64
tv_function_item_get_self (TvFunctionItem *self)
{
  g_return_val_if_fail (TV_IS_FUNCTION_ITEM (self), 0);

  return self->self;
}

guint64
tv_function_item_get_total (TvFunctionItem *self)
{
  g_return_val_if_fail (TV_IS_FUNCTION_ITEM (self), 0);

  return self->total;
}

guint64
tv_function_item_get_base (TvFunctionItem *self)
{
  g_return_val_if_fail (TV_IS_FUNCTION_ITEM (self), 0);

  return self->base;
}

/* ------------------------------------------------------------------------ */
/* The rows, as a TvLazyList of TvFunctionItems                              */
/* ------------------------------------------------------------------------ */

typedef struct
{
  TvCallTree          *tree;
  /* The tree's function table, or a copy of our own (owned_rows). */
  const TvFunctionRow *rows;
  TvFunctionRow       *owned_rows;
  const char          *special;
  guint64              base;
} RowSource;

static void
row_source_free (gpointer data)
{
  RowSource *source = data;

  tv_call_tree_unref (source->tree);
  g_free (source->owned_rows);
  g_free (source);
}

static gpointer
row_source_make_item (guint    position,
                      gpointer user_data)
{
  RowSource *source = user_data;

  return tv_function_item_new (source->tree, &source->rows[position], source->special,
                               source->base);
}

/* ROWS of TREE (taken when OWNED); SPECIAL names the row of TV_NODE_NONE. */
static GListModel *
row_list_new (TvCallTree          *tree,
              const TvFunctionRow *rows,
              TvFunctionRow       *owned_rows,
              guint                n_rows,
              const char          *special,
              guint64              base)
{
  RowSource *source = g_new0 (RowSource, 1);

  source->base = base;
  source->tree = tv_call_tree_ref (tree);
  source->rows = owned_rows != NULL ? owned_rows : rows;
  source->owned_rows = owned_rows;
  source->special = special;
  return tv_lazy_list_new (TV_TYPE_FUNCTION_ITEM, n_rows, row_source_make_item, source,
                           row_source_free);
}

/* The function table of TREE. */
GListModel *
tv_function_rows_new (TvCallTree *tree)
{
  guint n_rows;
  const TvFunctionRow *rows = tv_call_tree_get_functions (tree, &n_rows);

  return row_list_new (tree, rows, NULL, n_rows, NULL, tv_call_tree_get_n_samples (tree));
}

/* ROWS (taken) of TREE; SPECIAL names the row of TV_NODE_NONE. */
GListModel *
tv_function_rows_new_take (TvCallTree    *tree,
                           TvFunctionRow *rows,
                           guint          n_rows,
                           const char    *special)
{
  return row_list_new (tree, NULL, rows, n_rows, special, tv_call_tree_get_n_samples (tree));
}

/* The same, with shares of BASE samples. */
GListModel *
tv_function_rows_new_take_with_base (TvCallTree    *tree,
                                     TvFunctionRow *rows,
                                     guint          n_rows,
                                     const char    *special,
                                     guint64        base)
{
  return row_list_new (tree, NULL, rows, n_rows, special, base);
}

static void
free_thread (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  g_object_unref (task_data);
}

/* Drops OBJECT (taken) on a worker: a list of a hundred thousand rows takes
 * long enough to free to be felt on the main thread.  Its items are
 * GObjects of our own whose last references may go anywhere. */
void
tv_function_table_free_in_thread (gpointer object)
{
  g_autoptr(GTask) task = g_task_new (NULL, NULL, NULL, NULL);

  g_task_set_task_data (task, object, NULL);
  g_task_run_in_thread (task, free_thread);
}

/* ------------------------------------------------------------------------ */
/* TvRowFilter: the search                                                   */
/* ------------------------------------------------------------------------ */

struct _TvRowFilter
{
  GtkFilter  parent_instance;

  char      *needle;      /* ASCII-lowercased; NULL matches everything */
};

G_DEFINE_FINAL_TYPE (TvRowFilter, tv_row_filter, GTK_TYPE_FILTER)


static gboolean
tv_row_filter_match (GtkFilter *filter,
                     gpointer   object)
{
  TvRowFilter *self = TV_ROW_FILTER (filter);
  TvFunctionItem *item = object;

  if (self->needle == NULL)
    return TRUE;
  return tv_text_contains_ascii_nocase (item->name, self->needle)
         || tv_text_contains_ascii_nocase (item->file, self->needle);
}

static GtkFilterMatch
tv_row_filter_get_strictness (GtkFilter *filter)
{
  return TV_ROW_FILTER (filter)->needle == NULL ? GTK_FILTER_MATCH_ALL : GTK_FILTER_MATCH_SOME;
}

static void
tv_row_filter_finalize (GObject *object)
{
  g_clear_pointer (&TV_ROW_FILTER (object)->needle, g_free);

  G_OBJECT_CLASS (tv_row_filter_parent_class)->finalize (object);
}

static void
tv_row_filter_class_init (TvRowFilterClass *klass)
{
  GtkFilterClass *filter_class = GTK_FILTER_CLASS (klass);

  G_OBJECT_CLASS (klass)->finalize = tv_row_filter_finalize;
  filter_class->match = tv_row_filter_match;
  filter_class->get_strictness = tv_row_filter_get_strictness;
}

static void
tv_row_filter_init (TvRowFilter *self)
{
}

/* Sets the search; tells the filter models how the result relates to the
 * last one, so that a longer search only looks at the rows still shown. */
void
tv_row_filter_set_text (TvRowFilter *self,
                        const char  *text)
{
  g_autofree char *needle = text[0] != '\0' ? g_ascii_strdown (text, -1) : NULL;
  GtkFilterChange change;

  if (g_strcmp0 (needle, self->needle) == 0)
    return;
  if (self->needle == NULL)
    change = GTK_FILTER_CHANGE_MORE_STRICT;
  else if (needle == NULL || strstr (self->needle, needle) != NULL)
    change = GTK_FILTER_CHANGE_LESS_STRICT;
  else if (strstr (needle, self->needle) != NULL)
    change = GTK_FILTER_CHANGE_MORE_STRICT;
  else
    change = GTK_FILTER_CHANGE_DIFFERENT;
  g_free (self->needle);
  self->needle = g_steal_pointer (&needle);
  gtk_filter_changed (GTK_FILTER (self), change);
}
