"""The few-clue kind of the Nurikabe generator (its parameter ``cover``): islands on most of
the grid, few clues, the wall a thin snake between big islands -- the kind of real puzzle
(two clues whose islands cover three quarters of a 10x10) that lazy island connectivity
cannot solve.

:meth:`NurikabeGenerator.generate_solved` runs with :data:`SETTINGS` (:func:`few_clue`): a
random solution with 70-74 % white cells in islands of up to 40 cells, made unique by the
usual edits (which add small islands where another solution differs), then thinned towards
2 % clue cells with islands of up to 60 cells, the patience never below its start. A unique
puzzle that is not of the kind (:func:`covered`) is dropped and another solution tried. The
checks and the final count are :data:`FORMULATION`'s: it states island connectivity before
search, which these puzzles need (the variants compared:
docs/results/2026-11-28-nurikabe-few-clue-family.md)."""

from __future__ import annotations

import copy
from typing import Any, TypeVar

#: at most one clue per this many cells
FEW_CELLS = 15
#: the exact formulation of the kind's checks (its wall tree on grids up to about 14x14)
FORMULATION = "sat-hybrid"
#: the generator's attributes for the kind (:class:`NurikabeGenerator` documents each)
SETTINGS: dict[str, Any] = {
    "black_share": (0.26, 0.30), "start_island": 40, "max_island": 60, "clue_share": 0.02,
    "dense_share": (0.15, 0.25), "max_failed_rounds": 10, "max_stalls": 4, "restarts": 100,
    "least_patience": 15}

G = TypeVar("G")


def few_clue(gen: G) -> G:
    """A copy of the generator ``gen`` with :data:`SETTINGS`; ``gen`` itself unchanged."""
    out = copy.copy(gen)
    for name, value in SETTINGS.items():
        setattr(out, name, value)
    return out


def covered(cells: int, white: int, clues: int, cover: int) -> bool:
    """Whether a puzzle of ``cells`` cells, ``white`` of them in islands, with ``clues`` clues
    is of the kind: islands on at least ``cover`` % of the grid, at most one clue per
    :data:`FEW_CELLS` cells."""
    return 100 * white >= cover * cells and clues * FEW_CELLS <= cells
