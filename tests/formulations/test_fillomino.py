"""The Fillomino formulations: provable domains, the Nmax instance (a region larger than the
largest given + 1) solved uniquely by every exact formulation, the split 6s infeasible for them
(the seed ILP accepts it: tests/formulations/test_fillomino_mip_seed.py), lazy cuts, and the
seed's predicted model size kept when its build runs out of memory in a run."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.instance import parse_instance, read_instance
from bench.puzzles.fillomino.encoding import cut_clauses, defects, layout, small_pieces
from bench.records import Task
from bench.registry import get_formulation
from bench.run.pool import Plan, run_plan, run_task
from bench.run.storage import Journal, load_results
from formulations.fillomino.cpsat_placements import placements
from formulations.fillomino.mip_seed import model_size
from tests.conftest import ROOT

DATA = ROOT / "tests" / "data"
#: exact formulation x one solver of its kind (no HiGHS: it cannot share a process with OR-tools)
EXACT = [("cpsat-tree", "cpsat"), ("sat-lazy", "cadical195"), ("sat-lazy[pieces=2]", "minisat22"),
         ("mip-lazy", "glpk"), ("sat-regions", "cadical195"),
         ("sat-regions[big=16,pieces=4]", "glucose4"), ("cpsat-placements", "cpsat"),
         ("cpsat-placements[small=3]", "cpsat")]


def run(path: Path, formulation: str, solver: str, count: int = 0):
    """In a worker process: OR-tools loaded here would stop HiGHS loading in later tests."""
    return run_task(Task(instance=str(path), formulation=formulation, solver=solver,
                         time_limit=60, count=count))


@pytest.mark.parametrize(("formulation", "solver"), EXACT)
def test_exact_formulations_solve_a_region_larger_than_the_largest_given_plus_one(
        formulation: str, solver: str):
    res = run(DATA / "fillomino-1x5-nmax.txt", formulation, solver, count=2)
    assert res.status == "solved", res.message
    assert res.grid == [[1, 3, 3, 3, 1]] and res.count == 1 and res.known and res.exact


@pytest.mark.parametrize(("formulation", "solver"), EXACT)
def test_exact_formulations_reject_a_region_split_in_two_pieces(formulation: str, solver: str):
    res = run(DATA / "fillomino-3x3-split.txt", formulation, solver)
    assert res.status == "infeasible", res.message


@pytest.mark.parametrize(("formulation", "solver"), [*EXACT[:2], EXACT[4]])
def test_a_generated_10x10_with_regions_without_givens_is_unique(formulation: str, solver: str):
    res = run(DATA / "fillomino-10x10-large.txt", formulation, solver, count=2)
    assert res.status == "solved" and res.count == 1 and res.known, res.message


def test_domains_are_proved_from_the_grid():
    inst = parse_instance("puzzle: fillomino\n\n4 . 2 . .\n", "d.txt")
    dom = layout(inst).dom
    assert dom[0, 0] == [4] and dom[0, 2] == [2]
    # alone between the givens: a region of its own (1) or one of theirs
    assert dom[0, 1] == [1, 2, 4]
    # two free cells: 1 or 2 on their own; the 4 cannot pass the 2; a 2-region with the given
    # 2 could reach (0, 3) but not (0, 4)
    assert dom[0, 3] == [1, 2] and dom[0, 4] == [1, 2]
    big = layout(parse_instance("puzzle: fillomino\n\n. . . .\n. . . .\n", "e.txt")).dom
    assert big[0, 0] == list(range(1, 9))  # no givens: the whole grid is the only bound


def test_small_pieces_are_the_fixed_polyomino_placements():
    # 2x3 grid: 6 monominoes, 7 dominoes, trominoes: 2 straight + 8 L = 10
    sizes = [len(p) for p in small_pieces(2, 3, 3)]
    assert (sizes.count(1), sizes.count(2), sizes.count(3)) == (6, 7, 10)


def test_placements_fit_the_domains_and_never_touch_a_given_of_their_size():
    lay = layout(parse_instance("puzzle: fillomino\n\n2 . .\n. . 3\n", "p.txt"))
    found = placements(lay, 3)
    assert [(0, 0)] not in found and [(1, 2)] not in found  # givens hold 2 and 3
    assert [(0, 1)] in found and [(0, 0), (1, 0)] in found
    # a 2 beside the given 2 would join it; the 3 at (1, 2) takes one of its own shapes
    assert [(0, 1), (0, 2)] not in found and [(1, 0), (1, 1)] not in found
    assert [(0, 2), (1, 1), (1, 2)] in found and [(0, 1), (0, 2), (1, 2)] in found
    assert all(len(p) != 3 or (1, 2) in p for p in found)  # a 3 elsewhere would touch it


def test_cuts_exclude_the_defects_of_a_candidate_and_hold_in_the_solution():
    inst = parse_instance("puzzle: fillomino\n\n. . . .\n. . . .\n", "e.txt")
    lay = layout(inst)
    wrong = [[2, 2, 2, 1], [3, 3, 1, 3]]  # 2s too big, 3s too small twice
    assert sorted((d.k, len(d.cells)) for d in defects(2, 4, lambda v: wrong[v[0]][v[1]])) == [
        (2, 3), (3, 1), (3, 2)]
    cuts = cut_clauses(lay, lambda v: wrong[v[0]][v[1]])
    right = [[2, 2, 3, 1], [1, 3, 3, 1]]

    def holds(grid, clause):
        return any((grid[v[0]][v[1]] == k) == pos for pos, v, k in clause)

    # one cut per defect excludes it (its own number); the others, same shapes with other
    # numbers, are valid too
    assert sum(not holds(wrong, c) for c in cuts) == 3
    assert all(holds(right, c) for c in cuts)


def test_mip_seed_predicts_its_size_and_a_run_keeps_it_when_the_build_runs_out_of_memory(
        tmp_path: Path):
    path = DATA / "fillomino-10x10-large.txt"
    predicted = model_size(read_instance(path))
    assert get_formulation("fillomino", "mip-seed").predicted_size(read_instance(path)) == \
        predicted
    assert predicted["constraints"] > 900_000
    # a Plan by hand: plan_tasks loads every fillomino formulation, OR-tools with cpsat-tree,
    # and HiGHS could not load in this process after it
    plan = Plan(tasks=[Task(str(path), "mip-seed", "glpk", time_limit=60,
                            memory_limit_mb=400)], errors=[])
    run_plan(plan, Journal(tmp_path / "run"), jobs=1)
    df = load_results(tmp_path / "run")
    row = df.iloc[0]
    assert row["status"] == "memout", row["message"]
    assert (row["variables"], row["constraints"]) == (predicted["variables"],
                                                      predicted["constraints"])
    assert bool(row["size_predicted"]) is True


def test_a_built_model_reports_its_own_size():
    res = run(DATA / "fillomino-1x5-nmax.txt", "mip-seed", "glpk")
    assert res.size_predicted is False and res.variables == model_size(
        read_instance(DATA / "fillomino-1x5-nmax.txt"))["variables"]
