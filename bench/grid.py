"""Pure grid-graph helpers shared by the connectivity encodings (no solver imports).

Cells are ``(row, col)`` tuples; the graph is the 4-neighbour grid of ``rows x cols`` cells.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence

Cell = tuple[int, int]


def neighbours(cell: Cell, rows: int, cols: int) -> list[Cell]:
    """The 4-neighbours of ``cell`` inside the grid (up, down, left, right)."""
    r, c = cell
    out: list[Cell] = []
    if r > 0:
        out.append((r - 1, c))
    if r + 1 < rows:
        out.append((r + 1, c))
    if c > 0:
        out.append((r, c - 1))
    if c + 1 < cols:
        out.append((r, c + 1))
    return out


def all_cells(rows: int, cols: int) -> list[Cell]:
    """Every cell in reading order."""
    return [(r, c) for r in range(rows) for c in range(cols)]


def manhattan(a: Cell, b: Cell) -> int:
    return abs(a[0] - b[0]) + abs(a[1] - b[1])


def components(cells: Iterable[Cell], rows: int, cols: int) -> list[list[Cell]]:
    """The 4-connected components of a cell set, each as a list (first cell = smallest in
    reading order, then in BFS order), components ordered by their first cell."""
    return pieces(cells, ())[0]


def pieces(on: Iterable[Cell], cells: Collection[Cell]
           ) -> tuple[list[list[Cell]], list[list[Cell]]]:
    """:func:`components` of ``on`` and, for each, its boundary inside ``cells`` (the cells of
    ``cells`` outside ``on`` and 4-adjacent to the component, in reading order), in one pass."""
    lit = set(on)
    todo = set(lit)
    comps: list[list[Cell]] = []
    seps: list[list[Cell]] = []
    # neighbours inlined (up, down, left, right, as :func:`neighbours`): the lazy loops call
    # this on every round for thousands of cells
    for start in sorted(todo):
        if start not in todo:
            continue
        todo.discard(start)
        comp, sep = [start], set()
        i = 0
        while i < len(comp):
            r, c = comp[i]
            i += 1
            for n in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                if n in todo:
                    todo.discard(n)
                    comp.append(n)
                elif n not in lit and n in cells:
                    sep.add(n)
        comps.append(comp)
        seps.append(sorted(sep))
    return comps, seps


def boundary(component: Collection[Cell], rows: int, cols: int) -> list[Cell]:
    """The cells outside ``component`` that are 4-adjacent to it (its vertex boundary), in
    reading order. For a maximal component of some cell set, these are all outside the set."""
    inside = set(component)
    out = {n for cell in component for n in neighbours(cell, rows, cols) if n not in inside}
    return sorted(out)


def bfs_distances(
    sources: Iterable[Cell],
    rows: int,
    cols: int,
    allowed: Callable[[Cell], bool] | None = None,
    limit: int | None = None,
) -> dict[Cell, int]:
    """Shortest 4-neighbour path length from the nearest source to every cell reachable
    through ``allowed`` cells (sources are always included), stopping at ``limit`` steps."""
    dist: dict[Cell, int] = {}
    queue: deque[Cell] = deque()
    for s in sources:
        if s not in dist:
            dist[s] = 0
            queue.append(s)
    while queue:
        cell = queue.popleft()
        d = dist[cell]
        if limit is not None and d >= limit:
            continue
        r, c = cell
        for n in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):  # as :func:`neighbours`
            if n in dist or not (0 <= n[0] < rows and 0 <= n[1] < cols):
                continue
            if allowed is None or allowed(n):
                dist[n] = d + 1
                queue.append(n)
    return dist


def clue_reach(
    rows: int, cols: int, clues: Sequence[tuple[int, int, int]]
) -> list[dict[Cell, int]]:
    """For each clue ``(r, c, n)`` (an island of exactly ``n`` cells that holds the clue cell and
    no other clue), the cells its island can contain, mapped to their shortest distance from
    the clue cell.

    A cell of clue k's island lies on a path of island cells from the clue cell of length at most
    ``n - 1``; no cell of that path is another clue cell or 4-adjacent to one (that cell would be
    white and join the other clue's island). So the reach is a BFS through the cells that are not
    other clues nor next to other clues, cut at ``n - 1`` steps. This implies the Manhattan
    pruning ``manhattan(cell, clue) < n`` and is never stronger than the rules: every island of
    every solution lies inside its clue's reach.
    """
    clue_cells = [(r, c) for r, c, _ in clues]
    owner_near: dict[Cell, set[int]] = {}
    for k, cell in enumerate(clue_cells):
        owner_near.setdefault(cell, set()).add(k)
        for nb in neighbours(cell, rows, cols):
            owner_near.setdefault(nb, set()).add(k)
    out: list[dict[Cell, int]] = []
    for k, (r, c, size) in enumerate(clues):
        def allowed(cell: Cell, k: int = k) -> bool:
            return owner_near.get(cell, set()) <= {k}

        out.append(bfs_distances([(r, c)], rows, cols, allowed, limit=size - 1))
    return out


def connected_sets(starts: Iterable[Cell], most: int, step: Callable[[Cell], Iterable[Cell]]
                   ) -> Iterator[list[Cell]]:
    """Every connected set of 1..``most`` cells grown from ``starts`` one ``step`` (the cells a
    cell may join) at a time, each once, sorted; smaller sets first, in a fixed order."""
    seen: set[frozenset[Cell]] = set()
    level = [frozenset([v]) for v in starts]
    for _ in range(most):
        nxt: list[frozenset[Cell]] = []
        for p in level:
            if p in seen:
                continue
            seen.add(p)
            yield sorted(p)
            nxt += [p | {w} for v in p for w in step(v) if w not in p]
        level = nxt
