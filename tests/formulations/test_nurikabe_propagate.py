"""sat-propagate (wall connectivity and island reachability as an IPASIR-UP propagator in
CaDiCaL 1.9.5): small instances solved and equal to their .sol files, seeded scrambles, the
refusal of other solvers, the model check's clause when propagation is off, and every reason
and clause the propagator gives being implied by the puzzle.

Exactness on tiny random grids and the seeds is in test_nurikabe_sat.py (it takes every SAT
formulation on cadical195)."""

from __future__ import annotations

import json
import random
import time
from pathlib import Path

import pytest
from pysat.solvers import Solver

from bench.backends import SolveOptions, get_backend
from bench.backends.kinds import SatAssignment
from bench.check import check_variant
from bench.instance import Instance, read_instance
from bench.models import SatModel
from bench.puzzles import get_puzzle
from bench.registry import get_formulation
from bench.solve import Solved, solve
from formulations.nurikabe._propagator import NurikabePropagator

ROOT = Path(__file__).resolve().parents[2]
SMALL = [ROOT / "instances" / "nurikabe" / name for name in
         ("gen-nurikabe-7x7-s1-0.txt", "seed-p03.txt", "seed-p04.txt",
          "gen-nurikabe-10x10-s1-0.txt")]
VARIANTS = ["sat-propagate", "sat-propagate[islands=layers]"]
#: two clues covering 70 % of a 10x10: the propagator's search does most of the work
FEW = ROOT / "instances" / "nurikabe" / "few" / "gen-nurikabe-10x10-s1-cover70-0.txt"


def solution(path: Path) -> list[list[str]]:
    return list(json.loads(path.with_suffix(".sol").read_text()))


def run(inst: Instance, label: str, solver: str = "cadical195", seed: int = 0,
        count: int | None = None) -> Solved:
    form = get_formulation("nurikabe", label, ["sat"])
    return solve(inst, form, get_backend(solver), time.perf_counter() + 60, count=count,
                 options=SolveOptions(seed=seed))


@pytest.mark.parametrize("label", VARIANTS)
@pytest.mark.parametrize("path", SMALL, ids=lambda p: p.stem)
def test_small_instances_equal_their_solution_files(path: Path, label: str) -> None:
    res = run(read_instance(path), label, count=2)
    assert res.status == "solved", res.message
    assert res.grid == solution(path)
    assert res.count == 1  # unique: counting blocks with plain clauses beside the propagator
    assert res.stats.effort["propagator_calls"] > 0
    assert res.stats.effort["propagator_s"] > 0


def test_a_seeded_scramble_reads_the_propagator_through_the_signs() -> None:
    """Seed 3 negates about half the variables inside the solver; the propagator maps them."""
    path = SMALL[1]
    res = run(read_instance(path), "sat-propagate", seed=3)
    assert res.status == "solved", res.message
    assert res.grid == solution(path)


@pytest.mark.parametrize("solver", ["glucose4", "minisat22"])
def test_other_solvers_are_refused_with_a_reason(solver: str) -> None:
    res = run(read_instance(SMALL[0]), "sat-propagate", solver=solver)
    assert res.status == "skipped"
    assert "runs only on cadical195" in res.message and solver in res.message


def test_check_skips_other_solvers_with_the_reason() -> None:
    form = get_formulation("nurikabe", "sat-propagate", ["sat"])
    checks = list(check_variant(form, get_backend("glucose4"), 30))
    assert [(c.name, c.status) for c in checks] == [("solver", "skip")]
    assert checks[0].detail == "runs only on cadical195, not glucose4"


def test_a_backend_without_ipasir_up_does_not_drop_the_propagator() -> None:
    """Asked directly, a solver without the interface raises rather than solve without it."""
    form = get_formulation("nurikabe", "sat-propagate", ["sat"])
    model = form.build(read_instance(SMALL[0]))
    session = get_backend("glucose4").start(model, SolveOptions())
    with pytest.raises(ValueError, match="IPASIR-UP"):
        session.solve(30)
    session.close()


# --- what the clauses say ------------------------------------------------------------------------

def eager(inst: Instance) -> SatModel:
    """The fully eager exact CNF (sat-tree): black and ownership variables of the same names."""
    return get_formulation("nurikabe", "sat-tree", ["sat"]).build(inst)


def implied(clause: list[int], model: SatModel, full: SatModel) -> bool:
    """Whether every solution satisfies ``clause`` (over ``model``'s variables): the eager
    exact CNF with the clause negated has no model."""
    names = full.pool.obj2id
    units = []
    for lit in clause:
        key = model.pool.obj(abs(lit))
        assert key in names, key
        units.append([names[key] if lit > 0 else -names[key]])
    with Solver(name="glucose4", bootstrap_with=full.clauses + units) as s:
        return s.solve() is False


