"""Each puzzle's rule verifier (``Puzzle.verify``) against an independent reference checker.

The reference checkers below are written from the rules alone (docs/formats.md and the puzzles'
module docstrings), as plainly as possible: flood fills over explicit cell sets, and for
Shakashaka the white area as a set of triangles compared with its bounding rectangles. They
share no code with ``bench/puzzles/*/rules.py``; instances are read through ``bench.instance``.

Reference and verifier must agree (accept or reject) on: every known solution shipped in
``instances/`` (all accepted), seeded mutations of 1, 2 and 3 cells of them, malformed grids
(wrong shape, illegal values), and every grid of tiny random instances.
"""

from __future__ import annotations

import itertools
import json
import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from bench.instance import parse_instance
from bench.puzzles import get_puzzle
from bench.puzzles.base import Instance
from tests.conftest import INSTANCES

Grid = list[list[Any]]
Cell = tuple[int, int]

# --- reference checkers ------------------------------------------------------------------------


def shape_ok(inst: Instance, grid: Any) -> bool:
    """A list of ``inst.rows`` rows, each a list of ``inst.cols`` cells."""
    return (isinstance(grid, list) and len(grid) == inst.rows
            and all(isinstance(row, list) and len(row) == inst.cols for row in grid))


def cells_ok(grid: Grid, ok: Callable[[Any], bool]) -> bool:
    return all(ok(v) for row in grid for v in row)


def integer(v: Any) -> bool:
    """A JSON integer (``true``/``false`` are booleans, not integers)."""
    return type(v) is int


def groups(cells: set[Cell]) -> list[set[Cell]]:
    """The 4-connected groups of a set of cells, by flood fill."""
    left = set(cells)
    out = []
    while left:
        todo = [left.pop()]
        group = set(todo)
        while todo:
            r, c = todo.pop()
            for n in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                if n in left:
                    left.remove(n)
                    group.add(n)
                    todo.append(n)
        out.append(group)
    return out


def where(grid: Grid, pred: Callable[[Any], bool]) -> set[Cell]:
    return {(r, c) for r, row in enumerate(grid) for c, v in enumerate(row) if pred(v)}


def holding(grid: Grid, value: Any) -> set[Cell]:
    return where(grid, lambda v: v == value)


def no_2x2(grid: Grid, colour: Any) -> bool:
    return not any(grid[r][c] == grid[r + 1][c] == grid[r][c + 1] == grid[r + 1][c + 1] == colour
                   for r in range(len(grid) - 1) for c in range(len(grid[0]) - 1))


def ref_nurikabe(inst: Instance, grid: Any) -> bool:
    """Clue cells white; each white island holds exactly one number, equal to its size; the
    black cells are one 4-connected wall (or none); no 2x2 block all black."""
    if not shape_ok(inst, grid) or not cells_ok(grid, lambda v: v in ("#", ".")):
        return False
    clues = {(r, c): v for r, c, v in inst.clues()}
    if any(grid[r][c] != "." for r, c in clues):
        return False
    for island in groups(holding(grid, ".")):
        numbers = [clues[cell] for cell in island if cell in clues]
        if numbers != [len(island)]:
            return False
    return len(groups(holding(grid, "#"))) <= 1 and no_2x2(grid, "#")


def ref_yinyang(inst: Instance, grid: Any) -> bool:
    """Given stones keep their colour; each colour is one 4-connected group (or none); no 2x2
    block of one colour."""
    if not shape_ok(inst, grid) or not cells_ok(grid, lambda v: v in ("b", "w")):
        return False
    if any(grid[r][c] != v for r, c, v in inst.clues()):
        return False
    return all(len(groups(holding(grid, k))) <= 1 and no_2x2(grid, k) for k in ("b", "w"))


