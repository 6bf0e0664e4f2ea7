/* fuzz-roundtrip.c: fuzz target for the writer, checked by the reader
 *
 * The input is a script.  Its first bytes choose the writer options; the
 * rest is a list of operations: intern a frame (fuzzed strings and
 * locations), intern an old frame again, add samples (fuzzed thread,
 * interpreter, status, timestamp and stack, often a small change of the
 * thread's previous stack so that every record kind shows up), add long
 * runs of one stack, set the statistics block, or abandon the file.
 *
 * The file is then opened again and everything is compared with what was
 * written: header, footer, stats, strings (as CPython decodes them, with
 * U+FFFD for invalid UTF-8), frames (with the sentinel rules of SPEC §6.2),
 * and every sample of every thread, in order, with stacks cut to 256
 * frames.  The record kind of each sample is checked against the choice
 * CPython's writer makes (SPEC §4.9); build with -DFUZZ_NO_KIND_CHECK to
 * leave that out.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz-check.h"
#include "tachyon-format.h"

#define MAX_SAMPLES      50000
#define MAX_FRAMES       4096
#define MAX_PASSED_DEPTH 600
#define MAX_POOL         (4u << 20)
#define N_THREAD_SLOTS   8
#define N_RECENT_STRINGS 64

/* What an empty stack is passed as: NULL, which the writer accepts, or
 * with -DFUZZ_NULL_EMPTY_STACK=0 a valid pointer. */
#ifndef FUZZ_NULL_EMPTY_STACK
# define FUZZ_NULL_EMPTY_STACK 1
#endif
#if FUZZ_NULL_EMPTY_STACK
# define EMPTY_STACK NULL
#else
# define EMPTY_STACK rt->scratch
#endif

static const char *temp_path (void);

static void
fuzz_fail (const char      *file,
           int              line,
           const char      *expr,
           const TachError *error)
{
  fprintf (stderr, "%s:%d: roundtrip check failed: %s\n", file, line, expr);
  fuzz_print_error ("error", error);
  /* What the writer wrote, if anything, for a look with tachgen dump. */
  if (access (temp_path (), F_OK) == 0)
    fprintf (stderr, "  the file written is kept at %s\n", temp_path ());
  abort ();
}

static void *
xrealloc (void   *p,
          size_t  n)
{
  p = realloc (p, n > 0 ? n : 1);
  CHECK (p != NULL);
  return p;
}

/* ------------------------------------------------------------------------ */
/* The script                                                               */
/* ------------------------------------------------------------------------ */

typedef struct
{
  const uint8_t *p;
  size_t         n;
} Script;

static uint8_t
take_u8 (Script *s)
{
  if (s->n == 0)
    return 0;
  s->n--;
  return *s->p++;
}

static uint16_t
take_u16 (Script *s)
{
  uint16_t v = take_u8 (s);

  return (uint16_t) (v | (uint16_t) take_u8 (s) << 8);
}

static uint32_t
take_u32 (Script *s)
{
  uint32_t v = take_u16 (s);

  return v | (uint32_t) take_u16 (s) << 16;
}

static uint64_t
take_u64 (Script *s)
{
  uint64_t v = take_u32 (s);

  return v | (uint64_t) take_u32 (s) << 32;
}

static int32_t
take_i32 (Script *s)
{
  switch (take_u8 (s) % 8)
    {
    case 0: return -1;
    case 1: return 0;
    case 2: return take_u8 (s);
    case 3: return take_u16 (s);
    case 4: return INT32_MAX;
    case 5: return INT32_MIN;
    case 6: return -(int32_t) take_u8 (s);
    default: return (int32_t) take_u32 (s);
    }
}

static double
take_double (Script *s)
{
  uint64_t bits;
  double d;

  switch (take_u8 (s) % 8)
    {
    case 0: return 0.0;
    case 1: return take_u16 (s) / 8.0;
    case 2: return -(double) take_u8 (s);
    case 3: return NAN;
    case 4: return INFINITY;
    case 5: return -INFINITY;
    case 6: return -0.0;
    default:
      bits = take_u64 (s);
      memcpy (&d, &bits, sizeof d);
      return d;
    }
}

/* ------------------------------------------------------------------------ */
/* A small hash table: byte string -> dense index, in insertion order       */
/* ------------------------------------------------------------------------ */

typedef struct
{
  char     *key;
  size_t    len;
  uint32_t  value;
} Entry;

typedef struct
{
  Entry    *slots;
  size_t    n_slots;            /* a power of two */
  uint32_t  n_entries;
  Entry   **by_value;           /* n_entries, in insertion order */
} Table;

static uint64_t
hash_bytes (const void *key,
            size_t      len)
{
  const uint8_t *p = key;
  uint64_t h = 0xcbf29ce484222325ull;

  for (size_t i = 0; i < len; i++)
    h = (h ^ p[i]) * 0x100000001b3ull;
  return h ^ (h >> 29);
}

