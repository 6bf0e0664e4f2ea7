/* tv-export-html-private.h: what the HTML page's files share
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * tv-export-html.c makes the page's JSON (tv-export-html-diff.c that of a
 * differential page), tv-export-html-tree.c encodes
 * its call tree (the nodes, each thread's and each state's samples, the
 * remainder boxes of a big tree), tv-export-html-page.c holds the page's
 * words and puts the JSON into the template.
 */
#pragma once

#include <math.h>

#include <gio/gio.h>

#include "tachyon-format.h"
#include "tv-call-tree.h"
#include "tv-diff.h"
#include "tv-export.h"
#include "tv-json.h"

G_BEGIN_DECLS

#define UNMAPPED        G_MAXUINT32

/* A page of a tree of more than TV_EXPORT_HTML_LOSSLESS_NODES nodes (call
 * paths, see tv_call_tree_get_remainder_paths()) draws the children of
 * fewer than 1 / TV_EXPORT_HTML_SHARE_DIVISOR of the samples as remainder
 * boxes (0.005 %), which the model never makes; a smaller tree is
 * whole. */
#define TV_EXPORT_HTML_LOSSLESS_NODES  250000
#define TV_EXPORT_HTML_SHARE_DIVISOR   20000

/* One profile's frames and strings as the page numbers them. */
typedef struct
{
  TvProfileData        *data;
  TachReader           *reader;
  TvMergeKey            merge;
  guint32              *frame_ids;       /* merge key -> export frame */
  guint32              *string_ids;      /* string index -> export string */
} Side;

/* An export frame or string: which side's key or string index. */
typedef struct
{
  guint32 side;
  guint32 index;
} Ref;

typedef struct
{
  TvProfileData        *data;            /* NEW's, in a differential page */
  TachReader           *reader;
  /* What the page shows (for a differential page, what both sides were
   * filtered by, or NULL). */
  TvViewState          *state;
  TvDiff               *diff;            /* NULL but in a differential page */
  TvQuery               query;
  TvCallTree           *tree;            /* every selected sample */
  guint32               n_nodes;
  guint32              *order;           /* export id -> node, parents first */
  guint32              *export_ids;      /* node -> export id */
  Side                  sides[2];        /* NEW (or the only one), BASE */
  GArray               *frames;          /* Ref, by export frame */
  GArray               *strings;         /* Ref, by export string */
  GArray               *zoom_path;       /* merge keys from the root, or NULL */
  /* The page's nodes: the tree's, and for each node the tree left
   * children out of (those below min_total samples), one remainder box.
   * n_ids export ids: order[id] is the tree node, or for a box its
   * parent; remainder[id] is TRUE for a box.  export_ids[node] is the
   * node's id, box_ids[node] its box's (0 for none). */
  guint64               min_total;       /* 0: every node */
  guint32               n_ids;
  guint8               *remainder;
  guint32              *box_ids;
  guint64               aggregated_nodes;
  guint64               aggregated_samples;
  /* A differential page's: cancels it, and hears how far it is
   * (tv-progress.h). */
  GCancellable         *cancellable;
} Exporter;

/* ------------------------------------------------------------------------ */
/* JSON                                                                      */
/* ------------------------------------------------------------------------ */

static inline void
json_key (GString    *out,
          const char *key)
{
  tv_json_append_string (out, key, -1);
  g_string_append_c (out, ':');
}

static inline void
json_u64 (GString    *out,
          const char *key,
          guint64     value)
{
  json_key (out, key);
  g_string_append_printf (out, "%" G_GUINT64_FORMAT ",", value);
}

static inline void
json_string (GString    *out,
             const char *key,
             const char *value)
{
  json_key (out, key);
  if (value != NULL)
    tv_json_append_string (out, value, -1);
  else
    g_string_append (out, "null");
  g_string_append_c (out, ',');
}

static inline void
json_double_or_null (GString  *out,
                     gboolean  present,
                     double    value)
{
  if (present && isfinite (value))
    tv_json_append_double (out, value);
  else
    g_string_append (out, "null");
  g_string_append_c (out, ',');
}

static inline void
json_optional_double (GString    *out,
                      const char *key,
                      gboolean    present,
                      double      value)
{
  json_key (out, key);
  json_double_or_null (out, present, value);
}

/* Ends an object or array whose last member left a comma behind. */
static inline void
json_close (GString *out,
            char     bracket)
{
  if (out->len > 0 && out->str[out->len - 1] == ',')
    out->str[out->len - 1] = bracket;
  else
    g_string_append_c (out, bracket);
}

static inline void
json_int (GString *out,
          gint32   value)
{
  g_string_append_printf (out, "%d,", value);
}

/* tv-export-html.c */
guint32   tv_export_html_map_key    (Exporter      *self,
                                     guint32        side,
                                     guint32        key);
guint32   tv_export_html_map_string (Exporter      *self,
                                     guint32        side,
                                     guint32        index);
void      tv_export_html_append_preamble (GString       *out,
                                          TvProfileData *data,
                                          const char    *source_name);
void      tv_export_html_append_profile_facts (TvProfileData *data,
                                               GString       *out,
                                               const char    *source_name);
void      tv_export_html_append_filter  (Exporter      *self,
                                         GString       *out);
void      tv_export_html_append_view    (Exporter      *self,
                                         GString       *out,
                                         gboolean       inverted,
                                         const char    *search);
void      tv_export_html_append_strings (Exporter      *self,
                                         GString       *out);
void      tv_export_html_append_frames  (Exporter      *self,
                                         GString       *out);
void      tv_export_html_append_sources (Exporter      *self,
                                         GString       *out);

/* tv-export-html-diff.c */
GString  *tv_export_html_build_diff_json (Exporter   *self,
                                          const char *base_name,
                                          const char *new_name,
                                          const char *search);

/* tv-export-html-tree.c */
void      tv_export_html_number_nodes (Exporter      *self);
void      tv_export_html_append_nodes (Exporter      *self,
                                       GString       *out);
gboolean  tv_export_html_append_threads (Exporter      *self,
                                         GString       *out,
                                         GCancellable  *cancellable,
                                         GError       **error);
gboolean  tv_export_html_append_states (Exporter      *self,
                                        GString       *out,
                                        GCancellable  *cancellable,
                                        GError       **error);
void      tv_export_html_append_aggregated (Exporter *self,
                                            GString  *out);
void      tv_export_html_append_thread_list (TvProfileData *data,
                                             GString       *out);

/* tv-export-html-page.c */
void      tv_export_html_append_ui      (GString       *out);
void      tv_export_html_append_palette (GString       *out);
GBytes   *tv_export_html_fill_template  (const GString *json);

G_END_DECLS
