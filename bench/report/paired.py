"""Paired comparisons of formulation x solver pairs on shared instances: the statistics behind
the verdicts (:mod:`bench.report.verdicts`), in numpy and scipy alone.

Data: a (pairs x instances) array ``y`` of log(min(t, L) + shift) per (pair, instance), ``t``
the folded build + solve time, ``L`` the instance's time limit (shared by every pair on it)
and every unanswered instance at ``L`` (a censored time); NaN where the pair did not run the
instance. A task that did not run is never a value: it is missing.

- :func:`maxt`: the selection-aware test against the best. The best is the candidate with the
  lowest mean ``y``; every other pair ``j`` has the statistic T_j = sqrt(n_j) x mean(y_j - y_best)
  over the n_j instances both ran (a sum, not studentised). Its adjusted p's are the step-down
  max-T permutation p's of Westfall & Young (1993, *Resampling-Based Multiple Testing*, Wiley,
  algorithm 2.8), with T as the statistic: one set of arrangements serves every step; within
  every instance of an arrangement the pair labels are permuted among the pairs that ran it
  (exact under the null that the pairs' times on an instance are exchangeable; the shared
  limit makes min(t, L) exchangeable too, so censoring needs no special treatment) and the
  whole statistic is computed again, the best included (chosen again in every arrangement:
  the observed best is selected as the lowest, so a permutation null that kept it fixed
  would compare a selected minimum with an unselected pair and separate too often). With the
  observed T's in decreasing order t_1 >= .. >= t_m, t_k's p is the share of arrangements
  whose maximum of T over the pairs k..m and the observed best (successive maxima; the best
  is never rejected, so its column is in every step: in an arrangement another pair may be
  best and that column carry a T) is at least t_k, made monotone (the largest of
  p_1 .. p_k). Equal statistics get equal p's (the largest of their tie), and
  the pairs are put in one order fixed by their data before anything is drawn, so neither
  the p's nor the verdicts depend on the order (the names) of the pairs. Answered-count gaps
  enter through the censored values like any other difference: no separate rule. The null is
  exchangeability of the pairs' times on an instance, not equal geometric means: a pair
  with the best's geometric mean and a wider spread is separated more often than ALPHA (a
  simulation of 2,000 draws, 5 pairs of equal geometric means, one at 5x the others'
  log-scale spread of 0.4, 10 % censored: some pair separated in 13 % of draws at 8
  instances, 11 % at 20).
  The permutations are seeded from the data's orbit (:func:`orbit_seed`): reproducible, and
  exact; data with at most as many arrangements as draws (two pairs on up to 9 instances)
  take every arrangement instead, so their p's are the exact permutation p's.
- :func:`log_interval`: the two-sided t-interval on paired differences of ``y`` (or on ``y``
  itself), back-transformed: exact for normal log times, and it holds its coverage at small n
  where the percentile bootstrap does not (simulated in the tests: at least 93 % of the nominal
  95 % at n = 8).
- Equivalence (:func:`equivalent`): two one-sided tests (Schuirmann 1987) at 2.5 % each, that
  is the 95 % t-interval of the ratio inside 1/``margin`` .. ``margin``; only where neither
  pair has a censored time on the instances both ran (a censored ratio is a bound, not an
  estimate).
"""

from __future__ import annotations

import hashlib
import itertools
import math
from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy import stats

ALPHA = 0.05
#: arrangements drawn for the max-T test, shared by its steps (p resolution
#: 1 / (PERMUTATIONS + 1))
PERMUTATIONS = 1000
SEED = 12345
#: the equivalence margin: a ratio within 1/MARGIN .. MARGIN is "the same speed"
MARGIN = 1.25
#: fewer instances than this: no interval is printed ("too few")
MIN_INTERVAL = 5
_TOL = 1e-9  # statistics equal up to rounding count as "at least as extreme"


@dataclass(frozen=True)
class MaxT:
    """The test of one group: ``best`` (index into the pairs), per pair ``stat`` (T_j, NaN for
    the best and pairs not tested), ``p`` (step-down adjusted, NaN likewise), ``common``
    (instances both it and the best ran) and ``critical``: in the last step (the successive
    maxima over the pairs not separated; over the last pair tested when every one is), the
    smallest T at which a pair would be separated there
    (:func:`threshold`); NaN when no permuted maximum has a p below alpha, as on 5 instances
    of two pairs: the step's 32 arrangements are all taken, and the most extreme sign pattern
    has p = 2/32."""

    best: int
    stat: np.ndarray
    p: np.ndarray
    common: np.ndarray
    critical: float


def _permuted(y: np.ndarray, rng: np.random.Generator, b: int) -> np.ndarray:
    """``b`` copies of ``y`` (instances x pairs, NaN not run) with the values of every row
    permuted among the pairs that ran that instance: (b, instances, pairs)."""
    ran = ~np.isnan(y)
    keys = rng.random((b, *y.shape))
    keys[:, ~ran] = np.inf
    order = np.argsort(keys, axis=-1)  # per row: the run positions first, in random order
    pos = np.broadcast_to(np.argsort(~ran, axis=-1, kind="stable"), order.shape)
    vals = np.take_along_axis(np.broadcast_to(y, order.shape), order, axis=-1)
    out = np.empty(order.shape)
    np.put_along_axis(out, pos, vals, axis=-1)
    return out


