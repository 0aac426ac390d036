"""The Fillomino region-size propagator of :mod:`formulations.fillomino.sat_propagate`: the
reasoning ``sat-regions`` adds as cuts between solves, done inside CaDiCaL 1.9.5 through
IPASIR-UP (python-sat's :class:`pysat.engines.Propagator`), over the variables of the region
encoding (:mod:`bench.puzzles.fillomino.encoding_sat`): ``s[u, w]`` (u and w in one region) and
``e[v, k]`` (v's number has code k).

**Complete assignments** (``check_model``): the assignment is read as ``sat-regions`` reads a
model (:func:`~bench.puzzles.fillomino.encoding_sat.read`) and given the same cuts
(:func:`~bench.puzzles.fillomino.encoding_sat.cuts`: a component of the wrong size, touching
BIG regions of one size, a BIG region beside a given region of its size, a BIG component's
inner edge off). With none it is a solution (the encoding's argument: its module docstring) and
the check passes; else the check fails and the cuts, each falsified by the assignment and each
holding in every solution, are handed over as external clauses (``has_clause`` /
``add_clause``). The check never fails without a clause: CaDiCaL would then accept the model.

**Partial assignments** (``infer=True``): the components of the true ``s`` literals are kept in
a union-find without path compression (union by size), and per cell its *cap*, the largest
number its codes not yet false allow (unbounded while BIG is open); per component the smallest
cap of its cells and the cell that has it. A component of n cells with a cell v whose cap c is
below n is a conflict: "these c + 1 cells joined from v by true ``s`` edges make v's number at
least c + 1", clause ``(-s of their breadth-first tree, e[v, k] for v's codes meaning a number
>= c + 1)``, the "too big" cut of ``sat-regions`` on the partial assignment; it holds in every
solution (a region of at least c + 1 cells has a number >= c + 1) and the assignment falsifies
it. Every change to the union-find and the caps is written on an undo trail; a decision level
is a mark on it, and ``on_backtrack`` pops back to the mark (chronological backtracking is off,
so the levels are undone in order). A fixed assignment reported above the root is applied again
after the backtrack that undoes it (the solver does not report it again).

Sources: the IPASIR-UP interface, K. Fazekas, A. Niemetz, M. Preiner, M. Kirchweger, S.
Szeider, A. Biere, "IPASIR-UP: User Propagators for CDCL", SAT 2023; lazy clause generation of
graph constraints from the current assignment, S. Bayless, N. Bayless, H. H. Hoos, A. J. Hu,
"SAT Modulo Monotonic Theories", AAAI 2015 (component size is monotone in the true ``s``
literals, so the joined tree is the reason); undoable union-find without path compression,
Z. Galil, G. F. Italiano, "Data structures and algorithms for disjoint set union problems",
ACM Computing Surveys 23(3), 1991.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from pysat.engines import Propagator

from bench.backends.kinds import SatAssignment
from bench.encodings.propagators import Scrambled
from bench.puzzles.fillomino import encoding_sat as fillomino_sat
from bench.puzzles.fillomino.encoding_sat import BIG, Regions

#: the effort counters this propagator reports (``counters()``), beside the solver's
COUNTERS = ("propagator_calls", "propagator_s", "propagator_clauses",
            "propagator_model_checks", "propagator_model_rejections", "propagator_conflicts")

#: the cap of a cell whose BIG code is open (no bound on its number)
OPEN = 1 << 30


class FillominoPropagator(Scrambled, Propagator):
    """The region cuts of ``reg`` as an IPASIR-UP propagator; ``infer=False`` only checks
    complete assignments (python-sat then connects it as a lazy propagator: no notifications)."""

    def __init__(self, reg: Regions, infer: bool = True) -> None:
        super().__init__()
        self.reg, self.infer = reg, infer
        self.is_lazy = not infer
        cells = list(reg.codes)
        self.cells = cells
        num = {v: i for i, v in enumerate(cells)}
        self.num = num
        svars = [x for _, _, x in reg.pairs]
        self.observed = sorted({*reg.e.values(), *svars})
        top = max(self.observed)
        self.top = top
        #: per variable: the edge's cells (s) or the cell and its code (e); -1 for neither
        self.kind = [0] * (top + 1)  # 1: s, 2: e
        self.a = [0] * (top + 1)
        self.b = [0] * (top + 1)
        for u, w, x in reg.pairs:
            self.kind[x], self.a[x], self.b[x] = 1, num[u], num[w]
        for (v, k), x in reg.e.items():
            self.kind[x], self.a[x], self.b[x] = 2, num[v], k
        #: per cell: (neighbour, s variable) for each edge with one
        self.adj: list[list[tuple[int, int]]] = [[] for _ in cells]
        for u, w, x in reg.pairs:
            self.adj[num[u]].append((num[w], x))
            self.adj[num[w]].append((num[u], x))
        #: per cell: its codes' (number, e variable), BIG as OPEN
        self.codes = [[(OPEN if k == BIG else k, reg.e[v, k]) for k in reg.codes[v]]
                      for v in cells]
        self.sign: list[int] | None = None
        self.calls = self.clauses = self.checks = self.rejections = self.conflicts = 0
        self.seconds = 0.0
        self.reported: dict[str, float] = {}
        self.reset()

    def reset(self) -> None:
        n = len(self.cells)
        self.val = [0] * (self.top + 1)  # model polarity: 1 true, -1 false, 0 unassigned
        self.parent = list(range(n))
        self.size = [1] * n
        self.cap = [max(k for k, _ in cs) for cs in self.codes]
        self.low = list(self.cap)  # per root: the smallest cap of its component's cells
        self.wit = list(range(n))  # per root: a cell with that cap
        self.undo: list[tuple[list[int], int, int]] = []  # (array, index, old value)
        self.trail: list[int] = []  # the assigned variables, in order
        self.fixed: set[int] = set()
        self.marks: list[tuple[int, int]] = []  # per level: (undo, trail) lengths
        self.bad: list[int] = []  # cells whose component may be too big
        self.pending: list[list[int]] = []  # clauses to hand over (model polarity)

    def connect(self, solver: Any, sign: Sequence[int] | None = None) -> None:
        """Connect to a freshly built python-sat CaDiCaL (before its clauses) and observe the
        variables; ``sign[v] == -1``: v is negated in the solver (a seeded scramble). With
        ``infer``, chronological backtracking is off (the undo trail is popped level by
        level)."""
        self.attach(solver, sign, {"chrono": 0} if self.infer else {})

    def counters(self) -> dict[str, float]:
        """The effort since the last call: callbacks, seconds in them, clauses handed over,
        models checked and rejected, conflicts found on partial assignments."""
        now = dict(zip(COUNTERS, (self.calls, self.seconds, self.clauses, self.checks,
                                  self.rejections, self.conflicts), strict=True))
        delta = {k: float(v) - self.reported.get(k, 0.0) for k, v in now.items()}
        self.reported = {k: float(v) for k, v in now.items()}
        return delta

    # --- partial assignments ---------------------------------------------------------------------

    def _find(self, i: int) -> int:
        parent = self.parent
        while parent[i] != i:
            i = parent[i]
        return i

    def _set(self, arr: list[int], i: int, value: int) -> None:
        self.undo.append((arr, i, arr[i]))
        arr[i] = value

    def _apply(self, var: int, v: int) -> None:
        """Record variable ``var`` as ``v`` (1 / -1): a true ``s`` joins two components, a
        false ``e`` may lower its cell's cap; a component that may now be too big is noted."""
        self.val[var] = v
        self.trail.append(var)
        kind = self.kind[var]
        if kind == 1 and v > 0:
            ra, rb = self._find(self.a[var]), self._find(self.b[var])
            if ra == rb:
                return
            if self.size[ra] < self.size[rb]:
                ra, rb = rb, ra
            self._set(self.parent, rb, ra)
            self._set(self.size, ra, self.size[ra] + self.size[rb])
            if self.low[rb] < self.low[ra]:
                self._set(self.low, ra, self.low[rb])
                self._set(self.wit, ra, self.wit[rb])
            if self.size[ra] > self.low[ra]:
                self.bad.append(ra)
        elif kind == 2 and v < 0:
            c = self.a[var]
            k = self.b[var]
            if (OPEN if k == BIG else k) != self.cap[c]:
                return
            val = self.val
            cap = max((n for n, x in self.codes[c] if val[x] >= 0), default=0)
            self._set(self.cap, c, cap)
            r = self._find(c)
            if cap < self.low[r]:
                self._set(self.low, r, cap)
                self._set(self.wit, r, c)
                if self.size[r] > cap:
                    self.bad.append(r)

    def on_assignment(self, lit: int, fixed: bool = False) -> None:
        """Record the assignment (without ``infer``: only count it; python-sat notifies every
        observed variable's assignment even to a propagator declared lazy)."""
        t0 = time.perf_counter()
        self.calls += 1
        if not self.infer:
            self.seconds += time.perf_counter() - t0
            return
        lit = self._out(lit)
        var = lit if lit > 0 else -lit
        if fixed and self.marks:
            self.fixed.add(lit)
        if not self.val[var]:
            self._apply(var, 1 if lit > 0 else -1)
        self.seconds += time.perf_counter() - t0

    def on_new_level(self) -> None:
        t0 = time.perf_counter()
        self.calls += 1
        if self.infer:
            self.marks.append((len(self.undo), len(self.trail)))
        self.seconds += time.perf_counter() - t0

    def on_backtrack(self, to: int) -> None:
        """Pop the undo trail and the assignments back to level ``to``'s mark; fixed
        assignments among them are applied again."""
        t0 = time.perf_counter()
        self.calls += 1
        if self.infer and to < len(self.marks):
            u, t = self.marks[to]
            del self.marks[to:]
            undo = self.undo
            while len(undo) > u:
                arr, i, old = undo.pop()
                arr[i] = old
            val = self.val
            again = []
            for var in self.trail[t:]:
                if self.fixed and (var in self.fixed or -var in self.fixed):
                    again.append(var if val[var] > 0 else -var)
                val[var] = 0
            del self.trail[t:]
            self.bad = []
            for lit in again:
                self._apply(abs(lit), 1 if lit > 0 else -1)
        self.seconds += time.perf_counter() - t0

    def decide(self) -> int:
        return 0

    def propagate(self) -> list[int]:
        """No literals: a component too big for a cap is handed over as a conflict clause
        (the clauses wait in ``pending``; they hold in every solution, so a backtrack before
        the solver takes them does not drop them)."""
        t0 = time.perf_counter()
        self.calls += 1
        while self.bad and not self.pending:
            r = self._find(self.bad.pop())
            if self.size[r] > self.low[r]:
                self.pending.append(self._too_big(self.wit[r], self.cap[self.wit[r]]))
                self.conflicts += 1
        self.bad = []
        self.seconds += time.perf_counter() - t0
        return []

    def _too_big(self, v: int, cap: int) -> list[int]:
        """"The cap + 1 cells joined from v by true ``s`` edges (breadth-first) make v's
        number at least cap + 1"; every literal of it is false now."""
        val, adj = self.val, self.adj
        seen = {v}
        order = [v]
        tree: list[int] = []
        for c in order:
            if len(order) > cap:
                break
            for w, x in adj[c]:
                if val[x] > 0 and w not in seen and len(order) <= cap:
                    seen.add(w)
                    order.append(w)
                    tree.append(-x)
        return [*tree, *(x for n, x in self.codes[v] if n > cap)]

    def provide_reason(self, lit: int) -> list[int]:
        raise AssertionError("the propagator infers no literal")

    def has_clause(self) -> bool:
        self.calls += 1
        return bool(self.pending)

    def add_clause(self) -> list[int]:
        self.calls += 1
        self.clauses += 1
        return [self._out(x) for x in self.pending.pop()]

    # --- complete assignments --------------------------------------------------------------------

    def violated(self, model: Sequence[int]) -> list[list[int]]:
        """The cuts of a complete assignment (model polarity literals; none: a solution)."""
        bits = bytearray(self.top + 1)
        for lit in model:
            if 0 < lit <= self.top:
                bits[lit] = 1
        reg = self.reg
        return fillomino_sat.cuts(reg, fillomino_sat.read(reg, SatAssignment(bytes(bits))))

    def check_model(self, model: list[int]) -> bool:
        t0 = time.perf_counter()
        self.calls += 1
        self.checks += 1
        cuts = self.violated([self._out(x) for x in model])
        if cuts:
            self.rejections += 1
            self.pending = cuts[::-1]  # handed over first to last
            self.note_rejected(model)
        else:
            self.note_accepted()
        self.seconds += time.perf_counter() - t0
        return not cuts
