"""Hitori's solution picture: every number as printed, the black cells filled with their
number in grey, as janko.at shows a solved grid."""

from __future__ import annotations

from typing import Any

from bench.puzzles.svg import square, text
from puzzlebench_hitori.rules import BLACK


def draw(grid: list[list[Any]], clues: list[list[Any]]) -> list[str]:
    out: list[str] = []
    for r, row in enumerate(clues):
        for c, number in enumerate(row):
            if grid[r][c] == BLACK:
                out.append(square(r, c))
                if number is not None:
                    out.append(text(r, c, number, fill="#999", bold=False))
            elif number is not None:
                out.append(text(r, c, number))
    return out
