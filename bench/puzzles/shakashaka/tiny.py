"""Shakashaka's tiny boards for ``puzzlebench check``: 2x3, two black cells (numbered 0-2 or
not); a given cell is black."""

from __future__ import annotations

from typing import Any

from bench.puzzles.base import Instance, TinyBoards


class Boards(TinyBoards):
    def given(self, inst: Instance) -> dict[tuple[int, int], Any]:
        return {(r, c): "#" for r, c, _ in inst.clues()}


TINY = Boards(2, 3, 2, lambda r: r.choice(["#", "#", "0", "1", "2"]),
              (".", "◢", "◣", "◤", "◥"))
