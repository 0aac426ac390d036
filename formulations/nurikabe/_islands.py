"""What every Nurikabe formulation reads off an instance (pure: no solver imports, so any
kind's module may import it): the clues as island roots with their sizes and reaches, the
wall's candidate cells and size, and the cells no island can reach (black in every solution).

The rules each model states, in its kind's encoding library:

* an island per clue: a region of the clue's size rooted at the clue, over the cells the
  clue can reach (:func:`bench.grid.clue_reach`: BFS from the clue avoiding other clues and
  their neighbours, fewer steps than the clue);
* the white cells are the islands' cells, each in one island, and adjacent white cells share
  their island (two clues never meet);
* no 2x2 block is all black; the wall (every non-clue cell may be black) is connected and has
  ``cells - sum(clues)`` cells.
"""

from __future__ import annotations

from dataclasses import dataclass

from bench.backends.kinds import SatAssignment
from bench.grid import Cell, all_cells, clue_reach
from bench.instance import Instance
from bench.models import SatModel, Value
from bench.puzzles import SolutionGrid
from bench.puzzles.nurikabe.rules import BLACK, black_total, clue_list, grid_from_black
from bench.registry import Formulation


@dataclass(frozen=True)
class Island:
    """Clue k's island: its root (the clue cell), size and reach (cell -> BFS distance)."""

    root: Cell
    size: int
    reach: dict[Cell, int]


@dataclass(frozen=True)
class Layout:
    """The instance as the formulations see it."""

    rows: int
    cols: int
    cells: list[Cell]
    islands: list[Island]
    wall: list[Cell]  # the cells that may be black (every non-clue cell), reading order
    blacks: int  # the wall's size in every solution
    unreached: list[Cell]  # cells no island can hold: black in every solution


def layout(inst: Instance) -> Layout:
    clues = clue_list(inst)
    reach = clue_reach(inst.rows, inst.cols, clues)
    islands = [Island((r, c), n, reach[k]) for k, (r, c, n) in enumerate(clues)]
    cells = all_cells(inst.rows, inst.cols)
    roots = {i.root for i in islands}
    reached = {v for i in islands for v in i.reach}
    return Layout(inst.rows, inst.cols, cells, islands, [v for v in cells if v not in roots],
                  black_total(inst), [v for v in cells if v not in reached])


def black_in(grid: SolutionGrid) -> list[tuple[Cell, bool]]:
    """Every cell of ``grid`` with whether it is black, for the counting nogoods (projected
    onto the cell colours: some cell differs from this grid)."""
    return [((r, c), v == BLACK) for r, row in enumerate(grid) for c, v in enumerate(row)]


class SatBlackCells(Formulation[SatModel]):
    """Base of the Nurikabe SAT formulations: ``handles["black"]`` maps every cell to its
    "is black" literal, which the grid is decoded from and a counted solution blocked by."""

    def block(self, inst: Instance, model: SatModel, grid: SolutionGrid) -> bool:
        black = model.handles["black"]
        model.add([-black[v] if b else black[v] for v, b in black_in(grid)])
        return True

    @staticmethod
    def black_cells(model: SatModel, value: Value) -> set[Cell]:
        """The cells black in the solver's assignment (each literal read once, from the
        assignment's bytes: the lazy separators call this every round and test membership
        many times)."""
        black = model.handles["black"]
        bits = (value if isinstance(value, SatAssignment)  # every SAT backend's reader
                else SatAssignment.of_reader(value, model.nvars)).bits
        n = len(bits)
        return {cell for cell, lit in black.items()
                if ((lit < n and bits[lit] == 1) if lit > 0
                    else not (-lit < n and bits[-lit] == 1))}

    def decode(self, inst: Instance, model: SatModel, value: Value) -> SolutionGrid:
        return grid_from_black(inst, self.black_cells(model, value))
