/* model-fixture.c: what every model test needs, once
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "model-fixture.h"

#include <stdlib.h>
#include <string.h>

#include <glib/gstdio.h>

guint32
fixture_seed (void)
{
  const char *env = g_getenv ("TACH_SEED");
  guint32 seed = env != NULL ? (guint32) strtoul (env, NULL, 0) : g_random_int ();

  g_test_message ("TACH_SEED=%" G_GUINT32_FORMAT, seed);
  return seed;
}

char *
fixture_data_path (const char *subdir,
                   const char *name)
{
  return g_build_filename (g_getenv ("TACH_TEST_DATA"), subdir, name, NULL);
}

TvProfileData *
fixture_load (const char *path)
{
  g_autoptr(GError) error = NULL;
  TachReader *reader = NULL;
  TachError tach_error;
  TvProfileData *data;

  if (tach_reader_open_path (path, &reader, &tach_error) != TACH_OK)
    g_error ("%s: %s", path, tach_error.message);
  data = tv_profile_data_load (reader, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (data);
  return data;
}

TvProfileData *
fixture_load_corpus (const char *name)
{
  g_autofree char *path = fixture_data_path ("valid", name);

  return fixture_load (path);
}

static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return strcmp (*(char * const *) a, *(char * const *) b);
}

GPtrArray *
fixture_list_corpus (void)
{
  g_autofree char *valid = fixture_data_path ("valid", NULL);
  g_autoptr(GDir) dir = g_dir_open (valid, 0, NULL);
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  g_assert_nonnull (dir);
  /* The reader refuses compression type 7, which CPython reads. */
  while ((name = g_dir_read_name (dir)) != NULL)
    if (g_str_has_suffix (name, ".tach") && strcmp (name, "compression_type_7.tach") != 0)
      g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_sort (names, compare_names);
  g_assert_cmpuint (names->len, >, 0);
  return names;
}

void
fixture_add_corpus_tests (GPtrArray     *names,
                          const char    *prefix,
                          GTestDataFunc  test)
{
  for (guint i = 0; i < names->len; i++)
    {
      g_autofree char *path = g_strdup_printf ("%s/%s", prefix,
                                               (char *) g_ptr_array_index (names, i));

      g_test_add_data_func (path, g_ptr_array_index (names, i), test);
    }
}

static gboolean
set_flag (gpointer user_data)
{
  *(gboolean *) user_data = TRUE;
  return G_SOURCE_REMOVE;
}

void
fixture_run_until (const gboolean *done,
                   guint           seconds)
{
  gboolean timed_out = FALSE;
  guint id = g_timeout_add_seconds (seconds, set_flag, &timed_out);

  while (!*done && !timed_out)
    g_main_context_iteration (NULL, TRUE);
  g_assert_false (timed_out);
  g_source_remove (id);
}

void
fixture_remove_file (char *path)
{
  g_remove (path);
  g_free (path);
}

void
fixture_add_numbered_tests (const char    *prefix,
                            guint          n,
                            GTestDataFunc  test)
{
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *path = g_strdup_printf ("%s/%03u", prefix, i);

      g_test_add_data_func (path, GUINT_TO_POINTER (i), test);
    }
}

TvCallTree *
fixture_tree (TvProfileData *data,
              TvMergeKey     merge,
              gboolean       inverted,
              gboolean       count_states)
{
  TvQuery query;
  TvCallTree *tree;

  tv_query_init (&query, merge);
  query.inverted = inverted;
  query.count_states = count_states;
  tree = tv_call_tree_new (data, &query, NULL);
  g_assert_nonnull (tree);
  return tree;
}

/* Node by node, with children, remainders, thread and state counts, and
 * the same function table. */
void
fixture_assert_same_trees (TvCallTree *a,
                           TvCallTree *b)
{
  guint32 n_nodes = tv_call_tree_get_n_nodes (a);
  guint na, nb;
  const TvFunctionRow *ra, *rb;

  g_assert_cmpuint (n_nodes, ==, tv_call_tree_get_n_nodes (b));
  g_assert_cmpuint (tv_call_tree_get_n_samples (a), ==, tv_call_tree_get_n_samples (b));
  g_assert_cmpint (tv_call_tree_get_inverted (a), ==, tv_call_tree_get_inverted (b));
  g_assert_cmpint (tv_call_tree_get_merge (a), ==, tv_call_tree_get_merge (b));
  g_assert_cmpint (tv_call_tree_has_status_counts (a), ==, tv_call_tree_has_status_counts (b));
  for (guint32 n = 0; n < n_nodes; n++)
    {
      const guint32 *ca = tv_call_tree_get_children (a, n, &na);
      const guint32 *cb = tv_call_tree_get_children (b, n, &nb);

      g_assert_cmpuint (tv_call_tree_get_parent (a, n), ==, tv_call_tree_get_parent (b, n));
      g_assert_cmpuint (tv_call_tree_get_key (a, n), ==, tv_call_tree_get_key (b, n));
      g_assert_cmpuint (tv_call_tree_get_self (a, n), ==, tv_call_tree_get_self (b, n));
      g_assert_cmpuint (tv_call_tree_get_total (a, n), ==, tv_call_tree_get_total (b, n));
      g_assert_cmpuint (tv_call_tree_get_remainder (a, n), ==,
                        tv_call_tree_get_remainder (b, n));
      g_assert_cmpuint (tv_call_tree_get_remainder_children (a, n), ==,
                        tv_call_tree_get_remainder_children (b, n));
      g_assert_cmpuint (tv_call_tree_get_cut_below (a, n), ==, tv_call_tree_get_cut_below (b, n));
      g_assert_cmpuint (tv_call_tree_get_n_threads_of (a, n), ==,
                        tv_call_tree_get_n_threads_of (b, n));
      if (tv_call_tree_has_status_counts (a))
        g_assert_cmpmem (tv_call_tree_get_status_counts (a, n),
                         TV_N_STATUS_COUNTS * sizeof (guint64),
                         tv_call_tree_get_status_counts (b, n),
                         TV_N_STATUS_COUNTS * sizeof (guint64));
      g_assert_cmpmem (ca, na * sizeof (guint32), cb, nb * sizeof (guint32));
    }
  ra = tv_call_tree_get_functions (a, &na);
  rb = tv_call_tree_get_functions (b, &nb);
  g_assert_cmpuint (na, ==, nb);
  for (guint i = 0; i < na; i++)
    {
      g_assert_cmpuint (ra[i].function, ==, rb[i].function);
      g_assert_cmpuint (ra[i].self, ==, rb[i].self);
      g_assert_cmpuint (ra[i].total, ==, rb[i].total);
    }
}
