"""Reports rendered from small real runs: numbers as defined, verdicts from the data, robust to
damaged run folders."""

from __future__ import annotations

import json
import math
import re
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from bench.report import ReportError, load_run, prepare, sgm, write_report
from bench.report import tables as T
from bench.report.units import duration_range
from tests.conftest import ROOT


def _raw(run: Path) -> pd.DataFrame:
    return pd.read_parquet(run / "results.parquet")


def test_mixed_run_has_the_outcomes_it_was_built_for(mixed_run):
    st = _raw(mixed_run).groupby(["formulation", "solver"])["status"].apply(sorted).to_dict()
    assert st["mip-flow", "glpk"] == ["solved", "timeout"]
    assert st["sat-tree", "cadical195"] == ["memout", "solved"]


def test_par2_and_sgm_as_defined(mixed_run):
    raw = _raw(mixed_run)
    g = raw[(raw["formulation"] == "mip-flow") & (raw["solver"] == "glpk")]
    times = [b + s if st == "solved" else 2 * lim for b, s, st, lim in
             zip(g["build_s"], g["solve_s"], g["status"], g["time_limit"], strict=True)]
    assert 2 * 1.0 in times  # the timeout counts twice the limit
    r = T.ranking(prepare(raw)[lambda t: t["puzzle"] == "nurikabe"]).set_index("pair")
    row = r.loc["mip-flow / glpk"]
    assert row["par2_s"] == pytest.approx(np.mean(times))
    expect = math.exp(np.mean(np.log(np.array(times) + 0.01))) - 0.01
    assert row["sgm_s"] == pytest.approx(expect)
    assert row["solved"] == 1 and row["timeout"] == 1
    assert r.loc["sat-tree / cadical195", "memout"] == 1


def test_report_content_matches_the_data(mixed_run, tmp_path):
    out = write_report(mixed_run, tmp_path / "rep")
    md = (out / "summary.md").read_text()
    html = (out / "index.html").read_text()
    raw = _raw(mixed_run)
    nuri = raw[raw["puzzle"] == "nurikabe"]
    r = T.ranking(prepare(raw)[lambda t: t["puzzle"] == "nurikabe"])
    best = r.iloc[0]
    n = nuri["instance"].nunique()
    solved_by_best = int(((nuri["formulation"] + " / " + nuri["solver"] == best["pair"])
                          & (nuri["status"] == "solved")).sum())
    verdict = re.compile(rf"nurikabe: {re.escape(best['pair'])} \(best[^)]*\) "
                         rf"solves {solved_by_best}/{n} ")
    assert verdict.search(md) and verdict.search(html)
    assert f"| {best['formulation']} | {best['solver']} |" in md and "| ★ |" in md
    assert 'class="best"' in html and "★" in html  # highlighted best row
    # the timeout and memout are in the status matrix; two sizes give no slope, and say so
    assert ">T</td>" in html and ">M</td>" in html
    assert "fewer than 3 sizes answered" in md and "| n/a |" in md
    # the puzzle x tier matrix heads the overview; the pooled ranking stays, labelled
    assert md.index("### Puzzle x tier") < md.index("### Pooled over all tiers")
    assert 'id="verdicts"' in html and "Pooled over all tiers" in html
    for fig in ("cactus", "profile", "scaling", "scatter"):
        assert (out / f"nurikabe-{fig}.png").stat().st_size > 5000
        assert f'src="nurikabe-{fig}.png"' in html
    # the memory figure where the pairs' peaks differ, else a line saying they do not
    nuri_md = md[md.index("\n## nurikabe\n"):]
    nuri_md = nuri_md[:nuri_md.index("\n## ", 1)] if "\n## " in nuri_md[1:] else nuri_md
    memory = [line for line in md.splitlines() if line.startswith("Peak memory")]
    nuri_memory = [line for line in memory if line in nuri_md]
    assert len(nuri_memory) == 1
    assert ('src="nurikabe-memory.png"' in html) != ("so no figure" in nuri_memory[0])
    svgs = list(out.glob("*.svg"))
    assert svgs and all("<svg" in p.read_text() for p in svgs)
    assert "shift 10 ms" in md and "`" not in html.split("<body>")[1].split("<code>")[0]
    assert "AMD" in html or "cores" in html  # environment block
    assert pd.read_parquet(out / "results.parquet").shape[0] == len(raw)
    # the common_* columns say how many instances they cover; no repeats: no spread columns
    common = int(r["common"].iloc[0])
    assert (f"over the {common} instance(s) that every pair with a valid answer answered"
            if common else "No instance was answered by every pair") in md
    assert "| common_par2_s |" in md and "| sgm_range |" not in md
    cp = r.set_index("pair").loc[best["pair"], "common_par2_s"]
    assert (cp == cp) == bool(common)  # a number exactly when there are common instances
    # the run's records travel with the report, linked from it
    assert (out / "environment.json").read_text() == (mixed_run / "environment.json").read_text()
    assert 'href="environment.json"' in html and "calibration loop" in html
    # the Markdown summary has the HTML's tables: every pair, and the status matrix
    assert "formulation variant x solver pairs:" in md and "Status per instance" in md
    assert "| instance | family |" in md


