"""Solution pictures as SVG, drawn as a puzzle player sees them, from a result's grid.

Nurikabe walls, Yin-Yang stones, Shakashaka triangles, Shikaku rectangles and Fillomino
regions; clues come from the instance file where it is readable.
"""

from __future__ import annotations

import json
from html import escape
from typing import Any

S = 22  # cell size in pixels
INK = "#222"

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


def _borders(grid: list[list[Any]]) -> list[str]:
    """Thick lines between orthogonal neighbours with different values (region borders)."""
    out = []
    rows, cols = len(grid), len(grid[0])
    for r in range(rows):
        for c in range(cols):
            if c + 1 < cols and grid[r][c] != grid[r][c + 1]:
                x = (c + 1) * S
                out.append(f'<line x1="{x}" y1="{r * S}" x2="{x}" y2="{(r + 1) * S}"/>')
            if r + 1 < rows and grid[r][c] != grid[r + 1][c]:
                y = (r + 1) * S
                out.append(f'<line x1="{c * S}" y1="{y}" x2="{(c + 1) * S}" y2="{y}"/>')
    return [f'<g stroke="{INK}" stroke-width="3" stroke-linecap="square">', *out, "</g>"]


def _cells(puzzle: str, grid: list[list[Any]], clues: list[list[Any]]) -> list[str]:
    out: list[str] = []
    for r, row in enumerate(grid):
        for c, v in enumerate(row):
            x, y, clue = c * S, r * S, clues[r][c]
            if puzzle in ("nurikabe", "shakashaka") and (v == "#" or
                                                         (puzzle == "shakashaka" and clue)):
                out.append(f'<rect x="{x}" y="{y}" width="{S}" height="{S}" fill="{INK}"/>')
                if clue not in (None, "#"):
                    out.append(_text(r, c, clue, fill="white"))
                continue
            if puzzle == "shakashaka" and v in _TRIANGLES:
                pts = " ".join(f"{x + a * S},{y + b * S}" for a, b in _TRIANGLES[v])
                out.append(f'<polygon points="{pts}" fill="#555"/>')
            elif puzzle == "yinyang" and v in ("b", "w"):
                fill = INK if v == "b" else "white"
                width = 3 if clue is not None else 1.5
                out.append(f'<circle cx="{x + S / 2}" cy="{y + S / 2}" r="{S * 0.38}" '
                           f'fill="{fill}" stroke="{INK}" stroke-width="{width}"/>')
            elif puzzle == "fillomino":
                out.append(_text(r, c, v, fill=INK if clue is not None else "#0072B2",
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
    thin = [f'<line x1="{c * S}" y1="0" x2="{c * S}" y2="{h}"/>' for c in range(cols + 1)]
    thin += [f'<line x1="0" y1="{r * S}" x2="{w}" y2="{r * S}"/>' for r in range(rows + 1)]
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w + 4}" height="{h + 4}" '
             f'viewBox="-2 -2 {w + 4} {h + 4}">', f"<title>{escape(title)}</title>",
             f'<rect x="0" y="0" width="{w}" height="{h}" fill="white"/>',
             '<g stroke="#bbb" stroke-width="1">', *thin, "</g>",
             *_cells(puzzle, grid, clues)]
    if puzzle in ("shikaku", "fillomino"):
        parts += _borders(grid)
    parts += [f'<rect x="0" y="0" width="{w}" height="{h}" fill="none" stroke="{INK}" '
              'stroke-width="3"/>', "</svg>"]
    return "\n".join(parts) + "\n"
