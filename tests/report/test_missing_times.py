"""A correct answer recorded without its build or solve time is no measurement
(:mod:`bench.report.untimed`): never a time of 0 s, left out of every time, count, test and
verdict, and counted on the page. Runs written as journals of real result records
(:mod:`tests.report.declined_run`), read by the report's own reader."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from bench.records import Result
from bench.report import tables as T
from bench.report import verdicts as V
from bench.report import write_report
from bench.report.data import attempted, load_run, per_instance, prepare
from bench.report.untimed import note
from bench.run.storage import Journal
from tests.report.declined_run import result

N = 14  # instances
BASE = [0.05 * 1.3**i for i in range(N)]  # seconds: the instances' difficulty
NOISE = np.random.default_rng(7).lognormal(0.0, 0.05, (2, N))  # fixed, per pair and instance
FAST, SLOW = "fast / cadical195", "slow / cadical195"


def _run(folder: Path, untimed: dict[str, set[int]]) -> pd.DataFrame:
    """``fast`` answers every instance; ``slow`` takes 1.5x its time everywhere; the instances
    ``untimed[form]`` of a formulation are recorded solved without a solve time (``slow``) or
    a build time (``fast``). Written into ``folder`` and read back prepared."""
    rows: list[Result] = []
    for i, b in enumerate(BASE):
        for k, (form, part) in enumerate((("fast", "build_s"), ("slow", "solve_s"))):
            r = result(form, i, (1.5 if form == "slow" else 1.0) * b * NOISE[k, i])
            rows.append(dataclasses.replace(r, **{part: None})
                        if i in untimed.get(form, set()) else r)
    folder.mkdir(parents=True, exist_ok=True)
    Journal(folder).extend(rows)
    return prepare(load_run(folder).df)


def _summary(folder: Path, tmp: Path) -> str:
    return (write_report(folder, tmp / f"{folder.name}-report") / "summary.md").read_text()


def test_a_slower_pair_with_an_untimed_answer_is_not_best(tmp_path: Path) -> None:
    t = _run(tmp_path / "run", {"slow": {N - 1}})  # its hardest instance: no solve time
    r = T.ranking(t).set_index("pair")
    assert r.index[0] == FAST and bool(r.loc[FAST, "best"])
    # slow is compared on the 13 instances it was timed on: 1.5x slower there, separated
    assert int(r.loc[SLOW, "solved"]) == N - 1
    assert str(r.loc[SLOW, "verdict"]).startswith(V.SEPARATED)
    # its instance words say why it has one fewer: untimed, not a task that did not run
    assert r.loc[SLOW, "run"] == f"{N - 1} of {N} run, 1 untimed"
    assert f"({N - 1} of {N} run, 1 untimed)" in str(r.loc[SLOW, "verdict"])
    m, _ = V.matrix(t)
    cell = m.set_index("tier").loc["hard"]
    assert cell["best"].startswith(FAST) and cell["separated"] == "1 of 1"
    assert cell["note"] == ""  # no pair is missing from the cell
    row = t[(t["pair"] == SLOW) & (t["instance"] == f"i{N - 1:02d}")].iloc[0]
    assert np.isnan(row["time_s"]) and np.isnan(row["par2_s"])  # never 0 s
    assert bool(row["ok"]) and bool(row["untimed"]) and int(t["untimed"].sum()) == 1
    assert len(attempted(t)) == 2 * N - 1
    assert note(t) and f"nurikabe: {SLOW} (1)" in note(t)[0]


def test_a_repetition_without_its_time_is_left_out_of_the_fold(tmp_path: Path) -> None:
    folder = tmp_path / "run"
    folder.mkdir()
    reps = [dataclasses.replace(result("slow", 0, s), rep=k, sample_id=f"s{k}")
            for k, s in enumerate((1.0, 2.0, 3.0))]
    reps[0] = dataclasses.replace(reps[0], solve_s=None)
    Journal(folder).extend(reps)
    pi = per_instance(prepare(load_run(folder).df))
    # the median of the two timed repetitions, 2.5 s (as 0 s the untimed one made it 2 s)
    assert len(pi) == 1 and pi.loc[0, "par2_s"] == pytest.approx(2.5) and pi.loc[0, "n"] == 2


def test_a_table_without_missing_times_is_read_as_before(tmp_path: Path) -> None:
    t = _run(tmp_path / "run", {})
    assert not t["untimed"].any() and note(t) == []
    own = t["build_s"].astype(float) + t["solve_s"].astype(float)
    assert t["time_s"].tolist() == own.tolist() and t["par2_s"].tolist() == own.tolist()
    assert len(attempted(t)) == 2 * N
    r = T.ranking(t).set_index("pair")
    assert r.index[0] == FAST and str(r.loc[SLOW, "verdict"]) == V.SEPARATED
    assert int(r.loc[SLOW, "solved"]) == N
    assert "untimed" not in _summary(tmp_path / "run", tmp_path)


def test_a_pair_whose_every_answer_is_untimed_is_in_no_verdict(tmp_path: Path) -> None:
    t = _run(tmp_path / "run", {"slow": set(range(N))})
    r = T.ranking(t)
    # listed last, ranked nowhere, saying why it has no time (as a pair that declined all)
    assert list(r["pair"]) == [FAST, SLOW] and bool(r.loc[0, "best"])
    assert r.loc[1, "verdict"] == f"untimed all ({N} answered without a time)"
    assert not bool(r.loc[1, "best"]) and int(r.loc[1, "declined"]) == 0
    m, _ = V.matrix(t)
    assert m.set_index("tier").loc["hard", "best"].startswith(FAST)
    # missing from the cell as untimed, not as a pair that ran none
    assert m.set_index("tier").loc["hard", "note"] == "1 pair(s) untimed on every instance"
    page = _summary(tmp_path / "run", tmp_path)
    assert f"{N} correct answer(s) recorded without a build or solve time" in page
    assert f"nurikabe: {SLOW} ({N})" in page


def test_a_puzzle_with_no_timed_answer_has_no_best(tmp_path: Path) -> None:
    t = _run(tmp_path / "run", {"slow": set(range(N)), "fast": set(range(N))})
    r = T.ranking(t)
    line = T.verdict("nurikabe", attempted(t), r, t)  # it read "... any of the 0 instance(s)"
    assert line == (f"nurikabe: no formulation x solver has a timed answer on any of the {N} "
                    f"instance(s) ({2 * N} of {2 * N} tasks answered without a build or solve "
                    "time, untimed; 0 ended in error); no best pair.")
    assert list(r["pair"]) == sorted([FAST, SLOW]) and not r["best"].any()
    assert (r["verdict"] == f"untimed all ({N} answered without a time)").all()
    m, _ = V.matrix(t)
    row = m.set_index("tier").loc["hard"]
    assert row["best"] == "none" and row["note"] == f"no task timed ({2 * N} untimed)"
    page = _summary(tmp_path / "run", tmp_path)
    assert f"{2 * N} correct answer(s) recorded without a build or solve time" in page
    assert "no best pair" in page


def test_compare_leaves_an_untimed_answer_out_and_says_so(tmp_path: Path) -> None:
    """Two runs of the same times, B with one answer untimed: the pair is unchanged (factor
    1 over the instances timed in both), not slower as if the answer took the time limit."""
    from bench.report.compare import compare, compare_markdown

    a, b = tmp_path / "a", tmp_path / "b"
    _run(a, {})
    _run(b, {"slow": {N - 1}})
    changes, pairs = compare(a, b)
    slow = pairs[pairs["pair"] == SLOW].iloc[0]
    assert slow["factor"] == pytest.approx(1.0)
    assert not (changes["pair"].eq(SLOW) & changes["significant"]).any()
    assert pairs.attrs["untimed"] == (0, 1)
    assert "left out: 0 in A, 1 in B" in compare_markdown(a, b)


def test_an_untimed_answer_is_missing_data_in_the_aslib_scenario(tmp_path: Path) -> None:
    """ASlib's algorithm_runs.arff has no place for an answer without its time: the line is
    missing data (runstatus ``other``, runtime ``?``), never the part measured nor 0 s."""
    from bench.report.aslib import export

    _run(tmp_path / "run", {"slow": {N - 1}, "fast": {0}})
    (sc,) = export(tmp_path / "run", tmp_path / "aslib")
    data = (sc.folder / "algorithm_runs.arff").read_text().split("@DATA\n")[1].splitlines()
    lines = {(c[0], c[2]): (c[3], c[4]) for c in (x.split(",") for x in data)}
    assert lines[(f"'i{N - 1:02d}'", f"'{SLOW}'")] == ("?", "other")  # no solve time
    assert lines[("'i00'", f"'{FAST}'")] == ("?", "other")  # no build time
    timed = [v for k, v in lines.items() if k not in {(f"'i{N - 1:02d}'", f"'{SLOW}'"),
                                                        ("'i00'", f"'{FAST}'")}]
    assert len(timed) == 2 * N - 2 and all(s == "ok" and float(x) > 0 for x, s in timed)


def test_compare_counts_the_untimed_answers_when_none_is_left(tmp_path: Path) -> None:
    from bench.report.compare import compare_markdown

    a, b = tmp_path / "a", tmp_path / "b"
    _run(a, {})
    _run(b, {"slow": set(range(N)), "fast": set(range(N))})
    md = compare_markdown(a, b)
    assert "no instance is in both runs with a measurement" in md
    assert f"left out: 0 in A, {2 * N} in B" in md
def _errors_beside(folder: Path) -> pd.DataFrame:
    """``fast`` answers 8 instances once; ``slow`` runs each twice, one answer (1.2x fast's
    time) and one error, its answer on the last recorded without a solve time."""
    rows: list[Result] = []
    for i in range(8):
        rows.append(result("fast", i, 0.1 * (i + 1)))
        ans = dataclasses.replace(result("slow", i, 0.12 * (i + 1)), rep=0, sample_id=f"s{i}")
        rows += [dataclasses.replace(ans, solve_s=None) if i == 7 else ans,
                 dataclasses.replace(result("slow", i, "error"), rep=1, sample_id=f"e{i}")]
    folder.mkdir(parents=True, exist_ok=True)
    Journal(folder).extend(rows)
    return prepare(load_run(folder).df)


def test_an_error_beside_an_untimed_answer_is_folded_out_with_it(tmp_path: Path) -> None:
    """The error is folded out beside the answer, as beside any sample; the answer has no
    time, so the instance is untimed: no row, not an error at the penalty."""
    t = _errors_beside(tmp_path / "run")
    for pi in (per_instance(attempted(t)), per_instance(t)):  # the ranking's and matrix's
        slow = pi[pi["pair"] == SLOW].set_index("instance")
        assert list(slow.index) == [f"i{i:02d}" for i in range(7)]  # i07: no row
        assert slow["ok"].all() and (slow["n"] == 2).all() and (slow["errors"] == 1).all()
    assert len(attempted(t)) == 8 + 14  # i07's answer and the error beside it left out
    r = T.ranking(t).set_index("pair")
    assert int(r.loc[SLOW, "solved"]) == 7 and int(r.loc[SLOW, "error"]) == 7
    assert float(r.loc[SLOW, "par2_s"]) == pytest.approx(0.12 * 28 / 7)  # no 2x the limit
    assert r.loc[SLOW, "run"] == "7 of 8 run, 1 untimed"
    assert str(r.loc[SLOW, "verdict"]) == f"{V.SEPARATED} (7 of 8 run, 1 untimed)"
    assert "1 error(s) beside them on instances with no timed sample" in note(t)[0]


def test_an_error_beside_a_timed_and_an_untimed_answer_stays_in_the_fold(
        tmp_path: Path) -> None:
    folder = tmp_path / "run"
    folder.mkdir()
    reps = [dataclasses.replace(result("slow", 0, s), rep=k, sample_id=f"s{k}")
            for k, s in enumerate((1.0, 2.0))]
    reps += [dataclasses.replace(result("slow", 0, "error"), rep=2, sample_id="e")]
    reps[0] = dataclasses.replace(reps[0], solve_s=None)
    Journal(folder).extend(reps)
    t = prepare(load_run(folder).df)
    for pi in (per_instance(attempted(t)), per_instance(t)):
        assert len(pi) == 1 and bool(pi.loc[0, "ok"]) and pi.loc[0, "par2_s"] == 2.0
        assert pi.loc[0, "n"] == 2 and pi.loc[0, "errors"] == 1


def test_an_untimed_answer_is_answered_in_the_vbs_and_what_was_measured(
        tmp_path: Path) -> None:
    """No other pair is the unique or sole solver of an instance answered without a time;
    "tasks run" leaves the untimed task out, as the ranking does, and counts it apart."""
    from bench.report.measured import design
    from bench.report.vbs import contributions

    t = _run(tmp_path / "run", {"slow": {N - 1}})
    c = contributions(t).set_index("pair")
    assert int(c.loc[FAST, "unique"]) == 0 and int(c.loc[FAST, "sole"]) == 0
    assert int(c.loc[SLOW, "untimed"]) == 1 and int(c.loc[SLOW, "ran"]) == N - 1
    d = design(t).iloc[0]
    assert int(d["tasks run"]) == 2 * N - 1 and int(d["untimed"]) == 1
    assert int(d["instances run"]) == N
    t = _run(tmp_path / "timed", {})  # every answer timed: the tables as before
    assert "untimed" not in contributions(t) and "untimed" not in design(t)
    assert int(design(t).iloc[0]["tasks run"]) == 2 * N


def test_compare_folds_an_error_out_with_an_untimed_answer(tmp_path: Path) -> None:
    """B as A but its answer on i07 untimed: the error beside it goes with it, so the pair
    is compared on the 7 instances timed in both, no status change nor error in B."""
    from bench.report.compare import compare

    a, b = tmp_path / "a", tmp_path / "b"
    _errors_beside(a)
    _errors_beside(b)
    Journal(a).extend([dataclasses.replace(result("slow", 7, 0.96), rep=0, sample_id="s7")])
    changes, pairs = compare(a, b)
    slow = pairs[pairs["pair"] == SLOW].iloc[0]
    assert not (changes["pair"].eq(SLOW) & changes["significant"]).any()
    assert "error" not in str(slow["label"])
    assert pairs.attrs["untimed"] == (0, 1)
