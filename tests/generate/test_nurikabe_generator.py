"""The Nurikabe generator's sparse, real-looking puzzles: unique, clue density in range, and
the island edits it relies on (joining islands keeps a valid, connected wall)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from bench.generate import count_solutions, generate_one, get_generator
from bench.generate.provenance import read_header, recipe_of
from bench.generate.regenerate import differences
from bench.instance import Instance, read_instance
from bench.puzzles import SolutionGrid, get_puzzle
from bench.puzzles.nurikabe.generate import NurikabeGenerator, NurikabeState
from bench.puzzles.nurikabe.generate.unique import WarmCheck
from tests.conftest import INSTANCES

SPARSE = INSTANCES / "nurikabe" / "sparse"  # the committed sparse family


def test_generated_10x10_is_unique_and_sparse() -> None:
    gen = generate_one("nurikabe", 10, 10, 1)
    clues = [int(v) for _, _, v in gen.instance.clues()]
    assert get_puzzle("nurikabe").verify(gen.instance, gen.solution) == []
    # counted to 2 by a second formulation than the generator's own
    assert count_solutions(gen.instance, "cpsat-tree", "cpsat") == 1
    assert 0.05 <= len(clues) / 100 <= NurikabeGenerator.max_clue_share
    assert max(clues) >= 5  # not a puzzle of small islands only


def test_generated_10x10_seed_6_settles_its_last_ambiguity() -> None:
    """With 1-cell pieces left out of make_unique's edits, this 10x10 ran out of rounds eight
    times on a 2-cell difference; the last-resort edit of a round may make them again."""
    gen = generate_one("nurikabe", 10, 10, 6)
    assert get_puzzle("nurikabe").verify(gen.instance, gen.solution) == []
    assert count_solutions(gen.instance, "cpsat-tree", "cpsat") == 1


def test_warm_check_finds_other_solutions_or_proves_none() -> None:
    """A committed unique puzzle has no other solution; the stress 14x14 (several solutions)
    has one, checked and different; with the cells where they differ held (outside
    ``free``), any other solution found differs only inside ``free``."""
    rules = get_puzzle("nurikabe")
    gen = generate_one("nurikabe", 10, 10, 1)
    assert WarmCheck().other(gen.instance, gen.solution) is None
    stress = read_instance(INSTANCES / "nurikabe" / "stress" / "stress-nurikabe-14x14-multi.txt")
    first = solve_grid(stress)
    other = WarmCheck().other(stress, first)
    assert other is not None and other != first and rules.verify(stress, other) == []
    diff = {(r, c) for r in range(14) for c in range(14) if other[r][c] != first[r][c]}
    free = {(r, c) for r in range(14) for c in range(14)} - diff
    third = WarmCheck().other(stress, first, free=free)
    if third is not None:
        assert rules.verify(stress, third) == []
        assert all(third[r][c] == first[r][c] for r, c in diff)


def solve_grid(inst: Instance) -> SolutionGrid:
    """A solution of ``inst`` (sat-hybrid on CaDiCaL through the harness's solve loop)."""
    import time

    from bench.backends import get_backend
    from bench.registry import get_formulation
    from bench.solve import SolveOptions, solve

    res = solve(inst, get_formulation("nurikabe", "sat-hybrid"), get_backend("cadical195"),
                time.perf_counter() + 120, options=SolveOptions(threads=1, seed=0))
    assert res.grid is not None and not res.problems
    return res.grid


@pytest.mark.slow
def test_generated_14x14_is_unique_sparse_and_reproducible() -> None:
    first = generate_one("nurikabe", 14, 14, 2)
    clues = [int(v) for _, _, v in first.instance.clues()]
    assert count_solutions(first.instance, "sat-tree", "cadical195") == 1
    assert len(clues) / 196 <= NurikabeGenerator.max_clue_share
    assert max(clues) >= 8
    again = generate_one("nurikabe", 14, 14, 2)
    assert again.instance.grid == first.instance.grid


def test_random_solution_is_sparse_with_big_islands() -> None:
    gen = get_generator("nurikabe")
    assert isinstance(gen, NurikabeGenerator)
    shares, biggest = [], 0
    for seed in range(3):
        s = gen.random_solution(30, 30, random.Random(seed))
        assert s is not None
        shares.append(len(s.cells) / 900)
        biggest = max(biggest, *(len(c) for c in s.cells.values()))
    assert all(0.06 <= x <= 0.13 for x in shares), shares
    assert biggest >= 15


def test_merge_joins_islands_and_keeps_the_wall() -> None:
    s = NurikabeState(3, 5)
    a = s.whiten((1, 1), None)
    b = s.whiten((1, 3), None)
    assert s.merges([(1, 2), (0, 0)], cap=9) == [(1, 2)]
    assert s.merges([(1, 2)], cap=2) == []  # the joined island would have 3 cells
    assert s.merge((1, 2)) == [b]
    assert sorted(s.cells[a]) == [(1, 1), (1, 2), (1, 3)] and b not in s.cells
    assert s.black == 12


def test_unstick_joins_a_stuck_island_or_frees_its_clue() -> None:
    """When no edit of make_unique applies in a difference (the clue moved too often, the
    island cannot grow or shrink), unstick joins it to a neighbour through a wall cell next
    to both (so the same other solution does not come back every round); with no such
    cell, the island's clue may move again. (A 40x40 and a 50x50 looped on a 2-cell
    difference for hundreds of rounds before.)"""
    gen = get_generator("nurikabe")
    assert isinstance(gen, NurikabeGenerator)
    s = NurikabeState(3, 5)
    a, b = s.whiten((0, 1), None), s.whiten((0, 3), None)
    clue, moved = {a: (0, 1), b: (0, 3)}, {a: 2, b: 0}
    assert gen.unstick(s, clue, moved, [(0, 1), (0, 0)], random.Random(0))
    assert list(clue) == [a] and sorted(s.cells[a]) == [(0, 1), (0, 2), (0, 3)]
    lone = NurikabeState(3, 3)
    k = lone.whiten((0, 0), None)
    clue, moved = {k: (0, 0)}, {k: 2}
    assert not gen.unstick(lone, clue, moved, [(0, 0), (0, 1)], random.Random(0))
    assert clue == {k: (0, 0)} and moved == {k: 0}


def test_sparsify_changes_undo_exactly() -> None:
    """The joins, grows and drops of one sparsify round, undone in any order, give back the
    solution and clues they started from; while made, the wall stays one piece."""
    gen = get_generator("nurikabe")
    assert isinstance(gen, NurikabeGenerator)
    rules = get_puzzle("nurikabe")
    for seed in range(4):
        rng = random.Random(seed)
        s = gen.random_solution(12, 12, rng)
        assert s is not None
        clue = {k: cells[0] for k, cells in s.cells.items()}
        before = ([row[:] for row in s.island], {k: sorted(v) for k, v in s.cells.items()},
                  dict(clue), s.black)
        done = gen.joins(s, clue, 8, rng)
        assert done and len(clue) < len(before[2])
        grid = gen.puzzle_of(s, clue)
        walls = [p for p in rules.verify(grid, s.solution()) if "separate groups" in p]
        assert walls == []
        assert s.black == sum(row.count(-1) for row in s.island)
        for j in (done[::2] + done[1::2])[::-1]:
            j.undo(s, clue)
        assert ([row[:] for row in s.island], {k: sorted(v) for k, v in s.cells.items()},
                clue, s.black) == before


def test_sparsify_changes_undone_in_part_leave_no_pool() -> None:
    """Any part of a round's changes undone (the rest kept) leaves a valid wall: no two
    changed cells share a 2x2 block, so no 2x2 black block appears (before, a drop kept
    beside a join undone diagonally made one: 6x6 boards of islands up to 2 cells, seed
    266, and a generated 10x10 failed on it) and the wall stays one piece."""
    gen = get_generator("nurikabe")
    assert isinstance(gen, NurikabeGenerator)
    rules = get_puzzle("nurikabe")
    for seed in range(300):
        rng = random.Random(seed)
        s = gen.random_solution(6, 6, rng, cap=2)
        if s is None:
            continue
        clue = {k: cells[0] for k, cells in s.cells.items()}
        done = gen.joins(s, clue, 30, rng)
        cells = [j.v for j in done]
        assert all(max(abs(a[0] - b[0]), abs(a[1] - b[1])) > 1
                   for i, a in enumerate(cells) for b in cells[:i]), seed
        for j in reversed([j for j in done if rng.random() < 0.5]):
            j.undo(s, clue)
        problems = rules.verify(gen.puzzle_of(s, clue), s.solution())
        assert [p for p in problems if "2x2" in p or "separate groups" in p] == [], seed


@pytest.mark.parametrize("path", sorted(SPARSE.glob("*.txt")),
                         ids=lambda p: p.stem)
def test_committed_sparse_family_has_few_one_clues(path: Path) -> None:
    """From 20x20 up, at most 15 % of a committed puzzle's clues are 1s (family v4: 28-32 %
    at 40x40 and 50x50; the real puzzles we have: 0-25 %, one 10x10 with 7 of 9)."""
    inst = read_instance(path)
    clues = [int(v) for _, _, v in inst.clues()]
    assert 0.05 <= len(clues) / inst.cells <= NurikabeGenerator.max_clue_share
    if inst.cells >= 400:
        assert clues.count(1) <= 0.15 * len(clues), (clues.count(1), len(clues))


@pytest.mark.slow
@pytest.mark.parametrize("path", sorted(SPARSE.glob("*.txt")),
                         ids=lambda p: p.stem)
def test_committed_sparse_family_is_unique_and_sparse(path: Path) -> None:
    """Every committed puzzle of the sparse family (10x10 to 50x50): 5-15 % clue cells, its
    .sol a solution, and exactly one solution (counted to 2 by sat-hybrid, not the
    generator's sat-lazy)."""
    inst = read_instance(path)
    clues = [int(v) for _, _, v in inst.clues()]
    assert 0.05 <= len(clues) / inst.cells <= NurikabeGenerator.max_clue_share
    sol = json.loads(path.with_suffix(".sol").read_text())
    assert get_puzzle("nurikabe").verify(inst, sol) == []
    assert count_solutions(inst, "sat-hybrid", "cadical195", time_limit=300) == 1


def test_leaves_one_sees_a_cell_cut_off_alone() -> None:
    s = NurikabeState(3, 4)
    k = s.whiten((1, 0), None)
    for v in ((1, 1), (1, 2), (0, 2)):
        s.whiten(v, k)
    assert s.leaves_one((1, 1))  # (1, 0) would be alone
    assert not s.leaves_one((0, 2))  # the rest stays one piece of 3
    assert s.leaves_one((1, 2))  # (0, 2) alone


def test_whole_edits_leave_no_one_cell_piece() -> None:
    """make_unique's edits with ``whole`` (every round but one in ``patience`` without a
    smaller difference, and not the last-resort edit) make no 1-island out of island cells
    (a ``new`` 1-island on a black cell only); without it, shrinks and splits do, which left
    a third of a 50x50's clues 1s."""
    gen = get_generator("nurikabe")
    assert isinstance(gen, NurikabeGenerator)
    cut_off = {True: 0, False: 0}
    for seed in range(60):
        for whole in (True, False):
            rng = random.Random(seed)
            s = gen.random_solution(8, 8, rng, cap=6)
            other = gen.random_solution(8, 8, random.Random(1000 + seed), cap=6)
            if s is None or other is None:
                continue
            clue = {k: rng.choice(cells) for k, cells in s.cells.items()}
            moved = dict.fromkeys(clue, 0)
            white = {v for cells in s.cells.values() for v in cells}
            ones = {cells[0] for cells in s.cells.values() if len(cells) == 1}
            region = [(r, c) for r in range(8) for c in range(8)
                      if (s.island[r][c] < 0) != (other.island[r][c] < 0)]
            gen.edit(s, clue, moved, other.solution(), region, rng, whole)
            after = {cells[0] for cells in s.cells.values() if len(cells) == 1}
            cut_off[whole] += len((after - ones) & white)
    assert cut_off[True] == 0 and cut_off[False] > 0, cut_off


def test_nearest_blames_the_changes_next_to_the_difference_else_the_closest() -> None:
    """A round's changes blamed for another solution: those within one step of where it
    differs; when none is, the nearest alone (not the whole round, as before)."""
    s = NurikabeState(1, 12)
    alt = s.solution()
    alt[0][5] = "."
    changes = [[(0, 0)], [(0, 4)], [(0, 9)], [(0, 11)]]
    assert s.nearest(alt, changes) == [1]
    assert s.nearest(alt, [[(0, 0)], [(0, 9)], [(0, 2)], [(0, 8)]]) == [2, 3]
    assert s.nearest(s.solution(), changes) == [0, 1, 2, 3]  # no difference: all


#: the committed family's quick puzzles (a few seconds each); the rest up to 30x30 are slow
#: (14x14 s1: 52 s, a 30x30: 1-3 min); the 40x40 and 50x50 take 8-30 minutes each
QUICK_REGEN = ("10x10-s1", "10x10-s2", "10x10-s3", "14x14-s3")


#: the second count of the committed Nurikabe families: other island constraints on another
#: solver than the generator's (``islands=owner`` on Glucose, not ``islands=layers`` on CaDiCaL)
SECOND_COUNT = ("sat-hybrid[wall=auto,islands=owner,enclose=3,card=seqcounter]", "glucose4")


def unique_by_a_second_formulation(path: Path) -> bool:
    """Whether :data:`SECOND_COUNT` counts exactly one solution of ``path`` within 600 s."""
    return count_solutions(read_instance(path), *SECOND_COUNT, time_limit=600) == 1


def regenerates(path: Path, tmp_path: Path) -> None:
    """The puzzle and solution files of ``path`` come again, byte for byte, from its recipe
    (``generator-params``, or the command in the ``source`` header of a file written before
    the generator's version was recorded, compared without the fields it predates): the
    family is reproducible from its seeds: a generator change that alters them needs the
    family made anew and the suites' versions bumped. Also fails on another CaDiCaL/python-sat
    version (the generator's checks are limited by conflicts, not time; only the final count
    to 2 has a time limit, 60 s)."""
    recipe = recipe_of(read_header(path))
    assert recipe is not None and recipe.puzzle == "nurikabe", path
    assert differences(path, recipe) == []


@pytest.mark.parametrize("name", QUICK_REGEN)
def test_committed_sparse_family_regenerates_from_its_seed(name: str, tmp_path: Path) -> None:
    regenerates(SPARSE / f"gen-nurikabe-{name}-0.txt", tmp_path)


@pytest.mark.slow
@pytest.mark.parametrize("name", ["14x14-s1", "14x14-s2", "20x20-s1", "20x20-s2", "20x20-s3",
                                  "30x30-s1", "30x30-s2", "30x30-s3"])
def test_committed_sparse_family_regenerates_up_to_30x30(name: str, tmp_path: Path) -> None:
    regenerates(SPARSE / f"gen-nurikabe-{name}-0.txt", tmp_path)
