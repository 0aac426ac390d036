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
