"""Solution pictures as SVG, drawn as janko.at and puzz.link print each puzzle, from a result's
grid.

This module draws the frame (white ground, thin grid lines, thick outline); what goes in the
cells is the puzzle's (:meth:`bench.puzzles.Puzzle.draw`, its folder's ``picture.py``, built
from :mod:`bench.puzzles.svg`). A puzzle without one, or not installed here, shows its clues.
Clues come from the instance file where it is readable; :func:`clues_svg` draws the givens
alone.
"""

from __future__ import annotations

import json
import logging
from html import escape
from typing import Any

from bench.puzzles import get_puzzle
from bench.puzzles.svg import INK, S, clue_texts

__all__ = ["S", "clues_svg", "svg"]

log = logging.getLogger(__name__)


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


def _cells(puzzle: str, grid: list[list[Any]], clues: list[list[Any]]) -> list[str]:
    try:
        drawn = get_puzzle(puzzle).draw(grid, clues)
    except KeyError:  # a puzzle whose package is not installed here
        drawn = None
    except Exception as e:  # a broken picture must not take the report down
        log.error("the %s picture failed: %s", puzzle, e)
        drawn = None
    return clue_texts(clues) if drawn is None else drawn


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
             *_cells(puzzle, grid, clues),
             f'<rect x="0" y="0" width="{w}" height="{h}" fill="none" stroke="{INK}" '
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