def ref_fillomino(inst: Instance, grid: Any) -> bool:
    """Positive integers, givens kept, every group of equal 4-connected numbers n has n cells."""
    if not shape_ok(inst, grid) or not cells_ok(grid, lambda v: integer(v) and v >= 1):
        return False
    if any(grid[r][c] != v for r, c, v in inst.clues()):
        return False
    for n in {v for row in grid for v in row}:
        if any(len(g) != n for g in groups(holding(grid, n))):
            return False
    return True


def ref_shikaku(inst: Instance, grid: Any) -> bool:
    """Integer ids; the cells of each id fill a whole rectangle holding exactly one number,
    equal to its area."""
    if not shape_ok(inst, grid) or not cells_ok(grid, integer):
        return False
    regions: dict[int, set[Cell]] = {}
    for r, row in enumerate(grid):
        for c, v in enumerate(row):
            regions.setdefault(v, set()).add((r, c))
    for cells in regions.values():
        rows = range(min(r for r, _ in cells), max(r for r, _ in cells) + 1)
        cols = range(min(c for _, c in cells), max(c for _, c in cells) + 1)
        if cells != set(itertools.product(rows, cols)):
            return False
        numbers = [inst.grid[r][c] for r, c in cells if inst.grid[r][c] is not None]
        if numbers != [len(cells)]:
            return False
    return True


#: Shakashaka: the quarters (triangles from the cell centre to one side) each value leaves
#: white; a triangle is named by its black corner, so its white half is the opposite corner's
SHAKA_WHITE = {".": "NESW", "#": "", "◢": "NW", "◣": "NE", "◤": "ES", "◥": "SW"}


def quarter_corners(r: int, c: int, q: str) -> tuple[tuple[int, int], ...]:
    """The three corners (x, y) of a quarter, in doubled coordinates (cell side 2, so the
    centre is a lattice point): the side's two ends and the centre."""
    tl, tr, br, bl = (2 * c, 2 * r), (2 * c + 2, 2 * r), (2 * c + 2, 2 * r + 2), (2 * c, 2 * r + 2)
    ends = {"N": (tl, tr), "E": (tr, br), "S": (br, bl), "W": (bl, tl)}[q]
    return (*ends, (2 * c + 1, 2 * r + 1))


def white_pieces(grid: Grid) -> list[list[tuple[tuple[int, int], ...]]]:
    """The white regions: white quarters joined when they share a whole side (a segment)."""
    tris = [quarter_corners(r, c, q) for r, row in enumerate(grid) for c, v in enumerate(row)
            for q in SHAKA_WHITE[v]]
    by_side: dict[frozenset[tuple[int, int]], list[int]] = {}
    for i, t in enumerate(tris):
        for a, b in itertools.combinations(t, 2):
            by_side.setdefault(frozenset((a, b)), []).append(i)
    seen: set[int] = set()
    out = []
    for start in range(len(tris)):
        if start in seen:
            continue
        seen.add(start)
        todo, region = [start], [start]
        while todo:
            i = todo.pop()
            for a, b in itertools.combinations(tris[i], 2):
                for j in by_side[frozenset((a, b))]:
                    if j not in seen:
                        seen.add(j)
                        todo.append(j)
                        region.append(j)
        out.append([tris[i] for i in region])
    return out


def is_rectangle(region: list[tuple[tuple[int, int], ...]]) -> bool:
    """The region (a union of quarters of area 1 each, doubled coordinates) fills its bounding
    box, upright (x, y) or turned by 45 degrees (u = x + y, v = x - y, where areas double)."""
    points = [p for t in region for p in t]
    xs, ys = [x for x, _ in points], [y for _, y in points]
    us, vs = [x + y for x, y in points], [x - y for x, y in points]
    upright = (max(xs) - min(xs)) * (max(ys) - min(ys)) == len(region)
    turned = (max(us) - min(us)) * (max(vs) - min(vs)) == 2 * len(region)
    return upright or turned


