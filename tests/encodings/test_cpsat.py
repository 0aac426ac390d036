"""The CP-SAT encodings on tiny grids, counted by enumeration against brute force. The models
are solved in one spawned process (:mod:`tests.encodings.cpsat_cases`)."""

from __future__ import annotations

import importlib.util
import multiprocessing
from concurrent.futures import ProcessPoolExecutor

import pytest

from tests.encodings import cpsat_cases
from tests.encodings.brute import connected_subsets, no_pool_subsets

pytestmark = pytest.mark.skipif(importlib.util.find_spec("ortools") is None,
                                reason="ortools is not installed")


@pytest.fixture(scope="module")
def results():
    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool:
        return dict(zip(cpsat_cases.CASES, pool.map(cpsat_cases.run, cpsat_cases.CASES),
                        strict=True))


@pytest.mark.parametrize("case", ["tree-free", "tree-first", "lazy-component", "lazy-pair"])
def test_connected_counts_connected_sets(results, case) -> None:
    assert results[case] == connected_subsets(3, 3)


def test_connected_at_a_root_cell(results) -> None:
    assert results["tree-root"] == connected_subsets(3, 3, containing=(1, 1), max_size=4)


def test_no_2x2_and_cardinality(results) -> None:
    assert results["no-2x2"] == no_pool_subsets(2, 3)
    assert (len(results["exactly-2"]), len(results["at-most-2"])) == (10, 16)


def test_region_of_size_three_at_the_centre(results) -> None:
    want = {s for s in connected_subsets(3, 3, containing=(1, 1)) if len(s) == 3}
    assert results["region"] == want and len(want) == 14


def test_unsupported_methods_say_so(results) -> None:
    assert [e.split(":")[0].split(" ")[0] for e in results["errors"]] == [
        "cpsat", "root", "cpsat"]