static Entry *
table_find_slot (Entry      *slots,
                 size_t      n_slots,
                 const void *key,
                 size_t      len)
{
  size_t i = hash_bytes (key, len) & (n_slots - 1);

  while (slots[i].key != NULL
         && (slots[i].len != len || memcmp (slots[i].key, key, len) != 0))
    i = (i + 1) & (n_slots - 1);
  return &slots[i];
}

/* Returns the index of KEY, adding it if new; *ADDED says which. */
static uint32_t
table_intern (Table      *table,
              const void *key,
              size_t      len,
              bool       *added)
{
  Entry *slot;

  if (2 * ((size_t) table->n_entries + 1) > table->n_slots)
    {
      size_t n_slots = table->n_slots ? 2 * table->n_slots : 64;
      Entry *slots = calloc (n_slots, sizeof *slots);

      CHECK (slots != NULL);
      for (size_t i = 0; i < table->n_slots; i++)
        if (table->slots[i].key != NULL)
          *table_find_slot (slots, n_slots, table->slots[i].key, table->slots[i].len)
            = table->slots[i];
      free (table->slots);
      table->slots = slots;
      table->n_slots = n_slots;
      table->by_value = xrealloc (table->by_value, n_slots / 2 * sizeof (Entry *));
      for (size_t i = 0; i < n_slots; i++)
        if (slots[i].key != NULL)
          table->by_value[slots[i].value] = &slots[i];
    }

  slot = table_find_slot (table->slots, table->n_slots, key, len);
  if (slot->key != NULL)
    {
      *added = false;
      return slot->value;
    }

  slot->key = xrealloc (NULL, len + 1);
  memcpy (slot->key, key, len);
  slot->key[len] = '\0';
  slot->len = len;
  slot->value = table->n_entries++;
  table->by_value[slot->value] = slot;
  *added = true;
  return slot->value;
}

static void
table_clear (Table *table)
{
  for (size_t i = 0; i < table->n_slots; i++)
    free (table->slots[i].key);
  free (table->slots);
  free (table->by_value);
  memset (table, 0, sizeof *table);
}

/* ------------------------------------------------------------------------ */
/* What was written                                                          */
/* ------------------------------------------------------------------------ */

typedef struct
{
  TachFrameInfo info;           /* strings owned by the string table */
  uint32_t      filename_idx;   /* expected string indices */
  uint32_t      funcname_idx;
  uint32_t      index;          /* returned by the writer */
} FrameRec;

typedef struct
{
  uint64_t timestamp_us;
  uint32_t stack;               /* offset in the stack pool */
  uint16_t depth;               /* as passed, may exceed 256 */
  uint8_t  status;
} SampleRec;

typedef struct
{
  uint64_t   thread_id;
  uint32_t   interpreter_id;
  SampleRec *samples;
  size_t     n_samples;
  size_t     n_alloc;
  uint64_t   last_timestamp_us;
  /* Read-back state. */
  size_t     next;
  uint16_t   read_depth;
  uint32_t   read_stack[TACH_MAX_STACK_DEPTH];
} ThreadRec;

typedef struct
{
  Script             script;
  TachWriterOptions  options;
  TachWriter        *writer;

  Table              strings;
  const char        *recent[N_RECENT_STRINGS];
  uint32_t           n_recent;

  Table              frame_keys;
  FrameRec          *frames;
  uint32_t           n_frames;
  uint32_t           n_indices;     /* distinct indices returned */

  uint32_t          *pool;
  size_t             n_pool;
  size_t             pool_alloc;
  uint32_t           scratch[MAX_PASSED_DEPTH];

  ThreadRec          threads[N_THREAD_SLOTS];
  uint32_t           n_threads;
  int                slot_thread[N_THREAD_SLOTS];
  uint64_t           n_samples;
  uint64_t           last_timestamp_us;

  bool               stats_tried;
  bool               stats_set;
  TachStats          stats;
} Roundtrip;

