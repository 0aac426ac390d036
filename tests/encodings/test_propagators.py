"""The propagators' shared part (bench/encodings/propagators.py): a model literal maps to the
solver's through the seeded scramble's signs and back, ``attach`` connects a real
CaDiCaL 1.9.5 so that its complete models reach ``check_model`` in the solver's literals, and
a solver that presents one rejected assignment again and again ends the solve."""

from __future__ import annotations

import pytest
from pysat.engines import Propagator
from pysat.solvers import Solver

from bench.encodings.propagators import LOOP, CheckLoop, Scrambled


class Watch(Scrambled, Propagator):
    """Rejects every model in which model variable 1 is true (a clause handed over)."""

    def __init__(self) -> None:
        super().__init__()
        self.observed = [1, 2]
        self.models: list[list[int]] = []
        self.pending: list[int] = []

    def reset(self) -> None:
        self.models, self.pending = [], []

    def on_assignment(self, lit: int, fixed: bool = False) -> None:
        pass

    def on_new_level(self) -> None:
        pass

    def on_backtrack(self, to: int) -> None:
        pass

    def decide(self) -> int:
        return 0

    def propagate(self) -> list[int]:
        return []

    def provide_reason(self, lit: int) -> list[int]:
        return []

    def check_model(self, model: list[int]) -> bool:
        ours = [self._out(x) for x in model]  # back to the model's literals
        self.models.append(ours)
        if 1 in ours:
            self.pending = [self._out(-1)]
            return False
        return True

    def has_clause(self) -> bool:
        return bool(self.pending)

    def add_clause(self) -> list[int]:
        clause, self.pending = self.pending, []
        return clause


def test_the_signs_map_literals_both_ways_and_leave_unscrambled_ones():
    p = Watch()
    p.sign = [0, -1, 1]
    assert [p._out(x) for x in (1, -1, 2, -2, 3)] == [-1, 1, 2, -2, 3]
    assert all(p._out(p._out(x)) == x for x in (1, -1, 2, -2))
    p.sign = None
    assert p._out(-1) == -1


def test_attach_connects_and_a_scrambled_solver_still_refuses_what_the_propagator_refuses():
    """The solver sees variable 1 negated; a model "1 or 2" where the propagator refuses 1
    ends with 1 false and 2 true, in the model's literals."""
    for sign in (None, [0, -1, 1]):
        p = Watch()
        with Solver(name="cadical195") as s:
            p.attach(s, sign, {"chrono": 0})
            assert p.sign == sign and (sign is None or p.sign is not sign)  # a copy
            s.add_clause([p._out(1), p._out(2)])
            assert s.solve()
            raw = s.get_model()[:2]
            model = [p._out(x) for x in raw]
        assert -1 in model and 2 in model, (sign, model)
        assert (1 if sign else -1) in raw  # scrambled: the solver's 1 is the model's -1
        assert p.models and 2 in p.models[-1]


class Satisfied(Watch):
    """Rejects every model in which variable 1 is true, handing over a clause the model
    satisfies: the solver's final check changes nothing on its trail and asks again."""

    def check_model(self, model: list[int]) -> bool:
        self.models.append(list(model))
        if 1 in model:
            self.pending = [2]
            self.note_rejected(model)
            return False
        return True


@pytest.mark.parametrize("solver", ["cadical195", "cadical300"])
def test_a_solver_that_presents_one_rejected_assignment_again_ends_the_solve(solver: str):
    """Without the guard the solve never returns (CaDiCaL's final check loops)."""
    p = Satisfied()
    with Solver(name=solver) as s:
        p.attach(s, None, {"chrono": 0})
        s.add_clause([1])
        s.add_clause([2])
        with pytest.raises(CheckLoop, match="rejected assignment"):
            s.solve()
    assert len(p.models) == LOOP and all(m == p.models[0] for m in p.models)


def test_the_loop_count_is_of_one_assignment_in_a_row_and_starts_again_on_attach_or_accept():
    p = Watch()
    for _ in range(3):
        for _ in range(LOOP - 1):
            p.note_rejected([1, 2])
        p.note_rejected([1, -2])  # another assignment: the count starts again
    for _ in range(LOOP - 2):
        p.note_rejected([1, -2])  # LOOP - 1 in a row
    with Solver(name="cadical195") as s:
        p.attach(s, None)
    for _ in range(LOOP - 1):
        p.note_rejected([1, -2])
    p.note_accepted()  # an accepted assignment between: the count starts again
    for _ in range(LOOP - 1):
        p.note_rejected([1, -2])
    with pytest.raises(CheckLoop):
        p.note_rejected([1, -2])
