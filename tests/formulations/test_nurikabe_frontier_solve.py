"""The frontier solver of few-clue Nurikabe (:func:`bench.puzzles.nurikabe.frontier.solve`
and the ``frontier`` formulation of kind ``external``): its answer is the known solution of the
committed two-clue 8x8s, agrees with the exact count on random small grids (none: infeasible;
several: a valid one, and counting reaches them all), refuses many-clue and wide grids with a
reason, and stops at a deadline and at its state budget."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from bench.backends import get_backend
from bench.generate import instance_from_grid
from bench.instance import Instance, format_instance, read_instance
from bench.puzzles import SolutionGrid
from bench.puzzles.nurikabe import frontier
from bench.puzzles.nurikabe.frontier import FrontierTooBig, count, solve
from bench.puzzles.nurikabe.rules import BLACK, WHITE
from bench.puzzles.registry import get_puzzle
from bench.records import Task
from bench.run.execute import execute, read_known_solution
from bench.solve import solve as harness_solve
from formulations.nurikabe.external_frontier import FrontierNurikabe, clue_grid
from tests.conftest import INSTANCES
from tests.generate.test_nurikabe_frontier import random_grid as few_clue_grid

TWO = INSTANCES / "nurikabe" / "two"
EIGHTS = sorted(TWO.glob("gen-nurikabe-8x8-*.txt"))
Grid = list[list[int | None]]


def random_grid(seed: int) -> Grid:
    """A small grid with one to three clues on 55-80 % white, from ``seed``."""
    return few_clue_grid(seed, (1, 2, 2, 3))


def as_instance(grid: Grid) -> Instance:
    return instance_from_grid("nurikabe", grid, {})


def as_solution(grid: Grid, colours: list[list[int]]) -> SolutionGrid:
    wall = sum(v is not None for row in grid for v in row)
    return [[BLACK if x == wall else WHITE for x in row] for row in colours]


def walls(solution: SolutionGrid) -> frozenset[tuple[int, int]]:
    return frozenset((r, c) for r, row in enumerate(solution) for c, v in enumerate(row)
                     if v == BLACK)


def test_the_eights_are_there() -> None:
    assert len(EIGHTS) == 5


@pytest.mark.parametrize("path", EIGHTS, ids=lambda p: p.stem)
def test_the_answer_is_the_known_solution(path: Path) -> None:
    inst = read_instance(path)
    found = solve(clue_grid(inst))
    assert found.status == "solved" and found.solutions == 1 and found.colours is not None
    assert as_solution(clue_grid(inst), found.colours) == read_known_solution(str(path))


def test_the_harness_solves_and_counts_a_committed_puzzle() -> None:
    """Through the registered formulation: checked by the rules and against the ``.sol``, and
    the count of 2 asked answers 1 (the exact count of the one run: no second run)."""
    res = execute(Task(str(EIGHTS[0]), "frontier", "external", time_limit=60, count=2))
    assert res.status == "solved", res.message
    assert res.count == 1


@pytest.mark.parametrize("seed", range(24))
def test_the_answer_agrees_with_the_count(seed: int) -> None:
    grid = random_grid(seed)
    exact = count(grid).solutions
    found = solve(grid)
    assert found.solutions == exact
    if exact == 0:
        assert found.status == "infeasible" and found.colours is None
        return
    assert found.status == "solved" and found.colours is not None
    solution = as_solution(grid, found.colours)
    assert get_puzzle("nurikabe").verify(as_instance(grid), solution) == []


def test_the_random_grids_have_many_none_and_one() -> None:
    """The cases above are not all of one answer (the comparison could fail either way; one
    solution: the committed puzzles above)."""
    counts = {count(random_grid(seed)).solutions for seed in range(24)}
    assert 0 in counts and any(n > 20 for n in counts) and any(2 <= n <= 12 for n in counts)


@pytest.mark.parametrize("seed", [s for s in range(24) if 2 <= count(random_grid(s)).solutions
                                  <= 12])
def test_excluding_the_answers_reaches_every_solution(seed: int) -> None:
    """Excluded solutions are neither answered nor counted: n runs give n distinct valid
    solutions, with counts n, n-1, ..., 1, then none."""
    grid = random_grid(seed)
    n = count(grid).solutions
    seen: list[frozenset[tuple[int, int]]] = []
    for left in range(n, 0, -1):
        found = solve(grid, exclude=seen)
        assert found.status == "solved" and found.solutions == left and found.colours
        solution = as_solution(grid, found.colours)
        assert get_puzzle("nurikabe").verify(as_instance(grid), solution) == []
        assert walls(solution) not in seen
        seen.append(walls(solution))
    assert solve(grid, exclude=seen).status == "infeasible"


def test_the_harness_counts_two_on_a_grid_with_many(tmp_path: Path) -> None:
    grid = next(g for g in map(random_grid, range(24)) if count(g).solutions > 20)
    path = tmp_path / "many.txt"
    path.write_text(format_instance(as_instance(grid)), encoding="utf-8")
    res = execute(Task(str(path), "frontier", "external", time_limit=60, count=2))
    assert res.status == "solved" and res.count == 2, res.message


def test_the_harness_reads_no_solution_as_infeasible(tmp_path: Path) -> None:
    grid = next(g for g in map(random_grid, range(24)) if count(g).solutions == 0)
    path = tmp_path / "none.txt"
    path.write_text(format_instance(as_instance(grid)), encoding="utf-8")
    assert execute(Task(str(path), "frontier", "external", time_limit=60)).status \
        == "infeasible"


def test_a_many_clue_instance_is_skipped_with_its_reason() -> None:
    path = INSTANCES / "nurikabe" / "gen-nurikabe-10x10-s1-0.txt"
    inst = read_instance(path)
    assert len(list(inst.clues())) > 3
    reason = FrontierNurikabe().skip(inst)
    assert reason is not None and reason.startswith(f"{len(list(inst.clues()))} clues")
    res = execute(Task(str(path), "frontier", "external", time_limit=60))
    assert res.status == "skipped" and "clues" in res.message


def test_a_wide_grid_is_skipped_and_a_two_clue_ten_is_not() -> None:
    wide: Grid = [[None] * 14 for _ in range(13)]
    wide[0][0], wide[5][5] = 40, 50
    reason = FrontierNurikabe().skip(as_instance(wide))
    assert reason == "a frontier 13 cells wide, over 12"
    assert FrontierNurikabe().skip(read_instance(TWO / "gen-nurikabe-10x10-s2-clues2-0.txt")) \
        is None


def test_a_deadline_in_the_past_is_a_timeout() -> None:
    grid = clue_grid(read_instance(EIGHTS[0]))
    found = solve(grid, deadline=time.perf_counter() - 1.0)
    assert found.status == "timeout" and found.colours is None


def test_the_state_budget_stops_the_solve_within_the_step_and_fails_the_task() -> None:
    inst = read_instance(EIGHTS[0])
    with pytest.raises(FrontierTooBig, match=r"over 100 states at cell \(\d+, \d+\)"):
        solve(clue_grid(inst), max_states=100)

    class Tight(FrontierNurikabe):
        max_states = 100

    solved = harness_solve(inst, Tight(), get_backend("external"), time.perf_counter() + 60)
    assert solved.status == "error"  # scored as a failure, not left out as a skip
    assert "frontier too wide for this instance: over 100 states" in (solved.message or "")


def test_a_long_grid_is_skipped_for_its_witness() -> None:
    long: Grid = [[None] * 40 for _ in range(10)]
    long[0][0], long[5][5] = 100, 150
    assert FrontierNurikabe().skip(as_instance(long)) == (
        "400 cells, over 300 (each state's witness holds every cell)")


def test_a_count_known_exactly_answers_the_next_call_without_a_second_run(monkeypatch) -> None:
    """After a run whose exact count was 1, blocking its answer makes the next call answer
    "infeasible" at once; blocking any other grid runs the programme again."""
    import formulations.nurikabe.external_frontier as module

    inst = read_instance(EIGHTS[0])
    form = FrontierNurikabe()
    runs: list[int] = []
    real = module.solve

    def counted(*args: object, **kw: object) -> object:
        runs.append(1)
        return real(*args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(module, "solve", counted)
    model = form.build(inst)
    first = model.run(60.0, 1, 0)
    assert first.status == "sat" and first.values is not None and len(runs) == 1
    grid = form.decode(inst, model, lambda key: first.values[key])  # type: ignore[index]
    form.block(inst, model, grid)
    assert model.run(60.0, 1, 0).status == "infeasible" and len(runs) == 1
    other = form.build(inst)
    other.run(60.0, 1, 0)
    flipped = [[BLACK if v != BLACK else WHITE for v in row] for row in grid]
    form.block(inst, other, flipped)  # not its answer: the programme runs again
    assert other.run(60.0, 1, 0).status == "sat" and len(runs) == 3


def test_a_deadline_passing_within_a_step_stops_it_before_the_next_profile() -> None:
    """The deadline is checked before each profile of a step, not only between cells (a step
    of a 10x10 takes seconds): a step of many profiles whose deadline has passed answers
    None at once, and the same step without a deadline answers its states."""
    grid = clue_grid(read_instance(TWO / "gen-nurikabe-10x10-s1-clues2-0.txt"))
    rows, cols, clue_at, sizes = frontier._grid_of(grid, 0)
    agree = [[-1] * (len(sizes) + 1) for _ in range(rows * cols)]
    sweep = frontier.Sweep(rows, cols, clue_at, sizes, True, agree, None, 10**7, True)
    states = frontier._first(sweep, 0)
    for cell in range(35):
        stepped = frontier._step(states, sweep, *divmod(cell, cols))
        assert stepped is not None
        states = stepped[0]
    assert len(states) > 1000
    sweep.deadline = time.perf_counter() - 1.0
    t0 = time.perf_counter()
    assert frontier._step(states, sweep, *divmod(35, cols)) is None
    stopped = time.perf_counter() - t0
    sweep.deadline = None
    t0 = time.perf_counter()
    stepped = frontier._step(states, sweep, *divmod(35, cols))
    assert stepped is not None and stepped[1] > 1000
    assert stopped < (time.perf_counter() - t0) / 10
