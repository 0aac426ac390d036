"""End to end: the HTML report in headless Chromium (Debian package `chromium`; CI installs it,
elsewhere the test skips when no browser is installed)."""

from __future__ import annotations

import pytest

from bench.report import write_report
from tests.report.browser import chromium, probe, screenshot

EXE = chromium()
pytestmark = pytest.mark.skipif(
    EXE is None, reason="no Chromium (apt-get install chromium; .ci/run installs it)")


@pytest.mark.parametrize("which", ["mixed_run", "error_run"])
def test_report_in_a_real_browser(request, tmp_path, which):
    assert EXE is not None
    out = write_report(request.getfixturevalue(which), tmp_path / "rep")
    res = probe(out / "index.html", EXE)
    assert res["errors"] == [], res["errors"]
    assert res["broken"] == [], res["broken"]
    assert res["overflow"] == [], res["overflow"]
    assert res["pageWidth"] <= res["viewport"]
    if which == "mixed_run":
        assert res["images"] >= 10  # 5 figures x 2 puzzles + solution pictures
    png = screenshot(out / "index.html", EXE, tmp_path / "shot.png")
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size > 10_000


def test_the_probe_sees_a_broken_image_and_an_overflow(tmp_path):
    assert EXE is not None
    page = tmp_path / "bad.html"
    page.write_text("<!doctype html><html><head></head><body><img src='missing.png'>"
                    "<div style='width:5000px'>wide</div>"
                    "<script>console.error('boom')</script></body></html>")
    res = probe(page, EXE)
    assert res["broken"] and res["overflow"] and any("boom" in e for e in res["errors"])
