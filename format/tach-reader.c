/* tach-reader.c: open a Tachyon profile and validate everything but samples
 *
 * The checks run in the order CPython's reader runs them (SPEC §9), and the
 * messages start with CPython's wording; each one then names the field and
 * its byte offset.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <zstd.h>

#include "tach-private.h"

void
tach_set_error (TachError  *error,
                TachStatus  status,
                TachPhase   phase,
                uint64_t    offset,
                const char *format,
                ...)
{
  va_list args;

  if (error == NULL)
    return;

  error->status = status;
  error->phase = phase;
  error->offset = offset;
  error->in_decompressed = false;
  va_start (args, format);
  vsnprintf (error->message, sizeof error->message, format, args);
  va_end (args);
}

static bool
add_warning (TachReader *reader,
             const char *format,
             ...) __attribute__ ((format (printf, 2, 3)));

static bool
add_warning (TachReader *reader,
             const char *format,
             ...)
{
  char buf[512];
  char **warnings;
  va_list args;

  va_start (args, format);
  vsnprintf (buf, sizeof buf, format, args);
  va_end (args);

  warnings = realloc (reader->warnings, (reader->n_warnings + 1) * sizeof *warnings);
  if (warnings == NULL)
    return false;
  reader->warnings = warnings;
  if ((warnings[reader->n_warnings] = strdup (buf)) == NULL)
    return false;
  reader->n_warnings++;
  return true;
}

#define INVALID(off, ...) \
  (tach_set_error (error, TACH_ERROR_INVALID, TACH_PHASE_OPEN, (off), __VA_ARGS__), TACH_ERROR_INVALID)
#define NO_MEMORY() \
  (tach_set_error (error, TACH_ERROR_NO_MEMORY, TACH_PHASE_OPEN, UINT64_MAX, "Out of memory"), \
   TACH_ERROR_NO_MEMORY)

/* What open reads from a file at a time: the header, the footer and the
 * tables are parsed field by field, each from memory. */
#define WINDOW_SIZE (64 * 1024)

static void
stamp_from_stat (TachFileStamp     *stamp,
                 const struct stat *st)
{
  stamp->size = (uint64_t) st->st_size;
  stamp->mtime_sec = (int64_t) st->st_mtim.tv_sec;
  stamp->mtime_nsec = (uint32_t) st->st_mtim.tv_nsec;
  stamp->device = (uint64_t) st->st_dev;
  stamp->inode = (uint64_t) st->st_ino;
}

bool
tach_reader_file_changed (const TachReader *reader,
                          uint64_t         *size_now)
{
  struct stat st;

  if (size_now != NULL)
    *size_now = reader->stamp.size;
  if (reader->fd < 0)
    return false;
  if (fstat (reader->fd, &st) != 0)
    return true;
  if (size_now != NULL)
    *size_now = (uint64_t) st.st_size;
  /* The descriptor pins the inode: only the size and the modification
   * time can say that what it reads is not what was opened. */
  return (uint64_t) st.st_size != reader->stamp.size
         || (int64_t) st.st_mtim.tv_sec != reader->stamp.mtime_sec
         || (uint32_t) st.st_mtim.tv_nsec != reader->stamp.mtime_nsec;
}

void
tach_set_changed_error (TachError        *error,
                        const TachReader *reader,
                        TachPhase         phase,
                        uint64_t          offset)
{
  uint64_t now;

  tach_reader_file_changed (reader, &now);
  if (now < reader->stamp.size)
    tach_set_error (error, TACH_ERROR_CHANGED, phase, offset,
                    "The file changed while it was being read: it was cut short to %llu "
                    "bytes from %llu (found reading at byte %llu)",
                    (unsigned long long) now, (unsigned long long) reader->stamp.size,
                    (unsigned long long) offset);
  else if (now > reader->stamp.size)
    tach_set_error (error, TACH_ERROR_CHANGED, phase, offset,
                    "The file changed while it was being read: it grew to %llu bytes "
                    "from %llu (found reading at byte %llu)",
                    (unsigned long long) now, (unsigned long long) reader->stamp.size,
                    (unsigned long long) offset);
  else
    tach_set_error (error, TACH_ERROR_CHANGED, phase, offset,
                    "The file changed while it was being read: it was written to after it "
                    "was opened (found reading at byte %llu)", (unsigned long long) offset);
}

TachStatus
tach_reader_read_at (const TachReader *reader,
                     void             *buf,
                     size_t            len,
                     uint64_t          offset,
                     TachPhase         phase,
                     TachError        *error)
{
  uint8_t *p = buf;

  while (len > 0)
    {
      ssize_t n = pread (reader->fd, p, len, (off_t) offset);

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        {
          tach_set_error (error, TACH_ERROR_IO, phase, offset,
                          "Cannot read the file at byte %llu: %s",
                          (unsigned long long) offset, strerror (errno));
          return TACH_ERROR_IO;
        }
      if (n == 0)
        {
          /* The size was known when the file was opened, and nothing is
           * read past it: the file is shorter now. */
          tach_set_changed_error (error, reader, phase, offset);
          return TACH_ERROR_CHANGED;
        }
      p += n;
      offset += (uint64_t) n;
      len -= (size_t) n;
    }
  return TACH_OK;
}

