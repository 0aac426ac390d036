"""SAT building blocks for grid puzzles (Nurikabe, Yin-Yang, Fillomino, ...) over a
:class:`bench.models.SatModel`.

The same API shape as :mod:`bench.encodings.cpsat` and :mod:`bench.encodings.mip`: every
function takes the model first, adds its clauses to it, and the method is a parameter (as
python-sat's ``CardEnc.atmost(lits, bound, vpool, encoding=...)``):

* :func:`exactly` / :func:`at_most` -- cardinality, ``encoding`` a python-sat ``EncType`` (name
  or number); :func:`exactly_in_groups` -- exactly, counted group by group;
* :func:`no_2x2` -- no 2x2 block all on;
* :func:`connected` -- the on cells form one 4-connected set, ``method="distance"`` (eager,
  parent pointers with order-encoded distances) or ``"lazy"`` (nothing now; call
  :func:`separate_connected` after each solve), ``root`` a cell, ``"first"`` or ``"free"``;
* :func:`separate_connected` -- add the cuts of :func:`bench.encodings.cells.connectivity_cuts`
  for the current assignment and return how many;
* :func:`region` -- one region of a given size rooted at a clue (ownership literals), with
  :func:`assign` (every on cell in exactly one region, regions are whole components),
  :func:`connect_regions` (eager: every on cell joined to a root, one distance ladder per cell
  shared by all regions), :func:`layer_regions` (eager: layered reachability per region) and
  :func:`separate_regions` (lazy).

Conventions: ``member[cell]`` is the literal "cell is on" (on = black, white, in the region...);
a cell missing from ``member`` is never on.

Two sets connected at once (Yin-Yang's colours) are two calls, ``connected(m, black, ...)`` and
``connected(m, {v: -x for v, x in black.items()}, ...)`` (lazy: two :func:`separate_connected`
calls). Regions of unknown size (Fillomino's) are not a builder here.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping, Sequence
from typing import Literal

from pysat.card import CardEnc, EncType

from bench.encodings import cells as cellsets
from bench.encodings.cells import Cut, CutShape, Region
from bench.grid import Cell
from bench.models import SatModel

Clause = list[int]
Encoding = str | int | None


def _enc(encoding: Encoding) -> int:
    if encoding is None:
        return int(EncType.seqcounter)
    return int(getattr(EncType, encoding)) if isinstance(encoding, str) else encoding


# --- cardinality --------------------------------------------------------------------------------

def at_most_one(m: SatModel, lits: Sequence[int]) -> None:
    """At most one of ``lits``: pairwise up to 5 literals, a sequential counter above."""
    if len(lits) <= 1:
        return
    if len(lits) <= 5:
        m.extend([-a, -b] for i, a in enumerate(lits) for b in lits[i + 1:])
        return
    m.extend(CardEnc.atmost(list(lits), bound=1, vpool=m.pool, encoding=EncType.seqcounter).clauses)


def exactly(m: SatModel, lits: Sequence[int], bound: int, encoding: Encoding = None) -> None:
    """Exactly ``bound`` of ``lits`` are true (an empty clause if impossible)."""
    if bound < 0 or bound > len(lits):
        m.add([])
    elif bound == 0:
        m.extend([-x] for x in lits)
    elif bound == len(lits):
        m.extend([x] for x in lits)
    else:
        m.extend(CardEnc.equals(list(lits), bound=bound, vpool=m.pool,
                                encoding=_enc(encoding)).clauses)


def exactly_in_groups(m: SatModel, groups: Sequence[Sequence[int]], bound: int) -> list[int]:
    """Exactly ``bound`` of the literals of ``groups``, counted group by group: a totalizer over
    each group, the groups' counts then added one after another, so every partial sum "at least
    j true in the first g groups" is a literal (counts capped at ``bound + 1``). For a region's
    size over its distance rings (:func:`region` with ``encoding="rings"``): "at least j cells
    within distance g of the root". Returns each non-empty group's "at least one of it is true"
    literal, in order (none when the bound leaves nothing to count)."""
    lits = [x for g in groups for x in g]
    if not 0 < bound < len(lits):
        exactly(m, lits, bound)
        return []
    cap = bound + 1
    sums = [_totalizer(m, [[x] for x in g], cap) for g in groups if g]
    total = sums[0]
    for counted in sums[1:]:
        total = _merge(m, total, counted, cap)
    m.add([total[bound - 1]])
    m.add([-total[bound]])
    return [counted[0] for counted in sums]


def _totalizer(m: SatModel, units: list[list[int]], cap: int) -> list[int]:
    """Unary counts merged pairwise to one (``[i]`` is "at least i + 1")."""
    while len(units) > 1:
        units = [_merge(m, units[i], units[i + 1], cap) if i + 1 < len(units) else units[i]
                 for i in range(0, len(units), 2)]
    return units[0]


def _merge(m: SatModel, a: list[int], b: list[int], cap: int) -> list[int]:
    """The totalizer node of two unary counts, its own capped at ``cap``: both directions
    (a >= i and b >= j give at least i + j; a <= i and b <= j give at most i + j)."""
    out = [m.fresh() for _ in range(min(len(a) + len(b), cap))]
    one = [0, *a]  # one[i]: "a >= i" (0: true)
    two = [0, *b]
    for i in range(len(one)):
        for j in range(len(two)):
            if 0 < i + j <= len(out):
                m.add([*(-x for x in (one[i], two[j]) if x), out[i + j - 1]])
            if i + j < len(out):
                m.add([*one[i + 1:i + 2], *two[j + 1:j + 2], -out[i + j]])
    return out


def at_most(m: SatModel, lits: Sequence[int], bound: int, encoding: Encoding = None) -> None:
    """At most ``bound`` of ``lits`` are true (an empty clause if ``bound < 0``)."""
    if bound < 0:
        m.add([])
    elif bound == 0:
        m.extend([-x] for x in lits)
    elif bound < len(lits):
        m.extend(CardEnc.atmost(list(lits), bound=bound, vpool=m.pool,
                                encoding=_enc(encoding)).clauses)


# --- local rules ---------------------------------------------------------------------------------

def no_2x2(m: SatModel, lits: Mapping[Cell, int], rows: int, cols: int) -> None:
    """No 2x2 block is all on (blocks with a cell missing from ``lits`` never are)."""
    m.extend([-lits[v] for v in block] for block in cellsets.blocks_2x2(rows, cols, lits))


#: :func:`add_cuts` shares a ``pos`` part of at least this many cells between the cuts that
#: have it through one fresh literal
SHARED_POS = 4


def add_cuts(m: SatModel, member: Mapping[Cell, int], cuts: Sequence[Cut]) -> int:
    """Add each cut as the clause ``[-x for neg] + [x for pos]``; return how many.

    Cuts that have the same ``pos`` part of :data:`SHARED_POS` or more cells (the all-anchor
    cuts of one wall piece: one per cell of the piece, each with the piece's whole boundary)
    share it through one fresh literal ``a``: ``[-a, *pos]`` once and ``[-x for neg] + [a]``
    per cut, |C| + |N(C)| literals instead of |C| x |N(C)|. The same cell assignments satisfy
    both (``a`` is free to be "some pos cell is on"), and unit propagation is the same: a
    cut's neg cells all on give ``a`` and then the clause over ``pos``; every pos cell off
    gives not ``a`` and then each cut's clause over its neg cells. In order, so a set of cuts
    with no shared part gives the same clauses as before."""
    # grouped by the pos tuple itself (one object per piece in connectivity_cuts): hashing
    # a boundary of hundreds of cells once per cut cost more than the clauses saved
    count: dict[int, int] = {}
    for cut in cuts:
        if len(cut.pos) >= SHARED_POS:
            count[id(cut.pos)] = count.get(id(cut.pos), 0) + 1
    shared: dict[int, int] = {}
    clauses: list[list[int]] = []
    for pos, neg in cuts:
        key = id(pos)
        if count.get(key, 0) < 2:
            clauses.append([*(-member[v] for v in neg), *(member[v] for v in pos)])
            continue
        a = shared.get(key)
        if a is None:
            a = shared[key] = m.fresh()
            clauses.append([-a, *(member[v] for v in pos)])
        clauses.append([-member[neg[0]], a] if len(neg) == 1 else [*(-member[v] for v in neg), a])
    m.extend(clauses)
    return len(cuts)


# --- connectivity ---------------------------------------------------------------------------------

def connected(m: SatModel, member: Mapping[Cell, int], *, method: str = "distance",
              root: Cell | str | None = None, max_size: int | None = None,
              exact_size: bool = False, name: str = "conn") -> dict[Cell, dict[Cell, int]]:
    """The on cells of ``member`` form one 4-connected set (or none).

    ``method="distance"``: every on non-root cell picks an on neighbour as parent, with
    order-encoded distances (at most ``max_size - 1``) strictly decreasing towards the root
    (:func:`rooted_distance`); returns the parent literals. ``method="lazy"``: adds nothing
    (call :func:`separate_connected`). ``root``: a cell on in every solution, ``"first"`` (the
    first on cell in ``member``'s order: no root symmetry) or ``"free"``/None (any on cell,
    at most one). ``max_size`` is an assumption (no solution has more on cells; default: all of
    ``member``), not a constraint. ``exact_size`` is accepted for the common signature and not
    needed here.
    Other methods (``tree``, ``flow``) raise ValueError."""
    del exact_size, name
    if method == "lazy":
        return {}
    if method != "distance":
        raise ValueError(f"sat connected: method must be 'distance' or 'lazy', not {method!r}")
    n = len(member) if max_size is None else min(max_size, len(member))
    if n <= 0:
        m.extend([-x] for x in member.values())
        return {}
    roots: Mapping[Cell, int]
    if root == "first":
        roots = first_on_root(m, list(member), member)
    elif root in (None, "free"):
        roots = {v: m.fresh() for v in member}
        m.extend([-r, member[v]] for v, r in roots.items())
        at_most_one(m, list(roots.values()))
    elif isinstance(root, tuple) and root in member:
        roots = {root: member[root]}
    else:
        raise ValueError(f"root must be a member cell, 'first' or 'free', not {root!r}")
    return rooted_distance(m, member, roots, n - 1)


def separate_connected(m: SatModel, member: Mapping[Cell, int], is_on: Callable[[Cell], bool],
                       *, cut: CutShape = "component", total: int | None = None,
                       min_size: int | None = None, anchors: Literal["one", "all"] = "one",
                       pairs: Literal["largest", "all"] = "all") -> int:
    """Add cuts excluding the current on-set when it is disconnected; return how many (0: it
    is connected). The cut shapes and their assumptions:
    :func:`bench.encodings.cells.connectivity_cuts`."""
    on = [v for v in member if is_on(v)]
    return add_cuts(m, member, cellsets.connectivity_cuts(member, on, cut=cut, total=total,
                                                 min_size=min_size, anchors=anchors,
                                                 pairs=pairs))


def first_on_root(m: SatModel, order: Sequence[Cell], lit: Mapping[Cell, int]) -> dict[Cell, int]:
    """Root literals for a connected set whose root is not given: ``root[v]`` is true exactly
    when v is the first on cell of ``order`` (so there is exactly one root if any cell is on).
    Uses a prefix chain ``s_v = some on cell before v``; 3 + 3 clauses per cell."""
    roots: dict[Cell, int] = {}
    before: int | None = None  # literal "some on cell before the current one"; None = false
    for v in order:
        x = lit[v]
        r = m.fresh()
        s = m.fresh()
        if before is None:
            m.extend([[-r, x], [r, -x], [-s, x], [s, -x]])
        else:
            m.extend([[-r, x], [-r, -before], [r, -x, before]])
            m.extend([[-s, before, x], [s, -before], [s, -x]])
        roots[v] = r
        before = s
    return roots


def rooted_distance(
    m: SatModel,
    lit: Mapping[Cell, int],
    root: Mapping[Cell, int],
    maxdist: Mapping[Cell, int] | int,
    mindist: Mapping[Cell, int] | None = None,
) -> dict[Cell, dict[Cell, int]]:
    """Every on cell is joined to an on root by a path of on cells (eager, exact).

    Each on non-root cell v picks a parent ``p[v][n]`` among its on neighbours; its distance
    ``dist(v)`` is order-encoded (``le(v, i)`` = "dist(v) <= i", identified with ``on(v)`` at
    ``i = maxdist[v]`` and false below ``mindist[v]``) and ``p[v][n] and le(v, i) -> le(n, i-1)``,
    so distances strictly decrease along parent pointers (no cycles) and every chain ends at a
    cell with ``le(v, 0)``, which must be a root. Roots are on and have distance 0.

    Assumes (for exactness): in every solution the BFS distance of every on cell from the
    nearest on root, through on cells, lies in ``[mindist[v], maxdist[v]]``. Cells missing from
    ``root`` are never roots. Returns the parent literals ``{v: {n: p}}``. Size: about
    4 x cells x maxdist ternary clauses.
    """
    def hi(v: Cell) -> int:
        return maxdist if isinstance(maxdist, int) else maxdist[v]

    def lo(v: Cell) -> int:
        return 0 if mindist is None else mindist.get(v, 0)

    le = {v: _ladder(m, lit[v], root.get(v), lo(v), hi(v)) for v in lit}
    parents: dict[Cell, dict[Cell, int]] = {}
    for v in lit:
        if not le[v]:
            continue
        ps: dict[Cell, int] = {}
        for n in cellsets.neighbours_in(v, lit):
            if not le[n]:
                continue
            p = ps[n] = m.fresh()
            m.add([-p, lit[n]])
            for i in range(lo(v), hi(v) + 1):
                if i - 1 >= hi(n):
                    break  # le(n, i-1) is on(n), implied by p -> on(n)
                there = None if i - 1 < lo(n) else le[n][min(i - 1, hi(n))]
                m.add([-p, -le[v][i]] if there is None else [-p, -le[v][i], there])
        parents[v] = ps
        r = root.get(v)
        m.add([-lit[v], *ps.values(), *([] if r is None else [r])])
    return parents


def _ladder(m: SatModel, x: int, r: int | None, low: int, h: int) -> dict[int, int]:
    """Order-encoded distance of one cell: ``le[i]`` for ``low <= i <= h`` with ``le[h] = x``
    (on); a root ``r`` has distance 0. Empty (and the cell off) when no distance fits."""
    if h < low or h < 0:
        m.add([-x])
        return {}
    le = {i: m.fresh() for i in range(low, h)}
    le[h] = x
    m.extend([-le[i], le[i + 1]] for i in range(low, h))
    if r is not None:
        m.add([-r, x])
        if low > 0:
            m.add([-r])
        else:
            m.extend([[-r, le[0]], [-le[0], r]])
    elif low == 0:
        m.add([-le[0]])
    return le


# --- regions rooted at clues ----------------------------------------------------------------------

def region(m: SatModel, root: Cell, size: int, candidates: Mapping[Cell, int], *,
           method: str = "lazy", encoding: Encoding = None, name: str = "reg") -> Region:
    """One region of ``size`` cells holding ``root``, over ``candidates`` (cell -> lower bound
    on its distance from the root inside the region, e.g. :func:`bench.grid.clue_reach`):
    ownership literals, the root owned, exactly ``size`` owned (``encoding``: a python-sat
    encoding, or ``"rings"``: :func:`exactly_in_groups` over the candidates' distances, and,
    when those are exact distances, "a cell in ring d is owned only if one in ring d - 1 is":
    every path from the root crosses each ring), and an owned non-root cell has an owned
    neighbour (a region of several cells has no isolated cell).

    Connectivity is added after :func:`assign` (``method="lazy"``, the only one here): eagerly
    with :func:`connect_regions` (one distance ladder per cell for all regions) or
    :func:`layer_regions` (layered reachability per region, stronger propagation), or lazily
    with :func:`separate_regions`."""
    if method != "lazy":
        raise ValueError(f"sat region: method must be 'lazy', not {method!r} "
                         "(eager: connect_regions)")
    if root not in candidates:
        raise ValueError(f"{name}: root {root} is not a candidate")
    own = {v: m.var((name, v)) for v in candidates}
    m.add([own[root]])
    if size > 1:
        m.extend([-own[v], *(own[n] for n in cellsets.neighbours_in(v, own))]
                 for v in candidates if v != root)
    if encoding == "rings":  # counted ring by ring round the root
        rings: dict[int, list[int]] = {}
        for v, x in own.items():
            rings.setdefault(candidates[v], []).append(x)
        occupied = exactly_in_groups(m, [rings[d] for d in sorted(rings)], size)
        if _exact_distances(root, candidates):
            # the region is connected and holds the root, and a step changes the distance by
            # at most 1: a region reaching ring d has a cell in every ring before it
            m.extend([-far, near] for near, far in itertools.pairwise(occupied))
    else:
        exactly(m, list(own.values()), size, encoding)
    return Region(root, size, own, candidates)


def _exact_distances(root: Cell, candidates: Mapping[Cell, int]) -> bool:
    """Whether ``candidates`` holds distances from ``root`` that change by at most 1 between
    neighbours (as BFS distances do), not merely lower bounds."""
    return candidates[root] == 0 and all(
        abs(d - candidates[n]) <= 1 for v, d in candidates.items()
        for n in cellsets.neighbours_in(v, candidates))


def assign(m: SatModel, member: Mapping[Cell, int], regions: Sequence[Region]) -> None:
    """The on cells are exactly the owned ones, each owned by one region, and two adjacent on
    cells share their region: each maximal on-component lies in one region (a cell no region
    can hold is off)."""
    owners: dict[Cell, list[int]] = {}
    for reg in regions:
        for v, o in reg.own.items():
            owners.setdefault(v, []).append(o)
    for v, x in member.items():
        os = owners.get(v, [])
        m.add([-x, *os])
        m.extend([-o, x] for o in os)
        at_most_one(m, os)
    for reg in regions:
        for v, o in reg.own.items():
            m.extend([-o, -member[n], reg.own[n]] if n in reg.own else [-o, -member[n]]
                     for n in cellsets.neighbours_in(v, member))


def connect_regions(m: SatModel, member: Mapping[Cell, int], regions: Sequence[Region]) -> None:
    """Eager region connectivity: every on cell is joined to an owned root through on cells
    (:func:`rooted_distance`), with distance bounds from the candidates: at least the smallest
    candidate distance, at most the largest reaching region's size minus one."""
    hi: dict[Cell, int] = dict.fromkeys(member, -1)
    lo: dict[Cell, int] = {}
    for reg in regions:
        for v, d in reg.candidates.items():
            hi[v] = max(hi.get(v, -1), reg.size - 1)
            lo[v] = min(lo.get(v, d), d)
    roots = {reg.root: reg.own[reg.root] for reg in regions}
    rooted_distance(m, member, roots, maxdist=hi, mindist=lo)


def layer_regions(m: SatModel, regions: Sequence[Region]) -> None:
    """Eager region connectivity by layered reachability, per region: ``r(t, v)``, "v is
    joined to the root through owned cells in at most t steps", for t up to ``size - 1``
    (the cells of the first step are their ownership literals); ``r(t, v)`` needs v owned and
    v or a neighbour joined by step t - 1, and an owned cell is joined by the last step.
    Unlike the distances of :func:`connect_regions` (an existential label per cell), unit
    propagation follows this forward from the root: once off cells enclose a region, every
    cell beyond them is not joined, hence not owned, and the size count fails at once. About
    ``size`` x ``len(candidates)`` literals per region."""
    for reg in regions:
        root, own = reg.root, reg.own
        step = {v: [n for n in cellsets.neighbours_in(v, own) if n != root] for v in own}
        first = set(step[root])
        layer = {v: own[v] for v in first}  # step 1: the root's neighbours
        for t in range(2, reg.size):
            nxt: dict[Cell, int] = {}
            for v, d in reg.candidates.items():
                if v == root or d > t:
                    continue
                if v in first:
                    nxt[v] = own[v]  # next to the root: joined when owned
                    continue
                x = nxt[v] = m.fresh()
                m.add([-x, own[v]])
                m.add([-x, *(layer[n] for n in [v, *step[v]] if n in layer)])
            layer = nxt
        m.extend([-own[v], layer[v]] if v in layer else [-own[v]] for v in own if v != root)


def separate_regions(m: SatModel, member: Mapping[Cell, int], is_on: Callable[[Cell], bool],
                     regions: Sequence[Region]) -> int:
    """Lazy region connectivity: add :func:`bench.encodings.cells.region_cuts` for the current
    on cells; return how many."""
    on = [v for v in member if is_on(v)]
    return add_cuts(m, member, cellsets.region_cuts(member, on, {r.root: r.size for r in regions}))
