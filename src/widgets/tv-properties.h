/* tv-properties.h: the properties pane of one profile
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "tv-profile.h"
#include "tv-timeline.h"

G_BEGIN_DECLS

#define TV_TYPE_PROPERTIES (tv_properties_get_type ())

G_DECLARE_FINAL_TYPE (TvProperties, tv_properties, TV, PROPERTIES, AdwBin)

TvProperties *tv_properties_new               (void);
TvProfile    *tv_properties_get_profile       (TvProperties *self);
/* Shows the metadata; call once the profile has emitted "opened". */
void          tv_properties_set_profile       (TvProperties *self,
                                               TvProfile    *profile);
/* Adds the figures derived from the decoded samples; call once LOADED. */
void          tv_properties_show_data         (TvProperties *self);
/* Scrolls to the warnings and puts the focus on the first, at the next
 * frame (once a pane just shown is laid out). */
void          tv_properties_reveal_warnings   (TvProperties *self);
/* Everything the pane shows, as the "Copy as Text" button copies it. */
char         *tv_properties_dup_text          (TvProperties *self);
guint         tv_properties_get_n_thread_rows (TvProperties *self);

/* The per-thread figures of the selected time ranges (absolute
 * timestamps, sorted and disjoint: one range, or a heatmap's cells), from
 * TIMELINE; hidden without a range. */
void          tv_properties_show_range        (TvProperties      *self,
                                               TvTimeline        *timeline,
                                               const TvTimeRange *ranges,
                                               guint              n_ranges);
guint         tv_properties_get_n_range_rows  (TvProperties *self);

/* Highlights the rows of the two panes whose values differ; returns how
 * many of SELF's do. */
guint         tv_properties_mark_differences  (TvProperties *self,
                                               TvProperties *other);
/* Gives each group and each row of SELF and OTHER the height of the
 * taller of the two, so that their rows line up side by side; call once
 * both show their data. */
void          tv_properties_align_rows        (TvProperties *self,
                                               TvProperties *other);
/* Whether the pane scrolls on its own (the default) or takes its whole
 * height, for a caller that scrolls it together with another. */
void          tv_properties_set_scrolls       (TvProperties *self,
                                               gboolean      scrolls);

G_END_DECLS
