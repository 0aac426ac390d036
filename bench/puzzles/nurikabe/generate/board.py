"""The Nurikabe generator's board: a solution being built (islands, wall) with the edits the
generator makes on it, each checked to keep the wall connected and free of 2x2 pools, and
undoable (:class:`Join`); :class:`Wall` grows a random wall for the first solution;
:func:`plan_changes` makes one round of the thinning's changes."""

from __future__ import annotations

import random
from dataclasses import dataclass

from bench.grid import Cell, all_cells, bfs_distances, components, neighbours
from bench.puzzles import SolutionGrid
from bench.puzzles.nurikabe.rules import pools

RING = ((-1, 0), (-1, 1), (0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1))


class NurikabeState:
    """A valid-so-far Nurikabe solution under construction: ``island[r][c]`` is the island id
    of a white cell, -1 for black. The wall stays connected after every change."""

    def __init__(self, rows: int, cols: int) -> None:
        self.rows, self.cols = rows, cols
        self.island = [[-1] * cols for _ in range(rows)]
        self.cells: dict[int, list[Cell]] = {}
        self.next_id = 0
        self.black = rows * cols
        #: a cell of each big island (:mod:`.big`): no edit changes those islands' shapes
        self.anchors: list[Cell] = []
        #: black cells no edit turns white (:mod:`.big`: the halos of the big islands)
        self.pinned: set[Cell] = set()
        #: clue cells that never move (:mod:`.rigid`: each fences a big island's ring); their
        #: islands are never joined to another nor dropped
        self.fences: set[Cell] = set()

    def fenced(self, k: int) -> bool:
        """Whether island ``k`` holds a cell of :attr:`fences` (its clue stays there)."""
        return any(v in self.fences for v in self.cells[k]) if self.fences else False

    def is_black(self, r: int, c: int) -> bool:
        return 0 <= r < self.rows and 0 <= c < self.cols and self.island[r][c] < 0

    def adjacent_islands(self, v: Cell) -> set[int]:
        return {self.island[r][c] for r, c in neighbours(v, self.rows, self.cols)
                if self.island[r][c] >= 0}

    def may_whiten(self, v: Cell) -> bool:
        """Whether black cell ``v`` may turn white: not :attr:`pinned`, and the wall is still
        connected (and not empty) after it."""
        if v in self.pinned:
            return False
        r, c = v
        nbrs = [n for n in neighbours(v, self.rows, self.cols) if self.is_black(*n)]
        if not nbrs:
            return False  # v is the whole wall
        if len(nbrs) == 1:
            return True
        ring = [self.is_black(r + dr, c + dc) for dr, dc in RING]
        if not all(ring):  # one run of black ring cells holding every black 4-neighbour
            start = ring.index(False)
            runs: list[set[int]] = []
            for k in range(1, 9):
                i = (start + k) % 8
                if ring[i]:
                    if k == 1 or not ring[(i - 1) % 8]:
                        runs.append(set())
                    runs[-1].add(i)
            sides = {i for i in (0, 2, 4, 6) if ring[i]}
            if any(sides <= run for run in runs):
                return True
        else:
            return True
        reach = bfs_distances([nbrs[0]], self.rows, self.cols,
                              lambda n: n != v and self.is_black(*n))
        return all(n in reach for n in nbrs[1:])

    def whiten(self, v: Cell, island: int | None) -> int:
        if island is None:
            island = self.next_id
            self.next_id += 1
        self.island[v[0]][v[1]] = island
        self.cells.setdefault(island, []).append(v)
        self.black -= 1
        return island

    def square(self, v: Cell) -> list[Cell]:
        """``v`` and its 8 neighbours inside the grid: the cells of the 2x2 blocks holding v."""
        r, c = v
        return [(r + dr, c + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1)
                if 0 <= r + dr < self.rows and 0 <= c + dc < self.cols]

    def makes_pool(self, v: Cell) -> bool:
        """Whether turning ``v`` black would complete a 2x2 black block."""
        return bool(pools(lambda u: u == v or self.is_black(*u), self.rows, self.cols, at=v))

    def cut_cells(self, keep: Cell, away: Cell) -> list[Cell]:
        """Cells of the island of ``keep`` and ``away`` that can turn black (next to the wall,
        no 2x2 black block) and that separate ``away`` from ``keep``."""
        k = self.island[keep[0]][keep[1]]
        cells = set(self.cells[k])
        out = []
        for b in self.cells[k]:
            if b in (keep, away) or self.makes_pool(b):
                continue
            if not any(self.is_black(*n) for n in neighbours(b, self.rows, self.cols)):
                continue
            if away not in bfs_distances([keep], self.rows, self.cols, (cells - {b}).__contains__):
                out.append(b)
        return out

    def islands_at(self, cells: list[Cell]) -> set[int]:
        """The islands holding a white cell of ``cells`` or next to a black one."""
        return {self.island[r][c] for r, c in cells if self.island[r][c] >= 0} \
            | {k for r, c in cells if self.island[r][c] < 0 for k in self.adjacent_islands((r, c))}

    def boundary(self, k: int) -> list[Cell]:
        """The black cells next to island ``k``, in reading order."""
        return sorted({n for v in self.cells[k] for n in neighbours(v, self.rows, self.cols)
                       if self.is_black(*n)})

    def can_shrink(self, v: Cell, keep: Cell) -> bool:
        """Whether island cell ``v`` (not the clue cell ``keep``) can turn black with its
        island staying in one piece: it touches the wall and makes no 2x2 black block."""
        k = self.island[v[0]][v[1]]
        if v == keep or len(self.cells[k]) < 2 or self.makes_pool(v):
            return False
        if not any(self.is_black(*n) for n in neighbours(v, self.rows, self.cols)):
            return False
        return len(components([u for u in self.cells[k] if u != v], self.rows, self.cols)) == 1

    def leaves_one(self, v: Cell) -> bool:
        """Whether turning island cell ``v`` black leaves a piece of one cell: a cell of its
        island next to ``v`` and to no other cell of it."""
        k = self.island[v[0]][v[1]]
        return any(self.island[n[0]][n[1]] == k
                   and all(m == v or self.island[m[0]][m[1]] != k
                           for m in neighbours(n, self.rows, self.cols))
                   for n in neighbours(v, self.rows, self.cols))

    def blacken(self, v: Cell) -> list[int]:
        """Turn island cell ``v`` black (the caller checked :meth:`makes_pool` and that ``v``
        touches the wall); the island's piece holding its first remaining cell keeps the id,
        other pieces get new ids, returned."""
        k = self.island[v[0]][v[1]]
        rest = [u for u in self.cells[k] if u != v]
        self.island[v[0]][v[1]] = -1
        self.black += 1
        pieces = components(rest, self.rows, self.cols)
        self.cells[k] = pieces[0]
        new = []
        for piece in pieces[1:]:
            j = self.next_id
            self.next_id += 1
            self.cells[j] = piece
            for r, c in piece:
                self.island[r][c] = j
            new.append(j)
        return new

    def sole_island(self, v: Cell, cap: int) -> int | None:
        """The island black cell ``v`` can join alone: the one island next to it, if it has
        fewer than ``cap`` cells and ``v`` may turn white (:meth:`may_whiten`); else None."""
        ks = self.adjacent_islands(v)
        if len(ks) != 1:
            return None
        k = next(iter(ks))
        return k if len(self.cells[k]) < cap and self.may_whiten(v) else None

    def grows(self, k: int, cap: int) -> list[Cell]:
        """The black cells that can join island ``k`` alone (:meth:`sole_island`)."""
        if len(self.cells[k]) >= cap:
            return []
        return [v for v in self.boundary(k) if self.sole_island(v, cap) == k]

    def merge(self, v: Cell) -> list[int]:
        """Turn black cell ``v`` white, joining the islands next to it into the first of
        them (by id); the ids of the islands it absorbed, returned."""
        ks = sorted(self.adjacent_islands(v))
        self.whiten(v, ks[0])
        for j in ks[1:]:
            for r, c in self.cells.pop(j):
                self.island[r][c] = ks[0]
                self.cells[ks[0]].append((r, c))
        return ks[1:]

    def merges(self, cells: list[Cell], cap: int) -> list[Cell]:
        """The black cells of ``cells`` next to two or more islands that can turn white (the
        cell may turn white, :meth:`may_whiten`; the joined island has at most ``cap`` cells;
        no island holding a cell of :attr:`fences` takes part, as its clue would move)."""
        return [v for v in cells if self.island[v[0]][v[1]] < 0
                and len(ks := self.adjacent_islands(v)) >= 2
                and 1 + sum(len(self.cells[k]) for k in ks) <= cap
                and not any(self.fenced(k) for k in ks)
                and self.may_whiten(v)]

    def solution(self) -> SolutionGrid:
        return [["#" if v < 0 else "." for v in row] for row in self.island]

    def nearest(self, alt: SolutionGrid, changes: list[list[Cell]]) -> list[int]:
        """The changes (their cells) to blame for the other solution ``alt``: those within
        one step of a cell where it differs, else the nearest ones (undoing every change of
        a round when none touched the difference threw good ones away)."""
        sol = self.solution()
        diff = [(r, c) for r in range(self.rows) for c in range(self.cols)
                if sol[r][c] != alt[r][c]]
        dist = bfs_distances(diff, self.rows, self.cols)
        far = self.rows * self.cols
        step = [min((dist.get(v, far) for v in cells), default=far) for cells in changes]
        cut = max(1, min(step, default=far))
        return [i for i, d in enumerate(step) if d <= cut]

    def around(self, cells: list[Cell], radius: int) -> set[Cell]:
        """The cells within ``radius`` steps of ``cells``."""
        return set(bfs_distances(cells, self.rows, self.cols, limit=radius))


