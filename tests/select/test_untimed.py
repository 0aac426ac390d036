"""A correct answer recorded without its build or solve time (untimed:
:mod:`bench.report.untimed`) is no measurement: learning and judging ``auto`` leave its cell out
as missing data, never filling it at the PAR-2 penalty as a timeout, and say how many they
left out (:mod:`bench.select.untimed`). The runs are journals of the real result records of
committed runs (Shikaku's rows, read back with the run's own table reader), one answer of
which is written without its solve time, as a task recorded so would be."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pandas as pd

from bench.records import Result
from bench.report.data import load_run, prepare
from bench.run.storage import Journal, table_results
from bench.select import learn, train
from bench.select.rules import LADDER, TRAINING
from bench.select.untimed import LeftOut
from tests.conftest import ROOT

PUZZLE = "shikaku"


def _records(run: str) -> list[Result]:
    found, bad = table_results(ROOT / run)
    assert bad == 0
    return [r for r in found if r.puzzle == PUZZLE]


def _journal(folder: Path, records: list[Result], untimed: set[tuple[str, str]]) -> Path:
    """``records`` written as the journal of a run folder, the answers of the (instance path,
    pair) ``untimed`` without their solve time."""
    folder.mkdir(parents=True)
    Journal(folder).extend([
        dataclasses.replace(r, solve_s=None)
        if (r.instance_path, f"{r.formulation} / {r.solver}") in untimed else r
        for r in records])
    return folder


def _solved_by(t: pd.DataFrame, pair: str) -> list[tuple[str, str]]:
    """The (instance path, instance) of the prepared rows ``t`` that ``pair`` answered, by
    name."""
    mine = t[(t["pair"] == pair) & t["ok"]].sort_values("instance")
    return list(zip(mine["instance_path"], mine["instance"], strict=True))


def test_training_leaves_an_untimed_answer_out_and_judging_does_not_count_it_unsolved(
        tmp_path: Path) -> None:
    """Learned on the training run's Shikaku rows and the committed ladder runs: an untimed
    answer of the single best on a training instance takes that instance out of the training
    set (not learned as a timeout, which kept it); one on a held-back instance takes it out of
    the held-back test set (not counted unsolved at PAR-2 as a task not run)."""
    records = _records(TRAINING[0])
    ladder = [ROOT / r for r in LADDER]
    base, = train.learn_and_judge([_journal(tmp_path / "base", records, set())], ladder, [])
    t = prepare(load_run(tmp_path / "base").df)
    held = t["instance"].map(train.seed_of).isin(train.HELD_BACK)
    (tr_path, tr_name), = _solved_by(t[~held], base.sbs)[:1]
    (hb_path, hb_name), = _solved_by(t[held], base.sbs)[:1]
    run = _journal(tmp_path / "untimed", records, {(tr_path, base.sbs), (hb_path, base.sbs)})
    res, = train.learn_and_judge([run], ladder, [])

    assert res.training == base.training - 1 and tr_name not in res.features.index
    assert set(res.features.index) == set(base.features.index) - {tr_name}
    (hb, ), (hb0, ) = res.tests, base.tests
    assert hb.not_run == hb0.not_run  # not a task that did not run, filled at PAR-2
    assert hb.instances == hb0.instances - 1 and hb_name not in hb.times["SBS"].index
    assert res.untimed == LeftOut(cells=1, instances=1) and hb.untimed == 1
    said = train.markdown([res]).split("\n\n")[-1]
    assert said.startswith("Left out as untimed") and (
        f"- {PUZZLE}, training: 1 training (instance, pair) cells, with 1 training instances"
        in said) and f"- {PUZZLE}, {hb.test}: 1 test instances" in said
    assert "Left out as untimed" not in train.markdown([base])


def _evidence(evidence: str) -> int:
    """The number of training instances a learned rule's evidence states."""
    found = re.search(r"(\d+) training instances", evidence)
    assert found, evidence
    return int(found.group(1))


def test_the_single_run_evaluations_leave_an_untimed_answer_out_never_impute_it(
        tmp_path: Path) -> None:
    """``python -m bench.select.learn RUN`` on a default run's Shikaku rows: learning on every
    generated tier (:func:`bench.select.learn.held_back`, which fills every missing training
    task at PAR-2) leaves out the instance of an untimed answer of a candidate, as does
    learning on the ladder tier (:func:`bench.select.learn.evaluate`); a judged tier leaves
    out an instance where a pair is untimed."""
    records = _records("results/default-20261129-045741")
    base = tmp_path / "base"
    _journal(base, records, set())
    t = prepare(load_run(base).df)
    rules, _ = learn.evaluate(base)
    pair = rules[0].low
    (la_path, _), = _solved_by(t[t["tier"] == "ladder"], pair)[:1]
    (re_path, _), = _solved_by(t[t["tier"] == "real"], pair)[:1]
    run = _journal(tmp_path / "untimed", records, {(la_path, pair), (re_path, pair)})

    (rule0, _), (rule, real) = (next((r, j) for r, j in learn.held_back(f) if j.tier == "real")
                                for f in (base, run))
    assert _evidence(rule.evidence) == _evidence(rule0.evidence) - 1  # imputed, it was kept
    (r0,), judged0 = learn.evaluate(base)
    (r1,), judged1 = learn.evaluate(run)
    assert _evidence(r1.evidence) == _evidence(r0.evidence) - 1
    tiers0, tiers = ({j.tier: j for j in js} for js in (judged0, judged1))
    assert tiers["real"].instances == tiers0["real"].instances - 1
    assert tiers["real"].missing == tiers0["real"].missing  # not a task that did not run
    assert real.trained_untimed == LeftOut(1, 1) and tiers["real"].trained_untimed == LeftOut(1, 1)
    assert tiers["real"].test_untimed == 1 and tiers["hard"].test_untimed == 0
    assert "Left out as untimed" in learn.markdown([(r1, tiers["real"])])
    assert "Left out as untimed" not in learn.markdown([(r0, tiers0["real"])])
