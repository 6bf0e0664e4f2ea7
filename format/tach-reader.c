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

bool
tach_add_warning (TachReader *reader,
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
TachStatus
tach_reader_bytes (TachReader     *reader,
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
  if ((status = tach_reader_load (reader, error)) != TACH_OK)
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

  status = tach_reader_load (reader, error);
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
