"""The region encoding of ``sat-regions`` (also the generator's warm uniqueness solver): same-
region edge literals, one-hot numbers where small, one symbolic "big" number for the rest, and
the cuts that make every component of same-region edges a region of the right size.

**Numbers.** A cell's number is one of its *codes*: a number ``k <= big`` (the threshold), a
number in ``named`` (numbers above the threshold that the encoding names on their own: the given
numbers), or :data:`BIG`, "some number above the threshold that ``named`` does not hold". Every
solution has a code per cell, so nothing is cut off: a region of unknown size is BIG, whatever its
size (the grid bounds it, nothing else), and its exact size is checked lazily. A cell's codes are
those of its provable domain (:func:`bench.puzzles.fillomino.encoding.layout`), so one-hot domains
stay at most ``big + |named| + 1`` long however large the empty areas are. With the givens known
(``sat-regions``: :func:`given_codes`, :attr:`Regions.given`) a named code means "a region
holding a given of that number" and BIG "a region above the threshold holding none": a cell
takes a named k only within reach of a given k, and a BIG region may have a named size unless
it touches a region of that number (:func:`beside_named`), so the empty areas far from the
givens hold only the numbers up to the threshold and BIG.

**Regions.** ``s[u, w]`` per edge: the two cells are in one region. Eagerly: ``s`` makes the
codes equal; without ``s`` two named numbers differ (two BIG regions may touch: their sizes
must differ, checked lazily); every connected piece P of at most ``pieces`` cells whose spanning
edges are all ``s`` holds a number >= |P| (too big otherwise), and if no edge leaves it, exactly
|P| (the piece is then the whole region). With pieces of 1 to 3 cells that is: a cell with no
``s`` is a 1, a 1 has no ``s``, a 2 at most one.

**Cuts** (:func:`cuts`), for a model whose components of ``s`` edges are the regions (``s``
makes codes equal, so each component has one code): a component C with code k whose size n is
wrong gets, when n > k, "if these k + 1 connected cells of C are joined, the number is > k";
always, "if C is joined and no edge leaves it, its number is n" (the code of n, or nothing when
no cell of C may hold it). Two touching BIG components of equal size get "not both of these
exact regions are BIG". Each cut holds in every solution; a model without any is a solution
(BIG read as the region's size), and every solution satisfies the eager clauses, so the
encoding is exact.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import cached_property
from itertools import compress
from operator import itemgetter

from pysat.card import CardEnc, EncType

from bench.backends.kinds import SatAssignment
from bench.grid import Cell, all_cells, components, connected_sets, neighbours
from bench.models import SatModel
from bench.puzzles.fillomino.encoding import Layout

#: the code of "a number above the threshold that is not named"
BIG = 0
#: one-hot lists up to this long get pairwise at-most-one clauses, longer ones a sequential
#: counter
PAIRWISE = 12

Edge = tuple[Cell, Cell]


@dataclass
class Regions:
    """The variables of the region encoding in one :class:`SatModel`."""

    rows: int
    cols: int
    big: int
    named: frozenset[int]
    codes: dict[Cell, list[int]]  # per cell, ascending, BIG (0) first when present
    e: dict[tuple[Cell, int], int] = field(default_factory=dict)  # cell holds code
    s: dict[Edge, int] = field(default_factory=dict)  # both orders
    pairs: list[tuple[Cell, Cell, int]] = field(default_factory=list)  # (u, w, s), u < w
    #: too-small cuts also say "a cell beyond this area holds k" (:func:`escape`)
    escape: bool = True
    #: the given cells, when a named code means "a region holding a given of this number" and
    #: BIG "a region above the threshold holding no given" (see :func:`given_codes`); None
    #: when a named code means its number wherever it is (the generator's warm solver, whose
    #: givens change between calls)
    given: frozenset[Cell] | None = None

    def code(self, n: int) -> int:
        """The code of number n."""
        return n if n <= self.big or n in self.named else BIG

    def lit(self, v: Cell, n: int) -> int | None:
        """The literal "v holds number n" (None when v cannot)."""
        return self.e.get((v, self.code(n)))

    def lits(self, v: Cell, n: int) -> list[int]:
        """The literals of "v holds number n": with ``given``, a number above the threshold is
        its named code (a region with a given) or BIG (one without)."""
        codes = [self.code(n)] if self.given is None or n <= self.big else [n, BIG]
        return [x for k in codes if (x := self.e.get((v, k))) is not None]

    def at_least(self, v: Cell, n: int) -> list[int]:
        """Literals of the codes of v that mean a number >= n (BIG: numbers above ``big``)."""
        return [self.e[v, k] for k in self.codes[v] if k >= n or k == BIG]

    def at_most(self, v: Cell, n: int) -> list[int]:
        """Literals of the codes of v that mean a number <= n."""
        return [self.e[v, k] for k in self.codes[v]
                if (k != BIG and k <= n) or (k == BIG and n > self.big)]

    def edge(self, u: Cell, w: Cell) -> int | None:
        return self.s.get((u, w))

    def nbrs(self, v: Cell) -> list[Cell]:
        return self.adjacent[v]

    @cached_property
    def index(self) -> Index:
        return Index.of(self)

    @cached_property
    def adjacent(self) -> dict[Cell, list[Cell]]:
        return {v: neighbours(v, self.rows, self.cols) for v in self.codes}


def codes_of(domain: Iterable[int], big: int, named: frozenset[int]) -> list[int]:
    """A domain of numbers as codes."""
    return sorted({n if n <= big or n in named else BIG for n in domain})


def given_codes(lay: Layout, big: int) -> tuple[frozenset[int], dict[Cell, list[int]]]:
    """The named numbers (the givens above ``big``) and each cell's codes when a named code
    means "a region holding a given of that number": the numbers up to ``big`` of its domain,
    a named k only where a region holding a given k may reach, BIG only where the cell's
    component of empty cells has room for a region above ``big`` without a given. Far from
    the givens of a named number a cell cannot take its code (a region there without a given
    is BIG whatever its size)."""
    named = frozenset(n for n in lay.given.values() if n > big)
    codes = {}
    for v in lay.cells:
        ks = {n for n in lay.dom[v] if n <= big} | {k for k in named if v in lay.reach[k]}
        codes[v] = sorted(ks | ({BIG} if lay.room.get(v, 0) > big else set()))
    return named, codes


def encode(m: SatModel, rows: int, cols: int, codes: dict[Cell, list[int]], big: int,
           named: frozenset[int], pieces: int, given: frozenset[Cell] | None = None) -> Regions:
    """Variables and eager clauses (see the module docstring) in ``m``; ``given``: see
    :attr:`Regions.given`."""
    reg = Regions(rows, cols, big, named, codes, given=given)
    cells = all_cells(rows, cols)
    for v in cells:
        lits = [m.var(("e", v, k)) for k in codes[v]]
        reg.e.update(((v, k), x) for k, x in zip(codes[v], lits, strict=True))
        m.add(lits)
        if len(lits) <= PAIRWISE:
            m.extend([-a, -b] for i, a in enumerate(lits) for b in lits[i + 1:])
        else:
            m.extend(CardEnc.atmost(lits, bound=1, vpool=m.pool,
                                    encoding=EncType.seqcounter).clauses)
    for u in cells:
        for w in reg.nbrs(u):
            if u < w and set(codes[u]) & set(codes[w]):
                x = m.var(("s", u, w))
                reg.s[u, w] = reg.s[w, u] = x
                reg.pairs.append((u, w, x))
                equal_codes(m, reg, u, w, x)
    for piece in connected_pieces(rows, cols, pieces, reg):
        piece_clauses(m, reg, piece)
    return reg


def equal_codes(m: SatModel, reg: Regions, u: Cell, w: Cell, s: int) -> None:
    """``s`` makes the codes of u and w equal; without ``s``, two named numbers differ."""
    cu, cw = set(reg.codes[u]), set(reg.codes[w])
    for k in sorted(cu | cw):
        if k in cu and k in cw:
            m.add([-s, -reg.e[u, k], reg.e[w, k]])
            m.add([-s, reg.e[u, k], -reg.e[w, k]])
            if k != BIG:
                m.add([s, -reg.e[u, k], -reg.e[w, k]])
        elif k in cu:
            m.add([-s, -reg.e[u, k]])
        else:
            m.add([-s, -reg.e[w, k]])


def spanning_edges(reg: Regions, cells: list[Cell],
                   joined: Callable[[Cell, Cell], bool] | None = None) -> list[int] | None:
    """The ``s`` literals of a BFS spanning tree of ``cells`` (through edges where ``joined``),
    None when some cell is not reached."""
    inside = set(cells)
    seen = {cells[0]}
    queue = deque([cells[0]])
    tree: list[int] = []
    while queue:
        v = queue.popleft()
        for w in reg.nbrs(v):
            x = reg.s.get((v, w))
            if w in inside and w not in seen and x is not None and (
                    joined is None or joined(v, w)):
                seen.add(w)
                tree.append(x)
                queue.append(w)
    return tree if len(seen) == len(cells) else None


def leaving_edges(reg: Regions, cells: Iterable[Cell]) -> list[int]:
    """The ``s`` literals of the edges from ``cells`` to the rest of the grid."""
    inside = set(cells)
    return [x for v in inside for w in reg.nbrs(v)
            if w not in inside and (x := reg.s.get((v, w))) is not None]


def connected_pieces(rows: int, cols: int, most: int, reg: Regions) -> Iterable[list[Cell]]:
    """Every connected set of 1..``most`` cells whose cells share a code (each once)."""
    return connected_sets(all_cells(rows, cols), most,
                          lambda v: (w for w in reg.nbrs(v) if (v, w) in reg.s))


def piece_clauses(m: SatModel, reg: Regions, piece: list[Cell]) -> None:
    """A joined piece P holds a number >= |P|; joined with no edge leaving, exactly |P|."""
    tree = spanning_edges(reg, piece)
    if tree is None:
        return
    v, n = piece[0], len(piece)
    if n > 1:
        m.add([*(-x for x in tree), *reg.at_least(v, n)])
    m.add([*(-x for x in tree), *leaving_edges(reg, piece), *reg.lits(v, n)])


# --- the lazy part ---------------------------------------------------------------------------


@dataclass
class Reading:
    """A model read once: every cell's code, the regions (components of ``s`` edges, each in
    breadth-first order from its first cell in reading order) and the model's truth values."""

    code: dict[Cell, int]
    regions: list[list[Cell]]
    bits: bytes  # bits[x] == 1: variable x is true
    s: dict[Edge, int]

    def on(self, u: Cell, w: Cell) -> bool:
        """u and w are neighbours joined by a true ``s`` edge."""
        x = self.s.get((u, w))
        return x is not None and self.bits[x] == 1

    def number(self, reg: Regions) -> dict[Cell, int]:
        """Every cell's number: its code, or for BIG its region's size."""
        out = dict(self.code)
        for c in self.regions:
            if out[c[0]] == BIG:
                out.update((v, len(c)) for v in c)
        return out


