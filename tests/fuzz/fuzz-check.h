/* fuzz-check.h: what the fuzz targets share to check a promise
 *
 * CHECK (cond) and CHECK_ERR (cond, err) call the target's own fuzz_fail
 * (), which reports where and what broke and aborts: libFuzzer and the
 * standalone driver (fuzz-driver.c) report the abort as a crash.  A header
 * alone, so that run-fuzzer.sh builds the targets as they are.
 */
#pragma once

#include <stdio.h>
#include <string.h>

#include "tachyon-format.h"

int LLVMFuzzerTestOneInput (const uint8_t *data,
                            size_t         size);

#define CHECK(cond)                                              \
  do                                                             \
    {                                                            \
      if (!(cond))                                               \
        fuzz_fail (__FILE__, __LINE__, #cond, NULL);             \
    }                                                            \
  while (0)

/* Like CHECK, with the error message of the library in the report. */
#define CHECK_ERR(cond, err)                                     \
  do                                                             \
    {                                                            \
      if (!(cond))                                               \
        fuzz_fail (__FILE__, __LINE__, #cond, (err));            \
    }                                                            \
  while (0)

/* Defined by each target: reports EXPR broken at FILE:LINE, with ERROR
 * when it is not NULL (fuzz_print_error ()), and aborts. */
static void fuzz_fail (const char      *file,
                       int              line,
                       const char      *expr,
                       const TachError *error) __attribute__ ((noreturn));

/* Prints ERROR, after LABEL, when it holds a message. */
static inline void
fuzz_print_error (const char      *label,
                  const TachError *error)
{
  if (error != NULL && memchr (error->message, '\0', sizeof error->message) != NULL)
    fprintf (stderr, "  %s: status %d, phase %d, offset %llu%s: %s\n",
             label, (int) error->status, (int) error->phase,
             (unsigned long long) error->offset,
             error->in_decompressed ? " (decompressed)" : "",
             error->message);
}

/* For C, the first byte of a UTF-8 sequence (C >= 0x80): how many
 * continuation bytes follow it, 0 when C cannot start one, and in *LO and
 * *HI the range of the first of them (Unicode's table 3-7: no overlong
 * form, no surrogate, nothing past U+10FFFF). */
static inline size_t
fuzz_utf8_lead (unsigned char  c,
                unsigned char *lo,
                unsigned char *hi)
{
  *lo = 0x80;
  *hi = 0xbf;
  if (c >= 0xc2 && c <= 0xdf)
    return 1;
  if (c >= 0xe0 && c <= 0xef)
    {
      if (c == 0xe0)
        *lo = 0xa0;
      else if (c == 0xed)
        *hi = 0x9f;
      return 2;
    }
  if (c >= 0xf0 && c <= 0xf4)
    {
      if (c == 0xf0)
        *lo = 0x90;
      else if (c == 0xf4)
        *hi = 0x8f;
      return 3;
    }
  return 0;
}
