"""The Nurikabe connectivity propagator of :mod:`formulations.nurikabe.sat_propagate`: the
graph reasoning CaDiCaL (1.9.5 or 3.0) asks for through IPASIR-UP (python-sat's
:class:`pysat.engines.Propagator`), over the model's "black" cell literals and, per island
of two cells or more, its ownership literals ``own[k][v]`` (:func:`bench.encodings.sat.region`).

State is kept incrementally: every observed assignment the solver reports
(``on_assignment``) is pushed on a trail, decision levels are trail marks
(``on_new_level``), and ``on_backtrack`` pops back to a mark, undoing all but the fixed
(root-level) assignments. An assignment only marks what it may change as dirty (the wall, or
the island whose ownership literal it is); ``propagate`` recomputes just that, from the
current partial assignment, and returns every literal it infers. What it derived (the wall's
labelling, each island's search) is kept per level when the level opens and restored as a
whole on backtrack, since it was derived from exactly the assignments that remain. Levels
opened one after another with nothing changed in between (no assignment, backtrack or
propagation work) are one run with one record, so a level takes no memory of its own:
CaDiCaL 1.9.5 can notify millions of levels in a row with nothing else, more than the
formula has variables. The solver
may report a literal handed to it only after a later level opened; such a literal keeps the
level it was handed over at, and a literal handed over at a level still open is never handed
over again. CaDiCaL takes the handed literals one at a time, propagating after each, and drops
the rest at its first conflict (``Internal::external_propagate``): those are never reported,
and the backtrack that follows undoes their level here too (``tallies()`` counts them).
CaDiCaL 1.9.5 takes a literal handed over at the root (no level open) as fixed, or ignores it
when it holds it fixed already, without always reporting it back: such a literal stays open
here, and every later search finds it again (and, finding something, the articulation search
waits). ``root=True`` records each one here at once as a fixed assignment instead (it follows
from fixed assignments by a clause that holds in every solution).
Each inference keeps the cut that justified it, and ``provide_reason`` turns it into the
reason clause when the solver asks (lazily: most inferences are never explained).
Contradictions are handed back as a falsified external clause (``has_clause`` /
``add_clause``). ``check_model`` re-checks every complete assignment the solver offers and,
when it breaks a rule, returns False together with a clause the assignment falsifies (never
False alone: the solver would then accept the model). CaDiCaL 1.9.5 can present one rejected
assignment again and again, never acting on the clause (its final check loops; the
assignment it checks is not its trail): after a number of times in a row the solve ends with
:class:`bench.encodings.propagators.CheckLoop`, an error, rather than run to its time limit.

The reasoning and why each clause holds in every solution (``B`` is the wall's size,
``cells - sum(clues)``, which the CNF's island sizes fix):

* the wall, its articulation cells and the check of complete assignments:
  :mod:`formulations.nurikabe._wall`.
* island k (clue of ``size`` cells; :mod:`formulations.nurikabe._islandreach`): a breadth-first
  search from the clue through the cells not yet refused to k (``own[k][u]`` not false), at most
  ``size - 1`` steps, a whole layer at a time over cell sets held as Python integers
  (:mod:`formulations.nurikabe._bits`). A cell it does not reach is not k's, reason ``(-own[k][v],
  own[k][u] for the refused cells u next to a cell reached in fewer than size - 1 steps)``: while
  those stay refused, any path of owned cells from the clue of at most size - 1 steps stays in the
  searched ball. Fewer than ``size`` cells reached is a conflict over the same refused cells.
  Cells no island can own are black through the CNF ("a white cell has an owner"). A refused cell
  of the last step is a leaf of the search (no path went on through it): the search only loses it,
  while it keeps ``size`` cells.
* an island that reached its size closes: when the cells owned by k and joined to its clue
  through owned cells number ``size``, every neighbour of them is black, reason
  ``(black n, -own[k][c] for those cells c)`` (a white neighbour would be owned by k too).
Sources: monotone graph predicates reasoned inside the SAT solver, with cuts as reasons --
S. Bayless, N. Bayless, H. H. Hoos, A. J. Hu, "SAT Modulo Monotonic Theories", AAAI 2015
(MonoSAT): connectivity is monotone in the not-white cells, so "unreachable now" stays true
while the cut's cells stay closed, and the cut is the reason; M. Gebser, T. Janhunen,
J. Rintanen, "SAT Modulo Graphs: Acyclicity", JELIA 2014: graph checks as propagators in a
CDCL solver with explanations from the current assignment; J. Hopcroft, R. Tarjan,
"Algorithm 447: efficient algorithms for graph manipulation", CACM 16(6), 1973: articulation
points from depth-first low points; and the IPASIR-UP interface, K. Fazekas et al.,
"IPASIR-UP: User Propagators for CDCL", SAT 2023; the same split (local rules as clauses,
connectivity as a native propagator inside the SAT solver) is cspuz_core's (T. Yoshida,
github.com/semiexp/cspuz_core: graph connectivity propagators in Glucose).
"""