/* Points *OUT at the bytes [OFFSET, OFFSET + *GOT) of the file, where *GOT
 * is WANT or what is left of the file if that is less.  The bytes stay
 * valid until the next call. */
static TachStatus
reader_bytes (TachReader     *reader,
              uint64_t        offset,
              size_t          want,
              const uint8_t **out,
              size_t         *got,
              TachError      *error)
{
  TachStatus status;
  size_t len;

  assert (offset <= reader->size);
  *got = reader->size - offset < want ? (size_t) (reader->size - offset) : want;
  if (!reader->from_file)
    {
      *out = reader->data + offset;
      return TACH_OK;
    }
  if (offset >= reader->window_base
      && offset - reader->window_base + *got <= reader->window_len)
    {
      *out = reader->window + (offset - reader->window_base);
      return TACH_OK;
    }

  /* Read ahead: the next fields most likely follow. */
  len = *got > WINDOW_SIZE ? *got : WINDOW_SIZE;
  if (len > reader->size - offset)
    len = (size_t) (reader->size - offset);
  if (len > reader->window_cap)
    {
      uint8_t *window = realloc (reader->window, len ? len : 1);

      if (window == NULL)
        return NO_MEMORY ();
      reader->window = window;
      reader->window_cap = len;
    }
  reader->window_len = 0;
  status = tach_reader_read_at (reader, reader->window, len, offset, TACH_PHASE_OPEN, error);
  if (status != TACH_OK)
    return status;
  reader->window_base = offset;
  reader->window_len = len;
  *out = reader->window;
  return TACH_OK;
}

/* Python's UTF-8 decoder with errors="replace": every maximal invalid
 * subpart becomes one U+FFFD (Unicode §3.9, "substitution of maximal
 * subparts").  Writes to DST when it is not NULL; returns the output
 * length.  The output is at most 3 * LEN bytes. */
size_t
tach_utf8_replace (const uint8_t *src,
                   size_t         len,
                   char          *dst)
{
  size_t i = 0;
  size_t out = 0;

  while (i < len)
    {
      uint8_t c = src[i];
      size_t need;
      uint8_t lo = 0x80, hi = 0xbf;
      size_t k;

      if (c < 0x80)
        {
          if (dst)
            dst[out] = (char) c;
          out++;
          i++;
          continue;
        }

      if (c >= 0xc2 && c <= 0xdf)
        need = 1;
      else if (c >= 0xe0 && c <= 0xef)
        {
          need = 2;
          if (c == 0xe0)
            lo = 0xa0;
          else if (c == 0xed)
            hi = 0x9f;
        }
      else if (c >= 0xf0 && c <= 0xf4)
        {
          need = 3;
          if (c == 0xf0)
            lo = 0x90;
          else if (c == 0xf4)
            hi = 0x8f;
        }
      else
        need = 0;

      k = 1;
      if (need > 0)
        {
          while (k <= need && i + k < len)
            {
              uint8_t b = src[i + k];
              uint8_t l = k == 1 ? lo : 0x80;
              uint8_t h = k == 1 ? hi : 0xbf;

              if (b < l || b > h)
                break;
              k++;
            }
          if (k == need + 1)
            {
              if (dst)
                memcpy (dst + out, src + i, k);
              out += k;
              i += k;
              continue;
            }
        }

      /* Invalid lead byte, or an incomplete sequence of K bytes. */
      if (dst)
        memcpy (dst + out, "\xef\xbf\xbd", 3);
      out += 3;
      i += k;
    }

  return out;
}

