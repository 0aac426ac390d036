"""The same-model and same-solver views (bench.report.views) on a real run with formulations on
several solvers: ``tests/data/run-cpmpy``, the CPMpy suite's run of docs/results/
2026-11-29-cpmpy.md (`nice -n 5 puzzlebench run --suite paradigms-cpmpy --out /tmp/pc --repeat
1 --jobs 1`: five puzzles, three instances each, one CPMpy formulation per puzzle (two
Nurikabe variants) on six CPMpy solvers, and the native CP-SAT pair of each puzzle; 123 tasks,
10 s limit), committed as its Parquet table, environment and constraints."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import bench.report.views as views
from bench.records import NOT_RUN
from bench.report import load_run, prepare, write_report
from bench.report.data import SGM_SHIFT_S
from bench.report.sgm_bound import sgm_interval
from bench.report.units import duration, duration_interval, number
from bench.report.wording import TOO_FEW
from tests.conftest import ROOT

RUN = ROOT / "tests" / "data" / "run-cpmpy"
SOLVERS = {"cpmpy:ortools", "cpmpy:choco", "cpmpy:pumpkin", "cpmpy:exact", "cpmpy:z3",
           "cpmpy:pindakaas"}
NATIVE = {"fillomino": "cpsat-tree", "nurikabe": "cpsat-tree", "shakashaka": "cpsat-local",
          "shikaku": "cpsat-cover", "yinyang": "cpsat-seed[root=model,edges=spanning]"}


@pytest.fixture(scope="module")
def tasks() -> pd.DataFrame:
    return prepare(load_run(RUN).df)


def _puzzle(t: pd.DataFrame, puzzle: str) -> pd.DataFrame:
    return t[t["puzzle"] == puzzle]


def test_same_model_has_a_table_per_formulation_run_on_several_solvers(tasks):
    for puzzle, g in tasks.groupby("puzzle"):
        found = {v.key: v for v in views.same_model(g)}
        cpmpy = {f for f in g["formulation"] if f.startswith("cpmpy-")}
        assert set(found) == cpmpy, puzzle  # the native pair runs on one solver: no table
        for form, v in found.items():
            assert {p.split(" / ")[1] for p in v.table["pair"]} == SOLVERS, (puzzle, form)
            assert all(p.startswith(form + " / ") for p in v.table["pair"])
            assert v.table["verdict"].iloc[0] == "best"
            assert v.pairs == list(v.table["pair"])
            # answered / run as counted from the tasks themselves
            for _, r in v.table.iterrows():
                rows = g[g["pair"] == r["pair"]]
                assert r["answered_run"] == f"{int(rows['ok'].sum())}/{len(rows)}", r["pair"]
    assert len([v for _, g in tasks.groupby("puzzle") for v in views.same_model(g)]) == 6


def test_the_verdicts_are_the_reports_too_few_below_five_instances(tasks):
    nurikabe = {v.key: v for v in views.same_model(_puzzle(tasks, "nurikabe"))}
    tree = nurikabe["cpmpy-islands[wall=tree]"].table.set_index("pair")
    # three instances: no interval, the factor says so; Choco answered one of three
    assert tree.loc["cpmpy-islands[wall=tree] / cpmpy:choco", "answered_run"] == "1/3"
    assert tree.loc["cpmpy-islands[wall=tree] / cpmpy:ortools", "verdict"] == "best"
    others = tree[tree["verdict"] != "best"]
    assert others["vs_best"].str.contains(r"\(too few: 3\)").all()
    full = others["answered_run"] == "3/3"
    assert others.loc[full, "sgm_interval"].str.endswith("(too few)").all()
    # a pair with timeouts: its SGM a bound with those at the limit, no interval
    assert (tree.loc["cpmpy-islands[wall=tree] / cpmpy:choco", "sgm_interval"]
            .startswith("≥ ") and "(censored: 2 of 3 at the limit)" in
            tree.loc["cpmpy-islands[wall=tree] / cpmpy:choco", "sgm_interval"])
    assert set(others["verdict"]) <= {"separated", "inconclusive", "equivalent"}
    # censored: a pair that timed out where the best answered reads as a bound
    assert tree.loc["cpmpy-islands[wall=tree] / cpmpy:choco", "vs_best"].startswith("≥ ")


def _one_model_on_two_solvers(limit: float) -> pd.DataFrame:
    """One model "m" on 8 instances under ``limit`` on two solvers: "a" at 0.5 to 0.85 s,
    answering every instance; "b" 4x slower, timing out (PAR-2: twice the limit) on three."""
    from tests.report.test_verdicts import _time_out, frame
    a = 0.5 + 0.05 * np.arange(8)
    t = frame(np.vstack([a, 4 * a]), ["a", "b"], limit=limit)
    _time_out(t, "b", [5, 6, 7], limit=limit)
    t["solver"] = t["form"].map({"a": "sa", "b": "sb"})
    t["formulation"] = "m"
    t["pair"] = "m / " + t["solver"]
    return t.assign(build_s=0.1 * t["time_s"], solve_s=0.9 * t["time_s"],
                    solver_s=0.8 * t["time_s"])


def test_a_pair_with_timeouts_shows_its_sgm_as_a_bound_at_the_limit_without_interval():
    """The SGM column is the overview's (bench.report.wording.sgm_words): a t-interval over
    PAR-2 scores here (timeouts at 6 s) would reach past the 3 s limit."""
    limit = 3.0
    (v,) = views.same_model(_one_model_on_two_solvers(limit))
    tab = v.table.set_index("pair")
    a = 0.5 + 0.05 * np.arange(8)
    bound = np.exp(np.mean(np.log(np.r_[4 * a[:5], [limit] * 3] + SGM_SHIFT_S))) - SGM_SHIFT_S
    assert bound < limit
    assert tab.loc["m / sb", "sgm_interval"] == (
        f"≥ {duration(bound)} (censored: 3 of 8 at the limit)")
    # the pair that answered every instance: its estimate and t-interval, as before
    assert tab.loc["m / sa", "sgm_interval"] == duration_interval(*sgm_interval(a), TOO_FEW)
    assert "[" in tab.loc["m / sa", "sgm_interval"]
    assert "at its limit, a lower bound" in views.NOTE and "not PAR-2" in views.NOTE


def test_a_formulation_on_one_solver_has_no_same_model_table(tasks):
    one = tasks[tasks["solver"].isin({"cpsat", "cpmpy:z3"})]
    for _, g in one.groupby("puzzle"):
        assert views.same_model(g) == []
    # and a formulation on two solvers has one, of two rows
    two = tasks[tasks["solver"].isin({"cpmpy:z3", "cpmpy:exact"})]
    got = views.same_model(_puzzle(two, "shikaku"))
    assert [len(v.table) for v in got] == [2]


def test_same_solver_sets_cpsat_through_cpmpy_beside_native_cpsat(tasks):
    for puzzle, native in NATIVE.items():
        g = _puzzle(tasks, puzzle)
        found = {v.key: v for v in views.same_solver(g)}
        cpsat = found["cpsat"]
        assert "through CPMpy (cpmpy:ortools)" in cpsat.title
        assert "modelling layer" in cpsat.title
        cpmpy = sorted({f for f in g["formulation"] if f.startswith("cpmpy-")})
        assert set(cpsat.table["pair"]) == {f"{native} / cpsat",
                                            *(f"{f} / cpmpy:ortools" for f in cpmpy)}
        # a CPMpy-only solver is not "native and through CPMpy"
        assert all("through" not in v.title for k, v in found.items() if k != "cpsat")
        # the translation is in the solve and outside the solver: the layer's time there
        # exceeds the native pair's, which has no layer
        tab = cpsat.table.set_index("pair")
        for f in cpmpy:
            assert (tab.loc[f"{f} / cpmpy:ortools", "outside_s"]
                    > tab.loc[f"{native} / cpsat", "outside_s"]), (puzzle, f)
    # only Nurikabe has two CPMpy variants: a same-solver table for every CPMpy solver
    nurikabe = {v.key for v in views.same_solver(_puzzle(tasks, "nurikabe"))}
    assert nurikabe == {"cpsat", *(s for s in SOLVERS if s != "cpmpy:ortools")}
    assert {v.key for v in views.same_solver(_puzzle(tasks, "shikaku"))} == {"cpsat"}


def test_a_layered_solver_without_its_native_one_is_named_as_it_is(tasks):
    g = _puzzle(tasks, "nurikabe")
    found = {v.key: v for v in views.same_solver(g[g["solver"] != "cpsat"])}
    assert found["cpsat"].title == "cpmpy:ortools: 2 formulations"
    assert set(found["cpsat"].table["pair"]) == {
        "cpmpy-islands[wall=lazy] / cpmpy:ortools", "cpmpy-islands[wall=tree] / cpmpy:ortools"}


def test_the_views_take_one_puzzles_rows(tasks):
    for f in (views.same_model, views.same_solver, views.layer_cost):
        with pytest.raises(ValueError, match="one puzzle's rows"):
            f(tasks)


def test_the_layer_cost_compares_build_and_solve_apart(tasks):
    tab, lines = views.layer_cost(_puzzle(tasks, "shikaku"))
    assert len(tab) == len(lines) == 1
    row = tab.iloc[0]
    assert (row["layered"], row["native"], row["common"]) == (
        "cpmpy-cover / cpmpy:ortools", "cpsat-cover / cpsat", 3)
    for c in ("build_x", "solve_x", "solver_x"):
        assert re.fullmatch(r"[\d.]+x \(too few: 3\)", row[c]), row[c]
    assert "build" in lines[0] and "solve" in lines[0] and "outside the solver" in lines[0]
    # solve x over the tasks: the ratio of the SGMs (shift 10 ms) of the medians per instance
    g = _puzzle(tasks, "shikaku")
    med = g[g["ok"]].groupby(["pair", "instance"])["solve_s"].median()
    d = np.log(med["cpmpy-cover / cpmpy:ortools"] + 0.01) - np.log(med["cpsat-cover / cpsat"]
                                                                   + 0.01)
    assert row["solve_x"].startswith(f"{number(np.exp(d.mean()))}x")
    nurikabe, _ = views.layer_cost(_puzzle(tasks, "nurikabe"))
    assert list(nurikabe["layered"]) == ["cpmpy-islands[wall=lazy] / cpmpy:ortools",
                                         "cpmpy-islands[wall=tree] / cpmpy:ortools"]
    assert set(nurikabe["native"]) == {"cpsat-tree / cpsat"}
    # a run without native CP-SAT has no layer cost
    assert views.layer_cost(g[g["solver"] != "cpsat"])[0].empty


def _not_run(t: pd.DataFrame) -> pd.DataFrame:
    """``t`` with not-run rows added: every Shikaku task of cpmpy-cover on another solver
    name recorded by the ladder rule, and repeats of cpmpy:z3's tasks recorded without a
    process (an error with no wall time and no start)."""
    sh = t[(t["puzzle"] == "shikaku") & (t["solver"] == "cpmpy:z3")]
    ladder = sh.assign(solver="cpmpy:gurobi", status="timeout", ok=False,
                       message=NOT_RUN + " on an earlier instance", rep=0)
    ladder["pair"] = ladder["formulation"] + " / cpmpy:gurobi"
    ladder["par2_s"] = 2 * ladder["time_limit"].astype(float)
    unstarted = sh.assign(status="error", ok=False, wall_s=None, start="", rep=1,
                          message="cannot run here")
    unstarted["par2_s"] = 2 * unstarted["time_limit"].astype(float)
    return pd.concat([t, ladder, unstarted], ignore_index=True)


def test_tasks_that_did_not_run_are_never_scored(tasks):
    g = _puzzle(tasks, "shikaku")
    more = _not_run(g)
    assert len(more) > len(g)
    for f in (views.same_model, views.same_solver):
        before, after = f(g), f(more)
        assert [v.key for v in before] == [v.key for v in after]
        for a, b in zip(before, after, strict=True):
            pd.testing.assert_frame_equal(a.table, b.table)
            assert "cpmpy:gurobi" not in " ".join(b.table["pair"])
    pd.testing.assert_frame_equal(views.layer_cost(g)[0], views.layer_cost(more)[0])


@pytest.fixture(scope="module")
def page(tmp_path_factory: pytest.TempPathFactory) -> Path:
    run = tmp_path_factory.mktemp("cpmpy") / "run"
    shutil.copytree(RUN, run)
    return write_report(run, run.parent / "rep")


def test_the_page_has_both_views_folded_below_the_first_screen(page):
    html = (page / "index.html").read_text(encoding="utf-8")
    for puzzle in NATIVE:
        assert f'id="{puzzle}-views"' in html and f'href="#{puzzle}-views"' in html
    # each view a closed fold, after the verdict matrix and the puzzle's own ranking
    folds = re.findall(r'<details class="views"( open)?><summary>([^<]*)', html)
    assert len(folds) == 2 * len(NATIVE) and not any(o for o, _ in folds)
    assert sum(s.startswith("Same model, different solvers") for _, s in folds) == 5
    assert sum("what the modelling layer costs" in s for _, s in folds) == 5
    assert html.index('id="verdicts"') < html.index('id="shikaku-ranking"') < html.index(
        'id="shikaku-views"')
    # one cactus per same-model group, at twice the resolution, shown with its width
    from PIL import Image
    pngs = sorted(page.glob("*-cactus-cpmpy*.png"))
    assert len(pngs) == 6
    for p in pngs:
        with Image.open(p) as im:
            assert round(im.info["dpi"][0]) >= 192
            assert f'src="{p.name}" alt=' in html
            assert re.search(rf'src="{re.escape(p.name)}"[^>]* width="{im.width // 2}"'
                             r'[^>]* loading="lazy"', html), p.name
    md = (page / "summary.md").read_text(encoding="utf-8")
    assert "### shikaku: Same model, different solvers" in md
    assert "### nurikabe: Same solver, different models" in md
    assert "The modelling layer on cpsat: cpmpy-cover / cpmpy:ortools" in md


def test_a_run_without_such_groups_has_no_views(mixed_run, tmp_path):
    """The mixed run: every formulation on one solver, every solver with one formulation per
    puzzle."""
    out = write_report(mixed_run, tmp_path / "rep")
    html = (out / "index.html").read_text(encoding="utf-8")
    assert "-views" not in html and "Same model, different solvers" not in html
    assert not list(out.glob("*-cactus-*.png"))


def test_one_name_in_two_puzzles_is_two_pairs_not_one_split(page):
    """cpsat-tree is a Fillomino and a Nurikabe formulation, of different code: each is one
    pair of its puzzle, never split by code nor noted as differing."""
    html = (page / "index.html").read_text(encoding="utf-8")
    md = (page / "summary.md").read_text(encoding="utf-8")
    assert "formulation code" not in md and "formulation code" not in html
    assert "| cpsat-tree / cpsat | 3/3 |" in md


def test_the_summarys_outline_nests_each_puzzles_tables_under_it(page):
    """summary.md's level-2 headings are the overview, the puzzles and the run-wide sections:
    a puzzle's extra tables (per family, virtual best, effort) are level 3 under their puzzle."""
    md = (page / "summary.md").read_text(encoding="utf-8")
    top = [line[3:] for line in md.splitlines() if line.startswith("## ")]
    assert top == ["Overview", *sorted(NATIVE), "Time the harness adds to each task",
                   "Environment"], top
    nuri = md.split("\n## nurikabe\n")[1].split("\n## ")[0]
    assert "\n### Per instance family (best variant per formulation)\n" in nuri
    assert "\n### nurikabe: virtual best" in nuri
