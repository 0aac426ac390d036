"""Yin-Yang's solution picture: the givens of both colours drawn as printed (black and white
stones on a shaded cell, thick outline), the solver's stones in blue, as puzz.link draws a
player's answer."""

from __future__ import annotations

from typing import Any

from bench.puzzles.svg import ANSWER, GIVEN_CELL, INK, S, square


def draw(grid: list[list[Any]], clues: list[list[Any]]) -> list[str]:
    out: list[str] = []
    for r, row in enumerate(grid):
        for c, v in enumerate(row):
            x, y, clue = c * S, r * S, clues[r][c]
            if clue in ("b", "w"):  # a given stone, as printed
                out.append(square(r, c, GIVEN_CELL, 'class="given"'))
                out.append(f'<circle cx="{x + S / 2}" cy="{y + S / 2}" r="{S * 0.38}" '
                           f'fill="{INK if clue == "b" else "white"}" stroke="{INK}" '
                           'stroke-width="2.5" class="given"/>')
            elif v in ("b", "w"):  # the solver's stone
                out.append(f'<circle cx="{x + S / 2}" cy="{y + S / 2}" r="{S * 0.34}" '
                           f'fill="{ANSWER if v == "b" else "white"}" stroke="{ANSWER}" '
                           'stroke-width="1.5"/>')
    return out
