"""CPMpy building blocks for the ``cpmpy_*`` formulations (imported only by them; ``cpmpy``
itself only inside the functions, when a model is built).

The connectivity rules are stated as spanning trees, the way a CP modeller writes them when
every solver CPMpy reaches must read them (no solver-specific graph global): each member cell
has exactly one of "is the root" and "has a parent among its member neighbours", and along a
parent arc the depth grows by one, so following parents from any member reaches the root
without a cycle. The same shape as :mod:`bench.encodings.cpsat`, written as CPMpy expressions:

* :func:`connected` -- the cells whose ``member`` Boolean is true are 4-connected (or none),
  the tree rooted at the first member in reading order (no root symmetry) or at a given cell;
  ``max_size`` bounds the depths (an assumption: no solution has more members);
* :func:`region` -- a region of known size grown from a root cell over candidate cells
  (cell -> lower bound on its distance from the root), connected by a tree rooted there;
* :func:`assign` -- the member cells are exactly the owned ones, each owned once, and two
  adjacent members share their region;
* :func:`cuts` -- :class:`bench.encodings.cells.Cut` s as CPMpy clauses (lazy formulations);
* :class:`NeedsCpmpy` -- the header every CPMpy formulation shares: it needs ``cpmpy``, and
  names the extra that installs it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from bench.encodings import cells as cellsets
from bench.encodings.cells import Cut, Region
from bench.grid import Cell

Expr = Any  # a CPMpy expression (a Boolean variable, its negation, a comparison, ...)

#: how to get CPMpy and the solvers it reaches, shown where ``cpmpy`` cannot be imported
INSTALL_HINT = "pip install 'puzzlebench[cpmpy]'"


class NeedsCpmpy:
    """Mixin of every CPMpy formulation, first among its bases (``class F(NeedsCpmpy,
    Formulation[CpmpyModel])``): it needs the ``cpmpy`` package, and without it is listed as
    unavailable with :data:`INSTALL_HINT` (:meth:`bench.registry.Formulation.available`)."""

    requires: ClassVar[tuple[str, ...]] = ("cpmpy",)
    install_hint: ClassVar[str] = INSTALL_HINT


def connected(member: Mapping[Cell, Expr], *, root: Cell | str = "first",
              max_size: int | None = None, name: str = "conn") -> list[Expr]:
    """The constraints making the cells whose ``member`` is true 4-connected (or empty): a
    spanning tree rooted at ``root`` (a member cell, or ``"first"``: the first member in
    ``member``'s order)."""
    import cpmpy as cp

    cells = list(member)
    n = len(cells) if max_size is None else min(max_size, len(cells))
    if n <= 0:
        return [~member[v] for v in cells]
    out: list[Expr] = []
    is_root = {v: cp.boolvar(name=f"{name}_root_{v[0]}_{v[1]}") for v in cells}
    depth = {v: cp.intvar(0, n - 1, name=f"{name}_d_{v[0]}_{v[1]}") for v in cells}
    incoming: dict[Cell, list[Expr]] = {v: [] for v in cells}
    for v in cells:
        out.append(is_root[v].implies(member[v] & (depth[v] == 0)))
        for u in cellsets.neighbours_in(v, member):
            a = cp.boolvar(name=f"{name}_p_{u[0]}_{u[1]}_{v[0]}_{v[1]}")  # u is v's parent
            out.append(a.implies(member[u] & (depth[v] == depth[u] + 1)))
            incoming[v].append(a)
    for v in cells:  # a member has one of root/parent, a non-member neither
        out.append(cp.sum([*incoming[v], is_root[v]]) == member[v])
    if root == "first":
        seen: Expr | None = None  # some earlier cell is a member
        for i, v in enumerate(cells):
            out.append(is_root[v] == (member[v] if seen is None else member[v] & ~seen))
            if i + 1 < len(cells):
                s = cp.boolvar(name=f"{name}_seen_{v[0]}_{v[1]}")
                out.append(s == (member[v] if seen is None else seen | member[v]))
                seen = s
    elif isinstance(root, tuple) and root in member:
        out += [is_root[v] == (v == root) for v in cells]
    else:
        raise ValueError(f"root must be a member cell or 'first', not {root!r}")
    return out


def region(root: Cell, size: int, candidates: Mapping[Cell, int], *,
           name: str = "reg") -> tuple[Region, list[Expr]]:
    """One region of exactly ``size`` cells holding ``root``, over ``candidates``, connected
    by a tree rooted at ``root`` whose depths are bounded below by the candidates' distances;
    the region (``own`` Booleans by cell) and its constraints."""
    import cpmpy as cp

    if root not in candidates:
        raise ValueError(f"{name}: root {root} is not a candidate")
    hi = max(size - 1, 0)
    own = {v: cp.boolvar(name=f"{name}_o_{v[0]}_{v[1]}") for v in candidates}
    depth = {v: cp.intvar(min(candidates[v], hi), hi, name=f"{name}_d_{v[0]}_{v[1]}")
             for v in candidates}
    out: list[Expr] = [own[root], depth[root] == 0, cp.sum(list(own.values())) == size]
    for v in candidates:
        if v == root:
            continue
        parents = []
        for u in cellsets.neighbours_in(v, candidates):
            if candidates[u] + 1 > hi:
                continue  # u is too far out to have children
            a = cp.boolvar(name=f"{name}_p_{u[0]}_{u[1]}_{v[0]}_{v[1]}")
            out.append(a.implies(own[u] & (depth[v] == depth[u] + 1)))
            parents.append(a)
        out.append(cp.sum(parents) == own[v])  # an owned cell has exactly one parent
    return Region(root, size, own, candidates, depth), out


def assign(member: Mapping[Cell, Expr], regions: Sequence[Region]) -> list[Expr]:
    """Each member cell is owned by exactly one region, a non-member by none, and a region's
    cell has no member neighbour outside the region."""
    import cpmpy as cp

    owners: dict[Cell, list[Expr]] = {v: [] for v in member}
    out: list[Expr] = []
    for reg in regions:
        for v, o in reg.own.items():
            owners[v].append(o)
        for u, o in reg.own.items():
            for v in cellsets.neighbours_in(u, member):
                if v in reg.own:  # u in the region and v a member -> v in the region
                    out.append((o & member[v]).implies(reg.own[v]))
                else:  # v can never join the region: it is no member
                    out.append(o.implies(~member[v]))
    for v, x in member.items():
        out.append(cp.sum(owners[v]) == x)
    return out


def no_2x2(member: Mapping[Cell, Expr], rows: int, cols: int) -> list[Expr]:
    """No 2x2 block has all four cells true."""
    import cpmpy as cp

    return [~cp.all([member[v] for v in block])
            for block in cellsets.blocks_2x2(rows, cols, member)]


def cuts(member: Mapping[Cell, Expr], found: Sequence[Cut]) -> list[Expr]:
    """Each cut "some ``pos`` cell is true or some ``neg`` cell is false" as a clause."""
    import cpmpy as cp

    return [cp.any([*(member[v] for v in c.pos), *(~member[v] for v in c.neg)]) for c in found]
