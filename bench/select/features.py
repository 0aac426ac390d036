"""Cheap instance features: numbers read off an instance's grid by the puzzle's own instance
reader (:func:`bench.instance.read_instance`), with no solver, no search and no third-party
import, so that a selector can afford them before every solve (one pass over the cells).

The same names for every puzzle, so that one feature table spans puzzles:

- ``rows``, ``cols``, ``cells``, ``aspect`` (long side / short side);
- ``clues`` (given cells), ``clue_density`` (clues / cells);
- ``numbers`` (clues that are integers), ``number_max`` (the largest clue), ``number_mean``,
  ``ones_share`` (share of the integer clues equal to 1), ``number_cover`` (sum of the integer
  clues / cells: how much of the grid the clues account for, e.g. the islands of Nurikabe);
- ``marks`` (clues that are symbols: Shakashaka's black cells, Yin-Yang's stones),
  ``mark_share`` (marks / cells);
- ``border_share`` (share of the clues on the grid's border).

A feature with nothing to average over (no integer clue) is 0.
"""

from __future__ import annotations

from pathlib import Path

from bench.puzzles.base import Instance

NAMES = ("rows", "cols", "cells", "aspect", "clues", "clue_density", "numbers", "number_max",
         "number_mean", "ones_share", "number_cover", "marks", "mark_share", "border_share")


def of_instance(inst: Instance) -> dict[str, float]:
    """The features of a read instance (see the module), in the order of :data:`NAMES`."""
    rows, cols = inst.rows, inst.cols
    cells = rows * cols
    clues = inst.clues()
    ints = [int(v) for _, _, v in clues if isinstance(v, int) and not isinstance(v, bool)]
    marks = len(clues) - len(ints)
    border = sum(1 for r, c, _ in clues if r in (0, rows - 1) or c in (0, cols - 1))
    n = len(clues)
    f = {"rows": rows, "cols": cols, "cells": cells,
         "aspect": max(rows, cols) / min(rows, cols) if min(rows, cols) else 0.0,
         "clues": n, "clue_density": n / cells if cells else 0.0,
         "numbers": len(ints), "number_max": max(ints, default=0),
         "number_mean": sum(ints) / len(ints) if ints else 0.0,
         "ones_share": sum(1 for v in ints if v == 1) / len(ints) if ints else 0.0,
         "number_cover": sum(ints) / cells if cells else 0.0,
         "marks": marks, "mark_share": marks / cells if cells else 0.0,
         "border_share": border / n if n else 0.0}
    return {k: float(f[k]) for k in NAMES}


def shape(inst: Instance) -> dict[str, float]:
    """``rows``, ``cols`` and ``aspect`` of a read instance, as :func:`of_instance` gives
    them, without the pass over the cells."""
    rows, cols = inst.rows, inst.cols
    return {"rows": float(rows), "cols": float(cols),
            "aspect": max(rows, cols) / min(rows, cols) if min(rows, cols) else 0.0}


def of_file(path: str | Path) -> dict[str, float]:
    """The features of an instance file; :class:`bench.instance.InstanceError` when it cannot
    be read."""
    from bench.instance import read_instance

    return of_instance(read_instance(path))
