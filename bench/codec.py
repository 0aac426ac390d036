"""What a puzzle's ``codec.py`` declares, and the lookups over every declared codec.

Each ``bench/puzzles/<puzzle>/codec.py`` holds one ``CODEC = Codec(...)``: the puzz.link pids
(the first is written on export, the others are read as aliases) and the pzprjs body
encoding (:mod:`bench.convert.pzpr`), and the janko.at names and token tables
(:class:`JankoTokens`, read by :mod:`bench.convert.janko`). Nothing here dispatches on a
puzzle's name: a new puzzle is a new folder.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from bench.convert.pzpr.common import Encoding
from bench.puzzles.base import SolutionGrid
from bench.puzzles.registry import declared


@dataclass(frozen=True)
class JankoTokens:
    """A puzzle's janko.at tokens (matched lower-cased). Problem: ``-`` is empty and ``?`` an
    error for every puzzle, then ``problem`` (token -> contract token), then, with
    ``problem_numbers``, any number (written without leading zeros). Solution: ``solution``
    (token -> cell value), then a number through ``solution_number`` (None: not a legal
    number), then, with ``solution_raw``, the token as written, which ``regroup`` turns into
    the solution grid afterwards (Shikaku's areas of equal tokens); ``given`` fixes the
    solution value of a cell the problem gives."""

    names: tuple[str, ...] = ()  # the puzzle's janko.at names (default: the puzzle's name)
    problem: Mapping[str, str] = field(default_factory=dict)
    problem_numbers: bool = False
    solution: Mapping[str, Any] = field(default_factory=dict)
    solution_number: Callable[[int], Any] | None = None
    solution_raw: bool = False
    regroup: Callable[[SolutionGrid], SolutionGrid] | None = None
    #: a cell the problem gives (its contract token) -> its solution value whatever janko
    #: writes there (None: as written); Shakashaka's black cells, which janko writes ``-``
    given: Callable[[str], Any] | None = None


@dataclass(frozen=True)
class Codec:
    """The formats of other tools for one puzzle (puzz.link URLs, janko.at files)."""

    puzzle: str
    encoding: Encoding
    janko: JankoTokens
    pids: tuple[str, ...] = ()  # puzz.link pids, the first is the one written (default: puzzle)

    def __post_init__(self) -> None:
        if not self.pids:
            object.__setattr__(self, "pids", (self.puzzle,))
        if not self.janko.names:
            object.__setattr__(self, "janko", replace(self.janko, names=(self.puzzle,)))


def codecs() -> list[Codec]:
    """Every puzzle folder's declared codec."""
    return declared("codec", "CODEC")


def codec_of(puzzle: str) -> Codec | None:
    return next((c for c in codecs() if c.puzzle == puzzle), None)


def pid_table() -> dict[str, Codec]:
    """Every pid (aliases included) -> its codec."""
    return {pid: c for c in codecs() for pid in c.pids}


def janko_table() -> dict[str, Codec]:
    """Every janko.at puzzle name (lower case letters only) -> its codec."""
    return {name: c for c in codecs() for name in c.janko.names}
