"""The modelling layer's cost measurement (:mod:`bench.analysis.cpmpy_layer`) on a real Shikaku
puzzle: the native CP-SAT model and the CPMpy model of the same constraints, each solved and
judged by the rule verifier, build, translate and solve printed apart; bad input is one line."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests.conftest import ROOT, SHIKAKU_SEEDS

pytest.importorskip("cpmpy")

ENV = {**os.environ, "PYTHONPATH": os.pathsep.join(
    [str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])])}


def layer(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "bench.analysis.cpmpy_layer", *args],
                          capture_output=True, text=True, env=ENV, cwd=ROOT, timeout=300)


def test_both_models_measured_side_by_side() -> None:
    got = layer(str(SHIKAKU_SEEDS[0]), "cpsat-cover", "cpmpy-cover", "1")
    assert got.returncode == 0, got.stderr
    lines = got.stdout.splitlines()
    assert lines[0].strip() == SHIKAKU_SEEDS[0].name
    native, cpmpy = lines[1], lines[2]
    assert native.split()[0] == "cpsat-cover" and cpmpy.split()[0] == "cpmpy-cover"
    # the native model is never translated; the CPMpy one is handed to OR-tools
    assert float(native.split("translate")[1].split()[0]) == 0.0
    assert float(cpmpy.split("translate")[1].split()[0]) > 0.0


def test_bad_input_is_one_line(tmp_path) -> None:
    got = layer(str(tmp_path / "missing.txt"), "cpsat-cover", "cpmpy-cover", "1")
    assert got.returncode == 2
    assert len(got.stderr.strip().splitlines()) == 1 and "missing.txt" in got.stderr
