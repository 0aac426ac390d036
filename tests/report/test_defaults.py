"""The declared default against the robust choice (lowest PAR-2 over the hard and real tiers,
peers left out), on a hand-made run with a known answer."""

from __future__ import annotations

from pathlib import Path

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
    assert lines == [f"shikaku: the declared default {DECLARED} has the lowest mean PAR-2 of 2 "
                     "pair(s) over 4 instance(s) (a point estimate: what defines the robust "
                     "choice); inconclusive: 4 instance(s), too few for a verdict (at least 5)."]
    assert row["instances"] == 4 and row["vs_robust"] == "inconclusive (too few: 4 instance(s))"


def test_a_declared_default_slower_than_the_robust_choice_says_by_how_much():
    t = run({OTHER: dict.fromkeys(INSTANCES, 0.25), DECLARED: dict.fromkeys(INSTANCES, 1.0)})
    tab, lines = defaults.table(t)
    row = tab.iloc[0]
    assert row["robust"] == OTHER and row["robust_par2_s"] == pytest.approx(0.25)
    assert row["x_robust"] == pytest.approx(4.0)
    assert f"has 4.00x the mean PAR-2 of the robust choice {OTHER}, the lowest of 2 pair(s) " \
           "over 4 instance(s) (a point estimate); inconclusive" in lines[0]


def test_a_declared_default_that_did_not_run_is_named_as_such():
    t = run({"other[x=1] / cadical195": dict.fromkeys(INSTANCES, 0.1)}, puzzle="yinyang")
    tab, lines = defaults.table(t)
    assert tab.iloc[0]["declared"].endswith("(it did not run here)")
    assert tab.iloc[0]["hard"] == "–" and tab.iloc[0]["x_robust"] == "–"
    assert lines[0].endswith("the robust choice other[x=1] / cadical195 has the lowest mean "
                             "PAR-2 of 1 pair(s) over 4 instance(s), a point estimate.")


def test_no_hard_or_real_tier_no_judgement():
    t = run({OTHER: {"hard-1": 0.1}}).assign(tier="ladder")
    tab, lines = defaults.table(t)
    assert tab.empty and lines == []


A, B = "a-cover / sat", "b-cover / sat"


@pytest.fixture
def selector(monkeypatch: pytest.MonkeyPatch) -> None:
    """Shikaku declared ``robust``: A on files whose text is at most 15, else B; a file's
    features are read from its text (``{"rows": float(text)}``)."""
    from bench.puzzles.base import Default
    from bench.select import features, rules
    from bench.select.auto import Rule

    monkeypatch.setattr(type(get_puzzle("shikaku")), "default", Default("robust", "robust"))
    monkeypatch.setitem(rules.ROBUST, "shikaku", Rule("shikaku", A, B, "rows", 15.0))

    def of_file(p: object) -> dict[str, float]:
        with open(str(p)) as f:
            return {"rows": float(f.read())}

    monkeypatch.setattr(features, "of_file", of_file)


def files_run(folder: Path, rows: dict[tuple[str, str], int],
              times: dict[str, dict[tuple[str, str], float]]) -> pd.DataFrame:
    """A run of instance files written to ``folder`` (``rows[(tier, name)]`` their text, the
    instance's feature), each keyed by its content digest: ``times[pair][(tier, name)]``
    seconds, all answered under a 10 s limit."""
    from bench.records import instance_digest

    paths = {}
    for (tier, name), text in rows.items():
        (folder / tier).mkdir(exist_ok=True)
        paths[tier, name] = folder / tier / f"{name}.txt"
        paths[tier, name].write_text(str(text))
    out = []
    for pair, per in times.items():
        form, solver = pair.split(" / ")
        for (tier, name), secs in per.items():
            out.append(Result(
                key=f"{instance_digest(paths[tier, name])}|{pair}", puzzle="shikaku",
                instance=name, instance_path=str(paths[tier, name]), rows=10, cols=10,
                formulation=form, kind="sat", solver=solver, solver_version="1",
                status="solved", build_s=0.0, solve_s=secs, time_limit=10.0,
                tier=tier).__dict__)
    return prepare(pd.DataFrame(out))


FILES = {("hard", "h1"): 10, ("hard", "h2"): 20, ("real", "r1"): 10, ("real", "r2"): 20}


