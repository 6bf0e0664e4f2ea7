/* tach-private.h: internals shared by the reader and the decoder */
#pragma once

#include <assert.h>
#include <string.h>

#include "tachyon-format.h"

#define TACH_MAGIC             0x54414348u
#define TACH_MAGIC_SWAPPED     0x48434154u
#define TACH_FORMAT_VERSION    1u
#define TACH_RECORD_PREFIX     13u
#define TACH_MIN_FRAME_ENTRY   7u
#define TACH_STATS_TRAILER     16u
#define TACH_STATS_SIZE_V56    56u
#define TACH_STATS_SIZE_V32    32u
#define TACH_STATS_SIGNATURE   "TACHSTAT"

/* Largest encoding of a non-REPEAT record that can pass the depth checks:
 * prefix, a 10-byte delta, status, two 10-byte counts and 256 frame indices
 * of at most 10 bytes each (non-canonical varints are legal). */
#define TACH_MAX_RECORD_BYTES  (TACH_RECORD_PREFIX + 10 + 1 + 10 + 10 + 256 * 10)

static_assert (sizeof (double) == 8, "IEEE-754 doubles are required");
static_assert (TACH_HEADER_SIZE == 64, "SPEC §3: the header is 64 bytes");
static_assert (TACH_FOOTER_SIZE == 32, "SPEC §8: the footer is 32 bytes");

struct TachReader
{
  const uint8_t *data;         /* the bytes, for a reader over memory */
  size_t         size;
  bool           from_file;    /* opened from a path, not over memory */
  int            fd;           /* the file, or -1 (over memory, or let go) */
  TachFileStamp  stamp;        /* the file as it was at open */
  bool           swap;         /* file byte order differs from ours */

  /* While a file is opened: the bytes last read from it, which the
   * header, footer and tables are parsed from.  Freed once it is open. */
  uint8_t       *window;
  size_t         window_cap;
  size_t         window_len;
  uint64_t       window_base;

  uint8_t        head[TACH_HEADER_SIZE];   /* a copy of the header */

  TachHeader     header;
  TachFooter     footer;
  TachStats      stats;

  char          *strings;      /* arena: every string, NUL-terminated */
  uint64_t      *string_offsets;
  uint32_t      *string_lengths;
  uint64_t       string_table_end;

  TachFrame     *frames;
  uint8_t       *frame_ok;     /* 1 when both string indices are in range */
  uint64_t       frame_table_end;

  char         **warnings;
  size_t         n_warnings;
};

/* Fixed-width loads in the file's byte order; never cast into the file. */
static inline uint32_t
tach_load_u32 (const uint8_t *p,
               bool           swap)
{
  uint32_t v;
  memcpy (&v, p, sizeof v);
  return swap ? __builtin_bswap32 (v) : v;
}

static inline uint64_t
tach_load_u64 (const uint8_t *p,
               bool           swap)
{
  uint64_t v;
  memcpy (&v, p, sizeof v);
  return swap ? __builtin_bswap64 (v) : v;
}

/* Eight bytes as one little-endian word, whatever the host's order: byte
 * K of P is bits 8K to 8K + 7, for reading several varints at once. */
static inline uint64_t
tach_load_le64 (const uint8_t *p)
{
  uint64_t v;
  memcpy (&v, p, sizeof v);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
  v = __builtin_bswap64 (v);
#endif
  return v;
}

static inline double
tach_load_f64 (const uint8_t *p,
               bool           swap)
{
  uint64_t bits = tach_load_u64 (p, swap);
  double d;
  memcpy (&d, &bits, sizeof d);
  return d;
}

/* CPython's decode_varint_u64: at most ten bytes; a continuation bit on
 * the tenth is an error; bits past 63 are dropped.  Returns the number of
 * bytes consumed, or 0 when the varint is malformed or runs past END. */
static inline size_t
tach_read_uvarint (const uint8_t *p,
                   const uint8_t *end,
                   uint64_t      *value)
{
  uint64_t result = 0;
  unsigned shift = 0;
  const uint8_t *start = p;

  while (p < end)
    {
      uint8_t byte = *p++;
      result |= (uint64_t) (byte & 0x7f) << shift;
      if (!(byte & 0x80))
        {
          *value = result;
          return (size_t) (p - start);
        }
      shift += 7;
      if (shift >= 64)
        return 0;
    }
  return 0;
}

static inline size_t
tach_read_uvarint32 (const uint8_t *p,
                     const uint8_t *end,
                     uint32_t      *value)
{
  uint64_t v;
  size_t n;

  if (p < end && *p < 0x80)
    {
      *value = *p;
      return 1;
    }
  n = tach_read_uvarint (p, end, &v);
  if (n == 0 || v > UINT32_MAX)
    return 0;
  *value = (uint32_t) v;
  return n;
}

static inline int32_t
tach_unzigzag32 (uint32_t z)
{
  return (int32_t) ((z >> 1) ^ (0u - (z & 1u)));
}

void tach_set_error (TachError  *error,
                     TachStatus  status,
                     TachPhase   phase,
                     uint64_t    offset,
                     const char *format,
                     ...) __attribute__ ((format (printf, 5, 6)));

size_t tach_utf8_replace (const uint8_t *src,
                          size_t         len,
                          char          *dst);

/* Reads exactly LEN bytes at OFFSET of the reader's file into BUF.  A read
 * that meets the end of the file first is a change of the file
 * (TACH_ERROR_CHANGED); a failed read is TACH_ERROR_IO.  Both name
 * OFFSET. */
TachStatus tach_reader_read_at (const TachReader *reader,
                                void             *buf,
                                size_t            len,
                                uint64_t          offset,
                                TachPhase         phase,
                                TachError        *error);

/* Whether the reader's file is no longer what it was at open: another size
 * or modification time (or fstat() fails).  Always false over memory. */
bool tach_reader_file_changed (const TachReader *reader,
                               uint64_t         *size_now);

/* Sets ERROR to say that the reader's file changed while it was read,
 * which was found at OFFSET of the file. */
void tach_set_changed_error (TachError        *error,
                             const TachReader *reader,
                             TachPhase         phase,
                             uint64_t          offset);

/* The errors of open, in a function with a TachError *error in scope. */
#define INVALID(off, ...) \
  (tach_set_error (error, TACH_ERROR_INVALID, TACH_PHASE_OPEN, (off), __VA_ARGS__), TACH_ERROR_INVALID)
#define NO_MEMORY() \
  (tach_set_error (error, TACH_ERROR_NO_MEMORY, TACH_PHASE_OPEN, UINT64_MAX, "Out of memory"), \
   TACH_ERROR_NO_MEMORY)

/* Adds a warning (printf FORMAT) to the reader's list; false when out of
 * memory. */
bool tach_add_warning (TachReader *reader,
                       const char *format,
                       ...) __attribute__ ((format (printf, 2, 3)));

/* Points *OUT at the bytes [OFFSET, OFFSET + *GOT) of the file, where *GOT
 * is WANT or what is left of the file if that is less.  The bytes stay
 * valid until the next call. */
TachStatus tach_reader_bytes (TachReader     *reader,
                              uint64_t        offset,
                              size_t          want,
                              const uint8_t **out,
                              size_t         *got,
                              TachError      *error);

/* Reads and checks the header, footer, sample region, string and frame
 * tables and statistics block of an opened reader (tach-reader-tables.c). */
TachStatus tach_reader_load (TachReader *reader,
                             TachError  *error);