@dataclass
class Join:
    """One change of :meth:`NurikabeGenerator.sparsify`, undoable: wall cell ``v`` turned
    white joining the islands ``before`` (their cells and clue cells before; the joined island
    keeps the smallest id), or, with ``drop``, the 1-island ``v`` turned black."""

    v: Cell
    before: dict[int, list[Cell]]
    clues: dict[int, Cell]
    drop: bool = False
    tries: int = 0  # clue moves made to repair it

    def cells(self) -> list[Cell]:
        """The cells the change touched (the joined island's cells)."""
        return [self.v, *(u for cells in self.before.values() for u in cells)]

    def undo(self, s: NurikabeState, clue: dict[int, Cell]) -> None:
        r, c = self.v
        if self.drop:
            s.black -= 1
        else:
            s.island[r][c] = -1
            s.black += 1
        for k, cells in self.before.items():
            s.cells[k] = list(cells)
            for u in cells:
                s.island[u[0]][u[1]] = k
            clue[k] = self.clues[k]


class Wall:
    """The wall of :meth:`NurikabeGenerator.random_solution` while it grows: ``comp[r][c]`` is
    the white component id of a cell, -1 for black; ``comps`` the cells of each component;
    ``frontier`` the white cells next to the wall, in a stable order; ``done`` the components
    below the cap that cannot be cut further."""

    def __init__(self, rows: int, cols: int, join_weight: float,
                 small_piece: dict[int, float]) -> None:
        self.rows, self.cols = rows, cols
        self.join_weight, self.small_piece = join_weight, small_piece
        self.comp = [[0] * cols for _ in range(rows)]
        self.comps: dict[int, set[Cell]] = {0: {(r, c) for r in range(rows) for c in range(cols)}}
        self.frontier: dict[Cell, None] = {}
        self.done: set[int] = set()
        self.next_id = 1

    def black(self, r: int, c: int) -> bool:
        return 0 <= r < self.rows and 0 <= c < self.cols and self.comp[r][c] < 0

    def makes_pool(self, v: Cell) -> bool:
        return bool(pools(lambda u: u == v or self.black(*u), self.rows, self.cols, at=v))

    def blacken(self, v: Cell) -> None:
        """Turn ``v`` black; the pieces its component falls into get new ids."""
        k = self.comp[v[0]][v[1]]
        self.comp[v[0]][v[1]] = -1
        self.frontier.pop(v, None)
        rest = self.comps.pop(k)
        rest.discard(v)
        self.done.discard(k)
        for n in neighbours(v, self.rows, self.cols):
            if not self.black(*n):
                self.frontier[n] = None
        for part in components(rest, self.rows, self.cols):  # relabel the pieces of k
            self.comps[self.next_id] = set(part)
            for r, c in part:
                self.comp[r][c] = self.next_id
            self.next_id += 1

    def state(self) -> NurikabeState:
        """The solution this wall leaves: each white component an island of the same id."""
        s = NurikabeState(self.rows, self.cols)
        for k in self.comps:
            for v in sorted(self.comps[k]):
                s.whiten(v, k)
        s.next_id = self.next_id
        return s

    def weight(self, v: Cell) -> float:
        """Prefer extending a wall end, and avoid pinching off pieces of 1 or 2 cells."""
        nbrs = neighbours(v, self.rows, self.cols)
        w = 1.0 if sum(self.black(*n) for n in nbrs) == 1 else self.join_weight
        for n in nbrs:
            if self.black(*n):
                continue
            # the white piece n would be left in, if smaller than 3 cells (2 steps reach 3)
            piece = bfs_distances([n], self.rows, self.cols,
                                  lambda m: m != v and not self.black(*m), 2)
            if len(piece) < 3:
                w *= self.small_piece[len(piece)]
        return w


