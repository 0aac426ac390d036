"""The docs site's reports (docs/hooks.py): rendered by `puzzlebench report` from a run's
committed data, cached under a digest of what they are made from, found from the pages' links
``reports/<run>/...``; the site's report picture shot from the headline run's report.

The run is ``tests/data/run-small``: a real run (`puzzlebench run --suite quick --puzzle
shikaku --formulation cpsat-cover --formulation sat-cover`), committed as its journal,
Parquet table, environment and constraints."""

from __future__ import annotations

import importlib.util
import json
import shutil
import struct
import subprocess
from pathlib import Path
from types import ModuleType

import pytest
from mkdocs.exceptions import PluginError

from tests.conftest import ROOT

SMALL = ROOT / "tests" / "data" / "run-small"


def _hooks() -> ModuleType:
    spec = importlib.util.spec_from_file_location("docs_hooks", ROOT / "docs" / "hooks.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


hooks = _hooks()


@pytest.fixture
def run(tmp_path: Path) -> Path:
    """The small run's committed data (what an evidence run keeps) in a results folder."""
    data = tmp_path / "results" / "small-run"
    data.mkdir(parents=True)
    for name in ("results.parquet", "environment.json", "constraints.txt"):
        shutil.copyfile(SMALL / name, data / name)
    return data


def test_the_small_run_is_a_real_run_with_its_journal() -> None:
    import pandas as pd

    results = pd.read_parquet(SMALL / "results.parquet")
    journal = (SMALL / "journal.jsonl").read_text(encoding="utf-8").splitlines()
    assert len(results) == len(journal) >= 10
    assert set(results["puzzle"]) == {"shikaku"} and results["checked"].all()
    assert json.loads((SMALL / "environment.json").read_text())


def test_a_report_renders_from_the_data_and_a_rebuild_reuses_it(run: Path,
                                                                 tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    first = hooks.render(run, cache)
    assert (first / "index.html").is_file() and first.parent == cache
    assert "shikaku" in (first / "summary.md").read_text(encoding="utf-8")
    stamp = (first / "index.html").stat().st_mtime_ns
    assert hooks.render(run, cache) == first  # the same data and code: nothing rendered
    assert (first / "index.html").stat().st_mtime_ns == stamp
    # the report's options changed: another key, rendered with them, the old folder removed
    (run / "report.json").write_text(json.dumps({"instance": ["seed-*"]}))
    second = hooks.render(run, cache)
    assert second != first and not first.exists()
    assert "Per instance (seed-*)" in (second / "summary.md").read_text(encoding="utf-8")
    assert [p.name for p in cache.iterdir()] == [second.name]


def test_the_key_follows_the_data_and_the_instances_it_names(run: Path) -> None:
    key = hooks.report_key(run)
    assert hooks.report_key(run) == key
    env = json.loads((run / "environment.json").read_text())  # a list of records
    (run / "environment.json").write_text(json.dumps([*env, {**env[-1], "cpu": "another"}]))
    assert hooks.report_key(run) != key
    assert any(p.startswith("instances/shikaku/")
               for p in hooks._instance_paths(run / "results.parquet"))


def test_bad_data_stops_the_build_naming_the_run(run: Path, tmp_path: Path) -> None:
    (run / "report.json").write_text('{"instances": ["seed-*"]}')  # not a report option
    with pytest.raises(PluginError, match=r"report\.json: expected"):
        hooks.render(run, tmp_path / "cache")
    (run / "report.json").write_text("{")
    with pytest.raises(PluginError, match=r"report\.json: not JSON"):
        hooks.render(run, tmp_path / "cache")
    (run / "report.json").unlink()
    (run / "results.parquet").write_bytes(b"not parquet")
    with pytest.raises(PluginError, match="small-run: `puzzlebench report` failed"):
        hooks.render(run, tmp_path / "cache")
    assert not any((tmp_path / "cache").iterdir())  # nothing half-written is kept


def test_reports_are_found_from_the_pages_links(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    (docs / "results").mkdir(parents=True)
    (docs / "index.md").write_text("[a](reports/run-a/index.html) [x](https://e.org/reports/x/)")
    (docs / "results" / "p.md").write_text(
        "[b](../reports/run-b/index.html#top), [c](../reports/run-c/nurikabe-cactus.png), "
        "[a again](../reports/run-a/index.html)")
    assert hooks.linked_reports(docs) == {"run-a": "index.md", "run-b": "results/p.md",
                                          "run-c": "results/p.md"}
    (docs / "bad.md").write_text("[folder](reports/run-d/)")
    with pytest.raises(PluginError, match=r"bad\.md: a link to reports/run-d/"):
        hooks.linked_reports(docs)


def test_every_report_the_docs_link_has_its_data_or_its_page() -> None:
    runs = hooks.linked_reports(ROOT / "docs")
    assert len(runs) >= 20
    where = {run: hooks.source(run) for run in runs}  # raises for a run with neither
    pages = sorted(run for run, p in where.items() if p.parent == hooks.PAGES)
    assert pages == ["default-20261122-012324", "scaling"]  # from before runs kept a table
    with pytest.raises(PluginError, match="no-such-run"):
        hooks.source("no-such-run")


def test_the_home_page_links_the_headline_runs_report() -> None:
    """The picture's run: the latest default run with data, whose report the home page links."""
    head = hooks.headline()
    assert head is not None and head.startswith("default-")
    assert f"](reports/{head}/index.html)" in (ROOT / "docs" / "index.md").read_text()


def test_the_quick_start_page_is_the_readmes_section() -> None:
    page = hooks.quickstart_page()
    assert page.startswith("# Quick start\n")
    assert "puzzlebench report results/quick-shikaku" in page and "## " not in page


def test_an_evidence_runs_data_is_not_ignored_and_the_rest_is() -> None:
    if not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    names = ["results/new-run/results.parquet", "results/new-run/environment.json",
             "results/new-run/constraints.txt", "results/new-run/report.json",
             "results/new-run/journal.jsonl", "reports/new-run/index.html"]
    p = subprocess.run(["git", "check-ignore", "--no-index", *names], cwd=ROOT,
                       capture_output=True, text=True, check=False)
    assert p.stdout.split() == names[4:]


def _png_size(path: Path) -> tuple[int, int]:
    head = path.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", head[16:24])


@pytest.mark.skipif(hooks.chromium() is None, reason="no Chromium (apt-get install chromium)")
def test_the_picture_is_the_first_screen_of_a_report(run: Path, tmp_path: Path) -> None:
    report = hooks.render(run, tmp_path / "cache")
    png = tmp_path / "shot.png"
    assert hooks.shoot(report, png)
    assert _png_size(png) == hooks.SHOT
