/* tachyon-format.h: reader and writer of CPython's Tachyon binary profiles
 *
 * libtachyon-format is plain C11 + libzstd.  It knows nothing of GLib or
 * GTK, so anything can use it: the viewer, the benchmarks and the fuzzers.
 * The format is described in shared/format/SPEC.md; section numbers in the
 * comments below refer to it.
 *
 * Errors: every function that can fail takes a TachError * (which may be
 * NULL) and returns a status.  The message names the field and the byte
 * offset that were wrong, and starts with CPython's own wording where CPython
 * has one.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(TACH_COMPILATION)
# define TACH_API __attribute__ ((visibility ("default")))
#else
# define TACH_API
#endif

#define TACH_HEADER_SIZE        64
#define TACH_FOOTER_SIZE        32
#define TACH_MAX_STACK_DEPTH    256
#define TACH_OPCODE_NONE        255
#define TACH_LOCATION_NONE      (-1)

typedef enum
{
  TACH_OK = 0,
  TACH_ERROR_IO,            /* open, stat, read, write failed; not a regular file */
  TACH_ERROR_INVALID,       /* the file breaks the format */
  TACH_ERROR_UNSUPPORTED,   /* a valid-looking file we cannot read */
  TACH_ERROR_NO_MEMORY,
  TACH_ERROR_ARGUMENT,      /* the caller passed something wrong */
  TACH_ERROR_CANCELLED,     /* the cancel function said so */
  TACH_ERROR_CHANGED,       /* the file shrank, grew or was rewritten while it
                             * was being read: read it again */
} TachStatus;

typedef enum
{
  TACH_PHASE_OPEN,          /* header, footer, stats, tables */
  TACH_PHASE_DECODE,        /* sample records */
} TachPhase;

typedef struct
{
  TachStatus status;
  TachPhase  phase;
  /* Absolute byte offset in the file of the field that was wrong, or, for
   * a compressed sample region, the offset in the decompressed stream (see
   * in_decompressed).  UINT64_MAX when there is no single place. */
  uint64_t   offset;
  bool       in_decompressed;
  char       message[512];
} TachError;

typedef enum
{
  TACH_COMPRESSION_NONE = 0,
  TACH_COMPRESSION_ZSTD = 1,
} TachCompression;

/* PROFILING_MODE_* of CPython; the header stores value + 1 (SPEC §3.4). */
typedef enum
{
  TACH_MODE_UNKNOWN   = -1,
  TACH_MODE_WALL      = 0,
  TACH_MODE_CPU       = 1,
  TACH_MODE_GIL       = 2,
  TACH_MODE_ALL       = 3,
  TACH_MODE_EXCEPTION = 4,
} TachMode;

/* Status byte bits (SPEC §4.8). */
enum
{
  TACH_STATUS_HAS_GIL       = 1 << 0,
  TACH_STATUS_ON_CPU        = 1 << 1,
  TACH_STATUS_UNKNOWN       = 1 << 2,
  TACH_STATUS_GIL_REQUESTED = 1 << 3,
  TACH_STATUS_HAS_EXCEPTION = 1 << 4,
  TACH_STATUS_MAIN_THREAD   = 1 << 5,
};

/* Record encodings (SPEC §4.1). */
typedef enum
{
  TACH_RECORD_REPEAT   = 0,
  TACH_RECORD_FULL     = 1,
  TACH_RECORD_SUFFIX   = 2,
  TACH_RECORD_POP_PUSH = 3,
} TachRecordKind;

typedef struct
{
  uint32_t version;
  uint8_t  python_major;
  uint8_t  python_minor;
  uint8_t  python_micro;
  uint8_t  python_reserved;
  uint64_t start_time_us;
  uint64_t sample_interval_us;
  uint64_t sample_count;          /* thread-samples */
  uint32_t thread_count;          /* distinct (thread, interpreter) pairs */
  uint64_t string_table_offset;
  uint64_t frame_table_offset;
  uint32_t compression_type;      /* raw value */
  uint32_t mode_raw;              /* raw u32 at offset 60 */
  TachMode mode;                  /* decoded from mode_raw, or UNKNOWN */
  bool     big_endian;
} TachHeader;