def test_lazy_iterations_are_reported(mixed_run):
    raw = _raw(mixed_run).copy()
    raw.loc[raw["formulation"] == "cpsat-cover", "iterations"] = [3, 7][: int(
        (raw["formulation"] == "cpsat-cover").sum())]
    r = T.ranking(prepare(raw)).set_index("pair")
    assert r.loc["cpsat-cover / cpsat", "iterations"] == "3 / 3"
    assert r.loc["mip-cover / highs", "iterations"] == ""  # one call per task: nothing to say


def test_censored_points_in_the_scaling_data(mixed_run):
    t = prepare(_raw(mixed_run))
    sl = T.slopes(T.per_instance(t), ["mip-flow / glpk", "sat-tree / cadical195"])
    sl = sl.set_index("pair")
    assert (sl["family"] == "generated").all()
    # the timeout at 0.3 s is a censored time; the memout under 130 MB is not, but its own
    assert sl.loc["mip-flow / glpk", "censored"] == 1
    assert sl.loc["sat-tree / cadical195", "censored"] == 0
    assert sl.loc["sat-tree / cadical195", "memout"] == 1
    assert (sl["slope"] == "n/a").all()  # two sizes: no slope


def test_all_error_run_names_no_best_pair(error_run, tmp_path):
    assert set(_raw(error_run)["status"]) == {"error"}
    out = write_report(error_run, tmp_path / "rep")
    md = (out / "summary.md").read_text()
    html = (out / "index.html").read_text()
    assert "no best pair" in md and 'class="best"' not in html and "★" not in md
    assert "its build raises by design" in md  # the error message is listed


def test_single_task_run(single_run, tmp_path):
    out = write_report(single_run, tmp_path / "rep")
    md = (out / "summary.md").read_text()
    assert "shikaku: cpsat-cover / cpsat solves 1/1" in md
    assert (out / "shikaku-cactus.png").exists()


@pytest.mark.parametrize("damage", ["random", "half", "empty"])
def test_corrupt_parquet_falls_back_to_the_journal(mixed_run, tmp_path, damage):
    run = tmp_path / "run"
    shutil.copytree(mixed_run, run)
    data = (run / "results.parquet").read_bytes()
    new = {"random": bytes(range(256)) * 8, "half": data[: len(data) // 2], "empty": b""}
    (run / "results.parquet").write_bytes(new[damage])
    out = write_report(run, tmp_path / "rep")
    md = (out / "summary.md").read_text()
    assert "results.parquet unreadable" in md
    assert load_run(run).df.shape[0] == _raw(mixed_run).shape[0]


def test_journal_lines_that_are_not_objects_and_a_corrupt_environment(mixed_run, tmp_path):
    run = tmp_path / "run"
    shutil.copytree(mixed_run, run)
    (run / "results.parquet").unlink()
    with open(run / "journal.jsonl", "a") as f:
        f.write("[1,2]\n\"text\"\n{\"key\": 3}\n")
    (run / "environment.json").write_text("{not json")
    out = write_report(run, tmp_path / "rep")
    md = (out / "summary.md").read_text()
    assert "3 unreadable line(s)" in md and "environment.json unreadable" in md
    assert len(load_run(run).df) == len(_raw(mixed_run))


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "bench.cli", *args], capture_output=True,
                          text=True, cwd=ROOT, timeout=300)


