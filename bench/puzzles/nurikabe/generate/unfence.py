"""Fence removal: from a unique Nurikabe puzzle with big islands, take away the clues that
fence them, one at a time, keeping the puzzle unique (a minimisation pass).

A *fence* is a clue cell of a small island next to a ring cell of a big island (an island of
at least ``bigmin`` cells); the ring cells are the black cells next to it. A fenced ring cell
is black by one step of local reasoning (white, it would join two clues), so the more of a big
island's ring is fenced, the less a solver has to reason about the island: puzzles built with
every ring cell fenced (:mod:`bench.puzzles.nurikabe.generate.rigid`) are solved at once. This
pass undoes fences while the puzzle stays unique, so that the big islands are forced only
through longer chains of reasoning, as in real large puzzles.

Each fence clue is tried once, in an order drawn from the seed, by up to four edits in turn
(:func:`edits`), each keeping the intended solution (changed by at most one cell) a solution
of the edited puzzle:

* ``blacken``: a fence island of one cell becomes wall and its clue goes (allowed when the cell
  does not complete a 2x2 black block; the wall stays connected, the cell being next to a
  black ring cell);
* ``grow``: a fence island of one cell whose blackening would make a 2x2 block grows by a
  black neighbour next to no ring cell and no other island (the wall connected without it),
  and its clue, now 2, moves there: the fence cell stays white but is no clue;
* ``merge``: as ``grow``, where that neighbour (now allowed next to a ring cell) is next to
  one to three other small islands: all become one island, whose clue is the size on the
  other islands' clue cell farthest from the ring (the other clues go);
* ``absorb``: else a ring cell between the fence and its big island turns white (the wall
  connected without it), joining both: the big island's clue is raised by 2 and the fence's
  clue goes; the island grows a bump whose new ring cells are not fenced;
* ``move``: a larger fence island keeps its cells and its clue moves to its cell that is
  farthest from every ring cell of a big island, if that cell is next to none.

The edit is kept when the exact uniqueness check of the generator
(:class:`~bench.puzzles.nurikabe.generate.unique.WarmCheck`: the intended solution blocked,
CaDiCaL, limited by conflicts and so deterministic) finds no other solution; a check that runs
out of conflicts counts as a rejection. A run stops after ``removals`` kept edits, when the
candidates are spent, or (the command line) when the CPU budget is spent or a measured solve
of the declared default exceeds a limit. Run as a module it writes the puzzle reached and its
solution, and one JSON line per kept edit (``python -m bench.puzzles.nurikabe.generate.unfence
--help``)."""

from __future__ import annotations

import argparse
import json
import logging
import os
import random
import subprocess
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

from bench.generate import (
    Generated,
    SolveTimeout,
    instance_from_grid,
    save_generated,
)
from bench.grid import Cell, bfs_distances, boundary, components, neighbours
from bench.instance import Instance, InstanceError, read_instance
from bench.puzzles import SolutionGrid, get_puzzle
from bench.puzzles.nurikabe.generate import NurikabeGenerator
from bench.puzzles.nurikabe.generate.unique import WarmCheck
from bench.puzzles.nurikabe.rules import BLACK, WHITE, clue_list, pools

log = logging.getLogger(__name__)

#: the exact formulation of the big-island generator's uniqueness checks
FORMULATION = NurikabeGenerator.big_formulation


@dataclass
class Shape:
    """The structure of a puzzle and its solution, as compared with real puzzles."""

    clues: int
    clue_share: float
    ones: int
    white_share: float
    bigs: list[int]
    next_island: int
    fenced_share: float

    def row(self) -> dict[str, object]:
        return {"clues": self.clues, "clue_pct": round(100 * self.clue_share, 1),
                "ones": self.ones, "white_pct": round(100 * self.white_share, 1),
                "bigs": self.bigs, "next": self.next_island,
                "fenced_pct": round(100 * self.fenced_share, 1)}


def white_islands(solution: SolutionGrid) -> list[list[Cell]]:
    rows, cols = len(solution), len(solution[0])
    return components([(r, c) for r in range(rows) for c in range(cols)
                       if solution[r][c] != BLACK], rows, cols)


def big_rings(solution: SolutionGrid, bigmin: int) -> tuple[set[Cell], set[Cell]]:
    """The cells of the islands of at least ``bigmin`` cells, and their rings."""
    rows, cols = len(solution), len(solution[0])
    bigs = set().union(*(set(b) for b in white_islands(solution) if len(b) >= bigmin))
    return bigs, set(boundary(bigs, rows, cols))


