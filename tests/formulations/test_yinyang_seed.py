"""The seed's CP-SAT model (``cpsat-seed``): faithful where the seed is stronger than the rules,
exact as ``[root=model,edges=spanning]``."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.records import Result, Task
from bench.run.execute import execute

ROOT = Path(__file__).resolve().parent.parent.parent
DATA = ROOT / "tests" / "data"
SEED = "cpsat-seed[root=first-stone,edges=every-adjacency]"
EXACT = "cpsat-seed[root=model,edges=spanning]"
VARIANTS = [SEED, "cpsat-seed[root=model,edges=every-adjacency]",
            "cpsat-seed[root=first-stone,edges=spanning]", EXACT]
INSTANCES = sorted((ROOT / "instances" / "yinyang").glob("*.txt"))


def solve(path: Path, formulation: str, count: int = 0) -> Result:
    return execute(Task(instance=str(path), formulation=formulation, solver="cpsat",
                        time_limit=60, count=count))


@pytest.mark.parametrize("formulation", VARIANTS)
@pytest.mark.parametrize("path", INSTANCES, ids=lambda p: p.stem)
def test_every_variant_solves_the_committed_puzzles_uniquely(path: Path, formulation: str):
    res = solve(path, formulation, count=2)
    assert res.status == "solved", res.message
    assert res.checked and res.count == 1


@pytest.mark.parametrize("name", ["yinyang-4x4-black-only", "yinyang-3x4-empty"])
def test_seed_needs_a_stone_of_each_colour(name: str):
    res = solve(DATA / f"{name}.txt", SEED)
    assert res.status == "error" and "needs a given stone of each colour" in res.message
    res = solve(DATA / f"{name}.txt", EXACT)
    assert res.status == "solved" and res.checked


@pytest.mark.parametrize("name", ["yinyang-5x5-ring", "yinyang-2x3-single"])
def test_seed_cuts_off_cycles_and_one_cell_colours(name: str):
    # the ring: a black cycle (every same-colour adjacency carries an edge: trees only);
    # the single: a one-cell white class (a root must have an outgoing edge)
    res = solve(DATA / f"{name}.txt", SEED)
    assert res.status == "infeasible"
    assert res.known is False and "known solution" in res.message
    res = solve(DATA / f"{name}.txt", EXACT, count=2)
    assert res.status == "solved" and res.known is True and res.count == 1
    assert res.exact is True


def test_spanning_edges_alone_allow_the_ring_but_seed_roots_still_need_stones():
    res = solve(DATA / "yinyang-5x5-ring.txt", "cpsat-seed[root=first-stone,edges=spanning]")
    assert res.status == "solved" and res.known is True
    res = solve(DATA / "yinyang-5x5-ring.txt", "cpsat-seed[root=model,edges=every-adjacency]")
    assert res.status == "infeasible"
