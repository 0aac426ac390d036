"""Decision levels the propagator is told of with nothing new: CaDiCaL 1.9.5 can notify
millions of levels in a row with no assignment, backtrack or clause in between (on the 50x50
of ``docs/results/2026-12-01-propagator-memory.md``, far more levels than the formula has
variables). Such a level joins the run of the level before (``on_new_level``): it takes no
memory of its own, and a backtrack into a run restores each level as it was."""

from __future__ import annotations

import tracemalloc
from pathlib import Path

from bench.instance import read_instance
from bench.registry import get_formulation
from formulations.nurikabe._propagator import NurikabePropagator

ROOT = Path(__file__).resolve().parents[2]
FEW = ROOT / "instances" / "nurikabe" / "few" / "gen-nurikabe-10x10-s1-cover70-0.txt"


def _root_fixpoint() -> tuple[NurikabePropagator, dict[tuple[int, int], int]]:
    """The propagator of the 10x10 at its root fixpoint (every inference assigned), and the
    cells' "black" variables."""
    model = get_formulation("nurikabe", "sat-propagate", ["sat"]).build(read_instance(FEW))
    prop = model.propagator
    while out := prop.propagate():
        for lit in out:
            prop.on_assignment(lit)
    return prop, model.handles["black"]


def test_empty_levels_take_no_memory_of_their_own() -> None:
    """20,000 levels opened with nothing assigned (each followed by a propagate that finds
    nothing, as CaDiCaL calls it) take under 1 byte each of Python heap (a copy of the
    per-island lists per level would take about 400 on this grid, a list slot per level 8),
    and a backtrack to the root leaves no level open."""
    prop, _ = _root_fixpoint()
    levels = 20_000
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for _ in range(levels):
            prop.on_new_level()
            assert prop.propagate() == []
        grown = tracemalloc.get_traced_memory()[0] - before
        prop.on_backtrack(0)
        freed = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert len(prop.islands) >= 5  # the per-island lists a copy per level would hold
    assert grown < levels, grown / levels
    assert freed < 1000
    assert prop.depth == 0 and prop.marks == [] and prop.snaps == []


def test_a_backtrack_through_shared_levels_restores_each_as_it_was() -> None:
    """Two empty levels share one run; an island's cell refused at the second, undone,
    then another refused at the first (changing the restored lists in place), undone: the
    root's searches and room are back, and the root fixpoint has nothing more to give."""
    prop, _ = _root_fixpoint()
    ball, room = list(prop.ball), list(prop.room)
    k = max(range(len(prop.islands)), key=lambda i: prop.room[i] - prop.islands[i].size)
    cells = [c for c, x in prop.islands[k].own.items()
             if prop.ball[k][0] >> c & 1 and not prop.val[x] and c != prop.islands[k].root]
    assert len(cells) >= 2
    prop.on_new_level()
    assert prop.propagate() == []
    prop.on_new_level()
    assert prop.depth == 2 and len(prop.snaps) == 1
    prop.on_assignment(-prop.islands[k].own[cells[0]])
    prop.propagate()
    prop.on_backtrack(1)
    assert prop.ball == ball and prop.room == room
    prop.on_assignment(-prop.islands[k].own[cells[-1]])
    prop.propagate()
    prop.on_backtrack(0)
    assert prop.ball == ball and prop.room == room
    assert prop.propagate() == []
