"""Literals the propagator hands CaDiCaL at the root (decision level 0): CaDiCaL 1.9.5 takes
such a literal as fixed, or ignores it when it is fixed already, and in both cases need not
report it back through ``on_assignment``. The propagator therefore records each one itself as
a fixed assignment when it hands it over, so that its own reasoning sees it and no later search
finds it again as new."""

from __future__ import annotations

from pathlib import Path

from tests.formulations.propagator_run import Traced, drive

ROOT = Path(__file__).resolve().parents[2]
#: a 20x20 whose first root-level propagation hands over literals CaDiCaL never reports back
BIG = ROOT / "instances" / "nurikabe" / "big" / "gen-nurikabe-20x20-s2-big1-0.txt"


class AtRoot(Traced):
    """Keeps the literals handed over while no decision level was open."""

    root: list[int]

    def propagate(self) -> list[int]:
        level = len(self.marks)
        out = super().propagate()
        if not level:
            self.root.extend(out)
        return out


def test_every_literal_handed_at_the_root_stays_assigned_and_fixed() -> None:
    """After a solve of 300 conflicts (restarts back to the root included), every literal
    handed over at the root is assigned in the propagator's view, with the handed polarity,
    and fixed (so no backtrack undoes it): CaDiCaL reported only some of them back."""
    for seed in (0, 7):
        AtRoot.root = []
        prop = drive(BIG, AtRoot, 300, seed)
        handed = [prop._out(x) for x in AtRoot.root]  # model polarity
        assert len(handed) >= 5, seed
        for lit in handed:
            var = abs(lit)
            assert prop.val[var] == (1 if lit > 0 else -1), (seed, lit)
            assert prop.fixed[var], (seed, lit)


def test_a_root_literal_is_not_handed_over_twice() -> None:
    """Every propagate at the root hands over only literals not handed at the root before:
    one the solver holds already is never found again as new."""
    for seed in (0, 7):
        AtRoot.root = []
        drive(BIG, AtRoot, 300, seed)
        assert len(AtRoot.root) == len(set(AtRoot.root)), seed
