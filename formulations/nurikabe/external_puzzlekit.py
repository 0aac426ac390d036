"""puzzlekit's Nurikabe (peer package, optional extra ``peers``): flood-fill layers per clue
and a connected black wall in CP-SAT, after its own deduction of forced cells."""

from __future__ import annotations

from bench.puzzles.nurikabe.rules import BLACK, WHITE
from bench.registry import formulation
from formulations._puzzlekit import PuzzlekitColouring


@formulation
class PuzzlekitNurikabe(PuzzlekitColouring):
    description = "peer: puzzlekit's CP-SAT model (flood layers per clue, connected wall)"
    puzzle_type = "nurikabe"
    tiny = "3 3\n2 - -\n- - -\n- - 2"
    dark = "x"  # puzzlekit's answer: "x" black, "-" white
    on, off = BLACK, WHITE
