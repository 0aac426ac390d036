"""SVG primitives of the solution pictures, shared by every puzzle's ``picture.py``.

A picture is a grid of ``S``-pixel cells, cell ``(r, c)`` at ``x = c * S``, ``y = r * S``; the
frame (white ground, thin grid lines, thick outline) is drawn by :mod:`bench.report.pictures`
around what a puzzle's ``draw(grid, clues)`` returns. Colours follow janko.at and puzz.link:
givens in :data:`INK`, the solver's entries in :data:`ANSWER`.
"""

from __future__ import annotations

from html import escape
from typing import Any

S = 22  # cell size in pixels
INK = "#222"
ANSWER = "#1f5fa8"  # the solver's entries (puz.link's answer colour, a dark blue)
GIVEN_CELL = "#e4e4e4"  # the shading under a given stone


def text(r: int, c: int, v: Any, fill: str = INK, bold: bool = True) -> str:
    """``v`` centred in cell ``(r, c)``."""
    weight = "bold" if bold else "normal"
    return (f'<text x="{c * S + S / 2}" y="{r * S + S / 2 + 5}" text-anchor="middle" '
            f'font-size="13" font-family="sans-serif" font-weight="{weight}" '
            f'fill="{fill}">{escape(str(v))}</text>')


def square(r: int, c: int, fill: str = INK, extra: str = "") -> str:
    """Cell ``(r, c)`` filled with ``fill`` (``extra``: more attributes)."""
    return (f'<rect x="{c * S}" y="{r * S}" width="{S}" height="{S}" fill="{fill}"'
            f'{" " + extra if extra else ""}/>')


def clue_texts(clues: list[list[Any]]) -> list[str]:
    """Every clue as bold text in its cell (the picture of a puzzle without ``picture.py``)."""
    return [text(r, c, v) for r, row in enumerate(clues) for c, v in enumerate(row)
            if v is not None]


def _runs(flags: list[bool]) -> list[tuple[int, int]]:
    """The maximal runs [start, end) of true flags."""
    runs, start = [], None
    for i, f in enumerate([*flags, False]):
        if f and start is None:
            start = i
        elif not f and start is not None:
            runs.append((start, i))
            start = None
    return runs


def borders(grid: list[list[Any]]) -> list[str]:
    """Thick lines between orthogonal neighbours with different values (region borders): one
    path, each straight run of border one segment; none until every cell has a value."""
    if not grid or any(v is None for row in grid for v in row):
        return []
    rows, cols = len(grid), len(grid[0])
    d = []
    for c in range(cols - 1):
        x = (c + 1) * S
        d += [f"M{x} {a * S}V{b * S}" for a, b in
              _runs([grid[r][c] != grid[r][c + 1] for r in range(rows)])]
    for r in range(rows - 1):
        y = (r + 1) * S
        d += [f"M{a * S} {y}H{b * S}" for a, b in
              _runs([grid[r][c] != grid[r + 1][c] for c in range(cols)])]
    return [f'<path d="{"".join(d)}" fill="none" stroke="{INK}" stroke-width="3" '
            'stroke-linecap="square"/>'] if d else []
