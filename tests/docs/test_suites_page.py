"""Every suite of ``instances/suites.toml`` has its section in ``docs/suites.md`` (the rationale,
the commands that made its instances and its versions live there, not in the file), and the
file's comments stay one-liners: no block of notes grows back into the data."""

from __future__ import annotations

import re
import tomllib

from tests.docs._blocks import ROOT

SUITES = ROOT / "instances" / "suites.toml"
PAGE = ROOT / "docs" / "suites.md"


def sections(markdown: str) -> list[str]:
    """The names of the page's second-level headings, in order."""
    return [m.group(1).strip() for m in re.finditer(r"^## (.+)$", markdown, re.MULTILINE)]


def comment_runs(text: str) -> list[int]:
    """The lengths of the runs of consecutive full-line comments."""
    runs, n = [], 0
    for line in text.splitlines():
        if line.lstrip().startswith("#"):
            n += 1
        elif n:
            runs.append(n)
            n = 0
    return [*runs, n] if n else runs


def test_every_suite_has_a_section_in_file_order() -> None:
    suites = list(tomllib.loads(SUITES.read_text(encoding="utf-8")))
    assert len(suites) >= 10
    assert sections(PAGE.read_text(encoding="utf-8")) == suites


def test_the_check_fails_on_a_missing_section() -> None:
    page = PAGE.read_text(encoding="utf-8").replace("\n## few\n", "\n## few-clue\n")
    suites = list(tomllib.loads(SUITES.read_text(encoding="utf-8")))
    assert sections(page) != suites


def test_suites_toml_comments_stay_short() -> None:
    """At most the three-line header, elsewhere one line at a time."""
    runs = comment_runs(SUITES.read_text(encoding="utf-8"))
    assert runs[0] <= 3 and all(r == 1 for r in runs[1:]), runs
    assert comment_runs("# a\n# b\nx = 1\n# c\n") == [2, 1]
