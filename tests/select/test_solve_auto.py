"""`puzzlebench solve` with ``auto``: the learned rule's pair runs, and the command says which
pair and why (the feature values and the branch), on real instance files and real solvers."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bench.instance import read_instance
from bench.registry import get_formulation
from bench.select.rules import RULES, resolve
from tests.conftest import ROOT

SEEDS = {"nurikabe": "nurikabe/seed-p01.txt", "shikaku": "shikaku/seed-10x10.txt",
         "yinyang": "yinyang/seed-01.txt", "shakashaka": "shakashaka/seed-p01.txt",
         "fillomino": "fillomino/generated/gen-fillomino-6x6-s1-0.txt"}


def _solve(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "bench.cli", "solve", *args],
                          capture_output=True, text=True, env=env, cwd=ROOT, timeout=120)


def test_every_rule_names_registered_pairs() -> None:
    for puzzle, rule in RULES.items():
        assert rule.puzzle == puzzle and rule.evidence
        for pair in rule.pairs():
            form, solver = pair.rsplit(" / ", 1)
            assert get_formulation(puzzle, form).kind  # a known formulation and variant
            assert solver


@pytest.mark.parametrize("puzzle", sorted(SEEDS))
def test_resolve_gives_the_rule_s_pair_for_a_real_file(puzzle: str) -> None:
    inst = read_instance(ROOT / "instances" / SEEDS[puzzle])
    form, solver, choice = resolve(inst)
    assert f"{form} / {solver}" == choice.pair and choice.pair in RULES[puzzle].pairs()
    assert choice.why


def test_solve_auto_says_the_pair_and_why_and_solves() -> None:
    path = str(ROOT / "instances" / SEEDS["nurikabe"])
    p = _solve("--formulation", "auto", path)
    assert p.returncode == 0, p.stderr
    pair = resolve(read_instance(path))[2].pair
    assert f"auto chose {pair}: " in p.stderr
    assert pair.split(" / ")[0] in p.stdout  # the timing line names the pair that ran
    j = json.loads(_solve("--solver", "auto", "--json", path).stdout)
    assert j["status"] == "solved" and j["auto"]["pair"] == pair and j["auto"]["why"]
    assert f"{j['formulation']} / {j['solver']}" == pair


def test_a_puzzle_without_a_rule_is_one_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    from bench.select import rules

    inst = read_instance(ROOT / "instances" / SEEDS["shikaku"])
    monkeypatch.delitem(rules.RULES, "shikaku")
    with pytest.raises(KeyError, match="no auto rule for shikaku"):
        resolve(inst)


def test_auto_brings_no_pandas_onto_solve_s_path() -> None:
    path = str(ROOT / "instances" / SEEDS["nurikabe"])
    code = ("import sys; from bench.instance import read_instance; "
            "from bench.select.rules import resolve; "
            f"print(resolve(read_instance({path!r}))[2].pair); "
            "print(sorted(m for m in ('pandas', 'numpy', 'pyarrow') if m in sys.modules))")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=60)
    assert p.returncode == 0, p.stderr
    assert p.stdout.splitlines()[-1] == "[]"


@pytest.mark.parametrize("args", [("--formulation", "auto", "--solver", "cpsat"),
                                  ("--formulation", "sat-lazy", "--solver", "auto")])
def test_auto_with_an_explicit_other_half_is_one_clear_error(args: tuple[str, ...]) -> None:
    """auto chooses formulation and solver together: a pair half given beside it would be
    ignored, so it is refused with one line naming the file, and exit 2 (bad input)."""
    proc = _solve(str(ROOT / "instances" / SEEDS["yinyang"]), *args)
    assert proc.returncode == 2
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "auto chooses the formulation and the solver together" in lines[0]
    assert SEEDS["yinyang"] in lines[0]


def test_a_rule_reading_a_missing_feature_is_one_clear_error() -> None:
    """A rule that reads a feature the instance's features lack ends `solve` with one line
    naming the file, the puzzle and the feature, and exit 2: not a bare feature name."""
    path = str(ROOT / "instances" / SEEDS["yinyang"])
    code = ("import sys; from bench.select import rules; from bench.select.auto import Rule; "
            "rules.RULES['yinyang'] = Rule('yinyang', rules.YINYANG, rules.YINYANG, "
            "'no_such_feature', 1.0); from bench.cli import main; "
            f"sys.exit(main(['solve', '--formulation', 'auto', {path!r}]))")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       env={**os.environ, "PYTHONPATH": str(ROOT)}, cwd=ROOT, timeout=120)
    assert p.returncode == 2, p.stderr
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1, p.stderr
    assert SEEDS["yinyang"] in lines[0] and "no_such_feature" in lines[0]
    assert "auto rule of yinyang reads the feature" in lines[0]


def test_a_pair_that_declines_the_instance_falls_back_to_the_declared_default(
        tmp_path: Path) -> None:
    # four clues covering most of an 11x11: the rule's few-clue branch picks frontier, which
    # takes at most three clues and declines; the declared default then runs in its place
    rows = [["."] * 11 for _ in range(11)]
    for r, c in ((2, 2), (2, 8), (8, 2), (8, 8)):
        rows[r][c] = "25"
    path = tmp_path / "sparse4.txt"
    path.write_text("puzzle: nurikabe\n\n" + "\n".join(" ".join(r) for r in rows) + "\n")
    form, _, _ = resolve(read_instance(path))
    assert form == "frontier"  # the premise: the rule sends this grid to a pair that declines
    j = json.loads(_solve("--formulation", "auto", "--json", "--time-limit", "2",
                          str(path)).stdout)
    from bench.cli.solve import fallback_pair

    fallback = fallback_pair("nurikabe")  # the declared default, or its selector's pair
    assert fallback is not None
    assert j["auto"]["pair"] == "frontier / external" and "at most 3" in j["auto"]["declined"]
    assert j["auto"]["fallback"] == " / ".join(fallback)
    assert j["solver"] == fallback[1] and j["formulation"].startswith(fallback[0].split("[")[0])
    assert j["status"] in ("solved", "timeout")  # the default ran: no "skipped" error


@pytest.mark.parametrize("puzzle", ["nurikabe", "fillomino"])
def test_no_fallback_when_the_declined_pair_is_the_declared_default(puzzle: str) -> None:
    # the declared default written bare (Nurikabe) or with options (Fillomino) is compared by
    # its full label with the record's: the pair that declined is not run again
    import argparse
    from types import SimpleNamespace

    from bench.cli.solve import _fallback, fallback_pair

    pair = fallback_pair(puzzle)  # the declared default, or its selector's pair
    assert pair is not None
    form, solver = pair
    declined = SimpleNamespace(formulation=get_formulation(puzzle, form).label, solver=solver,
                               message="declined", wall_s=0.01)
    out: dict[str, Any] = {"auto": {"pair": f"{form} / {solver}"}}
    assert _fallback(argparse.Namespace(json=True), out, puzzle, declined) is declined
    assert "fallback" not in out["auto"]
