"""Instance import and export: puzz.link / pzv.jp URLs and janko.at text files.

Pure functions (no I/O except :func:`write_instance`). Everything ends in the interchange
format of ``../shared/instance-format.md``: instances are built through
:func:`bench.instance.parse_instance`, so the puzzle's own validation runs on every import.

puzz.link URLs (``p?<pid>/[flags/]<cols>/<rows>/<body>``, the pzprjs encodings):

- nurikabe, shikaku, fillomino: pzprjs ``Number16``. ``0``-``9``/``a``-``f`` one hex digit;
  ``-`` + 2 hex digits; ``+`` + 3 hex digits; ``=`` + 3 hex digits + 4096; ``g``-``z`` a run of
  1..20 empty cells; ``.`` a ``?`` clue (number unknown), which the contract cannot hold, so
  it is an error. pzprjs's ``%`` + 3 hex (+ 8192) is not supported: ``%`` is read as URL
  percent-encoding, and such numbers never fit a grid this harness solves.
- shakashaka: pzprjs ``4Cell``. ``0``-``4`` a numbered black cell; ``5``-``9`` the number
  ``ch - 5`` and one empty cell after it; ``a``-``e`` the number ``ch - 10`` and two empty
  cells after it (these may run past the last cell: pzprjs writes a number in the last cell
  that way); ``.`` a black cell without number (``#``); ``g``-``z`` 1..20 empty cells.
- yinyang: pzprjs ``Circle``. Each base-27 character (``0``-``9``, ``a``-``q``) holds 3 cells,
  most significant first: 0 empty, 1 white (``w``), 2 black (``b``); the unused digits of the
  last character must be 0.

Decoding is strict where pzprjs is lenient, so that a malformed URL never becomes a wrong
instance: a body that ends before the last cell (truncated), characters left after the last
cell (overlong), a run of empty cells that passes the last cell, illegal characters, flags
or variants, and unknown pids are all :class:`InterchangeError` with a one-line message.

Round trip: :func:`encode_puzzlink` writes exactly the body pzprjs writes, so a decoded URL
re-encodes to the same body. What is normalised: the scheme and host (always
``https://puzz.link/p?``), the pid alias (``sikaku`` becomes ``shikaku``), query trailers after
``&`` (e.g. ``&id=...``), a URL fragment, one trailing ``/``, percent-encoding, and stray quote
characters around the URL (a ``%22`` at the end of a URL copied out of a JSON or HTML string).

janko.at text files (:func:`read_janko`): ``[setup]`` (``puzzle``, ``size`` or ``rows`` and
``cols``; other keys ignored except ``author``), ``[problem]``, optional ``[solution]`` (read as
the known solution and checked against the rules), ``[moves]`` and any other section ignored,
``[end]``. Problem tokens: ``-`` empty, numbers, ``x`` black (Shakashaka), ``w``/``b`` stones
(Yin-Yang). Solution tokens: Nurikabe ``x`` black, ``-`` or a number white; Yin-Yang ``w``/``b``;
Shakashaka ``-`` white, ``x`` or a number the given black cell, and ``nw``/``ne``/``se``/``sw``
a half-black triangle **named by its black corner** (``nw`` = ``◤``, ``ne`` = ``◥``,
``se`` = ``◢``, ``sw`` = ``◣``); Fillomino the number; Shikaku any token per cell, each
4-connected area of equal tokens being one rectangle. A solution that breaks the rules is an
error rather than a silently wrong ``.sol`` file (so a mistaken triangle convention shows up).
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

from bench.instance import Instance, InstanceError, parse_instance

TokenGrid = list[list[str]]
SolutionGrid = list[list[Any]]


class InterchangeError(ValueError):
    """A URL or file that cannot be imported or an instance that cannot be exported.
    ``str(err)`` is one line naming the problem."""


#: pzprjs pids (and aliases) this module reads, mapped to the harness's puzzle names
PIDS: dict[str, str] = {
    "nurikabe": "nurikabe",
    "shikaku": "shikaku",
    "sikaku": "shikaku",
    "yinyang": "yinyang",
    "shakashaka": "shakashaka",
    "fillomino": "fillomino",
}
#: the pid written for each puzzle
CANONICAL_PID: dict[str, str] = {
    "nurikabe": "nurikabe",
    "shikaku": "shikaku",
    "yinyang": "yinyang",
    "shakashaka": "shakashaka",
    "fillomino": "fillomino",
}
HOSTS = ("puzz.link", "www.puzz.link", "pzv.jp", "www.pzv.jp")
PATHS = ("/p", "/p.html", "/p/")
CANONICAL_PREFIX = "https://puzz.link/p?"
NUMBER16 = ("nurikabe", "shikaku", "fillomino")

HEX = "0123456789abcdef"
BASE27 = "0123456789abcdefghijklmnopq"
MAX_SIDE = 999  # a sanity bound before allocating the grid
MAX_NUMBER16 = 8191  # '=' + 3 hex digits + 4096; pzprjs's '%' form is not supported


# --------------------------------------------------------------------------- puzz.link


def split_puzzlink(url: str) -> tuple[str, str, int, int, str]:
    """``(puzzle, pid, cols, rows, body)`` of a puzz.link / pzv.jp URL, nothing decoded yet."""
    raw = url.strip().strip("\"'").strip()
    if not raw:
        raise InterchangeError("empty URL")
    text = unquote(raw).strip().strip("\"'").strip()
    if "://" not in text:
        text = "https://" + text
    try:
        parts = urlsplit(text)
    except ValueError as e:
        raise InterchangeError(f"not a URL: {e}") from None
    if parts.scheme not in ("http", "https"):
        raise InterchangeError(f"unsupported scheme {parts.scheme!r} (expected http or https)")
    host = (parts.hostname or "").lower()
    if host not in HOSTS:
        raise InterchangeError(f"unsupported host {host!r} (expected puzz.link or pzv.jp)")
    if parts.path not in PATHS:
        raise InterchangeError(f"unexpected path {parts.path!r} (expected /p? or /p.html?)")
    query = parts.query.split("&", 1)[0]
    if not query:
        raise InterchangeError("no puzzle after '?'")
    fields = query.split("/")
    if fields[-1] == "" and len(fields) > 1:
        fields.pop()  # one trailing slash
    pid = fields[0].lower()
    if pid not in PIDS:
        known = ", ".join(sorted(PIDS))
        raise InterchangeError(f"unsupported puzzle type {fields[0]!r} (supported: {known})")
    puzzle = PIDS[pid]
    rest = fields[1:]
    flags = []
    while rest and not rest[0].isdigit():
        flags.append(rest.pop(0))
    if flags:
        raise InterchangeError(
            f"unsupported flags or variant {'/'.join(flags)!r} for {pid} "
            "(only plain p?<pid>/<cols>/<rows>/<body> URLs are read)")
    if len(rest) < 2 or not rest[1].isdigit():
        raise InterchangeError(f"missing size: expected {pid}/<cols>/<rows>/<body>")
    cols, rows = int(rest[0]), int(rest[1])
    if cols < 1 or rows < 1:
        raise InterchangeError(f"bad size {cols}x{rows}: columns and rows must be at least 1")
    if cols > MAX_SIDE or rows > MAX_SIDE:
        raise InterchangeError(f"bad size {cols}x{rows}: more than {MAX_SIDE} columns or rows")
    if len(rest) < 3 or rest[2] == "":
        raise InterchangeError(f"empty body: no cells encoded for the {cols}x{rows} grid")
    if len(rest) > 3:
        raise InterchangeError(f"unexpected extra part {'/'.join(rest[3:])!r} after the body")
    return puzzle, pid, cols, rows, rest[2]


def decode_puzzlink(url: str) -> tuple[str, dict[str, str], TokenGrid]:
    """``(puzzle, header, grid tokens)`` of a puzz.link URL (tokens in the contract's format).

    The header holds ``puzzle`` and ``source`` (the URL as given, whitespace stripped).
    Raises :class:`InterchangeError` on anything it cannot decode exactly.
    """
    puzzle, _pid, cols, rows, body = split_puzzlink(url)
    cells = decode_body(puzzle, cols, rows, body)
    grid = [cells[r * cols:(r + 1) * cols] for r in range(rows)]
    return puzzle, {"puzzle": puzzle, "source": url.strip()}, grid


def decode_body(puzzle: str, cols: int, rows: int, body: str) -> list[str]:
    """The cell tokens, in reading order, of a pzprjs body."""
    if puzzle in NUMBER16:
        return _decode_number16(body, cols, rows)
    if puzzle == "shakashaka":
        return _decode_4cell(body, cols, rows)
    if puzzle == "yinyang":
        return _decode_circle(body, cols, rows)
    raise InterchangeError(f"no puzz.link decoder for {puzzle!r}")  # pragma: no cover


def _where(c: int, cols: int) -> str:
    return f"row {c // cols}, column {c % cols}"


def _run_length(ch: str) -> int:
    return int(ch, 36) - 15  # 'g' -> 1 ... 'z' -> 20


def _finish(c: int, n: int, i: int, body: str, cols: int, rows: int) -> None:
    if c < n:
        raise InterchangeError(
            f"truncated body: {body!r} encodes {c} of the {n} cells of a {cols}x{rows} grid")
    if i < len(body):
        raise InterchangeError(
            f"overlong body: {body[i:]!r} left after the last cell of the {cols}x{rows} grid")


def _decode_number16(body: str, cols: int, rows: int) -> list[str]:
    n = cols * rows
    out = ["."] * n
    c = i = 0
    while i < len(body) and c < n:
        ch = body[i]
        width, base = {"-": (2, 0), "+": (3, 0), "=": (3, 4096)}.get(ch, (0, 0))
        if ch in HEX:
            out[c] = str(int(ch, 16))
            i += 1
            c += 1
        elif width:
            digits = body[i + 1:i + 1 + width]
            if len(digits) < width or any(d not in HEX for d in digits):
                raise InterchangeError(
                    f"bad number {body[i:i + 1 + width]!r} at body position {i} "
                    f"({_where(c, cols)}): {ch!r} needs {width} hex digits")
            out[c] = str(int(digits, 16) + base)
            i += 1 + width
            c += 1
        elif "g" <= ch <= "z":
            skip = _run_length(ch)
            if c + skip > n:
                raise InterchangeError(
                    f"run of {skip} empty cells at body position {i} passes the end of the "
                    f"{cols}x{rows} grid ({n - c} cells left)")
            c += skip
            i += 1
        elif ch == ".":
            raise InterchangeError(
                f"'?' clue (number unknown) at {_where(c, cols)}: not supported by the "
                "instance format")
        else:
            raise InterchangeError(f"illegal character {ch!r} at body position {i}")
    _finish(c, n, i, body, cols, rows)
    return out


def _decode_4cell(body: str, cols: int, rows: int) -> list[str]:
    n = cols * rows
    out = ["."] * n
    c = i = 0
    while i < len(body) and c < n:
        ch = body[i]
        if "0" <= ch <= "9" or "a" <= ch <= "e":
            v = int(ch, 16)
            out[c] = str(v % 5)
            c += 1 + v // 5  # the number, then 0, 1 or 2 empty cells (may pass the end)
        elif ch == ".":
            out[c] = "#"
            c += 1
        elif "g" <= ch <= "z":
            skip = _run_length(ch)
            if c + skip > n:
                raise InterchangeError(
                    f"run of {skip} empty cells at body position {i} passes the end of the "
                    f"{cols}x{rows} grid ({n - c} cells left)")
            c += skip
        else:
            raise InterchangeError(f"illegal character {ch!r} at body position {i}")
        i += 1
    _finish(c, n, i, body, cols, rows)
    return out


def _decode_circle(body: str, cols: int, rows: int) -> list[str]:
    n = cols * rows
    need = (n + 2) // 3
    if len(body) < need:
        raise InterchangeError(
            f"truncated body: {len(body)} characters, a {cols}x{rows} grid needs {need}")
    if len(body) > need:
        raise InterchangeError(
            f"overlong body: {body[need:]!r} left after the last cell of the {cols}x{rows} grid")
    out: list[str] = []
    for i, ch in enumerate(body):
        if ch not in BASE27:
            raise InterchangeError(f"illegal character {ch!r} at body position {i}")
        v = BASE27.index(ch)
        for digit in (v // 9, v // 3 % 3, v % 3):
            if len(out) < n:
                out.append(".wb"[digit])
            elif digit:
                raise InterchangeError(
                    f"character {ch!r} at body position {i} sets cells past the end of the "
                    f"{cols}x{rows} grid")
    return out


def instance_from_tokens(
    puzzle: str, header: dict[str, str], grid: Sequence[Sequence[str]], path: str | Path,
    lines: Sequence[int] | None = None,
) -> Instance:
    """Build an :class:`Instance` through :func:`parse_instance`, so the puzzle's validation
    runs. Problems are re-raised as :class:`InstanceError` on ``path``, with the line from
    ``lines`` (the source line of each grid row) or, without it, the grid row in the message."""
    head = {"puzzle": puzzle, **{k: v for k, v in header.items() if k != "puzzle"}}
    for k, v in head.items():
        if not k or any(ch.isspace() for ch in k) or ":" in k or "\n" in v or "\r" in v:
            raise InstanceError(path, None, f"bad header entry {k!r}: {v!r}")
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


def instance_from_puzzlink(url: str, header: dict[str, str] | None = None) -> Instance:
    """The validated instance of a puzz.link URL; ``header`` adds lines (e.g. ``licence``).

    Raises :class:`InterchangeError` (decoding) or :class:`InstanceError` (validation; the
    "file" in its message is the URL)."""
    puzzle, head, grid = decode_puzzlink(url)
    return instance_from_tokens(puzzle, {**head, **(header or {})}, grid, url.strip())


def instance_tokens(inst: Instance) -> TokenGrid:
    """The instance grid as contract tokens (through the puzzle's own formatter)."""
    from bench.puzzles import get_puzzle

    puzzle = get_puzzle(inst.puzzle)
    return [[puzzle.format_token(v) for v in row] for row in inst.grid]


def encode_body(puzzle: str, grid: Sequence[Sequence[str]]) -> str:
    """The pzprjs body of a grid of contract tokens (inverse of :func:`decode_body`)."""
    cells = [tok for row in grid for tok in row]
    if puzzle in NUMBER16:
        return _encode_number16(cells)
    if puzzle == "shakashaka":
        return _encode_4cell(cells)
    if puzzle == "yinyang":
        return _encode_circle(cells)
    raise InterchangeError(f"no puzz.link encoding for puzzle {puzzle!r}")


def _runs(count: int) -> str:
    return chr(ord("f") + count) if count else ""  # 1 -> 'g' ... 20 -> 'z'


def _encode_number16(cells: list[str]) -> str:
    out: list[str] = []
    count = 0
    for k, tok in enumerate(cells):
        if tok == ".":
            count += 1
            if count == 20:
                out.append(_runs(count))
                count = 0
            continue
        if not tok.isdigit():
            raise InterchangeError(f"cell {k}: token {tok!r} has no puz.link encoding")
        v = int(tok)
        if v < 16:
            s = f"{v:x}"
        elif v < 256:
            s = f"-{v:02x}"
        elif v < 4096:
            s = f"+{v:03x}"
        elif v <= MAX_NUMBER16:
            s = f"={v - 4096:03x}"
        else:
            raise InterchangeError(f"cell {k}: number {v} is too large for the puzz.link encoding")
        out.append(_runs(count) + s)
        count = 0
    out.append(_runs(count))
    return "".join(out)


def _encode_4cell(cells: list[str]) -> str:
    out: list[str] = []
    count = 0
    n = len(cells)
    c = 0

    def filled(k: int) -> bool:
        return k < n and cells[k] != "."

    while c < n:
        tok = cells[c]
        if tok == ".":
            count += 1
            if count == 20:
                out.append(_runs(count))
                count = 0
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
            raise InterchangeError(f"cell {c}: token {tok!r} has no puzz.link encoding")
        out.append(_runs(count) + s)
        count = 0
    out.append(_runs(count))
    return "".join(out)


def _encode_circle(cells: list[str]) -> str:
    values = {".": 0, "w": 1, "b": 2}
    out = []
    for k in range(0, len(cells), 3):
        v = 0
        for j, tok in enumerate(cells[k:k + 3]):
            if tok not in values:
                raise InterchangeError(f"cell {k + j}: token {tok!r} has no puzz.link encoding")
            v += values[tok] * (9, 3, 1)[j]
        out.append(BASE27[v])
    return "".join(out)


def encode_puzzlink(inst: Instance) -> str:
    """The canonical puzz.link URL of an instance (``https://puzz.link/p?pid/cols/rows/body``)."""
    if inst.puzzle not in CANONICAL_PID:
        raise InterchangeError(f"no puzz.link encoding for puzzle {inst.puzzle!r}")
    body = encode_body(inst.puzzle, instance_tokens(inst))
    return f"{CANONICAL_PREFIX}{CANONICAL_PID[inst.puzzle]}/{inst.cols}/{inst.rows}/{body}"


def canonical_url(url: str) -> str:
    """The URL with only the normalisations of the module docstring applied (body untouched)."""
    puzzle, _pid, cols, rows, body = split_puzzlink(url)
    return f"{CANONICAL_PREFIX}{CANONICAL_PID[puzzle]}/{cols}/{rows}/{body}"


# --------------------------------------------------------------------------- janko.at

JANKO_NAMES: dict[str, str] = {
    "nurikabe": "nurikabe",
    "sikaku": "shikaku",
    "shikaku": "shikaku",
    "yinyang": "yinyang",
    "shakashaka": "shakashaka",
    "fillomino": "fillomino",
}
TRIANGLES = {"nw": "◤", "ne": "◥", "se": "◢", "sw": "◣"}


def _janko_problem_token(puzzle: str, tok: str) -> str:
    t = tok.lower()
    if t == "-":
        return "."
    if t == "?":
        raise ValueError("'?' clue (number unknown) is not supported by the instance format")
    if puzzle == "yinyang" and t in ("w", "b"):
        return t
    if puzzle == "shakashaka":
        if t == "x":
            return "#"
        if t in ("0", "1", "2", "3", "4"):
            return t
    if puzzle in NUMBER16 and t.isdigit():
        return str(int(t))
    raise ValueError(f"illegal {puzzle} problem token {tok!r}")


def _janko_solution_token(puzzle: str, tok: str) -> Any:
    t = tok.lower()
    if puzzle == "nurikabe":
        if t in ("x", "#"):
            return "#"
        if t in ("-", ".") or t.isdigit():
            return "."
    elif puzzle == "yinyang":
        if t in ("w", "b"):
            return t
    elif puzzle == "shakashaka":
        if t in TRIANGLES:
            return TRIANGLES[t]
        if t == "x" or t.isdigit():
            return "#"
        if t in ("-", "."):
            return "."
    elif puzzle == "fillomino":
        if t.isdigit() and int(t) > 0:
            return int(t)
    elif puzzle == "shikaku":
        return tok  # regions are grouped afterwards
    raise ValueError(f"illegal {puzzle} solution token {tok!r}")


def _regions(grid: list[list[Any]]) -> SolutionGrid:
    """Shikaku: each 4-connected area of equal tokens becomes one integer id."""
    rows, cols = len(grid), len(grid[0])
    ids: SolutionGrid = [[-1] * cols for _ in range(rows)]
    nxt = 0
    for r0 in range(rows):
        for c0 in range(cols):
            if ids[r0][c0] >= 0:
                continue
            ids[r0][c0] = nxt
            stack = [(r0, c0)]
            while stack:
                r, c = stack.pop()
                for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                    if (0 <= rr < rows and 0 <= cc < cols and ids[rr][cc] < 0
                            and grid[rr][cc] == grid[r0][c0]):
                        ids[rr][cc] = nxt
                        stack.append((rr, cc))
            nxt += 1
    return ids


def _janko_rows(path: str | Path, lines: Sequence[int], raw: Sequence[Sequence[str]],
                puzzle: str, token: Callable[[str, str], Any]) -> list[list[Any]]:
    """Translate a janko grid section token by token; errors name the file line and column."""
    out: list[list[Any]] = []
    for no, toks in zip(lines, raw, strict=True):
        row = []
        for c, tok in enumerate(toks):
            try:
                row.append(token(puzzle, tok))
            except ValueError as e:
                raise InstanceError(path, no, f"column {c}: {e}") from None
        out.append(row)
    return out


def read_janko(text: str, path: str | Path = "<janko>") -> tuple[Instance, SolutionGrid | None]:
    """A janko.at puzzle file: the validated instance and the known solution (or None).

    Raises :class:`InstanceError` (``"<file>:<line>: <problem>"``) on any problem, including
    a ``[solution]`` that the puzzle's checker rejects."""
    section = ""
    setup: dict[str, tuple[str, int]] = {}
    blocks: dict[str, list[tuple[int, list[str]]]] = {"problem": [], "solution": []}
    seen: dict[str, int] = {}
    ended = False
    for no, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if ended or not line or line.startswith("#"):
            continue
        m = re.fullmatch(r"\[(\w+)\]", line)
        if m:
            section = m.group(1).lower()
            if section in seen and section in ("setup", "problem", "solution"):
                raise InstanceError(path, no, f"second [{section}] section")
            seen[section] = no
            ended = section == "end"
            continue
        if section == "setup":
            key, *value = re.split(r"\s*=\s*|\s+", line, maxsplit=1)
            setup[key.lower()] = ((value[0] if value else "").strip(), no)
        elif section in blocks:
            blocks[section].append((no, line.split()))
    if "setup" not in seen:
        raise InstanceError(path, None, "no [setup] section: not a janko.at puzzle file")
    if "puzzle" not in setup:
        raise InstanceError(path, seen["setup"], "[setup] has no 'puzzle' line")
    name, name_line = setup["puzzle"]
    key = re.sub(r"[^a-z]", "", name.lower())
    if key not in JANKO_NAMES:
        known = ", ".join(sorted(JANKO_NAMES))
        raise InstanceError(path, name_line, f"unsupported puzzle {name!r} (supported: {known})")
    puzzle = JANKO_NAMES[key]

    def number(k: str) -> int:
        value, no = setup[k]
        if not value.isdigit() or int(value) < 1:
            raise InstanceError(path, no, f"{k} {value!r} is not a positive integer")
        return int(value)

    if "rows" in setup or "cols" in setup:
        for k in ("rows", "cols"):
            if k not in setup:
                raise InstanceError(path, seen["setup"], f"[setup] has no '{k}' line")
        rows, cols = number("rows"), number("cols")
    elif "size" in setup:
        rows = cols = number("size")
    else:
        raise InstanceError(path, seen["setup"], "[setup] gives no 'size' (or 'rows' and 'cols')")

    def grid_of(sec: str) -> tuple[list[int], list[list[str]]]:
        rows_ = blocks[sec]
        if len(rows_) != rows:
            where = rows_[rows][0] if len(rows_) > rows else seen[sec]
            raise InstanceError(path, where, f"[{sec}] has {len(rows_)} rows, expected {rows}")
        for no, toks in rows_:
            if len(toks) != cols:
                raise InstanceError(path, no, f"[{sec}] row has {len(toks)} cells, expected {cols}")
        return [no for no, _ in rows_], [toks for _, toks in rows_]

    if "problem" not in seen:
        raise InstanceError(path, None, "no [problem] section")
    lines, raw_grid = grid_of("problem")
    grid: TokenGrid = _janko_rows(path, lines, raw_grid, puzzle, _janko_problem_token)
    header = {"puzzle": puzzle, "source": str(path)}
    if "author" in setup and setup["author"][0]:
        header["author"] = setup["author"][0]
    inst = instance_from_tokens(puzzle, header, grid, path, lines)
    inst = replace(inst, grid_first_line=lines[0])  # janko rows are one a line, in order

    if "solution" not in seen:
        return inst, None
    sol_lines, sol_raw = grid_of("solution")
    sol: SolutionGrid = _janko_rows(path, sol_lines, sol_raw, puzzle, _janko_solution_token)
    if puzzle == "shikaku":
        sol = _regions(sol)
    from bench.puzzles import get_puzzle

    problems = get_puzzle(puzzle).check(inst, sol)
    if problems:
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        raise InstanceError(path, seen["solution"],
                            f"[solution] breaks the rules: {problems[0]}{more}")
    return inst, sol


# --------------------------------------------------------------------------- writers


def instance_name(inst: Instance) -> str:
    """A stable file stem: ``<puzzle>-<cols>x<rows>-<hash>``, the hash (8 hex digits) being of
    the canonical puzz.link body, so the same puzzle gets the same name from any source."""
    try:
        body = encode_body(inst.puzzle, instance_tokens(inst))
    except InterchangeError:
        body = "\n".join(" ".join(row) for row in instance_tokens(inst))
    digest = hashlib.sha1(f"{inst.puzzle}/{inst.cols}/{inst.rows}/{body}".encode()).hexdigest()
    return f"{inst.puzzle}-{inst.cols}x{inst.rows}-{digest[:8]}"


def instance_text(inst: Instance) -> str:
    """The instance file text (the interchange format, header order kept)."""
    from bench.instance import format_instance

    return format_instance(inst)


def solution_text(solution: SolutionGrid) -> str:
    """A ``.sol`` file: the solution grid as a JSON list of rows, one row a line."""
    return "[\n" + ",\n".join(json.dumps(row, ensure_ascii=False) for row in solution) + "\n]\n"


def write_instance(inst: Instance, out_dir: str | Path,
                   solution: SolutionGrid | None = None) -> Path:
    """Write ``<out_dir>/<name>.txt`` (and ``<name>.sol`` when a solution is known)."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    name = instance_name(inst)
    path = out / f"{name}.txt"
    path.write_text(instance_text(inst), encoding="utf-8")
    sol_path = out / f"{name}.sol"
    if solution is not None:
        sol_path.write_text(solution_text(solution), encoding="utf-8")
    return path
