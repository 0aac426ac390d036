"""The types every other puzzle module builds on; this module imports nothing from ``bench``.

* :class:`Instance`, :data:`Token`, :data:`Grid`, :class:`InstanceError`: an instance file read
  into memory (``bench.instance`` parses and formats them);
* :class:`Puzzle`: the rules of one puzzle (subclassed in ``<puzzle package>/rules.py``) and
  the hooks that reach the rest of its folder (:meth:`Puzzle.part`, :meth:`Puzzle.draw`,
  :meth:`Puzzle.tiny`, :meth:`Puzzle.check_instances`);
* :class:`TinyBoards`: how ``puzzlebench check`` draws tiny instances of a puzzle;
* :class:`Default`: the formulation and solver a puzzle uses when none is named, with the
  committed report that justified the choice.

Keeping them here, below both ``bench.instance`` and the puzzle registry, is what keeps the
import graph acyclic: ``bench.instance`` -> ``bench.puzzles.registry`` -> this module.
"""

from __future__ import annotations

import importlib
import importlib.util
import random
import warnings
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from types import ModuleType
from typing import Any, ClassVar, cast

Token = Any  # a puzzle's parsed instance token: None for an empty cell, else an int or a short str
Grid = tuple[tuple[Token, ...], ...]
SolutionGrid = list[list[Any]]


class InstanceError(Exception):
    """A malformed instance: ``str(err)`` is ``"<file>:<line>: <problem>"``; ``puzzle`` is the
    puzzle its header names when the problem was found after reading it, else None."""

    def __init__(self, path: str | Path, line: int | None, problem: str,
                 puzzle: str | None = None) -> None:
        self.path = str(path)
        self.line = line
        self.problem = problem
        self.puzzle = puzzle
        where = f"{self.path}:{line}" if line is not None else self.path
        super().__init__(f"{where}: {problem}")


@dataclass(frozen=True)
class Instance:
    """One puzzle instance: its header, the parsed grid, and where each grid row was read."""

    puzzle: str
    path: str
    header: dict[str, str]
    grid: Grid
    grid_first_line: int = 0  # file line number (1-based) of grid row 0, for error messages
    name: str = field(default="")

    @property
    def rows(self) -> int:
        return len(self.grid)

    @property
    def cols(self) -> int:
        return len(self.grid[0]) if self.grid else 0

    @property
    def cells(self) -> int:
        return self.rows * self.cols

    def line_of_row(self, r: int) -> int:
        return self.grid_first_line + r

    def clues(self) -> list[tuple[int, int, Token]]:
        """Every non-empty cell as ``(row, col, value)``, in reading order."""
        return [
            (r, c, v) for r, row in enumerate(self.grid) for c, v in enumerate(row) if v is not None
        ]


#: the most digits a number token may have: far beyond any grid's cell count, and below the 4300
#: digits Python's ``int()`` converts by default
MAX_DIGITS = 100


def parse_positive_int(tok: str, what: str = "clue") -> int:
    if not (tok.isascii() and tok.isdigit()):
        raise ValueError(f"illegal token {tok!r} (expected '.' or a positive integer {what})")
    if len(tok) > MAX_DIGITS:  # int() refuses over 4300 digits, naming sys settings
        raise ValueError(f"illegal {what} of {len(tok)} digits: at most {MAX_DIGITS}")
    v = int(tok)
    if v < 1:
        raise ValueError(f"illegal {what} {tok!r}: must be at least 1")
    return v


#: the committed run (its data folder) whose measurements justify the puzzles' current defaults:
#: the pair with the lowest PAR-2 over the hard and real tiers together (its report's table
#: "Declared defaults against the robust choice", :mod:`bench.report.defaults`)
DEFAULT_REPORT = "results/default-20261128-042202"


@dataclass(frozen=True)
class Default:
    """The formulation and solver used for a puzzle when none is named, and ``evidence``: the
    committed run (its data folder under ``results/``) whose measurements justified the choice."""

    formulation: str
    solver: str
    evidence: str = DEFAULT_REPORT