def ref_shakashaka(inst: Instance, grid: Any) -> bool:
    """Black cells of the instance are ``#`` and only they; every number counts the triangles
    among its orthogonal neighbours; every white region is a rectangle (upright or 45 degrees)."""
    if not shape_ok(inst, grid) or not cells_ok(grid, lambda v: type(v) is str
                                                and v in SHAKA_WHITE):
        return False
    for r, row in enumerate(inst.grid):
        for c, given in enumerate(row):
            if (given is not None) != (grid[r][c] == "#"):
                return False
            if isinstance(given, int):
                near = [(r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)]
                count = sum(1 for nr, nc in near if 0 <= nr < inst.rows and 0 <= nc < inst.cols
                            and len(SHAKA_WHITE[grid[nr][nc]]) == 2)
                if count != given:
                    return False
    return all(is_rectangle(region) for region in white_pieces(grid))


REFERENCE: dict[str, Callable[[Instance, Any], bool]] = {
    "nurikabe": ref_nurikabe, "yinyang": ref_yinyang, "fillomino": ref_fillomino,
    "shikaku": ref_shikaku, "shakashaka": ref_shakashaka,
}
PUZZLES = sorted(REFERENCE)

# --- comparison --------------------------------------------------------------------------------


def disagreement(inst: Instance, grid: Any) -> str | None:
    """None when the reference and the verifier agree on ``grid``, else what each said."""
    ref = REFERENCE[inst.puzzle](inst, grid)
    problems = get_puzzle(inst.puzzle).verify(inst, grid)
    if ref == (problems == []):
        return None
    return (f"{inst.puzzle} {inst.path}: reference {'accepts' if ref else 'rejects'}, verifier "
            f"{problems or 'accepts'}; grid {json.dumps(grid, ensure_ascii=False)}")


def assert_agree(inst: Instance, grids: Iterator[Any], limit: int = 5) -> int:
    """Compare on every grid; fail listing up to ``limit`` disagreements. Returns the count."""
    bad, n = [], 0
    for grid in grids:
        n += 1
        d = disagreement(inst, grid)
        if d is not None:
            bad.append(d)
    assert bad[:limit] == [], f"{len(bad)} of {n} grids"
    return n


def known(puzzle: str) -> list[tuple[Instance, Grid]]:
    """Every instance under ``instances/<puzzle>/`` with a ``.sol`` beside it, and the .sol."""
    out = []
    for sol in sorted((INSTANCES / puzzle).rglob("*.sol")):
        txt = sol.with_suffix(".txt")
        out.append((parse_instance(txt.read_text(encoding="utf-8"), str(txt)),
                    json.loads(sol.read_text(encoding="utf-8"))))
    return out


KNOWN = {p: known(p) for p in PUZZLES}

# --- mutations ---------------------------------------------------------------------------------


def alternatives(puzzle: str, grid: Grid, r: int, c: int) -> list[Any]:
    """Other values to try in cell (r, c): every legal value for the two-colour puzzles and
    Shakashaka; for the numbered ones the neighbours' values, one more, one less, a fresh one."""
    if puzzle == "nurikabe":
        return ["#", "."]
    if puzzle == "yinyang":
        return ["b", "w"]
    if puzzle == "shakashaka":
        return list(SHAKA_WHITE)
    rows, cols, v = len(grid), len(grid[0]), grid[r][c]
    near = [grid[nr][nc] for nr, nc in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1))
            if 0 <= nr < rows and 0 <= nc < cols]
    fresh = max(x for row in grid for x in row) + 1
    return sorted({*near, v + 1, max(v - 1, 1), fresh} - {v})


def mutants(puzzle: str, grid: Grid, k: int, rng: random.Random, count: int) -> Iterator[Grid]:
    """``count`` random grids differing from ``grid`` in ``k`` cells (seeded by ``rng``)."""
    cells = [(r, c) for r in range(len(grid)) for c in range(len(grid[0]))]
    for _ in range(count):
        out = [row[:] for row in grid]
        for r, c in rng.sample(cells, k):
            out[r][c] = rng.choice([v for v in alternatives(puzzle, out, r, c) if v != out[r][c]])
        yield out