typedef struct
{
  uint32_t string_count;
  uint32_t frame_count;
  uint64_t file_size;             /* as stored; may disagree with the file */
  uint8_t  checksum[16];
} TachFooter;

typedef struct
{
  bool     present;
  uint32_t block_size;            /* 56 or 32 */
  uint64_t block_offset;
  uint32_t flags;                 /* presence flags as stored */
  double   duration_sec;
  double   sample_rate;
  bool     has_error_rate;
  double   error_rate;            /* percent; only when has_error_rate */
  bool     has_missed_samples;
  double   missed_samples;        /* percent; only when has_missed_samples */
} TachStats;

#define TACH_STATS_ERROR_RATE 0x01u
#define TACH_STATS_MISSED     0x02u

/* One frame-table entry (SPEC §6).  end_lineno and end_column are absolute
 * (the deltas are applied); -1 means absent. */
typedef struct
{
  uint32_t filename;              /* string index */
  uint32_t funcname;              /* string index */
  int32_t  lineno;
  int32_t  end_lineno;
  int32_t  column;
  int32_t  end_column;
  uint8_t  opcode;                /* TACH_OPCODE_NONE when absent */
} TachFrame;

/* ------------------------------------------------------------------------ */
/* Reader                                                                    */
/* ------------------------------------------------------------------------ */

typedef struct TachReader TachReader;

/* What a file was when a reader opened it.  The reader keeps the file
 * open, so a file replaced by another (a rename over it) is still read
 * whole and unchanged; DEVICE and INODE tell such a replacement from the
 * file that was read. */
typedef struct
{
  uint64_t size;
  int64_t  mtime_sec;
  uint32_t mtime_nsec;
  uint64_t device;
  uint64_t inode;
} TachFileStamp;

/* Opens PATH and validates header, footer, stats block, string table and
 * frame table.  Samples are not touched.
 *
 * What is not a regular file (a folder, a FIFO, a socket, a device) is
 * refused with TACH_ERROR_IO and a message that says what it is, without
 * ever blocking.  The file is read with pread(), never mapped: a file that
 * is truncated, grows or is rewritten while it is read (at open or while
 * its samples are decoded) gives TACH_ERROR_CHANGED, never a signal.  A
 * change is a read that finds the end of the file early, or a size or
 * modification time that differs from the open's when the decoder reaches
 * the end of the samples or meets an error. */
TACH_API TachStatus   tach_reader_open_path      (const char  *path,
                                                  TachReader **out,
                                                  TachError   *error);
/* Same, over a caller-owned buffer that must outlive the reader. */
TACH_API TachStatus   tach_reader_open_memory    (const void  *data,
                                                  size_t       size,
                                                  TachReader **out,
                                                  TachError   *error);
TACH_API void         tach_reader_free           (TachReader  *reader);

TACH_API const TachHeader *tach_reader_get_header (const TachReader *reader);
TACH_API const TachFooter *tach_reader_get_footer (const TachReader *reader);
TACH_API const TachStats  *tach_reader_get_stats  (const TachReader *reader);
/* The real size of the file or buffer. */
TACH_API uint64_t     tach_reader_get_file_size  (const TachReader *reader);
/* Size in bytes of the sample region as stored (compressed or not). */
TACH_API uint64_t     tach_reader_get_sample_region_size (const TachReader *reader);
/* The stored sample region of a reader over memory; NULL for a reader of
 * a path, which reads the region as it decodes it. */
TACH_API const void  *tach_reader_get_sample_region (const TachReader *reader);
/* Fills STAMP with what the file was at open and returns true; false for
 * a reader over memory. */
TACH_API bool         tach_reader_get_file_stamp (const TachReader *reader,
                                                  TachFileStamp    *stamp);
/* Closes the file of a reader opened from a path, which it otherwise holds
 * until it is freed; what open read (header, tables, stamp) stays, but no
 * decoder can be made any more (tach_decoder_new gives
 * TACH_ERROR_ARGUMENT).  For a caller that keeps the reader for its tables
 * once the samples are in: a file held open keeps a removable disk from
 * being unmounted, and a deleted file's space from being freed.  Does
 * nothing over memory, or when called again; the decoders that exist must
 * have been freed. */
TACH_API void         tach_reader_release_file   (TachReader       *reader);

