"""puzzlekit's Nurikabe (peer package, optional extra ``peers``): flood-fill layers per clue
and a connected black wall in CP-SAT, after its own deduction of forced cells."""

from __future__ import annotations

from bench.backends.kinds import ExternalModel
from bench.instance import Instance
from bench.models import Value
from bench.puzzles import SolutionGrid
from bench.puzzles.nurikabe.rules import grid_from_black
from bench.registry import formulation
from formulations._puzzlekit import PuzzlekitFormulation


@formulation
class PuzzlekitNurikabe(PuzzlekitFormulation):
    puzzle = "nurikabe"
    description = "peer: puzzlekit's CP-SAT model (flood layers per clue, connected wall)"
    puzzle_type = "nurikabe"
    tiny = "3 3\n2 - -\n- - -\n- - 2"

    def cell_value(self, answer: str) -> float:
        return 1.0 if answer == "x" else 0.0  # "x" black, "-" white

    def decode(self, inst: Instance, model: ExternalModel, value: Value) -> SolutionGrid:
        return grid_from_black(inst, [(r, c) for r in range(inst.rows) for c in range(inst.cols)
                                      if value((r, c)) > 0.5])
