"""The report's VBS table carries the committed ``auto`` rule's gap beside the single best's,
computed on a committed run (the v12 run B): over the instances of a tier whose chosen pair
was run (a chosen pair not run is left out and counted), with the tiers of its training data
marked."""

from __future__ import annotations

import math

import pandas as pd

from bench.report import vbs
from bench.report.data import load_run, prepare
from bench.select.auto import choose
from bench.select.features import of_file
from bench.select.rules import RULES
from tests.conftest import ROOT

RUN = ROOT / "results" / "default-20261129-045741"


def test_the_vbs_table_has_auto_s_gap_per_tier() -> None:
    t = prepare(load_run(RUN).df)
    nk = t[t["puzzle"] == "nurikabe"]
    s = vbs.summary(nk).set_index("tier")
    assert {"auto_instances", "auto_not_run", "auto_solved", "auto_par2_gap", "auto_sgm_gap",
            "auto_in_sample"} <= set(s.columns)
    # every instance of a tier is counted, whether the chosen pair ran it or not
    assert (s["auto_instances"] == s["instances"]).all()
    assert (s["auto_over"] + s["auto_not_run"] == s["instances"]).all()
    # the ladder tier is the rules' training data: marked; the real and hard tiers are not
    assert bool(s.loc["ladder", "auto_in_sample"])
    assert not s.loc["real", "auto_in_sample"] and not s.loc["hard", "auto_in_sample"]
    assert (s.loc[["real"], "auto_par2_gap"] >= 1.0).all()
    picks = vbs.auto_picks(nk)
    path = nk.loc[nk["instance"] == "nurikabe-24x14-a7cfddbb", "instance_path"].iloc[0]
    assert picks["nurikabe-24x14-a7cfddbb"] == choose(RULES["nurikabe"],
                                                      of_file(ROOT / path)).pair
    md = "\n".join(x["title"] for x in vbs.extra("nurikabe", nk))
    assert "auto_not_run" in md and "in_sample" in md and "cost is not included" in md


def test_an_instance_whose_chosen_pair_did_not_run_is_left_out_of_the_gap() -> None:
    a, b = "sat-lazy / cadical195", "sat-hybrid / cadical195"
    par2 = pd.DataFrame({a: [1.0, float("nan")], b: [2.0, 3.0]}, index=["i1", "i2"])
    ok = par2.notna().astype(float).where(par2.notna())
    picks = pd.Series({"i1": a, "i2": a})
    limit = pd.Series({"i1": 10.0, "i2": 10.0})
    r = vbs.auto_row(par2, ok, picks, limit)
    assert r["auto_instances"] == 2 and r["auto_not_run"] == 1 and r["auto_solved"] == 1
    assert r["auto_over"] == 1 and r["auto_declined"] == 0
    assert math.isclose(r["auto_par2_gap"], 1.0 / 1.0)  # i1 alone, where a is the VBS
    assert r["auto_in_sample"] is False
