from __future__ import annotations

import importlib
import itertools
import random
import re
from typing import Any

import pytest

from bench.instance import Instance, format_instance, parse_instance, read_instance
from bench.puzzles import get_puzzle
from tests.conftest import INSTANCES, assert_malformed

RULES = get_puzzle("shakashaka")
# The module is fetched after get_puzzle(): importing a puzzle module before the first
# get_puzzle() call would register only that puzzle and stop get_puzzle() from loading the rest.
SK = importlib.import_module("bench.puzzles.shakashaka.rules")
SOLUTION_VALUES, WHITE_QUARTERS = SK.SOLUTION_VALUES, SK.WHITE_QUARTERS
corner_runs, region_problems, white_regions = SK.corner_runs, SK.region_problems, SK.white_regions

# A diamond (four triangles round grid point (1,1)), a 1x2 upright rectangle below it, and a
# 3x2 upright rectangle right of the numbered column:
#   . . 1 . .      ◤ ◥ 1 . .
#   . . 1 . .      ◣ ◢ 1 . .
#   . . 0 . .      . . 0 . .
INST = parse_instance("puzzle: shakashaka\n\n. . 1 . .\n. . 1 . .\n. . 0 . .\n", "small.txt")
GOOD = [list("◤◥#.."), list("◣◢#.."), list("..#..")]

# A 45-degree rectangle of 1 x 2 diamonds, corners at grid points (0,1), (2,3), (3,2), (1,0):
#   . . 2      ◤ ◥ #
#   . . .      ◣ . ◥
#   2 . .      # ◣ ◢
LONG = parse_instance("puzzle: shakashaka\n\n. . 2\n. . .\n2 . .\n", "long.txt")
LONG_GOOD = [list("◤◥#"), list("◣.◥"), list("#◣◢")]


def change(grid: list[list[Any]], *cells: tuple[int, int, Any]) -> list[list[Any]]:
    out = [row[:] for row in grid]
    for r, c, v in cells:
        out[r][c] = v
    return out


def blank(rows: int, cols: int, black: str = "") -> Instance:
    """An instance of white cells, with '#' at the (r, c) pairs listed as 'rc rc ...'."""
    grid = [["."] * cols for _ in range(rows)]
    for rc in black.split():
        grid[int(rc[0])][int(rc[1])] = "#"
    return parse_instance("puzzle: shakashaka\n\n" + "\n".join(" ".join(r) for r in grid) + "\n")


@pytest.mark.parametrize("name", ["seed-p01.txt", "seed-p02.txt"])
def test_reads_the_seeds(name):
    inst = read_instance(INSTANCES / "shakashaka" / name)
    assert (inst.puzzle, inst.rows, inst.cols) == ("shakashaka", 10, 10)
    assert parse_instance(format_instance(inst), inst.path).grid == inst.grid
    assert all(v == "#" or v in range(5) for _, _, v in inst.clues())


def test_seed_p01_values():
    inst = read_instance(INSTANCES / "shakashaka" / "seed-p01.txt")
    assert inst.grid[0][:3] == (2, None, None)
    assert inst.grid[0][9] == "#" and inst.grid[9][9] == 1 and inst.grid[2][2] == 4


def test_accepts_hand_made_solutions():
    assert RULES.verify(INST, GOOD) == []
    assert RULES.verify(LONG, LONG_GOOD) == []


def test_accepts_the_small_diamond_and_upright_rectangles():
    assert RULES.verify(blank(2, 2), [list("◤◥"), list("◣◢")]) == []
    assert RULES.verify(blank(2, 3), [list("..."), list("...")]) == []
    assert RULES.verify(blank(2, 3, "01 11"), [list(".#."), list(".#.")]) == []  # two 2x1
    # rectangles may touch at a corner: white and black checkerboard of 1x1 squares
    assert RULES.verify(blank(2, 2, "01 10"), [list(".#"), list("#.")]) == []


def test_white_regions_connect_quarters_only_across_white_sides():
    label = white_regions(GOOD)
    assert len(set(label.values())) == 3  # diamond, 1x2 below it, 3x2 on the right
    # the diamond's bottom tip and the 1x2 rectangle meet only at grid point (2,1)
    assert sorted(length for _, length in corner_runs(label, 2, 1)) == [2, 4]
    assert corner_runs(label, 1, 1) == [(label[(0, 0, 1)], 8)]
    assert label[(0, 0, 2)] == label[(1, 1, 0)] != label[(2, 0, 0)]


