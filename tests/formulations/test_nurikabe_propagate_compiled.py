"""The compiled wall searches of :mod:`formulations.nurikabe._compiled` against brute force and
against the numpy/scipy versions they stand in for: the articulation search's separators are
exactly the open cells whose removal cuts a black cell off the anchor, each with the cells it
cuts off, and its visiting order and rows are those of the whole-array version, on random
grids, corridors and spirals."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from typing import Any

import numpy as np
import pytest

from formulations.nurikabe import _compiled
from formulations.nurikabe._wall import dfs_graph, grid_table, separators, separators_scipy
from tests.conftest import ROOT
from tests.formulations.test_nurikabe_blockcut import _component, _grids

pytestmark = pytest.mark.skipif(not _compiled.available(), reason="numba is not installed")


def _reached(rows: int, cols: int, ina: Any, a: int, gone: int) -> set[int]:
    """The cells of ``ina`` reached from ``a`` without passing through ``gone``."""
    color = [0 if x and i != gone else -1 for i, x in enumerate(ina)]
    return {int(i) for i in np.flatnonzero(_component(rows, cols, color, a))}


def _cases() -> list[tuple[int, int, list[int], int, Any]]:
    rng = random.Random(11)
    out = []
    for rows, cols, color in _grids(rng):
        dark = [i for i, x in enumerate(color) if x == 1]
        if dark:
            a = rng.choice(dark)
            out.append((rows, cols, color, a, _component(rows, cols, color, a)))
    return out


def test_separators_are_the_cells_whose_removal_cuts_off_a_black_cell() -> None:
    """Brute force per open cell p of the component: p is listed iff removing it leaves a
    black cell unreached from the anchor, and p's subtrees (every=True: all of them) are
    exactly the cells removing p cuts off; each row's black cell is black and in its subtree,
    the first of it in visiting order."""
    checked = hits = 0
    for rows, cols, color, a, ina in _cases():
        tone, tab = np.array(color, dtype=np.int8), grid_table(rows, cols)
        order, seps = separators(a, ina, tone, tab)
        _, every = separators(a, ina, tone, tab, every=True)
        cells = order.tolist()
        assert sorted(cells) == sorted(np.flatnonzero(ina).tolist())
        named = {p for p, *_ in seps}
        for p in cells[1:]:
            if color[p] != 0:
                continue
            gone = set(cells) - _reached(rows, cols, ina, a, p) - {p}
            assert (p in named) == any(color[u] == 1 for u in gone), (rows, cols, p)
            subtrees = [set(cells[s:e]) for q, s, e, _ in every if q == p]
            assert set().union(*subtrees) == gone, (rows, cols, p)
            checked += 1
        for _, start, stop, b in seps:
            blacks = [u for u in cells[start:stop] if color[u] == 1]
            assert blacks and b == blacks[0]
        for _, start, stop, b in every:
            blacks = [u for u in cells[start:stop] if color[u] == 1]
            assert b == (blacks[0] if blacks else -1)
        hits += len(seps)
    assert checked > 5000 and hits > 500


def test_compiled_search_equals_the_whole_array_search() -> None:
    """The same visiting order and the same rows, in the same order, with and without the cut
    subtrees that hold no black cell."""
    for rows, cols, color, a, ina in _cases():
        tone, tab = np.array(color, dtype=np.int8), grid_table(rows, cols)
        for every in (False, True):
            order, seps = separators(a, ina, tone, tab, every=every)
            ref_order, ref = separators_scipy(a, ina, tone, tab, dfs_graph(rows * cols), every)
            assert order.tolist() == ref_order.tolist()
            assert seps == ref, (rows, cols, every)


def test_labelling_numbers_components_as_scipy_does() -> None:
    """The same labels, numbered the same, as ``scipy.ndimage.label`` with 4-connectivity."""
    from scipy import ndimage

    from formulations.nurikabe._wall import CROSS

    rng = random.Random(3)
    for rows, cols, color in _grids(rng):
        tone = np.array(color, dtype=np.int8)
        lab, count = _compiled.label(tone, rows, cols)
        ref, ref_count = ndimage.label((tone >= 0).reshape(rows, cols), CROSS)
        assert count == ref_count and lab.tolist() == ref.ravel().tolist(), (rows, cols)


class _State:
    """What :meth:`WallReasoning._joined` reads, for a grid with a cell just turned white."""

    def __init__(self, rows: int, cols: int, color: list[int], c: int) -> None:
        from formulations.nurikabe._wall import WallReasoning

        n = rows * cols
        before = np.array(color, dtype=np.int8)
        before[c] = 0
        lab, _ = _compiled.label(before, rows, cols)
        self.wall = WallReasoning()
        w = self.wall
        w.col = list(color)
        w.color = np.array(color, dtype=np.int8)
        w.lab, w.labl, w.la = lab, lab.tolist(), int(lab[c])
        w.tab = grid_table(rows, cols)
        w.nbrs = [[u for u in (i - cols if i >= cols else -1, i + cols if i + cols < n else -1,
                               i - 1 if i % cols else -1, i + 1 if (i + 1) % cols else -1)
                   if u >= 0] for i in range(n)]


def test_compiled_detour_search_equals_the_python_one() -> None:
    """For a random cell turned white on random grids: the compiled search answers as the
    Python one (both give up after the same cells), and a True is a true detour."""
    rng = random.Random(7)
    seen = {True: 0, False: 0}
    for rows, cols, color in _grids(rng):
        for _ in range(5):
            c = rng.randrange(rows * cols)
            grid = list(color)
            grid[c] = -1
            w = _State(rows, cols, grid, c).wall
            got = w._joined(c)
            assert got == w._joined_py(c), (rows, cols, c)
            seen[got] += 1
            if got:
                tone = np.array(grid, dtype=np.int8)
                lab, _ = _compiled.label(tone, rows, cols)
                near = {int(lab[u]) for u in w.nbrs[c] if grid[u] >= 0}
                assert len(near) == 1
    assert seen[True] > 100 and seen[False] > 100


def test_solves_hand_the_solver_the_same_with_and_without_numba(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Whole solves (600 conflicts) of the few-clue 10x10s and a 20x20 with a big island:
    every propagate hands the same literals and every reason is the same clause with the
    compiled searches as with the numpy/scipy/Python ones they stand in for."""
    from tests.formulations.test_nurikabe_blockcut import HARDER, Traced, drive

    compiled = [drive(path, Traced, 600) for path in HARDER]
    for name in ("search", "joined", "label"):
        monkeypatch.setattr(_compiled, name, None)
    for path, new in zip(HARDER, compiled, strict=True):
        old = drive(path, Traced, 600)
        assert len(new.trace) > 1000
        assert new.trace == old.trace, path.name


