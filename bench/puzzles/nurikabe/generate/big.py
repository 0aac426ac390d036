"""Big islands for the Nurikabe generator (its parameter ``big``): real large puzzles hold
islands of 30 cells and more, which :meth:`NurikabeGenerator.make_unique` cannot keep in a
random solution -- another solution trades a cell of the big island for a wall cell next to
it, and every edit that excludes that trade makes another. So :func:`pinned_solution` builds
the solution around its big islands so that almost no such trade exists:

* each big island is a snake (straight runs of 2-6 cells, each turning off the last; a
  later run may lie beside an earlier one) away from the border, bigger than the generator's
  island cap (so no join or grow of the generator touches it), and
  :meth:`NurikabeGenerator.edit` never changes its shape (:func:`freeze`);
* every cell next to it or diagonal to it is black and stays black: no edit turns it white
  (:attr:`NurikabeState.pinned`). That is its halo, a connected wall around it; with the
  diagonal cells black, the snake cannot lose a tip or a turn cell to another solution, which
  would make a 2x2 black block (a turn cell T traded for the inner corner of its turn needs a
  white cell diagonal to T outside the turn). In the starting solution every cell
  next to it has a white neighbour of another island (its fence: white, such a cell would
  join two islands, so no other solution gives it to the big island). Only the cells next
  to it twice -- the inner corners of its turns and one-cell gaps between two of its runs --
  cannot be fenced;
* the rest is the usual random wall (:meth:`NurikabeGenerator.random_solution`'s growth),
  grown from the halos, linked into one piece first (several snakes; a link path avoids a
  cell's last fence at a cost of 50 steps), the growth never taking a last fence.
  Later edits of the small islands may take fences away: the uniqueness checks decide.

The sizes are drawn from ``bigmin``-``bigmax`` (parameters ``--param bigmin=N --param
bigmax=N``, default 37-45; :func:`size_range`). With three big islands or more, the grid is
cut into tiles and each snake grows in its own (:func:`tiles`, :func:`boxed_snake`: a
depth-first search that keeps every pocket of the snake open to the wall), as real large
puzzles spread their big islands over the grid: free placement finds no room for them.

Then :meth:`NurikabeGenerator.make_unique` and :meth:`NurikabeGenerator.sparsify` as for any
puzzle, the checks by ``sat-hybrid`` (:attr:`NurikabeGenerator.big_formulation`). Without
the black halos, ``make_unique`` goes round small differences (a turn cell traded for its
inner corner, a small island holding the diagonal cell) until it runs out of rounds; the
designs tried and their generation times: docs/results/2026-11-25-nurikabe-hard-and-sparse.md."""

from __future__ import annotations

import heapq
import random
from collections.abc import Callable
from typing import Any, Protocol

from bench.generate import GenerationError
from bench.grid import Cell, components, neighbours
from bench.puzzles.nurikabe.generate.board import NurikabeState, Wall

STEPS = ((0, 1), (1, 0), (0, -1), (-1, 0))


class Settings(Protocol):
    """What :func:`pinned_solution` reads of :class:`NurikabeGenerator`."""

    @property
    def big(self) -> int: ...
    @property
    def bigmin(self) -> int: ...
    @property
    def bigmax(self) -> int: ...
    @property
    def start_island(self) -> int: ...
    @property
    def small(self) -> int: ...
    @property
    def black_share(self) -> tuple[float, float]: ...
    @property
    def join_weight(self) -> float: ...
    @property
    def small_piece(self) -> dict[int, float]: ...
    def cap(self, rows: int, cols: int) -> int: ...


#: the generator's parameters (``--param NAME=N``) of this module besides ``big``, with help
BIG_PARAMS = {
    "bigmin": "least cells of a big island (default 37; raised above the island cap)",
    "bigmax": "most cells of a big island (default 45; at least bigmin, above the island cap)",
    "small": "most cells of the other islands of the starting solution (default 0: 9); "
             "small ones (4) make it dense: many 1s and 2s that force the wall",
}


