"""The max-T test's step-down (:func:`bench.report.paired.maxt`): each step permutes among
the pairs not yet separated, p's monotone; equal statistics get equal p's, whatever the order
of the pairs."""

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
    """The step-down written out over every arrangement (no NaN): per arrangement the best
    (lowest mean) and T_j = sqrt(n) mean(y_j - y_best) (-inf for the best); the pairs by
    decreasing observed T; each step permutes the labels among the pairs not yet separated
    (the best included) and takes the share of arrangements whose max T is >= t_k; monotone;
    a step at or above alpha ends it, the rest taking at least its p."""
    pairs, n = y.shape

    def stat(a: np.ndarray) -> np.ndarray:
        b = int(np.argmin(a.mean(axis=1)))
        t = np.sqrt(n) * (a - a[b]).mean(axis=1)
        t[b] = -np.inf
        return t

    t_obs = stat(y)
    order = list(np.argsort(-t_obs, kind="stable"))[:-1]  # the best (-inf) last: never tested
    members = list(range(pairs))
    p = np.full(pairs, np.nan)
    running = 0.0
    for k, j in enumerate(order):
        rows = [list(itertools.permutations(y[members, i])) for i in range(n)]
        null = np.array([stat(np.array(cols).T).max() for cols in itertools.product(*rows)])
        running = max(running, float(np.mean(null >= t_obs[j] - 1e-9)))
        p[j] = running
        if running >= paired.ALPHA:
            for r in order[k + 1:]:
                p[r] = max(running, float(np.mean(null >= t_obs[r] - 1e-9)))
            break
        members.remove(j)
    return p


def test_the_step_down_permutes_among_the_pairs_not_yet_separated():
    rng = np.random.default_rng(5)
    for _ in range(5):
        y = rng.normal(size=(3, 3)) + np.array([[0.0], [1.0], [2.0]])  # 6^3 = 216 arrangements
        np.testing.assert_allclose(paired.maxt(y).p, _brute(y), equal_nan=True)
    y = np.vstack([rng.normal(size=4), rng.normal(size=4) + 2, np.full(4, 3.0)])  # 6^4 > 1000
    assert paired.arrangements(y.T, paired.PERMUTATIONS) is None
    m = paired.maxt(y)
    assert m.p[2] <= m.p[1] + 1e-12  # larger statistic, smaller (or equal) p: monotone


def test_the_p_values_never_fall_down_the_order_of_the_statistics():
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
