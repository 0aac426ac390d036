"""The default suite's selection rule (bench.run.tiers): which tier an instance qualifies for
from measured times, with tasks that did not run left out rather than counted as timeouts."""

from __future__ import annotations

import numpy as np
import pandas as pd

from bench.records import NOT_RUN
from bench.run import tiers

LIMIT = 10.0


def rows(times: dict[str, float | None], not_run: tuple[str, ...] = (),
         instance: str = "i00") -> list[dict[str, object]]:
    """Prepared-like task rows, one repetition per pair on ``instance``: a time, or None for a
    timeout; a pair in ``not_run`` is a timeout recorded by the ladder rule (never ran)."""
    out = []
    for name, s in times.items():
        skipped = name in not_run
        ok = s is not None and not skipped
        out.append({"puzzle": "nurikabe", "form": name, "formulation": name,
                    "solver": "cadical195", "kind": "sat", "pair": f"{name} / cadical195",
                    "instance": instance, "family": "generated", "tier": "ladder",
                    "cells": 100.0, "status": "solved" if ok else "timeout", "ok": ok,
                    "wrong": False, "disagree": False, "time_s": s if ok else np.nan,
                    "par2_s": s if ok else 2 * LIMIT, "time_limit": LIMIT, "mem_mb": 1.0,
                    "constraints": 1, "variables": 1, "wall_s": None if skipped else 1.0,
                    "start": "" if skipped else "2026-11-28T00:00:00",
                    "message": f"{NOT_RUN} timed out on a smaller instance" if skipped else ""})
    return out


def test_a_not_run_pair_is_missing_not_a_timeout_in_the_hard_rule():
    # a at 0.5 s, b at 0.6 s (no 10x spread), c never ran: "hard (flat)", not "hard"
    t = pd.DataFrame(rows({"a": 0.5, "b": 0.6, "c": None}, not_run=("c",)))
    out = tiers.classify(t).set_index("instance").loc["i00"]
    assert out["rule"] == "hard (flat)"
    assert out["pairs"] == 2 and out["unanswered"] == 0
    assert out["best"] == "a / cadical195" and out["slowest_s"] == 0.6


def test_a_not_run_pair_does_not_make_an_easy_instance_out_of_a_trivial_one():
    t = pd.DataFrame(rows({"a": 0.01, "b": 0.05, "c": None}, not_run=("c",)))
    assert tiers.classify(t)["rule"].tolist() == ["trivial"]


def test_a_measured_timeout_still_counts_as_unanswered():
    t = pd.DataFrame(rows({"a": 0.5, "b": 0.6, "c": None}))
    out = tiers.classify(t).iloc[0]
    assert out["rule"] == "hard" and out["unanswered"] == 1 and out["pairs"] == 3
    assert np.isnan(out["slowest_s"])


def test_instances_keep_their_own_rule_beside_a_not_run_one():
    t = pd.DataFrame(rows({"a": 0.5, "b": 0.6, "c": None}, not_run=("c",), instance="i00")
                     + rows({"a": 0.5, "b": 0.6, "c": None}, instance="i01"))
    out = tiers.classify(t).set_index("instance")["rule"].to_dict()
    assert out == {"i00": "hard (flat)", "i01": "hard"}


def test_the_pilot_rule_on_a_real_pilot():
    """The pilot rule on real rows (the hard tier of two puzzles of a measured default run, its
    not-run tasks among them): the hard and flat instances chosen, a puzzle with none filled up
    with its slowest-best easy ones, the hopeless pairs and the TOML that declares them."""
    from pathlib import Path

    from bench.report.data import prepare

    t = prepare(pd.read_parquet(Path(__file__).parents[1] / "data" / "pilot-small.parquet"))
    out = tiers.choose(tiers.classify(t)).set_index("instance")
    nuri = out[out["puzzle"] == "nurikabe"]
    hard = nuri[nuri["rule"].isin(["hard", "hard (flat)"])]
    assert len(hard) == 7 > tiers.MAX_HARD == int(nuri["chosen"].sum())
    assert set(nuri.index[nuri["chosen"]]) <= set(hard.index)
    # the one left out is the hard one whose best pair was fastest
    assert set(hard.index) - set(nuri.index[nuri["chosen"]]) == {hard["best_s"].idxmin()}
    shik = out[out["puzzle"] == "shikaku"]
    assert not shik["rule"].isin(["hard", "hard (flat)"]).any()
    assert int(shik["chosen"].sum()) == tiers.MIN_HARD  # filled up from the easy ones
    assert not shik.at["gen-shikaku-60x60-s2-0", "chosen"]  # the fastest best is left out
    # hopeless: ran on 3 or more chosen instances and answered at most a fifth; the pairs the
    # ladder rule
    # kept off most of them (not run) are not called hopeless on that. Over every instance the
    # three HiGHS pairs ran on 3 and answered none (the peer answered 1 of 4: more than a
    # fifth); over the rule's 6 each ran on fewer than 3
    every = out.reset_index().assign(chosen=True)
    assert tiers.hopeless(t, every) == [
        "nurikabe:mip-flow/highs", "nurikabe:mip-lazy[cut=component]/highs",
        "nurikabe:mip-seed[root=model,patterns=seed,exact=false]/highs"]
    assert tiers.hopeless(t, out.reset_index()) == []
    toml = tiers.snippet(out.reset_index(), ["nurikabe:puzzlekit/external"],
                         {"gen-shikaku-60x60-s1-0": "shikaku/gen-shikaku-60x60-s1-0.txt"})
    assert '    "shikaku/gen-shikaku-60x60-s1-0.txt",' in toml
    assert f"cap = {tiers.CAP}" in toml and '"nurikabe:puzzlekit/external",' in toml


def test_a_pair_is_hopeless_when_it_answered_at_most_a_fifth_of_the_chosen():
    t = pd.DataFrame(rows({"a": 0.5, "b": None}, instance="i00")
                     + rows({"a": 0.5, "b": None}, instance="i01")
                     + rows({"a": 0.5, "b": 9.0}, instance="i02"))
    out = tiers.choose(tiers.classify(t))
    assert out["chosen"].all()
    assert tiers.hopeless(t, out) == []
    t2 = pd.DataFrame(rows({"a": 0.5, "b": None}, instance="i00")
                      + rows({"a": 0.5, "b": None}, instance="i01")
                      + rows({"a": 0.5, "b": None}, instance="i02"))
    assert tiers.hopeless(t2, tiers.choose(tiers.classify(t2))) == [
        "nurikabe:b/cadical195"]
    # one answered of five: at most a fifth, hopeless; two of five: not
    five = [rows({"a": 0.5, "b": 9.0 if i == 0 else None}, instance=f"i0{i}") for i in range(5)]
    t3 = pd.DataFrame([r for part in five for r in part])
    assert tiers.hopeless(t3, tiers.choose(tiers.classify(t3))) == ["nurikabe:b/cadical195"]
    five[1] = rows({"a": 0.5, "b": 9.0}, instance="i01")
    t4 = pd.DataFrame([r for part in five for r in part])
    assert tiers.hopeless(t4, tiers.choose(tiers.classify(t4))) == []