@pytest.mark.parametrize(
    ("inst", "grid", "needle"),
    [
        # L-shaped white area: a 270-degree corner
        (blank(2, 2, "01"), [list(".#"), list("..")],
         "white region at (0,0) is not a rectangle: it has a 270-degree corner at grid point "
         "(1,1)"),
        (blank(3, 3, "11"), [list("..."), list(".#."), list("...")], "270-degree corner"),
        # a lone triangle: 45-degree tips
        (blank(1, 1), [["◢"]], "has a 45-degree corner at grid point (0,1)"),
        # half a diamond: a triangle with a 90-degree tip and two 45-degree corners
        (blank(1, 2), [list("◣◢")], "45-degree corner at grid point (0,0)"),
        # a square with one corner cut off: 135-degree corners
        (blank(2, 2), [list("◤."), list("..")], "135-degree corner at grid point (0,1)"),
        # a ring around a black pair touching itself at grid point (2,2)
        (blank(4, 4, "12 21"), [list("...."), list("..#."), list(".#.."), list("....")],
         "touches itself at grid point (2,2)"),
        # wrong triangle count
        (INST, change(GOOD, (0, 1, ".")), "number 1 at (0,2) has 0 triangle(s) around it"),
        (INST, change(GOOD, (2, 1, "◥")), "number 0 at (2,2) has 1 triangle(s) around it"),
        # triangle, white or '#' in the wrong place
        (INST, change(GOOD, (1, 2, "◢")), "triangle ◢ on black cell (1,2)"),
        (INST, change(GOOD, (1, 2, ".")), "black cell (1,2) is '.' in the solution, not '#'"),
        (INST, change(GOOD, (2, 3, "#")), "white cell (2,3) is shaded '#'"),
        # not a solution value
        (INST, change(GOOD, (0, 0, "x")), "cell (0,0) holds 'x', not one of # . ◢ ◣ ◤ ◥"),
        (INST, change(GOOD, (0, 0, None)), "cell (0,0) holds None"),
        (INST, change(GOOD, (0, 2, 1)), "cell (0,2) holds 1"),
        (INST, GOOD[:2], "grid has 2 rows, expected 3"),
        (INST, [*GOOD[:2], list("..#.")], "row 2 does not have 5 cells"),
    ],
)
def test_rejects_wrong_grids(inst, grid, needle):
    problems = RULES.verify(inst, grid)
    assert problems, "the verifier accepted a wrong grid"
    assert any(needle in p for p in problems), problems


def test_breaking_the_long_diagonal_rectangle():
    # filling the top-right triangle white makes a pentagon-like region
    problems = RULES.verify(LONG, change(LONG_GOOD, (1, 2, ".")))
    assert "number 2 at (0,2) has 1 triangle(s) around it" in problems
    assert any("135-degree corner" in p for p in problems), problems


# --- the grid-point test against an independent rectangle oracle ---------------------------


def oracle_bad_regions(grid: list[list[str]]) -> set[tuple[int, int]]:
    """First cells of the white regions that are not rectangles, by area: a connected region
    is a rectangle iff its area equals that of its bounding box, upright or at 45 degrees
    (coordinates doubled; each quarter has area 1)."""
    regions: dict[int, list[tuple[int, int, int]]] = {}
    for quarter, k in white_regions(grid).items():
        regions.setdefault(k, []).append(quarter)
    bad = set()
    for quarters in regions.values():
        pts = []
        for r, c, q in quarters:
            x, y = 2 * c, 2 * r
            side = [[(x, y), (x + 2, y)], [(x + 2, y), (x + 2, y + 2)],
                    [(x, y + 2), (x + 2, y + 2)], [(x, y), (x, y + 2)]][q]
            pts += [*side, (x + 1, y + 1)]
        xs, ys = [x for x, _ in pts], [y for _, y in pts]
        us, vs = [x + y for x, y in pts], [x - y for x, y in pts]
        upright = (max(xs) - min(xs)) * (max(ys) - min(ys))
        diagonal = (max(us) - min(us)) * (max(vs) - min(vs)) // 2
        if len(quarters) not in (upright, diagonal):
            bad.add(min(quarters)[:2])
    return bad


def checker_bad_regions(grid: list[list[str]]) -> set[tuple[int, int]]:
    found = set()
    for p in region_problems(grid):
        m = re.match(r"white region at \((\d+),(\d+)\)", p)
        assert m, p
        found.add((int(m[1]), int(m[2])))
    return found


