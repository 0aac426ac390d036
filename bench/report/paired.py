"""Paired comparisons of formulation x solver pairs on shared instances: the statistics behind
the verdicts (:mod:`bench.report.verdicts`), in numpy and scipy alone.

Data: a (pairs x instances) array ``y`` of log(min(t, L) + shift) per (pair, instance), ``t``
the folded build + solve time, ``L`` the instance's time limit (shared by every pair on it)
and every unanswered instance at ``L`` (a censored time); NaN where the pair did not run the
instance. A task that did not run is never a value: it is missing.

- :func:`maxt`: the selection-aware test against the best. The best is the candidate with the
  lowest mean ``y``; every other pair ``j`` has the statistic T_j = sqrt(n_j) x mean(y_j - y_best)
  over the n_j instances both ran (a sum, not studentised). Its adjusted p comes from a
  variant of the step-down max-T permutation method of Westfall & Young (1993,
  *Resampling-Based Multiple Testing*, Wiley, algorithm 4.1): it differs in the statistic
  (unstudentised), in choosing the best again in every permutation (the observed best is
  selected as the lowest, so a null that kept it fixed would compare a selected minimum with
  an unselected pair and separate too often), and in drawing each step's permutations afresh
  among the pairs left rather than taking successive maxima of one set of permutations (the
  step-down of J. P. Romano, M. Wolf, "Exact and approximate stepdown methods for multiple
  hypothesis testing", JASA 100 (2005): a pair already separated, often one far slower, never
  enters a later step's null). Within every instance the pair labels are permuted among the
  pairs that ran it (exact under the null that the pairs' times on an instance are
  exchangeable; the shared limit makes min(t, L) exchangeable too, so censoring needs no
  special treatment), and T_j is compared with the maximum over the other pairs of the
  permuted statistics. Step-down: once the largest T is rejected its pair leaves the
  permutations and the next largest is tested among the pairs left (closed testing of "these
  pairs are alike"), adjusted p's kept monotone. Equal statistics get equal p's (the largest
  of their tie), and the pairs are put in one order fixed by their data before anything is
  drawn, so neither the p's nor the verdicts depend on the order (the names) of the pairs.
  Answered-count gaps enter through the censored values like any other difference: no
  separate rule. Pairs of another instance set than the candidates (``two_sided``: they did
  not run every instance the best did, or ran others) are in the same family: the labels of
  an instance are permuted among the pairs that ran it (NaN stays NaN where a pair did not),
  such a pair's statistic is over the instances it shares with the best chosen in that
  permutation, and it enters the maximum as |T_j| (it may be faster than the best there),
  so one step-down holds the level over all the group's pairs. The null is exchangeability of the
  pairs' times on an instance, not equal geometric means: a pair with the best's geometric mean and
  a wider spread is separated more often than ALPHA (about 11 % of draws in a simulation with one of
  5 pairs at 5x the log-scale spread).
  The permutations are seeded from the data's orbit (:func:`orbit_seed`): reproducible, and
  exact; a step with at most as many arrangements as draws (two pairs on up to 9 instances)
  takes every arrangement instead, so its p is the exact permutation p.
- :func:`log_interval`: the two-sided t-interval on paired differences of ``y`` (or on ``y``
  itself), back-transformed: exact for normal log times, and it holds its coverage at small n
  where the percentile bootstrap does not (simulated in the tests: at least 93 % of the nominal
  95 % at n = 8).
- Equivalence (:func:`equivalent`): two one-sided tests (Schuirmann 1987) at 2.5 % each, that
  is the 95 % t-interval of the ratio inside 1/``margin`` .. ``margin``; only where neither
  pair has a censored time on the instances both ran (a censored ratio is a bound, not an
  estimate) and the differences have a positive standard deviation (a zero-width interval is
  no confidence interval: a constant ratio of 1.11 is not equivalent), except where they are
  all zero (the same times on every instance: a ratio of exactly 1).
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
#: permutations per step of the max-T test (p resolution 1 / (PERMUTATIONS + 1))
PERMUTATIONS = 1000
SEED = 12345
#: the equivalence margin: a ratio within 1/MARGIN .. MARGIN is "the same speed"
MARGIN = 1.25
#: fewer instances than this: no interval is printed ("too few")
MIN_INTERVAL = 5
_TOL = 1e-9  # statistics equal up to rounding count as "at least as extreme"
_FLAT = 1e-9  # an interval narrower than this, relative to its upper end, has zero width


@dataclass(frozen=True)
class MaxT:
    """The test of one group: ``best`` (index into the pairs), per pair ``stat`` (T_j, |T_j| for a
    pair tested two-sided, NaN for the best and pairs not tested), ``p`` (step-down adjusted, NaN
    likewise), ``common`` (instances both it and the best ran) and ``critical``: in the last step
    (among the pairs not separated), the smallest T at which a pair would be separated there
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


