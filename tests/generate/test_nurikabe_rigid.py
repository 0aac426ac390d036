"""Rigid big islands of the Nurikabe generator (:mod:`bench.puzzles.nurikabe.generate.rigid`):
fences (clue cells of other islands next to every ring cell of a big island) force the big
island in every solution; a puzzle with the same solution whose fence islands keep their
clues elsewhere does not."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from pysat.solvers import Solver

from bench.generate import get_generator
from bench.grid import Cell, components, neighbours
from bench.instance import Instance, read_instance
from bench.puzzles import get_puzzle
from bench.puzzles.nurikabe.generate import NurikabeGenerator
from bench.puzzles.nurikabe.generate.big import ring
from bench.puzzles.nurikabe.generate.board import NurikabeState, plan_changes
from bench.puzzles.nurikabe.generate.rigid import (
    diagonal,
    fenced,
    place_fences,
    rigid_solution,
)
from bench.puzzles.nurikabe.generate.unique import Search
from bench.registry import get_formulation
from tests.conftest import INSTANCES


def generator(**params: int) -> NurikabeGenerator:
    gen = get_generator("nurikabe").with_params(params)
    assert isinstance(gen, NurikabeGenerator)
    return gen


@pytest.mark.parametrize("seed", range(5))
def test_fences_cover_every_ring_cell_and_no_two_touch(seed: int) -> None:
    rng = random.Random(seed)
    b = diagonal(37, 45, (2, 20, 2, 20), rng)
    assert b is not None and 37 <= len(b) <= 45
    fences = place_fences(22, 22, [b], rng)
    assert fences is not None
    assert not fences & b and not fences & ring(22, 22, b)
    assert all(n not in fences for f in fences for n in neighbours(f, 22, 22))
    assert fenced(22, 22, b, fences)
    # every ring cell keeps a black way out
    assert all(any(n not in b and n not in fences for n in neighbours(x, 22, 22))
               for x in ring(22, 22, b))


def big_island_moves(inst: Instance, b: set[Cell], rows: int, cols: int) -> bool:
    """Whether some solution of ``inst`` has a cell of ``b`` black or a ring cell of ``b``
    white (exact: the lazy SAT formulation on CaDiCaL with that one clause added)."""
    form = get_formulation("nurikabe", "sat-lazy")
    model = form.build(inst)
    black = model.handles["black"]
    model.clauses.append([black[v] for v in sorted(b)]
                         + [-black[x] for x in sorted(ring(rows, cols, b))])
    with Solver(name="cadical195") as solver:
        grid, _ = Search(form, inst, model, solver).run([], 10**7)
    return grid is not None


def start(seed: int) -> tuple[NurikabeGenerator, NurikabeState, dict[int, Cell]]:
    gen = generator(big=1, bigmin=37, bigmax=45)
    found = rigid_solution(gen, 20, 20, random.Random(seed))
    assert found is not None
    return gen, *found


def test_fence_clues_force_the_big_island_and_clues_elsewhere_do_not() -> None:
    gen, s, clue = start(0)
    b = set(s.cells[s.island[s.anchors[0][0]][s.anchors[0][1]]])
    inst = gen.puzzle_of(s, clue)
    assert get_puzzle("nurikabe").verify(inst, s.solution()) == []
    assert fenced(20, 20, b, set(clue.values()))
    assert not big_island_moves(inst, b, 20, 20)
    # the same solution, each fence island's clue on its cell farthest from the fence
    moved = dict(clue)
    for k, cells in s.cells.items():
        if clue[k] in s.fences and len(cells) > 1:
            f = clue[k]
            moved[k] = max(cells, key=lambda v: abs(v[0] - f[0]) + abs(v[1] - f[1]))
    other = gen.puzzle_of(s, moved)
    assert not fenced(20, 20, b, set(moved.values()))
    assert big_island_moves(other, b, 20, 20)


def test_rigid_solution_keeps_each_fence_alone_in_its_island() -> None:
    _, s, clue = start(1)
    for k, cells in s.cells.items():
        held = [v for v in cells if v in s.fences]
        assert len(held) <= 1
        if held:
            assert clue[k] == held[0]


def test_fence_islands_are_never_joined_nor_dropped() -> None:
    _, s, clue = start(1)
    cells = [(r, c) for r in range(20) for c in range(20)]
    held = {k for k in s.cells if s.fenced(k)}
    joins = s.merges(cells, 100)
    assert joins and not any(s.adjacent_islands(v) & held for v in joins)
    drops = plan_changes(s, clue, 1000, 100, random.Random(0))
    assert not any(j.drop and j.v in s.fences for j in drops)
    s.fences = set()  # without the rule, fence islands are joined too
    assert any(s.adjacent_islands(v) & held for v in s.merges(cells, 100))


MANYBIG = sorted((INSTANCES / "nurikabe" / "manybig").glob("*.txt"))


@pytest.mark.parametrize("path", MANYBIG, ids=lambda p: p.stem)
def test_committed_manybig_puzzles_have_six_big_mostly_fenced_islands(path: Path) -> None:
    inst = read_instance(path)
    grid = json.loads(path.with_suffix(".sol").read_text())
    assert get_puzzle("nurikabe").verify(inst, grid) == []
    rows, cols = inst.rows, inst.cols
    white = [(r, c) for r in range(rows) for c in range(cols) if grid[r][c] != "#"]
    big = [set(p) for p in components(white, rows, cols) if len(p) >= 40]
    assert len(big) >= 6
    clues = {(r, c) for r in range(rows) for c in range(cols) if inst.grid[r][c] is not None}
    rim = [x for b in big for x in ring(rows, cols, b)]
    held = sum(any(n in clues for n in neighbours(x, rows, cols)) for x in rim)
    assert held >= 0.9 * len(rim)
    assert len(clues) <= 0.12 * rows * cols