def arrangements(y: np.ndarray, most: int) -> np.ndarray | None:
    """Every arrangement of ``y`` (instances x pairs, NaN not run) that :func:`_permuted` draws
    from, each once per permutation of every row's values among the pairs that ran it:
    (count, instances, pairs), the count being the product over rows of (pairs run)!; None
    when that count exceeds ``most``. Taken whole, they are the permutation distribution
    itself, of which :func:`_permuted` draws a sample."""
    ran = ~np.isnan(y)
    sizes = ran.sum(axis=1)
    if math.prod(math.factorial(int(k)) for k in sizes) > most:
        return None
    rows = []
    for i in range(y.shape[0]):
        cols = np.flatnonzero(ran[i])
        out = []
        for order in itertools.permutations(cols):
            row = y[i].copy()
            row[cols] = y[i, list(order)]
            out.append(row)
        rows.append(out)
    return np.array([np.stack(pick) for pick in itertools.product(*rows)])


def _statistics(y: np.ndarray, cand: np.ndarray,
                tested: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For y of shape (..., instances, pairs): the best (argmin of the candidates' mean), T per
    pair (-inf for the best and the untested) and the instances each pair shares with it."""
    with np.errstate(invalid="ignore", divide="ignore"):
        ran = ~np.isnan(y)
        means = np.where(ran, y, 0.0).sum(-2) / ran.sum(-2)
        best = np.argmin(np.where(cand & ~np.isnan(means), means, np.inf), axis=-1)
        yb = np.take_along_axis(y, np.broadcast_to(best[..., None, None], (*y.shape[:-1], 1)),
                                axis=-1)
        d = y - yb
        ok = ~np.isnan(d)
        n = ok.sum(-2)
        t = np.where(ok, d, 0.0).sum(-2) / np.sqrt(np.maximum(n, 1))
    own = np.arange(y.shape[-1]) == best[..., None]
    t = np.where(own | ~tested | (n == 0), -np.inf, t)
    return best, t, n


def orbit_seed(y: np.ndarray) -> int:
    """A seed from what the permutations leave unchanged: per instance the sorted values and
    which pairs ran which instances, up to the order of the pairs (``y``: instances x pairs).
    The same data give the same p's, in whatever order the pairs come, and the
    permutations drawn depend on the data's orbit alone, never on where in it the data sit, so
    the Monte Carlo p stays exact over repeated data sets (a seed fixed for every data set
    draws one fixed set of permutations, whose size is the level only on average over sets)."""
    ran = ~np.isnan(y)
    h = hashlib.sha256(np.sort(np.where(ran, y, np.inf), axis=-1).tobytes())
    h.update(ran[:, np.lexsort(ran[::-1])].tobytes())
    h.update(str(y.shape).encode())
    return SEED ^ int.from_bytes(h.digest()[:8], "little")


def threshold(top_null: np.ndarray, permutations: int, alpha: float = ALPHA,
              exact: bool = False) -> float:
    """The smallest T whose p in a step with permuted maxima ``top_null`` is below ``alpha``:
    the least value v of ``top_null`` with (1 + #{null >= v}) / (permutations + 1) < alpha
    (with ``exact``, ``top_null`` every arrangement's: #{null >= v} / its size), the p a T of v
    gets (the count as :func:`maxt` takes it); NaN when there is none. The observed
    arrangement is one of the permuted ones, so its T is at most the largest of the orbit; in a
    step of two pairs on few instances (at most 2^(n-1) values) the permutations hold that
    largest value, and no larger T can occur."""
    every = np.sort(top_null)
    null = every[np.isfinite(every)]
    if not len(null):
        return math.nan
    at_least = len(every) - np.searchsorted(every, null - _TOL, side="left")
    ok = _share(at_least, len(every), permutations, exact) < alpha
    return float(null[np.argmax(ok)]) if ok.any() else math.nan


def _canonical(y: np.ndarray, cand: np.ndarray, test: np.ndarray) -> np.ndarray:
    """The column order in which :func:`maxt` computes: the pairs sorted by their data (which
    instances they ran, their values there, whether candidate and tested), so that the test
    sees the same array whatever order the pairs came in and its p's follow the pairs."""
    ran = ~np.isnan(y)
    keys = np.vstack([~ran, np.where(ran, y, 0.0), ~cand, ~test])
    return np.lexsort(keys[::-1])


def maxt(y: np.ndarray, candidates: np.ndarray | None = None, tested: np.ndarray | None = None,
         permutations: int = PERMUTATIONS, seed: int | None = None,
         alpha: float = ALPHA) -> MaxT:
    """The step-down max-T permutation test of every pair against the best (see the module);
    ``y`` is (pairs, instances); ``candidates`` may be best (default all), ``tested`` are
    compared with it (default all). One set of arrangements serves every step: every
    arrangement (:func:`arrangements`: the p's are exact) where they number at most
    ``permutations``, else ``permutations`` drawn, seeded (by default :func:`orbit_seed`): the
    same data give the same p's, in whatever order the pairs come (:func:`_canonical`)."""
    y0 = np.asarray(y, dtype=float).T  # instances x pairs
    pairs = y0.shape[1]
    cand0 = np.ones(pairs, bool) if candidates is None else np.asarray(candidates, bool)
    test0 = np.ones(pairs, bool) if tested is None else np.asarray(tested, bool)
    c = _canonical(y0, cand0, test0)
    y, cand, test = y0[:, c], cand0[c], test0[c]
    chosen, t_obs, n = _statistics(y, cand, test)
    whole = arrangements(y, permutations)  # small: every one, exactly
    exact = whole is not None
    if whole is None:
        rng = np.random.default_rng(orbit_seed(y) if seed is None else seed)
        whole = _permuted(y, rng, permutations)
    _, ts, _ = _statistics(whole, cand, test)  # (arrangements, pairs)
    p, critical = _step_down(t_obs, ts, permutations, exact, alpha)
    back = np.empty(pairs, int)
    back[c] = np.arange(pairs)  # column k of the input is column back[k] here
    stat = np.where(np.isfinite(t_obs), t_obs, np.nan)
    return MaxT(int(c[int(chosen)]), stat[back], p[back], n.astype(int)[back], critical)


def _step_down(t_obs: np.ndarray, ts: np.ndarray, permutations: int, exact: bool,
               alpha: float) -> tuple[np.ndarray, float]:
    """Westfall & Young's step-down max-T adjusted p's (1993, algorithm 2.8): the tested
    statistics in decreasing order t_1 >= .. >= t_m, each t_k's p the share of arrangements
    whose maximum over the hypotheses k..m (the successive maxima of one set of arrangements
    ``ts``) is at least t_k, made monotone (p_k the largest of p_1 .. p_k); statistics equal
    within rounding get the largest p of their tie, so the order among them is immaterial.
    The observed best (and any pair not tested) has no hypothesis of its own (T = -inf) and is
    never rejected, so its column stays in every successive maximum: in an arrangement the best
    is chosen again, and another pair's T may stand in that column. Left out, the first step
    would no longer be the max-T test over every arrangement's statistic (with two pairs, it
    would count only the arrangements whose best is the observed one, halving the p).
    Also the last step's threshold (:func:`threshold`): that of the first hypothesis not
    rejected, or of the last one when every one is."""
    p = np.full(len(t_obs), np.nan)
    m = int(np.isfinite(t_obs).sum())
    if not m:
        return p, math.nan
    every = np.argsort(-t_obs, kind="stable")  # the tested first; the best and untested last
    succ = np.maximum.accumulate(ts[:, every[::-1]], axis=1)[:, ::-1][:, :m]
    order = every[:m]
    t = t_obs[order]
    raw = _share(np.sum(succ >= t - _TOL, axis=0), len(ts), permutations, exact)
    adj = np.maximum.accumulate(raw)
    start = np.r_[0, np.flatnonzero(t[:-1] - t[1:] > _TOL) + 1]  # each tie's first index
    ends = np.r_[start[1:], len(t)] - 1
    adj = np.repeat(adj[ends], ends - start + 1)
    p[order] = adj
    stop = int(np.argmax(adj >= alpha)) if (adj >= alpha).any() else len(t) - 1
    return p, threshold(succ[:, stop], permutations, alpha, exact)


def _share(count: Any, size: int, permutations: int, exact: bool) -> Any:
    """The p of ``count`` maxima at least as large (a number or an array of them): their share
    of every arrangement (``exact``, ``size`` of them), else of the draws with the observed
    one counted in ((1 + count) / (permutations + 1), a valid Monte Carlo p)."""
    return count / size if exact else (1 + count) / (permutations + 1)


def log_interval(d: np.ndarray, level: float = 0.95) -> tuple[float, float, float]:
    """exp of the mean of ``d`` and of its two-sided t-interval (n - 1 degrees of freedom);
    NaN bounds below 2 values, the estimate alone where every value is the same."""
    d = np.asarray(d, dtype=float)
    if len(d) == 0:
        return math.nan, math.nan, math.nan
    m = float(d.mean())
    if len(d) < 2:
        return math.exp(m), math.nan, math.nan
    half = float(stats.t.ppf(0.5 + level / 2, len(d) - 1) * d.std(ddof=1) / math.sqrt(len(d)))
    return math.exp(m), math.exp(m - half), math.exp(m + half)


def equivalent(lo: float, hi: float, n: int, censored: bool, margin: float = MARGIN) -> bool:
    """TOST at 2.5 % per side: the 95 % interval of the ratio lies inside 1/margin .. margin,
    over at least MIN_INTERVAL instances, none of them censored for either pair."""
    return (not censored and n >= MIN_INTERVAL and lo == lo and hi == hi
            and 1 / margin <= lo and hi <= margin)
