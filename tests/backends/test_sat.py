"""The python-sat backend: a task's seed scrambles the model (python-sat's solvers take none); a
solver declared interruptible that python-sat cannot interrupt is unavailable, with the fix."""

from __future__ import annotations

import random
import time

import pytest
from pysat.solvers import Solver

from bench.backends import SolveOptions, backends_for, get_backend
from bench.backends.kinds import SatAssignment
from bench.backends.sat import SatBackend, Scramble
from bench.instance import read_instance
from bench.models import SatModel
from bench.registry import get_formulation
from bench.solve import solve
from tests.conftest import ROOT


def planted(seed: int, n: int = 60, m: int = 250) -> list[list[int]]:
    """A random 3-CNF over 1..n satisfied by a random assignment."""
    rng = random.Random(seed)
    truth = [rng.random() < 0.5 for _ in range(n + 1)]
    out: list[list[int]] = []
    while len(out) < m:
        c = [v if rng.random() < 0.5 else -v for v in rng.sample(range(1, n + 1), 3)]
        if any((x > 0) == truth[abs(x)] for x in c):
            out.append(c)
    return out


def satisfied(value, clauses) -> bool:
    return all(any(value(x) for x in c) for c in clauses)


def test_scramble_negates_variables_in_place_and_maps_a_model_back():
    cnf = planted(1)
    sc = Scramble(7, 60)
    scrambled = sc.clauses(cnf)
    flipped = {v for v in range(1, 61) if sc.sign[v] < 0}
    assert 0 < len(flipped) < 60  # some variables negated, not all
    # clause i is still clause i, over the same variables, with the flipped ones negated ...
    assert [sorted(x if abs(x) not in flipped else -x for x in c) for c in scrambled] == [
        sorted(c) for c in cnf]
    # ... and its literals in another order somewhere
    assert any([abs(x) for x in a] != [abs(x) for x in b]
               for a, b in zip(scrambled, cnf, strict=True))
    with Solver(name="minisat22", bootstrap_with=scrambled) as s:
        assert s.solve()
        model = SatAssignment.of_model(s.get_model())
        assert satisfied(sc.back(model), cnf) and not satisfied(model, cnf)
    # variables above the scrambled ones (later cuts' new variables) keep their sign
    v3 = 3 * sc.sign[3]
    assert sorted(sc.clauses([[61, -62, 3]])[0]) == sorted([61, -62, v3])


@pytest.mark.parametrize("solver", ["minisat22", "cadical195", "cadical300", "kissat404"])
def test_a_seeded_session_answers_for_the_original_variables_round_after_round(solver):
    m = SatModel()
    for _ in range(60):
        m.fresh()
    m.extend(planted(2))
    session = get_backend(solver).start(m, SolveOptions(seed=5))
    first = session.solve(10).value
    assert first is not None and satisfied(first, m.clauses)
    # a cut against this answer, then one with a new variable: fed renamed, answered back
    m.add([-x if first(x) else x for x in range(1, 11)])
    extra = m.fresh()
    m.add([extra])
    m.add([-extra, 1, 2])
    second = session.solve(10).value
    assert second is not None and satisfied(second, m.clauses)
    session.close()


def test_seeds_change_the_search_not_the_answer():
    """Seeds 0..3 of a lazy Nurikabe formulation on CaDiCaL: one checked grid, and CaDiCaL
    (deterministic for one input) searches differently (without the scramble it would count
    the same conflicts four times)."""
    inst = read_instance(ROOT / "instances/nurikabe/gen-nurikabe-20x20-s1-0.txt")
    form = get_formulation("nurikabe", "sat-hybrid")
    runs = [solve(inst, form, get_backend("cadical195"), time.perf_counter() + 60,
                  options=SolveOptions(seed=s)) for s in range(4)]
    assert [r.status for r in runs] == ["solved"] * 4
    assert all(r.grid == runs[0].grid for r in runs)
    assert len({r.stats.effort["conflicts"] for r in runs}) > 1


