"""Driving ``sat-propagate``'s propagator through a real CaDiCaL solve for the tests that
compare two versions of it: a propagator class swapped in, a scramble, a conflict budget, and a
record of what it handed the solver."""

from __future__ import annotations

import random
from pathlib import Path

from pysat.solvers import Solver

from bench.instance import read_instance
from bench.registry import get_formulation
from formulations.nurikabe._propagator import NurikabePropagator


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
