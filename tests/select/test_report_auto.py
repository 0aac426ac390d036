"""The report's VBS table carries the committed ``auto`` rule's gap beside the single best's,
computed on a committed run (the v12 run B)."""

from __future__ import annotations

import math

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
    assert {"auto_instances", "auto_solved", "auto_par2_gap", "auto_sgm_gap"} <= set(s.columns)
    hard = s.loc["hard"].to_dict()
    real = s.loc["real"].to_dict()
    # on the hard tier the rule picks sat-hybrid, the tier's single best, on every instance
    assert hard["auto_instances"] == 6 and hard["auto_solved"] == 6
    assert math.isclose(hard["auto_par2_gap"], hard["par2_gap"])
    assert real["auto_par2_gap"] >= 1.0
    picks = vbs.auto_picks(nk)
    path = nk.loc[nk["instance"] == "nurikabe-24x14-a7cfddbb", "instance_path"].iloc[0]
    assert picks["nurikabe-24x14-a7cfddbb"] == choose(RULES["nurikabe"],
                                                      of_file(ROOT / path)).pair
    md = "\n".join(x["title"] for x in vbs.extra("nurikabe", nk))
    assert "auto" in md