static TachStatus
read_header (TachReader *reader,
             TachError  *error)
{
  const uint8_t *d = reader->head;
  const uint8_t *bytes;
  TachHeader *h = &reader->header;
  TachStatus status;
  uint32_t magic;
  size_t got;
  bool swap;

  if (reader->size < TACH_HEADER_SIZE)
    return INVALID (0, "File too small for header (the file has %zu bytes, a header needs 64)",
                    reader->size);
  if ((status = reader_bytes (reader, 0, TACH_HEADER_SIZE, &bytes, &got, error)) != TACH_OK)
    return status;
  memcpy (reader->head, bytes, TACH_HEADER_SIZE);

  memcpy (&magic, d, 4);
  if (magic == TACH_MAGIC)
    swap = false;
  else if (magic == TACH_MAGIC_SWAPPED)
    swap = true;
  else
    return INVALID (0, "Invalid magic number: 0x%08x (header field magic at byte 0; "
                    "this is not a Tachyon profile)", magic);

  reader->swap = swap;
  h->big_endian = (magic == TACH_MAGIC) == (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__);
  h->version = tach_load_u32 (d + 4, swap);
  h->python_major = d[8];
  h->python_minor = d[9];
  h->python_micro = d[10];
  h->python_reserved = d[11];

  if (h->version > TACH_FORMAT_VERSION)
    return tach_set_error (error, TACH_ERROR_UNSUPPORTED, TACH_PHASE_OPEN, 4,
                           "Binary file was created with Python %u.%u.%u (format version %u), "
                           "but this reader supports format version %u only "
                           "(header field version at byte 4)",
                           h->python_major, h->python_minor, h->python_micro,
                           h->version, TACH_FORMAT_VERSION),
           TACH_ERROR_UNSUPPORTED;
  if (h->version != TACH_FORMAT_VERSION)
    return INVALID (4, "Unsupported format version %u (this reader supports version %u) "
                    "(header field version at byte 4)", h->version, TACH_FORMAT_VERSION);

  h->start_time_us = tach_load_u64 (d + 12, swap);
  h->sample_interval_us = tach_load_u64 (d + 20, swap);
  h->sample_count = tach_load_u64 (d + 28, swap);
  h->thread_count = tach_load_u32 (d + 36, swap);
  h->string_table_offset = tach_load_u64 (d + 40, swap);
  h->frame_table_offset = tach_load_u64 (d + 48, swap);
  h->compression_type = tach_load_u32 (d + 56, swap);
  h->mode_raw = tach_load_u32 (d + 60, swap);

  /* SPEC §3.4: value + 1; a value above 5 whose low byte is 1..5 may carry
   * capture-feature bits above the mode. */
  if (h->mode_raw >= 1 && (h->mode_raw & 0xff) >= 1 && (h->mode_raw & 0xff) <= 5)
    h->mode = (TachMode) ((h->mode_raw & 0xff) - 1);
  else
    h->mode = TACH_MODE_UNKNOWN;

  return TACH_OK;
}

/* SPEC §3.2: 3.15 alphas and betas wrote version 1 with another layout.
 * Recognise them so the user is told what the file is, not that an offset
 * is out of range. */
static bool
looks_like_beta_layout (const TachReader *reader)
{
  const uint8_t *d = reader->head;
  uint64_t final_string_offset = tach_load_u64 (d + 40, reader->swap);
  uint64_t beta_string_offset = tach_load_u64 (d + 36, reader->swap);
  uint64_t beta_frame_offset = tach_load_u64 (d + 44, reader->swap);
  static const uint8_t zeros[8];

  return final_string_offset > reader->size
         && beta_string_offset >= TACH_HEADER_SIZE
         && beta_string_offset <= reader->size
         && beta_frame_offset >= beta_string_offset
         && beta_frame_offset <= reader->size
         && memcmp (d + 56, zeros, 8) == 0;
}

static TachStatus
read_footer (TachReader *reader,
             TachError  *error)
{
  const TachHeader *h = &reader->header;
  uint64_t size = reader->size;
  const uint8_t *f;
  TachStatus status;
  uint64_t max;
  size_t got;

  if ((status = reader_bytes (reader, size - TACH_FOOTER_SIZE, TACH_FOOTER_SIZE, &f, &got,
                              error)) != TACH_OK)
    return status;

  reader->footer.string_count = tach_load_u32 (f, reader->swap);
  reader->footer.frame_count = tach_load_u32 (f + 4, reader->swap);
  reader->footer.file_size = tach_load_u64 (f + 8, reader->swap);
  memcpy (reader->footer.checksum, f + 16, 16);

  if (h->string_table_offset > size)
    {
      if (looks_like_beta_layout (reader))
        return tach_set_error (error, TACH_ERROR_UNSUPPORTED, TACH_PHASE_OPEN, 28,
                               "This file was written by a CPython 3.15 pre-release; "
                               "header layout not supported (the header has the pre-rc1 layout "
                               "with a 32-bit sample count at byte 28; record it again with "
                               "CPython 3.15.0 or later)"),
               TACH_ERROR_UNSUPPORTED;
      return INVALID (40, "Invalid string table offset: %llu exceeds file size %llu "
                      "(header field string_table_offset at byte 40)",
                      (unsigned long long) h->string_table_offset, (unsigned long long) size);
    }
  if (h->frame_table_offset > size)
    return INVALID (48, "Invalid frame table offset: %llu exceeds file size %llu "
                    "(header field frame_table_offset at byte 48)",
                    (unsigned long long) h->frame_table_offset, (unsigned long long) size);
  if (h->string_table_offset < TACH_HEADER_SIZE)
    return INVALID (40, "Invalid string table offset: %llu is before data section "
                    "(header field string_table_offset at byte 40)",
                    (unsigned long long) h->string_table_offset);
  if (h->frame_table_offset < TACH_HEADER_SIZE)
    return INVALID (48, "Invalid frame table offset: %llu is before data section "
                    "(header field frame_table_offset at byte 48)",
                    (unsigned long long) h->frame_table_offset);
  if (h->string_table_offset > h->frame_table_offset)
    return INVALID (40, "Invalid table offsets: string table (%llu) is after frame table (%llu) "
                    "(header fields at bytes 40 and 48)",
                    (unsigned long long) h->string_table_offset,
                    (unsigned long long) h->frame_table_offset);

  max = size - h->string_table_offset;
  if (reader->footer.string_count > max)
    return INVALID (size - TACH_FOOTER_SIZE,
                    "Invalid string count %u exceeds maximum possible %llu "
                    "(footer field string_count at byte %llu)",
                    reader->footer.string_count, (unsigned long long) max,
                    (unsigned long long) (size - TACH_FOOTER_SIZE));
  max = (size - h->frame_table_offset) / TACH_MIN_FRAME_ENTRY;
  if (reader->footer.frame_count > max)
    return INVALID (size - TACH_FOOTER_SIZE + 4,
                    "Invalid frame count %u exceeds maximum possible %llu "
                    "(footer field frame_count at byte %llu)",
                    reader->footer.frame_count, (unsigned long long) max,
                    (unsigned long long) (size - TACH_FOOTER_SIZE + 4));

  return TACH_OK;
}

