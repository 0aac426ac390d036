"""The edits that the Nurikabe generator's ``make_unique``
(:class:`bench.puzzles.nurikabe.generate.NurikabeGenerator`) makes on a solution being built
(:class:`~bench.puzzles.nurikabe.generate.board.NurikabeState`) and its clue cells: each excludes
another solution (the kinds are listed there)."""

from __future__ import annotations

import random
from typing import Any

from bench.grid import Cell
from bench.puzzles.nurikabe.generate.board import NurikabeState


def blackened(kind: str, option: Any) -> Cell | None:
    """The island cell an edit option of :meth:`NurikabeGenerator.edit` turns black (None:
    it whitens)."""
    if kind == "split":
        return option[1]
    if kind == "shrink":
        return option
    return None if option[1] == "grow" else option[2]

def apply_edit(s: NurikabeState, clue: dict[int, Cell], moved: dict[int, int], kind: str,
               options: list[Any], here: list[Cell], rng: random.Random,
               reshape_weights: dict[str, float]) -> None:
    """Make one edit of kind ``kind`` (see :meth:`NurikabeGenerator.make_unique`), picked from
    ``options`` (reshapes weighted by ``reshape_weights``)."""
    if kind == "new":
        v = rng.choice(options)
        k = s.whiten(v, None)
        clue[k], moved[k] = v, 0
    elif kind == "split":
        d, b = rng.choice(options)
        k = s.island[d[0]][d[1]]
        keep = clue[k]
        for j in s.blacken(b):
            moved[j] = 0
            clue[j] = d if d in s.cells[j] else rng.choice(s.cells[j])
        if keep not in s.cells[k]:  # the clue's piece got a new id
            j = s.island[keep[0]][keep[1]]
            clue[k] = d if d in s.cells[k] else rng.choice(s.cells[k])
            clue[j] = keep
    elif kind == "merge":
        for j in s.merge(rng.choice(options)):
            del clue[j], moved[j]
    elif kind == "grow":
        v, k = rng.choice(options)
        s.whiten(v, k)
    elif kind == "shrink":
        s.blacken(rng.choice(options))
    elif kind == "reshape":
        k, op, v = rng.choices(options,
                               [reshape_weights[op] for _, op, _ in options])[0]
        if op == "grow":
            s.whiten(v, k)
        else:
            keep = clue[k]
            for j in s.blacken(v):
                moved[j] = 0
                clue[j] = rng.choice(s.cells[j])
            if keep not in s.cells[k]:
                j = s.island[keep[0]][keep[1]]
                clue[k], clue[j] = rng.choice(s.cells[k]), keep
    else:
        weights = [1.0 / (1 + moved[s.island[r][c]]) ** 2 for r, c in here]
        v = rng.choices(here, weights)[0]
        k = s.island[v[0]][v[1]]
        clue[k] = v
        moved[k] += 1
