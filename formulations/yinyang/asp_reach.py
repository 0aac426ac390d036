"""Yin-Yang in ASP (clingo): a colour per cell, no 2x2 block of one colour, each colour
connected.

The rules are ``asp_reach.lp`` beside this module (colour choice, given stones, 2x2 blocks);
each colour's connectivity is a parameter: ``connect=reach`` (``connect_reach.lp``: every cell
of the colour reachable from its first cell in reading order, inductive rules founded by the
solver's unfounded-set check) or ``connect=edge`` (``connect_edge.lp``: each cell but the first
chooses a neighbour of its colour as parent, the parent edges acyclic by clingo's ``#edge``
directive). A colour with no cell has no root and nothing to reach, so a one-colour grid is judged
like any other, as the rules say. The implied rules of :mod:`formulations.yinyang._rules` (no
2x2 checkerboard, at most two colour changes round the border) are the parameter ``implied``,
with the values the other Yin-Yang formulations take. Solutions are read and blocked as
``val(R,C,b|w)`` (:mod:`formulations._asp`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar

from bench.backends.kinds import AspModel
from bench.instance import Instance
from bench.registry import formulation
from formulations._asp import SHARED, AspFormulation
from formulations.yinyang._rules import IMPLIED, ring_pairs, uses

HERE = Path(__file__).resolve().parent


@formulation
class AspReach(AspFormulation):
    """colour choice and 2x2 rule; each colour connected by reachability or #edge; implied
    rules as in the other Yin-Yang formulations"""

    name = "asp-reach"
    parameters: ClassVar[dict[str, list[Any]]] = {"connect": ["reach", "edge"],
                                                  "implied": IMPLIED}

    def programs(self) -> list[Path]:
        return [HERE / "asp_reach.lp", SHARED / f"connect_{self.params['connect']}.lp"]

    def facts(self, inst: Instance, model: AspModel) -> None:
        for r, c, v in inst.clues():
            model.fact("given", r, c, str(v))
        for rule in ("checker", "border"):
            if uses(self.params["implied"], rule):
                model.fact("implied", rule)
        for (r, c), (r2, c2) in ring_pairs(inst, self.params["implied"]):
            model.fact("ring", r, c, r2, c2)
