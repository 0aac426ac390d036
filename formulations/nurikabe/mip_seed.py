"""Nurikabe: the seed's GLPK MathProg model ("white islands in the black current", 2013), ported
to Pyomo as ``mip-seed``.

Source: seed document 002_8bb2c4a9338a3633 (docs/instances.md, "The seed documents"), its
model text ``nuri.mod``. The port keeps the seed's variables, its 1-based indices
with a frame of cells around the board (rows and columns ``0`` and ``Nr+1``/``Nc+1``), and its
constraint names in comments and as Pyomo component names:

* colours ``w``/``b`` (the frame is both white and black: INI2; inside, BLACK0), no 2x2 black
  (VORT);
* islands: each clue's island is a tree of "arrows" ``wl/wr/wu/wd`` pointing towards the clue
  (INI4, WHT01, LLL02..LLL06), carrying the count of white cells ``nl/nr/nu/nd`` (MEMB*), the
  work board ``wban`` summing a cell's own 1 and what its sons send (WHT50, WHT51) and equal
  to the clue at the clue cell (INI0); island ids ``wid`` keep two clues out of one white area
  (WID00..WID041);
* the wall ("black current"): a tree of black arrows ``bl/br/bu/bd`` towards a root cell,
  carrying black counts ``nbl..nbd`` (BNI4, BHT01, BLL02..BLL06, BEMB*, BHT50, BHT51); the root
  collects every black cell, ``numB = cells - sum(clues)`` (NAMB0, BHT52);
* black pools inhibited by patterns around small black pieces (GenB10..GenB40);
* the objective: maximise black links ``blr``/``bud`` (BLACK1..BLACK4, NNN, MMM) — it selects
  nothing the rules care about;
* speed-up patterns OPT1w..OPT3, OPTd0..OPTd5 (``patterns=seed``, the default; ``none`` drops
  them all to show what they are worth).

The seed needs the wall's root marked by hand in the data (``-1``). ``root=model`` (default)
chooses it inside the model: the first black cell in reading order, through prefix flags
``seen[i] = b[0] or ... or b[i-1]`` (linear in the board, no root symmetry); ``root=hint`` takes
it from the instance header ``black-root: ROW COL`` (0-based), for the side-by-side reproduction
of the seed's own runs.

Why the seed is stricter than the rules (``exact=false``, the faithful port):

1. GenB10..GenB40 forbid a black piece of 1..4 cells (single, domino, I and L tromino, square)
   whose whole neighbourhood is white, the frame counting as white. That is right when the wall
   has more cells than the piece (the piece would be cut off), and wrong when the piece *is* the
   whole wall. Example: rows ``1 . .`` / ``. . .`` / ``. 5 .`` has the unique solution
   ``. # .`` / ``# # .`` / ``. . .``: its wall is an L tromino against the frame, which GenB32
   forbids, so the seed says infeasible (with or without the OPT patterns).
2. OPTd0..OPTd5 scale id differences by ``SN = 0.001``: a white cell with id above 1000 (boards
   of more than 1000 cells) diagonal to any black cell violates them, so larger boards lose
   valid solutions.
3. (Not a strictness:) GenB31 names ``b[r+1,c]`` twice where ``b[r+2,c]`` is meant; the port
   keeps it, and it only forbids what GenB21 already does.

``exact=true`` is the smallest change that makes the port exact: a GenB family is posted only
when the wall has more cells than its piece (``numB > size``), and ``SN = 1/N``. The OPT
patterns themselves are valid (each follows from the rules; the frame counts as black for them,
which is right for islands). The model also cannot represent a board without black cells with
``root=hint`` (the root is black); ``root=model`` posts no root then.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, ClassVar

from bench.instance import Instance
from bench.models import MipModel, Value, lazy_module
from bench.puzzles import SolutionGrid
from bench.puzzles.nurikabe.rules import WHITE, grid_from_black
from bench.registry import Formulation, formulation

pyo = lazy_module("pyomo.environ")

Idx = tuple[int, int]


def root_hint(inst: Instance) -> Idx | None:
    """The hand-marked black root from the header ``black-root: ROW COL`` (0-based), as the
    seed's 1-based index, or None."""
    raw = inst.header.get("black-root", "").split()
    if len(raw) != 2 or not all(t.isdigit() for t in raw):
        return None
    r, c = int(raw[0]), int(raw[1])
    return (r + 1, c + 1) if r < inst.rows and c < inst.cols else None


