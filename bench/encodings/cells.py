"""Solver-free logic shared by the three encoding libraries (:mod:`.sat`, :mod:`.cpsat`,
:mod:`.mip`): cell sets given as the keys of a mapping, and the lazy cuts as kind-neutral
records that each library turns into a clause, a ``bool_or`` or a linear row.

A cell set is the key set of ``member`` (cell -> the kind's "cell is on" literal/expression);
cells missing from it are never on, so no grid bounds are needed. Adjacency is the orthogonal
4-neighbourhood, in the order up, down, left, right (as :func:`bench.grid.neighbours`), and
components come in the order of :func:`bench.grid.components` (by first cell in reading order,
cells in BFS order), so the cuts are deterministic.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, NamedTuple

from bench.grid import Cell, pieces

CutShape = Literal["component", "anchor", "pair"]


def neighbours_in(cell: Cell, cells: Collection[Cell] | Mapping[Cell, Any]) -> list[Cell]:
    """The 4-neighbours of ``cell`` that are in ``cells`` (a set or the keys of a mapping)."""
    r, c = cell
    return [n for n in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)) if n in cells]


def components_in(on: Iterable[Cell]) -> list[list[Cell]]:
    """The 4-connected components of ``on`` (:func:`bench.grid.components` without grid
    bounds: only cells of ``on`` are visited), ordered by first cell in reading order."""
    return pieces(on, ())[0]


def boundary_in(component: Collection[Cell], cells: Collection[Cell] | Mapping[Cell, Any]
                ) -> list[Cell]:
    """The cells of ``cells`` outside ``component`` and 4-adjacent to it, in reading order."""
    inside = set(component)
    return sorted({n for v in component for n in neighbours_in(v, cells) if n not in inside})


def pieces_in(on: Iterable[Cell], cells: Collection[Cell] | Mapping[Cell, Any]
              ) -> tuple[list[list[Cell]], list[list[Cell]]]:
    """The 4-connected components of the cells of ``on`` that are in ``cells`` (as
    :func:`components_in`) and each one's :func:`boundary_in` inside ``cells``, in one pass
    (:func:`bench.grid.pieces`): the lazy loops call this on every round."""
    return pieces([v for v in on if v in cells], cells)


def blocks_2x2(rows: int, cols: int, cells: Collection[Cell] | Mapping[Cell, Any]
               ) -> list[tuple[Cell, Cell, Cell, Cell]]:
    """Every 2x2 block of the grid whose four cells are all in ``cells``, in reading order."""
    out = []
    for r in range(rows - 1):
        for c in range(cols - 1):
            a, b, d, e = (r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1)
            if a in cells and b in cells and d in cells and e in cells:
                out.append((a, b, d, e))
    return out


def native_only(kind: str, encoding: str | int | None) -> None:
    """CP-SAT and MIP state cardinality natively: ``encoding`` must be None or "native"."""
    if encoding not in (None, "native"):
        raise ValueError(f"{kind} cardinality is native; encoding {encoding!r} is not supported")


class Cut(NamedTuple):
    """"Some ``pos`` cell is on, or some ``neg`` cell is off": a clause over cell literals.

    SAT writes it as ``[-x for neg] + [x for pos]``, CP-SAT as a ``bool_or``, MIP as
    ``sum(pos) + sum(1 - x for neg) >= 1``. A named tuple: the all-anchor cuts make one per
    wall cell per lazy round, and a frozen dataclass took 4 times as long to create."""

    pos: tuple[Cell, ...]
    neg: tuple[Cell, ...]


@dataclass
class Region:
    """A region of ``size`` cells grown from ``root`` (the same record in every kind):
    ``own[v]`` is the kind's literal/expression "v belongs to the region", over the
    ``candidates`` (cell -> lower bound on its distance from the root inside the region);
    ``extra`` holds the kind's connectivity handles (tree, flow), if any."""

    root: Cell
    size: int
    own: dict[Cell, Any]
    candidates: Mapping[Cell, int]
    extra: Any = field(default=None)


