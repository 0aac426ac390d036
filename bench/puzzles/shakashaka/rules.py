"""Shakashaka: place half-black triangles in white cells so that every numbered black cell has
exactly that many triangles among its 4 orthogonal neighbours, and every white region is a
rectangle, either upright or rotated by 45 degrees.

Instance tokens: ``.`` empty (white) cell, ``#`` black cell without number, ``0``..``4`` black
cell with a number. Solution: ``"#"`` for each black cell of the instance, ``"."`` white, or a
triangle named by its black corner: ``"◢"`` (bottom-right black), ``"◣"`` (bottom-left),
``"◤"`` (top-left), ``"◥"`` (top-right).

Geometry
--------
Each cell is cut by both diagonals into four quarters N, E, S, W (the triangles from the cell
centre to each edge). ``"."`` has all four white, ``"#"`` none, and a triangle two adjacent ones
(``"◢"`` has N and W white, ``"◣"`` N and E, ``"◤"`` S and E, ``"◥"`` S and W). The white area
is the union of the white quarters; two white quarters are joined when they share a side:
adjacent quarters of one cell (they share half a diagonal), or quarters facing each other across
an edge between two cells. A white region is a connected component of that graph.

Rectangle test
--------------
Every grid point (cell corner) has 8 sectors of 45 degrees around it: each of the up to four
cells touching the point contributes the two quarters that meet at that corner (the diagonal
through the corner splits it in two). Outside the grid counts as black. Going round the point,
two consecutive white sectors are joined (same cell across a diagonal, or across the grid edge
between two cells), so the white sectors form circular *runs*, each lying in one region, and a
run of k sectors is a corner of interior angle 45k degrees of that region.

A white region is a rectangle iff, at every grid point, each of its runs has 2, 4 or 8 sectors
(a 90 degree corner, a straight side, an interior point) and it has at most one run there.

- Necessary: the region's sides run along grid lines or cell diagonals, so it is an upright or
  a 45-degree rectangle whose corners are grid points; it has 90 degree angles at its four
  corners, 180 degrees along its sides, 360 degrees inside, and, being convex, meets each grid
  point in at most one wedge.
- Sufficient: corners of the white area can only lie at grid points (within a cell the only
  boundary lines are its edges and one straight diagonal, meeting cell edges only at grid
  points). With one run per point and no run of 1, 3, 5, 6 or 7 sectors, the closed region is a
  compact surface whose boundary is a disjoint union of simple closed polygons, each turning by
  exactly +90 degrees at every corner (interior angle 90). The outer boundary turns by +360
  degrees in total, so it has exactly four corners, all right angles: a rectangle. A hole's
  boundary would have to turn by -360 degrees, which needs a reflex corner, so there is none.

Hence the verifier only looks at the 8 sectors around each grid point; the same test rejects an
L-shaped region (a 270 degree corner), a 45-degree point (a lone triangle tip) and a region that
touches itself at a point.
"""

from __future__ import annotations

from collections.abc import Iterable

from bench.grid import neighbours
from bench.instance import Instance
from bench.puzzles import Default, Puzzle, SolutionGrid, register_puzzle

BLACK = "#"
WHITE = "."
TRIANGLES = ("◢", "◣", "◤", "◥")
SOLUTION_VALUES = (BLACK, WHITE, *TRIANGLES)

N, E, S, W = 0, 1, 2, 3
#: the quarters each solution value leaves white
WHITE_QUARTERS: dict[str, frozenset[int]] = {
    WHITE: frozenset((N, E, S, W)),
    BLACK: frozenset(),
    "◢": frozenset((N, W)),  # bottom-right black
    "◣": frozenset((N, E)),  # bottom-left black
    "◤": frozenset((S, E)),  # top-left black
    "◥": frozenset((S, W)),  # top-right black
}

Quarter = tuple[int, int, int]  # (row, col, N/E/S/W)


def is_black(value: object) -> bool:
    """An instance cell value that is black: ``"#"`` or a number."""
    return value is not None


def sectors(i: int, j: int) -> list[Quarter]:
    """The 8 quarters meeting at grid point (i, j) (the top-left corner of cell (i, j)), in
    clockwise order starting from the ray pointing up; some may lie outside the grid."""
    return [
        (i - 1, j, W), (i - 1, j, S),  # north-east cell, its bottom-left corner
        (i, j, N), (i, j, W),  # south-east cell, its top-left corner
        (i, j - 1, E), (i, j - 1, N),  # south-west cell, its top-right corner
        (i - 1, j - 1, S), (i - 1, j - 1, E),  # north-west cell, its bottom-right corner
    ]


def white_regions(grid: SolutionGrid) -> dict[Quarter, int]:
    """Label every white quarter with its region number (regions numbered in reading order of
    their first quarter). ``grid`` must hold only :data:`SOLUTION_VALUES`."""
    rows, cols = len(grid), len(grid[0]) if grid else 0
    white = {
        (r, c, q) for r in range(rows) for c in range(cols) for q in WHITE_QUARTERS[grid[r][c]]
    }
    across = {N: (-1, 0, S), S: (1, 0, N), E: (0, 1, W), W: (0, -1, E)}
    label: dict[Quarter, int] = {}
    k = -1
    for start in sorted(white):
        if start in label:
            continue
        k += 1
        label[start] = k
        stack = [start]
        while stack:
            r, c, q = stack.pop()
            dr, dc, facing = across[q]
            for nxt in ((r, c, (q + 1) % 4), (r, c, (q + 3) % 4), (r + dr, c + dc, facing)):
                if nxt in white and nxt not in label:
                    label[nxt] = k
                    stack.append(nxt)
    return label


