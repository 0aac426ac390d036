"""The Nurikabe generator: a random wall and islands, clues moved or 1-islands added (and
islands split, grown, shrunk or reshaped) until no other solution exists, then islands joined,
grown or dropped while the puzzle stays unique, down to about 10 % clue cells."""

from __future__ import annotations

import logging
import random
from typing import Any, ClassVar

from bench.generate import (
    GenerationError,
    Generator,
    SolveTimeout,
    check_size,
    register_generator,
)
from bench.grid import Cell, all_cells, components, neighbours
from bench.instance import Instance
from bench.puzzles import SolutionGrid
from bench.puzzles.nurikabe.generate import few, walls
from bench.puzzles.nurikabe.generate.big import BIG_PARAMS, freeze, pinned_solution
from bench.puzzles.nurikabe.generate.board import Join, NurikabeState, Wall, plan_changes
from bench.puzzles.nurikabe.generate.edits import apply_edit, blackened
from bench.puzzles.nurikabe.generate.unique import WarmCheck

log = logging.getLogger(__name__)


@register_generator
class NurikabeGenerator(Generator):
    """Random solution: a wall grown from a random cell without 2x2 black blocks until every
    white component (island) has at most ``max_island`` cells and the black share reaches a
    random target in 55..58 % (:meth:`random_solution`). One clue per island at a random
    cell. While another solution exists, edits that each exclude it (:meth:`make_unique`:
    move a clue, add a 1-island, split, grow or shrink an island), allowing up to
    :attr:`dense_share` clue cells. Then, while unique, the puzzle is thinned
    (:meth:`sparsify`: islands joined, grown, 1-islands dropped, each kept only while the
    puzzle stays unique) towards :attr:`clue_share`; a puzzle above :attr:`max_clue_share` is
    dropped. Gives up on a solution after a bounded number of rounds and starts over from a new
    one. Uniqueness: ``sat-lazy`` (exact) on CaDiCaL warm-started at the intended solution
    and limited by conflicts, not time (:class:`WarmCheck`), so a seed gives the same puzzle on
    a loaded machine; :meth:`sparsify` checks each batch of joins locally and the whole puzzle
    every few rounds and at the end. With :attr:`big` (``--param big=K``) the random solution
    is built around K big islands that no edit changes (:mod:`.big`), with three times the
    rounds, the checks are :attr:`big_formulation`'s and :attr:`max_ones`
    applies (the pockets between a snake's runs fill up with 1-islands). With :attr:`cover`
    (``--param cover=P``) it makes the few-clue kind (:mod:`.few`): islands covering
    at least P % of the grid with few clues. With :attr:`clues` (``--param clues=2``) it
    makes the two-clue kind (:mod:`.walls`): two islands on 65-80 % of the grid, the wall a
    ring between them, searched for among walls rather than clues."""

    puzzle = "nurikabe"
    formulation = "sat-lazy"
    solver = "cadical195"
    max_island = 36
    #: the island cap of the random solution :meth:`make_unique` starts from (small islands
    #: make it unique fast; :meth:`sparsify` then joins and grows them up to :attr:`max_island`)
    start_island = 9
    black_share = (0.52, 0.56)  # the random solution's black share is drawn from this range
    join_weight = 0.3  # weight of a wall cell joining two wall parts (closing an island)
    #: weight factor of a wall cell that pinches off an island of 1 or 2 cells
    small_piece: ClassVar[dict[int, float]] = {1: 0.02, 2: 0.15}
    restarts = 8
    #: relative weights of the edit kinds of :meth:`make_unique` (the clue-adding kinds
    #: ``new`` and ``split`` rare: real puzzles have about 10 % clue cells)
    edit_weights: ClassVar[dict[str, float]] = {
        "new": 1.0, "split": 1.0, "grow": 1.0, "shrink": 1.0, "move": 2.0, "reshape": 0.5,
        "merge": 3.0}
    clue_share = 0.10  # the clue share :meth:`sparsify` aims at (real puzzles: about 10 %)
    max_clue_share = 0.15  # a puzzle above this share of clue cells is dropped
    max_ones = 0.2  # with big islands, one whose clues are more than this share 1s too
    sparse_boost = 8.0  # weight factor of "new" and "split" while below clue_share
    #: :meth:`make_unique`: above the first share of clue cells each round also joins islands;
    #: a solution whose edits pass the second is dropped
    dense_share = (0.22, 0.30)
    #: :meth:`sparsify`: rounds in a row without a kept join before it stops
    max_failed_rounds = 4
    #: conflicts (CaDiCaL) one uniqueness check may spend, its lazy rounds summed; past it
    #: the check counts as "not unique" (deterministic, unlike a time limit)
    conflicts = 200_000
    #: :meth:`sparsify` checks its changes locally: other solutions that differ only within
    #: this many steps of the changed cells (the rest held as intended)
    window_radius = 5
    #: :meth:`sparsify`: rounds between whole-puzzle checks
    verify_every = 3
    #: :meth:`sparsify` stops after this many whole-puzzle checks in a row that keep nothing
    max_stalls = 2
    #: one check reports up to one ambiguity (another solution's difference) per this many
    #: cells, each away from the others (:meth:`WarmCheck.other`)
    cells_per_alternative = 100
    #: :meth:`make_unique` makes no edit that leaves a 1-cell piece but in one round of every
    #: this many in a row that found no smaller difference, nor in a round's last-resort edit
    #: (unchecked shrinks, splits and reshapes would fill a large grid with 1-islands, where
    #: real puzzles have a few per cent). Small grids reach their smallest difference in the
    #: first round, so :meth:`generate_kind` halves it on each restart, down to every round
    #: (or to :attr:`least_patience`)
    patience = 15
    least_patience = 1  # the patience is halved on each restart down to this
    repairs = 1  # :meth:`sparsify`: clue moves that may repair a join before it is undone
    max_moves = 2  # clue moves of one island before its region is reshaped instead
    #: relative weights of the ways to reshape an island (:meth:`reshapes`)
    reshape_weights: ClassVar[dict[str, float]] = {"grow": 1.0, "shrink": 1.0, "split": 0.1}
    #: pinned big islands (:mod:`.big`) to make, and their least and most cells
    big, bigmin, bigmax = 0, 37, 45
    small = 0  # the small islands' cap of the pinned solution (:mod:`.big`; 0: start_island)
    alts = 0  # cells per alternative of a check (0: :attr:`cells_per_alternative`)
    #: the check with big islands
    big_formulation = "sat-hybrid[wall=cut,islands=layers,enclose=3,card=seqcounter]"
    cover = 0  # the few-clue kind (:mod:`.few`): islands on this % of the grid
    clues = 0  # the two-clue kind (:mod:`.walls`): this many clues (2)
    params: ClassVar[dict[str, str]] = {
        "big": "big islands (bigmin-bigmax cells) to make (default 0)",
        **BIG_PARAMS,
        "alts": "a check reports up to one other solution per N cells (default 0: 100)",
        "cover": "few clues: islands on at least P % of the grid, at most 1 clue per 15 cells",
        "clues": "exactly this many clues (2) on 65-80 % white, the wall a ring (default 0)"}

    def generate_solved(
        self, rows: int, cols: int, rng: random.Random
    ) -> tuple[Instance, SolutionGrid]:
        check_size(self.puzzle, rows, cols)
        if self.clues:
            if self.big or self.cover:
                raise GenerationError("nurikabe: clues is a kind of its own: set it alone")
            return walls.two_clue(self, rows, cols, rng, self.clues, self.restarts)
        if self.cover:
            if self.big:
                raise GenerationError("nurikabe: big and cover are two kinds: set one")
            if self.cover > 100:
                raise GenerationError(f"bad parameter cover={self.cover}: a percentage, "
                                      "at most 100")
            gen = few.few_clue(self)
            try:
                return gen.generate_kind(rows, cols, rng)
            finally:
                self.solves += gen.solves
        return self.generate_kind(rows, cols, rng)

    def generate_kind(
        self, rows: int, cols: int, rng: random.Random
    ) -> tuple[Instance, SolutionGrid]:
        """:meth:`generate_solved` with this generator's settings as they are."""
        tries = 0  # make_unique runs so far: each one after the first halves the patience
        for _ in range(self.restarts):
            state = pinned_solution(self, rows, cols, rng) if self.big else \
                self.random_solution(rows, cols, rng, cap=self.start_island)
            if state is None:
                continue
            try:
                tries += 1  # a run that times out counts too
                clue = self.make_unique(
                    state, rng, max(self.least_patience, self.patience >> (tries - 1)))
                log.debug("make_unique: %s clues", None if clue is None else len(clue))
                if clue is None:
                    continue
                self.sparsify(state, clue, rng)
            except SolveTimeout:
                log.debug("restart: a check ran out of conflicts")
                continue
            ones = sum(len(state.cells[k]) == 1 for k in clue) if self.big else 0
            if len(clue) <= self.max_clue_share * rows * cols and \
                    ones <= self.max_ones * len(clue) and (not self.cover or few.covered(
                        rows * cols, rows * cols - state.black, len(clue), self.cover)):
                return self.puzzle_of(state, clue), state.solution()
            log.debug("dropped: %d clues, %d white cells", len(clue), rows * cols - state.black)
        raise GenerationError(f"nurikabe {rows}x{cols}: gave up after {self.restarts} restarts")

    def puzzle_of(self, s: NurikabeState, clue: dict[int, Cell]) -> Instance:
        """The instance: each island's size at its clue cell."""
        grid: list[list[int | None]] = [[None] * s.cols for _ in range(s.rows)]
        for k, (r, c) in clue.items():
            grid[r][c] = len(s.cells[k])
        return self.instance(grid)

    def random_solution(self, rows: int, cols: int, rng: random.Random,
                        cap: int | None = None) -> NurikabeState | None:
        """Grow the wall from a random cell, one white cell next to it at a time, never making
        a 2x2 black block: a random white component is picked (weighted by its size squared,
        among those above the island cap, else, while the black share is below target, among
        those of two or more cells) and a random cell of it on the wall's edge turns black
        (cells extending a wall end preferred over cells joining two walls, :meth:`Wall.weight`).
        The white components that remain are the islands. None if a component above the cap
        cannot be cut."""
        wall = Wall(rows, cols, self.join_weight, self.small_piece)
        wall.blacken((rng.randrange(rows), rng.randrange(cols)))
        target = rng.uniform(*self.black_share) * rows * cols
        blacks = 1
        while True:
            big = [k for k, cells in wall.comps.items()
                   if len(cells) > (self.cap(rows, cols) if cap is None else cap)]
            if not big and blacks >= target:
                break
            ks = big or [k for k, cells in wall.comps.items()
                         if len(cells) > 1 and k not in wall.done]
            if not ks:
                break
            k = rng.choices(ks, [len(wall.comps[k]) ** 2 for k in ks])[0]
            cands = [v for v in wall.frontier
                     if wall.comp[v[0]][v[1]] == k and not wall.makes_pool(v)]
            if not cands:
                if big:
                    return None
                wall.done.add(k)
                continue
            wall.blacken(rng.choices(cands, [wall.weight(v) for v in cands])[0])
            blacks += 1
        return wall.state()

    def make_unique(self, s: NurikabeState, rng: random.Random,
                    patience: int | None = None) -> dict[int, Cell] | None:
        """Edit until unique. Against another solution ``alt``, one edit, picked at random
        among the possible kinds (weights :attr:`edit_weights`), each of which excludes ``alt``:

        * ``new``: a cell white only in ``alt`` becomes a 1-island here (when legal);
        * ``split``: a wall cell splits an island so that a cell of it that is black in
          ``alt`` is cut off from the clue and gets its own clue;
        * ``grow`` / ``shrink``: a cell white only in ``alt`` joins the one island it touches,
          or a cell white only here leaves its island (both change the clue sum, hence the
          number of black cells, which ``alt`` no longer has);
        * ``move``: an island's clue moves to one of its cells that is black in ``alt``
          (islands moved less often preferred);
        * ``reshape``: an island in the difference grows or loses a cell anywhere on it
          (:meth:`reshapes`; the clue sum changes); once an island's clue has moved
          :attr:`max_moves` times, its clue no longer moves (pockets where every clue
          position leaves two shapes).

        Each round makes one edit in every 4-connected region of the difference (usually
        separate ambiguities, so large grids need few rounds), but at most one per island
        (regions touching one island, such as two diagonal cells, are one ambiguity: a shrink
        in one and a grow in the other would make exactly the other solution, and the two
        would swap every round); if none applies anywhere, one edit on the whole difference,
        else :meth:`unstick` (:meth:`edit_round`). A puzzle met again (edits that undo each
        other over a few rounds: a 50x50 went round a cycle of 4-cell differences for 80
        rounds) is also :meth:`unstick`-ed. Shrinks, splits and reshapes that leave a 1-cell
        piece are left out but in one round of every ``patience`` (:attr:`patience`) without
        a new smallest difference and in the last-resort edit."""
        clue = {k: rng.choice(cells) for k, cells in s.cells.items()}
        moved = dict.fromkeys(clue, 0)
        most = self.dense_share[1] * s.rows * s.cols
        seen: set[tuple[Any, ...]] = set()  # the puzzles (solution, clue cells) edited so far
        best, since = s.rows * s.cols, 0  # the smallest difference yet, rounds since
        patience = patience or self.patience
        for _ in range(self.max_edits(s.rows, s.cols)):
            alt = self.other(self.puzzle_of(s, clue), s.solution())
            if alt is None:  # unique; dropped if too dense
                return clue if len(clue) <= most else None
            solution = s.solution()
            diff = [(r, c) for r in range(s.rows) for c in range(s.cols)
                    if solution[r][c] != alt[r][c]]
            log.debug("make_unique: %d clues, %d cells differ", len(clue), len(diff))
            best, since = (len(diff), 0) if len(diff) < best else (best, since + 1)
            self.thin(s, clue, moved, rng)
            if len(clue) > most:
                return None
            regions = components(diff, s.rows, s.cols)
            rng.shuffle(regions)
            key = (tuple(map(tuple, solution)), tuple(sorted(clue.values())))
            # back at a puzzle edited before: the edits go round in a cycle; join an island
            # (else the clues of the difference move again, in the edits below)
            if key in seen and self.unstick(s, clue, moved, diff, rng):
                continue
            seen.add(key)
            self.edit_round(s, clue, moved, alt, diff, regions, rng,
                            whole=since % patience != patience - 1)
        return None

    def edit_round(self, s: NurikabeState, clue: dict[int, Cell], moved: dict[int, int],
                   alt: SolutionGrid, diff: list[Cell], regions: list[list[Cell]],
                   rng: random.Random, whole: bool) -> None:
        """One round of :meth:`make_unique`: separate regions of the difference are usually
        separate ambiguities, so one edit in each, but one per island (two, a shrink here
        and a grow there, could make exactly the other solution); if none applies, one edit
        anywhere in the difference (1-cell pieces allowed: a 10x10 ran out of rounds on a
        2-cell difference without them), else :meth:`unstick`. ``whole``: see :meth:`edit`."""
        edited: list[bool] = []
        touched: set[int] = set()
        for region in regions:
            ks = s.islands_at(region)
            if ks & touched:
                continue
            edited.append(self.edit(s, clue, moved, alt, region, rng, whole))
            touched |= ks
        if not any(edited) and not self.edit(s, clue, moved, alt, diff, rng, whole=False):
            self.unstick(s, clue, moved, diff, rng)

    def unstick(self, s: NurikabeState, clue: dict[int, Cell], moved: dict[int, int],
                diff: list[Cell], rng: random.Random) -> bool:
        """The last resort of :meth:`make_unique` when no edit applies anywhere in the
        difference (else the same other solution comes back every round): an island of the
        difference, whose clue has moved :attr:`max_moves` times and which can neither grow
        nor shrink without cutting the wall or making a 2x2 pool, or whose edits go round in a
        cycle, is joined to a neighbouring island through a wall cell next to both; if there
        is none, its clue may move again (False)."""
        ks = sorted(s.islands_at(diff))
        near = sorted({v for k in ks for v in s.boundary(k)})
        joins = s.merges(near, self.cap(s.rows, s.cols))
        if joins:
            for j in s.merge(rng.choice(joins)):
                del clue[j], moved[j]
            return True
        for k in ks:
            moved[k] = 0
        return False

    def edit(self, s: NurikabeState, clue: dict[int, Cell], moved: dict[int, int],
             alt: SolutionGrid, region: list[Cell], rng: random.Random, whole: bool) -> bool:
        """One edit of :meth:`make_unique` inside a region where ``alt`` differs; False if
        none applies there. With ``whole``, no shrink or split that leaves a 1-cell piece."""
        here = [(r, c) for r, c in region if s.island[r][c] >= 0 and alt[r][c] == "#"]
        there = [(r, c) for r, c in region if s.island[r][c] < 0 and alt[r][c] == "."]
        stuck = any(moved[s.island[r][c]] >= self.max_moves for r, c in here)
        options: dict[str, list[Any]] = {
            "new": [v for v in there if not s.adjacent_islands(v) and s.may_whiten(v)],
            "split": [(d, b) for d in here for b in s.cut_cells(clue[s.island[d[0]][d[1]]], d)],
            "grow": [(v, owner) for v in there
                     if (owner := s.sole_island(v, self.cap(s.rows, s.cols))) is not None],
            "shrink": [d for d in here if s.can_shrink(d, clue[s.island[d[0]][d[1]]])],
            "move": [] if stuck else here,
            "merge": s.merges(there, self.cap(s.rows, s.cols)),
            "reshape": [(k, op, v) for k in sorted({s.island[r][c] for r, c in here}
                                                   | {k for v in there
                                                      for k in s.adjacent_islands(v)})
                        for op, v in self.reshapes(s, clue[k], k)],
        }
        for k in ("split", "shrink", "reshape") if whole else ():
            options[k] = [o for o in options[k]
                          if (v := blackened(k, o)) is None or not s.leaves_one(v)]
        freeze(s, options)
        kinds = [k for k in self.edit_weights if options[k]]
        if not kinds:
            return False
        sparse = len(clue) < self.clue_share * s.rows * s.cols  # room for clues: add them
        kind = rng.choices(kinds, [self.edit_weights[k] * (self.sparse_boost if sparse and k in
                                                           ("new", "split") else 1.0)
                                   for k in kinds])[0]
        apply_edit(s, clue, moved, kind, options[kind], here, rng, self.reshape_weights)
        return True

    def reshapes(self, s: NurikabeState, keep: Cell, k: int) -> list[tuple[str, Cell]]:
        """Every way to grow island ``k`` by a black cell next to it (touching no other
        island, keeping the wall connected, up to the size cap) or to turn one of its cells
        other than the clue ``keep`` black (touching the wall, no 2x2 black block; the island
        may fall apart, the pieces get their own clues). Each changes the clue sum."""
        out: list[tuple[str, Cell]] = [("grow", v) for v in s.grows(k, self.cap(s.rows, s.cols))]
        for v in s.cells[k]:
            if v != keep and not s.makes_pool(v) and \
                    any(s.is_black(*n) for n in neighbours(v, s.rows, s.cols)):
                pieces = components([u for u in s.cells[k] if u != v], s.rows, s.cols)
                out.append(("shrink" if len(pieces) == 1 else "split", v))
        return out

    def sparsify(self, s: NurikabeState, clue: dict[int, Cell], rng: random.Random) -> None:
        """Join islands of the unique puzzle while it stays unique, until :attr:`clue_share`
        is reached or :attr:`max_failed_rounds` rounds in a row keep nothing.

        A round joins a batch of island pairs at once (:meth:`joins`: a wall cell between
        two or more islands turns white, the joined island keeps one of their clue cells at
        random) and checks them locally (:meth:`settle`); a batch mostly undone halves the
        next (at 40x40 and 50x50 batches of 40-70 were mostly undone and the thinning stopped
        at 13-15 % clue cells), one mostly kept doubles it. Every :attr:`verify_every` rounds
        and at the end the whole puzzle is checked (:meth:`verify`), undoing joins until it
        is unique again, so the puzzle it leaves is unique; each kept join removes a clue,
        makes an island bigger and lengthens the walls around it."""
        cells = s.rows * s.cols
        most = batch = max(2, len(clue) // 6)
        failed, rounds, stalls = 0, 0, 0
        pending: list[Join] = []
        while len(clue) > self.clue_share * cells and failed < self.max_failed_rounds \
                and stalls < self.max_stalls:
            want = min(batch, len(clue) - int(self.clue_share * cells))
            done = self.settle(s, clue, self.joins(s, clue, want, rng), rng)
            log.debug("sparsify: %d clues, %d joins kept of %d", len(clue), len(done), want)
            failed = 0 if done else failed + 1
            # a batch mostly undone halves (its changes spoil each other's checks), one
            # mostly kept doubles, up to the first
            if 4 * len(done) < want:
                batch = max(2, batch // 2)
            elif 2 * len(done) >= want:
                batch = min(most, 2 * batch)
            pending += done
            rounds += 1
            if rounds % self.verify_every == 0:
                stalls = 0 if self.verify(s, clue, pending) else stalls + 1
                pending = []
        self.verify(s, clue, pending)

    def settle(self, s: NurikabeState, clue: dict[int, Cell], done: list[Join],
               rng: random.Random) -> list[Join]:
        """The changes of one round, checked locally (:meth:`other_within` inside
        :meth:`NurikabeState.around` them): while another solution differs there, the changes
        whose island lies next to or in its difference (else the nearest,
        :meth:`NurikabeState.nearest`) get their clue moved (:attr:`repairs` times) or are
        undone; the changes kept, returned."""
        while done:
            try:
                alt = self.other_within(self.puzzle_of(s, clue), s.solution(),
                                        s.around([v for j in done for v in j.cells()],
                                                 self.window_radius))
            except SolveTimeout:
                alt = s.solution()  # treated as not unique: undo everything
            if alt is None:
                break
            bad = [done[i] for i in s.nearest(alt, [j.cells() for j in done])]
            undone = []
            for j in reversed(bad):
                k = min(j.before)
                moves = [] if j.drop else [u for u in s.cells[k] if alt[u[0]][u[1]] == "#"]
                if j.tries < self.repairs and moves:  # move the joined island's clue
                    clue[k] = rng.choice(moves)
                    j.tries += 1
                else:
                    j.undo(s, clue)
                    undone.append(j)
            done = [j for j in done if j not in undone]
        return done

    def verify(self, s: NurikabeState, clue: dict[int, Cell], pending: list[Join]) -> int:
        """Check the whole puzzle after the locally checked changes ``pending`` (in the order
        made); while another solution exists, undo the changes next to its difference (else
        the nearest), with every later change touching one of them, latest first. The number
        of changes kept, returned."""
        while pending:
            try:
                alt = self.other(self.puzzle_of(s, clue), s.solution(), most=1)
            except SolveTimeout:
                alt = s.solution()
            if alt is None:
                break
            bad = set(s.nearest(alt, [j.cells() for j in pending]))
            for i, j in enumerate(pending):  # later changes that touch an undone one
                ring = {n for v in j.cells() for n in (v, *neighbours(v, s.rows, s.cols))}
                bad |= {k for k in range(i + 1, len(pending))
                        if i in bad and ring & set(pending[k].cells())}
            for i in sorted(bad, reverse=True):
                pending[i].undo(s, clue)
            log.debug("verify: %d changes undone of %d", len(bad), len(pending))
            pending = [j for i, j in enumerate(pending) if i not in bad]
        return len(pending)

    def other(self, inst: Instance, intended: SolutionGrid,
              most: int | None = None) -> SolutionGrid | None:
        """A solution other than ``intended`` (None if none), by the warm, conflict-limited
        check (:class:`WarmCheck`; :class:`SolveTimeout` past its budget), with the
        differences of up to ``most`` (default: one per :attr:`cells_per_alternative` cells)
        separate other solutions."""
        self.solves += 1
        most = most or max(1, inst.cells // (self.alts or self.cells_per_alternative))
        return WarmCheck(self.uniqueness_formulation(), self.conflicts).other(inst, intended, most)

    def other_within(self, inst: Instance, intended: SolutionGrid,
                     free: set[Cell]) -> SolutionGrid | None:
        """The local check of :meth:`sparsify`: another solution differing only in ``free``."""
        self.solves += 1
        return WarmCheck(self.uniqueness_formulation(), self.conflicts).other(
            inst, intended, 1, free)

    def joins(self, s: NurikabeState, clue: dict[int, Cell], want: int,
              rng: random.Random) -> list[Join]:
        """One round's changes of :meth:`sparsify` (:func:`plan_changes` with the size cap)."""
        return plan_changes(s, clue, want, self.cap(s.rows, s.cols), rng)

    def thin(self, s: NurikabeState, clue: dict[int, Cell], moved: dict[int, int],
             rng: random.Random) -> None:
        """Above :attr:`dense_share` [0], join random pairs of islands (anywhere) until half the
        excess clues are gone or no join is possible."""
        excess = len(clue) - int(self.dense_share[0] * s.rows * s.cols)
        for _ in range((excess + 1) // 2):
            joins = s.merges(all_cells(s.rows, s.cols), self.cap(s.rows, s.cols))
            if not joins:
                return
            for j in s.merge(rng.choice(joins)):
                del clue[j], moved[j]

    def cap(self, rows: int, cols: int) -> int:
        """The largest island: :attr:`max_island`, less on small grids (one cell in 10);
        with :attr:`cover`, :attr:`max_island` on any grid."""
        return self.max_island if self.cover else max(9, min(self.max_island, rows * cols // 10))

    def uniqueness_formulation(self) -> str:
        if self.big:
            return self.big_formulation
        if self.clues:
            return walls.FORMULATION
        return few.FORMULATION if self.cover else self.formulation

    def proof_count(self, inst: Instance) -> int:
        if self.clues and walls.counted(inst.rows, inst.cols):
            return walls.proof_count(inst)
        return super().proof_count(inst)

    def max_edits(self, rows: int, cols: int) -> int:
        return (40 + rows * cols // 2) * (3 if self.big else 1)
