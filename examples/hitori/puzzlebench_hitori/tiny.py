"""Hitori's tiny boards for ``puzzlebench check``: 3x3, a number 1-3 in every cell, each cell
black or white (no cell is fixed by its number)."""

from __future__ import annotations

from typing import Any

from bench.puzzles.base import Instance, TinyBoards
from puzzlebench_hitori.rules import BLACK, WHITE


class Boards(TinyBoards):
    def given(self, inst: Instance) -> dict[tuple[int, int], Any]:
        return {}


TINY = Boards(3, 3, 9, lambda r: str(r.randint(1, 3)), (BLACK, WHITE))
