"""sat-hybrid (islands by layered reachability or owner-bounded distances, lazy all-anchor
wall cuts): its pieces, and that it solves a hard sparse 14x14 with a 30-island that defeats
the lazy-island variants.

Exactness on tiny random grids and the seeds, for every variant, is in test_nurikabe_sat.py
(it picks up every SAT formulation)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from bench.instance import read_instance
from bench.models import SatModel
from bench.records import Task
from bench.registry import get_formulation
from bench.run.execute import execute
from formulations.nurikabe.sat_hybrid import polyominoes

#: a sparse 14x14 with islands of 30, 22 and 10 cells (an intermediate of the generator, not
#: unique): sat-lazy does not solve it in 30 s
HARD_14 = """puzzle: nurikabe
source: generator intermediate (several solutions)

. . . . . . . . . . . . 5 .
. . . . . . . . . . . . . .
. . . . . . . . . . . . . .
. . . . 22 . . . . . 7 . . .
. . . . . . . . . . . . . .
. . . . . . . 2 . . 1 . . .
. . . . . . . . . . . . . .
. . . . . . . . . . . . . .
. 30 . . . . . . . . . . . .
. . . . . . 1 . . . 1 . . .
. . . . . . . . . . . . . 8
. . . . . . . 10 . . 1 . . .
. . . . . . . . . . . . 1 .
. . . . . . . . . . . 6 . .
"""


def test_polyominoes_of_a_3x3() -> None:
    cells = [(r, c) for r in range(3) for c in range(3)]
    sizes = [len(p) for p in polyominoes(cells, 3)]
    # 9 monominoes, 12 dominoes, 6 straight and 16 L trominoes
    assert (sizes.count(1), sizes.count(2), sizes.count(3)) == (9, 12, 22)
    assert len(set(polyominoes(cells, 3))) == len(sizes)


def test_owner_bounds_shrink_nothing_a_solution_needs(tmp_path: Path) -> None:
    """A 1x5 row with a 5 at one end: the island is the whole row, its far end at distance 4
    = size - 1 (the owner bound is tight, not too tight)."""
    path = tmp_path / "row.txt"
    path.write_text("puzzle: nurikabe\n\n5 . . . .\n")
    res = execute(Task(str(path), "sat-hybrid", "cadical195", time_limit=30))
    assert res.status == "solved" and res.checked, res.message


@pytest.mark.parametrize(("islands", "card"), [("layers", "auto"), ("owner", "auto"),
                                              ("owner", "rings")])
def test_layered_islands_see_an_enclosed_island_by_propagation(islands: str, card: str) -> None:
    """A 5 in the middle of a 5x5 with its four neighbours black cannot grow: with the
    layered reachability unit propagation alone finds the conflict (no cell beyond the
    black ones is joined, so none is owned and the size count fails); the distance labels of
    islands=owner leave it to search, unless the size is counted in rings in order (ring 1
    empty, so every later ring is, and ring 0 holds 1 cell of 5)."""
    from pysat.solvers import Solver

    from bench.instance import parse_instance

    inst = parse_instance("puzzle: nurikabe\n\n" + ". . . . .\n" * 2 + ". . 5 . .\n"
                          + ". . . . .\n" * 2)
    model = get_formulation("nurikabe", f"sat-hybrid[islands={islands},card={card}]").build(inst)
    assert isinstance(model, SatModel)
    black = model.handles["black"]
    with Solver(name="glucose4", bootstrap_with=model.clauses) as solver:
        consistent, _ = solver.propagate(assumptions=[black[v] for v in
                                                      ((1, 2), (3, 2), (2, 1), (2, 3))])
    assert consistent is (islands == "owner" and card == "auto")


def test_enclose_adds_the_small_piece_clauses() -> None:
    inst = read_instance(Path(__file__).resolve().parents[2] / "instances" / "nurikabe"
                         / "seed-p01.txt")
    sizes = {}
    for enclose in (0, 3):
        model = get_formulation("nurikabe", f"sat-hybrid[enclose={enclose}]").build(inst)
        assert isinstance(model, SatModel)
        sizes[enclose] = len(model.clauses)
    assert sizes[3] > sizes[0]


@pytest.mark.slow
def test_solves_the_hard_sparse_14x14(tmp_path: Path) -> None:
    path = tmp_path / "hard14.txt"
    path.write_text(HARD_14)
    res = execute(Task(str(path), "sat-hybrid", "cadical195", time_limit=120))
    assert res.status == "solved" and res.checked, res.message


def test_auto_wall_takes_the_tree_on_small_grids_only() -> None:
    """wall=auto: the eager tree while (wall cells) x (black cells) fits the budget (the
    10x10 real puzzles), the lazy cuts above it (the 24x14 real puzzles)."""
    from formulations.nurikabe._islands import layout
    from formulations.nurikabe.sat_hybrid import SatHybrid

    form = get_formulation("nurikabe", "sat-hybrid")
    assert isinstance(form, SatHybrid) and form.params["wall"] == "auto"
    folder = Path(__file__).resolve().parents[2] / "instances" / "nurikabe"
    small = [layout(read_instance(p)) for p in sorted(folder.glob("nurikabe-10x10-*.txt"))]
    large = [layout(read_instance(p)) for p in sorted(folder.glob("nurikabe-24x14-*.txt"))]
    assert small and large
    assert {form.wall_method(lay) for lay in small} == {"tree"}
    assert {form.wall_method(lay) for lay in large} == {"cut"}


def test_card_picks_the_island_size_encoding() -> None:
    """``card`` reaches the islands' exactly-size constraints: the k-modulo totalizer needs
    fewer auxiliary variables than the sequential counter on a puzzle with a big island
    (size x reach counter cells), ``auto`` takes it for the big island only, the rings (the
    default: a totalizer per distance ring, capped at the size) fewer still, and every model
    gives the same solution."""
    from bench.backends import get_backend
    from bench.solve import solve

    inst = read_instance(Path(__file__).resolve().parents[2] / "instances" / "nurikabe"
                         / "big" / "gen-nurikabe-20x20-s2-big1-0.txt")
    grids, sizes = [], {}
    for card in ("seqcounter", "kmtotalizer", "auto", "rings"):
        form = get_formulation("nurikabe", f"sat-hybrid[card={card}]")
        sizes[card] = form.build(inst).size()["variables"]
        res = solve(inst, form, get_backend("cadical195"), time.perf_counter() + 60)
        assert res.status == "solved", res.problems
        grids.append(res.grid)
    assert sizes["rings"] < sizes["kmtotalizer"] < sizes["auto"] < sizes["seqcounter"], sizes
    assert grids[0] == grids[1] == grids[2] == grids[3]
    assert get_formulation("nurikabe", "sat-hybrid").params["card"] == "rings"


def test_auto_card_is_the_counter_below_big_islands() -> None:
    """Below :attr:`SatHybrid.big_island` cells ``card=auto`` is the sequential counter: on a
    sparse 30x30 the same clauses as ``card=seqcounter``."""
    from formulations.nurikabe.sat_hybrid import SatHybrid

    form = get_formulation("nurikabe", "sat-hybrid[card=auto]")
    assert isinstance(form, SatHybrid)
    big = SatHybrid.big_island
    assert (form.card_encoding(big - 1), form.card_encoding(big)) == ("seqcounter", "kmtotalizer")
    inst = read_instance(Path(__file__).resolve().parents[2] / "instances" / "nurikabe"
                         / "sparse" / "gen-nurikabe-30x30-s1-0.txt")
    assert max(int(v) for _, _, v in inst.clues()) < SatHybrid.big_island
    auto, counter = (get_formulation("nurikabe", f"sat-hybrid[card={c}]").build(inst)
                     for c in ("auto", "seqcounter"))
    assert isinstance(auto, SatModel) and isinstance(counter, SatModel)
    assert auto.clauses == counter.clauses
