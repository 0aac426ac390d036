"""The bounds of the frontier programme of :mod:`bench.puzzles.nurikabe.frontier`: what one run
packs in a tally, and the largest and allowed tallies after a cell, from the cells each colour
still needs at least (to join its components on the frontier, to reach its clue, to wall off
the islands still to grow). A bound drops only partial colourings that no completion makes a
solution, so the counts stay exact."""

from __future__ import annotations

from dataclasses import dataclass

from bench.grid import Cell
from bench.puzzles.nurikabe.frontier_planar import joinable

#: bits of one tally (an island's cells or the wall's) in a packed state
BITS = 8
Profile = tuple[tuple[int, ...], int, int]  # frontier codes, diagonal colour, closed colours
#: bits of one field of a packed tally: a tally field (below ``1 << BITS``) and a guard bit
FIELD = BITS + 1
GUARD = 1 << BITS
States = dict[Profile, dict[int, int]]
#: what placing a colour on a frontier gives (see ``frontier._place``): None, or the new
#: profile with the closed colour's bit and that colour (-1: none)
Placed = tuple[Profile, int] | None


@dataclass
class Sweep:
    """One run of the programme: the turned grid and what a tally and its value pack.

    A tally packs a field of :data:`FIELD` bits per colour (the wall's lowest, then island
    ``i`` at ``pos[i]``), the cells of that colour so far, and above them one bit per excluded
    solution. ``width``: the bits of a cell's colour in a witness (0: no witness); ``above``:
    where the number of colourings sits in a value; ``agree[i][x]``: the mask a tally takes
    when cell ``i`` gets colour ``x`` (clearing the bits of the excluded solutions of another
    colour there; -1: none); ``budget``: the state budget is checked within a step too."""

    rows: int
    cols: int
    clue_at: dict[Cell, int]
    sizes: list[int]
    witness: bool
    agree: list[list[int]]
    deadline: float | None
    max_states: int
    budget: bool

    def __post_init__(self) -> None:
        k = len(self.sizes)
        self.k = k
        self.walls = self.rows * self.cols - sum(self.sizes)
        self.pos = [FIELD * (i + 1) for i in range(k)] + [0]
        self.limit = [*self.sizes, self.walls]
        self.full = [self.limit[x] << self.pos[x] for x in range(k + 1)]
        self.guards = sum(GUARD << p for p in self.pos)
        self.clue_cell = [0] * k
        for (r, c), i in self.clue_at.items():
            self.clue_cell[i] = r * self.cols + c
        self.width = k.bit_length() if self.witness else 0
        self.above = self.width * self.rows * self.cols
        self.keep = -1 << self.above  # a merge keeps the first value's witness
        # a cache of bound() by (frontier, closed colours, column of the last cell) while the
        # clues to come and whether a row lies below stay the same (the phase)
        self.bounds: dict[tuple[tuple[int, ...], int, int], int] = {}
        self.phase: tuple[tuple[bool, ...], bool] | None = None
        # per column, _place's answers by (frontier, colour): the same frontiers come back
        # row after row
        self.places: list[dict[tuple[tuple[int, ...], int], Placed]] = [
            {} for _ in range(self.cols)]
        # per column, in the phase: a profile's move by (frontier, closed colours, colour):
        # the new frontier, closed colours, colour that must be complete, bound, diagonal
        # colour, enclosed islands (None: none)
        self.moves: list[dict[tuple[tuple[int, ...], int, int],
                              tuple[tuple[int, ...], int, int, int, int, int] | None]] = [
            {} for _ in range(self.cols)]


def bound(codes: tuple[int, ...], closed: int, sw: Sweep, r: int, cell: int) -> int:
    """The largest tally each colour may have after cell ``cell`` (in row ``r``) with the
    frontier ``codes``, packed with the guard bits (-1: none is possible): its size less the
    cells it still needs at least. A colour with two or more components on the frontier
    needs the cells of :func:`spans` to join them;
    an island whose clue is still to come needs that cell. While a row lies below the current
    one, the cells still to come are connected and each frontier cell has one below it: if two
    islands are still to grow or close (on the frontier or clue to come), the wall needs a
    cell -- between them, or below an island that is full (it can touch no other island).
    A frontier whose components cannot be joined below it without crossing joins of two
    colours (:func:`.frontier_planar.joinable`) allows nothing."""
    k = sw.k
    if not joinable(codes):
        return -1
    comps_of = [0] * (k + 1)
    for q in set(codes):
        if q >= 0:
            comps_of[q >> 6] += 1
    bound = 0
    present = 0
    for x in range(k + 1):
        if closed >> x & 1:
            need = 0
        else:
            comps = comps_of[x]
            need = spans(codes, x, cell - r * sw.cols) if comps > 1 else 0
            if x < k and sw.clue_cell[x] > cell:
                need = max(need, 1)
                present += 1
            elif x < k and comps:
                present += 1
        if x == k and present >= 2 and r + 1 < sw.rows:
            need = max(need, 1)
        if need > sw.limit[x]:
            return -1
        bound |= (sw.limit[x] - need | GUARD) << sw.pos[x]
    return bound


