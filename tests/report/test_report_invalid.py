"""A pair with no valid answer (every task an error: a crash, a build bug) is no measurement:
it is never ranked, never best nor runner-up, never "not separated" from another pair, and is
listed apart by name with its error count. A timeout (and a memout: a resource limit hit) is
still a censored time at the limit. In a pair with some errors, the instances that errored are
missing (not censored): its comparison rests on the instances it measured, and says so.

Run folders written through the real journal writer (:mod:`tests.report.declined_run`)."""

from __future__ import annotations

import math
from dataclasses import replace
from pathlib import Path

import pandas as pd

from bench.report import tables, write_report
from bench.report import verdicts as V
from bench.report.data import attempted, load_run, per_instance, prepare, sgm
from bench.report.invalid import no_valid_answer
from bench.run.storage import Journal
from tests.report.declined_run import result, write

A, B, C, M, E = (f"sat-{x} / cadical195" for x in "abcme")


def _plan(n: int) -> dict[str, list[str | float]]:
    """sat-a solves every instance, sat-b errors on every one, sat-c times out on every one,
    sat-m hits the memory limit on every one; sat-e solves all but the last two, which error."""
    return {"sat-a": [0.5 + 0.1 * i for i in range(n)], "sat-b": ["error"] * n,
            "sat-c": ["timeout"] * n, "sat-m": ["memout"] * n,
            "sat-e": [1.0 + 0.1 * i for i in range(n - 2)] + ["error"] * 2}


def test_a_pair_that_only_errored_is_never_ranked_nor_separated(tmp_path: Path) -> None:
    t = write(tmp_path / "run", _plan(8))
    pi = per_instance(attempted(t))
    assert dict(no_valid_answer(pi)) == {B: 8}
    table = V.compare(pi).set_index("pair")
    assert B not in table.index and table.loc[A, "verdict"] == "best"
    # a timeout and a memout are censored at the limit: bounds, still ranked and tested
    for pair in (C, M):
        assert table.loc[pair, "censored"] == "other" and table.loc[pair, "verdict"] == "separated"
    # the mixed pair: its two errors are missing, not censored; it rests on its 6 instances
    e = table.loc[E]
    assert e["common"] == 6 and e["censored"] == "" and e["instances"] == 6, e
    # its errors fall on the two instances sat-a took longest on: said so (not at random)
    assert e["run"] == ("6 of 8 run, 2 error: 2 on instances where the best took longer "
                        "than on any it measured"), e["run"]

    r = tables.ranking(t)
    assert list(r["pair"])[:2] == [A, C] and list(r["pair"])[-1] == B
    b = r.set_index("pair").loc[B]
    assert b["verdict"] == "no valid answer" and not b["best"] and b["error"] == 8
    line = tables.verdict("nurikabe", t, r)
    assert f"no valid answer (every task an error): {B} (8)" in line, line

    m, lines = V.matrix(t)
    row = m.iloc[0]
    assert row["best"] == A and row["lead"].endswith(C) and row["separated"] == "3 of 3", row
    assert "1 pair(s) with no valid answer" in row["note"], row["note"]
    assert any(f"{B}: 8 error" in x and "no valid answer" in x for x in lines), lines
    assert not any(f"runner-up {B}" in x for x in lines), lines


def test_an_errored_pair_is_not_the_pair_the_best_is_not_separated_from(tmp_path: Path) -> None:
    plan = _plan(4)
    t = write(tmp_path / "run", {f: plan[f] for f in ("sat-a", "sat-b", "sat-c")})
    r = tables.ranking(t)
    line = tables.verdict("nurikabe", t, r)
    assert f"not separated from {C}" in line and f"not separated from {B}" not in line, line


def test_the_report_lists_pairs_with_no_valid_answer(tmp_path: Path) -> None:
    write(tmp_path / "run", _plan(8))
    out = write_report(tmp_path / "run", tmp_path / "report")
    md = (out / "summary.md").read_text(encoding="utf-8")
    html = (out / "index.html").read_text(encoding="utf-8")
    for text in (md, html):
        assert f"pairs with no valid answer (every task an error: no measurement, in no " \
               f"verdict): {B}: 8 error" in text
    verdicts_md = md.split("### What was measured")[0]
    assert f"runner-up {C}" in verdicts_md and f"runner-up {B}" not in verdicts_md


def test_an_error_beside_other_repetitions_is_left_out_of_the_fold(tmp_path: Path) -> None:
    """Two seeds per instance: seed 0 solves in 1 s, seed 1 crashes. The crash is no
    measurement: the instance is answered in 1 s (not "one answer in two samples", censored
    at the limit); a timeout beside it instead still makes the instance unanswered."""
    rows = []
    for i in range(6):
        first = result("sat-a", i, 1.0)
        other = result("sat-a", i, "error" if i < 3 else "timeout")
        rows += [first, replace(other, key=other.key + "|seed=1", seed=1,
                                sample_id=other.sample_id + "-1")]
    folder = tmp_path / "run"
    folder.mkdir()
    Journal(folder).extend(rows)
    pi = per_instance(prepare(load_run(folder).df)).set_index("instance")
    assert list(pi["ok"]) == [True] * 3 + [False] * 3, pi[["ok", "par2_s", "errors"]]
    assert list(pi["par2_s"][:3]) == [1.0] * 3 and (pi["par2_s"][3:] > 10.0).all()
    assert list(pi["errors"]) == [1] * 3 + [0] * 3 and (pi["n"] == 2).all()
    assert not no_valid_answer(pi.reset_index()).size


