"""Nurikabe's tiny boards for ``puzzlebench check``: 3x3, two clues of 1-4; a clue cell is
white."""

from __future__ import annotations

from typing import Any

from bench.puzzles.base import Instance, TinyBoards


class Boards(TinyBoards):
    def given(self, inst: Instance) -> dict[tuple[int, int], Any]:
        return {(r, c): "." for r, c, _ in inst.clues()}


TINY = Boards(3, 3, 2, lambda r: str(r.randint(1, 4)), ("#", "."))
