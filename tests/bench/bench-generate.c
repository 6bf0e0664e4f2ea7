/* bench-generate.c: tachyon-bench --generate, a synthetic profile
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The profile is what CPython's sampler would record from a threaded server
 * in wall-clock mode: a main thread running an event loop, a few idle pool
 * threads, I/O threads blocked in recv, and CPU workers that alternate
 * between Python code (fighting for the GIL) and C code that releases it.
 * One tick every millisecond; every live thread gives one sample per tick,
 * all with the tick's timestamp.  Only the thread that holds the GIL moves
 * its stack, so most samples repeat the previous stack of their thread.
 * Everything comes from one seeded generator: the same seed gives the same
 * file.
 */

#include <math.h>
#include <stdio.h>
#include <string.h>

#include <glib/gstdio.h>

#include "bench.h"
#include "tv-json.h"

/* CPython's profiler stores no more than 256 frames; the generator stays
 * below that, as real programs nearly always do. */
#define GEN_MAX_DEPTH 200

#define GEN_INTERVAL_US 1000

/* ------------------------------------------------------------------------ */
/* Deterministic random numbers: xoshiro256** seeded by splitmix64           */
/* ------------------------------------------------------------------------ */

typedef struct
{
  guint64 s[4];
} Rng;

static guint64
splitmix64 (guint64 *x)
{
  guint64 z = (*x += 0x9e3779b97f4a7c15ull);

  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

static void
rng_init (Rng     *rng,
          guint64  seed)
{
  for (guint i = 0; i < 4; i++)
    rng->s[i] = splitmix64 (&seed);
}

static inline guint64
rotl (guint64 x,
      int     k)
{
  return (x << k) | (x >> (64 - k));
}

static inline guint64
rng_next (Rng *rng)
{
  guint64 *s = rng->s;
  guint64 result = rotl (s[1] * 5, 7) * 9;
  guint64 t = s[1] << 17;

  s[2] ^= s[0];
  s[3] ^= s[1];
  s[1] ^= s[2];
  s[0] ^= s[3];
  s[2] ^= t;
  s[3] = rotl (s[3], 45);
  return result;
}

/* Uniform in [0, n), n > 0. */
static inline guint32
rng_below (Rng     *rng,
           guint32  n)
{
  return (guint32) (((rng_next (rng) >> 32) * (guint64) n) >> 32);
}

/* Uniform in [lo, hi]. */
static inline guint32
rng_range (Rng     *rng,
           guint32  lo,
           guint32  hi)
{
  return lo + rng_below (rng, hi - lo + 1);
}

/* Uniform in [0, 1). */
static inline double
rng_double (Rng *rng)
{
  return (double) (rng_next (rng) >> 11) * 0x1.0p-53;
}

static inline gboolean
rng_chance (Rng    *rng,
            double  p)
{
  return rng_double (rng) < p;
}

/* Geometric-ish duration with the given mean, at least 1. */
static guint32
rng_duration (Rng    *rng,
              double  mean)
{
  double d = -mean * log (1.0 - rng_double (rng));

  return d < 1.0 ? 1 : d > 1e7 ? 10000000 : (guint32) d;
}

/* ------------------------------------------------------------------------ */
/* --generate: the synthetic program                                         */
/* ------------------------------------------------------------------------ */

#define STDLIB "/usr/lib/python3.15/"
#define SITE   "/home/dev/shipyard/.venv/lib/python3.15/site-packages/"
#define PROJ   "/home/dev/shipyard/src/shipyard/"

typedef enum
{
  GROUP_STDLIB,
  GROUP_SITE,
  GROUP_PROJECT,
  GROUP_SYNTHETIC,
  N_GROUPS
} Group;

static const char *const stdlib_files[] = {
  STDLIB "threading.py", STDLIB "queue.py", STDLIB "selectors.py",
  STDLIB "socket.py", STDLIB "ssl.py", STDLIB "concurrent/futures/thread.py",
  STDLIB "asyncio/base_events.py", STDLIB "asyncio/events.py",
  STDLIB "asyncio/tasks.py", STDLIB "json/encoder.py", STDLIB "json/decoder.py",
  STDLIB "re/_parser.py", STDLIB "re/_compiler.py", STDLIB "functools.py",
  STDLIB "collections/__init__.py", STDLIB "logging/__init__.py",
  STDLIB "copy.py", STDLIB "typing.py", STDLIB "enum.py",
  STDLIB "dataclasses.py", STDLIB "posixpath.py", STDLIB "pathlib/_local.py",
  STDLIB "http/client.py", STDLIB "email/feedparser.py", STDLIB "ast.py",
  STDLIB "tokenize.py", STDLIB "pickle.py", STDLIB "gzip.py",
  STDLIB "hashlib.py", STDLIB "zipfile/__init__.py", STDLIB "inspect.py",
  STDLIB "traceback.py", STDLIB "linecache.py", STDLIB "csv.py",
  STDLIB "string/__init__.py", STDLIB "weakref.py", STDLIB "contextlib.py",
  "<frozen importlib._bootstrap>", "<frozen importlib._bootstrap_external>",
};

static const char *const site_files[] = {
  SITE "requests/sessions.py", SITE "requests/adapters.py",
  SITE "urllib3/connectionpool.py", SITE "urllib3/response.py",
  SITE "sqlalchemy/orm/session.py", SITE "sqlalchemy/orm/query.py",
  SITE "sqlalchemy/engine/base.py", SITE "sqlalchemy/sql/compiler.py",
  SITE "jinja2/environment.py", SITE "jinja2/runtime.py",
  SITE "pydantic/main.py", SITE "pydantic/_internal/_validators.py",
  SITE "numpy/_core/fromnumeric.py", SITE "numpy/_core/numeric.py",
  SITE "yaml/constructor.py", SITE "yaml/scanner.py", SITE "click/core.py",
  SITE "attr/_make.py", SITE "msgpack/fallback.py",
};

static const char *const project_files[] = {
  PROJ "app.py", PROJ "cli.py", PROJ "worker.py", PROJ "scheduler.py",
  PROJ "db.py", PROJ "cache.py", PROJ "config.py", PROJ "models/order.py",
  PROJ "models/customer.py", PROJ "models/invoice.py",
  PROJ "pipeline/stages.py", PROJ "pipeline/transform.py",
  PROJ "pipeline/parse.py", PROJ "pipeline/validate.py",
  PROJ "api/handlers.py", PROJ "api/serializers.py", PROJ "utils/text.py",
  PROJ "utils/tree.py", PROJ "utils/retry.py", PROJ "reports/render.py",
  PROJ "reports/aggregate.py",
};

static const char *const verbs[] = {
  "get", "load", "parse", "handle", "compute", "render", "visit", "dispatch",
  "update", "query", "emit", "flush", "read", "write", "send", "encode",
  "decode", "validate", "transform", "merge", "resolve", "build", "apply",
  "process", "collect", "iter", "match", "compile", "format", "execute",
};

static const char *const nouns[] = {
  "items", "row", "node", "token", "request", "response", "record", "batch",
  "chunk", "header", "field", "value", "config", "message", "frame", "block",
  "entry", "key", "path", "event", "result", "schema", "column", "line",
};

static const char *const classes[] = {
  "Session", "Parser", "Encoder", "Worker", "Scheduler", "Query", "Engine",
  "Environment", "Compiler", "Template", "Model", "Validator", "Reader",
  "Writer", "Connection", "Pool", "Cache", "Order", "Invoice", "Pipeline",
  "Stage", "Node", "Tree", "Handler", "Serializer", "Tokenizer",
};

/* Functions the thread roles are built from: entry points, the frames
 * threads wait in, the frames native work runs under. */
typedef enum
{
  FN_RUNPY_MAIN,
  FN_RUNPY_CODE,
  FN_MAIN_MODULE,
  FN_APP_MAIN,
  FN_RUN_UNTIL_COMPLETE,
  FN_RUN_FOREVER,
  FN_RUN_ONCE,
  FN_SELECT,
  FN_HANDLE_RUN,
  FN_BOOTSTRAP,
  FN_BOOTSTRAP_INNER,
  FN_THREAD_RUN,
  FN_POOL_WORKER,
  FN_QUEUE_GET,
  FN_CONDITION_WAIT,
  FN_IO_SERVE,
  FN_SOCKET_READINTO,
  FN_SSL_RECV_INTO,
  FN_SSL_READ,
  FN_CPU_RUN,
  FN_NUMPY_DOT,
  FN_HASHLIB_FILE_DIGEST,
  FN_GZIP_WRITE,
  FN_GC,
  FN_NATIVE,
  N_FIXED_FUNCTIONS
} FixedFunction;

static const struct
{
  const char *filename;
  const char *name;
  int         line;
  Group       group;
} fixed_functions[N_FIXED_FUNCTIONS] = {
  [FN_RUNPY_MAIN] = { "<frozen runpy>", "_run_module_as_main", 198, GROUP_STDLIB },
  [FN_RUNPY_CODE] = { "<frozen runpy>", "_run_code", 88, GROUP_STDLIB },
  [FN_MAIN_MODULE] = { PROJ "__main__.py", "<module>", 1, GROUP_PROJECT },
  [FN_APP_MAIN] = { PROJ "app.py", "main", 212, GROUP_PROJECT },
  [FN_RUN_UNTIL_COMPLETE] = { STDLIB "asyncio/base_events.py",
                              "BaseEventLoop.run_until_complete", 706, GROUP_STDLIB },
  [FN_RUN_FOREVER] = { STDLIB "asyncio/base_events.py",
                       "BaseEventLoop.run_forever", 677, GROUP_STDLIB },
  [FN_RUN_ONCE] = { STDLIB "asyncio/base_events.py",
                    "BaseEventLoop._run_once", 1985, GROUP_STDLIB },
  [FN_SELECT] = { STDLIB "selectors.py", "EpollSelector.select", 451, GROUP_STDLIB },
  [FN_HANDLE_RUN] = { STDLIB "asyncio/events.py", "Handle._run", 86, GROUP_STDLIB },
  [FN_BOOTSTRAP] = { STDLIB "threading.py", "Thread._bootstrap", 1012, GROUP_STDLIB },
  [FN_BOOTSTRAP_INNER] = { STDLIB "threading.py", "Thread._bootstrap_inner", 1041,
                           GROUP_STDLIB },
  [FN_THREAD_RUN] = { STDLIB "threading.py", "Thread.run", 990, GROUP_STDLIB },
  [FN_POOL_WORKER] = { STDLIB "concurrent/futures/thread.py", "_worker", 89, GROUP_STDLIB },
  [FN_QUEUE_GET] = { STDLIB "queue.py", "Queue.get", 171, GROUP_STDLIB },
  [FN_CONDITION_WAIT] = { STDLIB "threading.py", "Condition.wait", 339, GROUP_STDLIB },
  [FN_IO_SERVE] = { PROJ "worker.py", "IOWorker.serve", 57, GROUP_PROJECT },
  [FN_SOCKET_READINTO] = { STDLIB "socket.py", "SocketIO.readinto", 705, GROUP_STDLIB },
  [FN_SSL_RECV_INTO] = { STDLIB "ssl.py", "SSLSocket.recv_into", 1245, GROUP_STDLIB },
  [FN_SSL_READ] = { STDLIB "ssl.py", "SSLSocket.read", 1101, GROUP_STDLIB },
  [FN_CPU_RUN] = { PROJ "worker.py", "CpuWorker.run", 131, GROUP_PROJECT },
  [FN_NUMPY_DOT] = { SITE "numpy/_core/multiarray.py", "dot", 757, GROUP_SITE },
  [FN_HASHLIB_FILE_DIGEST] = { STDLIB "hashlib.py", "file_digest", 195, GROUP_STDLIB },
  [FN_GZIP_WRITE] = { STDLIB "gzip.py", "GzipFile.write", 272, GROUP_STDLIB },
  [FN_GC] = { "~", "<GC>", -1, GROUP_SYNTHETIC },
  [FN_NATIVE] = { "~", "<native>", -1, GROUP_SYNTHETIC },
};

typedef struct
{
  guint32 func;
  guint32 frame;                  /* writer index, G_MAXUINT32 until used */
  gint32  lineno;
  gint32  end_lineno;
  gint32  column;
  gint32  end_column;
  gint32  opcode;
} Site;

typedef struct
{
  const char *filename;
  char       *name;
  Group       group;
  gboolean    recursive;
  guint32     first_site;
  guint32     n_sites;
  guint32    *callees;
  guint32     n_callees;
} Func;

typedef enum
{
  ROLE_MAIN,
  ROLE_IDLE,                      /* pool thread waiting for work */
  ROLE_IO,                        /* blocked in recv, wakes up briefly */
  ROLE_CPU,                       /* computes, fights for the GIL */
} Role;

typedef enum
{
  ACT_WAIT,                       /* blocked, GIL released */
  ACT_PYTHON,                     /* wants the GIL to run Python code */
  ACT_NATIVE,                     /* in C code with the GIL released */
} Activity;

typedef struct
{
  guint64   tid;
  Role      role;
  guint64   start_tick;
  guint64   end_tick;             /* G_MAXUINT64: lives to the end */
  guint32   empty_ticks;          /* samples with no Python frame yet */
  gboolean  empty_now;
  Activity  activity;
  guint32   remaining;            /* ticks left in this activity */
  guint32   exception_ticks;
  guint32   target_depth;
  guint32   base_depth;           /* the role's fixed outer frames */
  guint32   floor;                /* frames below this are not popped */
  guint32   depth;
  guint32   sites[GEN_MAX_DEPTH]; /* outermost first */
  guint32   frames[GEN_MAX_DEPTH];/* innermost first, for the writer */
  gboolean  dirty;
} SimThread;

typedef struct
{
  Rng         rng;
  TachWriter *writer;
  GPtrArray  *names;              /* owned function names */
  Func       *funcs;
  guint32     n_funcs;
  Site       *sites;
  guint32     n_sites;
  guint32    *by_group[N_GROUPS];
  guint32     n_by_group[N_GROUPS];
  guint32    *recursive;
  guint32     n_recursive;
  SimThread  *threads;
  guint32     n_threads;
  guint32     gil_holder;         /* thread index, or G_MAXUINT32 */
  guint32     gil_held_ticks;
  guint32    *waiters;
  guint64     tick;
  TachError   error;
  gboolean    failed;
} Gen;

static const gint32 opcodes[] = { 44, 52, 53, 61, 68, 88, 94, 100, 117, 122, 140, 150 };

static void
gen_add_sites (Gen     *gen,
               guint32  func,
               int      def_line,
               guint32  n_sites)
{
  Func *f = &gen->funcs[func];
  gboolean with_opcodes = rng_chance (&gen->rng, 0.3);
  guint32 body = rng_range (&gen->rng, 6, 140);

  f->first_site = gen->n_sites;
  f->n_sites = n_sites;
  for (guint32 i = 0; i < n_sites; i++)
    {
      Site *s = &gen->sites[gen->n_sites++];

      s->func = func;
      s->frame = G_MAXUINT32;
      s->opcode = TACH_OPCODE_NONE;
      if (def_line < 0)
        {
          s->lineno = s->end_lineno = s->column = s->end_column = -1;
          continue;
        }
      s->lineno = def_line + 1 + (gint32) rng_below (&gen->rng, body);
      s->end_lineno = s->lineno;
      if (rng_chance (&gen->rng, 0.15))
        s->end_lineno += (gint32) rng_range (&gen->rng, 1, 4);
      if (rng_chance (&gen->rng, 0.04))
        {
          s->column = s->end_column = -1;
        }
      else
        {
          s->column = 4 * (gint32) rng_range (&gen->rng, 1, 5);
          s->end_column = s->column + (gint32) rng_range (&gen->rng, 3, 70);
        }
      if (with_opcodes)
        s->opcode = opcodes[rng_below (&gen->rng, G_N_ELEMENTS (opcodes))];
    }
}

static guint32
gen_pick_in_group (Gen   *gen,
                   Group  group)
{
  return gen->by_group[group][rng_below (&gen->rng, gen->n_by_group[group])];
}

/* Builds a few hundred functions over the files above, and a call graph in
 * which project code calls project code, libraries and the stdlib, the
 * libraries call themselves and the stdlib, and the stdlib calls itself. */
static void
gen_build_program (Gen *gen)
{
  guint32 max_funcs = N_FIXED_FUNCTIONS
                      + 8 * (G_N_ELEMENTS (stdlib_files) + G_N_ELEMENTS (site_files)
                             + G_N_ELEMENTS (project_files));
  guint32 n;

  gen->funcs = g_new0 (Func, max_funcs);
  gen->sites = g_new0 (Site, max_funcs * 10);
  gen->names = g_ptr_array_new_with_free_func (g_free);

  for (guint32 i = 0; i < N_FIXED_FUNCTIONS; i++)
    {
      Func *f = &gen->funcs[gen->n_funcs];

      f->filename = fixed_functions[i].filename;
      f->name = g_strdup (fixed_functions[i].name);
      f->group = fixed_functions[i].group;
      g_ptr_array_add (gen->names, f->name);
      gen_add_sites (gen, gen->n_funcs, fixed_functions[i].line,
                     fixed_functions[i].line < 0 ? 1 : rng_range (&gen->rng, 1, 4));
      gen->n_funcs++;
    }

  for (guint32 g = 0; g < 3; g++)
    {
      const char *const *files = g == GROUP_STDLIB ? stdlib_files
                                 : g == GROUP_SITE ? site_files : project_files;
      guint32 n_files = g == GROUP_STDLIB ? G_N_ELEMENTS (stdlib_files)
                        : g == GROUP_SITE ? G_N_ELEMENTS (site_files)
                        : G_N_ELEMENTS (project_files);

      for (guint32 i = 0; i < n_files; i++)
        {
          guint32 n_in_file = rng_range (&gen->rng, 2, 8);
          const char *cls = classes[rng_below (&gen->rng, G_N_ELEMENTS (classes))];
          int line = (int) rng_range (&gen->rng, 10, 60);

          for (guint32 k = 0; k < n_in_file; k++)
            {
              Func *f = &gen->funcs[gen->n_funcs];
              const char *verb = verbs[rng_below (&gen->rng, G_N_ELEMENTS (verbs))];
              const char *noun = nouns[rng_below (&gen->rng, G_N_ELEMENTS (nouns))];
              double kind = rng_double (&gen->rng);

              f->filename = files[i];
              f->group = (Group) g;
              if (kind < 0.45)
                f->name = g_strdup_printf ("%s.%s_%s", cls, verb, noun);
              else if (kind < 0.60)
                f->name = g_strdup_printf ("%s._%s_%s", cls, verb, noun);
              else if (kind < 0.63)
                f->name = g_strdup_printf ("%s_%s.<locals>.<genexpr>", verb, noun);
              else if (kind < 0.66)
                f->name = g_strdup_printf ("%s.%s.<locals>.<lambda>", cls, verb);
              else
                f->name = g_strdup_printf ("%s_%s", verb, noun);
              g_ptr_array_add (gen->names, f->name);
              gen_add_sites (gen, gen->n_funcs, line, rng_range (&gen->rng, 2, 9));
              line += (int) rng_range (&gen->rng, 15, 180);
              gen->n_funcs++;
            }
        }
    }

  n = gen->n_funcs;
  for (guint32 g = 0; g < N_GROUPS; g++)
    gen->by_group[g] = g_new0 (guint32, n);
  gen->recursive = g_new0 (guint32, n);
  for (guint32 i = N_FIXED_FUNCTIONS; i < n; i++)
    {
      Group g = gen->funcs[i].group;

      gen->by_group[g][gen->n_by_group[g]++] = i;
    }

  for (guint32 i = 0; i < n; i++)
    {
      Func *f = &gen->funcs[i];
      guint32 n_callees;

      if (i < N_FIXED_FUNCTIONS)
        {
          /* Roles push their own frames under these; only the places where
           * work starts get callees. */
          if (i != FN_APP_MAIN && i != FN_HANDLE_RUN && i != FN_POOL_WORKER
              && i != FN_IO_SERVE && i != FN_CPU_RUN)
            continue;
          n_callees = 12;
        }
      else if (f->group != GROUP_PROJECT && rng_chance (&gen->rng, 0.2))
        {
          continue;                 /* a leaf */
        }
      else
        {
          n_callees = rng_range (&gen->rng, 2, 7);
        }

      f->callees = g_new0 (guint32, n_callees + 1);
      for (guint32 k = 0; k < n_callees; k++)
        {
          double r = rng_double (&gen->rng);
          Group g;

          if (f->group == GROUP_PROJECT)
            g = r < 0.55 ? GROUP_PROJECT : r < 0.8 ? GROUP_SITE : GROUP_STDLIB;
          else if (f->group == GROUP_SITE)
            g = r < 0.6 ? GROUP_SITE : GROUP_STDLIB;
          else
            g = GROUP_STDLIB;
          f->callees[f->n_callees++] = gen_pick_in_group (gen, g);
        }

      /* Tree walkers, parsers, deep copies, encoders: functions that call
       * themselves. */
      if (i >= N_FIXED_FUNCTIONS && rng_chance (&gen->rng, 0.04))
        {
          f->recursive = TRUE;
          f->callees[f->n_callees++] = i;
          gen->recursive[gen->n_recursive++] = i;
        }
    }

  /* Make sure there is something to recurse in. */
  if (gen->n_recursive == 0)
    {
      guint32 i = gen->by_group[GROUP_PROJECT][0];

      gen->funcs[i].recursive = TRUE;
      gen->recursive[gen->n_recursive++] = i;
    }
}

static void
gen_free_program (Gen *gen)
{
  for (guint32 i = 0; i < gen->n_funcs; i++)
    g_free (gen->funcs[i].callees);
  g_free (gen->funcs);
  g_free (gen->sites);
  for (guint32 g = 0; g < N_GROUPS; g++)
    g_free (gen->by_group[g]);
  g_free (gen->recursive);
  g_ptr_array_unref (gen->names);
  g_free (gen->threads);
  g_free (gen->waiters);
}

static guint32
gen_random_site (Gen     *gen,
                 guint32  func)
{
  const Func *f = &gen->funcs[func];

  return f->first_site + rng_below (&gen->rng, f->n_sites);
}

static guint32
top_func (Gen       *gen,
          SimThread *th)
{
  return gen->sites[th->sites[th->depth - 1]].func;
}

static gboolean
push_site (SimThread *th,
           guint32    site)
{
  if (th->depth >= GEN_MAX_DEPTH)
    return FALSE;
  th->sites[th->depth++] = site;
  th->dirty = TRUE;
  return TRUE;
}

static void
pop_to (SimThread *th,
        guint32    depth)
{
  if (depth < th->depth)
    {
      th->depth = depth;
      th->dirty = TRUE;
    }
}

/* The line being executed in the innermost frame moves on. */
static void
move_top_line (Gen       *gen,
               SimThread *th)
{
  if (th->depth > th->floor)
    {
      th->sites[th->depth - 1] = gen_random_site (gen, top_func (gen, th));
      th->dirty = TRUE;
    }
}

/* Calls down from the innermost frame, up to COUNT frames deep. */
static void
push_calls (Gen       *gen,
            SimThread *th,
            guint32    count)
{
  for (guint32 i = 0; i < count; i++)
    {
      const Func *f = &gen->funcs[top_func (gen, th)];
      guint32 callee;

      if (f->n_callees == 0)
        return;
      callee = f->callees[rng_below (&gen->rng, f->n_callees)];
      /* Recursion happens in bursts (below), not one frame at a time,
       * or every walk would end up in a recursive function. */
      if (callee == top_func (gen, th) && f->n_callees > 1)
        callee = f->callees[0];
      if (!push_site (th, gen_random_site (gen, callee)))
        return;
    }
}

static guint32
random_target_depth (Gen *gen)
{
  double r = rng_double (&gen->rng);

  if (r < 0.70)
    return rng_range (&gen->rng, 8, 40);
  if (r < 0.95)
    return rng_range (&gen->rng, 40, 100);
  return rng_range (&gen->rng, 100, GEN_MAX_DEPTH);
}

/* Pushes a recursive function N times from one call site, and once more
 * at another line. */
static void
recursion_burst (Gen       *gen,
                 SimThread *th,
                 guint32    n)
{
  guint32 func = gen->recursive[rng_below (&gen->rng, gen->n_recursive)];
  guint32 call_site = gen_random_site (gen, func);

  for (guint32 i = 0; i < n; i++)
    if (!push_site (th, call_site))
      return;
  push_site (th, gen_random_site (gen, func));
}

/* A fresh piece of work: drop everything above the floor (or nearly) and
 * call down to a new target depth. */
static void
new_deep_stack (Gen       *gen,
                SimThread *th)
{
  pop_to (th, th->floor + rng_below (&gen->rng, 3));
  /* The frame at the floor always has callees; a leaf above it would leave
   * nothing to call. */
  if (th->depth > th->floor && gen->funcs[top_func (gen, th)].n_callees == 0)
    pop_to (th, th->floor);
  th->target_depth = random_target_depth (gen);
  while (th->depth < th->target_depth)
    {
      guint32 before = th->depth;

      push_calls (gen, th, th->target_depth - th->depth);
      if (th->depth == before)
        {
          /* Call chains end in leaves after a dozen frames or so; what makes
           * stacks deeper than that is recursion. */
          if (th->target_depth - th->depth > 8)
            recursion_burst (gen, th, rng_range (&gen->rng, 4,
                                                 th->target_depth - th->depth - 1));
          break;
        }
    }
}

/* One tick of a thread that holds the GIL and runs Python code: most of the
 * time the stack is unchanged or only the innermost line moves; sometimes a
 * few frames are called or return; rarely a recursion burst or a whole new
 * deep stack. */
static void
run_python (Gen       *gen,
            SimThread *th)
{
  double r = rng_double (&gen->rng);
  gboolean deeper = th->depth < th->target_depth;

  if (th->depth <= th->floor)
    {
      new_deep_stack (gen, th);
      return;
    }

  /* A garbage collection shows up as a <GC> frame on top of whatever
   * allocated, for a tick or two. */
  if (top_func (gen, th) == FN_GC)
    {
      if (rng_chance (&gen->rng, 0.6))
        pop_to (th, th->depth - 1);
      return;
    }
  if (r < 0.002)
    {
      push_site (th, gen->funcs[FN_GC].first_site);
      return;
    }

  if (r < 0.46)
    return;
  if (r < 0.70)
    {
      move_top_line (gen, th);
      return;
    }
  if (r < 0.84)
    {
      if (deeper || rng_chance (&gen->rng, 0.3))
        {
          if (rng_chance (&gen->rng, 0.5))
            move_top_line (gen, th);
          push_calls (gen, th, rng_range (&gen->rng, 1, 3));
          return;
        }
      r = 0.9;                      /* return instead */
    }
  if (r < 0.985)
    {
      guint32 n = rng_range (&gen->rng, 1, deeper ? 1 : 4);
      guint32 keep = th->depth > th->floor + n ? th->depth - n : th->floor + 1;

      pop_to (th, keep);
      if (rng_chance (&gen->rng, 0.6))
        move_top_line (gen, th);
      return;
    }
  if (r < 0.995)
    {
      recursion_burst (gen, th, rng_range (&gen->rng, 3, 60));
      return;
    }
  new_deep_stack (gen, th);
}

/* Pushes the role's fixed outer frames. */
static void
push_base (Gen       *gen,
           SimThread *th)
{
  static const FixedFunction main_base[] = {
    FN_RUNPY_MAIN, FN_RUNPY_CODE, FN_MAIN_MODULE, FN_APP_MAIN,
    FN_RUN_UNTIL_COMPLETE, FN_RUN_FOREVER, FN_RUN_ONCE,
  };
  static const FixedFunction thread_base[] = {
    FN_BOOTSTRAP, FN_BOOTSTRAP_INNER, FN_THREAD_RUN,
  };

  th->depth = 0;
  if (th->role == ROLE_MAIN)
    {
      for (guint i = 0; i < G_N_ELEMENTS (main_base); i++)
        push_site (th, gen->funcs[main_base[i]].first_site);
    }
  else
    {
      for (guint i = 0; i < G_N_ELEMENTS (thread_base); i++)
        push_site (th, gen->funcs[thread_base[i]].first_site);
      push_site (th, gen->funcs[th->role == ROLE_IDLE ? FN_POOL_WORKER
                                : th->role == ROLE_IO ? FN_IO_SERVE
                                : FN_CPU_RUN].first_site);
    }
  th->base_depth = th->depth;
}

static void
start_activity (Gen       *gen,
                SimThread *th,
                Activity   activity)
{
  Activity previous = th->activity;

  th->activity = activity;
  switch (activity)
    {
    case ACT_WAIT:
      pop_to (th, th->base_depth);
      if (th->role == ROLE_MAIN)
        {
          push_site (th, gen->funcs[FN_SELECT].first_site);
          th->remaining = rng_duration (&gen->rng, 40);
        }
      else if (th->role == ROLE_IO)
        {
          push_site (th, gen->funcs[FN_SOCKET_READINTO].first_site);
          push_site (th, gen->funcs[FN_SSL_RECV_INTO].first_site);
          push_site (th, gen->funcs[FN_SSL_READ].first_site);
          th->remaining = rng_duration (&gen->rng, 60);
        }
      else
        {
          push_site (th, gen->funcs[FN_QUEUE_GET].first_site);
          push_site (th, gen->funcs[FN_CONDITION_WAIT].first_site);
          th->remaining = rng_duration (&gen->rng, th->role == ROLE_IDLE ? 4000 : 60);
        }
      th->floor = th->depth;
      break;

    case ACT_PYTHON:
      if (previous == ACT_NATIVE)
        {
          pop_to (th, th->floor);
        }
      else
        {
          pop_to (th, th->base_depth);
          if (th->role == ROLE_MAIN)
            push_site (th, gen->funcs[FN_HANDLE_RUN].first_site);
          th->floor = th->depth;
          new_deep_stack (gen, th);
        }
      /* Work happens above the role's entry frame (Handle._run for the
       * main thread's event loop). */
      th->floor = th->base_depth + (th->role == ROLE_MAIN ? 1 : 0);
      th->remaining = rng_duration (&gen->rng,
                                    th->role == ROLE_MAIN ? 150
                                    : th->role == ROLE_IDLE ? 20
                                    : th->role == ROLE_IO ? 6 : 8);
      break;

    case ACT_NATIVE:
      /* Python code calls into C that releases the GIL. */
      th->floor = th->depth;
      if (rng_chance (&gen->rng, 0.5))
        push_site (th, gen->funcs[FN_NUMPY_DOT].first_site);
      else if (rng_chance (&gen->rng, 0.5))
        push_site (th, gen->funcs[FN_HASHLIB_FILE_DIGEST].first_site);
      else
        push_site (th, gen->funcs[FN_GZIP_WRITE].first_site);
      if (rng_chance (&gen->rng, 0.1))
        push_site (th, gen->funcs[FN_NATIVE].first_site);
      th->remaining = rng_duration (&gen->rng, 300);
      break;
    }
}

static void
next_activity (Gen       *gen,
               SimThread *th)
{
  switch (th->activity)
    {
    case ACT_WAIT:
    case ACT_NATIVE:
      start_activity (gen, th, ACT_PYTHON);
      break;
    case ACT_PYTHON:
      if (th->role == ROLE_CPU && rng_chance (&gen->rng, 0.7))
        start_activity (gen, th, ACT_NATIVE);
      else
        start_activity (gen, th, ACT_WAIT);
      break;
    }
}

static void
gen_init_threads (Gen     *gen,
                  guint32  n_threads,
                  guint64  n_samples)
{
  guint64 est_ticks = (n_samples + n_threads - 1) / n_threads;
  guint32 n_idle = n_threads / 8;
  guint32 n_io = n_threads * 3 / 8;

  gen->n_threads = n_threads;
  gen->threads = g_new0 (SimThread, n_threads);
  gen->waiters = g_new0 (guint32, n_threads);
  gen->gil_holder = G_MAXUINT32;

  for (guint32 i = 0; i < n_threads; i++)
    {
      SimThread *th = &gen->threads[i];

      th->end_tick = G_MAXUINT64;
      if (i == 0)
        {
          th->role = ROLE_MAIN;
          th->tid = 0x7f4c8e9b1740ull;
        }
      else
        {
          th->role = i <= n_idle ? ROLE_IDLE : i <= n_idle + n_io ? ROLE_IO : ROLE_CPU;
          /* pthread_t values: one 8 MiB stack plus a guard page apart. */
          th->tid = 0x7f4c8d5fe6c0ull - (guint64) (i - 1) * 0x801000ull;
          if (rng_chance (&gen->rng, 0.25))
            th->start_tick = rng_below (&gen->rng, (guint32) MIN (est_ticks / 10 + 1,
                                                                 G_MAXUINT32));
          th->empty_ticks = rng_below (&gen->rng, 3);
          if (i % 16 == 15)
            th->end_tick = est_ticks / 2 + rng_below (&gen->rng,
                                                      (guint32) MIN (est_ticks / 3 + 1,
                                                                     G_MAXUINT32));
        }
      push_base (gen, th);
      th->floor = th->base_depth;
      th->activity = ACT_WAIT;
      if (th->role == ROLE_IDLE || th->role == ROLE_IO)
        start_activity (gen, th, ACT_WAIT);
      else
        start_activity (gen, th, ACT_PYTHON);
      /* Do not have everyone change activity in step. */
      th->remaining = 1 + rng_below (&gen->rng, th->remaining);
    }
}

/* Rotates the GIL as CPython's 5 ms switch interval does. */
static void
gen_schedule_gil (Gen *gen)
{
  SimThread *holder = gen->gil_holder != G_MAXUINT32
                      ? &gen->threads[gen->gil_holder] : NULL;
  guint32 n_waiters = 0;

  if (holder != NULL && (holder->activity != ACT_PYTHON || gen->tick >= holder->end_tick))
    holder = NULL, gen->gil_holder = G_MAXUINT32;
  if (holder != NULL && gen->gil_held_ticks < 5)
    {
      gen->gil_held_ticks++;
      return;
    }

  for (guint32 i = 0; i < gen->n_threads; i++)
    {
      SimThread *th = &gen->threads[i];

      if (i != gen->gil_holder && th->activity == ACT_PYTHON && th->empty_ticks == 0
          && th->start_tick <= gen->tick && gen->tick < th->end_tick)
        gen->waiters[n_waiters++] = i;
    }
  if (n_waiters > 0)
    {
      gen->gil_holder = gen->waiters[rng_below (&gen->rng, n_waiters)];
      gen->gil_held_ticks = 1;
    }
}

static guint8
thread_tick (Gen       *gen,
             guint32    index)
{
  SimThread *th = &gen->threads[index];
  gboolean holds_gil = index == gen->gil_holder;
  guint8 status = th->role == ROLE_MAIN ? TACH_STATUS_MAIN_THREAD : 0;

  /* A thread that has just started has no Python frame yet. */
  th->empty_now = th->empty_ticks > 0;
  if (th->empty_now)
    {
      th->empty_ticks--;
      return status | TACH_STATUS_ON_CPU;
    }

  switch (th->activity)
    {
    case ACT_PYTHON:
      if (holds_gil)
        {
          run_python (gen, th);
          if (th->exception_ticks == 0 && rng_chance (&gen->rng, 0.003))
            th->exception_ticks = rng_range (&gen->rng, 1, 12);
          else if (th->exception_ticks > 0)
            th->exception_ticks--;
          status |= TACH_STATUS_HAS_GIL | TACH_STATUS_ON_CPU;
          if (--th->remaining == 0)
            next_activity (gen, th);
        }
      else
        {
          status |= TACH_STATUS_GIL_REQUESTED;
        }
      break;
    case ACT_NATIVE:
      status |= TACH_STATUS_ON_CPU;
      if (--th->remaining == 0)
        next_activity (gen, th);
      break;
    case ACT_WAIT:
      if (--th->remaining == 0)
        next_activity (gen, th);
      break;
    }

  if (th->exception_ticks > 0)
    status |= TACH_STATUS_HAS_EXCEPTION;
  if (rng_chance (&gen->rng, 0.00005))
    status = (status & TACH_STATUS_MAIN_THREAD) | TACH_STATUS_UNKNOWN;
  return status;
}

static const uint32_t *
thread_frames (Gen       *gen,
               SimThread *th,
               size_t    *depth)
{
  if (th->empty_now)
    {
      *depth = 0;
      return th->frames;
    }
  if (th->dirty)
    {
      for (guint32 i = 0; i < th->depth; i++)
        {
          Site *s = &gen->sites[th->sites[th->depth - 1 - i]];

          if (s->frame == G_MAXUINT32)
            {
              const Func *f = &gen->funcs[s->func];
              TachFrameInfo info = {
                .filename = f->filename,
                .funcname = f->name,
                .lineno = s->lineno,
                .end_lineno = s->end_lineno,
                .column = s->column,
                .end_column = s->end_column,
                .opcode = s->opcode,
              };

              if (tach_writer_intern_frame (gen->writer, &info, &s->frame,
                                            &gen->error) != TACH_OK)
                {
                  gen->failed = TRUE;
                  *depth = 0;
                  return th->frames;
                }
            }
          th->frames[i] = s->frame;
        }
      th->dirty = FALSE;
    }
  *depth = th->depth;
  return th->frames;
}

static gint64   opt_seed = 1;
static gint     opt_threads = 0;
static gboolean opt_no_zstd = FALSE;
static char    *opt_shape = NULL;

static const GOptionEntry generate_entries[] = {
  { "seed", 0, 0, G_OPTION_ARG_INT64, &opt_seed,
    "Seed of the random generator (default 1)", "S" },
  { "threads", 0, 0, G_OPTION_ARG_INT, &opt_threads,
    "Number of threads (default 64; deep 64; wide 16; threads 100000: the 2,000 "
    "threads of short stacks of issue 17 are --shape threads --threads 2000)", "T" },
  { "no-zstd", 0, 0, G_OPTION_ARG_NONE, &opt_no_zstd,
    "Leave the sample region uncompressed", NULL },
  { "shape", 0, 0, G_OPTION_ARG_STRING, &opt_shape,
    "default (a threaded server), deep (64 threads recursing 160-250 frames deep: "
    "FULL records of long stacks, 40-60 bytes a sample), wide (10,000 functions in 1,000 "
    "files, nearly every stack its own), threads (T threads of a few samples each, "
    "each its own stack) or repeat (one stack, N samples: a sample bomb)", "SHAPE" },
  { NULL }
};

/* What the file holds once decompressed, read back with the library's own
 * decoder: the bytes a sample and, for each record kind, its share of the
 * samples and of the bytes (in %), so that a shape can be held against a
 * real recording.  The decoder reads records in file order, and every
 * sample of a REPEAT run carries the offset of its record: a record ends
 * where the next one starts. */
static gboolean
append_record_shares (GString    *json,
                      const char *path)
{
  static const char *const kind_keys[4] = {
    [TACH_RECORD_REPEAT] = "repeat", [TACH_RECORD_FULL] = "full",
    [TACH_RECORD_SUFFIX] = "suffix", [TACH_RECORD_POP_PUSH] = "pop_push",
  };
  static const TachRecordKind order[4] = {
    TACH_RECORD_FULL, TACH_RECORD_SUFFIX, TACH_RECORD_POP_PUSH, TACH_RECORD_REPEAT,
  };
  TachReader *reader = NULL;
  TachDecoder *decoder = NULL;
  TachError error = { 0 };
  TachSample sample;
  guint64 samples[4] = { 0 }, bytes[4] = { 0 }, records[4] = { 0 };
  guint64 n = 0, total = 0, last_offset = 0, base = 0;
  int last_kind = -1;
  int r;

  if (tach_reader_open_path (path, &reader, &error) != TACH_OK)
    return bench_fail_tach (path, &error), FALSE;
  if (tach_reader_get_header (reader)->compression_type == 0)
    {
      /* The offsets of a raw region are the file's. */
      base = TACH_HEADER_SIZE;
      total = tach_reader_get_sample_region_size (reader);
    }
  else
    {
      const void *region = NULL;
      g_autofree void *chunk = g_malloc (BENCH_ZSTD_CHUNK);
      GMappedFile *file = bench_map_region (path, reader, &region);
      double seconds, cpu;
      gboolean ok;

      if (file == NULL)
        {
          tach_reader_free (reader);
          return FALSE;
        }
      ok = bench_zstd_pass (region, tach_reader_get_sample_region_size (reader), chunk,
                            &seconds, &cpu, &total);
      g_mapped_file_unref (file);
      if (!ok)
        {
          tach_reader_free (reader);
          return FALSE;
        }
    }
  if (tach_decoder_new (reader, &decoder, &error) != TACH_OK)
    {
      tach_reader_free (reader);
      return bench_fail_tach (path, &error), FALSE;
    }
  while ((r = tach_decoder_next (decoder, &sample, &error)) == 1)
    {
      if (sample.kind > TACH_RECORD_POP_PUSH)
        continue;
      samples[sample.kind]++;
      n++;
      if (last_kind < 0 || sample.record_offset != last_offset)
        {
          if (last_kind >= 0)
            bytes[last_kind] += sample.record_offset - last_offset;
          last_kind = sample.kind;
          last_offset = sample.record_offset;
          records[sample.kind]++;
        }
    }
  tach_decoder_free (decoder);
  tach_reader_free (reader);
  if (r < 0)
    return bench_fail_tach (path, &error), FALSE;
  if (last_kind >= 0)
    bytes[last_kind] += total + base - last_offset;

  g_string_append_printf (json, ",\"decompressed_bytes\":%" G_GUINT64_FORMAT
                          ",\"bytes_per_sample\":%.3f", total,
                          n > 0 ? (double) total / (double) n : 0.0);
  for (guint k = 0; k < 3; k++)
    {
      g_string_append_printf (json, ",\"%s\":{", k == 0 ? "sample_share_pct"
                              : k == 1 ? "byte_share_pct" : "records");
      for (guint i = 0; i < G_N_ELEMENTS (order); i++)
        {
          TachRecordKind kind = order[i];

          g_string_append_printf (json, "%s\"%s\":", i > 0 ? "," : "", kind_keys[kind]);
          if (k == 2)
            g_string_append_printf (json, "%" G_GUINT64_FORMAT, records[kind]);
          else
            g_string_append_printf (json, "%.3f",
                                    k == 0 ? (n > 0 ? 100.0 * (double) samples[kind] / (double) n
                                              : 0.0)
                                    : total > 0 ? 100.0 * (double) bytes[kind] / (double) total
                                    : 0.0);
        }
      g_string_append_c (json, '}');
    }
  return TRUE;
}

/* The statistics block (STATS, with its duration from START_US to END_US
 * and TICKS over it as its sample rate), the tables and the footer, then
 * the JSON line. */
static int
finish_file (TachWriter *writer,
             const char *path,
             TachStats  *stats,
             guint64     start_us,
             guint64     end_us,
             guint64     count,
             guint32     n_threads,
             guint64     ticks,
             guint32     n_funcs,
             double      t0)
{
  g_autoptr (GString) json = g_string_new (NULL);
  TachError error = { 0 };
  GStatBuf st;

  stats->present = TRUE;
  stats->block_size = 56;
  stats->duration_sec = (double) (end_us - start_us) / 1e6;
  stats->sample_rate = stats->duration_sec > 0 ? (double) ticks / stats->duration_sec : 0.0;
  if (tach_writer_set_stats (writer, stats, &error) != TACH_OK)
    {
      tach_writer_abort (writer);
      return bench_fail_tach (path, &error);
    }
  if (tach_writer_finish (writer, &error) != TACH_OK)
    return bench_fail_tach (path, &error);

  g_string_append (json, "{\"file\":");
  tv_json_append_string (json, path, -1);
  g_string_append_printf (json, ",\"samples\":%" G_GUINT64_FORMAT
                          ",\"threads\":%u,\"ticks\":%" G_GUINT64_FORMAT
                          ",\"functions\":%u,\"file_bytes\":%" G_GINT64_FORMAT
                          ",\"seconds\":%.3f",
                          count, n_threads, ticks, n_funcs,
                          g_stat (path, &st) == 0 ? (gint64) st.st_size : (gint64) -1,
                          bench_now_seconds () - t0);
  if (!append_record_shares (json, path))
    return 1;
  g_string_append_c (json, '}');
  printf ("%s\n", json->str);
  return 0;
}

/* --shape threads: what makes per-thread work quadratic, if anything is.
 * Thread k runs main -> dispatch_(k % 317) -> task_(k % 331), so nearly
 * every thread has a call path of its own (317 and 331 are coprime: the
 * paths repeat only after 104,927 threads), with few frames.  Every thread
 * gets one sample per tick until N are written; its leaf moves between two
 * lines, and its state goes round the five, so that every record kind and
 * state shows up. */
#define THREADS_DISPATCH 317
#define THREADS_TASKS    331

/* A writer of PATH for samples every INTERVAL_US from START_US, in MODE,
 * compressed unless --no-zstd. */
static TachStatus
gen_writer_new (const char  *path,
                guint64      start_us,
                guint64      interval_us,
                TachMode     mode,
                TachWriter **writer,
                TachError   *error)
{
  TachWriterOptions options = { 0 };

  options.zstd = !opt_no_zstd;
  options.start_time_us = start_us;
  options.sample_interval_us = interval_us;
  options.mode_raw = (uint32_t) mode + 1;
  return tach_writer_new (path, &options, writer, error);
}

static int
generate_threads (guint64     n_samples,
                  const char *path,
                  guint32     n_threads)
{
  static const guint8 statuses[] = {
    TACH_STATUS_HAS_GIL | TACH_STATUS_ON_CPU, TACH_STATUS_ON_CPU, TACH_STATUS_GIL_REQUESTED,
    0, TACH_STATUS_HAS_EXCEPTION,
  };
  TachStats stats = { 0 };
  TachWriter *writer = NULL;
  TachError error = { 0 };
  guint32 main_frame;
  guint32 dispatch[THREADS_DISPATCH];
  guint32 tasks[THREADS_TASKS][2];
  guint64 start_us = 734019000000ull;
  guint64 timestamp = start_us + 100;
  guint64 count = 0, ticks = 0;
  double t0 = bench_now_seconds ();

  if (gen_writer_new (path, start_us, GEN_INTERVAL_US, TACH_MODE_WALL, &writer, &error) != TACH_OK)
    return bench_fail_tach (path, &error);

  {
    TachFrameInfo info = { "server/main.py", "main", 12, 12, 4, 30, TACH_OPCODE_NONE };

    if (tach_writer_intern_frame (writer, &info, &main_frame, &error) != TACH_OK)
      goto failed;
  }
  for (guint32 i = 0; i < THREADS_DISPATCH; i++)
    {
      g_autofree char *name = g_strdup_printf ("dispatch_%u", i);
      TachFrameInfo info = { "server/dispatch.py", name, 20 + (int) i, 20 + (int) i, 8, 40,
                             TACH_OPCODE_NONE };

      if (tach_writer_intern_frame (writer, &info, &dispatch[i], &error) != TACH_OK)
        goto failed;
    }
  for (guint32 i = 0; i < THREADS_TASKS; i++)
    for (guint32 line = 0; line < 2; line++)
      {
        g_autofree char *name = g_strdup_printf ("task_%u", i);
        TachFrameInfo info = { "server/tasks.py", name, 100 + 3 * (int) i + (int) line,
                               100 + 3 * (int) i + (int) line, 8, 50, TACH_OPCODE_NONE };

        if (tach_writer_intern_frame (writer, &info, &tasks[i][line], &error) != TACH_OK)
          goto failed;
      }

  while (count < n_samples)
    {
      for (guint32 k = 0; k < n_threads && count < n_samples; k++)
        {
          guint32 frames[3] = {
            tasks[k % THREADS_TASKS][(ticks / 2) % 2], dispatch[k % THREADS_DISPATCH], main_frame,
          };
          guint8 status = statuses[(k + ticks) % G_N_ELEMENTS (statuses)];

          if (k == 0)
            status |= TACH_STATUS_MAIN_THREAD;
          if (tach_writer_add_sample (writer, 1000 + (guint64) k, 0, timestamp, status, frames,
                                      G_N_ELEMENTS (frames), &error) != TACH_OK)
            goto failed;
          count++;
        }
      ticks++;
      timestamp += GEN_INTERVAL_US;
    }

  return finish_file (writer, path, &stats, start_us, timestamp, count,
                      MIN ((guint64) n_threads, count), ticks,
                      1 + THREADS_DISPATCH + THREADS_TASKS, t0);

failed:
  tach_writer_abort (writer);
  return bench_fail_tach (path, &error);
}

/* --shape repeat: one thread, one stack, N samples 100 µs apart in one
 * state: REPEAT records of two bytes a sample, which zstd packs into next
 * to nothing (500M samples, the most a sample region of 1 GiB holds, make
 * a file of some 31 KB).  What a reader needs per sample, it needs N
 * times. */
#define REPEAT_INTERVAL_US 100

static int
generate_repeat (guint64     n_samples,
                 const char *path)
{
  TachStats stats = { 0 };
  TachWriter *writer = NULL;
  TachError error = { 0 };
  static const TachFrameInfo infos[3] = {
    { "bomb.py", "spin", 3, 3, 8, 20, TACH_OPCODE_NONE },
    { "bomb.py", "loop", 7, 7, 4, 12, TACH_OPCODE_NONE },
    { "bomb.py", "<module>", 10, 10, 0, 6, TACH_OPCODE_NONE },
  };
  guint32 frames[3];
  guint64 start_us = 734019000000ull;
  guint64 timestamp = start_us + REPEAT_INTERVAL_US;
  double t0 = bench_now_seconds ();

  if (gen_writer_new (path, start_us, REPEAT_INTERVAL_US, TACH_MODE_CPU,
                      &writer, &error) != TACH_OK)
    return bench_fail_tach (path, &error);
  for (guint i = 0; i < G_N_ELEMENTS (infos); i++)
    if (tach_writer_intern_frame (writer, &infos[i], &frames[i], &error) != TACH_OK)
      goto failed;

  for (guint64 i = 0; i < n_samples; i++, timestamp += REPEAT_INTERVAL_US)
    if (tach_writer_add_sample (writer, 1, 0, timestamp,
                                TACH_STATUS_HAS_GIL | TACH_STATUS_ON_CPU | TACH_STATUS_MAIN_THREAD,
                                frames, G_N_ELEMENTS (frames), &error) != TACH_OK)
      goto failed;

  return finish_file (writer, path, &stats, start_us, timestamp, n_samples,
                      n_samples > 0 ? 1 : 0, n_samples, G_N_ELEMENTS (infos), t0);

failed:
  tach_writer_abort (writer);
  return bench_fail_tach (path, &error);
}

/* --shape deep: what a program that mostly recurses records (a tree walk,
 * a recursive descent parser, a deep copy).  64 threads, one sample each
 * per tick; every thread runs a piece of work whose stack is its thread's
 * few entry frames under a recursion 160 to 250 frames deep through a few
 * mutually recursive functions, each mostly from one line.  Now and
 * then (DEEP_NEW_STACK of the samples) a thread starts a new piece of work:
 * the new stack shares only the entry frames with the old one, which the
 * writer stores as a FULL record of some 200 two-byte frame indices; more
 * often the innermost frames move (POP_PUSH), and most samples repeat.
 * That makes 40 to 60 bytes a sample, as real recursive recordings and
 * tachgen.py's `synth --recursion` have. */
#define DEEP_THREADS     64
#define DEEP_FUNCS       48
#define DEEP_LINES       6
#define DEEP_ENTRY       4
#define DEEP_MAX         256
#define DEEP_NEW_STACK   0.105
#define DEEP_MOVE_LEAF   0.15

static int
generate_deep (guint64     n_samples,
               const char *path,
               guint32     n_threads)
{
  static const char *const deep_names[] = {
    "visit", "walk", "_deepcopy", "parse_expr", "parse_term", "resolve", "expand",
    "flatten", "evaluate", "render_node", "_reduce", "match_pattern",
  };
  static const char *const deep_files[] = {
    "/home/dev/compiler/src/ast_walk.py", "/home/dev/compiler/src/parser.py",
    "/usr/lib/python3.15/copy.py", "/home/dev/compiler/src/resolve.py",
  };
  static const TachFrameInfo entry_infos[DEEP_ENTRY] = {
    { "/usr/lib/python3.15/threading.py", "Thread._bootstrap", 1012, 1012, 8, 30, TACH_OPCODE_NONE },
    { "/usr/lib/python3.15/threading.py", "Thread._bootstrap_inner", 1041, 1041, 12, 22, TACH_OPCODE_NONE },
    { "/usr/lib/python3.15/threading.py", "Thread.run", 990, 990, 12, 40, TACH_OPCODE_NONE },
    { "/home/dev/compiler/src/driver.py", "compile_unit", 77, 77, 8, 36, TACH_OPCODE_NONE },
  };
  static const guint8 statuses[] = {
    TACH_STATUS_HAS_GIL | TACH_STATUS_ON_CPU, TACH_STATUS_ON_CPU, TACH_STATUS_GIL_REQUESTED, 0,
  };
  TachStats stats = { 0 };
  TachWriter *writer = NULL;
  TachError error = { 0 };
  guint32 entry[DEEP_ENTRY];
  guint32 frames[DEEP_FUNCS][DEEP_LINES];
  guint32 *stacks = NULL;         /* DEEP_MAX a thread */
  guint32 *depths = NULL;
  guint8 *thread_status = NULL;
  guint64 start_us = 734019000000ull;
  guint64 timestamp = start_us + 100;
  guint64 count = 0, ticks = 0;
  double t0 = bench_now_seconds ();
  Rng rng;

  rng_init (&rng, (guint64) opt_seed);
  if (gen_writer_new (path, start_us, GEN_INTERVAL_US, TACH_MODE_WALL, &writer, &error) != TACH_OK)
    return bench_fail_tach (path, &error);

  for (guint i = 0; i < DEEP_ENTRY; i++)
    if (tach_writer_intern_frame (writer, &entry_infos[i], &entry[i], &error) != TACH_OK)
      goto failed;
  /* 288 frames: most indices take two bytes, as in a real recording. */
  for (guint32 f = 0; f < DEEP_FUNCS; f++)
    for (guint32 l = 0; l < DEEP_LINES; l++)
      {
        g_autofree char *name = g_strdup_printf ("%s_%u", deep_names[f % G_N_ELEMENTS (deep_names)],
                                                 f / (guint32) G_N_ELEMENTS (deep_names));
        int line = 40 + 25 * (int) f + 3 * (int) l;
        TachFrameInfo info = { deep_files[f % G_N_ELEMENTS (deep_files)], name, line, line,
                               8, 48, TACH_OPCODE_NONE };

        if (tach_writer_intern_frame (writer, &info, &frames[f][l], &error) != TACH_OK)
          goto failed;
      }

  stacks = g_new0 (guint32, (gsize) n_threads * DEEP_MAX);
  depths = g_new0 (guint32, n_threads);
  thread_status = g_new0 (guint8, n_threads);
  while (count < n_samples)
    {
      for (guint32 k = 0; k < n_threads && count < n_samples; k++)
        {
          guint32 *stack = stacks + (gsize) k * DEEP_MAX;  /* innermost first */
          double r = rng_double (&rng);
          guint8 status;

          if (depths[k] == 0 || r < DEEP_NEW_STACK)
            {
              /* A new piece of work: a chain of 2 or 3 functions that call
               * each other, from a random line each time. */
              guint32 rec = rng_range (&rng, 160, 250);
              guint32 chain[3], lines[3];
              guint32 n_chain = rng_range (&rng, 2, 3);

              for (guint32 c = 0; c < n_chain; c++)
                {
                  chain[c] = rng_below (&rng, DEEP_FUNCS);
                  lines[c] = rng_below (&rng, DEEP_LINES);
                }
              depths[k] = rec + DEEP_ENTRY;
              for (guint32 i = 0; i < DEEP_ENTRY; i++)
                stack[depths[k] - 1 - i] = entry[i];
              /* Each function of the chain recurses from one line, now and
               * then from another. */
              for (guint32 i = 0; i < rec; i++)
                stack[rec - 1 - i] = frames[chain[i % n_chain]]
                                           [rng_chance (&rng, 0.005) ? rng_below (&rng, DEEP_LINES)
                                            : lines[i % n_chain]];
              thread_status[k] = statuses[rng_below (&rng, G_N_ELEMENTS (statuses))];
            }
          else if (r < DEEP_NEW_STACK + DEEP_MOVE_LEAF)
            {
              /* The innermost frames return, and others are called. */
              guint32 pop = rng_range (&rng, 1, 3);
              guint32 push = rng_range (&rng, 1, 3);
              guint32 keep = depths[k] - pop;

              /* CPython keeps no more than 256 frames. */
              push = MIN (push, DEEP_MAX - keep);

              memmove (stack + push, stack + pop, keep * sizeof *stack);
              for (guint32 i = 0; i < push; i++)
                stack[i] = frames[rng_below (&rng, DEEP_FUNCS)][rng_below (&rng, DEEP_LINES)];
              depths[k] = keep + push;
              if (rng_chance (&rng, 0.3))
                thread_status[k] = statuses[rng_below (&rng, G_N_ELEMENTS (statuses))];
            }
          status = thread_status[k] | (k == 0 ? TACH_STATUS_MAIN_THREAD : 0);
          if (tach_writer_add_sample (writer, 0x7f4c8d5fe6c0ull - (guint64) k * 0x801000ull, 0,
                                      timestamp, status, stack, depths[k], &error) != TACH_OK)
            goto failed;
          count++;
        }
      ticks++;
      timestamp += GEN_INTERVAL_US;
    }
  g_free (stacks);
  g_free (depths);
  g_free (thread_status);

  return finish_file (writer, path, &stats, start_us, timestamp, count,
                      MIN ((guint64) n_threads, count), ticks, DEEP_ENTRY + DEEP_FUNCS, t0);

failed:
  g_free (stacks);
  g_free (depths);
  g_free (thread_status);
  tach_writer_abort (writer);
  return bench_fail_tach (path, &error);
}

/* --shape wide: a big code base with no hot spot.  10,000 functions in
 * 1,000 files (ten a file), each calling four others picked at random
 * from all of them, so that nearly every stack is one of its own: the call
 * tree and the function table are wide rather than deep.  16 threads, one
 * sample each per tick, 8 to 30 frames deep; a stack either repeats, moves
 * its innermost frames, or starts again from the entry point. */
#define WIDE_FILES    1000
#define WIDE_PER_FILE 10
#define WIDE_FUNCS    (WIDE_FILES * WIDE_PER_FILE)
#define WIDE_CALLEES  4
#define WIDE_THREADS  16
#define WIDE_MAX      32

static int
generate_wide (guint64     n_samples,
               const char *path,
               guint32     n_threads)
{
  TachStats stats = { 0 };
  TachWriter *writer = NULL;
  TachError error = { 0 };
  guint32 *func_frame = NULL;     /* WIDE_FUNCS x 2 lines */
  guint32 *callees = NULL;        /* WIDE_FUNCS x WIDE_CALLEES */
  guint32 *stacks = NULL;         /* WIDE_MAX function indices a thread, outermost first */
  guint32 *depths = NULL;
  guint32 *frames = NULL;
  guint64 start_us = 734019000000ull;
  guint64 timestamp = start_us + 100;
  guint64 count = 0, ticks = 0;
  double t0 = bench_now_seconds ();
  Rng rng;

  rng_init (&rng, (guint64) opt_seed);
  if (gen_writer_new (path, start_us, GEN_INTERVAL_US, TACH_MODE_CPU, &writer, &error) != TACH_OK)
    return bench_fail_tach (path, &error);

  func_frame = g_new (guint32, WIDE_FUNCS * 2);
  callees = g_new (guint32, WIDE_FUNCS * WIDE_CALLEES);
  for (guint32 f = 0; f < WIDE_FUNCS; f++)
    {
      guint32 file = f / WIDE_PER_FILE;
      g_autofree char *filename = g_strdup_printf ("/srv/monorepo/pkg%02u/mod%03u.py",
                                                   file / 40, file);
      g_autofree char *name = g_strdup_printf ("%s_%s_%u",
                                               verbs[f % G_N_ELEMENTS (verbs)],
                                               nouns[(f / G_N_ELEMENTS (verbs))
                                                     % G_N_ELEMENTS (nouns)], f);

      for (guint32 l = 0; l < 2; l++)
        {
          int line = 10 + 30 * (int) (f % WIDE_PER_FILE) + 7 * (int) l;
          TachFrameInfo info = { filename, name, line, line, 4, 40, TACH_OPCODE_NONE };

          if (tach_writer_intern_frame (writer, &info, &func_frame[2 * f + l], &error)
              != TACH_OK)
            goto failed;
        }
      for (guint32 c = 0; c < WIDE_CALLEES; c++)
        callees[f * WIDE_CALLEES + c] = rng_below (&rng, WIDE_FUNCS);
    }

  stacks = g_new0 (guint32, (gsize) n_threads * WIDE_MAX);
  depths = g_new0 (guint32, n_threads);
  frames = g_new (guint32, WIDE_MAX);
  while (count < n_samples)
    {
      for (guint32 k = 0; k < n_threads && count < n_samples; k++)
        {
          guint32 *stack = stacks + (gsize) k * WIDE_MAX;
          double r = rng_double (&rng);
          guint32 target = 0;
          guint8 status;

          if (depths[k] == 0 || r < 0.05)
            {
              /* Each thread has an entry function of its own. */
              stack[0] = (k * 7919u) % WIDE_FUNCS;
              depths[k] = 1;
              target = rng_range (&rng, 8, 30);
            }
          else if (r < 0.45)
            {
              guint32 pop = rng_range (&rng, 1, MIN (4, depths[k] - 1));
              guint32 push = rng_range (&rng, 1, 4);

              depths[k] -= MIN (pop, depths[k] - 1);
              target = MIN (depths[k] + push, WIDE_MAX);
            }
          while (depths[k] < target)
            {
              stack[depths[k]] = callees[stack[depths[k] - 1] * WIDE_CALLEES
                                         + rng_below (&rng, WIDE_CALLEES)];
              depths[k]++;
            }
          for (guint32 i = 0; i < depths[k]; i++)
            {
              guint32 f = stack[depths[k] - 1 - i];

              /* The line a frame is at follows from where it is, so that a
               * repeated stack repeats its frames. */
              frames[i] = func_frame[2 * f + ((f + depths[k] - i) & 1)];
            }
          status = (r < 0.6 ? TACH_STATUS_ON_CPU | TACH_STATUS_HAS_GIL
                    : r < 0.8 ? TACH_STATUS_ON_CPU : TACH_STATUS_GIL_REQUESTED)
                   | (k == 0 ? TACH_STATUS_MAIN_THREAD : 0);
          if (tach_writer_add_sample (writer, 5000 + (guint64) k, 0, timestamp, status,
                                      frames, depths[k], &error) != TACH_OK)
            goto failed;
          count++;
        }
      ticks++;
      timestamp += GEN_INTERVAL_US;
    }
  g_free (func_frame);
  g_free (callees);
  g_free (stacks);
  g_free (depths);
  g_free (frames);

  return finish_file (writer, path, &stats, start_us, timestamp, count,
                      MIN ((guint64) n_threads, count), ticks, WIDE_FUNCS, t0);

failed:
  g_free (func_frame);
  g_free (callees);
  g_free (stacks);
  g_free (depths);
  g_free (frames);
  tach_writer_abort (writer);
  return bench_fail_tach (path, &error);
}

static int
run_generate (char **args)
{
  guint64 n_samples;
  const char *path = args[1];
  guint64 start_us;
  guint64 timestamp;
  guint64 count = 0;
  guint64 ticks = 0;
  guint64 missed_ticks = 0;
  double t0 = bench_now_seconds ();
  Gen gen = { 0 };
  TachStats stats = { 0 };
  guint32 n_funcs;

  if (!bench_parse_count (args[0], G_MAXUINT64 / 2, &n_samples))
    {
      g_printerr ("tachyon-bench: --generate: invalid sample count \"%s\"\n", args[0]);
      return 1;
    }
  if (g_strcmp0 (opt_shape, "threads") == 0)
    {
      if (opt_threads == 0)
        opt_threads = 100000;
      if (opt_threads < 1 || opt_threads > 10000000)
        {
          g_printerr ("tachyon-bench: --threads must be between 1 and 10000000\n");
          return 1;
        }
      return generate_threads (n_samples, path, (guint32) opt_threads);
    }
  if (g_strcmp0 (opt_shape, "deep") == 0 || g_strcmp0 (opt_shape, "wide") == 0)
    {
      gboolean deep = opt_shape[0] == 'd';

      if (opt_threads == 0)
        opt_threads = deep ? DEEP_THREADS : WIDE_THREADS;
      if (opt_threads < 1 || opt_threads > 4096)
        {
          g_printerr ("tachyon-bench: --threads must be between 1 and 4096\n");
          return 1;
        }
      return deep ? generate_deep (n_samples, path, (guint32) opt_threads)
                  : generate_wide (n_samples, path, (guint32) opt_threads);
    }
  if (g_strcmp0 (opt_shape, "repeat") == 0)
    {
      if (opt_threads != 0)
        {
          g_printerr ("tachyon-bench: --shape repeat has one thread: no --threads\n");
          return 1;
        }
      return generate_repeat (n_samples, path);
    }
  if (opt_shape != NULL && strcmp (opt_shape, "default") != 0)
    {
      g_printerr ("tachyon-bench: unknown --shape \"%s\" (expected default, deep, wide, "
                  "threads or repeat)\n", opt_shape);
      return 1;
    }
  if (opt_threads == 0)
    opt_threads = 64;
  if (opt_threads < 1 || opt_threads > 4096)
    {
      g_printerr ("tachyon-bench: --threads must be between 1 and 4096\n");
      return 1;
    }

  rng_init (&gen.rng, (guint64) opt_seed);
  /* A monotonic clock reading of a machine that has been up for a while. */
  start_us = 734019000000ull + rng_below (&gen.rng, 1000000000);
  timestamp = start_us + rng_range (&gen.rng, 20, 200);

  if (gen_writer_new (path, start_us, GEN_INTERVAL_US, TACH_MODE_WALL,
                      &gen.writer, &gen.error) != TACH_OK)
    return bench_fail_tach (path, &gen.error);

  gen_build_program (&gen);
  gen_init_threads (&gen, (guint32) opt_threads, n_samples);

  while (count < n_samples && !gen.failed)
    {
      gen_schedule_gil (&gen);
      /* CPython walks the interpreter's thread list from the newest thread
       * to the oldest, so the main thread comes last. */
      for (guint32 k = gen.n_threads; k-- > 0 && count < n_samples;)
        {
          SimThread *th = &gen.threads[k];
          const uint32_t *frames;
          size_t depth;
          guint8 status;

          if (gen.tick < th->start_tick || gen.tick >= th->end_tick)
            continue;
          status = thread_tick (&gen, k);
          frames = thread_frames (&gen, th, &depth);
          if (gen.failed)
            break;
          if (tach_writer_add_sample (gen.writer, th->tid, 0, timestamp, status,
                                      frames, depth, &gen.error) != TACH_OK)
            {
              gen.failed = TRUE;
              break;
            }
          count++;
        }

      gen.tick++;
      ticks++;
      /* The sampler wakes up a little late or early; now and then it
       * misses whole ticks. */
      timestamp += GEN_INTERVAL_US - 25 + rng_below (&gen.rng, 90);
      if (rng_chance (&gen.rng, 0.002))
        {
          guint32 missed = rng_range (&gen.rng, 1, 4);

          timestamp += (guint64) missed * GEN_INTERVAL_US;
          missed_ticks += missed;
        }
    }

  if (gen.failed)
    {
      tach_writer_abort (gen.writer);
      gen_free_program (&gen);
      return bench_fail_tach (path, &gen.error);
    }

  n_funcs = gen.n_funcs;
  stats.flags = TACH_STATS_ERROR_RATE | TACH_STATS_MISSED;
  stats.has_error_rate = TRUE;
  stats.error_rate = 0.05 + rng_double (&gen.rng) * 0.4;
  stats.has_missed_samples = TRUE;
  stats.missed_samples = ticks > 0 ? 100.0 * (double) missed_ticks
                                     / (double) (ticks + missed_ticks) : 0.0;
  gen_free_program (&gen);
  return finish_file (gen.writer, path, &stats, start_us, timestamp, count, gen.n_threads, ticks,
                      n_funcs, t0);
}

const BenchMode bench_mode_generate = {
  "generate", "N OUT", 2,
  "Write a synthetic profile of N thread-samples (5M, 500k, ...) to OUT, of a shape; the\n"
  "      JSON line also gives the bytes a sample decompressed and each record kind's share\n"
  "      of the samples and of the bytes, to hold the shape against real recordings.",
  generate_entries, run_generate,
};
