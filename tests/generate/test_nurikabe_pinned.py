"""Pinned big islands of the Nurikabe generator (:mod:`bench.puzzles.nurikabe.generate.pinned`):
interlocking combs that no single-cell swap changes, checked by brute force with the rule
verifier; a produced puzzle is unique by an exact count."""

from __future__ import annotations

import random

import pytest

from bench.generate import get_generator, instance_from_grid
from bench.grid import Cell, components, neighbours
from bench.puzzles import SolutionGrid, get_puzzle
from bench.puzzles.base import Token
from bench.puzzles.nurikabe.generate import NurikabeGenerator
from bench.puzzles.nurikabe.generate.big import ring
from bench.puzzles.nurikabe.generate.pinned import (
    generate_pinned,
    pair,
    pinned_solution,
    structure,
    swaps,
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


def test_produced_puzzle_is_unique_and_its_combs_stay() -> None:
    gen = generator(big=2, bigmin=20, bigmax=30)
    inst, sol = generate_pinned(gen, 14, 14, random.Random(1))
    assert not get_puzzle("nurikabe").verify(inst, sol)
    assert gen.proof_count(inst) == 1
    figures = structure(inst, sol, least=20)
    assert figures["big"] and all(size >= 20 for size in figures["big"])  # type: ignore[union-attr]
    assert figures["swaps"] == 0
