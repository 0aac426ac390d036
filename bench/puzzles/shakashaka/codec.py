"""Shakashaka on puzz.link (``4Cell``) and janko.at (problem ``x`` a black cell; solution ``-``
white, ``x`` or a number the given black cell, ``nw``/``ne``/``se``/``sw`` a half-black
triangle named by its black corner; a black cell of the problem stays black whatever the
solution writes there, which for janko is ``-``)."""

from __future__ import annotations

from bench.codec import Codec, JankoTokens
from bench.convert.pzpr.fourcell import FOURCELL

TRIANGLES = {"nw": "◤", "ne": "◥", "se": "◢", "sw": "◣"}

CODEC = Codec(
    puzzle="shakashaka",
    encoding=FOURCELL,
    janko=JankoTokens(
        # janko sometimes marks an unnumbered black cell "5", a number no cell can carry
        problem={"x": "#", "5": "#", **{n: n for n in "01234"}},
        solution={**TRIANGLES, "x": "#", "-": ".", ".": "."},
        solution_number=lambda n: "#",
        # janko writes "-" for every cell that is not a triangle, its black cells included
        given=lambda tok: "#",
    ),
)
