/* test-progress.c: TvProgress, the cancellable that hears how far work is
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Its stages nest and map reports into the right share of the whole; what
 * it says only grows, within [0, 1]; a call tree given one as its
 * cancellable reports into it, makes the same tree as without, and stops
 * with no tree when a report cancels it.
 */
#include <unistd.h>

#include <glib/gstdio.h>

#include "format-test-util.h"
#include "model-fixture.h"
#include "tv-progress.h"

typedef struct
{
  GArray   *fractions;    /* double, as reported */
  double    cancel_above; /* cancels at the first report above it */
  gboolean  bad_thread;
  GThread  *thread;       /* where the work runs */
} Record;

static void
on_report (TvProgress *progress,
           double      fraction,
           gpointer    user_data)
{
  Record *record = user_data;

  if (g_thread_self () != record->thread)
    record->bad_thread = TRUE;
  g_array_append_val (record->fractions, fraction);
  if (fraction > record->cancel_above)
    g_cancellable_cancel (G_CANCELLABLE (progress));
}

static TvProgress *
new_recorded (Record *record,
              double  cancel_above)
{
  TvProgress *progress = tv_progress_new ();

  record->fractions = g_array_new (FALSE, FALSE, sizeof (double));
  record->cancel_above = cancel_above;
  record->bad_thread = FALSE;
  record->thread = g_thread_self ();
  tv_progress_set_report_func (progress, on_report, record, NULL);
  return progress;
}

/* Every report grew, within [0, 1]. */
static void
assert_in_order (const Record *record)
{
  double last = 0.0;

  g_assert_false (record->bad_thread);
  for (guint i = 0; i < record->fractions->len; i++)
    {
      double f = g_array_index (record->fractions, double, i);

      g_assert_cmpfloat (f, >=, 0.0);
      g_assert_cmpfloat (f, <=, 1.0);
      if (i > 0)
        g_assert_cmpfloat (f, >, last);
      last = f;
    }
}

static void
test_stages (void)
{
  Record record;
  g_autoptr(TvProgress) progress = new_recorded (&record, 2.0);
  GCancellable *c = G_CANCELLABLE (progress);
  g_autoptr(GCancellable) plain = g_cancellable_new ();

  g_assert_cmpfloat (tv_progress_get_fraction (progress), ==, 0.0);
  /* [0.2, 0.6) of the whole, and within it [0.5, 1) of that. */
  tv_progress_push (c, 0.2, 0.6);
  g_assert_cmpfloat_with_epsilon (tv_progress_get_fraction (progress), 0.2, 1e-6);
  tv_progress_report (c, 0.5);
  g_assert_cmpfloat_with_epsilon (tv_progress_get_fraction (progress), 0.4, 1e-6);
  tv_progress_push (c, 0.5, 1.0);
  tv_progress_report (c, 0.5);
  g_assert_cmpfloat_with_epsilon (tv_progress_get_fraction (progress), 0.5, 1e-6);
  /* Less than before says nothing, nor does the same again. */
  tv_progress_report (c, 0.1);
  tv_progress_report (c, 0.5);
  g_assert_cmpfloat_with_epsilon (tv_progress_get_fraction (progress), 0.5, 1e-6);
  /* Out of range is clamped to the stage. */
  tv_progress_report (c, 7.0);
  g_assert_cmpfloat_with_epsilon (tv_progress_get_fraction (progress), 0.6, 1e-6);
  tv_progress_pop (c);
  tv_progress_pop (c);
  g_assert_cmpfloat_with_epsilon (tv_progress_get_fraction (progress), 0.6, 1e-6);
  /* Deeper than the stack holds: counts as its parent, and pops even. */
  for (guint i = 0; i < 12; i++)
    tv_progress_push (c, 0.0, 0.5);
  for (guint i = 0; i < 12; i++)
    tv_progress_pop (c);
  tv_progress_report (c, 1.0);
  g_assert_cmpfloat_with_epsilon (tv_progress_get_fraction (progress), 1.0, 1e-6);

  g_assert_cmpuint (record.fractions->len, ==, 5);
  g_assert_cmpfloat_with_epsilon (g_array_index (record.fractions, double, 0), 0.2, 1e-6);
  g_assert_cmpfloat_with_epsilon (g_array_index (record.fractions, double, 1), 0.4, 1e-6);
  g_assert_cmpfloat_with_epsilon (g_array_index (record.fractions, double, 2), 0.5, 1e-6);
  g_assert_cmpfloat_with_epsilon (g_array_index (record.fractions, double, 3), 0.6, 1e-6);
  g_assert_cmpfloat_with_epsilon (g_array_index (record.fractions, double, 4), 1.0, 1e-6);
  assert_in_order (&record);

  /* Any other cancellable, or none, is left alone. */
  tv_progress_push (plain, 0.0, 0.5);
  tv_progress_report (plain, 0.5);
  tv_progress_pop (plain);
  tv_progress_push (NULL, 0.0, 0.5);
  tv_progress_report (NULL, 0.5);
  tv_progress_pop (NULL);
  g_assert_false (g_cancellable_is_cancelled (plain));
  g_array_unref (record.fractions);
}

