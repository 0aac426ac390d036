"""The two-clue kind of the Nurikabe generator (parameter ``clues``,
:mod:`bench.puzzles.nurikabe.generate.walls`): its frames, its errors, a generated puzzle
and the committed family (``instances/nurikabe/two/``)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from bench.generate import GenerationError, count_solutions, generate_one, get_generator
from bench.grid import components
from bench.instance import read_instance
from bench.puzzles import get_puzzle
from bench.puzzles.nurikabe.generate import walls
from tests.conftest import INSTANCES
from tests.generate.test_nurikabe_generator import regenerates

TWO = INSTANCES / "nurikabe" / "two"  # the committed family made with --param clues=2


def test_every_frame_is_a_wall_of_the_kind() -> None:
    """Connected, no 2x2 block, two islands, 65-80 % white, both islands big."""
    frames = walls.frames(10, 10)
    assert frames
    for frame in frames:
        wall = walls.frame_cells(*frame)
        lay = walls.Layout(10, 10, wall)
        islands = lay.islands()
        assert len(islands) == 2 and len(components(wall, 10, 10)) == 1
        assert not any({(r + 1, c), (r, c + 1), (r + 1, c + 1)} <= wall for r, c in wall)
        white = 100 - len(wall)
        assert 65 <= white <= 80
        assert min(map(len, islands)) >= walls.ISLAND_SHARE * white
    # the real puzzle's counts are among them: a 6x6 inside, one corner open (36, 37, 27)
    assert (1, 1, 6, 6, 0) in frames and len(walls.frame_cells(1, 1, 6, 6, 0)) == 27


def test_clues_2_makes_a_unique_two_clue_puzzle() -> None:
    """Through the generator's entry point (its final count proves uniqueness); then counted
    again with another island encoding on another solver."""
    made = generate_one("nurikabe", 8, 8, 4, params={"clues": 2})
    clues = made.instance.clues()
    assert len(clues) == 2
    assert sum(int(v) for _, _, v in clues) == sum(row.count(".") for row in made.solution)
    assert 0.65 * 64 <= sum(int(v) for _, _, v in clues) <= 0.80 * 64
    assert get_puzzle("nurikabe").verify(made.instance, made.solution) == []
    assert count_solutions(made.instance, "asp-reach", "clingo", time_limit=600) == 1


@pytest.mark.parametrize(("params", "size", "message"), [
    ({"clues": 1}, 10, r"bad parameter clues=1: the kind makes 2 clues"),
    ({"clues": 4}, 10, r"bad parameter clues=4"),
    ({"clues": 2, "cover": 70}, 10, r"clues is a kind of its own"),
    ({"clues": 2, "big": 1}, 10, r"clues is a kind of its own"),
    ({"clues": 2}, 7, r"nurikabe 7x7: the 2-clue kind needs both sides at least 8"),
])
def test_bad_values_are_clear_errors(params: dict[str, int], size: int, message: str) -> None:
    gen = get_generator("nurikabe").with_params(params)
    with pytest.raises(GenerationError, match=message):
        gen.generate_solved(size, size, random.Random(1))


def test_a_negative_clue_count_is_refused() -> None:
    with pytest.raises(GenerationError, match=r"bad parameter clues=-2: must be at least 0"):
        get_generator("nurikabe").with_params({"clues": -2})


@pytest.mark.parametrize("path", sorted(TWO.glob("*.txt")), ids=lambda p: p.stem)
def test_committed_two_clue_family_has_two_clues_on_most_of_the_grid(path: Path) -> None:
    inst = read_instance(path)
    sizes = [int(v) for _, _, v in inst.clues()]
    assert len(sizes) == 2 and 0.65 * inst.cells <= sum(sizes) <= 0.80 * inst.cells
    sol = json.loads(path.with_suffix(".sol").read_text())
    assert get_puzzle("nurikabe").verify(inst, sol) == []


def test_the_committed_family_is_there() -> None:
    assert len(sorted(TWO.glob("*.txt"))) >= 5


@pytest.mark.slow
@pytest.mark.parametrize("path", sorted(TWO.glob("gen-*-8x8-*.txt")), ids=lambda p: p.stem)
def test_committed_two_clue_family_is_unique_by_a_second_formulation(path: Path) -> None:
    """Counted to 2 by the ASP formulation on clingo (not SAT on CaDiCaL)."""
    assert count_solutions(read_instance(path), "asp-reach", "clingo", time_limit=900) == 1


@pytest.mark.slow
@pytest.mark.parametrize("path", sorted(TWO.glob("gen-*.txt")), ids=lambda p: p.stem)
def test_committed_two_clue_family_regenerates_from_its_seed(path: Path,
                                                            tmp_path: Path) -> None:
    regenerates(path, tmp_path)


@pytest.mark.slow
@pytest.mark.parametrize("path", sorted(TWO.glob("*-10x10-*.txt")), ids=lambda p: p.stem)
def test_committed_10x10s_are_counted_unique_by_the_frontier_programme(path: Path) -> None:
    """The proof of the 10x10s (the solvers' counts to 2 run past any budget there)."""
    assert walls.proof_count(read_instance(path)) == 1


def test_the_hand_made_ring_has_the_real_puzzles_counts() -> None:
    """Two clues, 37 and 36, a wall of 27 on a 10x10 (73 % white), and says how it was made
    and proved."""
    inst = read_instance(TWO / "hand-nurikabe-10x10-ring-0.txt")
    assert sorted(int(v) for _, _, v in inst.clues()) == [36, 37]
    sol = json.loads((TWO / "hand-nurikabe-10x10-ring-0.sol").read_text())
    assert sum(row.count("#") for row in sol) == 27
    assert get_puzzle("nurikabe").verify(inst, sol) == []
    assert "made by hand" in inst.header["source"] and "frontier" in inst.header["proof"]


@pytest.mark.parametrize(("cells", "near"), [
    (((0, 5), (2, 9)), True),  # both within 3 of the top
    (((7, 0), (9, 9)), True),  # the bottom
    (((3, 8), (6, 9)), True),  # the right side
    (((0, 0), (9, 9)), False),  # opposite corners: no side is near both
    (((3, 3), (4, 4)), False),
])
def test_clues_near_one_side(cells: tuple[tuple[int, int], ...], near: bool) -> None:
    assert walls.near_side(cells, 10, 10) is near


def test_grids_of_nine_or_more_are_counted_by_the_frontier_programme(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """There the generator's final proof is the frontier count (the solvers' proofs run past
    any budget: a state budget of 10 stops it), on 8x8 still the solver's count."""
    assert walls.counted(9, 12) and walls.counted(10, 10) and not walls.counted(8, 10)
    gen = get_generator("nurikabe").with_params({"clues": 2})
    monkeypatch.setattr(walls, "COUNT_STATES", 10)
    lay = walls.Layout(9, 9, walls.frame_cells(0, 0, 5, 5, 3), [(0, 8), (1, 1)])
    with pytest.raises(GenerationError, match=r"not proved by the frontier count: .*over 10"):
        gen.proof_count(gen.instance([list(row) for row in lay.grid()]))
    assert gen.proof_count(read_instance(TWO / "gen-nurikabe-8x8-s4-clues2-0.txt")) == 1


def test_an_island_too_big_for_the_count_is_a_generation_error() -> None:
    """The programme's tallies hold up to 255 cells: a bigger island is a clear error of
    the generator (which the CLI reports in one line), not a crash."""
    grid: list[list[int | None]] = [[None] * 20 for _ in range(20)]
    grid[0][0], grid[0][2] = 300, 20
    gen = get_generator("nurikabe").with_params({"clues": 2})
    with pytest.raises(GenerationError, match=r"not proved by the frontier count: .*too big"):
        gen.proof_count(gen.instance(grid))


def test_the_committed_10x10s_are_distinct_puzzles() -> None:
    """Five generated and the hand-made one, no two the same (two seeds can draw one frame
    and one placement: seed 4 made seed 2's puzzle and is left out)."""
    grids = {tuple(map(tuple, read_instance(p).grid)) for p in TWO.glob("*-10x10-*.txt")}
    assert len(grids) == len(list(TWO.glob("*-10x10-*.txt"))) == 6
