"""Yin-Yang on puzz.link (``Circle``) and janko.at (``w``/``b`` stones)."""

from __future__ import annotations

from bench.codec import Codec, JankoTokens
from bench.convert.pzpr.circle import CIRCLE

STONES = {"w": "w", "b": "b"}

CODEC = Codec(
    puzzle="yinyang",
    encoding=CIRCLE,
    janko=JankoTokens(problem=STONES, solution=STONES),
)
