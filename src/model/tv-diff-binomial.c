/* tv-diff-binomial.c: the exact binomial test a diff applies to each node
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A node has x1 samples of BASE's n1 and x2 of NEW's n2; one sample is
 * worth w1 and w2 (seconds per sample by time, 1/n by share).  The
 * hypothesis is that the node is worth the same on both sides,
 * x1 w1 = x2 w2 in expectation.  Conditioned on the node's m = x1 + x2
 * samples, x2 is then binomial with m trials and q = w1 / (w1 + w2), and
 * the p-value is twice the smaller tail of that binomial at x2 (capped at
 * 1).  By share, q = n2 / (n1 + n2): this is the binomial test on the share
 * of samples given both sample counts.  By time, q compares the sampling
 * rates, and it is the exact test of two Poisson rates (Przyborowski and
 * Wilenski): a node is slower when NEW spent more seconds in it, whether or
 * not its share changed.  The test thus answers the question the chosen
 * normalisation asks; a share test under time normalisation would call a
 * whole run that got 20 % slower unchanged, and every function that stayed
 * the same "faster" when one function got slower.
 *
 * Why this test rather than a z-test with continuity correction: it is
 * exact.  A flame graph is thousands of small nodes, and at small counts
 * the normal approximation's false-positive rate is not the one asked for
 * (too high without the correction, erratic with it); how much noise lights
 * up is decided there.  Conditioning on m removes the unknown common rate
 * without estimating it.  Being discrete, and doubling the smaller tail,
 * the test is conservative: under the hypothesis a node is called
 * significant with probability at most 1 - confidence, less at small
 * counts.  When a profile's number of samples is fixed and only where they
 * fall is random (wall-clock mode, by share), x2 given m is hypergeometric
 * rather than binomial, with a variance smaller by
 * (n1 + n2 - m) / (n1 + n2 - 1): for a node that holds much of the samples
 * the binomial test is then conservative too.  Past a variance of
 * m q (1 - q) = 4e6 (a node with millions of samples) the tail is taken
 * from the normal distribution with continuity correction, whose error
 * there (skewness under 5e-4) is far below anything shown.
 *
 * What no test on counts can know: that consecutive samples are not
 * independent (a long call is sampled many times in a row), and that two
 * runs of a program differ by more than sampling noise (caches, other
 * load).  The p-value bounds the first kind of error only; the tooltip
 * should say "sampling noise", not "the program".
 */
#include "tv-diff-private.h"

#include <math.h>

#define N_SMALL_FACTORIALS 4096

static double small_log_factorials[N_SMALL_FACTORIALS];

/* log (n!): from a table for the small counts most nodes have, from
 * Stirling's series past that (the first term left out is under 1e-30),
 * so that no call touches lgamma()'s global signgam. */
static double
log_factorial (guint64 n)
{
  double x, x2;

  if (n < N_SMALL_FACTORIALS)
    return small_log_factorials[n];
  x = (double) n + 1;
  x2 = x * x;
  return (x - 0.5) * log (x) - x + 0.91893853320467274178
         + (1.0 / 12 - (1.0 / 360 - (1.0 / 1260 - 1.0 / (1680 * x2)) / x2) / x2) / x;
}

static void
init_log_factorials (void)
{
  static gsize done = 0;

  if (g_once_init_enter (&done))
    {
      double sum = 0;

      small_log_factorials[0] = 0;
      for (guint n = 1; n < N_SMALL_FACTORIALS; n++)
        small_log_factorials[n] = sum += log ((double) n);
      g_once_init_leave (&done, 1);
    }
}

gboolean
tv_binomial_init (TvBinomial *b,
                  double      base_weight,
                  double      new_weight)
{
  if (!(base_weight > 0) || !(new_weight > 0)
      || !isfinite (base_weight) || !isfinite (new_weight))
    return FALSE;
  b->q = base_weight / (base_weight + new_weight);
  if (!(b->q > 0 && b->q < 1))
    return FALSE;
  b->log_q = log (b->q);
  b->log_1mq = log1p (-b->q);
  b->odds = b->q / (1 - b->q);
  init_log_factorials ();
  return TRUE;
}

/* P(X >= k), or P(X <= k) when not UPPER, for X binomial (m, q): the
 * terms from k outwards, relative to the first, until they no longer
 * count. */
static double
binomial_tail (const TvBinomial *b,
               guint64           m,
               guint64           k,
               gboolean          upper)
{
  double log_first, sum = 1, term = 1;

  if (upper ? k == 0 : k >= m)
    return 1;
  log_first = log_factorial (m) - log_factorial (k) - log_factorial (m - k)
              + (double) k * b->log_q + (double) (m - k) * b->log_1mq;
  if (upper)
    for (guint64 j = k; j < m; j++)
      {
        term *= (double) (m - j) / (double) (j + 1) * b->odds;
        sum += term;
        if (term < sum * 1e-17)
          break;
      }
  else
    for (guint64 j = k; j > 0; j--)
      {
        term *= (double) j / (double) (m - j + 1) / b->odds;
        sum += term;
        if (term < sum * 1e-17)
          break;
      }
  /* Where exp() underflows the p-value is below 1e-300 anyway. */
  return MIN (1.0, exp (log_first) * sum);
}

double
tv_binomial_p_value (const TvBinomial *b,
                     guint64           base_count,
                     guint64           new_count)
{
  guint64 m = base_count + new_count;
  double mean = (double) m * b->q;
  double variance = mean * (1 - b->q);

  if (m == 0)
    return 1;
  if (variance > 4e6)
    {
      double z = (fabs ((double) new_count - mean) - 0.5) / sqrt (variance);

      return z <= 0 ? 1 : MIN (1.0, erfc (z / G_SQRT2));
    }
  return MIN (1.0, 2 * binomial_tail (b, m, new_count, (double) new_count >= mean));
}

/**
 * tv_diff_p_value:
 *
 * The test is described at the top of this file.
 *
 * Returns: the two-sided p-value, 1 when there is nothing to test
 */
double
tv_diff_p_value (guint64 base_count,
                 double  base_weight,
                 guint64 new_count,
                 double  new_weight)
{
  TvBinomial b;

  if (!tv_binomial_init (&b, base_weight, new_weight))
    return 1;
  return tv_binomial_p_value (&b, base_count, new_count);
}

