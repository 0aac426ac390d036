"""Shared frame of the ASP formulations (``formulations/<puzzle>/asp_*.py``; pure: no solver
import).

An ASP formulation is its rules, kept as ``.lp`` files beside its module (package data), plus
the instance as facts: ``cell(R,C)`` for every cell, ``rows(H)`` and ``cols(W)``, and whatever
the puzzle's givens are. Every
program shows one atom per cell, ``val(R,C,V)``: the cell's value in the solution (``V`` a
constant or number that :meth:`AspFormulation.token` turns into the solution grid's token).
That makes decoding and counting the same for every puzzle: a solution is blocked by the
integrity constraint ``:- val(r,c,v), ...`` over all its cells, which is the projection onto
the cell values (auxiliary atoms such as reachability or parent choices never multiply the
count). Rules shared by several puzzles live in ``formulations/*.lp``: ``grid.lp`` (adjacency,
reading order), ``connect_reach.lp`` and ``connect_edge.lp`` (one connected group per class).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path
from typing import ClassVar

from bench.backends.kinds import AspAnswer, AspModel, Term
from bench.instance import Instance
from bench.models import Value
from bench.puzzles import SolutionGrid
from bench.registry import Formulation

#: the folder of the shared rule files
SHARED = Path(__file__).resolve().parent


class AspFormulation(Formulation[AspModel]):
    """An ASP formulation: ``programs(here)`` names its rule files; ``facts`` adds the
    instance's; ``token``/``term`` translate between ``val`` terms and grid tokens."""

    kind = "asp"
    #: where the formulation's own .lp files are (the folder of its module)
    here: ClassVar[Path]

    def programs(self) -> list[Path]:
        raise NotImplementedError

    def facts(self, inst: Instance, model: AspModel) -> None:
        """The givens of ``inst`` as facts (``cell/2``, ``rows/1`` and ``cols/1`` are added by
        :meth:`build`)."""
        raise NotImplementedError

    def token(self, term: Term) -> object:
        """The solution grid's token for a ``val`` term."""
        return term

    def term(self, token: object) -> Term:
        """The ``val`` term of a solution grid's token."""
        if isinstance(token, bool) or not isinstance(token, int | str):
            raise TypeError(f"grid token {token!r} is no ASP term (an int or a str)")
        return token

    def build(self, inst: Instance) -> AspModel:
        model = AspModel.new(SHARED / "grid.lp", *self.programs())
        for r in range(inst.rows):
            for c in range(inst.cols):
                model.fact("cell", r, c)
        model.fact("rows", inst.rows)
        model.fact("cols", inst.cols)
        self.facts(inst, model)
        return model

    def decode(self, inst: Instance, model: AspModel, value: Value) -> SolutionGrid:
        if not isinstance(value, AspAnswer):
            raise TypeError(f"the asp kind reads an AspAnswer, not {type(value).__name__}")
        grid: list[list[object]] = [[None] * inst.cols for _ in range(inst.rows)]
        for r, c, v in value.atoms("val"):
            if not (isinstance(r, int) and isinstance(c, int)):
                raise ValueError(f"val({r},{c},{v}): the cell is not two integers")
            if grid[r][c] is not None:
                raise ValueError(f"two values for cell ({r}, {c})")
            grid[r][c] = self.token(v)
        if any(v is None for row in grid for v in row):
            raise ValueError("an answer set without a value for every cell")
        return grid

    def block(self, inst: Instance, model: AspModel, grid: SolutionGrid) -> bool:
        model.forbid(cell_values(grid, self.term))
        return True


def cell_values(grid: SolutionGrid, term: Callable[[object], Term]
                ) -> Iterable[tuple[str, tuple[Term, ...]]]:
    """The ``val`` atoms of a grid."""
    return (("val", (r, c, term(v))) for r, row in enumerate(grid) for c, v in enumerate(row))
