"""Nurikabe as SAT with connectivity reasoned inside the solver: the rules a CNF states
locally as clauses, the wall's connectivity and the islands' reachability as an IPASIR-UP
propagator connected to CaDiCaL 1.9.5 or 3.0 (:mod:`formulations.nurikabe._propagator`).

The CNF, one "black" variable per cell (the rules: :mod:`formulations.nurikabe._islands`):
clue cells white, cells no clue reaches black, no 2x2 block all black, an island per clue as
ownership literals over the clue's reach with exactly its size owned (counted ring by ring,
:func:`bench.encodings.sat.region` with ``"rings"``), every white cell owned by one island and
adjacent white cells sharing theirs (:func:`bench.encodings.sat.assign`); redundantly, no wall
piece of 1..``enclose`` cells is enclosed (as :mod:`formulations.nurikabe.sat_hybrid`).

What no clause states, the propagator reasons about during the search and checks on every
complete assignment (the reasoning, its reasons and sources: the module docstring of
:mod:`formulations.nurikabe._propagator`):

* the wall stays connected: black cells in two components of the not-white cells conflict,
  a component too small for the wall cannot hold it, cells outside the wall's component are
  white, and a component exactly the wall's size is all black;
* ``cut=true`` (default): articulation -- an undecided cell whose loss would cut a black cell
  off the rest of the wall is black (``cut=false`` leaves it to the search);
  ``cut=incremental``: the same, and a cell turning black behind an open cut cell of the last
  articulation search makes that cell black at once, without a new search
  (:mod:`formulations.nurikabe._cutstep`);
* ``root=reported`` (default): a literal the propagator hands CaDiCaL at the root counts as
  assigned once CaDiCaL reports it (CaDiCaL 1.9.5 does not always: it stays open to the
  propagator); ``root=handed`` records it as fixed when handed over (the propagator then sees
  every root consequence, and searches for articulation cells more often);
* ``islands=propagate`` (default): an island grows only from its clue, within ``size - 1``
  steps through cells not refused to it (refused: owned by another island or black); an island
  that reached its size closes (its neighbours are black). ``islands=layers``: the islands
  are joined in the CNF instead, by layered reachability
  (:func:`bench.encodings.sat.layer_regions`), and the propagator keeps the wall and the
  closing.

Exact: every clause of the CNF and every reason and clause of the propagator holds in every
solution, and a complete assignment passes the propagator's check only if its wall is one
component and every white component holds a clue, which with the CNF's island sizes is a
solution. Only a solver with python-sat's IPASIR-UP interface runs it (``solvers``); counting
blocks solutions with plain clauses (the propagator stays connected). The propagator's effort
(callbacks, seconds in Python, inferences, reasons, clauses) is reported in the solve's effort
beside the solver's counters (``propagator_*``).
"""

from __future__ import annotations

import time
from typing import Any, ClassVar

from bench.encodings.cells import neighbours_in
from bench.encodings.sat import assign, layer_regions, region
from bench.instance import Instance
from bench.models import SatModel
from bench.registry import formulation
from formulations.nurikabe._islands import SatBlackCells, layout
from formulations.nurikabe._sat import colour_cells
from formulations.nurikabe.sat_hybrid import polyominoes


@formulation
class SatPropagate(SatBlackCells):
    name = "sat-propagate"
    description = ("clue ownership and island sizes as clauses; wall connectivity, island "
                   "reachability and closing as an IPASIR-UP propagator in CaDiCaL")
    parameters: ClassVar[dict[str, list[Any]]] = {
        "islands": ["propagate", "layers"],
        "enclose": [3, 0],
        "cut": ["true", "false", "incremental"],
        "root": ["reported", "handed"],
    }
    sweep: ClassVar[dict[str, list[Any]] | None] = {"islands": ["propagate", "layers"]}
    #: python-sat's IPASIR-UP solvers this was checked on (CaDiCaL 1.9.5's final model check
    #: can loop on large instances, which ends the solve as an error: the module docstring of
    #: formulations.nurikabe._propagator)
    solvers: ClassVar[tuple[str, ...]] = ("cadical195", "cadical300")

    def setup(self) -> float:
        """Import the propagator and load (on a cold cache, compile) its compiled searches
        (:func:`formulations.nurikabe._compiled.warm`) before the time limit starts; the
        seconds it took."""
        t0 = time.perf_counter()
        from formulations.nurikabe import _propagator  # noqa: F401  (numba and the searches)
        from formulations.nurikabe._compiled import warm

        warm()
        return time.perf_counter() - t0

    def build(self, inst: Instance) -> SatModel:
        from formulations.nurikabe._islandreach import IslandVars
        from formulations.nurikabe._propagator import NurikabePropagator

        m = SatModel()
        lay = layout(inst)
        black, white, wall = colour_cells(m, lay, neighbour=True)
        regions = [region(m, i.root, i.size, i.reach, encoding="rings", name=f"isl{k}")
                   for k, i in enumerate(lay.islands)]
        assign(m, white, regions)
        if self.params["islands"] == "layers":
            layer_regions(m, regions)
        largest = min(int(self.params["enclose"]), lay.blacks - 1)
        if largest >= 1:
            for piece in polyominoes(wall, largest):
                border = {n for v in piece for n in neighbours_in(v, wall) if n not in piece}
                m.add([*(-black[v] for v in piece), *(black[n] for n in border)])

        def index(v: tuple[int, int]) -> int:
            return v[0] * lay.cols + v[1]

        islands = [IslandVars(index(r.root), r.size, {index(v): x for v, x in r.own.items()})
                   for r in regions if r.size > 1]
        m.propagator = NurikabePropagator(
            lay.rows, lay.cols, [black[v] for v in lay.cells],
            islands, [index(i.root) for i in lay.islands], lay.blacks,
            reach=self.params["islands"] == "propagate", cut=self.params["cut"] != "false",
            root=self.params["root"] == "handed", step=self.params["cut"] == "incremental")
        m.handles.update(black=black, wall=wall, blacks=lay.blacks, regions=regions)
        return m