static TachStatus
read_stats (TachReader *reader,
            TachError  *error)
{
  uint64_t size = reader->size;
  uint64_t trailer, start, tail;
  uint32_t version, block_size, flags = 0, reserved = 0;
  double duration, rate, error_rate = 0.0, missed = 0.0;
  TachStats *s = &reader->stats;
  const uint8_t *t;
  TachStatus status;
  size_t got;

  memset (s, 0, sizeof *s);

  if (size < TACH_FOOTER_SIZE + TACH_STATS_TRAILER + TACH_HEADER_SIZE)
    return TACH_OK;

  /* Trailer and block lie in the largest block's bytes before the footer. */
  tail = size - TACH_FOOTER_SIZE - TACH_STATS_SIZE_V56;
  if ((status = reader_bytes (reader, tail, (size_t) (size - TACH_FOOTER_SIZE - tail), &t, &got,
                              error)) != TACH_OK)
    return status;

  trailer = size - TACH_FOOTER_SIZE - TACH_STATS_TRAILER;
  if (memcmp (t + (trailer - tail), TACH_STATS_SIGNATURE, 8) != 0)
    return TACH_OK;

  /* SPEC §15.8: the last bytes of a table can look like a trailer; no
   * block can start inside the tables. */
  if (trailer < reader->frame_table_end)
    return TACH_OK;

  version = tach_load_u32 (t + (trailer - tail + 8), reader->swap);
  block_size = tach_load_u32 (t + (trailer - tail + 12), reader->swap);
  if (version != 1)
    {
      if (!add_warning (reader, "Statistics block ignored: unknown block version %u (size %u) "
                        "at byte %llu", version, block_size,
                        (unsigned long long) (trailer + 8)))
        return NO_MEMORY ();
      return TACH_OK;
    }
  if (block_size != TACH_STATS_SIZE_V56 && block_size != TACH_STATS_SIZE_V32)
    {
      if (!add_warning (reader, "Statistics block ignored: unsupported block size %u at byte %llu",
                        block_size, (unsigned long long) (trailer + 12)))
        return NO_MEMORY ();
      return TACH_OK;
    }
  start = size - TACH_FOOTER_SIZE - block_size;
  if (size < TACH_FOOTER_SIZE + block_size
      || start < reader->header.frame_table_offset
      || start < TACH_HEADER_SIZE)
    {
      if (!add_warning (reader, "Statistics block ignored: it would overlap the frame table"))
        return NO_MEMORY ();
      return TACH_OK;
    }
  /* SPEC §15.8: the last bytes of a table can look like a trailer.  A real
   * block starts where the frame table ends, or later. */
  if (start < reader->frame_table_end)
    return TACH_OK;

  duration = tach_load_f64 (t + (start - tail), reader->swap);
  rate = tach_load_f64 (t + (start - tail + 8), reader->swap);
  if (block_size == TACH_STATS_SIZE_V56)
    {
      error_rate = tach_load_f64 (t + (start - tail + 16), reader->swap);
      missed = tach_load_f64 (t + (start - tail + 24), reader->swap);
      flags = tach_load_u32 (t + (start - tail + 32), reader->swap);
      reserved = tach_load_u32 (t + (start - tail + 36), reader->swap);
    }

  /* SPEC §7.4: the values CPython's writer refuses to store. */
  if (!isfinite (duration) || duration < 0)
    return INVALID (start, "Invalid profile stats: duration must be a finite non-negative value "
                    "(statistics field duration_sec at byte %llu)", (unsigned long long) start);
  if (!isfinite (rate) || rate < 0)
    return INVALID (start + 8, "Invalid profile stats: sample rate must be a finite non-negative "
                    "value (statistics field sample_rate at byte %llu)",
                    (unsigned long long) (start + 8));
  if ((flags & TACH_STATS_ERROR_RATE) && (!isfinite (error_rate) || error_rate < 0))
    return INVALID (start + 16, "Invalid profile stats: error rate must be a finite non-negative "
                    "value (statistics field error_rate at byte %llu)",
                    (unsigned long long) (start + 16));
  if ((flags & TACH_STATS_MISSED) && !isfinite (missed))
    return INVALID (start + 24, "Invalid profile stats: missed samples must be a finite value "
                    "(statistics field missed_samples at byte %llu)",
                    (unsigned long long) (start + 24));

  if ((flags & ~(TACH_STATS_ERROR_RATE | TACH_STATS_MISSED)) != 0
      && !add_warning (reader, "Statistics block: unknown presence flag bits 0x%x ignored "
                       "(at byte %llu)", flags & ~(TACH_STATS_ERROR_RATE | TACH_STATS_MISSED),
                       (unsigned long long) (start + 32)))
    return NO_MEMORY ();
  if (reserved != 0
      && !add_warning (reader, "Statistics block: reserved field is %u, not 0 (at byte %llu)",
                       reserved, (unsigned long long) (start + 36)))
    return NO_MEMORY ();

  s->present = true;
  s->block_size = block_size;
  s->block_offset = start;
  s->flags = flags;
  s->duration_sec = duration;
  s->sample_rate = rate;
  s->has_error_rate = (flags & TACH_STATS_ERROR_RATE) != 0;
  s->error_rate = s->has_error_rate ? error_rate : 0.0;
  s->has_missed_samples = (flags & TACH_STATS_MISSED) != 0;
  s->missed_samples = s->has_missed_samples ? missed : 0.0;
  return TACH_OK;
}

