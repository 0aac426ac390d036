"""pzprjs ``Circle``: each base-27 character (``0``-``9``, ``a``-``q``) holds 3 cells, most
significant first: 0 empty, 1 white (``w``), 2 black (``b``); the unused digits of the last
character must be 0."""

from __future__ import annotations

from bench.convert.pzpr.common import ConversionError, Encoding

BASE27 = "0123456789abcdefghijklmnopq"
VALUES = {".": 0, "w": 1, "b": 2}


def decode(body: str, cols: int, rows: int) -> list[str]:
    n = cols * rows
    need = (n + 2) // 3
    if len(body) < need:
        raise ConversionError(
            f"truncated body: {len(body)} characters, a {cols}x{rows} grid needs {need}")
    if len(body) > need:
        raise ConversionError(
            f"overlong body: {body[need:]!r} left after the last cell of the {cols}x{rows} grid")
    out: list[str] = []
    for i, ch in enumerate(body):
        if ch not in BASE27:
            raise ConversionError(f"illegal character {ch!r} at body position {i}")
        v = BASE27.index(ch)
        for digit in (v // 9, v // 3 % 3, v % 3):
            if len(out) < n:
                out.append(".wb"[digit])
            elif digit:
                raise ConversionError(
                    f"character {ch!r} at body position {i} sets cells past the end of the "
                    f"{cols}x{rows} grid")
    return out


def encode(cells: list[str]) -> str:
    out = []
    for k in range(0, len(cells), 3):
        v = 0
        for j, tok in enumerate(cells[k:k + 3]):
            if tok not in VALUES:
                raise ConversionError(f"cell {k + j}: token {tok!r} has no puzz.link encoding")
            v += VALUES[tok] * (9, 3, 1)[j]
        out.append(BASE27[v])
    return "".join(out)


CIRCLE = Encoding("circle", decode, encode)
