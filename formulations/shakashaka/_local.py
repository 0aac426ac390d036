"""Shakashaka's exact local characterisation, shared by ``sat-local``, ``cpsat-local`` and
``mip-local`` (pure Python: no solver imports).

Sector model
------------
Each cell is cut by its two diagonals into four quarters N, E, S, W
(:data:`bench.puzzles.shakashaka.rules.WHITE_QUARTERS`). An open cell has exactly five
quarter patterns: all four white (``"."``) or two adjacent ones white (a triangle, named by
its black corner). Given black cells and everything outside the grid are black. Around each
grid point lie 8 sectors of 45 degrees, two quarters of each of the (up to) four cells
touching it (:func:`bench.puzzles.shakashaka.rules.sectors`, clockwise); consecutive sectors
around the point share a side (a half-diagonal inside a cell or a half-edge between cells),
so white sectors form circular runs ("wedges"), a run of k sectors being a corner of its white
area with interior angle 45k degrees.

Characterisation
----------------
A choice of cell patterns has every white area a rectangle (upright or at 45 degrees) iff at
every grid point every wedge spans 90, 180 or 360 degrees (2, 4 or 8 sectors); 45, 135, 225,
270 and 315 degrees are forbidden.

Proof sketch. Necessary: a rectangle with sides on grid lines or diagonals has its corners at
grid points, where it meets a point in one wedge of 90 (corner), 180 (side) or 360 (inside)
degrees; and nothing else of the white area can touch that wedge's sectors from the same side
(they would be joined). Sufficient: the boundary of the white area consists of cell edges and
cell diagonals; inside a cell and at an edge's midpoint it is straight (every open pattern is
a half-plane or everything there), so corners lie only at grid points. With every wedge of
2, 4 or 8 sectors, every boundary corner is a convex right angle, so each boundary curve of a
white area, traced with the area on its left, turns by +90 degrees at each corner and never
back. A closed curve that only turns left turns by +360 in total: it has exactly four right
angle corners and is a convex rectangle, simple (so an area never touches itself at a point).
A hole's boundary would have to turn by -360 degrees, which needs a reflex corner (a 270
wedge): so there are no holes, and each white area is the rectangle bounded by its one curve.
The verifier's extra "touches itself" test is therefore implied; the tests confirm the
equivalence with the verifier and with a brute-force rectangle test on random grids.

Encoding
--------
Variables: ``("q", r, c, Q)`` true iff quarter Q of open cell (r, c) is white, and
``("w", r, c)`` true iff the cell is all white (no triangle). Clauses (:func:`local_cnf`):

* cell patterns: N or S; E or W; N and S imply E and W; E and W imply N and S (exactly the
  five patterns); ``w`` iff N and S (with the above, iff all four);
* wedges: for every grid point, every forbidden length L in 1, 3, 5, 6, 7 and every start p,
  "sector p-1 black, sectors p..p+L-1 white, sector p+L black" is excluded by one clause.
  Sectors that are black by the givens drop out (a run through one cannot occur; a black end
  is a false literal).

The number rule (a clue counts the triangles, i.e. open neighbours with ``w`` false) is left
to each kind's cardinality constraint (:func:`clue_neighbours`).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from bench.grid import neighbours
from bench.instance import Instance
from bench.puzzles import SolutionGrid
from bench.puzzles.shakashaka.rules import BLACK, WHITE_QUARTERS, Quarter, is_black, sectors

N, E, S, W = 0, 1, 2, 3
#: forbidden wedge lengths, in 45-degree sectors
FORBIDDEN = (1, 3, 5, 6, 7)
#: a literal of the shared CNF: (variable key, polarity)
Key = tuple[Any, ...]
Lit = tuple[Key, bool]


def is_open(inst: Instance, r: int, c: int) -> bool:
    """Inside the grid and not a given black cell: white or a triangle."""
    return 0 <= r < inst.rows and 0 <= c < inst.cols and not is_black(inst.grid[r][c])


def open_cells(inst: Instance) -> list[tuple[int, int]]:
    return [(r, c) for r in range(inst.rows) for c in range(inst.cols) if is_open(inst, r, c)]


def qkey(r: int, c: int, q: int) -> Key:
    return ("q", r, c, q)


def wkey(r: int, c: int) -> Key:
    return ("w", r, c)


def keys(inst: Instance) -> list[Key]:
    """Every variable of the local model: four quarter keys and the white key of each open
    cell, in reading order."""
    return [key for r, c in open_cells(inst)
            for key in (*(qkey(r, c, q) for q in range(4)), wkey(r, c))]


def cell_cnf(r: int, c: int) -> list[list[Lit]]:
    """An open cell takes one of its five quarter patterns; ``w`` iff all white."""
    n, e, s, w, a = qkey(r, c, N), qkey(r, c, E), qkey(r, c, S), qkey(r, c, W), wkey(r, c)
    return [
        [(n, True), (s, True)], [(e, True), (w, True)],
        [(n, False), (s, False), (e, True)], [(n, False), (s, False), (w, True)],
        [(e, False), (w, False), (n, True)], [(e, False), (w, False), (s, True)],
        [(a, False), (n, True)], [(a, False), (s, True)], [(a, True), (n, False), (s, False)],
    ]


def _patterns(live: tuple[bool, ...]) -> list[tuple[list[int], list[int]]]:
    """The forbidden wedges around a point whose open sectors are ``live``, as sector
    positions (run, open ends); memoised by :data:`_PATTERNS` (there are at most 256 masks)."""
    out = []
    for length in FORBIDDEN:
        for p in range(8):
            if all(live[(p + k) % 8] for k in range(length)):
                ends = sorted({(p - 1) % 8, (p + length) % 8})
                out.append(([(p + k) % 8 for k in range(length)], [k for k in ends if live[k]]))
    return out


_PATTERNS: dict[tuple[bool, ...], list[tuple[list[int], list[int]]]] = {}


def point_wedges(inst: Instance
                 ) -> Iterator[tuple[list[Quarter], list[tuple[list[int], list[int]]]]]:
    """Per grid point with an open sector: its 8 sectors and the forbidden wedges the givens
    leave possible there, as positions among them (run, open ends)."""
    rows, cols = inst.rows, inst.cols
    # open cells, with a closed border round the grid (index r + 1, c + 1)
    is_live = [[False] * (cols + 2)] + [
        [False, *(not is_black(v) for v in row), False] for row in inst.grid
    ] + [[False] * (cols + 2)]
    for i in range(rows + 1):
        for j in range(cols + 1):
            secs = sectors(i, j)
            live = tuple(is_live[r + 1][c + 1] for r, c, _ in secs)
            if not any(live):
                continue
            if live not in _PATTERNS:
                _PATTERNS[live] = _patterns(live)
            yield secs, _PATTERNS[live]


def wedge_patterns(inst: Instance) -> Iterator[tuple[list[Quarter], list[Quarter]]]:
    """Every forbidden wedge that the givens leave possible, as (its sectors, which must not
    all be white; its open end sectors, of which one must be white)."""
    for secs, patterns in point_wedges(inst):
        for run, ends in patterns:
            yield [secs[k] for k in run], [secs[k] for k in ends]


def wedge_cnf(inst: Instance) -> list[list[Lit]]:
    """One clause per forbidden wedge (over quarter variables)."""
    return [[(qkey(*s), False) for s in run] + [(qkey(*s), True) for s in ends]
            for run, ends in wedge_patterns(inst)]


def local_cnf(inst: Instance) -> list[list[Lit]]:
    """The whole characterisation (cell patterns and wedges) without the number rule."""
    return [cl for r, c in open_cells(inst) for cl in cell_cnf(r, c)] + wedge_cnf(inst)


def local_dimacs(inst: Instance, quarter: dict[Quarter, int], white: dict[tuple[int, int], int]
                 ) -> list[list[int]]:
    """:func:`local_cnf` over integer variables (``quarter[r, c, q]``, ``white[r, c]``), for a
    SAT build without a key per literal: the same clauses, in the same order."""
    out: list[list[int]] = []
    for r, c in open_cells(inst):
        n, e, s, w = (quarter[r, c, q] for q in (N, E, S, W))
        a = white[r, c]
        out += [[n, s], [e, w], [-n, -s, e], [-n, -s, w], [-e, -w, n], [-e, -w, s],
                [-a, n], [-a, s], [a, -n, -s]]
    for secs, patterns in point_wedges(inst):
        lit = [quarter.get(sec, 0) for sec in secs]
        out += [[-lit[k] for k in run] + [lit[k] for k in ends] for run, ends in patterns]
    return out


def clue_neighbours(inst: Instance) -> list[tuple[int, list[tuple[int, int]]]]:
    """Per number: (the number, its open neighbours, which may hold triangles)."""
    return [(v, [n for n in neighbours((r, c), inst.rows, inst.cols) if is_open(inst, *n)])
            for r, c, v in inst.clues() if isinstance(v, int)]


def value_of(white: dict[int, bool]) -> str:
    """The solution token of an open cell from its quarters' whiteness."""
    on = frozenset(q for q, v in white.items() if v)
    for token, quarters in WHITE_QUARTERS.items():
        if token != BLACK and quarters == on:
            return token
    raise ValueError(f"quarters {sorted(on)} are not a cell pattern")


