"""The few-clue levers of the Nurikabe formulations: the redundant count of black cells
(``blacks=count`` of sat-propagate and asp-reach; :func:`black_count` added to sat-hybrid's CNF
here) and sat-propagate's CaDiCaL presets (``cadical=...``).

Each new parameter solves small instances to their .sol files with a unique count; the count of
black cells keeps the solution of every instance of at most 8x8 under instances/nurikabe/
(the CNF or program with the solution's colours fixed stays satisfiable) and is no dead letter
(one black cell more, or a wrong total, is refused)."""

from __future__ import annotations

import json
import time
from pathlib import Path

import clingo
import pytest
from pysat.solvers import Solver

from bench.backends import get_backend
from bench.instance import Instance, read_instance
from bench.models import SatModel
from bench.puzzles.nurikabe.rules import BLACK
from bench.registry import get_formulation
from bench.solve import Solved, solve
from formulations.nurikabe._islands import layout
from formulations.nurikabe.sat_hybrid import black_count

ROOT = Path(__file__).resolve().parents[2]
NURIKABE = ROOT / "instances" / "nurikabe"
SMALL = [NURIKABE / "gen-nurikabe-5x5-s1-0.txt", NURIKABE / "gen-nurikabe-7x7-s1-0.txt",
         NURIKABE / "seed-p02.txt"]
#: every instance of at most 8x8 with its solution file
UP_TO_8 = sorted(p for p in NURIKABE.rglob("*.txt") if p.with_suffix(".sol").is_file()
                 and max(read_instance(p).rows, read_instance(p).cols) <= 8)
SAT_LABELS = ["sat-propagate[blacks=count]",
              *(f"sat-propagate[cadical={c}]"
                for c in ("phase0", "forcephase0", "stable", "focused"))]


def solution(path: Path) -> list[list[str]]:
    return list(json.loads(path.with_suffix(".sol").read_text()))


def run(inst: Instance, label: str, kind: str, solver: str) -> Solved:
    form = get_formulation("nurikabe", label, [kind])
    return solve(inst, form, get_backend(solver), time.perf_counter() + 60, count=2)


def test_the_small_set_covers_two_clue_puzzles() -> None:
    assert len(UP_TO_8) >= 20
    assert any(p.parent.name == "two" for p in UP_TO_8)


@pytest.mark.parametrize("label", SAT_LABELS)
@pytest.mark.parametrize("path", SMALL, ids=lambda p: p.stem)
def test_sat_levers_solve_small_instances_uniquely(path: Path, label: str) -> None:
    res = run(read_instance(path), label, "sat", "cadical195")
    assert res.status == "solved", res.message
    assert res.grid == solution(path)
    assert res.count == 1
    if label.startswith("sat-propagate"):  # the preset's wrapper passes the counters on
        assert res.stats.effort["propagator_calls"] > 0


@pytest.mark.parametrize("path", SMALL, ids=lambda p: p.stem)
def test_asp_black_count_solves_small_instances_uniquely(path: Path) -> None:
    res = run(read_instance(path), "asp-reach[blacks=count]", "asp", "clingo")
    assert res.status == "solved", res.message
    assert res.grid == solution(path)
    assert res.count == 1


def fixed_cnf(path: Path, label: str) -> tuple[SatModel, list[int]]:
    """The label's CNF for the instance (sat-hybrid's with :func:`black_count` added) and the
    solution's colours as unit literals."""
    inst = read_instance(path)
    model = get_formulation("nurikabe", label, ["sat"]).build(inst)
    assert isinstance(model, SatModel)
    if label == "sat-hybrid":
        black_count(model, layout(inst), model.handles["black"])
    black = model.handles["black"]
    units = [black[(r, c)] if v == BLACK else -black[(r, c)]
             for r, row in enumerate(solution(path)) for c, v in enumerate(row)]
    return model, units


@pytest.mark.parametrize("label", ["sat-hybrid", "sat-propagate[blacks=count]"])
@pytest.mark.parametrize("path", UP_TO_8, ids=lambda p: f"{p.parent.name}-{p.stem}")
def test_black_count_keeps_the_solution(path: Path, label: str) -> None:
    model, units = fixed_cnf(path, label)
    with Solver(name="cadical195", bootstrap_with=model.clauses) as s:
        assert s.solve(assumptions=units)


@pytest.mark.parametrize("path", UP_TO_8[:6], ids=lambda p: p.stem)
def test_black_count_refuses_one_black_cell_more(path: Path) -> None:
    inst = read_instance(path)
    lay = layout(inst)
    model = SatModel()
    black = {v: model.var(("black", v)) for v in lay.cells}
    black_count(model, lay, black)
    grid = solution(path)
    units = [black[v] if grid[v[0]][v[1]] == BLACK else -black[v] for v in lay.cells]
    with Solver(name="cadical195", bootstrap_with=model.clauses) as s:
        assert s.solve(assumptions=units)
        roots = {i.root for i in lay.islands}
        extra = next(v for v in lay.wall if grid[v[0]][v[1]] != BLACK and v not in roots)
        assert not s.solve(assumptions=[black[extra] if x == -black[extra] else x
                                        for x in units])


def asp_satisfiable(path: Path, label: str, blacks: int | None = None) -> bool:
    """Whether asp-reach's program with the solution's colours fixed has an answer set
    (``blacks``: the fact ``blacks(B)`` replaced by this total)."""
    inst = read_instance(path)
    model = get_formulation("nurikabe", label, ["asp"]).build(inst)
    facts = [f for f in model.facts if not (blacks is not None and f.startswith("blacks("))]
    if blacks is not None:
        facts.append(f"blacks({blacks}).")
    fixed = [f":- not val({r},{c},{'black' if v == BLACK else 'white'})."
             for r, row in enumerate(solution(path)) for c, v in enumerate(row)]
    ctl = clingo.Control(["--models=1"], logger=lambda _code, _msg: None)
    for program in model.programs:
        ctl.load(str(program))
    ctl.add("base", [], "\n".join([*facts, *fixed]))
    ctl.ground([("base", [])])
    return bool(ctl.solve().satisfiable)


@pytest.mark.parametrize("path", UP_TO_8, ids=lambda p: f"{p.parent.name}-{p.stem}")
def test_asp_black_count_keeps_the_solution(path: Path) -> None:
    assert asp_satisfiable(path, "asp-reach[blacks=count]")


def test_asp_black_count_refuses_a_wrong_total() -> None:
    path = SMALL[1]
    total = sum(row.count(BLACK) for row in solution(path))
    assert asp_satisfiable(path, "asp-reach[blacks=count]", blacks=total)
    assert not asp_satisfiable(path, "asp-reach[blacks=count]", blacks=total + 1)
    model = get_formulation("nurikabe", "asp-reach", ["asp"]).build(read_instance(path))
    assert not any(f.startswith("blacks(") for f in model.facts)  # off by default
