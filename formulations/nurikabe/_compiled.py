"""The wall's array searches of :mod:`formulations.nurikabe._wall`, compiled with numba (cached
on disk, loaded by :func:`warm` when the propagator is built): ``search``, the articulation
search; ``joined``, the bounded detour search around a cell turned white; ``label``, the
components of the not-white cells, numbered as ``scipy.ndimage.label`` numbers them.

The articulation search (:func:`formulations.nurikabe._wall.separators`) is one compiled
pass over flat int arrays: a depth-first search from the
anchor over the grid's edges inside the wall's component, then Hopcroft and Tarjan's low
points, subtree sizes and black counts summed up the tree in reverse visiting order, each a
single loop over the visited positions.

The search is the same as scipy's ``csgraph.depth_first_order`` over the neighbour table
(N, S, W, E): from the cell on top of the stack, the first neighbour in that order not yet
visited is visited next, so the visiting order, and with it every separator, subtree and
reason, is the same as the whole-array version's (compared on random grids by the tests).

``available()`` says whether numba could be imported; without it the wall runs the versions
these stand in for (scipy's search and numpy's range minima, the Python detour search,
``ndimage.label``), which the tests compare with these.

Sources: J. Hopcroft, R. Tarjan, "Algorithm 447: efficient algorithms for graph
manipulation", CACM 16(6), 1973 (articulation points from depth-first low points);
S. K. Lam, A. Pitrou, S. Seibert, "Numba: a LLVM-based Python JIT compiler", LLVM-HPC 2015.
"""

from __future__ import annotations

from typing import Any

import numpy as np

try:
    from numba import njit
except ImportError:  # pragma: no cover - numba is a dependency; kept for a bare install
    njit = None  # type: ignore[assignment]


def available() -> bool:
    """Whether the compiled search can run (numba imported)."""
    return njit is not None


def _compile(fn: Any) -> Any:
    """``fn`` compiled lazily with its machine code cached on disk; compiled without the cache
    where numba finds no writable cache folder (it refuses ``cache=True`` there); None
    without numba."""
    if njit is None:
        return None
    try:
        return njit(cache=True, nogil=True)(fn)
    except RuntimeError:  # no cache locator: a read-only install with no user cache folder
        return njit(nogil=True)(fn)


def _separators(a: int, ina: Any, color: Any, tab: Any, every: bool) -> tuple[Any, Any]:
    """The visiting order (int32) and the ``(p, start, stop, b)`` rows (int64, by start) of
    :func:`formulations.nurikabe._wall.separators`; the arrays as they are described there
    (``ina`` boolean, ``color`` int8, ``tab`` 4 x cells int32). Over 60 lines: the
    search and the passes up its tree share their arrays in one compiled frame."""
    n = ina.shape[0]
    disc = np.full(n, -1, np.int32)
    order = np.empty(n, np.int32)
    parent = np.zeros(n, np.int32)  # positions in the order
    stack = np.empty(n, np.int32)  # cells
    nxt = np.zeros(n, np.int32)  # per stack entry: the next neighbour to look at
    order[0] = a
    disc[a] = 0
    stack[0] = a
    top = 0
    k = 1
    while top >= 0:
        w = stack[top]
        j = nxt[top]
        pushed = False
        while j < 4:
            u = tab[j, w]
            j += 1
            if ina[u] and disc[u] < 0:
                nxt[top] = j
                disc[u] = k
                order[k] = u
                parent[k] = disc[w]
                k += 1
                top += 1
                stack[top] = u
                nxt[top] = 0
                pushed = True
                break
        if not pushed:
            top -= 1
    low = np.empty(k, np.int32)
    size = np.ones(k, np.int32)
    dark = np.zeros(k, np.int32)  # black cells in the subtree
    for i in range(k):
        w = order[i]
        m = i
        for j in range(4):
            u = tab[j, w]
            if ina[u] and 0 <= disc[u] < m:
                m = disc[u]
        low[i] = m
        if color[w] == 1:
            dark[i] = 1
    for i in range(k - 1, 0, -1):
        q = parent[i]
        size[q] += size[i]
        dark[q] += dark[i]
        if low[i] < low[q]:
            low[q] = low[i]
    first = np.full(k + 1, k, np.int32)  # the first black position at or after each
    for i in range(k - 1, -1, -1):
        first[i] = i if color[order[i]] == 1 else first[i + 1]
    rows = np.empty((k, 4), np.int64)
    m = 0
    for i in range(1, k):
        q = parent[i]
        if color[order[q]] != 0 or low[i] < q:
            continue
        if dark[i] == 0 and not every:
            continue
        rows[m, 0] = order[q]
        rows[m, 1] = i
        rows[m, 2] = i + size[i]
        rows[m, 3] = order[first[i]] if dark[i] else -1
        m += 1
    return order[:k].copy(), rows[:m].copy()