def weighted_order(cells: list[Cell], weight: list[float], rng: random.Random) -> list[Cell]:
    """Weighted random order without replacement (key u ** (1 / w))."""
    keys = [rng.random() ** (1 / w) for w in weight]
    return [v for _, v in sorted(zip(keys, cells, strict=True), reverse=True)]


def plan_changes(s: NurikabeState, clue: dict[int, Cell], want: int, cap: int,
                 rng: random.Random) -> list[Join]:
    """Up to ``want`` changes that each remove a clue -- joins at wall cells between
    islands (:meth:`NurikabeState.merges` with the size cap; small islands first) and
    1-islands turned black (drops) -- and half as many islands grown by a wall cell next to
    them alone (bigger islands first: the clue count stays, the islands reach real sizes).
    No change touches another's islands or cells, nor shares a 2x2 block with another's
    cell (a drop kept beside a join undone diagonally made a 2x2 black block), so each can be
    undone alone; the wall stays connected (checked as each is made; the drops come last, so
    no whitening relies on a dropped cell). The changes of one round of
    :meth:`NurikabeGenerator.sparsify`, made on ``s`` and ``clue``."""
    used: set[int] = set()
    near: set[Cell] = set()
    out: list[Join] = []

    def whiten(v: Cell, ks: set[int]) -> None:
        out.append(Join(v, {k: list(s.cells[k]) for k in sorted(ks)},
                        {k: clue[k] for k in ks}))
        keep = clue[rng.choice(sorted(ks))]
        if len(ks) == 1:
            s.whiten(v, min(ks))
        for k in s.merge(v) if len(ks) > 1 else []:
            del clue[k]
        clue[min(ks)] = keep
        used.update(ks)
        near.update(s.square(v))

    merges = s.merges(all_cells(s.rows, s.cols), cap)
    drops = [cells[0] for cells in s.cells.values()
             if len(cells) == 1 and not s.makes_pool(cells[0]) and cells[0] not in s.fences]
    # joins and drops share the budget: drops weigh as joins of 1-islands
    weight = [1.0 / min(len(s.cells[k]) for k in s.adjacent_islands(v)) ** 2
              for v in merges] + [1.0] * len(drops)
    budget = weighted_order(merges + drops, weight, rng)
    picked = set(budget[:want] if len(budget) > want else budget)
    for v in merges:
        if v not in picked or len(out) >= want:
            continue
        ks = s.adjacent_islands(v)
        if ks & used or v in near or not s.may_whiten(v) \
                or 1 + sum(len(s.cells[k]) for k in ks) > cap:
            continue
        whiten(v, ks)
    grows = [v for v in all_cells(s.rows, s.cols) if s.island[v[0]][v[1]] < 0
             and len(ks := s.adjacent_islands(v)) == 1
             and len(s.cells[next(iter(ks))]) < cap]
    grown = 0
    for v in weighted_order(grows, [len(s.cells[next(iter(s.adjacent_islands(v)))])
                                    for v in grows], rng):
        if grown >= want // 2:
            break
        ks = s.adjacent_islands(v)
        if len(ks) != 1 or ks & used or v in near or not s.may_whiten(v):
            continue
        whiten(v, ks)
        grown += 1
    out += drop_ones(s, clue, [v for v in drops if v in picked], used, near)
    return out


def drop_ones(s: NurikabeState, clue: dict[int, Cell], cells: list[Cell], used: set[int],
              near: set[Cell]) -> list[Join]:
    """The 1-islands at ``cells`` turned black (last in :func:`plan_changes`, so no whitening
    relies on a dropped cell), each apart from the changes already made."""
    out = []
    for v in cells:
        k = s.island[v[0]][v[1]]
        if k in used or v in near or s.makes_pool(v):
            continue
        out.append(Join(v, {k: [v]}, {k: v}, drop=True))
        s.island[v[0]][v[1]] = -1
        s.black += 1
        del s.cells[k], clue[k]
        used.add(k)
        near.update(s.square(v))
    return out