def corner_runs(label: dict[Quarter, int], i: int, j: int) -> list[tuple[int, int]]:
    """The white runs around grid point (i, j) as ``(region, number of 45-degree sectors)``."""
    ids = [label.get(s, -1) for s in sectors(i, j)]  # -1: black or outside the grid
    if -1 not in ids:
        return [(ids[0], 8)]
    start = ids.index(-1)
    runs: list[tuple[int, int]] = []
    length = 0
    for step in range(1, 9):  # once round, from just after a black sector back to it
        k = ids[(start + step) % 8]
        if k >= 0:
            length += 1
            region = k
        elif length:
            runs.append((region, length))
            length = 0
    return runs


def region_problems(grid: SolutionGrid, label: dict[Quarter, int] | None = None) -> list[str]:
    """One message per white region that is not a rectangle (see the module docstring)."""
    if label is None:
        label = white_regions(grid)
    rows, cols = len(grid), len(grid[0]) if grid else 0
    first: dict[int, Quarter] = {}
    for quarter, k in sorted(label.items()):
        first.setdefault(k, quarter)
    # per region, the first grid point of each kind of fault (bounded: 6 kinds at most)
    bad: dict[int, dict[str, tuple[int, int]]] = {}
    for i in range(rows + 1):
        for j in range(cols + 1):
            runs = corner_runs(label, i, j)
            for k, length in runs:
                if length not in (2, 4, 8):
                    bad.setdefault(k, {}).setdefault(f"a {45 * length}-degree corner", (i, j))
                elif sum(1 for k2, _ in runs if k2 == k) > 1:
                    bad.setdefault(k, {}).setdefault("touches itself", (i, j))
    out = []
    for k in sorted(bad):
        r, c, _ = first[k]
        faults = "; ".join(
            f"{'' if kind.startswith('touches') else 'has '}{kind} at grid point ({i},{j})"
            for kind, (i, j) in bad[k].items()
        )
        out.append(f"white region at ({r},{c}) is not a rectangle: it {faults}")
    return out


@register_puzzle
class Shakashaka(Puzzle):
    solution_cells = '"#" black, "." white, triangles "◢" "◣" "◤" "◥" (named by the black corner)'
    default = Default("sat-local[card=seqcounter]", "cadical195")

    def parse_token(self, tok: str) -> int | str | None:
        if tok == ".":
            return None
        if tok == BLACK:
            return BLACK
        if tok.isdigit() and len(tok) == 1 and int(tok) <= 4:
            return int(tok)
        raise ValueError(f"illegal token {tok!r} (expected '.', '#' or a number 0..4)")

    def validate(self, inst: Instance) -> Iterable[tuple[int | None, str]]:
        """A number larger than its count of white (non-black) neighbours cannot be met:
        triangles only go in white cells (e.g. a 4 on the edge of the grid)."""
        for r, c, v in inst.clues():
            if isinstance(v, int):
                free = [
                    n for n in neighbours((r, c), inst.rows, inst.cols)
                    if not is_black(inst.grid[n[0]][n[1]])
                ]
                if v > len(free):
                    yield r, (
                        f"number {v} at row {r}, column {c} has only {len(free)} white "
                        f"neighbour(s) to hold triangles"
                    )

    def verify(self, inst: Instance, grid: SolutionGrid) -> list[str]:
        problems = self.verify_cells(inst, grid, lambda v: isinstance(v, str) and v in
                                     SOLUTION_VALUES, f"one of {' '.join(SOLUTION_VALUES)}")
        if problems:
            return problems
        rows, cols = inst.rows, inst.cols
        for r in range(rows):
            for c in range(cols):
                v, given = grid[r][c], inst.grid[r][c]
                if is_black(given) and v in TRIANGLES:
                    problems.append(f"triangle {v} on black cell ({r},{c})")
                elif is_black(given) and v != BLACK:
                    problems.append(f"black cell ({r},{c}) is {v!r} in the solution, not '#'")
                elif not is_black(given) and v == BLACK:
                    problems.append(f"white cell ({r},{c}) is shaded '#' (only triangles allowed)")
        for r, c, n in inst.clues():
            if isinstance(n, int):
                count = sum(1 for nr, nc in neighbours((r, c), rows, cols)
                            if grid[nr][nc] in TRIANGLES)
                if count != n:
                    problems.append(f"number {n} at ({r},{c}) has {count} triangle(s) around it")
        return problems + region_problems(grid)

    def render(self, inst: Instance, grid: SolutionGrid | None = None) -> str:
        """The instance tokens or, with a solution, its cells (numbers kept on black cells)."""
        lines = []
        for r, row in enumerate(inst.grid):
            out = []
            for c, v in enumerate(row):
                if isinstance(v, int):
                    out.append(str(v))
                elif grid is None:
                    out.append(WHITE if v is None else BLACK)
                else:
                    out.append(str(grid[r][c]))
            lines.append(" ".join(out))
        return "\n".join(lines)