@pytest.mark.parametrize("kind", ["missing", "empty", "empty-journal"])
def test_nothing_to_report_writes_nothing(tmp_path, kind):
    run = tmp_path / "run"
    if kind != "missing":
        run.mkdir()
    if kind == "empty-journal":
        (run / "journal.jsonl").write_text("")
    with pytest.raises(ReportError):
        write_report(run, tmp_path / "rep1")
    p = _cli("report", str(run), "--out", str(tmp_path / "rep2"))
    assert p.returncode == 2 and "Traceback" not in p.stderr and "no report written" in p.stderr
    assert not (tmp_path / "rep1").exists() and not (tmp_path / "rep2").exists()


def test_compare_flags_changes_beyond_the_noise(mixed_run, tmp_path):
    from bench.report.compare import compare

    same, _ = compare(mixed_run, mixed_run)
    assert not same["significant"].any()
    slow = tmp_path / "slow"
    slow.mkdir()
    lines = []
    for line in (mixed_run / "journal.jsonl").read_text().splitlines():
        d = json.loads(line)
        if d["formulation"] == "cpsat-cover":  # the same result, 10x slower and above 10 ms
            d["solve_s"] = (d["solve_s"] + d["build_s"]) * 10 + 0.05
        lines.append(json.dumps(d))
    (slow / "journal.jsonl").write_text("\n".join(lines) + "\n")
    changes, _pairs = compare(mixed_run, slow)
    flagged = changes[changes["significant"]]
    assert list(flagged["pair"]) == ["cpsat-cover / cpsat"]
    assert flagged["change"].iloc[0] == "slower" and flagged["factor"].iloc[0] > 10
    p = _cli("compare", str(mixed_run), str(slow))
    assert p.returncode == 0 and "changed beyond the noise" in p.stdout


def test_repeats_give_median_spread_and_ties_only_within_the_spread(repeat_run, tmp_path):
    t = prepare(_raw(repeat_run))
    pi = T.per_instance(t)
    assert set(pi["n"]) == {3} and (pi["spread"] >= 1).all()
    for pair, g in t.groupby("pair"):
        assert pi.set_index("pair").loc[pair, "par2_s"] == pytest.approx(g["par2_s"].median())
    r = T.ranking(t)
    assert {"sgm_lo", "sgm_hi"} <= set(r.columns) and not r["tie"].iloc[0]
    # one instance: nothing is separated or equivalent, and no interval is printed
    assert not r["tie"].any() and (r["verdict"].iloc[1:] == "inconclusive").all()
    assert (r["interval"] == "too few").all()
    md = (write_report(repeat_run, tmp_path / "rep") / "summary.md").read_text()
    assert "inconclusive" in md and "(too few" in md
    assert "What was measured, per puzzle and tier" in md and "| why not run |" in md
    # the spread and the coefficient of variation are shown, computed as defined
    assert "| sgm_range | cv |" in md.replace(" | best |", " |")
    for pair, g in t.groupby("pair"):
        per = g.groupby("instance")["par2_s"].agg(["std", "mean"])
        row = r.set_index("pair").loc[pair]
        assert row["cv"] == pytest.approx(float((per["std"] / per["mean"]).median()))
        reps = g.groupby(["rep", "seed"])["par2_s"].apply(sgm)
        assert row["sgm_range"] == duration_range(reps.min(), reps.max())


def test_by_family_counts_answers_per_family(mixed_run):
    pi = T.per_instance(prepare(_raw(mixed_run)))
    fam = T.by_family(pi, ["mip-flow / glpk", "cpsat-cover / cpsat"]).set_index("pair")
    assert fam.loc["mip-flow / glpk", "family"] == "generated"
    assert fam.loc["mip-flow / glpk", "solved"] == "1/2"
    assert fam.loc["cpsat-cover / cpsat", "family"] == "seed"


