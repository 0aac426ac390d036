"""Issue 13: the report stays readable at 5 puzzles x 20 pairs x 1,000 instances (a synthetic
100,000-task run): tables fold or summarise, figures stay a fixed number per puzzle, and the
page a reader first sees (folds closed) is not thousands of table rows long. Slow (the report
of 100k tasks takes minutes): `pytest -m slow tests/report/test_report_scale.py`."""

from __future__ import annotations

import json
import random
import re
import time

import pytest

from bench.records import Result
from bench.report import write_report
from bench.storage import Journal, consolidate
from tests.report.browser import chromium, probe

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
    outside = re.sub(r"<details>.*?</details>", "", html, flags=re.S)
    # tables a reader sees without unfolding: rankings folded to one row per formulation, 30
    # status-matrix rows per puzzle, slopes and families per formulation
    assert outside.count("<tr") < 5 * 120, outside.count("<tr")
    # folded too, each capped: every pair, the status matrix (30 + 500), the problems (15 +
    # 500); beyond the caps the results table
    assert html.count("<tr") < 5 * (20 + 530 + 515 + 150), html.count("<tr")
    assert len(list(out.glob("*.png"))) <= 5 * 6
    assert len(html) < 3_000_000
    exe = chromium()
    if exe is not None:
        res = probe(out / "index.html", exe)
        assert res["errors"] == [] and res["broken"] == [] and res["overflow"] == []
        assert res["closedHeight"] < 60_000, res["closedHeight"]  # about 12 pages per puzzle
    print(f"report of {n} tasks in {took:.0f} s; {len(html)} bytes of HTML")