search = _compile(_separators)


def _joined(c: int, color: Any, lab: Any, la: int, tab: Any, reach: int) -> bool:
    """:meth:`formulations.nurikabe._wall.WallReasoning._joined` over arrays: whether the
    not-white neighbours of cell ``c`` are joined through not-white cells labelled ``la``, by
    a breadth-first search from the first of them (N, S, W, E) that expands no further cell
    once it has seen ``reach`` cells."""
    n = color.shape[0]
    want = np.zeros(n, np.bool_)
    first = -1
    wanted = 0
    for j in range(4):
        u = tab[j, c]
        if u != c and color[u] >= 0:
            if first < 0:
                first = u
            elif not want[u]:
                want[u] = True
                wanted += 1
    if first < 0:
        return False
    if wanted == 0:
        return True
    seen = np.zeros(n, np.bool_)
    queue = np.empty(n, np.int32)
    seen[first] = True
    queue[0] = first
    size = 1
    i = 0
    while i < size and size < reach:
        w = queue[i]
        for j in range(4):
            u = tab[j, w]
            if not seen[u] and color[u] >= 0 and lab[u] == la:
                if want[u]:
                    want[u] = False
                    wanted -= 1
                    if wanted == 0:
                        return True
                seen[u] = True
                queue[size] = u
                size += 1
        i += 1
    return wanted == 0


def _label(color: Any, rows: int, cols: int) -> tuple[Any, int]:
    """The 4-connected components of the not-white cells (``color >= 0``) of a ``rows`` x
    ``cols`` grid, numbered 1, 2, ... in the reading order of their first cells (0: white),
    as ``scipy.ndimage.label`` numbers them; and their count."""
    n = rows * cols
    lab = np.zeros(n, np.int32)
    queue = np.empty(n, np.int32)
    count = 0
    for s in range(n):
        if color[s] < 0 or lab[s]:
            continue
        count += 1
        lab[s] = count
        queue[0] = s
        size = 1
        i = 0
        while i < size:
            w = queue[i]
            i += 1
            r = w // cols
            for u in (w - cols if r > 0 else -1, w + cols if r < rows - 1 else -1,
                      w - 1 if w - r * cols > 0 else -1, w + 1 if w - r * cols < cols - 1 else -1):
                if u >= 0 and color[u] >= 0 and not lab[u]:
                    lab[u] = count
                    queue[size] = u
                    size += 1
    return lab, count


joined = _compile(_joined)
label = _compile(_label)


def warm() -> None:
    """Load (or, on a cold cache, compile) every compiled search for the argument types the
    propagator passes, on a 2 x 2 grid, so that its one-time cost falls before the solve."""
    if search is None or joined is None or label is None:
        return
    color = np.array([1, 0, 0, -1], np.int8)
    tab = np.array([[0, 1, 0, 1], [2, 3, 2, 3], [0, 0, 2, 2], [1, 1, 3, 3]], np.int32)
    lab, _ = label(color, 2, 2)
    search(0, color >= 0, color, tab, False)
    search(0, color >= 0, color, tab, True)
    joined(3, color, lab, 1, tab, 64)
