"""The Yin-Yang generator: valid random colourings, unique puzzles reproducible from the seed,
and the unsatisfiable test board proved so by enumeration."""

from __future__ import annotations

import itertools
import random
from pathlib import Path

from bench.generate import generate_one
from bench.instance import read_instance
from bench.puzzles import get_puzzle
from bench.puzzles.yinyang.generate import Colouring, YinYangGenerator, grow

ROOT = Path(__file__).resolve().parent.parent.parent
RULES = get_puzzle("yinyang")


def empty(rows: int, cols: int):
    from bench.generate import instance_from_grid

    return instance_from_grid("yinyang", [[None] * cols for _ in range(rows)])


def test_grown_colouring_has_no_black_block_and_connected_white():
    for seed in range(5):
        grid = grow(12, 9, random.Random(seed), 0.45)
        problems = RULES.verify(empty(12, 9), grid)
        # only all-white 2x2 blocks may be left for the repair step
        assert all("2x2 block of white" in p for p in problems), problems


def test_random_solution_is_valid():
    gen = YinYangGenerator()
    for seed in range(3):
        grid = gen.random_solution(10, 13, random.Random(seed))
        assert RULES.verify(empty(10, 13), grid) == []


def test_flips_keep_a_colouring_valid():
    gen = YinYangGenerator()
    col = Colouring(gen.random_solution(8, 8, random.Random(7)))
    rng = random.Random(1)
    flips = 0
    for _ in range(400):
        v = (rng.randrange(8), rng.randrange(8))
        if col.can_flip(v):
            col.flip(v)
            flips += 1
            assert RULES.verify(empty(8, 8), col.grid) == []
    assert flips > 5


def test_generated_puzzle_is_unique_and_reproducible():
    a = generate_one("yinyang", 7, 7, seed=5)
    b = generate_one("yinyang", 7, 7, seed=5)
    assert a.instance.grid == b.instance.grid and a.solution == b.solution
    assert RULES.verify(a.instance, a.solution) == []
    stones = sum(v is not None for row in a.instance.grid for v in row)
    assert 2 <= stones < 49
    assert generate_one("yinyang", 7, 7, seed=6).instance.grid != a.instance.grid


def test_generated_puzzles_look_like_real_ones():
    """Stones on 20-35 % of the cells, the border holding at least its share of them."""
    for seed in (1, 2):
        g = generate_one("yinyang", 10, 10, seed=seed)
        stones = [(r, c) for r, row in enumerate(g.instance.grid) for c, v in enumerate(row)
                  if v is not None]
        assert 0.20 <= len(stones) / 100 <= 0.35, len(stones)
        on_border = sum(1 for r, c in stones if r in (0, 9) or c in (0, 9))
        assert on_border / len(stones) >= 36 / 100, (on_border, len(stones))


def test_enclosed_stone_board_has_no_solution():
    inst = read_instance(ROOT / "tests" / "data" / "infeasible" / "yinyang-3x4-enclosed.txt")
    assert list(RULES.validate(inst)) == []  # not caught as malformed
    cells = inst.rows * inst.cols
    for bits in itertools.product("bw", repeat=cells):
        grid = [list(bits[r * inst.cols:(r + 1) * inst.cols]) for r in range(inst.rows)]
        assert RULES.verify(inst, grid), grid


def stone_cells(grid) -> list[tuple[int, int]]:
    return [(r, c) for r, row in enumerate(grid) for c, v in enumerate(row) if v is not None]


def test_min_percent_and_keep_border_make_sparser_unique_puzzles():
    """``min_percent=0`` and ``keep_border=0`` let the minimiser go below 20 % of the cells
    and remove border stones; the puzzle stays unique (generate_one proves it) and
    differs from the default one only in its stones."""
    dense = generate_one("yinyang", 10, 10, seed=3)
    params = {"min_percent": 0, "keep_border": 0}
    sparse = generate_one("yinyang", 10, 10, seed=3, params=params)
    assert sparse.solution == dense.solution
    assert RULES.verify(sparse.instance, sparse.solution) == []
    few, many = stone_cells(sparse.instance.grid), stone_cells(dense.instance.grid)
    assert len(few) < 20 <= len(many), (len(few), len(many))
    border = {(r, c) for r, c in many if r in (0, 9) or c in (0, 9)}
    assert not border <= set(few)  # some border stone of the default run was removed


def test_min_percent_is_a_floor():
    g = generate_one("yinyang", 10, 10, seed=3, params={"min_percent": 30, "keep_border": 0})
    assert len(stone_cells(g.instance.grid)) >= 30


def test_per_region_adds_stones_in_fewer_solver_calls():
    """Without the minimiser (``min_percent=100``), one stone per region of difference
    reaches a unique puzzle in fewer uniqueness checks than one stone per round."""
    from bench.generate import count_solutions, instance_from_grid

    calls = {}
    for per_region in (0, 1):
        gen = YinYangGenerator().with_params({"min_percent": 100, "per_region": per_region})
        solution = gen.random_solution(14, 14, random.Random(4))
        stones = gen.make_unique(solution, random.Random(5))
        inst = instance_from_grid("yinyang", gen.clue_grid(solution, stones))
        assert count_solutions(inst, gen.formulation, gen.solver) == 1
        calls[per_region] = gen.solves
    assert calls[1] < calls[0], calls
