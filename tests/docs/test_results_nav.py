"""The nav's results section is generated (``docs/hooks_results.py``): every dated page, newest
first, titled by its first heading, with no nav line written by hand."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest
import yaml  # type: ignore[import-untyped]
from mkdocs.exceptions import PluginError

from tests.docs._blocks import ROOT

spec = importlib.util.spec_from_file_location("hooks_results", ROOT / "docs" / "hooks_results.py")
assert spec and spec.loader
hooks = importlib.util.module_from_spec(spec)
spec.loader.exec_module(hooks)


def uris(nav: list) -> list[str]:
    return [e if isinstance(e, str) else next(iter(e.values())) for e in nav]


def test_every_dated_page_is_in_the_section_newest_first() -> None:
    nav = hooks.results_nav(ROOT / "docs" / "results")
    pages = sorted(f"results/{p.name}" for p in (ROOT / "docs" / "results").glob("20*.md"))
    assert len(pages) >= 25
    assert uris(nav)[0] == "results/index.md"
    assert sorted(uris(nav)[1:]) == pages
    dates = [u[len("results/"):][:10] for u in uris(nav)[1:]]
    assert dates == sorted(dates, reverse=True)


def test_a_new_page_is_picked_up_with_its_heading(tmp_path: Path) -> None:
    (tmp_path / "index.md").write_text("# Results\n\n[b](2026-01-02-b.md) [a](2026-01-02-a.md)\n")
    (tmp_path / "2026-01-02-a.md").write_text("# A page\n")
    (tmp_path / "2026-01-02-b.md").write_text("intro\n\n# B page ##\n\n# later\n")
    (tmp_path / "2026-01-05-new.md").write_text("# New, not in the index\n")
    (tmp_path / "2025-12-31-old.md").write_text("# Old\n")
    (tmp_path / "notes.md").write_text("# not dated: left out\n")
    assert hooks.results_nav(tmp_path) == [
        "results/index.md",
        {"New, not in the index": "results/2026-01-05-new.md"},
        {"B page": "results/2026-01-02-b.md"},  # the index links b before a
        {"A page": "results/2026-01-02-a.md"},
        {"Old": "results/2025-12-31-old.md"},
    ]
    (tmp_path / "2026-01-06-bare.md").write_text("no heading\n")
    with pytest.raises(PluginError, match=r"2026-01-06-bare\.md"):
        hooks.results_nav(tmp_path)


def test_mkdocs_yml_leaves_the_section_to_the_hook() -> None:
    """The nav names only the index under Results; the hook replaces that entry in place."""
    text = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    config = yaml.safe_load(text)
    assert "docs/hooks_results.py" in config["hooks"]
    section = [e for e in config["nav"] if isinstance(e, dict) and "Results" in e]
    assert section == [{"Results": "results/index.md"}]
    nav = [{"Home": "index.md"}, {"Results": "results/index.md"}, {"Changelog": "changelog.md"}]
    out = hooks.on_config({"nav": nav, "docs_dir": str(ROOT / "docs")})["nav"]
    assert out[0] == {"Home": "index.md"} and out[2] == {"Changelog": "changelog.md"}
    assert len(out[1]["Results"]) >= 26
