"""The max-T test's step-down (:func:`bench.report.paired.maxt`): Westfall & Young's
algorithm 2.8, one set of arrangements shared by every step, successive maxima over the
hypotheses not yet rejected, monotone; equal statistics get equal p's, whatever the order of
the pairs."""

from __future__ import annotations

import itertools

import numpy as np

from bench.report import paired

L = float(np.log(3.01))
#: a real run's shape: the best, a pair answering one instance, four pairs that timed out on
#: all 11 instances (identical censored columns)
BEST = [L] * 5 + [-0.29, -0.05, L, 0.39, -0.87, L]
TIED = np.vstack([BEST, [L] * 8 + [0.07, L, L]] + [np.full(11, L)] * 4)


def test_pairs_with_identical_data_get_the_same_p_and_verdict():
    m = paired.maxt(TIED)
    assert m.best == 0
    p = m.p[2:]
    assert np.all(p == p[0]), p
    assert len({bool(x < paired.ALPHA) for x in p}) == 1


def test_the_p_values_do_not_depend_on_the_order_of_the_pairs():
    m = paired.maxt(TIED)
    for s in range(6):
        perm = np.random.default_rng(s).permutation(len(TIED))
        r = paired.maxt(TIED[perm])
        assert perm[r.best] == m.best
        np.testing.assert_array_equal(r.p, m.p[perm])
        np.testing.assert_array_equal(r.stat, m.stat[perm])


def _brute(y: np.ndarray) -> np.ndarray:
    """Algorithm 2.8 written out over every arrangement (no NaN): per arrangement the best
    (lowest mean) and T_j = sqrt(n) mean(y_j - y_best) (-inf for the best); the pairs by
    decreasing observed T, the observed best last (a hypothesis never rejected); p_k = share
    of arrangements whose max over pairs k.. (the best's column included) is >= t_k; then
    monotone."""
    pairs, n = y.shape

    def stat(a: np.ndarray) -> np.ndarray:
        b = int(np.argmin(a.mean(axis=1)))
        t = np.sqrt(n) * (a - a[b]).mean(axis=1)
        t[b] = -np.inf
        return t

    t_obs = stat(y)
    rows = [list(itertools.permutations(y[:, i])) for i in range(n)]
    null = np.array([stat(np.array(cols).T) for cols in itertools.product(*rows)])
    every = list(np.argsort(-t_obs, kind="stable"))  # the best (-inf) last: never rejected
    p = np.full(pairs, np.nan)
    running = 0.0
    for k, j in enumerate(every[:-1]):
        top = null[:, every[k:]].max(axis=1)
        running = max(running, float(np.mean(top >= t_obs[j] - 1e-9)))
        p[j] = running
    return p


def test_the_step_down_is_westfall_and_young_algorithm_2_8():
    rng = np.random.default_rng(5)
    for _ in range(5):
        y = rng.normal(size=(3, 3)) + np.array([[0.0], [1.0], [2.0]])  # 6^3 = 216 arrangements
        np.testing.assert_allclose(paired.maxt(y).p, _brute(y), equal_nan=True)
    y = np.vstack([rng.normal(size=4), rng.normal(size=4) + 2, np.full(4, 3.0)])  # 6^4 > 1000
    assert paired.arrangements(y.T, paired.PERMUTATIONS) is None
    m = paired.maxt(y)
    assert m.p[2] <= m.p[1] + 1e-12  # larger statistic, smaller (or equal) p: monotone


def test_removing_a_rejected_tied_pair_never_raises_the_next_p():
    """With one set of arrangements the successive maxima only fall as pairs leave, so the p's
    never fall down the order of the statistics (drawing each step afresh breaks this)."""
    m = paired.maxt(TIED)
    order = np.argsort(-np.nan_to_num(m.stat, nan=-np.inf), kind="stable")[:-1]
    assert np.all(np.diff(m.p[order]) >= 0)


def test_two_pairs_give_the_exact_sign_flip_p_and_hold_the_level():
    """Two pairs: the max-T p is the two-sided sign-flip p of the differences (every
    arrangement, the best chosen again in each), and over data with no difference between the
    pairs it separates in at most 5 % of draws (exact test)."""
    rng = np.random.default_rng(7)
    hits = 0
    for _ in range(400):
        y = rng.normal(size=(2, 9))
        d = y[1] - y[0]
        signs = np.array(list(itertools.product([1, -1], repeat=9)))
        exact = float(np.mean(np.abs(signs @ d) >= abs(d.sum()) - 1e-9))
        p = paired.maxt(y).p
        assert np.nanmin(p) == exact
        hits += exact < paired.ALPHA
    assert hits / 400 <= 0.07
