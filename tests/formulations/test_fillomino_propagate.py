"""sat-propagate for Fillomino (the sat-regions CNF, its cuts made inside CaDiCaL 1.9.5 by an
IPASIR-UP propagator): every solution of small grids found and nothing else, for thresholds that
make most regions BIG; every clause the propagator hands over falsified when handed over and
satisfied by every solution; instances solved uniquely and equal to their .sol files (seeded
scrambles too); a propagator that accepts every complete assignment answering a wrong grid; and
the refusal of solvers without IPASIR-UP."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pysat.solvers import Solver

from bench.backends.kinds import SatAssignment
from bench.grid import Cell
from bench.instance import Instance, read_instance
from bench.models import SatModel
from bench.puzzles import get_puzzle
from bench.puzzles.fillomino import encoding_sat as fillomino_sat
from bench.puzzles.fillomino.encoding import layout
from bench.registry import get_formulation
from bench.solve import Solved
from formulations.fillomino._propagator import FillominoPropagator
from tests.conftest import INSTANCES
from tests.formulations.propagator_run import solve_label
from tests.formulations.test_fillomino_regions import brute_force, instance

Grid = tuple[tuple[int, ...], ...]
SMALL = [INSTANCES / "fillomino" / "gen-fillomino-4x4-s1-0.txt",
         *(INSTANCES / "fillomino" / "generated" / f"gen-fillomino-{n}-0.txt"
           for n in ("6x6-s1", "6x6-s2", "6x6-s3", "10x10-s1", "10x10-s2", "12x12-s1"))]
VARIANTS = ["sat-propagate", "sat-propagate[infer=none]"]


class Recording(FillominoPropagator):
    """Keeps every clause it hands over with the assignment it was made on (the complete
    assignment of a check, or the partial one of a conflict), in model polarity."""

    given: list[tuple[list[int], dict[int, int]]]

    def check_model(self, model: list[int]) -> bool:
        ok = super().check_model(model)
        seen = {abs(x): 1 if x > 0 else -1 for x in (self._out(y) for y in model)}
        self.given.extend((c, seen) for c in self.pending)
        return ok

    def propagate(self) -> list[int]:
        before = len(self.pending)
        out = super().propagate()
        seen = {v: self.val[v] for v in range(len(self.val)) if self.val[v]}
        self.given.extend((c, seen) for c in self.pending[before:])
        return out


class Accepting(FillominoPropagator):
    """Broken on purpose: accepts every complete assignment."""

    def check_model(self, model: list[int]) -> bool:
        return True


def encode(inst: Instance, big: int, pieces: int) -> tuple[SatModel, fillomino_sat.Regions]:
    lay = layout(inst)
    named, codes = fillomino_sat.given_codes(lay, big)
    m = SatModel()
    reg = fillomino_sat.encode(m, inst.rows, inst.cols, codes, big, named, pieces,
                               given=frozenset(lay.given))
    return m, reg


def as_grid(reg: fillomino_sat.Regions, value: SatAssignment, inst: Instance) -> Grid:
    number = fillomino_sat.read(reg, value).number(reg)
    return tuple(tuple(number[r, c] for c in range(inst.cols)) for r in range(inst.rows))


def enumerate_all(inst: Instance, big: int, pieces: int, infer: bool,
                  record: list[tuple[list[int], dict[int, int]]]) -> set[Grid]:
    """Every solution through the propagator: solve, block the grid, again (one solver, the
    propagator connected throughout)."""
    m, reg = encode(inst, big, pieces)
    prop = Recording(reg, infer=infer)
    prop.given = record
    found: set[Grid] = set()
    with Solver(name="cadical195") as s:
        prop.connect(s)
        for c in m.clauses:
            s.add_clause(c)
        while s.solve():
            grid = as_grid(reg, SatAssignment.of_model(s.get_model()), inst)
            assert grid not in found
            found.add(grid)
            s.add_clause(fillomino_sat.block(reg, {(r, c): grid[r][c] for r in range(inst.rows)
                                                   for c in range(inst.cols)}))
    return found


def solution_values(reg: fillomino_sat.Regions, grid: Grid) -> dict[int, int]:
    """The encoding's variables in a solution (+1 / -1 per variable): each cell's code, and
    ``s`` true exactly between neighbours of one region (equal numbers)."""
    cells: dict[Cell, int] = {(r, c): n for r, row in enumerate(grid) for c, n in enumerate(row)}
    codes = fillomino_sat.grid_codes(reg, cells)
    out = {x: 1 if codes[v] == k else -1 for (v, k), x in reg.e.items()}
    out.update((x, 1 if cells[u] == cells[w] else -1) for u, w, x in reg.pairs)
    return out


TINY = [". . .\n. . .\n. . .", ". . . .\n. 3 . .", ". 2 .\n. . .\n4 . .", "1 . . 1\n. . . .",
        "3 . . .\n. . . .", ". . . 2\n3 . . .", ". . . .\n. . . ."]


@pytest.mark.parametrize("text", TINY)
@pytest.mark.parametrize(("big", "pieces"), [(1, 2), (2, 3), (8, 3)])
@pytest.mark.parametrize("infer", [True, False])
def test_the_propagator_finds_exactly_the_solutions(text: str, big: int, pieces: int,
                                                   infer: bool) -> None:
    """Against a brute-force enumeration of partitions; and every clause handed over is
    falsified by the assignment it was made on and satisfied by every solution."""
    inst = instance(text)
    record: list[tuple[list[int], dict[int, int]]] = []
    truth = brute_force(inst)
    assert enumerate_all(inst, big, pieces, infer, record) == truth
    _, reg = encode(inst, big, pieces)
    for clause, seen in record:
        assert all(seen.get(abs(x)) == (-1 if x > 0 else 1) for x in clause), clause
        for grid in truth:
            val = solution_values(reg, grid)
            assert any(val[abs(x)] == (1 if x > 0 else -1) for x in clause), (clause, grid)


def test_a_propagator_accepting_every_assignment_finds_non_solutions_on_a_tiny_grid() -> None:
    """With a threshold this low the CNF alone has models that are no solutions: the check
    above can fail."""
    inst = instance(TINY[-1])
    m, reg = encode(inst, 1, 2)
    found: set[Grid] = set()
    prop = Accepting(reg)
    with Solver(name="cadical195") as s:
        prop.connect(s)
        for c in m.clauses:
            s.add_clause(c)
        while s.solve():  # each model blocked as an assignment of e and s
            model = s.get_model()
            found.add(as_grid(reg, SatAssignment.of_model(model), inst))
            s.add_clause([-x for x in model if abs(x) in prop.observed])
    assert found - brute_force(inst)


def run(inst: Instance, label: str, solver: str = "cadical195", seed: int = 0,
        count: int | None = None) -> Solved:
    return solve_label("fillomino", inst, label, solver, seed, count)


@pytest.mark.parametrize("label", VARIANTS)
@pytest.mark.parametrize("path", SMALL, ids=lambda p: p.stem)
def test_instances_are_solved_uniquely_and_equal_their_solution_files(path: Path,
                                                                      label: str) -> None:
    res = run(read_instance(path), label, count=2)
    assert res.status == "solved", res.message
    assert res.grid == json.loads(path.with_suffix(".sol").read_text())
    assert res.count == 1
    assert res.stats.effort["propagator_calls"] > 0
    assert res.stats.effort["propagator_model_checks"] >= 1


@pytest.mark.parametrize("seed", [1, 3])
def test_a_seeded_scramble_reads_the_propagator_through_the_signs(seed: int) -> None:
    path = SMALL[4]
    res = run(read_instance(path), "sat-propagate", seed=seed)
    assert res.status == "solved", res.message
    assert res.grid == json.loads(path.with_suffix(".sol").read_text())


def test_the_quick_suite_instance_without_a_solution_file_is_solved_and_unique() -> None:
    res = run(read_instance(INSTANCES / "fillomino" / "fillomino-6x6-10a3b876.txt"),
              "sat-propagate", count=2)
    assert res.status == "solved" and res.count == 1, res.message


def test_a_propagator_accepting_every_assignment_answers_a_wrong_grid() -> None:
    """The CNF alone is not exact: the model check is what makes the answers right."""
    inst = read_instance(SMALL[4])
    form = get_formulation("fillomino", "sat-propagate", ["sat"])
    wrong = 0
    for cls in (Accepting, FillominoPropagator):
        model = form.build(inst)
        model.propagator.__class__ = cls
        with Solver(name="cadical195") as s:
            model.propagator.connect(s)
            for c in model.clauses:
                s.add_clause(c)
            assert s.solve()
            grid = form.decode(inst, model, SatAssignment.of_model(s.get_model()))
        problems = get_puzzle("fillomino").verify(inst, grid)
        wrong += bool(problems)
        assert bool(problems) == (cls is Accepting)
    assert wrong == 1


@pytest.mark.parametrize("solver", ["glucose4", "minisat22"])
def test_other_solvers_are_refused_with_a_reason(solver: str) -> None:
    res = run(read_instance(SMALL[0]), "sat-propagate", solver=solver)
    assert res.status == "skipped"
    assert "runs only on cadical195" in res.message and solver in res.message
