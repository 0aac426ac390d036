"""Puzzle rules: one module per puzzle (token parsing, validation, checker, rendering).

Each module defines a :class:`Puzzle` subclass and registers it with :func:`register_puzzle`.
Formulations never re-implement these rules; the harness checks every returned grid here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, ClassVar

from bench.instance import Cell, Instance

SolutionGrid = list[list[Any]]


class Puzzle:
    """The rules of one puzzle. Subclasses override the token and rule methods."""

    name: ClassVar[str]
    #: JSON cell values a solution grid may hold (for documentation and solution parsing)
    solution_cells: ClassVar[str] = ""

    def parse_token(self, tok: str) -> Cell:
        """One instance-grid token to its value (None for an empty cell); ValueError if illegal."""
        raise NotImplementedError

    def format_token(self, value: Cell) -> str:
        return "." if value is None else str(value)

    def validate(self, inst: Instance) -> Iterable[tuple[int | None, str]]:
        """Problems that make the instance malformed, as ``(grid row or None, message)``."""
        return ()

    def check(self, inst: Instance, grid: SolutionGrid) -> list[str]:
        """Every rule the solution grid breaks (empty list: the grid is a valid solution)."""
        raise NotImplementedError

    def render(self, inst: Instance, grid: SolutionGrid | None = None) -> str:
        """A plain-text picture of the instance, or of the solution when one is given."""
        raise NotImplementedError

    def same(self, inst: Instance, a: SolutionGrid, b: SolutionGrid) -> bool:
        """Whether two solution grids are the same solution (Shikaku ids are arbitrary)."""
        return a == b

    def check_cells(self, inst: Instance, grid: SolutionGrid, ok: Callable[[Any], bool],
                    expected: str) -> list[str]:
        """The grid's shape, then every cell value (``ok``); the problems, [] if none."""
        problems = self.check_shape(inst, grid)
        if problems:
            return problems
        return [f"cell ({r},{c}) holds {v!r}, not {expected}"
                for r, row in enumerate(grid) for c, v in enumerate(row) if not ok(v)]

    def check_shape(self, inst: Instance, grid: SolutionGrid) -> list[str]:
        if not isinstance(grid, list) or len(grid) != inst.rows:
            return [f"grid has {len(grid) if isinstance(grid, list) else '?'} rows, "
                    f"expected {inst.rows}"]
        bad = [r for r, row in enumerate(grid)
               if not isinstance(row, list) or len(row) != inst.cols]
        return [f"row {r} does not have {inst.cols} cells" for r in bad]


_PUZZLES: dict[str, Puzzle] = {}
_loaded = False


def register_puzzle(cls: type[Puzzle]) -> type[Puzzle]:
    _PUZZLES[cls.name] = cls()
    return cls


def get_puzzle(name: str) -> Puzzle:
    """The rules of a puzzle by name; KeyError if unknown."""
    _load()
    return _PUZZLES[name]


def puzzle_names() -> list[str]:
    _load()
    return sorted(_PUZZLES)


def _load() -> None:
    """Import every rules module once (a module imported directly registers only itself)."""
    global _loaded
    if _loaded:
        return
    _loaded = True
    import importlib
    import pkgutil

    for mod in pkgutil.iter_modules(__path__):
        if mod.ispkg:  # one folder per puzzle; its rules module registers it
            importlib.import_module(f"{__name__}.{mod.name}.rules")


def neighbours(r: int, c: int, rows: int, cols: int) -> Iterable[tuple[int, int]]:
    """The 4-neighbours of (r, c) inside a rows x cols grid."""
    if r > 0:
        yield r - 1, c
    if r + 1 < rows:
        yield r + 1, c
    if c > 0:
        yield r, c - 1
    if c + 1 < cols:
        yield r, c + 1


def draw_regions(grid: SolutionGrid, labels: list[list[str]]) -> str:
    """Box drawing of a partition: ``labels`` in the cells, walls between cells whose
    ``grid`` values differ (Shikaku rectangles, Fillomino polyominoes)."""
    rows, cols = len(grid), len(grid[0]) if grid else 0
    width = max([len(t) for row in labels for t in row] + [1])

    def same(r: int, c: int, r2: int, c2: int) -> bool:
        return r2 < rows and c2 < cols and grid[r][c] == grid[r2][c2]

    lines = ["+" + "+".join("-" * width for _ in range(cols)) + "+"]
    for r in range(rows):
        cells, below = "|", "+"
        for c in range(cols):
            cells += labels[r][c].rjust(width) + (" " if same(r, c, r, c + 1) else "|")
            below += (" " if same(r, c, r + 1, c) else "-") * width + "+"
        lines += [cells, below]
    return "\n".join(lines)


def is_int(v: Any) -> bool:
    """An integer solution value (JSON true/false are not)."""
    return isinstance(v, int) and not isinstance(v, bool)


def parse_positive_int(tok: str, what: str = "clue") -> int:
    if not tok.isdigit():
        raise ValueError(f"illegal token {tok!r} (expected '.' or a positive integer {what})")
    v = int(tok)
    if v < 1:
        raise ValueError(f"illegal {what} {tok!r}: must be at least 1")
    return v
