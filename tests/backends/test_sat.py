"""The python-sat backend: a task's seed scrambles the model (python-sat's solvers take none)."""

from __future__ import annotations

import random
import time

import pytest
from pysat.solvers import Solver

from bench.backends import SolveOptions, get_backend
from bench.backends.kinds import SatAssignment
from bench.backends.sat import Scramble
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