/* N_SAMPLES samples of random stacks 4 to 16 deep over 4096 functions in
 * 8 threads: nearly every sample is a new path, so the exact tree has some
 * ten nodes a sample, and a tree's steps report many times. */
static char *
write_profile (guint n_samples)
{
  TachWriterOptions options = { .sample_interval_us = 1000, .start_time_us = 1000000,
                                .mode_raw = 1 };
  char *path = g_build_filename (g_get_tmp_dir (), "tv-test-progress-XXXXXX.tach", NULL);
  int fd = g_mkstemp (path);

  g_assert_cmpint (fd, >=, 0);
  close (fd);
  format_test_write_random_stacks (path, &options, fixture_seed (), n_samples, 0, 3);
  return path;
}

typedef struct
{
  TvProfileData *data;
  TvQuery        query;
  TvProgress    *progress;
  Record        *record;
  TvCallTree    *tree;
} Build;

static gpointer
build_thread (gpointer user_data)
{
  Build *build = user_data;

  /* The reports come from this thread: said here, before the first, not
   * by the thread that started it, which may hear of it only later. */
  build->record->thread = g_thread_self ();
  build->tree = tv_call_tree_new (build->data, &build->query, G_CANCELLABLE (build->progress));
  return NULL;
}

/* A tree given a TvProgress reports into it, on the thread that builds
 * it, and is the tree made without. */
static void
test_call_tree (void)
{
  char *path = write_profile (30000);
  g_autoptr(TvProfileData) data = fixture_load (path);
  g_autoptr(TvCallTree) plain = NULL;
  gboolean inverted[] = { FALSE, TRUE };

  for (guint i = 0; i < G_N_ELEMENTS (inverted); i++)
    {
      Record record;
      Build build = { data };
      GThread *thread;

      tv_query_init (&build.query, TV_MERGE_FUNCTION);
      build.query.inverted = inverted[i];
      build.query.count_threads = TRUE;
      plain = tv_call_tree_new (data, &build.query, NULL);
      g_assert_nonnull (plain);
      g_assert_cmpuint (tv_profile_data_get_tree (data)->n_nodes, >, 0x30000);

      build.progress = new_recorded (&record, 2.0);
      build.record = &record;
      thread = g_thread_new ("build", build_thread, &build);
      g_thread_join (thread);
      g_assert_nonnull (build.tree);
      g_assert_cmpuint (tv_call_tree_get_n_nodes (build.tree), ==,
                        tv_call_tree_get_n_nodes (plain));
      g_assert_cmpuint (tv_call_tree_get_n_samples (build.tree), ==,
                        tv_call_tree_get_n_samples (plain));
      for (guint32 n = 0; n < tv_call_tree_get_n_nodes (plain); n++)
        {
          g_assert_cmpuint (tv_call_tree_get_key (build.tree, n), ==,
                            tv_call_tree_get_key (plain, n));
          g_assert_cmpuint (tv_call_tree_get_total (build.tree, n), ==,
                            tv_call_tree_get_total (plain, n));
        }
      /* Its steps' starts and, in between, how far each is. */
      g_test_message ("inverted %d: %u reports, last %.3f", inverted[i], record.fractions->len,
                      tv_progress_get_fraction (build.progress));
      g_assert_cmpuint (record.fractions->len, >=, 6);
      assert_in_order (&record);
      /* The end of the work, whichever step reported last. */
      g_assert_cmpfloat (tv_progress_get_fraction (build.progress), ==, 1.0);
      g_assert_false (g_cancellable_is_cancelled (G_CANCELLABLE (build.progress)));
      g_clear_pointer (&build.tree, tv_call_tree_unref);
      g_clear_pointer (&plain, tv_call_tree_unref);
      g_clear_object (&build.progress);
      g_array_unref (record.fractions);
    }
  fixture_remove_file (path);
}

