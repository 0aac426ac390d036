"""Fillomino's solution picture: givens bold black, the solver's numbers blue, thick region
borders."""

from __future__ import annotations

from typing import Any

from bench.puzzles.svg import ANSWER, INK, borders, text


def draw(grid: list[list[Any]], clues: list[list[Any]]) -> list[str]:
    out: list[str] = []
    for r, row in enumerate(grid):
        for c, v in enumerate(row):
            clue = clues[r][c]
            if clue is not None or v is not None:
                out.append(text(r, c, clue if clue is not None else v,
                                fill=INK if clue is not None else ANSWER, bold=clue is not None))
    return out + borders(grid)
