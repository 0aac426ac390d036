"""CP-SAT building blocks for grid puzzles, the same API shape as :mod:`bench.encodings.sat` and
:mod:`bench.encodings.mip`: model (an OR-tools ``CpModel``) first, constraints added to it,
the method a parameter. A *literal* is anything CP-SAT accepts as one: a ``BoolVar`` or its
``.Not()``; ``member[cell]`` is the literal "cell is on"; a cell missing from it is never on.

* :func:`exactly` / :func:`at_most` -- native cardinality (``encoding`` None or "native");
* :func:`no_2x2` -- no 2x2 block all on;
* :func:`connected` -- ``method="tree"``: a spanning tree over the on cells (a root indicator
  per cell, a parent arc per ordered pair of adjacent cells, a depth per cell with
  ``depth[child] = depth[parent] + 1``; a non-empty set gets exactly one root, because a set
  without one would need an infinite descending chain of depths), rooted at a given cell, the
  first on cell (``"first"``: no root symmetry) or any (``"free"``/None); ``max_size`` bounds
  the depths: an assumption (no solution has more on cells), not a constraint.
  ``method="lazy"``: nothing now, :func:`separate_connected` after each solve;
* :func:`separate_connected` -- the cuts of :func:`bench.encodings.cells.connectivity_cuts`,
  one ``bool_or`` each; returns how many;
* :func:`region` -- one region of known size grown from a root cell: ownership literals over
  the candidates (cell -> lower bound on its distance from the root inside the region, e.g.
  :func:`bench.grid.clue_reach`), size by a sum, connectivity by a tree rooted at the root
  whose depths are bounded below by those distances. Assumes every cell the region can hold
  in some solution is a candidate with a distance no larger than its true one. Regions do not
  exclude each other: :func:`assign` says how they combine with the on cells.

Two sets connected at once (Yin-Yang's colours) are ``connected`` on ``member`` and on the
negated literals. Regions of unknown size (Fillomino's) are not a builder here.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from bench.encodings import cells as cellsets
from bench.encodings.cells import Cut, CutShape, Region
from bench.grid import Cell

Arc = tuple[Cell, Cell]  # (parent, child)
Lit = Any  # a CP-SAT BoolVar or the negation of one
CpModel = Any  # ortools.sat.python.cp_model.CpModel


def _neg(lit: Lit) -> Lit:
    return lit.Not()


# --- cardinality and local rules ------------------------------------------------------------------

def exactly(cp: CpModel, lits: Sequence[Lit], bound: int,
            encoding: str | int | None = None) -> None:
    """Exactly ``bound`` of ``lits`` are true."""
    cellsets.native_only("cpsat", encoding)
    cp.add_exactly_one(lits) if bound == 1 else cp.add(sum(lits) == bound)


def at_most(cp: CpModel, lits: Sequence[Lit], bound: int,
            encoding: str | int | None = None) -> None:
    """At most ``bound`` of ``lits`` are true."""
    cellsets.native_only("cpsat", encoding)
    cp.add_at_most_one(lits) if bound == 1 else cp.add(sum(lits) <= bound)


def no_2x2(cp: CpModel, lits: Mapping[Cell, Lit], rows: int, cols: int) -> None:
    """No 2x2 block is all on (blocks with a cell missing from ``lits`` never are)."""
    for block in cellsets.blocks_2x2(rows, cols, lits):
        cp.add_bool_or([_neg(lits[v]) for v in block])


def add_cuts(cp: CpModel, member: Mapping[Cell, Lit], cuts: Sequence[Cut]) -> int:
    """Add each cut as one ``bool_or``; return how many."""
    for cut in cuts:
        cp.add_bool_or([*(member[v] for v in cut.pos), *(_neg(member[v]) for v in cut.neg)])
    return len(cuts)


# --- connectivity ---------------------------------------------------------------------------------

@dataclass
class Tree:
    """Handles of a spanning tree built by :func:`connected` or :func:`region`."""

    root: dict[Cell, Lit] = field(default_factory=dict)
    parent: dict[Arc, Lit] = field(default_factory=dict)  # (u, v): u is v's parent
    depth: dict[Cell, Any] = field(default_factory=dict)


def connected(cp: CpModel, member: Mapping[Cell, Lit], *, method: str = "tree",
              root: Cell | str | None = None, max_size: int | None = None,
              exact_size: bool = False, name: str = "conn") -> Tree:
    """Constrain the cells whose ``member`` literal is true to be 4-connected (or empty); see
    the module docstring. ``exact_size`` is accepted for the common signature, unused here."""
    del exact_size
    if method == "lazy":
        return Tree()
    if method != "tree":
        raise ValueError(f"cpsat connected: method must be 'tree' or 'lazy', not {method!r}")
    if not (root in (None, "free", "first") or (isinstance(root, tuple) and root in member)):
        raise ValueError(f"root must be a member cell, 'first' or 'free', not {root!r}")
    cells = list(member)
    n = len(cells) if max_size is None else min(max_size, len(cells))
    tree = Tree()
    if n <= 0:
        for v in cells:
            cp.add_bool_or([_neg(member[v])])
        return tree
    for i, v in enumerate(cells):
        tree.root[v] = cp.new_bool_var(f"{name}_root{i}")
        tree.depth[v] = cp.new_int_var(0, n - 1, f"{name}_d{i}")
        cp.add_implication(tree.root[v], member[v])
        cp.add(tree.depth[v] == 0).only_enforce_if(tree.root[v])
    for i, v in enumerate(cells):
        for u in cellsets.neighbours_in(v, member):
            a = cp.new_bool_var(f"{name}_p{i}_{u[0]}_{u[1]}")
            tree.parent[(u, v)] = a
            cp.add_implication(a, member[u])
            cp.add(tree.depth[v] == tree.depth[u] + 1).only_enforce_if(a)
    for v in cells:
        incoming = [tree.parent[(u, v)] for u in cellsets.neighbours_in(v, member)]
        # a member has exactly one of {root, parent}; a non-member has neither
        cp.add(sum(incoming) + tree.root[v] == 1).only_enforce_if(member[v])
        cp.add(sum(incoming) + tree.root[v] == 0).only_enforce_if(_neg(member[v]))
    if root == "first":
        _first_root(cp, cells, member, tree, name)
    elif root in (None, "free"):
        cp.add_at_most_one(tree.root.values())
    else:
        for v, r in tree.root.items():
            cp.add(r == (1 if v == root else 0))
    return tree


def _first_root(cp: CpModel, cells: list[Cell], member: Mapping[Cell, Lit], tree: Tree,
                name: str) -> None:
    """root[v] <-> member[v] and no earlier cell is a member (a prefix chain)."""
    seen_before: Lit | None = None  # some earlier cell is a member
    for i, v in enumerate(cells):
        r, m = tree.root[v], member[v]
        if seen_before is None:
            cp.add(r == 1).only_enforce_if(m)  # the first cell roots the tree if in the set
        else:
            cp.add_implication(r, _neg(seen_before))
            cp.add_bool_or([r, _neg(m), seen_before])
        if i + 1 < len(cells):
            s = cp.new_bool_var(f"{name}_seen{i}")
            prev = [] if seen_before is None else [seen_before]
            cp.add_max_equality(s, [m, *prev])
            seen_before = s


def separate_connected(cp: CpModel, member: Mapping[Cell, Lit], is_on: Callable[[Cell], bool],
                       *, cut: CutShape = "component", total: int | None = None,
                       min_size: int | None = None, anchors: Literal["one", "all"] = "one",
                       pairs: Literal["largest", "all"] = "all") -> int:
    """Add cuts excluding the current on-set when it is disconnected; return how many (0: it
    is connected). Shapes: :func:`bench.encodings.cells.connectivity_cuts`."""
    on = [v for v in member if is_on(v)]
    return add_cuts(cp, member, cellsets.connectivity_cuts(member, on, cut=cut, total=total,
                                                  min_size=min_size, anchors=anchors,
                                                  pairs=pairs))


# --- regions rooted at clues ----------------------------------------------------------------------

def region(cp: CpModel, root: Cell, size: int, candidates: Mapping[Cell, int], *,
           method: str = "tree", encoding: str | int | None = None, name: str = "reg",
           exact_size: bool = True) -> Region:
    """One region of ``size`` cells holding ``root`` (at most ``size`` when ``exact_size`` is
    False), connected by a tree rooted at ``root``: every other owned cell has one owned
    neighbour as parent, one step closer to the root (``method="tree"``, the only one).
    ``extra`` of the result is the :class:`Tree`."""
    cellsets.native_only("cpsat", encoding)
    if method != "tree":
        raise ValueError(f"cpsat region: method must be 'tree', not {method!r}")
    if root not in candidates:
        raise ValueError(f"{name}: root {root} is not a candidate")
    own: dict[Cell, Lit] = {}
    tree = Tree()
    for i, v in enumerate(candidates):
        own[v] = cp.new_bool_var(f"{name}_o{i}")
        lo, hi = candidates[v], max(size - 1, 0)
        tree.depth[v] = cp.new_int_var(min(lo, hi), hi, f"{name}_d{i}")
    cp.add(own[root] == 1)
    cp.add(tree.depth[root] == 0)
    tree.root[root] = own[root]
    total = sum(own.values())
    cp.add(total == size if exact_size else total <= size)
    for v in candidates:
        if v == root:
            continue
        incoming = []
        for u in cellsets.neighbours_in(v, candidates):
            if candidates[u] + 1 > size - 1:
                continue  # u is too far out to have children
            a = cp.new_bool_var(f"{name}_p{v[0]}_{v[1]}_{u[0]}_{u[1]}")
            tree.parent[(u, v)] = a
            cp.add_implication(a, own[u])
            cp.add(tree.depth[v] == tree.depth[u] + 1).only_enforce_if(a)
            incoming.append(a)
        cp.add(sum(incoming) == own[v])  # own[v] <-> exactly one parent
    return Region(root, size, own, candidates, tree)


def assign(cp: CpModel, member: Mapping[Cell, Lit], regions: Sequence[Region]) -> None:
    """The on cells are exactly the owned ones, each owned by one region (``member = sum of
    owners``), and two adjacent on cells share their region: each maximal on-component lies
    in one region (a cell no region can hold is off)."""
    owners: dict[Cell, list[Lit]] = {v: [] for v in member}
    off = {v: _neg(x) for v, x in member.items()}
    for reg in regions:
        for v, o in reg.own.items():
            owners[v].append(o)
        for u, o in reg.own.items():
            not_o = _neg(o)
            for v in cellsets.neighbours_in(u, member):
                if v in reg.own:  # u in the region and v on -> v in the region
                    cp.add_bool_or([not_o, off[v], reg.own[v]])
                else:  # v can never join the region: it must be off
                    cp.add_implication(o, off[v])
    for v, x in member.items():
        cp.add(sum(owners[v]) == x)


def separate_regions(cp: CpModel, member: Mapping[Cell, Lit], is_on: Callable[[Cell], bool],
                     regions: Sequence[Region]) -> int:
    """Lazy region cuts (:func:`bench.encodings.cells.region_cuts`); return how many."""
    on = [v for v in member if is_on(v)]
    return add_cuts(cp, member, cellsets.region_cuts(member, on, {r.root: r.size for r in regions}))
