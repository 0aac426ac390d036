"""What the pzprjs encodings share: the error type, the encoding record, run-length helpers."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

HEX = "0123456789abcdef"


class ConversionError(ValueError):
    """A URL or file that cannot be imported or an instance that cannot be exported.
    ``str(err)`` is one line naming the problem."""


@dataclass(frozen=True)
class Encoding:
    """One pzprjs body encoding: ``decode(body, cols, rows)`` gives the contract tokens of the
    cells in reading order, ``encode(cells)`` the body (its exact inverse on pzprjs output)."""

    name: str
    decode: Callable[[str, int, int], list[str]]
    encode: Callable[[list[str]], str]


def where(c: int, cols: int) -> str:
    return f"row {c // cols}, column {c % cols}"


def run_length(ch: str) -> int:
    """The empty-cell run of a ``g``..``z`` character: ``g`` -> 1 ... ``z`` -> 20."""
    return int(ch, 36) - 15


def run_char(count: int) -> str:
    """The ``g``..``z`` character of a run of ``count`` (1..20) empty cells; '' for 0."""
    return chr(ord("f") + count) if count else ""


def skip_run(ch: str, i: int, c: int, n: int, cols: int, rows: int) -> int:
    """Cell ``c`` advanced past the empty-cell run ``ch`` at body position ``i``."""
    skip = run_length(ch)
    if c + skip > n:
        raise ConversionError(
            f"run of {skip} empty cells at body position {i} passes the end of the "
            f"{cols}x{rows} grid ({n - c} cells left)")
    return c + skip


def decode_runs(body: str, cols: int, rows: int,
                read: Callable[[str, int, int, list[str]], tuple[int, int]]) -> list[str]:
    """The decoding loop shared by the run-length encodings: ``read(body, i, c, out)`` takes
    the token at body position ``i`` for cell ``c``, writes ``out`` and returns the next
    ``(i, c)``; runs of empty cells (``g``-``z``) and the end checks are handled here."""
    n = cols * rows
    out = ["."] * n
    c = i = 0
    while i < len(body) and c < n:
        ch = body[i]
        if "g" <= ch <= "z":
            c = skip_run(ch, i, c, n, cols, rows)
            i += 1
        else:
            i, c = read(body, i, c, out)
    finish(c, n, i, body, cols, rows)
    return out


def finish(c: int, n: int, i: int, body: str, cols: int, rows: int) -> None:
    """Raise if the body ended before the last cell or went on after it."""
    if c < n:
        raise ConversionError(
            f"truncated body: {body!r} encodes {c} of the {n} cells of a {cols}x{rows} grid")
    if i < len(body):
        raise ConversionError(
            f"overlong body: {body[i:]!r} left after the last cell of the {cols}x{rows} grid")


class Runs:
    """Accumulates an encoded body, with runs of empty cells written as ``g``..``z``."""

    def __init__(self) -> None:
        self.out: list[str] = []
        self.count = 0

    def empty(self) -> None:
        self.count += 1
        if self.count == 20:
            self.out.append(run_char(self.count))
            self.count = 0

    def item(self, s: str) -> None:
        self.out.append(run_char(self.count) + s)
        self.count = 0

    def body(self) -> str:
        return "".join([*self.out, run_char(self.count)])