def fences(inst: Instance, solution: SolutionGrid, bigmin: int) -> list[Cell]:
    """The clue cells outside the big islands next to one of their ring cells, in order."""
    bigs, rim = big_rings(solution, bigmin)
    return sorted(v for v in clue_cells(inst) if v not in bigs and any(
        n in rim for n in neighbours(v, inst.rows, inst.cols)))


def clue_cells(inst: Instance) -> dict[Cell, int]:
    return {(r, c): n for r, c, n in clue_list(inst)}


def shape(inst: Instance, solution: SolutionGrid, bigmin: int) -> Shape:
    """:class:`Shape` of ``inst`` with its solution; fenced share: the big islands' ring
    cells next to a clue outside the big islands."""
    clues = clue_cells(inst)
    sizes = sorted((len(b) for b in white_islands(solution)), reverse=True)
    bigs, rim = big_rings(solution, bigmin)
    outside = {v for v in clues if v not in bigs}
    fenced = sum(any(n in outside for n in neighbours(x, inst.rows, inst.cols)) for x in rim)
    white = sum(x != BLACK for row in solution for x in row)
    big_sizes = [n for n in sizes if n >= bigmin]
    return Shape(len(clues), len(clues) / inst.cells, sum(n == 1 for n in clues.values()),
                 white / inst.cells, big_sizes,
                 sizes[len(big_sizes)] if len(sizes) > len(big_sizes) else 0,
                 fenced / len(rim) if rim else 0.0)


def makes_pool(solution: SolutionGrid, v: Cell) -> bool:
    """Whether ``v`` black would complete a 2x2 block of black cells (the rule's
    :func:`~bench.puzzles.nurikabe.rules.pools`)."""
    return bool(pools(lambda x: x == v or solution[x[0]][x[1]] == BLACK,
                      len(solution), len(solution[0]), at=v))


Edit = tuple[str, Instance, SolutionGrid]


def edit(inst: Instance, solution: SolutionGrid, f: Cell, bigmin: int,
         bigmax: int = 60) -> Edit | None:
    """The first of :func:`edits` of fence ``f``; None if none applies."""
    found = edits(inst, solution, f, bigmin, bigmax)
    return found[0] if found else None


def edits(inst: Instance, solution: SolutionGrid, f: Cell, bigmin: int,
          bigmax: int = 60) -> list[Edit]:
    """The edits of fence ``f`` (module docstring), each as its kind, the puzzle and the
    solution after it, in the order tried: for a one-cell fence ``blacken`` alone if it
    applies, else each ``grow`` or ``merge`` (by the neighbour whitened, in grid order), then
    each ``absorb``; for a larger fence island each ``move`` (farthest cell first)."""
    rows, cols = inst.rows, inst.cols
    island = next(b for b in white_islands(solution) if f in b)
    _, rim = big_rings(solution, bigmin)
    dist = bfs_distances(rim, rows, cols)
    far = rows + cols

    def made(kind: str, clues: dict[Cell, int | None], whiten: Cell | None = None) -> Edit:
        grid = [list(row) for row in inst.grid]
        sol = [list(row) for row in solution]
        for (r, c), n in clues.items():
            grid[r][c] = n
        if whiten is not None:
            sol[whiten[0]][whiten[1]] = WHITE
        elif kind == "blacken":
            sol[f[0]][f[1]] = BLACK
        out = instance_from_grid("nurikabe", grid, {k: v for k, v in inst.header.items()
                                                    if k != "puzzle"})
        return kind, replace(out, path=inst.path, name=inst.name), sol

    if len(island) > 1:
        cells = sorted((v for v in island if dist.get(v, far) >= 2),
                       key=lambda v: (-dist.get(v, far), v))
        return [made("move", {f: None, v: inst.grid[f[0]][f[1]]}) for v in cells]
    if not makes_pool(solution, f):
        return [made("blacken", {f: None})]
    found = []
    for g, other in outward(solution, f, rim):
        if other is None:
            found.append(made("grow", {f: None, g: 2}, g))
            continue
        held = [v for v in other if inst.grid[v[0]][v[1]] is not None]
        keep = max(held, key=lambda v: (dist.get(v, far), v))
        found.append(made("merge", {f: None} | dict.fromkeys(held) | {keep: len(other) + 2}, g))
    where = {v: tuple(b) for b in white_islands(solution) for v in b}
    for x in neighbours(f, rows, cols):
        joined = {where[n] for n in neighbours(x, rows, cols) if n in where}
        bigs = [b for b in joined if bigmin <= len(b) <= bigmax - 2]
        if x in rim and len(joined) == 2 and bigs and wall_without(solution, x):
            (clue,) = [v for v in bigs[0] if inst.grid[v[0]][v[1]] is not None]
            found.append(made("absorb", {f: None, clue: len(bigs[0]) + 2}, x))
    return found


