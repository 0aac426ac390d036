"""Untimed answers (:mod:`bench.report.untimed`) among the repetitions of a pair's instance:
the status counts every sample that answered, timed or not; the time comes from the timed
samples only (:func:`bench.report.untimed.settle`). Runs written as journals of real result
records (:mod:`tests.report.declined_run`), read by the report's own reader."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pandas as pd
import pytest

from bench.records import Result
from bench.report import tables as T
from bench.report.data import attempted, load_run, per_instance, prepare
from bench.report.untimed import note, per_pair
from bench.run.storage import Journal
from tests.report.declined_run import LIMIT, result

FAST, SLOW = "fast / cadical195", "slow / cadical195"


def _reps(folder: Path, outcomes: list[str | float | None]) -> pd.DataFrame:
    """``slow``'s repetitions on i00 (None: answered in 1.5 s, recorded without a solve time)
    beside ``fast``'s single answers on i00..i02 and ``slow``'s on i01, i02, written into
    ``folder`` and read back prepared."""
    rows: list[Result] = []
    for k, o in enumerate(outcomes):
        r = dataclasses.replace(result("slow", 0, 1.5 if o is None else o), rep=k,
                                sample_id=f"r{k}")
        rows.append(dataclasses.replace(r, solve_s=None) if o is None else r)
    rows += [result("fast", i, 0.5) for i in range(3)] + [result("slow", i, 0.8)
                                                          for i in (1, 2)]
    folder.mkdir(parents=True, exist_ok=True)
    Journal(folder).extend(rows)
    return prepare(load_run(folder).df)


def _slow_i00(t: pd.DataFrame) -> pd.DataFrame:
    pi = per_instance(attempted(t))
    return pi[(pi["pair"] == SLOW) & (pi["instance"] == "i00")]


@pytest.mark.parametrize("folded", [lambda t: per_instance(attempted(t)), per_instance])
def test_an_untimed_answer_counts_in_the_answered_majority(tmp_path: Path, folded) -> None:
    """Untimed answer + timed answer (2 s) + timeout: 2 of 3 answered (it read 1 of 2); the
    time is the timed answer's, never the timeout's penalty nor a median above the limit."""
    t = _reps(tmp_path / "run", [None, 2.0, "timeout"])
    pi = folded(t)
    row = pi[(pi["pair"] == SLOW) & (pi["instance"] == "i00")].iloc[0]
    assert bool(row["ok"]) and row["time_s"] == pytest.approx(2.0)
    assert row["par2_s"] == pytest.approx(2.0) and int(row["untimed_beside"]) == 1
    assert int(row["n"]) == 2 and int(row["timeouts"]) == 1
    r = T.ranking(t).set_index("pair")
    assert int(r.loc[SLOW, "solved"]) == 3  # every instance answered
    assert r.loc[SLOW, "run"] == ""  # timed on every instance: nothing missing


def test_timed_majority_keeps_the_median_of_the_timed_samples(tmp_path: Path) -> None:
    """Untimed answer + 1 s + 3 s + timeout: the timed samples alone are answered (2 of 3),
    so the time is their median PAR-2 as without untimed answers (3 s)."""
    row = _slow_i00(_reps(tmp_path / "run", [None, 1.0, 3.0, "timeout"])).iloc[0]
    assert bool(row["ok"]) and row["par2_s"] == pytest.approx(3.0)


def test_untimed_answers_without_a_timed_one_make_the_instance_untimed(
        tmp_path: Path) -> None:
    """Two untimed answers + timeout: answered (2 of 3) with no timed answer: untimed for the
    pair (no row, counted untimed), not an unanswered instance at the penalty."""
    t = _reps(tmp_path / "run", [None, None, "timeout"])
    assert _slow_i00(t).empty
    assert int(per_pair(attempted(t, timed=False)).get(SLOW, 0)) == 1
    r = T.ranking(t).set_index("pair")
    assert int(r.loc[SLOW, "solved"]) == 2 and r.loc[SLOW, "run"] == "2 of 3 run, 1 untimed"
    assert "1 unanswered sample(s) beside them" in note(t)[0]


def test_an_untimed_answer_in_a_minority_stays_unanswered(tmp_path: Path) -> None:
    """Untimed answer + two timeouts: 1 of 3 answered, the penalty of the timed samples."""
    row = _slow_i00(_reps(tmp_path / "run", [None, "timeout", "timeout"])).iloc[0]
    assert not bool(row["ok"]) and row["par2_s"] == pytest.approx(2 * LIMIT)
    row = _slow_i00(_reps(tmp_path / "half", [None, "timeout"])).iloc[0]  # exactly half
    assert not bool(row["ok"]) and row["par2_s"] == pytest.approx(2 * LIMIT)


def test_compare_counts_an_untimed_answer_in_the_answered_majority(tmp_path: Path) -> None:
    """A: untimed answer + 2 s + timeout; B: 2 s + 2 s + timeout. Both answered in 2 s: the
    pair is unchanged, no instance censored (A read 1 of 2 answered, censored at L)."""
    from bench.report.compare import compare

    _reps(tmp_path / "a", [None, 2.0, "timeout"])
    _reps(tmp_path / "b", [2.0, 2.0, "timeout"])
    _, pairs = compare(tmp_path / "a", tmp_path / "b")
    slow = pairs[pairs["pair"] == SLOW].iloc[0]
    assert int(slow["censored"]) == 0 and int(slow["instances"]) == 3
    assert slow["factor"] == pytest.approx(1.0)
    assert pairs.attrs["untimed"] == (1, 0)


def _vbs_run(folder: Path) -> pd.DataFrame:
    """``fast`` answers i00..i03 in 1 s, ``slow`` in 2 s; both answered i00 without a solve
    time, ``slow`` i01 too."""
    rows = []
    for form, s in (("fast", 1.0), ("slow", 2.0)):
        for i in range(4):
            r = result(form, i, s)
            rows.append(dataclasses.replace(r, solve_s=None)
                        if i == 0 or (form == "slow" and i == 1) else r)
    folder.mkdir(parents=True, exist_ok=True)
    Journal(folder).extend(rows)
    return prepare(load_run(folder).df)


def test_an_instance_answered_only_untimed_is_in_the_vbs_tables(tmp_path: Path) -> None:
    """i00 has no time of any pair: an instance of the tier all the same (it was missing),
    counted untimed, with no VBS time and not solved; each pair's untimed count has it."""
    from bench.report import vbs

    t = _vbs_run(tmp_path / "run")
    s = vbs.summary(t).set_index("tier").loc["hard"]
    assert int(s["instances"]) == 4 and int(s["vbs_untimed"]) == 1
    assert int(s["vbs_solved"]) == 3 and s["vbs_par2_s"] == pytest.approx(3.0)
    assert s["single_best"] == FAST and s["par2_gap"] == pytest.approx(1.0)
    c = vbs.contributions(t).set_index("pair")
    assert int(c.loc[SLOW, "untimed"]) == 2 and int(c.loc[FAST, "untimed"]) == 1
    assert int(c.loc[FAST, "unique"]) == 0 and int(c.loc[FAST, "sole"]) == 0
    title = vbs.extra("nurikabe", t)[0]["title"]
    assert "vbs_untimed: instances no pair has a time on" in title