static TachStatus
check_sample_region (TachReader *reader,
                     TachError  *error)
{
  const TachHeader *h = &reader->header;

  if (h->compression_type == TACH_COMPRESSION_ZSTD)
    {
      size_t region = (size_t) (h->string_table_offset - TACH_HEADER_SIZE);
      unsigned long long content;
      const uint8_t *frame;
      TachStatus status;
      size_t got;

      /* A frame header takes at most ZSTD_FRAMEHEADERSIZE_MAX (18) bytes,
       * which zstd.h only defines for static linking. */
      if ((status = reader_bytes (reader, TACH_HEADER_SIZE, region < 18 ? region : 18, &frame,
                                  &got, error)) != TACH_OK)
        return status;
      content = ZSTD_getFrameContentSize (frame, got);
      if (content == ZSTD_CONTENTSIZE_ERROR)
        return INVALID (TACH_HEADER_SIZE, "Corrupted zstd frame header (sample region at byte 64, "
                        "%zu bytes, is not a zstd frame)", region);
    }
  else if (h->compression_type != TACH_COMPRESSION_NONE)
    {
      /* CPython reads such regions as raw records; we would rather say so
       * than misread a compression we do not know. */
      return tach_set_error (error, TACH_ERROR_UNSUPPORTED, TACH_PHASE_OPEN, 56,
                             "compression type %u is not supported "
                             "(header field compression_type at byte 56; "
                             "0 is none and 1 is zstd)", h->compression_type),
             TACH_ERROR_UNSUPPORTED;
    }
  return TACH_OK;
}

static TachStatus
read_strings (TachReader *reader,
              TachError  *error)
{
  uint32_t count = reader->footer.string_count;
  uint64_t pos = reader->header.string_table_offset;
  uint64_t out = 0;
  size_t cap = 0;
  char *arena;

  reader->string_offsets = calloc ((size_t) count + 1, sizeof *reader->string_offsets);
  reader->string_lengths = calloc ((size_t) count + 1, sizeof *reader->string_lengths);
  if (reader->string_offsets == NULL || reader->string_lengths == NULL)
    return NO_MEMORY ();

  /* One pass, which copies each string once its bounds are checked: a
   * file read twice could change in between. */
  for (uint32_t i = 0; i < count; i++)
    {
      const uint8_t *p;
      TachStatus status;
      uint32_t len;
      size_t got, n, decoded;

      if ((status = reader_bytes (reader, pos, 10, &p, &got, error)) != TACH_OK)
        return status;
      if ((n = tach_read_uvarint32 (p, p + got, &len)) == 0)
        return INVALID (pos, "Malformed varint in string table (length of string %u at byte %llu)",
                        i, (unsigned long long) pos);
      pos += n;
      if (len > reader->size - pos)
        return INVALID (pos, "String table overflow (string %u at byte %llu declares %u bytes, "
                        "past the end of the file)", i, (unsigned long long) (pos - n), len);
      if ((status = reader_bytes (reader, pos, len, &p, &got, error)) != TACH_OK)
        return status;

      /* Invalid UTF-8 is replaced as CPython's decoder does, which can
       * make a string up to three times longer. */
      decoded = tach_utf8_replace (p, len, NULL);
      if (decoded + 1 > cap - out)
        {
          size_t want = cap * 2 > out + decoded + 1 ? cap * 2 : (size_t) out + decoded + 1;

          if ((arena = realloc (reader->strings, want)) == NULL)
            return NO_MEMORY ();
          reader->strings = arena;
          cap = want;
        }
      tach_utf8_replace (p, len, reader->strings + out);
      reader->strings[out + decoded] = '\0';
      reader->string_offsets[i] = out;
      reader->string_lengths[i] = (uint32_t) (decoded > UINT32_MAX ? UINT32_MAX : decoded);
      out += decoded + 1;
      pos += len;
    }
  reader->string_table_end = pos;

  /* Give back what the doubling left over. */
  if ((arena = realloc (reader->strings, out ? out : 1)) == NULL)
    return NO_MEMORY ();
  reader->strings = arena;
  return TACH_OK;
}

