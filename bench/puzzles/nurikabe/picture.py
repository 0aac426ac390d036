"""Nurikabe's solution picture: black walls, the clue numbers in the white islands."""

from __future__ import annotations

from typing import Any

from bench.puzzles.svg import square, text


def draw(grid: list[list[Any]], clues: list[list[Any]]) -> list[str]:
    out: list[str] = []
    for r, row in enumerate(grid):
        for c, v in enumerate(row):
            clue = clues[r][c]
            if v == "#":
                out.append(square(r, c))
                if clue not in (None, "#"):
                    out.append(text(r, c, clue, fill="white"))
            elif clue is not None:
                out.append(text(r, c, clue))
    return out
