"""The SAT encodings on tiny grids: solutions counted by enumeration (projected onto the cell
literals) equal the brute-force counts."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from pysat.solvers import Solver

from bench.encodings import sat
from bench.grid import Cell, all_cells, bfs_distances
from bench.models import SatModel
from tests.encodings.brute import connected_subsets, no_pool_subsets, subsets

Separate = Callable[[SatModel, dict[Cell, int], Callable[[Cell], bool]], int]


def solutions(rows: int, cols: int, post: Callable[[SatModel, dict[Cell, int]], Any],
              separate: Separate | None = None) -> set[frozenset[Cell]]:
    """Every on-set of the model ``post`` builds over one literal per cell (lazy: cut until
    ``separate`` adds nothing, then record and block)."""
    m = SatModel()
    member = {v: m.var(v) for v in all_cells(rows, cols)}
    post(m, member)
    found: set[frozenset[Cell]] = set()
    with Solver(name="cadical195") as s:
        fed = 0
        while True:
            s.append_formula(m.clauses[fed:])
            fed = len(m.clauses)
            if not s.solve():
                return found
            model = set(s.get_model())
            on = frozenset(v for v, x in member.items() if x in model)
            if separate is not None and separate(m, member, lambda v, on=on: v in on):
                continue
            assert on not in found
            found.add(on)
            m.add([-x if v in on else x for v, x in member.items()])


@pytest.mark.parametrize("root", ["first", "free", None])
def test_connected_distance_counts_connected_sets(root) -> None:
    got = solutions(3, 3, lambda m, x: sat.connected(m, x, method="distance", root=root))
    assert got == connected_subsets(3, 3)


def test_connected_at_a_root_cell_and_bounded_size() -> None:
    def post(m: SatModel, x: dict[Cell, int]) -> None:
        m.add([x[1, 1]])
        sat.at_most(m, list(x.values()), 4)  # max_size is an assumption, not a constraint
        sat.connected(m, x, method="distance", root=(1, 1), max_size=4)

    assert solutions(3, 3, post) == connected_subsets(3, 3, containing=(1, 1), max_size=4)


@pytest.mark.parametrize(("cut", "kw"), [("component", {}), ("pair", {}),
                                         ("pair", {"pairs": "largest", "anchors": "all"})])
def test_lazy_connected_counts_connected_sets(cut, kw) -> None:
    got = solutions(3, 3, lambda m, x: sat.connected(m, x, method="lazy"),
                    lambda m, x, on: sat.separate_connected(m, x, on, cut=cut, **kw))
    assert got == connected_subsets(3, 3)


def test_lazy_anchor_cuts_with_a_known_total() -> None:
    got = solutions(3, 3, lambda m, x: sat.exactly(m, list(x.values()), 4),
                    lambda m, x, on: sat.separate_connected(m, x, on, cut="anchor", total=4))
    assert got == {s for s in connected_subsets(3, 3) if len(s) == 4}


def test_all_anchor_cuts_share_the_boundary_and_count_the_same() -> None:
    """anchors="all" gives one cut per cell of a piece, each with the piece's whole boundary;
    add_cuts states the boundary once through a fresh literal. The solutions projected onto
    the cells are still exactly the connected sets of the size."""
    made: list[int] = []

    def separate(m: SatModel, x: dict[Cell, int], on: Callable[[Cell], bool]) -> int:
        before = m.nvars
        added = sat.separate_connected(m, x, on, cut="anchor", total=6, anchors="all")
        made.append(m.nvars - before)
        return added

    got = solutions(3, 4, lambda m, x: sat.exactly(m, list(x.values()), 6), separate)
    assert got == {s for s in connected_subsets(3, 4) if len(s) == 6}
    assert sum(made) > 0  # the shared form was used


def test_add_cuts_shares_one_pos_tuple_between_cuts() -> None:
    from bench.encodings.cells import Cut

    m = SatModel()
    x = {v: m.var(v) for v in all_cells(2, 3)}
    sep = ((0, 1), (0, 2), (1, 1), (1, 2))
    assert sat.add_cuts(m, x, [Cut(sep, ((0, 0),)), Cut(sep, ((1, 0),))]) == 2
    a = m.nvars
    assert m.clauses == [[-a, *(x[v] for v in sep)], [-x[0, 0], a], [-x[1, 0], a]]
    plain = SatModel()
    y = {v: plain.var(v) for v in all_cells(2, 3)}
    sat.add_cuts(plain, y, [Cut(sep, ((0, 0),)), Cut(tuple(sep[:3]) + sep[3:], ((1, 0),))])
    assert plain.clauses == [[-y[0, 0], *(y[v] for v in sep)], [-y[1, 0], *(y[v] for v in sep)]]


def test_no_2x2() -> None:
    assert solutions(2, 3, lambda m, x: sat.no_2x2(m, x, 2, 3)) == no_pool_subsets(2, 3)


@pytest.mark.parametrize("encoding", [None, "seqcounter", "totalizer", "cardnetwrk"])
def test_cardinality(encoding) -> None:
    exact = solutions(1, 5, lambda m, x: sat.exactly(m, list(x.values()), 2, encoding))
    most = solutions(1, 5, lambda m, x: sat.at_most(m, list(x.values()), 2, encoding))
    assert (len(exact), len(most)) == (10, 16)
    assert all(len(s) == 2 for s in exact)


@pytest.mark.parametrize("bound", range(-1, 8))
def test_exactly_in_groups(bound) -> None:
    """Group by group (an empty group, groups larger than the bound: the capped counts) the
    same subsets as any exactly-``bound``."""
    def post(m: SatModel, x: dict[Cell, int]) -> None:
        lit = [x[0, c] for c in range(6)]
        sat.exactly_in_groups(m, [[lit[0]], lit[1:4], [], lit[4:]], bound)

    got = solutions(1, 6, post)
    assert got == {s for s in subsets(1, 6) if len(s) == bound}


def region_post(join: str, encoding: str | None = None, root: Cell = (1, 1),
                reach: dict[Cell, int] | None = None
                ) -> Callable[[SatModel, dict[Cell, int]], Any]:
    """A region of size 3 at ``root`` over ``reach`` (default: 2 steps in a 3x3), joined by
    ``join``."""
    def post(m: SatModel, x: dict[Cell, int]) -> None:
        reg = sat.region(m, root, 3, reach or bfs_distances([root], 3, 3, limit=2),
                         encoding=encoding)
        sat.assign(m, x, [reg])
        if join == "distances":
            sat.connect_regions(m, x, [reg])
        elif join == "layers":
            sat.layer_regions(m, [reg])
        m.handles["regions"] = [reg]
    return post


def separate_post_regions(m: SatModel, x: dict[Cell, int], on: Callable[[Cell], bool]) -> int:
    """The lazy join of the regions :func:`region_post` built."""
    return sat.separate_regions(m, x, on, m.handles["regions"])


@pytest.mark.parametrize(("join", "encoding"), [("distances", None), ("layers", None),
                                               ("lazy", None), ("layers", "rings"),
                                               ("lazy", "rings")])
def test_region_of_size_three_at_the_centre(join, encoding) -> None:
    got = solutions(3, 3, region_post(join, encoding),
                    separate_post_regions if join == "lazy" else None)
    want = {s for s in connected_subsets(3, 3, containing=(1, 1)) if len(s) == 3}
    assert got == want and len(want) == 14


@pytest.mark.parametrize("join", ["layers", "lazy"])
@pytest.mark.parametrize(("rows", "cols", "distances"), [
    (3, 3, None),  # BFS distances from the corner: each ring needs the one before it
    # lower bounds only ((0, 1) is 1 step away, (1, 2) 3): a path may skip ring 1, so no
    # ring-order clauses, and {(0, 0), (0, 1), (0, 2)} stays a region
    (2, 3, {(0, 0): 0, (0, 1): 0, (0, 2): 2, (1, 0): 1, (1, 1): 1, (1, 2): 2}),
])
def test_region_counted_in_rings_from_a_corner(join, rows, cols, distances) -> None:
    reach = distances or bfs_distances([(0, 0)], rows, cols)
    got = solutions(rows, cols, region_post(join, "rings", (0, 0), reach),
                    separate_post_regions if join == "lazy" else None)
    want = {s for s in connected_subsets(rows, cols, containing=(0, 0)) if len(s) == 3}
    assert got == want


def test_unsupported_methods_say_so() -> None:
    m = SatModel()
    x = {v: m.var(v) for v in all_cells(2, 2)}
    with pytest.raises(ValueError, match="method"):
        sat.connected(m, x, method="flow")
    with pytest.raises(ValueError, match="root"):
        sat.connected(m, x, root=(5, 5))
    with pytest.raises(ValueError, match="method"):
        sat.region(m, (0, 0), 2, {(0, 0): 0}, method="tree")
