"""SAT building blocks for grid-connectivity puzzles (Nurikabe, Yin-Yang, Fillomino, ...).

Conventions: ``lit[cell]`` is the literal "cell is on" (on = black, white, in the region, ...
whatever set the caller wants connected); a cell missing from ``lit`` can never be on. Clauses
are lists of ints in DIMACS style. Functions that take a :class:`SatModel` add their clauses
to it and return the variables they created; the ``*_cut(s)`` functions only *return* clauses
(the lazy loop decides what to add).

Three families:

* lazy connectivity cuts (:func:`connectivity_cuts`, :func:`enclosure_cut`,
  :func:`not_all_on`) — clauses violated by the current assignment and satisfied by every
  solution, for a separate() loop;
* an eager, exact rooted-distance (acyclic parent pointers, order-encoded distance) encoding of
  "every on cell is joined to an on root through on cells" (:func:`rooted_distance_connectivity`,
  with :func:`first_on_root` for a set whose root is not given);
* region ownership, "cell v belongs to clue k's region", restricted to each clue's reach
  (:func:`region_ownership`, with :func:`bench.grid.clue_reach` for the reach).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Literal

from pysat.card import CardEnc, EncType

from bench.grid import Cell, boundary, components, neighbours
from bench.models import SatModel

Clause = list[int]


# --- cardinality --------------------------------------------------------------------------------

def at_most_one(m: SatModel, lits: Sequence[int]) -> None:
    """At most one of ``lits``: pairwise up to 5 literals, a sequential counter above."""
    if len(lits) <= 1:
        return
    if len(lits) <= 5:
        m.extend([-a, -b] for i, a in enumerate(lits) for b in lits[i + 1:])
        return
    m.extend(CardEnc.atmost(list(lits), bound=1, vpool=m.pool, encoding=EncType.seqcounter).clauses)


def exactly(
    m: SatModel, lits: Sequence[int], bound: int, encoding: int = EncType.seqcounter
) -> None:
    """Exactly ``bound`` of ``lits`` are true (an empty clause if impossible)."""
    if bound < 0 or bound > len(lits):
        m.add([])
        return
    if bound == 0:
        m.extend([-x] for x in lits)
        return
    if bound == len(lits):
        m.extend([x] for x in lits)
        return
    m.extend(CardEnc.equals(list(lits), bound=bound, vpool=m.pool, encoding=encoding).clauses)


# --- (a) lazy connectivity cuts -----------------------------------------------------------------

def connectivity_cuts(
    on: Collection[Cell],
    lit: Mapping[Cell, int],
    rows: int,
    cols: int,
    *,
    fixed_off: Collection[Cell] = (),
    pairs: Literal["largest", "all"] = "all",
    anchors: Literal["one", "all"] = "one",
    total: int | None = None,
) -> list[Clause]:
    """Cuts excluding a disconnected on-set; ``[]`` when ``on`` is connected (or empty).

    Assumes: in every solution the on cells form one 4-connected group. ``on`` is the set of
    on cells of the current assignment.

    For two components C and D of the current on-set, every path from a cell c of C to a cell
    d of D leaves C through its vertex boundary N(C), so the clause

        not on(c)  or  not on(d)  or  OR_{b in N(C)} on(b)

    holds in every solution ("if c and d are both on, something of the separator is on"), and is
    violated now (c, d on, N(C) all off since C is a maximal component). It needs no count of
    on cells, unlike the weaker form "(C not all on) or (some b in N(C) on)", which is only valid
    when the on-set must reach beyond C (e.g. a known total larger than |C|) and needs all of C.
    Cells in ``fixed_off`` or missing from ``lit`` are dropped from N(C) (always off).

    ``pairs``: "all" gives a clause for every ordered pair of components (C, D); "largest" pairs
    each component with the largest other one only. ``anchors``: "one" uses the first cell of C
    as c, "all" gives one clause per cell c of C (d is always the first cell of D).

    ``total``: when every solution has at least ``total`` on cells (Nurikabe: exactly the cells
    minus the island sizes), the partner d is not needed: if c is on and all of N(C) is off,
    c's component lies inside C and has fewer than ``total`` cells, so some on cell lies
    elsewhere and the set is disconnected. Then each component C with ``|C| < total`` gets

        not on(c)  or  OR_{b in N(C)} on(b)

    (one per anchor c; ``pairs`` is ignored). It is the pair clause without ``not on(d)``, so it
    dominates it, and it generalises "an on cell has an on neighbour" from single cells to
    whole pockets. If the current assignment has ``total`` on cells (the base enforces the
    count), every component of a disconnected set is smaller than ``total`` and gets a cut.
    """
    comps = components(on, rows, cols)
    if len(comps) <= 1:
        return []
    never = set(fixed_off)
    seps = [
        [lit[b] for b in boundary(comp, rows, cols) if b in lit and b not in never]
        for comp in comps
    ]
    by_size = sorted(range(len(comps)), key=lambda i: -len(comps[i]))
    cuts: list[Clause] = []
    if total is not None:
        for i, comp in enumerate(comps):
            if len(comp) < total:
                cs = comp if anchors == "all" else comp[:1]
                cuts += [[-lit[c], *seps[i]] for c in cs]
        return cuts
    for i, comp in enumerate(comps):
        if pairs == "all":
            others = [j for j in range(len(comps)) if j != i]
        else:
            others = [by_size[0] if by_size[0] != i else by_size[1]]
        cs = comp if anchors == "all" else comp[:1]
        for j in others:
            d = lit[comps[j][0]]
            for c in cs:
                cuts.append([-lit[c], -d, *seps[i]])
    return cuts


def enclosure_cut(
    component: Collection[Cell],
    lit: Mapping[Cell, int],
    rows: int,
    cols: int,
    *,
    anchor: Cell | None = None,
    fixed_off: Collection[Cell] = (),
) -> Clause:
    """"This on-region may not be closed off": ``not on(anchor) or OR_{b in N(C)} on(b)``.

    Assumes: in no solution is the maximal on-component containing ``anchor`` a subset of
    ``component`` (e.g. C is an island smaller than its clue, or C holds no clue at all). If
    all of N(C) is off, the component of ``anchor`` lies inside C, so the clause is valid; it
    is violated now when C is a maximal on-component (its boundary is all off). With
    ``anchor=None`` the anchor is taken to be always on (a clue cell inside C), giving the
    unconditional "some boundary cell is on". Cells in ``fixed_off``/missing from ``lit`` are
    dropped. An empty result means the region can never be opened: the instance is infeasible.
    """
    never = set(fixed_off)
    clause = [lit[b] for b in boundary(component, rows, cols) if b in lit and b not in never]
    if anchor is not None:
        clause.append(-lit[anchor])
    return clause


def not_all_on(
    cells: Collection[Cell], lit: Mapping[Cell, int], extra: Sequence[int] = ()
) -> Clause:
    """"Not all of these cells on (and not all of ``extra`` true)": ``OR not on(c) or OR not e``.

    Assumes: no solution has all of ``cells`` on together with ``extra``; e.g. a connected set
    holding two clues, or a connected set larger than the clue it contains (with ``extra`` the
    owner literals when only the owned version is excluded)."""
    return [-lit[c] for c in cells] + [-e for e in extra]


# --- (b) eager rooted-distance connectivity -----------------------------------------------------

def first_on_root(m: SatModel, order: Sequence[Cell], lit: Mapping[Cell, int]) -> dict[Cell, int]:
    """Root literals for a connected set whose root is not given: ``root[v]`` is true exactly
    when v is the first on cell of ``order`` (so there is exactly one root if any cell is on).
    Uses a prefix chain ``s_v = some on cell before v``; 3 + 3 clauses per cell."""
    roots: dict[Cell, int] = {}
    before: int | None = None  # literal "some on cell before the current one"; None = false
    for v in order:
        x = lit[v]
        r = m.fresh()
        if before is None:
            m.extend([[-r, x], [r, -x]])
        else:
            m.extend([[-r, x], [-r, -before], [r, -x, before]])
        roots[v] = r
        s = m.fresh()
        if before is None:
            m.extend([[-s, x], [s, -x]])
        else:
            m.extend([[-s, before, x], [s, -before], [s, -x]])
        before = s
    return roots


def rooted_distance_connectivity(
    m: SatModel,
    lit: Mapping[Cell, int],
    root: Mapping[Cell, int],
    rows: int,
    cols: int,
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
    nearest on root, through on cells, lies in ``[mindist[v], maxdist[v]]`` (``maxdist`` may
    be one int for all cells; e.g. ``number of on cells - 1``). Cells missing from ``root`` are
    never roots. Returns the parent literals ``{v: {n: p}}``. Size: about 4 x cells x maxdist
    ternary clauses.
    """
    cells = list(lit)

    def hi(v: Cell) -> int:
        return maxdist if isinstance(maxdist, int) else maxdist[v]

    def lo(v: Cell) -> int:
        return 0 if mindist is None else mindist.get(v, 0)

    le: dict[Cell, dict[int, int]] = {}
    for v in cells:
        x, h, low = lit[v], hi(v), lo(v)
        r = root.get(v)
        if h < low or h < 0:
            m.add([-x])
            le[v] = {}
            continue
        le[v] = {i: m.fresh() for i in range(low, h)}
        le[v][h] = x
        for i in range(low, h):
            m.add([-le[v][i], le[v][i + 1]])
        if r is not None:
            m.add([-r, x])
            if low > 0:
                m.add([-r])
            else:
                m.extend([[-r, le[v][0]], [-le[v][0], r]])
        elif low == 0:
            m.add([-le[v][0]])

    def at_most(v: Cell, i: int) -> int | None:
        """Literal "dist(v) <= i", or None when that is constant false."""
        if i < lo(v) or not le[v]:
            return None
        return le[v][min(i, hi(v))]

    parents: dict[Cell, dict[Cell, int]] = {}
    for v in cells:
        if not le[v]:
            continue
        x, r = lit[v], root.get(v)
        ps: dict[Cell, int] = {}
        for n in neighbours(v, rows, cols):
            if n not in lit or not le[n]:
                continue
            p = m.fresh()
            ps[n] = p
            m.add([-p, lit[n]])
            for i in range(lo(v), hi(v) + 1):
                if i - 1 >= hi(n):
                    break  # le(n, i-1) is on(n), implied by p -> on(n)
                here = le[v][i]
                there = at_most(n, i - 1)
                m.add([-p, -here] if there is None else [-p, -here, there])
        parents[v] = ps
        head = [-x, *ps.values()]
        if r is not None:
            head.append(r)
        m.add(head)
    return parents


