"""The MIP-solver analysis's own multiplicity correction (Holm 1979), checked by hand and
against statsmodels."""

import numpy as np
import pytest

from bench.analysis.mip_solvers import holm


def test_holm_step_down_worked_by_hand():
    # Holm's rule: sorted p_(i) times (m - i + 1), running maximum, capped at 1:
    # 0.005 x 4 = 0.02, 0.01 x 3 = 0.03, 0.03 x 2 = 0.06, 0.04 x 1 -> max(0.04, 0.06)
    got = holm(np.array([0.01, 0.04, 0.03, 0.005]))
    assert got == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert np.isnan(holm(np.array([np.nan, 0.01]))[0])


def test_holm_agrees_with_statsmodels():
    multipletests = pytest.importorskip("statsmodels.stats.multitest").multipletests
    rng = np.random.default_rng(0)
    p = rng.uniform(0, 0.2, (6, 7)) ** 2
    got = holm(p)
    for row, mine in zip(p, got, strict=True):
        assert mine == pytest.approx(multipletests(row, method="holm")[1])
    with_nan = p[0].copy()
    with_nan[[1, 4]] = np.nan
    keep = ~np.isnan(with_nan)
    assert holm(with_nan)[keep] == pytest.approx(
        multipletests(with_nan[keep], method="holm")[1])