from __future__ import annotations

import logging
import time
from bisect import bisect_right
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from pysat.engines import Propagator

from bench.encodings.propagators import Scrambled
from formulations.nurikabe._bits import Bits
from formulations.nurikabe._compiled import warm
from formulations.nurikabe._cutstep import CutStep
from formulations.nurikabe._islandreach import IslandReasoning, IslandVars
from formulations.nurikabe._wall import Shadow, WallReasoning, Why, dfs_graph, grid_table

log = logging.getLogger(__name__)

#: the effort counters this propagator reports (``counters()``), beside the solver's
COUNTERS = ("propagator_calls", "propagator_s", "propagator_inferences", "propagator_reasons",
            "propagator_clauses", "propagator_model_checks", "propagator_model_rejections")


class NurikabePropagator(WallReasoning, IslandReasoning, CutStep, Scrambled, Propagator):
    """Wall connectivity and island reachability over a ``rows`` x ``cols`` grid: ``black``
    holds every cell's "black" variable (reading order), ``islands`` the islands reasoned
    about here (none: the CNF joins islands itself), ``clues`` every clue cell, ``blacks``
    the wall's size in every solution. ``reach=False`` leaves the islands' reachability to the
    CNF (closing them stays here); ``cut=False`` leaves out the articulation inferences;
    ``infer=False`` only checks complete models; ``root=True`` records the literals handed
    over at the root as fixed at once (the module docstring); ``step=True`` infers the
    articulation cells of a new black cell from the last search (:mod:`._cutstep`)."""

    def __init__(self, rows: int, cols: int, black: Sequence[int], islands: Sequence[IslandVars],
                 clues: Sequence[int], blacks: int, reach: bool = True,
                 infer: bool = True, cut: bool = True, root: bool = False, step: bool = False,
                 options: Mapping[str, int] | None = None) -> None:
        super().__init__()
        self.options = dict(options or {})
        self.rows, self.cols, self.blacks, self.infer = rows, cols, blacks, infer
        self.reach, self.cut, self.root, self.step = reach, cut, root, cut and step
        self.black = list(black)
        self.islands = list(islands)
        self.clues = frozenset(clues)
        n = rows * cols
        self.nbrs = [[j for j in ((i - cols) if i >= cols else -1,
                                  (i + cols) if i + cols < n else -1,
                                  (i - 1) if i % cols else -1,
                                  (i + 1) if (i + 1) % cols else -1) if j >= 0]
                     for i in range(n)]
        # the eight cells around each cell in ring order (N, NE, E, SE, S, SW, W, NW; -1 off
        # the grid), for the local test of a white cell that cannot split the wall
        self.ring = [[(r + dr) * cols + c + dc if 0 <= r + dr < rows and 0 <= c + dc < cols
                      else -1 for dr, dc in ((-1, 0), (-1, 1), (0, 1), (1, 1), (1, 0), (1, -1),
                                             (0, -1), (-1, -1))]
                     for r, c in (divmod(i, cols) for i in range(n))]
        self.barr = np.asarray(self.black, dtype=np.int64)
        self.tab = grid_table(rows, cols)
        self.graph = dfs_graph(n)
        self.bits = Bits(rows, cols)
        #: per island: its cells that have an ownership variable
        self.ownbits = [sum(1 << i for i in isl.own) for isl in self.islands]
        top = max([*self.black, *(x for isl in self.islands for x in isl.own.values())])
        #: per variable: the island whose ownership it is (-1: the cell's colour) and the cell
        self.island_of = [-1] * (top + 1)
        self.cell_of = [0] * (top + 1)
        self.observed: list[int] = []
        for i, x in enumerate(self.black):
            self.cell_of[x] = i
            self.observed.append(x)
        for k, isl in enumerate(self.islands):
            for i, x in isl.own.items():
                self.island_of[x] = k
                self.cell_of[x] = i
                self.observed.append(x)
        self.sign: list[int] | None = None
        self.calls = self.inferences = self.reasons = self.clauses = 0
        self.checks = self.rejections = 0
        self.relabels = self.restores = self.cuts = self.lates = self.dropped = self.steps = 0
        self.seconds = 0.0
        self.reported: dict[str, float] = {}
        warm()
        self.reset()

    # --- state ---------------------------------------------------------------------------------

    def reset(self) -> None:
        n = len(self.island_of)
        self.val = [0] * n  # model polarity: 1 true, -1 false, 0 unassigned
        self.fixed = [False] * n
        self.trail: list[int] = []
        # the levels open (``depth``) as runs: levels opened one after another with nothing
        # changed in between share one entry, which starts at level ``starts[r]`` and holds
        # the trail mark, the sent-trail mark and the state when its levels opened
        self.depth = 0
        self.starts: list[int] = []
        self.marks: list[int] = []
        self.snaps: list[tuple[Any, ...]] = []
        self.same = False  # the derived state is still what ``snaps[-1]`` holds
        # the literals handed to the solver at each open level, and the level of each; one
        # reported only after a later level opened (the solver notifies lazily) keeps its
        # level in ``late`` so that a backtrack above that level does not undo it here
        self.sent: dict[int, int] = {}
        self.sent_trail: list[int] = []
        self.sent_marks: list[int] = []
        self.late: dict[int, int] = {}
        self.color = np.zeros(self.rows * self.cols, dtype=np.int8)  # 1 black, -1 white
        self.col = [0] * (self.rows * self.cols)  # the same as a list (cheap to index)
        # what the last look saw: the not-white components and the wall's ``la`` (0: no black
        # cell), the wall component's not-white cells ``wsize``, the rest of its reason
        # ``wtail`` (its anchor black, its white rim then) and the cells of it turned white
        # since without splitting it (``extra``, part of the rim now); per island the cells
        # its search reached and the refused cells it stopped at
        self.lab = np.zeros(self.rows * self.cols, dtype=np.int32)
        self.labl = [0] * (self.rows * self.cols)  # the same as a list
        self.la = self.anchor = self.wsize = 0
        self.wtail: tuple[int, ...] | None = None  # None: made when first needed
        self.extra: list[int] = []
        # per island: its search's cells (all, and those reached before the last step) and
        # the cells refused to it now (kept with every assignment and backtrack)
        self.ball: list[tuple[int, int]] = [(0, 0) for _ in self.islands]
        self.room = [0] * len(self.islands)
        self.refused = [0] * len(self.islands)
        # what an assignment may have changed since
        self.wall_dirty = True
        self.size_dirty = self.cut_dirty = False
        # ``cut_stale``: the wall's component changed since the last articulation search in
        # a way that search did not foresee (a black cell it did not infer, a white cell
        # whose neighbours stay joined around it); ``cut_out``: the cells it inferred black;
        # ``cut_owed``: a backtrack owes a search at the next fixpoint, needed only once
        # the component changes in such a way (until then it would find nothing new)
        self.cut_stale = self.cut_owed = False
        self.cut_out: frozenset[int] = frozenset()
        self.shadow: Shadow | None = None  # the last search kept for the step, and the
        self.cut_new: list[int] = []  # black cells of the component it has not looked at
        self.reach_dirty: set[int] = set(range(len(self.islands))) if self.reach else set()
        self.close_dirty: set[int] = set(range(len(self.islands)))
        self.why: dict[int, Why] = {}  # solver literal -> the rest of its reason
        self.pending: list[int] | None = None

    def connect(self, solver: Any, sign: Sequence[int] | None = None) -> None:
        """Connect to a freshly built python-sat CaDiCaL (before its clauses) and observe the
        variables; ``sign[v] == -1``: v is negated in the solver (a seeded scramble).
        Chronological backtracking is turned off: the trail here is undone level by level
        (and CaDiCaL 1.9.5 through python-sat has crashed with it on); ``options`` (CaDiCaL
        option names and values) are set beside it."""
        self.attach(solver, sign, {**self.options, "chrono": 0})

    def tallies(self) -> dict[str, int]:
        """The work done since the start, by kind: the wall relabelled, a level's state
        restored on backtrack, articulation searches, literals reported after a later level
        opened, literals handed over that the solver never assigned before it backtracked
        over their level (CaDiCaL takes them one at a time and stops at its first conflict)."""
        return {"relabels": self.relabels, "restores": self.restores, "cut_searches": self.cuts,
                "late_notifications": self.lates, "dropped_handed": self.dropped,
                "cut_steps": self.steps}

    def counters(self) -> dict[str, float]:
        """The effort since the last call: callbacks, seconds in them, inferences, reasons
        given, clauses added (conflicts and rejected models), models checked and rejected."""
        now = dict(zip(COUNTERS, (self.calls, self.seconds, self.inferences, self.reasons,
                                  self.clauses, self.checks, self.rejections), strict=True))
        delta = {k: float(v) - self.reported.get(k, 0.0) for k, v in now.items()}
        self.reported = {k: float(v) for k, v in now.items()}
        return delta

    # --- the solver's notifications --------------------------------------------------------------

    def on_assignment(self, lit: int, fixed: bool = False) -> None:
        """Record the assignment; mark dirty only what it can change: the wall when a black
        cell appears outside its component or a cell of it turns white that may split it (a
        white cell whose not-white neighbours stay joined around it only shrinks it); the
        articulation search when such a white cell's neighbours join only through a detour
        (and after a relabel or a backtrack); island k's search when a cell it reached is
        refused, its closing when a cell becomes k's. Over 60 lines: the solver calls it for
        every assigned literal, so its cases stay in one frame without a call per case."""
        t0 = time.perf_counter()
        self.calls += 1
        self.same = False
        lit = self._out(lit)
        var = lit if lit > 0 else -lit
        if self.val[var]:
            if fixed:
                self.fixed[var] = True
        else:
            v = 1 if lit > 0 else -1
            self.val[var] = v
            self.fixed[var] = bool(fixed)
            self.trail.append(var)
            level = self.sent.get(lit)
            if level is not None and level < self.depth:
                self.late[var] = level
                self.lates += 1
            k, c = self.island_of[var], self.cell_of[var]
            if k < 0:
                self.color[c] = self.col[c] = v
                if not self.wall_dirty:
                    la = self.la
                    if la == 0:
                        self.wall_dirty = True
                    elif self.labl[c] == la:
                        if v > 0:
                            # a black cell of A: no articulation search (why: the module
                            # docstring of formulations.nurikabe._wall)
                            if c in self.cut_out:
                                pass
                            elif self.shadow is not None:
                                self.cut_new.append(c)
                            else:
                                self.cut_stale = True
                                if self.cut_owed:
                                    self.cut_dirty = True
                        elif self._simple(c):
                            self.wsize -= 1
                            self.extra.append(c)
                            self.size_dirty = self.cut_stale = True
                            if self.cut_owed:
                                self.cut_dirty = True
                        elif self._joined(c):
                            self.wsize -= 1
                            self.extra.append(c)
                            self.size_dirty = self.cut_dirty = True
                        else:
                            self.wall_dirty = True
                    elif v > 0:
                        self.wall_dirty = True  # a second piece of wall: a conflict
            elif v < 0:
                self.refused[k] |= 1 << c
                reach, inner = self.ball[k]
                if reach >> c & 1:
                    if not inner >> c & 1 and self.room[k] > self.islands[k].size:
                        self.room[k] -= 1  # a cell of the last step: no path went through it
                    else:
                        self.reach_dirty.add(k)
            else:
                self.close_dirty.add(k)
                if self.reach and not self.ball[k][0] >> c & 1:
                    self.reach_dirty.add(k)  # owned out of reach: a conflict to report
        self.seconds += time.perf_counter() - t0

    def on_new_level(self) -> None:
        """Open a level: its trail mark and the derived state as it stands (restored as a
        whole when the search comes back to this level), or, when nothing changed since the
        last level's were kept, the level joins that level's run (a restore into a run that
        keeps levels copies its per-island lists, which the state then changes in place)."""
        t0 = time.perf_counter()
        self.calls += 1
        if not (self.same and self.snaps):  # else the level joins the last run
            self.starts.append(self.depth)
            self.marks.append(len(self.trail))
            self.sent_marks.append(len(self.sent_trail))
            self.snaps.append((self.lab, self.labl, self.la, self.anchor, self.wsize, self.wtail,
                               self.extra, len(self.extra), list(self.ball), list(self.room),
                               self.wall_dirty, self.size_dirty,
                               self.cut_dirty or self.cut_stale, self.cut_out, self.shadow,
                               set(self.reach_dirty) if self.reach_dirty else None))
            self.same = True
        self.depth += 1
        self.seconds += time.perf_counter() - t0

    def on_backtrack(self, to: int) -> None:
        """Undo every assignment above level ``to`` but the fixed ones and restore the derived
        state kept when level ``to + 1`` opened (it was derived from exactly the assignments
        that remain); when a fixed assignment stays above the mark, everything is looked at
        again instead. Over 60 lines: one frame for a callback of every conflict."""
        t0 = time.perf_counter()
        self.calls += 1
        self.same = False
        if to < self.depth:
            r = bisect_right(self.starts, to) - 1  # the run of level ``to + 1``
            cut, snap, sm = self.marks[r], self.snaps[r], self.sent_marks[r]
            shared = self.starts[r] < to  # the run keeps levels that stay open
            keep = r + 1 if shared else r
            del self.starts[keep:], self.marks[keep:], self.snaps[keep:]
            self.depth = to
            sent, late, val = self.sent, self.late, self.val
            for lit in self.sent_trail[sm:]:
                sent.pop(lit, None)
                if not val[lit if lit > 0 else -lit]:
                    self.dropped += 1  # never reported: the solver met a conflict first
            del self.sent_trail[sm:]
            del self.sent_marks[keep:]
            val, fixed, island_of, cell_of = self.val, self.fixed, self.island_of, self.cell_of
            color, col, close_dirty = self.color, self.col, self.close_dirty
            refused = self.refused
            kept = False
            for var in self.trail[cut:]:
                if fixed[var] or (late and late.get(var, to + 1) <= to):
                    kept = True  # root-level, or of a level that stays: stays
                    continue
                if late:
                    late.pop(var, None)
                k = island_of[var]
                if k < 0:
                    c = cell_of[var]
                    color[c] = col[c] = 0
                else:
                    close_dirty.add(k)
                    if val[var] < 0:
                        refused[k] &= ~(1 << cell_of[var])
                val[var] = 0
            if kept:
                self.trail[cut:] = [var for var in self.trail[cut:] if val[var]]
            else:
                del self.trail[cut:]
            if snap is None or kept:
                self.wall_dirty = cut_dirty = True
                if self.reach:
                    self.reach_dirty = set(range(len(self.islands)))
            else:
                self.restores += 1
                (self.lab, self.labl, self.la, self.anchor, self.wsize, self.wtail, self.extra,
                 n, ball, room, self.wall_dirty, self.size_dirty, cut_dirty, self.cut_out,
                 self.shadow, dirty) = snap
                del self.extra[n:]
                if shared:  # the record stays with the levels below: keep it intact
                    ball, room = list(ball), list(room)
                self.ball, self.room = ball, room
                self.reach_dirty = set(dirty) if dirty else set()
            # the articulation search of the level that stays found all it can find in the
            # component as it is now, unless the component changed since in a way it did not
            # foresee: search again only then
            self.cut_dirty = self.cut and cut_dirty
            self.cut_owed = self.cut
            self.cut_stale = False
            self.cut_new = [c for c in self.cut_new if col[c] > 0]
        self.seconds += time.perf_counter() - t0

    def decide(self) -> int:
        return 0

    # --- propagation ---------------------------------------------------------------------------

    def propagate(self) -> list[int]:
        t0 = time.perf_counter()
        self.calls += 1
        out: list[int] = []
        if self.infer and self.pending is None:
            if (self.wall_dirty or self.size_dirty or self.reach_dirty or self.close_dirty
                    or self.cut_new or self.cut_dirty or not self.depth):
                self.same = False  # the searches below may change the derived state
            found: dict[int, Why] = {}
            if self.wall_dirty:
                self.wall_dirty = self.size_dirty = False
                self._wall(found)
            elif self.size_dirty:
                self.size_dirty = False
                self._size(found)
            while self.reach_dirty and self.pending is None:
                self._reach(self.reach_dirty.pop(), found)
            while self.close_dirty and self.pending is None:
                self._close(self.close_dirty.pop(), found)
            if self.cut_new and self.pending is None:
                self._step(found)
            if self.cut_owed and not found and self.pending is None:
                self.cut_owed = False  # a search now would find nothing new
            if self.cut and self.cut_dirty and not found and self.pending is None:
                self.cut_dirty = self.cut_stale = self.cut_owed = False
                if self.la:
                    self._cut(found)
            level = self.depth
            for lit, tail in found.items():
                if lit in self.sent:
                    continue  # handed over at a level still open: the solver has it
                self.sent[lit] = level
                self.sent_trail.append(lit)
                s = self._out(lit)
                self.why[s] = tail
                out.append(s)
            self.inferences += len(out)
            if self.root and not level and self.pending is None:
                self._fix_root(found)
        self.seconds += time.perf_counter() - t0
        return out

    def _fix_root(self, found: Mapping[int, Why]) -> None:
        """Record the root consequences ``found`` (model literals) as fixed assignments, as
        the solver's reports would (their time and calls count in ``propagate``'s)."""
        calls, seconds = self.calls, self.seconds
        for lit in found:
            if not self.val[lit if lit > 0 else -lit]:
                self.on_assignment(self._out(lit), True)
        self.calls, self.seconds = calls, seconds

    def provide_reason(self, lit: int) -> list[int]:
        t0 = time.perf_counter()
        self.calls += 1
        self.reasons += 1
        reason = [lit, *(self._out(x) for x in self.tail(self.why[lit]))]
        self.seconds += time.perf_counter() - t0
        return reason

    def explain(self, lit: int) -> list[int]:
        """The reason clause of the inferred solver literal ``lit``, in model polarity."""
        return [self._out(lit), *self.tail(self.why[lit])]

    def has_clause(self) -> bool:
        self.calls += 1
        return self.pending is not None

    def add_clause(self) -> list[int]:
        t0 = time.perf_counter()
        self.calls += 1
        clause = [self._out(x) for x in self.pending or []]
        self.pending = None
        self.clauses += 1
        self.seconds += time.perf_counter() - t0
        return clause

    # --- complete assignments --------------------------------------------------------------------

    def check_model(self, model: list[int]) -> bool:
        t0 = time.perf_counter()
        self.calls += 1
        self.checks += 1
        self.same = False
        clause = self.violated([self._out(x) for x in model])
        if clause is not None:
            self.rejections += 1
            self.pending = clause
            self.note_rejected(model)
        else:
            self.note_accepted()
        self.seconds += time.perf_counter() - t0
        return clause is None
