"""Shikaku's tiny boards for ``puzzlebench check``: 2x4, two clues; a cell holds the id of its
rectangle, one per clue (clue k's cell holds k)."""

from __future__ import annotations

from typing import Any

from bench.puzzles.base import Instance, TinyBoards


class Boards(TinyBoards):
    def open_values(self, inst: Instance) -> tuple[Any, ...]:
        return tuple(range(len(inst.clues())))

    def given(self, inst: Instance) -> dict[tuple[int, int], Any]:
        return {(r, c): k for k, (r, c, _) in enumerate(inst.clues())}


TINY = Boards(2, 4, 2, lambda r: str(r.choice([2, 2, 3, 4, 4, 6])))