/* Warnings: the file opens, but something is off (footer size, unknown
 * stats bits, unknown mode value, ...). */
TACH_API size_t       tach_reader_get_n_warnings (const TachReader *reader);
TACH_API const char  *tach_reader_get_warning    (const TachReader *reader,
                                                  size_t            i);

TACH_API uint32_t     tach_reader_get_n_strings  (const TachReader *reader);
/* A NUL-terminated UTF-8 string (invalid sequences replaced by U+FFFD, as
 * CPython decodes them).  LEN, if not NULL, receives the byte length, which
 * may be shorter than strlen() when the string holds a NUL.  Returns NULL
 * for an index out of range. */
TACH_API const char  *tach_reader_get_string     (const TachReader *reader,
                                                  uint32_t          index,
                                                  size_t           *len);

TACH_API uint32_t     tach_reader_get_n_frames   (const TachReader *reader);
/* Returns NULL for an index out of range. */
TACH_API const TachFrame *tach_reader_get_frame  (const TachReader *reader,
                                                  uint32_t          index);

TACH_API const char  *tach_mode_to_string        (TachMode mode);
TACH_API const char  *tach_record_kind_to_string (TachRecordKind kind);

/* ------------------------------------------------------------------------ */
/* Sample decoder                                                            */
/* ------------------------------------------------------------------------ */

typedef struct TachDecoder TachDecoder;

/* One thread-sample, with the shape of the record it came from so that a
 * consumer can update its own per-thread state incrementally: the new stack
 * is the outermost KEEP frames of the thread's previous stack with the
 * PUSH frames stack[0 .. push) put in front (innermost first).  POP is the
 * number of innermost frames of the previous stack that were dropped, so
 * prev_depth == pop + keep and depth == keep + push.
 *
 * Every sample of a REPEAT run has pop == push == 0.  The first sample of a
 * REPEAT run has run_index 0; run_length is the record's count.
 */
typedef struct
{
  uint64_t        thread_id;
  uint32_t        interpreter_id;
  uint32_t        thread_index;   /* dense, in first-seen order */
  uint64_t        timestamp_us;
  uint8_t         status;
  uint8_t         kind;           /* TachRecordKind */
  uint16_t        depth;
  const uint32_t *stack;          /* depth frame indices, innermost first;
                                   * valid until the next call */
  uint16_t        pop;
  uint16_t        keep;
  uint16_t        push;
  uint32_t        run_index;
  uint32_t        run_length;
  uint64_t        record_offset;  /* of the record's prefix (see
                                   * TachError.in_decompressed) */
} TachSample;

typedef struct
{
  uint64_t thread_id;
  uint32_t interpreter_id;
} TachThreadKey;

TACH_API TachStatus   tach_decoder_new           (TachReader   *reader,
                                                  TachDecoder **out,
                                                  TachError    *error);
TACH_API void         tach_decoder_free          (TachDecoder  *decoder);

/* Returns 1 and fills SAMPLE, 0 at the end of the samples (after the sample
 * count has been checked against the header), or -1 with ERROR set. */
TACH_API int          tach_decoder_next          (TachDecoder  *decoder,
                                                  TachSample   *sample,
                                                  TachError    *error);

/* A run of samples that share everything but their timestamp and status:
 * up to TACH_BATCH_MAX samples of one REPEAT record, or the single sample
 * of any other record.  SAMPLE describes the first of them (its run_index
 * is that of the first); TIMESTAMPS and STATUSES have N entries each and
 * stay valid until the next call.  Nearly every sample of a real profile
 * sits in a REPEAT run, so a consumer that takes batches does its
 * per-sample work in a tight loop, or once per run. */
#define TACH_BATCH_MAX 4096

typedef struct
{
  TachSample      sample;
  uint32_t        n;
  const uint64_t *timestamps;
  const uint8_t  *statuses;
} TachBatch;

/* Like tach_decoder_next(), a batch at a time; the two can be mixed. */
TACH_API int          tach_decoder_next_batch    (TachDecoder  *decoder,
                                                  TachBatch    *batch,
                                                  TachError    *error);

/* A compressed region of 256 KiB or more is decompressed on a second
 * thread while the caller decodes, which about halves the time a decode
 * takes on two cores.  This forces the choice either way (for a raw region
 * of a file too, which is otherwise read in line); it only has an effect
 * before the first tach_decoder_next(). */