def seed_ini(inst: Instance, root: Idx | None) -> dict[Idx, int]:
    """The seed's ``ini`` board (1-based): clue numbers, ``-1`` at the hand-marked root."""
    ini = {(r + 1, c + 1): (v or 0) for r, row in enumerate(inst.grid) for c, v in enumerate(row)}
    if root is not None and ini[root] == 0:
        ini[root] = -1
    return ini


def carried_by(count: Any, arrow: Any, big: int) -> Callable[[int, int], Any]:
    """MEMB*/BEMB*: a count travels only along an arrow that is there."""
    return lambda r, c: count[r, c] <= big * arrow[r, c]


class _Seed:
    """Builds the seed model on a Pyomo ConcreteModel; one method per block of the seed."""

    def __init__(self, inst: Instance, params: dict[str, Any]) -> None:
        self.Nr, self.Nc = inst.rows, inst.cols
        self.N = self.Nr * self.Nc
        self.exact = params["exact"] == "true"
        self.root_mode = params["root"]
        hint = root_hint(inst) if self.root_mode == "hint" else None
        self.ini = seed_ini(inst, hint)
        self.hint = hint
        self.frame = [(r, c) for r in range(self.Nr + 2) for c in range(self.Nc + 2)]
        self.inner = [(r, c) for r in range(1, self.Nr + 1) for c in range(1, self.Nc + 1)]
        self.numB = self.N - sum(v for v in self.ini.values() if v >= 1)
        self.m = pyo.ConcreteModel()

    def ini_at(self, r: int, c: int) -> int:
        return self.ini.get((r, c), 0)

    def con(self, name: str, index: Iterable[Idx], rule: Callable[[int, int], Any]) -> None:
        """Post ``rule(r, c)`` for each index as the constraint family ``name``."""
        idx = list(index)
        self.m.add_component(name, pyo.Constraint(idx, rule=lambda _, r, c: rule(r, c)))

    def box(self, r0: int, r1: int, c0: int, c1: int,
            cond: Callable[[int, int], bool] = lambda r, c: True) -> list[Idx]:
        return [(r, c) for r in range(r0, r1 + 1) for c in range(c0, c1 + 1) if cond(r, c)]

    # -- the blocks of the seed, in its order ------------------------------------------------

    def colours(self) -> None:
        m, Nr, Nc = self.m, self.Nr, self.Nc
        m.w = pyo.Var(self.frame, domain=pyo.Binary)  # 1/0: white/not
        m.b = pyo.Var(self.frame, domain=pyo.Binary)  # 1/0: black/not
        m.wban = pyo.Var(self.frame, domain=pyo.NonNegativeReals)  # white counting board
        w, b = m.w, m.b
        self.con("INI0", self.box(1, Nr, 1, Nc, lambda r, c: self.ini_at(r, c) >= 1),
                 lambda r, c: m.wban[r, c] == self.ini_at(r, c))
        outer = [(r, c) for r, c in self.frame if r in (0, Nr + 1) or c in (0, Nc + 1)]
        self.outer = outer
        self.con("INI2", outer, lambda r, c: b[r, c] + w[r, c] == 2)  # frame: black and white
        self.con("BLACK0", self.inner, lambda r, c: b[r, c] == 1 - w[r, c])
        # no 2x2 black ("vortex" of the black current)
        self.con("VORT", self.box(2, Nr, 2, Nc),
                 lambda r, c: b[r - 1, c - 1] + b[r - 1, c] + b[r, c - 1] + b[r, c] <= 3)

    def patterns(self) -> None:
        """OPT1w..OPT3: local consequences of clues, posted only with ``patterns=seed``."""
        Nr, Nc, w, b, ini = self.Nr, self.Nc, self.m.w, self.m.b, self.ini_at
        self.con("OPT1w", self.box(1, Nr, 1, Nc, lambda r, c: ini(r, c) >= 1),
                 lambda r, c: w[r, c] == 1)
        self.con("OPT1b", self.box(1, Nr, 1, Nc, lambda r, c: ini(r, c) == 1),
                 lambda r, c: b[r - 1, c] + b[r, c + 1] + b[r + 1, c] + b[r, c - 1] == 4)
        self.con("OPT2c", self.box(1, Nr, 1, Nc, lambda r, c: ini(r, c) >= 2),
                 lambda r, c: b[r - 1, c] + b[r, c + 1] + b[r + 1, c] + b[r, c - 1] <= 3)
        self.con("OPT2d", self.box(1, Nr, 2, Nc, lambda r, c: 2 in (ini(r, c), ini(r, c - 1))),
                 lambda r, c: 6 * w[r, c] + 6 * w[r, c - 1] <= 6 + b[r, c - 2] + b[r - 1, c - 1]
                 + b[r - 1, c] + b[r, c + 1] + b[r + 1, c] + b[r + 1, c - 1])
        self.con("OPT2e", self.box(2, Nr, 1, Nc, lambda r, c: 2 in (ini(r, c), ini(r - 1, c))),
                 lambda r, c: 6 * w[r, c] + 6 * w[r - 1, c] <= 6 + b[r - 2, c] + b[r - 1, c - 1]
                 + b[r, c - 1] + b[r + 1, c] + b[r, c + 1] + b[r - 1, c + 1])
        self.con("OPT3f", self.box(1, Nr, 2, Nc, lambda r, c: max(ini(r, c), ini(r, c - 1)) >= 3),
                 lambda r, c: b[r, c - 2] + b[r - 1, c - 1] + b[r - 1, c] + b[r, c + 1]
                 + b[r + 1, c] + b[r + 1, c - 1] <= 5)
        self.con("OPT3g", self.box(2, Nr, 1, Nc, lambda r, c: max(ini(r, c), ini(r - 1, c)) >= 3),
                 lambda r, c: b[r - 2, c] + b[r - 1, c - 1] + b[r, c - 1] + b[r + 1, c]
                 + b[r, c + 1] + b[r - 1, c + 1] <= 5)
        self.con("OPT3d",
                 self.box(1, Nr, 3, Nc,
                          lambda r, c: 3 in (ini(r, c), ini(r, c - 1), ini(r, c - 2))),
                 lambda r, c: 8 * w[r, c] + 8 * w[r, c - 1] + 8 * w[r, c - 2] <= 16 + b[r, c - 3]
                 + b[r - 1, c - 2] + b[r - 1, c - 1] + b[r - 1, c] + b[r, c + 1] + b[r + 1, c]
                 + b[r + 1, c - 1] + b[r + 1, c - 2])
        self.con("OPT4d",
                 self.box(1, Nr, 3, Nc,
                          lambda r, c: max(ini(r, c), ini(r, c - 1), ini(r, c - 2)) >= 4),
                 lambda r, c: b[r, c - 3] + b[r - 1, c - 2] + b[r - 1, c - 1] + b[r - 1, c]
                 + b[r, c + 1] + b[r + 1, c] + b[r + 1, c - 1] + b[r + 1, c - 2] <= 7)
        self.con("OPT00", self.box(1, Nr, 2, Nc - 1,
                                   lambda r, c: ini(r, c - 1) >= 1 and ini(r, c + 1) >= 1),
                 lambda r, c: b[r, c] == 1)
        self.con("OPT11", self.box(2, Nr - 1, 1, Nc,
                                   lambda r, c: ini(r - 1, c) >= 1 and ini(r + 1, c) >= 1),
                 lambda r, c: b[r, c] == 1)
        self.con("OPT2", self.box(2, Nr, 2, Nc,
                                  lambda r, c: ini(r - 1, c - 1) >= 1 and ini(r, c) >= 1),
                 lambda r, c: b[r, c - 1] + b[r - 1, c] == 2)
        self.con("OPT3", self.box(2, Nr, 2, Nc,
                                  lambda r, c: ini(r, c - 1) >= 1 and ini(r - 1, c) >= 1),
                 lambda r, c: b[r - 1, c - 1] + b[r, c] == 2)

    def island_ids(self, with_patterns: bool) -> None:
        m, Nr, Nc, N, w, b = self.m, self.Nr, self.Nc, self.N, self.m.w, self.m.b
        m.wid = pyo.Var(self.frame, domain=pyo.NonNegativeReals)  # id number of white cells
        wid = m.wid
        self.con("WID00", self.outer, lambda r, c: wid[r, c] == 0)
        self.con("WID01", self.box(1, Nr, 1, Nc, lambda r, c: self.ini_at(r, c) >= 1),
                 lambda r, c: wid[r, c] == Nc * (r - 1) + c)
        self.con("WID02", self.inner, lambda r, c: wid[r, c] <= N * w[r, c])
        # two adjacent white cells share their id
        self.con("WID038", self.box(1, Nr, 2, Nc),
                 lambda r, c: wid[r, c - 1] <= N * (b[r, c] + b[r, c - 1]) + wid[r, c])
        self.con("WID039", self.box(1, Nr, 2, Nc),
                 lambda r, c: wid[r, c] <= N * (b[r, c] + b[r, c - 1]) + wid[r, c - 1])
        self.con("WID040", self.box(2, Nr, 1, Nc),
                 lambda r, c: wid[r - 1, c] <= N * (b[r, c] + b[r - 1, c]) + wid[r, c])
        self.con("WID041", self.box(2, Nr, 1, Nc),
                 lambda r, c: wid[r, c] <= N * (b[r, c] + b[r - 1, c]) + wid[r - 1, c])
        if not with_patterns:
            return
        # diagonal white cells of different islands: both cells between them are black
        sn = 1.0 / N if self.exact else 0.001  # the seed's SN (see the module docstring, 2.)
        d = self.box(2, Nr, 2, Nc)
        self.con("OPTd0", d, lambda r, c: w[r - 1, c - 1] + w[r, c]
                 + sn * (wid[r - 1, c - 1] - wid[r, c]) <= 2 + b[r - 1, c])
        self.con("OPTd1", d, lambda r, c: w[r - 1, c - 1] + w[r, c]
                 + sn * (wid[r, c] - wid[r - 1, c - 1]) <= 2 + b[r - 1, c])
        self.con("OPTd2", d, lambda r, c: w[r - 1, c - 1] + w[r, c]
                 + sn * (wid[r - 1, c - 1] - wid[r, c]) <= 2 + b[r, c - 1])
        self.con("OPTd3", d, lambda r, c: w[r - 1, c - 1] + w[r, c]
                 + sn * (wid[r, c] - wid[r - 1, c - 1]) <= 2 + b[r, c - 1])
        self.con("OPTd4", self.box(1, Nr, 2, Nc - 1), lambda r, c: w[r, c - 1] + w[r, c + 1]
                 + sn * (wid[r, c - 1] - wid[r, c + 1]) <= 2 + b[r, c])
        self.con("OPTd5", self.box(2, Nr - 1, 1, Nc), lambda r, c: w[r - 1, c] + w[r + 1, c]
                 + sn * (wid[r - 1, c] - wid[r + 1, c]) <= 2 + b[r, c])

    def island_arrows(self) -> None:
        m, Nr, Nc, w, b = self.m, self.Nr, self.Nc, self.m.w, self.m.b
        for a in ("wl", "wr", "wu", "wd"):  # arrow to the left / right / up / down neighbour
            m.add_component(a, pyo.Var(self.frame, domain=pyo.Binary))
        wl, wr, wu, wd = m.wl, m.wr, m.wu, m.wd
        self.con("INI4", self.outer, lambda r, c: wl[r, c] + wr[r, c] + wu[r, c] + wd[r, c] == 0)
        self.con("WHT01", self.box(1, Nr, 1, Nc, lambda r, c: self.ini_at(r, c) >= 1),
                 lambda r, c: wl[r, c] + wr[r, c] + wu[r, c] + wd[r, c] == 0)  # a clue: no arrow
        self.con("LLL02", self.box(1, Nr, 1, Nc, lambda r, c: self.ini_at(r, c) == 0),
                 lambda r, c: wl[r, c] + wr[r, c] + wu[r, c] + wd[r, c] == w[r, c])
        self.con("LLL03", self.box(0, Nr + 1, 0, Nc), lambda r, c: wr[r, c] <= 1 - b[r, c + 1])
        self.con("LLL04", self.box(0, Nr + 1, 1, Nc), lambda r, c: wl[r, c] <= 1 - b[r, c - 1])
        self.con("LLL05", self.box(1, Nr + 1, 0, Nc + 1), lambda r, c: wu[r, c] <= 1 - b[r - 1, c])
        self.con("LLL06", self.box(0, Nr, 0, Nc + 1), lambda r, c: wd[r, c] <= 1 - b[r + 1, c])
        NN = max([v for v in self.ini.values() if v >= 1], default=0)
        for a in ("nl", "nr", "nu", "nd"):  # white counts carried by the arrows
            m.add_component(a, pyo.Var(self.frame, bounds=(0, NN)))
        for name, n, arrow in (("MEMBl", m.nl, wl), ("MEMBr", m.nr, wr), ("MEMBu", m.nu, wu),
                               ("MEMBd", m.nd, wd)):
            self.con(name, self.frame, carried_by(n, arrow, NN))
        self.con("WHT50", self.inner,  # gather numbers from sons
                 lambda r, c: m.wban[r, c] == w[r, c] + m.nr[r, c - 1] + m.nl[r, c + 1]
                 + m.nd[r - 1, c] + m.nu[r + 1, c])
        self.con("WHT51", self.box(1, Nr, 1, Nc, lambda r, c: self.ini_at(r, c) == 0),
                 lambda r, c: m.wban[r, c] == m.nl[r, c] + m.nr[r, c] + m.nu[r, c] + m.nd[r, c])

    def black_links(self) -> None:
        """BLACK1..BLACK4 and the objective's link count NNN (maximised: MMM)."""
        m, w, b = self.m, self.m.w, self.m.b
        m.blr = pyo.Var(self.inner, bounds=(0, 1))  # black link, left-right
        m.bud = pyo.Var(self.inner, bounds=(0, 1))  # black link, up-down
        self.con("BLACK1", self.inner, lambda r, c: m.blr[r, c] <= b[r, c])
        self.con("BLACK2", self.inner, lambda r, c: m.blr[r, c] <= 1 - w[r, c - 1])
        self.con("BLACK3", self.inner, lambda r, c: m.bud[r, c] <= b[r, c])
        self.con("BLACK4", self.inner, lambda r, c: m.bud[r, c] <= 1 - w[r - 1, c])
        m.nnn = pyo.Var(domain=pyo.NonNegativeReals)
        m.NNN = pyo.Constraint(expr=m.nnn == pyo.quicksum(m.blr[v] + m.bud[v] for v in self.inner))
        m.MMM = pyo.Objective(expr=m.nnn, sense=pyo.maximize)

    def black_current(self) -> None:
        m, Nr, Nc, w, b, N = self.m, self.Nr, self.Nc, self.m.w, self.m.b, self.N
        for a in ("bl", "br", "bu", "bd"):
            m.add_component(a, pyo.Var(self.frame, domain=pyo.Binary))
        bl, br, bu, bd = m.bl, m.br, m.bu, m.bd
        root = self.root_indicator()
        self.con("BNI4", self.outer, lambda r, c: bl[r, c] + br[r, c] + bu[r, c] + bd[r, c] == 0)
        if self.hint is not None:
            self.con("BHT01", [self.hint],  # the root: no arrow
                     lambda r, c: bl[r, c] + br[r, c] + bu[r, c] + bd[r, c] == 0)
        self.con("BLL02", self.box(1, Nr, 1, Nc, lambda r, c: self.ini_at(r, c) == 0),
                 lambda r, c: bl[r, c] + br[r, c] + bu[r, c] + bd[r, c] == b[r, c] - root(r, c))
        self.con("BLL03", self.box(0, Nr + 1, 0, Nc), lambda r, c: br[r, c] <= 1 - w[r, c + 1])
        self.con("BLL04", self.box(0, Nr + 1, 1, Nc), lambda r, c: bl[r, c] <= 1 - w[r, c - 1])
        self.con("BLL05", self.box(1, Nr + 1, 0, Nc + 1), lambda r, c: bu[r, c] <= 1 - w[r - 1, c])
        self.con("BLL06", self.box(0, Nr, 0, Nc + 1), lambda r, c: bd[r, c] <= 1 - w[r + 1, c])
        m.bban = pyo.Var(self.frame, domain=pyo.NonNegativeReals)  # black counting board
        for a in ("nbl", "nbr", "nbu", "nbd"):  # black counts carried by the arrows
            m.add_component(a, pyo.Var(self.frame, bounds=(0, N)))
        for name, n, arrow in (("BEMBl", m.nbl, bl), ("BEMBr", m.nbr, br),
                               ("BEMBu", m.nbu, bu), ("BEMBd", m.nbd, bd)):
            self.con(name, self.frame, carried_by(n, arrow, N))
        self.con("BHT50", self.inner,  # gather numbers from sons
                 lambda r, c: m.bban[r, c] == b[r, c] + m.nbr[r, c - 1] + m.nbl[r, c + 1]
                 + m.nbd[r - 1, c] + m.nbu[r + 1, c])
        # allocate the number to one arrow; the root keeps numB instead (BHT52)
        self.con("BHT51", self.box(1, Nr, 1, Nc, lambda r, c: self.ini_at(r, c) == 0),
                 lambda r, c: m.bban[r, c] == m.nbl[r, c] + m.nbr[r, c] + m.nbu[r, c]
                 + m.nbd[r, c] + self.numB * root(r, c))
        m.numB = pyo.Var()
        m.NAMB0 = pyo.Constraint(expr=m.numB == self.numB)
        if self.hint is not None:
            self.con("BHT52", [self.hint], lambda r, c: m.bban[r, c] == m.numB)

    def root_indicator(self) -> Callable[[int, int], Any]:
        """The wall's root: the hint (a constant, the seed's ``-1``) or, with ``root=model``, the
        first black cell in reading order (prefix flags ``seen``; see the module docstring)."""
        if self.root_mode == "hint" or self.numB == 0:
            return lambda r, c: 0  # BLL02/BHT51 apply to ini=0 cells: the hint has ini=-1
        m, b = self.m, self.m.b
        order = self.inner
        m.seen = pyo.Var(order, domain=pyo.Binary)  # some cell before this one is black
        m.root = pyo.Var(order, domain=pyo.Binary)
        m.SEEN0 = pyo.Constraint(expr=m.seen[order[0]] == 0)
        prev = {order[i]: order[i - 1] for i in range(1, len(order))}
        self.con("SEEN1", order[1:], lambda r, c: m.seen[r, c] >= m.seen[prev[r, c]])
        self.con("SEEN2", order[1:], lambda r, c: m.seen[r, c] >= b[prev[r, c]])
        self.con("SEEN3", order[1:],
                 lambda r, c: m.seen[r, c] <= m.seen[prev[r, c]] + b[prev[r, c]])
        self.con("ROOT1", order, lambda r, c: m.root[r, c] <= b[r, c])
        self.con("ROOT2", order, lambda r, c: m.root[r, c] <= 1 - m.seen[r, c])
        self.con("ROOT3", order, lambda r, c: m.root[r, c] >= b[r, c] - m.seen[r, c])
        return lambda r, c: m.root[r, c]

    def no_pools(self) -> None:
        """GenB10..GenB40 (see the module docstring, 1.: ``exact=true`` posts a family only
        when the wall is larger than its piece)."""
        Nr, Nc, w, b = self.Nr, self.Nc, self.m.w, self.m.b

        def post(size: int, name: str, index: list[Idx], rule: Callable[[int, int], Any]) -> None:
            if not self.exact or self.numB > size:
                self.con(name, index, rule)

        post(1, "GenB10", self.box(1, Nr, 1, Nc),
             lambda r, c: w[r, c - 1] + w[r - 1, c] + w[r, c + 1] + w[r + 1, c] + b[r, c] <= 4)
        post(2, "GenB20", self.box(1, Nr, 1, Nc - 1),
             lambda r, c: w[r, c - 1] + w[r - 1, c] + w[r - 1, c + 1] + w[r, c + 2]
             + w[r + 1, c + 1] + w[r + 1, c] + 0.5 * (b[r, c] + b[r, c + 1]) <= 6)
        post(2, "GenB21", self.box(1, Nr - 1, 1, Nc),
             lambda r, c: w[r - 1, c] + w[r, c + 1] + w[r + 1, c + 1] + w[r + 2, c]
             + w[r + 1, c - 1] + w[r, c - 1] + 0.5 * (b[r, c] + b[r + 1, c]) <= 6)
        post(3, "GenB30", self.box(1, Nr, 1, Nc - 2),
             lambda r, c: w[r - 1, c] + w[r - 1, c + 1] + w[r - 1, c + 2] + w[r, c + 3]
             + w[r + 1, c + 2] + w[r + 1, c + 1] + w[r + 1, c] + w[r, c - 1]
             + 0.3 * (b[r, c] + b[r, c + 1] + b[r, c + 2]) <= 8)
        post(3, "GenB31", self.box(1, Nr - 2, 1, Nc),  # b[r+1,c] twice: as in the seed
             lambda r, c: w[r - 1, c] + w[r, c + 1] + w[r + 1, c + 1] + w[r + 2, c + 1]
             + w[r + 3, c] + w[r + 2, c - 1] + w[r + 1, c - 1] + w[r, c - 1]
             + 0.3 * (b[r, c] + b[r + 1, c] + b[r + 1, c]) <= 8)
        post(3, "GenB32", self.box(2, Nr, 2, Nc),
             lambda r, c: w[r - 1, c - 1] + w[r - 2, c] + w[r - 1, c + 1] + w[r, c + 1]
             + w[r + 1, c] + w[r + 1, c - 1] + w[r, c - 2]
             + 0.3 * (b[r - 1, c] + b[r, c - 1] + b[r, c]) <= 7)
        post(3, "GenB33", self.box(2, Nr, 2, Nc),
             lambda r, c: w[r - 2, c - 1] + w[r - 1, c] + w[r, c + 1] + w[r + 1, c]
             + w[r + 1, c - 1] + w[r, c - 2] + w[r - 1, c - 2]
             + 0.3 * (b[r - 1, c - 1] + b[r, c - 1] + b[r, c]) <= 7)
        post(3, "GenB34", self.box(2, Nr, 2, Nc),
             lambda r, c: w[r - 2, c - 1] + w[r - 2, c] + w[r - 1, c + 1] + w[r, c]
             + w[r + 1, c - 1] + w[r, c - 2] + w[r - 1, c - 2]
             + 0.3 * (b[r - 1, c - 1] + b[r, c - 1] + b[r - 1, c]) <= 7)
        post(3, "GenB35", self.box(2, Nr, 2, Nc),
             lambda r, c: w[r - 2, c - 1] + w[r - 2, c] + w[r - 1, c + 1] + w[r, c + 1]
             + w[r + 1, c] + w[r, c - 1] + w[r - 1, c - 2]
             + 0.3 * (b[r - 1, c - 1] + b[r, c] + b[r - 1, c]) <= 7)
        post(4, "GenB40", self.box(3, Nr - 1, 3, Nc - 1),
             lambda r, c: w[r - 2, c - 1] + w[r - 2, c] + w[r - 1, c + 1] + w[r, c + 1]
             + w[r + 1, c] + w[r + 1, c - 1] + w[r, c - 2] + w[r - 1, c - 2]
             + 0.25 * (b[r - 1, c - 1] + b[r - 1, c] + b[r, c - 1] + b[r, c]) <= 8)


