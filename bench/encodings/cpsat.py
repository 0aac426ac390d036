"""CP-SAT building blocks for grid puzzles: connectivity trees, clue-rooted regions, lazy cuts.

Shared by the Nurikabe, Yin-Yang and Fillomino CP-SAT formulations. Cells are ``(row, col)``
pairs and adjacency is always the orthogonal 4-neighbourhood. A *literal* is anything CP-SAT
accepts as one: a ``BoolVar`` or its ``.Not()``.

Three pieces, each with the assumptions it relies on:

* :func:`connected` -- the cells whose literal is true form one 4-connected set (or none).
  A spanning tree over the set: a root indicator per cell, a parent arc per ordered pair of
  adjacent cells and a depth per cell, with ``depth[child] = depth[parent] + 1``. The root is
  chosen inside the model (at most one root; a non-empty set gets exactly one, because a set
  without a root would need an infinite descending chain of depths). Assumes: cells missing
  from ``member`` are never in the set; ``max_size`` (when given) bounds the set's size.

* :func:`rooted_region` -- "cell v belongs to the region grown from seed cell s" for a region
  of known size that must contain s and be connected (a Nurikabe island from its clue, a
  Fillomino region from a clue). Candidate cells come with a lower bound on their distance
  from the seed -- :func:`bench.grid.bfs_distances` cut at ``size - 1`` steps, or
  :func:`bench.grid.clue_reach` for Nurikabe islands; both imply Manhattan-distance
  pruning. Size by a sum; connectivity by a tree rooted at the seed whose depths are bounded
  below by those distances. Assumes: every cell the region can hold in some solution is a
  candidate, with a distance no larger than its true distance from the seed inside the
  region (a missing cell or an overestimate cuts off solutions). Regions do not exclude each
  other here: the caller says how owners combine (Nurikabe: white = sum of owners).

* :func:`separate_connectivity` -- the lazy alternative to :func:`connected`: given solver
  values, find the components of the set and, when there are several, add for each component
  C the cut "some boundary cell of C (outside the set now) is in the set, or some cell of C is
  not" as one ``bool_or`` (for Nurikabe's black cells: a white boundary cell of C is black,
  or not all of C is black). That cut says "C is not an isolated component", which is only
  valid while C cannot be the whole set; the helper therefore takes ``min_size``, a lower
  bound on the size of the set in every solution, and for a component with
  ``len(C) >= min_size`` adds one more literal: "a cell of another component is not in the
  set". With ``min_size`` right, no valid solution is ever cut off.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from bench.grid import Cell, components

Arc = tuple[Cell, Cell]  # (parent, child)
Lit = Any  # a CP-SAT BoolVar or the negation of one
CpModel = Any  # ortools.sat.python.cp_model.CpModel


def neighbours_in(cell: Cell, cells: Mapping[Cell, Any]) -> list[Cell]:
    """The 4-neighbours of ``cell`` that are keys of ``cells`` (so no grid bounds needed)."""
    r, c = cell
    return [n for n in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)) if n in cells]


# --- (a) connectivity of a variable set by a spanning tree --------------------------------------


@dataclass
class Tree:
    """Handles of a spanning tree built by :func:`connected` or :func:`rooted_region`."""

    root: dict[Cell, Lit] = field(default_factory=dict)
    parent: dict[Arc, Lit] = field(default_factory=dict)  # (u, v): u is v's parent
    depth: dict[Cell, Any] = field(default_factory=dict)


def connected(cp: CpModel, member: Mapping[Cell, Lit], *, max_size: int | None = None,
              root: str = "free", name: str = "conn") -> Tree:
    """Constrain the cells whose ``member`` literal is true to be 4-connected (or empty).

    ``root="free"``: any member may be the root (at most one root indicator is true).
    ``root="first"``: the root is the first member in the iteration order of ``member`` (a
    prefix chain of "some earlier cell is a member" literals; removes root symmetry).
    """
    if root not in ("free", "first"):
        raise ValueError(f"root must be 'free' or 'first', not {root!r}")
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
        for u in neighbours_in(v, member):
            a = cp.new_bool_var(f"{name}_p{i}_{u[0]}_{u[1]}")
            tree.parent[(u, v)] = a
            cp.add_implication(a, member[u])
            cp.add(tree.depth[v] == tree.depth[u] + 1).only_enforce_if(a)
    for v in cells:
        incoming = [tree.parent[(u, v)] for u in neighbours_in(v, member)]
        # a member has exactly one of {root, parent}; a non-member has neither
        cp.add(sum(incoming) + tree.root[v] == 1).only_enforce_if(member[v])
        cp.add(sum(incoming) + tree.root[v] == 0).only_enforce_if(_neg(member[v]))
    if root == "free":
        cp.add_at_most_one(tree.root.values())
    else:
        seen_before: Lit | None = None  # some earlier cell is a member
        for i, v in enumerate(cells):
            r, m = tree.root[v], member[v]
            if seen_before is None:
                cp.add(r == 1).only_enforce_if(m)  # the first cell roots the tree if in the set
            else:
                # root[v] <-> member[v] and not seen_before
                cp.add_implication(r, _neg(seen_before))
                cp.add_bool_or([r, _neg(m), seen_before])
            if i + 1 < len(cells):
                s = cp.new_bool_var(f"{name}_seen{i}")
                prev = [] if seen_before is None else [seen_before]
                cp.add_max_equality(s, [m, *prev])
                seen_before = s
    return tree


# --- (b) regions grown from a seed cell ---------------------------------------------------------


@dataclass
class Region:
    """A region of ``size`` cells grown from ``seed``; ``own[v]``: v belongs to the region."""

    seed: Cell
    size: int
    own: dict[Cell, Lit]
    tree: Tree


def rooted_region(cp: CpModel, seed: Cell, size: int, candidates: Mapping[Cell, int], *,
                  name: str = "reg", exact_size: bool = True) -> Region:
    """Ownership literals over ``candidates`` (cell -> lower bound on its distance from the
    seed inside the region, e.g. from :func:`bench.grid.bfs_distances`), the seed
    owned, ``size`` cells owned (at most ``size`` when ``exact_size`` is False), and a tree
    rooted at the seed spanning the owned cells: every other owned cell has one owned
    neighbour as parent, one step closer to the seed."""
    own: dict[Cell, Lit] = {}
    tree = Tree()
    for i, v in enumerate(candidates):
        own[v] = cp.new_bool_var(f"{name}_o{i}")
        lo, hi = candidates[v], max(size - 1, 0)
        tree.depth[v] = cp.new_int_var(min(lo, hi), hi, f"{name}_d{i}")
    cp.add(own[seed] == 1)
    cp.add(tree.depth[seed] == 0)
    tree.root[seed] = own[seed]
    total = sum(own.values())
    cp.add(total == size if exact_size else total <= size)
    for v in candidates:
        if v == seed:
            continue
        incoming = []
        for u in neighbours_in(v, candidates):
            if candidates[u] + 1 > size - 1:
                continue  # u is too far out to have children
            a = cp.new_bool_var(f"{name}_p{v[0]}_{v[1]}_{u[0]}_{u[1]}")
            tree.parent[(u, v)] = a
            cp.add_implication(a, own[u])
            cp.add(tree.depth[v] == tree.depth[u] + 1).only_enforce_if(a)
            incoming.append(a)
        # own[v] <-> exactly one parent
        cp.add(sum(incoming) == own[v])
    return Region(seed, size, own, tree)


# --- (c) lazy connectivity cuts ----------------------------------------------------------------


def separate_connectivity(cp: CpModel, member: Mapping[Cell, Lit],
                          in_set: Callable[[Cell], bool], rows: int, cols: int, *,
                          min_size: int) -> int:
    """Add one cut per component when the current set is disconnected; return how many.

    ``member`` maps every cell that can be in the set to its literal (other cells never are);
    ``in_set`` says whether a cell is in the set in the current solution; ``min_size`` is a
    lower bound on the set's size in every solution (see the module docstring).
    """
    chosen = [v for v in member if in_set(v)]
    comps = components(chosen, rows, cols)
    if len(comps) < 2:
        return 0
    for i, comp in enumerate(comps):
        inside = set(comp)
        boundary = sorted({n for v in comp for n in neighbours_in(v, member) if n not in inside})
        clause = [member[b] for b in boundary] + [_neg(member[v]) for v in comp]
        if len(comp) >= min_size:
            other = comps[(i + 1) % len(comps)][0]
            clause.append(_neg(member[other]))
        cp.add_bool_or(clause)
    return len(comps)


def _neg(lit: Lit) -> Lit:
    return lit.Not()

