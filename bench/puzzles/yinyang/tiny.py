"""Yin-Yang's tiny boards for ``puzzlebench check``: 3x3, four given stones."""

from __future__ import annotations

from bench.puzzles.base import TinyBoards

TINY = TinyBoards(3, 3, 4, lambda r: r.choice("bw"), ("b", "w"))