static const char *
temp_path (void)
{
  static char path[4096];

  if (path[0] == '\0')
    {
      const char *dir = getenv ("TMPDIR");

      if (dir == NULL || dir[0] == '\0')
        dir = access ("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
      snprintf (path, sizeof path, "%s/tach-fuzz-roundtrip-%ld.tach", dir, (long) getpid ());
    }
  return path;
}

/* ------------------------------------------------------------------------ */
/* Operations                                                                */
/* ------------------------------------------------------------------------ */

static const char *
make_string (Roundtrip *rt,
             uint32_t  *index)
{
  Script *s = &rt->script;
  uint8_t sel = take_u8 (s);
  char buf[48] = { 0 };
  char *text = buf;
  size_t len;
  bool added;
  Entry *entry;

  if ((sel & 0x80) != 0 && rt->n_recent > 0)
    {
      const char *old = rt->recent[sel % rt->n_recent];
      *index = table_intern (&rt->strings, old, strlen (old), &added);
      CHECK (!added);
      return old;
    }

  len = sel % 48;
  if (len == 47)
    {
      /* A long string, to get multi-byte length varints. */
      uint8_t fill = take_u8 (s);

      len = 100 + take_u16 (s);
      text = xrealloc (NULL, len);
      memset (text, fill != 0 ? fill : 'x', len);
    }
  else
    {
      for (size_t i = 0; i < len; i++)
        {
          uint8_t c = take_u8 (s);

          buf[i] = (char) (c != 0 ? c : 'a' + (char) (i % 26));
        }
    }

  *index = table_intern (&rt->strings, text, len, &added);
  entry = rt->strings.by_value[*index];
  if (text != buf)
    free (text);

  if (added)
    {
      rt->recent[rt->n_recent % N_RECENT_STRINGS] = entry->key;
      if (rt->n_recent < N_RECENT_STRINGS)
        rt->n_recent++;
    }
  /* Entries move when the table grows; keys never do. */
  return entry->key;
}

static uint8_t
normalize_opcode (int32_t opcode)
{
  return opcode >= 0 && opcode <= 254 ? (uint8_t) opcode : TACH_OPCODE_NONE;
}

static void
add_frame_rec (Roundtrip           *rt,
               const TachFrameInfo *info,
               uint32_t             filename_idx,
               uint32_t             funcname_idx)
{
  TachError error;
  uint32_t index = UINT32_MAX;
  int32_t key[7];
  bool added;
  uint32_t known;
  FrameRec *rec;

  CHECK_ERR (tach_writer_intern_frame (rt->writer, info, &index, &error) == TACH_OK, &error);

  /* Indices are dense, in first-interned order. */
  CHECK (index <= rt->n_indices);
  if (index == rt->n_indices)
    rt->n_indices++;

  /* The same seven-field key always gives the same frame. */
  key[0] = (int32_t) filename_idx;
  key[1] = (int32_t) funcname_idx;
  key[2] = info->lineno;
  key[3] = info->end_lineno;
  key[4] = info->column;
  key[5] = info->end_column;
  key[6] = normalize_opcode (info->opcode);
  known = table_intern (&rt->frame_keys, key, sizeof key, &added);
  if (!added)
    CHECK (rt->frames[known].index == index);
  else
    CHECK (known == rt->n_frames);

  if (!added)
    return;

  rt->frames = xrealloc (rt->frames, (rt->n_frames + 1) * sizeof *rt->frames);
  rec = &rt->frames[rt->n_frames++];
  rec->info = *info;
  rec->filename_idx = filename_idx;
  rec->funcname_idx = funcname_idx;
  rec->index = index;
}

static int32_t
add_wrap (int32_t  a,
          uint32_t b)
{
  return (int32_t) ((uint32_t) a + b);
}

static void
op_intern_new (Roundtrip *rt)
{
  Script *s = &rt->script;
  TachFrameInfo info;
  uint32_t filename_idx, funcname_idx;

  if (rt->n_frames >= MAX_FRAMES)
    return;

  /* Filename first, then funcname, as CPython interns them. */
  info.filename = make_string (rt, &filename_idx);
  info.funcname = make_string (rt, &funcname_idx);
  info.lineno = take_i32 (s);
  info.end_lineno = take_u8 (s) & 1 ? add_wrap (info.lineno, take_u8 (s) % 4) : take_i32 (s);
  info.column = take_i32 (s);
  info.end_column = take_u8 (s) & 1 ? add_wrap (info.column, take_u8 (s) % 16) : take_i32 (s);
  switch (take_u8 (s) % 4)
    {
    case 0: info.opcode = TACH_OPCODE_NONE; break;
    case 1: info.opcode = take_u8 (s); break;
    case 2: info.opcode = -1; break;
    default: info.opcode = (int32_t) take_u32 (s); break;
    }

  add_frame_rec (rt, &info, filename_idx, funcname_idx);
}

static void
op_intern_again (Roundtrip *rt)
{
  const FrameRec *rec;
  TachFrameInfo info;

  if (rt->n_frames == 0)
    return;
  rec = &rt->frames[take_u16 (&rt->script) % rt->n_frames];
  info = rec->info;
  add_frame_rec (rt, &info, rec->filename_idx, rec->funcname_idx);
}

static uint32_t
pick_frame (Roundtrip *rt,
            uint32_t   r)
{
  return rt->frames[r % rt->n_frames].index;
}

static ThreadRec *
pick_thread (Roundtrip *rt)
{
  Script *s = &rt->script;
  uint8_t slot = take_u8 (s) % N_THREAD_SLOTS;
  uint64_t tid;
  uint32_t iid;
  ThreadRec *t;

  if (rt->slot_thread[slot] >= 0)
    return &rt->threads[rt->slot_thread[slot]];

  switch (take_u8 (s) % 4)
    {
    case 0: tid = 1000 + slot; break;
    case 1: tid = 0; break;
    case 2: tid = UINT64_MAX; break;
    default: tid = take_u64 (s); break;
    }
  switch (take_u8 (s) % 3)
    {
    case 0: iid = 0; break;
    case 1: iid = 1; break;
    default: iid = take_u32 (s); break;
    }

  /* Two slots may name the same thread. */
  for (uint32_t i = 0; i < rt->n_threads; i++)
    if (rt->threads[i].thread_id == tid && rt->threads[i].interpreter_id == iid)
      {
        rt->slot_thread[slot] = (int) i;
        return &rt->threads[i];
      }

  t = &rt->threads[rt->n_threads];
  memset (t, 0, sizeof *t);
  t->thread_id = tid;
  t->interpreter_id = iid;
  t->last_timestamp_us = rt->options.start_time_us;
  rt->slot_thread[slot] = (int) rt->n_threads++;
  return t;
}

static uint64_t
pick_timestamp (Roundtrip *rt,
                ThreadRec *t)
{
  Script *s = &rt->script;

  switch (take_u8 (s) % 6)
    {
    case 0:
    case 1: return t->last_timestamp_us + take_u8 (s);
    case 2: return rt->last_timestamp_us;
    case 3: return t->last_timestamp_us + take_u32 (s);
    case 4: return t->last_timestamp_us - take_u8 (s);
    default: return take_u64 (s);
    }
}

static void
last_stack (const Roundtrip *rt,
            const ThreadRec *t,
            uint32_t        *stack,
            uint16_t        *depth)
{
  if (t->n_samples == 0)
    {
      *stack = 0;
      *depth = 0;
      return;
    }
  *stack = t->samples[t->n_samples - 1].stack;
  *depth = t->samples[t->n_samples - 1].depth;
}

static void
add_sample (Roundtrip *rt,
            ThreadRec *t,
            uint64_t   timestamp_us,
            uint8_t    status,
            uint32_t   stack,
            uint16_t   depth)
{
  TachError error;
  SampleRec *rec;

  CHECK_ERR (tach_writer_add_sample (rt->writer, t->thread_id, t->interpreter_id,
                                     timestamp_us, status,
                                     depth > 0 ? rt->pool + stack : EMPTY_STACK, depth,
                                     &error) == TACH_OK, &error);

  if (t->n_samples == t->n_alloc)
    {
      t->n_alloc = t->n_alloc ? 2 * t->n_alloc : 64;
      t->samples = xrealloc (t->samples, t->n_alloc * sizeof *t->samples);
    }
  rec = &t->samples[t->n_samples++];
  rec->timestamp_us = timestamp_us;
  rec->stack = stack;
  rec->depth = depth;
  rec->status = status;

  t->last_timestamp_us = timestamp_us;
  rt->last_timestamp_us = timestamp_us;
  rt->n_samples++;
}

/* Copies DEPTH frames of scratch into the pool; returns the offset. */
static bool
pool_add (Roundtrip *rt,
          uint16_t   depth,
          uint32_t  *offset)
{
  *offset = (uint32_t) rt->n_pool;
  if (depth == 0)
    return true;
  if (rt->n_pool + depth > MAX_POOL)
    return false;
  if (rt->n_pool + depth > rt->pool_alloc)
    {
      rt->pool_alloc = rt->pool_alloc ? 2 * rt->pool_alloc : 4096;
      while (rt->pool_alloc < rt->n_pool + depth)
        rt->pool_alloc *= 2;
      rt->pool = xrealloc (rt->pool, rt->pool_alloc * sizeof *rt->pool);
    }
  memcpy (rt->pool + rt->n_pool, rt->scratch, depth * sizeof *rt->scratch);
  rt->n_pool += depth;
  return true;
}

/* A new stack: fresh, or the previous one with some innermost frames
 * popped and others pushed (what a running program mostly does). */
static void
op_sample (Roundtrip *rt,
           bool       fresh)
{
  Script *s = &rt->script;
  ThreadRec *t;
  uint32_t prev, offset;
  uint16_t prev_depth, depth = 0;
  uint64_t timestamp_us;
  uint8_t status;

  if (rt->n_samples >= MAX_SAMPLES || rt->n_frames == 0)
    return;

  t = pick_thread (rt);
  timestamp_us = pick_timestamp (rt, t);
  status = take_u8 (s);
  last_stack (rt, t, &prev, &prev_depth);

  if (fresh)
    {
      uint8_t how = take_u8 (s);
      uint32_t r;

      switch (how % 4)
        {
        case 0: depth = 0; break;
        case 1: depth = take_u8 (s) % 16; break;
        case 2: depth = 250 + take_u8 (s) % 12; break;
        default: depth = take_u16 (s) % (MAX_PASSED_DEPTH + 1); break;
        }
      r = take_u32 (s);
      for (uint16_t i = 0; i < depth; i++)
        {
          /* Recursion (one frame over and over) or a pseudo-random mix. */
          rt->scratch[i] = pick_frame (rt, how & 0x80 ? r : r >> 8);
          if (!(how & 0x80))
            r = r * 1103515245u + 12345u;
        }
    }
  else
    {
      uint16_t pop = take_u8 (s) % 8, push = take_u8 (s) % 8;

      if (pop > prev_depth)
        pop = prev_depth;
      if (prev_depth - pop + push > MAX_PASSED_DEPTH)
        push = 0;
      for (uint16_t i = 0; i < push; i++)
        rt->scratch[i] = pick_frame (rt, take_u16 (s));
      if (prev_depth > pop)
        memcpy (rt->scratch + push, rt->pool + prev + pop,
                (size_t) (prev_depth - pop) * sizeof *rt->scratch);
      depth = (uint16_t) (push + prev_depth - pop);
    }

  if (!pool_add (rt, depth, &offset))
    return;
  add_sample (rt, t, timestamp_us, status, offset, depth);
}

/* A run of samples with the previous stack of a thread. */
static void
op_repeat (Roundtrip *rt)
{
  Script *s = &rt->script;
  ThreadRec *t = pick_thread (rt);
  uint8_t size = take_u8 (s);
  /* Mostly short runs; long ones fill CPython's 16 KiB RLE buffer, which
   * is then flushed as several REPEAT records. */
  uint32_t count = size & 0x80 ? 1 + take_u16 (s) % 12000 : 1 + size % 64;
  uint8_t delta = take_u8 (s);
  uint8_t status_a = take_u8 (s), status_b = take_u8 (s);
  uint8_t period = 1 + take_u8 (s) % 8;
  uint32_t stack;
  uint16_t depth;

  last_stack (rt, t, &stack, &depth);
  for (uint32_t i = 0; i < count && rt->n_samples < MAX_SAMPLES; i++)
    {
      /* Deltas of 0..255, and now and then a huge (10-byte) one. */
      uint64_t ts = delta == 0xff && i % 97 == 0 ? t->last_timestamp_us - 1
                                                 : t->last_timestamp_us + delta;

      add_sample (rt, t, ts, (i / period) % 2 ? status_b : status_a, stack, depth);
    }
}

static bool
stats_valid (const TachStats *st)
{
  if (!isfinite (st->duration_sec) || st->duration_sec < 0)
    return false;
  if (!isfinite (st->sample_rate) || st->sample_rate < 0)
    return false;
  if (st->has_error_rate && (!isfinite (st->error_rate) || st->error_rate < 0))
    return false;
  if (st->has_missed_samples && !isfinite (st->missed_samples))
    return false;
  return true;
}

static void
op_stats (Roundtrip *rt)
{
  Script *s = &rt->script;
  TachStats st;
  TachError error;
  TachStatus status;
  uint8_t flags;

  /* Set once: what a refused second call leaves behind is not specified. */
  if (rt->stats_tried)
    return;
  rt->stats_tried = true;

  memset (&st, 0, sizeof st);
  flags = take_u8 (s);
  st.present = true;
  st.block_size = flags & 0x80 ? 32 : 56;
  st.duration_sec = take_u8 (s) & 1 ? take_double (s) : take_u16 (s) / 100.0;
  st.sample_rate = take_u8 (s) & 1 ? take_double (s) : take_u16 (s) / 10.0;
  if (st.block_size == 56)
    {
      st.flags = flags & (TACH_STATS_ERROR_RATE | TACH_STATS_MISSED);
      st.has_error_rate = (st.flags & TACH_STATS_ERROR_RATE) != 0;
      st.has_missed_samples = (st.flags & TACH_STATS_MISSED) != 0;
      if (st.has_error_rate)
        st.error_rate = take_u8 (s) & 1 ? take_double (s) : take_u8 (s) / 4.0;
      if (st.has_missed_samples)
        st.missed_samples = take_u8 (s) & 1 ? take_double (s) : take_u8 (s) / 4.0;
    }

  status = tach_writer_set_stats (rt->writer, &st, &error);
  if (stats_valid (&st))
    CHECK_ERR (status == TACH_OK, &error);
  else
    CHECK (status != TACH_OK && error.message[0] != '\0');

  rt->stats_set = status == TACH_OK;
  rt->stats = st;
}

/* ------------------------------------------------------------------------ */
/* Reading back                                                              */
/* ------------------------------------------------------------------------ */

/* What CPython's bytes.decode ("utf-8", "replace") gives: each maximal
 * invalid subpart becomes one U+FFFD.  OUT holds 3 * LEN bytes. */
static size_t
utf8_replace (const unsigned char *s,
              size_t               len,
              char                *out)
{
  size_t i = 0, o = 0;

  while (i < len)
    {
      unsigned char c = s[i];
      unsigned char lo, hi;
      size_t n, k;

      if (c < 0x80)
        {
          out[o++] = (char) c;
          i++;
          continue;
        }
      n = fuzz_utf8_lead (c, &lo, &hi);

      for (k = 1; n > 0 && k <= n && i + k < len; k++)
        {
          unsigned char b = s[i + k];

          if (k == 1 ? b < lo || b > hi : b < 0x80 || b > 0xbf)
            break;
        }

      if (n > 0 && k == n + 1)
        {
          memcpy (out + o, s + i, n + 1);
          o += n + 1;
          i += n + 1;
        }
      else
        {
          memcpy (out + o, "\xef\xbf\xbd", 3);
          o += 3;
          i += n > 0 ? k : 1;
        }
    }
  return o;
}

static void
check_string (const TachReader *reader,
              uint32_t          index,
              const char       *written)
{
  size_t len = strlen (written);
  char *expected = xrealloc (NULL, 3 * len + 1);
  size_t expected_len = utf8_replace ((const unsigned char *) written, len, expected);
  size_t got_len = SIZE_MAX;
  const char *got = tach_reader_get_string (reader, index, &got_len);

  CHECK (got != NULL);
  if (got_len != expected_len || memcmp (got, expected, expected_len) != 0)
    {
      fprintf (stderr, "string %u: written \"%s\" (%zu bytes), expected %zu bytes, "
               "read back \"%s\" (%zu bytes)\n",
               index, written, len, expected_len, got, got_len);
      CHECK (got_len == expected_len);
      CHECK (memcmp (got, expected, expected_len) == 0);
    }
  CHECK (got[got_len] == '\0');
  free (expected);
}

/* Threads that got at least one sample (an operation can pick a thread
 * and then find no room for its sample). */
static uint32_t
count_threads (const Roundtrip *rt)
{
  uint32_t n = 0;

  for (uint32_t i = 0; i < rt->n_threads; i++)
    if (rt->threads[i].n_samples > 0)
      n++;
  return n;
}

static void
check_frames (const Roundtrip  *rt,
              const TachReader *reader)
{
  CHECK (tach_reader_get_n_frames (reader) == rt->n_indices);
  CHECK (tach_reader_get_n_strings (reader) == rt->strings.n_entries);

  for (uint32_t i = 0; i < rt->strings.n_entries; i++)
    check_string (reader, i, rt->strings.by_value[i]->key);

  for (uint32_t i = 0; i < rt->n_frames; i++)
    {
      const FrameRec *rec = &rt->frames[i];
      const TachFrameInfo *info = &rec->info;
      const TachFrame *frame = tach_reader_get_frame (reader, rec->index);
      int32_t end_lineno, end_column;

      CHECK (frame != NULL);
      CHECK (frame->filename == rec->filename_idx);
      CHECK (frame->funcname == rec->funcname_idx);

      /* SPEC §6.2: a missing end reads back as the start. */
      if (info->lineno == -1)
        end_lineno = -1;
      else
        end_lineno = info->end_lineno == -1 ? info->lineno : info->end_lineno;
      if (info->column == -1)
        end_column = -1;
      else
        end_column = info->end_column == -1 ? info->column : info->end_column;

      if (frame->lineno != info->lineno || frame->end_lineno != end_lineno
          || frame->column != info->column || frame->end_column != end_column
          || frame->opcode != normalize_opcode (info->opcode))
        {
          fprintf (stderr, "frame %u: written (%d, %d, %d, %d, op %d), expected "
                   "(%d, %d, %d, %d, op %u), read back (%d, %d, %d, %d, op %u)\n",
                   rec->index, info->lineno, info->end_lineno, info->column,
                   info->end_column, info->opcode, info->lineno, end_lineno,
                   info->column, end_column, normalize_opcode (info->opcode),
                   frame->lineno, frame->end_lineno, frame->column, frame->end_column,
                   frame->opcode);
          CHECK (frame->lineno == info->lineno);
          CHECK (frame->end_lineno == end_lineno);
          CHECK (frame->column == info->column);
          CHECK (frame->end_column == end_column);
          CHECK (frame->opcode == normalize_opcode (info->opcode));
        }
    }
}

static void
check_header (const Roundtrip  *rt,
              const TachReader *reader,
              const char       *path)
{
  const TachWriterOptions *o = &rt->options;
  const TachHeader *header = tach_reader_get_header (reader);
  const TachFooter *footer = tach_reader_get_footer (reader);
  const TachStats *stats = tach_reader_get_stats (reader);
  struct stat st;

  CHECK (stat (path, &st) == 0);
  CHECK (tach_reader_get_file_size (reader) == (uint64_t) st.st_size);
  CHECK (footer->file_size == (uint64_t) st.st_size);
  CHECK (footer->string_count == rt->strings.n_entries);
  CHECK (footer->frame_count == rt->n_indices);

  CHECK (header->version == 1);
  CHECK (header->big_endian == o->big_endian);
  if (o->python_major == 0)
    CHECK (header->python_major == 3 && header->python_minor == 15 && header->python_micro == 0);
  else
    CHECK (header->python_major == o->python_major
           && header->python_minor == o->python_minor
           && header->python_micro == o->python_micro);
  CHECK (header->start_time_us == o->start_time_us);
  CHECK (header->sample_interval_us == o->sample_interval_us);
  CHECK (header->sample_count == rt->n_samples);
  CHECK (header->thread_count == count_threads (rt));
  CHECK (header->compression_type == (o->zstd ? 1u : 0u));
  CHECK (header->mode_raw == o->mode_raw);
  if (o->mode_raw >= 1 && o->mode_raw <= 5)
    CHECK (header->mode == (TachMode) (o->mode_raw - 1));
  if (o->mode_raw == 0)
    CHECK (header->mode == TACH_MODE_UNKNOWN);

  /* A file of ours has nothing to warn about, unless offset 60 holds
   * something that is not a mode. */
  if (o->mode_raw <= 5 && tach_reader_get_n_warnings (reader) != 0)
    {
      fprintf (stderr, "unexpected warning: %s\n", tach_reader_get_warning (reader, 0));
      CHECK (tach_reader_get_n_warnings (reader) == 0);
    }

  CHECK (stats->present == rt->stats_set);
  if (rt->stats_set)
    {
      const TachStats *w = &rt->stats;

      CHECK (stats->block_size == w->block_size);
      CHECK (stats->block_offset == (uint64_t) st.st_size - TACH_FOOTER_SIZE - w->block_size);
      CHECK (memcmp (&stats->duration_sec, &w->duration_sec, sizeof (double)) == 0);
      CHECK (memcmp (&stats->sample_rate, &w->sample_rate, sizeof (double)) == 0);
      CHECK (stats->has_error_rate == w->has_error_rate);
      CHECK (stats->has_missed_samples == w->has_missed_samples);
      if (w->has_error_rate)
        CHECK (memcmp (&stats->error_rate, &w->error_rate, sizeof (double)) == 0);
      if (w->has_missed_samples)
        CHECK (memcmp (&stats->missed_samples, &w->missed_samples, sizeof (double)) == 0);
      if (w->block_size == 56)
        CHECK (stats->flags == w->flags);
    }
}

#ifndef FUZZ_NO_KIND_CHECK
/* The record CPython's writer emits for a change of stack (SPEC §4.9). */
static void
check_kind (const TachSample *sample,
            const uint32_t   *prev,
            uint16_t          prev_depth,
            const uint32_t   *cur,
            uint16_t          cur_depth)
{
  uint16_t shared = 0;

  if (prev_depth == cur_depth && memcmp (prev, cur, cur_depth * sizeof *cur) == 0)
    {
      CHECK (sample->kind == TACH_RECORD_REPEAT);
      return;
    }

  while (shared < prev_depth && shared < cur_depth
         && prev[prev_depth - 1 - shared] == cur[cur_depth - 1 - shared])
    shared++;

  if (shared == 0)
    CHECK (sample->kind == TACH_RECORD_FULL);
  else if (shared == prev_depth)
    CHECK (sample->kind == TACH_RECORD_SUFFIX);
  else if (shared < cur_depth / 2)
    CHECK (sample->kind == TACH_RECORD_FULL);
  else
    CHECK (sample->kind == TACH_RECORD_POP_PUSH);

  if (sample->kind != TACH_RECORD_FULL)
    {
      CHECK (sample->keep == shared);
      CHECK (sample->push == cur_depth - shared);
    }
}
#endif

static void
check_samples (Roundtrip  *rt,
               TachReader *reader)
{
  TachDecoder *decoder = NULL;
  TachError error;
  TachSample sample;
  ThreadRec **by_index = NULL;
  uint32_t n_by_index = 0;
  uint64_t n_read = 0;
  int r;

  CHECK_ERR (tach_decoder_new (reader, &decoder, &error) == TACH_OK, &error);

  while ((r = tach_decoder_next (decoder, &sample, &error)) == 1)
    {
      const SampleRec *rec;
      const uint32_t *written;
      ThreadRec *t;
      uint16_t depth;

      n_read++;
      if (sample.thread_index >= n_by_index)
        {
          CHECK (sample.thread_index == n_by_index);
          t = NULL;
          for (uint32_t i = 0; i < rt->n_threads; i++)
            if (rt->threads[i].thread_id == sample.thread_id
                && rt->threads[i].interpreter_id == sample.interpreter_id)
              t = &rt->threads[i];
          CHECK (t != NULL);
          by_index = xrealloc (by_index, (n_by_index + 1) * sizeof *by_index);
          by_index[n_by_index++] = t;
        }
      t = by_index[sample.thread_index];
      CHECK (t->thread_id == sample.thread_id);
      CHECK (t->interpreter_id == sample.interpreter_id);

      /* Each thread's samples come back in the order they were written. */
      CHECK (t->next < t->n_samples);
      rec = &t->samples[t->next++];
      depth = rec->depth < TACH_MAX_STACK_DEPTH ? rec->depth : TACH_MAX_STACK_DEPTH;
      written = depth > 0 ? rt->pool + rec->stack : t->read_stack;

      CHECK (sample.timestamp_us == rec->timestamp_us);
      CHECK (sample.status == rec->status);
      CHECK (sample.depth == depth);
      CHECK (depth == 0 || memcmp (sample.stack, written, depth * sizeof *written) == 0);
#ifndef FUZZ_NO_KIND_CHECK
      check_kind (&sample, t->read_stack, t->read_depth, written, depth);
#endif
      t->read_depth = depth;
      if (depth > 0)
        memcpy (t->read_stack, written, depth * sizeof *written);
    }
  CHECK_ERR (r == 0, &error);
  CHECK (n_read == rt->n_samples);
  CHECK (n_by_index == count_threads (rt));
  CHECK (tach_decoder_get_n_threads (decoder) == n_by_index);
  for (uint32_t i = 0; i < rt->n_threads; i++)
    CHECK (rt->threads[i].next == rt->threads[i].n_samples);

  free (by_index);
  tach_decoder_free (decoder);
}

/* ------------------------------------------------------------------------ */

static void
read_options (Roundtrip *rt)
{
  Script *s = &rt->script;
  TachWriterOptions *o = &rt->options;
  uint8_t flags = take_u8 (s);
  static const int levels[] = { 0, 1, 3, -1 };

  memset (o, 0, sizeof *o);
  o->big_endian = (flags & 0x01) != 0;
  o->zstd = (flags & 0x02) != 0;
  o->zstd_level = levels[(flags >> 2) & 3];
  if (flags & 0x10)
    {
      o->python_major = take_u8 (s);
      o->python_minor = take_u8 (s);
      o->python_micro = take_u8 (s);
      if (o->python_major == 0)
        o->python_minor = o->python_micro = 0;
    }
  o->start_time_us = flags & 0x20 ? take_u64 (s) : 1000000;
  o->sample_interval_us = flags & 0x40 ? take_u64 (s) : 1000;
  o->mode_raw = flags & 0x80 ? take_u32 (s) : take_u8 (s) % 6;
}

static void
roundtrip_clear (Roundtrip *rt)
{
  table_clear (&rt->strings);
  table_clear (&rt->frame_keys);
  free (rt->frames);
  free (rt->pool);
  for (uint32_t i = 0; i < rt->n_threads; i++)
    free (rt->threads[i].samples);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  static Roundtrip rt;
  const char *path = temp_path ();
  TachError error;
  TachReader *reader = NULL;
  bool abandoned = false;

  memset (&rt, 0, sizeof rt);
  for (int i = 0; i < N_THREAD_SLOTS; i++)
    rt.slot_thread[i] = -1;
  rt.script.p = data;
  rt.script.n = size;

  read_options (&rt);
  rt.last_timestamp_us = rt.options.start_time_us;

  unlink (path);
  CHECK_ERR (tach_writer_new (path, &rt.options, &rt.writer, &error) == TACH_OK, &error);

  while (rt.script.n > 0 && !abandoned)
    {
      uint8_t op = take_u8 (&rt.script);

      switch (op % 16)
        {
        case 0: case 1: case 2: case 3:
          op_intern_new (&rt);
          break;
        case 4:
          op_intern_again (&rt);
          break;
        case 5: case 6: case 7: case 8: case 9:
          op_sample (&rt, false);
          break;
        case 10: case 11:
          op_sample (&rt, true);
          break;
        case 12: case 13:
          op_repeat (&rt);
          break;
        case 14:
          op_stats (&rt);
          break;
        default:
          /* Abandoning the file is rare: 0xff only. */
          if (op == 0xff)
            abandoned = true;
          break;
        }
    }

  if (abandoned)
    {
      tach_writer_abort (rt.writer);
      CHECK (access (path, F_OK) != 0);
      roundtrip_clear (&rt);
      return 0;
    }

  CHECK_ERR (tach_writer_finish (rt.writer, &error) == TACH_OK, &error);
  rt.writer = NULL;

  CHECK_ERR (tach_reader_open_path (path, &reader, &error) == TACH_OK, &error);
  check_header (&rt, reader, path);
  check_frames (&rt, reader);
  check_samples (&rt, reader);
  if (getenv ("FUZZ_ROUNDTRIP_VERBOSE") != NULL)
    fprintf (stderr, "roundtrip: %s%s, %llu samples, %u threads, %u frames, %u strings, "
             "stats %s, %llu bytes\n",
             rt.options.big_endian ? "big-endian" : "little-endian",
             rt.options.zstd ? " zstd" : "",
             (unsigned long long) rt.n_samples, count_threads (&rt), rt.n_indices,
             rt.strings.n_entries, rt.stats_set ? "set" : "none",
             (unsigned long long) tach_reader_get_file_size (reader));
  tach_reader_free (reader);

  unlink (path);
  roundtrip_clear (&rt);
  return 0;
}
