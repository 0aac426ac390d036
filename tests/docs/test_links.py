"""The README's relative links and images point at files of the repository (the docs pages'
links are checked by `mkdocs build --strict`, see docs/hooks.py)."""

from __future__ import annotations

import re

from tests.docs._blocks import ROOT

LINK = re.compile(r"\]\((?!https?:|mailto:|#)([^)\s]+?)(?:#[^)\s]*)?\)")


def test_readme_links_resolve() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    targets = LINK.findall(text)
    assert "docs/img/report.png" in targets and len(targets) >= 10
    missing = [t for t in targets if not (ROOT / t).exists()]
    assert not missing, f"README links to missing files: {missing}"


PATH = re.compile(r"`((?:bench|tests|formulations|instances|docs|benchmarks)/[^`\s]*)`")


def test_paths_named_in_the_docs_exist() -> None:
    """A file or folder of the repository named in the README or a docs page (the dated results
    pages excepted: they name what existed when they were measured) exists, so a move or a
    rename cannot leave the docs behind. Patterns (`<puzzle>`, globs) are skipped."""
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    named = {(page.name, p) for page in pages
             for p in PATH.findall(page.read_text(encoding="utf-8"))
             if not any(c in p for c in "<*[{") and "..." not in p}
    assert len(named) >= 30
    missing = sorted(f"{page}: {p}" for page, p in named if not (ROOT / p).exists())
    assert not missing, "paths that do not exist:\n" + "\n".join(missing)
