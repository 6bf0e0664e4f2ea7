/* test-view-state.c: TvViewState's properties, notifications and copy
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <gio/gio.h>

#include "tv-view-state.h"

/* How often each property was notified, and "changed" emitted. */
typedef struct
{
  GHashTable *notified;   /* property name -> count */
  guint       n_changed;
} Counts;

static void
on_notify (GObject    *object,
           GParamSpec *pspec,
           Counts     *counts)
{
  const char *name = g_param_spec_get_name (pspec);
  guint n = GPOINTER_TO_UINT (g_hash_table_lookup (counts->notified, name));

  g_hash_table_insert (counts->notified, (gpointer) name, GUINT_TO_POINTER (n + 1));
}

static void
on_changed (TvViewState *state,
            Counts      *counts)
{
  counts->n_changed++;
}

static guint
n_notified (Counts     *counts,
            const char *name)
{
  return GPOINTER_TO_UINT (g_hash_table_lookup (counts->notified, name));
}

static void
reset (Counts *counts)
{
  g_hash_table_remove_all (counts->notified);
  counts->n_changed = 0;
}

static void
watch (TvViewState *state,
       Counts      *counts)
{
  counts->notified = g_hash_table_new (g_str_hash, g_str_equal);
  counts->n_changed = 0;
  g_signal_connect (state, "notify", G_CALLBACK (on_notify), counts);
  g_signal_connect (state, "changed", G_CALLBACK (on_changed), counts);
}

/* The enums' types are registered, with the command line's words as
 * their nicks. */
static void
test_enum_types (void)
{
  static const struct
  {
    GType       (*get_type) (void);
    const char   *nick;
    int           value;
  } nicks[] = {
    { tv_state_filter_get_type, "all", TV_STATE_FILTER_ALL },
    { tv_state_filter_get_type, "gil", TV_STATE_FILTER_GIL },
    { tv_state_filter_get_type, "cpu", TV_STATE_FILTER_CPU },
    { tv_state_filter_get_type, "gil-wait", TV_STATE_FILTER_GIL_WAIT },
    { tv_state_filter_get_type, "exception", TV_STATE_FILTER_EXCEPTION },
    { tv_merge_key_get_type, "frame", TV_MERGE_FRAME },
    { tv_merge_key_get_type, "function", TV_MERGE_FUNCTION },
    { tv_merge_key_get_type, "line", TV_MERGE_LINE },
    { tv_merge_key_get_type, "instruction", TV_MERGE_INSTRUCTION },
    { tv_flame_orientation_get_type, "flame", TV_FLAME_ORIENTATION_FLAME },
    { tv_flame_orientation_get_type, "icicle", TV_FLAME_ORIENTATION_ICICLE },
  };
  g_autoptr(GEnumClass) states = g_type_class_ref (TV_TYPE_STATE_FILTER);
  g_autoptr(GEnumClass) merges = g_type_class_ref (TV_TYPE_MERGE_KEY);

  for (gsize i = 0; i < G_N_ELEMENTS (nicks); i++)
    {
      g_autoptr(GEnumClass) klass = g_type_class_ref (nicks[i].get_type ());
      GEnumValue *value = g_enum_get_value_by_nick (klass, nicks[i].nick);

      g_assert_nonnull (value);
      g_assert_cmpint (value->value, ==, nicks[i].value);
    }
  /* The counts are not values. */
  g_assert_cmpuint (states->n_values, ==, TV_N_STATE_FILTERS);
  g_assert_cmpuint (merges->n_values, ==, TV_N_MERGE_KEYS);
}

/* g_object_set () reaches the setters; a property is notified once per
 * real change, and "changed" once per change of what a query selects. */