# --- (c) region ownership -----------------------------------------------------------------------

def region_ownership(
    m: SatModel,
    lit: Mapping[Cell, int],
    seeds: Sequence[Cell],
    reach: Sequence[Mapping[Cell, int]],
    rows: int,
    cols: int,
    sizes: Sequence[int] | None = None,
    encoding: int = EncType.seqcounter,
) -> dict[tuple[int, Cell], int]:
    """Ownership literals ``own[(k, v)]`` = "on cell v belongs to seed k's region".

    Clauses: the seed cell of k is owned by k; ``own -> on``; every on cell is owned by exactly
    one seed whose reach holds it (an on cell in no reach is impossible: it is forced off); two
    adjacent on cells share their owner (so a maximal on-component has one owner, and components
    of two seeds can never merge); an owned non-seed cell has an owned neighbour (a region with
    more than one cell is connected, so every member has a member neighbour). With ``sizes``,
    exactly ``sizes[k]`` cells are owned by k.

    Assumes: ``reach[k]`` contains every cell seed k's region can hold in any solution (e.g.
    :func:`bench.grid.clue_reach`), the seed cells are on, and each maximal
    on-component is exactly one seed's region. It does *not* make a region connected: a piece
    owned by k may be cut off from k's seed; close that with :func:`enclosure_cut` lazily or
    :func:`rooted_distance_connectivity` eagerly.
    """
    own: dict[tuple[int, Cell], int] = {}
    owners: dict[Cell, list[int]] = {}
    for k, cells in enumerate(reach):
        for v in cells:
            own[(k, v)] = m.fresh()
            owners.setdefault(v, []).append(k)
    for k, seed in enumerate(seeds):
        m.add([own[(k, seed)]])
    for v, x in lit.items():
        ks = owners.get(v, [])
        if not ks:
            m.add([-x])
            continue
        m.add([-x, *(own[(k, v)] for k in ks)])
        for k in ks:
            m.add([-own[(k, v)], x])
        at_most_one(m, [own[(k, v)] for k in ks])
    for (k, v), o in own.items():
        near = []
        for n in neighbours(v, rows, cols):
            if n not in lit:
                continue
            if (k, n) in own:
                m.add([-o, -lit[n], own[(k, n)]])
                near.append(own[(k, n)])
            else:
                m.add([-o, -lit[n]])
        if v != seeds[k] and (sizes is None or sizes[k] > 1):
            m.add([-o, *near])
    if sizes is not None:
        for k, size in enumerate(sizes):
            exactly(m, [own[(k, v)] for v in reach[k]], size, encoding)
    return own
