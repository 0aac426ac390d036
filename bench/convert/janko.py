"""janko.at text files, read generically; each puzzle's tokens are declared in its codec.py.

``[setup]`` (``puzzle``, ``size`` or ``rows`` and ``cols``; other keys ignored except
``author``), ``[problem]``, optional ``[solution]`` (read as the known solution and checked
against the rules), ``[moves]`` and any other section ignored, ``[end]``. Problem tokens:
``-`` empty, numbers, ``x`` black (Shakashaka), ``w``/``b`` stones (Yin-Yang). Solution tokens:
Nurikabe ``x`` black, ``-`` or a number white; Yin-Yang ``w``/``b``; Shakashaka ``-`` white
(janko also writes ``-`` on the problem's black cells, which stay black whatever is written
there), ``x`` or a number a given black cell, and ``nw``/``ne``/``se``/``sw`` a
half-black triangle **named by its black corner** (``nw`` = ``◤``, ``ne`` = ``◥``, ``se`` =
``◢``, ``sw`` = ``◣``);
Fillomino the number; Shikaku any token per cell, each 4-connected area of equal tokens being
one rectangle. A solution that breaks the rules is an error rather than a silently wrong
``.sol`` file (so a mistaken triangle convention shows up).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from bench.codec import Codec, JankoTokens, janko_table
from bench.instance import Instance, InstanceError, instance_from_tokens
from bench.puzzles import SolutionGrid, get_puzzle

GRID_SECTIONS = ("problem", "solution")


def problem_token(janko: JankoTokens, puzzle: str, tok: str) -> str:
    t = tok.lower()
    if t == "-":
        return "."
    if t == "?":
        raise ValueError("'?' clue (number unknown) is not supported by the instance format")
    if t in janko.problem:
        return janko.problem[t]
    if janko.problem_numbers and t.isdigit():
        return str(int(t))
    raise ValueError(f"illegal {puzzle} problem token {tok!r}")


def solution_token(janko: JankoTokens, puzzle: str, tok: str) -> Any:
    t = tok.lower()
    if t in janko.solution:
        return janko.solution[t]
    if janko.solution_number is not None and t.isdigit():
        value = janko.solution_number(int(t))
        if value is not None:
            return value
    if janko.solution_raw:
        return tok
    raise ValueError(f"illegal {puzzle} solution token {tok!r}")


@dataclass
class JankoFile:
    """The sections of a janko.at file: ``[setup]`` entries and the grid sections' rows, each
    with its file line; ``seen`` is the line of every section header."""

    path: str | Path
    setup: dict[str, tuple[str, int]] = field(default_factory=dict)
    blocks: dict[str, list[tuple[int, list[str]]]] = field(
        default_factory=lambda: {s: [] for s in GRID_SECTIONS})
    seen: dict[str, int] = field(default_factory=dict)

    def number(self, k: str) -> int:
        value, no = self.setup[k]
        if not value.isdigit() or int(value) < 1:
            raise InstanceError(self.path, no, f"{k} {value!r} is not a positive integer")
        return int(value)

    def size(self) -> tuple[int, int]:
        """``(rows, cols)`` from ``rows``/``cols`` or ``size``."""
        if "rows" in self.setup or "cols" in self.setup:
            for k in ("rows", "cols"):
                if k not in self.setup:
                    raise InstanceError(self.path, self.seen["setup"], f"[setup] has no '{k}' line")
            return self.number("rows"), self.number("cols")
        if "size" in self.setup:
            return self.number("size"), self.number("size")
        raise InstanceError(self.path, self.seen["setup"],
                            "[setup] gives no 'size' (or 'rows' and 'cols')")

    def grid(self, sec: str, rows: int, cols: int) -> tuple[list[int], list[list[str]]]:
        """The file lines and tokens of a grid section, its shape checked."""
        rows_ = self.blocks[sec]
        if len(rows_) != rows:
            where = rows_[rows][0] if len(rows_) > rows else self.seen[sec]
            raise InstanceError(self.path, where, f"[{sec}] has {len(rows_)} rows, expected {rows}")
        for no, toks in rows_:
            if len(toks) != cols:
                raise InstanceError(self.path, no,
                                    f"[{sec}] row has {len(toks)} cells, expected {cols}")
        return [no for no, _ in rows_], [toks for _, toks in rows_]

    def codec(self) -> Codec:
        if "setup" not in self.seen:
            raise InstanceError(self.path, None, "no [setup] section: not a janko.at puzzle file")
        if "puzzle" not in self.setup:
            raise InstanceError(self.path, self.seen["setup"], "[setup] has no 'puzzle' line")
        name, name_line = self.setup["puzzle"]
        key = re.sub(r"[^a-z]", "", name.lower())
        table = janko_table()
        if key not in table:
            known = ", ".join(sorted(table))
            raise InstanceError(self.path, name_line,
                                f"unsupported puzzle {name!r} (supported: {known})")
        return table[key]


def sections(text: str, path: str | Path) -> JankoFile:
    """Split a janko.at file into its sections (nothing after ``[end]`` is read)."""
    f = JankoFile(path)
    section = ""
    for no, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        m = re.fullmatch(r"\[(\w+)\]", line)
        if m:
            section = m.group(1).lower()
            if section in f.seen and section in ("setup", *GRID_SECTIONS):
                raise InstanceError(path, no, f"second [{section}] section")
            f.seen[section] = no
            if section == "end":
                break
            continue
        if section == "setup":
            key, *value = re.split(r"\s*=\s*|\s+", line, maxsplit=1)
            f.setup[key.lower()] = ((value[0] if value else "").strip(), no)
        elif section in f.blocks:
            f.blocks[section].append((no, line.split()))
    return f


def translate(path: str | Path, lines: Sequence[int], raw: Sequence[Sequence[str]],
              token: Callable[[str], Any]) -> list[list[Any]]:
    """Translate a janko grid section token by token; errors name the file line and column."""
    out: list[list[Any]] = []
    for no, toks in zip(lines, raw, strict=True):
        row = []
        for c, tok in enumerate(toks):
            try:
                row.append(token(tok))
            except ValueError as e:
                raise InstanceError(path, no, f"column {c}: {e}") from None
        out.append(row)
    return out


def read_janko(text: str, path: str | Path = "<janko>") -> tuple[Instance, SolutionGrid | None]:
    """A janko.at puzzle file: the validated instance and the known solution (or None).

    Raises :class:`InstanceError` (``"<file>:<line>: <problem>"``) on any problem, including
    a ``[solution]`` that the puzzle's verifier rejects."""
    f = sections(text, path)
    codec = f.codec()
    puzzle, janko = codec.puzzle, codec.janko
    rows, cols = f.size()
    if "problem" not in f.seen:
        raise InstanceError(path, None, "no [problem] section")
    lines, raw_grid = f.grid("problem", rows, cols)
    grid = translate(path, lines, raw_grid, lambda t: problem_token(janko, puzzle, t))
    header = {"puzzle": puzzle, "source": str(path)}
    if "author" in f.setup and f.setup["author"][0]:
        header["author"] = f.setup["author"][0]
    inst = instance_from_tokens(puzzle, header, grid, path, lines)
    inst = replace(inst, grid_first_line=lines[0])  # janko rows are one a line, in order

    if "solution" not in f.seen:
        return inst, None
    sol_lines, sol_raw = f.grid("solution", rows, cols)
    sol = translate(path, sol_lines, sol_raw, lambda t: solution_token(janko, puzzle, t))
    if janko.given is not None:
        for r, row in enumerate(grid):
            for c, tok in enumerate(row):
                if tok != "." and (value := janko.given(tok)) is not None:
                    sol[r][c] = value
    if janko.regroup is not None:
        sol = janko.regroup(sol)
    problems = get_puzzle(puzzle).verify(inst, sol)
    if problems:
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        raise InstanceError(path, f.seen["solution"],
                            f"[solution] breaks the rules: {problems[0]}{more}")
    return inst, sol
