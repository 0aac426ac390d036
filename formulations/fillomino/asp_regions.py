"""Fillomino in ASP (clingo): regions as reachability through equal numbers, each of its
number's size.

The rules are ``asp_regions.lp`` beside this module: a number per cell from its provable
domain (:func:`bench.puzzles.fillomino.encoding.layout`, given here as ``dom`` facts) and the equal
neighbours. The size rule is the parameter ``size``:

* ``each`` (``region_each.lp``): every cell counts the cells joined to it through equal
  numbers (inductive rules, within its largest possible number of steps), and that count is
  its number; no region is chosen, so nothing is guessed but the numbers.
* ``root`` (``region_root.lp``): a root per region (its first cell in reading order) is
  chosen, each region the cells joined to its root, every cell in exactly one region, and a
  region's size (counted at the root) its number.

Solutions are read and blocked as ``val(R,C,N)`` (:mod:`formulations._asp`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar

from bench.backends.kinds import AspModel
from bench.instance import Instance
from bench.puzzles.fillomino.encoding import layout
from bench.registry import formulation
from formulations._asp import AspFormulation

HERE = Path(__file__).resolve().parent


@formulation
class AspRegions(AspFormulation):
    """a number per cell; each cell's region (the cells joined through equal numbers) counted
    from every cell (each) or from a chosen root per region (root)"""

    name = "asp-regions"
    parameters: ClassVar[dict[str, list[Any]]] = {"size": ["each", "root"]}

    def programs(self) -> list[Path]:
        return [HERE / "asp_regions.lp", HERE / f"region_{self.params['size']}.lp"]

    def facts(self, inst: Instance, model: AspModel) -> None:
        for (r, c), numbers in layout(inst).dom.items():
            for n in numbers:
                model.fact("dom", r, c, n)
