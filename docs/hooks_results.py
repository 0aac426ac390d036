"""MkDocs hook: the nav's results section is generated from the files under ``docs/results/``.

The ``Results`` entry of ``mkdocs.yml``'s nav is replaced, whatever it lists, by the results
index page (``results/index.md``) followed by every other dated page ``results/YYYY-MM-DD-*.md``,
newest first, each titled by its first ``# `` heading. Pages of one date keep the order in which
the index links them (a page the index does not link comes after those, by name). A new page
needs no nav line; a page without a ``# `` heading stops the build.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from mkdocs.exceptions import PluginError

SECTION = "Results"
INDEX = "results/index.md"
DATED = re.compile(r"^(\d{4}-\d{2}-\d{2})-.+\.md$")
HEADING = re.compile(r"^# +(.+?)\s*#*\s*$", re.MULTILINE)


def title(path: Path) -> str:
    """The text of the page's first level-one heading."""
    m = HEADING.search(path.read_text(encoding="utf-8"))
    if m is None:
        raise PluginError(f"{path}: a results page needs a '# ' heading (its nav title)")
    return m.group(1)


def results_nav(results: Path) -> list[Any]:
    """The section's entries: the index, then ``{title: uri}`` for each dated page."""
    index = (results / "index.md").read_text(encoding="utf-8")
    linked = {name: index.find(f"({name}") for name in re.findall(r"\(([^)#\s]+\.md)", index)}
    pages = [p for p in results.glob("*.md") if DATED.match(p.name)]
    pages.sort(key=lambda p: (linked.get(p.name, len(index)), p.name))
    pages.sort(key=lambda p: p.name[:10], reverse=True)  # stable: a date's order is kept
    return [INDEX, *({title(p): f"results/{p.name}"} for p in pages)]


def on_config(config: Any) -> Any:
    nav = config.get("nav")
    if not nav:
        return config
    for i, entry in enumerate(nav):
        if isinstance(entry, dict) and SECTION in entry:
            nav[i] = {SECTION: results_nav(Path(config["docs_dir"]) / "results")}
            return config
    raise PluginError(f"mkdocs.yml: the nav has no '{SECTION}' section for the results pages")