def wall_without(solution: SolutionGrid, v: Cell) -> bool:
    """Whether the black cells other than ``v`` are connected."""
    rows, cols = len(solution), len(solution[0])
    black = [(r, c) for r in range(rows) for c in range(cols)
             if solution[r][c] == BLACK and (r, c) != v]
    return len(components(black, rows, cols)) == 1


def outward(solution: SolutionGrid, f: Cell,
            rim: set[Cell]) -> list[tuple[Cell, list[Cell] | None]]:
    """The black neighbours ``g`` of the one-cell island ``f`` that a ``grow`` or ``merge``
    edit may whiten, each with the cells of the islands it joins too (None: none, a
    ``grow``): ``g`` not a ring cell, next to none for a ``grow``, next to at most three
    other islands, the wall connected without it; in grid order."""
    rows, cols = len(solution), len(solution[0])
    where = {v: tuple(b) for b in white_islands(solution) for v in b}
    found: list[tuple[Cell, list[Cell] | None]] = []
    for g in neighbours(f, rows, cols):
        if solution[g[0]][g[1]] != BLACK or g in rim:
            continue
        near = list(neighbours(g, rows, cols))
        others = {where[n] for n in near if n != f and n in where}
        if len(others) > 3 or (not others and any(n in rim for n in near)):
            continue
        if wall_without(solution, g):
            found.append((g, sorted(v for b in others for v in b) if others else None))
    return found


@dataclass
class Step:
    """One kept edit: its number, kind and cell, the checks made so far, the structure after
    it and (when measured) the default's solve seconds."""

    kept: int
    kind: str
    cell: Cell
    checks: int
    shape: Shape
    solve_s: float | None = None
    status: str = ""


@dataclass
class Unfence:
    """The pass (module docstring) on one puzzle; ``check`` answers "another solution?"."""

    bigmin: int = 40
    bigmax: int = 60
    tries: int = 4
    conflicts: int = 200_000
    check: Callable[[Instance, SolutionGrid], SolutionGrid | None] | None = None
    checks: int = 0
    steps: list[Step] = field(default_factory=list)

    def unique(self, inst: Instance, solution: SolutionGrid) -> bool:
        """Whether no other solution is found (a check out of conflicts: False)."""
        self.checks += 1
        try:
            if self.check is not None:
                return self.check(inst, solution) is None
            return WarmCheck(FORMULATION, self.conflicts).other(inst, solution) is None
        except SolveTimeout:
            log.info("unfence: a check ran out of conflicts")
            return False

    def run(self, inst: Instance, solution: SolutionGrid, rng: random.Random,
            removals: int | None = None,
            after: Callable[[Instance, SolutionGrid, Step], bool] | None = None,
            ) -> tuple[Instance, SolutionGrid]:
        """Try each fence of ``inst`` once (order drawn from ``rng``), by up to :attr:`tries`
        of its :func:`edits` in turn, keeping the first that leaves the puzzle unique; stop
        after ``removals`` kept edits or when ``after`` (called on each kept edit) says False.
        Returns the puzzle and solution reached."""
        order = fences(inst, solution, self.bigmin)
        rng.shuffle(order)
        for f in order:
            if removals is not None and len(self.steps) >= removals:
                break
            if f not in clue_cells(inst):
                continue
            for kind, new, sol in edits(inst, solution, f, self.bigmin,
                                        self.bigmax)[:self.tries]:
                if get_puzzle("nurikabe").verify(new, sol):
                    continue
                if self.unique(new, sol):
                    break
                log.info("unfence: %s %s rejected", kind, f)
            else:
                continue
            inst, solution = new, sol
            step = Step(len(self.steps) + 1, kind, f, self.checks,
                        shape(inst, solution, self.bigmin))
            self.steps.append(step)
            log.info("unfence: %s %s kept (%d kept, %d checks)", kind, f, step.kept,
                     self.checks)
            if after is not None and not after(inst, solution, step):
                break
        return inst, solution


def default_solve(inst: Instance, solution: SolutionGrid,
                  limit: float) -> tuple[str, float | None]:
    """``puzzlebench solve FILE --json --time-limit limit`` (the declared default) on ``inst``
    written to a temporary folder: its status and solve seconds."""
    with tempfile.TemporaryDirectory() as tmp:
        path = save_generated(Generated(inst, solution, 0.0, 0), tmp, force=True)[0]
        run = subprocess.run(["puzzlebench", "solve", str(path), "--json", "--time-limit",
                              str(limit)], capture_output=True, text=True, check=False)
    try:
        out = json.loads(run.stdout)
    except json.JSONDecodeError:
        return f"error: {run.stderr.strip()[-200:]}", None
    return str(out.get("status")), out.get("solve_s")


