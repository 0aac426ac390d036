"""Decision levels the propagator sees open with nothing new: once every observed variable is
assigned, CaDiCaL decides the variables nobody observes (the CNF's auxiliary ones), one level
each, and each opens a level here with no assignment reported. Such a level shares the record
of the level before (``on_new_level``), so its memory stays a few list slots however many
there are, and a backtrack through shared records restores each level as it was."""

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


def test_empty_levels_cost_a_few_list_slots_each() -> None:
    """20,000 levels opened with nothing assigned (each followed by a propagate that finds
    nothing, as CaDiCaL calls it) take under 64 bytes each of Python heap (a copy of the
    per-island lists per level would take about 400 on this grid), and a backtrack to the
    root frees them."""
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
    assert grown < 64 * levels, grown / levels
    assert freed < 64 * 1000
    assert prop.marks == [] and prop.snaps == []


def test_a_backtrack_through_shared_levels_restores_each_as_it_was() -> None:
    """Two empty levels share one record; an island's cell refused at the second, undone,
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
    assert prop.snaps[0] is prop.snaps[1]
    prop.on_assignment(-prop.islands[k].own[cells[0]])
    prop.propagate()
    prop.on_backtrack(1)
    assert prop.ball == ball and prop.room == room
    prop.on_assignment(-prop.islands[k].own[cells[-1]])
    prop.propagate()
    prop.on_backtrack(0)
    assert prop.ball == ball and prop.room == room
    assert prop.propagate() == []
