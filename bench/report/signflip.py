"""The step-down max-T sign-flip permutation test of paired differences, family-wise over many
pairs (Westfall & Young 1993, *Resampling-Based Multiple Testing*, Wiley, algorithm 4.1), as
``puzzlebench compare`` uses it (:mod:`bench.report.compare`).

Data: ``d`` (instances x pairs), a paired difference per instance and pair (NaN where the pair
lacks the instance). H_j: pair j's differences are symmetric about 0 (the two runs are
exchangeable on each instance). Statistic: the studentised |T_j| = |mean d_j| /
(sd d_j / sqrt(n_j)). Null distribution: the signs of each instance's row flipped together
(every pair on an instance at once, which keeps the pairs' dependence); sums of squares do not
change under a flip, so each draw costs one matrix product. Every sign vector is enumerated
over at most EXACT_UNITS instances (an exact p), else PERMUTATIONS are drawn, seeded from the
data's orbit under the flips (the absolute differences): the same data give the same p's.
Step-down: pair r's adjusted p is the share of draws whose maximum over the pairs not more
significant than r reaches its |T|, kept monotone.

Family (:func:`testable`): only pairs that could be rejected enter it. On n instances the
observed signs and their negation give the observed |T|, so a pair's p is at least 2 / 2^n
(1/16 on 5 instances), and its studentised |T| on few instances (t with n - 1 degrees of
freedom) is heavy-tailed: a pair that cannot reach the level would only widen every draw's
maximum and take the power of the others (leaving out hypotheses that cannot be rejected:
R. E. Tarone, "A modified Bonferroni method for discrete data", Biometrics 46 (1990)). The
choice depends on the instance counts alone, never on the values, so the family's
error rate holds."""

from __future__ import annotations

import hashlib
import itertools
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

import bench.report.paired as paired

#: at most this many instances: every sign vector is enumerated (an exact p)
EXACT_UNITS = 12
#: sign vectors drawn over more instances (p resolution 1 / (PERMUTATIONS + 1))
PERMUTATIONS = 4999


@dataclass(frozen=True)
class SignFlip:
    """The test over a family of pairs: per pair (column) ``stat`` |T| (NaN: fewer than two
    instances, not tested), ``p`` step-down adjusted (NaN likewise), ``n`` instances; and
    ``draws``, the sign vectors used (every one when ``exact``)."""

    stat: np.ndarray
    p: np.ndarray
    n: np.ndarray
    draws: int
    exact: bool


def _t(sums: np.ndarray, ss: np.ndarray, n: np.ndarray) -> np.ndarray:
    """|T| = |mean| / (sd / sqrt(n)) from per-pair sums, sums of squares and counts (along the
    last axis; NaN below two values; 0 for no difference at all, inf for equal non-zero
    differences)."""
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = sums / n
        var = np.maximum(ss - sums * mean, 0.0) / (n - 1)
        flat = var <= 1e-12 * np.maximum(ss / n, 1e-300)
        t = np.abs(mean) / np.sqrt(var / n)
        t = np.where(flat, np.where(np.abs(mean) <= 1e-12, 0.0, np.inf), t)
    return np.where(n >= 2, t, np.nan)


def _signs(units: int, seed: int, chunk: int = 512) -> Iterator[np.ndarray]:
    """Chunks of sign vectors (rows of +-1 over ``units``): every one (the identity among
    them) when units <= EXACT_UNITS, else PERMUTATIONS random ones."""
    if units <= EXACT_UNITS:
        every = np.array(list(itertools.product((1.0, -1.0), repeat=units))).reshape(-1, units)
        for i in range(0, len(every), chunk):
            yield every[i:i + chunk]
        return
    rng = np.random.default_rng(seed)
    for i in range(0, PERMUTATIONS, chunk):
        yield rng.choice((1.0, -1.0), size=(min(chunk, PERMUTATIONS - i), units))


def sign_flip_maxt(d: np.ndarray) -> SignFlip:
    """The step-down max-T sign-flip test (Westfall & Young 1993, algorithm 4.1) of the
    columns of ``d`` (instances x pairs, NaN where a pair lacks the instance): H_j "no change
    in pair j", two-sided, family-wise over all columns (see the module)."""
    d = np.asarray(d, dtype=float).reshape(len(d), -1)
    have = ~np.isnan(d)
    d0 = np.where(have, d, 0.0)
    n = have.sum(0).astype(float)
    ss = (d0 ** 2).sum(0)
    obs = _t(d0.sum(0), ss, n)
    tested = ~np.isnan(obs)
    p = np.full(d.shape[1], np.nan)
    if not tested.any():
        return SignFlip(obs, p, n.astype(int), 0, True)
    order = np.flatnonzero(tested)[np.argsort(-obs[tested], kind="stable")]
    digest = hashlib.sha256(np.abs(d0).tobytes() + have.tobytes() + str(d.shape).encode())
    seed = paired.SEED ^ int.from_bytes(digest.digest()[:8], "little")
    hits = np.zeros(len(order))
    draws, exact = 0, len(d) <= EXACT_UNITS
    for signs in _signs(len(d), seed):
        ts = _t(signs @ d0[:, order], ss[order], n[order])  # (draws, tested) in order
        # successive maxima from the least significant up (the step-down's max over the
        # hypotheses not yet rejected)
        u = np.maximum.accumulate(np.nan_to_num(ts, nan=0.0, posinf=np.inf)[:, ::-1],
                                axis=1)[:, ::-1]
        hits += (u >= obs[order] - 1e-9).sum(0)
        draws += len(signs)
    raw = hits / draws if exact else (hits + 1) / (draws + 1)
    p[order] = np.maximum.accumulate(raw)
    return SignFlip(obs, p, n.astype(int), draws, exact)


def testable(n: np.ndarray | int, alpha: float = paired.ALPHA) -> np.ndarray:
    """Per pair with ``n`` instances: whether the test can reject it, at least
    :data:`~bench.report.paired.MIN_INTERVAL` instances (the labels' minimum) and a smallest
    attainable p, 2 / 2^n, below ``alpha`` (from 6 instances at 0.05). The family of
    :func:`sign_flip_maxt` is these pairs alone (see the module)."""
    k = np.asarray(n, dtype=float)
    return (k >= paired.MIN_INTERVAL) & (2.0 ** (1.0 - k) < alpha)


def holm(p: np.ndarray) -> np.ndarray:
    """Holm's step-down adjustment of ``p`` (Holm 1979, *A simple sequentially rejective
    multiple test procedure*): the k-th smallest times (m - k + 1), kept monotone, at most 1."""
    order = np.argsort(p, kind="stable")
    m = len(p)
    adj = np.minimum(1.0, np.maximum.accumulate((m - np.arange(m)) * p[order])) if m else p
    out = np.empty(m)
    out[order] = adj
    return out