def test_grid_point_test_agrees_with_area_oracle():
    grids = [[list(cells[:2]), list(cells[2:])] for cells in
             itertools.product(SOLUTION_VALUES, repeat=4)]
    rng = random.Random(2024)
    biased = [".", ".", ".", "◢", "◣", "◤", "◥", "#"]
    for _ in range(400):
        rows, cols = rng.randint(1, 5), rng.randint(1, 5)
        grids.append([[rng.choice(biased) for _ in range(cols)] for _ in range(rows)])
    rectangles = 0
    for grid in grids:
        assert checker_bad_regions(grid) == oracle_bad_regions(grid), grid
        rectangles += len(set(white_regions(grid).values())) - len(region_problems(grid))
    assert rectangles > 300  # the sample holds plenty of accepted regions too


def test_every_diagonal_rectangle_in_a_5x5_grid_is_accepted():
    pattern = {quarters: value for value, quarters in WHITE_QUARTERS.items()}
    rows = cols = 5
    found = 0
    # rectangle u0 <= x + y <= u1, v0 <= x - y <= v1 with its corners on grid points
    for u0, u1 in itertools.combinations(range(rows + cols + 1), 2):
        for v0, v1 in itertools.combinations(range(-rows, cols + 1), 2):
            corners = [((u + v) / 2, (u - v) / 2) for u in (u0, u1) for v in (v0, v1)]
            if len({u0 % 2, u1 % 2, v0 % 2, v1 % 2}) > 1 or not all(
                0 <= x <= cols and 0 <= y <= rows for x, y in corners
            ):
                continue
            grid = []
            for r in range(rows):
                row = []
                for c in range(cols):
                    # quarter centroids, coordinates times 6: inside iff strictly inside
                    cents = [(6 * c + 3, 6 * r + 1), (6 * c + 5, 6 * r + 3),
                             (6 * c + 3, 6 * r + 5), (6 * c + 1, 6 * r + 3)]
                    quarters = frozenset(
                        q for q, (x, y) in enumerate(cents)
                        if 6 * u0 < x + y < 6 * u1 and 6 * v0 < x - y < 6 * v1
                    )
                    row.append(pattern[quarters])
                grid.append(row)
            found += 1
            assert region_problems(grid) == [], grid
            assert len(set(white_regions(grid).values())) == 1
    assert found > 40


@pytest.mark.parametrize(
    ("content", "line", "needle"),
    [
        ("puzzle: shakashaka\n\n. .\n. 5\n", 4, "illegal token '5'"),
        ("puzzle: shakashaka\n\n. .\n. x\n", 4, "illegal token 'x'"),
        ("puzzle: shakashaka\n\n. .\n. ##\n", 4, "illegal token '##'"),
        ("puzzle: shakashaka\n\n. .\n. 01\n", 4, "illegal token '01'"),
        ("puzzle: shakashaka\n\n. .\n. ◢\n", 4, "non-ASCII token '◢'"),
        ("puzzle: shakashaka\n\n. . .\n. .\n", 4, "ragged grid"),
        ("puzzle: shakashaka\n\n. . .\n. . 4\n. . .\n", 4,
         "number 4 at row 1, column 2 has only 3 white neighbour(s)"),
        ("puzzle: shakashaka\n\n. . .\n. . .\n. # 2\n", 5,
         "number 2 at row 2, column 2 has only 1 white neighbour(s)"),
        ("puzzle: shakashaka\n\n# 1\n1 #\n", 3, "number 1 at row 0, column 1 has only 0"),
    ],
)
def test_rejects_malformed_instances(write, content, line, needle):
    assert_malformed(write("bad.txt", content), line, needle)


def test_grid_row_may_start_with_a_black_cell():
    inst = parse_instance("puzzle: shakashaka\n\n# . 0\n. . .\n")
    assert inst.grid == (("#", None, 0), (None, None, None))
    assert any("not a rectangle" in p for p in RULES.verify(inst, [list("#.#"), list("...")]))


def test_render():
    assert RULES.render(INST).splitlines() == [". . 1 . .", ". . 1 . .", ". . 0 . ."]
    assert RULES.render(INST, GOOD).splitlines() == ["◤ ◥ 1 . .", "◣ ◢ 1 . .", ". . 0 . ."]
