/* tv-tach-error.h: errors of the format library as GError
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define TV_TACH_ERROR (tv_tach_error_quark ())

/* One code per TachStatus that is an error. */
typedef enum
{
  TV_TACH_ERROR_IO,
  TV_TACH_ERROR_INVALID,
  TV_TACH_ERROR_UNSUPPORTED,
  TV_TACH_ERROR_NO_MEMORY,
  TV_TACH_ERROR_ARGUMENT,
  TV_TACH_ERROR_CHANGED,     /* the file changed while it was read */
} TvTachError;

GQuark tv_tach_error_quark     (void);

/* For the layers that call the format library (the model, src/export/ and
 * src/cli/), declared where tachyon-format.h is included first: no layer
 * above the model sees the format library's types. */
#ifdef TACH_API
void   tv_tach_error_propagate (GError          **error,
                                TachStatus        status,
                                const TachError  *tach_error);
#endif

G_END_DECLS