def size_range(gen: Settings, rows: int, cols: int) -> tuple[int, int]:
    """The big islands' sizes: ``gen.bigmin`` (raised to one above the island cap) to
    ``gen.bigmax``; :class:`GenerationError` in one line if ``bigmax`` is below ``bigmin``
    or not above the cap (a big island must be one that no edit of the generator reaches)."""
    if gen.bigmax < gen.bigmin:
        raise GenerationError(f"bad parameters bigmin={gen.bigmin}, bigmax={gen.bigmax}: "
                              "bigmax must be at least bigmin")
    cap = gen.cap(rows, cols)
    if gen.bigmax <= cap:
        raise GenerationError(f"bad parameter bigmax={gen.bigmax}: a big island on "
                              f"{rows}x{cols} must have more than {cap} cells (the island cap)")
    return max(gen.bigmin, cap + 1), gen.bigmax


def pinned_solution(gen: Settings, rows: int, cols: int,
                    rng: random.Random) -> NurikabeState | None:
    """A random solution with ``gen.big`` pinned big islands (module docstring), their
    sizes drawn uniformly from :func:`size_range`; None after 50 tries.
    :class:`GenerationError` if the grid inside a 2-cell margin has fewer than twice their
    smallest size per island."""
    lo, hi = size_range(gen, rows, cols)
    if (rows - 4) * (cols - 4) < 2 * lo * gen.big:
        raise GenerationError(f"nurikabe {rows}x{cols}: no room for {gen.big} big islands of "
                              f"{lo}+ cells (needs {2 * lo} cells each inside a 2-cell margin)")
    for _ in range(50):
        snakes: list[set[Cell]] = []
        boxes = tiles(rows, cols, gen.big, rng) if gen.big >= 3 else [None] * gen.big
        for box in boxes:
            size = rng.randint(lo, hi)
            b = next((b for _ in range(100)
                      if (b := snake(rows, cols, size, set().union(*snakes), rng, box))),
                     None)
            if b is None:
                break
            snakes.append(b)
        if len(snakes) == gen.big and (s := surround(gen, rows, cols, snakes, rng)):
            return s
    return None


Box = tuple[int, int, int, int]  # rows r0 <= r < r1, columns c0 <= c < c1


