"""Fillomino's tiny boards for ``puzzlebench check``: 2x3, two givens of 1-4."""

from __future__ import annotations

from bench.puzzles.base import TinyBoards

TINY = TinyBoards(2, 3, 2, lambda r: str(r.randint(1, 4)), (1, 2, 3, 4, 5, 6))