def _statistics(y: np.ndarray, cand: np.ndarray, tested: np.ndarray,
                two: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For y of shape (..., instances, pairs): the best (argmin of the candidates' mean), T per
    pair (|T| for the pairs ``two``, tested two-sided; -inf for the best and the untested) and
    the instances each pair shares with it."""
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
    if two is not None:
        t = np.where(two, np.abs(t), t)
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


def _canonical(y: np.ndarray, cand: np.ndarray, test: np.ndarray,
               two: np.ndarray) -> np.ndarray:
    """The column order in which :func:`maxt` computes: the pairs sorted by their data (which
    instances they ran, their values there, whether candidate, tested and two-sided), so that
    the test sees the same array whatever order the pairs came in and its p's follow the
    pairs."""
    ran = ~np.isnan(y)
    keys = np.vstack([~ran, np.where(ran, y, 0.0), ~cand, ~test, two])
    return np.lexsort(keys[::-1])


def maxt(y: np.ndarray, candidates: np.ndarray | None = None, tested: np.ndarray | None = None,
         permutations: int = PERMUTATIONS, seed: int | None = None,
         alpha: float = ALPHA, two_sided: np.ndarray | None = None) -> MaxT:
    """The step-down max-T permutation test of every pair against the best (see the module);
    ``y`` is (pairs, instances, NaN where a pair did not run an instance); ``candidates`` may
    be best (default all: they must share one instance set, so T >= 0 for each), ``tested``
    are compared with it (default all), ``two_sided`` (default none) are tested on |T|: a pair
    of another instance set than the candidates, which may be faster than the best on the
    instances both ran. A step whose arrangements number at most ``permutations``
    takes every one of them (:func:`arrangements`: its p is exact); a larger one draws
    ``permutations``, seeded (by default :func:`orbit_seed`): the same data give the same
    p's, in whatever order the pairs come (:func:`_canonical`)."""
    y0 = np.asarray(y, dtype=float).T  # instances x pairs
    pairs = y0.shape[1]
    cand0 = np.ones(pairs, bool) if candidates is None else np.asarray(candidates, bool)
    test0 = np.ones(pairs, bool) if tested is None else np.asarray(tested, bool)
    two0 = np.zeros(pairs, bool) if two_sided is None else np.asarray(two_sided, bool)
    c = _canonical(y0, cand0, test0, two0)
    y, cand, test, two = y0[:, c], cand0[c], test0[c], two0[c]
    chosen, t_obs, n = _statistics(y, cand, test, two)
    rng = np.random.default_rng(orbit_seed(y) if seed is None else seed)
    p, critical = _step_down(y, (cand, test, two), t_obs, rng, permutations, alpha)
    back = np.empty(pairs, int)
    back[c] = np.arange(pairs)  # column k of the input is column back[k] here
    stat = np.where(np.isfinite(t_obs), t_obs, np.nan)
    return MaxT(int(c[int(chosen)]), stat[back], p[back], n.astype(int)[back], critical)


def _step_down(y: np.ndarray, roles: tuple[np.ndarray, np.ndarray, np.ndarray],
               t_obs: np.ndarray, rng: np.random.Generator, permutations: int,
               alpha: float) -> tuple[np.ndarray, float]:
    """The adjusted p's of the tested pairs (``y``: instances x pairs; ``roles``: per pair
    candidate, tested, two-sided) and the last step's threshold (:func:`threshold`). Each
    step draws its own permutations of the labels among the pairs not yet
    separated (the best included, chosen again in every arrangement) and tests the largest
    T left against the maxima of those arrangements; p's kept monotone, and a step at or
    above ``alpha`` ends the test (the rest take that step's p, at least). Statistics equal
    within rounding get the largest p of their tie, so which of them a step takes first is
    immaterial."""
    cand, test, two = roles
    pairs = y.shape[1]
    p = np.full(pairs, np.nan)
    members = np.ones(pairs, bool)
    active = np.isfinite(t_obs)
    critical, running = math.nan, 0.0
    while active.any():
        idx = np.flatnonzero(members)
        whole = arrangements(y[:, idx], permutations)  # small: every one, exactly
        sub = whole if whole is not None else _permuted(y[:, idx], rng, permutations)
        _, ts, _ = _statistics(sub, cand[idx], test[idx], two[idx])
        top_null = ts.max(axis=-1)  # one per arrangement: -inf where nothing is comparable
        exact = whole is not None
        critical = threshold(top_null, permutations, alpha, exact)
        order = np.flatnonzero(active)[np.argsort(-t_obs[active], kind="stable")]
        top = order[0]
        running = max(running, _p(top_null, t_obs[top], permutations, exact))
        p[top] = running
        active[top] = False
        if running >= alpha:  # stop: the rest keep at least this p
            for j in order[1:]:
                p[j] = max(running, _p(top_null, t_obs[j], permutations, exact))
            break
        members[top] = False
    return _ties_equal(p, t_obs), critical


def _ties_equal(p: np.ndarray, t_obs: np.ndarray) -> np.ndarray:
    """``p`` with every group of statistics equal within rounding given its largest p."""
    tested = np.flatnonzero(np.isfinite(t_obs))
    order = tested[np.argsort(-t_obs[tested], kind="stable")]
    t = t_obs[order]
    if not len(t):
        return p
    start = np.r_[0, np.flatnonzero(t[:-1] - t[1:] > _TOL) + 1]
    ends = np.r_[start[1:], len(t)] - 1
    out = p.copy()
    for s, e in zip(start, ends, strict=True):
        out[order[s:e + 1]] = np.max(p[order[s:e + 1]])
    return out


def _p(top_null: np.ndarray, t: float, permutations: int, exact: bool) -> float:
    """The p of a statistic ``t`` against a step's maxima (:func:`_share` of those at least as
    large)."""
    return float(_share(int(np.sum(top_null >= t - _TOL)), len(top_null), permutations, exact))


def _share(count: Any, size: int, permutations: int, exact: bool) -> Any:
    """The p of ``count`` maxima at least as large (a number or an array of them): their share
    of every arrangement (``exact``, ``size`` of them), else of the draws with the observed
    one counted in ((1 + count) / (permutations + 1), a valid Monte Carlo p)."""
    return count / size if exact else (1 + count) / (permutations + 1)


def log_interval(d: np.ndarray, level: float = 0.95) -> tuple[float, float, float]:
    """exp of the mean of ``d`` and of its two-sided t-interval (n - 1 degrees of freedom);
    NaN bounds below 2 values; where every value is the same the interval has zero width (no
    interval of a spread: :func:`equivalent` never takes it for one)."""
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
    over at least MIN_INTERVAL instances, none of them censored for either pair, and the
    interval has a width (the differences a positive standard deviation): a zero-width
    t-interval is no confidence interval, so a constant ratio of 1.11 over every instance is
    not equivalent. The one exception is a ratio of exactly 1 on every instance (the same
    times everywhere, up to rounding): no difference at all, equivalent with no uncertainty."""
    if censored or n < MIN_INTERVAL or lo != lo or hi != hi:
        return False
    if hi - lo <= _FLAT * hi:  # zero width: only the same times on every instance
        return abs(lo - 1) <= _FLAT and abs(hi - 1) <= _FLAT
    return 1 / margin <= lo and hi <= margin
