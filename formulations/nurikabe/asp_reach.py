"""Nurikabe in ASP (clingo): islands as reachability from their clue, the wall connected.

The rules are ``asp_reach.lp`` beside this module: a black choice per clue-less cell, no 2x2
black block, each clue's island the white cells reachable from it (inductive rules, closed
under white neighbours, within ``N - 1`` steps of a clue ``N``), every white cell in exactly
one island of the clue's size. The wall's connectivity is a parameter: ``wall=reach``
(``connect_reach.lp``: every black cell reachable from the first one, founded by the solver's
unfounded-set check) or ``wall=edge`` (``connect_edge.lp``: each black cell but the first
chooses a black neighbour as parent, the parent edges acyclic by clingo's ``#edge``
directive). ``blacks=count`` (default ``none``) adds the fact ``blacks(B)``, B the cells
less the clues' sum, which turns on the program's redundant count of black cells. Solutions
are read and blocked as ``val(R,C,black|white)``
(:mod:`formulations._asp`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar

from bench.backends.kinds import AspModel, Term
from bench.instance import Instance
from bench.puzzles.nurikabe.rules import BLACK, WHITE, black_total, clue_list
from bench.registry import formulation
from formulations._asp import SHARED, AspFormulation

HERE = Path(__file__).resolve().parent
TOKENS = {"black": BLACK, "white": WHITE}


@formulation
class AspReach(AspFormulation):
    """islands reachable from their clue (inductive rules), wall connected by reach or #edge"""

    name = "asp-reach"
    parameters: ClassVar[dict[str, list[Any]]] = {"wall": ["reach", "edge"],
                                                     "blacks": ["none", "count"]}

    def programs(self) -> list[Path]:
        return [HERE / "asp_reach.lp", SHARED / f"connect_{self.params['wall']}.lp"]

    def facts(self, inst: Instance, model: AspModel) -> None:
        for i, (r, c, n) in enumerate(clue_list(inst)):
            model.fact("clue", i, r, c, n)
        if self.params["blacks"] == "count":
            model.fact("blacks", black_total(inst))

    def token(self, term: Term) -> object:
        return TOKENS[str(term)]

    def term(self, token: object) -> Term:
        return "black" if token == BLACK else "white"
