"""sat-propagate's incremental articulation step (``cut=incremental``,
:mod:`formulations.nurikabe._cutstep`): every cell it infers, checked during real CaDiCaL
solves when it is inferred, against the current assignment and a whole articulation search
run then; a deliberately broken step is caught by the same check; and the whole search keeps
every cut subtree with the step on (the subtrees with a black cell being exactly the old
separators)."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from formulations.nurikabe._propagator import NurikabePropagator
from formulations.nurikabe._wall import CutWhy, Why, dfs_graph, grid_table, separators
from tests.formulations.propagator_run import drive

ROOT = Path(__file__).resolve().parents[2]
FILES = [ROOT / "instances" / "nurikabe" / "few" / f"gen-nurikabe-10x10-s{s}-cover70-0.txt"
         for s in (1, 2)] + [ROOT / "instances" / "nurikabe" / "big" /
                             "gen-nurikabe-20x20-s2-big1-0.txt"]
STEP = "sat-propagate[cut=incremental]"


def separated(rows: int, cols: int, c: int, a: int, closed: set[int]) -> bool:
    """Whether every path of grid cells from ``c`` to ``a`` passes a cell of ``closed``."""
    seen, stack = {c}, [c]
    while stack:
        w = stack.pop()
        if w == a:
            return False
        r, q = divmod(w, cols)
        for rr, qq in ((r - 1, q), (r + 1, q), (r, q - 1), (r, q + 1)):
            u = rr * cols + qq
            if 0 <= rr < rows and 0 <= qq < cols and u not in seen and u not in closed:
                seen.add(u)
                stack.append(u)
    return True


class Checked(NurikabePropagator):
    """The propagator, checking each cell its step infers when it infers it: the reason's
    other literals are all false now, the cell is open, the reason's white cells and the
    cell cut the black cell off the anchor on the bare grid (so the clause holds in every
    solution), and a whole articulation search run now names the cell too."""

    checked = 0

    def _step(self, found: dict[int, Why]) -> None:
        before = set(found)
        super()._step(found)
        for x in found.keys() - before:
            why = found[x]
            assert isinstance(why, CutWhy)
            self._check(x, why)

    def _check(self, x: int, why: CutWhy) -> None:
        assert x > 0 and self.val[x] == 0 and self.col[why.p] == 0
        tail = self.tail(why)
        assert all(self.val[abs(y)] == (-1 if y > 0 else 1) for y in tail), tail
        a, c = self.cell_of[-tail[0]], self.cell_of[-tail[1]]
        closed = {why.p, *(self.cell_of[y] for y in tail[2:])}
        assert separated(self.rows, self.cols, c, a, closed), (why.p, c, a)
        ina = (self.lab == self.la) & (self.color >= 0)
        _, seps = separators(self.anchor, ina, self.color, self.tab, dfs_graph(len(self.col)))
        assert why.p in {p for p, *_ in seps}, why.p
        Checked.checked += 1


class Broken(Checked):
    """A step that forgets a subtree's end: any kept subtree starting at or before the new
    black cell's position is taken to hold it."""

    def _step(self, found: dict[int, Why]) -> None:
        sh = self.shadow
        if sh is not None:
            sh.subs = [(p, start, len(sh.order), b) for p, start, _, b in sh.subs]
        super()._step(found)


def run(cls: type, path: Path, seed: int, conflicts: int = 2000, label: str = STEP) -> Checked:
    prop = drive(path, cls, conflicts, seed, name=label)
    assert isinstance(prop, Checked)
    return prop


def test_every_stepped_inference_is_implied_and_a_whole_search_finds_it() -> None:
    """Three instances, two scrambles, with root literals reported and handed: each step
    inference passes :class:`Checked` (dozens are checked: most new black cells lie
    behind no open cut cell, or behind one the search inferred already)."""
    Checked.checked = 0
    for path in FILES:
        for seed in (0, 7):
            for label in (STEP, "sat-propagate[cut=incremental,root=handed]"):
                prop = run(Checked, path, seed, label=label)
                assert prop.tallies()["cut_steps"] > 0
    assert Checked.checked > 40


def test_a_broken_step_is_caught() -> None:
    """The same check fails on a step whose subtrees run to the end of the search's order."""
    Checked.checked = 0
    with pytest.raises(AssertionError):
        for path in FILES:
            for seed in (0, 7):
                run(Broken, path, seed)


def test_every_cut_subtree_is_kept_and_those_with_a_black_cell_are_the_separators() -> None:
    """``separators(..., every=True)`` on random grids: a superset of the plain call's
    tuples, the extra ones without a black cell (``b = -1``) and open parents, each a subtree
    whose cells no edge joins to a cell outside it but its parent."""
    rng = random.Random(3)
    extra = 0
    for _ in range(300):
        rows, cols = rng.randint(2, 14), rng.randint(2, 14)
        n = rows * cols
        color = np.array([-1 if rng.random() < 0.3 else (1 if rng.random() < 0.1 else 0)
                          for _ in range(n)], dtype=np.int8)
        dark = np.flatnonzero(color == 1)
        if len(dark) == 0:
            continue
        a, tab = int(dark[0]), grid_table(rows, cols)
        ina = color >= 0
        order, seps = separators(a, ina, color, tab)
        order2, every = separators(a, ina, color, tab, every=True)
        assert order.tolist() == order2.tolist()
        assert [s for s in every if s[3] >= 0] == seps
        for p, start, stop, b in every:
            inside = set(order[start:stop].tolist())
            assert color[p] == 0
            assert (b >= 0) == any(color[w] == 1 for w in inside)
            out = {int(u) for w in inside for u in tab[:, w] if ina[u]} - inside
            assert out <= {p}
            extra += b < 0
    assert extra > 100