@dataclass(frozen=True)
class TinyBoards:
    """How ``puzzlebench check`` draws tiny instances of a puzzle (``tiny.py``'s ``TINY``):
    ``rows x cols`` boards with ``givens`` cells holding ``token(rng)``; every other cell takes
    each of :meth:`open_values` in the brute-force enumeration of solutions, a given cell the
    value :meth:`given` says. Keep boards tiny: the enumeration is ``len(values) ** open
    cells`` checks (at most 6 open cells of 5 values, 9 of 2, runs in under a second)."""

    rows: int
    cols: int
    givens: int
    token: Callable[[random.Random], str]
    values: tuple[Any, ...] = ()

    def open_values(self, inst: Instance) -> tuple[Any, ...]:
        """The solution values an open cell may take."""
        return self.values

    def given(self, inst: Instance) -> dict[tuple[int, int], Any]:
        """What each given cell holds in a solution (by default: its clue)."""
        return {(r, c): v for r, c, v in inst.clues()}


#: the deprecated names of :class:`Puzzle` methods (until 0.3), with their new names: a puzzle
#: that defines an old name gets it as the new one (with a warning), and calling one warns
RENAMED = {"check": "verify", "check_cells": "verify_cells", "check_shape": "verify_shape"}
UNTIL = "0.3"


