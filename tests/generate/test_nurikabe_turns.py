"""Comb pairs with pinned turns (:mod:`bench.puzzles.nurikabe.generate.turns`): the exchange
counter against the puzzle's own rule verifier (every counted exchange is another solution; on
a small comb pair with no single-island swap, every 4-cell recolouring the verifier accepts is
counted, which is not so on every grid: the module's docstring names a miss), the counter with
its block test taken out failing that check, and the turn ones removing the tip exchanges of
:mod:`.pinned`."""

from __future__ import annotations

import functools
import itertools
import random

import pytest

from bench.generate import GenerationError, get_generator
from bench.grid import Cell, components, neighbours
from bench.puzzles import SolutionGrid, get_puzzle
from bench.puzzles.base import Instance
from bench.puzzles.nurikabe.generate import NurikabeGenerator, turns
from bench.puzzles.nurikabe.generate.pinned import pinned_solution, transfers
from bench.puzzles.nurikabe.generate.turns import (
    exchanged,
    exchanges,
    frame_cells,
    layout_report,
    turned_solution,
)
from tests.generate.test_nurikabe_pinned import clued

# two interlocking combs of 11 cells (the design of generate/pinned.py), each clue in a corner
COMBS = (
    "#######",
    "#...#.#",
    "#.###.#",
    "#.#...#",
    "#.###.#",
    "#...#.#",
    "#.###.#",
    "#.#...#",
    "#######",
)
CLUES = frozenset({(1, 1), (7, 5)})


def generator(**params: int) -> NurikabeGenerator:
    gen = get_generator("nurikabe").with_params(params)
    assert isinstance(gen, NurikabeGenerator)
    return gen


def puzzle(solution: SolutionGrid, keep: list[Cell]) -> Instance:
    """``solution``'s puzzle, each island's clue at its cell in ``keep`` or its first."""
    return clued(solution, keep)


def flips(found: list[tuple[turns.Move, turns.Move]]) -> set[frozenset[Cell]]:
    return {frozenset({m[0], m[1], n[0], n[1]}) for m, n in found}


@functools.cache
def accepted() -> frozenset[frozenset[Cell]]:
    """:func:`verified_flips` of :data:`COMBS` (computed once)."""
    return frozenset(verified_flips(*combs()))


def verified_flips(
    sol: SolutionGrid, a: set[Cell], b: set[Cell], inst: Instance
) -> set[frozenset[Cell]]:
    """Every recolouring of a cell of ``a``, a cell of ``b`` and two wall cells next to
    ``a`` or ``b`` that the rule verifier accepts as a solution of ``inst``."""
    rows, cols = len(sol), len(sol[0])
    clues = {(r, c) for r, c, _ in inst.clues()}
    wall = sorted({n for v in a | b for n in neighbours(v, rows, cols) if sol[n[0]][n[1]] == "#"})
    verify = get_puzzle("nurikabe").verify
    out = set()
    for x1, x2 in itertools.product(sorted(a - clues), sorted(b - clues)):
        for y1, y2 in itertools.combinations(wall, 2):
            alt = [list(row) for row in sol]
            alt[x1[0]][x1[1]] = alt[x2[0]][x2[1]] = "#"
            alt[y1[0]][y1[1]] = alt[y2[0]][y2[1]] = "."
            if not verify(inst, alt):
                out.add(frozenset({x1, x2, y1, y2}))
    return out


def combs() -> tuple[SolutionGrid, set[Cell], set[Cell], Instance]:
    sol = [list(row) for row in COMBS]
    a, b = (
        set(p)
        for p in components([(r, c) for r in range(9) for c in range(7) if sol[r][c] == "."], 9, 7)
    )
    inst = puzzle(sol, list(CLUES))
    assert not get_puzzle("nurikabe").verify(inst, sol)
    return sol, a, b, inst