def single_changes(puzzle: str, grid: Grid) -> Iterator[Grid]:
    """Every grid that differs from ``grid`` in exactly one cell by one of its alternatives."""
    for r, row in enumerate(grid):
        for c, v in enumerate(row):
            for alt in alternatives(puzzle, grid, r, c):
                if alt != v:
                    out = [x[:] for x in grid]
                    out[r][c] = alt
                    yield out


def merges(grid: Grid) -> Iterator[Grid]:
    """For region-id grids (Shikaku): each pair of adjacent regions relabelled as one."""
    pairs = {(grid[r][c], grid[r + dr][c + dc]) for r in range(len(grid))
             for c in range(len(grid[0])) for dr, dc in ((0, 1), (1, 0))
             if r + dr < len(grid) and c + dc < len(grid[0]) and grid[r][c] != grid[r + dr][c + dc]}
    for a, b in sorted(pairs):
        yield [[a if v == b else v for v in row] for row in grid]


def malformed(puzzle: str, grid: Grid) -> Iterator[Any]:
    """Grids of the wrong shape or with an illegal value in one cell."""
    yield from (None, "", [], grid[:-1], [*grid, grid[0][:]], [row[:-1] for row in grid],
                [*grid[:-1], grid[-1][:-1]], [*grid[:-1], [*grid[-1], grid[-1][0]]],
                [tuple(row) for row in grid], ["".join(map(str, row)) for row in grid])
    for v in (None, "", "x", "B", "W", 0, 1, -1, True, False, 1.0, "1", [1], "◢◢", "#", "."):
        out = [row[:] for row in grid]
        out[0][0] = v
        yield out
    if puzzle in ("fillomino", "shikaku"):
        yield [[v if (r, c) != (0, 0) else -v for c, v in enumerate(row)]
               for r, row in enumerate(grid)]


# --- tiny instances ----------------------------------------------------------------------------

TOKENS: dict[str, Callable[[random.Random, int], str]] = {
    "nurikabe": lambda rng, cells: str(rng.randint(1, cells)),
    "yinyang": lambda rng, cells: rng.choice("bw"),
    "fillomino": lambda rng, cells: str(rng.randint(1, min(cells, 4))),
    "shikaku": lambda rng, cells: str(rng.randint(1, cells)),
    "shakashaka": lambda rng, cells: rng.choice("#01234"),
}


def tiny_instance(puzzle: str, rows: int, cols: int, givens: int, rng: random.Random
                  ) -> Instance | None:
    """A random instance with ``givens`` given cells, None if the product refuses it."""
    grid = [["."] * cols for _ in range(rows)]
    for r, c in rng.sample([(r, c) for r in range(rows) for c in range(cols)], givens):
        grid[r][c] = TOKENS[puzzle](rng, rows * cols)
    text = f"puzzle: {puzzle}\n\n" + "".join(" ".join(row) + "\n" for row in grid)
    try:
        return parse_instance(text, f"tiny-{puzzle}-{rows}x{cols}")
    except Exception:
        return None


def every_grid(inst: Instance, values: list[Any]) -> Iterator[Grid]:
    """Every filling of the instance's cells with ``values``."""
    for flat in itertools.product(values, repeat=inst.cells):
        yield [list(flat[r * inst.cols:(r + 1) * inst.cols]) for r in range(inst.rows)]


def partitions(n: int) -> Iterator[list[int]]:
    """Every partition of n items as restricted growth strings (each a list of ids)."""
    def grow(prefix: list[int], top: int) -> Iterator[list[int]]:
        if len(prefix) == n:
            yield prefix
            return
        for v in range(top + 2):
            yield from grow([*prefix, v], max(top, v))
    yield from grow([], -1)


