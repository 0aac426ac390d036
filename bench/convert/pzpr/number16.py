"""pzprjs ``Number16``: ``0``-``9``/``a``-``f`` one hex digit; ``-`` + 2 hex digits; ``+`` + 3
hex digits; ``=`` + 3 hex digits + 4096; ``g``-``z`` a run of 1..20 empty cells; ``.`` a ``?``
clue (number unknown), which the contract cannot hold, so it is an error. pzprjs's ``%`` + 3 hex
(+ 8192) is not supported: ``%`` is read as URL percent-encoding, and such numbers never fit a
grid this harness solves."""

from __future__ import annotations

from bench.convert.pzpr.common import HEX, ConversionError, Encoding, Runs, decode_runs, where

MAX_NUMBER16 = 8191  # '=' + 3 hex digits + 4096; pzprjs's '%' form is not supported
WIDE = {"-": (2, 0), "+": (3, 0), "=": (3, 4096)}  # prefix -> (hex digits, offset)


def decode(body: str, cols: int, rows: int) -> list[str]:
    def read(body: str, i: int, c: int, out: list[str]) -> tuple[int, int]:
        ch = body[i]
        width, base = WIDE.get(ch, (0, 0))
        if ch in HEX:
            out[c] = str(int(ch, 16))
            return i + 1, c + 1
        if width:
            digits = body[i + 1:i + 1 + width]
            if len(digits) < width or any(d not in HEX for d in digits):
                raise ConversionError(
                    f"bad number {body[i:i + 1 + width]!r} at body position {i} "
                    f"({where(c, cols)}): {ch!r} needs {width} hex digits")
            out[c] = str(int(digits, 16) + base)
            return i + 1 + width, c + 1
        if ch == ".":
            raise ConversionError(
                f"'?' clue (number unknown) at {where(c, cols)}: not supported by the "
                "instance format")
        raise ConversionError(f"illegal character {ch!r} at body position {i}")

    return decode_runs(body, cols, rows, read)


def number(k: int, v: int) -> str:
    """The encoding of number ``v`` (cell ``k``, for the error message)."""
    if v < 16:
        return f"{v:x}"
    if v < 256:
        return f"-{v:02x}"
    if v < 4096:
        return f"+{v:03x}"
    if v <= MAX_NUMBER16:
        return f"={v - 4096:03x}"
    raise ConversionError(f"cell {k}: number {v} is too large for the puzz.link encoding")


def encode(cells: list[str]) -> str:
    runs = Runs()
    for k, tok in enumerate(cells):
        if tok == ".":
            runs.empty()
        elif tok.isdigit():
            runs.item(number(k, int(tok)))
        else:
            raise ConversionError(f"cell {k}: token {tok!r} has no puz.link encoding")
    return runs.body()


NUMBER16 = Encoding("number16", decode, encode)
