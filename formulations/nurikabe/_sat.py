"""The Nurikabe SAT formulations' common start (``sat-lazy``, ``sat-hybrid``,
``sat-propagate``), apart from :mod:`formulations.nurikabe._islands`, which the other kinds
share too."""

from __future__ import annotations

from bench.encodings.cells import neighbours_in
from bench.encodings.sat import no_2x2
from bench.grid import Cell
from bench.models import SatModel
from formulations.nurikabe._islands import Layout


def colour_cells(m: SatModel, lay: Layout, *, unreached: bool = True,
                 neighbour: bool = False) -> tuple[dict[Cell, int], dict[Cell, int],
                                                    dict[Cell, int]]:
    """The SAT formulations' common start: a "black" variable per cell in reading order, and
    (black, white, wall) literals by cell (wall: the cells that may be black). Clauses, in
    this order: clue cells are white; with ``unreached``, cells no island can hold are black;
    no 2x2 black block; with ``neighbour`` (redundant, when two or more cells are black), a
    black cell has a black neighbour."""
    black = {v: m.var(("black", v)) for v in lay.cells}
    white = {v: -x for v, x in black.items()}
    wall = {v: black[v] for v in lay.wall}
    m.extend([-black[i.root]] for i in lay.islands)
    if unreached:
        m.extend([black[v]] for v in lay.unreached)
    no_2x2(m, black, lay.rows, lay.cols)
    if neighbour and lay.blacks >= 2:
        m.extend([-x, *(wall[n] for n in neighbours_in(v, wall))] for v, x in wall.items())
    return black, white, wall