def spans(codes: tuple[int, ...], x: int, c: int) -> int:
    """The fewest cells still to come that join the components of colour ``x`` on the frontier
    ``codes`` (the last cell placed in column ``c``), at least two. Joining frontier cells ``p
    < q`` takes a path of cells still to come from a neighbour of ``p`` (below it, or right of
    it when ``p == c``: column ``p + 1``) to one of ``q`` (below it), a cell in each column
    between: a run of such joins from ``s`` to ``e`` takes ``e - s + 1`` cells, one less when
    ``s == c``. Weighing the join of two neighbouring cells of the colour (in column order)
    ``q - p``, less one when ``p == c``, the runs of any joining set take at least their weights
    and one more cell each: at least the lightest weights that join every component
    (Kruskal's spanning tree over the components, which the frontier's labels already join in
    part) and one."""
    joins = []  # (weight, label, label) of neighbouring cells of the colour, labels apart
    before, label = -1, -1
    for j, q in enumerate(codes):
        if q >= 0 and q >> 6 == x:
            if before >= 0 and q != label:
                joins.append((j - before - (before == c), label, q))
            before, label = j, q
    if len(joins) == 1:
        return 1 + joins[0][0]
    joins.sort()
    parent: dict[int, int] = {}
    total = 1
    for weight, a, b in joins:
        while a in parent:
            a = parent[a]
        while b in parent:
            b = parent[b]
        if a != b:
            parent[a] = b
            total += weight
    return total


def walled(m: int, h: int, part: int, cols: int) -> int:
    """The fewest cells that can border ``m`` cells of an island within the cells still to
    come (``part`` cells of the current row, then ``h`` full rows of ``cols``), where each
    bordering cell is wall. Of the island's cells in the full rows (``P``, at least
    ``m - part``): a full row holding cells of ``P`` and others has a bordering cell, and so
    has such a column; if ``P`` fills no full row and no column, each row and each column it
    touches is such; if it fills a column but no row, every row is; a row but no column, every
    column; both, then the other cells (at least ``h * cols - m``) fill no row and no column,
    and each row and column they touch is such. The least over the cases possible."""
    if h == 0 or m <= 0:
        return 0
    least = max(0, m - part)
    fewest = max(-(-least // cols), -(-least // h))
    if m >= h:
        fewest = min(fewest, h)
    if m >= cols:
        fewest = min(fewest, cols)
    if m >= h + cols - 1:
        rest = max(0, h * cols - m)
        fewest = min(fewest, max(-(-rest // cols), -(-rest // h)))
    return fewest


def separated(sw: Sweep, r: int, c: int) -> tuple[int, frozenset[int]]:
    """With one or two islands, a mask of a tally's wall and first island fields and the
    values they may take after cell ``(r, c)``: every island still to grow is bordered by wall
    cells still to come (:func:`walled`: their cells are of no island), so the wall cells
    still to come must be at least that many; the last field follows from the cells so far.
    With three islands or where nothing is ruled out, a mask and values that allow all."""
    if sw.k > 2:
        return 0, frozenset({0})
    h = sw.rows - 1 - r
    part = sw.cols - 1 - c
    done = r * sw.cols + c + 1
    mask = (GUARD - 1) | ((GUARD - 1) << sw.pos[0] if sw.k == 2 else 0)
    ok = set()
    every = True
    for w in range(min(sw.walls, done) + 1):
        for t0 in range(min(sw.sizes[0], done - w) + 1):
            rest = done - w - t0
            if (sw.k == 1 and rest) or (sw.k == 2 and rest > sw.sizes[1]):
                continue
            needs = [size - t for size, t in zip(sw.sizes, (t0, rest), strict=False)]
            if sw.walls - w >= max(walled(n, h, part, sw.cols) for n in needs):
                ok.add(w | t0 << sw.pos[0] if sw.k == 2 else w)
            else:
                every = False
    return (0, frozenset({0})) if every else (mask, frozenset(ok))

