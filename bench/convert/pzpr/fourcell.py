"""pzprjs ``4Cell``: ``0``-``4`` a numbered black cell; ``5``-``9`` the number ``ch - 5`` and
one empty cell after it; ``a``-``e`` the number ``ch - 10`` and two empty cells after it (these
may run past the last cell: pzprjs writes a number in the last cell that way); ``.`` a black
cell without number (``#``); ``g``-``z`` 1..20 empty cells."""

from __future__ import annotations

from bench.convert.pzpr.common import HEX, ConversionError, Encoding, Runs, decode_runs


def decode(body: str, cols: int, rows: int) -> list[str]:
    def read(body: str, i: int, c: int, out: list[str]) -> tuple[int, int]:
        ch = body[i]
        if "0" <= ch <= "9" or "a" <= ch <= "e":
            v = int(ch, 16)
            out[c] = str(v % 5)
            return i + 1, c + 1 + v // 5  # the number, then 0-2 empty cells (may pass the end)
        if ch == ".":
            out[c] = "#"
            return i + 1, c + 1
        raise ConversionError(f"illegal character {ch!r} at body position {i}")

    return decode_runs(body, cols, rows, read)


def encode(cells: list[str]) -> str:
    runs = Runs()
    n = len(cells)
    c = 0

    def filled(k: int) -> bool:
        return k < n and cells[k] != "."

    while c < n:
        tok = cells[c]
        if tok == ".":
            runs.empty()
            c += 1
            continue
        if tok == "#":
            s = "."
            c += 1
        elif tok in ("0", "1", "2", "3", "4"):
            v = int(tok)
            if filled(c + 1):
                s, c = HEX[v], c + 1
            elif filled(c + 2):
                s, c = HEX[v + 5], c + 2
            else:
                s, c = HEX[v + 10], c + 3
        else:
            raise ConversionError(f"cell {c}: token {tok!r} has no puzz.link encoding")
        runs.item(s)
    return runs.body()


FOURCELL = Encoding("4cell", decode, encode)
