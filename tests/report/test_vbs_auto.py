"""The report's ``auto`` gap rests on the instances whose chosen pair ran: a pick that was not
in the run (or not run there) is missing data, left out of the gap and counted, never charged
2 x the limit; where no pick ran the gap is n/a ("–"); a pick whose formulation declined the
instance was run and refused it, and counts unanswered at PAR-2 (runs written as journals of
real result records)."""

from __future__ import annotations

import math
from pathlib import Path

import pandas as pd
import pytest

from bench.report import vbs
from bench.report.data import PAR_K
from tests.report.declined_run import LIMIT, write

N = 6
HYBRID, SEED = "sat-hybrid / cadical195", "mip-seed / cadical195"
REACH = "asp-reach[wall=reach] / clingo"  # auto's pick on the small grids: not in the run


def _plan() -> dict[str, list[str | float]]:
    """sat-hybrid answers every instance in 1 s, mip-seed in 2 s."""
    return {"sat-hybrid": [1.0] * N, "mip-seed": [2.0] * N}


def _summary(tmp_path: Path, picks: dict[str, str], monkeypatch: pytest.MonkeyPatch,
             plan: dict[str, list[str | float]] | None = None) -> pd.Series:
    t = write(tmp_path / "run", plan or _plan())
    monkeypatch.setattr(vbs, "auto_picks", lambda _t: pd.Series(picks, dtype=object))
    return vbs.summary(t).set_index("tier").loc["hard"]


def test_a_pick_not_in_the_run_is_left_out_of_auto_s_gap(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Half the picks (asp-reach) were not in the run: the gap is over the other 3, where
    auto picked the virtual best (1, no gap), not over 6 with 3 charged 2 x the limit."""
    picks = {f"i{i:02d}": REACH if i < 3 else HYBRID for i in range(N)}
    s = _summary(tmp_path, picks, monkeypatch)
    assert s["auto_par2_gap"] == pytest.approx(1.0) and s["auto_sgm_gap"] == pytest.approx(1.0)
    assert (s["auto_instances"], s["auto_over"], s["auto_not_run"], s["auto_declined"],
            s["auto_solved"]) == (N, 3, 3, 0, 3)


def test_auto_s_gap_is_over_the_picks_that_ran_against_the_vbs_there(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    picks = {f"i{i:02d}": REACH if i < 2 else SEED for i in range(N)}
    s = _summary(tmp_path, picks, monkeypatch)
    assert s["auto_par2_gap"] == pytest.approx(2.0)  # mip-seed's 2 s against the VBS's 1 s
    assert s["auto_over"] == N - 2 and s["auto_not_run"] == 2


def test_no_pick_ran_gives_no_gap(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    s = _summary(tmp_path, {f"i{i:02d}": REACH for i in range(N)}, monkeypatch)
    assert math.isnan(s["auto_par2_gap"]) and math.isnan(s["auto_sgm_gap"])
    assert (s["auto_over"], s["auto_not_run"], s["auto_solved"]) == (0, N, 0)
    t = write(tmp_path / "again", _plan())
    table = vbs.extra("nurikabe", t)[0]["table"].markdown()
    assert "| nan |" not in table and "–" in table


def test_a_declined_pick_is_run_and_charged(tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """mip-seed declines instances 0-1, where auto picks it: it ran and refused them, which
    ``solve`` reports as an error, so they count unanswered at PAR-2 (not missing)."""
    plan = _plan()
    plan["mip-seed"] = ["skipped"] * 2 + [2.0] * (N - 2)
    picks = {f"i{i:02d}": SEED if i < 2 else HYBRID for i in range(N)}
    s = _summary(tmp_path, picks, monkeypatch, plan)
    expected = (2 * PAR_K * LIMIT + (N - 2) * 1.0) / (N * 1.0)
    assert s["auto_par2_gap"] == pytest.approx(expected)
    assert (s["auto_over"], s["auto_not_run"], s["auto_declined"], s["auto_solved"]) == (
        N, 0, 2, N - 2)
