/* tv-json.h: the small pieces of JSON output the command line needs
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/* Longest text tv_json_format_double() can produce, with its NUL. */
#define TV_JSON_DOUBLE_BUF_SIZE 32

void   tv_json_format_double (char        *buf,
                              gsize        buf_len,
                              double       value);
void   tv_json_append_double (GString     *out,
                              double       value);
void   tv_json_append_string (GString     *out,
                              const char  *str,
                              gssize       len);

/* A document built with json-glib (JsonBuilder), written by its
 * JsonGenerator, then made safe by tv_json_make_safe(). */
void   tv_json_builder_add_string (JsonBuilder *builder,
                                   const char  *str);
void   tv_json_builder_add_double (JsonBuilder *builder,
                                   double       value);
char  *tv_json_generate           (JsonNode    *root,
                                   gboolean     pretty);
char  *tv_json_make_safe          (const char  *json,
                                   gsize        len);

G_END_DECLS
