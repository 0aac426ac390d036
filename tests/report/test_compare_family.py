"""``puzzlebench compare``'s family: a pair on too few instances for any sign flip to give a p
below the level (2 / 2^n, n its instances) is left out of the max-T test, so it cannot take
the power of a clear change elsewhere (written through the real writers)."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from bench.report import signflip
from bench.report.compare import TESTED, compare
from tests.report.test_compare_pairs import result, write


def _run(folder: Path, slower: float, small: int, seed: int) -> Path:
    """12 instances of sat-a (times ``slower`` x a base, log-normal noise) and ``small`` of
    cpsat-a, whose B/A is about 1.4 on each of them (nearly constant: its |T| is large under
    the flips that keep its signs)."""
    rng, base = np.random.default_rng(seed), np.exp(np.random.default_rng(0).normal(0, 1, 12))
    out = [result("sat-a", "cadical195", "sat", f"real-{i:02d}",
                  float(b * slower * np.exp(rng.normal(0, 0.3)))) for i, b in enumerate(base)]
    b_run = slower != 1.0
    out += [result("cpsat-a", "cpsat", "cpsat", f"real-{i:02d}",
                   float(b * (1.4 if b_run else 1.0) * (1 + 0.003 * i)))
            for i, b in enumerate(base[:small])]
    return write(folder, out)


@pytest.mark.parametrize("small", [2, 5])
def test_a_pair_on_too_few_instances_does_not_hide_a_clear_change(tmp_path: Path,
                                                                  small: int) -> None:
    a = _run(tmp_path / "a", 1.0, small, 1)
    b = _run(tmp_path / "b", 1.6, small, 2)
    pairs = compare(a, b)[1].set_index("pair")
    sat, cp = pairs.loc["sat-a / cadical195"], pairs.loc["cpsat-a / cpsat"]
    assert sat["instances"] == 12 and sat["verdict"] == "changed", sat["label"]
    assert sat["p"] < 0.01
    assert math.isnan(cp["p"]) and cp["verdict"] == "inconclusive"
    assert cp["label"].endswith("too few for an interval)" if small < 5 else
                                "too few for the test)")


def test_the_family_takes_the_pairs_whose_smallest_p_is_below_the_level() -> None:
    assert TESTED == 6
    assert list(signflip.testable(np.arange(1, 9))) == [False] * 5 + [True] * 3
    assert 2 / 2 ** (TESTED - 1) >= 0.05 > 2 / 2 ** TESTED
