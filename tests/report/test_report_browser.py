"""End to end: the HTML report in a real browser (Debian's `chromium`, driven by Playwright on
the system executable; CI installs it, elsewhere the tests skip with the reason). The report is
loaded from file:// as a reader's browser loads it, 1400 px wide: no console error, a header
click sorts, a filter reduces the rows, an instance link opens its view with its picture, no
element is wider than the viewport; the committed default run's report stays short with its
folds closed and small on disk."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from bench.report import figures, write_report
from tests.conftest import ROOT
from tests.report.page import (
    BROKEN,
    OVERFLOW,
    browser,
    open_folds,
    open_report,
    playwright_missing,
)

WHY = playwright_missing()
pytestmark = pytest.mark.skipif(WHY is not None, reason=WHY or "")
DEFAULT_RUN = ROOT / "results" / "default-20261128-010414"  # its committed data


def folder_mb(folder: Path) -> float:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file()) / 1e6


@pytest.fixture(scope="module")
def mixed_report(mixed_run: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_report(mixed_run, tmp_path_factory.mktemp("page") / "rep")


def _rows(page, table) -> list[str]:
    return table.locator("tbody tr td:first-child").all_inner_texts()


def test_the_page_loads_sorts_filters_and_fits(mixed_report: Path) -> None:
    from playwright.sync_api import expect

    with browser() as ctx:
        page = open_report(ctx, mixed_report)
        assert page.evaluate("typeof window.pbDT.default") == "function"
        # the tables outside folds are interactive at once; those in folds when opened
        assert page.locator(".dt-container").count() >= 2
        assert page.locator("details table.dt.dataTable").count() == 0
        open_folds(page)
        assert page.locator(".dt-container").count() >= 4
        assert page.evaluate(BROKEN) == []
        fit = page.evaluate(OVERFLOW)
        assert fit["over"] == [] and fit["pageWidth"] <= fit["vw"] == 1400, fit
        # a header click sorts: the Nurikabe status matrix by instance name, both ways
        matrix = page.locator("#nurikabe table.matrix")
        names = _rows(page, matrix)
        assert len(names) == 2 and sorted(names) != sorted(names, reverse=True)
        # (DataTables redraws after the click's handler returns: expect() waits for it)
        first = matrix.locator("tbody tr td:first-child")
        matrix.locator("thead th").first.click()
        expect(first).to_have_text(sorted(names))
        matrix.locator("thead th").first.click()
        expect(first).to_have_text(sorted(names, reverse=True))
        # a filter reduces the rows: the full ranking filtered by solver
        ranking = page.locator("#nurikabe details table.rank")
        before = ranking.locator("tbody tr").count()
        box = page.locator("#nurikabe details .filters input[data-column='1']")
        box.fill("glpk")
        after = _rows(page, ranking)
        assert 0 < len(after) < before and all("mip" in f for f in after)
        assert ctx.errors == [], ctx.errors


def _filter(page, puzzle: str, header: str):
    label = page.locator(f"#{puzzle} details .filters label",
                         has_text=re.compile(rf"^{header}\s*$"))
    return label.locator("input")


def test_a_filter_matches_whole_names(mixed_report: Path) -> None:
    """'sat' finds the formulation sat-tree (a name, then '-'), not cpsat-cover; 'cpsat' finds
    cpsat-cover; a solver filter finds the whole solver name only."""
    with browser() as ctx:
        page = open_report(ctx, mixed_report)
        open_folds(page)
        shikaku = page.locator("#shikaku details table.rank")
        nurikabe = page.locator("#nurikabe details table.rank")
        _filter(page, "shikaku", "formulation").fill("sat")
        assert [r for r in _rows(page, shikaku) if "cpsat" in r] == []
        _filter(page, "shikaku", "formulation").fill("cpsat")
        assert _rows(page, shikaku) == ["cpsat-cover"]
        _filter(page, "shikaku", "formulation").fill("")
        assert len(_rows(page, shikaku)) == 2
        _filter(page, "shikaku", "solver").fill("sat")  # the solver is "cpsat"
        assert [r for r in _rows(page, shikaku) if "cpsat" in r] == []
        _filter(page, "nurikabe", "formulation").fill("SAT")
        assert _rows(page, nurikabe) == ["sat-tree"]
        _filter(page, "nurikabe", "formulation").fill("sat-t")  # a part of a name: nothing
        assert "sat-tree" not in _rows(page, nurikabe)
        assert ctx.errors == [], ctx.errors


def test_figures_are_at_twice_the_resolution_with_legible_legends(mixed_report: Path) -> None:
    """Every figure's PNG holds 2 device pixels per CSS pixel it is shown at, so its legend
    text (set at LEGEND_PT) is at least 11 px on the page."""
    from PIL import Image

    pngs = sorted(mixed_report.glob("*.png"))
    figs = [p for p in pngs if any(k in p.name for k in ("cactus", "profile", "scaling"))]
    assert figs, pngs
    for p in figs:
        with Image.open(p) as im:
            assert round(im.info["dpi"][0]) >= 192, (p.name, im.info.get("dpi"))
    with browser() as ctx:
        page = open_report(ctx, mixed_report)
        open_folds(page)
        shown = page.evaluate("""() => [...document.querySelectorAll('.figs img')].map(i =>
            [i.getAttribute('src'), i.naturalWidth, i.getBoundingClientRect().width])""")
        assert len(shown) >= len(figs)
        for src, natural, width in shown:
            scale = natural / width  # device pixels of the PNG per CSS pixel on the page
            assert scale >= 1.99, (src, natural, width)
            legend_px = figures.LEGEND_PT * figures.DPI / 72 / scale
            assert legend_px >= 11, (src, legend_px)
        assert ctx.errors == [], ctx.errors


def test_an_instance_link_opens_its_view_with_its_picture(mixed_report: Path) -> None:
    with browser() as ctx:
        page = open_report(ctx, mixed_report)
        assert page.locator("#iv").is_hidden()
        # the layout settled before the click (a picture loading late could move the link)
        open_folds(page)
        link = page.locator("#shikaku table.matrix a", has_text="seed-10x10")
        link.click()
        view = page.locator("#iv")
        view.wait_for(state="visible")  # the hashchange handler runs after the click
        assert "shikaku: seed-10x10" in view.locator("h2").inner_text()
        # the grid lines and the region borders (one path each) and the clues
        assert view.locator('svg path[stroke-width="3"]').count() == 1
        assert view.locator("svg path").count() == 2 and view.locator("svg text").count() > 5
        pairs = view.locator("tbody tr td:first-child").all_inner_texts()
        assert set(pairs) == {"cpsat-cover / cpsat", "mip-cover / highs"}
        page.locator("#iv-close").click()
        view.wait_for(state="hidden")
        assert "#i/" not in page.url
        # the address of a view opens it directly (a link shared by a reader)
        page.goto((mixed_report / "index.html").as_uri() + "#i/nurikabe/gen-nurikabe-40x40-s1-0")
        page.locator("#iv").wait_for(state="visible")
        assert page.locator("#iv tr.fail").count() >= 1  # the timeout and the memout
        assert ctx.errors == [], ctx.errors


def test_the_checks_can_fail(tmp_path: Path) -> None:
    page_file = tmp_path / "bad.html"
    page_file.write_text("<!doctype html><html><head></head><body><img src='missing.png'>"
                         "<div style='width:5000px'>wide</div>"
                         "<script>console.error('boom')</script></body></html>")
    with browser() as ctx:
        page = ctx.new_page()
        page.goto(page_file.as_uri(), wait_until="load")
        assert page.evaluate(BROKEN) and page.evaluate(OVERFLOW)["over"]
        assert any("boom" in e for e in ctx.errors)


def test_the_default_runs_report_is_short_and_small(tmp_path: Path) -> None:
    """The committed default run's results, reported afresh: under 20,000 px with the folds
    closed, the folder under 10 MB, every instance with a view."""
    run = tmp_path / "run"
    run.mkdir()
    shutil.copyfile(DEFAULT_RUN / "results.parquet", run / "results.parquet")
    for name in ("environment.json", "constraints.txt"):
        shutil.copyfile(DEFAULT_RUN / name, run / name)
    out = write_report(run, tmp_path / "rep")
    assert folder_mb(out) < 10
    with browser() as ctx:
        page = open_report(ctx, out)
        closed = page.evaluate("document.documentElement.scrollHeight")
        assert closed < 20_000, closed
        # the instances' data is not loaded with the page; the first view loads it
        assert page.evaluate("window.PB_INSTANCES === undefined")
        n = page.evaluate("window.pbInstances().then(d => Object.keys(d.views).length)")
        assert n == 146  # the default suite v9's instances
        assert page.evaluate(OVERFLOW)["over"] == []
        # the verdict matrix, the first screen, fits 1400 px without scrolling sideways
        fits = page.evaluate("(s => [s.scrollWidth, s.clientWidth])"
                             "(document.querySelector('#verdicts .scroll'))")
        assert fits[0] <= fits[1], fits
        # the first screen (1400 x 900, not scrolled): the legend of the labels, then a verdict
        # for every puzzle x tier, one line each
        first = page.evaluate("""() => {
            const box = e => e.getBoundingClientRect();
            const rows = [...document.querySelectorAll('#verdicts table.verdicts tbody tr')];
            const legend = document.querySelector('#legend');
            return {vh: innerHeight, rows: rows.length,
                    cells: rows.map(r => r.cells[0].innerText + ' ' + r.cells[1].innerText),
                    bottom: Math.max(...rows.map(r => box(r).bottom)),
                    legend: legend ? [box(legend).top, box(legend).bottom, legend.innerText]
                                   : null,
                    table: box(document.querySelector('#verdicts table.verdicts')).top,
                    untitled: [...document.querySelectorAll('#verdicts table.verdicts th')]
                        .filter(th => !th.title).map(th => th.innerText)};
        }""")
        tiers = {"fillomino": 3, "nurikabe": 4, "shakashaka": 4, "shikaku": 4, "yinyang": 3}
        for puzzle, n in tiers.items():
            assert sum(c.startswith(puzzle + " ") for c in first["cells"]) >= n, first["cells"]
        assert first["bottom"] <= first["vh"] == 900, first
        assert first["legend"] is not None, first
        _, bottom, text = first["legend"]
        assert bottom <= first["table"] and bottom <= first["vh"], first
        for label in ("separated", "equivalent", "inconclusive", "not run"):
            assert label in text, text
        # a hover definition on every statistic header (the puzzle's name needs none)
        assert first["untitled"] == ["puzzle"], first["untitled"]
        # the less important columns behind the button: hidden, then shown on a click
        note = page.locator("#verdicts table.verdicts th", has_text="separable")
        assert note.is_hidden()
        page.locator("#verdicts button.more-cols").click()
        assert note.is_visible()
        assert ctx.errors == [], ctx.errors


def test_the_solver_views_open_with_legible_figures(tmp_path: Path) -> None:
    """The CPMpy run's report (tests/data/run-cpmpy): the same-model and same-solver folds
    closed on load (their tables set up when opened), then every table interactive, every
    cactus drawn at 2x with a legend of at least 11 px, nothing wider than the page."""
    run = tmp_path / "run"
    shutil.copytree(ROOT / "tests" / "data" / "run-cpmpy", run)
    out = write_report(run, tmp_path / "rep")
    with browser() as ctx:
        page = open_report(ctx, out)
        folds = page.locator("details.views")
        assert folds.count() == 10
        assert page.locator("details.views table.dt.dataTable").count() == 0
        open_folds(page)
        assert page.locator("details.views table.dataTable").count() == 16  # 6 + 10 groups
        shown = page.evaluate("""() => [...document.querySelectorAll('details.views img')]
            .map(i => [i.getAttribute('src'), i.naturalWidth,
                       i.getBoundingClientRect().width])""")
        assert len(shown) == 6, shown
        for src, natural, width in shown:
            scale = natural / width
            assert scale >= 1.99, (src, natural, width)
            assert figures.LEGEND_PT * figures.DPI / 72 / scale >= 11, src
        assert page.evaluate(BROKEN) == []
        fit = page.evaluate(OVERFLOW)
        assert fit["over"] == [] and fit["pageWidth"] <= fit["vw"], fit
        assert ctx.errors == [], ctx.errors


def test_a_formulation_filter_finds_its_variants(tmp_path: Path) -> None:
    """A formulation's name finds its variants ('cpmpy-islands' finds 'cpmpy-islands[wall=lazy]'
    and '[wall=tree]': a name ends at '['), a variant's full name only itself, in the CPMpy
    run's Nurikabe ranking of every pair."""
    run = tmp_path / "run"
    shutil.copytree(ROOT / "tests" / "data" / "run-cpmpy", run)
    out = write_report(run, tmp_path / "rep")
    with browser() as ctx:
        page = open_report(ctx, out)
        open_folds(page)
        ranking = page.locator("#nurikabe details table.rank").first
        every = _rows(page, ranking)
        islands = [f for f in every if f.startswith("cpmpy-islands[")]
        assert len(islands) == 12, every  # two variants on six solvers
        box = _filter(page, "nurikabe", "formulation").first
        box.fill("cpmpy-islands")
        assert sorted(_rows(page, ranking)) == sorted(islands)
        box.fill("cpmpy-islands[wall=lazy]")
        assert _rows(page, ranking) == ["cpmpy-islands[wall=lazy]"] * 6
        box.fill("cpmpy-island")  # a part of a name: nothing
        assert "cpmpy-islands[wall=lazy]" not in _rows(page, ranking)
        assert ctx.errors == [], ctx.errors
