"""Tiny instances with every solution known by brute force: each grid of cell values the rule
checker accepts, enumerated over the product of the open cells' values (pure: no solver).

Per puzzle: the board shapes and givens drawn by a seeded generator, the values an open cell
may take, and what a given cell holds in a solution. Boards are kept tiny (at most 6 open cells
of 5 values, 9 of 2) so the enumeration stays under a second per puzzle; :func:`tiny_cases`
keeps the drawn instances that are well formed, preferring ones with several solutions (they
test counting) and one with none (it tests infeasibility).
"""

from __future__ import annotations

import functools
import itertools
import random
from collections.abc import Callable
from dataclasses import dataclass

from bench.instance import Instance, InstanceError, parse_instance
from bench.puzzles import SolutionGrid, get_puzzle

#: the solution values of an open cell, per puzzle (Shikaku: rectangle ids, one per clue)
VALUES: dict[str, tuple[object, ...]] = {
    "nurikabe": ("#", "."),
    "yinyang": ("b", "w"),
    "shakashaka": (".", "◢", "◣", "◤", "◥"),
    "fillomino": (1, 2, 3, 4, 5, 6),
}


@dataclass(frozen=True)
class Tiny:
    """A tiny instance (its text and parse) and every solution the checker accepts."""

    name: str
    text: str
    inst: Instance
    solutions: list[SolutionGrid]


def _given(puzzle: str, inst: Instance) -> dict[tuple[int, int], object]:
    clues = inst.clues()
    if puzzle == "shikaku":  # clue k's cell holds rectangle id k
        return {(r, c): k for k, (r, c, _) in enumerate(clues)}
    if puzzle == "nurikabe":
        return {(r, c): "." for r, c, _ in clues}
    if puzzle == "shakashaka":
        return {(r, c): "#" for r, c, _ in clues}
    return {(r, c): v for r, c, v in clues}


def solutions(inst: Instance) -> list[SolutionGrid]:
    """Every grid of ``inst`` the puzzle's checker accepts (brute force)."""
    puzzle = inst.puzzle
    given = _given(puzzle, inst)
    values = (tuple(range(len(given))) if puzzle == "shikaku" else VALUES[puzzle])
    cells = [(r, c) for r in range(inst.rows) for c in range(inst.cols)]
    free = [cell for cell in cells if cell not in given]
    check = get_puzzle(puzzle).check
    found: list[SolutionGrid] = []
    for choice in itertools.product(values, repeat=len(free)):
        grid: SolutionGrid = [[None] * inst.cols for _ in range(inst.rows)]
        for (r, c), v in [*given.items(), *zip(free, choice, strict=True)]:
            grid[r][c] = v
        if not check(inst, grid):
            found.append(grid)
    return found


def _board(rng: random.Random, rows: int, cols: int, clues: int,
           token: Callable[[random.Random], str]) -> str:
    cells = rng.sample(range(rows * cols), clues)
    grid = [["."] * cols for _ in range(rows)]
    for i in cells:
        grid[i // cols][i % cols] = token(rng)
    return "\n".join(" ".join(row) for row in grid)


#: per puzzle: (rows, cols, givens, a given's token) of the drawn boards
DRAW: dict[str, tuple[int, int, int, Callable[[random.Random], str]]] = {
    "nurikabe": (3, 3, 2, lambda r: str(r.randint(1, 4))),
    "yinyang": (3, 3, 4, lambda r: r.choice("bw")),
    "shakashaka": (2, 3, 2, lambda r: r.choice(["#", "#", "0", "1", "2"])),
    "fillomino": (2, 3, 2, lambda r: str(r.randint(1, 4))),
    "shikaku": (2, 4, 2, lambda r: str(r.choice([2, 2, 3, 4, 4, 6]))),
}


#: boards drawn at most per puzzle
DRAWS = 60


@functools.cache
def tiny_cases(puzzle: str, seed: int = 0, wanted: int = 4, max_solutions: int = 6) -> list[Tiny]:
    """Up to ``wanted`` distinct well-formed tiny instances of ``puzzle`` drawn with ``seed``:
    those with 2..``max_solutions`` solutions first, then one without a solution, then one
    with exactly one. Cached: the same list for the same arguments (treat it as read-only)."""
    rows, cols, clues, token = DRAW[puzzle]
    rng = random.Random(f"{puzzle}-{seed}")
    by_kind: dict[str, list[Tiny]] = {"many": [], "none": [], "one": []}
    seen: set[str] = set()
    for i in range(DRAWS):
        text = _board(rng, rows, cols, clues, token)
        if text in seen:
            continue
        seen.add(text)
        try:
            inst = parse_instance(f"puzzle: {puzzle}\nsource: puzzlebench check (drawn)\n\n"
                                  f"{text}\n", f"tiny-{puzzle}-{i}.txt")
        except InstanceError:
            continue
        found = solutions(inst)
        kind = "none" if not found else "one" if len(found) == 1 else "many"
        if len(found) <= max_solutions:
            by_kind[kind].append(Tiny(f"tiny-{i}", text, inst, found))
        if len(by_kind["many"]) >= wanted and by_kind["none"] and by_kind["one"]:
            break
    picked = by_kind["many"][: max(wanted - 2, 1)] + by_kind["none"][:1] + by_kind["one"][:1]
    return picked[:wanted]
