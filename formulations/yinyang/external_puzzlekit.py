"""puzzlekit's Yin-Yang (peer package, optional extra ``peers``): both colours connected, no
2x2 of one colour, in CP-SAT."""

from __future__ import annotations

from bench.puzzles.yinyang.rules import BLACK, WHITE
from bench.registry import formulation
from formulations._puzzlekit import PuzzlekitColouring


@formulation
class PuzzlekitYinyang(PuzzlekitColouring):
    description = "peer: puzzlekit's CP-SAT model (both colours connected, no 2x2)"
    puzzle_type = "yin_yang"
    tiny = "3 3\nw - -\n- - -\n- - b"
    dark = "b"  # puzzlekit's answer: "b" black, "w" white
    on, off = BLACK, WHITE