def legal_shakashaka(inst: Instance) -> Iterator[Grid]:
    """Every Shakashaka grid with ``#`` on the black cells and a legal white value elsewhere."""
    choices = [["#"] if v is not None else [".", "◢", "◣", "◤", "◥"]
               for row in inst.grid for v in row]
    for flat in itertools.product(*choices):
        yield [list(flat[r * inst.cols:(r + 1) * inst.cols]) for r in range(inst.rows)]


def tiny_grids(inst: Instance, values: list[Any] | None) -> Iterator[Grid]:
    """Every grid of a tiny instance: the given value lists, or (None) every partition into
    region ids (Shikaku) or every legal Shakashaka grid."""
    if inst.puzzle == "shakashaka" and values is None:
        yield from legal_shakashaka(inst)
        return
    if values is not None:
        yield from every_grid(inst, values)
        return
    for ids in partitions(inst.cells):
        yield [ids[r * inst.cols:(r + 1) * inst.cols] for r in range(inst.rows)]


#: (puzzle, rows, cols, values per cell or None (every partition, every legal grid), instances
#: drawn, fewest given cells)
TINY = [
    ("nurikabe", 3, 3, ["#", "."], 30, 0),
    ("nurikabe", 2, 4, ["#", "."], 20, 0),
    ("nurikabe", 1, 6, ["#", "."], 10, 0),
    ("yinyang", 3, 3, ["b", "w"], 30, 0),
    ("yinyang", 2, 4, ["b", "w"], 20, 0),
    ("yinyang", 1, 6, ["b", "w"], 10, 0),
    ("fillomino", 2, 2, [1, 2, 3, 4, 5], 10, 0),
    ("fillomino", 2, 3, [1, 2, 3, 6], 4, 0),
    ("shikaku", 3, 3, None, 1, 0),
    ("shikaku", 2, 4, None, 4, 0),
    ("shakashaka", 2, 2, list(SHAKA_WHITE), 8, 0),
    ("shakashaka", 1, 4, list(SHAKA_WHITE), 8, 0),
    ("shakashaka", 2, 3, None, 6, 1),
    # illegal values beside legal ones
    ("nurikabe", 2, 2, ["#", ".", "b", 0, None], 6, 0),
    ("yinyang", 2, 2, ["b", "w", "B", ".", 1], 6, 0),
    ("fillomino", 2, 2, [1, 2, 4, 0, -1, True, 2.0, "1"], 3, 0),
    ("shikaku", 2, 2, [0, 1, 7, True, 1.5, "a"], 4, 0),
    ("shakashaka", 1, 3, [*SHAKA_WHITE, "/", 0, None], 4, 0),
]
TINY_SLOW = [
    ("nurikabe", 4, 4, ["#", "."], 6, 0),
    ("yinyang", 4, 4, ["b", "w"], 6, 0),
    ("fillomino", 3, 3, [1, 2, 3, 4], 2, 0),
    ("shikaku", 3, 3, None, 12, 0),
    ("shikaku", 2, 5, None, 2, 0),
    ("shakashaka", 2, 3, list(SHAKA_WHITE), 3, 0),
    ("shakashaka", 3, 3, None, 6, 3),
    ("shakashaka", 2, 4, None, 4, 2),
    ("shakashaka", 3, 3, None, 1, 2),
]


def run_tiny(puzzle: str, rows: int, cols: int, values: list[Any] | None, draws: int,
             least: int) -> int:
    """Compare on every grid of ``draws`` random tiny instances the product accepts (seeded);
    returns the number of grids."""
    rng = random.Random(f"{puzzle}-{rows}x{cols}")
    total = 0
    for _ in range(draws):
        inst = None
        while inst is None:
            inst = tiny_instance(puzzle, rows, cols, rng.randint(least, max(least, 3)), rng)
        total += assert_agree(inst, tiny_grids(inst, values))
    return total


# --- tests -------------------------------------------------------------------------------------


