"""Staircase stripes (:mod:`bench.puzzles.nurikabe.generate.stripes`): a stripe with its halo
black has no single-cell swap (by the counter and by the rule verifier), one white diagonal
halo cell gives it one; generated layouts pass the gate (no swap, no exchange), keep their
diagonals apart, freeze exactly the cells the docstring names, and repeat for a seed."""

from __future__ import annotations

import os
import random
import subprocess
import sys

import pytest

from bench.grid import Cell, components, neighbours
from bench.puzzles import SolutionGrid
from bench.puzzles.nurikabe.generate import NurikabeGenerator
from bench.puzzles.nurikabe.generate.big import halo
from bench.puzzles.nurikabe.generate.pinned import swaps
from bench.puzzles.nurikabe.generate.stripes import (
    frozen_black,
    gate,
    staircase,
    stripe_layout,
    stripe_solution,
)
from bench.puzzles.nurikabe.generate.turns import layout_report
from tests.conftest import ROOT
from tests.generate.test_nurikabe_pinned import generator, verified_swaps


def small(**params: int) -> NurikabeGenerator:
    """A generator whose island cap is 9, so that stripes of 10-12 cells are big islands on
    small grids (the layout's contract does not depend on the cap)."""
    gen = generator(**params)
    gen.max_island = 9
    return gen


def grid(rows: int, cols: int, white: set[Cell]) -> SolutionGrid:
    return [["." if (r, c) in white else "#" for c in range(cols)] for r in range(rows)]


def test_staircase_is_one_piece_on_two_diagonals() -> None:
    b = staircase(3, 5, 13)
    assert len(b) == 13 and len(components(sorted(b), 20, 20)) == 1
    assert {c - r for r, c in b} == {2, 3}
    # no cell has stripe cells on two opposite sides (no bend, no straight run of three)
    for r, c in b:
        assert not ({(r - 1, c), (r + 1, c)} <= b or {(r, c - 1), (r, c + 1)} <= b)


def test_black_halo_pins_every_stripe_cell_and_a_white_diagonal_cell_unpins_one() -> None:
    rows, cols = 12, 12
    b = staircase(2, 2, 12)
    around = halo(rows, cols, b)
    outside = {(r, c) for r in range(rows) for c in range(cols)} - b - around
    sol = grid(rows, cols, b | outside)  # a valid solution: the halo is the wall
    assert swaps(sol, b) == 0
    assert verified_swaps(sol, b, (2, 2)) == 0
    # a diagonal-only halo cell white (here joining the island outside): the outer window of
    # the stripe cell (3, 4) is open, and the verifier accepts a traded cell
    v = (2, 5)
    assert v in around - frozen_black(rows, cols, [b], full=False)
    opened = grid(rows, cols, b | outside | {v})
    assert swaps(opened, b) == 1
    assert verified_swaps(opened, b, (2, 2)) == 1


def test_frozen_black_is_the_ring_or_the_whole_halo() -> None:
    rows, cols = 12, 12
    b = staircase(2, 2, 12)
    ring = frozen_black(rows, cols, [b], full=False)
    assert ring == {n for v in b for n in neighbours(v, rows, cols)} - b
    assert frozen_black(rows, cols, [b], full=True) == halo(rows, cols, b)
    # the cells left out touch no stripe cell: the outer diagonals d-2 and d+3, and the
    # cell beyond each tip (diagonal d or d+1)
    left = halo(rows, cols, b) - ring
    assert left and all(not set(neighbours(v, rows, cols)) & b for v in left)
    assert {c - r for r, c in left} == {-2, 0, 1, 3}
    assert sum(c - r in (0, 1) for r, c in left) == 2  # one beyond each tip


@pytest.mark.parametrize("seed", range(3))
def test_layout_keeps_its_diagonals_apart_inside_the_margin(seed: int) -> None:
    stripes = stripe_layout(10, 12, 16, 16, 2, 9, random.Random(seed))
    assert stripes is not None and len(stripes) == 2
    for b in stripes:
        assert 10 <= len(b) <= 12
        assert all(1 <= r < 15 and 1 <= c < 15 for r, c in b)
    d0, d1 = sorted(min(c - r for r, c in b) for b in stripes)
    assert d1 - d0 >= 9
    assert stripe_layout(10, 12, 16, 16, 3, 9, random.Random(seed)) is None  # no room


@pytest.mark.parametrize("full", [False, True])
def test_generated_layout_passes_the_gate_and_pins_what_it_says(full: bool) -> None:
    gen = small(big=2, bigmin=10, bigmax=12)
    s = stripe_solution(gen, 16, 24, random.Random(1), full=full)
    assert s is not None
    stripes = [set(s.cells[s.island[r][c]]) for r, c in s.anchors]
    assert len(stripes) == 2 and all(10 <= len(b) <= 12 for b in stripes)
    report = layout_report(s)
    assert report["swaps"] == 0 and report["exchanges"] == 0 and gate(s)
    every = set().union(*(halo(16, 24, b) for b in stripes))
    assert all(s.is_black(*v) for v in every)  # the whole halo starts black
    assert s.pinned == frozen_black(16, 24, stripes, full)
    assert (s.pinned == every) is full


def test_the_same_seed_gives_the_same_layout() -> None:
    gen = small(big=2, bigmin=10, bigmax=12)
    a = stripe_solution(gen, 16, 24, random.Random(4))
    b = stripe_solution(gen, 16, 24, random.Random(4))
    c = stripe_solution(gen, 16, 24, random.Random(5))
    assert a is not None and b is not None and c is not None
    assert a.solution() == b.solution() and a.anchors == b.anchors
    assert a.solution() != c.solution()


def test_the_cpu_budget_stops_work_once_and_disarms() -> None:
    """A busy loop under a 1 CPU-s budget (user and system time) ends with the budget's error;
    after disarming, the process's CPU limit is what it was and SIGXCPU is handled as before."""
    code = (
        "import resource, signal\n"
        "from bench.generate import GenerationError\n"
        "from bench.puzzles.nurikabe.generate.stripes import cpu_budget\n"
        "before = resource.getrlimit(resource.RLIMIT_CPU)\n"
        "disarm = cpu_budget(1)\n"
        "x = 0\n"
        "try:\n"
        "    while True:\n"
        "        x += 1\n"
        "except GenerationError as e: print(e)\n"
        "disarm()\n"
        "print(resource.getrlimit(resource.RLIMIT_CPU) == before,"
        " signal.getsignal(signal.SIGXCPU) == signal.SIG_DFL)\n")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       timeout=120, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert p.stdout.splitlines() == ["CPU budget of 1 s spent", "True True"], p.stdout + p.stderr
