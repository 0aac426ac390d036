"""No "issue N" or "#N" in the code, the tests, the instances, the README or the docs: readers
have no tracker, so a docstring states its contract, method and source, not where it was asked
for."""

from __future__ import annotations

import re
from pathlib import Path

from tests.docs._blocks import ROOT

ISSUE = re.compile(r"\bissues?[\s-]*#?\d+|\bPR\s*#?\d+", re.IGNORECASE)
#: "#12" after a space or bracket; .css/.js files (colours) are not scanned
HASH = re.compile(r"(?:^|[\s(\[,;])#\d{1,5}\b")


def scanned() -> list[Path]:
    files = [ROOT / "README.md", ROOT / "mkdocs.yml", ROOT / "pyproject.toml", ROOT / "noxfile.py"]
    files += [ROOT / "CHANGELOG.md", ROOT / ".ci" / "run"]
    for top in ("bench", "formulations", "docs", "tests", "instances"):
        files += [p for p in (ROOT / top).rglob("*")
                  if p.suffix in (".py", ".md", ".lp", ".toml", ".yml", ".txt") and p.is_file()]
    return sorted(p for p in files if p != Path(__file__))


def references(text: str) -> list[str]:
    return [m.group(0).strip() for m in (*ISSUE.finditer(text), *HASH.finditer(text))]


def test_the_patterns_catch_what_they_should() -> None:
    assert set(references("(README, issue 8) and issue-16, Issue #3, see #41; PR 7")) == {
        "issue 8", "issue-16", "Issue #3", "#3", "PR 7", "#41"}
    assert references("an issue with 3 cells, x[#1]") == ["[#1"]
    assert references("the issue: none; fill '#1f77b4'; 0x#12ab") == []


def test_no_tracker_references() -> None:
    found = []
    for path in scanned():
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            found += [f"{path.relative_to(ROOT)}:{n}: {r}" for r in references(line)]
    assert not found, "tracker references:\n" + "\n".join(found)
