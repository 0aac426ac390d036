"""Fillomino on puzz.link (``Number16``) and janko.at (solution: the number of every cell)."""

from __future__ import annotations

from bench.codec import Codec, JankoTokens
from bench.convert.pzpr.number16 import NUMBER16


def positive(n: int) -> int | None:
    return n if n > 0 else None


CODEC = Codec(
    puzzle="fillomino",
    encoding=NUMBER16,
    janko=JankoTokens(problem_numbers=True, solution_number=positive),
)
