"""The region encoding of ``sat-regions`` (:mod:`bench.puzzles.fillomino.encoding_sat`): on small
grids its solutions, found one by one with the lazy cuts and blocking, are exactly the grids a
brute-force enumeration of partitions accepts, for a threshold low enough that most regions are
the symbolic BIG; and the seed ILP's size, predicted in closed form, is the built model's."""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Iterator

import pytest
from pysat.solvers import Solver

from bench.backends.kinds import SatAssignment
from bench.grid import Cell, all_cells
from bench.instance import Instance, parse_instance, read_instance
from bench.models import SatModel
from bench.puzzles import get_puzzle
from bench.puzzles.fillomino import encoding_sat as fillomino_sat
from bench.puzzles.fillomino.encoding import layout
from formulations.fillomino.mip_seed import MipSeed, model_size
from tests.conftest import INSTANCES

Edge = tuple[Cell, Cell]


def instance(text: str) -> Instance:
    return parse_instance("puzzle: fillomino\n\n" + text.strip() + "\n", "t.txt")


def partitions(n: int) -> Iterator[list[int]]:
    """Restricted growth strings: every set partition of n items (part of each item)."""
    def grow(prefix: list[int], parts: int) -> Iterator[list[int]]:
        if len(prefix) == n:
            yield prefix
            return
        for p in range(parts + 1):
            yield from grow([*prefix, p], max(parts, p + 1))
    yield from grow([], 0)


def brute_force(inst: Instance) -> set[tuple[tuple[int, ...], ...]]:
    """Every solution: each set partition's part sizes as a grid, kept when the checker
    accepts it (a solution's regions are one partition, so each solution appears once)."""
    rules = get_puzzle("fillomino")
    out = set()
    for part in partitions(inst.cells):
        size = [part.count(p) for p in part]
        grid = [size[r * inst.cols:(r + 1) * inst.cols] for r in range(inst.rows)]
        if not rules.verify(inst, grid):
            out.add(tuple(map(tuple, grid)))
    return out


def solutions(inst: Instance, big: int, pieces: int,
              by_given: bool) -> set[tuple[tuple[int, ...], ...]]:
    """Every solution through the encoding: solve, cut until no defect, block, again.
    ``by_given``: named codes as sat-regions has them (a region holding a given), else as the
    generator's warm solver (the number wherever it is)."""
    lay = layout(inst)
    if by_given:
        named, codes = fillomino_sat.given_codes(lay, big)
    else:
        named = frozenset(n for n in lay.given.values() if n > big)
        codes = {v: fillomino_sat.codes_of(lay.dom[v], big, named) for v in lay.cells}
    m = SatModel()
    reg = fillomino_sat.encode(m, inst.rows, inst.cols, codes, big, named, pieces,
                          given=frozenset(lay.given) if by_given else None)
    found = set()
    with Solver(name="cadical195", bootstrap_with=m.clauses) as sat:
        while sat.solve():
            model = sat.get_model()
            true = {x for x in model if x > 0}
            reading = fillomino_sat.read(reg, SatAssignment.of_model(model))
            cuts = fillomino_sat.cuts(reg, reading)
            if cuts:
                for c in cuts:
                    assert not any(x in true if x > 0 else -x not in true for x in c), \
                        "a cut the model satisfies"
                    sat.add_clause(c)
                continue
            number = reading.number(reg)
            grid = tuple(tuple(number[r, c] for c in range(inst.cols)) for r in range(inst.rows))
            assert grid not in found
            found.add(grid)
            sat.add_clause(fillomino_sat.block(reg, dict(number)))
    return found


@pytest.mark.parametrize("text", [
    ". . .\n. . .\n. . .",  # no givens: 3x3, regions of every size up to 9
    ". . . .\n. 3 . .",  # a named number (3 > big) and BIG regions beside it
    ". 2 .\n. . .\n4 . .",
    "1 . . 1\n. . . .",
    # regions of a named number without a given, far from and beside the given one
    "3 . . .\n. . . .", ". . . 2\n3 . . .",
])
@pytest.mark.parametrize(("big", "pieces"), [(2, 3), (1, 2), (8, 3), (3, 4)])
@pytest.mark.parametrize("by_given", [True, False])
def test_the_encoding_finds_exactly_the_solutions(text: str, big: int, pieces: int,
                                                  by_given: bool):
    inst = instance(text)
    assert solutions(inst, big, pieces, by_given) == brute_force(inst)


def test_two_touching_big_regions_of_one_size_are_cut():
    inst = instance(". . .\n. . .")
    lay = layout(inst)
    codes = {v: fillomino_sat.codes_of(lay.dom[v], 1, frozenset()) for v in lay.cells}
    m = SatModel()
    reg = fillomino_sat.encode(m, 2, 3, codes, 1, frozenset(), 3)
    # two 3-regions (rows), both BIG with the threshold 1: a solution to no check but this one
    joined = [reg.s[(r, 0), (r, 1)] for r in range(2)] + [reg.s[(r, 1), (r, 2)] for r in range(2)]
    bits = bytearray(m.nvars + 1)
    for x in joined:
        bits[x] = 1
    reading = fillomino_sat.Reading({v: fillomino_sat.BIG for v in all_cells(2, 3)},
                               [[(0, 0), (0, 1), (0, 2)], [(1, 0), (1, 1), (1, 2)]],
                               bytes(bits), reg.s)
    (cut,) = fillomino_sat.cuts(reg, reading)
    assert -reg.e[(0, 0), fillomino_sat.BIG] in cut and -reg.e[(1, 0), fillomino_sat.BIG] in cut


