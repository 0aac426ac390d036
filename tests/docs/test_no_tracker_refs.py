"""No "issue N" or "#N" in the code, the tests, the instances, the README or the docs: readers
have no tracker, so a docstring states its contract, method and source, not where it was asked
for. Likewise no path outside the repository (``../shared``) in the product, and no measured
timing ("took 3.2 s") or date in the code's docstrings and comments: measurements live on the
dated results pages."""

from __future__ import annotations

import re
from pathlib import Path

from tests.docs._blocks import ROOT

ISSUE = re.compile(r"\bissues?[\s-]*#?\d+|\bPR\s*#?\d+", re.IGNORECASE)
#: "#12" after a space or bracket, not followed by another "#" (a row of a grid picture, "#1##");
#: .css/.js files (colours) are not scanned
HASH = re.compile(r"(?:^|[\s(\[,;])#\d{1,5}\b(?!#)")
#: a reference to the material beside the repository, which a reader of the product lacks
OUTSIDE = re.compile(r"\.\./shared\b")
#: a measured time in prose: "took 3.2 s", "solves in about 40 ms", "ran in 12 min"
TIMING = re.compile(r"\b(?:took|takes|taking|ran in|runs in|solved in|solves in|finished in)\s+"
                    r"(?:about |under |over |~)?\d+(?:[.,]\d+)?\s?(?:s|ms|sec|seconds|min|minutes|"
                    r"h|hours|CPU-min)\b", re.IGNORECASE)
#: a calendar date, but for the name of a dated results page
DATE = re.compile(r"(?<!results/)\b20\d\d-[01]\d-[0-3]\d\b")


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
    assert references("      17 #1##BB##.#1#   #2#bb#") == []  # a grid picture's rows
    assert references("as #12.") == ["#12"]


def test_no_tracker_references() -> None:
    found = []
    for path in scanned():
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            found += [f"{path.relative_to(ROOT)}:{n}: {r}" for r in references(line)]
    assert not found, "tracker references:\n" + "\n".join(found)


def product() -> list[Path]:
    """What a user of the repository reads: the code, the instances, the docs, the config."""
    return [p for p in scanned() if not p.is_relative_to(ROOT / "tests")]


def notebook(text: str) -> list[str]:
    return [m.group(0) for m in (*TIMING.finditer(text), *DATE.finditer(text))]


def test_the_notebook_patterns_catch_what_they_should() -> None:
    assert OUTSIDE.findall("see ../shared/instance-format.md") == ["../shared"]
    assert notebook("it took 3.2 s; Solves in about 40 ms; ran in 12 min; on 2026-11-25") == [
        "took 3.2 s", "Solves in about 40 ms", "ran in 12 min", "2026-11-25"]
    assert notebook("docs/results/2026-11-25-dask-executor.md; killing it after 5 s; "
                    "takes a time limit; 10 ms polls") == []


def test_no_path_outside_the_repository() -> None:
    found = [f"{p.relative_to(ROOT)}:{n}: {line.strip()}" for p in product()
             for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
             if OUTSIDE.search(line)]
    assert not found, "references outside the repository:\n" + "\n".join(found)


def test_no_timings_or_dates_in_the_code() -> None:
    """bench/ and formulations/: contracts, methods and sources, not measurements or history."""
    files = [p for p in scanned() if p.suffix == ".py" and (
        p.is_relative_to(ROOT / "bench") or p.is_relative_to(ROOT / "formulations"))]
    found = [f"{p.relative_to(ROOT)}:{n}: {r}" for p in files
             for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
             for r in notebook(line)]
    assert not found, "timings or dates in the code:\n" + "\n".join(found)
