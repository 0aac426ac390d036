"""Staircase stripes: big islands that the 2x2 rule pins, for Nurikabe puzzles with many big
islands.

A stripe (:func:`staircase`) is a width-1 staircase of ``n`` cells, alternately one step right
and one step down, so it lies on two neighbouring diagonals ``c - r = d, d + 1``. Every stripe
cell has a 2x2 window (its *outer window*, on the side away from its stripe neighbours)
whose other three cells are next to or diagonal to the stripe: with the stripe's halo (the
cells next to or diagonal to it, :func:`.big.halo`, the diagonals ``d - 2, d - 1`` and
``d + 2, d + 3``) black, turning any stripe cell black makes a 2x2 black block, so no stripe
cell can be traded for a wall cell (no *swap*, :func:`.pinned.swaps`). Each stripe is one
straight staircase (bends are not made). The pinning holds in the solution drawn, where the
halo is black; the clues do not force the diagonal halo cells black, so another solution may
give one to a small island beside it and trade the stripe cell next to it for a ring cell.
Stripes are placed with their diagonals ``gap`` or more apart (:func:`stripe_layout`), so no
two stripes lie within two cells of each other and no exchange between them is counted
(:func:`.turns.layout_report`).

:func:`stripe_solution` blackens every halo, links the halos into one wall and grows the rest
as in the generator's random solution (:func:`.pinned.grow_around`). What the
repair (:meth:`NurikabeGenerator.make_unique`) may not change is :func:`frozen_black`: with
``full`` the whole halo (as for the snakes of :mod:`.big`), else only the halo cells next to
a stripe (the diagonals ``d - 1`` and ``d + 2`` and the cells beyond its ends); the cells only
diagonal to a stripe (the diagonals ``d - 2`` and ``d + 3``, and one cell diagonal to each
end) start black but may turn white, so the small islands beside a halo can grow into it. A
white diagonal cell opens the outer window of the stripe cell next to it: the stripe may then
trade that cell (the uniqueness checks decide). The stripes' shapes never change
(:attr:`NurikabeState.anchors`).

:func:`generate_stripes` gates each layout (no swap, no exchange) and then runs
:func:`.pinned.generate_frozen`. Run as a module it writes one puzzle proved unique
(``python -m bench.puzzles.nurikabe.generate.stripes --help``), within a CPU budget."""

from __future__ import annotations

import logging
import random
import resource
import signal
import sys
from collections.abc import Callable
from types import FrameType

from bench.generate import GenerationError
from bench.grid import Cell, neighbours
from bench.instance import Instance
from bench.puzzles import SolutionGrid
from bench.puzzles.nurikabe.generate import NurikabeGenerator, command
from bench.puzzles.nurikabe.generate.big import halo, size_range
from bench.puzzles.nurikabe.generate.board import NurikabeState
from bench.puzzles.nurikabe.generate.pinned import generate_frozen, grow_around, structure
from bench.puzzles.nurikabe.generate.turns import layout_report
from bench.puzzles.nurikabe.rules import pools

log = logging.getLogger(__name__)

#: the least distance between two stripes' diagonals: a stripe and its halo cover six diagonals
#: (``d - 2`` to ``d + 3``), so two halos are three diagonals apart
GAP = 9


def staircase(r0: int, c0: int, n: int) -> set[Cell]:
    """The ``n`` cells of a staircase from ``(r0, c0)``: one step right, one step down, in
    turn (the diagonals ``c - r = c0 - r0`` and one more)."""
    out, r, c = [], r0, c0
    for i in range(n):
        out.append((r, c))
        if i % 2 == 0:
            c += 1
        else:
            r += 1
    return set(out)


def stripe_layout(
    lo: int, hi: int, rows: int, cols: int, count: int, gap: int, rng: random.Random
) -> list[set[Cell]] | None:
    """``count`` stripes of ``lo``-``hi`` cells (uniform), each inside the grid less a 1-cell
    margin (its halo inside the grid), their diagonals ``gap`` or more apart, the spare
    diagonals spread at random and each stripe's start drawn among those that fit; None if the
    diagonals do not fit."""
    ns = [rng.randint(lo, hi) for _ in range(count)]
    span = max(ns) // 2 + 1  # rows (and columns) a stripe of max(ns) cells spans
    dmin, dmax = 1 - (rows - 2 - span), (cols - 2 - span) - 1
    slack = (dmax - dmin) - gap * (count - 1)
    if slack < 0:
        return None
    cuts = sorted(rng.randint(0, slack) for _ in range(count))
    out = []
    for k, n in enumerate(ns):
        d = dmin + gap * k + cuts[k]
        lo_r, hi_r = max(1, 1 - d), min(rows - 2 - span, cols - 2 - span - d)
        if lo_r > hi_r:
            return None
        r0 = rng.randint(lo_r, hi_r)
        out.append(staircase(r0, r0 + d, n))
    return out


def frozen_black(rows: int, cols: int, stripes: list[set[Cell]], full: bool) -> set[Cell]:
    """The black cells no repair edit whitens: the stripes' whole halos with ``full``, else
    only the cells next to a stripe (4-neighbours)."""
    if full:
        return set().union(*(halo(rows, cols, b) for b in stripes))
    taken = set().union(*stripes)
    return {n for v in taken for n in neighbours(v, rows, cols) if n not in taken}