@formulation
class MipSeed(Formulation[MipModel]):
    name = "mip-seed"
    exact = False
    description = ("the seed's GLPK model (white arrow trees to the clues, black arrow tree to a "
                   "root, island ids, pool patterns, OPT* speed-up patterns), ported to Pyomo")
    parameters: ClassVar[dict[str, list[Any]]] = {
        "root": ["model", "hint"],
        "patterns": ["seed", "none"],
        "exact": ["false", "true"],
    }

    def is_exact(self) -> bool:
        # exact=true with the root chosen in the model; a hint may name a white cell
        return bool(self.params["exact"] == "true" and self.params["root"] == "model")

    def skip(self, inst: Instance) -> str | None:
        # the seed cannot run without its hand-marked -1 (unless every cell is white)
        if (self.params["root"] == "hint" and root_hint(inst) is None
                and inst.cells > sum(v for _, _, v in inst.clues())):
            return ("root=hint needs a header line 'black-root: ROW COL' (0-based) naming a "
                    "cell without a clue")
        return None

    def build(self, inst: Instance) -> MipModel:
        seed = _Seed(inst, self.params)
        mm = MipModel(seed.m)
        seed.colours()
        if self.params["patterns"] == "seed":
            seed.patterns()
        seed.island_ids(with_patterns=self.params["patterns"] == "seed")
        seed.island_arrows()
        seed.black_links()
        seed.black_current()
        seed.no_pools()
        mm.handles.update(w=seed.m.w, Nr=seed.Nr, Nc=seed.Nc)
        return mm

    def decode(self, inst: Instance, model: MipModel, value: Value) -> SolutionGrid:
        w = model.handles["w"]
        return grid_from_black(inst, [(r, c) for r in range(inst.rows) for c in range(inst.cols)
                                      if value(w[r + 1, c + 1]) < 0.5])

    def block(self, inst: Instance, model: MipModel, grid: SolutionGrid) -> bool:
        # projected onto the cell colours: at least one cell differs from this grid
        m, w = model.model, model.handles["w"]
        if not hasattr(m, "nogood"):
            m.nogood = pyo.ConstraintList()
        m.nogood.add(sum(1 - w[r + 1, c + 1] if grid[r][c] == WHITE else w[r + 1, c + 1]
                         for r in range(inst.rows) for c in range(inst.cols)) >= 1)
        return True
