"""Fillomino as pure SAT over regions: same-region edge literals, one-hot numbers up to a
threshold with one symbolic "big" number above it, region sizes by cuts after each model (solver
kept warm). The encoding and why it is exact: :mod:`bench.puzzles.fillomino.encoding_sat`.

* ``s[u, w]`` per edge: u and w are in one region; ``e[v, k]``: v's number has code k, over the
  codes of v's provable domain (:func:`bench.puzzles.fillomino.encoding.layout`): the numbers up to
  ``big``, the given numbers within reach of a given of theirs (a region holding that given),
  and BIG for a region above ``big`` holding no given (the region's size, whatever it is: no
  bound is assumed);
* eagerly: ``s`` makes codes equal, different named numbers where ``s`` is off; each connected
  piece of up to ``pieces`` cells, joined, holds at least its size, and exactly its size when
  no edge leaves it;
* lazily, per component of ``s`` edges of the wrong size: "these joined k + 1 cells hold more
  than k" (too big), "this joined component with no edge leaving holds its size" (too small, or
  BIG up to ``big``); two touching BIG regions of one size, or a BIG region beside a cell of
  a given region of its size: not both.
"""

from __future__ import annotations

from typing import Any, ClassVar

from bench.backends.kinds import SatAssignment
from bench.grid import Cell
from bench.instance import Instance
from bench.models import SatModel, Value
from bench.puzzles import SolutionGrid
from bench.puzzles.fillomino import encoding_sat as fillomino_sat
from bench.puzzles.fillomino.encoding import layout
from bench.registry import Formulation, formulation


@formulation
class SatRegions(Formulation[SatModel]):
    name = "sat-regions"
    lazy = True
    description = ("same-region edge literals; one-hot numbers up to a threshold plus the "
                   "givens, one symbolic 'big' number above; wrong-size regions cut after "
                   "each model")
    parameters: ClassVar[dict[str, list[Any]]] = {"big": [8, 16], "pieces": [3, 4]}

    def build(self, inst: Instance) -> SatModel:
        m = SatModel()
        lay = layout(inst)
        big = self.params["big"]
        named, codes = fillomino_sat.given_codes(lay, big)
        reg = fillomino_sat.encode(m, inst.rows, inst.cols, codes, big, named,
                                   self.params["pieces"], given=frozenset(lay.given))
        m.handles.update(regions=reg)
        return m

    def reading(self, model: SatModel, value: Value) -> fillomino_sat.Reading:
        """The model read once per solver answer (``separate`` and ``decode`` share it)."""
        last: tuple[Value, fillomino_sat.Reading] | None = model.handles.get("last")
        if last is not None and last[0] is value:
            return last[1]
        bits = (value if isinstance(value, SatAssignment)  # every SAT backend's reader
                else SatAssignment.of_reader(value, model.nvars))
        r = fillomino_sat.read(model.handles["regions"], bits)
        model.handles["last"] = (value, r)
        return r

    def separate(self, inst: Instance, model: SatModel, value: Value) -> int:
        cuts = fillomino_sat.cuts(model.handles["regions"], self.reading(model, value))
        model.extend(cuts)
        return len(cuts)

    def decode(self, inst: Instance, model: SatModel, value: Value) -> SolutionGrid:
        number = self.reading(model, value).number(model.handles["regions"])
        return [[number[r, c] for c in range(inst.cols)] for r in range(inst.rows)]

    def block(self, inst: Instance, model: SatModel, grid: SolutionGrid) -> bool:
        """--count: some cell holds another number (another code, or other regions)."""
        cells: dict[Cell, int] = {(r, c): grid[r][c] for r in range(inst.rows)
                                  for c in range(inst.cols)}
        model.add(fillomino_sat.block(model.handles["regions"], cells))
        return True
