"""The report's comparison against a peer package: our best pair against puzzlekit,
solved counts, PAR-2 and the per-instance ratio distribution, from a real run."""

from __future__ import annotations

import importlib.util
import math
from pathlib import Path

import pandas as pd
import pytest

from bench.report import load_run, peers, prepare, tables, write_report
from bench.report.data import per_instance
from tests.report.conftest import _root, run

pytestmark = pytest.mark.skipif(importlib.util.find_spec("puzzlekit") is None,
                                reason="the peers extra (puzzlekit) is not installed")

REAL = ["shikaku/shikaku-10x10-2f90c00e.txt", "shikaku/shikaku-10x10-ac770ef9.txt"]


@pytest.fixture(scope="module")
def peer_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tmp = tmp_path_factory.mktemp("peers")
    root = _root(tmp, ["shikaku/seed-10x10.txt", *REAL])
    p = run(root, tmp / "run", "--formulation", "cpsat-cover", "--formulation", "puzzlekit",
            "--time-limit", "60")
    assert p.returncode == 0, p.stderr
    return tmp / "run"


def test_ratios_are_peer_over_ours_per_instance(peer_run: Path) -> None:
    t = prepare(load_run(peer_run).df)
    pi = per_instance(t)
    v = peers.versus(pi, tables.ranking(t))
    assert list(v["scope"]) == ["real", "all"]
    allrow = v[v["scope"] == "all"].iloc[0]
    assert allrow["peer"] == "puzzlekit / external"
    assert allrow["ours"] == "cpsat-cover / cpsat"
    assert (allrow["instances"], allrow["ours_solved"], allrow["peer_solved"]) == (3, 3, 3)
    # the median ratio from the raw build + solve times of the two pairs
    own = t["build_s"] + t["solve_s"]
    by = own.groupby([t["pair"], t["instance"]]).median()
    r = (by["puzzlekit / external"] / by["cpsat-cover / cpsat"]).sort_values()
    assert math.isclose(allrow["ratio_median"], float(r.median()), rel_tol=1e-9)
    assert allrow["ours_faster"] == int((r > 1).sum())
    assert v[v["scope"] == "real"].iloc[0]["instances"] == 2  # the seed is not a real puzzle


def test_report_shows_the_peer_section(peer_run: Path, tmp_path: Path) -> None:
    out = write_report(peer_run, tmp_path / "rep")
    md = (out / "summary.md").read_text()
    assert "Against puzzlekit / external on 2 real instances" in md
    assert "ratio_median" in md
    assert (out / "shikaku-peers.png").stat().st_size > 1000
    assert "Against the peer packages" in (out / "index.html").read_text()


def test_an_instance_one_side_did_not_answer_is_no_ratio() -> None:
    rows = [("ours", "a", True, 0.01), ("ours", "b", True, 0.02), ("ours", "c", False, None),
            ("peer", "a", True, 0.10), ("peer", "b", False, None), ("peer", "c", True, 1.0)]
    pi = pd.DataFrame([{"pair": p, "instance": i, "ok": ok, "time_s": ts,
                        "par2_s": ts if ok else 20.0, "family": "real (puzz.link)"}
                       for p, i, ok, ts in rows])
    rank = pd.DataFrame({"pair": ["ours", "peer"], "kind": ["sat", "external"],
                         "solved": [2, 2]})
    v = peers.versus(pi, rank).set_index("scope").loc["real"]
    assert (v["ratios"], v["only_ours"], v["only_peer"]) == (1, 1, 1)
    assert v["ratio_median"] == pytest.approx(10.0)
    assert v["ours_par2_s"] == pytest.approx((0.01 + 0.02 + 20.0) / 3)
