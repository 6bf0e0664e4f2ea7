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

/* What a failed load means to the user, whatever domain its error is in:
 * what the error page says first, before the library's precise message. */
typedef enum
{
  TV_LOAD_FAILURE_DAMAGED,        /* breaks the format somewhere */
  TV_LOAD_FAILURE_NOT_PROFILE,    /* not a Tachyon profile at all */
  TV_LOAD_FAILURE_CUT_SHORT,      /* ends early: perhaps still written */
  TV_LOAD_FAILURE_CHANGED,        /* changed while it was read */
  TV_LOAD_FAILURE_NOT_REGULAR,    /* a folder, a FIFO, a device */
  TV_LOAD_FAILURE_NOT_FOUND,
  TV_LOAD_FAILURE_PERMISSION,
  TV_LOAD_FAILURE_NEWER_VERSION,  /* a format version after ours */
  TV_LOAD_FAILURE_UNSUPPORTED,    /* valid-looking, but not readable here */
  TV_LOAD_FAILURE_NO_MEMORY,
  TV_LOAD_FAILURE_READ,           /* any other failure to read */
} TvLoadFailure;

GQuark tv_tach_error_quark     (void);
TvLoadFailure tv_load_failure_from_error (const GError *error);
/* One plain, translated sentence for FAILURE. */
const char   *tv_load_failure_describe   (TvLoadFailure  failure);

/* For the layers that call the format library (the model, src/export/ and
 * src/cli/), declared where tachyon-format.h is included first: no layer
 * above the model sees the format library's types. */
#ifdef TACH_API
void   tv_tach_error_propagate (GError          **error,
                                TachStatus        status,
                                const TachError  *tach_error);
#endif

G_END_DECLS
