"""The ranking's columns on run folders written through the real writers
(:func:`tests.report.test_compare_pairs.write`): × best has no ratio ("–") where there is no
best pair, and the count of instances a pair attempted is named "instances", not "tasks"
(three seeds of one instance are three tasks and one instance)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pandas as pd

from bench.report import tables as T
from bench.report.columns import COLUMNS
from bench.report.data import load_run, prepare
from bench.report.render import Table
from tests.report.test_compare_pairs import PAIRS, result, write

LIMIT = 10.0


def _ranking(folder: Path) -> pd.DataFrame:
    return T.ranking(prepare(load_run(folder).df))


def _shown(r: pd.DataFrame, column: str) -> list[str]:
    """The column's cells as the report prints them."""
    cols = T.rank_columns(r)
    t = Table.of(r[cols])
    return [row[cols.index(column)] for row in t.rows]


def test_x_best_is_a_dash_where_every_task_timed_out(tmp_path):
    rows = [result(f, s, k, f"real-{i:02d}", LIMIT, status="timeout", limit=LIMIT)
            for f, s, k in PAIRS[:2] for i in range(6)]
    r = _ranking(write(tmp_path / "run", rows))
    assert not r["best"].any()
    assert _shown(r, "x_best") == ["–", "–"], r[["pair", "x_best"]]


def test_x_best_is_a_ratio_where_there_is_a_best(tmp_path):
    (fa, sa, ka), (fb, sb, kb) = PAIRS[:2]
    rows = [result(fa, sa, ka, f"real-{i:02d}", 1.0, limit=LIMIT) for i in range(6)]
    rows += [result(fb, sb, kb, f"real-{i:02d}", 2.0, limit=LIMIT) for i in range(6)]
    r = _ranking(write(tmp_path / "run", rows))
    assert bool(r["best"].iloc[0]) and _shown(r, "x_best")[0] == "1"
    assert 1.9 < float(r["x_best"].iloc[1]) < 2.1


def test_the_ranking_counts_instances_and_names_them_so(tmp_path):
    # one pair on 4 instances, three seeds each: 12 tasks, 4 instances
    f, s, k = PAIRS[0]
    rows = []
    for i in range(4):
        one = result(f, s, k, f"real-{i:02d}", 1.0, limit=LIMIT)
        rows += [replace(one, key=one.key.replace("seed=0", f"seed={x}"), seed=x)
                 for x in range(3)]
    t = prepare(load_run(write(tmp_path / "run", rows)).df)
    assert len(t) == 12
    r = T.ranking(t)
    assert "tasks" not in T.rank_columns(r) and int(r["instances"].iloc[0]) == 4
    ov = T.overview({}, {"shikaku": r})
    assert "tasks" not in ov and int(ov["instances"].iloc[0]) == 4
    tip = COLUMNS["instances"].definition
    assert "in the ranking" in tip and "attempted" in tip and "ranking" not in COLUMNS[
        "tasks"].definition
