"""Whether the components on a frontier of :mod:`bench.puzzles.nurikabe.frontier` can still be
joined colour by colour below it, by planarity: a frontier whose colours need crossing joins
has no completion and is dropped, exactly.

The cells still to come (``F``) and the frontier cells form a plane graph on whose outer face
the frontier cells lie in column order. Every colour class of a solution is connected, so the
components of a colour on the frontier are joined by the colour's components inside ``F``
(a path between two colour classes crossing from the processed cells to ``F`` does so at a
frontier cell). Each component of a colour inside ``F`` touches some frontier cells of its
colour; joining those in column order gives chords (pairs of frontier cells) realised by
paths inside that component. Paths of two colours are disjoint, so by planarity (two disjoint
paths cannot join ``i`` to ``k`` and ``j`` to ``l`` when ``i < j < k < l`` lie in that order on
one face) chords of different colours do not cross. Hence a frontier with a completion admits
a set of same-colour chords, no two of different colours crossing, that joins with the
frontier's own components (its labels) every colour into one: :func:`joinable` searches for
one (the non-crossing condition of transfer-matrix enumerations of self-avoiding polygons and
lattice animals, I. Jensen, J. Stat. Phys. 102 (2001), extended to several colours). The
search is complete: the chords of a valid set that leave the component of the first colour
still split include one that its branching tries."""

from __future__ import annotations

from functools import lru_cache


def _root(parent: dict[int, int], q: int) -> int:
    while parent[q] != q:
        q = parent[q]
    return q


def _search(seq: tuple[int, ...], parent: dict[int, int],
            chords: list[tuple[int, int, int]]) -> bool:
    """Whether chords added to ``chords`` (``(i, j, colour)``, positions of ``seq``) join every
    colour of ``seq`` (codes: colour * 64 + label) with the union-find ``parent`` of its
    components, no chord crossing one of another colour."""
    roots: dict[int, set[int]] = {}
    for q in seq:
        roots.setdefault(q >> 6, set()).add(_root(parent, q))
    split = [x for x, r in roots.items() if len(r) > 1]
    if not split:
        return True
    x = min(split, key=lambda y: len(roots[y]))
    mine = [i for i, q in enumerate(seq) if q >> 6 == x]
    first = _root(parent, seq[mine[0]])
    inside = [i for i in mine if _root(parent, seq[i]) == first]
    outside = [i for i in mine if _root(parent, seq[i]) != first]
    for i in inside:
        for j in outside:
            a, b = (i, j) if i < j else (j, i)
            if any(y != x and (k < a < m < b or a < k < b < m) for k, m, y in chords):
                continue
            joined = dict(parent)
            joined[first] = _root(joined, seq[j])
            if _search(seq, joined, [*chords, (a, b, x)]):
                return True
    return False


def _reduced(seq: tuple[int, ...]) -> tuple[int, ...]:
    """``seq`` with two neighbours of one colour made one cell of their joined components (a
    chord between them crosses nothing) and the cells of a colour already one component left
    out (it needs no chord), again until nothing changes; the components renumbered by first
    appearance. The reduced frontier has the joins ``seq`` has and no others. A code names its
    component (labels are distinct across colours); ``root`` maps a joined component's code
    to the code it was joined to."""
    if not seq:
        return seq
    cells = list(seq)
    root: dict[int, int] = {}
    while True:
        kept: list[int] = []
        last = -1  # the code of the last cell kept
        for q in cells:
            while q in root:
                q = root[q]
            if last >= 0 and q >> 6 == last >> 6:
                if q != last:
                    root[q] = last
                continue
            kept.append(q)
            last = q
        final = []
        for q in kept:
            while q in root:
                q = root[q]
            final.append(q)
        comps: dict[int, int] = {}
        for q in set(final):
            comps[q >> 6] = comps.get(q >> 6, 0) + 1
        cells = [q for q in final if comps[q >> 6] > 1]
        if len(cells) == len(final):
            break
    names: dict[int, int] = {}
    return tuple([q - (q & 63) + names.setdefault(q, len(names)) for q in cells])


@lru_cache(maxsize=1 << 18)
def _feasible(seq: tuple[int, ...]) -> bool:
    """:func:`_search` from no chord, on a reduced frontier."""
    return not seq or _search(seq, {q: q for q in seq}, [])


@lru_cache(maxsize=1 << 20)
def joinable(codes: tuple[int, ...]) -> bool:
    """Whether the frontier ``codes`` (colour * 64 + label per column, -1: no cell yet) has
    chords joining each colour's components into one with none crossing one of another colour
    (the module docstring: else it has no completion). The answer depends only on the order
    of the components along the frontier: the cells without a colour and the repeats of a
    code in a run are left out first (:func:`_collapsed`, shared by many frontiers)."""
    seq = []
    last = -1
    for q in codes:
        if q >= 0 and q != last:
            seq.append(q)
            last = q
    return _collapsed(tuple(seq))


@lru_cache(maxsize=1 << 18)
def _collapsed(seq: tuple[int, ...]) -> bool:
    """:func:`joinable` of a frontier without empty cells or two equal codes side by side.
    With one colour split at most, the chords needed are all of that colour and cross none of
    another: joinable at once."""
    labels = set(seq)
    colours = [q >> 6 for q in labels]  # one per component
    distinct = set(colours)
    if len(colours) - len(distinct) < 2 or sum(colours.count(x) > 1 for x in distinct) < 2:
        return True
    return _feasible(_reduced(seq))


#: this module's caches by frontier (each a functools.lru_cache), for a caller to empty
CACHES = (joinable, _collapsed, _feasible)
