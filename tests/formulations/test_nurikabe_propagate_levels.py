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


#: bookkeeping and counters, not the derived state a backtrack restores
_NOT_STATE = {"calls", "seconds", "restores", "reasons", "checks", "clauses", "cuts",
              "dropped", "inferences", "lates", "rejections", "relabels", "steps",
              "marks", "snaps", "starts", "sent_marks", "depth", "same", "cut_owed",
              "graph", "bits",
              "close_dirty"}  # islands to look at again: a backtrack may add (never drop) some


def _state(prop: NurikabePropagator) -> dict[str, object]:
    import copy

    import numpy as np

    out: dict[str, object] = {}
    for k, v in vars(prop).items():
        if k in _NOT_STATE or callable(v):
            continue
        out[k] = v.tolist() if isinstance(v, np.ndarray) else copy.deepcopy(v)
    return out


def test_backtracks_into_and_between_runs_restore_the_whole_state_of_their_level() -> None:
    """Levels 1-2 empty (one run), level 3 opened empty but then assigned (the run must end
    there), levels 4-5 empty (a new run), an assignment at 5: backtracks to 4, 3, 2 (the
    middle of the first run), a replay of level 3, 1, an assignment with no propagate before
    the next level, and 0 each give back the whole derived state the level had, as a deep
    copy taken when the next level opened shows."""
    prop, _ = _root_fixpoint()
    k = max(range(len(prop.islands)), key=lambda i: prop.room[i] - prop.islands[i].size)
    cells = [c for c, x in prop.islands[k].own.items()
             if prop.ball[k][0] >> c & 1 and not prop.val[x] and c != prop.islands[k].root]
    assert len(cells) >= 2
    seen = {0: _state(prop)}

    def level(n: int, lit: int | None = None, propagate: bool = True) -> None:
        prop.on_new_level()
        if lit is not None:
            prop.on_assignment(lit)
        while propagate and (out := prop.propagate()):
            for x in out:
                prop.on_assignment(x)
        seen[n] = _state(prop)

    def back(to: int) -> None:
        prop.on_backtrack(to)
        assert prop.depth == to
        assert _state(prop) == seen[to], [k for k, v in _state(prop).items() if v != seen[to][k]]

    level(1)
    level(2)
    level(3, -prop.islands[k].own[cells[0]])
    level(4)
    level(5, -prop.islands[k].own[cells[-1]])
    assert seen[3] != seen[2] and seen[5] != seen[4]  # the assignments changed the state
    back(4)
    back(3)
    back(2)
    level(3, -prop.islands[k].own[cells[0]])
    back(1)
    # an assignment the solver notifies before the next level, with no propagate between
    level(2, -prop.islands[k].own[cells[-1]], propagate=False)
    level(3)
    back(2)
    back(0)
