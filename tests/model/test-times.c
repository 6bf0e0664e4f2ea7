/* test-times.c: TvTimes, a thread's timestamps in blocks of offsets, and
 * TvStatuses, its statuses in 4 bits
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Random series of every shape a thread's clock can take (steady, with
 * pauses of seconds or of hours, going backwards, at the ends of 64 bits,
 * any length) are kept as TvTimes, and every timestamp, every read of a
 * stretch and every search is held against the plain array.  Random
 * statuses, of few distinct values or of more than a palette holds,
 * appended in batches of any length, are held against the plain bytes.
 */
#include <string.h>

#include <glib.h>

#include "model-fixture.h"
#include "tv-statuses.h"
#include "tv-times.h"

/* The first index of [LO, HI) of the sorted TS at or past VALUE. */
static guint64
plain_lower_bound (const guint64 *ts,
                   guint64        lo,
                   guint64        hi,
                   guint64        value)
{
  while (lo < hi && ts[lo] < value)
    lo++;
  return lo;
}

/* N timestamps in the shape SHAPE. */
static guint64 *
make_series (GRand   *rand,
             guint    shape,
             guint64  n)
{
  guint64 *ts = g_new (guint64, MAX (n, 1));
  guint64 t = shape == 3 ? G_MAXUINT64 - 1000 * n - 5 : g_rand_int (rand) * G_GUINT64_CONSTANT (1000);

  for (guint64 i = 0; i < n; i++)
    {
      switch (shape)
        {
        case 0:                 /* steady, 1 ms and some jitter */
          t += 1000 + g_rand_int_range (rand, -50, 50);
          break;
        case 1:                 /* pauses of seconds now and then */
          t += g_rand_int_range (rand, 0, 40) == 0 ? (guint64) g_rand_int_range (rand, 0, 1 << 24)
               : 100;
          break;
        case 2:                 /* pauses of hours, and backwards */
          if (g_rand_int_range (rand, 0, 50) == 0)
            t += (guint64) g_rand_int (rand) << 12;
          else if (g_rand_int_range (rand, 0, 10) == 0)
            t -= MIN (t, (guint64) g_rand_int_range (rand, 0, 70000));
          else
            t += g_rand_int_range (rand, 0, 2000);
          break;
        case 3:                 /* near the end of 64 bits */
          t += g_rand_int_range (rand, 0, 1000);
          break;
        default:                /* anywhere at all */
          t = (guint64) g_rand_int (rand) << 32 | g_rand_int (rand);
          break;
        }
      ts[i] = t;
    }
  return ts;
}

static void
test_times_random (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (fixture_seed ());
  guint64 widths[4] = { 0 };

  for (guint iteration = 0; iteration < 400; iteration++)
    {
      guint shape = iteration % 5;
      guint64 n = g_rand_int_range (rand, 0, 4) == 0 ? (guint64) g_rand_int_range (rand, 0, 130)
                  : (guint64) g_rand_int_range (rand, 0, 5000);
      g_autofree guint64 *ts = make_series (rand, shape, n);
      g_autofree guint64 *out = g_new (guint64, MAX (n, 1));
      gboolean sorted = TRUE;
      TvTimes times;

      tv_times_init_from (&times, ts, n);
      g_assert_cmpuint (times.n, ==, n);
      for (guint64 i = 0; i < n; i++)
        {
          g_assert_cmpuint (tv_times_get (&times, i), ==, ts[i]);
          sorted &= i == 0 || ts[i] >= ts[i - 1];
        }
      for (guint64 b = 0; b * TV_TIMES_BLOCK < n; b++)
        widths[tv_times_block_code (&times.blocks[b])]++;

      /* Stretches that start and end anywhere, across blocks. */
      for (guint k = 0; k < 20 && n > 0; k++)
        {
          guint64 start = g_rand_int_range (rand, 0, (gint32) n);
          guint64 len = g_rand_int_range (rand, 0, (gint32) (n - start) + 1);

          memset (out, 0, len * sizeof (guint64));
          tv_times_read (&times, start, len, out);
          g_assert_cmpmem (out, len * sizeof (guint64), ts + start, len * sizeof (guint64));
        }

      /* Searches, from anywhere, for values in and between the samples. */
      if (sorted)
        for (guint k = 0; k < 40; k++)
          {
            guint64 from = n > 0 ? g_rand_int_range (rand, 0, (gint32) n + 1) : 0;
            guint64 value = n == 0 ? g_rand_int (rand)
                            : ts[g_rand_int_range (rand, 0, (gint32) n)] + g_rand_int_range (rand, -1, 2);

            g_assert_cmpuint (tv_times_lower_bound (&times, from, n, value), ==,
                              plain_lower_bound (ts, from, n, value));
            g_assert_cmpuint (tv_times_gallop (&times, from, value), ==,
                              plain_lower_bound (ts, from, n, value));
          }
      g_assert_cmpuint (tv_times_get_memory_size (&times), <=,
                        (n + TV_TIMES_BLOCK - 1) / TV_TIMES_BLOCK * sizeof (TvTimesBlock)
                        + n * sizeof (guint64));
      tv_times_clear (&times);
    }
  /* Every width was met. */
  g_assert_cmpuint (widths[0], >, 0);
  g_assert_cmpuint (widths[1], >, 0);
  g_assert_cmpuint (widths[2], >, 0);
  g_assert_cmpuint (widths[3], >, 0);
}

