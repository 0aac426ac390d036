"""Pinned big islands of the Nurikabe generator (:mod:`bench.puzzles.nurikabe.generate.pinned`):
interlocking combs that no single-cell swap of one island changes, checked by brute force with
the rule verifier; and the two-island transfers that still give them another solution."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from bench.generate import get_generator, instance_from_grid
from bench.grid import Cell, components, neighbours
from bench.puzzles import SolutionGrid, get_puzzle
from bench.puzzles.base import Instance, Token
from bench.puzzles.nurikabe.generate import NurikabeGenerator
from bench.puzzles.nurikabe.generate.big import ring
from bench.puzzles.nurikabe.generate.pinned import (
    pair,
    pinned_solution,
    structure,
    swaps,
    transfers,
)


def generator(**params: int) -> NurikabeGenerator:
    gen = get_generator("nurikabe").with_params(params)
    assert isinstance(gen, NurikabeGenerator)
    return gen


def verified_swaps(solution: SolutionGrid, island: set[Cell], clue: Cell) -> int:
    """The single-cell swaps of ``island`` (its clue at ``clue``; every other island's at
    its first cell) that the puzzle's own rule verifier accepts as a solution: a cell of the
    island but the clue turned black, a ring cell touching no other island turned white."""
    rows, cols = len(solution), len(solution[0])
    verify = get_puzzle("nurikabe").verify
    grid: list[list[Token]] = [[None] * cols for _ in range(rows)]
    white = [(r, c) for r in range(rows) for c in range(cols) if solution[r][c] == "."]
    for piece in components(white, rows, cols):
        r, c = clue if clue in piece else min(piece)
        grid[r][c] = len(piece)
    inst = instance_from_grid("nurikabe", grid)
    assert not verify(inst, solution)
    count = 0
    for y in sorted(ring(rows, cols, island)):
        if any(solution[n[0]][n[1]] == "." and n not in island for n in neighbours(y, rows, cols)):
            continue
        for x in sorted(island - {clue}):
            alt = [row[:] for row in solution]
            alt[x[0]][x[1]], alt[y[0]][y[1]] = "#", "."
            count += not verify(inst, alt)
    return count


@pytest.mark.parametrize("seed", range(6))
def test_pair_is_two_combs_of_the_sizes_apart(seed: int) -> None:
    found = pair(40, 50, (2, 28, 2, 38), random.Random(seed))
    assert found is not None
    p, q = found
    assert 40 <= len(p) <= 50 and 40 <= len(q) <= 50
    for b in (p, q):
        assert len(components(b, 40, 40)) == 1
        assert all(2 <= r < 28 and 2 <= c < 38 for r, c in b)
    assert not any(n in q for v in p for n in neighbours(v, 40, 40))  # a wall between


def test_swaps_finds_the_ladder_of_a_plain_comb() -> None:
    # two teeth with a wall finger between them: a tooth's base cell can be traded for the
    # finger cell beside its tip (the verifier agrees), the weakness of plain combs
    sol = [list(row) for row in ("#######", "#.#.#.#", "#.#.#.#", "#.....#", "#######")]
    island = {(r, c) for r in range(5) for c in range(7) if sol[r][c] == "."}
    assert swaps(sol, island) > 0
    assert verified_swaps(sol, island, (3, 3)) == swaps(sol, island)


@pytest.mark.parametrize("seed", range(3))
def test_generated_combs_have_no_swap_by_the_verifier(seed: int) -> None:
    gen = generator(big=2, bigmin=20, bigmax=30)
    rng = random.Random(seed)
    s = next(s for _ in range(20) if (s := pinned_solution(gen, 14, 14, rng)) is not None)
    sol = s.solution()
    assert len(s.anchors) == 2
    for a in s.anchors:
        island = set(s.cells[s.island[a[0]][a[1]]])
        assert len(island) >= 20
        # every cell but the clue, swapped with every free ring cell: the verifier refuses
        for clue in sorted(island)[:3]:
            assert verified_swaps(sol, island, clue) == 0
        assert swaps(sol, island) == 0


def test_two_opposite_transfers_make_another_solution_the_verifier_accepts() -> None:
    # the flaw that stops the repair: a tooth's tip and the snake's turn cell beside it pass
    # from one comb to the other, and another pair passes back; sizes and clues unchanged
    gen = generator(big=2, bigmin=20, bigmax=30)
    rng = random.Random(1)
    s = next(s for _ in range(20) if (s := pinned_solution(gen, 14, 14, rng)) is not None)
    sol = s.solution()
    p, q = (set(s.cells[s.island[r][c]]) for r, c in s.anchors)
    assert transfers(sol, p, q) > 0 and transfers(sol, q, p) > 0
    figures = structure(clued(sol, (min(p), min(q))), sol, least=20)
    assert figures["swaps"] == 0 and figures["transfers"] == transfers(sol, p, q) + transfers(
        sol, q, p
    )
    rows = cols = 14
    moves = {
        name: [
            (x, y)
            for x in sorted(give)
            for y in neighbours(x, rows, cols)
            if sol[y[0]][y[1]] == "#" and any(n in take for n in neighbours(y, rows, cols))
        ]
        for name, give, take in (("pq", p, q), ("qp", q, p))
    }
    verify = get_puzzle("nurikabe").verify
    accepted = 0
    for x1, y1 in moves["pq"]:
        for x2, y2 in moves["qp"]:
            if len({x1, y1, x2, y2}) < 4:
                continue
            alt = [row[:] for row in sol]
            for x, y in ((x1, y1), (x2, y2)):
                alt[x[0]][x[1]], alt[y[0]][y[1]] = "#", "."
            new_p, new_q = (p - {x1}) | {y2}, (q - {x2}) | {y1}
            keep = sorted(p & new_p)[0], sorted(q & new_q)[0]  # clue cells in both shapes
            accepted += not verify(clued(sol, keep), alt)
    assert accepted > 0


def clued(solution: SolutionGrid, keep: Sequence[Cell]) -> Instance:
    """The puzzle of ``solution`` with a clue on every island: at a cell of ``keep`` if
    it holds one, else at its first cell."""
    rows, cols = len(solution), len(solution[0])
    grid: list[list[Token]] = [[None] * cols for _ in range(rows)]
    white = [(r, c) for r in range(rows) for c in range(cols) if solution[r][c] == "."]
    for piece in components(white, rows, cols):
        r, c = next((v for v in keep if v in piece), min(piece))
        grid[r][c] = len(piece)
    return instance_from_grid("nurikabe", grid)
