"""`puzzlebench solve` with a declared default that is a selector (``auto`` or ``robust``,
:data:`bench.select.rules.SELECTORS`): the selector's pick runs, a pick that declines falls back
to a pair (:data:`bench.select.rules.FALLBACK`), never to the selector again; and the JSON
carries ``setup_s`` beside the other times, as a run record does."""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from bench.instance import read_instance
from bench.select.rules import FALLBACK, resolve
from tests.conftest import ROOT

SEED = ROOT / "instances" / "nurikabe" / "seed-p01.txt"


def _solve_declared(default: str, *args: str) -> dict[str, Any]:
    """`solve --json ARGS` in a process whose Nurikabe declares ``Default(default, default)``."""
    code = ("import sys; from bench.puzzles import get_puzzle; "
            "from bench.puzzles.base import Default; "
            f"type(get_puzzle('nurikabe')).default = Default({default!r}, {default!r}); "
            f"from bench.cli import main; sys.exit(main(['solve', '--json', *{list(args)!r}]))")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       env={**os.environ, "PYTHONPATH": str(ROOT)}, cwd=ROOT, timeout=180)
    return json.loads(p.stdout)


def _sparse4(tmp_path: Path) -> Path:
    """Four clues of 25 on an 11x11: few clues on most of the grid, so a selector picks
    ``frontier``, which takes at most three clues and declines it."""
    rows = [["."] * 11 for _ in range(11)]
    for r, c in ((2, 2), (2, 8), (8, 2), (8, 8)):
        rows[r][c] = "25"
    path = tmp_path / "sparse4.txt"
    path.write_text("puzzle: nurikabe\n\n" + "\n".join(" ".join(r) for r in rows) + "\n")
    return path


def test_solve_json_carries_setup_s() -> None:
    p = subprocess.run([sys.executable, "-m", "bench.cli", "solve", "--json", str(SEED)],
                       capture_output=True, text=True, cwd=ROOT, timeout=180,
                       env={**os.environ, "PYTHONPATH": str(ROOT)})
    j = json.loads(p.stdout)
    assert j["status"] == "solved", j
    assert "setup_s" in j and (j["setup_s"] is None or j["setup_s"] >= 0)
    assert {"build_s", "solve_s", "wall_s"} <= set(j)  # the contract's keys stay


def test_a_declared_selector_runs_its_pick() -> None:
    j = _solve_declared("robust", str(SEED))
    form, solver, choice = resolve(read_instance(SEED), "robust")
    assert j["status"] == "solved", j
    assert j["auto"]["selector"] == "robust" and j["auto"]["pair"] == choice.pair
    assert (j["solver"], j["formulation"].split("[")[0]) == (solver, form.split("[")[0])


def test_a_declined_pick_under_a_declared_selector_falls_back_to_a_pair(tmp_path: Path) -> None:
    path = _sparse4(tmp_path)
    assert resolve(read_instance(path), "auto")[0] == "frontier"  # the premise: it declines
    j = _solve_declared("auto", "--time-limit", "2", str(path))
    assert j["auto"]["pair"] == "frontier / external" and "at most 3" in j["auto"]["declined"]
    assert j["auto"]["fallback"] == FALLBACK["nurikabe"]
    assert j["status"] in ("solved", "timeout")  # the fallback ran: no "skipped" error
    assert f"{j['formulation']} / {j['solver']}" == FALLBACK["nurikabe"]


def test_no_fallback_loop_when_the_fallback_pair_is_the_one_that_declined(
        monkeypatch: Any) -> None:
    from bench.cli.solve import _fallback
    from bench.puzzles import get_puzzle
    from bench.puzzles.base import Default

    monkeypatch.setattr(type(get_puzzle("nurikabe")), "default", Default("robust", "robust"))
    form, solver = FALLBACK["nurikabe"].rsplit(" / ", 1)
    declined = SimpleNamespace(formulation=form, solver=solver, message="declined", wall_s=0.01)
    out: dict[str, Any] = {"auto": {"pair": FALLBACK["nurikabe"]}}
    assert _fallback(argparse.Namespace(json=True), out, "nurikabe", declined) is declined
    assert "fallback" not in out["auto"]


def test_a_selector_named_on_the_command_line_looks_up_no_other_half() -> None:
    """``--formulation robust`` chooses both halves: no solver is looked up for a formulation
    called ``robust`` (that lookup loads every formulation to find none)."""
    code = ("import sys, bench.cli.solve as s; "
            "s._first_solver_for = s.formulation_for = lambda *a: 1 / 0; "
            f"from bench.cli import main; sys.exit(main(['solve', '--json', '--formulation', "
            f"'robust', {str(SEED)!r}]))")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       env={**os.environ, "PYTHONPATH": str(ROOT)}, cwd=ROOT, timeout=180)
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout)["auto"]["selector"] == "robust"


def _solve(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "bench.cli", "solve", *args],
                          capture_output=True, text=True, cwd=ROOT, timeout=180)


def test_one_half_named_is_filled_from_the_selectors_pair_not_the_selector():
    # Nurikabe's declared default is the selector robust: a named formulation is completed
    # with a solver that fits it, and a name that is no formulation or no solver is an error,
    # never a silent run of the selector's pick (the loop below fails on a selector filling in)
    j = json.loads(_solve("--json", "--formulation", "asp-reach[wall=reach]", "--time-limit",
                          "30", str(SEED)).stdout)
    assert j["status"] == "solved" and j["solver"] == "clingo" and "auto" not in j
    for half in ("--formulation", "--solver"):
        p = _solve("--json", half, "no-such-name", "--time-limit", "10", str(SEED))
        j = json.loads(p.stdout)
        assert p.returncode != 0 and j["status"] == "error" and "auto" not in j, j
