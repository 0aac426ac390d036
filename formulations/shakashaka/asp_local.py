"""Shakashaka in ASP (clingo): the exact local rule of ``formulations.shakashaka._local``.

The rules are ``asp_local.lp`` beside this module: a pattern per open cell (white or a
triangle, which leaves two adjacent quarters white), the number rule as a count of triangles
among a number's neighbours, the 8 sectors at every grid point, and one integrity constraint
per forbidden wedge length (1, 3, 5, 6, 7 sectors; the proof that allowing only 2, 4 and 8
makes every white area a rectangle is in :mod:`formulations.shakashaka._local`). Solutions are
read and blocked as ``val(R,C,P)`` (:mod:`formulations._asp`).
"""

from __future__ import annotations

from pathlib import Path

from bench.backends.kinds import AspModel, Term
from bench.instance import Instance
from bench.registry import formulation
from formulations._asp import AspFormulation

HERE = Path(__file__).resolve().parent
#: ``val`` pattern -> solution token (a triangle is named by its black corner)
TOKENS: dict[str, str] = {"black": "#", "white": ".", "br": "◢", "bl": "◣", "tl": "◤",
                          "tr": "◥"}
TERMS = {v: k for k, v in TOKENS.items()}


@formulation
class AspLocal(AspFormulation):
    """cell patterns, triangle counts and the forbidden wedges at every grid point"""

    name = "asp-local"

    def programs(self) -> list[Path]:
        return [HERE / "asp_local.lp"]

    def facts(self, inst: Instance, model: AspModel) -> None:
        for r, c, v in inst.clues():
            model.fact("black", r, c)
            if isinstance(v, int):
                model.fact("number", r, c, v)

    def token(self, term: Term) -> object:
        return TOKENS[str(term)]

    def term(self, token: object) -> Term:
        return TERMS[str(token)]