#: python-sat engines a timer can interrupt, and ones it refuses (NotImplementedError)
INTERRUPTIBLE = ("glucose3", "glucose4", "minisat22", "maplechrono", "maplesat")
UNINTERRUPTIBLE = ("cadical103", "cadical153", "cadical195", "cadical300", "kissat404",
                   "lingeling")


class DeclaredInterruptible(SatBackend):
    """A solver left at the default ``interruptible = True``, on the engine of the test."""

    name = "declared-interruptible"
    solver_version = "whichever"

    def __init__(self, pysat_name: str) -> None:
        self.pysat_name = pysat_name


@pytest.mark.parametrize("engine", UNINTERRUPTIBLE)
def test_a_solver_declared_interruptible_that_python_sat_cannot_interrupt_is_unavailable(engine):
    reason = DeclaredInterruptible(engine).available()
    assert reason is not None and "\n" not in reason
    assert engine in reason and "interruptible = False" in reason
    assert "DeclaredInterruptible" in reason  # the class to change
    fixed = DeclaredInterruptible(engine)
    fixed.interruptible = False
    assert fixed.available() is None


@pytest.mark.parametrize("interruptible", [True, False])
@pytest.mark.parametrize("engine", ["cryptosat", "minisatgh"])
def test_a_listed_engine_python_sat_cannot_start_is_unavailable(engine, interruptible):
    """python-sat lists these names, but this install cannot start them: unavailable whatever
    the declaration, with no advice to change it."""
    backend = DeclaredInterruptible(engine)
    backend.interruptible = interruptible
    reason = backend.available()
    assert reason is not None and f"python-sat cannot start {engine}" in reason
    assert "interruptible" not in reason


@pytest.mark.parametrize("engine", INTERRUPTIBLE)
def test_an_interruptible_engine_stays_available_and_stops_at_the_time_limit(engine):
    backend = DeclaredInterruptible(engine)
    assert backend.available() is None
    m = SatModel()
    for _ in range(60):
        m.fresh()
    m.extend(planted(3))
    session = backend.start(m, SolveOptions())
    out = session.solve(10)
    session.close()
    assert out.status == "sat" and satisfied(out.value, m.clauses)
    # 12 pigeons in 11 holes: far past 0.2 s for CDCL, so the timer's interrupt ends it
    holes = pigeonhole(12, 11)
    session = backend.start(holes, SolveOptions())
    out = session.solve(0.2)
    session.close()
    assert out.status == "timeout" and out.wall_s < 5


def pigeonhole(pigeons: int, holes: int) -> SatModel:
    """Each pigeon in some hole, no two in one: unsatisfiable when pigeons > holes."""
    m = SatModel()
    x = [[m.fresh() for _ in range(holes)] for _ in range(pigeons)]
    m.extend(x)
    m.extend([[-x[p][h], -x[q][h]] for h in range(holes)
              for p in range(pigeons) for q in range(p + 1, pigeons)])
    return m


def test_the_built_in_sat_solvers_declare_what_python_sat_can_interrupt():
    from bench.backends.sat import interrupt_refused

    assert {e: interrupt_refused(e) == "" for e in INTERRUPTIBLE + UNINTERRUPTIBLE} == {
        e: e in INTERRUPTIBLE for e in INTERRUPTIBLE + UNINTERRUPTIBLE}
    for b in backends_for("sat"):
        assert isinstance(b, SatBackend)
        assert b.interruptible == (interrupt_refused(b.pysat_name) == ""), b.name
        assert b.available() is None, b.name


def test_the_time_limit_counts_from_the_call_feeding_the_clauses_included():
    """The limit a session's solve is given is the time left for the whole call: a CNF whose
    clauses take longer to feed than the limit leaves MiniSat no time to search (it is
    interrupted before its first conflict), rather than a full limit after the feeding."""
    m = pigeonhole(12, 11)
    chain = [m.fresh() for _ in range(300_001)]
    m.extend([[-chain[i], chain[i + 1]] for i in range(300_000)])
    session = get_backend("minisat22").start(m, SolveOptions())
    t0 = time.perf_counter()
    out = session.solve(0.02)
    took = time.perf_counter() - t0
    session.close()
    assert out.status == "timeout"
    assert out.stats["conflicts"] == 0, (took, out.stats)
