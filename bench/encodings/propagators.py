"""What every IPASIR-UP propagator of a SAT model (``SatModel.propagator``, connected by the
SAT backend's session, :class:`bench.backends.sat.SatSession`) shares: the connection to a
freshly built python-sat solver and the seeded scramble's literal mapping (the session may
negate variables, ``sign[v] == -1``, :class:`bench.backends.sat.Scramble`; a propagator
reasons over the model's literals and speaks the solver's). Here, not among the backends, so
that it enters the code digest of each formulation whose propagator uses it
(:mod:`bench.identity`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any


class Scrambled:
    """A mixin for a ``pysat.engines.Propagator``: the subclass has ``observed`` (the model
    variables it watches) and ``reset()`` (its state before a search)."""

    sign: list[int] | None = None
    observed: Sequence[int]

    def reset(self) -> None:  # the subclass's
        raise NotImplementedError

    def attach(self, solver: Any, sign: Sequence[int] | None,
               options: Mapping[str, int] | None = None) -> None:
        """Reset, set the solver's ``options`` (CaDiCaL option names and values), connect to
        ``solver`` (freshly built, before its clauses) and observe the watched variables;
        ``sign[v] == -1``: v is negated in the solver."""
        self.reset()
        self.sign = None if sign is None else list(sign)
        if options:
            solver.configure(dict(options))
        solver.connect_propagator(self)
        for x in self.observed:
            solver.observe(x)

    def _out(self, lit: int) -> int:
        """A model literal as the solver sees it (and back: the sign is an involution)."""
        s = self.sign
        if s is not None:
            v = lit if lit > 0 else -lit
            if v < len(s):
                return lit * s[v]
        return lit
