"""``puzzlebench compare`` reads a task that ended in ``error`` as no measurement, as the
verdicts do (:mod:`bench.report.invalid`): an instance unmeasured in either run is left out of
its pair's paired comparison (never censored at the limit as a timeout is); a pair with no
instance measured in both runs is not tested and is listed apart by name with its error count;
a comparison resting on fewer instances says on how many.

Run folders written through the real journal writer (:mod:`tests.report.declined_run`)."""

from __future__ import annotations

import math
from dataclasses import replace
from pathlib import Path

from bench.report.compare import compare, compare_markdown
from bench.run.storage import Journal
from tests.report.declined_run import result, write

A, C, E = (f"sat-{x} / cadical195" for x in "ace")
N = 8


def _solved(n: int = N) -> list[str | float]:
    return [0.5 + 0.1 * i for i in range(n)]


def _runs(tmp_path: Path) -> tuple[Path, Path]:
    """A solves everything; in B sat-a errors on every instance, sat-e on the last three,
    sat-c times out on every one."""
    write(tmp_path / "a", {"sat-a": _solved(), "sat-e": _solved(), "sat-c": _solved()})
    write(tmp_path / "b", {"sat-a": ["error"] * N,
                           "sat-e": _solved(N - 3) + ["error"] * 3,
                           "sat-c": ["timeout"] * N})
    return tmp_path / "a", tmp_path / "b"


def test_a_pair_that_errors_everywhere_in_b_is_not_tested_and_listed_apart(tmp_path):
    a, b = _runs(tmp_path)
    changes, pairs = compare(a, b)
    p = pairs.set_index("pair")
    row = p.loc[A]
    assert row["verdict"] == "no valid answer" and row["label"] == \
        "no valid answer in B: 8 error", row
    assert row["instances"] == 0 and row["error"] == N and math.isnan(row["p"]), row
    assert math.isnan(row["factor"])
    # a timeout is still a censored time at the limit: a bound, tested
    c = p.loc[C]
    assert c["verdict"] == "changed" and c["censored"] == N and c["bound"] == "≥", c
    # the per-task diff: the status change, no time factor for a task with no time
    t = changes[changes["pair"] == A]
    assert set(t["change"]) == {"solved → error"} and t["factor"].isna().all(), t
    assert t["par2_s_b"].isna().all() and t["significant"].all(), t
    md = compare_markdown(a, b)
    assert "1 of 2 changed (1 slower, 0 faster), 0 equivalent, 1 inconclusive; " \
           "1 not tested." in md, md
    assert f"Not tested, no instance measured in both runs (an error is no measurement): " \
           f"{A} (nurikabe, hard): no valid answer in B: 8 error." in md, md
    assert "changed: ≥" not in p.loc[A, "label"]


def test_a_pair_with_some_errors_rests_on_the_instances_measured_and_says_so(tmp_path):
    """B's errors on the three instances A took longest on lie beyond every instance B
    measured (not missing at random): never equivalent, as in the report's verdicts
    (:func:`bench.report.invalid.beyond`); errors on the three fastest lie within what it
    measured: equivalent on the rest, said so."""
    a, b = _runs(tmp_path)
    _, pairs = compare(a, b)
    e = pairs.set_index("pair").loc[E]
    # the three errors are missing, not censored: 5 instances, each solved alike in both
    assert e["instances"] == N - 3 and e["error"] == 3 and e["censored"] == 0, e
    assert e["answers differ"] == 0 and math.isclose(e["factor"], 1.0), e
    assert e["verdict"] == "inconclusive", e
    assert e["label"] == "inconclusive (5 of 8 instances, 3 error in B: 3 on instances where " \
        "run A took longer than on any it measured, too few for the test)", e
    write(tmp_path / "b3", {"sat-e": ["error"] * 3 + _solved(N)[3:]})
    e = compare(a, tmp_path / "b3")[1].set_index("pair").loc[E]
    assert e["verdict"] == "equivalent", e
    assert e["label"] == "equivalent (within 1.25x; 5 of 8 instances, 3 error in B)", e


def test_errors_on_larger_instances_than_any_measured_are_beyond(tmp_path):
    """More cells than every instance the run measured: beyond, at the same times."""
    def run(outcomes: list[str | float]) -> Path:
        folder = tmp_path / str(len(list(tmp_path.iterdir())))
        Journal(folder).extend([replace(result("sat-e", i, o), rows=20, cols=20) if i >= N - 2
                                else result("sat-e", i, o) for i, o in enumerate(outcomes)])
        return folder

    a, b = run([0.5] * N), run([0.5] * (N - 2) + ["error"] * 2)
    e = compare(a, b)[1].set_index("pair").loc[E]
    assert e["verdict"] == "inconclusive", e
    assert e["label"] == "inconclusive (6 of 8 instances, 2 error in B: 2 on instances " \
        "larger than any it measured)", e


def test_an_untested_pair_is_not_in_the_family_of_the_test(tmp_path):
    """The p of the other pairs is the same with or without the pair that only errored."""
    a, b = _runs(tmp_path)
    _, pairs = compare(a, b)
    write(tmp_path / "b2", {"sat-e": _solved(N - 3) + ["error"] * 3, "sat-c": ["timeout"] * N})
    _, alone = compare(a, tmp_path / "b2")
    got = pairs[pairs["pair"] != A].set_index("pair")["p"]
    assert dict(got.fillna(-1)) == dict(alone.set_index("pair")["p"].fillna(-1)), (pairs, alone)


def test_errors_in_both_runs_and_on_other_instances(tmp_path):
    write(tmp_path / "a", {"sat-a": ["error"] * 4, "sat-e": _solved(2) + ["error"] * 2})
    write(tmp_path / "b", {"sat-a": ["error"] * 4, "sat-e": ["error"] * 2 + _solved(2)})
    _, pairs = compare(tmp_path / "a", tmp_path / "b")
    p = pairs.set_index("pair")
    assert p.loc[A, "label"] == "no valid answer in A: 4 error; in B: 4 error"
    assert p.loc[E, "label"] == "no instance measured in both runs (2 error in A, 2 error in B)"
    assert set(p["verdict"]) == {"no valid answer"} and p["p"].isna().all()
    md = compare_markdown(tmp_path / "a", tmp_path / "b")
    assert "0 of 0 changed" in md and "2 not tested." in md


def test_an_error_beside_another_seed_is_left_out_of_the_fold(tmp_path):
    """Seed 0 solves in 1 s, seed 1 crashes: the instance is answered in 1 s in B, as in A (not
    "one answer in two samples", censored at the limit)."""
    write(tmp_path / "a", {"sat-a": [1.0] * 6})
    rows = []
    for i in range(6):
        other = result("sat-a", i, "error")
        rows += [result("sat-a", i, 1.0),
                 replace(other, key=other.key + "|seed=1", seed=1,
                         sample_id=other.sample_id + "-1")]
    (tmp_path / "b").mkdir()
    Journal(tmp_path / "b").extend(rows)
    _, pairs = compare(tmp_path / "a", tmp_path / "b")
    row = pairs.iloc[0]
    assert row["censored"] == 0 and row["verdict"] == "equivalent", row
    assert row["instances"] == 6 and row["error"] == 0, row