def picker(xs: list[int]) -> Callable[[bytes], tuple[int, ...]]:
    """``bits -> tuple(bits[x] for x in xs)``, the loop in C (:func:`operator.itemgetter`,
    which gives a bare item for one index, so that case is wrapped)."""
    if len(xs) >= 2:
        return itemgetter(*xs)
    return lambda bits: tuple(bits[x] for x in xs)


@dataclass(frozen=True)
class Index:
    """The encoding's variables over cell numbers (reading order), for reading a whole model
    at once: every cell's codes in order with their ``e`` variables, and per cell its edges
    (the other cell, the edge's position in ``Regions.pairs``) in the order of
    ``Regions.pairs``, with the edges' ``s`` variables."""

    cells: list[Cell]
    held: list[tuple[int, int]]  # (cell number, code), cell by cell, codes ascending
    e: Callable[[bytes], tuple[int, ...]]  # the bits of ``held``'s e variables
    adjacent: list[tuple[tuple[int, int], ...]]  # per cell number: (other cell, position)
    s: Callable[[bytes], tuple[int, ...]]  # the bits of the s variables, by position
    top: int  # the largest variable read

    @classmethod
    def of(cls, reg: Regions) -> Index:
        cells = list(reg.codes)
        num = {v: i for i, v in enumerate(cells)}
        held = [(i, k) for i, v in enumerate(cells) for k in reg.codes[v]]
        evars = [reg.e[cells[i], k] for i, k in held]
        svars = [x for _, _, x in reg.pairs]
        adjacent: list[list[tuple[int, int]]] = [[] for _ in cells]
        for at, (u, w, _) in enumerate(reg.pairs):
            adjacent[num[u]].append((num[w], at))
            adjacent[num[w]].append((num[u], at))
        return cls(cells, held, picker(evars), [tuple(a) for a in adjacent], picker(svars),
                   max([*evars, *svars], default=0))