@pytest.mark.parametrize("puzzle", PUZZLES)
def test_every_known_solution_is_accepted_by_both(puzzle: str) -> None:
    assert KNOWN[puzzle]
    for inst, sol in KNOWN[puzzle]:
        assert REFERENCE[puzzle](inst, sol), inst.path
        assert get_puzzle(puzzle).verify(inst, sol) == [], inst.path


def mutation_grids(puzzle: str, inst: Instance, sol: Grid, small: int, count: int,
                   rng: random.Random) -> Iterator[Any]:
    """Every single change on grids of at most ``small`` cells, else ``count`` random ones;
    ``count`` random changes of 2 and of 3 cells; region merges; malformed grids."""
    if inst.cells <= small:
        yield from single_changes(puzzle, sol)
    else:
        yield from mutants(puzzle, sol, 1, rng, count)
    yield from mutants(puzzle, sol, 2, rng, count)
    yield from mutants(puzzle, sol, 3, rng, count)
    if puzzle == "shikaku":
        yield from itertools.islice(merges(sol), count)
    yield from malformed(puzzle, sol)


@pytest.mark.parametrize("puzzle", PUZZLES)
def test_mutated_known_solutions(puzzle: str) -> None:
    """Grids of up to 144 cells here; the slow variant below takes every grid."""
    rng = random.Random(puzzle)
    for inst, sol in KNOWN[puzzle]:
        if inst.cells <= 144:
            assert_agree(inst, mutation_grids(puzzle, inst, sol, 36, 4, rng))


@pytest.mark.slow
@pytest.mark.parametrize("puzzle", PUZZLES)
def test_mutated_known_solutions_many(puzzle: str) -> None:
    rng = random.Random(f"{puzzle}-many")
    for inst, sol in KNOWN[puzzle]:
        assert_agree(inst, mutation_grids(puzzle, inst, sol, 400, 40, rng))


@pytest.mark.parametrize(("puzzle", "rows", "cols", "values", "draws", "least"), TINY,
                         ids=[f"{t[0]}-{t[1]}x{t[2]}-g{t[5]}" for t in TINY])
def test_every_grid_of_tiny_instances(puzzle: str, rows: int, cols: int,
                                      values: list[Any] | None, draws: int, least: int) -> None:
    assert run_tiny(puzzle, rows, cols, values, draws, least) > 0


@pytest.mark.slow
@pytest.mark.parametrize(("puzzle", "rows", "cols", "values", "draws", "least"), TINY_SLOW,
                         ids=[f"{t[0]}-{t[1]}x{t[2]}-g{t[5]}" for t in TINY_SLOW])
def test_every_grid_of_small_instances(puzzle: str, rows: int, cols: int,
                                       values: list[Any] | None, draws: int, least: int) -> None:
    assert run_tiny(puzzle, rows, cols, values, draws, least) > 0


def test_reference_checkers_judge_hand_made_grids() -> None:
    """The reference checkers themselves, on grids whose verdict is plain from the rules."""
    shaka = parse_instance("puzzle: shakashaka\n\n. .\n. .\n")
    assert ref_shakashaka(shaka, [[".", "."], [".", "."]])  # one 2x2 square
    assert not ref_shakashaka(shaka, [["◢", "◣"], ["◥", "◤"]])  # four lone triangles
    assert ref_shakashaka(shaka, [["◤", "◥"], ["◣", "◢"]])  # a diamond
    assert not ref_shakashaka(shaka, [["◤", "."], [".", "."]])  # a pentagon
    assert not ref_shakashaka(shaka, [["◤", "◢"], [".", "."]])
    nuri = parse_instance("puzzle: nurikabe\n\n2 .\n. .\n")
    assert ref_nurikabe(nuri, [[".", "."], ["#", "#"]])
    assert not ref_nurikabe(nuri, [[".", "#"], ["#", "#"]])
    shik = parse_instance("puzzle: shikaku\n\n2 .\n. 2\n")
    assert ref_shikaku(shik, [[5, 5], [7, 7]]) and not ref_shikaku(shik, [[5, 7], [7, 7]])
