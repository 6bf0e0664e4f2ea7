/* tv-text.h: names from a profile shown as text, never obeyed
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Function and file names come from untrusted profiles.  Wherever the
 * application shows one (the flame graph's labels on screen and in PNG,
 * SVG and PDF, the images' captions and titles, the tables' cells, the
 * tooltips), it goes through this one rule, the HTML page's visible():
 *
 *  - C0 controls (U+0000 to U+001F) and DEL become their Control
 *    Pictures (U+2400 to U+241F, U+2421), so a tab or a newline is seen
 *    and breaks no line;
 *  - C1 controls (U+0080 to U+009F), which have no pictures, the
 *    bidirectional controls (U+061C, U+200E, U+200F, U+202A to U+202E,
 *    U+2066 to U+2069) and the line and paragraph separators (U+2028,
 *    U+2029) become "[U+XXXX]" (hexadecimal, upper case, no leading
 *    zeros), so they turn no text around and break no line;
 *  - a byte that starts no UTF-8 character, and the noncharacters U+FFFE
 *    and U+FFFF (which XML does not allow), become U+FFFD;
 *  - everything else is kept as it is.
 *
 * The result is always valid UTF-8.
 *
 * A name is also cut for display: one of more than TV_TEXT_SHOWN_CHARS
 * characters keeps its first and its last TV_TEXT_SHOWN_CHARS / 2, with
 * "…" between them, so that a crafted 100 KB name neither takes a
 * window's width nor hangs the layout of a label; the start and the end
 * together tell most names apart ("pkg.mod.Class…Class.method").  The
 * page's shown() cuts the same way.  What copies a name copies it whole.
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* How many characters of a name are shown. */
#define TV_TEXT_SHOWN_CHARS 200

/* Appends TEXT (LEN bytes, or up to its nul when LEN is -1) to OUT as
 * above.  A TEXT of more than MAX_CHARS characters (0: no limit; an
 * invalid byte counts as one) keeps its first MAX_CHARS - MAX_CHARS / 2
 * and its last MAX_CHARS / 2 characters, with "…" between them. */
void  tv_text_append_visible (GString    *out,
                              const char *text,
                              gssize      len,
                              guint       max_chars);
/* The same, nul-terminated, as a new string. */
char *tv_text_dup_visible    (const char *text,
                              guint       max_chars);
/* A name as it is shown: visible, cut to TV_TEXT_SHOWN_CHARS. */
void  tv_text_append_shown   (GString    *out,
                              const char *text,
                              gssize      len);
char *tv_text_dup_shown      (const char *text);
/* FILE's name as the window shows it: its base name in UTF-8 ("run.bin"),
 * or its URI when it has none, shown as a name is. */
char *tv_text_dup_file_name  (GFile      *file);
/* A file's path as it is shown (the bytes of a path in UTF-8, then shown
 * as a name is). */
char *tv_text_dup_path       (const char *path);
/* A regular expression (for g_regex_new()) that matches NAME whole,
 * written in visible characters (a control as "\x{A}"); for a name longer
 * than TV_TEXT_SHOWN_CHARS, its start and its end as they are shown, with
 * anything between them, so that a search entry can hold it and show it. */
char *tv_text_dup_name_regex (const char *name);
/* MESSAGE (such as GIO's, which quote the paths they concern) made
 * visible, with the path PATH (may be NULL) in it shown as a name is. */
char *tv_text_dup_message    (const char *message,
                              const char *path);
/* Whether HAYSTACK contains NEEDLE (in lower case), its ASCII letters in
 * any case: the tables' searches.  Names are short, so the simple search
 * is the fast one. */
gboolean tv_text_contains_ascii_nocase (const char *haystack,
                                        const char *needle);

G_END_DECLS
