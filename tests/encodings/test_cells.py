"""The solver-free cut logic every kind shares: each cut is violated by the current set and
kept by every connected set (checked over all subsets of a small grid)."""

from __future__ import annotations

import pytest

from bench.encodings.cells import (
    Cut,
    blocks_2x2,
    boundary_in,
    components_in,
    connectivity_cuts,
    pieces_in,
    region_cuts,
)
from bench.grid import all_cells, components
from tests.encodings.brute import connected_subsets, subsets

CELLS = all_cells(3, 3)


def holds(cut: Cut, on: frozenset) -> bool:
    return any(v in on for v in cut.pos) or any(v not in on for v in cut.neg)


def test_components_match_the_grid_helper() -> None:
    for s in subsets(3, 3):
        assert components_in(s) == components(s, 3, 3)


def test_pieces_are_the_components_with_their_boundaries() -> None:
    # the one-pass helper of the lazy loops agrees with the two it replaces, also when the
    # member set has holes and the on-set has cells outside it
    member = set(CELLS) - {(1, 1)}
    for s in subsets(3, 3):
        comps = components_in(v for v in s if v in member)
        assert pieces_in(s, member) == (comps, [boundary_in(c, member) for c in comps])


def test_boundary_and_blocks() -> None:
    assert boundary_in([(1, 1)], CELLS) == [(0, 1), (1, 0), (1, 2), (2, 1)]
    assert boundary_in([(0, 0)], {(0, 0), (0, 1)}) == [(0, 1)]
    assert len(blocks_2x2(3, 3, CELLS)) == 4
    assert blocks_2x2(3, 3, set(CELLS) - {(1, 1)}) == []


@pytest.mark.parametrize(("shape", "kw"), [
    ("component", {}), ("component", {"min_size": 9}), ("pair", {}),
    ("pair", {"pairs": "largest", "anchors": "all"}),
])
def test_cuts_cut_off_exactly_the_disconnected_sets(shape, kw) -> None:
    good = connected_subsets(3, 3)
    for on in subsets(3, 3):
        cuts = connectivity_cuts(CELLS, on, cut=shape, **kw)
        assert (cuts == []) == (on in good)
        assert all(not holds(c, on) for c in cuts)
        # valid: no connected set violates a cut (min_size=9 is only valid for size-9 sets)
        if kw.get("min_size") != 9:
            assert all(holds(c, g) for c in cuts for g in good)


def test_anchor_cuts_keep_every_connected_set_of_the_total_size() -> None:
    good = [g for g in connected_subsets(3, 3) if len(g) == 4]
    for on in (s for s in subsets(3, 3) if len(s) == 4):
        cuts = connectivity_cuts(CELLS, on, cut="anchor", total=4, anchors="all")
        assert bool(cuts) == (len(components_in(on)) > 1)
        assert all(holds(c, g) for c in cuts for g in good)
    with pytest.raises(ValueError, match="total"):
        connectivity_cuts(CELLS, [(0, 0), (2, 2)], cut="anchor")


def test_region_cuts() -> None:
    roots = {(0, 0): 2, (2, 2): 1}
    # a piece without a root, a region too small, a region too large
    assert region_cuts(CELLS, [(0, 0), (1, 1)], roots) == [
        Cut(((0, 1), (1, 0)), ()), Cut(((0, 1), (1, 0), (1, 2), (2, 1)), ((1, 1),))]
    assert region_cuts(CELLS, [(2, 1), (2, 2)], roots) == [Cut((), ((2, 1), (2, 2)))]
    assert region_cuts(CELLS, [(0, 0), (0, 1), (2, 2)], roots) == []