static TachStatus
read_frames (TachReader *reader,
             TachError  *error)
{
  static const char *const field_names[] = {
    "filename", "funcname", "lineno", "end_lineno_delta", "column", "end_column_delta",
  };
  uint32_t count = reader->footer.frame_count;
  uint32_t n_strings = reader->footer.string_count;
  uint64_t pos = reader->header.frame_table_offset;

  reader->frames = calloc ((size_t) count + 1, sizeof *reader->frames);
  reader->frame_ok = calloc ((size_t) count + 1, 1);
  if (reader->frames == NULL || reader->frame_ok == NULL)
    return NO_MEMORY ();

  for (uint32_t i = 0; i < count; i++)
    {
      uint32_t v[6];
      TachFrame *f = &reader->frames[i];
      const uint8_t *p, *end;
      TachStatus status;
      size_t got;

      /* Six varints of at most ten bytes, and the opcode. */
      if ((status = reader_bytes (reader, pos, 61, &p, &got, error)) != TACH_OK)
        return status;
      end = p + got;
      for (unsigned k = 0; k < 6; k++)
        {
          size_t n = tach_read_uvarint32 (p, end, &v[k]);
          if (n == 0)
            return INVALID (pos, "Malformed varint in frame table (%s) (frame %u, at byte %llu)",
                            field_names[k], i, (unsigned long long) pos);
          pos += n;
          p += n;
        }
      if (pos >= reader->size)
        return INVALID (pos, "Unexpected end of frame table (opcode) (frame %u, at byte %llu)",
                        i, (unsigned long long) pos);

      f->filename = v[0];
      f->funcname = v[1];
      f->lineno = tach_unzigzag32 (v[2]);
      f->end_lineno = f->lineno == TACH_LOCATION_NONE
                      ? TACH_LOCATION_NONE
                      : (int32_t) ((uint32_t) f->lineno + (uint32_t) tach_unzigzag32 (v[3]));
      f->column = tach_unzigzag32 (v[4]);
      f->end_column = f->column == TACH_LOCATION_NONE
                      ? TACH_LOCATION_NONE
                      : (int32_t) ((uint32_t) f->column + (uint32_t) tach_unzigzag32 (v[5]));
      f->opcode = *p;
      pos++;
      reader->frame_ok[i] = f->filename < n_strings && f->funcname < n_strings;
    }
  reader->frame_table_end = pos;
  return TACH_OK;
}

/* Consistency checks CPython does not make: warnings, never errors. */
static TachStatus
check_consistency (TachReader *reader,
                   TachError  *error)
{
  const TachHeader *h = &reader->header;
  static const uint8_t zeros[16];
  uint64_t expected_end;

#define WARN(...) do { if (!add_warning (reader, __VA_ARGS__)) return NO_MEMORY (); } while (0)

  if (reader->footer.file_size != reader->size)
    WARN ("Footer file_size is %llu but the file has %llu bytes (footer field file_size at "
          "byte %llu; CPython does not check it)",
          (unsigned long long) reader->footer.file_size, (unsigned long long) reader->size,
          (unsigned long long) (reader->size - TACH_FOOTER_SIZE + 8));
  if (memcmp (reader->footer.checksum, zeros, 16) != 0)
    WARN ("Footer checksum field is not zero (reserved; at byte %llu)",
          (unsigned long long) (reader->size - TACH_FOOTER_SIZE + 16));
  if (reader->string_table_end != h->frame_table_offset)
    WARN ("String table ends at byte %llu but the frame table starts at byte %llu",
          (unsigned long long) reader->string_table_end,
          (unsigned long long) h->frame_table_offset);
  expected_end = reader->stats.present ? reader->stats.block_offset
                                       : reader->size - TACH_FOOTER_SIZE;
  if (reader->frame_table_end != expected_end)
    WARN ("Frame table ends at byte %llu, expected %llu (start of the %s)",
          (unsigned long long) reader->frame_table_end, (unsigned long long) expected_end,
          reader->stats.present ? "statistics block" : "footer");
  if (h->mode_raw > 5)
    {
      if (h->mode != TACH_MODE_UNKNOWN)
        WARN ("Header offset 60 holds 0x%x: mode %s with unknown configuration bits 0x%x",
              h->mode_raw, tach_mode_to_string (h->mode), h->mode_raw & ~0xffu);
      else
        WARN ("Header offset 60 holds 0x%x, which is not a known profiling mode (0..5); "
              "the mode is reported as unknown", h->mode_raw);
    }
  if (h->python_reserved != 0)
    WARN ("Python version reserved byte is %u, not 0 (header byte 11)", h->python_reserved);
  for (uint32_t i = 0; i < reader->footer.frame_count; i++)
    if (!reader->frame_ok[i])
      {
        WARN ("Frame %u references a string index out of range (an error only if a sample "
              "uses it)", i);
        break;
      }

#undef WARN
  return TACH_OK;
}