def read(reg: Regions, model: SatAssignment) -> Reading:
    """Components of the true ``s`` edges, and one code per component (``s`` makes codes
    equal, so the component's first cell tells: its first true code, else BIG). The components
    by breadth-first search over cell numbers, each cell's joined neighbours in the order of
    ``Regions.pairs``. The model's bytes are picked in C (:class:`Index`): Python loops only
    over the true ``e`` variables and the cells' edges."""
    ix = reg.index
    cells, n = ix.cells, len(ix.cells)
    bits = model.bits
    if len(bits) <= ix.top:  # variables the solver never saw read false
        bits += bytes(ix.top + 1 - len(bits))
    first = [BIG] * n
    for i, k in reversed(list(compress(ix.held, ix.e(bits)))):  # the first true code wins
        first[i] = k
    joined = ix.s(bits)
    adjacent = ix.adjacent
    label = [-1] * n
    regions: list[list[Cell]] = []
    for start in range(n):
        if label[start] >= 0:
            continue
        label[start] = start
        comp = [start]
        for v in comp:  # grows while read: breadth-first
            for w, at in adjacent[v]:
                if joined[at] and label[w] < 0:
                    label[w] = start
                    comp.append(w)
        regions.append([cells[v] for v in comp])
    code = dict(zip(cells, map(first.__getitem__, label), strict=True))
    return Reading(code, regions, bits, reg.s)


