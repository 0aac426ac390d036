"""Many big islands of the Nurikabe generator: the parameters ``small`` (the small islands'
cap of the pinned solution: a denser start, many 1s and 2s) and ``alts`` (cells per other
solution a check reports), and the halo test :func:`fenceable` that the tiled snakes call at
every step."""

from __future__ import annotations

import random

from bench.generate import command, file_stem, get_generator
from bench.grid import components
from bench.puzzles import get_puzzle
from bench.puzzles.nurikabe.generate import NurikabeGenerator
from bench.puzzles.nurikabe.generate.big import fenceable, halo, pinned_solution, ring, snake
from bench.puzzles.nurikabe.rules import pools


def generator(**params: int) -> NurikabeGenerator:
    gen = get_generator("nurikabe").with_params(params)
    assert isinstance(gen, NurikabeGenerator)
    return gen


def small_sizes(gen: NurikabeGenerator, n: int, seed: int) -> list[int]:
    s = pinned_solution(gen, n, n, random.Random(seed))
    assert s is not None
    clue = {k: cells[0] for k, cells in s.cells.items()}
    assert get_puzzle("nurikabe").verify(gen.puzzle_of(s, clue), s.solution()) == []
    big = {s.island[r][c] for r, c in s.anchors}
    return sorted(len(cells) for k, cells in s.cells.items() if k not in big)


def test_small_caps_the_other_islands_of_the_pinned_solution() -> None:
    """``small=3``: a valid solution whose other islands are mostly of 1-3 cells (a piece
    that cannot be cut without taking a big island's last fence stays bigger: on 20x20 seed
    1, 10 of 41), more of them and smaller on average than with the default cap (9) on the
    same seed; the same seed gives the same solution."""
    dense = small_sizes(generator(big=1, small=3), 20, 1)
    default = small_sizes(generator(big=1), 20, 1)
    assert sum(size <= 3 for size in dense) >= 0.7 * len(dense), dense
    assert len(dense) > len(default)
    assert sum(dense) / len(dense) < sum(default) / len(default)
    assert dense == small_sizes(generator(big=1, small=3), 20, 1)


def test_alts_sets_how_many_other_solutions_a_check_reports() -> None:
    """A 12x12 random solution with a clue on a random cell of each island is far from
    unique: the default (one other solution per 100 cells) reports one difference region,
    ``alts=12`` (one per 12 cells) several, each apart from the others."""
    gen = generator()
    rng = random.Random(4)
    s = gen.random_solution(12, 12, rng, cap=gen.start_island)
    assert s is not None
    clue = {k: rng.choice(cells) for k, cells in s.cells.items()}
    inst, sol = gen.puzzle_of(s, clue), s.solution()

    def regions(g: NurikabeGenerator) -> int:
        alt = g.other(inst, sol)
        assert alt is not None
        diff = [(r, c) for r in range(12) for c in range(12) if alt[r][c] != sol[r][c]]
        return len(components(diff, 12, 12))

    assert regions(gen) == 1
    assert regions(generator(alts=12)) >= 3


def test_the_new_parameters_name_the_file_and_the_command() -> None:
    params = {"big": 8, "bigmin": 40, "bigmax": 50, "small": 4, "alts": 25}
    assert file_stem("nurikabe", 40, 57, 1, 0, params) == \
        "gen-nurikabe-40x57-s1-alts25-big8-bigmax50-bigmin40-small4-0"
    assert command("nurikabe", 40, 57, 1, 1, params) == (
        "puzzlebench generate nurikabe --size 40x57 --seed 1 --param alts=25 --param big=8 "
        "--param bigmax=50 --param bigmin=40 --param small=4")


def old_fenceable(rows: int, cols: int, b: set[tuple[int, int]]) -> bool:
    """:func:`fenceable` as it was, the 2x2 test over the whole grid."""
    around = halo(rows, cols, b)
    if pools(around.__contains__, rows, cols):
        return False
    return all(sum(u in b for u in nbrs) >= 2 or any(u not in b and u not in around
                                                     for u in nbrs)
               for v in ring(rows, cols, b)
               for nbrs in [[n for n in ((v[0] + 1, v[1]), (v[0] - 1, v[1]), (v[0], v[1] + 1),
                                         (v[0], v[1] - 1)) if 0 <= n[0] < rows
                             and 0 <= n[1] < cols]])


def test_fenceable_tests_the_halo_blocks_only_and_answers_as_the_whole_grid_test() -> None:
    """The halo's 2x2 test looks only at blocks cornered in the halo: the same answer as the
    test over the whole grid on random cell sets near the border and on snakes."""
    rng = random.Random(2)
    shapes = [{(rng.randrange(9), rng.randrange(9)) for _ in range(rng.randint(2, 12))}
              for _ in range(300)]
    shapes += [b for _ in range(30) if (b := snake(16, 16, 20, set(), rng))]
    answers = {fenceable(9 if max(max(v) for v in b) < 9 else 16,
                         9 if max(max(v) for v in b) < 9 else 16, b) for b in shapes}
    assert answers == {True, False}
    for b in shapes:
        n = 9 if max(max(v) for v in b) < 9 else 16
        assert fenceable(n, n, b) == old_fenceable(n, n, b), sorted(b)
