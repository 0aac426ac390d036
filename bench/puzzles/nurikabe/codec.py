"""Nurikabe on puzz.link (``Number16``) and janko.at (solution ``x`` black, ``-`` or a number
white)."""

from __future__ import annotations

from bench.codec import Codec, JankoTokens
from bench.convert.pzpr.number16 import NUMBER16

CODEC = Codec(
    puzzle="nurikabe",
    encoding=NUMBER16,
    janko=JankoTokens(
        problem_numbers=True,
        solution={"x": "#", "#": "#", "-": ".", ".": "."},
        solution_number=lambda n: ".",
    ),
)
