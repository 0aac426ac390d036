"""MIP backends agree on the edge a generator once produced: an instance whose givens leave
nothing to decide (every cell a given black cell), so the model has no variables. HiGHS calls
that model kModelEmpty, which Pyomo's APPSI reported as "unknown"; GLPK and CBC call it
optimal. Each must solve it, and the grid must pass the checker. A CBC that cbcbox cannot
provide here is unavailable, with its reason."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from tests.conftest import ROOT


@pytest.mark.parametrize("solver", ["highs", "glpk", "cbc"])
@pytest.mark.parametrize("formulation", ["mip-local", "mip-seed"])
def test_a_model_with_nothing_to_decide_is_solved(tmp_path, solver, formulation):
    inst = tmp_path / "all-black.txt"
    inst.write_text("puzzle: shakashaka\n\n# # #\n# # #\n")
    p = subprocess.run([sys.executable, "-m", "bench.cli", "solve", str(inst), "--json",
                        "--formulation", formulation, "--solver", solver],
                       capture_output=True, text=True, cwd=ROOT, timeout=120)
    out = json.loads(p.stdout)
    assert out["status"] == "solved", out
    assert out["grid"] == [["#"] * 3] * 2


def test_cbcbox_without_a_binary_here_makes_cbc_unavailable_not_a_crash():
    """cbcbox raises for a CBCBOX_BUILD it does not know (so does the `cbc` script it puts on
    PATH): CBC is unavailable, with cbcbox's reason, and `list` still lists."""
    pytest.importorskip("cbcbox")
    p = subprocess.run([sys.executable, "-m", "bench.cli", "list"], capture_output=True,
                       text=True, cwd=ROOT, timeout=120,
                       env={**os.environ, "CBCBOX_BUILD": "no-such-build"})
    assert p.returncode == 0, p.stderr[-500:]
    cbc = next(ln for ln in p.stdout.splitlines() if ln.split()[:1] == ["cbc"])
    assert "unavailable: cbcbox has no CBC binary here" in cbc, cbc