static TachStatus
reader_load (TachReader *reader,
             TachError  *error)
{
  TachStatus status;

  if ((status = read_header (reader, error)) != TACH_OK
      || (status = read_footer (reader, error)) != TACH_OK
      || (status = check_sample_region (reader, error)) != TACH_OK
      || (status = read_strings (reader, error)) != TACH_OK
      || (status = read_frames (reader, error)) != TACH_OK
      /* CPython reads the statistics block before the tables; we read it
       * after them, to tell a block from table bytes that look like one.
       * Only a file broken in both places reports the other error first. */
      || (status = read_stats (reader, error)) != TACH_OK
      || (status = check_consistency (reader, error)) != TACH_OK)
    return status;
  return TACH_OK;
}

static TachReader *
reader_new (void)
{
  TachReader *reader = calloc (1, sizeof (TachReader));

  if (reader != NULL)
    reader->fd = -1;
  return reader;
}

TachStatus
tach_reader_open_memory (const void  *data,
                         size_t       size,
                         TachReader **out,
                         TachError   *error)
{
  TachReader *reader;
  TachStatus status;

  if (out == NULL || (data == NULL && size > 0))
    {
      tach_set_error (error, TACH_ERROR_ARGUMENT, TACH_PHASE_OPEN, UINT64_MAX,
                      "Invalid argument to tach_reader_open_memory");
      return TACH_ERROR_ARGUMENT;
    }
  *out = NULL;
  if ((reader = reader_new ()) == NULL)
    return NO_MEMORY ();
  reader->data = data;
  reader->size = size;
  if ((status = reader_load (reader, error)) != TACH_OK)
    {
      tach_reader_free (reader);
      return status;
    }
  *out = reader;
  return TACH_OK;
}

/* What a file that is not a regular file is, for the message that
 * refuses it. */
static const char *
describe_file_type (mode_t mode)
{
  if (S_ISDIR (mode))
    return "a folder";
  if (S_ISFIFO (mode))
    return "a FIFO (a named pipe)";
  if (S_ISSOCK (mode))
    return "a socket";
  if (S_ISCHR (mode))
    return "a character device";
  if (S_ISBLK (mode))
    return "a block device";
  return "a special file";
}

static TachStatus
not_regular (TachError *error,
             mode_t     mode)
{
  tach_set_error (error, TACH_ERROR_IO, TACH_PHASE_OPEN, UINT64_MAX,
                  "This is %s, not a regular file: a profile must be a file",
                  describe_file_type (mode));
  return TACH_ERROR_IO;
}