def cuts(reg: Regions, r: Reading) -> list[list[int]]:
    """The cuts of the module docstring for this reading (none: it is a solution)."""
    out: list[list[int]] = []
    on = r.on
    big_regions: dict[int, list[list[Cell]]] = {}
    for c in r.regions:
        k, n = r.code[c[0]], len(c)
        right = n == k if k != BIG else n > reg.big and (reg.given is not None
                                                          or n not in reg.named)
        if not right:
            if k != BIG and n > k:
                part = first_cells(reg, c, k + 1, on)
                tree = spanning_edges(reg, part, on)
                assert tree is not None
                out.append([*(-x for x in tree), *reg.at_least(part[0], k + 1)])
            elif k == BIG and n in reg.named:
                out.append(exact_cut(reg, c, on, reg.lits(c[0], n)))
            else:
                out.append(exact_cut(reg, c, on, reg.lits(c[0], n)))
                if not reg.escape or k == BIG:
                    continue  # (BIG: touching BIG regions would satisfy it)
                around = escape(reg, r, c, k, k)
                out.append([-reg.e[c[0], k], *(reg.e[w, k] for w in around
                                               if k in reg.codes[w])])
        elif k == BIG:
            big_regions.setdefault(n, []).append(c)
            if reg.given is not None and n in reg.named:
                out += beside_named(reg, r, c, n)
        if k == BIG:
            out += inner_edges(reg, c, on)
    for same in big_regions.values():
        out += touching_big(reg, same, on)
    return out


def escape(reg: Regions, r: Reading, c: list[Cell], k: int, need: int) -> list[Cell]:
    """The outer boundary of a set D grown from C (breadth-first) by cells whose number is not
    k and that touch no other cell of number k, while D has fewer than ``need`` cells: a region
    of number k >= ``need`` holding C reaches beyond D, so a cell of that boundary holds k; no
    such cell does in the model."""
    inside = set(c)
    queue = deque(c)
    while queue and len(inside) < need - 1:
        v = queue.popleft()
        for w in reg.nbrs(v):
            if (w in inside or r.code[w] == k or len(inside) >= need - 1
                    or any(r.code[x] == k and x not in inside for x in reg.nbrs(w))):
                continue
            inside.add(w)
            queue.append(w)
    return sorted({w for v in inside for w in reg.nbrs(v) if w not in inside})


