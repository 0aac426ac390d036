"""A suite's capped pairs the plan has no task of: warned about when misspelt, or when the suite's
own selection leaves them out; not when the run's own --puzzle, --formulation or --solver does."""

from __future__ import annotations

import shutil

import pytest

from bench.run.plan import Selection, make_plan
from bench.run.plan_caps import left_out
from tests.conftest import INSTANCES, SHIKAKU_SEEDS

REAL = ["shikaku:mip-cover/glpk", "fillomino:asp-regions[size=each]/clingo"]
#: names the suites file accepts, but no task could have: a bare name whose variants' labels
#: carry parameters, a solver of another model kind
MISSPELT = ["fillomino:asp-regions/clingo", "shikaku:mip-cover/cpsat"]

SUITE = f"""[s]
version = 1
description = "caps of two puzzles"
time_limit = 20
variants = "default"
solvers = ["cpsat", "glpk", "clingo"]

[s.tiers.hard]
cap = 1
capped = {REAL + MISSPELT}
instances = ["shikaku/a.txt", "fillomino/f.txt"]
"""


@pytest.fixture
def warned(tmp_path, monkeypatch, caplog):
    """The capped pairs warned about when the suite is planned with the given options."""
    root = tmp_path / "proj"
    for puzzle, name, src in (("shikaku", "a.txt", SHIKAKU_SEEDS[0]),
                              ("fillomino", "f.txt",
                               INSTANCES / "fillomino" / "gen-fillomino-4x4-s1-0.txt")):
        (root / "instances" / puzzle).mkdir(parents=True, exist_ok=True)
        shutil.copyfile(src, root / "instances" / puzzle / name)
    (root / "instances" / "suites.toml").write_text(SUITE)
    monkeypatch.setenv("PUZZLEBENCH_ROOT", str(root))
    monkeypatch.chdir(tmp_path)

    def plan(**options) -> list[str]:
        caplog.clear()
        with caplog.at_level("WARNING"):
            make_plan("s", **options)
        return sorted(r.args[0] for r in caplog.records
                      if "the suite caps" in r.getMessage())

    return plan


def test_every_option_leaves_out_real_pairs_unsaid_and_misspelt_ones_warned(warned):
    assert warned() == sorted(MISSPELT)  # both real pairs have a task
    assert warned(puzzles=("shikaku",)) == sorted(MISSPELT)
    assert warned(puzzles=("fillomino",)) == sorted(MISSPELT)
    assert warned(solvers=("cpsat",)) == sorted(MISSPELT)
    assert warned(formulations=("cpsat-cover",)) == sorted(MISSPELT)


def test_a_real_pair_the_suite_itself_leaves_out_is_warned(warned, tmp_path):
    """The suite caps a pair on a solver it does not list: the suite's mistake, said."""
    toml = tmp_path / "proj" / "instances" / "suites.toml"
    toml.write_text(SUITE.replace('solvers = ["cpsat", "glpk", "clingo"]',
                                  'solvers = ["cpsat", "clingo"]'))
    assert warned() == sorted([*MISSPELT, "shikaku:mip-cover/glpk"])
    # a --solver naming glpk out as well: the run's own choice, unsaid
    assert warned(solvers=("cpsat", "clingo")) == sorted(MISSPELT)


def test_left_out_needs_real_names_and_a_narrowing_option():
    sel = Selection(("shikaku",), ("cpsat-cover",), ("cpsat",))
    assert left_out("fillomino:asp-regions[size=each]/clingo", sel, (True, False, False))
    assert not left_out("fillomino:asp-regions[size=each]/clingo", sel, (False, False, False))
    assert left_out("shikaku:mip-cover/glpk", sel, (False, True, False))
    assert left_out("shikaku:mip-cover/glpk", sel, (False, False, True))
    assert not left_out("shikaku:cpsat-cover/cpsat", sel, (True, True, True))  # selected
    for pair in [*MISSPELT, "shikaku:mip-covr/glpk", "nope:mip-cover/glpk",
                 "shikaku:mip-cover/clasp"]:
        assert not left_out(pair, sel, (True, True, True)), pair