class Recording(NurikabePropagator):
    """Keeps every reason and clause it hands the solver, and the reason of every literal it
    infers, asked or not (seed 0: model polarity)."""

    given: list[list[int]]

    def propagate(self) -> list[int]:
        out = super().propagate()
        self.given.extend(self.explain(lit) for lit in out)
        return out

    def provide_reason(self, lit: int) -> list[int]:
        reason = super().provide_reason(lit)
        self.given.append(reason)
        return reason

    def add_clause(self) -> list[int]:
        clause = super().add_clause()
        self.given.append(clause)
        return clause


def test_every_reason_and_clause_is_implied_by_the_puzzle() -> None:
    """On a 7x7 (solved, then shown unique) and a few-clue 10x10 (2,000 conflicts of search),
    the reason of every inference (60 drawn per instance) and every clause the propagator adds
    holds the literal it explains and is implied by the puzzle's rules."""
    rnd = random.Random(5)
    checked = 0
    for path, budget in ((SMALL[0], None), (FEW, 2000)):
        inst = read_instance(path)
        form = get_formulation("nurikabe", "sat-propagate", ["sat"])
        model = form.build(inst)
        prop = model.propagator
        prop.__class__ = Recording
        prop.given = []
        with Solver(name="cadical195") as s:
            prop.connect(s)
            for clause in model.clauses:
                s.add_clause(clause)
            if budget is None:
                assert s.solve()
                found = SatAssignment.of_model(s.get_model())
                form.block(inst, model, form.decode(inst, model, found))
                s.add_clause(model.clauses[-1])
                assert not s.solve()
            else:
                s.conf_budget(budget)
                s.solve_limited()
        given = sorted({tuple(c) for c in prop.given})
        assert given, "the propagator inferred nothing"
        full = eager(inst)
        for clause in rnd.sample(given, 60) if len(given) > 60 else given:
            assert implied(list(clause), model, full), clause
            checked += 1
    assert checked >= 50


# --- the model check -----------------------------------------------------------------------------

#: a 6x5 with solutions, whose island sizes and no-2x2 rule a split wall also satisfies: the 5
#: across the middle row cuts the wall in two
SPLIT = ("puzzle: nurikabe\nsource: test\n\n. 1 . 1 .\n. . . . .\n5 . . . .\n. . . . .\n"
         ". 1 . 1 .\n. . . . .\n")


def test_the_model_check_rejects_a_split_wall_with_an_implied_clause(tmp_path: Path) -> None:
    path = tmp_path / "split.txt"
    path.write_text(SPLIT)
    inst = read_instance(path)
    form = get_formulation("nurikabe", "sat-propagate", ["sat"])
    model = form.build(inst)
    black = model.handles["black"]
    whites = {(2, c) for c in range(5)} | {(0, 1), (0, 3), (4, 1), (4, 3)}
    grid = [["." if (r, c) in whites else "#" for c in range(5)] for r in range(6)]
    problems = get_puzzle("nurikabe").verify(inst, grid)
    assert problems == ["black cells form 2 separate groups (starting at (0,0), (3,0))"]
    assignment = [-x if v in whites else x for v, x in black.items()]
    clause = model.propagator.violated(assignment)
    assert clause is not None
    true = set(assignment)
    assert all(-lit in true for lit in clause)  # the assignment falsifies it
    assert implied(clause, model, eager(inst))
    answer = run(inst, "sat-propagate").grid
    assert answer is not None
    right = [x if answer[v[0]][v[1]] == "#" else -x for v, x in black.items()]
    assert model.propagator.violated(right) is None  # a solution passes


def test_check_only_still_answers_right_through_rejected_models(tmp_path: Path) -> None:
    """With inference off the search offers models whose wall or islands break the rules;
    check_model rejects each with a clause and the final answer is a solution."""
    rejected = 0
    for path in SMALL[:3]:
        inst = read_instance(path)
        form = get_formulation("nurikabe", "sat-propagate", ["sat"])
        model = form.build(inst)
        model.propagator.infer = False
        session = get_backend("cadical195").start(model, SolveOptions())
        out = session.solve(60)
        session.close()
        assert out.status == "sat" and out.value is not None
        assert form.decode(inst, model, out.value) == solution(path)
        assert out.stats["propagator_inferences"] == 0
        rejected += int(out.stats["propagator_model_rejections"])
    assert rejected > 0


def test_a_result_keeps_the_propagators_counters() -> None:
    # the propagator's effort reaches the results table: callbacks, seconds in them, inferred
    # literals, added clauses; a formulation without a propagator leaves them empty
    from bench.records import Task
    from bench.run.execute import execute

    few = execute(Task(str(FEW), "sat-propagate", "cadical195", 60.0, 8192, 0, 1, 0))
    assert few.status == "solved" and few.checked
    assert few.propagator_calls and few.propagator_calls > 0
    assert few.propagator_inferences and few.propagator_inferences > 0
    assert few.propagator_s is not None and 0 < few.propagator_s <= few.solve_s
    assert few.propagator_clauses is not None
    plain = execute(Task(str(SMALL[1]), "sat-hybrid", "cadical195", 60.0, 8192, 0, 1, 0))
    assert plain.status == "solved" and plain.propagator_calls is None