static void
test_properties (void)
{
  g_autoptr(TvViewState) state = tv_view_state_new ();
  Counts counts;
  TvStateFilter filter;
  TvMergeKey merge;
  TvFlameOrientation orientation;
  gboolean inverted, collapse, has_range;
  guint focus;
  guint64 start, end;
  g_autofree char *search = NULL;

  watch (state, &counts);

  g_object_set (state,
                "state-filter", TV_STATE_FILTER_GIL_WAIT,
                "merge", TV_MERGE_LINE,
                "inverted", TRUE,
                "collapse-recursion", TRUE,
                "focus-function", 7,
                NULL);
  g_assert_cmpint (tv_view_state_get_state_filter (state), ==, TV_STATE_FILTER_GIL_WAIT);
  g_assert_cmpint (tv_view_state_get_merge (state), ==, TV_MERGE_LINE);
  g_assert_true (tv_view_state_get_inverted (state));
  g_assert_true (tv_view_state_get_collapse_recursion (state));
  g_assert_cmpuint (tv_view_state_get_focus_function (state), ==, 7);
  g_assert_cmpuint (n_notified (&counts, "state-filter"), ==, 1);
  g_assert_cmpuint (n_notified (&counts, "merge"), ==, 1);
  g_assert_cmpuint (n_notified (&counts, "inverted"), ==, 1);
  g_assert_cmpuint (n_notified (&counts, "collapse-recursion"), ==, 1);
  g_assert_cmpuint (n_notified (&counts, "focus-function"), ==, 1);
  /* One g_object_set (), one change. */
  g_assert_cmpuint (counts.n_changed, ==, 1);

  /* The same values again: nothing. */
  reset (&counts);
  g_object_set (state, "state-filter", TV_STATE_FILTER_GIL_WAIT, "inverted", TRUE, NULL);
  tv_view_state_set_merge (state, TV_MERGE_LINE);
  g_assert_cmpuint (g_hash_table_size (counts.notified), ==, 0);
  g_assert_cmpuint (counts.n_changed, ==, 0);

  /* A setter notifies its property and emits "changed", once each. */
  tv_view_state_set_inverted (state, FALSE);
  g_assert_cmpuint (n_notified (&counts, "inverted"), ==, 1);
  g_assert_cmpuint (g_hash_table_size (counts.notified), ==, 1);
  g_assert_cmpuint (counts.n_changed, ==, 1);

  /* The enums by nick, as a GValue from a string would give them. */
  reset (&counts);
  {
    g_autoptr(GEnumClass) klass = g_type_class_ref (TV_TYPE_STATE_FILTER);

    g_object_set (state, "state-filter", g_enum_get_value_by_nick (klass, "cpu")->value, NULL);
  }
  g_assert_cmpint (tv_view_state_get_state_filter (state), ==, TV_STATE_FILTER_CPU);
  g_assert_cmpuint (counts.n_changed, ==, 1);

  /* Orientation and search change no query: notified, not "changed". */
  reset (&counts);
  g_object_set (state, "orientation", TV_FLAME_ORIENTATION_ICICLE, "search", "run|main", NULL);
  g_assert_cmpint (tv_view_state_get_orientation (state), ==, TV_FLAME_ORIENTATION_ICICLE);
  g_assert_cmpstr (tv_view_state_get_search (state), ==, "run|main");
  g_assert_cmpuint (n_notified (&counts, "orientation"), ==, 1);
  g_assert_cmpuint (n_notified (&counts, "search"), ==, 1);
  g_assert_cmpuint (counts.n_changed, ==, 0);
  /* An empty search is none. */
  tv_view_state_set_search (state, "");
  g_assert_null (tv_view_state_get_search (state));
  g_assert_cmpuint (n_notified (&counts, "search"), ==, 2);
  tv_view_state_set_search (state, NULL);
  g_assert_cmpuint (n_notified (&counts, "search"), ==, 2);

  /* What g_object_get () reads back. */
  tv_view_state_set_search (state, "x");
  g_object_get (state,
                "state-filter", &filter,
                "merge", &merge,
                "orientation", &orientation,
                "inverted", &inverted,
                "collapse-recursion", &collapse,
                "focus-function", &focus,
                "search", &search,
                "has-range", &has_range,
                NULL);
  g_assert_cmpint (filter, ==, TV_STATE_FILTER_CPU);
  g_assert_cmpint (merge, ==, TV_MERGE_LINE);
  g_assert_cmpint (orientation, ==, TV_FLAME_ORIENTATION_ICICLE);
  g_assert_false (inverted);
  g_assert_true (collapse);
  g_assert_cmpuint (focus, ==, 7);
  g_assert_cmpstr (search, ==, "x");
  g_assert_false (has_range);

  /* The range: both ends in one g_object_set () are one change. */
  reset (&counts);
  g_object_set (state, "range-start", (guint64) 30, "range-end", (guint64) 40, NULL);
  g_assert_true (tv_view_state_get_range (state, &start, &end));
  g_assert_cmpuint (start, ==, 30);
  g_assert_cmpuint (end, ==, 40);
  g_assert_cmpuint (n_notified (&counts, "has-range"), ==, 1);
  g_assert_cmpuint (n_notified (&counts, "range-start"), ==, 1);
  g_assert_cmpuint (n_notified (&counts, "range-end"), ==, 1);
  g_assert_cmpuint (counts.n_changed, ==, 1);
  /* An end before the start moves the start. */
  g_object_set (state, "range-end", (guint64) 20, NULL);
  g_assert_true (tv_view_state_get_range (state, &start, &end));
  g_assert_cmpuint (start, ==, 20);
  g_assert_cmpuint (end, ==, 20);
  g_assert_cmpuint (counts.n_changed, ==, 2);

  /* Ranges replace the range: one change, each property once. */
  reset (&counts);
  {
    TvTimeRange ranges[] = { { 50, 60 }, { 10, 20 }, { 15, 30 } };
    const TvTimeRange *got;
    guint n;

    tv_view_state_set_ranges (state, ranges, G_N_ELEMENTS (ranges));
    got = tv_view_state_get_ranges (state, &n);
    g_assert_cmpuint (n, ==, 2);
    g_assert_cmpuint (got[0].start, ==, 10);
    g_assert_cmpuint (got[0].end, ==, 30);
    g_assert_cmpuint (got[1].start, ==, 50);
  }
  g_assert_false (tv_view_state_get_range (state, NULL, NULL));
  g_assert_cmpuint (n_notified (&counts, "ranges"), ==, 1);
  g_assert_cmpuint (n_notified (&counts, "has-range"), ==, 1);
  g_assert_cmpuint (counts.n_changed, ==, 1);
  reset (&counts);
  tv_view_state_clear_range (state);
  g_assert_null (tv_view_state_get_ranges (state, NULL));
  g_assert_cmpuint (n_notified (&counts, "ranges"), ==, 1);
  g_assert_cmpuint (counts.n_changed, ==, 1);
  tv_view_state_clear_range (state);
  g_assert_cmpuint (counts.n_changed, ==, 1);

  /* Resetting the transforms moves three properties, one change. */
  reset (&counts);
  tv_view_state_hide_function (state, 3);
  tv_view_state_hide_function (state, 3);
  g_assert_cmpuint (n_notified (&counts, "hidden-functions"), ==, 1);
  g_assert_cmpuint (counts.n_changed, ==, 1);
  reset (&counts);
  tv_view_state_reset_transforms (state);
  g_assert_false (tv_view_state_has_transforms (state));
  g_assert_cmpuint (n_notified (&counts, "hidden-functions"), ==, 1);
  g_assert_cmpuint (n_notified (&counts, "focus-function"), ==, 1);
  g_assert_cmpuint (n_notified (&counts, "collapse-recursion"), ==, 1);
  g_assert_cmpuint (counts.n_changed, ==, 1);

  g_hash_table_unref (counts.notified);
}