def cpu_seconds() -> float:
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m bench.puzzles.nurikabe.generate.unfence",
                                description="Nurikabe: remove fence clues keeping uniqueness")
    p.add_argument("instance", help="a unique puzzle; its solution is the .sol beside it")
    p.add_argument("--seed", type=int, default=1, help="order of the fences tried")
    p.add_argument("--bigmin", type=int, default=40, help="smallest big island")
    p.add_argument("--bigmax", type=int, default=60, help="largest island an absorb makes")
    p.add_argument("--removals", type=int, default=None, help="stop after this many kept")
    p.add_argument("--measure-every", type=int, default=0,
                   help="solve with the default every N kept edits (0: never)")
    p.add_argument("--stop-solve", type=float, default=30.0,
                   help="stop when a measured solve takes longer (seconds)")
    p.add_argument("--budget", type=float, default=900.0, help="CPU seconds (with solves)")
    p.add_argument("--out", required=True, help="folder for the .txt and .sol")
    p.add_argument("--log", help="file for one JSON line per kept edit")
    return p


def main(argv: list[str] | None = None) -> int:
    """Run the pass on one puzzle file (its ``.sol`` beside it); write the puzzle reached
    (``<stem>-unfence<kept>``) and a JSON line per kept edit."""
    p = parser()
    a = p.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    src = Path(a.instance)
    try:
        inst = read_instance(src)
        solution = json.loads(src.with_suffix(".sol").read_text())
        bad = get_puzzle("nurikabe").verify(inst, solution) if inst.puzzle == "nurikabe" else [
            f"a {inst.puzzle} puzzle, not nurikabe"]
    except (OSError, ValueError, TypeError, IndexError, InstanceError) as exc:
        print(f"unfence: {src}: {exc}", file=sys.stderr)
        return 1
    if bad:
        print(f"unfence: {src}: the .sol does not solve the puzzle", file=sys.stderr)
        return 1
    logfile = open(a.log, "a") if a.log else None  # noqa: SIM115 (closed below)
    c0 = cpu_seconds()

    def after(inst: Instance, solution: SolutionGrid, step: Step) -> bool:
        go = cpu_seconds() - c0 < a.budget
        if a.measure_every and step.kept % a.measure_every == 0:
            step.status, step.solve_s = default_solve(inst, solution, 60)
            go = go and step.status == "solved" and (step.solve_s or 0) <= a.stop_solve
        if logfile is not None:
            logfile.write(json.dumps({"kept": step.kept, "kind": step.kind,
                                      "cell": list(step.cell), "checks": step.checks,
                                      "cpu_s": round(cpu_seconds() - c0),
                                      "solve_s": step.solve_s, "status": step.status}
                                     | step.shape.row()) + "\n")
            logfile.flush()
        return go

    pas = Unfence(a.bigmin, a.bigmax)
    before = shape(inst, solution, a.bigmin)
    inst, solution = pas.run(inst, solution, random.Random(a.seed), a.removals, after)
    if logfile is not None:
        logfile.close()
    kept = len(pas.steps)
    cmd = (f"python -m bench.puzzles.nurikabe.generate.unfence {src} --seed {a.seed} "
           f"--bigmin {a.bigmin} --bigmax {a.bigmax} --removals {kept}")
    inst = named(inst, f"{src.stem}-unfence{kept}", cmd)
    if get_puzzle("nurikabe").verify(inst, solution):
        print(f"unfence: {src}: internal error: the solution broke", file=sys.stderr)
        return 1
    path = save_generated(Generated(inst, solution, 0.0, pas.checks), Path(a.out),
                          force=True)[0]
    print(f"{path}: {kept} kept of {pas.checks} checks, {cpu_seconds() - c0:.0f} CPU-s; "
          f"before {before.row()}, after {shape(inst, solution, a.bigmin).row()}")
    return 0


def named(inst: Instance, stem: str, cmd: str) -> Instance:
    """``inst`` named ``stem``, its header's source the command ``cmd``."""
    header = {k: v for k, v in inst.header.items() if k not in ("puzzle", "source")}
    out = instance_from_grid("nurikabe", [list(row) for row in inst.grid],
                             {"source": f"generated by {cmd}"} | header)
    return replace(out, path=f"{stem}.txt", name=stem)


if __name__ == "__main__":
    sys.exit(main())