def test_codes_keep_the_domains_small():
    inst = instance(". " * 19 + ".\n" + ". " * 9 + "12 " + ". " * 9 + ".")
    lay = layout(inst)
    assert lay.dom[0, 0] == list(range(1, 40))  # the whole empty area
    codes = fillomino_sat.codes_of(lay.dom[0, 0], 8, frozenset({12}))
    assert codes == [fillomino_sat.BIG, *range(1, 9), 12]
    cell: Cell = (1, 9)
    assert fillomino_sat.codes_of(lay.dom[cell], 8, frozenset({12})) == [12]


@pytest.mark.parametrize("pairs", ["near", "all"])
@pytest.mark.parametrize("text", ["3 . . 2 .\n. . 4 . .\n1 . . . 5\n. 2 . . .", "1 . 3",
                                  ". .\n. .\n. 5"])
def test_the_seed_size_in_closed_form_is_the_built_models(text: str, pairs: str):
    inst = instance(text)
    assert model_size(inst, pairs) == MipSeed(pairs=pairs).build(inst).size()


def reference_read(reg: fillomino_sat.Regions, true: set[int]) -> tuple[list[list[Cell]],
                                                                   dict[Cell, int], set[Edge]]:
    """The reading as the encoding first did it, one literal at a time: dictionaries of cell
    tuples, a breadth-first search per component, each cell's first true code."""
    adj: dict[Cell, list[Cell]] = {}
    joined: set[Edge] = set()
    for u, w, x in reg.pairs:
        if x in true:
            joined |= {(u, w), (w, u)}
            adj.setdefault(u, []).append(w)
            adj.setdefault(w, []).append(u)
    seen: set[Cell] = set()
    regions: list[list[Cell]] = []
    code: dict[Cell, int] = {}
    for start in reg.codes:
        if start in seen:
            continue
        seen.add(start)
        comp, queue = [start], deque([start])
        while queue:
            for w in adj.get(queue.popleft(), ()):
                if w not in seen:
                    seen.add(w)
                    comp.append(w)
                    queue.append(w)
        regions.append(comp)
        k = next((k for k in reg.codes[start] if reg.e[start, k] in true), fillomino_sat.BIG)
        code.update((v, k) for v in comp)
    return regions, code, joined


def test_the_whole_model_reading_is_the_literal_by_literal_reading_on_real_models():
    """Every lazy round of sat-regions on a generated 10x10 (hundreds of components, BIG and
    named codes): the same regions in the same order, cell by cell, the same codes, the same
    joined edges, hence the same cuts."""
    inst = read_instance(INSTANCES / "fillomino" / "generated" / "gen-fillomino-10x10-s1-0.txt")
    lay = layout(inst)
    named = frozenset(n for n in lay.given.values() if n > 4)
    codes = {v: fillomino_sat.codes_of(lay.dom[v], 4, named) for v in lay.cells}
    m = SatModel()
    reg = fillomino_sat.encode(m, inst.rows, inst.cols, codes, 4, named, 2)
    rounds = 0
    with Solver(name="cadical195", bootstrap_with=m.clauses) as sat:
        while sat.solve():
            model = sat.get_model()
            true = {x for x in model if x > 0}
            reading = fillomino_sat.read(reg, SatAssignment.of_model(model))
            regions, code, joined = reference_read(reg, true)
            assert reading.regions == regions and reading.code == code
            assert {(u, w) for u in reg.codes for w in reg.nbrs(u) if reading.on(u, w)} == joined
            rounds += 1
            cuts = fillomino_sat.cuts(reg, reading)
            if not cuts:
                break
            sat.append_formula(cuts)
    assert rounds > 5


@pytest.mark.parametrize("seed", range(40))
def test_the_whole_model_reading_is_the_literal_by_literal_reading_on_any_assignment(seed: int):
    """Random assignments that are no model: cells with several true codes (the first, the
    smallest, counts) or none (BIG), joined edges between cells of other codes, and models
    shorter than the variables (the rest read false)."""
    rng = random.Random(seed)
    inst = instance(". 2 . . .\n. . . 7 .\n3 . . . .\n. . 1 . .")
    lay = layout(inst)
    named, codes = fillomino_sat.given_codes(lay, 3)
    m = SatModel()
    reg = fillomino_sat.encode(m, inst.rows, inst.cols, codes, 3, named, 3,
                               given=frozenset(lay.given))
    length = rng.choice([1, m.nvars // 2, m.nvars + 1, m.nvars + 5])
    share = rng.choice([0.1, 0.5, 0.9])
    bits = bytes(int(x > 0 and rng.random() < share) for x in range(length))
    true = {x for x in range(length) if bits[x]}
    reading = fillomino_sat.read(reg, SatAssignment(bits))
    regions, code, joined = reference_read(reg, true)
    assert reading.regions == regions and reading.code == code
    assert {(u, w) for u in reg.codes for w in reg.nbrs(u) if reading.on(u, w)} == joined


def test_a_sat_assignment_reads_literals_like_the_solver_model():
    model = [1, -2, 3, -4, -5, 6]
    value = SatAssignment.of_model(model)
    assert [value(lit) for lit in (1, -1, 2, -2, 6, -6, 7, -7)] == [1, 0, 0, 1, 1, 0, 0, 1]
    assert value.array(9).tolist() == [False, True, False, True, False, False, True, False,
                                       False, False]
    assert SatAssignment.of_reader(value, 6).bits == value.bits