def beside_named(reg: Regions, r: Reading, c: list[Cell], n: int) -> list[list[int]]:
    """A BIG region of n cells (no given) beside a cell of a region holding a given n (named
    code n): equal numbers touch. "Not this exact region BIG while that cell holds n"."""
    inside = set(c)
    touching = sorted({w for v in c for w in reg.nbrs(v) if w not in inside and r.code[w] == n})
    exact = exact_cut(reg, c, r.on, [])
    return [[*exact, -reg.e[c[0], BIG], -reg.e[w, n]] for w in touching]


def exact_cut(reg: Regions, c: list[Cell], on: Callable[[Cell, Cell], bool],
              then: list[int]) -> list[int]:
    """"If C is joined (its BFS tree in the model) and no edge leaves it, then ..."."""
    tree = spanning_edges(reg, c, on)
    assert tree is not None
    return [*(-x for x in tree), *leaving_edges(reg, c), *then]


def inner_edges(reg: Regions, c: list[Cell], on: Callable[[Cell, Cell], bool]) -> list[list[int]]:
    """Two neighbours of one BIG component whose own edge is off (only BIG allows it: other
    codes are equal exactly across ``s``): "joined by this path, they are joined", so that in
    a model without cuts ``s`` is exactly "same region" and blocking a grid is exact."""
    parent: dict[Cell, Cell | None] = {c[0]: None}
    depth = {c[0]: 0}
    queue = deque([c[0]])
    while queue:
        v = queue.popleft()
        for w in reg.nbrs(v):
            if w not in parent and on(v, w):
                parent[w], depth[w] = v, depth[v] + 1
                queue.append(w)
    out = []
    for u in c:
        for w in reg.nbrs(u):
            if u < w and w in parent and not on(u, w):
                path, a, b = [], u, w
                while a != b:
                    if depth[a] < depth[b]:
                        a, b = b, a
                    up = parent[a]
                    assert up is not None
                    path.append(reg.s[a, up])
                    a = up
                out.append([reg.s[u, w], *(-x for x in path)])
    return out


def touching_big(reg: Regions, same: list[list[Cell]],
                 on: Callable[[Cell, Cell], bool]) -> list[list[int]]:
    """BIG regions of one size that touch: not both of these exact regions are BIG."""
    out = []
    owner = {v: i for i, c in enumerate(same) for v in c}
    pairs = sorted({(i, owner[w]) for i, c in enumerate(same) for v in c for w in reg.nbrs(v)
                    if owner.get(w, -1) > i})
    for i, j in pairs:
        a, b = same[i], same[j]
        out.append([*exact_cut(reg, a, on, []), *exact_cut(reg, b, on, []),
                    -reg.e[a[0], BIG], -reg.e[b[0], BIG]])
    return out


def first_cells(reg: Regions, c: list[Cell], size: int,
                on: Callable[[Cell, Cell], bool]) -> list[Cell]:
    """``size`` cells of component C joined in the model (BFS from its first cell)."""
    inside = set(c)
    seen = [c[0]]
    mark = {c[0]}
    i = 0
    while len(seen) < size:
        for w in reg.nbrs(seen[i]):
            if w in inside and w not in mark and on(seen[i], w) and len(seen) < size:
                mark.add(w)
                seen.append(w)
        i += 1
    return seen


def grid_codes(reg: Regions, grid: dict[Cell, int]) -> dict[Cell, int]:
    """Every cell's code in a solved grid (with ``given``: BIG above the threshold where the
    cell's region holds no given)."""
    if reg.given is None:
        return {v: reg.code(n) for v, n in grid.items()}
    by_number: dict[int, list[Cell]] = {}
    for v, n in grid.items():
        by_number.setdefault(n, []).append(v)
    out: dict[Cell, int] = {}
    for n, cells in by_number.items():
        for region in components(cells, reg.rows, reg.cols):
            held = n <= reg.big or (n in reg.named and not reg.given.isdisjoint(region))
            out.update(dict.fromkeys(region, n if held else BIG))
    return out


def block(reg: Regions, grid: dict[Cell, int]) -> list[int]:
    """"Some cell holds another number": another code, or the same codes in other regions."""
    codes = grid_codes(reg, grid)
    clause = [-x for v in grid if (x := reg.e.get((v, codes[v]))) is not None]
    for u, w, x in reg.pairs:
        clause.append(-x if grid[u] == grid[w] else x)
    return clause