def test_two_files_of_one_name_stay_two_instances(tmp_path):
    """A generator's name in two folders (different puzzles) is two instances in the report,
    each named with its folder; the same file named twice stays one."""
    for folder, src in (("a", "seed-10x10.txt"), ("b", "seed-36x20.txt")):
        (tmp_path / folder).mkdir()
        shutil.copy(ROOT / "instances" / "shikaku" / src, tmp_path / folder / "x.txt")
    out = tmp_path / "run"
    p = subprocess.run([sys.executable, "-m", "bench.cli", "run", str(tmp_path / "a" / "x.txt"),
                        str(tmp_path / "b" / "x.txt"), "--formulation", "shikaku:cpsat-cover",
                        "--solver", "cpsat", "--time-limit", "20", "--out", str(out)],
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    t = prepare(load_run(out).df)
    assert sorted(t["instance"]) == ["x (a)", "x (b)"]
    assert sorted(T.ranking(t)["instances"]) == [2]


def test_a_file_changed_between_runs_is_two_instances_the_latest_under_its_name(tmp_path):
    """The same path measured with two contents (the file edited between two runs into one
    folder) is two instances, never pooled: the latest measured keeps the name, the other
    takes 8 hex digits of its content digest."""
    (tmp_path / "a").mkdir()
    x = tmp_path / "a" / "x.txt"
    out = tmp_path / "run"
    for src in ("seed-10x10.txt", "seed-36x20.txt"):
        shutil.copy(ROOT / "instances" / "shikaku" / src, x)
        p = subprocess.run([sys.executable, "-m", "bench.cli", "run", str(x), "--formulation",
                            "shikaku:cpsat-cover", "--solver", "cpsat", "--time-limit", "20",
                            "--out", str(out)], capture_output=True, text=True, timeout=300)
        assert p.returncode == 0, p.stderr
    t = prepare(load_run(out).df)
    first = t["key"].str.split("|").str[0].str.removeprefix("sha256:").str[:8]
    names = dict(zip(t["cells"], t["instance"], strict=True))
    assert names == {720.0: "x", 100.0: "x@" + first[t["cells"] == 100.0].iloc[0]}
    assert sorted(T.ranking(t)["instances"]) == [2]


def test_two_contents_measured_equally_late_are_still_two_instances():
    """Contents of one file whose latest results carry the same time (or none, as results
    written before times were recorded) are told apart too: the least digest keeps the
    name."""
    from bench.report.data import distinct_names

    keys = ["sha256:cccc3333dddd4444|f|s|seed=0", "sha256:aaaa1111bbbb2222|f|s|seed=0"]
    base = {"puzzle": ["shikaku"] * 2, "instance": ["x"] * 2, "instance_path": ["a/x.txt"] * 2,
            "key": keys}
    for finished in ([None, None], ["2026-11-30T10:00:00+00:00"] * 2):
        assert list(distinct_names(pd.DataFrame({**base, "finished": finished}))) == \
            ["x@cccc3333", "x"]
    assert list(distinct_names(pd.DataFrame(base))) == ["x@cccc3333", "x"]


def _skipping(run: Path, out: Path, form: str) -> Path:
    """A copy of ``run`` in which every task of ``form`` was skipped by the formulation."""
    out.mkdir()
    lines = []
    for line in (run / "journal.jsonl").read_text().splitlines():
        d = json.loads(line)
        if d["formulation"] == form:
            d.update(status="skipped", message=f"{form}: not this board", grid=None,
                     checked=None, known=None)
        lines.append(json.dumps(d))
    (out / "journal.jsonl").write_text("\n".join(lines) + "\n")
    return out


def test_skipped_tasks_are_k_declined_in_the_ranking_and_outcomes_in_compare(mixed_run,
                                                                              tmp_path):
    from bench.report.compare import compare

    skipped = _skipping(mixed_run, tmp_path / "skipped", "cpsat-cover")
    t = prepare(load_run(skipped).df)
    assert set(T.status_matrix(t)["cpsat-cover / cpsat"].dropna()) == {"K"}
    rank = T.ranking(t[t["puzzle"] == "shikaku"])
    row = rank[rank["pair"] == "cpsat-cover / cpsat"].iloc[0]
    # declined everywhere: no time, no failure, no verdict; the row says so
    assert row["solved"] == 0 and row["instances"] == 0 and row["error"] == 0
    assert row["declined"] == 1 and row["attempted"] == "0/1"
    assert row["verdict"] == "declined all" and not row["best"]
    changes, _ = compare(mixed_run, skipped)
    moved = changes[changes["pair"] == "cpsat-cover / cpsat"]
    assert len(moved) and set(moved["change"]) == {"now skipped"}
    both, _ = compare(skipped, skipped)
    assert "cpsat-cover / cpsat" not in set(both["pair"])
    write_report(skipped, tmp_path / "rep")
    assert "K skipped" in (tmp_path / "rep" / "summary.md").read_text()
