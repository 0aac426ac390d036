"""The rectangle cover every kind's ``*-cover`` formulation shares (pure: no solver imports).

The candidates are every rectangle holding exactly one clue whose value is its area
(:func:`bench.puzzles.shikaku.rules.candidate_rectangles`). Because every candidate covering a
clue cell belongs to that clue, "each cell covered exactly once" also picks exactly one
rectangle per clue. The models differ only in how they say "exactly one" and "not this
solution"; the candidates, the decoding and the counting projection live here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeVar

from bench.instance import Instance
from bench.models import Model, Value
from bench.puzzles import SolutionGrid
from bench.puzzles.shikaku.rules import (
    Rect,
    candidate_rectangles,
    cells_to_rects,
    chosen,
    grid_from_rects,
)
from bench.registry import Formulation

M = TypeVar("M", bound=Model)


@dataclass(frozen=True)
class Cover:
    """The candidates and, per cell, the indices of the candidates covering it."""

    rects: list[Rect]
    per_cell: list[list[int]]

    def used(self, grid: SolutionGrid) -> list[int]:
        """The candidates ``grid`` is made of (counting: forbid this set, projected onto the
        cells: every solution is one set of rectangles)."""
        return chosen(self.rects, grid)


def cover(inst: Instance) -> Cover:
    rects = candidate_rectangles(inst)
    return Cover(rects, list(cells_to_rects(inst, rects).values()))


class CoverFormulation(Formulation[M]):
    """A Shikaku cover model: ``handles["cover"]`` and ``handles["x"]`` (one variable per
    candidate, indexable by candidate number)."""

    puzzle = "shikaku"

    def decode(self, inst: Instance, model: M, value: Value) -> SolutionGrid:
        cov, x = model.handles["cover"], model.handles["x"]
        return grid_from_rects(inst, (r for i, r in enumerate(cov.rects) if value(x[i]) > 0.5))