TACH_API void         tach_decoder_set_pipelined (TachDecoder  *decoder,
                                                  bool          pipelined);

/* A function the decoder calls now and then while it works without
 * returning a sample: through long stretches of empty REPEAT records (a
 * small zstd stream can hold billions) and while it reads the rest of a
 * bad stream to report the right error.  When it returns non-zero the
 * decoder fails with TACH_ERROR_CANCELLED.  Callers that look at their
 * own flag between samples need it all the same. */
typedef int (*TachCancelFunc) (void *user_data);

TACH_API void         tach_decoder_set_cancel_func (TachDecoder   *decoder,
                                                    TachCancelFunc func,
                                                    void          *user_data);

/* Samples decoded so far, and how far into the sample region the decoder
 * has read (in stored, i.e. compressed, bytes), for progress reporting. */
TACH_API uint64_t     tach_decoder_get_samples_decoded (const TachDecoder *decoder);
TACH_API uint64_t     tach_decoder_get_bytes_consumed  (const TachDecoder *decoder);

/* Threads seen so far, indexed by TachSample.thread_index. */
TACH_API uint32_t     tach_decoder_get_n_threads (const TachDecoder *decoder);
TACH_API const TachThreadKey *tach_decoder_get_thread (const TachDecoder *decoder,
                                                       uint32_t           thread_index);

/* ------------------------------------------------------------------------ */
/* Writer                                                                    */
/* ------------------------------------------------------------------------ */

typedef struct TachWriter TachWriter;

typedef struct
{
  bool     big_endian;
  bool     zstd;                  /* compress the sample region */
  int      zstd_level;            /* 0 means CPython's 5 */
  uint8_t  python_major;          /* 0 means 3.15.0 */
  uint8_t  python_minor;
  uint8_t  python_micro;
  uint64_t start_time_us;
  uint64_t sample_interval_us;
  uint32_t mode_raw;              /* stored as is at offset 60 */
} TachWriterOptions;

/* A frame as CPython's FrameInfo gives it, before interning.  Use -1 for
 * absent locations and TACH_OPCODE_NONE (or any value > 254) for no opcode. */
typedef struct
{
  const char *filename;
  const char *funcname;
  int32_t     lineno;
  int32_t     end_lineno;
  int32_t     column;
  int32_t     end_column;
  int32_t     opcode;
} TachFrameInfo;

TACH_API TachStatus   tach_writer_new            (const char               *path,
                                                  const TachWriterOptions  *options,
                                                  TachWriter              **out,
                                                  TachError                *error);

/* Interns a frame as CPython does (filename, then funcname, then the
 * seven-field key) and returns its frame index. */
TACH_API TachStatus   tach_writer_intern_frame   (TachWriter          *writer,
                                                  const TachFrameInfo *frame,
                                                  uint32_t            *index,
                                                  TachError           *error);

/* Writes one thread-sample.  FRAMES are frame indices from
 * tach_writer_intern_frame, innermost first; frames past the 256th are
 * dropped, as CPython's writer drops them. */
TACH_API TachStatus   tach_writer_add_sample     (TachWriter     *writer,
                                                  uint64_t        thread_id,
                                                  uint32_t        interpreter_id,
                                                  uint64_t        timestamp_us,
                                                  uint8_t         status,
                                                  const uint32_t *frames,
                                                  size_t          depth,
                                                  TachError      *error);

/* Sets the statistics block.  BLOCK_SIZE is 56 (current) or 32 (original
 * layout, duration and rate only).  Values are validated as CPython's
 * writer does. */
TACH_API TachStatus   tach_writer_set_stats      (TachWriter      *writer,
                                                  const TachStats *stats,
                                                  TachError       *error);

/* Flushes the pending runs, writes tables, stats, footer and header, and
 * closes the file.  The writer is freed whatever the outcome. */
TACH_API TachStatus   tach_writer_finish         (TachWriter *writer,
                                                  TachError  *error);
/* Abandons the file (it is removed) and frees the writer; accepts NULL. */
TACH_API void         tach_writer_abort          (TachWriter *writer);

#ifdef __cplusplus
}
#endif
