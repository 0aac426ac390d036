"""Solver-free helpers shared by the Fillomino formulations and generator: provable number
domains per cell and the defects of a candidate grid (components of equal numbers of the wrong
size).

**Domains.** A cell v in a region of number k: either the region holds a given (then every
given in it is k, and the region joins v to a given k by a path of at most k - 1 steps through
empty cells and given k cells), or it holds no given at all (then it lies inside v's component
of empty cells, so k is at most that component's size). Hence

    dom(v) = {1 .. |E(v)|}  U  {k given : dist_k(v) <= k - 1}

where E(v) is v's component of empty cells and dist_k the distance from the nearest given k
through empty and given-k cells. No bound beyond what the grid proves (the total number of
cells bounds |E(v)|); a given cell's domain is its number.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cached_property

from bench.grid import Cell, all_cells, components, connected_sets, neighbours
from bench.instance import Instance


@dataclass
class Layout:
    rows: int
    cols: int
    cells: list[Cell]
    given: dict[Cell, int]
    dom: dict[Cell, list[int]]  # sorted
    edges: list[tuple[Cell, Cell]]  # (u, w) with u < w, 4-adjacent
    #: per given number k, the cells a region holding a given k may reach (:func:`given_reach`)
    reach: dict[int, set[Cell]]
    #: per empty cell, the size of its component of empty cells (a region without a given
    #: lies inside it)
    room: dict[Cell, int]

    @cached_property
    def domset(self) -> dict[Cell, set[int]]:
        return {v: set(d) for v, d in self.dom.items()}


def given_reach(inst: Instance, given: dict[Cell, int], k: int) -> dict[Cell, int]:
    """Distance from the nearest given k through empty and given-k cells, up to k - 1."""
    rows, cols = inst.rows, inst.cols
    dist = {v: 0 for v, n in given.items() if n == k}
    queue = deque(dist)
    while queue:
        v = queue.popleft()
        if dist[v] == k - 1:
            continue
        for w in neighbours(v, rows, cols):
            if w not in dist and given.get(w, k) == k:
                dist[w] = dist[v] + 1
                queue.append(w)
    return dist


def layout(inst: Instance) -> Layout:
    rows, cols = inst.rows, inst.cols
    cells = all_cells(rows, cols)
    given = {(r, c): n for r, c, n in inst.clues()}
    empty = [v for v in cells if v not in given]
    dom: dict[Cell, set[int]] = {v: {n} for v, n in given.items()}
    room: dict[Cell, int] = {}
    for comp in components(empty, rows, cols):
        for v in comp:
            dom[v] = set(range(1, len(comp) + 1))
            room[v] = len(comp)
    reach: dict[int, set[Cell]] = {}
    for k in sorted(set(given.values())):
        reach[k] = set(given_reach(inst, given, k))
        for v in reach[k]:
            dom[v].add(k)
    edges = [(v, w) for v in cells for w in neighbours(v, rows, cols) if v < w]
    return Layout(rows, cols, cells, given, {v: sorted(d) for v, d in dom.items()}, edges,
                  reach, room)


@dataclass(frozen=True)
class Defect:
    """A maximal component ``cells`` of number ``k`` whose size is not k, with its boundary."""

    k: int
    cells: list[Cell]
    boundary: list[Cell]

    @property
    def too_big(self) -> bool:
        return len(self.cells) > self.k


def defects(rows: int, cols: int, number: Callable[[Cell], int]) -> list[Defect]:
    """Every component of equal numbers whose size differs from its number."""
    by_value: dict[int, list[Cell]] = {}
    for v in all_cells(rows, cols):
        by_value.setdefault(number(v), []).append(v)
    out = []
    for k, vs in by_value.items():
        for comp in components(vs, rows, cols):
            if len(comp) != k:
                inside = set(comp)
                border = sorted({w for v in comp for w in neighbours(v, rows, cols)
                                 if w not in inside})
                out.append(Defect(k, comp, border))
    return out


def connected_subset(cells: list[Cell], size: int, rows: int, cols: int) -> list[Cell]:
    """``size`` cells of the connected set ``cells`` that are themselves connected (BFS order
    from the first cell): a too-big component's cut needs only k + 1 of its cells."""
    inside = set(cells)
    seen = [cells[0]]
    mark = {cells[0]}
    i = 0
    while len(seen) < size:
        for w in neighbours(seen[i], rows, cols):
            if w in inside and w not in mark and len(seen) < size:
                mark.add(w)
                seen.append(w)
        i += 1
    return seen


def small_pieces(rows: int, cols: int, most: int) -> list[list[Cell]]:
    """Every connected set of 1..``most`` cells (fixed polyomino placements), each once."""
    return list(connected_sets(all_cells(rows, cols), most,
                               lambda v: neighbours(v, rows, cols)))


#: a clause over "cell v holds k" literals: (positive, v, k)
Clause = list[tuple[bool, Cell, int]]


def local_clauses(lay: Layout, pieces: int) -> Iterator[Clause]:
    """The local rules: a 1 has no neighbouring 1; a k >= 2 has a neighbouring k; a 2 has at
    most one neighbouring 2; a connected piece of at most ``pieces`` cells that all hold some
    k > its size has a boundary cell holding k (each piece a too-small cut made in advance)."""
    for v in lay.cells:
        nbrs = neighbours(v, lay.rows, lay.cols)
        for k in lay.dom[v]:
            same = [w for w in nbrs if k in lay.domset[w]]
            if k == 1:
                yield from ([(False, v, 1), (False, w, 1)] for w in same if v < w)
            else:
                yield [(False, v, k), *((True, w, k) for w in same)]
            if k == 2:
                yield from ([(False, v, 2), (False, a, 2), (False, b, 2)]
                            for i, a in enumerate(same) for b in same[i + 1:])
    for piece in small_pieces(lay.rows, lay.cols, pieces):
        if len(piece) == 1:
            continue  # the "has a neighbouring k" rule above
        ks = set.intersection(*(lay.domset[v] for v in piece))
        border = sorted({w for v in piece for w in neighbours(v, lay.rows, lay.cols)}
                        - set(piece))
        for k in sorted(ks):
            if k > len(piece):
                yield [*((False, v, k) for v in piece),
                       *((True, b, k) for b in border if k in lay.domset[b])]


def cut_clauses(lay: Layout, number: Callable[[Cell], int]) -> list[Clause]:
    """Cuts for the defects of a candidate grid, each valid in every solution: a component of
    k-cells larger than k gives "not all of these k + 1 connected cells hold j" for every j < k
    + 1 they all may hold; one smaller than k gives "not all of it holds j, or a boundary cell
    holds j" for every j > its size it may hold (the same shape with another number is as
    wrong: this stops the solver from trying the numbers one by one)."""
    out: list[Clause] = []
    for d in defects(lay.rows, lay.cols, number):
        piece = (connected_subset(d.cells, d.k + 1, lay.rows, lay.cols) if d.too_big
                 else d.cells)
        for k in sorted(set.intersection(*(lay.domset[v] for v in piece))):
            if d.too_big and k < len(piece):
                out.append([(False, v, k) for v in piece])
            elif not d.too_big and k > len(piece):
                out.append([*((False, v, k) for v in piece),
                            *((True, b, k) for b in d.boundary if k in lay.domset[b])])
    return out
