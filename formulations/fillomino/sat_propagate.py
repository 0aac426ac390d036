"""Fillomino as SAT with region sizes reasoned inside the solver: the CNF of ``sat-regions``
(:mod:`bench.puzzles.fillomino.encoding_sat`: same-region edge literals, one-hot numbers up to
``big`` plus the givens, one symbolic BIG number above, the eager piece clauses up to
``pieces`` cells), with the region-size cuts ``sat-regions`` adds after each model made inside
CaDiCaL 1.9.5 through IPASIR-UP instead (:mod:`formulations.fillomino._propagator`): every
complete assignment the solver finds is checked there and, with cuts, rejected together with
them as external clauses, so one solve call ends on a solution.

``infer=too-big`` (default) also reasons on partial assignments: a component of true ``s``
literals larger than the largest number one of its cells may still take is a conflict, its
clause the "too big" cut. ``infer=none`` only checks complete assignments (a lazy propagator:
the solver sends it no assignments).

Exact: every clause of the CNF and every clause of the propagator holds in every solution, and a
complete assignment passes the check only without cuts, which makes it a solution (the encoding's
argument). Only a solver with python-sat's IPASIR-UP interface runs it (``solvers``); counting
blocks solutions with plain clauses (the propagator stays connected). The propagator's effort
(callbacks, seconds in Python, clauses, model checks) is reported beside the solver's counters
(``propagator_*``).
"""

from __future__ import annotations

from typing import Any, ClassVar

from bench.instance import Instance
from bench.models import SatModel, Value
from bench.registry import formulation
from formulations.fillomino.sat_regions import SatRegions


@formulation
class SatPropagate(SatRegions):
    name = "sat-propagate"
    lazy = False
    description = ("the sat-regions CNF; wrong-size regions cut inside CaDiCaL 1.9.5 by an "
                   "IPASIR-UP propagator (complete assignments, and too-big components on "
                   "partial ones)")
    parameters: ClassVar[dict[str, list[Any]]] = {"big": [8, 16], "pieces": [3, 4],
                                                  "infer": ["too-big", "none"]}
    #: python-sat's IPASIR-UP solvers this was checked on
    solvers: ClassVar[tuple[str, ...]] = ("cadical195",)

    def build(self, inst: Instance) -> SatModel:
        """The CNF of ``sat-regions``, and the propagator over its region variables."""
        from formulations.fillomino._propagator import FillominoPropagator

        m = super().build(inst)
        m.propagator = FillominoPropagator(m.handles["regions"],
                                           infer=self.params["infer"] != "none")
        return m

    def separate(self, inst: Instance, model: SatModel, value: Value) -> int:
        """Nothing: the propagator rejected every assignment with cuts."""
        return 0