/* A report that cancels stops the build: no tree, no report after it;
 * at its first report, or once it is some way into a step. */
static void
test_cancel_from_report (void)
{
  static const double cancel_above[] = { -1.0, 0.2, 0.75 };
  char *path = write_profile (30000);
  g_autoptr(TvProfileData) data = fixture_load (path);

  for (guint i = 0; i < G_N_ELEMENTS (cancel_above); i++)
    {
      Record record;
      g_autoptr(TvProgress) progress = new_recorded (&record, cancel_above[i]);
      TvQuery query;
      double last;

      tv_query_init (&query, TV_MERGE_FUNCTION);
      query.count_threads = TRUE;
      g_assert_null (tv_call_tree_new (data, &query, G_CANCELLABLE (progress)));
      g_assert_true (g_cancellable_is_cancelled (G_CANCELLABLE (progress)));
      g_assert_cmpuint (record.fractions->len, >=, 1);
      assert_in_order (&record);
      last = g_array_index (record.fractions, double, record.fractions->len - 1);
      g_assert_cmpfloat (last, >, cancel_above[i]);
      /* Only the last report was above it: nothing came after the cancel. */
      if (record.fractions->len > 1)
        g_assert_cmpfloat (g_array_index (record.fractions, double, record.fractions->len - 2),
                           <=, cancel_above[i]);
      g_test_message ("cancelled at %.3f after %u reports", last, record.fractions->len);
      g_array_unref (record.fractions);
    }

  /* In a stage pushed, the tree's reports are its shares. */
  {
    Record record;
    g_autoptr(TvProgress) progress = new_recorded (&record, 2.0);
    g_autoptr(TvCallTree) tree = NULL;
    TvQuery query;

    tv_query_init (&query, TV_MERGE_FUNCTION);
    tv_progress_push (G_CANCELLABLE (progress), 0.5, 0.75);
    tree = tv_call_tree_new (data, &query, G_CANCELLABLE (progress));
    tv_progress_pop (G_CANCELLABLE (progress));
    g_assert_nonnull (tree);
    g_assert_cmpfloat (g_array_index (record.fractions, double, 0), ==, 0.5);
    for (guint i = 0; i + 1 < record.fractions->len; i++)
      g_assert_cmpfloat (g_array_index (record.fractions, double, i), <=, 0.75);
    g_assert_cmpfloat_with_epsilon (tv_progress_get_fraction (progress), 0.75, 1e-6);
    assert_in_order (&record);
    g_array_unref (record.fractions);
  }

  /* Cancelled before it starts: no tree, no report. */
  {
    Record record;
    g_autoptr(TvProgress) progress = new_recorded (&record, 2.0);
    TvQuery query;

    tv_query_init (&query, TV_MERGE_FUNCTION);
    g_cancellable_cancel (G_CANCELLABLE (progress));
    g_assert_null (tv_call_tree_new (data, &query, G_CANCELLABLE (progress)));
    g_assert_cmpuint (record.fractions->len, ==, 0);
    g_array_unref (record.fractions);
  }
  fixture_remove_file (path);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_message ("seed %u", fixture_seed ());
  g_test_add_func ("/model/progress/stages", test_stages);
  g_test_add_func ("/model/progress/call-tree", test_call_tree);
  g_test_add_func ("/model/progress/cancel-from-report", test_cancel_from_report);
  return g_test_run ();
}