def grid_from_quarters(inst: Instance, white: dict[Quarter, bool]) -> SolutionGrid:
    return [[value_of({q: white[r, c, q] for q in (N, E, S, W)}) if is_open(inst, r, c)
             else BLACK for c in range(inst.cols)] for r in range(inst.rows)]


def quarters_of(grid: SolutionGrid) -> dict[Quarter, bool]:
    """Whiteness of every quarter of a concrete grid."""
    return {(r, c, q): q in WHITE_QUARTERS[v] for r, row in enumerate(grid)
            for c, v in enumerate(row) for q in (N, E, S, W)}


def wedges_ok(grid: SolutionGrid) -> bool:
    """The characterisation on a concrete grid (any cells, ``"#"`` black): every wedge at
    every grid point spans 2, 4 or 8 sectors."""
    rows, cols = len(grid), len(grid[0]) if grid else 0

    def white(r: int, c: int, q: int) -> bool:
        return 0 <= r < rows and 0 <= c < cols and q in WHITE_QUARTERS[grid[r][c]]

    for i in range(rows + 1):
        for j in range(cols + 1):
            ring = [white(*s) for s in sectors(i, j)]
            if all(ring):
                continue
            start = ring.index(False)
            length = 0
            for step in range(1, 9):
                if ring[(start + step) % 8]:
                    length += 1
                elif length:
                    if length in FORBIDDEN:
                        return False
                    length = 0
    return True
