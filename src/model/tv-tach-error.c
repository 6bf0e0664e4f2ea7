/* tv-tach-error.c: errors of the format library as GError
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tachyon-format.h"
#include "tv-tach-error.h"

#include <string.h>

#include <gio/gio.h>
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

/* The library's messages start with CPython's wording, which is fixed
 * English (never translated): what a file that ends early gives. */
static const char * const cut_short_messages[] = {
  "File too small for header",
  "Incomplete zstd frame",
  "Truncated sample data",
  "Unexpected end of",
};

TvLoadFailure
tv_load_failure_from_error (const GError *error)
{
  g_return_val_if_fail (error != NULL, TV_LOAD_FAILURE_READ);

  if (error->domain == G_IO_ERROR)
    {
      switch (error->code)
        {
        case G_IO_ERROR_NOT_FOUND:
          return TV_LOAD_FAILURE_NOT_FOUND;
        case G_IO_ERROR_PERMISSION_DENIED:
          return TV_LOAD_FAILURE_PERMISSION;
        case G_IO_ERROR_NOT_REGULAR_FILE:
        case G_IO_ERROR_IS_DIRECTORY:
          return TV_LOAD_FAILURE_NOT_REGULAR;
        default:
          return TV_LOAD_FAILURE_READ;
        }
    }
  if (error->domain != TV_TACH_ERROR)
    return TV_LOAD_FAILURE_READ;

  switch ((TvTachError) error->code)
    {
    case TV_TACH_ERROR_CHANGED:
      return TV_LOAD_FAILURE_CHANGED;
    case TV_TACH_ERROR_NO_MEMORY:
      return TV_LOAD_FAILURE_NO_MEMORY;
    case TV_TACH_ERROR_IO:
      return strstr (error->message, "not a regular file") != NULL
             ? TV_LOAD_FAILURE_NOT_REGULAR : TV_LOAD_FAILURE_READ;
    case TV_TACH_ERROR_UNSUPPORTED:
      return strstr (error->message, "but this reader supports format version") != NULL
             ? TV_LOAD_FAILURE_NEWER_VERSION : TV_LOAD_FAILURE_UNSUPPORTED;
    case TV_TACH_ERROR_INVALID:
      if (g_str_has_prefix (error->message, "Invalid magic number"))
        return TV_LOAD_FAILURE_NOT_PROFILE;
      /* An offset past the end is what a header written before the rest
       * of the file was, or a copy cut short, looks like. */
      if (strstr (error->message, "exceeds file size") != NULL)
        return TV_LOAD_FAILURE_CUT_SHORT;
      for (guint i = 0; i < G_N_ELEMENTS (cut_short_messages); i++)
        {
          if (g_str_has_prefix (error->message, cut_short_messages[i]))
            return TV_LOAD_FAILURE_CUT_SHORT;
        }
      return TV_LOAD_FAILURE_DAMAGED;
    case TV_TACH_ERROR_ARGUMENT:
    default:
      return TV_LOAD_FAILURE_READ;
    }
}

const char *
tv_load_failure_describe (TvLoadFailure failure)
{
  switch (failure)
    {
    case TV_LOAD_FAILURE_NOT_PROFILE:
      return _("This file is not a Tachyon profile.");
    case TV_LOAD_FAILURE_CUT_SHORT:
      return _("The profile is cut short: it may still be being written.");
    case TV_LOAD_FAILURE_CHANGED:
      return _("The file changed while it was being read.");
    case TV_LOAD_FAILURE_NOT_REGULAR:
      return _("This is not a regular file.");
    case TV_LOAD_FAILURE_NOT_FOUND:
      return _("The file does not exist.");
    case TV_LOAD_FAILURE_PERMISSION:
      return _("You may not read this file.");
    case TV_LOAD_FAILURE_NEWER_VERSION:
      return _("The profile uses a newer format version than this viewer reads.");
    case TV_LOAD_FAILURE_UNSUPPORTED:
      return _("The profile uses a feature this viewer cannot read.");
    case TV_LOAD_FAILURE_NO_MEMORY:
      return _("There is not enough memory to open the profile.");
    case TV_LOAD_FAILURE_READ:
      return _("The file could not be read.");
    case TV_LOAD_FAILURE_DAMAGED:
    default:
      return _("The profile is damaged: part of it does not follow the format.");
    }
}