def tiles(rows: int, cols: int, count: int, rng: random.Random) -> list[Box]:
    """``count`` boxes for as many snakes: the grid cut into the fewest tiles of a
    ``tr x tc`` layout (tiles as square as may be) that hold ``count``, a random ``count`` of
    them; each box is its tile less two cells on its top and left and one on its bottom
    and right (the grid's own last two), so snakes in neighbouring tiles are four cells or
    more apart: halo, fence, halo between them. With three or more big islands
    :func:`pinned_solution` grows one snake in each (free placement leaves no room for the
    later ones)."""
    best: tuple[float, int, int] | None = None
    for tr in range(1, count + 1):
        tc = -(-count // tr)
        key = (abs(rows / tr - cols / tc) + tr * tc - count, tr, tc)
        best = key if best is None or key < best else best
    assert best is not None
    _, tr, tc = best
    rb = [rows * i // tr for i in range(tr + 1)]
    cb = [cols * j // tc for j in range(tc + 1)]
    boxes = [(rb[i] + 2, rb[i + 1] - (2 if i == tr - 1 else 1),
              cb[j] + 2, cb[j + 1] - (2 if j == tc - 1 else 1))
             for i in range(tr) for j in range(tc)]
    return rng.sample(boxes, count)


def snake(rows: int, cols: int, size: int, taken: set[Cell],
          rng: random.Random, box: Box | None = None) -> set[Cell] | None:
    """A snake of ``size`` cells in straight runs of 2-6 cells, two cells or more from the
    border and five or more from ``taken`` (rows and columns), inside ``box`` if one is
    given (then away from ``taken`` by the box alone), kept :func:`fenceable` as it grows;
    None if it runs into a dead end."""
    if box is not None:
        return boxed_snake(rows, cols, size, box, rng)

    def ok(v: Cell) -> bool:
        r, c = v
        return 2 <= r < rows - 2 and 2 <= c < cols - 2 and not any(
            (r + dr, c + dc) in taken for dr in range(-4, 5) for dc in range(-4, 5))
    free = [(r, c) for r in range(2, rows - 2) for c in range(2, cols - 2) if ok((r, c))]
    if not free:
        return None
    head = rng.choice(free)
    b, d = {head}, rng.choice(STEPS)
    while len(b) < size:
        run = min(rng.randint(2, 6), size - len(b))
        turns = [(d[1], d[0]), (-d[1], -d[0])]
        rng.shuffle(turns)
        for nd in ([d] if len(b) == 1 else []) + turns:
            cells = [(head[0] + i * nd[0], head[1] + i * nd[1]) for i in range(1, run + 1)]
            if all(ok(v) and v not in b for v in cells) and \
                    fenceable(rows, cols, b | set(cells)):
                b |= set(cells)
                head, d = cells[-1], nd
                break
        else:
            return None
    return b


def boxed_snake(rows: int, cols: int, size: int, box: Box, rng: random.Random,
                budget: int = 3000) -> set[Cell] | None:
    """:func:`snake` inside ``box``, by depth-first search: each step a run of 2-6 cells
    (the last one shorter if need be; a random order of lengths and turns, longer runs first
    on average) that stays in the box and keeps the snake :func:`fenceable` and
    :func:`open_around`; a dead end takes back the last run. None after ``budget`` runs
    tried."""
    r0, r1, c0, c1 = box
    inside = [(r, c) for r in range(r0, r1) for c in range(c0, c1)]
    head = rng.choice(inside)
    body: list[Cell] = [head]
    b = {head}
    tried = 0

    def options(d: tuple[int, int] | None) -> list[tuple[tuple[int, int], int]]:
        dirs = list(STEPS) if d is None else [(d[1], d[0]), (-d[1], -d[0])]
        rng.shuffle(dirs)
        runs = sorted(range(2, 7), key=lambda n: rng.random() * n, reverse=True)
        return [(nd, n) for n in runs for nd in dirs]

    stack: list[tuple[list[tuple[tuple[int, int], int]], int]] = [(options(None), 1)]
    while stack:
        opts = stack[-1][0]
        if not opts:
            stack.pop()
            if stack:
                for v in body[stack[-1][1]:]:
                    b.discard(v)
                del body[stack[-1][1]:]
            continue
        nd, n = opts.pop()
        tried += 1
        if tried > budget:
            return None
        hr, hc = body[-1]
        n = min(n, size - len(b))
        cells = [(hr + i * nd[0], hc + i * nd[1]) for i in range(1, n + 1)]
        if not all(r0 <= r < r1 and c0 <= c < c1 and (r, c) not in b for r, c in cells) or \
                not fenceable(rows, cols, b | set(cells)) or \
                not open_around(box, b | set(cells)):
            continue
        body.extend(cells)
        b.update(cells)
        if len(b) == size:
            return b
        stack.append((options(nd), len(body)))
    return None


def open_around(box: Box, b: set[Cell]) -> bool:
    """Whether every cell of ``box`` outside ``b`` reaches the box's border ring (the cells
    just outside it) through cells outside ``b``: a snake coiled round a pocket would cut
    the wall in the pocket off from the rest."""
    r0, r1, c0, c1 = box[0] - 1, box[1] + 1, box[2] - 1, box[3] + 1
    todo = [(r, c) for r in range(r0, r1) for c in range(c0, c1)
            if r in (r0, r1 - 1) or c in (c0, c1 - 1)]
    seen = set(todo)
    while todo:
        r, c = todo.pop()
        for dr, dc in STEPS:
            v = (r + dr, c + dc)
            if r0 <= v[0] < r1 and c0 <= v[1] < c1 and v not in seen and v not in b:
                seen.add(v)
                todo.append(v)
    return len(seen) + len(b) == (r1 - r0) * (c1 - c0)


def ring(rows: int, cols: int, b: set[Cell]) -> set[Cell]:
    """The cells next to ``b``."""
    return {m for v in b for m in neighbours(v, rows, cols) if m not in b}


def halo(rows: int, cols: int, b: set[Cell]) -> set[Cell]:
    """The cells next to ``b`` or diagonal to it: all black, a connected wall around ``b``
    (with the diagonal cells black, the snake cannot lose a tip or a turn cell to another
    solution: that would make a 2x2 black block)."""
    return {(r + dr, c + dc) for r, c in b for dr in (-1, 0, 1) for dc in (-1, 0, 1)
            if 0 <= r + dr < rows and 0 <= c + dc < cols and (r + dr, c + dc) not in b}


def fenceable(rows: int, cols: int, b: set[Cell]) -> bool:
    """Whether the halo of ``b`` holds no 2x2 block and each cell next to ``b`` once has a
    neighbour outside ``b`` and the halo, to fence it (a cell next to it twice -- an inner
    corner of a turn, or a one-cell gap between two runs -- cannot be fenced; the gaps are
    allowed, refusing them did not make generation converge)."""
    around = halo(rows, cols, b)
    # a 2x2 block inside the halo has its top-left corner in the halo: only those are tried
    if any(r < rows - 1 and c < cols - 1 and all(
            (r + i, c + j) in around for i in (0, 1) for j in (0, 1)) for r, c in around):
        return False
    return all(sum(u in b for u in nbrs) >= 2 or any(u not in b and u not in around
                                                     for u in nbrs)
               for v in ring(rows, cols, b) for nbrs in [neighbours(v, rows, cols)])


def surround(gen: Settings, rows: int, cols: int, snakes: list[set[Cell]],
             rng: random.Random) -> NurikabeState | None:
    """The solution around ``snakes``: their halos black and linked into one wall, then the
    wall grown as in :meth:`NurikabeGenerator.random_solution` (small islands up to
    ``gen.small``, else ``gen.start_island``), no cell taking the last fence of a cell next
    to a snake. None if the wall cannot be linked or a piece above the island cap cannot be
    cut."""
    taken = set().union(*snakes)
    wall = Wall(rows, cols, gen.join_weight, gen.small_piece)
    fenced = set().union(*(ring(rows, cols, b) for b in snakes))
    for v in sorted(set().union(*(halo(rows, cols, b) for b in snakes))):
        wall.blacken(v)
    big = {wall.comp[r][c] for b in snakes for r, c in [min(b)]}

    def spares(v: Cell) -> bool:  # v can turn black: no ring cell loses its last fence
        return all(any(u != v and not wall.black(*u) and u not in taken
                       for u in neighbours(w, rows, cols))
                   for w in neighbours(v, rows, cols) if w in fenced)

    if not link(wall, taken, fenced, spares, rng):
        return None
    blacks = sum(wall.black(*v) for v in ((r, c) for r in range(rows) for c in range(cols)))
    target = rng.uniform(*gen.black_share) * rows * cols
    if not grow_wall(wall, big, (gen.small or gen.start_island, gen.cap(rows, cols)),
                     target - blacks,
                     spares, rng):
        return None
    s = wall.state()
    s.anchors = [min(b) for b in snakes]
    s.pinned = set().union(*(halo(rows, cols, b) for b in snakes))
    return s


def grow_wall(wall: Wall, big: set[int], caps: tuple[int, int], more: float,
              spares: Callable[[Cell], bool], rng: random.Random) -> bool:
    """:meth:`NurikabeGenerator.random_solution`'s wall growth, the big islands ``big`` left
    whole and only cells that ``spares`` allows turned black: until no other white piece
    exceeds ``caps[0]`` and ``more`` more cells are black. A piece that cannot be cut stays
    (on 50x50 grids with three snakes every try had one of 10-11 cells); False if it
    exceeds ``caps[1]``."""
    cap, most = caps
    while True:
        live = [k for k in wall.comps if k not in big]
        over = [k for k in live if len(wall.comps[k]) > cap and k not in wall.done]
        if not over and more <= 0:
            return True
        ks = over or [k for k in live if len(wall.comps[k]) > 1 and k not in wall.done]
        if not ks:
            return True
        k = rng.choices(ks, [len(wall.comps[k]) ** 2 for k in ks])[0]
        cands = [v for v in wall.frontier if wall.comp[v[0]][v[1]] == k
                 and not wall.makes_pool(v) and spares(v)]
        if not cands:
            if len(wall.comps[k]) > most:
                return False
            wall.done.add(k)
            continue
        wall.blacken(rng.choices(cands, [wall.weight(v) for v in cands])[0])
        more -= 1


def link(wall: Wall, taken: set[Cell], fenced: set[Cell], spares: Callable[[Cell], bool],
         rng: random.Random) -> bool:
    """Join the wall's pieces (one halo per snake) by cheapest paths of white cells outside
    the snakes, from the largest piece to the nearest other: a cell next to a cell of
    ``fenced`` (next to a snake) costs 3, one taking such a cell's last fence 50, others 1
    (a path cell that a 2x2 block made unusable is left out and another path sought). False
    if a piece cannot be reached."""
    rows, cols = wall.rows, wall.cols
    forbidden: set[Cell] = set()

    def usable(v: Cell) -> bool:
        return not wall.black(*v) and v not in taken and v not in forbidden \
            and not wall.makes_pool(v)

    def cost(u: Cell) -> float:
        if not any(w in fenced for w in neighbours(u, rows, cols)):
            return 1.0
        return 3.0 if spares(u) else 50.0

    while True:
        black = [(r, c) for r in range(rows) for c in range(cols) if wall.black(r, c)]
        parts = sorted(components(black, rows, cols), key=len, reverse=True)
        if len(parts) == 1:
            return True
        main = set(parts[0])
        prev: dict[Cell, Cell | None] = {}
        heap: list[tuple[float, float, Cell, Cell | None]] = [
            (cost(v), rng.random(), v, None) for u in sorted(main)
            for v in neighbours(u, rows, cols) if usable(v)]
        heapq.heapify(heap)
        hit = None
        while heap and hit is None:
            d, _, v, p = heapq.heappop(heap)
            if v in prev:
                continue
            prev[v] = p
            if any(wall.black(*u) and u not in main for u in neighbours(v, rows, cols)):
                hit = v
            for u in neighbours(v, rows, cols):
                if hit is None and u not in prev and usable(u):
                    heapq.heappush(heap, (d + cost(u), rng.random(), u, v))
        if hit is None:
            return False
        path: list[Cell] = []
        x: Cell | None = hit
        while x is not None:
            path.append(x)
            x = prev[x]
        for v in reversed(path):
            if not usable(v):
                forbidden.add(v)
                break
            wall.blacken(v)


def freeze(s: NurikabeState, options: dict[str, list[Any]]) -> None:
    """Leave out the edit options of :meth:`NurikabeGenerator.edit` that change a big island
    (:attr:`NurikabeState.anchors`): its clue may move, nothing else. No clue moves in a
    difference that holds a cell of an island with a fixed clue (:attr:`NurikabeState.fences`:
    the move edit picks any island of the difference)."""
    if any(s.fenced(s.island[r][c]) for r, c in options["move"]):
        options["move"] = []
    big = {s.island[r][c] for r, c in s.anchors}
    if not big:
        return
    options["grow"] = [(v, k) for v, k in options["grow"] if k not in big]
    options["shrink"] = [v for v in options["shrink"] if s.island[v[0]][v[1]] not in big]
    options["split"] = [(d, b) for d, b in options["split"] if s.island[d[0]][d[1]] not in big]
    options["reshape"] = [o for o in options["reshape"] if o[0] not in big]
    options["merge"] = [v for v in options["merge"] if not s.adjacent_islands(v) & big]
