"""Region trees in CP-SAT, shared by ``cpsat-tree`` (every cell) and ``cpsat-placements`` (the
cells that may hold a number above its placement sizes).

Given per cell a number variable and per edge a literal ``s`` "same region":

* roots and ids: ``rid[v] <= v`` (cells numbered in reading order) is equal along ``s`` edges,
  and ``root[v] <=> rid[v] == v``: every region has exactly one root, its first cell;
* parent pointers: a non-root cell points to one neighbour of its region; the subtree size
  ``sz[v] = 1 + sum of the children's sz`` (which also rules out cycles: sizes grow towards the
  root), and ``sz[root] = number[root]``. Every cell of a region reaches its root (the only root
  of its id), so the root's tree is the whole region and the region has exactly that many cells.

A cell whose ``active`` literal is false takes no part: it has no ``s`` edge on (the caller's
clauses see to it), so it is a root of one cell whose size is not tied to its number.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bench.grid import Cell

Edge = tuple[Cell, Cell]


def region_trees(cp: Any, cells: list[Cell], number: Mapping[Cell, Any], top: Mapping[Cell, int],
                 same: Mapping[Edge, Any], active: Mapping[Cell, Any] | None = None) -> None:
    """Each component of ``same`` edges over ``cells`` is a tree of ``number[root]`` cells;
    ``top[v]`` bounds v's number (its subtree's size); ``same`` holds both orders of an edge."""
    idx = {v: i for i, v in enumerate(sorted(cells))}
    rid = {v: cp.new_int_var(0, idx[v], f"r{idx[v]}") for v in cells}
    root = {v: cp.new_bool_var(f"o{idx[v]}") for v in cells}
    for v in cells:
        cp.add(rid[v] == idx[v]).only_enforce_if(root[v])
        cp.add(rid[v] < idx[v]).only_enforce_if(root[v].Not())
    for (u, w), s in same.items():
        if u < w:
            cp.add(rid[u] == rid[w]).only_enforce_if(s)
    sz = {v: cp.new_int_var(1, top[v], f"z{idx[v]}") for v in cells}
    parent: dict[Edge, Any] = {}  # (child, parent)
    for (u, w), s in same.items():
        p = cp.new_bool_var(f"p{idx[u]}_{idx[w]}")
        cp.add_implication(p, s)
        parent[u, w] = p
    children: dict[Cell, list[Any]] = {v: [] for v in cells}
    pointers: dict[Cell, list[Any]] = {v: [] for v in cells}
    for (u, w), p in parent.items():
        c = cp.new_int_var(0, top[u], f"c{idx[u]}_{idx[w]}")
        cp.add(c == sz[u]).only_enforce_if(p)
        cp.add(c == 0).only_enforce_if(p.Not())
        children[w].append(c)
        pointers[u].append(p)
    for v in cells:
        cp.add_exactly_one([root[v], *pointers[v]])
        cp.add(sz[v] == 1 + sum(children[v]))
        if active is None:
            cp.add(sz[v] <= number[v])
            cp.add(sz[v] == number[v]).only_enforce_if(root[v])
        else:
            cp.add(sz[v] == number[v]).only_enforce_if([root[v], active[v]])
