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

#: how many times in a row the solver may present one rejected assignment before
#: :meth:`Scrambled.note_rejected` gives up (a search that honours the clause never shows it
#: again)
LOOP = 100


class CheckLoop(RuntimeError):
    """The solver presented one complete assignment for checking again and again after it was
    rejected: the solver does not act on the clause handed over, and its search would go on
    asking forever. CaDiCaL's final model check (``external_check_solution``) asks again
    whenever an added clause changes nothing on its trail: when the clause does not cut the
    assignment off (a propagator's defect), or when the assignment it checks (the model
    extended from its reconstruction stack) is not its trail. The second was seen with CaDiCaL
    1.9.5 on large Nurikabe instances (the same check again, with no level, backtrack or
    assignment between), not with CaDiCaL 3.0."""


class Scrambled:
    """A mixin for a ``pysat.engines.Propagator``: the subclass has ``observed`` (the model
    variables it watches) and ``reset()`` (its state before a search)."""

    sign: list[int] | None = None
    observed: Sequence[int]
    _refused: int | None = None  # the hash of the last rejected assignment
    _again = 0  # how many times in a row it was presented

    def reset(self) -> None:  # the subclass's
        raise NotImplementedError

    def attach(self, solver: Any, sign: Sequence[int] | None,
               options: Mapping[str, int] | None = None) -> None:
        """Reset, set the solver's ``options`` (CaDiCaL option names and values), connect to
        ``solver`` (freshly built, before its clauses) and observe the watched variables;
        ``sign[v] == -1``: v is negated in the solver."""
        self.reset()
        self._refused, self._again = None, 0
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

    def note_accepted(self) -> None:
        """Record that ``check_model`` accepts an assignment: a rejected one presented next
        starts a new count."""
        self._refused, self._again = None, 0

    def note_rejected(self, model: Sequence[int]) -> None:
        """Record that ``check_model`` rejects ``model`` (the solver's literals); raise
        :class:`CheckLoop` when the same assignment was presented :data:`LOOP` times in a row
        (the clause handed over with each rejection falsifies it, so a solver that acts on
        the clause cannot present it again; a clause it forgot would take many searches to
        lead back)."""
        key = hash(tuple(model))
        self._again = self._again + 1 if key == self._refused else 1
        self._refused = key
        if self._again >= LOOP:
            raise CheckLoop(f"the solver presented one rejected assignment {LOOP} times in a row "
                            "without acting on the clause given (CaDiCaL's final model check "
                            "loops when a clause changes nothing on its trail): no answer")
