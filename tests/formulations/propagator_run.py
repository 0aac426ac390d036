"""Driving ``sat-propagate``'s propagator through a real CaDiCaL solve for the tests that
compare two versions of it: a propagator class swapped in, a scramble, a conflict budget, and a
record of what it handed the solver; and the harness's own solve of a formulation label, shared
by the propagator tests of every puzzle."""

from __future__ import annotations

import random
import time
from pathlib import Path

from pysat.solvers import Solver

from bench.backends import SolveOptions, get_backend
from bench.instance import Instance, read_instance
from bench.registry import get_formulation
from bench.solve import Solved, solve
from formulations.nurikabe._propagator import NurikabePropagator


def solve_label(puzzle: str, inst: Instance, label: str, solver: str = "cadical195",
                seed: int = 0, count: int | None = None) -> Solved:
    """The harness's solve of ``puzzle``'s SAT formulation ``label`` on ``inst`` with
    ``solver``, ``seed`` and ``count`` as ``puzzlebench solve`` passes them, 60 s to finish."""
    form = get_formulation(puzzle, label, ["sat"])
    return solve(inst, form, get_backend(solver), time.perf_counter() + 60, count=count,
                 options=SolveOptions(seed=seed))


def drive(path: Path, cls: type, conflicts: int, seed: int = 0,
          name: str = "sat-propagate") -> NurikabePropagator:
    """Build the formulation ``name`` (sat-propagate with parameters) for ``path`` with its
    propagator of class ``cls``, scrambled by ``seed`` (python-sat's CaDiCaL has no seed: the
    scramble negates variables), and run at most ``conflicts`` conflicts."""
    model = get_formulation("nurikabe", name, ["sat"]).build(read_instance(path))
    prop = model.propagator
    prop.__class__ = cls
    prop.skipped, prop.missed, prop.trace = 0, [], []
    sign = None
    if seed:
        rng = random.Random(seed)
        top = max(abs(x) for clause in model.clauses for x in clause)
        sign = [1] + [rng.choice((1, -1)) for _ in range(top)]
    with Solver(name="cadical195") as s:
        prop.connect(s, sign)
        for clause in model.clauses:
            s.add_clause([x * sign[abs(x)] for x in clause] if sign else clause)
        s.conf_budget(conflicts)
        s.solve_limited()
    return prop


class Traced(NurikabePropagator):
    """Keeps what every propagate handed the solver."""

    trace: list[tuple[int, ...]]

    def propagate(self) -> list[int]:
        out = super().propagate()
        self.trace.append(tuple(out))
        return out
