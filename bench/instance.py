"""Instance files: the fixed interchange format of docs/formats.md ("The contract").

An instance file is a header of ``key: value`` lines (``puzzle`` required, ``#`` lines are
comments), one blank line, then the grid: one line per row, cells separated by single spaces.

Accepted knowingly beyond the letter of that contract (as every writer here emits the strict form):
runs of spaces and tabs between cells and around a row or a header line, spaces around a header
line's colon, more than one blank line (or a line of only spaces and tabs) between the header and
the grid and after the grid, LF, CRLF or CR line ends, a leading UTF-8 byte-order mark, leading
zeros in a number (``02`` is 2, and is written back as ``2``). Rejected with the line named: any
other control character (a form feed, a vertical tab, NUL, U+2028), non-ASCII tokens (full-width or
Arabic-Indic digits), non-UTF-8 bytes, FIFOs and other non-regular files. Reading never raises
anything but :class:`InstanceError`, whose message names the file, the line and the problem on one
line.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from pathlib import Path

from bench.puzzles.base import Grid, Instance, InstanceError, Token
from bench.puzzles.registry import get_puzzle

__all__ = ["Grid", "Instance", "InstanceError", "Token", "check_header", "format_instance",
           "instance_from_tokens", "parse_instance", "read_instance"]


LINE_END = re.compile(r"\r\n|\r|\n")
LINE_END_BYTES = re.compile(rb"\r\n|\r|\n")
SEPARATOR = re.compile(r"[ \t]+")
#: characters no line may hold: C0 controls but the tab, DEL, C1 controls, Unicode line and
#: paragraph separators
CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029]")


def read_instance(path: str | Path, digest: str = "") -> Instance:
    """Read and validate an instance file; raise :class:`InstanceError` on any problem. With a
    ``sha256:`` ``digest`` (:func:`bench.records.content_digest`: a planned task's), bytes of
    another digest are a problem too: the file changed since the task was planned, and the
    task is of the content it was planned for."""
    p = Path(path)
    if not str(path):  # Path("") is the working directory
        raise InstanceError("''", None, "empty path, not an instance file")
    try:
        if p.exists() and not p.is_dir() and not p.is_file():  # a FIFO would block forever
            raise InstanceError(p, None, "not a regular file (a FIFO, socket or device)")
        data = p.read_bytes()
    except FileNotFoundError:
        raise InstanceError(p, None, "no such file") from None
    except IsADirectoryError:
        raise InstanceError(p, None, "is a directory, not an instance file") from None
    except OSError as e:
        raise InstanceError(p, None, f"cannot read: {e.strerror}") from None
    if digest.startswith("sha256:"):
        from bench.records import content_digest

        if (now := content_digest(data)) != digest:
            raise InstanceError(p, None, f"changed since the run was planned (content {now}, "
                                f"planned {digest})")
    return parse_instance(data, p)


def parse_instance(data: bytes | str, path: str | Path = "<string>") -> Instance:
    """Parse and validate instance text (or bytes); raise :class:`InstanceError` on any
    problem."""
    lines = text_lines(data, path)
    header, i = parse_header(lines, path)
    if "puzzle" not in header:
        raise InstanceError(path, 1, "missing 'puzzle:' header line")
    try:
        puzzle = get_puzzle(header["puzzle"])
    except KeyError:
        line = next(n for n, text in enumerate(lines, 1)
                    if text.strip().partition(":")[0].strip() == "puzzle")
        raise InstanceError(path, line, f"unknown puzzle {header['puzzle']!r}") from None
    while i < len(lines) and not lines[i].strip():
        i += 1
    try:
        rows = parse_grid(lines, i, path, puzzle.parse_token)
    except InstanceError as e:
        raise InstanceError(path, e.line, e.problem, puzzle.name) from None
    inst = Instance(
        puzzle=puzzle.name,
        path=str(path),
        header=header,
        grid=tuple(rows),
        grid_first_line=i + 1,
        name=Path(str(path)).stem,
    )
    for r, problem in puzzle.validate(inst):
        raise InstanceError(path, inst.line_of_row(r) if r is not None else None, problem,
                            puzzle.name)
    return inst


def not_utf8(error: UnicodeDecodeError) -> tuple[int, str]:
    """The line (1-based; lines end at LF, CRLF or CR) of the first byte of a file's bytes
    that is not UTF-8 text, and the problem naming that byte's value and its offset from the
    start of the file (0-based), from the :class:`UnicodeDecodeError` of decoding them."""
    data = bytes(error.object)
    line = len(LINE_END_BYTES.findall(data, 0, error.start)) + 1
    return line, (f"not UTF-8 text (invalid byte 0x{data[error.start]:02x} at offset "
                  f"{error.start})")


def text_lines(data: bytes | str, path: str | Path) -> list[str]:
    """The lines of an instance file's text; empty, binary and non-UTF-8 files are errors."""
    if isinstance(data, bytes):
        if not data.strip():
            raise InstanceError(path, None, "empty file")
        if b"\x00" in data:
            raise InstanceError(path, None, "binary file (contains NUL bytes), not an instance")
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as e:
            raise InstanceError(path, *not_utf8(e)) from None
    else:
        text = data
    text = text.removeprefix("\ufeff")  # a UTF-8 byte-order mark (Windows editors) is allowed
    if not text.strip():
        raise InstanceError(path, None, "empty file")
    # lines end at LF, CRLF or CR only: splitlines() would also split at form feeds, vertical
    # tabs and Unicode separators, shifting the line numbers of error messages
    lines = LINE_END.split(text)
    if lines and lines[-1] == "":
        lines.pop()
    for n, line in enumerate(lines, 1):
        bad = CONTROL.search(line)
        if bad:
            raise InstanceError(path, n, f"control character U+{ord(bad.group()):04X} "
                                "(only spaces and tabs separate tokens)")
    return lines


def parse_header(lines: list[str], path: str | Path) -> tuple[dict[str, str], int]:
    """The ``key: value`` lines before the first blank line, and the index of that line; the
    ``puzzle`` key (it decides how the grid is read) at most once."""
    header: dict[str, str] = {}
    i = 0
    while i < len(lines) and lines[i].strip():
        line = lines[i].strip()
        if not line.startswith("#"):
            key, sep, value = line.partition(":")
            if not sep or not key.strip() or any(ch.isspace() for ch in key.strip()):
                raise InstanceError(path, i + 1, f"expected 'key: value' header line, got {line!r}")
            if key.strip() == "puzzle" and "puzzle" in header:  # which rules read the grid
                raise InstanceError(path, i + 1, "a second 'puzzle:' header line")
            header[key.strip()] = value.strip()
        i += 1
    return header, i


def parse_grid(lines: list[str], start: int, path: str | Path,
               parse_token: Callable[[str], Token]) -> list[tuple[Token, ...]]:
    """The grid rows from line index ``start`` on: tokens parsed, the grid rectangular."""
    rows: list[tuple[Token, ...]] = []
    for j in range(start, len(lines)):
        raw = lines[j]
        if not raw.strip(" \t"):
            if any(rest.strip(" \t") for rest in lines[j:]):
                raise InstanceError(path, j + 1, "blank line inside the grid")
            break
        row = []
        for c, tok in enumerate(SEPARATOR.split(raw.strip(" \t"))):
            if not tok.isascii():
                raise InstanceError(path, j + 1, f"column {c}: non-ASCII token {tok!r} "
                                    "(tokens are ASCII: '.', digits, letters)")
            try:
                row.append(parse_token(tok))
            except ValueError as e:
                raise InstanceError(path, j + 1, f"column {c}: {e}") from None
        if rows and len(row) != len(rows[0]):
            raise InstanceError(
                path, j + 1, f"ragged grid: row has {len(row)} cells, row 0 has {len(rows[0])}"
            )
        rows.append(tuple(row))
    if not rows:
        raise InstanceError(path, len(lines), "no grid after the header")
    return rows


def format_instance(inst: Instance) -> str:
    """Write an instance back in the interchange format (header order kept)."""
    puzzle = get_puzzle(inst.puzzle)
    head = [f"puzzle: {inst.puzzle}"]
    head += [f"{k}: {v}" for k, v in inst.header.items() if k != "puzzle"]
    body = [" ".join(puzzle.format_token(v) for v in row) for row in inst.grid]
    return "\n".join([*head, "", *body]) + "\n"


def check_header(header: dict[str, str], path: str | Path) -> None:
    """Raise :class:`InstanceError` on a header entry that cannot be written as one ``key:
    value`` line and read back (the reader strips the spaces around a value): an empty key, a
    key with whitespace or a colon or starting with ``#`` (a comment line), a value with a line
    end or another control character."""
    for k, v in header.items():
        if not k or any(ch.isspace() for ch in k) or ":" in k or k.startswith("#") \
                or CONTROL.search(k + v) or LINE_END.search(v):
            raise InstanceError(path, None, f"bad header entry {k!r}: {v!r}")


def instance_from_tokens(
    puzzle: str, header: dict[str, str], grid: Sequence[Sequence[str]], path: str | Path,
    lines: Sequence[int] | None = None,
) -> Instance:
    """Build an :class:`Instance` through :func:`parse_instance`, so the puzzle's validation
    runs. Problems are re-raised as :class:`InstanceError` on ``path``, with the line from
    ``lines`` (the source line of each grid row) or, without it, the grid row in the message."""
    head = {"puzzle": puzzle, **{k: v for k, v in header.items() if k != "puzzle"}}
    check_header(head, path)
    text = "".join(f"{k}: {v}\n" for k, v in head.items()) + "\n"
    first = len(head) + 2
    text += "".join(" ".join(row) + "\n" for row in grid)
    try:
        return parse_instance(text, path)
    except InstanceError as e:
        if e.line is None or e.line < first:
            raise InstanceError(path, None, e.problem) from None
        r = e.line - first
        if lines is not None and r < len(lines):
            raise InstanceError(path, lines[r], e.problem) from None
        raise InstanceError(path, None, f"grid row {r}: {e.problem}") from None
