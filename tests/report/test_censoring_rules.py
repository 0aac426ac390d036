"""What counts as answered, and what is censored, in the report and in ``puzzlebench compare``,
on small run folders written through the real writers (:class:`bench.records.Result`,
:class:`bench.run.storage.Journal`, :func:`bench.run.storage.consolidate`):

- a time answered above the shared limit L of two runs (the run with the larger limit), or
  of two pairs of one run, is censored at L like an unanswered one: the factor is then a
  bound, never "equivalent";
- an instance is answered only by a strict majority of its samples: one solved and one
  timed out is unanswered, never a folded time above the limit taken as measured;
- an inexact formulation's "infeasible" (it may cut solutions off) is an answer only where
  an exact formulation also answered infeasible on the instance.
"""

from __future__ import annotations

import math
from dataclasses import replace
from pathlib import Path

import numpy as np
import pandas as pd

from bench.records import Result
from bench.report import verdicts as V
from bench.report.compare import compare, paired_instances
from bench.report.data import PAR_K, load_run, per_instance, prepare
from tests.report.test_compare_pairs import PAIRS, result, write
from tests.report.test_verdicts import frame

F, S, K = PAIRS[2]  # mip-a / highs


def _slower_under_a_larger_limit(tmp: Path, n: int) -> tuple[Path, Path]:
    """A at a 3 s limit answers every instance in 2.60-2.95 s; B at 10 s in 1.45-1.73x that
    (4-5 s): every instance slower in B, and every B time above A's limit."""
    ta = [2.6 + 0.35 * i / (n - 1) for i in range(n)]
    fb = [1.45 + 0.28 * ((i * 7) % n) / (n - 1) for i in range(n)]
    ra = [result(F, S, K, f"real-{i:02d}", t, limit=3.0) for i, t in enumerate(ta)]
    rb = [result(F, S, K, f"real-{i:02d}", t * f, limit=10.0)
          for i, (t, f) in enumerate(zip(ta, fb, strict=True))]
    return write(tmp / "a", ra), write(tmp / "b", rb)


def test_a_time_above_the_shared_limit_is_censored_and_never_equivalent(tmp_path):
    a, b = _slower_under_a_larger_limit(tmp_path / "five", 5)
    _, pairs = compare(a, b)
    row = pairs.iloc[0]
    # B's 4-5 s are capped at A's 3 s: censored, the factor a lower bound
    assert row["censored"] == 5 and row["bound"] == "≥", row
    assert row["verdict"] != "equivalent" and "equivalent" not in row["label"], row
    assert math.isnan(row["factor_hi"]) and math.isnan(row["factor_lo"]), row  # no interval
    assert row["factor"] < 1.25, row
    m = paired_instances(prepare(load_run(a).df), prepare(load_run(b).df))
    assert m["censored_b"].all() and not m["censored_a"].any()
    # on 12 instances the test separates them: the label shows the factor as a bound
    a, b = _slower_under_a_larger_limit(tmp_path / "twelve", 12)
    _, pairs = compare(a, b)
    label = pairs.iloc[0]["label"]
    assert label.startswith("changed: ≥ ") and "x slower (censored: no interval)" in label, label


def _two_samples(tmp: Path, second: str) -> Path:
    """One pair on 6 instances, two seeds each: seed 0 solves in 1 s, seed 1 ends ``second``
    (10 s limit)."""
    out: list[Result] = []
    for i in range(6):
        first = result(F, S, K, f"real-{i:02d}", 1.0, limit=10.0)
        other = replace(first, key=first.key.replace("seed=0", "seed=1"), seed=1)
        if second == "timeout":
            other = replace(other, status="timeout", checked=None, build_s=1.0, solve_s=9.0)
        out += [first, other]
    return write(tmp, out)


def test_one_answer_in_two_samples_is_unanswered(tmp_path):
    half = _two_samples(tmp_path / "half", "timeout")
    pi = per_instance(prepare(load_run(half).df))
    assert not pi["ok"].any(), pi[["instance", "ok_frac", "par2_s"]]
    assert (pi["par2_s"] > pi["time_limit"]).all()  # the folded PAR-2 lies above the limit
    # compare: such an instance is censored in its run, never a measured time
    _, pairs = compare(half, _two_samples(tmp_path / "both", "solved"))
    row = pairs.iloc[0]
    assert row["censored"] == 6 and row["verdict"] != "equivalent", row


def _infeasible(tmp: Path, exact_too: bool) -> Path:
    """An inexact pair answers infeasible on 3 instances (no known solution); with
    ``exact_too`` an exact pair answers infeasible there too, else it times out."""
    out: list[Result] = []
    for i in range(3):
        x = f"real-{i:02d}"
        inexact = replace(result("mip-a", "highs", "mip", x, 1.0, status="infeasible"),
                          exact=False, checked=None)
        other = result("cpsat-a", "cpsat", "cpsat", x, 2.0,
                       status="infeasible" if exact_too else "timeout", limit=600.0)
        out += [inexact, replace(other, checked=None)]
    return write(tmp, out)


def test_an_inexact_infeasible_is_an_answer_only_where_an_exact_pair_agrees(tmp_path):
    t = prepare(load_run(_infeasible(tmp_path / "alone", exact_too=False)).df)
    inexact = t[t["formulation"] == "mip-a"]
    assert not inexact["ok"].any() and not inexact["wrong"].any(), inexact
    assert (inexact["par2_s"] == PAR_K * 600.0).all()  # unanswered: PAR-2, never 1 s
    t = prepare(load_run(_infeasible(tmp_path / "agreed", exact_too=True)).df)
    assert t["ok"].all(), t[["formulation", "status", "exact", "ok"]]


def test_the_report_censors_an_answer_above_the_limit_another_pair_ran_under():
    # one run, two pairs on the same 8 instances: a at a 3 s limit (2.60-2.95 s), b at 10 s
    # and 1.45-1.73x slower (every time above 3 s): b's times capped at 3 s are a bound
    n = 8
    ta = np.linspace(2.6, 2.95, n)
    tb = ta * np.linspace(1.45, 1.73, n)[::-1]
    t = pd.concat([frame(ta[None, :], ["a"], limit=3.0), frame(tb[None, :], ["b"])])
    row = V.compare(per_instance(t)).set_index("pair").loc["b / cadical195"]
    assert row["censored"] == "other" and row["verdict"] != V.EQUIVALENT, row
    assert V.factor(row).startswith("≥ "), V.factor(row)
