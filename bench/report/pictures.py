"""Solution pictures as SVG, drawn as janko.at and puzz.link print each puzzle, from a result's
grid.

Nurikabe: black walls, clue numbers in the white islands. Yin-Yang: the givens of both colours
drawn as printed (black and white stones on a shaded cell, thick outline), the solver's stones
in blue, as puzz.link draws a player's answer. Shakashaka: black cells (with their numbers in
white) and black half-cell triangles. Shikaku: clue numbers and thick rectangle borders.
Fillomino: givens bold black, the solver's numbers blue, thick region borders. Clues come from
the instance file where it is readable; :func:`clues_svg` draws the givens alone.
"""

from __future__ import annotations

import json
from html import escape
from typing import Any

S = 22  # cell size in pixels
INK = "#222"
ANSWER = "#1f5fa8"  # the solver's entries (puz.link's answer colour, a dark blue)
GIVEN_CELL = "#e4e4e4"  # the shading under a given Yin-Yang stone

_TRIANGLES = {  # black triangle corners as (x, y) fractions of the cell
    "◢": ((1, 0), (1, 1), (0, 1)),
    "◣": ((0, 0), (0, 1), (1, 1)),
    "◤": ((0, 0), (1, 0), (0, 1)),
    "◥": ((0, 0), (1, 0), (1, 1)),
}


def _clues(path: str | None, rows: int, cols: int) -> list[list[Any]]:
    if path:
        try:
            from bench.instance import read_instance

            inst = read_instance(path)
            if inst.rows == rows and inst.cols == cols:
                return [list(r) for r in inst.grid]
        except Exception:  # a picture without clues beats no report
            pass
    return [[None] * cols for _ in range(rows)]


def _text(r: int, c: int, v: Any, fill: str = INK, bold: bool = True) -> str:
    weight = "bold" if bold else "normal"
    return (f'<text x="{c * S + S / 2}" y="{r * S + S / 2 + 5}" text-anchor="middle" '
            f'font-size="13" font-family="sans-serif" font-weight="{weight}" '
            f'fill="{fill}">{escape(str(v))}</text>')


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


def _borders(grid: list[list[Any]]) -> list[str]:
    """Thick lines between orthogonal neighbours with different values (region borders): one
    path, each straight run of border one segment."""
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


def _cells(puzzle: str, grid: list[list[Any]], clues: list[list[Any]]) -> list[str]:
    out: list[str] = []
    for r, row in enumerate(grid):
        for c, v in enumerate(row):
            x, y, clue = c * S, r * S, clues[r][c]
            black = v == "#" or (puzzle == "shakashaka" and clue is not None)
            if puzzle in ("nurikabe", "shakashaka") and black:
                out.append(f'<rect x="{x}" y="{y}" width="{S}" height="{S}" fill="{INK}"/>')
                if clue not in (None, "#"):
                    out.append(_text(r, c, clue, fill="white"))
                continue
            if puzzle == "shakashaka" and v in _TRIANGLES:
                pts = " ".join(f"{x + a * S},{y + b * S}" for a, b in _TRIANGLES[v])
                out.append(f'<polygon points="{pts}" fill="{INK}"/>')
            elif puzzle == "yinyang" and clue in ("b", "w"):  # a given stone, as printed
                out.append(f'<rect x="{x}" y="{y}" width="{S}" height="{S}" '
                           f'fill="{GIVEN_CELL}" class="given"/>')
                out.append(f'<circle cx="{x + S / 2}" cy="{y + S / 2}" r="{S * 0.38}" '
                           f'fill="{INK if clue == "b" else "white"}" stroke="{INK}" '
                           'stroke-width="2.5" class="given"/>')
            elif puzzle == "yinyang" and v in ("b", "w"):  # the solver's stone
                out.append(f'<circle cx="{x + S / 2}" cy="{y + S / 2}" r="{S * 0.34}" '
                           f'fill="{ANSWER if v == "b" else "white"}" stroke="{ANSWER}" '
                           'stroke-width="1.5"/>')
            elif puzzle == "fillomino" and (clue is not None or v is not None):
                out.append(_text(r, c, clue if clue is not None else v,
                                 fill=INK if clue is not None else ANSWER,
                                 bold=clue is not None))
            elif clue is not None and puzzle in ("nurikabe", "shikaku"):
                out.append(_text(r, c, clue))
    return out


def svg(puzzle: str, grid: Any, instance_path: str | None = None, title: str = "") -> str:
    """The solved grid (a list of rows, or its JSON text) as a standalone SVG document."""
    if isinstance(grid, str):
        grid = json.loads(grid)
    rows, cols = len(grid), len(grid[0]) if grid else 0
    clues = _clues(instance_path, rows, cols)
    w, h = cols * S, rows * S
    thin = "".join([f"M{c * S} 0V{h}" for c in range(cols + 1)]
                   + [f"M0 {r * S}H{w}" for r in range(rows + 1)])
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w + 4}" height="{h + 4}" '
             f'viewBox="-2 -2 {w + 4} {h + 4}">', f"<title>{escape(title)}</title>",
             f'<rect x="0" y="0" width="{w}" height="{h}" fill="white"/>',
             f'<path d="{thin}" fill="none" stroke="#bbb" stroke-width="1"/>',
             *_cells(puzzle, grid, clues)]
    if puzzle in ("shikaku", "fillomino") and all(v is not None for row in grid for v in row):
        parts += _borders(grid)
    parts += [f'<rect x="0" y="0" width="{w}" height="{h}" fill="none" stroke="{INK}" '
              'stroke-width="3"/>', "</svg>"]
    return "\n".join(parts) + "\n"


def clues_svg(puzzle: str, path: str | None, rows: int, cols: int, title: str = "") -> str:
    """The instance's givens alone (no solution), or "" when its file is not readable."""
    if rows <= 0 or cols <= 0 or not path:
        return ""
    blank: list[list[Any]] = [[None] * cols for _ in range(rows)]
    if all(v is None for row in _clues(path, rows, cols) for v in row):
        return ""
    return svg(puzzle, blank, path, title)