def test_the_formulation_s_setup_loads_every_compiled_search_before_the_limit() -> None:
    # the harness runs setup() before the time limit starts (its seconds kept as setup_s): in
    # a fresh process, no search has machine code before it and every one has it after
    code = ("import json\n"
            "from bench.registry import get_formulation\n"
            "from formulations.nurikabe import _compiled as C\n"
            "fns = (C.search, C.joined, C.label)\n"
            "before = [len(f.signatures) for f in fns]\n"
            "s = get_formulation('nurikabe', 'sat-propagate').setup()\n"
            "print(json.dumps([before, [len(f.signatures) for f in fns], s]))\n")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=ROOT, env=env, timeout=120)
    assert out.returncode == 0, out.stderr
    before, after, seconds = json.loads(out.stdout)
    assert before == [0, 0, 0] and min(after) >= 1
    assert isinstance(seconds, float) and seconds > 0.0


def test_a_numba_without_a_cache_folder_still_compiles(monkeypatch: pytest.MonkeyPatch) -> None:
    # numba refuses cache=True with a RuntimeError where it finds no writable cache folder:
    # the kernels are then compiled without the cache, and they still search
    import numba

    def refusing(**options: Any) -> Any:
        if options.get("cache"):
            raise RuntimeError("cannot cache function: no locator available")
        return numba.njit(**options)

    monkeypatch.setattr(_compiled, "njit", refusing)
    fn = _compiled._compile(_compiled._label)
    assert fn is not None and type(fn._cache).__name__ == "NullCache"  # no disk cache
    lab, count = fn(np.array([1, -1, -1, 0], np.int8), 2, 2)  # two diagonal wall cells
    assert count == 2 and list(lab) == [1, 0, 0, 2]