TachStatus
tach_reader_open_path (const char  *path,
                       TachReader **out,
                       TachError   *error)
{
  TachReader *reader;
  TachStatus status;
  struct stat st;
  int fd, flags;

  if (out == NULL || path == NULL)
    {
      tach_set_error (error, TACH_ERROR_ARGUMENT, TACH_PHASE_OPEN, UINT64_MAX,
                      "Invalid argument to tach_reader_open_path");
      return TACH_ERROR_ARGUMENT;
    }
  *out = NULL;

  /* open () of a FIFO waits for a writer, and of a device may do anything:
   * look first.  O_NONBLOCK then covers a FIFO made in its place between
   * the two calls, and fstat () refuses it. */
  if (stat (path, &st) != 0)
    {
      tach_set_error (error, TACH_ERROR_IO, TACH_PHASE_OPEN, UINT64_MAX,
                      "Cannot open the file: %s", strerror (errno));
      return TACH_ERROR_IO;
    }
  if (!S_ISREG (st.st_mode))
    return not_regular (error, st.st_mode);

  fd = open (path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
  if (fd < 0)
    {
      tach_set_error (error, TACH_ERROR_IO, TACH_PHASE_OPEN, UINT64_MAX,
                      "Cannot open the file: %s", strerror (errno));
      return TACH_ERROR_IO;
    }
  if (fstat (fd, &st) != 0)
    {
      tach_set_error (error, TACH_ERROR_IO, TACH_PHASE_OPEN, UINT64_MAX,
                      "Cannot read the file's size: %s", strerror (errno));
      close (fd);
      return TACH_ERROR_IO;
    }
  if (!S_ISREG (st.st_mode))
    {
      close (fd);
      return not_regular (error, st.st_mode);
    }
  if ((flags = fcntl (fd, F_GETFL)) < 0 || fcntl (fd, F_SETFL, flags & ~O_NONBLOCK) != 0)
    {
      tach_set_error (error, TACH_ERROR_IO, TACH_PHASE_OPEN, UINT64_MAX,
                      "Cannot open the file: %s", strerror (errno));
      close (fd);
      return TACH_ERROR_IO;
    }
  if ((uint64_t) st.st_size > SIZE_MAX)
    {
      tach_set_error (error, TACH_ERROR_UNSUPPORTED, TACH_PHASE_OPEN, UINT64_MAX,
                      "The file is too large for this computer (%llu bytes)",
                      (unsigned long long) st.st_size);
      close (fd);
      return TACH_ERROR_UNSUPPORTED;
    }

  if ((reader = reader_new ()) == NULL)
    {
      close (fd);
      return NO_MEMORY ();
    }
  /* The file is read with pread (), never mapped: a mapped file that
   * shrinks kills the process with SIGBUS at the first page past its new
   * end, and a profile may be rewritten while it is read (the profiler
   * run again with the same output, a copy still under way).  A read
   * that comes short says so instead. */
  reader->from_file = true;
  reader->fd = fd;
  reader->size = (size_t) st.st_size;
  stamp_from_stat (&reader->stamp, &st);
  posix_fadvise (fd, 0, 0, POSIX_FADV_SEQUENTIAL);

  status = reader_load (reader, error);
  free (reader->window);
  reader->window = NULL;
  reader->window_cap = reader->window_len = 0;
  if (status == TACH_OK && tach_reader_file_changed (reader, NULL))
    status = (tach_set_changed_error (error, reader, TACH_PHASE_OPEN, reader->size),
              TACH_ERROR_CHANGED);
  if (status != TACH_OK)
    {
      tach_reader_free (reader);
      return status;
    }

  *out = reader;
  return TACH_OK;
}

void
tach_reader_free (TachReader *reader)
{
  if (reader == NULL)
    return;
  if (reader->fd >= 0)
    close (reader->fd);
  free (reader->window);
  for (size_t i = 0; i < reader->n_warnings; i++)
    free (reader->warnings[i]);
  free (reader->warnings);
  free (reader->strings);
  free (reader->string_offsets);
  free (reader->string_lengths);
  free (reader->frames);
  free (reader->frame_ok);
  free (reader);
}

const TachHeader *
tach_reader_get_header (const TachReader *reader)
{
  return &reader->header;
}

const TachFooter *
tach_reader_get_footer (const TachReader *reader)
{
  return &reader->footer;
}

const TachStats *
tach_reader_get_stats (const TachReader *reader)
{
  return &reader->stats;
}

uint64_t
tach_reader_get_file_size (const TachReader *reader)
{
  return reader->size;
}

uint64_t
tach_reader_get_sample_region_size (const TachReader *reader)
{
  return reader->header.string_table_offset - TACH_HEADER_SIZE;
}

const void *
tach_reader_get_sample_region (const TachReader *reader)
{
  if (reader->from_file)
    return NULL;
  return reader->data + TACH_HEADER_SIZE;
}

bool
tach_reader_get_file_stamp (const TachReader *reader,
                            TachFileStamp    *stamp)
{
  if (!reader->from_file)
    return false;
  *stamp = reader->stamp;
  return true;
}

void
tach_reader_release_file (TachReader *reader)
{
  if (reader == NULL || reader->fd < 0)
    return;
  close (reader->fd);
  reader->fd = -1;
}

size_t
tach_reader_get_n_warnings (const TachReader *reader)
{
  return reader->n_warnings;
}

const char *
tach_reader_get_warning (const TachReader *reader,
                         size_t            i)
{
  return i < reader->n_warnings ? reader->warnings[i] : NULL;
}

uint32_t
tach_reader_get_n_strings (const TachReader *reader)
{
  return reader->footer.string_count;
}

const char *
tach_reader_get_string (const TachReader *reader,
                        uint32_t          index,
                        size_t           *len)
{
  if (index >= reader->footer.string_count)
    return NULL;
  if (len != NULL)
    *len = reader->string_lengths[index];
  return reader->strings + reader->string_offsets[index];
}

uint32_t
tach_reader_get_n_frames (const TachReader *reader)
{
  return reader->footer.frame_count;
}

const TachFrame *
tach_reader_get_frame (const TachReader *reader,
                       uint32_t          index)
{
  return index < reader->footer.frame_count ? &reader->frames[index] : NULL;
}

const char *
tach_mode_to_string (TachMode mode)
{
  switch (mode)
    {
    case TACH_MODE_WALL:      return "wall";
    case TACH_MODE_CPU:       return "cpu";
    case TACH_MODE_GIL:       return "gil";
    case TACH_MODE_ALL:       return "all";
    case TACH_MODE_EXCEPTION: return "exception";
    case TACH_MODE_UNKNOWN:
    default:                  return NULL;
    }
}

const char *
tach_record_kind_to_string (TachRecordKind kind)
{
  switch (kind)
    {
    case TACH_RECORD_REPEAT:   return "REPEAT";
    case TACH_RECORD_FULL:     return "FULL";
    case TACH_RECORD_SUFFIX:   return "SUFFIX";
    case TACH_RECORD_POP_PUSH: return "POP_PUSH";
    default:                   return NULL;
    }
}
