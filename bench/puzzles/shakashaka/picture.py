"""Shakashaka's solution picture: black cells (their numbers in white) and black half-cell
triangles."""

from __future__ import annotations

from typing import Any

from bench.puzzles.svg import INK, S, square, text

TRIANGLES = {  # black triangle corners as (x, y) fractions of the cell
    "◢": ((1, 0), (1, 1), (0, 1)),
    "◣": ((0, 0), (0, 1), (1, 1)),
    "◤": ((0, 0), (1, 0), (0, 1)),
    "◥": ((0, 0), (1, 0), (1, 1)),
}


def draw(grid: list[list[Any]], clues: list[list[Any]]) -> list[str]:
    out: list[str] = []
    for r, row in enumerate(grid):
        for c, v in enumerate(row):
            clue = clues[r][c]
            if v == "#" or clue is not None:
                out.append(square(r, c))
                if clue not in (None, "#"):
                    out.append(text(r, c, clue, fill="white"))
            elif v in TRIANGLES:
                pts = " ".join(f"{c * S + a * S},{r * S + b * S}" for a, b in TRIANGLES[v])
                out.append(f'<polygon points="{pts}" fill="{INK}"/>')
    return out