@pytest.mark.usefixtures("selector")
def test_a_declared_selector_is_reported_by_the_pairs_it_picks_and_a_pick_not_run_is_counted(
        tmp_path: Path) -> None:
    """A declared default that is a selector (``robust``) is judged by the pair it picks per
    instance, from the run's rows; an instance where its pick did not run counts unanswered
    at PAR-2 and in ``not_run``, never dropped."""
    t = files_run(tmp_path, FILES, {A: dict.fromkeys(FILES, 1.0),
                                    B: {("hard", "h2"): 0.5}})  # B did not run r2
    # another puzzle's instances of the same tier and names are other files
    t = pd.concat([t, run({OTHER: {"r1": 1.0, "r2": 1.0}}, puzzle="yinyang")])
    tab, lines = defaults.table(t)
    row = tab.set_index("puzzle").loc["shikaku"]
    lines = [line for line in lines if line.startswith("shikaku")]
    assert row["declared"] == "robust (a pair per instance)"
    assert row["hard"] == "2/2" and row["real"] == "1/2"
    assert row["robust"] == A  # the only pair that ran every instance
    assert abs(row["par2_s"] - (1.0 + 0.5 + 1.0 + 20.0) / 4) < 1e-9
    assert row["x_robust"] == 5.62
    assert (row["not_run"], row["fallback"], row["unknown"]) == (1, 0, 0)
    assert lines == ["shikaku: the declared default is the selector robust; the pairs it picks "
                     f"have 5.62x the mean PAR-2 of the robust choice {A} (1 instances' picks "
                     "did not run here (or declined with no row of the fallback pair), counted "
                     "unanswered; over 4 instance(s), a point estimate: the test compares "
                     "pairs)."]


