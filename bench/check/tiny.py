"""Tiny instances with every solution known by brute force: each grid of cell values the rule
verifier accepts, enumerated over the product of the open cells' values (pure: no solver).

Per puzzle (its :meth:`~bench.puzzles.Puzzle.tiny` boards, ``tiny.py`` in its folder): the
board shapes and givens drawn by a seeded generator, the values an open cell may take, and what
a given cell holds in a solution. Boards are kept tiny (at most 6 open cells
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
from bench.solve import verified


@dataclass(frozen=True)
class Tiny:
    """A tiny instance (its text and parse) and every solution the verifier accepts."""

    name: str
    text: str
    inst: Instance
    solutions: list[SolutionGrid]


def solutions(inst: Instance) -> list[SolutionGrid]:
    """Every grid of ``inst`` the puzzle's verifier accepts (brute force over its
    :class:`~bench.puzzles.base.TinyBoards` values)."""
    rules = get_puzzle(inst.puzzle)
    boards = rules.tiny()
    if boards is None:
        raise ValueError(f"{inst.puzzle} has no tiny boards (tiny.py's TINY)")
    given = boards.given(inst)
    values = boards.open_values(inst)
    free = [(r, c) for r in range(inst.rows) for c in range(inst.cols) if (r, c) not in given]
    found: list[SolutionGrid] = []
    for choice in itertools.product(values, repeat=len(free)):
        grid: SolutionGrid = [[None] * inst.cols for _ in range(inst.rows)]
        for (r, c), v in [*given.items(), *zip(free, choice, strict=True)]:
            grid[r][c] = v
        if not verified(rules, inst, grid, f"brute force of {inst.name}"):
            found.append(grid)
    return found


def _board(rng: random.Random, rows: int, cols: int, clues: int,
           token: Callable[[random.Random], str]) -> str:
    cells = rng.sample(range(rows * cols), clues)
    grid = [["."] * cols for _ in range(rows)]
    for i in cells:
        grid[i // cols][i % cols] = token(rng)
    return "\n".join(" ".join(row) for row in grid)


#: boards drawn at most per puzzle
DRAWS = 60


@dataclass(frozen=True)
class Drawn:
    """What :func:`drawn` gave: the boards kept, and of the ``distinct`` boards drawn, how many
    the puzzle refused (``parse_token`` or ``validate``; ``refusal``: the first reason) and how
    many had more than ``max_solutions`` solutions (``crowded``): a board is kept only when
    neither."""

    cases: list[Tiny]
    distinct: int
    refused: int
    refusal: str
    crowded: int
    max_solutions: int


@functools.cache
def drawn(puzzle: str, seed: int = 0, wanted: int = 4, max_solutions: int = 6) -> Drawn | None:
    """Up to ``wanted`` distinct well-formed tiny instances of ``puzzle`` drawn with ``seed``:
    those with 2..``max_solutions`` solutions first, then one without a solution, then one
    with exactly one; None when the puzzle has no tiny boards. A ``verify`` that raises or
    returns no list is a :class:`~bench.solve.PhaseError` (of its ``verify`` phase). Cached:
    the same result for the same arguments (treat it as read-only)."""
    boards = get_puzzle(puzzle).tiny()
    if boards is None:
        return None
    rows, cols, clues, token = boards.rows, boards.cols, boards.givens, boards.token
    rng = random.Random(f"{puzzle}-{seed}")
    by_kind: dict[str, list[Tiny]] = {"many": [], "none": [], "one": []}
    seen: set[str] = set()
    refusals: list[str] = []
    crowded = 0
    for i in range(DRAWS):
        text = _board(rng, rows, cols, clues, token)
        if text in seen:
            continue
        seen.add(text)
        try:
            inst = parse_instance(f"puzzle: {puzzle}\nsource: puzzlebench check (drawn)\n\n"
                                  f"{text}\n", f"tiny-{puzzle}-{i}.txt")
        except InstanceError as e:
            refusals.append(str(e))
            continue
        found = solutions(inst)
        kind = "none" if not found else "one" if len(found) == 1 else "many"
        if len(found) <= max_solutions:
            by_kind[kind].append(Tiny(f"tiny-{i}", text, inst, found))
        else:
            crowded += 1
        if len(by_kind["many"]) >= wanted and by_kind["none"] and by_kind["one"]:
            break
    picked = by_kind["many"][: max(wanted - 2, 1)] + by_kind["none"][:1] + by_kind["one"][:1]
    return Drawn(picked[:wanted], len(seen), len(refusals), next(iter(refusals), ""), crowded,
                 max_solutions)


def tiny_cases(puzzle: str, seed: int = 0, wanted: int = 4, max_solutions: int = 6) -> list[Tiny]:
    """The boards :func:`drawn` keeps (none when the puzzle has no tiny boards); the same list
    for the same arguments (treat it as read-only)."""
    got = drawn(puzzle, seed, wanted, max_solutions)
    return got.cases if got is not None else []