/* A copy has every choice and its own arrays, and makes the same
 * query. */
static void
test_copy (void)
{
  g_autoptr(TvViewState) state = tv_view_state_new ();
  g_autoptr(TvViewState) copy = NULL;
  guint32 threads[] = { 4, 1 };
  guint32 zoom[] = { 9, 2, 5 };
  TvTimeRange ranges[] = { { 5, 10 }, { 20, 25 } };
  TvQuery a, b;
  const guint32 *keys;
  guint n;

  tv_view_state_set_threads (state, threads, G_N_ELEMENTS (threads));
  tv_view_state_set_ranges (state, ranges, G_N_ELEMENTS (ranges));
  tv_view_state_hide_function (state, 11);
  g_object_set (state, "state-filter", TV_STATE_FILTER_EXCEPTION, "merge", TV_MERGE_FRAME,
                "inverted", TRUE, "focus-function", 6, "orientation",
                TV_FLAME_ORIENTATION_ICICLE, "search", "a.c", NULL);
  tv_view_state_set_zoom_path (state, zoom, G_N_ELEMENTS (zoom));

  copy = tv_view_state_copy (state);
  /* The copy does not follow the original.  No threads is NULL: every
   * thread, to the views. */
  tv_view_state_set_threads (state, NULL, 0);
  g_assert_null (tv_view_state_get_threads (state, &n));
  g_assert_cmpuint (n, ==, 0);
  tv_view_state_set_threads (state, threads, G_N_ELEMENTS (threads));
  tv_view_state_to_query (state, &a);
  tv_view_state_to_query (copy, &b);
  g_assert_true (a.threads != b.threads);
  g_assert_cmpuint (a.n_threads, ==, 2);
  g_assert_cmpuint (b.n_threads, ==, 2);
  g_assert_cmpmem (a.threads, a.n_threads * sizeof (guint32),
                   b.threads, b.n_threads * sizeof (guint32));
  g_assert_cmpuint (b.threads[0], ==, 1);
  g_assert_cmpuint (b.n_ranges, ==, 2);
  g_assert_cmpmem (a.ranges, a.n_ranges * sizeof (TvTimeRange),
                   b.ranges, b.n_ranges * sizeof (TvTimeRange));
  g_assert_cmpuint (b.n_hidden_functions, ==, 1);
  g_assert_cmpuint (b.hidden_functions[0], ==, 11);
  g_assert_cmpuint (b.status_mask, ==, a.status_mask);
  g_assert_cmpuint (b.status_value, ==, a.status_value);
  g_assert_cmpint (b.merge, ==, TV_MERGE_FRAME);
  g_assert_true (b.inverted);
  g_assert_cmpuint (b.focus_function, ==, 6);
  g_assert_cmpint (tv_view_state_get_orientation (copy), ==, TV_FLAME_ORIENTATION_ICICLE);
  g_assert_cmpstr (tv_view_state_get_search (copy), ==, "a.c");
  keys = tv_view_state_get_zoom_path (copy, &n);
  g_assert_cmpmem (keys, n * sizeof (guint32), zoom, sizeof zoom);
}