def test_a_run_where_every_pair_errored_has_no_best_and_lists_them(tmp_path: Path) -> None:
    t = write(tmp_path / "run", {"sat-b": ["error"] * 6, "sat-c": ["error"] * 6})
    m, lines = V.matrix(t)
    assert m.iloc[0]["best"] == "none" and "2 pair(s) with no valid answer" in m.iloc[0]["note"]
    assert any(f"{B}: 6 error; {C}: 6 error" in x for x in lines), lines
    r = tables.ranking(t)
    assert not r["best"].any() and set(r["verdict"]) == {"no valid answer"}


def test_the_time_columns_beside_the_verdicts_rest_on_measured_instances(tmp_path: Path) -> None:
    """sat-e errored on 2 of 8: its SGM, median and x_best are over its 6 measured instances
    (not its errors at the PAR-2 penalty); sat-b measured nothing: "–" there. PAR-2 stays the
    score as defined (an error unsolved, at twice the limit); the error count stays."""
    plan = _plan(8)
    t = write(tmp_path / "run", {f: plan[f] for f in ("sat-a", "sat-e", "sat-b")})
    r = tables.ranking(t).set_index("pair")
    a, e, b = r.loc[A], r.loc[E], r.loc[B]
    times_e = [1.0 + 0.1 * i for i in range(6)]
    assert abs(e["sgm_s"] - sgm(pd.Series(times_e))) < 1e-9, e["sgm_s"]
    assert abs(e["median_s"] - 1.25) < 1e-9, e["median_s"]
    ratio = sgm(pd.Series(times_e)) / sgm(pd.Series([0.5 + 0.1 * i for i in range(6)]))
    assert abs(e["x_best"] - ratio) < 1e-9 and e["x_best"] < 2.0, e["x_best"]
    assert a["x_best"] == 1.0 and e["error"] == 2 and b["error"] == 8
    assert math.isnan(b["sgm_s"]) and math.isnan(b["median_s"]) and math.isnan(b["x_best"]), b
    assert abs(e["par2_s"] - (sum(times_e) + 2 * 20.0) / 8) < 1e-9 and b["par2_s"] == 20.0
    # the common set: the instances every pair with a valid answer answered (sat-e's 6)
    assert int(r["common"].iloc[0]) == 6 and abs(e["common_sgm_s"] - e["sgm_s"]) < 1e-9
    # the same SGM as the verdict's comparison
    assert abs(V.compare(per_instance(attempted(t))).set_index("pair").loc[E, "sgm_s"]
               - e["sgm_s"]) < 1e-9
    out = write_report(tmp_path / "run", tmp_path / "report")
    md = (out / "summary.md").read_text(encoding="utf-8")
    assert "24.5" not in md and "as the score is defined" in md


def test_the_verdict_line_counts_only_the_pairs_tested_as_the_matrix(tmp_path: Path) -> None:
    """A pair that declined every instance, one with wrong answers and one with no valid
    answer were never tested: "1 of 1 other pair(s) separated", as the matrix says."""
    plan = _plan(8)
    t = write(tmp_path / "run", {"sat-a": plan["sat-a"], "sat-c": plan["sat-c"],
                                 "sat-b": plan["sat-b"], "sat-k": ["skipped"] * 8,
                                 "sat-w": ["wrong"] * 8})
    r = tables.ranking(t)
    assert {"declined all", "wrong answers", "no valid answer"} <= set(r["verdict"]), r
    line = tables.verdict("nurikabe", t, r)
    m, _ = V.matrix(t)
    assert m.iloc[0]["separated"] == "1 of 1", m.iloc[0]
    assert "; 1 of 1 other pair(s) separated" in line, line


def test_the_family_table_rests_on_measured_instances(tmp_path: Path) -> None:
    """The per-family SGM and median leave out the instances whose every task errored, as the
    ranking does; a pair with nothing measured has none; the answered count stays over all."""
    plan = _plan(8)
    t = write(tmp_path / "run", {f: plan[f] for f in ("sat-a", "sat-e", "sat-b")})
    pi = per_instance(attempted(t))
    fam = tables.by_family(pi, [A, E, B]).set_index("pair")
    r = tables.ranking(t).set_index("pair")
    assert abs(fam.loc[E, "sgm_s"] - r.loc[E, "sgm_s"]) < 1e-9
    assert abs(fam.loc[E, "median_s"] - 1.25) < 1e-9 and fam.loc[E, "solved"] == "6/8"
    assert math.isnan(fam.loc[B, "sgm_s"]) and fam.loc[B, "solved"] == "0/8"
