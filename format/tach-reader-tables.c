/* tach-reader-tables.c: validate a profile's header, footer, statistics and tables
 *
 * The checks run in the order CPython's reader runs them (SPEC §9), and the
 * messages start with CPython's wording; each one then names the field and
 * its byte offset.  tach-reader.c opens the file and calls tach_reader_load().
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <zstd.h>

#include "tach-private.h"

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
  if ((status = tach_reader_bytes (reader, 0, TACH_HEADER_SIZE, &bytes, &got, error)) != TACH_OK)
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

  if ((status = tach_reader_bytes (reader, size - TACH_FOOTER_SIZE, TACH_FOOTER_SIZE, &f, &got,
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
  if ((status = tach_reader_bytes (reader, tail, (size_t) (size - TACH_FOOTER_SIZE - tail), &t, &got,
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
      if (!tach_add_warning (reader, "Statistics block ignored: unknown block version %u (size %u) "
                        "at byte %llu", version, block_size,
                        (unsigned long long) (trailer + 8)))
        return NO_MEMORY ();
      return TACH_OK;
    }
  if (block_size != TACH_STATS_SIZE_V56 && block_size != TACH_STATS_SIZE_V32)
    {
      if (!tach_add_warning (reader, "Statistics block ignored: unsupported block size %u at byte %llu",
                        block_size, (unsigned long long) (trailer + 12)))
        return NO_MEMORY ();
      return TACH_OK;
    }
  start = size - TACH_FOOTER_SIZE - block_size;
  if (size < TACH_FOOTER_SIZE + block_size
      || start < reader->header.frame_table_offset
      || start < TACH_HEADER_SIZE)
    {
      if (!tach_add_warning (reader, "Statistics block ignored: it would overlap the frame table"))
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
      && !tach_add_warning (reader, "Statistics block: unknown presence flag bits 0x%x ignored "
                       "(at byte %llu)", flags & ~(TACH_STATS_ERROR_RATE | TACH_STATS_MISSED),
                       (unsigned long long) (start + 32)))
    return NO_MEMORY ();
  if (reserved != 0
      && !tach_add_warning (reader, "Statistics block: reserved field is %u, not 0 (at byte %llu)",
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
      if ((status = tach_reader_bytes (reader, TACH_HEADER_SIZE, region < 18 ? region : 18, &frame,
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

      if ((status = tach_reader_bytes (reader, pos, 10, &p, &got, error)) != TACH_OK)
        return status;
      if ((n = tach_read_uvarint32 (p, p + got, &len)) == 0)
        return INVALID (pos, "Malformed varint in string table (length of string %u at byte %llu)",
                        i, (unsigned long long) pos);
      pos += n;
      if (len > reader->size - pos)
        return INVALID (pos, "String table overflow (string %u at byte %llu declares %u bytes, "
                        "past the end of the file)", i, (unsigned long long) (pos - n), len);
      if ((status = tach_reader_bytes (reader, pos, len, &p, &got, error)) != TACH_OK)
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
      if ((status = tach_reader_bytes (reader, pos, 61, &p, &got, error)) != TACH_OK)
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

#define WARN(...) do { if (!tach_add_warning (reader, __VA_ARGS__)) return NO_MEMORY (); } while (0)

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

TachStatus
tach_reader_load (TachReader *reader,
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