/* Changes one choice of STATE that the query depends on. */
static void
change_choice (TvViewState *state,
               guint        which)
{
  guint32 threads[] = { 7 };
  TvTimeRange ranges[] = { { 1, 2 }, { 30, 40 } };

  switch (which)
    {
    case 0: tv_view_state_set_threads (state, threads, G_N_ELEMENTS (threads)); break;
    case 1: tv_view_state_set_state_filter (state, TV_STATE_FILTER_CPU); break;
    case 2: tv_view_state_set_ranges (state, ranges, G_N_ELEMENTS (ranges)); break;
    case 3: tv_view_state_clear_range (state); break;
    case 4: tv_view_state_set_merge (state, TV_MERGE_LINE); break;
    case 5: tv_view_state_set_inverted (state, FALSE); break;
    case 6: tv_view_state_set_collapse_recursion (state, TRUE); break;
    case 7: tv_view_state_set_focus_function (state, TV_NODE_NONE); break;
    case 8: tv_view_state_hide_function (state, 12); break;
    default: g_assert_not_reached ();
    }
}

/* What a cancelled view goes back to: every choice of the query, in one
 * "changed", and nothing else. */
static void
test_restore_query (void)
{
  g_autoptr(TvViewState) state = tv_view_state_new ();
  g_autoptr(TvViewState) saved = NULL;
  guint32 threads[] = { 4, 1 };
  guint32 zoom[] = { 3 };
  Counts counts;

  tv_view_state_set_threads (state, threads, G_N_ELEMENTS (threads));
  tv_view_state_set_range (state, 100, 200);
  tv_view_state_hide_function (state, 11);
  g_object_set (state, "state-filter", TV_STATE_FILTER_GIL, "merge", TV_MERGE_FRAME,
                "inverted", TRUE, "focus-function", 6, NULL);
  saved = tv_view_state_copy (state);
  g_assert_true (tv_view_state_same_query (state, saved));

  /* Orientation, search and zoom are not the query's. */
  g_object_set (state, "orientation", TV_FLAME_ORIENTATION_ICICLE, "search", "x", NULL);
  tv_view_state_set_zoom_path (state, zoom, G_N_ELEMENTS (zoom));
  g_assert_true (tv_view_state_same_query (state, saved));

  watch (state, &counts);
  for (guint which = 0; which < 9; which++)
    {
      guint64 start, end;

      change_choice (state, which);
      g_assert_false (tv_view_state_same_query (state, saved));
      g_assert_false (tv_view_state_same_query (saved, state));
      reset (&counts);
      tv_view_state_restore_query (state, saved);
      g_assert_cmpuint (counts.n_changed, ==, 1);
      g_assert_true (tv_view_state_same_query (state, saved));
      g_assert_true (tv_view_state_get_range (state, &start, &end));
      g_assert_cmpuint (start, ==, 100);
      g_assert_cmpuint (end, ==, 200);
      g_assert_true (tv_view_state_get_inverted (state));
      g_assert_cmpuint (tv_view_state_get_focus_function (state), ==, 6);
      /* What is not the query's stays as it was. */
      g_assert_cmpint (tv_view_state_get_orientation (state), ==, TV_FLAME_ORIENTATION_ICICLE);
      g_assert_cmpstr (tv_view_state_get_search (state), ==, "x");
    }

  /* Nothing to restore: no notification at all. */
  reset (&counts);
  tv_view_state_restore_query (state, saved);
  g_assert_cmpuint (counts.n_changed, ==, 0);
  g_assert_cmpuint (g_hash_table_size (counts.notified), ==, 0);

  /* From a state with ranges back to one without: the list goes. */
  {
    g_autoptr(TvViewState) plain = tv_view_state_new ();
    TvTimeRange ranges[] = { { 5, 10 }, { 20, 25 } };
    guint n;

    tv_view_state_set_ranges (plain, ranges, G_N_ELEMENTS (ranges));
    g_assert_false (tv_view_state_same_query (plain, saved));
    tv_view_state_restore_query (plain, saved);
    g_assert_true (tv_view_state_same_query (plain, saved));
    g_assert_null (tv_view_state_get_ranges (plain, &n));
    g_assert_cmpuint (n, ==, 0);
  }
  g_hash_table_unref (counts.notified);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/model/view-state/enum-types", test_enum_types);
  g_test_add_func ("/model/view-state/properties", test_properties);
  g_test_add_func ("/model/view-state/copy", test_copy);
  g_test_add_func ("/model/view-state/restore-query", test_restore_query);

  return g_test_run ();
}
