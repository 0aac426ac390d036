"""The command examples of README.md and docs/: fenced code blocks, read as a reader copies them."""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FENCE = re.compile(r"^(\s*)(```|~~~)")


def documents() -> list[Path]:
    """README.md and every Markdown page of the docs site."""
    return [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


@dataclass(frozen=True)
class Command:
    path: Path
    line: int  # 1-based line of the command's first line
    text: str  # continuation lines joined

    def argv(self) -> list[str]:
        """Split as a POSIX shell does, a trailing `# comment` dropped."""
        return shlex.split(self.text, comments=True)

    def where(self) -> str:
        return f"{self.path.relative_to(ROOT)}:{self.line}: {self.text}"


def blocks(path: Path) -> list[tuple[int, list[str]]]:
    """The fenced code blocks of a Markdown file: (line of the first content line, lines)."""
    out: list[tuple[int, list[str]]] = []
    current: list[str] | None = None
    start = fence = ""
    first = 0
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        m = FENCE.match(line)
        if current is None:
            if m:
                current, fence, first = [], m.group(2), n + 1
                start = m.group(1)
        elif m and m.group(2) == fence and line.strip() == fence and m.group(1) == start:
            out.append((first, current))
            current = None
        else:
            current.append(line)
    return out


def commands(path: Path, program: str = "puzzlebench") -> list[Command]:
    """Every command line of ``program`` in the file's code blocks (a `$ ` prompt dropped, lines
    ending in a backslash joined with the next)."""
    found: list[Command] = []
    for first, lines in blocks(path):
        i = 0
        while i < len(lines):
            n, text = first + i, lines[i].strip().removeprefix("$ ")
            while text.endswith("\\") and i + 1 < len(lines):
                i += 1
                text = text[:-1] + " " + lines[i].strip()
            if text.split(" ", 1)[0] == program:
                found.append(Command(path, n, text))
            i += 1
    return found
