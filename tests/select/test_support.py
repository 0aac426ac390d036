"""A rule's support: the training range of the grid's shape and of each feature the rule reads.
Outside it ``auto`` still chooses, and its reason (``solve --json``'s ``auto.why``) says that
the rule extrapolates there and on which feature; on real instance files and a real solve."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from bench.instance import read_instance
from bench.select.auto import Rule, choose
from bench.select.rules import ROBUST, RULES, resolve
from tests.conftest import ROOT

SUPPORT = (("rows", 8.0, 40.0), ("cols", 8.0, 40.0), ("aspect", 1.0, 1.4))


def _grid(path: Path, puzzle: str, rows: list[str]) -> Path:
    path.write_text(f"puzzle: {puzzle}\n\n" + "\n".join(rows) + "\n")
    return path


def test_choose_says_each_feature_outside_the_training_range() -> None:
    r = Rule("shikaku", "sat-cover / cadical195", "cpsat-cover / cpsat", "rows", 18.5,
             support=SUPPORT)
    inside = choose(r, {"rows": 10.0, "cols": 12.0, "aspect": 1.2})
    assert inside.why == "rows = 10 <= 18.5: sat-cover / cadical195" and inside.outside == ()
    far = choose(r, {"rows": 30.0, "cols": 12.0, "aspect": 2.5})
    assert far.pair == "cpsat-cover / cpsat" and far.outside == ("aspect",)
    assert far.why.endswith("; outside the training range: aspect = 2.5 > 1.4")
    one = Rule("yinyang", "sat-lazy / cadical195", "sat-lazy / cadical195", support=SUPPORT)
    tiny = choose(one, {"rows": 1.0, "cols": 1.0, "aspect": 1.0})
    assert tiny.outside == ("rows", "cols")
    assert "outside the training range: rows = 1 < 8, cols = 1 < 8" in tiny.why


def test_every_committed_rule_has_its_support() -> None:
    for rule in (*RULES.values(), *ROBUST.values()):
        names = [n for n, _, _ in rule.support]
        assert {"rows", "cols", "aspect"} | rule.reads() == set(names), rule.puzzle
        assert all(lo <= hi for _, lo, hi in rule.support)


def test_a_transposed_grid_is_said_to_lie_outside_the_training_range(tmp_path: Path) -> None:
    """The Shikaku rule reads the rows only, and was learned on near-square grids: a 12x30
    grid and its transpose get different pairs, each said to be an extrapolation."""
    rows = ["2 . . . . . . . . . . . . . . . . . . . . . . . . . . . . ."] * 12
    wide = read_instance(_grid(tmp_path / "wide.txt", "shikaku", rows))
    tall = read_instance(_grid(tmp_path / "tall.txt", "shikaku", [" ".join(["."] * 12)] * 30))
    for inst in (wide, tall):
        choice = resolve(inst)[2]
        assert choice.outside == ("aspect",), choice.why
        assert "outside the training range: aspect = 2.5 > " in choice.why
    inside = resolve(read_instance(ROOT / "instances/shikaku/seed-10x10.txt"))[2]
    assert inside.outside == () and "outside" not in inside.why


def test_solve_json_says_a_tiny_grid_lies_outside_the_training_range(tmp_path: Path) -> None:
    path = _grid(tmp_path / "one.txt", "shikaku", ["1"])
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    p = subprocess.run([sys.executable, "-m", "bench.cli", "solve", str(path), "--formulation",
                        "auto", "--json"], capture_output=True, text=True, env=env, cwd=ROOT,
                       timeout=120)
    j = json.loads(p.stdout)
    assert j["status"] == "solved", p.stderr
    assert j["auto"]["why"].endswith("; outside the training range: rows = 1 < 8, cols = 1 < 8")