class Puzzle:
    """The rules of one puzzle. Subclasses override the token and rule methods (:meth:`verify`
    is the rule verifier, which judges every solution grid); the hooks
    (:meth:`part`, :meth:`draw`, :meth:`tiny`, :meth:`check_instances`,
    :meth:`infeasible_instances`) find the rest of the puzzle in its folder by convention:

    ======================  ==========================================================
    ``rules.py``            this class, registered with ``register_puzzle``
    ``codec.py``            ``CODEC``: its puzz.link and janko.at formats (optional)
    ``picture.py``          ``draw(grid, clues) -> list[str]``: SVG elements (optional)
    ``tiny.py``             ``TINY``: a :class:`TinyBoards` for ``puzzlebench check``
    ``generate.py``         a generator registered with ``register_generator`` (optional)
    ``data/*.txt``          instances ``check`` solves; ``data/infeasible/*.txt`` it
                            must report infeasible
    ======================  ==========================================================
    """

    name: ClassVar[str]
    #: the Python package of the puzzle's folder (set when the puzzle is registered)
    package: ClassVar[str] = ""
    #: JSON cell values a solution grid may hold (for documentation and solution parsing)
    solution_cells: ClassVar[str] = ""
    #: the formulation and solver to use when none is named (None: no declared default)
    default: ClassVar[Default | None] = None

    #: what a number in the grid is called in error messages (puzzles whose tokens are numbers)
    clue_word: ClassVar[str] = "clue"

    def parse_token(self, tok: str) -> Token:
        """One instance-grid token to its value (None for an empty cell); ValueError if illegal.
        By default ``.`` or a positive integer (override for other tokens)."""
        return None if tok == "." else parse_positive_int(tok, self.clue_word)

    def format_token(self, value: Token) -> str:
        return "." if value is None else str(value)

    def validate(self, inst: Instance) -> Iterable[tuple[int | None, str]]:
        """Problems that make the instance malformed, as ``(grid row or None, message)``."""
        return ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """A subclass that defines a method by its old name (:data:`RENAMED`) and not by the
        new one gets it under the new name too, with a DeprecationWarning naming both."""
        super().__init_subclass__(**kwargs)
        own = vars(cls)
        for old, new in RENAMED.items():
            if old in own and new not in own:
                warnings.warn(f"{cls.__module__}.{cls.__qualname__}.{old}: the puzzle hook "
                              f"{old!r} is renamed {new!r} (the old name works until {UNTIL})",
                              DeprecationWarning, stacklevel=2)
                setattr(cls, new, Alias(own[old]))

    def verify(self, inst: Instance, grid: SolutionGrid) -> list[str]:
        """The rule verifier: every rule the solution grid breaks (empty list: the grid is a
        valid solution)."""
        raise NotImplementedError

    def check(self, inst: Instance, grid: SolutionGrid) -> list[str]:
        """Deprecated name of :meth:`verify` (until 0.3)."""
        _renamed("check")
        return implementation(self, "verify")(inst, grid)

    def render(self, inst: Instance, grid: SolutionGrid | None = None) -> str:
        """A plain-text picture of the instance, or of the solution when one is given."""
        raise NotImplementedError

    def same(self, inst: Instance, a: SolutionGrid, b: SolutionGrid) -> bool:
        """Whether two solution grids are the same solution (Shikaku ids are arbitrary)."""
        return a == b

    # --- hooks into the puzzle's folder --------------------------------------------------------

    def part(self, name: str) -> ModuleType | None:
        """The module ``<package>.<name>`` of the puzzle's folder, imported; None if absent."""
        full = f"{self.package}.{name}"
        if not self.package or importlib.util.find_spec(full) is None:
            return None
        return importlib.import_module(full)

    def folder(self) -> Path:
        """The puzzle's folder (its package's files, installed or not)."""
        return Path(str(resources.files(self.package)))

    def check_instances(self) -> list[Path]:
        """The instances ``puzzlebench check`` solves (``data/*.txt``), by name."""
        return sorted((self.folder() / "data").glob("*.txt"))

    def infeasible_instances(self) -> list[Path]:
        """The instances ``check`` must report infeasible (``data/infeasible/*.txt``)."""
        return sorted((self.folder() / "data" / "infeasible").glob("*.txt"))

    def tiny(self) -> TinyBoards | None:
        """The tiny boards of ``puzzlebench check`` (``tiny.py``'s ``TINY``), None if absent."""
        module = self.part("tiny")
        return getattr(module, "TINY", None) if module else None

    def draw(self, grid: SolutionGrid, clues: list[list[Token]]) -> list[str] | None:
        """The SVG elements of a solution picture's cells (``picture.py``'s ``draw``), on a
        grid of ``S``-pixel cells (:mod:`bench.puzzles.svg`); None when the puzzle has no
        ``picture.py`` (the picture then shows the clues alone)."""
        module = self.part("picture")
        return module.draw(grid, clues) if module else None

    def verify_cells(self, inst: Instance, grid: SolutionGrid, ok: Callable[[Any], bool],
                     expected: str) -> list[str]:
        """The grid's shape, then every cell value (``ok``); the problems, [] if none."""
        problems = self.verify_shape(inst, grid)
        if problems:
            return problems
        return [f"cell ({r},{c}) holds {v!r}, not {expected}"
                for r, row in enumerate(grid) for c, v in enumerate(row) if not ok(v)]

    def verify_shape(self, inst: Instance, grid: SolutionGrid) -> list[str]:
        """The grid's rows and row lengths against the instance's; the problems, [] if none."""
        if not isinstance(grid, list) or len(grid) != inst.rows:
            return [f"grid has {len(grid) if isinstance(grid, list) else '?'} rows, "
                    f"expected {inst.rows}"]
        bad = [r for r, row in enumerate(grid)
               if not isinstance(row, list) or len(row) != inst.cols]
        return [f"row {r} does not have {inst.cols} cells" for r in bad]

    def check_cells(self, inst: Instance, grid: SolutionGrid, ok: Callable[[Any], bool],
                    expected: str) -> list[str]:
        """Deprecated name of :meth:`verify_cells` (until 0.3)."""
        _renamed("check_cells")
        return implementation(self, "verify_cells")(inst, grid, ok, expected)

    def check_shape(self, inst: Instance, grid: SolutionGrid) -> list[str]:
        """Deprecated name of :meth:`verify_shape` (until 0.3)."""
        _renamed("check_shape")
        return implementation(self, "verify_shape")(inst, grid)


class Alias:
    """A method a subclass defined under its old name, installed under the new one: it behaves
    as the method, and :func:`implementation` knows it is not an implementation of its own."""

    def __init__(self, func: Callable[..., Any]) -> None:
        self.func = func

    def __get__(self, obj: object, owner: type | None = None) -> Any:
        return self.func.__get__(obj, owner)


def implementation(obj: object, new: str) -> Callable[..., Any]:
    """``obj``'s method ``new`` as its classes implement it under the new name, skipping the
    aliases of old names: an old name's base method calls this, so a plugin that overrides the
    old name of a built-in puzzle and calls ``super()`` reaches the built-in's implementation
    instead of its own alias (and itself) again."""
    for klass in type(obj).__mro__:
        found = vars(klass).get(new)
        if found is not None and not isinstance(found, Alias):
            return cast(Callable[..., Any], found.__get__(obj, type(obj)))
    raise AttributeError(new)


def _renamed(old: str) -> None:
    """Warn that ``Puzzle.<old>`` was called, naming its new name (the caller's caller's line)."""
    warnings.warn(f"Puzzle.{old} is renamed Puzzle.{RENAMED[old]} (the old name works until "
                  f"{UNTIL})", DeprecationWarning, stacklevel=3)
