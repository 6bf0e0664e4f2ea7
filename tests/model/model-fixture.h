/* model-fixture.h: what every model test needs, once
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Loading a profile the way the viewer does, the corpus files and the
 * random seed of a run: each model test used to write these itself.
 */
#pragma once

#include <glib.h>

#include "tachyon-format.h"
#include "tv-call-tree.h"

G_BEGIN_DECLS

/* The seed of this run: $TACH_SEED when set (to replay a run), else a
 * random one; printed as the test's message either way. */
guint32        fixture_seed             (void);

/* SUBDIR/NAME in the corpus ($TACH_TEST_DATA). */
char          *fixture_data_path        (const char    *subdir,
                                         const char    *name);

/* The profile at PATH, every sample loaded; the test fails when it
 * cannot be. */
TvProfileData *fixture_load             (const char    *path);
/* The same for the valid corpus file NAME. */
TvProfileData *fixture_load_corpus      (const char    *name);

/* The valid corpus files the viewer reads (all but compression type 7,
 * which CPython reads and the format library refuses), sorted by name. */
GPtrArray     *fixture_list_corpus      (void);
/* Adds the test PREFIX/NAME for each of NAMES (from
 * fixture_list_corpus()), with the name as its data: NAMES must outlive
 * g_test_run(). */
void           fixture_add_corpus_tests (GPtrArray     *names,
                                         const char    *prefix,
                                         GTestDataFunc  test);

/* Asserts that trees A and B are the same: node by node (children,
 * counts, remainders, thread counts) and function table by row. */
void           fixture_assert_same_trees (TvCallTree   *a,
                                          TvCallTree   *b);

/* The call tree of DATA merged by MERGE, inverted when INVERTED, with
 * the states of its samples counted when COUNT_STATES. */
TvCallTree    *fixture_tree             (TvProfileData *data,
                                         TvMergeKey     merge,
                                         gboolean       inverted,
                                         gboolean       count_states);

/* Adds the tests PREFIX/000, PREFIX/001 ... up to N - 1, each with its
 * number as its data (GUINT_TO_POINTER ()). */
void           fixture_add_numbered_tests (const char    *prefix,
                                           guint          n,
                                           GTestDataFunc  test);

/* Iterates the default main context until *DONE; the test fails after
 * SECONDS. */
void           fixture_run_until        (const gboolean *done,
                                         guint           seconds);

/* Removes the file at PATH and frees PATH. */
void           fixture_remove_file      (char          *path);

G_END_DECLS
