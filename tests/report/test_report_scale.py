"""The report stays readable at 5 puzzles x 20 pairs x 1,000 instances (a synthetic 100,000-task
run): tables page and fold, figures stay a fixed number per puzzle, the page a reader first
sees (folds closed) is not thousands of table rows long, and in a real browser from file:// it
opens, sorts and filters without a console error, its folder under 30 MB. Slow (the report of
100k tasks takes minutes): `pytest -m slow tests/report/test_report_scale.py`."""

from __future__ import annotations

import json
import random
import re
import time

import pytest

from bench.records import Result
from bench.report import write_report
from bench.report.sections import VIEW_FIGURES
from bench.run.storage import Journal, consolidate
from tests.report.page import OVERFLOW, browser, open_report, playwright_missing
from tests.report.test_report_browser import folder_mb

PUZZLES = ["fillomino", "nurikabe", "shakashaka", "shikaku", "yinyang"]
FORMS = ["sat-a", "sat-b", "sat-c", "cpsat-a", "cpsat-b", "mip-a", "mip-b"]
SOLVERS = {"sat": ["cadical195", "glucose4", "kissat404", "minisat22"], "cpsat": ["cpsat"],
           "mip": ["highs", "glpk", "cbc"]}
INSTANCES = 1000


def results(seed: int = 1):
    """20 pairs per puzzle (three SAT formulations on 4 solvers, two CP-SAT ones, two MIP ones
    on 3 solvers), 1,000 instances of growing size each."""
    rnd = random.Random(seed)
    pairs = [(f, s) for f in FORMS for s in SOLVERS[f.split("-")[0]]][:20]
    for puzzle in PUZZLES:
        for i in range(INSTANCES):
            size = 5 + i % 46
            for form, solver in pairs:
                status = "solved" if rnd.random() < 0.93 else rnd.choice(
                    ["timeout", "memout", "error"])
                build, solve = rnd.random() / 50, rnd.lognormvariate(-4, 1.5) * size / 10
                yield Result(
                    key=f"{puzzle}/gen-{puzzle}-{size}x{size}-s{i}.txt|{form}|{solver}|seed=0",
                    puzzle=puzzle, instance=f"gen-{puzzle}-{size}x{size}-s{i}-0",
                    instance_path=f"gen-{puzzle}-{size}x{size}-s{i}-0.txt", rows=size,
                    cols=size, formulation=form, kind=form.split("-")[0], solver=solver,
                    solver_version="1", status=status,  # type: ignore[arg-type]
                    build_s=build, solve_s=min(solve, 20.0), solver_s=solve * 0.9,
                    wall_s=build + solve + 0.015, overhead_s=0.015, cpu_s=build + solve,
                    peak_rss_mb=30 + size, base_rss_mb=25.0, start="fork", time_limit=20.0,
                    variables=size * size * 5, constraints=size * size * 20, iterations=1,
                    exact=True, checked=status == "solved", grid=None)


@pytest.mark.slow
def test_a_100k_task_report_stays_readable(tmp_path):
    folder = tmp_path / "run"
    folder.mkdir()
    n = 0
    with open(Journal(folder).path, "w") as f:
        for r in results():
            f.write(json.dumps(r.to_dict()) + "\n")
            n += 1
    assert n == 5 * 20 * INSTANCES
    consolidate(folder)
    t0 = time.perf_counter()
    out = write_report(folder, tmp_path / "report")
    took = time.perf_counter() - t0
    html = (out / "index.html").read_text()
    outside = re.sub(r"<details[^>]*>.*?</details>", "", html, flags=re.S)
    # rows outside the folds: rankings folded to one row per formulation, the problems (paged
    # on the page), slopes and families folded
    assert outside.count("<tr") < 5 * (20 + 2000), outside.count("<tr")
    # per puzzle six figures and at most VIEW_FIGURES same-model cactus plots
    assert len(list(out.glob("*.png"))) <= 5 * (6 + VIEW_FIGURES)
    size = folder_mb(out)
    assert size < 30, size
    views = json.loads((out / "instances.js").read_text().split("=", 1)[1].rstrip(";\n"))
    assert len(views["views"]) == 5 * INSTANCES and (out / "results.csv.gz").exists()
    why = playwright_missing()
    if why is None:
        with browser() as ctx:
            t1 = time.perf_counter()
            page = open_report(ctx, out)
            opened = time.perf_counter() - t1
            closed = page.evaluate("document.documentElement.scrollHeight")
            assert closed < 60_000, closed  # about 12 screens per puzzle
            matrix = page.locator("#nurikabe table.matrix")
            page.evaluate("document.querySelector('#nurikabe-status + details').open = true")
            first = matrix.locator("tbody tr td:first-child").first.inner_text()
            matrix.locator("thead th").first.click()
            matrix.locator("thead th").first.click()
            assert matrix.locator("tbody tr td:first-child").first.inner_text() != first
            info = page.locator("#nurikabe-status + details .dt-info")
            before = info.inner_text()
            page.locator("#nurikabe-status + details .filters input").first.fill("50x50")
            assert info.inner_text() != before and "filtered from 1,000" in info.inner_text()
            assert page.evaluate(OVERFLOW)["over"] == []
            assert ctx.errors == [], ctx.errors
        print(f"opened in the browser in {opened:.1f} s; {closed} px with the folds closed")
    print(f"report of {n} tasks in {took:.0f} s; {len(html)} bytes of HTML; {size:.1f} MB")