def test_an_auto_pick_answered_untimed_is_untimed_not_not_run(tmp_path: Path) -> None:
    """auto picks slow on i00 and i01, answered there without a time: counted untimed, left
    out of the gap, not "not run"; fast on i02, i03 is the VBS there (no gap)."""
    from bench.report import vbs

    t = _vbs_run(tmp_path / "run")
    par2, ok, u = vbs.matrices(t)
    picks = pd.Series({"i00": SLOW, "i01": SLOW, "i02": FAST, "i03": FAST}, dtype=object)
    limit = pd.Series(LIMIT, index=par2.index)
    a = vbs.auto_row(par2, ok, picks, limit, untimed=u)
    assert (a["auto_instances"], a["auto_over"], a["auto_not_run"], a["auto_untimed"],
            a["auto_solved"]) == (4, 2, 0, 2, 2)
    assert a["auto_par2_gap"] == pytest.approx(1.0)


def test_the_page_explains_the_untimed_words_and_column(tmp_path: Path) -> None:
    """The legend explains ", u untimed" and "untimed all"; the note under "What was
    measured" its ``untimed`` column, only where the table has one."""
    from bench.report import write_report
    from bench.report.measured import UNTIMED_NOTE

    _vbs_run(tmp_path / "run")
    out = write_report(tmp_path / "run", tmp_path / "report")
    html, md = (out / "index.html").read_text(), (out / "summary.md").read_text()
    legend = html.split('id="legend">')[1].split("</p>")[0]
    assert "lab-untimed" in legend and "u untimed" in legend and "untimed all" in legend
    assert UNTIMED_NOTE in md and UNTIMED_NOTE in html
    plain = tmp_path / "plain"
    plain.mkdir()
    Journal(plain).extend([result(f, i, 1.0) for f in ("fast", "slow") for i in range(3)])
    assert UNTIMED_NOTE not in (write_report(plain, tmp_path / "r2") / "summary.md").read_text()


def test_an_unanswered_aslib_line_has_its_whole_time_or_the_limit(tmp_path: Path) -> None:
    """A memout and a crash during the solve (only the build time recorded) have the time
    limit as a timeout has, never the build time alone; a crash with both parts measured
    keeps its measured total."""
    from bench.report.aslib import export

    folder = tmp_path / "run"
    folder.mkdir()
    rows = [result("fast", i, 0.5) for i in range(3)]
    rows += [dataclasses.replace(result("slow", 0, "memout"), build_s=2.0, solve_s=None),
             dataclasses.replace(result("slow", 1, "error"), build_s=0.5, solve_s=None),
             dataclasses.replace(result("slow", 2, "timeout"), build_s=1.0, solve_s=None),
             result("slow", 3, "error"), result("fast", 3, 0.5)]
    Journal(folder).extend(rows)
    (sc,) = export(folder, tmp_path / "aslib")
    data = (sc.folder / "algorithm_runs.arff").read_text().split("@DATA\n")[1].splitlines()
    lines = {(c[0], c[2]): (float(c[3]), c[4]) for c in (x.split(",") for x in data)}
    slow = f"'{SLOW}'"
    assert lines[("'i00'", slow)] == (LIMIT, "memout")  # it read 2.0, the build alone
    assert lines[("'i01'", slow)] == (LIMIT, "crash")  # it read 0.5
    assert lines[("'i02'", slow)] == (LIMIT, "timeout")
    assert lines[("'i03'", slow)] == (pytest.approx(0.1), "crash")  # 0.0 + 0.1 measured
