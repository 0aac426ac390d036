"""puzzlekit's Yin-Yang (peer package, optional extra ``peers``): both colours connected, no
2x2 of one colour, in CP-SAT."""

from __future__ import annotations

from bench.backends.kinds import ExternalModel
from bench.instance import Instance
from bench.models import Value
from bench.puzzles import SolutionGrid
from bench.puzzles.yinyang.rules import grid_from_black
from bench.registry import formulation
from formulations._puzzlekit import PuzzlekitFormulation


@formulation
class PuzzlekitYinyang(PuzzlekitFormulation):
    puzzle = "yinyang"
    description = "peer: puzzlekit's CP-SAT model (both colours connected, no 2x2)"
    puzzle_type = "yin_yang"
    tiny = "3 3\nw - -\n- - -\n- - b"

    def cell_value(self, answer: str) -> float:
        return 1.0 if answer == "b" else 0.0  # "b" black, "w" white

    def decode(self, inst: Instance, model: ExternalModel, value: Value) -> SolutionGrid:
        return grid_from_black(inst, [(r, c) for r in range(inst.rows) for c in range(inst.cols)
                                      if value((r, c)) > 0.5])