def test_exchanges_are_exactly_the_recolourings_the_verifier_accepts() -> None:
    sol, a, b, _ = combs()
    found = exchanges(sol, a, b, CLUES)
    assert found and any(m[2] for m, _ in found)  # tips and cut-off pieces of teeth
    assert flips(found) == accepted()
    assert len(found) == len(flips(found))  # each exchange counted once


def test_without_the_block_rule_the_counter_disagrees_with_the_verifier(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    sol, a, b, _ = combs()
    monkeypatch.setattr(turns, "pools", lambda *args, **kw: [])
    assert flips(exchanges(sol, a, b, CLUES)) != accepted()


@pytest.mark.parametrize("seed", range(2))
def test_every_exchange_of_a_turned_layout_is_another_solution(seed: int) -> None:
    gen = generator(big=2, bigmin=20, bigmax=30)
    rng = random.Random(seed)
    s = next(s for _ in range(20) if (s := turned_solution(gen, 16, 16, rng)) is not None)
    sol = s.solution()
    p, q = (set(s.cells[s.island[r][c]]) for r, c in s.anchors[:2])
    found = exchanges(sol, p, q)
    assert found
    verify = get_puzzle("nurikabe").verify
    for m, n in found[:: max(1, len(found) // 40)]:
        moved = m[2] | n[2] | {m[0], m[1], n[0], n[1]}
        inst = puzzle(sol, [min(p - moved), min(q - moved)])
        assert not verify(inst, sol) and not verify(inst, exchanged(sol, m, n))


def test_the_turn_ones_remove_the_tip_exchanges_but_not_the_cut_teeth() -> None:
    gen = generator(big=2, bigmin=20, bigmax=30)
    rng = random.Random(0)
    old = next(s for _ in range(20) if (s := pinned_solution(gen, 14, 14, rng)) is not None)
    new = next(s for _ in range(20) if (s := turned_solution(gen, 16, 16, rng)) is not None)
    before, after = layout_report(old), layout_report(new)
    assert before["swaps"] == after["swaps"] == 0
    assert before["tip"] > 0 and after["tip"] == 0
    assert after["exchanges"] > 0 and after["left"] > 0


@pytest.mark.parametrize(("m", "w"), [(1, 10), (2, 12), (3, 11)])
def test_frame_ones_touch_no_comb_and_the_sizes_match(m: int, w: int) -> None:
    p, q, ones = frame_cells(m, w)
    h = 4 * m + 3
    assert len(p) == len(q) == h + (m + 1) * (w - 5) and not p & q
    assert len(ones) == 2 * m + 2
    for v in ones:
        assert not any(n in p | q for n in neighbours(v, h + 2, w + 2))
    # every wall cell next to a one touches at most one comb
    for v in ones:
        for n in neighbours(v, h, w):
            assert not (
                any(t in p for t in neighbours(n, h, w))
                and any(t in q for t in neighbours(n, h, w))
            )


def test_layouts_with_exchanges_are_redrawn_before_any_uniqueness_check(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    gen = generator(big=2, bigmin=20, bigmax=30)
    gen.restarts = 2

    def never(*args: object, **kw: object) -> None:
        raise AssertionError("a uniqueness check was run")

    judged: list[object] = []
    report = turns.layout_report

    def counted(*args: object, **kw: object) -> dict[str, int]:
        judged.append(args)
        return report(*args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(gen, "make_unique", never)
    monkeypatch.setattr(turns, "layout_report", counted)
    with pytest.raises(GenerationError):
        turns.generate_turned(gen, 16, 16, random.Random(0))
    assert judged  # layouts were drawn and judged, not refused before the gate


def test_the_one_cell_transfer_count_misses_the_cut_teeth() -> None:
    # pinned.transfers sees only a tip and the turn cell beside it; the verifier accepts more
    sol, a, b, _ = combs()
    tips = transfers(sol, a, b) * transfers(sol, b, a)
    assert 0 < tips < len(accepted())