@pytest.mark.usefixtures("selector")
def test_a_pick_that_declined_is_replaced_by_the_fallback_pairs_row_and_one_not_run_is_not(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Where the pick declined the instance (a ``skipped`` row), the fallback pair ``solve``
    runs in its place stands in, counted in ``fallback``; where the pick did not run at all,
    ``solve`` would have run it: no stand-in, unanswered and in ``not_run``."""
    from bench.select import rules

    monkeypatch.setitem(rules.FALLBACK, "shikaku", A)
    t = files_run(tmp_path, FILES, {A: dict.fromkeys(FILES, 1.0),
                                    B: {("real", "r2"): 0.5}})  # B did not run h2
    t.loc[(t["pair"] == B) & (t["instance"] == "r2"), "status"] = "skipped"  # B declined r2
    row = defaults.table(t)[0].set_index("puzzle").loc["shikaku"]
    assert row["real"] == "2/2" and row["hard"] == "1/2"
    assert abs(row["par2_s"] - (1.0 + 20.0 + 1.0 + 1.0) / 4) < 1e-9
    assert (row["fallback"], row["not_run"], row["unknown"]) == (1, 1, 0)


@pytest.mark.usefixtures("selector")
def test_a_pick_is_unknown_where_the_file_is_unreadable_or_not_the_runs(tmp_path: Path) -> None:
    """A file gone, or changed since the run (its digest is not the task key's), has no known
    pick: left out of the figures, of the robust choice's it is compared with too, and
    counted in ``unknown``, not as a pick that did not run."""
    t = files_run(tmp_path, FILES, {A: dict.fromkeys(FILES, 1.0),
                                    B: {**dict.fromkeys(FILES, 0.5), ("hard", "h2"): 0.1}})
    (tmp_path / "hard" / "h2.txt").unlink()
    (tmp_path / "real" / "r1.txt").write_text("11")  # still A's side: only the digest tells
    tab, lines = defaults.table(t)
    row = tab.set_index("puzzle").loc["shikaku"]
    assert row["hard"] == "1/1" and row["real"] == "1/1"  # h1 (A) and r2 (B)
    assert abs(row["par2_s"] - (1.0 + 0.5) / 2) < 1e-9
    assert row["robust"] == B and row["x_robust"] == 1.5  # B's 0.5 + 0.5 on h1 and r2 alone
    assert (row["unknown"], row["not_run"], row["fallback"]) == (2, 0, 0)
    assert "2 instances left out of both: their picks are unknown" in lines[0]
    assert "did not run" not in lines[0]


@pytest.mark.usefixtures("selector")
def test_a_selector_with_no_known_pick_says_so_not_that_none_ran(tmp_path: Path) -> None:
    t = files_run(tmp_path, FILES, {A: dict.fromkeys(FILES, 1.0)})
    for f in FILES:
        (tmp_path / f[0] / f"{f[1]}.txt").unlink()
    tab, lines = defaults.table(t)
    row = tab.set_index("puzzle").loc["shikaku"]
    assert row["declared"].startswith("robust (no pick can be known here")
    assert row["unknown"] == 4 and row["par2_s"] == "–"
    assert "none of the pairs it picks ran" not in lines[0]


@pytest.mark.usefixtures("selector")
def test_a_key_without_a_content_digest_is_read_from_its_file(tmp_path: Path) -> None:
    """A run written before task keys carried the instance's content digest cannot be checked
    against it: the pick is made from the file as it is, not left unknown."""
    t = files_run(tmp_path, FILES, {A: dict.fromkeys(FILES, 1.0), B: dict.fromkeys(FILES, 0.5)})
    t["key"] = "path:" + t["instance_path"] + "|" + t["pair"]
    row = defaults.table(t)[0].set_index("puzzle").loc["shikaku"]
    assert (row["unknown"], row["hard"], row["real"]) == (0, "2/2", "2/2")
    assert abs(row["par2_s"] - (1.0 + 0.5 + 1.0 + 0.5) / 4) < 1e-9


@pytest.mark.usefixtures("selector")
def test_a_selector_none_of_whose_picks_ran_is_named_as_such(tmp_path: Path) -> None:
    t = files_run(tmp_path, FILES, {OTHER: dict.fromkeys(FILES, 1.0)})
    tab, lines = defaults.table(t)
    row = tab.set_index("puzzle").loc["shikaku"]
    assert row["declared"] == "robust (none of the pairs it picks ran here)"
    assert row["par2_s"] == "–" and row["not_run"] == 4
    assert "none of the pairs it picks ran here" in lines[0]


@pytest.mark.usefixtures("selector")
def test_two_tiers_sharing_an_instance_name_each_have_their_own_file(tmp_path: Path) -> None:
    """Instances are told apart by (tier, name), each read from its own path: the same
    content as hard/x and real/x (one name after :func:`prepare`), real/x gone since the
    run: hard x still has its pick (A), real x's is unknown (left out)."""
    both = {("hard", "x"): 10, ("real", "x"): 10}
    t = files_run(tmp_path, both, {A: dict.fromkeys(both, 1.0), B: dict.fromkeys(both, 2.0)})
    (tmp_path / "real" / "x.txt").unlink()
    row = defaults.table(t)[0].set_index("puzzle").loc["shikaku"]
    assert row["hard"] == "1/1" and row["real"] == "–"
    assert abs(row["par2_s"] - 1.0) < 1e-9
    assert (row["unknown"], row["not_run"], row["fallback"]) == (1, 0, 0)


SIX = ["hard-1", "hard-2", "hard-3", "real-1", "real-2", "real-3"]


def test_a_declared_default_slower_than_the_robust_choice_gets_the_verdicts_label():
    """Over 6 instances the declared pair takes 4x the robust choice's time on each (3.88x
    with the 10 ms shift): the
    verdicts' test separates it, and the defaults line gives that verdict with its factor."""
    t = run({OTHER: dict(zip(SIX, [0.2, 0.25, 0.3, 0.22, 0.27, 0.24], strict=True)),
             DECLARED: dict(zip(SIX, [0.8, 1.0, 1.2, 0.88, 1.08, 0.96], strict=True))})
    tab, lines = defaults.table(t)
    row = tab.iloc[0]
    assert row["robust"] == OTHER and row["instances"] == 6
    assert str(row["vs_robust"]).startswith("separated, 3.88x [")
    assert "the verdicts' test against it: separated, 3.88x [" in lines[0]
    assert "max-T p = " in lines[0]


def test_one_instance_never_makes_the_declared_default_the_robust_choice_as_a_finding():
    t = run({DECLARED: {"real-1": 0.005}, OTHER: {"real-1": 0.006}})
    tab, lines = defaults.table(t)
    assert "is the robust choice" not in lines[0]
    assert "1 instance(s)" in lines[0] and "a point estimate" in lines[0]
    assert "inconclusive: 1 instance(s), too few for a verdict" in lines[0]
    assert tab.iloc[0]["vs_robust"] == "inconclusive (too few: 1 instance(s))"


def test_no_verdict_against_a_robust_choice_the_test_does_not_make_best():
    """OTHER is fastest but times out once: its PAR-2 is the higher, so DECLARED is the robust
    choice, while the test's best (lowest mean log time, the timeout at the limit) is OTHER:
    the report has no verdict against the robust choice, and says so."""
    t = run({OTHER: dict(zip(SIX, [0.1, None, 0.1, 0.1, 0.1, 0.1], strict=True)),
             DECLARED: dict.fromkeys(SIX, 1.0)})
    tab, lines = defaults.table(t)
    row = tab.iloc[0]
    assert row["robust"] == DECLARED
    assert row["vs_robust"] == ("inconclusive (no verdict against it: the test's best (lowest "
                                f"mean log time, timeouts at the limit) is {OTHER})")
    assert "is the robust choice" not in lines[0]
