/* tv-tach-error.c: errors of the format library as GError
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tachyon-format.h"
#include "tv-tach-error.h"

#include <string.h>

#include <glib/gi18n.h>

G_DEFINE_QUARK (tv-tach-error-quark, tv_tach_error)

/* Turns a failed STATUS of the format library into a GError whose message
 * is the library's own, which names the field and the offset that were
 * wrong. */
void
tv_tach_error_propagate (GError          **error,
                         TachStatus        status,
                         const TachError  *tach_error)
{
  TvTachError code;
  gsize message_len = 0;

  g_return_if_fail (status != TACH_OK);

  switch (status)
    {
    case TACH_ERROR_IO:
      code = TV_TACH_ERROR_IO;
      break;
    case TACH_ERROR_UNSUPPORTED:
      code = TV_TACH_ERROR_UNSUPPORTED;
      break;
    case TACH_ERROR_NO_MEMORY:
      code = TV_TACH_ERROR_NO_MEMORY;
      break;
    case TACH_ERROR_ARGUMENT:
      code = TV_TACH_ERROR_ARGUMENT;
      break;
    case TACH_ERROR_CHANGED:
      code = TV_TACH_ERROR_CHANGED;
      break;
    case TACH_ERROR_INVALID:
    case TACH_OK:
    default:
      code = TV_TACH_ERROR_INVALID;
      break;
    }

  /* The library always terminates the message; strnlen() only guards
   * against a TachError that was never filled in. */
  if (tach_error != NULL)
    message_len = strnlen (tach_error->message, sizeof tach_error->message);

  if (message_len == 0)
    g_set_error_literal (error, TV_TACH_ERROR, code, _("Unknown error"));
  else
    g_set_error (error, TV_TACH_ERROR, code, "%.*s",
                 (int) message_len, tach_error->message);
}
