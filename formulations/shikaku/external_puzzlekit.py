"""puzzlekit's Shikaku (peer package, optional extra ``peers``): a rectangle per clue in
CP-SAT. Its answer numbers the rectangles its own way; each is renumbered to the index of the
clue inside it (our solution grid), and a rectangle without exactly one clue keeps -1, which
the rule verifier rejects."""

from __future__ import annotations

from bench.backends.kinds import ExternalModel
from bench.instance import Instance
from bench.models import Value
from bench.puzzles import SolutionGrid
from bench.registry import formulation
from formulations._puzzlekit import PuzzlekitFormulation


@formulation
class PuzzlekitShikaku(PuzzlekitFormulation):
    description = "peer: puzzlekit's CP-SAT model (a rectangle per clue)"
    puzzle_type = "shikaku"
    tiny = "2 3\n3 - -\n- - 3"

    def cell_value(self, answer: str) -> float:
        return float(answer)  # puzzlekit's rectangle id

    def decode(self, inst: Instance, model: ExternalModel, value: Value) -> SolutionGrid:
        region = [[value((r, c)) for c in range(inst.cols)] for r in range(inst.rows)]
        owners: dict[float, list[int]] = {}
        for i, (r, c, _) in enumerate(inst.clues()):
            owners.setdefault(region[r][c], []).append(i)
        return [[owners[v][0] if len(owners.get(v, [])) == 1 else -1 for v in row]
                for row in region]