def stripe_solution(
    gen: NurikabeGenerator,
    rows: int,
    cols: int,
    rng: random.Random,
    gap: int = GAP,
    full: bool = False,
    tries: int = 50,
) -> NurikabeState | None:
    """A random solution with ``gen.big`` stripes (:func:`stripe_layout`, sizes from
    :func:`.big.size_range`): their halos black, linked into one wall and grown as in
    :meth:`NurikabeGenerator.random_solution` (small islands up to ``gen.small``, else
    ``gen.start_island``); the stripes frozen, and :func:`frozen_black` pinned. Drawn again
    where the layout, the link or the growth fails or the halos hold a 2x2 block; None after
    ``tries`` draws."""
    lo, hi = size_range(gen, rows, cols)
    for _ in range(tries):
        stripes = stripe_layout(lo, hi, rows, cols, gen.big, gap, rng)
        s = None if stripes is None else surround(gen, rows, cols, stripes, full, rng)
        if s is not None:
            return s
    return None


def surround(
    gen: NurikabeGenerator,
    rows: int,
    cols: int,
    stripes: list[set[Cell]],
    full: bool,
    rng: random.Random,
) -> NurikabeState | None:
    """The solution around ``stripes`` (:func:`stripe_solution`); None if it fails."""
    black = set().union(*(halo(rows, cols, b) for b in stripes))
    if pools(lambda v: v in black, rows, cols):
        return None
    s = grow_around(gen, rows, cols, stripes, black, rng)
    if s is not None:
        s.pinned = frozen_black(rows, cols, stripes, full)
    return s


def gate(s: NurikabeState) -> bool:
    """Whether a layout is worth a uniqueness proof: no swap of a big island and no exchange
    between two (:func:`.turns.layout_report`)."""
    report = layout_report(s)
    log.info("layout: %s", report)
    return not (report["swaps"] or report["exchanges"])


def generate_stripes(
    gen: NurikabeGenerator,
    rows: int,
    cols: int,
    rng: random.Random,
    gap: int = GAP,
    full: bool = False,
) -> tuple[Instance, SolutionGrid]:
    """A unique puzzle with ``gen.big`` stripes: :func:`.pinned.generate_frozen` of
    :func:`stripe_solution` behind :func:`gate`."""

    def draw(g: NurikabeGenerator, r: int, c: int, x: random.Random) -> NurikabeState | None:
        return stripe_solution(g, r, c, x, gap, full)

    return generate_frozen(gen, rows, cols, rng, draw, "stripes", gate)


def cpu_budget(seconds: int) -> Callable[[], None]:
    """Stop the process's work after ``seconds`` more CPU-s (user and system, as the kernel
    counts ``RLIMIT_CPU``): the soft limit's SIGXCPU raises :class:`GenerationError` once (at
    the next Python instruction, after a running solver call); later signals are ignored.
    Returns the function that disarms it (the limit and the handler put back)."""

    def stop(signum: int, frame: FrameType | None) -> None:
        signal.signal(signal.SIGXCPU, signal.SIG_IGN)  # the kernel repeats it every CPU-s
        raise GenerationError(f"CPU budget of {seconds} s spent")

    before = signal.signal(signal.SIGXCPU, stop)
    use = resource.getrusage(resource.RUSAGE_SELF)
    soft, hard = resource.getrlimit(resource.RLIMIT_CPU)
    resource.setrlimit(resource.RLIMIT_CPU, (int(use.ru_utime + use.ru_stime) + seconds, hard))

    def disarm() -> None:
        resource.setrlimit(resource.RLIMIT_CPU, (soft, hard))
        signal.signal(signal.SIGXCPU, before)

    return disarm


def main(argv: list[str] | None = None) -> int:
    """Write one puzzle of :func:`generate_stripes` and its solution, proved unique; one line
    with its figures, CPU time and :func:`.pinned.structure`. ``--gap``: the least distance
    of the stripes' diagonals; ``--full-halo``: freeze the whole halos; ``--budget``: CPU-s."""
    p = command.parser("stripes", "Nurikabe with many big staircase stripes")
    p.add_argument("--gap", type=int, default=GAP, help=f"least diagonal distance ({GAP})")
    p.add_argument("--full-halo", action="store_true", help="freeze the whole halos")
    p.add_argument("--budget", type=int, default=7200, help="CPU seconds (default 7200)")
    a = p.parse_args(argv)
    disarm = cpu_budget(a.budget)
    opts = f"--gap {a.gap}" + (" --full-halo" if a.full_halo else "")

    def make(
        gen: NurikabeGenerator, rows: int, cols: int, rng: random.Random
    ) -> tuple[Instance, SolutionGrid]:
        try:
            return generate_stripes(gen, rows, cols, rng, a.gap, a.full_halo)
        finally:  # the proof, the summary and the files are not cut off by the budget
            disarm()

    return command.write_one(
        a,
        "stripes",
        make,
        tag="-full" if a.full_halo else "",
        options=opts,
        summary=lambda inst, sol: str(structure(inst, sol)),
    )


if __name__ == "__main__":
    sys.exit(main())