/* A steady clock keeps 2 bytes a sample and a block's 16. */
static void
test_times_size (void)
{
  guint64 n = 100000;
  g_autofree guint64 *ts = g_new (guint64, n);
  TvTimes times;

  for (guint64 i = 0; i < n; i++)
    ts[i] = G_GUINT64_CONSTANT (1700000000000000) + i * 1000 + (i * 7919) % 97;
  tv_times_init_from (&times, ts, n);
  g_assert_cmpuint (tv_times_get_memory_size (&times), ==,
                    n * 2 + (n + TV_TIMES_BLOCK - 1) / TV_TIMES_BLOCK * sizeof (TvTimesBlock));
  for (guint64 i = 0; i < n; i++)
    g_assert_cmpuint (tv_times_get (&times, i), ==, ts[i]);
  tv_times_clear (&times);
}

/* Blocks whose span is just within or just past what 2, 3 and 4 bytes
 * hold, with their smallest timestamp anywhere in the block. */
static void
test_times_edges (void)
{
  static const guint64 spans[] = { 0, 1, 65535, 65536, (1u << 24) - 1, 1u << 24, G_MAXUINT32,
                                   (guint64) G_MAXUINT32 + 1, G_MAXUINT64 - 7 };
  static const guint codes[] = { 0, 0, 0, 3, 3, 1, 1, 2, 2 };

  for (guint k = 0; k < G_N_ELEMENTS (spans); k++)
    for (guint at = 0; at < TV_TIMES_BLOCK; at += 21)
      {
        guint64 ts[2 * TV_TIMES_BLOCK + 5];
        TvTimes times;

        for (guint i = 0; i < G_N_ELEMENTS (ts); i++)
          ts[i] = 7 + (i * 37) % (spans[k] + 1);
        ts[at] = 7;
        ts[(at + 1 + at / 2) % TV_TIMES_BLOCK] = 7 + spans[k];
        tv_times_init_from (&times, ts, G_N_ELEMENTS (ts));
        g_assert_cmpuint (tv_times_block_code (&times.blocks[0]), ==, codes[k]);
        for (guint i = 0; i < G_N_ELEMENTS (ts); i++)
          g_assert_cmpuint (tv_times_get (&times, i), ==, ts[i]);
        tv_times_clear (&times);
      }
}

/* Batches of random statuses, of DISTINCT values, appended as the load
 * appends them (widened when the palette is full), then every status and
 * reads of random stretches against the bytes. */
static void
test_statuses_random (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (7);

  for (guint round = 0; round < 400; round++)
    {
      guint distinct = round % 4 == 0 ? 1 : round % 4 == 1 ? 16 : g_rand_int_range (rand, 2, 40);
      guint64 n = g_rand_int_range (rand, 0, 3000);
      g_autofree guint8 *plain = g_new (guint8, MAX (n, 1));
      g_autofree guint8 *values = g_new (guint8, distinct);
      /* Room for whole bytes, as the load makes when it widens. */
      g_autofree guint8 *bytes = g_new0 (guint8, MAX (n, 1));
      g_autofree guint8 *out = g_new (guint8, MAX (n, 1));
      TvStatuses st = { bytes, { 0 }, 0, FALSE };
      guint64 at = 0;
      gboolean widened = FALSE;

      for (guint k = 0; k < distinct; k++)
        values[k] = (guint8) g_rand_int_range (rand, 0, 256);
      for (guint64 i = 0; i < n; i++)
        plain[i] = g_rand_int_range (rand, 0, 4) > 0 && i > 0
                   ? plain[i - 1] : values[g_rand_int_range (rand, 0, distinct)];
      while (at < n)
        {
          /* A record of one sample takes a way of its own. */
          guint64 batch = g_rand_int_range (rand, 0, 4) == 0 ? 1 : g_rand_int_range (rand, 1, 300);
          guint64 take = MIN (n - at, batch);

          if (!tv_statuses_append (&st, at, plain + at, take))
            {
              g_assert_false (st.wide);
              g_assert_cmpuint (st.n_palette, <=, TV_STATUSES_PALETTE);
              tv_statuses_widen (&st, at);
              widened = TRUE;
              g_assert_true (tv_statuses_append (&st, at, plain + at, take));
            }
          at += take;
          g_assert_cmpuint (tv_statuses_size (&st, at), ==, st.wide ? at : (at + 1) / 2);
        }
      /* Few distinct bytes (16 at most) stay in 4 bits. */
      {
        gboolean seen[256] = { FALSE }, few;
        guint n_seen = 0;

        for (guint64 i = 0; i < n; i++)
          {
            n_seen += !seen[plain[i]];
            seen[plain[i]] = TRUE;
          }
        few = n_seen <= TV_STATUSES_PALETTE;
        g_assert_cmpint (st.wide, ==, !few);
        g_assert_cmpint (widened, ==, !few);
      }
      for (guint64 i = 0; i < n; i++)
        g_assert_cmpuint (tv_statuses_get (&st, i), ==, plain[i]);
      for (guint k = 0; k < 50 && n > 0; k++)
        {
          guint64 start = g_rand_int_range (rand, 0, n);
          guint64 len = g_rand_int_range (rand, 0, n - start + 1);

          memset (out, 0xaa, n);
          tv_statuses_read (&st, start, len, out);
          g_assert_cmpmem (out, len, plain + start, len);
          /* Nothing past the stretch is written. */
          for (guint64 i = len; i < n; i++)
            g_assert_cmpuint (out[i], ==, 0xaa);
        }
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/model/times/random", test_times_random);
  g_test_add_func ("/model/times/size", test_times_size);
  g_test_add_func ("/model/times/edges", test_times_edges);
  g_test_add_func ("/model/statuses/random", test_statuses_random);
  return g_test_run ();
}
