"""Fillomino in ASP (clingo): regions as reachability from a root, each of its number's size.

The rules are ``asp_regions.lp`` beside this module: a number per cell from its provable
domain (:func:`bench.encodings.fillomino.layout`, given here as ``dom`` facts), a root per
region (its first cell in reading order), each region the cells joined to its root through
equal numbers (inductive rules, closed under equal neighbours), every cell in exactly one
region, and a region's size its number. Solutions are read and blocked as ``val(R,C,N)``
(:mod:`formulations._asp`).
"""

from __future__ import annotations

from pathlib import Path

from bench.backends.kinds import AspModel
from bench.encodings.fillomino import layout
from bench.instance import Instance
from bench.registry import formulation
from formulations._asp import AspFormulation

HERE = Path(__file__).resolve().parent


@formulation
class AspRegions(AspFormulation):
    """a number per cell, regions reachable from their first cell, sizes counted"""

    name = "asp-regions"

    def programs(self) -> list[Path]:
        return [HERE / "asp_regions.lp"]

    def facts(self, inst: Instance, model: AspModel) -> None:
        for (r, c), numbers in layout(inst).dom.items():
            for n in numbers:
                model.fact("dom", r, c, n)
