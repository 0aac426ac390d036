"""Yin-Yang rules as solver-free clauses over one "black" literal per cell, shared by the
``mip-flow``, ``cpsat-lazy``, ``sat-lazy`` and ``sat-tree`` formulations.

A :class:`bench.encodings.cells.Cut` ``(pos, neg)`` reads "some ``pos`` cell is black or some
``neg`` cell is white"; each kind's ``add_cuts`` turns it into a clause, a ``bool_or`` or a
row. The rules themselves: the given stones (unit clauses) and no 2x2 block of one colour. The
connectivity of both colours is left to each formulation.

Implied rules (parameter ``implied``: ``all``, ``none``, ``checker``, ``border``), valid in every
solution but not stated by the rules; the proofs rest on one planar fact. Put each cell's centre
at its lattice point; a 4-connected path of cells is then a polyline of unit axis-parallel
segments between lattice points, and two such polylines can meet only at lattice points, that
is, in a common cell. A black path and a white path share no cell, so their polylines never meet.

* **No 2x2 checkerboard** (``a b / d e`` with ``a, e`` black and ``b, d`` white, or the
  reverse). Suppose one. A simple black path P joins a to e (black is connected). Close it with
  the diagonal segment from e's centre to a's centre, which contains no lattice point but its
  ends and meets no axis-parallel unit segment inside, so the closed curve J is simple. The
  other diagonal, from b to d, crosses J exactly once (at the block's centre, transversally: P
  has no point on the open segment bd), so b and d lie on opposite sides of J (Jordan). A white
  path joining b to d must cross J: not on P (no shared cell) and not on the open diagonal ae
  (no axis-parallel unit segment crosses it). Contradiction, so no solution has a checkerboard.
* **The border ring has at most two colour changes.** Going round the border cells in cyclic
  order, the number of colour changes is even. Suppose it is at least four: then there are
  border cells a, b, c, d in cyclic order with a, c black and b, d white. All cell centres lie
  in the rectangle spanned by the corner centres, and the border cells' centres lie on its
  boundary in that cyclic order. A black path joins a to c and a white path joins b to d inside
  the rectangle (a closed disk); two curves in a disk joining alternating pairs of boundary
  points must meet (the black one splits the disk into two parts, b and d on different sides).
  They cannot meet (no shared cell). Contradiction. (Grids with fewer than 2 rows or columns
  have no ring; the rule is skipped there.)

"Each colour class is a tree" is *not* implied: a black border ring round a 3x3 inside
``W B W / W W W / W B W`` is a valid solution (tests/data/yinyang-5x5-ring.txt).
"""

from __future__ import annotations

from typing import Any, ClassVar

from bench.encodings.cells import Cut, blocks_2x2, border_ring, fixed_anchor_cuts
from bench.grid import Cell, all_cells, neighbours
from bench.instance import Instance
from bench.models import Value
from bench.puzzles import SolutionGrid
from bench.puzzles.yinyang.rules import BLACK, WHITE, grid_from_black
from bench.registry import Formulation, M

#: values of the ``implied`` parameter; the first is the default
IMPLIED = ["all", "none", "checker", "border"]


def uses(implied: str, rule: str) -> bool:
    """Whether the ``implied`` parameter value switches on ``rule`` ("checker" or "border")."""
    return implied in ("all", rule)


def stones(inst: Instance) -> dict[str, list[Cell]]:
    """The given stones of each colour (``"b"``, ``"w"``), in reading order."""
    out: dict[str, list[Cell]] = {BLACK: [], WHITE: []}
    for r, c, v in inst.clues():
        out[v].append((r, c))
    return out


def local_cuts(inst: Instance, implied: str) -> list[Cut]:
    """The given stones, no 2x2 block of one colour, and (``checker``) no 2x2 checkerboard,
    as clauses over the black literals."""
    out = [Cut(((r, c),), ()) if v == BLACK else Cut((), ((r, c),)) for r, c, v in inst.clues()]
    checker = uses(implied, "checker")
    for a, b, d, e in blocks_2x2(inst.rows, inst.cols, set(all_cells(inst.rows, inst.cols))):
        out += [Cut((), (a, b, d, e)), Cut((a, b, d, e), ())]
        if checker:
            out += [Cut((b, d), (a, e)), Cut((a, e), (b, d))]
    return out


def neighbour_cuts(inst: Instance) -> list[Cut]:
    """A cell of a colour with two or more given stones has a neighbour of that colour (the
    class has at least two cells and is connected), stated eagerly in every formulation: its
    connectivity, not an implied rule."""
    out: list[Cut] = []
    have = stones(inst)
    for v in all_cells(inst.rows, inst.cols):
        nbrs = tuple(neighbours(v, inst.rows, inst.cols))
        if len(have[BLACK]) >= 2:
            out.append(Cut(nbrs, (v,)))
        if len(have[WHITE]) >= 2:
            out.append(Cut((v,), nbrs))
    return out


def ring_pairs(inst: Instance, implied: str) -> list[tuple[Cell, Cell]]:
    """The consecutive pairs of border cells round the ring (``border``), whose colour changes
    number at most two; ``[]`` when the rule is off or the grid has no ring."""
    if not uses(implied, "border") or inst.rows < 2 or inst.cols < 2:
        return []
    ring = border_ring(inst.rows, inst.cols)
    return [(ring[i], ring[(i + 1) % len(ring)]) for i in range(len(ring))]


def grid_cut(grid: SolutionGrid) -> Cut:
    """The clause "some cell differs from ``grid``" (for ``block``)."""
    cells = [(r, c) for r, row in enumerate(grid) for c in range(len(row))]
    return Cut(tuple(v for v in cells if grid[v[0]][v[1]] != BLACK),
               tuple(v for v in cells if grid[v[0]][v[1]] == BLACK))


def max_size(inst: Instance, colour: str) -> int:
    """At most this many cells of ``colour`` in any solution: the cells minus the other
    colour's stones."""
    other = WHITE if colour == BLACK else BLACK
    return inst.rows * inst.cols - len(stones(inst)[other])


def stray_cuts(inst: Instance, black: dict[Cell, Any], white: dict[Cell, Any],
               is_black: dict[Cell, bool]) -> list[tuple[dict[Cell, Any], list[Cut]]]:
    """The lazy formulations' separation, kind-neutral: per colour (its literals by cell), the
    cuts of every stray component of the current solution (``is_black`` per cell), anchored on
    the given stones (:func:`bench.encodings.cells.fixed_anchor_cuts`)."""
    have = stones(inst)
    out = []
    for colour, member in ((BLACK, black), (WHITE, white)):
        on = [v for v in member if is_black[v] == (colour == BLACK)]
        out.append((member, fixed_anchor_cuts(member, on, have[colour])))
    return out


class BlackCells(Formulation[M]):
    """Base of the Yin-Yang formulations: ``handles["black"]`` maps every cell to its "is black"
    variable; a kind adds cuts over those variables its own way (:meth:`post`)."""

    parameters: ClassVar[dict[str, list[Any]]] = {"implied": IMPLIED}

    def post(self, model: M, cuts: list[Cut]) -> int:
        """Add ``cuts`` over the black variables; return how many."""
        raise NotImplementedError

    def decode(self, inst: Instance, model: M, value: Value) -> SolutionGrid:
        black = model.handles["black"]
        return grid_from_black(inst, [v for v in black if value(black[v]) > 0.5])

    def block(self, inst: Instance, model: M, grid: SolutionGrid) -> bool:
        self.post(model, [grid_cut(grid)])  # projected onto the cell colours
        return True
