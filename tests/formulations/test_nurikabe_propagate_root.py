"""Literals the propagator hands CaDiCaL at the root (decision level 0): CaDiCaL 1.9.5 takes
such a literal as fixed, or ignores it when it holds it fixed already, and need not report it
back through ``on_assignment``. With ``root=handed`` the propagator records each one itself as a
fixed assignment when it hands it over, so that its own reasoning sees it and no later search
finds it again as new; ``root=reported`` (the default) waits for the report."""

from __future__ import annotations

from pathlib import Path

from formulations.nurikabe._propagator import NurikabePropagator
from tests.formulations.propagator_run import Traced, drive

ROOT = Path(__file__).resolve().parents[2]
#: a 20x20 whose first root-level propagation hands over literals CaDiCaL never reports back
BIG = ROOT / "instances" / "nurikabe" / "big" / "gen-nurikabe-20x20-s2-big1-0.txt"
HANDED = "sat-propagate[root=handed]"


class AtRoot(Traced):
    """Keeps the literals handed over while no decision level was open."""

    root_handed: list[int]

    def propagate(self) -> list[int]:
        level = self.depth
        out = super().propagate()
        if not level:
            self.root_handed.extend(out)
        return out


def _open(prop: NurikabePropagator) -> list[int]:
    """The literals handed over at the root that the propagator holds open (model polarity)."""
    return [lit for lit in (prop._out(x) for x in AtRoot.root_handed) if not prop.val[abs(lit)]]


def test_every_literal_handed_at_the_root_stays_assigned_and_fixed() -> None:
    """``root=handed``: after a solve of 300 conflicts (restarts back to the root included),
    every literal handed over at the root is assigned in the propagator's view, with the
    handed polarity, and fixed (so no backtrack undoes it)."""
    for seed in (0, 7):
        AtRoot.root_handed = []
        prop = drive(BIG, AtRoot, 300, seed, HANDED)
        assert len(AtRoot.root_handed) >= 5, seed
        for lit in (prop._out(x) for x in AtRoot.root_handed):
            assert prop.val[abs(lit)] == (1 if lit > 0 else -1), (seed, lit)
            assert prop.fixed[abs(lit)], (seed, lit)


def test_cadical_leaves_some_root_literals_unreported() -> None:
    """``root=reported``: CaDiCaL reports only some of the literals handed over at the root,
    so the others stay open to the propagator (the behaviour ``root=handed`` makes up for)."""
    for seed in (0, 7):
        AtRoot.root_handed = []
        prop = drive(BIG, AtRoot, 300, seed)
        assert 0 < len(_open(prop)) < len(AtRoot.root_handed), seed


def test_a_root_literal_is_not_handed_over_twice() -> None:
    """``root=handed``: every propagate at the root hands over only literals not handed at
    the root before: one the solver holds already is never found again as new."""
    for seed in (0, 7):
        AtRoot.root_handed = []
        drive(BIG, AtRoot, 300, seed, HANDED)
        assert len(AtRoot.root_handed) == len(set(AtRoot.root_handed)), seed
