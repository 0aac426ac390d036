"""The declared default against the robust choice (lowest PAR-2 over the hard and real tiers,
peers left out), on a hand-made run with a known answer."""

from __future__ import annotations

import pandas as pd
import pytest

from bench.puzzles import get_puzzle
from bench.records import Result
from bench.report import defaults
from bench.report.data import prepare


def run(times: dict[str, dict[str, float | None]], puzzle: str = "shikaku") -> pd.DataFrame:
    """One row per (pair, instance): ``times[pair][instance]`` seconds, None for a timeout
    under a 10 s limit; instances named ``hard-*`` are in the hard tier, the rest real."""
    rows = []
    for pair, per in times.items():
        form, solver = pair.split(" / ")
        for inst, secs in per.items():
            rows.append(Result(
                key=f"{inst}|{pair}", puzzle=puzzle, instance=inst,
                instance_path=f"/x/{inst}.txt", rows=10, cols=10, formulation=form,
                kind="external" if solver == "external" else "sat", solver=solver,
                solver_version="1", status="solved" if secs is not None else "timeout",
                build_s=0.0, solve_s=secs if secs is not None else 10.0, time_limit=10.0,
                tier="hard" if inst.startswith("hard") else "real").__dict__)
    return prepare(pd.DataFrame(rows))


INSTANCES = ["hard-1", "hard-2", "real-1", "real-2"]
_d = get_puzzle("shikaku").default
assert _d is not None
#: Shikaku's declared default as a pair label, whatever it is declared to be
DECLARED = f"{_d.formulation} / {_d.solver}"
#: a built-in pair that is not the declared default
OTHER = "other-cover / other-solver"


def test_the_robust_choice_has_the_lowest_par2_and_a_fast_pair_that_times_out_is_not_it():
    t = run({
        # fastest where it answers, but a hard timeout: PAR-2 (0.1 + 20 + 0.1 + 0.1) / 4
        OTHER: dict(zip(INSTANCES, [0.1, None, 0.1, 0.1], strict=True)),
        # the declared default: answers all, PAR-2 1.0
        DECLARED: dict.fromkeys(INSTANCES, 1.0),
        # a peer faster than both is left out
        "puzzlekit / external": dict.fromkeys(INSTANCES, 0.01),
        # a pair that ran on part of the instances is not compared
        "mip-cover / highs": {"hard-1": 0.5},
    })
    tab, lines = defaults.table(t)
    row = tab.set_index("puzzle").loc["shikaku"]
    assert row["declared"] == row["robust"] == DECLARED
    assert row["hard"] == "2/2" and row["real"] == "2/2"
    assert row["x_robust"] == 1.0
    assert lines == [f"shikaku: the declared default {DECLARED} is the robust choice."]


def test_a_declared_default_slower_than_the_robust_choice_says_by_how_much():
    t = run({OTHER: dict.fromkeys(INSTANCES, 0.25), DECLARED: dict.fromkeys(INSTANCES, 1.0)})
    tab, lines = defaults.table(t)
    row = tab.iloc[0]
    assert row["robust"] == OTHER and row["robust_par2_s"] == pytest.approx(0.25)
    assert row["x_robust"] == pytest.approx(4.0)
    assert f"has 4.00x the PAR-2 of the robust choice {OTHER}" in lines[0]


def test_a_declared_default_that_did_not_run_is_named_as_such():
    t = run({"other[x=1] / cadical195": dict.fromkeys(INSTANCES, 0.1)}, puzzle="yinyang")
    tab, lines = defaults.table(t)
    assert tab.iloc[0]["declared"].endswith("(it did not run here)")
    assert tab.iloc[0]["hard"] == "–" and tab.iloc[0]["x_robust"] == "–"
    assert lines[0].endswith("the robust choice is other[x=1] / cadical195.")


def test_no_hard_or_real_tier_no_judgement():
    t = run({OTHER: {"hard-1": 0.1}}).assign(tier="ladder")
    tab, lines = defaults.table(t)
    assert tab.empty and lines == []


def test_a_declared_selector_is_reported_by_the_pairs_it_picks_and_a_pick_not_run_is_counted(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A declared default that is a selector (``robust``) is judged by the pair it picks per
    instance, from the run's rows; an instance whose pick did not run counts unanswered at
    PAR-2 and in ``not_run``: never "did not run here", never dropped."""
    from bench.puzzles.base import Default
    from bench.select import features, rules
    from bench.select.auto import Rule

    a, b = "a-cover / sat", "b-cover / sat"
    monkeypatch.setattr(type(get_puzzle("shikaku")), "default", Default("robust", "robust"))
    monkeypatch.setitem(rules.ROBUST, "shikaku", Rule("shikaku", a, b, "rows", 15.0))
    # hard-1 and real-1 have 10 rows (a), hard-2 and real-2 have 20 (b)
    monkeypatch.setattr(features, "of_file", lambda p: {
        "rows": 10.0 if str(p).endswith("-1.txt") else 20.0})
    monkeypatch.setattr("bench.suites.locate", lambda p: p)
    t = run({a: dict.fromkeys(INSTANCES, 1.0),
             b: {"hard-2": 0.5}})  # b did not run real-2: its pick there is not run
    tab, lines = defaults.table(t)
    row = tab.set_index("puzzle").loc["shikaku"]
    assert row["declared"] == "robust (a pair per instance)"
    assert row["hard"] == "2/2" and row["real"] == "1/2" and row["not_run"] == 1
    assert row["robust"] == a  # the only pair that ran every instance
    assert abs(row["par2_s"] - (1.0 + 0.5 + 1.0 + 20.0) / 4) < 1e-9
    assert row["x_robust"] == 5.62
    assert lines == ["shikaku: the declared default is the selector robust; the pairs it picks "
                     f"have 5.62x the PAR-2 of the robust choice {a} (1 instances' picks did "
                     "not run here, counted unanswered)."]
