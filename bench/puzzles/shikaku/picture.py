"""Shikaku's solution picture: the clue numbers and thick rectangle borders."""

from __future__ import annotations

from typing import Any

from bench.puzzles.svg import borders, clue_texts


def draw(grid: list[list[Any]], clues: list[list[Any]]) -> list[str]:
    return clue_texts(clues) + borders(grid)
