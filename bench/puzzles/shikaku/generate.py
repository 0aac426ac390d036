"""The Shikaku generator: a random rectangle partition, each rectangle's area in a random cell
of it, clue cells moved (or rectangles split) until no other solution exists."""

from __future__ import annotations

import random

from bench.generate import GenerationError, Generator, SolveTimeout, check_size, register_generator
from bench.instance import Instance
from bench.puzzles import SolutionGrid
from bench.puzzles.shikaku.rules import Box
from bench.puzzles.shikaku.rules import boxes as boxes_of


def shikaku_max_area(rows: int, cols: int) -> int:
    """Largest rectangle a random partition uses: about 12 on 10x10, 28 on 40x40."""
    return max(2, min(rows * cols // 3, 8 + int((rows * cols) ** 0.5) // 2))


def random_partition(rows: int, cols: int, rng: random.Random, max_area: int) -> list[Box]:
    """Rectangles covering the grid: the first uncovered cell in reading order becomes the
    top-left corner of a random free rectangle, preferring an area near a random target and
    not too thin; 1x1 leftovers are merged into a neighbour when the union is a rectangle."""
    owner = [[-1] * cols for _ in range(rows)]
    boxes: list[Box] = []
    for r in range(rows):
        for c in range(cols):
            if owner[r][c] >= 0:
                continue
            options: list[tuple[int, int]] = []
            wmax = cols - c
            for h in range(1, min(rows - r, max_area) + 1):
                run = 0
                while run < wmax and owner[r + h - 1][c + run] < 0:
                    run += 1
                wmax = run
                if wmax == 0:
                    break
                options += [(h, w) for w in range(1, wmax + 1) if h * w <= max_area]
            target = rng.randint(2, max_area)
            weights = []
            for h, w in options:
                aspect = max(h, w) / min(h, w)
                weight = 1.0 / (1 + abs(h * w - target))
                weight *= 1.0 if aspect <= 3 else 0.25
                weight *= 0.05 if h * w == 1 else 1.0
                weights.append(weight)
            h, w = rng.choices(options, weights)[0]
            for cell in Box(r, c, h, w).cells():
                owner[cell[0]][cell[1]] = len(boxes)
            boxes.append(Box(r, c, h, w))
    return merge_singletons(boxes, max_area, rng)


def merge_singletons(boxes: list[Box], max_area: int, rng: random.Random) -> list[Box]:
    out = list(boxes)
    for single in [b for b in boxes if b.area == 1]:
        if single not in out:
            continue
        r, c = single.top, single.left
        unions = []
        for b in out:
            t, lf, h, w = b
            if b == single or h * w + 1 > max_area:
                continue
            if h == 1 and t == r and (lf + w == c or lf == c + 1):
                unions.append((b, Box(t, min(lf, c), 1, w + 1)))
            elif w == 1 and lf == c and (t + h == r or t == r + 1):
                unions.append((b, Box(min(t, r), lf, h + 1, 1)))
        if unions:
            b, union = rng.choice(unions)
            out.remove(b)
            out[out.index(single)] = union
    return out


def split_box(b: Box, rng: random.Random) -> tuple[Box, Box]:
    t, lf, h, w = b
    if h > 1 and (w == 1 or rng.random() < h / (h + w)):
        k = rng.randint(1, h - 1)
        return Box(t, lf, k, w), Box(t + k, lf, h - k, w)
    k = rng.randint(1, w - 1)
    return Box(t, lf, h, k), Box(t, lf + k, h, w - k)


@register_generator
class ShikakuGenerator(Generator):
    """Random rectangle partition; each rectangle's area in a random cell of it. While another
    solution exists, some clue k whose rectangle differs there moves to a cell of its own
    rectangle outside its rectangle in the other solution (which excludes that solution); a
    rectangle involved too often is split in two instead."""

    puzzle = "shikaku"
    formulation = "sat-cover"
    solver = "cadical195"
    strikes = 4  # times a rectangle may be involved before it is split
    restarts = 5

    def generate_solved(
        self, rows: int, cols: int, rng: random.Random
    ) -> tuple[Instance, SolutionGrid]:
        check_size(self.puzzle, rows, cols)
        max_area = shikaku_max_area(rows, cols)
        for _ in range(self.restarts):
            try:
                return self.make_unique(rows, cols, rng, random_partition(rows, cols, rng,
                                                                          max_area))
            except SolveTimeout:
                continue
        raise GenerationError(f"shikaku {rows}x{cols}: gave up after {self.restarts} restarts")

    def make_unique(self, rows: int, cols: int, rng: random.Random,
                    boxes: list[Box]) -> tuple[Instance, SolutionGrid]:
        clue = {b: rng.choice(list(b.cells())) for b in boxes}
        hits = dict.fromkeys(boxes, 0)
        while True:
            grid: list[list[int | None]] = [[None] * cols for _ in range(rows)]
            solution: SolutionGrid = [[0] * cols for _ in range(rows)]
            for i, b in enumerate(boxes):
                r, c = clue[b]
                grid[r][c] = b.area
                for rr, cc in b.cells():
                    solution[rr][cc] = i
            inst = self.instance(grid)
            alt = self.other(inst, solution)
            if alt is None:
                return inst, solution
            alt_box = {}
            for ab in boxes_of(alt):
                for cell in ab.cells():
                    alt_box[cell] = ab
            differing = [b for b in boxes if alt_box[clue[b]] != b]
            picked = [b for b in differing if rng.random() < 0.5] or [rng.choice(differing)]
            for b in picked:
                hits[b] += 1
                if hits[b] > self.strikes and b.area > 1:
                    halves = split_box(b, rng)
                    boxes[boxes.index(b)] = halves[0]
                    boxes.append(halves[1])
                    del clue[b], hits[b]
                    for half in halves:
                        clue[half] = rng.choice(list(half.cells()))
                        hits[half] = 0
                else:
                    other = set(alt_box[clue[b]].cells())
                    clue[b] = rng.choice([v for v in b.cells() if v not in other])
