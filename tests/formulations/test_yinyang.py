"""Yin-Yang formulations ``mip-flow``, ``cpsat-lazy``, ``sat-lazy``, ``sat-tree``: each with
one solver of its kind on the committed puzzles and the test boards, counting, the implied
rules against brute force, and the strong cuts."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from bench.encodings.cells import border_ring, fixed_anchor_cuts
from bench.instance import parse_instance
from bench.puzzles import get_puzzle
from bench.records import Result, Task
from bench.run.execute import execute

ROOT = Path(__file__).resolve().parent.parent.parent
DATA = ROOT / "tests" / "data"
PAIRS = [("sat-lazy", "cadical195"), ("sat-tree", "cadical195"), ("cpsat-lazy", "cpsat"),
         ("mip-flow", "cbc")]  # never HiGHS in-process next to OR-tools
IMPLIED = ["all", "none", "checker", "border"]
SMALL = sorted((ROOT / "instances" / "yinyang").glob("**/*.txt"))
SMALL = [p for p in SMALL if p.stem.startswith("seed") or "-6x6-" in p.stem
         or "-5x5-" in p.stem or "-10x10-" in p.stem]
BOARDS = ["yinyang-5x5-ring", "yinyang-2x3-single"]


def run(path: Path, formulation: str, solver: str, count: int = 0) -> Result:
    return execute(Task(instance=str(path), formulation=formulation, solver=solver,
                        time_limit=60, count=count))


@pytest.mark.parametrize(("name", "solver"), PAIRS, ids=[p[0] for p in PAIRS])
@pytest.mark.parametrize("path", SMALL + [DATA / f"{b}.txt" for b in BOARDS],
                         ids=lambda p: p.stem)
def test_solves_uniquely_with_the_known_solution(path: Path, name: str, solver: str):
    res = run(path, name, solver, count=2)
    assert res.status == "solved", res.message
    assert res.checked and res.count == 1
    if path.with_suffix(".sol").exists():
        assert res.known is True


@pytest.mark.parametrize("implied", IMPLIED)
@pytest.mark.parametrize(("name", "solver"), PAIRS, ids=[p[0] for p in PAIRS])
def test_every_implied_setting_reports_the_enclosed_stone_infeasible(name: str, solver: str,
                                                                     implied: str):
    res = run(DATA / "infeasible" / "yinyang-3x4-enclosed.txt", f"{name}[implied={implied}]",
              solver)
    assert res.status == "infeasible", res.message


def brute_force_count(rows: int, cols: int) -> int:
    """Valid colourings of an empty ``rows x cols`` board, by the rule verifier."""
    inst = parse_instance("puzzle: yinyang\n\n" + "\n".join(" ".join("." * cols)
                                                           for _ in range(rows)) + "\n", "e")
    rules = get_puzzle("yinyang")
    return sum(1 for bits in itertools.product("bw", repeat=rows * cols)
               if not rules.verify(inst, [list(bits[r * cols:(r + 1) * cols])
                                         for r in range(rows)]))


@pytest.mark.parametrize("implied", ["all", "none"])
@pytest.mark.parametrize(("name", "solver"), [("sat-lazy", "cadical195"),
                                              ("cpsat-lazy", "cpsat")])
def test_counts_every_solution_of_an_empty_board(tmp_path: Path, name: str, solver: str,
                                                 implied: str):
    # the implied rules (checkerboard, border ring) and the lazy cuts lose no solution:
    # the count matches the rule verifier's enumeration of all 2^12 colourings
    expected = brute_force_count(3, 4)
    assert expected > 10
    path = tmp_path / "empty.txt"
    path.write_text("puzzle: yinyang\n\n. . . .\n. . . .\n. . . .\n")
    res = run(path, f"{name}[implied={implied}]", solver, count=expected + 1)
    assert res.status == "solved" and res.count == expected


def test_border_ring_goes_round_clockwise():
    ring = border_ring(3, 4)
    assert ring[:5] == [(0, 0), (0, 1), (0, 2), (0, 3), (1, 3)]
    assert len(ring) == len(set(ring)) == 10
    assert all(abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1
               for a, b in zip(ring, ring[1:] + ring[:1], strict=True))


def test_fixed_anchor_cuts_cover_each_cell_of_the_stray_component():
    member = {(r, c): None for r in range(3) for c in range(3)}
    on = [(0, 0), (0, 1), (2, 2)]  # main piece holds the stone (0, 0); (2, 2) is a stray
    cuts = fixed_anchor_cuts(member, on, [(0, 0)])
    assert len(cuts) == 1
    assert cuts[0].neg == ((2, 2),) and set(cuts[0].pos) == {(1, 2), (2, 1)}
    # without a stone outside the stray piece, the main piece's first cell joins the cut
    cuts = fixed_anchor_cuts(member, on, [])
    assert [c.neg for c in cuts] == [((2, 2), (0, 0))]
    assert fixed_anchor_cuts(member, [(0, 0), (0, 1)], [(0, 0)]) == []


def test_lazy_sat_needs_few_rounds_on_the_seed():
    res = run(ROOT / "instances" / "yinyang" / "seed-01.txt", "sat-lazy", "cadical195")
    assert res.status == "solved" and res.iterations is not None and res.iterations < 20