def connectivity_cuts(
    member: Collection[Cell] | Mapping[Cell, Any],
    on: Iterable[Cell],
    *,
    cut: CutShape = "component",
    total: int | None = None,
    min_size: int | None = None,
    anchors: Literal["one", "all"] = "one",
    pairs: Literal["largest", "all"] = "all",
) -> list[Cut]:
    """Cuts excluding the current on-set ``on`` when it is disconnected; ``[]`` when it is
    connected or empty. Every cut is violated now and holds in every solution in which the
    on-set is connected, under the shape's assumption. N(C) is C's boundary inside ``member``.

    * ``"component"`` (needs ``min_size``, a lower bound on the set's size in every solution;
      default 1): per component C, "some cell of N(C) is on or not all of C is on" -- C is not
      an isolated component, valid while C cannot be the whole set; when ``|C| >= min_size`` it
      may be, so "or the first cell of another component is off" joins the cut.
    * ``"anchor"`` (needs ``total``, the exact set size): per component C with ``|C| < total``
      and per anchor c of C (its first cell, or each with ``anchors="all"``), "c is off or some
      cell of N(C) is on": c's component would lie inside C, too small. Strongest of the three.
    * ``"pair"`` (no size needed): per component C, per other component D (each, or only the
      largest other with ``pairs="largest"``) and per anchor c, "c is off, or D's first cell is
      off, or some cell of N(C) is on".
    """
    comps, boundaries = pieces_in(on, member)
    if len(comps) < 2:
        return []
    seps = [tuple(sep) for sep in boundaries]
    out: list[Cut] = []
    if cut == "anchor":
        if total is None:
            raise ValueError("cut='anchor' needs total")
        for comp, sep in zip(comps, seps, strict=True):
            if len(comp) < total:
                out += [Cut(sep, (c,)) for c in (comp if anchors == "all" else comp[:1])]
        return out
    if cut == "component":
        low = 1 if min_size is None else min_size
        for i, comp in enumerate(comps):
            other = (comps[(i + 1) % len(comps)][0],) if len(comp) >= low else ()
            out.append(Cut(seps[i], (*comp, *other)))
        return out
    if cut != "pair":
        raise ValueError(f"cut must be 'component', 'anchor' or 'pair', not {cut!r}")
    largest = sorted(range(len(comps)), key=lambda i: -len(comps[i]))
    for i, comp in enumerate(comps):
        if pairs == "all":
            others = [j for j in range(len(comps)) if j != i]
        else:
            others = [largest[0] if largest[0] != i else largest[1]]
        for j in others:
            out += [Cut(seps[i], (c, comps[j][0]))
                    for c in (comp if anchors == "all" else comp[:1])]
    return out


def region_cuts(member: Collection[Cell] | Mapping[Cell, Any], on: Iterable[Cell],
                roots: Mapping[Cell, int]) -> list[Cut]:
    """Cuts for regions of given sizes grown from their roots (``roots``: root cell -> size),
    when each maximal on-component must be exactly one root's region: per component C of the
    current on-set that breaks this, with N(C) its boundary inside ``member``,

    * no root in C: "C's first cell is off or some cell of N(C) is on" (it must join a root);
    * a root whose region is too small: "some cell of N(C) is on" (the root is always on);
    * two roots, or too many cells: "not all of C is on".

    Regions of unknown size (Fillomino) would pass the size as a literal-valued bound and
    need the count in the model; not built here.
    """
    out: list[Cut] = []
    for comp in components_in(v for v in on if v in member):
        inside = [v for v in comp if v in roots]
        if not inside:
            out.append(Cut(tuple(boundary_in(comp, member)), (comp[0],)))
        elif len(inside) > 1 or len(comp) > roots[inside[0]]:
            out.append(Cut((), tuple(comp)))
        elif len(comp) < roots[inside[0]]:
            out.append(Cut(tuple(boundary_in(comp, member)), ()))
    return out


def fixed_anchor_cuts(member: Collection[Cell] | Mapping[Cell, Any], on: Iterable[Cell],
                      fixed: Collection[Cell]) -> list[Cut]:
    """Strong cuts for a set whose size is unknown but which holds the cells ``fixed`` in every
    solution (Yin-Yang's given stones of one colour), excluding the current on-set ``on`` when
    it is disconnected; ``[]`` when it is connected or empty.

    The main component M is the one holding the most fixed cells (ties: the larger, then the
    first). Per other component C, with N(C) its boundary inside ``member``, a whole boundary
    at once for every cell of C:

    * a fixed cell lies outside C: per cell c of C, "c is off or some cell of N(C) is on" --
      c and that fixed cell are both on, so a path joins them and leaves C through N(C);
    * no fixed cell outside C: per cell c of C, "c is off, or M's first cell is off, or some
      cell of N(C) is on" (the pair cut with every cell of C as anchor).

    Each cut is violated now (C's cells are on, its boundary is off) and holds in every
    solution in which the on-set is connected.
    """
    comps, seps = pieces_in(on, member)
    if len(comps) < 2:
        return []
    fix = set(fixed)
    held = [sum(1 for v in comp if v in fix) for comp in comps]
    main = max(range(len(comps)), key=lambda i: (held[i], len(comps[i]), -i))
    out: list[Cut] = []
    for i, comp in enumerate(comps):
        if i == main:
            continue
        sep = tuple(seps[i])
        outside = len(fix) > held[i]
        out += [Cut(sep, (c,) if outside else (c, comps[main][0])) for c in comp]
    return out


def border_ring(rows: int, cols: int) -> list[Cell]:
    """The border cells of a ``rows x cols`` grid (both at least 2) in cyclic order, clockwise
    from the top-left corner."""
    top = [(0, c) for c in range(cols)]
    right = [(r, cols - 1) for r in range(1, rows)]
    bottom = [(rows - 1, c) for c in range(cols - 2, -1, -1)]
    left = [(r, 0) for r in range(rows - 2, 0, -1)]
    return top + right + bottom + left
