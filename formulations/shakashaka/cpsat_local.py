"""Shakashaka in CP-SAT: the exact local characterisation of :mod:`._local` as Boolean
clauses over quarter literals, the number rule as a linear sum of triangle literals."""

from __future__ import annotations

from bench.instance import Instance
from bench.models import CpsatModel
from bench.registry import formulation
from formulations.shakashaka._cpsat import QuarterCpsat
from formulations.shakashaka._local import local_cnf


@formulation
class CpsatLocal(QuarterCpsat):
    name = "cpsat-local"
    description = "quarter Booleans, forbidden vertex wedges as bool_or, numbers as linear sums"

    def build(self, inst: Instance) -> CpsatModel:
        return self.quarters(inst, local_cnf(inst))[0]
